//! The shaders of the stream-output tests (`tests/execution/stream_output_shaders.rs`) and of
//! `tests/effects/stream_output.effect.toml` (`tests/bindings/stream_output_pass.rs`): a vertex
//! shader passing a position and data on, a pixel shader writing the data, a triangle-strip
//! geometry shader with cuts, and a point geometry shader emitting on streams 0-3
//! (docs/stream-output.md).

use crate::asm::*;

/// The render target's width and height the point shader's offsets assume (pixels).
pub const W: u32 = 16;
/// The strip shader's marker in `o1.w`.
pub const MARK: u32 = 0x5EED_0000;

/// `vs_4_0`: `o0 = v0` (SV_Position from POSITION), `o1 = (v1.xyz, SV_VertexID)` (DATA, uint).
pub fn vs_blob() -> Vec<u8> {
    let inputs = [
        Element("POSITION", 0, 0, 3, 0, "xyzw"),
        Element("DATA", 0, 0, 1, 1, "xyzw"),
        Element("SV_VertexID", 0, NAME_VERTEX_ID, 1, 2, "x"),
    ];
    let outputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element("DATA", 0, 0, 1, 1, "xyzw")];
    let decls = [
        dcl_vs_input(0, "xyzw", 0),
        dcl_vs_input(1, "xyzw", 0),
        dcl_vs_input(2, "x", NAME_VERTEX_ID),
        dcl_output(0, "xyzw", NAME_POSITION),
        dcl_output(1, "xyzw", 0),
    ];
    let body = [
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 0, "xyzw")]),
        ins(MOV, &[dst(OUTPUT, 1, "xyz"), src(INPUT, 1, "xyzx")]),
        ins(MOV, &[dst(OUTPUT, 1, "w"), src(INPUT, 2, "xxxx")]),
    ];
    shader(VS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// `ps_4_0`: `SV_Target0 = v1` (DATA, flat).
pub fn ps_blob() -> Vec<u8> {
    let inputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element("DATA", 0, 0, 1, 1, "xyzw")];
    let outputs = [Element("SV_Target", 0, 0, 1, 0, "xyzw")];
    let decls = [dcl_input_ps_flat(1, "xyzw"), dcl_output(0, "xyzw", 0)];
    let body = [ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 1, "xyzw")])];
    shader(PS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// The strip geometry shader's vertex offsets from its input point.
pub const STRIP_OFFSETS: [[f32; 2]; 7] =
    [[0.0, 0.0], [0.25, 0.0], [0.0, 0.25], [0.25, 0.25], [0.5, 0.0], [0.5, 0.25], [0.75, 0.0]];

/// `gs_4_0`, points in, a triangle strip out: vertex `k` of 7 at the point plus
/// `STRIP_OFFSETS[k]` with `o1 = (v[0][1].x, k, vPrim, MARK)`, a cut after each vertex in
/// `cuts`; `dcl_maxout max_out`.
pub fn strip_gs(max_out: u32, cuts: &[u32]) -> Vec<u8> {
    let signature = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element("DATA", 0, 0, 1, 1, "xyzw")];
    let decls = [
        dcl_input_primitive(1),
        dcl_output_topology(5),
        dcl_max_output(max_out),
        dcl_gs_input(1, 0, "xyzw", NAME_POSITION),
        dcl_gs_input(1, 1, "xyzw", 0),
        dcl_gs_system_input(INPUT_PRIMITIVE_ID),
        dcl_output(0, "xyzw", NAME_POSITION),
        dcl_output(1, "xyzw", 0),
    ];
    let mut body = Vec::new();
    for (k, [x, y]) in STRIP_OFFSETS.iter().enumerate() {
        body.push(ins(ADD, &[dst(OUTPUT, 0, "xy"), src_vertex(0, 0, "xyxx"), imm([x.to_bits(), y.to_bits(), 0, 0])]));
        body.push(ins(MOV, &[dst(OUTPUT, 0, "zw"), src_vertex(0, 0, "xxzw")]));
        body.push(ins(MOV, &[dst(OUTPUT, 1, "x"), src_vertex(0, 1, "xxxx")]));
        body.push(ins(MOV, &[dst(OUTPUT, 1, "yw"), imm([0, k as u32, 0, MARK])]));
        body.push(ins(MOV, &[dst(OUTPUT, 1, "z"), scalar_input(INPUT_PRIMITIVE_ID)]));
        body.push(bare(EMIT));
        if cuts.contains(&(k as u32)) {
            body.push(bare(CUT));
        }
    }
    shader(GS_4_0, &signature, &signature, &decls, 0, &body)
}

