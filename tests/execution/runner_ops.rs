//! Every op of the vkd3d-shader-tests schema (`../shared/corpus/vkd3d-shader-tests/README.md`)
//! replayed through the conformance runner (`dxbc_wgsl_gpu::conformance`) from a hand-written
//! `test.json` of our own, with shaders from the project's assembler: one test per op, each
//! checking what the op does (a probe that passes only when it took effect, or the skip it
//! causes), and an op the schema does not have is a failure naming it.
//!
//! Ops: `require`, `shader`, `resource`, `sampler`, `input_layout`, `uniform`, `draw_quad`,
//! `draw`, `dispatch`, `probe`, `clear_rtv`, `clear_dsv`, `depth_func`, `depth_bounds`, `copy`,
//! `sample_mask`, `viewport`, `clip_plane`, `alpha_test`, `shade_mode`, `point_size`,
//! `point_sprite`, `fog`, `fog_colour`.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

#[path = "../tests/common/mod.rs"]
mod common;

use dxbc_wgsl_gpu::conformance::{self, Device, Record, Report, SkipReason, Status};
use dxbc_wgsl_tests::asm::*;
use dxbc_wgsl_tests::layered_fixture::{self, MARK, NAME_VIEWPORT_ARRAY_INDEX};
use dxbc_wgsl_tests::sample_fixture::position_vs;
use serde_json::{json, Value};

/// One test at a time on the GPU: 26 devices created at once hung the NVIDIA driver (H100,
/// 580.159.04) where lavapipe runs them all.
static GPU: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The device, with the GPU held until the test ends (see [`GPU`]).
fn device(test: &str) -> Option<(std::sync::MutexGuard<'static, ()>, Device)> {
    let gpu = GPU.lock().unwrap_or_else(|e| e.into_inner());
    common::device(test).map(|dev| (gpu, dev))
}

/// A replay being written: its folder, blobs and events.
struct Replay {
    dir: tempfile::TempDir,
    events: Vec<Value>,
    vs: String,
}

impl Replay {
    fn new() -> Self {
        let mut r = Replay { dir: tempfile::tempdir().expect("temp dir"), events: Vec::new(), vs: String::new() };
        r.vs = r.blob("vs.dxbc", &position_vs());
        r
    }

    fn blob(&self, name: &str, bytes: &[u8]) -> String {
        std::fs::write(self.dir.path().join(name), bytes).expect("write blob");
        name.to_string()
    }

    /// Appends an event at the next line.
    fn event(&mut self, mut e: Value) {
        e["line"] = json!(self.events.len() + 1);
        self.events.push(e);
    }

    /// A 2D texture resource (`rtv`, `srv`, `uav`, `dsv`) of `format`.
    fn texture(&mut self, ty: &str, slot: u32, format: &str, size: (u32, u32), samples: u32, data: Vec<u32>) {
        let texel_size = match format {
            f if f.starts_with("r32g32b32a32") => 16,
            f if f.starts_with("r32g32") => 8,
            _ => 4,
        };
        self.event(json!({
            "op": "resource", "type": ty, "slot": slot, "format": format, "texel_size": texel_size,
            "dimension": "2d", "kind": if samples > 0 { "2dms" } else { "2d" }, "width": size.0,
            "height": size.1, "depth": 1, "layers": 1, "levels": 1, "samples": samples, "data_u32": data,
        }));
    }

    /// A raw buffer (`ByteAddressBuffer`/`RWByteAddressBuffer`) of these words.
    fn raw_buffer(&mut self, ty: &str, slot: u32, data: Vec<u32>) {
        self.event(json!({
            "op": "resource", "type": ty, "slot": slot, "format": "r32-typeless", "texel_size": 4,
            "dimension": "buffer", "kind": "raw_buffer", "width": data.len(), "height": 1, "depth": 1,
            "layers": 1, "levels": 1, "samples": 0, "raw": true, "data_u32": data,
        }));
    }

    fn draw_quad(&mut self, ps: &str) {
        let vs = self.vs.clone();
        self.event(json!({"op": "draw_quad", "shaders": {"vs": {"dxbc": vs}, "ps": {"dxbc": ps}}}));
    }

    /// A probe of `target` (`rtv`, `dsv`, `uav`) `slot` over `rect` expecting these f32s.
    fn probe_f32(&mut self, target: (&str, u32), rect: [u32; 4], values: &[f32]) {
        self.event(json!({
            "op": "probe", "target": {"type": target.0, "slot": target.1}, "rect": rect, "array_layer": 0,
            "kind": "f32", "components": values.len(), "expected": values,
            "expected_bits": values.iter().map(|v| format!("0x{:08x}", v.to_bits())).collect::<Vec<_>>(),
            "ulps": 0,
        }));
    }

