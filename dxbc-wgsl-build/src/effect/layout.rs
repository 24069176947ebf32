//! Constant-buffer layouts: HLSL variable types and the HLSL constant-buffer packing rules.
//!
//! A constant buffer is an array of 16-byte registers (`c0`, `c1`, ...). HLSL places variables
//! in declaration order:
//! - a scalar or vector goes at the current position unless it would cross a register boundary,
//!   in which case it starts at the next register;
//! - an array and a struct always start at a register boundary, and so does a matrix that takes
//!   more than one register; every array element starts at a register boundary, and every column
//!   (column-major) or row (row-major) of a matrix takes one register. A matrix of one register
//!   (`float4x1`, `row_major float1x3`) packs like a vector of its components;
//! - a struct's members are placed by the same rules from the struct's start; the struct's size
//!   ends at its last member's last byte (it is not rounded up; an array of structs rounds each
//!   element up to whole registers);
//! - what follows an array, a matrix or a struct may pack into the unused lanes of its last
//!   register.
//!
//! These are the rules of fxc's legacy constant-buffer layout as DXC (`AlignBufferOffsetInLegacy`)
//! and vkd3d (`hlsl_type_get_sm4_offset`) implement them; `tests/bindings/rdef_layouts.rs` checks
//! them against every offset the compilers recorded in the corpus's reflection.
//!
//! `packoffset(cN.c)` places a variable explicitly; the effect file's `offset = "c2.w"` does the
//! same.

use std::fmt;

/// Register size in bytes.
pub const REGISTER: u32 = 16;

/// Scalar type of an HLSL constant-buffer variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `float` (and `half`, 32-bit in constant buffers).
    Float,
    /// `int`.
    Int,
    /// `uint` / `dword`.
    Uint,
    /// `bool` (32 bits in constant buffers).
    Bool,
}

impl Scalar {
    /// HLSL name.
    pub fn hlsl(self) -> &'static str {
        match self {
            Scalar::Float => "float",
            Scalar::Int => "int",
            Scalar::Uint => "uint",
            Scalar::Bool => "bool",
        }
    }
    /// Rust type of one component.
    pub fn rust(self) -> &'static str {
        match self {
            Scalar::Float => "f32",
            Scalar::Int => "i32",
            Scalar::Uint | Scalar::Bool => "u32",
        }
    }
}

/// Matrix packing order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MatrixPacking {
    /// HLSL's default: each column takes one register.
    #[default]
    ColumnMajor,
    /// Each row takes one register.
    RowMajor,
}

impl MatrixPacking {
    /// HLSL keyword.
    pub fn hlsl(self) -> &'static str {
        match self {
            MatrixPacking::ColumnMajor => "column_major",
            MatrixPacking::RowMajor => "row_major",
        }
    }
}

/// Shape of one (non-array) element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A scalar or a vector of 1–4 components.
    Vector(u8),
    /// A matrix of `rows` × `cols` (each 1–4).
    Matrix {
        /// Rows.
        rows: u8,
        /// Columns.
        cols: u8,
        /// Packing order.
        packing: MatrixPacking,
    },
}

/// The type of a constant-buffer variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HlslType {
    /// Component type.
    pub scalar: Scalar,
    /// Element shape.
    pub shape: Shape,
    /// Array length, when the variable is an array.
    pub array: Option<u32>,
}

impl fmt::Display for HlslType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shape {
            Shape::Vector(1) => write!(f, "{}", self.scalar.hlsl())?,
            Shape::Vector(n) => write!(f, "{}{n}", self.scalar.hlsl())?,
            Shape::Matrix { rows, cols, .. } => write!(f, "{}{rows}x{cols}", self.scalar.hlsl())?,
        }
        if let Some(n) = self.array {
            write!(f, "[{n}]")?;
        }
        Ok(())
    }
}

/// Why a type string was not understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeError(pub String);

