// Stream output (D3D11.3 §14) through the primitive stage, driven over wgpu.
//
// Like `primitive_stage_runtime.rs`, this file uses only `std` and `wgpu`; `dxbc-wgsl-gpu`
// compiles it as `dxbc_wgsl_gpu::stream_output` (and checks its kernels with naga). It owns the
// stream-output kernels (`STREAM_OUTPUT_WGSL`) and `StreamOutput`, which encodes, per stream the
// declaration uses and per chunk of a prepared draw, the count, scan and write dispatches over
// the geometry module's output (`docs/stream-output.md` has the design).
//
// The filled size of every slot (D3D's BufferFilledSize), the statistics of every stream
// (D3D11_QUERY_SO_STATISTICS_STREAMn: primitives written, primitives storage needed;
// D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAMn) and the DrawAuto arguments of every slot live in
// one GPU buffer, `StreamOutput::state`: a later draw appends after the filled size, and
// `StreamOutput::draw_auto` draws what was written without a read-back.

use std::fmt;

/// The stream-output kernels (WGSL; entry points `so_count`, `so_scan`, `so_write`).
pub const STREAM_OUTPUT_WGSL: &str = r#"// Stream output (D3D11.3 §14) of one stream of one chunk of the primitive stage's output.
//
// The geometry module wrote, per invocation `t`, restart-indexed lists of output vertex slots
// for the stream (`index_stride` words from `index_base + t * index_stride`). Three entry points,
// dispatched in order:
// - `so_count` (one invocation per geometry invocation): the primitives of the invocation's
//   lists, strips decomposed as D3D does (points; lines; triangles, an odd triangle of a strip
//   as `(k, k+2, k+1)` to keep its winding; an incomplete primitive at a cut dropped);
// - `so_scan` (one workgroup): the exclusive prefix sum of the counts in invocation order, and
//   D3D's overflow rule: the primitives written are the longest prefix that every bound buffer
//   of the stream can hold; the filled sizes, the statistics and the DrawAuto arguments update;
// - `so_write` (one invocation per geometry invocation): each primitive below the written
//   count stores its vertices' declared components at its place.

struct SoParams {
    invocations: u32,
    index_stride: u32,
    index_base: u32,
    registers: u32,
    prim_vertices: u32,
    entry_count: u32,
    slot_mask: u32,
    reset_mask: u32,
    workgroups_x: u32,
    stream: u32,
    // The slots the stream writes that have no buffer bound (D3D11.3 §14.6: as if full).
    unbound_mask: u32,
    pad1: u32,
    offsets: vec4<u32>,
    capacities: vec4<u32>,
    strides: vec4<u32>,
}

@group(0) @binding(0) var<uniform> so: SoParams;
// Per entry (a uniform: eight storage buffers are WebGPU's default limit per stage):
// (output register or 0xFFFFFFFF for a gap, first component, components,
// slot | byte offset in the vertex << 8).
@group(0) @binding(1) var<uniform> so_entries: array<vec4<u32>, 2048>;
@group(0) @binding(2) var<storage, read> so_vertices: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> so_indices: array<u32>;
// Per invocation its primitive count, then its first primitive; word `invocations` the
// primitives written, `invocations + 1 + slot` the slot's filled size before the chunk.
@group(0) @binding(4) var<storage, read_write> so_scratch: array<u32>;
// Filled sizes (4), per stream (written lo/hi, needed lo/hi, overflow, 3 unused), DrawAuto
// arguments per slot (vertex count, 1, 0, 0).
@group(0) @binding(5) var<storage, read_write> so_state: array<u32>;
@group(0) @binding(6) var<storage, read_write> so_buf0: array<u32>;
@group(0) @binding(7) var<storage, read_write> so_buf1: array<u32>;
@group(0) @binding(8) var<storage, read_write> so_buf2: array<u32>;
@group(0) @binding(9) var<storage, read_write> so_buf3: array<u32>;

const SO_NONE: u32 = 0xFFFFFFFFu;
const SO_STATS: u32 = 4u;
const SO_DRAW_AUTO: u32 = 36u;

