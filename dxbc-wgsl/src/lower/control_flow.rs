//! Structured control flow: blocks, `if`, `loop` and `switch`, the jumps (`break`, `continue`,
//! `ret`, `discard` and their conditional forms), `return` with the output struct, and the `sync`
//! barrier.

use super::{refuse_at, Cx, E, R, U};
use crate::ir::{Block, Node};
use crate::refusal::RefusalReason;
use crate::sm4::Opcode;
use naga::{BinaryOperator as B, Expression, Statement, SwitchValue};

/// Whether a loop body contains a `break`/`breakc` that leaves this loop (not an inner loop or
/// switch).
fn breaks_out(m: &crate::ir::Module<'_>, body: &Block) -> bool {
    body.iter().any(|n| match n {
        Node::Jump(i) => matches!(m.ins(*i).opcode, Opcode::BREAK | Opcode::BREAKC),
        Node::If { then, otherwise, .. } => breaks_out(m, then) || breaks_out(m, otherwise),
        Node::Loop { .. } | Node::Switch { .. } | Node::Op(_) => false,
    })
}

/// Whether a block contains a `ret`/`retc` at any depth.
fn returns_inside(m: &crate::ir::Module<'_>, body: &Block) -> bool {
    body.iter().any(|n| match n {
        Node::Jump(i) => matches!(m.ins(*i).opcode, Opcode::RET | Opcode::RETC),
        Node::If { then, otherwise, .. } => returns_inside(m, then) || returns_inside(m, otherwise),
        Node::Loop { body, .. } => returns_inside(m, body),
        Node::Switch { cases, .. } => cases.iter().any(|c| returns_inside(m, &c.body)),
        Node::Op(_) => false,
    })
}

