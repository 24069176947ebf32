//! Stream output from the primitive stage (D3D11.3 §14, `docs/stream-output.md`): which streams
//! a geometry shader's translation keeps and how their output is laid out
//! ([`GeometryStreams`], [`StreamInfo`]), the implicit pass-through geometry module of
//! stream output from a vertex shader ([`pass_through_geometry`]), and a declaration resolved
//! against a shader's output signature ([`resolve_so_declaration`]).

use super::{GeometryInfo, InputPrimitive, OutputTopology};
use crate::chunks::signature::SignatureElement;
use crate::TranslateError;

/// Which of a geometry shader's streams its translation keeps
/// ([`crate::TranslateOptions::geometry_streams`]): `CreateGeometryShaderWithStreamOutput`'s
/// `RasterizedStream` and the streams its declaration writes.
///
/// The default (stream 0 rasterized, no stream output) is `CreateGeometryShader`: the
/// translation is the plain one, which drops the emits and cuts of every other stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GeometryStreams {
    /// The stream drawn; `None`: `D3D11_SO_NO_RASTERIZED_STREAM` (nothing is drawn).
    pub rasterized: Option<u32>,
    /// Bit `n`: stream `n` is written to stream output.
    pub stream_out: u8,
}

impl Default for GeometryStreams {
    fn default() -> Self {
        GeometryStreams { rasterized: Some(0), stream_out: 0 }
    }
}

impl GeometryStreams {
    /// Whether this is the plain translation's (stream 0 drawn, no stream output).
    pub fn is_default(&self) -> bool {
        *self == GeometryStreams::default()
    }
}

/// How a geometry module translated with stream output ([`GeometryInfo::streams`]) lays out
/// its output: [`StreamInfo::slots`] output vertex slots per invocation, shared by every stream
/// (`dcl_maxout` counts the emits of all of them), and [`StreamInfo::regions`] regions of
/// [`StreamInfo::index_stride`] index words per invocation: region `r` of invocation `t` of a
/// chunk of `n` invocations is the words `(r * n + t) * index_stride ..` of the output indices,
/// a restart-indexed (`0xFFFFFFFF`) list of output vertex slots.
///
/// A rasterized stream owns region 0, the one the draw reads: strips drawn as before
/// (restart-indexed `LineStrip`/`TriangleStrip`, the first `n * index_stride` words); a point
/// list drawn as an indexed `PointList` whose unused words hold the invocation's *hidden slot*
/// (slot `max_vertices`, its position [`CULLED_POSITION`](super::CULLED_POSITION)), since restart indices do not apply
/// to lists. A stream written to stream output reads its lists from
/// [`StreamInfo::so_regions`]: region 0 for a rasterized strip stream, its own region for a
/// rasterized point stream (region 0's padding is not a list of its points) and for the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StreamInfo {
    /// The streams kept ([`GeometryStreams`]).
    pub streams: GeometryStreams,
    /// Index regions per invocation (1-5).
    pub regions: u32,
    /// Per stream, the region stream output reads its lists from (`None`: not streamed out).
    pub so_regions: [Option<u32>; 4],
    /// Whether region 0 is drawn (a stream is rasterized).
    pub drawn: bool,
    /// Index words per invocation and region: `2 × max_vertices + 1` for strips (an emit and a
    /// cut per vertex, and the restart that ends the invocation), `max_vertices` for points.
    pub index_stride: u32,
    /// Output vertex slots per invocation: `max_vertices`, and the hidden slot of a drawn point
    /// list.
    pub slots: u32,
    /// A drawn point list: slot `max_vertices` of each invocation holds a vertex at
    /// [`CULLED_POSITION`](super::CULLED_POSITION), and pads region 0.
    pub hidden_slot: bool,
    /// Vertices per output primitive: 1 (points), 2 (line strips), 3 (triangle strips).
    pub prim_vertices: u32,
}

