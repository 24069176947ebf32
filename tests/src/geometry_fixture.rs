//! The shaders of `tests/effects/geometry.effect.toml`, assembled here (`tests/fixtures/geometry/`
//! holds the blobs; `bindings/geometry_pass.rs` checks they are current): a vertex shader with a
//! per-instance offset, a geometry shader that expands each point into a quad of a size from its
//! constant buffer, and a pixel shader that writes the colour it reads.

use crate::asm::*;

/// `vs_4_0`: `o0 = float4(v0.xy + v2.xy, v0.zw)` (SV_Position: POSITION plus the instance's
/// TEXCOORD offset), `o1 = v1` (COLOR).
pub fn vertex_shader() -> Vec<u8> {
    let inputs = [
        Element("POSITION", 0, 0, 3, 0, "xyzw"),
        Element("COLOR", 0, 0, 3, 1, "xyzw"),
        Element("TEXCOORD", 0, 0, 3, 2, "xy"),
    ];
    let outputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element("COLOR", 0, 0, 3, 1, "xyzw")];
    let decls = [
        dcl_vs_input(0, "xyzw", 0),
        dcl_vs_input(1, "xyzw", 0),
        dcl_vs_input(2, "xy", 0),
        dcl_output(0, "xyzw", NAME_POSITION),
        dcl_output(1, "xyzw", 0),
    ];
    let body = [
        ins(ADD, &[dst(OUTPUT, 0, "xy"), src(INPUT, 0, "xyxx"), src(INPUT, 2, "xyxx")]),
        ins(MOV, &[dst(OUTPUT, 0, "zw"), src(INPUT, 0, "xxzw")]),
        ins(MOV, &[dst(OUTPUT, 1, "xyzw"), src(INPUT, 1, "xyzw")]),
    ];
    shader(VS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// The corners of the quad, in the order of the triangle strip the geometry shader emits.
pub const CORNERS: [[f32; 2]; 4] = [[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]];

/// `gs_4_0`: points in, a four-vertex triangle strip out per point: corner `c` at
/// `v[0][0].xy + cb0[0].xy * c` (cb0[0].xy: the quad's half size in clip space), the point's
/// COLOR on every vertex.
pub fn geometry_shader() -> Vec<u8> {
    let signature = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element("COLOR", 0, 0, 3, 1, "xyzw")];
    let decls = [
        vec![DCL_CONSTANT_BUFFER | (4 << 24), 0x0020_8e46, 0, 1],
        dcl_input_primitive(1),
        dcl_output_topology(5),
        dcl_max_output(4),
        dcl_gs_input(1, 0, "xyzw", NAME_POSITION),
        dcl_gs_input(1, 1, "xyzw", 0),
        dcl_output(0, "xyzw", NAME_POSITION),
        dcl_output(1, "xyzw", 0),
    ];
    let mut body = Vec::new();
    for [x, y] in CORNERS {
        body.push(ins(MUL, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyxx"), imm([x.to_bits(), y.to_bits(), 0, 0])]));
        body.push(ins(ADD, &[dst(OUTPUT, 0, "xy"), src(TEMP, 0, "xyxx"), src_vertex(0, 0, "xyxx")]));
        body.push(ins(MOV, &[dst(OUTPUT, 0, "zw"), src_vertex(0, 0, "xxzw")]));
        body.push(ins(MOV, &[dst(OUTPUT, 1, "xyzw"), src_vertex(0, 1, "xyzw")]));
        body.push(bare(EMIT));
    }
    shader(GS_4_0, &signature, &signature, &decls, 1, &body)
}

/// `ps_4_0`: `SV_Target0 = v1` (COLOR, linear).
pub fn pixel_shader() -> Vec<u8> {
    let inputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element("COLOR", 0, 0, 3, 1, "xyzw")];
    let outputs = [Element("SV_Target", 0, 0, 3, 0, "xyzw")];
    let decls = [ins(DCL_INPUT_PS | (2 << 11), &[dst(INPUT, 1, "xyzw")]), dcl_output(0, "xyzw", 0)];
    let body = [ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 1, "xyzw")])];
    shader(PS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// The blobs by file name, as `tests/fixtures/geometry/` holds them.
pub fn blobs() -> [(&'static str, Vec<u8>); 3] {
    [("Expand_VS.dxbc", vertex_shader()), ("Expand_GS.dxbc", geometry_shader()), ("Expand_PS.dxbc", pixel_shader())]
}
