//! Render states: `[blend_states.NAME]`, `[depth_stencil_states.NAME]`, `[rasterizer_states.NAME]`,
//! and a pass's `topology`, `blend`, `depth_stencil` and `rasterizer` (a shared state's name or an
//! inline table). D3D11's names are accepted in any case, with or without their `D3D11_...` prefix;
//! what WebGPU cannot express is refused at the offending value.

use super::*;
use crate::effect::states::*;

/// The shared states, by name.
#[derive(Default)]
pub(super) struct Named {
    blend: Vec<(String, BlendDesc)>,
    depth_stencil: Vec<(String, DepthStencilDesc)>,
    rasterizer: Vec<(String, Rasterizer)>,
}

/// A rasterizer state with the position of its depth bias (for the topology check).
#[derive(Clone)]
struct Rasterizer {
    desc: RasterizerDesc,
    bias_span: Option<Span>,
}

/// Root keys this module reads.
pub(super) const ROOT_KEYS: [&str; 3] = ["blend_states", "depth_stencil_states", "rasterizer_states"];
/// Pass keys this module reads.
pub(super) const PASS_KEYS: [&str; 4] = ["topology", "blend", "depth_stencil", "rasterizer"];

/// Reads the shared states of the root table.
pub(super) fn parse_named(cx: &Ctx<'_>, root: &DeTable<'_>) -> R<Named> {
    let mut named = Named::default();
    let tables = |key: &str| -> R<Vec<(String, &Val<'_>)>> {
        let Some((_, v)) = get(root, key) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (k, v) in entries(as_table(cx, key, v)?) {
            let name = k.get_ref().to_string();
            check_hlsl_ident(cx, &name, &k.span(), "state name")?;
            out.push((name, v));
        }
        Ok(out)
    };
    for (name, v) in tables("blend_states")? {
        let what = format!("[blend_states.{name}]");
        named.blend.push((name, parse_blend(cx, &what, as_table(cx, "blend_states", v)?)?));
    }
    for (name, v) in tables("depth_stencil_states")? {
        let what = format!("[depth_stencil_states.{name}]");
        named.depth_stencil.push((name, parse_depth_stencil(cx, &what, as_table(cx, "depth_stencil_states", v)?)?));
    }
    for (name, v) in tables("rasterizer_states")? {
        let what = format!("[rasterizer_states.{name}]");
        named.rasterizer.push((name, parse_rasterizer(cx, &what, as_table(cx, "rasterizer_states", v)?)?));
    }
    Ok(named)
}