impl StreamInfo {
    /// The layout of a geometry shader of output `topology` and `dcl_maxout` `max_vertices`
    /// that declares the streams `declared` (`dcl_stream`; stream 0 before SM5), keeping
    /// `streams`; `None` for the default (the plain translation).
    ///
    /// # Errors
    /// [`TranslateError::InvalidOptions`] for a stream past 3, stream output of a stream the
    /// shader does not declare, a shader without an output topology, or nothing kept at all.
    pub fn new(
        topology: Option<OutputTopology>,
        max_vertices: u32,
        streams: GeometryStreams,
        declared: &[u32],
    ) -> Result<Option<StreamInfo>, TranslateError> {
        if streams.is_default() {
            return Ok(None);
        }
        let bad = |s: String| Err(TranslateError::InvalidOptions(format!("geometry streams: {s}")));
        if let Some(r) = streams.rasterized.filter(|&r| r > 3) {
            return bad(format!("rasterized stream {r} (streams are 0-3)"));
        }
        if streams.stream_out & 0xF0 != 0 {
            return bad(format!("stream output mask {:#x} names streams past 3", streams.stream_out));
        }
        if let Some(s) = (0..4u32).find(|&s| streams.stream_out & (1 << s) != 0 && !declared.contains(&s)) {
            return bad(format!("stream output of stream {s}, which the geometry shader does not declare"));
        }
        let Some(topology) = topology else {
            return bad("stream output from a geometry shader without dcl_outputtopology".into());
        };
        if streams.rasterized.is_none() && streams.stream_out == 0 {
            return bad("no stream rasterized and none streamed out".into());
        }
        let points = topology == OutputTopology::PointList;
        let drawn = streams.rasterized.is_some();
        let mut regions = u32::from(drawn);
        let mut so_regions = [None; 4];
        for s in 0..4u32 {
            if streams.stream_out & (1 << s) == 0 {
                continue;
            }
            if streams.rasterized == Some(s) && !points {
                so_regions[s as usize] = Some(0);
            } else {
                so_regions[s as usize] = Some(regions);
                regions += 1;
            }
        }
        let hidden_slot = points && drawn;
        Ok(Some(StreamInfo {
            streams,
            regions,
            so_regions,
            drawn,
            index_stride: if points { max_vertices } else { 2 * max_vertices + 1 },
            slots: max_vertices + u32::from(hidden_slot),
            hidden_slot,
            prim_vertices: match topology {
                OutputTopology::PointList => 1,
                OutputTopology::LineStrip => 2,
                OutputTopology::TriangleStrip => 3,
            },
        }))
    }

    /// The regions stream `stream`'s emits and cuts write, as a bit mask (bit `r`: region `r`).
    pub fn region_mask(&self, stream: u32) -> u32 {
        let drawn = u32::from(self.drawn && self.streams.rasterized == Some(stream));
        let so = self.so_regions.get(stream as usize).copied().flatten().map_or(0, |r| 1 << r);
        drawn | so
    }

    /// `gs_streams_begin`'s arguments (the stream library's layout).
    pub(crate) fn begin_arguments(&self) -> [u32; 8] {
        [
            self.region_mask(0),
            self.region_mask(1),
            self.region_mask(2),
            self.region_mask(3),
            self.regions,
            self.index_stride,
            u32::from(self.prim_vertices > 1),
            u32::from(self.hidden_slot),
        ]
    }
}

