//! The constant-buffer struct writer: `#[repr(C)]` Rust structs that reproduce HLSL's packing
//! byte for byte, with explicit padding, `size_of`/`offset_of!` assertions, and one struct per
//! HLSL struct type a layout uses (padded to whole registers as an array element, and when a
//! following variable packs into a struct's last register, an unpadded twin).
//!
//! Used by the effect generator ([`crate::codegen`]) and by [`crate::reflect::rust_struct_source`],
//! which both depend on it (it depends on neither). Besides the text it yields a word map: for
//! every 32-bit word of a struct, the Rust access path of the field lane that holds it
//! (`.apple.b`, `.lights[2][1]`), or `None` for padding.

use std::fmt::Write as _;

use crate::effect::layout::{
    format_offset, round_up, MatrixPacking, PlacedField, Scalar, Shape, StructType, VarType, REGISTER,
};
use crate::effect::{pascal_case, snake_case};
use crate::writer::W;

/// The Rust source of a layout's struct and the structs it uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructSource {
    /// Name of the top-level struct.
    pub name: String,
    /// The items (the struct, its `Default`, assertions; then the structs of struct members).
    pub code: String,
    /// Size in bytes.
    pub size: u32,
    /// Per 32-bit word of the struct: which field lane holds it, or `None` for padding.
    pub words: Vec<Option<Word>>,
}

/// The field lane that holds one 32-bit word of a generated struct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// Rust access path from a value of the struct: `.diffuse_color[2]`, `.apple.b`,
    /// `.world[3][1]`, `.fog_start`.
    pub path: String,
    /// Component type (`f32`, `i32`, `u32` for uint and bool).
    pub scalar: Scalar,
    /// The HLSL variable: `DiffuseColor`, `apple.b`, `lights[2].color`.
    pub variable: String,
}

/// Rust type of a generated field.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RType {
    /// `[s; len]` (`s` itself when `len` is 1) of which the first `used` lanes are the variable's
    /// and the rest padding (lane w of a float3 array element).
    Vector { scalar: Scalar, len: u32, used: u32 },
    /// `[T; n]`.
    Array(Box<RType>, u32),
    /// A generated struct (index into the definitions).
    Struct(usize),
}

/// One line of documentation: `doc` (one line) or `doc_text` (user text, several lines).
#[derive(Debug, Clone)]
pub(crate) enum Doc {
    Line(String),
    Text(String),
}

#[derive(Debug, Clone)]
enum Item {
    Field {
        rust: String,
        ty: RType,
        offset: u32,
        docs: Vec<Doc>,
        /// The HLSL variable (with its element index for the last element of a struct array).
        variable: String,
    },
    Pad {
        from: u32,
        to: u32,
    },
}

struct Def {
    key: StructType,
    padded: bool,
    name: String,
    size: u32,
    items: Vec<Item>,
    emitted: bool,
}

/// Interns struct types, names them, writes them.
pub(crate) struct Structs {
    taken: Vec<String>,
    defs: Vec<Def>,
}

impl Structs {
    /// A writer whose generated names avoid `taken` (and each other).
    pub fn new(taken: Vec<String>) -> Self {
        Structs { taken, defs: Vec::new() }
    }

    /// Writes the top-level struct of a layout (`doc` above it), then nothing else: call
    /// [`Structs::emit_pending`] for the structs of its members. Returns the word map.
    pub fn write_layout(
        &mut self,
        w: &mut W,
        name: &str,
        doc: &[Doc],
        fields: &[PlacedField],
        field_docs: &[Option<String>],
        size: u32,
    ) -> Vec<Option<Word>> {
        let items = self.body(name, fields, field_docs, size, false);
        write_struct(w, name, doc, &items, size, &self.defs);
        self.words_of(&items, size)
    }

