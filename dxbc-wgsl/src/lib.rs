//! # dxbc-wgsl
//!
//! Translates compiled Direct3D 10/11/12 shader bytecode (DXBC containers holding SM4.0–SM5.1 token
//! programs) into WGSL.
//!
//! Phases (one module each, see `ARCHITECTURE.md`):
//! 1. [`container`]: the DXBC container, its chunk table and checksum.
//! 2. [`chunks`]: chunk decoders (signatures, reflection, feature flags, root signatures).
//! 3. [`sm4`]: the SM4/SM5 token decoder, driven by one opcode table, and the disassembler.
//! 4. [`ir`]: the typed, scoped IR built from the decoded program, and its validator.
//! 5. [`lower`]: IR → naga module (the WGSL program), with D3D semantics made explicit.
//! 6. [`emit`]: naga validation and WGSL text.
//!
//! The entry point is [`translate`].
#![warn(missing_docs)]

pub mod bindings;
pub mod chunks;
pub mod classify;
pub mod container;
pub mod emit;
pub mod error;
pub mod geometry;
pub mod header;
pub mod info;
pub mod ir;
pub mod limits;
pub mod lower;
pub mod refusal;
pub mod select;
pub mod shader;
pub mod sm4;

pub use bindings::{BindingClass, BindingSlot, ResourceBinding, ResourceKind, TextureSample, ViewDimension};
pub use container::{Chunk, Container, ReadOptions};
pub use error::{ReadError, ReadResult};
pub use geometry::geometry_draw_vertex_shader;
pub use refusal::{Refusal, RefusalReason, RefusalSubject, TranslateError};
pub use shader::Shader;
pub use sm4::ShaderStage;

/// Version of the translator; part of every cache key so that a new translator re-translates.
pub const TRANSLATOR_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A hash of the translator's source files (16 hex digits), computed when the crate is built:
/// part of build-time cache keys with [`TRANSLATOR_VERSION`], so that a translator changed
/// without a new version number (a path or git dependency, a local edit) re-translates.
pub const TRANSLATOR_SOURCE_HASH: &str = env!("DXBC_WGSL_SOURCE_HASH");

/// Options for [`translate`].
#[derive(Debug, Clone, Default)]
pub struct TranslateOptions {
    /// Skip checksum verification (for knowingly patched blobs).
    pub skip_checksum: bool,
    /// Name given to the WGSL entry point; `"main"` when `None`.
    pub entry_point: Option<String>,
    /// Formats of typed `Buffer` SRVs by register (`t#`, and its space in SM5.1), which the
    /// bytecode does not carry.
    pub typed_buffer_formats: Vec<(ViewRegister, TypedBufferFormat)>,
    /// Formats of typed UAVs by register (`u#`: `RWTexture*` and `RWBuffer`, and the space in
    /// SM5.1), which the bytecode does not carry either.
    pub typed_uav_formats: Vec<(ViewRegister, TexelFormat)>,
    /// Interpolation of vertex-shader outputs by output register, to match the pixel shader of
    /// the pass (WebGPU requires both sides of a varying to agree; D3D declares it only in the
    /// pixel shader). Registers not listed use perspective-correct centre interpolation (flat for
    /// integers). Take them from the pixel shader's [`Translation::inputs`].
    pub vertex_output_interpolation: Vec<(u32, Interpolation)>,
    /// How a vertex shader runs: as the pipeline's vertex stage, or as compute in front of a
    /// geometry shader ([`geometry`]).
    pub vertex_stage: VertexStage,
    /// The pixel shader draws a geometry shader's output: SV_PrimitiveID is the value the
    /// geometry shader wrote (a flat `@location` of its register, as the generated pass-through
    /// vertex shader passes it on) instead of WebGPU's `primitive_index`.
    pub behind_geometry: bool,
    /// A pixel shader drawn once per layer and viewport (`select`, docs/per-primitive.md): what
    /// the stage in front of it writes per primitive. With a source written, the shader starts
    /// by discarding the primitives the draw does not render, and its SV_RenderTargetArrayIndex
    /// and SV_ViewportArrayIndex read the sources (0 for a source not written). `None`: those
    /// inputs read their own register's flat location and nothing is discarded.
    pub primitive_select: Option<select::PrimitiveSelect>,
    /// A geometry shader: the streams its translation keeps (stream output,
    /// `docs/stream-output.md`); the default draws stream 0 and drops the others.
    pub geometry_streams: geometry::GeometryStreams,
    /// How `Texture2DMS` SRVs are viewed, by register (`t#`, and its space in SM5.1): D3D lets
    /// a `texture2dms` declared with 1 sample, or with 0 (any count), view a single-sampled 2D
    /// texture; WGSL's `texture_multisampled_2d` cannot. A declaration of 1 sample is
    /// single-sampled without an entry; one of 0 is multisampled unless an entry says
    /// [`Texture2dmsView::SingleSampled`]; an entry contradicting a declared count (1, or 2 and
    /// more) is refused.
    pub texture2dms_views: Vec<(ViewRegister, Texture2dmsView)>,
}

