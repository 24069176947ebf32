//! A pass-through geometry shader against the same mesh drawn without one: the shaders, the
//! mesh, both passes and one frame of either. Shared by `benches/geometry_overhead.rs` and
//! `execution/geometry_large.rs` (`#[path]` modules).

use dxbc_wgsl::geometry::{PulledElement, VertexFormat, VertexPulling};
use dxbc_wgsl::{translate, TranslateOptions, Translation, VertexStage};
use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_gpu::primitive_stage::{
    DrawCall, FragmentEntry, OutputTopology, PrimitiveStage, PrimitiveStageDescriptor, ShaderEntry, StageDesc,
};
use dxbc_wgsl_tests::asm::{self, Element};
use std::borrow::Cow;

/// The target's side in pixels.
pub const SIZE: u32 = 256;
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// `vs_4_0`: SV_Position = POSITION, TEXCOORD0 = COLOR.
fn vertex_shader() -> Vec<u8> {
    let inputs = [Element("POSITION", 0, 0, 3, 0, "xyzw"), Element("COLOR", 0, 0, 3, 1, "xyzw")];
    let outputs =
        [Element("SV_Position", 0, asm::NAME_POSITION, 3, 0, "xyzw"), Element("TEXCOORD", 0, 0, 3, 1, "xyzw")];
    let decls = [
        asm::dcl_vs_input(0, "xyzw", 0),
        asm::dcl_vs_input(1, "xyzw", 0),
        asm::dcl_output(0, "xyzw", asm::NAME_POSITION),
        asm::dcl_output(1, "xyzw", 0),
    ];
    let body = [
        asm::ins(asm::MOV, &[asm::dst(asm::OUTPUT, 0, "xyzw"), asm::src(asm::INPUT, 0, "xyzw")]),
        asm::ins(asm::MOV, &[asm::dst(asm::OUTPUT, 1, "xyzw"), asm::src(asm::INPUT, 1, "xyzw")]),
    ];
    asm::shader(asm::VS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// `ps_4_0`: SV_Target0 = TEXCOORD0.
fn pixel_shader() -> Vec<u8> {
    let inputs = [Element("SV_Position", 0, asm::NAME_POSITION, 3, 0, "xyzw"), Element("TEXCOORD", 0, 0, 3, 1, "xyzw")];
    let outputs = [Element("SV_Target", 0, 0, 3, 0, "xyzw")];
    let decls =
        [asm::ins(asm::DCL_INPUT_PS | (2 << 11), &[asm::dst(asm::INPUT, 1, "xyzw")]), asm::dcl_output(0, "xyzw", 0)];
    let body = [asm::ins(asm::MOV, &[asm::dst(asm::OUTPUT, 0, "xyzw"), asm::src(asm::INPUT, 1, "xyzw")])];
    asm::shader(asm::PS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// `n` small triangles on a grid over the target: per vertex a position and a colour (8 floats).
pub fn mesh(n: u32) -> Vec<f32> {
    let side = (n as f64).sqrt().ceil() as u32;
    let cell = 2.0 / side as f32;
    let mut v = Vec::with_capacity(n as usize * 24);
    for i in 0..n {
        let (x, y) = ((i % side) as f32 * cell - 1.0, (i / side) as f32 * cell - 1.0);
        let c = [(i % 7) as f32 / 6.0, (i % 5) as f32 / 4.0, 0.5, 1.0];
        for [dx, dy] in [[0.0, 0.0], [0.9, 0.0], [0.0, 0.9]] {
            v.extend([x + dx * cell, y + dy * cell, 0.5, 1.0]);
            v.extend(c);
        }
    }
    v
}

fn module(dev: &Device, t: &Translation) -> wgpu::ShaderModule {
    dev.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(&t.wgsl)),
    })
}

/// Both passes and their target.
pub struct Passes {
    plain: wgpu::RenderPipeline,
    stage: PrimitiveStage,
    view: wgpu::TextureView,
    /// The target (`COPY_SRC`).
    pub texture: wgpu::Texture,
}

/// The passes on `dev`.
pub fn passes(dev: &Device) -> Passes {
    let vs = vertex_shader();
    let ps = pixel_shader();
    let gs = asm::pass_through_gs(3, 3, 5, 2);
    let vs_render = translate(&vs, &TranslateOptions::default()).expect("vs");
    let ps_plain = translate(&ps, &TranslateOptions::default()).expect("ps");
    let gs_t = translate(&gs, &TranslateOptions::default()).expect("gs");
    let info = gs_t.geometry.clone().expect("geometry");
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
    let vs_compute =
        translate(&vs, &TranslateOptions { vertex_stage: VertexStage::Compute(pulling), ..Default::default() })
            .expect("vs compute");
    let ps_behind = translate(&ps, &TranslateOptions { behind_geometry: true, ..Default::default() }).expect("ps");
    let interpolation: Vec<_> = ps_behind.inputs.iter().filter_map(|v| Some((v.location?, v.interpolation?))).collect();
    let draw = dxbc_wgsl::geometry_draw_vertex_shader(&gs_t, &interpolation).expect("draw vs");
    let targets = [Some(wgpu::ColorTargetState { format: FORMAT, blend: None, write_mask: wgpu::ColorWrites::ALL })];
    let attributes = wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4];
    let (m_vs, m_ps) = (module(dev, &vs_render), module(dev, &ps_plain));
    let plain = dev.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("plain"),
        layout: None,
        vertex: wgpu::VertexState {
            module: &m_vs,
            entry_point: Some(&vs_render.entry_point),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: 32,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &attributes,
            })],
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &m_ps,
            entry_point: Some(&ps_plain.entry_point),
            compilation_options: Default::default(),
            targets: &targets,
        }),
        multiview_mask: None,
        cache: None,
    });
    let (m_vsc, m_gs, m_draw, m_psb) =
        (module(dev, &vs_compute), module(dev, &gs_t), module(dev, &draw), module(dev, &ps_behind));
    let stage = PrimitiveStage::new(
        &dev.device,
        &PrimitiveStageDescriptor {
            label: Some("pass-through"),
            stage: StageDesc {
                input_primitive: dxbc_wgsl_gpu::primitive_stage::InputPrimitive::Triangle,
                input_registers: info.input_registers,
                output_registers: info.output_registers,
                max_vertices: info.max_vertices,
                gs_instances: info.instances,
                index_stride: info.index_stride,
                output: Some(OutputTopology::TriangleStrip),
                vertex_slots: Cow::Borrowed(&[0]),
            },
            vertex: ShaderEntry { module: &m_vsc, entry_point: &vs_compute.entry_point },
            vertex_layout: None,
            geometry: ShaderEntry { module: &m_gs, entry_point: &gs_t.entry_point },
            geometry_layout: None,
            draw_vertex: ShaderEntry { module: &m_draw, entry_point: &draw.entry_point },
            fragment: Some(FragmentEntry {
                shader: ShaderEntry { module: &m_psb, entry_point: &ps_behind.entry_point },
                targets: &targets,
                layout: None,
            }),
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            max_binding_bytes: None,
        },
    )
    .expect("primitive stage");
    let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&Default::default());
    Passes { plain, stage, view, texture }
}

/// One frame: the geometry pass (`gs`) or the plain one, drawn and waited for.
pub fn frame(dev: &Device, p: &Passes, vb: &wgpu::Buffer, n: u32, gs: bool) {
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    let draw = DrawCall {
        topology: dxbc_wgsl_gpu::primitive_stage::Topology::TriangleList,
        vertex_count: 3 * n,
        instance_count: 1,
        first_vertex: 0,
        base_vertex: 0,
        first_instance: 0,
        index: None,
    };
    let prepared = if gs {
        Some(p.stage.prepare(&dev.device, &mut encoder, &draw, &[Some((vb, 0))], None, None, None).expect("prepare"))
    } else {
        None
    };
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("frame"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &p.view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::BLACK), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        match &prepared {
            Some(prepared) => p.stage.draw(&mut pass, prepared, None),
            None => {
                pass.set_pipeline(&p.plain);
                pass.set_vertex_buffer(0, vb.slice(..));
                pass.draw(0..3 * n, 0..1);
            }
        }
    }
    dev.queue.submit([encoder.finish()]);
    dev.wait().expect("wait");
    if let Some(prepared) = prepared {
        p.stage.recycle(prepared);
    }
}
