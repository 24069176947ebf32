//! Golden tests of the generated Rust.

mod common;

use std::path::Path;

use dxbc_wgsl_build::plan::PipelinePlan;

/// The generated module for the tiny effect is kept as a compiled fixture
/// (`tests/fixtures/tiny_effect.rs`, included by `tests/generated_compiles.rs`). Set
/// `UPDATE_GOLDEN=1` to rewrite the fixture after an intended change.
#[test]
fn tiny_effect_golden() {
    let dir = tempfile::tempdir().unwrap();
    let compiled = common::compile_tiny(dir.path());
    let code = dxbc_wgsl_build::generate(&compiled);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_effect.rs");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&fixture, &code).unwrap();
    }
    let kept = std::fs::read_to_string(&fixture).unwrap_or_default();
    assert!(
        kept == code,
        "generated code differs from tests/fixtures/tiny_effect.rs (run with UPDATE_GOLDEN=1 to update)"
    );
}

/// A two-pass variant (the second pass has no pixel shader): the `Pass` enum and the pass
/// parameters. Kept as `tests/fixtures/tiny_two_pass.rs`, compiled by `tests/generated_compiles.rs`.
#[test]
fn two_pass_golden() {
    let dir = tempfile::tempdir().unwrap();
    common::write_tiny(dir.path());
    let text = common::TINY_EFFECT
        .replace("name = \"TinyEffect\"", "name = \"TinyEffect\"\nmodule = \"tiny_two_pass\"")
        + "\n[passes.depth_only]\nvertex = \"Tiny_VS.dxbc\"\n"
        + "\n[techniques.depth_prepass]\ndoc = \"Lay down depth, then shade.\"\npasses = [\"depth_only\", \"main\"]\n"
        + "\n[techniques.forward]\npasses = [\"main\"]\n";
    let path = dir.path().join("two.effect.toml");
    std::fs::write(&path, text).unwrap();
    let effect = dxbc_wgsl_build::Effect::load(&path).unwrap();
    let compiled = dxbc_wgsl_build::compile::compile(effect, &mut common::FakeTranslator::default()).unwrap();
    let code = dxbc_wgsl_build::generate(&compiled);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_two_pass.rs");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&fixture, &code).unwrap();
    }
    let kept = std::fs::read_to_string(&fixture).unwrap_or_default();
    assert!(kept == code, "generated code differs from tests/fixtures/tiny_two_pass.rs (UPDATE_GOLDEN=1 updates it)");
    assert!(code.contains("pub enum Pass {") && code.contains("pub enum Technique {"));
}

/// The smallest effect: no axes, no resources, a vertex shader without vertex attributes. Kept as
/// `tests/fixtures/bare.rs`, compiled by `tests/generated_compiles.rs`.
#[test]
fn bare_golden() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["Bare_VS.dxbc", "Bare_PS.dxbc"] {
        std::fs::write(dir.path().join(f), format!("DXBC stand-in for {f}")).unwrap();
    }
    let path = dir.path().join("bare.effect.toml");
    std::fs::write(
        &path,
        "[effect]\nname = \"Bare\"\n[passes.main]\nvertex = \"Bare_VS.dxbc\"\npixel = \"Bare_PS.dxbc\"\n",
    )
    .unwrap();
    let effect = dxbc_wgsl_build::Effect::load(&path).unwrap();
    let compiled = dxbc_wgsl_build::compile::compile(effect, &mut common::FakeTranslator::default()).unwrap();
    let code = dxbc_wgsl_build::generate(&compiled);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bare.rs");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&fixture, &code).unwrap();
    }
    let kept = std::fs::read_to_string(&fixture).unwrap_or_default();
    assert!(kept == code, "generated code differs from tests/fixtures/bare.rs (UPDATE_GOLDEN=1 updates it)");
}