/// Reads a pass's states (the pass table's `topology`, `blend`, `depth_stencil`, `rasterizer`).
/// A pass with a geometry shader (`geometry`) reads its `topology` with [`parse_draw_topology`]
/// instead: it is the draw's, not the rasterizer's.
pub(super) fn parse_pass(cx: &Ctx<'_>, named: &Named, pass: &str, t: &DeTable<'_>, geometry: bool) -> R<PassStates> {
    let mut states = PassStates::default();
    let mut topology_span = None;
    if let Some((_, v)) = get(t, "topology").filter(|_| !geometry) {
        states.topology = parse_topology(cx, v)?;
        topology_span = Some(v.span());
    }
    /// A shared state by name, or an inline table.
    fn pick<T: Clone>(
        cx: &Ctx<'_>,
        key: &str,
        root_key: &str,
        list: &[(String, T)],
        v: &Val<'_>,
        inline: impl FnOnce(&DeTable<'_>) -> R<T>,
    ) -> R<(T, Option<String>)> {
        match v.get_ref() {
            DeValue::String(s) => match list.iter().find(|(n, _)| n == s.as_ref()) {
                Some((n, state)) => Ok((state.clone(), Some(n.clone()))),
                None => {
                    let names: Vec<&str> = list.iter().map(|(n, _)| n.as_str()).collect();
                    Err(cx.err(
                        &v.span(),
                        format!(
                            "`{key}`: no state named `{s}` in [{root_key}] (declared: {})",
                            if names.is_empty() { "none".into() } else { names.join(", ") }
                        ),
                    ))
                }
            },
            DeValue::Table(t) => Ok((inline(t)?, None)),
            other => Err(cx.err(
                &v.span(),
                format!(
                    "`{key}` must name a state of [{root_key}] or be a table of states, found {}",
                    type_name(other)
                ),
            )),
        }
    }
    if let Some((_, v)) = get(t, "blend") {
        let what = format!("[passes.{pass}.blend]");
        let (b, n) = pick(cx, "blend", "blend_states", &named.blend, v, |t| parse_blend(cx, &what, t))?;
        states.blend = b;
        states.names[0] = n;
    }
    if let Some((_, v)) = get(t, "depth_stencil") {
        let what = format!("[passes.{pass}.depth_stencil]");
        let (d, n) = pick(cx, "depth_stencil", "depth_stencil_states", &named.depth_stencil, v, |t| {
            parse_depth_stencil(cx, &what, t)
        })?;
        states.depth_stencil = d;
        states.names[1] = n;
    }
    if let Some((_, v)) = get(t, "rasterizer") {
        let what = format!("[passes.{pass}.rasterizer]");
        let (r, n) =
            pick(cx, "rasterizer", "rasterizer_states", &named.rasterizer, v, |t| parse_rasterizer(cx, &what, t))?;
        if let (Some(at), Some(bias)) = (&topology_span, &r.bias_span) {
            if !states.topology.is_triangles() {
                let (line, column) = crate::diag::line_column(cx.src, bias.start);
                return Err(cx.err(
                    at,
                    format!(
                        "topology {}: WebGPU applies depth bias to triangles only, and the pass's rasterizer state \
                         sets one (line {line}, column {column}); remove the bias or draw triangles",
                        states.topology.d3d_name()
                    ),
                ));
            }
        }
        states.rasterizer = r.desc;
        states.names[2] = n;
    }
    Ok(states)
}

/// Upper-cases a D3D name and strips `D3D11_<kind>`, `D3D10_<kind>` or `D3D_<kind>`.
fn d3d_name(text: &str, kind: &str) -> String {
    let upper = text.trim().to_ascii_uppercase();
    for api in ["D3D11_", "D3D10_", "D3D_"] {
        if let Some(rest) = upper.strip_prefix(api).and_then(|r| r.strip_prefix(kind)) {
            return rest.to_string();
        }
    }
    upper
}

/// A D3D enumeration value: `lookup` finds it by its bare name, `refuse` explains names WebGPU
/// lacks.
fn d3d_value<T>(
    cx: &Ctx<'_>,
    key: &str,
    v: &Val<'_>,
    kind: &str,
    lookup: impl Fn(&str) -> Option<T>,
    names: String,
    refuse: impl Fn(&str) -> Option<String>,
) -> R<T> {
    let text = as_str(cx, key, v)?;
    let name = d3d_name(text, kind);
    if let Some(why) = refuse(&name) {
        return Err(cx.err(&v.span(), format!("`{key} = \"{text}\"`: {why}")));
    }
    lookup(&name).ok_or_else(|| {
        cx.err(&v.span(), format!("`{key}`: `{text}` is not a D3D11_{kind}* value (expected one of: {names})"))
    })
}

pub(super) fn opt_bool(cx: &Ctx<'_>, t: &DeTable<'_>, key: &str) -> R<Option<(bool, Span)>> {
    let Some((_, v)) = get(t, key) else {
        return Ok(None);
    };
    match v.get_ref() {
        DeValue::Boolean(b) => Ok(Some((*b, v.span()))),
        other => Err(cx.err(&v.span(), format!("`{key}` must be true or false, found {}", type_name(other)))),
    }
}

fn opt_u8(cx: &Ctx<'_>, t: &DeTable<'_>, key: &str) -> R<Option<u8>> {
    let Some(n) = opt_u32(cx, t, key)? else {
        return Ok(None);
    };
    u8::try_from(n).map(Some).map_err(|_| {
        let (_, v) = get(t, key).expect("read above");
        cx.err(&v.span(), format!("`{key}` is an 8-bit mask (0 to 255, 0xFF), found {n}"))
    })
}

fn opt_i32(cx: &Ctx<'_>, t: &DeTable<'_>, key: &str) -> R<Option<(i32, Span)>> {
    let Some((_, v)) = get(t, key) else {
        return Ok(None);
    };
    match v.get_ref() {
        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix())
            .ok()
            .and_then(|n| i32::try_from(n).ok())
            .map(|n| Some((n, v.span())))
            .ok_or_else(|| cx.err(&v.span(), format!("`{key}` must fit in a 32-bit signed integer (D3D's INT)"))),
        other => Err(cx.err(&v.span(), format!("`{key}` must be an integer, found {}", type_name(other)))),
    }
}

