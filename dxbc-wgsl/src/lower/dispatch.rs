//! Instruction dispatch: one arm per opcode. The short ALU arms are written out here (their
//! sources read and destination written through the `src!`/`out!` macros); every other
//! instruction is a call into its family's module — `alu.rs`, `texture.rs`, `buffer.rs`,
//! `atomics.rs`, `f64.rs`, `control_flow.rs` (`sync`) — or a refusal of what WGSL cannot express.

use super::{mask_lanes, refuse_at, Cx, F, I, R, U};
use crate::refusal::RefusalReason;
use crate::sm4::{Instruction, Modifier, Opcode, ShaderStage};
use naga::{BinaryOperator as B, Expression, MathFunction as M, UnaryOperator};

impl Cx<'_, '_> {
    /// Lowers one instruction, reading its immediates at run time where
    /// [`super::runtime_immediates`] says so.
    pub(super) fn op(&mut self, i: usize) -> R<()> {
        self.runtime_imm = super::runtime_immediates(self.m.ins(i));
        let r = self.op_inner(i);
        self.runtime_imm = false;
        r
    }

    /// The opcode match.
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
            Opcode::EQ | Opcode::NE | Opcode::LT | Opcode::GE => self.float_compare(i, &lanes, n)?,
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
            Opcode::UDIV => self.udiv(i)?,
            Opcode::IMUL | Opcode::UMUL => self.multiply_wide(i)?,
            Opcode::SINCOS => self.sincos(i)?,
            Opcode::SWAPC => self.swapc(i)?,
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
            Opcode::FIRSTBIT_HI | Opcode::FIRSTBIT_SHI => self.first_bit_high(i, &lanes, n)?,
            Opcode::UBFE | Opcode::IBFE => self.bit_field_extract(i, &lanes, n)?,
            Opcode::BFI => self.bit_field_insert(i, &lanes, n)?,
            Opcode::F16TOF32 => self.f16_to_f32(i, &lanes, n)?,
            Opcode::F32TOF16 => self.f32_to_f16(i, &lanes, n)?,
            Opcode::UADDC | Opcode::USUBB => self.carry_borrow(i)?,
            Opcode::DERIV_RTX
            | Opcode::DERIV_RTY
            | Opcode::DERIV_RTX_COARSE
            | Opcode::DERIV_RTY_COARSE
            | Opcode::DERIV_RTX_FINE
            | Opcode::DERIV_RTY_FINE => self.derivative(i, &lanes)?,
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