    /// Writes every struct definition not written yet.
    pub fn emit_pending(&mut self, w: &mut W) {
        while let Some(i) = self.defs.iter().position(|d| !d.emitted) {
            self.defs[i].emitted = true;
            let d = &self.defs[i];
            let hlsl = d.key.name.as_deref().map(|n| format!(" `{n}`")).unwrap_or_default();
            let elem = d.key.element_size();
            let mut doc = vec![Doc::Line(format!("HLSL struct{hlsl} as constant buffers pack it ({elem} bytes)."))];
            doc.push(Doc::Line(String::new()));
            doc.push(Doc::Line(if d.padded && d.size != elem {
                format!("Padded to {} bytes, the stride of an array of them.", d.size)
            } else if d.padded {
                "Its size is a whole number of registers.".to_string()
            } else {
                "Without tail padding: the variable after it packs into its last register.".to_string()
            }));
            let (name, size, items) = (d.name.clone(), d.size, d.items.clone());
            write_struct(w, &name, &doc, &items, size, &self.defs);
        }
    }

    /// The fields of a struct of `size` bytes holding `fields` (sorted by offset), with padding.
    fn body(
        &mut self,
        owner: &str,
        fields: &[PlacedField],
        field_docs: &[Option<String>],
        size: u32,
        in_struct: bool,
    ) -> Vec<Item> {
        let mut order: Vec<usize> = (0..fields.len()).collect();
        order.sort_by_key(|&i| fields[i].offset);
        let mut items = Vec::new();
        let mut cursor = 0u32;
        // Rust names must be distinct (reflected names are not checked like an effect file's:
        // `fooBar` and `foo_bar`, or a variable called `_pad0`).
        let mut used: Vec<String> = Vec::new();
        let mut distinct = |name: String| {
            let mut n = name.clone();
            let mut k = 2;
            while used.contains(&n) || n.starts_with("_pad") {
                n = format!("{name}_{k}");
                k += 1;
            }
            used.push(n.clone());
            n
        };
        for (k, &fi) in order.iter().enumerate() {
            let f = &fields[fi];
            let next = order.get(k + 1).map(|&j| fields[j].offset).unwrap_or(size);
            let pieces = self.pieces(owner, f, next);
            if pieces.is_empty() {
                continue;
            }
            if f.offset > cursor {
                items.push(Item::Pad { from: cursor, to: f.offset });
            }
            for (pi, p) in pieces.into_iter().enumerate() {
                let rust = distinct(format!("{}{}", snake_case(&f.name), p.suffix));
                let mut docs = Vec::new();
                if pi == 0 {
                    docs.push(Doc::Line(field_doc(f, in_struct, self.type_name(&p.ty))));
                    if let Some(Some(d)) = field_docs.get(fi) {
                        docs.push(Doc::Line(String::new()));
                        docs.push(Doc::Text(d.clone()));
                    }
                } else {
                    docs.push(Doc::Line(format!("`{}`: {}", f.name, p.doc)));
                }
                cursor = p.offset + self.rsize(&p.ty);
                items.push(Item::Field { rust, ty: p.ty, offset: p.offset, docs, variable: p.variable });
            }
        }
        if cursor < size {
            items.push(Item::Pad { from: cursor, to: size });
        }
        items
    }

    /// The Rust fields one HLSL variable becomes: normally one; when the next variable packs into
    /// the unused lanes of its last register, the last element (or column/row) is split off.
    fn pieces(&mut self, owner: &str, f: &PlacedField, next: u32) -> Vec<Piece> {
        match &f.ty {
            VarType::Numeric(_) => numeric_pieces(f, next),
            VarType::Struct(s) => {
                let elem = s.element_size();
                if elem == 0 {
                    // Only objects: no bytes.
                    return Vec::new();
                }
                let stride = round_up(elem, REGISTER);
                let context = format!("{owner}{}", pascal_case(&f.name));
                let padded = self.intern(s, true, &context);
                let var = f.name.clone();
                match s.array {
                    None if f.offset + stride <= next => {
                        vec![Piece::new("", RType::Struct(padded), f.offset, "", var)]
                    }
                    None => {
                        let exact = self.intern(s, false, &context);
                        vec![Piece::new("", RType::Struct(exact), f.offset, "", var)]
                    }
                    Some(n) if f.offset + stride * n <= next => {
                        vec![Piece::new("", RType::Array(Box::new(RType::Struct(padded)), n), f.offset, "", var)]
                    }
                    Some(n) => {
                        let exact = self.intern(s, false, &context);
                        let last = f.offset + stride * (n - 1);
                        let mut v = Vec::new();
                        if n > 1 {
                            v.push(Piece::new(
                                "",
                                RType::Array(Box::new(RType::Struct(padded)), n - 1),
                                f.offset,
                                "",
                                var.clone(),
                            ));
                        }
                        let (suffix, variable) = if n > 1 { ("_last", format!("{var}[{}]", n - 1)) } else { ("", var) };
                        v.push(Piece::new(
                            suffix,
                            RType::Struct(exact),
                            last,
                            "last element (the variable after it packs into its last register).",
                            variable,
                        ));
                        v
                    }
                }
            }
        }
    }

