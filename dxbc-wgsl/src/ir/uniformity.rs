//! Uniformity analysis, as WGSL (and Tint) define it.
//!
//! WGSL rejects derivatives and implicit-LOD sampling in control flow it cannot prove uniform;
//! D3D defines them there (per 2×2 quad). This pass finds the first such instruction so that the
//! emitter adds `diagnostic(off, derivative_uniformity)` where it is needed, and only there.
//!
//! WGSL's barriers (`workgroupBarrier`, `storageBarrier`, `textureBarrier`) must sit in control
//! flow that is uniform across the workgroup too, and for them no diagnostic filter exists: the
//! pass also finds the first `sync` where WGSL cannot prove that, and the lowering refuses it.
//!
//! The analysis must never call something uniform that Tint calls non-uniform (Tint would then
//! reject the module), so where in doubt it says non-uniform:
//! - a register is tracked whole (Tint tracks a `vec4` variable as one value): it is non-uniform
//!   when any write to it, anywhere, stores a non-uniform value or happens in non-uniform control
//!   flow (flow-insensitive, iterated to a fixed point);
//! - non-uniform values: stage inputs (in compute shaders `vThreadID`, `vThreadIDInGroup` and
//!   `vThreadIDInGroupFlattened`; `vThreadGroupID` is uniform, as WGSL's `workgroup_id`),
//!   sample/gather results, UAV and thread-group shared memory reads, and atomics; other
//!   instructions are non-uniform when a source (or a relative index) is;
//! - control flow is non-uniform inside an `if`/`switch` on a non-uniform value, in a loop body
//!   whose loop has a non-uniform exit (`break`/`continue`/`ret` under non-uniform control, or
//!   a conditional one on a non-uniform value), and for the rest of the function after a `ret`
//!   under non-uniform control. After a loop, control is uniform again (as in WGSL);
//!   `discard` (a demote to helper invocation in WGSL) does not change uniformity.

use super::{Block, Module, Node};
use crate::sm4::opcodes::{UNIFORM, VARYING};
use crate::sm4::{Index, Opcode, Operand, OperandType};

/// Whether an opcode needs uniform control flow in WGSL (derivatives, implicit-LOD sampling):
/// the table's [`UNIFORM`] flag.
pub fn needs_uniform_control(op: Opcode) -> bool {
    op.has(UNIFORM)
}

struct State {
    temps: Vec<bool>,
    indexable: Vec<(u32, bool)>,
    changed: bool,
    first_violation: Option<usize>,
    first_barrier: Option<usize>,
}

impl State {
    fn reg_nonuniform(&self, op: &Operand) -> bool {
        let idx_nu = op.indices.iter().any(|i| match i {
            Index::Relative { reg, .. } => self.reg_nonuniform(reg),
            _ => false,
        });
        idx_nu
            || match op.ty {
                OperandType::Temp => self.temps.get(op.reg() as usize).copied().unwrap_or(true),
                OperandType::IndexableTemp => {
                    self.indexable.iter().find(|(r, _)| *r == op.reg()).map(|x| x.1).unwrap_or(true)
                }
                OperandType::Input
                | OperandType::InputCoverageMask
                | OperandType::InputPrimitiveId
                | OperandType::InputThreadId
                | OperandType::InputThreadIdInGroup
                | OperandType::InputThreadIdInGroupFlattened
                | OperandType::UnorderedAccessView
                | OperandType::ThreadGroupSharedMemory
                | OperandType::InnerCoverage
                | OperandType::CycleCounter => true,
                _ => false,
            }
    }
    fn mark(&mut self, op: &Operand) {
        let slot = match op.ty {
            OperandType::Temp => self.temps.get_mut(op.reg() as usize),
            OperandType::IndexableTemp => self.indexable.iter_mut().find(|(r, _)| *r == op.reg()).map(|x| &mut x.1),
            _ => None,
        };
        if let Some(s) = slot {
            if !*s {
                *s = true;
                self.changed = true;
            }
        }
    }
}

/// Returns the index of the first instruction that needs uniform control flow but sits in
/// control flow WGSL's analysis may call non-uniform.
pub fn first_nonuniform_derivative(m: &Module<'_>) -> Option<usize> {
    analyze(m).first_violation
}

/// Returns the index of the first `sync` (a WGSL barrier) in control flow WGSL's analysis may call
/// non-uniform across the workgroup.
pub fn first_nonuniform_barrier(m: &Module<'_>) -> Option<usize> {
    analyze(m).first_barrier
}

