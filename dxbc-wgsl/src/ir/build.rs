//! Decoded program → IR: declarations (decoded by `sm4::decl`) gathered into the module's
//! descriptions, control flow nested.

use super::{
    Block, Case, CbDecl, IndexableTemp, Interpolation, IoDecl, Module, Node, ResourceDecl, ResourceShape, SamplerDecl,
    TgsmDecl,
};
use crate::refusal::{Refusal, RefusalReason, TranslateError};
use crate::shader::Shader;
use crate::sm4::decl::{Binding, ConstantBufferAccess, CustomData, Declaration, ResourceDimension, ReturnType};
use crate::sm4::{Index, Instruction, Opcode, Operand, OperandType, ShaderStage};
use crate::{limits, TranslateOptions};
use std::collections::HashMap;

/// Deepest nesting of `if`/`loop`/`switch` accepted: [`limits::NESTING`].
pub const MAX_NESTING: usize = limits::NESTING;

/// A refusal at an instruction.
pub(crate) fn refuse(
    reason: RefusalReason,
    index: usize,
    ins: &Instruction,
    detail: impl Into<String>,
) -> TranslateError {
    TranslateError::Unsupported(Refusal {
        reason,
        instruction: Some(index),
        offset: Some(ins.offset),
        opcode: Some(ins.opcode.name()),
        subject: None,
        detail: detail.into(),
    })
}

