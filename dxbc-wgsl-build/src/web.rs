//! The web artifact: one JSON document per effect, for engines written in JavaScript or
//! TypeScript on WebGPU, which cannot use the generated Rust (`docs/web-artifact.md`).
//!
//! It is the second printer of the [`PipelinePlan`]: [`crate::codegen::generate`] prints the plan
//! as Rust, [`artifact`] as the values of WebGPU's JavaScript descriptors (`GPUBindGroupLayoutEntry`,
//! `GPUVertexBufferLayout`, `GPUPrimitiveState`, `GPUBlendState`...), so both come from the same
//! bind group layouts, vertex layouts, states and shaders and cannot drift. The types here are
//! the schema: `docs/web-artifact.schema.json` and `docs/web-artifact.d.ts` are generated from
//! them (feature `schema`; `dxbc-wgsl schema`), and a test fails when the files are stale.
//!
//! Every variant (pass × permutation) lists the pipelines it needs, each naming its shaders (by
//! id into [`EffectArtifact::shaders`], each distinct WGSL body once) and its bind group layouts
//! (by id into [`EffectArtifact::bind_group_layouts`], one per `@group` index, an empty layout
//! for a group the pipeline does not use). A pass with a geometry shader lists the compute
//! pipelines its primitive stage runs before the indirect draw (`docs/geometry.md`) and, with
//! stream output, the stream-output kernels (`docs/stream-output.md`); their runtime kernels and
//! system bind groups are entries of the same tables.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::compile::{CompiledEffect, CompiledShader, FieldKind};
use crate::effect::layout::{HlslType, MatrixPacking, PlacedField, Scalar, Shape, VarType};
use crate::effect::states::{PassStates, RenderTargetBlend, StencilFace};
use crate::effect::{PassKind, Stage};
use crate::plan::{GroupEntry, PipelinePlan, VariantPlan, VertexLayout};
use dxbc_wgsl::geometry::OutputTopology;
use dxbc_wgsl::{ResourceKind, TextureSample, ViewDimension};
use dxbc_wgsl_contract::bindings::{GEOMETRY_GROUP, PIXEL_GROUP, VERTEX_GROUP};
use dxbc_wgsl_contract::geometry::SYSTEM_GROUP;
use dxbc_wgsl_contract::select::{SELECT_BINDING, SELECT_GROUP, SELECT_PARAMS_SIZE};
use dxbc_wgsl_contract::stream_output as so;

/// The value of [`EffectArtifact::schema`]: the artifact format and its major version. A reader
/// refuses another value; additions that old readers may ignore keep the version.
pub const SCHEMA: &str = "dxbc-wgsl-effect/1";

/// `GPUShaderStage.VERTEX`.
pub const VERTEX: u32 = 1;
/// `GPUShaderStage.FRAGMENT`.
pub const FRAGMENT: u32 = 2;
/// `GPUShaderStage.COMPUTE`.
pub const COMPUTE: u32 = 4;

/// One effect, everything a WebGPU engine needs to create its pipelines and fill its buffers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EffectArtifact {
    /// Always [`SCHEMA`] (`"dxbc-wgsl-effect/1"`).
    pub schema: String,
    /// The effect's name (`name` of the effect file).
    pub name: String,
    /// The generated Rust module's name (`module`), for cross-reference.
    pub module: String,
    /// The effect file's description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The permutation axes, in declaration order.
    pub axes: Vec<Axis>,
    /// Every permutation that exists (the effect file's exclusions removed), in the order of the
    /// generated `Permutation::ALL`; [`Variant::permutation`] indexes it.
    pub permutations: Vec<Permutation>,
    /// Every distinct WGSL module: the translated shaders, then the runtime's kernels.
    pub shaders: Vec<Shader>,
    /// Every distinct bind group layout; index 0 is the empty layout.
    pub bind_group_layouts: Vec<BindGroupLayout>,
    /// Every distinct vertex buffer layout.
    pub vertex_buffer_layouts: Vec<VertexBufferLayout>,
    /// The constant-buffer layouts, as HLSL packs them (byte offsets from the buffer's start).
    pub cbuffers: Vec<CbufferLayout>,
    /// The resources the effect binds (the fields of the generated `Resources` structs): the
    /// name a bind group entry ([`BindGroupLayoutEntry::resource`]) refers to.
    pub resources: Vec<Resource>,
    /// The passes, in declaration order.
    pub passes: Vec<Pass>,
}

/// A permutation axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Axis {
    /// Its name (`fog`).
    pub name: String,
    /// Its values (`["false", "true"]` for a bool axis).
    pub values: Vec<String>,
    /// Index of the default value.
    pub default: usize,
}

/// One permutation: a value per axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Permutation {
    /// The value of each axis by name (`{"fog": "true", "lighting": "pixel"}`).
    pub values: BTreeMap<String, String>,
}

/// The WebGPU stage a module's entry point is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ShaderStage {
    /// `@vertex`.
    Vertex,
    /// `@fragment`.
    Fragment,
    /// `@compute`.
    Compute,
}

/// One WGSL module.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Shader {
    /// Its index in [`EffectArtifact::shaders`].
    pub id: usize,
    /// Where it came from: shader inputs (`BasicEffect_VSBasic.inc:BasicEffect_VSBasic`), or
    /// `runtime:` and the kernel's name.
    pub labels: Vec<String>,
    /// The D3D stage it was translated from (`vertex`, `pixel`, `geometry`, `compute`), or
    /// `runtime` for a kernel of the primitive stage.
    pub d3d_stage: String,
    /// The shader model (`vs_4_0`), absent for a runtime kernel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shader_model: Option<String>,
    /// The WebGPU stage of its entry points.
    pub stage: ShaderStage,
    /// The entry point (a runtime kernel may have several: each pipeline names its own).
    pub entry_point: String,
    /// The WGSL source (`GPUShaderModuleDescriptor.code`).
    pub code: String,
    /// Optional WebGPU features the device must have (`"clip-distances"`, ...).
    pub required_features: Vec<String>,
    /// `@workgroup_size` of a compute entry point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workgroup_size: Option<[u32; 3]>,
    /// Bytes of `var<workgroup>` memory (D3D's TGSM) a compute module declares.
    pub workgroup_storage_bytes: u32,
    /// The pipeline-overridable constants (`override`) the module declares.
    pub pipeline_constants: Vec<PipelineConstant>,
    /// A fragment shader's color outputs (`SV_Target0`..7): one render target each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub color_outputs: Vec<ColorOutput>,
    /// A fragment shader writes `SV_Depth` (`@builtin(frag_depth)`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub writes_depth: bool,
}

/// One color output of a fragment shader: its target needs a format of the same kind (a float,
/// unorm or snorm format for `f32`, an integer format of the same signedness otherwise).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ColorOutput {
    /// `@location` (the render target index).
    pub location: u32,
    /// `"f32"`, `"u32"` or `"i32"`.
    pub scalar: String,
    /// Components written (1–4).
    pub components: u8,
}

/// A pipeline-overridable constant: what a pipeline sets it to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PipelineConstant {
    /// The `override`'s name: the key in `GPUProgrammableStage.constants`.
    pub name: String,
    /// What it stands for: `"sample-count"`, the render pipeline's `multisample.count`.
    pub meaning: String,
}

/// A bind group layout (`GPUBindGroupLayoutDescriptor.entries`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BindGroupLayout {
    /// Its index in [`EffectArtifact::bind_group_layouts`].
    pub id: usize,
    /// What it holds (`vertex shader resources`, `primitive stage: geometry system group`).
    pub label: String,
    /// The entries, by ascending binding number.
    pub entries: Vec<BindGroupLayoutEntry>,
}

