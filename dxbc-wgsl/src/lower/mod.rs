//! IR → naga module. D3D semantics are made explicit here: typeless registers through
//! `bitcast`, comparison masks, source modifiers typed by the consumer, `_sat` with NaN → 0,
//! masked shift counts, D3D's min/max NaN rule, division by zero, and explicit guards for
//! out-of-bounds reads.
//!
//! Layout of the generated module:
//! - one `var<uniform> cb#: array<vec4<T>, N>` per constant buffer, one texture and sampler per
//!   `t#`/`s#`, bound per [`crate::bindings::plan`];
//! - the entry point `main` (or the caller's name) takes every declared input register as an
//!   argument (`@location(n)` = register `n`, always a `vec4`, or a builtin) and returns a struct
//!   of the output registers;
//! - temp registers are function-local `vec4<T>` variables `r#`, inputs are copied into `v#`,
//!   outputs are written to `o#` and returned at every `ret`.

mod builder;
mod f64;
mod ops;

pub use f64::F64_WGSL;

use crate::bindings::{self, BindingClass, BindingSlot, ResourceBinding, ResourceKind, TextureSample, ViewDimension};
use crate::chunks::signature::ComponentType;
use crate::ir::{infer_storage, types::StorageMap, Interpolation, Module, ResourceShape, Storage};
use crate::refusal::{Refusal, RefusalReason, RefusalSubject, TranslateError};
use crate::sm4::{Opcode, OperandType, ShaderStage};
use crate::{InterfaceVar, ScalarKind as IfScalar, TranslateOptions};
use builder::{ty_vec, FnBuilder};
use naga::{
    AddressSpace, Binding, BuiltIn, EntryPoint, Expression, FunctionArgument, FunctionResult, GlobalVariable, Handle,
    ImageClass, ImageDimension, LocalVariable, ScalarKind, Span, StructMember, Type, TypeInner,
};
use std::collections::HashMap;

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
}

/// A texture global.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tex {
    pub expr: Handle<Expression>,
    pub dim: ImageDimension,
    pub arrayed: bool,
    pub multi: bool,
    pub kind: ScalarKind,
    pub depth: bool,
    /// Coordinate components (without the array layer).
    pub coords: usize,
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
    /// Coordinate components without the array layer.
    pub coords: usize,
    pub kind: ScalarKind,
    /// Bound `read_write` (the shader loads from it).
    pub read_write: bool,
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
    /// The double-precision helpers of `f64.wgsl` by name (empty when the shader has no doubles).
    pub f64_helpers: HashMap<String, Handle<naga::Function>>,
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

fn kind_of(ct: ComponentType) -> ScalarKind {
    match ct {
        ComponentType::Uint32 => ScalarKind::Uint,
        ComponentType::Sint32 => ScalarKind::Sint,
        _ => ScalarKind::Float,
    }
}

fn public_interpolation(i: Option<naga::Interpolation>, s: Option<naga::Sampling>) -> Option<crate::Interpolation> {
    use crate::Interpolation as P;
    use naga::{Interpolation as I, Sampling as S};
    Some(match (i?, s) {
        (I::Flat, _) => P::Flat,
        (I::Perspective, Some(S::Centroid)) => P::PerspectiveCentroid,
        (I::Perspective, Some(S::Sample)) => P::PerspectiveSample,
        (I::Perspective, _) => P::Perspective,
        (I::Linear, Some(S::Centroid)) => P::LinearCentroid,
        (I::Linear, Some(S::Sample)) => P::LinearSample,
        (I::Linear, _) => P::Linear,
        _ => return None,
    })
}

fn ir_interpolation(i: crate::Interpolation) -> Interpolation {
    use crate::Interpolation as P;
    match i {
        P::Perspective => Interpolation::Linear,
        P::PerspectiveCentroid => Interpolation::LinearCentroid,
        P::PerspectiveSample => Interpolation::LinearSample,
        P::Linear => Interpolation::LinearNoPerspective,
        P::LinearCentroid => Interpolation::LinearNoPerspectiveCentroid,
        P::LinearSample => Interpolation::LinearNoPerspectiveSample,
        P::Flat => Interpolation::Constant,
    }
}

/// Whether an instruction's immediates are read at run time: when the WGSL built from its
/// immediates alone would form a constant expression — all its sources are immediates, or the
/// two factors of a `mad` are — WGSL compilers evaluate it at shader creation and reject it where
/// D3D gives an infinity or a NaN (`log l(0)`, `div l(1), l(0)`, `mul l(1e38), l(1e38)`), and naga
/// rejects integer division by a constant zero outright. Moves and resource accesses (never
/// constant-evaluated) are left alone.
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
    all || mad_factors
}

fn naga_kind(k: IfScalar) -> ScalarKind {
    match k {
        IfScalar::Uint => ScalarKind::Uint,
        IfScalar::Sint => ScalarKind::Sint,
        IfScalar::Float => ScalarKind::Float,
    }
}

fn if_scalar(k: ScalarKind) -> IfScalar {
    match k {
        ScalarKind::Uint => IfScalar::Uint,
        ScalarKind::Sint => IfScalar::Sint,
        _ => IfScalar::Float,
    }
}

fn interpolation(kind: ScalarKind, mode: Interpolation) -> (Option<naga::Interpolation>, Option<naga::Sampling>) {
    use naga::{Interpolation as I, Sampling as S};
    if kind != ScalarKind::Float {
        return (Some(I::Flat), None);
    }
    match mode {
        Interpolation::Constant => (Some(I::Flat), None),
        Interpolation::Undefined | Interpolation::Linear => (Some(I::Perspective), Some(S::Center)),
        Interpolation::LinearCentroid => (Some(I::Perspective), Some(S::Centroid)),
        Interpolation::LinearNoPerspective => (Some(I::Linear), Some(S::Center)),
        Interpolation::LinearNoPerspectiveCentroid => (Some(I::Linear), Some(S::Centroid)),
        Interpolation::LinearSample => (Some(I::Perspective), Some(S::Sample)),
        Interpolation::LinearNoPerspectiveSample => (Some(I::Linear), Some(S::Sample)),
    }
}

/// Components of the WGSL builtin a scalar or vector input system value becomes (position: 4).
fn n_of_builtin(stage: ShaderStage, sysval: u32) -> usize {
    if stage == ShaderStage::Pixel && sysval == sv::POSITION {
        4
    } else {
        1
    }
}

/// The WGSL builtin of a compute-shader input register: (builtin, components, WGSL name, HLSL
/// semantic).
fn compute_builtin(ty: OperandType) -> Option<(BuiltIn, usize, &'static str, &'static str)> {
    Some(match ty {
        OperandType::InputThreadId => (BuiltIn::GlobalInvocationId, 3, "global_invocation_id", "SV_DispatchThreadID"),
        OperandType::InputThreadGroupId => (BuiltIn::WorkGroupId, 3, "workgroup_id", "SV_GroupID"),
        OperandType::InputThreadIdInGroup => (BuiltIn::LocalInvocationId, 3, "local_invocation_id", "SV_GroupThreadID"),
        OperandType::InputThreadIdInGroupFlattened => {
            (BuiltIn::LocalInvocationIndex, 1, "local_invocation_index", "SV_GroupIndex")
        }
        _ => return None,
    })
}

/// D3D system-value names (`D3D10_SB_NAME`).
mod sv {
    pub const POSITION: u32 = 1;
    pub const CLIP_DISTANCE: u32 = 2;
    pub const CULL_DISTANCE: u32 = 3;
    pub const VERTEX_ID: u32 = 6;
    pub const PRIMITIVE_ID: u32 = 7;
    pub const INSTANCE_ID: u32 = 8;
    pub const IS_FRONT_FACE: u32 = 9;
    pub const SAMPLE_INDEX: u32 = 10;
}

/// The HLSL semantic of a system value (`D3D_NAME`), for messages: `SV_RenderTargetArrayIndex`,
/// or the number when it has none.
fn sv_semantic(v: u32) -> String {
    let s = match v {
        1 => "SV_Position",
        2 => "SV_ClipDistance",
        3 => "SV_CullDistance",
        4 => "SV_RenderTargetArrayIndex",
        5 => "SV_ViewportArrayIndex",
        6 => "SV_VertexID",
        7 => "SV_PrimitiveID",
        8 => "SV_InstanceID",
        9 => "SV_IsFrontFace",
        10 => "SV_SampleIndex",
        11 | 13 | 15 | 16 => "SV_TessFactor",
        12 | 14 => "SV_InsideTessFactor",
        17 => "SV_Barycentrics",
        18 => "SV_ShadingRate",
        19 => "SV_CullPrimitive",
        _ => return format!("{v} (D3D_NAME)"),
    };
    format!("{s} ({v})")
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
    let module = if doubles { f64::library()?.clone() } else { naga::Module::default() };
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
        out_struct: None,
        clip_out: None,
        input_ranges: Vec::new(),
        bindings: Vec::new(),
        uniformity_note: None,
        f64_helpers,
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
                || x > 1024
                || y > 1024
                || z > 64
                || u64::from(x) * u64::from(y) * u64::from(z) > 1024
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
    let (inputs, outputs) = cx.declare_io(options)?;
    cx.declare_temps();
    let body = &m.body;
    if !cx.block(body)? {
        cx.ret();
    }
    let workgroup_storage_bytes = m.tgsm.iter().map(|g| g.words * 4).sum();
    let Cx { mut module, b, bindings, uniformity_note, .. } = cx;
    let function = b.finish();
    let stage = m.version.stage;
    let workgroup_size = m.thread_group;
    module.entry_points.push(EntryPoint {
        name: entry_point.clone(),
        stage: naga_stage(stage),
        early_depth_test: None,
        workgroup_size: workgroup_size.unwrap_or([0; 3]),
        workgroup_size_overrides: None,
        function,
        mesh_info: None,
        task_payload: None,
        incoming_ray_payload: None,
    });
    if doubles {
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
    })
}

