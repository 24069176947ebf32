//! Per-primitive system values (`dxbc_wgsl::select`, docs/per-primitive.md), executed: layered
//! rendering (SV_RenderTargetArrayIndex written by a vertex shader, read by the pixel shader),
//! viewport selection with per-viewport scissors (SV_ViewportArrayIndex), and culling
//! (SV_CullDistance written by a geometry shader) — each pixel compared with what D3D11.3
//! draws: the layer and viewport of a primitive's leading vertex, an index past the count
//! selecting 0, a primitive discarded when one cull distance is negative at all its vertices.

#[path = "../tests/common/mod.rs"]
mod common;

use dxbc_wgsl::{translate, TranslateOptions};
use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_gpu::select::Selection;
use dxbc_wgsl_tests::asm::*;

use dxbc_wgsl_tests::layered_fixture::{
    pixel_shader as ps_blob, vertex_shader as vs_blob, MARK, NAME_CULL_DISTANCE, NAME_RENDER_TARGET_ARRAY_INDEX,
    NAME_VIEWPORT_ARRAY_INDEX,
};

const SIZE: u32 = 8;

/// A vertex: clip-space position and the per-primitive index.
#[derive(Clone, Copy)]
struct V {
    x: f32,
    y: f32,
    index: u32,
}

/// Two triangles covering the NDC rectangle `[x0, x1] × [y0, y1]`: every vertex `other`, the
/// leading (first) vertex of each triangle `lead`.
fn quad(x0: f32, y0: f32, x1: f32, y1: f32, lead: u32, other: u32) -> [V; 6] {
    let v = |x, y, index| V { x, y, index };
    [v(x0, y0, lead), v(x1, y0, other), v(x0, y1, other), v(x1, y1, lead), v(x0, y1, other), v(x1, y0, other)]
}

fn module(dev: &Device, wgsl: &str) -> wgpu::ShaderModule {
    dev.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(wgsl.to_string().into()),
    })
}

/// A render pipeline of the translated vertex and pixel shaders with the selection group.
fn pipeline(dev: &Device, vs: &[u8], ps: &[u8], selection: &Selection) -> wgpu::RenderPipeline {
    let vs_probe = translate(vs, &TranslateOptions::default()).expect("vs");
    let ps_t =
        translate(ps, &TranslateOptions { primitive_select: Some(vs_probe.per_primitive), ..Default::default() })
            .expect("ps");
    assert!(vs_probe.per_primitive.selects(), "the vertex shader writes a per-primitive value");
    let interpolation: Vec<_> = ps_t.inputs.iter().filter_map(|i| Some((i.location?, i.interpolation?))).collect();
    let vs_t = translate(vs, &TranslateOptions { vertex_output_interpolation: interpolation, ..Default::default() })
        .expect("vs");
    let (vsm, psm) = (module(dev, &vs_t.wgsl), module(dev, &ps_t.wgsl));
    let empty = dev.device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &[] });
    let layout = dev.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &[Some(&empty), Some(&empty), Some(&empty), Some(selection.layout())],
        immediate_size: 0,
    });
    let attributes = [
        wgpu::VertexAttribute { format: wgpu::VertexFormat::Float32x4, offset: 0, shader_location: 0 },
        wgpu::VertexAttribute { format: wgpu::VertexFormat::Uint32, offset: 16, shader_location: 1 },
    ];
    dev.scoped(|device| {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("per-primitive"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &vsm,
                entry_point: Some(&vs_t.entry_point),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: 20,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &attributes,
                })],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &psm,
                entry_point: Some(&ps_t.entry_point),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::TextureFormat::Rgba32Uint.into())],
            }),
            multiview_mask: None,
            cache: None,
        })
    })
    .expect("pipeline")
}

fn vertex_buffer(dev: &Device, vertices: &[V]) -> wgpu::Buffer {
    let words: Vec<u32> = vertices
        .iter()
        .flat_map(|v| [v.x.to_bits(), v.y.to_bits(), 0.5f32.to_bits(), 1.0f32.to_bits(), v.index])
        .collect();
    dev.buffer("vertices", bytemuck::cast_slice(&words), wgpu::BufferUsages::VERTEX)
}

