//! # dxbc-wgsl-build
//!
//! Build-time integration of [`dxbc_wgsl`]: effect files (`*.effect.toml`), the Rust binding
//! generator, the [`Builder`] for `build.rs`, and (as a binary) the `dxbc-wgsl` command line.
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
//! - [`watch`]: the watcher behind `dxbc-wgsl watch` (re-translate, re-qualify, re-validate on
//!   change), and [`workspace`]: the effects a cargo workspace declares.
//! - `gpu_validate` (feature `gpu`): creates every pipeline of an effect, or of a bare shader, on
//!   a real wgpu device and reports what the device rejects.
#![warn(missing_docs)]

pub mod builder;
pub mod codegen;
pub mod compile;
#[cfg(feature = "gpu")]
pub mod conformance;
pub mod diag;
pub mod effect;
#[cfg(feature = "gpu")]
pub mod gpu_validate;
pub mod plan;
pub mod reflect;
pub mod stage;
pub mod tint;
pub mod vertex;
pub mod watch;
pub mod workspace;

pub use builder::{BuildError, BuildReport, Builder};
pub use codegen::generate;
pub use diag::{Diagnostic, Diagnostics};
pub use effect::Effect;
pub use stage::StageInfo;
