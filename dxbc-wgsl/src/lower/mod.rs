//! IR → naga module. D3D semantics are made explicit in the lowering: typeless registers through
//! `bitcast`, comparison masks, source modifiers typed by the consumer, `_sat` with NaN → 0,
//! masked shift counts, D3D's min/max NaN rule, division by zero, and explicit guards for
//! out-of-bounds reads.
//!
//! This file is the entry point (`lower`) and holds what the parts share: the lowering context
//! `Cx` (each file below adds its own `impl Cx` block), the resource handles (`Tex`, `Buf`,
//! `TypedBuf`, `StorageTex`), refusals, `runtime_immediates` and `Cx::ty`. The parts, by file:
//! - declarations, in the order `lower` makes them: the private globals non-finite immediates
//!   are read from (`registers.rs`); constant buffers, the immediate constant buffer, samplers,
//!   textures, buffers, typed UAVs and thread-group shared memory (`resource_decl.rs`); the entry
//!   point's interface (`io_decl.rs`, with `input_decl.rs` for the arguments and
//!   `output_decl.rs` for the result struct); the temp registers (`registers.rs`);
//! - the body: `control_flow.rs` (blocks, `if`/`loop`/`switch`, jumps, `ret`, `sync`),
//!   `dispatch.rs` (the opcode match, with the short ALU arms), `registers.rs` (reading and
//!   writing operands), `alu.rs` (the longer ALU arms and D3D's ALU rules), `texture.rs`
//!   (sampling, loads, gathers, `sampleinfo`, `resinfo`), `buffer.rs` (raw, structured and typed
//!   buffers, typed UAV loads and stores), `atomics.rs`, `f64.rs` (doubles, through the WGSL
//!   helpers of `f64.wgsl`);
//! - `builder.rs` appends expressions and statements to the function being built.
//!
//! Layout of the generated module:
//! - one `var<uniform> cb#: array<vec4<T>, N>` per constant buffer, one texture and sampler per
//!   `t#`/`s#`, bound per [`crate::bindings::plan`];
//! - the entry point `main` (or the caller's name) takes every declared input register as an
//!   argument (`@location(n)` = register `n`, always a `vec4`, or a builtin) and returns a struct
//!   of the output registers;
//! - temp registers are function-local `vec4<T>` variables `r#`, inputs are copied into `v#`,
//!   outputs are written to `o#` and returned at every `ret`.

mod alu;
mod atomics;
mod buffer;
mod builder;
mod control_flow;
mod dispatch;
mod f64;
mod geometry;
mod input_decl;
mod io_decl;
mod output_decl;
mod registers;
mod resource_decl;
mod texture;

pub use f64::F64_WGSL;
pub use geometry::{GEOMETRY_WGSL, VERTEX_PULL_WGSL};

use crate::bindings::ResourceBinding;
use crate::ir::{infer_storage, types::StorageMap, Module, Storage};
use crate::refusal::{Refusal, RefusalReason, TranslateError};
use crate::sm4::{Opcode, OperandType, ShaderStage};
use crate::{InterfaceVar, TranslateOptions};
use builder::{ty_vec, FnBuilder};
use naga::{EntryPoint, Expression, Handle, ImageDimension, ScalarKind, Type};
use std::collections::HashMap;

/// The result of a lowering step.
type R<T> = Result<T, TranslateError>;
/// An expression of the entry point's function.
type E = Handle<Expression>;

const F: ScalarKind = ScalarKind::Float;
const U: ScalarKind = ScalarKind::Uint;
const I: ScalarKind = ScalarKind::Sint;

/// The components (0-3) a write mask selects, in order.
fn mask_lanes(mask: u8) -> Vec<u8> {
    (0..4u8).filter(|c| mask & (1 << c) != 0).collect()
}

