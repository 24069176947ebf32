//! Render states in effect files (`[passes.NAME.blend]`, `.depth_stencil`, `.rasterizer`,
//! `topology`, and the shared `[blend_states.NAME]`...): the model the parser builds from good
//! files, and the errors (at file:line:column) for bad names and for states WebGPU lacks.

use std::path::Path;

use dxbc_wgsl_build::effect::states::{
    Blend, BlendOp, Comparison, CullMode, DepthStencilDesc, PassStates, RasterizerDesc, RenderTargetBlend, StencilOp,
    Topology,
};
use dxbc_wgsl_build::Effect;

const HEAD: &str = "[effect]\nname = \"E\"\n";
const SHADERS: &str = "vertex = \"VS.dxbc\"\npixel = \"PS.dxbc\"\n";

fn parse(text: &str) -> Effect {
    Effect::parse(Path::new("fx/e.effect.toml"), text.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

/// 1-based line and column of the `nth` occurrence of `needle`.
fn pos(text: &str, needle: &str, nth: usize) -> (usize, usize) {
    let at = text.match_indices(needle).nth(nth).unwrap_or_else(|| panic!("`{needle}` not in text")).0;
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |p| p + 1) + 1;
    (line, col)
}

/// Expects `text` to be refused at the `nth` occurrence of `needle`, with `message` in the text.
#[track_caller]
fn expect_at(text: &str, needle: &str, nth: usize, message: &str) {
    let err = Effect::parse(Path::new("fx/e.effect.toml"), text.to_string()).expect_err("the file should be rejected");
    let d = err.first().unwrap();
    assert_eq!((d.line, d.column), pos(text, needle, nth), "{d}");
    assert!(d.message.contains(message), "message `{}` lacks `{message}`", d.message);
    assert!(d.to_string().starts_with(&format!("fx/e.effect.toml:{}:{}: ", d.line, d.column)), "{d}");
}

/// A one-pass effect whose pass table ends with `pass_tail` (keys, then sub-tables).
fn pass(pass_tail: &str) -> String {
    format!("{HEAD}[passes.main]\n{SHADERS}{pass_tail}")
}

#[test]
fn defaults_are_d3d11s() {
    let e = parse(&pass(""));
    let s = &e.passes[0].states;
    assert_eq!(*s, PassStates::default());
    assert_eq!(s.topology, Topology::TriangleList);
    // CD3D11_DEFAULT.
    let rt = s.blend.render_targets[0];
    assert!(!rt.blend_enable && !s.blend.alpha_to_coverage && !s.blend.independent_blend);
    assert_eq!((rt.src_blend, rt.dest_blend, rt.blend_op), (Blend::One, Blend::Zero, BlendOp::Add));
    assert_eq!(rt.write_mask, 0xF);
    let d = &s.depth_stencil;
    assert!(d.depth_enable && d.depth_write && !d.stencil_enable);
    assert_eq!((d.depth_func, d.stencil_read_mask, d.stencil_write_mask), (Comparison::Less, 0xFF, 0xFF));
    assert_eq!(d.front_face.func, Comparison::Always);
    let r = &s.rasterizer;
    assert_eq!(r.cull_mode, CullMode::Back);
    assert!(!r.front_counter_clockwise && r.depth_clip_enable && !r.scissor_enable);
    assert_eq!(s.wgpu_primitive().matches("wgpu::FrontFace::Cw").count(), 1);
    assert!(s.wgpu_primitive().contains("cull_mode: Some(wgpu::Face::Back)"));
}

#[test]
fn shared_and_inline_states_with_d3d_names_in_any_spelling() {
    let e = parse(&format!(
        r#"{HEAD}
[blend_states.AlphaBlend]
blend_enable = true
src_blend = "D3D11_BLEND_SRC_ALPHA"
dest_blend = "inv_src_alpha"
src_blend_alpha = "ONE"
dest_blend_alpha = "Inv_Src_Alpha"

[depth_stencil_states.DepthRead]
depth_write_mask = "D3D11_DEPTH_WRITE_MASK_ZERO"
depth_func = "less_equal"

[rasterizer_states.CullNone]
cull_mode = "D3D11_CULL_NONE"
multisample_enable = true

[passes.main]
{SHADERS}topology = "D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP"
blend = "AlphaBlend"
depth_stencil = "DepthRead"
rasterizer = "CullNone"

[passes.shadow]
{SHADERS}topology = "linelist"
rasterizer = {{ front_counter_clockwise = true, depth_clip_enable = false, scissor_enable = true }}

[passes.shadow.blend]
independent_blend = true
alpha_to_coverage = true
render_target = [
    {{ blend_enable = true, blend_op = "D3D11_BLEND_OP_MAX", src_blend = "BLEND_FACTOR", dest_blend = "D3D11_BLEND_BLEND_FACTOR" }},
    {{ render_target_write_mask = "RED|D3D11_COLOR_WRITE_ENABLE_ALPHA" }},
    {{ render_target_write_mask = 6, blend_enable = true, src_blend = "SRC_ALPHA_SAT", blend_op = "REV_SUBTRACT", logic_op = "NOOP", logic_op_enable = false }},
]

[passes.shadow.depth_stencil]
depth_enable = false
stencil_enable = true
stencil_read_mask = 0x0F
stencil_write_mask = 240
front_face = {{ fail = "INCR_SAT", depth_fail = "D3D11_STENCIL_OP_DECR", pass = "replace", func = "D3D11_COMPARISON_NOT_EQUAL" }}
back_face = {{ func = "never" }}
"#
    ));
    let main = &e.passes[0].states;
    assert_eq!(main.topology, Topology::TriangleStrip);
    assert_eq!(main.names, [Some("AlphaBlend".into()), Some("DepthRead".into()), Some("CullNone".into())]);
    let alpha = RenderTargetBlend {
        blend_enable: true,
        src_blend: Blend::SrcAlpha,
        dest_blend: Blend::InvSrcAlpha,
        dest_blend_alpha: Blend::InvSrcAlpha,
        ..Default::default()
    };
    // Without independent blending, every target has render target 0's state.
    assert_eq!(main.blend.render_targets, [alpha; 8]);
    assert_eq!(
        alpha.wgpu_blend(),
        "Some(wgpu::BlendState { color: wgpu::BlendComponent { src_factor: wgpu::BlendFactor::SrcAlpha, dst_factor: \
         wgpu::BlendFactor::OneMinusSrcAlpha, operation: wgpu::BlendOperation::Add }, alpha: wgpu::BlendComponent { \
         src_factor: wgpu::BlendFactor::One, dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha, operation: \
         wgpu::BlendOperation::Add } })"
    );
    assert_eq!(
        main.depth_stencil,
        DepthStencilDesc { depth_write: false, depth_func: Comparison::LessEqual, ..Default::default() }
    );
    assert_eq!(
        main.rasterizer,
        RasterizerDesc { cull_mode: CullMode::None, multisample_enable: true, ..Default::default() }
    );
    assert!(main.wgpu_primitive().contains("cull_mode: None"));

    let shadow = &e.passes[1].states;
    assert_eq!(shadow.topology, Topology::LineList);
    assert_eq!(shadow.names, [None, None, None]);
    let r = &shadow.rasterizer;
    assert!(r.front_counter_clockwise && !r.depth_clip_enable && r.scissor_enable);
    assert!(shadow.wgpu_primitive().contains("wgpu::FrontFace::Ccw"));
    assert!(shadow.wgpu_primitive().contains("unclipped_depth: true"));
    assert_eq!(shadow.wgpu_features(), "wgpu::Features::DEPTH_CLIP_CONTROL");
    let b = &shadow.blend;
    assert!(b.independent_blend && b.alpha_to_coverage);
    assert_eq!(b.render_targets[0].blend_op, BlendOp::Max);
    assert_eq!(b.render_targets[0].src_blend, Blend::BlendFactor);
    // MAX ignores the factors in D3D; WebGPU wants them One.
    assert!(b.render_targets[0].wgpu_blend().starts_with(
        "Some(wgpu::BlendState { color: wgpu::BlendComponent { src_factor: wgpu::BlendFactor::One, dst_factor: \
         wgpu::BlendFactor::One, operation: wgpu::BlendOperation::Max }"
    ));
    // MAX reads no factor, so not the blend constant either.
    assert!(!b.render_targets[0].uses_constant());
    let constant =
        RenderTargetBlend { blend_enable: true, dest_blend_alpha: Blend::InvBlendFactor, ..Default::default() };
    assert!(constant.uses_constant());
    assert_eq!(b.render_targets[1].write_mask, 0b1001);
    assert_eq!(b.render_targets[1].wgpu_write_mask(), "wgpu::ColorWrites::RED.union(wgpu::ColorWrites::ALPHA)");
    assert_eq!(b.render_targets[1].wgpu_blend(), "None");
    assert_eq!(b.render_targets[2].write_mask, 6);
    assert_eq!(b.render_targets[2].src_blend, Blend::SrcAlphaSat);
    assert_eq!(b.render_targets[2].blend_op, BlendOp::RevSubtract);
    assert_eq!(b.render_targets[3], RenderTargetBlend::default());
    let d = &shadow.depth_stencil;
    assert!(!d.depth_enable && d.stencil_enable);
    assert_eq!(d.wgpu_depth_compare(), "wgpu::CompareFunction::Always");
    assert!(!d.wgpu_depth_write());
    assert_eq!((d.stencil_read_mask, d.stencil_write_mask), (0x0F, 0xF0));
    assert_eq!(
        (d.front_face.fail, d.front_face.depth_fail, d.front_face.pass, d.front_face.func),
        (StencilOp::IncrSat, StencilOp::Decr, StencilOp::Replace, Comparison::NotEqual)
    );
    assert_eq!(d.back_face.func, Comparison::Never);
    assert_eq!(d.back_face.pass, StencilOp::Keep);
    assert!(d.uses_reference());
}

#[test]
fn depth_bias_values() {
    let e = parse(&pass(
        "[passes.main.rasterizer]\ndepth_bias = -100\nslope_scaled_depth_bias = 1.5\ndepth_bias_clamp = 0.01\n",
    ));
    let r = &e.passes[0].states.rasterizer;
    assert_eq!((r.depth_bias, r.slope_scaled_depth_bias, r.depth_bias_clamp), (-100, 1.5, 0.01));
    assert_eq!(r.wgpu_bias(), "wgpu::DepthBiasState { constant: -100, slope_scale: 1.5, clamp: 0.01 }");
    // Integers are accepted for the float keys; zero bias with a line topology is fine.
    let e = parse(&pass("topology = \"LINESTRIP\"\nrasterizer = { slope_scaled_depth_bias = 0, depth_bias = 0 }\n"));
    assert_eq!(e.passes[0].states.rasterizer.slope_scaled_depth_bias, 0.0);
}

#[test]
fn bad_names() {
    let text = pass("[passes.main.blend]\nblend_enable = true\nsrc_blend = \"SRC_ALPH\"\n");
    expect_at(&text, "\"SRC_ALPH\"", 0, "`src_blend`: `SRC_ALPH` is not a D3D11_BLEND_* value (expected one of: ZERO");
    let text = pass("[passes.main.depth_stencil]\ndepth_func = \"LESSEQUAL\"\n");
    expect_at(&text, "\"LESSEQUAL\"", 0, "is not a D3D11_COMPARISON_* value");
    let text = pass("[passes.main.depth_stencil]\ndepth_write_mask = \"SOME\"\n");
    expect_at(&text, "\"SOME\"", 0, "expected one of: ALL, ZERO");
    let text = pass("[passes.main.depth_stencil]\nfront_face = { pass = \"INCREMENT\" }\n");
    expect_at(&text, "\"INCREMENT\"", 0, "is not a D3D11_STENCIL_OP_* value");
    let text = pass("[passes.main.rasterizer]\ncull_mode = \"CW\"\n");
    expect_at(&text, "\"CW\"", 0, "expected one of: NONE, FRONT, BACK");
    let text = pass("topology = \"TRIANGLES\"\n");
    expect_at(&text, "\"TRIANGLES\"", 0, "is not a D3D11_PRIMITIVE_TOPOLOGY_* value");
    let text = pass("[passes.main.blend]\nrender_target_write_mask = \"RED|PINK\"\n");
    expect_at(&text, "\"RED|PINK\"", 0, "`PINK` is not a D3D11_COLOR_WRITE_ENABLE value");
    let text = pass("[passes.main.blend]\nrender_target_write_mask = 16\n");
    expect_at(&text, "16", 0, "must be 0 to 15");
    let text = pass("[passes.main.blend]\nblend_op = \"PLUS\"\n");
    expect_at(&text, "\"PLUS\"", 0, "is not a D3D11_BLEND_OP_* value");
}

#[test]
fn bad_keys_and_types() {
    let text = pass("[passes.main.rasterizer]\ncullmode = \"NONE\"\n");
    expect_at(&text, "cullmode", 0, "unknown key `cullmode` in [passes.main.rasterizer]");
    let text = pass("[passes.main.depth_stencil]\nfront_face = { func = \"LESS\", zfail = \"KEEP\" }\n");
    expect_at(&text, "zfail", 0, "unknown key `zfail`");
    let text = pass("[passes.main.depth_stencil]\ndepth_enable = \"TRUE\"\n");
    expect_at(&text, "\"TRUE\"", 0, "`depth_enable` must be true or false, found a string");
    let text = pass("[passes.main.depth_stencil]\nstencil_read_mask = 256\n");
    expect_at(&text, "256", 0, "8-bit mask");
    let text = pass("[passes.main.rasterizer]\ndepth_bias = 1.5\n");
    expect_at(&text, "1.5", 0, "`depth_bias` must be an integer");
    let text = pass("[passes.main.rasterizer]\nslope_scaled_depth_bias = nan\n");
    expect_at(&text, "nan", 0, "finite");
    let text = pass("blend = 3\n");
    expect_at(&text, "3", 0, "`blend` must name a state of [blend_states] or be a table");
}

#[test]
fn unknown_shared_state() {
    let text = format!("{HEAD}[blend_states.Opaque]\n[passes.main]\n{SHADERS}blend = \"AlphaBlend\"\n");
    expect_at(&text, "\"AlphaBlend\"", 0, "no state named `AlphaBlend` in [blend_states] (declared: Opaque)");
    let text = pass("rasterizer = \"CullNone\"\n");
    expect_at(&text, "\"CullNone\"", 0, "no state named `CullNone` in [rasterizer_states] (declared: none)");
    let text = format!("{HEAD}[depth_stencil_states.\"Depth Read\"]\n[passes.main]\n{SHADERS}");
    expect_at(&text, "\"Depth Read\"", 0, "state name `Depth Read` must be an identifier");
}

#[test]
fn wireframe_is_refused() {
    let text = pass("[passes.main.rasterizer]\nfill_mode = \"D3D11_FILL_WIREFRAME\"\n");
    expect_at(&text, "\"D3D11_FILL_WIREFRAME\"", 0, "`fill_mode = \"D3D11_FILL_WIREFRAME\"`: WebGPU has no wireframe");
    // SOLID is the default and fine.
    parse(&pass("[passes.main.rasterizer]\nfill_mode = \"solid\"\n"));
}

#[test]
fn logic_ops_are_refused() {
    let text = pass("[passes.main.blend]\nlogic_op_enable = true\n");
    expect_at(&text, "true", 0, "`logic_op_enable = true`: WebGPU has no logic operations");
    let text = pass("[passes.main.blend]\nrender_target = [{ logic_op = \"D3D11_LOGIC_OP_XOR\" }]\n");
    expect_at(&text, "\"D3D11_LOGIC_OP_XOR\"", 0, "WebGPU has no logic operations");
    let text = pass("[passes.main.blend]\nlogic_op = \"NAND_NOT\"\n");
    expect_at(&text, "\"NAND_NOT\"", 0, "is not a D3D11_LOGIC_OP_* value");
}

#[test]
fn blend_factors_d3d_or_webgpu_refuse() {
    let text = pass("[passes.main.blend]\nblend_enable = true\ndest_blend = \"SRC1_COLOR\"\n");
    expect_at(&text, "\"SRC1_COLOR\"", 0, "dual-source blending is not supported");
    let text = pass("[passes.main.blend]\nblend_enable = true\ndest_blend = \"SRC_ALPHA_SAT\"\n");
    expect_at(&text, "\"SRC_ALPHA_SAT\"", 0, "only as a source factor");
    let text = pass("[passes.main.blend]\nblend_enable = true\nsrc_blend_alpha = \"SRC_COLOR\"\n");
    expect_at(&text, "\"SRC_COLOR\"", 0, "SRC_COLOR is a colour factor, which D3D refuses for alpha");
    let text = pass("[passes.main.blend]\nblend_enable = true\ndest_blend_alpha = \"INV_DEST_COLOR\"\n");
    expect_at(&text, "\"INV_DEST_COLOR\"", 0, "colour factor");
}

#[test]
fn render_targets_need_independent_blend() {
    let text = pass("[passes.main.blend]\nrender_target = [{ blend_enable = true }, { blend_enable = false }]\n");
    expect_at(&text, "{ blend_enable = false }", 0, "render_target[1] and later are ignored unless `independent_blend");
    let text = pass("[passes.main.blend]\nblend_enable = true\nrender_target = [{ blend_enable = true }]\n");
    expect_at(&text, "blend_enable", 0, "`blend_enable` is a render-target key: write it in `render_target` (line");
    let nine = ["{}"; 9].join(", ");
    let text = pass(&format!("[passes.main.blend]\nindependent_blend = true\nrender_target = [{nine}]\n"));
    expect_at(&text, "{}", 8, "D3D11 has 8 render targets");
    let text = pass("[passes.main.blend]\nrender_target = [{ blend = true }]\n");
    expect_at(&text, "blend = true", 0, "unknown key `blend` in render_target[0] of [passes.main.blend]");
}

#[test]
fn topologies_webgpu_lacks() {
    expect_at(&pass("topology = \"TRIANGLELIST_ADJ\"\n"), "\"TRIANGLELIST_ADJ\"", 0, "geometry shaders");
    expect_at(
        &pass("topology = \"D3D11_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST\"\n"),
        "\"D3D11",
        0,
        "tessellation",
    );
    expect_at(&pass("topology = \"UNDEFINED\"\n"), "\"UNDEFINED\"", 0, "needs a topology");
}

#[test]
fn depth_bias_on_lines_is_refused() {
    let text = format!(
        "{HEAD}[rasterizer_states.Biased]\ndepth_bias = 4\n[passes.main]\n{SHADERS}topology = \"POINTLIST\"\n\
         rasterizer = \"Biased\"\n"
    );
    expect_at(&text, "\"POINTLIST\"", 0, "topology POINTLIST: WebGPU applies depth bias to triangles only");
    let d = Effect::parse(Path::new("fx/e.effect.toml"), text.clone()).unwrap_err();
    let (line, col) = pos(&text, "4\n", 0);
    assert!(d.first().unwrap().message.contains(&format!("(line {line}, column {col})")), "{d}");
}

#[test]
fn rasterizer_features_webgpu_lacks() {
    let text = pass("[passes.main.rasterizer]\nantialiased_line_enable = true\n");
    expect_at(&text, "true", 0, "WebGPU has no anti-aliased lines");
    let text = pass("[passes.main.rasterizer]\nforced_sample_count = 4\n");
    expect_at(&text, "4", 0, "ForcedSampleCount");
    let text = pass("[passes.main.rasterizer]\nconservative_raster = \"D3D11_CONSERVATIVE_RASTERIZATION_MODE_ON\"\n");
    expect_at(&text, "\"D3D11_CONSERVATIVE", 0, "no conservative rasterization");
    // Their off values are D3D's defaults and fine.
    parse(&pass(
        "[passes.main.rasterizer]\nantialiased_line_enable = false\nforced_sample_count = 0\nconservative_raster = \"OFF\"\n",
    ));
}
