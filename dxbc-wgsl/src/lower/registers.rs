//! Registers: the declarations of the temp registers (`r#` locals, `x#` local arrays) and of the
//! private globals that non-finite immediates are read from, and operand access — reading a
//! source (swizzle, immediates, typeless bits through `bitcast`, source modifiers), loading the
//! register it names (indexing, with bounds guards on relative and out-of-range indices), and
//! writing a destination through its write mask (`_sat`, dropped out-of-bounds writes).

use super::{refuse_at, runtime_immediates, Cx, E, F, I, R, U};
use crate::ir::Storage;
use crate::refusal::RefusalReason;
use crate::sm4::{Index, Modifier, Operand, OperandType, ShaderStage};
use naga::{
    AddressSpace, BinaryOperator as B, Expression, GlobalVariable, LocalVariable, MathFunction as M, ScalarKind, Span,
    Statement, Type, TypeInner, UnaryOperator,
};

impl Cx<'_, '_> {
    /// A private global per non-finite 32-bit immediate of the program, so that reading it as a
    /// float is not a constant expression (WGSL rejects constant infinities and NaNs).
    pub(super) fn declare_nonfinite(&mut self) {
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

    pub(super) fn declare_temps(&mut self) {
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

    /// Reads a source operand: the components of its swizzle selected by `lanes` (positions
    /// 0–3 of the destination), as a scalar or vector of `want`, with its modifier applied as
    /// `want`'s operation.
    pub(crate) fn read(&mut self, i: usize, op: &Operand, lanes: &[u8], want: ScalarKind) -> R<E> {
        let v = self.read_raw(i, op, lanes, want)?;
        self.modify(i, v, op.modifier, want)
    }

    /// [`Self::read`] without the source modifier. A 64-bit immediate (a double source) reads as
    /// its words: component `c` is word `c` (a single double repeats in `zw`).
    pub(crate) fn read_raw(&mut self, i: usize, op: &Operand, lanes: &[u8], want: ScalarKind) -> R<E> {
        let sw = op.select.swizzle();
        let comps: Vec<u8> = lanes.iter().map(|&l| sw[l as usize]).collect();
        let n = comps.len();
        let immediate = matches!(op.ty, OperandType::Immediate32 | OperandType::Immediate64);
        if immediate && op.imm.is_empty() {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                "an immediate operand with no components",
            ));
        }
        let v = if immediate {
            let vals: Vec<u32> = comps.iter().map(|&c| op.imm[c as usize % op.imm.len()]).collect();
            let parts: Vec<E> = if self.runtime_imm {
                vals.iter()
                    .map(|&b| {
                        let w = self.b.runtime_word(b);
                        if want == U {
                            w
                        } else {
                            self.b.bitcast(w, want)
                        }
                    })
                    .collect()
            } else {
                vals.iter().map(|&b| self.b.lit_bits(want, b)).collect()
            };
            let ty = self.ty(want, n);
            self.b.compose(ty, parts)
        } else {
            let (vec4, kind, scalar) = self.load_register(i, op)?;
            let v = if scalar {
                // A one-component register: every selected component is that value.
                self.b.splat(vec4, n)
            } else {
                self.b.swizzle(vec4, &comps)
            };
            if kind != want {
                self.b.bitcast(v, want)
            } else {
                v
            }
        };
        Ok(v)
    }

