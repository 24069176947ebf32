//! `sampleinfo` and `samplepos` (sm4.1), of a multisampled texture and of the rasterizer:
//! hand-assembled pixel shaders store what they read into a raw UAV, drawn into targets of 1
//! and 4 samples per pixel; the values are compared with D3D's rules computed here — the sample
//! count (uint and float forms), D3D11.3's standard 4-sample pattern `(-2,-6), (6,-2), (-6,2),
//! (2,6)` / 16 (which WebGPU fixes for 4 samples), the centre for 1 sample, and a zero vector
//! for a sample index out of range ("samplepos (sm4.1 - asm)"). The rasterizer's count is the
//! pipeline-overridable constant of `Translation::pipeline_constants`, set from the pipeline's
//! multisample state as the generated pipeline constructors and GPU validation do.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

#[path = "../tests/common/mod.rs"]
mod common;

use dxbc_wgsl::{translate, PipelineConstant, TranslateOptions, Translation};
use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_tests::sample_fixture::{pixel_shader as shader, Source, INDICES};

/// D3D's answer for `count` samples: the count (uint bits, float bits), then per index of
/// [`INDICES`] the position's `(x, y)` bits.
fn expected(count: u32) -> Vec<u32> {
    // D3D11.3 §17.x "Standard multisample pattern", 4 samples, in 1/16 pixel from the centre.
    const FOUR: [[f32; 2]; 4] = [[-2.0, -6.0], [6.0, -2.0], [-6.0, 2.0], [2.0, 6.0]];
    let mut out = vec![count, (count as f32).to_bits()];
    for &index in &INDICES {
        let position = match (count, index) {
            (4, i) if i < 4 => FOUR[i as usize].map(|v| v / 16.0),
            (1, 0) => [0.0, 0.0],
            _ => [0.0, 0.0],
        };
        out.extend(position.map(f32::to_bits));
    }
    out
}

/// Draws `ps` over a 2×2 target of `samples` samples per pixel (with `texture` bound to `t0`
/// when given) and returns the words its UAV holds.
fn run(dev: &Device, ps: &Translation, samples: u32, texture: Option<&wgpu::TextureView>) -> Vec<u32> {
    let device = &dev.device;
    let words = 2 + 2 * INDICES.len();
    let uav = dev.buffer(
        "u1",
        &vec![0xAAu8; words * 4],
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
    );
    let entries: Vec<wgpu::BindGroupLayoutEntry> = ps
        .bindings
        .iter()
        .map(|b| wgpu::BindGroupLayoutEntry {
            binding: b.binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: dxbc_wgsl_gpu::wgpu_map::binding_type(&b.kind),
            count: None,
        })
        .collect();
    let vs_wgsl = dxbc_wgsl_gpu::fullscreen::fullscreen_vs(&ps.wgsl, &ps.entry_point, 1.0).expect("vs");
    let constants: Vec<(&str, f64)> = ps.pipeline_constants.iter().map(|c| (c.name(), c.value(samples))).collect();
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: 2, height: 2, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let view = target.create_view(&Default::default());
    dev.scoped(|device| {
        let module = |wgsl: &str| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: None,
                source: wgpu::ShaderSource::Wgsl(wgsl.to_string().into()),
            })
        };
        let (vs, fs) = (module(&vs_wgsl), module(&ps.wgsl));
        let empty = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &[] });
        let group =
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &entries });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&empty), Some(&group)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: None,
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &vs,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState { count: samples, mask: !0, alpha_to_coverage_enabled: false },
            fragment: Some(wgpu::FragmentState {
                module: &fs,
                entry_point: Some(&ps.entry_point),
                compilation_options: wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() },
                targets: &[Some(wgpu::TextureFormat::Rgba8Unorm.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        let bound: Vec<wgpu::BindGroupEntry> = ps
            .bindings
            .iter()
            .map(|b| wgpu::BindGroupEntry {
                binding: b.binding,
                resource: match b.kind {
                    dxbc_wgsl::ResourceKind::Texture { .. } => {
                        wgpu::BindingResource::TextureView(texture.expect("t0 is bound"))
                    }
                    _ => uav.as_entire_binding(),
                },
            })
            .collect();
        let bind_group =
            device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &group, entries: &bound });
        let empty_group =
            device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &empty, entries: &[] });
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &empty_group, &[]);
            pass.set_bind_group(1, &bind_group, &[]);
            pass.draw(0..3, 0..1);
        }
        dev.queue.submit([encoder.finish()]);
    })
    .unwrap_or_else(|e| panic!("draw: {e}\n{}", ps.wgsl));
    common::read_words(dev, &uav)
}

