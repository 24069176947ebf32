//! Regression tests for translator bugs the execution-conformance runner found. Each test
//! hand-assembles a tiny pixel shader, runs it on the GPU through the runner, and checks a value
//! that the wrong translation computes differently.

use dxbc_wgsl_gpu::conformance::table::{run_pixel_shader, run_pixel_shader_multisampled};
#[path = "../tests/common/mod.rs"]
mod common;

use common::device;

use dxbc_wgsl_tests::asm::*;

const NAN: u32 = 0x7fc0_0000;
const ONE_AND_HALF: u32 = 0x3fc0_0000;

/// D3D's `ne` is an unordered comparison: true when either operand is NaN. WGSL's `!=` on floats
/// becomes an ordered compare in SPIR-V (false on NaN); translating `ne` as a plain `!=` gets the
/// NaN lanes wrong.
#[test]
fn ne_is_true_when_an_operand_is_nan() {
    let Some(dev) = device("ne_is_true_when_an_operand_is_nan") else { return };
    // cb0[0] = (NaN, 1.5, 1.5, 0)
    // ne r0.xyzw, cb0[0].xxyw, cb0[0].yxzx   -> (NaN != 1.5, NaN != NaN, 1.5 != 1.5, 0 != NaN)
    // mov o0.xyzw, r0.xyzw
    let body = [
        ins(NE, &[dst(TEMP, 0, "xyzw"), cb(0, 0, "xxyw"), cb(0, 0, "yxzx")]),
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]),
    ];
    let blob = pixel_shader(1, 1, &body, true);
    let got = run_pixel_shader(&dev, &blob, &[NAN, ONE_AND_HALF, ONE_AND_HALF, 0], wgpu::TextureFormat::Rgba32Uint)
        .expect("draw");
    assert_eq!(got, [u32::MAX, u32::MAX, 0, u32::MAX], "ne with NaN operands");
}

/// The ordered comparisons stay false on NaN (and `eq`/`lt`/`ge` still compare ordinary values).
#[test]
fn eq_lt_ge_are_false_when_an_operand_is_nan() {
    let Some(dev) = device("eq_lt_ge_are_false_when_an_operand_is_nan") else { return };
    // cb0[0] = (NaN, 1.5, -1.0, 1.0)
    // eq r0.x, cb0[0].x, cb0[0].x     NaN == NaN   -> 0
    // eq r0.y, cb0[0].y, cb0[0].y     1.5 == 1.5   -> ~0
    // lt r0.z, cb0[0].z, cb0[0].w     -1.0 < 1.0   -> ~0 (an integer compare of the bits says no)
    // ge r0.w, cb0[0].x, cb0[0].y     NaN >= 1.5   -> 0
    let body = [
        ins(EQ, &[dst(TEMP, 0, "x"), cb(0, 0, "xxxx"), cb(0, 0, "xxxx")]),
        ins(EQ, &[dst(TEMP, 0, "y"), cb(0, 0, "yyyy"), cb(0, 0, "yyyy")]),
        ins(LT, &[dst(TEMP, 0, "z"), cb(0, 0, "zzzz"), cb(0, 0, "wwww")]),
        ins(GE, &[dst(TEMP, 0, "w"), cb(0, 0, "xxxx"), cb(0, 0, "yyyy")]),
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]),
    ];
    let blob = pixel_shader(1, 1, &body, true);
    let got =
        run_pixel_shader(&dev, &blob, &[NAN, ONE_AND_HALF, 0xbf80_0000, 0x3f80_0000], wgpu::TextureFormat::Rgba32Uint)
            .expect("draw");
    assert_eq!(got, [0, u32::MAX, u32::MAX, 0], "eq/lt/ge");
}

/// The runner's own check: a partial write mask leaves the other lanes as the translation
/// initialises them, and immediates keep their bits (a sentinel through `mov`).
#[test]
fn partial_write_mask_keeps_sentinels() {
    let Some(dev) = device("partial_write_mask_keeps_sentinels") else { return };
    // mov r0.xyzw, l(0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef)
    // mov r0.yw, cb0[0].xxxy
    // mov o0.xyzw, r0.xyzw
    let body = [
        ins(MOV, &[dst(TEMP, 0, "xyzw"), imm([0xdead_beef; 4])]),
        ins(MOV, &[dst(TEMP, 0, "yw"), cb(0, 0, "xxxy")]),
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]),
    ];
    let blob = pixel_shader(1, 1, &body, true);
    let got = run_pixel_shader(&dev, &blob, &[7, 9, 0, 0], wgpu::TextureFormat::Rgba32Uint).expect("draw");
    assert_eq!(got, [0xdead_beef, 7, 0xdead_beef, 9]);
}

