//! Constant-buffer layouts: HLSL variable types and the HLSL constant-buffer packing rules.
//!
//! A constant buffer is an array of 16-byte registers (`c0`, `c1`, ...). HLSL places variables
//! in declaration order:
//! - a scalar or vector goes at the current position unless it would cross a register boundary,
//!   in which case it starts at the next register;
//! - an array, a matrix (and a struct) always starts at a register boundary; every array element
//!   starts at a register boundary, and every column (column-major) or row (row-major) of a matrix
//!   takes one register;
//! - what follows an array or matrix may pack into the unused lanes of its last register.
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

    /// Whether the variable starts at a register boundary (arrays and matrices).
    pub fn register_aligned(&self) -> bool {
        self.array.is_some() || matches!(self.shape, Shape::Matrix { .. })
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
pub fn next_offset(cursor: u32, ty: &HlslType) -> u32 {
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

/// Checks that an explicit offset is legal for a type: arrays and matrices at a register start,
/// scalars and vectors inside one register, scalars aligned to 4 bytes.
///
/// # Errors
/// A message saying why the offset is not allowed.
pub fn check_offset(offset: u32, ty: &HlslType) -> Result<(), String> {
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

/// A variable placed in a constant buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedField {
    /// HLSL name, as the effect file spells it.
    pub name: String,
    /// Type.
    pub ty: HlslType,
    /// Byte offset from the start of the buffer.
    pub offset: u32,
}

impl PlacedField {
    /// One past the last byte the variable uses.
    pub fn end(&self) -> u32 {
        self.offset + self.ty.size()
    }
}

/// Places fields: each at its explicit offset when it has one, else where the packing rules put
/// it after the previous field (in declaration order).
///
/// # Errors
/// `(field index, message)` for an illegal explicit offset or two fields that overlap.
pub fn place(fields: &[(String, HlslType, Option<u32>)]) -> Result<Vec<PlacedField>, (usize, String)> {
    let mut out = Vec::with_capacity(fields.len());
    let mut cursor = 0;
    for (i, (name, ty, offset)) in fields.iter().enumerate() {
        let offset = match offset {
            Some(o) => {
                check_offset(*o, ty).map_err(|m| (i, format!("field `{name}`: {m}")))?;
                *o
            }
            None => next_offset(cursor, ty),
        };
        let f = PlacedField { name: name.clone(), ty: *ty, offset };
        cursor = f.end();
        out.push(f);
    }
    // Overlaps, in offset order.
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
    Ok(out)
}

/// Size of a layout in bytes, rounded up to whole registers.
pub fn layout_size(fields: &[PlacedField]) -> u32 {
    round_up(fields.iter().map(PlacedField::end).max().unwrap_or(0), REGISTER)
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
        let f = |o: &str, ty: &str| check_offset(parse_offset(o).unwrap(), &t(ty));
        assert!(f("c2.w", "float").is_ok());
        assert!(f("c2.z", "float2").is_ok());
        assert!(f("c2.w", "float2").is_err());
        assert!(f("c2.y", "float4x4").is_err());
        assert!(f("c2.y", "float[2]").is_err());
        let overlap =
            place(&[("a".into(), t("float4"), Some(0)), ("b".into(), t("float"), Some(parse_offset("c0.w").unwrap()))]);
        assert_eq!(overlap.unwrap_err().0, 1);
    }
}
