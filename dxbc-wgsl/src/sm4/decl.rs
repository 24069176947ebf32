//! Declarations as typed values (D3D11.3 §22.3 and `d3d11tokenizedprogramformat.hpp`).
//!
//! The decoder reads a declaration's tokens generically, as the opcode table's `Form` lays them
//! out (the operand tokens, a resource return-type token, extra words), and then decodes them
//! once into a [`Declaration`] ([`super::Instruction::decl`]): the opcode token's control bits
//! (bits 11–23: resource dimension, sample count, interpolation mode, sampler mode, access
//! pattern, UAV flags, global flags, primitive and tessellator kinds, control-point counts), the
//! return-type token and the extra words (counts, strides, sizes, register spaces, system-value
//! names). The IR builder and the disassembler read these values; neither reads the bits.
//!
//! Fields are named as D3D names them. Values a field can hold but the format does not define are
//! kept as read (the `Reserved` variants), so every declaration the decoder accepts is printed
//! exactly as before; the opcode token's control bits also stay on the instruction
//! ([`super::Instruction::control`]).

use super::operand::{Index, Operand};
use super::Opcode;
use crate::error::{ReadError, ReadResult};

/// An enumeration of a declaration field: the values D3D defines, and `Reserved` for the others
/// (kept as read).
macro_rules! field_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $v:literal,)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $variant,)*
            /// A value the format does not define, as read.
            Reserved(u8),
        }
        impl $name {
            /// From the field's value (at most 8 bits wide).
            pub fn from_raw(v: u32) -> Self {
                match v {
                    $($v => $name::$variant,)*
                    other => $name::Reserved(other as u8),
                }
            }
            /// The field's value.
            pub fn raw(self) -> u32 {
                match self {
                    $($name::$variant => $v,)*
                    $name::Reserved(v) => u32::from(v),
                }
            }
        }
    };
}

field_enum! {
    /// `D3D10_SB_RESOURCE_DIMENSION` (bits 11–15 of a resource declaration's opcode token, or of
    /// an extended resource-dimension token).
    ResourceDimension {
        /// 0.
        Unknown = 0,
        /// 1: `Buffer`.
        Buffer = 1,
        /// 2.
        Texture1D = 2,
        /// 3.
        Texture2D = 3,
        /// 4: multisampled.
        Texture2DMS = 4,
        /// 5.
        Texture3D = 5,
        /// 6.
        TextureCube = 6,
        /// 7.
        Texture1DArray = 7,
        /// 8.
        Texture2DArray = 8,
        /// 9: multisampled.
        Texture2DMSArray = 9,
        /// 10.
        TextureCubeArray = 10,
        /// 11: `ByteAddressBuffer` (extended tokens only).
        RawBuffer = 11,
        /// 12: `StructuredBuffer` (extended tokens only).
        StructuredBuffer = 12,
    }
}

field_enum! {
    /// `D3D10_SB_RESOURCE_RETURN_TYPE`: one component of a resource return-type token.
    ReturnType {
        /// 1.
        Unorm = 1,
        /// 2.
        Snorm = 2,
        /// 3.
        Sint = 3,
        /// 4.
        Uint = 4,
        /// 5.
        Float = 5,
        /// 6.
        Mixed = 6,
        /// 7 (SM5 doubles).
        Double = 7,
        /// 8: the previous component's double continues.
        Continued = 8,
        /// 9.
        Unused = 9,
    }
}

field_enum! {
    /// `D3D10_SB_SAMPLER_MODE` (bits 11–14 of `dcl_sampler`).
    SamplerMode {
        /// 0.
        Default = 0,
        /// 1: a comparison sampler.
        Comparison = 1,
        /// 2.
        Mono = 2,
    }
}

