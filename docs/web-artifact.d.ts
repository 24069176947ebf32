// The dxbc-wgsl web artifact, schema `dxbc-wgsl-effect/1`: generated from the same definition as
// web-artifact.schema.json by `dxbc-wgsl schema --out docs`. Do not edit.

export const SCHEMA = "dxbc-wgsl-effect/1";

/**
 * One effect, everything a WebGPU engine needs to create its pipelines and fill its buffers.
 */
export interface EffectArtifact {
  /**
   * The permutation axes, in declaration order.
   */
  axes: Axis[];
  /**
   * Every distinct bind group layout; index 0 is the empty layout.
   */
  bindGroupLayouts: BindGroupLayout[];
  /**
   * The constant-buffer layouts, as HLSL packs them (byte offsets from the buffer's start).
   */
  cbuffers: CbufferLayout[];
  /**
   * The effect file's description.
   */
  description?: string | null;
  /**
   * The generated Rust module's name (`module`), for cross-reference.
   */
  module: string;
  /**
   * The effect's name (`name` of the effect file).
   */
  name: string;
  /**
   * The passes, in declaration order.
   */
  passes: Pass[];
  /**
   * Every permutation that exists (the effect file's exclusions removed), in the order of the
   * generated `Permutation::ALL`; [`Variant::permutation`] indexes it.
   */
  permutations: Permutation[];
  /**
   * The resources the effect binds (the fields of the generated `Resources` structs): the
   * name a bind group entry ([`BindGroupLayoutEntry::resource`]) refers to.
   */
  resources: Resource[];
  /**
   * Always [`SCHEMA`] (`"dxbc-wgsl-effect/1"`).
   */
  schema: string;
  /**
   * Every distinct WGSL module: the translated shaders, then the runtime's kernels.
   */
  shaders: Shader[];
  /**
   * Every distinct vertex buffer layout.
   */
  vertexBufferLayouts: VertexBufferLayout[];
}

/**
 * A permutation axis.
 */
export interface Axis {
  /**
   * Index of the default value.
   */
  default: number;
  /**
   * Its name (`fog`).
   */
  name: string;
  /**
   * Its values (`["false", "true"]` for a bool axis).
   */
  values: string[];
}

/**
 * A bind group layout (`GPUBindGroupLayoutDescriptor.entries`).
 */
export interface BindGroupLayout {
  /**
   * The entries, by ascending binding number.
   */
  entries: BindGroupLayoutEntry[];
  /**
   * Its index in [`EffectArtifact::bind_group_layouts`].
   */
  id: number;
  /**
   * What it holds (`vertex shader resources`, `primitive stage: geometry system group`).
   */
  label: string;
}

/**
 * One entry: a `GPUBindGroupLayoutEntry` (exactly one of `buffer`, `sampler`, `texture`,
 * `storageTexture` is present) and what to bind to it.
 */
export interface BindGroupLayoutEntry {
  /**
   * `@binding`.
   */
  binding: number;
  /**
   * A buffer binding.
   */
  buffer?: BufferBindingLayout | null;
  /**
   * The buffer is a structured UAV's hidden counter (its first 4 bytes hold the count:
   * write D3D's initial count before the pass, read it where D3D's `CopyStructureCount` would).
   */
  counter?: boolean;
  /**
   * The view D3D declares when WebGPU's differs: `"1d"` or `"1d-array"` for D3D's 1D textures,
   * which are bound as 2D (array) views of height 1 (docs/compatibility.md).
   */
  d3dViewDimension?: string | null;
  /**
   * The D3D register (`b0`, `t3`, `u1, space2`); absent for system buffers.
   */
  register?: string | null;
  /**
   * What is bound here: a name of [`EffectArtifact::resources`], or, for the primitive stage's
   * own buffers, `system:` and the buffer (`system:draw-params`, `system:vertex-records`, ...,
   * `docs/geometry.md`; `system:select` for the per-primitive selection uniform).
   */
  resource: string;
  /**
   * A sampler binding.
   */
  sampler?: SamplerBindingLayout | null;
  /**
   * A storage texture (a typed UAV).
   */
  storageTexture?: StorageTextureBindingLayout | null;
  /**
   * A sampled texture.
   */
  texture?: TextureBindingLayout | null;
  /**
   * `GPUShaderStageFlags`: 1 vertex, 2 fragment, 4 compute.
   */
  visibility: number;
}

