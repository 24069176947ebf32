//! The shaders of `tests/execution/texture2dms_views.rs` and
//! `tests/effects/texture2dms.effect.toml`: a pixel shader that `ld2dms`es a `texture2dms` of a
//! given declared sample count at [`CASES`] and stores the texels, then `sampleinfo`, `samplepos`
//! and `resinfo` of the texture, into a raw UAV (`u1`), and D3D's answers computed on the CPU.

use crate::asm::*;
use crate::sample_fixture::{DCL_RESOURCE, PS_5_0, RESOURCE, SAMPLE_INFO, SAMPLE_POS};

pub const LD_MS: u32 = 46;
pub const RESINFO: u32 = 61;

/// Width and height of the textures the tests bind.
pub const SIZE: u32 = 2;

/// `(x, y, sample index)` of each `ld2dms`: inside the 2×2 texture at every sample of 4, a sample
/// index past 4 and past 1, coordinates past the right edge and "negative", index 0xFFFFFFFF.
pub const CASES: [(i32, i32, u32); 9] =
    [(0, 0, 0), (1, 0, 0), (0, 1, 1), (1, 1, 2), (1, 1, 3), (1, 0, 4), (2, 0, 0), (0, -1, 0), (1, 1, 0xFFFF_FFFF)];

/// Words the shader stores: 4 per case, then `(sampleinfo_uint, samplepos(0).xy, 0)` and
/// `resinfo_uint` of mip 0.
pub const WORDS: usize = 4 * CASES.len() + 8;

/// `ps_5_0`: `dcl_resource_texture2dms(samples) (uint,uint,uint,uint) t0`, `dcl_uav_raw u1`;
/// per case `k` `ld2dms r0.xyzw, l(x, y, 0, 0), t0.xyzw, l(s)` stored at byte `16k`; then
/// `sampleinfo_uint r1.x, t0.x`, `samplepos r1.yz, t0.xxyx, l(0)`, `resinfo_uint r2, l(0), t0`.
pub fn ld2dms_shader(samples: u32) -> Vec<u8> {
    let decls =
        [vec![DCL_RESOURCE | (4 << 11) | (samples << 16) | (4 << 24), 0x0010_7000, 0, 0x4444], dcl_uav_raw(1, false)];
    let mut body = Vec::new();
    for (k, &(x, y, s)) in CASES.iter().enumerate() {
        body.push(ins(
            LD_MS,
            &[dst(TEMP, 0, "xyzw"), imm([x as u32, y as u32, 0, 0]), src(RESOURCE, 0, "xyzw"), imm([s; 4])],
        ));
        body.push(ins(STORE_RAW, &[dst(UAV, 1, "xyzw"), imm([16 * k as u32; 4]), src(TEMP, 0, "xyzw")]));
    }
    let at = 16 * CASES.len() as u32;
    body.extend([
        ins(MOV, &[dst(TEMP, 1, "w"), imm([0; 4])]),
        ins(SAMPLE_INFO | (1 << 11), &[dst(TEMP, 1, "x"), src(RESOURCE, 0, "xxxx")]),
        ins(SAMPLE_POS, &[dst(TEMP, 1, "yz"), src(RESOURCE, 0, "xxyx"), imm([0; 4])]),
        ins(STORE_RAW, &[dst(UAV, 1, "xyzw"), imm([at; 4]), src(TEMP, 1, "xyzw")]),
        ins(RESINFO | (2 << 11), &[dst(TEMP, 2, "xyzw"), imm([0; 4]), src(RESOURCE, 0, "xyzw")]),
        ins(STORE_RAW, &[dst(UAV, 1, "xyzw"), imm([at + 16; 4]), src(TEMP, 2, "xyzw")]),
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), imm([0; 4])]),
    ]);
    pixel_shader_with(PS_5_0, &decls, &[], 3, &body, false)
}

/// The texel of a single-sampled 2×2 `rgba8uint` texture at `(x, y)`.
pub fn single_texel(x: u32, y: u32) -> [u32; 4] {
    [10 + x, 20 + y, 30, 40 + x + 2 * y]
}

/// Sample `s` of texel `(x, y)` of a 4-sample 2×2 `rgba8uint` texture (every word distinct per
/// texel and sample).
pub fn multi_texel(x: u32, y: u32, s: u32) -> [u32; 4] {
    let t = x + 2 * y;
    [t, s, 7 + s, 200 + 4 * t + s]
}

/// The texels of the single-sampled texture, row by row, as `rgba8uint` bytes.
pub fn single_bytes() -> Vec<u8> {
    (0..SIZE * SIZE).flat_map(|i| single_texel(i % SIZE, i / SIZE).map(|c| c as u8)).collect()
}

/// D3D's answers for a texture of `samples` samples per texel (1 or 4) whose sample `s` of
/// texel `(x, y)` is `texel(x, y, s)`: `ld2dms` reads zero for coordinates outside the texture
/// and for a sample index of `samples` or more (D3D11.3 "ld2dms"); `sampleinfo` is the count;
/// `samplepos` of sample 0 is the centre for 1 sample, D3D's standard `(-2, -6) / 16` for 4;
/// `resinfo` is `(2, 2, 0, 1)` (one mip level).
pub fn expected(samples: u32, texel: impl Fn(u32, u32, u32) -> [u32; 4]) -> Vec<u32> {
    let mut out = Vec::new();
    for &(x, y, s) in &CASES {
        let inside = (0..SIZE as i32).contains(&x) && (0..SIZE as i32).contains(&y) && s < samples;
        out.extend(if inside { texel(x as u32, y as u32, s) } else { [0; 4] });
    }
    let position = if samples == 4 { [-2.0f32 / 16.0, -6.0 / 16.0] } else { [0.0, 0.0] };
    out.extend([samples, position[0].to_bits(), position[1].to_bits(), 0]);
    out.extend([SIZE, SIZE, 0, 1]);
    out
}

/// `vs_4_0` passing a position on, as `tests/fixtures/texture2dms/` holds it.
pub fn blobs() -> [(&'static str, Vec<u8>); 2] {
    [("Position_VS.dxbc", crate::sample_fixture::position_vs()), ("Ld2dmsAny_PS.dxbc", ld2dms_shader(0))]
}