impl Cx<'_, '_> {
    pub(crate) fn ty(&mut self, kind: ScalarKind, n: usize) -> Handle<Type> {
        ty_vec(&mut self.module.types, kind, n)
    }

    fn global(
        &mut self,
        name: String,
        space: AddressSpace,
        ty: Handle<Type>,
        group_binding: Option<(u32, u32)>,
    ) -> Handle<Expression> {
        let gv = self.module.global_variables.append(
            GlobalVariable {
                name: Some(name),
                space,
                binding: group_binding.map(|(group, binding)| naga::ResourceBinding { group, binding }),
                ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        );
        self.b.expr(Expression::GlobalVariable(gv))
    }

    fn bind(
        &mut self,
        at: usize,
        class: BindingClass,
        slot: u32,
        space: u32,
        kind: ResourceKind,
        name: &str,
    ) -> Result<(u32, u32), TranslateError> {
        let register = BindingSlot { class, slot, space };
        let (group, binding) = bindings::plan(self.m.version.stage, register).ok_or_else(|| {
            refuse_decl(
                self.m,
                at,
                RefusalReason::BindingOutOfRange,
                format!(
                    "{}{slot} space {space} is outside the binding plan ({} slots per class, spaces 0-{})",
                    class.letter(),
                    class.slots(),
                    bindings::MAX_SPACE
                ),
            )
        })?;
        if let Some(other) = self.bindings.iter().find(|b| b.group == group && b.binding == binding) {
            return Err(refuse_decl(
                self.m,
                at,
                RefusalReason::BindingOutOfRange,
                format!("{name} binds {}{slot} space {space}, which {} already binds", class.letter(), other.name),
            ));
        }
        self.bindings.push(ResourceBinding { register, group, binding, kind, name: name.to_string() });
        Ok((group, binding))
    }

    /// Which resources and samplers are used by comparison sampling.
    fn compare_usage(&self) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
        let mut tex = Vec::new();
        let mut cmp_samplers = Vec::new();
        let mut plain_samplers = Vec::new();
        for ins in &self.m.program.instructions {
            let is_cmp =
                matches!(ins.opcode, Opcode::SAMPLE_C | Opcode::SAMPLE_C_LZ | Opcode::GATHER4_C | Opcode::GATHER4_PO_C);
            let Some(info) = ins.opcode.info() else { continue };
            let letters: Vec<char> = info.dst.chars().chain(info.src.chars()).collect();
            for (k, o) in ins.operands.iter().enumerate() {
                match (letters.get(k), o.ty) {
                    (Some('r'), OperandType::Resource) if is_cmp => tex.push(o.reg()),
                    (Some('s'), OperandType::Sampler) => {
                        if is_cmp {
                            cmp_samplers.push(o.reg())
                        } else {
                            plain_samplers.push(o.reg())
                        }
                    }
                    _ => {}
                }
            }
        }
        (tex, cmp_samplers, plain_samplers)
    }

    fn declare_resources(&mut self, options: &TranslateOptions) -> Result<(), TranslateError> {
        let m = self.m;
        let mut cbs = m.cbuffers.clone();
        cbs.sort_by_key(|c| (c.space, c.slot));
        for cb in &cbs {
            let st = self.storage.cbuffers.get(&cb.id).copied().unwrap_or(Storage::F32);
            let size = cb.size.max(1);
            if size > 4096 {
                return Err(refuse_decl(
                    m,
                    cb.at,
                    RefusalReason::ResourceUnsupported,
                    format!("constant buffer of {size} registers exceeds D3D's 4096"),
                ));
            }
            let v4 = self.ty(st.kind(), 4);
            let len = naga::ArraySize::Constant(std::num::NonZeroU32::new(size).expect("non-zero"));
            let arr = self.module.types.insert(
                Type { name: None, inner: TypeInner::Array { base: v4, size: len, stride: 16 } },
                Span::UNDEFINED,
            );
            let name = format!("cb{}", cb.id);
            let gb = self.bind(
                cb.at,
                BindingClass::ConstantBuffer,
                cb.slot,
                cb.space,
                ResourceKind::UniformBuffer { size_bytes: size * 16 },
                &name,
            )?;
            let e = self.global(name, AddressSpace::Uniform, arr, Some(gb));
            self.cbuffers.insert(cb.id, (e, size, st));
        }
        if let Some(icb) = &m.icb {
            let st = self.storage.icb.unwrap_or(Storage::U32);
            // Constant infinities/NaNs are shader-creation errors in WGSL: keep such a table as bits.
            let st = if st == Storage::F32 && icb.iter().flatten().any(|w| (w >> 23) & 0xff == 0xff) {
                Storage::U32
            } else {
                st
            };
            let v4 = self.ty(st.kind(), 4);
            let n = icb.len().max(1) as u32;
            let arr = self.module.types.insert(
                Type {
                    name: None,
                    inner: TypeInner::Array {
                        base: v4,
                        size: naga::ArraySize::Constant(std::num::NonZeroU32::new(n).expect("n")),
                        stride: 16,
                    },
                },
                Span::UNDEFINED,
            );
            // A module-scope constant array.
            let mut rows = Vec::new();
            for row in icb.iter() {
                let mut comps = Vec::new();
                for &w in row {
                    let lit = match st {
                        Storage::F32 => naga::Literal::F32(f32::from_bits(w)),
                        Storage::I32 => naga::Literal::I32(w as i32),
                        Storage::U32 => naga::Literal::U32(w),
                    };
                    comps.push(self.module.global_expressions.append(Expression::Literal(lit), Span::UNDEFINED));
                }
                rows.push(
                    self.module
                        .global_expressions
                        .append(Expression::Compose { ty: v4, components: comps }, Span::UNDEFINED),
                );
            }
            if rows.is_empty() {
                rows.push(self.module.global_expressions.append(Expression::ZeroValue(v4), Span::UNDEFINED));
            }
            let init = self
                .module
                .global_expressions
                .append(Expression::Compose { ty: arr, components: rows }, Span::UNDEFINED);
            // A private variable, not a constant: reads of it must not be constant expressions
            // (a NaN row read with a constant index would be rejected by WGSL compilers).
            let g = self.module.global_variables.append(
                GlobalVariable {
                    name: Some("icb".into()),
                    space: AddressSpace::Private,
                    binding: None,
                    ty: arr,
                    init: Some(init),
                    memory_decorations: Default::default(),
                },
                Span::UNDEFINED,
            );
            let e = self.b.expr(Expression::GlobalVariable(g));
            self.icb = Some((e, n, st));
        }
        let (cmp_tex, cmp_samplers, plain_samplers) = self.compare_usage();
        let mut samplers = m.samplers.clone();
        samplers.sort_by_key(|s| (s.space, s.slot));
        for s in &samplers {
            let uses_cmp = cmp_samplers.contains(&s.id);
            let uses_plain = plain_samplers.contains(&s.id);
            if uses_cmp && uses_plain {
                return Err(refuse_decl(
                    m,
                    s.at,
                    RefusalReason::WebGpuLimitation,
                    format!("s{} is used for both comparison and ordinary sampling; WebGPU sampler types differ", s.id),
                ));
            }
            let comparison = uses_cmp || (s.mode == crate::sm4::decl::SamplerMode::Comparison && !uses_plain);
            let ty = self
                .module
                .types
                .insert(Type { name: None, inner: TypeInner::Sampler { comparison } }, Span::UNDEFINED);
            let name = format!("s{}", s.id);
            let gb =
                self.bind(s.at, BindingClass::Sampler, s.slot, s.space, ResourceKind::Sampler { comparison }, &name)?;
            let e = self.global(name, AddressSpace::Handle, ty, Some(gb));
            self.samplers.insert((s.id, comparison), e);
        }
        let mut resources = m.resources.clone();
        resources.sort_by_key(|r| (r.uav, r.space, r.slot));
        let atomic_uavs = self.atomic_uavs();
        for r in &resources {
            if let ResourceShape::Raw | ResourceShape::Structured { .. } = r.shape {
                self.declare_buffer(r, atomic_uavs.contains(&r.id))?;
                continue;
            }
            if let ResourceShape::Typed { dim: 1, ret, .. } = r.shape {
                self.declare_typed_buffer(r, ret, atomic_uavs.contains(&r.id), options)?;
                continue;
            }
            if r.uav {
                self.declare_storage_texture(r, options)?;
                continue;
            }
            let ResourceShape::Typed { dim, ret, .. } = r.shape else {
                unreachable!("raw and structured handled above")
            };
            let (idim, arrayed, multi, coords) = match dim {
                2 => (ImageDimension::D1, false, false, 1),
                3 => (ImageDimension::D2, false, false, 2),
                4 => (ImageDimension::D2, false, true, 2),
                5 => (ImageDimension::D3, false, false, 3),
                6 => (ImageDimension::Cube, false, false, 3),
                7 => {
                    return Err(refuse_decl(
                        m,
                        r.at,
                        RefusalReason::WebGpuLimitation,
                        "1D texture arrays: WGSL has no texture_1d_array",
                    ));
                }
                8 => (ImageDimension::D2, true, false, 2),
                10 => (ImageDimension::Cube, true, false, 3),
                9 => {
                    return Err(refuse_decl(
                        m,
                        r.at,
                        RefusalReason::WebGpuLimitation,
                        "multisampled 2D texture arrays: WebGPU has none",
                    ))
                }
                other => {
                    return Err(refuse_decl(
                        m,
                        r.at,
                        RefusalReason::ResourceUnsupported,
                        format!("resource dimension {other}"),
                    ))
                }
            };
            let kind = match ret[0] {
                3 => ScalarKind::Sint,
                4 => ScalarKind::Uint,
                7 => return Err(refuse_decl(m, r.at, RefusalReason::Float64, "double-precision resource")),
                _ => ScalarKind::Float,
            };
            let depth = cmp_tex.contains(&r.id);
            if depth && (kind != ScalarKind::Float || multi || idim == ImageDimension::D3 || idim == ImageDimension::D1)
            {
                return Err(refuse_decl(
                    m,
                    r.at,
                    RefusalReason::WebGpuLimitation,
                    "comparison sampling of a texture WebGPU has no depth form of",
                ));
            }
            let class = if depth { ImageClass::Depth { multi } } else { ImageClass::Sampled { kind, multi } };
            let ty = self
                .module
                .types
                .insert(Type { name: None, inner: TypeInner::Image { dim: idim, arrayed, class } }, Span::UNDEFINED);
            let dim_name = match (idim, arrayed) {
                (ImageDimension::D1, _) => ViewDimension::D1,
                (ImageDimension::D2, false) => ViewDimension::D2,
                (ImageDimension::D2, true) => ViewDimension::D2Array,
                (ImageDimension::D3, _) => ViewDimension::D3,
                (ImageDimension::Cube, false) => ViewDimension::Cube,
                (ImageDimension::Cube, true) => ViewDimension::CubeArray,
            };
            let sample = match (depth, kind) {
                (true, _) => TextureSample::Depth,
                (_, ScalarKind::Sint) => TextureSample::Sint,
                (_, ScalarKind::Uint) => TextureSample::Uint,
                _ if multi => TextureSample::UnfilterableFloat,
                // Only `textureLoad`ed (no instruction pairs it with a sampler): bindable as
                // unfilterable-float, which also accepts formats WebGPU cannot filter (R32Float).
                _ if !self.srv_sampled(r.id) => TextureSample::UnfilterableFloat,
                _ => TextureSample::Float,
            };
            let name = format!("t{}", r.id);
            let gb = self.bind(
                r.at,
                BindingClass::ShaderResource,
                r.slot,
                r.space,
                ResourceKind::Texture { dimension: dim_name, sample, multisampled: multi },
                &name,
            )?;
            let e = self.global(name, AddressSpace::Handle, ty, Some(gb));
            self.textures.insert(r.id, Tex { expr: e, dim: idim, arrayed, multi, kind, depth, coords });
        }
        Ok(())
    }