fn target(dev: &Device, layers: u32) -> wgpu::Texture {
    dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: layers },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba32Uint,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

/// Draws `vertices` once per layer (a render pass over that layer's view) and per viewport.
fn draw(
    dev: &Device,
    pipeline: &wgpu::RenderPipeline,
    selection: &Selection,
    texture: &wgpu::Texture,
    vertices: &[V],
    viewports: &[[f32; 6]],
    scissors: Option<&[[u32; 4]]>,
) {
    let vb = vertex_buffer(dev, vertices);
    let mut encoder = dev.device.create_command_encoder(&Default::default());
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
        pass.set_pipeline(pipeline);
        pass.set_vertex_buffer(0, vb.slice(..));
        selection
            .draw_viewports(&mut pass, layer, viewports, scissors, |pass| pass.draw(0..vertices.len() as u32, 0..1));
    }
    dev.scoped(|_| dev.queue.submit([encoder.finish()])).expect("submit");
    dev.wait().expect("wait");
}

fn pixel(dev: &Device, texture: &wgpu::Texture, layer: u32, x: u32, y: u32) -> [u32; 4] {
    let t = dev.read_texels(texture, 4, layer, [x, y, x + 1, y + 1]).expect("read");
    [t[0], t[1], t[2], t[3]]
}

fn drawn(index: u32) -> [u32; 4] {
    [index, MARK, 0, 1]
}

/// Four quadrants, one quad each: SV_RenderTargetArrayIndex 0 (top left), 1 (top right), 5
/// (bottom left: past the 3 layers, so layer 0, and the pixel shader reads 5), and 2 on the
/// leading vertex of both triangles of the bottom right with 1 on the others (layer 2: the
/// leading vertex decides).
#[test]
fn layered_rendering_follows_the_leading_vertex_and_selects_layer_0_past_the_array() {
    let Some(dev) = common::device("layered_rendering") else { return };
    const LAYERS: u32 = 3;
    let semantic = "SV_RenderTargetArrayIndex";
    let selection = Selection::new(&dev.device, LAYERS, 1).expect("selection");
    let pipeline = pipeline(
        &dev,
        &vs_blob(NAME_RENDER_TARGET_ARRAY_INDEX, semantic),
        &ps_blob(NAME_RENDER_TARGET_ARRAY_INDEX, semantic),
        &selection,
    );
    let mut vertices = Vec::new();
    vertices.extend(quad(-1.0, 0.0, 0.0, 1.0, 0, 0));
    vertices.extend(quad(0.0, 0.0, 1.0, 1.0, 1, 1));
    vertices.extend(quad(-1.0, -1.0, 0.0, 0.0, 5, 5));
    vertices.extend(quad(0.0, -1.0, 1.0, 0.0, 2, 1));
    let texture = target(&dev, LAYERS);
    let full = [0.0, 0.0, SIZE as f32, SIZE as f32, 0.0, 1.0];
    draw(&dev, &pipeline, &selection, &texture, &vertices, &[full], None);
    // (quadrant pixel, value the pixel shader reads, layer D3D draws it into)
    let quadrants = [((1, 1), 0, 0), ((6, 1), 1, 1), ((1, 6), 5, 0), ((6, 6), 2, 2)];
    for layer in 0..LAYERS {
        for &((x, y), value, into) in &quadrants {
            let want = if into == layer { drawn(value) } else { [0; 4] };
            assert_eq!(pixel(&dev, &texture, layer, x, y), want, "layer {layer}, pixel ({x}, {y})");
        }
    }
}