    fn probe_u32(&mut self, target: (&str, u32), rect: [u32; 4], values: &[u32]) {
        self.event(json!({
            "op": "probe", "target": {"type": target.0, "slot": target.1}, "rect": rect, "array_layer": 0,
            "kind": "u32", "components": values.len(), "expected": values,
        }));
    }

    /// Runs the replay: its report (records and input errors).
    fn report(&self, dev: &Device) -> Report {
        let test = json!({
            "schema": "vkd3d-shader-test-corpus/1",
            "runs": [{"name": "sm4", "runner_min_model": "4.0", "runner_max_model": "5.0", "events": self.events}],
        });
        std::fs::write(self.dir.path().join("test.json"), test.to_string()).expect("write test.json");
        let cases = conformance::discover(&[self.dir.path().to_path_buf()]).expect("discover");
        assert_eq!(cases.len(), 1);
        conformance::run(dev, &cases, |_, _| {})
    }

    /// Runs the replay; returns its records (no input errors allowed).
    fn run(&self, dev: &Device) -> Vec<Record> {
        let report = self.report(dev);
        assert!(report.input_errors.is_empty(), "{:?}", report.input_errors);
        report.records
    }
}

/// Every record passed, and there are `count`.
fn assert_all_passed(records: &[Record], count: usize) {
    let bad: Vec<String> =
        records.iter().filter(|r| r.status != Status::Passed).map(|r| format!("{}: {}", r.case, r.reason)).collect();
    assert!(bad.is_empty(), "{} of {} probes did not pass:\n{}", bad.len(), records.len(), bad.join("\n"));
    assert_eq!(records.len(), count);
}

/// Statuses of the records, in order.
fn statuses(records: &[Record]) -> Vec<Status> {
    records.iter().map(|r| r.status).collect()
}

/// `ps_4_0` writing the constant `value` (bits) to `o0`, of a float or uint output.
fn constant_ps(value: [u32; 4], uint_output: bool) -> Vec<u8> {
    pixel_shader_with(0x40, &[], &[], 0, &[ins(MOV, &[dst(OUTPUT, 0, "xyzw"), imm(value)])], uint_output)
}

fn f(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// A pixel shader writing (0.25, 0.5, 0.75, 1.0).
fn colour_ps(r: &Replay) -> String {
    r.blob("colour.dxbc", &constant_ps(f(COLOUR), false))
}

const COLOUR: [f32; 4] = [0.25, 0.5, 0.75, 1.0];

/// `require`: a block whose caps the runner lacks (`int64`) skips its test commands until the
/// next `require`; a later block without them runs again.
#[test]
fn op_require() {
    let Some((_gpu, dev)) = device("op_require") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    r.texture("rtv", 0, "r32g32b32a32-float", (4, 4), 0, Vec::new());
    r.event(json!({"op": "require", "required_min": "4.0", "required_max": null, "model": "4.0",
        "model_range_ok": true, "caps": ["int64"], "format_caps": [], "options": []}));
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 4, 4], &COLOUR);
    r.event(json!({"op": "require", "required_min": null, "required_max": null, "model": "4.0",
        "model_range_ok": true, "caps": [], "format_caps": [], "options": []}));
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 4, 4], &COLOUR);
    let records = r.run(&dev);
    assert_eq!(statuses(&records), [Status::Skipped, Status::Passed], "{records:?}");
    assert!(matches!(&records[0].skip, Some(SkipReason::Capability { capability }) if capability.contains("int64")));
}

/// `shader`: informational; the draw names its blobs.
#[test]
fn op_shader() {
    let Some((_gpu, dev)) = device("op_shader") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    r.event(json!({"op": "shader", "shader": "L1", "stage": "ps", "profile": "ps_4_0", "expected": "ok",
        "status": "compiled", "dxbc": ps}));
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 640, 480], &COLOUR);
    assert_all_passed(&r.run(&dev), 1);
}

/// `resource`: an SRV's initial data (`ld` of texel (1, 1) of a 2×2 texture), replaced by a
/// second `resource` of the same type and slot.
#[test]
fn op_resource() {
    let Some((_gpu, dev)) = device("op_resource") else { return };
    let mut r = Replay::new();
    let decls = [vec![DCL_RESOURCE | (TEXTURE2D << 11) | (4 << 24), 0x0010_7000, 0, 0x4444]];
    let body = [ins(LD, &[dst(OUTPUT, 0, "xyzw"), imm([1, 1, 0, 0]), src(RESOURCE, 0, "xyzw")])];
    let ps = r.blob("ld.dxbc", &pixel_shader_with(0x40, &decls, &[], 0, &body, true));
    r.texture("rtv", 0, "r32g32b32a32-uint", (2, 2), 0, Vec::new());
    let texels = |base: u32| (0..16).map(|i| base + i).collect::<Vec<u32>>();
    r.texture("srv", 0, "r32g32b32a32-uint", (2, 2), 0, texels(100));
    r.draw_quad(&ps);
    r.probe_u32(("rtv", 0), [0, 0, 2, 2], &[112, 113, 114, 115]);
    r.texture("srv", 0, "r32g32b32a32-uint", (2, 2), 0, texels(200));
    r.draw_quad(&ps);
    r.probe_u32(("rtv", 0), [0, 0, 2, 2], &[212, 213, 214, 215]);
    assert_all_passed(&r.run(&dev), 2);
}

