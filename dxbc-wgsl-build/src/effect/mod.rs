//! The effect-file model (`*.effect.toml`), its parser and its checks.
//!
//! The format is documented key by key in `docs/effect-format.md`. In short: an effect has
//! permutation axes, passes whose stages name their shader inputs (by path pattern or explicit
//! rules), constant-buffer layouts (reflection is often stripped, so the file declares them),
//! names for the other resources, vertex-format overrides, and each pass's render states.

pub mod layout;
mod parse;
pub mod pattern;
pub mod states;

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, DiagnosticKind, Diagnostics};
pub use layout::{HlslType, MatrixPacking, PlacedField, Scalar, Shape, StructType, VarType};
pub use pattern::Pattern;

/// A byte range in the effect file.
pub type Span = Range<usize>;

/// A parsed effect file.
#[derive(Debug, Clone)]
pub struct Effect {
    /// Path of the effect file, as given to [`Effect::load`].
    pub path: PathBuf,
    /// The file's text (positions in the model are byte offsets into it).
    pub source: String,
    /// `[effect] name`.
    pub name: String,
    /// Span of the name value.
    pub name_span: Span,
    /// Rust module name (`[effect] module`, or the name in snake case).
    pub module: String,
    /// `[effect] description`.
    pub description: Option<String>,
    /// Directory shader paths are relative to (`[effect] shader_dir`, resolved against the effect
    /// file's directory).
    pub shader_dir: PathBuf,
    /// Span of the `shader_dir` value, when the file gives one.
    pub shader_dir_span: Option<Span>,
    /// `[effect] verify_checksum` (default `true`): whether the containers' checksums are
    /// verified. `false` reads knowingly patched blobs
    /// ([`dxbc_wgsl::TranslateOptions::skip_checksum`]), for every shader of the effect.
    pub verify_checksum: bool,
    /// Permutation axes, in declaration order.
    pub axes: Vec<Axis>,
    /// `[permutations] exclude`: combinations that do not exist.
    pub excludes: Vec<Condition>,
    /// Constant-buffer layouts (`[layouts.X]`, and inline layouts of `[cbuffers.X]`).
    pub layouts: Vec<Layout>,
    /// Constant buffers (`[cbuffers.X]`).
    pub cbuffers: Vec<CbufferDecl>,
    /// Names of other resources (`[resources]`).
    pub resources: Vec<ResourceDecl>,
    /// Vertex-format overrides (`[vertex_formats]`).
    pub vertex_formats: Vec<VertexFormatOverride>,
    /// Per-instance vertex elements (`[instance_data]`), read by the vertex shaders of passes
    /// with a geometry shader.
    pub instance_data: Vec<InstanceDataDecl>,
    /// Formats of typed views the bytecode does not carry (`[view_formats]`).
    pub view_formats: Vec<ViewFormatDecl>,
    /// What `texture2dms` SRVs view (`[texture2dms_views]`).
    pub texture2dms_views: Vec<Texture2dmsViewDecl>,
    /// Passes, in declaration order.
    pub passes: Vec<Pass>,
    /// Techniques (`[techniques.X]`): named, ordered groups of passes, in declaration order.
    /// Empty when the file declares none.
    pub techniques: Vec<Technique>,
}

/// A technique: an ordered list of passes drawn (or dispatched) one after the other, as a D3D
/// effect's `technique11 { pass P0 {..} pass P1 {..} }` (a pass may belong to several).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Technique {
    /// Name (`[techniques.name]`, a snake_case identifier).
    pub name: String,
    /// Span of the key.
    pub span: Span,
    /// Documentation.
    pub doc: Option<String>,
    /// Indices into [`Effect::passes`], in the technique's order.
    pub passes: Vec<usize>,
}

/// A permutation axis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    /// Name (a Rust field name).
    pub name: String,
    /// Span of the key.
    pub span: Span,
    /// Documentation.
    pub doc: Option<String>,
    /// Kind and values.
    pub kind: AxisKind,
    /// Index of the default value.
    pub default: usize,
}

/// What values an axis takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AxisKind {
    /// `false` (index 0) and `true` (index 1).
    Bool,
    /// Named values, in declaration order.
    Enum(Vec<String>),
}

