//! `SFI0`: the shader's feature flags (`D3D_SHADER_REQUIRES_*`), a `u64` (older compilers may
//! write only the low `u32`).

use super::ChunkBytes;
use crate::container::Chunk;
use crate::error::ReadResult;

/// Feature-flag bits and their names (`D3D_SHADER_REQUIRES_*`).
pub const FLAG_NAMES: [(u64, &str); 24] = [
    (0x1, "Doubles"),
    (0x2, "EarlyDepthStencil"),
    (0x4, "UAVsAtEveryStage"),
    (0x8, "64UAVs"),
    (0x10, "MinimumPrecision"),
    (0x20, "11_1_DoubleExtensions"),
    (0x40, "11_1_ShaderExtensions"),
    (0x80, "Level9ComparisonFiltering"),
    (0x100, "TiledResources"),
    (0x200, "StencilRef"),
    (0x400, "InnerCoverage"),
    (0x800, "TypedUAVLoadAdditionalFormats"),
    (0x1000, "ROVs"),
    (0x2000, "ViewportAndRTArrayIndexFromAnyShaderFeedingRasterizer"),
    (0x4000, "WaveOps"),
    (0x8000, "Int64Ops"),
    (0x10000, "ViewID"),
    (0x20000, "Barycentrics"),
    (0x40000, "NativeLowPrecision"),
    (0x80000, "ShadingRate"),
    (0x100000, "Raytracing_Tier_1_1"),
    (0x200000, "SamplerFeedback"),
    (0x400000, "AtomicInt64OnTypedResource"),
    (0x800000, "AtomicInt64OnGroupShared"),
];

/// The `SFI0` chunk.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct FeatureFlags(pub u64);

impl FeatureFlags {
    /// Whether the shader needs double-precision support.
    pub fn doubles(self) -> bool {
        self.0 & 1 != 0
    }
    /// Names of the set bits (`"bit N"` for bits without a name).
    pub fn names(self) -> Vec<String> {
        (0..64)
            .map(|i| 1u64 << i)
            .filter(|bit| self.0 & bit != 0)
            .map(|bit| match FLAG_NAMES.iter().find(|(b, _)| *b == bit) {
                Some((_, n)) => (*n).to_string(),
                None => format!("bit {}", bit.trailing_zeros()),
            })
            .collect()
    }
}

/// Parses an `SFI0` chunk.
///
/// # Errors
/// [`ReadError::Truncated`](crate::ReadError::Truncated) when the chunk has fewer than 4 bytes.
pub fn parse(chunk: &Chunk<'_>) -> ReadResult<FeatureFlags> {
    let b = ChunkBytes::new(chunk);
    let low = b.u32(0, "feature flags")? as u64;
    let high = if chunk.data.len() >= 8 { b.u32(4, "feature flags (high word)")? as u64 } else { 0 };
    Ok(FeatureFlags(low | (high << 32)))
}
