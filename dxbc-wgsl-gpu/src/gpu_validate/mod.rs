//! GPU validation: creates the shader modules and pipelines of a compiled effect (every pass ×
//! permutation: render and compute passes, and the four pipelines of a pass with a geometry
//! shader) or of a bare shader on a real wgpu device, inside error scopes, and reports what the
//! device rejects.
//!
//! naga (and Tint) validate each WGSL module alone; a pipeline adds what only the device checks:
//! the bind group layouts against the shader's resources, the vertex buffer layout against its
//! inputs, the stages' interface against each other, the render states and target formats, and
//! the device's limits (WebGPU's defaults: 16 sampled textures per stage, 16 inter-stage
//! variables, ...). The descriptors are the generated code's ([`descriptors::effect_pipelines`],
//! built from the same [`PipelinePlan`](dxbc_wgsl_build::plan::PipelinePlan) and pass states), with the
//! target formats chosen as documented there.
//!
//! ```no_run
//! # fn f(compiled: &dxbc_wgsl_build::compile::CompiledEffect) -> Result<(), Box<dyn std::error::Error>> {
//! use dxbc_wgsl_gpu::gpu_validate::GpuValidator;
//! let gpu = GpuValidator::new(None)?; // the first Vulkan adapter (or WGPU_ADAPTER_NAME)
//! for issue in gpu.validate_effect(compiled) {
//!     eprintln!("{issue}"); // effects/x.effect.toml:12:10: effect X, pass `main`, permutation ...: GPU error: ...
//! }
//! # Ok(()) }
//! ```
//!
//! One [`GpuValidator`] keeps one device; shader modules are cached by their WGSL and pipeline
//! verdicts by their descriptors, so validating an effect again after a change creates only
//! what changed. It can be shared between threads (`&GpuValidator` is `Send + Sync`).

pub mod descriptors;

use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash as _, Hasher as _};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use descriptors::{
    effect_pipelines, shader_pipeline, ComputePipelineDesc, EffectPipeline, GeometryPipelinesDesc, PipelineDesc,
    RenderPipelineDesc, ShaderDesc,
};
use dxbc_wgsl_build::compile::CompiledEffect;
use dxbc_wgsl_build::diag::Diagnostic;
use dxbc_wgsl_build::effect::ShaderRef;

/// What a machine without a GPU needs, part of the error when no adapter is found.
pub const NO_ADAPTER_HINT: &str = "no GPU adapter found. On a machine without a GPU install Mesa's software \
Vulkan driver (lavapipe): `sudo apt-get install -y mesa-vulkan-drivers` (Debian/Ubuntu), then run with \
WGPU_BACKEND=vulkan; `--no-gpu` validates with naga (and Tint) only";

/// The device could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// No adapter at all.
    #[error("{NO_ADAPTER_HINT}")]
    NoAdapter,
    /// `--adapter` or `WGPU_ADAPTER_NAME` matched none.
    #[error("no GPU adapter matches `{wanted}` (the adapters: {available}; `dxbc-wgsl adapters` lists them)")]
    NoMatch {
        /// What was asked for.
        wanted: String,
        /// The adapters there are, one line each, joined.
        available: String,
    },
    /// The adapter refused to create a device.
    #[error("the adapter `{adapter}` could not create a device: {message}")]
    RequestDevice {
        /// Adapter name.
        adapter: String,
        /// wgpu's error.
        message: String,
    },
}

/// One adapter, as `dxbc-wgsl adapters` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterInfo {
    /// Position in the list (what `--adapter INDEX` takes).
    pub index: usize,
    /// Adapter name.
    pub name: String,
    /// Backend (`Vulkan`, `Gl`, ...).
    pub backend: String,
    /// Device type (`DiscreteGpu`, `Cpu`, ...).
    pub device_type: String,
    /// Driver name and version information.
    pub driver: String,
}