/// `sampler`: address modes and filters of `s0`. A 2×1 texture (0, 1) sampled at u = 1.25
/// (point): `wrap` reads texel 0, `clamp` texel 1; at u = 0.5, `linear` averages the two.
#[test]
fn op_sampler() {
    let Some((_gpu, dev)) = device("op_sampler") else { return };
    let mut r = Replay::new();
    let sample_at = |u: f32| {
        let decls = [
            vec![DCL_RESOURCE | (TEXTURE2D << 11) | (4 << 24), 0x0010_7000, 0, 0x5555],
            vec![DCL_SAMPLER | (3 << 24), (SAMPLER << 12) | (1 << 20), 0],
        ];
        let body = [ins(
            SAMPLE_L,
            &[
                dst(OUTPUT, 0, "xyzw"),
                imm(f([u, 0.5, 0.0, 0.0])),
                src(RESOURCE, 0, "xyzw"),
                vec![(SAMPLER << 12) | (1 << 20), 0],
                imm([0; 4]),
            ],
        )];
        pixel_shader_with(0x40, &decls, &[], 0, &body, false)
    };
    let far = r.blob("far.dxbc", &sample_at(1.25));
    let middle = r.blob("middle.dxbc", &sample_at(0.5));
    r.texture("rtv", 0, "r32g32b32a32-float", (1, 1), 0, Vec::new());
    let texel = |v: f32| [v.to_bits(), 0, 0, 1.0f32.to_bits()];
    r.texture("srv", 0, "r32g32b32a32-float", (2, 1), 0, [texel(0.0), texel(1.0)].concat());
    let sampler = |filter: &str, address: &str| {
        json!({"op": "sampler", "slot": 0, "filter": {"min": filter, "mag": filter, "mip": "point"},
            "address": {"u": address, "v": address, "w": address}, "comparison": null})
    };
    r.event(sampler("point", "wrap"));
    r.draw_quad(&far);
    r.probe_f32(("rtv", 0), [0, 0, 1, 1], &[0.0, 0.0, 0.0, 1.0]);
    r.event(sampler("point", "clamp"));
    r.draw_quad(&far);
    r.probe_f32(("rtv", 0), [0, 0, 1, 1], &[1.0, 0.0, 0.0, 1.0]);
    r.event(sampler("linear", "clamp"));
    r.draw_quad(&middle);
    r.probe_f32(("rtv", 0), [0, 0, 1, 1], &[0.5, 0.0, 0.0, 1.0]);
    assert_all_passed(&r.run(&dev), 3);
}

/// Vertex data: (x, y) pairs as words.
fn positions(points: &[[f32; 2]]) -> Vec<u32> {
    points.iter().flat_map(|p| p.map(f32::to_bits)).collect()
}

fn vertex_buffer(r: &mut Replay, slot: u32, data: Vec<u32>) {
    r.event(json!({"op": "resource", "type": "vb", "slot": slot, "format": null, "texel_size": 0,
        "dimension": "buffer", "kind": null, "width": data.len() * 4, "data_u32": data}));
}

/// `input_layout`: the vertex shader's POSITION comes from the element that names it (the
/// second of slot 0, at byte 8 of a 16-byte vertex), not from the first.
#[test]
fn op_input_layout() {
    let Some((_gpu, dev)) = device("op_input_layout") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    r.texture("rtv", 0, "r32g32b32a32-float", (4, 4), 0, Vec::new());
    // Per vertex: (junk x, junk y) then the position: the left half of the target only.
    let left = [[-1.0, -1.0], [-1.0, 1.0], [0.0, -1.0], [0.0, 1.0]];
    let junk = [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]];
    let data: Vec<u32> = (0..4).flat_map(|i| positions(&[junk[i], left[i]])).collect();
    vertex_buffer(&mut r, 0, data);
    r.event(json!({"op": "input_layout", "elements": [
        {"slot": 0, "format": "r32g32-float", "texel_size": 8, "semantic": "texcoord", "semantic_index": 0},
        {"slot": 0, "format": "r32g32-float", "texel_size": 8, "semantic": "position", "semantic_index": 0}]}));
    let vs = r.vs.clone();
    r.event(json!({"op": "draw", "topology": "triangle strip", "vertex_count": 4, "instance_count": 1,
        "shaders": {"vs": {"dxbc": vs}, "ps": {"dxbc": ps}}}));
    r.probe_f32(("rtv", 0), [0, 0, 2, 4], &COLOUR);
    r.probe_f32(("rtv", 0), [2, 0, 4, 4], &[0.0; 4]);
    assert_all_passed(&r.run(&dev), 2);
}

