//! Disassembler in fxc's listing syntax (the program part of `fxc /Fc` and `D3DDisassemble`).
//!
//! The output is checked token by token against Microsoft's own listings for every corpus blob
//! that has one (`tests/disasm/fxc.rs`). The rules, learned from those listings:
//!
//! - One line per declaration or instruction; the body of `if`/`else`/`loop`/`switch` blocks is
//!   indented by two spaces per level.
//! - Mnemonic suffixes in this order: `_aoffimmi` (texel offsets), `_indexable` (extended resource
//!   dimension), `(u,v,w)` offsets, `(dimension[, stride=N])`, `(ret,ret,ret,ret)` return types,
//!   the opcode's own suffix (`_uint`, `_rcpFloat`, `_nz`/`_z`), then `_sat`, then ` [precise]`.
//! - Registers: the first index is written after the class name (`r0`, `cb0[12]`, `x0[r1.w + 0]`)
//!   except for classes that are arrays as a whole (`icb[...]`, `vicp[..][..]`, geometry-shader
//!   inputs `v[3][0]`) and relative first indices. SM5.1 resource ranges are upper case
//!   (`CB0[0][1]`, `T0[0]`, `S0[0]`, `U0[0]`); SM4/SM5.0 constant-buffer declarations are `CB0[n]`.
//! - Immediates print by the operand's type letter in the opcode table: floats as `%f`,
//!   integers (`i`, `u`, addresses, conditions) as decimal when `|v| <= 10000` and `0x%08x`
//!   otherwise, and untyped moves (`x`) as a float when the bit pattern is a normal float (or
//!   `-0.0`) and as an integer otherwise (zero, denormal-looking small integers, NaN-pattern
//!   negatives such as `-1`). Untyped immediate vectors have no space after their commas.
//!   Double immediates are `d(1.500000l, 0.000000l)`.
//! - `dcl_immediateConstantBuffer` comes from `customdata` class 3, one `{ a, b, c, d}` row per
//!   line, its values printed like untyped immediates.
//!
//! The module prints instructions here, operands and numbers in `operand.rs`, declarations
//! (from their typed [`Declaration`](super::Declaration)s) in `decl.rs`, and fxc's signature
//! tables in `signature.rs`.

mod decl;
mod operand;
mod signature;
#[cfg(test)]
mod tests;

pub use signature::{signature_fields, signature_table, SignatureFields};

use super::decode::{Instruction, Program};
use super::opcodes::{Form, Opcode};
use super::ShaderVersion;
use decl::{resource_dimension_name, return_types};
use operand::mask_letters;
use std::fmt::Write as _;

/// Disassembles a program in fxc's listing syntax (one instruction per line, starting with the
/// `ps_4_0`-style version line, ending with a newline).
pub fn disassemble(program: &Program) -> String {
    let v = &program.version;
    let mut out = format!("{}_{}_{}\n", v.stage.prefix(), v.major, v.minor);
    let mut depth = 0usize;
    for ins in &program.instructions {
        let text = disassemble_instruction(v, ins);
        if text.is_empty() {
            continue;
        }
        match ins.opcode {
            Opcode::ELSE | Opcode::ENDIF | Opcode::ENDLOOP | Opcode::ENDSWITCH => depth = depth.saturating_sub(1),
            _ => {}
        }
        for line in text.lines() {
            // Indentation stops growing past 64 levels (D3D's nesting limit), so hostile nesting
            // cannot make the listing grow quadratically.
            for _ in 0..depth.min(64) {
                out.push_str("  ");
            }
            out.push_str(line);
            out.push('\n');
        }
        match ins.opcode {
            Opcode::IF | Opcode::ELSE | Opcode::LOOP | Opcode::SWITCH => depth += 1,
            _ => {}
        }
    }
    out
}

/// Disassembles one instruction or declaration (without indentation). Most yield one line;
/// `dcl_immediateConstantBuffer` yields one line per row; `customdata` blocks other than the
/// immediate constant buffer (comments, debug info) yield an empty string.
pub fn disassemble_instruction(version: &ShaderVersion, ins: &Instruction) -> String {
    let mut d = Disasm { version: *version, out: String::new() };
    d.instruction(ins);
    d.out
}

struct Disasm {
    version: ShaderVersion,
    out: String,
}