    /// A private global per non-finite 32-bit immediate of the program, so that reading it as a
    /// float is not a constant expression (WGSL rejects constant infinities and NaNs).
    fn declare_nonfinite(&mut self) {
        let mut bits: Vec<u32> = Vec::new();
        for ins in &self.m.program.instructions {
            if ins.opcode.is_double() {
                // Read as `u32` words (`lower/f64.rs`), never as floats.
                continue;
            }
            let all = runtime_immediates(ins);
            for o in &ins.operands {
                if o.ty == OperandType::Immediate32 {
                    for &w in &o.imm {
                        if (all || (w >> 23) & 0xff == 0xff) && !bits.contains(&w) {
                            bits.push(w);
                        }
                    }
                }
            }
        }
        bits.sort_unstable();
        let u = self.ty(ScalarKind::Uint, 1);
        for w in bits {
            let init =
                self.module.global_expressions.append(Expression::Literal(naga::Literal::U32(w)), Span::UNDEFINED);
            let g = self.module.global_variables.append(
                GlobalVariable {
                    name: Some(format!("f32_bits_{w:08x}")),
                    space: AddressSpace::Private,
                    binding: None,
                    ty: u,
                    init: Some(init),
                    memory_decorations: Default::default(),
                },
                Span::UNDEFINED,
            );
            self.b.nonfinite_globals.push((w, g));
        }
    }

    /// UAV ids that atomic instructions target (their words are declared `atomic<u32>`).
    fn atomic_uavs(&self) -> Vec<u32> {
        let mut ids = Vec::new();
        for ins in &self.m.program.instructions {
            let atomic = ins.opcode.is_atomic();
            if !atomic {
                continue;
            }
            for o in &ins.operands {
                if o.ty == OperandType::UnorderedAccessView && !ids.contains(&o.reg()) {
                    ids.push(o.reg());
                }
            }
        }
        ids
    }

    /// Thread-group shared memory: `var<workgroup> g#: array<u32, N>` (`atomic<u32>` words when
    /// an atomic instruction touches it; WGSL then requires every access to be atomic, which
    /// naga writes as `atomicLoad`/`atomicStore` for plain loads and stores). WebGPU zeroes
    /// workgroup memory; D3D leaves it undefined.
    fn declare_tgsm(&mut self) {
        let mut atomic_ids = Vec::new();
        for ins in &self.m.program.instructions {
            if ins.opcode.is_atomic() {
                for o in &ins.operands {
                    if o.ty == OperandType::ThreadGroupSharedMemory {
                        atomic_ids.push(o.reg());
                    }
                }
            }
        }
        for g in self.m.tgsm.clone() {
            let atomic = atomic_ids.contains(&g.id);
            let word = if atomic {
                self.module
                    .types
                    .insert(Type { name: None, inner: TypeInner::Atomic(naga::Scalar::U32) }, Span::UNDEFINED)
            } else {
                self.ty(ScalarKind::Uint, 1)
            };
            let size = naga::ArraySize::Constant(std::num::NonZeroU32::new(g.words).expect("non-zero (ir::build)"));
            let arr = self
                .module
                .types
                .insert(Type { name: None, inner: TypeInner::Array { base: word, size, stride: 4 } }, Span::UNDEFINED);
            let e = self.global(format!("g{}", g.id), AddressSpace::WorkGroup, arr, None);
            self.tgsm.insert(g.id, Buf { expr: e, stride: g.stride, atomic, words: Some(g.words) });
        }
    }

    /// A raw or structured buffer: `var<storage, read> t#: array<u32>` (SRV) or
    /// `var<storage, read_write> u#: array<u32>` (UAV; `atomic<u32>` when atomics touch it).
    fn declare_buffer(&mut self, r: &crate::ir::ResourceDecl, atomic: bool) -> Result<(), TranslateError> {
        let m = self.m;
        if r.uav && m.version.stage == ShaderStage::Vertex {
            return Err(refuse_decl(
                m,
                r.at,
                RefusalReason::WebGpuLimitation,
                "WebGPU vertex shaders cannot write storage buffers",
            ));
        }
        let stride = match r.shape {
            ResourceShape::Structured { stride } => {
                if stride == 0 || stride % 4 != 0 {
                    return Err(refuse_decl(
                        m,
                        r.at,
                        RefusalReason::ResourceUnsupported,
                        format!("structure stride {stride} is not a non-zero multiple of 4"),
                    ));
                }
                Some(stride)
            }
            _ => None,
        };
        if r.uav && r.flags.order_preserving_counter {
            return Err(refuse_decl(
                m,
                r.at,
                RefusalReason::ResourceUnsupported,
                "structured UAV with a hidden counter (append/consume, imm_atomic_alloc)",
            ));
        }
        let word = if atomic {
            self.module.types.insert(Type { name: None, inner: TypeInner::Atomic(naga::Scalar::U32) }, Span::UNDEFINED)
        } else {
            self.ty(ScalarKind::Uint, 1)
        };
        let arr = self.module.types.insert(
            Type { name: None, inner: TypeInner::Array { base: word, size: naga::ArraySize::Dynamic, stride: 4 } },
            Span::UNDEFINED,
        );
        let (class, name) = if r.uav {
            (BindingClass::UnorderedAccess, format!("u{}", r.id))
        } else {
            (BindingClass::ShaderResource, format!("t{}", r.id))
        };
        let gb = self.bind(r.at, class, r.slot, r.space, ResourceKind::StorageBuffer { read_only: !r.uav }, &name)?;
        let access =
            if r.uav { naga::StorageAccess::LOAD | naga::StorageAccess::STORE } else { naga::StorageAccess::LOAD };
        let e = self.global(name, AddressSpace::Storage { access }, arr, Some(gb));
        self.buffers.insert((r.uav, r.id), Buf { expr: e, stride, atomic, words: None });
        Ok(())
    }

