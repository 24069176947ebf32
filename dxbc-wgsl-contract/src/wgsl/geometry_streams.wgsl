
// Stream output (D3D11.3 §14, docs/stream-output.md): appended to the geometry library when a
// geometry shader is translated with `TranslateOptions::geometry_streams` other than the
// default. Every emit of every stream takes the invocation's next output vertex slot (dcl_maxout
// counts them all, D3D11.3 §13.3); a kept stream's emits and cuts write restart-indexed lists of
// slots into its regions of the output indices: region `r` of invocation `t` is the words
// `(r * invocations + t) * gs_so_stride ..`. Region 0 is the draw's when a stream is rasterized;
// for a point list it is padded with the invocation's hidden slot (slot `gs_max`, a vertex at
// the culled position) so that an indexed point-list draw reads only the rasterized stream's
// points.

// Per stream, the regions its emits and cuts write (bit r: region r).
var<private> gs_so_masks: array<u32, 4>;
var<private> gs_so_regions: u32;
var<private> gs_so_stride: u32;
var<private> gs_so_strips: bool;
var<private> gs_so_hidden: bool;
// Per region, the entries written and the length of the current strip.
var<private> gs_so_entries: array<u32, 5>;
var<private> gs_so_run: array<u32, 5>;

// The stream layout (after gs_begin, before the shader's body or its early end).
fn gs_streams_begin(m0: u32, m1: u32, m2: u32, m3: u32, regions: u32, stride: u32, strips: u32, hidden: u32) {
    gs_so_masks = array<u32, 4>(m0, m1, m2, m3);
    gs_so_regions = min(regions, 5u);
    gs_so_stride = stride;
    gs_so_strips = strips == 1u;
    gs_so_hidden = hidden == 1u;
    for (var r = 0u; r < 5u; r++) {
        gs_so_entries[r] = 0u;
        gs_so_run[r] = 0u;
    }
}

fn gs_so_word(r: u32, e: u32) -> u32 {
    return (r * gs_draw.invocations + gs_t) * gs_so_stride + e;
}

// `emit_stream m#`: the next output vertex slot (GS_NONE past dcl_maxout, or for a stream that
// is neither rasterized nor streamed out: its vertex is dropped but counts against dcl_maxout),
// with its entry in each of the stream's regions.
fn gs_stream_emit(stream: u32) -> u32 {
    if (!gs_live || gs_emitted >= gs_max) {
        return GS_NONE;
    }
    let slot = gs_t * gs_slots + gs_emitted;
    gs_emitted++;
    let mask = gs_so_masks[min(stream, 3u)];
    if (mask == 0u) {
        return GS_NONE;
    }
    for (var r = 0u; r < gs_so_regions; r++) {
        if ((mask & (1u << r)) != 0u && gs_so_entries[r] < gs_so_stride) {
            gs_out_indices[gs_so_word(r, gs_so_entries[r])] = slot;
            gs_so_entries[r]++;
            gs_so_run[r]++;
        }
    }
    return slot;
}

// `cut_stream m#`: ends the stream's current strip (nothing for points or an empty strip).
fn gs_stream_cut(stream: u32) {
    if (!gs_live || !gs_so_strips) {
        return;
    }
    let mask = gs_so_masks[min(stream, 3u)];
    for (var r = 0u; r < gs_so_regions; r++) {
        if ((mask & (1u << r)) != 0u && gs_so_run[r] != 0u && gs_so_entries[r] < gs_so_stride) {
            gs_out_indices[gs_so_word(r, gs_so_entries[r])] = GS_NONE;
            gs_so_entries[r]++;
            gs_so_run[r] = 0u;
        }
    }
}

// The end of the invocation: the rest of every region restarts (region 0 of a drawn point list:
// the hidden slot, which holds a vertex at the culled position).
fn gs_stream_end() {
    if (gs_t >= gs_draw.invocations) {
        return;
    }
    let hidden = gs_t * gs_slots + gs_max;
    for (var r = 0u; r < gs_so_regions; r++) {
        let pad = select(GS_NONE, hidden, gs_so_hidden && r == 0u);
        for (var e = gs_so_entries[r]; e < gs_so_stride; e++) {
            gs_out_indices[gs_so_word(r, e)] = pad;
        }
    }
    if (gs_so_hidden && gs_position < gs_regs_out) {
        gs_out_vertices[hidden * gs_regs_out + gs_position] = bitcast<vec4<u32>>(vec4<f32>(2.0, 0.0, 0.0, 1.0));
    }
}
