//! The token decoder: a `SHDR`/`SHEX` chunk to a [`Program`] (D3D11.3 §22).
//!
//! Every length and count is checked against the words that remain before anything is
//! allocated from it; errors name the byte offset from the start of the container.

use super::decl::{CustomData, DeclTokens, Declaration, ResourceDimension, ReturnType};
use super::opcodes::{Form, Opcode};
use super::operand::{ComponentSelect, Immediates, Index, Indices, Modifier, Operand, OperandType};
use super::{ShaderStage, ShaderVersion};
use crate::container::Chunk;
use crate::error::{ReadError, ReadResult};

/// A decoded program.
#[derive(Debug, Clone)]
pub struct Program {
    /// Version token.
    pub version: ShaderVersion,
    /// Instructions and declarations, in token order.
    pub instructions: Vec<Instruction>,
}

/// One decoded instruction or declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// Opcode.
    pub opcode: Opcode,
    /// Byte offset of the opcode token from the start of the container.
    pub offset: usize,
    /// Length in 32-bit words.
    pub length: u32,
    /// Opcode-specific control bits 11–23 of the opcode token, as read. A declaration's are
    /// decoded into [`Instruction::decl`]; an instruction's are its `_sat`, test, `precise` and
    /// opcode-specific flags (`sync`, `resinfo`, `sampleinfo`).
    pub control: u32,
    /// `_sat` (bit 13 on arithmetic instructions).
    pub saturate: bool,
    /// `_nz` for conditional instructions (bit 18), `_z` when false.
    pub test_nonzero: bool,
    /// `precise` component mask (SM5, bits 19–22).
    pub precise: u8,
    /// Immediate texel offsets `(u, v, w)` from an extended sample-controls token.
    pub texel_offset: Option<[i8; 3]>,
    /// Resource dimension from an extended token (and structure stride, bits 11–22).
    pub ext_resource_dim: Option<(ResourceDimension, u32)>,
    /// Resource return types from an extended token (4 bits per component).
    pub ext_return_type: Option<[ReturnType; 4]>,
    /// Operands of an instruction: destinations first, then sources (per the opcode table).
    /// Empty for declarations: their operand is part of [`Instruction::decl`].
    pub operands: Vec<Operand>,
    /// Raw words an instruction carries besides its operands: `fcall`'s call-site index, an
    /// unknown opcode's words, words past the last operand. Empty for declarations.
    pub values: Vec<u32>,
    /// The declaration, decoded once into typed values: every declaration opcode (the opcode
    /// table's `Form::Decl` and `Form::Raw` rows, and `customdata`) has one, other instructions
    /// none.
    pub decl: Option<Box<Declaration>>,
}

impl Instruction {
    /// The number of destination operands (per the opcode table).
    pub fn dst_count(&self) -> usize {
        self.opcode.info().map(|i| i.dst.len()).unwrap_or(0)
    }
    /// The decoded declaration, for declaration opcodes.
    pub fn declaration(&self) -> Option<&Declaration> {
        self.decl.as_deref()
    }
}

/// The program's words, read in place from the chunk bytes (little endian).
#[derive(Clone, Copy)]
struct Words<'a>(&'a [u8]);

impl Words<'_> {
    fn len(&self) -> usize {
        self.0.len() / 4
    }
    fn get(&self, i: usize) -> u32 {
        let b = &self.0[4 * i..4 * i + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
    fn collect(self, from: usize, to: usize) -> Vec<u32> {
        self.0[4 * from..4 * to].chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    }
}

struct Reader<'a> {
    words: Words<'a>,
    pos: usize,
    base: usize,
}

impl Reader<'_> {
    fn offset_of(&self, word: usize) -> usize {
        self.base + word * 4
    }
    fn next(&mut self, end: usize, what: &'static str) -> ReadResult<u32> {
        if self.pos >= end {
            return Err(ReadError::Truncated { what, offset: self.offset_of(self.pos), needed: 4, available: 0 });
        }
        let w = self.words.get(self.pos);
        self.pos += 1;
        Ok(w)
    }
}

