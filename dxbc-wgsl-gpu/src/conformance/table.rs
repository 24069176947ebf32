//! Instruction tables (`wine/expected.jsonl`, `vkd3d/expected.jsonl`): one pixel shader, the
//! contents of cb0, one texel of a full-screen draw.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use super::compare::{show, Rule, ValueKind};
use super::draw::{
    fullscreen_vs_for, placeholder, translate_error, uniform_buffer, Bound, ColorTarget, Draw, DrawError, Program,
    Renderer,
};
use super::gpu::Device;
use super::report::{Record, Source, Status};

#[derive(Debug, Deserialize)]
struct Row {
    blob: String,
    cb0_u32: Vec<String>,
    compare: String,
    expected_u32: Vec<String>,
    #[serde(default)]
    flags: HashMap<String, serde_json::Value>,
    #[serde(default)]
    line: Option<u64>,
    #[serde(default)]
    row: Option<u64>,
    rt_format: String,
    #[serde(default)]
    shader_var: Option<String>,
    #[serde(default)]
    ulps: u32,
}

fn hex(s: &str) -> Option<u32> {
    u32::from_str_radix(s.trim_start_matches("0x").trim_start_matches("0X"), 16).ok()
}

/// Runs every row of one table. `corpus` is the folder `blob` paths are relative to.
pub fn run(
    dev: &Device,
    renderer: &mut Renderer,
    path: &Path,
    corpus: &Path,
    records: &mut Vec<Record>,
    input_errors: &mut Vec<String>,
) {
    let rel = path.strip_prefix(corpus).unwrap_or(path).display().to_string();
    let source = if rel.starts_with("wine") {
        Source::WineTable
    } else if rel.starts_with("vkd3d") {
        Source::Vkd3dTable
    } else {
        Source::OtherTable
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            input_errors.push(format!("{}: {e}", path.display()));
            return;
        }
    };
    let mut programs: HashMap<String, Result<(Program, Program), DrawError>> = HashMap::new();
    let float_target = Target::new(dev, wgpu::TextureFormat::Rgba32Float);
    let uint_target = Target::new(dev, wgpu::TextureFormat::Rgba32Uint);
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let row: Row = match serde_json::from_str(line) {
            Ok(r) => r,
            Err(e) => {
                input_errors.push(format!("{rel}:{}: {e}", n + 1));
                continue;
            }
        };
        let case = format!(
            "{rel}:{} ({} row {}, source line {})",
            n + 1,
            row.shader_var.as_deref().unwrap_or("?"),
            row.row.map(|r| r.to_string()).unwrap_or_default(),
            row.line.map(|r| r.to_string()).unwrap_or_default()
        );
        let flag = |name: &str| row.flags.get(name).is_some_and(|v| v.as_bool() != Some(false));
        let (rule, kind) = match row.compare.as_str() {
            "exact_u32" => (Rule::Exact, ValueKind::U32),
            _ => (Rule::Ulps(row.ulps), ValueKind::F32),
        };
        let expected: Vec<u32> = row.expected_u32.iter().filter_map(|s| hex(s)).collect();
        let mut rec = Record {
            source,
            case,
            blobs: vec![row.blob.clone()],
            expected: expected.iter().map(|&w| show(w, kind)).collect(),
            got: Vec::new(),
            tolerance: rule.describe(),
            status: Status::Skipped,
            reason: String::new(),
            skip: None,
            todo: (flag("is_mesa_bug") && dev.is_mesa()) || (flag("todo_on_nvidia") && dev.is_nvidia()),
        };
        let finish = |rec: &mut Record, r: Result<Vec<u32>, DrawError>| match r {
            Ok(got) => {
                rec.got = got.iter().map(|&w| show(w, kind)).collect();
                let bad: Vec<usize> = (0..expected.len())
                    .filter(|&i| got.get(i).is_none_or(|&g| !rule.matches(expected[i], g)))
                    .collect();
                if bad.is_empty() {
                    rec.status = Status::Passed;
                } else {
                    rec.status = if rec.todo { Status::TodoFailed } else { Status::Failed };
                    let comps: Vec<&str> = bad.iter().map(|&i| ["x", "y", "z", "w"][i.min(3)]).collect();
                    rec.reason = format!(
                        "component(s) {} differ: expected [{}], got [{}]",
                        comps.join(""),
                        rec.expected.join(", "),
                        rec.got.join(", ")
                    );
                }
            }
            Err(DrawError::Skip(s)) => {
                rec.status = Status::Skipped;
                rec.reason = s.to_string();
                rec.skip = Some(s);
            }
            Err(DrawError::Fail(f)) => {
                rec.status = if rec.todo { Status::TodoFailed } else { Status::Failed };
                rec.reason = f;
            }
        };
        if expected.len() != row.expected_u32.len() || expected.is_empty() {
            input_errors.push(format!("{rel}:{}: malformed expected_u32", n + 1));
        }
        let progs = programs.entry(row.blob.clone()).or_insert_with(|| load(&corpus.join(&row.blob)));
        let result = match progs {
            Err(e) => Err(e.clone()),
            Ok((vs, ps)) => {
                let target = match row.rt_format.as_str() {
                    "R32G32B32A32_UINT" => Some(&uint_target),
                    "R32G32B32A32_FLOAT" => Some(&float_target),
                    _ => None,
                };
                match target {
                    None => Err(DrawError::Fail(format!("unknown rt_format {}", row.rt_format))),
                    Some(target) => {
                        let cb0: Vec<u32> = row.cb0_u32.iter().filter_map(|s| hex(s)).collect();
                        draw_row(dev, renderer, vs, ps, &cb0, target)
                    }
                }
            }
        };
        finish(&mut rec, result);
        records.push(rec);
    }
}