/// An effect with render and compute passes, interleaved (`main` render, `build` compute,
/// `depth_only` render, `clear` compute): `RenderPass` and `ComputePass`, the render API and the
/// `Compute*` API side by side. Kept as `tests/fixtures/tiny_mixed.rs`, compiled and exercised by
/// `tests/generated_compiles.rs`.
#[test]
fn mixed_passes_golden() {
    let dir = tempfile::tempdir().unwrap();
    common::write_tiny(dir.path());
    for f in ["Tiny_CS.dxbc", "Tiny_CSTx.dxbc", "Tiny_CSClear.dxbc"] {
        std::fs::write(dir.path().join(f), format!("DXBC stand-in for {f}")).unwrap();
    }
    let text = common::TINY_EFFECT
        .replace("name = \"TinyEffect\"", "name = \"TinyEffect\"\nmodule = \"tiny_mixed\"")
        .replace("[passes.main]", "[passes.build]\ncompute = \"Tiny_CS{texture:Tx}.dxbc\"\n\n[passes.main]")
        + "\n[passes.depth_only]\nvertex = \"Tiny_VS.dxbc\"\n\n[passes.clear]\ncompute = \"Tiny_CSClear.dxbc\"\n"
        + "\n[techniques.frame]\npasses = [\"clear\", \"build\", \"depth_only\", \"main\"]\n";
    let path = dir.path().join("mixed.effect.toml");
    std::fs::write(&path, text).unwrap();
    let effect = dxbc_wgsl_build::Effect::load(&path).unwrap();
    let compiled = dxbc_wgsl_build::compile::compile(effect, &mut common::FakeTranslator::default()).unwrap();
    assert!(compiled.is_mixed());
    let code = dxbc_wgsl_build::generate(&compiled);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_mixed.rs");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&fixture, &code).unwrap();
    }
    let kept = std::fs::read_to_string(&fixture).unwrap_or_default();
    assert!(kept == code, "generated code differs from tests/fixtures/tiny_mixed.rs (UPDATE_GOLDEN=1 updates it)");
    for item in [
        "pub enum RenderPass {",
        "pub enum ComputePass {",
        "pub struct ComputeShaders {",
        "pub struct ComputeResources<'a> {",
        "pub struct ComputeLayouts {",
        "pub struct ComputeBindGroups {",
        "pub fn create_compute_pipeline(device: &wgpu::Device, layouts: &ComputeLayouts)",
        "pub fn create_render_pipeline(device: &wgpu::Device, layouts: &Layouts,",
    ] {
        assert!(code.contains(item), "`{item}` is missing");
    }
    assert!(!code.contains("pub enum Pass {"), "a mixed effect has no `Pass` enum");

    // The render and compute passes' resources are split per kind: `u0` only the compute
    // shaders bind; `parameters` both bind.
    let plan = PipelinePlan::new(&compiled);
    let names = |compute| -> Vec<String> {
        plan.fields(compute).iter().map(|f| format!("{}{}", f.name, if f.required { "" } else { "?" })).collect()
    };
    assert_eq!(names(false), ["parameters", "sampler?", "texture?"]);
    // The clearing pass's `u1` and its hidden counter are two fields of one register.
    assert_eq!(names(true), ["parameters", "u0", "sampler?", "texture?", "u1?", "u1_counter?"]);
    assert_eq!(compiled.resources.len(), 6);
    entries_bind_their_fields(&plan, "tiny_mixed");
}

/// An effect with passes that have a geometry shader (`main`, `lines`) beside a render pass
/// (`depth_only`): the primitive stage's runtime embedded once, the `Geometry*` API, a stage type
/// per pass, per-instance structs. Kept as `tests/fixtures/tiny_geometry.rs`, compiled and
/// exercised by `tests/generated_compiles.rs` (and, with the compile_fail examples of
/// `codegen`'s documentation, by the doctests).
#[test]
fn geometry_passes_golden() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::write_tiny_geometry(dir.path());
    let effect = dxbc_wgsl_build::Effect::load(&path).unwrap_or_else(|d| panic!("{}", d.first().unwrap()));
    let compiled = dxbc_wgsl_build::compile::compile(effect, &mut common::FakeTranslator::default())
        .unwrap_or_else(|d| panic!("{}", d.first().unwrap()));
    let code = dxbc_wgsl_build::generate(&compiled);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_geometry.rs");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&fixture, &code).unwrap();
    }
    let kept = std::fs::read_to_string(&fixture).unwrap_or_default();
    assert!(kept == code, "generated code differs from tests/fixtures/tiny_geometry.rs (UPDATE_GOLDEN=1 updates it)");
    for item in [
        "pub use ::dxbc_wgsl_runtime::primitive_stage;",
        "pub enum GeometryPass {",
        "pub struct GeometryShaders {",
        "pub struct GeometryResources<'a> {",
        "pub struct GeometryLayouts {",
        "pub struct GeometryBindGroups {",
        "pub struct MainStage {",
        "pub struct MainPrepared {",
        "pub struct LinesStage {",
        "pub struct InstanceColor {",
        "Geometry(GeometryPass),",
    ] {
        assert!(code.contains(item), "`{item}` is missing");
    }
    // The runtime is the runtime crate's: named once, none of it in the module.
    assert_eq!(code.matches("::dxbc_wgsl_runtime::primitive_stage").count(), 1);
    for runtime_item in
        ["pub struct DrawCall", "impl PrimitiveStage", "pub enum PrimitiveStageError", "r#\"// The assembly"]
    {
        assert!(!code.contains(runtime_item), "the module holds the runtime's `{runtime_item}`");
    }
    // The render pass keeps the render API; the geometry passes' resources are their own.
    let plan = PipelinePlan::new(&compiled);
    let names = |kind| -> Vec<String> {
        plan.fields_of(kind).iter().map(|f| format!("{}{}", f.name, if f.required { "" } else { "?" })).collect()
    };
    use dxbc_wgsl_build::effect::PassKind;
    assert_eq!(names(PassKind::Render), ["parameters"]);
    assert_eq!(names(PassKind::Geometry), ["parameters", "sampler?", "texture?"]);
    entries_bind_their_fields(&plan, "tiny_geometry");
}