impl Axis {
    /// The value names (`false`, `true` for a bool axis).
    pub fn value_names(&self) -> Vec<String> {
        match &self.kind {
            AxisKind::Bool => vec!["false".into(), "true".into()],
            AxisKind::Enum(v) => v.clone(),
        }
    }
    /// Number of values.
    pub fn len(&self) -> usize {
        match &self.kind {
            AxisKind::Bool => 2,
            AxisKind::Enum(v) => v.len(),
        }
    }
    /// Always false: an axis has at least one value.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// A condition over axes: every listed axis has one of the listed values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    /// `(axis index, allowed value indices)`.
    pub terms: Vec<(usize, Vec<usize>)>,
    /// Span of the condition table.
    pub span: Span,
}

impl Condition {
    /// Whether the permutation `values` satisfies the condition.
    pub fn matches(&self, values: &[usize]) -> bool {
        self.terms.iter().all(|(a, vs)| vs.contains(&values[*a]))
    }
}

/// A constant-buffer layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Name (the generated Rust struct's name).
    pub name: String,
    /// Span of the declaring key.
    pub span: Span,
    /// Documentation.
    pub doc: Option<String>,
    /// Fields with their offsets.
    pub fields: Vec<PlacedField>,
    /// Spans of the fields (same order).
    pub field_spans: Vec<Span>,
    /// Field documentation (same order).
    pub field_docs: Vec<Option<String>>,
    /// The effect file gives no fields: the layout comes from the shaders' reflection (RDEF).
    /// [`crate::compile::compile`] fills `fields` (spans: the constant buffer's key).
    pub from_reflection: bool,
}

impl Layout {
    /// Size in bytes, rounded up to whole 16-byte registers.
    pub fn size(&self) -> u32 {
        layout::layout_size(&self.fields)
    }
}

/// Pipeline stages an effect pass can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Vertex shader (`@group(0)`).
    Vertex,
    /// Pixel (fragment) shader (`@group(1)`).
    Pixel,
    /// Compute shader (`@group(0)`).
    Compute,
    /// Geometry shader (`@group(2)`), run as compute work in front of the pass's draw
    /// (`docs/geometry.md`).
    Geometry,
}

impl Stage {
    /// Lower-case name as the effect file writes it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Pixel => "pixel",
            Stage::Compute => "compute",
            Stage::Geometry => "geometry",
        }
    }
    /// The bind group of the stage in the binding plan.
    pub fn group(self) -> u32 {
        match self {
            Stage::Vertex | Stage::Compute => 0,
            Stage::Pixel => 1,
            Stage::Geometry => 2,
        }
    }
    /// From the translator's stage.
    pub fn from_d3d(s: dxbc_wgsl::ShaderStage) -> Option<Self> {
        match s {
            dxbc_wgsl::ShaderStage::Vertex => Some(Stage::Vertex),
            dxbc_wgsl::ShaderStage::Pixel => Some(Stage::Pixel),
            dxbc_wgsl::ShaderStage::Compute => Some(Stage::Compute),
            dxbc_wgsl::ShaderStage::Geometry => Some(Stage::Geometry),
            _ => None,
        }
    }
}

/// A constant buffer the effect binds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CbufferDecl {
    /// Name (`[cbuffers.Name]`); the `Resources` field is its snake-case form.
    pub name: String,
    /// Span of the key.
    pub span: Span,
    /// Register number (`b0` → 0).
    pub slot: u32,
    /// Register space (SM5.1), 0 otherwise.
    pub space: u32,
    /// Span of the `register` value.
    pub register_span: Span,
    /// Stages it is bound to (`None`: every stage that declares the register).
    pub stages: Option<Vec<Stage>>,
    /// Index into [`Effect::layouts`].
    pub layout: usize,
    /// For a layout taken from the reflection: variables the source places (`register(cN)`,
    /// `packoffset`) that the compiler's reflection does not flag as placed (`placed = { a =
    /// "c1" }`): name, byte offset, span of the key.
    pub placed: Vec<(String, u32, Span)>,
    /// `allow_larger = true`: the declared layout may cover more than every shader binding the
    /// buffer declares (otherwise a field past the largest declared size is an error).
    pub allow_larger: bool,
}

