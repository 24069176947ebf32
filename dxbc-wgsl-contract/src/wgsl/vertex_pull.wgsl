// The primitive stage's helpers for a vertex shader translated to compute in front of a
// geometry shader (dxbc_wgsl::geometry, docs/geometry.md): the invocation's vertex and instance,
// vertex pulling (D3D11.3 §8 Input Assembler) and the vertex record it writes. The vertex
// buffer bindings and `vs_word` are appended per shader, for the slots its layout uses.

struct DrawParams {
    vertex_count: u32,
    first_vertex: u32,
    base_vertex: u32,
    first_instance: u32,
    index_size: u32,
    index_offset: u32,
    topology: u32,
    use_assembly_table: u32,
    instance_begin: u32,
    instance_count: u32,
    position_begin: u32,
    position_count: u32,
    primitive_begin: u32,
    primitive_count: u32,
    invocations: u32,
    workgroups_x: u32,
    vertex_buffer_offsets: array<vec4<u32>, 4>,
}

@group(3) @binding(0) var<uniform> vs_draw: DrawParams;
@group(3) @binding(1) var<storage, read_write> vs_records: array<vec4<u32>>;
@group(3) @binding(2) var<storage, read> vs_indices: array<u32>;

var<private> vs_t: u32;
var<private> vs_vertex_id: u32;
var<private> vs_instance_id: u32;
// Whether the vertex the invocation fetches lies past 2^32 or below 0 (StartVertexLocation +
// position, or index + BaseVertexLocation, out of 32 bits): SV_VertexID wraps, the fetch is
// past every buffer.
var<private> vs_vertex_wrapped: bool;

// The byte of index `p` of the draw (`index_offset + (first_vertex + p) * index_size`), or
// 0xFFFFFFFF when it lies at or past 2^32 (past every binding: the index reads 0).
fn vs_index_byte(p: u32) -> u32 {
    let i = vs_draw.first_vertex + p;
    if (i < p || i > (0xFFFFFFFFu - vs_draw.index_offset) / vs_draw.index_size) {
        return 0xFFFFFFFFu;
    }
    return vs_draw.index_offset + i * vs_draw.index_size;
}

// The invocation's vertex (SV_VertexID) and instance (SV_InstanceID); false past the chunk, and
// for a strip's restart index (no vertex).
fn vs_begin(wg: vec3<u32>, li: u32) -> bool {
    let t = (wg.y * vs_draw.workgroups_x + wg.x) * 64u + li;
    vs_t = t;
    if (t >= vs_draw.invocations || vs_draw.position_count == 0u) {
        return false;
    }
    let pos = vs_draw.position_begin + t % vs_draw.position_count;
    vs_instance_id = vs_draw.instance_begin + t / vs_draw.position_count;
    if (vs_draw.index_size == 0u) {
        vs_vertex_id = vs_draw.first_vertex + pos;
        vs_vertex_wrapped = vs_vertex_id < pos;
        return true;
    }
    let byte = vs_index_byte(pos);
    let word = byte / 4u;
    var index = 0u;
    if (byte != 0xFFFFFFFFu && word < arrayLength(&vs_indices)) {
        index = vs_indices[word];
        if (vs_draw.index_size == 2u) {
            index = (index >> ((byte & 2u) * 8u)) & 0xFFFFu;
        }
    }
    let strip = vs_draw.topology == 3u || vs_draw.topology == 5u || vs_draw.topology == 11u || vs_draw.topology == 13u;
    let restart = select(0xFFFFFFFFu, 0xFFFFu, vs_draw.index_size == 2u);
    if (strip && index == restart) {
        return false;
    }
    vs_vertex_id = index + vs_draw.base_vertex;
    // BaseVertexLocation is signed: a negative one wraps below 0 when the sum exceeds the index.
    vs_vertex_wrapped = select((vs_vertex_id < index), (vs_vertex_id > index), bitcast<i32>(vs_draw.base_vertex) < 0);
    return true;
}

// The 32 bits starting `byte` bytes (0-3) into word `w` of slot `slot`.
fn vs_unaligned(slot: u32, w: u32, byte: u32) -> u32 {
    let lo = vs_word(slot, w);
    if (byte == 0u) {
        return lo;
    }
    let hi = vs_word(slot, w + 1u);
    return (lo >> (byte * 8u)) | (hi << (32u - byte * 8u));
}

fn vs_sext(v: u32, bits: u32) -> u32 {
    return bitcast<u32>(extractBits(bitcast<i32>(v), 0u, bits));
}

