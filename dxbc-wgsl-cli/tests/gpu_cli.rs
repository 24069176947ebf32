//! The GPU options of the command line: `qualify --gpu/--adapter/--no-gpu`, `effect --gpu` and
//! `adapters` (docs/qualify.md). The GPU runs need the `gpu` feature and an adapter (CI installs
//! lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips them explicitly.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxbc-wgsl")).args(args).output().unwrap()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Whether one of standard error's lines starts with `prefix`. A GPU run's standard error may
/// begin with the driver's own lines (Mesa prints `error: XDG_RUNTIME_DIR is invalid or not set
/// in the environment.` without a session), so the CLI's line is looked for among them rather than
/// expected first.
#[cfg(feature = "gpu")]
fn err_has_line(o: &Output, prefix: &str) -> bool {
    err(o).lines().any(|l| l.starts_with(prefix))
}

#[cfg(feature = "gpu")]
fn skip_gpu(test: &str) -> bool {
    let skip = std::env::var("DXBC_WGSL_SKIP_GPU").is_ok_and(|v| v == "1");
    if skip {
        eprintln!("SKIPPED {test}: DXBC_WGSL_SKIP_GPU=1");
    }
    skip
}

#[test]
fn no_gpu_says_so_and_keeps_the_last_line() {
    let dir = root().join("example-engine/shaders/directxtk/DualTextureEffect");
    let o = run(&["qualify", "--no-progress", "--no-gpu", dir.to_str().unwrap()]);
    let text = out(&o);
    assert!(o.status.success(), "{text}{}", err(&o));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[lines.len() - 2], "gpu: not validated (--no-gpu: naga only)", "{text}");
    assert_eq!(lines.last(), Some(&"qualified: 6, unsupported: 0, failed: 0"), "{text}");
}

#[test]
fn gpu_options_are_checked() {
    let dir = root().join("example-engine/shaders/directxtk/DualTextureEffect");
    let dir = dir.to_str().unwrap();
    let o = run(&["qualify", "--gpu", "--no-gpu", dir]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("cannot be used with"), "{}", err(&o));
    let o = run(&["qualify", "--adapter", "0", "--no-gpu", dir]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("cannot be used with"), "{}", err(&o));
}

#[cfg(not(feature = "gpu"))]
#[test]
fn gpu_needs_the_feature() {
    let dir = root().join("example-engine/shaders/directxtk/DualTextureEffect");
    for args in [vec!["qualify", "--gpu", dir.to_str().unwrap()], vec!["adapters"]] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1));
        assert!(err(&o).contains("without the `gpu` feature"), "{}", err(&o));
    }
}

#[cfg(feature = "gpu")]
#[test]
fn qualify_gpu_adds_the_verdicts() {
    if skip_gpu("qualify_gpu_adds_the_verdicts") {
        return;
    }
    let dir = root().join("example-engine/shaders/directxtk/DualTextureEffect");
    let report = tempfile::NamedTempFile::new().unwrap();
    let o =
        run(&["qualify", "--no-progress", "--gpu", "--json", report.path().to_str().unwrap(), dir.to_str().unwrap()]);
    let text = out(&o);
    assert!(o.status.success(), "{text}{}", err(&o));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[lines.len() - 2].starts_with("gpu: ok 6 / errors 0 (adapter "), "{text}");
    assert_eq!(lines.last(), Some(&"qualified: 6, unsupported: 0, failed: 0"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(report.path()).unwrap()).unwrap();
    assert_eq!(json["gpu"]["ok"], 6, "{json}");
    assert!(json["gpu"]["adapter"].as_str().is_some_and(|a| !a.is_empty()));
    let records = json["records"].as_array().unwrap();
    assert_eq!(records.len(), 6);
    assert!(records.iter().all(|r| r["gpu"] == "ok"), "{json}");

    // An adapter that does not exist: an error before any work, listing the adapters.
    let o = run(&["qualify", "--adapter", "no such adapter 1234", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).is_empty());
    assert!(err_has_line(&o, "error: no GPU adapter matches `no such adapter 1234`"), "{}", err(&o));
}

