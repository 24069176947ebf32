// The primitive stage's helpers for a geometry shader translated to compute
// (dxbc_wgsl::geometry, docs/geometry.md): the invocation's place in the draw, primitive
// assembly, input reads, and the output slots emit and cut write.

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

@group(3) @binding(0) var<uniform> gs_draw: DrawParams;
@group(3) @binding(1) var<storage, read> gs_records: array<vec4<u32>>;
@group(3) @binding(3) var<storage, read_write> gs_out_vertices: array<vec4<u32>>;
@group(3) @binding(4) var<storage, read_write> gs_out_indices: array<u32>;
@group(3) @binding(5) var<storage, read> gs_table: array<vec4<u32>>;

const GS_NONE: u32 = 0xFFFFFFFFu;

// The shader's constants (gs_begin's arguments).
var<private> gs_regs_in: u32;
var<private> gs_regs_out: u32;
var<private> gs_max: u32;
var<private> gs_slots: u32;
var<private> gs_index_stride: u32;
var<private> gs_position: u32;
// The invocation.
var<private> gs_t: u32;
var<private> gs_live: bool;
var<private> gs_prim_id: u32;
var<private> gs_instance_id: u32;
var<private> gs_vertices: u32;
var<private> gs_record: array<u32, 32>;
var<private> gs_emitted: u32;
var<private> gs_entries: u32;
var<private> gs_strip: u32;

// Position `k` of a triangle strip with adjacency's triangle `i` of `n`, at position `b`.
fn gs_strip_adj(b: u32, i: u32, n: u32, k: u32) -> u32 {
    var p: array<u32, 6>;
    let odd = (i & 1u) == 1u;
    if (n == 1u) {
        p = array<u32, 6>(b, b + 1u, b + 2u, b + 5u, b + 4u, b + 3u);
    } else if (i == 0u) {
        p = array<u32, 6>(b, b + 1u, b + 2u, b + 6u, b + 4u, b + 3u);
    } else if (i == n - 1u) {
        if (odd) {
            p = array<u32, 6>(b, b + 3u, b + 4u, b + 5u, b + 2u, b - 2u);
        } else {
            p = array<u32, 6>(b, b - 2u, b + 2u, b + 5u, b + 4u, b + 3u);
        }
    } else if (odd) {
        p = array<u32, 6>(b, b + 3u, b + 4u, b + 6u, b + 2u, b - 2u);
    } else {
        p = array<u32, 6>(b, b - 2u, b + 2u, b + 6u, b + 4u, b + 3u);
    }
    return p[min(k, 5u)];
}

// The invocation's place: its GS instance, candidate primitive and draw instance; whether a
// primitive starts at the candidate; its vertices' records and its SV_PrimitiveID. Returns
// whether the shader's body runs.
fn gs_begin(wg: vec3<u32>, li: u32, n: u32, regs_in: u32, regs_out: u32, max_out: u32, slots: u32, instances: u32, index_stride: u32, position: u32) -> bool {
    gs_regs_in = regs_in;
    gs_regs_out = regs_out;
    gs_max = max_out;
    gs_slots = slots;
    gs_index_stride = index_stride;
    gs_position = position;
    gs_vertices = n;
    gs_emitted = 0u;
    gs_entries = 0u;
    gs_strip = 0u;
    let t = (wg.y * gs_draw.workgroups_x + wg.x) * 64u + li;
    gs_t = t;
    gs_live = t < gs_draw.invocations;
    if (!gs_live || gs_draw.primitive_count == 0u) {
        gs_live = false;
        return false;
    }
    gs_instance_id = t % instances;
    let q = t / instances;
    let inst_local = q / gs_draw.primitive_count;
    let j = gs_draw.primitive_begin + q % gs_draw.primitive_count;
    var start = 0u;
    var end = gs_draw.vertex_count;
    var id = GS_NONE;
    if (gs_draw.use_assembly_table == 1u) {
        if (j >= arrayLength(&gs_table)) {
            return false;
        }
        let e = gs_table[j];
        start = e.x;
        end = e.y;
        id = e.z;
        if (id == GS_NONE) {
            return false;
        }
    }
    let k0 = j - start;
    var ok = true;
    var p: array<u32, 32>;
    switch gs_draw.topology {
        case 3u, 11u: {
            // Line strip (with adjacency): j .. j+n-1.
            ok = j >= start && j + n <= end;
            for (var k = 0u; k < n; k++) { p[k] = j + k; }
            if (id == GS_NONE) { id = j; }
        }
        case 5u: {
            // Triangle strip: odd triangles swap their last two vertices (the winding kept,
            // the first vertex still the provoking one).
            ok = j >= start && j + 3u <= end;
            let odd = (k0 & 1u) == 1u;
            p[0] = j;
            p[1] = select(j + 1u, j + 2u, odd);
            p[2] = select(j + 2u, j + 1u, odd);
            if (id == GS_NONE) { id = j; }
        }
        case 13u: {
            let len = end - start;
            ok = j >= start && len >= 6u && (k0 & 1u) == 0u && k0 / 2u < (len - 4u) / 2u;
            if (ok) {
                let i = k0 / 2u;
                let nt = (len - 4u) / 2u;
                for (var k = 0u; k < 6u; k++) { p[k] = gs_strip_adj(j, i, nt, k); }
                if (id == GS_NONE) { id = i; }
            }
        }
        default: {
            // Lists and patch lists: n positions per primitive.
            ok = (j + 1u) * n <= end;
            for (var k = 0u; k < n; k++) { p[k] = j * n + k; }
            if (id == GS_NONE) { id = j; }
        }
    }
    if (!ok) {
        return false;
    }
    gs_prim_id = id;
    for (var k = 0u; k < n; k++) {
        let pos = p[k];
        if (pos >= gs_draw.position_begin && pos - gs_draw.position_begin < gs_draw.position_count) {
            gs_record[k] = inst_local * gs_draw.position_count + (pos - gs_draw.position_begin);
        } else {
            gs_record[k] = GS_NONE;
        }
    }
    return true;
}

