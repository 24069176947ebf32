//! Execution conformance (feature `gpu`): runs translated shaders on a wgpu device and compares
//! what they compute with what D3D's own test suites expect.
//!
//! Two kinds of cases (see `docs/conformance.md`):
//! - instruction tables (`expected.jsonl` in the corpus's `wine/` and `vkd3d/`): a pixel shader,
//!   constant buffer 0, one texel of a full-screen draw ([`table`]);
//! - replays of vkd3d's shader_test files (`vkd3d-shader-tests/<stem>/test.json`), following the
//!   protocol in that folder's README ([`shader_test`]).
//!
//! Every record is passed, failed, todo-failed (vkd3d marks the command `todo`/`bug`), skipped
//! for a [`SkipReason`] of a fixed list, or inactive (the test file itself does not run it at this
//! model).

pub mod compare;
pub mod draw;
pub mod gpu;
pub mod report;
pub mod shader_test;
pub mod table;

use std::path::{Path, PathBuf};

pub use gpu::{Device, DeviceError};
pub use report::{Counts, Record, Report, SkipReason, Source, Status};

/// One input of a run.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Case {
    /// An instruction table (`*.jsonl`).
    Table(PathBuf),
    /// A shader_test replay folder (holding `test.json`).
    ShaderTest(PathBuf),
}

/// Finds the cases under `paths`: `expected.jsonl` files, `test.json` files and the folders
/// holding them, searched recursively. Returns them sorted, without duplicates.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_file() {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name == "test.json" {
                out.push(Case::ShaderTest(p.parent().unwrap_or(Path::new(".")).to_path_buf()));
            } else if name.ends_with(".jsonl") {
                out.push(Case::Table(p.clone()));
            } else {
                return Err(format!("{}: neither an expected.jsonl table nor a test.json replay", p.display()));
            }
        } else if p.is_dir() {
            walk(p, &mut out).map_err(|e| format!("{}: {e}", p.display()))?;
        } else {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<Case>) -> std::io::Result<()> {
    if dir.join("test.json").is_file() {
        out.push(Case::ShaderTest(dir.to_path_buf()));
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for e in entries {
        if e.is_dir() {
            walk(&e, out)?;
        } else if e.file_name().is_some_and(|n| n == "expected.jsonl") {
            out.push(Case::Table(e));
        }
    }
    Ok(())
}

/// The corpus root a case's paths are relative to: the nearest ancestor holding `README.md` and
/// a `wine`, `vkd3d` or `vkd3d-shader-tests` folder; else the case's grandparent.
fn corpus_root(path: &Path) -> PathBuf {
    for a in path.ancestors().skip(1) {
        if ["wine", "vkd3d", "vkd3d-shader-tests"].iter().any(|d| a.join(d).is_dir()) {
            return a.to_path_buf();
        }
    }
    path.parent().and_then(Path::parent).unwrap_or(Path::new(".")).to_path_buf()
}

/// Runs `cases` on `device`. `progress` is called before each case with its index and path.
pub fn run(device: &Device, cases: &[Case], mut progress: impl FnMut(usize, &Case)) -> Report {
    let mut report = Report { adapter: device.summary(), ..Default::default() };
    let mut renderer = draw::Renderer::default();
    for (i, case) in cases.iter().enumerate() {
        progress(i, case);
        match case {
            Case::Table(p) => {
                table::run(device, &mut renderer, p, &corpus_root(p), &mut report.records, &mut report.input_errors)
            }
            Case::ShaderTest(d) => shader_test::run(
                device,
                &mut renderer,
                d,
                &corpus_root(d),
                &mut report.records,
                &mut report.input_errors,
            ),
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_finds_tables_and_replays_and_rejects_other_files() {
        let dir = std::env::temp_dir().join(format!("dxbc-wgsl-conformance-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("wine")).expect("mkdir");
        std::fs::create_dir_all(dir.join("vkd3d-shader-tests/a")).expect("mkdir");
        std::fs::write(dir.join("wine/expected.jsonl"), "").expect("write");
        std::fs::write(dir.join("wine/other.txt"), "").expect("write");
        std::fs::write(dir.join("vkd3d-shader-tests/a/test.json"), "{}").expect("write");
        let cases = discover(std::slice::from_ref(&dir)).expect("discover");
        assert_eq!(
            cases,
            [Case::Table(dir.join("wine/expected.jsonl")), Case::ShaderTest(dir.join("vkd3d-shader-tests/a")),]
        );
        // The same case named twice (folder and file) is run once.
        let twice = discover(&[dir.join("vkd3d-shader-tests/a"), dir.join("vkd3d-shader-tests/a/test.json")])
            .expect("discover");
        assert_eq!(twice.len(), 1);
        assert!(discover(&[dir.join("wine/other.txt")]).is_err());
        assert!(discover(&[dir.join("missing")]).is_err());
        assert_eq!(corpus_root(&dir.join("wine/expected.jsonl")), dir);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
