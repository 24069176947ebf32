//! Constant-buffer layouts from a shader's reflection (`RDEF`), checked against HLSL's packing
//! rules.
//!
//! The reflection records, per constant buffer, each variable's name, type and the byte offset
//! the compiler gave it. Two independent sources for one layout:
//!
//! 1. a *declaration* derived from the reflection's **types only** (name, HLSL type with its
//!    row/column order, array length, struct members; no offsets), which [`layout::pack`] places
//!    by HLSL's packing rules;
//! 2. the offsets (and sizes) the compiler recorded.
//!
//! [`cbuffer_layouts`] derives the declaration, packs it and compares every variable and struct
//! member with the recorded offsets; the [`Verdict`] names each variable that disagrees. The only
//! offsets taken from the reflection into the declaration are those of variables the compiler
//! flags as placed by the source (`D3D_SVF_USERPACKED`: `packoffset`, `register(cN)`), because
//! the source declared them.
//!
//! [`rust_struct_source`] writes the `#[repr(C)]` Rust struct of an agreeing layout with the same
//! writer the effect generator uses.

use std::fmt;

use dxbc_wgsl::chunks::rdef::{
    self, CbufferKind, ConstantBuffer, InputType, Reflection, Type, VariableClass, VariableType,
};
use dxbc_wgsl::container::{Container, ReadOptions};

use crate::effect::layout::{
    self, format_offset, layout_size, Declared, DeclaredType, HlslType, MatrixPacking, PlacedField, Rules, Scalar,
    Shape, VarType,
};
use crate::structs::{struct_source, StructSource};

/// `D3D_SVF_USERPACKED`: the source placed the variable (`packoffset`, `register(cN)`).
const USER_PACKED: u32 = 1;

/// One constant buffer of a shader's reflection, as the packing rules lay it out.
#[derive(Debug, Clone, PartialEq)]
pub struct ReflectedLayout {
    /// The buffer's name (`$Globals`, `$Params`, or the `cbuffer`'s).
    pub name: String,
    /// The register it is bound to (`b#` slot and register space), when the reflection binds it:
    /// for an SM5.1 array of constant buffers, its first register.
    pub register: Option<(u32, u32)>,
    /// How many registers from [`ReflectedLayout::register`] it binds: 1, the element count of
    /// an SM5.1 array of constant buffers (`ConstantBuffer<T> cbs[4] : register(b2)` binds
    /// b2-b5, each element with this one layout), or `u32::MAX` for an unbounded one.
    pub register_count: u32,
    /// The buffer's size as the compiler recorded it.
    pub size: u32,
    /// The type-only declaration derived from the reflection (empty when a type is not
    /// supported; see [`Verdict::Unsupported`]).
    pub declaration: Vec<Declared>,
    /// The variables where the packing rules put them (empty when not supported).
    pub fields: Vec<PlacedField>,
    /// How the packing rules compare with the compiler's offsets.
    pub verdict: Verdict,
    /// Variables and struct members compared (each member of a struct counted once, not per
    /// array element).
    pub variables: usize,
    /// Variables placed by the source (`packoffset`/`register(cN)`), whose offset is part of the
    /// declaration.
    pub explicit: usize,
    /// The reflection's record, for comparisons with other declarations of the same buffer.
    pub reflection: ConstantBuffer,
}

/// The outcome of comparing the packing rules with the compiler's offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every variable, struct member and the buffer size agree.
    Agrees,
    /// Some disagree (each named).
    Disagrees(Vec<Mismatch>),
    /// A type has no constant-buffer layout this crate can describe (doubles, 64-bit or 16-bit
    /// types, objects, interfaces).
    Unsupported(String),
}

