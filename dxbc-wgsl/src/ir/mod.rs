//! The IR: the decoded program with its declarations gathered into an interface description and
//! its body kept as DXBC's own scoped control flow (`if`/`loop`/`switch` become nested blocks), so
//! WGSL's structured statements come straight out of it.
//!
//! Instructions are not copied: a [`Node::Op`] refers to the decoded instruction by its index in
//! [`crate::sm4::Program::instructions`], and keeps D3D's meaning (typeless 32-bit lanes, write
//! masks, swizzles, source modifiers typed by the consumer). Where WGSL differs, the lowering
//! fixes it up; `docs/ir.md`-style notes live on each lowering function.
//!
//! [`validate`] checks the invariants the lowering relies on; tests run it between phases.

mod build;
pub use build::MAX_NESTING;
pub mod types;
pub mod uniformity;

pub use build::build;
pub use types::{infer_storage, Storage, StorageMap};

use crate::chunks::signature::Signature;
use crate::sm4::decl::{GlobalFlags, InterpolationMode, SamplerMode, UavFlags};
use crate::sm4::{Index, Instruction, Operand, OperandType, Program, ShaderVersion};
use std::collections::HashMap;

/// A block of nodes.
pub type Block = Vec<Node>;

/// A node of the scoped body.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// An ordinary instruction, by index into the program.
    Op(usize),
    /// `if_nz`/`if_z` with its branches. `at` is the `if` instruction's index.
    If {
        /// Index of the `if` instruction (its condition operand is operand 0).
        at: usize,
        /// Then-branch.
        then: Block,
        /// Else-branch (empty when there is no `else`).
        otherwise: Block,
    },
    /// `loop` … `endloop`.
    Loop {
        /// Index of the `loop` instruction.
        at: usize,
        /// Body.
        body: Block,
    },
    /// `switch` with its cases; `at` is the `switch` instruction's index.
    Switch {
        /// Index of the `switch` instruction.
        at: usize,
        /// Cases in order. Consecutive labels with no code between them are merged.
        cases: Vec<Case>,
    },
    /// `break`, `continue`, `ret`, and their conditional forms, and `discard`: by index.
    Jump(usize),
}

/// One clause of a switch.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// Case values (raw 32-bit), empty for the default-only clause.
    pub values: Vec<u32>,
    /// Whether `default` is among the labels.
    pub is_default: bool,
    /// Body (in DXBC it normally ends with `break`).
    pub body: Block,
    /// Index of the first label instruction.
    pub at: usize,
}

/// Interpolation mode of a pixel-shader input (`D3D10_SB_INTERPOLATION_MODE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// 0: undefined (vertex inputs, system values).
    Undefined,
    /// 1: constant (flat).
    Constant,
    /// 2: linear (perspective-correct).
    Linear,
    /// 3: linear centroid.
    LinearCentroid,
    /// 4: linear noperspective.
    LinearNoPerspective,
    /// 5: linear noperspective centroid.
    LinearNoPerspectiveCentroid,
    /// 6: linear sample.
    LinearSample,
    /// 7: linear noperspective sample.
    LinearNoPerspectiveSample,
}

impl Interpolation {
    /// From a declaration's interpolation mode; `None` for a mode the format does not define.
    pub fn from_mode(mode: InterpolationMode) -> Option<Self> {
        use InterpolationMode as M;
        Some(match mode {
            M::Undefined => Interpolation::Undefined,
            M::Constant => Interpolation::Constant,
            M::Linear => Interpolation::Linear,
            M::LinearCentroid => Interpolation::LinearCentroid,
            M::LinearNoPerspective => Interpolation::LinearNoPerspective,
            M::LinearNoPerspectiveCentroid => Interpolation::LinearNoPerspectiveCentroid,
            M::LinearSample => Interpolation::LinearSample,
            M::LinearNoPerspectiveSample => Interpolation::LinearNoPerspectiveSample,
            M::Reserved(_) => return None,
        })
    }
}

