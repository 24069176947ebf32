//! GPU validation (`dxbc_wgsl_gpu::gpu_validate`) on the CI's adapter (lavapipe):
//!
//! - every shipped example effect (`example-engine/effects/*.toml`), every pass × permutation,
//!   and every DirectXTK shader (the corpus folder, and the blobs in example-engine) as a bare
//!   shader: the device accepts all of them;
//! - a deliberately broken pipeline (a layout without a binding the shader uses, a vertex layout
//!   of the wrong format kind) is reported, naming effect, pass, permutation and shaders;
//! - the compute passes of effects, alone (`tests/effects/generate_mips.effect.toml`) and beside a
//!   render pass (`tests/effects/mip_preview.effect.toml`): the device accepts both kinds of
//!   pipeline, and a broken compute pipeline is reported;
//! - the validator's descriptors are the generated code's: for every example effect,
//!   `tests/effects/render_states.effect.toml` and the two effects above, each pass × permutation's
//!   shaders, bind group layout entries, vertex buffer layout and render states (render passes),
//!   or shader and bind group layout entries (compute passes), equal what the generated module's
//!   functions return; for a pass with a geometry shader (`tests/effects/geometry.effect.toml`,
//!   example-engine's `point_sprite.effect.toml`) the four shaders, the three groups' entries, the runtime's `StageDesc` and the draw's states;
//! - passes with a geometry shader: the device accepts the four pipelines the runtime creates (of
//!   that effect and of one made of the corpus's geometry test, when present), and a broken one
//!   (a geometry shader's layout without its constant buffer) is reported, naming the pass.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

use std::path::{Path, PathBuf};
use std::time::Instant;

use dxbc_wgsl_build::compile::{self, CompiledEffect, DirectTranslator};
use dxbc_wgsl_build::Effect;
use dxbc_wgsl_gpu::gpu_validate::{
    effect_pipelines, ComputePipelineDesc, GeometryPipelinesDesc, GpuValidator, PipelineDesc, RenderPipelineDesc,
    Severity,
};
use dxbc_wgsl_tests::gpu::SKIP_GPU_ENV;

dxbc_wgsl_macros::include_effect!("effects/render_states.effect.toml");
dxbc_wgsl_macros::include_effect!("effects/generate_mips.effect.toml");
dxbc_wgsl_macros::include_effect!("effects/mip_preview.effect.toml");
dxbc_wgsl_macros::include_effect!("effects/geometry.effect.toml");

fn root() -> PathBuf {
    std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("..")).unwrap()
}

/// The validator, or `None` when `DXBC_WGSL_SKIP_GPU=1`; a missing adapter fails the test.
fn validator(test: &str) -> Option<GpuValidator> {
    if std::env::var(SKIP_GPU_ENV).is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED {test}: {SKIP_GPU_ENV}=1");
        return None;
    }
    match GpuValidator::new(None) {
        Ok(v) => {
            eprintln!("{test}: adapter {}", v.adapter_summary());
            Some(v)
        }
        Err(e) => panic!("{test}: {e}\n(set {SKIP_GPU_ENV}=1 to skip the GPU tests explicitly on this machine)"),
    }
}

fn compile(path: &Path) -> CompiledEffect {
    let effect = Effect::load(path).unwrap_or_else(|d| panic!("{}: {}", path.display(), d.first().unwrap()));
    compile::compile(effect, &mut DirectTranslator).unwrap_or_else(|d| panic!("{}", d.first().unwrap()))
}

fn example_effects() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("example-engine/effects"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

fn dxbc_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            dxbc_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "dxbc" || e == "cso") {
            out.push(p);
        }
    }
}