field_enum! {
    /// `D3D10_SB_INTERPOLATION_MODE` (bits 11–14 of the `dcl_input_ps*` declarations).
    InterpolationMode {
        /// 0.
        Undefined = 0,
        /// 1: flat.
        Constant = 1,
        /// 2: perspective-correct.
        Linear = 2,
        /// 3.
        LinearCentroid = 3,
        /// 4.
        LinearNoPerspective = 4,
        /// 5.
        LinearNoPerspectiveCentroid = 5,
        /// 6.
        LinearSample = 6,
        /// 7.
        LinearNoPerspectiveSample = 7,
    }
}

field_enum! {
    /// `D3D10_SB_PRIMITIVE_TOPOLOGY` (bits 11–17 of `dcl_outputtopology`).
    PrimitiveTopology {
        /// 0.
        Undefined = 0,
        /// 1.
        PointList = 1,
        /// 2.
        LineList = 2,
        /// 3.
        LineStrip = 3,
        /// 4.
        TriangleList = 4,
        /// 5.
        TriangleStrip = 5,
        /// 10.
        LineListAdj = 10,
        /// 11.
        LineStripAdj = 11,
        /// 12.
        TriangleListAdj = 12,
        /// 13.
        TriangleStripAdj = 13,
    }
}

field_enum! {
    /// `D3D11_SB_TESSELLATOR_DOMAIN` (bits 11–12 of `dcl_tessellator_domain`).
    TessellatorDomain {
        /// 0.
        Undefined = 0,
        /// 1.
        Isoline = 1,
        /// 2.
        Triangle = 2,
        /// 3.
        Quad = 3,
    }
}

field_enum! {
    /// `D3D11_SB_TESSELLATOR_PARTITIONING` (bits 11–13 of `dcl_tessellator_partitioning`).
    TessellatorPartitioning {
        /// 0.
        Undefined = 0,
        /// 1.
        Integer = 1,
        /// 2.
        Pow2 = 2,
        /// 3.
        FractionalOdd = 3,
        /// 4.
        FractionalEven = 4,
    }
}

field_enum! {
    /// `D3D11_SB_TESSELLATOR_OUTPUT_PRIMITIVE` (bits 11–13 of
    /// `dcl_tessellator_output_primitive`).
    TessellatorOutputPrimitive {
        /// 0.
        Undefined = 0,
        /// 1.
        Point = 1,
        /// 2.
        Line = 2,
        /// 3: clockwise triangles.
        TriangleCw = 3,
        /// 4: counter-clockwise triangles.
        TriangleCcw = 4,
    }
}

/// `D3D10_SB_PRIMITIVE` (bits 11–16 of `dcl_inputprimitive`): the geometry shader's input
/// primitive, or a hull shader's control-point patch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputPrimitive {
    /// 0.
    Undefined,
    /// 1.
    Point,
    /// 2.
    Line,
    /// 3.
    Triangle,
    /// 6.
    LineAdj,
    /// 7.
    TriangleAdj,
    /// 8–39: a patch of 1–32 control points.
    ControlPointPatch(u8),
    /// A value the format does not define (4, 5, 40–63), as read.
    Reserved(u8),
}

impl InputPrimitive {
    /// From the 6-bit field.
    pub fn from_raw(v: u32) -> Self {
        match v {
            0 => InputPrimitive::Undefined,
            1 => InputPrimitive::Point,
            2 => InputPrimitive::Line,
            3 => InputPrimitive::Triangle,
            6 => InputPrimitive::LineAdj,
            7 => InputPrimitive::TriangleAdj,
            8..=39 => InputPrimitive::ControlPointPatch((v - 7) as u8),
            other => InputPrimitive::Reserved(other as u8),
        }
    }
}

/// `D3D10_SB_CONSTANT_BUFFER_ACCESS_PATTERN` (bit 11 of `dcl_constantbuffer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConstantBufferAccess {
    /// Only immediate indices read it.
    ImmediateIndexed,
    /// Relative indices read it.
    DynamicIndexed,
}

