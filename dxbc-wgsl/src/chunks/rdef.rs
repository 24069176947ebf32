//! `RDEF`: reflection data — constant buffers with their variables and types, resource bindings,
//! the compiler's creator string and the target.
//!
//! Layout (little endian, offsets relative to the chunk data):
//! - header: constant-buffer count and offset, binding count and offset, target (`minor | major
//!   << 8 | program type << 16`), compile flags, creator-string offset. From SM5.0 a second part
//!   follows: a magic (`"RD11"` for 5.0, `0x25441313` for 5.1), the header size and the record
//!   sizes of constant buffers, bindings, variables, types and members, and one more word.
//! - constant buffer (24 bytes): name, variable count, variable offset, size, flags, kind.
//! - variable (24 bytes, 40 from SM5): name, offset, size, flags, type offset, default-value
//!   offset; SM5 adds start/count of the texture and sampler slots an interface variable uses.
//! - type (16 bytes, 36 from SM5): `u16` class, base type, rows, columns, elements, member count,
//!   then `u32` member offset; SM5 adds four words and the type name's offset.
//! - member (12 bytes): name, type offset, offset in the parent.
//! - binding (32 bytes, 40 for 5.1): name, input type, return type, dimension, sample count,
//!   bind point, bind count, flags; 5.1 adds the register space and the range ID.

use super::{raw_enum, ChunkBytes};
use crate::container::Chunk;
use crate::error::ReadResult;

/// Deepest struct nesting followed (types deeper than this are rejected as malformed).
pub const MAX_TYPE_DEPTH: u32 = 32;

/// Most type descriptions read for one chunk (member types included, counted every time they
/// are reached); bounds the work a chunk whose types share members can cause. A chunk may
/// also read at most 256 more types than it has bytes.
pub const MAX_TYPES: usize = 1 << 16;

/// The `RDEF` chunk decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Reflection {
    /// Target the compiler wrote (stage and model).
    pub target: Target,
    /// Compile flags (`D3DCOMPILE_*`).
    pub compile_flags: u32,
    /// Creator string, e.g. `Microsoft (R) HLSL Shader Compiler 10.1`.
    pub creator: String,
    /// The SM5 header part, when present.
    pub sm5_header: Option<Sm5Header>,
    /// Constant buffers (cbuffers, tbuffers, interface pointers, resource-bind-info buffers).
    pub constant_buffers: Vec<ConstantBuffer>,
    /// Resource bindings (`D3D11_SHADER_INPUT_BIND_DESC`).
    pub bindings: Vec<InputBinding>,
}

/// The target word of the RDEF header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Target {
    /// Program type: `0xFFFF` pixel, `0xFFFE` vertex, `0x4753` ("GS") geometry, `0x4853` hull,
    /// `0x4453` domain, `0x4353` compute, `0xFEFF` effect, `0x4C46` library ...
    pub program_type: u16,
    /// Major shader model.
    pub major: u8,
    /// Minor shader model.
    pub minor: u8,
}

impl Target {
    fn from_u32(v: u32) -> Self {
        Target { program_type: (v >> 16) as u16, major: (v >> 8) as u8, minor: v as u8 }
    }

    /// fxc's profile prefix for the program type (`ps`, `vs`, `gs`, `hs`, `ds`, `cs`, `fx`,
    /// `lib`), or `None` for an unknown type.
    pub fn prefix(&self) -> Option<&'static str> {
        Some(match self.program_type {
            0xFFFF => "ps",
            0xFFFE => "vs",
            0x4753 => "gs",
            0x4853 => "hs",
            0x4453 => "ds",
            0x4353 => "cs",
            0xFEFF => "fx",
            0x4C46 => "lib",
            _ => return None,
        })
    }

    /// Whether the SM5 layout (the `RD11` header part and larger records) applies.
    pub fn is_sm5(&self) -> bool {
        self.major >= 5
    }
}

/// The second part of an SM5 RDEF header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sm5Header {
    /// `0x31314452` (`"RD11"`) for SM5.0, `0x25441313` for SM5.1.
    pub magic: u32,
    /// Size of the whole header (60).
    pub header_size: u32,
    /// Size of a constant-buffer record (24).
    pub cbuffer_size: u32,
    /// Size of a binding record (32, or 40 for SM5.1).
    pub binding_size: u32,
    /// Size of a variable record (40).
    pub variable_size: u32,
    /// Size of a type record (36).
    pub type_size: u32,
    /// Size of a member record (12).
    pub member_size: u32,
    /// The last word (interface slot count as fxc writes it; usually 0).
    pub interface_slots: u32,
}

