//! The generated code's documentation passes rustdoc with `-D warnings` (a user crate that runs
//! `cargo doc` with `RUSTDOCFLAGS=-D warnings`, or in CI, must not fail on our doc comments:
//! `texture_2d<f32>` outside backticks is an "unclosed HTML tag", `[x]` a broken link).
//!
//! rustdoc itself runs on a crate made of the generator's outputs in `tests/fixtures/` (the ones
//! `generated_compiles.rs` compiles; `tests/codegen.rs` keeps them current), against the wgpu and
//! bytemuck this test was built with (their rlibs beside the test binary).

use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURES: &[&str] = &[
    "tiny_effect.rs",
    "tiny_two_pass.rs",
    "bare.rs",
    "states.rs",
    "reflected_scene.rs",
    "tiny_mixed.rs",
    "tiny_geometry.rs",
];

/// The newest `lib<name>-*.rlib` in `deps`.
fn rlib(deps: &Path, name: &str) -> Option<PathBuf> {
    let prefix = format!("lib{name}-");
    std::fs::read_dir(deps)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.starts_with(&prefix) && n.ends_with(".rlib")
            })
        })
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
}

#[test]
fn generated_docs_pass_rustdoc_with_warnings_denied() {
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let dir = tempfile::tempdir().unwrap();
    let mut lib = String::from("//! Generated effect modules.\n#![deny(missing_docs)]\n");
    for f in FIXTURES {
        lib.push_str(&format!("include!({:?});\n", fixtures.join(f)));
    }
    let src = dir.path().join("lib.rs");
    std::fs::write(&src, lib).unwrap();
    let rustdoc = std::env::var("RUSTDOC").unwrap_or_else(|_| "rustdoc".into());
    let mut cmd = Command::new(rustdoc);
    cmd.args(["--edition", "2021", "--crate-type", "lib", "--crate-name", "generated", "-D", "warnings"])
        .arg("-L")
        .arg(format!("dependency={}", deps.display()))
        .arg("-o")
        .arg(dir.path().join("doc"));
    // Crates the generated code names (a runtime crate, where one exists, too).
    for name in ["wgpu", "bytemuck", "dxbc_wgsl_runtime"] {
        match rlib(&deps, name) {
            Some(p) => {
                cmd.arg("--extern").arg(format!("{name}={}", p.display()));
            }
            None if name == "dxbc_wgsl_runtime" => {}
            None => panic!("no lib{name}-*.rlib in {}", deps.display()),
        }
    }
    let out = cmd.arg(&src).output().expect("rustdoc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "rustdoc -D warnings failed on the generated code:\n{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
}