/// The flags of a UAV declaration (bits 16, 17 and 23 of the opcode token).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct UavFlags {
    /// `D3D11_SB_GLOBALLY_COHERENT_ACCESS` (`globallycoherent`, `_glc`).
    pub globally_coherent: bool,
    /// `D3D11_SB_RASTERIZER_ORDERED_ACCESS` (`_rov`).
    pub rasterizer_ordered: bool,
    /// `D3D11_SB_UAV_HAS_ORDER_PRESERVING_COUNTER` (`_opc`: a structured UAV's hidden counter,
    /// for append/consume buffers and `imm_atomic_alloc`).
    pub order_preserving_counter: bool,
}

impl UavFlags {
    fn from_control(c: u32) -> Self {
        UavFlags {
            globally_coherent: c & (1 << 5) != 0,
            rasterizer_ordered: c & (1 << 6) != 0,
            order_preserving_counter: c & (1 << 12) != 0,
        }
    }
}

/// `dcl_globalFlags`: the opcode token's bits 11–23 as read (`D3D10_SB_GLOBAL_FLAGS` and
/// `D3D11_SB_GLOBAL_FLAGS`). Bits without a name are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct GlobalFlags(pub u32);

impl GlobalFlags {
    /// The named flags in bit order (bit 0 first), as fxc spells them.
    pub const NAMES: [&'static str; 9] = [
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
    /// Whether bit `bit` is set.
    pub fn has(self, bit: u32) -> bool {
        bit < 32 && self.0 & (1 << bit) != 0
    }
    /// `forceEarlyDepthStencil` (bit 2): depth and stencil tests run before the shader.
    pub fn force_early_depth_stencil(self) -> bool {
        self.has(2)
    }
    /// The names of the set flags, in bit order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        (0..).zip(Self::NAMES).filter(move |(bit, _)| self.has(*bit)).map(|(_, n)| n)
    }
}

/// A `D3D10_SB_NAME`: the system value a `_siv`/`_sgv` declaration names (1 position,
/// 2 clip distance, ..., 10 sample index, 11–22 tessellation factors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SystemValue(pub u32);

/// The register a binding declaration (constant buffer, sampler, SRV, UAV) names: its logical id
/// (the `cb#`/`s#`/`t#`/`u#` instructions name), its bind range and register space.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    /// The operand as decoded (SM5.1: three indices, id, lower and upper bound).
    pub register: Operand,
    /// Logical id (the register number before SM5.1).
    pub id: u32,
    /// First bind slot (the register number before SM5.1).
    pub lower_bound: u32,
    /// Last bind slot (`u32::MAX`: unbounded); the lower bound when not given.
    pub upper_bound: u32,
    /// Register space (SM5.1; 0 before).
    pub space: u32,
}

/// `customdata` contents.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomData {
    /// Class (0 comment, 1 debug info, 2 opaque, 3 immediate constant buffer, 4 shader message,
    /// 5 dx9 clip-plane constant mappings).
    pub class: u32,
    /// Payload words.
    pub data: Vec<u32>,
}

impl CustomData {
    /// The class of `dcl_immediateConstantBuffer`.
    pub const IMMEDIATE_CONSTANT_BUFFER: u32 = 3;
}