/// Register class of a non-cbuffer resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResourceClass {
    /// `t#`: shader resource view.
    Srv,
    /// `s#`: sampler.
    Sampler,
    /// `u#`: unordered access view.
    Uav,
}

impl ResourceClass {
    /// Register letter.
    pub fn letter(self) -> char {
        match self {
            ResourceClass::Srv => 't',
            ResourceClass::Sampler => 's',
            ResourceClass::Uav => 'u',
        }
    }
}

/// A name for a texture, sampler or UAV register (`[resources] t0 = "texture"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceDecl {
    /// Class.
    pub class: ResourceClass,
    /// Register number.
    pub slot: u32,
    /// Register space.
    pub space: u32,
    /// Rust field name in the generated `Resources`.
    pub name: String,
    /// Stages it applies to (`None`: all).
    pub stages: Option<Vec<Stage>>,
    /// Documentation.
    pub doc: Option<String>,
    /// Span of the key.
    pub span: Span,
}

/// A vertex-format override (`[vertex_formats] SV_Position = "float32x3"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexFormatOverride {
    /// Semantic name (compared case-insensitively, as D3D does).
    pub semantic: String,
    /// Semantic index.
    pub index: u32,
    /// The format.
    pub format: crate::vertex::VertexFormat,
    /// Span of the key.
    pub span: Span,
}

/// A per-instance element of the input layout (`[instance_data] TEXCOORD4 = 1`): D3D's
/// `D3D11_INPUT_PER_INSTANCE_DATA` with its `InstanceDataStepRate`. The vertex shader of a pass
/// with a geometry shader pulls these elements from vertex buffer slot 1 (the per-vertex elements
/// stay in slot 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceDataDecl {
    /// Semantic name (compared case-insensitively, as D3D does).
    pub semantic: String,
    /// Semantic index.
    pub index: u32,
    /// `InstanceDataStepRate`: instances per element (0: every instance reads the element at
    /// `StartInstanceLocation`).
    pub step_rate: u32,
    /// Span of the key.
    pub span: Span,
}

/// The format of a typed view (`[view_formats] u0 = "rgba8unorm"`): a typed `Buffer` SRV (`t#`,
/// 32-bit formats) or a typed UAV (`u#`: `RWTexture*`, `RWBuffer`). The bytecode does not record
/// it; the translator needs it ([`dxbc_wgsl::TranslateOptions::set_view_format`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewFormatDecl {
    /// `Srv` or `Uav`.
    pub class: ResourceClass,
    /// Register number.
    pub slot: u32,
    /// Register space (SM5.1; 0 by default).
    pub space: u32,
    /// The format, as WGSL names it (`rgba8unorm`).
    pub format: String,
    /// Stages it applies to (`None`: all).
    pub stages: Option<Vec<Stage>>,
    /// Span of the key.
    pub span: Span,
}

impl ViewFormatDecl {
    /// The translator setting, `u0=rgba8unorm` (`u0,space1=rgba8unorm` outside space 0).
    pub fn setting(&self) -> String {
        format!("{}={}", self.register(), self.format)
    }

    /// The register as the setting names it: `u0`, or `u0,space1` outside space 0.
    pub fn register(&self) -> String {
        match self.space {
            0 => format!("{}{}", self.class.letter(), self.slot),
            s => format!("{}{},space{s}", self.class.letter(), self.slot),
        }
    }
}

/// What a `texture2dms` SRV views (`[texture2dms_views] t0 = "single_sampled"`): D3D lets a
/// `Texture2DMS` declared with sample count 0 (any count) view a single-sampled texture, which
/// WGSL types apart ([`dxbc_wgsl::TranslateOptions::texture2dms_views`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texture2dmsViewDecl {
    /// Register number (`t#`).
    pub slot: u32,
    /// Register space (SM5.1; 0 by default).
    pub space: u32,
    /// The view.
    pub view: dxbc_wgsl::Texture2dmsView,
    /// Stages it applies to (`None`: all).
    pub stages: Option<Vec<Stage>>,
    /// Span of the key.
    pub span: Span,
}

impl Texture2dmsViewDecl {
    /// The register as settings name it: `t0`, or `t0,space1` outside space 0.
    pub fn register(&self) -> String {
        match self.space {
            0 => format!("t{}", self.slot),
            s => format!("t{},space{s}", self.slot),
        }
    }