    /// A typed `Buffer`/`RWBuffer`: a storage buffer of words, `components` words per element,
    /// with the element format the caller supplied.
    fn declare_typed_buffer(
        &mut self,
        r: &crate::ir::ResourceDecl,
        ret: [u8; 4],
        atomic: bool,
        options: &TranslateOptions,
    ) -> Result<(), TranslateError> {
        let m = self.m;
        let (kind, components) = if r.uav {
            let f = self.typed_uav_format(r, ret, options).ok_or_else(|| {
                refuse_decl(m, r.at, RefusalReason::TypedUavFormatUnknown, format!("typed RWBuffer {}: its view format is not in the bytecode (TranslateOptions::typed_uav_formats)", view_name(r))).with_subject(RefusalSubject::ViewFormat { register: view_slot(r), buffer: true })
            })?;
            if !f.is_32bit() {
                return Err(refuse_decl(
                    m,
                    r.at,
                    RefusalReason::ResourceUnsupported,
                    format!(
                        "typed RWBuffer {} of format {}: only 32-bit-per-component formats are emulated",
                        view_name(r),
                        f.wgsl_name()
                    ),
                ));
            }
            (naga_kind(f.scalar()), f.components())
        } else {
            let f = options.typed_buffer_formats.iter().find(|(s, _)| *s == view_register(r)).map(|x| x.1).ok_or_else(|| {
                refuse_decl(m, r.at, RefusalReason::TypedBufferFormatUnknown, format!("typed Buffer SRV {}: its view format is not in the bytecode (TranslateOptions::typed_buffer_formats)", view_name(r))).with_subject(RefusalSubject::ViewFormat { register: view_slot(r), buffer: true })
            })?;
            match f {
                crate::TypedBufferFormat::Float32(n) => (ScalarKind::Float, n),
                crate::TypedBufferFormat::Uint32(n) => (ScalarKind::Uint, n),
                crate::TypedBufferFormat::Sint32(n) => (ScalarKind::Sint, n),
            }
        };
        if !(1..=4).contains(&components) {
            return Err(refuse_decl(
                m,
                r.at,
                RefusalReason::ResourceUnsupported,
                "typed buffer element of more than 4 components",
            ));
        }
        let declared = match ret[0] {
            3 => ScalarKind::Sint,
            4 => ScalarKind::Uint,
            _ => ScalarKind::Float,
        };
        if declared != kind {
            return Err(refuse_decl(
                m,
                r.at,
                RefusalReason::ResourceUnsupported,
                "the supplied view format's scalar type differs from the declared return type",
            ));
        }
        if r.uav && m.version.stage == ShaderStage::Vertex {
            return Err(refuse_decl(
                m,
                r.at,
                RefusalReason::WebGpuLimitation,
                "WebGPU vertex shaders cannot write storage buffers",
            ));
        }
        let atomic = atomic && r.uav;
        let word = if atomic {
            self.module.types.insert(Type { name: None, inner: TypeInner::Atomic(naga::Scalar::U32) }, Span::UNDEFINED)
        } else {
            self.ty(ScalarKind::Uint, 1)
        };
        let arr = self.module.types.insert(
            Type { name: None, inner: TypeInner::Array { base: word, size: naga::ArraySize::Dynamic, stride: 4 } },
            Span::UNDEFINED,
        );
        let (class, name) = if r.uav {
            (BindingClass::UnorderedAccess, format!("u{}", r.id))
        } else {
            (BindingClass::ShaderResource, format!("t{}", r.id))
        };
        let gb = self.bind(r.at, class, r.slot, r.space, ResourceKind::StorageBuffer { read_only: !r.uav }, &name)?;
        let access =
            if r.uav { naga::StorageAccess::LOAD | naga::StorageAccess::STORE } else { naga::StorageAccess::LOAD };
        let e = self.global(name, AddressSpace::Storage { access }, arr, Some(gb));
        self.typed_buffers.insert((r.uav, r.id), TypedBuf { expr: e, kind, components: components as u32, atomic });
        Ok(())
    }

    /// Whether an instruction the predicate accepts names UAV `u{id}`.
    /// Whether an instruction uses SRV `t#` (logical id) with a sampler (`sample*`, `gather4*`):
    /// WebGPU then needs a filterable binding when the sampler filters.
    fn srv_sampled(&self, id: u32) -> bool {
        self.m.program.instructions.iter().any(|ins| {
            ins.operands.iter().any(|o| o.ty == OperandType::Sampler)
                && ins.operands.iter().any(|o| o.ty == OperandType::Resource && o.reg() == id)
        })
    }

    fn uav_used_by(&self, id: u32, pred: impl Fn(Opcode) -> bool) -> bool {
        self.m.program.instructions.iter().any(|ins| {
            pred(ins.opcode) && ins.operands.iter().any(|o| o.ty == OperandType::UnorderedAccessView && o.reg() == id)
        })
    }

    /// The view format of typed UAV `u#`: the caller's, else the one the program implies.
    ///
    /// D3D11 allows typed UAV loads (`ld_uav_typed`) and atomics only on R32_UINT, R32_SINT and
    /// R32_FLOAT views unless the shader declares
    /// `D3D_SHADER_REQUIRES_TYPED_UAV_LOAD_ADDITIONAL_FORMATS` (SFI0 0x800; D3D11.3 functional
    /// spec 5.3.9.5 "Typed UAV Loads"): a UAV the program loads from or operates on atomically,
    /// without that flag, has the R32 format of its declared return type.
    fn typed_uav_format(
        &self,
        r: &crate::ir::ResourceDecl,
        ret: [u8; 4],
        options: &TranslateOptions,
    ) -> Option<crate::TexelFormat> {
        if let Some(f) = options.typed_uav_formats.iter().find(|(s, _)| *s == view_register(r)).map(|x| x.1) {
            return Some(f);
        }
        if self.m.feature_flags & 0x800 != 0 {
            return None;
        }
        if !self.uav_used_by(r.id, |op| op == Opcode::LD_UAV_TYPED || op.is_atomic()) {
            return None;
        }
        match ret[0] {
            3 => Some(crate::TexelFormat::R32Sint),
            4 => Some(crate::TexelFormat::R32Uint),
            5 => Some(crate::TexelFormat::R32Float),
            _ => None,
        }
    }

    /// A typed UAV texture: a WGSL storage texture of the caller-supplied format; `read_write`
    /// when the shader loads from it, else write-only.
    fn declare_storage_texture(
        &mut self,
        r: &crate::ir::ResourceDecl,
        options: &TranslateOptions,
    ) -> Result<(), TranslateError> {
        let m = self.m;
        let ResourceShape::Typed { dim, ret, .. } = r.shape else { unreachable!("typed") };
        if m.version.stage == ShaderStage::Vertex {
            return Err(refuse_decl(
                m,
                r.at,
                RefusalReason::WebGpuLimitation,
                "WebGPU vertex shaders cannot write storage textures",
            ));
        }
        let f = self.typed_uav_format(r, ret, options).ok_or_else(|| {
            refuse_decl(m, r.at, RefusalReason::TypedUavFormatUnknown, format!("typed UAV {}: WGSL storage textures need the view's texel format, which the bytecode does not carry (TranslateOptions::typed_uav_formats)", view_name(r))).with_subject(RefusalSubject::ViewFormat { register: view_slot(r), buffer: false })
        })?;
        let declared = match ret[0] {
            3 => ScalarKind::Sint,
            4 => ScalarKind::Uint,
            _ => ScalarKind::Float,
        };
        if declared != naga_kind(f.scalar()) {
            return Err(refuse_decl(
                m,
                r.at,
                RefusalReason::ResourceUnsupported,
                "the supplied UAV format's scalar type differs from the declared return type",
            ));
        }
        let (idim, arrayed, coords) = match dim {
            2 => (ImageDimension::D1, false, 1),
            3 => (ImageDimension::D2, false, 2),
            5 => (ImageDimension::D3, false, 3),
            8 => (ImageDimension::D2, true, 2),
            other => {
                return Err(refuse_decl(
                    m,
                    r.at,
                    RefusalReason::WebGpuLimitation,
                    format!("UAV of resource dimension {other} (WebGPU storage textures are 1D, 2D, 2D-array or 3D)"),
                ))
            }
        };
        let loaded = self.uav_used_by(r.id, |op| op == Opcode::LD_UAV_TYPED);
        if loaded
            && !matches!(f, crate::TexelFormat::R32Float | crate::TexelFormat::R32Uint | crate::TexelFormat::R32Sint)
        {
            return Err(refuse_decl(m, r.at, RefusalReason::WebGpuLimitation, format!("u{} is read and written, but WebGPU allows read_write storage textures only for r32float/r32uint/r32sint (format {})", r.id, f.wgsl_name())));
        }
        let format = match f {
            crate::TexelFormat::R32Float => naga::StorageFormat::R32Float,
            crate::TexelFormat::R32Uint => naga::StorageFormat::R32Uint,
            crate::TexelFormat::R32Sint => naga::StorageFormat::R32Sint,
            crate::TexelFormat::Rg32Float => naga::StorageFormat::Rg32Float,
            crate::TexelFormat::Rg32Uint => naga::StorageFormat::Rg32Uint,
            crate::TexelFormat::Rg32Sint => naga::StorageFormat::Rg32Sint,
            crate::TexelFormat::Rgba32Float => naga::StorageFormat::Rgba32Float,
            crate::TexelFormat::Rgba32Uint => naga::StorageFormat::Rgba32Uint,
            crate::TexelFormat::Rgba32Sint => naga::StorageFormat::Rgba32Sint,
            crate::TexelFormat::Rgba16Float => naga::StorageFormat::Rgba16Float,
            crate::TexelFormat::Rgba16Uint => naga::StorageFormat::Rgba16Uint,
            crate::TexelFormat::Rgba16Sint => naga::StorageFormat::Rgba16Sint,
            crate::TexelFormat::Rgba8Unorm => naga::StorageFormat::Rgba8Unorm,
            crate::TexelFormat::Rgba8Snorm => naga::StorageFormat::Rgba8Snorm,
            crate::TexelFormat::Rgba8Uint => naga::StorageFormat::Rgba8Uint,
            crate::TexelFormat::Rgba8Sint => naga::StorageFormat::Rgba8Sint,
            crate::TexelFormat::Bgra8Unorm => naga::StorageFormat::Bgra8Unorm,
        };
        let access =
            if loaded { naga::StorageAccess::LOAD | naga::StorageAccess::STORE } else { naga::StorageAccess::STORE };
        let ty = self.module.types.insert(
            Type {
                name: None,
                inner: TypeInner::Image { dim: idim, arrayed, class: ImageClass::Storage { format, access } },
            },
            Span::UNDEFINED,
        );
        let dim_name = match (idim, arrayed) {
            (ImageDimension::D1, _) => ViewDimension::D1,
            (ImageDimension::D2, false) => ViewDimension::D2,
            (ImageDimension::D2, true) => ViewDimension::D2Array,
            _ => ViewDimension::D3,
        };
        let name = format!("u{}", r.id);
        let gb = self.bind(
            r.at,
            BindingClass::UnorderedAccess,
            r.slot,
            r.space,
            ResourceKind::StorageTexture { dimension: dim_name, format: f, read_write: loaded },
            &name,
        )?;
        let e = self.global(name, AddressSpace::Handle, ty, Some(gb));
        self.storage_textures
            .insert(r.id, StorageTex { expr: e, arrayed, coords, kind: naga_kind(f.scalar()), read_write: loaded });
        Ok(())
    }

