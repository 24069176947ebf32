//! The primitive stage: D3D geometry shaders on WebGPU, driven over wgpu (`docs/geometry.md`).
//!
//! A pass with a geometry shader runs as:
//! 1. the assembly kernel (indexed strip draws only): cuts the index list at D3D's restart index
//!    and numbers the primitives;
//! 2. per chunk of the draw, the vertex module (the pass's vertex shader as compute) writes vertex
//!    records, then the geometry module (the geometry shader as compute) writes the output vertices
//!    and restart-indexed output strips;
//! 3. inside the render pass, one draw per chunk over those buffers.
//!
//! [`PrimitiveStage::prepare`] encodes 1 and 2 into a command encoder before the render pass;
//! [`PrimitiveStage::draw`] records 3 into it. The bindings, the `DrawParams` uniform, the
//! topologies and the assembly kernel are the contract's ([`dxbc_wgsl_contract::geometry`],
//! re-exported here).

use std::borrow::Cow;
use std::fmt;
use std::sync::Mutex;

use dxbc_wgsl_contract::bindings::{GEOMETRY_GROUP, MAX_GROUPS, PIXEL_GROUP, VERTEX_GROUP};
pub use dxbc_wgsl_contract::geometry::{
    dispatch_size, DrawParams, InputPrimitive, OutputTopology, Topology, ASSEMBLY_TABLE, ASSEMBLY_WGSL, DRAW_PARAMS,
    DRAW_PARAMS_SIZE, DRAW_PARAMS_WORDS, INDEX_BUFFER, MAX_INVOCATIONS, MAX_OUTPUT_VERTICES, MAX_REGISTERS,
    MAX_VERTEX_BUFFER_SLOTS, MAX_WORKGROUPS_X, OUTPUT_INDICES, OUTPUT_VERTICES, RESTART_INDEX, SYSTEM_GROUP,
    VERTEX_BUFFER_BASE, VERTEX_RECORDS, WORKGROUP_SIZE,
};
use dxbc_wgsl_contract::select::SELECT_GROUP;

/// The draw pipeline's group layouts: the pixel shader's at its group, and with per-primitive
/// selection the selection uniform's at [`SELECT_GROUP`]; empty layouts before them.
fn draw_groups<'a>(
    empty: &'a wgpu::BindGroupLayout,
    pixel: &'a wgpu::BindGroupLayout,
    select: Option<&'a wgpu::BindGroupLayout>,
) -> Vec<Option<&'a wgpu::BindGroupLayout>> {
    let count = if select.is_some() { SELECT_GROUP + 1 } else { PIXEL_GROUP + 1 };
    let mut groups = vec![Some(empty); count as usize];
    groups[PIXEL_GROUP as usize] = Some(pixel);
    if let Some(select) = select {
        groups[SELECT_GROUP as usize] = Some(select);
    }
    groups
}

/// Chunks of one draw at most (every chunk has its own buffers, so a draw needing more could not
/// be held in memory anyway).
pub const MAX_CHUNKS: u64 = 1 << 16;

/// Distinguishes stage objects, so that a prepared draw reaches only its own stage: each call
/// returns a new id.
pub fn next_stage_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// What is fixed about one pass with a geometry shader: its translation's `GeometryInfo` and the
/// vertex buffer slots its vertex module reads. Every field can be written as a constant
/// (`vertex_slots: Cow::Borrowed(&[0, 1])`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StageDesc {
    /// The geometry shader's `dcl_inputprimitive`: which draw topologies it accepts.
    pub input_primitive: InputPrimitive,
    /// Registers per vertex record (the geometry shader's highest input register + 1; the vertex
    /// module was translated with as many `record_registers`).
    pub input_registers: u32,
    /// Registers per output vertex (`Uint32x4` vertex attributes `0..output_registers`).
    pub output_registers: u32,
    /// `dcl_maxout`: output vertex slots per geometry invocation (at least 1).
    pub max_vertices: u32,
    /// `dcl_gsinstances` (1 without it).
    pub gs_instances: u32,
    /// Output index words per geometry invocation (`2 × max_vertices + 1`); 0 for a point list
    /// or when the shader declares no output topology.
    pub index_stride: u32,
    /// `dcl_outputtopology`; `None` when the shader declares none (it emits nothing: the compute
    /// work still runs, for its UAV writes, and nothing is drawn).
    pub output: Option<OutputTopology>,
    /// The vertex buffer slots the vertex module binds (at `VERTEX_BUFFER_BASE + slot`), each
    /// below `MAX_VERTEX_BUFFER_SLOTS`.
    pub vertex_slots: Cow<'static, [u32]>,
}

impl StageDesc {
    /// Bytes per vertex record.
    pub const fn record_bytes(&self) -> u64 {
        self.input_registers as u64 * 16
    }

    /// Bytes per output vertex (at least one register: the stride of the draw's vertex buffer).
    pub const fn output_vertex_bytes(&self) -> u64 {
        let registers = if self.output_registers == 0 { 1 } else { self.output_registers };
        registers as u64 * 16
    }

    /// Checks the description's own consistency.
    ///
    /// # Errors
    /// [`PrimitiveStageError::InvalidStage`] naming the inconsistency.
    pub fn validate(&self) -> Result<(), PrimitiveStageError> {
        let invalid = |what: String| Err(PrimitiveStageError::InvalidStage(what));
        if let InputPrimitive::Patch(n) = self.input_primitive {
            if !(1..=32).contains(&n) {
                return invalid(format!("a patch of {n} control points (D3D11 has 1 to 32)"));
            }
        }
        // D3D11's limits keep every size of a chunk within 64 bits.
        if self.max_vertices == 0 || self.max_vertices > MAX_OUTPUT_VERTICES {
            return invalid(format!("max_vertices {} (dcl_maxout is 1 to {MAX_OUTPUT_VERTICES})", self.max_vertices));
        }
        if self.gs_instances == 0 || self.gs_instances > 32 {
            return invalid(format!("{} geometry shader instances (D3D11 has 1 to 32)", self.gs_instances));
        }
        for (what, n) in [("input_registers", self.input_registers), ("output_registers", self.output_registers)] {
            if n > MAX_REGISTERS {
                return invalid(format!("{what} {n} (D3D11 has {MAX_REGISTERS} registers)"));
            }
        }
        let strips = matches!(self.output, Some(OutputTopology::LineStrip | OutputTopology::TriangleStrip));
        if strips && self.index_stride != 2 * self.max_vertices + 1 {
            return invalid(format!(
                "index_stride {} for strips of {} vertices (2 × max_vertices + 1: an emit and a cut per \
                 vertex, and the restart that ends the invocation)",
                self.index_stride, self.max_vertices
            ));
        }
        if !strips && self.index_stride != 0 {
            return invalid(format!("index_stride {} for an output without strips", self.index_stride));
        }
        if let Some(&slot) = self.vertex_slots.iter().find(|&&s| s >= MAX_VERTEX_BUFFER_SLOTS) {
            return invalid(format!("vertex buffer slot {slot} (at most {})", MAX_VERTEX_BUFFER_SLOTS - 1));
        }
        Ok(())
    }
}

/// How a geometry module translated with stream output lays out its output (the library's
/// `dxbc_wgsl::geometry::StreamInfo`; `docs/stream-output.md`), for
/// [`PrimitiveStage::with_streams`]: per invocation `slots` output vertex slots shared by every
/// stream, and `regions` regions of `index_stride` index words (region `r` of invocation `t` of
/// a chunk of `n` invocations at words `(r * n + t) * index_stride`). When `drawn`, region 0 is
/// the rasterized stream's: strips drawn as restart-indexed strips, a point list as an indexed
/// point list padded with each invocation's hidden slot (slot `max_vertices`, at the culled
/// position).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StreamStage {
    /// Output vertex slots per invocation (`max_vertices`, one more for a drawn point list).
    pub slots: u32,
    /// Index regions per invocation (1-5).
    pub regions: u32,
    /// Index words per invocation and region (`2 × max_vertices + 1` for strips,
    /// `max_vertices` for points).
    pub index_stride: u32,
    /// Whether region 0 is drawn (a rasterized stream).
    pub drawn: bool,
}

impl StreamStage {
    /// Index words per invocation (every region).
    pub const fn index_words(&self) -> u32 {
        self.regions * self.index_stride
    }

    /// The description the chunks are sized by: `max_vertices` the slots, `index_stride` the
    /// index words per invocation.
    pub fn sized(&self, desc: &StageDesc) -> StageDesc {
        StageDesc { max_vertices: self.slots, index_stride: self.index_words(), ..desc.clone() }
    }