/// What a `Texture2DMS` SRV views ([`TranslateOptions::texture2dms_views`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum Texture2dmsView {
    /// A single-sampled 2D texture (WGSL `texture_2d`): `ld2dms` reads level 0 for sample 0
    /// and zero for any other index, `sampleinfo` says 1.
    SingleSampled,
    /// A multisampled 2D texture (WGSL `texture_multisampled_2d`).
    Multisampled,
}

impl Texture2dmsView {
    /// The name settings use: `single_sampled`, `multisampled`.
    pub fn name(self) -> &'static str {
        match self {
            Texture2dmsView::SingleSampled => "single_sampled",
            Texture2dmsView::Multisampled => "multisampled",
        }
    }

    /// Parses [`Texture2dmsView::name`].
    pub fn parse(s: &str) -> Option<Self> {
        [Texture2dmsView::SingleSampled, Texture2dmsView::Multisampled].into_iter().find(|v| v.name() == s)
    }
}

/// How a vertex shader is translated ([`TranslateOptions::vertex_stage`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum VertexStage {
    /// The render pipeline's vertex stage: inputs are vertex attributes.
    #[default]
    Render,
    /// A compute shader in front of a geometry shader: inputs pulled from vertex buffers, outputs
    /// written as vertex records ([`geometry::VertexPulling`]).
    Compute(geometry::VertexPulling),
}

/// The register a view is bound at: `t3` is `ViewRegister::new(3)`; SM5.1's
/// `register(u1, space2)` is `ViewRegister { register: 1, space: 2 }` (for a range, its first
/// register).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ViewRegister {
    /// Register number (`t#`/`u#`).
    pub register: u32,
    /// Register space (0 before SM5.1).
    pub space: u32,
}

impl ViewRegister {
    /// Register `register` of space 0.
    pub fn new(register: u32) -> Self {
        ViewRegister { register, space: 0 }
    }
}

/// A texel format for a typed UAV, named as WGSL names storage texel formats.
///
/// `RWBuffer` UAVs support the 32-bit formats (`r32*`, `rg32*`, `rgba32*`), which are emulated
/// on a storage buffer of words; `RWTexture*` UAVs become WGSL storage textures of the format.
/// WebGPU's core allows `read_write` storage textures only for `r32float`, `r32uint` and
/// `r32sint`: a UAV the shader also reads must use one of those.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "lowercase"))]
#[allow(missing_docs)]
pub enum TexelFormat {
    R32Float,
    R32Uint,
    R32Sint,
    Rg32Float,
    Rg32Uint,
    Rg32Sint,
    Rgba32Float,
    Rgba32Uint,
    Rgba32Sint,
    Rgba16Float,
    Rgba16Uint,
    Rgba16Sint,
    Rgba8Unorm,
    Rgba8Snorm,
    Rgba8Uint,
    Rgba8Sint,
    Bgra8Unorm,
}

