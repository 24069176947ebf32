//! Instruction dispatch: the one place an opcode reaches its lowering. [`lowering`] maps every
//! opcode of a lowered family (`sm4::opcodes::Family`: ALU, double, texture, buffer, atomic,
//! sync) to its function in that family's module — `alu.rs`, `f64.rs`, `texture.rs`,
//! `buffer.rs`, `atomics.rs`, `control_flow.rs` — and every refused row that has its own detail
//! to that detail; the refusal's reason is the row's. Control flow and declarations are the IR's
//! scopes and descriptions and never reach it. The table test in this module fails when a row of
//! a lowered family has no lowering, or a refused row has one.

use super::{refuse_at, Cx, R};
use crate::refusal::RefusalReason;
use crate::sm4::opcodes::Family;
use crate::sm4::{Opcode, ShaderStage};

/// A lowering function: lowers instruction `i` of the program.
pub(crate) type LowerFn = for<'c, 'a, 'b> fn(&'c mut Cx<'a, 'b>, usize) -> R<()>;

/// How the lowering handles an opcode.
#[derive(Clone, Copy)]
pub(crate) enum Lowering {
    /// Its lowering function.
    Lower(LowerFn),
    /// Refused for its row's reason, with this detail.
    Refuse(&'static str),
}

/// The lowering of `op`, `None` for control flow, declarations and refused rows without a
/// detail of their own (refused as not translated yet).
pub(crate) fn lowering(op: Opcode) -> Option<Lowering> {
    use Lowering::{Lower as L, Refuse};
    use Opcode as O;
    Some(match op {
        O::NOP => L(|_, _| Ok(())),
        O::MOV => L(|cx, i| cx.mov(i)),
        O::MOVC => L(|cx, i| cx.movc(i)),
        O::ADD | O::MUL | O::DIV | O::AND | O::OR | O::XOR | O::IADD => L(|cx, i| cx.binary(i)),
        O::MAD | O::IMAD | O::UMAD => L(|cx, i| cx.multiply_add(i)),
        O::MIN | O::MAX => L(|cx, i| cx.float_min_max(i)),
        O::DP2 | O::DP3 | O::DP4 => L(|cx, i| cx.dot(i)),
        O::EXP | O::LOG | O::SQRT | O::RSQ | O::FRC | O::ROUND_NE | O::ROUND_NI | O::ROUND_PI | O::ROUND_Z => {
            L(|cx, i| cx.float_unary(i))
        }
        O::RCP => L(|cx, i| cx.reciprocal(i)),
        O::EQ | O::NE | O::LT | O::GE => L(|cx, i| cx.float_compare(i)),
        O::IEQ | O::INE | O::ILT | O::IGE | O::ULT | O::UGE => L(|cx, i| cx.int_compare(i)),
        O::NOT | O::INEG => L(|cx, i| cx.int_unary(i)),
        O::IMAX | O::IMIN | O::UMAX | O::UMIN => L(|cx, i| cx.int_min_max(i)),
        O::ISHL | O::ISHR | O::USHR => L(|cx, i| cx.shift(i)),
        O::ITOF | O::UTOF => L(|cx, i| cx.int_to_float(i)),
        O::FTOI | O::FTOU => L(|cx, i| cx.float_to_int_op(i)),
        O::UDIV => L(|cx, i| cx.udiv(i)),
        O::IMUL | O::UMUL => L(|cx, i| cx.multiply_wide(i)),
        O::SINCOS => L(|cx, i| cx.sincos(i)),
        O::SWAPC => L(|cx, i| cx.swapc(i)),
        O::BFREV | O::COUNTBITS | O::FIRSTBIT_LO => L(|cx, i| cx.bit_unary(i)),
        O::FIRSTBIT_HI | O::FIRSTBIT_SHI => L(|cx, i| cx.first_bit_high(i)),
        O::UBFE | O::IBFE => L(|cx, i| cx.bit_field_extract(i)),
        O::BFI => L(|cx, i| cx.bit_field_insert(i)),
        O::F16TOF32 => L(|cx, i| cx.f16_to_f32(i)),
        O::F32TOF16 => L(|cx, i| cx.f32_to_f16(i)),
        O::UADDC | O::USUBB => L(|cx, i| cx.carry_borrow(i)),
        O::DERIV_RTX
        | O::DERIV_RTY
        | O::DERIV_RTX_COARSE
        | O::DERIV_RTY_COARSE
        | O::DERIV_RTX_FINE
        | O::DERIV_RTY_FINE => L(|cx, i| cx.derivative(i)),
        O::SAMPLE | O::SAMPLE_B | O::SAMPLE_L | O::SAMPLE_D | O::SAMPLE_C | O::SAMPLE_C_LZ => L(|cx, i| cx.sample(i)),
        O::LD | O::LD_MS => L(|cx, i| cx.load_texel(i)),
        O::GATHER4 | O::GATHER4_C | O::GATHER4_PO | O::GATHER4_PO_C => L(|cx, i| cx.gather(i)),
        O::SAMPLE_INFO => L(|cx, i| cx.sample_info(i)),
        O::RESINFO => L(|cx, i| cx.resinfo(i)),
        O::LD_RAW | O::LD_STRUCTURED => L(|cx, i| cx.buffer_load(i)),
        O::STORE_RAW | O::STORE_STRUCTURED => L(|cx, i| cx.buffer_store(i)),
        O::BUFINFO => L(|cx, i| cx.buffer_info(i)),
        O::LD_UAV_TYPED => L(|cx, i| cx.uav_typed_load(i)),
        O::STORE_UAV_TYPED => L(|cx, i| cx.uav_typed_store(i)),
        O::IMM_ATOMIC_ALLOC | O::IMM_ATOMIC_CONSUME => L(|cx, i| cx.counter_atomic(i)),
        op if op.is_atomic() => L(|cx, i| cx.atomic(i)),
        op if op.is_double() => L(|cx, i| cx.double_op(i)),
        O::SYNC => L(|cx, i| cx.sync_in_compute(i)),
        O::EMIT | O::EMIT_STREAM => L(|cx, i| cx.gs_emit(i)),
        O::CUT | O::CUT_STREAM => L(|cx, i| cx.gs_cut(i)),
        O::EMITTHENCUT | O::EMITTHENCUT_STREAM => L(|cx, i| {
            cx.gs_emit(i)?;
            cx.gs_cut(i)
        }),
        O::LOD => Refuse("WGSL has no LOD query (textureQueryLod)"),
        O::EVAL_CENTROID | O::EVAL_SAMPLE_INDEX | O::EVAL_SNAPPED => {
            Refuse("WGSL has no interpolate-at-centroid/sample/offset")
        }
        O::SAMPLE_POS => L(|cx, i| cx.sample_pos(i)),
        _ => return None,
    })
}

impl Cx<'_, '_> {
    /// Lowers one instruction, reading its immediates at run time where
    /// [`super::runtime_immediates`] says so.
    pub(super) fn op(&mut self, i: usize) -> R<()> {
        self.runtime_imm = super::runtime_immediates(self.m.ins(i));
        let r = self.op_inner(i);
        self.runtime_imm = false;
        r
    }

