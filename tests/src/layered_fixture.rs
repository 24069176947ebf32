//! The shaders of `tests/effects/layered.effect.toml` and `tests/execution/per_primitive.rs`:
//! a vertex shader writing a per-primitive system value from a vertex attribute, and a pixel
//! shader reading it (docs/per-primitive.md).

use crate::asm::*;

/// `D3D_NAME` of SV_CullDistance, SV_RenderTargetArrayIndex and SV_ViewportArrayIndex.
pub const NAME_CULL_DISTANCE: u32 = 3;
/// `D3D_NAME_RENDER_TARGET_ARRAY_INDEX`.
pub const NAME_RENDER_TARGET_ARRAY_INDEX: u32 = 4;
/// `D3D_NAME_VIEWPORT_ARRAY_INDEX`.
pub const NAME_VIEWPORT_ARRAY_INDEX: u32 = 5;
/// The pixel shader's marker in its output's `y`.
pub const MARK: u32 = 7;

/// `dcl_input_ps_siv constant v#.mask, name`.
pub fn dcl_input_ps_siv_flat(register: u32, m: &str, name: u32) -> Vec<u32> {
    ins(DCL_INPUT_PS_SIV | (1 << 11), &[dst(INPUT, register, m), vec![name]])
}

/// `vs_4_0`: `o0 = v0` (SV_Position from POSITION), `o1.x = v1.x` (INDEX, uint) as the system
/// value `name` (`semantic`).
pub fn vertex_shader(name: u32, semantic: &'static str) -> Vec<u8> {
    let decls = [
        dcl_vs_input(0, "xyzw", 0),
        dcl_vs_input(1, "x", 0),
        dcl_output(0, "xyzw", NAME_POSITION),
        dcl_output(1, "x", name),
    ];
    let body = [
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 0, "xyzw")]),
        ins(MOV, &[dst(OUTPUT, 1, "x"), src(INPUT, 1, "xxxx")]),
    ];
    let inputs = [Element("POSITION", 0, 0, 3, 0, "xyzw"), Element("INDEX", 0, 0, 1, 1, "x")];
    let outputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element(semantic, 0, name, 1, 1, "x")];
    shader(VS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// `ps_4_0`: target 0 (uint) = `(v1.x, MARK, 0, 1)`, `v1.x` the system value `name` it reads.
pub fn pixel_shader(name: u32, semantic: &'static str) -> Vec<u8> {
    let decls = [dcl_input_ps_siv_flat(1, "x", name), dcl_output(0, "xyzw", 0)];
    let body = [
        ins(MOV, &[dst(OUTPUT, 0, "x"), src(INPUT, 1, "xxxx")]),
        ins(MOV, &[dst(OUTPUT, 0, "yzw"), imm([0, MARK, 0, 1])]),
    ];
    let inputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element(semantic, 0, name, 1, 1, "x")];
    let outputs = [Element("SV_Target", 0, 0, 1, 0, "xyzw")];
    shader(PS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// The blobs by file name, as `tests/fixtures/layered/` holds them (SV_RenderTargetArrayIndex).
pub fn blobs() -> [(&'static str, Vec<u8>); 2] {
    let s = "SV_RenderTargetArrayIndex";
    [
        ("Layered_VS.dxbc", vertex_shader(NAME_RENDER_TARGET_ARRAY_INDEX, s)),
        ("Layered_PS.dxbc", pixel_shader(NAME_RENDER_TARGET_ARRAY_INDEX, s)),
    ]
}
