//! The wgpu descriptors of an effect's pipelines, built from the same [`PipelinePlan`] and
//! [`PassStates`] the generated code prints, and of a bare shader's pipeline.

use std::fmt::Write as _;

use dxbc_wgsl::{InterfaceVar as Interface, ResourceBinding as Binding, ScalarKind};
use dxbc_wgsl_build::compile::CompiledEffect;
use dxbc_wgsl_build::effect::states::{
    Blend, BlendOp, Comparison, CullMode, DepthStencilDesc, PassStates, StencilFace, StencilOp, Topology,
};
use dxbc_wgsl_build::effect::Stage;
use dxbc_wgsl_build::plan::{self, PipelinePlan, RenderVariant, VariantPlan};
use dxbc_wgsl_build::stage::StageInfo;
use dxbc_wgsl_build::vertex::VertexFormat;

/// Colour target format the validator uses for a `float` pixel-shader output (effects declare
/// no formats; the generated `create_render_pipeline` takes them from the caller).
pub const FLOAT_TARGET: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// Colour target format for a `uint` output.
pub const UINT_TARGET: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Uint;
/// Colour target format for a `sint` output.
pub const SINT_TARGET: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Sint;
/// Depth format, when the pass needs depth and its stencil test is off.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Depth format when the pass's stencil test is on.
pub const DEPTH_STENCIL_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth24PlusStencil8;
/// Samples per pixel for a pass with alpha to coverage (WebGPU allows it only when multisampled).
pub const ALPHA_TO_COVERAGE_SAMPLES: u32 = 4;

/// One shader stage of a pipeline.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShaderDesc {
    /// Where it came from (`file[:symbol]`), or what synthesized it.
    pub label: String,
    /// WGSL module text.
    pub wgsl: String,
    /// Entry point.
    pub entry_point: String,
    /// The pipeline-overridable constants it declares (set from the pipeline's state).
    pub constants: Vec<dxbc_wgsl::PipelineConstant>,
}

impl ShaderDesc {
    /// Its constants' values for a pipeline of `sample_count` samples per pixel.
    pub fn constant_values(&self, sample_count: u32) -> Vec<(&'static str, f64)> {
        self.constants.iter().map(|c| (c.name(), c.value(sample_count))).collect()
    }
}

/// One vertex buffer (slot 0, per-vertex step).
#[derive(Debug, Clone, PartialEq)]
pub struct VertexBuffer {
    /// Bytes per vertex.
    pub array_stride: u64,
    /// Attributes by shader location.
    pub attributes: Vec<wgpu::VertexAttribute>,
}

impl VertexBuffer {
    /// As a wgpu layout.
    pub fn layout(&self) -> wgpu::VertexBufferLayout<'_> {
        wgpu::VertexBufferLayout {
            array_stride: self.array_stride,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &self.attributes,
        }
    }
}

/// Everything `create_render_pipeline` of a generated module passes to wgpu, owned.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderPipelineDesc {
    /// Vertex shader.
    pub vertex: ShaderDesc,
    /// Pixel shader (`None`: depth only).
    pub pixel: Option<ShaderDesc>,
    /// Bind group layout entries: `[@group(0) vertex, @group(1) pixel]`.
    pub groups: [Vec<wgpu::BindGroupLayoutEntry>; 2],
    /// The vertex buffer, when the vertex shader reads attributes.
    pub vertex_buffer: Option<VertexBuffer>,
    /// Primitive and rasterizer state.
    pub primitive: wgpu::PrimitiveState,
    /// Colour targets by `SV_Target` index (`None` where the pixel shader writes no target).
    pub color_targets: Vec<Option<wgpu::ColorTargetState>>,
    /// Depth-stencil state.
    pub depth_stencil: Option<wgpu::DepthStencilState>,
    /// Multisampling.
    pub multisample: wgpu::MultisampleState,
    /// Features the shaders and states need.
    pub features: wgpu::Features,
    /// The pixel shader reads the per-primitive selection uniform (group 3, group 2 empty:
    /// docs/per-primitive.md).
    pub select: bool,
}

/// A compute pipeline.
#[derive(Debug, Clone, PartialEq)]
pub struct ComputePipelineDesc {
    /// The compute shader.
    pub shader: ShaderDesc,
    /// The entries of the group of its resources (`@group(0)`, or `@group(2)` for a geometry
    /// shader: [`ComputePipelineDesc::resource_group`]).
    pub group: Vec<wgpu::BindGroupLayoutEntry>,
    /// The group number of [`ComputePipelineDesc::group`]: 0, or 2 for a geometry shader.
    pub resource_group: u32,
    /// A geometry shader's primitive-stage buffers (`@group(3)`, [`geometry_system_entries`]).
    pub system_group: Option<Vec<wgpu::BindGroupLayoutEntry>>,
    /// Features the shader needs.
    pub features: wgpu::Features,
}

impl ComputePipelineDesc {
    /// The pipeline layout's groups, in order: the resources' group, the system group, and
    /// empty groups between them.
    pub fn layout_groups(&self) -> Vec<&[wgpu::BindGroupLayoutEntry]> {
        let mut groups: Vec<&[wgpu::BindGroupLayoutEntry]> = vec![&[]; self.resource_group as usize + 1];
        groups[self.resource_group as usize] = &self.group;
        if let Some(system) = &self.system_group {
            groups.resize(dxbc_wgsl::geometry::SYSTEM_GROUP as usize + 1, &[]);
            groups[dxbc_wgsl::geometry::SYSTEM_GROUP as usize] = system;
        }
        groups
    }
}