/// A register packing a user-defined input (v0.x) with SV_IsFrontFace (v0.y): the user element
/// keeps its location and the front-facing mask lands in .y. Translating the register as the
/// builtin alone put the mask in .x and dropped the user input.
#[test]
fn front_face_packed_beside_a_user_input_lands_in_its_component() {
    let Some(dev) = device("front_face_packed_beside_a_user_input_lands_in_its_component") else { return };
    // dcl_input_ps constant v0.x
    // dcl_input_ps_sgv constant v0.y, is_front_face
    // mov o0.xyzw, v0.xyxx
    let decls = [
        vec![DCL_INPUT_PS | (1 << 11) | (3 << 24), 0x0010_1012, 0],
        vec![DCL_INPUT_PS_SGV | (1 << 11) | (4 << 24), 0x0010_1022, 0, 9],
    ];
    let inputs = [Input("A", 0, 1, 0, 0b0001), Input("SV_IsFrontFace", 9, 1, 0, 0b0010)];
    let body = [ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 0, "xyxx")])];
    let blob = pixel_shader_with(0x40, &decls, &inputs, 1, &body, true);
    // The runner's full-screen triangle is clockwise on screen: front-facing under D3D's
    // default rasterizer state; its vertex shader writes 0 to every user location.
    let got = run_pixel_shader(&dev, &blob, &[], wgpu::TextureFormat::Rgba32Uint).expect("draw");
    assert_eq!(got, [0, u32::MAX, 0, 0], "v0.x = A (0), v0.y = the front-facing mask");
}

/// A pixel shader that reads SV_SampleIndex runs once per sample; D3D still gives SV_Position
/// (declared `linear noperspective`, not `sample`) at the pixel centre, while WebGPU's fragment
/// position is then the sample's location. Output: 8·(frac(position.xy) − 0.5)², which is 0 at
/// the centre and about 0.6 averaged over the 4× standard sample pattern.
#[test]
fn position_stays_at_the_pixel_centre_when_running_per_sample() {
    let Some(dev) = device("position_stays_at_the_pixel_centre_when_running_per_sample") else { return };
    // dcl_input_ps_siv linear noperspective v0.xy, position
    // dcl_input_ps_sgv v1.x, sample_index
    // frc r0.xy, v0.xyxx
    // add r0.xy, r0.xyxx, l(-0.5, -0.5, 0, 0)
    // mul r0.xy, r0.xyxx, r0.xyxx
    // mul r0.xy, r0.xyxx, l(8, 8, 0, 0)
    // mov r0.zw, l(0, 0, 0, 1)
    // mov o0.xyzw, r0.xyzw
    let decls = [
        vec![DCL_INPUT_PS_SIV | (4 << 11) | (4 << 24), 0x0010_1032, 0, 1],
        vec![DCL_INPUT_PS_SGV | (4 << 24), 0x0010_1012, 1, 10],
    ];
    let inputs = [Input("SV_Position", 1, 3, 0, 0b1111), Input("SV_SampleIndex", 10, 1, 1, 0b0001)];
    let half = (-0.5f32).to_bits();
    let body = [
        ins(FRC, &[dst(TEMP, 0, "xy"), src(INPUT, 0, "xyxx")]),
        ins(ADD, &[dst(TEMP, 0, "xy"), src(TEMP, 0, "xyxx"), imm([half, half, 0, 0])]),
        ins(MUL, &[dst(TEMP, 0, "xy"), src(TEMP, 0, "xyxx"), src(TEMP, 0, "xyxx")]),
        ins(MUL, &[dst(TEMP, 0, "xy"), src(TEMP, 0, "xyxx"), imm([8f32.to_bits(), 8f32.to_bits(), 0, 0])]),
        ins(MOV, &[dst(TEMP, 0, "zw"), imm([0, 0, 0, 1f32.to_bits()])]),
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]),
    ];
    let blob = pixel_shader_with(0x41, &decls, &inputs, 1, &body, false);
    let got = run_pixel_shader_multisampled(&dev, &blob, &[], wgpu::TextureFormat::Rgba8Unorm, 4).expect("draw");
    let [r, g, _, a] = got[0].to_le_bytes();
    assert_eq!((r, g, a), (0, 0, 255), "resolved (r, g, a) of 8·(frac(pos) − 0.5)²");
}

