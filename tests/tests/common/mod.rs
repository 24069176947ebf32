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