/// What the generated stage type of a pass with a geometry shader gives the primitive stage's
/// runtime ([`crate::primitive_stage::PrimitiveStage::new`]), which creates its pipelines: the
/// vertex, geometry and assembly compute pipelines and the draw's render pipeline.
#[derive(Debug, Clone, PartialEq)]
pub struct GeometryPipelinesDesc {
    /// The vertex shader translated as compute (vertex pulling).
    pub vertex: ShaderDesc,
    /// The geometry shader (compute).
    pub geometry: ShaderDesc,
    /// The draw's pass-through vertex shader.
    pub draw_vertex: ShaderDesc,
    /// The pixel shader behind geometry (`None`: depth only).
    pub pixel: Option<ShaderDesc>,
    /// Bind group layout entries: `[@group(0) vertex, @group(1) pixel, @group(2) geometry]`.
    pub groups: [Vec<wgpu::BindGroupLayoutEntry>; 3],
    /// The runtime's description of the stage.
    pub stage: crate::primitive_stage::StageDesc,
    /// Rasterizer state (the runtime sets topology and strip index format from the output).
    pub primitive: wgpu::PrimitiveState,
    /// Colour targets by `SV_Target` index.
    pub color_targets: Vec<Option<wgpu::ColorTargetState>>,
    /// Depth-stencil state.
    pub depth_stencil: Option<wgpu::DepthStencilState>,
    /// Multisampling.
    pub multisample: wgpu::MultisampleState,
    /// Features the shaders and states need.
    pub features: wgpu::Features,
    /// The draw reads the per-primitive selection uniform (group 3).
    pub select: bool,
    /// A pass with stream output: the geometry module's stream layout (the runtime's
    /// `StreamStage`), and the stream-output kernels' declaration and view of the output.
    pub stream_output:
        Option<(crate::primitive_stage::StreamStage, crate::stream_output::SoDesc, crate::stream_output::SoLayout)>,
}

/// A render or compute pipeline, or the pipelines of a pass with a geometry shader.
#[derive(Debug, Clone, PartialEq)]
pub enum PipelineDesc {
    /// Vertex (+ pixel) stages.
    Render(Box<RenderPipelineDesc>),
    /// A compute stage.
    Compute(ComputePipelineDesc),
    /// A pass with a geometry shader.
    Geometry(Box<GeometryPipelinesDesc>),
}

impl PipelineDesc {
    /// Its shader stages: vertex and pixel (if any), or the compute shader; for a pass with a
    /// geometry shader the vertex, geometry, draw vertex and pixel shaders.
    pub fn shaders(&self) -> Vec<&ShaderDesc> {
        match self {
            PipelineDesc::Render(r) => std::iter::once(&r.vertex).chain(r.pixel.as_ref()).collect(),
            PipelineDesc::Compute(c) => vec![&c.shader],
            PipelineDesc::Geometry(g) => {
                [&g.vertex, &g.geometry, &g.draw_vertex].into_iter().chain(g.pixel.as_ref()).collect()
            }
        }
    }

    /// The render pipeline, if it is one.
    pub fn as_render(&self) -> Option<&RenderPipelineDesc> {
        match self {
            PipelineDesc::Render(r) => Some(r),
            _ => None,
        }
    }

    /// The compute pipeline, if it is one.
    pub fn as_compute(&self) -> Option<&ComputePipelineDesc> {
        match self {
            PipelineDesc::Compute(c) => Some(c),
            _ => None,
        }
    }

    /// The pipelines of a pass with a geometry shader, if they are.
    pub fn as_geometry(&self) -> Option<&GeometryPipelinesDesc> {
        match self {
            PipelineDesc::Geometry(g) => Some(g),
            _ => None,
        }
    }
}

/// The primitive stage's own buffers a geometry shader's compute module binds (`@group(3)`,
/// `docs/geometry.md`: `DrawParams`, the vertex records it reads, the output vertices and
/// strips it writes, the assembly table it reads), as the runtime declares them.
pub fn geometry_system_entries() -> Vec<wgpu::BindGroupLayoutEntry> {
    use dxbc_wgsl::geometry as g;
    let storage = |binding: u32, read_only: bool| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    vec![
        wgpu::BindGroupLayoutEntry {
            binding: g::DRAW_PARAMS,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: wgpu::BufferSize::new(g::DRAW_PARAMS_SIZE),
            },
            count: None,
        },
        storage(g::VERTEX_RECORDS, true),
        storage(g::OUTPUT_VERTICES, false),
        storage(g::OUTPUT_INDICES, false),
        storage(g::ASSEMBLY_TABLE, true),
    ]
}