/// `uniform`: words at word offsets of cb0; the buffer grows to a multiple of 4 words, new
/// words filled with the bytes 0x7f.
#[test]
fn op_uniform() {
    let Some((_gpu, dev)) = device("op_uniform") else { return };
    let mut r = Replay::new();
    let ps = r.blob("cb.dxbc", &pixel_shader(2, 0, &[ins(MOV, &[dst(OUTPUT, 0, "xyzw"), cb(0, 1, "xyzw")])], true));
    r.texture("rtv", 0, "r32g32b32a32-uint", (1, 1), 0, Vec::new());
    r.event(json!({"op": "uniform", "offset": 0, "type": "uint4", "values": [1, 2, 3, 4], "words_u32": [1, 2, 3, 4]}));
    r.event(json!({"op": "uniform", "offset": 6, "type": "uint", "values": [5], "words_u32": [5]}));
    r.draw_quad(&ps);
    r.probe_u32(("rtv", 0), [0, 0, 1, 1], &[0x7f7f_7f7f, 0x7f7f_7f7f, 5, 0x7f7f_7f7f]);
    r.event(json!({"op": "uniform", "offset": 4, "type": "uint4", "values": [6, 7, 8, 9], "words_u32": [6, 7, 8, 9]}));
    r.draw_quad(&ps);
    r.probe_u32(("rtv", 0), [0, 0, 1, 1], &[6, 7, 8, 9]);
    assert_all_passed(&r.run(&dev), 2);
}

/// `draw_quad`: the default render target (640×480) is created on demand and covered whole.
#[test]
fn op_draw_quad() {
    let Some((_gpu, dev)) = device("op_draw_quad") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 640, 480], &COLOUR);
    assert_all_passed(&r.run(&dev), 1);
}

/// `draw`: a triangle list of two instances from the current vertex buffer and layout: the
/// first triangle covers the top-left corner only.
#[test]
fn op_draw() {
    let Some((_gpu, dev)) = device("op_draw") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    r.texture("rtv", 0, "r32g32b32a32-float", (4, 4), 0, Vec::new());
    r.event(json!({"op": "clear_rtv", "slot": 0, "value": [0.0, 0.0, 0.0, 0.0],
        "value_bits": ["0x00000000", "0x00000000", "0x00000000", "0x00000000"]}));
    // Clip (-1, 1)-(0, 0) is the top-left 2×2 texels; the triangle's hypotenuse runs
    // through them, so probe the texel it surely covers and those it cannot reach.
    vertex_buffer(&mut r, 0, positions(&[[-1.0, 1.0], [0.0, 1.0], [-1.0, 0.0]]));
    r.event(json!({"op": "input_layout", "elements": [
        {"slot": 0, "format": "r32g32-float", "texel_size": 8, "semantic": "position", "semantic_index": 0}]}));
    let vs = r.vs.clone();
    r.event(json!({"op": "draw", "topology": "triangle list", "vertex_count": 3, "instance_count": 2,
        "shaders": {"vs": {"dxbc": vs}, "ps": {"dxbc": ps}}}));
    r.probe_f32(("rtv", 0), [0, 0, 1, 1], &COLOUR);
    r.probe_f32(("rtv", 0), [2, 0, 4, 4], &[0.0; 4]);
    r.probe_f32(("rtv", 0), [0, 2, 4, 4], &[0.0; 4]);
    assert_all_passed(&r.run(&dev), 3);
}

/// `dispatch`: a compute shader of 4 × 2 groups of 4 threads writes each thread's flat index
/// into a raw UAV.
#[test]
fn op_dispatch() {
    let Some((_gpu, dev)) = device("op_dispatch") else { return };
    let mut r = Replay::new();
    // r0.x = (group.y * 4 + group.x) * 4 + thread, store_raw u0.x, r0.x * 4, r0.x
    let cs = compute_shader(
        [4, 1, 1],
        &[
            dcl_thread_input(THREAD_GROUP_ID, "xy"),
            dcl_thread_input(THREAD_ID_IN_GROUP_FLATTENED, "x"),
            dcl_uav_raw(0, false),
        ],
        1,
        &[
            ins(
                IMAD,
                &[dst(TEMP, 0, "x"), special(THREAD_GROUP_ID, "yyyy"), imm([4; 4]), special(THREAD_GROUP_ID, "xxxx")],
            ),
            ins(
                IMAD,
                &[dst(TEMP, 0, "x"), src(TEMP, 0, "xxxx"), imm([4; 4]), special(THREAD_ID_IN_GROUP_FLATTENED, "xxxx")],
            ),
            ins(ISHL, &[dst(TEMP, 0, "y"), src(TEMP, 0, "xxxx"), imm([2; 4])]),
            ins(STORE_RAW, &[dst(UAV, 0, "x"), src(TEMP, 0, "yyyy"), src(TEMP, 0, "xxxx")]),
        ],
    );
    let cs = r.blob("cs.dxbc", &cs);
    r.raw_buffer("uav", 0, vec![0xdead; 36]);
    r.event(json!({"op": "dispatch", "groups": [4, 2, 1], "shaders": {"cs": {"dxbc": cs}}}));
    for i in 0..32 {
        r.probe_u32(("uav", 0), [i, 0, i + 1, 1], &[i]);
    }
    r.probe_u32(("uav", 0), [32, 0, 36, 1], &[0xdead]);
    assert_all_passed(&r.run(&dev), 33);
}