const IMUL: u32 = 38;
const UMUL: u32 = 81;
const UDIV: u32 = 78;

/// `null` destination.
fn null() -> Vec<u32> {
    vec![13 << 12]
}

/// The high half of `umul`/`imul` (WGSL has no mulhi): unsigned 0xFFFFFFFF² has high word
/// 0xFFFFFFFE; signed 0x80000000 × 7 = -15032385536 has high word -4 (an unsigned high half would
/// say 3) and low word 0x80000000.
#[test]
fn mul_high_halves_are_exact_signed_and_unsigned() {
    let Some(dev) = device("mul_high_halves_are_exact_signed_and_unsigned") else { return };
    // cb0[0] = (0xFFFFFFFF, 0x80000000, 7, 0)
    // umul r0.x, null, cb0[0].x, cb0[0].x
    // imul r0.y, r0.z, cb0[0].y, cb0[0].z
    // umul r0.w, null, cb0[0].y, cb0[0].z
    let body = [
        ins(UMUL, &[dst(TEMP, 0, "x"), null(), cb(0, 0, "xxxx"), cb(0, 0, "xxxx")]),
        ins(IMUL, &[dst(TEMP, 0, "y"), dst(TEMP, 0, "z"), cb(0, 0, "yyyy"), cb(0, 0, "zzzz")]),
        ins(UMUL, &[dst(TEMP, 0, "w"), null(), cb(0, 0, "yyyy"), cb(0, 0, "zzzz")]),
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]),
    ];
    let blob = pixel_shader(1, 1, &body, true);
    let got =
        run_pixel_shader(&dev, &blob, &[u32::MAX, 0x8000_0000, 7, 0], wgpu::TextureFormat::Rgba32Uint).expect("draw");
    assert_eq!(got, [0xFFFF_FFFE, 0xFFFF_FFFC, 0x8000_0000, 3], "umul/imul high and low words");
}

/// `udiv` reads both sources before writing either result: with the quotient written over the
/// dividend's register, the remainder must still be 9 % 4 = 1 (not 2 % 4).
#[test]
fn udiv_reads_its_sources_before_writing() {
    let Some(dev) = device("udiv_reads_its_sources_before_writing") else { return };
    // cb0[0] = (9, 4, 0, 0)
    // mov r0.x, cb0[0].x
    // udiv r0.x, r0.y, r0.x, cb0[0].y     -> r0.x = 2, r0.y = 1
    // mov o0.xy, r0.xy ; o0.zw = 0
    let body = [
        ins(MOV, &[dst(TEMP, 0, "x"), cb(0, 0, "xxxx")]),
        ins(UDIV, &[dst(TEMP, 0, "x"), dst(TEMP, 0, "y"), src(TEMP, 0, "xxxx"), cb(0, 0, "yyyy")]),
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzz")]),
    ];
    let blob = pixel_shader(1, 1, &body, true);
    let got = run_pixel_shader(&dev, &blob, &[9, 4, 0, 0], wgpu::TextureFormat::Rgba32Uint).expect("draw");
    assert_eq!(&got[..2], &[2, 1], "quotient and remainder");
}

/// D3D's pixel-shader `SV_Position.w` is the clip-space w; WGSL's fragment `position.w` is its
/// reciprocal. Drawn with w = 2 everywhere, D3D reads 2 (a straight copy would read 0.5).
#[test]
fn position_w_is_clip_w_not_its_reciprocal() {
    let Some(dev) = device("position_w_is_clip_w_not_its_reciprocal") else { return };
    // dcl_input_ps_siv linear noperspective v0.w, position
    // mov o0.xyzw, v0.wwww
    let decl = vec![DCL_INPUT_PS_SIV | (4 << 11) | (4 << 24), 2 | (8 << 4) | (1 << 12) | (1 << 20), 0, 1];
    let body = [ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(1, 0, "wwww")])];
    let blob = pixel_shader_with(0x40, &[decl], &[Input("SV_Position", 1, 3, 0, 0xf)], 1, &body, false);
    let got = dxbc_wgsl_gpu::conformance::table::run_pixel_shader_clip_w(
        &dev,
        &blob,
        &[],
        wgpu::TextureFormat::Rgba32Float,
        2.0,
    )
    .expect("draw");
    assert_eq!(f32::from_bits(got[0]), 2.0, "SV_Position.w");
}

