// Stream output (D3D11.3 §14) of one stream of one chunk of the primitive stage's output.
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