/**
 * `GPUBlendComponent`.
 */
export interface BlendComponent {
  /**
   * `dstFactor`.
   */
  dstFactor: string;
  /**
   * `operation`.
   */
  operation: string;
  /**
   * `srcFactor`.
   */
  srcFactor: string;
}

/**
 * `GPUBlendState`.
 */
export interface BlendState {
  /**
   * `alpha`.
   */
  alpha: BlendComponent;
  /**
   * `color`.
   */
  color: BlendComponent;
}

/**
 * `GPUBufferBindingLayout`.
 */
export interface BufferBindingLayout {
  /**
   * `hasDynamicOffset`.
   */
  hasDynamicOffset: boolean;
  /**
   * `minBindingSize` in bytes (0: none).
   */
  minBindingSize: number;
  /**
   * `"uniform"`, `"storage"` or `"read-only-storage"`.
   */
  type: string;
}

/**
 * A constant-buffer variable (or a struct member) as HLSL packs it.
 */
export interface CbufferField {
  /**
   * The array length, for an array.
   */
  arrayLength?: number | null;
  /**
   * Bytes between array elements (whole registers), for an array.
   */
  arrayStride?: number | null;
  /**
   * Columns of a matrix, or the components of a vector.
   */
  columns?: number | null;
  /**
   * A struct's members, offsets relative to each element.
   */
  members?: CbufferField[] | null;
  /**
   * HLSL name (`WorldViewProj`).
   */
  name: string;
  /**
   * Byte offset from the start of the buffer (of the struct, for a member).
   */
  offset: number;
  /**
   * A matrix's packing: `"column_major"` (each column one register, HLSL's default) or
   * `"row_major"`. The matrix's vectors are 16 bytes apart.
   */
  packing?: string | null;
  /**
   * Rows of a matrix, or 1 for a scalar or vector.
   */
  rows?: number | null;
  /**
   * Component type: `"f32"`, `"i32"`, `"u32"` or `"bool"` (a 32-bit word, 0 false).
   */
  scalar?: string | null;
  /**
   * Bytes from the first to the last used byte (HLSL packs what follows into the rest of the
   * last register).
   */
  size: number;
  /**
   * HLSL type as declared (`column_major float4x4`, `float3[8]`, `struct Light[4]`).
   */
  type: string;
}

/**
 * A constant-buffer layout.
 */
export interface CbufferLayout {
  /**
   * The variables, in declaration order.
   */
  fields: CbufferField[];
  /**
   * The layout's name (`Parameters`; the generated Rust struct's).
   */
  name: string;
  /**
   * Bytes, a multiple of 16 (whole registers): the buffer's size.
   */
  size: number;
}

/**
 * One color output of a fragment shader: its target needs a format of the same kind (a float,
 * unorm or snorm format for `f32`, an integer format of the same signedness otherwise).
 */
export interface ColorOutput {
  /**
   * Components written (1–4).
   */
  components: number;
  /**
   * `@location` (the render target index).
   */
  location: number;
  /**
   * `"f32"`, `"u32"` or `"i32"`.
   */
  scalar: string;
}

/**
 * `GPUColorTargetState` without `format`.
 */
export interface ColorTargetState {
  /**
   * `blend` (absent: blending off).
   */
  blend?: BlendState | null;
  /**
   * `writeMask` (`GPUColorWrite` bits: 1 red, 2 green, 4 blue, 8 alpha; D3D's are the same).
   */
  writeMask: number;
}

/**
 * `GPUDepthStencilState` without `format`.
 */
export interface DepthStencilState {
  /**
   * `depthBias`.
   */
  depthBias: number;
  /**
   * `depthBiasClamp`.
   */
  depthBiasClamp: number;
  /**
   * `depthBiasSlopeScale`.
   */
  depthBiasSlopeScale: number;
  /**
   * `depthCompare`.
   */
  depthCompare: string;
  /**
   * `depthWriteEnabled`.
   */
  depthWriteEnabled: boolean;
  /**
   * `stencilBack`.
   */
  stencilBack: StencilFaceState;
  /**
   * `stencilFront`.
   */
  stencilFront: StencilFaceState;
  /**
   * `stencilReadMask`.
   */
  stencilReadMask: number;
  /**
   * `stencilWriteMask`.
   */
  stencilWriteMask: number;
}

