//! Operands and numbers as fxc prints them.

use super::{Disasm, ImmKind};
use crate::sm4::operand::{ComponentSelect, Index, Modifier, Operand, OperandType};
use std::fmt::Write as _;

pub(super) fn mask_letters(m: u8) -> String {
    "xyzw".chars().enumerate().filter(|(i, _)| m & (1 << i) != 0).map(|(_, c)| c).collect()
}

const COMPONENT: [char; 4] = ['x', 'y', 'z', 'w'];

/// Formats a 32-bit float as fxc's `%f` does: 6 decimals of the exact value, correctly rounded
/// with exact ties to even (`18.8515625` prints `18.851562`, as current D3DCompiler builds do;
/// older ones linked a C runtime that rounded such ties away from zero); `inf`, `nan` for the
/// specials.
pub(super) fn float_text(bits: u32) -> String {
    double_text((f32::from_bits(bits) as f64).to_bits())
}

pub(super) fn double_text(bits: u64) -> String {
    let f = f64::from_bits(bits);
    if f.is_nan() {
        return if bits >> 63 != 0 { "-nan".into() } else { "nan".into() };
    }
    if f.is_infinite() {
        return if f < 0.0 { "-inf".into() } else { "inf".into() };
    }
    // The exact decimal expansion (every f64 has at most 1074 fractional digits), then
    // round at the sixth decimal, exact ties to even.
    let exact = format!("{:.1074}", f.abs());
    let (int_part, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let mut digits: Vec<u8> = int_part.bytes().chain(frac.bytes().take(6)).collect();
    let rest = frac.as_bytes().get(6..).unwrap_or(&[]);
    let round_up = match rest.first() {
        Some(&d) if d > b'5' => true,
        Some(b'5') => rest[1..].iter().any(|&d| d != b'0') || digits.last().is_some_and(|&d| (d - b'0') % 2 == 1),
        _ => false,
    };
    if round_up {
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, b'1');
                break;
            }
            i -= 1;
            if digits[i] == b'9' {
                digits[i] = b'0';
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    let split = digits.len() - 6;
    let sign = if f.is_sign_negative() { "-" } else { "" };
    format!("{sign}{}.{}", String::from_utf8_lossy(&digits[..split]), String::from_utf8_lossy(&digits[split..]))
}

/// Integers: decimal when the signed value is within ±10000, otherwise eight hex digits.
pub(super) fn int_text(bits: u32) -> String {
    let i = bits as i32;
    if i.unsigned_abs() <= 10000 {
        i.to_string()
    } else {
        format!("0x{bits:08x}")
    }
}

/// Untyped 32-bit values (moves, immediate constant buffers): a normal float or `-0.0` prints as a
/// float, anything else (zero, denormal or NaN/infinity patterns) as an integer.
pub(super) fn untyped_text(bits: u32) -> String {
    let exponent = (bits >> 23) & 0xff;
    if bits == 0x8000_0000 || (exponent != 0 && exponent != 0xff) {
        float_text(bits)
    } else {
        int_text(bits)
    }
}

impl Disasm {
    /// Writes one operand. `decl` suppresses the component selection (declarations of
    /// resources, samplers and constant buffers name the register only).
    pub(super) fn operand(&self, op: &Operand, kind: ImmKind, spaced: bool, decl: bool) -> String {
        let mut s = String::new();
        match op.modifier {
            Modifier::None => {}
            Modifier::Neg => s.push('-'),
            Modifier::Abs => s.push('|'),
            Modifier::AbsNeg => s.push_str("-|"),
        }
        match op.ty {
            OperandType::Immediate32 => {
                let sep = if spaced { ", " } else { "," };
                let vals: Vec<String> = op
                    .imm
                    .iter()
                    .map(|&b| match kind {
                        ImmKind::Float => float_text(b),
                        ImmKind::Untyped => untyped_text(b),
                        ImmKind::Int | ImmKind::Double => int_text(b),
                    })
                    .collect();
                let _ = write!(s, "l({})", vals.join(sep));
            }
            OperandType::Immediate64 => {
                let vals: Vec<String> = op
                    .imm
                    .chunks(2)
                    .map(|p| {
                        let bits = p[0] as u64 | (p.get(1).copied().unwrap_or(0) as u64) << 32;
                        if kind == ImmKind::Double {
                            format!("{}l", double_text(bits))
                        } else {
                            bits.to_string()
                        }
                    })
                    .collect();
                let _ = write!(s, "d({})", vals.join(", "));
            }
            _ => {
                s.push_str(&self.register(op));
                if !decl {
                    s.push_str(&selection_text(&op.select));
                }
            }
        }
        // Minimum precision sits inside the absolute-value bars (`|r2.xyzw {min16f}|`); an
        // immediate says which precision its 32-bit value stands for.
        if let Some(p) = min_precision_text(op.min_precision) {
            if matches!(op.ty, OperandType::Immediate32 | OperandType::Immediate64) {
                let _ = write!(s, " {{def32 as {p}}}");
            } else {
                let _ = write!(s, " {{{p}}}");
            }
        }
        match op.modifier {
            Modifier::Abs | Modifier::AbsNeg => s.push('|'),
            _ => {}
        }
        if op.nonuniform {
            s.push_str(" {nonuniform}");
        }
        s
    }

    /// The register name and its indices (no component selection).
    pub(super) fn register(&self, op: &Operand) -> String {
        use OperandType as T;
        let upper = self.sm51();
        let name: &str = match op.ty {
            T::Temp => "r",
            T::Input => "v",
            T::Output => "o",
            T::IndexableTemp => "x",
            T::Sampler => {
                if upper {
                    "S"
                } else {
                    "s"
                }
            }
            T::Resource => {
                if upper {
                    "T"
                } else {
                    "t"
                }
            }
            T::ConstantBuffer => {
                if upper {
                    "CB"
                } else {
                    "cb"
                }
            }
            T::ImmediateConstantBuffer => "icb",
            T::Label => "l",
            T::InputPrimitiveId => "vPrim",
            T::OutputDepth => "oDepth",
            T::Null => "null",
            T::Rasterizer => "rasterizer",
            T::OutputCoverageMask => "oMask",
            T::Stream => "m",
            T::FunctionBody => "fb",
            T::FunctionTable => "ft",
            T::Interface => "fp",
            T::FunctionInput => "fi",
            T::FunctionOutput => "fo",
            T::OutputControlPointId => "vOutputControlPointID",
            T::InputForkInstanceId => "vForkInstanceID",
            T::InputJoinInstanceId => "vJoinInstanceID",
            T::InputControlPoint => "vicp",
            T::OutputControlPoint => "vocp",
            T::InputPatchConstant => "vpc",
            T::InputDomainPoint => "vDomain",
            T::ThisPointer => "this",
            T::UnorderedAccessView => {
                if upper {
                    "U"
                } else {
                    "u"
                }
            }
            T::ThreadGroupSharedMemory => "g",
            T::InputThreadId => "vThreadID",
            T::InputThreadGroupId => "vThreadGroupID",
            T::InputThreadIdInGroup => "vThreadIDInGroup",
            T::InputCoverageMask => "vCoverage",
            T::InputThreadIdInGroupFlattened => "vThreadIDInGroupFlattened",
            T::InputGsInstanceId => "vGSInstanceID",
            T::OutputDepthGreaterEqual => "oDepthGE",
            T::OutputDepthLessEqual => "oDepthLE",
            T::CycleCounter => "vCycleCounter",
            T::OutputStencilRef => "oStencilRef",
            T::InnerCoverage => "vInnerCoverage",
            T::Immediate32 | T::Immediate64 => "l",
        };
        let mut s = String::from(name);
        // Classes that are arrays as a whole keep every index in brackets.
        let bracket_all =
            matches!(op.ty, T::ImmediateConstantBuffer | T::InputControlPoint | T::OutputControlPoint | T::ThisPointer)
                || (op.ty == T::Input && op.indices.len() >= 2)
                || op.indices.first().is_some_and(Index::is_relative);
        for (i, idx) in op.indices.iter().enumerate() {
            if i == 0 && !bracket_all {
                let _ = write!(s, "{}", idx.imm());
            } else {
                let _ = write!(s, "[{}]", self.index_text(idx));
            }
        }
        s
    }

    pub(super) fn index_text(&self, idx: &Index) -> String {
        match idx {
            Index::Imm(v) => v.to_string(),
            Index::Imm64(v) => v.to_string(),
            Index::Relative { base, reg } => {
                format!("{} + {}", self.operand(reg, ImmKind::Int, true, false), base)
            }
        }
    }
}

fn selection_text(sel: &ComponentSelect) -> String {
    match *sel {
        ComponentSelect::None | ComponentSelect::Scalar => String::new(),
        ComponentSelect::Mask(m) => {
            if m == 0 {
                String::new()
            } else {
                format!(".{}", mask_letters(m))
            }
        }
        ComponentSelect::Swizzle(s) => {
            let mut t = String::from(".");
            for c in s {
                t.push(COMPONENT[c as usize & 3]);
            }
            t
        }
        ComponentSelect::Select1(c) => format!(".{}", COMPONENT[c as usize & 3]),
    }
}

fn min_precision_text(p: u8) -> Option<&'static str> {
    match p {
        1 => Some("min16f"),
        2 => Some("min2_8f"),
        4 => Some("min16i"),
        5 => Some("min16u"),
        _ => None,
    }
}