    /// The definition of a struct type (padded to whole registers, or not), created on first
    /// use. A struct whose size is a whole number of registers has one definition.
    fn intern(&mut self, s: &StructType, padded: bool, context: &str) -> usize {
        let elem = s.element_size();
        let padded = padded || elem.is_multiple_of(REGISTER);
        let key = StructType { array: None, ..s.clone() };
        if let Some(i) = self.defs.iter().position(|d| d.key == key && d.padded == padded) {
            return i;
        }
        let base = match (padded, self.defs.iter().find(|d| d.key == key)) {
            (false, Some(d)) => format!("{}Unpadded", d.name),
            (false, None) => format!("{}Unpadded", self.intern_name(&key, context)),
            (true, _) => self.intern_name(&key, context),
        };
        let name = self.unique(&base);
        let size = if padded { round_up(elem, REGISTER) } else { elem };
        let items = self.body(&name, &key.members, &[], size, true);
        self.defs.push(Def { key, padded, name, size, items, emitted: false });
        self.defs.len() - 1
    }

    /// The base name of a struct type: its HLSL name, or the owner and field names.
    fn intern_name(&self, key: &StructType, context: &str) -> String {
        match &key.name {
            Some(n) => pascal_case(n),
            None => context.to_string(),
        }
    }

    fn unique(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.taken.push(name.clone());
        name
    }

    fn type_name(&self, t: &RType) -> String {
        rust_type(t, &self.defs)
    }

    fn rsize(&self, t: &RType) -> u32 {
        rsize(t, &self.defs)
    }

    fn words_of(&self, items: &[Item], size: u32) -> Vec<Option<Word>> {
        words_of(items, size, &self.defs)
    }
}

struct Piece {
    suffix: String,
    ty: RType,
    offset: u32,
    doc: String,
    variable: String,
}

impl Piece {
    fn new(suffix: &str, ty: RType, offset: u32, doc: &str, variable: String) -> Self {
        Piece { suffix: suffix.into(), ty, offset, doc: doc.into(), variable }
    }
}

fn rust_type(t: &RType, defs: &[Def]) -> String {
    match t {
        RType::Vector { scalar, len: 1, .. } => scalar.rust().to_string(),
        RType::Vector { scalar, len, .. } => format!("[{}; {len}]", scalar.rust()),
        RType::Array(e, n) => format!("[{}; {n}]", rust_type(e, defs)),
        RType::Struct(i) => defs[*i].name.clone(),
    }
}

fn rsize(t: &RType, defs: &[Def]) -> u32 {
    match t {
        RType::Vector { len, .. } => 4 * len,
        RType::Array(e, n) => n * rsize(e, defs),
        RType::Struct(i) => defs[*i].size,
    }
}

fn words_of(items: &[Item], size: u32, defs: &[Def]) -> Vec<Option<Word>> {
    let mut out: Vec<Option<Word>> = Vec::with_capacity(size as usize / 4);
    for item in items {
        match item {
            Item::Pad { from, to } => out.extend((*from..*to).step_by(4).map(|_| None)),
            Item::Field { rust, ty, variable, .. } => words(ty, &format!(".{rust}"), variable, defs, &mut out),
        }
    }
    out
}