fn opt_f32(cx: &Ctx<'_>, t: &DeTable<'_>, key: &str) -> R<Option<(f32, Span)>> {
    let Some((_, v)) = get(t, key) else {
        return Ok(None);
    };
    let f = match v.get_ref() {
        DeValue::Float(f) => f.as_str().parse::<f64>().ok(),
        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix()).ok().map(|n| n as f64),
        other => return Err(cx.err(&v.span(), format!("`{key}` must be a number, found {}", type_name(other)))),
    };
    match f.map(|f| f as f32) {
        Some(f) if f.is_finite() => Ok(Some((f, v.span()))),
        _ => Err(cx.err(&v.span(), format!("`{key}` must be a finite 32-bit float"))),
    }
}

/// The topology of a pass without geometry shader: D3D's name (prefix and the underscores between
/// words optional: `TRIANGLESTRIP`, `triangle_strip`, `D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP`).
fn parse_topology(cx: &Ctx<'_>, v: &Val<'_>) -> R<Topology> {
    let lookup = |n: &str| Topology::ALL.iter().copied().find(|t| t.d3d_name() == n.replace('_', ""));
    d3d_value(cx, "topology", v, "PRIMITIVE_TOPOLOGY_", lookup, Topology::names(), |n| {
        use dxbc_wgsl::geometry::Topology as T;
        match draw_topology(n) {
            Some(T::LineListAdj | T::LineStripAdj | T::TriangleListAdj | T::TriangleStripAdj) => Some(
                "adjacency topologies feed geometry shaders, which WebGPU lacks: add the pass's `geometry` shader \
                 (dxbc-wgsl runs it as compute work in front of the draw), or draw the list or strip without \
                 adjacency"
                    .into(),
            ),
            Some(T::PatchList(_)) => Some(
                "patch lists feed tessellation (hull and domain shaders), which WebGPU does not have, or a \
                 geometry shader that reads patches: add the pass's `geometry` shader"
                    .into(),
            ),
            _ if n == "UNDEFINED" => Some("a pass needs a topology (TRIANGLELIST is the default)".into()),
            _ => None,
        }
    })
}