#[test]
fn example_effects_and_directxtk_shaders_pass_gpu_validation() {
    let Some(gpu) = validator("example_effects_and_directxtk_shaders_pass_gpu_validation") else { return };
    let mut failures = Vec::new();

    let start = Instant::now();
    let mut variants = 0;
    for path in example_effects() {
        let compiled = compile(&path);
        variants += effect_pipelines(&compiled).len();
        for issue in gpu.validate_effect(&compiled) {
            failures.push(issue.to_string());
        }
    }
    let effects = gpu.stats();
    eprintln!(
        "example effects: {variants} pass × permutation pipelines, {} distinct, {} shader modules, {:.1} ms \
         (validator busy {:.2} ms per pipeline)",
        effects.pipelines,
        effects.modules,
        start.elapsed().as_secs_f64() * 1e3,
        effects.busy.as_secs_f64() * 1e3 / effects.pipelines.max(1) as f64
    );

    let mut folders = vec![root().join("example-engine/shaders/directxtk")];
    match dxbc_wgsl_tests::corpus_dir() {
        Some(c) if c.join("directxtk").is_dir() => folders.push(c.join("directxtk")),
        Some(c) => eprintln!("SKIPPED the corpus's directxtk folder: {} has none", c.display()),
        None => eprintln!("SKIPPED the corpus's directxtk folder: the corpus is absent (set DXBC_WGSL_CORPUS)"),
    }
    for folder in folders {
        let mut files = Vec::new();
        dxbc_files(&folder, &mut files);
        let before = gpu.stats();
        let start = Instant::now();
        let (mut validated, mut refused) = (0, 0);
        for f in &files {
            let bytes = std::fs::read(f).unwrap();
            let t = match dxbc_wgsl::translate(&bytes, &dxbc_wgsl::TranslateOptions::default()) {
                Ok(t) => t,
                Err(dxbc_wgsl::TranslateError::Unsupported(_)) => {
                    refused += 1;
                    continue;
                }
                Err(e) => panic!("{}: {e}", f.display()),
            };
            validated += 1;
            for p in gpu.check_shader(&t) {
                if p.severity == Severity::MissingFeature {
                    eprintln!("{}: {p}", f.display());
                } else {
                    failures.push(format!("{}: {p}", f.display()));
                }
            }
        }
        let after = gpu.stats();
        eprintln!(
            "{}: {validated} shaders validated ({refused} refused by the translator), {} new pipelines, {:.1} ms",
            folder.display(),
            after.pipelines - before.pipelines,
            start.elapsed().as_secs_f64() * 1e3
        );
        assert!(validated > 0, "{}: no shader found", folder.display());
    }
    assert!(failures.is_empty(), "GPU errors:\n{}", failures.join("\n"));
}

/// Breaks a compiled effect in ways only a pipeline shows and checks that each is reported.
#[test]
fn broken_pipelines_are_reported_with_effect_pass_and_permutation() {
    let Some(gpu) = validator("broken_pipelines_are_reported_with_effect_pass_and_permutation") else { return };
    let path = root().join("example-engine/effects/dual_texture.effect.toml");
    let compiled = compile(&path);
    assert!(gpu.validate_effect(&compiled).is_empty());

    // 1. The layout omits a binding the pixel shader uses: drop `t1` from the fog pixel shader's
    // bindings (the WGSL still declares and samples it).
    let mut broken = compiled.clone();
    let ps = broken.shaders.iter().position(|s| s.labels[0] == "DualTextureEffect_PSDualTexture.dxbc").unwrap();
    let before = broken.shaders[ps].info.bindings.len();
    broken.shaders[ps].info.bindings.retain(|b| b.register.to_string() != "t1");
    assert_eq!(broken.shaders[ps].info.bindings.len(), before - 1);
    let issues = gpu.validate_effect(&broken);
    let text: Vec<String> = issues.iter().map(ToString::to_string).collect();
    eprintln!("{}", text.join("\n"));
    // The fog permutations use that pixel shader; the others are fine.
    assert_eq!(issues.len(), 2, "{text:#?}");
    for i in &issues {
        assert_eq!(i.severity, Severity::Error);
        assert_eq!((i.effect.as_str(), i.pass.as_str()), ("DualTextureEffect", "main"));
        assert!(i.permutation.starts_with("fog=true, vertex_color="), "{i}");
        assert!(i.shaders.iter().any(|s| s.label() == "DualTextureEffect_PSDualTexture.dxbc"), "{i}");
        assert!(i.file.ends_with("dual_texture.effect.toml") && i.line > 1, "{i}");
        assert!(i.message.contains("binding"), "{i}");
        let line = i.to_string();
        assert!(line.contains("dual_texture.effect.toml:") && line.contains("pass `main`"), "{line}");
    }

    // 2. A vertex layout whose format kind is wrong: the float SV_Position fed from uint32x3.
    let mut broken = compiled.clone();
    let o = &mut broken.effect.vertex_formats[0];
    assert!(o.semantic.eq_ignore_ascii_case("SV_Position"));
    o.format = dxbc_wgsl_build::vertex::VertexFormat::by_name("uint32x3").unwrap();
    let issues = gpu.validate_effect(&broken);
    let text: Vec<String> = issues.iter().map(ToString::to_string).collect();
    eprintln!("{}", text.join("\n"));
    assert_eq!(issues.len(), 4, "every permutation reads SV_Position: {text:#?}");
    let perms: Vec<&str> = issues.iter().map(|i| i.permutation.as_str()).collect();
    assert_eq!(
        perms,
        [
            "fog=false, vertex_color=false",
            "fog=false, vertex_color=true",
            "fog=true, vertex_color=false",
            "fog=true, vertex_color=true"
        ]
    );
    assert!(issues.iter().all(|i| i.severity == Severity::Error && i.message.contains("Uint32x3")), "{text:#?}");
}