/// An input or output register declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct IoDecl {
    /// Declaring instruction index.
    pub at: usize,
    /// Register type of the declared operand (input, output, or a special register).
    pub operand: Operand,
    /// Register number (for `v#`/`o#`).
    pub register: u32,
    /// Declared mask.
    pub mask: u8,
    /// System value (`D3D10_SB_NAME`) for `_siv`/`_sgv` forms, else 0.
    pub system_value: u32,
    /// Interpolation (pixel-shader inputs).
    pub interpolation: Interpolation,
}

/// A constant-buffer declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct CbDecl {
    /// Declaring instruction index.
    pub at: usize,
    /// Logical register id (the `cb#` a program names; equals `slot` before SM5.1).
    pub id: u32,
    /// Bind slot (`b#`).
    pub slot: u32,
    /// Register space.
    pub space: u32,
    /// Size in 16-byte registers.
    pub size: u32,
    /// `dynamicIndexed`.
    pub dynamic: bool,
    /// For an element of an SM5.1 register range of several registers, the range's id (`id` is
    /// then the element's own logical id and `slot` its register; [`Module::range_elements`]);
    /// `None` for a declaration of one register.
    pub range: Option<u32>,
}

/// A sampler declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerDecl {
    /// Declaring instruction index.
    pub at: usize,
    /// Logical id (`s#`).
    pub id: u32,
    /// Bind slot.
    pub slot: u32,
    /// Space.
    pub space: u32,
    /// Mode.
    pub mode: SamplerMode,
    /// For an element of an SM5.1 register range of several registers, the range's id (`id` is
    /// then the element's own logical id and `slot` its register; [`Module::range_elements`]);
    /// `None` for a declaration of one register.
    pub range: Option<u32>,
}

/// What kind of SRV/UAV a declaration makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResourceShape {
    /// A typed texture or buffer of the given `D3D10_SB_RESOURCE_DIMENSION`.
    Typed {
        /// Resource dimension, the value of the declaration's
        /// [`ResourceDimension`](crate::sm4::decl::ResourceDimension) (1 buffer, 2 texture1d,
        /// 3 texture2d, 4 texture2dms, 5 texture3d, 6 texturecube, 7 texture1darray,
        /// 8 texture2darray, 9 texture2dmsarray, 10 texturecubearray).
        dim: u32,
        /// Return type per component, the values of the declaration's
        /// [`ReturnType`](crate::sm4::decl::ReturnType)s (1 unorm, 2 snorm, 3 sint, 4 uint,
        /// 5 float, 6 mixed, 7 double, 8 continued, 9 unused).
        ret: [u8; 4],
        /// Sample count for multisampled textures (0 for UAVs).
        samples: u32,
    },
    /// Raw (byte-address) buffer.
    Raw,
    /// Structured buffer with a stride in bytes.
    Structured {
        /// Stride in bytes.
        stride: u32,
    },
}

/// An SRV (`t#`) or UAV (`u#`) declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceDecl {
    /// Declaring instruction index.
    pub at: usize,
    /// Logical id.
    pub id: u32,
    /// Bind slot.
    pub slot: u32,
    /// Space.
    pub space: u32,
    /// Shape.
    pub shape: ResourceShape,
    /// UAV (true) or SRV.
    pub uav: bool,
    /// UAV flags (globally coherent, rasterizer ordered, hidden counter); none for SRVs.
    pub flags: UavFlags,
    /// For an element of an SM5.1 register range of several registers, the range's id (`id` is
    /// then the element's own logical id and `slot` its register; [`Module::range_elements`]);
    /// `None` for a declaration of one register.
    pub range: Option<u32>,
}

/// An indexable temp (`x#[n]`) declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexableTemp {
    /// Register number.
    pub register: u32,
    /// Number of elements.
    pub size: u32,
    /// Components per element (1–4).
    pub components: u32,
}

