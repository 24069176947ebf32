//! Storage types for registers.
//!
//! D3D registers are typeless 32-bit lanes. Any WGSL storage type is exact as long as every
//! read and write goes through `bitcast`; this pass only chooses the storage type that makes the
//! WGSL readable: a temp register (or constant buffer) whose every write (or read) is of one type
//! is stored as that type; mixed use falls back to `u32`.

use super::{Module, Node, ResourceShape};
use crate::sm4::{Opcode, Operand, OperandType};
use std::collections::HashMap;

/// The WGSL scalar type a register is stored as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Storage {
    /// `f32`
    F32,
    /// `u32`
    U32,
    /// `i32`
    I32,
}

impl Storage {
    /// From an opcode-table type letter. Double lanes (`d`) hold raw bits: `u32`.
    pub fn from_letter(c: char) -> Option<Storage> {
        match c {
            'f' => Some(Storage::F32),
            'i' => Some(Storage::I32),
            'u' | 'c' | 'a' | 'o' | 'd' => Some(Storage::U32),
            _ => None,
        }
    }
    /// The naga scalar kind.
    pub fn kind(self) -> naga::ScalarKind {
        match self {
            Storage::F32 => naga::ScalarKind::Float,
            Storage::U32 => naga::ScalarKind::Uint,
            Storage::I32 => naga::ScalarKind::Sint,
        }
    }
}

/// Chosen storage types.
#[derive(Debug, Clone, Default)]
pub struct StorageMap {
    /// Per temp register.
    pub temps: Vec<Option<Storage>>,
    /// Per indexable temp register number.
    pub indexable: HashMap<u32, Storage>,
    /// Per constant-buffer id.
    pub cbuffers: HashMap<u32, Storage>,
    /// The immediate constant buffer.
    pub icb: Option<Storage>,
}

impl StorageMap {
    /// Storage of temp `r#` (u32 when never written).
    pub fn temp(&self, r: u32) -> Storage {
        self.temps.get(r as usize).copied().flatten().unwrap_or(Storage::U32)
    }
}

#[derive(Default, Clone, Copy)]
struct Votes {
    f: u32,
    u: u32,
    i: u32,
    weak_f: u32,
    read_f: u32,
    read_other: u32,
}

impl Votes {
    fn strong(&mut self, s: Storage) {
        match s {
            Storage::F32 => self.f += 1,
            Storage::U32 => self.u += 1,
            Storage::I32 => self.i += 1,
        }
    }
    fn decide(&self) -> Option<Storage> {
        let kinds = (self.f > 0) as u32 + (self.u > 0) as u32 + (self.i > 0) as u32;
        match kinds {
            0 if self.weak_f + self.read_f + self.read_other == 0 => None,
            0 => Some(if self.weak_f > 0 || self.read_f >= self.read_other { Storage::F32 } else { Storage::U32 }),
            1 if self.f > 0 => Some(Storage::F32),
            1 if self.i > 0 => Some(Storage::I32),
            _ => Some(Storage::U32),
        }
    }
}

fn float_looking(bits: u32) -> bool {
    let e = (bits >> 23) & 0xff;
    bits & 0x7fff_ffff == 0 || (e != 0 && e != 0xff)
}

