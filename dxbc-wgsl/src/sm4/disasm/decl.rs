//! Declarations as fxc prints them, from their typed [`Declaration`]s.

use super::operand::{float_text, untyped_text};
use super::{Disasm, ImmKind};
use crate::sm4::decl::{
    Binding, ConstantBufferAccess, CustomData, Declaration, InputPrimitive, InterpolationMode, PrimitiveTopology,
    ResourceDimension, ReturnType, SamplerMode, SystemValue, TessellatorDomain, TessellatorOutputPrimitive,
    TessellatorPartitioning, UavFlags,
};
use crate::sm4::operand::{Index, Operand};
use crate::sm4::Opcode;
use std::fmt::Write as _;

/// The `D3D10_SB_NAME` name fxc prints in `dcl_*_siv`/`_sgv` declarations.
fn system_value_name(v: SystemValue) -> String {
    match v.0 {
        0 => "undefined",
        1 => "position",
        2 => "clip_distance",
        3 => "cull_distance",
        4 => "rendertarget_array_index",
        5 => "viewport_array_index",
        6 => "vertex_id",
        7 => "primitive_id",
        8 => "instance_id",
        9 => "is_front_face",
        10 => "sampleIndex",
        11 => "finalQuadUeq0EdgeTessFactor",
        12 => "finalQuadVeq0EdgeTessFactor",
        13 => "finalQuadUeq1EdgeTessFactor",
        14 => "finalQuadVeq1EdgeTessFactor",
        15 => "finalQuadUInsideTessFactor",
        16 => "finalQuadVInsideTessFactor",
        17 => "finalTriUeq0EdgeTessFactor",
        18 => "finalTriVeq0EdgeTessFactor",
        19 => "finalTriWeq0EdgeTessFactor",
        20 => "finalTriInsideTessFactor",
        21 => "finalLineDetailTessFactor",
        22 => "finalLineDensityTessFactor",
        other => return format!("name{other}"),
    }
    .to_string()
}

/// A resource dimension as a mnemonic suffix (`dcl_resource_texture2d`, `ld_indexable(buffer)`).
pub(super) fn resource_dimension_name(d: ResourceDimension) -> &'static str {
    use ResourceDimension as D;
    match d {
        D::Buffer => "buffer",
        D::Texture1D => "texture1d",
        D::Texture2D => "texture2d",
        D::Texture2DMS => "texture2dms",
        D::Texture3D => "texture3d",
        D::TextureCube => "texturecube",
        D::Texture1DArray => "texture1darray",
        D::Texture2DArray => "texture2darray",
        D::Texture2DMSArray => "texture2dmsarray",
        D::TextureCubeArray => "texturecubearray",
        D::RawBuffer => "raw_buffer",
        D::StructuredBuffer => "structured_buffer",
        D::Unknown | D::Reserved(_) => "unknown",
    }
}

fn return_type_name(t: ReturnType) -> &'static str {
    use ReturnType as R;
    match t {
        R::Unorm => "unorm",
        R::Snorm => "snorm",
        R::Sint => "sint",
        R::Uint => "uint",
        R::Float => "float",
        R::Mixed => "mixed",
        R::Double => "double",
        R::Continued => "continued",
        R::Unused => "unused",
        R::Reserved(_) => "unknown",
    }
}

/// `(float,float,float,float)`.
pub(super) fn return_types(t: &[ReturnType; 4]) -> String {
    let [a, b, c, d] = t.map(return_type_name);
    format!("({a},{b},{c},{d})")
}

fn uav_flags(f: UavFlags) -> String {
    let mut s = String::new();
    if f.globally_coherent {
        s.push_str("_glc");
    }
    if f.rasterizer_ordered {
        s.push_str("_rov");
    }
    if f.order_preserving_counter {
        s.push_str("_opc");
    }
    s
}

/// The interpolation mode before the register (`linear noperspective `); nothing for undefined
/// and undefined-by-the-format modes.
fn interpolation_text(m: InterpolationMode) -> &'static str {
    use InterpolationMode as I;
    match m {
        I::Constant => "constant ",
        I::Linear => "linear ",
        I::LinearCentroid => "linear centroid ",
        I::LinearNoPerspective => "linear noperspective ",
        I::LinearNoPerspectiveCentroid => "linear noperspective centroid ",
        I::LinearSample => "linear sample ",
        I::LinearNoPerspectiveSample => "linear noperspective sample ",
        I::Undefined | I::Reserved(_) => "",
    }
}

fn input_primitive_text(p: InputPrimitive) -> String {
    match p {
        InputPrimitive::Point => "point".into(),
        InputPrimitive::Line => "line".into(),
        InputPrimitive::Triangle => "triangle".into(),
        InputPrimitive::LineAdj => "lineadj".into(),
        InputPrimitive::TriangleAdj => "triangleadj".into(),
        InputPrimitive::ControlPointPatch(n) => format!("patch{n}"),
        InputPrimitive::Undefined | InputPrimitive::Reserved(_) => "undefined".into(),
    }
}

