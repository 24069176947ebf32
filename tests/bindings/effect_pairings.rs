//! example-engine's effect files choose, for every permutation, the vertex and pixel shader that
//! DirectXTK's C++ classes pair (recorded in the corpus's `directxtk/<Family>/pairings*.json`).
//!
//! Shaders are compared by their translation, not their names: the generated code stores
//! identical translations once under the first file's label (EnvironmentMapEffect's
//! `VSEnvMapPixelLightingSM4` is `VSEnvMapPixelLighting` compiled for another target, and
//! translates identically). So for each effect the multiset of (vertex WGSL, pixel WGSL) over
//! `Permutation::ALL` must equal the multiset of translations of the pairings file's (VS, PS) blobs,
//! read from the corpus; the permutation counts agree with it. Skips with a message when the corpus
//! is absent.

use std::collections::BTreeMap;
use std::path::Path;

use dxbc_wgsl_tests::corpus_dir;
use example_engine::effects::*;

/// (vertex label, vertex WGSL, pixel label, pixel WGSL) of every permutation.
type Pairs = Vec<(&'static str, &'static str, &'static str, &'static str)>;

macro_rules! pairs {
    ($module:ident) => {
        $module::Permutation::ALL
            .iter()
            .map(|p| {
                let s = p.shaders().expect("listed permutations exist");
                let ps = s.pixel.expect("every pass has a pixel shader");
                (s.vertex.label, s.vertex.wgsl, ps.label, ps.wgsl)
            })
            .collect::<Pairs>()
    };
}

/// WGSL of a corpus blob (`directxtk/<Family>/<name>.dxbc`), translated with default options as
/// `Builder` does; cached by name.
fn translation<'a>(dir: &Path, name: &str, cache: &'a mut BTreeMap<String, String>) -> &'a str {
    cache.entry(name.to_owned()).or_insert_with(|| {
        let family = if name.starts_with("PostProcess_") { "PostProcess" } else { name.split('_').next().unwrap() };
        let path = dir.join(family).join(format!("{name}.dxbc"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        dxbc_wgsl::translate(&bytes, &dxbc_wgsl::TranslateOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .wgsl
    })
}

#[test]
fn effect_files_pair_shaders_as_directxtk_does() {
    let Some(corpus) = corpus_dir() else {
        eprintln!("SKIPPED effect_files_pair_shaders_as_directxtk_does: no corpus (set DXBC_WGSL_CORPUS)");
        return;
    };
    let dir = corpus.join("directxtk");
    let effects: [(&str, Pairs); 11] = [
        ("AlphaTestEffect/pairings.json", pairs!(alpha_test_effect)),
        ("BasicEffect/pairings.json", pairs!(basic_effect)),
        ("DebugEffect/pairings.json", pairs!(debug_effect)),
        ("DualTextureEffect/pairings.json", pairs!(dual_texture_effect)),
        ("EnvironmentMapEffect/pairings.json", pairs!(environment_map_effect)),
        ("NormalMapEffect/pairings.json", pairs!(normal_map_effect)),
        ("PostProcess/pairings_BasicPostProcess.json", pairs!(basic_post_process)),
        ("PostProcess/pairings_DualPostProcess.json", pairs!(dual_post_process)),
        ("SkinnedEffect/pairings.json", pairs!(skinned_effect)),
        ("SpriteEffect/pairings.json", pairs!(sprite_effect)),
        ("ToneMap/pairings.json", pairs!(tone_map)),
    ];
    let mut cache = BTreeMap::new();
    for (file, ours) in effects {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let theirs: Vec<(String, String)> = json["permutations"]
            .as_array()
            .expect("permutations array")
            .iter()
            .map(|p| (p["vs"].as_str().unwrap().to_owned(), p["ps"].as_str().unwrap().to_owned()))
            .collect();
        assert_eq!(ours.len(), theirs.len(), "{file}: permutation count");
        let mut their_wgsl: Vec<(String, String, &str, &str)> = theirs
            .iter()
            .map(|(vs, ps)| {
                (
                    translation(&dir, vs, &mut cache).to_owned(),
                    translation(&dir, ps, &mut cache).to_owned(),
                    vs.as_str(),
                    ps.as_str(),
                )
            })
            .collect();
        let mut our_wgsl: Vec<(String, String, &str, &str)> =
            ours.iter().map(|&(vl, vw, pl, pw)| (vw.to_owned(), pw.to_owned(), vl, pl)).collect();
        their_wgsl.sort();
        our_wgsl.sort();
        for (o, t) in our_wgsl.iter().zip(&their_wgsl) {
            assert!(
                o.0 == t.0 && o.1 == t.1,
                "{file}: the effect file pairs {} + {}, where DirectXTK pairs {} + {} (or another pair is missing)",
                o.2,
                o.3,
                t.2,
                t.3
            );
        }
        let stem = |label: &str| label.trim_end_matches(".dxbc").to_owned();
        let renamed = our_wgsl.iter().zip(&their_wgsl).filter(|(o, t)| stem(o.2) != t.2 || stem(o.3) != t.3).count();
        println!("{file}: {} permutations pair as DirectXTK does ({renamed} under a merged label)", ours.len());
    }
}