/// Infers storage types for a module's registers.
pub fn infer_storage(m: &Module<'_>) -> StorageMap {
    let mut map = StorageMap { temps: vec![None; m.temps as usize], ..Default::default() };
    let mut ops = Vec::new();
    collect(&m.body, &mut ops);
    let return_storage = |op: &Operand| -> Option<Storage> {
        let d = m
            .resources
            .iter()
            .find(|r| r.id == m.resource_id(op) && (op.ty == OperandType::UnorderedAccessView) == r.uav)?;
        match d.shape {
            ResourceShape::Typed { ret, .. } => match ret[0] {
                3 => Some(Storage::I32),
                4 => Some(Storage::U32),
                _ => Some(Storage::F32),
            },
            _ => Some(Storage::U32),
        }
    };
    for _round in 0..4 {
        let mut temp_votes = vec![Votes::default(); m.temps as usize];
        let mut x_votes: HashMap<u32, Votes> = HashMap::new();
        let mut cb_votes: HashMap<u32, Votes> = HashMap::new();
        let mut icb_votes = Votes::default();
        for &i in &ops {
            let ins = m.ins(i);
            let Some(info) = ins.opcode.info() else { continue };
            let nd = info.dst.len();
            let letters: Vec<char> = info.dst.chars().chain(info.src.chars()).collect();
            // What the untyped ('x') destinations receive.
            let src_storage = |k: usize| -> (Option<Storage>, bool) {
                let Some(o) = ins.operands.get(k) else { return (None, false) };
                match o.ty {
                    OperandType::Temp => (map.temps.get(o.reg() as usize).copied().flatten(), true),
                    OperandType::IndexableTemp => (map.indexable.get(&o.reg()).copied(), true),
                    OperandType::Immediate32 => {
                        if o.imm.iter().all(|&b| float_looking(b)) {
                            (Some(Storage::F32), false)
                        } else {
                            (Some(Storage::U32), true)
                        }
                    }
                    OperandType::ConstantBuffer | OperandType::ImmediateConstantBuffer => (None, false),
                    // Compute-shader thread IDs are unsigned integers.
                    OperandType::InputThreadId
                    | OperandType::InputThreadGroupId
                    | OperandType::InputThreadIdInGroup
                    | OperandType::InputThreadIdInGroupFlattened => (Some(Storage::U32), true),
                    _ => (Some(Storage::F32), false),
                }
            };
            let x_type: (Option<Storage>, bool) = match ins.opcode {
                Opcode::MOV => src_storage(nd),
                Opcode::MOVC => {
                    let a = src_storage(nd + 1);
                    let b = src_storage(nd + 2);
                    if a.0 == b.0 {
                        (a.0, a.1 || b.1)
                    } else if a.0.is_none() {
                        b
                    } else if b.0.is_none() {
                        a
                    } else {
                        (Some(Storage::U32), true)
                    }
                }
                Opcode::SWAPC => (None, false),
                Opcode::RESINFO => (Some(if ins.control & 3 == 2 { Storage::U32 } else { Storage::F32 }), true),
                Opcode::SAMPLE_INFO => (Some(if ins.control & 1 != 0 { Storage::U32 } else { Storage::F32 }), true),
                Opcode::LD_RAW | Opcode::LD_STRUCTURED | Opcode::LD_RAW_FEEDBACK | Opcode::LD_STRUCTURED_FEEDBACK => {
                    (Some(Storage::U32), true)
                }
                _ => {
                    let res = letters.iter().position(|&c| c == 'r').and_then(|k| ins.operands.get(k));
                    (res.and_then(return_storage), true)
                }
            };
            for (k, o) in ins.operands.iter().enumerate() {
                let c = letters.get(k).copied().unwrap_or('x');
                let is_dst = k < nd;
                let votes = match o.ty {
                    OperandType::Temp => temp_votes.get_mut(o.reg() as usize),
                    OperandType::IndexableTemp => Some(x_votes.entry(o.reg()).or_default()),
                    OperandType::ConstantBuffer if !is_dst => Some(cb_votes.entry(m.resource_id(o)).or_default()),
                    OperandType::ImmediateConstantBuffer if !is_dst => Some(&mut icb_votes),
                    _ => None,
                };
                let Some(v) = votes else { continue };
                if is_dst {
                    let s = if c == 'x' { x_type } else { (Storage::from_letter(c), true) };
                    match s {
                        (Some(st), true) => v.strong(st),
                        (Some(Storage::F32), false) => v.weak_f += 1,
                        _ => {}
                    }
                } else {
                    match c {
                        'f' => v.read_f += 1,
                        'x' => {}
                        _ => v.read_other += 1,
                    }
                    if matches!(o.ty, OperandType::ConstantBuffer | OperandType::ImmediateConstantBuffer)
                        && c != 'f'
                        && c != 'x'
                    {
                        v.u += 1;
                    }
                }
            }
            // Relative indices read registers as integers.
            for o in &ins.operands {
                for idx in &o.indices {
                    if let crate::sm4::Index::Relative { reg, .. } = idx {
                        if reg.ty == OperandType::Temp {
                            if let Some(v) = temp_votes.get_mut(reg.reg() as usize) {
                                v.read_other += 1;
                            }
                        }
                    }
                }
            }
        }
        let temps: Vec<Option<Storage>> = temp_votes.iter().map(Votes::decide).collect();
        let indexable: HashMap<u32, Storage> =
            x_votes.iter().map(|(k, v)| (*k, v.decide().unwrap_or(Storage::U32))).collect();
        let cbuffers: HashMap<u32, Storage> = cb_votes
            .iter()
            .map(|(k, v)| (*k, if v.u == 0 && v.read_other == 0 { Storage::F32 } else { Storage::U32 }))
            .collect();
        let icb = Some(if icb_votes.u == 0 && icb_votes.read_other == 0 { Storage::F32 } else { Storage::U32 });
        let changed = temps != map.temps || indexable != map.indexable;
        map = StorageMap { temps, indexable, cbuffers, icb };
        if !changed {
            break;
        }
    }
    map
}

fn collect(block: &[Node], out: &mut Vec<usize>) {
    for n in block {
        match n {
            Node::Op(i) | Node::Jump(i) => out.push(*i),
            Node::If { at, then, otherwise } => {
                out.push(*at);
                collect(then, out);
                collect(otherwise, out);
            }
            Node::Loop { body, .. } => collect(body, out),
            Node::Switch { at, cases } => {
                out.push(*at);
                for c in cases {
                    collect(&c.body, out);
                }
            }
        }
    }
}