/// The implicit geometry module of stream output with no geometry shader (a vertex shader's
/// bytecode given to `CreateGeometryShaderWithStreamOutput`), and of any pass that needs the
/// primitive stage without a geometry shader of its own: WGSL on the geometry library
/// (`dxbc_wgsl::lower` parses it the same way) whose entry point `main` emits, per candidate
/// primitive, its vertices in primitive-assembly order (a triangle strip's odd triangles as
/// `j, j+2, j+1`, the winding kept) as one primitive of the matching output topology: points,
/// a 2-vertex line strip, a 3-vertex triangle strip; an adjacency primitive its non-adjacent
/// vertices (a line with adjacency vertices 1 and 2, a triangle with adjacency 0, 2 and 4).
/// Every output register is the vertex record's register (`registers` of them, the vertex
/// shader translated with `VertexStage::Compute` and `record_registers == registers`);
/// `position_register` is its SV_Position (drawn; `None`: nothing is drawn).
///
/// # Errors
/// [`TranslateError::InvalidOptions`] for a patch list (control points go to a hull shader),
/// registers outside 1-32 or a position register past them, and the errors of
/// [`StreamInfo::new`] (the module declares stream 0 only).
pub fn pass_through_geometry(
    primitive: InputPrimitive,
    registers: u32,
    position_register: Option<u32>,
    streams: GeometryStreams,
) -> Result<(String, GeometryInfo), TranslateError> {
    let bad = |s: String| Err(TranslateError::InvalidOptions(format!("pass-through geometry: {s}")));
    if !(1..=32).contains(&registers) {
        return bad(format!("{registers} registers (1-32)"));
    }
    if let Some(p) = position_register.filter(|&p| p >= registers) {
        return bad(format!("position register {p} past the {registers} registers"));
    }
    let (topology, order): (OutputTopology, &[u32]) = match primitive {
        InputPrimitive::Point => (OutputTopology::PointList, &[0]),
        InputPrimitive::Line => (OutputTopology::LineStrip, &[0, 1]),
        InputPrimitive::Triangle => (OutputTopology::TriangleStrip, &[0, 1, 2]),
        InputPrimitive::LineAdj => (OutputTopology::LineStrip, &[1, 2]),
        InputPrimitive::TriangleAdj => (OutputTopology::TriangleStrip, &[0, 2, 4]),
        InputPrimitive::Patch(n) => {
            return bad(format!("a patch list of {n} control points (no primitive to pass through)"));
        }
    };
    let max_vertices = order.len() as u32;
    let stream = StreamInfo::new(Some(topology), max_vertices, streams, &[0])?;
    let index_stride = match topology {
        OutputTopology::PointList => 0,
        _ => 2 * max_vertices + 1,
    };
    let info = GeometryInfo {
        input_primitive: primitive,
        output_topology: Some(topology),
        max_vertices,
        instances: 1,
        input_registers: registers,
        output_registers: registers,
        position_register,
        index_stride,
        cull_flag_register: None,
        streams: stream,
    };
    let mut text = dxbc_wgsl_contract::geometry::GEOMETRY_WGSL.to_string();
    let (slots, stride, emit, end) = match &stream {
        None => (max_vertices, index_stride, "gs_emit()".to_string(), "gs_end"),
        Some(s) => {
            text.push_str(dxbc_wgsl_contract::geometry::GEOMETRY_STREAMS_WGSL);
            (s.slots, 0, "gs_stream_emit(0u)".to_string(), "gs_stream_end")
        }
    };
    let u = |v: u32| format!("{v}u");
    text.push_str(
        "\n// The implicit geometry shader of stream output without one: each candidate primitive's\n\
         // vertices in primitive-assembly order.\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(workgroup_id) workgroup_id: vec3<u32>, @builtin(local_invocation_index) local_index: u32) {\n",
    );
    let args = [
        primitive.vertices(),
        registers,
        registers,
        max_vertices,
        slots,
        1,
        stride,
        position_register.unwrap_or(u32::MAX),
    ];
    let args: Vec<String> = args.iter().map(|&a| u(a)).collect();
    text.push_str(&format!("    let live = gs_begin(workgroup_id, local_index, {});\n", args.join(", ")));
    if let Some(s) = &stream {
        let b: Vec<String> = s.begin_arguments().iter().map(|&a| u(a)).collect();
        text.push_str(&format!("    gs_streams_begin({});\n", b.join(", ")));
    }
    text.push_str(&format!("    if (!live) {{\n        {end}();\n        return;\n    }}\n"));
    for (n, &k) in order.iter().enumerate() {
        text.push_str(&format!("    let slot{n} = {emit};\n"));
        text.push_str(&format!(
            "    for (var r = 0u; r < {}; r++) {{\n        gs_store(slot{n}, r, gs_input({}, r));\n    }}\n",
            u(registers),
            u(k)
        ));
    }
    text.push_str(&format!("    {end}();\n}}\n"));
    Ok((text, info))
}

/// One entry of a stream-output declaration as the API gives it (`D3D11_SO_DECLARATION_ENTRY`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SoDeclarationEntry {
    /// `Stream` (0-3).
    pub stream: u32,
    /// `SemanticName`, matched without regard to case; `None` for a gap.
    pub semantic_name: Option<String>,
    /// `SemanticIndex`.
    pub semantic_index: u32,
    /// `StartComponent`: relative to the element's first component.
    pub start_component: u32,
    /// `ComponentCount` (a gap's may exceed 4).
    pub component_count: u32,
    /// `OutputSlot` (0-3).
    pub output_slot: u32,
}

/// An entry resolved to an output register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SoResolvedEntry {
    /// The stream.
    pub stream: u32,
    /// The output register (`None`: a gap).
    pub register: Option<u32>,
    /// The register's first component written (0-3; 0 for a gap).
    pub start_component: u32,
    /// Components (a gap's may exceed 4).
    pub component_count: u32,
    /// The output slot.
    pub slot: u32,
}

/// A stream-output declaration resolved against a shader's output signature.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SoDeclaration {
    /// The entries in declaration order.
    pub entries: Vec<SoResolvedEntry>,
    /// Bytes per vertex of each slot (0 for a slot no entry writes).
    pub strides: [u32; 4],
    /// The rasterized stream (`None`: `D3D11_SO_NO_RASTERIZED_STREAM`).
    pub rasterized: Option<u32>,
}

impl SoDeclaration {
    /// The streams the declaration writes, as a bit mask.
    pub fn streams(&self) -> u8 {
        self.entries.iter().fold(0, |m, e| m | (1 << e.stream))
    }