/// One entry: a `GPUBindGroupLayoutEntry` (exactly one of `buffer`, `sampler`, `texture`,
/// `storageTexture` is present) and what to bind to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BindGroupLayoutEntry {
    /// `@binding`.
    pub binding: u32,
    /// `GPUShaderStageFlags`: 1 vertex, 2 fragment, 4 compute.
    pub visibility: u32,
    /// A buffer binding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer: Option<BufferBindingLayout>,
    /// A sampler binding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampler: Option<SamplerBindingLayout>,
    /// A sampled texture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texture: Option<TextureBindingLayout>,
    /// A storage texture (a typed UAV).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_texture: Option<StorageTextureBindingLayout>,
    /// What is bound here: a name of [`EffectArtifact::resources`], or, for the primitive stage's
    /// own buffers, `system:` and the buffer (`system:draw-params`, `system:vertex-records`, ...,
    /// `docs/geometry.md`; `system:select` for the per-primitive selection uniform).
    pub resource: String,
    /// The D3D register (`b0`, `t3`, `u1, space2`); absent for system buffers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub register: Option<String>,
    /// The view D3D declares when WebGPU's differs: `"1d"` or `"1d-array"` for D3D's 1D textures,
    /// which are bound as 2D (array) views of height 1 (docs/compatibility.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d3d_view_dimension: Option<String>,
    /// The buffer is a structured UAV's hidden counter (its first 4 bytes hold the count:
    /// write D3D's initial count before the pass, read it where D3D's `CopyStructureCount` would).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub counter: bool,
}

/// `GPUBufferBindingLayout`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BufferBindingLayout {
    /// `"uniform"`, `"storage"` or `"read-only-storage"`.
    #[serde(rename = "type")]
    pub ty: String,
    /// `hasDynamicOffset`.
    pub has_dynamic_offset: bool,
    /// `minBindingSize` in bytes (0: none).
    pub min_binding_size: u64,
}

/// `GPUSamplerBindingLayout`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SamplerBindingLayout {
    /// `"filtering"` or `"comparison"`.
    #[serde(rename = "type")]
    pub ty: String,
}

/// `GPUTextureBindingLayout`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextureBindingLayout {
    /// `"float"`, `"unfilterable-float"`, `"sint"`, `"uint"` or `"depth"`.
    pub sample_type: String,
    /// `"2d"`, `"2d-array"`, `"cube"`, `"cube-array"`, `"3d"`.
    pub view_dimension: String,
    /// `multisampled`.
    pub multisampled: bool,
}

/// `GPUStorageTextureBindingLayout`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StorageTextureBindingLayout {
    /// `"write-only"` or `"read-write"`.
    pub access: String,
    /// The texel format (`"rgba8unorm"`): the view's format.
    pub format: String,
    /// `"2d"`, `"2d-array"`, `"3d"`.
    pub view_dimension: String,
}

/// `GPUVertexBufferLayout`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VertexBufferLayout {
    /// Its index in [`EffectArtifact::vertex_buffer_layouts`].
    pub id: usize,
    /// The generated Rust struct's name (`VertexPositionNormalTexcoord`), or the primitive
    /// stage's output vertex (`GeometryOutput4`: registers as `uint32x4`).
    pub name: String,
    /// `arrayStride` in bytes.
    pub array_stride: u32,
    /// `"vertex"` or `"instance"`.
    pub step_mode: String,
    /// The attributes, by shader location.
    pub attributes: Vec<VertexAttribute>,
}

/// `GPUVertexAttribute`, with the D3D semantic it feeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VertexAttribute {
    /// `GPUVertexFormat` (`"float32x3"`).
    pub format: String,
    /// Byte offset in the vertex.
    pub offset: u32,
    /// `@location`.
    pub shader_location: u32,
    /// The D3D semantic (`NORMAL`, `TEXCOORD1`), or `register N` for the primitive stage's output.
    pub semantic: String,
    /// D3D's instance step rate of per-instance data (`[instance_data]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_step_rate: Option<u32>,
}

/// A constant-buffer layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CbufferLayout {
    /// The layout's name (`Parameters`; the generated Rust struct's).
    pub name: String,
    /// Bytes, a multiple of 16 (whole registers): the buffer's size.
    pub size: u32,
    /// The variables, in declaration order.
    pub fields: Vec<CbufferField>,
}

/// A constant-buffer variable (or a struct member) as HLSL packs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CbufferField {
    /// HLSL name (`WorldViewProj`).
    pub name: String,
    /// HLSL type as declared (`column_major float4x4`, `float3[8]`, `struct Light[4]`).
    #[serde(rename = "type")]
    pub ty: String,
    /// Byte offset from the start of the buffer (of the struct, for a member).
    pub offset: u32,
    /// Bytes from the first to the last used byte (HLSL packs what follows into the rest of the
    /// last register).
    pub size: u32,
    /// Component type: `"f32"`, `"i32"`, `"u32"` or `"bool"` (a 32-bit word, 0 false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scalar: Option<String>,
    /// Rows of a matrix, or 1 for a scalar or vector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u8>,
    /// Columns of a matrix, or the components of a vector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub columns: Option<u8>,
    /// A matrix's packing: `"column_major"` (each column one register, HLSL's default) or
    /// `"row_major"`. The matrix's vectors are 16 bytes apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packing: Option<String>,
    /// The array length, for an array.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array_length: Option<u32>,
    /// Bytes between array elements (whole registers), for an array.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array_stride: Option<u32>,
    /// A struct's members, offsets relative to each element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub members: Option<Vec<CbufferField>>,
}

/// A resource the effect binds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Resource {
    /// Its name (the generated `Resources` field's).
    pub name: String,
    /// `"uniform-buffer"`, `"storage-buffer"`, `"counter-buffer"`, `"texture-view"`, `"sampler"`.
    pub kind: String,
    /// For a constant buffer, its layout (index into [`EffectArtifact::cbuffers`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cbuffer: Option<usize>,
    /// The effect file's documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// The kind of pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum PassKindName {
    /// A render pipeline.
    Render,
    /// A compute pipeline.
    Compute,
    /// A pass with a geometry shader (or stream output): compute pipelines, then a draw.
    Geometry,
}

/// One pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Pass {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: PassKindName,
    /// The render states (render and geometry passes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub states: Option<RenderStates>,
    /// One per permutation, in [`EffectArtifact::permutations`] order.
    pub variants: Vec<Variant>,
}

/// A pass's render states, as WebGPU descriptor values (D3D11's defaults for what the effect
/// file leaves out; the mapping is `docs/effect-format.md`'s).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RenderStates {
    /// `GPUPrimitiveState` of the pass's draw (a geometry pass's draw pipeline sets its own
    /// topology: [`PipelineDesc::primitive`]).
    pub primitive: PrimitiveState,
    /// `GPUDepthStencilState` without `format` (add the depth buffer's).
    pub depth_stencil: DepthStencilState,
    /// Per render target (`SV_Target0`..7): `GPUColorTargetState` without `format`.
    pub targets: Vec<ColorTargetState>,
    /// `multisample.alphaToCoverageEnabled` for a multisampled target (WebGPU refuses it with one
    /// sample: there it is off, docs/compatibility.md).
    pub alpha_to_coverage: bool,
    /// D3D's `ScissorEnable`: set the pass's scissor rectangle before drawing.
    pub scissor_enable: bool,
    /// The states read the blend constant (`setBlendConstant`).
    pub uses_blend_constant: bool,
    /// The states read the stencil reference (`setStencilReference`).
    pub uses_stencil_reference: bool,
    /// WebGPU features the states need (`"depth-clip-control"`).
    pub required_features: Vec<String>,
}