impl TexelFormat {
    /// Every format, in declaration order.
    pub const ALL: [TexelFormat; 17] = {
        use TexelFormat::*;
        [
            R32Float,
            R32Uint,
            R32Sint,
            Rg32Float,
            Rg32Uint,
            Rg32Sint,
            Rgba32Float,
            Rgba32Uint,
            Rgba32Sint,
            Rgba16Float,
            Rgba16Uint,
            Rgba16Sint,
            Rgba8Unorm,
            Rgba8Snorm,
            Rgba8Uint,
            Rgba8Sint,
            Bgra8Unorm,
        ]
    };
    /// The scalar kind shaders see.
    pub fn scalar(self) -> ScalarKind {
        use TexelFormat::*;
        match self {
            R32Uint | Rg32Uint | Rgba32Uint | Rgba16Uint | Rgba8Uint => ScalarKind::Uint,
            R32Sint | Rg32Sint | Rgba32Sint | Rgba16Sint | Rgba8Sint => ScalarKind::Sint,
            _ => ScalarKind::Float,
        }
    }
    /// Components per texel.
    pub fn components(self) -> u8 {
        use TexelFormat::*;
        match self {
            R32Float | R32Uint | R32Sint => 1,
            Rg32Float | Rg32Uint | Rg32Sint => 2,
            _ => 4,
        }
    }
    /// Whether every component is one 32-bit word (usable for typed buffers).
    pub fn is_32bit(self) -> bool {
        use TexelFormat::*;
        matches!(
            self,
            R32Float | R32Uint | R32Sint | Rg32Float | Rg32Uint | Rg32Sint | Rgba32Float | Rgba32Uint | Rgba32Sint
        )
    }
    /// WGSL's name (`rgba8unorm`, ...).
    pub fn wgsl_name(self) -> &'static str {
        use TexelFormat::*;
        match self {
            R32Float => "r32float",
            R32Uint => "r32uint",
            R32Sint => "r32sint",
            Rg32Float => "rg32float",
            Rg32Uint => "rg32uint",
            Rg32Sint => "rg32sint",
            Rgba32Float => "rgba32float",
            Rgba32Uint => "rgba32uint",
            Rgba32Sint => "rgba32sint",
            Rgba16Float => "rgba16float",
            Rgba16Uint => "rgba16uint",
            Rgba16Sint => "rgba16sint",
            Rgba8Unorm => "rgba8unorm",
            Rgba8Snorm => "rgba8snorm",
            Rgba8Uint => "rgba8uint",
            Rgba8Sint => "rgba8sint",
            Bgra8Unorm => "bgra8unorm",
        }
    }
    /// Parses WGSL's name or a DXGI name (`R32G32B32A32_FLOAT`, `DXGI_FORMAT_R8G8B8A8_UNORM`).
    pub fn parse(s: &str) -> Option<Self> {
        use TexelFormat::*;
        if let Some(f) = Self::ALL.iter().find(|f| f.wgsl_name() == s) {
            return Some(*f);
        }
        let d = s.trim_start_matches("DXGI_FORMAT_").to_ascii_uppercase();
        Some(match d.as_str() {
            "R32_FLOAT" => R32Float,
            "R32_UINT" => R32Uint,
            "R32_SINT" => R32Sint,
            "R32G32_FLOAT" => Rg32Float,
            "R32G32_UINT" => Rg32Uint,
            "R32G32_SINT" => Rg32Sint,
            "R32G32B32A32_FLOAT" => Rgba32Float,
            "R32G32B32A32_UINT" => Rgba32Uint,
            "R32G32B32A32_SINT" => Rgba32Sint,
            "R16G16B16A16_FLOAT" => Rgba16Float,
            "R16G16B16A16_UINT" => Rgba16Uint,
            "R16G16B16A16_SINT" => Rgba16Sint,
            "R8G8B8A8_UNORM" => Rgba8Unorm,
            "R8G8B8A8_SNORM" => Rgba8Snorm,
            "R8G8B8A8_UINT" => Rgba8Uint,
            "R8G8B8A8_SINT" => Rgba8Sint,
            "B8G8R8A8_UNORM" => Bgra8Unorm,
            _ => return None,
        })
    }
}

