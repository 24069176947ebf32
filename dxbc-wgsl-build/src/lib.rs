//! # dxbc-wgsl-build
//!
//! Build-time integration of [`dxbc_wgsl`]: effect files (`*.effect.toml`), the Rust binding
//! generator and the [`Builder`] for `build.rs` — exactly what a build script and
//! `include_effect!` need, and nothing more (the command line is `dxbc-wgsl-cli`, GPU
//! validation and the conformance runner `dxbc-wgsl-gpu`).
//!
//! - [`effect`]: the effect-file model and parser (format: `docs/effect-format.md`).
//! - [`compile`]: loads an effect's shader inputs, translates them and checks them against the
//!   effect file (constant-buffer sizes, stage linking, vertex formats).
//! - [`codegen`]: [`generate`] turns a compiled effect into a Rust module (API:
//!   `docs/binding-model.md`). `Builder` and `include_effect!` both call it, so their output is
//!   byte-identical.
//! - [`plan`]: the pipeline plan (bind group layouts, vertex layouts per pass and permutation)
//!   that the generated code and the GPU validator share.
//! - [`builder`]: [`Builder`], incremental and cached, for `build.rs`.
//! - [`reflect`]: constant-buffer layouts from a shader's reflection (RDEF), placed by HLSL's
//!   packing rules from the reflected types and checked against the reflected offsets, and their
//!   Rust structs; usable without an effect file.
//! - [`wgpu_version`]: the generated code compiles against wgpu 30.x; `Builder` and
//!   `include_effect!` check the wgpu the user's crate resolves (its `Cargo.lock`).
//!
//! The modules import each other in one direction, never in a circle (`tests/module_graph.rs`
//! checks it): `effect` (with `diag` and `vertex`) at the bottom; `vertex_layout`, `stage`, `reflect` and the
//! struct writer (`structs`, `writer`: the `#[repr(C)]` constant-buffer structs that `codegen`
//! and `reflect` print) on it; `compile` on those; `plan` on `compile`; `codegen` on `plan`;
//! `builder` on top.
#![warn(missing_docs)]

pub mod builder;
pub mod codegen;
pub mod compile;
pub mod diag;
pub mod effect;
pub mod input;
pub mod plan;
pub mod reflect;
pub mod stage;
mod structs;
pub mod vertex;
pub mod vertex_layout;
pub mod web;
pub mod wgpu_version;
mod writer;

pub use builder::{BuildError, BuildReport, Builder};
pub use codegen::generate;
pub use diag::{Diagnostic, DiagnosticKind, Diagnostics};
pub use effect::Effect;
pub use stage::StageInfo;
