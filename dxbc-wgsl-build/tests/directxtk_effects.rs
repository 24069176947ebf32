//! The example engine's DirectXTK effect files against DirectXTK's own permutation tables
//! (`pairings.json` in the corpus), and the Builder on the real blobs.

use std::path::{Path, PathBuf};

use dxbc_wgsl_build::Effect;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn corpus() -> Option<PathBuf> {
    let dir =
        std::env::var_os("DXBC_WGSL_CORPUS").map(PathBuf::from).unwrap_or_else(|| repo().join("../shared/corpus"));
    if dir.join("directxtk").is_dir() {
        Some(dir)
    } else {
        eprintln!("corpus not found at {} (set DXBC_WGSL_CORPUS): skipping the pairings check", dir.display());
        None
    }
}

/// Checks every entry of `<family>/pairings.json` against the effect file: `values(index)` gives
/// the effect's axis values for DirectXTK's permutation index.
fn check_pairings(effect_file: &str, family: &str, values: impl Fn(&Effect, usize) -> Vec<usize>) {
    let Some(corpus) = corpus() else { return };
    let effect = Effect::load(&repo().join("example-engine/effects").join(effect_file)).unwrap();
    let text = std::fs::read_to_string(corpus.join("directxtk").join(family).join("pairings.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let table = json["permutations"].as_array().unwrap();
    let pass = &effect.passes[0];
    let stem = |r: dxbc_wgsl_build::effect::ShaderRef| r.path.file_stem().unwrap().to_string_lossy().into_owned();
    let mut seen = std::collections::BTreeSet::new();
    for entry in table {
        let index = entry["permutation"].as_u64().unwrap() as usize;
        let v = values(&effect, index);
        assert!(effect.permutations().contains(&v), "DirectXTK permutation {index} is excluded");
        seen.insert(v.clone());
        let vs = stem(effect.shader_for(&pass.vertex, &v).unwrap());
        let ps = stem(effect.shader_for(pass.pixel.as_ref().unwrap(), &v).unwrap());
        assert_eq!(vs, entry["vs"].as_str().unwrap(), "vertex shader of permutation {index} ({})", entry["comment"]);
        assert_eq!(ps, entry["ps"].as_str().unwrap(), "pixel shader of permutation {index} ({})", entry["comment"]);
    }
    // And the effect has no permutation DirectXTK lacks.
    assert_eq!(seen.len(), effect.permutations().len());
}

fn axis(effect: &Effect, name: &str) -> usize {
    effect.axes.iter().position(|a| a.name == name).unwrap()
}

#[test]
fn basic_effect_matches_directxtk_table() {
    // BasicEffect.cpp: index = no fog (1) + vertex colour (2) + texture (4) + 8 × lighting block,
    // blocks 0 none, 1 vertex lighting, 2 one light, 3 pixel lighting, 4–6 the same three with
    // biased normals.
    check_pairings("basic.effect.toml", "BasicEffect", |e, i| {
        let mut v = vec![0; e.axes.len()];
        v[axis(e, "fog")] = usize::from(i & 1 == 0);
        v[axis(e, "vertex_color")] = usize::from(i & 2 != 0);
        v[axis(e, "texture")] = usize::from(i & 4 != 0);
        let block = i / 8;
        v[axis(e, "lighting")] = match block {
            0 => 0,
            1 | 4 => 1,
            2 | 5 => 2,
            _ => 3,
        };
        v[axis(e, "biased_normals")] = usize::from(block >= 4);
        v
    });
}

#[test]
fn dual_texture_effect_matches_directxtk_table() {
    check_pairings("dual_texture.effect.toml", "DualTextureEffect", |e, i| {
        let mut v = vec![0; e.axes.len()];
        v[axis(e, "fog")] = usize::from(i & 1 == 0);
        v[axis(e, "vertex_color")] = usize::from(i & 2 != 0);
        v
    });
}

#[test]
fn builder_caches_real_translations() {
    let out = tempfile::tempdir().unwrap();
    let build = || {
        dxbc_wgsl_build::Builder::new()
            .base_dir(repo())
            .effect("example-engine/effects/basic.effect.toml")
            .out_dir(out.path())
            .cargo_output(false)
            .build()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let first = build();
    assert_eq!((first.effects[0].translated, first.effects[0].cached), (42, 0));
    let second = build();
    assert_eq!((second.effects[0].translated, second.effects[0].cached), (0, 42));
    assert!(!second.effects[0].written);
    let code = std::fs::read_to_string(out.path().join("basic_effect.rs")).unwrap();
    assert!(code.contains("pub mod basic_effect {"));
    assert!(code.contains("pub const ALL: [Permutation; 56]"));
}