impl std::fmt::Display for TexelFormat {
    /// WGSL's name (`rgba8unorm`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.wgsl_name())
    }
}

/// The element format of a typed buffer view, as the application binds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum TypedBufferFormat {
    /// 32-bit float elements (`R32_FLOAT`, `R32G32B32A32_FLOAT`, ...), with the given component count.
    Float32(u8),
    /// 32-bit unsigned elements.
    Uint32(u8),
    /// 32-bit signed elements.
    Sint32(u8),
}

impl TypedBufferFormat {
    /// The typed-buffer element format of a 32-bit-per-component texel format (`r32float` →
    /// `Float32(1)`, `rgba32uint` → `Uint32(4)`), `None` for other formats.
    pub fn from_texel(f: TexelFormat) -> Option<Self> {
        if !f.is_32bit() {
            return None;
        }
        let n = f.components();
        Some(match f.scalar() {
            ScalarKind::Float => TypedBufferFormat::Float32(n),
            ScalarKind::Uint => TypedBufferFormat::Uint32(n),
            ScalarKind::Sint => TypedBufferFormat::Sint32(n),
        })
    }
}

impl TranslateOptions {
    /// Applies one `SLOT=FORMAT` view-format setting, as the CLI and effect files spell it:
    /// `t3=rgba32float` (a typed `Buffer` SRV: 32-bit formats), `u0=rgba8unorm` (a typed UAV),
    /// `u1,space2=r32uint` (SM5.1's `register(u1, space2)`). Formats are WGSL names or DXGI
    /// names (`R32G32B32A32_FLOAT`). A view of `single_sampled` or `multisampled` (`t0=single_sampled`)
    /// is a Texture2DMS view ([`TranslateOptions::set_texture2dms_view`]): the effect model passes
    /// `[texture2dms_views]` settings with its view formats.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn set_view_format(&mut self, setting: &str) -> Result<(), String> {
        let (slot, format) =
            setting.split_once('=').ok_or_else(|| format!("`{setting}`: expected SLOT=FORMAT, e.g. u0=r32float"))?;
        if Texture2dmsView::parse(format.trim()).is_some() {
            // `t0=single_sampled`: a Texture2DMS view, as `[texture2dms_views]` settings travel.
            return self.set_texture2dms_view(setting);
        }
        let f = TexelFormat::parse(format.trim()).ok_or_else(|| {
            format!("`{format}` is not a known texel format (e.g. r32float, rgba8unorm, R32G32B32A32_UINT)")
        })?;
        let (class, at) = parse_view_register(slot)?;
        if class == 't' {
            let b = TypedBufferFormat::from_texel(f)
                .ok_or_else(|| format!("`{format}`: typed Buffer SRVs support 32-bit-per-component formats"))?;
            self.typed_buffer_formats.retain(|(s, _)| *s != at);
            self.typed_buffer_formats.push((at, b));
        } else {
            if f == TexelFormat::Bgra8Unorm {
                return Err(format!(
                    "`{format}`: WebGPU allows a bgra8unorm storage texture only with the optional \
                     `bgra8unorm-storage` feature; bind an rgba8unorm view and swizzle instead"
                ));
            }
            self.typed_uav_formats.retain(|(s, _)| *s != at);
            self.typed_uav_formats.push((at, f));
        }
        Ok(())
    }

    /// Applies one `SLOT=VIEW` Texture2DMS setting ([`TranslateOptions::texture2dms_views`]), as
    /// the CLI (`--texture2dms-view`) and effect files (`[texture2dms_views]`) spell it:
    /// `t0=single_sampled`, `t1,space2=multisampled`.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn set_texture2dms_view(&mut self, setting: &str) -> Result<(), String> {
        let (slot, view) = setting
            .split_once('=')
            .ok_or_else(|| format!("`{setting}`: expected SLOT=VIEW, e.g. t0=single_sampled"))?;
        let v = Texture2dmsView::parse(view.trim())
            .ok_or_else(|| format!("`{}`: expected single_sampled or multisampled", view.trim()))?;
        let (class, at) = parse_view_register(slot)?;
        if class != 't' {
            return Err(format!("`{}`: a Texture2DMS view is an SRV (t#)", slot.trim()));
        }
        self.texture2dms_views.retain(|(s, _)| *s != at);
        self.texture2dms_views.push((at, v));
        Ok(())
    }
}

