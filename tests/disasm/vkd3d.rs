//! The disassembler against vkd3d's listings of the blobs its HLSL compiler made
//! (`vkd3d-shader-tests/*/*.dxbc` with a `.asm` beside it). vkd3d's operand syntax differs from
//! fxc's, so only the sequence of mnemonics (declarations included) is compared, after mapping
//! the few names vkd3d spells differently.

use dxbc_wgsl::sm4::disasm::disassemble;
use dxbc_wgsl::{ReadOptions, Shader};
use dxbc_wgsl_tests::corpus_dir;
use std::path::{Path, PathBuf};

/// The mnemonic of one listing line, or `None` for lines that are not instructions
/// (continuation rows of an immediate constant buffer, braces, blank lines).
fn first_word(line: &str) -> Option<&str> {
    let t = line.trim();
    let w = t.split_whitespace().next()?;
    if w.starts_with(['{', '}', '-', '/', '#']) || w.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some(w)
}

/// Reduces an fxc-style mnemonic to its base: drops the texel-offset, resource-dimension and
/// return-type decorations (`sample_aoffimmi_indexable(1,0,0)(texture2d)(float,...)` →
/// `sample`), which vkd3d writes differently or not at all.
fn fxc_base(m: &str) -> String {
    let mut depth = 0;
    let mut out = String::new();
    for c in m.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.replace("_aoffimmi", "").replace("_indexable", "")
}

/// vkd3d's spelling → fxc's, for the mnemonics where they differ.
fn vkd3d_to_fxc(m: &str) -> String {
    let base = m.split('(').next().unwrap_or(m);
    let mapped = match base {
        "dcl_constantBuffer" => "dcl_constantbuffer",
        "dsx" => "deriv_rtx",
        "dsy" => "deriv_rty",
        "dsx_coarse" => "deriv_rtx_coarse",
        "dsy_coarse" => "deriv_rty_coarse",
        "dsx_fine" => "deriv_rtx_fine",
        "dsy_fine" => "deriv_rty_fine",
        "sample_info" => "sampleinfo",
        "sample_info_uint" => "sampleinfo_uint",
        "sample_pos" => "samplepos",
        "ld2dms" => "ldms",
        other => other,
    };
    format!("{mapped}{}", &m[base.len()..])
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut dirs: Vec<PathBuf> = rd.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut asm: Vec<PathBuf> =
            rd.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "asm")).collect();
        asm.sort();
        out.extend(asm);
    }
    out
}

#[test]
fn mnemonics_match_vkd3d_listings() {
    let Some(corpus) = corpus_dir() else {
        eprintln!("corpus not found (set DXBC_WGSL_CORPUS or place it at ../shared/corpus); skipping");
        return;
    };
    let listings = files(&corpus.join("vkd3d-shader-tests"));
    let (mut total, mut same, mut instructions) = (0, 0, 0);
    let mut failures = Vec::new();
    for asm_path in &listings {
        let blob_path = asm_path.with_extension("dxbc");
        let Ok(bytes) = std::fs::read(&blob_path) else {
            continue;
        };
        total += 1;
        let listing = std::fs::read_to_string(asm_path).unwrap();
        let shader = match Shader::parse(&bytes, &ReadOptions::default()) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{}: parse error: {e}", blob_path.display()));
                continue;
            }
        };
        let ours: Vec<String> = disassemble(&shader.program).lines().filter_map(first_word).map(fxc_base).collect();
        let theirs: Vec<String> =
            listing.lines().filter_map(first_word).map(vkd3d_to_fxc).map(|m| fxc_base(&m)).collect();
        instructions += theirs.len();
        if ours == theirs {
            same += 1;
            continue;
        }
        let at = ours.iter().zip(&theirs).position(|(a, b)| a != b).unwrap_or(ours.len().min(theirs.len()));
        failures.push(format!(
            "{}: mnemonic {at} differs (vkd3d has {} mnemonics, we have {}): expected {:?}, got {:?}",
            asm_path.display(),
            theirs.len(),
            ours.len(),
            theirs.get(at),
            ours.get(at)
        ));
    }
    for f in failures.iter().take(40) {
        eprintln!("{f}");
    }
    eprintln!("vkd3d-shader-tests: mnemonic sequences identical {same}/{total} ({instructions} mnemonics)");
    assert!(total > 0, "no vkd3d listings found");
    assert!(failures.is_empty(), "{} of {total} listings differ", failures.len());
}

#[test]
fn decorations_are_dropped_before_comparing() {
    assert_eq!(fxc_base("gather4_aoffimmi_indexable(2,0,0)(texture2d)(float,float,float,float)"), "gather4");
    assert_eq!(fxc_base(&vkd3d_to_fxc("ld(1,3,0)")), "ld");
    assert_eq!(vkd3d_to_fxc("dsx"), "deriv_rtx");
    assert_eq!(fxc_base("resinfo_indexable(texture2d)(float,float,float,float)_uint"), "resinfo_uint");
    assert_eq!(first_word("                              { 1, 2, 3, 4} }"), None);
}