impl HlslType {
    /// Parses an HLSL type: `float`, `float3`, `uint2`, `int`, `bool4`, `float4x4`, `float3x3`,
    /// `matrix`, `vector`, with an optional array suffix `[N]` and an optional leading
    /// `row_major` / `column_major` keyword.
    ///
    /// # Errors
    /// A [`TypeError`] saying what is wrong.
    pub fn parse(text: &str) -> Result<Self, TypeError> {
        let mut rest = text.trim();
        let mut packing = None;
        for (kw, p) in [("row_major", MatrixPacking::RowMajor), ("column_major", MatrixPacking::ColumnMajor)] {
            if let Some(r) = rest.strip_prefix(kw) {
                if r.starts_with(char::is_whitespace) {
                    packing = Some(p);
                    rest = r.trim_start();
                }
            }
        }
        let (base, array) = match rest.find('[') {
            Some(open) => {
                let Some(inner) = rest[open + 1..].strip_suffix(']') else {
                    return Err(TypeError(format!("`{text}`: expected `]` at the end of the array suffix")));
                };
                let n: u32 = inner
                    .trim()
                    .parse()
                    .map_err(|_| TypeError(format!("`{text}`: array length `{inner}` is not a positive integer")))?;
                if n == 0 {
                    return Err(TypeError(format!("`{text}`: array length must be at least 1")));
                }
                // A constant buffer holds at most 4096 16-byte registers (D3D11.3), and every
                // array element takes at least one: a longer array cannot fit (and would make
                // offsets overflow).
                if n > 4096 {
                    return Err(TypeError(format!(
                        "`{text}`: array length {n} exceeds the 4096 registers a constant buffer can hold"
                    )));
                }
                (rest[..open].trim_end(), Some(n))
            }
            None => (rest, None),
        };
        let (scalar, dims) = if base == "matrix" {
            (Scalar::Float, "4x4")
        } else if base == "vector" {
            (Scalar::Float, "4")
        } else {
            let names = [
                ("float", Scalar::Float),
                ("half", Scalar::Float),
                ("uint", Scalar::Uint),
                ("dword", Scalar::Uint),
                ("int", Scalar::Int),
                ("bool", Scalar::Bool),
            ];
            let Some((name, s)) = names.iter().find(|(n, _)| base.starts_with(n)) else {
                return Err(TypeError(format!(
                    "`{text}` is not a constant-buffer type (expected float, int, uint, bool, their vectors \
                     such as float3, or matrices such as float4x4, with an optional [N])"
                )));
            };
            (*s, &base[name.len()..])
        };
        let digit = |c: &str| -> Result<u8, TypeError> {
            match c {
                "1" => Ok(1),
                "2" => Ok(2),
                "3" => Ok(3),
                "4" => Ok(4),
                _ => Err(TypeError(format!("`{text}`: dimensions must be 1 to 4"))),
            }
        };
        let shape = if dims.is_empty() {
            Shape::Vector(1)
        } else if let Some((r, c)) = dims.split_once('x') {
            Shape::Matrix { rows: digit(r)?, cols: digit(c)?, packing: packing.unwrap_or_default() }
        } else {
            Shape::Vector(digit(dims)?)
        };
        if packing.is_some() && !matches!(shape, Shape::Matrix { .. }) {
            return Err(TypeError(format!("`{text}`: row_major/column_major applies to matrices only")));
        }
        Ok(HlslType { scalar, shape, array })
    }

    /// Sets the packing of a matrix type (no effect on other types).
    pub fn with_packing(mut self, p: MatrixPacking) -> Self {
        if let Shape::Matrix { packing, .. } = &mut self.shape {
            *packing = p;
        }
        self
    }

    /// Whether the variable starts at a register boundary: arrays, and matrices of more than one
    /// register (a one-register matrix packs like a vector).
    pub fn register_aligned(&self) -> bool {
        self.array.is_some() || self.element_vectors().0 > 1
    }

