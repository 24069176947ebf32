//! Shared helpers for the cross-crate tests.

use std::path::{Path, PathBuf};

pub mod asm;
pub mod basic_effect_model;
pub mod counter_fixture;
pub mod dual_texture_model;
pub mod example_shaders;
pub mod geometry_fixture;
pub mod gpu;
pub mod layered_fixture;
pub mod mesh_raster;
pub mod point_sprite_model;
pub mod raster;
pub mod sample_fixture;
pub mod skinned_effect_model;
pub mod so_fixture;
pub mod so_model;
pub mod texels;
pub mod texture2dms_fixture;

/// The reference tessellator's outputs (`cases.txt`, `expected.jsonl`):
/// `$DXBC_WGSL_TESSELLATOR_REFERENCE`, else `<workspace>/../shared/tessellator-reference`; `None`
/// when neither exists (tests then skip with a printed message).
pub fn tessellator_reference_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DXBC_WGSL_TESSELLATOR_REFERENCE") {
        let p = PathBuf::from(p);
        if p.is_dir() {
            return Some(p);
        }
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tessellator-reference");
    p.is_dir().then_some(p)
}

/// The shared corpus folder: `$DXBC_WGSL_CORPUS`, else `<workspace>/../shared/corpus`; `None` when
/// neither exists (tests then skip with a printed message).
pub fn corpus_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DXBC_WGSL_CORPUS") {
        let p = PathBuf::from(p);
        if p.is_dir() {
            return Some(p);
        }
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    p.is_dir().then_some(p)
}
