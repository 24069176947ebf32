//! Golden WGSL: the translation of a representative set of shaders, reviewed and kept as insta
//! snapshots in `tests/snapshots/` (they document what the translator emits; a change shows up as
//! a diff to review with `cargo insta review`).
//!
//! The set: DirectXTK vertex and pixel shaders (in the repository), a loop, switches (one without
//! `default`), a conditional return inside a loop, integer operations (udiv, bfi, ubfe, ishr,
//! firstbit/countbits), `ld` with a texel offset, gather with an offset, gather-compare, a
//! structured buffer, an immediate constant buffer, an indexable temp, `sample_c`, `discard`,
//! `ld_ms`, input relative addressing, a mixed-type varying, clip distances, the primitive index,
//! double-precision instructions, a compute shader with structured thread-group shared memory
//! (atomics, barriers, thread IDs), and both sides of the uniformity rule: a shader whose derivative
//! sits in non-uniform
//! control flow gets `diagnostic(off, derivative_uniformity)`, one with derivatives only in
//! uniform control flow does not (asserted below, and checked with Tint when it is installed).
//!
//! Shaders from the corpus skip with a message when it is absent.

use std::path::{Path, PathBuf};

use dxbc_wgsl::{translate, TranslateOptions, Translation};

const DIAGNOSTIC: &str = "diagnostic(off, derivative_uniformity);";