impl Cx<'_, '_> {
    /// Lowers a block; returns whether it ended in an unconditional jump (later code is dead).
    pub(crate) fn block(&mut self, block: &Block) -> R<bool> {
        for node in block {
            match node {
                Node::Op(i) => self.op(*i)?,
                Node::If { at, then, otherwise } => {
                    let cond = self.condition(*at)?;
                    self.b.open();
                    let then_ends = self.block(then)?;
                    let accept = self.b.close();
                    self.b.open();
                    let else_ends = self.block(otherwise)?;
                    let reject = self.b.close();
                    self.b.stmt(Statement::If { condition: cond, accept, reject });
                    if then_ends && else_ends {
                        // Both branches leave: what follows is dead (and WGSL warns about it).
                        return Ok(true);
                    }
                }
                Node::Loop { at, body } => {
                    if !breaks_out(self.m, body) && !returns_inside(self.m, body) {
                        return Err(refuse_at(
                            self,
                            *at,
                            RefusalReason::WebGpuLimitation,
                            "a loop with no `break` or `ret`: WGSL rejects loops that cannot exit (D3D would hang)",
                        ));
                    }
                    self.b.open();
                    self.block(body)?;
                    let body_block = self.b.close();
                    self.b.stmt(Statement::Loop { body: body_block, continuing: naga::Block::new(), break_if: None });
                    if !breaks_out(self.m, body) {
                        // A loop nothing breaks out of only ends by `ret`.
                        return Ok(true);
                    }
                }
                Node::Switch { at, cases } => {
                    let ins = self.m.ins(*at);
                    let sel = self.read(*at, &ins.operands[0], &[0], U)?;
                    let mut out = Vec::new();
                    let mut has_default = false;
                    let mut all_end = true;
                    for (ci, c) in cases.iter().enumerate() {
                        self.b.open();
                        let ends = self.block(&c.body)?;
                        all_end &= ends && !breaks_out(self.m, &c.body);
                        let body = self.b.close();
                        if !ends && ci + 1 < cases.len() {
                            return Err(refuse_at(
                                self,
                                c.at,
                                RefusalReason::UnstructuredControlFlow,
                                "a switch case falls through into the next",
                            ));
                        }
                        let mut labels: Vec<SwitchValue> = c.values.iter().map(|&v| SwitchValue::U32(v)).collect();
                        labels.dedup();
                        if c.is_default {
                            labels.push(SwitchValue::Default);
                            has_default = true;
                        }
                        let n = labels.len();
                        for (k, v) in labels.into_iter().enumerate() {
                            let last = k + 1 == n;
                            out.push(naga::SwitchCase {
                                value: v,
                                body: if last { body.clone() } else { naga::Block::new() },
                                fall_through: !last,
                            });
                        }
                    }
                    if !has_default {
                        out.push(naga::SwitchCase {
                            value: SwitchValue::Default,
                            body: naga::Block::new(),
                            fall_through: false,
                        });
                    }
                    self.b.stmt(Statement::Switch { selector: sel, cases: out });
                    if has_default && all_end {
                        // Every clause returns: what follows is dead.
                        return Ok(true);
                    }
                }
                Node::Jump(i) => {
                    if self.jump(*i)? {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// The `_nz`/`_z` test of a conditional instruction's operand 0, as a `bool`.
    fn condition(&mut self, i: usize) -> R<E> {
        let ins = self.m.ins(i);
        let v = self.read(i, &ins.operands[0], &[0], U)?;
        let z = self.b.u32(0);
        Ok(self.b.bin(if ins.test_nonzero { B::NotEqual } else { B::Equal }, v, z))
    }

    /// Lowers a jump; returns whether it is unconditional.
    fn jump(&mut self, i: usize) -> R<bool> {
        let ins = self.m.ins(i);
        let (stmt_kind, conditional) = match ins.opcode {
            Opcode::BREAK => (0, false),
            Opcode::BREAKC => (0, true),
            Opcode::CONTINUE => (1, false),
            Opcode::CONTINUEC => (1, true),
            Opcode::RET => (2, false),
            Opcode::RETC => (2, true),
            Opcode::DISCARD => (3, true),
            _ => return Err(refuse_at(self, i, RefusalReason::OpcodeUnsupported, "not a jump")),
        };
        if stmt_kind == 3 {
            self.require_pixel(i)?;
        }
        let cond = if conditional { Some(self.condition(i)?) } else { None };
        if cond.is_some() {
            self.b.open();
        }
        match stmt_kind {
            0 => self.b.stmt(Statement::Break),
            1 => self.b.stmt(Statement::Continue),
            2 => self.ret()?,
            _ => self.b.stmt(Statement::Kill),
        }
        if let Some(c) = cond {
            let accept = self.b.close();
            self.b.stmt(Statement::If { condition: c, accept, reject: naga::Block::new() });
        }
        Ok(!conditional && stmt_kind != 3)
    }

    /// `sync[_uglobal|_ugroup][_g][_t]` in a compute shader (control bits: 1 `_t`, 2 `_g`,
    /// 4 `_ugroup`, 8 `_uglobal`). WGSL's barriers all synchronize the workgroup's execution as
    /// well as order memory: `_g` (and `_t` alone) become `workgroupBarrier()`, `_ugroup` and
    /// `_uglobal` `storageBarrier()` (with `textureBarrier()` when a storage texture is bound
    /// `read_write`). A fence without `_t` is thereby strengthened to a control barrier, which
    /// only narrows the executions D3D allows; the uniformity check in `lower` guarantees every
    /// invocation reaches it. `_uglobal` makes writes to `globallycoherent` UAVs visible to other
    /// thread groups: WGSL has no device-scope fence, so that combination is refused (for other
    /// UAVs D3D scopes `_uglobal` to the thread group, as `storageBarrier()` does).
    pub(super) fn sync(&mut self, i: usize) -> R<()> {
        let c = self.m.ins(i).control;
        let mut barrier = naga::Barrier::empty();
        if c & 0b0011 != 0 {
            barrier |= naga::Barrier::WORK_GROUP;
        }
        if c & 0b1100 != 0 {
            barrier |= naga::Barrier::STORAGE;
            if self.storage_textures.values().any(|t| t.read_write) {
                barrier |= naga::Barrier::TEXTURE;
            }
        }
        if c & 0b1000 != 0 && self.m.resources.iter().any(|r| r.uav && r.flags.globally_coherent) {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "sync_uglobal with a globallycoherent UAV: WGSL's storageBarrier orders memory only within the workgroup (WebGPU has no device-scope fence)",
            ));
        }
        if barrier.is_empty() {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                "`sync` without _g, _t, _ugroup or _uglobal",
            ));
        }
        self.b.stmt(Statement::ControlBarrier(barrier));
        Ok(())
    }

    /// `return` with the output struct.
    pub(crate) fn ret(&mut self) -> R<()> {
        if self.prim_ret()? {
            return Ok(());
        }
        let value = if let Some((ty, srcs)) = self.out_struct.clone() {
            let mut vals: Vec<_> = srcs.iter().map(|&p| self.b.load(p)).collect();
            if let Some((k, arr, lanes)) = self.clip_out.clone() {
                let comps = lanes
                    .iter()
                    .map(|&(p, c)| {
                        let v = self.b.load(p);
                        self.b.comp(v, c)
                    })
                    .collect();
                vals[k] = self.b.expr(Expression::Compose { ty: arr, components: comps });
            }
            if let Some((k, greater, pos)) = self.depth_clamp {
                let z = self.b.comp(pos, 2);
                vals[k] =
                    self.b.math(if greater { naga::MathFunction::Max } else { naga::MathFunction::Min }, &[vals[k], z]);
            }
            Some(self.b.expr(Expression::Compose { ty, components: vals }))
        } else {
            None
        };
        self.b.stmt(naga::Statement::Return { value });
        Ok(())
    }
}