#[cfg(feature = "gpu")]
#[test]
fn adapters_and_effect_gpu() {
    if skip_gpu("adapters_and_effect_gpu") {
        return;
    }
    let o = run(&["adapters"]);
    let list = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(list.starts_with("0: "), "{list}");
    // By index.
    let effect = root().join("example-engine/effects/dual_texture.effect.toml");
    let o = run(&["effect", effect.to_str().unwrap(), "--gpu", "--adapter", "0"]);
    let text = out(&o);
    assert!(o.status.success(), "{text}{}", err(&o));
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("  gpu: 4 pass × permutation pipelines (4 distinct) on "), "{text}");
    assert!(last.contains(": ok ("), "{text}");
}

/// Geometry shaders through the command line: `qualify --gpu` reports the geometry stage and
/// creates its compute pipeline (its resources in group 2, the primitive stage's buffers in group
/// 3) like any other stage's; `effect --gpu` creates a geometry pass's four pipelines.
#[cfg(feature = "gpu")]
#[test]
fn geometry_shaders_in_qualify_and_effect_gpu() {
    if skip_gpu("geometry_shaders_in_qualify_and_effect_gpu") {
        return;
    }
    let effect = root().join("tests/effects/geometry.effect.toml");
    let report = tempfile::NamedTempFile::new().unwrap();
    let o = run(&[
        "qualify",
        "--no-progress",
        "--gpu",
        "--json",
        report.path().to_str().unwrap(),
        effect.to_str().unwrap(),
    ]);
    let text = out(&o);
    assert!(o.status.success(), "{text}{}", err(&o));
    assert!(text.lines().any(|l| l.starts_with("geometry ") && l.split_whitespace().nth(1) == Some("1")), "{text}");
    assert_eq!(text.lines().last(), Some("qualified: 3, unsupported: 0, failed: 0"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(report.path()).unwrap()).unwrap();
    let records = json["records"].as_array().unwrap();
    let gs: Vec<_> = records.iter().filter(|r| r["stage"] == "geometry").collect();
    assert_eq!(gs.len(), 1, "{json}");
    assert_eq!(gs[0]["gpu"], "ok", "{json}");

    let o = run(&["effect", effect.to_str().unwrap(), "--gpu"]);
    let text = out(&o);
    assert!(o.status.success(), "{text}{}", err(&o));
    assert!(text.contains("geometry pass main (draws POINTLIST"), "{text}");
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("  gpu: 1 pass × permutation pipelines (1 distinct) on ") && last.contains(": ok ("),
        "{text}"
    );
}

/// Without a desktop session (`XDG_RUNTIME_DIR` unset), Mesa's drivers printed `error:
/// XDG_RUNTIME_DIR is invalid or not set in the environment.` twice per GPU run; the command line
/// points the variable at a private folder first, so nothing of the kind is printed.
#[cfg(all(feature = "gpu", target_os = "linux"))]
#[test]
fn a_gpu_run_without_a_session_prints_no_xdg_message() {
    if skip_gpu("a_gpu_run_without_a_session_prints_no_xdg_message") {
        return;
    }
    let effect = root().join("example-engine/effects/dual_texture.effect.toml");
    for args in [vec!["adapters"], vec!["effect", effect.to_str().unwrap(), "--gpu"]] {
        let o =
            Command::new(env!("CARGO_BIN_EXE_dxbc-wgsl")).args(&args).env_remove("XDG_RUNTIME_DIR").output().unwrap();
        assert!(o.status.success(), "{args:?}: {}", err(&o));
        assert_eq!(err(&o).matches("XDG_RUNTIME_DIR").count(), 0, "{args:?}: {}", err(&o));
    }
}