/// Decodes a program chunk.
///
/// # Errors
/// [`ReadError::Truncated`] when a token or instruction runs past the chunk or the declared
/// program length, [`ReadError::Malformed`] for an invalid version token, an instruction length of
/// zero, an operand token with reserved values, or operands that do not fill their instruction.
pub fn decode_program(chunk: &Chunk<'_>) -> ReadResult<Program> {
    let data = chunk.data;
    if data.len() < 8 {
        return Err(ReadError::Truncated {
            what: "program header",
            offset: chunk.offset,
            needed: 8,
            available: data.len(),
        });
    }
    let words = Words(&data[..data.len() & !3]);
    let version_token = words.get(0);
    let stage = ShaderStage::from_program_type(version_token >> 16).ok_or_else(|| {
        ReadError::malformed("version token", chunk.offset, format!("program type {} is not 0-5", version_token >> 16))
    })?;
    let version =
        ShaderVersion { stage, major: ((version_token >> 4) & 0xf) as u8, minor: (version_token & 0xf) as u8 };
    let declared = words.get(1) as usize;
    if declared < 2 || declared > words.len() {
        return Err(ReadError::malformed(
            "program length token",
            chunk.offset + 4,
            format!("program length {declared} words does not fit in the {}-word chunk", words.len()),
        ));
    }
    let words = Words(&data[..4 * declared]);
    // Count the instructions first (one word read per instruction) so the vector is allocated
    // once, at its size; a malformed length stops the count and is reported by the decoder.
    let mut count = 0;
    let mut at = 2;
    while at < declared {
        let token = words.get(at);
        let len = if token & 0x7ff == Opcode::CUSTOMDATA.0 as u32 {
            if at + 1 < declared {
                words.get(at + 1) as usize
            } else {
                0
            }
        } else {
            ((token >> 24) & 0x7f) as usize
        };
        if len == 0 {
            break;
        }
        count += 1;
        at = at.saturating_add(len);
    }
    let mut r = Reader { words, pos: 2, base: chunk.offset };
    let mut instructions = Vec::with_capacity(count + 1);
    while r.pos < declared {
        instructions.push(decode_instruction(&mut r, &version)?);
    }
    Ok(Program { version, instructions })
}