/// `probe`: every texel of the rectangle is compared (one differing texel fails the probe),
/// floats within `ulps`, integers exactly; a failed probe names what it got.
#[test]
fn op_probe() {
    let Some((_gpu, dev)) = device("op_probe") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    r.texture("rtv", 0, "r32g32b32a32-float", (4, 4), 0, Vec::new());
    r.event(json!({"op": "clear_rtv", "slot": 0, "value": [0.0, 0.0, 0.0, 0.0],
        "value_bits": ["0x00000000", "0x00000000", "0x00000000", "0x00000000"]}));
    vertex_buffer(&mut r, 0, positions(&[[-1.0, 1.0], [0.0, 1.0], [-1.0, 0.0]]));
    r.event(json!({"op": "input_layout", "elements": [
        {"slot": 0, "format": "r32g32-float", "texel_size": 8, "semantic": "position", "semantic_index": 0}]}));
    let vs = r.vs.clone();
    r.event(json!({"op": "draw", "topology": "triangle list", "vertex_count": 3, "instance_count": 1,
        "shaders": {"vs": {"dxbc": vs}, "ps": {"dxbc": ps}}}));
    // A rectangle with one drawn texel: fails.
    r.probe_f32(("rtv", 0), [0, 0, 4, 4], &[0.0; 4]);
    // One ULP off, allowed 1 ULP: passes; allowed 0: fails.
    let near = f32::from_bits(0.25f32.to_bits() + 1);
    for ulps in [1, 0] {
        r.event(json!({"op": "probe", "target": {"type": "rtv", "slot": 0}, "rect": [0, 0, 1, 1],
            "array_layer": 0, "kind": "f32", "components": 1, "expected": [near],
            "expected_bits": [format!("0x{:08x}", near.to_bits())], "ulps": ulps}));
    }
    // Integer kinds compare the bits exactly: 0.25 is 0x3e800000.
    r.probe_u32(("rtv", 0), [0, 0, 1, 1], &[0x3e80_0000]);
    r.event(json!({"op": "probe", "target": {"type": "rtv", "slot": 0}, "rect": [3, 3, 4, 4],
        "array_layer": 0, "kind": "i32", "components": 2, "expected": [0, 0]}));
    let records = r.run(&dev);
    assert_eq!(
        statuses(&records),
        [Status::Failed, Status::Passed, Status::Failed, Status::Passed, Status::Passed],
        "{records:?}"
    );
    assert!(records[0].reason.contains("texel (0, 0)"), "{}", records[0].reason);
}

/// `clear_rtv`: a float target takes the bits, an integer target the values converted.
#[test]
fn op_clear_rtv() {
    let Some((_gpu, dev)) = device("op_clear_rtv") else { return };
    let mut r = Replay::new();
    r.texture("rtv", 0, "r32g32b32a32-float", (3, 2), 0, Vec::new());
    r.texture("rtv", 1, "r32g32b32a32-uint", (3, 2), 0, Vec::new());
    let bits: Vec<String> = COLOUR.iter().map(|v| format!("0x{:08x}", v.to_bits())).collect();
    r.event(json!({"op": "clear_rtv", "slot": 0, "value": COLOUR, "value_bits": bits}));
    let values = [3.0f32, 7.0, 0.0, 65536.0];
    let bits: Vec<String> = values.iter().map(|v| format!("0x{:08x}", v.to_bits())).collect();
    r.event(json!({"op": "clear_rtv", "slot": 1, "value": values, "value_bits": bits}));
    r.probe_f32(("rtv", 0), [0, 0, 3, 2], &COLOUR);
    r.probe_u32(("rtv", 1), [0, 0, 3, 2], &[3, 7, 0, 65536]);
    assert_all_passed(&r.run(&dev), 2);
}

/// `clear_dsv`: the depth target reads the depth cleared.
#[test]
fn op_clear_dsv() {
    let Some((_gpu, dev)) = device("op_clear_dsv") else { return };
    let mut r = Replay::new();
    r.texture("dsv", 0, "d32-float", (4, 4), 0, Vec::new());
    r.event(json!({"op": "clear_dsv", "depth": 0.375}));
    r.probe_f32(("dsv", 0), [0, 0, 4, 4], &[0.375]);
    r.event(json!({"op": "clear_dsv", "depth": 1.0}));
    r.probe_f32(("dsv", 0), [1, 1, 3, 3], &[1.0]);
    assert_all_passed(&r.run(&dev), 2);
}