/**
 * One pass.
 */
export interface Pass {
  /**
   * Its kind.
   */
  kind: PassKindName;
  /**
   * Its name.
   */
  name: string;
  /**
   * The render states (render and geometry passes).
   */
  states?: RenderStates | null;
  /**
   * One per permutation, in [`EffectArtifact::permutations`] order.
   */
  variants: Variant[];
}

/**
 * The kind of pass.
 */
export type PassKindName = "render" | "compute" | "geometry";

/**
 * One permutation: a value per axis.
 */
export interface Permutation {
  /**
   * The value of each axis by name (`{"fog": "true", "lighting": "pixel"}`).
   */
  values: Record<string, string>;
}

/**
 * A pipeline-overridable constant: what a pipeline sets it to.
 */
export interface PipelineConstant {
  /**
   * What it stands for: `"sample-count"`, the render pipeline's `multisample.count`.
   */
  meaning: string;
  /**
   * The `override`'s name: the key in `GPUProgrammableStage.constants`.
   */
  name: string;
}

/**
 * One pipeline of a variant.
 */
export interface PipelineDesc {
  /**
   * The layout: a bind group layout id per `@group` index (id 0, the empty layout, for a group
   * the pipeline does not use).
   */
  bindGroupLayouts: number[];
  /**
   * A compute pipeline's stage.
   */
  compute?: ProgrammableStage | null;
  /**
   * A render pipeline's fragment stage (absent: no pixel shader).
   */
  fragment?: ProgrammableStage | null;
  /**
   * `"render"` or `"compute"`.
   */
  kind: string;
  /**
   * A render pipeline's primitive state: the pass's, or the primitive stage's draw topology.
   */
  primitive?: PrimitiveState | null;
  /**
   * What it is: `render`, `compute`, or a primitive-stage role (`vertex`, `geometry`,
   * `assembly`, `so-count`, `so-scan`, `so-write`, `draw`).
   */
  role: string;
  /**
   * A render pipeline's vertex stage.
   */
  vertex?: ProgrammableStage | null;
  /**
   * A render pipeline's vertex buffers, by slot: vertex buffer layout ids.
   */
  vertexBuffers?: number[];
}

/**
 * The primitive stage of a pass with a geometry shader (`docs/geometry.md`).
 */
export interface PrimitiveStage {
  /**
   * `dcl_gsinstances`.
   */
  gsInstances: number;
  /**
   * Output index words per invocation.
   */
  indexStride: number;
  /**
   * `dcl_inputprimitive` (`point`, `line`, `triangle`, `lineadj`, `triangleadj`).
   */
  inputPrimitive: string;
  /**
   * Registers per vertex record.
   */
  inputRegisters: number;
  /**
   * `dcl_maxout`.
   */
  maxVertices: number;
  /**
   * Registers per output vertex.
   */
  outputRegisters: number;
  /**
   * `dcl_outputtopology` (`point-list`, `line-strip`, `triangle-strip`; absent: nothing drawn).
   */
  outputTopology?: string | null;
  /**
   * The vertex buffer slots the vertex shader pulls, ascending, and their strides.
   */
  vertexSlots: number[];
  /**
   * Byte stride per slot of `vertexSlots`.
   */
  vertexStrides: number[];
  /**
   * Invocations per workgroup of the runtime's dispatches.
   */
  workgroupSize: number;
}

/**
 * `GPUPrimitiveState`.
 */
export interface PrimitiveState {
  /**
   * `"none"`, `"front"` or `"back"`.
   */
  cullMode: string;
  /**
   * `"cw"` (D3D's default) or `"ccw"`.
   */
  frontFace: string;
  /**
   * `"uint16"` or `"uint32"` for a strip drawn indexed (absent otherwise).
   */
  stripIndexFormat?: string | null;
  /**
   * `"point-list"`, ..., `"triangle-strip"`.
   */
  topology: string;
  /**
   * `unclippedDepth` (D3D's `DepthClipEnable = FALSE`; feature `depth-clip-control`).
   */
  unclippedDepth: boolean;
}