fn decode_instruction(r: &mut Reader<'_>, version: &ShaderVersion) -> ReadResult<Instruction> {
    let start = r.pos;
    let offset = r.offset_of(start);
    let end_of_program = r.words.len();
    let token = r.next(end_of_program, "opcode token")?;
    let opcode = Opcode((token & 0x7ff) as u16);
    let info = opcode.info();
    let mut ins = Instruction {
        opcode,
        offset,
        length: 0,
        control: (token >> 11) & 0x1fff,
        saturate: false,
        test_nonzero: false,
        precise: 0,
        texel_offset: None,
        ext_resource_dim: None,
        ext_return_type: None,
        operands: Vec::new(),
        values: Vec::new(),
        decl: None,
    };
    if opcode == Opcode::CUSTOMDATA {
        let len = r.next(end_of_program, "customdata length")? as usize;
        if len < 2 || start + len > end_of_program {
            return Err(ReadError::malformed(
                "customdata",
                offset + 4,
                format!("length {len} words runs past the program end ({} words remain)", end_of_program - start),
            ));
        }
        ins.length = len as u32;
        let custom = CustomData { class: token >> 11, data: r.words.collect(start + 2, start + len) };
        ins.decl = Some(Box::new(Declaration::CustomData(custom)));
        r.pos = start + len;
        return Ok(ins);
    }
    let len = ((token >> 24) & 0x7f) as usize;
    if len == 0 {
        return Err(ReadError::malformed(
            "opcode token",
            offset,
            format!("instruction `{}` has length 0", opcode.name()),
        ));
    }
    let end = start + len;
    if end > end_of_program {
        return Err(ReadError::Truncated {
            what: "instruction",
            offset,
            needed: len * 4,
            available: (end_of_program - start) * 4,
        });
    }
    ins.length = len as u32;
    let Some(info) = info else {
        // Unknown opcode: keep its words.
        ins.values = r.words.collect(start + 1, end);
        r.pos = end;
        return Ok(ins);
    };
    ins.saturate = token & (1 << 13) != 0;
    ins.test_nonzero = token & (1 << 18) != 0;
    ins.precise = ((token >> 19) & 0xf) as u8;
    // Extended opcode tokens.
    let mut extended = token & 0x8000_0000 != 0 && !matches!(info.form, Form::Decl { .. } | Form::Raw);
    while extended {
        let ext = r.next(end, "extended opcode token")?;
        extended = ext & 0x8000_0000 != 0;
        match ext & 0x3f {
            1 => {
                let s = |shift: u32| (((ext >> shift) & 0xf) as i8) << 4 >> 4;
                ins.texel_offset = Some([s(9), s(13), s(17)]);
            }
            2 => ins.ext_resource_dim = Some((ResourceDimension::from_raw((ext >> 6) & 0x1f), (ext >> 11) & 0xfff)),
            3 => {
                ins.ext_return_type = Some(std::array::from_fn(|i| ReturnType::from_raw((ext >> (6 + 4 * i)) & 0xf)));
            }
            other => {
                return Err(ReadError::malformed(
                    "extended opcode token",
                    r.offset_of(r.pos - 1),
                    format!("unknown extended opcode type {other}"),
                ))
            }
        }
    }
    match info.form {
        Form::Inst => {
            let n = info.dst.len() + info.src.len();
            ins.operands.reserve(n);
            for _ in 0..n {
                push_operand(&mut ins.operands, r, end)?;
            }
        }
        Form::Decl { operands, ret, dwords, dwords51 } => {
            let mut ops = Vec::with_capacity(operands as usize);
            for _ in 0..operands {
                push_operand(&mut ops, r, end)?;
            }
            let return_type = if ret { Some(r.next(end, "resource return type token")?) } else { None };
            let words_at = r.offset_of(r.pos);
            let n = dwords as usize + if version.is_sm51() { dwords51 as usize } else { 0 };
            let mut words = Vec::with_capacity(n.min(end - r.pos));
            for _ in 0..n {
                words.push(r.next(end, "declaration value")?);
            }
            let tokens = DeclTokens {
                opcode,
                control: ins.control,
                sm51: version.is_sm51(),
                offset,
                operands: ops,
                return_type,
                words,
                words_at,
            };
            ins.decl = Some(Box::new(Declaration::decode(tokens)?));
        }
        Form::InterfaceCall => {
            ins.values.push(r.next(end, "fcall call-site index")?);
            push_operand(&mut ins.operands, r, end)?;
        }
        Form::Raw | Form::CustomData => {
            let tokens = DeclTokens {
                opcode,
                control: ins.control,
                sm51: version.is_sm51(),
                offset,
                operands: Vec::new(),
                return_type: None,
                words: r.words.collect(r.pos, end),
                words_at: r.offset_of(r.pos),
            };
            r.pos = end;
            ins.decl = Some(Box::new(Declaration::decode(tokens)?));
        }
    }
    if r.pos < end && info.form == Form::Inst {
        // The D3D runtime walks programs by instruction length, so words after the last operand
        // are tolerated (some hand-assembled test shaders have them); they are kept.
        ins.values = r.words.collect(r.pos, end);
        r.pos = end;
    }
    if r.pos != end {
        return Err(ReadError::malformed(
            "instruction",
            offset,
            format!("`{}` declares {len} words but its operands take {}", opcode.name(), r.pos - start),
        ));
    }
    Ok(ins)
}

/// Decodes the next operand straight into a new last element of `ops`.
fn push_operand(ops: &mut Vec<Operand>, r: &mut Reader<'_>, end: usize) -> ReadResult<()> {
    ops.push(blank_operand());
    let last = ops.len() - 1;
    decode_operand_into(r, end, 0, &mut ops[last])
}

fn blank_operand() -> Operand {
    Operand {
        ty: OperandType::Null,
        raw_type: 0,
        select: ComponentSelect::None,
        indices: Indices::new(),
        modifier: Modifier::None,
        min_precision: 0,
        nonuniform: false,
        imm: Immediates::new(),
    }
}

