//! Stream output (D3D11.3 §14) as compute work over the primitive stage's output
//! (`docs/stream-output.md`): the kernels ([`STREAM_OUTPUT_WGSL`]), their one bind group and
//! uniform ([`SoParams`]), and D3D's stream-output limits.
//!
//! Per stream the declaration writes and per chunk of a prepared draw, the runtime dispatches
//! [`ENTRY_COUNT`], [`ENTRY_SCAN`] and [`ENTRY_WRITE`] in that order with one bind group
//! ([`SO_GROUP`]) holding the bindings below.

/// The bind group of the stream-output kernels (their only one).
pub const SO_GROUP: u32 = 0;
/// `var<uniform> so: SoParams`: the dispatch's [`SoParams`].
pub const SO_PARAMS: u32 = 0;
/// `var<uniform> so_entries: array<vec4<u32>, 2048>`: the declaration's entry table (a
/// uniform: eight storage buffers are WebGPU's default limit per stage).
pub const SO_ENTRIES: u32 = 1;
/// `var<storage, read> so_vertices`: the chunk's output vertices
/// ([`crate::geometry::OUTPUT_VERTICES`] of the geometry module).
pub const SO_OUTPUT_VERTICES: u32 = 2;
/// `var<storage, read> so_indices`: the chunk's restart-indexed lists
/// ([`crate::geometry::OUTPUT_INDICES`] of the geometry module).
pub const SO_OUTPUT_INDICES: u32 = 3;
/// `var<storage, read_write> so_scratch`: per invocation its primitive count, then its first
/// primitive; word `invocations` the primitives written, `invocations + 1 + slot` the slot's
/// filled size before the chunk.
pub const SO_SCRATCH: u32 = 4;
/// `var<storage, read_write> so_state`: the filled sizes, statistics and DrawAuto arguments
/// ([`SO_STATE_WORDS`] words).
pub const SO_STATE: u32 = 5;
/// `var<storage, read_write> so_bufN`: output slot `s` is binding `SO_TARGET_BASE + s`.
pub const SO_TARGET_BASE: u32 = 6;

/// Output streams (`D3D11_SO_STREAM_COUNT`).
pub const SO_STREAMS: u32 = 4;
/// Output slots (`D3D11_SO_BUFFER_SLOT_COUNT`).
pub const SO_SLOTS: u32 = 4;
/// The largest stride of a slot in bytes (`D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES`).
pub const SO_MAX_STRIDE: u32 = 2048;
/// Entries of a declaration at most (`D3D11_SO_STREAM_COUNT * D3D11_SO_OUTPUT_COMPONENT_COUNT`).
pub const SO_MAX_ENTRIES: usize = 512;
/// Entries of a resolved declaration the kernels take (their uniform table, 32 KiB): a
/// declaration's gaps are split into gaps of at most 4 components, and a slot's 2048 bytes hold
/// at most 512 of them, so 4 slots at most 2048.
pub const SO_MAX_KERNEL_ENTRIES: usize = 2048;
/// The register of a gap entry in the kernels' entry table.
pub const SO_GAP: u32 = 0xFFFF_FFFF;
/// Words of the state buffer ([`SO_STATE`]).
pub const SO_STATE_WORDS: usize = 52;
/// Word of the state holding slot `s`'s filled size in bytes: `SO_FILLED + s`.
pub const SO_FILLED: usize = 0;
/// First word of stream `n`'s statistics: `SO_STATISTICS + 8 n` holds (primitives written, low
/// and high word; primitives storage needed, low and high word; overflow 0 or 1).
pub const SO_STATISTICS: usize = 4;
/// First word of slot `s`'s DrawAuto arguments (`draw_indirect`'s vertex count, 1, 0, 0):
/// `SO_DRAW_AUTO + 4 s`.
pub const SO_DRAW_AUTO: usize = 36;
/// Bytes of the kernels' uniform ([`SoParams`]).
pub const SO_PARAMS_SIZE: u64 = 96;
/// Words of [`SoParams`].
pub const SO_PARAMS_WORDS: usize = 24;

/// The count kernel's entry point (one invocation per geometry invocation).
pub const ENTRY_COUNT: &str = "so_count";
/// The scan kernel's entry point (one workgroup).
pub const ENTRY_SCAN: &str = "so_scan";
/// The write kernel's entry point (one invocation per geometry invocation).
pub const ENTRY_WRITE: &str = "so_write";
/// The kernels' entry points, in dispatch order.
pub const ENTRY_POINTS: [&str; 3] = [ENTRY_COUNT, ENTRY_SCAN, ENTRY_WRITE];

/// The stream-output kernels (WGSL; entry points [`ENTRY_POINTS`]): `so_count` counts each
/// geometry invocation's primitives of the stream (strips decomposed as D3D does), `so_scan`
/// takes their prefix sum and applies D3D's overflow rule and updates the state, `so_write`
/// stores each written primitive's declared components.
pub const STREAM_OUTPUT_WGSL: &str = include_str!("wgsl/stream_output.wgsl");

/// The kernels' uniform (`struct SoParams` in WGSL): one stream of one chunk.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SoParams {
    /// Geometry invocations of the chunk.
    pub invocations: u32,
    /// Index words per invocation and stream region.
    pub index_stride: u32,
    /// First index word of the stream's region in the chunk's lists.
    pub index_base: u32,
    /// Registers per output vertex.
    pub registers: u32,
    /// Vertices per output primitive (1, 2 or 3).
    pub prim_vertices: u32,
    /// Entries of the table.
    pub entry_count: u32,
    /// The bound slots the stream writes, as a bit mask.
    pub slot_mask: u32,
    /// The slots whose filled size is set to their offset at this dispatch, as a bit mask.
    pub reset_mask: u32,
    /// Workgroups in x of the count and write dispatches.
    pub workgroups_x: u32,
    /// The stream.
    pub stream: u32,
    /// The slots the stream writes that have no buffer bound (D3D11.3 §14.6: as if full).
    pub unbound_mask: u32,
    /// Unused.
    pub pad1: u32,
    /// Per slot the byte offset writing starts at (with `reset_mask`).
    pub offsets: [u32; 4],
    /// Per slot the bound buffer's size in bytes.
    pub capacities: [u32; 4],
    /// Per slot the stride in bytes.
    pub strides: [u32; 4],
}

impl SoParams {
    /// The uniform's words, in declaration order.
    pub fn to_words(&self) -> [u32; SO_PARAMS_WORDS] {
        let mut w = [0u32; SO_PARAMS_WORDS];
        w[..12].copy_from_slice(&[
            self.invocations,
            self.index_stride,
            self.index_base,
            self.registers,
            self.prim_vertices,
            self.entry_count,
            self.slot_mask,
            self.reset_mask,
            self.workgroups_x,
            self.stream,
            self.unbound_mask,
            self.pad1,
        ]);
        w[12..16].copy_from_slice(&self.offsets);
        w[16..20].copy_from_slice(&self.capacities);
        w[20..24].copy_from_slice(&self.strides);
        w
    }
}