/// Everything the emitter needs: the naga module and the interface description.
#[derive(Debug)]
pub struct Lowered {
    /// The naga module (not yet validated).
    pub module: naga::Module,
    /// Stage.
    pub stage: ShaderStage,
    /// Shader model.
    pub shader_model: (u8, u8),
    /// Entry point name.
    pub entry_point: String,
    /// Stage inputs.
    pub inputs: Vec<InterfaceVar>,
    /// Stage outputs.
    pub outputs: Vec<InterfaceVar>,
    /// Resource bindings.
    pub bindings: Vec<ResourceBinding>,
    /// Compute workgroup size.
    pub workgroup_size: Option<[u32; 3]>,
    /// Bytes of workgroup memory (thread-group shared memory) the module declares.
    pub workgroup_storage_bytes: u32,
    /// A derivative or implicit-LOD sample sits under control flow Tint cannot prove uniform.
    pub derivative_uniformity_off: bool,
    /// Why the uniformity filter was needed (for the emitted comment).
    pub uniformity_note: Option<String>,
    /// A geometry shader's primitive-stage description.
    pub geometry: Option<crate::geometry::GeometryInfo>,
    /// What a vertex or geometry shader writes per primitive.
    pub per_primitive: crate::select::PrimitiveSelect,
    /// The pipeline-overridable constants the module declares.
    pub pipeline_constants: Vec<crate::PipelineConstant>,
}

/// A texture global.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tex {
    pub expr: Handle<Expression>,
    pub dim: ImageDimension,
    pub arrayed: bool,
    /// Declared multisampled (`texture2dms`).
    pub multi: bool,
    /// A `texture2dms` viewing a single-sampled texture
    /// ([`crate::TranslateOptions::texture2dms_views`]): a WGSL `texture_2d`.
    pub single: bool,
    pub kind: ScalarKind,
    pub depth: bool,
    /// Coordinate components of the WGSL texture (without the array layer).
    pub coords: usize,
    /// A D3D 1D texture (or 1D array) bound as a WGSL 2D texture of height 1: D3D's address has
    /// one coordinate (then the array slice), the WGSL coordinate is `(u, row)`.
    pub d1: bool,
}

impl Tex {
    /// Coordinate components of the D3D address (without the array slice).
    pub fn d3d_coords(&self) -> usize {
        if self.d1 {
            1
        } else {
            self.coords
        }
    }
}

/// A raw or structured buffer global, or thread-group shared memory.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Buf {
    pub expr: Handle<Expression>,
    /// Structure stride in bytes; `None` for a raw buffer.
    pub stride: Option<u32>,
    /// Words are `atomic<u32>`.
    pub atomic: bool,
    /// The word count of a fixed-size array (`var<workgroup>` for `g#`); `None` for a storage
    /// buffer's runtime-sized array (its `arrayLength`).
    pub words: Option<u32>,
}

/// A typed buffer (SRV or UAV) emulated on a storage buffer of words.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TypedBuf {
    pub expr: Handle<Expression>,
    pub kind: ScalarKind,
    /// Words per element.
    pub components: u32,
    /// Words are `atomic<u32>`.
    pub atomic: bool,
}

/// A typed UAV texture.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StorageTex {
    pub expr: Handle<Expression>,
    pub arrayed: bool,
    /// Coordinate components of the WGSL storage texture without the array layer.
    pub coords: usize,
    /// A D3D `RWTexture1D(Array)` bound as a WGSL 2D storage texture of height 1 (see [`Tex::d1`]).
    pub d1: bool,
    pub kind: ScalarKind,
    /// Bound `read_write` (the shader loads from it).
    pub read_write: bool,
}

impl StorageTex {
    /// Coordinate components of the D3D address (without the array slice).
    pub fn d3d_coords(&self) -> usize {
        if self.d1 {
            1
        } else {
            self.coords
        }
    }
}

/// One SV_ClipDistance lane: the output local and the component read from it.
pub(crate) type ClipLane = (Handle<Expression>, u32);