/// Two viewports side by side (x 0-4 and 4-8), scissors enabled: viewport 0 keeps the top half
/// (y 0-4), viewport 1 all of it. Quads at the left half of the viewport's clip space with
/// SV_ViewportArrayIndex 0 and 1, at the right half with 17 (past D3D's 16 viewports: viewport
/// 0, its scissor too), then again at the right half with 9 (one of the 16 that is not set:
/// disabled, drawn nowhere).
#[test]
fn viewport_array_index_selects_the_viewport_and_its_scissor() {
    let Some(dev) = common::device("viewport_array_index") else { return };
    let semantic = "SV_ViewportArrayIndex";
    let selection = Selection::new(&dev.device, 1, 2).expect("selection");
    let pipeline = pipeline(
        &dev,
        &vs_blob(NAME_VIEWPORT_ARRAY_INDEX, semantic),
        &ps_blob(NAME_VIEWPORT_ARRAY_INDEX, semantic),
        &selection,
    );
    let mut vertices = Vec::new();
    vertices.extend(quad(-1.0, -1.0, 0.0, 1.0, 0, 0));
    vertices.extend(quad(-1.0, -1.0, 0.0, 1.0, 1, 1));
    vertices.extend(quad(0.0, -1.0, 1.0, 1.0, 17, 17));
    vertices.extend(quad(0.0, -1.0, 1.0, 1.0, 9, 9));
    let texture = target(&dev, 1);
    let h = SIZE as f32;
    let viewports = [[0.0, 0.0, 4.0, h, 0.0, 1.0], [4.0, 0.0, 4.0, h, 0.0, 1.0]];
    let scissors = [[0, 0, 4, 4], [4, 0, 4, SIZE]];
    draw(&dev, &pipeline, &selection, &texture, &vertices, &viewports, Some(&scissors));
    let expect = [
        ((1, 1), Some(0)),
        ((1, 6), None),
        ((3, 1), Some(17)),
        ((3, 6), None),
        ((5, 1), Some(1)),
        ((5, 6), Some(1)),
        ((7, 1), None),
        ((7, 6), None),
    ];
    for ((x, y), value) in expect {
        assert_eq!(pixel(&dev, &texture, 0, x, y), value.map_or([0; 4], drawn), "pixel ({x}, {y})");
    }
}

mod culling {
    //! A geometry shader expanding each point into a 4-vertex triangle strip (triangles
    //! `(0, 1, 2)` and `(1, 3, 2)`) whose vertex `k` has cull distances
    //! `(a + k b, c + k d)` from the point's `CULL = (a, b, c, d)`.

    use super::*;
    use dxbc_wgsl::geometry::{PulledElement, VertexFormat, VertexPulling};
    use dxbc_wgsl::VertexStage;
    use dxbc_wgsl_gpu::primitive_stage::{
        stage_desc, DrawCall, FragmentEntry, PrimitiveStage, PrimitiveStageDescriptor, ShaderEntry,
    };

    const HALF: f32 = 0.45;
    const CULL_SIZE: u32 = 16;

