//! Builder: output, cache behaviour, errors.

mod common;

use dxbc_wgsl_build::{BuildError, Builder};

/// Stand-in translator: the stand-in files say which shader they are.
fn fake(
    bytes: &[u8],
    _: &dxbc_wgsl::TranslateOptions,
) -> Result<dxbc_wgsl_build::StageInfo, dxbc_wgsl_build::compile::ShaderError> {
    let bad = |m: &str| dxbc_wgsl_build::compile::ShaderError::Input(m.into());
    let text = std::str::from_utf8(bytes).map_err(|e| bad(&e.to_string()))?;
    let label = text
        .strip_prefix("DXBC stand-in for ")
        .ok_or(bad("not a stand-in"))?
        .split_whitespace()
        .next()
        .ok_or(bad("empty"))?;
    Ok(common::fake_info(label))
}

fn builder(dir: &std::path::Path) -> Builder {
    Builder::new()
        .effect("tiny.effect.toml")
        .base_dir(dir)
        .out_dir(dir.join("out"))
        .cargo_output(false)
        .translator(fake)
}

#[test]
fn second_build_uses_the_cache_and_a_changed_input_is_retranslated() {
    let dir = tempfile::tempdir().unwrap();
    common::write_tiny(dir.path());

    let first = builder(dir.path()).build().unwrap();
    let r = &first.effects[0];
    assert_eq!((r.translated, r.cached, r.written), (10, 0, true));
    assert_eq!(r.output, dir.path().join("out/tiny_effect.rs"));
    let code = std::fs::read_to_string(&r.output).unwrap();
    let again = dir.path().join("again");
    std::fs::create_dir(&again).unwrap();
    assert_eq!(code, dxbc_wgsl_build::generate(&common::compile_tiny(&again)));

    let second = builder(dir.path()).build().unwrap();
    let r = &second.effects[0];
    assert_eq!((r.translated, r.cached, r.written), (0, 10, false));

    // Change one input: only it is translated again.
    let ps = dir.path().join("Tiny_PSTx.dxbc");
    std::fs::write(&ps, "DXBC stand-in for Tiny_PSTx.dxbc (edited)").unwrap();
    let third = builder(dir.path()).build().unwrap();
    let r = &third.effects[0];
    assert_eq!((r.translated, r.cached), (1, 9));
    // The old input's translation was pruned: ten cache files, not eleven.
    let cached = std::fs::read_dir(dir.path().join("out").join(dxbc_wgsl_build::builder::CACHE_DIR)).unwrap().count();
    assert_eq!(cached, 10);
}

#[test]
fn errors_are_diagnostics_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    common::write_tiny(dir.path());
    std::fs::remove_file(dir.path().join("Tiny_PSNoFog.dxbc")).unwrap();
    let err = builder(dir.path()).build().unwrap_err();
    let BuildError::Effect(d) = err else { panic!("{err}") };
    let first = d.first().unwrap();
    // The pixel rule is on line 42, its path value at column 9.
    assert_eq!((first.line, first.column), (42, 9), "{first}");
    assert!(first.message.contains("shader file not found"), "{first}");
    assert!(first.message.contains("Tiny_PSNoFog.dxbc"), "{first}");

    // A translator failure is reported at the rule that chose the shader.
    fn failing(
        bytes: &[u8],
        options: &dxbc_wgsl::TranslateOptions,
    ) -> Result<dxbc_wgsl_build::StageInfo, dxbc_wgsl_build::compile::ShaderError> {
        if bytes.ends_with(b"Tiny_VSLit.dxbc") {
            Err(dxbc_wgsl_build::compile::ShaderError::Input(
                "unsupported (opcode_unsupported) at instruction 7: test".into(),
            ))
        } else {
            fake(bytes, options)
        }
    }
    common::write_tiny(dir.path());
    // (The first attempt cached the translations that succeeded; start from an empty cache.)
    std::fs::remove_dir_all(dir.path().join("out")).unwrap();
    let err = builder(dir.path()).translator(failing).build().unwrap_err();
    let BuildError::Effect(d) = err else { panic!("{err}") };
    let first = d.first().unwrap();
    assert_eq!((first.line, first.column), (39, 42), "{first}");
    assert!(first.message.contains("Tiny_VSLit.dxbc") && first.message.contains("instruction 7"), "{first}");
}

#[test]
fn two_effects_generating_one_module_are_an_error_not_an_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    common::write_tiny(dir.path());
    // The same effect under another file name: the same `[effect] name`, so the same module.
    std::fs::copy(dir.path().join("tiny.effect.toml"), dir.path().join("tiny_copy.effect.toml")).unwrap();
    let err = builder(dir.path()).effect("tiny_copy.effect.toml").build().unwrap_err();
    let BuildError::DuplicateModule { module, first, second } = &err else { panic!("{err}") };
    assert_eq!(module, "tiny_effect");
    assert!(first.ends_with("tiny.effect.toml") && second.ends_with("tiny_copy.effect.toml"), "{err}");
    assert!(err.to_string().contains("module"), "{err}");
}