/// One declaration, decoded.
#[derive(Debug, Clone, PartialEq)]
pub enum Declaration {
    /// `dcl_globalFlags`.
    GlobalFlags(GlobalFlags),
    /// `dcl_temps N`: temp registers `r0`..`r{N-1}`.
    Temps(u32),
    /// `dcl_indexableTemp x#[size], components`.
    IndexableTemp {
        /// Register number.
        register: u32,
        /// Number of elements.
        size: u32,
        /// Components per element.
        components: u32,
    },
    /// `dcl_constantbuffer`.
    ConstantBuffer {
        /// Register, range and space.
        binding: Binding,
        /// Size in 16-byte registers (the operand's second index before SM5.1, a word after).
        size: u32,
        /// Access pattern.
        access: ConstantBufferAccess,
    },
    /// `dcl_sampler`.
    Sampler {
        /// Register, range and space.
        binding: Binding,
        /// Mode.
        mode: SamplerMode,
    },
    /// `dcl_resource` (a typed SRV).
    Resource {
        /// Register, range and space.
        binding: Binding,
        /// Dimension.
        dimension: ResourceDimension,
        /// Sample count (bits 16–22; meaningful for the multisampled dimensions).
        sample_count: u32,
        /// Return type per component.
        return_types: [ReturnType; 4],
    },
    /// `dcl_resource_raw`.
    ResourceRaw {
        /// Register, range and space.
        binding: Binding,
    },
    /// `dcl_resource_structured`.
    ResourceStructured {
        /// Register, range and space.
        binding: Binding,
        /// Structure stride in bytes.
        stride: u32,
    },
    /// `dcl_uav_typed`.
    UavTyped {
        /// Register, range and space.
        binding: Binding,
        /// Dimension.
        dimension: ResourceDimension,
        /// Flags.
        flags: UavFlags,
        /// Return type per component.
        return_types: [ReturnType; 4],
    },
    /// `dcl_uav_raw`.
    UavRaw {
        /// Register, range and space.
        binding: Binding,
        /// Flags.
        flags: UavFlags,
    },
    /// `dcl_uav_structured`.
    UavStructured {
        /// Register, range and space.
        binding: Binding,
        /// Flags.
        flags: UavFlags,
        /// Structure stride in bytes.
        stride: u32,
    },
    /// `dcl_input`, `dcl_input_sgv`, `dcl_input_siv`, `dcl_input_ps`, `dcl_input_ps_sgv`,
    /// `dcl_input_ps_siv` (the opcode says which).
    Input {
        /// The declared register and mask (`v#`, or an input register such as `vThreadID`).
        register: Operand,
        /// Interpolation mode (the `dcl_input_ps*` forms).
        interpolation: Option<InterpolationMode>,
        /// System value (the `_sgv`/`_siv` forms).
        system_value: Option<SystemValue>,
    },
    /// `dcl_output`, `dcl_output_sgv`, `dcl_output_siv`.
    Output {
        /// The declared register and mask (`o#`, `oDepth`, ...).
        register: Operand,
        /// System value (the `_sgv`/`_siv` forms).
        system_value: Option<SystemValue>,
    },
    /// `dcl_indexrange`: registers indexed together.
    IndexRange {
        /// The first register, with its mask.
        register: Operand,
        /// Number of registers.
        count: u32,
    },
    /// `dcl_thread_group x, y, z`.
    ThreadGroup([u32; 3]),
    /// `dcl_tgsm_raw g#, bytes`.
    TgsmRaw {
        /// The `g#` register.
        register: Operand,
        /// Size in bytes.
        byte_count: u32,
    },
    /// `dcl_tgsm_structured g#, stride, count`.
    TgsmStructured {
        /// The `g#` register.
        register: Operand,
        /// Structure stride in bytes.
        stride: u32,
        /// Number of structures.
        count: u32,
    },
    /// `dcl_inputprimitive`.
    GsInputPrimitive(InputPrimitive),
    /// `dcl_outputtopology`.
    GsOutputPrimitiveTopology(PrimitiveTopology),
    /// `dcl_maxout`.
    MaxOutputVertexCount(u32),
    /// `dcl_gsinstances`.
    GsInstanceCount(u32),
    /// `dcl_stream m#`.
    Stream(Operand),
    /// `dcl_input_control_point_count` (bits 11–16).
    InputControlPointCount(u32),
    /// `dcl_output_control_point_count` (bits 11–16).
    OutputControlPointCount(u32),
    /// `dcl_tessellator_domain`.
    TessellatorDomain(TessellatorDomain),
    /// `dcl_tessellator_partitioning`.
    TessellatorPartitioning(TessellatorPartitioning),
    /// `dcl_tessellator_output_primitive`.
    TessellatorOutputPrimitive(TessellatorOutputPrimitive),
    /// `dcl_hs_max_tessfactor`.
    HsMaxTessFactor(f32),
    /// `dcl_hs_fork_phase_instance_count`.
    HsForkPhaseInstanceCount(u32),
    /// `dcl_hs_join_phase_instance_count`.
    HsJoinPhaseInstanceCount(u32),
    /// `dcl_function_body fb#`.
    FunctionBody(u32),
    /// `dcl_function_table ft# = {fb#, ...}`.
    FunctionTable {
        /// Table id.
        id: u32,
        /// Function bodies.
        bodies: Vec<u32>,
    },
    /// `dcl_interface fp#[array length][function table length] = {ft#, ...}`.
    Interface {
        /// Interface id.
        id: u32,
        /// Indexed dynamically (bit 11, `_dynamicindexed`).
        dynamic_indexed: bool,
        /// Expected function table length (the call sites each table serves).
        function_table_length: u32,
        /// Interfaces in the array.
        array_length: u32,
        /// The function tables that may implement it.
        tables: Vec<u32>,
    },
    /// `customdata` (the immediate constant buffer, comments, debug data).
    CustomData(CustomData),
    /// A reserved opcode's words, as read.
    Reserved(Vec<u32>),
}