/// `udiv` by an immediate with a zero lane (found by adversarial testing): D3D gives 0xFFFFFFFF
/// in both results where the divisor is 0. The WGSL divided a register by the constant `0u`,
/// which naga rejects ("Division by zero"): the shader was `failed`.
#[test]
fn udiv_by_an_immediate_zero_gives_all_ones() {
    let Some(dev) = device("udiv_by_an_immediate_zero_gives_all_ones") else { return };
    const UDIV: u32 = 78;
    // udiv r0.xy, r1.xy, cb0[0].xyxx, l(3, 0, 0, 0)
    // mov o0.xy, r0.xyxx
    // mov o0.zw, r1.xxxy
    let body = [
        ins(UDIV, &[dst(TEMP, 0, "xy"), dst(TEMP, 1, "xy"), cb(0, 0, "xyxx"), imm([3, 0, 0, 0])]),
        ins(MOV, &[dst(OUTPUT, 0, "xy"), src(TEMP, 0, "xyxx")]),
        ins(MOV, &[dst(OUTPUT, 0, "zw"), src(TEMP, 1, "xxxy")]),
    ];
    let blob = pixel_shader(1, 2, &body, true);
    let got = run_pixel_shader(&dev, &blob, &[7, 9, 0, 0], wgpu::TextureFormat::Rgba32Uint).expect("draw");
    assert_eq!(got, [2, u32::MAX, 1, u32::MAX], "(7 / 3, 9 / 0, 7 % 3, 9 % 0)");
}

/// Tint's verdict on the translation of `blob` (its first message when it rejects it); `None`
/// when `DXBC_WGSL_SKIP_TINT` is set.
fn tint_error(blob: &[u8]) -> Option<String> {
    if std::env::var_os("DXBC_WGSL_SKIP_TINT").is_some() {
        eprintln!("SKIPPED Tint: DXBC_WGSL_SKIP_TINT is set");
        return None;
    }
    let wgsl = dxbc_wgsl::translate(blob, &Default::default()).expect("translates").wgsl;
    let v = dxbc_wgsl_cli::tint::check(&[&wgsl])
        .unwrap_or_else(|e| panic!("{e} (set DXBC_WGSL_SKIP_TINT=1 to skip explicitly)"));
    (!v[0].ok).then(|| format!("{:?}\n{wgsl}", v[0].messages))
}

/// An `f32::MAX` immediate read as a float (HLSL's `FLT_MAX`, found by adversarial testing): naga
/// writes it as its shortest decimal, `340282350000000000000000000000000000000f`, which lies past
/// `f32::MAX`, and Tint rejects the literal ("value cannot be represented as 'f32'"): `failed`
/// under `qualify --tint`. It is now `bitcast<f32>` of its bits, and keeps its value.
#[test]
fn f32_max_immediates_are_valid_wgsl_and_keep_their_value() {
    const MIN: u32 = 51;
    let max = f32::MAX.to_bits();
    let neg_max = (-f32::MAX).to_bits();
    // min r0.xy, cb0[0].xyxx, l(FLT_MAX, -FLT_MAX, 0, 0)
    // mov o0.xyzw, r0.xyzw
    let body = [
        ins(MIN, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyxx"), imm([max, neg_max, 0, 0])]),
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]),
    ];
    let blob = pixel_shader(1, 1, &body, true);
    if let Some(e) = tint_error(&blob) {
        panic!("Tint rejects the translation: {e}");
    }
    let Some(dev) = device("f32_max_immediates_are_valid_wgsl_and_keep_their_value") else { return };
    let inf = f32::INFINITY.to_bits();
    let got = run_pixel_shader(&dev, &blob, &[inf, 0, 0, 0], wgpu::TextureFormat::Rgba32Uint).expect("draw");
    assert_eq!(&got[..2], &[max, neg_max], "(min(inf, FLT_MAX), min(0, -FLT_MAX))");
}

