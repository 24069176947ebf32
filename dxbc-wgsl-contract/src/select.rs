//! Per-primitive system values on WebGPU (`docs/per-primitive.md`): a pass whose upstream stage
//! writes SV_RenderTargetArrayIndex or SV_ViewportArrayIndex is drawn once per layer and
//! viewport, and the pixel shader (translated with `primitive_select`) discards what the draw's
//! layer and viewport do not own. The draw's layer and viewport come from the uniform
//! [`SelectParams`] at `@group(SELECT_GROUP) @binding(SELECT_BINDING)` ([`SELECT_WGSL`]).

/// The bind group of the selection uniform in a render pipeline (the pixel shader's own
/// resources are [`crate::bindings::PIXEL_GROUP`], the vertex shader's
/// [`crate::bindings::VERTEX_GROUP`]).
pub const SELECT_GROUP: u32 = 3;
/// The binding of the selection uniform ([`SelectParams`]).
pub const SELECT_BINDING: u32 = 0;
/// Bytes of [`SelectParams`].
pub const SELECT_PARAMS_SIZE: u64 = 16;
/// The per-primitive selection helper library a pixel shader translated with
/// `primitive_select` is built into (declares the uniform as a `vec4<u32>`).
pub const SELECT_WGSL: &str = include_str!("wgsl/select.wgsl");

/// The selection uniform of one draw, as four `u32` words (`vec4<u32>` in WGSL):
/// `[layer, layer_count, viewport, viewport_count]`.
///
/// A primitive is drawn when its effective layer (its SV_RenderTargetArrayIndex, 0 when that
/// is `>= layer_count`) is `layer` and its effective viewport (its SV_ViewportArrayIndex, 0 when
/// that is 16 or more) is `viewport` (a viewport index not set matches no draw).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SelectParams {
    /// The layer (render-target array slice, relative to the views' first) this draw renders.
    pub layer: u32,
    /// Layers of the bound render-target views (D3D's array size of the RTVs).
    pub layer_count: u32,
    /// The viewport this draw uses.
    pub viewport: u32,
    /// Viewports set (`RSSetViewports`' count).
    pub viewport_count: u32,
}

impl SelectParams {
    /// The uniform's bytes (little-endian words).
    pub fn to_bytes(&self) -> [u8; 16] {
        let mut b = [0u8; 16];
        for (i, w) in [self.layer, self.layer_count, self.viewport, self.viewport_count].iter().enumerate() {
            b[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        b
    }
}