/// Builds the IR from a parsed shader.
///
/// # Errors
/// [`TranslateError::Unsupported`] for stages WGSL lacks, declarations the translator does not
/// handle, and control flow that does not nest.
pub fn build<'p>(shader: &'p Shader<'_>, _options: &TranslateOptions) -> Result<Module<'p>, TranslateError> {
    let program = &shader.program;
    let version = program.version;
    if !matches!((version.major, version.minor), (4, 0) | (4, 1) | (5, 0) | (5, 1)) {
        return Err(TranslateError::Unsupported(Refusal {
            reason: RefusalReason::OperandUnsupported,
            instruction: None,
            offset: shader.container.program_chunk().map(|c| c.offset),
            opcode: None,
            subject: None,
            detail: format!("shader model {}.{} is not one of SM4.0-SM5.1", version.major, version.minor),
        }));
    }
    if program.instructions.len() > MAX_INSTRUCTIONS {
        return Err(TranslateError::Unsupported(Refusal {
            reason: RefusalReason::ProgramTooLarge,
            instruction: None,
            offset: shader.container.program_chunk().map(|c| c.offset),
            opcode: None,
            subject: None,
            detail: format!(
                "{} instructions: the translator's limit is {MAX_INSTRUCTIONS} (WGSL compilers need memory in proportion)",
                program.instructions.len()
            ),
        }));
    }
    if matches!(version.stage, ShaderStage::Hull | ShaderStage::Domain) {
        return Err(TranslateError::Unsupported(Refusal {
            reason: RefusalReason::StageUnsupported,
            instruction: None,
            offset: shader.container.program_chunk().map(|c| c.offset),
            opcode: None,
            subject: None,
            detail: format!("{} shaders: WGSL has no {} stage", version.stage.name(), version.stage.name()),
        }));
    }
    let mut m = Module {
        program,
        version,
        input_signature: &shader.inputs,
        output_signature: &shader.outputs,
        program_offset: shader.container.program_chunk().map(|c| c.offset).unwrap_or(0),
        global_flags: Default::default(),
        feature_flags: shader.feature_flags.map_or(0, |f| f.0),
        temps: 0,
        indexable_temps: Vec::new(),
        inputs: Vec::new(),
        outputs: Vec::new(),
        cbuffers: Vec::new(),
        samplers: Vec::new(),
        resources: Vec::new(),
        range_elements: Default::default(),
        icb: None,
        input_ranges: Vec::new(),
        thread_group: None,
        tgsm: Vec::new(),
        gs: Default::default(),
        body: Vec::new(),
    };
    // Scope stack: (kind, block under construction).
    enum Scope {
        Root,
        IfThen { at: usize },
        IfElse { at: usize, then: Block },
        Loop { at: usize },
        Switch { at: usize, cases: Vec<Case>, open: Option<Case> },
    }
    let mut stack: Vec<(Scope, Block)> = vec![(Scope::Root, Vec::new())];
    let unstructured = |i: usize, ins: &Instruction, what: &str| {
        refuse(RefusalReason::UnstructuredControlFlow, i, ins, what.to_string())
    };

    for (i, ins) in program.instructions.iter().enumerate() {
        let op = ins.opcode;
        if op.info().is_none() {
            return Err(refuse(RefusalReason::OpcodeUnsupported, i, ins, format!("unknown opcode {}", op.0)));
        }
        if op.is_declaration() {
            declare(&mut m, i, ins)?;
            continue;
        }
        match op {
            Opcode::IF | Opcode::LOOP | Opcode::SWITCH if stack.len() > MAX_NESTING => {
                return Err(unstructured(
                    i,
                    ins,
                    &format!("control flow nested deeper than {MAX_NESTING} levels (WGSL compilers limit nesting; Tint to 127 statements)"),
                ));
            }
            Opcode::IF => {
                check_operand_shapes(&m, i, ins)?;
                stack.push((Scope::IfThen { at: i }, Vec::new()))
            }
            Opcode::ELSE => match stack.pop() {
                Some((Scope::IfThen { at }, then)) => stack.push((Scope::IfElse { at, then }, Vec::new())),
                _ => return Err(unstructured(i, ins, "`else` without `if`")),
            },
            Opcode::ENDIF => {
                let node = match stack.pop() {
                    Some((Scope::IfThen { at }, then)) => Node::If { at, then, otherwise: Vec::new() },
                    Some((Scope::IfElse { at, then }, otherwise)) => Node::If { at, then, otherwise },
                    _ => return Err(unstructured(i, ins, "`endif` without `if`")),
                };
                stack.last_mut().expect("root").1.push(node);
            }
            Opcode::LOOP => stack.push((Scope::Loop { at: i }, Vec::new())),
            Opcode::ENDLOOP => match stack.pop() {
                Some((Scope::Loop { at }, body)) => stack.last_mut().expect("root").1.push(Node::Loop { at, body }),
                _ => return Err(unstructured(i, ins, "`endloop` without `loop`")),
            },
            Opcode::SWITCH => {
                check_operand_shapes(&m, i, ins)?;
                stack.push((Scope::Switch { at: i, cases: Vec::new(), open: None }, Vec::new()))
            }
            Opcode::CASE | Opcode::DEFAULT => {
                let Some((Scope::Switch { open, cases, .. }, body)) = stack.last_mut() else {
                    return Err(unstructured(i, ins, "`case` outside `switch`"));
                };
                match open {
                    // Consecutive labels with no code between them share one clause.
                    Some(c) if body.is_empty() => {
                        if op == Opcode::CASE {
                            c.values.push(case_value(i, ins)?);
                        } else {
                            c.is_default = true;
                        }
                    }
                    _ => {
                        if let Some(mut c) = open.take() {
                            c.body = std::mem::take(body);
                            cases.push(c);
                        } else if !body.is_empty() {
                            return Err(unstructured(i, ins, "code before the first `case`"));
                        }
                        *open = Some(Case {
                            values: if op == Opcode::CASE { vec![case_value(i, ins)?] } else { Vec::new() },
                            is_default: op == Opcode::DEFAULT,
                            body: Vec::new(),
                            at: i,
                        });
                    }
                }
            }
            Opcode::ENDSWITCH => match stack.pop() {
                Some((Scope::Switch { at, mut cases, open }, body)) => {
                    if let Some(mut c) = open {
                        c.body = body;
                        cases.push(c);
                    } else if !body.is_empty() {
                        return Err(unstructured(i, ins, "code in a `switch` without `case`"));
                    }
                    let mut seen = std::collections::HashSet::new();
                    if cases.iter().filter(|c| c.is_default).count() > 1
                        || !cases.iter().flat_map(|c| &c.values).all(|v| seen.insert(*v))
                    {
                        return Err(unstructured(i, ins, "a switch with a repeated case value or two defaults"));
                    }
                    stack.last_mut().expect("root").1.push(Node::Switch { at, cases });
                }
                _ => return Err(unstructured(i, ins, "`endswitch` without `switch`")),
            },
            Opcode::BREAK
            | Opcode::BREAKC
            | Opcode::CONTINUE
            | Opcode::CONTINUEC
            | Opcode::RET
            | Opcode::RETC
            | Opcode::DISCARD => {
                let in_loop = stack.iter().any(|(s, _)| matches!(s, Scope::Loop { .. }));
                let in_switch = stack.iter().any(|(s, _)| matches!(s, Scope::Switch { .. }));
                match op {
                    Opcode::BREAK | Opcode::BREAKC if !in_loop && !in_switch => {
                        return Err(unstructured(i, ins, "`break` outside a loop or switch"))
                    }
                    Opcode::CONTINUE | Opcode::CONTINUEC if !in_loop => {
                        return Err(unstructured(i, ins, "`continue` outside a loop"))
                    }
                    _ => {}
                }
                check_operand_shapes(&m, i, ins)?;
                stack.last_mut().expect("root").1.push(Node::Jump(i))
            }
            Opcode::NOP => {}
            Opcode::LABEL | Opcode::CALL | Opcode::CALLC | Opcode::INTERFACE_CALL => {
                return Err(refuse(
                    RefusalReason::Interfaces,
                    i,
                    ins,
                    "subroutines (`label`/`call`/`fcall`) are not translated",
                ))
            }
            Opcode::HS_DECLS | Opcode::HS_CONTROL_POINT_PHASE | Opcode::HS_FORK_PHASE | Opcode::HS_JOIN_PHASE => {
                return Err(refuse(RefusalReason::StageUnsupported, i, ins, "hull-shader phase"))
            }
            _ => {
                check_operand_shapes(&m, i, ins)?;
                if ins.opcode.is_double() {
                    check_double_masks(i, ins)?;
                }
                stack.last_mut().expect("root").1.push(Node::Op(i))
            }
        }
    }
    if stack.len() != 1 {
        let last = program.instructions.len().saturating_sub(1);
        let ins = program.instructions.last().ok_or_else(|| TranslateError::Internal("empty program".into()))?;
        return Err(unstructured(last, ins, "the program ends inside an open `if`/`loop`/`switch`"));
    }
    m.body = stack.pop().expect("root").1;
    expand_ranges(&mut m)?;
    Ok(m)
}