    /// The translator setting, `t0=single_sampled`
    /// ([`dxbc_wgsl::TranslateOptions::set_texture2dms_view`]).
    pub fn setting(&self) -> String {
        format!("{}={}", self.register(), self.view.name())
    }
}

/// A pass: a vertex and a pixel stage (with a geometry stage between them, or not), or a compute
/// stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pass {
    /// Name (`[passes.name]`).
    pub name: String,
    /// Span of the key.
    pub span: Span,
    /// The vertex stage's shader rules; for a compute pass ([`Pass::is_compute`]), the compute
    /// stage's (`vertex.stage` is then [`Stage::Compute`]).
    pub vertex: StageRules,
    /// The geometry stage, for a pass with a geometry shader ([`Pass::kind`] is then
    /// [`PassKind::Geometry`]).
    pub geometry: Option<GeometryStage>,
    /// The pixel stage's shader rules (`None`: no pixel shader, e.g. depth only).
    pub pixel: Option<StageRules>,
    /// Topology, blend, depth-stencil and rasterizer states (D3D11's defaults unless declared).
    /// In a pass with a geometry shader, `states.topology` is unused: the draw's topology is
    /// [`GeometryStage::topology`] and the rasterized one the geometry shader's output.
    pub states: states::PassStates,
    /// The pass's stream-output declaration (`[passes.NAME.stream_output]`,
    /// `CreateGeometryShaderWithStreamOutput`'s arguments, docs/stream-output.md). A pass that
    /// declares one without a geometry shader has an implicit geometry stage
    /// ([`GeometryStage::implicit`]): its vertex shader's pass-through module.
    pub stream_output: Option<StreamOutputDecl>,
}

/// A pass's stream-output declaration as the effect file gives it (D3D11.3 §14.4), resolved
/// against the output signature of the shader in front of the rasterizer when the effect is
/// compiled ([`dxbc_wgsl::geometry::resolve_so_declaration`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOutputDecl {
    /// The entries in declaration order (`D3D11_SO_DECLARATION_ENTRY`).
    pub entries: Vec<dxbc_wgsl::geometry::SoDeclarationEntry>,
    /// Span of each entry's table.
    pub entry_spans: Vec<Span>,
    /// Bytes per vertex of each slot (`pBufferStrides`, slot order, at most 4); `None`: each used
    /// slot's packed size (its entries' components × 4).
    pub strides: Option<Vec<u32>>,
    /// Span of the `strides` value and of each of its elements.
    pub strides_span: Option<(Span, Vec<Span>)>,
    /// The stream drawn (`RasterizedStream`, default 0); `None`: `D3D11_SO_NO_RASTERIZED_STREAM`.
    pub rasterized_stream: Option<u32>,
    /// Span of the `stream_output` key.
    pub span: Span,
}

impl StreamOutputDecl {
    /// The streams the entries write, as a bit mask.
    pub fn streams(&self) -> u8 {
        self.entries.iter().fold(0, |m, e| m | (1u8 << e.stream.min(7)))
    }

    /// How the geometry shader is translated for it
    /// ([`dxbc_wgsl::TranslateOptions::geometry_streams`]).
    pub fn geometry_streams(&self) -> dxbc_wgsl::geometry::GeometryStreams {
        dxbc_wgsl::geometry::GeometryStreams { rasterized: self.rasterized_stream, stream_out: self.streams() }
    }
}

/// The geometry stage of a pass (`geometry = "..."`) and the topology the pass draws with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeometryStage {
    /// The geometry shader's rules.
    pub rules: StageRules,
    /// The input topology of the draw (`topology`, every D3D11 topology: lists, strips, their
    /// adjacency forms, patch lists), default `TRIANGLELIST`.
    pub topology: dxbc_wgsl::geometry::Topology,
    /// Span of the `topology` value, when the pass gives one.
    pub topology_span: Option<Span>,
    /// No geometry shader: a pass with a stream-output declaration and no `geometry` key, whose
    /// geometry stage is the vertex shader's pass-through module
    /// ([`dxbc_wgsl::geometry::pass_through_geometry`]; `rules` are then the vertex shader's).
    pub implicit: bool,
}