/// Magic of the SM5.0 header part (`"RD11"`).
pub const MAGIC_RD11: u32 = u32::from_le_bytes(*b"RD11");
/// Magic of the SM5.1 header part.
pub const MAGIC_RD11_51: u32 = 0x2544_1313;

raw_enum! {
    /// Kind of a constant buffer (`D3D_CBUFFER_TYPE`).
    CbufferKind(u32) {
        /// `cbuffer`.
        Cbuffer = 0 => "cbuffer",
        /// `tbuffer`.
        Tbuffer = 1 => "tbuffer",
        /// Interface pointers.
        InterfacePointers = 2 => "interfaces",
        /// Resource bind information (structured buffer element layout).
        ResourceBindInfo = 3 => "resource",
    }
}

/// A constant buffer.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstantBuffer {
    /// Name (for structured buffers, the resource's name).
    pub name: String,
    /// Variables, in chunk order.
    pub variables: Vec<Variable>,
    /// Size in bytes.
    pub size: u32,
    /// Flags (`D3D_SHADER_CBUFFER_FLAGS`: 1 = user packed).
    pub flags: u32,
    /// Kind.
    pub kind: CbufferKind,
}

/// A variable of a constant buffer.
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// Name.
    pub name: String,
    /// Offset in bytes from the start of the buffer.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// Flags (`D3D_SHADER_VARIABLE_FLAGS`: 1 user packed, 2 used, 4 interface pointer, 8
    /// interface parameter).
    pub flags: u32,
    /// Type.
    pub ty: Type,
    /// Default value bytes (`size` bytes), when the chunk stores one.
    pub default_value: Option<Vec<u8>>,
    /// SM5: first texture slot and count an interface variable uses (`u32::MAX`, 0 when none).
    pub texture_slots: Option<(u32, u32)>,
    /// SM5: first sampler slot and count an interface variable uses.
    pub sampler_slots: Option<(u32, u32)>,
}

impl Variable {
    /// Whether the shader uses the variable (`D3D_SVF_USED`).
    pub fn is_used(&self) -> bool {
        self.flags & 2 != 0
    }
}

raw_enum! {
    /// Class of a type (`D3D_SHADER_VARIABLE_CLASS`).
    VariableClass(u16) {
        /// Scalar.
        Scalar = 0 => "scalar",
        /// Vector.
        Vector = 1 => "vector",
        /// Row-major matrix.
        MatrixRows = 2 => "matrix_rows",
        /// Column-major matrix.
        MatrixColumns = 3 => "matrix_columns",
        /// Object (texture, sampler, buffer...).
        Object = 4 => "object",
        /// Structure.
        Struct = 5 => "struct",
        /// Interface class.
        InterfaceClass = 6 => "interface_class",
        /// Interface pointer.
        InterfacePointer = 7 => "interface_pointer",
    }
}

