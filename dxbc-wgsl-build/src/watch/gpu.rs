//! A small GPU validator for `watch --gpu` (feature `gpu`): creates each shader module and each
//! permutation's render pipeline on a wgpu device inside error scopes. Temporary: the full GPU
//! validator (bind group layouts from the effect, every render state) replaces it behind the same
//! [`Validate`] trait.

use std::collections::{HashMap, VecDeque};

use sha2::{Digest as _, Sha256};

use super::Validate;
use crate::compile::CompiledEffect;
use crate::stage::{Interface, ScalarKind, StageInfo};

/// Modules kept for reuse (by WGSL content); the oldest go first.
const MODULE_CACHE: usize = 256;

/// Validates on a wgpu device: shader modules and render pipelines (automatic layouts, vertex
/// buffers and colour targets derived from the shaders' interfaces).
pub struct GpuValidator {
    adapter: wgpu::Adapter,
    device: wgpu::Device,
    _queue: wgpu::Queue,
    modules: HashMap<[u8; 32], wgpu::ShaderModule>,
    order: VecDeque<[u8; 32]>,
}

impl GpuValidator {
    /// A device on the adapter whose name contains `adapter` (case-insensitive), or wgpu's default
    /// adapter (`WGPU_BACKEND`, `WGPU_POWER_PREF` apply).
    ///
    /// # Errors
    /// No adapter (with the lavapipe hint), or no device.
    pub fn new(adapter: Option<&str>) -> Result<Self, String> {
        pollster::block_on(async {
            let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
            let adapter = match adapter {
                Some(want) => {
                    let want = want.to_ascii_lowercase();
                    let all = instance.enumerate_adapters(wgpu::Backends::all()).await;
                    let names: Vec<String> = all.iter().map(|a| a.get_info().name).collect();
                    all.into_iter()
                        .find(|a| a.get_info().name.to_ascii_lowercase().contains(&want))
                        .ok_or_else(|| format!("no adapter named like `{want}` (adapters: {})", names.join(", ")))?
                }
                None => instance
                    .request_adapter(&wgpu::RequestAdapterOptions {
                        power_preference: wgpu::PowerPreference::from_env().unwrap_or_default(),
                        ..Default::default()
                    })
                    .await
                    .map_err(|e| format!("{} ({e})", crate::conformance::gpu::NO_ADAPTER_HINT))?,
            };
            let features = adapter.features() & (wgpu::Features::CLIP_DISTANCES | wgpu::Features::PRIMITIVE_INDEX);
            let (device, queue) = adapter
                .request_device(&wgpu::DeviceDescriptor {
                    label: Some("dxbc-wgsl watch"),
                    required_features: features,
                    required_limits: wgpu::Limits::default().using_resolution(adapter.limits()),
                    ..Default::default()
                })
                .await
                .map_err(|e| format!("the adapter `{}` could not create a device: {e}", adapter.get_info().name))?;
            Ok(GpuValidator { adapter, device, _queue: queue, modules: HashMap::new(), order: VecDeque::new() })
        })
    }

    fn scoped<T>(&self, f: impl FnOnce(&wgpu::Device) -> T) -> Result<T, String> {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let value = f(&self.device);
        let validation = pollster::block_on(validation.pop());
        let internal = pollster::block_on(internal.pop());
        let oom = pollster::block_on(oom.pop());
        match validation.or(internal).or(oom) {
            None => Ok(value),
            Some(e) => {
                let text = e.to_string();
                Err(text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" "))
            }
        }
    }

    /// The module of `wgsl`, created once per content.
    fn module(&mut self, label: &str, wgsl: &str) -> Result<wgpu::ShaderModule, String> {
        let key: [u8; 32] = Sha256::digest(wgsl.as_bytes()).into();
        if let Some(m) = self.modules.get(&key) {
            return Ok(m.clone());
        }
        let m = self
            .scoped(|d| {
                d.create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(label),
                    source: wgpu::ShaderSource::Wgsl(wgsl.into()),
                })
            })
            .map_err(|e| format!("{label}: shader module: {e}"))?;
        if self.order.len() >= MODULE_CACHE {
            if let Some(old) = self.order.pop_front() {
                self.modules.remove(&old);
            }
        }
        self.order.push_back(key);
        self.modules.insert(key, m.clone());
        Ok(m)
    }

    /// A render pipeline of `vs` (and `ps`) with an automatic layout, vertex buffers and colour
    /// targets derived from the interfaces.
    fn render_pipeline(
        &self,
        label: &str,
        vs: (&wgpu::ShaderModule, &StageInfo),
        ps: Option<(&wgpu::ShaderModule, &StageInfo)>,
    ) -> Result<(), String> {
        let mut attributes = Vec::new();
        let mut offset = 0;
        for i in vs.1.inputs.iter() {
            if let Some(location) = i.location {
                let format = vertex_format(i);
                attributes.push(wgpu::VertexAttribute { format, offset, shader_location: location });
                offset += format.size();
            }
        }
        let buffers = [Some(wgpu::VertexBufferLayout {
            array_stride: offset.max(4),
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        })];
        let mut targets: Vec<Option<wgpu::ColorTargetState>> = Vec::new();
        let mut depth = false;
        if let Some((_, info)) = &ps {
            for o in &info.outputs {
                match o.location {
                    Some(l) => {
                        let l = l as usize;
                        if targets.len() <= l {
                            targets.resize(l + 1, None);
                        }
                        targets[l] = Some(wgpu::ColorTargetState {
                            format: target_format(o),
                            blend: None,
                            write_mask: wgpu::ColorWrites::ALL,
                        });
                    }
                    None => depth |= o.builtin.as_deref().is_some_and(|b| b.contains("depth")),
                }
            }
        }
        // A vertex-only pipeline needs some attachment: a depth buffer.
        let depth_stencil = (depth || ps.is_none()).then(|| wgpu::DepthStencilState {
            format: wgpu::TextureFormat::Depth32Float,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::Always),
            stencil: Default::default(),
            bias: Default::default(),
        });
        let buffers: &[Option<wgpu::VertexBufferLayout<'_>>] = if attributes.is_empty() { &[] } else { &buffers };
        self.scoped(|d| {
            d.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: None,
                vertex: wgpu::VertexState {
                    module: vs.0,
                    entry_point: Some(&vs.1.entry_point),
                    compilation_options: Default::default(),
                    buffers,
                },
                primitive: Default::default(),
                depth_stencil,
                multisample: Default::default(),
                fragment: ps.map(|(m, info)| wgpu::FragmentState {
                    module: m,
                    entry_point: Some(&info.entry_point),
                    compilation_options: Default::default(),
                    targets: &targets,
                }),
                multiview_mask: None,
                cache: None,
            })
        })
        .map(|_| ())
    }
}