fn so_invocation(wg: vec3<u32>, li: u32) -> u32 {
    return (wg.y * so.workgroups_x + wg.x) * 64u + li;
}

fn so_index(t: u32, e: u32) -> u32 {
    let at = so.index_base + t * so.index_stride + e;
    if (at >= arrayLength(&so_indices)) {
        return SO_NONE;
    }
    return so_indices[at];
}

fn so_store(slot: u32, w: u32, v: u32) {
    switch slot {
        case 0u: { if (w < arrayLength(&so_buf0)) { so_buf0[w] = v; } }
        case 1u: { if (w < arrayLength(&so_buf1)) { so_buf1[w] = v; } }
        case 2u: { if (w < arrayLength(&so_buf2)) { so_buf2[w] = v; } }
        case 3u: { if (w < arrayLength(&so_buf3)) { so_buf3[w] = v; } }
        default: {}
    }
}

fn so_vertex_word(vslot: u32, r: u32, c: u32) -> u32 {
    let at = vslot * so.registers + r;
    if (r >= so.registers || c > 3u || at >= arrayLength(&so_vertices)) {
        return 0u;
    }
    return so_vertices[at][c];
}

// Writes primitive `k` (vertices `p`) of the stream, unless past the written count.
fn so_emit_primitive(k: u32, p: array<u32, 3>) {
    let written = so_scratch[so.invocations];
    if (k >= written) {
        return;
    }
    for (var v = 0u; v < so.prim_vertices; v++) {
        for (var e = 0u; e < so.entry_count; e++) {
            let en = so_entries[e];
            let slot = en.w & 0xFFu;
            if (en.x == SO_NONE || slot > 3u || (so.slot_mask & (1u << slot)) == 0u) {
                continue;
            }
            let byte = so_scratch[so.invocations + 1u + slot] + (k * so.prim_vertices + v) * so.strides[slot] + (en.w >> 8u);
            for (var c = 0u; c < en.z; c++) {
                so_store(slot, byte / 4u + c, so_vertex_word(p[v], en.x, en.y + c));
            }
        }
    }
}

// Walks invocation `t`'s primitives; writes them from primitive `first` when `write`, and
// returns how many there are.
fn so_walk(t: u32, first: u32, write: bool) -> u32 {
    var count = 0u;
    var run = 0u;
    var a = 0u;
    var b = 0u;
    for (var e = 0u; e < so.index_stride; e++) {
        let w = so_index(t, e);
        if (w == SO_NONE) {
            run = 0u;
            continue;
        }
        run++;
        var p = array<u32, 3>(w, 0u, 0u);
        var whole = false;
        if (so.prim_vertices == 1u) {
            whole = true;
        } else if (so.prim_vertices == 2u) {
            whole = run >= 2u;
            p = array<u32, 3>(b, w, 0u);
        } else {
            whole = run >= 3u;
            if (((run - 3u) & 1u) == 1u) {
                p = array<u32, 3>(a, w, b);
            } else {
                p = array<u32, 3>(a, b, w);
            }
        }
        if (whole) {
            if (write) {
                so_emit_primitive(first + count, p);
            }
            count++;
        }
        a = b;
        b = w;
    }
    return count;
}

@compute @workgroup_size(64)
fn so_count(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let t = so_invocation(wg, li);
    if (t >= so.invocations) {
        return;
    }
    so_scratch[t] = so_walk(t, 0u, false);
}

var<workgroup> so_sums: array<u32, 64>;

fn so_add64(at: u32, v: u32) {
    let lo = so_state[at] + v;
    if (lo < v) {
        so_state[at + 1u] = so_state[at + 1u] + 1u;
    }
    so_state[at] = lo;
}

