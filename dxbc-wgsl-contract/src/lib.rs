//! The contract between what dxbc-wgsl translates and generates and the code that drives it.
//!
//! Translated WGSL, the Rust that `dxbc-wgsl-build` generates, the runtime (`dxbc-wgsl-runtime`),
//! the web artifact and GPU validation all agree on a few numbers and layouts: which bind group
//! holds which stage's resources, where the emulated stages' own buffers are bound, the layout
//! of the uniforms those stages read, the D3D11 topologies and how a draw's positions assemble
//! into primitives, the stream-output kernels' bindings. This crate is the one place each of
//! them is defined; it has no dependencies (the `serde` feature adds serde derives).
//!
//! | module | what |
//! |---|---|
//! | [`bindings`] | bind groups per stage, binding ranges per register class and space, UAV counters |
//! | [`geometry`] | the primitive stage (geometry shaders as compute): its group, bindings, `DrawParams`, topologies, the assembly kernel and the WGSL helper libraries translated modules are built into |
//! | [`stream_output`] | the stream-output kernels, their bindings and uniform |
//! | [`select`] | per-primitive layer and viewport selection: its group, binding and uniform |
//! | [`tessellator`] | D3D11's fixed-function tessellator, bit-exact: on the CPU, and its WGSL kernel's bindings (docs/tessellation.md) |
//!
//! The WGSL sources in `src/wgsl/` are part of the contract: they declare the bindings and
//! structs below in WGSL. The test `mirrored_structs` lays out every WGSL struct that mirrors a
//! Rust one with naga's layouter and compares each member's offset with `offset_of!`, and checks
//! every `@group(..) @binding(..)` they declare against these constants.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bindings;
pub mod geometry;
pub mod select;
pub mod stream_output;
pub mod tessellator;