/// `GPUPrimitiveState`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PrimitiveState {
    /// `"point-list"`, ..., `"triangle-strip"`.
    pub topology: String,
    /// `"uint16"` or `"uint32"` for a strip drawn indexed (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strip_index_format: Option<String>,
    /// `"cw"` (D3D's default) or `"ccw"`.
    pub front_face: String,
    /// `"none"`, `"front"` or `"back"`.
    pub cull_mode: String,
    /// `unclippedDepth` (D3D's `DepthClipEnable = FALSE`; feature `depth-clip-control`).
    pub unclipped_depth: bool,
}

/// `GPUDepthStencilState` without `format`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DepthStencilState {
    /// `depthWriteEnabled`.
    pub depth_write_enabled: bool,
    /// `depthCompare`.
    pub depth_compare: String,
    /// `stencilFront`.
    pub stencil_front: StencilFaceState,
    /// `stencilBack`.
    pub stencil_back: StencilFaceState,
    /// `stencilReadMask`.
    pub stencil_read_mask: u32,
    /// `stencilWriteMask`.
    pub stencil_write_mask: u32,
    /// `depthBias`.
    pub depth_bias: i32,
    /// `depthBiasSlopeScale`.
    pub depth_bias_slope_scale: f32,
    /// `depthBiasClamp`.
    pub depth_bias_clamp: f32,
}

/// `GPUStencilFaceState`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StencilFaceState {
    /// `compare`.
    pub compare: String,
    /// `failOp`.
    pub fail_op: String,
    /// `depthFailOp`.
    pub depth_fail_op: String,
    /// `passOp`.
    pub pass_op: String,
}

/// `GPUColorTargetState` without `format`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ColorTargetState {
    /// `blend` (absent: blending off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blend: Option<BlendState>,
    /// `writeMask` (`GPUColorWrite` bits: 1 red, 2 green, 4 blue, 8 alpha; D3D's are the same).
    pub write_mask: u32,
}

/// `GPUBlendState`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BlendState {
    /// `color`.
    pub color: BlendComponent,
    /// `alpha`.
    pub alpha: BlendComponent,
}

/// `GPUBlendComponent`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BlendComponent {
    /// `operation`.
    pub operation: String,
    /// `srcFactor`.
    pub src_factor: String,
    /// `dstFactor`.
    pub dst_factor: String,
}

/// One pass of one permutation: the pipelines it creates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Variant {
    /// Index into [`EffectArtifact::permutations`].
    pub permutation: usize,
    /// The pipelines, in the order the pass runs them: a render or compute pass has one; a pass
    /// with a geometry shader has its compute pipelines (`assembly`, run first for indexed strip
    /// draws only; `vertex`; `geometry`; with stream output `so-count`, `so-scan`, `so-write`),
    /// then its `draw` (absent when the rasterized stream is not drawn).
    pub pipelines: Vec<PipelineDesc>,
    /// The WebGPU limits the pipelines need above WebGPU's defaults (`GPUSupportedLimits` names:
    /// `maxBindGroups`, `maxComputeWorkgroupStorageSize`...): pass them as `requiredLimits`.
    pub required_limits: BTreeMap<String, u64>,
    /// The optional WebGPU features the shaders and states need.
    pub required_features: Vec<String>,
    /// For a pass with a geometry shader: the primitive stage's description (the runtime's
    /// `StageDesc`, `docs/geometry.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primitive_stage: Option<PrimitiveStage>,
    /// For a pass with stream output: the resolved declaration (`dxbc_wgsl::geometry::
    /// SoDeclaration` as JSON: its entries per output slot, `docs/stream-output.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_output: Option<serde_json::Value>,
}

/// One pipeline of a variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PipelineDesc {
    /// What it is: `render`, `compute`, or a primitive-stage role (`vertex`, `geometry`,
    /// `assembly`, `so-count`, `so-scan`, `so-write`, `draw`).
    pub role: String,
    /// `"render"` or `"compute"`.
    pub kind: String,
    /// The layout: a bind group layout id per `@group` index (id 0, the empty layout, for a group
    /// the pipeline does not use).
    pub bind_group_layouts: Vec<usize>,
    /// A compute pipeline's stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute: Option<ProgrammableStage>,
    /// A render pipeline's vertex stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vertex: Option<ProgrammableStage>,
    /// A render pipeline's fragment stage (absent: no pixel shader).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fragment: Option<ProgrammableStage>,
    /// A render pipeline's vertex buffers, by slot: vertex buffer layout ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vertex_buffers: Vec<usize>,
    /// A render pipeline's primitive state: the pass's, or the primitive stage's draw topology.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primitive: Option<PrimitiveState>,
}

/// `GPUProgrammableStage`: a shader, its entry point and the values of its constants.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProgrammableStage {
    /// Index into [`EffectArtifact::shaders`].
    pub shader: usize,
    /// `entryPoint`.
    pub entry_point: String,
    /// `constants` for a single-sampled pipeline; a pipeline of another sample count sets each
    /// constant whose [`PipelineConstant::meaning`] is `sample-count` to its count.
    pub constants: BTreeMap<String, f64>,
}

/// The primitive stage of a pass with a geometry shader (`docs/geometry.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PrimitiveStage {
    /// `dcl_inputprimitive` (`point`, `line`, `triangle`, `lineadj`, `triangleadj`).
    pub input_primitive: String,
    /// Registers per vertex record.
    pub input_registers: u32,
    /// Registers per output vertex.
    pub output_registers: u32,
    /// `dcl_maxout`.
    pub max_vertices: u32,
    /// `dcl_gsinstances`.
    pub gs_instances: u32,
    /// Output index words per invocation.
    pub index_stride: u32,
    /// `dcl_outputtopology` (`point-list`, `line-strip`, `triangle-strip`; absent: nothing drawn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_topology: Option<String>,
    /// The vertex buffer slots the vertex shader pulls, ascending, and their strides.
    pub vertex_slots: Vec<u32>,
    /// Byte stride per slot of `vertexSlots`.
    pub vertex_strides: Vec<u32>,
    /// Invocations per workgroup of the runtime's dispatches.
    pub workgroup_size: u32,
}

/// The artifact of a compiled effect: [`PipelinePlan::new`]'s plan printed as WebGPU values.
pub fn artifact(c: &CompiledEffect) -> EffectArtifact {
    Printer::new(c).run()
}

/// The artifact as JSON text: pretty-printed, keys in a fixed order, a final newline, the same
/// bytes for the same effect.
pub fn to_json(a: &EffectArtifact) -> String {
    let mut s = serde_json::to_string_pretty(a).expect("the artifact's types serialize");
    s.push('\n');
    s
}

/// Why a JSON document is not an artifact this version reads.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Not JSON, or not the artifact's shape.
    #[error("not a dxbc-wgsl effect artifact: {0}")]
    Json(#[from] serde_json::Error),
    /// Another format or major version.
    #[error("artifact schema `{found}`, this version reads `{SCHEMA}`")]
    Schema {
        /// The document's `schema`.
        found: String,
    },
}

/// Reads an artifact written by [`to_json`].
pub fn from_json(text: &str) -> Result<EffectArtifact, ReadError> {
    let a: EffectArtifact = serde_json::from_str(text)?;
    if a.schema != SCHEMA {
        return Err(ReadError::Schema { found: a.schema });
    }
    Ok(a)
}

