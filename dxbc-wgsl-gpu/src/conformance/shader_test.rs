//! Replays of vkd3d's shader_test files (`vkd3d-shader-tests/<stem>/test.json`), following the
//! protocol in that folder's README.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use dxbc_wgsl::bindings::{BindingClass, ResourceBinding, ResourceKind, TextureSample};
use dxbc_wgsl::geometry::{PulledElement, VertexFormat, VertexPulling};
use dxbc_wgsl::{
    Interpolation, ScalarKind, ShaderStage, TexelFormat, Texture2dmsView, TranslateOptions, TypedBufferFormat,
    VertexStage, ViewRegister,
};
use serde_json::Value;

use super::compare::{show, ulp_distance_f32, ulp_distance_f64, ValueKind};
use super::draw::{
    placeholder, translate_error, uniform_buffer, Bound, ColorTarget, DepthTarget, Draw, DrawError, GeometryDraw,
    Program, Renderer, VertexInput,
};
use super::gpu::Device;
use super::report::{Record, SkipReason, Source, Status};
use crate::primitive_stage::DrawCall;

/// Width and height of the default render target.
const DEFAULT_RT: (u32, u32) = (640, 480);

/// The fixed full-screen triangle of `draw quad`.
const QUAD: [f32; 6] = [-2.0, -2.0, -2.0, 4.0, 4.0, -2.0];

/// Replays every run of one test. `dir` holds `test.json`; `corpus` is the corpus root (for
/// relative names).
pub fn run(
    dev: &Device,
    renderer: &mut Renderer,
    dir: &Path,
    corpus: &Path,
    records: &mut Vec<Record>,
    input_errors: &mut Vec<String>,
) {
    let rel = dir.strip_prefix(corpus).unwrap_or(dir).display().to_string();
    let json_path = dir.join("test.json");
    let test: Value = match std::fs::read_to_string(&json_path)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
    {
        Ok(v) => v,
        Err(e) => {
            input_errors.push(format!("{}: {e}", json_path.display()));
            return;
        }
    };
    let Some(runs) = test.get("runs").and_then(Value::as_array) else {
        input_errors.push(format!("{}: no `runs`", json_path.display()));
        return;
    };
    for run in runs {
        let name = run.get("name").and_then(Value::as_str).unwrap_or("?").to_string();
        let model = run.get("runner_min_model").and_then(Value::as_str).unwrap_or("4.0").to_string();
        let mut replay = Replay {
            dev,
            renderer,
            dir,
            rel: &rel,
            run: name,
            model,
            records,
            input_errors,
            resources: BTreeMap::new(),
            samplers: BTreeMap::new(),
            input_layout: Vec::new(),
            uniforms: Vec::new(),
            caps_missing: None,
            fixed_function: BTreeMap::new(),
            depth_func: wgpu::CompareFunction::Less,
            sample_mask: 0,
            viewports: Vec::new(),
            last_render: Outcome::Ok,
            last_draw_todo: false,
            last_blobs: Vec::new(),
            programs: HashMap::new(),
        };
        for event in run.get("events").and_then(Value::as_array).into_iter().flatten() {
            replay.event(event);
        }
    }
}

/// What became of the last draw or dispatch (and what last wrote a resource).
#[derive(Debug, Clone)]
enum Outcome {
    Ok,
    Skipped(SkipReason),
    Failed(String),
}

/// CPU description of a resource event.
#[derive(Debug, Clone)]
struct Desc {
    ty: String,
    format: String,
    texel_size: u32,
    dimension: String,
    kind: String,
    width: u32,
    height: u32,
    depth: u32,
    layers: u32,
    levels: u32,
    samples: u32,
    data: Vec<u32>,
    /// A UAV buffer view with a hidden counter.
    uav_counter: bool,
}

impl Desc {
    fn from_event(e: &Value) -> Self {
        let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let n = |k: &str, d: u32| e.get(k).and_then(Value::as_u64).map(|v| v as u32).unwrap_or(d);
        Desc {
            ty: s("type"),
            format: if s("format").is_empty() { "r32g32b32a32-float".into() } else { s("format") },
            texel_size: n("texel_size", 16),
            dimension: s("dimension"),
            kind: s("kind"),
            width: n("width", 1).max(1),
            height: n("height", 1).max(1),
            depth: n("depth", 1).max(1),
            layers: n("layers", 1).max(1),
            levels: n("levels", 1).max(1),
            samples: n("samples", 0),
            data: e
                .get("data_u32")
                .and_then(Value::as_array)
                .map(|a| a.iter().map(|w| w.as_u64().unwrap_or(0) as u32).collect())
                .unwrap_or_default(),
            uav_counter: e.get("uav_counter").and_then(Value::as_bool).unwrap_or(false),
        }
    }

    fn default_rt() -> Self {
        Desc {
            ty: "rtv".into(),
            format: "r32g32b32a32-float".into(),
            texel_size: 16,
            dimension: "2d".into(),
            kind: "2d".into(),
            width: DEFAULT_RT.0,
            height: DEFAULT_RT.1,
            depth: 1,
            layers: 1,
            levels: 1,
            samples: 0,
            data: Vec::new(),
            uav_counter: false,
        }
    }

    fn is_buffer(&self) -> bool {
        self.dimension == "buffer"
    }

    fn sample_count(&self) -> u32 {
        self.samples.max(1)
    }
}

/// A resource and what the GPU holds of it.
struct Resource {
    desc: Desc,
    /// Texture (render targets, depth, SRV textures, UAV textures).
    texture: Option<wgpu::Texture>,
    /// Buffer (vertex buffers, SRV/UAV buffers).
    buffer: Option<wgpu::Buffer>,
    /// A structured UAV buffer's hidden counter (`uav_counter`: vkd3d's `counter_buffer`
    /// views): 4 bytes, zero when created, as D3D's runners bind the view without initial
    /// counts. Kept across draws and dispatches, as the view's counter is.
    counter: Option<wgpu::Buffer>,
    /// A depth copy for comparison sampling, made on first use.
    depth_copy: Option<wgpu::Texture>,
    /// A skipped or failed draw/dispatch wrote it last.
    tainted: Option<Outcome>,
}

struct Element {
    slot: u32,
    format: String,
    texel_size: u32,
    semantic: String,
    index: u32,
}

/// The targets of a draw ([`Replay::targets`]).
struct Targets {
    color: Vec<Option<ColorTarget>>,
    depth: Option<DepthTarget>,
    sample_count: u32,
    viewport: (u32, u32),
    /// `(stand-in, target, texel size, slot)`: drawn into the stand-in, copied back after.
    stand_ins: Vec<(wgpu::Texture, wgpu::Texture, u32, u32)>,
}

/// D3D11's topology number of a test file's topology name.
fn d3d_topology(name: &str) -> Option<crate::primitive_stage::Topology> {
    crate::primitive_stage::Topology::from_number(match name {
        "point list" => 1,
        "line list" => 2,
        "line strip" => 3,
        "triangle list" => 4,
        "triangle strip" => 5,
        "line list adj" => 10,
        "line strip adj" => 11,
        "triangle list adj" => 12,
        "triangle strip adj" => 13,
        _ => {
            let n: u32 = name.strip_suffix(" control point patch list")?.parse().ok()?;
            if !(1..=32).contains(&n) {
                return None;
            }
            32 + n
        }
    })
}

/// The vertex-pulling format of an input-layout element's format (32-bit formats: the bits the
/// shader reads are the buffer's).
fn pulled_format(name: &str) -> Option<VertexFormat> {
    use VertexFormat as V;
    let n = if name.starts_with("r32g32b32a32") {
        4
    } else if name.starts_with("r32g32b32") {
        3
    } else if name.starts_with("r32g32") {
        2
    } else if name.starts_with("r32") {
        1
    } else {
        return None;
    };
    let kind = name.rsplit('-').next()?;
    Some(match (kind, n) {
        ("float", 1) => V::Float32,
        ("float", 2) => V::Float32x2,
        ("float", 3) => V::Float32x3,
        ("float", _) => V::Float32x4,
        ("uint", 1) => V::Uint32,
        ("uint", 2) => V::Uint32x2,
        ("uint", 3) => V::Uint32x3,
        ("uint", _) => V::Uint32x4,
        ("sint", 1) => V::Sint32,
        ("sint", 2) => V::Sint32x2,
        ("sint", 3) => V::Sint32x3,
        ("sint", _) => V::Sint32x4,
        _ => return None,
    })
}

struct Replay<'a> {
    dev: &'a Device,
    renderer: &'a mut Renderer,
    dir: &'a Path,
    rel: &'a str,
    run: String,
    model: String,
    records: &'a mut Vec<Record>,
    input_errors: &'a mut Vec<String>,
    resources: BTreeMap<(String, u32), Resource>,
    samplers: BTreeMap<u32, Value>,
    input_layout: Vec<Element>,
    uniforms: Vec<u32>,
    caps_missing: Option<SkipReason>,
    fixed_function: BTreeMap<String, bool>,
    depth_func: wgpu::CompareFunction,
    sample_mask: u32,
    /// The viewports set (`viewport` events: x, y, width, height), index by index; the count is
    /// one past the highest index set and the others are zero, as vkd3d's runner keeps them.
    /// Empty: one viewport over the smallest target.
    viewports: Vec<[f32; 4]>,
    last_render: Outcome,
    last_draw_todo: bool,
    last_blobs: Vec<String>,
    programs: HashMap<String, Result<Program, DrawError>>,
}

/// Views of each layer of a 2D array target (empty for a single layer or a 3D texture): the
/// render passes of a layered draw.
fn layer_views(texture: &wgpu::Texture) -> Vec<wgpu::TextureView> {
    let layers = texture.size().depth_or_array_layers;
    if texture.dimension() != wgpu::TextureDimension::D2 || layers <= 1 {
        return Vec::new();
    }
    (0..layers)
        .map(|layer| {
            texture.create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D2),
                base_array_layer: layer,
                array_layer_count: Some(1),
                ..Default::default()
            })
        })
        .collect()
}

/// WebGPU texture format and texel words of a test format name.
fn texture_format(name: &str) -> Option<(wgpu::TextureFormat, u32)> {
    use wgpu::TextureFormat as F;
    Some(match name {
        "r32g32b32a32-float" => (F::Rgba32Float, 4),
        "r32g32b32a32-sint" => (F::Rgba32Sint, 4),
        "r32g32b32a32-uint" => (F::Rgba32Uint, 4),
        "r32g32-float" => (F::Rg32Float, 2),
        "r32g32-sint" => (F::Rg32Sint, 2),
        "r32g32-uint" => (F::Rg32Uint, 2),
        "r32-float" | "r32-float-shadow" | "r32-typeless" => (F::R32Float, 1),
        "r32-sint" => (F::R32Sint, 1),
        "r32-uint" => (F::R32Uint, 1),
        "d32-float" => (F::Depth32Float, 1),
        _ => return None,
    })
}