/// The lowering context.
pub(crate) struct Cx<'a, 'p> {
    pub m: &'a Module<'p>,
    pub module: naga::Module,
    pub b: FnBuilder,
    pub storage: StorageMap,
    pub temps: Vec<Handle<Expression>>,
    pub indexable: HashMap<u32, (Handle<Expression>, u32, Storage)>,
    pub inputs: HashMap<u32, (Handle<Expression>, ScalarKind)>,
    pub outputs: HashMap<u32, (Handle<Expression>, ScalarKind)>,
    pub depth_out: Option<Handle<Expression>>,
    pub mask_out: Option<Handle<Expression>>,
    pub coverage_in: Option<Handle<Expression>>,
    pub cbuffers: HashMap<u32, (Handle<Expression>, u32, Storage)>,
    pub icb: Option<(Handle<Expression>, u32, Storage)>,
    pub samplers: HashMap<(u32, bool), Handle<Expression>>,
    pub textures: HashMap<u32, Tex>,
    /// Conservative depth output: (output member, greater-equal?, fragment position).
    pub depth_clamp: Option<(usize, bool, Handle<Expression>)>,
    /// The instruction being lowered reads its immediates at run time ([`runtime_immediates`]).
    pub runtime_imm: bool,
    /// Typed buffers by (is UAV, id).
    pub typed_buffers: HashMap<(bool, u32), TypedBuf>,
    /// Typed UAV textures by id.
    pub storage_textures: HashMap<u32, StorageTex>,
    /// Raw/structured buffers by (is UAV, id).
    pub buffers: HashMap<(bool, u32), Buf>,
    /// The hidden counters (`atomic<u32>` globals) of structured UAVs by id.
    pub counters: HashMap<u32, Handle<Expression>>,
    /// Thread-group shared memory by `g#`.
    pub tgsm: HashMap<u32, Buf>,
    /// Compute-shader thread IDs: the value (a `vec4<u32>` local's load, or the `u32` argument for
    /// `vThreadIDInGroupFlattened`) and whether it is a scalar, by register type.
    pub thread_ids: HashMap<OperandType, (Handle<Expression>, bool)>,
    /// Output struct type and, per member, the local it is read from.
    pub out_struct: Option<(Handle<Type>, Vec<Handle<Expression>>)>,
    /// The `clip_distances` member: its index in the output struct, its array type, and the
    /// (output local, component) lanes it is built from.
    pub clip_out: Option<(usize, Handle<Type>, Vec<ClipLane>)>,
    /// `dcl_indexrange` input arrays: (first register, count, local array, element kind).
    pub input_ranges: Vec<(u32, u32, Handle<Expression>, ScalarKind)>,
    pub bindings: Vec<ResourceBinding>,
    pub uniformity_note: Option<String>,
    /// The helper library's functions by name: the double-precision helpers of `f64.wgsl`, the
    /// primitive stage's (empty when the shader needs neither).
    pub f64_helpers: HashMap<String, Handle<naga::Function>>,
    /// The module's role in the primitive stage (`geometry.rs`), `None` for the other stages.
    pub prim: Option<geometry::PrimMode>,
    /// A pixel shader drawing a geometry shader's output ([`TranslateOptions::behind_geometry`]).
    pub behind_geometry: bool,
    /// A pixel shader's per-primitive sources ([`TranslateOptions::primitive_select`]).
    pub primitive_select: Option<crate::select::PrimitiveSelect>,
    /// The flat `vec4<u32>` arguments of the per-primitive values, by location.
    pub flat_args: Vec<(u32, Handle<Expression>)>,
    /// The pipeline-overridable constants declared so far (ordered: the `Translation` lists
    /// them in [`crate::PipelineConstant`] order).
    pub overrides: std::collections::BTreeMap<crate::PipelineConstant, Handle<naga::Override>>,
}

pub(crate) fn refuse_at(cx: &Cx<'_, '_>, i: usize, reason: RefusalReason, detail: impl Into<String>) -> TranslateError {
    let ins = cx.m.ins(i);
    TranslateError::Unsupported(Refusal {
        reason,
        instruction: Some(i),
        offset: Some(ins.offset),
        opcode: Some(ins.opcode.name()),
        subject: None,
        detail: detail.into(),
    })
}

fn refuse_decl(m: &Module<'_>, at: usize, reason: RefusalReason, detail: impl Into<String>) -> TranslateError {
    // `at` may name no instruction (a refusal about the program as a whole, and a program with
    // none, as a truncated one is): the refusal then names no position.
    let ins = m.program.instructions.get(at);
    TranslateError::Unsupported(Refusal {
        reason,
        instruction: ins.map(|_| at),
        offset: ins.map(|i| i.offset),
        opcode: ins.map(|i| i.opcode.name()),
        subject: None,
        detail: detail.into(),
    })
}

fn naga_stage(s: ShaderStage) -> naga::ShaderStage {
    match s {
        ShaderStage::Vertex => naga::ShaderStage::Vertex,
        ShaderStage::Pixel => naga::ShaderStage::Fragment,
        _ => naga::ShaderStage::Compute,
    }
}