    fn modify(&mut self, i: usize, v: E, modifier: Modifier, want: ScalarKind) -> R<E> {
        Ok(match (modifier, want) {
            (Modifier::None, _) => v,
            (Modifier::Neg, F) | (Modifier::Neg, I) => {
                self.b.expr(Expression::Unary { op: UnaryOperator::Negate, expr: v })
            }
            (Modifier::Neg, _) => {
                // Two's complement negation of raw bits.
                let s = self.b.bitcast(v, I);
                let n = self.b.expr(Expression::Unary { op: UnaryOperator::Negate, expr: s });
                self.b.bitcast(n, U)
            }
            (Modifier::Abs, F) => self.b.math(M::Abs, &[v]),
            (Modifier::AbsNeg, F) => {
                let a = self.b.math(M::Abs, &[v]);
                self.b.expr(Expression::Unary { op: UnaryOperator::Negate, expr: a })
            }
            _ => {
                return Err(refuse_at(
                    self,
                    i,
                    RefusalReason::IntegerAbsModifier,
                    "absolute-value modifier on an integer operand (undefined in D3D)",
                ))
            }
        })
    }

    /// Index expression (`u32`) of an operand index.
    pub(super) fn index(&mut self, i: usize, idx: &Index) -> R<E> {
        match idx {
            Index::Imm(v) => Ok(self.b.u32(*v)),
            Index::Imm64(v) => Ok(self.b.u32(*v as u32)),
            Index::Relative { base, reg } => {
                let r = self.read(i, reg, &[0], U)?;
                if *base == 0 {
                    Ok(r)
                } else {
                    let b = self.b.u32(*base);
                    Ok(self.b.bin(B::Add, r, b))
                }
            }
        }
    }

    /// Bounds-checked element of an array pointer: `select(zero, arr[min(i, n-1)], i < n)`.
    ///
    /// An immediate index past the end reads 0 (as D3D's out-of-bounds reads do) through the
    /// same selection: a constant zero would make the instruction reading it a constant
    /// expression, which WGSL compilers evaluate and may reject (`log2(0.0)`, `1.0 / 0.0`).
    fn guarded_element(&mut self, i: usize, arr: E, n: u32, idx: &Index, elem_kind: ScalarKind) -> R<E> {
        match idx {
            Index::Imm(v) if *v < n => {
                let p = self.b.expr(Expression::AccessIndex { base: arr, index: *v });
                Ok(self.b.load(p))
            }
            Index::Imm(_) | Index::Imm64(_) | Index::Relative { .. } => {
                let ix = match idx {
                    Index::Imm(v) => self.b.u32(*v),
                    Index::Imm64(v) => self.b.u32(u32::try_from(*v).unwrap_or(u32::MAX)),
                    Index::Relative { .. } => self.index(i, idx)?,
                };
                let last = self.b.u32(n - 1);
                let clamped = self.b.math(M::Min, &[ix, last]);
                let p = self.b.expr(Expression::Access { base: arr, index: clamped });
                let val = self.b.load(p);
                let nn = self.b.u32(n);
                let inb = self.b.bin(B::Less, ix, nn);
                let ty = self.ty(elem_kind, 4);
                let zero = self.b.expr(Expression::ZeroValue(ty));
                Ok(self.b.select(inb, val, zero))
            }
        }
    }