/// A declaration's tokens as the decoder read them, per the opcode table's `Form`.
pub(crate) struct DeclTokens {
    /// Opcode.
    pub opcode: Opcode,
    /// Bits 11–23 of the opcode token.
    pub control: u32,
    /// Whether the program is SM5.1 (register ranges and spaces).
    pub sm51: bool,
    /// Byte offset of the opcode token.
    pub offset: usize,
    /// Operand tokens.
    pub operands: Vec<Operand>,
    /// The resource return-type token.
    pub return_type: Option<u32>,
    /// The words after the operands (and return type).
    pub words: Vec<u32>,
    /// Byte offset of the first of `words`.
    pub words_at: usize,
}

impl Declaration {
    /// Decodes a declaration's tokens.
    ///
    /// # Errors
    /// [`ReadError::Malformed`], naming a byte offset inside the program, when the tokens lack an
    /// operand or word the declaration needs (the decoder reads what the opcode table lays out,
    /// so this is only for `dcl_function_table` and `dcl_interface`, whose lengths are their
    /// own), or when their counts disagree with their words.
    pub(crate) fn decode(t: DeclTokens) -> ReadResult<Declaration> {
        use Declaration as D;
        let DeclTokens { opcode, control: c, sm51, offset, operands, return_type, words, words_at } = t;
        let name = opcode.name();
        let missing = |what: &str| ReadError::malformed("declaration", offset, format!("`{name}` has no {what}"));
        let w = |i: usize| words.get(i).copied().ok_or_else(|| missing("value word"));
        let mut operands = operands.into_iter();
        let mut register = || operands.next().ok_or_else(|| missing("operand"));
        let return_types = || -> ReadResult<[ReturnType; 4]> {
            let t = return_type.ok_or_else(|| missing("return-type token"))?;
            Ok(std::array::from_fn(|i| ReturnType::from_raw((t >> (4 * i)) & 0xf)))
        };
        // The binding's register space is its last word in SM5.1.
        let binding = |register: Operand, space_word: usize| -> ReadResult<Binding> {
            Ok(if sm51 {
                let index = |i: usize| register.indices.get(i).map(Index::imm);
                let lower_bound = index(1).unwrap_or(0);
                Binding {
                    id: index(0).unwrap_or(0),
                    lower_bound,
                    upper_bound: index(2).unwrap_or(lower_bound),
                    space: w(space_word)?,
                    register,
                }
            } else {
                let r = register.reg();
                Binding { register, id: r, lower_bound: r, upper_bound: r, space: 0 }
            })
        };
        let system_value = |i: usize| w(i).map(|v| Some(SystemValue(v)));
        Ok(match opcode {
            Opcode::DCL_GLOBAL_FLAGS => D::GlobalFlags(GlobalFlags(c)),
            Opcode::DCL_TEMPS => D::Temps(w(0)?),
            Opcode::DCL_INDEXABLE_TEMP => D::IndexableTemp { register: w(0)?, size: w(1)?, components: w(2)? },
            Opcode::DCL_CONSTANT_BUFFER => {
                let register = register()?;
                let size = if sm51 { w(0)? } else { register.indices.get(1).map(Index::imm).unwrap_or(0) };
                let access = if c & 1 != 0 {
                    ConstantBufferAccess::DynamicIndexed
                } else {
                    ConstantBufferAccess::ImmediateIndexed
                };
                D::ConstantBuffer { binding: binding(register, 1)?, size, access }
            }
            Opcode::DCL_SAMPLER => {
                D::Sampler { binding: binding(register()?, 0)?, mode: SamplerMode::from_raw(c & 0xf) }
            }
            Opcode::DCL_RESOURCE => D::Resource {
                binding: binding(register()?, 0)?,
                dimension: ResourceDimension::from_raw(c & 0x1f),
                sample_count: (c >> 5) & 0x7f,
                return_types: return_types()?,
            },
            Opcode::DCL_RESOURCE_RAW => D::ResourceRaw { binding: binding(register()?, 0)? },
            Opcode::DCL_RESOURCE_STRUCTURED => {
                D::ResourceStructured { binding: binding(register()?, 1)?, stride: w(0)? }
            }
            Opcode::DCL_UAV_TYPED => D::UavTyped {
                binding: binding(register()?, 0)?,
                dimension: ResourceDimension::from_raw(c & 0x1f),
                flags: UavFlags::from_control(c),
                return_types: return_types()?,
            },
            Opcode::DCL_UAV_RAW => D::UavRaw { binding: binding(register()?, 0)?, flags: UavFlags::from_control(c) },
            Opcode::DCL_UAV_STRUCTURED => {
                D::UavStructured { binding: binding(register()?, 1)?, flags: UavFlags::from_control(c), stride: w(0)? }
            }
            Opcode::DCL_INPUT => D::Input { register: register()?, interpolation: None, system_value: None },
            Opcode::DCL_INPUT_SGV | Opcode::DCL_INPUT_SIV => {
                D::Input { register: register()?, interpolation: None, system_value: system_value(0)? }
            }
            Opcode::DCL_INPUT_PS => D::Input {
                register: register()?,
                interpolation: Some(InterpolationMode::from_raw(c & 0xf)),
                system_value: None,
            },
            Opcode::DCL_INPUT_PS_SGV | Opcode::DCL_INPUT_PS_SIV => D::Input {
                register: register()?,
                interpolation: Some(InterpolationMode::from_raw(c & 0xf)),
                system_value: system_value(0)?,
            },
            Opcode::DCL_OUTPUT => D::Output { register: register()?, system_value: None },
            Opcode::DCL_OUTPUT_SGV | Opcode::DCL_OUTPUT_SIV => {
                D::Output { register: register()?, system_value: system_value(0)? }
            }
            Opcode::DCL_INDEX_RANGE => D::IndexRange { register: register()?, count: w(0)? },
            Opcode::DCL_THREAD_GROUP => D::ThreadGroup([w(0)?, w(1)?, w(2)?]),
            Opcode::DCL_TGSM_RAW => D::TgsmRaw { register: register()?, byte_count: w(0)? },
            Opcode::DCL_TGSM_STRUCTURED => D::TgsmStructured { register: register()?, stride: w(0)?, count: w(1)? },
            Opcode::DCL_GS_INPUT_PRIMITIVE => D::GsInputPrimitive(InputPrimitive::from_raw(c & 0x3f)),
            Opcode::DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => {
                D::GsOutputPrimitiveTopology(PrimitiveTopology::from_raw(c & 0x7f))
            }
            Opcode::DCL_MAX_OUTPUT_VERTEX_COUNT => D::MaxOutputVertexCount(w(0)?),
            Opcode::DCL_GS_INSTANCE_COUNT => D::GsInstanceCount(w(0)?),
            Opcode::DCL_STREAM => D::Stream(register()?),
            Opcode::DCL_INPUT_CONTROL_POINT_COUNT => D::InputControlPointCount(c & 0x3f),
            Opcode::DCL_OUTPUT_CONTROL_POINT_COUNT => D::OutputControlPointCount(c & 0x3f),
            Opcode::DCL_TESS_DOMAIN => D::TessellatorDomain(TessellatorDomain::from_raw(c & 3)),
            Opcode::DCL_TESS_PARTITIONING => D::TessellatorPartitioning(TessellatorPartitioning::from_raw(c & 7)),
            Opcode::DCL_TESS_OUTPUT_PRIMITIVE => {
                D::TessellatorOutputPrimitive(TessellatorOutputPrimitive::from_raw(c & 7))
            }
            Opcode::DCL_HS_MAX_TESSFACTOR => D::HsMaxTessFactor(f32::from_bits(w(0)?)),
            Opcode::DCL_HS_FORK_PHASE_INSTANCE_COUNT => D::HsForkPhaseInstanceCount(w(0)?),
            Opcode::DCL_HS_JOIN_PHASE_INSTANCE_COUNT => D::HsJoinPhaseInstanceCount(w(0)?),
            Opcode::DCL_FUNCTION_BODY => D::FunctionBody(w(0)?),
            Opcode::DCL_FUNCTION_TABLE => {
                // Words: table id, table length, that many function bodies.
                let (id, length) = (w(0)?, w(1)?);
                let bodies = words.get(2..).unwrap_or_default();
                if bodies.len() as u64 != u64::from(length) {
                    return Err(ReadError::malformed(
                        "dcl_function_table",
                        words_at + 4,
                        format!("table length {length} but {} function bodies follow", bodies.len()),
                    ));
                }
                D::FunctionTable { id, bodies: bodies.to_vec() }
            }
            Opcode::DCL_INTERFACE => {
                // Words: interface id, expected function table length, (array length << 16 |
                // table count), that many function tables.
                let (id, function_table_length, lengths) = (w(0)?, w(1)?, w(2)?);
                let tables = words.get(3..).unwrap_or_default();
                if tables.len() as u64 != u64::from(lengths & 0xffff) {
                    return Err(ReadError::malformed(
                        "dcl_interface",
                        words_at + 8,
                        format!("{} function tables declared but {} follow", lengths & 0xffff, tables.len()),
                    ));
                }
                D::Interface {
                    id,
                    dynamic_indexed: c & 1 != 0,
                    function_table_length,
                    array_length: lengths >> 16,
                    tables: tables.to_vec(),
                }
            }
            _ => D::Reserved(words),
        })
    }

