// The primitive stage's runtime: D3D geometry shaders on WebGPU, driven over wgpu.
//
// This file is embedded verbatim (`mod primitive_stage { include!(...) }`) into the crates that
// dxbc-wgsl generates code for, and compiled by `dxbc-wgsl-gpu` as `dxbc_wgsl_gpu::primitive_stage`.
// It uses only `std` and `wgpu` (the version the generated code targets); it is not compiled into
// `dxbc-wgsl-build`, which has no wgpu dependency. It keeps its own copy of the contract of
// `dxbc_wgsl::geometry` (binding numbers, the `DrawParams` uniform, the primitive-assembly
// formulas); `dxbc-wgsl-gpu`'s tests check the copy against the library.
//
// A pass with a geometry shader runs as (`docs/geometry.md` has the design):
// 1. the assembly kernel (indexed strip draws only): cuts the index list at D3D's restart index
//    and numbers the primitives;
// 2. per chunk of the draw, the vertex module (the pass's vertex shader as compute) writes vertex
//    records, then the geometry module (the geometry shader as compute) writes the output vertices
//    and restart-indexed output strips;
// 3. inside the render pass, one draw per chunk over those buffers.
//
// `PrimitiveStage::prepare` encodes 1 and 2 into a command encoder before the render pass;
// `PrimitiveStage::draw` records 3 into it.

use std::borrow::Cow;
use std::fmt;
use std::sync::Mutex;

/// The bind group of the primitive stage's own buffers in the vertex, geometry and assembly
/// modules (the D3D resources keep their stage's group: vertex 0, pixel 1, geometry 2).
pub const SYSTEM_GROUP: u32 = 3;
/// Binding of `var<uniform> draw: DrawParams` (every module).
pub const DRAW_PARAMS: u32 = 0;
/// Binding of the vertex records (`array<vec4<u32>>`: written by the vertex module, read by the
/// geometry module).
pub const VERTEX_RECORDS: u32 = 1;
/// Binding of the index buffer (`array<u32>`, 16-bit indices two per word; vertex module and
/// assembly kernel).
pub const INDEX_BUFFER: u32 = 2;
/// Binding of the output vertices (`array<vec4<u32>>`, written by the geometry module).
pub const OUTPUT_VERTICES: u32 = 3;
/// Binding of the restart-indexed output strips (`array<u32>`, written by the geometry module).
pub const OUTPUT_INDICES: u32 = 4;
/// Binding of the assembly table (`array<vec4<u32>>`: written by the assembly kernel, read by
/// the geometry module).
pub const ASSEMBLY_TABLE: u32 = 5;
/// Vertex buffer slot `s` is binding `VERTEX_BUFFER_BASE + s` of the vertex module.
pub const VERTEX_BUFFER_BASE: u32 = 8;
/// Vertex buffer slots the vertex module can read (`0..MAX_VERTEX_BUFFER_SLOTS`).
pub const MAX_VERTEX_BUFFER_SLOTS: u32 = 16;
/// `dcl_maxout` at most (D3D11.3 §13.2).
pub const MAX_OUTPUT_VERTICES: u32 = 1024;
/// Input and output registers per vertex at most (D3D11's 32 `v#`/`o#`).
pub const MAX_REGISTERS: u32 = 32;
/// The primitive-restart index of the output strips.
pub const RESTART_INDEX: u32 = 0xFFFF_FFFF;
/// Invocations per workgroup of every module.
pub const WORKGROUP_SIZE: u32 = 64;
/// Words of the `DrawParams` uniform.
pub const DRAW_PARAMS_WORDS: usize = 32;
/// Bytes of the `DrawParams` uniform.
pub const DRAW_PARAMS_SIZE: u64 = 128;
/// Workgroups in x of one dispatch at most (a larger dispatch spreads over y).
pub const MAX_WORKGROUPS_X: u32 = 65535;
/// Chunks of one draw at most (every chunk has its own buffers, so a draw needing more could not
/// be held in memory anyway).
pub const MAX_CHUNKS: u64 = 1 << 16;
/// Invocations of one dispatch at most: the modules compute their invocation index in 32 bits
/// over every workgroup of the dispatch, so the dispatch's workgroups must stay below 2^32
/// invocations.
pub const MAX_INVOCATIONS: u64 = 1 << 31;