/// WebGPU's default limits the artifact compares against (WebGPU spec, "Limits").
const DEFAULT_LIMITS: &[(&str, u64)] = &[
    ("maxBindGroups", 4),
    ("maxBindingsPerBindGroup", 1000),
    ("maxSampledTexturesPerShaderStage", 16),
    ("maxSamplersPerShaderStage", 16),
    ("maxStorageBuffersPerShaderStage", 8),
    ("maxStorageTexturesPerShaderStage", 4),
    ("maxUniformBuffersPerShaderStage", 12),
    ("maxUniformBufferBindingSize", 65536),
    ("maxVertexBuffers", 8),
    ("maxVertexAttributes", 16),
    ("maxVertexBufferArrayStride", 2048),
    ("maxInterStageShaderVariables", 16),
    ("maxColorAttachments", 8),
    ("maxComputeWorkgroupStorageSize", 16384),
    ("maxComputeInvocationsPerWorkgroup", 256),
    ("maxComputeWorkgroupSizeX", 256),
    ("maxComputeWorkgroupSizeY", 256),
    ("maxComputeWorkgroupSizeZ", 64),
];

struct Printer<'a> {
    c: &'a CompiledEffect,
    plan: PipelinePlan,
    shaders: Vec<Shader>,
    layouts: Vec<BindGroupLayout>,
    vertex_layouts: Vec<VertexBufferLayout>,
    /// Translated shader index → artifact shader id.
    shader_ids: Vec<usize>,
}

impl<'a> Printer<'a> {
    fn new(c: &'a CompiledEffect) -> Self {
        let plan = PipelinePlan::new(c);
        let mut p = Printer {
            c,
            plan,
            shaders: Vec::new(),
            layouts: Vec::new(),
            vertex_layouts: Vec::new(),
            shader_ids: Vec::new(),
        };
        p.layout("empty group".into(), Vec::new());
        for s in &c.shaders {
            let id = p.shaders.len();
            p.shaders.push(shader(id, s));
            p.shader_ids.push(id);
        }
        p
    }

    fn run(mut self) -> EffectArtifact {
        let c = self.c;
        let e = &c.effect;
        let axes =
            e.axes.iter().map(|a| Axis { name: a.name.clone(), values: a.value_names(), default: a.default }).collect();
        let permutations = c
            .permutations
            .iter()
            .map(|p| Permutation {
                values: e.axes.iter().zip(p).map(|(a, &v)| (a.name.clone(), a.value_names()[v].clone())).collect(),
            })
            .collect();
        let cbuffers = e
            .layouts
            .iter()
            .map(|l| CbufferLayout {
                name: l.name.clone(),
                size: l.size(),
                fields: l.fields.iter().map(field).collect(),
            })
            .collect();
        let resources = c
            .resources
            .iter()
            .map(|r| Resource {
                name: r.name.clone(),
                kind: match r.kind {
                    FieldKind::UniformBuffer => "uniform-buffer",
                    FieldKind::StorageBuffer => "storage-buffer",
                    FieldKind::CounterBuffer => "counter-buffer",
                    FieldKind::TextureView => "texture-view",
                    FieldKind::Sampler => "sampler",
                }
                .into(),
                cbuffer: r.cbuffer.map(|cb| e.cbuffers[cb].layout),
                doc: r.doc.clone(),
            })
            .collect();
        let mut passes = Vec::new();
        for (pi, pass) in e.passes.iter().enumerate() {
            let variants = (0..self.plan.variants[pi].len()).map(|vi| self.variant(pi, vi)).collect();
            passes.push(Pass {
                name: pass.name.clone(),
                kind: match pass.kind() {
                    PassKind::Render => PassKindName::Render,
                    PassKind::Compute => PassKindName::Compute,
                    PassKind::Geometry => PassKindName::Geometry,
                },
                states: (!pass.is_compute()).then(|| render_states(&pass.states)),
                variants,
            });
        }
        EffectArtifact {
            schema: SCHEMA.into(),
            name: e.name.clone(),
            module: e.module.clone(),
            description: e.description.clone(),
            axes,
            permutations,
            shaders: self.shaders,
            bind_group_layouts: self.layouts,
            vertex_buffer_layouts: self.vertex_layouts,
            cbuffers,
            resources,
            passes,
        }
    }

    /// The id of an identical layout, or of the new one.
    fn layout(&mut self, label: String, entries: Vec<BindGroupLayoutEntry>) -> usize {
        if let Some(l) = self.layouts.iter().find(|l| l.entries == entries) {
            return l.id;
        }
        let id = self.layouts.len();
        self.layouts.push(BindGroupLayout { id, label, entries });
        id
    }

    fn plan_layout(&mut self, label: &str, entries: &[GroupEntry], visibility: u32) -> usize {
        let entries = entries.iter().map(|g| self.entry(g, visibility)).collect();
        self.layout(label.into(), entries)
    }

    fn entry(&self, g: &GroupEntry, visibility: u32) -> BindGroupLayoutEntry {
        let b = &g.binding;
        let mut e = BindGroupLayoutEntry {
            binding: b.binding,
            visibility,
            buffer: None,
            sampler: None,
            texture: None,
            storage_texture: None,
            resource: self.plan.field(g.field).name.clone(),
            register: Some(b.register.to_string()),
            d3d_view_dimension: None,
            counter: false,
        };
        let d3d_dimension = |d: &ViewDimension| match d {
            ViewDimension::D1AsD2 => Some("1d".to_string()),
            ViewDimension::D1ArrayAsD2Array => Some("1d-array".to_string()),
            _ => None,
        };
        match &b.kind {
            ResourceKind::UniformBuffer { size_bytes } => {
                e.buffer = Some(buffer("uniform", u64::from(*size_bytes)));
            }
            ResourceKind::StorageBuffer { read_only } => {
                e.buffer = Some(buffer(if *read_only { "read-only-storage" } else { "storage" }, 0));
            }
            ResourceKind::UavCounter => {
                e.buffer = Some(buffer("storage", 4));
                e.counter = true;
            }
            ResourceKind::Sampler { comparison } => {
                e.sampler =
                    Some(SamplerBindingLayout { ty: if *comparison { "comparison" } else { "filtering" }.into() });
            }
            ResourceKind::Texture { dimension, sample, multisampled } => {
                e.texture = Some(TextureBindingLayout {
                    sample_type: match sample {
                        TextureSample::Float => "float",
                        TextureSample::UnfilterableFloat => "unfilterable-float",
                        TextureSample::Sint => "sint",
                        TextureSample::Uint => "uint",
                        TextureSample::Depth => "depth",
                    }
                    .into(),
                    view_dimension: view_dimension(dimension).into(),
                    multisampled: *multisampled,
                });
                e.d3d_view_dimension = d3d_dimension(dimension);
            }
            ResourceKind::StorageTexture { dimension, format, read_write } => {
                e.storage_texture = Some(StorageTextureBindingLayout {
                    access: if *read_write { "read-write" } else { "write-only" }.into(),
                    format: format.wgsl_name().into(),
                    view_dimension: view_dimension(dimension).into(),
                });
                e.d3d_view_dimension = d3d_dimension(dimension);
            }
        }
        e
    }