    /// `(vectors, components)`: how many registers one element takes and how many components of
    /// each it uses. A vector is one register of `n` components.
    pub fn element_vectors(&self) -> (u32, u32) {
        match self.shape {
            Shape::Vector(n) => (1, u32::from(n)),
            Shape::Matrix { rows, cols, packing: MatrixPacking::ColumnMajor } => (u32::from(cols), u32::from(rows)),
            Shape::Matrix { rows, cols, packing: MatrixPacking::RowMajor } => (u32::from(rows), u32::from(cols)),
        }
    }

    /// Bytes one element occupies: the last register only up to its last used component.
    pub fn element_size(&self) -> u32 {
        let (v, c) = self.element_vectors();
        (v - 1) * REGISTER + 4 * c
    }

    /// Bytes the variable occupies, from its first byte to its last used byte.
    pub fn size(&self) -> u32 {
        let e = self.element_size();
        match self.array {
            Some(n) => (n - 1) * round_up(e, REGISTER) + e,
            None => e,
        }
    }
}

/// Rounds `v` up to a multiple of `to`.
pub fn round_up(v: u32, to: u32) -> u32 {
    v.div_ceil(to) * to
}

/// Parses a `packoffset`-style offset: `c3` (byte 48), `c2.w` (byte 44), `c0.y` (byte 4).
///
/// # Errors
/// A message when the text is not of that form.
pub fn parse_offset(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let Some(rest) = t.strip_prefix('c') else {
        return Err(format!("offset `{text}` must be a register like `c3` or a register component like `c2.w`"));
    };
    let (reg, comp) = match rest.split_once('.') {
        Some((r, c)) => (r, Some(c)),
        None => (rest, None),
    };
    let reg: u32 = reg.parse().map_err(|_| format!("offset `{text}`: `{reg}` is not a register number"))?;
    let lane = match comp {
        None | Some("x") | Some("r") => 0,
        Some("y") | Some("g") => 1,
        Some("z") | Some("b") => 2,
        Some("w") | Some("a") => 3,
        Some(c) => return Err(format!("offset `{text}`: component `{c}` is not one of x, y, z, w")),
    };
    reg.checked_mul(REGISTER)
        .and_then(|b| b.checked_add(lane * 4))
        .ok_or_else(|| format!("offset `{text}` is too large"))
}

/// Formats a byte offset as a register: `c2.w`, or `c3` for a register start.
pub fn format_offset(byte: u32) -> String {
    let reg = byte / REGISTER;
    match (byte % REGISTER) / 4 {
        0 => format!("c{reg}"),
        1 => format!("c{reg}.y"),
        2 => format!("c{reg}.z"),
        _ => format!("c{reg}.w"),
    }
}

/// Where the packing rules put a variable of type `ty` when the previous variable ended at byte
/// `cursor`.
pub fn next_offset(cursor: u32, ty: &VarType) -> u32 {
    if ty.register_aligned() {
        round_up(cursor, REGISTER)
    } else {
        let size = ty.size();
        if cursor % REGISTER + size > REGISTER {
            round_up(cursor, REGISTER)
        } else {
            cursor
        }
    }
}

/// Checks that an explicit offset is legal for a type: arrays, structs and multi-register
/// matrices at a register start, scalars and vectors inside one register, scalars aligned to 4
/// bytes.
///
/// # Errors
/// A message saying why the offset is not allowed.
pub fn check_offset(offset: u32, ty: &VarType) -> Result<(), String> {
    if !offset.is_multiple_of(4) {
        return Err(format!("offset {offset} is not a multiple of 4"));
    }
    if ty.register_aligned() && !offset.is_multiple_of(REGISTER) {
        return Err(format!(
            "a {ty} must start at a register boundary (x component), not at {}",
            format_offset(offset)
        ));
    }
    if !ty.register_aligned() && offset % REGISTER + ty.size() > REGISTER {
        return Err(format!("a {ty} at {} would cross into the next register", format_offset(offset)));
    }
    Ok(())
}

/// The type of a constant-buffer variable or struct member: numeric, or a struct.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum VarType {
    /// A scalar, vector or matrix, or an array of them.
    Numeric(HlslType),
    /// A struct, or an array of structs.
    Struct(StructType),
}

