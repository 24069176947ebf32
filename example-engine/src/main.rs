//! `example-engine --out frame.png`: renders one frame offscreen and writes it as a PNG.
//! `example-engine --all-effects --out sheet.png`: renders the contact sheet of every DirectXTK
//! effect family (up to eight permutations each) and the point sprites (a pass with a geometry
//! shader) instead.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use example_engine::{Gpu, GpuError};

/// Renders DirectXTK effects translated from Direct3D bytecode by dxbc-wgsl, offscreen.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// Where to write the rendered frame (PNG).
    #[arg(long, default_value = "frame.png")]
    out: PathBuf,
    /// Frame width in pixels.
    #[arg(long, default_value_t = 640)]
    width: u32,
    /// Frame height in pixels.
    #[arg(long, default_value_t = 480)]
    height: u32,
    /// Render a contact sheet of every DirectXTK effect family and the point sprites (up to 8
    /// permutations each, one labelled tile per permutation) instead of the frame; --width and
    /// --height do not apply.
    #[arg(long)]
    all_effects: bool,
    /// Reload the stage WGSL that `dxbc-wgsl watch --out DIR` writes and render again (the PNG
    /// is replaced atomically) on every change, until Ctrl-C.
    #[arg(long, value_name = "DIR")]
    watch: Option<PathBuf>,
    /// Also write the frame's scene for the browser into DIR: every effect's web artifact
    /// (`<module>.effect.json`), `scene.json` and `scene.bin` (meshes, textures, samplers,
    /// constant-buffer values, camera; docs/web-artifact.md), and `<module>.scene.json` for seven
    /// contact-sheet rows, which `tools/browser` draws.
    #[arg(long, value_name = "DIR")]
    web_scene: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error @ GpuError::NoAdapter { .. }) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    println!("adapter: {}", gpu.adapter_summary());
    if let Some(dir) = &args.watch {
        return example_engine::reload::cli(&gpu, dir, &args.out, (args.width, args.height));
    }
    match run(&gpu, &args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(gpu: &Gpu, args: &Args) -> anyhow::Result<()> {
    if args.all_effects {
        return run_sheet(gpu, args);
    }
    let renderer = example_engine::scene::Renderer::new(gpu, args.width, args.height, Default::default())
        .context("creating the renderer")?;
    let frame = renderer.render(gpu).context("rendering the frame")?;
    if let Some(dir) = &args.web_scene {
        example_engine::web::write_scene(dir, &renderer)?;
        println!("wrote the web scene into {}", dir.display());
    }
    frame.save_png(&args.out).with_context(|| format!("writing {}", args.out.display()))?;
    println!("wrote {} ({}x{})", args.out.display(), frame.width, frame.height);
    Ok(())
}

/// Renders the contact sheet, reports every tile, and fails (after writing the sheet) if a tile
/// could not be rendered.
fn run_sheet(gpu: &Gpu, args: &Args) -> anyhow::Result<()> {
    let sheet = example_engine::sheet::render_sheet(gpu);
    for row in &sheet.rows {
        println!(
            "{}: {} of {} permutation{} rendered{}",
            row.family,
            row.tiles - row.failed,
            row.permutations,
            if row.permutations == 1 { "" } else { "s" },
            if row.failed > 0 { format!(", {} FAILED", row.failed) } else { String::new() }
        );
        for tile in sheet.tiles.iter().filter(|t| t.family == row.family) {
            match &tile.result {
                Ok(_) => println!("  ok      {}", tile.label),
                Err(error) => println!("  FAILED  {}: {error}", tile.label),
            }
        }
    }
    sheet.image.save_png(&args.out).with_context(|| format!("writing {}", args.out.display()))?;
    let failed: usize = sheet.rows.iter().map(|r| r.failed).sum();
    println!(
        "wrote {} ({}x{}): {} tiles of {} effect families, {failed} failed",
        args.out.display(),
        sheet.image.width,
        sheet.image.height,
        sheet.tiles.len(),
        sheet.rows.len()
    );
    anyhow::ensure!(failed == 0, "{failed} tile(s) could not be rendered (marked FAILED on the sheet)");
    Ok(())
}
