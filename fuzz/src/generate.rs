//! A structure-aware generator of SM4/SM5 programs: from `arbitrary` bytes, a vertex, pixel or
//! compute shader whose declarations cover what its instructions address (temporaries, an
//! indexable temporary, inputs and outputs with matching signature elements, a constant buffer,
//! a texture and a sampler, a texture and a sampler for comparisons, typed/raw/structured UAVs and TGSM), whose instructions come from the
//! opcode table with operands of the kinds the table's type letters ask for, and whose control
//! flow is balanced unless the bytes ask otherwise. Assembled into a container with a correct
//! checksum (`dxbc_wgsl::container::assemble`), so translation starts where the reader stops.
//!
//! Token layouts: D3D11.3 functional spec §22 (`D3D10_SB_*` / `D3D11_SB_*` tokens).

use arbitrary::{Result, Unstructured};
use dxbc_wgsl::sm4::opcodes::{Family, Form, Opcode, OPCODE_TABLE};

// Operand types.
const TEMP: u32 = 0;
const INPUT: u32 = 1;
const OUTPUT: u32 = 2;
const INDEXABLE_TEMP: u32 = 3;
const IMMEDIATE32: u32 = 4;
const SAMPLER: u32 = 6;
const RESOURCE: u32 = 7;
const CONSTANT_BUFFER: u32 = 8;
const UAV: u32 = 30;
const TGSM: u32 = 31;
const THREAD_ID: u32 = 32;

/// Words an immediate may hold: the values that separate typings and edge cases (float ±1,
/// ±0, NaN, infinity, integer -1, the sign bit, shift counts past 31).
const INTERESTING: [u32; 14] = [
    0,
    1,
    2,
    31,
    32,
    0x3f80_0000,
    0xbf80_0000,
    0x8000_0000,
    0x7f80_0000,
    0x7fc0_0000,
    0xffff_ffff,
    0x4000_0000,
    0x3f00_0000,
    0x0000_ffff,
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Pixel,
    Vertex,
    Compute,
}

/// What the program declared, which operands may address.
struct Declared {
    stage: Stage,
    temps: u32,
    inputs: u32,
    outputs: u32,
    cb_rows: u32,
    indexable: u32,
    sm5: bool,
}

fn opcode_token(code: u16, len: usize) -> u32 {
    u32::from(code) | ((len as u32) << 24)
}

fn operand_token(components: u32, select: u32, bits: u32, ty: u32, dims: u32) -> u32 {
    components | (select << 2) | (bits << 4) | (ty << 12) | (dims << 20)
}

fn swizzle(u: &mut Unstructured) -> Result<u32> {
    Ok(u32::from(u.arbitrary::<u8>()?))
}

fn mask(u: &mut Unstructured, double: bool) -> Result<u32> {
    if double {
        return Ok(*u.choose(&[0x3, 0xc, 0xf])?);
    }
    Ok(u.int_in_range(1..=15)?)
}

fn pick(u: &mut Unstructured, below: u32) -> Result<u32> {
    if below == 0 {
        return Ok(0);
    }
    u.int_in_range(0..=below - 1)
}

/// A destination operand of type letter `letter`.
fn destination(u: &mut Unstructured, d: &Declared, letter: char) -> Result<Vec<u32>> {
    if letter == 'r' {
        let (ty, index) = *u.choose(memory(d))?;
        return Ok(vec![operand_token(2, 0, 0xf, ty, 1), index]);
    }
    let m = mask(u, letter == 'd')?;
    let choice = u.int_in_range(0..=7)?;
    Ok(match choice {
        0 if d.outputs > 0 && d.stage != Stage::Compute => {
            vec![operand_token(2, 0, m, OUTPUT, 1), pick(u, d.outputs)?]
        }
        1 if d.indexable > 0 => {
            vec![operand_token(2, 0, m, INDEXABLE_TEMP, 2), 0, pick(u, d.indexable)?]
        }
        2 => vec![operand_token(0, 0, 0, 13, 0)], // null
        _ => vec![operand_token(2, 0, m, TEMP, 1), pick(u, d.temps)?],
    })
}

