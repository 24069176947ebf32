//! A small headless wgpu renderer drawing DirectXTK effects whose compiled Direct3D bytecode was
//! translated to WGSL by dxbc-wgsl at build time.

pub mod effects;
pub mod gpu;
pub mod lighting;
pub mod math;
pub mod mesh;
pub mod reload;
pub mod target;
pub mod texture;

pub use gpu::{Gpu, GpuError, NO_ADAPTER_HINT};
pub use target::{read_rgba8, Image, Target, COLOR_FORMAT, DEPTH_FORMAT};
pub mod scene;
pub mod sheet;
pub mod web;