/**
 * `GPUProgrammableStage`: a shader, its entry point and the values of its constants.
 */
export interface ProgrammableStage {
  /**
   * `constants` for a single-sampled pipeline; a pipeline of another sample count sets each
   * constant whose [`PipelineConstant::meaning`] is `sample-count` to its count.
   */
  constants: Record<string, number>;
  /**
   * `entryPoint`.
   */
  entryPoint: string;
  /**
   * Index into [`EffectArtifact::shaders`].
   */
  shader: number;
}

/**
 * A pass's render states, as WebGPU descriptor values (D3D11's defaults for what the effect
 * file leaves out; the mapping is `docs/effect-format.md`'s).
 */
export interface RenderStates {
  /**
   * `multisample.alphaToCoverageEnabled` for a multisampled target (WebGPU refuses it with one
   * sample: there it is off, docs/compatibility.md).
   */
  alphaToCoverage: boolean;
  /**
   * `GPUDepthStencilState` without `format` (add the depth buffer's).
   */
  depthStencil: DepthStencilState;
  /**
   * `GPUPrimitiveState` of the pass's draw (a geometry pass's draw pipeline sets its own
   * topology: [`PipelineDesc::primitive`]).
   */
  primitive: PrimitiveState;
  /**
   * WebGPU features the states need (`"depth-clip-control"`).
   */
  requiredFeatures: string[];
  /**
   * D3D's `ScissorEnable`: set the pass's scissor rectangle before drawing.
   */
  scissorEnable: boolean;
  /**
   * Per render target (`SV_Target0`..7): `GPUColorTargetState` without `format`.
   */
  targets: ColorTargetState[];
  /**
   * The states read the blend constant (`setBlendConstant`).
   */
  usesBlendConstant: boolean;
  /**
   * The states read the stencil reference (`setStencilReference`).
   */
  usesStencilReference: boolean;
}

/**
 * A resource the effect binds.
 */
export interface Resource {
  /**
   * For a constant buffer, its layout (index into [`EffectArtifact::cbuffers`]).
   */
  cbuffer?: number | null;
  /**
   * The effect file's documentation.
   */
  doc?: string | null;
  /**
   * `"uniform-buffer"`, `"storage-buffer"`, `"counter-buffer"`, `"texture-view"`, `"sampler"`.
   */
  kind: string;
  /**
   * Its name (the generated `Resources` field's).
   */
  name: string;
}

/**
 * `GPUSamplerBindingLayout`.
 */
export interface SamplerBindingLayout {
  /**
   * `"filtering"` or `"comparison"`.
   */
  type: string;
}

/**
 * One WGSL module.
 */
export interface Shader {
  /**
   * The WGSL source (`GPUShaderModuleDescriptor.code`).
   */
  code: string;
  /**
   * A fragment shader's color outputs (`SV_Target0`..7): one render target each.
   */
  colorOutputs?: ColorOutput[];
  /**
   * The D3D stage it was translated from (`vertex`, `pixel`, `geometry`, `compute`), or
   * `runtime` for a kernel of the primitive stage.
   */
  d3dStage: string;
  /**
   * The entry point (a runtime kernel may have several: each pipeline names its own).
   */
  entryPoint: string;
  /**
   * Its index in [`EffectArtifact::shaders`].
   */
  id: number;
  /**
   * Where it came from: shader inputs (`BasicEffect_VSBasic.inc:BasicEffect_VSBasic`), or
   * `runtime:` and the kernel's name.
   */
  labels: string[];
  /**
   * The pipeline-overridable constants (`override`) the module declares.
   */
  pipelineConstants: PipelineConstant[];
  /**
   * Optional WebGPU features the device must have (`"clip-distances"`, ...).
   */
  requiredFeatures: string[];
  /**
   * The shader model (`vs_4_0`), absent for a runtime kernel.
   */
  shaderModel?: string | null;
  /**
   * The WebGPU stage of its entry points.
   */
  stage: ShaderStage;
  /**
   * `@workgroup_size` of a compute entry point.
   */
  workgroupSize?: [number, number, number] | null;
  /**
   * Bytes of `var<workgroup>` memory (D3D's TGSM) a compute module declares.
   */
  workgroupStorageBytes: number;
  /**
   * A fragment shader writes `SV_Depth` (`@builtin(frag_depth)`).
   */
  writesDepth?: boolean;
}

