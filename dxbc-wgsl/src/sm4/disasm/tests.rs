//! The disassembler's own cases (the corpus cases are in `tests/disasm/fxc.rs`).

use super::operand::{float_text, int_text, untyped_text};
use super::*;
use crate::sm4::ShaderStage;

#[test]
fn untyped_immediates_follow_fxc() {
    assert_eq!(untyped_text(0), "0");
    assert_eq!(untyped_text(0xffff_ffff), "-1");
    assert_eq!(untyped_text((-112i32) as u32), "-112");
    assert_eq!(untyped_text(0x3f80_0000), "1.000000");
    assert_eq!(untyped_text(0x8000_0000), "-0.000000");
    assert_eq!(untyped_text(0x0000_7fff), "0x00007fff");
    assert_eq!(untyped_text(0x7fff_ffff), "0x7fffffff");
    assert_eq!(untyped_text(0xffff_8001), "0xffff8001");
    assert_eq!(untyped_text(2254), "2254");
}

#[test]
fn integers_switch_to_hex_past_10000() {
    assert_eq!(int_text(10000), "10000");
    assert_eq!(int_text(10001), "0x00002711");
    assert_eq!(int_text((-2i32) as u32), "-2");
    assert_eq!(int_text(0x3f80_0000), "0x3f800000");
}

#[test]
fn floats_print_six_decimals() {
    assert_eq!(float_text(0x3f00_0000), "0.500000");
    assert_eq!(float_text(0x7f7f_ffff), "340282346638528859811704183484516925440.000000");
    assert_eq!(float_text(0x8000_0000), "-0.000000");
    assert_eq!(float_text((18.8515625f64 as f32).to_bits()), "18.851562");
    assert_eq!(float_text((-18.8515625f64 as f32).to_bits()), "-18.851562");
    assert_eq!(float_text(0.8359375f32.to_bits()), "0.835938");
    assert_eq!(float_text(1.5e-6f32.to_bits()), "0.000002");
    assert_eq!(float_text((9.9999999f64 as f32).to_bits()), "10.000000");
    assert_eq!(float_text(0.0000005f32.to_bits()), "0.000000");
    assert_eq!(float_text(0.00000051f32.to_bits()), "0.000001");
}

use crate::container::Chunk;
use crate::sm4::decode_program;

const TEMP: u32 = 0;
const INPUT: u32 = 1;
const RESOURCE: u32 = 7;
const CB: u32 = 8;
const ICB: u32 = 9;
const UAV: u32 = 30;

/// Opcode token with its length filled in by `ins`.
fn ins(opcode: u32, control: u32, extended: bool, body: &[Vec<u32>]) -> Vec<u32> {
    let words: Vec<u32> = body.concat();
    let len = words.len() as u32 + 1;
    let mut v = vec![opcode | (control << 11) | (len << 24) | if extended { 1 << 31 } else { 0 }];
    v.extend(words);
    v
}
fn dst(ty: u32, reg: u32, mask: u32) -> Vec<u32> {
    vec![2 | (mask << 4) | (ty << 12) | (1 << 20), reg]
}
fn src(ty: u32, reg: u32, swizzle: [u32; 4]) -> Vec<u32> {
    let s = swizzle[0] | (swizzle[1] << 2) | (swizzle[2] << 4) | (swizzle[3] << 6);
    vec![2 | (1 << 2) | (s << 4) | (ty << 12) | (1 << 20), reg]
}
fn select1(ty: u32, reg: u32, c: u32) -> Vec<u32> {
    vec![2 | (2 << 2) | (c << 4) | (ty << 12) | (1 << 20), reg]
}
fn imm(values: &[u32]) -> Vec<u32> {
    let mut v = vec![if values.len() == 1 { 1 } else { 2 } | (4 << 12)];
    v.extend_from_slice(values);
    v
}
/// Disassembles a pixel shader 5.0 body, without the version line.
fn dis(body: &[Vec<u32>]) -> String {
    let words: Vec<u32> = body.concat();
    let mut all = vec![0x50, words.len() as u32 + 2];
    all.extend(words);
    let bytes: Vec<u8> = all.iter().flat_map(|w| w.to_le_bytes()).collect();
    let chunk = Chunk { fourcc: *b"SHEX", offset: 0, data: &bytes };
    let program = decode_program(&chunk).unwrap();
    let text = disassemble(&program);
    text.split_once('\n').unwrap().1.trim_end().to_string()
}

#[test]
fn sync_flags_spell_out() {
    assert_eq!(dis(&[ins(190, 0b1011, false, &[])]), "sync_uglobal_g_t");
    assert_eq!(dis(&[ins(190, 0b0101, false, &[])]), "sync_ugroup_t");
}

#[test]
fn extended_opcode_suffixes_keep_fxc_order() {
    // resinfo_uint with resource-dimension and return-type extended tokens.
    let dim = (1 << 31) | 2 | (3 << 6);
    let ret = 3 | (5 << 6) | (5 << 10) | (5 << 14) | (5 << 18);
    let r = ins(61, 2, true, &[vec![dim, ret], dst(TEMP, 0, 0b0011), imm(&[0]), src(RESOURCE, 0, [0, 1, 2, 3])]);
    assert_eq!(dis(&[r]), "resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xy, l(0), t0.xyzw");
    // ld with texel offsets (1, -2, 0).
    let offs = 1 | (1 << 9) | (0xe << 13);
    let l = ins(45, 0, true, &[vec![offs], dst(TEMP, 1, 0xf), imm(&[0, 0, 0, 0]), src(RESOURCE, 2, [0, 1, 2, 3])]);
    assert_eq!(dis(&[l]), "ld_aoffimmi(1,-2,0) r1.xyzw, l(0, 0, 0, 0), t2.xyzw");
}