/// A D3D11 topology by its bare upper-case name, the underscores between words optional:
/// `POINTLIST` (`POINT_LIST`), `LINESTRIP_ADJ` (`LINE_STRIP_ADJ`),
/// `3_CONTROL_POINT_PATCHLIST` (`PATCH_LIST_3`), for 1 to 32 control points.
fn draw_topology(name: &str) -> Option<dxbc_wgsl::geometry::Topology> {
    use dxbc_wgsl::geometry::Topology as T;
    let n = name.replace('_', "");
    let patch = |digits: &str| -> Option<T> {
        let points: u8 = digits.parse().ok().filter(|p| (1..=32).contains(p))?;
        (!digits.starts_with('0')).then_some(T::PatchList(points))
    };
    Some(match n.as_str() {
        "POINTLIST" => T::PointList,
        "LINELIST" => T::LineList,
        "LINESTRIP" => T::LineStrip,
        "TRIANGLELIST" => T::TriangleList,
        "TRIANGLESTRIP" => T::TriangleStrip,
        "LINELISTADJ" => T::LineListAdj,
        "LINESTRIPADJ" => T::LineStripAdj,
        "TRIANGLELISTADJ" => T::TriangleListAdj,
        "TRIANGLESTRIPADJ" => T::TriangleStripAdj,
        _ => {
            if let Some(d) = n.strip_suffix("CONTROLPOINTPATCHLIST") {
                patch(d)?
            } else {
                patch(n.strip_prefix("PATCHLIST")?)?
            }
        }
    })
}

/// The draw topology of a pass with a geometry shader: every D3D11 topology
/// ([`draw_topology`]'s names, with or without the `D3D11_PRIMITIVE_TOPOLOGY_` prefix).
pub(super) fn parse_draw_topology(cx: &Ctx<'_>, v: &Val<'_>) -> R<dxbc_wgsl::geometry::Topology> {
    d3d_value(
        cx,
        "topology",
        v,
        "PRIMITIVE_TOPOLOGY_",
        draw_topology,
        "POINTLIST, LINELIST, LINESTRIP, TRIANGLELIST, TRIANGLESTRIP, their _ADJ forms, N_CONTROL_POINT_PATCHLIST \
         (N = 1 to 32)"
            .into(),
        |n| (n == "UNDEFINED").then(|| "a pass needs a topology (TRIANGLELIST is the default)".into()),
    )
}

const SRC1: [&str; 4] = ["SRC1_COLOR", "INV_SRC1_COLOR", "SRC1_ALPHA", "INV_SRC1_ALPHA"];

fn parse_factor(cx: &Ctx<'_>, key: &str, v: &Val<'_>) -> R<Blend> {
    let dest = key.starts_with("dest");
    let alpha = key.ends_with("alpha");
    let f = d3d_value(cx, key, v, "BLEND_", Blend::from_d3d_name, Blend::names(), |n| {
        if SRC1.contains(&n) {
            Some(
                "dual-source blending is not supported: WebGPU needs the pixel shader's second output as \
                 `@blend_src(1)` (and wgpu the DUAL_SOURCE_BLENDING feature), which the translator does not emit"
                    .into(),
            )
        } else {
            None
        }
    })?;
    if dest && f == Blend::SrcAlphaSat {
        return Err(cx.err(&v.span(), format!("`{key}`: D3D allows SRC_ALPHA_SAT only as a source factor")));
    }
    if alpha && f.is_color() {
        return Err(cx.err(
            &v.span(),
            format!(
                "`{key}`: {} is a colour factor, which D3D refuses for alpha (use the matching _ALPHA factor)",
                f.d3d_name()
            ),
        ));
    }
    Ok(f)
}

fn parse_op(cx: &Ctx<'_>, key: &str, v: &Val<'_>) -> R<BlendOp> {
    d3d_value(cx, key, v, "BLEND_OP_", BlendOp::from_d3d_name, BlendOp::names(), |_| None)
}

fn parse_write_mask(cx: &Ctx<'_>, key: &str, v: &Val<'_>) -> R<u8> {
    const BITS: [(&str, u8); 5] = [("RED", 1), ("GREEN", 2), ("BLUE", 4), ("ALPHA", 8), ("ALL", 15)];
    match v.get_ref() {
        DeValue::Integer(i) => match u8::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) if n <= 15 => Ok(n),
            _ => Err(cx.err(&v.span(), format!("`{key}` must be 0 to 15 (RED = 1, GREEN = 2, BLUE = 4, ALPHA = 8)"))),
        },
        DeValue::String(s) => {
            let mut mask = 0;
            for part in s.split('|') {
                let name = d3d_name(part, "COLOR_WRITE_ENABLE_");
                let Some((_, bit)) = BITS.iter().find(|(n, _)| *n == name) else {
                    return Err(cx.err(
                        &v.span(),
                        format!(
                            "`{key}`: `{}` is not a D3D11_COLOR_WRITE_ENABLE value (RED, GREEN, BLUE, ALPHA, ALL, \
                             joined with |)",
                            part.trim()
                        ),
                    ));
                };
                mask |= bit;
            }
            Ok(mask)
        }
        other => Err(cx.err(
            &v.span(),
            format!("`{key}` must be a mask such as \"ALL\" or \"RED|GREEN\", or 0 to 15, found {}", type_name(other)),
        )),
    }
}

