//! `STAT`: the compiler's statistics, a flat array of `u32` counters (29 words for SM4, 37 from
//! SM5; other lengths are kept as they are).
//!
//! The counters are exposed raw; [`Statistics::named`] pairs the well-known ones with the names of
//! the matching `D3D11_SHADER_DESC` fields.

use super::ChunkBytes;
use crate::container::Chunk;
use crate::error::ReadResult;

/// Names of the counters in chunk order, as `D3D11_SHADER_DESC` calls them (`""` for words whose
/// meaning is not public).
pub const COUNTER_NAMES: [&str; 37] = [
    "InstructionCount",
    "TempRegisterCount",
    "DefCount",
    "DclCount",
    "FloatInstructionCount",
    "IntInstructionCount",
    "UintInstructionCount",
    "StaticFlowControlCount",
    "DynamicFlowControlCount",
    "MacroInstructionCount",
    "TempArrayCount",
    "ArrayInstructionCount",
    "CutInstructionCount",
    "EmitInstructionCount",
    "TextureNormalInstructions",
    "TextureLoadInstructions",
    "TextureCompInstructions",
    "TextureBiasInstructions",
    "TextureGradientInstructions",
    "MovInstructionCount",
    "MovcInstructionCount",
    "ConversionInstructionCount",
    "",
    "InputPrimitive",
    "GSOutputTopology",
    "GSMaxOutputVertexCount",
    "",
    "",
    "",
    "",
    "cControlPoints",
    "HSOutputPrimitive",
    "HSPartitioning",
    "TessellatorDomain",
    "cBarrierInstructions",
    "cInterlockedInstructions",
    "cTextureStoreInstructions",
];

/// The `STAT` chunk: raw counters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Statistics {
    /// Every `u32` word of the chunk, in order.
    pub counters: Vec<u32>,
}

impl Statistics {
    fn get(&self, i: usize) -> Option<u32> {
        self.counters.get(i).copied()
    }
    /// Instructions (`InstructionCount`).
    pub fn instruction_count(&self) -> Option<u32> {
        self.get(0)
    }
    /// Temp registers (`TempRegisterCount`).
    pub fn temp_register_count(&self) -> Option<u32> {
        self.get(1)
    }
    /// Declarations (`DclCount`).
    pub fn dcl_count(&self) -> Option<u32> {
        self.get(3)
    }
    /// The named counters present, with their values.
    pub fn named(&self) -> impl Iterator<Item = (&'static str, u32)> + '_ {
        self.counters.iter().zip(COUNTER_NAMES).filter(|(_, n)| !n.is_empty()).map(|(&v, n)| (n, v))
    }
}

/// Parses a `STAT` chunk.
///
/// # Errors
/// [`ReadError::Malformed`](crate::ReadError::Malformed) when the size is not a multiple of 4.
pub fn parse(chunk: &Chunk<'_>) -> ReadResult<Statistics> {
    let b = ChunkBytes::new(chunk);
    if !chunk.data.len().is_multiple_of(4) {
        return Err(b.malformed("STAT chunk", 0, format!("size {} is not a multiple of 4", chunk.data.len())));
    }
    let counters = chunk.data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    Ok(Statistics { counters })
}
