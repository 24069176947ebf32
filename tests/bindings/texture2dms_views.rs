//! `[texture2dms_views]` (`tests/effects/texture2dms.effect.toml`): a `Texture2DMS<uint4>`
//! declared with sample count 0 (any count), which the effect says views a single-sampled
//! texture. The generated bind group layout binds a `texture_2d` (creating the bind group with a
//! single-sampled texture would be a validation error otherwise, as it is in the pipeline
//! plan's data), and drawing through the generated pipeline reads what D3D reads: the texel for
//! sample 0, zero for other indices and outside the texture, one sample, the centre, one mip
//! (`tests/src/texture2dms_fixture.rs` computes them).
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

#[path = "../tests/common/mod.rs"]
mod common;

use dxbc_wgsl_build::compile;
use dxbc_wgsl_build::effect::Effect;
use dxbc_wgsl_build::plan::PipelinePlan;
use dxbc_wgsl_tests::texture2dms_fixture::{expected, single_bytes, single_texel, SIZE, WORDS};

dxbc_wgsl_macros::include_effect!("effects/texture2dms.effect.toml");

fn effect_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("effects/texture2dms.effect.toml")
}

/// The model carries the setting to the pixel shader's translation only, and the plan's t0 is
/// a single-sampled texture binding.
#[test]
fn the_plan_binds_a_single_sampled_texture() {
    let effect = Effect::load(&effect_path()).expect("effect");
    assert_eq!(effect.texture2dms_views.len(), 1);
    assert_eq!(effect.texture2dms_views[0].setting(), "t0=single_sampled");
    let compiled = compile::compile(effect, &mut compile::DirectTranslator).expect("compiles");
    let t0: Vec<bool> = compiled
        .shaders
        .iter()
        .flat_map(|s| s.info.bindings.iter())
        .filter_map(|b| match b.kind {
            dxbc_wgsl::ResourceKind::Texture { multisampled, .. } => Some(multisampled),
            _ => None,
        })
        .collect();
    assert_eq!(t0, [false], "t0 bound once, single-sampled");
    let plan = PipelinePlan::new(&compiled);
    let text = format!("{plan:?}");
    assert!(text.contains("multisampled: false") && !text.contains("multisampled: true"), "{text}");
}

#[test]
fn the_generated_pass_reads_a_single_sampled_texture() {
    use wgpu::util::DeviceExt as _;
    let Some(dev) = common::device("the_generated_pass_reads_a_single_sampled_texture") else { return };
    let device = &dev.device;
    let texture = device.create_texture_with_data(
        &dev.queue,
        &wgpu::TextureDescriptor {
            label: Some("t0"),
            size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Uint,
            usage: wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        },
        Default::default(),
        &single_bytes(),
    );
    let t0 = texture.create_view(&Default::default());
    let uav = dev.buffer("u1", &[0xAAu8; WORDS * 4], wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC);
    let layouts = texture2dms_views::Layouts::new(device, texture2dms_views::Permutation::default());
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let targets = texture2dms_views::color_target_states(&[format]);
    let options = texture2dms_views::PipelineOptions::new(&targets, None);
    let groups = dev
        .scoped(|device| {
            let pipeline = texture2dms_views::create_render_pipeline_with(device, &layouts, &options);
            let groups = texture2dms_views::BindGroups::new(
                device,
                &layouts,
                &texture2dms_views::Resources { t0: &t0, u1: &uav },
            )
            .expect("groups");
            (pipeline, groups)
        })
        .expect("the generated layout accepts a single-sampled texture at t0");
    let (pipeline, groups) = groups;
    // Clockwise: D3D's default rasterizer state culls back faces, and clockwise is the front.
    let triangle: [[f32; 4]; 3] = [[-1.0, -1.0, 0.0, 1.0], [-1.0, 3.0, 0.0, 1.0], [3.0, -1.0, 0.0, 1.0]];
    let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&triangle),
        usage: wgpu::BufferUsages::VERTEX,
    });
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
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
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::BLACK), store: wgpu::StoreOp::Store },
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
    assert_eq!(common::read_words(&dev, &uav), expected(1, |x, y, _| single_texel(x, y)));
}