    /// The [`GeometryStreams`] to translate the geometry shader with.
    pub fn geometry_streams(&self) -> GeometryStreams {
        GeometryStreams { rasterized: self.rasterized, stream_out: self.streams() }
    }

    /// The entries as the stream-output kernels take them: in declaration order, a gap of more
    /// than 4 components split into consecutive gaps of at most 4 (the same bytes skipped).
    pub fn runtime_entries(&self) -> Vec<SoResolvedEntry> {
        let mut out = Vec::with_capacity(self.entries.len());
        for e in &self.entries {
            if e.register.is_some() {
                out.push(*e);
                continue;
            }
            let mut left = e.component_count;
            while left > 0 {
                let n = left.min(4);
                out.push(SoResolvedEntry { component_count: n, start_component: 0, ..*e });
                left -= n;
            }
        }
        out
    }
}

/// Why a declaration is refused (`CreateGeometryShaderWithStreamOutput` returns
/// `E_INVALIDARG`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoDeclarationError {
    /// The entry at fault, if one is.
    pub entry: Option<usize>,
    /// The slot whose stride is at fault (given too small, unaligned or too large, or not
    /// given for a used slot), if one is.
    pub stride_slot: Option<u32>,
    /// What rule it breaks.
    pub message: String,
}

impl std::fmt::Display for SoDeclarationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.entry {
            Some(i) => write!(f, "stream-output declaration entry {i}: {}", self.message),
            None => write!(f, "stream-output declaration: {}", self.message),
        }
    }
}

impl std::error::Error for SoDeclarationError {}

/// Streams and slots of D3D11 (`D3D11_SO_STREAM_COUNT`, `D3D11_SO_BUFFER_SLOT_COUNT`).
const SO_COUNT: u32 = dxbc_wgsl_contract::stream_output::SO_STREAMS;
const _: () = assert!(SO_COUNT == dxbc_wgsl_contract::stream_output::SO_SLOTS);
/// Entries of a declaration at most (`D3D11_SO_STREAM_COUNT * D3D11_SO_OUTPUT_COMPONENT_COUNT`).
pub use dxbc_wgsl_contract::stream_output::SO_MAX_ENTRIES;
/// Bytes per vertex of a slot at most (`D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES`).
use dxbc_wgsl_contract::stream_output::SO_MAX_STRIDE;