/// The same texel layout with another scalar kind.
fn with_kind(format: wgpu::TextureFormat, kind: ScalarKind) -> wgpu::TextureFormat {
    use wgpu::TextureFormat as F;
    let n = match format {
        F::Rgba32Float | F::Rgba32Sint | F::Rgba32Uint => 4,
        F::Rg32Float | F::Rg32Sint | F::Rg32Uint => 2,
        _ => 1,
    };
    match (kind, n) {
        (ScalarKind::Float, 4) => F::Rgba32Float,
        (ScalarKind::Sint, 4) => F::Rgba32Sint,
        (ScalarKind::Uint, 4) => F::Rgba32Uint,
        (ScalarKind::Float, 2) => F::Rg32Float,
        (ScalarKind::Sint, 2) => F::Rg32Sint,
        (ScalarKind::Uint, 2) => F::Rg32Uint,
        (ScalarKind::Float, _) => F::R32Float,
        (ScalarKind::Sint, _) => F::R32Sint,
        (ScalarKind::Uint, _) => F::R32Uint,
    }
}

fn format_kind(format: wgpu::TextureFormat) -> ScalarKind {
    use wgpu::TextureFormat as F;
    match format {
        F::Rgba32Sint | F::Rg32Sint | F::R32Sint => ScalarKind::Sint,
        F::Rgba32Uint | F::Rg32Uint | F::R32Uint => ScalarKind::Uint,
        _ => ScalarKind::Float,
    }
}

/// Vertex format of an input-layout element, read as `kind` (32-bit formats only: the bits are
/// the same whichever way the shader reads them).
fn vertex_format(name: &str, kind: ScalarKind) -> Option<wgpu::VertexFormat> {
    use wgpu::VertexFormat as V;
    let n = if name.starts_with("r32g32b32a32") {
        4
    } else if name.starts_with("r32g32b32") {
        3
    } else if name.starts_with("r32g32") {
        2
    } else if name.starts_with("r32") {
        1
    } else {
        return None;
    };
    Some(match (kind, n) {
        (ScalarKind::Float, 1) => V::Float32,
        (ScalarKind::Float, 2) => V::Float32x2,
        (ScalarKind::Float, 3) => V::Float32x3,
        (ScalarKind::Float, _) => V::Float32x4,
        (ScalarKind::Uint, 1) => V::Uint32,
        (ScalarKind::Uint, 2) => V::Uint32x2,
        (ScalarKind::Uint, 3) => V::Uint32x3,
        (ScalarKind::Uint, _) => V::Uint32x4,
        (ScalarKind::Sint, 1) => V::Sint32,
        (ScalarKind::Sint, 2) => V::Sint32x2,
        (ScalarKind::Sint, 3) => V::Sint32x3,
        (ScalarKind::Sint, _) => V::Sint32x4,
    })
}

fn compare_function(name: &str) -> Option<wgpu::CompareFunction> {
    use wgpu::CompareFunction as C;
    Some(match name {
        "never" => C::Never,
        "less" => C::Less,
        "equal" => C::Equal,
        "less equal" => C::LessEqual,
        "greater" => C::Greater,
        "not equal" => C::NotEqual,
        "greater equal" => C::GreaterEqual,
        "always" => C::Always,
        _ => return None,
    })
}

fn model_value(m: &str) -> (u32, u32) {
    let mut it = m.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (it.next().unwrap_or(0), it.next().unwrap_or(0))
}

/// Whether a condition holds: `at_model` is a bool, or a DNF (alternatives of terms) over backend
/// tags (`{tag, negate}`) and models (`{sm_ge}`, `{sm_lt}`) evaluated at `model`.
fn condition_holds(at_model: &Value, model: &str, has_tag: &dyn Fn(&str) -> bool) -> bool {
    match at_model {
        Value::Bool(b) => *b,
        Value::Array(alternatives) => alternatives.iter().any(|alt| {
            alt.as_array().is_some_and(|terms| {
                terms.iter().all(|t| {
                    if let Some(tag) = t.get("tag").and_then(Value::as_str) {
                        let negate = t.get("negate").and_then(Value::as_bool).unwrap_or(false);
                        has_tag(tag) != negate
                    } else if let Some(m) = t.get("sm_ge").and_then(Value::as_str) {
                        model_value(model) >= model_value(m)
                    } else if let Some(m) = t.get("sm_lt").and_then(Value::as_str) {
                        model_value(model) < model_value(m)
                    } else {
                        false
                    }
                })
            })
        }),
        _ => false,
    }
}