/// The streams of the point geometry shader's emits, in order.
pub const POINT_STREAMS: [u32; 7] = [0, 1, 2, 3, 1, 3, 0];

/// `gs_5_0`, points in, points out on streams 0-3 (`dcl_stream m0..m3`, an `OSG5` signature
/// with SV_Position in o0 and DATA in o1 for each): emit `k` to stream `POINT_STREAMS[k]` at
/// the point moved `k` pixels right, `o1 = (v[0][1].x, stream, k, vPrim)`; a `cut_stream m1`
/// after the first emit of stream 1 (nothing for points); `dcl_maxout 6`, so the seventh emit
/// (stream 0's second) is dropped: the emits of stream 3, which nothing keeps, count too.
pub fn point_streams_gs() -> Vec<u8> {
    let inputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element("DATA", 0, 0, 1, 1, "xyzw")];
    let mut outputs = Vec::new();
    let mut decls = vec![dcl_input_primitive(1)];
    for s in 0..4 {
        outputs.push((s, Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw")));
        outputs.push((s, Element("DATA", 0, 0, 1, 1, "xyzw")));
        decls.push(with_stream(DCL_STREAM, s));
        decls.push(dcl_output_topology(1));
        decls.push(dcl_output(0, "xyzw", NAME_POSITION));
        decls.push(dcl_output(1, "xyzw", 0));
    }
    decls.extend([
        dcl_max_output(6),
        dcl_gs_input(1, 0, "xyzw", NAME_POSITION),
        dcl_gs_input(1, 1, "xyzw", 0),
        dcl_gs_system_input(INPUT_PRIMITIVE_ID),
    ]);
    let mut body = Vec::new();
    let mut cut = false;
    for (k, &s) in POINT_STREAMS.iter().enumerate() {
        let dx = 2.0 / W as f32 * k as f32;
        body.push(ins(ADD, &[dst(OUTPUT, 0, "x"), src_vertex(0, 0, "xxxx"), imm([dx.to_bits(); 4])]));
        body.push(ins(MOV, &[dst(OUTPUT, 0, "yzw"), src_vertex(0, 0, "xyzw")]));
        body.push(ins(MOV, &[dst(OUTPUT, 1, "x"), src_vertex(0, 1, "xxxx")]));
        body.push(ins(MOV, &[dst(OUTPUT, 1, "yz"), imm([0, s, k as u32, 0])]));
        body.push(ins(MOV, &[dst(OUTPUT, 1, "w"), scalar_input(INPUT_PRIMITIVE_ID)]));
        body.push(with_stream(EMIT_STREAM, s));
        if s == 1 && !cut {
            body.push(with_stream(CUT_STREAM, 1));
            cut = true;
        }
    }
    shader_streams(GS_5_0, &inputs, &outputs, &decls, 0, &body)
}

/// The blobs by file name, as `tests/fixtures/stream_output/` holds them.
pub fn blobs() -> [(&'static str, Vec<u8>); 4] {
    [
        ("So_VS.dxbc", vs_blob()),
        ("So_PS.dxbc", ps_blob()),
        ("So_Strip_GS.dxbc", strip_gs(7, &[2])),
        ("So_Points_GS.dxbc", point_streams_gs()),
    ]
}