/// Operand shapes the lowering relies on; anything else is malformed (or a form fxc never
/// writes) and refused rather than read as something plausible: temp registers and the
/// constant-buffer id take an immediate index, indexable temps and constant buffers their second
/// index, no 64-bit indices, destinations take a write mask and no modifier.
fn check_operand_shapes(m: &Module<'_>, i: usize, ins: &Instruction) -> Result<(), TranslateError> {
    use crate::sm4::{ComponentSelect, Modifier};
    let bad = |what: String| refuse(RefusalReason::OperandUnsupported, i, ins, what);
    // Registers must be declared (the IR validator's invariants hold for every module built).
    fn declared(m: &Module<'_>, op: &crate::sm4::Operand) -> Result<(), String> {
        match op.ty {
            OperandType::Temp if op.reg() >= m.temps => Err(format!("r{} past dcl_temps {}", op.reg(), m.temps)),
            OperandType::IndexableTemp if !m.indexable_temps.iter().any(|x| x.register == op.reg()) => {
                Err(format!("x{} is not declared", op.reg()))
            }
            _ => op.indices.iter().try_for_each(|x| match x {
                Index::Relative { reg, .. } => declared(m, reg),
                _ => Ok(()),
            }),
        }
    }
    fn walk(
        op: &crate::sm4::Operand,
        depth: u32,
        bad: &dyn Fn(String) -> TranslateError,
    ) -> Result<(), TranslateError> {
        if op.indices.iter().any(|x| matches!(x, Index::Imm64(_))) {
            return Err(bad("a 64-bit register index".into()));
        }
        let need = |n: usize| -> Result<(), TranslateError> {
            if op.indices.len() < n {
                Err(bad(format!("{:?} operand with {} indices (needs {n})", op.ty, op.indices.len())))
            } else {
                Ok(())
            }
        };
        match op.ty {
            OperandType::Temp => {
                need(1)?;
                if op.indices[0].is_relative() {
                    return Err(bad("relative indexing of a temp register (only x# can be indexed)".into()));
                }
            }
            OperandType::IndexableTemp => {
                need(2)?;
                if op.indices[0].is_relative() {
                    return Err(bad("a relative indexable-temp register number".into()));
                }
            }
            OperandType::ConstantBuffer => {
                need(2)?;
                if op.indices[0].is_relative() {
                    return Err(bad("a constant-buffer register chosen by a register (resource arrays)".into()));
                }
            }
            OperandType::Input | OperandType::Output => need(1)?,
            _ => {}
        }
        for x in op.indices.iter() {
            if let Index::Relative { reg, .. } = x {
                if depth > 2 {
                    return Err(bad("relative indices nested too deep".into()));
                }
                walk(reg, depth + 1, bad)?;
            }
        }
        Ok(())
    }
    let nd = ins.dst_count();
    for (k, op) in ins.operands.iter().enumerate() {
        walk(op, 0, &bad)?;
        declared(m, op).map_err(bad)?;
        if k < nd && op.ty != OperandType::Null && op.select.mask() == 0 {
            return Err(bad("a destination with an empty write mask".into()));
        }
        if k < nd && op.ty != OperandType::Null {
            if op.modifier != Modifier::None {
                return Err(bad("a source modifier on a destination".into()));
            }
            if matches!(op.select, ComponentSelect::Swizzle(_) | ComponentSelect::Select1(_)) {
                return Err(bad("a destination with a swizzle instead of a write mask".into()));
            }
        }
    }
    Ok(())
}