/// A struct type with its members placed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StructType {
    /// The HLSL type name when it is known (SM5 reflection records it; SM4 and anonymous structs
    /// have none).
    pub name: Option<String>,
    /// Members in declaration order, offsets relative to the start of the struct.
    pub members: Vec<PlacedField>,
    /// Array length, when the variable is an array of structs.
    pub array: Option<u32>,
}

impl StructType {
    /// Bytes one element occupies: up to the last used byte of its members (HLSL does not round
    /// a struct up; what follows may pack into its last register).
    pub fn element_size(&self) -> u32 {
        self.members.iter().map(PlacedField::end).max().unwrap_or(0)
    }
}

impl From<HlslType> for VarType {
    fn from(t: HlslType) -> Self {
        VarType::Numeric(t)
    }
}

impl VarType {
    /// Array length, when the variable is an array.
    pub fn array(&self) -> Option<u32> {
        match self {
            VarType::Numeric(t) => t.array,
            VarType::Struct(s) => s.array,
        }
    }

    /// The numeric type, when it is one.
    pub fn numeric(&self) -> Option<&HlslType> {
        match self {
            VarType::Numeric(t) => Some(t),
            VarType::Struct(_) => None,
        }
    }

    /// Whether the variable starts at a register boundary: arrays, structs and matrices of more
    /// than one register.
    pub fn register_aligned(&self) -> bool {
        match self {
            VarType::Numeric(t) => t.register_aligned(),
            VarType::Struct(_) => true,
        }
    }

    /// Bytes one element occupies (the last register only up to its last used component).
    pub fn element_size(&self) -> u32 {
        match self {
            VarType::Numeric(t) => t.element_size(),
            VarType::Struct(s) => s.element_size(),
        }
    }

    /// Distance between array elements: the element rounded up to whole registers.
    pub fn element_stride(&self) -> u32 {
        round_up(self.element_size(), REGISTER)
    }

    /// Bytes the variable occupies, from its first byte to its last used byte.
    pub fn size(&self) -> u32 {
        let e = self.element_size();
        match self.array() {
            Some(n) => n.saturating_sub(1) * round_up(e, REGISTER) + e,
            None => e,
        }
    }
}

impl VarType {
    /// The type as HLSL declares it, with the row/column order of matrices (`row_major
    /// float3x4[2]`, `column_major float4x4`, `float3`, `struct Light[4]`).
    pub fn declaration(&self) -> String {
        match self {
            VarType::Numeric(t @ HlslType { shape: Shape::Matrix { packing, .. }, .. }) => {
                format!("{} {t}", packing.hlsl())
            }
            other => other.to_string(),
        }
    }
}

impl fmt::Display for VarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VarType::Numeric(t) => write!(f, "{t}"),
            VarType::Struct(s) => {
                write!(f, "struct")?;
                if let Some(n) = &s.name {
                    write!(f, " {n}")?;
                }
                if let Some(n) = s.array {
                    write!(f, "[{n}]")?;
                }
                Ok(())
            }
        }
    }
}

/// A variable placed in a constant buffer (or a member placed in a struct).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlacedField {
    /// HLSL name, as the effect file or the reflection spells it.
    pub name: String,
    /// Type.
    pub ty: VarType,
    /// Byte offset from the start of the buffer (of the struct, for a member).
    pub offset: u32,
}

impl PlacedField {
    /// One past the last byte the variable uses.
    pub fn end(&self) -> u32 {
        self.offset + self.ty.size()
    }
}

