//! The primitive stage: D3D's geometry shader on WebGPU, as compute work in front of a draw.
//!
//! WebGPU has no geometry stage. A pass with a geometry shader runs as three pipelines
//! (`docs/geometry.md` has the whole design, with the D3D11.3 sections it implements):
//!
//! 1. **vertex** — the pass's vertex shader translated as a compute shader
//!    ([`crate::VertexStage::Compute`]): one invocation per (instance, input position) of the
//!    draw (or of one chunk of it), pulling its inputs from the vertex buffers per the pass's
//!    input layout ([`VertexPulling`]) and writing its output registers to a storage buffer of
//!    vertex records ([`VERTEX_RECORDS`]);
//! 2. **geometry** — the geometry shader translated as a compute shader: one invocation per
//!    (instance, candidate primitive, GS instance) in D3D's order, assembling its input
//!    primitive from the vertex records per the draw's topology, and writing every vertex it
//!    emits into a fixed slot (`invocation × maxvertexcount + n`) of [`OUTPUT_VERTICES`] and, for
//!    strips, a restart-indexed strip into [`OUTPUT_INDICES`]: output memory is the worst case of
//!    `dcl_maxout`, so the output stays in API order without a count pass or atomics;
//! 3. **draw** — a render pipeline of a generated pass-through vertex shader
//!    ([`crate::geometry_draw_vertex_shader`]) over the output vertices as a vertex buffer
//!    (`Uint32x4` per output register), the restart-indexed output strips (or the points) and the
//!    pass's pixel shader.
//!
//! An indexed strip draw first runs the assembly kernel ([`ASSEMBLY_WGSL`]), which cuts the
//! index list at D3D's restart value and numbers the primitives (SV_PrimitiveID).
//!
//! Everything the two compute modules bind besides the shader's own resources is in group
//! [`SYSTEM_GROUP`] at the binding numbers below; the uniform [`DrawParams`] describes the draw
//! and the chunk being prepared.

pub use dxbc_wgsl_contract::geometry::{
    dispatch_size, DrawParams, InputPrimitive, OutputTopology, Topology, ASSEMBLY_TABLE, ASSEMBLY_WGSL,
    CULLED_POSITION, DRAW_PARAMS, DRAW_PARAMS_SIZE, INDEX_BUFFER, MAX_VERTEX_BUFFER_SLOTS, OUTPUT_INDICES,
    OUTPUT_VERTICES, RESTART_INDEX, SYSTEM_GROUP, VERTEX_BUFFER_BASE, VERTEX_RECORDS, WORKGROUP_SIZE,
};
mod streams;
pub use streams::{
    pass_through_geometry, resolve_so_declaration, GeometryStreams, SoDeclaration, SoDeclarationEntry,
    SoDeclarationError, SoResolvedEntry, StreamInfo, SO_MAX_ENTRIES,
};

/// What a geometry shader's translation needs from the code that drives it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GeometryInfo {
    /// `dcl_inputprimitive`.
    pub input_primitive: InputPrimitive,
    /// `dcl_outputtopology` (`None` when the shader declares none: it emits nothing).
    pub output_topology: Option<OutputTopology>,
    /// `dcl_maxout`: vertex slots per invocation (at least 1).
    pub max_vertices: u32,
    /// `dcl_gsinstances` (1 without it).
    pub instances: u32,
    /// Registers per vertex record the geometry module reads (its highest input register + 1):
    /// the vertex module must be translated with [`VertexPulling::record_registers`] equal.
    pub input_registers: u32,
    /// Registers per output vertex (`Uint32x4` attributes `0..output_registers` of the draw).
    pub output_registers: u32,
    /// The output register holding SV_Position, if any.
    pub position_register: Option<u32>,
    /// Index words per invocation in the output strips (`2 × max_vertices + 1`: an emit and a
    /// cut per vertex, and the restart that ends the invocation); 0 for a point list.
    pub index_stride: u32,
    /// The register (below `output_registers`) holding the cull flag of each output primitive
    /// on its leading vertex, when the shader writes SV_CullDistance (`crate::select`): its `x`
    /// is 1 when one cull distance is negative at every vertex of the primitive.
    #[cfg_attr(feature = "serde", serde(default))]
    pub cull_flag_register: Option<u32>,
    /// Stream output: the layout of a translation with
    /// [`crate::TranslateOptions::geometry_streams`] other than the default (regions per
    /// invocation, the region of each stream, slots per invocation); `None` for the plain
    /// translation (stream 0 drawn, the other streams dropped).
    pub streams: Option<StreamInfo>,
}

