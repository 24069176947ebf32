//! Helpers for the test files that run translations through the conformance runner's device
//! (`#[path = "../tests/common/mod.rs"] mod common;` in each).

use dxbc_wgsl_gpu::conformance::Device;

/// A device, or `None` (with a message) when `DXBC_WGSL_SKIP_GPU=1`; fails when no adapter exists.
pub fn device(test: &str) -> Option<Device> {
    if std::env::var(dxbc_wgsl_tests::gpu::SKIP_GPU_ENV).is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED {test}: {}=1", dxbc_wgsl_tests::gpu::SKIP_GPU_ENV);
        return None;
    }
    match Device::new() {
        Ok(d) => Some(d),
        Err(e) => panic!("{test}: {e}\n(set DXBC_WGSL_SKIP_GPU=1 to skip the GPU tests explicitly)"),
    }
}

/// Reads a whole buffer (`COPY_SRC`) back as words (the stream-output tests).
#[allow(dead_code)]
pub fn read_words(dev: &Device, buffer: &wgpu::Buffer) -> Vec<u32> {
    let size = buffer.size();
    let staging = dev.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read-back"),
        size,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
    dev.queue.submit([encoder.finish()]);
    let slice = staging.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = sender.send(r);
    });
    dev.wait().expect("wait");
    receiver.recv().expect("map").expect("map");
    let data = slice.get_mapped_range().expect("mapped range");
    let out = bytemuck::cast_slice::<u8, u32>(&data).to_vec();
    drop(data);
    staging.unmap();
    out
}