/// Write masks of the double-precision instructions (their lowering in `lower/f64.rs` relies on
/// them): a double destination is `.xy`, `.zw` or `.xyzw` (one or two doubles); a 32-bit result
/// of double sources (`dtof`, `dtoi`, `dtou`, the comparisons) has one or two components.
fn check_double_masks(i: usize, ins: &Instruction) -> Result<(), TranslateError> {
    let Some(info) = ins.opcode.info() else { return Ok(()) };
    let Some(dst) = ins.operands.first() else { return Ok(()) };
    if dst.ty == OperandType::Null || info.dst.is_empty() {
        return Ok(());
    }
    let mask = dst.select.mask();
    let ok = if info.dst.starts_with('d') {
        matches!(mask, 0b0011 | 0b1100 | 0b1111)
    } else {
        matches!(mask.count_ones(), 1 | 2)
    };
    if ok {
        return Ok(());
    }
    let what = if info.dst.starts_with('d') {
        "a double destination must be .xy, .zw or .xyzw"
    } else {
        "a 32-bit result of double sources must write one or two components"
    };
    Err(refuse(RefusalReason::OperandUnsupported, i, ins, format!("write mask {mask:#06b}: {what}")))
}

fn case_value(i: usize, ins: &Instruction) -> Result<u32, TranslateError> {
    match ins.operands.first() {
        Some(o) if o.ty == OperandType::Immediate32 && !o.imm.is_empty() => Ok(o.imm[0]),
        _ => Err(refuse(RefusalReason::OperandUnsupported, i, ins, "`case` value is not an immediate")),
    }
}