const TARGET_KEYS: [&str; 10] = [
    "blend_enable",
    "src_blend",
    "dest_blend",
    "blend_op",
    "src_blend_alpha",
    "dest_blend_alpha",
    "blend_op_alpha",
    "render_target_write_mask",
    "logic_op_enable",
    "logic_op",
];

fn parse_target(cx: &Ctx<'_>, t: &DeTable<'_>) -> R<RenderTargetBlend> {
    let mut rt = RenderTargetBlend::default();
    if let Some((b, _)) = opt_bool(cx, t, "blend_enable")? {
        rt.blend_enable = b;
    }
    for (key, slot) in [
        ("src_blend", &mut rt.src_blend),
        ("dest_blend", &mut rt.dest_blend),
        ("src_blend_alpha", &mut rt.src_blend_alpha),
        ("dest_blend_alpha", &mut rt.dest_blend_alpha),
    ] {
        if let Some((_, v)) = get(t, key) {
            *slot = parse_factor(cx, key, v)?;
        }
    }
    for (key, slot) in [("blend_op", &mut rt.blend_op), ("blend_op_alpha", &mut rt.blend_op_alpha)] {
        if let Some((_, v)) = get(t, key) {
            *slot = parse_op(cx, key, v)?;
        }
    }
    if let Some((_, v)) = get(t, "render_target_write_mask") {
        rt.write_mask = parse_write_mask(cx, "render_target_write_mask", v)?;
    }
    const NO_LOGIC_OPS: &str = "WebGPU has no logic operations (D3D11.1's LogicOpEnable/LogicOp)";
    if let Some((true, at)) = opt_bool(cx, t, "logic_op_enable")? {
        return Err(cx.err(&at, format!("`logic_op_enable = true`: {NO_LOGIC_OPS}")));
    }
    if let Some((_, v)) = get(t, "logic_op") {
        const OPS: [&str; 16] = [
            "CLEAR",
            "SET",
            "COPY",
            "COPY_INVERTED",
            "NOOP",
            "INVERT",
            "AND",
            "NAND",
            "OR",
            "NOR",
            "XOR",
            "EQUIV",
            "AND_REVERSE",
            "AND_INVERTED",
            "OR_REVERSE",
            "OR_INVERTED",
        ];
        // NOOP is the default and does nothing without logic_op_enable; anything else is refused.
        d3d_value(
            cx,
            "logic_op",
            v,
            "LOGIC_OP_",
            |n| (n == "NOOP").then_some(()),
            OPS.join(", "),
            |n| (n != "NOOP" && OPS.contains(&n)).then(|| NO_LOGIC_OPS.to_string()),
        )?;
    }
    Ok(rt)
}