impl Verdict {
    /// Whether the layout agrees.
    pub fn agrees(&self) -> bool {
        *self == Verdict::Agrees
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Agrees => write!(f, "the packing rules agree with the compiler's offsets"),
            Verdict::Disagrees(m) => {
                let list: Vec<String> = m.iter().map(ToString::to_string).collect();
                write!(f, "the packing rules disagree with the compiler's offsets: {}", list.join("; "))
            }
            Verdict::Unsupported(why) => write!(f, "not supported: {why}"),
        }
    }
}

/// A variable (or struct member, `apple.b`) whose packing-rule placement differs from the
/// compiler's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The variable's path: `name`, or `struct_var.member`.
    pub variable: String,
    /// What differs.
    pub message: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.variable, self.message)
    }
}

/// Why a container's layouts could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReflectError {
    /// The container (or its RDEF chunk) is not readable.
    #[error(transparent)]
    Read(#[from] dxbc_wgsl::ReadError),
    /// The container has no RDEF chunk (fxc's `/Qstrip_reflect`, as DirectXTK's blobs).
    #[error("the shader carries no reflection (no RDEF chunk); its constant-buffer layouts must be declared")]
    NoReflection,
}

/// The constant-buffer layouts of a DXBC container, each packed by HLSL's rules from its
/// reflected types and checked against the reflected offsets. Only `cbuffer`s are returned
/// (not `tbuffer`s, interface pointers or structured-buffer element records).
///
/// # Errors
/// [`ReflectError`] when the container cannot be read or has no RDEF chunk.
pub fn cbuffer_layouts(bytes: &[u8]) -> Result<Vec<ReflectedLayout>, ReflectError> {
    cbuffer_layouts_with(bytes, &Rules::HLSL)
}

/// [`cbuffer_layouts`] with a variant of the packing rules (to show that the check notices a
/// wrong rule).
///
/// # Errors
/// As [`cbuffer_layouts`].
pub fn cbuffer_layouts_with(bytes: &[u8], rules: &Rules) -> Result<Vec<ReflectedLayout>, ReflectError> {
    let reflection = read_reflection(bytes)?.ok_or(ReflectError::NoReflection)?;
    Ok(layouts_of(&reflection, rules))
}

/// The RDEF chunk of a container decoded, or `None` when the container has none.
///
/// # Errors
/// The container or the chunk is malformed.
pub fn read_reflection(bytes: &[u8]) -> Result<Option<Reflection>, dxbc_wgsl::ReadError> {
    let container = Container::parse(bytes, &ReadOptions::default())?;
    container.chunk(b"RDEF").map(rdef::parse).transpose()
}

/// The layouts of the `cbuffer`s of a decoded reflection.
pub fn layouts_of(r: &Reflection, rules: &Rules) -> Vec<ReflectedLayout> {
    r.constant_buffers.iter().filter(|cb| cb.kind == CbufferKind::Cbuffer).map(|cb| layout_of(r, cb, rules)).collect()
}

fn layout_of(r: &Reflection, cb: &ConstantBuffer, rules: &Rules) -> ReflectedLayout {
    let binding = r.bindings.iter().find(|b| b.input_type == InputType::Cbuffer && b.name == cb.name);
    let register = binding.map(|b| (b.bind_point, b.space.unwrap_or(0)));
    let mut out = place(cb, register, rules, &[]);
    // RDEF: a bind count of 0 is an unbounded SM5.1 array.
    out.register_count = binding.map_or(1, |b| if b.bind_count == 0 { u32::MAX } else { b.bind_count });
    out
}

impl ReflectedLayout {
    /// Whether it is the layout of the constant buffer at `slot` (`b#`) in register `space`:
    /// the register it is bound to, or an element of the array it begins.
    pub fn binds(&self, slot: u32, space: u32) -> bool {
        self.register.is_some_and(|(first, s)| s == space && slot >= first && slot - first < self.register_count)
    }
}