/// `t3`, `u1,space2` (`U0` as `u0`, as effect files accept it): the class letter and register.
fn parse_view_register(slot: &str) -> Result<(char, ViewRegister), String> {
    let slot = slot.trim();
    let bad = || format!("`{slot}`: expected t# or u#, optionally with a space (u1,space2)");
    // Decimal digits only (`+0` is not a register), within u32.
    let number = |s: &str| {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse::<u32>().map_err(|_| format!("`{slot}`: register or space number out of range"))
    };
    let (reg, space) = match slot.split_once(',') {
        None => (slot.to_string(), 0),
        Some((r, s)) => {
            let s = s.trim().strip_prefix("space").ok_or_else(bad)?;
            (r.trim().to_string(), number(s)?)
        }
    };
    let reg = reg.to_ascii_lowercase();
    for class in ['t', 'u'] {
        if let Some(n) = reg.strip_prefix(class) {
            return Ok((class, ViewRegister { register: number(n)?, space }));
        }
    }
    Err(bad())
}

/// One shader-stage input or output as WGSL sees it (one `@location` or `@builtin`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InterfaceVar {
    /// D3D semantic name (`TEXCOORD`, `SV_Position`, ...), as the signature spells it.
    pub semantic: String,
    /// D3D semantic index.
    pub semantic_index: u32,
    /// The D3D signature register.
    pub register: u32,
    /// WGSL `@location(n)`, or `None` for a builtin.
    pub location: Option<u32>,
    /// The WGSL builtin when this is one (`position`, `vertex_index`, ...).
    pub builtin: Option<Builtin>,
    /// Component scalar type.
    pub scalar: ScalarKind,
    /// Number of components WGSL declares (1–4).
    pub components: u8,
    /// First component inside the D3D register (0 = x).
    pub first_component: u8,
    /// Interpolation of a user-defined varying (pixel inputs as declared; vertex outputs as
    /// translated), `None` for builtins and vertex inputs.
    pub interpolation: Option<Interpolation>,
}

impl InterfaceVar {
    /// `TEXCOORD1`, `SV_Position` (index 0 is not written).
    pub fn semantic_label(&self) -> String {
        if self.semantic_index == 0 {
            self.semantic.clone()
        } else {
            format!("{}{}", self.semantic, self.semantic_index)
        }
    }
    /// WGSL type: `f32`, `vec3<f32>`.
    pub fn wgsl_type(&self) -> String {
        if self.components == 1 {
            self.scalar.wgsl_name().to_string()
        } else {
            format!("vec{}<{}>", self.components, self.scalar.wgsl_name())
        }
    }
}

/// A WGSL builtin value a stage reads or writes (WGSL spec, "Built-in Values").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum Builtin {
    /// `position`: SV_Position.
    Position,
    /// `vertex_index`: SV_VertexID.
    VertexIndex,
    /// `instance_index`: SV_InstanceID.
    InstanceIndex,
    /// `front_facing`: SV_IsFrontFace.
    FrontFacing,
    /// `sample_index`: SV_SampleIndex.
    SampleIndex,
    /// `sample_mask`: SV_Coverage (input or output).
    SampleMask,
    /// `primitive_index`: SV_PrimitiveID (WebGPU feature `primitive-index`).
    PrimitiveIndex,
    /// `frag_depth`: SV_Depth (and the conservative-depth outputs).
    FragDepth,
    /// `clip_distances`: SV_ClipDistance (WebGPU feature `clip-distances`).
    ClipDistances,
    /// `global_invocation_id`: SV_DispatchThreadID.
    GlobalInvocationId,
    /// `workgroup_id`: SV_GroupID.
    WorkgroupId,
    /// `local_invocation_id`: SV_GroupThreadID.
    LocalInvocationId,
    /// `local_invocation_index`: SV_GroupIndex.
    LocalInvocationIndex,
}