/// Whether an instruction's immediates are read at run time: when the WGSL built from its
/// immediates alone would form a constant expression — all its sources are immediates, or the
/// two factors of a `mad` are — WGSL compilers evaluate it at shader creation and reject it where
/// D3D gives an infinity or a NaN (`log l(0)`, `div l(1), l(0)`, `mul l(1e38), l(1e38)`), and naga
/// rejects integer division by a constant zero outright. Moves and resource accesses (never
/// constant-evaluated) are left alone. Some immediates are read at run time beside registers
/// too ([`immediates_rejected_as_constants`]).
pub(crate) fn runtime_immediates(ins: &crate::sm4::Instruction) -> bool {
    if ins.opcode.is_declaration() || matches!(ins.opcode, Opcode::MOV | Opcode::MOVC | Opcode::SWAPC) {
        return false;
    }
    if ins.opcode.is_double() {
        // Doubles are read as words and computed by helper calls, never constant expressions.
        return false;
    }
    let Some(info) = ins.opcode.info() else { return false };
    if info.dst.is_empty() || info.src.contains('r') || info.src.contains('s') {
        // Control flow (its conditions are lowered elsewhere) and resource accesses.
        return false;
    }
    let nd = ins.dst_count();
    let srcs = &ins.operands[nd.min(ins.operands.len())..];
    let imm = |o: &crate::sm4::Operand| o.ty == OperandType::Immediate32;
    let all = !srcs.is_empty() && srcs.iter().all(imm);
    let mad_factors = matches!(ins.opcode, Opcode::MAD | Opcode::IMAD | Opcode::UMAD)
        && srcs.len() == 3
        && imm(&srcs[0])
        && imm(&srcs[1]);
    all || mad_factors || immediates_rejected_as_constants(ins)
}

/// Immediates of a form WGSL compilers reject as constants even beside registers:
/// `udiv q, r, x, l(0)` (naga rejects a division by a constant zero; D3D defines it as
/// 0xFFFFFFFF, which the lowering selects), and a `ubfe`/`ibfe`/`bfi` whose immediate width
/// and offset (each taken modulo 32) add up past 32 (Tint rejects `extractBits`/`insertBits` of
/// constant offset and count past the width; at run time WGSL clamps the count as D3D does).
/// Only the lanes a destination writes count.
fn immediates_rejected_as_constants(ins: &crate::sm4::Instruction) -> bool {
    let imm = |o: &crate::sm4::Operand| o.ty == OperandType::Immediate32 && !o.imm.is_empty();
    // The immediate's value in destination lane `l`.
    let lane = |o: &crate::sm4::Operand, l: usize| o.imm[o.select.swizzle()[l] as usize % o.imm.len()];
    let written = |dsts: &[&crate::sm4::Operand]| {
        let mask = dsts.iter().filter(|d| d.ty != OperandType::Null).fold(0, |m, d| m | d.select.mask());
        (0..4).filter(move |l| mask & (1 << l) != 0)
    };
    match (ins.opcode, &ins.operands[..]) {
        (Opcode::UDIV, [q, r, _, divisor]) if imm(divisor) => written(&[q, r]).any(|l| lane(divisor, l) == 0),
        (Opcode::UBFE | Opcode::IBFE | Opcode::BFI, [d, width, offset, ..]) if imm(width) && imm(offset) => {
            written(&[d]).any(|l| (lane(width, l) & 31) + (lane(offset, l) & 31) > 32)
        }
        _ => false,
    }
}