impl GeometryInfo {
    /// Bytes per output vertex.
    pub fn output_vertex_bytes(&self) -> u64 {
        u64::from(self.output_registers.max(1)) * 16
    }
}

/// A vertex attribute format (WebGPU's `GPUVertexFormat`), for vertex pulling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "lowercase"))]
#[allow(missing_docs)]
pub enum VertexFormat {
    Uint8,
    Uint8x2,
    Uint8x4,
    Sint8,
    Sint8x2,
    Sint8x4,
    Unorm8,
    Unorm8x2,
    Unorm8x4,
    Snorm8,
    Snorm8x2,
    Snorm8x4,
    Uint16,
    Uint16x2,
    Uint16x4,
    Sint16,
    Sint16x2,
    Sint16x4,
    Unorm16,
    Unorm16x2,
    Unorm16x4,
    Snorm16,
    Snorm16x2,
    Snorm16x4,
    Float16,
    Float16x2,
    Float16x4,
    Float32,
    Float32x2,
    Float32x3,
    Float32x4,
    Uint32,
    Uint32x2,
    Uint32x3,
    Uint32x4,
    Sint32,
    Sint32x2,
    Sint32x3,
    Sint32x4,
    Unorm10_10_10_2,
    Unorm8x4Bgra,
}

impl VertexFormat {
    /// Every format.
    pub const ALL: &'static [VertexFormat] = &[
        VertexFormat::Uint8,
        VertexFormat::Uint8x2,
        VertexFormat::Uint8x4,
        VertexFormat::Sint8,
        VertexFormat::Sint8x2,
        VertexFormat::Sint8x4,
        VertexFormat::Unorm8,
        VertexFormat::Unorm8x2,
        VertexFormat::Unorm8x4,
        VertexFormat::Snorm8,
        VertexFormat::Snorm8x2,
        VertexFormat::Snorm8x4,
        VertexFormat::Uint16,
        VertexFormat::Uint16x2,
        VertexFormat::Uint16x4,
        VertexFormat::Sint16,
        VertexFormat::Sint16x2,
        VertexFormat::Sint16x4,
        VertexFormat::Unorm16,
        VertexFormat::Unorm16x2,
        VertexFormat::Unorm16x4,
        VertexFormat::Snorm16,
        VertexFormat::Snorm16x2,
        VertexFormat::Snorm16x4,
        VertexFormat::Float16,
        VertexFormat::Float16x2,
        VertexFormat::Float16x4,
        VertexFormat::Float32,
        VertexFormat::Float32x2,
        VertexFormat::Float32x3,
        VertexFormat::Float32x4,
        VertexFormat::Uint32,
        VertexFormat::Uint32x2,
        VertexFormat::Uint32x3,
        VertexFormat::Uint32x4,
        VertexFormat::Sint32,
        VertexFormat::Sint32x2,
        VertexFormat::Sint32x3,
        VertexFormat::Sint32x4,
        VertexFormat::Unorm10_10_10_2,
        VertexFormat::Unorm8x4Bgra,
    ];

    /// WebGPU's name (`float32x3`, `unorm10-10-10-2`, `unorm8x4-bgra`).
    pub fn webgpu_name(self) -> String {
        match self {
            VertexFormat::Unorm10_10_10_2 => "unorm10-10-10-2".into(),
            VertexFormat::Unorm8x4Bgra => "unorm8x4-bgra".into(),
            f => format!("{f:?}").to_lowercase(),
        }
    }

    /// The format of a WebGPU name.
    pub fn from_webgpu_name(name: &str) -> Option<VertexFormat> {
        Self::ALL.iter().copied().find(|f| f.webgpu_name() == name)
    }

    /// Bytes per element.
    pub fn size(self) -> u32 {
        use VertexFormat::*;
        match self {
            Uint8 | Sint8 | Unorm8 | Snorm8 => 1,
            Uint8x2 | Sint8x2 | Unorm8x2 | Snorm8x2 | Uint16 | Sint16 | Unorm16 | Snorm16 | Float16 => 2,
            Uint8x4 | Sint8x4 | Unorm8x4 | Snorm8x4 | Uint16x2 | Sint16x2 | Unorm16x2 | Snorm16x2 | Float16x2
            | Float32 | Uint32 | Sint32 | Unorm10_10_10_2 | Unorm8x4Bgra => 4,
            Uint16x4 | Sint16x4 | Unorm16x4 | Snorm16x4 | Float16x4 | Float32x2 | Uint32x2 | Sint32x2 => 8,
            Float32x3 | Uint32x3 | Sint32x3 => 12,
            Float32x4 | Uint32x4 | Sint32x4 => 16,
        }
    }

    /// Components the buffer supplies (the rest read D3D's defaults: 0, 0, 0, 1).
    pub fn components(self) -> u32 {
        use VertexFormat::*;
        match self {
            Uint8 | Sint8 | Unorm8 | Snorm8 | Uint16 | Sint16 | Unorm16 | Snorm16 | Float16 | Float32 | Uint32
            | Sint32 => 1,
            Uint8x2 | Sint8x2 | Unorm8x2 | Snorm8x2 | Uint16x2 | Sint16x2 | Unorm16x2 | Snorm16x2 | Float16x2
            | Float32x2 | Uint32x2 | Sint32x2 => 2,
            Float32x3 | Uint32x3 | Sint32x3 => 3,
            _ => 4,
        }
    }

    /// The scalar kind a shader reads it as (`float` for the normalized and float formats).
    pub fn kind(self) -> crate::ScalarKind {
        use VertexFormat::*;
        match self {
            Uint8 | Uint8x2 | Uint8x4 | Uint16 | Uint16x2 | Uint16x4 | Uint32 | Uint32x2 | Uint32x3 | Uint32x4 => {
                crate::ScalarKind::Uint
            }
            Sint8 | Sint8x2 | Sint8x4 | Sint16 | Sint16x2 | Sint16x4 | Sint32 | Sint32x2 | Sint32x3 | Sint32x4 => {
                crate::ScalarKind::Sint
            }
            _ => crate::ScalarKind::Float,
        }
    }
}