/// The primitive stage's own buffers a vertex shader translated as compute binds (`@group(3)`:
/// `DrawParams`, the records it writes, the index buffer, and the vertex buffers of `slots`), as
/// the runtime declares them.
pub fn vertex_system_entries(slots: &[u32]) -> Vec<wgpu::BindGroupLayoutEntry> {
    use dxbc_wgsl::geometry as g;
    let mut entries = geometry_system_entries();
    entries.retain(|e| e.binding == g::DRAW_PARAMS);
    let storage = |binding: u32, read_only: bool| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    entries.push(storage(g::VERTEX_RECORDS, false));
    entries.push(storage(g::INDEX_BUFFER, true));
    for &slot in slots {
        entries.push(storage(g::VERTEX_BUFFER_BASE + slot, true));
    }
    entries
}

/// One pass × permutation of an effect and its pipeline.
#[derive(Debug, Clone)]
pub struct EffectPipeline {
    /// Pass index (into `Effect::passes`).
    pub pass: usize,
    /// Permutation index (into [`CompiledEffect::permutations`]).
    pub permutation: usize,
    /// The pipeline: a render pipeline for a render pass, a compute pipeline for a compute pass.
    pub desc: PipelineDesc,
}

/// The pipeline of every pass × permutation of a compiled effect, in pass-major order (the
/// generated `VARIANTS` order of an effect whose passes are all of one kind), render and compute
/// passes alike.
///
/// A render pass's pipeline is what the generated `create_render_pipeline` builds, with the
/// validator's formats: one colour target per pixel-shader output (format by scalar type:
/// [`FLOAT_TARGET`], [`UINT_TARGET`], [`SINT_TARGET`]; smaller ones, [`FALLBACK_TARGET_FORMATS`],
/// when those exceed WebGPU's [`COLOR_BYTES_PER_SAMPLE`]) with the pass's blend state and write
/// mask, a depth buffer ([`DEPTH_FORMAT`], or [`DEPTH_STENCIL_FORMAT`] with the stencil test on)
/// with the pass's depth-stencil state when the pass declares one, sets a depth bias, has no
/// colour target or its pixel shader writes depth, and one sample per pixel
/// ([`ALPHA_TO_COVERAGE_SAMPLES`] with alpha to coverage).
///
/// A compute pass's pipeline is what the generated `create_compute_pipeline` builds: its compute
/// shader with the bind group layout of `COMPUTE_GROUPS` (`@group(0)`, visibility `COMPUTE`).
pub fn effect_pipelines(c: &CompiledEffect) -> Vec<EffectPipeline> {
    let plan = PipelinePlan::new(c);
    plan.iter()
        .map(|(pi, vi, v)| {
            let desc = match v {
                VariantPlan::Render(v) => PipelineDesc::Render(Box::new(render_pipeline(c, &plan, pi, v))),
                VariantPlan::Compute(v) => {
                    let cs = &c.shaders[v.compute];
                    PipelineDesc::Compute(ComputePipelineDesc {
                        shader: shader_desc(&cs.labels[0], &cs.info),
                        group: layout_entries(plan_bindings(plan.compute_entries(v)), Stage::Compute),
                        resource_group: 0,
                        system_group: None,
                        features: crate::wgpu_map::features(&cs.info.required_features),
                    })
                }
                VariantPlan::Geometry(v) => PipelineDesc::Geometry(Box::new(geometry_pipelines(c, &plan, pi, v))),
            };
            EffectPipeline { pass: pi, permutation: vi, desc }
        })
        .collect()
}

/// The render pipeline of a render pass's variant (see [`effect_pipelines`]).
fn render_pipeline(c: &CompiledEffect, plan: &PipelinePlan, pass: usize, v: &RenderVariant) -> RenderPipelineDesc {
    let states = &c.effect.passes[pass].states;
    let vs = &c.shaders[v.vertex];
    let ps = v.pixel.map(|p| &c.shaders[p]);
    let [g0, g1] = plan.entries(v);
    let vertex_buffer = v.vertex_layout.map(|l| {
        let l = &plan.vertex_layouts[l];
        vertex_buffer(&l.attributes, l.stride)
    });
    let mut features = states_features(states);
    for s in std::iter::once(vs).chain(ps) {
        features |= crate::wgpu_map::features(&s.info.required_features);
    }
    let outputs = ps.map(|p| p.info.outputs.as_slice()).unwrap_or_default();
    let desc = RenderPipelineDesc {
        vertex: shader_desc(&vs.labels[0], &vs.info),
        pixel: ps.map(|p| shader_desc(&p.labels[0], &p.info)),
        groups: [layout_entries(plan_bindings(g0), Stage::Vertex), layout_entries(plan_bindings(g1), Stage::Pixel)],
        vertex_buffer,
        primitive: primitive_state(states),
        color_targets: color_targets(states, outputs),
        depth_stencil: None,
        multisample: multisample_state(states),
        features,
        select: v.select,
    };
    let declared = states.depth_stencil != DepthStencilDesc::default() || states.rasterizer.has_bias();
    with_depth(desc, states, outputs, declared)
}

