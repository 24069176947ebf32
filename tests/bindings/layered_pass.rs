//! A layered pass through its generated module (`tests/effects/layered.effect.toml`, whose
//! shaders `dxbc_wgsl_tests::layered_fixture` assembles): the vertex shader writes
//! SV_RenderTargetArrayIndex, so the generated `Layouts` carry the selection group and the
//! module embeds `select::Selection`; drawn once per layer of a 3-layer target, each quad lands
//! in the layer its leading vertex names (an index past the array in layer 0), compared pixel
//! by pixel with D3D11.3's rule.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

use std::path::Path;

/// The blobs in `tests/fixtures/layered/` are what the assembler makes today (`UPDATE_GOLDEN=1`
/// rewrites them), and each translates.
#[test]
fn fixture_blobs_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/layered");
    for (name, bytes) in dxbc_wgsl_tests::layered_fixture::blobs() {
        let path = dir.join(name);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &bytes).unwrap();
        }
        let kept = std::fs::read(&path).unwrap_or_default();
        assert!(kept == bytes, "{} differs from the assembler's (UPDATE_GOLDEN=1 rewrites it)", path.display());
        dxbc_wgsl::translate(&bytes, &Default::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

dxbc_wgsl_macros::include_effect!("effects/layered.effect.toml");

#[path = "../tests/common/mod.rs"]
mod common;

use layered as fx;
use wgpu::util::DeviceExt;

const SIZE: u32 = 8;
const LAYERS: u32 = 3;

/// Two triangles covering `[x0, x1] × [y0, y1]` in clip space, each with `lead` on its leading
/// vertex and `other` on the rest.
fn quad(x0: f32, y0: f32, x1: f32, y1: f32, lead: u32, other: u32) -> [fx::VertexPositionIndex; 6] {
    let v = |x, y, index| fx::VertexPositionIndex { position: [x, y, 0.5, 1.0], index };
    [v(x0, y0, lead), v(x1, y0, other), v(x0, y1, other), v(x1, y1, lead), v(x0, y1, other), v(x1, y0, other)]
}

#[test]
fn each_quad_lands_in_the_layer_of_its_leading_vertex() {
    let Some(gpu) = common::device("each_quad_lands_in_the_layer_of_its_leading_vertex") else { return };
    let device = &gpu.device;
    let layouts = fx::Layouts::new(device, fx::Permutation::default());
    assert!(layouts.select.is_some(), "the vertex shader writes SV_RenderTargetArrayIndex: the pass selects");
    let format = wgpu::TextureFormat::Rgba32Uint;
    let pipeline = fx::create_render_pipeline(device, &layouts, &[format], None);
    let groups = fx::BindGroups::new(device, &layouts, &fx::Resources { _marker: Default::default() }).expect("groups");
    let selection = fx::select::Selection::new(device, LAYERS, 1).expect("selection");
    let mut vertices = Vec::new();
    vertices.extend(quad(-1.0, 0.0, 0.0, 1.0, 0, 2));
    vertices.extend(quad(0.0, 0.0, 1.0, 1.0, 1, 0));
    vertices.extend(quad(-1.0, -1.0, 0.0, 0.0, 4, 1));
    vertices.extend(quad(0.0, -1.0, 1.0, 0.0, 2, 2));
    let vb = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("vertices"),
        contents: bytemuck::cast_slice(&vertices),
        usage: wgpu::BufferUsages::VERTEX,
    });
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("layers"),
        size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: LAYERS },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    for layer in 0..selection.layers() {
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2),
            base_array_layer: layer,
            array_layer_count: Some(1),
            ..Default::default()
        });
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("layer"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&pipeline);
        groups.set(&mut pass);
        pass.set_vertex_buffer(0, vb.slice(..));
        selection.set(&mut pass, layer, 0);
        pass.draw(0..vertices.len() as u32, 0..1);
    }
    gpu.scoped(|_| gpu.queue.submit([encoder.finish()])).expect("submit");
    gpu.wait().expect("wait");
    // (pixel, the value the pixel shader reads, the layer D3D draws into: 4 is past the array)
    let quadrants = [((1, 1), 0, 0), ((6, 1), 1, 1), ((1, 6), 4, 0), ((6, 6), 2, 2)];
    for layer in 0..LAYERS {
        let texels = gpu.read_texels(&texture, 4, layer, [0, 0, SIZE, SIZE]).expect("read");
        for &((x, y), value, into) in &quadrants {
            let at = ((y * SIZE + x) * 4) as usize;
            let want = if into == layer { [value, dxbc_wgsl_tests::layered_fixture::MARK, 0, 1] } else { [0; 4] };
            assert_eq!(texels[at..at + 4], want, "layer {layer}, pixel ({x}, {y})");
        }
    }
}