    /// Checks the layout against the pass's description.
    ///
    /// # Errors
    /// [`PrimitiveStageError::InvalidStage`] naming the inconsistency.
    pub fn validate(&self, desc: &StageDesc) -> Result<(), PrimitiveStageError> {
        let invalid = |what: String| Err(PrimitiveStageError::InvalidStage(format!("stream output: {what}")));
        let Some(output) = desc.output else {
            return invalid("a geometry shader without an output topology".into());
        };
        if !(1..=5).contains(&self.regions) {
            return invalid(format!("{} index regions (1-5: the drawn stream's and four streams')", self.regions));
        }
        let points = output == OutputTopology::PointList;
        let stride = if points { desc.max_vertices } else { 2 * desc.max_vertices + 1 };
        if self.index_stride != stride {
            return invalid(format!(
                "index_stride {} for {output:?} of {} vertices ({stride})",
                self.index_stride, desc.max_vertices
            ));
        }
        let slots = desc.max_vertices + u32::from(points && self.drawn);
        if self.slots != slots {
            return invalid(format!(
                "{} slots per invocation for {output:?} of {} vertices ({slots}: a drawn point list has a hidden slot)",
                self.slots, desc.max_vertices
            ));
        }
        Ok(())
    }
}

/// One D3D11 draw (`Draw[Indexed][Instanced]`) through the primitive stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DrawCall {
    /// The topology (`D3D11_PRIMITIVE_TOPOLOGY`).
    pub topology: Topology,
    /// Vertices (non-indexed) or indices (indexed) per instance.
    pub vertex_count: u32,
    /// Instances (`Draw`/`DrawIndexed`: 1).
    pub instance_count: u32,
    /// `StartVertexLocation` (non-indexed) or `StartIndexLocation` (indexed), in vertices or
    /// indices.
    pub first_vertex: u32,
    /// `BaseVertexLocation` (indexed draws; 0 otherwise).
    pub base_vertex: i32,
    /// `StartInstanceLocation`.
    pub first_instance: u32,
    /// An indexed draw: the index format and the byte offset of the index buffer binding
    /// (`IASetIndexBuffer`'s `Offset`, a multiple of the index size).
    pub index: Option<(wgpu::IndexFormat, u64)>,
}

/// One part of a draw prepared by its own vertex and geometry dispatches into its own buffers:
/// whole instances, or (when one instance is too big for a binding) a range of candidate
/// primitives of one instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chunk {
    /// First instance (0-based, as SV_InstanceID counts).
    pub instance_begin: u32,
    /// Instances.
    pub instance_count: u32,
    /// First candidate primitive (relative to the draw's first position).
    pub primitive_begin: u32,
    /// Candidate primitives per instance.
    pub primitive_count: u32,
    /// First input position the vertex module runs (relative to the draw's first).
    pub position_begin: u32,
    /// Input positions per instance the vertex module runs.
    pub position_count: u32,
}

impl Chunk {
    /// Invocations of the vertex dispatch (instances × positions; one record each).
    pub const fn vertex_invocations(&self) -> u64 {
        self.instance_count as u64 * self.position_count as u64
    }

    /// Invocations of the geometry dispatch (instances × candidates × GS instances).
    pub const fn geometry_invocations(&self, desc: &StageDesc) -> u64 {
        self.instance_count as u64 * self.primitive_count as u64 * desc.gs_instances as u64
    }

    /// Bytes of the vertex records.
    pub const fn record_bytes(&self, desc: &StageDesc) -> u64 {
        self.vertex_invocations() * desc.record_bytes()
    }

    /// Output vertex slots (`max_vertices` per geometry invocation).
    pub const fn output_vertex_count(&self, desc: &StageDesc) -> u64 {
        self.geometry_invocations(desc) * desc.max_vertices as u64
    }

    /// Bytes of the output vertices.
    pub const fn output_vertex_bytes(&self, desc: &StageDesc) -> u64 {
        self.output_vertex_count(desc) * desc.output_vertex_bytes()
    }

    /// Output index words (`index_stride` per geometry invocation; 0 for a point list).
    pub const fn output_index_count(&self, desc: &StageDesc) -> u64 {
        self.geometry_invocations(desc) * desc.index_stride as u64
    }

    /// Bytes of the output indices.
    pub const fn output_index_bytes(&self, desc: &StageDesc) -> u64 {
        self.output_index_count(desc) * 4
    }

    /// Whether every buffer of the chunk fits a binding of `max_binding_bytes`, every count its
    /// 32-bit field and every dispatch [`MAX_INVOCATIONS`].
    pub const fn fits(&self, desc: &StageDesc, max_binding_bytes: u64) -> bool {
        self.record_bytes(desc) <= max_binding_bytes
            && self.output_vertex_bytes(desc) <= max_binding_bytes
            && self.output_index_bytes(desc) <= max_binding_bytes
            && self.vertex_invocations() <= MAX_INVOCATIONS
            && self.geometry_invocations(desc) <= MAX_INVOCATIONS
            && self.output_vertex_count(desc) <= u32::MAX as u64
            && self.output_index_count(desc) <= u32::MAX as u64
    }
}

/// Splits a draw into chunks whose vertex records, output vertices and output indices each fit
/// `max_binding_bytes` (use `min(max_storage_buffer_binding_size, max_buffer_size)` of the
/// device's limits), in D3D's order: as many whole instances as fit per chunk or, when one
/// instance does not fit, ranges of candidate primitives of one instance (every instance cut at
/// the same candidates). A draw with no instance or no candidate primitive has no chunk.
///
/// # Errors
/// [`PrimitiveStageError::UnknownTopology`], [`PrimitiveStageError::TopologyMismatch`] (the
/// geometry shader's input primitive is not the draw's), [`PrimitiveStageError::InvalidStage`],
/// [`PrimitiveStageError::PrimitiveTooLarge`] when one candidate primitive of one instance
/// does not fit, and [`PrimitiveStageError::TooManyChunks`].
pub fn plan_chunks(
    desc: &StageDesc,
    draw: &DrawCall,
    max_binding_bytes: u64,
) -> Result<Vec<Chunk>, PrimitiveStageError> {
    desc.validate()?;
    plan_sized(desc, draw, max_binding_bytes)
}

/// [`plan_chunks`] of a geometry module translated with stream output: its chunks' buffers
/// hold [`StreamStage::slots`] output vertices and [`StreamStage::index_words`] index words per
/// invocation.
///
/// # Errors
/// Those of [`plan_chunks`]; [`PrimitiveStageError::InvalidStage`] when `streams` does not fit
/// `desc`.
pub fn plan_chunks_with_streams(
    desc: &StageDesc,
    streams: &StreamStage,
    draw: &DrawCall,
    max_binding_bytes: u64,
) -> Result<Vec<Chunk>, PrimitiveStageError> {
    desc.validate()?;
    streams.validate(desc)?;
    plan_sized(&streams.sized(desc), draw, max_binding_bytes)
}

/// [`plan_chunks`] of a description already validated (or sized for stream output: its
/// `max_vertices` the slots and its `index_stride` the index words per invocation).
fn plan_sized(desc: &StageDesc, draw: &DrawCall, max_binding_bytes: u64) -> Result<Vec<Chunk>, PrimitiveStageError> {
    if Topology::from_number(draw.topology.number()) != Some(draw.topology) {
        return Err(PrimitiveStageError::UnknownTopology(draw.topology.number()));
    }
    if draw.topology.input_primitive() != desc.input_primitive {
        return Err(PrimitiveStageError::TopologyMismatch { topology: draw.topology, expected: desc.input_primitive });
    }
    let positions = draw.vertex_count;
    let candidates = draw.topology.candidates(positions);
    if candidates == 0 || draw.instance_count == 0 {
        return Ok(Vec::new());
    }
    let range = |instance_begin: u32, instance_count: u32, begin: u32, end: u32| {
        let (position_begin, position_count) = draw.topology.positions_of(begin, end, positions);
        Chunk {
            instance_begin,
            instance_count,
            primitive_begin: begin,
            primitive_count: end - begin,
            position_begin,
            position_count,
        }
    };
    let one = range(0, 1, 0, candidates);
    let mut chunks = Vec::new();
    if one.fits(desc, max_binding_bytes) {
        // Whole instances: every size is linear in the instance count.
        let mut per_chunk = u64::from(draw.instance_count);
        let mut limit = |per_instance: u64, bound: u64| {
            if let Some(n) = bound.checked_div(per_instance) {
                per_chunk = per_chunk.min(n);
            }
        };
        limit(one.record_bytes(desc), max_binding_bytes);
        limit(one.output_vertex_bytes(desc), max_binding_bytes);
        limit(one.output_index_bytes(desc), max_binding_bytes);
        limit(one.vertex_invocations(), MAX_INVOCATIONS);
        limit(one.geometry_invocations(desc), MAX_INVOCATIONS);
        limit(one.output_vertex_count(desc), u64::from(u32::MAX));
        limit(one.output_index_count(desc), u64::from(u32::MAX));
        // `one` fits, so at least one instance per chunk; at most `instance_count`.
        let per_chunk = per_chunk.max(1) as u32;
        let count = u64::from(draw.instance_count.div_ceil(per_chunk));
        if count > MAX_CHUNKS {
            return Err(PrimitiveStageError::TooManyChunks { chunks: count });
        }
        let mut begin = 0;
        while begin < draw.instance_count {
            let count = per_chunk.min(draw.instance_count - begin);
            let mut c = one;
            c.instance_begin = begin;
            c.instance_count = count;
            chunks.push(c);
            begin += count;
        }
        return Ok(chunks);
    }
    // Ranges of candidates of one instance: the longest range from each start that fits (every
    // size grows with the range's end).
    let mut ranges = Vec::new();
    let mut begin = 0;
    while begin < candidates {
        let (mut lo, mut hi) = (begin, candidates);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if range(0, 1, begin, mid).fits(desc, max_binding_bytes) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        if lo == begin {
            let c = range(0, 1, begin, begin + 1);
            let bytes = c.record_bytes(desc).max(c.output_vertex_bytes(desc)).max(c.output_index_bytes(desc));
            return Err(PrimitiveStageError::PrimitiveTooLarge { bytes, limit: max_binding_bytes });
        }
        ranges.push((begin, lo));
        begin = lo;
        let count = ranges.len() as u64 * u64::from(draw.instance_count);
        if count > MAX_CHUNKS {
            return Err(PrimitiveStageError::TooManyChunks { chunks: count });
        }
    }
    for instance in 0..draw.instance_count {
        for &(b, e) in &ranges {
            chunks.push(range(instance, 1, b, e));
        }
    }
    Ok(chunks)
}

