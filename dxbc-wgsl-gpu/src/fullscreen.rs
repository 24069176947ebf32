//! The full-screen vertex shader that feeds a bare pixel shader: used by GPU validation (a pixel
//! shader's pipeline without an effect file) and by the conformance runner's draws.

use std::fmt::Write as _;

/// A pass-through vertex shader (entry point `main`) drawing a full-screen triangle from
/// `vertex_index`, with every corner's clip-space `w` set to `w` (x and y scaled by it, so the
/// triangle covers the same pixels), writing zeros to every user location the pixel shader
/// `ps_wgsl` (entry point `ps_entry`) reads, with the pixel shader's interpolation and sampling
/// (wgpu compares both sides exactly).
///
/// # Errors
/// A pixel shader naga cannot read, or without that entry point.
pub fn fullscreen_vs(ps_wgsl: &str, ps_entry: &str, w: f32) -> Result<String, String> {
    let module = naga::front::wgsl::parse_str(ps_wgsl).map_err(|e| format!("re-parsing the pixel shader: {e}"))?;
    let ep = module
        .entry_points
        .iter()
        .find(|e| e.name == ps_entry)
        .ok_or_else(|| format!("entry point `{ps_entry}` not found"))?;
    let mut locations: Vec<(u32, String, String)> = Vec::new();
    let mut visit = |binding: &Option<naga::Binding>, ty: naga::Handle<naga::Type>| {
        if let Some(naga::Binding::Location { location, interpolation, sampling, .. }) = binding {
            let ty_text = wgsl_type(&module, ty);
            let mut attr = String::new();
            match interpolation {
                Some(naga::Interpolation::Flat) => attr.push_str("@interpolate(flat) "),
                Some(naga::Interpolation::Linear) => {
                    let _ = write!(attr, "@interpolate(linear{}) ", sampling_text(*sampling));
                }
                Some(naga::Interpolation::Perspective) | None => {
                    let _ = write!(attr, "@interpolate(perspective{}) ", sampling_text(*sampling));
                }
                Some(naga::Interpolation::PerVertex) => {}
            }
            locations.push((*location, attr, ty_text));
        }
    };
    for arg in &ep.function.arguments {
        if let naga::TypeInner::Struct { members, .. } = &module.types[arg.ty].inner {
            for m in members {
                visit(&m.binding, m.ty);
            }
        } else {
            visit(&arg.binding, arg.ty);
        }
    }
    locations.sort();
    let mut s = String::from("struct VsOut {\n    @builtin(position) position: vec4<f32>,\n");
    for (loc, attr, ty) in &locations {
        let _ = writeln!(s, "    @location({loc}) {attr}v{loc}: {ty},");
    }
    s.push_str(
        "}\n\n@vertex\nfn main(@builtin(vertex_index) i: u32) -> VsOut {\n    \
         var corners = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 3.0), vec2<f32>(3.0, -1.0));\n    \
         var o: VsOut;\n",
    );
    let _ = writeln!(s, "    o.position = vec4<f32>(corners[i] * {w:?}, 0.0, {w:?});");
    for (loc, _, ty) in &locations {
        let _ = writeln!(s, "    o.v{loc} = {ty}();");
    }
    s.push_str("    return o;\n}\n");
    Ok(s)
}

/// The sampling of `@interpolate(...)`, explicit: a pixel-shader input without attributes is
/// `perspective, center` in naga, and wgpu compares the sampling of both sides exactly, so the
/// vertex output must say `center` too.
fn sampling_text(s: Option<naga::Sampling>) -> &'static str {
    match s {
        Some(naga::Sampling::Centroid) => ", centroid",
        Some(naga::Sampling::Sample) => ", sample",
        Some(naga::Sampling::Center) => ", center",
        _ => "",
    }
}

fn wgsl_type(module: &naga::Module, ty: naga::Handle<naga::Type>) -> String {
    let scalar = |s: naga::Scalar| match s.kind {
        naga::ScalarKind::Sint => "i32",
        naga::ScalarKind::Uint => "u32",
        _ => "f32",
    };
    match module.types[ty].inner {
        naga::TypeInner::Vector { size, scalar: s } => format!("vec{}<{}>", size as u8, scalar(s)),
        naga::TypeInner::Scalar(s) => scalar(s).to_string(),
        _ => "vec4<f32>".to_string(),
    }
}
