//! A pixel shader whose `SV_PrimitiveID` shares its input register with other inputs, as
//! vkd3d-compiled HLSL packs it (`dcl_input_ps constant v1.x`, `v1.y`, then
//! `dcl_input_ps_sgv constant v1.z, primitive_id`), drawn without a geometry shader (the
//! rasterizer's primitive index) and behind one (the value the geometry shader wrote into the
//! same packed register), replayed through the conformance runner from a `test.json` of our own.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

#[path = "../tests/common/mod.rs"]
mod common;

use dxbc_wgsl_gpu::conformance::{self, Device, Record, Status};
use dxbc_wgsl_tests::asm::*;
use serde_json::{json, Value};

/// The pixel shader's marker in its output's `w`.
const MARK: u32 = 7;

/// What the geometry shader adds to `vPrim` before writing it as SV_PrimitiveID.
const GS_ID_BASE: u32 = 10;

/// `ps_4_0`: target 0 (uint) = `(v1.z, v1.x, v1.y, MARK)` with `v1.x` A and `v1.y` B
/// (floats, `constant`) and `v1.z` SV_PrimitiveID (`dcl_input_ps_sgv constant`).
fn pixel_shader() -> Vec<u8> {
    let inputs = [
        Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"),
        Element("A", 0, 0, 3, 1, "x"),
        Element("B", 0, 0, 3, 1, "y"),
        Element("SV_PrimitiveID", 0, NAME_PRIMITIVE_ID, 1, 1, "z"),
    ];
    let outputs = [Element("SV_Target", 0, 0, 1, 0, "xyzw")];
    let decls = [
        ins(DCL_INPUT_PS | (1 << 11), &[dst(INPUT, 1, "x")]),
        ins(DCL_INPUT_PS | (1 << 11), &[dst(INPUT, 1, "y")]),
        ins(DCL_INPUT_PS_SGV | (1 << 11), &[dst(INPUT, 1, "z"), vec![NAME_PRIMITIVE_ID]]),
        dcl_output(0, "xyzw", 0),
    ];
    let body =
        [ins(MOV, &[dst(OUTPUT, 0, "xyz"), src(INPUT, 1, "zxyy")]), ins(MOV, &[dst(OUTPUT, 0, "w"), imm([MARK; 4])])];
    shader(PS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// `vs_4_0`: `o0 = v0` (SV_Position from POSITION), `o1.xy = v1.xy` (A, B from ATTR).
fn vertex_shader() -> Vec<u8> {
    let inputs = [Element("POSITION", 0, 0, 3, 0, "xyzw"), Element("ATTR", 0, 0, 3, 1, "xy")];
    let outputs = [
        Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"),
        Element("A", 0, 0, 3, 1, "x"),
        Element("B", 0, 0, 3, 1, "y"),
    ];
    let decls = [
        dcl_vs_input(0, "xyzw", 0),
        dcl_vs_input(1, "xy", 0),
        dcl_output(0, "xyzw", NAME_POSITION),
        dcl_output(1, "x", 0),
        dcl_output(1, "y", 0),
    ];
    let body = [
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 0, "xyzw")]),
        ins(MOV, &[dst(OUTPUT, 1, "xy"), src(INPUT, 1, "xyxx")]),
    ];
    shader(VS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// `gs_4_0`: triangles in, each re-emitted as a strip with `o1.xy` = the vertex's A, B and
/// `o1.z` = SV_PrimitiveID `vPrim + GS_ID_BASE`, packed into one register as vkd3d packs it.
fn geometry_shader() -> Vec<u8> {
    let inputs = [
        Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"),
        Element("A", 0, 0, 3, 1, "x"),
        Element("B", 0, 0, 3, 1, "y"),
    ];
    let outputs = [
        Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"),
        Element("A", 0, 0, 3, 1, "x"),
        Element("B", 0, 0, 3, 1, "y"),
        Element("SV_PrimitiveID", 0, NAME_PRIMITIVE_ID, 1, 1, "z"),
    ];
    let decls = [
        dcl_input_primitive(3),
        dcl_output_topology(5),
        dcl_max_output(3),
        dcl_gs_input(3, 0, "xyzw", NAME_POSITION),
        dcl_gs_input(3, 1, "xy", 0),
        dcl_gs_system_input(INPUT_PRIMITIVE_ID),
        dcl_output(0, "xyzw", NAME_POSITION),
        dcl_output(1, "x", 0),
        dcl_output(1, "y", 0),
        dcl_output(1, "z", NAME_PRIMITIVE_ID),
    ];
    let mut body = vec![ins(IADD, &[dst(TEMP, 0, "x"), vec![1 | (INPUT_PRIMITIVE_ID << 12)], imm([GS_ID_BASE; 4])])];
    for vertex in 0..3 {
        body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src_vertex(vertex, 0, "xyzw")]));
        body.push(ins(MOV, &[dst(OUTPUT, 1, "xy"), src_vertex(vertex, 1, "xyxx")]));
        body.push(ins(MOV, &[dst(OUTPUT, 1, "z"), src(TEMP, 0, "xxxx")]));
        body.push(bare(EMIT));
    }
    body.push(bare(CUT));
    shader(GS_4_0, &inputs, &outputs, &decls, 1, &body)
}