@compute @workgroup_size(64)
fn so_scan(@builtin(local_invocation_index) li: u32) {
    let n = so.invocations;
    let per = (n + 63u) / 64u;
    let begin = min(li * per, n);
    let end = min(begin + per, n);
    var sum = 0u;
    for (var t = begin; t < end; t++) {
        sum += so_scratch[t];
    }
    so_sums[li] = sum;
    workgroupBarrier();
    var before = 0u;
    for (var l = 0u; l < li; l++) {
        before += so_sums[l];
    }
    var total = before;
    for (var l = li; l < 64u; l++) {
        total += so_sums[l];
    }
    for (var t = begin; t < end; t++) {
        let c = so_scratch[t];
        so_scratch[t] = before;
        before += c;
    }
    if (li != 0u) {
        return;
    }
    // D3D's overflow rule: a primitive is written only if every bound buffer of the stream
    // holds it whole.
    var fit = SO_NONE;
    for (var s = 0u; s < 4u; s++) {
        if ((so.reset_mask & (1u << s)) != 0u) {
            so_state[s] = so.offsets[s];
        }
        if ((so.slot_mask & (1u << s)) == 0u) {
            continue;
        }
        let filled = so_state[s];
        let room = select(0u, so.capacities[s] - filled, so.capacities[s] > filled);
        fit = min(fit, room / (so.strides[s] * so.prim_vertices));
    }
    if (so.unbound_mask != 0u) {
        fit = 0u;
    }
    let written = min(total, fit);
    so_scratch[n] = written;
    for (var s = 0u; s < 4u; s++) {
        so_scratch[n + 1u + s] = so_state[s];
        if ((so.slot_mask & (1u << s)) == 0u) {
            continue;
        }
        let filled = so_state[s] + written * so.strides[s] * so.prim_vertices;
        so_state[s] = filled;
        so_state[SO_DRAW_AUTO + 4u * s] = filled / so.strides[s];
        so_state[SO_DRAW_AUTO + 4u * s + 1u] = 1u;
        so_state[SO_DRAW_AUTO + 4u * s + 2u] = 0u;
        so_state[SO_DRAW_AUTO + 4u * s + 3u] = 0u;
    }
    let stats = SO_STATS + 8u * min(so.stream, 3u);
    so_add64(stats, written);
    so_add64(stats + 2u, total);
    if (written < total) {
        so_state[stats + 4u] = 1u;
    }
}

@compute @workgroup_size(64)
fn so_write(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let t = so_invocation(wg, li);
    if (t >= so.invocations) {
        return;
    }
    so_walk(t, so_scratch[t], true);
}
"#;

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
/// Words of `StreamOutput::state`.
pub const SO_STATE_WORDS: usize = 52;
/// Word of the state holding slot `s`'s filled size in bytes: `SO_FILLED + s`.
pub const SO_FILLED: usize = 0;
/// First word of stream `n`'s statistics: `SO_STATISTICS + 8 n` holds (primitives written, low
/// and high word; primitives storage needed, low and high word; overflow 0 or 1).
pub const SO_STATISTICS: usize = 4;
/// First word of slot `s`'s DrawAuto arguments (`draw_indirect`'s vertex count, 1, 0, 0):
/// `SO_DRAW_AUTO + 4 s`.
pub const SO_DRAW_AUTO: usize = 36;
/// Bytes of the kernels' uniform.
const SO_PARAMS_SIZE: u64 = 96;

/// One entry of a declaration (`D3D11_SO_DECLARATION_ENTRY`), resolved to the geometry
/// shader's output register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SoEntry {
    /// The stream (0-3).
    pub stream: u32,
    /// The output register the entry reads; `None` for a gap (`SemanticName` null: the
    /// components are skipped, the buffer's bytes there untouched).
    pub register: Option<u32>,
    /// `StartComponent` (0-3).
    pub start_component: u32,
    /// `ComponentCount` (1-4, `start_component + component_count <= 4`).
    pub component_count: u32,
    /// `OutputSlot` (0-3).
    pub slot: u32,
}

/// A pass's stream-output declaration, resolved (`CreateGeometryShaderWithStreamOutput`'s
/// arguments).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SoDesc {
    /// The entries in declaration order: per slot, the entries of that slot lie one after the
    /// other in each vertex in this order.
    pub entries: Vec<SoEntry>,
    /// Bytes per vertex of each slot (`pBufferStrides`); 0 for a slot no entry uses.
    pub strides: [u32; 4],
    /// The stream drawn (`RasterizedStream`), or none (`D3D11_SO_NO_RASTERIZED_STREAM`).
    pub rasterized_stream: Option<u32>,
}