impl Replay<'_> {
    /// Whether a condition (`at_model`) holds here.
    fn holds(&self, at_model: &Value) -> bool {
        condition_holds(at_model, &self.model, &|tag| self.has_tag(tag))
    }

    /// vkd3d's backend tags that describe this executor. The tags name vkd3d's own backends
    /// (`d3d12`, `vulkan`, `glsl`, `msl`, `opengl`, `mvk`, `warp`): none of them is us. Only the
    /// driver tags can apply: `llvmpipe`, and `mesa<23.3` on an older Mesa.
    fn has_tag(&self, tag: &str) -> bool {
        match tag {
            "llvmpipe" => self.dev.is_llvmpipe(),
            "mesa<23.3" => self.dev.mesa_version().is_some_and(|v| v < (23, 3)),
            _ => false,
        }
    }

    fn marked(&self, e: &Value, key: &str) -> bool {
        e.get(key)
            .and_then(Value::as_array)
            .is_some_and(|l| l.iter().any(|c| c.get("at_model").is_some_and(|m| self.holds(m))))
    }

    /// An `if` list that does not hold at this model.
    fn if_false(&self, e: &Value) -> bool {
        e.get("if")
            .and_then(Value::as_array)
            .is_some_and(|l| l.iter().any(|c| !c.get("at_model").is_some_and(|m| self.holds(m))))
    }

    fn event(&mut self, e: &Value) {
        let op = e.get("op").and_then(Value::as_str).unwrap_or("");
        let line = e.get("line").and_then(Value::as_u64).unwrap_or(0);
        let inactive = e.get("skip").and_then(Value::as_str).map(str::to_string).or_else(|| {
            (op != "require" && op != "shader" && self.if_false(e)).then(|| "if_condition_false".to_string())
        });
        if let Some(why) = inactive {
            if op == "probe" {
                self.probe_record(e, line, Status::Inactive, format!("inactive: {why}"), None, Vec::new());
            }
            return;
        }
        let is_test_or_resource = !matches!(op, "require" | "shader" | "sampler" | "input_layout");
        if is_test_or_resource {
            if let Some(reason) = self.caps_missing.clone() {
                if op == "probe" {
                    self.probe_record(e, line, Status::Skipped, reason.to_string(), Some(reason), Vec::new());
                }
                return;
            }
        }
        match op {
            "require" => self.require(e),
            "shader" => {}
            "resource" => self.resource(e),
            "sampler" => {
                let slot = e.get("slot").and_then(Value::as_u64).unwrap_or(0) as u32;
                self.samplers.insert(slot, e.clone());
            }
            "input_layout" => {
                self.input_layout = e
                    .get("elements")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .map(|el| Element {
                        slot: el.get("slot").and_then(Value::as_u64).unwrap_or(0) as u32,
                        format: el.get("format").and_then(Value::as_str).unwrap_or("").to_string(),
                        texel_size: el.get("texel_size").and_then(Value::as_u64).unwrap_or(0) as u32,
                        semantic: el.get("semantic").and_then(Value::as_str).unwrap_or("").to_string(),
                        index: el.get("semantic_index").and_then(Value::as_u64).unwrap_or(0) as u32,
                    })
                    .collect();
            }
            "uniform" => {
                let offset = e.get("offset").and_then(Value::as_u64).unwrap_or(0) as usize;
                let words: Vec<u32> = e
                    .get("words_u32")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .map(|w| w.as_u64().unwrap_or(0) as u32)
                    .collect();
                let count = (offset + words.len()).max(self.uniforms.len()).next_multiple_of(4);
                self.uniforms.resize(count, 0x7f7f_7f7f);
                self.uniforms[offset..offset + words.len()].copy_from_slice(&words);
            }
            "draw_quad" | "draw" => self.draw(e, op == "draw_quad"),
            "dispatch" => {
                self.last_draw_todo = self.marked(e, "todo") || self.marked(e, "bug");
                self.last_blobs = self.blobs_of(e);
                let o = match self.try_dispatch(e) {
                    Ok(()) => Outcome::Ok,
                    Err(DrawError::Skip(s)) => Outcome::Skipped(s),
                    Err(DrawError::Fail(f)) => Outcome::Failed(f),
                };
                for ((ty, _), r) in self.resources.iter_mut() {
                    if ty == "uav" {
                        r.tainted = match &o {
                            Outcome::Ok => None,
                            other => Some(other.clone()),
                        };
                    }
                }
                self.last_render = o;
            }
            "probe" => self.probe(e, line),
            "clear_rtv" => self.clear_rtv(e),
            "clear_dsv" => self.clear_dsv(e),
            "depth_func" => {
                if let Some(f) = e.get("func").and_then(Value::as_str).and_then(compare_function) {
                    self.depth_func = f;
                }
            }
            "sample_mask" => self.sample_mask = e.get("mask").and_then(Value::as_u64).unwrap_or(0) as u32,
            "viewport" => self.viewport(e, line),
            "copy" => self.copy(e, line),
            "clip_plane" => {
                let index = e.get("index").and_then(Value::as_u64).unwrap_or(0);
                let on = e.get("enable").and_then(Value::as_bool).unwrap_or(false);
                self.fixed_function.insert(format!("clip plane {index}"), on);
            }
            // D3D9 fixed-function state: a draw while one is on is skipped (`fixed_function`).
            // Each is off in its default state only; a form the runner does not know counts as on.
            "fog" => {
                // vkd3d's `fog none` enables fog with no table mode (vertex fog): only `disable`
                // turns it off.
                let mode = e.get("mode").and_then(Value::as_str).unwrap_or("");
                self.fixed_function.insert("fog".into(), mode != "disable");
            }
            // The colour fog blends towards: no effect of its own while fog is off.
            "fog_colour" => {}
            "point_size" => {
                let n = |k: &str, d: f64| e.get(k).and_then(Value::as_f64).unwrap_or(d);
                // Sizes are clamped to [min, max]: the default is 1, min 1.
                let size = n("size", 0.0).clamp(n("min", 1.0), n("max", f64::MAX).max(n("min", 1.0)));
                self.fixed_function.insert("point size".into(), size != 1.0);
            }
            "point_sprite" => {
                let on = e.get("on").and_then(Value::as_bool).unwrap_or(true);
                self.fixed_function.insert("point sprites".into(), on);
            }
            "alpha_test" => {
                // The default function is `always`, which keeps every pixel.
                let func = e.get("func").and_then(Value::as_str).unwrap_or("");
                self.fixed_function.insert("alpha test".into(), func != "always");
            }
            "shade_mode" => {
                // The default mode is `gouraud`; `flat` takes the provoking vertex's colours.
                let mode = e.get("mode").and_then(Value::as_str).unwrap_or("");
                self.fixed_function.insert("shade mode".into(), mode != "gouraud");
            }
            "depth_bounds" => {
                self.caps_missing = Some(SkipReason::Capability { capability: "depth-bounds test".into() });
            }
            other => {
                // A failure naming it (input errors count as failed); the replay goes on.
                let msg = format!("{} {} line {line}: unhandled op `{other}`", self.rel, self.run);
                self.input_errors.push(msg);
            }
        }
    }

    /// `viewport`: viewport `index` of D3D's viewport array (`RSSetViewports` of every viewport
    /// set so far), depths 0–1.
    fn viewport(&mut self, e: &Value, line: u64) {
        let index = e.get("index").and_then(Value::as_u64).unwrap_or(0) as usize;
        let f = |k: &str| e.get(k).and_then(Value::as_f64).map(|v| v as f32);
        let (Some(x), Some(y), Some(w), Some(h)) = (f("x"), f("y"), f("width"), f("height")) else {
            self.input_errors.push(format!("{} {} line {line}: malformed viewport", self.rel, self.run));
            return;
        };
        // D3D11's D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE.
        if index >= 16 {
            self.input_errors.push(format!("{} {} line {line}: viewport index {index} (0-15)", self.rel, self.run));
            return;
        }
        if self.viewports.len() <= index {
            self.viewports.resize(index + 1, [0.0; 4]);
        }
        self.viewports[index] = [x, y, w, h];
    }

    /// `copy`: the whole of `src` into `dst` (D3D's `CopyResource`: every mip and layer, the
    /// bytes unchanged whatever the two formats; vkd3d requires equal dimensions, texel sizes,
    /// level and sample counts). The destination takes the source's outcome: a copy of what a
    /// skipped or failed draw wrote is as unknown as the source.
    fn copy(&mut self, e: &Value, line: u64) {
        let key = |k: &str| -> Option<(String, u32)> {
            let r = e.get(k)?;
            let ty = r.get("type")?.as_str()?.to_string();
            let slot = if ty == "dsv" { 0 } else { r.get("slot").and_then(Value::as_u64).unwrap_or(0) as u32 };
            Some((ty, slot))
        };
        let at = format!("{} {} line {line}", self.rel, self.run);
        let (Some(src), Some(dst)) = (key("src"), key("dst")) else {
            self.input_errors.push(format!("{at}: malformed copy"));
            return;
        };
        let (Some(s), Some(d)) = (self.resources.get(&src), self.resources.get(&dst)) else {
            self.input_errors.push(format!("{at}: copy of an undefined resource ({src:?} to {dst:?})"));
            return;
        };
        let (a, b) = (&s.desc, &d.desc);
        let shape = |x: &Desc| (x.is_buffer(), x.texel_size, x.width, x.height, x.levels, x.sample_count());
        if shape(a) != shape(b) || (!a.is_buffer() && (a.depth, a.layers, &a.kind) != (b.depth, b.layers, &b.kind)) {
            self.input_errors.push(format!("{at}: copy between resources of different dimensions"));
            return;
        }
        let tainted = s.tainted.clone();
        let result = match (&s.buffer, &d.buffer, &s.texture, &d.texture) {
            (Some(from), Some(to), _, _) => copy_buffer(self.dev, from, to),
            (_, _, Some(from), Some(to)) => copy_texture(self.dev, from, to, a.texel_size),
            _ => Err("a resource that was not created".to_string()),
        };
        let d = self.resources.get_mut(&dst).expect("looked up above");
        d.tainted = match result {
            Ok(()) => tainted,
            Err(f) => Some(Outcome::Failed(format!("copy from {} {}: {f}", src.0, src.1))),
        };
    }

    fn require(&mut self, e: &Value) {
        if let Some(m) = e.get("model").and_then(Value::as_str) {
            self.model = m.to_string();
        }
        self.caps_missing = None;
        // Every cap the suites require is one WebGPU lacks (or a fixed-function feature), except
        // `float64` (the translator emulates doubles; a shader it refuses is skipped as refused),
        // `geometry-shader` (the primitive stage emulates them) and `rt-vp-array-index` (the
        // draw is replayed once per layer with the per-primitive selection, docs/per-primitive.md).
        let mut caps = e.get("caps").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str);
        if let Some(cap) = caps.find(|&c| !matches!(c, "float64" | "geometry-shader" | "rt-vp-array-index")) {
            let reason = match cap {
                "clip-planes" => SkipReason::FixedFunction { feature: "clip planes".into() },
                "point-size" => SkipReason::FixedFunction { feature: "point size".into() },
                "fog" => SkipReason::FixedFunction { feature: "fog".into() },
                "int64" => SkipReason::Capability { capability: "int64 (WGSL has no 64-bit integers)".into() },
                "tessellation-shader" => SkipReason::Capability { capability: "tessellation".into() },
                "rov" => SkipReason::Capability { capability: "rasterizer-ordered views".into() },
                "wave-ops" => SkipReason::Capability { capability: "wave operations".into() },
                "native-16-bit" => SkipReason::Capability { capability: "native 16-bit types (SM6.2)".into() },
                "depth-bounds" => SkipReason::Capability { capability: "depth-bounds test".into() },
                other => SkipReason::Capability { capability: other.to_string() },
            };
            self.caps_missing = Some(reason);
            return;
        }
        for fc in e.get("format_caps").and_then(Value::as_array).into_iter().flatten() {
            let format = fc.get("format").and_then(Value::as_str).unwrap_or("");
            // WebGPU's read-write storage textures cover exactly r32float, r32uint and r32sint.
            if !matches!(format, "r32-float" | "r32-uint" | "r32-sint") {
                self.caps_missing = Some(SkipReason::Capability { capability: format!("typed UAV loads of {format}") });
                return;
            }
        }
    }

    fn resource(&mut self, e: &Value) {
        let desc = Desc::from_event(e);
        let slot = e.get("slot").and_then(Value::as_u64).unwrap_or(0) as u32;
        let key = (desc.ty.clone(), if desc.ty == "dsv" { 0 } else { slot });
        let res = self.create(desc);
        self.resources.insert(key, res);
    }

    fn create(&mut self, desc: Desc) -> Resource {
        let dev = self.dev;
        let mut res = Resource { desc, texture: None, buffer: None, counter: None, depth_copy: None, tainted: None };
        let d = &res.desc;
        if d.ty == "vb" || d.is_buffer() {
            // Vertex buffers apart: wgpu pads buffers with VERTEX usage (see `draw.rs`); the
            // primitive stage pulls them as storage buffers.
            let usage = if d.ty == "vb" {
                wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::STORAGE
            } else {
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST
            };
            let mut bytes: Vec<u8> = bytemuck::cast_slice(&d.data).to_vec();
            if d.ty == "uav" && bytes.len() < (d.width * d.texel_size.max(1)) as usize {
                bytes.resize((d.width * d.texel_size.max(1)) as usize, 0);
            }
            res.buffer = Some(dev.buffer("test buffer", &bytes, usage));
            if d.ty == "uav" && d.uav_counter {
                res.counter = Some(dev.buffer("uav counter", &[0; 4], usage));
            }
            return res;
        }
        let Some((format, texel_words)) = texture_format(&d.format) else { return res };
        let (dimension, layers) = match d.kind.as_str() {
            "3d" => (wgpu::TextureDimension::D3, d.depth),
            _ => (wgpu::TextureDimension::D2, d.layers),
        };
        let mut usage = wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST;
        match d.ty.as_str() {
            "rtv" | "dsv" => usage |= wgpu::TextureUsages::RENDER_ATTACHMENT,
            "uav" => usage |= wgpu::TextureUsages::STORAGE_BINDING,
            _ => {}
        }
        if d.ty != "uav" {
            usage |= wgpu::TextureUsages::TEXTURE_BINDING;
        }
        if d.samples > 1 {
            // Copied whole into another of its format and sample count (`copy`).
            usage = wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::COPY_DST;
        }
        if format == wgpu::TextureFormat::Depth32Float {
            usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
            if d.samples <= 1 {
                // Probes read it back (`Device::read_depth_texels`); `copy` copies it whole.
                usage |= wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST;
            }
        }
        let texture = dev.scoped(|device| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some("test texture"),
                size: wgpu::Extent3d { width: d.width, height: d.height, depth_or_array_layers: layers },
                mip_level_count: d.levels,
                sample_count: d.sample_count(),
                dimension,
                format,
                usage,
                view_formats: &[],
            })
        });
        let texture = match texture {
            Ok(t) => t,
            Err(e) => {
                res.tainted = Some(Outcome::Failed(format!("texture creation failed: {e}")));
                return res;
            }
        };
        if !d.data.is_empty() && d.samples <= 1 && format != wgpu::TextureFormat::Depth32Float {
            upload(dev, &texture, d, texel_words, dimension);
        }
        res.texture = Some(texture);
        res
    }

    fn default_target(&mut self) {
        if !self.resources.contains_key(&("rtv".to_string(), 0))
            && !self.resources.contains_key(&("dsv".to_string(), 0))
        {
            let r = self.create(Desc::default_rt());
            self.resources.insert(("rtv".into(), 0), r);
        }
    }

    fn blobs_of(&self, e: &Value) -> Vec<String> {
        let mut v = Vec::new();
        if let Some(map) = e.get("shaders").and_then(Value::as_object) {
            for s in map.values() {
                if let Some(d) = s.get("dxbc").and_then(Value::as_str) {
                    v.push(format!("{}/{d}", self.rel));
                }
            }
        }
        v
    }

    fn typed_buffer_formats(&self) -> Vec<(ViewRegister, TypedBufferFormat)> {
        let mut v = Vec::new();
        for ((ty, slot), r) in &self.resources {
            if ty == "srv" && r.desc.is_buffer() && r.desc.kind == "buffer" && r.desc.format != "unknown" {
                let n = (r.desc.texel_size / 4).clamp(1, 4) as u8;
                let f = if r.desc.format.ends_with("-uint") {
                    TypedBufferFormat::Uint32(n)
                } else if r.desc.format.ends_with("-sint") {
                    TypedBufferFormat::Sint32(n)
                } else {
                    TypedBufferFormat::Float32(n)
                };
                v.push((ViewRegister::new(*slot), f));
            }
        }
        v
    }

    /// `srv`s of the `2dms` size form with one sample: a `texture2dms` declared with sample
    /// count 0 views them as the single-sampled textures they are (D3D binds them; WGSL types a
    /// multisampled texture apart).
    fn texture2dms_views(&self) -> Vec<(ViewRegister, Texture2dmsView)> {
        self.resources
            .iter()
            .filter(|((ty, _), r)| ty == "srv" && r.desc.kind == "2dms" && r.desc.sample_count() == 1)
            .map(|((_, slot), _)| (ViewRegister::new(*slot), Texture2dmsView::SingleSampled))
            .collect()
    }

    fn typed_uav_formats(&self) -> Vec<(ViewRegister, TexelFormat)> {
        let mut v = Vec::new();
        for ((ty, slot), r) in &self.resources {
            if ty != "uav" {
                continue;
            }
            let f = match r.desc.format.as_str() {
                "r32-float" => TexelFormat::R32Float,
                "r32-uint" => TexelFormat::R32Uint,
                "r32-sint" => TexelFormat::R32Sint,
                "r32g32-float" => TexelFormat::Rg32Float,
                "r32g32-uint" => TexelFormat::Rg32Uint,
                "r32g32-sint" => TexelFormat::Rg32Sint,
                "r32g32b32a32-float" => TexelFormat::Rgba32Float,
                "r32g32b32a32-uint" => TexelFormat::Rgba32Uint,
                "r32g32b32a32-sint" => TexelFormat::Rgba32Sint,
                _ => continue,
            };
            v.push((ViewRegister::new(*slot), f));
        }
        v
    }

    fn program(&mut self, dxbc: &str, options: &TranslateOptions) -> Result<Program, DrawError> {
        let key = format!("{dxbc}\u{0}{options:?}");
        if let Some(p) = self.programs.get(&key) {
            return p.clone();
        }
        let path = self.dir.join(dxbc);
        let p = std::fs::read(&path)
            .map_err(|e| DrawError::Fail(format!("cannot read {}: {e}", path.display())))
            .and_then(|bytes| dxbc_wgsl::translate(&bytes, options).map_err(|e| translate_error(&e)))
            .map(Program::from_translation);
        self.programs.insert(key, p.clone());
        p
    }

    fn draw(&mut self, e: &Value, quad: bool) {
        self.last_draw_todo = self.marked(e, "todo") || self.marked(e, "bug");
        self.last_blobs = self.blobs_of(e);
        let outcome = self.try_draw(e, quad);
        let result = match outcome {
            Ok(()) => Outcome::Ok,
            Err(DrawError::Skip(s)) => Outcome::Skipped(s),
            Err(DrawError::Fail(f)) => Outcome::Failed(f),
        };
        // Every target the draw would have written carries its outcome.
        for ((ty, _), r) in self.resources.iter_mut() {
            if matches!(ty.as_str(), "rtv" | "dsv" | "uav") {
                r.tainted = match &result {
                    Outcome::Ok => None,
                    other => Some(other.clone()),
                };
            }
        }
        self.last_render = result;
    }

    fn try_draw(&mut self, e: &Value, quad: bool) -> Result<(), DrawError> {
        if let Some((feature, _)) = self.fixed_function.iter().find(|(_, on)| **on) {
            return Err(DrawError::Skip(SkipReason::FixedFunction { feature: feature.clone() }));
        }
        let shaders = e.get("shaders").and_then(Value::as_object).cloned().unwrap_or_default();
        if let Some(stages) = e.get("render_expected_to_fail").and_then(Value::as_array) {
            // vkd3d's compiler could not build a stage: the converter marks what follows.
            return Err(DrawError::Fail(format!("no blob for {stages:?} (vkd3d could not compile it)")));
        }
        let topology_name =
            if quad { "triangle list" } else { e.get("topology").and_then(Value::as_str).unwrap_or("") };
        let geometry = shaders.contains_key("gs");
        let d3d_topology = d3d_topology(topology_name);
        let topology = match (topology_name, geometry) {
            (_, true) => wgpu::PrimitiveTopology::TriangleList,
            ("triangle list", _) => wgpu::PrimitiveTopology::TriangleList,
            ("triangle strip", _) => wgpu::PrimitiveTopology::TriangleStrip,
            ("point list", _) => wgpu::PrimitiveTopology::PointList,
            (other, _) => {
                return Err(DrawError::Skip(SkipReason::Capability {
                    capability: format!("topology `{other}` (tessellation)"),
                }))
            }
        };
        self.default_target();
        if quad {
            let bytes: &[u8] = bytemuck::cast_slice(&QUAD);
            let words: Vec<u32> = bytemuck::cast_slice(bytes).to_vec();
            let mut vb = Desc::default_rt();
            vb.ty = "vb".into();
            vb.dimension = "buffer".into();
            vb.kind = String::new();
            vb.width = 24;
            vb.data = words;
            let r = self.create(vb);
            self.resources.insert(("vb".into(), 0), r);
            self.input_layout = vec![Element {
                slot: 0,
                format: "r32g32-float".into(),
                texel_size: 8,
                semantic: "position".into(),
                index: 0,
            }];
        }
        let mut options = TranslateOptions {
            typed_buffer_formats: self.typed_buffer_formats(),
            typed_uav_formats: self.typed_uav_formats(),
            texture2dms_views: self.texture2dms_views(),
            ..Default::default()
        };
        if geometry {
            let Some(topology) = d3d_topology else {
                return Err(DrawError::Fail(format!("topology `{topology_name}` unknown")));
            };
            return self.try_geometry_draw(e, &shaders, topology, options, quad);
        }
        // A vertex shader writing SV_RenderTargetArrayIndex or SV_ViewportArrayIndex: the pixel
        // shader selects the primitives of each layer's draw. (A vertex shader this translation
        // refuses or fails is reported below, in the stages' order.)
        let per_primitive = match shaders.get("vs").and_then(|s| s.get("dxbc")).and_then(Value::as_str) {
            Some(dxbc) => self.program(dxbc, &options).ok().and_then(|p| p.translation).map(|t| t.per_primitive),
            None => None,
        }
        .filter(|p| p.selects());
        let mut programs: BTreeMap<String, Program> = BTreeMap::new();
        // Translate every stage first: a refused stage (geometry, hull, domain) skips the draw.
        // The pixel shader goes first: the vertex shader's outputs take its interpolation modes
        // (WebGPU requires both sides of a varying to agree; D3D declares them in the pixel
        // shader only).
        let mut stages: Vec<(&String, &Value)> = shaders.iter().collect();
        stages.sort_by_key(|(stage, _)| if stage.as_str() == "ps" { 0 } else { 1 });
        for (stage, s) in stages {
            let Some(dxbc) = s.get("dxbc").and_then(Value::as_str) else {
                return Err(DrawError::Fail(format!("no blob for stage {stage}")));
            };
            let p = match stage.as_str() {
                "ps" => self.program(dxbc, &TranslateOptions { primitive_select: per_primitive, ..options.clone() })?,
                _ => self.program(dxbc, &options)?,
            };
            if stage == "ps" {
                if let Some(t) = &p.translation {
                    options.vertex_output_interpolation =
                        t.inputs.iter().filter_map(|i| Some((i.location?, i.interpolation?))).collect();
                }
            }
            programs.insert(stage.clone(), p);
        }
        for stage in programs.keys() {
            if stage != "vs" && stage != "ps" {
                return Err(DrawError::Fail(format!("stage {stage} translated, but the runner draws only vs+ps")));
            }
        }
        let (Some(vs), Some(ps)) = (programs.get("vs"), programs.get("ps")) else {
            return Err(DrawError::Fail("a draw without a vertex or pixel shader".into()));
        };
        let vertex = self.vertex_inputs(vs)?;
        let vertex_count = if quad { 3 } else { e.get("vertex_count").and_then(Value::as_u64).unwrap_or(0) as u32 };
        let instance_count = if quad { 1 } else { e.get("instance_count").and_then(Value::as_u64).unwrap_or(1) as u32 };

        let Targets { color, depth, sample_count, viewport, stand_ins } = self.targets(ps)?;
        let draw = Draw {
            vs,
            ps,
            vertex,
            topology,
            vertex_count,
            instance_count,
            color,
            depth,
            sample_count,
            sample_mask: if self.sample_mask == 0 { !0 } else { u64::from(self.sample_mask) },
            viewport,
            viewports: self.viewports.clone(),
            selected: per_primitive.is_some(),
        };
        let Replay { dev, renderer, resources, samplers, uniforms, .. } = self;
        let mut resolve = |_: ShaderStage, b: &ResourceBinding| bind(dev, resources, samplers, uniforms, b);
        let result = renderer.draw(dev, &draw, &mut resolve);
        for (stand_in, texture, texel_size, _) in stand_ins {
            copy_bits(self.dev, &stand_in, &texture, texel_size);
        }
        result
    }

    /// A draw with a geometry shader, through the primitive stage: the vertex shader pulled as
    /// compute from the input layout, the geometry shader, the pass-through vertex shader of
    /// its output and the pixel shader behind it.
    fn try_geometry_draw(
        &mut self,
        e: &Value,
        shaders: &serde_json::Map<String, Value>,
        topology: crate::primitive_stage::Topology,
        options: TranslateOptions,
        quad: bool,
    ) -> Result<(), DrawError> {
        let blob = |stage: &str| -> Result<String, DrawError> {
            shaders
                .get(stage)
                .and_then(|s| s.get("dxbc"))
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| DrawError::Fail(format!("no blob for stage {stage}")))
        };
        for stage in shaders.keys() {
            if !matches!(stage.as_str(), "vs" | "gs" | "ps") {
                // Translate it for its refusal (hull and domain shaders): a skip, else a failure.
                self.program(&blob(stage)?, &options)?;
                return Err(DrawError::Fail(format!("stage {stage} translated, but the runner draws vs+gs+ps only")));
            }
        }
        // A geometry shader writing SV_RenderTargetArrayIndex or SV_ViewportArrayIndex: the pixel
        // shader selects the primitives of each layer's draw (a refusal is reported below).
        let per_primitive = self
            .program(&blob("gs")?, &options)
            .ok()
            .and_then(|p| p.translation)
            .map(|t| t.per_primitive)
            .filter(|p| p.selects());
        let ps = self.program(
            &blob("ps")?,
            &TranslateOptions { behind_geometry: true, primitive_select: per_primitive, ..options.clone() },
        )?;
        let gs = self.program(&blob("gs")?, &options)?;
        let Some(gs_t) = gs.translation.clone() else { return Err(DrawError::Fail("no geometry translation".into())) };
        let Some(info) = gs_t.geometry.clone() else {
            return Err(DrawError::Fail(format!("{} is not a geometry shader", blob("gs")?)));
        };
        // The vertex shader's input registers, by semantic, from its input signature.
        let vs_blob = blob("vs")?;
        let vs_inputs = self.program(&vs_blob, &options)?.translation.map(|t| t.inputs).unwrap_or_default();
        let mut offsets: BTreeMap<u32, u32> = BTreeMap::new();
        let mut elements = Vec::new();
        for el in &self.input_layout {
            let offset = offsets.entry(el.slot).or_insert(0);
            let at = *offset;
            *offset += el.texel_size;
            let input = vs_inputs.iter().find(|i| {
                i.builtin.is_none() && i.semantic.eq_ignore_ascii_case(&el.semantic) && i.semantic_index == el.index
            });
            let Some(input) = input else { continue };
            let format = pulled_format(&el.format)
                .ok_or_else(|| DrawError::Fail(format!("input-layout format {} not supported", el.format)))?;
            elements.push(PulledElement {
                register: input.register,
                slot: el.slot,
                offset: at,
                format,
                instance_step_rate: None,
            });
        }
        let slots = offsets.keys().next_back().map_or(0, |s| s + 1);
        let strides: Vec<u32> = (0..slots).map(|s| offsets.get(&s).copied().unwrap_or(0)).collect();
        let pulling = VertexPulling { elements, strides, record_registers: info.input_registers };
        let mut vertex_slots: Vec<u32> = pulling.elements.iter().map(|el| el.slot).collect();
        vertex_slots.sort_unstable();
        vertex_slots.dedup();
        let vs =
            self.program(&vs_blob, &TranslateOptions { vertex_stage: VertexStage::Compute(pulling), ..options })?;
        let interpolation: Vec<(u32, Interpolation)> = ps
            .translation
            .as_ref()
            .map(|t| t.inputs.iter().filter_map(|i| Some((i.location?, i.interpolation?))).collect())
            .unwrap_or_default();
        let draw_vs = dxbc_wgsl::geometry_draw_vertex_shader(&gs_t, &interpolation)
            .map(Program::from_translation)
            .map_err(|e| translate_error(&e))?;
        let stage = crate::primitive_stage::stage_desc(&info, vertex_slots);
        let vertex_buffers: Vec<Option<wgpu::Buffer>> =
            (0..slots).map(|s| self.resources.get(&("vb".to_string(), s)).and_then(|r| r.buffer.clone())).collect();
        let vertex_count = if quad { 3 } else { e.get("vertex_count").and_then(Value::as_u64).unwrap_or(0) as u32 };
        let instance_count = if quad { 1 } else { e.get("instance_count").and_then(Value::as_u64).unwrap_or(1) as u32 };
        let Targets { color, depth, sample_count, viewport, stand_ins } = self.targets(&ps)?;
        let draw = GeometryDraw {
            vs: &vs,
            gs: &gs,
            draw_vs: &draw_vs,
            ps: &ps,
            stage,
            call: DrawCall {
                topology,
                vertex_count,
                instance_count,
                first_vertex: 0,
                base_vertex: 0,
                first_instance: 0,
                index: None,
            },
            vertex_buffers,
            color,
            depth,
            sample_count,
            sample_mask: if self.sample_mask == 0 { !0 } else { u64::from(self.sample_mask) },
            viewport,
            viewports: self.viewports.clone(),
            selected: per_primitive.is_some(),
        };
        let Replay { dev, renderer, resources, samplers, uniforms, .. } = self;
        let mut resolve = |_: ShaderStage, b: &ResourceBinding| bind(dev, resources, samplers, uniforms, b);
        let result = renderer.draw_geometry(dev, &draw, &mut resolve);
        for (stand_in, texture, texel_size, _) in stand_ins {
            copy_bits(self.dev, &stand_in, &texture, texel_size);
        }
        result
    }

    /// The draw's targets: every rtv (a target whose scalar kind differs from the pixel
    /// shader's output through a stand-in), the dsv; the viewport is the smallest target.
    fn targets(&self, ps: &Program) -> Result<Targets, DrawError> {
        let mut viewport = (u32::MAX, u32::MAX);
        let mut sample_count = 1;
        let mut color: Vec<Option<ColorTarget>> = Vec::new();
        // Targets whose format's scalar kind differs from the shader's output: drawn into a
        // stand-in of the output's kind and copied back bit for bit (D3D writes the raw bits).
        let mut stand_ins: Vec<(wgpu::Texture, wgpu::Texture, u32, u32)> = Vec::new();
        let outputs: HashMap<u32, ScalarKind> = ps
            .translation
            .as_ref()
            .map(|t| t.outputs.iter().filter_map(|o| o.location.map(|l| (l, o.scalar))).collect())
            .unwrap_or_default();
        for ((ty, slot), r) in &self.resources {
            if ty != "rtv" && ty != "dsv" {
                continue;
            }
            viewport = (viewport.0.min(r.desc.width), viewport.1.min(r.desc.height));
            sample_count = sample_count.max(r.desc.sample_count());
            if ty == "dsv" {
                continue;
            }
            let Some(texture) = &r.texture else {
                return Err(DrawError::Fail(format!("render target {slot} could not be created")));
            };
            let format = texture.format();
            let i = *slot as usize;
            if color.len() <= i {
                color.resize(i + 1, None);
            }
            let mut target_tex = texture.clone();
            if let Some(&kind) = outputs.get(slot) {
                if kind != format_kind(format) {
                    let stand_in = self.dev.device.create_texture(&wgpu::TextureDescriptor {
                        label: Some("stand-in target"),
                        size: texture.size(),
                        mip_level_count: 1,
                        sample_count: texture.sample_count(),
                        dimension: wgpu::TextureDimension::D2,
                        format: with_kind(format, kind),
                        usage: texture.usage(),
                        view_formats: &[],
                    });
                    if texture.sample_count() > 1 {
                        return Err(DrawError::Fail("multisampled target of another scalar kind".into()));
                    }
                    copy_bits(self.dev, texture, &stand_in, r.desc.texel_size);
                    stand_ins.push((stand_in.clone(), texture.clone(), r.desc.texel_size, *slot));
                    target_tex = stand_in;
                }
            }
            color[i] = Some(ColorTarget {
                view: target_tex.create_view(&wgpu::TextureViewDescriptor {
                    dimension: Some(wgpu::TextureViewDimension::D2),
                    array_layer_count: Some(1),
                    ..Default::default()
                }),
                layers: layer_views(&target_tex),
                format: target_tex.format(),
                clear: false,
            });
        }
        let depth = match self.resources.get(&("dsv".to_string(), 0)) {
            Some(r) => match &r.texture {
                Some(t) => Some(DepthTarget {
                    view: t.create_view(&Default::default()),
                    layers: layer_views(t),
                    compare: self.depth_func,
                }),
                None => return Err(DrawError::Fail("depth target could not be created".into())),
            },
            None => None,
        };
        if sample_count > 1
            && !self.dev.adapter_format_features
            && color.iter().flatten().any(|c| c.format == wgpu::TextureFormat::Rgba32Float)
        {
            return Err(DrawError::Skip(SkipReason::Capability {
                capability: "multisampled RGBA32 float render targets".into(),
            }));
        }
        Ok(Targets {
            color,
            depth,
            sample_count,
            viewport: if viewport.0 == u32::MAX { DEFAULT_RT } else { viewport },
            stand_ins,
        })
    }

    fn try_dispatch(&mut self, e: &Value) -> Result<(), DrawError> {
        if e.get("render_expected_to_fail").is_some() {
            return Err(DrawError::Fail("no compute blob (vkd3d could not compile it)".into()));
        }
        let Some(dxbc) = e.get("shaders").and_then(|s| s.get("cs")).and_then(|s| s.get("dxbc")).and_then(Value::as_str)
        else {
            return Err(DrawError::Fail("a dispatch without a compute shader blob".into()));
        };
        let options = TranslateOptions {
            typed_buffer_formats: self.typed_buffer_formats(),
            typed_uav_formats: self.typed_uav_formats(),
            texture2dms_views: self.texture2dms_views(),
            ..Default::default()
        };
        let cs = self.program(dxbc, &options)?;
        if cs.stage != ShaderStage::Compute {
            return Err(DrawError::Fail(format!("{dxbc} is not a compute shader")));
        }
        let groups: Vec<u32> = e
            .get("groups")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|v| v.as_u64().unwrap_or(1) as u32)
            .collect();
        let groups = [
            groups.first().copied().unwrap_or(1),
            groups.get(1).copied().unwrap_or(1),
            groups.get(2).copied().unwrap_or(1),
        ];
        let Replay { dev, renderer, resources, samplers, uniforms, .. } = self;
        let mut resolve = |_: ShaderStage, b: &ResourceBinding| bind(dev, resources, samplers, uniforms, b);
        renderer.dispatch(dev, &cs, groups, &mut resolve)
    }

    fn vertex_inputs(&self, vs: &Program) -> Result<Vec<Option<VertexInput>>, DrawError> {
        let Some(t) = &vs.translation else { return Ok(Vec::new()) };
        let mut slots: Vec<Option<VertexInput>> = Vec::new();
        let mut offsets: BTreeMap<u32, u64> = BTreeMap::new();
        let mut attributes: BTreeMap<u32, Vec<wgpu::VertexAttribute>> = BTreeMap::new();
        for el in &self.input_layout {
            let offset = offsets.entry(el.slot).or_insert(0);
            let at = *offset;
            *offset += u64::from(el.texel_size);
            let input = t.inputs.iter().find(|i| {
                i.location.is_some() && i.semantic.eq_ignore_ascii_case(&el.semantic) && i.semantic_index == el.index
            });
            let Some(input) = input else { continue };
            let format = vertex_format(&el.format, input.scalar)
                .ok_or_else(|| DrawError::Fail(format!("input-layout format {} not supported", el.format)))?;
            attributes.entry(el.slot).or_default().push(wgpu::VertexAttribute {
                format,
                offset: at,
                shader_location: input.location.unwrap_or(0),
            });
        }
        for input in t.inputs.iter().filter(|i| i.location.is_some()) {
            let found = self
                .input_layout
                .iter()
                .any(|el| input.semantic.eq_ignore_ascii_case(&el.semantic) && input.semantic_index == el.index);
            if !found {
                return Err(DrawError::Fail(format!(
                    "vertex input {}{} has no element in the input layout",
                    input.semantic, input.semantic_index
                )));
            }
        }
        for (slot, attrs) in attributes {
            let Some(r) = self.resources.get(&("vb".to_string(), slot)) else {
                return Err(DrawError::Fail(format!("no vertex buffer in slot {slot}")));
            };
            let Some(buffer) = &r.buffer else { return Err(DrawError::Fail("vertex buffer missing".into())) };
            let i = slot as usize;
            if slots.len() <= i {
                slots.resize(i + 1, None);
            }
            slots[i] = Some(VertexInput { stride: offsets[&slot], attributes: attrs, buffer: buffer.clone() });
        }
        Ok(slots)
    }
}