raw_enum! {
    /// Base type of a type (`D3D_SHADER_VARIABLE_TYPE`), spelled as HLSL does.
    VariableType(u16) {
        /// `void`
        Void = 0 => "void",
        /// `bool`
        Bool = 1 => "bool",
        /// `int`
        Int = 2 => "int",
        /// `float`
        Float = 3 => "float",
        /// `string`
        String = 4 => "string",
        /// `texture`
        Texture = 5 => "texture",
        /// `Texture1D`
        Texture1D = 6 => "Texture1D",
        /// `Texture2D`
        Texture2D = 7 => "Texture2D",
        /// `Texture3D`
        Texture3D = 8 => "Texture3D",
        /// `TextureCube`
        TextureCube = 9 => "TextureCube",
        /// `sampler`
        Sampler = 10 => "sampler",
        /// `sampler1D`
        Sampler1D = 11 => "sampler1D",
        /// `sampler2D`
        Sampler2D = 12 => "sampler2D",
        /// `sampler3D`
        Sampler3D = 13 => "sampler3D",
        /// `samplerCUBE`
        SamplerCube = 14 => "samplerCUBE",
        /// `PixelShader`
        PixelShader = 15 => "PixelShader",
        /// `VertexShader`
        VertexShader = 16 => "VertexShader",
        /// `PixelFragment`
        PixelFragment = 17 => "PixelFragment",
        /// `VertexFragment`
        VertexFragment = 18 => "VertexFragment",
        /// `uint`
        Uint = 19 => "uint",
        /// `uint8`
        Uint8 = 20 => "uint8",
        /// `GeometryShader`
        GeometryShader = 21 => "GeometryShader",
        /// `RasterizerState`
        Rasterizer = 22 => "RasterizerState",
        /// `DepthStencilState`
        DepthStencil = 23 => "DepthStencilState",
        /// `BlendState`
        Blend = 24 => "BlendState",
        /// `Buffer`
        Buffer = 25 => "Buffer",
        /// `cbuffer`
        Cbuffer = 26 => "cbuffer",
        /// `tbuffer`
        Tbuffer = 27 => "tbuffer",
        /// `Texture1DArray`
        Texture1DArray = 28 => "Texture1DArray",
        /// `Texture2DArray`
        Texture2DArray = 29 => "Texture2DArray",
        /// `RenderTargetView`
        RenderTargetView = 30 => "RenderTargetView",
        /// `DepthStencilView`
        DepthStencilView = 31 => "DepthStencilView",
        /// `Texture2DMS`
        Texture2DMS = 32 => "Texture2DMS",
        /// `Texture2DMSArray`
        Texture2DMSArray = 33 => "Texture2DMSArray",
        /// `TextureCubeArray`
        TextureCubeArray = 34 => "TextureCubeArray",
        /// `HullShader`
        HullShader = 35 => "HullShader",
        /// `DomainShader`
        DomainShader = 36 => "DomainShader",
        /// interface pointer
        InterfacePointer = 37 => "interface",
        /// `ComputeShader`
        ComputeShader = 38 => "ComputeShader",
        /// `double`
        Double = 39 => "double",
        /// `RWTexture1D`
        RWTexture1D = 40 => "RWTexture1D",
        /// `RWTexture1DArray`
        RWTexture1DArray = 41 => "RWTexture1DArray",
        /// `RWTexture2D`
        RWTexture2D = 42 => "RWTexture2D",
        /// `RWTexture2DArray`
        RWTexture2DArray = 43 => "RWTexture2DArray",
        /// `RWTexture3D`
        RWTexture3D = 44 => "RWTexture3D",
        /// `RWBuffer`
        RWBuffer = 45 => "RWBuffer",
        /// `ByteAddressBuffer`
        ByteAddressBuffer = 46 => "ByteAddressBuffer",
        /// `RWByteAddressBuffer`
        RWByteAddressBuffer = 47 => "RWByteAddressBuffer",
        /// `StructuredBuffer`
        StructuredBuffer = 48 => "StructuredBuffer",
        /// `RWStructuredBuffer`
        RWStructuredBuffer = 49 => "RWStructuredBuffer",
        /// `AppendStructuredBuffer`
        AppendStructuredBuffer = 50 => "AppendStructuredBuffer",
        /// `ConsumeStructuredBuffer`
        ConsumeStructuredBuffer = 51 => "ConsumeStructuredBuffer",
        /// `min8float`
        Min8Float = 52 => "min8float",
        /// `min10float`
        Min10Float = 53 => "min10float",
        /// `min16float`
        Min16Float = 54 => "min16float",
        /// `min12int`
        Min12Int = 55 => "min12int",
        /// `min16int`
        Min16Int = 56 => "min16int",
        /// `min16uint`
        Min16Uint = 57 => "min16uint",
        /// `int16_t`
        Int16 = 58 => "int16_t",
        /// `uint16_t`
        Uint16 = 59 => "uint16_t",
        /// `float16_t`
        Float16 = 60 => "float16_t",
        /// `int64_t`
        Int64 = 61 => "int64_t",
        /// `uint64_t`
        Uint64 = 62 => "uint64_t",
    }
}

/// A type description.
#[derive(Debug, Clone, PartialEq)]
pub struct Type {
    /// Class.
    pub class: VariableClass,
    /// Base type.
    pub base: VariableType,
    /// Rows (1 for scalars and vectors).
    pub rows: u16,
    /// Columns (components of a vector).
    pub columns: u16,
    /// Array elements (0 when not an array).
    pub elements: u16,
    /// Struct members, in order.
    pub members: Vec<Member>,
    /// SM5: the type's name as the compiler wrote it (`float4`, `float4x4`, a struct's name).
    pub name: Option<String>,
}