    fn op_inner(&mut self, i: usize) -> R<()> {
        let op = self.m.ins(i).opcode;
        match lowering(op) {
            Some(Lowering::Lower(f)) => f(self, i),
            Some(Lowering::Refuse(detail)) => {
                let reason = match op.family() {
                    Family::Refused(reason) => reason,
                    _ => RefusalReason::OpcodeUnsupported,
                };
                Err(refuse_at(self, i, reason, detail))
            }
            None => Err(refuse_at(
                self,
                i,
                RefusalReason::OpcodeUnsupported,
                format!("`{}` is not translated yet", op.name()),
            )),
        }
    }

    /// `sync` in a compute shader ([`Cx::sync`]); WGSL has no barrier in the other stages.
    fn sync_in_compute(&mut self, i: usize) -> R<()> {
        if self.m.version.stage != ShaderStage::Compute {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "WGSL has no memory barrier outside compute shaders",
            ));
        }
        self.sync(i)
    }

    /// Refuses an instruction outside a pixel shader (derivatives, implicit-LOD sampling,
    /// `discard`).
    pub(super) fn require_pixel(&self, i: usize) -> R<()> {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sm4::opcodes::OPCODE_TABLE;

    /// The table and the lowering agree: every row of a lowered family has a lowering function,
    /// and no refused row, control-flow row or declaration has one (those are refused with the
    /// row's documented reason, or are the IR's scopes and descriptions).
    #[test]
    fn lowering_table_agrees() {
        let mut wrong = Vec::new();
        for row in OPCODE_TABLE {
            let l = lowering(Opcode(row.code));
            let ok = match row.family {
                Family::Alu
                | Family::Double
                | Family::Texture
                | Family::Buffer
                | Family::Atomic
                | Family::Sync
                | Family::Primitive => {
                    matches!(l, Some(Lowering::Lower(_)))
                }
                Family::Refused(_) => !matches!(l, Some(Lowering::Lower(_))),
                Family::ControlFlow | Family::Declaration => l.is_none(),
            };
            if !ok {
                wrong.push(format!("{} ({:?})", row.name, row.family));
            }
        }
        assert!(wrong.is_empty(), "rows whose lowering disagrees with the table: {}", wrong.join(", "));
    }
}
