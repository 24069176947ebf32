//! Constant-buffer layouts from reflection (RDEF) over the whole corpus.
//!
//! 1. Every blob that carries RDEF (the Wine and vkd3d manifests' `chunks` lists, every
//!    vkd3d-shader-tests blob): each `cbuffer`'s variables, placed by HLSL's packing rules from
//!    the reflected *types* only, land at the offsets the compiler recorded (struct members and
//!    buffer sizes included), and each such layout has a generated Rust struct compiled into this
//!    test (by `build.rs`, with its `size_of`/`offset_of!` assertions). The only disagreements are
//!    the explained ones below, each asserted to occur. Deliberately wrong rules are run too, to
//!    show which of them the corpus catches.
//! 2. The vkd3d-shader-tests replays write uniforms by raw word offset into the buffer bound at
//!    `b0`. For every draw whose pixel shader reflects its `b0` buffer, the same writes go through
//!    the generated struct's named fields, and its bytes equal the replay's buffer (words in
//!    padding, which no field holds, are counted and left out).
//! 3. A golden of the Rust generated for one reflected layout with a matrix, arrays and a nested
//!    struct.
//! 4. The 24 buffers whose variables the source places without the reflection flagging them
//!    agree once the source's placements (transcribed from the HLSL) are given, as an effect
//!    file's `placed` gives them; the 2 structs with unlisted object members stay explained
//!    disagreements (the reflection does not say where those members are).
//!
//! Without the corpus each test prints that it skips.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use dxbc_wgsl_build::effect::layout::Rules;
use dxbc_wgsl_build::reflect::{self, ReflectError, Verdict};

include!(concat!(env!("OUT_DIR"), "/rdef_structs.rs"));

fn corpus_or_skip(test: &str) -> Option<PathBuf> {
    let dir = dxbc_wgsl_tests::corpus_dir();
    match &dir {
        None => eprintln!("{test}: SKIPPED: no corpus (set DXBC_WGSL_CORPUS or put it at ../shared/corpus)"),
        Some(d) => {
            assert!(PROBLEMS.is_empty(), "build.rs could not generate every struct: {PROBLEMS:#?}");
            assert!(
                CORPUS.is_some(),
                "the corpus is at {} but build.rs did not see it when it ran: rebuild (touch tests/build.rs)",
                d.display()
            );
        }
    }
    dir
}