    fn vertex_layout(&mut self, l: &VertexLayout, step_mode: &str) -> usize {
        let layout = VertexBufferLayout {
            id: self.vertex_layouts.len(),
            name: l.struct_name.clone(),
            array_stride: l.stride,
            step_mode: step_mode.into(),
            attributes: l
                .attributes
                .iter()
                .map(|a| VertexAttribute {
                    format: a.format.webgpu.into(),
                    offset: a.offset,
                    shader_location: a.location,
                    semantic: a.semantic.clone(),
                    instance_step_rate: a.instance_step_rate,
                })
                .collect(),
        };
        self.intern_vertex_layout(layout)
    }

    fn intern_vertex_layout(&mut self, mut layout: VertexBufferLayout) -> usize {
        if let Some(l) = self.vertex_layouts.iter().find(|l| {
            l.name == layout.name && l.array_stride == layout.array_stride && l.attributes == layout.attributes
        }) {
            return l.id;
        }
        layout.id = self.vertex_layouts.len();
        self.vertex_layouts.push(layout);
        self.vertex_layouts.len() - 1
    }

    /// The id of a runtime kernel's module, added once.
    fn kernel(&mut self, label: &str, code: &str, entry_point: &str) -> usize {
        if let Some(s) = self.shaders.iter().find(|s| s.code == code) {
            return s.id;
        }
        let id = self.shaders.len();
        self.shaders.push(Shader {
            id,
            labels: vec![format!("runtime:{label}")],
            d3d_stage: "runtime".into(),
            shader_model: None,
            stage: ShaderStage::Compute,
            entry_point: entry_point.into(),
            code: code.into(),
            required_features: Vec::new(),
            workgroup_size: Some([dxbc_wgsl::geometry::WORKGROUP_SIZE, 1, 1]),
            workgroup_storage_bytes: 0,
            pipeline_constants: Vec::new(),
            color_outputs: Vec::new(),
            writes_depth: false,
        });
        id
    }

    fn stage(&self, shader: usize) -> ProgrammableStage {
        let id = self.shader_ids[shader];
        let s = &self.shaders[id];
        ProgrammableStage {
            shader: id,
            entry_point: s.entry_point.clone(),
            constants: s
                .pipeline_constants
                .iter()
                .map(|k| (k.name.clone(), dxbc_wgsl::PipelineConstant::RasterizerSampleCount.value(1)))
                .collect(),
        }
    }

    fn variant(&mut self, pi: usize, vi: usize) -> Variant {
        let c = self.c;
        let pass = &c.effect.passes[pi];
        let v = self.plan.variants[pi][vi];
        let mut pipelines = Vec::new();
        let mut primitive_stage = None;
        let mut stream_output = None;
        let mut features: Vec<String> = Vec::new();
        let mut stages: Vec<usize> = Vec::new();
        match v {
            VariantPlan::Render(r) => {
                let [g0, g1] = self.plan.entries(&r).map(|e| e.to_vec());
                let vertex_group = self.plan_layout("vertex shader resources", &g0, VERTEX);
                let pixel_group = self.plan_layout("pixel shader resources", &g1, FRAGMENT);
                let mut groups = vec![(VERTEX_GROUP, vertex_group), (PIXEL_GROUP, pixel_group)];
                if r.select {
                    groups.push((SELECT_GROUP, self.select_layout()));
                }
                let groups = group_list(&groups);
                let vertex_buffers = match r.vertex_layout {
                    Some(l) => {
                        let l = self.plan.vertex_layouts[l].clone();
                        vec![self.vertex_layout(&l, "vertex")]
                    }
                    None => Vec::new(),
                };
                stages.push(r.vertex);
                stages.extend(r.pixel);
                pipelines.push(PipelineDesc {
                    role: "render".into(),
                    kind: "render".into(),
                    bind_group_layouts: groups,
                    compute: None,
                    vertex: Some(self.stage(r.vertex)),
                    fragment: r.pixel.map(|p| self.stage(p)),
                    vertex_buffers,
                    primitive: Some(primitive(&pass.states, None)),
                });
            }
            VariantPlan::Compute(k) => {
                let g = self.plan.compute_entries(&k).to_vec();
                let group = self.plan_layout("compute shader resources", &g, COMPUTE);
                stages.push(k.compute);
                pipelines.push(PipelineDesc {
                    role: "compute".into(),
                    kind: "compute".into(),
                    bind_group_layouts: group_list(&[(VERTEX_GROUP, group)]),
                    compute: Some(self.stage(k.compute)),
                    vertex: None,
                    fragment: None,
                    vertex_buffers: Vec::new(),
                    primitive: None,
                });
            }
            VariantPlan::Geometry(g) => {
                use dxbc_wgsl::geometry as geo;
                let [e0, e1, e2] = self.plan.geometry_entries(&g).map(|e| e.to_vec());
                let vertex_group = self.plan_layout("vertex shader resources (primitive stage)", &e0, COMPUTE);
                let pixel_group = self.plan_layout("pixel shader resources", &e1, FRAGMENT);
                let geometry_group = self.plan_layout("geometry shader resources", &e2, COMPUTE);
                let desc = self.plan.stage_descs[g.stage].clone();
                let uniform = |b: u32, what: &str| system_entry(b, "uniform", geo::DRAW_PARAMS_SIZE, what);
                let storage = |b: u32, read_only: bool, what: &str| {
                    system_entry(b, if read_only { "read-only-storage" } else { "storage" }, 0, what)
                };
                let mut slots = desc.vertex_slots.clone();
                slots.sort_unstable();
                slots.dedup();
                let mut vertex_system = vec![
                    uniform(geo::DRAW_PARAMS, "draw-params"),
                    storage(geo::VERTEX_RECORDS, false, "vertex-records"),
                    storage(geo::INDEX_BUFFER, true, "index-buffer"),
                ];
                for s in &slots {
                    vertex_system.push(storage(geo::VERTEX_BUFFER_BASE + s, true, &format!("vertex-buffer-{s}")));
                }
                let vertex_system = self.layout("primitive stage: vertex system group".into(), vertex_system);
                let geometry_system = self.layout(
                    "primitive stage: geometry system group".into(),
                    vec![
                        uniform(geo::DRAW_PARAMS, "draw-params"),
                        storage(geo::VERTEX_RECORDS, true, "vertex-records"),
                        storage(geo::OUTPUT_VERTICES, false, "output-vertices"),
                        storage(geo::OUTPUT_INDICES, false, "output-indices"),
                        storage(geo::ASSEMBLY_TABLE, true, "assembly-table"),
                    ],
                );
                let assembly_system = self.layout(
                    "primitive stage: assembly system group".into(),
                    vec![
                        uniform(geo::DRAW_PARAMS, "draw-params"),
                        storage(geo::INDEX_BUFFER, true, "index-buffer"),
                        storage(geo::ASSEMBLY_TABLE, false, "assembly-table"),
                    ],
                );
                let assembly = self.kernel("assembly", geo::ASSEMBLY_WGSL, "main");
                let compute = |role: &str, groups: Vec<usize>, stage: ProgrammableStage| PipelineDesc {
                    role: role.into(),
                    kind: "compute".into(),
                    bind_group_layouts: groups,
                    compute: Some(stage),
                    vertex: None,
                    fragment: None,
                    vertex_buffers: Vec::new(),
                    primitive: None,
                };
                let kernel_stage = |id: usize, entry: &str| ProgrammableStage {
                    shader: id,
                    entry_point: entry.into(),
                    constants: BTreeMap::new(),
                };
                pipelines.push(compute(
                    "assembly",
                    group_list(&[(SYSTEM_GROUP, assembly_system)]),
                    kernel_stage(assembly, "main"),
                ));
                pipelines.push(compute(
                    "vertex",
                    group_list(&[(VERTEX_GROUP, vertex_group), (SYSTEM_GROUP, vertex_system)]),
                    self.stage(g.vertex),
                ));
                pipelines.push(compute(
                    "geometry",
                    group_list(&[(GEOMETRY_GROUP, geometry_group), (SYSTEM_GROUP, geometry_system)]),
                    self.stage(g.geometry),
                ));
                stages.extend([g.vertex, g.geometry]);
                if let Some(so) = g.stream_output {
                    let kernels = self.kernel("stream output", so::STREAM_OUTPUT_WGSL, so::ENTRY_COUNT);
                    let so_group = self.layout("stream output".into(), stream_output_entries());
                    for role in so::ENTRY_POINTS {
                        pipelines.push(compute(
                            &role.replace('_', "-"),
                            group_list(&[(so::SO_GROUP, so_group)]),
                            kernel_stage(kernels, role),
                        ));
                    }
                    stream_output = serde_json::to_value(&c.stream_outputs[so]).ok();
                }
                let drawn = desc.streams.as_ref().is_none_or(|s| s.drawn);
                if let (Some(output), true) = (desc.output, drawn) {
                    let attributes = (0..desc.output_registers)
                        .map(|r| VertexAttribute {
                            format: "uint32x4".into(),
                            offset: r * 16,
                            shader_location: r,
                            semantic: format!("register {r}"),
                            instance_step_rate: None,
                        })
                        .collect();
                    let layout = self.intern_vertex_layout(VertexBufferLayout {
                        id: 0,
                        name: format!("GeometryOutput{}", desc.output_registers),
                        array_stride: desc.output_registers * 16,
                        step_mode: "vertex".into(),
                        attributes,
                    });
                    let mut groups = vec![(PIXEL_GROUP, pixel_group)];
                    if g.select {
                        groups.push((SELECT_GROUP, self.select_layout()));
                    }
                    let groups = group_list(&groups);
                    let (topology, strip) = match output {
                        OutputTopology::PointList => ("point-list", None),
                        OutputTopology::LineStrip => ("line-strip", Some("uint32")),
                        OutputTopology::TriangleStrip => ("triangle-strip", Some("uint32")),
                    };
                    stages.push(g.draw_vertex);
                    stages.extend(g.pixel);
                    pipelines.push(PipelineDesc {
                        role: "draw".into(),
                        kind: "render".into(),
                        bind_group_layouts: groups,
                        compute: None,
                        vertex: Some(self.stage(g.draw_vertex)),
                        fragment: g.pixel.map(|p| self.stage(p)),
                        vertex_buffers: vec![layout],
                        primitive: Some(primitive(&pass.states, Some((topology, strip)))),
                    });
                }
                primitive_stage = Some(PrimitiveStage {
                    input_primitive: crate::effect::states::input_primitive_name(desc.input_primitive),
                    input_registers: desc.input_registers,
                    output_registers: desc.output_registers,
                    max_vertices: desc.max_vertices,
                    gs_instances: desc.gs_instances,
                    index_stride: desc.index_stride,
                    output_topology: desc.output.map(|o| {
                        match o {
                            OutputTopology::PointList => "point-list",
                            OutputTopology::LineStrip => "line-strip",
                            OutputTopology::TriangleStrip => "triangle-strip",
                        }
                        .into()
                    }),
                    vertex_slots: desc.vertex_slots.clone(),
                    vertex_strides: desc.vertex_strides.clone(),
                    workgroup_size: geo::WORKGROUP_SIZE,
                });
            }
        }
        for &s in &stages {
            for f in &self.shaders[self.shader_ids[s]].required_features {
                if !features.contains(f) {
                    features.push(f.clone());
                }
            }
        }
        if !pass.is_compute() && !pass.states.rasterizer.depth_clip_enable {
            features.push("depth-clip-control".into());
        }
        features.sort();
        features.dedup();
        let required_limits = self.limits(&pipelines, &stages);
        Variant {
            permutation: vi,
            pipelines,
            required_limits,
            required_features: features,
            primitive_stage,
            stream_output,
        }
    }