/// Places fields: each at its explicit offset when it has one, else where the packing rules put
/// it after the previous field (in declaration order). This is the effect file's rule for
/// `offset`; [`pack`] is the compiler's for HLSL declarations.
///
/// # Errors
/// `(field index, message)` for an illegal explicit offset or two fields that overlap.
pub fn place(fields: &[(String, HlslType, Option<u32>)]) -> Result<Vec<PlacedField>, (usize, String)> {
    let mut out = Vec::with_capacity(fields.len());
    let mut cursor = 0;
    for (i, (name, ty, offset)) in fields.iter().enumerate() {
        let ty = VarType::Numeric(*ty);
        let offset = match offset {
            Some(o) => {
                check_offset(*o, &ty).map_err(|m| (i, format!("field `{name}`: {m}")))?;
                *o
            }
            None => next_offset(cursor, &ty),
        };
        let f = PlacedField { name: name.clone(), ty, offset };
        // D3D11.3: a constant buffer holds at most 4096 registers (65,536 bytes).
        if u64::from(f.offset) + u64::from(f.ty.size()) > 65_536 {
            return Err((
                i,
                format!("field `{name}` ends past byte 65536: a constant buffer holds at most 4096 registers"),
            ));
        }
        cursor = f.end();
        out.push(f);
    }
    check_overlaps(&out)?;
    Ok(out)
}

/// Two fields that overlap, in offset order: `(index of the later-declared one, message)`.
fn check_overlaps(out: &[PlacedField]) -> Result<(), (usize, String)> {
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_by_key(|&i| (out[i].offset, i));
    for w in order.windows(2) {
        let (a, b) = (&out[w[0]], &out[w[1]]);
        // Array and matrix registers leave lanes unused between elements, but HLSL never places
        // another variable there; only the tail after the last used byte is free.
        if b.offset < a.end() {
            let later = w[0].max(w[1]);
            return Err((
                later,
                format!(
                    "field `{}` ({}, {}..byte {}) overlaps field `{}` ({}, {}..byte {})",
                    b.name,
                    b.ty,
                    format_offset(b.offset),
                    b.end(),
                    a.name,
                    a.ty,
                    format_offset(a.offset),
                    a.end()
                ),
            ));
        }
    }
    Ok(())
}

/// Size of a layout in bytes, rounded up to whole registers.
pub fn layout_size(fields: &[PlacedField]) -> u32 {
    round_up(fields.iter().map(PlacedField::end).max().unwrap_or(0), REGISTER)
}

/// A variable as HLSL declares it: a name, a type, and no offset unless the declaration gives
/// one (`packoffset`, or `register(cN)` in `$Globals`). [`pack`] places it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    /// Name.
    pub name: String,
    /// Type.
    pub ty: DeclaredType,
    /// Explicit byte offset from the declaration, if any (only for constant-buffer variables).
    pub explicit: Option<u32>,
}

/// The type of a declared variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclaredType {
    /// A scalar, vector or matrix, or an array of them.
    Numeric(HlslType),
    /// A struct (or an array of structs) with its members as declared.
    Struct {
        /// HLSL type name, when known.
        name: Option<String>,
        /// Members in declaration order.
        members: Vec<Declared>,
        /// Array length.
        array: Option<u32>,
    },
}

/// Variants of the packing rules. [`Rules::HLSL`] is HLSL's; the others exist to show that the
/// checks against the compiler's offsets notice a wrong rule (each flag breaks one rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rules {
    /// Wrong: array elements follow each other without rounding to whole registers.
    pub tight_arrays: bool,
    /// Wrong (as far as DXC and vkd3d go): the variable after a struct starts a new register.
    pub align_after_struct: bool,
    /// Wrong (as far as DXC and vkd3d go): every matrix starts a new register, also one of a
    /// single register.
    pub align_all_matrices: bool,
}

impl Rules {
    /// HLSL's rules.
    pub const HLSL: Rules = Rules { tight_arrays: false, align_after_struct: false, align_all_matrices: false };
}

/// Places declared variables by HLSL's packing rules: explicitly placed ones at their offsets
/// (checked), the others in declaration order after the furthest explicitly placed one, as fxc
/// and DXC allocate `$Globals` (`float a : register(c2); float b;` puts `b` at `c2.y`).
///
/// # Errors
/// `(variable index, message)` for an illegal explicit offset or two variables that overlap.
pub fn pack(decls: &[Declared]) -> Result<Vec<PlacedField>, (usize, String)> {
    pack_with(decls, &Rules::HLSL)
}

