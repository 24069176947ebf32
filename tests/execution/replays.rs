//! Small shader_test replays of our own, run through the conformance runner
//! (`dxbc_wgsl_gpu::conformance::shader_test`) as the corpus's `test.json` files are: the kinds of
//! case the corpus lacks. Each test writes a `test.json` (the corpus README's schema) and the
//! hand-assembled blobs it names into a temporary folder and checks every record.
//!
//! - A probe of the depth target after a pixel shader writes `oDepth` per pixel: WebGPU copies
//!   depth only as whole subresources, so the runner reads the whole level and picks the
//!   texels (`Device::read_depth_texels`); the values expected are computed here.
//! - An SRV of the `2dms` size form with one sample bound to a `texture2dms` declared with 0
//!   samples (any count): the runner says the view is single-sampled
//!   (`TranslateOptions::texture2dms_views`), as D3D binds it.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

#[path = "../tests/common/mod.rs"]
mod common;

use dxbc_wgsl_gpu::conformance::{self, Device, Record, Status};
use dxbc_wgsl_tests::asm::*;
use dxbc_wgsl_tests::sample_fixture::{position_vs, DCL_RESOURCE, RESOURCE};
use dxbc_wgsl_tests::texture2dms_fixture::LD_MS;
use serde_json::{json, Value};

/// `oDepth` (`D3D10_SB_OPERAND_TYPE_OUTPUT_DEPTH`, one component).
fn o_depth() -> Vec<u32> {
    vec![1 | (12 << 12)]
}

/// `ps_4_0` writing `oDepth = v0.x / 16 + v0.y / 256` (`v0` = SV_Position, the pixel centre):
/// a different depth at every pixel of an 8×8 target, each exact in f32.
fn gradient_depth_ps() -> Vec<u8> {
    let inputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw")];
    let outputs = [Element("SV_Depth", 0, 65, 3, 0xFFFF_FFFF, "x")];
    let decls = [
        // dcl_input_ps_siv linear noperspective v0.xy, position
        vec![DCL_INPUT_PS_SIV | (4 << 11) | (4 << 24), 0x0010_1032, 0, 1],
        ins(DCL_OUTPUT, &[o_depth()]),
    ];
    let (sixteenth, th256) = ((1.0f32 / 16.0).to_bits(), (1.0f32 / 256.0).to_bits());
    let body = [
        ins(MUL, &[dst(TEMP, 0, "x"), src(INPUT, 0, "xxxx"), imm([sixteenth; 4])]),
        ins(MAD, &[o_depth(), src(INPUT, 0, "yyyy"), imm([th256; 4]), src(TEMP, 0, "xxxx")]),
    ];
    shader(PS_4_0, &inputs, &outputs, &decls, 1, &body)
}

/// `ps_4_0` writing `oDepth = depth`.
fn constant_depth_ps(depth: f32) -> Vec<u8> {
    let outputs = [Element("SV_Depth", 0, 65, 3, 0xFFFF_FFFF, "x")];
    let decls = [ins(DCL_OUTPUT, &[o_depth()])];
    let body = [ins(MOV, &[o_depth(), imm([depth.to_bits(); 4])])];
    shader(PS_4_0, &[], &outputs, &decls, 0, &body)
}

/// The depth [`gradient_depth_ps`] writes at pixel `(x, y)`.
fn gradient(x: u32, y: u32) -> f32 {
    (x as f32 + 0.5) / 16.0 + (y as f32 + 0.5) / 256.0
}

/// A replay being written: its folder, blobs and events.
struct Replay {
    dir: tempfile::TempDir,
    events: Vec<Value>,
}