/// The three kinds of pass, each with its own generated API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PassKind {
    /// A vertex (and pixel) stage drawn by one render pipeline.
    Render,
    /// A compute stage.
    Compute,
    /// A vertex, geometry (and pixel) stage: compute work in front of a draw
    /// (`docs/geometry.md`).
    Geometry,
}

impl Pass {
    /// Whether this is a compute pass (`compute = ...` instead of `vertex`/`pixel`).
    pub fn is_compute(&self) -> bool {
        self.vertex.stage == Stage::Compute
    }

    /// The kind of pass.
    pub fn kind(&self) -> PassKind {
        if self.is_compute() {
            PassKind::Compute
        } else if self.geometry.is_some() {
            PassKind::Geometry
        } else {
            PassKind::Render
        }
    }

    /// The generated stage type of a pass with a geometry shader and its prepared draw:
    /// `MainStage` and `MainPrepared` for pass `main`.
    pub fn stage_type_names(&self) -> (String, String) {
        let p = pascal_case(&self.name);
        (format!("{p}Stage"), format!("{p}Prepared"))
    }

    /// The stages' rules in pipeline order: vertex (or compute), geometry, pixel.
    pub fn stage_rules(&self) -> impl Iterator<Item = &StageRules> {
        std::iter::once(&self.vertex)
            .chain(self.geometry.as_ref().filter(|g| !g.implicit).map(|g| &g.rules))
            .chain(self.pixel.as_ref())
    }
}

/// How a stage's shader input is chosen per permutation: the first rule whose `when` matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageRules {
    /// The stage.
    pub stage: Stage,
    /// Span of the stage key.
    pub span: Span,
    /// Rules in order.
    pub rules: Vec<Rule>,
}

/// One rule: for the permutations matching `when`, the shader at `path` (and `symbol` for a
/// header).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// Condition (`None`: every permutation).
    pub when: Option<Condition>,
    /// File path pattern, relative to the shader directory.
    pub path: Pattern,
    /// Span of the path value.
    pub path_span: Span,
    /// Header symbol pattern.
    pub symbol: Option<Pattern>,
}

/// A shader input chosen for one permutation.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShaderRef {
    /// Resolved path.
    pub path: PathBuf,
    /// Header symbol, if any.
    pub symbol: Option<String>,
    /// View settings that apply to the stage, in declaration order: `[view_formats]` (as
    /// `u0=rgba8unorm` settings), then `[texture2dms_views]` (as `t0=single_sampled`;
    /// [`dxbc_wgsl::TranslateOptions::set_view_format`] takes both): part of what is translated,
    /// so of the identity of the input.
    pub view_formats: Vec<String>,
    /// Whether the container's checksum is verified (`[effect] verify_checksum`, default
    /// `true`); `false` reads a knowingly patched blob.
    pub verify_checksum: bool,
    /// How the pass uses it: as its own pipeline stage, or around a geometry shader. Part of
    /// what is translated, so of the identity of the input.
    pub role: ShaderRole,
}

/// How a shader is translated for its pass ([`ShaderRef::role`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum ShaderRole {
    /// Its own stage of a pipeline (a render pass's vertex and pixel shaders, a compute pass's
    /// compute shader, a geometry shader).
    #[default]
    Stage,
    /// The vertex shader of a pass with a geometry shader, translated as compute that pulls its
    /// inputs from vertex buffers ([`dxbc_wgsl::VertexStage::Compute`]).
    PulledVertex(dxbc_wgsl::geometry::VertexPulling),
    /// The pixel shader of a pass with a geometry shader
    /// ([`dxbc_wgsl::TranslateOptions::behind_geometry`]).
    BehindGeometry,
    /// The pixel shader of a pass whose vertex or geometry stage writes per-primitive values
    /// (SV_RenderTargetArrayIndex, SV_ViewportArrayIndex, a cull flag): drawn per layer and
    /// viewport ([`dxbc_wgsl::TranslateOptions::primitive_select`], docs/per-primitive.md).
    SelectedPixel {
        /// Behind a geometry shader too.
        behind_geometry: bool,
        /// Where the upstream stage writes each value.
        select: dxbc_wgsl::select::PrimitiveSelect,
    },
    /// The geometry shader of a pass with a stream-output declaration, translated keeping the
    /// streams it streams out and draws ([`dxbc_wgsl::TranslateOptions::geometry_streams`]).
    StreamOutGeometry(dxbc_wgsl::geometry::GeometryStreams),
    /// The implicit geometry stage of a pass that streams out without a geometry shader: the
    /// vertex shader's pass-through module ([`dxbc_wgsl::geometry::pass_through_geometry`]),
    /// made by the compiler from the vertex shader's translation (a [`Translator`] is never
    /// asked for it).
    ///
    /// [`Translator`]: crate::compile::Translator
    PassThrough {
        /// The primitive the pass draws.
        primitive: dxbc_wgsl::geometry::InputPrimitive,
        /// The streams kept.
        streams: dxbc_wgsl::geometry::GeometryStreams,
    },
}