fn vertex_format(i: &Interface) -> wgpu::VertexFormat {
    use wgpu::VertexFormat as F;
    match (i.scalar, i.components) {
        (ScalarKind::Float, 1) => F::Float32,
        (ScalarKind::Float, 2) => F::Float32x2,
        (ScalarKind::Float, 3) => F::Float32x3,
        (ScalarKind::Float, _) => F::Float32x4,
        (ScalarKind::Uint, 1) => F::Uint32,
        (ScalarKind::Uint, 2) => F::Uint32x2,
        (ScalarKind::Uint, 3) => F::Uint32x3,
        (ScalarKind::Uint, _) => F::Uint32x4,
        (ScalarKind::Sint, 1) => F::Sint32,
        (ScalarKind::Sint, 2) => F::Sint32x2,
        (ScalarKind::Sint, 3) => F::Sint32x3,
        (ScalarKind::Sint, _) => F::Sint32x4,
    }
}

fn target_format(o: &Interface) -> wgpu::TextureFormat {
    use wgpu::TextureFormat as F;
    match (o.scalar, o.components) {
        (ScalarKind::Float, 1) => F::R16Float,
        (ScalarKind::Float, 2) => F::Rg16Float,
        (ScalarKind::Float, _) => F::Rgba16Float,
        (ScalarKind::Uint, 1) => F::R32Uint,
        (ScalarKind::Uint, 2) => F::Rg32Uint,
        (ScalarKind::Uint, _) => F::Rgba32Uint,
        (ScalarKind::Sint, 1) => F::R32Sint,
        (ScalarKind::Sint, 2) => F::Rg32Sint,
        (ScalarKind::Sint, _) => F::Rgba32Sint,
    }
}

impl Validate for GpuValidator {
    fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("GPU: {} ({:?}, {})", info.name, info.backend, info.driver_info)
    }

    fn effect(&mut self, c: &CompiledEffect) -> Vec<String> {
        // Modules once (cached by content), then the pipelines spread over the cores: wgpu's
        // error scopes are per thread, and on lavapipe pipeline creation is most of the time.
        let modules: Vec<Result<wgpu::ShaderModule, String>> =
            c.shaders.iter().map(|s| self.module(&s.labels[0], &s.info.wgsl)).collect();
        let mut jobs = Vec::new();
        for (pi, pass) in c.passes.iter().enumerate() {
            for (vi, v) in pass.iter().enumerate() {
                let label = format!(
                    "{} pass `{}` {}",
                    c.effect.name,
                    c.effect.passes[pi].name,
                    c.effect.describe(&c.permutations[vi])
                );
                jobs.push((label, *v));
            }
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, jobs.len().max(1));
        let this = &*self;
        let run = |jobs: &[(String, crate::compile::Variant)]| -> Vec<String> {
            let mut issues = Vec::new();
            for (label, v) in jobs {
                let vs = modules[v.vertex].as_ref().map(|m| (m, &c.shaders[v.vertex].info));
                let ps = v.pixel.map(|p| modules[p].as_ref().map(|m| (m, &c.shaders[p].info)));
                let r = match (vs, ps.transpose()) {
                    (Err(e), _) | (_, Err(e)) => Err(e.clone()),
                    (Ok(vs), Ok(ps)) => this.render_pipeline(label, vs, ps),
                };
                if let Err(e) = r {
                    issues.push(format!("{label}: {e}"));
                }
            }
            issues
        };
        let chunk = jobs.len().div_ceil(threads).max(1);
        std::thread::scope(|scope| {
            let handles: Vec<_> = jobs.chunks(chunk).skip(1).map(|part| scope.spawn(move || run(part))).collect();
            let mut issues = run(jobs.chunks(chunk).next().unwrap_or(&[]));
            for h in handles {
                issues.extend(h.join().unwrap_or_else(|_| vec!["pipeline creation panicked".into()]));
            }
            issues
        })
    }

    fn shader(&mut self, t: &dxbc_wgsl::Translation) -> Result<(), String> {
        let module = self.module("shader", &t.wgsl)?;
        match t.stage {
            dxbc_wgsl::ShaderStage::Compute => self
                .scoped(|d| {
                    d.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                        label: Some("shader"),
                        layout: None,
                        module: &module,
                        entry_point: Some(&t.entry_point),
                        compilation_options: Default::default(),
                        cache: None,
                    })
                })
                .map(|_| ()),
            dxbc_wgsl::ShaderStage::Vertex => match StageInfo::from_translation(t) {
                Some(info) => self.render_pipeline("shader", (&module, &info), None),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }
}
