//! Disassembler in fxc's listing syntax (the program part of `fxc /Fc` and `D3DDisassemble`).
//!
//! The output is checked token by token against Microsoft's own listings for every corpus blob
//! that has one (`tests/tests/disasm_fxc.rs`). The rules, learned from those listings:
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

use super::decode::{CustomData, Instruction, Program};
use super::opcodes::{Form, Opcode};
use super::operand::{ComponentSelect, Index, Modifier, Operand, OperandType};
use super::ShaderVersion;
use crate::chunks::signature::{ComponentType, Signature, SignatureElement};
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

/// Writes a signature in the table layout of fxc's listing header (`// Name Index Mask ...`
/// rows, without the `// ` prefix), one element per line. `is_output` selects how the "Used"
/// column reads the element's read/write mask: inputs list the components the shader reads,
/// outputs the components it always writes (the chunk stores the ones it never writes).
pub fn signature_table(sig: &Signature, is_output: bool) -> String {
    let mut out = String::new();
    out.push_str("Name                 Index   Mask Register SysValue  Format   Used\n");
    out.push_str("-------------------- ----- ------ -------- -------- ------- ------\n");
    for e in &sig.elements {
        let f = signature_fields(e, is_output);
        let _ = writeln!(
            out,
            "{:<20} {:>5}   {:<4} {:>8} {:>8} {:>7}   {:<4}",
            f.name, f.index, f.mask, f.register, f.system_value, f.format, f.used
        );
    }
    out
}

/// One row of an fxc signature table, as fxc prints each column (trimmed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureFields {
    /// Semantic name.
    pub name: String,
    /// Semantic index.
    pub index: String,
    /// Declared mask, positional (`xy  `, `  zw`), or `N/A`.
    pub mask: String,
    /// Register number, or the register name for elements without one (`oDepth`).
    pub register: String,
    /// System-value abbreviation (`NONE`, `POS`, `TARGET`, ...).
    pub system_value: String,
    /// Component type (`float`, `uint`, `int`).
    pub format: String,
    /// Used components, positional, or `YES`/`NO` for elements without a register.
    pub used: String,
}

/// The columns fxc prints for one signature element (see [`signature_table`]).
pub fn signature_fields(e: &SignatureElement, is_output: bool) -> SignatureFields {
    let used_mask = if is_output { e.mask & !e.rw_mask & 0xf } else { e.rw_mask & 0xf };
    let no_register = e.register == u32::MAX;
    let register = if no_register {
        match e.system_value {
            65 => "oDepth".to_string(),
            66 => "oMask".to_string(),
            67 => "oDepthGE".to_string(),
            68 => "oDepthLE".to_string(),
            69 => "oStencilRef".to_string(),
            _ => "N/A".to_string(),
        }
    } else {
        e.register.to_string()
    };
    SignatureFields {
        name: e.semantic_name.clone(),
        index: e.semantic_index.to_string(),
        mask: if no_register { "N/A".into() } else { positional_mask(e.mask) },
        register,
        system_value: system_value_abbrev(effective_system_value(e)),
        format: match e.component_type {
            ComponentType::Uint32 => "uint".into(),
            ComponentType::Sint32 => "int".into(),
            ComponentType::Float32 => "float".into(),
            ComponentType::Unknown => "N/A".into(),
            ComponentType::Other(v) => format!("type{v}"),
        },
        used: if no_register {
            if used_mask != 0 || is_output {
                "YES".into()
            } else {
                "NO".into()
            }
        } else {
            positional_mask(used_mask)
        },
    }
}

/// The chunk stores 0 (undefined) for pixel-shader outputs such as `SV_Target` and `SV_Depth`;
/// fxc names them from the semantic.
fn effective_system_value(e: &SignatureElement) -> u32 {
    if e.system_value != 0 {
        return e.system_value;
    }
    match e.semantic_name.to_ascii_lowercase().as_str() {
        "sv_target" => 64,
        "sv_depth" => 65,
        "sv_coverage" => 66,
        "sv_depthgreaterequal" => 67,
        "sv_depthlessequal" => 68,
        "sv_stencilref" => 69,
        "sv_innercoverage" => 70,
        _ => 0,
    }
}