/// The resource for one binding of the plan.
fn bind(
    dev: &Device,
    resources: &mut BTreeMap<(String, u32), Resource>,
    samplers: &BTreeMap<u32, Value>,
    uniforms: &[u32],
    b: &ResourceBinding,
) -> Result<Bound, DrawError> {
    let slot = b.register.slot;
    match (&b.kind, b.register.class) {
        (ResourceKind::UniformBuffer { size_bytes }, _) => {
            if slot == 0 && b.register.space == 0 && !uniforms.is_empty() {
                Ok(Bound::Buffer(uniform_buffer(dev, uniforms, *size_bytes)))
            } else {
                Ok(placeholder(dev, b))
            }
        }
        (ResourceKind::Sampler { comparison }, _) => {
            let Some(s) = samplers.get(&slot) else { return Ok(placeholder(dev, b)) };
            sampler(dev, s, *comparison).map(Bound::Sampler)
        }
        (ResourceKind::Texture { dimension, sample, multisampled }, BindingClass::ShaderResource) => {
            let Some(r) = resources.get_mut(&("srv".to_string(), slot)) else {
                return Ok(placeholder(dev, b));
            };
            if r.desc.is_buffer() {
                return Err(DrawError::Fail(format!("t{slot} is a buffer but the shader binds a texture")));
            }
            let Some(texture) = r.texture.clone() else {
                return Err(DrawError::Fail(format!("t{slot} could not be created")));
            };
            if *multisampled != (texture.sample_count() > 1) {
                return Err(DrawError::Fail(format!("t{slot}: multisampling differs from the shader's")));
            }
            let format = texture.format();
            let texture = match sample {
                TextureSample::Depth => {
                    if r.depth_copy.is_none() {
                        r.depth_copy = Some(depth_copy(dev, &texture).map_err(DrawError::Fail)?);
                    }
                    r.depth_copy.clone().unwrap_or(texture)
                }
                TextureSample::Float => {
                    if format_kind(format) != ScalarKind::Float {
                        return Err(DrawError::Fail(format!(
                            "t{slot}: {format:?} bound where the shader reads floats"
                        )));
                    }
                    if !dev.float32_filterable {
                        return Err(DrawError::Skip(SkipReason::Capability {
                            capability: "float32-filterable (filtering of 32-bit float textures)".into(),
                        }));
                    }
                    texture
                }
                TextureSample::UnfilterableFloat => texture,
                TextureSample::Sint | TextureSample::Uint => {
                    let want = if *sample == TextureSample::Sint { ScalarKind::Sint } else { ScalarKind::Uint };
                    if format_kind(format) != want {
                        return Err(DrawError::Fail(format!(
                            "t{slot}: {format:?} bound where the shader reads {want:?}"
                        )));
                    }
                    texture
                }
            };
            let view_dim = crate::wgpu_map::view_dimension(*dimension);
            let layer_count = match view_dim {
                wgpu::TextureViewDimension::D2 | wgpu::TextureViewDimension::D1 | wgpu::TextureViewDimension::D3 => {
                    Some(1)
                }
                _ => None,
            };
            let layer_count = if view_dim == wgpu::TextureViewDimension::D3 { None } else { layer_count };
            dev.scoped(|_| {
                texture.create_view(&wgpu::TextureViewDescriptor {
                    dimension: Some(view_dim),
                    array_layer_count: layer_count,
                    ..Default::default()
                })
            })
            .map(Bound::View)
            .map_err(|e| DrawError::Fail(format!("t{slot}: {e}")))
        }
        (ResourceKind::StorageBuffer { .. }, class) => {
            let ty = if class == BindingClass::UnorderedAccess { "uav" } else { "srv" };
            match resources.get(&(ty.to_string(), slot)).and_then(|r| r.buffer.clone()) {
                Some(buffer) => Ok(Bound::Buffer(buffer)),
                None => Ok(placeholder(dev, b)),
            }
        }
        (ResourceKind::UavCounter, _) => match resources.get(&("uav".to_string(), slot)) {
            Some(r) if r.desc.is_buffer() => match &r.counter {
                Some(counter) => Ok(Bound::Buffer(counter.clone())),
                None => Err(DrawError::Fail(format!(
                    "the shader uses the hidden counter of u{slot}, whose view the test creates without one"
                ))),
            },
            _ => Ok(placeholder(dev, b)),
        },
        (ResourceKind::StorageTexture { dimension, .. }, _) => {
            match resources.get(&("uav".to_string(), slot)).and_then(|r| r.texture.clone()) {
                // The binding's view dimension (a one-layer texture makes a `2d` view by default,
                // where the shader may declare an array: a D3D 1D array of one slice), of mip 0.
                Some(t) => dev
                    .scoped(|_| {
                        let view_dim = crate::wgpu_map::view_dimension(*dimension);
                        t.create_view(&wgpu::TextureViewDescriptor {
                            dimension: Some(view_dim),
                            mip_level_count: Some(1),
                            array_layer_count: (view_dim == wgpu::TextureViewDimension::D2).then_some(1),
                            ..Default::default()
                        })
                    })
                    .map(Bound::View)
                    .map_err(|e| DrawError::Fail(format!("u{slot}: {e}"))),
                None => Err(DrawError::Fail(format!("u{slot} is not a texture"))),
            }
        }
        _ => Ok(placeholder(dev, b)),
    }
}

