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

/// Without a desktop session `XDG_RUNTIME_DIR` is unset, and Mesa's drivers (libwayland probing
/// for a compositor) print `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` for
/// every instance they set up. When it is unset or not absolute, point it at a private folder of
/// this user's (`$TMPDIR/dxbc-wgsl-runtime-UID`, mode 0700, as `dxbc-wgsl` does), before any
/// thread starts. A folder there that is not this user's private one leaves the variable alone.
#[cfg(target_os = "linux")]
fn quiet_runtime_dir() {
    use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _};
    if std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|v| v.to_string_lossy().starts_with('/')) {
        return;
    }
    let Ok(uid) = std::fs::metadata("/proc/self").map(|m| m.uid()) else { return };
    let dir = std::env::temp_dir().join(format!("dxbc-wgsl-runtime-{uid}"));
    let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
    let private = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir() && m.uid() == uid && m.mode() & 0o077 == 0);
    if private && dir.is_absolute() {
        std::env::set_var("XDG_RUNTIME_DIR", &dir);
    }
}

#[cfg(not(target_os = "linux"))]
fn quiet_runtime_dir() {}

fn main() -> ExitCode {
    quiet_runtime_dir();
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