/// The chunk's fields of the uniform.
fn with_chunk(mut p: DrawParams, c: &Chunk) -> DrawParams {
    p.instance_begin = c.instance_begin;
    p.instance_count = c.instance_count;
    p.position_begin = c.position_begin;
    p.position_count = c.position_count;
    p.primitive_begin = c.primitive_begin;
    p.primitive_count = c.primitive_count;
    p
}

/// The dispatch's fields of the uniform; returns the workgroups `(x, y)`.
fn with_dispatch(mut p: DrawParams, invocations: u64) -> (DrawParams, [u32; 2]) {
    let groups = dispatch_size(invocations);
    p.invocations = invocations as u32;
    p.workgroups_x = groups[0];
    (p, groups)
}

/// Why the primitive stage cannot be built or a draw prepared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrimitiveStageError {
    /// The [`StageDesc`] is inconsistent.
    InvalidStage(String),
    /// The draw's topology is none D3D11 draws (a patch list of 0 or over 32 control points),
    /// by its number.
    UnknownTopology(u32),
    /// The draw's topology does not feed the geometry shader's input primitive (D3D11 does not
    /// draw it).
    TopologyMismatch {
        /// The draw's topology.
        topology: Topology,
        /// The geometry shader's input primitive.
        expected: InputPrimitive,
    },
    /// One candidate primitive of one instance needs a buffer larger than a binding.
    PrimitiveTooLarge {
        /// Bytes of its largest buffer.
        bytes: u64,
        /// The binding limit.
        limit: u64,
    },
    /// A buffer of the whole draw (the assembly table of an indexed strip draw, or the draw's
    /// indices) exceeds a binding.
    DrawTooLarge {
        /// Which buffer.
        what: &'static str,
        /// Its bytes.
        bytes: u64,
        /// The binding limit.
        limit: u64,
    },
    /// The draw would need more than [`MAX_CHUNKS`] chunks.
    TooManyChunks {
        /// Chunks it needs (at least).
        chunks: u64,
    },
    /// A buffer offset the draw names is not one WebGPU can bind.
    BadOffset {
        /// Which buffer.
        what: String,
        /// The offset.
        offset: u64,
    },
    /// A vertex or index buffer the draw reads lacks `BufferUsages::STORAGE` (the vertex module
    /// reads them as storage buffers).
    NotStorage {
        /// Which buffer: `vertex buffer slot N` or `the index buffer`.
        what: String,
    },
    /// The device cannot run the stage (a limit below what it needs).
    Device(String),
}

impl fmt::Display for PrimitiveStageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrimitiveStageError::InvalidStage(what) => write!(f, "invalid primitive stage: {what}"),
            PrimitiveStageError::UnknownTopology(t) => write!(f, "topology {t} is no D3D11 primitive topology"),
            PrimitiveStageError::TopologyMismatch { topology, expected } => write!(
                f,
                "a draw of topology {topology:?} does not feed a geometry shader whose input primitive is {expected:?}"
            ),
            PrimitiveStageError::PrimitiveTooLarge { bytes, limit } => write!(
                f,
                "one input primitive needs a buffer of {bytes} bytes, over the binding limit of {limit} bytes"
            ),
            PrimitiveStageError::DrawTooLarge { what, bytes, limit } => {
                write!(f, "the draw's {what} needs {bytes} bytes, over the binding limit of {limit} bytes")
            }
            PrimitiveStageError::TooManyChunks { chunks } => {
                write!(f, "the draw needs at least {chunks} chunks, over {MAX_CHUNKS}")
            }
            PrimitiveStageError::BadOffset { what, offset } => write!(f, "{what}: offset {offset} cannot be bound"),
            PrimitiveStageError::NotStorage { what } => write!(
                f,
                "{what} lacks BufferUsages::STORAGE: a draw with a geometry shader reads its vertex and index buffers as storage buffers (create them with STORAGE)"
            ),
            PrimitiveStageError::Device(what) => write!(f, "the device cannot run the primitive stage: {what}"),
        }
    }
}

impl std::error::Error for PrimitiveStageError {}

/// A shader module and its entry point.
#[derive(Debug, Clone, Copy)]
pub struct ShaderEntry<'a> {
    /// The module.
    pub module: &'a wgpu::ShaderModule,
    /// The entry point's name.
    pub entry_point: &'a str,
}

/// The pixel shader of the draw.
#[derive(Debug, Clone, Copy)]
pub struct FragmentEntry<'a> {
    /// The pixel shader's module and entry point (translated with `behind_geometry`).
    pub shader: ShaderEntry<'a>,
    /// The colour targets.
    pub targets: &'a [Option<wgpu::ColorTargetState>],
    /// The layout of its resources (bind group 1); `None` when it binds none.
    pub layout: Option<&'a wgpu::BindGroupLayout>,
}

/// Everything [`PrimitiveStage::new`] builds the pipelines of.
#[derive(Debug, Clone)]
pub struct PrimitiveStageDescriptor<'a> {
    /// Debug label prefix of the pipelines and buffers.
    pub label: Option<&'a str>,
    /// What is fixed about the pass.
    pub stage: StageDesc,
    /// The vertex shader translated as compute (`VertexStage::Compute`).
    pub vertex: ShaderEntry<'a>,
    /// The layout of its resources (bind group 0); `None` when it binds none.
    pub vertex_layout: Option<&'a wgpu::BindGroupLayout>,
    /// The geometry shader's translation.
    pub geometry: ShaderEntry<'a>,
    /// The layout of its resources (bind group 2); `None` when it binds none.
    pub geometry_layout: Option<&'a wgpu::BindGroupLayout>,
    /// The pass-through render vertex shader (`dxbc_wgsl::geometry_draw_vertex_shader`).
    pub draw_vertex: ShaderEntry<'a>,
    /// The pixel shader; `None` draws without one (depth only).
    pub fragment: Option<FragmentEntry<'a>>,
    /// The rasterizer state: cull mode, front face, polygon mode, depth clipping. Its
    /// `topology` and `strip_index_format` are ignored: they follow [`StageDesc::output`].
    pub primitive: wgpu::PrimitiveState,
    /// Depth and stencil.
    pub depth_stencil: Option<wgpu::DepthStencilState>,
    /// Multisampling.
    pub multisample: wgpu::MultisampleState,
    /// A cap on the bytes of one chunk's buffers, below the device's limits (`None`: the
    /// device's `max_storage_buffer_binding_size` and `max_buffer_size`); a smaller cap splits
    /// draws into more chunks.
    pub max_binding_bytes: Option<u64>,
}

/// What a buffer of the cache holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Role {
    Records,
    Vertices,
    Indices,
    Table,
}

impl Role {
    /// Its usages (`COPY_SRC` too: the output can be read back).
    fn usage(self) -> wgpu::BufferUsages {
        wgpu::BufferUsages::COPY_SRC
            | match self {
                Role::Records | Role::Table => wgpu::BufferUsages::STORAGE,
                Role::Vertices => wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::VERTEX,
                Role::Indices => wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDEX,
            }
    }
}

/// Buffers kept for reuse at most (the least recently returned go first).
const CACHE_ENTRIES: usize = 16;

