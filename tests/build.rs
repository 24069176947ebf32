//! Generates `$OUT_DIR/rdef_structs.rs` for `tests/bindings/rdef_layouts.rs`: when the shared corpus is
//! present (`DXBC_WGSL_CORPUS`, else `../shared/corpus` beside the workspace), the Rust struct of
//! every constant-buffer layout whose reflection the packing rules reproduce, in every corpus blob
//! that carries RDEF (Wine's and vkd3d's manifests, every vkd3d-shader-tests blob), written by
//! `dxbc_wgsl_build::reflect::rust_struct_source`; per struct, a function that writes one 32-bit
//! word through the named field that holds it (from the writer's word map). Identical structs are
//! generated once. Without the corpus the module is empty and the tests say they skip.
//!
//! The script does not fail the build over the corpus: what goes wrong is listed in `PROBLEMS`,
//! which the test asserts empty. Only an output it cannot write fails the build, as a
//! `cargo::error=` line with a normal exit (a panic or a non-zero exit would make cargo dump the
//! script's whole standard output too).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use dxbc_wgsl_build::effect::layout::Rules;
use dxbc_wgsl_build::effect::Scalar;
use dxbc_wgsl_build::reflect;

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

/// Corpus-relative paths of the blobs that carry RDEF: the manifests' rows whose `chunks` list it,
/// and every vkd3d-shader-tests blob (whether it carries RDEF is read from the blob).
fn blobs(corpus: &Path, problems: &mut Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    for m in ["wine/manifest.jsonl", "vkd3d/manifest.jsonl"] {
        let text = match std::fs::read_to_string(corpus.join(m)) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{m}: {e}"));
                continue;
            }
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                problems.push(format!("{m}: a line is not JSON"));
                continue;
            };
            let has_rdef = v["chunks"].as_array().is_some_and(|c| c.iter().any(|x| x == "RDEF"));
            if let (true, Some(p)) = (has_rdef, v["path"].as_str()) {
                out.push(p.to_string());
            }
        }
    }
    let tests = corpus.join("vkd3d-shader-tests");
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(&tests).into_iter().flatten().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for d in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "dxbc"))
            .collect();
        files.sort();
        for f in files {
            if let Ok(rel) = f.strip_prefix(corpus) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}

struct Module {
    code: String,
    name: String,
    size: u32,
    words: Vec<Option<dxbc_wgsl_build::codegen::Word>>,
    /// (blob, cbuffer name, b# slot)
    uses: Vec<(String, String, Option<u32>)>,
}

include!("src/source_placements.rs");

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/source_placements.rs");
    println!("cargo::rerun-if-env-changed=DXBC_WGSL_CORPUS");
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        println!("cargo::error=OUT_DIR is not set: run this build script through cargo");
        return;
    };
    let out = PathBuf::from(out_dir).join("rdef_structs.rs");
    let mut problems: Vec<String> = Vec::new();
    let mut modules: Vec<Module> = Vec::new();
    let corpus = corpus_dir();
    if let Some(corpus) = &corpus {
        for d in ["wine/manifest.jsonl", "vkd3d/manifest.jsonl", "vkd3d-shader-tests"] {
            println!("cargo::rerun-if-changed={}", corpus.join(d).display());
        }
        for rel in blobs(corpus, &mut problems) {
            let bytes = match std::fs::read(corpus.join(&rel)) {
                Ok(b) => b,
                Err(e) => {
                    problems.push(format!("{rel}: {e}"));
                    continue;
                }
            };
            let layouts = match reflect::cbuffer_layouts(&bytes) {
                Ok(l) => l,
                // Hex blobs of vkd3d-shader-tests may lack RDEF; the test counts them.
                Err(reflect::ReflectError::NoReflection) => continue,
                Err(e) => {
                    problems.push(format!("{rel}: {e}"));
                    continue;
                }
            };
            // Buffers whose variables the source places without the reflection saying so agree
            // once given those placements (tests/src/source_placements.rs): generated too.
            let layouts: Vec<reflect::ReflectedLayout> = layouts
                .into_iter()
                .map(|l| {
                    let placed = source_placements(&rel, &l.name);
                    if l.verdict.agrees() || placed.is_empty() {
                        return l;
                    }
                    reflect::with_source_placements(&l, &placed, &Rules::HLSL).unwrap_or(l)
                })
                .collect();
            for l in layouts.iter().filter(|l| l.verdict.agrees()) {
                let s = match reflect::rust_struct_source(l) {
                    Ok(s) => s,
                    Err(e) => {
                        problems.push(format!("{rel}: {e}"));
                        continue;
                    }
                };
                let use_ = (rel.clone(), l.name.clone(), l.register.map(|r| r.0));
                match modules.iter_mut().find(|m| m.code == s.code) {
                    Some(m) => m.uses.push(use_),
                    None => modules.push(Module {
                        code: s.code,
                        name: s.name,
                        size: s.size,
                        words: s.words,
                        uses: vec![use_],
                    }),
                }
            }
        }
    }
    let text = render(corpus.as_deref(), &modules, &problems);
    // Rewrite only when changed, so that the tests do not rebuild for nothing.
    if std::fs::read_to_string(&out).ok().as_deref() != Some(text.as_str()) {
        if let Err(e) = std::fs::write(&out, text) {
            println!("cargo::error=cannot write {}: {e}", out.display());
        }
    }
}