fn declare(m: &mut Module<'_>, i: usize, ins: &Instruction) -> Result<(), TranslateError> {
    let op = ins.opcode;
    let unsupported = |what: &str| refuse(RefusalReason::DeclarationUnsupported, i, ins, what.to_string());
    // The opcode table's refusal applies to declarations as it does to instructions.
    if let crate::sm4::opcodes::Family::Refused(reason) = op.family() {
        let what = match reason {
            RefusalReason::Interfaces => {
                "class linkage (`dcl_function_body`/`dcl_function_table`/`dcl_interface`): which class \
                 instance each interface slot calls, and where its data lives, is chosen by the \
                 application at SetShader time (ID3D11ClassInstance), information the bytecode does \
                 not carry"
            }
            _ => "this declaration is refused",
        };
        return Err(refuse(reason, i, ins, what.to_string()));
    }
    let Some(decl) = ins.declaration() else {
        return Err(unsupported("this declaration is not translated yet"));
    };
    // SRVs and UAVs: the binding, the shape (a resource of doubles is refused after the range),
    // and the flags of a UAV.
    let resource = match decl {
        Declaration::Resource { binding, dimension, sample_count, return_types } => {
            Some((binding, typed_shape(i, ins, *dimension, *sample_count, return_types), None))
        }
        Declaration::UavTyped { binding, dimension, flags, return_types } => {
            Some((binding, typed_shape(i, ins, *dimension, 0, return_types), Some(*flags)))
        }
        Declaration::ResourceRaw { binding } => Some((binding, Ok(ResourceShape::Raw), None)),
        Declaration::UavRaw { binding, flags } => Some((binding, Ok(ResourceShape::Raw), Some(*flags))),
        Declaration::ResourceStructured { binding, stride } => {
            Some((binding, Ok(ResourceShape::Structured { stride: *stride }), None))
        }
        Declaration::UavStructured { binding, flags, stride } => {
            Some((binding, Ok(ResourceShape::Structured { stride: *stride }), Some(*flags)))
        }
        _ => None,
    };
    if let Some((b, shape, uav_flags)) = resource {
        let range = check_range(i, ins, b)?;
        let shape = shape?;
        let uav = uav_flags.is_some();
        // One declaration per register id: a second would make two WGSL globals of one name.
        if m.resources.iter().any(|r| r.id == b.id && r.uav == uav) {
            return Err(unsupported(if uav { "a UAV id declared twice" } else { "a resource id declared twice" }));
        }
        m.resources.push(ResourceDecl {
            at: i,
            id: b.id,
            slot: b.lower_bound,
            space: b.space,
            shape,
            uav,
            flags: uav_flags.unwrap_or_default(),
            range,
        });
        return Ok(());
    }
    match decl {
        Declaration::GlobalFlags(flags) => m.global_flags = *flags,
        // D3D11.3 limits a shader to 4096 temp registers, r# and x# together (every allocation
        // these counts size is bounded by it).
        &Declaration::Temps(count) => {
            // One `dcl_temps` per program (hull-shader phases, which have one each, are refused
            // before): a second, smaller one would leave the registers earlier instructions
            // use undeclared.
            if m.program.instructions[..i].iter().any(|x| x.opcode == Opcode::DCL_TEMPS) {
                return Err(unsupported("dcl_temps declared twice"));
            }
            let indexable: u64 = m.indexable_temps.iter().map(|x| u64::from(x.size)).sum();
            if u64::from(count) + indexable > u64::from(MAX_TEMP_REGISTERS) {
                return Err(unsupported("dcl_temps past D3D's 4096 temp registers (r# and x# together)"));
            }
            m.temps = count;
        }
        &Declaration::IndexableTemp { register, size, components } => {
            let total: u64 =
                m.indexable_temps.iter().map(|x| u64::from(x.size)).sum::<u64>() + u64::from(size) + u64::from(m.temps);
            if total > u64::from(MAX_TEMP_REGISTERS)
                || register >= MAX_TEMP_REGISTERS
                || components == 0
                || components > limits::INDEXABLE_TEMP_COMPONENTS
            {
                return Err(unsupported("indexable temps past D3D's 4096 temp registers"));
            }
            // One declaration per x# register: a second would make the first's array dead, and
            // the instructions between them read and write another array than they name.
            if m.indexable_temps.iter().any(|x| x.register == register) {
                return Err(unsupported(&format!("x{register} declared twice")));
            }
            m.indexable_temps.push(IndexableTemp { register, size, components })
        }
        Declaration::Input { register, interpolation, system_value } => {
            // A compute shader's inputs are its thread IDs; a v# would be a `@location` argument
            // of the compute entry point, which WGSL forbids.
            if m.version.stage == ShaderStage::Compute && register.ty == OperandType::Input {
                return Err(unsupported("an input register v# in a compute shader"));
            }
            // A geometry shader's inputs are arrays over the primitive's vertices: `v[n][r]`.
            let reg = if m.version.stage == ShaderStage::Geometry && register.ty == OperandType::Input {
                match &register.indices[..] {
                    [_, r] => r.imm(),
                    _ => return Err(unsupported("a geometry-shader input without its vertex dimension (v[n][r])")),
                }
            } else {
                register.reg()
            };
            if reg >= 32 {
                return Err(unsupported(&format!("input register v{reg} beyond D3D's 32")));
            }
            // System-generated pixel-shader inputs (`dcl_input_ps_sgv`) are not interpolated.
            let interpolation = match interpolation {
                Some(mode) if op != Opcode::DCL_INPUT_PS_SGV => {
                    Interpolation::from_mode(*mode).ok_or_else(|| unsupported("interpolation mode"))?
                }
                _ => Interpolation::Undefined,
            };
            m.inputs.push(IoDecl {
                at: i,
                register: reg,
                mask: register.select.mask(),
                system_value: system_value.map_or(0, |s| s.0),
                interpolation,
                operand: register.clone(),
            });
        }
        Declaration::Output { register, system_value } => {
            // A compute shader has no outputs (WGSL's compute entry points return nothing).
            if m.version.stage == ShaderStage::Compute {
                return Err(unsupported("an output declaration in a compute shader"));
            }
            if register.reg() >= 32 {
                return Err(unsupported(&format!("output register o{} beyond D3D's 32", register.reg())));
            }
            if m.version.stage == ShaderStage::Pixel && register.ty == OperandType::Output && register.reg() >= 8 {
                return Err(unsupported(&format!(
                    "pixel output o{}: D3D and WebGPU have 8 render targets",
                    register.reg()
                )));
            }
            m.outputs.push(IoDecl {
                at: i,
                register: register.reg(),
                mask: register.select.mask(),
                system_value: system_value.map_or(0, |s| s.0),
                interpolation: Interpolation::Undefined,
                operand: register.clone(),
            });
        }
        Declaration::ConstantBuffer { binding: b, size, access } => {
            let range = check_range(i, ins, b)?;
            if *size > limits::CONSTANT_BUFFER_ROWS {
                return Err(refuse(
                    RefusalReason::ProgramTooLarge,
                    i,
                    ins,
                    format!("cb{}[{size}]: D3D allows {} rows per constant buffer", b.id, limits::CONSTANT_BUFFER_ROWS),
                ));
            }
            if m.cbuffers.iter().any(|c| c.id == b.id) {
                return Err(unsupported("a constant-buffer id declared twice"));
            }
            m.cbuffers.push(CbDecl {
                at: i,
                id: b.id,
                slot: b.lower_bound,
                space: b.space,
                size: *size,
                dynamic: *access == ConstantBufferAccess::DynamicIndexed,
                range,
            });
        }
        Declaration::Sampler { binding: b, mode } => {
            let range = check_range(i, ins, b)?;
            if m.samplers.iter().any(|s| s.id == b.id) {
                return Err(unsupported("a sampler id declared twice"));
            }
            m.samplers.push(SamplerDecl { at: i, id: b.id, slot: b.lower_bound, space: b.space, mode: *mode, range });
        }
        &Declaration::ThreadGroup(size) => {
            if m.version.stage != ShaderStage::Compute {
                return Err(unsupported("dcl_thread_group outside a compute shader"));
            }
            if m.thread_group.is_some() {
                return Err(unsupported("dcl_thread_group declared twice"));
            }
            m.thread_group = Some(size)
        }
        Declaration::TgsmRaw { register, byte_count } => tgsm(m, i, ins, register, None, u64::from(*byte_count))?,
        Declaration::TgsmStructured { register, stride, count } => {
            tgsm(m, i, ins, register, Some(*stride), u64::from(*stride) * u64::from(*count))?
        }
        Declaration::CustomData(c) if c.class == CustomData::IMMEDIATE_CONSTANT_BUFFER => {
            if c.data.len() % 4 != 0 {
                return Err(unsupported("immediate constant buffer whose size is not a multiple of 4 words"));
            }
            if c.data.len() / 4 > limits::IMMEDIATE_CONSTANT_BUFFER_ROWS {
                return Err(refuse(
                    RefusalReason::ProgramTooLarge,
                    i,
                    ins,
                    format!(
                        "an immediate constant buffer past D3D's {} elements",
                        limits::IMMEDIATE_CONSTANT_BUFFER_ROWS
                    ),
                ));
            }
            if m.icb.is_some() {
                return Err(unsupported("a second immediate constant buffer"));
            }
            m.icb = Some(c.data.chunks_exact(4).map(|r| [r[0], r[1], r[2], r[3]]).collect());
        }
        // Comments, debug data and the other custom-data classes.
        Declaration::CustomData(_) => {}
        Declaration::IndexRange { register, count } => {
            let (first, count) = (register.reg(), *count);
            if register.ty != OperandType::Input || register.indices.len() != 1 {
                return Err(unsupported("dcl_indexrange of outputs or patch registers (relative output addressing)"));
            }
            if count == 0 || first.checked_add(count).is_none_or(|end| end > 32) {
                return Err(unsupported("dcl_indexrange outside v0-v31"));
            }
            m.input_ranges.push((i, first, count));
        }
        Declaration::GsInputPrimitive(_)
        | Declaration::GsOutputPrimitiveTopology(_)
        | Declaration::MaxOutputVertexCount(_)
        | Declaration::GsInstanceCount(_)
        | Declaration::Stream(_)
            if m.version.stage != ShaderStage::Geometry =>
        {
            return Err(unsupported("a geometry-shader declaration outside a geometry shader"))
        }
        // One of each per program: a second would silently replace the first (SM5's per-stream
        // `dcl_outputtopology` repeats the same topology, kept once).
        &Declaration::GsInputPrimitive(_) if m.gs.input_primitive.is_some() => {
            return Err(unsupported("dcl_inputprimitive declared twice"))
        }
        &Declaration::GsInputPrimitive(p) => m.gs.input_primitive = Some((i, p)),
        &Declaration::GsOutputPrimitiveTopology(t) => match m.gs.output_topology {
            Some((_, first)) if first != t => {
                return Err(unsupported(&format!(
                    "dcl_outputtopology {t:?} after dcl_outputtopology {first:?}: one output topology per program"
                )))
            }
            Some(_) => {}
            None => m.gs.output_topology = Some((i, t)),
        },
        &Declaration::MaxOutputVertexCount(_) if m.gs.max_out.is_some() => {
            return Err(unsupported("dcl_maxout declared twice"))
        }
        &Declaration::MaxOutputVertexCount(n) => {
            // D3D11.3 §13.2: 1-1024 vertices (and at most 1024 scalars, checked with the outputs).
            if n == 0 || n > limits::GS_OUTPUT_VERTICES {
                return Err(unsupported(&format!(
                    "dcl_maxout {n}: D3D allows 1-{} output vertices",
                    limits::GS_OUTPUT_VERTICES
                )));
            }
            m.gs.max_out = Some((i, n))
        }
        &Declaration::GsInstanceCount(_) if m.gs.instances.is_some() => {
            return Err(unsupported("dcl_gsinstances declared twice"))
        }
        &Declaration::GsInstanceCount(n) => {
            if n == 0 || n > limits::GS_INSTANCES {
                return Err(unsupported(&format!(
                    "dcl_gsinstances {n}: D3D allows 1-{} instances",
                    limits::GS_INSTANCES
                )));
            }
            m.gs.instances = Some((i, n))
        }
        Declaration::Stream(op) => {
            if op.ty != OperandType::Stream || op.reg() > 3 {
                return Err(unsupported("dcl_stream of something other than m0-m3"));
            }
            m.gs.streams.push(op.reg())
        }
        _ => return Err(unsupported("this declaration is not translated yet")),
    }
    Ok(())
}