impl Builtin {
    /// WGSL's name (`@builtin(position)` is `position`).
    pub const fn wgsl_name(self) -> &'static str {
        match self {
            Builtin::Position => "position",
            Builtin::VertexIndex => "vertex_index",
            Builtin::InstanceIndex => "instance_index",
            Builtin::FrontFacing => "front_facing",
            Builtin::SampleIndex => "sample_index",
            Builtin::SampleMask => "sample_mask",
            Builtin::PrimitiveIndex => "primitive_index",
            Builtin::FragDepth => "frag_depth",
            Builtin::ClipDistances => "clip_distances",
            Builtin::GlobalInvocationId => "global_invocation_id",
            Builtin::WorkgroupId => "workgroup_id",
            Builtin::LocalInvocationId => "local_invocation_id",
            Builtin::LocalInvocationIndex => "local_invocation_index",
        }
    }

    /// The builtin of a naga builtin the lowering declares.
    pub(crate) fn from_naga(b: naga::BuiltIn) -> Builtin {
        use naga::BuiltIn as N;
        match b {
            N::Position { .. } => Builtin::Position,
            N::VertexIndex => Builtin::VertexIndex,
            N::InstanceIndex => Builtin::InstanceIndex,
            N::FrontFacing => Builtin::FrontFacing,
            N::SampleIndex => Builtin::SampleIndex,
            N::SampleMask => Builtin::SampleMask,
            N::PrimitiveIndex => Builtin::PrimitiveIndex,
            N::FragDepth => Builtin::FragDepth,
            N::ClipDistances => Builtin::ClipDistances,
            N::GlobalInvocationId => Builtin::GlobalInvocationId,
            N::WorkGroupId => Builtin::WorkgroupId,
            N::LocalInvocationId => Builtin::LocalInvocationId,
            N::LocalInvocationIndex => Builtin::LocalInvocationIndex,
            other => unreachable!("the lowering declares no {other:?} builtin"),
        }
    }

    /// The optional WebGPU feature a stage using this builtin needs.
    pub const fn required_feature(self) -> Option<WebGpuFeature> {
        match self {
            Builtin::ClipDistances => Some(WebGpuFeature::ClipDistances),
            Builtin::PrimitiveIndex => Some(WebGpuFeature::PrimitiveIndex),
            _ => None,
        }
    }
}

impl std::fmt::Display for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.wgsl_name())
    }
}

/// A WGSL pipeline-overridable constant (`override`) a translated module declares: a value D3D
/// takes from the pipeline's state, which the code creating the pipeline sets
/// (`GPUProgrammableStage.constants`; wgpu's `PipelineCompilationOptions::constants`) by
/// [`PipelineConstant::name`]. Unset, it keeps its WGSL default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "kebab-case"))]
pub enum PipelineConstant {
    /// The render pipeline's sample count (`MultisampleState::count`, 1 or 4 in WebGPU; WGSL
    /// default 1): what `sampleinfo` and `samplepos` of the `rasterizer` read (D3D11.3 §22.4.x,
    /// "sampleinfo (sm4.1 - asm)").
    RasterizerSampleCount,
}

impl PipelineConstant {
    /// The `override`'s WGSL name (`dxbc_wgsl_sample_count`): the key of the pipeline's constants.
    pub const fn name(self) -> &'static str {
        match self {
            PipelineConstant::RasterizerSampleCount => "dxbc_wgsl_sample_count",
        }
    }

    /// The value to set for a render pipeline of `sample_count` samples per pixel (WebGPU takes
    /// every constant as an `f64`).
    pub fn value(self, sample_count: u32) -> f64 {
        match self {
            PipelineConstant::RasterizerSampleCount => f64::from(sample_count),
        }
    }
}