/// The pipelines of a pass with a geometry shader (see [`effect_pipelines`]): what the generated
/// stage type's `new` gives the runtime, with the validator's target formats and depth buffer as
/// for a render pass.
fn geometry_pipelines(
    c: &CompiledEffect,
    plan: &PipelinePlan,
    pass: usize,
    v: &plan::GeometryVariant,
) -> GeometryPipelinesDesc {
    let states = &c.effect.passes[pass].states;
    let shader = |i: usize| shader_desc(&c.shaders[i].labels[0], &c.shaders[i].info);
    let [g0, g1, g2] = plan.geometry_entries(v);
    let ps = v.pixel.map(|p| &c.shaders[p]);
    let mut features = states_features(states);
    for s in [Some(v.vertex), Some(v.geometry), Some(v.draw_vertex), v.pixel].into_iter().flatten() {
        features |= crate::wgpu_map::features(&c.shaders[s].info.required_features);
    }
    let outputs = ps.map(|p| p.info.outputs.as_slice()).unwrap_or_default();
    // The draw's depth buffer and targets, as a render pass's.
    let draw = with_depth(
        RenderPipelineDesc {
            vertex: shader(v.draw_vertex),
            pixel: v.pixel.map(shader),
            groups: [Vec::new(), Vec::new()],
            vertex_buffer: None,
            primitive: primitive_state(states),
            color_targets: color_targets(states, outputs),
            depth_stencil: None,
            multisample: multisample_state(states),
            features,
            select: false,
        },
        states,
        outputs,
        states.depth_stencil != DepthStencilDesc::default() || states.rasterizer.has_bias(),
    );
    GeometryPipelinesDesc {
        vertex: shader(v.vertex),
        geometry: shader(v.geometry),
        draw_vertex: draw.vertex,
        pixel: draw.pixel,
        groups: [
            layout_entries(plan_bindings(g0), Stage::Compute),
            layout_entries(plan_bindings(g1), Stage::Pixel),
            layout_entries(plan_bindings(g2), Stage::Compute),
        ],
        stage: runtime_stage(&plan.stage_descs[v.stage]),
        primitive: draw.primitive,
        color_targets: draw.color_targets,
        depth_stencil: draw.depth_stencil,
        multisample: draw.multisample,
        features: draw.features,
        select: v.select,
        stream_output: v.stream_output.zip(plan.stage_descs[v.stage].streams).map(|(so, i)| {
            let d = &plan.stage_descs[v.stage];
            (
                crate::primitive_stage::StreamStage {
                    slots: i.slots,
                    regions: i.regions,
                    index_stride: i.index_stride,
                    drawn: i.drawn,
                },
                crate::stream_output::so_desc(&c.stream_outputs[so]),
                crate::stream_output::SoLayout {
                    registers: d.output_registers.max(1),
                    index_stride: i.index_stride,
                    prim_vertices: i.prim_vertices,
                    regions: i.so_regions,
                },
            )
        }),
    }
}

/// The runtime's `StageDesc` of the plan's (what the generated `GEOMETRY_STAGES` hold).
pub fn runtime_stage(s: &plan::StageDesc) -> crate::primitive_stage::StageDesc {
    use crate::primitive_stage as rt;
    use dxbc_wgsl::geometry::{InputPrimitive as P, OutputTopology as O};
    rt::StageDesc {
        input_primitive: match s.input_primitive {
            P::Point => rt::InputPrimitive::Point,
            P::Line => rt::InputPrimitive::Line,
            P::Triangle => rt::InputPrimitive::Triangle,
            P::LineAdj => rt::InputPrimitive::LineAdj,
            P::TriangleAdj => rt::InputPrimitive::TriangleAdj,
            P::Patch(n) => rt::InputPrimitive::Patch(n),
        },
        input_registers: s.input_registers,
        output_registers: s.output_registers,
        max_vertices: s.max_vertices,
        gs_instances: s.gs_instances,
        index_stride: s.index_stride,
        output: s.output.map(|o| match o {
            O::PointList => rt::OutputTopology::PointList,
            O::LineStrip => rt::OutputTopology::LineStrip,
            O::TriangleStrip => rt::OutputTopology::TriangleStrip,
        }),
        vertex_slots: s.vertex_slots.clone().into(),
    }
}

/// Adds the depth buffer when the pass needs one (see [`effect_pipelines`]).
fn with_depth(
    mut d: RenderPipelineDesc,
    states: &PassStates,
    outputs: &[Interface],
    declared: bool,
) -> RenderPipelineDesc {
    let writes_depth = outputs.iter().any(|o| o.builtin == Some(dxbc_wgsl::Builtin::FragDepth));
    if declared || writes_depth || d.color_targets.iter().all(Option::is_none) {
        let format = if states.depth_stencil.stencil_enable { DEPTH_STENCIL_FORMAT } else { DEPTH_FORMAT };
        d.depth_stencil = Some(depth_stencil_state(states, format));
    }
    d
}

fn shader_desc(label: &str, info: &StageInfo) -> ShaderDesc {
    ShaderDesc {
        label: label.to_string(),
        wgsl: info.wgsl.clone(),
        entry_point: info.entry_point.clone(),
        constants: info.pipeline_constants.clone(),
    }
}

/// wgpu's feature for a WebGPU feature name of `Translation::required_features`.
pub fn feature_by_name(name: &str) -> Option<wgpu::Features> {
    match name {
        "clip-distances" => Some(wgpu::Features::CLIP_DISTANCES),
        "primitive-index" => Some(wgpu::Features::PRIMITIVE_INDEX),
        "depth-clip-control" => Some(wgpu::Features::DEPTH_CLIP_CONTROL),
        _ => None,
    }
}