/// A source operand of type letter `letter`, with an optional modifier when it is a number.
/// The memory a buffer or atomic instruction may address: u0 (typed), u1 (raw), u2
/// (structured), and g0 (raw TGSM) in a compute shader.
fn memory(d: &Declared) -> &'static [(u32, u32)] {
    if d.stage == Stage::Compute {
        &[(UAV, 0), (UAV, 1), (UAV, 2), (TGSM, 0)]
    } else {
        &[(UAV, 0), (UAV, 1), (UAV, 2)]
    }
}

fn source(u: &mut Unstructured, d: &Declared, letter: char, comparison: bool, texture: bool) -> Result<Vec<u32>> {
    match letter {
        'r' => {
            // Textures for the texture family, most of the time; UAVs and TGSM for the others.
            let (ty, index) =
                if texture && !u.ratio(1, 16)? { (RESOURCE, u32::from(comparison)) } else { *u.choose(memory(d))? };
            return Ok(vec![operand_token(2, 1, 0xe4, ty, 1), index]);
        }
        // s0 samples, s1 compares (WebGPU's sampler types differ).
        's' => return Ok(vec![operand_token(0, 0, 0, SAMPLER, 1), u32::from(comparison)]),
        _ => {}
    }
    let mut operand = match u.int_in_range(0..=9)? {
        0 | 1 => {
            let mut t = vec![operand_token(2, 0, 0, IMMEDIATE32, 0)];
            for _ in 0..4 {
                t.push(if u.ratio(3, 4)? { *u.choose(&INTERESTING)? } else { u.arbitrary()? });
            }
            t
        }
        2 if d.inputs > 0 && d.stage != Stage::Compute => {
            vec![operand_token(2, 1, swizzle(u)?, INPUT, 1), pick(u, d.inputs)?]
        }
        3 if d.cb_rows > 0 => {
            vec![operand_token(2, 1, swizzle(u)?, CONSTANT_BUFFER, 2), 0, pick(u, d.cb_rows + 1)?]
        }
        4 if d.stage == Stage::Compute => vec![operand_token(2, 1, swizzle(u)?, THREAD_ID, 0)],
        5 if d.indexable > 0 => {
            vec![operand_token(2, 1, swizzle(u)?, INDEXABLE_TEMP, 2), 0, pick(u, d.indexable + 1)?]
        }
        6 => {
            // Select-1 of a temporary (the scalar form).
            vec![operand_token(2, 2, pick(u, 4)?, TEMP, 1), pick(u, d.temps)?]
        }
        _ => vec![operand_token(2, 1, swizzle(u)?, TEMP, 1), pick(u, d.temps)?],
    };
    if matches!(letter, 'f' | 'i' | 'd') && operand[0] >> 12 & 0xff != IMMEDIATE32 && u.ratio(1, 4)? {
        // Extended operand token: modifier neg (1), abs (2) or both (3); integers take only
        // neg (D3D leaves abs of an integer undefined), except one time in 16.
        let modifier = if letter == 'i' && !u.ratio(1, 16)? { 1 } else { u.int_in_range(1..=3)? };
        operand[0] |= 1 << 31;
        operand.insert(1, 1 | (modifier << 6));
    }
    Ok(operand)
}

/// Instruction rows the generator picks from: ordinary instructions of the table, those the
/// translator lowers (`refused: false`) or those it refuses by design (`refused: true`).
fn instruction_rows(refused: bool) -> Vec<&'static dxbc_wgsl::sm4::opcodes::OpInfo> {
    OPCODE_TABLE
        .iter()
        .filter(|row| matches!(row.form, Form::Inst) && !matches!(row.family, Family::Declaration))
        .filter(|row| !matches!(Opcode(row.code), Opcode::RET | Opcode::HS_DECLS))
        // Emission belongs to geometry shaders, which the generator does not make.
        .filter(|row| !matches!(row.family, Family::Primitive))
        .filter(|row| matches!(row.family, Family::Refused(_)) == refused)
        .collect()
}