/// The features a module's `enable` directives need: the generated module exposes a pass's
/// WGSL, and the validator's features (from the translations' typed `required_features`) must
/// agree with what that text enables.
fn wgsl_enable_features(wgsl: &str) -> wgpu::Features {
    wgsl.lines().map(str::trim).fold(wgpu::Features::empty(), |f, line| match line {
        "enable clip_distances;" => f | wgpu::Features::CLIP_DISTANCES,
        "enable primitive_index;" => f | wgpu::Features::PRIMITIVE_INDEX,
        _ => f,
    })
}

/// Checks the validator's descriptors of one pass × permutation against the generated module.
macro_rules! check_generated {
    ($fx:path, $desc:expr, $perm:expr $(, $pass:expr)?) => {{
        use $fx as fx;
        let d: &RenderPipelineDesc = $desc;
        let p = fx::Permutation::ALL[$perm];
        let shaders = p.shaders($($pass)?).unwrap();
        assert_eq!((shaders.vertex.wgsl, shaders.vertex.entry_point), (d.vertex.wgsl.as_str(), d.vertex.entry_point.as_str()));
        assert_eq!(
            shaders.pixel.map(|s| (s.wgsl, s.entry_point)),
            d.pixel.as_ref().map(|s| (s.wgsl.as_str(), s.entry_point.as_str()))
        );
        let [g0, g1] = fx::bind_group_layout_entries($($pass,)? p);
        assert_eq!((g0, g1), (d.groups[0].as_slice(), d.groups[1].as_slice()), "bind group layout entries");
        let layout = p.vertex_buffer_layout($($pass)?);
        assert_eq!(
            layout.map(|l| (l.array_stride, l.step_mode, l.attributes.to_vec())),
            d.vertex_buffer.as_ref().map(|b| (b.array_stride, wgpu::VertexStepMode::Vertex, b.attributes.clone())),
            "vertex buffer layout"
        );
        assert_eq!(fx::primitive_state($($pass)?), d.primitive, "primitive state");
        let formats: Vec<wgpu::TextureFormat> = d.color_targets.iter().map(|t| t.as_ref().unwrap().format).collect();
        assert_eq!(fx::color_target_states($($pass,)? &formats), d.color_targets, "color targets");
        if let Some(ds) = &d.depth_stencil {
            assert_eq!(&fx::depth_stencil_state($($pass,)? ds.format), ds, "depth-stencil state");
        }
        assert_eq!(fx::multisample_state($($pass,)? d.multisample.count), d.multisample, "multisample state");
        let wgsl_features = [Some(&d.vertex), d.pixel.as_ref()]
            .into_iter()
            .flatten()
            .fold(wgpu::Features::empty(), |f, s| f | wgsl_enable_features(&s.wgsl));
        assert_eq!(fx::required_features($($pass)?) | wgsl_features, d.features, "features");
    }};
}

