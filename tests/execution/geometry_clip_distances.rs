//! A geometry shader writing `SV_ClipDistance` (packed with an `SV_CullDistance` in one
//! register): the draw of its output clips against each distance exactly as a vertex shader's
//! would (the draw's vertex shader writes them to `clip_distances`), replayed through the
//! conformance runner from a `test.json` of our own.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

#[path = "../tests/common/mod.rs"]
mod common;

use dxbc_wgsl_gpu::conformance::{self, Record, Status};
use dxbc_wgsl_tests::asm::*;
use dxbc_wgsl_tests::sample_fixture::position_vs;
use serde_json::{json, Value};

/// `D3D_NAME_CLIP_DISTANCE`, `D3D_NAME_CULL_DISTANCE`.
const NAME_CLIP_DISTANCE: u32 = 2;
const NAME_CULL_DISTANCE: u32 = 3;

const COLOUR: [f32; 4] = [0.25, 0.5, 0.75, 1.0];

/// `gs_4_0`: triangles in, re-emitted as a strip with `o1.xy` SV_ClipDistance0 = the vertex's
/// clip-space (x, y) (so only x ≥ 0 and y ≥ 0, the top-right quarter, is kept) and, `with_cull`,
/// `o1.z` SV_CullDistance0 = 1 (culls nothing).
fn geometry_shader_of(with_cull: bool) -> Vec<u8> {
    let inputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw")];
    let mut outputs = vec![
        Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"),
        Element("SV_ClipDistance", 0, NAME_CLIP_DISTANCE, 3, 1, "xy"),
    ];
    let mut decls = vec![
        dcl_input_primitive(3),
        dcl_output_topology(5),
        dcl_max_output(3),
        dcl_gs_input(3, 0, "xyzw", NAME_POSITION),
        dcl_output(0, "xyzw", NAME_POSITION),
        dcl_output(1, "xy", NAME_CLIP_DISTANCE),
    ];
    if with_cull {
        outputs.push(Element("SV_CullDistance", 0, NAME_CULL_DISTANCE, 3, 1, "z"));
        decls.push(dcl_output(1, "z", NAME_CULL_DISTANCE));
    }
    let mut body = Vec::new();
    for vertex in 0..3 {
        body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src_vertex(vertex, 0, "xyzw")]));
        body.push(ins(MOV, &[dst(OUTPUT, 1, "xy"), src_vertex(vertex, 0, "xyxx")]));
        if with_cull {
            body.push(ins(MOV, &[dst(OUTPUT, 1, "z"), imm([1.0f32.to_bits(); 4])]));
        }
        body.push(bare(EMIT));
    }
    body.push(bare(CUT));
    shader(GS_4_0, &inputs, &outputs, &decls, 0, &body)
}

fn geometry_shader() -> Vec<u8> {
    geometry_shader_of(true)
}

/// Replays a full-screen quad through [`geometry_shader`] into a 4×4 target cleared to zero.
fn replay(dev: &conformance::Device) -> Vec<Record> {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.path().join(name), bytes).expect("write blob");
    write("vs.dxbc", &position_vs());
    write("gs.dxbc", &geometry_shader());
    let ps = pixel_shader_with(
        0x40,
        &[],
        &[],
        0,
        &[ins(MOV, &[dst(OUTPUT, 0, "xyzw"), imm(COLOUR.map(f32::to_bits))])],
        false,
    );
    write("ps.dxbc", &ps);
    let zero = ["0x00000000"; 4];
    let mut events: Vec<Value> = vec![
        json!({"op": "resource", "type": "rtv", "slot": 0, "format": "r32g32b32a32-float", "texel_size": 16,
            "dimension": "2d", "kind": "2d", "width": 4, "height": 4, "depth": 1, "layers": 1, "levels": 1,
            "samples": 0, "data_u32": []}),
        json!({"op": "clear_rtv", "slot": 0, "value": [0.0, 0.0, 0.0, 0.0], "value_bits": zero}),
        json!({"op": "draw_quad", "shaders": {"vs": {"dxbc": "vs.dxbc"}, "gs": {"dxbc": "gs.dxbc"},
            "ps": {"dxbc": "ps.dxbc"}}}),
    ];
    let probe = |rect: [u32; 4], v: [f32; 4]| {
        json!({"op": "probe", "target": {"type": "rtv", "slot": 0}, "rect": rect, "array_layer": 0,
            "kind": "f32", "components": 4, "expected": v,
            "expected_bits": v.iter().map(|x| format!("0x{:08x}", x.to_bits())).collect::<Vec<_>>(), "ulps": 0})
    };
    // Top-right kept; top-left (x < 0), bottom-right (y < 0), bottom-left clipped.
    events.push(probe([2, 0, 4, 2], COLOUR));
    events.push(probe([0, 0, 2, 2], [0.0; 4]));
    events.push(probe([2, 2, 4, 4], [0.0; 4]));
    events.push(probe([0, 2, 2, 4], [0.0; 4]));
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

/// Each clip distance clips the draw of the geometry shader's output.
#[test]
fn geometry_shader_clip_distances_clip_the_draw() {
    let Some(dev) = common::device("geometry_shader_clip_distances_clip_the_draw") else { return };
    let records = replay(&dev);
    let bad: Vec<String> =
        records.iter().filter(|r| r.status != Status::Passed).map(|r| format!("{}: {}", r.case, r.reason)).collect();
    assert!(bad.is_empty(), "{} of {} probes did not pass:\n{}", bad.len(), records.len(), bad.join("\n"));
    assert_eq!(records.len(), 4);
}

/// The translations: the geometry shader qualifies; the draw's vertex shader writes two clip
/// distances and needs the `clip-distances` feature.
#[test]
fn geometry_shader_clip_distances_translate() {
    let gs = dxbc_wgsl::translate(&geometry_shader(), &Default::default()).expect("geometry shader");
    let draw = dxbc_wgsl::geometry_draw_vertex_shader(&gs, &[]).expect("draw vertex shader");
    assert!(draw.wgsl.contains("@builtin(clip_distances) clip: array<f32, 2>"), "{}", draw.wgsl);
    assert_eq!(draw.required_features, vec![dxbc_wgsl::WebGpuFeature::ClipDistances]);
    // With stream output (stream 0 drawn and streamed out): the clip-distance register is an
    // output register like any other, and the draw still clips.
    let streams = dxbc_wgsl::geometry::GeometryStreams { rasterized: Some(0), stream_out: 1 };
    let options = dxbc_wgsl::TranslateOptions { geometry_streams: streams, ..Default::default() };
    let gs = dxbc_wgsl::translate(&geometry_shader_of(false), &options).expect("with stream output");
    let draw = dxbc_wgsl::geometry_draw_vertex_shader(&gs, &[]).expect("draw vertex shader");
    assert!(draw.wgsl.contains("@builtin(clip_distances) clip: array<f32, 2>"), "{}", draw.wgsl);
}
