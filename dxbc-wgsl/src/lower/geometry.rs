//! The primitive stage (`crate::geometry`, docs/geometry.md): a geometry shader lowered to a
//! compute shader, and a vertex shader lowered to a compute shader in front of one.
//!
//! Both are lowered into a parsed helper library (`geometry.wgsl`, `vertex_pull.wgsl`, like the
//! double-precision helpers): the library holds the primitive stage's bindings (group
//! [`crate::geometry::SYSTEM_GROUP`]), the invocation's place in the draw, primitive assembly and
//! vertex pulling; the lowering calls it.
//!
//! - a geometry shader's entry point starts with `if !gs_begin(...) { gs_end(); return; }`; an
//!   input `v[k][r]` reads `gs_input(k, r)`, `vPrim` and `vGSInstanceID` the invocation's
//!   values; `emit` stores every output register into the slot `gs_emit()` returns, `cut` calls
//!   `gs_cut()`, and every return calls `gs_end()`, which ends the invocation's strips;
//! - a vertex shader's entry point starts with `if !vs_begin(...) { return; }`, pulls each input
//!   register with `vs_fetch` (or its vertex or instance ID), and every return writes the vertex
//!   record (`vs_store`).

use super::io_decl::{if_scalar, kind_of, sv, sv_semantic};
use super::{refuse_at, refuse_decl, Cx, E, R, U};
use crate::geometry::{
    GeometryInfo, GeometryStreams, InputPrimitive, OutputTopology, StreamInfo, VertexFormat, VertexPulling,
    MAX_VERTEX_BUFFER_SLOTS, SYSTEM_GROUP, VERTEX_BUFFER_BASE, WORKGROUP_SIZE,
};
use crate::refusal::{RefusalReason, TranslateError};
use crate::sm4::decl::{InputPrimitive as DeclPrimitive, PrimitiveTopology};
use crate::sm4::{Index, Operand, OperandType, ShaderStage};
use crate::{InterfaceVar, ScalarKind as IfScalar};
use naga::{Binding, BuiltIn, Expression, FunctionArgument, ScalarKind, Statement, UnaryOperator};
use std::sync::OnceLock;

pub use dxbc_wgsl_contract::geometry::{GEOMETRY_STREAMS_WGSL, GEOMETRY_WGSL, VERTEX_PULL_WGSL};

/// The semantic of a geometry shader's cull-flag output (`GeometryInfo::cull_flag_register`).
pub const CULL_FLAG_SEMANTIC: &str = "DXBC_WGSL_CULL_FLAG";

/// What a vertex or geometry shader writes per primitive (`crate::select`): its
/// SV_RenderTargetArrayIndex and SV_ViewportArrayIndex output registers (the rasterized
/// stream's) and a geometry shader's cull flag.
pub(super) fn per_primitive_outputs(
    m: &crate::ir::Module<'_>,
    geometry: Option<&GeometryInfo>,
) -> crate::select::PrimitiveSelect {
    let source = |sysval: u32| {
        m.outputs.iter().find(|d| d.operand.ty == OperandType::Output && d.system_value == sysval).map(|d| {
            crate::select::SelectSource { location: d.register, component: d.mask.trailing_zeros().min(3) as u8 }
        })
    };
    if !matches!(m.version.stage, ShaderStage::Vertex | ShaderStage::Geometry) {
        return crate::select::PrimitiveSelect::default();
    }
    crate::select::PrimitiveSelect {
        render_target_array_index: source(sv::RENDER_TARGET_ARRAY_INDEX),
        viewport_array_index: source(sv::VIEWPORT_ARRAY_INDEX),
        cull_flag: geometry
            .and_then(|g| g.cull_flag_register)
            .map(|location| crate::select::SelectSource { location, component: 0 }),
    }
}

/// The primitive-stage role of the module being lowered.
pub(crate) enum PrimMode {
    /// A geometry shader: the output registers `emit` stores, in register order; `gs_cull`'s
    /// arguments when it writes cull distances; `streams` when translated with stream output
    /// (the stream library's emit, cut and end).
    Geometry { outputs: Vec<u32>, cull: Option<[u32; 6]>, streams: bool },
    /// A vertex shader in front of one: registers per vertex record.
    VertexCompute { record_registers: u32 },
}

/// The helper library a primitive-stage module is lowered into, `None` for the other stages.
pub(super) fn library_text(m: &crate::ir::Module<'_>, options: &crate::TranslateOptions) -> Option<String> {
    match (m.version.stage, &options.vertex_stage) {
        (ShaderStage::Geometry, _) if !options.geometry_streams.is_default() => {
            Some(format!("{GEOMETRY_WGSL}{GEOMETRY_STREAMS_WGSL}"))
        }
        (ShaderStage::Geometry, _) => Some(GEOMETRY_WGSL.to_string()),
        (ShaderStage::Vertex, crate::VertexStage::Compute(p)) => Some(vertex_pull_text(p)),
        (ShaderStage::Pixel, _) if options.primitive_select.is_some_and(|s| s.selects()) => {
            Some(crate::select::SELECT_WGSL.to_string())
        }
        _ => None,
    }
}

