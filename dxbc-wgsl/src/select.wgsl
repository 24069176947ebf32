// Per-primitive selection (dxbc_wgsl::select, docs/per-primitive.md): a pixel shader drawn once
// per layer and viewport keeps the fragments of the primitives that select the draw's.

// [layer, layer_count, viewport, viewport_count] of the draw.
@group(3) @binding(0) var<uniform> ps_select: vec4<u32>;

// Whether this draw renders a primitive of SV_RenderTargetArrayIndex `layer`,
// SV_ViewportArrayIndex `viewport` and cull flag `culled`: not culled, and its effective layer
// and viewport (an index at or past the count selects 0) the draw's.
fn ps_selected(layer: u32, viewport: u32, culled: u32) -> bool {
    let l = select(0u, layer, layer < ps_select.y);
    let v = select(0u, viewport, viewport < ps_select.w);
    return culled == 0u && l == ps_select.x && v == ps_select.z;
}
