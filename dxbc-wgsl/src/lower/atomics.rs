//! Atomics (`atomic_*`, `imm_atomic_*`) on raw/structured UAV words, typed `RWBuffer` words and
//! thread-group shared memory, declared `atomic<u32>`: WGSL's atomic functions where they match
//! D3D's, compare-exchange loops where they do not (strong compare-exchange, signed min/max);
//! and `imm_atomic_alloc`/`imm_atomic_consume` on a structured UAV's hidden counter (a
//! binding of its own, `resource_decl.rs`).

use super::{mask_lanes, refuse_at, Cx, I, R, U};
use crate::refusal::{RefusalReason, TranslateError};
use crate::sm4::{Opcode, Operand, OperandType};
use naga::{BinaryOperator as B, Expression, MathFunction as M, Statement};

impl Cx<'_, '_> {
    /// `imm_atomic_alloc dst, u#`: `dst = atomicAdd(&u#_counter, 1u)`, the count before the
    /// increment; `imm_atomic_consume dst, u#`: `dst = atomicSub(&u#_counter, 1u) - 1u`, the
    /// count after the decrement (D3D11.3: "returning the new value"). Both wrap, as D3D's
    /// unclamped count does. The counter is the one D3D set when the view was bound (the
    /// caller's buffer: `docs/binding-model.md`).
    pub(super) fn counter_atomic(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let (d, res) = (&ins.operands[0], &ins.operands[1]);
        let consume = ins.opcode == Opcode::IMM_ATOMIC_CONSUME;
        let Some(&counter) =
            self.counters.get(&self.m.resource_id(res)).filter(|_| res.ty == OperandType::UnorderedAccessView)
        else {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::ResourceUnsupported,
                format!(
                    "`{}` on u{}, which is not a structured UAV (only those have a hidden counter)",
                    ins.opcode.name(),
                    res.reg()
                ),
            ));
        };
        let one = self.b.u32(1);
        let ty = self.ty(U, 1);
        let r = self.b.result_expr(Expression::AtomicResult { ty, comparison: false });
        let fun = if consume { naga::AtomicFunction::Subtract } else { naga::AtomicFunction::Add };
        self.b.stmt(Statement::Atomic { pointer: counter, fun, value: one, result: Some(r) });
        let lanes = mask_lanes(d.select.mask());
        if d.ty == OperandType::Null || lanes.is_empty() {
            return Ok(());
        }
        let v = if consume { self.b.bin(B::Subtract, r, one) } else { r };
        let v = self.b.splat(v, lanes.len());
        let kind = self.operand_kind(i, 0);
        let v = if kind == I { self.b.bitcast(v, I) } else { v };
        self.write(i, d, &lanes, v, kind, false)
    }

    /// Atomics on raw/structured UAV words, typed `RWBuffer` words and thread-group shared memory.
    /// Out-of-bounds operations do nothing and return 0 (D3D: nothing for UAVs; undefined for
    /// `g#`).
    /// `imm_atomic_cmp_exch` is strong in D3D: WGSL's weak compare-exchange is retried until it
    /// succeeds or the value differs. Signed min/max run as compare-exchange loops on the `u32`
    /// word.
    pub(super) fn atomic(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let op = ins.opcode;
        let imm = op.0 >= Opcode::IMM_ATOMIC_ALLOC.0;
        let (dst, uav_k) = if imm { (Some(&ops[0]), 1) } else { (None, 0) };
        let res = &ops[uav_k];
        let addr_op = &ops[uav_k + 1];
        let is_uav = res.ty == OperandType::UnorderedAccessView;
        if is_uav && self.storage_textures.contains_key(&self.m.resource_id(res)) {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "atomics on a typed UAV texture (WGSL has atomics only on storage-buffer and workgroup words)",
            ));
        }
        let typed = if is_uav { self.typed_buffers.get(&(true, self.m.resource_id(res))).copied() } else { None };
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
            let kind = self.operand_kind(i, 0);
            let v = if kind == I { self.b.bitcast(v, I) } else { v };
            self.write(i, d, &lanes, v, kind, false)?;
        }
        Ok(())
    }
}