/// Thread-group shared memory `g#` of `bytes` bytes (structures of `stride` bytes, or raw).
fn tgsm(
    m: &mut Module<'_>,
    i: usize,
    ins: &Instruction,
    o: &Operand,
    stride: Option<u32>,
    bytes: u64,
) -> Result<(), TranslateError> {
    let unsupported = |what: &str| refuse(RefusalReason::DeclarationUnsupported, i, ins, what.to_string());
    if m.version.stage != ShaderStage::Compute {
        return Err(unsupported("thread-group shared memory outside a compute shader"));
    }
    if o.ty != OperandType::ThreadGroupSharedMemory || o.indices.len() != 1 || o.indices[0].is_relative() {
        return Err(unsupported("a thread-group shared memory declaration without a g# register"));
    }
    let id = o.reg();
    // D3D11.3: byte counts and strides are multiples of 4; all g# together hold at most 32 KB
    // (8192 words) per thread group.
    if bytes == 0 || !bytes.is_multiple_of(4) || stride.is_some_and(|s| s == 0 || !s.is_multiple_of(4)) {
        return Err(unsupported(
            "thread-group shared memory whose size or stride is not a non-zero multiple of 4 bytes",
        ));
    }
    let total = m.tgsm.iter().map(|g| u64::from(g.words) * 4).sum::<u64>() + bytes;
    if total > MAX_TGSM_BYTES {
        return Err(unsupported(&format!(
            "{total} bytes of thread-group shared memory: D3D allows 32768 per thread group"
        )));
    }
    if m.tgsm.iter().any(|g| g.id == id) {
        return Err(unsupported("a g# register declared twice"));
    }
    m.tgsm.push(TgsmDecl { at: i, id, stride, words: (bytes / 4) as u32 });
    Ok(())
}

