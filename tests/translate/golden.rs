//! Golden WGSL: the translation of a representative set of shaders, reviewed and kept beside its
//! input in `tests/golden/` (they document what the translator emits; a change shows up as a diff
//! of `tests/golden/out/` to review).
//!
//! One case per input in `tests/golden/in/`, found there (sorted by name), no list in code:
//!
//! - `NAME.dxbc`: a blob in the repository (DirectXTK's, MIT: `in/LICENSE`);
//! - `NAME.corpus`: one line, the path of a blob relative to the shared corpus, whose blobs are not
//!   in the repository (Wine's and vkd3d's are LGPL, HBAO+'s NVIDIA's). These cases skip with a
//!   message when the corpus is absent.
//!
//! Each is translated with the default options and compared byte for byte with
//! `tests/golden/out/NAME.wgsl`; a missing output fails, and so does an output without an input.
//! `DXBC_WGSL_BLESS=1` writes the outputs that differ or are missing instead (then review them with
//! `git diff tests/golden/out`). `tests/golden/README.md` says what each case shows.
//!
//! The set: DirectXTK vertex and pixel shaders (in the repository), a loop, switches (one without
//! `default`), a conditional return inside a loop, integer operations (udiv, bfi, ubfe, ishr,
//! firstbit/countbits), `ld` with a texel offset, gather with an offset (immediate and from a register), gather-compare, a
//! structured buffer, an immediate constant buffer, an indexable temp, `sample_c`, `discard`,
//! `ld_ms`, input relative addressing, a mixed-type varying, clip distances, the primitive index,
//! double-precision instructions, a compute shader with structured thread-group shared memory
//! (atomics, barriers, thread IDs), and both sides of the uniformity rule: a shader whose derivative
//! sits in non-uniform
//! control flow gets `diagnostic(off, derivative_uniformity)`, one with derivatives only in
//! uniform control flow does not (asserted below, and checked with Tint when it is installed).

use std::path::{Path, PathBuf};

use dxbc_wgsl::{translate, TranslateOptions, Translation};

const DIAGNOSTIC: &str = "diagnostic(off, derivative_uniformity);";

/// Set to `1` to write `out/NAME.wgsl` for every case whose translation differs or has none.
const BLESS_ENV: &str = "DXBC_WGSL_BLESS";

/// Where a golden's blob lives.
enum Src {
    /// `in/NAME.dxbc`, in the repository (always present).
    Repo(PathBuf),
    /// Relative to the corpus root (`in/NAME.corpus` holds it).
    Corpus(String),
}

/// One case: `in/NAME.dxbc` or `in/NAME.corpus`, and `out/NAME.wgsl`.
struct Case {
    name: String,
    src: Src,
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("golden")
}

fn out_path(name: &str) -> PathBuf {
    golden_dir().join("out").join(format!("{name}.wgsl"))
}

/// Every case in `in/`, sorted by name. Besides the inputs, only `LICENSE` may be there.
fn cases() -> Vec<Case> {
    let dir = golden_dir().join("in");
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_str().expect("a UTF-8 file name").to_string();
        if file == "LICENSE" {
            continue;
        }
        let (name, ext) =
            file.rsplit_once('.').unwrap_or_else(|| panic!("{}: not NAME.dxbc or NAME.corpus", path.display()));
        let src = match ext {
            "dxbc" => Src::Repo(path.clone()),
            "corpus" => {
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let rel = text.strip_suffix('\n').unwrap_or(&text);
                assert!(
                    !rel.is_empty() && !rel.contains('\n') && !rel.starts_with('/'),
                    "{}: must hold one line, a path relative to the corpus",
                    path.display()
                );
                Src::Corpus(rel.to_string())
            }
            _ => panic!("{}: not NAME.dxbc or NAME.corpus", path.display()),
        };
        cases.push(Case { name: name.to_string(), src });
    }
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    for w in cases.windows(2) {
        assert_ne!(w[0].name, w[1].name, "two inputs for golden `{}`", w[0].name);
    }
    cases
}

/// The case named `name` (which must exist in `in/`).
fn case(name: &str) -> Case {
    cases()
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no golden input `{name}` in tests/golden/in"))
}

/// The blob's bytes and a label, or `None` (with a printed message) when the corpus is absent.
fn load(name: &str, src: &Src) -> Option<(Vec<u8>, String)> {
    let (path, label) = match src {
        Src::Repo(p) => (p.clone(), format!("tests/golden/in/{}", p.file_name().unwrap().to_string_lossy())),
        Src::Corpus(p) => {
            let Some(corpus) = dxbc_wgsl_tests::corpus_dir() else {
                eprintln!(
                    "SKIPPED golden `{name}`: the shader corpus is absent (set DXBC_WGSL_CORPUS or place it at \
                     ../shared/corpus)"
                );
                return None;
            };
            (corpus.join(p), format!("corpus: {p}"))
        }
    };
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some((bytes, label))
}

fn translated(name: &str, src: &Src) -> Option<Translation> {
    let (bytes, label) = load(name, src)?;
    Some(translate(&bytes, &TranslateOptions::default()).unwrap_or_else(|e| panic!("{label}: {e}")))
}

/// Where `expected` and `actual` first differ, as a line number and both lines.
fn first_difference(expected: &str, actual: &str) -> String {
    let (mut e, mut a) = (expected.lines(), actual.lines());
    for n in 1.. {
        match (e.next(), a.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return "they differ in line endings only".to_string(),
            (x, y) => return format!("line {n}:\n  expected: {x:?}\n  actual:   {y:?}"),
        }
    }
    unreachable!()
}