/// How the immediates of one operand are printed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ImmKind {
    Float,
    Int,
    Untyped,
    Double,
}

impl Disasm {
    fn sm51(&self) -> bool {
        self.version.is_sm51()
    }

    fn instruction(&mut self, ins: &Instruction) {
        let Some(info) = ins.opcode.info() else {
            let _ = write!(self.out, "unknown_opcode_{}", ins.opcode.0);
            return;
        };
        if let Some(decl) = ins.declaration() {
            self.declaration(ins.opcode, decl);
            return;
        }
        match info.form {
            // Only a hand-built instruction lacks its declaration.
            Form::Decl { .. } | Form::Raw => self.out.push_str(info.name),
            Form::CustomData => {}
            Form::InterfaceCall => {
                self.out.push_str("fcall ");
                if let Some(op) = ins.operands.first() {
                    let base = op.reg();
                    let array = op.indices.get(1).map(|i| self.index_text(i)).unwrap_or_else(|| "0".into());
                    let call = ins.values.first().copied().unwrap_or(0);
                    let _ = write!(self.out, "fp{base}[{array}][{call}]");
                }
            }
            Form::Inst => self.plain_instruction(ins, info.dst, info.src),
        }
    }

    fn mnemonic(&self, ins: &Instruction) -> String {
        let op = ins.opcode;
        let mut m = String::from(op.name());
        if op == Opcode::SYNC {
            // Bits 11-14: threads in group, TGSM, UAV group, UAV global.
            let c = ins.control;
            if c & 8 != 0 {
                m.push_str("_uglobal");
            } else if c & 4 != 0 {
                m.push_str("_ugroup");
            }
            if c & 2 != 0 {
                m.push_str("_g");
            }
            if c & 1 != 0 {
                m.push_str("_t");
            }
            return m;
        }
        if ins.texel_offset.is_some() {
            m.push_str("_aoffimmi");
        }
        if ins.ext_resource_dim.is_some() {
            m.push_str("_indexable");
        }
        if let Some([u, v, w]) = ins.texel_offset {
            let _ = write!(m, "({u},{v},{w})");
        }
        if let Some((dim, stride)) = ins.ext_resource_dim {
            let _ = write!(m, "({}", resource_dimension_name(dim));
            if stride != 0 {
                let _ = write!(m, ", stride={stride}");
            }
            m.push(')');
        }
        if let Some(t) = &ins.ext_return_type {
            m.push_str(&return_types(t));
        }
        match op {
            Opcode::RESINFO => match ins.control & 3 {
                1 => m.push_str("_rcpFloat"),
                2 => m.push_str("_uint"),
                _ => {}
            },
            Opcode::SAMPLE_INFO if ins.control & 1 != 0 => m.push_str("_uint"),
            Opcode::IF | Opcode::BREAKC | Opcode::CONTINUEC | Opcode::RETC | Opcode::DISCARD | Opcode::CALLC => {
                m.push_str(if ins.test_nonzero { "_nz" } else { "_z" });
            }
            _ => {}
        }
        if ins.saturate {
            m.push_str("_sat");
        }
        if self.version.major >= 5 && ins.precise != 0 {
            if ins.precise == 0xf {
                m.push_str(" [precise]");
            } else {
                let _ = write!(m, " [precise({})]", mask_letters(ins.precise));
            }
        }
        m
    }

    fn plain_instruction(&mut self, ins: &Instruction, dst: &str, src: &str) {
        let m = self.mnemonic(ins);
        self.out.push_str(&m);
        // fxc writes a space after the mnemonic even when no operand follows (`ret `).
        self.out.push(' ');
        let letters: Vec<char> = dst.chars().chain(src.chars()).collect();
        let spaced = !src.contains('x');
        for (i, op) in ins.operands.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let kind = match letters.get(i).copied().unwrap_or('x') {
                'f' => ImmKind::Float,
                'd' => ImmKind::Double,
                'x' => ImmKind::Untyped,
                _ => ImmKind::Int,
            };
            let text = self.operand(op, kind, spaced, false);
            self.out.push_str(&text);
        }
    }
}

/// The stage's prefix and model as fxc writes the version line (`ps_5_0`).
pub fn version_line(version: &ShaderVersion) -> String {
    format!("{}_{}_{}", version.stage.prefix(), version.major, version.minor)
}
