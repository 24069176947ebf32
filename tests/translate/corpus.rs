//! Every shader program in the corpus is translated: none may fail (internal error or invalid
//! WGSL), every DirectXTK vertex/pixel shader qualifies, and Tint accepts every qualified module
//! with no error and no warning.

use dxbc_wgsl::{translate, RefusalReason, ShaderStage, TranslateError, TranslateOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn blobs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).expect("read_dir") {
                stack.push(e.expect("entry").path());
            }
        } else if p.extension().is_some_and(|e| e == "dxbc") {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[derive(Default, Debug)]
struct Counts {
    qualified: usize,
    unsupported: usize,
    failed: usize,
}

#[test]
fn corpus_translates_without_failures_and_tint_accepts_everything() {
    let Some(corpus) = dxbc_wgsl_tests::corpus_dir() else {
        eprintln!("SKIPPED: the shader corpus is absent (set DXBC_WGSL_CORPUS or place it at ../shared/corpus)");
        return;
    };
    let mut per_folder: BTreeMap<String, Counts> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut qualified: Vec<(String, String)> = Vec::new();
    let mut reasons: BTreeMap<RefusalReason, usize> = BTreeMap::new();
    let mut directxtk_refused = Vec::new();
    for path in blobs(&corpus) {
        let bytes = std::fs::read(&path).expect("read blob");
        // Only shader programs: effect binaries, root signatures and expression bytecode are
        // classified elsewhere (reader_corpus).
        let Ok(shader) = dxbc_wgsl::Shader::parse(&bytes, &Default::default()) else { continue };
        let rel = path.strip_prefix(&corpus).expect("under corpus").display().to_string();
        let folder = rel.split('/').next().unwrap_or("").to_string();
        let c = per_folder.entry(folder.clone()).or_default();
        match translate(&bytes, &TranslateOptions::default()) {
            Ok(t) => {
                c.qualified += 1;
                qualified.push((rel, t.wgsl));
            }
            Err(TranslateError::Unsupported(r)) => {
                c.unsupported += 1;
                *reasons.entry(r.reason).or_default() += 1;
                let vp = matches!(shader.program.version.stage, ShaderStage::Vertex | ShaderStage::Pixel);
                if folder == "directxtk" && vp {
                    directxtk_refused.push(format!("{rel}: {r}"));
                }
                // Every refusal names the instruction and its byte offset, or is a whole-shader
                // refusal (stage).
                assert!(
                    r.reason == RefusalReason::StageUnsupported
                        || (r.instruction.is_some() && r.offset.is_some() && r.opcode.is_some()),
                    "{rel}: refusal without a location: {r}"
                );
            }
            Err(e) => {
                c.failed += 1;
                failures.push(format!("{rel}: {e}"));
            }
        }
    }
    eprintln!("{:<22} {:>9} {:>11} {:>6}", "folder", "qualified", "unsupported", "failed");
    for (f, c) in &per_folder {
        eprintln!("{f:<22} {:>9} {:>11} {:>6}", c.qualified, c.unsupported, c.failed);
    }
    for (r, n) in &reasons {
        eprintln!("  refused {n:4} × {r}");
    }
    assert!(failures.is_empty(), "{} shaders failed:\n{}", failures.len(), failures.join("\n"));
    assert!(directxtk_refused.is_empty(), "DirectXTK shaders refused:\n{}", directxtk_refused.join("\n"));
    assert!(per_folder.get("directxtk").is_some_and(|c| c.qualified == 144), "every DirectXTK shader qualifies");

    if std::env::var_os("DXBC_WGSL_SKIP_TINT").is_some() {
        eprintln!("SKIPPED Tint: DXBC_WGSL_SKIP_TINT is set");
        return;
    }
    let codes: Vec<&str> = qualified.iter().map(|(_, w)| w.as_str()).collect();
    let verdicts = dxbc_wgsl_cli::tint::check(&codes)
        .unwrap_or_else(|e| panic!("{e} (set DXBC_WGSL_SKIP_TINT=1 to skip explicitly)"));
    let rejected: Vec<String> = verdicts
        .iter()
        .filter(|v| !v.ok)
        .map(|v| format!("{}: {}", qualified[v.id].0, v.first_problem().unwrap_or_default()))
        .collect();
    eprintln!("Tint: {} modules checked, {} rejected", verdicts.len(), rejected.len());
    assert!(rejected.is_empty(), "Tint rejected {} modules:\n{}", rejected.len(), rejected.join("\n"));
}

/// Tint is not a rubber stamp: a derivative under non-uniform control flow without the
/// diagnostic filter must be rejected.
#[test]
fn tint_rejects_nonuniform_derivative() {
    if std::env::var_os("DXBC_WGSL_SKIP_TINT").is_some() {
        return;
    }
    let bad = "@fragment fn main(@location(0) v: f32) -> @location(0) vec4f { if v > 0.0 { return vec4f(dpdx(v)); } return vec4f(0); }";
    let good = "diagnostic(off, derivative_uniformity);\n@fragment fn main(@location(0) v: f32) -> @location(0) vec4f { if v > 0.0 { return vec4f(dpdx(v)); } return vec4f(0); }";
    let v = dxbc_wgsl_cli::tint::check(&[bad, good]).expect("tint");
    assert!(!v[0].ok, "Tint accepted a non-uniform derivative");
    assert!(v[1].ok, "Tint rejected the filtered module: {:?}", v[1].messages);
}

/// Arithmetic on immediates only must not become a WGSL constant expression: D3D gives an
/// infinity or NaN for `log l(0)` and `div l(1), l(0)`, and 0xFFFFFFFF for `udiv` by zero, while
/// WGSL compilers reject such constant expressions (naga rejects the integer division outright).
#[test]
fn immediate_only_arithmetic_is_not_constant_folded() {
    // ps_4_0; dcl_output o0.xyzw; dcl_temps 1
    // log r0.x, l(0); div r0.y, l(1), l(0); udiv r0.z, null, l(1), l(0); mul r0.w, l(1e38), l(1e38)
    // mov o0, r0; ret
    let temp = |mask: u32| 2 | (mask << 4) | (1 << 20);
    let imm = |v: u32| [1 | (4 << 12), v];
    let mut w: Vec<u32> = vec![0x40, 0, 101 | (3 << 24), 0x0010_20f2, 0, 104 | (2 << 24), 1];
    w.extend([47 | (5 << 24), temp(1), 0]);
    w.extend(imm(0));
    w.extend([14 | (7 << 24), temp(2), 0]);
    w.extend(imm(1.0f32.to_bits()));
    w.extend(imm(0));
    w.extend([78 | (8 << 24), temp(4), 0, 13 << 12]);
    w.extend(imm(1));
    w.extend(imm(0));
    w.extend([56 | (7 << 24), temp(8), 0]);
    w.extend(imm(1e38f32.to_bits()));
    w.extend(imm(1e38f32.to_bits()));
    w.extend([54 | (5 << 24), 0x0010_20f2, 0, 2 | (1 << 2) | (0xe4 << 4) | (1 << 20), 0]);
    w.push(62 | (1 << 24));
    w[1] = w.len() as u32;
    let shdr: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let osgn: Vec<u8> = [1u32, 8, 32, 0, 64, 3, 0, 0x0f]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .chain(b"SV_Target\0\0\0".iter().copied())
        .collect();
    let blob = dxbc_wgsl::container::assemble(&[(*b"ISGN", vec![0; 8]), (*b"OSGN", osgn), (*b"SHDR", shdr)]);
    let t = translate(&blob, &TranslateOptions::default()).expect("translates (naga accepts)");
    if std::env::var_os("DXBC_WGSL_SKIP_TINT").is_some() {
        return;
    }
    let v = dxbc_wgsl_cli::tint::check(&[t.wgsl.as_str()]).expect("tint");
    assert!(v[0].ok, "Tint rejected:\n{}\n{:?}", t.wgsl, v[0].messages);
}

/// The IR validator runs between the builder and the lowering on every corpus shader the builder
/// accepts (in release builds too, where `translate` skips it).
#[test]
fn ir_validator_accepts_every_built_module() {
    let Some(corpus) = dxbc_wgsl_tests::corpus_dir() else {
        eprintln!("SKIPPED: the shader corpus is absent");
        return;
    };
    let mut checked = 0;
    for path in blobs(&corpus) {
        let bytes = std::fs::read(&path).expect("read");
        let Ok(shader) = dxbc_wgsl::Shader::parse(&bytes, &Default::default()) else { continue };
        let Ok(module) = dxbc_wgsl::ir::build(&shader, &TranslateOptions::default()) else { continue };
        if let Err(e) = dxbc_wgsl::ir::validate(&module) {
            panic!("{}: IR invalid: {e}", path.display());
        }
        checked += 1;
    }
    eprintln!("IR validated for {checked} shaders");
    assert!(checked > 2000, "only {checked} shaders built");
}
