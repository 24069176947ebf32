//! Golden test of the generated render-state code: a two-pass effect whose passes declare blend,
//! depth-stencil, rasterizer and topology states. Kept as `tests/fixtures/states.rs`, compiled and
//! checked value by value by `tests/generated_compiles.rs`. `UPDATE_GOLDEN=1` rewrites it.

mod common;

use std::path::Path;

pub const STATES_EFFECT: &str = r#"
[effect]
name = "States"

[blend_states.AlphaBlend]
blend_enable = true
src_blend = "SRC_ALPHA"
dest_blend = "INV_SRC_ALPHA"
src_blend_alpha = "ONE"
dest_blend_alpha = "INV_SRC_ALPHA"

[rasterizer_states.CullNone]
cull_mode = "NONE"

[passes.main]
vertex = "Bare_VS.dxbc"
pixel = "Bare_PS.dxbc"
blend = "AlphaBlend"
rasterizer = "CullNone"
depth_stencil = { depth_write_mask = "ZERO", depth_func = "LESS_EQUAL" }

[passes.outline]
vertex = "Bare_VS.dxbc"
pixel = "Bare_PS.dxbc"
topology = "D3D11_PRIMITIVE_TOPOLOGY_LINESTRIP"

[passes.outline.blend]
independent_blend = true
render_target = [
    { blend_enable = true, src_blend = "BLEND_FACTOR", dest_blend = "ONE", blend_op_alpha = "MIN" },
    { render_target_write_mask = "RED|GREEN" },
]

[passes.outline.depth_stencil]
depth_enable = false
stencil_enable = true
stencil_read_mask = 0x0F
front_face = { pass = "REPLACE", func = "EQUAL" }

[passes.outline.rasterizer]
front_counter_clockwise = true
depth_clip_enable = false
scissor_enable = true

[passes.decal]
vertex = "Bare_VS.dxbc"
pixel = "Bare_PS.dxbc"
rasterizer = { depth_bias = -2, slope_scaled_depth_bias = 1.5, depth_bias_clamp = 0.25 }
"#;

#[test]
fn states_golden() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["Bare_VS.dxbc", "Bare_PS.dxbc"] {
        std::fs::write(dir.path().join(f), format!("DXBC stand-in for {f}")).unwrap();
    }
    let path = dir.path().join("states.effect.toml");
    std::fs::write(&path, STATES_EFFECT).unwrap();
    let effect = dxbc_wgsl_build::Effect::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let compiled = dxbc_wgsl_build::compile::compile(effect, &mut common::FakeTranslator::default()).unwrap();
    let code = dxbc_wgsl_build::generate(&compiled);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/states.rs");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&fixture, &code).unwrap();
    }
    let kept = std::fs::read_to_string(&fixture).unwrap_or_default();
    assert!(kept == code, "generated code differs from tests/fixtures/states.rs (UPDATE_GOLDEN=1 updates it)");
    // Each pass's states are documented where they are used.
    for doc in [
        "/// - pass `main`: blend state `AlphaBlend`: every render target: colour src * SRC_ALPHA ADD dest * \
         INV_SRC_ALPHA, alpha src * ONE ADD dest * INV_SRC_ALPHA, write mask ALL.",
        "/// - pass `outline`: render target 0: colour src * BLEND_FACTOR ADD dest * ONE, alpha MIN(src, dest), write \
         mask ALL;",
        "render target 1: no blending, write mask RED|GREEN; render targets 2-7: no blending, write mask ALL; \
         BLEND_FACTOR is the blend constant: set it with `RenderPass::set_blend_constant`",
        "/// - pass `outline`: topology LINESTRIP (indexed draws: set `strip_index_format` to the index format), \
         cull BACK, counter-clockwise front faces (front_counter_clockwise = true: `Ccw`), fill SOLID; depth \
         clipping off (`unclipped_depth`: needs `wgpu::Features::DEPTH_CLIP_CONTROL`); scissor test on",
        "/// - pass `main`: depth test LESS_EQUAL, depth writes off (ZERO); stencil test off; no depth bias.",
        "/// - pass `outline`: depth test and depth writes off (depth_enable = false); stencil test on, read mask \
         0x0F, write mask 0xFF; front faces: func EQUAL, fail KEEP, depth_fail KEEP, pass REPLACE; back faces: \
         func ALWAYS, fail KEEP, depth_fail KEEP, pass KEEP; no depth bias.",
        "/// - pass `decal`: depth test LESS, depth writes on (ALL); stencil test off; depth bias -2 (units of the \
         format's minimum resolvable difference), slope scale 1.5, clamp 0.25.",
    ] {
        assert!(code.contains(doc), "the generated docs lack `{doc}`");
    }
}