/// Where a golden's blob lives.
enum Src {
    /// Relative to the workspace root (always present).
    Repo(&'static str),
    /// Relative to the corpus root.
    Corpus(&'static str),
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The blob's bytes and a label, or `None` (with a printed message) when the corpus is absent.
fn load(name: &str, src: &Src) -> Option<(Vec<u8>, String)> {
    let (path, label) = match src {
        Src::Repo(p) => (workspace().join(p), (*p).to_string()),
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

fn golden(name: &str, src: Src) {
    let Some((bytes, label)) = load(name, &src) else { return };
    let t = translate(&bytes, &TranslateOptions::default()).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(
        t.wgsl.contains(DIAGNOSTIC),
        t.derivative_uniformity_off,
        "{label}: the diagnostic directive and `derivative_uniformity_off` disagree"
    );
    insta::with_settings!({
        snapshot_path => "../snapshots",
        description => label,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, t.wgsl);
    });
}

macro_rules! goldens {
    ($($name:ident: $src:expr;)*) => {
        $(
            #[test]
            fn $name() {
                golden(stringify!($name), $src);
            }
        )*
    };
}

goldens! {
    // DirectXTK (in the repository): a lit vertex shader, per-pixel lighting with a texture, two
    // textures, a texture sampled in uniform flow.
    directxtk_vs_vertex_lighting_tx: Src::Repo("example-engine/shaders/directxtk/BasicEffect/BasicEffect_VSBasicVertexLightingTx.dxbc");
    directxtk_ps_pixel_lighting_tx: Src::Repo("example-engine/shaders/directxtk/BasicEffect/BasicEffect_PSBasicPixelLightingTx.dxbc");
    directxtk_ps_dual_texture: Src::Repo("example-engine/shaders/directxtk/DualTextureEffect/DualTextureEffect_PSDualTexture.dxbc");
    directxtk_ps_basic_tx: Src::Repo("example-engine/shaders/directxtk/BasicEffect/BasicEffect_PSBasicTx.dxbc");
    // A sample inside a loop: needs the diagnostic. Derivatives in uniform flow: must not get it.
    directxtk_ps_downscale_loop_sample: Src::Repo("tests/fixtures/directxtk/PostProcess_PSDownScale2x2.dxbc");
    directxtk_ps_uniform_derivatives: Src::Repo("tests/fixtures/directxtk/DebugEffect_PSRGBTangents.dxbc");
    // Control flow.
    loop_conditional_return: Src::Corpus("vkd3d/d3d12/test_shader_instructions__ps_retc_nz_code.dxbc");
    switch_cases: Src::Corpus("vkd3d-shader-tests/switch/L0001_ps_5_0.dxbc");
    switch_without_default: Src::Corpus("vkd3d/d3d12/test_shader_instructions__ps_switch_no_default_code.dxbc");
    discard_conditional: Src::Corpus("wine/d3d11/test_sm4_discard_instruction__ps_discard_z_code.dxbc");
    // Integer operations.
    int_udiv: Src::Corpus("vkd3d/d3d12/test_shader_instructions__ps_udiv_code.dxbc");
    int_bfi: Src::Corpus("wine/d3d11/test_uint_shader_instructions__ps_bfi_code.dxbc");
    int_ubfe: Src::Corpus("wine/d3d11/test_uint_shader_instructions__ps_ubfe2_code.dxbc");
    int_ishr: Src::Corpus("vkd3d/d3d12/test_shader_instructions__ps_ishr_code.dxbc");
    int_bits_vector: Src::Corpus("vkd3d/d3d12/test_shader_instructions__ps_bits_vector_code.dxbc");
    // Resources.
    ld_texel_offset: Src::Corpus("vkd3d-shader-tests/swizzle-constant-prop/L0050_ps_5_0.dxbc");
    gather_offset: Src::Corpus("vkd3d-shader-tests/gather-offset/L0016_ps_5_0.dxbc");
    gather_compare: Src::Corpus("vkd3d-shader-tests/gather-cmp/L0016_ps_5_0.dxbc");
    sample_compare: Src::Corpus("wine/d3d11/test_depth_stencil_sampling__ps_compare_code.dxbc");
    structured_buffer: Src::Corpus("wine/d3d11/test_buffer_srv__ps_structured_code.dxbc");
    immediate_constant_buffer: Src::Corpus("wine/d3d11/test_immediate_constant_buffer__ps_code.dxbc");
    indexable_temp: Src::Corpus("vkd3d/d3d12/test_shader_instructions__ps_indexable_temp_code.dxbc");
    ld_multisampled: Src::Corpus("hbaoplus/CopyDepth_PS/g_CopyDepth_PS_RESOLVE_DEPTH_1_DEPTH_LAYER_COUNT_1_D3D11.dxbc");
    // Interfaces: relative addressing of inputs (dcl_indexrange), a varying packing a float and
    // a uint (flat raw bits), SV_ClipDistance, SV_PrimitiveID.
    input_index_range: Src::Corpus("vkd3d/d3d12/test_vs_ps_relative_addressing__vs_code.dxbc");
    mixed_type_varying_ps: Src::Corpus("vkd3d-shader-tests/shader-interstage-interface/L0042_ps_4_0.dxbc");
    clip_distance_vs: Src::Corpus("wine/d3d11/test_clip_distance__vs_code.dxbc");
    primitive_id_ps: Src::Corpus("vkd3d-shader-tests/primitive-id/L0054_ps_4_0.dxbc");
    // Derivative in uniform flow (explicit coarse ddy), from the corpus.
    ddy_coarse_uniform: Src::Corpus("wine/d3d11/test_ddy__ps_code_ddy_coarse.dxbc");
    // Doubles (`dmov_sat`, `dadd` with a 64-bit immediate, `|x|`): the helpers it calls and no others.
    double_modifiers: Src::Corpus("vkd3d/d3d12/test_shader_instructions__ps_dmodifier_code.dxbc");
    // Compute: structured thread-group shared memory filled by thread 0, `sync_g_t`, an atomic add
    // from every thread, a loop summing it, `imm_atomic_exch` on a raw UAV; thread IDs.
    compute_structured_tgsm: Src::Corpus("wine/d3d11/test_tgsm__structured_tgsm_code.dxbc");
}

/// The uniformity rule, both sides: the directive where a derivative sits in non-uniform control
/// flow, and only there.
#[test]
fn derivative_uniformity_directive_only_where_needed() {
    let needs = [("loop sample", Src::Repo("tests/fixtures/directxtk/PostProcess_PSDownScale2x2.dxbc"))];
    let uniform = [
        ("uniform ddx/ddy", Src::Repo("tests/fixtures/directxtk/DebugEffect_PSRGBTangents.dxbc")),
        ("uniform sample", Src::Repo("example-engine/shaders/directxtk/BasicEffect/BasicEffect_PSBasicTx.dxbc")),
        ("uniform ddy_coarse", Src::Corpus("wine/d3d11/test_ddy__ps_code_ddy_coarse.dxbc")),
    ];
    for (name, src) in &needs {
        let t = translated(name, src).expect("in the repository");
        assert!(t.derivative_uniformity_off, "{name}: the flag is not set");
        assert!(t.wgsl.contains(DIAGNOSTIC), "{name}: no directive:\n{}", t.wgsl);
    }
    for (name, src) in &uniform {
        let Some(t) = translated(name, src) else { continue };
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
    let needs = translated("loop sample", &Src::Repo("tests/fixtures/directxtk/PostProcess_PSDownScale2x2.dxbc"))
        .expect("in the repository")
        .wgsl;
    let stripped: String = needs.lines().filter(|l| !l.contains(DIAGNOSTIC)).map(|l| format!("{l}\n")).collect();
    assert_ne!(stripped, needs);
    let uniform_ddx = translated("uniform ddx", &Src::Repo("tests/fixtures/directxtk/DebugEffect_PSRGBTangents.dxbc"))
        .expect("in the repository")
        .wgsl;
    let uniform_sample = translated(
        "uniform sample",
        &Src::Repo("example-engine/shaders/directxtk/BasicEffect/BasicEffect_PSBasicTx.dxbc"),
    )
    .expect("in the repository")
    .wgsl;
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