/// [`ShaderRole::key`]'s text of a stream selection.
fn streams_key(s: &dxbc_wgsl::geometry::GeometryStreams) -> String {
    format!(
        "rasterized {}, streamed out {:#x}",
        s.rasterized.map_or("none".to_string(), |r| r.to_string()),
        s.stream_out
    )
}

impl ShaderRole {
    /// What the label adds to the file name: nothing for [`ShaderRole::Stage`].
    pub fn suffix(&self) -> &'static str {
        match self {
            ShaderRole::Stage => "",
            ShaderRole::PulledVertex(_) => " (vertex pulling)",
            ShaderRole::BehindGeometry => " (behind geometry)",
            ShaderRole::SelectedPixel { .. } => " (per-primitive selection)",
            ShaderRole::StreamOutGeometry(_) => " (stream output)",
            ShaderRole::PassThrough { .. } => " (pass-through geometry)",
        }
    }

    /// A canonical text of the role (the builder's cache key hashes it): empty for
    /// [`ShaderRole::Stage`].
    pub fn key(&self) -> String {
        match self {
            ShaderRole::Stage => String::new(),
            ShaderRole::BehindGeometry => "behind geometry".into(),
            ShaderRole::StreamOutGeometry(s) => format!("stream output, {}", streams_key(s)),
            ShaderRole::PassThrough { primitive, streams } => {
                format!("pass-through geometry of {primitive:?}, {}", streams_key(streams))
            }
            ShaderRole::SelectedPixel { behind_geometry, select } => {
                let source = |s: Option<dxbc_wgsl::select::SelectSource>| {
                    s.map_or("none".to_string(), |s| format!("{}.{}", s.location, s.component))
                };
                format!(
                    "per-primitive selection, layer {}, viewport {}, cull {}{}",
                    source(select.render_target_array_index),
                    source(select.viewport_array_index),
                    source(select.cull_flag),
                    if *behind_geometry { ", behind geometry" } else { "" }
                )
            }
            ShaderRole::PulledVertex(p) => {
                let mut k = format!("vertex pulling, {} record registers, strides", p.record_registers);
                for s in &p.strides {
                    k.push_str(&format!(" {s}"));
                }
                for e in &p.elements {
                    k.push_str(&format!(
                        "; v{} slot {} offset {} {}",
                        e.register,
                        e.slot,
                        e.offset,
                        e.format.webgpu_name()
                    ));
                    if let Some(r) = e.instance_step_rate {
                        k.push_str(&format!(" per instance {r}"));
                    }
                }
                k
            }
        }
    }
}

impl PartialOrd for ShaderRole {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ShaderRole {
    /// By kind, then by [`ShaderRole::key`] (which names every field of a pulling).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let rank = |r: &ShaderRole| match r {
            ShaderRole::Stage => 0,
            ShaderRole::PulledVertex(_) => 1,
            ShaderRole::BehindGeometry => 2,
            ShaderRole::SelectedPixel { .. } => 3,
            ShaderRole::StreamOutGeometry(_) => 4,
            ShaderRole::PassThrough { .. } => 5,
        };
        rank(self).cmp(&rank(other)).then_with(|| self.key().cmp(&other.key()))
    }
}

impl ShaderRef {
    /// A bare file (or header array): no view formats, checksum verified.
    pub fn file(path: impl Into<PathBuf>, symbol: Option<String>) -> ShaderRef {
        ShaderRef {
            path: path.into(),
            symbol,
            view_formats: Vec::new(),
            verify_checksum: true,
            role: ShaderRole::Stage,
        }
    }

