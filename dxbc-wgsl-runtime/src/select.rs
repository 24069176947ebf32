//! Per-primitive selection (`docs/per-primitive.md`): the draws of a pass whose vertex or
//! geometry stage writes SV_RenderTargetArrayIndex, SV_ViewportArrayIndex or a cull flag, one per
//! render-target layer and viewport, each with its [`SelectParams`] at the contract's
//! [`SELECT_GROUP`] and [`SELECT_BINDING`].

pub use dxbc_wgsl_contract::select::{SelectParams, SELECT_BINDING, SELECT_GROUP, SELECT_PARAMS_SIZE};

/// Bytes of one draw's uniform slot (a multiple of every adapter's
/// `min_uniform_buffer_offset_alignment`, which WebGPU caps at 256).
const SELECT_SLOT: u64 = 256;

/// What a pass draws per primitive and how many times: one draw per render-target layer and per
/// viewport, each keeping the primitives that select it (the pixel shader's prologue discards
/// the others; an index at or past the count selects 0, as D3D specifies).
#[derive(Debug)]
pub struct Selection {
    layout: wgpu::BindGroupLayout,
    buffer: wgpu::Buffer,
    group: wgpu::BindGroup,
    layers: u32,
    viewports: u32,
}

/// D3D11's limits: 2048 array slices per view, 16 viewports.
pub const MAX_LAYERS: u32 = 2048;
/// D3D11's viewport count (`D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE`).
pub const MAX_VIEWPORTS: u32 = 16;

/// An error of [`Selection::new`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectionError(pub String);

impl std::fmt::Display for SelectionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "per-primitive selection: {}", self.0)
    }
}

impl std::error::Error for SelectionError {}

impl Selection {
    /// The bind group layout of the selection uniform (one `vec4<u32>`, fragment-visible, with
    /// a dynamic offset): group [`SELECT_GROUP`] of the pass's render pipeline layout.
    pub fn layout_descriptor_entries() -> [wgpu::BindGroupLayoutEntry; 1] {
        [wgpu::BindGroupLayoutEntry {
            binding: SELECT_BINDING,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(SELECT_PARAMS_SIZE),
            },
            count: None,
        }]
    }

    /// The uniforms of `layers` × `viewports` draws: `layers` the array size of the bound
    /// render-target views (1 when not layered), `viewports` the viewports set (1 without a
    /// viewport array).
    ///
    /// # Errors
    /// A count of 0, more than [`MAX_LAYERS`] layers or [`MAX_VIEWPORTS`] viewports.
    pub fn new(device: &wgpu::Device, layers: u32, viewports: u32) -> Result<Self, SelectionError> {
        if !(1..=MAX_LAYERS).contains(&layers) || !(1..=MAX_VIEWPORTS).contains(&viewports) {
            return Err(SelectionError(format!(
                "{layers} layers and {viewports} viewports (1-{MAX_LAYERS} and 1-{MAX_VIEWPORTS})"
            )));
        }
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("per-primitive selection"),
            entries: &Self::layout_descriptor_entries(),
        });
        let slots = u64::from(layers) * u64::from(viewports);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("per-primitive selection"),
            size: slots * SELECT_SLOT,
            usage: wgpu::BufferUsages::UNIFORM,
            mapped_at_creation: true,
        });
        let mut bytes = vec![0u8; (slots * SELECT_SLOT) as usize];
        for layer in 0..layers {
            for viewport in 0..viewports {
                let at = ((layer * viewports + viewport) as u64 * SELECT_SLOT) as usize;
                let params = SelectParams { layer, layer_count: layers, viewport, viewport_count: viewports };
                bytes[at..at + SELECT_PARAMS_SIZE as usize].copy_from_slice(&params.to_bytes());
            }
        }
        buffer
            .get_mapped_range_mut(..)
            .map_err(|e| SelectionError(format!("mapping the selection uniforms: {e}")))?
            .copy_from_slice(&bytes);
        buffer.unmap();
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("per-primitive selection"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: SELECT_BINDING,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &buffer,
                    offset: 0,
                    size: wgpu::BufferSize::new(SELECT_PARAMS_SIZE),
                }),
            }],
        });
        Ok(Selection { layout, buffer, group, layers, viewports })
    }

    /// The layout of group [`SELECT_GROUP`].
    pub fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// Layers drawn (one render pass per layer, each over a view of that layer alone).
    pub fn layers(&self) -> u32 {
        self.layers
    }

    /// Viewports drawn (one draw per viewport inside each layer's pass).
    pub fn viewports(&self) -> u32 {
        self.viewports
    }

    /// Sets group [`SELECT_GROUP`] for the draw of `layer` and `viewport` (both below the counts;
    /// others are clamped to the last).
    pub fn set(&self, pass: &mut wgpu::RenderPass<'_>, layer: u32, viewport: u32) {
        let layer = layer.min(self.layers - 1);
        let viewport = viewport.min(self.viewports - 1);
        let offset = (layer * self.viewports + viewport) as u64 * SELECT_SLOT;
        pass.set_bind_group(SELECT_GROUP, &self.group, &[offset as u32]);
        let _ = &self.buffer;
    }

    /// One pass's draws inside a layer's render pass: per viewport `v`, its viewport
    /// (`viewports[v]`: x, y, width, height, min depth, max depth) and, when `scissors` is
    /// given (D3D's ScissorEnable), its scissor rectangle (x, y, width, height), then group
    /// [`SELECT_GROUP`] and `draw`.
    pub fn draw_viewports(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        layer: u32,
        viewports: &[[f32; 6]],
        scissors: Option<&[[u32; 4]]>,
        mut draw: impl FnMut(&mut wgpu::RenderPass<'_>),
    ) {
        for v in 0..self.viewports {
            if let Some(&[x, y, w, h, near, far]) = viewports.get(v as usize) {
                pass.set_viewport(x, y, w, h, near, far);
            }
            if let Some(&[x, y, w, h]) = scissors.and_then(|s| s.get(v as usize)) {
                pass.set_scissor_rect(x, y, w, h);
            }
            self.set(pass, layer, v);
            draw(pass);
        }
    }
}
