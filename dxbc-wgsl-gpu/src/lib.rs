//! # dxbc-wgsl-gpu
//!
//! The parts of dxbc-wgsl that need a GPU, over wgpu: kept out of `dxbc-wgsl-build` so that a
//! user's `build.rs` never compiles wgpu for them.
//!
//! - [`gpu_validate`]: creates every pipeline of a compiled effect (every pass × permutation,
//!   render and compute), or of a bare shader, on a real device inside error scopes, and reports
//!   what the device rejects. The descriptors come from the same pipeline plan
//!   (`dxbc_wgsl_build::plan`) the generated code prints.
//! - [`conformance`]: runs translated shaders and compares what they compute with the D3D test
//!   suites' expectations (`docs/conformance.md`).
//! - [`primitive_stage`]: the primitive stage's runtime (geometry shaders as compute work in
//!   front of a draw), the source generated code embeds.
//! - [`select`]: per-primitive selection (layered and viewport-array draws, culling).
//! - [`wgpu_map`]: the library's typed binding data (view dimensions, sample types, texel
//!   formats) as wgpu's types, shared by both.
#![warn(missing_docs)]

pub mod conformance;
pub mod fullscreen;
pub mod gpu_validate;
pub mod primitive_stage;
pub mod select;
pub mod stream_output;
pub mod wgpu_map;