    /// The same input in another role.
    pub fn with_role(&self, role: ShaderRole) -> ShaderRef {
        ShaderRef { role, ..self.clone() }
    }

    /// A short label: the file name, with `:symbol` for a header, and the role's
    /// [`ShaderRole::suffix`].
    pub fn label(&self) -> String {
        let file = self
            .path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.path.display().to_string());
        let name = match &self.symbol {
            Some(s) => format!("{file}:{s}"),
            None => file,
        };
        format!("{name}{}", self.role.suffix())
    }
}

impl Effect {
    /// Reads and parses an effect file.
    ///
    /// # Errors
    /// [`Diagnostics`] with file:line:column for every problem found (reading stops at the first
    /// structural error).
    pub fn load(path: &Path) -> Result<Effect, Diagnostics> {
        let cannot = |e: &dyn std::fmt::Display| {
            Diagnostic::file(path, format!("cannot read effect file: {e}")).with_kind(DiagnosticKind::Syntax)
        };
        // Bounded: `/dev/zero`, or a link to it, would never end.
        let bytes = crate::input::read_limited(path, crate::input::MAX_INPUT_BYTES).map_err(|e| cannot(&e))?;
        let source = String::from_utf8(bytes).map_err(|_| cannot(&"stream did not contain valid UTF-8"))?;
        Self::parse(path, source)
    }

    /// Parses effect-file text; `path` is used for positions and to resolve shader paths.
    ///
    /// # Errors
    /// See [`Effect::load`].
    pub fn parse(path: &Path, source: String) -> Result<Effect, Diagnostics> {
        parse::parse(path, source).map_err(Diagnostics::from)
    }

    /// A diagnostic of kind [`DiagnosticKind::Check`] at a span of the effect file.
    pub fn error(&self, span: &Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::span(&self.path, &self.source, span, message)
    }

    /// A diagnostic of `kind` at a span of the effect file.
    pub fn error_of(&self, kind: DiagnosticKind, span: &Span, message: impl Into<String>) -> Diagnostic {
        self.error(span, message).with_kind(kind)
    }

    /// Every permutation that exists, as value indices per axis, in lexicographic order of the
    /// axes as declared (the first axis varies slowest; `false` before `true`; enumeration values
    /// in declaration order). Excluded combinations are left out.
    pub fn permutations(&self) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        let mut cur = vec![0usize; self.axes.len()];
        loop {
            if !self.excludes.iter().any(|c| c.matches(&cur)) {
                out.push(cur.clone());
            }
            // Increment, last axis fastest.
            let mut i = self.axes.len();
            loop {
                if i == 0 {
                    return out;
                }
                i -= 1;
                cur[i] += 1;
                if cur[i] < self.axes[i].len() {
                    break;
                }
                cur[i] = 0;
            }
        }
    }

    /// Describes a permutation: `fog=true, lighting=pixel` (or `default` with no axes).
    pub fn describe(&self, values: &[usize]) -> String {
        if self.axes.is_empty() {
            return "the only permutation".into();
        }
        self.axes
            .iter()
            .zip(values)
            .map(|(a, &v)| format!("{}={}", a.name, a.value_names()[v]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The shader input of a stage for a permutation.
    ///
    /// # Errors
    /// A diagnostic at the stage key when no rule matches.
    pub fn shader_for(&self, rules: &StageRules, values: &[usize]) -> Result<ShaderRef, Diagnostic> {
        let Some(rule) = rules.rules.iter().find(|r| r.when.as_ref().is_none_or(|c| c.matches(values))) else {
            return Err(self.error(
                &rules.span,
                format!(
                    "no {} shader rule matches the permutation {} (add a rule without `when`, or exclude the \
                     combination in [permutations])",
                    rules.stage.name(),
                    self.describe(values)
                ),
            ));
        };
        Ok(ShaderRef {
            path: self.shader_dir.join(rule.path.expand(values)),
            symbol: rule.symbol.as_ref().map(|s| s.expand(values)),
            view_formats: self
                .view_formats
                .iter()
                .filter(|v| v.stages.as_ref().is_none_or(|s| s.contains(&rules.stage)))
                .map(ViewFormatDecl::setting)
                .chain(
                    self.texture2dms_views
                        .iter()
                        .filter(|v| v.stages.as_ref().is_none_or(|s| s.contains(&rules.stage)))
                        .map(Texture2dmsViewDecl::setting),
                )
                .collect(),
            verify_checksum: self.verify_checksum,
            role: ShaderRole::Stage,
        })
    }

    /// The rule chosen for a permutation (for positions in diagnostics).
    pub fn rule_for<'a>(&self, rules: &'a StageRules, values: &[usize]) -> Option<&'a Rule> {
        rules.rules.iter().find(|r| r.when.as_ref().is_none_or(|c| c.matches(values)))
    }
}

