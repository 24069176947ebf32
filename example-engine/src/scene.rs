//! The demo scene.

use crate::gpu::{Gpu, GpuError};
use crate::target::{Image, Target};

/// Renders the demo frame and reads it back.
pub fn render_frame(gpu: &Gpu, width: u32, height: u32) -> Result<Image, GpuError> {
    let target = Target::new(gpu, width, height);
    gpu.scoped("drawing the frame", |device| {
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let _pass = target.begin_pass(
                &mut encoder,
                wgpu::Color {
                    r: 0.2,
                    g: 0.3,
                    b: 0.4,
                    a: 1.0,
                },
            );
        }
        gpu.queue.submit([encoder.finish()]);
    })?;
    target.read_back(gpu)
}
