//! Effect files that are valid: the model the parser builds.

use std::path::Path;

use dxbc_wgsl_build::effect::{AxisKind, Stage};
use dxbc_wgsl_build::Effect;

fn parse(text: &str) -> Effect {
    Effect::parse(Path::new("dir/e.effect.toml"), text.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn axes_forms_defaults_and_order() {
    let e = parse(
        r#"
[effect]
name = "MyEffect"
shader_dir = "../blobs"
[axes]
zeta = "bool"
alpha = ["x", "y", "z"]
fog = { type = "bool", default = true }
mode = { values = ["a", "b"], default = "b", doc = "Mode." }
[permutations]
exclude = [{ alpha = ["y", "z"], zeta = true }]
[passes.main]
vertex = "v{alpha}{zeta:Z}{fog::NoFog}{mode:a=A,b=B}.cso"
"#,
    );
    assert_eq!(e.module, "my_effect");
    assert_eq!(e.shader_dir, Path::new("dir/../blobs"));
    // Declaration order, not alphabetical.
    let names: Vec<_> = e.axes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["zeta", "alpha", "fog", "mode"]);
    assert_eq!(e.axes[1].kind, AxisKind::Enum(vec!["x".into(), "y".into(), "z".into()]));
    assert_eq!((e.axes[2].default, e.axes[3].default), (1, 1));
    assert_eq!(e.axes[3].doc.as_deref(), Some("Mode."));
    let perms = e.permutations();
    // 2 * 3 * 2 * 2 = 24, minus zeta=true with alpha y or z (8).
    assert_eq!(perms.len(), 16);
    assert_eq!(perms[0], vec![0, 0, 0, 0]);
    assert_eq!(perms[1], vec![0, 0, 0, 1]);
    assert_eq!(*perms.last().unwrap(), vec![1, 0, 1, 1]);
    let r = e.shader_for(&e.passes[0].vertex, &[1, 0, 0, 1]).unwrap();
    assert_eq!(r.path, Path::new("dir/../blobs/vxZNoFogB.cso"));
}

#[test]
fn layouts_cbuffers_resources_and_formats() {
    let e = parse(
        r#"
[effect]
name = "E"
[layouts.Shared]
doc = "Shared."
[[layouts.Shared.fields]]
name = "A"
type = "float3"
[[layouts.Shared.fields]]
name = "B"
type = "float"
[[layouts.Shared.fields]]
name = "M"
type = "row_major float4x3"
[cbuffers.VsParams]
register = "b0"
layout = "Shared"
stages = ["vertex"]
[cbuffers.PsParams]
register = "b0"
stages = ["pixel"]
fields = [{ name = "Tint", type = "float4" }]
[resources]
t0 = "albedo"
s0 = { name = "albedo_sampler", stages = ["pixel"], doc = "Linear." }
[vertex_formats]
COLOR = "B8G8R8A8_UNORM"
texcoord1 = "float16x2"
[passes.main]
vertex = { path = "shaders.h", symbol = "g_vs" }
pixel = { path = "shaders.h", symbol = "g_ps" }
"#,
    );
    let shared = &e.layouts[0];
    assert_eq!(shared.doc.as_deref(), Some("Shared."));
    let offs: Vec<_> = shared.fields.iter().map(|f| f.offset).collect();
    assert_eq!(offs, [0, 12, 16]);
    assert_eq!(shared.size(), 16 + 3 * 16 + 16);
    assert_eq!(e.cbuffers.len(), 2);
    assert_eq!(e.cbuffers[0].stages, Some(vec![Stage::Vertex]));
    assert_eq!(e.layouts[e.cbuffers[1].layout].name, "PsParams");
    assert_eq!(e.resources[1].name, "albedo_sampler");
    assert_eq!(e.resources[1].doc.as_deref(), Some("Linear."));
    assert_eq!(e.vertex_formats[0].format.wgpu, "Unorm8x4Bgra");
    assert_eq!((e.vertex_formats[1].semantic.as_str(), e.vertex_formats[1].index), ("texcoord", 1));
    let r = e.shader_for(e.passes[0].pixel.as_ref().unwrap(), &[]).unwrap();
    assert_eq!(r.symbol.as_deref(), Some("g_ps"));
    assert_eq!(r.label(), "shaders.h:g_ps");
}

#[test]
fn techniques_group_passes_in_their_order() {
    let e = parse(
        r#"
[effect]
name = "E"
[passes.depth]
vertex = "V.cso"
[passes.lit]
vertex = "V.cso"
pixel = "P.cso"
[passes.outline]
vertex = "V.cso"
pixel = "O.cso"
[techniques.shadowed]
doc = "Depth first, then lit."
passes = ["depth", "lit"]
[techniques.toon]
passes = ["lit", "outline"]
"#,
    );
    let t: Vec<(&str, Vec<&str>)> = e
        .techniques
        .iter()
        .map(|t| (t.name.as_str(), t.passes.iter().map(|&p| e.passes[p].name.as_str()).collect()))
        .collect();
    assert_eq!(t, [("shadowed", vec!["depth", "lit"]), ("toon", vec!["lit", "outline"])]);
    assert_eq!(e.techniques[0].doc.as_deref(), Some("Depth first, then lit."));
    // Without [techniques], none.
    let e = parse("[effect]\nname = \"E\"\n[passes.main]\nvertex = \"V.cso\"\n");
    assert!(e.techniques.is_empty());
}

#[test]
fn verify_checksum_defaults_to_true_and_reaches_every_shader() {
    let pass = "[passes.main]\nvertex = \"v.dxbc\"\npixel = \"p.dxbc\"\n";
    let e = parse(&format!("[effect]\nname = \"E\"\n{pass}"));
    assert!(e.verify_checksum);
    let e = parse(&format!("[effect]\nname = \"E\"\nverify_checksum = false\n{pass}"));
    assert!(!e.verify_checksum);
    let p = &e.passes[0];
    for rules in [&p.vertex, p.pixel.as_ref().unwrap()] {
        let shader = e.shader_for(rules, &[]).unwrap();
        assert!(!shader.verify_checksum, "{shader:?}");
        assert!(dxbc_wgsl_build::compile::translate_options(&shader).unwrap().skip_checksum);
    }
}

/// A pass with a geometry shader: its stage's rules, the draw topology (every D3D11 one, here a
/// patch list by either spelling), and the render states parsed as usual; `[instance_data]`.
#[test]
fn geometry_stage_topology_and_instance_data() {
    let text = r#"
[effect]
name = "G"
[axes]
wide = "bool"
[instance_data]
TEXCOORD4 = 1
color1 = 0
[passes.main]
vertex = "vs.dxbc"
geometry = "gs{wide:Wide}.dxbc"
pixel = "ps.dxbc"
topology = "patch_list_3"
rasterizer = { cull_mode = "NONE" }
[passes.strips]
vertex = "vs.dxbc"
geometry = "gs.dxbc"
topology = "D3D11_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST"
[passes.plain]
vertex = "vs.dxbc"
topology = "line_strip"
"#;
    let e = parse(text);
    use dxbc_wgsl::geometry::Topology;
    use dxbc_wgsl_build::effect::PassKind;
    let g = e.passes[0].geometry.as_ref().unwrap();
    assert_eq!(g.rules.stage, Stage::Geometry);
    assert_eq!(g.topology, Topology::PatchList(3));
    assert_eq!(&text[g.topology_span.clone().unwrap()], "\"patch_list_3\"");
    assert_eq!(e.passes[1].geometry.as_ref().unwrap().topology, Topology::PatchList(3));
    assert_eq!(
        e.passes.iter().map(|p| p.kind()).collect::<Vec<_>>(),
        [PassKind::Geometry, PassKind::Geometry, PassKind::Render]
    );
    assert_eq!(e.passes[2].states.topology, dxbc_wgsl_build::effect::states::Topology::LineStrip);
    assert_eq!(e.passes[0].states.rasterizer.cull_mode, dxbc_wgsl_build::effect::states::CullMode::None);
    let stages: Vec<Stage> = e.passes[0].stage_rules().map(|r| r.stage).collect();
    assert_eq!(stages, [Stage::Vertex, Stage::Geometry, Stage::Pixel]);
    assert_eq!(e.shader_for(&g.rules, &[1]).unwrap().label(), "gsWide.dxbc");
    assert_eq!(e.passes[0].stage_type_names(), ("MainStage".to_string(), "MainPrepared".to_string()));
    let data: Vec<(&str, u32, u32)> =
        e.instance_data.iter().map(|d| (d.semantic.as_str(), d.index, d.step_rate)).collect();
    assert_eq!(data, [("TEXCOORD", 4, 1), ("color", 1, 0)]);
}