fn decode_operand_into(r: &mut Reader<'_>, end: usize, depth: u32, op: &mut Operand) -> ReadResult<()> {
    let at = r.offset_of(r.pos);
    let token = r.next(end, "operand token")?;
    let raw_type = (token >> 12) & 0xff;
    let ty = OperandType::from_u32(raw_type)
        .ok_or_else(|| ReadError::malformed("operand token", at, format!("register type {raw_type} is not defined")))?;
    let select = match token & 3 {
        0 => ComponentSelect::None,
        1 => ComponentSelect::Scalar,
        2 => match (token >> 2) & 3 {
            0 => ComponentSelect::Mask(((token >> 4) & 0xf) as u8),
            1 => {
                let s = |i: u32| ((token >> (4 + 2 * i)) & 3) as u8;
                ComponentSelect::Swizzle([s(0), s(1), s(2), s(3)])
            }
            2 => ComponentSelect::Select1(((token >> 4) & 3) as u8),
            _ => return Err(ReadError::malformed("operand token", at, "component selection mode 3 is reserved")),
        },
        _ => return Err(ReadError::malformed("operand token", at, "N-component operands are not defined for SM4/SM5")),
    };
    op.ty = ty;
    op.raw_type = raw_type;
    op.select = select;
    let mut extended = token & 0x8000_0000 != 0;
    while extended {
        let eat = r.offset_of(r.pos);
        let ext = r.next(end, "extended operand token")?;
        extended = ext & 0x8000_0000 != 0;
        match ext & 0x3f {
            0 => {}
            1 => {
                op.modifier = match (ext >> 6) & 0xff {
                    0 => Modifier::None,
                    1 => Modifier::Neg,
                    2 => Modifier::Abs,
                    3 => Modifier::AbsNeg,
                    m => {
                        return Err(ReadError::malformed(
                            "extended operand token",
                            eat,
                            format!("modifier {m} is not defined"),
                        ))
                    }
                };
                op.min_precision = ((ext >> 14) & 7) as u8;
                op.nonuniform = ext & (1 << 17) != 0;
            }
            t => {
                return Err(ReadError::malformed(
                    "extended operand token",
                    eat,
                    format!("extended operand type {t} is not defined"),
                ))
            }
        }
    }
    let dims = (token >> 20) & 3;
    if dims == 3 && ty != OperandType::Immediate32 {
        // 3 is allowed (SM5.1); the field is two bits, so every value is 0..=3.
    }
    match ty {
        OperandType::Immediate32 | OperandType::Immediate64 => {
            // A 4-component immediate is four 32-bit values, or two 64-bit values (four words);
            // a scalar is one value (two words for 64-bit).
            let n = match (select, ty) {
                (ComponentSelect::None, _) => 0,
                (ComponentSelect::Scalar, OperandType::Immediate32) => 1,
                _ => 4,
            };
            let n = if ty == OperandType::Immediate64 && select == ComponentSelect::Scalar { 2 } else { n };
            for _ in 0..n {
                // At most 4 words: `n` is 0, 1, 2 or 4.
                let _ = op.imm.try_push(r.next(end, "immediate value")?);
            }
            return Ok(());
        }
        _ => {}
    }
    for i in 0..dims {
        let rep = (token >> (22 + 3 * i)) & 7;
        let idx = match rep {
            0 => Index::Imm(r.next(end, "operand index")?),
            1 => {
                let hi = r.next(end, "operand index")? as u64;
                let lo = r.next(end, "operand index")? as u64;
                Index::Imm64((hi << 32) | lo)
            }
            2 | 3 => {
                let base = if rep == 3 { r.next(end, "operand index")? } else { 0 };
                if depth >= 2 {
                    return Err(ReadError::malformed(
                        "operand index",
                        r.offset_of(r.pos),
                        "relative indices nested more than two deep",
                    ));
                }
                let mut reg = Box::new(blank_operand());
                decode_operand_into(r, end, depth + 1, &mut reg)?;
                Index::Relative { base, reg }
            }
            4 => {
                let hi = r.next(end, "operand index")? as u64;
                let lo = r.next(end, "operand index")? as u64;
                if depth >= 2 {
                    return Err(ReadError::malformed(
                        "operand index",
                        r.offset_of(r.pos),
                        "relative indices nested more than two deep",
                    ));
                }
                let mut reg = Box::new(blank_operand());
                decode_operand_into(r, end, depth + 1, &mut reg)?;
                Index::Relative { base: ((hi << 32) | lo) as u32, reg }
            }
            _ => {
                return Err(ReadError::malformed(
                    "operand token",
                    at,
                    format!("index representation {rep} is not defined"),
                ))
            }
        };
        // At most 3 indices: `dims` is a 2-bit field.
        let _ = op.indices.try_push(idx);
    }
    Ok(())
}