    /// The binding of a constant-buffer, sampler, SRV or UAV declaration.
    pub fn binding(&self) -> Option<&Binding> {
        use Declaration as D;
        match self {
            D::ConstantBuffer { binding, .. }
            | D::Sampler { binding, .. }
            | D::Resource { binding, .. }
            | D::ResourceRaw { binding }
            | D::ResourceStructured { binding, .. }
            | D::UavTyped { binding, .. }
            | D::UavRaw { binding, .. }
            | D::UavStructured { binding, .. } => Some(binding),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::Chunk;
    use crate::sm4::{decode_program, OperandType};

    /// Decodes a body (after the version and length tokens) of a program of the given version
    /// token.
    fn decode(version: u32, body: &[u32]) -> ReadResult<crate::sm4::Program> {
        let mut all = vec![version, body.len() as u32 + 2];
        all.extend_from_slice(body);
        let bytes: Vec<u8> = all.iter().flat_map(|w| w.to_le_bytes()).collect();
        decode_program(&Chunk { fourcc: *b"SHEX", offset: 0, data: &bytes })
    }
    fn one(version: u32, body: &[u32]) -> Declaration {
        let p = decode(version, body).unwrap();
        *p.instructions[0].decl.clone().expect("a declaration")
    }
    fn token(opcode: u32, control: u32, len: u32) -> u32 {
        opcode | (control << 11) | (len << 24)
    }

    #[test]
    fn resources_decode_dimension_samples_and_return_types() {
        // dcl_resource_texture2dms(4) (float,float,uint,sint) t3
        let d = one(0x50, &[token(88, 4 | (4 << 5), 4), 0x0010_7000, 3, 0x3455]);
        let Declaration::Resource { binding, dimension, sample_count, return_types } = d else { panic!("{d:?}") };
        assert_eq!((binding.id, binding.lower_bound, binding.upper_bound, binding.space), (3, 3, 3, 0));
        assert_eq!(binding.register.ty, OperandType::Resource);
        assert_eq!((dimension, sample_count), (ResourceDimension::Texture2DMS, 4));
        use ReturnType as R;
        assert_eq!(return_types, [R::Float, R::Float, R::Uint, R::Sint]);
        // SM5.1: dcl_uav_structured_glc U1[2:5], 16, space=7
        let d = one(0x51, &[token(158, 1 << 5, 7), 0x0031_e000, 1, 2, 5, 16, 7]);
        let Declaration::UavStructured { binding, flags, stride } = d else { panic!("{d:?}") };
        assert_eq!((binding.id, binding.lower_bound, binding.upper_bound, binding.space, stride), (1, 2, 5, 7, 16));
        assert!(flags.globally_coherent && !flags.rasterizer_ordered && !flags.order_preserving_counter);
    }

    #[test]
    fn undefined_values_are_kept() {
        let d = one(0x50, &[token(90, 9, 3), 0x0010_6000, 0]);
        assert!(matches!(d, Declaration::Sampler { mode: SamplerMode::Reserved(9), .. }), "{d:?}");
        let d = one(0x50, &[token(93, 45, 1)]);
        assert_eq!(d, Declaration::GsInputPrimitive(InputPrimitive::Reserved(45)));
        let d = one(0x50, &[token(93, 10, 1)]);
        assert_eq!(d, Declaration::GsInputPrimitive(InputPrimitive::ControlPointPatch(3)));
        let d = one(0x50, &[token(106, 0x1fff, 1)]);
        assert_eq!(d, Declaration::GlobalFlags(GlobalFlags(0x1fff)));
        assert_eq!(GlobalFlags(0x1fff).names().count(), 9);
        assert_eq!(ResourceDimension::from_raw(17).raw(), 17);
    }

    #[test]
    fn inconsistent_function_tables_name_their_word() {
        // dcl_function_table ft0 = {fb1, fb2} claiming three bodies.
        let e = decode(0x50, &[145 | (5 << 24), 0, 3, 1, 2]).unwrap_err();
        assert!(matches!(e, ReadError::Malformed { offset: 16, .. }), "{e}");
        let e = decode(0x50, &[146 | (3 << 24), 0, 1]).unwrap_err();
        assert!(matches!(e, ReadError::Malformed { offset: 8, .. }), "{e}");
        let d = one(0x50, &[146 | (1 << 11) | (6 << 24), 4, 2, (1 << 16) | 2, 7, 8]);
        let want = Declaration::Interface {
            id: 4,
            dynamic_indexed: true,
            function_table_length: 2,
            array_length: 1,
            tables: vec![7, 8],
        };
        assert_eq!(d, want);
    }
}