fn positional_mask(m: u8) -> String {
    "xyzw".chars().enumerate().map(|(i, c)| if m & (1 << i) != 0 { c } else { ' ' }).collect()
}

/// fxc's abbreviation of a `D3D_NAME` system value in signature tables.
fn system_value_abbrev(v: u32) -> String {
    match v {
        0 => "NONE",
        1 => "POS",
        2 => "CLIPDST",
        3 => "CULLDST",
        4 => "RTINDEX",
        5 => "VPINDEX",
        6 => "VERTID",
        7 => "PRIMID",
        8 => "INSTID",
        9 => "FFACE",
        10 => "SAMPLE",
        11 | 13 | 17..=19 => "TRIEDGE",
        12 | 14 => "QUADEDGE",
        15 | 16 => "QUADINT",
        20 => "TRIINT",
        21 => "LINEDET",
        22 => "LINEDEN",
        23 => "BARYCEN",
        24 => "SHDINGRT",
        25 => "CULLPRIM",
        64 => "TARGET",
        65 => "DEPTH",
        66 => "COVERAGE",
        67 => "DEPTHGE",
        68 => "DEPTHLE",
        69 => "STENCILREF",
        70 => "INNERCOV",
        other => return format!("SV{other}"),
    }
    .to_string()
}

/// The `D3D10_SB_NAME` name fxc prints in `dcl_*_siv`/`_sgv` declarations.
fn system_value_name(v: u32) -> String {
    match v {
        0 => "undefined",
        1 => "position",
        2 => "clip_distance",
        3 => "cull_distance",
        4 => "rendertarget_array_index",
        5 => "viewport_array_index",
        6 => "vertex_id",
        7 => "primitive_id",
        8 => "instance_id",
        9 => "is_front_face",
        10 => "sampleIndex",
        11 => "finalQuadUeq0EdgeTessFactor",
        12 => "finalQuadVeq0EdgeTessFactor",
        13 => "finalQuadUeq1EdgeTessFactor",
        14 => "finalQuadVeq1EdgeTessFactor",
        15 => "finalQuadUInsideTessFactor",
        16 => "finalQuadVInsideTessFactor",
        17 => "finalTriUeq0EdgeTessFactor",
        18 => "finalTriVeq0EdgeTessFactor",
        19 => "finalTriWeq0EdgeTessFactor",
        20 => "finalTriInsideTessFactor",
        21 => "finalLineDetailTessFactor",
        22 => "finalLineDensityTessFactor",
        other => return format!("name{other}"),
    }
    .to_string()
}

fn resource_dimension_name(v: u32) -> &'static str {
    match v {
        1 => "buffer",
        2 => "texture1d",
        3 => "texture2d",
        4 => "texture2dms",
        5 => "texture3d",
        6 => "texturecube",
        7 => "texture1darray",
        8 => "texture2darray",
        9 => "texture2dmsarray",
        10 => "texturecubearray",
        11 => "raw_buffer",
        12 => "structured_buffer",
        _ => "unknown",
    }
}

fn return_type_name(v: u8) -> &'static str {
    match v {
        1 => "unorm",
        2 => "snorm",
        3 => "sint",
        4 => "uint",
        5 => "float",
        6 => "mixed",
        7 => "double",
        8 => "continued",
        9 => "unused",
        _ => "unknown",
    }
}

fn return_types(t: &[u8; 4]) -> String {
    format!(
        "({},{},{},{})",
        return_type_name(t[0]),
        return_type_name(t[1]),
        return_type_name(t[2]),
        return_type_name(t[3])
    )
}

fn mask_letters(m: u8) -> String {
    "xyzw".chars().enumerate().filter(|(i, _)| m & (1 << i) != 0).map(|(_, c)| c).collect()
}

const COMPONENT: [char; 4] = ['x', 'y', 'z', 'w'];

