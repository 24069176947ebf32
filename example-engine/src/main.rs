//! `example-engine --out frame.png`: renders one frame offscreen and writes it as a PNG.

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
    /// Reload the stage WGSL that `dxbc-wgsl watch --out DIR` writes and render again (the PNG
    /// is replaced atomically) on every change, until Ctrl-C.
    #[arg(long, value_name = "DIR")]
    watch: Option<PathBuf>,
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
    let frame = example_engine::scene::render_frame(gpu, args.width, args.height).context("rendering the frame")?;
    frame.save_png(&args.out).with_context(|| format!("writing {}", args.out.display()))?;
    println!("wrote {} ({}x{})", args.out.display(), frame.width, frame.height);
    Ok(())
}