/// The helper library `text` parsed (with the double-precision helpers before it when
/// `doubles`). The geometry library, the same for every geometry shader, is parsed once.
pub(super) fn library(text: &str, doubles: bool) -> R<naga::Module> {
    fn parse(text: &str, doubles: bool) -> Result<naga::Module, String> {
        let text = if doubles { format!("{}\n{text}", super::F64_WGSL) } else { text.to_string() };
        naga::front::wgsl::parse_str(&text).map_err(|e| e.emit_to_string(&text))
    }
    static GEOMETRY: [OnceLock<Result<naga::Module, String>>; 2] = [OnceLock::new(), OnceLock::new()];
    let parsed = if text == GEOMETRY_WGSL {
        GEOMETRY[usize::from(doubles)].get_or_init(|| parse(text, doubles)).clone()
    } else {
        parse(text, doubles)
    };
    parsed.map_err(|e| TranslateError::Internal(format!("the primitive-stage library does not parse: {e}")))
}

/// The slots a vertex-pulling layout reads, sorted.
fn slots_of(p: &VertexPulling) -> Vec<u32> {
    let mut slots: Vec<u32> = p.elements.iter().map(|e| e.slot).filter(|&s| s < MAX_VERTEX_BUFFER_SLOTS).collect();
    slots.sort_unstable();
    slots.dedup();
    slots
}

/// `vertex_pull.wgsl` with the vertex buffers of the slots the layout reads.
fn vertex_pull_text(p: &VertexPulling) -> String {
    let slots = slots_of(p);
    let mut s = VERTEX_PULL_WGSL.to_string();
    for &slot in &slots {
        s.push_str(&format!(
            "@group({SYSTEM_GROUP}) @binding({}) var<storage, read> vs_vb{slot}: array<u32>;\n",
            VERTEX_BUFFER_BASE + slot
        ));
    }
    s.push_str("\n// Word `w` of vertex buffer slot `slot` (0 past its end).\nfn vs_word(slot: u32, w: u32) -> u32 {\n    switch slot {\n");
    for &slot in &slots {
        s.push_str(&format!(
            "        case {slot}u: {{ if (w < arrayLength(&vs_vb{slot})) {{ return vs_vb{slot}[w]; }} return 0u; }}\n"
        ));
    }
    s.push_str("        default: { return 0u; }\n    }\n}\n");
    // A binding of 4 GiB or more holds more bytes than a 32-bit address reaches: its length is
    // capped at the last whole word below 2^32.
    s.push_str("\n// Bytes of slot `slot`'s binding (0 for a slot the layout does not read).\nfn vs_bytes(slot: u32) -> u32 {\n    switch slot {\n");
    for &slot in &slots {
        s.push_str(&format!("        case {slot}u: {{ return min(arrayLength(&vs_vb{slot}), 0x3FFFFFFFu) * 4u; }}\n"));
    }
    s.push_str("        default: { return 0u; }\n    }\n}\n");
    s
}

/// The stream whose outputs the declaration at `at` declares: the last `dcl_stream` before it
/// (0 without one).
fn decl_stream(m: &crate::ir::Module<'_>, at: usize) -> u32 {
    m.program.instructions[..at.min(m.program.instructions.len())]
        .iter()
        .rev()
        .find_map(|ins| match ins.decl.as_deref() {
            Some(crate::sm4::decl::Declaration::Stream(op)) => Some(op.reg()),
            _ => None,
        })
        .unwrap_or(0)
}

/// The public input primitive of a declaration's.
fn input_primitive(p: DeclPrimitive) -> Option<InputPrimitive> {
    Some(match p {
        DeclPrimitive::Point => InputPrimitive::Point,
        DeclPrimitive::Line => InputPrimitive::Line,
        DeclPrimitive::Triangle => InputPrimitive::Triangle,
        DeclPrimitive::LineAdj => InputPrimitive::LineAdj,
        DeclPrimitive::TriangleAdj => InputPrimitive::TriangleAdj,
        DeclPrimitive::ControlPointPatch(n) if (1..=32).contains(&n) => InputPrimitive::Patch(n),
        _ => return None,
    })
}

impl Cx<'_, '_> {
    /// Calls helper `name` of the library for its value.
    fn prim_call(&mut self, name: &str, arguments: Vec<E>) -> R<E> {
        self.call_library(name, arguments)
    }

    /// Calls helper `name` of the library for its effect.
    fn prim_call_void(&mut self, name: &str, arguments: Vec<E>) -> R<()> {
        self.call_library_opt(name, arguments, false).map(|_| ())
    }

    /// The value of the library's private global `name`.
    fn prim_global(&mut self, name: &str) -> R<E> {
        let g = self
            .module
            .global_variables
            .iter()
            .find(|(_, g)| g.name.as_deref() == Some(name))
            .map(|(h, _)| h)
            .ok_or_else(|| TranslateError::Internal(format!("the primitive-stage library has no global `{name}`")))?;
        let p = self.b.expr(Expression::GlobalVariable(g));
        Ok(self.b.load(p))
    }