/// Formats a 32-bit float as fxc's `%f` does: 6 decimals of the exact value, correctly rounded
/// with exact ties to even (`18.8515625` prints `18.851562`, as current D3DCompiler builds do;
/// older ones linked a C runtime that rounded such ties away from zero); `inf`, `nan` for the
/// specials.
fn float_text(bits: u32) -> String {
    double_text((f32::from_bits(bits) as f64).to_bits())
}

fn double_text(bits: u64) -> String {
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
fn int_text(bits: u32) -> String {
    let i = bits as i32;
    if i.unsigned_abs() <= 10000 {
        i.to_string()
    } else {
        format!("0x{bits:08x}")
    }
}

/// Untyped 32-bit values (moves, immediate constant buffers): a normal float or `-0.0` prints as a
/// float, anything else (zero, denormal or NaN/infinity patterns) as an integer.
fn untyped_text(bits: u32) -> String {
    let exponent = (bits >> 23) & 0xff;
    if bits == 0x8000_0000 || (exponent != 0 && exponent != 0xff) {
        float_text(bits)
    } else {
        int_text(bits)
    }
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
        if let Some(custom) = &ins.custom {
            self.custom_data(custom);
            return;
        }
        match info.form {
            Form::Decl { .. } | Form::Raw => self.declaration(ins),
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
            let _ = write!(m, "({}", resource_dimension_name(dim as u32));
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

    /// Writes one operand. `decl` suppresses the component selection (declarations of
    /// resources, samplers and constant buffers name the register only).
    fn operand(&self, op: &Operand, kind: ImmKind, spaced: bool, decl: bool) -> String {
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
    fn register(&self, op: &Operand) -> String {
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

    fn index_text(&self, idx: &Index) -> String {
        match idx {
            Index::Imm(v) => v.to_string(),
            Index::Imm64(v) => v.to_string(),
            Index::Relative { base, reg } => {
                format!("{} + {}", self.operand(reg, ImmKind::Int, true, false), base)
            }
        }
    }

    fn custom_data(&mut self, c: &CustomData) {
        if c.class != 3 {
            return;
        }
        const HEAD: &str = "dcl_immediateConstantBuffer { ";
        self.out.push_str(HEAD);
        let rows: Vec<&[u32]> = c.data.chunks(4).collect();
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                self.out.push_str(",\n");
                self.out.push_str(&" ".repeat(HEAD.len()));
            }
            let vals: Vec<String> = row.iter().map(|&b| untyped_text(b)).collect();
            let _ = write!(self.out, "{{ {}}}", vals.join(", "));
        }
        self.out.push_str(" }");
    }

    /// The register of a declaration's first operand, without component selection.
    fn decl_register(&self, ins: &Instruction) -> String {
        ins.operands.first().map(|op| self.operand(op, ImmKind::Int, true, true)).unwrap_or_default()
    }

    /// The register of a declaration's first operand, with its mask (inputs, outputs).
    fn decl_register_masked(&self, ins: &Instruction) -> String {
        ins.operands.first().map(|op| self.operand(op, ImmKind::Int, true, false)).unwrap_or_default()
    }

    /// An SM5.1 resource range operand `T0[lo:hi]` (indices: id, first, last).
    fn range_register(&self, ins: &Instruction) -> String {
        let Some(op) = ins.operands.first() else {
            return String::new();
        };
        let mut s = self.register(&Operand { indices: op.indices.iter().take(1).cloned().collect(), ..op.clone() });
        let lo = op.indices.get(1).map(Index::imm).unwrap_or(0);
        let hi = op.indices.get(2).map(Index::imm).unwrap_or(0);
        if hi == u32::MAX {
            let _ = write!(s, "[{lo}:*]");
        } else {
            let _ = write!(s, "[{lo}:{hi}]");
        }
        s
    }

    /// Register of a resource/sampler/UAV/constant-buffer declaration, and the `, space=N`
    /// suffix in SM5.1.
    fn resource_register(&self, ins: &Instruction, space_at: usize) -> (String, String) {
        if self.sm51() {
            let space = ins.values.get(space_at).copied().unwrap_or(0);
            (self.range_register(ins), format!(", space={space}"))
        } else {
            (self.decl_register(ins), String::new())
        }
    }

    fn declaration(&mut self, ins: &Instruction) {
        let op = ins.opcode;
        let name = op.name();
        let c = ins.control;
        let v = |i: usize| ins.values.get(i).copied().unwrap_or(0);
        let text = match op {
            Opcode::DCL_GLOBAL_FLAGS => {
                const FLAGS: [&str; 9] = [
                    "refactoringAllowed",
                    "enableDoublePrecisionFloatOps",
                    "forceEarlyDepthStencil",
                    "enableRawAndStructuredBuffers",
                    "skipOptimization",
                    "enableMinimumPrecision",
                    "enable11_1DoubleExtensions",
                    "enable11_1ShaderExtensions",
                    "allResourcesBound",
                ];
                let set: Vec<&str> =
                    FLAGS.iter().enumerate().filter(|(i, _)| c & (1 << i) != 0).map(|(_, f)| *f).collect();
                format!("{name} {}", set.join(" | "))
            }
            Opcode::DCL_CONSTANT_BUFFER => {
                let access = if c & 1 != 0 { "dynamicIndexed" } else { "immediateIndexed" };
                if self.sm51() {
                    format!("{name} {}[{}], {access}, space={}", self.range_register(ins), v(0), v(1))
                } else {
                    let o = ins.operands.first();
                    let reg = o.map(Operand::reg).unwrap_or(0);
                    let size = o.and_then(|o| o.indices.get(1)).map(Index::imm).unwrap_or(0);
                    format!("{name} CB{reg}[{size}], {access}")
                }
            }
            Opcode::DCL_SAMPLER => {
                let mode = match c & 0xf {
                    0 => "mode_default",
                    1 => "mode_comparison",
                    2 => "mode_mono",
                    _ => "mode_unknown",
                };
                let (reg, space) = self.resource_register(ins, 0);
                format!("{name} {reg}, {mode}{space}")
            }
            Opcode::DCL_RESOURCE => {
                let dim = c & 0x1f;
                let mut n = format!("{name}_{}", resource_dimension_name(dim));
                if dim == 4 || dim == 9 {
                    let _ = write!(n, "({})", (c >> 5) & 0x7f);
                }
                let rt = ins.return_type.map(|t| return_types(&t)).unwrap_or_default();
                let (reg, space) = self.resource_register(ins, 0);
                format!("{n} {rt} {reg}{space}")
            }
            Opcode::DCL_UAV_TYPED => {
                let dim = c & 0x1f;
                let mut n = format!("{name}_{}", resource_dimension_name(dim));
                n.push_str(&uav_flags(c));
                let rt = ins.return_type.map(|t| return_types(&t)).unwrap_or_default();
                let (reg, space) = self.resource_register(ins, 0);
                format!("{n} {rt} {reg}{space}")
            }
            Opcode::DCL_UAV_RAW => {
                let (reg, space) = self.resource_register(ins, 0);
                format!("{name}{} {reg}{space}", uav_flags(c))
            }
            Opcode::DCL_UAV_STRUCTURED => {
                let (reg, space) = self.resource_register(ins, 1);
                format!("{name}{} {reg}, {}{space}", uav_flags(c), v(0))
            }
            Opcode::DCL_RESOURCE_RAW => {
                let (reg, space) = self.resource_register(ins, 0);
                format!("{name} {reg}{space}")
            }
            Opcode::DCL_RESOURCE_STRUCTURED => {
                let (reg, space) = self.resource_register(ins, 1);
                format!("{name} {reg}, {}{space}", v(0))
            }
            Opcode::DCL_INPUT_PS | Opcode::DCL_INPUT_PS_SGV | Opcode::DCL_INPUT_PS_SIV => {
                let interp = match c & 0xf {
                    1 => "constant ",
                    2 => "linear ",
                    3 => "linear centroid ",
                    4 => "linear noperspective ",
                    5 => "linear noperspective centroid ",
                    6 => "linear sample ",
                    7 => "linear noperspective sample ",
                    _ => "",
                };
                let reg = self.decl_register_masked(ins);
                if op == Opcode::DCL_INPUT_PS {
                    format!("{name} {interp}{reg}")
                } else {
                    format!("{name} {interp}{reg}, {}", system_value_name(v(0)))
                }
            }
            Opcode::DCL_INPUT_SGV | Opcode::DCL_INPUT_SIV | Opcode::DCL_OUTPUT_SGV | Opcode::DCL_OUTPUT_SIV => {
                format!("{name} {}, {}", self.decl_register_masked(ins), system_value_name(v(0)))
            }
            Opcode::DCL_INPUT | Opcode::DCL_OUTPUT => {
                format!("{name} {}", self.decl_register_masked(ins))
            }
            Opcode::DCL_INDEX_RANGE => {
                format!("{name} {}, {}", self.decl_register_masked(ins), v(0))
            }
            Opcode::DCL_TEMPS | Opcode::DCL_MAX_OUTPUT_VERTEX_COUNT | Opcode::DCL_GS_INSTANCE_COUNT => {
                format!("{name} {}", v(0))
            }
            Opcode::DCL_HS_FORK_PHASE_INSTANCE_COUNT | Opcode::DCL_HS_JOIN_PHASE_INSTANCE_COUNT => {
                format!("{name} {}", v(0))
            }
            Opcode::DCL_INDEXABLE_TEMP => format!("{name} x{}[{}], {}", v(0), v(1), v(2)),
            Opcode::DCL_GS_INPUT_PRIMITIVE => {
                let p = c & 0x3f;
                let prim = match p {
                    1 => "point".to_string(),
                    2 => "line".to_string(),
                    3 => "triangle".to_string(),
                    6 => "lineadj".to_string(),
                    7 => "triangleadj".to_string(),
                    8..=39 => format!("patch{}", p - 7),
                    _ => "undefined".to_string(),
                };
                format!("{name} {prim} ")
            }
            Opcode::DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => {
                let topo = match c & 0x7f {
                    1 => "pointlist",
                    2 => "linelist",
                    3 => "linestrip",
                    4 => "trianglelist",
                    5 => "trianglestrip",
                    10 => "linelist_adj",
                    11 => "linestrip_adj",
                    12 => "trianglelist_adj",
                    13 => "trianglestrip_adj",
                    _ => "undefined",
                };
                format!("{name} {topo} ")
            }
            Opcode::DCL_FUNCTION_BODY => format!("{name} fb{}", v(0)),
            Opcode::DCL_STREAM => format!("{name} {}", self.decl_register(ins)),
            Opcode::DCL_THREAD_GROUP => format!("{name} {}, {}, {}", v(0), v(1), v(2)),
            Opcode::DCL_TGSM_RAW => format!("{name} {}, {}", self.decl_register(ins), v(0)),
            Opcode::DCL_TGSM_STRUCTURED => {
                format!("{name} {}, {}, {}", self.decl_register(ins), v(0), v(1))
            }
            Opcode::DCL_INPUT_CONTROL_POINT_COUNT | Opcode::DCL_OUTPUT_CONTROL_POINT_COUNT => {
                format!("{name} {}", c & 0x3f)
            }
            Opcode::DCL_TESS_DOMAIN => {
                let d = match c & 3 {
                    1 => "domain_isoline",
                    2 => "domain_tri",
                    3 => "domain_quad",
                    _ => "domain_undefined",
                };
                format!("{name} {d}")
            }
            Opcode::DCL_TESS_PARTITIONING => {
                let p = match c & 7 {
                    1 => "partitioning_integer",
                    2 => "partitioning_pow2",
                    3 => "partitioning_fractional_odd",
                    4 => "partitioning_fractional_even",
                    _ => "partitioning_undefined",
                };
                format!("{name} {p}")
            }
            Opcode::DCL_TESS_OUTPUT_PRIMITIVE => {
                let p = match c & 7 {
                    1 => "output_point",
                    2 => "output_line",
                    3 => "output_triangle_cw",
                    4 => "output_triangle_ccw",
                    _ => "output_undefined",
                };
                format!("{name} {p}")
            }
            Opcode::DCL_HS_MAX_TESSFACTOR => format!("{name} l({})", float_text(v(0))),
            Opcode::DCL_FUNCTION_TABLE => {
                // Words: table id, body count, bodies.
                let bodies: Vec<String> = ins.values.iter().skip(2).map(|b| format!("fb{b}")).collect();
                format!("{name} ft{} = {{{}}}", v(0), bodies.join(", "))
            }
            Opcode::DCL_INTERFACE => {
                // Words: interface id, call-site count, (array length << 16 | table count), tables.
                let dynamic = if c & 1 != 0 { "_dynamicindexed" } else { "" };
                let tables: Vec<String> = ins.values.iter().skip(3).map(|t| format!("ft{t}")).collect();
                format!("{name}{dynamic} fp{}[{}][{}] = {{{}}}", v(0), v(2) >> 16, v(1), tables.join(", "))
            }
            _ => {
                // Declarations without operands of their own (and reserved opcodes).
                let mut s = name.to_string();
                for o in &ins.operands {
                    s.push(' ');
                    s.push_str(&self.operand(o, ImmKind::Int, true, false));
                }
                for w in &ins.values {
                    let _ = write!(s, " {w}");
                }
                s
            }
        };
        self.out.push_str(&text);
    }
}

fn uav_flags(c: u32) -> String {
    let mut s = String::new();
    if c & (1 << 5) != 0 {
        s.push_str("_glc");
    }
    if c & (1 << 6) != 0 {
        s.push_str("_rov");
    }
    if c & (1 << 12) != 0 {
        s.push_str("_opc");
    }
    s
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

/// The stage's prefix and model as fxc writes the version line (`ps_5_0`).
pub fn version_line(version: &ShaderVersion) -> String {
    format!("{}_{}_{}", version.stage.prefix(), version.major, version.minor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sm4::ShaderStage;

    #[test]
    fn untyped_immediates_follow_fxc() {
        assert_eq!(untyped_text(0), "0");
        assert_eq!(untyped_text(0xffff_ffff), "-1");
        assert_eq!(untyped_text((-112i32) as u32), "-112");
        assert_eq!(untyped_text(0x3f80_0000), "1.000000");
        assert_eq!(untyped_text(0x8000_0000), "-0.000000");
        assert_eq!(untyped_text(0x0000_7fff), "0x00007fff");
        assert_eq!(untyped_text(0x7fff_ffff), "0x7fffffff");
        assert_eq!(untyped_text(0xffff_8001), "0xffff8001");
        assert_eq!(untyped_text(2254), "2254");
    }

    #[test]
    fn integers_switch_to_hex_past_10000() {
        assert_eq!(int_text(10000), "10000");
        assert_eq!(int_text(10001), "0x00002711");
        assert_eq!(int_text((-2i32) as u32), "-2");
        assert_eq!(int_text(0x3f80_0000), "0x3f800000");
    }

    #[test]
    fn floats_print_six_decimals() {
        assert_eq!(float_text(0x3f00_0000), "0.500000");
        assert_eq!(float_text(0x7f7f_ffff), "340282346638528859811704183484516925440.000000");
        assert_eq!(float_text(0x8000_0000), "-0.000000");
        assert_eq!(float_text((18.8515625f64 as f32).to_bits()), "18.851562");
        assert_eq!(float_text((-18.8515625f64 as f32).to_bits()), "-18.851562");
        assert_eq!(float_text(0.8359375f32.to_bits()), "0.835938");
        assert_eq!(float_text(1.5e-6f32.to_bits()), "0.000002");
        assert_eq!(float_text((9.9999999f64 as f32).to_bits()), "10.000000");
        assert_eq!(float_text(0.0000005f32.to_bits()), "0.000000");
        assert_eq!(float_text(0.00000051f32.to_bits()), "0.000001");
    }

    use crate::container::Chunk;
    use crate::sm4::decode_program;

    const TEMP: u32 = 0;
    const INPUT: u32 = 1;
    const RESOURCE: u32 = 7;
    const CB: u32 = 8;
    const ICB: u32 = 9;
    const UAV: u32 = 30;

    /// Opcode token with its length filled in by `ins`.
    fn ins(opcode: u32, control: u32, extended: bool, body: &[Vec<u32>]) -> Vec<u32> {
        let words: Vec<u32> = body.concat();
        let len = words.len() as u32 + 1;
        let mut v = vec![opcode | (control << 11) | (len << 24) | if extended { 1 << 31 } else { 0 }];
        v.extend(words);
        v
    }
    fn dst(ty: u32, reg: u32, mask: u32) -> Vec<u32> {
        vec![2 | (mask << 4) | (ty << 12) | (1 << 20), reg]
    }
    fn src(ty: u32, reg: u32, swizzle: [u32; 4]) -> Vec<u32> {
        let s = swizzle[0] | (swizzle[1] << 2) | (swizzle[2] << 4) | (swizzle[3] << 6);
        vec![2 | (1 << 2) | (s << 4) | (ty << 12) | (1 << 20), reg]
    }
    fn select1(ty: u32, reg: u32, c: u32) -> Vec<u32> {
        vec![2 | (2 << 2) | (c << 4) | (ty << 12) | (1 << 20), reg]
    }
    fn imm(values: &[u32]) -> Vec<u32> {
        let mut v = vec![if values.len() == 1 { 1 } else { 2 } | (4 << 12)];
        v.extend_from_slice(values);
        v
    }
    /// Disassembles a pixel shader 5.0 body, without the version line.
    fn dis(body: &[Vec<u32>]) -> String {
        let words: Vec<u32> = body.concat();
        let mut all = vec![0x50, words.len() as u32 + 2];
        all.extend(words);
        let bytes: Vec<u8> = all.iter().flat_map(|w| w.to_le_bytes()).collect();
        let chunk = Chunk { fourcc: *b"SHEX", offset: 0, data: &bytes };
        let program = decode_program(&chunk).unwrap();
        let text = disassemble(&program);
        text.split_once('\n').unwrap().1.trim_end().to_string()
    }

    #[test]
    fn sync_flags_spell_out() {
        assert_eq!(dis(&[ins(190, 0b1011, false, &[])]), "sync_uglobal_g_t");
        assert_eq!(dis(&[ins(190, 0b0101, false, &[])]), "sync_ugroup_t");
    }

    #[test]
    fn extended_opcode_suffixes_keep_fxc_order() {
        // resinfo_uint with resource-dimension and return-type extended tokens.
        let dim = (1 << 31) | 2 | (3 << 6);
        let ret = 3 | (5 << 6) | (5 << 10) | (5 << 14) | (5 << 18);
        let r = ins(61, 2, true, &[vec![dim, ret], dst(TEMP, 0, 0b0011), imm(&[0]), src(RESOURCE, 0, [0, 1, 2, 3])]);
        assert_eq!(dis(&[r]), "resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xy, l(0), t0.xyzw");
        // ld with texel offsets (1, -2, 0).
        let offs = 1 | (1 << 9) | (0xe << 13);
        let l = ins(45, 0, true, &[vec![offs], dst(TEMP, 1, 0xf), imm(&[0, 0, 0, 0]), src(RESOURCE, 2, [0, 1, 2, 3])]);
        assert_eq!(dis(&[l]), "ld_aoffimmi(1,-2,0) r1.xyzw, l(0, 0, 0, 0), t2.xyzw");
    }

    #[test]
    fn immediates_follow_the_operand_type() {
        let one = 0x3f80_0000;
        // mov is untyped: no spaces, integers for non-float patterns.
        let m = ins(54, 0, false, &[dst(TEMP, 0, 0xf), imm(&[0, one, 0xffff_ffff, 0x8000_0000])]);
        assert_eq!(dis(&[m]), "mov r0.xyzw, l(0,1.000000,-1,-0.000000)");
        // iadd is integer: the float pattern prints as hex.
        let a = ins(30, 0, false, &[dst(TEMP, 0, 1), select1(TEMP, 0, 0), imm(&[one])]);
        assert_eq!(dis(&[a]), "iadd r0.x, r0.x, l(0x3f800000)");
        // add is float.
        let f = ins(0, 1 << 2, false, &[dst(TEMP, 0, 1), select1(TEMP, 0, 1), imm(&[one])]);
        assert_eq!(dis(&[f]), "add_sat r0.x, r0.y, l(1.000000)");
    }

    #[test]
    fn relative_indices_and_modifiers() {
        // mov r0.x, -|cb0[r1.x + 12].y|
        let rel = select1(TEMP, 1, 0);
        let mut cb =
            vec![2 | (2 << 2) | (1 << 4) | (CB << 12) | (2 << 20) | (3 << 25) | (1 << 31), 1 | (3 << 6), 0, 12];
        cb.extend(rel);
        let m = ins(54, 0, false, &[dst(TEMP, 0, 1), cb]);
        assert_eq!(dis(&[m]), "mov r0.x, -|cb0[r1.x + 12].y|");
        // mov r2.xy, icb[v0.x + 3].xyxx
        let mut icb = vec![2 | (1 << 2) | (0b0000_0100 << 4) | (ICB << 12) | (1 << 20) | (3 << 22), 3];
        icb.extend(select1(INPUT, 0, 0));
        assert_eq!(dis(&[ins(54, 0, false, &[dst(TEMP, 2, 0b0011), icb])]), "mov r2.xy, icb[v0.x + 3].xyxx");
        // min precision goes inside the bars.
        let mut abs_src = src(TEMP, 1, [0, 0, 0, 0]);
        abs_src[0] |= 1 << 31;
        abs_src.insert(1, 1 | (2 << 6) | (1 << 14));
        let mut d = dst(TEMP, 0, 1);
        d[0] |= 1 << 31;
        d.insert(1, 1 | (1 << 14));
        assert_eq!(dis(&[ins(54, 0, false, &[d, abs_src])]), "mov r0.x {min16f}, |r1.xxxx {min16f}|");
    }

    #[test]
    fn control_flow_is_indented() {
        let body = [
            ins(31, 0, false, &[select1(TEMP, 0, 0)]),
            ins(48, 0, false, &[]),
            ins(3, 1 << 7, false, &[select1(TEMP, 0, 1)]),
            ins(22, 0, false, &[]),
            ins(18, 0, false, &[]),
            ins(13, 1 << 7, false, &[select1(TEMP, 0, 2)]),
            ins(21, 0, false, &[]),
            ins(62, 0, false, &[]),
        ];
        assert_eq!(
            dis(&body),
            "if_z r0.x\n  loop \n    breakc_nz r0.y\n  endloop \nelse \n  discard_nz r0.z\nendif \nret"
        );
    }

    #[test]
    fn declarations() {
        // dcl_immediateConstantBuffer from customdata class 3.
        let icb = vec![53 | (3 << 11), 10, 0x0000_cccc, 15, 0xffff_ffff, 0x3f80_0000, 1, 2, 3, 4];
        assert_eq!(
            dis(&[icb]),
            "dcl_immediateConstantBuffer { { 0x0000cccc, 15, -1, 1.000000},\n                              { 1, 2, 3, 4} }"
        );
        // dcl_uav_typed_texture2d with globally-coherent flag, uint returns.
        let uav = ins(156, 3 | (1 << 5), false, &[vec![(UAV << 12) | (1 << 20), 1], vec![0x4444]]);
        assert_eq!(dis(&[uav]), "dcl_uav_typed_texture2d_glc (uint,uint,uint,uint) u1");
        // dcl_input_ps_siv with interpolation mode.
        let input = ins(100, 4, false, &[dst(INPUT, 0, 0xf), vec![1]]);
        assert_eq!(dis(&[input]), "dcl_input_ps_siv linear noperspective v0.xyzw, position");
        let temps = ins(105, 0, false, &[vec![0, 6, 4]]);
        assert_eq!(dis(&[temps]), "dcl_indexableTemp x0[6], 4");
    }

    #[test]
    fn stage_prefix() {
        let v = ShaderVersion { stage: ShaderStage::Hull, major: 5, minor: 0 };
        assert_eq!(version_line(&v), "hs_5_0");
    }
}