/// The shape of a typed SRV or UAV; a resource of doubles is refused.
fn typed_shape(
    i: usize,
    ins: &Instruction,
    dimension: ResourceDimension,
    samples: u32,
    return_types: &[ReturnType; 4],
) -> Result<ResourceShape, TranslateError> {
    if return_types.contains(&ReturnType::Double) {
        return Err(refuse(
            RefusalReason::Float64,
            i,
            ins,
            "a resource of doubles (return type `double`): WGSL has no 64-bit texel type",
        ));
    }
    Ok(ResourceShape::Typed { dim: dimension.raw(), ret: return_types.map(|t| t.raw() as u8), samples })
}

const MAX_INSTRUCTIONS: usize = limits::INSTRUCTIONS;
const MAX_TGSM_BYTES: u64 = limits::TGSM_BYTES;
const MAX_TEMP_REGISTERS: u32 = limits::TEMP_REGISTERS;

/// An SM5.1 register range of several registers (`T0[8:15]`, `S0[1:*]`): its id, which the
/// declaration keeps as `range` until [`expand_ranges`] replaces it by its elements; `None` for
/// one register.
fn check_range(i: usize, ins: &Instruction, b: &Binding) -> Result<Option<u32>, TranslateError> {
    if b.upper_bound < b.lower_bound {
        return Err(refuse(
            RefusalReason::DeclarationUnsupported,
            i,
            ins,
            format!(
                "a register range [{}:{}] whose upper bound is below its lower bound",
                b.lower_bound, b.upper_bound
            ),
        ));
    }
    Ok((b.upper_bound != b.lower_bound).then_some(b.id))
}

