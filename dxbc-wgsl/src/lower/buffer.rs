//! Buffers: raw and structured buffers (SRV, UAV) and thread-group shared memory as arrays of
//! 32-bit words (`ld_raw`, `ld_structured`, `store_raw`, `store_structured`, `bufinfo`), typed
//! `Buffer`/`RWBuffer`s emulated on words, and typed UAV loads and stores (`ld_uav_typed`,
//! `store_uav_typed`) on either a typed `RWBuffer` or a storage texture. Every access is
//! bounds-checked: an out-of-bounds load reads zero, an out-of-bounds store is dropped.

use super::{mask_lanes, refuse_at, Cx, E, F, R, U};
use crate::refusal::RefusalReason;
use crate::sm4::{Opcode, Operand, OperandType};
use naga::{BinaryOperator as B, Expression, MathFunction as M, Statement};

impl Cx<'_, '_> {
    pub(super) fn buffer(&self, i: usize, op: &Operand) -> R<super::Buf> {
        let uav = match op.ty {
            OperandType::UnorderedAccessView => true,
            OperandType::Resource => false,
            OperandType::ThreadGroupSharedMemory => {
                return self.tgsm.get(&op.reg()).copied().ok_or_else(|| {
                    refuse_at(self, i, RefusalReason::OperandUnsupported, format!("g{} is not declared", op.reg()))
                })
            }
            other => {
                return Err(refuse_at(self, i, RefusalReason::OperandUnsupported, format!("{other:?} as a buffer")))
            }
        };
        self.buffers.get(&(uav, self.m.resource_id(op))).copied().ok_or_else(|| {
            refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                format!("{}{} is not a raw or structured buffer", if uav { 'u' } else { 't' }, op.reg()),
            )
        })
    }

    /// Number of 32-bit words in a buffer.
    pub(super) fn buffer_words(&mut self, buf: &super::Buf) -> E {
        match buf.words {
            Some(n) => self.b.u32(n),
            None => self.b.expr(Expression::ArrayLength(buf.expr)),
        }
    }

    /// Pointer to word `w` of a buffer. A fixed-size array (`g#`) is indexed at `min(w, n - 1)`:
    /// WGSL rejects a constant index past a fixed-size array's end, and every access is guarded
    /// by the bounds test anyway.
    pub(super) fn word_ptr(&mut self, buf: &super::Buf, w: E) -> E {
        let index = match buf.words {
            Some(n) => {
                let last = self.b.u32(n - 1);
                self.b.math(M::Min, &[w, last])
            }
            None => w,
        };
        self.b.expr(Expression::Access { base: buf.expr, index })
    }

    /// First word and element validity of a buffer address: raw buffers take a byte address
    /// (`.x`), structured buffers an element index and a byte offset (`.x`, `.y` of two operands
    /// or of one address operand).
    pub(super) fn buffer_address(
        &mut self,
        i: usize,
        buf: &super::Buf,
        addr: &[(&Operand, u8)],
    ) -> R<(E, Option<E>, Option<E>)> {
        let words = self.buffer_words(buf);
        match buf.stride {
            None => {
                let byte = self.read(i, addr[0].0, &[addr[0].1], U)?;
                let two = self.b.u32(2);
                Ok((self.b.bin(B::ShiftRight, byte, two), None, None))
            }
            Some(stride) => {
                let index = self.read(i, addr[0].0, &[addr[0].1], U)?;
                let offset = self.read(i, addr[1].0, &[addr[1].1], U)?;
                let sw = self.b.u32(stride / 4);
                let four = self.b.u32(4);
                let total = self.b.bin(B::Multiply, words, four);
                let st = self.b.u32(stride);
                let count = self.b.bin(B::Divide, total, st);
                let elem_ok = self.b.bin(B::Less, index, count);
                let base = self.b.bin(B::Multiply, index, sw);
                let two = self.b.u32(2);
                let ow = self.b.bin(B::ShiftRight, offset, two);
                Ok((self.b.bin(B::Add, base, ow), Some(elem_ok), Some(offset)))
            }
        }
    }

    /// Whether word `base + comp` is inside the buffer (and, for structured buffers, inside the
    /// element).
    pub(super) fn word_ok(
        &mut self,
        buf: &super::Buf,
        base: E,
        comp: u32,
        elem_ok: Option<E>,
        offset: Option<E>,
    ) -> (E, E) {
        let c = self.b.u32(comp);
        let w = self.b.bin(B::Add, base, c);
        let words = self.buffer_words(buf);
        let mut ok = self.b.bin(B::Less, w, words);
        if let (Some(e), Some(off), Some(stride)) = (elem_ok, offset, buf.stride) {
            let cb = self.b.u32(comp * 4);
            let o = self.b.bin(B::Add, off, cb);
            let st = self.b.u32(stride);
            let in_elem = self.b.bin(B::Less, o, st);
            let both = self.b.bin(B::LogicalAnd, e, in_elem);
            ok = self.b.bin(B::LogicalAnd, ok, both);
        }
        (w, ok)
    }

    /// `ld_raw` / `ld_structured`: words selected by the resource swizzle; zero out of bounds.
    pub(super) fn buffer_load(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let structured = ins.opcode == Opcode::LD_STRUCTURED;
        let res = if structured { &ops[3] } else { &ops[2] };
        let buf = self.buffer(i, res)?;
        if structured != buf.stride.is_some() {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                "raw/structured access to a buffer of the other kind",
            ));
        }
        let addr: Vec<(&Operand, u8)> = if structured { vec![(&ops[1], 0), (&ops[2], 0)] } else { vec![(&ops[1], 0)] };
        let (base, elem_ok, offset) = self.buffer_address(i, &buf, &addr)?;
        let sw = res.select.swizzle();
        let mut parts = Vec::new();
        for &lane in &lanes {
            let (w, ok) = self.word_ok(&buf, base, sw[lane as usize] as u32, elem_ok, offset);
            let p = self.word_ptr(&buf, w);
            let v = self.b.load(p);
            let z = self.b.u32(0);
            parts.push(self.b.select(ok, v, z));
        }
        let ty = self.ty(U, parts.len());
        let v = self.b.compose(ty, parts);
        self.write(i, &ops[0], &lanes, v, U, false)
    }

    /// `store_raw` / `store_structured`: the destination mask's words; dropped out of bounds.
    pub(super) fn buffer_store(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let structured = ins.opcode == Opcode::STORE_STRUCTURED;
        let buf = self.buffer(i, &ops[0])?;
        if structured != buf.stride.is_some() {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                "raw/structured access to a buffer of the other kind",
            ));
        }
        let addr: Vec<(&Operand, u8)> = if structured { vec![(&ops[1], 0), (&ops[2], 0)] } else { vec![(&ops[1], 0)] };
        let (base, elem_ok, offset) = self.buffer_address(i, &buf, &addr)?;
        let value_op = if structured { &ops[3] } else { &ops[2] };
        // D3D writes the masked components as consecutive words: .xy writes words 0 and 1.
        let vals: Vec<E> = lanes.iter().map(|&l| self.read(i, value_op, &[l], U)).collect::<R<_>>()?;
        for (&lane, v) in lanes.iter().zip(vals) {
            let (w, ok) = self.word_ok(&buf, base, lane as u32, elem_ok, offset);
            self.b.open();
            let p = self.word_ptr(&buf, w);
            self.b.store(p, v);
            let accept = self.b.close();
            self.b.stmt(Statement::If { condition: ok, accept, reject: naga::Block::new() });
        }
        Ok(())
    }

    /// Element `index` of a typed buffer as a `vec4<u32>` of raw words: components past the
    /// format's count read as D3D's defaults (0, and 1 in `.w`); an element past the end reads 0.
    fn typed_element(&mut self, tb: super::TypedBuf, index: E) -> E {
        let words = self.b.expr(Expression::ArrayLength(tb.expr));
        let n = self.b.u32(tb.components);
        let count = self.b.bin(B::Divide, words, n);
        let ok = self.b.bin(B::Less, index, count);
        let base = self.b.bin(B::Multiply, index, n);
        let one_bits = if tb.kind == F { 1.0f32.to_bits() } else { 1 };
        let mut parts = Vec::new();
        for c in 0..4u32 {
            if c < tb.components {
                let cc = self.b.u32(c);
                let w = self.b.bin(B::Add, base, cc);
                let p = self.b.expr(Expression::Access { base: tb.expr, index: w });
                parts.push(self.b.load(p));
            } else {
                parts.push(self.b.u32(if c == 3 { one_bits } else { 0 }));
            }
        }
        let ty = self.ty(U, 4);
        let v = self.b.compose(ty, parts);
        let z = self.b.expr(Expression::ZeroValue(ty));
        self.b.select(ok, v, z)
    }

    /// `ld` from a typed `Buffer` SRV (element index in `.x`).
    pub(super) fn typed_buffer_load(&mut self, i: usize, tb: super::TypedBuf, addr: &Operand, res: &Operand) -> R<()> {
        let dst = &self.m.ins(i).operands[0];
        let lanes = mask_lanes(dst.select.mask());
        let index = self.read(i, addr, &[0], U)?;
        let v = self.typed_element(tb, index);
        let r = self.result_swizzle(v, res, &lanes);
        let r = if tb.kind != U { self.b.bitcast(r, tb.kind) } else { r };
        self.write(i, dst, &lanes, r, tb.kind, false)
    }

    /// `ld_uav_typed`: from a typed `RWBuffer` (words) or a `read_write` storage texture; zero
    /// out of bounds.
    pub(super) fn uav_typed_load(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        self.require_typed_uav_operand(i, &ops[2])?;
        let id = self.m.resource_id(&ops[2]);
        if let Some(tb) = self.typed_buffers.get(&(true, id)).copied() {
            return self.typed_buffer_load(i, tb, &ops[1], &ops[2]);
        }
        let st = *self.storage_textures.get(&id).ok_or_else(|| {
            refuse_at(self, i, RefusalReason::OperandUnsupported, format!("u{id} is not a typed UAV"))
        })?;
        let (coord, layer, ok) = self.storage_coords(i, &st, &ops[1])?;
        let v = self.b.expr(Expression::ImageLoad {
            image: st.expr,
            coordinate: coord,
            array_index: layer,
            sample: None,
            level: None,
        });
        let ty = self.ty(st.kind, 4);
        let z = self.b.expr(Expression::ZeroValue(ty));
        let v = self.b.select(ok, v, z);
        let r = self.result_swizzle(v, &ops[2], &lanes);
        self.write(i, &ops[0], &lanes, r, st.kind, false)
    }

    /// Clamped coordinates, layer and the in-bounds test of a storage-texture access (a D3D 1D
    /// address `x`, slice in `.y`, at `(x, 0)` of the 2D storage texture of height 1).
    fn storage_coords(&mut self, i: usize, st: &super::StorageTex, addr: &Operand) -> R<(E, Option<E>, E)> {
        let n = st.d3d_coords() as u8;
        let comps: Vec<u8> = (0..n).collect();
        let c = self.read(i, addr, &comps, U)?;
        let c = if st.d1 {
            let row = self.b.u32(0);
            self.widen_1d(c, row, U)
        } else {
            c
        };
        let size =
            self.b.expr(Expression::ImageQuery { image: st.expr, query: naga::ImageQuery::Size { level: None } });
        let inside = self.b.bin(B::Less, c, size);
        let mut ok = if st.coords == 1 {
            inside
        } else {
            self.b.expr(Expression::Relational { fun: naga::RelationalFunction::All, argument: inside })
        };
        let one = self.b.u32(1);
        let ones = self.b.splat(one, st.coords);
        let max_c = self.b.bin(B::Subtract, size, ones);
        let safe = self.b.math(M::Min, &[c, max_c]);
        let layer = if st.arrayed {
            let l = self.read(i, addr, &[n], U)?;
            let layers = self.b.expr(Expression::ImageQuery { image: st.expr, query: naga::ImageQuery::NumLayers });
            let lok = self.b.bin(B::Less, l, layers);
            ok = self.b.bin(B::LogicalAnd, ok, lok);
            let one = self.b.u32(1);
            let last = self.b.bin(B::Subtract, layers, one);
            Some(self.b.math(M::Min, &[l, last]))
        } else {
            None
        };
        Ok((safe, layer, ok))
    }

    /// `store_uav_typed`: every component of the format; dropped out of bounds.
    /// `ld_uav_typed`/`store_uav_typed` address a UAV `u#`: another register type (a `g#`, found
    /// by fuzzing) is invalid in D3D, and would be taken for the UAV of the same number, whose
    /// access mode was derived from its own uses (a write-only storage texture read: invalid
    /// WGSL). Refused.
    fn require_typed_uav_operand(&self, i: usize, o: &Operand) -> R<()> {
        if o.ty == crate::sm4::OperandType::UnorderedAccessView {
            return Ok(());
        }
        Err(refuse_at(
            self,
            i,
            RefusalReason::OperandUnsupported,
            format!("{} of a {:?} register: only a typed UAV (u#) (invalid in D3D)", self.m.ins(i).opcode.name(), o.ty),
        ))
    }

    pub(super) fn uav_typed_store(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        self.require_typed_uav_operand(i, &ops[0])?;
        let id = self.m.resource_id(&ops[0]);
        if let Some(tb) = self.typed_buffers.get(&(true, id)).copied() {
            let index = self.read(i, &ops[1], &[0], U)?;
            let vals: Vec<E> = (0..tb.components as u8).map(|c| self.read(i, &ops[2], &[c], U)).collect::<R<_>>()?;
            let words = self.b.expr(Expression::ArrayLength(tb.expr));
            let n = self.b.u32(tb.components);
            let count = self.b.bin(B::Divide, words, n);
            let ok = self.b.bin(B::Less, index, count);
            self.b.open();
            let base = self.b.bin(B::Multiply, index, n);
            for (c, v) in vals.into_iter().enumerate() {
                let cc = self.b.u32(c as u32);
                let w = self.b.bin(B::Add, base, cc);
                let p = self.b.expr(Expression::Access { base: tb.expr, index: w });
                self.b.store(p, v);
            }
            let accept = self.b.close();
            self.b.stmt(Statement::If { condition: ok, accept, reject: naga::Block::new() });
            return Ok(());
        }
        let st = *self.storage_textures.get(&id).ok_or_else(|| {
            refuse_at(self, i, RefusalReason::OperandUnsupported, format!("u{id} is not a typed UAV"))
        })?;
        let (coord, layer, ok) = self.storage_coords(i, &st, &ops[1])?;
        let value = self.read(i, &ops[2], &[0, 1, 2, 3], st.kind)?;
        self.b.open();
        self.b.stmt(Statement::ImageStore { image: st.expr, coordinate: coord, array_index: layer, value });
        let accept = self.b.close();
        self.b.stmt(Statement::If { condition: ok, accept, reject: naga::Block::new() });
        Ok(())
    }

    /// `bufinfo`: byte size of a raw buffer, element count of a structured one, in every lane.
    pub(super) fn buffer_info(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let uav = ops[1].ty == OperandType::UnorderedAccessView;
        if let Some(tb) = self.typed_buffers.get(&(uav, self.m.resource_id(&ops[1]))).copied() {
            let words = self.b.expr(Expression::ArrayLength(tb.expr));
            let n = self.b.u32(tb.components);
            let count = self.b.bin(B::Divide, words, n);
            let v = self.b.splat(count, lanes.len());
            return self.write(i, &ops[0], &lanes, v, U, false);
        }
        let buf = self.buffer(i, &ops[1])?;
        let words = self.buffer_words(&buf);
        let four = self.b.u32(4);
        let bytes = self.b.bin(B::Multiply, words, four);
        let v = match buf.stride {
            None => bytes,
            Some(s) => {
                let st = self.b.u32(s);
                self.b.bin(B::Divide, bytes, st)
            }
        };
        let v = self.b.splat(v, lanes.len());
        self.write(i, &ops[0], &lanes, v, U, false)
    }
}
