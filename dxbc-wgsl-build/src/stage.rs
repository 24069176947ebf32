//! What the binding generator needs from a translated shader, as owned, serializable data (the
//! builder's cache stores it; tests build it by hand). Its parts are the translator's own types
//! ([`dxbc_wgsl::InterfaceVar`], [`dxbc_wgsl::ResourceBinding`], ...), serialized through the
//! library's `serde` feature: nothing is converted to strings and parsed back.

use dxbc_wgsl::{InterfaceVar, ResourceBinding, ResourceKind, TextureSample, WebGpuFeature};
use serde::{Deserialize, Serialize};

use crate::effect::Stage;

/// A translated shader stage: WGSL plus its interface and bindings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageInfo {
    /// Pipeline stage.
    pub stage: Stage,
    /// Shader model `(major, minor)`.
    pub shader_model: (u8, u8),
    /// WGSL module text.
    pub wgsl: String,
    /// WGSL entry point name.
    pub entry_point: String,
    /// Stage inputs (vertex attributes for a vertex shader).
    pub inputs: Vec<InterfaceVar>,
    /// Stage outputs.
    pub outputs: Vec<InterfaceVar>,
    /// Resources bound, in (group, binding) order.
    pub bindings: Vec<ResourceBinding>,
    /// Compute workgroup size.
    pub workgroup_size: Option<[u32; 3]>,
    /// Bytes of workgroup (thread-group shared) memory a compute shader declares.
    pub workgroup_storage_bytes: u32,
    /// Optional WebGPU features the module needs (the device must have them).
    #[serde(default)]
    pub required_features: Vec<WebGpuFeature>,
    /// For a geometry shader (translated as compute work in front of a draw): what the code
    /// driving it needs (`dcl_maxout`, the registers per record and per output vertex, ...).
    #[serde(default)]
    pub geometry: Option<dxbc_wgsl::geometry::GeometryInfo>,
    /// The pipeline-overridable constants the module declares (the pipeline sets each from its
    /// state: [`dxbc_wgsl::PipelineConstant::value`]).
    #[serde(default)]
    pub pipeline_constants: Vec<dxbc_wgsl::PipelineConstant>,
    /// What a vertex or geometry shader writes per primitive (SV_RenderTargetArrayIndex,
    /// SV_ViewportArrayIndex, a cull flag): the pass draws per layer and viewport.
    #[serde(default)]
    pub per_primitive: dxbc_wgsl::select::PrimitiveSelect,
}

/// Short description of what a binding holds, for messages and docs:
/// `constant buffer of 64 bytes`, `texture_2d<f32>`, `storage texture 2d rgba8unorm, write`.
pub fn describe(kind: &ResourceKind) -> String {
    match kind {
        ResourceKind::UniformBuffer { size_bytes } => format!("constant buffer of {size_bytes} bytes"),
        ResourceKind::Sampler { comparison: false } => "sampler".into(),
        ResourceKind::Sampler { comparison: true } => "comparison sampler".into(),
        ResourceKind::Texture { dimension, sample, multisampled } => format!(
            "texture_{}{dimension}{}{}",
            if *multisampled { "multisampled_" } else { "" },
            match sample {
                TextureSample::Float => "<f32>",
                TextureSample::UnfilterableFloat => "<f32> (unfilterable)",
                TextureSample::Sint => "<i32>",
                TextureSample::Uint => "<u32>",
                TextureSample::Depth => " (depth)",
            },
            caller_view(*dimension)
        ),
        ResourceKind::StorageBuffer { read_only: true } => "read-only storage buffer".into(),
        ResourceKind::StorageBuffer { read_only: false } => "read-write storage buffer".into(),
        ResourceKind::UavCounter => "hidden counter (4-byte read-write storage buffer)".into(),
        ResourceKind::StorageTexture { dimension, format, read_write } => format!(
            "storage texture {dimension} {format}, {}{}",
            if *read_write { "read_write" } else { "write" },
            caller_view(*dimension)
        ),
    }
}

/// ` (a D3D Texture1D: ...)`, what the caller creates for a D3D 1D texture; empty otherwise.
fn caller_view(d: dxbc_wgsl::ViewDimension) -> String {
    d.caller_view().map(|v| format!(" ({v})")).unwrap_or_default()
}

impl StageInfo {
    /// From a translation; `None` for a stage the effect model does not know (hull, domain).
    pub fn from_translation(t: &dxbc_wgsl::Translation) -> Option<Self> {
        Some(StageInfo {
            stage: Stage::from_d3d(t.stage)?,
            shader_model: t.shader_model,
            wgsl: t.wgsl.clone(),
            entry_point: t.entry_point.clone(),
            inputs: t.inputs.clone(),
            outputs: t.outputs.clone(),
            bindings: t.bindings.clone(),
            workgroup_size: t.workgroup_size,
            workgroup_storage_bytes: t.workgroup_storage_bytes,
            required_features: t.required_features.clone(),
            geometry: t.geometry.clone(),
            pipeline_constants: t.pipeline_constants.clone(),
            per_primitive: t.per_primitive,
        })
    }
}
