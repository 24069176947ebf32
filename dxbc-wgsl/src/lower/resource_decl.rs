//! Resource declarations, bound per [`crate::bindings::plan`]: constant buffers
//! (`var<uniform>` arrays of `vec4`), the immediate constant buffer (a private array), samplers
//! (comparison or not, by use), sampled textures (depth textures where compared), raw and
//! structured buffers and typed buffers (storage buffers of 32-bit words), typed UAV textures
//! (storage textures of the view format the caller supplies or the program implies), the hidden
//! counters of structured UAVs (`atomic<u32>` words of their own, [`bindings::plan_counter`]),
//! and thread-group shared memory (`var<workgroup>` word arrays).

use super::{refuse_decl, Buf, Cx, StorageTex, Tex, TypedBuf};
use crate::bindings::{self, BindingClass, BindingSlot, ResourceBinding, ResourceKind, TextureSample, ViewDimension};
use crate::ir::{ResourceShape, Storage};
use crate::refusal::{RefusalReason, RefusalSubject, TranslateError};
use crate::sm4::opcodes::COMPARISON;
use crate::sm4::{Opcode, OperandType, ShaderStage};
use crate::{ScalarKind as IfScalar, TranslateOptions};
use naga::{
    AddressSpace, Expression, GlobalVariable, Handle, ImageClass, ImageDimension, ScalarKind, Span, Type, TypeInner,
};

fn naga_kind(k: IfScalar) -> ScalarKind {
    match k {
        IfScalar::Uint => ScalarKind::Uint,
        IfScalar::Sint => ScalarKind::Sint,
        IfScalar::Float => ScalarKind::Float,
    }
}

