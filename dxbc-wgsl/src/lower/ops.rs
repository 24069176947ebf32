//! Control flow and instruction lowering: one arm per opcode.

use super::{refuse_at, Cx, Tex};
use crate::ir::{Block, Node, Storage};
use crate::refusal::{RefusalReason, TranslateError};
use crate::sm4::{ComponentSelect, Index, Instruction, Modifier, Opcode, Operand, OperandType, ShaderStage};
use naga::{
    BinaryOperator as B, Expression, Handle, ImageDimension, MathFunction as M, SampleLevel, ScalarKind, Statement,
    SwitchValue, UnaryOperator,
};

type R<T> = Result<T, TranslateError>;
type E = Handle<Expression>;

const F: ScalarKind = ScalarKind::Float;
const U: ScalarKind = ScalarKind::Uint;
const I: ScalarKind = ScalarKind::Sint;

/// Whether a loop body contains a `break`/`breakc` that leaves this loop (not an inner loop or
/// switch).
fn breaks_out(m: &crate::ir::Module<'_>, body: &Block) -> bool {
    body.iter().any(|n| match n {
        Node::Jump(i) => matches!(m.ins(*i).opcode, Opcode::BREAK | Opcode::BREAKC),
        Node::If { then, otherwise, .. } => breaks_out(m, then) || breaks_out(m, otherwise),
        Node::Loop { .. } | Node::Switch { .. } | Node::Op(_) => false,
    })
}

/// Whether a block contains a `ret`/`retc` at any depth.
fn returns_inside(m: &crate::ir::Module<'_>, body: &Block) -> bool {
    body.iter().any(|n| match n {
        Node::Jump(i) => matches!(m.ins(*i).opcode, Opcode::RET | Opcode::RETC),
        Node::If { then, otherwise, .. } => returns_inside(m, then) || returns_inside(m, otherwise),
        Node::Loop { body, .. } => returns_inside(m, body),
        Node::Switch { cases, .. } => cases.iter().any(|c| returns_inside(m, &c.body)),
        Node::Op(_) => false,
    })
}

fn mask_lanes(mask: u8) -> Vec<u8> {
    (0..4u8).filter(|c| mask & (1 << c) != 0).collect()
}