/// An optional WebGPU feature a translated module needs (WebGPU spec, "Optional Features"); the
/// device must be created with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "kebab-case"))]
pub enum WebGpuFeature {
    /// `clip-distances` (WGSL `enable clip_distances;`; wgpu `Features::CLIP_DISTANCES`).
    ClipDistances,
    /// `primitive-index` (WGSL `enable primitive_index;`; wgpu `Features::PRIMITIVE_INDEX`).
    PrimitiveIndex,
}

impl WebGpuFeature {
    /// Every feature, in order.
    pub const ALL: [WebGpuFeature; 2] = [WebGpuFeature::ClipDistances, WebGpuFeature::PrimitiveIndex];
    /// WebGPU's name (`clip-distances`).
    pub const fn webgpu_name(self) -> &'static str {
        match self {
            WebGpuFeature::ClipDistances => "clip-distances",
            WebGpuFeature::PrimitiveIndex => "primitive-index",
        }
    }
    /// WGSL's extension name (`clip_distances`), as in `enable clip_distances;`.
    pub const fn wgsl_extension(self) -> &'static str {
        match self {
            WebGpuFeature::ClipDistances => "clip_distances",
            WebGpuFeature::PrimitiveIndex => "primitive_index",
        }
    }
}

impl std::fmt::Display for WebGpuFeature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.webgpu_name())
    }
}

/// How a varying is interpolated, in WGSL's terms (`@interpolate(type, sampling)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum Interpolation {
    /// Perspective-correct, at the pixel centre (D3D `linear`).
    Perspective,
    /// Perspective-correct at the centroid (`linear centroid`).
    PerspectiveCentroid,
    /// Perspective-correct per sample (`linear sample`).
    PerspectiveSample,
    /// Screen-space linear (`linear noperspective`).
    Linear,
    /// Screen-space linear at the centroid.
    LinearCentroid,
    /// Screen-space linear per sample.
    LinearSample,
    /// Not interpolated (`nointerpolation` / `constant`): the provoking (first) vertex's value.
    Flat,
}

impl Interpolation {
    /// The snake_case name messages and serialized data use: `perspective`,
    /// `perspective_centroid`, `perspective_sample`, `linear`, `linear_centroid`,
    /// `linear_sample`, `flat`.
    pub const fn name(self) -> &'static str {
        match self {
            Interpolation::Perspective => "perspective",
            Interpolation::PerspectiveCentroid => "perspective_centroid",
            Interpolation::PerspectiveSample => "perspective_sample",
            Interpolation::Linear => "linear",
            Interpolation::LinearCentroid => "linear_centroid",
            Interpolation::LinearSample => "linear_sample",
            Interpolation::Flat => "flat",
        }
    }
}

/// Scalar type of an interface component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "lowercase"))]
pub enum ScalarKind {
    /// `f32`
    Float,
    /// `u32`
    Uint,
    /// `i32`
    Sint,
}

impl ScalarKind {
    /// WGSL's name: `f32`, `u32`, `i32`.
    pub const fn wgsl_name(self) -> &'static str {
        match self {
            ScalarKind::Float => "f32",
            ScalarKind::Uint => "u32",
            ScalarKind::Sint => "i32",
        }
    }
}