fn render(corpus: Option<&Path>, modules: &[Module], problems: &[String]) -> String {
    let mut t = String::new();
    t.push_str("// @generated by tests/build.rs from the corpus's reflection.\n\n");
    let _ = writeln!(
        t,
        "/// The corpus the structs were generated from (`None`: absent).\npub const CORPUS: Option<&str> = {:?};\n",
        corpus.map(|c| c.display().to_string())
    );
    t.push_str(
        "/// What went wrong while generating (the test asserts it is empty).\npub static PROBLEMS: &[&str] = &[\n",
    );
    for p in problems {
        let _ = writeln!(t, "    {p:?},");
    }
    t.push_str("];\n\n");
    t.push_str(
        "/// One generated struct: the blobs' constant buffers it is the layout of, and its word writer.\n\
         pub struct Generated {\n    \
         /// `(corpus-relative blob path, constant-buffer name, b# slot)`.\n    \
         pub uses: &'static [(&'static str, &'static str, Option<u32>)],\n    \
         /// The struct's name.\n    pub name: &'static str,\n    \
         /// Size in bytes.\n    pub size: usize,\n    \
         /// Per 32-bit word: the HLSL variable whose field holds it (`None`: padding).\n    \
         pub variables: &'static [Option<&'static str>],\n    \
         /// Starting from every byte `fill`, writes each `(word, bits)` through the named field that holds the word;\n    \
         /// returns the struct's bytes and the words that fell in padding (not written).\n    \
         pub replay: Replay,\n}\n\n\
         /// A struct's replay function (see [`Generated::replay`]).\n\
         pub type Replay = fn(&[(usize, u32)], u8) -> (Vec<u8>, Vec<usize>);\n\n",
    );
    t.push_str("/// Every generated struct.\npub static GENERATED: &[Generated] = &[\n");
    for (i, m) in modules.iter().enumerate() {
        let _ = writeln!(t, "    Generated {{");
        let _ = writeln!(t, "        uses: &[");
        for (blob, cb, slot) in &m.uses {
            let _ = writeln!(t, "            ({blob:?}, {cb:?}, {slot:?}),");
        }
        let _ = writeln!(t, "        ],");
        let _ = writeln!(t, "        name: {:?},", m.name);
        let _ = writeln!(t, "        size: {},", m.size);
        let _ = writeln!(t, "        variables: l{i}::VARIABLES,");
        let _ = writeln!(t, "        replay: l{i}::replay,");
        let _ = writeln!(t, "    }},");
    }
    t.push_str("];\n");
    for (i, m) in modules.iter().enumerate() {
        let _ = writeln!(t, "\n/// Layout {i}.\n#[allow(clippy::all)]\npub mod l{i} {{");
        t.push_str(&m.code);
        let name = &m.name;
        let _ = writeln!(t, "\n/// Per word: the HLSL variable whose field holds it.");
        let _ = writeln!(t, "pub static VARIABLES: &[Option<&str>] = &[");
        for w in &m.words {
            let _ = writeln!(t, "    {:?},", w.as_ref().map(|w| w.variable.as_str()));
        }
        let _ = writeln!(t, "];\n");
        let _ = writeln!(t, "/// Writes word `word` through the field that holds it; `false` for padding.");
        let _ = writeln!(t, "pub fn write(s: &mut {name}, word: usize, bits: u32) -> bool {{");
        let _ = writeln!(t, "    match word {{");
        for (k, w) in m.words.iter().enumerate() {
            let Some(w) = w else { continue };
            let value = match w.scalar {
                Scalar::Float => "f32::from_bits(bits)",
                Scalar::Int => "bits as i32",
                Scalar::Uint | Scalar::Bool => "bits",
            };
            let _ = writeln!(t, "        {k} => s{} = {value},", w.path);
        }
        let _ = writeln!(t, "        _ => return false,");
        let _ = writeln!(t, "    }}\n    true\n}}\n");
        let _ = writeln!(t, "/// See [`super::Generated::replay`].");
        let _ = writeln!(t, "pub fn replay(writes: &[(usize, u32)], fill: u8) -> (Vec<u8>, Vec<usize>) {{");
        let _ = writeln!(t, "    let mut s: {name} = bytemuck::pod_read_unaligned(&[fill; {}]);", m.size);
        let _ = writeln!(t, "    let mut padding = Vec::new();");
        let _ = writeln!(t, "    for &(word, bits) in writes {{");
        let _ = writeln!(t, "        if !write(&mut s, word, bits) {{");
        let _ = writeln!(t, "            padding.push(word);");
        let _ = writeln!(t, "        }}\n    }}");
        let _ = writeln!(t, "    (bytemuck::bytes_of(&s).to_vec(), padding)\n}}");
        t.push_str("}\n");
    }
    t
}