/// Checks the validator's descriptors of one compute pass × permutation against the generated
/// module: `$shaders` is the `Permutation` method that gives its shader and `$entries` the function
/// that gives its bind group layout entries (`shaders` and `bind_group_layout_entries` in an
/// effect of compute passes only, `compute_shaders` and `compute_bind_group_layout_entries` beside
/// render passes).
macro_rules! check_generated_compute {
    ($fx:path, $desc:expr, $perm:expr, $shaders:ident, $entries:ident $(, $pass:expr)?) => {{
        use $fx as fx;
        let d: &ComputePipelineDesc = $desc;
        let p = fx::Permutation::ALL[$perm];
        let shaders = p.$shaders($($pass)?).unwrap();
        assert_eq!(
            (shaders.compute.wgsl, shaders.compute.entry_point),
            (d.shader.wgsl.as_str(), d.shader.entry_point.as_str())
        );
        let [group] = fx::$entries($($pass,)? p);
        assert_eq!(group, d.group.as_slice(), "bind group layout entries");
        assert_eq!(wgsl_enable_features(shaders.compute.wgsl), d.features, "features");
    }};
}

/// Checks the validator's descriptors of one pass with a geometry shader × permutation against the
/// generated module: `$stage` is the pass's stage type.
macro_rules! check_generated_geometry {
    ($fx:path, $stage:ident, $desc:expr, $perm:expr $(, $pass:expr)?) => {{
        use $fx as fx;
        let d: &GeometryPipelinesDesc = $desc;
        let p = fx::Permutation::ALL[$perm];
        let s = p.geometry_shaders($($pass)?).unwrap();
        let pair = |s: fx::StageShader| (s.wgsl, s.entry_point);
        fn theirs(s: &dxbc_wgsl_gpu::gpu_validate::ShaderDesc) -> (&str, &str) {
            (s.wgsl.as_str(), s.entry_point.as_str())
        }
        assert_eq!(pair(s.vertex), theirs(&d.vertex), "vertex shader");
        assert_eq!(pair(s.geometry), theirs(&d.geometry), "geometry shader");
        assert_eq!(pair(s.draw_vertex), theirs(&d.draw_vertex), "draw vertex shader");
        assert_eq!(s.pixel.map(pair), d.pixel.as_ref().map(theirs), "pixel shader");
        let groups = fx::geometry_bind_group_layout_entries($($pass,)? p);
        assert_eq!(groups, [d.groups[0].as_slice(), d.groups[1].as_slice(), d.groups[2].as_slice()], "bind group layout entries");
        // The runtime's description, as the stage object made from the generated constants holds it
        // (two copies of the runtime's types: compared by their Debug text).
        let gpu = dxbc_wgsl_tests::gpu::gpu_or_skip("check_generated_geometry");
        if let Some(gpu) = gpu {
            let formats: Vec<wgpu::TextureFormat> = d.color_targets.iter().map(|t| t.as_ref().unwrap().format).collect();
            let stage = fx::$stage::new(&gpu.device, p, &formats, d.depth_stencil.as_ref().map(|ds| ds.format)).unwrap();
            assert_eq!(format!("{:?}", stage.primitive_stage().desc()), format!("{:?}", d.stage), "stage description");
        }
        assert_eq!(fx::$stage::primitive_state(), d.primitive, "primitive state");
        let formats: Vec<wgpu::TextureFormat> = d.color_targets.iter().map(|t| t.as_ref().unwrap().format).collect();
        assert_eq!(fx::$stage::color_target_states(&formats), d.color_targets, "color targets");
        if let Some(ds) = &d.depth_stencil {
            assert_eq!(&fx::$stage::depth_stencil_state(ds.format), ds, "depth-stencil state");
        }
        assert_eq!(fx::$stage::multisample_state(d.multisample.count), d.multisample, "multisample state");
        assert!(fx::$stage::required_features().contains(d.features), "features");
    }};
}