/// Resolves a stream-output declaration (`CreateGeometryShaderWithStreamOutput`'s
/// `pSODeclaration`, `pBufferStrides` — `None` for a null pointer — and `RasterizedStream`)
/// against the output signature of the shader it reads (the geometry shader's, or the vertex
/// shader's for stream output without one), by D3D's rules (D3D11.3 §14.4, the
/// `D3D11_SO_DECLARATION_ENTRY` documentation):
///
/// - 1-512 entries; streams and output slots 0-3; a stream's entries must name elements of that
///   stream in the signature (semantic names without regard to case);
/// - a gap (no semantic name) has semantic index 0, start component 0 and at least one
///   component; an element's entry 1-4 components from `start_component` (relative to the
///   element's first component) within the element's mask;
/// - no two entries of one stream write the same component of one element;
/// - every slot holds one stream, and a slot no entry but gaps writes is refused;
/// - with strides: more strides than the highest slot used, each used slot's stride a multiple
///   of 4 that holds its entries (gaps included), 2048 at most; without, each slot's stride is
///   its entries' size;
/// - the rasterized stream 0-3 or none.
///
/// # Errors
/// [`SoDeclarationError`] naming the rule broken (and the entry).
pub fn resolve_so_declaration(
    output_signature: &[SignatureElement],
    entries: &[SoDeclarationEntry],
    strides: Option<&[u32]>,
    rasterized: Option<u32>,
) -> Result<SoDeclaration, SoDeclarationError> {
    let fail = |entry: Option<usize>, message: String| Err(SoDeclarationError { entry, stride_slot: None, message });
    let fail_stride =
        |slot: usize, message: String| Err(SoDeclarationError { entry: None, stride_slot: Some(slot as u32), message });
    if entries.is_empty() {
        return fail(None, "no entries".into());
    }
    if entries.len() > SO_MAX_ENTRIES {
        return fail(None, format!("{} entries (D3D allows {SO_MAX_ENTRIES})", entries.len()));
    }
    if let Some(r) = rasterized.filter(|&r| r >= SO_COUNT) {
        return fail(None, format!("rasterized stream {r} (streams are 0-3)"));
    }
    let mut resolved = Vec::with_capacity(entries.len());
    // Per (stream, element) the components written so far.
    let mut written: Vec<(u32, usize, u8)> = Vec::new();
    let mut slot_stream = [None::<u32>; 4];
    let mut slot_data = [false; 4];
    let mut bytes = [0u32; 4];
    for (i, e) in entries.iter().enumerate() {
        let at = Some(i);
        if e.stream >= SO_COUNT {
            return fail(at, format!("stream {} (streams are 0-3)", e.stream));
        }
        if e.output_slot >= SO_COUNT {
            return fail(at, format!("output slot {} (slots are 0-3)", e.output_slot));
        }
        let s = e.output_slot as usize;
        match slot_stream[s] {
            Some(other) if other != e.stream => {
                return fail(at, format!("slot {s} would hold streams {other} and {}", e.stream))
            }
            _ => slot_stream[s] = Some(e.stream),
        }
        let register = match &e.semantic_name {
            None => {
                if e.semantic_index != 0 || e.start_component != 0 || e.component_count == 0 {
                    return fail(
                        at,
                        format!(
                            "a gap has semantic index 0, start component 0 and at least one component (got {}, {}, {})",
                            e.semantic_index, e.start_component, e.component_count
                        ),
                    );
                }
                None
            }
            Some(name) => {
                if e.start_component > 3 || e.component_count == 0 || e.start_component + e.component_count > 4 {
                    return fail(
                        at,
                        format!(
                            "components {}..{} (1-4 components within a register's 4)",
                            e.start_component,
                            e.start_component + e.component_count
                        ),
                    );
                }
                let Some((index, element)) = output_signature.iter().enumerate().find(|(_, el)| {
                    el.stream == e.stream
                        && el.semantic_index == e.semantic_index
                        && el.semantic_name.eq_ignore_ascii_case(name)
                }) else {
                    return fail(at, format!("no output element {name}{} on stream {}", e.semantic_index, e.stream));
                };
                let first = if element.mask == 0 { 0 } else { element.mask.trailing_zeros() };
                let start = first + e.start_component;
                let mask = ((1u32 << e.component_count) - 1) << start;
                if start + e.component_count > 4 || mask & !u32::from(element.mask) != 0 {
                    return fail(
                        at,
                        format!(
                            "components {}..{} of {name}{} are outside its mask {:#x}",
                            e.start_component,
                            e.start_component + e.component_count,
                            e.semantic_index,
                            element.mask
                        ),
                    );
                }
                let mask = mask as u8;
                match written.iter_mut().find(|(st, el, _)| *st == e.stream && *el == index) {
                    Some((_, _, m)) if *m & mask != 0 => {
                        return fail(at, format!("{name}{} components written twice", e.semantic_index))
                    }
                    Some((_, _, m)) => *m |= mask,
                    None => written.push((e.stream, index, mask)),
                }
                slot_data[s] = true;
                resolved.push(SoResolvedEntry {
                    stream: e.stream,
                    register: Some(element.register),
                    start_component: start,
                    component_count: e.component_count,
                    slot: e.output_slot,
                });
                bytes[s] = bytes[s].saturating_add(4 * e.component_count);
                continue;
            }
        };
        bytes[s] = bytes[s].saturating_add(e.component_count.saturating_mul(4));
        resolved.push(SoResolvedEntry {
            stream: e.stream,
            register,
            start_component: 0,
            component_count: e.component_count,
            slot: e.output_slot,
        });
    }
    if let Some(s) = (0..4).find(|&s| slot_stream[s].is_some() && !slot_data[s]) {
        return fail(None, format!("slot {s} holds only gaps"));
    }
    let mut out_strides = [0u32; 4];
    for s in 0..4 {
        if slot_stream[s].is_none() {
            continue;
        }
        let stride = match strides {
            None => bytes[s],
            Some(given) => match given.get(s) {
                None => return fail_stride(s, format!("slot {s} is used but {} strides are given", given.len())),
                Some(&st) => st,
            },
        };
        if let Some(given) = strides {
            if given.len() > SO_COUNT as usize {
                return fail(None, format!("{} strides (4 slots)", given.len()));
            }
            if stride < bytes[s] || !stride.is_multiple_of(4) {
                return fail_stride(
                    s,
                    format!("slot {s}: stride {stride} (a multiple of 4 holding its {} bytes)", bytes[s]),
                );
            }
        }
        if stride > SO_MAX_STRIDE {
            return fail_stride(s, format!("slot {s}: stride {stride} (D3D allows {SO_MAX_STRIDE})"));
        }
        out_strides[s] = stride;
    }
    Ok(SoDeclaration { entries: resolved, strides: out_strides, rasterized })
}