/// WebGPU's names of the features in `f` that the validator knows.
pub fn feature_names(f: wgpu::Features) -> Vec<&'static str> {
    ["clip-distances", "primitive-index", "depth-clip-control"]
        .into_iter()
        .filter(|n| feature_by_name(n).is_some_and(|x| f.contains(x)))
        .collect()
}

/// The features the pass's states need (the generated `required_features`).
pub fn states_features(s: &PassStates) -> wgpu::Features {
    if s.rasterizer.depth_clip_enable {
        wgpu::Features::empty()
    } else {
        wgpu::Features::DEPTH_CLIP_CONTROL
    }
}

/// The vertex buffer of a plan's attributes.
pub fn vertex_buffer(attributes: &[plan::VertexAttribute], stride: u32) -> VertexBuffer {
    VertexBuffer {
        array_stride: u64::from(stride),
        attributes: attributes
            .iter()
            .map(|a| wgpu::VertexAttribute {
                format: vertex_format(&a.format),
                offset: u64::from(a.offset),
                shader_location: a.location,
            })
            .collect(),
    }
}

/// The bindings of a plan's bind group layout entries, in its order.
fn plan_bindings(entries: &[plan::GroupEntry]) -> impl Iterator<Item = &Binding> {
    entries.iter().map(|e| &e.binding)
}

/// Bind group layout entries of a stage's bindings (in the plan's order), visible to `stage`,
/// as the generated `VERTEX_GROUPS`/`PIXEL_GROUPS`/`COMPUTE_GROUPS` declare them.
pub fn layout_entries<'a>(
    bindings: impl IntoIterator<Item = &'a Binding>,
    stage: Stage,
) -> Vec<wgpu::BindGroupLayoutEntry> {
    let visibility = match stage {
        Stage::Vertex => wgpu::ShaderStages::VERTEX,
        Stage::Pixel => wgpu::ShaderStages::FRAGMENT,
        Stage::Compute | Stage::Geometry => wgpu::ShaderStages::COMPUTE,
    };
    bindings
        .into_iter()
        .map(|b| wgpu::BindGroupLayoutEntry { binding: b.binding, visibility, ty: binding_type(&b.kind), count: None })
        .collect()
}

/// The layout entry type of a binding (the generated code's).
pub use crate::wgpu_map::binding_type;

/// The wgpu vertex format of a [`VertexFormat`] (by its variant name).
pub fn vertex_format(f: &VertexFormat) -> wgpu::VertexFormat {
    use wgpu::VertexFormat as V;
    const ALL: [wgpu::VertexFormat; 41] = [
        V::Uint8,
        V::Uint8x2,
        V::Uint8x4,
        V::Sint8,
        V::Sint8x2,
        V::Sint8x4,
        V::Unorm8,
        V::Unorm8x2,
        V::Unorm8x4,
        V::Snorm8,
        V::Snorm8x2,
        V::Snorm8x4,
        V::Uint16,
        V::Uint16x2,
        V::Uint16x4,
        V::Sint16,
        V::Sint16x2,
        V::Sint16x4,
        V::Unorm16,
        V::Unorm16x2,
        V::Unorm16x4,
        V::Snorm16,
        V::Snorm16x2,
        V::Snorm16x4,
        V::Float16,
        V::Float16x2,
        V::Float16x4,
        V::Float32,
        V::Float32x2,
        V::Float32x3,
        V::Float32x4,
        V::Uint32,
        V::Uint32x2,
        V::Uint32x3,
        V::Uint32x4,
        V::Sint32,
        V::Sint32x2,
        V::Sint32x3,
        V::Sint32x4,
        V::Unorm10_10_10_2,
        V::Unorm8x4Bgra,
    ];
    ALL.into_iter()
        .find(|v| format!("{v:?}") == f.wgpu)
        .unwrap_or_else(|| panic!("vertex format {} has no wgpu value in the validator's table", f.wgpu))
}

/// wgpu's blend factor.
pub fn blend_factor(b: Blend) -> wgpu::BlendFactor {
    use wgpu::BlendFactor as F;
    match b {
        Blend::Zero => F::Zero,
        Blend::One => F::One,
        Blend::SrcColor => F::Src,
        Blend::InvSrcColor => F::OneMinusSrc,
        Blend::SrcAlpha => F::SrcAlpha,
        Blend::InvSrcAlpha => F::OneMinusSrcAlpha,
        Blend::DestAlpha => F::DstAlpha,
        Blend::InvDestAlpha => F::OneMinusDstAlpha,
        Blend::DestColor => F::Dst,
        Blend::InvDestColor => F::OneMinusDst,
        Blend::SrcAlphaSat => F::SrcAlphaSaturated,
        Blend::BlendFactor => F::Constant,
        Blend::InvBlendFactor => F::OneMinusConstant,
    }
}

/// wgpu's blend operation.
pub fn blend_operation(op: BlendOp) -> wgpu::BlendOperation {
    use wgpu::BlendOperation as O;
    match op {
        BlendOp::Add => O::Add,
        BlendOp::Subtract => O::Subtract,
        BlendOp::RevSubtract => O::ReverseSubtract,
        BlendOp::Min => O::Min,
        BlendOp::Max => O::Max,
    }
}