/// `depth_func`: the quad (depth 0) against a depth target cleared to 0.5 is drawn with
/// `less`, not with `greater`.
#[test]
fn op_depth_func() {
    let Some((_gpu, dev)) = device("op_depth_func") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    let other = r.blob("other.dxbc", &constant_ps(f([1.0; 4]), false));
    r.texture("rtv", 0, "r32g32b32a32-float", (2, 2), 0, Vec::new());
    r.texture("dsv", 0, "d32-float", (2, 2), 0, Vec::new());
    r.event(json!({"op": "clear_dsv", "depth": 0.5}));
    r.event(json!({"op": "depth_func", "func": "less"}));
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 2, 2], &COLOUR);
    r.probe_f32(("dsv", 0), [0, 0, 2, 2], &[0.0]);
    r.event(json!({"op": "clear_dsv", "depth": 0.5}));
    r.event(json!({"op": "depth_func", "func": "greater"}));
    r.draw_quad(&other);
    r.probe_f32(("rtv", 0), [0, 0, 2, 2], &COLOUR);
    r.probe_f32(("dsv", 0), [0, 0, 2, 2], &[0.5]);
    assert_all_passed(&r.run(&dev), 4);
}

/// `depth_bounds`: WebGPU has no depth-bounds test; what follows it in the block is skipped
/// with that reason.
#[test]
fn op_depth_bounds() {
    let Some((_gpu, dev)) = device("op_depth_bounds") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    r.event(json!({"op": "depth_bounds", "min": 0.25, "max": 0.75}));
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 1, 1], &COLOUR);
    let records = r.run(&dev);
    assert_eq!(statuses(&records), [Status::Skipped]);
    assert!(
        matches!(&records[0].skip, Some(SkipReason::Capability { capability }) if capability.contains("depth-bounds")),
        "{records:?}"
    );
}

/// `copy`: whole resources, bits unchanged: an SRV's data into a render target of another
/// scalar type, a drawn render target into another, a raw buffer into another, a depth target
/// into a float SRV.
#[test]
fn op_copy() {
    let Some((_gpu, dev)) = device("op_copy") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    let texels: Vec<u32> = (0..12).map(|i| 0x4000_0000 + i).collect();
    r.texture("srv", 0, "r32g32b32a32-uint", (3, 1), 0, texels);
    r.texture("rtv", 0, "r32g32b32a32-float", (3, 1), 0, Vec::new());
    r.event(json!({"op": "copy", "src": {"type": "srv", "slot": 0}, "dst": {"type": "rtv", "slot": 0}}));
    for x in 0..3 {
        let base = 0x4000_0000 + 4 * x;
        r.probe_u32(("rtv", 0), [x, 0, x + 1, 1], &[base, base + 1, base + 2, base + 3]);
    }
    // A drawn target into another of its format.
    r.texture("rtv", 1, "r32g32b32a32-float", (3, 1), 0, Vec::new());
    r.draw_quad(&ps);
    r.event(json!({"op": "copy", "src": {"type": "rtv", "slot": 0}, "dst": {"type": "rtv", "slot": 1}}));
    r.probe_f32(("rtv", 1), [0, 0, 3, 1], &COLOUR);
    // Buffers.
    r.raw_buffer("uav", 1, vec![11, 22, 33, 44]);
    r.raw_buffer("uav", 2, vec![0; 4]);
    r.event(json!({"op": "copy", "src": {"type": "uav", "slot": 1}, "dst": {"type": "uav", "slot": 2}}));
    for (i, v) in [11, 22, 33, 44].into_iter().enumerate() {
        r.probe_u32(("uav", 2), [i as u32, 0, i as u32 + 1, 1], &[v]);
    }
    assert_all_passed(&r.run(&dev), 8);
    // A depth target into an `r32-float` SRV, read by `ld`.
    let mut r2 = Replay::new();
    let decls = [vec![DCL_RESOURCE | (TEXTURE2D << 11) | (4 << 24), 0x0010_7000, 1, 0x5555]];
    let body = [ins(LD, &[dst(OUTPUT, 0, "xyzw"), imm([2, 0, 0, 0]), src(RESOURCE, 1, "xyzw")])];
    let ld = r2.blob("ld.dxbc", &pixel_shader_with(0x40, &decls, &[], 0, &body, false));
    r2.texture("rtv", 0, "r32g32b32a32-float", (3, 1), 0, Vec::new());
    r2.texture("dsv", 0, "d32-float", (3, 1), 0, Vec::new());
    r2.texture("srv", 1, "r32-float", (3, 1), 0, Vec::new());
    r2.event(json!({"op": "clear_dsv", "depth": 0.625}));
    r2.event(json!({"op": "copy", "src": {"type": "dsv", "slot": 0}, "dst": {"type": "srv", "slot": 1}}));
    r2.draw_quad(&ld);
    r2.probe_f32(("rtv", 0), [0, 0, 1, 1], &[0.625, 0.0, 0.0, 1.0]);
    assert_all_passed(&r2.run(&dev), 1);
}