/// `BasicEffect` → `basic_effect`; `DualTextureEffect` → `dual_texture_effect`;
/// `SV_Position` → `sv_position`; `HDRToneMap` → `hdr_tone_map`.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev = if i > 0 { Some(chars[i - 1]) } else { None };
            let next = chars.get(i + 1).copied();
            let boundary = match prev {
                Some(p) if p.is_ascii_lowercase() => true,
                // After a digit or an acronym, only where a word starts: `Vec3Normal` →
                // `vec3_normal`, `D3D11` → `d3d11`, `Texture2DArray` → `texture2d_array`.
                Some(p) if p.is_ascii_uppercase() || p.is_ascii_digit() => next.is_some_and(|n| n.is_ascii_lowercase()),
                _ => false,
            };
            if boundary && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    // Generated code uses the result as an identifier: never empty, never a keyword (`Type` →
    // `type_`, `Self` → `self_`).
    if out.is_empty() {
        out.push_str("unnamed");
    }
    if is_keyword(&out) {
        out.push('_');
    }
    out
}

/// `one_light` → `OneLight`; `texture` → `Texture`; `BasicEffect` → `BasicEffect`.
pub fn pascal_case(name: &str) -> String {
    let mut out = String::new();
    for word in snake_case(name).split('_').filter(|w| !w.is_empty()) {
        let mut cs = word.chars();
        if let Some(f) = cs.next() {
            out.push(f.to_ascii_uppercase());
            out.extend(cs);
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) || out.is_empty() {
        out.insert(0, 'V');
    }
    out
}

/// Whether `name` is a Rust keyword (strict or reserved), which a generated identifier must avoid.
pub fn is_keyword(name: &str) -> bool {
    matches!(
        name,
        "as" | "break"
            | "const"
            | "continue"
            | "crate"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "Self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "gen"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_conversions() {
        assert_eq!(snake_case("BasicEffect"), "basic_effect");
        assert_eq!(snake_case("WorldViewProj"), "world_view_proj");
        assert_eq!(snake_case("SV_Position"), "sv_position");
        assert_eq!(snake_case("HDRToneMap"), "hdr_tone_map");
        assert_eq!(snake_case("LightDirection"), "light_direction");
        assert_eq!(snake_case("TEXCOORD"), "texcoord");
        assert_eq!(snake_case("g_Mat4x4"), "g_mat4x4");
        assert_eq!(snake_case("g_FullScreenTriangle_VS_D3D11"), "g_full_screen_triangle_vs_d3d11");
        assert_eq!(snake_case("Vec3Normal"), "vec3_normal");
        assert_eq!(snake_case("Texture2DArray"), "texture2d_array");
        assert_eq!(snake_case("PSHDR10Tonemap"), "pshdr10_tonemap");
        assert_eq!(pascal_case("one_light"), "OneLight");
        assert_eq!(pascal_case("Parameters"), "Parameters");
        assert_eq!(pascal_case("none"), "None");
    }
}

#[cfg(test)]
mod identifier_tests {
    use super::snake_case;

    /// Names from effect files and blobs become Rust identifiers: keywords get a trailing `_`, and
    /// a name with no letters still yields an identifier.
    #[test]
    fn snake_case_never_yields_a_keyword_or_nothing() {
        assert_eq!(snake_case("Type"), "type_");
        assert_eq!(snake_case("Self"), "self_");
        assert_eq!(snake_case("crate"), "crate_");
        assert_eq!(snake_case("_"), "unnamed");
        assert_eq!(snake_case("DiffuseColor"), "diffuse_color");
    }
}