fn words(t: &RType, path: &str, var: &str, defs: &[Def], out: &mut Vec<Option<Word>>) {
    match t {
        RType::Vector { scalar, len, used } => {
            for k in 0..*len {
                out.push((k < *used).then(|| Word {
                    path: if *len == 1 { path.to_string() } else { format!("{path}[{k}]") },
                    scalar: *scalar,
                    variable: var.to_string(),
                }));
            }
        }
        RType::Array(e, n) => {
            for i in 0..*n {
                let v = if matches!(**e, RType::Struct(_)) { format!("{var}[{i}]") } else { var.to_string() };
                words(e, &format!("{path}[{i}]"), &v, defs, out);
            }
        }
        RType::Struct(i) => {
            let d = &defs[*i];
            for word in words_of(&d.items, d.size, defs) {
                out.push(word.map(|w| Word {
                    path: format!("{path}{}", w.path),
                    scalar: w.scalar,
                    variable: format!("{var}.{}", w.variable),
                }));
            }
        }
    }
}

fn write_struct(w: &mut W, name: &str, doc: &[Doc], items: &[Item], size: u32, defs: &[Def]) {
    w.blank();
    for d in doc {
        match d {
            Doc::Line(l) => w.doc(l),
            Doc::Text(t) => w.doc_text(t),
        }
    }
    w.line("#[repr(C)]");
    w.line("#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]");
    w.open(&format!("pub struct {name} {{"));
    let mut pad = 0;
    let mut asserts: Vec<(String, u32)> = Vec::new();
    for item in items {
        match item {
            Item::Pad { from, to } => pad_field(w, &mut pad, *from, *to),
            Item::Field { rust, ty, offset, docs, .. } => {
                for d in docs {
                    match d {
                        Doc::Line(l) => w.doc(l),
                        Doc::Text(t) => w.doc_text(t),
                    }
                }
                w.line(&format!("pub {rust}: {},", rust_type(ty, defs)));
                asserts.push((rust.clone(), *offset));
            }
        }
    }
    w.close("}");
    w.blank();
    w.open(&format!("impl Default for {name} {{"));
    w.doc("All zeros.");
    w.open("fn default() -> Self {");
    w.line("bytemuck::Zeroable::zeroed()");
    w.close("}");
    w.close("}");
    w.blank();
    w.line(&format!("const _: () = assert!(core::mem::size_of::<{name}>() == {size});"));
    for (f, o) in asserts {
        w.line(&format!("const _: () = assert!(core::mem::offset_of!({name}, {f}) == {o});"));
    }
}

fn pad_field(w: &mut W, pad: &mut usize, from: u32, to: u32) {
    let mut lanes = Vec::new();
    let mut b = from;
    while b < to {
        lanes.push(format_offset(b));
        b += 4;
    }
    let what =
        if lanes.len() > 4 { format!("{}..{}", format_offset(from), format_offset(to - 4)) } else { lanes.join(", ") };
    w.doc(&format!("Padding: {what} (bytes {from}..{to})."));
    w.line(&format!("pub _pad{pad}: [u32; {}],", (to - from) / 4));
    *pad += 1;
}

/// The pieces of a numeric variable.
fn numeric_pieces(f: &PlacedField, next: u32) -> Vec<Piece> {
    let VarType::Numeric(t) = &f.ty else {
        return Vec::new();
    };
    let s = t.scalar;
    let (vectors, comps) = t.element_vectors();
    let vec_ty = |n: u32| RType::Vector { scalar: s, len: n, used: n };
    let lanes = RType::Vector { scalar: s, len: 4, used: comps };
    let var = f.name.clone();
    // One element, padded to whole registers.
    let (elem_padded, elem_padded_size) = match t.shape {
        Shape::Vector(_) if t.array.is_none() => (vec_ty(comps), 4 * comps),
        Shape::Vector(_) => (lanes.clone(), REGISTER),
        Shape::Matrix { .. } => (RType::Array(Box::new(lanes.clone()), vectors), REGISTER * vectors),
    };
    let elem_exact = |offset: u32, suffix: &str| -> Vec<Piece> {
        // A single element at `offset`, exact size (its last register partial).
        match t.shape {
            Shape::Vector(_) => vec![Piece::new(suffix, vec_ty(comps), offset, "last element.", var.clone())],
            Shape::Matrix { .. } => {
                let mut v = Vec::new();
                if vectors > 1 {
                    v.push(Piece::new(
                        suffix,
                        RType::Array(Box::new(lanes.clone()), vectors - 1),
                        offset,
                        "all but the last column/row.",
                        var.clone(),
                    ));
                }
                v.push(Piece::new(
                    &format!("{suffix}_last"),
                    vec_ty(comps),
                    offset + REGISTER * (vectors - 1),
                    "last column/row (its register's free lanes hold the next variable).",
                    var.clone(),
                ));
                v
            }
        }
    };
    match t.array {
        None => {
            if f.offset + elem_padded_size <= next {
                vec![Piece::new("", elem_padded, f.offset, "", var.clone())]
            } else {
                elem_exact(f.offset, "")
            }
        }
        Some(n) => {
            if f.offset + elem_padded_size * n <= next {
                vec![Piece::new("", RType::Array(Box::new(elem_padded), n), f.offset, "", var.clone())]
            } else {
                let mut v = Vec::new();
                if n > 1 {
                    v.push(Piece::new("", RType::Array(Box::new(elem_padded), n - 1), f.offset, "", var.clone()));
                }
                let last = f.offset + elem_padded_size * (n - 1);
                let mut tail = elem_exact(last, if n > 1 { "_last" } else { "" });
                if n == 1 {
                    return tail;
                }
                v.append(&mut tail);
                v
            }
        }
    }
}