/// Open control-flow constructs while generating.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    If { has_else: bool },
    Loop,
}

/// One instruction with operands from `row`.
fn instruction(u: &mut Unstructured, d: &Declared, row: &dxbc_wgsl::sm4::opcodes::OpInfo) -> Result<Vec<u32>> {
    let mut body = Vec::new();
    let double = Opcode(row.code).is_double();
    for letter in row.dst.chars() {
        let mut operand = destination(u, d, letter)?;
        // A 32-bit result of double sources writes one or two components.
        if double && letter != 'd' && operand[0] & 3 == 2 && (operand[0] >> 2) & 3 == 0 {
            let m = *u.choose(&[0x1u32, 0x2, 0x4, 0x8, 0x3, 0xc])?;
            operand[0] = (operand[0] & !(0xf << 4)) | (m << 4);
        }
        body.extend(operand);
    }
    let comparison = Opcode(row.code).has(dxbc_wgsl::sm4::opcodes::COMPARISON);
    for letter in row.src.chars() {
        body.extend(source(u, d, letter, comparison, matches!(row.family, Family::Texture))?);
    }
    let mut token = opcode_token(row.code, 1 + body.len());
    if !row.dst.is_empty() && u.ratio(1, 8)? {
        token |= 1 << 13; // _sat
    }
    if row.src.starts_with('c') && u.arbitrary()? {
        token |= 1 << 18; // _nz
    }
    let mut words = vec![token];
    words.extend(body);
    Ok(words)
}

/// The program's instructions: up to 96, control flow balanced unless a byte says otherwise.
fn body(u: &mut Unstructured, d: &Declared) -> Result<Vec<u32>> {
    let (rows, refused_rows) = (instruction_rows(false), instruction_rows(true));
    let balanced = !u.ratio(1, 16)?;
    // One program in 8 may hold opcodes the translator refuses by design.
    let with_refused = u.ratio(1, 8)?;
    let mut open: Vec<Open> = Vec::new();
    let mut out = Vec::new();
    let count = u.int_in_range(0..=96)?;
    for _ in 0..count {
        if u.is_empty() {
            break;
        }
        let row = if with_refused && u.ratio(1, 16)? { *u.choose(&refused_rows)? } else { *u.choose(&rows)? };
        let op = Opcode(row.code);
        // Derivatives, implicit-LOD samples and discard belong to pixel shaders, barriers to
        // compute shaders: elsewhere they are refused (invalid in D3D), which ends the program.
        let pixel_only = op.has(dxbc_wgsl::sm4::opcodes::UNIFORM) || op == Opcode::DISCARD;
        if (pixel_only && d.stage != Stage::Pixel || row.family == Family::Sync && d.stage != Stage::Compute)
            && !u.ratio(1, 16)?
        {
            continue;
        }
        if balanced {
            let in_loop = open.contains(&Open::Loop);
            match op {
                Opcode::IF => open.push(Open::If { has_else: false }),
                Opcode::ELSE => match open.last_mut() {
                    Some(Open::If { has_else }) if !*has_else => *has_else = true,
                    _ => continue,
                },
                Opcode::ENDIF => match open.last() {
                    Some(Open::If { .. }) => {
                        open.pop();
                    }
                    _ => continue,
                },
                Opcode::LOOP => open.push(Open::Loop),
                Opcode::ENDLOOP => match open.last() {
                    Some(Open::Loop) => {
                        open.pop();
                    }
                    _ => continue,
                },
                Opcode::BREAK | Opcode::BREAKC | Opcode::CONTINUE | Opcode::CONTINUEC if !in_loop => continue,
                Opcode::SWITCH | Opcode::CASE | Opcode::DEFAULT | Opcode::ENDSWITCH => continue,
                _ => {}
            }
        }
        out.extend(instruction(u, d, row)?);
    }
    if balanced {
        while let Some(o) = open.pop() {
            let code = match o {
                Open::If { .. } => Opcode::ENDIF,
                Open::Loop => {
                    // Leave every generated loop: a `break` before its end.
                    out.push(opcode_token(Opcode::BREAK.0, 1));
                    Opcode::ENDLOOP
                }
            };
            out.push(opcode_token(code.0, 1));
        }
    }
    out.push(opcode_token(Opcode::RET.0, 1));
    Ok(out)
}

