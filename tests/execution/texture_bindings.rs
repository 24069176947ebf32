//! A float texture the shader only `ld`s (no sampler touches it) is bound as unfilterable
//! float, so that formats WebGPU cannot filter without the optional `float32-filterable` feature
//! (R32Float depth copies, as HBAO+ reads them) bind; a texture paired with a sampler stays
//! filterable.
//!
//! The GPU part draws with an `R32Float` texture on a device created without
//! `FLOAT32_FILTERABLE`: with a filterable layout the bind group is a validation error.

use dxbc_wgsl::bindings::{ResourceKind, TextureSample};
use dxbc_wgsl::{translate, TranslateOptions, Translation};
use dxbc_wgsl_gpu::conformance::draw::{fullscreen_vs_for, Program};
use dxbc_wgsl_gpu::wgpu_map::binding_type;
use dxbc_wgsl_tests::asm::*;
use dxbc_wgsl_tests::gpu::gpu_or_skip;
use example_engine::{Target, COLOR_FORMAT, DEPTH_FORMAT};

const LD: u32 = 45;
const SAMPLE: u32 = 69;
const DCL_RESOURCE: u32 = 88;
const DCL_SAMPLER: u32 = 90;
const RESOURCE: u32 = 7;
const SAMPLER: u32 = 6;

/// `s0` as a `sample` source (no components).
fn s0() -> Vec<u32> {
    vec![(SAMPLER << 12) | (1 << 20), 0]
}

/// `dcl_resource_texture2d (float,float,float,float) t0`.
fn dcl_texture2d_float() -> Vec<u32> {
    vec![DCL_RESOURCE | (3 << 11) | (4 << 24), 0x0010_7000, 0, 0x5555]
}

/// `ld r0.xyzw, l(0, 0, 0, 0), t0.xyzw` (and with `sampled`, also
/// `sample r1.xyzw, l(0.5, 0.5, 0, 0), t0.xyzw, s0` added in), `mov o0, r0 (+ r1)`.
fn shader(sampled: bool) -> Vec<u8> {
    let mut decls = vec![dcl_texture2d_float()];
    let mut body = vec![ins(LD, &[dst(TEMP, 0, "xyzw"), imm([0; 4]), src(RESOURCE, 0, "xyzw")])];
    if sampled {
        let mut dcl = vec![DCL_SAMPLER | (3 << 24)];
        dcl.extend(s0());
        decls.push(dcl);
        let half = 0.5f32.to_bits();
        body.push(ins(SAMPLE, &[dst(TEMP, 1, "xyzw"), imm([half, half, 0, 0]), src(RESOURCE, 0, "xyzw"), s0()]));
        body.push(ins(ADD, &[dst(TEMP, 0, "xyzw"), src(TEMP, 0, "xyzw"), src(TEMP, 1, "xyzw")]));
    }
    body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]));
    pixel_shader_with(0x40, &decls, &[], 2, &body, false)
}

fn translated(blob: &[u8]) -> Translation {
    translate(blob, &TranslateOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn t0_sample(t: &Translation) -> TextureSample {
    t.bindings
        .iter()
        .find_map(|b| match b.kind {
            ResourceKind::Texture { sample, .. } => Some(sample),
            _ => None,
        })
        .expect("t0 bound")
}

#[test]
fn loaded_only_textures_are_unfilterable_sampled_ones_filterable() {
    assert_eq!(t0_sample(&translated(&shader(false))), TextureSample::UnfilterableFloat);
    assert_eq!(t0_sample(&translated(&shader(true))), TextureSample::Float);
}

#[test]
fn r32float_texture_binds_without_float32_filterable() {
    let ps = Program::from_translation(translated(&shader(false)));
    let vs = fullscreen_vs_for(&ps).unwrap();
    let Some(gpu) = gpu_or_skip("r32float_texture_binds_without_float32_filterable") else {
        return;
    };
    assert!(!gpu.device.features().contains(wgpu::Features::FLOAT32_FILTERABLE));
    let value = 0.625f32;
    let image = gpu
        .scoped("drawing with an R32Float texture", |device| {
            let texture = device.create_texture(&wgpu::TextureDescriptor {
                label: Some("r32float"),
                size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::R32Float,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            });
            gpu.queue.write_texture(
                texture.as_image_copy(),
                &value.to_le_bytes(),
                wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4), rows_per_image: None },
                wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
            );
            let b = &ps.bindings[0];
            let entry = wgpu::BindGroupLayoutEntry {
                binding: b.binding,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: binding_type(&b.kind),
                count: None,
            };
            let empty = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &[] });
            let layout =
                device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &[entry] });
            assert_eq!(b.group, 1);
            let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &[Some(&empty), Some(&layout)],
                immediate_size: 0,
            });
            let module = |p: &Program| {
                device.create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: None,
                    source: wgpu::ShaderSource::Wgsl(p.wgsl.clone().into()),
                })
            };
            let (vm, pm) = (module(&vs), module(&ps));
            let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: None,
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &vm,
                    entry_point: Some(&vs.entry),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: Default::default(),
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(wgpu::CompareFunction::Always),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &pm,
                    entry_point: Some(&ps.entry),
                    compilation_options: Default::default(),
                    targets: &[Some(COLOR_FORMAT.into())],
                }),
                multiview_mask: None,
                cache: None,
            });
            let view = texture.create_view(&Default::default());
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: b.binding,
                    resource: wgpu::BindingResource::TextureView(&view),
                }],
            });
            let empty_group =
                device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &empty, entries: &[] });
            (pipeline, empty_group, group)
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let target = Target::new(&gpu, 4, 4);
    gpu.scoped("drawing", |device| {
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = target.begin_pass(&mut encoder, wgpu::Color::BLACK);
            pass.set_pipeline(&image.0);
            pass.set_bind_group(0, &image.1, &[]);
            pass.set_bind_group(1, &image.2, &[]);
            pass.draw(0..3, 0..1);
        }
        gpu.queue.submit([encoder.finish()]);
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let frame = target.read_back(&gpu).unwrap_or_else(|e| panic!("{e}"));
    // R32Float loads as (0.625, 0, 0, 1): unorm8 159, 0, 0, 255 everywhere.
    for (x, y) in [(0, 0), (3, 3), (1, 2)] {
        assert_eq!(frame.pixel(x, y), [159, 0, 0, 255], "pixel ({x}, {y})");
    }
}
