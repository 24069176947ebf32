//! GPU test helpers: getting an adapter (or skipping explicitly) and comparing rendered pixels.

use example_engine::{Gpu, Image};

/// The environment variable that skips GPU tests explicitly (`DXBC_WGSL_SKIP_GPU=1`).
pub const SKIP_GPU_ENV: &str = "DXBC_WGSL_SKIP_GPU";

/// A device for a GPU test, or `None` when `DXBC_WGSL_SKIP_GPU=1` asks to skip.
///
/// Panics (failing the test) when no adapter exists: CI installs lavapipe, so a missing adapter
/// there is a broken setup, not a reason to pass silently.
pub fn gpu_or_skip(test: &str) -> Option<Gpu> {
    if std::env::var(SKIP_GPU_ENV).is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED {test}: {SKIP_GPU_ENV}=1");
        return None;
    }
    match Gpu::new() {
        Ok(gpu) => {
            eprintln!("{test}: adapter {}", gpu.adapter_summary());
            Some(gpu)
        }
        Err(error) => {
            panic!("{test}: {error}\n(set {SKIP_GPU_ENV}=1 to skip the GPU tests explicitly on this machine)")
        }
    }
}

/// One pixel's expected and rendered value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelCheck {
    pub x: u32,
    pub y: u32,
    pub expected: [u8; 4],
    pub actual: [u8; 4],
}

impl PixelCheck {
    /// Largest per-channel difference.
    pub fn max_diff(&self) -> u8 {
        (0..4).map(|c| self.expected[c].abs_diff(self.actual[c])).max().unwrap_or(0)
    }
}

/// Pairs each expected `(x, y, rgba)` with the rendered pixel.
pub fn check_pixels(image: &Image, expected: &[(u32, u32, [u8; 4])]) -> Vec<PixelCheck> {
    expected.iter().map(|&(x, y, expected)| PixelCheck { x, y, expected, actual: image.pixel(x, y) }).collect()
}

/// A table of the checks, one line each, for test output.
pub fn format_checks(checks: &[PixelCheck]) -> String {
    checks
        .iter()
        .map(|c| {
            format!(
                "  ({:3}, {:3}) expected {:3?} rendered {:3?} max diff {}\n",
                c.x,
                c.y,
                c.expected,
                c.actual,
                c.max_diff()
            )
        })
        .collect()
}

/// Submits `encoder` (the work that fills the texture), then reads mip 0 of a `width` x
/// `height` RGBA8 texture back, rows unpadded ([`example_engine::read_rgba8`]).
pub fn read_rgba8(
    gpu: &Gpu,
    encoder: wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    width: u32,
    height: u32,
) -> Vec<u8> {
    gpu.queue.submit([encoder.finish()]);
    example_engine::read_rgba8(gpu, texture, width, height).unwrap_or_else(|e| panic!("{e}")).rgba
}
