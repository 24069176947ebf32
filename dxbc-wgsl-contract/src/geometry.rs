//! The primitive stage: D3D's geometry shader on WebGPU, as compute work in front of a draw
//! (`docs/geometry.md`).
//!
//! The pass's vertex shader runs as a compute module writing vertex records, the geometry shader
//! as a compute module writing output vertices and restart-indexed strips, and a draw renders
//! them. Both compute modules (and the assembly kernel of an indexed strip draw) bind the stage's
//! own buffers in group [`SYSTEM_GROUP`] at the bindings below and read the uniform
//! [`DrawParams`]; the D3D resources keep their stage's group
//! ([`crate::bindings::VERTEX_GROUP`], [`crate::bindings::GEOMETRY_GROUP`]).
//!
//! The WGSL side of this contract is [`ASSEMBLY_WGSL`], [`GEOMETRY_WGSL`], [`VERTEX_PULL_WGSL`]
//! and [`GEOMETRY_STREAMS_WGSL`].

/// The bind group of the primitive stage's own buffers in the vertex, geometry and assembly
/// modules.
pub const SYSTEM_GROUP: u32 = 3;
/// `var<uniform> draw: DrawParams` (every module).
pub const DRAW_PARAMS: u32 = 0;
/// `array<vec4<u32>>`: vertex records, `input_registers` registers each, written by the vertex
/// module (`read_write`), read by the geometry module.
pub const VERTEX_RECORDS: u32 = 1;
/// `array<u32>`: the index buffer (16-bit indices two per word), read by the vertex module and
/// the assembly kernel.
pub const INDEX_BUFFER: u32 = 2;
/// `array<vec4<u32>>`: output vertices, `output_registers` registers each, written by the
/// geometry module.
pub const OUTPUT_VERTICES: u32 = 3;
/// `array<u32>`: restart-indexed output strips (line or triangle strips), written by the
/// geometry module; `index_stride` words per invocation.
pub const OUTPUT_INDICES: u32 = 4;
/// `array<vec4<u32>>`: the assembly table of an indexed strip draw, one entry per input
/// position, `(strip start, strip end, primitive id or 0xFFFFFFFF, 0)`: written by the assembly
/// kernel, read by the geometry module.
pub const ASSEMBLY_TABLE: u32 = 5;
/// `array<u32>`: vertex buffer slot `s` is binding `VERTEX_BUFFER_BASE + s` of the vertex
/// module (only the slots the input layout uses are declared).
pub const VERTEX_BUFFER_BASE: u32 = 8;
/// Vertex buffer slots the vertex module can read (`0..MAX_VERTEX_BUFFER_SLOTS`; D3D11 has 32,
/// WebGPU's default `maxStorageBuffersPerShaderStage` is 8, so passes stay far below).
pub const MAX_VERTEX_BUFFER_SLOTS: u32 = 16;

/// `dcl_maxout` at most (D3D11.3 §13.2).
pub const MAX_OUTPUT_VERTICES: u32 = 1024;
/// Input and output registers per vertex at most (D3D11's 32 `v#`/`o#`).
pub const MAX_REGISTERS: u32 = 32;
/// The primitive-restart index of the output strips.
pub const RESTART_INDEX: u32 = 0xFFFF_FFFF;
/// Invocations per workgroup of the vertex and geometry modules (and of the assembly kernel's
/// one workgroup).
pub const WORKGROUP_SIZE: u32 = 64;
/// Workgroups in x of one dispatch at most (a larger dispatch spreads over y;
/// [`DrawParams::workgroups_x`]).
pub const MAX_WORKGROUPS_X: u32 = 65535;
/// Invocations of one dispatch at most: the modules compute their invocation index in 32 bits
/// over every workgroup of the dispatch, so a dispatch stays below 2^32 invocations.
pub const MAX_INVOCATIONS: u64 = 1 << 31;
/// The clip-space position written to the unused slots of a point list: outside the clip
/// volume in x (`x > w`), so the point is discarded by clipping (WebGPU clips points by their
/// vertex), whatever the depth-clip state.
pub const CULLED_POSITION: [f32; 4] = [2.0, 0.0, 0.0, 1.0];

