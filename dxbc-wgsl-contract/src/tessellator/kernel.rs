//! The WGSL kernel's interface ([`super::WGSL`]): group 0's bindings, its uniform and per-patch
//! record, and the per-patch output bounds (docs/tessellation.md, "Output layout").

/// The kernel's bind group.
pub const GROUP: u32 = 0;
/// `TessParams`, uniform.
pub const PARAMS: u32 = 0;
/// The factors, f32 bits, `factor_stride` per patch (read-only storage).
pub const FACTORS: u32 = 1;
/// A [`PatchRange`] per patch.
pub const RANGES: u32 = 2;
/// The batch's total points and total indices (two u32s).
pub const TOTALS: u32 = 3;
/// Domain points, `vec2<u32>`: u, v as f32 bits.
pub const POINTS: u32 = 4;
/// Per point, the index of its patch in the batch.
pub const POINT_PATCHES: u32 = 5;
/// Indices, each offset by its patch's first point.
pub const INDICES: u32 = 6;

/// The kernel's entry points, in the order they run.
pub const ENTRY_POINTS: [&str; 3] = ["count", "scan", "write"];
/// Invocations per workgroup of `count` and `write` (one per patch).
pub const WORKGROUP_SIZE: u32 = 64;

/// At most this many domain points per patch (a quad at factor 64: 65 × 65).
pub const MAX_POINTS_PER_PATCH: u32 = 4225;
/// At most this many indices per patch (a quad at factor 64: 8192 triangles).
pub const MAX_INDICES_PER_PATCH: u32 = 24576;

/// The kernel's uniform (`TessParams` in the WGSL; 32 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TessParams {
    /// [`super::Domain::code`].
    pub domain: u32,
    /// [`super::Partitioning::code`].
    pub partitioning: u32,
    /// [`super::OutputPrimitive::code`].
    pub output: u32,
    /// Patches in the batch.
    pub patch_count: u32,
    /// u32s per patch in the factor buffer (at least the domain's factor count).
    pub factor_stride: u32,
    /// The dispatch's x size in workgroups (patch = x + y × `workgroups_x` × 64).
    pub workgroups_x: u32,
    /// Padding.
    pub pad0: u32,
    /// Padding.
    pub pad1: u32,
}

/// Bytes of [`TessParams`].
pub const TESS_PARAMS_SIZE: u64 = 32;

impl TessParams {
    /// The uniform's bytes (little-endian words).
    pub fn to_bytes(&self) -> [u8; 32] {
        let words = [
            self.domain,
            self.partitioning,
            self.output,
            self.patch_count,
            self.factor_stride,
            self.workgroups_x,
            self.pad0,
            self.pad1,
        ];
        let mut bytes = [0; 32];
        for (chunk, word) in bytes.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        bytes
    }
}

/// One patch's place in the batch's output (`PatchRange` in the WGSL; 16 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatchRange {
    /// Its first point in `POINTS` / `POINT_PATCHES`.
    pub first_point: u32,
    /// Its points.
    pub point_count: u32,
    /// Its first index in `INDICES`.
    pub first_index: u32,
    /// Its indices.
    pub index_count: u32,
}

/// Bytes of [`PatchRange`].
pub const PATCH_RANGE_SIZE: u64 = 16;