// Normalized integers through WGSL's unpack builtins (D3D11.3 §3.2.3: c / (2^n - 1), and for
// signed formats -2^(n-1) reads -1.0 like -2^(n-1)+1); 8-bit lanes are bytes of `v`, 16-bit
// lanes halves.
fn vs_unorm8(v: u32, lane: u32) -> u32 {
    return bitcast<u32>(unpack4x8unorm(v)[lane]);
}
fn vs_snorm8(v: u32, lane: u32) -> u32 {
    return bitcast<u32>(unpack4x8snorm(v)[lane]);
}
fn vs_unorm16(v: u32, lane: u32) -> u32 {
    return bitcast<u32>(unpack2x16unorm(v)[lane]);
}
fn vs_snorm16(v: u32, lane: u32) -> u32 {
    return bitcast<u32>(unpack2x16snorm(v)[lane]);
}
fn vs_unorm_bits(v: u32, bits: u32) -> u32 {
    return bitcast<u32>(f32(v) / f32((1u << bits) - 1u));
}

// Whether the `size` bytes at `offset` of element `element` (of `stride` bytes, from byte
// `base`) lie in the first `bytes` bytes, computed without wrapping: a vertex index whose
// address passes 2^32 (a large index, or a negative BaseVertexLocation) is past the buffer, as
// D3D's out-of-bounds vertex fetches are, and reads 0 rather than the wrapped address.
// `wrapped`: the element index itself lies outside 32 bits.
fn vs_element_in(bytes: u32, base: u32, element: u32, wrapped: bool, stride: u32, offset: u32, size: u32) -> bool {
    if (base > bytes || offset > bytes - base || size > bytes - base - offset) {
        return false;
    }
    return stride == 0u || (!wrapped && element <= (bytes - base - offset - size) / stride);
}