    fn declare_temps(&mut self) {
        for r in 0..self.m.temps {
            let st = self.storage.temp(r);
            let ty = self.ty(st.kind(), 4);
            let zero = self.b.expr(Expression::ZeroValue(ty));
            let lv = self
                .b
                .f
                .local_variables
                .append(LocalVariable { name: Some(format!("r{r}")), ty, init: Some(zero) }, Span::UNDEFINED);
            let e = self.b.expr(Expression::LocalVariable(lv));
            self.temps.push(e);
        }
        for x in self.m.indexable_temps.clone() {
            let st = self.storage.indexable.get(&x.register).copied().unwrap_or(Storage::U32);
            let v4 = self.ty(st.kind(), 4);
            let n = x.size.max(1);
            let arr = self.module.types.insert(
                Type {
                    name: None,
                    inner: TypeInner::Array {
                        base: v4,
                        size: naga::ArraySize::Constant(std::num::NonZeroU32::new(n).expect("n")),
                        stride: 16,
                    },
                },
                Span::UNDEFINED,
            );
            let zero = self.b.expr(Expression::ZeroValue(arr));
            let lv = self.b.f.local_variables.append(
                LocalVariable { name: Some(format!("x{}", x.register)), ty: arr, init: Some(zero) },
                Span::UNDEFINED,
            );
            let e = self.b.expr(Expression::LocalVariable(lv));
            self.indexable.insert(x.register, (e, n, st));
        }
    }

