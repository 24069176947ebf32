//! Loading an effect's shader inputs, translating them, and checking them against the effect
//! file: the step between [`Effect`] and [`crate::codegen::generate`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, DiagnosticKind, Diagnostics};
use crate::effect::layout::Rules;
use crate::effect::states::{draw_topology_name, input_primitive_name};
use crate::effect::{pascal_case, snake_case, Effect, ResourceClass, ShaderRef, ShaderRole, Span, Stage, StageRules};
use crate::reflect::{self, ReflectedLayout};
use crate::stage::StageInfo;
use crate::vertex_layout::InputLayout;
use dxbc_wgsl::{BindingClass as RegisterClass, Builtin, ResourceKind as BindingKind};

/// An effect with every permutation's shaders translated and checked.
#[derive(Debug, Clone)]
pub struct CompiledEffect {
    /// The effect file's model.
    pub effect: Effect,
    /// Every permutation that exists, as value indices per axis (see [`Effect::permutations`]).
    pub permutations: Vec<Vec<usize>>,
    /// Distinct shaders (by WGSL text).
    pub shaders: Vec<CompiledShader>,
    /// Per pass, per permutation: the shaders used.
    pub passes: Vec<Vec<Variant>>,
    /// Fields of the generated `Resources` struct (in an effect with render and compute passes,
    /// of `Resources` and `ComputeResources` together: the plan splits them per kind of pass).
    pub resources: Vec<ResourceField>,
    /// Every file read: the effect file first, then the shader inputs (sorted).
    pub inputs: Vec<PathBuf>,
    /// The distinct input layouts the vertex shaders of passes with a geometry shader pull
    /// ([`GeometryVariant::input_layout`]).
    pub input_layouts: Vec<InputLayout>,
    /// The distinct resolved stream-output declarations ([`GeometryVariant::stream_output`]).
    pub stream_outputs: Vec<dxbc_wgsl::geometry::SoDeclaration>,
}

impl CompiledEffect {
    /// Whether the effect has both render passes and compute passes.
    pub fn is_mixed(&self) -> bool {
        let compute = self.effect.passes.iter().filter(|p| p.is_compute()).count();
        compute > 0 && compute < self.effect.passes.len()
    }
}

/// One distinct translated shader.
#[derive(Debug, Clone)]
pub struct CompiledShader {
    /// Name of its `wgsl::` constant.
    pub const_name: String,
    /// Its sources (file[:symbol]); several when different inputs translate identically.
    pub labels: Vec<String>,
    /// The translation.
    pub info: StageInfo,
    /// Per binding of `info.bindings`, by its `@binding` number (unique in the shader's group;
    /// a UAV and its hidden counter share a register), the field of
    /// [`CompiledEffect::resources`] it binds (an index), decided once when the bindings are
    /// checked.
    pub fields: BTreeMap<u32, usize>,
}

/// The shaders of one pass for one permutation (indices into [`CompiledEffect::shaders`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    /// Vertex shader (in a pass with a geometry shader, translated as compute pulling the pass's
    /// input layout); a compute pass's compute shader.
    pub vertex: usize,
    /// Pixel shader (in a pass with a geometry shader, translated behind geometry).
    pub pixel: Option<usize>,
    /// The geometry stage, in a pass with a geometry shader.
    pub geometry: Option<GeometryVariant>,
}

impl Variant {
    /// The shaders that bind the effect's resources, in group order of their stages: vertex
    /// (or compute), pixel, geometry (the draw's vertex shader binds none).
    pub fn stages(&self) -> impl Iterator<Item = usize> {
        std::iter::once(self.vertex).chain(self.pixel).chain(self.geometry.map(|g| g.geometry))
    }
}

/// The geometry stage of a pass for one permutation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GeometryVariant {
    /// The geometry shader (index into [`CompiledEffect::shaders`]; its
    /// [`StageInfo::geometry`] is set).
    pub geometry: usize,
    /// The draw's pass-through vertex shader ([`dxbc_wgsl::geometry_draw_vertex_shader`] of the
    /// geometry shader with the pixel shader's interpolation).
    pub draw_vertex: usize,
    /// The input layout the vertex shader pulls (index into [`CompiledEffect::input_layouts`]).
    pub input_layout: usize,
    /// The pass's stream-output declaration resolved against the output signature of the
    /// geometry shader (or of the vertex shader, for an implicit geometry stage): index into
    /// [`CompiledEffect::stream_outputs`].
    pub stream_output: Option<usize>,
}

/// The inputs a pass and permutation chose (before they are translated and merged).
struct Choice {
    vertex: Option<ShaderRef>,
    geometry: Option<ShaderRef>,
    /// In a pass with a geometry shader: the vertex shader pulling its layout.
    pulled: Option<(ShaderRef, InputLayout)>,
    pixel: Option<ShaderRef>,
}

/// Where a compiled shader comes from: a shader input in its role, or the draw vertex shader of
/// a geometry shader with a pixel shader's interpolation.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    Input(ShaderRef),
    Draw(ShaderRef, Option<ShaderRef>),
}

/// The pixel-shader inputs' writer [`check_link`] checks: the vertex shader, or, behind a
/// geometry shader, the draw's vertex shader, named after the geometry shader.
#[derive(Clone, Copy)]
struct Writer<'a> {
    stage: &'static str,
    label: &'a str,
    shader: &'a CompiledShader,
}

/// What a `Resources` field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// A `wgpu::Buffer` bound as uniform buffer (a constant buffer).
    UniformBuffer,
    /// A `wgpu::Buffer` bound as storage buffer.
    StorageBuffer,
    /// A `wgpu::Buffer` holding a structured UAV's hidden counter in its first 4 bytes
    /// (`imm_atomic_alloc`/`imm_atomic_consume`), bound as a read-write storage buffer: the
    /// count D3D sets when the view is bound, and copies out with `CopyStructureCount`.
    CounterBuffer,
    /// A `wgpu::TextureView`.
    TextureView,
    /// A `wgpu::Sampler`.
    Sampler,
}

/// A field of the generated `Resources` struct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceField {
    /// Rust field name.
    pub name: String,
    /// What it holds.
    pub kind: FieldKind,
    /// Whether every permutation of every pass binds it (else the field is an `Option`).
    pub required: bool,
    /// The constant buffer it is, if it is one (index into [`Effect::cbuffers`]).
    pub cbuffer: Option<usize>,
    /// Registers and stages it serves, e.g. `b0 (vertex, pixel)`.
    pub registers: Vec<(Stage, String)>,
    /// Kinds seen (for docs), e.g. `texture_2d<f32>`.
    pub kinds: Vec<String>,
    /// Documentation from the effect file.
    pub doc: Option<String>,
}

/// Why a shader input did not become a [`StageInfo`]: the translator interface's typed error.
/// Callers match on the variant (a missing file, the refusal and its register); its `Display`
/// is the one-line message users see.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ShaderError {
    /// The input file does not exist.
    #[error("shader file not found: {}", .0.display())]
    NotFound(PathBuf),
    /// The input exists but cannot be used: not a regular file, too large, unreadable, neither a
    /// container nor a header, or no such header array. The message names the path.
    #[error("{0}")]
    Input(String),
    /// The translator refused the shader or could not read it ([`dxbc_wgsl::TranslateError`]).
    #[error("{0}")]
    Translate(dxbc_wgsl::TranslateError),
    /// The translator panicked (a translator bug, reported rather than crashing the build).
    #[error("internal error: the translator panicked: {0}")]
    Panic(String),
    /// A stage effect passes do not have (geometry, hull, domain).
    #[error("{} shaders cannot be used in an effect pass", .0.name())]
    Stage(dxbc_wgsl::ShaderStage),
    /// A view-format setting the translator does not accept.
    #[error("{0}")]
    Options(String),
}

impl ShaderError {
    /// The kind of the diagnostic that reports it.
    pub fn diagnostic_kind(&self) -> DiagnosticKind {
        match self {
            ShaderError::NotFound(_)
            | ShaderError::Input(_)
            | ShaderError::Translate(dxbc_wgsl::TranslateError::Read(_)) => DiagnosticKind::Input,
            ShaderError::Translate(dxbc_wgsl::TranslateError::Unsupported(r)) => {
                DiagnosticKind::Translation(Some(r.reason))
            }
            ShaderError::Translate(_) | ShaderError::Panic(_) => DiagnosticKind::Translation(None),
            ShaderError::Stage(_) | ShaderError::Options(_) => DiagnosticKind::Check,
        }
    }

    /// The refusal, when the translator refused the shader.
    pub fn refusal(&self) -> Option<&dxbc_wgsl::Refusal> {
        match self {
            ShaderError::Translate(dxbc_wgsl::TranslateError::Unsupported(r)) => Some(r),
            _ => None,
        }
    }
}

/// Reads shader inputs and translates them. [`Builder`](crate::Builder) caches; the macro and the
/// CLI translate directly.
pub trait Translator {
    /// Translates the DXBC container `bytes` read for `shader`.
    ///
    /// # Errors
    /// Why it did not translate ([`ShaderError`]).
    fn translate(&mut self, shader: &ShaderRef, bytes: &[u8]) -> Result<StageInfo, ShaderError>;
}

/// Translates with [`dxbc_wgsl::translate`] and the input's options ([`translate_options`]).
#[derive(Debug, Default, Clone, Copy)]
pub struct DirectTranslator;

impl Translator for DirectTranslator {
    fn translate(&mut self, shader: &ShaderRef, bytes: &[u8]) -> Result<StageInfo, ShaderError> {
        translate_bytes_with(bytes, &translate_options(shader).map_err(ShaderError::Options)?)
    }
}

/// The translator options of a shader input: its stage's `[view_formats]` and
/// `[texture2dms_views]`, whether the checksum is verified (`[effect] verify_checksum`), and its
/// role around a geometry shader ([`ShaderRole`]: a vertex shader pulling its inputs, a pixel
/// shader behind geometry).
///
/// # Errors
/// A setting the translator does not accept (the parser has checked them).
pub fn translate_options(shader: &ShaderRef) -> Result<dxbc_wgsl::TranslateOptions, String> {
    let mut options = dxbc_wgsl::TranslateOptions {
        skip_checksum: !shader.verify_checksum,
        vertex_stage: match &shader.role {
            ShaderRole::PulledVertex(p) => dxbc_wgsl::VertexStage::Compute(p.clone()),
            _ => dxbc_wgsl::VertexStage::Render,
        },
        behind_geometry: matches!(
            shader.role,
            ShaderRole::BehindGeometry | ShaderRole::SelectedPixel { behind_geometry: true, .. }
        ),
        primitive_select: match shader.role {
            ShaderRole::SelectedPixel { select, .. } => Some(select),
            _ => None,
        },
        geometry_streams: match shader.role {
            ShaderRole::StreamOutGeometry(streams) => streams,
            _ => Default::default(),
        },
        ..Default::default()
    };
    if let ShaderRole::PassThrough { .. } = shader.role {
        return Err(format!(
            "internal error: {} is a pass-through geometry stage, made from its vertex shader's translation",
            shader.label()
        ));
    }
    // `[view_formats]` and `[texture2dms_views]` settings alike.
    for s in &shader.view_formats {
        options.set_view_format(s)?;
    }
    Ok(options)
}

