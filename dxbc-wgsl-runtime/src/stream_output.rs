//! Stream output (D3D11.3 §14) through the primitive stage, driven over wgpu
//! (`docs/stream-output.md`).
//!
//! [`StreamOutput`] encodes, per stream the declaration uses and per chunk of a prepared draw,
//! the count, scan and write dispatches of the contract's kernels
//! ([`dxbc_wgsl_contract::stream_output::STREAM_OUTPUT_WGSL`]) over the geometry module's output.
//!
//! The filled size of every slot (D3D's BufferFilledSize), the statistics of every stream
//! (D3D11_QUERY_SO_STATISTICS_STREAMn: primitives written, primitives storage needed;
//! D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAMn) and the DrawAuto arguments of every slot live in
//! one GPU buffer, [`StreamOutput::state`]: a later draw appends after the filled size, and
//! [`StreamOutput::draw_auto`] draws what was written without a read-back.

use std::fmt;

use crate::primitive_stage::{dispatch_size, PrimitiveStageError, MAX_INVOCATIONS};
pub use dxbc_wgsl_contract::stream_output::{
    SoParams, ENTRY_COUNT, ENTRY_SCAN, ENTRY_WRITE, SO_DRAW_AUTO, SO_ENTRIES, SO_FILLED, SO_GAP, SO_GROUP,
    SO_MAX_ENTRIES, SO_MAX_KERNEL_ENTRIES, SO_MAX_STRIDE, SO_OUTPUT_INDICES, SO_OUTPUT_VERTICES, SO_PARAMS,
    SO_PARAMS_SIZE, SO_SCRATCH, SO_SLOTS, SO_STATE, SO_STATE_WORDS, SO_STATISTICS, SO_STREAMS, SO_TARGET_BASE,
    STREAM_OUTPUT_WGSL,
};

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
            return bad(format!(
                "{} entries (at most {SO_MAX_KERNEL_ENTRIES} once gaps are split)",
                self.entries.len()
            ));
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
            // Each bounded before the sum (no wrapping near 2^32).
            if e.component_count == 0 || e.component_count > 4 || e.start_component > 3 {
                return bad(format!(
                    "entry {i}: {} components from component {} (1-4 within one register's 4)",
                    e.component_count, e.start_component
                ));
            }
            if e.start_component + e.component_count > 4 {
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
            so_entry(SO_PARAMS, T::Uniform),
            so_entry(SO_ENTRIES, T::Uniform),
            so_entry(SO_OUTPUT_VERTICES, T::Storage { read_only: true }),
            so_entry(SO_OUTPUT_INDICES, T::Storage { read_only: true }),
            so_entry(SO_SCRATCH, T::Storage { read_only: false }),
            so_entry(SO_STATE, T::Storage { read_only: false }),
        ];
        layout_entries.extend((0..SO_SLOTS).map(|s| so_entry(SO_TARGET_BASE + s, T::Storage { read_only: false })));
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
            count: pipeline(ENTRY_COUNT),
            scan: pipeline(ENTRY_SCAN),
            write: pipeline(ENTRY_WRITE),
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
        if u64::from(max_invocations) > MAX_INVOCATIONS {
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
                    // At least one workgroup: the kernels check the invocation count.
                    let [wx, wy] = dispatch_size(u64::from(c.invocations).max(1));
                    let w = SoParams {
                        invocations: c.invocations,
                        index_stride: self.layout.index_stride,
                        index_base: region * c.invocations * self.layout.index_stride,
                        registers: self.layout.registers,
                        prim_vertices: self.layout.prim_vertices,
                        entry_count: self.desc.entries.len() as u32,
                        slot_mask: mask,
                        reset_mask: stream_reset,
                        workgroups_x: wx,
                        stream,
                        unbound_mask: self.desc.slots_of(stream) & !bound,
                        pad1: 0,
                        offsets,
                        capacities,
                        strides: self.desc.strides,
                    }
                    .to_words();
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
                        binding: SO_PARAMS,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &params,
                            offset: *k as u64 * SO_PARAMS_STRIDE,
                            size: wgpu::BufferSize::new(SO_PARAMS_SIZE),
                        }),
                    },
                    wgpu::BindGroupEntry { binding: SO_ENTRIES, resource: whole(&self.entries) },
                    wgpu::BindGroupEntry { binding: SO_OUTPUT_VERTICES, resource: whole(c.vertices) },
                    wgpu::BindGroupEntry { binding: SO_OUTPUT_INDICES, resource: whole(c.indices) },
                    wgpu::BindGroupEntry { binding: SO_SCRATCH, resource: whole(&scratch) },
                    wgpu::BindGroupEntry { binding: SO_STATE, resource: whole(&self.state) },
                ];
                for (s, (t, sink)) in targets.iter().zip(&self.sink).enumerate() {
                    let b = t.map_or(sink, |t| t.buffer);
                    entries.push(wgpu::BindGroupEntry { binding: SO_TARGET_BASE + s as u32, resource: whole(b) });
                }
                let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("stream output"),
                    layout: &self.group_layout,
                    entries: &entries,
                });
                (group, *d)
            })
            .collect();
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("stream output"), timestamp_writes: None });
        for (group, [wx, wy]) in &groups {
            pass.set_bind_group(SO_GROUP, group, &[]);
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

/// Why the stage of a pass with stream output cannot be created: the primitive stage's error or
/// the stream-output stage's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamOutputPassError {
    /// The primitive stage's.
    PrimitiveStage(PrimitiveStageError),
    /// The stream-output stage's.
    StreamOutput(StreamOutputError),
}