/// Words of the [`DrawParams`] uniform.
pub const DRAW_PARAMS_WORDS: usize = 32;
/// Size in bytes of [`DrawParams`] as a uniform.
pub const DRAW_PARAMS_SIZE: u64 = 128;

/// The uniform every primitive-stage module reads (`struct DrawParams` in WGSL, 32 words,
/// std140-compatible: every member a `u32` or a `vec4<u32>`). The D3D draw is
/// `Draw*`/`DrawIndexed*` with its `StartVertexLocation`/`StartIndexLocation`,
/// `BaseVertexLocation`, `StartInstanceLocation`; the chunk fields select the part of it one
/// dispatch prepares.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct DrawParams {
    /// Vertices (non-indexed) or indices (indexed) per instance.
    pub vertex_count: u32,
    /// `StartVertexLocation` (non-indexed); indexed, the index the binding's byte addresses count
    /// from (`StartIndexLocation`, or 0 for a binding that starts at the draw's first index).
    pub first_vertex: u32,
    /// `BaseVertexLocation` as two's-complement bits (indexed draws).
    pub base_vertex: u32,
    /// `StartInstanceLocation`.
    pub first_instance: u32,
    /// Bytes per index: 0 (non-indexed), 2 or 4.
    pub index_size: u32,
    /// Byte offset in the index binding of index `first_vertex` (`IASetIndexBuffer`'s offset
    /// for a binding of the whole buffer): index `p` of the draw is at byte
    /// `index_offset + (first_vertex + p) * index_size`, computed without wrapping (a byte at or
    /// past 2^32, or past the binding, reads index 0).
    pub index_offset: u32,
    /// The draw's topology ([`Topology::number`]).
    pub topology: u32,
    /// 1 when the geometry module reads the assembly table (an indexed strip draw).
    pub use_assembly_table: u32,
    /// Chunk: first instance (0-based, as SV_InstanceID counts).
    pub instance_begin: u32,
    /// Chunk: instances.
    pub instance_count: u32,
    /// Chunk: first input position the vertex module runs (relative to the draw's first).
    pub position_begin: u32,
    /// Chunk: input positions per instance the vertex module runs.
    pub position_count: u32,
    /// Chunk: first candidate primitive (relative to the draw's first position).
    pub primitive_begin: u32,
    /// Chunk: candidate primitives per instance.
    pub primitive_count: u32,
    /// Total invocations of the module being dispatched (the geometry module: instances ×
    /// candidates × GS instances; the vertex module: instances × positions).
    pub invocations: u32,
    /// Workgroups in x of the dispatch (a dispatch over [`MAX_WORKGROUPS_X`] workgroups spreads
    /// over y).
    pub workgroups_x: u32,
    /// Byte offset of vertex buffer slot `s` (`IASetVertexBuffers`' offsets), at `[s / 4][s % 4]`.
    pub vertex_buffer_offsets: [[u32; 4]; 4],
}

impl DrawParams {
    /// The uniform's words, in declaration order.
    pub fn to_words(&self) -> [u32; DRAW_PARAMS_WORDS] {
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
        let mut w = [0; DRAW_PARAMS_WORDS];
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
}

/// Workgroups `[x, y]` of a dispatch of `invocations` invocations of [`WORKGROUP_SIZE`]:
/// `x = min(ceil(n / 64), 65535)`, `y = ceil(ceil(n / 64) / x)` (`[0, 0]` for none).
pub const fn dispatch_size(invocations: u64) -> [u32; 2] {
    let groups = invocations.div_ceil(WORKGROUP_SIZE as u64);
    if groups == 0 {
        return [0, 0];
    }
    let x = if groups < MAX_WORKGROUPS_X as u64 { groups } else { MAX_WORKGROUPS_X as u64 };
    [x as u32, groups.div_ceil(x) as u32]
}

/// D3D11's primitive topologies (`D3D11_PRIMITIVE_TOPOLOGY`, numbered as D3D numbers them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
#[allow(missing_docs)]
pub enum Topology {
    PointList,
    LineList,
    LineStrip,
    TriangleList,
    TriangleStrip,
    LineListAdj,
    LineStripAdj,
    TriangleListAdj,
    TriangleStripAdj,
    /// `D3D11_PRIMITIVE_TOPOLOGY_n_CONTROL_POINT_PATCHLIST` (33..=64 for 1..=32 points), drawn
    /// straight into a geometry shader that reads `patchN`.
    PatchList(u8),
}

impl Topology {
    /// The D3D11 number (`D3D11_PRIMITIVE_TOPOLOGY`).
    pub const fn number(self) -> u32 {
        match self {
            Topology::PointList => 1,
            Topology::LineList => 2,
            Topology::LineStrip => 3,
            Topology::TriangleList => 4,
            Topology::TriangleStrip => 5,
            Topology::LineListAdj => 10,
            Topology::LineStripAdj => 11,
            Topology::TriangleListAdj => 12,
            Topology::TriangleStripAdj => 13,
            Topology::PatchList(n) => 32 + n as u32,
        }
    }