impl Replay<'_> {
    fn clear_rtv(&mut self, e: &Value) {
        self.default_target();
        let slot = e.get("slot").and_then(Value::as_u64).unwrap_or(0) as u32;
        let bits: Vec<u32> = e
            .get("value_bits")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().and_then(|s| u32::from_str_radix(s.trim_start_matches("0x"), 16).ok()))
            .collect();
        let Some(r) = self.resources.get_mut(&("rtv".to_string(), slot)) else { return };
        let Some(texture) = &r.texture else { return };
        let format = texture.format();
        let words: Vec<u32> = bits
            .iter()
            .map(|&b| {
                let f = f32::from_bits(b);
                match format_kind(format) {
                    ScalarKind::Float => b,
                    ScalarKind::Uint => f as u32,
                    ScalarKind::Sint => (f as i32) as u32,
                }
            })
            .collect();
        let n = (r.desc.texel_size / 4) as usize;
        if texture.sample_count() > 1 {
            let c = |i: usize| f64::from(f32::from_bits(words.get(i).copied().unwrap_or(0)));
            let color = wgpu::Color { r: c(0), g: c(1), b: c(2), a: c(3) };
            clear_with_pass(self.dev, texture, Some(color), None);
        } else {
            let texel: Vec<u32> = (0..n).map(|i| words.get(i).copied().unwrap_or(0)).collect();
            let size = texture.size();
            let data: Vec<u32> = texel.repeat((size.width * size.height) as usize);
            for layer in 0..size.depth_or_array_layers {
                self.dev.queue.write_texture(
                    wgpu::TexelCopyTextureInfo {
                        texture,
                        mip_level: 0,
                        origin: wgpu::Origin3d { x: 0, y: 0, z: layer },
                        aspect: wgpu::TextureAspect::All,
                    },
                    bytemuck::cast_slice(&data),
                    wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(size.width * r.desc.texel_size),
                        rows_per_image: Some(size.height),
                    },
                    wgpu::Extent3d { width: size.width, height: size.height, depth_or_array_layers: 1 },
                );
            }
        }
        r.tainted = None;
    }

    fn clear_dsv(&mut self, e: &Value) {
        let depth = e.get("depth").and_then(Value::as_f64).unwrap_or(1.0) as f32;
        if let Some(r) = self.resources.get_mut(&("dsv".to_string(), 0)) {
            if let Some(t) = &r.texture {
                clear_with_pass(self.dev, t, None, Some(depth));
            }
            r.tainted = None;
        }
    }

    fn probe_record(
        &mut self,
        e: &Value,
        line: u64,
        status: Status,
        reason: String,
        skip: Option<SkipReason>,
        got: Vec<String>,
    ) {
        let (expected, _, tolerance) = expected_of(e);
        let todo = self.marked(e, "todo") || self.marked(e, "bug") || self.last_draw_todo;
        let status = if status == Status::Failed && todo { Status::TodoFailed } else { status };
        self.records.push(Record {
            source: Source::ShaderTest,
            case: format!("{} {} line {line}", self.rel, self.run),
            blobs: self.last_blobs.clone(),
            expected: expected.iter().map(|(w, k)| show(*w as u32, *k)).collect(),
            got,
            tolerance,
            status,
            reason,
            skip,
            todo,
        });
    }

    fn probe(&mut self, e: &Value, line: u64) {
        match self.last_render.clone() {
            Outcome::Skipped(s) => {
                return self.probe_record(e, line, Status::Skipped, s.to_string(), Some(s), Vec::new())
            }
            Outcome::Failed(f) => {
                return self.probe_record(e, line, Status::Failed, format!("the draw failed: {f}"), None, Vec::new())
            }
            Outcome::Ok => {}
        }
        let target = e.get("target");
        let ty = target.and_then(|t| t.get("type")).and_then(Value::as_str).unwrap_or("rtv").to_string();
        let slot = target.and_then(|t| t.get("slot")).and_then(Value::as_u64).unwrap_or(0) as u32;
        let Some(r) = self.resources.get(&(ty.clone(), slot)) else {
            return self.probe_record(e, line, Status::Failed, format!("no {ty} {slot} to probe"), None, Vec::new());
        };
        match r.tainted.clone() {
            Some(Outcome::Skipped(s)) => {
                return self.probe_record(e, line, Status::Skipped, s.to_string(), Some(s), Vec::new())
            }
            Some(Outcome::Failed(f)) => {
                return self.probe_record(e, line, Status::Failed, format!("{ty} {slot}: {f}"), None, Vec::new())
            }
            _ => {}
        }
        let rect: Vec<u32> = e
            .get("rect")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|v| v.as_u64().unwrap_or(0) as u32)
            .collect();
        let rect = [
            rect.first().copied().unwrap_or(0),
            rect.get(1).copied().unwrap_or(0),
            rect.get(2).copied().unwrap_or(1),
            rect.get(3).copied().unwrap_or(1),
        ];
        let layer = e.get("array_layer").and_then(Value::as_u64).unwrap_or(0) as u32;
        let (expected, wide, tolerance) = expected_of(e);
        let kind = e.get("kind").and_then(Value::as_str).unwrap_or("f32").to_string();
        let ulps = e.get("ulps").and_then(Value::as_u64).unwrap_or(0);
        let words_per_value = if wide { 2 } else { 1 };
        let (texels, stride) = match self.read(&ty, slot, layer, rect, expected.len() * words_per_value) {
            Ok(x) => x,
            Err(DrawError::Skip(s)) => {
                return self.probe_record(e, line, Status::Skipped, s.to_string(), Some(s), Vec::new())
            }
            Err(DrawError::Fail(f)) => return self.probe_record(e, line, Status::Failed, f, None, Vec::new()),
        };
        let _ = tolerance;
        let vkind = expected.first().map(|(_, k)| *k).unwrap_or(ValueKind::U32);
        let ncomp = expected.len();
        let width = (rect[2] - rect[0]) as usize;
        let mut first_bad: Option<(usize, Vec<u32>)> = None;
        for (ti, texel) in texels.chunks(stride).enumerate() {
            let ok = (0..ncomp).all(|c| {
                let exp = expected[c].0;
                if wide {
                    let lo = texel.get(2 * c).copied().unwrap_or(0);
                    let hi = texel.get(2 * c + 1).copied().unwrap_or(0);
                    let got = u64::from(lo) | (u64::from(hi) << 32);
                    if kind == "f64" {
                        ulp_distance_f64(exp, got) <= u128::from(ulps)
                    } else {
                        exp == got
                    }
                } else {
                    let got = texel.get(c).copied().unwrap_or(0);
                    if kind == "f32" {
                        ulp_distance_f32(exp as u32, got) <= ulps
                    } else {
                        exp as u32 == got
                    }
                }
            });
            if !ok && first_bad.is_none() {
                first_bad = Some((ti, texel.to_vec()));
            }
        }
        let show_texel =
            |t: &[u32]| -> Vec<String> { t.iter().take(ncomp * words_per_value).map(|&w| show(w, vkind)).collect() };
        match first_bad {
            None => {
                let got = texels.chunks(stride).next().map(show_texel).unwrap_or_default();
                self.probe_record(e, line, Status::Passed, String::new(), None, got)
            }
            Some((ti, texel)) => {
                let (x, y) = (rect[0] as usize + ti % width.max(1), rect[1] as usize + ti / width.max(1));
                let got = show_texel(&texel);
                let exp: Vec<String> = expected.iter().map(|(w, k)| show(*w as u32, *k)).collect();
                let reason = format!(
                    "texel ({x}, {y}) of {ty} {slot}: expected [{}], got [{}] ({})",
                    exp.join(", "),
                    got.join(", "),
                    if kind == "f32" || kind == "f64" { format!("{ulps} ulps allowed") } else { "exact".to_string() }
                );
                self.probe_record(e, line, Status::Failed, reason, None, got)
            }
        }
    }

    /// Reads the texels of `rect`; returns the words and the words per texel.
    fn read(
        &self,
        ty: &str,
        slot: u32,
        layer: u32,
        rect: [u32; 4],
        probe_words: usize,
    ) -> Result<(Vec<u32>, usize), DrawError> {
        let r = &self.resources[&(ty.to_string(), slot)];
        if let Some(buffer) = &r.buffer {
            // Buffers: elements `left..right` of `probe_words` words each.
            let stride = probe_words.max(1);
            let words = read_buffer(self.dev, buffer).map_err(DrawError::Fail)?;
            let start = rect[0] as usize * stride;
            let end = (rect[2] as usize * stride).min(words.len());
            return Ok((words.get(start..end).unwrap_or(&[]).to_vec(), stride));
        }
        let Some(texture) = &r.texture else { return Err(DrawError::Fail(format!("{ty} {slot} has no texture"))) };
        if texture.format().is_depth_stencil_format() {
            // WebGPU copies a depth aspect only whole, only from a single-sampled texture, and
            // only of depth32float (or depth16unorm) among the formats the runner uses; D3D
            // resolves no depth either.
            if texture.sample_count() > 1 || texture.format() != wgpu::TextureFormat::Depth32Float {
                return Err(DrawError::Skip(SkipReason::Capability {
                    capability: format!(
                        "reading back a {:?} depth target of {} samples (WebGPU copies single-sampled depth32float \
                         only)",
                        texture.format(),
                        texture.sample_count()
                    ),
                }));
            }
            return Ok((self.dev.read_depth_texels(texture, layer, rect).map_err(DrawError::Fail)?, 1));
        }
        let texel_words = (r.desc.texel_size / 4).max(1);
        if texture.sample_count() > 1 {
            let resolved = resolve(self.dev, texture).map_err(DrawError::Fail)?;
            let words = self.dev.read_texels(&resolved, texel_words, 0, rect).map_err(DrawError::Fail)?;
            return Ok((words, texel_words as usize));
        }
        let words = self.dev.read_texels(texture, texel_words, layer, rect).map_err(DrawError::Fail)?;
        Ok((words, texel_words as usize))
    }
}