impl Type {
    /// The HLSL spelling: the stored name when there is one, else built from the class, base
    /// type, rows and columns (`float4`, `float4x4`, `row_major float3x4`, `struct`).
    pub fn hlsl_name(&self) -> String {
        if let Some(n) = &self.name {
            if !n.is_empty() {
                return n.clone();
            }
        }
        let base = self.base.name();
        match self.class {
            VariableClass::Scalar => base.to_string(),
            VariableClass::Vector => format!("{base}{}", self.columns),
            VariableClass::MatrixColumns => format!("{base}{}x{}", self.rows, self.columns),
            VariableClass::MatrixRows => format!("row_major {base}{}x{}", self.rows, self.columns),
            VariableClass::Struct => "struct".to_string(),
            _ => base.to_string(),
        }
    }
}

/// A struct member.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// Name.
    pub name: String,
    /// Offset in bytes from the start of the parent struct.
    pub offset: u32,
    /// Type.
    pub ty: Type,
}

raw_enum! {
    /// What a binding binds (`D3D_SHADER_INPUT_TYPE`), as fxc's listing names it.
    InputType(u32) {
        /// Constant buffer.
        Cbuffer = 0 => "cbuffer",
        /// Texture buffer.
        Tbuffer = 1 => "tbuffer",
        /// Texture or typed buffer SRV.
        Texture = 2 => "texture",
        /// Sampler.
        Sampler = 3 => "sampler",
        /// Typed UAV.
        UavRwTyped = 4 => "UAV",
        /// Structured buffer SRV.
        Structured = 5 => "texture",
        /// Structured buffer UAV.
        UavRwStructured = 6 => "UAV",
        /// Byte-address buffer SRV.
        ByteAddress = 7 => "texture",
        /// Byte-address buffer UAV.
        UavRwByteAddress = 8 => "UAV",
        /// Append structured buffer.
        UavAppendStructured = 9 => "UAV",
        /// Consume structured buffer.
        UavConsumeStructured = 10 => "UAV",
        /// Structured UAV with a hidden counter.
        UavRwStructuredWithCounter = 11 => "UAV",
        /// Ray-tracing acceleration structure.
        RtAccelerationStructure = 12 => "rtaccel",
        /// Sampler feedback texture.
        UavFeedbackTexture = 13 => "UAV",
    }
}

impl InputType {
    /// The register class letter fxc uses for the bind point (`cb`, `t`, `s`, `u`).
    pub fn register_prefix(self) -> &'static str {
        match self {
            InputType::Cbuffer => "cb",
            InputType::Sampler => "s",
            InputType::Tbuffer | InputType::Texture | InputType::Structured | InputType::ByteAddress => "t",
            InputType::RtAccelerationStructure => "t",
            InputType::Other(_) => "?",
            _ => "u",
        }
    }
}

raw_enum! {
    /// Element type a resource returns (`D3D_RESOURCE_RETURN_TYPE`).
    ReturnType(u32) {
        /// No return type (samplers, cbuffers, raw/structured buffers).
        None = 0 => "NA",
        /// UNORM.
        Unorm = 1 => "unorm",
        /// SNORM.
        Snorm = 2 => "snorm",
        /// Signed integer.
        Sint = 3 => "sint",
        /// Unsigned integer.
        Uint = 4 => "uint",
        /// Float.
        Float = 5 => "float",
        /// Mixed.
        Mixed = 6 => "mixed",
        /// Double.
        Double = 7 => "double",
        /// Continued (the second half of a double).
        Continued = 8 => "continued",
    }
}

raw_enum! {
    /// Dimension of a bound resource (`D3D_SRV_DIMENSION`), as fxc's listing names it.
    Dimension(u32) {
        /// Unknown / not a view (samplers, cbuffers).
        Unknown = 0 => "NA",
        /// Buffer.
        Buffer = 1 => "buf",
        /// 1D texture.
        Texture1D = 2 => "1d",
        /// 1D texture array.
        Texture1DArray = 3 => "1darray",
        /// 2D texture.
        Texture2D = 4 => "2d",
        /// 2D texture array.
        Texture2DArray = 5 => "2darray",
        /// Multisampled 2D texture.
        Texture2DMS = 6 => "2dMS",
        /// Multisampled 2D texture array.
        Texture2DMSArray = 7 => "2darrayMS",
        /// 3D texture.
        Texture3D = 8 => "3d",
        /// Cube texture.
        TextureCube = 9 => "cube",
        /// Cube texture array.
        TextureCubeArray = 10 => "cubearray",
        /// Extended buffer (raw).
        BufferEx = 11 => "bufex",
    }
}