    /// The topology of a D3D11 number; `None` for a number that is no topology D3D11 draws.
    pub const fn from_number(n: u32) -> Option<Topology> {
        Some(match n {
            1 => Topology::PointList,
            2 => Topology::LineList,
            3 => Topology::LineStrip,
            4 => Topology::TriangleList,
            5 => Topology::TriangleStrip,
            10 => Topology::LineListAdj,
            11 => Topology::LineStripAdj,
            12 => Topology::TriangleListAdj,
            13 => Topology::TriangleStripAdj,
            33..=64 => Topology::PatchList((n - 32) as u8),
            _ => return None,
        })
    }

    /// Whether the index buffer's restart value cuts it (D3D11: strip topologies only).
    pub const fn is_strip(self) -> bool {
        matches!(
            self,
            Topology::LineStrip | Topology::TriangleStrip | Topology::LineStripAdj | Topology::TriangleStripAdj
        )
    }

    /// The primitive a geometry shader must declare (`dcl_inputprimitive`) to follow it.
    pub const fn input_primitive(self) -> InputPrimitive {
        match self {
            Topology::PointList => InputPrimitive::Point,
            Topology::LineList | Topology::LineStrip => InputPrimitive::Line,
            Topology::TriangleList | Topology::TriangleStrip => InputPrimitive::Triangle,
            Topology::LineListAdj | Topology::LineStripAdj => InputPrimitive::LineAdj,
            Topology::TriangleListAdj | Topology::TriangleStripAdj => InputPrimitive::TriangleAdj,
            Topology::PatchList(n) => InputPrimitive::Patch(n),
        }
    }

    /// Candidate primitives of a strip (or list) of `positions` input positions: the geometry
    /// module runs one invocation per candidate (and GS instance); candidates that complete no
    /// primitive (a strip with adjacency's odd positions, a strip's last positions) emit nothing.
    /// A patch list of no control points (`PatchList(0)`, no D3D11 topology) has none.
    pub const fn candidates(self, positions: u32) -> u32 {
        let n = self.input_primitive().vertices();
        match self {
            Topology::LineStrip | Topology::TriangleStrip | Topology::LineStripAdj => positions.saturating_sub(n - 1),
            // Triangles start every second position; with restarts a strip may start at any.
            Topology::TriangleStripAdj => positions.saturating_sub(5),
            _ => match positions.checked_div(n) {
                Some(c) => c,
                None => 0,
            },
        }
    }

    /// The input positions candidate primitives `[begin, end)` read, clipped to the draw's
    /// `positions`: `(first, count)` (computed in 64 bits: any `begin`, `end` of 32 bits; a
    /// `first` past 32 bits is `u32::MAX`, with count 0).
    pub const fn positions_of(self, begin: u32, end: u32, positions: u32) -> (u32, u32) {
        if begin >= end {
            return (0, 0);
        }
        let n = self.input_primitive().vertices() as u64;
        let (begin, end) = (begin as u64, end as u64);
        let (first, last) = match self {
            Topology::LineStrip | Topology::TriangleStrip | Topology::LineStripAdj => (begin, end - 1 + n),
            // Vertex 2i-2 (the previous triangle's first) and up to 2i+6.
            Topology::TriangleStripAdj => (begin.saturating_sub(2), end - 1 + 7),
            _ => (begin * n, end * n),
        };
        let last = if last < positions as u64 { last } else { positions as u64 };
        // `count <= positions`.
        let first32 = if first > u32::MAX as u64 { u32::MAX } else { first as u32 };
        (first32, last.saturating_sub(first) as u32)
    }
}

/// A geometry shader's input primitive (`dcl_inputprimitive`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
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
    /// `patchN`: a patch of N control points (1-32).
    Patch(u8),
}