    fn select_layout(&mut self) -> usize {
        let mut e = system_entry(SELECT_BINDING, "uniform", SELECT_PARAMS_SIZE, "select");
        e.visibility = FRAGMENT;
        if let Some(b) = &mut e.buffer {
            b.has_dynamic_offset = true;
        }
        self.layout("per-primitive selection".into(), vec![e])
    }

    /// The limits above WebGPU's defaults that the pipelines need.
    fn limits(&self, pipelines: &[PipelineDesc], stages: &[usize]) -> BTreeMap<String, u64> {
        let mut need: BTreeMap<&str, u64> = BTreeMap::new();
        let mut raise = |k: &'static str, v: u64| {
            let e = need.entry(k).or_insert(0);
            *e = (*e).max(v);
        };
        for p in pipelines {
            raise("maxBindGroups", p.bind_group_layouts.len() as u64);
            let mut per_stage: BTreeMap<(u32, &'static str), u64> = BTreeMap::new();
            for &l in &p.bind_group_layouts {
                for e in &self.layouts[l].entries {
                    raise("maxBindingsPerBindGroup", u64::from(e.binding) + 1);
                    let key = if let Some(b) = &e.buffer {
                        if b.ty == "uniform" {
                            raise("maxUniformBufferBindingSize", b.min_binding_size);
                            "maxUniformBuffersPerShaderStage"
                        } else {
                            "maxStorageBuffersPerShaderStage"
                        }
                    } else if e.sampler.is_some() {
                        "maxSamplersPerShaderStage"
                    } else if e.texture.is_some() {
                        "maxSampledTexturesPerShaderStage"
                    } else {
                        "maxStorageTexturesPerShaderStage"
                    };
                    for stage in [VERTEX, FRAGMENT, COMPUTE] {
                        if e.visibility & stage != 0 {
                            *per_stage.entry((stage, key)).or_insert(0) += 1;
                        }
                    }
                }
            }
            for ((_, k), n) in per_stage {
                raise(k, n);
            }
            for &b in &p.vertex_buffers {
                let l = &self.vertex_layouts[b];
                raise("maxVertexBufferArrayStride", u64::from(l.array_stride));
                raise("maxVertexAttributes", l.attributes.len() as u64);
            }
            raise("maxVertexBuffers", p.vertex_buffers.len() as u64);
        }
        for &s in stages {
            let sh = &self.shaders[self.shader_ids[s]];
            if let Some([x, y, z]) = sh.workgroup_size {
                raise("maxComputeWorkgroupSizeX", u64::from(x));
                raise("maxComputeWorkgroupSizeY", u64::from(y));
                raise("maxComputeWorkgroupSizeZ", u64::from(z));
                raise("maxComputeInvocationsPerWorkgroup", u64::from(x) * u64::from(y) * u64::from(z));
            }
            raise("maxComputeWorkgroupStorageSize", u64::from(sh.workgroup_storage_bytes));
        }
        need.into_iter()
            .filter(|(k, v)| DEFAULT_LIMITS.iter().any(|(d, dv)| d == k && v > dv))
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }
}