/// A copy of DualTextureEffect whose blobs are in `dir/shaders`, one of them patched after the
/// header (a byte of its first chunk flipped, so the checksum no longer matches), with `extra`
/// added to its `[effect]` table.
fn patched_dual_texture(dir: &std::path::Path, extra: &str) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let blobs = root.join("example-engine/shaders/directxtk/DualTextureEffect");
    std::fs::create_dir_all(dir.join("shaders")).unwrap();
    for entry in std::fs::read_dir(&blobs).unwrap() {
        let path = entry.unwrap().path();
        let mut bytes = std::fs::read(&path).unwrap();
        if path.file_name().unwrap() == "DualTextureEffect_VSDualTexture.dxbc" {
            bytes = common::flip_after_header(&bytes);
        }
        std::fs::write(dir.join("shaders").join(path.file_name().unwrap()), bytes).unwrap();
    }
    let text = std::fs::read_to_string(root.join("example-engine/effects/dual_texture.effect.toml")).unwrap();
    let text = text.replace(
        "shader_dir = \"../shaders/directxtk/DualTextureEffect\"",
        &format!("shader_dir = \"shaders\"\n{extra}"),
    );
    std::fs::write(dir.join("dual_texture.effect.toml"), text).unwrap();
}

/// `[effect] verify_checksum = false` translates a knowingly patched blob; without it the blob is
/// refused, and the cache of a build that did not verify does not hide that.
#[test]
fn verify_checksum_false_reads_a_patched_blob() {
    let dir = tempfile::tempdir().unwrap();
    let build = || {
        Builder::new()
            .effect("dual_texture.effect.toml")
            .base_dir(dir.path())
            .out_dir(dir.path().join("out"))
            .cargo_output(false)
            .build()
    };
    patched_dual_texture(dir.path(), "");
    let err = build().unwrap_err();
    let BuildError::Effect(d) = &err else { panic!("{err}") };
    let first = d.first().unwrap();
    assert!(first.message.contains("DualTextureEffect_VSDualTexture.dxbc"), "{first}");
    assert!(first.message.contains("checksum mismatch"), "{first}");

    patched_dual_texture(dir.path(), "verify_checksum = false");
    let report = build().unwrap_or_else(|e| panic!("{e}"));
    let code = std::fs::read_to_string(&report.effects[0].output).unwrap();
    // The flipped byte is in the level 9 program, which the translation does not read: the same
    // module as the example's.
    let example = tempfile::tempdir().unwrap();
    let expected = Builder::new()
        .effect("../example-engine/effects/dual_texture.effect.toml")
        .base_dir(env!("CARGO_MANIFEST_DIR"))
        .out_dir(example.path())
        .cargo_output(false)
        .build()
        .unwrap();
    assert_eq!(code, std::fs::read_to_string(&expected.effects[0].output).unwrap());

    // Verified again: refused again, not taken from the cache.
    patched_dual_texture(dir.path(), "verify_checksum = true");
    let err = build().unwrap_err();
    assert!(err.to_string().contains("checksum mismatch"), "{err}");
}

/// The stand-in translator, naming the role the options ask for as the effect's labels do.
fn fake_with_roles(
    bytes: &[u8],
    options: &dxbc_wgsl::TranslateOptions,
) -> Result<dxbc_wgsl_build::StageInfo, dxbc_wgsl_build::compile::ShaderError> {
    let role = match (&options.vertex_stage, options.behind_geometry) {
        (dxbc_wgsl::VertexStage::Compute(_), _) => " (vertex pulling)",
        (_, true) => " (behind geometry)",
        _ => "",
    };
    let info = fake(bytes, options)?;
    let text = std::str::from_utf8(bytes).unwrap_or_default();
    let label = text.strip_prefix("DXBC stand-in for ").unwrap_or_default();
    Ok(dxbc_wgsl_build::StageInfo { wgsl: format!("// {label}{role}\n{}", info.wgsl), ..info })
}

/// A pass with a geometry shader through the builder: each input is translated once per role
/// (the vertex shader as its stage and pulled, the pixel shader behind geometry), each role keyed
/// apart in the cache, and a second build translates nothing.
#[test]
fn geometry_passes_cache_each_role_of_an_input() {
    let dir = tempfile::tempdir().unwrap();
    common::write_tiny_geometry(dir.path());
    let build = || {
        Builder::new()
            .effect("geometry.effect.toml")
            .base_dir(dir.path())
            .out_dir(dir.path().join("out"))
            .cargo_output(false)
            .translator(fake_with_roles)
            .build()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let first = build();
    let r = &first.effects[0];
    // Vertex shaders: 6 as stages (for their inputs), 6 pulled for `main`, Tiny_VS pulled again
    // for `lines` is the same translation; 2 geometry shaders; 4 pixel shaders behind geometry.
    assert_eq!((r.translated, r.cached, r.written), (6 + 6 + 2 + 4, 0, true), "{r:?}");
    let code = std::fs::read_to_string(&r.output).unwrap();
    assert!(code.contains("pub struct MainStage {") && code.contains("pub use ::dxbc_wgsl_runtime::primitive_stage;"));
    let second = build();
    let r = &second.effects[0];
    assert_eq!((r.translated, r.written), (0, false), "{r:?}");
    let cached = std::fs::read_dir(dir.path().join("out").join(dxbc_wgsl_build::builder::CACHE_DIR)).unwrap().count();
    assert_eq!(cached, 18);
}
