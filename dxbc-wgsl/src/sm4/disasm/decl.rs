//! Declarations as fxc prints them.

use super::operand::{float_text, untyped_text};
use super::{Disasm, ImmKind};
use crate::sm4::decode::{CustomData, Instruction};
use crate::sm4::operand::{Index, Operand};
use crate::sm4::Opcode;
use std::fmt::Write as _;

/// The `D3D10_SB_NAME` name fxc prints in `dcl_*_siv`/`_sgv` declarations.
fn system_value_name(v: u32) -> String {
    match v {
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

pub(super) fn resource_dimension_name(v: u32) -> &'static str {
    match v {
        1 => "buffer",
        2 => "texture1d",
        3 => "texture2d",
        4 => "texture2dms",
        5 => "texture3d",
        6 => "texturecube",
        7 => "texture1darray",
        8 => "texture2darray",
        9 => "texture2dmsarray",
        10 => "texturecubearray",
        11 => "raw_buffer",
        12 => "structured_buffer",
        _ => "unknown",
    }
}

fn return_type_name(v: u8) -> &'static str {
    match v {
        1 => "unorm",
        2 => "snorm",
        3 => "sint",
        4 => "uint",
        5 => "float",
        6 => "mixed",
        7 => "double",
        8 => "continued",
        9 => "unused",
        _ => "unknown",
    }
}

pub(super) fn return_types(t: &[u8; 4]) -> String {
    format!(
        "({},{},{},{})",
        return_type_name(t[0]),
        return_type_name(t[1]),
        return_type_name(t[2]),
        return_type_name(t[3])
    )
}