fn parse_blend(cx: &Ctx<'_>, what: &str, t: &DeTable<'_>) -> R<BlendDesc> {
    let mut allowed = vec!["alpha_to_coverage", "independent_blend", "render_target"];
    allowed.extend(TARGET_KEYS);
    check_keys(cx, t, what, &allowed)?;
    let mut b = BlendDesc::default();
    if let Some((v, _)) = opt_bool(cx, t, "alpha_to_coverage")? {
        b.alpha_to_coverage = v;
    }
    if let Some((v, _)) = opt_bool(cx, t, "independent_blend")? {
        b.independent_blend = v;
    }
    let shorthand = entries(t).into_iter().find(|(k, _)| TARGET_KEYS.contains(&k.get_ref().as_ref()));
    match get(t, "render_target") {
        Some((k, v)) => {
            if let Some((sk, _)) = shorthand {
                return Err(cx.err(
                    &sk.span(),
                    format!(
                        "`{}` is a render-target key: write it in `render_target` (line {}), or drop \
                         `render_target` to give every target this state",
                        sk.get_ref(),
                        crate::diag::line_column(cx.src, k.span().start).0
                    ),
                ));
            }
            let list = as_array(cx, "render_target", v)?;
            if list.len() > 8 {
                return Err(cx.err(&list[8].span(), "D3D11 has 8 render targets (render_target[0] to [7])"));
            }
            if list.len() > 1 && !b.independent_blend {
                return Err(cx.err(
                    &list[1].span(),
                    "render_target[1] and later are ignored unless `independent_blend = true` (D3D applies \
                     render_target[0] to every target)",
                ));
            }
            for (i, item) in list.iter().enumerate() {
                let rt = as_table(cx, "render_target", item)?;
                check_keys(cx, rt, &format!("render_target[{i}] of {what}"), &TARGET_KEYS)?;
                b.render_targets[i] = parse_target(cx, rt)?;
            }
        }
        None => b.render_targets[0] = parse_target(cx, t)?,
    }
    if !b.independent_blend {
        b.render_targets = [b.render_targets[0]; 8];
    }
    Ok(b)
}

fn parse_depth_stencil(cx: &Ctx<'_>, what: &str, t: &DeTable<'_>) -> R<DepthStencilDesc> {
    check_keys(
        cx,
        t,
        what,
        &[
            "depth_enable",
            "depth_write_mask",
            "depth_func",
            "stencil_enable",
            "stencil_read_mask",
            "stencil_write_mask",
            "front_face",
            "back_face",
        ],
    )?;
    let mut d = DepthStencilDesc::default();
    if let Some((v, _)) = opt_bool(cx, t, "depth_enable")? {
        d.depth_enable = v;
    }
    if let Some((_, v)) = get(t, "depth_write_mask") {
        d.depth_write = d3d_value(
            cx,
            "depth_write_mask",
            v,
            "DEPTH_WRITE_MASK_",
            |n| match n {
                "ALL" => Some(true),
                "ZERO" => Some(false),
                _ => None,
            },
            "ALL, ZERO".into(),
            |_| None,
        )?;
    }
    let comparison = |key: &str, v: &Val<'_>| {
        d3d_value(cx, key, v, "COMPARISON_", Comparison::from_d3d_name, Comparison::names(), |_| None)
    };
    if let Some((_, v)) = get(t, "depth_func") {
        d.depth_func = comparison("depth_func", v)?;
    }
    if let Some((v, _)) = opt_bool(cx, t, "stencil_enable")? {
        d.stencil_enable = v;
    }
    if let Some(m) = opt_u8(cx, t, "stencil_read_mask")? {
        d.stencil_read_mask = m;
    }
    if let Some(m) = opt_u8(cx, t, "stencil_write_mask")? {
        d.stencil_write_mask = m;
    }
    for (key, face) in [("front_face", &mut d.front_face), ("back_face", &mut d.back_face)] {
        let Some((_, v)) = get(t, key) else {
            continue;
        };
        let ft = as_table(cx, key, v)?;
        check_keys(cx, ft, &format!("`{key}` of {what}"), &["fail", "depth_fail", "pass", "func"])?;
        for (k, op) in [("fail", &mut face.fail), ("depth_fail", &mut face.depth_fail), ("pass", &mut face.pass)] {
            if let Some((_, v)) = get(ft, k) {
                *op = d3d_value(cx, k, v, "STENCIL_OP_", StencilOp::from_d3d_name, StencilOp::names(), |_| None)?;
            }
        }
        if let Some((_, v)) = get(ft, "func") {
            face.func = comparison("func", v)?;
        }
    }
    Ok(d)
}