fn analyze(m: &Module<'_>) -> State {
    let mut st = State {
        temps: vec![false; m.temps as usize],
        indexable: m.indexable_temps.iter().map(|x| (x.register, false)).collect(),
        changed: true,
        first_violation: None,
        first_barrier: None,
    };
    // Fixed point: registers only ever go from uniform to non-uniform.
    let mut rounds = 0;
    while st.changed && rounds < 64 {
        st.changed = false;
        st.first_violation = None;
        st.first_barrier = None;
        let mut after_return = false;
        walk(m, &m.body, false, &mut after_return, &mut st);
        rounds += 1;
    }
    if st.changed {
        // No fixed point within the round limit: call every register non-uniform (sound).
        st.temps.iter_mut().for_each(|t| *t = true);
        st.indexable.iter_mut().for_each(|x| x.1 = true);
        st.first_violation = None;
        st.first_barrier = None;
        let mut after_return = false;
        walk(m, &m.body, false, &mut after_return, &mut st);
    }
    st
}

/// Walks a block; `nu` says whether control is non-uniform on entry. Returns whether a
/// non-uniform exit (break/continue/return) leaves this block's loop.
fn walk(m: &Module<'_>, block: &Block, nu: bool, after_return: &mut bool, st: &mut State) -> bool {
    let mut nu_exit = false;
    for node in block {
        let cf_nu = nu || *after_return;
        match node {
            Node::Op(i) => {
                let ins = m.ins(*i);
                if needs_uniform_control(ins.opcode) && cf_nu && st.first_violation.is_none() {
                    st.first_violation = Some(*i);
                }
                if ins.opcode == Opcode::SYNC && cf_nu && st.first_barrier.is_none() {
                    st.first_barrier = Some(*i);
                }
                let nd = ins.dst_count();
                let reads_varying = ins.opcode.has(VARYING) || ins.opcode.is_atomic();
                let value_nu = cf_nu || reads_varying || ins.operands.iter().skip(nd).any(|o| st.reg_nonuniform(o));
                if value_nu {
                    for d in ins.operands.iter().take(nd) {
                        st.mark(d);
                    }
                }
            }
            Node::If { at, then, otherwise } => {
                let c = cf_nu || st.reg_nonuniform(&m.ins(*at).operands[0]);
                nu_exit |= walk(m, then, c, after_return, st);
                nu_exit |= walk(m, otherwise, c, after_return, st);
            }
            Node::Switch { at, cases } => {
                let c = cf_nu || st.reg_nonuniform(&m.ins(*at).operands[0]);
                for case in cases {
                    // A `break` leaves the switch, not an enclosing loop: only returns and
                    // continues propagate (conservatively: any non-uniform exit of a body that
                    // holds a continue or return).
                    let exits = walk(m, &case.body, c, after_return, st);
                    nu_exit |= exits && contains_loop_exit(m, &case.body);
                }
            }
            Node::Loop { body, .. } => {
                // A first pass finds whether the loop has a non-uniform exit; if so the whole
                // body (later iterations run with fewer invocations) is non-uniform.
                let mut ar = *after_return;
                let exits = walk(m, body, cf_nu, &mut ar, st);
                let mut ar2 = *after_return;
                if exits && !cf_nu {
                    walk(m, body, true, &mut ar2, st);
                }
                *after_return = ar || ar2;
            }
            Node::Jump(i) => {
                let ins = m.ins(*i);
                let conditional_nu = match ins.opcode {
                    Opcode::BREAKC | Opcode::CONTINUEC | Opcode::RETC => st.reg_nonuniform(&ins.operands[0]),
                    _ => false,
                };
                let exit_nu = cf_nu || conditional_nu;
                match ins.opcode {
                    Opcode::RET | Opcode::RETC if exit_nu => {
                        *after_return = true;
                        nu_exit = true;
                    }
                    Opcode::BREAK | Opcode::BREAKC | Opcode::CONTINUE | Opcode::CONTINUEC if exit_nu => nu_exit = true,
                    _ => {}
                }
            }
        }
    }
    nu_exit
}

/// Whether a block contains a jump that leaves an enclosing loop (continue or return).
fn contains_loop_exit(m: &Module<'_>, block: &Block) -> bool {
    block.iter().any(|n| match n {
        Node::Jump(i) => matches!(m.ins(*i).opcode, Opcode::CONTINUE | Opcode::CONTINUEC | Opcode::RET | Opcode::RETC),
        Node::If { then, otherwise, .. } => contains_loop_exit(m, then) || contains_loop_exit(m, otherwise),
        Node::Switch { cases, .. } => cases.iter().any(|c| contains_loop_exit(m, &c.body)),
        Node::Loop { .. } | Node::Op(_) => false,
    })
}
