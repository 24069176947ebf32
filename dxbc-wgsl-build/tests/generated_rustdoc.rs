//! The generated code's documentation passes rustdoc with `-D warnings` (a user crate that runs
//! `cargo doc` with `RUSTDOCFLAGS=-D warnings`, or in CI, must not fail on our doc comments:
//! `texture_2d<f32>` outside backticks is an "unclosed HTML tag", `[x]` a broken link).
//!
//! rustdoc itself runs on a crate made of the generator's outputs in `tests/fixtures/` (the ones
//! `generated_compiles.rs` compiles; `tests/codegen.rs` keeps them current), and on one made of
//! the modules of every effect of the repository (`example-engine/effects`, `tests/effects`: their
//! `doc` strings too), against the wgpu and bytemuck this test was built with (their rlibs beside
//! the test binary).

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

/// Runs rustdoc with `-D warnings` on a library crate of `modules` (files `include!`d).
fn rustdoc(modules: &[PathBuf]) {
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let dir = tempfile::tempdir().unwrap();
    let mut lib = String::from("//! Generated effect modules.\n#![deny(missing_docs)]\n");
    for m in modules {
        lib.push_str(&format!("include!({:?});\n", m));
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

#[test]
fn generated_docs_pass_rustdoc_with_warnings_denied() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    rustdoc(&FIXTURES.iter().map(|f| fixtures.join(f)).collect::<Vec<_>>());
}

/// The repository's own effects, generated as `Builder` and `include_effect!` generate them:
/// their `doc` strings are Markdown for rustdoc too.
#[test]
fn the_repository_effects_pass_rustdoc_with_warnings_denied() {
    use dxbc_wgsl_build::compile::{self, DirectTranslator};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let mut modules = Vec::new();
    for folder in ["example-engine/effects", "tests/effects"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(".effect.toml"))
            .collect();
        files.sort();
        for f in files {
            let effect = dxbc_wgsl_build::Effect::load(&f).unwrap_or_else(|e| panic!("{e}"));
            let c = compile::compile(effect, &mut DirectTranslator).unwrap_or_else(|e| panic!("{e}"));
            let out = dir.path().join(format!("{}.rs", c.effect.module));
            std::fs::write(&out, dxbc_wgsl_build::generate(&c)).unwrap();
            modules.push(out);
        }
    }
    assert!(modules.len() >= 20, "{modules:?}");
    rustdoc(&modules);
}