/// Expected values of a probe as (bits, kind), whether they are 64-bit, and the tolerance text.
fn expected_of(e: &Value) -> (Vec<(u64, ValueKind)>, bool, String) {
    let kind = e.get("kind").and_then(Value::as_str).unwrap_or("f32");
    let ulps = e.get("ulps").and_then(Value::as_u64).unwrap_or(0);
    let wide = matches!(kind, "f64" | "u64" | "i64");
    let mut out = Vec::new();
    if kind == "f32" || kind == "f64" {
        for b in e.get("expected_bits").and_then(Value::as_array).into_iter().flatten() {
            let bits = b.as_str().and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok()).unwrap_or(0);
            out.push((bits, ValueKind::F32));
        }
    } else {
        for v in e.get("expected").and_then(Value::as_array).into_iter().flatten() {
            let bits = if let Some(u) = v.as_u64() {
                u
            } else if let Some(i) = v.as_i64() {
                if wide {
                    i as u64
                } else {
                    u64::from(i as i32 as u32)
                }
            } else {
                0
            };
            out.push((bits, if kind == "i32" { ValueKind::I32 } else { ValueKind::U32 }));
        }
    }
    let tolerance = if kind == "f32" || kind == "f64" { format!("{ulps} ulps") } else { "exact".into() };
    (out, wide, tolerance)
}