/// Every case translates, its diagnostic directive agrees with `derivative_uniformity_off`, and its
/// WGSL is `out/NAME.wgsl`, byte for byte. Every output has an input.
#[test]
fn golden_wgsl() {
    let bless = std::env::var(BLESS_ENV).is_ok_and(|v| v == "1");
    let cases = cases();
    assert!(!cases.is_empty(), "no golden inputs in tests/golden/in");
    let mut failures = Vec::new();

    let out_dir = golden_dir().join("out");
    for entry in std::fs::read_dir(&out_dir).unwrap_or_else(|e| panic!("{}: {e}", out_dir.display())) {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        let name = file.strip_suffix(".wgsl");
        if !name.is_some_and(|n| cases.iter().any(|c| c.name == n)) {
            failures.push(format!("tests/golden/out/{file}: no input in tests/golden/in (remove it, or add one)"));
        }
    }

    let (mut compared, mut skipped, mut blessed) = (0, 0, 0);
    for Case { name, src } in &cases {
        let Some((bytes, label)) = load(name, src) else {
            skipped += 1;
            continue;
        };
        let t = match translate(&bytes, &TranslateOptions::default()) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{name} ({label}): {e}"));
                continue;
            }
        };
        if t.wgsl.contains(DIAGNOSTIC) != t.derivative_uniformity_off {
            failures
                .push(format!("{name} ({label}): the diagnostic directive and `derivative_uniformity_off` disagree"));
        }
        let out = out_path(name);
        let problem = match std::fs::read_to_string(&out) {
            Ok(expected) if expected == t.wgsl => None,
            Ok(expected) => {
                Some(format!("differs from tests/golden/out/{name}.wgsl at {}", first_difference(&expected, &t.wgsl)))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Some(format!("tests/golden/out/{name}.wgsl is missing"))
            }
            Err(e) => panic!("{}: {e}", out.display()),
        };
        compared += 1;
        match problem {
            None => {}
            Some(p) if bless => {
                std::fs::write(&out, &t.wgsl).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
                eprintln!("BLESSED golden `{name}` ({label}): {p}; wrote it");
                blessed += 1;
            }
            Some(p) => failures.push(format!("{name} ({label}): {p}")),
        }
    }
    eprintln!(
        "golden WGSL: {} cases, {compared} compared ({blessed} written), {skipped} skipped (corpus absent)",
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} golden failure(s) (after an intended change, {BLESS_ENV}=1 writes the outputs; review with \
         `git diff tests/golden/out`):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The uniformity rule, both sides: the directive where a derivative sits in non-uniform control
/// flow, and only there.
#[test]
fn derivative_uniformity_directive_only_where_needed() {
    let needs = [("loop sample", case("directxtk_ps_downscale_loop_sample"))];
    let uniform = [
        ("uniform ddx/ddy", case("directxtk_ps_uniform_derivatives")),
        ("uniform sample", case("directxtk_ps_basic_tx")),
        ("uniform ddy_coarse", case("ddy_coarse_uniform")),
    ];
    for (name, c) in &needs {
        let t = translated(name, &c.src).expect("in the repository");
        assert!(t.derivative_uniformity_off, "{name}: the flag is not set");
        assert!(t.wgsl.contains(DIAGNOSTIC), "{name}: no directive:\n{}", t.wgsl);
    }
    for (name, c) in &uniform {
        let Some(t) = translated(name, &c.src) else { continue };
        assert!(!t.derivative_uniformity_off, "{name}: the flag is set");
        assert!(!t.wgsl.contains("derivative_uniformity"), "{name}: directive emitted:\n{}", t.wgsl);
        assert!(
            ["dpdx", "dpdy", "textureSample("].iter().any(|d| t.wgsl.contains(d)),
            "{name}: no derivative or implicit-LOD sample left to test the rule on"
        );
    }
}

/// Tint agrees: the shader that got the directive is rejected without it (so it was needed), and
/// the uniform ones are accepted as they are.
#[test]
fn tint_confirms_where_the_directive_is_needed() {
    if std::env::var_os("DXBC_WGSL_SKIP_TINT").is_some() {
        eprintln!("SKIPPED Tint: DXBC_WGSL_SKIP_TINT is set");
        return;
    }
    let needs =
        translated("loop sample", &case("directxtk_ps_downscale_loop_sample").src).expect("in the repository").wgsl;
    let stripped: String = needs.lines().filter(|l| !l.contains(DIAGNOSTIC)).map(|l| format!("{l}\n")).collect();
    assert_ne!(stripped, needs);
    let uniform_ddx =
        translated("uniform ddx", &case("directxtk_ps_uniform_derivatives").src).expect("in the repository").wgsl;
    let uniform_sample =
        translated("uniform sample", &case("directxtk_ps_basic_tx").src).expect("in the repository").wgsl;
    let v = dxbc_wgsl_cli::tint::check(&[&needs, &stripped, &uniform_ddx, &uniform_sample])
        .unwrap_or_else(|e| panic!("{e} (set DXBC_WGSL_SKIP_TINT=1 to skip explicitly)"));
    assert!(v[0].ok, "Tint rejected the module with the directive: {:?}", v[0].messages);
    assert!(!v[1].ok, "Tint accepted the loop sample without the directive: the directive was not needed");
    assert!(
        v[1].messages.iter().any(|m| m.text.contains("uniform")),
        "Tint rejected it for another reason: {:?}",
        v[1].messages
    );
    assert!(v[2].ok, "uniform ddx/ddy: {:?}", v[2].messages);
    assert!(v[3].ok, "uniform sample: {:?}", v[3].messages);
}