/// Checks every pass × permutation of an example effect against its generated module.
macro_rules! check_example {
    ($file:literal, $fx:ident) => {{
        let pipelines = effect_pipelines(&compile(&root().join("example-engine/effects").join($file)));
        assert_eq!(pipelines.len(), example_engine::effects::$fx::Permutation::COUNT, "{}", $file);
        for p in &pipelines {
            let desc = p.desc.as_render().expect("the example effects have render passes only");
            check_generated!(example_engine::effects::$fx, desc, p.permutation);
        }
        pipelines.len()
    }};
}

#[test]
fn validator_descriptors_equal_the_generated_code() {
    let checked = [
        check_example!("basic.effect.toml", basic_effect),
        check_example!("dual_texture.effect.toml", dual_texture_effect),
        check_example!("alpha_test.effect.toml", alpha_test_effect),
        check_example!("debug.effect.toml", debug_effect),
        check_example!("environment_map.effect.toml", environment_map_effect),
        check_example!("normal_map.effect.toml", normal_map_effect),
        check_example!("skinned.effect.toml", skinned_effect),
        check_example!("sprite.effect.toml", sprite_effect),
        check_example!("post_process.effect.toml", basic_post_process),
        check_example!("dual_post_process.effect.toml", dual_post_process),
        check_example!("tone_map.effect.toml", tone_map),
    ];
    eprintln!("{} example-effect pipelines equal the generated code's", checked.iter().sum::<usize>());
    let states = effect_pipelines(&compile(&root().join("tests/effects/render_states.effect.toml")));
    assert_eq!(states.len(), render_states::Pass::ALL.len());
    for p in &states {
        let desc = p.desc.as_render().expect("render passes");
        check_generated!(render_states, desc, p.permutation, render_states::Pass::ALL[p.pass]);
    }
    // The states effect's passes differ in depth-stencil state, so the validator attaches depth.
    assert!(states.iter().filter_map(|p| p.desc.as_render()).filter(|d| d.depth_stencil.is_some()).count() >= 3);

    // Compute passes: an effect of one compute pass, and one with a compute pass (`generate`,
    // declared first) and a render pass (`draw`).
    let mips = effect_pipelines(&compile(&root().join("tests/effects/generate_mips.effect.toml")));
    assert_eq!(mips.len(), 1);
    for p in &mips {
        let desc = p.desc.as_compute().expect("a compute pass");
        check_generated_compute!(generate_mips, desc, p.permutation, shaders, bind_group_layout_entries);
    }
    let mixed = effect_pipelines(&compile(&root().join("tests/effects/mip_preview.effect.toml")));
    let (mut render, mut compute) = (0, 0);
    for p in &mixed {
        match &p.desc {
            PipelineDesc::Render(d) => {
                assert_eq!(p.pass, 1, "pass `draw`");
                render += 1;
                check_generated!(mip_preview, d, p.permutation);
            }
            PipelineDesc::Compute(d) => {
                assert_eq!(p.pass, 0, "pass `generate`");
                compute += 1;
                check_generated_compute!(
                    mip_preview,
                    d,
                    p.permutation,
                    compute_shaders,
                    compute_bind_group_layout_entries
                );
            }
            PipelineDesc::Geometry(_) => panic!("mip_preview has no pass with a geometry shader"),
        }
    }
    assert_eq!((compute, render), (mip_preview::Permutation::COUNT, mip_preview::Permutation::COUNT));

    // A pass with a geometry shader.
    let geometry = effect_pipelines(&compile(&root().join("tests/effects/geometry.effect.toml")));
    assert_eq!(geometry.len(), geometry_expand::Permutation::COUNT);
    for p in &geometry {
        let desc = p.desc.as_geometry().expect("a pass with a geometry shader");
        check_generated_geometry!(geometry_expand, MainStage, desc, p.permutation);
    }
    // The example's pass with a geometry shader (DirectXTK's BasicEffect shaders around the
    // project's own point-sprite geometry shader).
    let sprites = effect_pipelines(&compile(&root().join("example-engine/effects/point_sprite.effect.toml")));
    assert_eq!(sprites.len(), example_engine::effects::point_sprite_effect::Permutation::COUNT);
    for p in &sprites {
        let desc = p.desc.as_geometry().expect("a pass with a geometry shader");
        check_generated_geometry!(example_engine::effects::point_sprite_effect, MainStage, desc, p.permutation);
    }
}