/// `sample_mask`: a draw into a 4-sample target with mask 0b0101 writes two of its samples,
/// so the resolved texel is half the colour.
#[test]
fn op_sample_mask() {
    let Some((_gpu, dev)) = device("op_sample_mask") else { return };
    let mut r = Replay::new();
    let ps = r.blob("one.dxbc", &constant_ps(f([1.0; 4]), false));
    r.texture("rtv", 0, "r32-float", (2, 2), 4, Vec::new());
    r.event(json!({"op": "clear_rtv", "slot": 0, "value": [0.0, 0.0, 0.0, 0.0],
        "value_bits": ["0x00000000", "0x00000000", "0x00000000", "0x00000000"]}));
    r.event(json!({"op": "sample_mask", "mask": 5}));
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 2, 2], &[0.5]);
    r.event(json!({"op": "sample_mask", "mask": 15}));
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 2, 2], &[1.0]);
    assert_all_passed(&r.run(&dev), 2);
}

/// `viewport` with one viewport: the quad is drawn inside it only.
#[test]
fn op_viewport() {
    let Some((_gpu, dev)) = device("op_viewport") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    r.texture("rtv", 0, "r32g32b32a32-float", (8, 8), 0, Vec::new());
    r.event(json!({"op": "clear_rtv", "slot": 0, "value": [0.0, 0.0, 0.0, 0.0],
        "value_bits": ["0x00000000", "0x00000000", "0x00000000", "0x00000000"]}));
    r.event(json!({"op": "viewport", "index": 0, "x": 2.0, "y": 4.0, "width": 4.0, "height": 2.0}));
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [2, 4, 6, 6], &COLOUR);
    for rect in [[0, 0, 8, 4], [0, 6, 8, 8], [0, 4, 2, 6], [6, 4, 8, 6]] {
        r.probe_f32(("rtv", 0), rect, &[0.0; 4]);
    }
    assert_all_passed(&r.run(&dev), 5);
}

/// The four quadrants of an 8×8 target as viewports 0-3 (x, y, width, height).
const QUADRANTS: [[f32; 4]; 4] =
    [[0.0, 0.0, 4.0, 4.0], [4.0, 0.0, 4.0, 4.0], [0.0, 4.0, 4.0, 4.0], [4.0, 4.0, 4.0, 4.0]];

/// Texel rectangle of quadrant `i`.
fn quadrant(i: usize) -> [u32; 4] {
    let [x, y, w, h] = QUADRANTS[i].map(|v| v as u32);
    [x, y, x + w, y + h]
}

/// `viewport` with several viewports: four full-screen triangles whose vertex shader writes
/// SV_ViewportArrayIndex 0-3 land each in its own quadrant (the pixel shader writes the index
/// it reads); an index no viewport was set for (5) is drawn nowhere.
#[test]
fn op_viewport_array() {
    let Some((_gpu, dev)) = device("op_viewport_array") else { return };
    let mut r = Replay::new();
    let vs = r.blob("vp_vs.dxbc", &layered_fixture::vertex_shader(NAME_VIEWPORT_ARRAY_INDEX, "SV_ViewportArrayIndex"));
    let ps = r.blob("vp_ps.dxbc", &layered_fixture::pixel_shader(NAME_VIEWPORT_ARRAY_INDEX, "SV_ViewportArrayIndex"));
    r.texture("rtv", 0, "r32g32b32a32-uint", (8, 8), 0, Vec::new());
    r.event(json!({"op": "clear_rtv", "slot": 0, "value": [0.0, 0.0, 0.0, 0.0],
        "value_bits": ["0x00000000", "0x00000000", "0x00000000", "0x00000000"]}));
    for (i, [x, y, w, h]) in QUADRANTS.into_iter().enumerate() {
        r.event(json!({"op": "viewport", "index": i, "x": x, "y": y, "width": w, "height": h}));
    }
    // Per vertex: position (x, y, 0, 1) and the index; a full-screen triangle per index.
    let mut data = Vec::new();
    for index in [0u32, 1, 2, 3, 5] {
        for [x, y] in [[-1.0f32, -1.0], [-1.0, 3.0], [3.0, -1.0]] {
            data.extend([x, y, 0.0, 1.0].map(f32::to_bits));
            data.push(index);
        }
    }
    vertex_buffer(&mut r, 0, data);
    r.event(json!({"op": "input_layout", "elements": [
        {"slot": 0, "format": "r32g32b32a32-float", "texel_size": 16, "semantic": "position", "semantic_index": 0},
        {"slot": 0, "format": "r32-uint", "texel_size": 4, "semantic": "index", "semantic_index": 0}]}));
    r.event(json!({"op": "draw", "topology": "triangle list", "vertex_count": 15, "instance_count": 1,
        "shaders": {"vs": {"dxbc": vs}, "ps": {"dxbc": ps}}}));
    for i in 0..4 {
        r.probe_u32(("rtv", 0), quadrant(i), &[i as u32, MARK, 0, 1]);
    }
    assert_all_passed(&r.run(&dev), 4);
}