    /// Declares entry-point arguments (inputs) and the output struct; returns the interface.
    fn declare_io(
        &mut self,
        options: &TranslateOptions,
    ) -> Result<(Vec<InterfaceVar>, Vec<InterfaceVar>), TranslateError> {
        let m = self.m;
        let stage = m.version.stage;
        // Semantic names are HLSL identifiers; anything else (control characters, code) is a
        // hostile blob, and the names travel on into generated code and reports.
        for e in m.input_signature.elements.iter().chain(&m.output_signature.elements) {
            let ok = !e.semantic_name.is_empty()
                && e.semantic_name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !e.semantic_name.starts_with(|c: char| c.is_ascii_digit());
            if !ok {
                let at = m.program.instructions.iter().position(|i| i.opcode.is_declaration()).unwrap_or(0);
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::OperandUnsupported,
                    format!("signature semantic name {:?} is not an HLSL identifier", e.semantic_name),
                ));
            }
        }
        let mut in_vars = Vec::new();
        // ---- inputs ----
        let mut regs: Vec<u32> = Vec::new();
        let mut special = Vec::new();
        for d in &m.inputs {
            match d.operand.ty {
                OperandType::Input => {
                    if !regs.contains(&d.register) {
                        regs.push(d.register)
                    }
                }
                _ => special.push(d.clone()),
            }
        }
        regs.sort_unstable();
        // A pixel shader runs once per sample when it reads SV_SampleIndex or an input is
        // interpolated per sample.
        let per_sample = stage == ShaderStage::Pixel
            && m.inputs.iter().any(|d| {
                d.system_value == sv::SAMPLE_INDEX
                    || matches!(d.interpolation, Interpolation::LinearSample | Interpolation::LinearNoPerspectiveSample)
            });
        // (register, parts (value, component count, kind, first component), register kind); later
        // parts overwrite the components they cover.
        type InputParts = Vec<(Handle<Expression>, u8, ScalarKind, u8)>;
        let mut copies: Vec<(u32, InputParts, ScalarKind)> = Vec::new();
        for reg in regs {
            let decls: Vec<_> =
                m.inputs.iter().filter(|d| d.operand.ty == OperandType::Input && d.register == reg).collect();
            let elems: Vec<_> = m.input_signature.elements.iter().filter(|e| e.register == reg).collect();
            let sysval = decls.iter().map(|d| d.system_value).find(|&s| s != 0).unwrap_or(0);
            let sig_sv = elems.iter().map(|e| e.system_value).find(|&s| s != 0).unwrap_or(0);
            let sysval = if sysval != 0 { sysval } else { sig_sv };
            let at = decls[0].at;
            let mut parts = Vec::new();
            let mut reg_kind = None;
            let builtin_reg = sysval != 0 && !(stage == ShaderStage::Vertex && sysval == sv::POSITION);
            // User-defined elements packed into the register of a scalar system value (e.g. a
            // `uint` in v0.x beside SV_IsFrontFace in v0.y) keep their own location.
            let sv_decl_mask = decls.iter().filter(|d| d.system_value != 0).fold(0u8, |a, d| a | d.mask);
            let user_elems: Vec<_> =
                elems.iter().copied().filter(|e| e.system_value == 0 && e.mask & sv_decl_mask == 0).collect();
            if builtin_reg {
                let (builtin, ty_kind, n, name): (BuiltIn, ScalarKind, usize, &'static str) = match (stage, sysval) {
                    (ShaderStage::Vertex, sv::VERTEX_ID) => (BuiltIn::VertexIndex, ScalarKind::Uint, 1, "vertex_index"),
                    (ShaderStage::Vertex, sv::INSTANCE_ID) => {
                        (BuiltIn::InstanceIndex, ScalarKind::Uint, 1, "instance_index")
                    }
                    (ShaderStage::Pixel, sv::POSITION) => {
                        (BuiltIn::Position { invariant: false }, ScalarKind::Float, 4, "position")
                    }
                    (ShaderStage::Pixel, sv::IS_FRONT_FACE) => {
                        (BuiltIn::FrontFacing, ScalarKind::Bool, 1, "front_facing")
                    }
                    (ShaderStage::Pixel, sv::SAMPLE_INDEX) => {
                        (BuiltIn::SampleIndex, ScalarKind::Uint, 1, "sample_index")
                    }
                    (ShaderStage::Pixel, sv::PRIMITIVE_ID) => {
                        (BuiltIn::PrimitiveIndex, ScalarKind::Uint, 1, "primitive_index")
                    }
                    (ShaderStage::Pixel, sv::CLIP_DISTANCE | sv::CULL_DISTANCE) => {
                        return Err(refuse_decl(
                            m,
                            at,
                            RefusalReason::SystemValueUnsupported,
                            "a pixel shader reading SV_ClipDistance/SV_CullDistance: WGSL fragment shaders cannot",
                        ))
                    }
                    (_, other) => {
                        return Err(refuse_decl(
                            m,
                            at,
                            RefusalReason::SystemValueUnsupported,
                            format!(
                                "input system value {} in a {} shader: no WGSL builtin",
                                sv_semantic(other),
                                stage.name()
                            ),
                        ))
                    }
                };
                if self.b.f.arguments.iter().any(|a| a.binding == Some(Binding::BuiltIn(builtin))) {
                    return Err(refuse_decl(
                        m,
                        at,
                        RefusalReason::SystemValueUnsupported,
                        format!("v{reg}: a second input of system value {name}"),
                    ));
                }
                let ty = if ty_kind == ScalarKind::Bool {
                    self.module
                        .types
                        .insert(Type { name: None, inner: TypeInner::Scalar(naga::Scalar::BOOL) }, Span::UNDEFINED)
                } else {
                    self.ty(ty_kind, n)
                };
                let idx = self.b.f.arguments.len() as u32;
                self.b.f.arguments.push(FunctionArgument {
                    name: Some(format!("v{reg}_{name}")),
                    ty,
                    binding: Some(Binding::BuiltIn(builtin)),
                });
                let arg = self.b.expr(Expression::FunctionArgument(idx));
                let (val, k) = if ty_kind == ScalarKind::Bool {
                    // D3D's SV_IsFrontFace is 0xFFFFFFFF / 0.
                    let t = self.b.u32(u32::MAX);
                    let f = self.b.u32(0);
                    (self.b.select(arg, t, f), ScalarKind::Uint)
                } else {
                    (arg, ty_kind)
                };
                let pos_interp = decls
                    .iter()
                    .map(|d| d.interpolation)
                    .find(|&i| i != Interpolation::Undefined)
                    .unwrap_or(Interpolation::Undefined);
                let val = if sysval == sv::POSITION
                    && per_sample
                    && !matches!(pos_interp, Interpolation::LinearSample | Interpolation::LinearNoPerspectiveSample)
                {
                    // Run per sample, WebGPU's fragment position is the sample's location; D3D
                    // gives SV_Position at the pixel centre unless it is declared `sample`.
                    let xy = self.b.swizzle(val, &[0, 1]);
                    let xy = self.b.math(naga::MathFunction::Floor, &[xy]);
                    let half = self.b.f32(0.5);
                    let half = self.b.splat(half, 2);
                    let xy = self.b.bin(naga::BinaryOperator::Add, xy, half);
                    let x = self.b.comp(xy, 0);
                    let y = self.b.comp(xy, 1);
                    let z = self.b.comp(val, 2);
                    let w = self.b.comp(val, 3);
                    let v4 = self.ty(ScalarKind::Float, 4);
                    self.b.compose(v4, vec![x, y, z, w])
                } else {
                    val
                };
                let declared_mask = decls.iter().fold(0u8, |a, d| a | d.mask);
                let val = if sysval == sv::POSITION && stage == ShaderStage::Pixel && declared_mask & 8 != 0 {
                    // D3D's SV_Position.w in a pixel shader is the clip-space w; WGSL's fragment
                    // position.w is its reciprocal.
                    let x = self.b.comp(val, 0);
                    let y = self.b.comp(val, 1);
                    let z = self.b.comp(val, 2);
                    let w = self.b.comp(val, 3);
                    let one = self.b.f32(1.0);
                    let w = self.b.bin(naga::BinaryOperator::Divide, one, w);
                    let v4 = self.ty(ScalarKind::Float, 4);
                    self.b.compose(v4, vec![x, y, z, w])
                } else {
                    val
                };
                let sv_mask = elems.iter().filter(|e| e.system_value != 0).fold(0u8, |a, e| a | e.mask)
                    | decls.iter().filter(|d| d.system_value != 0).fold(0u8, |a, d| a | d.mask);
                let first = if n == 1 { sv_mask.trailing_zeros().min(3) as u8 } else { 0 };
                parts.push((val, if n == 1 { 1u8 } else { 4u8 }, k, first));
                reg_kind = Some(k);
                in_vars.push(InterfaceVar {
                    semantic: elems.first().map(|e| e.semantic_name.clone()).unwrap_or_default(),
                    semantic_index: elems.first().map(|e| e.semantic_index).unwrap_or(0),
                    register: reg,
                    location: None,
                    builtin: Some(crate::Builtin::from_naga(builtin)),
                    scalar: if_scalar(k),
                    components: n as u8,
                    first_component: first,
                    interpolation: None,
                });
            }
            if !builtin_reg || (n_of_builtin(stage, sysval) == 1 && !user_elems.is_empty()) {
                let (elems, decls) = if builtin_reg {
                    (user_elems.clone(), decls.iter().copied().filter(|d| d.system_value == 0).collect())
                } else {
                    (elems.clone(), decls.clone())
                };
                let kinds: Vec<ScalarKind> = elems.iter().map(|e| kind_of(e.component_type)).collect();
                let mut kind = kinds.first().copied().unwrap_or(ScalarKind::Float);
                let sig_mask = elems.iter().fold(0u8, |a, e| a | e.mask);
                let decl_mask = decls.iter().fold(0u8, |a, d| a | d.mask);
                let mask = if sig_mask != 0 { sig_mask } else { decl_mask };
                let interp = decls
                    .iter()
                    .map(|d| d.interpolation)
                    .find(|&i| i != Interpolation::Undefined)
                    .unwrap_or(Interpolation::Undefined);
                if kinds.iter().any(|&k| k != kind) {
                    // Elements of different types in one register: D3D interpolates a register
                    // in one mode, and integers only as `constant`, so the register is flat and
                    // its lanes are raw bits: one `vec4<u32>` location, read through bitcasts.
                    // A vertex attribute has one format per location, so vertex inputs cannot.
                    if stage != ShaderStage::Pixel || !matches!(interp, Interpolation::Constant) {
                        return Err(refuse_decl(
                            m,
                            at,
                            RefusalReason::ResourceUnsupported,
                            format!(
                                "v{reg} packs elements of different component types into one {}",
                                if stage == ShaderStage::Pixel {
                                    "register that is not `constant`-interpolated"
                                } else {
                                    "vertex attribute"
                                }
                            ),
                        ));
                    }
                    kind = ScalarKind::Uint;
                }
                let (interpolation, sampling) =
                    if stage == ShaderStage::Pixel { interpolation(kind, interp) } else { (None, None) };
                let ty = self.ty(kind, 4);
                let idx = self.b.f.arguments.len() as u32;
                self.b.f.arguments.push(FunctionArgument {
                    name: Some(format!("v{reg}_in")),
                    ty,
                    binding: Some(Binding::Location {
                        location: reg,
                        interpolation,
                        sampling,
                        blend_src: None,
                        per_primitive: false,
                    }),
                });
                let arg = self.b.expr(Expression::FunctionArgument(idx));
                parts.insert(0, (arg, 4, kind, 0));
                reg_kind = Some(kind);
                let first = mask.trailing_zeros().min(3) as u8;
                let last = 8 - mask.leading_zeros().min(8) as u8;
                let first_elem = elems.iter().min_by_key(|e| e.mask.trailing_zeros());
                in_vars.push(InterfaceVar {
                    semantic: first_elem.map(|e| e.semantic_name.clone()).unwrap_or_default(),
                    semantic_index: first_elem.map(|e| e.semantic_index).unwrap_or(0),
                    register: reg,
                    location: Some(reg),
                    builtin: None,
                    scalar: if_scalar(kind),
                    components: last.saturating_sub(first).max(1),
                    first_component: first,
                    interpolation: public_interpolation(interpolation, sampling),
                });
            }
            copies.push((reg, parts, reg_kind.unwrap_or(ScalarKind::Float)));
        }
        for d in &special {
            if stage == ShaderStage::Compute {
                if let Some((builtin, n, name, semantic)) = compute_builtin(d.operand.ty) {
                    self.thread_id_input(d.at, d.operand.ty, builtin, n, name)?;
                    in_vars.push(InterfaceVar {
                        semantic: semantic.into(),
                        semantic_index: 0,
                        register: 0,
                        location: None,
                        builtin: Some(crate::Builtin::from_naga(builtin)),
                        scalar: IfScalar::Uint,
                        components: n as u8,
                        first_component: 0,
                        interpolation: None,
                    });
                    continue;
                }
            }
            match (stage, d.operand.ty) {
                (ShaderStage::Pixel, OperandType::InputCoverageMask) => {
                    let ty = self.ty(ScalarKind::Uint, 1);
                    let idx = self.b.f.arguments.len() as u32;
                    self.b.f.arguments.push(FunctionArgument {
                        name: Some("v_coverage".into()),
                        ty,
                        binding: Some(Binding::BuiltIn(BuiltIn::SampleMask)),
                    });
                    let e = self.b.expr(Expression::FunctionArgument(idx));
                    self.coverage_in = Some(e);
                    in_vars.push(InterfaceVar {
                        semantic: "SV_Coverage".into(),
                        semantic_index: 0,
                        register: 0,
                        location: None,
                        builtin: Some(crate::Builtin::SampleMask),
                        scalar: IfScalar::Uint,
                        components: 1,
                        first_component: 0,
                        interpolation: None,
                    });
                }
                _ => {
                    return Err(refuse_decl(
                        m,
                        d.at,
                        RefusalReason::OperandUnsupported,
                        format!("input register type {:?} in a {} shader", d.operand.ty, stage.name()),
                    ))
                }
            }
        }
        // Copy inputs into vec4 locals v#.
        for (reg, parts, kind) in copies {
            let v4 = self.ty(kind, 4);
            let lv = self
                .b
                .f
                .local_variables
                .append(LocalVariable { name: Some(format!("v{reg}")), ty: v4, init: None }, Span::UNDEFINED);
            let ptr = self.b.expr(Expression::LocalVariable(lv));
            let value = match parts[..] {
                [(val, 4, k, _)] if k == kind => val,
                _ => {
                    let z = self.b.lit_bits(kind, 0);
                    let mut comps = [z; 4];
                    for &(val, n, k, first) in &parts {
                        let val = if k == kind { val } else { self.b.bitcast(val, kind) };
                        if n == 4 {
                            for (c, slot) in comps.iter_mut().enumerate() {
                                *slot = self.b.comp(val, c as u32);
                            }
                        } else {
                            comps[first as usize] = val;
                        }
                    }
                    self.b.compose(v4, comps.to_vec())
                }
            };
            self.b.store(ptr, value);
            self.inputs.insert(reg, (ptr, kind));
        }
        // Input registers addressed relatively (`dcl_indexrange`): a local array of the range's
        // registers, copied once; raw bits when the registers' types differ.
        for &(at, first, count) in &m.input_ranges {
            let kinds: Vec<Option<ScalarKind>> =
                (first..first + count).map(|r| self.inputs.get(&r).map(|&(_, k)| k)).collect();
            if kinds.iter().any(Option::is_none) {
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::DeclarationUnsupported,
                    "dcl_indexrange over input registers that are not all declared",
                ));
            }
            let kinds: Vec<ScalarKind> = kinds.into_iter().flatten().collect();
            let kind = if kinds.iter().all(|&k| k == kinds[0]) { kinds[0] } else { ScalarKind::Uint };
            let v4 = self.ty(kind, 4);
            let size = naga::ArraySize::Constant(std::num::NonZeroU32::new(count).expect("count > 0"));
            let arr = self
                .module
                .types
                .insert(Type { name: None, inner: TypeInner::Array { base: v4, size, stride: 16 } }, Span::UNDEFINED);
            let mut elems = Vec::new();
            for r in first..first + count {
                let (p, k) = self.inputs[&r];
                let v = self.b.load(p);
                elems.push(if k == kind { v } else { self.b.bitcast(v, kind) });
            }
            let value = self.b.expr(Expression::Compose { ty: arr, components: elems });
            let lv = self
                .b
                .f
                .local_variables
                .append(LocalVariable { name: Some(format!("v{first}_range")), ty: arr, init: None }, Span::UNDEFINED);
            let ptr = self.b.expr(Expression::LocalVariable(lv));
            self.b.store(ptr, value);
            self.input_ranges.push((first, count, ptr, kind));
        }
        // ---- outputs ----
        let mut out_vars = Vec::new();
        let mut members = Vec::new();
        let mut member_src = Vec::new();
        let mut out_regs: Vec<u32> =
            m.outputs.iter().filter(|d| d.operand.ty == OperandType::Output).map(|d| d.register).collect();
        if stage == ShaderStage::Vertex {
            // Every signature register is output (zero when unwritten) so that any pixel shader
            // reading a subset links.
            for e in &m.output_signature.elements {
                // Registers past D3D's 32 cannot be real outputs; a hostile signature could
                // otherwise ask for any location.
                if e.register < 32 && !out_regs.contains(&e.register) {
                    out_regs.push(e.register);
                }
            }
        }
        out_regs.sort_unstable();
        out_regs.dedup();
        let mut offset = 0u32;
        let mut clip_lanes: Vec<(Handle<Expression>, u32)> = Vec::new();
        for reg in out_regs {
            let decls: Vec<_> =
                m.outputs.iter().filter(|d| d.operand.ty == OperandType::Output && d.register == reg).collect();
            let elems: Vec<_> = m.output_signature.elements.iter().filter(|e| e.register == reg).collect();
            let sysval = decls
                .iter()
                .map(|d| d.system_value)
                .find(|&s| s != 0)
                .or_else(|| elems.iter().map(|e| e.system_value).find(|&s| s != 0 && s < 64))
                .unwrap_or(0);
            let mut kind = elems.first().map(|e| kind_of(e.component_type)).unwrap_or(ScalarKind::Float);
            if elems.iter().any(|e| kind_of(e.component_type) != kind) {
                if stage != ShaderStage::Vertex {
                    let at = decls.first().map(|d| d.at).unwrap_or(0);
                    return Err(refuse_decl(
                        m,
                        at,
                        RefusalReason::ResourceUnsupported,
                        format!("o{reg} packs elements of different component types into one render target"),
                    ));
                }
                // Mixed types in one varying: the pixel shader must read it `constant` (D3D
                // interpolates integers only so, one mode per register): a flat `vec4<u32>` of
                // raw bits, matching the pixel side's translation.
                kind = ScalarKind::Uint;
            }
            let v4 = self.ty(kind, 4);
            if stage == ShaderStage::Vertex
                && sysval == sv::POSITION
                && out_vars.iter().any(|v: &InterfaceVar| v.builtin == Some(crate::Builtin::Position))
            {
                let at = decls.first().map(|d| d.at).unwrap_or(0);
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::SystemValueUnsupported,
                    format!("o{reg} is a second SV_Position output"),
                ));
            }
            if stage == ShaderStage::Vertex && sysval == sv::POSITION && kind != ScalarKind::Float {
                let at = decls.first().map(|d| d.at).unwrap_or(0);
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::SystemValueUnsupported,
                    format!("o{reg}: SV_Position declared with a non-float component type"),
                ));
            }
            if stage == ShaderStage::Vertex && sysval == sv::CLIP_DISTANCE {
                // SV_ClipDistance lanes go to WGSL's `clip_distances` array (in register, then
                // component order; D3D clips against each lane alike), built at return.
                let clip_mask =
                    elems.iter().filter(|e| e.system_value == sv::CLIP_DISTANCE).fold(0u8, |a, e| a | e.mask)
                        | decls.iter().filter(|d| d.system_value == sv::CLIP_DISTANCE).fold(0u8, |a, d| a | d.mask);
                if elems.iter().any(|e| e.system_value != sv::CLIP_DISTANCE) || kind != ScalarKind::Float {
                    let at = decls.first().map(|d| d.at).unwrap_or(0);
                    let why = if elems.iter().any(|e| e.system_value == sv::CULL_DISTANCE) {
                        "SV_CullDistance: WGSL has no cull distances".to_string()
                    } else {
                        format!("o{reg} packs SV_ClipDistance with other elements")
                    };
                    return Err(refuse_decl(m, at, RefusalReason::SystemValueUnsupported, why));
                }
                let ptr = self.output_local(reg, kind);
                for c in 0..4u32 {
                    if clip_mask & (1 << c) != 0 {
                        clip_lanes.push((ptr, c));
                    }
                }
                let first = clip_mask.trailing_zeros().min(3) as u8;
                out_vars.push(InterfaceVar {
                    semantic: elems.first().map(|e| e.semantic_name.clone()).unwrap_or_default(),
                    semantic_index: elems.first().map(|e| e.semantic_index).unwrap_or(0),
                    register: reg,
                    location: None,
                    builtin: Some(crate::Builtin::ClipDistances),
                    scalar: IfScalar::Float,
                    components: clip_mask.count_ones().max(1) as u8,
                    first_component: first,
                    interpolation: None,
                });
                continue;
            }
            let mut out_interp = None;
            let (binding, builtin_name, location) = match (stage, sysval) {
                (ShaderStage::Vertex, sv::POSITION) => {
                    (Binding::BuiltIn(BuiltIn::Position { invariant: true }), Some(crate::Builtin::Position), None)
                }
                (_, 0) | (ShaderStage::Pixel, _) => {
                    let (interpolation, sampling) = if stage == ShaderStage::Vertex {
                        let wanted = options
                            .vertex_output_interpolation
                            .iter()
                            .find(|(r, _)| *r == reg)
                            .map(|(_, i)| ir_interpolation(*i))
                            .unwrap_or(Interpolation::Linear);
                        interpolation(kind, wanted)
                    } else {
                        (None, None)
                    };
                    out_interp = public_interpolation(interpolation, sampling);
                    (
                        Binding::Location {
                            location: reg,
                            interpolation,
                            sampling,
                            blend_src: None,
                            per_primitive: false,
                        },
                        None,
                        Some(reg),
                    )
                }
                (_, sv::CULL_DISTANCE) => {
                    let at = decls.first().map(|d| d.at).unwrap_or(0);
                    return Err(refuse_decl(
                        m,
                        at,
                        RefusalReason::SystemValueUnsupported,
                        "SV_CullDistance: WGSL has no cull distances",
                    ));
                }
                (_, other) => {
                    let at = decls.first().map(|d| d.at).unwrap_or(0);
                    return Err(refuse_decl(
                        m,
                        at,
                        RefusalReason::SystemValueUnsupported,
                        format!("output system value {}: no WGSL builtin", sv_semantic(other)),
                    ));
                }
            };
            let ptr = self.output_local(reg, kind);
            members.push(StructMember { name: Some(format!("o{reg}")), ty: v4, binding: Some(binding), offset });
            offset += 16;
            member_src.push(ptr);
            let mask = elems.iter().fold(0u8, |a, e| a | e.mask);
            let first = if mask == 0 { 0 } else { mask.trailing_zeros() as u8 };
            let last = if mask == 0 { 4 } else { 8 - mask.leading_zeros() as u8 };
            out_vars.push(InterfaceVar {
                semantic: elems.first().map(|e| e.semantic_name.clone()).unwrap_or_default(),
                semantic_index: elems.first().map(|e| e.semantic_index).unwrap_or(0),
                register: reg,
                location,
                builtin: builtin_name,
                scalar: if_scalar(kind),
                components: last.saturating_sub(first).max(1),
                first_component: first,
                interpolation: out_interp,
            });
        }
        for d in m.outputs.iter().filter(|d| d.operand.ty != OperandType::Output) {
            if stage != ShaderStage::Pixel {
                return Err(refuse_decl(
                    m,
                    d.at,
                    RefusalReason::OperandUnsupported,
                    format!(
                        "output register type {:?} in a {} shader (pixel shaders only)",
                        d.operand.ty,
                        stage.name()
                    ),
                ));
            }
            let (builtin, kind, name) = match d.operand.ty {
                OperandType::OutputDepth => (BuiltIn::FragDepth, ScalarKind::Float, "frag_depth"),
                OperandType::OutputCoverageMask => (BuiltIn::SampleMask, ScalarKind::Uint, "sample_mask"),
                OperandType::OutputDepthGreaterEqual | OperandType::OutputDepthLessEqual => {
                    // WGSL has no conservative depth: write frag_depth, clamped to the
                    // rasterized depth on the promised side (exact whenever the shader keeps its
                    // promise, which is all D3D defines).
                    let greater = d.operand.ty == OperandType::OutputDepthGreaterEqual;
                    let pos = self.position_argument();
                    self.depth_clamp = Some((members.len(), greater, pos));
                    (BuiltIn::FragDepth, ScalarKind::Float, "frag_depth")
                }
                other => {
                    return Err(refuse_decl(
                        m,
                        d.at,
                        RefusalReason::OperandUnsupported,
                        format!("output register type {other:?}"),
                    ))
                }
            };
            let ty = self.ty(kind, 1);
            let zero = self.b.expr(Expression::ZeroValue(ty));
            let lv = self
                .b
                .f
                .local_variables
                .append(LocalVariable { name: Some(name.into()), ty, init: Some(zero) }, Span::UNDEFINED);
            let ptr = self.b.expr(Expression::LocalVariable(lv));
            if builtin == BuiltIn::FragDepth {
                self.depth_out = Some(ptr);
            } else {
                self.mask_out = Some(ptr);
            }
            members.push(StructMember {
                name: Some(name.into()),
                ty,
                binding: Some(Binding::BuiltIn(builtin)),
                offset,
            });
            offset += 16;
            member_src.push(ptr);
            out_vars.push(InterfaceVar {
                semantic: if builtin == BuiltIn::FragDepth { "SV_Depth".into() } else { "SV_Coverage".into() },
                semantic_index: 0,
                register: 0,
                location: None,
                builtin: Some(crate::Builtin::from_naga(builtin)),
                scalar: if_scalar(kind),
                components: 1,
                first_component: 0,
                interpolation: None,
            });
        }
        if !clip_lanes.is_empty() {
            if clip_lanes.len() > 8 {
                return Err(refuse_decl(
                    m,
                    0,
                    RefusalReason::SystemValueUnsupported,
                    "more than 8 SV_ClipDistance components",
                ));
            }
            let f = self.ty(ScalarKind::Float, 1);
            let size =
                naga::ArraySize::Constant(std::num::NonZeroU32::new(clip_lanes.len() as u32).expect("non-empty"));
            let arr = self
                .module
                .types
                .insert(Type { name: None, inner: TypeInner::Array { base: f, size, stride: 4 } }, Span::UNDEFINED);
            self.clip_out = Some((members.len(), arr, clip_lanes.clone()));
            members.push(StructMember {
                name: Some("clip_distances".into()),
                ty: arr,
                binding: Some(Binding::BuiltIn(BuiltIn::ClipDistances)),
                offset,
            });
            offset += 4 * clip_lanes.len() as u32;
            offset = offset.next_multiple_of(16);
            member_src.push(clip_lanes[0].0);
        }
        if stage == ShaderStage::Vertex && !out_vars.iter().any(|v| v.builtin == Some(crate::Builtin::Position)) {
            // WGSL requires every vertex shader to output a position; D3D allows none (the
            // output then only feeds stream output or a geometry shader). Adaptation: a zero
            // position, documented in docs/compatibility.md.
            let ty = self.ty(ScalarKind::Float, 4);
            let zero = self.b.expr(Expression::ZeroValue(ty));
            let lv = self
                .b
                .f
                .local_variables
                .append(LocalVariable { name: Some("unused_position".into()), ty, init: Some(zero) }, Span::UNDEFINED);
            let ptr = self.b.expr(Expression::LocalVariable(lv));
            members.push(StructMember {
                name: Some("unused_position".into()),
                ty,
                binding: Some(Binding::BuiltIn(BuiltIn::Position { invariant: true })),
                offset,
            });
            offset += 16;
            member_src.push(ptr);
        }
        if !members.is_empty() {
            let st = self.module.types.insert(
                Type {
                    name: Some(if stage == ShaderStage::Vertex { "VertexOutput".into() } else { "PixelOutput".into() }),
                    inner: TypeInner::Struct { members, span: offset },
                },
                Span::UNDEFINED,
            );
            self.b.f.result = Some(FunctionResult { ty: st, binding: None });
            self.out_struct = Some((st, member_src));
        }
        Ok((in_vars, out_vars))
    }

    /// A compute-shader thread ID: the builtin argument, kept as a `vec4<u32>` local (`w` = 0)
    /// for swizzled reads, or as the `u32` itself for `vThreadIDInGroupFlattened`.
    fn thread_id_input(
        &mut self,
        at: usize,
        ty: OperandType,
        builtin: BuiltIn,
        n: usize,
        name: &'static str,
    ) -> Result<(), TranslateError> {
        if self.thread_ids.contains_key(&ty) {
            return Err(refuse_decl(
                self.m,
                at,
                RefusalReason::DeclarationUnsupported,
                format!("{name} declared twice"),
            ));
        }
        let ty_arg = self.ty(ScalarKind::Uint, n);
        let idx = self.b.f.arguments.len() as u32;
        self.b.f.arguments.push(FunctionArgument {
            name: Some(name.into()),
            ty: ty_arg,
            binding: Some(Binding::BuiltIn(builtin)),
        });
        let arg = self.b.expr(Expression::FunctionArgument(idx));
        if n == 1 {
            self.thread_ids.insert(ty, (arg, true));
            return Ok(());
        }
        let v4 = self.ty(ScalarKind::Uint, 4);
        let x = self.b.comp(arg, 0);
        let y = self.b.comp(arg, 1);
        let z = self.b.comp(arg, 2);
        let w = self.b.u32(0);
        let value = self.b.compose(v4, vec![x, y, z, w]);
        let local = match ty {
            OperandType::InputThreadId => "vThreadID",
            OperandType::InputThreadGroupId => "vThreadGroupID",
            _ => "vThreadIDInGroup",
        };
        let lv = self
            .b
            .f
            .local_variables
            .append(LocalVariable { name: Some(local.into()), ty: v4, init: None }, Span::UNDEFINED);
        let ptr = self.b.expr(Expression::LocalVariable(lv));
        self.b.store(ptr, value);
        self.thread_ids.insert(ty, (ptr, false));
        Ok(())
    }

    /// The zero-initialised `vec4` local `o{reg}` that output register `o#` is written through,
    /// registered in `outputs`.
    fn output_local(&mut self, reg: u32, kind: ScalarKind) -> Handle<Expression> {
        let v4 = self.ty(kind, 4);
        let zero = self.b.expr(Expression::ZeroValue(v4));
        let lv = self
            .b
            .f
            .local_variables
            .append(LocalVariable { name: Some(format!("o{reg}")), ty: v4, init: Some(zero) }, Span::UNDEFINED);
        let ptr = self.b.expr(Expression::LocalVariable(lv));
        self.outputs.insert(reg, (ptr, kind));
        ptr
    }

    /// `return` with the output struct.
    /// The fragment's `@builtin(position)` argument, added when the shader does not read
    /// `SV_Position` itself.
    fn position_argument(&mut self) -> Handle<Expression> {
        let found = self
            .b
            .f
            .arguments
            .iter()
            .position(|a| matches!(a.binding, Some(Binding::BuiltIn(BuiltIn::Position { .. }))));
        let idx = match found {
            Some(i) => i as u32,
            None => {
                let ty = self.ty(ScalarKind::Float, 4);
                self.b.f.arguments.push(FunctionArgument {
                    name: Some("frag_position".into()),
                    ty,
                    binding: Some(Binding::BuiltIn(BuiltIn::Position { invariant: false })),
                });
                (self.b.f.arguments.len() - 1) as u32
            }
        };
        self.b.expr(Expression::FunctionArgument(idx))
    }

    pub(crate) fn ret(&mut self) {
        let value = if let Some((ty, srcs)) = self.out_struct.clone() {
            let mut vals: Vec<_> = srcs.iter().map(|&p| self.b.load(p)).collect();
            if let Some((k, arr, lanes)) = self.clip_out.clone() {
                let comps = lanes
                    .iter()
                    .map(|&(p, c)| {
                        let v = self.b.load(p);
                        self.b.comp(v, c)
                    })
                    .collect();
                vals[k] = self.b.expr(Expression::Compose { ty: arr, components: comps });
            }
            if let Some((k, greater, pos)) = self.depth_clamp {
                let z = self.b.comp(pos, 2);
                vals[k] =
                    self.b.math(if greater { naga::MathFunction::Max } else { naga::MathFunction::Min }, &[vals[k], z]);
            }
            Some(self.b.expr(Expression::Compose { ty, components: vals }))
        } else {
            None
        };
        self.b.stmt(naga::Statement::Return { value });
    }
}

/// The register a resource declaration binds (its range's first register and space), as
/// [`TranslateOptions`]' view formats name it.
fn view_register(r: &crate::ir::ResourceDecl) -> crate::ViewRegister {
    crate::ViewRegister { register: r.slot, space: r.space }
}

/// `u3`, or `u3, space1` outside space 0: the register as the view-format setting names it.
fn view_name(r: &crate::ir::ResourceDecl) -> String {
    view_slot(r).to_string()
}

/// The register a view is declared at.
fn view_slot(r: &crate::ir::ResourceDecl) -> BindingSlot {
    let class = if r.uav { BindingClass::UnorderedAccess } else { BindingClass::ShaderResource };
    BindingSlot { class, slot: r.slot, space: r.space }
}