/// `layout` again, with variables the source places (`register(cN)` in `$Globals`, `packoffset`)
/// that the compiler's reflection does not flag as placed: each `(name, byte offset)` becomes
/// part of the declaration, as a flagged variable's offset is, and the other variables are
/// placed by the packing rules around them and compared with the recorded offsets as before.
/// (vkd3d-compiler 1.17 records such variables without `D3D_SVF_USERPACKED`; fxc flags them.)
///
/// # Errors
/// A message naming a placement whose variable the buffer does not have (only top-level
/// variables can be placed, as in HLSL).
pub fn with_source_placements(
    layout: &ReflectedLayout,
    placements: &[(String, u32)],
    rules: &Rules,
) -> Result<ReflectedLayout, String> {
    for (name, _) in placements {
        if !layout.reflection.variables.iter().any(|v| &v.name == name) {
            let known: Vec<&str> = layout.reflection.variables.iter().map(|v| v.name.as_str()).collect();
            return Err(format!(
                "constant buffer `{}` has no variable `{name}` to place (its variables: {})",
                layout.name,
                known.join(", ")
            ));
        }
    }
    let mut out = place(&layout.reflection, layout.register, rules, placements);
    out.register_count = layout.register_count;
    Ok(out)
}

fn place(
    cb: &ConstantBuffer,
    register: Option<(u32, u32)>,
    rules: &Rules,
    placed: &[(String, u32)],
) -> ReflectedLayout {
    let variables = cb.variables.iter().map(|v| 1 + member_count(&v.ty)).sum();
    let source_placed = |v: &rdef::Variable| placed.iter().find(|(n, _)| *n == v.name).map(|p| p.1);
    let explicit = cb.variables.iter().filter(|v| v.flags & USER_PACKED != 0 || source_placed(v).is_some()).count();
    let mut out = ReflectedLayout {
        name: cb.name.clone(),
        register,
        register_count: 1,
        size: cb.size,
        declaration: Vec::new(),
        fields: Vec::new(),
        verdict: Verdict::Agrees,
        variables,
        explicit,
        reflection: cb.clone(),
    };
    let declaration = match declare(cb) {
        Ok(mut d) => {
            for (decl, v) in d.iter_mut().zip(&cb.variables) {
                if let Some(offset) = source_placed(v) {
                    decl.explicit = Some(offset);
                }
            }
            d
        }
        Err(why) => {
            out.verdict = Verdict::Unsupported(why);
            return out;
        }
    };
    let fields = match layout::pack_with(&declaration, rules) {
        Ok(f) => f,
        Err((i, m)) => {
            out.verdict = Verdict::Disagrees(vec![Mismatch {
                variable: cb.variables[i].name.clone(),
                message: format!("the declaration cannot be placed: {m}"),
            }]);
            out.declaration = declaration;
            return out;
        }
    };
    let mismatches = compare(cb, &fields);
    out.verdict = if mismatches.is_empty() { Verdict::Agrees } else { Verdict::Disagrees(mismatches) };
    out.declaration = declaration;
    out.fields = fields;
    out
}

fn member_count(t: &Type) -> usize {
    t.members.iter().map(|m| 1 + member_count(&m.ty)).sum()
}

/// The type-only declaration of a reflected constant buffer: names, HLSL types (row/column
/// order, array lengths) and struct members, without offsets (except where the compiler flags
/// the variable as placed by the source).
///
/// # Errors
/// A message naming the first variable whose type has no layout this crate describes.
pub fn declare(cb: &ConstantBuffer) -> Result<Vec<Declared>, String> {
    cb.variables
        .iter()
        .map(|v| {
            Ok(Declared {
                name: v.name.clone(),
                ty: declared_type(&v.ty).map_err(|m| format!("`{}`: {m}", v.name))?,
                explicit: (v.flags & USER_PACKED != 0).then_some(v.offset),
            })
        })
        .collect()
}