/// `ubfe`/`ibfe`/`bfi` with an immediate width and offset adding up past 32 (found by adversarial
/// testing): Tint rejects `extractBits`/`insertBits` of constant offset and count past the width
/// (`failed` under `qualify --tint`), though D3D defines them — the field ends at bit 31, as
/// WGSL's run-time clamp gives. The immediates are now read at run time.
#[test]
fn bit_fields_past_bit_31_are_valid_wgsl_and_end_at_bit_31() {
    const UBFE: u32 = 138;
    const IBFE: u32 = 139;
    const BFI: u32 = 140;
    // ubfe r0.x, l(31), l(11), cb0[0].x     -> cb0[0].x >> 11 (the field ends at bit 31)
    // ibfe r0.y, l(20), l(16), cb0[0].x     -> cb0[0].x >> 16, arithmetic
    // bfi r0.z, l(8), l(28), cb0[0].y, l(0) -> the low 4 bits of cb0[0].y at bits 28-31
    // mov r0.w, l(0)
    let body = [
        ins(UBFE, &[dst(TEMP, 0, "x"), imm([31; 4]), imm([11; 4]), cb(0, 0, "xxxx")]),
        ins(IBFE, &[dst(TEMP, 0, "y"), imm([20; 4]), imm([16; 4]), cb(0, 0, "xxxx")]),
        ins(BFI, &[dst(TEMP, 0, "z"), imm([8; 4]), imm([28; 4]), cb(0, 0, "yyyy"), imm([0; 4])]),
        ins(MOV, &[dst(TEMP, 0, "w"), imm([0; 4])]),
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]),
    ];
    let blob = pixel_shader(1, 1, &body, true);
    if let Some(e) = tint_error(&blob) {
        panic!("Tint rejects the translation: {e}");
    }
    let Some(dev) = device("bit_fields_past_bit_31_are_valid_wgsl_and_end_at_bit_31") else { return };
    let x = 0x8765_4321u32;
    let got = run_pixel_shader(&dev, &blob, &[x, 0xab, 0, 0], wgpu::TextureFormat::Rgba32Uint).expect("draw");
    assert_eq!(got, [x >> 11, ((x as i32) >> 16) as u32, 0xb000_0000, 0]);
}

/// A register read past its array with an immediate index (`cb0[512]` of a one-register buffer,
/// found by adversarial testing) reads 0, as D3D's out-of-bounds reads do. It was the constant
/// `vec4<f32>()`, so `log`/`rcp` of it became the constant expressions `log2(0.0)` and
/// `1.0 / 0.0`, which Tint rejects: `failed` under `qualify --tint`.
#[test]
fn reads_past_an_array_are_zero_and_not_constants() {
    const LOG: u32 = 47;
    const RCP: u32 = 129;
    // log r0.x, cb0[512].x
    // rcp r0.y, cb0[512].y
    // add r0.z, cb0[512].z, cb0[0].x
    // mov r0.w, cb0[0].y
    // mov o0.xyzw, r0.xyzw
    let body = [
        ins(LOG, &[dst(TEMP, 0, "x"), cb(0, 512, "xxxx")]),
        ins(RCP, &[dst(TEMP, 0, "y"), cb(0, 512, "yyyy")]),
        ins(ADD, &[dst(TEMP, 0, "z"), cb(0, 512, "zzzz"), cb(0, 0, "xxxx")]),
        ins(MOV, &[dst(TEMP, 0, "w"), cb(0, 0, "yyyy")]),
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]),
    ];
    let blob = pixel_shader(1, 1, &body, true);
    if let Some(e) = tint_error(&blob) {
        panic!("Tint rejects the translation: {e}");
    }
    let Some(dev) = device("reads_past_an_array_are_zero_and_not_constants") else { return };
    let got = run_pixel_shader(&dev, &blob, &[ONE_AND_HALF, 7, 0, 0], wgpu::TextureFormat::Rgba32Uint).expect("draw");
    assert_eq!(&got[2..], &[ONE_AND_HALF, 7], "(0 + 1.5, cb0[0].y)");
}