impl Cx<'_, '_> {
    /// Lowers a block; returns whether it ended in an unconditional jump (later code is dead).
    pub(crate) fn block(&mut self, block: &Block) -> R<bool> {
        for node in block {
            match node {
                Node::Op(i) => self.op(*i)?,
                Node::If { at, then, otherwise } => {
                    let cond = self.condition(*at)?;
                    self.b.open();
                    let then_ends = self.block(then)?;
                    let accept = self.b.close();
                    self.b.open();
                    let else_ends = self.block(otherwise)?;
                    let reject = self.b.close();
                    self.b.stmt(Statement::If { condition: cond, accept, reject });
                    if then_ends && else_ends {
                        // Both branches leave: what follows is dead (and WGSL warns about it).
                        return Ok(true);
                    }
                }
                Node::Loop { at, body } => {
                    if !breaks_out(self.m, body) && !returns_inside(self.m, body) {
                        return Err(refuse_at(
                            self,
                            *at,
                            RefusalReason::WebGpuLimitation,
                            "a loop with no `break` or `ret`: WGSL rejects loops that cannot exit (D3D would hang)",
                        ));
                    }
                    self.b.open();
                    self.block(body)?;
                    let body_block = self.b.close();
                    self.b.stmt(Statement::Loop { body: body_block, continuing: naga::Block::new(), break_if: None });
                    if !breaks_out(self.m, body) {
                        // A loop nothing breaks out of only ends by `ret`.
                        return Ok(true);
                    }
                }
                Node::Switch { at, cases } => {
                    let ins = self.m.ins(*at);
                    let sel = self.read(*at, &ins.operands[0], &[0], U)?;
                    let mut out = Vec::new();
                    let mut has_default = false;
                    let mut all_end = true;
                    for (ci, c) in cases.iter().enumerate() {
                        self.b.open();
                        let ends = self.block(&c.body)?;
                        all_end &= ends && !breaks_out(self.m, &c.body);
                        let body = self.b.close();
                        if !ends && ci + 1 < cases.len() {
                            return Err(refuse_at(
                                self,
                                c.at,
                                RefusalReason::UnstructuredControlFlow,
                                "a switch case falls through into the next",
                            ));
                        }
                        let mut labels: Vec<SwitchValue> = c.values.iter().map(|&v| SwitchValue::U32(v)).collect();
                        labels.dedup();
                        if c.is_default {
                            labels.push(SwitchValue::Default);
                            has_default = true;
                        }
                        let n = labels.len();
                        for (k, v) in labels.into_iter().enumerate() {
                            let last = k + 1 == n;
                            out.push(naga::SwitchCase {
                                value: v,
                                body: if last { body.clone() } else { naga::Block::new() },
                                fall_through: !last,
                            });
                        }
                    }
                    if !has_default {
                        out.push(naga::SwitchCase {
                            value: SwitchValue::Default,
                            body: naga::Block::new(),
                            fall_through: false,
                        });
                    }
                    self.b.stmt(Statement::Switch { selector: sel, cases: out });
                    if has_default && all_end {
                        // Every clause returns: what follows is dead.
                        return Ok(true);
                    }
                }
                Node::Jump(i) => {
                    if self.jump(*i)? {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// The `_nz`/`_z` test of a conditional instruction's operand 0, as a `bool`.
    fn condition(&mut self, i: usize) -> R<E> {
        let ins = self.m.ins(i);
        let v = self.read(i, &ins.operands[0], &[0], U)?;
        let z = self.b.u32(0);
        Ok(self.b.bin(if ins.test_nonzero { B::NotEqual } else { B::Equal }, v, z))
    }

    /// Lowers a jump; returns whether it is unconditional.
    fn jump(&mut self, i: usize) -> R<bool> {
        let ins = self.m.ins(i);
        let (stmt_kind, conditional) = match ins.opcode {
            Opcode::BREAK => (0, false),
            Opcode::BREAKC => (0, true),
            Opcode::CONTINUE => (1, false),
            Opcode::CONTINUEC => (1, true),
            Opcode::RET => (2, false),
            Opcode::RETC => (2, true),
            Opcode::DISCARD => (3, true),
            _ => return Err(refuse_at(self, i, RefusalReason::OpcodeUnsupported, "not a jump")),
        };
        if stmt_kind == 3 {
            self.require_pixel(i)?;
        }
        let cond = if conditional { Some(self.condition(i)?) } else { None };
        if cond.is_some() {
            self.b.open();
        }
        match stmt_kind {
            0 => self.b.stmt(Statement::Break),
            1 => self.b.stmt(Statement::Continue),
            2 => self.ret(),
            _ => self.b.stmt(Statement::Kill),
        }
        if let Some(c) = cond {
            let accept = self.b.close();
            self.b.stmt(Statement::If { condition: c, accept, reject: naga::Block::new() });
        }
        Ok(!conditional && stmt_kind != 3)
    }

    // ------------------------------------------------------------------ operands

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
    fn index(&mut self, i: usize, idx: &Index) -> R<E> {
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
    fn guarded_element(&mut self, i: usize, arr: E, n: u32, idx: &Index, elem_kind: ScalarKind) -> R<E> {
        match idx {
            Index::Imm(v) if *v < n => {
                let p = self.b.expr(Expression::AccessIndex { base: arr, index: *v });
                Ok(self.b.load(p))
            }
            Index::Imm(_) | Index::Imm64(_) => {
                let ty = self.ty(elem_kind, 4);
                Ok(self.b.expr(Expression::ZeroValue(ty)))
            }
            Index::Relative { .. } => {
                let ix = self.index(i, idx)?;
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
                let id = op.reg();
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
                let v = match idx {
                    Index::Imm(v) if v < n => {
                        let p = self.b.expr(Expression::AccessIndex { base: arr, index: v });
                        self.b.load(p)
                    }
                    Index::Imm(_) | Index::Imm64(_) => {
                        let ty = self.ty(st.kind(), 4);
                        self.b.expr(Expression::ZeroValue(ty))
                    }
                    Index::Relative { .. } => {
                        let ix = self.index(i, &idx)?;
                        let last = self.b.u32(n - 1);
                        let clamped = self.b.math(M::Min, &[ix, last]);
                        let p = self.b.expr(Expression::Access { base: arr, index: clamped });
                        let val = self.b.load(p);
                        let nn = self.b.u32(n);
                        let inb = self.b.bin(B::Less, ix, nn);
                        let ty = self.ty(st.kind(), 4);
                        let zero = self.b.expr(Expression::ZeroValue(ty));
                        self.b.select(inb, val, zero)
                    }
                };
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
    fn write_all(&mut self, i: usize, results: Vec<(usize, Vec<u8>, E, ScalarKind)>) -> R<()> {
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

    /// NaN test on raw bits (WGSL lets implementations assume no NaNs in float compares).
    fn is_nan(&mut self, v: E, n: usize) -> E {
        let bits = self.b.bitcast(v, U);
        let m = self.b.u32(0x7fff_ffff);
        let m = self.b.splat(m, n);
        let a = self.b.bin(B::And, bits, m);
        let inf = self.b.u32(0x7f80_0000);
        let inf = self.b.splat(inf, n);
        self.b.bin(B::Greater, a, inf)
    }

    /// D3D `_sat`: clamp to [0, 1], NaN → 0.
    fn saturate(&mut self, v: E, n: usize) -> E {
        let s = self.b.math(M::Saturate, &[v]);
        let nan = self.is_nan(v, n);
        let z = self.b.f32(0.0);
        let z = self.b.splat(z, n);
        self.b.select(nan, z, s)
    }

    /// `0xFFFFFFFF` where `cond`, else 0.
    fn mask_of(&mut self, cond: E, n: usize) -> E {
        let t = self.b.u32(u32::MAX);
        let t = self.b.splat(t, n);
        let f = self.b.u32(0);
        let f = self.b.splat(f, n);
        self.b.select(cond, t, f)
    }

    /// D3D float min/max: a NaN operand yields the other operand.
    fn min_max(&mut self, fun: M, a: E, b: E, n: usize) -> E {
        let r = self.b.math(fun, &[a, b]);
        let an = self.is_nan(a, n);
        let bn = self.is_nan(b, n);
        let r = self.b.select(bn, a, r);
        self.b.select(an, b, r)
    }

    // ------------------------------------------------------------------ instructions

    fn op(&mut self, i: usize) -> R<()> {
        self.runtime_imm = super::runtime_immediates(self.m.ins(i));
        let r = self.op_inner(i);
        self.runtime_imm = false;
        r
    }

    fn op_inner(&mut self, i: usize) -> R<()> {
        let ins: &Instruction = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = ops.first().map(|o| mask_lanes(o.select.mask())).unwrap_or_default();
        let n = lanes.len().max(1);
        let sat = ins.saturate;
        macro_rules! src {
            ($k:expr, $kind:expr) => {
                self.read(i, &ops[$k], &lanes, $kind)?
            };
        }
        macro_rules! out {
            ($v:expr, $kind:expr) => {{
                let v = $v;
                self.write(i, &ops[0], &lanes, v, $kind, sat)?
            }};
        }
        match ins.opcode {
            Opcode::NOP => {}
            Opcode::MOV => {
                let kind = if sat || ops[1].modifier != Modifier::None { F } else { self.dst_kind(&ops[0]) };
                let v = src!(1, kind);
                out!(v, kind)
            }
            Opcode::MOVC => {
                let kind = if sat || ops[2].modifier != Modifier::None || ops[3].modifier != Modifier::None {
                    F
                } else {
                    self.dst_kind(&ops[0])
                };
                let c = src!(1, U);
                let z = self.b.u32(0);
                let z = self.b.splat(z, n);
                let cond = self.b.bin(B::NotEqual, c, z);
                let a = src!(2, kind);
                let b = src!(3, kind);
                let v = self.b.select(cond, a, b);
                out!(v, kind)
            }
            Opcode::ADD | Opcode::MUL | Opcode::DIV => {
                let a = src!(1, F);
                let b = src!(2, F);
                let op = match ins.opcode {
                    Opcode::ADD => B::Add,
                    Opcode::MUL => B::Multiply,
                    _ => B::Divide,
                };
                let v = self.b.bin(op, a, b);
                out!(v, F)
            }
            Opcode::MAD => {
                let a = src!(1, F);
                let b = src!(2, F);
                let c = src!(3, F);
                let m = self.b.bin(B::Multiply, a, b);
                let v = self.b.bin(B::Add, m, c);
                out!(v, F)
            }
            Opcode::MIN | Opcode::MAX => {
                let a = src!(1, F);
                let b = src!(2, F);
                let v = self.min_max(if ins.opcode == Opcode::MIN { M::Min } else { M::Max }, a, b, n);
                out!(v, F)
            }
            Opcode::DP2 | Opcode::DP3 | Opcode::DP4 => {
                let k = match ins.opcode {
                    Opcode::DP2 => 2,
                    Opcode::DP3 => 3,
                    _ => 4,
                };
                let comps: Vec<u8> = (0..k).collect();
                let a = self.read(i, &ops[1], &comps, F)?;
                let b = self.read(i, &ops[2], &comps, F)?;
                let d = self.b.math(M::Dot, &[a, b]);
                let v = self.b.splat(d, n);
                out!(v, F)
            }
            Opcode::EXP
            | Opcode::LOG
            | Opcode::SQRT
            | Opcode::RSQ
            | Opcode::FRC
            | Opcode::ROUND_NE
            | Opcode::ROUND_NI
            | Opcode::ROUND_PI
            | Opcode::ROUND_Z => {
                let fun = match ins.opcode {
                    Opcode::EXP => M::Exp2,
                    Opcode::LOG => M::Log2,
                    Opcode::SQRT => M::Sqrt,
                    Opcode::RSQ => M::InverseSqrt,
                    Opcode::FRC => M::Fract,
                    Opcode::ROUND_NE => M::Round,
                    Opcode::ROUND_NI => M::Floor,
                    Opcode::ROUND_PI => M::Ceil,
                    _ => M::Trunc,
                };
                let a = src!(1, F);
                let v = self.b.math(fun, &[a]);
                out!(v, F)
            }
            Opcode::RCP => {
                let a = src!(1, F);
                let one = self.b.f32(1.0);
                let one = self.b.splat(one, n);
                let v = self.b.bin(B::Divide, one, a);
                out!(v, F)
            }
            Opcode::EQ | Opcode::NE | Opcode::LT | Opcode::GE => {
                let a = src!(1, F);
                let b = src!(2, F);
                let op = match ins.opcode {
                    Opcode::EQ => B::Equal,
                    Opcode::NE => B::NotEqual,
                    Opcode::LT => B::Less,
                    _ => B::GreaterEqual,
                };
                let mut c = self.b.bin(op, a, b);
                if ins.opcode == Opcode::NE {
                    // D3D's `ne` is unordered (true when either operand is NaN); WGSL's float `!=`
                    // becomes an ordered compare (SPIR-V FOrdNotEqual), false on NaN.
                    let an = self.is_nan(a, n);
                    let bn = self.is_nan(b, n);
                    let nan = self.b.bin(B::InclusiveOr, an, bn);
                    c = self.b.bin(B::InclusiveOr, c, nan);
                }
                let v = self.mask_of(c, n);
                out!(v, U)
            }
            Opcode::IEQ | Opcode::INE | Opcode::ILT | Opcode::IGE | Opcode::ULT | Opcode::UGE => {
                let kind = if matches!(ins.opcode, Opcode::ULT | Opcode::UGE) { U } else { I };
                let a = src!(1, kind);
                let b = src!(2, kind);
                let op = match ins.opcode {
                    Opcode::IEQ => B::Equal,
                    Opcode::INE => B::NotEqual,
                    Opcode::ILT | Opcode::ULT => B::Less,
                    _ => B::GreaterEqual,
                };
                let c = self.b.bin(op, a, b);
                let v = self.mask_of(c, n);
                out!(v, U)
            }
            Opcode::AND | Opcode::OR | Opcode::XOR => {
                let a = src!(1, U);
                let b = src!(2, U);
                let op = match ins.opcode {
                    Opcode::AND => B::And,
                    Opcode::OR => B::InclusiveOr,
                    _ => B::ExclusiveOr,
                };
                let v = self.b.bin(op, a, b);
                out!(v, U)
            }
            Opcode::NOT => {
                let a = src!(1, U);
                let v = self.b.expr(Expression::Unary { op: UnaryOperator::BitwiseNot, expr: a });
                out!(v, U)
            }
            Opcode::IADD => {
                let a = src!(1, I);
                let b = src!(2, I);
                let v = self.b.bin(B::Add, a, b);
                out!(v, I)
            }
            Opcode::INEG => {
                let a = src!(1, I);
                let v = self.b.expr(Expression::Unary { op: UnaryOperator::Negate, expr: a });
                out!(v, I)
            }
            Opcode::IMAD | Opcode::UMAD => {
                let kind = if ins.opcode == Opcode::IMAD { I } else { U };
                let a = src!(1, kind);
                let b = src!(2, kind);
                let c = src!(3, kind);
                let m = self.b.bin(B::Multiply, a, b);
                let v = self.b.bin(B::Add, m, c);
                out!(v, kind)
            }
            Opcode::IMAX | Opcode::IMIN | Opcode::UMAX | Opcode::UMIN => {
                let kind = if matches!(ins.opcode, Opcode::IMAX | Opcode::IMIN) { I } else { U };
                let a = src!(1, kind);
                let b = src!(2, kind);
                let fun = if matches!(ins.opcode, Opcode::IMAX | Opcode::UMAX) { M::Max } else { M::Min };
                let v = self.b.math(fun, &[a, b]);
                out!(v, kind)
            }
            Opcode::ISHL | Opcode::ISHR | Opcode::USHR => {
                let kind = if ins.opcode == Opcode::USHR { U } else { I };
                let a = src!(1, kind);
                let s = src!(2, U);
                let m31 = self.b.u32(31);
                let m31 = self.b.splat(m31, n);
                // D3D uses only the low 5 bits of the shift count.
                let s = self.b.bin(B::And, s, m31);
                let op = if ins.opcode == Opcode::ISHL { B::ShiftLeft } else { B::ShiftRight };
                let v = self.b.bin(op, a, s);
                out!(v, kind)
            }
            Opcode::ITOF | Opcode::UTOF => {
                let a = src!(1, if ins.opcode == Opcode::ITOF { I } else { U });
                let v = self.b.convert(a, F);
                out!(v, F)
            }
            Opcode::FTOI | Opcode::FTOU => {
                let a = src!(1, F);
                let v = self.float_to_int(a, n, ins.opcode == Opcode::FTOI);
                out!(v, if ins.opcode == Opcode::FTOI { I } else { U })
            }
            Opcode::UDIV => {
                // dst0 = quotient, dst1 = remainder; a zero divisor gives 0xFFFFFFFF in both.
                // Both results are computed before either is written (a destination may alias a
                // source).
                let mut results = Vec::new();
                for (d, binop) in [(0usize, B::Divide), (1, B::Modulo)] {
                    let dl = mask_lanes(ops[d].select.mask());
                    if ops[d].ty == OperandType::Null || dl.is_empty() {
                        continue;
                    }
                    let nn = dl.len();
                    let a = self.read(i, &ops[2], &dl, U)?;
                    let b = self.read(i, &ops[3], &dl, U)?;
                    let q = self.b.bin(binop, a, b);
                    let z = self.b.u32(0);
                    let z = self.b.splat(z, nn);
                    let isz = self.b.bin(B::Equal, b, z);
                    let ff = self.b.u32(u32::MAX);
                    let ff = self.b.splat(ff, nn);
                    let v = self.b.select(isz, ff, q);
                    results.push((d, dl, v, U));
                }
                self.write_all(i, results)?;
            }
            Opcode::IMUL | Opcode::UMUL => {
                // dst0 = high 32 bits of the 64-bit product, dst1 = low 32 bits.
                // Both results are computed before either is written (a destination may alias a
                // source).
                let signed = ins.opcode == Opcode::IMUL;
                let kind = if signed { I } else { U };
                let mut results = Vec::new();
                for d in [1usize, 0] {
                    let dl = mask_lanes(ops[d].select.mask());
                    if ops[d].ty == OperandType::Null || dl.is_empty() {
                        continue;
                    }
                    let a = self.read(i, &ops[2], &dl, kind)?;
                    let b = self.read(i, &ops[3], &dl, kind)?;
                    let v = if d == 1 {
                        self.b.bin(B::Multiply, a, b)
                    } else {
                        let hi = self.mul_hi(a, b, dl.len(), signed);
                        if signed {
                            self.b.bitcast(hi, I)
                        } else {
                            hi
                        }
                    };
                    results.push((d, dl, v, kind));
                }
                self.write_all(i, results)?;
            }
            Opcode::SINCOS => {
                // Both results are computed before either is written.
                let mut results = Vec::new();
                for (d, fun) in [(0usize, M::Sin), (1, M::Cos)] {
                    let dl = mask_lanes(ops[d].select.mask());
                    if ops[d].ty == OperandType::Null || dl.is_empty() {
                        continue;
                    }
                    let a = self.read(i, &ops[2], &dl, F)?;
                    let v = self.b.math(fun, &[a]);
                    let v = if sat { self.saturate(v, dl.len()) } else { v };
                    results.push((d, dl, v, F));
                }
                self.write_all(i, results)?;
            }
            Opcode::SWAPC => {
                // dst0 = cond ? src2 : src1; dst1 = cond ? src1 : src2 (read before writing).
                let mut writes = Vec::new();
                for d in 0..2usize {
                    let dl = mask_lanes(ops[d].select.mask());
                    if ops[d].ty == OperandType::Null || dl.is_empty() {
                        continue;
                    }
                    let kind = self.dst_kind(&ops[d]);
                    let nn = dl.len();
                    let c = self.read(i, &ops[2], &dl, U)?;
                    let z = self.b.u32(0);
                    let z = self.b.splat(z, nn);
                    let cond = self.b.bin(B::NotEqual, c, z);
                    let a = self.read(i, &ops[3], &dl, kind)?;
                    let b = self.read(i, &ops[4], &dl, kind)?;
                    let v = if d == 0 { self.b.select(cond, b, a) } else { self.b.select(cond, a, b) };
                    writes.push((d, dl, v, kind));
                }
                for (d, dl, v, kind) in writes {
                    self.write(i, &ops[d], &dl, v, kind, false)?;
                }
            }
            Opcode::BFREV | Opcode::COUNTBITS => {
                let a = src!(1, U);
                let v = self.b.math(if ins.opcode == Opcode::BFREV { M::ReverseBits } else { M::CountOneBits }, &[a]);
                out!(v, U)
            }
            Opcode::FIRSTBIT_LO => {
                let a = src!(1, U);
                let v = self.b.math(M::FirstTrailingBit, &[a]);
                out!(v, U)
            }
            Opcode::FIRSTBIT_HI | Opcode::FIRSTBIT_SHI => {
                // D3D counts from the most significant bit; WGSL from the least. Neither found
                // gives 0xFFFFFFFF in both.
                let kind = if ins.opcode == Opcode::FIRSTBIT_HI { U } else { I };
                let a = src!(1, kind);
                let f = self.b.math(M::FirstLeadingBit, &[a]);
                let f = if kind == I { self.b.bitcast(f, U) } else { f };
                let t31 = self.b.u32(31);
                let t31 = self.b.splat(t31, n);
                let from_msb = self.b.bin(B::Subtract, t31, f);
                let none = self.b.u32(u32::MAX);
                let none = self.b.splat(none, n);
                let missing = self.b.bin(B::Equal, f, none);
                let v = self.b.select(missing, none, from_msb);
                out!(v, U)
            }
            Opcode::UBFE | Opcode::IBFE => {
                let kind = if ins.opcode == Opcode::UBFE { U } else { I };
                let w = src!(1, U);
                let o = src!(2, U);
                let x = src!(3, kind);
                let m31 = self.b.u32(31);
                let m31 = self.b.splat(m31, n);
                let w = self.b.bin(B::And, w, m31);
                let o = self.b.bin(B::And, o, m31);
                // Per component: WGSL's extractBits takes scalar offset/count.
                let v = self.per_component(
                    n,
                    |s, k| {
                        let xk = if n == 1 { x } else { s.b.comp(x, k) };
                        let ok = if n == 1 { o } else { s.b.comp(o, k) };
                        let wk = if n == 1 { w } else { s.b.comp(w, k) };
                        s.b.math(M::ExtractBits, &[xk, ok, wk])
                    },
                    kind,
                );
                out!(v, kind)
            }
            Opcode::BFI => {
                let w = src!(1, U);
                let o = src!(2, U);
                let ins_bits = src!(3, U);
                let base = src!(4, U);
                let m31 = self.b.u32(31);
                let m31 = self.b.splat(m31, n);
                let w = self.b.bin(B::And, w, m31);
                let o = self.b.bin(B::And, o, m31);
                let v = self.per_component(
                    n,
                    |s, k| {
                        let pick = |s: &mut Cx<'_, '_>, e: E| if n == 1 { e } else { s.b.comp(e, k) };
                        let bk = pick(s, base);
                        let ik = pick(s, ins_bits);
                        let ok = pick(s, o);
                        let wk = pick(s, w);
                        s.b.math(M::InsertBits, &[bk, ik, ok, wk])
                    },
                    U,
                );
                out!(v, U)
            }
            Opcode::F16TOF32 => {
                let a = src!(1, U);
                let v = self.per_component(
                    n,
                    |s, k| {
                        let ak = if n == 1 { a } else { s.b.comp(a, k) };
                        let m = s.b.u32(0xffff);
                        let lo = s.b.bin(B::And, ak, m);
                        let un = s.b.math(M::Unpack2x16float, &[lo]);
                        s.b.comp(un, 0)
                    },
                    F,
                );
                out!(v, F)
            }
            Opcode::F32TOF16 => {
                let a = src!(1, F);
                let v = self.per_component(
                    n,
                    |s, k| {
                        let ak = if n == 1 { a } else { s.b.comp(a, k) };
                        let z = s.b.f32(0.0);
                        let ty = s.ty(F, 2);
                        let pair = s.b.compose(ty, vec![ak, z]);
                        let p = s.b.math(M::Pack2x16float, &[pair]);
                        let m = s.b.u32(0xffff);
                        s.b.bin(B::And, p, m)
                    },
                    U,
                );
                out!(v, U)
            }
            Opcode::UADDC | Opcode::USUBB => {
                let dl = mask_lanes(ops[0].select.mask());
                let a = self.read(i, &ops[2], &dl, U)?;
                let b = self.read(i, &ops[3], &dl, U)?;
                let nn = dl.len();
                let (r, carry) = if ins.opcode == Opcode::UADDC {
                    let r = self.b.bin(B::Add, a, b);
                    let c = self.b.bin(B::Less, r, a);
                    (r, c)
                } else {
                    let r = self.b.bin(B::Subtract, a, b);
                    let c = self.b.bin(B::Less, a, b);
                    (r, c)
                };
                let one = self.b.u32(1);
                let one = self.b.splat(one, nn);
                let zero = self.b.u32(0);
                let zero = self.b.splat(zero, nn);
                let c = self.b.select(carry, one, zero);
                self.write(i, &ops[0], &dl, r, U, false)?;
                let dl1 = mask_lanes(ops[1].select.mask());
                if dl1 == dl {
                    self.write(i, &ops[1], &dl1, c, U, false)?;
                } else if ops[1].ty != OperandType::Null {
                    return Err(refuse_at(
                        self,
                        i,
                        RefusalReason::OperandUnsupported,
                        "carry/borrow destination with a different write mask",
                    ));
                }
            }
            Opcode::DERIV_RTX
            | Opcode::DERIV_RTY
            | Opcode::DERIV_RTX_COARSE
            | Opcode::DERIV_RTY_COARSE
            | Opcode::DERIV_RTX_FINE
            | Opcode::DERIV_RTY_FINE => {
                self.require_pixel(i)?;
                let (axis, ctrl) = match ins.opcode {
                    Opcode::DERIV_RTX => (naga::DerivativeAxis::X, naga::DerivativeControl::None),
                    Opcode::DERIV_RTY => (naga::DerivativeAxis::Y, naga::DerivativeControl::None),
                    Opcode::DERIV_RTX_COARSE => (naga::DerivativeAxis::X, naga::DerivativeControl::Coarse),
                    Opcode::DERIV_RTY_COARSE => (naga::DerivativeAxis::Y, naga::DerivativeControl::Coarse),
                    Opcode::DERIV_RTX_FINE => (naga::DerivativeAxis::X, naga::DerivativeControl::Fine),
                    _ => (naga::DerivativeAxis::Y, naga::DerivativeControl::Fine),
                };
                let a = src!(1, F);
                let v = self.b.expr(Expression::Derivative { axis, ctrl, expr: a });
                out!(v, F)
            }
            Opcode::SAMPLE
            | Opcode::SAMPLE_B
            | Opcode::SAMPLE_L
            | Opcode::SAMPLE_D
            | Opcode::SAMPLE_C
            | Opcode::SAMPLE_C_LZ => self.sample(i)?,
            Opcode::LD | Opcode::LD_MS => self.load_texel(i)?,
            Opcode::GATHER4 | Opcode::GATHER4_C | Opcode::GATHER4_PO | Opcode::GATHER4_PO_C => self.gather(i)?,
            Opcode::SAMPLE_INFO => self.sample_info(i)?,
            Opcode::LD_RAW | Opcode::LD_STRUCTURED => self.buffer_load(i)?,
            Opcode::STORE_RAW | Opcode::STORE_STRUCTURED => self.buffer_store(i)?,
            Opcode::BUFINFO => self.buffer_info(i)?,
            Opcode::LD_UAV_TYPED => self.uav_typed_load(i)?,
            Opcode::STORE_UAV_TYPED => self.uav_typed_store(i)?,
            op if op.is_atomic() => self.atomic(i)?,
            Opcode::RESINFO => self.resinfo(i)?,
            Opcode::LOD => {
                return Err(refuse_at(
                    self,
                    i,
                    RefusalReason::WebGpuLimitation,
                    "WGSL has no LOD query (textureQueryLod)",
                ));
            }
            Opcode::EVAL_CENTROID | Opcode::EVAL_SAMPLE_INDEX | Opcode::EVAL_SNAPPED => {
                return Err(refuse_at(
                    self,
                    i,
                    RefusalReason::WebGpuLimitation,
                    "WGSL has no interpolate-at-centroid/sample/offset",
                ));
            }
            Opcode::SAMPLE_POS => {
                return Err(refuse_at(self, i, RefusalReason::WebGpuLimitation, "WGSL cannot query sample positions"));
            }
            op if op.is_double() => self.double_op(i)?,
            Opcode::SYNC if self.m.version.stage != ShaderStage::Compute => {
                return Err(refuse_at(
                    self,
                    i,
                    RefusalReason::WebGpuLimitation,
                    "WGSL has no memory barrier outside compute shaders",
                ));
            }
            Opcode::SYNC => self.sync(i)?,
            _ => {
                return Err(refuse_at(
                    self,
                    i,
                    RefusalReason::OpcodeUnsupported,
                    format!("`{}` is not translated yet", ins.opcode.name()),
                ));
            }
        }
        Ok(())
    }

    /// `sync[_uglobal|_ugroup][_g][_t]` in a compute shader (control bits: 1 `_t`, 2 `_g`,
    /// 4 `_ugroup`, 8 `_uglobal`). WGSL's barriers all synchronize the workgroup's execution as
    /// well as order memory: `_g` (and `_t` alone) become `workgroupBarrier()`, `_ugroup` and
    /// `_uglobal` `storageBarrier()` (with `textureBarrier()` when a storage texture is bound
    /// `read_write`). A fence without `_t` is thereby strengthened to a control barrier, which
    /// only narrows the executions D3D allows; the uniformity check in `lower` guarantees every
    /// invocation reaches it. `_uglobal` makes writes to `globallycoherent` UAVs visible to other
    /// thread groups: WGSL has no device-scope fence, so that combination is refused (for other
    /// UAVs D3D scopes `_uglobal` to the thread group, as `storageBarrier()` does).
    fn sync(&mut self, i: usize) -> R<()> {
        let c = self.m.ins(i).control;
        let mut barrier = naga::Barrier::empty();
        if c & 0b0011 != 0 {
            barrier |= naga::Barrier::WORK_GROUP;
        }
        if c & 0b1100 != 0 {
            barrier |= naga::Barrier::STORAGE;
            if self.storage_textures.values().any(|t| t.read_write) {
                barrier |= naga::Barrier::TEXTURE;
            }
        }
        if c & 0b1000 != 0 && self.m.resources.iter().any(|r| r.uav && r.flags.globally_coherent) {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "sync_uglobal with a globallycoherent UAV: WGSL's storageBarrier orders memory only within the workgroup (WebGPU has no device-scope fence)",
            ));
        }
        if barrier.is_empty() {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                "`sync` without _g, _t, _ugroup or _uglobal",
            ));
        }
        self.b.stmt(Statement::ControlBarrier(barrier));
        Ok(())
    }

    fn require_pixel(&self, i: usize) -> R<()> {
        if self.m.version.stage != ShaderStage::Pixel {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OpcodeUnsupported,
                format!("`{}` outside a pixel shader (invalid in D3D)", self.m.ins(i).opcode.name()),
            ));
        }
        Ok(())
    }

    /// Builds a vector from per-component scalars.
    fn per_component(&mut self, n: usize, mut f: impl FnMut(&mut Self, u32) -> E, kind: ScalarKind) -> E {
        let parts: Vec<E> = (0..n as u32).map(|k| f(self, k)).collect();
        let ty = self.ty(kind, n);
        self.b.compose(ty, parts)
    }

    /// Storage kind of a destination (the type an untyped move writes in).
    fn dst_kind(&self, op: &Operand) -> ScalarKind {
        match op.ty {
            OperandType::Temp => self.storage.temp(op.reg()).kind(),
            OperandType::Output => self.outputs.get(&op.reg()).map(|x| x.1).unwrap_or(F),
            OperandType::IndexableTemp => self.indexable.get(&op.reg()).map(|x| x.2.kind()).unwrap_or(U),
            OperandType::OutputCoverageMask => U,
            _ => F,
        }
    }

    /// High 32 bits of the 64-bit product (WGSL has no `mulhi`): schoolbook multiplication on
    /// 16-bit halves, then, for signed operands, `hi - (a < 0 ? b : 0) - (b < 0 ? a : 0)`.
    /// Returns `u32` lanes.
    fn mul_hi(&mut self, a: E, b: E, n: usize, signed: bool) -> E {
        let (au, bu) = if signed { (self.b.bitcast(a, U), self.b.bitcast(b, U)) } else { (a, b) };
        let c16 = self.b.u32(16);
        let c16 = self.b.splat(c16, n);
        let m16 = self.b.u32(0xffff);
        let m16 = self.b.splat(m16, n);
        let al = self.b.bin(B::And, au, m16);
        let ah = self.b.bin(B::ShiftRight, au, c16);
        let bl = self.b.bin(B::And, bu, m16);
        let bh = self.b.bin(B::ShiftRight, bu, c16);
        let ll = self.b.bin(B::Multiply, al, bl);
        let hl = self.b.bin(B::Multiply, ah, bl);
        let lh = self.b.bin(B::Multiply, al, bh);
        let hh = self.b.bin(B::Multiply, ah, bh);
        let ll_hi = self.b.bin(B::ShiftRight, ll, c16);
        let hl_lo = self.b.bin(B::And, hl, m16);
        let lh_lo = self.b.bin(B::And, lh, m16);
        let cross = self.b.bin(B::Add, ll_hi, hl_lo);
        let cross = self.b.bin(B::Add, cross, lh_lo);
        let hl_hi = self.b.bin(B::ShiftRight, hl, c16);
        let lh_hi = self.b.bin(B::ShiftRight, lh, c16);
        let cross_hi = self.b.bin(B::ShiftRight, cross, c16);
        let hi = self.b.bin(B::Add, hh, hl_hi);
        let hi = self.b.bin(B::Add, hi, lh_hi);
        let hi = self.b.bin(B::Add, hi, cross_hi);
        if !signed {
            return hi;
        }
        let z = self.b.i32(0);
        let z = self.b.splat(z, n);
        let zu = self.b.u32(0);
        let zu = self.b.splat(zu, n);
        let a_neg = self.b.bin(B::Less, a, z);
        let b_neg = self.b.bin(B::Less, b, z);
        let sub_b = self.b.select(a_neg, bu, zu);
        let sub_a = self.b.select(b_neg, au, zu);
        let hi = self.b.bin(B::Subtract, hi, sub_b);
        self.b.bin(B::Subtract, hi, sub_a)
    }

    /// D3D `ftoi`/`ftou`: NaN → 0, values outside the integer range clamp to it.
    fn float_to_int(&mut self, a: E, n: usize, signed: bool) -> E {
        let nan = self.is_nan(a, n);
        if signed {
            let lo = self.b.f32(-2147483648.0);
            let lo = self.b.splat(lo, n);
            let hi = self.b.f32(2147483520.0);
            let hi = self.b.splat(hi, n);
            let c = self.b.math(M::Clamp, &[a, lo, hi]);
            let c = self.b.convert(c, I);
            let big = self.b.f32(2147483648.0);
            let big = self.b.splat(big, n);
            let over = self.b.bin(B::GreaterEqual, a, big);
            let max = self.b.i32(i32::MAX);
            let max = self.b.splat(max, n);
            let c = self.b.select(over, max, c);
            let z = self.b.i32(0);
            let z = self.b.splat(z, n);
            self.b.select(nan, z, c)
        } else {
            let lo = self.b.f32(0.0);
            let lo = self.b.splat(lo, n);
            let hi = self.b.f32(4294967040.0);
            let hi = self.b.splat(hi, n);
            let c = self.b.math(M::Clamp, &[a, lo, hi]);
            let c = self.b.convert(c, U);
            let big = self.b.f32(4294967296.0);
            let big = self.b.splat(big, n);
            let over = self.b.bin(B::GreaterEqual, a, big);
            let max = self.b.u32(u32::MAX);
            let max = self.b.splat(max, n);
            let c = self.b.select(over, max, c);
            let z = self.b.u32(0);
            let z = self.b.splat(z, n);
            self.b.select(nan, z, c)
        }
    }

    fn texture(&self, i: usize, op: &Operand) -> R<Tex> {
        if op.ty != OperandType::Resource {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                format!("{:?} as a texture operand", op.ty),
            ));
        }
        self.textures.get(&op.reg()).copied().ok_or_else(|| {
            refuse_at(self, i, RefusalReason::OperandUnsupported, format!("t{} is not a declared texture", op.reg()))
        })
    }

    /// Result components in destination order, given the resource operand's swizzle.
    fn result_swizzle(&mut self, v4: E, res: &Operand, lanes: &[u8]) -> E {
        let sw = res.select.swizzle();
        let comps: Vec<u8> = lanes.iter().map(|&l| sw[l as usize]).collect();
        self.b.swizzle(v4, &comps)
    }

    /// Splits an address operand into (coordinates, array layer) for a texture.
    fn coords(&mut self, i: usize, addr: &Operand, tex: &Tex, kind: ScalarKind) -> R<(E, Option<E>)> {
        let comps: Vec<u8> = (0..tex.coords as u8).collect();
        let c = self.read(i, addr, &comps, kind)?;
        let layer = if tex.arrayed {
            let l = self.read(i, addr, &[tex.coords as u8], kind)?;
            let l = if kind == F {
                // D3D rounds the array coordinate to the nearest integer.
                let r = self.b.math(M::Round, &[l]);
                let z = self.b.f32(0.0);
                let r = self.b.math(M::Max, &[r, z]);
                self.b.convert(r, U)
            } else {
                self.b.bitcast(l, U)
            };
            Some(l)
        } else {
            None
        };
        Ok((c, layer))
    }

    fn offset_expr(&mut self, ins: &Instruction, tex: &Tex) -> Option<E> {
        let o = ins.texel_offset?;
        if o == [0, 0, 0] {
            return None;
        }
        let n = match tex.dim {
            ImageDimension::D1 => 1,
            ImageDimension::D2 => 2,
            _ => 3,
        };
        let parts: Vec<E> = o[..n].iter().map(|&v| self.b.i32(v as i32)).collect();
        let ty = self.ty(I, n);
        Some(self.b.compose(ty, parts))
    }

    fn sample(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let tex = self.texture(i, &ops[2])?;
        if tex.multi {
            return Err(refuse_at(self, i, RefusalReason::OperandUnsupported, "sampling a multisampled texture"));
        }
        if tex.kind != F {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                "sampling a texture declared with an integer return type (invalid in D3D; WGSL cannot sample it)",
            ));
        }
        if matches!(ins.opcode, Opcode::SAMPLE | Opcode::SAMPLE_B | Opcode::SAMPLE_C) {
            // Implicit derivatives: pixel shaders only.
            self.require_pixel(i)?;
        }
        let compare = matches!(ins.opcode, Opcode::SAMPLE_C | Opcode::SAMPLE_C_LZ);
        let sampler = *self.samplers.get(&(ops[3].reg(), compare)).ok_or_else(|| {
            refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                format!("s{} is not a declared sampler", ops[3].reg()),
            )
        })?;
        let (coordinate, array_index) = self.coords(i, &ops[1], &tex, F)?;
        let offset = self.offset_expr(ins, &tex);
        if offset.is_some() && tex.dim == ImageDimension::Cube {
            return Err(refuse_at(self, i, RefusalReason::WebGpuLimitation, "texel offsets on cube textures"));
        }
        let stage_pixel = self.m.version.stage == ShaderStage::Pixel;
        let level = match ins.opcode {
            Opcode::SAMPLE | Opcode::SAMPLE_C => {
                if !stage_pixel {
                    return Err(refuse_at(
                        self,
                        i,
                        RefusalReason::OpcodeUnsupported,
                        "implicit-LOD sampling outside a pixel shader",
                    ));
                }
                SampleLevel::Auto
            }
            Opcode::SAMPLE_B => {
                if !stage_pixel {
                    return Err(refuse_at(
                        self,
                        i,
                        RefusalReason::OpcodeUnsupported,
                        "biased sampling outside a pixel shader",
                    ));
                }
                let b = self.read(i, &ops[4], &[0], F)?;
                SampleLevel::Bias(b)
            }
            Opcode::SAMPLE_L => {
                let l = self.read(i, &ops[4], &[0], F)?;
                SampleLevel::Exact(l)
            }
            Opcode::SAMPLE_D => {
                let n = match tex.dim {
                    ImageDimension::D1 => 1,
                    ImageDimension::D2 => 2,
                    _ => 3,
                };
                let comps: Vec<u8> = (0..n).collect();
                let x = self.read(i, &ops[4], &comps, F)?;
                let y = self.read(i, &ops[5], &comps, F)?;
                SampleLevel::Gradient { x, y }
            }
            _ => SampleLevel::Zero,
        };
        if tex.depth && !compare && !matches!(level, SampleLevel::Auto) {
            return Err(refuse_at(self, i, RefusalReason::WebGpuLimitation, "a texture used for comparison sampling is a WGSL depth texture, which has no biased, gradient or fractional-LOD sampling"));
        }
        if tex.dim == ImageDimension::D1 && !matches!(level, SampleLevel::Auto) {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "1D textures can only be sampled with implicit LOD in WGSL",
            ));
        }
        let depth_ref = if compare { Some(self.read(i, &ops[4], &[0], F)?) } else { None };
        let v = self.b.expr(Expression::ImageSample {
            image: tex.expr,
            sampler,
            gather: None,
            coordinate,
            array_index,
            offset,
            level,
            depth_ref,
            clamp_to_edge: false,
        });
        let v4 = if compare || tex.depth {
            // Depth results are one float; D3D returns (d, 0, 0, 1) for a one-channel format and
            // the comparison result in every lane of a comparison.
            if compare {
                self.b.splat(v, 4)
            } else {
                let z = self.b.f32(0.0);
                let one = self.b.f32(1.0);
                let ty = self.ty(F, 4);
                self.b.compose(ty, vec![v, z, z, one])
            }
        } else {
            v
        };
        let kind = if compare { F } else { tex.kind };
        let r = self.result_swizzle(v4, &ops[2], &lanes);
        self.write(i, &ops[0], &lanes, r, kind, ins.saturate)
    }

    /// `ld` / `ld_ms`: integer texel coordinates (plus an immediate offset), the mip level in
    /// the address's `.w` (`ld`) or the sample index (`ld_ms`); zero when anything is out of
    /// bounds.
    fn load_texel(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        if ins.opcode == Opcode::LD && ops[2].ty == OperandType::Resource {
            if let Some(tb) = self.typed_buffers.get(&(false, ops[2].reg())).copied() {
                return self.typed_buffer_load(i, tb, &ops[1], &ops[2]);
            }
        }
        let tex = self.texture(i, &ops[2])?;
        let ms = ins.opcode == Opcode::LD_MS;
        if tex.depth || tex.dim == ImageDimension::Cube || ms != tex.multi {
            return Err(refuse_at(self, i, RefusalReason::OperandUnsupported, "this load from this texture kind"));
        }
        let (coordinate, array_index) = self.coords(i, &ops[1], &tex, I)?;
        // Immediate offsets apply before the bounds test.
        let coordinate = match self.offset_expr(ins, &tex) {
            Some(off) => self.b.bin(B::Add, coordinate, off),
            None => coordinate,
        };
        let zero_i = self.b.i32(0);
        let zeros = self.b.splat(zero_i, tex.coords);
        let nonneg = self.b.bin(B::GreaterEqual, coordinate, zeros);
        let nonneg = if tex.coords == 1 {
            nonneg
        } else {
            self.b.expr(Expression::Relational { fun: naga::RelationalFunction::All, argument: nonneg })
        };
        let coordinate = self.b.bitcast(coordinate, U);
        let (level_ok, safe_level, sample) = if ms {
            let s = self.read(i, &ops[3], &[0], U)?;
            let n = self.b.expr(Expression::ImageQuery { image: tex.expr, query: naga::ImageQuery::NumSamples });
            let ok = self.b.bin(B::Less, s, n);
            let one = self.b.u32(1);
            let last = self.b.bin(B::Subtract, n, one);
            let safe = self.b.math(M::Min, &[s, last]);
            (ok, None, Some(safe))
        } else {
            let level = self.read(i, &ops[1], &[3], U)?;
            let levels = self.b.expr(Expression::ImageQuery { image: tex.expr, query: naga::ImageQuery::NumLevels });
            let ok = self.b.bin(B::Less, level, levels);
            let one = self.b.u32(1);
            let last = self.b.bin(B::Subtract, levels, one);
            (ok, Some(self.b.math(M::Min, &[level, last])), None)
        };
        let size = self
            .b
            .expr(Expression::ImageQuery { image: tex.expr, query: naga::ImageQuery::Size { level: safe_level } });
        let inside = self.b.bin(B::Less, coordinate, size);
        let inside = if tex.coords == 1 {
            inside
        } else {
            self.b.expr(Expression::Relational { fun: naga::RelationalFunction::All, argument: inside })
        };
        let inside = self.b.bin(B::LogicalAnd, inside, nonneg);
        let mut ok = self.b.bin(B::LogicalAnd, level_ok, inside);
        let one = self.b.u32(1);
        let ones = self.b.splat(one, tex.coords);
        let max_c = self.b.bin(B::Subtract, size, ones);
        let safe_c = self.b.math(M::Min, &[coordinate, max_c]);
        let safe_layer = if let Some(l) = array_index {
            let layers = self.b.expr(Expression::ImageQuery { image: tex.expr, query: naga::ImageQuery::NumLayers });
            let lok = self.b.bin(B::Less, l, layers);
            ok = self.b.bin(B::LogicalAnd, ok, lok);
            let one = self.b.u32(1);
            let last = self.b.bin(B::Subtract, layers, one);
            Some(self.b.math(M::Min, &[l, last]))
        } else {
            None
        };
        let v = self.b.expr(Expression::ImageLoad {
            image: tex.expr,
            coordinate: safe_c,
            array_index: safe_layer,
            sample,
            level: safe_level,
        });
        let ty = self.ty(tex.kind, 4);
        let zero = self.b.expr(Expression::ZeroValue(ty));
        let v = self.b.select(ok, v, zero);
        let r = self.result_swizzle(v, &ops[2], &lanes);
        self.write(i, &ops[0], &lanes, r, tex.kind, false)
    }

    /// `gather4` family: the four texels of the bilinear footprint, one channel (chosen by the
    /// sampler operand's selected component), or their comparison results.
    fn gather(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let po = matches!(ins.opcode, Opcode::GATHER4_PO | Opcode::GATHER4_PO_C);
        let compare = matches!(ins.opcode, Opcode::GATHER4_C | Opcode::GATHER4_PO_C);
        let (res_k, smp_k) = if po { (3, 4) } else { (2, 3) };
        let tex = self.texture(i, &ops[res_k])?;
        if tex.multi || tex.dim == ImageDimension::D1 || tex.dim == ImageDimension::D3 {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "gather from a 1D, 3D or multisampled texture",
            ));
        }
        if tex.depth != compare {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "a texture gathered both with and without comparison",
            ));
        }
        let sampler = *self.samplers.get(&(ops[smp_k].reg(), compare)).ok_or_else(|| {
            refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                format!("s{} is not a declared sampler", ops[smp_k].reg()),
            )
        })?;
        let (coordinate, array_index) = self.coords(i, &ops[1], &tex, F)?;
        let offset = if po {
            // WGSL offsets are constant expressions: only immediate programmable offsets fit.
            let o = &ops[2];
            if o.ty != OperandType::Immediate32 {
                return Err(refuse_at(
                    self,
                    i,
                    RefusalReason::WebGpuLimitation,
                    "a gather offset read from a register (WGSL offsets are constants)",
                ));
            }
            let sw = o.select.swizzle();
            let parts: Vec<E> = (0..2)
                .map(|k| {
                    let w = if o.imm.len() == 1 { o.imm[0] } else { o.imm[sw[k] as usize] };
                    // D3D uses the low 6 bits, sign-extended.
                    self.b.i32(((w as i32) << 26) >> 26)
                })
                .collect();
            let ty = self.ty(I, 2);
            Some(self.b.compose(ty, parts))
        } else {
            self.offset_expr(ins, &tex)
        };
        if offset.is_some() && tex.dim == ImageDimension::Cube {
            return Err(refuse_at(self, i, RefusalReason::WebGpuLimitation, "texel offsets on cube textures"));
        }
        let channel = match ops[smp_k].select {
            ComponentSelect::Select1(c) => c,
            ComponentSelect::Swizzle(sw) => sw[0],
            _ => 0,
        };
        if compare && channel != 0 {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "comparison gather of a channel other than red",
            ));
        }
        let depth_ref = if compare { Some(self.read(i, &ops[smp_k + 1], &[0], F)?) } else { None };
        let gather = [
            naga::SwizzleComponent::X,
            naga::SwizzleComponent::Y,
            naga::SwizzleComponent::Z,
            naga::SwizzleComponent::W,
        ][channel as usize];
        let v = self.b.expr(Expression::ImageSample {
            image: tex.expr,
            sampler,
            gather: Some(gather),
            coordinate,
            array_index,
            offset,
            level: SampleLevel::Zero,
            depth_ref,
            clamp_to_edge: false,
        });
        let kind = if compare { F } else { tex.kind };
        let r = self.result_swizzle(v, &ops[res_k], &lanes);
        self.write(i, &ops[0], &lanes, r, kind, false)
    }

    fn buffer(&self, i: usize, op: &Operand) -> R<super::Buf> {
        let uav = match op.ty {
            OperandType::UnorderedAccessView => true,
            OperandType::Resource => false,
            OperandType::ThreadGroupSharedMemory => {
                return self.tgsm.get(&op.reg()).copied().ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, format!("g{} is not declared", op.reg()))
                })
            }
            other => {
                return Err(refuse_at(self, i, RefusalReason::OperandUnsupported, format!("{other:?} as a buffer")))
            }
        };
        self.buffers.get(&(uav, op.reg())).copied().ok_or_else(|| {
            refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                format!("{}{} is not a raw or structured buffer", if uav { 'u' } else { 't' }, op.reg()),
            )
        })
    }

    /// Number of 32-bit words in a buffer.
    fn buffer_words(&mut self, buf: &super::Buf) -> E {
        match buf.words {
            Some(n) => self.b.u32(n),
            None => self.b.expr(Expression::ArrayLength(buf.expr)),
        }
    }

    /// Pointer to word `w` of a buffer. A fixed-size array (`g#`) is indexed at `min(w, n - 1)`:
    /// WGSL rejects a constant index past a fixed-size array's end, and every access is guarded
    /// by the bounds test anyway.
    fn word_ptr(&mut self, buf: &super::Buf, w: E) -> E {
        let index = match buf.words {
            Some(n) => {
                let last = self.b.u32(n - 1);
                self.b.math(M::Min, &[w, last])
            }
            None => w,
        };
        self.b.expr(Expression::Access { base: buf.expr, index })
    }

    /// First word and element validity of a buffer address: raw buffers take a byte address
    /// (`.x`), structured buffers an element index and a byte offset (`.x`, `.y` of two operands
    /// or of one address operand).
    fn buffer_address(&mut self, i: usize, buf: &super::Buf, addr: &[(&Operand, u8)]) -> R<(E, Option<E>, Option<E>)> {
        let words = self.buffer_words(buf);
        match buf.stride {
            None => {
                let byte = self.read(i, addr[0].0, &[addr[0].1], U)?;
                let two = self.b.u32(2);
                Ok((self.b.bin(B::ShiftRight, byte, two), None, None))
            }
            Some(stride) => {
                let index = self.read(i, addr[0].0, &[addr[0].1], U)?;
                let offset = self.read(i, addr[1].0, &[addr[1].1], U)?;
                let sw = self.b.u32(stride / 4);
                let four = self.b.u32(4);
                let total = self.b.bin(B::Multiply, words, four);
                let st = self.b.u32(stride);
                let count = self.b.bin(B::Divide, total, st);
                let elem_ok = self.b.bin(B::Less, index, count);
                let base = self.b.bin(B::Multiply, index, sw);
                let two = self.b.u32(2);
                let ow = self.b.bin(B::ShiftRight, offset, two);
                Ok((self.b.bin(B::Add, base, ow), Some(elem_ok), Some(offset)))
            }
        }
    }

    /// Whether word `base + comp` is inside the buffer (and, for structured buffers, inside the
    /// element).
    fn word_ok(&mut self, buf: &super::Buf, base: E, comp: u32, elem_ok: Option<E>, offset: Option<E>) -> (E, E) {
        let c = self.b.u32(comp);
        let w = self.b.bin(B::Add, base, c);
        let words = self.buffer_words(buf);
        let mut ok = self.b.bin(B::Less, w, words);
        if let (Some(e), Some(off), Some(stride)) = (elem_ok, offset, buf.stride) {
            let cb = self.b.u32(comp * 4);
            let o = self.b.bin(B::Add, off, cb);
            let st = self.b.u32(stride);
            let in_elem = self.b.bin(B::Less, o, st);
            let both = self.b.bin(B::LogicalAnd, e, in_elem);
            ok = self.b.bin(B::LogicalAnd, ok, both);
        }
        (w, ok)
    }

    /// `ld_raw` / `ld_structured`: words selected by the resource swizzle; zero out of bounds.
    fn buffer_load(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let structured = ins.opcode == Opcode::LD_STRUCTURED;
        let res = if structured { &ops[3] } else { &ops[2] };
        let buf = self.buffer(i, res)?;
        if structured != buf.stride.is_some() {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                "raw/structured access to a buffer of the other kind",
            ));
        }
        let addr: Vec<(&Operand, u8)> = if structured { vec![(&ops[1], 0), (&ops[2], 0)] } else { vec![(&ops[1], 0)] };
        let (base, elem_ok, offset) = self.buffer_address(i, &buf, &addr)?;
        let sw = res.select.swizzle();
        let mut parts = Vec::new();
        for &lane in &lanes {
            let (w, ok) = self.word_ok(&buf, base, sw[lane as usize] as u32, elem_ok, offset);
            let p = self.word_ptr(&buf, w);
            let v = self.b.load(p);
            let z = self.b.u32(0);
            parts.push(self.b.select(ok, v, z));
        }
        let ty = self.ty(U, parts.len());
        let v = self.b.compose(ty, parts);
        self.write(i, &ops[0], &lanes, v, U, false)
    }

    /// `store_raw` / `store_structured`: the destination mask's words; dropped out of bounds.
    fn buffer_store(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let structured = ins.opcode == Opcode::STORE_STRUCTURED;
        let buf = self.buffer(i, &ops[0])?;
        if structured != buf.stride.is_some() {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                "raw/structured access to a buffer of the other kind",
            ));
        }
        let addr: Vec<(&Operand, u8)> = if structured { vec![(&ops[1], 0), (&ops[2], 0)] } else { vec![(&ops[1], 0)] };
        let (base, elem_ok, offset) = self.buffer_address(i, &buf, &addr)?;
        let value_op = if structured { &ops[3] } else { &ops[2] };
        // D3D writes the masked components as consecutive words: .xy writes words 0 and 1.
        let vals: Vec<E> = lanes.iter().map(|&l| self.read(i, value_op, &[l], U)).collect::<R<_>>()?;
        for (&lane, v) in lanes.iter().zip(vals) {
            let (w, ok) = self.word_ok(&buf, base, lane as u32, elem_ok, offset);
            self.b.open();
            let p = self.word_ptr(&buf, w);
            self.b.store(p, v);
            let accept = self.b.close();
            self.b.stmt(Statement::If { condition: ok, accept, reject: naga::Block::new() });
        }
        Ok(())
    }

    /// Element `index` of a typed buffer as a `vec4<u32>` of raw words: components past the
    /// format's count read as D3D's defaults (0, and 1 in `.w`); an element past the end reads 0.
    fn typed_element(&mut self, tb: super::TypedBuf, index: E) -> E {
        let words = self.b.expr(Expression::ArrayLength(tb.expr));
        let n = self.b.u32(tb.components);
        let count = self.b.bin(B::Divide, words, n);
        let ok = self.b.bin(B::Less, index, count);
        let base = self.b.bin(B::Multiply, index, n);
        let one_bits = if tb.kind == F { 1.0f32.to_bits() } else { 1 };
        let mut parts = Vec::new();
        for c in 0..4u32 {
            if c < tb.components {
                let cc = self.b.u32(c);
                let w = self.b.bin(B::Add, base, cc);
                let p = self.b.expr(Expression::Access { base: tb.expr, index: w });
                parts.push(self.b.load(p));
            } else {
                parts.push(self.b.u32(if c == 3 { one_bits } else { 0 }));
            }
        }
        let ty = self.ty(U, 4);
        let v = self.b.compose(ty, parts);
        let z = self.b.expr(Expression::ZeroValue(ty));
        self.b.select(ok, v, z)
    }

    /// `ld` from a typed `Buffer` SRV (element index in `.x`).
    fn typed_buffer_load(&mut self, i: usize, tb: super::TypedBuf, addr: &Operand, res: &Operand) -> R<()> {
        let dst = &self.m.ins(i).operands[0];
        let lanes = mask_lanes(dst.select.mask());
        let index = self.read(i, addr, &[0], U)?;
        let v = self.typed_element(tb, index);
        let r = self.result_swizzle(v, res, &lanes);
        let r = if tb.kind != U { self.b.bitcast(r, tb.kind) } else { r };
        self.write(i, dst, &lanes, r, tb.kind, false)
    }

    /// `ld_uav_typed`: from a typed `RWBuffer` (words) or a `read_write` storage texture; zero
    /// out of bounds.
    fn uav_typed_load(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let id = ops[2].reg();
        if let Some(tb) = self.typed_buffers.get(&(true, id)).copied() {
            return self.typed_buffer_load(i, tb, &ops[1], &ops[2]);
        }
        let st = *self.storage_textures.get(&id).ok_or_else(|| {
            refuse_at(self, i, RefusalReason::OperandUnsupported, format!("u{id} is not a typed UAV"))
        })?;
        let (coord, layer, ok) = self.storage_coords(i, &st, &ops[1])?;
        let v = self.b.expr(Expression::ImageLoad {
            image: st.expr,
            coordinate: coord,
            array_index: layer,
            sample: None,
            level: None,
        });
        let ty = self.ty(st.kind, 4);
        let z = self.b.expr(Expression::ZeroValue(ty));
        let v = self.b.select(ok, v, z);
        let r = self.result_swizzle(v, &ops[2], &lanes);
        self.write(i, &ops[0], &lanes, r, st.kind, false)
    }

    /// Clamped coordinates, layer and the in-bounds test of a storage-texture access.
    fn storage_coords(&mut self, i: usize, st: &super::StorageTex, addr: &Operand) -> R<(E, Option<E>, E)> {
        let comps: Vec<u8> = (0..st.coords as u8).collect();
        let c = self.read(i, addr, &comps, U)?;
        let size =
            self.b.expr(Expression::ImageQuery { image: st.expr, query: naga::ImageQuery::Size { level: None } });
        let inside = self.b.bin(B::Less, c, size);
        let mut ok = if st.coords == 1 {
            inside
        } else {
            self.b.expr(Expression::Relational { fun: naga::RelationalFunction::All, argument: inside })
        };
        let one = self.b.u32(1);
        let ones = self.b.splat(one, st.coords);
        let max_c = self.b.bin(B::Subtract, size, ones);
        let safe = self.b.math(M::Min, &[c, max_c]);
        let layer = if st.arrayed {
            let l = self.read(i, addr, &[st.coords as u8], U)?;
            let layers = self.b.expr(Expression::ImageQuery { image: st.expr, query: naga::ImageQuery::NumLayers });
            let lok = self.b.bin(B::Less, l, layers);
            ok = self.b.bin(B::LogicalAnd, ok, lok);
            let one = self.b.u32(1);
            let last = self.b.bin(B::Subtract, layers, one);
            Some(self.b.math(M::Min, &[l, last]))
        } else {
            None
        };
        Ok((safe, layer, ok))
    }

    /// `store_uav_typed`: every component of the format; dropped out of bounds.
    fn uav_typed_store(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let id = ops[0].reg();
        if let Some(tb) = self.typed_buffers.get(&(true, id)).copied() {
            let index = self.read(i, &ops[1], &[0], U)?;
            let vals: Vec<E> = (0..tb.components as u8).map(|c| self.read(i, &ops[2], &[c], U)).collect::<R<_>>()?;
            let words = self.b.expr(Expression::ArrayLength(tb.expr));
            let n = self.b.u32(tb.components);
            let count = self.b.bin(B::Divide, words, n);
            let ok = self.b.bin(B::Less, index, count);
            self.b.open();
            let base = self.b.bin(B::Multiply, index, n);
            for (c, v) in vals.into_iter().enumerate() {
                let cc = self.b.u32(c as u32);
                let w = self.b.bin(B::Add, base, cc);
                let p = self.b.expr(Expression::Access { base: tb.expr, index: w });
                self.b.store(p, v);
            }
            let accept = self.b.close();
            self.b.stmt(Statement::If { condition: ok, accept, reject: naga::Block::new() });
            return Ok(());
        }
        let st = *self.storage_textures.get(&id).ok_or_else(|| {
            refuse_at(self, i, RefusalReason::OperandUnsupported, format!("u{id} is not a typed UAV"))
        })?;
        let (coord, layer, ok) = self.storage_coords(i, &st, &ops[1])?;
        let value = self.read(i, &ops[2], &[0, 1, 2, 3], st.kind)?;
        self.b.open();
        self.b.stmt(Statement::ImageStore { image: st.expr, coordinate: coord, array_index: layer, value });
        let accept = self.b.close();
        self.b.stmt(Statement::If { condition: ok, accept, reject: naga::Block::new() });
        Ok(())
    }

    /// `bufinfo`: byte size of a raw buffer, element count of a structured one, in every lane.
    fn buffer_info(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let uav = ops[1].ty == OperandType::UnorderedAccessView;
        if let Some(tb) = self.typed_buffers.get(&(uav, ops[1].reg())).copied() {
            let words = self.b.expr(Expression::ArrayLength(tb.expr));
            let n = self.b.u32(tb.components);
            let count = self.b.bin(B::Divide, words, n);
            let v = self.b.splat(count, lanes.len());
            return self.write(i, &ops[0], &lanes, v, U, false);
        }
        let buf = self.buffer(i, &ops[1])?;
        let words = self.buffer_words(&buf);
        let four = self.b.u32(4);
        let bytes = self.b.bin(B::Multiply, words, four);
        let v = match buf.stride {
            None => bytes,
            Some(s) => {
                let st = self.b.u32(s);
                self.b.bin(B::Divide, bytes, st)
            }
        };
        let v = self.b.splat(v, lanes.len());
        self.write(i, &ops[0], &lanes, v, U, false)
    }

    /// Atomics on raw/structured UAV words, typed `RWBuffer` words and thread-group shared memory.
    /// Out-of-bounds operations do nothing and return 0 (D3D: nothing for UAVs; undefined for
    /// `g#`).
    /// `imm_atomic_cmp_exch` is strong in D3D: WGSL's weak compare-exchange is retried until it
    /// succeeds or the value differs. Signed min/max run as compare-exchange loops on the `u32`
    /// word.
    fn atomic(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let op = ins.opcode;
        let imm = op.0 >= Opcode::IMM_ATOMIC_ALLOC.0;
        if matches!(op, Opcode::IMM_ATOMIC_ALLOC | Opcode::IMM_ATOMIC_CONSUME) {
            return Err(refuse_at(self, i, RefusalReason::ResourceUnsupported, "UAV hidden counters (append/consume)"));
        }
        let (dst, uav_k) = if imm { (Some(&ops[0]), 1) } else { (None, 0) };
        let res = &ops[uav_k];
        let addr_op = &ops[uav_k + 1];
        let is_uav = res.ty == OperandType::UnorderedAccessView;
        if is_uav && self.storage_textures.contains_key(&res.reg()) {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "atomics on a typed UAV texture (WGSL has atomics only on storage-buffer and workgroup words)",
            ));
        }
        let typed = if is_uav { self.typed_buffers.get(&(true, res.reg())).copied() } else { None };
        let (buf, w, ok) = if let Some(tb) = typed {
            // A typed RWBuffer emulated on words: D3D allows atomics only on R32 views, one word
            // per element, addressed by the element index in `.x`.
            if tb.components != 1 {
                return Err(refuse_at(
                    self,
                    i,
                    RefusalReason::ResourceUnsupported,
                    format!(
                        "atomics on typed RWBuffer u{} of {} components (D3D allows them on R32 formats only)",
                        res.reg(),
                        tb.components
                    ),
                ));
            }
            let buf = super::Buf { expr: tb.expr, stride: None, atomic: tb.atomic, words: None };
            let w = self.read(i, addr_op, &[0], U)?;
            let words = self.buffer_words(&buf);
            let ok = self.b.bin(B::Less, w, words);
            (buf, w, ok)
        } else {
            let buf = self.buffer(i, res)?;
            let addr: Vec<(&Operand, u8)> =
                if buf.stride.is_some() { vec![(addr_op, 0), (addr_op, 1)] } else { vec![(addr_op, 0)] };
            let (base, elem_ok, offset) = self.buffer_address(i, &buf, &addr)?;
            let (w, ok) = self.word_ok(&buf, base, 0, elem_ok, offset);
            (buf, w, ok)
        };
        if !buf.atomic {
            return Err(TranslateError::Internal("atomic on a buffer not declared atomic".into()));
        }
        let v0 = self.read(i, &ops[uav_k + 2], &[0], U)?;
        let v1 = if matches!(op, Opcode::ATOMIC_CMP_STORE | Opcode::IMM_ATOMIC_CMP_EXCH) {
            Some(self.read(i, &ops[uav_k + 3], &[0], U)?)
        } else {
            None
        };
        let result_var = if dst.is_some() {
            let u = self.ty(U, 1);
            let z = self.b.u32(0);
            let lv = self.b.f.local_variables.append(
                naga::LocalVariable { name: Some(format!("atomic_old_{i}")), ty: u, init: Some(z) },
                naga::Span::UNDEFINED,
            );
            Some(self.b.expr(Expression::LocalVariable(lv)))
        } else {
            None
        };
        self.b.open();
        let p = self.word_ptr(&buf, w);
        use naga::AtomicFunction as A;
        let simple = match op {
            Opcode::ATOMIC_AND | Opcode::IMM_ATOMIC_AND => Some(A::And),
            Opcode::ATOMIC_OR | Opcode::IMM_ATOMIC_OR => Some(A::InclusiveOr),
            Opcode::ATOMIC_XOR | Opcode::IMM_ATOMIC_XOR => Some(A::ExclusiveOr),
            Opcode::ATOMIC_IADD | Opcode::IMM_ATOMIC_IADD => Some(A::Add),
            Opcode::ATOMIC_UMAX | Opcode::IMM_ATOMIC_UMAX => Some(A::Max),
            Opcode::ATOMIC_UMIN | Opcode::IMM_ATOMIC_UMIN => Some(A::Min),
            Opcode::IMM_ATOMIC_EXCH => Some(A::Exchange { compare: None }),
            _ => None,
        };
        let old = if let Some(fun) = simple {
            let ty = self.ty(U, 1);
            let r = self.b.result_expr(Expression::AtomicResult { ty, comparison: false });
            self.b.stmt(Statement::Atomic { pointer: p, fun, value: v0, result: Some(r) });
            r
        } else {
            // Compare-exchange loop: cmp_store/cmp_exch (strong), signed min/max.
            let scalar = naga::Scalar::U32;
            let res_ty =
                self.module.generate_predeclared_type(naga::PredeclaredType::AtomicCompareExchangeWeakResult(scalar));
            let u = self.ty(U, 1);
            let lv = self.b.f.local_variables.append(
                naga::LocalVariable { name: Some(format!("atomic_prev_{i}")), ty: u, init: None },
                naga::Span::UNDEFINED,
            );
            let prev = self.b.expr(Expression::LocalVariable(lv));
            self.b.open();
            let (expected, new) = match op {
                Opcode::ATOMIC_CMP_STORE | Opcode::IMM_ATOMIC_CMP_EXCH => (v0, v1.expect("two values")),
                _ => {
                    let cur = self.b.load(p);
                    let a = self.b.bitcast(cur, I);
                    let b = self.b.bitcast(v0, I);
                    let fun = if matches!(op, Opcode::ATOMIC_IMAX | Opcode::IMM_ATOMIC_IMAX) { M::Max } else { M::Min };
                    let m = self.b.math(fun, &[a, b]);
                    (cur, self.b.bitcast(m, U))
                }
            };
            let r = self.b.result_expr(Expression::AtomicResult { ty: res_ty, comparison: true });
            self.b.stmt(Statement::Atomic {
                pointer: p,
                fun: A::Exchange { compare: Some(expected) },
                value: new,
                result: Some(r),
            });
            let old = self.b.comp(r, 0);
            self.b.store(prev, old);
            let exchanged = self.b.comp(r, 1);
            let differs = self.b.bin(B::NotEqual, old, expected);
            let done = self.b.bin(B::LogicalOr, exchanged, differs);
            self.b.open();
            self.b.stmt(Statement::Break);
            let brk = self.b.close();
            self.b.stmt(Statement::If { condition: done, accept: brk, reject: naga::Block::new() });
            let body = self.b.close();
            self.b.stmt(Statement::Loop { body, continuing: naga::Block::new(), break_if: None });
            self.b.load(prev)
        };
        if let Some(rv) = result_var {
            self.b.store(rv, old);
        }
        let accept = self.b.close();
        self.b.stmt(Statement::If { condition: ok, accept, reject: naga::Block::new() });
        if let (Some(d), Some(rv)) = (dst, result_var) {
            let lanes = mask_lanes(d.select.mask());
            let v = self.b.load(rv);
            let v = self.b.splat(v, lanes.len());
            let kind = if matches!(op, Opcode::IMM_ATOMIC_IADD | Opcode::IMM_ATOMIC_IMAX | Opcode::IMM_ATOMIC_IMIN) {
                I
            } else {
                U
            };
            let v = if kind == I { self.b.bitcast(v, I) } else { v };
            self.write(i, d, &lanes, v, kind, false)?;
        }
        Ok(())
    }

    /// `sampleinfo`: the sample count of a texture in `.x` (uint with `_uint`, else float), zero
    /// in the other components; 1 for a texture that is not multisampled.
    fn sample_info(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        if ops[1].ty != OperandType::Resource {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "the rasterizer's sample count is not visible to WGSL",
            ));
        }
        let tex = self.texture(i, &ops[1])?;
        let n = if tex.multi {
            self.b.expr(Expression::ImageQuery { image: tex.expr, query: naga::ImageQuery::NumSamples })
        } else {
            self.b.u32(1)
        };
        let zero = self.b.u32(0);
        let ty = self.ty(U, 4);
        let v = self.b.compose(ty, vec![n, zero, zero, zero]);
        let (v, kind) = if ins.control & 1 != 0 { (v, U) } else { (self.b.convert(v, F), F) };
        let r = self.result_swizzle(v, &ops[1], &lanes);
        self.write(i, &ops[0], &lanes, r, kind, ins.saturate)
    }

    /// `resinfo`: (width, height, depth or array size, mip count) of mip `src0`; zero for the
    /// size of a missing mip, the mip count always.
    fn resinfo(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        // (image, coordinate dimensions, arrayed, has mip levels): a UAV view is one mip level
        // (resinfo (sm4 - asm): "for UAVs (u#), the number of mip levels is always 1").
        let (image, dims, arrayed, mipped) = if ops[2].ty == OperandType::UnorderedAccessView {
            let id = ops[2].reg();
            let st = *self.storage_textures.get(&id).ok_or_else(|| {
                refuse_at(self, i, RefusalReason::OperandUnsupported, format!("u{id} is not a typed UAV texture"))
            })?;
            (st.expr, st.coords as u32, st.arrayed, false)
        } else {
            let tex = self.texture(i, &ops[2])?;
            let dims = match tex.dim {
                ImageDimension::D1 => 1,
                ImageDimension::D2 | ImageDimension::Cube => 2,
                ImageDimension::D3 => 3,
            };
            (tex.expr, dims, tex.arrayed, !tex.multi)
        };
        let level = self.read(i, &ops[1], &[0], U)?;
        let levels = if mipped {
            self.b.expr(Expression::ImageQuery { image, query: naga::ImageQuery::NumLevels })
        } else {
            self.b.u32(1)
        };
        let ok = self.b.bin(B::Less, level, levels);
        let one = self.b.u32(1);
        let last = self.b.bin(B::Subtract, levels, one);
        let safe = self.b.math(M::Min, &[level, last]);
        let size = self
            .b
            .expr(Expression::ImageQuery { image, query: naga::ImageQuery::Size { level: mipped.then_some(safe) } });
        let zero = self.b.u32(0);
        let mut c = Vec::new();
        for k in 0..dims {
            c.push(if dims == 1 { size } else { self.b.comp(size, k) });
        }
        if arrayed {
            let layers = self.b.expr(Expression::ImageQuery { image, query: naga::ImageQuery::NumLayers });
            c.push(layers);
        }
        while c.len() < 3 {
            c.push(zero);
        }
        let ty3 = self.ty(U, 3);
        let xyz = self.b.compose(ty3, c);
        let z3 = self.b.splat(zero, 3);
        let xyz = self.b.select(ok, xyz, z3);
        let ty4 = self.ty(U, 4);
        let x = self.b.comp(xyz, 0);
        let y = self.b.comp(xyz, 1);
        let z = self.b.comp(xyz, 2);
        let v = self.b.compose(ty4, vec![x, y, z, levels]);
        let (v, kind) = match ins.control & 3 {
            2 => (v, U),
            mode => {
                let f = self.b.convert(v, F);
                if mode == 1 {
                    // rcpFloat: reciprocal of the sizes, the mip count stays.
                    let one = self.b.f32(1.0);
                    let ones = self.b.splat(one, 4);
                    let r = self.b.bin(B::Divide, ones, f);
                    let ty = self.ty(F, 4);
                    let rx = self.b.comp(r, 0);
                    let ry = self.b.comp(r, 1);
                    let rz = self.b.comp(r, 2);
                    let lw = self.b.comp(f, 3);
                    (self.b.compose(ty, vec![rx, ry, rz, lw]), F)
                } else {
                    (f, F)
                }
            }
        };
        let r = self.result_swizzle(v, &ops[2], &lanes);
        self.write(i, &ops[0], &lanes, r, kind, ins.saturate)
    }
}

#[allow(dead_code)]
fn _unused(_: ComponentSelect, _: Storage) {}
