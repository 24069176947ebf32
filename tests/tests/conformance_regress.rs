//! Regression tests for translator bugs the execution-conformance runner found. Each test
//! hand-assembles a tiny pixel shader, runs it on the GPU through the runner, and checks a value
//! that the wrong translation computes differently.

use dxbc_wgsl_build::conformance::{table::run_pixel_shader, Device};

/// A device, or `None` (with a message) when `DXBC_WGSL_SKIP_GPU=1`; fails when no adapter exists.
fn device(test: &str) -> Option<Device> {
    if std::env::var(dxbc_wgsl_tests::gpu::SKIP_GPU_ENV).is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED {test}: {}=1", dxbc_wgsl_tests::gpu::SKIP_GPU_ENV);
        return None;
    }
    match Device::new() {
        Ok(d) => Some(d),
        Err(e) => panic!("{test}: {e}\n(set DXBC_WGSL_SKIP_GPU=1 to skip the GPU tests explicitly)"),
    }
}

/// A minimal SM4 assembler: operand and instruction tokens.
mod asm {
    /// Operand types.
    pub const TEMP: u32 = 0;
    pub const OUTPUT: u32 = 2;
    pub const IMMEDIATE32: u32 = 4;
    pub const CONSTANT_BUFFER: u32 = 8;

    /// Opcodes.
    pub const EQ: u32 = 24;
    pub const GE: u32 = 29;
    pub const LT: u32 = 49;
    pub const MOV: u32 = 54;
    pub const NE: u32 = 57;
    pub const RET: u32 = 62;
    pub const DCL_CONSTANT_BUFFER: u32 = 89;
    pub const DCL_OUTPUT: u32 = 101;
    pub const DCL_TEMPS: u32 = 104;

    /// `xyzw` → swizzle bits; each char one of `xyzw`.
    pub fn swizzle(s: &str) -> u32 {
        s.bytes().enumerate().map(|(i, c)| (u32::from(c - b'x') & 3) << (2 * i)).sum::<u32>()
    }

    /// `xyzw` subset → write-mask bits.
    pub fn mask(s: &str) -> u32 {
        s.bytes().map(|c| 1 << ((c.wrapping_sub(b'x')) & 3)).fold(0, |a, b| a | b)
    }

    /// A destination register `type#[index].mask`.
    pub fn dst(ty: u32, index: u32, m: &str) -> Vec<u32> {
        vec![2 | (mask(m) << 4) | (ty << 12) | (1 << 20), index]
    }

    /// A source register `type#[index].swizzle`.
    pub fn src(ty: u32, index: u32, swz: &str) -> Vec<u32> {
        vec![2 | (1 << 2) | (swizzle(swz) << 4) | (ty << 12) | (1 << 20), index]
    }

    /// `cb{slot}[{index}].swizzle`.
    pub fn cb(slot: u32, index: u32, swz: &str) -> Vec<u32> {
        vec![2 | (1 << 2) | (swizzle(swz) << 4) | (CONSTANT_BUFFER << 12) | (2 << 20), slot, index]
    }

    /// `l(a, b, c, d)`.
    pub fn imm(v: [u32; 4]) -> Vec<u32> {
        let mut t = vec![2 | (IMMEDIATE32 << 12)];
        t.extend_from_slice(&v);
        t
    }

    /// One instruction: opcode token with its length, then the operands.
    pub fn ins(opcode: u32, operands: &[Vec<u32>]) -> Vec<u32> {
        let body: Vec<u32> = operands.iter().flatten().copied().collect();
        let mut t = vec![opcode | ((1 + body.len() as u32) << 24)];
        t.extend(body);
        t
    }

    /// `ps_4_0` with `dcl_constantbuffer cb0[cb_regs]`, `dcl_output o0.xyzw`, `dcl_temps temps`,
    /// then `body` and `ret`, in a DXBC container whose output signature declares SV_Target0 with
    /// component type `uint` (`true`) or `float`.
    pub fn pixel_shader(cb_regs: u32, temps: u32, body: &[Vec<u32>], uint_output: bool) -> Vec<u8> {
        let mut program = vec![0x0000_0040, 0];
        program.extend([DCL_CONSTANT_BUFFER | (4 << 24), 0x0020_8e46, 0, cb_regs]);
        program.extend(ins(DCL_OUTPUT, &[vec![0x0010_20f2, 0]]));
        program.extend([DCL_TEMPS | (2 << 24), temps]);
        for i in body {
            program.extend(i);
        }
        program.extend(ins(RET, &[]));
        program[1] = program.len() as u32;
        let shdr: Vec<u8> = program.iter().flat_map(|w| w.to_le_bytes()).collect();
        let isgn: Vec<u8> = [0u32, 8].iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut osgn: Vec<u8> = Vec::new();
        let element = [32u32, 0, 64, if uint_output { 1 } else { 3 }, 0, 0x0f | (0x0f << 8)];
        for w in [1u32, 8].iter().chain(element.iter()) {
            osgn.extend(w.to_le_bytes());
        }
        osgn.extend(b"SV_Target\0\0\0");
        container(&[(b"ISGN", isgn), (b"OSGN", osgn), (b"SHDR", shdr)])
    }

    fn container(chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
        let mut out = vec![0u8; 32 + 4 * chunks.len()];
        out[0..4].copy_from_slice(b"DXBC");
        out[20] = 1;
        out[28..32].copy_from_slice(&(chunks.len() as u32).to_le_bytes());
        for (i, (fourcc, data)) in chunks.iter().enumerate() {
            let at = out.len() as u32;
            out[32 + 4 * i..36 + 4 * i].copy_from_slice(&at.to_le_bytes());
            out.extend_from_slice(*fourcc);
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(data);
        }
        let len = out.len() as u32;
        out[24..28].copy_from_slice(&len.to_le_bytes());
        dxbc_wgsl::container::fix_checksum(&mut out);
        out
    }
}

use asm::*;

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