fn shader(id: usize, s: &CompiledShader) -> Shader {
    let i = &s.info;
    let stage = if i.workgroup_size.is_some() || i.stage == Stage::Compute || i.stage == Stage::Geometry {
        ShaderStage::Compute
    } else if i.stage == Stage::Pixel {
        ShaderStage::Fragment
    } else {
        ShaderStage::Vertex
    };
    let prefix = match i.stage {
        Stage::Vertex => "vs",
        Stage::Pixel => "ps",
        Stage::Geometry => "gs",
        Stage::Compute => "cs",
    };
    Shader {
        id,
        labels: s.labels.clone(),
        d3d_stage: i.stage.name().into(),
        shader_model: Some(format!("{prefix}_{}_{}", i.shader_model.0, i.shader_model.1)),
        stage,
        entry_point: i.entry_point.clone(),
        code: i.wgsl.clone(),
        required_features: i.required_features.iter().map(|f| f.webgpu_name().to_string()).collect(),
        workgroup_size: i.workgroup_size,
        workgroup_storage_bytes: i.workgroup_storage_bytes,
        pipeline_constants: i
            .pipeline_constants
            .iter()
            .map(|k| PipelineConstant {
                name: k.name().into(),
                meaning: match k {
                    dxbc_wgsl::PipelineConstant::RasterizerSampleCount => "sample-count".into(),
                },
            })
            .collect(),
        color_outputs: if stage == ShaderStage::Fragment {
            i.outputs
                .iter()
                .filter_map(|o| {
                    o.location.map(|location| ColorOutput {
                        location,
                        scalar: o.scalar.wgsl_name().into(),
                        components: o.components,
                    })
                })
                .collect()
        } else {
            Vec::new()
        },
        writes_depth: stage == ShaderStage::Fragment
            && i.outputs.iter().any(|o| o.builtin == Some(dxbc_wgsl::Builtin::FragDepth)),
    }
}

fn buffer(ty: &str, min_binding_size: u64) -> BufferBindingLayout {
    BufferBindingLayout { ty: ty.into(), has_dynamic_offset: false, min_binding_size }
}

fn system_entry(binding: u32, ty: &str, min: u64, what: &str) -> BindGroupLayoutEntry {
    BindGroupLayoutEntry {
        binding,
        visibility: COMPUTE,
        buffer: Some(buffer(ty, min)),
        sampler: None,
        texture: None,
        storage_texture: None,
        resource: format!("system:{what}"),
        register: None,
        d3d_view_dimension: None,
        counter: false,
    }
}

fn view_dimension(d: &ViewDimension) -> &'static str {
    match d {
        ViewDimension::D1 => "1d",
        ViewDimension::D2 | ViewDimension::D1AsD2 => "2d",
        ViewDimension::D2Array | ViewDimension::D1ArrayAsD2Array => "2d-array",
        ViewDimension::Cube => "cube",
        ViewDimension::CubeArray => "cube-array",
        ViewDimension::D3 => "3d",
    }
}

fn field(f: &PlacedField) -> CbufferField {
    let mut out = CbufferField {
        name: f.name.clone(),
        ty: f.ty.declaration(),
        offset: f.offset,
        size: f.ty.size(),
        scalar: None,
        rows: None,
        columns: None,
        packing: None,
        array_length: f.ty.array(),
        array_stride: f.ty.array().map(|_| f.ty.element_stride()),
        members: None,
    };
    match &f.ty {
        VarType::Numeric(HlslType { scalar, shape, .. }) => {
            out.scalar = Some(
                match scalar {
                    Scalar::Float => "f32",
                    Scalar::Int => "i32",
                    Scalar::Uint => "u32",
                    Scalar::Bool => "bool",
                }
                .into(),
            );
            match shape {
                Shape::Vector(n) => {
                    out.rows = Some(1);
                    out.columns = Some(*n);
                }
                Shape::Matrix { rows, cols, packing } => {
                    out.rows = Some(*rows);
                    out.columns = Some(*cols);
                    out.packing = Some(
                        match packing {
                            MatrixPacking::ColumnMajor => "column_major",
                            MatrixPacking::RowMajor => "row_major",
                        }
                        .into(),
                    );
                }
            }
        }
        VarType::Struct(s) => out.members = Some(s.members.iter().map(field).collect()),
    }
    out
}

fn primitive(s: &PassStates, draw: Option<(&str, Option<&str>)>) -> PrimitiveState {
    let r = &s.rasterizer;
    let (topology, strip_index_format) = match draw {
        Some((t, strip)) => (t.to_string(), strip.map(String::from)),
        None => (s.topology.webgpu().to_string(), None),
    };
    PrimitiveState {
        topology,
        strip_index_format,
        front_face: if r.front_counter_clockwise { "ccw" } else { "cw" }.into(),
        cull_mode: r.cull_mode.webgpu().into(),
        unclipped_depth: !r.depth_clip_enable,
    }
}

fn stencil_face(f: &StencilFace, enabled: bool) -> StencilFaceState {
    if !enabled {
        return StencilFaceState {
            compare: "always".into(),
            fail_op: "keep".into(),
            depth_fail_op: "keep".into(),
            pass_op: "keep".into(),
        };
    }
    StencilFaceState {
        compare: f.func.webgpu().into(),
        fail_op: f.fail.webgpu().into(),
        depth_fail_op: f.depth_fail.webgpu().into(),
        pass_op: f.pass.webgpu().into(),
    }
}

fn target(t: &RenderTargetBlend) -> ColorTargetState {
    ColorTargetState {
        blend: t.components().map(|[color, alpha]| {
            let c = |(src, dst, op): (
                crate::effect::states::Blend,
                crate::effect::states::Blend,
                crate::effect::states::BlendOp,
            )| BlendComponent {
                operation: op.webgpu().into(),
                src_factor: src.webgpu().into(),
                dst_factor: dst.webgpu().into(),
            };
            BlendState { color: c(color), alpha: c(alpha) }
        }),
        write_mask: u32::from(t.write_mask & 0xF),
    }
}

fn render_states(s: &PassStates) -> RenderStates {
    let d = &s.depth_stencil;
    let r = &s.rasterizer;
    RenderStates {
        primitive: primitive(s, None),
        depth_stencil: DepthStencilState {
            depth_write_enabled: d.wgpu_depth_write(),
            depth_compare: d.depth_compare().webgpu().into(),
            stencil_front: stencil_face(&d.front_face, d.stencil_enable),
            stencil_back: stencil_face(&d.back_face, d.stencil_enable),
            stencil_read_mask: if d.stencil_enable { u32::from(d.stencil_read_mask) } else { 0 },
            stencil_write_mask: if d.stencil_enable { u32::from(d.stencil_write_mask) } else { 0 },
            depth_bias: r.depth_bias,
            depth_bias_slope_scale: r.slope_scaled_depth_bias,
            depth_bias_clamp: r.depth_bias_clamp,
        },
        targets: (0..8).map(|i| target(s.blend.target(i))).collect(),
        alpha_to_coverage: s.blend.alpha_to_coverage,
        scissor_enable: r.scissor_enable,
        uses_blend_constant: (0..8).any(|i| s.blend.target(i).uses_constant()),
        uses_stencil_reference: d.uses_reference(),
        required_features: if r.depth_clip_enable { Vec::new() } else { vec!["depth-clip-control".into()] },
    }
}

/// A pipeline's `bindGroupLayouts`: layout `id` at each `(group, id)` given, the empty layout
/// (id 0) at the groups before the last one given.
fn group_list(at: &[(u32, usize)]) -> Vec<usize> {
    let len = at.iter().map(|&(g, _)| g as usize + 1).max().unwrap_or(0);
    let mut groups = vec![0; len];
    for &(g, id) in at {
        groups[g as usize] = id;
    }
    groups
}

