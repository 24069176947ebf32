//! The shaders of `tests/execution/sample_positions.rs` and `tests/effects/sample_count.effect.toml`:
//! pixel shaders storing `sampleinfo` and `samplepos` of a multisampled texture or of the
//! rasterizer into a raw UAV, and a vertex shader passing a position on.

use crate::asm::*;

pub const DCL_RESOURCE: u32 = 88;
pub const SAMPLE_POS: u32 = 110;
pub const SAMPLE_INFO: u32 = 111;
pub const RESOURCE: u32 = 7;
pub const RASTERIZER: u32 = 14;
/// `ps_5_0`.
pub const PS_5_0: u32 = 0x50;

/// The sample indices the shaders query: every one of 4 samples, past them, and "negative".
pub const INDICES: [u32; 6] = [0, 1, 2, 3, 4, 0xFFFF_FFFF];

/// What the shaders read from.
#[derive(Clone, Copy, Debug)]
pub enum Source {
    /// `t0`, a `texture2dms` of any sample count.
    Texture,
    /// The rasterizer.
    Rasterizer,
}

/// `ps_5_0`: `sampleinfo_uint` and `sampleinfo` of `source` into u1 words 0 and 1, then
/// `samplepos source, INDICES[k]` into words `2 + 2k ..`.
pub fn pixel_shader(source: Source) -> Vec<u8> {
    let operand = |swz: &str| match source {
        Source::Texture => src(RESOURCE, 0, swz),
        Source::Rasterizer => special(RASTERIZER, swz),
    };
    let mut decls = Vec::new();
    if let Source::Texture = source {
        // dcl_resource_texture2dms(0) (float, float, float, float) t0
        decls.push(vec![DCL_RESOURCE | (4 << 11) | (4 << 24), 0x0010_7000, 0, 0x5555]);
    }
    decls.push(dcl_uav_raw(1, false));
    let mut body = vec![
        // sampleinfo_uint r0.x, source.x ; sampleinfo r0.y, source.x
        ins(SAMPLE_INFO | (1 << 11), &[dst(TEMP, 0, "x"), operand("xxxx")]),
        ins(SAMPLE_INFO, &[dst(TEMP, 0, "y"), operand("xxxx")]),
        ins(STORE_RAW, &[dst(UAV, 1, "xy"), imm([0; 4]), src(TEMP, 0, "xyxx")]),
    ];
    for (k, &index) in INDICES.iter().enumerate() {
        body.push(ins(SAMPLE_POS, &[dst(TEMP, 1, "xy"), operand("xyxx"), imm([index; 4])]));
        body.push(ins(STORE_RAW, &[dst(UAV, 1, "xy"), imm([8 + 8 * k as u32; 4]), src(TEMP, 1, "xyxx")]));
    }
    body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), imm([0; 4])]));
    pixel_shader_with(PS_5_0, &decls, &[], 2, &body, false)
}

/// `vs_4_0`: `o0 = v0` (SV_Position from POSITION).
pub fn position_vs() -> Vec<u8> {
    let inputs = [Element("POSITION", 0, 0, 3, 0, "xyzw")];
    let outputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw")];
    let decls = [dcl_vs_input(0, "xyzw", 0), dcl_output(0, "xyzw", NAME_POSITION)];
    let body = [ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 0, "xyzw")])];
    shader(VS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// The blobs by file name, as `tests/fixtures/sample_count/` holds them.
pub fn blobs() -> [(&'static str, Vec<u8>); 2] {
    [("Position_VS.dxbc", position_vs()), ("RasterizerSamples_PS.dxbc", pixel_shader(Source::Rasterizer))]
}