/// [`pack`] with a variant of the rules.
///
/// # Errors
/// As [`pack`].
pub fn pack_with(decls: &[Declared], rules: &Rules) -> Result<Vec<PlacedField>, (usize, String)> {
    let types: Vec<VarType> = decls.iter().map(|d| resolve(&d.ty, rules)).collect();
    let mut out: Vec<Option<PlacedField>> = vec![None; decls.len()];
    let mut cursor = 0;
    for (i, (d, ty)) in decls.iter().zip(&types).enumerate() {
        if let Some(o) = d.explicit {
            check_offset(o, ty).map_err(|m| (i, format!("`{}`: {m}", d.name)))?;
            let f = PlacedField { name: d.name.clone(), ty: ty.clone(), offset: o };
            cursor = cursor.max(f.end());
            out[i] = Some(f);
        }
    }
    let mut prev: Option<&VarType> = None;
    for (i, (d, ty)) in decls.iter().zip(&types).enumerate() {
        if d.explicit.is_some() {
            continue;
        }
        let after_struct = rules.align_after_struct && matches!(prev, Some(VarType::Struct(_)));
        let offset = if after_struct { round_up(cursor, REGISTER) } else { next_offset_with(cursor, ty, rules) };
        cursor = offset + size_with(ty, rules);
        out[i] = Some(PlacedField { name: d.name.clone(), ty: ty.clone(), offset });
        prev = Some(ty);
    }
    let out: Vec<PlacedField> = out.into_iter().map(|f| f.expect("every variable placed")).collect();
    if *rules == Rules::HLSL {
        // (A variant's sizes differ from `VarType::size`: only HLSL's placement is checked.)
        check_overlaps(&out)?;
    }
    Ok(out)
}

/// A declared type with its struct members placed.
fn resolve(ty: &DeclaredType, rules: &Rules) -> VarType {
    match ty {
        DeclaredType::Numeric(t) => VarType::Numeric(*t),
        DeclaredType::Struct { name, members, array } => {
            let mut placed = Vec::with_capacity(members.len());
            let mut cursor = 0;
            let mut prev: Option<VarType> = None;
            for m in members {
                let ty = resolve(&m.ty, rules);
                let after_struct = rules.align_after_struct && matches!(prev, Some(VarType::Struct(_)));
                let offset =
                    if after_struct { round_up(cursor, REGISTER) } else { next_offset_with(cursor, &ty, rules) };
                cursor = offset + size_with(&ty, rules);
                placed.push(PlacedField { name: m.name.clone(), ty: ty.clone(), offset });
                prev = Some(ty);
            }
            VarType::Struct(StructType { name: name.clone(), members: placed, array: *array })
        }
    }
}

fn next_offset_with(cursor: u32, ty: &VarType, rules: &Rules) -> u32 {
    let matrix = matches!(ty, VarType::Numeric(HlslType { shape: Shape::Matrix { .. }, .. }));
    if rules.align_all_matrices && matrix {
        return round_up(cursor, REGISTER);
    }
    if rules.tight_arrays && ty.array().is_some() {
        // Arrays still start at a register; only their elements are packed tightly.
        return round_up(cursor, REGISTER);
    }
    next_offset(cursor, ty)
}