/// The stream-output kernels' bind group ([`so::SO_GROUP`]), entry per binding of
/// [`so::STREAM_OUTPUT_WGSL`].
fn stream_output_entries() -> Vec<BindGroupLayoutEntry> {
    let mut entries = vec![
        system_entry(so::SO_PARAMS, "uniform", 0, "so-params"),
        system_entry(so::SO_ENTRIES, "uniform", 0, "so-entries"),
        system_entry(so::SO_OUTPUT_VERTICES, "read-only-storage", 0, "output-vertices"),
        system_entry(so::SO_OUTPUT_INDICES, "read-only-storage", 0, "output-indices"),
        system_entry(so::SO_SCRATCH, "storage", 0, "so-scratch"),
        system_entry(so::SO_STATE, "storage", 0, "so-state"),
    ];
    entries.extend(
        (0..so::SO_SLOTS).map(|s| system_entry(so::SO_TARGET_BASE + s, "storage", 0, &format!("so-target-{s}"))),
    );
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The WGSL variable the kernels declare at `@binding(binding)`.
    fn kernel_variable(binding: u32) -> Option<String> {
        let tag = format!("@binding({binding}) var");
        let line = so::STREAM_OUTPUT_WGSL.lines().find(|l| l.contains(&tag))?;
        let name = line.split("> ").nth(1)?.split(':').next()?;
        Some(name.trim().to_string())
    }

    /// Every entry of the stream-output group is labelled with the variable the kernels declare
    /// at its binding, and has its access (binding 4 is the scratch, 5 the state).
    #[test]
    fn stream_output_labels_name_the_kernels_bindings() {
        let expected = |label: &str| match label {
            "system:so-params" => "so".to_string(),
            "system:so-entries" => "so_entries".to_string(),
            "system:output-vertices" => "so_vertices".to_string(),
            "system:output-indices" => "so_indices".to_string(),
            "system:so-scratch" => "so_scratch".to_string(),
            "system:so-state" => "so_state".to_string(),
            other => format!("so_buf{}", other.strip_prefix("system:so-target-").expect(other)),
        };
        let entries = stream_output_entries();
        assert_eq!(entries.len(), 10);
        for e in &entries {
            assert_eq!(kernel_variable(e.binding), Some(expected(&e.resource)), "binding {}", e.binding);
            let read_only = e.buffer.as_ref().map(|b| b.ty.as_str()) != Some("storage");
            let declared_read_only = so::STREAM_OUTPUT_WGSL
                .lines()
                .find(|l| l.contains(&format!("@binding({}) var", e.binding)))
                .is_some_and(|l| !l.contains("read_write"));
            assert_eq!(read_only, declared_read_only, "{} access", e.resource);
        }
    }
}

/// The artifact's schema, generated from the types above (feature `schema`): the JSON Schema
/// (draft 2020-12) and a TypeScript declaration file printed from it, so both describe the
/// same definition. `docs/web-artifact.schema.json` and `docs/web-artifact.d.ts` are their
/// output (`dxbc-wgsl schema --out docs`).
#[cfg(feature = "schema")]
pub mod schema {
    use serde_json::Value;

    /// The JSON Schema of [`super::EffectArtifact`], pretty-printed with a final newline.
    pub fn json_schema() -> String {
        let mut v = schema_value();
        if let Some(o) = v.as_object_mut() {
            o.insert("$id".into(), Value::String(format!("https://dxbc-wgsl.invalid/{}.schema.json", super::SCHEMA)));
        }
        let mut s = serde_json::to_string_pretty(&v).expect("a schema serializes");
        s.push('\n');
        s
    }

    fn schema_value() -> Value {
        serde_json::to_value(schemars::schema_for!(super::EffectArtifact)).expect("a schema serializes")
    }

    /// TypeScript declarations of the artifact (`EffectArtifact` and every type it uses), printed
    /// from [`json_schema`]'s definitions.
    pub fn typescript() -> String {
        let root = schema_value();
        let mut out = String::new();
        out.push_str(&format!(
            "// The dxbc-wgsl web artifact, schema `{}`: generated from the same definition as\n\
             // web-artifact.schema.json by `dxbc-wgsl schema --out docs`. Do not edit.\n\n",
            super::SCHEMA
        ));
        out.push_str(&format!("export const SCHEMA = {:?};\n\n", super::SCHEMA));
        let mut defs: Vec<(String, Value)> = vec![("EffectArtifact".into(), root.clone())];
        if let Some(d) = root.get("$defs").and_then(Value::as_object) {
            defs.extend(d.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        for (name, def) in defs {
            declaration(&mut out, &name, &def);
        }
        out
    }

    fn doc(out: &mut String, indent: &str, v: &Value) {
        if let Some(d) = v.get("description").and_then(Value::as_str) {
            out.push_str(&format!("{indent}/**\n"));
            for line in d.lines() {
                out.push_str(&format!("{indent} * {}\n", line.replace("*/", "* /")).replace(" \n", "\n"));
            }
            out.push_str(&format!("{indent} */\n"));
        }
    }

    fn declaration(out: &mut String, name: &str, v: &Value) {
        doc(out, "", v);
        if let Some(props) = v.get("properties").and_then(Value::as_object) {
            let required: Vec<&str> = v
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            out.push_str(&format!("export interface {name} {{\n"));
            for (key, p) in props {
                doc(out, "  ", p);
                let optional = if required.contains(&key.as_str()) { "" } else { "?" };
                out.push_str(&format!("  {key}{optional}: {};\n", ty(p)));
            }
            out.push_str("}\n\n");
        } else {
            out.push_str(&format!("export type {name} = {};\n\n", ty(v)));
        }
    }

    fn ty(v: &Value) -> String {
        if v == &Value::Bool(true) || v.as_object().is_some_and(|o| o.is_empty()) {
            return "unknown".into();
        }
        if let Some(r) = v.get("$ref").and_then(Value::as_str) {
            return r.rsplit('/').next().unwrap_or(r).to_string();
        }
        if let Some(c) = v.get("const") {
            return c.to_string();
        }
        if let Some(e) = v.get("enum").and_then(Value::as_array) {
            return e.iter().map(Value::to_string).collect::<Vec<_>>().join(" | ");
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(alts) = v.get(key).and_then(Value::as_array) {
                return alts.iter().map(ty).collect::<Vec<_>>().join(" | ");
            }
        }
        match v.get("type") {
            Some(Value::Array(types)) => types
                .iter()
                .map(|t| {
                    let mut one = v.clone();
                    one["type"] = t.clone();
                    ty(&one)
                })
                .collect::<Vec<_>>()
                .join(" | "),
            Some(Value::String(t)) => match t.as_str() {
                "string" => "string".into(),
                "integer" | "number" => "number".into(),
                "boolean" => "boolean".into(),
                "null" => "null".into(),
                "array" => {
                    if let Some(items) = v.get("prefixItems").and_then(Value::as_array) {
                        format!("[{}]", items.iter().map(ty).collect::<Vec<_>>().join(", "))
                    } else {
                        let item = v.get("items").map(ty).unwrap_or_else(|| "unknown".into());
                        let fixed = v.get("minItems").filter(|m| Some(*m) == v.get("maxItems")).and_then(Value::as_u64);
                        match fixed {
                            Some(n) if n <= 4 => format!("[{}]", vec![item; n as usize].join(", ")),
                            _ if item.contains(' ') => format!("({item})[]"),
                            _ => format!("{item}[]"),
                        }
                    }
                }
                "object" => match v.get("additionalProperties") {
                    Some(a) if a.is_object() => format!("Record<string, {}>", ty(a)),
                    _ => "Record<string, unknown>".into(),
                },
                _ => "unknown".into(),
            },
            _ => "unknown".into(),
        }
    }
}