/// A stream-output error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamOutputError {
    /// The declaration breaks one of D3D's rules (`CreateGeometryShaderWithStreamOutput` would
    /// fail).
    InvalidDeclaration(String),
    /// The bound targets or the draw break one of D3D's rules, or exceed what is emulated.
    InvalidTargets(String),
    /// wgpu failed (mapping a buffer).
    Device(String),
}

impl fmt::Display for StreamOutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamOutputError::InvalidDeclaration(s) => write!(f, "invalid stream-output declaration: {s}"),
            StreamOutputError::InvalidTargets(s) => write!(f, "invalid stream-output targets: {s}"),
            StreamOutputError::Device(s) => write!(f, "stream output: {s}"),
        }
    }
}

impl std::error::Error for StreamOutputError {}

impl SoDesc {
    /// Checks D3D's rules for a declaration (D3D11.3 §14.4): streams and slots 0-3, components
    /// within a register, one stream per slot, each slot's entries within its stride, strides a
    /// multiple of 4 bytes up to 2048, the rasterized stream 0-3.
    ///
    /// # Errors
    /// [`StreamOutputError::InvalidDeclaration`] naming the broken rule.
    pub fn validate(&self) -> Result<(), StreamOutputError> {
        let bad = |s: String| Err(StreamOutputError::InvalidDeclaration(s));
        if self.entries.is_empty() {
            return bad("no entries".into());
        }
        if self.entries.len() > SO_MAX_KERNEL_ENTRIES {
            return bad(format!("{} entries (at most {SO_MAX_KERNEL_ENTRIES} once gaps are split)", self.entries.len()));
        }
        if let Some(r) = self.rasterized_stream.filter(|&r| r >= SO_STREAMS) {
            return bad(format!("rasterized stream {r} (streams are 0-3)"));
        }
        let mut slot_stream = [None::<u32>; 4];
        let mut bytes = [0u32; 4];
        for (i, e) in self.entries.iter().enumerate() {
            if e.stream >= SO_STREAMS {
                return bad(format!("entry {i}: stream {} (streams are 0-3)", e.stream));
            }
            if e.slot >= SO_SLOTS {
                return bad(format!("entry {i}: output slot {} (slots are 0-3)", e.slot));
            }
            if e.register.is_some_and(|r| r >= 32) {
                return bad(format!("entry {i}: output register {:?}", e.register));
            }
            if e.component_count == 0 || e.start_component > 3 || e.start_component + e.component_count > 4 {
                return bad(format!(
                    "entry {i}: components {}..{} (within one register's 4)",
                    e.start_component,
                    e.start_component + e.component_count
                ));
            }
            let s = e.slot as usize;
            match slot_stream[s] {
                Some(st) if st != e.stream => {
                    return bad(format!("entry {i}: slot {} holds streams {st} and {}", e.slot, e.stream))
                }
                _ => slot_stream[s] = Some(e.stream),
            }
            bytes[s] += 4 * e.component_count;
        }
        for s in 0..4 {
            let stride = self.strides[s];
            if slot_stream[s].is_none() {
                continue;
            }
            if stride == 0 || !stride.is_multiple_of(4) || stride > SO_MAX_STRIDE {
                return bad(format!("slot {s}: stride {stride} (a multiple of 4 bytes, 4-{SO_MAX_STRIDE})"));
            }
            if bytes[s] > stride {
                return bad(format!("slot {s}: its entries take {} bytes, past its stride {stride}", bytes[s]));
            }
        }
        Ok(())
    }

    /// The streams the declaration writes, as a bit mask.
    pub fn streams(&self) -> u32 {
        self.entries.iter().fold(0, |m, e| m | (1 << e.stream))
    }

    /// The slots stream `stream` writes, as a bit mask.
    pub fn slots_of(&self, stream: u32) -> u32 {
        self.entries.iter().filter(|e| e.stream == stream).fold(0, |m, e| m | (1 << e.slot))
    }