/// One element of a pass's input layout (`D3D11_INPUT_ELEMENT_DESC`), resolved to the vertex
/// shader's input register it feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PulledElement {
    /// The vertex shader's input register (`v#`).
    pub register: u32,
    /// Vertex buffer slot (`InputSlot`, 0-15 here).
    pub slot: u32,
    /// Byte offset in the element (`AlignedByteOffset`, resolved).
    pub offset: u32,
    /// Format.
    pub format: VertexFormat,
    /// `D3D11_INPUT_PER_INSTANCE_DATA` with its `InstanceDataStepRate` (0: every instance reads
    /// element `StartInstanceLocation`); `None` for per-vertex data.
    pub instance_step_rate: Option<u32>,
}

/// How the vertex shader in front of a geometry shader reads its inputs and writes its
/// outputs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VertexPulling {
    /// The input layout's elements.
    pub elements: Vec<PulledElement>,
    /// Byte stride per vertex buffer slot (index = slot).
    pub strides: Vec<u32>,
    /// Registers per vertex record: the geometry shader's [`GeometryInfo::input_registers`].
    pub record_registers: u32,
}

impl VertexPulling {
    /// A layout for `shader`'s input signature alone: each input register's elements as one
    /// 32-bit element of its component type and width (`Float32x4`, `Uint32x2`, ...), packed
    /// in register order in slot 0 (per-vertex data; system values are not pulled), and
    /// `record_registers` the shader's highest output register + 1. What `qualify` checks a
    /// vertex shader in front of the primitive stage with; an effect's pass uses its own layout.
    pub fn packed(shader: &crate::Shader<'_>) -> VertexPulling {
        use crate::chunks::signature::ComponentType as C;
        let mut regs: Vec<u32> = shader
            .inputs
            .elements
            .iter()
            .filter(|e| e.system_value == 0 && e.register < 32)
            .map(|e| e.register)
            .collect();
        regs.sort_unstable();
        regs.dedup();
        let mut offset = 0u32;
        let mut elements = Vec::new();
        for reg in regs {
            let elems: Vec<_> =
                shader.inputs.elements.iter().filter(|e| e.register == reg && e.system_value == 0).collect();
            let mask = elems.iter().fold(0u8, |a, e| a | e.mask);
            let width = (8 - mask.leading_zeros()).clamp(1, 4);
            use VertexFormat as F;
            let format = match (elems.first().map(|e| e.component_type), width) {
                (Some(C::Uint32), 1) => F::Uint32,
                (Some(C::Uint32), 2) => F::Uint32x2,
                (Some(C::Uint32), 3) => F::Uint32x3,
                (Some(C::Uint32), _) => F::Uint32x4,
                (Some(C::Sint32), 1) => F::Sint32,
                (Some(C::Sint32), 2) => F::Sint32x2,
                (Some(C::Sint32), 3) => F::Sint32x3,
                (Some(C::Sint32), _) => F::Sint32x4,
                (_, 1) => F::Float32,
                (_, 2) => F::Float32x2,
                (_, 3) => F::Float32x3,
                _ => F::Float32x4,
            };
            elements.push(PulledElement { register: reg, slot: 0, offset, format, instance_step_rate: None });
            offset += format.size();
        }
        let record_registers =
            shader.outputs.elements.iter().map(|e| e.register).filter(|&r| r < 32).max().map_or(1, |r| r + 1);
        VertexPulling { elements, strides: vec![offset.max(4)], record_registers }
    }
}