    /// Loads the register an operand names, as a `vec4` (or a scalar for one-component
    /// registers, flagged by the third value), with the register's storage kind.
    fn load_register(&mut self, i: usize, op: &Operand) -> R<(E, ScalarKind, bool)> {
        match op.ty {
            OperandType::Temp => {
                let r = op.reg() as usize;
                let p = *self.temps.get(r).ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, format!("r{r} is not declared"))
                })?;
                let k = self.storage.temp(r as u32).kind();
                Ok((self.b.load(p), k, false))
            }
            OperandType::Input if self.m.version.stage == ShaderStage::Geometry => self.gs_input_operand(i, op),
            OperandType::InputPrimitiveId | OperandType::InputGsInstanceId => self.gs_system_value(i, op.ty),
            OperandType::Input => {
                if let [Index::Relative { base, reg }] = &op.indices[..] {
                    // v[rN + base]: an element of the dcl_indexrange array holding v[base].
                    let found =
                        self.input_ranges.iter().copied().find(|&(first, n, _, _)| (first..first + n).contains(base));
                    let Some((first, n, arr, k)) = found else {
                        return Err(refuse_at(
                            self,
                            i,
                            RefusalReason::OperandUnsupported,
                            format!("relative input index v[... + {base}] outside every dcl_indexrange"),
                        ));
                    };
                    let idx = Index::Relative { base: base - first, reg: reg.clone() };
                    let v = self.guarded_element(i, arr, n, &idx, k)?;
                    return Ok((v, k, false));
                }
                if op.indices.iter().any(Index::is_relative) {
                    return Err(refuse_at(
                        self,
                        i,
                        RefusalReason::OperandUnsupported,
                        "relative indexing of input registers",
                    ));
                }
                let r = op.reg();
                let (p, k) = *self.inputs.get(&r).ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, format!("v{r} is not declared"))
                })?;
                Ok((self.b.load(p), k, false))
            }
            OperandType::ConstantBuffer => {
                let id = self.m.resource_id(op);
                let (arr, n, st) = *self.cbuffers.get(&id).ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, format!("cb{id} is not declared"))
                })?;
                let idx = if self.m.version.is_sm51() { op.indices.get(2) } else { op.indices.get(1) }
                    .cloned()
                    .ok_or_else(|| {
                        refuse_at(
                            self,
                            i,
                            RefusalReason::OperandUnsupported,
                            "constant-buffer operand without a register index",
                        )
                    })?;
                let v = self.guarded_element(i, arr, n, &idx, st.kind())?;
                Ok((v, st.kind(), false))
            }
            OperandType::ImmediateConstantBuffer => {
                let (arr, n, st) = self.icb.ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, "icb without dcl_immediateConstantBuffer")
                })?;
                let idx = op.indices.first().cloned().unwrap_or(Index::Imm(0));
                let v = self.guarded_element(i, arr, n, &idx, st.kind())?;
                Ok((v, st.kind(), false))
            }
            OperandType::IndexableTemp => {
                let r = op.reg();
                let (arr, n, st) = *self.indexable.get(&r).ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, format!("x{r} is not declared"))
                })?;
                let idx = op.indices.get(1).cloned().unwrap_or(Index::Imm(0));
                let v = self.guarded_element(i, arr, n, &idx, st.kind())?;
                Ok((v, st.kind(), false))
            }
            OperandType::InputThreadId
            | OperandType::InputThreadGroupId
            | OperandType::InputThreadIdInGroup
            | OperandType::InputThreadIdInGroupFlattened => {
                let (e, scalar) = *self.thread_ids.get(&op.ty).ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, format!("{:?} is not declared", op.ty))
                })?;
                if scalar {
                    Ok((e, U, true))
                } else {
                    Ok((self.b.load(e), U, false))
                }
            }
            OperandType::InputCoverageMask => {
                let e = self.coverage_in.ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, "vCoverage is not declared")
                })?;
                Ok((e, U, true))
            }
            other => {
                Err(refuse_at(self, i, RefusalReason::OperandUnsupported, format!("source register type {other:?}")))
            }
        }
    }

    /// Writes `value` (scalar or vector of `have`, one component per entry of `lanes`) to the
    /// destination's `lanes`, applying `_sat` for float results.
    pub(crate) fn write(
        &mut self,
        i: usize,
        op: &Operand,
        lanes: &[u8],
        value: E,
        have: ScalarKind,
        saturate: bool,
    ) -> R<()> {
        if op.ty == OperandType::Null || lanes.is_empty() {
            return Ok(());
        }
        let value = if saturate && have == F { self.saturate(value, lanes.len()) } else { value };
        let (ptr, st, scalar) = match op.ty {
            OperandType::Temp => {
                let r = op.reg();
                let p = *self.temps.get(r as usize).ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, format!("r{r} is not declared"))
                })?;
                (p, self.storage.temp(r).kind(), false)
            }
            OperandType::Output => {
                if op.indices.iter().any(Index::is_relative) {
                    return Err(refuse_at(
                        self,
                        i,
                        RefusalReason::OperandUnsupported,
                        "relative indexing of output registers",
                    ));
                }
                let r = op.reg();
                let (p, k) = *self.outputs.get(&r).ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, format!("o{r} is not declared"))
                })?;
                (p, k, false)
            }
            OperandType::OutputDepth | OperandType::OutputDepthGreaterEqual | OperandType::OutputDepthLessEqual => (
                self.depth_out
                    .ok_or_else(|| refuse_at(self, i, RefusalReason::OperandUnsupported, "oDepth is not declared"))?,
                F,
                true,
            ),
            OperandType::OutputCoverageMask => (
                self.mask_out
                    .ok_or_else(|| refuse_at(self, i, RefusalReason::OperandUnsupported, "oMask is not declared"))?,
                U,
                true,
            ),
            OperandType::IndexableTemp => {
                let r = op.reg();
                let (arr, n, st) = *self.indexable.get(&r).ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, format!("x{r} is not declared"))
                })?;
                let idx = op.indices.get(1).cloned().unwrap_or(Index::Imm(0));
                let value = if st.kind() != have { self.b.bitcast(value, st.kind()) } else { value };
                // Out-of-bounds writes are dropped.
                match idx {
                    Index::Imm(v) if v < n => {
                        let p = self.b.expr(Expression::AccessIndex { base: arr, index: v });
                        self.store_lanes(p, lanes, value);
                    }
                    Index::Imm(_) | Index::Imm64(_) => {}
                    Index::Relative { .. } => {
                        let ix = self.index(i, &idx)?;
                        let nn = self.b.u32(n);
                        let inb = self.b.bin(B::Less, ix, nn);
                        self.b.open();
                        let p = self.b.expr(Expression::Access { base: arr, index: ix });
                        self.store_lanes(p, lanes, value);
                        let accept = self.b.close();
                        self.b.stmt(Statement::If { condition: inb, accept, reject: naga::Block::new() });
                    }
                }
                return Ok(());
            }
            other => {
                return Err(refuse_at(
                    self,
                    i,
                    RefusalReason::OperandUnsupported,
                    format!("destination register type {other:?}"),
                ))
            }
        };
        let value = if st != have { self.b.bitcast(value, st) } else { value };
        if scalar {
            let v = if lanes.len() > 1 { self.b.comp(value, 0) } else { value };
            self.b.store(ptr, v);
            return Ok(());
        }
        self.store_lanes(ptr, lanes, value);
        Ok(())
    }

    /// Writes several destinations of one instruction after all its results were computed.
    pub(super) fn write_all(&mut self, i: usize, results: Vec<(usize, Vec<u8>, E, ScalarKind)>) -> R<()> {
        let ops = &self.m.ins(i).operands;
        for (d, lanes, v, kind) in results {
            self.write(i, &ops[d], &lanes, v, kind, false)?;
        }
        Ok(())
    }

    fn store_lanes(&mut self, ptr: E, lanes: &[u8], value: E) {
        if lanes == [0, 1, 2, 3] {
            self.b.store(ptr, value);
            return;
        }
        for (k, &lane) in lanes.iter().enumerate() {
            let p = self.b.expr(Expression::AccessIndex { base: ptr, index: lane as u32 });
            let v = if lanes.len() == 1 { value } else { self.b.comp(value, k as u32) };
            self.b.store(p, v);
        }
    }

    /// Storage kind of a destination (the type an untyped move writes in).
    pub(super) fn dst_kind(&self, op: &Operand) -> ScalarKind {
        match op.ty {
            OperandType::Temp => self.storage.temp(op.reg()).kind(),
            OperandType::Output => self.outputs.get(&op.reg()).map(|x| x.1).unwrap_or(F),
            OperandType::IndexableTemp => self.indexable.get(&op.reg()).map(|x| x.2.kind()).unwrap_or(U),
            OperandType::OutputCoverageMask => U,
            _ => F,
        }
    }
}
