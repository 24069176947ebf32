//! Moves, arithmetic, comparison, bit and conversion instructions (the opcode table's `Alu`
//! family), one function per group of opcodes that share a lowering; [`Cx::src`] and
//! [`Cx::dst`] type the operands by the row's type letters, so the lowering does not restate
//! them. The helpers make D3D's ALU semantics explicit: NaN tests on raw bits, `_sat` with
//! NaN → 0, comparison masks, D3D's min/max NaN rule, the high half of a 64-bit product,
//! clamping float → integer conversions.

use super::{mask_lanes, refuse_at, Cx, E, F, I, R, U};
use crate::refusal::RefusalReason;
use crate::sm4::{Modifier, Opcode, OperandType};
use naga::{BinaryOperator as B, Expression, MathFunction as M, ScalarKind, UnaryOperator};

impl Cx<'_, '_> {
    /// `eq`, `ne`, `lt`, `ge`: a float comparison as a `0xFFFFFFFF`/0 mask per component.
    pub(super) fn float_compare(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let lanes = &lanes[..];
        let ins = self.m.ins(i);
        let a = self.src(i, 1, lanes)?;
        let b = self.src(i, 2, lanes)?;
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
        self.dst(i, lanes, v)
    }

    /// `udiv`: quotient and remainder.
    pub(super) fn udiv(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
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
            let a = self.src(i, 2, &dl)?;
            let b = self.src(i, 3, &dl)?;
            let q = self.b.bin(binop, a, b);
            let z = self.b.u32(0);
            let z = self.b.splat(z, nn);
            let isz = self.b.bin(B::Equal, b, z);
            let ff = self.b.u32(u32::MAX);
            let ff = self.b.splat(ff, nn);
            let v = self.b.select(isz, ff, q);
            results.push((d, dl, v, U));
        }
        self.write_all(i, results)
    }

    /// `imul`/`umul`: the 64-bit product, as its high and low 32 bits.
    pub(super) fn multiply_wide(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        // dst0 = high 32 bits of the 64-bit product, dst1 = low 32 bits.
        // Both results are computed before either is written (a destination may alias a
        // source).
        let kind = self.operand_kind(i, 2);
        let signed = kind == I;
        let mut results = Vec::new();
        for d in [1usize, 0] {
            let dl = mask_lanes(ops[d].select.mask());
            if ops[d].ty == OperandType::Null || dl.is_empty() {
                continue;
            }
            let a = self.src(i, 2, &dl)?;
            let b = self.src(i, 3, &dl)?;
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
        self.write_all(i, results)
    }

    /// `sincos`: sine and cosine.
    pub(super) fn sincos(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let sat = ins.saturate;
        // Both results are computed before either is written.
        let mut results = Vec::new();
        for (d, fun) in [(0usize, M::Sin), (1, M::Cos)] {
            let dl = mask_lanes(ops[d].select.mask());
            if ops[d].ty == OperandType::Null || dl.is_empty() {
                continue;
            }
            let a = self.src(i, 2, &dl)?;
            let v = self.b.math(fun, &[a]);
            let v = if sat { self.saturate(v, dl.len()) } else { v };
            results.push((d, dl, v, F));
        }
        self.write_all(i, results)
    }

    /// `swapc`: a per-component conditional swap of two sources into two destinations.
    pub(super) fn swapc(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
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
        Ok(())
    }

    /// `firstbit_hi`/`firstbit_shi`: the first set bit (`_shi`: the first bit that differs from the
    /// sign bit), counted from the most significant bit.
    pub(super) fn first_bit_high(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let lanes = &lanes[..];
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        // D3D counts from the most significant bit; WGSL from the least. Neither found
        // gives 0xFFFFFFFF in both.
        let kind = self.operand_kind(i, 1);
        let a = self.src(i, 1, lanes)?;
        let f = self.b.math(M::FirstLeadingBit, &[a]);
        let f = if kind == I { self.b.bitcast(f, U) } else { f };
        let t31 = self.b.u32(31);
        let t31 = self.b.splat(t31, n);
        let from_msb = self.b.bin(B::Subtract, t31, f);
        let none = self.b.u32(u32::MAX);
        let none = self.b.splat(none, n);
        let missing = self.b.bin(B::Equal, f, none);
        let v = self.b.select(missing, none, from_msb);
        self.write(i, &ops[0], lanes, v, U, ins.saturate)
    }

    /// `ubfe`/`ibfe`: a bit field (width and offset taken modulo 32), zero- or sign-extended.
    pub(super) fn bit_field_extract(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let lanes = &lanes[..];
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let kind = self.operand_kind(i, 0);
        let w = self.src(i, 1, lanes)?;
        let o = self.src(i, 2, lanes)?;
        let x = self.src(i, 3, lanes)?;
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
        self.write(i, &ops[0], lanes, v, kind, ins.saturate)
    }

    /// `bfi`: a bit field (width and offset taken modulo 32) inserted into a base value.
    pub(super) fn bit_field_insert(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let lanes = &lanes[..];
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let w = self.src(i, 1, lanes)?;
        let o = self.src(i, 2, lanes)?;
        let ins_bits = self.src(i, 3, lanes)?;
        let base = self.src(i, 4, lanes)?;
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
        self.write(i, &ops[0], lanes, v, U, ins.saturate)
    }

    /// `f16tof32`: the half-precision float in each component's low 16 bits, widened.
    pub(super) fn f16_to_f32(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let lanes = &lanes[..];
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let a = self.src(i, 1, lanes)?;
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
        self.write(i, &ops[0], lanes, v, F, ins.saturate)
    }

    /// `f32tof16`: each component as a half-precision float in the low 16 bits.
    pub(super) fn f32_to_f16(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let lanes = &lanes[..];
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let a = self.src(i, 1, lanes)?;
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
        self.write(i, &ops[0], lanes, v, U, ins.saturate)
    }

    /// `uaddc`/`usubb`: sum or difference, and the carry or borrow (1 or 0).
    pub(super) fn carry_borrow(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let dl = mask_lanes(ops[0].select.mask());
        let a = self.src(i, 2, &dl)?;
        let b = self.src(i, 3, &dl)?;
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
        Ok(())
    }

    /// `deriv_rtx`/`deriv_rty` and their `_coarse`/`_fine` forms: a screen-space derivative
    /// (pixel shaders only).
    pub(super) fn derivative(&mut self, i: usize) -> R<()> {
        let (lanes, _) = self.lanes_of(i);
        let lanes = &lanes[..];
        let ins = self.m.ins(i);
        self.require_pixel(i)?;
        let (axis, ctrl) = match ins.opcode {
            Opcode::DERIV_RTX => (naga::DerivativeAxis::X, naga::DerivativeControl::None),
            Opcode::DERIV_RTY => (naga::DerivativeAxis::Y, naga::DerivativeControl::None),
            Opcode::DERIV_RTX_COARSE => (naga::DerivativeAxis::X, naga::DerivativeControl::Coarse),
            Opcode::DERIV_RTY_COARSE => (naga::DerivativeAxis::Y, naga::DerivativeControl::Coarse),
            Opcode::DERIV_RTX_FINE => (naga::DerivativeAxis::X, naga::DerivativeControl::Fine),
            _ => (naga::DerivativeAxis::Y, naga::DerivativeControl::Fine),
        };
        let a = self.src(i, 1, lanes)?;
        let v = self.b.expr(Expression::Derivative { axis, ctrl, expr: a });
        self.dst(i, lanes, v)
    }

    /// The lanes instruction `i` writes (its first operand's write mask; none for an instruction
    /// without operands) and their count (at least 1).
    pub(super) fn lanes_of(&self, i: usize) -> (Vec<u8>, usize) {
        let lanes = self.m.ins(i).operands.first().map(|o| mask_lanes(o.select.mask())).unwrap_or_default();
        let n = lanes.len().max(1);
        (lanes, n)
    }

    /// The scalar kind the opcode table gives operand `k` of instruction `i` (destinations first):
    /// `f` float, `i` signed, `u` unsigned, `c` (a raw-bits condition) unsigned.
    ///
    /// # Panics
    /// For an operand whose letter names no single kind (`x` untyped moves, resources): a
    /// lowering that calls this for one has a bug the table test would not catch.
    pub(super) fn operand_kind(&self, i: usize, k: usize) -> ScalarKind {
        let row = self.m.ins(i).opcode.info().expect("decoded opcodes have table rows");
        let letter = row.dst.chars().chain(row.src.chars()).nth(k);
        match letter {
            Some('f') => F,
            Some('i') => I,
            Some('u' | 'c') => U,
            other => unreachable!("`{}` operand {k} has type letter {other:?}, not a scalar kind", row.name),
        }
    }

    /// Reads source operand `k` of instruction `i` over `lanes`, typed by its row.
    pub(super) fn src(&mut self, i: usize, k: usize, lanes: &[u8]) -> R<E> {
        let kind = self.operand_kind(i, k);
        self.read(i, &self.m.ins(i).operands[k], lanes, kind)
    }

    /// Writes `v` to the destination (operand 0) of instruction `i` over `lanes`, typed by its
    /// row, with the instruction's `_sat`.
    pub(super) fn dst(&mut self, i: usize, lanes: &[u8], v: E) -> R<()> {
        let kind = self.operand_kind(i, 0);
        let ins = self.m.ins(i);
        self.write(i, &ins.operands[0], lanes, v, kind, ins.saturate)
    }

    /// `mov`: a copy in the destination register's storage type (float when `_sat` or a source
    /// modifier applies, which are float operations).
    pub(super) fn mov(&mut self, i: usize) -> R<()> {
        let (lanes, _) = self.lanes_of(i);
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let kind = if ins.saturate || ops[1].modifier != Modifier::None { F } else { self.dst_kind(&ops[0]) };
        let v = self.read(i, &ops[1], &lanes, kind)?;
        self.write(i, &ops[0], &lanes, v, kind, ins.saturate)
    }

    /// `movc`: a per-component select on the raw bits of the condition.
    pub(super) fn movc(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let kind = if ins.saturate || ops[2].modifier != Modifier::None || ops[3].modifier != Modifier::None {
            F
        } else {
            self.dst_kind(&ops[0])
        };
        let c = self.src(i, 1, &lanes)?;
        let z = self.b.u32(0);
        let z = self.b.splat(z, n);
        let cond = self.b.bin(B::NotEqual, c, z);
        let a = self.read(i, &ops[2], &lanes, kind)?;
        let b = self.read(i, &ops[3], &lanes, kind)?;
        let v = self.b.select(cond, a, b);
        self.write(i, &ops[0], &lanes, v, kind, ins.saturate)
    }

    /// `add`, `mul`, `div` (float), `and`, `or`, `xor` (`u32`) and `iadd` (`i32`, wrapping): one
    /// WGSL operator each, on the types the row gives.
    pub(super) fn binary(&mut self, i: usize) -> R<()> {
        let (lanes, _) = self.lanes_of(i);
        let a = self.src(i, 1, &lanes)?;
        let b = self.src(i, 2, &lanes)?;
        let op = match self.m.ins(i).opcode {
            Opcode::ADD | Opcode::IADD => B::Add,
            Opcode::MUL => B::Multiply,
            Opcode::DIV => B::Divide,
            Opcode::AND => B::And,
            Opcode::OR => B::InclusiveOr,
            _ => B::ExclusiveOr,
        };
        let v = self.b.bin(op, a, b);
        self.dst(i, &lanes, v)
    }

    /// `mad`, `imad`, `umad`: `a * b + c` in the row's type (unfused, as D3D allows).
    pub(super) fn multiply_add(&mut self, i: usize) -> R<()> {
        let (lanes, _) = self.lanes_of(i);
        let a = self.src(i, 1, &lanes)?;
        let b = self.src(i, 2, &lanes)?;
        let c = self.src(i, 3, &lanes)?;
        let m = self.b.bin(B::Multiply, a, b);
        let v = self.b.bin(B::Add, m, c);
        self.dst(i, &lanes, v)
    }

    /// `min`, `max`, with D3D's rule for a NaN operand ([`Cx::min_max`]).
    pub(super) fn float_min_max(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let a = self.src(i, 1, &lanes)?;
        let b = self.src(i, 2, &lanes)?;
        let fun = if self.m.ins(i).opcode == Opcode::MIN { M::Min } else { M::Max };
        let v = self.min_max(fun, a, b, n);
        self.dst(i, &lanes, v)
    }

    /// `dp2`, `dp3`, `dp4`: the dot product of the first 2, 3 or 4 components, in every written
    /// lane.
    pub(super) fn dot(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let k = match self.m.ins(i).opcode {
            Opcode::DP2 => 2,
            Opcode::DP3 => 3,
            _ => 4,
        };
        let comps: Vec<u8> = (0..k).collect();
        let a = self.src(i, 1, &comps)?;
        let b = self.src(i, 2, &comps)?;
        let d = self.b.math(M::Dot, &[a, b]);
        let v = self.b.splat(d, n);
        self.dst(i, &lanes, v)
    }

    /// `exp`, `log`, `sqrt`, `rsq`, `frc` and the four roundings: one WGSL math function each.
    pub(super) fn float_unary(&mut self, i: usize) -> R<()> {
        let (lanes, _) = self.lanes_of(i);
        let fun = match self.m.ins(i).opcode {
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
        let a = self.src(i, 1, &lanes)?;
        let v = self.b.math(fun, &[a]);
        self.dst(i, &lanes, v)
    }

    /// `rcp`: `1.0 / x`.
    pub(super) fn reciprocal(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let a = self.src(i, 1, &lanes)?;
        let one = self.b.f32(1.0);
        let one = self.b.splat(one, n);
        let v = self.b.bin(B::Divide, one, a);
        self.dst(i, &lanes, v)
    }

    /// `ieq`, `ine`, `ilt`, `ige`, `ult`, `uge`: an integer comparison (signed or unsigned as
    /// the row types the sources) as a `0xFFFFFFFF`/0 mask.
    pub(super) fn int_compare(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let a = self.src(i, 1, &lanes)?;
        let b = self.src(i, 2, &lanes)?;
        let op = match self.m.ins(i).opcode {
            Opcode::IEQ => B::Equal,
            Opcode::INE => B::NotEqual,
            Opcode::ILT | Opcode::ULT => B::Less,
            _ => B::GreaterEqual,
        };
        let c = self.b.bin(op, a, b);
        let v = self.mask_of(c, n);
        self.dst(i, &lanes, v)
    }

    /// `not` (bitwise) and `ineg` (two's complement).
    pub(super) fn int_unary(&mut self, i: usize) -> R<()> {
        let (lanes, _) = self.lanes_of(i);
        let a = self.src(i, 1, &lanes)?;
        let op = if self.m.ins(i).opcode == Opcode::NOT { UnaryOperator::BitwiseNot } else { UnaryOperator::Negate };
        let v = self.b.expr(Expression::Unary { op, expr: a });
        self.dst(i, &lanes, v)
    }

    /// `imax`, `imin`, `umax`, `umin`.
    pub(super) fn int_min_max(&mut self, i: usize) -> R<()> {
        let (lanes, _) = self.lanes_of(i);
        let a = self.src(i, 1, &lanes)?;
        let b = self.src(i, 2, &lanes)?;
        let fun = if matches!(self.m.ins(i).opcode, Opcode::IMAX | Opcode::UMAX) { M::Max } else { M::Min };
        let v = self.b.math(fun, &[a, b]);
        self.dst(i, &lanes, v)
    }

    /// `ishl`, `ishr` (arithmetic), `ushr` (logical): D3D uses the low 5 bits of the count.
    pub(super) fn shift(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let a = self.src(i, 1, &lanes)?;
        let s = self.src(i, 2, &lanes)?;
        let m31 = self.b.u32(31);
        let m31 = self.b.splat(m31, n);
        let s = self.b.bin(B::And, s, m31);
        let op = if self.m.ins(i).opcode == Opcode::ISHL { B::ShiftLeft } else { B::ShiftRight };
        let v = self.b.bin(op, a, s);
        self.dst(i, &lanes, v)
    }

    /// `itof`, `utof`: round to nearest.
    pub(super) fn int_to_float(&mut self, i: usize) -> R<()> {
        let (lanes, _) = self.lanes_of(i);
        let a = self.src(i, 1, &lanes)?;
        let v = self.b.convert(a, F);
        self.dst(i, &lanes, v)
    }

    /// `ftoi`, `ftou`: toward zero, NaN → 0, out-of-range values clamped ([`Cx::float_to_int`]).
    pub(super) fn float_to_int_op(&mut self, i: usize) -> R<()> {
        let (lanes, n) = self.lanes_of(i);
        let a = self.src(i, 1, &lanes)?;
        let v = self.float_to_int(a, n, self.operand_kind(i, 0) == I);
        self.dst(i, &lanes, v)
    }

    /// `bfrev`, `countbits`, `firstbit_lo`: one WGSL bit function each.
    pub(super) fn bit_unary(&mut self, i: usize) -> R<()> {
        let (lanes, _) = self.lanes_of(i);
        let fun = match self.m.ins(i).opcode {
            Opcode::BFREV => M::ReverseBits,
            Opcode::COUNTBITS => M::CountOneBits,
            _ => M::FirstTrailingBit,
        };
        let a = self.src(i, 1, &lanes)?;
        let v = self.b.math(fun, &[a]);
        self.dst(i, &lanes, v)
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
    pub(super) fn saturate(&mut self, v: E, n: usize) -> E {
        let s = self.b.math(M::Saturate, &[v]);
        let nan = self.is_nan(v, n);
        let z = self.b.f32(0.0);
        let z = self.b.splat(z, n);
        self.b.select(nan, z, s)
    }

    /// `0xFFFFFFFF` where `cond`, else 0.
    pub(super) fn mask_of(&mut self, cond: E, n: usize) -> E {
        let t = self.b.u32(u32::MAX);
        let t = self.b.splat(t, n);
        let f = self.b.u32(0);
        let f = self.b.splat(f, n);
        self.b.select(cond, t, f)
    }

    /// D3D float min/max: a NaN operand yields the other operand.
    pub(super) fn min_max(&mut self, fun: M, a: E, b: E, n: usize) -> E {
        let r = self.b.math(fun, &[a, b]);
        let an = self.is_nan(a, n);
        let bn = self.is_nan(b, n);
        let r = self.b.select(bn, a, r);
        self.b.select(an, b, r)
    }

    /// Builds a vector from per-component scalars.
    fn per_component(&mut self, n: usize, mut f: impl FnMut(&mut Self, u32) -> E, kind: ScalarKind) -> E {
        let parts: Vec<E> = (0..n as u32).map(|k| f(self, k)).collect();
        let ty = self.ty(kind, n);
        self.b.compose(ty, parts)
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
    pub(super) fn float_to_int(&mut self, a: E, n: usize, signed: bool) -> E {
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
}