    /// The kernels' entry table: per entry `(register or SO_GAP, first component, components,
    /// slot | byte offset in the slot's vertex << 8)`.
    pub fn entry_table(&self) -> Vec<[u32; 4]> {
        let mut offset = [0u32; 4];
        self.entries
            .iter()
            .map(|e| {
                let s = e.slot as usize;
                let at = offset[s];
                offset[s] += 4 * e.component_count;
                [e.register.unwrap_or(SO_GAP), e.start_component, e.component_count, e.slot | (at << 8)]
            })
            .collect()
    }
}

/// One stream's statistics: `D3D11_QUERY_SO_STATISTICS_STREAMn`'s
/// `D3D11_QUERY_DATA_SO_STATISTICS` and `D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAMn`, since the
/// last [`StreamOutput::reset_statistics`] (or [`StreamOutput::new`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SoStatistics {
    /// `NumPrimitivesWritten`.
    pub primitives_written: u64,
    /// `PrimitivesStorageNeeded`.
    pub primitives_storage_needed: u64,
    /// Whether a primitive did not fit (the overflow predicate).
    pub overflow: bool,
}

/// The state buffer ([`StreamOutput::state`]) decoded, once copied to a mappable buffer and
/// read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SoState {
    /// Per slot its filled size in bytes (D3D's `BufferFilledSize`, from the binding's start).
    pub filled_size: [u32; 4],
    /// Per stream.
    pub statistics: [SoStatistics; 4],
}

impl SoState {
    /// Decodes the state buffer's first [`SO_STATE_WORDS`] words (little-endian `u32`s, as
    /// `bytes` read back); `None` when `bytes` is shorter.
    pub fn from_bytes(bytes: &[u8]) -> Option<SoState> {
        if bytes.len() < SO_STATE_WORDS * 4 {
            return None;
        }
        let word = |i: usize| u32::from_le_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]]);
        let wide = |i: usize| u64::from(word(i)) | (u64::from(word(i + 1)) << 32);
        let mut state = SoState::default();
        for s in 0..4 {
            state.filled_size[s] = word(SO_FILLED + s);
            let base = SO_STATISTICS + 8 * s;
            state.statistics[s] = SoStatistics {
                primitives_written: wide(base),
                primitives_storage_needed: wide(base + 2),
                overflow: word(base + 4) != 0,
            };
        }
        Some(state)
    }
}

/// Where a slot's writing starts (`SOSetTargets`' offset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SoStart {
    /// At this byte offset of the binding (a multiple of 4): the filled size is set to it.
    Offset(u32),
    /// After what the slot holds (offset `-1`: the filled size the state keeps).
    Append,
}

/// A buffer bound to an output slot (`SOSetTargets`): it needs `BufferUsages::STORAGE`.
#[derive(Debug, Clone, Copy)]
pub struct SoTarget<'a> {
    /// The buffer.
    pub buffer: &'a wgpu::Buffer,
    /// Where writing starts.
    pub start: SoStart,
}

/// What the stream-output pass reads of one chunk of a prepared draw: the geometry module's
/// output vertices and its per-stream restart-indexed lists.
#[derive(Debug, Clone, Copy)]
pub struct SoChunk<'a> {
    /// The output vertices (`registers` `vec4<u32>` each).
    pub vertices: &'a wgpu::Buffer,
    /// The lists: stream region `r` of invocation `t` at words
    /// `(r * invocations + t) * index_stride ..`.
    pub indices: &'a wgpu::Buffer,
    /// Geometry invocations of the chunk.
    pub invocations: u32,
}

/// Per stream, the region of the geometry module's lists it was written to (the lowering's
/// stream order), and how the lists read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoLayout {
    /// Registers per output vertex.
    pub registers: u32,
    /// Index words per invocation and stream region.
    pub index_stride: u32,
    /// Vertices per output primitive: 1 (point list), 2 (line strip), 3 (triangle strip).
    pub prim_vertices: u32,
    /// The region of each stream (`None`: the shader emits nothing there).
    pub regions: [Option<u32>; 4],
}