/// Corpus-relative paths: the manifests' rows whose `chunks` list RDEF, and every
/// vkd3d-shader-tests blob.
fn blobs(corpus: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for m in ["wine/manifest.jsonl", "vkd3d/manifest.jsonl"] {
        let text = std::fs::read_to_string(corpus.join(m)).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            if v["chunks"].as_array().unwrap().iter().any(|c| c == "RDEF") {
                out.push(v["path"].as_str().unwrap().to_string());
            }
        }
    }
    for d in std::fs::read_dir(corpus.join("vkd3d-shader-tests")).unwrap().flatten() {
        if !d.path().is_dir() {
            continue;
        }
        for f in std::fs::read_dir(d.path()).unwrap().flatten() {
            if f.path().extension().is_some_and(|e| e == "dxbc") {
                out.push(f.path().strip_prefix(corpus).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// Why a disagreement is expected: the reflection lacks what the packing rules need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Explained {
    /// vkd3d's `register-reservations-numeric` test places `$Globals` variables with
    /// `register(cN)` and `cbuffer` variables with `packoffset`; vkd3d-compiler does not flag them
    /// `D3D_SVF_USERPACKED` in its reflection (fxc does), so the declaration derived from the
    /// reflection cannot say they are placed by the source.
    UnflaggedExplicitPlacement,
    /// vkd3d's `object-field-offsets` test: structs with texture-array or object-struct members,
    /// which the reflection does not list (their component count shows them) but which move the
    /// next member to a new register.
    UnlistedObjectMembers,
}

fn explain(path: &str, creator: &str, mismatch: &reflect::Mismatch) -> Option<Explained> {
    if path.starts_with("vkd3d-shader-tests/register-reservations-numeric/")
        && creator.starts_with("vkd3d")
        && !mismatch.variable.contains('.')
    {
        return Some(Explained::UnflaggedExplicitPlacement);
    }
    if mismatch.variable.contains('.') && mismatch.message.contains("members the reflection does not list") {
        return Some(Explained::UnlistedObjectMembers);
    }
    None
}

#[derive(Default)]
struct Counts {
    blobs: usize,
    without_rdef: Vec<String>,
    cbuffers: usize,
    variables: usize,
    agree: usize,
    agree_variables: usize,
    explicit: usize,
    /// Per explanation, the buffers (`blob: cbuffer`) that disagree.
    explained: BTreeMap<Explained, BTreeSet<String>>,
    explained_messages: Vec<String>,
    unexplained: Vec<String>,
    unsupported: Vec<String>,
    skipped_kinds: usize,
}

/// Runs the check over the corpus with `rules`; `generated` also checks that each agreeing
/// layout has its generated struct.
fn survey(corpus: &Path, rules: &Rules, generated: bool) -> Counts {
    let mut c = Counts::default();
    for path in blobs(corpus) {
        let bytes = std::fs::read(corpus.join(&path)).unwrap();
        let layouts = match reflect::cbuffer_layouts_with(&bytes, rules) {
            Ok(l) => l,
            Err(ReflectError::NoReflection) => {
                c.without_rdef.push(path);
                continue;
            }
            Err(e) => panic!("{path}: {e}"),
        };
        let r = reflect::read_reflection(&bytes).unwrap().unwrap();
        c.blobs += 1;
        c.skipped_kinds += r.constant_buffers.len() - layouts.len();
        for l in &layouts {
            c.cbuffers += 1;
            c.variables += l.variables;
            c.explicit += l.explicit;
            match &l.verdict {
                Verdict::Agrees => {
                    c.agree += 1;
                    c.agree_variables += l.variables;
                    if generated {
                        let key = (path.as_str(), l.name.as_str(), l.register.map(|r| r.0));
                        assert!(
                            GENERATED.iter().any(|g| g.uses.contains(&key)),
                            "{path}: no generated struct for `{}`",
                            l.name
                        );
                    }
                }
                Verdict::Disagrees(ms) => {
                    for m in ms {
                        let what = format!("{path}: cbuffer `{}`: {m}", l.name);
                        match explain(&path, &r.creator, m) {
                            Some(e) => {
                                c.explained.entry(e).or_default().insert(format!("{path}: cbuffer `{}`", l.name));
                                c.explained_messages.push(format!("{e:?}: {what}"));
                            }
                            None => c.unexplained.push(what),
                        }
                    }
                }
                Verdict::Unsupported(why) => c.unsupported.push(format!("{path}: cbuffer `{}`: {why}", l.name)),
            }
        }
    }
    c
}

#[test]
fn corpus_layouts_follow_the_packing_rules() {
    let Some(corpus) = corpus_or_skip("corpus_layouts_follow_the_packing_rules") else {
        return;
    };
    let c = survey(&corpus, &Rules::HLSL, true);
    let explained: usize = c.explained.values().map(BTreeSet::len).sum(); // buffers
    eprintln!(
        "RDEF layouts: {} blobs with RDEF ({} vkd3d-shader-tests blobs without: {:?}), {} cbuffers ({} other \
         buffers skipped), {} variables and struct members; the packing rules reproduce {} cbuffers ({} variables) \
         exactly; {} variables explicitly placed (flagged); {} buffers disagree for explained reasons: {:?}; {} generated structs",
        c.blobs,
        c.without_rdef.len(),
        c.without_rdef,
        c.cbuffers,
        c.skipped_kinds,
        c.variables,
        c.agree,
        c.agree_variables,
        c.explicit,
        explained,
        c.explained.iter().map(|(k, v)| (k, v.len())).collect::<Vec<_>>(),
        GENERATED.len()
    );
    for m in &c.explained_messages {
        eprintln!("  {m}");
    }
    assert!(c.unexplained.is_empty(), "packing rules and reflection disagree:\n{}", c.unexplained.join("\n"));
    assert!(c.unsupported.is_empty(), "unsupported types:\n{}", c.unsupported.join("\n"));
    // Every blob without RDEF is one the test files give as hex.
    assert!(c.without_rdef.iter().all(|p| p.contains("_hex")), "{:?}", c.without_rdef);
    // The explained disagreements are exactly the known ones (this fails if one disappears or a
    // new kind shows up under the same heading).
    let n = |e| c.explained.get(&e).map_or(0, BTreeSet::len);
    assert_eq!(n(Explained::UnlistedObjectMembers), 2, "{:#?}", c.explained);
    assert_eq!(n(Explained::UnflaggedExplicitPlacement), 24, "{:#?}", c.explained);
    assert!(c.blobs > 1900 && c.cbuffers > 600 && c.agree + 26 >= c.cbuffers, "{} {} {}", c.blobs, c.cbuffers, c.agree);
}

include!("../src/source_placements.rs");

/// The buffers whose reflection lacks the `D3D_SVF_USERPACKED` flag agree with the packing rules
/// once the source's placements are given (as an effect file's `placed = { .. }` gives them):
/// the variables the source leaves to the compiler (`a` after `b : register(c0)`, `b` after
/// `a : register(c2)`, the struct's members) land where the compiler put them, and so does the
/// buffer size. A placement one register off disagrees.
#[test]
fn source_placements_reconcile_unflagged_buffers() {
    let Some(corpus) = corpus_or_skip("source_placements_reconcile_unflagged_buffers") else {
        return;
    };
    let dir = "vkd3d-shader-tests/register-reservations-numeric";
    let (mut reconciled, mut derived) = (0, 0);
    let mut used = BTreeSet::new();
    for path in blobs(&corpus).into_iter().filter(|p| p.starts_with(dir)) {
        let bytes = std::fs::read(corpus.join(&path)).unwrap();
        let section = path[dir.len() + 1..dir.len() + 6].to_string();
        let section = section.as_str();
        for l in reflect::cbuffer_layouts(&bytes).unwrap() {
            let placements = source_placements(&path, &l.name);
            if placements.is_empty() {
                assert!(
                    l.verdict.agrees(),
                    "{path}: `{}` disagrees and the source places nothing: {}",
                    l.name,
                    l.verdict
                );
                continue;
            }
            used.insert(section.to_string());
            assert!(!l.verdict.agrees(), "{path}: `{}` agrees without the placements: nothing to reconcile", l.name);
            let placed = reflect::with_source_placements(&l, &placements, &Rules::HLSL).unwrap();
            assert!(placed.verdict.agrees(), "{path}: `{}` with the source's placements: {}", l.name, placed.verdict);
            reconciled += 1;
            derived += placed.variables - placements.len();
            // One register off: caught.
            let off: Vec<(String, u32)> = placements.iter().map(|(n, o)| (n.clone(), o + 16)).collect();
            let wrong = reflect::with_source_placements(&l, &off, &Rules::HLSL).unwrap();
            assert!(!wrong.verdict.agrees(), "{path}: `{}`: a wrong placement agrees too", l.name);
        }
    }
    eprintln!(
        "source placements: {reconciled} buffers reconciled, {derived} of their variables and members placed by the \
         rules around the given ones"
    );
    assert_eq!(used.len(), SOURCE_PLACEMENTS.len(), "placements for sections without a disagreeing buffer: {used:?}");
    // Each profile (ps_4_0, ps_5_0) of each section: the 24 buffers the survey explains.
    assert_eq!(reconciled, 24);
    assert!(derived >= 8, "{derived}");
    // A name the buffer lacks is an error, not ignored.
    let bytes = std::fs::read(corpus.join(format!("{dir}/L0106_ps_4_0.dxbc"))).unwrap();
    let l = &reflect::cbuffer_layouts(&bytes).unwrap()[0];
    let e = reflect::with_source_placements(l, &[("z".into(), 32)], &Rules::HLSL).unwrap_err();
    assert!(e.contains("no variable `z`"), "{e}");
}

/// The comparison has teeth on the corpus: each deliberately wrong rule, run the same way, makes
/// cbuffers disagree that HLSL's rules reproduce (or the corpus has no case telling it apart,
/// which is reported).
#[test]
fn wrong_packing_rules_are_caught_on_the_corpus() {
    let Some(corpus) = corpus_or_skip("wrong_packing_rules_are_caught_on_the_corpus") else {
        return;
    };
    let right = survey(&corpus, &Rules::HLSL, false);
    let variants = [
        ("float3/scalar array elements packed tightly", Rules { tight_arrays: true, ..Rules::HLSL }),
        ("a struct forces the next variable onto a new register", Rules { align_after_struct: true, ..Rules::HLSL }),
        ("every matrix starts a register", Rules { align_all_matrices: true, ..Rules::HLSL }),
    ];
    let mut caught = Vec::new();
    for (what, rules) in variants {
        let wrong = survey(&corpus, &rules, false);
        let lost = right.agree - wrong.agree;
        eprintln!("wrong rule `{what}`: {lost} of {} agreeing cbuffers now disagree", right.agree);
        caught.push(lost);
    }
    assert!(caught[0] > 10, "tight arrays must be caught: {caught:?}");
}

/// Raw word writes of the replays, through the generated structs' named fields.
#[test]
fn replay_uniforms_through_named_fields() {
    let Some(corpus) = corpus_or_skip("replay_uniforms_through_named_fields") else {
        return;
    };
    let root = corpus.join("vkd3d-shader-tests");
    let mut tests: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path().join("test.json"))
        .filter(|p| p.is_file())
        .collect();
    tests.sort();
    let (mut draws, mut covered_draws, mut words_compared, mut padding_words, mut outside_words) = (0, 0, 0, 0, 0);
    let mut not_covered: BTreeMap<&str, usize> = BTreeMap::new();
    let mut covered_tests = BTreeSet::new();
    // Uniform events (test, run, line) that fed a covered draw, and how many of them span several
    // fields or touch padding.
    let mut covered_writes: BTreeSet<(String, String, u64)> = BTreeSet::new();
    let (mut multi_field_writes, mut padding_writes) = (0, 0);
    for t in &tests {
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(t).unwrap()).unwrap();
        let stem = v["stem"].as_str().unwrap().to_string();
        for run in v["runs"].as_array().unwrap() {
            let run_name = run["name"].as_str().unwrap().to_string();
            let mut raw: Vec<u32> = Vec::new();
            let mut writes: Vec<(usize, u32)> = Vec::new();
            // (line, first word, word count) per uniform event so far.
            let mut events: Vec<(u64, usize, usize)> = Vec::new();
            for ev in run["events"].as_array().unwrap() {
                if ev.get("skip").is_some() {
                    continue;
                }
                match ev["op"].as_str().unwrap() {
                    "uniform" => {
                        let offset = ev["offset"].as_u64().unwrap() as usize;
                        let words: Vec<u32> =
                            ev["words_u32"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap() as u32).collect();
                        let len = (raw.len().max(offset + words.len())).div_ceil(4) * 4;
                        raw.resize(len, 0x7f7f_7f7f);
                        for (i, w) in words.iter().enumerate() {
                            raw[offset + i] = *w;
                            writes.push((offset + i, *w));
                        }
                        events.push((ev["line"].as_u64().unwrap(), offset, words.len()));
                    }
                    "draw_quad" | "draw" => {
                        draws += 1;
                        let Some(dxbc) = ev["shaders"]["ps"]["dxbc"].as_str() else {
                            *not_covered.entry("no pixel shader blob").or_default() += 1;
                            continue;
                        };
                        let blob = format!("vkd3d-shader-tests/{stem}/{dxbc}");
                        let Some(g) =
                            GENERATED.iter().find(|g| g.uses.iter().any(|(b, _, slot)| *b == blob && *slot == Some(0)))
                        else {
                            let why = match reflect::cbuffer_layouts(&std::fs::read(corpus.join(&blob)).unwrap()) {
                                Err(_) => "pixel shader without RDEF",
                                Ok(ls) => match ls.iter().find(|l| l.register == Some((0, 0))) {
                                    None => "pixel shader binds no cbuffer at b0",
                                    Some(l) if !l.verdict.agrees() => "b0 layout disagrees (explained above)",
                                    Some(_) => panic!("{blob}: an agreeing b0 layout without a generated struct"),
                                },
                            };
                            *not_covered.entry(why).or_default() += 1;
                            continue;
                        };
                        let size_words = g.size / 4;
                        let inside: Vec<(usize, u32)> = writes.iter().copied().filter(|w| w.0 < size_words).collect();
                        outside_words += writes.len() - inside.len();
                        let (bytes, padding) = (g.replay)(&inside, 0x7f);
                        for (word, &expected) in raw.iter().enumerate().take(size_words) {
                            if padding.contains(&word) {
                                padding_words += 1;
                                continue;
                            }
                            let got = u32::from_le_bytes(bytes[4 * word..4 * word + 4].try_into().unwrap());
                            assert_eq!(
                                got,
                                expected,
                                "{stem} ({run_name}), draw at line {}: word {word} (`{}` of {}) is {got:#010x} through \
                                 the fields, {expected:#010x} in the replay's buffer",
                                ev["line"],
                                g.variables[word].unwrap_or("padding"),
                                g.name
                            );
                            words_compared += 1;
                        }
                        covered_draws += 1;
                        covered_tests.insert(stem.clone());
                        for &(line, offset, n) in &events {
                            if covered_writes.insert((stem.clone(), run_name.clone(), line)) {
                                let vars: BTreeSet<Option<&str>> =
                                    (offset..offset + n).filter(|w| *w < size_words).map(|w| g.variables[w]).collect();
                                if vars.iter().flatten().count() > 1 {
                                    multi_field_writes += 1;
                                }
                                if vars.contains(&None) {
                                    padding_writes += 1;
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    eprintln!(
        "uniform replays through named fields: {} tests, {covered_draws} of {draws} draws, {} uniform writes ({} \
         spanning several fields, {} touching padding); summed over the covered draws: {words_compared} words \
         compared equal, {padding_words} padding words the replay wrote left out, {outside_words} word writes past \
         the pixel shader's buffer ignored; draws not covered: {not_covered:?}",
        covered_tests.len(),
        covered_writes.len(),
        multi_field_writes,
        padding_writes,
    );
    assert!(covered_draws > 500 && covered_tests.len() > 50, "{covered_draws} draws, {} tests", covered_tests.len());
}

/// The Rust generated for a reflected layout with a matrix, arrays and a nested struct:
/// vkd3d-shader-tests `default-values` L0269 (ps_5_0), `struct { float2 a[2]; row_major int2x3 b;
/// float3 c[2]; } apple;` in `$Globals`.
#[test]
fn golden_struct_of_a_reflected_layout() {
    let Some(corpus) = corpus_or_skip("golden_struct_of_a_reflected_layout") else {
        return;
    };
    let bytes = std::fs::read(corpus.join("vkd3d-shader-tests/default-values/L0269_ps_5_0.dxbc")).unwrap();
    let layouts = reflect::cbuffer_layouts(&bytes).unwrap();
    assert_eq!(layouts.len(), 1);
    let s = reflect::rust_struct_source(&layouts[0]).unwrap();
    insta::with_settings!({
        snapshot_path => "../snapshots",
        description => "corpus: vkd3d-shader-tests/default-values/L0269_ps_5_0.dxbc, cbuffer $Globals",
        omit_expression => true,
    }, {
        insta::assert_snapshot!("default_values_l0269_globals", s.code);
    });
}

/// SM4 and SM5 builds of one source reflect the same struct layout, but only SM5 records the
/// struct's type name: an effect choosing between them by permutation takes the layout from
/// either (vkd3d's `struct-inheritance`, ps_4_0 and ps_5_0 of one section).
#[test]
fn sm4_and_sm5_reflections_of_one_struct_layout_agree() {
    let Some(corpus) = corpus_or_skip("sm4_and_sm5_reflections_of_one_struct_layout_agree") else {
        return;
    };
    let dir = corpus.join("vkd3d-shader-tests/struct-inheritance");
    // The two reflections differ in the struct's name only.
    let names: Vec<Option<String>> = ["L0001_ps_4_0.dxbc", "L0001_ps_5_0.dxbc"]
        .iter()
        .map(|f| {
            let l = reflect::cbuffer_layouts(&std::fs::read(dir.join(f)).unwrap()).unwrap();
            match &l[0].fields[0].ty {
                dxbc_wgsl_build::effect::VarType::Struct(s) => s.name.clone(),
                other => panic!("{f}: {other}"),
            }
        })
        .collect();
    assert!(names[0].is_none() && names[1].is_some(), "{names:?}");
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("s.effect.toml");
    let text = format!(
        "[effect]\nname = \"S\"\nshader_dir = {:?}\n\n[axes]\nsm5 = \"bool\"\n\n[cbuffers.Globals]\nregister = \"b0\"\n\n\
         [passes.main]\nvertex = \"default_vs_4_0.dxbc\"\npixel = \"L0001_ps_{{sm5:5_0:4_0}}.dxbc\"\n",
        dir.to_string_lossy()
    );
    std::fs::write(&path, text).unwrap();
    let effect = dxbc_wgsl_build::Effect::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let c = dxbc_wgsl_build::compile::compile(effect, &mut dxbc_wgsl_build::compile::DirectTranslator)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(c.effect.layouts[0].from_reflection && !c.effect.layouts[0].fields.is_empty());
}