fn upload(dev: &Device, texture: &wgpu::Texture, d: &Desc, texel_words: u32, dimension: wgpu::TextureDimension) {
    let bytes: &[u8] = bytemuck::cast_slice(&d.data);
    let mut offset = 0usize;
    for level in 0..d.levels {
        let w = (d.width >> level).max(1);
        let h = (d.height >> level).max(1);
        let depth = if dimension == wgpu::TextureDimension::D3 { (d.depth >> level).max(1) } else { d.layers };
        let size = (w * h * depth * texel_words * 4) as usize;
        let mut chunk: Vec<u8> = bytes.get(offset..(offset + size).min(bytes.len())).unwrap_or(&[]).to_vec();
        chunk.resize(size, 0);
        offset += size;
        dev.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: level,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            &chunk,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(w * texel_words * 4),
                rows_per_image: Some(h),
            },
            wgpu::Extent3d { width: w, height: h, depth_or_array_layers: depth },
        );
    }
}

/// Copies a whole single-sampled texture's bytes into another of the same size and texel size.
fn copy_bits(dev: &Device, from: &wgpu::Texture, to: &wgpu::Texture, texel_size: u32) {
    let size = from.size();
    let row = size.width * texel_size;
    let padded = row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = dev.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bit copy"),
        size: u64::from(padded) * u64::from(size.height) * u64::from(size.depth_or_array_layers),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let layout =
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(padded), rows_per_image: Some(size.height) };
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture: from,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo { buffer: &buffer, layout },
        size,
    );
    encoder.copy_buffer_to_texture(
        wgpu::TexelCopyBufferInfo { buffer: &buffer, layout },
        wgpu::TexelCopyTextureInfo {
            texture: to,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        size,
    );
    dev.queue.submit([encoder.finish()]);
}

/// Copies a buffer's bytes into another (the smaller size).
fn copy_buffer(dev: &Device, from: &wgpu::Buffer, to: &wgpu::Buffer) -> Result<(), String> {
    let size = from.size().min(to.size());
    dev.scoped(|device| {
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(from, 0, to, 0, size);
        dev.queue.submit([encoder.finish()]);
    })
    .map_err(|e| e.to_string())
}

/// Copies every mip and layer of a texture into another of the same size, bit for bit: directly
/// when the formats and sample counts agree (multisampled and depth textures only so, as
/// WebGPU copies them), else through a buffer (D3D copies between formats of one texel size).
fn copy_texture(dev: &Device, from: &wgpu::Texture, to: &wgpu::Texture, texel_size: u32) -> Result<(), String> {
    dev.scoped(|device| {
        let mut encoder = device.create_command_encoder(&Default::default());
        for level in 0..from.mip_level_count() {
            let size = from.size().mip_level_size(level, from.dimension());
            let at = |texture| wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: level,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            };
            if from.format() == to.format() && from.sample_count() == to.sample_count() {
                encoder.copy_texture_to_texture(at(from), at(to), size);
                continue;
            }
            let row = size.width * texel_size;
            let padded = row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("resource copy"),
                size: u64::from(padded) * u64::from(size.height) * u64::from(size.depth_or_array_layers),
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let layout = wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(size.height),
            };
            encoder.copy_texture_to_buffer(at(from), wgpu::TexelCopyBufferInfo { buffer: &buffer, layout }, size);
            encoder.copy_buffer_to_texture(wgpu::TexelCopyBufferInfo { buffer: &buffer, layout }, at(to), size);
        }
        dev.queue.submit([encoder.finish()]);
    })
    .map_err(|e| e.to_string())
}