/// Whether a vertex shader runs only in the primitive stage (`VertexStage::Compute` in front of
/// a geometry stage, or of the implicit pass-through one): it writes SV_CullDistance, which
/// WebGPU's rasterizer lacks and the primitive stage culls per primitive (`crate::select`).
pub fn needs_primitive_stage(shader: &crate::Shader<'_>) -> bool {
    shader.program.version.stage == crate::ShaderStage::Vertex
        && shader.outputs.elements.iter().any(|e| e.system_value == 3)
}

/// The vertex shader of a geometry pass's draw (docs/geometry.md, "The draw"): reads each of
/// the geometry shader's output registers as a `Uint32x4` vertex attribute at
/// `@location(register)` (`0..output_registers`, offset `16 × register`, stride
/// [`GeometryInfo::output_vertex_bytes`]) and writes what a vertex shader with the geometry
/// shader's output signature would: SV_Position as the position (a vertex without one at
/// [`CULLED_POSITION`], so nothing is drawn), every other register at its location with the
/// interpolation `interpolation` gives it (the pixel shader's inputs, as for
/// [`crate::TranslateOptions::vertex_output_interpolation`]; flat for integers and for
/// SV_PrimitiveID, which a pixel shader translated with
/// [`crate::TranslateOptions::behind_geometry`] reads there).
///
/// # Errors
/// [`crate::TranslateError::InvalidOptions`] when `gs` is not a geometry shader's translation;
/// [`crate::TranslateError::Internal`] when naga rejects the module (a bug).
pub fn geometry_draw_vertex_shader(
    gs: &crate::Translation,
    interpolation: &[(u32, crate::Interpolation)],
) -> Result<crate::Translation, crate::TranslateError> {
    use crate::{InterfaceVar, Interpolation as P, ScalarKind, TranslateError};
    let info = gs.geometry.as_ref().ok_or_else(|| {
        TranslateError::InvalidOptions("geometry_draw_vertex_shader needs a geometry shader's translation".into())
    })?;
    let regs = info.output_registers.max(1);
    let mut text = String::new();
    text.push_str("struct VertexInput {\n");
    for r in 0..regs {
        text.push_str(&format!("    @location({r}) r{r}: vec4<u32>,\n"));
    }
    text.push_str("}\n\nstruct VertexOutput {\n    @builtin(position) @invariant position: vec4<f32>,\n");
    let mut body = String::new();
    match info.position_register {
        Some(p) => body.push_str(&format!("    out.position = bitcast<vec4<f32>>(v.r{p});\n")),
        None => {
            let [x, y, z, w] = CULLED_POSITION;
            body.push_str(&format!("    out.position = vec4<f32>({x:?}, {y:?}, {z:?}, {w:?});\n"))
        }
    }
    let mut inputs = Vec::new();
    let mut outputs = vec![InterfaceVar {
        semantic: "SV_Position".into(),
        semantic_index: 0,
        register: info.position_register.unwrap_or(0),
        location: None,
        builtin: Some(crate::Builtin::Position),
        scalar: ScalarKind::Float,
        components: 4,
        first_component: 0,
        interpolation: None,
    }];
    for r in 0..regs {
        inputs.push(InterfaceVar {
            semantic: format!("R{r}"),
            semantic_index: 0,
            register: r,
            location: Some(r),
            builtin: None,
            scalar: ScalarKind::Uint,
            components: 4,
            first_component: 0,
            interpolation: None,
        });
    }
    for v in gs.outputs.iter().filter(|v| v.builtin.is_none() && v.register < regs) {
        let r = v.register;
        let interp = if v.scalar != ScalarKind::Float {
            P::Flat
        } else {
            interpolation.iter().find(|(reg, _)| *reg == r).map_or(P::Perspective, |(_, i)| *i)
        };
        let attr = match interp {
            P::Perspective => "@interpolate(perspective, center)",
            P::PerspectiveCentroid => "@interpolate(perspective, centroid)",
            P::PerspectiveSample => "@interpolate(perspective, sample)",
            P::Linear => "@interpolate(linear, center)",
            P::LinearCentroid => "@interpolate(linear, centroid)",
            P::LinearSample => "@interpolate(linear, sample)",
            P::Flat => "@interpolate(flat)",
        };
        let ty = v.scalar.wgsl_name();
        text.push_str(&format!("    @location({r}) {attr} o{r}: vec4<{ty}>,\n"));
        if v.scalar == ScalarKind::Uint {
            body.push_str(&format!("    out.o{r} = v.r{r};\n"));
        } else {
            body.push_str(&format!("    out.o{r} = bitcast<vec4<{ty}>>(v.r{r});\n"));
        }
        outputs.push(InterfaceVar { location: Some(r), components: 4, interpolation: Some(interp), ..v.clone() });
    }
    // SV_ClipDistance outputs: their lanes, in register then component order, as the vertex
    // stage writes them (`clip_distances`, WebGPU's optional feature).
    let clip: Vec<(u32, u8)> = gs
        .outputs
        .iter()
        .filter(|v| v.builtin == Some(crate::Builtin::ClipDistances) && v.register < regs)
        .flat_map(|v| (v.first_component..v.first_component + v.components).map(move |c| (v.register, c)))
        .collect();
    let mut required_features = Vec::new();
    if !clip.is_empty() {
        text.insert_str(0, "enable clip_distances;\n\n");
        text.push_str(&format!("    @builtin(clip_distances) clip: array<f32, {}>,\n", clip.len()));
        for (i, (r, c)) in clip.iter().enumerate() {
            body.push_str(&format!("    out.clip[{i}] = bitcast<f32>(v.r{r}[{c}]);\n"));
        }
        let first = &gs.outputs.iter().find(|v| v.builtin == Some(crate::Builtin::ClipDistances));
        outputs.push(InterfaceVar {
            semantic: first.map_or_else(|| "SV_ClipDistance".into(), |v| v.semantic.clone()),
            semantic_index: 0,
            register: clip[0].0,
            location: None,
            builtin: Some(crate::Builtin::ClipDistances),
            scalar: ScalarKind::Float,
            components: clip.len() as u8,
            first_component: clip[0].1,
            interpolation: None,
        });
        required_features.push(crate::WebGpuFeature::ClipDistances);
    }
    text.push_str("}\n\n@vertex\nfn main(v: VertexInput) -> VertexOutput {\n    var out: VertexOutput;\n");
    text.push_str(&body);
    text.push_str("    return out;\n}\n");
    let module = naga::front::wgsl::parse_str(&text)
        .map_err(|e| TranslateError::Internal(format!("draw vertex shader: {}", e.emit_to_string(&text))))?;
    // The capabilities of every translation: `@interpolate(..., sample)` (a pixel shader's
    // `sample` inputs) needs naga's MULTISAMPLED_SHADING, which WebGPU's core provides.
    let mut validator =
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), crate::emit::WEBGPU_CAPABILITIES);
    let module_info = validator
        .validate(&module)
        .map_err(|e| TranslateError::Internal(format!("draw vertex shader: {}", e.emit_to_string(&text))))?;
    let body = naga::back::wgsl::write_string(&module, &module_info, naga::back::wgsl::WriterFlags::empty())
        .map_err(|e| TranslateError::Internal(format!("WGSL writer: {e}")))?;
    let wgsl = format!(
        "// Generated by dxbc-wgsl {}: the vertex stage drawing a geometry shader's output (shader model {}.{}).\n\n{body}",
        crate::TRANSLATOR_VERSION,
        gs.shader_model.0,
        gs.shader_model.1
    );
    Ok(crate::Translation {
        wgsl,
        stage: crate::ShaderStage::Vertex,
        shader_model: gs.shader_model,
        entry_point: "main".into(),
        inputs,
        outputs,
        bindings: Vec::new(),
        workgroup_size: None,
        workgroup_storage_bytes: 0,
        derivative_uniformity_off: false,
        required_features,
        geometry: None,
        pipeline_constants: Vec::new(),
        per_primitive: gs.per_primitive,
    })
}