/**
 * The WebGPU stage a module's entry point is.
 */
export type ShaderStage = "vertex" | "fragment" | "compute";

/**
 * `GPUStencilFaceState`.
 */
export interface StencilFaceState {
  /**
   * `compare`.
   */
  compare: string;
  /**
   * `depthFailOp`.
   */
  depthFailOp: string;
  /**
   * `failOp`.
   */
  failOp: string;
  /**
   * `passOp`.
   */
  passOp: string;
}

/**
 * `GPUStorageTextureBindingLayout`.
 */
export interface StorageTextureBindingLayout {
  /**
   * `"write-only"` or `"read-write"`.
   */
  access: string;
  /**
   * The texel format (`"rgba8unorm"`): the view's format.
   */
  format: string;
  /**
   * `"2d"`, `"2d-array"`, `"3d"`.
   */
  viewDimension: string;
}

/**
 * `GPUTextureBindingLayout`.
 */
export interface TextureBindingLayout {
  /**
   * `multisampled`.
   */
  multisampled: boolean;
  /**
   * `"float"`, `"unfilterable-float"`, `"sint"`, `"uint"` or `"depth"`.
   */
  sampleType: string;
  /**
   * `"2d"`, `"2d-array"`, `"cube"`, `"cube-array"`, `"3d"`.
   */
  viewDimension: string;
}

/**
 * One pass of one permutation: the pipelines it creates.
 */
export interface Variant {
  /**
   * Index into [`EffectArtifact::permutations`].
   */
  permutation: number;
  /**
   * The pipelines, in the order the pass runs them: a render or compute pass has one; a pass
   * with a geometry shader has its compute pipelines (`assembly`, run first for indexed strip
   * draws only; `vertex`; `geometry`; with stream output `so-count`, `so-scan`, `so-write`),
   * then its `draw` (absent when the rasterized stream is not drawn).
   */
  pipelines: PipelineDesc[];
  /**
   * For a pass with a geometry shader: the primitive stage's description (the runtime's
   * `StageDesc`, `docs/geometry.md`).
   */
  primitiveStage?: PrimitiveStage | null;
  /**
   * The optional WebGPU features the shaders and states need.
   */
  requiredFeatures: string[];
  /**
   * The WebGPU limits the pipelines need above WebGPU's defaults (`GPUSupportedLimits` names:
   * `maxBindGroups`, `maxComputeWorkgroupStorageSize`...): pass them as `requiredLimits`.
   */
  requiredLimits: Record<string, number>;
  /**
   * For a pass with stream output: the resolved declaration (`dxbc_wgsl::geometry::
   * SoDeclaration` as JSON: its entries per output slot, `docs/stream-output.md`).
   */
  streamOutput?: unknown;
}

/**
 * `GPUVertexAttribute`, with the D3D semantic it feeds.
 */
export interface VertexAttribute {
  /**
   * `GPUVertexFormat` (`"float32x3"`).
   */
  format: string;
  /**
   * D3D's instance step rate of per-instance data (`[instance_data]`).
   */
  instanceStepRate?: number | null;
  /**
   * Byte offset in the vertex.
   */
  offset: number;
  /**
   * The D3D semantic (`NORMAL`, `TEXCOORD1`), or `register N` for the primitive stage's output.
   */
  semantic: string;
  /**
   * `@location`.
   */
  shaderLocation: number;
}

/**
 * `GPUVertexBufferLayout`.
 */
export interface VertexBufferLayout {
  /**
   * `arrayStride` in bytes.
   */
  arrayStride: number;
  /**
   * The attributes, by shader location.
   */
  attributes: VertexAttribute[];
  /**
   * Its index in [`EffectArtifact::vertex_buffer_layouts`].
   */
  id: number;
  /**
   * The generated Rust struct's name (`VertexPositionNormalTexcoord`), or the primitive
   * stage's output vertex (`GeometryOutput4`: registers as `uint32x4`).
   */
  name: string;
  /**
   * `"vertex"` or `"instance"`.
   */
  stepMode: string;
}