#[test]
fn immediates_follow_the_operand_type() {
    let one = 0x3f80_0000;
    // mov is untyped: no spaces, integers for non-float patterns.
    let m = ins(54, 0, false, &[dst(TEMP, 0, 0xf), imm(&[0, one, 0xffff_ffff, 0x8000_0000])]);
    assert_eq!(dis(&[m]), "mov r0.xyzw, l(0,1.000000,-1,-0.000000)");
    // iadd is integer: the float pattern prints as hex.
    let a = ins(30, 0, false, &[dst(TEMP, 0, 1), select1(TEMP, 0, 0), imm(&[one])]);
    assert_eq!(dis(&[a]), "iadd r0.x, r0.x, l(0x3f800000)");
    // add is float.
    let f = ins(0, 1 << 2, false, &[dst(TEMP, 0, 1), select1(TEMP, 0, 1), imm(&[one])]);
    assert_eq!(dis(&[f]), "add_sat r0.x, r0.y, l(1.000000)");
}

#[test]
fn relative_indices_and_modifiers() {
    // mov r0.x, -|cb0[r1.x + 12].y|
    let rel = select1(TEMP, 1, 0);
    let mut cb = vec![2 | (2 << 2) | (1 << 4) | (CB << 12) | (2 << 20) | (3 << 25) | (1 << 31), 1 | (3 << 6), 0, 12];
    cb.extend(rel);
    let m = ins(54, 0, false, &[dst(TEMP, 0, 1), cb]);
    assert_eq!(dis(&[m]), "mov r0.x, -|cb0[r1.x + 12].y|");
    // mov r2.xy, icb[v0.x + 3].xyxx
    let mut icb = vec![2 | (1 << 2) | (0b0000_0100 << 4) | (ICB << 12) | (1 << 20) | (3 << 22), 3];
    icb.extend(select1(INPUT, 0, 0));
    assert_eq!(dis(&[ins(54, 0, false, &[dst(TEMP, 2, 0b0011), icb])]), "mov r2.xy, icb[v0.x + 3].xyxx");
    // min precision goes inside the bars.
    let mut abs_src = src(TEMP, 1, [0, 0, 0, 0]);
    abs_src[0] |= 1 << 31;
    abs_src.insert(1, 1 | (2 << 6) | (1 << 14));
    let mut d = dst(TEMP, 0, 1);
    d[0] |= 1 << 31;
    d.insert(1, 1 | (1 << 14));
    assert_eq!(dis(&[ins(54, 0, false, &[d, abs_src])]), "mov r0.x {min16f}, |r1.xxxx {min16f}|");
}

#[test]
fn control_flow_is_indented() {
    let body = [
        ins(31, 0, false, &[select1(TEMP, 0, 0)]),
        ins(48, 0, false, &[]),
        ins(3, 1 << 7, false, &[select1(TEMP, 0, 1)]),
        ins(22, 0, false, &[]),
        ins(18, 0, false, &[]),
        ins(13, 1 << 7, false, &[select1(TEMP, 0, 2)]),
        ins(21, 0, false, &[]),
        ins(62, 0, false, &[]),
    ];
    assert_eq!(dis(&body), "if_z r0.x\n  loop \n    breakc_nz r0.y\n  endloop \nelse \n  discard_nz r0.z\nendif \nret");
}

#[test]
fn declarations() {
    // dcl_immediateConstantBuffer from customdata class 3.
    let icb = vec![53 | (3 << 11), 10, 0x0000_cccc, 15, 0xffff_ffff, 0x3f80_0000, 1, 2, 3, 4];
    assert_eq!(
        dis(&[icb]),
        "dcl_immediateConstantBuffer { { 0x0000cccc, 15, -1, 1.000000},\n                              { 1, 2, 3, 4} }"
    );
    // dcl_uav_typed_texture2d with globally-coherent flag, uint returns.
    let uav = ins(156, 3 | (1 << 5), false, &[vec![(UAV << 12) | (1 << 20), 1], vec![0x4444]]);
    assert_eq!(dis(&[uav]), "dcl_uav_typed_texture2d_glc (uint,uint,uint,uint) u1");
    // dcl_input_ps_siv with interpolation mode.
    let input = ins(100, 4, false, &[dst(INPUT, 0, 0xf), vec![1]]);
    assert_eq!(dis(&[input]), "dcl_input_ps_siv linear noperspective v0.xyzw, position");
    let temps = ins(105, 0, false, &[vec![0, 6, 4]]);
    assert_eq!(dis(&[temps]), "dcl_indexableTemp x0[6], 4");
}

#[test]
fn stage_prefix() {
    let v = ShaderVersion { stage: ShaderStage::Hull, major: 5, minor: 0 };
    assert_eq!(version_line(&v), "hs_5_0");
}