impl Replay {
    fn new() -> Self {
        Replay { dir: tempfile::tempdir().expect("temp dir"), events: Vec::new() }
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

    #[allow(clippy::too_many_arguments)]
    fn resource(
        &mut self,
        ty: &str,
        slot: u32,
        format: &str,
        texel_size: u32,
        kind: &str,
        size: (u32, u32),
        samples: u32,
        data: Vec<u32>,
    ) {
        self.event(json!({
            "op": "resource", "type": ty, "slot": slot, "format": format, "texel_size": texel_size,
            "dimension": "2d", "kind": kind, "width": size.0, "height": size.1, "depth": 1, "layers": 1,
            "levels": 1, "samples": samples, "data_u32": data,
        }));
    }

    fn draw_quad(&mut self, vs: &str, ps: &str) {
        self.event(json!({"op": "draw_quad", "shaders": {"vs": {"dxbc": vs}, "ps": {"dxbc": ps}}}));
    }

    /// A probe of `target` (`rtv` or `dsv`) over `rect` expecting one f32 of these bits.
    fn probe_f32(&mut self, target: &str, rect: [u32; 4], value: f32) {
        self.event(json!({
            "op": "probe", "target": {"type": target, "slot": 0}, "rect": rect, "array_layer": 0,
            "kind": "f32", "components": 1, "expected": [value],
            "expected_bits": [format!("0x{:08x}", value.to_bits())], "ulps": 0,
        }));
    }

    fn probe_u32(&mut self, rect: [u32; 4], values: [u32; 4]) {
        self.event(json!({
            "op": "probe", "target": {"type": "rtv", "slot": 0}, "rect": rect, "array_layer": 0,
            "kind": "u32", "components": 4, "expected": values,
        }));
    }

    /// Runs the replay; returns its records (no input errors allowed).
    fn run(&self, dev: &Device) -> Vec<Record> {
        let test = json!({
            "schema": "vkd3d-shader-test-corpus/1",
            "runs": [{"name": "sm4", "runner_min_model": "4.0", "runner_max_model": "5.0", "events": self.events}],
        });
        std::fs::write(self.dir.path().join("test.json"), test.to_string()).expect("write test.json");
        let cases = conformance::discover(&[self.dir.path().to_path_buf()]).expect("discover");
        assert_eq!(cases.len(), 1);
        let report = conformance::run(dev, &cases, |_, _| {});
        assert!(report.input_errors.is_empty(), "{:?}", report.input_errors);
        report.records
    }
}

fn assert_all_passed(records: &[Record], count: usize) {
    let bad: Vec<String> =
        records.iter().filter(|r| r.status != Status::Passed).map(|r| format!("{}: {}", r.case, r.reason)).collect();
    assert!(bad.is_empty(), "{} of {} probes did not pass:\n{}", bad.len(), records.len(), bad.join("\n"));
    assert_eq!(records.len(), count);
}

/// Every pixel of an 8×8 depth target after a pixel shader writes a different `oDepth` at each,
/// probed one texel at a time; then a constant depth drawn with the `less` test replaces the
/// texels it is nearer than, and a probe of that whole region (a rect of many texels) reads it.
#[test]
fn depth_target_probes_after_odepth_writes() {
    let Some(dev) = common::device("depth_target_probes_after_odepth_writes") else { return };
    let mut r = Replay::new();
    let vs = r.blob("vs.dxbc", &position_vs());
    let gradient_ps = r.blob("gradient.dxbc", &gradient_depth_ps());
    let constant_ps = r.blob("constant.dxbc", &constant_depth_ps(0.25));
    r.resource("dsv", 0, "d32-float", 4, "2d", (8, 8), 0, Vec::new());
    r.event(json!({"op": "clear_dsv", "depth": 1.0}));
    r.event(json!({"op": "depth_func", "func": "always"}));
    r.draw_quad(&vs, &gradient_ps);
    for y in 0..8 {
        for x in 0..8 {
            r.probe_f32("dsv", [x, y, x + 1, y + 1], gradient(x, y));
        }
    }
    // 0.25 is nearer than the gradient where x >= 4 (4.5 / 16 > 0.25), farther where x < 4.
    r.event(json!({"op": "depth_func", "func": "less"}));
    r.draw_quad(&vs, &constant_ps);
    r.probe_f32("dsv", [4, 0, 8, 8], 0.25);
    for (x, y) in [(0, 0), (3, 7), (2, 5), (3, 0)] {
        r.probe_f32("dsv", [x, y, x + 1, y + 1], gradient(x, y));
    }
    assert!((0..8).all(|y| gradient(3, y) < 0.25 && gradient(4, y) > 0.25));
    let records = r.run(&dev);
    assert_all_passed(&records, 64 + 1 + 4);
}

/// A multisampled depth target cannot be read back in WebGPU (nor resolved in D3D): the probe is
/// skipped with that reason, not failed.
#[test]
fn multisampled_depth_probes_are_skipped() {
    let Some(dev) = common::device("multisampled_depth_probes_are_skipped") else { return };
    let mut r = Replay::new();
    let vs = r.blob("vs.dxbc", &position_vs());
    let ps = r.blob("constant.dxbc", &constant_depth_ps(0.5));
    r.resource("dsv", 0, "d32-float", 4, "2d", (4, 4), 4, Vec::new());
    r.event(json!({"op": "depth_func", "func": "always"}));
    r.draw_quad(&vs, &ps);
    r.probe_f32("dsv", [1, 1, 2, 2], 0.5);
    let records = r.run(&dev);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].status, Status::Skipped, "{}", records[0].reason);
    assert!(records[0].reason.contains("depth target of 4 samples"), "{}", records[0].reason);
}