/// Translates one container with default options into a [`StageInfo`].
///
/// # Errors
/// The translator's error ([`ShaderError::Translate`], [`ShaderError::Panic`]), or
/// [`ShaderError::Stage`] for a stage effects do not support.
pub fn translate_bytes(bytes: &[u8]) -> Result<StageInfo, ShaderError> {
    translate_bytes_with(bytes, &dxbc_wgsl::TranslateOptions::default())
}

/// Translates one container with the given options into a [`StageInfo`].
///
/// # Errors
/// See [`translate_bytes`].
pub fn translate_bytes_with(bytes: &[u8], options: &dxbc_wgsl::TranslateOptions) -> Result<StageInfo, ShaderError> {
    let t = guarded(|| dxbc_wgsl::translate(bytes, options))?;
    StageInfo::from_translation(&t).ok_or(ShaderError::Stage(t.stage))
}

/// Runs the translator: its error as [`ShaderError::Translate`], a panic (a translator bug, but
/// still a diagnostic here, never a panic of the build) as [`ShaderError::Panic`].
fn guarded<T>(f: impl FnOnce() -> Result<T, dxbc_wgsl::TranslateError>) -> Result<T, ShaderError> {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| {
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".into());
        ShaderError::Panic(msg)
    })?;
    result.map_err(ShaderError::Translate)
}

/// The draw's pass-through vertex shader of a geometry shader's translation
/// ([`dxbc_wgsl::geometry_draw_vertex_shader`]), with the pixel shader's interpolation by input
/// register.
///
/// # Errors
/// The translator's ([`ShaderError::Translate`], [`ShaderError::Panic`]).
pub fn draw_vertex_shader(
    gs: &StageInfo,
    interpolation: &[(u32, dxbc_wgsl::Interpolation)],
) -> Result<StageInfo, ShaderError> {
    let t = dxbc_wgsl::Translation {
        wgsl: gs.wgsl.clone(),
        stage: dxbc_wgsl::ShaderStage::Geometry,
        shader_model: gs.shader_model,
        entry_point: gs.entry_point.clone(),
        inputs: gs.inputs.clone(),
        outputs: gs.outputs.clone(),
        bindings: gs.bindings.clone(),
        workgroup_size: gs.workgroup_size,
        workgroup_storage_bytes: gs.workgroup_storage_bytes,
        derivative_uniformity_off: false,
        required_features: gs.required_features.clone(),
        geometry: gs.geometry.clone(),
        pipeline_constants: gs.pipeline_constants.clone(),
        per_primitive: gs.per_primitive,
    };
    let draw = guarded(|| dxbc_wgsl::geometry_draw_vertex_shader(&t, interpolation))?;
    StageInfo::from_translation(&draw).ok_or(ShaderError::Stage(draw.stage))
}

/// The implicit geometry stage of a pass that streams out without a geometry shader: the
/// pass-through module ([`dxbc_wgsl::geometry::pass_through_geometry`]) of the vertex shader's
/// translation `vs`, passing on every output register of its records (through the highest one it
/// writes) for `primitive`, keeping `streams`. Its outputs are the vertex shader's, at their
/// registers (the draw's vertex shader and the stream-output declaration read them there).
///
/// # Errors
/// The library's ([`ShaderError::Translate`]): a patch list, a vertex shader writing no register
/// or more than 32.
pub fn pass_through_stage(
    vs: &StageInfo,
    primitive: dxbc_wgsl::geometry::InputPrimitive,
    streams: dxbc_wgsl::geometry::GeometryStreams,
) -> Result<StageInfo, ShaderError> {
    let registers = vs.outputs.iter().map(|o| o.register + 1).max().unwrap_or(0);
    let position = vs.outputs.iter().find(|o| o.builtin == Some(Builtin::Position)).map(|o| o.register);
    let (wgsl, info) = guarded(|| dxbc_wgsl::geometry::pass_through_geometry(primitive, registers, position, streams))?;
    Ok(StageInfo {
        stage: Stage::Geometry,
        shader_model: vs.shader_model,
        wgsl,
        entry_point: "main".into(),
        inputs: vs.outputs.clone(),
        outputs: vs
            .outputs
            .iter()
            .map(|o| dxbc_wgsl::InterfaceVar { location: Some(o.register), ..o.clone() })
            .collect(),
        bindings: Vec::new(),
        workgroup_size: None,
        workgroup_storage_bytes: 0,
        required_features: Vec::new(),
        geometry: Some(info),
        pipeline_constants: Vec::new(),
        per_primitive: Default::default(),
    })
}

/// Reads and translates a shader input once (the first time it is asked for).
fn load(r: &ShaderRef, loaded: &mut BTreeMap<ShaderRef, Loaded>, inputs: &mut Vec<PathBuf>, t: &mut dyn Translator) {
    if loaded.contains_key(r) {
        return;
    }
    if !inputs.contains(&r.path) {
        inputs.push(r.path.clone());
    }
    let bytes = read_shader(r);
    let reflection = bytes.as_deref().map_or(Ok(None), |b| reflection_of(b, r.verify_checksum));
    let info = bytes.and_then(|bytes| t.translate(r, &bytes));
    loaded.insert(r.clone(), Loaded { info, reflection });
}

pub use crate::input::{read_limited, MAX_INPUT_BYTES};

/// Reads a shader input: a raw container (`.dxbc`, `.cso`, anything starting with `DXBC`), or an
/// fxc `/Fh` header selected by symbol.
///
/// # Errors
/// [`ShaderError::NotFound`], or [`ShaderError::Input`] naming the path (and symbol) when the
/// file cannot be used.
pub fn read_shader(shader: &ShaderRef) -> Result<Vec<u8>, ShaderError> {
    // Only regular files, and not without bound: `/dev/zero` or a symlink to it would never end.
    const MAX_INPUT: u64 = MAX_INPUT_BYTES;
    if let Ok(meta) = std::fs::metadata(&shader.path) {
        if !meta.is_file() {
            return Err(ShaderError::Input(format!("{} is not a regular file", shader.path.display())));
        }
        if meta.len() > MAX_INPUT {
            return Err(ShaderError::Input(format!(
                "{} is {} bytes; shader inputs are limited to {MAX_INPUT}",
                shader.path.display(),
                meta.len()
            )));
        }
    }
    // Bounded again while reading: the file may have grown since its metadata was read.
    let bytes = read_limited(&shader.path, MAX_INPUT).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ShaderError::NotFound(shader.path.clone()),
        std::io::ErrorKind::FileTooLarge => ShaderError::Input(format!(
            "{} holds more than {MAX_INPUT} bytes; shader inputs are limited to {MAX_INPUT}",
            shader.path.display()
        )),
        _ => ShaderError::Input(format!("cannot read {}: {e}", shader.path.display())),
    })?;
    if bytes.starts_with(b"DXBC") {
        if let Some(s) = &shader.symbol {
            return Err(ShaderError::Input(format!(
                "{} is a DXBC container, not a header: `symbol = \"{s}\"` does not apply",
                shader.path.display()
            )));
        }
        return Ok(bytes);
    }
    // A `.dxbc`/`.cso` file is a container by its name: text there is not read as a header.
    let ext = shader.path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    if matches!(ext.as_deref(), Some("dxbc" | "cso")) {
        return Err(ShaderError::Input(format!(
            "{} is not a DXBC container (it does not start with `DXBC`; fxc /Fh headers are read from `.h`/`.inc` \
             files)",
            shader.path.display()
        )));
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        ShaderError::Input(format!(
            "{} is neither a DXBC container (it does not start with `DXBC`) nor a text header",
            shader.path.display()
        ))
    })?;
    let blobs = dxbc_wgsl::header::parse_header(&text)
        .map_err(|e| ShaderError::Input(format!("{}: {e}", shader.path.display())))?;
    let blob = dxbc_wgsl::header::select(blobs, shader.symbol.as_deref())
        .map_err(|e| ShaderError::Input(format!("{}: {e}", shader.path.display())))?;
    Ok(blob.bytes)
}

struct Loaded {
    info: Result<StageInfo, ShaderError>,
    /// The constant-buffer layouts of its reflection (`None`: no RDEF chunk).
    reflection: Result<Option<Vec<ReflectedLayout>>, String>,
}

/// The reflected constant-buffer layouts of a shader input, `Ok(None)` when it has no RDEF chunk
/// (or is not a container the reflection can be read from: translating it reports why).
fn reflection_of(bytes: &[u8], verify_checksum: bool) -> Result<Option<Vec<ReflectedLayout>>, String> {
    let Ok(container) = dxbc_wgsl::Container::parse(bytes, &dxbc_wgsl::ReadOptions { verify_checksum }) else {
        return Ok(None);
    };
    let Some(chunk) = container.chunk(b"RDEF") else {
        return Ok(None);
    };
    let r = dxbc_wgsl::chunks::rdef::parse(chunk).map_err(|e| format!("its reflection (RDEF) cannot be read: {e}"))?;
    Ok(Some(reflect::layouts_of(&r, &Rules::HLSL)))
}

/// Type names the generated module defines itself.
pub const RESERVED_TYPES: &[&str] = &[
    "Permutation",
    "Pass",
    "Shaders",
    "StageShader",
    "Resources",
    "MissingResource",
    "Layouts",
    "BindGroups",
    "PipelineOptions",
    "VariantInfo",
    "RenderPass",
    "ComputePass",
    "ComputeShaders",
    "ComputeResources",
    "ComputeLayouts",
    "ComputeBindGroups",
    "Technique",
    "Step",
    "GeometryPass",
    "GeometryShaders",
    "GeometryResources",
    "GeometryLayouts",
    "GeometryBindGroups",
    "GeometryPipelineOptions",
    "GeometryVariantInfo",
    "StreamOutputPassError",
];