/// A translated shader.
#[derive(Debug, Clone)]
pub struct Translation {
    /// The WGSL module text. It has passed naga's validator.
    pub wgsl: String,
    /// The pipeline stage.
    pub stage: ShaderStage,
    /// Shader model `(major, minor)`, e.g. `(4, 0)`.
    pub shader_model: (u8, u8),
    /// Name of the WGSL entry point.
    pub entry_point: String,
    /// Stage inputs, ordered by location (vertex attributes for a vertex shader).
    pub inputs: Vec<InterfaceVar>,
    /// Stage outputs, ordered by location.
    pub outputs: Vec<InterfaceVar>,
    /// Resources the shader binds, in (group, binding) order, with their D3D register.
    pub bindings: Vec<ResourceBinding>,
    /// Compute workgroup size, for compute shaders. Over WebGPU's default limits (256
    /// invocations, 256 in x and y, 64 in z) the device needs raised `maxComputeInvocationsPerWorkgroup`
    /// / `maxComputeWorkgroupSize*` limits (D3D allows 1024 threads per group).
    pub workgroup_size: Option<[u32; 3]>,
    /// Bytes of workgroup memory the module declares (D3D's thread-group shared memory, at most
    /// 32768). Over WebGPU's default `maxComputeWorkgroupStorageSize` (16384) the device must be
    /// created with that limit raised to at least this value.
    pub workgroup_storage_bytes: u32,
    /// Whether `diagnostic(off, derivative_uniformity)` had to be emitted.
    pub derivative_uniformity_off: bool,
    /// Optional WebGPU features the module needs ([`WebGpuFeature::ClipDistances`] for
    /// SV_ClipDistance outputs, [`WebGpuFeature::PrimitiveIndex`] for SV_PrimitiveID), in
    /// [`WebGpuFeature::ALL`] order; the device must be created with them.
    pub required_features: Vec<WebGpuFeature>,
    /// For a geometry shader (translated as a compute shader): what the code driving it needs
    /// ([`geometry`]).
    pub geometry: Option<geometry::GeometryInfo>,
    /// The pipeline-overridable constants the module declares, in [`PipelineConstant`] order:
    /// the pipeline creating code sets each from the pipeline's state.
    pub pipeline_constants: Vec<PipelineConstant>,
    /// What a vertex or geometry shader writes per primitive (`select`): the locations of its
    /// SV_RenderTargetArrayIndex and SV_ViewportArrayIndex and a geometry shader's cull flag,
    /// which the pixel shader's [`TranslateOptions::primitive_select`] takes. Empty for the
    /// other stages.
    pub per_primitive: select::PrimitiveSelect,
}

/// Translates one shader given as the bytes of a DXBC container.
///
/// # Errors
/// [`TranslateError::Read`] when the container or token stream is malformed;
/// [`TranslateError::Unsupported`] with a [`Refusal`] (shader instruction index, byte offset,
/// opcode, reason) when the program uses something that cannot be translated exactly;
/// [`TranslateError::Internal`] when the translator produced WGSL that fails validation (a bug).
pub fn translate(bytes: &[u8], options: &TranslateOptions) -> Result<Translation, TranslateError> {
    let shader = Shader::parse(bytes, &ReadOptions { verify_checksum: !options.skip_checksum })?;
    translate_shader(&shader, options)
}

/// Translates an already parsed shader. See [`translate`].
pub fn translate_shader(shader: &Shader<'_>, options: &TranslateOptions) -> Result<Translation, TranslateError> {
    let module = ir::build(shader, options)?;
    #[cfg(debug_assertions)]
    ir::validate(&module).map_err(|e| TranslateError::Internal(format!("IR validation: {e}")))?;
    let lowered = lower::lower(&module, options)?;
    emit::finish(lowered)
}

#[cfg(test)]
mod view_format_tests {
    use super::*;

    /// `u#=bgra8unorm` is refused as effect files refuse it (WebGPU needs an optional feature
    /// for bgra8unorm storage textures); `rgba8unorm` is accepted.
    #[test]
    fn bgra8unorm_uav_is_refused() {
        let mut o = TranslateOptions::default();
        let e = o.set_view_format("u0=bgra8unorm").unwrap_err();
        assert!(e.contains("bgra8unorm-storage"), "{e}");
        assert!(o.typed_uav_formats.is_empty());
        o.set_view_format("u0=rgba8unorm").unwrap();
        assert_eq!(o.typed_uav_formats, [(ViewRegister::new(0), TexelFormat::Rgba8Unorm)]);
    }
}

#[cfg(test)]
mod source_hash_tests {
    #[test]
    fn source_hash_is_sixteen_hex_digits() {
        let h = super::TRANSLATOR_SOURCE_HASH;
        assert_eq!(h.len(), 16, "{h}");
        assert!(h.chars().all(|c| c.is_ascii_hexdigit()), "{h}");
    }
}