/// One pass with a geometry shader: the vertex, geometry and assembly compute pipelines and the
/// render pipeline that draws the output, with a cache of the buffers between them.
///
/// Per draw: [`PrimitiveStage::prepare`] (into a command encoder, before the render pass), then
/// [`PrimitiveStage::draw`] (inside the render pass), then, once the command buffer is
/// submitted, [`PrimitiveStage::recycle`] to reuse the buffers for a later draw.
#[derive(Debug)]
pub struct PrimitiveStage {
    desc: StageDesc,
    label: String,
    max_binding_bytes: Option<u64>,
    vertex: wgpu::ComputePipeline,
    geometry: wgpu::ComputePipeline,
    assembly: wgpu::ComputePipeline,
    render: Option<wgpu::RenderPipeline>,
    vertex_system: wgpu::BindGroupLayout,
    geometry_system: wgpu::BindGroupLayout,
    assembly_system: wgpu::BindGroupLayout,
    empty_group: wgpu::BindGroup,
    /// 16 zero bytes: the binding of an unused or null buffer read (D3D reads zeros from null
    /// views).
    zeros: wgpu::Buffer,
    /// 16 bytes: the binding of an unused buffer written (a point list's output strips), apart
    /// from `zeros` (one dispatch cannot both read and write a buffer).
    sink: wgpu::Buffer,
    cache: Mutex<Vec<(Role, u64, wgpu::Buffer)>>,
    /// Stream output: the layout of the geometry module's output, and the description the
    /// chunks are sized by (`desc` without stream output).
    streams: Option<StreamStage>,
    sized: StageDesc,
}

/// The output of one chunk, as the draw reads it.
#[derive(Debug, Clone)]
pub struct PreparedChunk {
    /// The chunk.
    pub chunk: Chunk,
    /// The vertex records (`record_bytes` used).
    pub records: wgpu::Buffer,
    /// The output vertices: `vertex_count` vertices of `StageDesc::output_vertex_bytes`.
    pub vertices: wgpu::Buffer,
    /// The restart-indexed output strips (`index_count` `u32` words); `None` for a point list
    /// (with stream output: every region's lists, points too).
    pub indices: Option<wgpu::Buffer>,
    /// Output vertex slots.
    pub vertex_count: u32,
    /// Output index words (0 for a point list).
    pub index_count: u32,
}

/// A draw prepared by [`PrimitiveStage::prepare`]: its chunks' buffers, drawn by
/// [`PrimitiveStage::draw`].
#[derive(Debug)]
pub struct Prepared {
    chunks: Vec<PreparedChunk>,
    table: Option<wgpu::Buffer>,
    _uniforms: Option<wgpu::Buffer>,
}

impl Prepared {
    /// The chunks, in draw order.
    pub fn chunks(&self) -> &[PreparedChunk] {
        &self.chunks
    }

    /// The assembly table of an indexed strip draw (`(strip start, strip end, primitive id, 0)`
    /// per input position).
    pub fn assembly_table(&self) -> Option<&wgpu::Buffer> {
        self.table.as_ref()
    }
}

fn storage_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

fn uniform_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(DRAW_PARAMS_SIZE),
        },
        count: None,
    }
}

fn entry(binding: u32, buffer: &wgpu::Buffer, offset: u64, size: u64) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer,
            offset,
            size: wgpu::BufferSize::new(size),
        }),
    }
}

/// A buffer bound for reading: the binding's offset and size, and the byte offset of the data
/// inside the binding.
struct Window<'a> {
    buffer: &'a wgpu::Buffer,
    offset: u64,
    size: u64,
    inner: u64,
}

impl PrimitiveStage {
    /// Builds the four pipelines with explicit layouts (groups 0-3; a group a module does not
    /// use has an empty layout).
    ///
    /// Pipeline creation reports through wgpu's usual error handling (an error scope, or the
    /// device's uncaptured-error handler); a module that does not follow the binding contract
    /// of `docs/geometry.md` fails there.
    ///
    /// # Errors
    /// [`PrimitiveStageError::InvalidStage`] for an inconsistent [`StageDesc`];
    /// [`PrimitiveStageError::Device`] when the device's limits cannot hold the pass (more
    /// output registers than `max_vertex_attributes`, fewer than 4 bind groups, too few
    /// storage buffers per stage).
    pub fn new(device: &wgpu::Device, d: &PrimitiveStageDescriptor<'_>) -> Result<Self, PrimitiveStageError> {
        Self::with_streams_selected(device, d, None, None)
    }

    /// [`PrimitiveStage::new`] for a pass drawn per layer and viewport (docs/per-primitive.md):
    /// the draw pipeline's layout has `select_layout` (the selection uniform) as group 3, which
    /// the caller sets before each [`PrimitiveStage::draw`].
    ///
    /// # Errors
    /// Those of [`PrimitiveStage::new`].
    pub fn new_selected(
        device: &wgpu::Device,
        d: &PrimitiveStageDescriptor<'_>,
        select_layout: Option<&wgpu::BindGroupLayout>,
    ) -> Result<Self, PrimitiveStageError> {
        Self::with_streams_selected(device, d, None, select_layout)
    }

    /// [`PrimitiveStage::new`] for a geometry module translated with stream output (`streams`
    /// its layout; `None` is [`PrimitiveStage::new`]): the chunks' buffers hold every stream's
    /// output for the stream-output pass, and the draw reads region 0 (nothing is drawn when no
    /// stream is rasterized).
    ///
    /// # Errors
    /// Those of [`PrimitiveStage::new`]; [`PrimitiveStageError::InvalidStage`] when `streams`
    /// does not fit the description ([`StreamStage::validate`]).
    pub fn with_streams(
        device: &wgpu::Device,
        d: &PrimitiveStageDescriptor<'_>,
        streams: Option<StreamStage>,
    ) -> Result<Self, PrimitiveStageError> {
        Self::with_streams_selected(device, d, streams, None)
    }