// Register `r` of input vertex `k` (`v[k][r]`): zero past the primitive's vertices or the
// records.
fn gs_input(k: u32, r: u32) -> vec4<u32> {
    if (k >= gs_vertices || r >= gs_regs_in) {
        return vec4<u32>();
    }
    let rec = gs_record[min(k, 31u)];
    if (rec == GS_NONE) {
        return vec4<u32>();
    }
    let at = rec * gs_regs_in + r;
    if (at >= arrayLength(&gs_records)) {
        return vec4<u32>();
    }
    return gs_records[at];
}

// `emit`: the output vertex slot of the next vertex (GS_NONE past dcl_maxout: dropped), with
// its entry in the output strip.
fn gs_emit() -> u32 {
    if (!gs_live || gs_emitted >= gs_max) {
        return GS_NONE;
    }
    let slot = gs_t * gs_slots + gs_emitted;
    gs_emitted++;
    if (gs_index_stride != 0u) {
        gs_out_indices[gs_t * gs_index_stride + gs_entries] = slot;
        gs_entries++;
        gs_strip++;
    }
    return slot;
}

// Register `r` of the emitted vertex in `slot`.
fn gs_store(slot: u32, r: u32, v: vec4<u32>) {
    if (slot != GS_NONE && r < gs_regs_out) {
        gs_out_vertices[slot * gs_regs_out + r] = v;
    }
}

// `cut`: ends the current strip (nothing when it is empty).
fn gs_cut() {
    if (gs_live && gs_index_stride != 0u && gs_strip != 0u) {
        gs_out_indices[gs_t * gs_index_stride + gs_entries] = 0xFFFFFFFFu;
        gs_entries++;
        gs_strip = 0u;
    }
}

// The end of the invocation: the rest of its output strip restarts; the rest of a point list's
// slots hold a point outside the clip volume.
fn gs_end() {
    if (gs_t >= gs_draw.invocations) {
        return;
    }
    if (gs_index_stride != 0u) {
        for (var e = gs_entries; e < gs_index_stride; e++) {
            gs_out_indices[gs_t * gs_index_stride + e] = 0xFFFFFFFFu;
        }
    } else if (gs_position < gs_regs_out) {
        for (var s = gs_emitted; s < gs_slots; s++) {
            gs_out_vertices[(gs_t * gs_slots + s) * gs_regs_out + gs_position] = bitcast<vec4<u32>>(vec4<f32>(2.0, 0.0, 0.0, 1.0));
        }
    }
}

// Bits of the cull distances negative at output vertex `slot`: the lanes `ma` of register `ra`
// (bits 0-3) and `mb` of register `rb` (bits 4-7).
fn gs_cull_bits(slot: u32, ra: u32, ma: u32, rb: u32, mb: u32) -> u32 {
    let a = bitcast<vec4<f32>>(gs_out_vertices[slot * gs_regs_out + ra]);
    let b = bitcast<vec4<f32>>(gs_out_vertices[slot * gs_regs_out + rb]);
    var bits = 0u;
    for (var c = 0u; c < 4u; c++) {
        // Below 0, or NaN (D3D11.3 §15.4.3 culls on NaN too).
        if (((ma >> c) & 1u) == 1u && !(a[c] >= 0.0)) { bits |= 1u << c; }
        if (((mb >> c) & 1u) == 1u && !(b[c] >= 0.0)) { bits |= 16u << c; }
    }
    return bits;
}

// The cull flags (D3D11.3: a primitive is discarded when one of its cull distances is negative
// at all of its vertices), in register `flag` of each output primitive's leading vertex (its
// first, for points the vertex itself): 1 culled, 0 drawn. `n`: vertices per primitive.
fn gs_cull(flag: u32, ra: u32, ma: u32, rb: u32, mb: u32, n: u32) {
    if (!gs_live || flag >= gs_regs_out) {
        return;
    }
    if (gs_index_stride == 0u || n == 1u) {
        for (var s = 0u; s < gs_emitted; s++) {
            let slot = gs_t * gs_slots + s;
            let culled = gs_cull_bits(slot, ra, ma, rb, mb) != 0u;
            gs_out_vertices[slot * gs_regs_out + flag] = vec4<u32>(select(0u, 1u, culled), 0u, 0u, 0u);
        }
        return;
    }
    let base = gs_t * gs_index_stride;
    var run = 0u;
    for (var e = 0u; e < gs_entries; e++) {
        let slot = gs_out_indices[base + e];
        if (slot == GS_NONE) {
            run = 0u;
            continue;
        }
        gs_out_vertices[slot * gs_regs_out + flag] = vec4<u32>();
        run++;
        if (run >= n) {
            // The primitive of entries e - n + 1 ..= e; its leading vertex is the first.
            var all = 0xFFu;
            for (var k = 0u; k < n; k++) {
                all &= gs_cull_bits(gs_out_indices[base + e - k], ra, ma, rb, mb);
            }
            let lead = gs_out_indices[base + e + 1u - n];
            gs_out_vertices[lead * gs_regs_out + flag] = vec4<u32>(select(0u, 1u, all != 0u), 0u, 0u, 0u);
        }
    }
}