/// A signature chunk of `registers` four-component float elements named `name` (semantic index
/// = register), the first with system value `first_sv`.
fn signature(name: &str, registers: u32, first_sv: u32) -> Vec<u8> {
    let mut head: Vec<u32> = vec![registers, 8];
    let names_at = 8 + 24 * registers;
    for r in 0..registers {
        let sv = if r == 0 { first_sv } else { 0 };
        let semantic = if sv == 0 { r } else { 0 };
        head.extend([names_at, semantic, sv, 3, r, 0x0f | (0x0f << 8)]);
    }
    let mut out: Vec<u8> = head.iter().flat_map(|w| w.to_le_bytes()).collect();
    out.extend(name.as_bytes());
    out.push(0);
    out.resize(out.len().next_multiple_of(4), 0);
    out
}

/// A whole container (see the module documentation).
///
/// # Errors
/// When `u` runs out of bytes before the program's shape is chosen.
pub fn program(u: &mut Unstructured) -> Result<Vec<u8>> {
    let stage = *u.choose(&[Stage::Pixel, Stage::Vertex, Stage::Compute])?;
    let sm5 = stage == Stage::Compute || u.arbitrary()?;
    let d = Declared {
        stage,
        temps: u.int_in_range(1..=8)?,
        inputs: if stage == Stage::Compute { 0 } else { u.int_in_range(0..=4)? },
        outputs: if stage == Stage::Compute { 0 } else { u.int_in_range(1..=4)? },
        cb_rows: u.int_in_range(0..=8)?,
        indexable: if u.ratio(1, 4)? { u.int_in_range(1..=8)? } else { 0 },
        sm5,
    };
    let program_type = match stage {
        Stage::Pixel => 0,
        Stage::Vertex => 1,
        Stage::Compute => 5,
    };
    let version = (program_type << 16) | if d.sm5 { 0x50 } else { 0x40 };
    let mut words = vec![version, 0];
    let decl = |words: &mut Vec<u32>, code: Opcode, extra: u32, tail: &[u32]| {
        words.push(opcode_token(code.0, 1 + tail.len()) | extra);
        words.extend_from_slice(tail);
    };
    if d.cb_rows > 0 {
        decl(
            &mut words,
            Opcode::DCL_CONSTANT_BUFFER,
            0,
            &[operand_token(2, 1, 0xe4, CONSTANT_BUFFER, 2), 0, d.cb_rows],
        );
    }
    // Texture2D<float4> t0 and a sampler s0.
    decl(&mut words, Opcode::DCL_RESOURCE, 3 << 11, &[operand_token(0, 0, 0, RESOURCE, 1), 0, 0x5555]);
    // t1: the texture comparison sampling and gathers read (a WGSL depth texture).
    decl(&mut words, Opcode::DCL_RESOURCE, 3 << 11, &[operand_token(0, 0, 0, RESOURCE, 1), 1, 0x5555]);
    decl(&mut words, Opcode::DCL_SAMPLER, 0, &[operand_token(0, 0, 0, SAMPLER, 1), 0]);
    // s1: mode_comparison.
    decl(&mut words, Opcode::DCL_SAMPLER, 1 << 11, &[operand_token(0, 0, 0, SAMPLER, 1), 1]);
    if d.sm5 && stage != Stage::Vertex {
        // RWTexture2D<float4> u0, RWByteAddressBuffer u1, RWStructuredBuffer (stride 16) u2.
        decl(&mut words, Opcode::DCL_UAV_TYPED, 3 << 11, &[operand_token(0, 0, 0, UAV, 1), 0, 0x5555]);
        decl(&mut words, Opcode::DCL_UAV_RAW, 0, &[operand_token(0, 0, 0, UAV, 1), 1]);
        decl(&mut words, Opcode::DCL_UAV_STRUCTURED, 0, &[operand_token(0, 0, 0, UAV, 1), 2, 16]);
    }
    if stage == Stage::Compute {
        decl(&mut words, Opcode::DCL_TGSM_RAW, 0, &[operand_token(0, 0, 0, TGSM, 1), 0, 256]);
        decl(&mut words, Opcode::DCL_INPUT, 0, &[operand_token(2, 0, 0x7, THREAD_ID, 0)]);
        let group = [u.int_in_range(1..=64)?, u.int_in_range(1..=4)?, 1];
        decl(&mut words, Opcode::DCL_THREAD_GROUP, 0, &group);
    }
    for r in 0..d.inputs {
        let operand = [operand_token(2, 0, 0xf, INPUT, 1), r];
        match stage {
            // Linear interpolation.
            Stage::Pixel => decl(&mut words, Opcode::DCL_INPUT_PS, 2 << 11, &operand),
            _ => decl(&mut words, Opcode::DCL_INPUT, 0, &operand),
        }
    }
    for r in 0..d.outputs {
        let operand = [operand_token(2, 0, 0xf, OUTPUT, 1), r];
        if stage == Stage::Vertex && r == 0 {
            // SV_Position.
            decl(&mut words, Opcode::DCL_OUTPUT_SIV, 0, &[operand[0], operand[1], 1]);
        } else {
            decl(&mut words, Opcode::DCL_OUTPUT, 0, &operand);
        }
    }
    decl(&mut words, Opcode::DCL_TEMPS, 0, &[d.temps]);
    if d.indexable > 0 {
        decl(&mut words, Opcode::DCL_INDEXABLE_TEMP, 0, &[0, d.indexable, 4]);
    }
    words.extend(body(u, &d)?);
    words[1] = words.len() as u32;
    let program: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let (isgn, osgn) = match stage {
        Stage::Pixel => (signature("TEXCOORD", d.inputs, 0), signature("SV_Target", d.outputs, 64)),
        Stage::Vertex => (signature("TEXCOORD", d.inputs, 0), signature("SV_Position", d.outputs, 1)),
        Stage::Compute => (signature("", 0, 0), signature("", 0, 0)),
    };
    let fourcc = if d.sm5 { *b"SHEX" } else { *b"SHDR" };
    Ok(dxbc_wgsl::container::assemble(&[(*b"ISGN", isgn), (*b"OSGN", osgn), (fourcc, program)]))
}