    fn vs_blob() -> Vec<u8> {
        let decls = [
            dcl_vs_input(0, "xyzw", 0),
            dcl_vs_input(1, "xyzw", 0),
            dcl_output(0, "xyzw", NAME_POSITION),
            dcl_output(1, "xyzw", 0),
        ];
        let body = [
            ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 0, "xyzw")]),
            ins(MOV, &[dst(OUTPUT, 1, "xyzw"), src(INPUT, 1, "xyzw")]),
        ];
        let inputs = [Element("POSITION", 0, 0, 3, 0, "xyzw"), Element("CULL", 0, 0, 3, 1, "xyzw")];
        let outputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element("CULL", 0, 0, 3, 1, "xyzw")];
        shader(VS_4_0, &inputs, &outputs, &decls, 0, &body)
    }

    fn gs_blob() -> Vec<u8> {
        let decls = [
            dcl_input_primitive(1),
            dcl_output_topology(5),
            dcl_max_output(4),
            dcl_gs_input(1, 0, "xyzw", NAME_POSITION),
            dcl_gs_input(1, 1, "xyzw", 0),
            dcl_output(0, "xyzw", NAME_POSITION),
            dcl_output(1, "xy", NAME_CULL_DISTANCE),
        ];
        let mut body = Vec::new();
        for k in 0..4u32 {
            let dx = if k & 1 == 1 { HALF } else { -HALF };
            let dy = if k & 2 == 2 { HALF } else { -HALF };
            body.push(ins(
                ADD,
                &[dst(OUTPUT, 0, "xy"), src_vertex(0, 0, "xyxx"), imm([dx.to_bits(), dy.to_bits(), 0, 0])],
            ));
            body.push(ins(MOV, &[dst(OUTPUT, 0, "zw"), src_vertex(0, 0, "xxzw")]));
            body.push(ins(
                MAD,
                &[
                    dst(OUTPUT, 1, "xy"),
                    src_vertex(0, 1, "ywww"),
                    imm([(k as f32).to_bits(); 4]),
                    src_vertex(0, 1, "xzzz"),
                ],
            ));
            body.push(bare(EMIT));
        }
        let inputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element("CULL", 0, 0, 3, 1, "xyzw")];
        let outputs = [
            Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"),
            Element("SV_CullDistance", 0, NAME_CULL_DISTANCE, 3, 1, "xy"),
        ];
        shader(GS_4_0, &inputs, &outputs, &decls, 0, &body)
    }

    fn ps_blob() -> Vec<u8> {
        let decls = [dcl_output(0, "xyzw", 0)];
        let body = [ins(MOV, &[dst(OUTPUT, 0, "xyzw"), imm([1, MARK, 3, 4])])];
        let inputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw")];
        let outputs = [Element("SV_Target", 0, 0, 1, 0, "xyzw")];
        shader(PS_4_0, &inputs, &outputs, &decls, 0, &body)
    }

    /// One point per quadrant: its centre, its `CULL`, and whether D3D draws triangle
    /// `(0, 1, 2)` and triangle `(1, 3, 2)`.
    fn points() -> [([f32; 2], [f32; 4], [bool; 2]); 4] {
        [
            // x: -3 -2 -1 0: the first triangle's all negative, the second has a 0.
            ([-0.5, 0.5], [-3.0, 1.0, 1.0, 0.0], [false, true]),
            // x: 0.5 -0.5 -1.5 -2.5: only the second triangle's are all negative.
            ([0.5, 0.5], [0.5, -1.0, 1.0, 0.0], [true, false]),
            // y: NaN everywhere, which counts as below 0 (D3D11.3 §15.4.3): both culled by the
            // second distance.
            ([-0.5, -0.5], [1.0, -0.7, f32::NAN, 0.0], [false, false]),
            // x: -1 1 3 5, y: 1 -1 -3 -5: each distance negative somewhere in the first
            // triangle but neither at all three; the second's y all negative.
            ([0.5, -0.5], [-1.0, 2.0, 1.0, -2.0], [true, false]),
        ]
    }

    #[test]
    fn a_primitive_is_culled_when_one_cull_distance_is_negative_at_all_its_vertices() {
        let Some(dev) = common::device("cull_distance") else { return };
        let gs_t = translate(&gs_blob(), &TranslateOptions::default()).expect("gs");
        let info = gs_t.geometry.clone().expect("geometry info");
        let flag = info.cull_flag_register.expect("a cull flag register");
        assert_eq!(gs_t.per_primitive.cull_flag.map(|s| s.location), Some(flag));
        let pulling = VertexPulling {
            elements: vec![
                PulledElement {
                    register: 0,
                    slot: 0,
                    offset: 0,
                    format: VertexFormat::Float32x4,
                    instance_step_rate: None,
                },
                PulledElement {
                    register: 1,
                    slot: 0,
                    offset: 16,
                    format: VertexFormat::Float32x4,
                    instance_step_rate: None,
                },
            ],
            strides: vec![32],
            record_registers: info.input_registers,
        };
        let vs_t = translate(
            &vs_blob(),
            &TranslateOptions { vertex_stage: VertexStage::Compute(pulling), ..Default::default() },
        )
        .expect("vs");
        let ps_t = translate(
            &ps_blob(),
            &TranslateOptions {
                behind_geometry: true,
                primitive_select: Some(gs_t.per_primitive),
                ..Default::default()
            },
        )
        .expect("ps");
        let draw_t = dxbc_wgsl::geometry_draw_vertex_shader(&gs_t, &[]).expect("draw vertex shader");
        let selection = Selection::new(&dev.device, 1, 1).expect("selection");
        let (vs, gs, ps, draw_vs) =
            (module(&dev, &vs_t.wgsl), module(&dev, &gs_t.wgsl), module(&dev, &ps_t.wgsl), module(&dev, &draw_t.wgsl));
        let targets = [Some(wgpu::TextureFormat::Rgba32Uint.into())];
        let stage = dev
            .scoped(|device| {
                PrimitiveStage::new_selected(
                    device,
                    &PrimitiveStageDescriptor {
                        label: Some("cull"),
                        stage: stage_desc(&info, vec![0]),
                        vertex: ShaderEntry { module: &vs, entry_point: &vs_t.entry_point },
                        vertex_layout: None,
                        geometry: ShaderEntry { module: &gs, entry_point: &gs_t.entry_point },
                        geometry_layout: None,
                        draw_vertex: ShaderEntry { module: &draw_vs, entry_point: &draw_t.entry_point },
                        fragment: Some(FragmentEntry {
                            shader: ShaderEntry { module: &ps, entry_point: &ps_t.entry_point },
                            targets: &targets,
                            layout: None,
                        }),
                        primitive: wgpu::PrimitiveState::default(),
                        depth_stencil: None,
                        multisample: Default::default(),
                        max_binding_bytes: None,
                    },
                    Some(selection.layout()),
                )
            })
            .expect("pipelines")
            .expect("stage");
        let data: Vec<f32> = points()
            .iter()
            .flat_map(|(c, cull, _)| [c[0], c[1], 0.5, 1.0, cull[0], cull[1], cull[2], cull[3]])
            .collect();
        let vb = dev.buffer("points", bytemuck::cast_slice(&data), wgpu::BufferUsages::STORAGE);
        let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("target"),
            size: wgpu::Extent3d { width: CULL_SIZE, height: CULL_SIZE, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba32Uint,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let draw = DrawCall {
            topology: dxbc_wgsl_gpu::primitive_stage::Topology::PointList,
            vertex_count: 4,
            instance_count: 1,
            first_vertex: 0,
            base_vertex: 0,
            first_instance: 0,
            index: None,
        };
        let mut encoder = dev.device.create_command_encoder(&Default::default());
        let prepared = dev
            .scoped(|device| stage.prepare(device, &mut encoder, &draw, &[Some((&vb, 0))], None, None, None))
            .expect("prepare: validation")
            .expect("prepare");
        let view = texture.create_view(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("draw"),
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
            selection.set(&mut pass, 0, 0);
            stage.draw(&mut pass, &prepared, None);
        }
        dev.scoped(|_| dev.queue.submit([encoder.finish()])).expect("submit");
        dev.wait().expect("wait");
        let to_pixel = |x: f32, y: f32| {
            let half = CULL_SIZE as f32 / 2.0;
            (((x + 1.0) * half) as u32, ((1.0 - y) * half) as u32)
        };
        for (i, (c, _, want)) in points().iter().enumerate() {
            // Inside triangle (0, 1, 2) near vertex 0, and inside (1, 3, 2) near vertex 3.
            for (t, sign) in [(0, -1.0f32), (1, 1.0)] {
                let (x, y) = to_pixel(c[0] + sign * 0.6 * HALF, c[1] + sign * 0.6 * HALF);
                let t_px = dev.read_texels(&texture, 4, 0, [x, y, x + 1, y + 1]).expect("read");
                let expected = if want[t] { [1, MARK, 3, 4] } else { [0; 4] };
                assert_eq!(t_px[..4], expected, "point {i}, triangle {t}, pixel ({x}, {y})");
            }
        }
    }
}