/// Lowers an IR module to a naga module.
///
/// # Errors
/// [`TranslateError::Unsupported`] naming the instruction for anything outside what is
/// implemented or expressible in WGSL.
pub fn lower(m: &Module<'_>, options: &TranslateOptions) -> Result<Lowered, TranslateError> {
    let entry_point = options.entry_point.clone().unwrap_or_else(|| "main".to_string());
    let storage = infer_storage(m);
    let doubles = f64::uses_doubles(m);
    let prim_text = geometry::library_text(m, options);
    let module = match (&prim_text, doubles) {
        (None, false) => naga::Module::default(),
        (None, true) => f64::library()?.clone(),
        (Some(text), doubles) => geometry::library(text, doubles)?,
    };
    let f64_helpers = module.functions.iter().filter_map(|(h, f)| Some((f.name.clone()?, h))).collect();
    let mut cx = Cx {
        m,
        module,
        b: FnBuilder::new(&entry_point),
        storage,
        temps: Vec::new(),
        indexable: HashMap::new(),
        inputs: HashMap::new(),
        outputs: HashMap::new(),
        depth_out: None,
        mask_out: None,
        coverage_in: None,
        cbuffers: HashMap::new(),
        icb: None,
        samplers: HashMap::new(),
        textures: HashMap::new(),
        buffers: HashMap::new(),
        tgsm: HashMap::new(),
        thread_ids: HashMap::new(),
        typed_buffers: HashMap::new(),
        depth_clamp: None,
        runtime_imm: false,
        storage_textures: HashMap::new(),
        counters: HashMap::new(),
        out_struct: None,
        clip_out: None,
        input_ranges: Vec::new(),
        bindings: Vec::new(),
        uniformity_note: None,
        f64_helpers,
        prim: None,
        behind_geometry: options.behind_geometry,
        primitive_select: options.primitive_select,
        flat_args: Vec::new(),
        overrides: Default::default(),
    };
    if let Some(i) = crate::ir::uniformity::first_nonuniform_derivative(m) {
        cx.uniformity_note = Some(format!(
            "instruction {i} (`{}`) needs uniform control flow in WGSL but sits where WGSL's uniformity analysis cannot prove it; D3D defines derivatives per 2x2 quad there",
            m.ins(i).opcode.name()
        ));
    }
    // forceEarlyDepthStencil is observable only through UAV writes or a depth output (D3D then
    // tests depth before the shader runs); WGSL cannot ask for early tests.
    if m.global_flags.force_early_depth_stencil()
        && (m.resources.iter().any(|r| r.uav) || m.outputs.iter().any(|o| o.operand.ty != OperandType::Output))
    {
        let at = m.program.instructions.iter().position(|ins| ins.opcode == Opcode::DCL_GLOBAL_FLAGS).unwrap_or(0);
        return Err(refuse_decl(
            m,
            at,
            RefusalReason::WebGpuLimitation,
            "forceEarlyDepthStencil with UAV writes or a depth output: WGSL cannot request early depth/stencil tests",
        ));
    }
    if m.version.stage == ShaderStage::Compute {
        // A thread group over WebGPU's default limits (256 invocations, z <= 64) translates;
        // the device must be created with raised limits (Translation::workgroup_size says).
        // D3D11.3 limits: x, y <= 1024, z <= 64, x*y*z <= 1024, each at least 1.
        if let Some([x, y, z]) = m.thread_group {
            if x == 0
                || y == 0
                || z == 0
                || x > crate::limits::THREAD_GROUP_XY
                || y > crate::limits::THREAD_GROUP_XY
                || z > crate::limits::THREAD_GROUP_Z
                || u64::from(x) * u64::from(y) * u64::from(z) > crate::limits::THREAD_GROUP_THREADS
            {
                let at = m.program.instructions.iter().position(|ins| ins.opcode == Opcode::DCL_THREAD_GROUP);
                return Err(refuse_decl(
                    m,
                    at.unwrap_or(0),
                    RefusalReason::DeclarationUnsupported,
                    format!("thread group {x}x{y}x{z} is outside D3D's limits (1-1024 threads, z <= 64)"),
                ));
            }
        }
        if m.thread_group.is_none() {
            return Err(refuse_decl(
                m,
                0,
                RefusalReason::DeclarationUnsupported,
                "a compute shader without dcl_thread_group",
            ));
        }
    }
    if m.version.stage == ShaderStage::Compute {
        // WGSL's barriers all synchronize execution and must be reached by the whole workgroup
        // in uniform control flow (Tint rejects them elsewhere; no diagnostic filter exists).
        if let Some(i) = crate::ir::uniformity::first_nonuniform_barrier(m) {
            return Err(refuse_decl(
                m,
                i,
                RefusalReason::NonUniformBarrier,
                "a barrier in control flow that WGSL's uniformity analysis cannot prove uniform across the workgroup (it depends on a thread ID, shared or UAV memory, or follows a return taken by some threads)",
            ));
        }
    }
    cx.declare_nonfinite();
    cx.declare_resources(options)?;
    cx.declare_tgsm();
    let mut geometry = None;
    let (inputs, outputs) = match (m.version.stage, &options.vertex_stage) {
        (ShaderStage::Geometry, _) => {
            let (i, o, info) = cx.declare_geometry_io(options.geometry_streams)?;
            geometry = Some(info);
            (i, o)
        }
        (ShaderStage::Vertex, crate::VertexStage::Compute(p)) => cx.declare_vertex_pull_io(p)?,
        _ => {
            let io = cx.declare_io(options)?;
            if m.version.stage == ShaderStage::Pixel {
                cx.select_prologue()?;
            }
            io
        }
    };
    cx.declare_temps();
    let body = &m.body;
    if !cx.block(body)? {
        cx.ret()?;
    }
    let workgroup_storage_bytes = m.tgsm.iter().map(|g| g.words * 4).sum();
    let Cx { mut module, b, bindings, uniformity_note, prim, overrides, .. } = cx;
    let function = b.finish();
    let stage = m.version.stage;
    let workgroup_size = if prim.is_some() { Some(geometry::PRIM_WORKGROUP) } else { m.thread_group };
    module.entry_points.push(EntryPoint {
        name: entry_point.clone(),
        stage: if prim.is_some() { naga::ShaderStage::Compute } else { naga_stage(stage) },
        early_depth_test: None,
        workgroup_size: workgroup_size.unwrap_or([0; 3]),
        workgroup_size_overrides: None,
        function,
        mesh_info: None,
        task_payload: None,
        incoming_ray_payload: None,
    });
    if doubles || prim.is_some() {
        f64::prune_functions(&mut module);
    }
    Ok(Lowered {
        module,
        stage,
        shader_model: (m.version.major, m.version.minor),
        entry_point,
        inputs,
        outputs,
        bindings,
        workgroup_size,
        workgroup_storage_bytes,
        derivative_uniformity_off: uniformity_note.is_some(),
        uniformity_note,
        per_primitive: geometry::per_primitive_outputs(m, geometry.as_ref()),
        geometry,
        pipeline_constants: overrides.keys().copied().collect(),
    })
}