/// A geometry shader's input primitive (`dcl_inputprimitive`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputPrimitive {
    /// `point`: 1 vertex.
    Point,
    /// `line`: 2 vertices.
    Line,
    /// `triangle`: 3 vertices.
    Triangle,
    /// `lineadj`: 4 vertices.
    LineAdj,
    /// `triangleadj`: 6 vertices.
    TriangleAdj,
    /// `patchN`: N control points (1-32).
    Patch(u8),
}

impl InputPrimitive {
    /// Vertices per primitive.
    pub const fn vertices(self) -> u32 {
        match self {
            InputPrimitive::Point => 1,
            InputPrimitive::Line => 2,
            InputPrimitive::Triangle => 3,
            InputPrimitive::LineAdj => 4,
            InputPrimitive::TriangleAdj => 6,
            InputPrimitive::Patch(n) => n as u32,
        }
    }

    /// The primitive a draw of D3D11 topology `topology` (`D3D11_PRIMITIVE_TOPOLOGY`) feeds a
    /// geometry shader; `None` for a number that is no topology D3D11 draws.
    pub const fn of_topology(topology: u32) -> Option<InputPrimitive> {
        Some(match topology {
            1 => InputPrimitive::Point,
            2 | 3 => InputPrimitive::Line,
            4 | 5 => InputPrimitive::Triangle,
            10 | 11 => InputPrimitive::LineAdj,
            12 | 13 => InputPrimitive::TriangleAdj,
            33..=64 => InputPrimitive::Patch((topology - 32) as u8),
            _ => return None,
        })
    }
}

/// A geometry shader's output topology (`dcl_outputtopology`), drawn natively.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutputTopology {
    /// `pointlist`: drawn with `PointList`, one vertex per output slot.
    PointList,
    /// `linestrip`: drawn with `LineStrip` over restart-indexed strips.
    LineStrip,
    /// `trianglestrip`: drawn with `TriangleStrip` over restart-indexed strips.
    TriangleStrip,
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
            return invalid(format!(
                "max_vertices {} (dcl_maxout is 1 to {MAX_OUTPUT_VERTICES})",
                self.max_vertices
            ));
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
    /// The topology as its D3D11 number (`D3D11_PRIMITIVE_TOPOLOGY`: 1 point list, 2 line list,
    /// 3 line strip, 4 triangle list, 5 triangle strip, 10-13 the adjacency forms, 33-64 patch
    /// lists of 1-32 control points).
    pub topology: u32,
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

/// Candidate primitives of `positions` input positions of a draw of D3D11 topology `topology`:
/// the geometry module runs one invocation per candidate (and GS instance). `None` for an
/// unknown topology. (The library's `Topology::candidates`.)
pub const fn candidates(topology: u32, positions: u32) -> Option<u32> {
    let Some(primitive) = InputPrimitive::of_topology(topology) else { return None };
    let n = primitive.vertices();
    Some(match topology {
        3 | 5 | 11 => positions.saturating_sub(n - 1),
        13 => positions.saturating_sub(5),
        _ => positions / n,
    })
}

/// The input positions candidate primitives `begin..end` of a draw of `positions` positions
/// read, as `(first, count)` (the library's `Topology::positions_of`). `None` for an unknown
/// topology.
pub const fn positions_of(topology: u32, begin: u32, end: u32, positions: u32) -> Option<(u32, u32)> {
    let Some(primitive) = InputPrimitive::of_topology(topology) else { return None };
    if begin >= end {
        return Some((0, 0));
    }
    let n = primitive.vertices() as u64;
    let (begin, end) = (begin as u64, end as u64);
    let (first, last) = match topology {
        3 | 5 | 11 => (begin, end - 1 + n),
        // A triangle with adjacency reads the previous triangle's first vertex (2i - 2) and up
        // to 2i + 6.
        13 => (begin.saturating_sub(2), end - 1 + 7),
        _ => (begin * n, end * n),
    };
    let last = if last < positions as u64 { last } else { positions as u64 };
    // `count <= positions`; `first` fits 32 bits for every candidate range of the draw.
    let count = last.saturating_sub(first);
    Some((if first > u32::MAX as u64 { u32::MAX } else { first as u32 }, count as u32))
}