#[cfg(test)]
mod tests {
    /// Every generated program decodes (the encodings are right) and some translate (37 of 400
    /// when written: the others reach a refusal, which is as useful to the fuzzer).
    #[test]
    fn generated_programs_decode_and_some_translate() {
        let (mut decoded, mut translated) = (0, 0);
        for seed in 0..400u32 {
            let bytes: Vec<u8> =
                (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761).wrapping_add(seed * 40_503) >> 13) as u8).collect();
            let mut u = arbitrary::Unstructured::new(&bytes);
            let Ok(container) = super::program(&mut u) else { continue };
            if dxbc_wgsl::Shader::parse(&container, &dxbc_wgsl::ReadOptions { verify_checksum: true }).is_ok() {
                decoded += 1;
            }
            let mut options = dxbc_wgsl::TranslateOptions::default();
            options.set_view_format("u0=rgba8unorm").unwrap();
            match dxbc_wgsl::translate(&container, &options) {
                Ok(_) => translated += 1,
                Err(e) => {
                    if std::env::var_os("GEN_DEBUG").is_some() {
                        eprintln!("{e}");
                    }
                }
            }
        }
        assert_eq!(decoded, 400, "{decoded} of 400 decoded");
        eprintln!("{decoded} of 400 decoded, {translated} translated");
        assert!(translated > 30, "{translated} of 400 translated");
    }
}