/// Loads, translates and checks every permutation of an effect.
///
/// # Errors
/// Every problem found, each at a position in the effect file.
pub fn compile(mut effect: Effect, translator: &mut dyn Translator) -> Result<CompiledEffect, Diagnostics> {
    let mut errors: Vec<Diagnostic> = Vec::new();
    let push = |errors: &mut Vec<Diagnostic>, d: Diagnostic| {
        if !errors.contains(&d) {
            errors.push(d);
        }
    };
    // A shader folder that does not exist is one error at `shader_dir`, not one per shader.
    if let Some(span) = &effect.shader_dir_span {
        // `shader_dir = "."` beside an effect file named without a folder is the empty path.
        let dir = if effect.shader_dir.as_os_str().is_empty() { Path::new(".") } else { &effect.shader_dir };
        if !dir.is_dir() {
            return Err(Diagnostics(vec![effect.error(
                span,
                format!("shader_dir: no folder {} (relative to the effect file's folder)", dir.display()),
            )]));
        }
    }
    // Every combination of axis values is a permutation: bound the product before enumerating it
    // (an effect with 20 bool axes would otherwise generate a million-entry table).
    const MAX_PERMUTATIONS: u128 = 4096;
    let combinations = effect.axes.iter().try_fold(1u128, |acc, a| acc.checked_mul(a.len() as u128));
    if combinations.is_none_or(|n| n > MAX_PERMUTATIONS) {
        let span = effect.axes.iter().map(|a| &a.span).next_back().cloned().unwrap_or_default();
        return Err(Diagnostics(vec![effect.error(
            &span,
            format!(
                "the axes allow more than {MAX_PERMUTATIONS} combinations; split the effect or exclude combinations"
            ),
        )]));
    }
    let permutations = effect.permutations();

    // Generated type names must not collide.
    let mut types: Vec<(String, String)> = RESERVED_TYPES.iter().map(|t| (t.to_string(), "generated".into())).collect();
    for a in &effect.axes {
        if let crate::effect::AxisKind::Enum(_) = a.kind {
            let t = pascal_case(&a.name);
            if let Some((_, what)) = types.iter().find(|(n, _)| *n == t) {
                push(
                    &mut errors,
                    effect.error(
                        &a.span,
                        format!("axis `{}` would generate type `{t}`, which is already a {what} type", a.name),
                    ),
                );
            }
            types.push((t, "axis".into()));
        }
    }
    // A pass with a geometry shader gets a stage type and a prepared-draw type.
    for p in effect.passes.iter().filter(|p| p.geometry.is_some()) {
        let (stage, prepared) = p.stage_type_names();
        for t in [stage, prepared] {
            if let Some((_, what)) = types.iter().find(|(n, _)| *n == t) {
                push(
                    &mut errors,
                    effect.error(
                        &p.span,
                        format!(
                            "pass `{}` would generate type `{t}`, which is already a {what} type; rename the pass",
                            p.name
                        ),
                    ),
                );
            }
            types.push((t, "pass".into()));
        }
    }
    for l in &effect.layouts {
        let t = pascal_case(&l.name);
        if let Some((_, what)) = types.iter().find(|(n, _)| *n == t) {
            push(
                &mut errors,
                effect.error(
                    &l.span,
                    format!(
                        "layout `{}` would generate struct `{t}`, which is already a {what} type; rename the layout",
                        l.name
                    ),
                ),
            );
        }
        types.push((t, "layout".into()));
    }

    // Resolve every stage's input per permutation, and load each distinct input once. A pass
    // with a geometry shader translates its pixel shader behind geometry and, once its vertex
    // and geometry shaders are read, its vertex shader again as compute pulling the pass's input
    // layout into records of the geometry shader's `input_registers`.
    let mut loaded: BTreeMap<ShaderRef, Loaded> = BTreeMap::new();
    let mut choice: Vec<Vec<Choice>> = Vec::new();
    let mut inputs: Vec<PathBuf> = Vec::new();
    for pass in &effect.passes {
        let mut per_perm = Vec::new();
        for values in &permutations {
            let mut pick =
                |rules: &StageRules, role: ShaderRole, loaded: &mut BTreeMap<ShaderRef, Loaded>| -> Option<ShaderRef> {
                    match effect.shader_for(rules, values) {
                        Ok(r) => {
                            let r = r.with_role(role);
                            load(&r, loaded, &mut inputs, translator);
                            Some(r)
                        }
                        Err(d) => {
                            push(&mut errors, d);
                            None
                        }
                    }
                };
            let geometry = pass.geometry.as_ref();
            let v = pick(&pass.vertex, ShaderRole::Stage, &mut loaded);
            // A pass with stream output translates its geometry shader keeping the streams its
            // declaration writes and draws; without a geometry shader its geometry stage is the
            // vertex shader's pass-through module.
            let streams = pass.stream_output.as_ref().map(|d| d.geometry_streams());
            let g = match (geometry, streams) {
                (Some(g), Some(streams)) if g.implicit => v.as_ref().map(|v| {
                    let r = v.with_role(ShaderRole::PassThrough { primitive: g.topology.input_primitive(), streams });
                    if !loaded.contains_key(&r) {
                        let info = match &loaded[v].info {
                            Ok(vs) if vs.stage == Stage::Vertex => {
                                pass_through_stage(vs, g.topology.input_primitive(), streams)
                            }
                            // Reported at the vertex shader.
                            Ok(_) | Err(_) => Err(ShaderError::Options("its vertex shader did not translate".into())),
                        };
                        loaded.insert(r.clone(), Loaded { info, reflection: Ok(None) });
                    }
                    r
                }),
                (Some(g), streams) => {
                    pick(&g.rules, streams.map_or(ShaderRole::Stage, ShaderRole::StreamOutGeometry), &mut loaded)
                }
                (None, _) => None,
            };
            // The stage in front of the rasterizer writes per-primitive values: the pixel shader
            // is drawn per layer and viewport (docs/per-primitive.md).
            let upstream = g.as_ref().or(v.as_ref()).and_then(|r| loaded.get(r)).and_then(|l| l.info.as_ref().ok());
            let select = upstream.map(|i| i.per_primitive).filter(|s| s.selects());
            let pixel_role = match (select, geometry.is_some()) {
                (Some(select), behind_geometry) => ShaderRole::SelectedPixel { behind_geometry, select },
                (None, true) => ShaderRole::BehindGeometry,
                (None, false) => ShaderRole::Stage,
            };
            let mut unselected = None;
            if select.is_some() && pass.pixel.is_none() {
                // Fail closed: without a pixel shader nothing would discard the primitives of
                // the other layers and viewports.
                unselected = Some(effect.error(
                    &pass.vertex.span,
                    format!(
                        "pass `{}`: its {} shader writes SV_RenderTargetArrayIndex, SV_ViewportArrayIndex or \
                             SV_CullDistance, which a pass without a pixel shader cannot draw per primitive yet \
                             (docs/per-primitive.md)",
                        pass.name,
                        if geometry.is_some() { "geometry" } else { "vertex" }
                    ),
                ));
            }
            let p = pass.pixel.as_ref().and_then(|rules| pick(rules, pixel_role, &mut loaded));
            if let Some(d) = unselected {
                push(&mut errors, d);
            }
            let mut pulled = None;
            if let (Some(v), Some(g)) = (&v, &g) {
                let vinfo = loaded[v].info.as_ref().ok().filter(|i| i.stage == Stage::Vertex);
                let ginfo = loaded[g].info.as_ref().ok().and_then(|i| i.geometry.as_ref());
                if let (Some(vinfo), Some(ginfo)) = (vinfo, ginfo) {
                    let layout = InputLayout::new(&vinfo.inputs, &effect.vertex_formats, &effect.instance_data);
                    let r = v.with_role(ShaderRole::PulledVertex(layout.pulling(ginfo.input_registers)));
                    load(&r, &mut loaded, &mut inputs, translator);
                    pulled = Some((r, layout));
                }
            }
            per_perm.push(Choice { vertex: v, geometry: g, pulled, pixel: p });
        }
        choice.push(per_perm);
    }

    // Report load/translation failures at the rule that chose the input.
    let rule_span = |rules: &StageRules, values: &[usize]| -> Span {
        effect.rule_for(rules, values).map(|r| r.path_span.clone()).unwrap_or(rules.span.clone())
    };
    let mut missing_reported: std::collections::BTreeSet<ShaderRef> = std::collections::BTreeSet::new();
    for (pi, pass) in effect.passes.iter().enumerate() {
        for (vi, values) in permutations.iter().enumerate() {
            let c = &choice[pi][vi];
            let stages = [
                (c.vertex.as_ref(), Some(&pass.vertex)),
                (c.pulled.as_ref().map(|(r, _)| r), Some(&pass.vertex)),
                (c.geometry.as_ref(), pass.geometry.as_ref().map(|g| &g.rules)),
                (c.pixel.as_ref(), pass.pixel.as_ref()),
            ];
            for (r, rules) in stages {
                let (Some(r), Some(rules)) = (r, rules) else {
                    continue;
                };
                // An implicit geometry stage fails only with its vertex shader, reported there.
                if matches!(r.role, ShaderRole::PassThrough { .. })
                    && c.vertex.as_ref().is_none_or(|v| loaded[v].info.is_err())
                {
                    continue;
                }
                match &loaded[r].info {
                    // A missing file: once, naming the first permutation that needs it.
                    Err(msg @ ShaderError::NotFound(_)) => {
                        if missing_reported.insert(r.with_role(ShaderRole::Stage)) {
                            push(
                                &mut errors,
                                effect.error_of(
                                    DiagnosticKind::Input,
                                    &rule_span(rules, values),
                                    format!(
                                        "{} shader of pass `{}`: {msg} (needed by {}{}){}",
                                        rules.stage.name(),
                                        pass.name,
                                        if effect.axes.is_empty() { String::new() } else { "permutation ".into() },
                                        effect.describe(values),
                                        if effect.axes.is_empty() {
                                            ""
                                        } else {
                                            "; a combination that does not exist is excluded in [permutations]"
                                        }
                                    ),
                                ),
                            );
                        }
                    }
                    Err(msg) => push(
                        &mut errors,
                        effect.error_of(
                            msg.diagnostic_kind(),
                            &rule_span(rules, values),
                            format!(
                                "{} shader {} of pass `{}`: {msg}{}",
                                rules.stage.name(),
                                r.label(),
                                pass.name,
                                view_format_hint(&effect, rules.stage, msg.refusal())
                            ),
                        ),
                    ),
                    Ok(info) if info.stage != rules.stage => push(
                        &mut errors,
                        effect.error(
                            &rule_span(rules, values),
                            format!(
                                "{} is a {} shader, but pass `{}` uses it as its {} shader",
                                r.with_role(ShaderRole::Stage).label(),
                                info.stage.name(),
                                pass.name,
                                rules.stage.name()
                            ),
                        ),
                    ),
                    Ok(info) if rules.stage == Stage::Geometry && info.geometry.is_none() => push(
                        &mut errors,
                        effect.error_of(
                            DiagnosticKind::Translation(None),
                            &rule_span(rules, values),
                            format!(
                                "internal error: the translation of geometry shader {} of pass `{}` describes no \
                                 primitive stage",
                                r.label(),
                                pass.name
                            ),
                        ),
                    ),
                    Ok(_) => {}
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics::sorted(errors));
    }

    // What only a pass with a geometry shader checks: the draw's topology feeds the geometry
    // shader's input primitive, the vertex shader writes what it reads, depth bias meets
    // triangles; then the draw's pass-through vertex shader (from the geometry shader's outputs
    // and the pixel shader's interpolation).
    let info_of = |r: &ShaderRef| loaded[r].info.as_ref().expect("errors returned above");
    let mut draws: BTreeMap<(ShaderRef, Option<ShaderRef>), StageInfo> = BTreeMap::new();
    for (pi, pass) in effect.passes.iter().enumerate() {
        let Some(gstage) = &pass.geometry else { continue };
        for (vi, values) in permutations.iter().enumerate() {
            let c = &choice[pi][vi];
            let (Some(v), Some(g)) = (&c.vertex, &c.geometry) else { continue };
            let (vs, gs) = (info_of(v), info_of(g));
            let Some(gi) = &gs.geometry else { continue };
            let gspan = rule_span(&gstage.rules, values);
            if !gi.input_primitive.accepts(gstage.topology) {
                let wanted: Vec<String> = crate::effect::states::DRAW_TOPOLOGIES
                    .iter()
                    .filter(|t| gi.input_primitive.accepts(**t))
                    .map(|t| draw_topology_name(*t))
                    .collect();
                push(
                    &mut errors,
                    effect.error(
                        gstage.topology_span.as_ref().unwrap_or(&gspan),
                        format!(
                            "pass `{}` draws {}{}, but its geometry shader {} reads {} (dcl_inputprimitive): the pass's \
                             `topology` must be {}",
                            pass.name,
                            draw_topology_name(gstage.topology),
                            if gstage.topology_span.is_none() { " (the default)" } else { "" },
                            g.label(),
                            input_primitive_name(gi.input_primitive),
                            if wanted.is_empty() {
                                format!("a {}-control-point patch list", gi.input_primitive.vertices())
                            } else {
                                wanted.join(" or ")
                            }
                        ),
                    ),
                );
            }
            if pass.states.rasterizer.has_bias()
                && gi.output_topology.is_some_and(|t| t != dxbc_wgsl::geometry::OutputTopology::TriangleStrip)
            {
                push(
                    &mut errors,
                    effect.error(
                        &gspan,
                        format!(
                            "pass `{}`: geometry shader {} outputs {}, and WebGPU applies depth bias to triangles \
                             only, but the pass's rasterizer state sets one; remove the bias or emit triangles",
                            pass.name,
                            g.label(),
                            match gi.output_topology {
                                Some(dxbc_wgsl::geometry::OutputTopology::PointList) => "points",
                                _ => "line strips",
                            }
                        ),
                    ),
                );
            }
            check_geometry_inputs(&effect, &pass.name, (&v.label(), vs), (&g.label(), gs), &gspan, &mut errors);
            let key = (g.clone(), c.pixel.clone());
            if draws.contains_key(&key) {
                continue;
            }
            let interpolation: Vec<(u32, dxbc_wgsl::Interpolation)> = match &c.pixel {
                Some(p) => info_of(p).inputs.iter().filter_map(|i| Some((i.location?, i.interpolation?))).collect(),
                None => Vec::new(),
            };
            match draw_vertex_shader(gs, &interpolation) {
                Ok(info) => {
                    draws.insert(key, info);
                }
                Err(e) => push(
                    &mut errors,
                    effect.error_of(
                        e.diagnostic_kind(),
                        &gspan,
                        format!("the draw vertex shader of geometry shader {} of pass `{}`: {e}", g.label(), pass.name),
                    ),
                ),
            }
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics::sorted(errors));
    }

    // Stream-output declarations, resolved against the output signature of the shader in front
    // of the rasterizer by D3D's rules (CreateGeometryShaderWithStreamOutput).
    let mut stream_outputs: Vec<dxbc_wgsl::geometry::SoDeclaration> = Vec::new();
    let mut so_of: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for (pi, pass) in effect.passes.iter().enumerate() {
        let Some(decl) = &pass.stream_output else { continue };
        let Some(gstage) = &pass.geometry else { continue };
        if decl.rasterized_stream.is_none() {
            if let Some(p) = &pass.pixel {
                push(
                    &mut errors,
                    effect.error(
                        &p.span,
                        format!(
                            "pass `{}` rasterizes no stream (`rasterized_stream = \"none\"`), so its pixel shader \
                             would never run: remove it, or rasterize a stream",
                            pass.name
                        ),
                    ),
                );
                continue;
            }
        }
        for (vi, values) in permutations.iter().enumerate() {
            let c = &choice[pi][vi];
            // The shader whose output signature the entries name.
            let front = if gstage.implicit { c.vertex.as_ref() } else { c.geometry.as_ref() };
            let Some(front) = front else { continue };
            let at = rule_span(if gstage.implicit { &pass.vertex } else { &gstage.rules }, values);
            let signature = read_shader(&front.with_role(ShaderRole::Stage)).map_err(|e| e.to_string()).and_then(|b| {
                dxbc_wgsl::Shader::parse(&b, &dxbc_wgsl::ReadOptions { verify_checksum: front.verify_checksum })
                    .map(|s| s.outputs.elements)
                    .map_err(|e| e.to_string())
            });
            let signature = match signature {
                Ok(s) => s,
                Err(e) => {
                    push(&mut errors, effect.error_of(DiagnosticKind::Input, &at, format!("{}: {e}", front.label())));
                    continue;
                }
            };
            // The pixel shader reads what the rasterized stream writes (D3D links it with that
            // stream's signature elements; the draw's vertex shader carries every stream's).
            if let (Some(r), Some(p), Some(prules)) = (decl.rasterized_stream, &c.pixel, &pass.pixel) {
                let missing = info_of(p).inputs.iter().filter(|i| i.location.is_some()).find(|i| {
                    !signature.iter().any(|e| {
                        e.stream == r
                            && e.register == i.register
                            && e.semantic_name.eq_ignore_ascii_case(&i.semantic)
                            && e.semantic_index == i.semantic_index
                    })
                });
                if let Some(i) = missing {
                    push(
                        &mut errors,
                        effect.error(
                            &rule_span(prules, values),
                            format!(
                                "pass `{}` rasterizes stream {r}, but its pixel shader {} reads {} (v{}), which {} {} \
                                 does not write on stream {r}",
                                pass.name,
                                p.with_role(ShaderRole::Stage).label(),
                                i.semantic_label(),
                                i.register,
                                if gstage.implicit { "vertex shader" } else { "geometry shader" },
                                front.with_role(ShaderRole::Stage).label()
                            ),
                        ),
                    );
                    continue;
                }
            }
            match dxbc_wgsl::geometry::resolve_so_declaration(
                &signature,
                &decl.entries,
                decl.strides.as_deref(),
                decl.rasterized_stream,
            ) {
                Ok(d) => {
                    let i = match stream_outputs.iter().position(|x| *x == d) {
                        Some(i) => i,
                        None => {
                            stream_outputs.push(d);
                            stream_outputs.len() - 1
                        }
                    };
                    so_of.insert((pi, vi), i);
                }
                Err(e) => {
                    // At the entry, or the stride, at fault.
                    let stride = e.stride_slot.and_then(|slot| {
                        let (all, each) = decl.strides_span.as_ref()?;
                        Some(each.get(slot as usize).unwrap_or(all))
                    });
                    let span = e.entry.and_then(|i| decl.entry_spans.get(i)).or(stride).unwrap_or(&decl.span);
                    push(
                        &mut errors,
                        effect.error(
                            span,
                            format!(
                                "pass `{}`{}: {e}, against the output signature of {} {}",
                                pass.name,
                                if effect.axes.is_empty() {
                                    String::new()
                                } else {
                                    format!(" ({})", effect.describe(values))
                                },
                                if gstage.implicit { "vertex shader" } else { "geometry shader" },
                                front.with_role(ShaderRole::Stage).label()
                            ),
                        ),
                    );
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics::sorted(errors));
    }

    // Constant-buffer layouts from the shaders' reflection, and declared layouts checked against it.
    let mut used: Vec<(ShaderRef, Stage)> = Vec::new();
    for (pi, per) in choice.iter().enumerate() {
        let first = effect.passes[pi].vertex.stage;
        for c in per {
            let vertex = c.pulled.as_ref().map(|(r, _)| r).or(c.vertex.as_ref());
            for (r, stage) in
                [(vertex, first), (c.geometry.as_ref(), Stage::Geometry), (c.pixel.as_ref(), Stage::Pixel)]
            {
                if let Some(r) = r {
                    if !used.contains(&(r.clone(), stage)) {
                        used.push((r.clone(), stage));
                    }
                }
            }
        }
    }
    used.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    let reflected_sizes = check_reflection(&mut effect, &used, &loaded, &mut errors);
    if !errors.is_empty() {
        return Err(Diagnostics::sorted(errors));
    }
    let effect = effect;
    let rule_span = |rules: &StageRules, values: &[usize]| -> Span {
        effect.rule_for(rules, values).map(|r| r.path_span.clone()).unwrap_or(rules.span.clone())
    };

    // Distinct shaders by translation: those the passes use (a vertex shader a pass with a
    // geometry shader pulls is used only as such), and the draws' vertex shaders.
    // Each with its label, and the label and suffix of its `wgsl::` constant's name.
    let mut sources: Vec<(Source, String, (String, &str), StageInfo)> = Vec::new();
    for per in &choice {
        for c in per {
            let vertex = c.pulled.as_ref().map(|(r, _)| r).or(c.vertex.as_ref());
            for r in [vertex, c.geometry.as_ref(), c.pixel.as_ref()].into_iter().flatten() {
                if !sources.iter().any(|(s, ..)| *s == Source::Input(r.clone())) {
                    let base = r.with_role(ShaderRole::Stage).label();
                    let name = match r.role {
                        ShaderRole::Stage => (base, ""),
                        ShaderRole::PulledVertex(_) => (base, "_PULLED"),
                        ShaderRole::BehindGeometry => (base, "_BEHIND_GEOMETRY"),
                        ShaderRole::SelectedPixel { .. } => (base, "_SELECTED"),
                        ShaderRole::StreamOutGeometry(_) => (base, "_STREAM_OUTPUT"),
                        ShaderRole::PassThrough { .. } => (base, "_PASS_THROUGH"),
                    };
                    sources.push((Source::Input(r.clone()), r.label(), name, info_of(r).clone()));
                }
            }
        }
    }
    for ((g, p), info) in &draws {
        sources.push((
            Source::Draw(g.clone(), p.clone()),
            format!("{} (draw vertex shader)", g.label()),
            (g.label(), "_DRAW"),
            info.clone(),
        ));
    }
    sources.sort_by(|a, b| a.0.cmp(&b.0));
    let mut shaders: Vec<CompiledShader> = Vec::new();
    let mut names: Vec<(String, &str)> = Vec::new();
    let mut index_of: BTreeMap<Source, usize> = BTreeMap::new();
    for (source, label, name, info) in sources {
        let i = match shaders.iter().position(|s| s.info == info) {
            Some(i) => {
                shaders[i].labels.push(label);
                i
            }
            None => {
                shaders.push(CompiledShader {
                    const_name: String::new(),
                    labels: vec![label],
                    info,
                    fields: BTreeMap::new(),
                });
                names.push(name);
                shaders.len() - 1
            }
        };
        index_of.insert(source, i);
    }
    // Order shaders by stage (vertex first) then label, and name them.
    let mut order: Vec<usize> = (0..shaders.len()).collect();
    order.sort_by(|&a, &b| {
        (shaders[a].info.stage, &shaders[a].labels[0]).cmp(&(shaders[b].info.stage, &shaders[b].labels[0]))
    });
    let mut remap = vec![0; shaders.len()];
    for (new, &old) in order.iter().enumerate() {
        remap[old] = new;
    }
    let mut sorted: Vec<CompiledShader> = order.iter().map(|&i| shaders[i].clone()).collect();
    let mut used_names: Vec<String> = Vec::new();
    for (s, &old) in sorted.iter_mut().zip(&order) {
        let base = format!("{}{}", const_name(&effect.name, &names[old].0), names[old].1);
        let mut name = base.clone();
        let mut n = 2;
        while used_names.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        used_names.push(name.clone());
        s.const_name = name;
    }
    let mut shaders = sorted;
    let mut input_layouts: Vec<InputLayout> = Vec::new();
    let passes: Vec<Vec<Variant>> = choice
        .iter()
        .enumerate()
        .map(|(pi, per)| {
            per.iter()
                .enumerate()
                .map(|(vi, c)| {
                    let index = |r: &ShaderRef| remap[index_of[&Source::Input(r.clone())]];
                    let vertex =
                        c.pulled.as_ref().map(|(r, _)| r).or(c.vertex.as_ref()).expect("errors returned above");
                    let geometry = c.geometry.as_ref().map(|g| {
                        let (_, layout) = c.pulled.as_ref().expect("a geometry pass's vertex shader is pulled");
                        let input_layout = match input_layouts.iter().position(|l| l == layout) {
                            Some(i) => i,
                            None => {
                                input_layouts.push(layout.clone());
                                input_layouts.len() - 1
                            }
                        };
                        GeometryVariant {
                            geometry: index(g),
                            draw_vertex: remap[index_of[&Source::Draw(g.clone(), c.pixel.clone())]],
                            input_layout,
                            stream_output: so_of.get(&(pi, vi)).copied(),
                        }
                    });
                    Variant { vertex: index(vertex), pixel: c.pixel.as_ref().map(index), geometry }
                })
                .collect()
        })
        .collect();

    // Checks per pass and permutation.
    let mut resources: Vec<ResourceField> = Vec::new();
    let mut links: Vec<LinkProblem> = Vec::new();
    for (pi, pass) in effect.passes.iter().enumerate() {
        for (vi, values) in permutations.iter().enumerate() {
            let variant = passes[pi][vi];
            let stages = [
                Some((variant.vertex, &pass.vertex)),
                variant.geometry.map(|g| g.geometry).zip(pass.geometry.as_ref().map(|g| &g.rules)),
                variant.pixel.zip(pass.pixel.as_ref()),
            ];
            for (si, rules) in stages.into_iter().flatten() {
                let at = rule_span(rules, values);
                shaders[si].fields =
                    check_bindings(&effect, &pass.name, &shaders[si], &at, &mut resources, &mut errors);
            }
            // WebGPU's alpha to coverage needs a fragment shader with a colour target 0, and one
            // that does not write the sample mask (D3D's SV_Coverage) itself.
            if pass.states.blend.alpha_to_coverage && !pass.is_compute() {
                let why = match variant.pixel.map(|p| &shaders[p].info) {
                    None => Some("the pass has no pixel shader".to_string()),
                    Some(info) if info.outputs.iter().any(|o| o.builtin == Some(Builtin::SampleMask)) => Some(format!(
                        "its pixel shader {} writes SV_Coverage",
                        shaders[variant.pixel.unwrap()].labels[0]
                    )),
                    Some(info) if !info.outputs.iter().any(|o| o.location == Some(0)) => {
                        Some("its pixel shader writes no SV_Target0".to_string())
                    }
                    _ => None,
                };
                if let Some(why) = why {
                    push(
                        &mut errors,
                        effect.error(
                            &pass.span,
                            format!(
                                "pass `{}` ({}) enables alpha_to_coverage, but {why}: WebGPU allows alpha to coverage \
                                 only with a colour target 0 and without a sample-mask output",
                                pass.name,
                                effect.describe(values)
                            ),
                        ),
                    );
                }
            }
            if let (Some(ps), Some(prules)) = (variant.pixel, pass.pixel.as_ref()) {
                // Behind a geometry shader the pixel shader reads what the draw's vertex shader
                // passes on: the geometry shader's outputs.
                let writer = match variant.geometry {
                    Some(g) => Writer {
                        stage: "geometry",
                        label: &shaders[g.geometry].labels[0],
                        shader: &shaders[g.draw_vertex],
                    },
                    None => Writer {
                        stage: "vertex",
                        label: &shaders[variant.vertex].labels[0],
                        shader: &shaders[variant.vertex],
                    },
                };
                check_link(&effect, &pass.name, writer, &shaders[ps], &rule_span(prules, values), &mut links);
            }
        }
    }
    // One diagnostic per link mistake (a pass, an input, a kind of mismatch), not one per vertex
    // and pixel shader pair that shows it.
    for l in links {
        let mut d = l.first;
        if l.more > 0 {
            d.message.push_str(&format!(
                " (and in {} more vertex/pixel shader pair{} of the pass)",
                l.more,
                if l.more == 1 { "" } else { "s" }
            ));
        }
        push(&mut errors, d);
    }
    // Required = bound by every variant.
    for (fi, f) in resources.iter_mut().enumerate() {
        f.required =
            passes.iter().flatten().all(|v| v.stages().any(|si| shaders[si].fields.values().any(|&f| f == fi)));
    }
    // The vertex shaders' inputs, as they read vertex attributes (a vertex shader a pass with a
    // geometry shader pulls reads the same inputs), with whether a pass with a geometry shader
    // uses it.
    let mut readers: Vec<(String, &[dxbc_wgsl::InterfaceVar], Option<&str>)> = Vec::new();
    for (pi, per) in choice.iter().enumerate() {
        let pass = &effect.passes[pi];
        if pass.is_compute() {
            continue;
        }
        for c in per {
            let Some(v) = &c.vertex else { continue };
            let plain = (pass.geometry.is_none()).then_some(pass.name.as_str());
            let label = v.label();
            match readers.iter_mut().find(|(l, ..)| *l == label) {
                Some(r) => r.2 = r.2.or(plain),
                None => readers.push((label, &info_of(v).inputs, plain)),
            }
        }
    }
    // Vertex-format overrides must apply to some vertex input, with a compatible kind.
    for o in &effect.vertex_formats {
        let mut used = false;
        for (label, inputs, _) in &readers {
            for input in inputs.iter().filter(|i| i.location.is_some()) {
                if input.semantic.eq_ignore_ascii_case(&o.semantic) && input.semantic_index == o.index {
                    used = true;
                    if input.scalar != o.format.kind {
                        push(
                            &mut errors,
                            effect.error(
                                &o.span,
                                format!(
                                    "{} reads {} as {}, which format {} cannot supply ({} components)",
                                    label,
                                    input.semantic_label(),
                                    input.wgsl_type(),
                                    o.format.webgpu,
                                    match o.format.kind {
                                        crate::vertex::Kind::Float => "float",
                                        crate::vertex::Kind::Uint => "unsigned integer",
                                        crate::vertex::Kind::Sint => "signed integer",
                                    }
                                ),
                            ),
                        );
                    }
                }
            }
        }
        if !used {
            push(
                &mut errors,
                effect.error(
                    &o.span,
                    format!(
                        "no vertex shader of the effect reads {}{}",
                        o.semantic,
                        if o.index == 0 { String::new() } else { o.index.to_string() }
                    ),
                ),
            );
        }
    }
    // Per-instance data must be read by some vertex shader, and only by vertex shaders that pull
    // their inputs (passes with a geometry shader): a render pass's vertex layout is one
    // per-vertex buffer.
    for d in &effect.instance_data {
        let reads = |inputs: &[dxbc_wgsl::InterfaceVar]| {
            inputs.iter().any(|i| {
                i.location.is_some() && i.semantic.eq_ignore_ascii_case(&d.semantic) && i.semantic_index == d.index
            })
        };
        let name = format!("{}{}", d.semantic, if d.index == 0 { String::new() } else { d.index.to_string() });
        let readers_of: Vec<_> = readers.iter().filter(|(_, inputs, _)| reads(inputs)).collect();
        if readers_of.is_empty() {
            push(&mut errors, effect.error(&d.span, format!("no vertex shader of the effect reads {name}")));
        } else if let Some((label, _, Some(pass))) = readers_of.iter().find(|r| r.2.is_some()) {
            push(
                &mut errors,
                effect.error(
                    &d.span,
                    format!(
                        "{name} is per-instance data, but pass `{pass}` draws vertex shader {label} without a geometry \
                         shader: a render pass reads one per-vertex buffer (per-instance data is pulled only by the \
                         vertex shaders of passes with a geometry shader)"
                    ),
                ),
            );
        }
    }
    check_cbuffer_sizes(&effect, &shaders, &reflected_sizes, &mut errors);
    // A `[resources]` entry that names a register no shader of the effect binds is a typo (`t1`
    // for `t0`): it would silently do nothing.
    for r in &effect.resources {
        let bound = shaders.iter().any(|s| {
            let stage_ok = r.stages.as_ref().is_none_or(|st| st.contains(&s.info.stage));
            stage_ok
                && s.info.bindings.iter().any(|b| {
                    let class = match b.register.class {
                        RegisterClass::Sampler => ResourceClass::Sampler,
                        RegisterClass::ShaderResource => ResourceClass::Srv,
                        RegisterClass::UnorderedAccess => ResourceClass::Uav,
                        RegisterClass::ConstantBuffer => return false,
                    };
                    class == r.class && b.register.slot == r.slot && b.register.space == r.space
                })
        });
        if !bound {
            push(
                &mut errors,
                effect.error(
                    &r.span,
                    format!(
                        "no shader of the effect binds {}{}{} (named `{}` here)",
                        r.class.letter(),
                        r.slot,
                        if r.space == 0 { String::new() } else { format!(" in space {}", r.space) },
                        r.name
                    ),
                ),
            );
        }
    }
    // So is a `[cbuffers.X]` whose register no shader of its stages binds (a reflected layout
    // without a binding shader is reported where layouts are taken from the reflection).
    for cb in &effect.cbuffers {
        let bound = shaders.iter().any(|s| {
            cb.stages.as_ref().is_none_or(|st| st.contains(&s.info.stage))
                && s.info.bindings.iter().any(|b| {
                    b.register.class == RegisterClass::ConstantBuffer
                        && b.register.slot == cb.slot
                        && b.register.space == cb.space
                })
        });
        if !bound && !effect.layouts[cb.layout].from_reflection {
            push(
                &mut errors,
                effect.error(
                    &cb.span,
                    format!(
                        "no shader of the effect{} binds b{}{} (constant buffer `{}` here)",
                        match &cb.stages {
                            Some(st) => format!(" ({})", st.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")),
                            None => String::new(),
                        },
                        cb.slot,
                        if cb.space == 0 { String::new() } else { format!(" in space {}", cb.space) },
                        cb.name
                    ),
                ),
            );
        }
    }
    // A `[view_formats]` entry must name a typed view some shader of its stages binds.
    for vf in &effect.view_formats {
        let bound = shaders.iter().any(|s| {
            vf.stages.as_ref().is_none_or(|st| st.contains(&s.info.stage))
                && s.info.bindings.iter().any(|b| {
                    b.register.slot == vf.slot
                        && b.register.space == vf.space
                        && match vf.class {
                            ResourceClass::Uav => b.register.class == RegisterClass::UnorderedAccess,
                            // A texture SRV has its format in the view, not the shader: only a
                            // typed `Buffer` (a storage buffer here) takes one.
                            _ => {
                                b.register.class == RegisterClass::ShaderResource
                                    && matches!(b.kind, BindingKind::StorageBuffer { .. })
                            }
                        }
                })
        });
        if !bound {
            push(
                &mut errors,
                effect.error(
                    &vf.span,
                    format!(
                        "no shader of the effect{} declares a typed Buffer or typed UAV at {}, so its view format \
                         applies to nothing (a texture SRV's format is the view's, not the shader's)",
                        match &vf.stages {
                            Some(st) => format!(" ({})", st.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")),
                            None => String::new(),
                        },
                        vf.register()
                    ),
                ),
            );
        }
    }
    // A `[texture2dms_views]` entry must name a 2D texture SRV some shader of its stages binds.
    for tv in &effect.texture2dms_views {
        let bound = shaders.iter().any(|s| {
            tv.stages.as_ref().is_none_or(|st| st.contains(&s.info.stage))
                && s.info.bindings.iter().any(|b| {
                    b.register.class == RegisterClass::ShaderResource
                        && b.register.slot == tv.slot
                        && b.register.space == tv.space
                        && matches!(b.kind, BindingKind::Texture { dimension: dxbc_wgsl::ViewDimension::D2, .. })
                })
        });
        if !bound {
            push(
                &mut errors,
                effect.error(
                    &tv.span,
                    format!(
                        "no shader of the effect{} declares a 2D texture at {}, so its Texture2DMS view applies to \
                         nothing",
                        match &tv.stages {
                            Some(st) => format!(" ({})", st.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")),
                            None => String::new(),
                        },
                        tv.register()
                    ),
                ),
            );
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics::sorted(errors));
    }
    inputs.sort();
    inputs.insert(0, effect.path.clone());
    Ok(CompiledEffect { effect, permutations, shaders, passes, resources, inputs, input_layouts, stream_outputs })
}

/// Fills the layouts the effect file leaves to the reflection, and compares declared layouts with
/// the reflection of every shader that binds them.
fn check_reflection(
    effect: &mut Effect,
    used: &[(ShaderRef, Stage)],
    loaded: &BTreeMap<ShaderRef, Loaded>,
    errors: &mut Vec<Diagnostic>,
) -> BTreeMap<usize, u32> {
    // Per declared layout's constant buffer (index into `effect.cbuffers`): the largest size a
    // binding shader's reflection records.
    let mut reflected_sizes: BTreeMap<usize, u32> = BTreeMap::new();
    let push = |errors: &mut Vec<Diagnostic>, d: Diagnostic| {
        if !errors.contains(&d) {
            errors.push(d);
        }
    };
    // Per layout taken from the reflection: the first shader's fields and label.
    let mut taken: BTreeMap<usize, (Vec<crate::effect::PlacedField>, String)> = BTreeMap::new();
    for (r, stage) in used {
        let l = &loaded[r];
        let Ok(info) = &l.info else {
            continue;
        };
        for b in info.bindings.iter().filter(|b| b.register.class == RegisterClass::ConstantBuffer) {
            let applies = |c: &crate::effect::CbufferDecl| c.stages.as_ref().is_none_or(|s| s.contains(stage));
            let Some(ci) = effect
                .cbuffers
                .iter()
                .position(|c| c.slot == b.register.slot && c.space == b.register.space && applies(c))
            else {
                continue;
            };
            let cb = &effect.cbuffers[ci];
            let layout = &effect.layouts[cb.layout];
            let who = format!("effect {}, {} shader {}", effect.name, stage.name(), r.label());
            let reflected = match &l.reflection {
                Err(msg) => {
                    push(
                        errors,
                        effect
                            .error(&cb.span, format!("{who}: {msg}"))
                            .with_kind(DiagnosticKind::Cbuffer(cb.name.clone())),
                    );
                    continue;
                }
                Ok(None) => {
                    if layout.from_reflection {
                        push(
                            errors,
                            effect
                                .error(
                                    &cb.span,
                                    format!(
                                    "{who} binds {} but carries no reflection (RDEF) to take the layout of constant \
                                     buffer `{}` from: declare it with `fields` or `layout`",
                                    b.register,
                                    cb.name
                                ),
                                )
                                .with_kind(DiagnosticKind::Cbuffer(cb.name.clone())),
                        );
                    }
                    continue;
                }
                Ok(Some(layouts)) => layouts.iter().find(|x| x.binds(b.register.slot, b.register.space)),
            };
            let Some(reflected) = reflected else {
                push(
                    errors,
                    effect
                        .error(
                            &cb.span,
                            format!("{who} binds {}, but its reflection lists no constant buffer there", b.register),
                        )
                        .with_kind(DiagnosticKind::Cbuffer(cb.name.clone())),
                );
                continue;
            };
            // Variables the effect file says the source places (`placed = { .. }`).
            let placed_layout;
            let reflected = if cb.placed.is_empty() {
                reflected
            } else {
                let placements: Vec<(String, u32)> = cb.placed.iter().map(|(n, o, _)| (n.clone(), *o)).collect();
                match reflect::with_source_placements(reflected, &placements, &Rules::HLSL) {
                    Ok(l) => {
                        placed_layout = l;
                        &placed_layout
                    }
                    Err(msg) => {
                        // The placement whose variable the reflection lacks.
                        let missing = cb
                            .placed
                            .iter()
                            .find(|(n, _, _)| !reflected.reflection.variables.iter().any(|v| &v.name == n));
                        push(
                            errors,
                            effect
                                .error(
                                    missing.map_or(&cb.span, |p| &p.2),
                                    format!("{who}: `placed` of constant buffer `{}`: {msg}", cb.name),
                                )
                                .with_kind(DiagnosticKind::Cbuffer(cb.name.clone())),
                        );
                        continue;
                    }
                }
            };
            if layout.from_reflection {
                // A `placed` offset the compiler did not record: at the entry, in its own words.
                if let crate::reflect::Verdict::Disagrees(ms) = &reflected.verdict {
                    let mut at_placed = false;
                    for m in ms {
                        let Some((name, offset, span)) = cb.placed.iter().find(|(n, _, _)| *n == m.variable) else {
                            continue;
                        };
                        let recorded =
                            reflected.reflection.variables.iter().find(|v| &v.name == name).map(|v| v.offset);
                        push(
                            errors,
                            effect
                                .error(
                                    span,
                                    format!(
                                    "{who}: `placed` of constant buffer `{}` puts `{name}` at {}, but the compiler \
                                     recorded {}",
                                    cb.name,
                                    crate::effect::layout::format_offset(*offset),
                                    recorded.map_or("another offset".into(), crate::effect::layout::format_offset)
                                ),
                                )
                                .with_kind(DiagnosticKind::Cbuffer(cb.name.clone())),
                        );
                        at_placed = true;
                    }
                    if at_placed {
                        continue;
                    }
                }
                if !reflected.verdict.agrees() {
                    push(
                        errors,
                        effect
                            .error(
                                &cb.span,
                                format!(
                                    "{who}: the layout of constant buffer `{}` ({}, `{}` in the reflection) cannot be \
                                 taken from the reflection: {}",
                                    cb.name, b.register, reflected.name, reflected.verdict
                                ),
                            )
                            .with_kind(DiagnosticKind::Cbuffer(cb.name.clone())),
                    );
                    continue;
                }
                match taken.get(&cb.layout) {
                    None => {
                        taken.insert(cb.layout, (reflected.fields.clone(), r.label()));
                    }
                    // Struct type names may differ (SM5 reflection records them, SM4's does not).
                    Some((fields, first)) if unnamed(fields) != unnamed(&reflected.fields) => {
                        let (ours, theirs) = (unnamed(fields), unnamed(&reflected.fields));
                        let at = fields
                            .iter()
                            .zip(&reflected.fields)
                            .zip(ours.iter().zip(&theirs))
                            .find(|(_, (a, b))| a != b)
                            .map(|(pair, _)| pair)
                            .map(|(a, b)| {
                                let show = |f: &crate::effect::PlacedField| {
                                    format!(
                                        "`{}` ({}) at {}",
                                        f.name,
                                        f.ty,
                                        crate::effect::layout::format_offset(f.offset)
                                    )
                                };
                                format!("{} in {first}, {} in {}", show(a), show(b), r.label())
                            })
                            .unwrap_or_else(|| "they have different numbers of variables".into());
                        let structs =
                            reflected.fields.iter().any(|f| matches!(f.ty, crate::effect::VarType::Struct(_)));
                        push(
                            errors,
                            effect.error(
                                &cb.span,
                                format!(
                                    "{who}: its reflection gives constant buffer `{}` a different layout than {first} \
                                     does ({at}); {}",
                                    cb.name,
                                    if structs {
                                        "bind each layout to its own stages (`stages = [..]` on two [cbuffers] entries), \
                                         or use shaders that agree (effect files cannot declare struct-typed fields)"
                                    } else {
                                        "declare the layout (`layout` or `fields`) to say which applies"
                                    }
                                ),
                            )
.with_kind(DiagnosticKind::Cbuffer(cb.name.clone())),
                        );
                    }
                    Some(_) => {}
                }
            } else {
                let size = reflected_sizes.entry(ci).or_insert(0);
                *size = (*size).max(reflected.reflection.size);
                for (fi, msg) in reflect::compare_declared(&layout.fields, reflected) {
                    let span = fi.map(|i| layout.field_spans[i].clone()).unwrap_or(layout.span.clone());
                    push(
                        errors,
                        effect
                            .error(
                                &span,
                                format!(
                                    "{who}: layout `{}` disagrees with the shader's reflection: {msg}",
                                    layout.name
                                ),
                            )
                            .with_kind(DiagnosticKind::Cbuffer(cb.name.clone())),
                    );
                }
            }
        }
    }
    for (li, (fields, _)) in taken {
        let span = effect.layouts[li].span.clone();
        let l = &mut effect.layouts[li];
        l.field_spans = vec![span; fields.len()];
        l.field_docs = vec![None; fields.len()];
        l.fields = fields;
    }
    for cb in &effect.cbuffers {
        let l = &effect.layouts[cb.layout];
        if l.from_reflection
            && l.fields.is_empty()
            && !errors.iter().any(|d| d.kind == DiagnosticKind::Cbuffer(cb.name.clone()))
        {
            push(
                errors,
                effect
                    .error(
                        &cb.span,
                        format!(
                        "constant buffer `{}` has no `fields` or `layout`, and no shader of the effect binds b{} to \
                         take its layout from",
                        cb.name, cb.slot
                    ),
                    )
                    .with_kind(DiagnosticKind::Cbuffer(cb.name.clone())),
            );
        }
    }
    reflected_sizes
}

/// The `wgsl::` constant name for a shader label: the file stem (or header symbol) without the
/// effect-name prefix, in upper snake case.
fn const_name(effect: &str, label: &str) -> String {
    let base = match label.split_once(':') {
        Some((_, sym)) => sym.to_string(),
        None => {
            Path::new(label).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| label.to_string())
        }
    };
    let trimmed =
        base.strip_prefix(effect).map(|r| r.trim_start_matches('_')).filter(|r| !r.is_empty()).unwrap_or(&base);
    let mut s = snake_case(trimmed).to_ascii_uppercase();
    if s.is_empty() {
        s = "SHADER".into();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) || s.starts_with('_') {
        s.insert(0, 'S');
    }
    s
}

/// The `Resources` field name a stage's register binds to: asked once per binding, by
/// [`check_bindings`] (everything after it reads [`CompiledShader::fields`]).
fn field_name(effect: &Effect, stage: Stage, class: RegisterClass, slot: u32, space: u32) -> Option<String> {
    let applies = |stages: &Option<Vec<Stage>>| stages.as_ref().is_none_or(|s| s.contains(&stage));
    match class {
        RegisterClass::ConstantBuffer => effect
            .cbuffers
            .iter()
            .find(|c| c.slot == slot && c.space == space && applies(&c.stages))
            .map(|c| snake_case(&c.name)),
        _ => {
            let rc = match class {
                RegisterClass::Sampler => ResourceClass::Sampler,
                RegisterClass::ShaderResource => ResourceClass::Srv,
                _ => ResourceClass::Uav,
            };
            Some(
                effect
                    .resources
                    .iter()
                    .find(|r| r.class == rc && r.slot == slot && r.space == space && applies(&r.stages))
                    .map(|r| r.name.clone())
                    .unwrap_or_else(|| {
                        if space == 0 {
                            format!("{}{slot}", rc.letter())
                        } else {
                            format!("{}{slot}_space{space}", rc.letter())
                        }
                    }),
            )
        }
    }
}

/// Checks a shader's bindings and adds the fields they bind to `resources`. Returns the field of
/// each binding by `@binding` number (index into `resources`); one it reports as naming no
/// field has none, and the effect fails. A UAV's hidden counter is the field `<uav>_counter`.
fn check_bindings(
    effect: &Effect,
    pass: &str,
    s: &CompiledShader,
    at: &Span,
    resources: &mut Vec<ResourceField>,
    errors: &mut Vec<Diagnostic>,
) -> BTreeMap<u32, usize> {
    let mut fields = BTreeMap::new();
    let stage = s.info.stage;
    let mut push = |d: Diagnostic| {
        if !errors.contains(&d) {
            errors.push(d);
        }
    };
    for b in &s.info.bindings {
        if b.group != stage.group() {
            push(effect.error(
                at,
                format!(
                    "{} binds {} at @group({}), but the binding plan puts {} resources in group {}",
                    s.labels[0],
                    b.register,
                    b.group,
                    stage.name(),
                    stage.group()
                ),
            ));
            continue;
        }
        let Some(name) = field_name(effect, stage, b.register.class, b.register.slot, b.register.space).map(|n| {
            if b.kind == BindingKind::UavCounter {
                format!("{n}_counter")
            } else {
                n
            }
        }) else {
            push(effect.error(
                at,
                format!(
                    "effect {}, pass `{pass}`, {} shader {}: binds constant buffer {} ({} bytes), but the effect \
                     file declares no [cbuffers] entry for that register and stage",
                    effect.name,
                    stage.name(),
                    s.labels[0],
                    b.register,
                    match b.kind {
                        BindingKind::UniformBuffer { size_bytes } => size_bytes,
                        _ => 0,
                    }
                ),
            ));
            continue;
        };
        let (kind, cbuffer) = match &b.kind {
            BindingKind::UniformBuffer { .. } => {
                let ci = effect.cbuffers.iter().position(|c| snake_case(&c.name) == name).expect("field_name found it");
                (FieldKind::UniformBuffer, Some(ci))
            }
            BindingKind::StorageBuffer { .. } => (FieldKind::StorageBuffer, None),
            BindingKind::UavCounter => (FieldKind::CounterBuffer, None),
            BindingKind::Texture { .. } | BindingKind::StorageTexture { .. } => (FieldKind::TextureView, None),
            BindingKind::Sampler { .. } => (FieldKind::Sampler, None),
        };
        let reg = b.register.to_string();
        let doc = match b.register.class {
            RegisterClass::ConstantBuffer => None,
            _ if b.kind == BindingKind::UavCounter => None,
            _ => effect.resources.iter().find(|r| r.name == name).and_then(|r| r.doc.clone()),
        };
        let describe = crate::stage::describe(&b.kind);
        match resources.iter().position(|f| f.name == name) {
            Some(fi) => {
                fields.insert(b.binding, fi);
                let f = &mut resources[fi];
                if f.kind != kind {
                    push(effect.error(
                        at,
                        format!(
                            "{} binds {reg} (`{name}`) as {describe}, but another shader of the effect binds `{name}` \
                             as a different kind of resource; give them different names in [resources]",
                            s.labels[0]
                        ),
                    ));
                }
                if !f.registers.contains(&(stage, reg.clone())) {
                    f.registers.push((stage, reg));
                }
                if !f.kinds.contains(&describe) {
                    f.kinds.push(describe);
                }
            }
            None => {
                fields.insert(b.binding, resources.len());
                resources.push(ResourceField {
                    name,
                    kind,
                    required: false,
                    cbuffer,
                    registers: vec![(stage, reg)],
                    kinds: vec![describe],
                    doc,
                })
            }
        }
    }
    fields
}

/// Compares each declared layout with the sizes the shaders binding its constant buffers declare
/// (`dcl_constantbuffer cb0[7]` → 112 bytes; with reflection, the size it records too), once per
/// layout, not once per shader. A stage may use a prefix of a layout, but a layout that reaches
/// past every binding shader's buffer is an error at its first field that does (unless a buffer
/// with the layout says `allow_larger = true`), and one that ends before some shader's buffer is
/// an error at its last field.
fn check_cbuffer_sizes(
    effect: &Effect,
    shaders: &[CompiledShader],
    reflected_sizes: &BTreeMap<usize, u32>,
    errors: &mut Vec<Diagnostic>,
) {
    use crate::effect::layout::format_offset;
    let push = |errors: &mut Vec<Diagnostic>, d: Diagnostic| {
        if !errors.contains(&d) {
            errors.push(d);
        }
    };
    // The constant buffer (index into `effect.cbuffers`) a shader's binding binds: the first entry
    // for its register and stage, as `field_name` finds it.
    let buffer_of = |stage: Stage, b: &dxbc_wgsl::ResourceBinding| {
        effect.cbuffers.iter().position(|c| {
            c.slot == b.register.slot
                && c.space == b.register.space
                && c.stages.as_ref().is_none_or(|st| st.contains(&stage))
        })
    };
    for (li, layout) in effect.layouts.iter().enumerate() {
        if layout.from_reflection || layout.fields.is_empty() {
            continue;
        }
        // The binding shaders' declared sizes, each with its shader's label and buffer, largest
        // first.
        let mut sizes: Vec<(u32, &str, usize)> = Vec::new();
        for s in shaders {
            for b in s.info.bindings.iter().filter(|b| b.register.class == RegisterClass::ConstantBuffer) {
                let (BindingKind::UniformBuffer { size_bytes }, Some(ci)) = (&b.kind, buffer_of(s.info.stage, b))
                else {
                    continue;
                };
                if effect.cbuffers[ci].layout == li {
                    sizes.push((*size_bytes, &s.labels[0], ci));
                }
            }
        }
        if sizes.is_empty() {
            continue;
        }
        sizes.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        let (largest, by, ci) = sizes[0];
        let cb = &effect.cbuffers[ci];
        let others = {
            let n = sizes.iter().filter(|s| s.0 == largest).count() - 1;
            match n {
                0 => String::new(),
                1 => " and 1 other shader".to_string(),
                n => format!(" and {n} other shaders"),
            }
        };
        let reg = if cb.space == 0 { format!("b{}", cb.slot) } else { format!("b{}, space {}", cb.slot, cb.space) };
        let show = |f: &crate::effect::PlacedField| {
            format!("`{}` ({} at {}, bytes {}–{})", f.name, f.ty, format_offset(f.offset), f.offset, f.end())
        };
        let size = layout.size();
        if largest > size {
            // The shaders read past the layout's end: name the layout's last field.
            let (fi, last) = layout.fields.iter().enumerate().max_by_key(|(_, f)| f.end()).expect("not empty");
            push(
                errors,
                effect
                    .error(
                        &layout.field_spans[fi],
                        format!(
                            "effect {}: constant buffer `{}` ({reg}) is declared as {largest} bytes ({} registers) by \
                             shader {by}{others}, but layout `{}` covers only {size} bytes ({} registers), ending with \
                             {}: a field is missing or declared smaller than the shader's at or before it",
                            effect.name,
                            cb.name,
                            largest / 16,
                            layout.name,
                            size / 16,
                            show(last)
                        ),
                    )
                    .with_kind(DiagnosticKind::Cbuffer(cb.name.clone())),
            );
            continue;
        }
        if effect.cbuffers.iter().any(|c| c.layout == li && c.allow_larger) {
            continue;
        }
        // What the shaders cover: the largest declared size, or the size a binding shader's
        // reflection records when that is larger.
        let recorded = sizes.iter().filter_map(|s| reflected_sizes.get(&s.2)).copied().max().unwrap_or(0);
        let (end, whose) = if recorded > largest {
            (recorded, "the size their reflection records".to_string())
        } else {
            (largest, format!("shader {by}{others}"))
        };
        let Some((fi, past)) =
            layout.fields.iter().enumerate().filter(|(_, f)| f.end() > end).min_by_key(|(_, f)| f.offset)
        else {
            continue;
        };
        let (what, why) = if past.offset >= end {
            (format!("starts at {}, past the end of", format_offset(past.offset)), "no shader can read it".to_string())
        } else {
            (
                format!("reaches {} bytes past the end of", past.end() - end),
                format!(
                    "the layout's offsets part from the shaders' at `{}` or before it (a field added or widened \
                     before it shifts it)",
                    past.name
                ),
            )
        };
        push(
            errors,
            effect
                .error(
                    &layout.field_spans[fi],
                    format!(
                        "effect {}: field {} of layout `{}` {what} constant buffer `{}` ({reg}) as every shader \
                         binding it declares it: {end} bytes ({} registers, {whose}); {why}. If the layout is meant \
                         to cover more than the shaders declare, say so with `allow_larger = true` in [cbuffers.{}]",
                        effect.name,
                        show(past),
                        layout.name,
                        cb.name,
                        end.div_ceil(16),
                        cb.name
                    ),
                )
                .with_kind(DiagnosticKind::Cbuffer(cb.name.clone())),
        );
    }
}

/// A link mistake between a pass's vertex (or geometry) and pixel shaders: the first pair that
/// shows it, and how many other pairs do.
struct LinkProblem {
    /// Pass, the pixel input's semantic, the kind of mismatch.
    key: (String, String, u8),
    first: Diagnostic,
    more: usize,
    /// The pairs counted (writer label, pixel shader label).
    pairs: Vec<(String, String)>,
}

fn check_link(
    effect: &Effect,
    pass: &str,
    writer: Writer<'_>,
    ps: &CompiledShader,
    at: &Span,
    links: &mut Vec<LinkProblem>,
) {
    let Writer { stage, label, shader: vs } = writer;
    for input in ps.info.inputs.iter().filter(|i| i.location.is_some()) {
        let found = vs.info.outputs.iter().find(|o| {
            o.register == input.register
                && o.semantic.eq_ignore_ascii_case(&input.semantic)
                && o.semantic_index == input.semantic_index
        });
        let mut kind = 0;
        let problem = match found {
            None => {
                kind = 0;
                let at_reg: Vec<String> = vs
                    .info
                    .outputs
                    .iter()
                    .filter(|o| o.register == input.register)
                    .map(|o| o.semantic_label())
                    .collect();
                Some(format!(
                    "pixel shader {} reads {} (v{}) but {stage} shader {label} writes {} at o{}",
                    ps.labels[0],
                    input.semantic_label(),
                    input.register,
                    if at_reg.is_empty() { "nothing".to_string() } else { at_reg.join(", ") },
                    input.register
                ))
            }
            Some(o) if o.location != input.location || o.scalar != input.scalar || o.components < input.components => {
                kind = 1;
                Some(format!(
                    "pixel shader {} reads {} as @location({}) {}, but {stage} shader {label} writes it as @location({}) {}",
                    ps.labels[0],
                    input.semantic_label(),
                    input.location.unwrap_or(0),
                    input.wgsl_type(),
                    o.location.map(|l| l.to_string()).unwrap_or_else(|| "builtin".into()),
                    o.wgsl_type()
                ))
            }
            Some(o)
                if o.interpolation.is_some()
                    && input.interpolation.is_some()
                    && o.interpolation != input.interpolation =>
            {
                kind = 2;
                Some(format!(
                    "pixel shader {} reads {} with {} interpolation, but {stage} shader {label} writes it with {}: WebGPU needs both \
                     sides to agree, and effects translate each vertex shader once (D3D declares interpolation in the pixel \
                     shader only)",
                    ps.labels[0],
                    input.semantic_label(),
                    input.interpolation.map_or("", |i| i.name()),
                    o.interpolation.map_or("", |i| i.name())
                ))
            }
            Some(_) => None,
        };
        if let Some(p) = problem {
            let key = (pass.to_string(), input.semantic_label(), kind);
            let pair = (label.to_string(), ps.labels[0].clone());
            match links.iter_mut().find(|l| l.key == key) {
                Some(l) => {
                    if !l.pairs.contains(&pair) {
                        l.pairs.push(pair);
                        l.more += 1;
                    }
                }
                None => links.push(LinkProblem {
                    key,
                    first: effect.error(at, format!("effect {}, pass `{pass}`: {p}", effect.name)),
                    more: 0,
                    pairs: vec![pair],
                }),
            }
        }
    }
}

/// Every register a geometry shader reads (`v[n][r]`) is written by the pass's vertex shader at
/// the same register with the same semantic (D3D's linking rule between the stages).
fn check_geometry_inputs(
    effect: &Effect,
    pass: &str,
    (vs_label, vs): (&str, &StageInfo),
    (gs_label, gs): (&str, &StageInfo),
    at: &Span,
    errors: &mut Vec<Diagnostic>,
) {
    for input in gs.inputs.iter().filter(|i| i.builtin.is_none() && !i.semantic.is_empty()) {
        let written = vs.outputs.iter().any(|o| {
            o.register == input.register
                && o.semantic.eq_ignore_ascii_case(&input.semantic)
                && o.semantic_index == input.semantic_index
        });
        if written {
            continue;
        }
        let at_reg: Vec<String> =
            vs.outputs.iter().filter(|o| o.register == input.register).map(|o| o.semantic_label()).collect();
        let d = effect.error(
            at,
            format!(
                "effect {}, pass `{pass}`: geometry shader {gs_label} reads {} (v[][{}]) but vertex shader {vs_label} \
                 writes {} at o{}",
                effect.name,
                input.semantic_label(),
                input.register,
                if at_reg.is_empty() { "nothing".to_string() } else { at_reg.join(", ") },
                input.register
            ),
        );
        if !errors.contains(&d) {
            errors.push(d);
        }
    }
}

/// What to add to `[view_formats]` for a translation refused for lack of a view format: the
/// register from the refusal (`typed RWBuffer u0`, `typed UAV u1, space2`, `typed Buffer SRV
/// t3`) with a format its kind accepts.
fn view_format_hint(effect: &Effect, stage: Stage, refusal: Option<&dxbc_wgsl::Refusal>) -> String {
    let Some(dxbc_wgsl::RefusalSubject::ViewFormat { register, buffer }) = refusal.and_then(|r| r.subject) else {
        return String::new();
    };
    let (example, which) = match (register.class, buffer) {
        (dxbc_wgsl::BindingClass::UnorderedAccess, false) => {
            ("rgba8unorm", "its view's format: rgba8unorm, r32float, rgba16float, ...")
        }
        (dxbc_wgsl::BindingClass::UnorderedAccess, true) => {
            ("r32uint", "a 32-bit format: r32uint, r32float, rgba32float, ...")
        }
        _ => ("rgba32float", "a 32-bit format: r32float, rg32uint, rgba32float, ..."),
    };
    let setting = if register.space == 0 {
        format!("{}{}", register.class.letter(), register.slot)
    } else {
        format!("{}{},space{}", register.class.letter(), register.slot, register.space)
    };
    let key = if register.space == 0 { setting.clone() } else { format!("\"{setting}\"") };
    // An entry for the register that names other stages only: say so.
    if let Some(vf) = effect.view_formats.iter().find(|v| v.register() == setting) {
        if let Some(stages) = &vf.stages {
            let (line, _) = crate::diag::line_column(&effect.source, vf.span.start);
            let names: Vec<&str> = stages.iter().map(|s| s.name()).collect();
            return format!(
                "; the [view_formats] entry for {setting} on line {line} applies to {} only: add \"{}\" to its \
                 `stages`",
                names.join(", "),
                stage.name()
            );
        }
    }
    format!("; give it in the effect file: [view_formats] {key} = \"{example}\" ({which})")
}

/// The fields with every struct type name dropped (names of fields and members kept): the
/// layout as bytes see it, for comparing reflections of SM4 and SM5 builds of one source.
fn unnamed(fields: &[crate::effect::PlacedField]) -> Vec<crate::effect::PlacedField> {
    use crate::effect::VarType;
    fields
        .iter()
        .map(|f| {
            let mut f = f.clone();
            if let VarType::Struct(st) = &mut f.ty {
                st.name = None;
                st.members = unnamed(&st.members);
            }
            f
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn const_names_drop_the_effect_prefix() {
        assert_eq!(const_name("BasicEffect", "BasicEffect_VSBasicTx.dxbc"), "VS_BASIC_TX");
        assert_eq!(const_name("BasicEffect", "shaders.h:g_VSMain"), "G_VS_MAIN");
        assert_eq!(const_name("X", "X.dxbc"), "X");
    }
}

#[cfg(all(test, unix))]
mod read_limited_tests {
    use super::read_limited;
    use std::path::Path;

    /// A device that never ends (named, or through a link, as an effect file or a shader can be)
    /// is read up to the limit, not without bound; a file larger than the limit is refused by
    /// its size; a file within it is read whole.
    #[test]
    fn reads_stop_at_the_limit() {
        let e = read_limited(Path::new("/dev/zero"), 1 << 20).expect_err("/dev/zero was read to its end");
        assert_eq!(e.kind(), std::io::ErrorKind::FileTooLarge, "{e}");
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("big.dxbc");
        std::fs::File::create(&file).expect("create").set_len(1 << 40).expect("a sparse 1 TiB file");
        let e = read_limited(&file, 1 << 20).expect_err("a file past the limit was read");
        assert_eq!(e.kind(), std::io::ErrorKind::FileTooLarge, "{e}");
        std::fs::write(&file, b"DXBC").expect("write");
        assert_eq!(read_limited(&file, 4).expect("read"), b"DXBC");
    }
}