/// wgpu's comparison.
pub fn compare_function(c: Comparison) -> wgpu::CompareFunction {
    use wgpu::CompareFunction as C;
    match c {
        Comparison::Never => C::Never,
        Comparison::Less => C::Less,
        Comparison::Equal => C::Equal,
        Comparison::LessEqual => C::LessEqual,
        Comparison::Greater => C::Greater,
        Comparison::NotEqual => C::NotEqual,
        Comparison::GreaterEqual => C::GreaterEqual,
        Comparison::Always => C::Always,
    }
}

/// wgpu's stencil operation.
pub fn stencil_operation(op: StencilOp) -> wgpu::StencilOperation {
    use wgpu::StencilOperation as S;
    match op {
        StencilOp::Keep => S::Keep,
        StencilOp::Zero => S::Zero,
        StencilOp::Replace => S::Replace,
        StencilOp::IncrSat => S::IncrementClamp,
        StencilOp::DecrSat => S::DecrementClamp,
        StencilOp::Invert => S::Invert,
        StencilOp::Incr => S::IncrementWrap,
        StencilOp::Decr => S::DecrementWrap,
    }
}

/// wgpu's topology.
pub fn topology(t: Topology) -> wgpu::PrimitiveTopology {
    use wgpu::PrimitiveTopology as P;
    match t {
        Topology::PointList => P::PointList,
        Topology::LineList => P::LineList,
        Topology::LineStrip => P::LineStrip,
        Topology::TriangleList => P::TriangleList,
        Topology::TriangleStrip => P::TriangleStrip,
    }
}

/// wgpu's cull mode.
pub fn cull_mode(c: CullMode) -> Option<wgpu::Face> {
    match c {
        CullMode::None => None,
        CullMode::Front => Some(wgpu::Face::Front),
        CullMode::Back => Some(wgpu::Face::Back),
    }
}

/// The generated `primitive_state`.
pub fn primitive_state(s: &PassStates) -> wgpu::PrimitiveState {
    let r = &s.rasterizer;
    wgpu::PrimitiveState {
        topology: topology(s.topology),
        strip_index_format: None,
        front_face: if r.front_counter_clockwise { wgpu::FrontFace::Ccw } else { wgpu::FrontFace::Cw },
        cull_mode: cull_mode(r.cull_mode),
        unclipped_depth: !r.depth_clip_enable,
        polygon_mode: wgpu::PolygonMode::Fill,
        conservative: false,
    }
}

/// The generated `blend_state(target)`.
pub fn blend_state(s: &PassStates, target: usize) -> Option<wgpu::BlendState> {
    if target >= 8 {
        return None;
    }
    let component = |(src, dst, op): (Blend, Blend, BlendOp)| wgpu::BlendComponent {
        src_factor: blend_factor(src),
        dst_factor: blend_factor(dst),
        operation: blend_operation(op),
    };
    s.blend
        .target(target)
        .components()
        .map(|[color, alpha]| wgpu::BlendState { color: component(color), alpha: component(alpha) })
}

/// The generated `color_write_mask(target)`.
pub fn color_write_mask(s: &PassStates, target: usize) -> wgpu::ColorWrites {
    if target >= 8 {
        return wgpu::ColorWrites::ALL;
    }
    wgpu::ColorWrites::from_bits_truncate(u32::from(s.blend.target(target).write_mask & 0xF))
}

/// The generated `color_target_states(formats)`.
pub fn color_target_states(s: &PassStates, formats: &[wgpu::TextureFormat]) -> Vec<Option<wgpu::ColorTargetState>> {
    formats
        .iter()
        .enumerate()
        .map(|(i, &format)| {
            Some(wgpu::ColorTargetState { format, blend: blend_state(s, i), write_mask: color_write_mask(s, i) })
        })
        .collect()
}

/// The colour target format the validator uses for an output of `scalar` type.
pub fn target_format(scalar: ScalarKind) -> wgpu::TextureFormat {
    match scalar {
        ScalarKind::Float => FLOAT_TARGET,
        ScalarKind::Uint => UINT_TARGET,
        ScalarKind::Sint => SINT_TARGET,
    }
}

/// The colour target formats the validator falls back to, in order, when those of
/// [`target_format`] exceed [`COLOR_BYTES_PER_SAMPLE`]: 4-byte integer formats, then one byte per
/// target (`R8Unorm`, `R8Uint`, `R8Sint`: a shader may write more channels than a target has), so
/// that only what no choice of formats avoids is reported.
pub const FALLBACK_TARGET_FORMATS: [fn(ScalarKind) -> wgpu::TextureFormat; 2] = [
    |scalar| match scalar {
        ScalarKind::Float => FLOAT_TARGET,
        ScalarKind::Uint => wgpu::TextureFormat::Rgba8Uint,
        ScalarKind::Sint => wgpu::TextureFormat::Rgba8Sint,
    },
    |scalar| match scalar {
        ScalarKind::Float => wgpu::TextureFormat::R8Unorm,
        ScalarKind::Uint => wgpu::TextureFormat::R8Uint,
        ScalarKind::Sint => wgpu::TextureFormat::R8Sint,
    },
];

/// WebGPU's default `maxColorAttachmentBytesPerSample`.
pub const COLOR_BYTES_PER_SAMPLE: u32 = 32;