impl fmt::Display for StreamOutputPassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamOutputPassError::PrimitiveStage(e) => e.fmt(f),
            StreamOutputPassError::StreamOutput(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StreamOutputPassError {}

impl From<PrimitiveStageError> for StreamOutputPassError {
    fn from(e: PrimitiveStageError) -> Self {
        StreamOutputPassError::PrimitiveStage(e)
    }
}

impl From<StreamOutputError> for StreamOutputPassError {
    fn from(e: StreamOutputError) -> Self {
        StreamOutputPassError::StreamOutput(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A declaration D3D accepts (512 entries of which most are 5-component gaps, strides of 2004
    /// bytes) splits into more than 512 kernel entries; the kernels take it, and refuse only past
    /// what 4 slots of 2048 bytes can hold.
    #[test]
    fn split_gaps_past_512_entries_are_taken() {
        let mut entries = Vec::new();
        for slot in 0..4 {
            entries.push(SoEntry { stream: 0, register: Some(0), start_component: 0, component_count: 1, slot });
            for _ in 0..100 {
                // a 5-component gap, split
                entries.push(SoEntry { stream: 0, register: None, start_component: 0, component_count: 4, slot });
                entries.push(SoEntry { stream: 0, register: None, start_component: 0, component_count: 1, slot });
            }
        }
        let desc = SoDesc { entries, strides: [2004; 4], rasterized_stream: None };
        assert_eq!(desc.entries.len(), 804);
        desc.validate().expect("804 split entries");
        let mut too_many = desc.clone();
        too_many.entries = vec![too_many.entries[0]; SO_MAX_KERNEL_ENTRIES + 1];
        too_many.strides = [2048; 4];
        assert!(too_many.validate().is_err());
    }

    fn entry(stream: u32, register: Option<u32>, start: u32, count: u32, slot: u32) -> SoEntry {
        SoEntry { stream, register, start_component: start, component_count: count, slot }
    }

    #[test]
    fn declarations_follow_d3d_rules() {
        let ok = SoDesc {
            entries: vec![entry(0, Some(0), 0, 4, 0), entry(0, None, 0, 2, 0), entry(1, Some(1), 1, 3, 1)],
            strides: [24, 12, 0, 0],
            rasterized_stream: Some(0),
        };
        assert_eq!(ok.validate(), Ok(()));
        assert_eq!(ok.entry_table(), vec![[0, 0, 4, 0], [SO_GAP, 0, 2, 16 << 8], [1, 1, 3, 1]]);
        assert_eq!(ok.streams(), 0b11);
        assert_eq!(ok.slots_of(1), 0b10);
        let broken = |f: &dyn Fn(&mut SoDesc)| {
            let mut d = ok.clone();
            f(&mut d);
            d.validate().is_err()
        };
        assert!(broken(&|d| d.entries[2].slot = 0), "two streams in one slot");
        assert!(broken(&|d| d.strides[0] = 20), "entries past the stride");
        assert!(broken(&|d| d.strides[1] = 14), "a stride not a multiple of 4");
        assert!(broken(&|d| d.strides[1] = 0), "no stride for a used slot");
        assert!(broken(&|d| d.entries[2].start_component = 2), "components past w");
        assert!(broken(&|d| d.entries[0].component_count = 0), "no components");
        assert!(broken(&|d| d.entries[0].stream = 4), "stream 4");
        assert!(broken(&|d| d.entries[0].slot = 4), "slot 4");
        assert!(broken(&|d| d.rasterized_stream = Some(4)), "rasterized stream 4");
        assert!(broken(&|d| d.entries.clear()), "no entries");
        assert!(broken(&|d| d.strides[1] = 2052), "stride past 2048");
    }

    /// A component count near 2^32 is refused, not wrapped (`start + count` and `4 × count` in
    /// 32 bits): with wrapping arithmetic an entry of `u32::MAX` components from component 1
    /// and one of 2 components summed to 4 bytes and passed with a stride of 4 (and in a debug
    /// build the sum panicked).
    #[test]
    fn huge_component_counts_are_refused_without_overflow() {
        for (start, count) in [(1, u32::MAX), (3, u32::MAX - 1), (0, u32::MAX), (4, u32::MAX), (u32::MAX, 1)] {
            let d = SoDesc {
                entries: vec![entry(0, Some(0), start, count, 0), entry(0, Some(1), 0, 2, 0)],
                strides: [4, 0, 0, 0],
                rasterized_stream: None,
            };
            let r = std::panic::catch_unwind(|| d.validate());
            assert!(matches!(r, Ok(Err(StreamOutputError::InvalidDeclaration(_)))), "{start} {count}: {r:?}");
        }
    }
}
