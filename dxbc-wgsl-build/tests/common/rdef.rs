//! Writes DXBC containers whose only chunk is an SM4 `RDEF` (24-byte variables, 16-byte types),
//! for tests of layouts taken from reflection. The record layout is the one
//! `dxbc_wgsl::chunks::rdef` documents and parses.
#![allow(dead_code)]

/// A type record.
#[derive(Clone, Debug)]
pub struct Ty {
    pub class: u16,
    pub base: u16,
    pub rows: u16,
    pub columns: u16,
    pub elements: u16,
    pub members: Vec<(String, u32, Ty)>,
}

pub const SCALAR: u16 = 0;
pub const VECTOR: u16 = 1;
pub const MATRIX_ROWS: u16 = 2;
pub const MATRIX_COLUMNS: u16 = 3;
pub const STRUCT: u16 = 5;
pub const FLOAT: u16 = 3;
pub const INT: u16 = 2;
pub const UINT: u16 = 19;

/// A float scalar/vector (`columns` 1–4), or an array of them.
pub fn float(columns: u16, elements: u16) -> Ty {
    Ty { class: if columns == 1 { SCALAR } else { VECTOR }, base: FLOAT, rows: 1, columns, elements, members: vec![] }
}

/// A float matrix `rows`×`columns`, row-major or column-major.
pub fn matrix(rows: u16, columns: u16, row_major: bool, elements: u16) -> Ty {
    Ty {
        class: if row_major { MATRIX_ROWS } else { MATRIX_COLUMNS },
        base: FLOAT,
        rows,
        columns,
        elements,
        members: vec![],
    }
}

/// A struct of members `(name, offset in the struct, type)`.
pub fn strukt(members: Vec<(&str, u32, Ty)>, elements: u16) -> Ty {
    let comps: u16 = members
        .iter()
        .map(|(_, _, t)| if t.class == STRUCT { t.columns } else { t.rows * t.columns } * t.elements.max(1))
        .sum();
    Ty {
        class: STRUCT,
        base: 0,
        rows: 1,
        columns: comps,
        elements,
        members: members.into_iter().map(|(n, o, t)| (n.to_string(), o, t)).collect(),
    }
}

/// A variable: name, offset, size, flags (2 = used, 1 = placed by the source), type.
pub struct Var {
    pub name: String,
    pub offset: u32,
    pub size: u32,
    pub flags: u32,
    pub ty: Ty,
}

pub fn var(name: &str, offset: u32, size: u32, ty: Ty) -> Var {
    Var { name: name.into(), offset, size, flags: 2, ty }
}

/// A cbuffer bound at `b{slot}`.
pub struct Cbuffer {
    pub name: String,
    pub slot: u32,
    pub size: u32,
    pub vars: Vec<Var>,
}

struct Buf(Vec<u8>);

impl Buf {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn at(&self) -> u32 {
        self.0.len() as u32
    }
    fn put_u32(&mut self, at: u32, v: u32) {
        self.0[at as usize..at as usize + 4].copy_from_slice(&v.to_le_bytes());
    }
    fn string(&mut self, s: &str) -> u32 {
        let at = self.at();
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        while !self.0.len().is_multiple_of(4) {
            self.0.push(0);
        }
        at
    }
    fn ty(&mut self, t: &Ty) -> u32 {
        // Members (names, types) first, then the member records, then the type.
        let mut recs = Vec::new();
        for (name, offset, mt) in &t.members {
            let n = self.string(name);
            let ty = self.ty(mt);
            recs.push((n, ty, *offset));
        }
        let members_at = self.at();
        for (n, ty, offset) in &recs {
            self.u32(*n);
            self.u32(*ty);
            self.u32(*offset);
        }
        let at = self.at();
        for v in [t.class, t.base, t.rows, t.columns, t.elements, t.members.len() as u16] {
            self.u16(v);
        }
        self.u32(if t.members.is_empty() { 0 } else { members_at });
        at
    }
}

/// The bytes of an `RDEF` chunk (SM4 pixel shader) for `cbuffers`.
pub fn rdef_chunk(cbuffers: &[Cbuffer]) -> Vec<u8> {
    let mut b = Buf(vec![0; 28]);
    let creator = b.string("dxbc-wgsl test RDEF writer");
    let mut cb_recs = Vec::new();
    for cb in cbuffers {
        let name = b.string(&cb.name);
        let mut var_recs = Vec::new();
        for v in &cb.vars {
            let n = b.string(&v.name);
            let t = b.ty(&v.ty);
            var_recs.push((n, v.offset, v.size, v.flags, t));
        }
        let vars_at = b.at();
        for (n, offset, size, flags, t) in var_recs {
            for x in [n, offset, size, flags, t, 0] {
                b.u32(x);
            }
        }
        cb_recs.push((name, cb.vars.len() as u32, vars_at, cb.size, cb.slot));
    }
    let cbs_at = b.at();
    for (name, n, vars_at, size, _) in &cb_recs {
        for x in [*name, *n, *vars_at, *size, 0, 0] {
            b.u32(x);
        }
    }
    let binds_at = b.at();
    for (name, _, _, _, slot) in &cb_recs {
        for x in [*name, 0, 0, 0, 0, *slot, 1, 0] {
            b.u32(x);
        }
    }
    b.put_u32(0, cb_recs.len() as u32);
    b.put_u32(4, cbs_at);
    b.put_u32(8, cb_recs.len() as u32);
    b.put_u32(12, binds_at);
    b.put_u32(16, 0xFFFF_0400);
    b.put_u32(20, 0);
    b.put_u32(24, creator);
    b.0
}

/// A container holding only that `RDEF` chunk.
pub fn container(cbuffers: &[Cbuffer]) -> Vec<u8> {
    dxbc_wgsl::container::assemble(&[(*b"RDEF", rdef_chunk(cbuffers))])
}