impl Cx<'_, '_> {
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
            let is_cmp = ins.opcode.has(COMPARISON);
            let Some(info) = ins.opcode.info() else { continue };
            let letters: Vec<char> = info.dst.chars().chain(info.src.chars()).collect();
            for (k, o) in ins.operands.iter().enumerate() {
                match (letters.get(k), o.ty) {
                    (Some('r'), OperandType::Resource) if is_cmp => tex.push(self.m.resource_id(o)),
                    (Some('s'), OperandType::Sampler) => {
                        if is_cmp {
                            cmp_samplers.push(self.m.resource_id(o))
                        } else {
                            plain_samplers.push(self.m.resource_id(o))
                        }
                    }
                    _ => {}
                }
            }
        }
        (tex, cmp_samplers, plain_samplers)
    }

    /// Declares the resources, each kind in binding order: constant buffers, the immediate constant
    /// buffer, samplers, then the views (buffers, typed buffers, storage textures, textures).
    pub(super) fn declare_resources(&mut self, options: &TranslateOptions) -> Result<(), TranslateError> {
        self.declare_cbuffers()?;
        self.declare_icb();
        let (cmp_tex, cmp_samplers, plain_samplers) = self.compare_usage();
        self.declare_samplers(&cmp_samplers, &plain_samplers)?;
        self.declare_views(&cmp_tex, options)
    }

    /// The constant buffers: `var<uniform> cb#: array<vec4<T>, N>`, `T` their inferred storage.
    fn declare_cbuffers(&mut self) -> Result<(), TranslateError> {
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
            let name = global_name("cb", cb.id, cb.range, cb.slot);
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
        Ok(())
    }

    /// The immediate constant buffer: a private global array initialised with its rows.
    fn declare_icb(&mut self) {
        let m = self.m;
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
    }

    /// The samplers: comparison samplers where comparison instructions use them (or, used by
    /// no sampling instruction, where declared `mode_comparison`), refused where both kinds do.
    fn declare_samplers(&mut self, cmp_samplers: &[u32], plain_samplers: &[u32]) -> Result<(), TranslateError> {
        let m = self.m;
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
            let name = global_name("s", s.id, s.range, s.slot);
            let gb =
                self.bind(s.at, BindingClass::Sampler, s.slot, s.space, ResourceKind::Sampler { comparison }, &name)?;
            let e = self.global(name, AddressSpace::Handle, ty, Some(gb));
            self.samplers.insert((s.id, comparison), e);
        }
        Ok(())
    }

    /// The views `t#` and `u#`: raw and structured buffers, typed buffers, typed UAV textures
    /// (storage textures) and sampled textures.
    fn declare_views(&mut self, cmp_tex: &[u32], options: &TranslateOptions) -> Result<(), TranslateError> {
        let m = self.m;
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
            self.declare_texture(r, cmp_tex, options)?;
        }
        // The hidden counters, after every view (their bindings follow the views' ranges).
        for r in &resources {
            if r.uav
                && matches!(r.shape, ResourceShape::Structured { .. })
                && self.uav_used_by(r.id, Opcode::is_counter)
            {
                self.declare_counter(r)?;
            }
        }
        Ok(())
    }

    /// A sampled texture `t#`: a WGSL depth texture when comparison instructions sample it.
    fn declare_texture(
        &mut self,
        r: &crate::ir::ResourceDecl,
        cmp_tex: &[u32],
        options: &TranslateOptions,
    ) -> Result<(), TranslateError> {
        let m = self.m;
        let ResourceShape::Typed { dim, ret, samples } = r.shape else {
            unreachable!("raw and structured handled above")
        };
        // D3D's 1D textures and arrays are 2D textures of height 1 (`d1`): WebGPU's 1D textures
        // have one mip level and no arrays.
        let d1 = matches!(dim, 2 | 7);
        let (idim, arrayed, multi, coords) = match dim {
            2 => (ImageDimension::D2, false, false, 2),
            3 => (ImageDimension::D2, false, false, 2),
            4 => (ImageDimension::D2, false, true, 2),
            5 => (ImageDimension::D3, false, false, 3),
            6 => (ImageDimension::Cube, false, false, 3),
            7 => (ImageDimension::D2, true, false, 2),
            8 => (ImageDimension::D2, true, false, 2),
            10 => (ImageDimension::Cube, true, false, 3),
            // A `texture2dmsarray`: translatable only where it views a single-sampled array
            // (declared with 1 sample, or 0 and `single_sampled`), checked below.
            9 => (ImageDimension::D2, true, true, 2),
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
        // A `texture2dms` viewing a single-sampled texture (`single_sampled`): a WGSL `texture_2d`.
        let single = multi && self.texture2dms_single_sampled(r, samples, options)?;
        let wgsl_multi = multi && !single;
        if wgsl_multi && arrayed {
            return Err(refuse_decl(
                m,
                r.at,
                RefusalReason::WebGpuLimitation,
                "multisampled 2D texture arrays: WebGPU has none (a texture2dmsarray declared with 1 sample, or \
                 with 0 and TranslateOptions::texture2dms_views `single_sampled`, translates)",
            ));
        }
        let depth = cmp_tex.contains(&r.id);
        if depth && (kind != ScalarKind::Float || multi || idim == ImageDimension::D3) {
            return Err(refuse_decl(
                m,
                r.at,
                RefusalReason::WebGpuLimitation,
                "comparison sampling of a texture WebGPU has no depth form of",
            ));
        }
        let class = if depth {
            ImageClass::Depth { multi: wgsl_multi }
        } else {
            ImageClass::Sampled { kind, multi: wgsl_multi }
        };
        let ty = self
            .module
            .types
            .insert(Type { name: None, inner: TypeInner::Image { dim: idim, arrayed, class } }, Span::UNDEFINED);
        let dim_name = match (idim, arrayed) {
            _ if d1 => d1_view(arrayed),
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
        let name = global_name("t", r.id, r.range, r.slot);
        let gb = self.bind(
            r.at,
            BindingClass::ShaderResource,
            r.slot,
            r.space,
            ResourceKind::Texture { dimension: dim_name, sample, multisampled: wgsl_multi },
            &name,
        )?;
        let e = self.global(name, AddressSpace::Handle, ty, Some(gb));
        self.textures.insert(r.id, Tex { expr: e, dim: idim, arrayed, multi, single, kind, depth, coords, d1 });
        Ok(())
    }

    /// Whether a `texture2dms` declared with `samples` samples views a single-sampled texture:
    /// a declared count of 1 does, 0 (any count) as [`TranslateOptions::texture2dms_views`] says
    /// (multisampled without an entry); an entry contradicting a declared count is refused.
    fn texture2dms_single_sampled(
        &self,
        r: &crate::ir::ResourceDecl,
        samples: u32,
        options: &TranslateOptions,
    ) -> Result<bool, TranslateError> {
        let entry = options.texture2dms_views.iter().find(|(at, _)| *at == view_register(r)).map(|x| x.1);
        use crate::Texture2dmsView::{Multisampled, SingleSampled};
        let single = match (samples, entry) {
            (0, v) => v == Some(SingleSampled),
            (1, None | Some(SingleSampled)) => true,
            (_, None) => false,
            (n, Some(Multisampled)) if n > 1 => false,
            (n, Some(v)) => {
                return Err(refuse_decl(
                    self.m,
                    r.at,
                    RefusalReason::ResourceUnsupported,
                    format!(
                        "{} is declared texture2dms({n}), but TranslateOptions::texture2dms_views says {}: D3D \
                         requires a declared sample count to be the bound resource's",
                        view_name(r),
                        v.name()
                    ),
                ))
            }
        };
        Ok(single)
    }

    /// UAV ids that atomic instructions target (their words are declared `atomic<u32>`; the
    /// counter atomics touch the hidden counter, not the words).
    fn atomic_uavs(&self) -> Vec<u32> {
        let mut ids = Vec::new();
        for ins in &self.m.program.instructions {
            let atomic = ins.opcode.is_atomic() && !ins.opcode.is_counter();
            if !atomic {
                continue;
            }
            for o in &ins.operands {
                if o.ty == OperandType::UnorderedAccessView && !ids.contains(&self.m.resource_id(o)) {
                    ids.push(self.m.resource_id(o));
                }
            }
        }
        ids
    }

    /// Thread-group shared memory: `var<workgroup> g#: array<u32, N>` (`atomic<u32>` words when
    /// an atomic instruction touches it; WGSL then requires every access to be atomic, which
    /// naga writes as `atomicLoad`/`atomicStore` for plain loads and stores). WebGPU zeroes
    /// workgroup memory; D3D leaves it undefined.
    pub(super) fn declare_tgsm(&mut self) {
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
            (BindingClass::UnorderedAccess, global_name("u", r.id, r.range, r.slot))
        } else {
            (BindingClass::ShaderResource, global_name("t", r.id, r.range, r.slot))
        };
        let gb = self.bind(r.at, class, r.slot, r.space, ResourceKind::StorageBuffer { read_only: !r.uav }, &name)?;
        let access =
            if r.uav { naga::StorageAccess::LOAD | naga::StorageAccess::STORE } else { naga::StorageAccess::LOAD };
        let e = self.global(name, AddressSpace::Storage { access }, arr, Some(gb));
        self.buffers.insert((r.uav, r.id), Buf { expr: e, stride, atomic, words: None });
        Ok(())
    }

    /// The hidden counter of structured UAV `u#` that `imm_atomic_alloc`/`imm_atomic_consume`
    /// use: `var<storage, read_write> u#_counter: atomic<u32>` at [`bindings::plan_counter`]
    /// (space 0 only). Declared only where the program uses it (the `_opc` flag alone binds
    /// nothing: append/consume buffers do not carry it, and a counter no instruction touches is
    /// not observable).
    fn declare_counter(&mut self, r: &crate::ir::ResourceDecl) -> Result<(), TranslateError> {
        let m = self.m;
        let register = BindingSlot { class: BindingClass::UnorderedAccess, slot: r.slot, space: r.space };
        let name = format!("{}_counter", global_name("u", r.id, r.range, r.slot));
        let (group, binding) = bindings::plan_counter(m.version.stage, register).ok_or_else(|| {
            refuse_decl(
                m,
                r.at,
                RefusalReason::BindingOutOfRange,
                format!(
                    "the hidden counter of {}: counters are bound for u0-u{} of space 0 only (bindings {}-{})",
                    view_name(r),
                    BindingClass::UnorderedAccess.slots() - 1,
                    bindings::COUNTER_BASE,
                    bindings::COUNTER_BASE + BindingClass::UnorderedAccess.slots() - 1
                ),
            )
        })?;
        if let Some(other) = self.bindings.iter().find(|b| b.group == group && b.binding == binding) {
            return Err(refuse_decl(
                m,
                r.at,
                RefusalReason::BindingOutOfRange,
                format!("{name} binds @binding({binding}), which {} already binds", other.name),
            ));
        }
        self.bindings.push(ResourceBinding {
            register,
            group,
            binding,
            kind: ResourceKind::UavCounter,
            name: name.clone(),
        });
        let word =
            self.module.types.insert(Type { name: None, inner: TypeInner::Atomic(naga::Scalar::U32) }, Span::UNDEFINED);
        let access = naga::StorageAccess::LOAD | naga::StorageAccess::STORE;
        let e = self.global(name, AddressSpace::Storage { access }, word, Some((group, binding)));
        self.counters.insert(r.id, e);
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
                refuse_decl(
                    m,
                    r.at,
                    RefusalReason::TypedUavFormatUnknown,
                    format!(
                        "typed RWBuffer {}: its view format is not in the bytecode ({})",
                        view_name(r),
                        format_hint(r, "typed_uav_formats")
                    ),
                )
                .with_subject(RefusalSubject::ViewFormat { register: view_slot(r), buffer: true })
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
            let f = options.typed_buffer_formats.iter().find(|(s, _)| *s == view_register(r)).map(|x| x.1).ok_or_else(
                || {
                    refuse_decl(
                        m,
                        r.at,
                        RefusalReason::TypedBufferFormatUnknown,
                        format!(
                            "typed Buffer SRV {}: its view format is not in the bytecode ({})",
                            view_name(r),
                            format_hint(r, "typed_buffer_formats")
                        ),
                    )
                    .with_subject(RefusalSubject::ViewFormat { register: view_slot(r), buffer: true })
                },
            )?;
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
            (BindingClass::UnorderedAccess, global_name("u", r.id, r.range, r.slot))
        } else {
            (BindingClass::ShaderResource, global_name("t", r.id, r.range, r.slot))
        };
        let gb = self.bind(r.at, class, r.slot, r.space, ResourceKind::StorageBuffer { read_only: !r.uav }, &name)?;
        let access =
            if r.uav { naga::StorageAccess::LOAD | naga::StorageAccess::STORE } else { naga::StorageAccess::LOAD };
        let e = self.global(name, AddressSpace::Storage { access }, arr, Some(gb));
        self.typed_buffers.insert((r.uav, r.id), TypedBuf { expr: e, kind, components: components as u32, atomic });
        Ok(())
    }

    /// Whether an instruction uses SRV `t#` (logical id) with a sampler (`sample*`, `gather4*`):
    /// WebGPU then needs a filterable binding when the sampler filters.
    fn srv_sampled(&self, id: u32) -> bool {
        self.m.program.instructions.iter().any(|ins| {
            ins.operands.iter().any(|o| o.ty == OperandType::Sampler)
                && ins.operands.iter().any(|o| o.ty == OperandType::Resource && self.m.resource_id(o) == id)
        })
    }

    /// Whether an instruction the predicate accepts names UAV `u{id}`.
    fn uav_used_by(&self, id: u32, pred: impl Fn(Opcode) -> bool) -> bool {
        self.m.program.instructions.iter().any(|ins| {
            pred(ins.opcode)
                && ins.operands.iter().any(|o| o.ty == OperandType::UnorderedAccessView && self.m.resource_id(o) == id)
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
        if !self.uav_used_by(r.id, |op| op == Opcode::LD_UAV_TYPED || (op.is_atomic() && !op.is_counter())) {
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
            refuse_decl(m, r.at, RefusalReason::TypedUavFormatUnknown, format!("typed UAV {}: WGSL storage textures need the view's texel format, which the bytecode does not carry ({})", view_name(r), format_hint(r, "typed_uav_formats"))).with_subject(RefusalSubject::ViewFormat { register: view_slot(r), buffer: false })
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
        // RWTexture1D(Array): a 2D storage texture of height 1, as the SRV of the same texture is.
        let d1 = matches!(dim, 2 | 7);
        let (idim, arrayed, coords) = match dim {
            2 => (ImageDimension::D2, false, 2),
            3 => (ImageDimension::D2, false, 2),
            5 => (ImageDimension::D3, false, 3),
            7 => (ImageDimension::D2, true, 2),
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
            _ if d1 => d1_view(arrayed),
            (ImageDimension::D1, _) => ViewDimension::D1,
            (ImageDimension::D2, false) => ViewDimension::D2,
            (ImageDimension::D2, true) => ViewDimension::D2Array,
            _ => ViewDimension::D3,
        };
        let name = global_name("u", r.id, r.range, r.slot);
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
            .insert(r.id, StorageTex { expr: e, arrayed, coords, d1, kind: naga_kind(f.scalar()), read_write: loaded });
        Ok(())
    }
}

/// The binding's view dimension of a D3D 1D texture (array): a 2D one of height 1.
fn d1_view(arrayed: bool) -> ViewDimension {
    if arrayed {
        ViewDimension::D1ArrayAsD2Array
    } else {
        ViewDimension::D1AsD2
    }
}

/// The WGSL name of a declaration's global: `t3` for `t3` (`T3`, SM5.1's logical id), `t0_10`
/// for register 10 of the SM5.1 resource array `T0` (`T0[10]`).
fn global_name(letter: &str, id: u32, range: Option<u32>, register: u32) -> String {
    match range {
        Some(range) => format!("{letter}{range}_{register}"),
        None => format!("{letter}{id}"),
    }
}

/// The register a resource declaration binds (an element of a resource array: its own), as
/// [`TranslateOptions`]' view formats name it.
fn view_register(r: &crate::ir::ResourceDecl) -> crate::ViewRegister {
    crate::ViewRegister { register: r.slot, space: r.space }
}

/// `u3`, or `u3, space1` outside space 0: the register as the view-format setting names it.
fn view_name(r: &crate::ir::ResourceDecl) -> String {
    view_slot(r).to_string()
}

/// Where a view's format comes from, as each user of the translator gives it: the command line
/// (`dxbc-wgsl translate --view-format u0=FORMAT`), an effect file (`[view_formats]`), the API
/// (`TranslateOptions::<field>`).
fn format_hint(r: &crate::ir::ResourceDecl, field: &str) -> String {
    let slot = view_slot(r);
    let setting = if slot.space == 0 {
        format!("{}{}", slot.class.letter(), slot.slot)
    } else {
        format!("{}{},space{}", slot.class.letter(), slot.slot, slot.space)
    };
    format!(
        "give it with `--view-format {setting}=FORMAT`, an effect file's [view_formats] or TranslateOptions::{field}"
    )
}

/// The register a view is declared at.
fn view_slot(r: &crate::ir::ResourceDecl) -> BindingSlot {
    let class = if r.uav { BindingClass::UnorderedAccess } else { BindingClass::ShaderResource };
    BindingSlot { class, slot: r.slot, space: r.space }
}