/// Per triangle: its clip-space corners (texel `t` of a 2×1 target, and no other texel) and
/// its A and B.
fn triangles() -> [([[f32; 2]; 3], [f32; 2]); 2] {
    [([[-1.0, -1.0], [-1.0, 3.0], [0.5, -1.0]], [1.5, 2.5]), ([[1.0, -1.0], [1.0, 3.0], [-0.5, -1.0]], [3.5, 4.5])]
}

/// Runs a replay drawing [`triangles`] with `gs` or without, and probing each texel for
/// `(id, A, B, MARK)`, the id `t` (+ `GS_ID_BASE` behind the geometry shader).
fn replay(dev: &Device, with_gs: bool) -> Vec<Record> {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.path().join(name), bytes).expect("write blob");
    write("vs.dxbc", &vertex_shader());
    write("gs.dxbc", &geometry_shader());
    write("ps.dxbc", &pixel_shader());
    let mut data = Vec::new();
    for (corners, ab) in triangles() {
        for [x, y] in corners {
            data.extend([x, y, 0.0, 1.0, ab[0], ab[1]].map(f32::to_bits));
        }
    }
    let mut shaders = json!({"vs": {"dxbc": "vs.dxbc"}, "ps": {"dxbc": "ps.dxbc"}});
    if with_gs {
        shaders["gs"] = json!({"dxbc": "gs.dxbc"});
    }
    let mut events: Vec<Value> = vec![
        json!({"op": "resource", "type": "rtv", "slot": 0, "format": "r32g32b32a32-uint", "texel_size": 16,
            "dimension": "2d", "kind": "2d", "width": 2, "height": 1, "depth": 1, "layers": 1, "levels": 1,
            "samples": 0, "data_u32": []}),
        json!({"op": "resource", "type": "vb", "slot": 0, "format": null, "texel_size": 0, "dimension": "buffer",
            "kind": null, "width": data.len() * 4, "data_u32": data}),
        json!({"op": "input_layout", "elements": [
            {"slot": 0, "format": "r32g32b32a32-float", "texel_size": 16, "semantic": "position", "semantic_index": 0},
            {"slot": 0, "format": "r32g32-float", "texel_size": 8, "semantic": "attr", "semantic_index": 0}]}),
        json!({"op": "draw", "topology": "triangle list", "vertex_count": 6, "instance_count": 1, "shaders": shaders}),
    ];
    let base = if with_gs { GS_ID_BASE } else { 0 };
    for (t, (_, [a, b])) in triangles().into_iter().enumerate() {
        let t = t as u32;
        events.push(json!({"op": "probe", "target": {"type": "rtv", "slot": 0}, "rect": [t, 0, t + 1, 1],
            "array_layer": 0, "kind": "u32", "components": 4,
            "expected": [base + t, a.to_bits(), b.to_bits(), MARK]}));
    }
    for (i, e) in events.iter_mut().enumerate() {
        e["line"] = json!(i + 1);
    }
    let test = json!({
        "schema": "vkd3d-shader-test-corpus/1",
        "runs": [{"name": "sm4", "runner_min_model": "4.0", "runner_max_model": "5.0", "events": events}],
    });
    std::fs::write(dir.path().join("test.json"), test.to_string()).expect("write test.json");
    let cases = conformance::discover(&[dir.path().to_path_buf()]).expect("discover");
    let report = conformance::run(dev, &cases, |_, _| {});
    assert!(report.input_errors.is_empty(), "{:?}", report.input_errors);
    report.records
}

fn assert_all_passed(records: &[Record], count: usize) {
    let bad: Vec<String> =
        records.iter().filter(|r| r.status != Status::Passed).map(|r| format!("{}: {}", r.case, r.reason)).collect();
    assert!(bad.is_empty(), "{} of {} probes did not pass:\n{}", bad.len(), records.len(), bad.join("\n"));
    assert_eq!(records.len(), count);
}

/// Without a geometry shader: SV_PrimitiveID is the rasterizer's primitive index, the packed
/// A and B the vertex shader's outputs.
#[test]
fn packed_primitive_id_without_a_geometry_shader() {
    let Some(dev) = common::device("packed_primitive_id_without_a_geometry_shader") else { return };
    assert_all_passed(&replay(&dev, false), 2);
}

/// Behind a geometry shader: SV_PrimitiveID is what the geometry shader wrote into `o1.z`,
/// beside A and B in `o1.xy`.
#[test]
fn packed_primitive_id_behind_a_geometry_shader() {
    let Some(dev) = common::device("packed_primitive_id_behind_a_geometry_shader") else { return };
    assert_all_passed(&replay(&dev, true), 2);
}

/// The translations: the pixel shader qualifies both ways (no refusal).
#[test]
fn packed_primitive_id_translates() {
    let ps = pixel_shader();
    for behind_geometry in [false, true] {
        let options = dxbc_wgsl::TranslateOptions { behind_geometry, ..Default::default() };
        if let Err(e) = dxbc_wgsl::translate(&ps, &options) {
            panic!("behind_geometry {behind_geometry}: {e}");
        }
    }
}