/// Whether the index buffer's restart value cuts a draw of this topology (strips only).
pub const fn is_strip(topology: u32) -> bool {
    matches!(topology, 3 | 5 | 11 | 13)
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
    let Some(primitive) = InputPrimitive::of_topology(draw.topology) else {
        return Err(PrimitiveStageError::UnknownTopology(draw.topology));
    };
    if primitive != desc.input_primitive {
        return Err(PrimitiveStageError::TopologyMismatch { topology: draw.topology, expected: desc.input_primitive });
    }
    let positions = draw.vertex_count;
    let candidates = candidates(draw.topology, positions).unwrap_or(0);
    if candidates == 0 || draw.instance_count == 0 {
        return Ok(Vec::new());
    }
    let range = |instance_begin: u32, instance_count: u32, begin: u32, end: u32| {
        let (position_begin, position_count) = positions_of(draw.topology, begin, end, positions).unwrap_or((0, 0));
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

/// The uniform every module reads (`struct DrawParams`, 32 words): the draw, and the chunk and
/// dispatch being prepared. Field for field the library's `dxbc_wgsl::geometry::DrawParams`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct DrawParams {
    /// Vertices (non-indexed) or indices (indexed) per instance.
    pub vertex_count: u32,
    /// `StartVertexLocation` (non-indexed); indexed, the index the binding's byte addresses count
    /// from (`StartIndexLocation`, or 0 when the binding starts at the draw's first index).
    pub first_vertex: u32,
    /// `BaseVertexLocation` as two's-complement bits.
    pub base_vertex: u32,
    /// `StartInstanceLocation`.
    pub first_instance: u32,
    /// Bytes per index: 0 (non-indexed), 2 or 4.
    pub index_size: u32,
    /// Byte offset in the index binding of index `first_vertex`: index `p` of the draw is at byte
    /// `index_offset + (first_vertex + p) * index_size`, computed without wrapping.
    pub index_offset: u32,
    /// The D3D11 topology number.
    pub topology: u32,
    /// 1 when the geometry module reads the assembly table (an indexed strip draw).
    pub use_assembly_table: u32,
    /// Chunk: first instance.
    pub instance_begin: u32,
    /// Chunk: instances.
    pub instance_count: u32,
    /// Chunk: first input position.
    pub position_begin: u32,
    /// Chunk: input positions per instance.
    pub position_count: u32,
    /// Chunk: first candidate primitive.
    pub primitive_begin: u32,
    /// Chunk: candidate primitives per instance.
    pub primitive_count: u32,
    /// Invocations of the dispatch.
    pub invocations: u32,
    /// Workgroups in x of the dispatch.
    pub workgroups_x: u32,
    /// Byte offset of vertex buffer slot `s` in its binding, at `[s / 4][s % 4]`.
    pub vertex_buffer_offsets: [[u32; 4]; 4],
}

impl DrawParams {
    /// The uniform's words, in declaration order.
    pub fn to_words(&self) -> [u32; DRAW_PARAMS_WORDS] {
        let mut w = [0; DRAW_PARAMS_WORDS];
        let head = [
            self.vertex_count,
            self.first_vertex,
            self.base_vertex,
            self.first_instance,
            self.index_size,
            self.index_offset,
            self.topology,
            self.use_assembly_table,
            self.instance_begin,
            self.instance_count,
            self.position_begin,
            self.position_count,
            self.primitive_begin,
            self.primitive_count,
            self.invocations,
            self.workgroups_x,
        ];
        w[..16].copy_from_slice(&head);
        for (i, v) in self.vertex_buffer_offsets.iter().flatten().enumerate() {
            w[16 + i] = *v;
        }
        w
    }

    /// The uniform's bytes (little-endian words, [`DRAW_PARAMS_SIZE`] bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_words().iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The chunk's fields.
    fn with_chunk(mut self, c: &Chunk) -> Self {
        self.instance_begin = c.instance_begin;
        self.instance_count = c.instance_count;
        self.position_begin = c.position_begin;
        self.position_count = c.position_count;
        self.primitive_begin = c.primitive_begin;
        self.primitive_count = c.primitive_count;
        self
    }

    /// The dispatch's fields; returns the workgroups `(x, y)`.
    fn with_dispatch(mut self, invocations: u64) -> (Self, [u32; 2]) {
        let groups = dispatch_size(invocations);
        self.invocations = invocations as u32;
        self.workgroups_x = groups[0];
        (self, groups)
    }
}

/// Workgroups `[x, y]` of a dispatch of `invocations` invocations: `x = min(ceil(n / 64), 65535)`,
/// `y = ceil(ceil(n / 64) / x)` (`[0, 0]` for none).
pub const fn dispatch_size(invocations: u64) -> [u32; 2] {
    let groups = invocations.div_ceil(WORKGROUP_SIZE as u64);
    if groups == 0 {
        return [0, 0];
    }
    let x = if groups < MAX_WORKGROUPS_X as u64 { groups } else { MAX_WORKGROUPS_X as u64 };
    [x as u32, groups.div_ceil(x) as u32]
}

/// Why the primitive stage cannot be built or a draw prepared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrimitiveStageError {
    /// The [`StageDesc`] is inconsistent.
    InvalidStage(String),
    /// The draw's topology number is none D3D11 draws.
    UnknownTopology(u32),
    /// The draw's topology does not feed the geometry shader's input primitive (D3D11 does not
    /// draw it).
    TopologyMismatch {
        /// The draw's topology.
        topology: u32,
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
                "a draw of topology {topology} does not feed a geometry shader whose input primitive is {expected:?}"
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
    /// The assembly kernel's WGSL (`dxbc_wgsl::geometry::ASSEMBLY_WGSL`, entry point `main`).
    pub assembly_wgsl: &'a str,
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

        let compute = |name: &str, groups: [&wgpu::BindGroupLayout; 4], shader: ShaderEntry<'_>| {
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
        let vertex =
            compute("vertex pipeline", [d.vertex_layout.unwrap_or(&empty), &empty, &empty, &vertex_system], d.vertex);
        let geometry = compute(
            "geometry pipeline",
            [&empty, &empty, d.geometry_layout.unwrap_or(&empty), &geometry_system],
            d.geometry,
        );
        let assembly_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&named("assembly kernel")),
            source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(d.assembly_wgsl)),
        });
        let assembly = compute(
            "assembly pipeline",
            [&empty, &empty, &empty, &assembly_system],
            ShaderEntry { module: &assembly_module, entry_point: "main" },
        );

        let render = desc.output.filter(|_| streams.is_none_or(|s| s.drawn)).map(|output| {
            let pixel_layout = d.fragment.and_then(|f| f.layout).unwrap_or(&empty);
            let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(&named("draw pipeline")),
                bind_group_layouts: &match select_layout {
                    None => vec![Some(&empty), Some(pixel_layout)],
                    Some(select) => vec![Some(&empty), Some(pixel_layout), Some(&empty), Some(select)],
                },
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
            topology: draw.topology,
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
        let assembled = draw.index.is_some() && is_strip(draw.topology) && !chunks.is_empty();
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
            let p = params.with_chunk(c);
            let (v, vg) = p.with_dispatch(c.vertex_invocations());
            let (g, gg) = p.with_dispatch(c.geometry_invocations(desc));
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
            for g in 0..3 {
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
            pass.set_bind_group(0, vertex_group.unwrap_or(&self.empty_group), &[]);
            pass.set_bind_group(1, &self.empty_group, &[]);
            pass.set_bind_group(2, &self.empty_group, &[]);
            pass.set_bind_group(SYSTEM_GROUP, &vertex_system, &[]);
            pass.dispatch_workgroups(vgroups[0], vgroups[1], 1);
            pass.set_pipeline(&self.geometry);
            pass.set_bind_group(0, &self.empty_group, &[]);
            pass.set_bind_group(2, geometry_group.unwrap_or(&self.empty_group), &[]);
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
        pass.set_bind_group(0, &self.empty_group, &[]);
        pass.set_bind_group(1, pixel_group.unwrap_or(&self.empty_group), &[]);
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