/// Bytes of one `SoParams` uniform slot (a multiple of every adapter's uniform offset alignment).
const SO_PARAMS_STRIDE: u64 = 256;

/// The stream-output pass of one declaration: its pipelines and its state buffer.
#[derive(Debug)]
pub struct StreamOutput {
    desc: SoDesc,
    layout: SoLayout,
    count: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
    write: wgpu::ComputePipeline,
    group_layout: wgpu::BindGroupLayout,
    entries: wgpu::Buffer,
    state: wgpu::Buffer,
    sink: [wgpu::Buffer; 4],
}

fn so_entry(binding: u32, ty: wgpu::BufferBindingType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
        count: None,
    }
}

impl StreamOutput {
    /// The pipelines of `desc` over output laid out as `layout`, and a zeroed state buffer
    /// (`STORAGE | INDIRECT | COPY_SRC | COPY_DST`).
    ///
    /// # Errors
    /// [`StreamOutputError::InvalidDeclaration`] when `desc` breaks D3D's rules, reads a
    /// register past `layout.registers`, or writes a stream the layout has no region for
    /// (the geometry shader was translated without it); [`StreamOutputError::Device`] when a
    /// buffer cannot be mapped.
    pub fn new(device: &wgpu::Device, desc: &SoDesc, layout: &SoLayout) -> Result<Self, StreamOutputError> {
        desc.validate()?;
        if !(1..=3).contains(&layout.prim_vertices) || layout.index_stride == 0 {
            return Err(StreamOutputError::InvalidDeclaration(format!(
                "output of {} vertices per primitive, {} index words per invocation",
                layout.prim_vertices, layout.index_stride
            )));
        }
        for e in &desc.entries {
            if e.register.is_some_and(|r| r >= layout.registers) {
                return Err(StreamOutputError::InvalidDeclaration(format!(
                    "stream {} reads o{} past the shader's {} output registers",
                    e.stream,
                    e.register.unwrap_or(0),
                    layout.registers
                )));
            }
            if layout.regions[e.stream as usize].is_none() {
                return Err(StreamOutputError::InvalidDeclaration(format!(
                    "stream {} is declared but the geometry shader's translation keeps no output for it",
                    e.stream
                )));
            }
        }
        use wgpu::BufferBindingType as T;
        let mut layout_entries = vec![
            so_entry(0, T::Uniform),
            so_entry(1, T::Uniform),
            so_entry(2, T::Storage { read_only: true }),
            so_entry(3, T::Storage { read_only: true }),
            so_entry(4, T::Storage { read_only: false }),
            so_entry(5, T::Storage { read_only: false }),
        ];
        layout_entries.extend((6..10).map(|b| so_entry(b, T::Storage { read_only: false })));
        let group_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("stream output"),
            entries: &layout_entries,
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("stream output"),
            bind_group_layouts: &[Some(&group_layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("stream output"),
            source: wgpu::ShaderSource::Wgsl(STREAM_OUTPUT_WGSL.into()),
        });
        let pipeline = |entry: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let table: Vec<u32> = desc.entry_table().iter().flatten().copied().collect();
        let entries = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stream output: entries"),
            size: SO_MAX_KERNEL_ENTRIES as u64 * 16,
            usage: wgpu::BufferUsages::UNIFORM,
            mapped_at_creation: true,
        });
        let mut bytes = vec![0u8; entries.size() as usize];
        for (i, w) in table.iter().enumerate() {
            bytes[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        entries
            .get_mapped_range_mut(..)
            .map_err(|e| StreamOutputError::Device(format!("mapping the entry table: {e}")))?
            .copy_from_slice(&bytes);
        entries.unmap();
        let state = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stream output: state"),
            size: SO_STATE_WORDS as u64 * 4,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::INDIRECT
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let sink = std::array::from_fn(|s| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&format!("stream output: unbound slot {s}")),
                size: 16,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            })
        });
        Ok(StreamOutput {
            desc: desc.clone(),
            layout: layout.clone(),
            count: pipeline("so_count"),
            scan: pipeline("so_scan"),
            write: pipeline("so_write"),
            group_layout,
            entries,
            state,
            sink,
        })
    }

    /// The declaration.
    pub fn desc(&self) -> &SoDesc {
        &self.desc
    }

    /// The layout of the output it reads.
    pub fn layout(&self) -> &SoLayout {
        &self.layout
    }

    /// The state buffer: filled sizes ([`SO_FILLED`]), statistics ([`SO_STATISTICS`]), DrawAuto
    /// arguments ([`SO_DRAW_AUTO`]); zero after [`StreamOutput::new`].
    pub fn state(&self) -> &wgpu::Buffer {
        &self.state
    }

    /// Zeroes the statistics of every stream (a new `Begin` of the SO queries).
    pub fn reset_statistics(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.clear_buffer(&self.state, SO_STATISTICS as u64 * 4, Some(32 * 4));
    }

    /// D3D's DrawAuto: draws the vertices slot `slot` holds (its filled size over its stride),
    /// from the arguments the last stream-output pass left on the GPU. The render pass draws
    /// with a vertex buffer of that slot's buffer and stride.
    pub fn draw_auto(&self, pass: &mut wgpu::RenderPass<'_>, slot: u32) {
        let slot = u64::from(slot.min(SO_SLOTS - 1));
        pass.draw_indirect(&self.state, (SO_DRAW_AUTO as u64 + 4 * slot) * 4);
    }

    /// Encodes the stream output of a prepared draw's `chunks` (in draw order) into `targets`
    /// (per slot; `None`: unbound, which D3D11.3 §14.6 treats as a full buffer: a stream that
    /// writes an unbound slot writes nothing, its primitives still counted as needed): per
    /// stream the declaration writes, per chunk, the count, scan and write dispatches. A slot
    /// with [`SoStart::Offset`] starts there (at its first chunk); [`SoStart::Append`] after its
    /// filled size.
    ///
    /// # Errors
    /// [`StreamOutputError::Device`] when a buffer cannot be mapped;
    /// [`StreamOutputError::InvalidTargets`] for a misaligned offset, a buffer larger than one
    /// storage binding of `device` (`max_storage_buffer_binding_size`) or than 4 GiB, or a chunk
    /// of over 2^31 invocations.
    pub fn encode(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        chunks: &[SoChunk<'_>],
        targets: [Option<SoTarget<'_>>; 4],
    ) -> Result<(), StreamOutputError> {
        let bad = |s: String| Err(StreamOutputError::InvalidTargets(s));
        // Each target is bound whole as a storage buffer.
        let binding_limit = device.limits().max_storage_buffer_binding_size;
        let mut bound = 0u32;
        let mut capacities = [0u32; 4];
        let mut offsets = [0u32; 4];
        let mut reset = 0u32;
        for (s, t) in targets.iter().enumerate() {
            let Some(t) = t else { continue };
            if t.buffer.size() > binding_limit {
                return bad(format!(
                    "slot {s}: a buffer of {} bytes, over the device's max_storage_buffer_binding_size ({binding_limit})",
                    t.buffer.size()
                ));
            }
            let Ok(size) = u32::try_from(t.buffer.size()) else {
                return bad(format!("slot {s}: a buffer of {} bytes (4 GiB at most)", t.buffer.size()));
            };
            bound |= 1 << s;
            capacities[s] = size;
            if let SoStart::Offset(o) = t.start {
                if !o.is_multiple_of(4) {
                    return bad(format!("slot {s}: offset {o} is not a multiple of 4"));
                }
                offsets[s] = o;
                reset |= 1 << s;
            }
        }
        let max_invocations = chunks.iter().map(|c| c.invocations).max().unwrap_or(0);
        if max_invocations > (1 << 31) {
            return bad(format!("a chunk of {max_invocations} invocations"));
        }
        let streams: Vec<u32> = (0..SO_STREAMS).filter(|&s| self.desc.streams() & (1 << s) != 0).collect();
        let dispatches = streams.len() * chunks.len();
        if dispatches == 0 {
            return Ok(());
        }
        // The params of every (stream, chunk), one uniform slot each.
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stream output: params"),
            size: dispatches as u64 * SO_PARAMS_STRIDE,
            usage: wgpu::BufferUsages::UNIFORM,
            mapped_at_creation: true,
        });
        let scratch = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stream output: scratch"),
            size: (u64::from(max_invocations) + 5) * 4,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let mut plan = Vec::new();
        let mut view = vec![0u8; params.size() as usize];
        {
            let mut k = 0usize;
            for &stream in &streams {
                let mask = self.desc.slots_of(stream) & bound;
                let region = self.layout.regions[stream as usize].unwrap_or(0);
                // The offsets apply at the stream's first chunk only.
                let mut stream_reset = reset & self.desc.slots_of(stream);
                for c in chunks {
                    let wx = c.invocations.div_ceil(64).clamp(1, 65535);
                    let wy = c.invocations.div_ceil(64).div_ceil(wx).max(1);
                    let mut w = [0u32; 24];
                    w[0] = c.invocations;
                    w[1] = self.layout.index_stride;
                    w[2] = region * c.invocations * self.layout.index_stride;
                    w[3] = self.layout.registers;
                    w[4] = self.layout.prim_vertices;
                    w[5] = self.desc.entries.len() as u32;
                    w[6] = mask;
                    w[7] = stream_reset;
                    w[8] = wx;
                    w[9] = stream;
                    w[10] = self.desc.slots_of(stream) & !bound;
                    w[12..16].copy_from_slice(&offsets);
                    w[16..20].copy_from_slice(&capacities);
                    w[20..24].copy_from_slice(&self.desc.strides);
                    let at = k * SO_PARAMS_STRIDE as usize;
                    for (i, word) in w.iter().enumerate() {
                        view[at + 4 * i..at + 4 * i + 4].copy_from_slice(&word.to_le_bytes());
                    }
                    plan.push((k, *c, [wx, wy]));
                    stream_reset = 0;
                    k += 1;
                }
            }
        }
        params
            .get_mapped_range_mut(..)
            .map_err(|e| StreamOutputError::Device(format!("mapping the stream-output params: {e}")))?
            .copy_from_slice(&view);
        params.unmap();
        fn whole(b: &wgpu::Buffer) -> wgpu::BindingResource<'_> {
            b.as_entire_binding()
        }
        let groups: Vec<_> = plan
            .iter()
            .map(|(k, c, d)| {
                let mut entries = vec![
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &params,
                            offset: *k as u64 * SO_PARAMS_STRIDE,
                            size: wgpu::BufferSize::new(SO_PARAMS_SIZE),
                        }),
                    },
                    wgpu::BindGroupEntry { binding: 1, resource: whole(&self.entries) },
                    wgpu::BindGroupEntry { binding: 2, resource: whole(c.vertices) },
                    wgpu::BindGroupEntry { binding: 3, resource: whole(c.indices) },
                    wgpu::BindGroupEntry { binding: 4, resource: whole(&scratch) },
                    wgpu::BindGroupEntry { binding: 5, resource: whole(&self.state) },
                ];
                for (s, (t, sink)) in targets.iter().zip(&self.sink).enumerate() {
                    let b = t.map_or(sink, |t| t.buffer);
                    entries.push(wgpu::BindGroupEntry { binding: 6 + s as u32, resource: whole(b) });
                }
                let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("stream output"),
                    layout: &self.group_layout,
                    entries: &entries,
                });
                (group, *d)
            })
            .collect();
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("stream output"), timestamp_writes: None });
        for (group, [wx, wy]) in &groups {
            pass.set_bind_group(0, group, &[]);
            pass.set_pipeline(&self.count);
            pass.dispatch_workgroups(*wx, *wy, 1);
            pass.set_pipeline(&self.scan);
            pass.dispatch_workgroups(1, 1, 1);
            pass.set_pipeline(&self.write);
            pass.dispatch_workgroups(*wx, *wy, 1);
        }
        Ok(())
    }
}