/// A 4-sample texture for `t0` (its texels are not read).
fn multisampled(dev: &Device) -> wgpu::TextureView {
    dev.device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some("t0"),
            size: wgpu::Extent3d { width: 2, height: 2, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 4,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        })
        .create_view(&Default::default())
}

#[test]
fn sample_count_and_positions_of_a_multisampled_texture() {
    let Some(dev) = common::device("sample_count_and_positions_of_a_multisampled_texture") else { return };
    let ps = translate(&shader(Source::Texture), &TranslateOptions::default()).expect("translate");
    assert!(ps.pipeline_constants.is_empty(), "a texture's count is no pipeline constant");
    let t0 = multisampled(&dev);
    // The target's sample count does not matter: the texture's does.
    for samples in [1, 4] {
        assert_eq!(run(&dev, &ps, samples, Some(&t0)), expected(4), "t0 of 4 samples, target of {samples}");
    }
}

#[test]
fn sample_count_and_positions_of_the_rasterizer_follow_the_pipeline() {
    let Some(dev) = common::device("sample_count_and_positions_of_the_rasterizer_follow_the_pipeline") else { return };
    let ps = translate(&shader(Source::Rasterizer), &TranslateOptions::default()).expect("translate");
    assert_eq!(ps.pipeline_constants, [PipelineConstant::RasterizerSampleCount]);
    assert!(ps.wgsl.contains("override dxbc_wgsl_sample_count: u32 = 1u;"), "{}", ps.wgsl);
    for samples in [1, 4] {
        assert_eq!(run(&dev, &ps, samples, None), expected(samples), "a pipeline of {samples} samples");
    }
}

/// The rasterizer forms outside a pixel shader's own pipeline are refused, not guessed: behind a
/// geometry shader the primitive stage's runtime creates the draw.
#[test]
fn the_rasterizer_behind_a_geometry_shader_is_refused() {
    let options = TranslateOptions { behind_geometry: true, ..Default::default() };
    match translate(&shader(Source::Rasterizer), &options) {
        Err(dxbc_wgsl::TranslateError::Unsupported(r)) => {
            assert_eq!(r.opcode, Some("sampleinfo"), "{r:?}");
            assert!(r.detail.contains("not yet behind a geometry shader"), "{r:?}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The blobs in `tests/fixtures/sample_count/` are what the assembler makes today
/// (`UPDATE_GOLDEN=1` rewrites them).
#[test]
fn fixture_blobs_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sample_count");
    for (name, bytes) in dxbc_wgsl_tests::sample_fixture::blobs() {
        let path = dir.join(name);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &bytes).unwrap();
        }
        let kept = std::fs::read(&path).unwrap_or_default();
        assert!(kept == bytes, "{} differs from the assembler's (UPDATE_GOLDEN=1 rewrites it)", path.display());
    }
}

dxbc_wgsl_macros::include_effect!("effects/sample_count.effect.toml");

/// The generated `create_render_pipeline_with` sets the rasterizer's sample count from its
/// `multisample` option: drawn with 1 and 4 samples, the shader reads each.
#[test]
fn the_generated_pipeline_sets_the_rasterizer_sample_count() {
    use wgpu::util::DeviceExt as _;
    let Some(dev) = common::device("the_generated_pipeline_sets_the_rasterizer_sample_count") else { return };
    let device = &dev.device;
    let layouts = sample_count::Layouts::new(device, sample_count::Permutation::default());
    for samples in [1, 4] {
        let words = 2 + 2 * INDICES.len();
        let uav =
            dev.buffer("u1", &vec![0xAAu8; words * 4], wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC);
        let format = wgpu::TextureFormat::Rgba8Unorm;
        let targets = sample_count::color_target_states(&[format]);
        let mut options = sample_count::PipelineOptions::new(&targets, None);
        options.multisample = sample_count::multisample_state(samples);
        let pipeline = sample_count::create_render_pipeline_with(device, &layouts, &options);
        let groups =
            sample_count::BindGroups::new(device, &layouts, &sample_count::Resources { u1: &uav }).expect("groups");
        // Clockwise: D3D's default rasterizer state culls back faces, and clockwise is the front.
        let triangle: [[f32; 4]; 3] = [[-1.0, -1.0, 0.0, 1.0], [-1.0, 3.0, 0.0, 1.0], [3.0, -1.0, 0.0, 1.0]];
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytemuck::cast_slice(&triangle),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let target = device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size: wgpu::Extent3d { width: 2, height: 2, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let view = target.create_view(&Default::default());
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
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
            pass.set_vertex_buffer(0, vertices.slice(..));
            pass.draw(0..3, 0..1);
        }
        dev.queue.submit([encoder.finish()]);
        assert_eq!(common::read_words(&dev, &uav), expected(samples), "the generated pipeline of {samples} samples");
    }
}