/// A thread-group shared memory declaration (`dcl_tgsm_raw g#, bytes` or
/// `dcl_tgsm_structured g#, stride, count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TgsmDecl {
    /// Declaring instruction index.
    pub at: usize,
    /// Register number (`g#`).
    pub id: u32,
    /// Structure stride in bytes; `None` for raw memory.
    pub stride: Option<u32>,
    /// Size in 32-bit words (a non-zero multiple of the stride's words).
    pub words: u32,
}

/// The IR of one shader.
#[derive(Debug, Clone)]
pub struct Module<'p> {
    /// The decoded program (instructions are referenced by index).
    pub program: &'p Program,
    /// Version.
    pub version: ShaderVersion,
    /// Input signature.
    pub input_signature: &'p Signature,
    /// Output signature.
    pub output_signature: &'p Signature,
    /// Byte offset of the container's program chunk (for diagnostics).
    pub program_offset: usize,
    /// `dcl_globalFlags`.
    pub global_flags: GlobalFlags,
    /// The `SFI0` feature flags (`D3D_SHADER_REQUIRES_*`); 0 when the chunk is absent.
    pub feature_flags: u64,
    /// Number of temp registers (`dcl_temps`).
    pub temps: u32,
    /// Indexable temps.
    pub indexable_temps: Vec<IndexableTemp>,
    /// Input declarations.
    pub inputs: Vec<IoDecl>,
    /// Output declarations.
    pub outputs: Vec<IoDecl>,
    /// Constant buffers.
    pub cbuffers: Vec<CbDecl>,
    /// Samplers.
    pub samplers: Vec<SamplerDecl>,
    /// SRVs and UAVs.
    pub resources: Vec<ResourceDecl>,
    /// The elements of SM5.1 register ranges of several registers (`T0[8:15]`), each accessed
    /// with an immediate index and declared on its own above: per (register type, range id,
    /// register) the element's logical id ([`Module::resource_id`]).
    pub range_elements: HashMap<(OperandType, u32, u32), u32>,
    /// Immediate constant buffer (`dcl_immediateConstantBuffer`), as 4-word rows.
    pub icb: Option<Vec<[u32; 4]>>,
    /// `dcl_indexrange` of input registers: (declaring instruction, first register, count).
    pub input_ranges: Vec<(usize, u32, u32)>,
    /// `dcl_thread_group`.
    pub thread_group: Option<[u32; 3]>,
    /// Thread-group shared memory (`g#`), at most D3D's 32 KB together.
    pub tgsm: Vec<TgsmDecl>,
    /// A geometry shader's declarations.
    pub gs: GsDecl,
    /// The body.
    pub body: Block,
}

/// A geometry shader's declarations (D3D11.3 §13.2): the input primitive, the output
/// topology, the maximum output vertex count, the instance count and the declared streams.
#[derive(Debug, Clone, Default)]
pub struct GsDecl {
    /// `dcl_inputprimitive`, with its instruction.
    pub input_primitive: Option<(usize, crate::sm4::decl::InputPrimitive)>,
    /// `dcl_outputtopology`.
    pub output_topology: Option<(usize, crate::sm4::decl::PrimitiveTopology)>,
    /// `dcl_maxout`.
    pub max_out: Option<(usize, u32)>,
    /// `dcl_gsinstances` (1 when absent).
    pub instances: Option<(usize, u32)>,
    /// `dcl_stream m#` (SM5), in order.
    pub streams: Vec<u32>,
}

impl<'p> Module<'p> {
    /// The instruction at an index.
    pub fn ins(&self, i: usize) -> &'p Instruction {
        &self.program.instructions[i]
    }

    /// The logical id of the declaration a resource, sampler or constant-buffer operand names:
    /// its own id (`T1`, `t1`), or for `T0[10]`, an element of a range expanded into separate
    /// declarations, that element's id. The builder refuses any other access to such a range.
    pub fn resource_id(&self, op: &Operand) -> u32 {
        let id = op.reg();
        if self.range_elements.is_empty() {
            return id;
        }
        match op.indices.get(1) {
            Some(Index::Imm(register)) => self.range_elements.get(&(op.ty, id, *register)).copied().unwrap_or(id),
            _ => id,
        }
    }
}