impl InputPrimitive {
    /// Vertices per primitive (the first dimension of `v[n][r]`).
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

    /// Whether a draw of `topology` feeds this primitive.
    pub fn accepts(self, topology: Topology) -> bool {
        topology.input_primitive() == self
    }
}

/// A geometry shader's output topology (`dcl_outputtopology`), drawn natively.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum OutputTopology {
    /// `pointlist`: drawn as a point list, one vertex per output slot.
    PointList,
    /// `linestrip`: drawn as a line strip over restart-indexed strips.
    LineStrip,
    /// `trianglestrip`: drawn as a triangle strip over restart-indexed strips.
    TriangleStrip,
}

/// The assembly kernel of an indexed strip draw (WGSL, one workgroup of [`WORKGROUP_SIZE`]
/// invocations, entry point `main`): for every input position `p` of the draw it writes
/// `table[p] = (strip start, strip end, primitive id, 0)`, where the strip is the run of
/// positions between D3D's restart indices (`0xFFFF` for 16-bit, `0xFFFFFFFF` for 32-bit
/// indices; D3D11.3 §8.4.3, strip topologies only) that holds `p`, and the primitive id counts
/// the primitives that start before `p` in the draw (`0xFFFFFFFF` where no primitive starts).
/// It binds group [`SYSTEM_GROUP`]: [`DRAW_PARAMS`], [`INDEX_BUFFER`] and [`ASSEMBLY_TABLE`]
/// (`read_write`). Each invocation walks one contiguous run of positions, so it runs in
/// O(positions / 64) steps plus two 64-entry scans.
pub const ASSEMBLY_WGSL: &str = include_str!("wgsl/assembly.wgsl");
/// The geometry helper library a geometry shader's compute module is built into: its bindings
/// in group [`SYSTEM_GROUP`], primitive assembly, emits and cuts.
pub const GEOMETRY_WGSL: &str = include_str!("wgsl/geometry.wgsl");
/// The vertex-pulling helper library a vertex shader translated as compute is built into
/// (without its per-shader vertex buffers, which the translator appends at
/// [`VERTEX_BUFFER_BASE`]` + slot`).
pub const VERTEX_PULL_WGSL: &str = include_str!("wgsl/vertex_pull.wgsl");
/// The stream-output helpers appended to [`GEOMETRY_WGSL`] for a geometry shader translated
/// with stream output (`docs/stream-output.md`).
pub const GEOMETRY_STREAMS_WGSL: &str = include_str!("wgsl/geometry_streams.wgsl");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topology_numbers_round_trip() {
        for n in 0..=70 {
            if let Some(t) = Topology::from_number(n) {
                assert_eq!(t.number(), n);
            }
        }
        assert_eq!(Topology::from_number(6), None);
        assert_eq!(Topology::from_number(33), Some(Topology::PatchList(1)));
        assert_eq!(Topology::from_number(65), None);
    }

    #[test]
    fn draw_params_words_follow_declaration_order() {
        let p = DrawParams {
            vertex_count: 7,
            workgroups_x: 9,
            vertex_buffer_offsets: [[0, 5, 0, 0]; 4],
            ..DrawParams::default()
        };
        let w = p.to_words();
        assert_eq!((w[0], w[15], w[17], w[16]), (7, 9, 5, 0));
        assert_eq!(p.to_bytes().len() as u64, DRAW_PARAMS_SIZE);
        assert_eq!(std::mem::size_of::<DrawParams>() as u64, DRAW_PARAMS_SIZE);
    }

    #[test]
    fn dispatch_spreads_over_y() {
        assert_eq!(dispatch_size(0), [0, 0]);
        assert_eq!(dispatch_size(65), [2, 1]);
        assert_eq!(dispatch_size(64 * 65536), [65535, 2]);
    }
}