fn load(path: &Path) -> Result<(Program, Program), DrawError> {
    let bytes = std::fs::read(path).map_err(|e| DrawError::Fail(format!("cannot read {}: {e}", path.display())))?;
    let t = dxbc_wgsl::translate(&bytes, &Default::default()).map_err(|e| translate_error(&e))?;
    if t.stage != dxbc_wgsl::ShaderStage::Pixel {
        return Err(DrawError::Fail(format!("{} is a {:?} shader, not a pixel shader", path.display(), t.stage)));
    }
    let ps = Program::from_translation(t);
    let vs = fullscreen_vs_for(&ps).map_err(DrawError::Fail)?;
    Ok((vs, ps))
}

struct Target {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    format: wgpu::TextureFormat,
    samples: u32,
}

impl Target {
    fn new(dev: &Device, format: wgpu::TextureFormat) -> Self {
        Self::with_samples(dev, format, 1)
    }

    fn with_samples(dev: &Device, format: wgpu::TextureFormat, samples: u32) -> Self {
        let usage = if samples > 1 {
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING
        } else {
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC
        };
        let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("table target"),
            size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        Self { texture, view, format, samples }
    }
}

fn draw_row(
    dev: &Device,
    renderer: &mut Renderer,
    vs: &Program,
    ps: &Program,
    cb0: &[u32],
    target: &Target,
) -> Result<Vec<u32>, DrawError> {
    let draw = Draw {
        vs,
        ps,
        vertex: Vec::new(),
        topology: wgpu::PrimitiveTopology::TriangleList,
        vertex_count: 3,
        instance_count: 1,
        color: vec![Some(ColorTarget {
            view: target.view.clone(),
            layers: Vec::new(),
            format: target.format,
            clear: true,
        })],
        depth: None,
        sample_count: target.samples,
        sample_mask: !0,
        viewport: (1, 1),
        viewports: Vec::new(),
        selected: false,
    };
    renderer.draw(dev, &draw, &mut |_, b| {
        Ok(match (&b.kind, b.register.class, b.register.slot) {
            (dxbc_wgsl::ResourceKind::UniformBuffer { size_bytes }, _, 0) => {
                Bound::Buffer(uniform_buffer(dev, cb0, *size_bytes))
            }
            _ => placeholder(dev, b),
        })
    })?;
    let words = (target.format.block_copy_size(None).unwrap_or(16) / 4).max(1);
    if target.samples > 1 {
        let resolved = super::shader_test::resolve(dev, &target.texture).map_err(DrawError::Fail)?;
        return dev.read_texels(&resolved, words, 0, [0, 0, 1, 1]).map_err(DrawError::Fail);
    }
    dev.read_texels(&target.texture, words, 0, [0, 0, 1, 1]).map_err(DrawError::Fail)
}

/// Translates the pixel shader `bytes`, draws it full-screen into a 1×1 target of `format`
/// (`Rgba32Float`, `Rgba32Uint` or `Rgba32Sint`) with constant buffer 0 holding `cb0`, and returns
/// the texel's four 32-bit words. For regression tests of single instructions.
pub fn run_pixel_shader(
    dev: &Device,
    bytes: &[u8],
    cb0: &[u32],
    format: wgpu::TextureFormat,
) -> Result<Vec<u32>, String> {
    run_pixel_shader_multisampled(dev, bytes, cb0, format, 1)
}

/// [`run_pixel_shader`] drawn with clip-space `w` = `clip_w` at every vertex (same pixels
/// covered): the pixel shader's `SV_Position.w` is then `clip_w` in D3D.
pub fn run_pixel_shader_clip_w(
    dev: &Device,
    bytes: &[u8],
    cb0: &[u32],
    format: wgpu::TextureFormat,
    clip_w: f32,
) -> Result<Vec<u32>, String> {
    let t = dxbc_wgsl::translate(bytes, &Default::default()).map_err(|e| e.to_string())?;
    let ps = Program::from_translation(t);
    let vs = super::draw::fullscreen_vs_with_w(&ps, clip_w)?;
    let target = Target::with_samples(dev, format, 1);
    let mut renderer = Renderer::default();
    draw_row(dev, &mut renderer, &vs, &ps, cb0, &target).map_err(|e| match e {
        DrawError::Skip(s) => s.to_string(),
        DrawError::Fail(f) => f,
    })
}

/// [`run_pixel_shader`] into a target of `samples` samples per pixel, resolved by averaging
/// (float formats); returns the resolved texel's words (one word for `Rgba8Unorm`).
pub fn run_pixel_shader_multisampled(
    dev: &Device,
    bytes: &[u8],
    cb0: &[u32],
    format: wgpu::TextureFormat,
    samples: u32,
) -> Result<Vec<u32>, String> {
    let t = dxbc_wgsl::translate(bytes, &Default::default()).map_err(|e| e.to_string())?;
    let ps = Program::from_translation(t);
    let vs = fullscreen_vs_for(&ps)?;
    let target = Target::with_samples(dev, format, samples);
    let mut renderer = Renderer::default();
    draw_row(dev, &mut renderer, &vs, &ps, cb0, &target).map_err(|e| match e {
        DrawError::Skip(s) => s.to_string(),
        DrawError::Fail(f) => f,
    })
}