    /// The entry point's `workgroup_id` and `local_invocation_index` arguments.
    fn prim_arguments(&mut self) -> (E, E) {
        let v3 = self.ty(U, 3);
        let u1 = self.ty(U, 1);
        let n = self.b.f.arguments.len() as u32;
        self.b.f.arguments.push(FunctionArgument {
            name: Some("workgroup_id".into()),
            ty: v3,
            binding: Some(Binding::BuiltIn(BuiltIn::WorkGroupId)),
        });
        self.b.f.arguments.push(FunctionArgument {
            name: Some("local_index".into()),
            ty: u1,
            binding: Some(Binding::BuiltIn(BuiltIn::LocalInvocationIndex)),
        });
        let wg = self.b.expr(Expression::FunctionArgument(n));
        let li = self.b.expr(Expression::FunctionArgument(n + 1));
        (wg, li)
    }

    /// `if (!cond) { <then>; return; }` with `then` the calls `names`.
    fn prim_guard(&mut self, cond: E, names: &[&str]) -> R<()> {
        let not = self.b.expr(Expression::Unary { op: UnaryOperator::LogicalNot, expr: cond });
        self.b.open();
        for name in names {
            self.prim_call_void(name, Vec::new())?;
        }
        self.b.stmt(Statement::Return { value: None });
        let accept = self.b.close();
        self.b.stmt(Statement::If { condition: not, accept, reject: naga::Block::new() });
        Ok(())
    }

