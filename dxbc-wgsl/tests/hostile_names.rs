//! Signature semantic names travel into generated code and reports: anything that is not an HLSL
//! identifier is refused.

use dxbc_wgsl::container::assemble;
use dxbc_wgsl::{translate, TranslateError, TranslateOptions};

fn pixel_shader_with_output_semantic(name: &str) -> Vec<u8> {
    // ps_4_0: dcl_output o0.xyzw; mov o0.xyzw, l(0,0,0,0); ret
    let mut w: Vec<u32> =
        vec![0x40, 0, 101 | (3 << 24), 0x0010_20f2, 0, 54 | (8 << 24), 0x0010_20f2, 0, 2 | (4 << 12), 0, 0, 0, 0];
    w.push(62 | (1 << 24));
    w[1] = w.len() as u32;
    let shdr: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut osgn: Vec<u8> = [1u32, 8, 32, 0, 64, 3, 0, 0x0f].iter().flat_map(|x| x.to_le_bytes()).collect();
    osgn.extend(name.as_bytes());
    osgn.push(0);
    assemble(&[(*b"ISGN", vec![0; 8]), (*b"OSGN", osgn), (*b"SHDR", shdr)])
}

#[test]
fn an_identifier_semantic_translates() {
    translate(&pixel_shader_with_output_semantic("SV_Target"), &TranslateOptions::default()).expect("translates");
}

#[test]
fn a_semantic_with_code_in_it_is_refused() {
    let blob = pixel_shader_with_output_semantic("SV_Target\n    pub fn injected() {}\n//");
    match translate(&blob, &TranslateOptions::default()) {
        Err(TranslateError::Unsupported(r)) => assert!(r.detail.contains("not an HLSL identifier"), "{r}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Relative indexing of a temp register (`r[r0.x + 0]`) is not a D3D form (only `x#` is
/// indexable): it is refused, not read as `r0`.
#[test]
fn a_relatively_indexed_temp_is_refused() {
    // ps_4_0: dcl_output o0.xyzw; dcl_temps 1; mov o0.xyzw, r[r0.x + 0].xyzw; ret
    let src_rel = [2 | (1 << 2) | (0xe4 << 4) | (1 << 20) | (2 << 22), 0x0010_000A, 0];
    let mut w: Vec<u32> =
        vec![0x40, 0, 101 | (3 << 24), 0x0010_20f2, 0, 104 | (2 << 24), 1, 54 | (6 << 24), 0x0010_20f2, 0];
    w.extend(src_rel);
    w.push(62 | (1 << 24));
    w[1] = w.len() as u32;
    let shdr: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut osgn: Vec<u8> = [1u32, 8, 32, 0, 64, 3, 0, 0x0f].iter().flat_map(|x| x.to_le_bytes()).collect();
    osgn.extend(b"SV_Target\0\0\0");
    let blob = assemble(&[(*b"ISGN", vec![0; 8]), (*b"OSGN", osgn), (*b"SHDR", shdr)]);
    match translate(&blob, &TranslateOptions::default()) {
        Err(TranslateError::Unsupported(r)) => assert!(r.detail.contains("relative indexing of a temp"), "{r}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}