/// `` `DiffuseColor` at c0 (byte 0), float4. `` with what a reader needs to fill it in.
fn field_doc(f: &PlacedField, in_struct: bool, rust_ty: String) -> String {
    let within = if in_struct { " of the struct" } else { "" };
    // An array type in code spans: rustdoc reads a bare `float3[2]` as a link to `2`.
    let ty = f.ty.to_string();
    let ty = if ty.contains('[') { format!("`{ty}`") } else { ty };
    let mut d = format!("`{}` at {} (byte {}){within}, {ty}", f.name, format_offset(f.offset), f.offset);
    let reg = f.offset / REGISTER;
    match &f.ty {
        VarType::Struct(s) => {
            let stride = f.ty.element_stride() / REGISTER;
            match s.array {
                None => {
                    let _ = write!(d, ": [`{rust_ty}`]");
                }
                Some(_) => {
                    let _ = write!(d, ": element k at register c({reg}+{stride}k)");
                }
            }
        }
        VarType::Numeric(t) => {
            let (vectors, comps) = t.element_vectors();
            match (t.shape, t.array) {
                (Shape::Matrix { packing, .. }, arr) => {
                    let what = match packing {
                        MatrixPacking::ColumnMajor => "column",
                        MatrixPacking::RowMajor => "row",
                    };
                    let _ = write!(d, ", {}", packing.hlsl());
                    match arr {
                        None => {
                            let _ = write!(d, ": `[i]` is {what} i, in register c({reg}+i)");
                        }
                        Some(_) => {
                            let _ = write!(d, ": `[k][i]` is {what} i of element k, in register c({reg}+{vectors}k+i)");
                        }
                    }
                    if comps < 4 {
                        let _ = write!(d, ", with padding in {} of each {what}", free_lanes(comps));
                    }
                }
                (Shape::Vector(_), Some(_)) => {
                    let _ = write!(d, ": element i is in register c({reg}+i)");
                    if comps < 4 {
                        let _ = write!(d, ", with padding in {} of each", free_lanes(comps));
                    }
                }
                (Shape::Vector(_), None) => {}
            }
            if t.scalar == Scalar::Bool {
                d.push_str(" (HLSL bool: 0 is false, any other value true)");
            }
        }
    }
    d.push('.');
    d
}

fn free_lanes(used: u32) -> &'static str {
    match used {
        1 => "lanes y, z, w",
        2 => "lanes z, w",
        _ => "lane w",
    }
}

/// The source of one layout's struct (named `name`, documented with `doc`) and of the structs its
/// members use, with its word map.
pub fn struct_source(name: &str, doc: &str, fields: &[PlacedField], size: u32) -> StructSource {
    let mut structs = Structs::new(vec![name.to_string()]);
    let mut w = W::default();
    let words = structs.write_layout(&mut w, name, &[Doc::Text(doc.to_string())], fields, &[], size);
    structs.emit_pending(&mut w);
    let code = w.finish();
    StructSource { name: name.to_string(), code: code.trim_start_matches('\n').to_string(), size, words }
}