/// Every bind group layout entry of the plan binds a field of its kind of pass's struct that
/// holds what the binding takes, and serves the binding's register.
fn entries_bind_their_fields(plan: &PipelinePlan, what: &str) {
    use dxbc_wgsl::ResourceKind;
    use dxbc_wgsl_build::compile::FieldKind;
    use dxbc_wgsl_build::effect::PassKind;
    let tables = [
        (PassKind::Render, &plan.groups[0]),
        (PassKind::Render, &plan.groups[1]),
        (PassKind::Compute, &plan.compute_groups),
        (PassKind::Geometry, &plan.geometry_groups[0]),
        (PassKind::Geometry, &plan.geometry_groups[1]),
        (PassKind::Geometry, &plan.geometry_groups[2]),
    ];
    for (kind, list) in tables {
        for e in list.iter().flatten() {
            assert_eq!(e.field.kind(), kind, "{what}: {}", e.binding.register);
            let f = plan.field(e.field);
            let kind = match e.binding.kind {
                ResourceKind::UniformBuffer { .. } => FieldKind::UniformBuffer,
                ResourceKind::StorageBuffer { .. } => FieldKind::StorageBuffer,
                ResourceKind::UavCounter => FieldKind::CounterBuffer,
                ResourceKind::Texture { .. } | ResourceKind::StorageTexture { .. } => FieldKind::TextureView,
                ResourceKind::Sampler { .. } => FieldKind::Sampler,
            };
            assert_eq!(f.kind, kind, "{what}: {} binds `{}`", e.binding.register, f.name);
            let reg = e.binding.register.to_string();
            assert!(f.registers.iter().any(|(_, r)| *r == reg), "{what}: `{}` does not serve {reg}", f.name);
        }
    }
}

/// In an effect of one kind of pass, that kind's resource fields are the effect's: the
/// generated `Resources` of every example effect and of the compute-only test effect is what it
/// was before effects could mix the kinds (`GeometryResources` for example-engine's point
/// sprites, whose one pass has a geometry shader).
#[test]
fn single_kind_effects_keep_their_resource_fields() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("example-engine/effects"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".effect.toml"))
        .collect();
    files.sort();
    files.push(root.join("tests/effects/generate_mips.effect.toml"));
    files.push(root.join("tests/effects/render_states.effect.toml"));
    for path in &files {
        use dxbc_wgsl_build::effect::PassKind;
        let effect = dxbc_wgsl_build::Effect::load(path).unwrap_or_else(|d| panic!("{}", d.first().unwrap()));
        // The one kind of pass (example-engine's point sprites: passes with a geometry shader).
        let kind = effect.passes[0].kind();
        assert!(effect.passes.iter().all(|p| p.kind() == kind), "{}: one kind of pass", path.display());
        let compiled = dxbc_wgsl_build::compile::compile(effect, &mut dxbc_wgsl_build::compile::DirectTranslator)
            .unwrap_or_else(|d| panic!("{}", d.first().unwrap()));
        assert!(!compiled.is_mixed(), "{}", path.display());
        let plan = PipelinePlan::new(&compiled);
        assert_eq!(plan.fields_of(kind), compiled.resources, "{}", path.display());
        for other in [PassKind::Render, PassKind::Compute, PassKind::Geometry].into_iter().filter(|&k| k != kind) {
            assert!(plan.fields_of(other).is_empty(), "{}: {other:?} fields", path.display());
        }
        entries_bind_their_fields(&plan, &path.display().to_string());
    }
}

/// A D3D `Texture1D` binding (`ViewDimension::D1AsD2`, a 2D texture of height 1 in WGSL): the
/// generated layout asks for a `D2` view and the resource field's documentation says what the
/// caller creates.
#[test]
fn d3d_1d_textures_generate_2d_views_and_say_so() {
    struct OneD;
    impl dxbc_wgsl_build::compile::Translator for OneD {
        fn translate(
            &mut self,
            shader: &dxbc_wgsl_build::effect::ShaderRef,
            _bytes: &[u8],
        ) -> Result<dxbc_wgsl_build::stage::StageInfo, dxbc_wgsl_build::compile::ShaderError> {
            let mut info = common::fake_info(&shader.label());
            for b in &mut info.bindings {
                if let dxbc_wgsl::ResourceKind::Texture { dimension, .. } = &mut b.kind {
                    *dimension = dxbc_wgsl::ViewDimension::D1AsD2;
                }
            }
            Ok(info)
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let effect = dxbc_wgsl_build::Effect::load(&common::write_tiny(dir.path())).unwrap();
    let compiled = dxbc_wgsl_build::compile::compile(effect, &mut OneD).unwrap();
    let code = dxbc_wgsl_build::generate(&compiled);
    assert!(
        code.contains("view_dimension: wgpu::TextureViewDimension::D2,") && !code.contains("TextureViewDimension::D1"),
        "the layout asks for a 2D view:\n{code}"
    );
    assert!(
        code.contains("a D3D Texture1D: a 2D texture of height 1 with the D3D mip chain"),
        "the field's documentation:\n{code}"
    );
}