/// SM5.1 register ranges of several registers (`dcl_resource_texture2d T0[8:15], space=4`,
/// `dcl_sampler S0[1:*]`, unbounded): each register an access names with an immediate index
/// (`T0[10]`) becomes a declaration of its own at that register (`docs/binding-model.md`: bound
/// as a declaration of that one register would be), with a fresh logical id that
/// [`Module::resource_id`] gives the access. A register no instruction names gets no binding
/// (no instruction can read it), which also makes unbounded ranges exact. An access with a
/// register index (`S0[r0.x + 1]`) would need binding arrays, which WebGPU lacks: refused; so is
/// an immediate index outside the range (D3D leaves it undefined).
fn expand_ranges(m: &mut Module<'_>) -> Result<(), TranslateError> {
    use std::collections::BTreeSet;
    let has_range = m.cbuffers.iter().any(|c| c.range.is_some())
        || m.samplers.iter().any(|s| s.range.is_some())
        || m.resources.iter().any(|r| r.range.is_some());
    if !has_range {
        return Ok(());
    }
    // Per range (register type, id): its declaring instruction, bounds and space.
    let mut ranges: HashMap<(OperandType, u32), (usize, u32, u32, u32)> = HashMap::new();
    let declared = m.cbuffers.iter().filter_map(|c| c.range.map(|id| (OperandType::ConstantBuffer, id, c.at)));
    let declared = declared
        .chain(m.samplers.iter().filter_map(|s| s.range.map(|id| (OperandType::Sampler, id, s.at))))
        .chain(m.resources.iter().filter_map(|r| {
            let ty = if r.uav { OperandType::UnorderedAccessView } else { OperandType::Resource };
            r.range.map(|id| (ty, id, r.at))
        }));
    for (ty, id, at) in declared.collect::<Vec<_>>() {
        let b = m.ins(at).declaration().and_then(|d| d.binding()).expect("a binding declaration");
        ranges.insert((ty, id), (at, b.lower_bound, b.upper_bound, b.space));
    }
    // The registers the accesses name; the first access in program order that names none
    // (a register index) or one outside its range refuses the shader.
    let mut used: HashMap<(OperandType, u32), BTreeSet<u32>> = HashMap::new();
    fn accesses<'o>(op: &'o Operand, out: &mut Vec<&'o Operand>) {
        out.push(op);
        for x in &op.indices {
            if let Index::Relative { reg, .. } = x {
                accesses(reg, out);
            }
        }
    }
    for (i, ins) in m.program.instructions.iter().enumerate() {
        if ins.opcode.is_declaration() {
            continue;
        }
        let mut ops = Vec::new();
        ins.operands.iter().for_each(|o| accesses(o, &mut ops));
        for op in ops {
            let Some(&(at, lower, upper, space)) = ranges.get(&(op.ty, op.reg())) else { continue };
            let range = range_name(op.ty, op.reg(), lower, upper, space);
            match op.indices.get(1) {
                Some(Index::Imm(r)) if (lower..=upper).contains(r) => {
                    used.entry((op.ty, op.reg())).or_default().insert(*r);
                }
                Some(Index::Imm(r)) => {
                    return Err(refuse(
                        RefusalReason::OperandUnsupported,
                        i,
                        ins,
                        format!("register {r} is outside the resource array {range} (declared at instruction {at})"),
                    ))
                }
                Some(Index::Relative { .. }) => {
                    return Err(refuse(
                        RefusalReason::WebGpuLimitation,
                        i,
                        ins,
                        format!(
                            "dynamic index into a resource array: needs binding arrays, which WebGPU lacks \
                             ({range}, declared at instruction {at}, indexed by a register)"
                        ),
                    ))
                }
                _ => {
                    return Err(refuse(
                        RefusalReason::OperandUnsupported,
                        i,
                        ins,
                        format!("an access to the resource array {range} without a 32-bit register index"),
                    ))
                }
            }
        }
    }
    // Each range's declaration is replaced by one per register used, in register order, with
    // ids past every id of its list.
    let program = m.program;
    let mut elements = HashMap::new();
    let mut expand = |at: usize, ty: OperandType, range: u32, next: &mut u32| {
        let registers: Vec<u32> = used.get(&(ty, range)).map(|s| s.iter().copied().collect()).unwrap_or_default();
        let mut ids = Vec::new();
        for r in registers {
            let id = *next;
            *next = next.checked_add(1).ok_or_else(|| {
                refuse(
                    RefusalReason::DeclarationUnsupported,
                    at,
                    &program.instructions[at],
                    "register ids up to 4294967295 leave none for the elements of a resource array",
                )
            })?;
            elements.insert((ty, range, r), id);
            ids.push((id, r));
        }
        Ok::<_, TranslateError>(ids)
    };
    let mut next = m.cbuffers.iter().map(|c| c.id).max().map_or(0, |x| x.saturating_add(1));
    let mut cbuffers = Vec::new();
    for c in std::mem::take(&mut m.cbuffers) {
        let Some(range) = c.range else {
            cbuffers.push(c);
            continue;
        };
        for (id, slot) in expand(c.at, OperandType::ConstantBuffer, range, &mut next)? {
            cbuffers.push(CbDecl { id, slot, ..c.clone() });
        }
    }
    m.cbuffers = cbuffers;
    let mut next = m.samplers.iter().map(|s| s.id).max().map_or(0, |x| x.saturating_add(1));
    let mut samplers = Vec::new();
    for s in std::mem::take(&mut m.samplers) {
        let Some(range) = s.range else {
            samplers.push(s);
            continue;
        };
        for (id, slot) in expand(s.at, OperandType::Sampler, range, &mut next)? {
            samplers.push(SamplerDecl { id, slot, ..s.clone() });
        }
    }
    m.samplers = samplers;
    let mut next = m.resources.iter().map(|r| r.id).max().map_or(0, |x| x.saturating_add(1));
    let mut resources = Vec::new();
    for r in std::mem::take(&mut m.resources) {
        let Some(range) = r.range else {
            resources.push(r);
            continue;
        };
        let ty = if r.uav { OperandType::UnorderedAccessView } else { OperandType::Resource };
        for (id, slot) in expand(r.at, ty, range, &mut next)? {
            resources.push(ResourceDecl { id, slot, ..r.clone() });
        }
    }
    m.resources = resources;
    m.range_elements = elements;
    Ok(())
}

/// `T0[8:15], space 4` (`*` for an unbounded range), as a refusal names a range.
fn range_name(ty: OperandType, id: u32, lower: u32, upper: u32, space: u32) -> String {
    let letter = match ty {
        OperandType::ConstantBuffer => "CB",
        OperandType::Sampler => "S",
        OperandType::UnorderedAccessView => "U",
        _ => "T",
    };
    let upper = if upper == u32::MAX { "*".to_string() } else { upper.to_string() };
    format!("{letter}{id}[{lower}:{upper}], space {space}")
}