    /// [`PrimitiveStage::with_streams`] and [`PrimitiveStage::new_selected`] together.
    ///
    /// # Errors
    /// Those of [`PrimitiveStage::with_streams`].
    pub fn with_streams_selected(
        device: &wgpu::Device,
        d: &PrimitiveStageDescriptor<'_>,
        streams: Option<StreamStage>,
        select_layout: Option<&wgpu::BindGroupLayout>,
    ) -> Result<Self, PrimitiveStageError> {
        let desc = d.stage.clone();
        desc.validate()?;
        if let Some(s) = &streams {
            s.validate(&desc)?;
        }
        let limits = device.limits();
        if limits.max_bind_groups < 4 {
            return Err(PrimitiveStageError::Device(format!("{} bind groups (4 needed)", limits.max_bind_groups)));
        }
        // The system groups' own storage buffers (the shaders' resources come on top): the
        // vertex module's records, index buffer and vertex buffer slots; the geometry module's
        // records, output vertices, output strips and assembly table.
        let mut slots: Vec<u32> = desc.vertex_slots.to_vec();
        slots.sort_unstable();
        slots.dedup();
        let vertex_storage = 2 + slots.len() as u32;
        const GEOMETRY_STORAGE: u32 = 4;
        if vertex_storage.max(GEOMETRY_STORAGE) > limits.max_storage_buffers_per_shader_stage {
            return Err(PrimitiveStageError::Device(format!(
                "the vertex module binds {vertex_storage} storage buffers (its records, the index buffer and {} \
                 vertex buffer slots) and the geometry module {GEOMETRY_STORAGE}, over \
                 max_storage_buffers_per_shader_stage ({})",
                slots.len(),
                limits.max_storage_buffers_per_shader_stage
            )));
        }
        if desc.output.is_some() && desc.output_registers > limits.max_vertex_attributes {
            return Err(PrimitiveStageError::Device(format!(
                "{} output registers, over max_vertex_attributes ({})",
                desc.output_registers, limits.max_vertex_attributes
            )));
        }
        if desc.output_vertex_bytes() > u64::from(limits.max_vertex_buffer_array_stride) {
            return Err(PrimitiveStageError::Device(format!(
                "an output vertex of {} bytes, over max_vertex_buffer_array_stride ({})",
                desc.output_vertex_bytes(),
                limits.max_vertex_buffer_array_stride
            )));
        }
        let label = d.label.unwrap_or("primitive stage").to_string();
        let named = |what: &str| format!("{label}: {what}");

        let layout = |name: &str, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(&named(name)), entries })
        };
        let empty = layout("empty group", &[]);
        let mut vertex_entries = vec![uniform_entry(DRAW_PARAMS), storage_entry(VERTEX_RECORDS, false)];
        vertex_entries.push(storage_entry(INDEX_BUFFER, true));
        for &slot in &slots {
            vertex_entries.push(storage_entry(VERTEX_BUFFER_BASE + slot, true));
        }
        let vertex_system = layout("vertex system group", &vertex_entries);
        let geometry_system = layout(
            "geometry system group",
            &[
                uniform_entry(DRAW_PARAMS),
                storage_entry(VERTEX_RECORDS, true),
                storage_entry(OUTPUT_VERTICES, false),
                storage_entry(OUTPUT_INDICES, false),
                storage_entry(ASSEMBLY_TABLE, true),
            ],
        );
        let assembly_system = layout(
            "assembly system group",
            &[uniform_entry(DRAW_PARAMS), storage_entry(INDEX_BUFFER, true), storage_entry(ASSEMBLY_TABLE, false)],
        );
        let empty_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(&named("empty group")),
            layout: &empty,
            entries: &[],
        });

        let compute = |name: &str, groups: [&wgpu::BindGroupLayout; MAX_GROUPS as usize], shader: ShaderEntry<'_>| {
            let groups = groups.map(Some);
            let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(&named(name)),
                bind_group_layouts: &groups,
                immediate_size: 0,
            });
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&named(name)),
                layout: Some(&pl),
                module: shader.module,
                entry_point: Some(shader.entry_point),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        // A compute module's four groups: its stage's resources at the stage's group, the
        // stage's own buffers at SYSTEM_GROUP, empty layouts elsewhere.
        fn groups_of<'a>(
            empty: &'a wgpu::BindGroupLayout,
            own: Option<(u32, &'a wgpu::BindGroupLayout)>,
            system: &'a wgpu::BindGroupLayout,
        ) -> [&'a wgpu::BindGroupLayout; MAX_GROUPS as usize] {
            let mut groups = [empty; MAX_GROUPS as usize];
            if let Some((group, layout)) = own {
                groups[group as usize] = layout;
            }
            groups[SYSTEM_GROUP as usize] = system;
            groups
        }
        let vertex = compute(
            "vertex pipeline",
            groups_of(&empty, d.vertex_layout.map(|l| (VERTEX_GROUP, l)), &vertex_system),
            d.vertex,
        );
        let geometry = compute(
            "geometry pipeline",
            groups_of(&empty, d.geometry_layout.map(|l| (GEOMETRY_GROUP, l)), &geometry_system),
            d.geometry,
        );
        let assembly_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&named("assembly kernel")),
            source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(ASSEMBLY_WGSL)),
        });
        let assembly = compute(
            "assembly pipeline",
            groups_of(&empty, None, &assembly_system),
            ShaderEntry { module: &assembly_module, entry_point: "main" },
        );

        let render = desc.output.filter(|_| streams.is_none_or(|s| s.drawn)).map(|output| {
            let pixel_layout = d.fragment.and_then(|f| f.layout).unwrap_or(&empty);
            let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(&named("draw pipeline")),
                bind_group_layouts: &draw_groups(&empty, pixel_layout, select_layout),
                immediate_size: 0,
            });
            let attributes: Vec<wgpu::VertexAttribute> = (0..desc.output_registers)
                .map(|r| wgpu::VertexAttribute {
                    format: wgpu::VertexFormat::Uint32x4,
                    offset: u64::from(r) * 16,
                    shader_location: r,
                })
                .collect();
            let buffers = [Some(wgpu::VertexBufferLayout {
                array_stride: desc.output_vertex_bytes(),
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &attributes,
            })];
            let (topology, strip_index_format) = match output {
                OutputTopology::PointList => (wgpu::PrimitiveTopology::PointList, None),
                OutputTopology::LineStrip => (wgpu::PrimitiveTopology::LineStrip, Some(wgpu::IndexFormat::Uint32)),
                OutputTopology::TriangleStrip => {
                    (wgpu::PrimitiveTopology::TriangleStrip, Some(wgpu::IndexFormat::Uint32))
                }
            };
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(&named("draw pipeline")),
                layout: Some(&pl),
                vertex: wgpu::VertexState {
                    module: d.draw_vertex.module,
                    entry_point: Some(d.draw_vertex.entry_point),
                    compilation_options: Default::default(),
                    buffers: &buffers,
                },
                primitive: wgpu::PrimitiveState { topology, strip_index_format, ..d.primitive },
                depth_stencil: d.depth_stencil.clone(),
                multisample: d.multisample,
                fragment: d.fragment.map(|f| wgpu::FragmentState {
                    module: f.shader.module,
                    entry_point: Some(f.shader.entry_point),
                    compilation_options: Default::default(),
                    targets: f.targets,
                }),
                multiview_mask: None,
                cache: None,
            })
        });
        let zeros = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(&named("zeros")),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let sink = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(&named("sink")),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        Ok(PrimitiveStage {
            label,
            max_binding_bytes: d.max_binding_bytes,
            vertex,
            geometry,
            assembly,
            render,
            vertex_system,
            geometry_system,
            assembly_system,
            empty_group,
            zeros,
            sink,
            cache: Mutex::new(Vec::new()),
            sized: streams.map_or_else(|| desc.clone(), |s| s.sized(&desc)),
            streams,
            desc,
        })
    }

    /// What is fixed about the pass.
    pub fn desc(&self) -> &StageDesc {
        &self.desc
    }

    /// The stream-output layout of [`PrimitiveStage::with_streams`] (`None` without).
    pub fn streams(&self) -> Option<&StreamStage> {
        self.streams.as_ref()
    }

    /// Sets the cap on the bytes of one chunk's buffers
    /// ([`PrimitiveStageDescriptor::max_binding_bytes`]) for the draws prepared after.
    pub fn set_max_binding_bytes(&mut self, cap: Option<u64>) {
        self.max_binding_bytes = cap;
    }

    /// The largest buffer binding the chunks may use on `device`: its
    /// `max_storage_buffer_binding_size` and `max_buffer_size`, and the descriptor's cap.
    pub fn max_binding_bytes(&self, device: &wgpu::Device) -> u64 {
        let limits = device.limits();
        let device_max = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
        self.max_binding_bytes.map_or(device_max, |cap| cap.min(device_max))
    }

    /// A buffer of at least `size` bytes (a multiple of 16) from the cache, or a new one.
    fn buffer(&self, device: &wgpu::Device, role: Role, size: u64) -> wgpu::Buffer {
        let size = size.max(16).next_multiple_of(16);
        if let Ok(mut cache) = self.cache.lock() {
            // The smallest cached buffer that holds `size` bytes and wastes less than its half.
            let found = cache
                .iter()
                .enumerate()
                .filter(|(_, (r, s, _))| *r == role && *s >= size && *s / 2 < size)
                .min_by_key(|(_, (_, s, _))| *s)
                .map(|(i, _)| i);
            if let Some(i) = found {
                return cache.remove(i).2;
            }
        }
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(&format!("{}: {role:?}", self.label)),
            size,
            usage: role.usage(),
            mapped_at_creation: false,
        })
    }

    /// Returns a prepared draw's buffers to the cache, for the draws prepared after it. Call it
    /// once the command buffers that prepared and drew it are submitted (the queue's order then
    /// keeps a later draw's writes after this one's reads); before that, drop `prepared`
    /// instead.
    pub fn recycle(&self, prepared: Prepared) {
        let Ok(mut cache) = self.cache.lock() else { return };
        let mut back = |role: Role, b: wgpu::Buffer| {
            cache.push((role, b.size(), b));
        };
        for c in prepared.chunks {
            back(Role::Records, c.records);
            back(Role::Vertices, c.vertices);
            if let Some(i) = c.indices {
                back(Role::Indices, i);
            }
        }
        if let Some(t) = prepared.table {
            back(Role::Table, t);
        }
        let excess = cache.len().saturating_sub(CACHE_ENTRIES);
        cache.drain(..excess);
    }

    /// A read binding of `buffer` from byte `offset` on: bound from `offset` rounded down to
    /// the storage-offset alignment, at most `max_binding` bytes (a multiple of 4); a null or
    /// exhausted buffer binds the zero buffer (D3D reads zeros).
    fn window<'a>(&'a self, buffer: Option<&'a wgpu::Buffer>, offset: u64, align: u64, max_binding: u64) -> Window<'a> {
        let zeros = Window { buffer: &self.zeros, offset: 0, size: 16, inner: 0 };
        let Some(buffer) = buffer else { return zeros };
        let start = offset - offset % align.max(1);
        let size = buffer.size().saturating_sub(start).min(max_binding) / 4 * 4;
        if size == 0 {
            return zeros;
        }
        Window { buffer, offset: start, size, inner: offset - start }
    }

    /// Encodes the compute work of one draw into `encoder` (one compute pass): for an indexed
    /// strip draw the assembly kernel, then per chunk ([`plan_chunks`]) the vertex dispatch and
    /// the geometry dispatch, each chunk into its own buffers (from the cache, see
    /// [`PrimitiveStage::recycle`]). Call it before the render pass that draws it.
    ///
    /// - `vertex_buffers[slot]`: the buffer and byte offset bound at each vertex buffer slot
    ///   (`IASetVertexBuffers`); `None` or a missing entry is a null buffer (reads zeros). The
    ///   vertex module reads them as storage buffers: they need `BufferUsages::STORAGE`.
    /// - `index_buffer`: the index buffer of an indexed draw ([`DrawCall::index`]); `None` is a
    ///   null buffer (every index reads 0). It needs `BufferUsages::STORAGE` too.
    ///
    /// WebGPU binds storage buffers in whole words: give vertex and index buffers a size that is
    /// a multiple of 4 bytes (the bytes of a last partial word read as zeros). A buffer over the
    /// device's binding limit is bound from the draw's first byte for as much as the limit
    /// allows (a vertex buffer from its offset; reads past that read zeros).
    /// - `vertex_group`, `geometry_group`: the vertex shader's (group 0) and geometry shader's
    ///   (group 2) resources; `None` when the shader binds none.
    ///
    /// # Errors
    /// Those of [`plan_chunks`]; [`PrimitiveStageError::DrawTooLarge`] when the draw's indices
    /// or the assembly table of an indexed strip draw exceed a binding;
    /// [`PrimitiveStageError::BadOffset`] for offsets past 32 bits;
    /// [`PrimitiveStageError::NotStorage`] for a vertex buffer of a slot the vertex shader reads,
    /// or the index buffer of an indexed draw, without `BufferUsages::STORAGE`.
    #[allow(clippy::too_many_arguments)]
    pub fn prepare(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        draw: &DrawCall,
        vertex_buffers: &[Option<(&wgpu::Buffer, u64)>],
        index_buffer: Option<&wgpu::Buffer>,
        vertex_group: Option<&wgpu::BindGroup>,
        geometry_group: Option<&wgpu::BindGroup>,
    ) -> Result<Prepared, PrimitiveStageError> {
        // The chunks' sizes (with stream output: every stream's slots and index regions).
        let desc = &self.sized;
        // The buffers are bound as storage below; a missing usage is this error, not a
        // validation error of a bind group the caller never made.
        let not_storage = |b: &wgpu::Buffer| !b.usage().contains(wgpu::BufferUsages::STORAGE);
        for &slot in desc.vertex_slots.iter() {
            if vertex_buffers.get(slot as usize).copied().flatten().is_some_and(|(b, _)| not_storage(b)) {
                return Err(PrimitiveStageError::NotStorage { what: format!("vertex buffer slot {slot}") });
            }
        }
        if draw.index.is_some() && index_buffer.is_some_and(not_storage) {
            return Err(PrimitiveStageError::NotStorage { what: "the index buffer".into() });
        }
        let limits = device.limits();
        // Chunks follow the cap; the draw's own buffers (vertex and index buffers, the assembly
        // table) only the device's limits.
        let max_binding = self.max_binding_bytes(device);
        let device_max = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
        let chunks = plan_sized(desc, draw, max_binding)?;
        let mut params = DrawParams {
            vertex_count: draw.vertex_count,
            first_vertex: draw.first_vertex,
            base_vertex: draw.base_vertex as u32,
            first_instance: draw.first_instance,
            topology: draw.topology.number(),
            ..Default::default()
        };
        let storage_align = u64::from(limits.min_storage_buffer_offset_alignment);

        // The index buffer: bound whole when it fits a binding and a 32-bit byte address reaches
        // all of it (`index_offset` is then the binding's offset); otherwise from the draw's
        // first index (rounded down to the storage-offset alignment), with `first_vertex` 0 and
        // `index_offset` the first index's byte in the binding. The modules compute
        // `index_offset + (first_vertex + p) * size` without wrapping: a byte past 2^32 or past
        // the binding reads index 0, as D3D's out-of-bounds index fetches do.
        let mut index = Window { buffer: &self.zeros, offset: 0, size: 16, inner: 0 };
        if let Some((format, offset)) = draw.index {
            let size: u64 = match format {
                wgpu::IndexFormat::Uint16 => 2,
                wgpu::IndexFormat::Uint32 => 4,
            };
            if offset % size != 0 {
                return Err(PrimitiveStageError::BadOffset {
                    what: "the index buffer (not index-aligned)".into(),
                    offset,
                });
            }
            params.index_size = size as u32;
            let first = offset.saturating_add(u64::from(draw.first_vertex) * size);
            const ADDRESSABLE: u64 = 1 << 32;
            match index_buffer {
                Some(b) if b.size() <= device_max.min(ADDRESSABLE) && offset <= u64::from(u32::MAX) => {
                    index = self.window(Some(b), 0, storage_align, device_max);
                    params.index_offset = offset as u32;
                }
                Some(b) => {
                    index = self.window(Some(b), first, storage_align, device_max);
                    let bytes = u64::from(draw.vertex_count) * size;
                    // Indices inside the buffer but past the binding, or past a 32-bit address,
                    // would read as zeros.
                    let used = b.size().saturating_sub(first).min(bytes);
                    let end = index.inner + used;
                    if index.buffer == b && (end > index.size || end > ADDRESSABLE) {
                        return Err(PrimitiveStageError::DrawTooLarge {
                            what: "indices",
                            bytes: end,
                            limit: device_max.min(ADDRESSABLE),
                        });
                    }
                    params.first_vertex = 0;
                    params.index_offset = index.inner as u32;
                }
                None => {}
            }
        }
        let vertex_windows: Vec<(u32, Window<'_>)> = {
            let mut slots: Vec<u32> = desc.vertex_slots.to_vec();
            slots.sort_unstable();
            slots.dedup();
            slots
                .into_iter()
                .map(|slot| {
                    let (buffer, offset) = match vertex_buffers.get(slot as usize).copied().flatten() {
                        Some((b, o)) => (Some(b), o),
                        None => (None, 0),
                    };
                    (slot, self.window(buffer, offset, storage_align, device_max))
                })
                .collect()
        };
        for (slot, w) in &vertex_windows {
            params.vertex_buffer_offsets[*slot as usize / 4][*slot as usize % 4] = w.inner as u32;
        }
        let assembled = draw.index.is_some() && draw.topology.is_strip() && !chunks.is_empty();
        params.use_assembly_table = u32::from(assembled);
        let table_bytes = if assembled { u64::from(draw.vertex_count) * 16 } else { 16 };
        if table_bytes > device_max {
            return Err(PrimitiveStageError::DrawTooLarge {
                what: "assembly table",
                bytes: table_bytes,
                limit: device_max,
            });
        }

        // Every dispatch's DrawParams, in one uniform buffer at aligned offsets.
        let mut uniforms: Vec<DrawParams> = Vec::new();
        let mut dispatches: Vec<(usize, [u32; 2])> = Vec::new();
        if assembled {
            uniforms.push(DrawParams { invocations: WORKGROUP_SIZE, workgroups_x: 1, ..params });
        }
        for c in &chunks {
            let p = with_chunk(params, c);
            let (v, vg) = with_dispatch(p, c.vertex_invocations());
            let (g, gg) = with_dispatch(p, c.geometry_invocations(desc));
            dispatches.push((uniforms.len(), vg));
            uniforms.push(v);
            dispatches.push((uniforms.len(), gg));
            uniforms.push(g);
        }
        let stride = DRAW_PARAMS_SIZE.next_multiple_of(u64::from(limits.min_uniform_buffer_offset_alignment).max(16));
        let uniform_buffer = if uniforms.is_empty() {
            None
        } else {
            let mut bytes = vec![0u8; stride as usize * uniforms.len()];
            for (i, u) in uniforms.iter().enumerate() {
                let at = i * stride as usize;
                bytes[at..at + DRAW_PARAMS_SIZE as usize].copy_from_slice(&u.to_bytes());
            }
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&format!("{}: DrawParams", self.label)),
                size: bytes.len() as u64,
                usage: wgpu::BufferUsages::UNIFORM,
                mapped_at_creation: true,
            });
            buffer
                .get_mapped_range_mut(..)
                .map_err(|e| PrimitiveStageError::Device(format!("mapping the DrawParams buffer: {e}")))?
                .copy_from_slice(&bytes);
            buffer.unmap();
            Some(buffer)
        };

        let mut table = None;
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(&format!("{}: prepare", self.label)),
            timestamp_writes: None,
        });
        if let (true, Some(u)) = (assembled, &uniform_buffer) {
            let t = self.buffer(device, Role::Table, table_bytes);
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&format!("{}: assembly group", self.label)),
                layout: &self.assembly_system,
                entries: &[
                    entry(DRAW_PARAMS, u, 0, DRAW_PARAMS_SIZE),
                    entry(INDEX_BUFFER, index.buffer, index.offset, index.size),
                    entry(ASSEMBLY_TABLE, &t, 0, table_bytes),
                ],
            });
            pass.set_pipeline(&self.assembly);
            for g in (0..MAX_GROUPS).filter(|&g| g != SYSTEM_GROUP) {
                pass.set_bind_group(g, &self.empty_group, &[]);
            }
            pass.set_bind_group(SYSTEM_GROUP, &group, &[]);
            pass.dispatch_workgroups(1, 1, 1);
            table = Some(t);
        }

        let mut prepared = Vec::with_capacity(chunks.len());
        for (k, c) in chunks.iter().enumerate() {
            let Some(u) = &uniform_buffer else { break };
            let (vu, vgroups) = dispatches[2 * k];
            let (gu, ggroups) = dispatches[2 * k + 1];
            let record_bytes = c.record_bytes(desc).max(16);
            let vertex_bytes = c.output_vertex_bytes(desc).max(16);
            let index_bytes = c.output_index_bytes(desc);
            let records = self.buffer(device, Role::Records, record_bytes);
            let vertices = self.buffer(device, Role::Vertices, vertex_bytes);
            let indices = (index_bytes > 0).then(|| self.buffer(device, Role::Indices, index_bytes));

            let mut entries = vec![
                entry(DRAW_PARAMS, u, vu as u64 * stride, DRAW_PARAMS_SIZE),
                entry(VERTEX_RECORDS, &records, 0, record_bytes),
                entry(INDEX_BUFFER, index.buffer, index.offset, index.size),
            ];
            for (slot, w) in &vertex_windows {
                entries.push(entry(VERTEX_BUFFER_BASE + slot, w.buffer, w.offset, w.size));
            }
            let vertex_system = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&format!("{}: vertex group {k}", self.label)),
                layout: &self.vertex_system,
                entries: &entries,
            });
            let geometry_system = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&format!("{}: geometry group {k}", self.label)),
                layout: &self.geometry_system,
                entries: &[
                    entry(DRAW_PARAMS, u, gu as u64 * stride, DRAW_PARAMS_SIZE),
                    entry(VERTEX_RECORDS, &records, 0, record_bytes),
                    entry(OUTPUT_VERTICES, &vertices, 0, vertex_bytes),
                    match &indices {
                        Some(i) => entry(OUTPUT_INDICES, i, 0, index_bytes),
                        None => entry(OUTPUT_INDICES, &self.sink, 0, 16),
                    },
                    match &table {
                        Some(t) => entry(ASSEMBLY_TABLE, t, 0, table_bytes),
                        None => entry(ASSEMBLY_TABLE, &self.zeros, 0, 16),
                    },
                ],
            });
            pass.set_pipeline(&self.vertex);
            pass.set_bind_group(VERTEX_GROUP, vertex_group.unwrap_or(&self.empty_group), &[]);
            pass.set_bind_group(PIXEL_GROUP, &self.empty_group, &[]);
            pass.set_bind_group(GEOMETRY_GROUP, &self.empty_group, &[]);
            pass.set_bind_group(SYSTEM_GROUP, &vertex_system, &[]);
            pass.dispatch_workgroups(vgroups[0], vgroups[1], 1);
            pass.set_pipeline(&self.geometry);
            pass.set_bind_group(VERTEX_GROUP, &self.empty_group, &[]);
            pass.set_bind_group(GEOMETRY_GROUP, geometry_group.unwrap_or(&self.empty_group), &[]);
            pass.set_bind_group(SYSTEM_GROUP, &geometry_system, &[]);
            pass.dispatch_workgroups(ggroups[0], ggroups[1], 1);
            prepared.push(PreparedChunk {
                chunk: *c,
                records,
                vertices,
                indices,
                // `plan_chunks` keeps both within 32 bits.
                vertex_count: c.output_vertex_count(desc) as u32,
                index_count: c.output_index_count(desc) as u32,
            });
        }
        drop(pass);
        Ok(Prepared { chunks: prepared, table, _uniforms: uniform_buffer })
    }

    /// Draws a prepared draw's chunks in order into `pass` (its targets those of the pipeline's
    /// fragment state): a point list as `draw(0..vertex_count)`, strips as
    /// `draw_indexed(0..index_count)` over the chunk's `Uint32` output strips. `pixel_group` is
    /// the pixel shader's resources (group 1; `None` when it binds none). Nothing is drawn for a
    /// geometry shader without an output topology. With stream output
    /// ([`PrimitiveStage::with_streams`]) it draws region 0 (a point list as an indexed point
    /// list), and nothing when no stream is rasterized. Sets the pass's pipeline, bind groups 0
    /// and 1, vertex buffer 0 and index buffer.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, prepared: &Prepared, pixel_group: Option<&wgpu::BindGroup>) {
        let Some(render) = &self.render else { return };
        if prepared.chunks.is_empty() {
            return;
        }
        pass.set_pipeline(render);
        pass.set_bind_group(VERTEX_GROUP, &self.empty_group, &[]);
        pass.set_bind_group(PIXEL_GROUP, pixel_group.unwrap_or(&self.empty_group), &[]);
        let vertex_bytes = self.desc.output_vertex_bytes();
        for c in &prepared.chunks {
            if c.vertex_count == 0 {
                continue;
            }
            pass.set_vertex_buffer(0, c.vertices.slice(..u64::from(c.vertex_count) * vertex_bytes));
            // With stream output the draw reads region 0, the first `index_stride` words of
            // every invocation.
            let index_count = match &self.streams {
                None => c.index_count,
                Some(s) => (c.chunk.geometry_invocations(&self.desc) * u64::from(s.index_stride)) as u32,
            };
            match &c.indices {
                Some(indices) if index_count > 0 => {
                    pass.set_index_buffer(indices.slice(..u64::from(index_count) * 4), wgpu::IndexFormat::Uint32);
                    pass.draw_indexed(0..index_count, 0, 0..1);
                }
                Some(_) => {}
                None => pass.draw(0..c.vertex_count, 0..1),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(number: u32) -> Topology {
        Topology::from_number(number).expect("topology")
    }

    /// The positions candidate `j` may read (docs/geometry.md's table, for any strip start an
    /// index buffer's restarts may give it), clipped to the draw: an inclusive range.
    fn reads(topology: u32, j: u32, positions: u32) -> (u32, u32) {
        let n = t(topology).input_primitive().vertices();
        let (lo, hi) = match topology {
            3 | 5 | 11 => (j, j + n - 1),
            // b - 2 (the previous triangle's first vertex) up to b + 6.
            13 => (j.saturating_sub(2), j + 6),
            _ => (n * j, n * j + n - 1),
        };
        (lo, hi.min(positions - 1))
    }

    const TOPOLOGIES: [u32; 14] = [1, 2, 3, 4, 5, 10, 11, 12, 13, 33, 34, 35, 37, 64];

    fn stage(topology: u32, input_registers: u32, output_registers: u32, max_vertices: u32, gs: u32) -> StageDesc {
        StageDesc {
            input_primitive: t(topology).input_primitive(),
            input_registers,
            output_registers,
            max_vertices,
            gs_instances: gs,
            index_stride: 2 * max_vertices + 1,
            output: Some(OutputTopology::TriangleStrip),
            vertex_slots: Cow::Borrowed(&[0]),
        }
    }

    fn draw(topology: u32, vertex_count: u32, instance_count: u32) -> DrawCall {
        DrawCall {
            topology: t(topology),
            vertex_count,
            instance_count,
            first_vertex: 0,
            base_vertex: 0,
            first_instance: 0,
            index: None,
        }
    }

    /// Checks a plan against D3D's order and the limits, with sizes computed here.
    fn check_plan(desc: &StageDesc, d: &DrawCall, limit: u64, chunks: &[Chunk]) {
        let positions = d.vertex_count;
        let c = d.topology.candidates(positions);
        let mut expected = (0..d.instance_count).flat_map(|i| (0..c).map(move |j| (i, j)));
        for chunk in chunks {
            let vertex_bytes = u64::from(desc.output_registers.max(1)) * 16;
            let invocations =
                u64::from(chunk.instance_count) * u64::from(chunk.primitive_count) * u64::from(desc.gs_instances);
            let records = u64::from(chunk.instance_count) * u64::from(chunk.position_count);
            assert!(records * u64::from(desc.input_registers) * 16 <= limit, "records of {chunk:?} over {limit}");
            assert!(invocations * u64::from(desc.max_vertices) * vertex_bytes <= limit, "vertices of {chunk:?}");
            assert!(invocations * u64::from(desc.index_stride) * 4 <= limit, "indices of {chunk:?}");
            assert!(chunk.instance_count > 0 && chunk.primitive_count > 0, "empty chunk {chunk:?}");
            assert!(chunk.primitive_begin + chunk.primitive_count <= c);
            assert!(chunk.position_begin + chunk.position_count <= positions, "{chunk:?} past the draw");
            for i in chunk.instance_begin..chunk.instance_begin + chunk.instance_count {
                for j in chunk.primitive_begin..chunk.primitive_begin + chunk.primitive_count {
                    assert_eq!(expected.next(), Some((i, j)), "order, in {chunk:?}");
                    let (lo, hi) = reads(d.topology.number(), j, positions);
                    assert!(
                        lo >= chunk.position_begin && hi < chunk.position_begin + chunk.position_count,
                        "candidate {j} reads {lo}..={hi}, outside the records of {chunk:?}"
                    );
                }
            }
        }
        assert_eq!(expected.next(), None, "candidates left uncovered");
    }

    #[test]
    fn chunks_cover_every_candidate_once_in_order_within_the_limits() {
        let mut plans = 0;
        let mut split_instances = 0;
        let mut too_large = 0;
        for topology in TOPOLOGIES {
            for positions in [0, 1, 2, 3, 5, 6, 7, 8, 9, 12, 13, 17] {
                for instances in 0..=3 {
                    for (max_vertices, gs) in [(1, 1), (3, 1), (2, 2), (4, 3)] {
                        for input_registers in [0, 1, 3] {
                            let desc = stage(topology, input_registers, 2, max_vertices, gs);
                            let d = draw(topology, positions, instances);
                            for limit in (0..=1400).step_by(44) {
                                match plan_chunks(&desc, &d, limit) {
                                    Ok(chunks) => {
                                        check_plan(&desc, &d, limit, &chunks);
                                        plans += 1;
                                        if chunks.iter().any(|c| {
                                            c.instance_count == 1
                                                && c.primitive_count < t(topology).candidates(positions)
                                        }) {
                                            split_instances += 1;
                                        }
                                    }
                                    Err(PrimitiveStageError::PrimitiveTooLarge { bytes, limit: l }) => {
                                        assert_eq!(l, limit);
                                        assert!(bytes > limit);
                                        // Some single candidate indeed does not fit.
                                        let c = t(topology).candidates(positions);
                                        let single = (0..c).any(|j| {
                                            let (pb, pc) = t(topology).positions_of(j, j + 1, positions);
                                            let chunk = Chunk {
                                                instance_begin: 0,
                                                instance_count: 1,
                                                primitive_begin: j,
                                                primitive_count: 1,
                                                position_begin: pb,
                                                position_count: pc,
                                            };
                                            !chunk.fits(&desc, limit)
                                        });
                                        assert!(single, "{topology} {positions} {limit}: refused a draw that splits");
                                        too_large += 1;
                                    }
                                    Err(e) => panic!("{topology} {positions} {instances}: {e}"),
                                }
                            }
                        }
                    }
                }
            }
        }
        // The loops reach every branch.
        assert!(plans > 10_000 && split_instances > 1000 && too_large > 1000, "{plans} {split_instances} {too_large}");
    }

    #[test]
    fn whole_instances_share_a_chunk_when_they_fit() {
        let desc = stage(4, 2, 2, 3, 1);
        // 10 triangles: records 30 × 32 = 960 bytes; vertices 30 × 32 = 960; indices 10 × 7 × 4.
        let d = draw(4, 30, 5);
        let chunks = plan_chunks(&desc, &d, 4 * 960).unwrap();
        assert_eq!(chunks.iter().map(|c| (c.instance_begin, c.instance_count)).collect::<Vec<_>>(), [(0, 4), (4, 1)]);
        assert_eq!(plan_chunks(&desc, &d, 1 << 27).unwrap().len(), 1);
    }

    #[test]
    fn a_million_triangles_split_into_chunks_within_128_mib() {
        const LIMIT: u64 = 128 << 20;
        // A pass-through GS: 2 registers in and out, 3 vertices per triangle.
        let desc = stage(4, 2, 2, 3, 1);
        let d = draw(4, 3_000_000, 1);
        let chunks = plan_chunks(&desc, &d, LIMIT).unwrap();
        assert_eq!(chunks.len(), 1, "96 MB of records and of vertices fit one chunk");
        check_plan(&desc, &d, LIMIT, &chunks);
        // Four instances: one per chunk.
        let d4 = draw(4, 3_000_000, 4);
        let chunks = plan_chunks(&desc, &d4, LIMIT).unwrap();
        assert_eq!(chunks.len(), 4);
        check_plan(&desc, &d4, LIMIT, &chunks);
        // An expanding GS (12 vertices of 4 registers per triangle: 768 MB): ranges of one instance.
        let big = stage(4, 2, 4, 12, 1);
        let chunks = plan_chunks(&big, &d, LIMIT).unwrap();
        assert_eq!(chunks.len(), 6, "{}", chunks.len());
        assert!(chunks.iter().all(|c| c.output_vertex_bytes(&big) <= LIMIT));
        check_plan(&big, &d, LIMIT, &chunks);
        // A million-triangle strip through 2 GS instances, split the same way.
        let strip = stage(5, 2, 4, 12, 2);
        let ds = draw(5, 1_000_002, 2);
        let chunks = plan_chunks(&strip, &ds, LIMIT).unwrap();
        assert!(chunks.len() >= 2 * 12, "{}", chunks.len());
        check_plan(&strip, &ds, LIMIT, &chunks);
        // Consecutive chunks of a strip share the positions between them.
        assert_eq!(chunks[1].position_begin, chunks[0].primitive_begin + chunks[0].primitive_count);
        assert_eq!(chunks[0].position_count, chunks[0].primitive_count + 2);
    }

    #[test]
    fn bad_draws_are_errors() {
        let desc = stage(4, 2, 2, 3, 1);
        let patch0 = DrawCall { topology: Topology::PatchList(0), ..draw(4, 3, 1) };
        assert_eq!(plan_chunks(&desc, &patch0, 1 << 20), Err(PrimitiveStageError::UnknownTopology(32)));
        assert_eq!(
            plan_chunks(&desc, &draw(2, 4, 1), 1 << 20),
            Err(PrimitiveStageError::TopologyMismatch {
                topology: Topology::LineList,
                expected: InputPrimitive::Triangle
            })
        );
        // A 3-point patch list is not a triangle list.
        assert!(matches!(
            plan_chunks(&desc, &draw(35, 3, 1), 1 << 20),
            Err(PrimitiveStageError::TopologyMismatch { .. })
        ));
        assert!(matches!(plan_chunks(&desc, &draw(4, 3, 1), 95), Err(PrimitiveStageError::PrimitiveTooLarge { .. })));
        let mut bad = desc.clone();
        bad.max_vertices = 0;
        assert!(matches!(plan_chunks(&bad, &draw(4, 3, 1), 1 << 20), Err(PrimitiveStageError::InvalidStage(_))));
        let mut bad = desc.clone();
        bad.index_stride = 0;
        assert!(matches!(bad.validate(), Err(PrimitiveStageError::InvalidStage(_))));
        // Fields past D3D's limits, or a stride that does not fit the emits and cuts, are
        // refused before any size is computed from them (in a debug build the products
        // overflowed: a panic).
        let huge = |f: fn(&mut StageDesc)| {
            let mut d = stage(4, 2, 2, 3, 1);
            f(&mut d);
            plan_chunks(&d, &draw(4, u32::MAX, u32::MAX), 128 << 20)
        };
        let refusals = [
            huge(|d| {
                d.max_vertices = u32::MAX;
                d.index_stride = 1;
            }),
            huge(|d| {
                d.max_vertices = 1025;
                d.index_stride = 2051;
            }),
            huge(|d| d.output_registers = u32::MAX),
            huge(|d| d.input_registers = 1 << 30),
            huge(|d| d.index_stride = u32::MAX),
            huge(|d| d.index_stride = 6),
        ];
        for r in refusals {
            assert!(matches!(r, Err(PrimitiveStageError::InvalidStage(_))), "{r:?}");
        }
        let mut bad = desc;
        bad.vertex_slots = Cow::Owned(vec![16]);
        assert!(matches!(bad.validate(), Err(PrimitiveStageError::InvalidStage(_))));
        assert!(!PrimitiveStageError::UnknownTopology(6).to_string().is_empty());
        // Every candidate range of u32::MAX instances: refused, not allocated.
        assert!(matches!(
            plan_chunks(&stage(4, 2, 2, 3, 1), &draw(4, 3_000_000, u32::MAX), 128 << 20),
            Err(PrimitiveStageError::TooManyChunks { .. })
        ));
        assert!(matches!(
            plan_chunks(&stage(4, 2, 2, 3, 1), &draw(4, u32::MAX, 100), 128 << 20),
            Err(PrimitiveStageError::TooManyChunks { .. })
        ));
        // A point list of u32::MAX points in one instance: about 1000 ranges.
        let points = stage(1, 1, 1, 1, 1);
        let chunks = plan_chunks(&points, &draw(1, u32::MAX, 1), 128 << 20).unwrap();
        assert_eq!(chunks.iter().map(|c| u64::from(c.primitive_count)).sum::<u64>(), u64::from(u32::MAX));
    }

    #[test]
    fn dispatches_spread_over_y_past_65535_workgroups() {
        assert_eq!(dispatch_size(0), [0, 0]);
        assert_eq!(dispatch_size(1), [1, 1]);
        assert_eq!(dispatch_size(64), [1, 1]);
        assert_eq!(dispatch_size(65), [2, 1]);
        assert_eq!(dispatch_size(64 * 65535), [65535, 1]);
        assert_eq!(dispatch_size(64 * 65535 + 1), [65535, 2]);
        for n in [1u64, 100, 1 << 22, 64 * 65535 * 3 + 7, MAX_INVOCATIONS] {
            let [x, y] = dispatch_size(n);
            let groups = n.div_ceil(64);
            assert!(u64::from(x) * u64::from(y) >= groups && u64::from(x) * u64::from(y - 1) < groups, "{n}");
            // Every invocation index of the dispatch fits 32 bits.
            assert!(u64::from(x) * u64::from(y) * 64 <= 1 << 32, "{n}");
        }
    }
}