/// Bytes per sample of colour targets, as wgpu counts them against the limit.
fn color_bytes(formats: &[wgpu::TextureFormat]) -> u32 {
    formats.iter().fold(0, |total, f| {
        let align = f.target_component_alignment().unwrap_or(1);
        total.next_multiple_of(align) + f.target_pixel_byte_cost().unwrap_or(0)
    })
}

/// One target per `SV_Target` the pixel shader writes (`None` in the gaps), with the pass's
/// blend state and write mask. Formats by scalar type ([`target_format`]), or the first of
/// [`FALLBACK_TARGET_FORMATS`] within WebGPU's [`COLOR_BYTES_PER_SAMPLE`].
fn color_targets(s: &PassStates, outputs: &[Interface]) -> Vec<Option<wgpu::ColorTargetState>> {
    let written: Vec<(u32, ScalarKind)> = outputs.iter().filter_map(|o| o.location.map(|l| (l, o.scalar))).collect();
    let count = written.iter().map(|(l, _)| l + 1).max().unwrap_or(0);
    let formats = |pick: fn(ScalarKind) -> wgpu::TextureFormat| -> Vec<Option<wgpu::TextureFormat>> {
        (0..count).map(|i| written.iter().find(|(l, _)| *l == i).map(|&(_, scalar)| pick(scalar))).collect()
    };
    let mut chosen = formats(target_format);
    for fallback in FALLBACK_TARGET_FORMATS {
        if color_bytes(&chosen.iter().flatten().copied().collect::<Vec<_>>()) <= COLOR_BYTES_PER_SAMPLE {
            break;
        }
        chosen = formats(fallback);
    }
    chosen
        .into_iter()
        .enumerate()
        .map(|(i, f)| {
            f.map(|format| wgpu::ColorTargetState {
                format,
                blend: blend_state(s, i),
                write_mask: color_write_mask(s, i),
            })
        })
        .collect()
}

fn stencil_face(f: &StencilFace) -> wgpu::StencilFaceState {
    wgpu::StencilFaceState {
        compare: compare_function(f.func),
        fail_op: stencil_operation(f.fail),
        depth_fail_op: stencil_operation(f.depth_fail),
        pass_op: stencil_operation(f.pass),
    }
}

/// The generated `depth_stencil_state(format)`.
pub fn depth_stencil_state(s: &PassStates, format: wgpu::TextureFormat) -> wgpu::DepthStencilState {
    let d = &s.depth_stencil;
    let r = &s.rasterizer;
    let stencil = if d.stencil_enable {
        wgpu::StencilState {
            front: stencil_face(&d.front_face),
            back: stencil_face(&d.back_face),
            read_mask: u32::from(d.stencil_read_mask),
            write_mask: u32::from(d.stencil_write_mask),
        }
    } else {
        wgpu::StencilState {
            front: wgpu::StencilFaceState::IGNORE,
            back: wgpu::StencilFaceState::IGNORE,
            read_mask: 0,
            write_mask: 0,
        }
    };
    wgpu::DepthStencilState {
        format,
        depth_write_enabled: Some(d.wgpu_depth_write()),
        depth_compare: Some(compare_function(d.depth_compare())),
        stencil,
        bias: wgpu::DepthBiasState {
            constant: r.depth_bias,
            slope_scale: r.slope_scaled_depth_bias,
            clamp: r.depth_bias_clamp,
        },
    }
}

/// The generated `multisample_state(count)`.
pub fn multisample_state_with(s: &PassStates, count: u32) -> wgpu::MultisampleState {
    wgpu::MultisampleState { count, mask: !0, alpha_to_coverage_enabled: count > 1 && s.blend.alpha_to_coverage }
}

/// The multisample state the validator uses: one sample, or [`ALPHA_TO_COVERAGE_SAMPLES`] with
/// alpha to coverage (which WebGPU allows only on multisampled targets).
pub fn multisample_state(s: &PassStates) -> wgpu::MultisampleState {
    multisample_state_with(s, if s.blend.alpha_to_coverage { ALPHA_TO_COVERAGE_SAMPLES } else { 1 })
}