fn topology_text(t: PrimitiveTopology) -> &'static str {
    use PrimitiveTopology as T;
    match t {
        T::PointList => "pointlist",
        T::LineList => "linelist",
        T::LineStrip => "linestrip",
        T::TriangleList => "trianglelist",
        T::TriangleStrip => "trianglestrip",
        T::LineListAdj => "linelist_adj",
        T::LineStripAdj => "linestrip_adj",
        T::TriangleListAdj => "trianglelist_adj",
        T::TriangleStripAdj => "trianglestrip_adj",
        T::Undefined | T::Reserved(_) => "undefined",
    }
}

fn domain_text(d: TessellatorDomain) -> &'static str {
    match d {
        TessellatorDomain::Isoline => "domain_isoline",
        TessellatorDomain::Triangle => "domain_tri",
        TessellatorDomain::Quad => "domain_quad",
        TessellatorDomain::Undefined | TessellatorDomain::Reserved(_) => "domain_undefined",
    }
}

fn partitioning_text(p: TessellatorPartitioning) -> &'static str {
    use TessellatorPartitioning as P;
    match p {
        P::Integer => "partitioning_integer",
        P::Pow2 => "partitioning_pow2",
        P::FractionalOdd => "partitioning_fractional_odd",
        P::FractionalEven => "partitioning_fractional_even",
        P::Undefined | P::Reserved(_) => "partitioning_undefined",
    }
}

fn output_primitive_text(p: TessellatorOutputPrimitive) -> &'static str {
    use TessellatorOutputPrimitive as P;
    match p {
        P::Point => "output_point",
        P::Line => "output_line",
        P::TriangleCw => "output_triangle_cw",
        P::TriangleCcw => "output_triangle_ccw",
        P::Undefined | P::Reserved(_) => "output_undefined",
    }
}

fn sampler_mode_text(m: SamplerMode) -> &'static str {
    match m {
        SamplerMode::Default => "mode_default",
        SamplerMode::Comparison => "mode_comparison",
        SamplerMode::Mono => "mode_mono",
        SamplerMode::Reserved(_) => "mode_unknown",
    }
}