/// A resource binding (`D3D11_SHADER_INPUT_BIND_DESC`, `D3D12_SHADER_INPUT_BIND_DESC`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputBinding {
    /// Name.
    pub name: String,
    /// What is bound.
    pub input_type: InputType,
    /// Element type of textures and typed buffers.
    pub return_type: ReturnType,
    /// Dimension.
    pub dimension: Dimension,
    /// Sample count (multisampled textures), or the structure stride for structured buffers
    /// as some compilers write it; `u32::MAX` / 0 when unused.
    pub sample_count: u32,
    /// First register (`t3` → 3).
    pub bind_point: u32,
    /// Number of registers (arrays); 0 for an unbounded SM5.1 array.
    pub bind_count: u32,
    /// Flags (`D3D_SHADER_INPUT_FLAGS`: 1 user packed, 2 comparison sampler, 0xC texture
    /// component count - 1, 0x10 unused).
    pub flags: u32,
    /// SM5.1: register space.
    pub space: Option<u32>,
    /// SM5.1: range ID (the index the program's declarations use).
    pub id: Option<u32>,
}

impl InputBinding {
    /// Components of a texture's element (from the flags, 1–4).
    pub fn components(&self) -> u32 {
        ((self.flags >> 2) & 3) + 1
    }

    /// The range ID the program's declarations use for this binding: the stored ID for SM5.1,
    /// the bind point before (as D3D12's reflection reports it).
    pub fn range_id(&self) -> u32 {
        self.id.unwrap_or(self.bind_point)
    }
}

/// A whole-chunk parser state: the chunk bytes, whether the SM5 records are used, and the
/// budget of types left to read.
struct Parser<'a> {
    b: ChunkBytes<'a>,
    var_size: usize,
    type_size: usize,
    member_size: usize,
    types_left: usize,
}

/// Parses an `RDEF` chunk.
///
/// # Errors
/// [`ReadError::Truncated`](crate::ReadError::Truncated) /
/// [`ReadError::Malformed`](crate::ReadError::Malformed) with byte offsets from the container
/// start: records or strings outside the chunk, an unknown SM5 magic or record sizes, struct
/// nesting deeper than [`MAX_TYPE_DEPTH`].
pub fn parse(chunk: &Chunk<'_>) -> ReadResult<Reflection> {
    let b = ChunkBytes::new(chunk);
    let cb_count = b.u32(0, "RDEF constant buffer count")?;
    let cb_offset = b.u32(4, "RDEF constant buffer offset")? as usize;
    let bind_count = b.u32(8, "RDEF binding count")?;
    let bind_offset = b.u32(12, "RDEF binding offset")? as usize;
    let target = Target::from_u32(b.u32(16, "RDEF target")?);
    let compile_flags = b.u32(20, "RDEF compile flags")?;
    let creator_offset = b.u32(24, "RDEF creator offset")? as usize;
    let creator = b.cstr(creator_offset, "RDEF creator string", 24)?;

    let sm5_header = if target.is_sm5() {
        let w = |i: usize, what| b.u32(28 + 4 * i, what);
        let h = Sm5Header {
            magic: w(0, "RDEF SM5 magic")?,
            header_size: w(1, "RDEF header size")?,
            cbuffer_size: w(2, "RDEF constant buffer record size")?,
            binding_size: w(3, "RDEF binding record size")?,
            variable_size: w(4, "RDEF variable record size")?,
            type_size: w(5, "RDEF type record size")?,
            member_size: w(6, "RDEF member record size")?,
            interface_slots: w(7, "RDEF interface slot count")?,
        };
        if h.magic != MAGIC_RD11 && h.magic != MAGIC_RD11_51 {
            return Err(b.malformed(
                "RDEF header",
                28,
                format!("SM5 header magic {:#010x} is neither \"RD11\" nor 0x25441313", h.magic),
            ));
        }
        let expected_binding = if h.magic == MAGIC_RD11_51 { 40 } else { 32 };
        let checks = [
            (h.cbuffer_size, 24, 36, "constant buffer"),
            (h.binding_size, expected_binding, 40, "binding"),
            (h.variable_size, 40, 44, "variable"),
            (h.type_size, 36, 48, "type"),
            (h.member_size, 12, 52, "member"),
        ];
        for (found, want, at, what) in checks {
            if found != want {
                return Err(b.malformed("RDEF header", at, format!("{what} record size {found}, expected {want}")));
            }
        }
        Some(h)
    } else {
        None
    };
    let sm51 = sm5_header.is_some_and(|h| h.magic == MAGIC_RD11_51);
    let mut p = Parser {
        b,
        var_size: if sm5_header.is_some() { 40 } else { 24 },
        type_size: if sm5_header.is_some() { 36 } else { 16 },
        member_size: 12,
        types_left: MAX_TYPES.min(chunk.data.len().saturating_add(256)),
    };

    let n = b.check_array(cb_offset, cb_count, 24, "RDEF constant buffers", 0)?;
    let mut constant_buffers = Vec::with_capacity(n);
    for i in 0..n {
        constant_buffers.push(p.cbuffer(cb_offset + 24 * i)?);
    }

    let bind_size = if sm51 { 40 } else { 32 };
    let n = b.check_array(bind_offset, bind_count, bind_size, "RDEF bindings", 8)?;
    let mut bindings = Vec::with_capacity(n);
    for i in 0..n {
        let at = bind_offset + bind_size * i;
        let w = |k: usize, what| b.u32(at + 4 * k, what);
        let name_offset = w(0, "binding name offset")? as usize;
        bindings.push(InputBinding {
            name: b.cstr(name_offset, "binding name", at)?,
            input_type: InputType::from_raw(w(1, "binding input type")?),
            return_type: ReturnType::from_raw(w(2, "binding return type")?),
            dimension: Dimension::from_raw(w(3, "binding dimension")?),
            sample_count: w(4, "binding sample count")?,
            bind_point: w(5, "binding bind point")?,
            bind_count: w(6, "binding bind count")?,
            flags: w(7, "binding flags")?,
            space: if sm51 { Some(w(8, "binding register space")?) } else { None },
            id: if sm51 { Some(w(9, "binding range ID")?) } else { None },
        });
    }

    Ok(Reflection { target, compile_flags, creator, sm5_header, constant_buffers, bindings })
}