/// Checks the invariants the lowering relies on: every node refers to an instruction of the
/// right kind, registers are within their declarations, write masks are non-empty, and
/// control-flow jumps sit inside the construct they leave.
///
/// # Errors
/// A description of the first broken invariant.
pub fn validate(m: &Module<'_>) -> Result<(), String> {
    use crate::sm4::Opcode;
    fn check_operand(m: &Module<'_>, i: usize, op: &Operand, is_dst: bool) -> Result<(), String> {
        match op.ty {
            OperandType::Temp if op.reg() >= m.temps => {
                return Err(format!("instruction {i}: r{} past dcl_temps {}", op.reg(), m.temps));
            }
            OperandType::IndexableTemp if !m.indexable_temps.iter().any(|x| x.register == op.reg()) => {
                return Err(format!("instruction {i}: x{} is not declared", op.reg()));
            }
            _ => {}
        }
        if is_dst && op.select.mask() == 0 && op.ty != OperandType::Null {
            return Err(format!("instruction {i}: empty write mask"));
        }
        Ok(())
    }
    fn walk(m: &Module<'_>, block: &Block, loops: u32, breakable: u32) -> Result<(), String> {
        for n in block {
            match n {
                Node::Op(i) => {
                    let ins = m.ins(*i);
                    if ins.opcode.is_declaration() {
                        return Err(format!("instruction {i}: declaration `{}` in the body", ins.opcode.name()));
                    }
                    let nd = ins.dst_count();
                    for (k, op) in ins.operands.iter().enumerate() {
                        check_operand(m, *i, op, k < nd)?;
                    }
                }
                Node::If { at, then, otherwise } => {
                    if m.ins(*at).opcode != Opcode::IF {
                        return Err(format!("instruction {at}: If node on `{}`", m.ins(*at).opcode.name()));
                    }
                    walk(m, then, loops, breakable)?;
                    walk(m, otherwise, loops, breakable)?;
                }
                Node::Loop { at, body } => {
                    if m.ins(*at).opcode != Opcode::LOOP {
                        return Err(format!("instruction {at}: Loop node on `{}`", m.ins(*at).opcode.name()));
                    }
                    walk(m, body, loops + 1, breakable + 1)?;
                }
                Node::Switch { at, cases } => {
                    if m.ins(*at).opcode != Opcode::SWITCH {
                        return Err(format!("instruction {at}: Switch node on `{}`", m.ins(*at).opcode.name()));
                    }
                    if cases.iter().filter(|c| c.is_default).count() > 1 {
                        return Err(format!("instruction {at}: two defaults"));
                    }
                    for c in cases {
                        walk(m, &c.body, loops, breakable + 1)?;
                    }
                }
                Node::Jump(i) => {
                    let op = m.ins(*i).opcode;
                    match op {
                        Opcode::BREAK | Opcode::BREAKC if breakable == 0 => {
                            return Err(format!("instruction {i}: break outside loop/switch"))
                        }
                        Opcode::CONTINUE | Opcode::CONTINUEC if loops == 0 => {
                            return Err(format!("instruction {i}: continue outside loop"))
                        }
                        Opcode::BREAK
                        | Opcode::BREAKC
                        | Opcode::CONTINUE
                        | Opcode::CONTINUEC
                        | Opcode::RET
                        | Opcode::RETC
                        | Opcode::DISCARD => {}
                        other => return Err(format!("instruction {i}: `{}` is not a jump", other.name())),
                    }
                }
            }
        }
        Ok(())
    }
    walk(m, &m.body, 0, 0)
}