/// Passes with a geometry shader are validated through the runtime that draws them: the device
/// accepts the four pipelines of the test effect (and of the corpus's geometry test, when the
/// corpus is present), and a geometry shader whose layout lacks its constant buffer is reported.
#[test]
fn geometry_passes_pass_gpu_validation() {
    let Some(gpu) = validator("geometry_passes_pass_gpu_validation") else { return };
    let compiled = compile(&root().join("tests/effects/geometry.effect.toml"));
    let issues: Vec<String> = gpu.validate_effect(&compiled).iter().map(ToString::to_string).collect();
    assert!(issues.is_empty(), "GPU errors:\n{}", issues.join("\n"));
    assert!(gpu.stats().pipelines > 0);

    match dxbc_wgsl_tests::corpus_dir() {
        Some(corpus) if corpus.join("vkd3d-shader-tests/geometry").is_dir() => {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("corpus_geometry.effect.toml");
            let text = format!(
                "[effect]\nname = \"CorpusGeometry\"\nshader_dir = {:?}\n\n[passes.main]\nvertex = \"L0012_vs_4_0.dxbc\"\n\
                 geometry = \"L0025_gs_4_0.dxbc\"\npixel = \"L0050_ps_4_0.dxbc\"\ntopology = \"POINTLIST\"\n",
                corpus.join("vkd3d-shader-tests/geometry").display().to_string()
            );
            std::fs::write(&path, text).unwrap();
            let corpus_fx = compile(&path);
            let issues: Vec<String> = gpu.validate_effect(&corpus_fx).iter().map(ToString::to_string).collect();
            assert!(issues.is_empty(), "GPU errors:\n{}", issues.join("\n"));
        }
        _ => eprintln!("SKIPPED the corpus's geometry test: the corpus is absent (set DXBC_WGSL_CORPUS)"),
    }

    // The geometry shader's layout without `b0` (its WGSL still reads the constant buffer).
    let mut broken = compiled.clone();
    let gs = broken.shaders.iter().position(|s| s.labels[0] == "Expand_GS.dxbc").unwrap();
    broken.shaders[gs].info.bindings.clear();
    let issues = gpu.validate_effect(&broken);
    let text: Vec<String> = issues.iter().map(ToString::to_string).collect();
    eprintln!("{}", text.join("\n"));
    assert!(!issues.is_empty(), "the broken layout was accepted");
    for i in &issues {
        assert_eq!(i.severity, Severity::Error, "{i}");
        assert_eq!((i.effect.as_str(), i.pass.as_str()), ("GeometryExpand", "main"), "{i}");
        let labels: Vec<String> = i.shaders.iter().map(|s| s.label()).collect();
        assert_eq!(labels, ["Expand_VS.dxbc", "Expand_GS.dxbc", "Expand_PS.dxbc"], "{i}");
        assert!(i.file.ends_with("geometry.effect.toml") && i.line > 1, "{i}");
    }
}