    /// Declares a geometry shader's interface: the invocation's place (`gs_begin`), the output
    /// registers; returns the interface (inputs: the vertex record's registers; outputs: the
    /// output vertex's) and the primitive stage's description.
    pub(super) fn declare_geometry_io(
        &mut self,
        streams: GeometryStreams,
    ) -> R<(Vec<InterfaceVar>, Vec<InterfaceVar>, GeometryInfo)> {
        let m = self.m;
        let first_decl = m.program.instructions.iter().position(|i| i.opcode.is_declaration()).unwrap_or(0);
        let (at, decl_primitive) = m.gs.input_primitive.ok_or_else(|| {
            refuse_decl(
                m,
                first_decl,
                RefusalReason::DeclarationUnsupported,
                "a geometry shader without dcl_inputprimitive",
            )
        })?;
        let primitive = input_primitive(decl_primitive).ok_or_else(|| {
            refuse_decl(
                m,
                at,
                RefusalReason::DeclarationUnsupported,
                format!("dcl_inputprimitive {decl_primitive:?} is not an input primitive"),
            )
        })?;
        let output_topology = match m.gs.output_topology {
            None => None,
            Some((_, PrimitiveTopology::PointList)) => Some(OutputTopology::PointList),
            Some((_, PrimitiveTopology::LineStrip)) => Some(OutputTopology::LineStrip),
            Some((_, PrimitiveTopology::TriangleStrip)) => Some(OutputTopology::TriangleStrip),
            Some((at, t)) => {
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::DeclarationUnsupported,
                    format!(
                        "dcl_outputtopology {t:?}: a geometry shader outputs points, line strips or triangle strips"
                    ),
                ))
            }
        };
        let (_, max_out) = m.gs.max_out.ok_or_else(|| {
            refuse_decl(m, first_decl, RefusalReason::DeclarationUnsupported, "a geometry shader without dcl_maxout")
        })?;
        let instances = m.gs.instances.map_or(1, |(_, n)| n);
        // Stream output: the streams kept and their layout; the rasterized stream's signature
        // elements say which registers are system values (the other streams' are data).
        let declared: Vec<u32> = if m.gs.streams.is_empty() { vec![0] } else { m.gs.streams.clone() };
        let stream_info = StreamInfo::new(output_topology, max_out, streams, &declared)?;
        let so = stream_info.is_some();
        let raster = if so { streams.rasterized } else { Some(0) };
        // Inputs: the vertex record's registers.
        let mut in_regs: Vec<u32> =
            m.inputs.iter().filter(|d| d.operand.ty == OperandType::Input).map(|d| d.register).collect();
        in_regs.sort_unstable();
        in_regs.dedup();
        let input_registers = in_regs.last().map_or(1, |r| r + 1);
        let mut in_vars = Vec::new();
        for &reg in &in_regs {
            let elems: Vec<_> = m.input_signature.elements.iter().filter(|e| e.register == reg).collect();
            let mask = elems.iter().fold(0u8, |a, e| a | e.mask);
            in_vars.push(InterfaceVar {
                semantic: elems.first().map(|e| e.semantic_name.clone()).unwrap_or_default(),
                semantic_index: elems.first().map(|e| e.semantic_index).unwrap_or(0),
                register: reg,
                location: Some(reg),
                builtin: None,
                scalar: elems.first().map(|e| if_scalar(kind_of(e.component_type))).unwrap_or(IfScalar::Float),
                components: if mask == 0 { 4 } else { (8 - mask.leading_zeros() as u8).max(1) },
                first_component: 0,
                interpolation: None,
            });
        }
        for d in &m.inputs {
            match d.operand.ty {
                OperandType::Input | OperandType::InputPrimitiveId | OperandType::InputGsInstanceId => {}
                other => {
                    return Err(refuse_decl(
                        m,
                        d.at,
                        RefusalReason::OperandUnsupported,
                        format!("input register type {other:?} in a geometry shader"),
                    ))
                }
            }
        }
        // Outputs: every declared or signature register, a zero-initialised local each.
        let mut out_regs: Vec<u32> =
            m.outputs.iter().filter(|d| d.operand.ty == OperandType::Output).map(|d| d.register).collect();
        for e in &m.output_signature.elements {
            if e.register < 32 && (e.stream == 0 || so) {
                out_regs.push(e.register);
            }
        }
        out_regs.sort_unstable();
        out_regs.dedup();
        if let Some(d) = m.outputs.iter().find(|d| d.operand.ty != OperandType::Output) {
            return Err(refuse_decl(
                m,
                d.at,
                RefusalReason::OperandUnsupported,
                format!("output register type {:?} in a geometry shader", d.operand.ty),
            ));
        }
        let mut out_vars = Vec::new();
        let mut cull_lanes: Vec<(u32, u32)> = Vec::new();
        // SV_ClipDistance outputs (`Builtin::ClipDistances`, register and lanes), listed after
        // the registers: the draw's vertex shader writes them to `clip_distances`.
        let mut clip_vars: Vec<InterfaceVar> = Vec::new();
        let mut clip_count = 0u32;
        let mut position_register = None;
        let mut components = 0u32;
        for &reg in &out_regs {
            let decls: Vec<_> = m.outputs.iter().filter(|d| d.register == reg).collect();
            let elems: Vec<_> =
                m.output_signature.elements.iter().filter(|e| e.register == reg && Some(e.stream) == raster).collect();
            // With stream output, a declaration's system value counts for the rasterized
            // stream's (SM5 declares each stream's outputs after its dcl_stream).
            let sv_decls: Vec<_> =
                decls.iter().filter(|d| !so || Some(decl_stream(m, d.at)) == raster).copied().collect();
            let all_elems: Vec<_> = m.output_signature.elements.iter().filter(|e| e.register == reg).collect();
            let sysval = sv_decls
                .iter()
                .map(|d| d.system_value)
                .find(|&s| s != 0)
                .or_else(|| elems.iter().map(|e| e.system_value).find(|&s| s != 0 && s < 64))
                .unwrap_or(0);
            let at = decls.first().map_or(first_decl, |d| d.at);
            let kind_elems = if so && !all_elems.is_empty() { &all_elems } else { &elems };
            let mut kind = kind_elems.first().map(|e| kind_of(e.component_type)).unwrap_or(ScalarKind::Float);
            if kind_elems.iter().any(|e| kind_of(e.component_type) != kind) {
                kind = ScalarKind::Uint;
            }
            let builtin = match sysval {
                0 | sv::PRIMITIVE_ID => None,
                sv::POSITION => {
                    if position_register.is_some() {
                        return Err(refuse_decl(
                            m,
                            at,
                            RefusalReason::SystemValueUnsupported,
                            format!("o{reg} is a second SV_Position output"),
                        ));
                    }
                    position_register = Some(reg);
                    Some(crate::Builtin::Position)
                }
                // Per-primitive values (`crate::select`): flat registers of the output vertex the
                // pixel shader's selection reads at the leading vertex; cull distances feed the
                // cull flag `gs_cull` computes.
                sv::RENDER_TARGET_ARRAY_INDEX | sv::VIEWPORT_ARRAY_INDEX => None,
                // SV_ClipDistance lanes go to the draw's `clip_distances` (the register stays at
                // its location too, for a pixel shader reading them interpolated).
                sv::CLIP_DISTANCE | sv::CULL_DISTANCE => {
                    let mask_of = |name: u32| {
                        elems.iter().filter(|e| e.system_value == name).fold(0u8, |a, e| a | e.mask)
                            | decls.iter().filter(|d| d.system_value == name).fold(0u8, |a, d| a | d.mask)
                    };
                    let (cull, clip) = (mask_of(sv::CULL_DISTANCE), mask_of(sv::CLIP_DISTANCE));
                    if cull != 0 {
                        if kind != ScalarKind::Float || cull_lanes.len() == 2 {
                            return Err(refuse_decl(
                                m,
                                at,
                                RefusalReason::SystemValueUnsupported,
                                format!("o{reg}: SV_CullDistance in a third register or packed with integers"),
                            ));
                        }
                        cull_lanes.push((reg, u32::from(cull)));
                    }
                    if clip != 0 {
                        let (first, n) = (clip.trailing_zeros(), clip.count_ones());
                        if kind != ScalarKind::Float || clip >> first != (1u8 << n) - 1 || clip_count + n > 8 {
                            return Err(refuse_decl(
                                m,
                                at,
                                RefusalReason::SystemValueUnsupported,
                                format!(
                                    "o{reg}: SV_ClipDistance packed with integers, in lanes that are not \
                                     contiguous, or past 8 distances"
                                ),
                            ));
                        }
                        clip_count += n;
                        clip_vars.push(InterfaceVar {
                            semantic: elems
                                .iter()
                                .find(|e| e.system_value == sv::CLIP_DISTANCE)
                                .map_or_else(|| "SV_ClipDistance".into(), |e| e.semantic_name.clone()),
                            semantic_index: 0,
                            register: reg,
                            location: None,
                            builtin: Some(crate::Builtin::ClipDistances),
                            scalar: IfScalar::Float,
                            components: n as u8,
                            first_component: first as u8,
                            interpolation: None,
                        });
                    }
                    None
                }
                other => {
                    return Err(refuse_decl(
                        m,
                        at,
                        RefusalReason::SystemValueUnsupported,
                        format!("geometry-shader output {}: not passed on to the draw yet", sv_semantic(other)),
                    ))
                }
            };
            let kind = if matches!(sysval, sv::PRIMITIVE_ID | sv::RENDER_TARGET_ARRAY_INDEX | sv::VIEWPORT_ARRAY_INDEX)
            {
                ScalarKind::Uint
            } else {
                kind
            };
            self.output_local(reg, kind);
            let mask = kind_elems.iter().fold(0u8, |a, e| a | e.mask) | decls.iter().fold(0u8, |a, d| a | d.mask);
            components += if mask == 0 { 4 } else { 8 - mask.leading_zeros() };
            out_vars.push(InterfaceVar {
                semantic: elems.first().or(kind_elems.first()).map(|e| e.semantic_name.clone()).unwrap_or_default(),
                semantic_index: elems.first().or(kind_elems.first()).map(|e| e.semantic_index).unwrap_or(0),
                register: reg,
                location: if builtin.is_some() { None } else { Some(reg) },
                builtin,
                scalar: if_scalar(kind),
                components: 4,
                first_component: 0,
                interpolation: None,
            });
        }
        // D3D11.3 §13.2: at most 1024 scalars of output per invocation.
        if u64::from(max_out) * u64::from(components) > crate::limits::GS_OUTPUT_SCALARS {
            let at = m.gs.max_out.map_or(first_decl, |(at, _)| at);
            return Err(refuse_decl(
                m,
                at,
                RefusalReason::DeclarationUnsupported,
                format!(
                    "dcl_maxout {max_out} of {components} output components: D3D allows 1024 scalars per invocation"
                ),
            ));
        }
        let mut output_registers = out_regs.last().map_or(1, |r| r + 1);
        // The cull flag: one register past the outputs, on each primitive's leading vertex.
        let cull_flag_register = if cull_lanes.is_empty() {
            None
        } else {
            if output_registers >= 32 {
                let at = m.outputs.first().map_or(first_decl, |d| d.at);
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::SystemValueUnsupported,
                    "SV_CullDistance with 32 output registers: no register is left for the cull flag",
                ));
            }
            let flag = output_registers;
            output_registers += 1;
            out_vars.push(InterfaceVar {
                semantic: CULL_FLAG_SEMANTIC.into(),
                semantic_index: 0,
                register: flag,
                location: Some(flag),
                builtin: None,
                scalar: IfScalar::Uint,
                components: 4,
                first_component: 0,
                interpolation: None,
            });
            Some(flag)
        };
        out_vars.extend(clip_vars);
        let index_stride = match output_topology {
            Some(OutputTopology::LineStrip | OutputTopology::TriangleStrip) => 2 * max_out + 1,
            _ => 0,
        };
        let info = GeometryInfo {
            input_primitive: primitive,
            output_topology,
            max_vertices: max_out,
            instances,
            input_registers,
            output_registers,
            position_register,
            index_stride,
            cull_flag_register,
            streams: stream_info,
        };
        // The entry point's prologue (with stream output: the stream library's layout, its
        // slots per invocation, and no index words for the plain emit).
        let (wg, li) = self.prim_arguments();
        let args = [
            primitive.vertices(),
            input_registers,
            output_registers,
            max_out,
            stream_info.map_or(max_out, |s| s.slots),
            instances,
            if so { 0 } else { index_stride },
            position_register.unwrap_or(u32::MAX),
        ];
        let mut arguments = vec![wg, li];
        arguments.extend(args.iter().map(|&a| self.b.u32(a)));
        let live = self.prim_call("gs_begin", arguments)?;
        if let Some(s) = &stream_info {
            let arguments = s.begin_arguments().iter().map(|&a| self.b.u32(a)).collect();
            self.prim_call_void("gs_streams_begin", arguments)?;
        }
        self.prim_guard(live, &[if so { "gs_stream_end" } else { "gs_end" }])?;
        if so && cull_flag_register.is_some() {
            let at = m.outputs.first().map_or(first_decl, |d| d.at);
            return Err(refuse_decl(
                m,
                at,
                RefusalReason::SystemValueUnsupported,
                "SV_CullDistance in a geometry shader translated with stream output (the cull flags follow the drawn stream's plain strips only)",
            ));
        }
        let cull = cull_flag_register.map(|flag| {
            let (ra, ma) = cull_lanes.first().copied().unwrap_or((0, 0));
            let (rb, mb) = cull_lanes.get(1).copied().unwrap_or((0, 0));
            let n = match output_topology {
                Some(OutputTopology::LineStrip) => 2,
                Some(OutputTopology::TriangleStrip) => 3,
                _ => 1,
            };
            [flag, ra, ma, rb, mb, n]
        });
        self.prim = Some(PrimMode::Geometry { outputs: out_regs, cull, streams: so });
        Ok((in_vars, out_vars, info))
    }

    /// Declares a vertex shader's interface as compute in front of a geometry shader: the
    /// invocation's vertex (`vs_begin`), its input registers pulled from the vertex buffers, its
    /// output registers; returns the interface.
    pub(super) fn declare_vertex_pull_io(&mut self, p: &VertexPulling) -> R<(Vec<InterfaceVar>, Vec<InterfaceVar>)> {
        let m = self.m;
        if p.record_registers == 0 || p.record_registers > 32 {
            return Err(TranslateError::InvalidOptions(format!(
                "vertex pulling: {} registers per vertex record (1-32)",
                p.record_registers
            )));
        }
        if let Some(e) = p.elements.iter().find(|e| e.slot >= MAX_VERTEX_BUFFER_SLOTS) {
            return Err(TranslateError::InvalidOptions(format!(
                "vertex pulling: slot {} past the {MAX_VERTEX_BUFFER_SLOTS} the primitive stage binds",
                e.slot
            )));
        }
        let (wg, li) = self.prim_arguments();
        let live = self.prim_call("vs_begin", vec![wg, li])?;
        self.prim_guard(live, &[])?;
        let mut regs: Vec<u32> = m.inputs.iter().map(|d| d.register).collect();
        regs.sort_unstable();
        regs.dedup();
        let mut in_vars = Vec::new();
        for reg in regs {
            let decls: Vec<_> = m.inputs.iter().filter(|d| d.register == reg).collect();
            if let Some(d) = decls.iter().find(|d| d.operand.ty != OperandType::Input) {
                return Err(refuse_decl(
                    m,
                    d.at,
                    RefusalReason::OperandUnsupported,
                    format!("input register type {:?} in a vertex shader", d.operand.ty),
                ));
            }
            let v4 = self.ty(U, 4);
            let zero = self.b.expr(Expression::ZeroValue(v4));
            let lv = self.b.f.local_variables.append(
                naga::LocalVariable { name: Some(format!("v{reg}")), ty: v4, init: Some(zero) },
                naga::Span::UNDEFINED,
            );
            let ptr = self.b.expr(Expression::LocalVariable(lv));
            self.inputs.insert(reg, (ptr, U));
            // System values first (a register may hold SV_VertexID beside user data? D3D packs
            // them alone), then the layout's element.
            for d in &decls {
                let id = match d.system_value {
                    0 => continue,
                    sv::VERTEX_ID => "vs_vertex_id",
                    sv::INSTANCE_ID => "vs_instance_id",
                    other => {
                        return Err(refuse_decl(
                            m,
                            d.at,
                            RefusalReason::SystemValueUnsupported,
                            format!("vertex-shader input {}", sv_semantic(other)),
                        ))
                    }
                };
                let v = self.prim_global(id)?;
                let cur = self.b.load(ptr);
                let lane = d.mask.trailing_zeros().min(3);
                let mut comps: Vec<E> = (0..4).map(|c| self.b.comp(cur, c)).collect();
                comps[lane as usize] = v;
                let value = self.b.compose(v4, comps);
                self.b.store(ptr, value);
            }
            let user = decls.iter().any(|d| d.system_value == 0);
            if user {
                let found: Vec<_> = p.elements.iter().filter(|e| e.register == reg).collect();
                let e = match found[..] {
                    [e] => e,
                    [] => {
                        let at = decls[0].at;
                        return Err(TranslateError::Unsupported(crate::Refusal {
                            reason: RefusalReason::OperandUnsupported,
                            instruction: Some(at),
                            offset: Some(m.ins(at).offset),
                            opcode: Some(m.ins(at).opcode.name()),
                            subject: None,
                            detail: format!("vertex pulling: no input element feeds v{reg}"),
                        }));
                    }
                    _ => {
                        return Err(TranslateError::InvalidOptions(format!(
                            "vertex pulling: two input elements feed v{reg}"
                        )))
                    }
                };
                let stride = p.strides.get(e.slot as usize).copied().unwrap_or(0);
                let format = VertexFormat::ALL.iter().position(|f| *f == e.format).unwrap_or(0) as u32;
                let (per_instance, rate) = e.instance_step_rate.map_or((0, 0), |r| (1, r));
                let args = [e.slot, stride, e.offset, per_instance, rate, format, e.format.size()];
                let args: Vec<E> = args.iter().map(|&a| self.b.u32(a)).collect();
                let fetched = self.prim_call("vs_fetch", args)?;
                // The system-value lanes stay.
                let sv_mask = decls.iter().filter(|d| d.system_value != 0).fold(0u8, |a, d| a | d.mask);
                let value = if sv_mask == 0 {
                    fetched
                } else {
                    let cur = self.b.load(ptr);
                    let comps: Vec<E> = (0..4)
                        .map(|c| if sv_mask & (1 << c) != 0 { self.b.comp(cur, c) } else { self.b.comp(fetched, c) })
                        .collect();
                    self.b.compose(v4, comps)
                };
                self.b.store(ptr, value);
            }
            let elems: Vec<_> = m.input_signature.elements.iter().filter(|e| e.register == reg).collect();
            in_vars.push(InterfaceVar {
                semantic: elems.first().map(|e| e.semantic_name.clone()).unwrap_or_default(),
                semantic_index: elems.first().map(|e| e.semantic_index).unwrap_or(0),
                register: reg,
                location: None,
                builtin: None,
                scalar: elems.first().map(|e| if_scalar(kind_of(e.component_type))).unwrap_or(IfScalar::Float),
                components: 4,
                first_component: 0,
                interpolation: None,
            });
        }
        self.declare_input_ranges()?;
        // Outputs: every register the record holds that the shader declares or signs.
        let mut out_regs: Vec<u32> = m.outputs.iter().map(|d| d.register).collect();
        out_regs.extend(m.output_signature.elements.iter().map(|e| e.register).filter(|&r| r < 32));
        out_regs.sort_unstable();
        out_regs.dedup();
        if let Some(d) = m.outputs.iter().find(|d| d.operand.ty != OperandType::Output) {
            return Err(refuse_decl(
                m,
                d.at,
                RefusalReason::OperandUnsupported,
                format!("output register type {:?} in front of a geometry shader", d.operand.ty),
            ));
        }
        let mut out_vars = Vec::new();
        for reg in out_regs {
            let elems: Vec<_> = m.output_signature.elements.iter().filter(|e| e.register == reg).collect();
            let mut kind = elems.first().map(|e| kind_of(e.component_type)).unwrap_or(ScalarKind::Float);
            if elems.iter().any(|e| kind_of(e.component_type) != kind) {
                kind = ScalarKind::Uint;
            }
            self.output_local(reg, kind);
            out_vars.push(InterfaceVar {
                semantic: elems.first().map(|e| e.semantic_name.clone()).unwrap_or_default(),
                semantic_index: elems.first().map(|e| e.semantic_index).unwrap_or(0),
                register: reg,
                location: Some(reg),
                builtin: None,
                scalar: if_scalar(kind),
                components: 4,
                first_component: 0,
                interpolation: None,
            });
        }
        self.prim = Some(PrimMode::VertexCompute { record_registers: p.record_registers });
        Ok((in_vars, out_vars))
    }

    /// A return of a primitive-stage module: a geometry shader ends its strips, a vertex shader
    /// writes its record. Returns `false` for the other stages (their return is the caller's).
    pub(super) fn prim_ret(&mut self) -> R<bool> {
        match self.prim.as_ref() {
            None => Ok(false),
            Some(&PrimMode::Geometry { cull, streams, .. }) => {
                if let Some(args) = cull {
                    let args: Vec<E> = args.iter().map(|&a| self.b.u32(a)).collect();
                    self.prim_call_void("gs_cull", args)?;
                }
                self.prim_call_void(if streams { "gs_stream_end" } else { "gs_end" }, Vec::new())?;
                self.b.stmt(Statement::Return { value: None });
                Ok(true)
            }
            Some(&PrimMode::VertexCompute { record_registers }) => {
                let regs = self.b.u32(record_registers);
                for r in 0..record_registers {
                    let v = match self.outputs.get(&r).copied() {
                        Some((p, k)) => {
                            let v = self.b.load(p);
                            if k == U {
                                v
                            } else {
                                self.b.bitcast(v, U)
                            }
                        }
                        None => {
                            let v4 = self.ty(U, 4);
                            self.b.expr(Expression::ZeroValue(v4))
                        }
                    };
                    let ri = self.b.u32(r);
                    self.prim_call_void("vs_store", vec![ri, regs, v])?;
                }
                self.b.stmt(Statement::Return { value: None });
                Ok(true)
            }
        }
    }

    /// The stream an `emit_stream`/`cut_stream` names (0 for the plain forms): one of m0-m3 that
    /// a `dcl_stream` declares (SM5 bytecode declares every stream it emits to).
    fn stream_of(&self, i: usize) -> R<u32> {
        let ins = self.m.ins(i);
        let Some(op) = ins.operands.iter().find(|o| o.ty == OperandType::Stream) else { return Ok(0) };
        let stream = op.reg();
        if op.indices.iter().any(Index::is_relative) || stream > 3 || !self.m.gs.streams.contains(&stream) {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                format!(
                    "`{}` names stream m{stream}, which no dcl_stream declares (D3D has streams m0-m3)",
                    ins.opcode.name()
                ),
            ));
        }
        Ok(stream)
    }

    /// `emit` / `emit_stream m#`: the output registers into the next output slot. Without stream
    /// output, D3D rasterizes stream 0 and discards the others.
    pub(super) fn gs_emit(&mut self, i: usize) -> R<()> {
        let Some(PrimMode::Geometry { outputs, streams, .. }) = self.prim.as_ref() else {
            return Err(self.outside_geometry(i));
        };
        let (outputs, streams) = (outputs.clone(), *streams);
        let stream = self.stream_of(i)?;
        let slot = if streams {
            // Every stream's emit takes a slot (dcl_maxout counts them all); the library
            // returns none for a stream not kept.
            let s = self.b.u32(stream);
            self.prim_call("gs_stream_emit", vec![s])?
        } else if stream != 0 {
            return Ok(());
        } else {
            self.prim_call("gs_emit", Vec::new())?
        };
        for r in outputs {
            let (p, k) = self.outputs[&r];
            let v = self.b.load(p);
            let v = if k == U { v } else { self.b.bitcast(v, U) };
            let ri = self.b.u32(r);
            self.prim_call_void("gs_store", vec![slot, ri, v])?;
        }
        Ok(())
    }

    /// `cut` / `cut_stream m#`: ends the current strip.
    pub(super) fn gs_cut(&mut self, i: usize) -> R<()> {
        let Some(&PrimMode::Geometry { streams, .. }) = self.prim.as_ref() else {
            return Err(self.outside_geometry(i));
        };
        let stream = self.stream_of(i)?;
        if streams {
            let s = self.b.u32(stream);
            return self.prim_call_void("gs_stream_cut", vec![s]);
        }
        if stream != 0 {
            return Ok(());
        }
        self.prim_call_void("gs_cut", Vec::new())
    }

    fn outside_geometry(&self, i: usize) -> TranslateError {
        refuse_at(
            self,
            i,
            RefusalReason::OpcodeUnsupported,
            format!("`{}` outside a geometry shader (invalid in D3D)", self.m.ins(i).opcode.name()),
        )
    }

    /// A geometry shader's input `v[k][r]` (raw bits: the reader bitcasts).
    pub(super) fn gs_input_operand(&mut self, i: usize, op: &Operand) -> R<(E, ScalarKind, bool)> {
        let [k, r] = &op.indices[..] else {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                "a geometry-shader input read without its vertex index (v[k][r])",
            ));
        };
        // The register: a declared one (as `v#` of the other stages); relative register indexing
        // needs a `dcl_indexrange`, which geometry-shader inputs do not translate yet.
        let reg = match r {
            Index::Imm(v) => u64::from(*v),
            Index::Imm64(v) => *v,
            Index::Relative { .. } => {
                return Err(refuse_at(
                    self,
                    i,
                    RefusalReason::OperandUnsupported,
                    "relative indexing of a geometry-shader input's register (v[k][r#])",
                ))
            }
        };
        let declared = self.m.inputs.iter().any(|d| d.operand.ty == OperandType::Input && u64::from(d.register) == reg);
        if !declared {
            return Err(refuse_at(self, i, RefusalReason::OperandUnsupported, format!("v[][{reg}] is not declared")));
        }
        let k = k.clone();
        let k = self.prim_index(i, &k)?;
        let r = self.b.u32(reg as u32);
        let v = self.prim_call("gs_input", vec![k, r])?;
        Ok((v, U, false))
    }

    fn prim_index(&mut self, i: usize, idx: &Index) -> R<E> {
        match idx {
            Index::Imm(v) => Ok(self.b.u32(*v)),
            Index::Imm64(v) => Ok(self.b.u32(u32::try_from(*v).unwrap_or(u32::MAX))),
            Index::Relative { .. } => self.index(i, idx),
        }
    }

    /// `vPrim` / `vGSInstanceID` (scalars).
    pub(super) fn gs_system_value(&mut self, i: usize, ty: OperandType) -> R<(E, ScalarKind, bool)> {
        if !matches!(self.prim, Some(PrimMode::Geometry { .. })) {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                format!("{ty:?} outside a geometry shader"),
            ));
        }
        if !self.m.inputs.iter().any(|d| d.operand.ty == ty) {
            let name = if ty == OperandType::InputPrimitiveId { "vPrim" } else { "vGSInstanceID" };
            return Err(refuse_at(self, i, RefusalReason::OperandUnsupported, format!("{name} is not declared")));
        }
        let name = if ty == OperandType::InputPrimitiveId { "gs_prim_id" } else { "gs_instance_id" };
        Ok((self.prim_global(name)?, U, true))
    }
}

/// The workgroup size of a primitive-stage module.
pub(super) const PRIM_WORKGROUP: [u32; 3] = [WORKGROUP_SIZE, 1, 1];