impl AdapterInfo {
    fn of(index: usize, a: &wgpu::Adapter) -> Self {
        let i = a.get_info();
        let driver = [i.driver.as_str(), i.driver_info.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        AdapterInfo {
            index,
            name: i.name,
            backend: format!("{:?}", i.backend),
            device_type: format!("{:?}", i.device_type),
            driver,
        }
    }
}

impl fmt::Display for AdapterInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({}, {}", self.index, self.name, self.backend, self.device_type)?;
        if !self.driver.is_empty() {
            write!(f, ", driver {}", self.driver)?;
        }
        write!(f, ")")
    }
}

/// An instance on the backends `WGPU_BACKEND` names (all when it is unset or empty).
fn instance() -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    if desc.backends.is_empty() {
        desc.backends = wgpu::Backends::all();
    }
    wgpu::Instance::new(desc)
}

fn enumerate(instance: &wgpu::Instance) -> Vec<wgpu::Adapter> {
    pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()))
}

/// Every adapter wgpu finds (the backends `WGPU_BACKEND` allows), in wgpu's order.
pub fn adapters() -> Vec<AdapterInfo> {
    enumerate(&instance()).iter().enumerate().map(|(i, a)| AdapterInfo::of(i, a)).collect()
}

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The device rejected a shader module or pipeline (validation, internal or out-of-memory).
    Error,
    /// A shader compilation warning.
    Warning,
    /// A feature the pipeline needs is missing from the adapter: nothing was created.
    MissingFeature,
}

impl Severity {
    /// `error`, `warning`, `skipped`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::MissingFeature => "skipped",
        }
    }
}

/// One problem with one pipeline.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Problem {
    /// How bad.
    pub severity: Severity,
    /// The message, one line (wgpu's error chain joined with `: `).
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity.name(), self.message)
    }
}

/// A problem of one pass × permutation of an effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuIssue {
    /// The effect's name.
    pub effect: String,
    /// The effect file.
    pub file: PathBuf,
    /// Line and column (1-based) in the effect file of the rule that chose the pass's pixel
    /// shader (or vertex shader, without one; or compute shader) for this permutation.
    pub line: usize,
    /// Column, see `line`.
    pub column: usize,
    /// The pass.
    pub pass: String,
    /// The permutation, as `fog=true, lighting=pixel` (or `the only permutation`).
    pub permutation: String,
    /// The shaders: vertex, then pixel if any; or the compute shader.
    pub shaders: Vec<ShaderRef>,
    /// How bad.
    pub severity: Severity,
    /// What the device said.
    pub message: String,
}

impl GpuIssue {
    /// The issue as a diagnostic at its position in the effect file (what `Display` prints).
    pub fn diagnostic(&self) -> Diagnostic {
        let shaders: Vec<String> = self.shaders.iter().map(ShaderRef::label).collect();
        Diagnostic {
            kind: dxbc_wgsl_build::DiagnosticKind::Gpu,
            file: self.file.clone(),
            line: self.line,
            column: self.column,
            span: None,
            message: format!(
                "effect {}, pass `{}`, permutation {} ({}): GPU {}: {}",
                self.effect,
                self.pass,
                self.permutation,
                shaders.join(" + "),
                self.severity.name(),
                self.message
            ),
        }
    }
}

impl fmt::Display for GpuIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.diagnostic().fmt(f)
    }
}

/// Counters of a validator's work so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Pipelines validated (created, or refused for a missing feature), counting each distinct
    /// descriptor once.
    pub pipelines: usize,
    /// Validations answered from the cache (an identical descriptor validated before).
    pub cached: usize,
    /// Shader modules created.
    pub modules: usize,
    /// Time spent creating modules and pipelines.
    pub busy: Duration,
}

type ModuleEntry = (Option<wgpu::ShaderModule>, Vec<Problem>);

