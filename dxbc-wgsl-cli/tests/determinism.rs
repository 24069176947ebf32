//! The translation is deterministic across processes: `dxbc-wgsl qualify --json` run twice (with
//! different thread counts, so the parallel work is scheduled differently) gives the same WGSL
//! hash for every shader, and byte-identical reports. Over the corpus when it is present, else
//! over the DirectXTK shaders in the repository.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DXBC_WGSL_CORPUS") {
        let p = PathBuf::from(p);
        if p.is_dir() {
            return Some(p);
        }
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    p.is_dir().then_some(p)
}

/// Runs `qualify --json` in its own process; returns the report's bytes.
fn qualify(dir: &Path, report: &Path, threads: &str) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_dxbc-wgsl"))
        .args(["qualify", "--no-progress", "--json"])
        .arg(report)
        .arg(dir)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("run dxbc-wgsl");
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "qualify crashed: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(report).expect("report written")
}

/// path → (status, wgsl_sha256)
fn hashes(report: &[u8]) -> BTreeMap<String, (String, Option<String>)> {
    let v: serde_json::Value = serde_json::from_slice(report).expect("JSON report");
    v["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| {
            (
                r["path"].as_str().unwrap().to_string(),
                (r["status"].as_str().unwrap().to_string(), r["wgsl_sha256"].as_str().map(str::to_string)),
            )
        })
        .collect()
}

#[test]
fn two_processes_translate_to_identical_wgsl() {
    let dir = match corpus_dir() {
        Some(c) => c,
        None => {
            eprintln!(
                "corpus absent (set DXBC_WGSL_CORPUS or place it at ../shared/corpus): checking the in-repo \
                 DirectXTK shaders only"
            );
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/shaders")
        }
    };
    let tmp = tempfile::tempdir().unwrap();
    let a = qualify(&dir, &tmp.path().join("a.json"), "1");
    let b = qualify(&dir, &tmp.path().join("b.json"), "2");
    let (ha, hb) = (hashes(&a), hashes(&b));
    assert_eq!(ha.len(), hb.len(), "the same shaders were found");
    let qualified = ha.values().filter(|(s, h)| s == "qualified" && h.is_some()).count();
    assert!(qualified >= 40, "too few qualified shaders ({qualified}) for the comparison to mean anything");
    let differing: Vec<&String> = ha.iter().filter(|(p, v)| hb.get(*p) != Some(v)).map(|(p, _)| p).collect();
    assert!(differing.is_empty(), "{} shaders translated differently:\n{:#?}", differing.len(), differing);
    assert!(a == b, "the reports differ beyond the WGSL hashes");
    eprintln!("{qualified} qualified shaders, identical WGSL in both processes");
}