/// The HLSL type of a reflected type.
///
/// # Errors
/// A message for types without a constant-buffer layout here.
pub fn declared_type(t: &Type) -> Result<DeclaredType, String> {
    let array = (t.elements > 0).then_some(u32::from(t.elements));
    if t.class == VariableClass::Struct {
        let members = t
            .members
            .iter()
            .map(|m| {
                Ok(Declared {
                    name: m.name.clone(),
                    ty: declared_type(&m.ty).map_err(|e| format!("member `{}`: {e}", m.name))?,
                    explicit: None,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let name = t.name.clone().filter(|n| !n.is_empty() && !n.starts_with('<'));
        return Ok(DeclaredType::Struct { name, members, array });
    }
    let scalar = match t.base {
        VariableType::Float | VariableType::Min16Float | VariableType::Min10Float => Scalar::Float,
        VariableType::Int | VariableType::Min16Int | VariableType::Min12Int => Scalar::Int,
        VariableType::Uint | VariableType::Min16Uint => Scalar::Uint,
        VariableType::Bool => Scalar::Bool,
        other => return Err(format!("{} variables have no constant-buffer layout here", other.name())),
    };
    let dim = |n: u16, what: &str| -> Result<u8, String> {
        match n {
            1..=4 => Ok(n as u8),
            _ => Err(format!("{what} {n} is not 1 to 4")),
        }
    };
    let shape = match t.class {
        VariableClass::Scalar => Shape::Vector(1),
        VariableClass::Vector => Shape::Vector(dim(t.columns, "vector size")?),
        VariableClass::MatrixRows | VariableClass::MatrixColumns => Shape::Matrix {
            rows: dim(t.rows, "matrix rows")?,
            cols: dim(t.columns, "matrix columns")?,
            packing: if t.class == VariableClass::MatrixRows {
                MatrixPacking::RowMajor
            } else {
                MatrixPacking::ColumnMajor
            },
        },
        other => return Err(format!("{} types have no constant-buffer layout", other.name())),
    };
    Ok(DeclaredType::Numeric(HlslType { scalar, shape, array }))
}

/// Compares placed variables (in the reflection's order) with the offsets and sizes the compiler
/// recorded, struct members included, and the buffer's size.
pub fn compare(cb: &ConstantBuffer, fields: &[PlacedField]) -> Vec<Mismatch> {
    let mut out = Vec::new();
    for (v, f) in cb.variables.iter().zip(fields) {
        let before = out.len();
        if f.offset != v.offset {
            out.push(Mismatch {
                variable: v.name.clone(),
                message: format!(
                    "{}: the packing rules put it at {} (byte {}), the compiler at {} (byte {}){}",
                    f.ty,
                    format_offset(f.offset),
                    f.offset,
                    format_offset(v.offset),
                    v.offset,
                    placement_hint(v.offset, f.offset)
                ),
            });
        }
        compare_members(&v.name, &v.ty, &f.ty, &mut out);
        if out.len() == before && f.ty.size() != v.size {
            out.push(Mismatch {
                variable: v.name.clone(),
                message: format!("{}: the packing rules give it {} bytes, the compiler {}", f.ty, f.ty.size(), v.size),
            });
        }
    }
    if out.is_empty() && layout_size(fields) != cb.size {
        out.push(Mismatch {
            variable: cb.name.clone(),
            message: format!(
                "the packing rules make the buffer {} bytes, the compiler {}",
                layout_size(fields),
                cb.size
            ),
        });
    }
    out
}

fn compare_members(path: &str, t: &Type, ty: &VarType, out: &mut Vec<Mismatch>) {
    let VarType::Struct(s) = ty else {
        return;
    };
    let hidden = hidden_components(t);
    for (m, f) in t.members.iter().zip(&s.members) {
        let p = format!("{path}.{}", m.name);
        if f.offset != m.offset {
            let note = if hidden > 0 {
                format!(
                    "; the struct has {hidden} component(s) of members the reflection does not list (objects), and an \
                     object array or a struct of objects moves what follows to a new register"
                )
            } else {
                String::new()
            };
            out.push(Mismatch {
                variable: p.clone(),
                message: format!(
                    "{}: the packing rules put it at byte {} of the struct, the compiler at byte {}{note}",
                    f.ty, f.offset, m.offset
                ),
            });
        }
        compare_members(&p, &m.ty, &f.ty, out);
    }
}

/// Components of a struct's members that the reflection does not list: a struct type records
/// its total component count (objects count one each), its member list only the numeric ones.
fn hidden_components(t: &Type) -> u32 {
    let listed: u32 = t.members.iter().map(|m| components(&m.ty)).sum();
    u32::from(t.columns).saturating_sub(listed)
}

fn components(t: &Type) -> u32 {
    let per =
        if t.class == VariableClass::Struct { u32::from(t.columns) } else { u32::from(t.rows) * u32::from(t.columns) };
    per * u32::from(t.elements.max(1))
}

fn placement_hint(recorded: u32, packed: u32) -> &'static str {
    if recorded.is_multiple_of(16) && recorded != packed {
        " (if the source places it with `register(cN)` or `packoffset`, give that in the effect file's \
         `placed = { name = \"cN\" }` of the constant buffer: not every compiler flags such variables in its \
         reflection)"
    } else {
        ""
    }
}

/// The Rust struct (and the structs of its struct members) for an agreeing layout, named after
/// the buffer in PascalCase (`$Globals` → `Globals`), written by the effect generator's struct
/// writer: explicit padding, `size_of`/`offset_of!` assertions, each field documented with its
/// HLSL name and register.
///
/// # Errors
/// The verdict, when the layout does not agree with the reflection.
pub fn rust_struct_source(l: &ReflectedLayout) -> Result<StructSource, String> {
    if !l.verdict.agrees() {
        return Err(format!("constant buffer `{}`: {}", l.name, l.verdict));
    }
    let doc = format!(
        "Constant buffer `{}`{} as HLSL packs it: {} variable(s) placed by HLSL's packing rules from the \
         types in the shader's reflection, which agree with the offsets the compiler recorded.",
        l.name,
        match l.register {
            Some((slot, 0)) => format!(" (b{slot})"),
            Some((slot, space)) => format!(" (b{slot}, space{space})"),
            None => String::new(),
        },
        l.fields.len()
    );
    Ok(struct_source(&crate::effect::pascal_case(&l.name), &doc, &l.fields, layout_size(&l.fields)))
}

/// Compares a layout declared elsewhere (an effect file's) with a reflected buffer: every
/// reflected variable must be declared with the same name, HLSL type and offset, and every
/// declared field inside the reflected buffer's size must be one of its variables. Returns
/// `(declared field index or None, message)` per difference.
pub fn compare_declared(declared: &[PlacedField], reflected: &ReflectedLayout) -> Vec<(Option<usize>, String)> {
    let mut out = Vec::new();
    let cb = &reflected.reflection;
    for v in &cb.variables {
        let Some(i) = declared.iter().position(|f| f.name == v.name) else {
            out.push((
                None,
                format!(
                    "the layout has no field `{}`, which the reflection declares at {} ({} bytes)",
                    v.name,
                    format_offset(v.offset),
                    v.size
                ),
            ));
            continue;
        };
        let f = &declared[i];
        match declared_type(&v.ty) {
            Ok(DeclaredType::Numeric(t)) if VarType::Numeric(t) == f.ty => {}
            Ok(DeclaredType::Numeric(t)) => out.push((
                Some(i),
                format!(
                    "field `{}` is declared {} here, but the reflection says {}",
                    f.name,
                    f.ty.declaration(),
                    VarType::Numeric(t).declaration()
                ),
            )),
            Ok(DeclaredType::Struct { .. }) => out.push((
                Some(i),
                format!(
                    "field `{}` is a struct in the reflection; leave out the buffer's `layout`/`fields` to take its \
                     layout from the reflection",
                    f.name
                ),
            )),
            Err(e) => out.push((Some(i), format!("field `{}`: {e}", f.name))),
        }
        if f.offset != v.offset {
            out.push((
                Some(i),
                format!(
                    "field `{}` is at {} (byte {}) here, but the reflection records {} (byte {})",
                    f.name,
                    format_offset(f.offset),
                    f.offset,
                    format_offset(v.offset),
                    v.offset
                ),
            ));
        }
    }
    for (i, f) in declared.iter().enumerate() {
        if f.offset < cb.size && !cb.variables.iter().any(|v| v.name == f.name) {
            out.push((
                Some(i),
                format!(
                    "field `{}` at {} is not a variable of the reflected buffer `{}` ({} bytes)",
                    f.name,
                    format_offset(f.offset),
                    cb.name,
                    cb.size
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxbc_wgsl::chunks::rdef::{Member, Variable};

    fn ty(class: VariableClass, rows: u16, columns: u16, elements: u16) -> Type {
        Type { class, base: VariableType::Float, rows, columns, elements, members: Vec::new(), name: None }
    }

    fn var(name: &str, offset: u32, size: u32, ty: Type) -> Variable {
        Variable {
            name: name.into(),
            offset,
            size,
            flags: 2,
            ty,
            default_value: None,
            texture_slots: None,
            sampler_slots: None,
        }
    }

    fn cb(variables: Vec<Variable>, size: u32) -> ConstantBuffer {
        ConstantBuffer { name: "$Globals".into(), variables, size, flags: 0, kind: CbufferKind::Cbuffer }
    }

    fn reflection(cbs: Vec<ConstantBuffer>) -> Reflection {
        Reflection {
            target: rdef::Target { program_type: 0xFFFF, major: 4, minor: 0 },
            compile_flags: 0,
            creator: "unit test".into(),
            sm5_header: None,
            constant_buffers: cbs,
            bindings: Vec::new(),
        }
    }

    /// An SM5.1 array of constant buffers (`ConstantBuffer<T> cbs[4] : register(b2, space1)`) is
    /// one RDEF binding of four registers: every element has the layout, and only those.
    #[test]
    fn a_constant_buffer_array_binds_each_of_its_registers() {
        let mut r = reflection(vec![ConstantBuffer { name: "cbs".into(), ..cb(Vec::new(), 16) }]);
        let binding = |bind_count| rdef::InputBinding {
            name: "cbs".into(),
            input_type: InputType::Cbuffer,
            return_type: rdef::ReturnType::from_raw(0),
            dimension: rdef::Dimension::from_raw(0),
            sample_count: 0,
            bind_point: 2,
            bind_count,
            flags: 0,
            space: Some(1),
            id: Some(0),
        };
        r.bindings.push(binding(4));
        let l = &layouts_of(&r, &Rules::HLSL)[0];
        let bound: Vec<(u32, u32)> =
            (0..8).flat_map(|slot| (0..3).map(move |space| (slot, space))).filter(|&(s, sp)| l.binds(s, sp)).collect();
        assert_eq!(bound, [(2, 1), (3, 1), (4, 1), (5, 1)]);
        // One register: itself only; unbounded: every register from the first.
        r.bindings[0] = binding(1);
        let l = &layouts_of(&r, &Rules::HLSL)[0];
        assert!(l.binds(2, 1) && !l.binds(3, 1) && !l.binds(2, 0));
        r.bindings[0] = binding(0);
        let l = &layouts_of(&r, &Rules::HLSL)[0];
        assert!(l.binds(2, 1) && l.binds(u32::MAX, 1) && !l.binds(1, 1));
    }

    /// `float3 a[2]; float b; struct { float2 x; float y; } s; row_major float2x3 m;` as fxc
    /// records it.
    fn sample() -> ConstantBuffer {
        let mut s = ty(VariableClass::Struct, 1, 3, 0);
        s.base = VariableType::Void;
        s.members = vec![
            Member { name: "x".into(), offset: 0, ty: ty(VariableClass::Vector, 1, 2, 0) },
            Member { name: "y".into(), offset: 8, ty: ty(VariableClass::Scalar, 1, 1, 0) },
        ];
        cb(
            vec![
                var("a", 0, 28, ty(VariableClass::Vector, 1, 3, 2)),
                var("b", 28, 4, ty(VariableClass::Scalar, 1, 1, 0)),
                var("s", 32, 12, s),
                var("m", 48, 28, ty(VariableClass::MatrixRows, 2, 3, 0)),
            ],
            80,
        )
    }

    #[test]
    fn packing_rules_reproduce_the_recorded_offsets() {
        let l = &layouts_of(&reflection(vec![sample()]), &Rules::HLSL)[0];
        assert_eq!(l.verdict, Verdict::Agrees);
        assert_eq!(l.variables, 6);
        let offsets: Vec<u32> = l.fields.iter().map(|f| f.offset).collect();
        assert_eq!(offsets, [0, 28, 32, 48]);
        assert_eq!(l.fields[3].ty.to_string(), "float2x3");
        assert!(matches!(
            l.fields[3].ty,
            VarType::Numeric(HlslType { shape: Shape::Matrix { packing: MatrixPacking::RowMajor, .. }, .. })
        ));
    }

    /// The check has teeth: a packing rule that lets float3 array elements pack tightly puts `b`
    /// at byte 24, and the comparison names `b`.
    #[test]
    fn a_wrong_packing_rule_is_caught() {
        let wrong = Rules { tight_arrays: true, ..Rules::HLSL };
        let l = &layouts_of(&reflection(vec![sample()]), &wrong)[0];
        let Verdict::Disagrees(m) = &l.verdict else { panic!("{:?}", l.verdict) };
        assert_eq!(m[0].variable, "b");
        assert!(m[0].message.contains("c1.z (byte 24)") && m[0].message.contains("c1.w (byte 28)"), "{}", m[0]);
        // And a recorded offset that no rule gives (the compiler's view changed) is caught too.
        let mut c = sample();
        c.variables[2].ty.members[1].offset = 12;
        let l = &layouts_of(&reflection(vec![c]), &Rules::HLSL)[0];
        let Verdict::Disagrees(m) = &l.verdict else { panic!() };
        assert_eq!(m[0].variable, "s.y");
    }

    #[test]
    fn doubles_are_unsupported_not_guessed() {
        let mut d = ty(VariableClass::Scalar, 1, 1, 0);
        d.base = VariableType::Double;
        let l = &layouts_of(&reflection(vec![cb(vec![var("d", 0, 8, d)], 16)]), &Rules::HLSL)[0];
        assert!(matches!(&l.verdict, Verdict::Unsupported(m) if m.contains("`d`") && m.contains("double")));
        assert!(rust_struct_source(l).is_err());
    }

    #[test]
    fn declared_layouts_are_compared_by_name_type_and_offset() {
        let l = &layouts_of(&reflection(vec![sample()]), &Rules::HLSL)[0];
        let mut declared = l.fields.clone();
        declared.remove(2); // no `s`
        declared[0].offset = 16; // `a` moved
        declared[2].ty = VarType::Numeric(HlslType::parse("float2x3").unwrap()); // column-major `m`
        let d = compare_declared(&declared, l);
        let text: Vec<String> = d.iter().map(|(_, m)| m.clone()).collect();
        assert!(text.iter().any(|m| m.contains("field `a` is at c1")), "{text:?}");
        assert!(text.iter().any(|m| m.contains("no field `s`")), "{text:?}");
        assert!(
            text.iter()
                .any(|m| m.contains("`m` is declared column_major float2x3 here, but the reflection says row_major")),
            "{text:?}"
        );
    }
}