impl Parser<'_> {
    fn cbuffer(&mut self, at: usize) -> ReadResult<ConstantBuffer> {
        let b = self.b;
        let name_offset = b.u32(at, "constant buffer name offset")? as usize;
        let var_count = b.u32(at + 4, "constant buffer variable count")?;
        let var_offset = b.u32(at + 8, "constant buffer variable offset")? as usize;
        let size = b.u32(at + 12, "constant buffer size")?;
        let flags = b.u32(at + 16, "constant buffer flags")?;
        let kind = CbufferKind::from_raw(b.u32(at + 20, "constant buffer kind")?);
        let name = b.cstr(name_offset, "constant buffer name", at)?;
        let n = b.check_array(var_offset, var_count, self.var_size, "constant buffer variables", at + 4)?;
        let mut variables = Vec::with_capacity(n);
        for i in 0..n {
            variables.push(self.variable(var_offset + self.var_size * i)?);
        }
        Ok(ConstantBuffer { name, variables, size, flags, kind })
    }

    fn variable(&mut self, at: usize) -> ReadResult<Variable> {
        let b = self.b;
        let name_offset = b.u32(at, "variable name offset")? as usize;
        let offset = b.u32(at + 4, "variable offset")?;
        let size = b.u32(at + 8, "variable size")?;
        let flags = b.u32(at + 12, "variable flags")?;
        let type_offset = b.u32(at + 16, "variable type offset")? as usize;
        let default_offset = b.u32(at + 20, "variable default value offset")? as usize;
        let name = b.cstr(name_offset, "variable name", at)?;
        let ty = self.ty(type_offset, at + 16, 0)?;
        let default_value = if default_offset != 0 {
            b.pointer(default_offset as u32, "variable default value offset", at + 20)?;
            Some(b.slice(default_offset, size as usize, "variable default value")?.to_vec())
        } else {
            None
        };
        let (texture_slots, sampler_slots) = if self.var_size >= 40 {
            (
                Some((b.u32(at + 24, "variable start texture")?, b.u32(at + 28, "variable texture count")?)),
                Some((b.u32(at + 32, "variable start sampler")?, b.u32(at + 36, "variable sampler count")?)),
            )
        } else {
            (None, None)
        };
        Ok(Variable { name, offset, size, flags, ty, default_value, texture_slots, sampler_slots })
    }

    /// Reads the type at `at`; `field` is the offset of the word that pointed here.
    fn ty(&mut self, at: usize, field: usize, depth: u32) -> ReadResult<Type> {
        let b = self.b;
        if depth > MAX_TYPE_DEPTH {
            return Err(b.malformed("RDEF type", field, format!("struct members nested deeper than {MAX_TYPE_DEPTH}")));
        }
        if self.types_left == 0 {
            return Err(b.malformed(
                "RDEF type",
                field,
                "too many type descriptions read (members refer to shared types too often)",
            ));
        }
        self.types_left -= 1;
        b.pointer(at as u32, "type offset", field)?;
        b.slice(at, self.type_size, "type description")?;
        let class = VariableClass::from_raw(b.u16(at, "type class")?);
        let base = VariableType::from_raw(b.u16(at + 2, "type base")?);
        let rows = b.u16(at + 4, "type rows")?;
        let columns = b.u16(at + 6, "type columns")?;
        let elements = b.u16(at + 8, "type elements")?;
        let member_count = b.u16(at + 10, "type member count")?;
        let member_offset = b.u32(at + 12, "type member offset")? as usize;
        let name = if self.type_size >= 36 {
            let name_offset = b.u32(at + 32, "type name offset")? as usize;
            if name_offset == 0 {
                None
            } else {
                Some(b.cstr(name_offset, "type name", at + 32)?)
            }
        } else {
            None
        };
        let members = if member_count == 0 {
            Vec::new()
        } else {
            let n = b.check_array(member_offset, member_count.into(), self.member_size, "type members", at + 10)?;
            let mut members = Vec::with_capacity(n);
            for i in 0..n {
                let m = member_offset + self.member_size * i;
                let name_offset = b.u32(m, "member name offset")? as usize;
                let type_offset = b.u32(m + 4, "member type offset")? as usize;
                let offset = b.u32(m + 8, "member offset")?;
                let name = b.cstr(name_offset, "member name", m)?;
                let ty = self.ty(type_offset, m + 4, depth + 1)?;
                members.push(Member { name, offset, ty });
            }
            members
        };
        Ok(Type { class, base, rows, columns, elements, members, name })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadError;

    /// A zeroed chunk image with little-endian writers.
    struct Image(Vec<u8>);

    impl Image {
        fn new(len: usize) -> Self {
            Image(vec![0; len])
        }
        fn u32(&mut self, at: usize, v: u32) -> &mut Self {
            self.0[at..at + 4].copy_from_slice(&v.to_le_bytes());
            self
        }
        fn u16(&mut self, at: usize, v: u16) -> &mut Self {
            self.0[at..at + 2].copy_from_slice(&v.to_le_bytes());
            self
        }
        fn str(&mut self, at: usize, s: &str) -> &mut Self {
            self.0[at..at + s.len()].copy_from_slice(s.as_bytes());
            self.0[at + s.len()] = 0;
            self
        }
        fn chunk(&self) -> Chunk<'_> {
            Chunk { fourcc: *b"RDEF", offset: 100, data: &self.0 }
        }
    }

    /// An SM5.1 RDEF: one cbuffer with a `float4` that has a default value, one unbounded
    /// texture range in space 2 with range ID 7.
    fn sm51() -> Image {
        let mut i = Image::new(400);
        // Header: 1 cbuffer at 100, 1 binding at 200, ps_5_1, creator at 60.
        i.u32(0, 1).u32(4, 100).u32(8, 1).u32(12, 200).u32(16, 0xFFFF_0501).u32(20, 0x100).u32(24, 60);
        i.u32(28, MAGIC_RD11_51).u32(32, 60).u32(36, 24).u32(40, 40).u32(44, 40).u32(48, 36).u32(52, 12);
        i.str(60, "unit test");
        // cbuffer: name at 80, 1 variable at 124, 16 bytes, cbuffer kind.
        i.u32(100, 80).u32(104, 1).u32(108, 124).u32(112, 16).u32(116, 0).u32(120, 0);
        i.str(80, "cb");
        // variable: name at 84, offset 0, size 16, used, type at 164, default at 300.
        i.u32(124, 84).u32(128, 0).u32(132, 16).u32(136, 2).u32(140, 164).u32(144, 300);
        i.u32(148, u32::MAX).u32(152, 0).u32(156, u32::MAX).u32(160, 0);
        i.str(84, "color");
        // type: vector float 1x4, name at 90.
        i.u16(164, 1).u16(166, 3).u16(168, 1).u16(170, 4).u32(196, 90);
        i.str(90, "float4");
        // binding: name at 70, texture, float, 2d, samples -1, t3, unbounded, 4 components, space 2, ID 7.
        i.u32(200, 70).u32(204, 2).u32(208, 5).u32(212, 4).u32(216, u32::MAX).u32(220, 3).u32(224, 0).u32(228, 12);
        i.u32(232, 2).u32(236, 7);
        i.str(70, "tex");
        for k in 0..4 {
            i.u32(300 + 4 * k, (k as f32 + 1.0).to_bits());
        }
        i
    }

    #[test]
    fn sm51_layout_reads_space_id_and_default_values() {
        let i = sm51();
        let r = parse(&i.chunk()).unwrap();
        assert_eq!((r.target.prefix(), r.target.major, r.target.minor), (Some("ps"), 5, 1));
        assert_eq!(r.creator, "unit test");
        assert_eq!(r.sm5_header.unwrap().binding_size, 40);
        let v = &r.constant_buffers[0].variables[0];
        assert_eq!((v.name.as_str(), v.offset, v.size, v.is_used()), ("color", 0, 16, true));
        assert_eq!(v.ty.hlsl_name(), "float4");
        assert_eq!((v.ty.class, v.ty.base, v.ty.columns), (VariableClass::Vector, VariableType::Float, 4));
        let expected: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0].iter().flat_map(|f| f.to_le_bytes()).collect();
        assert_eq!(v.default_value.as_deref(), Some(&expected[..]));
        assert_eq!(v.texture_slots, Some((u32::MAX, 0)));
        let b = &r.bindings[0];
        assert_eq!(
            (b.name.as_str(), b.input_type, b.dimension, b.return_type),
            ("tex", InputType::Texture, Dimension::Texture2D, ReturnType::Float)
        );
        assert_eq!(
            (b.bind_point, b.bind_count, b.space, b.id, b.range_id(), b.components()),
            (3, 0, Some(2), Some(7), 7, 4)
        );
    }

    #[test]
    fn sm4_layout_builds_type_names() {
        // The same data read as SM4: 24-byte variables, 16-byte types without names.
        let mut i = Image::new(400);
        i.u32(0, 1).u32(4, 100).u32(16, 0xFFFE_0400).u32(24, 60).str(60, "sm4");
        i.u32(100, 80).u32(104, 2).u32(108, 124).u32(112, 64).str(80, "cb");
        // float3x4 (column major) at 0 and row_major float4x4 at 48, types at 200 and 216.
        i.u32(124, 84).u32(128, 0).u32(132, 48).u32(140, 200).str(84, "m");
        i.u32(148, 86).u32(152, 48).u32(156, 64).u32(164, 216).str(86, "r");
        i.u16(200, 3).u16(202, 3).u16(204, 3).u16(206, 4);
        i.u16(216, 2).u16(218, 3).u16(220, 4).u16(222, 4);
        let r = parse(&i.chunk()).unwrap();
        assert!(r.sm5_header.is_none());
        let names: Vec<String> = r.constant_buffers[0].variables.iter().map(|v| v.ty.hlsl_name()).collect();
        assert_eq!(names, ["float3x4", "row_major float4x4"]);
        assert!(r.constant_buffers[0].variables.iter().all(|v| v.texture_slots.is_none() && v.ty.name.is_none()));
    }

    #[test]
    fn self_referencing_struct_is_rejected_not_followed_forever() {
        let mut i = sm51();
        // The variable's type becomes a struct with one member whose type is the struct itself.
        i.u16(164, 5).u16(174, 1).u32(176, 240);
        i.u32(240, 84).u32(244, 164).u32(248, 0);
        let e = parse(&i.chunk()).unwrap_err();
        assert!(matches!(e, ReadError::Malformed { what: "RDEF type", .. }), "{e}");
    }

    #[test]
    fn counts_are_checked_against_the_bytes_present() {
        let mut i = sm51();
        i.u32(8, 0x0FFF_FFFF);
        let e = parse(&i.chunk()).unwrap_err();
        // Reported at the count's field (chunk offset 8, container offset 108).
        assert!(matches!(e, ReadError::Malformed { offset: 108, .. }), "{e}");
        let mut i = sm51();
        i.u32(140, 0xFFFF_0000);
        let e = parse(&i.chunk()).unwrap_err();
        assert!(matches!(e, ReadError::Malformed { offset: 240, .. }), "{e}");
    }

    #[test]
    fn unknown_sm5_magic_is_malformed() {
        let mut i = sm51();
        i.u32(28, 0x1234_5678);
        assert!(matches!(parse(&i.chunk()), Err(ReadError::Malformed { offset: 128, .. })));
    }
}
