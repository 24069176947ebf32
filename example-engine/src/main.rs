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