/// A wgpu device that creates pipelines to validate them. See the [module documentation](self).
pub struct GpuValidator {
    adapter: wgpu::Adapter,
    device: wgpu::Device,
    _queue: wgpu::Queue,
    modules: Mutex<HashMap<u64, ModuleEntry>>,
    pipelines: Mutex<HashMap<u64, Vec<Problem>>>,
    stats: Mutex<Stats>,
    uncaptured: Arc<Mutex<Vec<String>>>,
}

impl fmt::Debug for GpuValidator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GpuValidator").field("adapter", &self.adapter_summary()).finish_non_exhaustive()
    }
}

/// The optional features a pipeline may need; the device gets those the adapter has.
const WANTED: wgpu::Features =
    wgpu::Features::CLIP_DISTANCES.union(wgpu::Features::PRIMITIVE_INDEX).union(wgpu::Features::DEPTH_CLIP_CONTROL);

impl GpuValidator {
    /// Opens a device on an adapter: `adapter` is an index or a (case-insensitive) part of a
    /// name from [`adapters`]; `None` takes `WGPU_ADAPTER_NAME` when set, else the first Vulkan
    /// adapter, else the first adapter. `WGPU_BACKEND` limits the backends searched. The device
    /// has WebGPU's default limits raised toward D3D's as far as the adapter allows (compute
    /// invocations, workgroup size and storage, constant buffers per stage: what the generated
    /// `required_limits()` asks for) and, of `clip-distances`, `primitive-index` and
    /// `depth-clip-control`, the features the adapter has.
    ///
    /// # Errors
    /// No adapter (the message says how to get one), none matching, or no device.
    pub fn new(adapter: Option<&str>) -> Result<Self, GpuError> {
        let instance = instance();
        let all = enumerate(&instance);
        if all.is_empty() {
            return Err(GpuError::NoAdapter);
        }
        let env = std::env::var("WGPU_ADAPTER_NAME").ok().filter(|s| !s.is_empty());
        let wanted = adapter.map(str::to_string).or(env);
        let chosen = match &wanted {
            Some(w) => {
                let by_index = w.trim().parse::<usize>().ok().and_then(|i| all.get(i));
                let needle = w.to_lowercase();
                by_index
                    .or_else(|| all.iter().find(|a| a.get_info().name.to_lowercase().contains(&needle)))
                    .ok_or_else(|| GpuError::NoMatch {
                        wanted: w.clone(),
                        available: all
                            .iter()
                            .enumerate()
                            .map(|(i, a)| AdapterInfo::of(i, a).to_string())
                            .collect::<Vec<_>>()
                            .join("; "),
                    })?
            }
            None => all.iter().find(|a| a.get_info().backend == wgpu::Backend::Vulkan).unwrap_or(&all[0]),
        };
        let adapter = chosen.clone();
        let features = adapter.features() & WANTED;
        let request = |limits: wgpu::Limits| {
            pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
                label: Some("dxbc-wgsl GPU validation"),
                required_features: features,
                required_limits: limits,
                ..Default::default()
            }))
        };
        // WebGPU's defaults, raised toward what D3D11 allows (1024 threads per group, 32 KB of
        // group-shared memory, 14 constant buffers per stage) as far as the adapter goes: a shader
        // that needs more than the defaults is validated as it would run on this device.
        let a = adapter.limits();
        let mut d3d = wgpu::Limits::default();
        d3d.max_compute_invocations_per_workgroup =
            a.max_compute_invocations_per_workgroup.min(1024).max(d3d.max_compute_invocations_per_workgroup);
        d3d.max_compute_workgroup_size_x =
            a.max_compute_workgroup_size_x.min(1024).max(d3d.max_compute_workgroup_size_x);
        d3d.max_compute_workgroup_size_y =
            a.max_compute_workgroup_size_y.min(1024).max(d3d.max_compute_workgroup_size_y);
        d3d.max_compute_workgroup_size_z = a.max_compute_workgroup_size_z.min(64).max(d3d.max_compute_workgroup_size_z);
        d3d.max_compute_workgroup_storage_size =
            a.max_compute_workgroup_storage_size.min(32768).max(d3d.max_compute_workgroup_storage_size);
        d3d.max_uniform_buffers_per_shader_stage =
            a.max_uniform_buffers_per_shader_stage.min(14).max(d3d.max_uniform_buffers_per_shader_stage);
        let (device, queue) = request(d3d)
            .or_else(|_| request(wgpu::Limits::default()))
            .or_else(|_| request(adapter.limits()))
            .map_err(|e| GpuError::RequestDevice { adapter: adapter.get_info().name, message: e.to_string() })?;
        let uncaptured: Arc<Mutex<Vec<String>>> = Arc::default();
        let sink = uncaptured.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            sink.lock().unwrap_or_else(|p| p.into_inner()).push(one_line(&e.to_string()));
        }));
        Ok(GpuValidator {
            adapter,
            device,
            _queue: queue,
            modules: Mutex::default(),
            pipelines: Mutex::default(),
            stats: Mutex::default(),
            uncaptured,
        })
    }

    /// The adapter's name.
    pub fn adapter_name(&self) -> String {
        self.adapter.get_info().name
    }

    /// One line: name, backend, device type, driver.
    pub fn adapter_summary(&self) -> String {
        let s = AdapterInfo::of(0, &self.adapter).to_string();
        s.split_once(": ").map(|(_, rest)| rest.to_string()).unwrap_or(s)
    }

    /// The device's features (those of `clip-distances`, `primitive-index` and
    /// `depth-clip-control` the adapter has).
    pub fn features(&self) -> wgpu::Features {
        self.device.features()
    }

    /// Forgets the cached shader modules and pipeline verdicts (a long-running caller may call
    /// it now and then; the cache grows with every distinct WGSL and descriptor validated).
    pub fn clear_cache(&self) {
        self.modules.lock().unwrap_or_else(|p| p.into_inner()).clear();
        self.pipelines.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    /// The work done so far.
    pub fn stats(&self) -> Stats {
        *self.stats.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Validates every pass × permutation of an effect: its shader modules and its render
    /// pipeline (or compute pipeline, for a compute pass), as [`effect_pipelines`] describes them. Returns every problem, each naming the
    /// effect, pass, permutation and shaders, at the effect file's line of the pass's shader
    /// rule; empty when the device accepts them all.
    pub fn validate_effect(&self, compiled: &CompiledEffect) -> Vec<GpuIssue> {
        use rayon::prelude::*;
        let e = &compiled.effect;
        let pipelines = effect_pipelines(compiled);
        // Each shader module once, then the pipelines on every core (wgpu's error scopes are per
        // thread; on lavapipe, creating pipelines is most of the time).
        let mut seen = std::collections::HashSet::new();
        for s in pipelines.iter().flat_map(|p| p.desc.shaders()) {
            if seen.insert(hash(&s.wgsl)) {
                self.module(s, &mut Vec::new());
            }
        }
        let verdicts: Vec<Vec<Problem>> = pipelines.par_iter().map(|p| self.validate(&p.desc)).collect();
        let mut issues = Vec::new();
        for (p, problems) in pipelines.into_iter().zip(verdicts) {
            if problems.is_empty() {
                continue;
            }
            let pass = &e.passes[p.pass];
            let values = &compiled.permutations[p.permutation];
            let rules: Vec<_> = pass.stage_rules().collect();
            let shaders: Vec<ShaderRef> = rules.iter().filter_map(|r| e.shader_for(r, values).ok()).collect();
            let last = rules.last().expect("a pass has a vertex or compute shader");
            let span = e.rule_for(last, values).map(|r| r.path_span.clone()).unwrap_or(last.span.clone());
            let at = e.error(&span, "");
            for problem in problems {
                issues.push(GpuIssue {
                    effect: e.name.clone(),
                    file: at.file.clone(),
                    line: at.line,
                    column: at.column,
                    pass: pass.name.clone(),
                    permutation: e.describe(values),
                    shaders: shaders.clone(),
                    severity: problem.severity,
                    message: problem.message,
                });
            }
        }
        issues
    }

    /// Every problem of a bare shader's pipeline ([`shader_pipeline`]: a synthesized vertex or
    /// pixel shader completes a render pipeline; a compute shader gets a compute pipeline),
    /// most severe first as found: errors, warnings, features the adapter lacks.
    pub fn check_shader(&self, t: &dxbc_wgsl::Translation) -> Vec<Problem> {
        match shader_pipeline(t) {
            Err(message) => vec![Problem { severity: Severity::Error, message }],
            Ok(d) => self.validate(&d),
        }
    }

    /// Every problem of one pipeline.
    pub fn validate(&self, d: &PipelineDesc) -> Vec<Problem> {
        match d {
            PipelineDesc::Render(r) => self.validate_render(r),
            PipelineDesc::Compute(c) => self.validate_compute(c),
            PipelineDesc::Geometry(g) => self.validate_geometry(g),
        }
    }

    /// Every problem of one render pipeline.
    pub fn validate_render(&self, d: &RenderPipelineDesc) -> Vec<Problem> {
        self.cached(&format!("{d:?}"), d.features, || {
            let mut problems = Vec::new();
            let vs = self.module(&d.vertex, &mut problems);
            let ps = d.pixel.as_ref().map(|p| self.module(p, &mut problems));
            let (Some(vs), Some(ps)) = (vs, ps.map_or(Some(None), |m| m.map(Some))) else {
                return problems;
            };
            let buffers: Vec<Option<wgpu::VertexBufferLayout<'_>>> =
                d.vertex_buffer.iter().map(|b| Some(b.layout())).collect();
            problems.extend(
                self.scoped(|device| {
                    let groups = d.groups.each_ref().map(|entries| {
                        device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries })
                    });
                    let empty =
                        device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &[] });
                    let select = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                        label: None,
                        entries: &crate::select::Selection::layout_descriptor_entries(),
                    });
                    let layouts = if d.select {
                        vec![Some(&groups[0]), Some(&groups[1]), Some(&empty), Some(&select)]
                    } else {
                        vec![Some(&groups[0]), Some(&groups[1])]
                    };
                    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                        label: None,
                        bind_group_layouts: &layouts,
                        immediate_size: 0,
                    });
                    let constants =
                        d.pixel.as_ref().map(|p| p.constant_values(d.multisample.count)).unwrap_or_default();
                    let _pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                        label: None,
                        layout: Some(&layout),
                        vertex: wgpu::VertexState {
                            module: &vs,
                            entry_point: Some(&d.vertex.entry_point),
                            compilation_options: wgpu::PipelineCompilationOptions::default(),
                            buffers: &buffers,
                        },
                        primitive: d.primitive,
                        depth_stencil: d.depth_stencil.clone(),
                        multisample: d.multisample,
                        fragment: ps.as_ref().zip(d.pixel.as_ref()).map(|(module, p)| wgpu::FragmentState {
                            module,
                            entry_point: Some(&p.entry_point),
                            compilation_options: wgpu::PipelineCompilationOptions {
                                constants: &constants,
                                ..Default::default()
                            },
                            targets: &d.color_targets,
                        }),
                        multiview_mask: None,
                        cache: None,
                    });
                })
                .1,
            );
            problems
        })
    }

    /// Every problem of one compute pipeline.
    pub fn validate_compute(&self, d: &ComputePipelineDesc) -> Vec<Problem> {
        self.cached(&format!("{d:?}"), d.features, || {
            let mut problems = Vec::new();
            let Some(module) = self.module(&d.shader, &mut problems) else {
                return problems;
            };
            problems.extend(
                self.scoped(|device| {
                    let groups: Vec<wgpu::BindGroupLayout> = d
                        .layout_groups()
                        .into_iter()
                        .map(|entries| {
                            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries })
                        })
                        .collect();
                    let layouts: Vec<Option<&wgpu::BindGroupLayout>> = groups.iter().map(Some).collect();
                    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                        label: None,
                        bind_group_layouts: &layouts,
                        immediate_size: 0,
                    });
                    let _pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                        label: None,
                        layout: Some(&layout),
                        module: &module,
                        entry_point: Some(&d.shader.entry_point),
                        compilation_options: wgpu::PipelineCompilationOptions::default(),
                        cache: None,
                    });
                })
                .1,
            );
            problems
        })
    }

    /// Every problem of the pipelines of a pass with a geometry shader: its four shader modules,
    /// then the runtime's `PrimitiveStage::new` (the vertex, geometry and assembly compute
    /// pipelines and the draw's render pipeline, with the generated code's layouts) and, for a
    /// pass with stream output, `StreamOutput::new` (the stream-output kernels' pipelines) inside
    /// the error scopes, and the runtimes' own refusals (a device limit) if any.
    pub fn validate_geometry(&self, d: &GeometryPipelinesDesc) -> Vec<Problem> {
        use crate::primitive_stage as rt;
        self.cached(&format!("{d:?}"), d.features, || {
            let mut problems = Vec::new();
            let vs = self.module(&d.vertex, &mut problems);
            let gs = self.module(&d.geometry, &mut problems);
            let draw = self.module(&d.draw_vertex, &mut problems);
            let ps = d.pixel.as_ref().map(|p| self.module(p, &mut problems));
            let (Some(vs), Some(gs), Some(draw), Some(ps)) = (vs, gs, draw, ps.map_or(Some(None), |m| m.map(Some)))
            else {
                return problems;
            };
            let (made, scoped) = self.scoped(|device| {
                let [g0, g1, g2] = d.groups.each_ref().map(|entries| {
                    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries })
                });
                fn entry<'a>(module: &'a wgpu::ShaderModule, s: &'a ShaderDesc) -> rt::ShaderEntry<'a> {
                    rt::ShaderEntry { module, entry_point: s.entry_point.as_str() }
                }
                let select = d.select.then(|| {
                    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                        label: None,
                        entries: &crate::select::Selection::layout_descriptor_entries(),
                    })
                });
                let stage = rt::PrimitiveStage::with_streams_selected(
                    device,
                    &rt::PrimitiveStageDescriptor {
                        label: Some("dxbc-wgsl GPU validation"),
                        stage: d.stage.clone(),
                        vertex: entry(&vs, &d.vertex),
                        vertex_layout: Some(&g0),
                        geometry: entry(&gs, &d.geometry),
                        geometry_layout: Some(&g2),
                        draw_vertex: entry(&draw, &d.draw_vertex),
                        fragment: ps.as_ref().zip(d.pixel.as_ref()).map(|(module, p)| rt::FragmentEntry {
                            shader: entry(module, p),
                            targets: &d.color_targets,
                            layout: Some(&g1),
                        }),
                        primitive: d.primitive,
                        depth_stencil: d.depth_stencil.clone(),
                        multisample: d.multisample,
                        max_binding_bytes: None,
                    },
                    d.stream_output.as_ref().map(|(streams, ..)| *streams),
                    select.as_ref(),
                );
                match (stage, &d.stream_output) {
                    (Err(e), _) => Some(format!("primitive stage: {e}")),
                    (Ok(_), Some((_, desc, layout))) => crate::stream_output::StreamOutput::new(device, desc, layout)
                        .err()
                        .map(|e| format!("stream output: {e}")),
                    (Ok(_), None) => None,
                }
            });
            if let Some(message) = made {
                problems.push(Problem { severity: Severity::Error, message });
            }
            problems.extend(scoped);
            problems
        })
    }

    /// The verdict for a descriptor (its `Debug` text): missing features first, then the cache,
    /// then `create`.
    fn cached(&self, key: &str, features: wgpu::Features, create: impl FnOnce() -> Vec<Problem>) -> Vec<Problem> {
        let missing = features - self.device.features();
        if !missing.is_empty() {
            self.stats.lock().unwrap_or_else(|p| p.into_inner()).pipelines += 1;
            let names = descriptors::feature_names(missing);
            return vec![Problem {
                severity: Severity::MissingFeature,
                message: format!("needs feature {} the adapter lacks", names.join(", ")),
            }];
        }
        let key = hash(key);
        if let Some(p) = self.pipelines.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            self.stats.lock().unwrap_or_else(|p| p.into_inner()).cached += 1;
            return p.clone();
        }
        let start = Instant::now();
        let problems = create();
        let mut stats = self.stats.lock().unwrap_or_else(|p| p.into_inner());
        stats.pipelines += 1;
        stats.busy += start.elapsed();
        drop(stats);
        self.pipelines.lock().unwrap_or_else(|p| p.into_inner()).insert(key, problems.clone());
        problems
    }

    /// The shader module of a stage (cached by WGSL), its problems appended to `problems`;
    /// `None` when it could not be created.
    fn module(&self, s: &ShaderDesc, problems: &mut Vec<Problem>) -> Option<wgpu::ShaderModule> {
        let key = hash(&s.wgsl);
        let cached = self.modules.lock().unwrap_or_else(|p| p.into_inner()).get(&key).cloned();
        let (module, found) = match cached {
            Some(entry) => entry,
            None => {
                let (module, made) = self.scoped(|device| {
                    device.create_shader_module(wgpu::ShaderModuleDescriptor {
                        label: Some(&s.label),
                        source: wgpu::ShaderSource::Wgsl(s.wgsl.as_str().into()),
                    })
                });
                let mut found: Vec<Problem> = made
                    .into_iter()
                    .map(|p| Problem { message: format!("shader module {}: {}", s.label, p.message), ..p })
                    .collect();
                let module = if found.is_empty() {
                    let info = pollster::block_on(module.get_compilation_info());
                    for m in info.messages {
                        if m.message_type == wgpu::CompilationMessageType::Warning {
                            found.push(Problem {
                                severity: Severity::Warning,
                                message: format!("shader module {}: {}", s.label, one_line(&m.message)),
                            });
                        }
                    }
                    Some(module)
                } else {
                    None
                };
                self.stats.lock().unwrap_or_else(|p| p.into_inner()).modules += 1;
                let entry = (module, found);
                self.modules.lock().unwrap_or_else(|p| p.into_inner()).insert(key, entry.clone());
                entry
            }
        };
        problems.extend(found);
        module
    }

    /// Runs `f` inside out-of-memory, internal and validation error scopes; every error caught
    /// (and any that escaped to the uncaptured handler) is returned.
    fn scoped<T>(&self, f: impl FnOnce(&wgpu::Device) -> T) -> (T, Vec<Problem>) {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let value = f(&self.device);
        let mut problems = Vec::new();
        for scope in [validation, internal, oom] {
            if let Some(e) = pollster::block_on(scope.pop()) {
                problems.push(Problem { severity: Severity::Error, message: one_line(&e.to_string()) });
            }
        }
        for message in self.uncaptured.lock().unwrap_or_else(|p| p.into_inner()).drain(..) {
            problems.push(Problem { severity: Severity::Error, message });
        }
        (value, problems)
    }
}

// The validator is shared between threads (`qualify --gpu` checks shaders in parallel).
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<GpuValidator>();
};

fn hash(text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// wgpu's multi-line error on one line: `Validation Error` and `Caused by:` dropped, the chain
/// joined with `: `.
pub fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != "Validation Error" && *l != "Caused by:")
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(": ")
}