fn read_buffer(dev: &Device, buffer: &wgpu::Buffer) -> Result<Vec<u32>, String> {
    let size = buffer.size();
    let staging = dev.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("buffer read-back"),
        size,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
    dev.queue.submit([encoder.finish()]);
    let slice = staging.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = sender.send(r);
    });
    dev.wait()?;
    receiver.recv().map_err(|e| e.to_string())?.map_err(|e| e.to_string())?;
    let words = bytemuck::cast_slice::<u8, u32>(&slice.get_mapped_range().map_err(|e| e.to_string())?).to_vec();
    staging.unmap();
    Ok(words)
}

fn clear_with_pass(dev: &Device, texture: &wgpu::Texture, color: Option<wgpu::Color>, depth: Option<f32>) {
    let view = texture.create_view(&Default::default());
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    {
        let color_attachment = color.map(|c| wgpu::RenderPassColorAttachment {
            view: &view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load: wgpu::LoadOp::Clear(c), store: wgpu::StoreOp::Store },
        });
        let _pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("clear"),
            color_attachments: &[color_attachment],
            depth_stencil_attachment: depth.map(|d| wgpu::RenderPassDepthStencilAttachment {
                view: &view,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(d), store: wgpu::StoreOp::Store }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
    }
    dev.queue.submit([encoder.finish()]);
}

fn sampler(dev: &Device, s: &Value, comparison: bool) -> Result<wgpu::Sampler, DrawError> {
    let filter = |k: &str| match s.get("filter").and_then(|f| f.get(k)).and_then(Value::as_str) {
        Some("linear") => wgpu::FilterMode::Linear,
        _ => wgpu::FilterMode::Nearest,
    };
    let mip = match s.get("filter").and_then(|f| f.get("mip")).and_then(Value::as_str) {
        Some("linear") => wgpu::MipmapFilterMode::Linear,
        _ => wgpu::MipmapFilterMode::Nearest,
    };
    let address = |k: &str| -> Result<wgpu::AddressMode, DrawError> {
        match s.get("address").and_then(|a| a.get(k)).and_then(Value::as_str).unwrap_or("clamp") {
            "clamp" => Ok(wgpu::AddressMode::ClampToEdge),
            "wrap" => Ok(wgpu::AddressMode::Repeat),
            "mirror" => Ok(wgpu::AddressMode::MirrorRepeat),
            other => {
                Err(DrawError::Skip(SkipReason::Capability { capability: format!("sampler address mode `{other}`") }))
            }
        }
    };
    let func = s.get("comparison").and_then(Value::as_str).and_then(compare_function);
    let compare = if comparison { Some(func.unwrap_or(wgpu::CompareFunction::Never)) } else { None };
    let desc = wgpu::SamplerDescriptor {
        label: None,
        address_mode_u: address("u")?,
        address_mode_v: address("v")?,
        address_mode_w: address("w")?,
        mag_filter: filter("mag"),
        min_filter: filter("min"),
        mipmap_filter: mip,
        lod_min_clamp: 0.0,
        lod_max_clamp: 1000.0,
        compare,
        anisotropy_clamp: 1,
        border_color: None,
    };
    dev.scoped(|d| d.create_sampler(&desc)).map_err(|e| DrawError::Fail(format!("sampler: {e}")))
}

/// A `Depth32Float` copy of a float texture's first channel (mip 0, every layer), for
/// comparison sampling (WebGPU samples comparisons only from depth textures).
fn depth_copy(dev: &Device, src: &wgpu::Texture) -> Result<wgpu::Texture, String> {
    if src.dimension() != wgpu::TextureDimension::D2 || src.sample_count() > 1 {
        return Err("comparison sampling of a texture that is not a single-sampled 2D texture".into());
    }
    let size = src.size();
    let depth = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("depth copy"),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Depth32Float,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    });
    const WGSL: &str = "@group(0) @binding(0) var src: texture_2d<f32>;\n\
        @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {\n\
            var c = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 3.0), vec2<f32>(3.0, -1.0));\n\
            return vec4<f32>(c[i], 0.0, 1.0);\n}\n\
        @fragment fn fs(@builtin(position) p: vec4<f32>) -> @builtin(frag_depth) f32 {\n\
            return textureLoad(src, vec2<i32>(p.xy), 0).x;\n}\n";
    dev.scoped(|device| {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("depth copy"),
            source: wgpu::ShaderSource::Wgsl(WGSL.into()),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("depth copy"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: wgpu::TextureFormat::Depth32Float,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::Always),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[],
            }),
            multiview_mask: None,
            cache: None,
        });
        let layout = pipeline.get_bind_group_layout(0);
        for layer in 0..size.depth_or_array_layers {
            let src_view = src.create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D2),
                base_array_layer: layer,
                array_layer_count: Some(1),
                mip_level_count: Some(1),
                ..Default::default()
            });
            let dst_view = depth.create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D2),
                base_array_layer: layer,
                array_layer_count: Some(1),
                ..Default::default()
            });
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&src_view),
                }],
            });
            let mut encoder = device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: None,
                    color_attachments: &[],
                    depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                        view: &dst_view,
                        depth_ops: Some(wgpu::Operations {
                            load: wgpu::LoadOp::Clear(0.0),
                            store: wgpu::StoreOp::Store,
                        }),
                        stencil_ops: None,
                    }),
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                });
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &group, &[]);
                pass.draw(0..3, 0..1);
            }
            dev.queue.submit([encoder.finish()]);
        }
    })?;
    Ok(depth)
}

/// Resolves a multisampled float texture into a single-sampled one by averaging its samples (as
/// D3D's `ResolveSubresource` does for float formats).
pub(crate) fn resolve(dev: &Device, src: &wgpu::Texture) -> Result<wgpu::Texture, String> {
    let format = src.format();
    if format_kind(format) != ScalarKind::Float {
        return Err("resolving a multisampled integer target".into());
    }
    let size = src.size();
    let dst = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("resolved"),
        size: wgpu::Extent3d { width: size.width, height: size.height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let n = src.sample_count();
    let wgsl = format!(
        "@group(0) @binding(0) var src: texture_multisampled_2d<f32>;\n\
        @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {{\n\
            var c = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 3.0), vec2<f32>(3.0, -1.0));\n\
            return vec4<f32>(c[i], 0.0, 1.0);\n}}\n\
        @fragment fn fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {{\n\
            var s = vec4<f32>(0.0);\n\
            for (var i = 0; i < {n}; i++) {{ s += textureLoad(src, vec2<i32>(p.xy), i); }}\n\
            return s / {n}.0;\n}}\n"
    );
    dev.scoped(|device| {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("resolve"),
            source: wgpu::ShaderSource::Wgsl(wgsl.into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: None,
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: true,
                },
                count: None,
            }],
        });
        let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("resolve"),
            layout: Some(&pl),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(format.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        let src_view = src.create_view(&Default::default());
        let dst_view = dst.create_view(&Default::default());
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&src_view) }],
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &dst_view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.draw(0..3, 0..1);
        }
        dev.queue.submit([encoder.finish()]);
    })?;
    Ok(dst)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dnf(text: &str) -> Value {
        serde_json::from_str(text).expect("json")
    }

    #[test]
    fn conditions_combine_tags_and_models() {
        let llvmpipe = |t: &str| t == "llvmpipe";
        assert!(condition_holds(&Value::Bool(true), "4.0", &llvmpipe));
        assert!(!condition_holds(&Value::Bool(false), "4.0", &llvmpipe));
        // glsl | msl: neither is us.
        let c = dnf(r#"[[{"tag": "glsl", "negate": false}], [{"tag": "msl", "negate": false}]]"#);
        assert!(!condition_holds(&c, "4.0", &llvmpipe));
        // llvmpipe holds on lavapipe only.
        let c = dnf(r#"[[{"tag": "llvmpipe", "negate": false}]]"#);
        assert!(condition_holds(&c, "5.0", &llvmpipe));
        assert!(!condition_holds(&c, "5.0", &|_| false));
        // !vulkan & sm>=5.0
        let c = dnf(r#"[[{"tag": "vulkan", "negate": true}, {"sm_ge": "5.0"}]]"#);
        assert!(condition_holds(&c, "5.0", &llvmpipe));
        assert!(!condition_holds(&c, "4.1", &llvmpipe));
        let c = dnf(r#"[[{"sm_lt": "4.1"}]]"#);
        assert!(condition_holds(&c, "4.0", &llvmpipe));
        assert!(!condition_holds(&c, "4.1", &llvmpipe));
    }

    #[test]
    fn integer_probes_expect_twos_complement_bits() {
        let e = dnf(r#"{"kind": "i32", "components": 2, "expected": [-1, 22], "ulps": 0}"#);
        let (v, wide, tol) = expected_of(&e);
        assert_eq!(v.iter().map(|x| x.0).collect::<Vec<_>>(), [0xffff_ffff, 22]);
        assert!(!wide);
        assert_eq!(tol, "exact");
        let e = dnf(r#"{"kind": "f32", "expected_bits": ["0x7fc00000"], "ulps": 3}"#);
        let (v, _, tol) = expected_of(&e);
        assert_eq!(v[0].0, 0x7fc0_0000);
        assert_eq!(tol, "3 ulps");
    }

    #[test]
    fn formats_keep_their_texel_layout_across_kinds() {
        assert_eq!(with_kind(wgpu::TextureFormat::Rgba32Float, ScalarKind::Uint), wgpu::TextureFormat::Rgba32Uint);
        assert_eq!(with_kind(wgpu::TextureFormat::R32Uint, ScalarKind::Float), wgpu::TextureFormat::R32Float);
        assert_eq!(texture_format("r32g32-uint"), Some((wgpu::TextureFormat::Rg32Uint, 2)));
        assert_eq!(vertex_format("r32g32-float", ScalarKind::Uint), Some(wgpu::VertexFormat::Uint32x2));
    }
}