/// `ps_4_1`: `dcl_resource_texture2dms(samples) (uint,uint,uint,uint) t0`,
/// `ld2dms o0.xyzw, l(x, y, 0, 0), t0.xyzw, l(sample)`.
fn ld2dms_ps(samples: u32, x: u32, y: u32, sample: u32) -> Vec<u8> {
    let decls = [vec![DCL_RESOURCE | (4 << 11) | (samples << 16) | (4 << 24), 0x0010_7000, 0, 0x4444]];
    let body = [ins(LD_MS, &[dst(OUTPUT, 0, "xyzw"), imm([x, y, 0, 0]), src(RESOURCE, 0, "xyzw"), imm([sample; 4])])];
    pixel_shader_with(0x41, &decls, &[], 1, &body, true)
}

/// `[srv 0] size (2dms, 1, 2, 2)` bound to `Texture2DMS<uint4>` (declared with 0 samples): the
/// texel for sample 0, zero for sample 1 and outside the texture; and a shader declaring 1
/// sample reads the same.
#[test]
fn single_sample_2dms_srv_binds_to_an_any_count_texture2dms() {
    let Some(dev) = common::device("single_sample_2dms_srv_binds_to_an_any_count_texture2dms") else { return };
    let mut r = Replay::new();
    let vs = r.blob("vs.dxbc", &position_vs());
    let texel = |x: u32, y: u32| [x + 10 * y, 0xdead_0000 | x, 0x0bad_0000 | y, 7];
    let data: Vec<u32> = (0..4).flat_map(|i| texel(i % 2, i / 2)).collect();
    r.resource("srv", 0, "r32g32b32a32-uint", 16, "2dms", (2, 2), 1, data);
    r.resource("rtv", 0, "r32g32b32a32-uint", 16, "2d", (1, 1), 0, Vec::new());
    for samples in [0, 1] {
        for (x, y, sample, want) in
            [(1, 1, 0, texel(1, 1)), (0, 1, 0, texel(0, 1)), (1, 1, 1, [0; 4]), (2, 0, 0, [0; 4])]
        {
            let ps = r.blob(&format!("ld_{samples}_{x}_{y}_{sample}.dxbc"), &ld2dms_ps(samples, x, y, sample));
            r.draw_quad(&vs, &ps);
            r.probe_u32([0, 0, 1, 1], want);
        }
    }
    let records = r.run(&dev);
    assert_all_passed(&records, 8);
}