impl Disasm {
    fn custom_data(&mut self, c: &CustomData) {
        if c.class != CustomData::IMMEDIATE_CONSTANT_BUFFER {
            return;
        }
        const HEAD: &str = "dcl_immediateConstantBuffer { ";
        self.out.push_str(HEAD);
        let rows: Vec<&[u32]> = c.data.chunks(4).collect();
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                self.out.push_str(",\n");
                self.out.push_str(&" ".repeat(HEAD.len()));
            }
            let vals: Vec<String> = row.iter().map(|&b| untyped_text(b)).collect();
            let _ = write!(self.out, "{{ {}}}", vals.join(", "));
        }
        self.out.push_str(" }");
    }

    /// A declaration's register, without component selection.
    fn decl_register(&self, op: &Operand) -> String {
        self.operand(op, ImmKind::Int, true, true)
    }

    /// A declaration's register, with its mask (inputs, outputs).
    fn decl_register_masked(&self, op: &Operand) -> String {
        self.operand(op, ImmKind::Int, true, false)
    }

    /// An SM5.1 resource range operand `T0[lo:hi]` (indices: id, first, last), as written.
    fn range_register(&self, op: &Operand) -> String {
        let mut s = self.register(&Operand { indices: op.indices.iter().take(1).cloned().collect(), ..op.clone() });
        let lo = op.indices.get(1).map(Index::imm).unwrap_or(0);
        let hi = op.indices.get(2).map(Index::imm).unwrap_or(0);
        if hi == u32::MAX {
            let _ = write!(s, "[{lo}:*]");
        } else {
            let _ = write!(s, "[{lo}:{hi}]");
        }
        s
    }

    /// Register of a resource/sampler/UAV/constant-buffer declaration, and the `, space=N`
    /// suffix in SM5.1.
    fn binding_register(&self, b: &Binding) -> (String, String) {
        if self.sm51() {
            (self.range_register(&b.register), format!(", space={}", b.space))
        } else {
            (self.decl_register(&b.register), String::new())
        }
    }

    /// One declaration (`opcode` names it).
    pub(super) fn declaration(&mut self, opcode: Opcode, decl: &Declaration) {
        use Declaration as D;
        let name = opcode.name();
        let text = match decl {
            D::CustomData(c) => return self.custom_data(c),
            D::GlobalFlags(f) => format!("{name} {}", f.names().collect::<Vec<_>>().join(" | ")),
            D::ConstantBuffer { binding, size, access } => {
                let access = match access {
                    ConstantBufferAccess::DynamicIndexed => "dynamicIndexed",
                    ConstantBufferAccess::ImmediateIndexed => "immediateIndexed",
                };
                if self.sm51() {
                    let reg = self.range_register(&binding.register);
                    format!("{name} {reg}[{size}], {access}, space={}", binding.space)
                } else {
                    format!("{name} CB{}[{size}], {access}", binding.id)
                }
            }
            D::Sampler { binding, mode } => {
                let (reg, space) = self.binding_register(binding);
                format!("{name} {reg}, {}{space}", sampler_mode_text(*mode))
            }
            D::Resource { binding, dimension, sample_count, return_types: rt } => {
                let mut n = format!("{name}_{}", resource_dimension_name(*dimension));
                if matches!(dimension, ResourceDimension::Texture2DMS | ResourceDimension::Texture2DMSArray) {
                    let _ = write!(n, "({sample_count})");
                }
                let (reg, space) = self.binding_register(binding);
                format!("{n} {} {reg}{space}", return_types(rt))
            }
            D::UavTyped { binding, dimension, flags, return_types: rt } => {
                let n = format!("{name}_{}{}", resource_dimension_name(*dimension), uav_flags(*flags));
                let (reg, space) = self.binding_register(binding);
                format!("{n} {} {reg}{space}", return_types(rt))
            }
            D::UavRaw { binding, flags } => {
                let (reg, space) = self.binding_register(binding);
                format!("{name}{} {reg}{space}", uav_flags(*flags))
            }
            D::UavStructured { binding, flags, stride } => {
                let (reg, space) = self.binding_register(binding);
                format!("{name}{} {reg}, {stride}{space}", uav_flags(*flags))
            }
            D::ResourceRaw { binding } => {
                let (reg, space) = self.binding_register(binding);
                format!("{name} {reg}{space}")
            }
            D::ResourceStructured { binding, stride } => {
                let (reg, space) = self.binding_register(binding);
                format!("{name} {reg}, {stride}{space}")
            }
            D::Input { register, interpolation, system_value } => {
                let interp = interpolation.map_or("", interpolation_text);
                let sv = system_value.map(|s| format!(", {}", system_value_name(s))).unwrap_or_default();
                format!("{name} {interp}{}{sv}", self.decl_register_masked(register))
            }
            D::Output { register, system_value } => {
                let sv = system_value.map(|s| format!(", {}", system_value_name(s))).unwrap_or_default();
                format!("{name} {}{sv}", self.decl_register_masked(register))
            }
            D::IndexRange { register, count } => format!("{name} {}, {count}", self.decl_register_masked(register)),
            D::Temps(n)
            | D::MaxOutputVertexCount(n)
            | D::GsInstanceCount(n)
            | D::HsForkPhaseInstanceCount(n)
            | D::HsJoinPhaseInstanceCount(n)
            | D::InputControlPointCount(n)
            | D::OutputControlPointCount(n) => format!("{name} {n}"),
            D::IndexableTemp { register, size, components } => format!("{name} x{register}[{size}], {components}"),
            D::GsInputPrimitive(p) => format!("{name} {} ", input_primitive_text(*p)),
            D::GsOutputPrimitiveTopology(t) => format!("{name} {} ", topology_text(*t)),
            D::FunctionBody(id) => format!("{name} fb{id}"),
            D::Stream(register) => format!("{name} {}", self.decl_register(register)),
            D::ThreadGroup([x, y, z]) => format!("{name} {x}, {y}, {z}"),
            D::TgsmRaw { register, byte_count } => format!("{name} {}, {byte_count}", self.decl_register(register)),
            D::TgsmStructured { register, stride, count } => {
                format!("{name} {}, {stride}, {count}", self.decl_register(register))
            }
            D::TessellatorDomain(d) => format!("{name} {}", domain_text(*d)),
            D::TessellatorPartitioning(p) => format!("{name} {}", partitioning_text(*p)),
            D::TessellatorOutputPrimitive(p) => format!("{name} {}", output_primitive_text(*p)),
            D::HsMaxTessFactor(f) => format!("{name} l({})", float_text(f.to_bits())),
            D::FunctionTable { id, bodies } => {
                let bodies: Vec<String> = bodies.iter().map(|b| format!("fb{b}")).collect();
                format!("{name} ft{id} = {{{}}}", bodies.join(", "))
            }
            D::Interface { id, dynamic_indexed, function_table_length, array_length, tables } => {
                let dynamic = if *dynamic_indexed { "_dynamicindexed" } else { "" };
                let tables: Vec<String> = tables.iter().map(|t| format!("ft{t}")).collect();
                format!("{name}{dynamic} fp{id}[{array_length}][{function_table_length}] = {{{}}}", tables.join(", "))
            }
            D::Reserved(words) => {
                let mut s = name.to_string();
                for w in words {
                    let _ = write!(s, " {w}");
                }
                s
            }
        };
        self.out.push_str(&text);
    }
}