/// `clip_plane`: an enabled D3D9 clip plane skips the draws (fixed function); disabled, they run.
#[test]
fn op_clip_plane() {
    fixed_function_op(
        "op_clip_plane",
        json!({"op": "clip_plane", "index": 1, "enable": true, "plane": [1.0, 0.0, 0.0, 0.0]}),
        json!({"op": "clip_plane", "index": 1, "enable": false, "plane": [1.0, 0.0, 0.0, 0.0]}),
        "clip plane 1",
    );
}

/// `alpha_test`: a function other than `always` skips the draws; `always` (the default) runs.
#[test]
fn op_alpha_test() {
    fixed_function_op(
        "op_alpha_test",
        json!({"op": "alpha_test", "func": "greater", "ref": 0.5}),
        json!({"op": "alpha_test", "func": "always", "ref": 0.0}),
        "alpha test",
    );
}

/// `shade_mode`: `flat` skips the draws; `gouraud` (the default) runs.
#[test]
fn op_shade_mode() {
    fixed_function_op(
        "op_shade_mode",
        json!({"op": "shade_mode", "mode": "flat"}),
        json!({"op": "shade_mode", "mode": "gouraud"}),
        "shade mode",
    );
}

/// `point_size`: a size other than 1 (after the clamp to [min, max]) skips the draws.
#[test]
fn op_point_size() {
    fixed_function_op(
        "op_point_size",
        json!({"op": "point_size", "size": 40.0, "min": 1.0, "max": 20.0}),
        json!({"op": "point_size", "size": 1.0, "min": 1.0, "max": 64.0}),
        "point size",
    );
}

/// `point_sprite`: on skips the draws; off runs.
#[test]
fn op_point_sprite() {
    fixed_function_op(
        "op_point_sprite",
        json!({"op": "point_sprite", "on": true}),
        json!({"op": "point_sprite", "on": false}),
        "point sprites",
    );
}

/// `fog`: any mode but `disable` (`none` included: vertex fog) skips the draws.
#[test]
fn op_fog() {
    fixed_function_op("op_fog", json!({"op": "fog", "mode": "none"}), json!({"op": "fog", "mode": "disable"}), "fog");
}

/// `fog_colour`: no effect while fog is off (the draw runs); with fog on, the draw is skipped
/// for the fog.
#[test]
fn op_fog_colour() {
    let Some((_gpu, dev)) = device("op_fog_colour") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    r.event(json!({"op": "fog_colour", "colour": [0.0, 1.0, 1.0, 1.0]}));
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 1, 1], &COLOUR);
    r.event(json!({"op": "fog", "mode": "exp", "ortho": true, "density": 2.0}));
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 1, 1], &COLOUR);
    let records = r.run(&dev);
    assert_eq!(statuses(&records), [Status::Passed, Status::Skipped], "{records:?}");
}

/// A fixed-function state op: `on` skips the next draw's probe (`fixed_function`, naming
/// `feature`), `off` lets the one after run.
fn fixed_function_op(test: &str, on: Value, off: Value, feature: &str) {
    let Some((_gpu, dev)) = device(test) else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    r.event(on);
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 1, 1], &COLOUR);
    r.event(off);
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 1, 1], &COLOUR);
    let records = r.run(&dev);
    assert_eq!(statuses(&records), [Status::Skipped, Status::Passed], "{records:?}");
    assert!(
        matches!(&records[0].skip, Some(SkipReason::FixedFunction { feature: f }) if f == feature),
        "{:?}",
        records[0].skip
    );
}

/// An op the schema does not have is a failure naming it (counted with the failures); the
/// replay goes on.
#[test]
fn unknown_op_is_a_failure_naming_it() {
    let Some((_gpu, dev)) = device("unknown_op_is_a_failure_naming_it") else { return };
    let mut r = Replay::new();
    let ps = colour_ps(&r);
    r.event(json!({"op": "stencil_ref", "value": 3}));
    r.draw_quad(&ps);
    r.probe_f32(("rtv", 0), [0, 0, 1, 1], &COLOUR);
    let report = r.report(&dev);
    assert_eq!(report.input_errors.len(), 1, "{:?}", report.input_errors);
    assert!(report.input_errors[0].contains("unhandled op `stencil_ref`"), "{}", report.input_errors[0]);
    assert!(report.input_errors[0].contains("line 1"), "{}", report.input_errors[0]);
    assert_eq!(report.totals().failed, 1);
    assert_eq!(statuses(&report.records), [Status::Passed]);
}