/// Passes with stream output are validated through both runtimes: the device accepts the
/// primitive stage kept for every stream and the stream-output kernels of each declaration of
/// `tests/effects/stream_output.effect.toml` (a geometry shader's strips, one's points on four
/// streams, a vertex shader's pass-through), and a declaration reading a register the
/// geometry module does not keep is reported, naming the pass.
#[test]
fn stream_output_passes_pass_gpu_validation() {
    let Some(gpu) = validator("stream_output_passes_pass_gpu_validation") else { return };
    let compiled = compile(&root().join("tests/effects/stream_output.effect.toml"));
    let pipelines = effect_pipelines(&compiled);
    let streamed = pipelines.iter().filter_map(|p| p.desc.as_geometry()).filter(|g| g.stream_output.is_some()).count();
    assert_eq!(streamed, 3, "every pass of the effect streams out");
    let issues: Vec<String> = gpu.validate_effect(&compiled).iter().map(ToString::to_string).collect();
    assert!(issues.is_empty(), "GPU errors:\n{}", issues.join("\n"));

    // Pass `points`' declaration reading o9, which its geometry module's 2 output registers lack.
    let mut broken = compiled.clone();
    let points = broken.effect.passes.iter().position(|p| p.name == "points").unwrap();
    let so = broken.passes[points][0].geometry.and_then(|g| g.stream_output).unwrap();
    broken.stream_outputs[so].entries[0].register = Some(9);
    let issues = gpu.validate_effect(&broken);
    let text: Vec<String> = issues.iter().map(ToString::to_string).collect();
    assert_eq!(issues.len(), 1, "{}", text.join("\n"));
    assert_eq!(issues[0].pass, "points", "{}", text[0]);
    assert!(text[0].contains("stream output") && text[0].contains("o9"), "{}", text[0]);
}

/// The compute passes of effects are validated like their render passes: every pipeline of an
/// effect of compute passes and of an effect with both kinds is accepted, and a compute pipeline
/// whose layout lacks a binding its shader uses is reported, naming the compute pass.
#[test]
fn compute_and_mixed_effects_pass_gpu_validation() {
    let Some(gpu) = validator("compute_and_mixed_effects_pass_gpu_validation") else { return };
    for file in ["generate_mips.effect.toml", "mip_preview.effect.toml"] {
        let compiled = compile(&root().join("tests/effects").join(file));
        let pipelines = effect_pipelines(&compiled);
        let computes = pipelines.iter().filter(|p| p.desc.as_compute().is_some()).count();
        let before = gpu.stats();
        let issues: Vec<String> = gpu.validate_effect(&compiled).iter().map(ToString::to_string).collect();
        let created = gpu.stats().pipelines - before.pipelines;
        eprintln!(
            "{file}: {} pass × permutation pipelines ({computes} compute), {created} distinct created",
            pipelines.len()
        );
        assert!(issues.is_empty(), "{file}: GPU errors:\n{}", issues.join("\n"));
        assert!(computes > 0 && created > 0, "{file}: nothing was validated");
    }

    // The compute shader's layout without `u0` (its WGSL still writes the storage texture).
    let compiled = compile(&root().join("tests/effects/mip_preview.effect.toml"));
    let mut broken = compiled.clone();
    let cs = broken.shaders.iter().position(|s| s.labels[0] == "GenerateMips_main.dxbc").unwrap();
    let before = broken.shaders[cs].info.bindings.len();
    broken.shaders[cs].info.bindings.retain(|b| b.register.to_string() != "u0");
    assert_eq!(broken.shaders[cs].info.bindings.len(), before - 1);
    let issues = gpu.validate_effect(&broken);
    let text: Vec<String> = issues.iter().map(ToString::to_string).collect();
    eprintln!("{}", text.join("\n"));
    assert_eq!(issues.len(), mip_preview::Permutation::COUNT, "one per permutation of the compute pass: {text:#?}");
    for i in &issues {
        assert_eq!(i.severity, Severity::Error, "{i}");
        assert_eq!((i.effect.as_str(), i.pass.as_str()), ("MipPreview", "generate"), "{i}");
        assert_eq!(i.shaders.iter().map(|s| s.label()).collect::<Vec<_>>(), ["GenerateMips_main.dxbc"], "{i}");
        assert!(i.file.ends_with("mip_preview.effect.toml") && i.line > 1, "{i}");
    }
}