fn size_with(ty: &VarType, rules: &Rules) -> u32 {
    match (rules.tight_arrays, ty.array()) {
        (true, Some(n)) => n * ty.element_size(),
        _ => ty.size(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> HlslType {
        HlslType::parse(s).unwrap()
    }

    fn auto(fields: &[(&str, &str)]) -> Vec<(String, u32)> {
        let f: Vec<_> = fields.iter().map(|(n, ty)| (n.to_string(), t(ty), None)).collect();
        place(&f).unwrap().into_iter().map(|p| (p.name, p.offset)).collect()
    }

    #[test]
    fn parses_types() {
        assert_eq!(t("float").size(), 4);
        assert_eq!(t("float3").size(), 12);
        assert_eq!(t("uint2").scalar, Scalar::Uint);
        assert_eq!(t("float4x4").size(), 64);
        // Column-major float3x3: three columns of three floats.
        assert_eq!(t("float3x3").size(), 16 * 2 + 12);
        // Column-major float4x3 (4 rows, 3 columns): 3 registers of 4; row-major: 4 of 3.
        assert_eq!(t("float4x3").size(), 48);
        assert_eq!(t("row_major float4x3").size(), 16 * 3 + 12);
        assert_eq!(t("float3[3]").size(), 16 * 2 + 12);
        assert_eq!(t("float[4]").size(), 16 * 3 + 4);
        assert_eq!(t("matrix"), t("float4x4"));
        assert!(HlslType::parse("float5").is_err());
        assert!(HlslType::parse("double").is_err());
        assert!(HlslType::parse("float[0]").is_err());
        assert!(HlslType::parse("row_major float3").is_err());
        assert_eq!(t("float3x3[2]").to_string(), "float3x3[2]");
    }

    #[test]
    fn parses_offsets() {
        assert_eq!(parse_offset("c0"), Ok(0));
        assert_eq!(parse_offset("c2.w"), Ok(44));
        assert_eq!(parse_offset("c22"), Ok(352));
        assert_eq!(parse_offset("c1.y"), Ok(20));
        assert!(parse_offset("b2").is_err());
        assert!(parse_offset("c2.q").is_err());
        assert_eq!(format_offset(44), "c2.w");
        assert_eq!(format_offset(352), "c22");
    }

    #[test]
    fn packing_rules_place_like_hlsl() {
        // Scalars and vectors pack into the current register while they fit.
        assert_eq!(
            auto(&[("a", "float3"), ("b", "float"), ("c", "float2"), ("d", "float3")]),
            vec![("a".into(), 0), ("b".into(), 12), ("c".into(), 16), ("d".into(), 32)]
        );
        // A float2 after a float3 does not fit in c0.w: next register.
        assert_eq!(auto(&[("a", "float3"), ("b", "float2")]), vec![("a".into(), 0), ("b".into(), 16)]);
        // Arrays and matrices start at a register; what follows packs into their last register.
        assert_eq!(
            auto(&[("a", "float"), ("m", "float3x3"), ("f", "float"), ("arr", "float2[2]"), ("g", "float2")]),
            vec![
                ("a".into(), 0),
                ("m".into(), 16),
                ("f".into(), 16 + 44),
                ("arr".into(), 64),
                ("g".into(), 64 + 16 + 8)
            ]
        );
        // Row-major float3x3 packs the same way (three rows of three).
        assert_eq!(auto(&[("m", "row_major float4x3"), ("f", "float")]), vec![("m".into(), 0), ("f".into(), 60)]);
    }

    #[test]
    fn basic_effect_layout_matches_packoffsets() {
        // DirectXTK BasicEffect.fx declares every variable with packoffset; the packing rules must
        // give the same offsets without them.
        let placed = auto(&[
            ("DiffuseColor", "float4"),
            ("EmissiveColor", "float3"),
            ("SpecularColor", "float3"),
            ("SpecularPower", "float"),
            ("LightDirection", "float3[3]"),
            ("LightDiffuseColor", "float3[3]"),
            ("LightSpecularColor", "float3[3]"),
            ("EyePosition", "float3"),
            ("FogColor", "float3"),
            ("FogVector", "float4"),
            ("World", "float4x4"),
            ("WorldInverseTranspose", "float3x3"),
            ("WorldViewProj", "float4x4"),
        ]);
        let expect = ["c0", "c1", "c2", "c2.w", "c3", "c6", "c9", "c12", "c13", "c14", "c15", "c19", "c22"];
        for ((name, off), e) in placed.iter().zip(expect) {
            assert_eq!(format_offset(*off), e, "{name}");
        }
    }

    #[test]
    fn explicit_offsets_are_checked() {
        let f = |o: &str, ty: &str| check_offset(parse_offset(o).unwrap(), &t(ty).into());
        assert!(f("c2.w", "float").is_ok());
        assert!(f("c2.z", "float2").is_ok());
        assert!(f("c2.w", "float2").is_err());
        assert!(f("c2.y", "float4x4").is_err());
        assert!(f("c2.y", "float[2]").is_err());
        let overlap =
            place(&[("a".into(), t("float4"), Some(0)), ("b".into(), t("float"), Some(parse_offset("c0.w").unwrap()))]);
        assert_eq!(overlap.unwrap_err().0, 1);
    }

    fn num(name: &str, ty: &str) -> Declared {
        Declared { name: name.into(), ty: DeclaredType::Numeric(t(ty)), explicit: None }
    }

    fn strukt(name: &str, members: Vec<Declared>, array: Option<u32>) -> Declared {
        Declared { name: name.into(), ty: DeclaredType::Struct { name: None, members, array }, explicit: None }
    }

    fn offsets(fields: &[PlacedField]) -> Vec<(String, u32)> {
        fields.iter().map(|f| (f.name.clone(), f.offset)).collect()
    }

    #[test]
    fn one_register_matrices_pack_like_vectors() {
        // A column-major float4x1 is one column of four: a float4. A row-major float1x3 is one
        // row of three: it packs after a float like a float3 would.
        assert!(!t("float4x1").register_aligned());
        assert!(!t("row_major float1x3").register_aligned());
        assert!(t("float1x2").register_aligned());
        assert_eq!(
            auto(&[("a", "float"), ("m", "row_major float1x3"), ("b", "float"), ("n", "float2x1")]),
            vec![("a".into(), 0), ("m".into(), 4), ("b".into(), 16), ("n".into(), 20)]
        );
    }

    #[test]
    fn structs_start_a_register_and_end_at_their_last_member() {
        // struct { float2 a; float b; } s; float c;  — s at c1, 12 bytes; c packs into c1.w.
        let decls = vec![
            num("x", "float"),
            strukt("s", vec![num("a", "float2"), num("b", "float")], None),
            num("c", "float"),
            strukt("arr", vec![num("m", "float3x3"), num("k", "float")], Some(2)),
            num("d", "float2"),
        ];
        let placed = pack(&decls).unwrap();
        assert_eq!(
            offsets(&placed),
            vec![("x".into(), 0), ("s".into(), 16), ("c".into(), 28), ("arr".into(), 32), ("d".into(), 128)]
        );
        let VarType::Struct(s) = &placed[1].ty else { panic!() };
        assert_eq!(offsets(&s.members), vec![("a".into(), 0), ("b".into(), 8)]);
        assert_eq!(s.element_size(), 12);
        // float3x3 (44 bytes) then k at 44: 48 bytes, stride 48; two elements: 48 + 48.
        let VarType::Struct(arr) = &placed[3].ty else { panic!() };
        assert_eq!(offsets(&arr.members), vec![("m".into(), 0), ("k".into(), 44)]);
        assert_eq!((placed[3].ty.element_stride(), placed[3].ty.size()), (48, 96));
        // The wrong rule "a struct forces the next variable onto a new register" moves `c`.
        let wrong = pack_with(&decls, &Rules { align_after_struct: true, ..Rules::HLSL }).unwrap();
        assert_eq!(wrong[2].offset, 32);
    }

    #[test]
    fn explicit_placement_puts_the_rest_after_it() {
        // float a : register(c2); float b;  — b at c2.y, as the compilers place it.
        let mut a = num("a", "float");
        a.explicit = Some(32);
        let placed = pack(&[a, num("b", "float")]).unwrap();
        assert_eq!(offsets(&placed), vec![("a".into(), 32), ("b".into(), 36)]);
        let mut m = num("m", "float4x4");
        m.explicit = Some(4);
        assert!(pack(&[m]).is_err());
    }

    #[test]
    fn tight_arrays_are_a_different_rule() {
        let decls = vec![num("a", "float3[2]"), num("b", "float")];
        assert_eq!(offsets(&pack(&decls).unwrap()), vec![("a".into(), 0), ("b".into(), 28)]);
        let wrong = pack_with(&decls, &Rules { tight_arrays: true, ..Rules::HLSL }).unwrap();
        assert_eq!(wrong[1].offset, 24);
    }
}
