//! The SM4/SM5 tokenized program format (D3D11.3 functional spec, §22 "Shader Token Format";
//! `d3d11tokenizedprogramformat.hpp`).
//!
//! - [`opcodes`]: the one opcode table (name, operand roles and types, declaration layout); the
//!   decoder, the disassembler and the IR builder all read it.
//! - [`operand`]: operand tokens (register types, indices, component selection, modifiers).
//! - [`decode`]: the decoder, from a `SHDR`/`SHEX` chunk to a [`Program`].
//! - [`decl`]: declarations decoded once into typed values ([`Declaration`]), which the IR
//!   builder and the disassembler read instead of the token bits.
//! - [`disasm`]: fxc-syntax disassembler.

pub mod decl;
pub mod decode;
pub mod disasm;
pub mod opcodes;
pub mod operand;

pub use decl::{CustomData, Declaration};
pub use decode::{decode_program, Instruction, Program};
pub use opcodes::{OpInfo, Opcode};
pub use operand::{ComponentSelect, Index, Modifier, Operand, OperandType};

/// The pipeline stage of a program (the version token's program type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum ShaderStage {
    /// Program type 0.
    Pixel,
    /// Program type 1.
    Vertex,
    /// Program type 2.
    Geometry,
    /// Program type 3.
    Hull,
    /// Program type 4.
    Domain,
    /// Program type 5.
    Compute,
}

impl ShaderStage {
    /// From the version token's program type.
    pub fn from_program_type(t: u32) -> Option<Self> {
        Some(match t {
            0 => ShaderStage::Pixel,
            1 => ShaderStage::Vertex,
            2 => ShaderStage::Geometry,
            3 => ShaderStage::Hull,
            4 => ShaderStage::Domain,
            5 => ShaderStage::Compute,
            _ => return None,
        })
    }
    /// fxc's two-letter prefix (`ps`, `vs`, `gs`, `hs`, `ds`, `cs`).
    pub fn prefix(self) -> &'static str {
        match self {
            ShaderStage::Pixel => "ps",
            ShaderStage::Vertex => "vs",
            ShaderStage::Geometry => "gs",
            ShaderStage::Hull => "hs",
            ShaderStage::Domain => "ds",
            ShaderStage::Compute => "cs",
        }
    }
    /// Lower-case stage name used in reports (`vertex`, `pixel`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ShaderStage::Pixel => "pixel",
            ShaderStage::Vertex => "vertex",
            ShaderStage::Geometry => "geometry",
            ShaderStage::Hull => "hull",
            ShaderStage::Domain => "domain",
            ShaderStage::Compute => "compute",
        }
    }
}

/// The version token: stage and shader model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShaderVersion {
    /// Stage.
    pub stage: ShaderStage,
    /// Major shader model (4 or 5).
    pub major: u8,
    /// Minor shader model (0 or 1).
    pub minor: u8,
}

impl ShaderVersion {
    /// SM5.1 or later (3-index resource operands, register spaces).
    pub fn is_sm51(&self) -> bool {
        (self.major, self.minor) >= (5, 1)
    }
}