impl Disasm {
    pub(super) fn custom_data(&mut self, c: &CustomData) {
        if c.class != 3 {
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

    /// The register of a declaration's first operand, without component selection.
    fn decl_register(&self, ins: &Instruction) -> String {
        ins.operands.first().map(|op| self.operand(op, ImmKind::Int, true, true)).unwrap_or_default()
    }

    /// The register of a declaration's first operand, with its mask (inputs, outputs).
    fn decl_register_masked(&self, ins: &Instruction) -> String {
        ins.operands.first().map(|op| self.operand(op, ImmKind::Int, true, false)).unwrap_or_default()
    }

    /// An SM5.1 resource range operand `T0[lo:hi]` (indices: id, first, last).
    fn range_register(&self, ins: &Instruction) -> String {
        let Some(op) = ins.operands.first() else {
            return String::new();
        };
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
    fn resource_register(&self, ins: &Instruction, space_at: usize) -> (String, String) {
        if self.sm51() {
            let space = ins.values.get(space_at).copied().unwrap_or(0);
            (self.range_register(ins), format!(", space={space}"))
        } else {
            (self.decl_register(ins), String::new())
        }
    }

    pub(super) fn declaration(&mut self, ins: &Instruction) {
        let op = ins.opcode;
        let name = op.name();
        let c = ins.control;
        let v = |i: usize| ins.values.get(i).copied().unwrap_or(0);
        let text = match op {
            Opcode::DCL_GLOBAL_FLAGS => {
                const FLAGS: [&str; 9] = [
                    "refactoringAllowed",
                    "enableDoublePrecisionFloatOps",
                    "forceEarlyDepthStencil",
                    "enableRawAndStructuredBuffers",
                    "skipOptimization",
                    "enableMinimumPrecision",
                    "enable11_1DoubleExtensions",
                    "enable11_1ShaderExtensions",
                    "allResourcesBound",
                ];
                let set: Vec<&str> =
                    FLAGS.iter().enumerate().filter(|(i, _)| c & (1 << i) != 0).map(|(_, f)| *f).collect();
                format!("{name} {}", set.join(" | "))
            }
            Opcode::DCL_CONSTANT_BUFFER => {
                let access = if c & 1 != 0 { "dynamicIndexed" } else { "immediateIndexed" };
                if self.sm51() {
                    format!("{name} {}[{}], {access}, space={}", self.range_register(ins), v(0), v(1))
                } else {
                    let o = ins.operands.first();
                    let reg = o.map(Operand::reg).unwrap_or(0);
                    let size = o.and_then(|o| o.indices.get(1)).map(Index::imm).unwrap_or(0);
                    format!("{name} CB{reg}[{size}], {access}")
                }
            }
            Opcode::DCL_SAMPLER => {
                let mode = match c & 0xf {
                    0 => "mode_default",
                    1 => "mode_comparison",
                    2 => "mode_mono",
                    _ => "mode_unknown",
                };
                let (reg, space) = self.resource_register(ins, 0);
                format!("{name} {reg}, {mode}{space}")
            }
            Opcode::DCL_RESOURCE => {
                let dim = c & 0x1f;
                let mut n = format!("{name}_{}", resource_dimension_name(dim));
                if dim == 4 || dim == 9 {
                    let _ = write!(n, "({})", (c >> 5) & 0x7f);
                }
                let rt = ins.return_type.map(|t| return_types(&t)).unwrap_or_default();
                let (reg, space) = self.resource_register(ins, 0);
                format!("{n} {rt} {reg}{space}")
            }
            Opcode::DCL_UAV_TYPED => {
                let dim = c & 0x1f;
                let mut n = format!("{name}_{}", resource_dimension_name(dim));
                n.push_str(&uav_flags(c));
                let rt = ins.return_type.map(|t| return_types(&t)).unwrap_or_default();
                let (reg, space) = self.resource_register(ins, 0);
                format!("{n} {rt} {reg}{space}")
            }
            Opcode::DCL_UAV_RAW => {
                let (reg, space) = self.resource_register(ins, 0);
                format!("{name}{} {reg}{space}", uav_flags(c))
            }
            Opcode::DCL_UAV_STRUCTURED => {
                let (reg, space) = self.resource_register(ins, 1);
                format!("{name}{} {reg}, {}{space}", uav_flags(c), v(0))
            }
            Opcode::DCL_RESOURCE_RAW => {
                let (reg, space) = self.resource_register(ins, 0);
                format!("{name} {reg}{space}")
            }
            Opcode::DCL_RESOURCE_STRUCTURED => {
                let (reg, space) = self.resource_register(ins, 1);
                format!("{name} {reg}, {}{space}", v(0))
            }
            Opcode::DCL_INPUT_PS | Opcode::DCL_INPUT_PS_SGV | Opcode::DCL_INPUT_PS_SIV => {
                let interp = match c & 0xf {
                    1 => "constant ",
                    2 => "linear ",
                    3 => "linear centroid ",
                    4 => "linear noperspective ",
                    5 => "linear noperspective centroid ",
                    6 => "linear sample ",
                    7 => "linear noperspective sample ",
                    _ => "",
                };
                let reg = self.decl_register_masked(ins);
                if op == Opcode::DCL_INPUT_PS {
                    format!("{name} {interp}{reg}")
                } else {
                    format!("{name} {interp}{reg}, {}", system_value_name(v(0)))
                }
            }
            Opcode::DCL_INPUT_SGV | Opcode::DCL_INPUT_SIV | Opcode::DCL_OUTPUT_SGV | Opcode::DCL_OUTPUT_SIV => {
                format!("{name} {}, {}", self.decl_register_masked(ins), system_value_name(v(0)))
            }
            Opcode::DCL_INPUT | Opcode::DCL_OUTPUT => {
                format!("{name} {}", self.decl_register_masked(ins))
            }
            Opcode::DCL_INDEX_RANGE => {
                format!("{name} {}, {}", self.decl_register_masked(ins), v(0))
            }
            Opcode::DCL_TEMPS | Opcode::DCL_MAX_OUTPUT_VERTEX_COUNT | Opcode::DCL_GS_INSTANCE_COUNT => {
                format!("{name} {}", v(0))
            }
            Opcode::DCL_HS_FORK_PHASE_INSTANCE_COUNT | Opcode::DCL_HS_JOIN_PHASE_INSTANCE_COUNT => {
                format!("{name} {}", v(0))
            }
            Opcode::DCL_INDEXABLE_TEMP => format!("{name} x{}[{}], {}", v(0), v(1), v(2)),
            Opcode::DCL_GS_INPUT_PRIMITIVE => {
                let p = c & 0x3f;
                let prim = match p {
                    1 => "point".to_string(),
                    2 => "line".to_string(),
                    3 => "triangle".to_string(),
                    6 => "lineadj".to_string(),
                    7 => "triangleadj".to_string(),
                    8..=39 => format!("patch{}", p - 7),
                    _ => "undefined".to_string(),
                };
                format!("{name} {prim} ")
            }
            Opcode::DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => {
                let topo = match c & 0x7f {
                    1 => "pointlist",
                    2 => "linelist",
                    3 => "linestrip",
                    4 => "trianglelist",
                    5 => "trianglestrip",
                    10 => "linelist_adj",
                    11 => "linestrip_adj",
                    12 => "trianglelist_adj",
                    13 => "trianglestrip_adj",
                    _ => "undefined",
                };
                format!("{name} {topo} ")
            }
            Opcode::DCL_FUNCTION_BODY => format!("{name} fb{}", v(0)),
            Opcode::DCL_STREAM => format!("{name} {}", self.decl_register(ins)),
            Opcode::DCL_THREAD_GROUP => format!("{name} {}, {}, {}", v(0), v(1), v(2)),
            Opcode::DCL_TGSM_RAW => format!("{name} {}, {}", self.decl_register(ins), v(0)),
            Opcode::DCL_TGSM_STRUCTURED => {
                format!("{name} {}, {}, {}", self.decl_register(ins), v(0), v(1))
            }
            Opcode::DCL_INPUT_CONTROL_POINT_COUNT | Opcode::DCL_OUTPUT_CONTROL_POINT_COUNT => {
                format!("{name} {}", c & 0x3f)
            }
            Opcode::DCL_TESS_DOMAIN => {
                let d = match c & 3 {
                    1 => "domain_isoline",
                    2 => "domain_tri",
                    3 => "domain_quad",
                    _ => "domain_undefined",
                };
                format!("{name} {d}")
            }
            Opcode::DCL_TESS_PARTITIONING => {
                let p = match c & 7 {
                    1 => "partitioning_integer",
                    2 => "partitioning_pow2",
                    3 => "partitioning_fractional_odd",
                    4 => "partitioning_fractional_even",
                    _ => "partitioning_undefined",
                };
                format!("{name} {p}")
            }
            Opcode::DCL_TESS_OUTPUT_PRIMITIVE => {
                let p = match c & 7 {
                    1 => "output_point",
                    2 => "output_line",
                    3 => "output_triangle_cw",
                    4 => "output_triangle_ccw",
                    _ => "output_undefined",
                };
                format!("{name} {p}")
            }
            Opcode::DCL_HS_MAX_TESSFACTOR => format!("{name} l({})", float_text(v(0))),
            Opcode::DCL_FUNCTION_TABLE => {
                // Words: table id, body count, bodies.
                let bodies: Vec<String> = ins.values.iter().skip(2).map(|b| format!("fb{b}")).collect();
                format!("{name} ft{} = {{{}}}", v(0), bodies.join(", "))
            }
            Opcode::DCL_INTERFACE => {
                // Words: interface id, call-site count, (array length << 16 | table count), tables.
                let dynamic = if c & 1 != 0 { "_dynamicindexed" } else { "" };
                let tables: Vec<String> = ins.values.iter().skip(3).map(|t| format!("ft{t}")).collect();
                format!("{name}{dynamic} fp{}[{}][{}] = {{{}}}", v(0), v(2) >> 16, v(1), tables.join(", "))
            }
            _ => {
                // Declarations without operands of their own (and reserved opcodes).
                let mut s = name.to_string();
                for o in &ins.operands {
                    s.push(' ');
                    s.push_str(&self.operand(o, ImmKind::Int, true, false));
                }
                for w in &ins.values {
                    let _ = write!(s, " {w}");
                }
                s
            }
        };
        self.out.push_str(&text);
    }
}

fn uav_flags(c: u32) -> String {
    let mut s = String::new();
    if c & (1 << 5) != 0 {
        s.push_str("_glc");
    }
    if c & (1 << 6) != 0 {
        s.push_str("_rov");
    }
    if c & (1 << 12) != 0 {
        s.push_str("_opc");
    }
    s
}
