// The assembly kernel of an indexed strip draw: cuts the index list at D3D's restart value and
// numbers the primitives. See `dxbc_wgsl::geometry::ASSEMBLY_WGSL`.

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

@group(3) @binding(0) var<uniform> draw: DrawParams;
@group(3) @binding(2) var<storage, read> indices: array<u32>;
@group(3) @binding(5) var<storage, read_write> table: array<vec4<u32>>;

const THREADS: u32 = 64u;
const NONE: u32 = 0xFFFFFFFFu;

var<workgroup> last_restart: array<u32, 64>;
var<workgroup> first_restart: array<u32, 64>;
var<workgroup> counts: array<u32, 64>;

// Whether input position `p` (relative to the draw's first index) holds the restart value.
fn is_restart(p: u32) -> bool {
    // The byte `index_offset + (first_vertex + p) * index_size`, computed without wrapping: an
    // index at or past 2^32 lies past the binding.
    let i = draw.first_vertex + p;
    if (i < p || i > (0xFFFFFFFFu - draw.index_offset) / draw.index_size) {
        return false;
    }
    let byte = draw.index_offset + i * draw.index_size;
    let word = byte / 4u;
    if (word >= arrayLength(&indices)) {
        // An index past the buffer reads 0 (D3D11.3 §8.4.2): not a restart.
        return false;
    }
    let w = indices[word];
    if (draw.index_size == 2u) {
        return ((w >> ((byte & 2u) * 8u)) & 0xFFFFu) == 0xFFFFu;
    }
    return w == 0xFFFFFFFFu;
}

// Whether a primitive starts at position `p` of the strip [start, end).
fn starts_primitive(p: u32, start: u32, end: u32) -> bool {
    if (p < start || p >= end) {
        return false;
    }
    let k = p - start;
    let len = end - start;
    switch draw.topology {
        case 3u: { return k + 2u <= len; }          // line strip
        case 5u: { return k + 3u <= len; }          // triangle strip
        case 11u: { return k + 4u <= len; }         // line strip with adjacency
        case 13u: {                                 // triangle strip with adjacency
            if (len < 6u || (k & 1u) != 0u) { return false; }
            return k / 2u < (len - 4u) / 2u;
        }
        default: { return false; }
    }
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) t: u32) {
    let n = draw.vertex_count;
    let per = (n + THREADS - 1u) / THREADS;
    let begin = min(t * per, n);
    let end = min(begin + per, n);
    var last = NONE;
    var first = NONE;
    for (var p = begin; p < end; p++) {
        if (is_restart(p)) {
            if (first == NONE) { first = p; }
            last = p;
        }
    }
    last_restart[t] = last;
    first_restart[t] = first;
    workgroupBarrier();
    // The strip start before this run: one past the last restart of an earlier run.
    var start = 0u;
    for (var u = 0u; u < t; u++) {
        if (last_restart[u] != NONE) { start = last_restart[u] + 1u; }
    }
    // The strip end after this run: the first restart of a later run, or the draw's end.
    var next = n;
    for (var u = THREADS - 1u; u > t; u--) {
        if (first_restart[u] != NONE) { next = first_restart[u]; }
    }
    // Backwards: each position's strip end.
    for (var p = end; p > begin; p--) {
        let q = p - 1u;
        if (is_restart(q)) {
            next = q;
            table[q] = vec4<u32>(q + 1u, q, NONE, 0u);
        } else {
            table[q] = vec4<u32>(0u, next, NONE, 0u);
        }
    }
    // Forwards: each position's strip start and whether a primitive starts there.
    var count = 0u;
    for (var p = begin; p < end; p++) {
        if (is_restart(p)) {
            start = p + 1u;
            continue;
        }
        let e = table[p].y;
        var id = NONE;
        if (starts_primitive(p, start, e)) {
            id = count;
            count++;
        }
        table[p] = vec4<u32>(start, e, id, 0u);
    }
    counts[t] = count;
    workgroupBarrier();
    var before = 0u;
    for (var u = 0u; u < t; u++) {
        before += counts[u];
    }
    for (var p = begin; p < end; p++) {
        let e = table[p];
        if (e.z != NONE) {
            table[p] = vec4<u32>(e.x, e.y, e.z + before, 0u);
        }
    }
}
