//! Per-primitive selection (`docs/per-primitive.md`): `dxbc_wgsl_runtime::select`, the one the
//! generated code uses.

pub use dxbc_wgsl_runtime::select::*;