impl Cx<'_, '_> {
    /// The value of pipeline-overridable constant `c` (declared once, `override NAME: u32 = 1;`:
    /// the pipeline sets it, [`crate::PipelineConstant`]).
    pub(crate) fn pipeline_constant(&mut self, c: crate::PipelineConstant) -> Handle<Expression> {
        let h = match self.overrides.get(&c) {
            Some(&h) => h,
            None => {
                let ty = self.ty(U, 1);
                let init = self
                    .module
                    .global_expressions
                    .append(Expression::Literal(naga::Literal::U32(1)), naga::Span::UNDEFINED);
                let h = self.module.overrides.append(
                    naga::Override { name: Some(c.name().into()), id: None, ty, init: Some(init) },
                    naga::Span::UNDEFINED,
                );
                self.overrides.insert(c, h);
                h
            }
        };
        self.b.expr(Expression::Override(h))
    }

    /// Calls function `name` of the helper library (`f64.wgsl`, the primitive stage's, the
    /// selection helper): its value, or `None` for a function without one.
    pub(crate) fn call_library_opt(
        &mut self,
        name: &str,
        arguments: Vec<Handle<Expression>>,
        value: bool,
    ) -> R<Option<Handle<Expression>>> {
        let function = *self
            .f64_helpers
            .get(name)
            .ok_or_else(|| TranslateError::Internal(format!("the helper library has no function `{name}`")))?;
        let result = value.then(|| self.b.result_expr(Expression::CallResult(function)));
        self.b.stmt(naga::Statement::Call { function, arguments, result });
        Ok(result)
    }

    /// Calls function `name` of the helper library for its value.
    pub(crate) fn call_library(&mut self, name: &str, arguments: Vec<Handle<Expression>>) -> R<Handle<Expression>> {
        self.call_library_opt(name, arguments, true)?
            .ok_or_else(|| TranslateError::Internal(format!("`{name}` returned no value")))
    }

    pub(crate) fn ty(&mut self, kind: ScalarKind, n: usize) -> Handle<Type> {
        ty_vec(&mut self.module.types, kind, n)
    }
}
