// Per-primitive selection (dxbc_wgsl::select, docs/per-primitive.md): a pixel shader drawn once
// per layer and viewport keeps the fragments of the primitives that select the draw's.

// [layer, layer_count, viewport, viewport_count] of the draw.
@group(3) @binding(0) var<uniform> ps_select: vec4<u32>;

// Whether this draw renders a primitive of SV_RenderTargetArrayIndex `layer`,
// SV_ViewportArrayIndex `viewport` and cull flag `culled`: not culled, its layer the draw's (an
// index at or past the views' array size selects layer 0, D3D11.3 §15.15) and its viewport the
// draw's (an index past D3D's 16 viewports selects viewport 0; one of the 16 that is not set
// is disabled, and no draw renders it).
fn ps_selected(layer: u32, viewport: u32, culled: u32) -> bool {
    let l = select(0u, layer, layer < ps_select.y);
    let v = select(0u, viewport, viewport < 16u);
    return culled == 0u && l == ps_select.x && v == ps_select.z;
}