/// The pipeline of a bare shader (no effect file): a pixel shader with a synthesized full-screen
/// vertex shader writing every input it reads; a vertex shader with a minimal pixel shader
/// writing one `Rgba8Unorm` target, fed by the vertex buffer its inputs need (32-bit formats);
/// a compute shader alone; a geometry shader's compute module with its resources in group 2 and
/// the primitive stage's buffers in group 3 ([`geometry_system_entries`]). Layouts from the translation's bindings (storage textures with the
/// access the module declares), D3D11's default states, colour targets by output type, a depth
/// buffer when the pixel shader writes depth or no colour target.
///
/// # Errors
/// A stage that has no pipeline in WebGPU, or a pixel shader whose WGSL naga cannot re-read.
pub fn shader_pipeline(t: &dxbc_wgsl::Translation) -> Result<PipelineDesc, String> {
    let info =
        StageInfo::from_translation(t).ok_or_else(|| format!("{} shaders have no WebGPU pipeline", t.stage.name()))?;
    let features = crate::wgpu_map::features(&t.required_features);
    let label = "the shader".to_string();
    let own = shader_desc(&label, &info);
    let entries = |stage: Stage| layout_entries(&plan::group_entries(&info.bindings), stage);
    let states = PassStates::default();
    match info.stage {
        Stage::Compute => Ok(PipelineDesc::Compute(ComputePipelineDesc {
            shader: own,
            group: entries(Stage::Compute),
            resource_group: 0,
            system_group: None,
            features,
        })),
        // A geometry shader alone: its compute module with its resources (group 2) and the
        // primitive stage's buffers (group 3), as the runtime lays them out.
        Stage::Geometry => Ok(PipelineDesc::Compute(ComputePipelineDesc {
            shader: own,
            group: entries(Stage::Geometry),
            resource_group: Stage::Geometry.group(),
            system_group: Some(geometry_system_entries()),
            features,
        })),
        Stage::Pixel => {
            let vs = crate::fullscreen::fullscreen_vs(&t.wgsl, &t.entry_point, 1.0)?;
            let d = RenderPipelineDesc {
                vertex: ShaderDesc {
                    label: "a full-screen vertex shader".into(),
                    wgsl: vs,
                    entry_point: "main".into(),
                    constants: Vec::new(),
                },
                pixel: Some(own),
                groups: [Vec::new(), entries(Stage::Pixel)],
                vertex_buffer: None,
                primitive: primitive_state(&states),
                color_targets: color_targets(&states, &info.outputs),
                depth_stencil: None,
                multisample: multisample_state(&states),
                features,
                select: false,
            };
            Ok(PipelineDesc::Render(Box::new(with_depth(d, &states, &info.outputs, false))))
        }
        // A vertex shader translated as compute (the primitive stage's vertex module): its
        // resources (group 0) and the primitive stage's buffers (group 3), slot 0 pulled.
        Stage::Vertex if t.workgroup_size.is_some() => Ok(PipelineDesc::Compute(ComputePipelineDesc {
            shader: own,
            group: entries(Stage::Vertex),
            resource_group: Stage::Vertex.group(),
            system_group: Some(vertex_system_entries(&[0])),
            features,
        })),
        Stage::Vertex => {
            let vertex_buffer = plan::vertex_attributes(&info.inputs, &[]).map(|(a, stride)| vertex_buffer(&a, stride));
            let mut ps = String::new();
            let _ = writeln!(ps, "@fragment\nfn main() -> @location(0) vec4<f32> {{\n    return vec4<f32>(0.0);\n}}");
            Ok(PipelineDesc::Render(Box::new(RenderPipelineDesc {
                vertex: own,
                pixel: Some(ShaderDesc {
                    label: "a minimal pixel shader".into(),
                    wgsl: ps,
                    entry_point: "main".into(),
                    constants: Vec::new(),
                }),
                groups: [entries(Stage::Vertex), Vec::new()],
                vertex_buffer,
                primitive: primitive_state(&states),
                color_targets: color_target_states(&states, &[FLOAT_TARGET]),
                depth_stencil: None,
                multisample: multisample_state(&states),
                features,
                select: false,
            })))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each value is the one the generated code names: `wgpu::X::{Debug name}` is the expression
    /// `codegen` prints for it.
    #[test]
    fn wgpu_values_match_the_generated_expressions() {
        for &b in Blend::ALL {
            assert_eq!(format!("wgpu::BlendFactor::{:?}", blend_factor(b)), b.wgpu());
        }
        for &o in BlendOp::ALL {
            assert_eq!(format!("wgpu::BlendOperation::{:?}", blend_operation(o)), o.wgpu());
        }
        for &c in Comparison::ALL {
            assert_eq!(format!("wgpu::CompareFunction::{:?}", compare_function(c)), c.wgpu());
        }
        for &s in StencilOp::ALL {
            assert_eq!(format!("wgpu::StencilOperation::{:?}", stencil_operation(s)), s.wgpu());
        }
        for &t in Topology::ALL {
            assert_eq!(format!("wgpu::PrimitiveTopology::{:?}", topology(t)), t.wgpu());
        }
        for &c in CullMode::ALL {
            let text = match cull_mode(c) {
                None => "None".to_string(),
                Some(f) => format!("Some(wgpu::Face::{f:?})"),
            };
            assert_eq!(text, c.wgpu());
        }
        for (f, _) in dxbc_wgsl_build::vertex::FORMATS {
            assert_eq!(format!("{:?}", vertex_format(f)), f.wgpu);
        }
        for f in dxbc_wgsl::TexelFormat::ALL {
            assert_eq!(
                format!("{:?}", crate::wgpu_map::texture_format(f)),
                dxbc_wgsl_build::codegen::texture_format(&f)
            );
        }
    }

    #[test]
    fn required_features_map_to_wgpu_features() {
        let f = crate::wgpu_map::features(&dxbc_wgsl::WebGpuFeature::ALL);
        assert_eq!(f, wgpu::Features::CLIP_DISTANCES | wgpu::Features::PRIMITIVE_INDEX);
        assert_eq!(crate::wgpu_map::features(&[]), wgpu::Features::empty());
        assert_eq!(feature_names(wgpu::Features::DEPTH_CLIP_CONTROL), ["depth-clip-control"]);
        assert_eq!(feature_names(f), ["clip-distances", "primitive-index"]);
    }
}
