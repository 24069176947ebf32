//! The runtime of the Rust modules dxbc-wgsl generates: what every generated module shares, so
//! that a module holds only what is specific to its effect (as prost's generated code depends on
//! `prost`).
//!
//! - [`primitive_stage`]: D3D geometry shaders on WebGPU, as compute work in front of a draw
//!   (`docs/geometry.md`); its [`primitive_stage::DrawCall`], [`primitive_stage::Prepared`] and
//!   errors are the same types for every effect of a crate;
//! - [`stream_output`]: D3D's stream-output stage over the primitive stage's output
//!   (`docs/stream-output.md`);
//! - [`select`]: per-primitive layer and viewport selection (`docs/per-primitive.md`);
//! - [`tessellator`]: D3D11's fixed-function tessellator in compute, a batch of patches per
//!   dispatch (`docs/tessellation.md`);
//! - [`wgpu`]: the wgpu this crate and the generated code are built against (a user crate may
//!   use it instead of depending on wgpu itself);
//! - [`include_effect!`] (feature `macros`, on by default): an effect file's module at macro
//!   expansion time.
//!
//! The numbers and layouts these modules share with the translated WGSL are defined once, in
//! [`dxbc_wgsl_contract`] (re-exported as [`contract`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod primitive_stage;
pub mod select;
pub mod stream_output;
pub mod tessellator;

pub use dxbc_wgsl_contract as contract;
pub use wgpu;

#[cfg(feature = "macros")]
pub use dxbc_wgsl_macros::include_effect;

/// This crate's version. The build side checks that the generated code and the runtime a user
/// crate resolves agree by reading the crate's `Cargo.lock` (`dxbc_wgsl_build::wgpu_version::check`),
/// not through this constant.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