// Input element of `format` (its index in dxbc_wgsl::geometry::VertexFormat::ALL) in slot
// `slot` at `offset` bytes of a vertex of `stride` bytes, per vertex (`per_instance` 0) or per
// instance (`per_instance` 1, InstanceDataStepRate `rate`): the register value, D3D's defaults
// (0, 0, 0, 1) in the components the format lacks. An element past the end of its buffer reads
// 0 in the components the format has.
fn vs_fetch(slot: u32, stride: u32, offset: u32, per_instance: u32, rate: u32, format: u32, size: u32) -> vec4<u32> {
    var element = vs_vertex_id;
    var wrapped = vs_vertex_wrapped;
    if (per_instance != 0u) {
        element = vs_draw.first_instance + select(0u, vs_instance_id / max(rate, 1u), rate != 0u);
        wrapped = element < vs_draw.first_instance;
    }
    let base = vs_draw.vertex_buffer_offsets[slot / 4u][slot % 4u];
    var e = vec4<u32>();
    if (vs_element_in(vs_bytes(slot), base, element, wrapped, stride, offset, size)) {
        let address = base + element * stride + offset;
        let w = address / 4u;
        let b = address % 4u;
        e = vec4<u32>(vs_unaligned(slot, w, b), vs_unaligned(slot, w + 1u, b), vs_unaligned(slot, w + 2u, b), vs_unaligned(slot, w + 3u, b));
    }
    let one_f = 0x3f800000u;
    switch format {
        // uint8, uint8x2, uint8x4
        case 0u: { return vec4<u32>(e.x & 0xFFu, 0u, 0u, 1u); }
        case 1u: { return vec4<u32>(e.x & 0xFFu, (e.x >> 8u) & 0xFFu, 0u, 1u); }
        case 2u: { return vec4<u32>(e.x & 0xFFu, (e.x >> 8u) & 0xFFu, (e.x >> 16u) & 0xFFu, e.x >> 24u); }
        // sint8, sint8x2, sint8x4
        case 3u: { return vec4<u32>(vs_sext(e.x, 8u), 0u, 0u, 1u); }
        case 4u: { return vec4<u32>(vs_sext(e.x, 8u), vs_sext(e.x >> 8u, 8u), 0u, 1u); }
        case 5u: { return vec4<u32>(vs_sext(e.x, 8u), vs_sext(e.x >> 8u, 8u), vs_sext(e.x >> 16u, 8u), vs_sext(e.x >> 24u, 8u)); }
        // unorm8, unorm8x2, unorm8x4
        case 6u: { return vec4<u32>(vs_unorm8(e.x, 0u), 0u, 0u, one_f); }
        case 7u: { return vec4<u32>(vs_unorm8(e.x, 0u), vs_unorm8(e.x, 1u), 0u, one_f); }
        case 8u: { return bitcast<vec4<u32>>(unpack4x8unorm(e.x)); }
        // snorm8, snorm8x2, snorm8x4
        case 9u: { return vec4<u32>(vs_snorm8(e.x, 0u), 0u, 0u, one_f); }
        case 10u: { return vec4<u32>(vs_snorm8(e.x, 0u), vs_snorm8(e.x, 1u), 0u, one_f); }
        case 11u: { return bitcast<vec4<u32>>(unpack4x8snorm(e.x)); }
        // uint16, uint16x2, uint16x4
        case 12u: { return vec4<u32>(e.x & 0xFFFFu, 0u, 0u, 1u); }
        case 13u: { return vec4<u32>(e.x & 0xFFFFu, e.x >> 16u, 0u, 1u); }
        case 14u: { return vec4<u32>(e.x & 0xFFFFu, e.x >> 16u, e.y & 0xFFFFu, e.y >> 16u); }
        // sint16, sint16x2, sint16x4
        case 15u: { return vec4<u32>(vs_sext(e.x, 16u), 0u, 0u, 1u); }
        case 16u: { return vec4<u32>(vs_sext(e.x, 16u), vs_sext(e.x >> 16u, 16u), 0u, 1u); }
        case 17u: { return vec4<u32>(vs_sext(e.x, 16u), vs_sext(e.x >> 16u, 16u), vs_sext(e.y, 16u), vs_sext(e.y >> 16u, 16u)); }
        // unorm16, unorm16x2, unorm16x4
        case 18u: { return vec4<u32>(vs_unorm16(e.x, 0u), 0u, 0u, one_f); }
        case 19u: { return vec4<u32>(vs_unorm16(e.x, 0u), vs_unorm16(e.x, 1u), 0u, one_f); }
        case 20u: { return vec4<u32>(vs_unorm16(e.x, 0u), vs_unorm16(e.x, 1u), vs_unorm16(e.y, 0u), vs_unorm16(e.y, 1u)); }
        // snorm16, snorm16x2, snorm16x4
        case 21u: { return vec4<u32>(vs_snorm16(e.x, 0u), 0u, 0u, one_f); }
        case 22u: { return vec4<u32>(vs_snorm16(e.x, 0u), vs_snorm16(e.x, 1u), 0u, one_f); }
        case 23u: { return vec4<u32>(vs_snorm16(e.x, 0u), vs_snorm16(e.x, 1u), vs_snorm16(e.y, 0u), vs_snorm16(e.y, 1u)); }
        // float16, float16x2, float16x4
        case 24u: { return vec4<u32>(bitcast<u32>(unpack2x16float(e.x).x), 0u, 0u, one_f); }
        case 25u: { let a = unpack2x16float(e.x); return vec4<u32>(bitcast<u32>(a.x), bitcast<u32>(a.y), 0u, one_f); }
        case 26u: { let a = unpack2x16float(e.x); let c = unpack2x16float(e.y); return bitcast<vec4<u32>>(vec4<f32>(a, c)); }
        // float32, float32x2, float32x3, float32x4
        case 27u: { return vec4<u32>(e.x, 0u, 0u, one_f); }
        case 28u: { return vec4<u32>(e.x, e.y, 0u, one_f); }
        case 29u: { return vec4<u32>(e.x, e.y, e.z, one_f); }
        case 30u: { return e; }
        // uint32 and sint32, 1-4 components
        case 31u, 35u: { return vec4<u32>(e.x, 0u, 0u, 1u); }
        case 32u, 36u: { return vec4<u32>(e.x, e.y, 0u, 1u); }
        case 33u, 37u: { return vec4<u32>(e.x, e.y, e.z, 1u); }
        case 34u, 38u: { return e; }
        // unorm10-10-10-2
        case 39u: { return vec4<u32>(vs_unorm_bits(e.x & 0x3FFu, 10u), vs_unorm_bits((e.x >> 10u) & 0x3FFu, 10u), vs_unorm_bits((e.x >> 20u) & 0x3FFu, 10u), vs_unorm_bits(e.x >> 30u, 2u)); }
        // unorm8x4-bgra
        case 40u: { return bitcast<vec4<u32>>(unpack4x8unorm(e.x).zyxw); }
        default: { return vec4<u32>(0u, 0u, 0u, 1u); }
    }
}

// Writes register `r` of the invocation's vertex record (`regs` registers per record).
fn vs_store(r: u32, regs: u32, v: vec4<u32>) {
    let at = vs_t * regs + r;
    if (at < arrayLength(&vs_records)) {
        vs_records[at] = v;
    }
}