fn parse_rasterizer(cx: &Ctx<'_>, what: &str, t: &DeTable<'_>) -> R<Rasterizer> {
    check_keys(
        cx,
        t,
        what,
        &[
            "fill_mode",
            "cull_mode",
            "front_counter_clockwise",
            "depth_bias",
            "depth_bias_clamp",
            "slope_scaled_depth_bias",
            "depth_clip_enable",
            "scissor_enable",
            "multisample_enable",
            "antialiased_line_enable",
            "forced_sample_count",
            "conservative_raster",
        ],
    )?;
    let mut r = RasterizerDesc::default();
    if let Some((_, v)) = get(t, "fill_mode") {
        d3d_value(
            cx,
            "fill_mode",
            v,
            "FILL_",
            |n| (n == "SOLID").then_some(()),
            "SOLID, WIREFRAME".into(),
            |n| {
                (n == "WIREFRAME").then(|| {
                    "WebGPU has no wireframe fill mode (wgpu's PolygonMode::Line is a native-only feature); draw \
                     the edges with a LINELIST topology instead"
                        .to_string()
                })
            },
        )?;
    }
    if let Some((_, v)) = get(t, "cull_mode") {
        r.cull_mode = d3d_value(cx, "cull_mode", v, "CULL_", CullMode::from_d3d_name, CullMode::names(), |_| None)?;
    }
    if let Some((v, _)) = opt_bool(cx, t, "front_counter_clockwise")? {
        r.front_counter_clockwise = v;
    }
    let mut bias_span = None;
    if let Some((v, at)) = opt_i32(cx, t, "depth_bias")? {
        r.depth_bias = v;
        bias_span = bias_span.or((v != 0).then_some(at));
    }
    if let Some((v, at)) = opt_f32(cx, t, "slope_scaled_depth_bias")? {
        r.slope_scaled_depth_bias = v;
        bias_span = bias_span.or((v != 0.0).then_some(at));
    }
    if let Some((v, at)) = opt_f32(cx, t, "depth_bias_clamp")? {
        r.depth_bias_clamp = v;
        bias_span = bias_span.or((v != 0.0).then_some(at));
    }
    if let Some((v, _)) = opt_bool(cx, t, "depth_clip_enable")? {
        r.depth_clip_enable = v;
    }
    if let Some((v, _)) = opt_bool(cx, t, "scissor_enable")? {
        r.scissor_enable = v;
    }
    if let Some((v, _)) = opt_bool(cx, t, "multisample_enable")? {
        r.multisample_enable = v;
    }
    if let Some((true, at)) = opt_bool(cx, t, "antialiased_line_enable")? {
        return Err(cx.err(
            &at,
            "`antialiased_line_enable = true`: WebGPU has no anti-aliased lines (draw lines into a multisampled \
             target instead)",
        ));
    }
    if let Some(n) = opt_u32(cx, t, "forced_sample_count")? {
        if n != 0 {
            let (_, v) = get(t, "forced_sample_count").expect("read above");
            return Err(cx.err(
                &v.span(),
                "`forced_sample_count`: WebGPU has no target-independent rasterization (D3D11.1's ForcedSampleCount)",
            ));
        }
    }
    if let Some((_, v)) = get(t, "conservative_raster") {
        d3d_value(
            cx,
            "conservative_raster",
            v,
            "CONSERVATIVE_RASTERIZATION_MODE_",
            |n| (n == "OFF").then_some(()),
            "OFF, ON".into(),
            |n| {
                (n == "ON")
                    .then(|| "WebGPU has no conservative rasterization (wgpu's is a native-only feature)".to_string())
            },
        )?;
    }
    Ok(Rasterizer { desc: r, bias_span })
}
