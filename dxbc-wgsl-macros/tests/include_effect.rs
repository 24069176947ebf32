//! `include_effect!` on the example engine's DirectXTK effects: the expansion compiles (under the
//! workspace's clippy settings too), the permutation table and constant-buffer layout are
//! DirectXTK's, and every permutation's pipeline is accepted by wgpu on a real adapter.

#![deny(missing_docs)]

dxbc_wgsl_macros::include_effect!("../example-engine/effects/basic.effect.toml");
dxbc_wgsl_macros::include_effect!("../example-engine/effects/dual_texture.effect.toml");

use basic_effect::{Lighting, Permutation};

#[test]
fn basic_effect_table() {
    assert_eq!(Permutation::ALL.len(), 56);
    assert_eq!(basic_effect::SHADERS.len(), 42);
    let pick = |p: Permutation| {
        let s = p.shaders().unwrap();
        (s.vertex.label, s.pixel.unwrap().label)
    };
    let d = Permutation::default();
    assert_eq!(pick(d), ("BasicEffect_VSBasicNoFog.dxbc", "BasicEffect_PSBasicNoFog.dxbc"));
    // Per-pixel lighting ignores the fog axis in its shader choice (DirectXTK disables fog with a
    // zero FogVector instead).
    let pl = Permutation { lighting: Lighting::Pixel, texture: true, vertex_color: true, biased_normals: true, ..d };
    assert_eq!(pick(pl), ("BasicEffect_VSBasicPixelLightingTxVcBn.dxbc", "BasicEffect_PSBasicPixelLightingTx.dxbc"));
    assert_eq!(pick(Permutation { fog: true, ..pl }), pick(pl));
    // Vertex lighting has no NoFog vertex shader; the pixel shader carries the difference.
    let vl = Permutation { lighting: Lighting::OneLight, ..d };
    assert_eq!(pick(vl), ("BasicEffect_VSBasicOneLight.dxbc", "BasicEffect_PSBasicVertexLightingNoFog.dxbc"));
    // Biased normals without lighting do not exist.
    assert_eq!(Permutation { biased_normals: true, ..d }.index(), None);
}

#[test]
fn basic_effect_parameters_layout() {
    use basic_effect::Parameters as P;
    use core::mem::{offset_of, size_of};
    assert_eq!(size_of::<P>(), 26 * 16);
    assert_eq!(offset_of!(P, specular_power), 2 * 16 + 12);
    assert_eq!(offset_of!(P, light_direction), 3 * 16);
    assert_eq!(offset_of!(P, world_inverse_transpose), 19 * 16);
    assert_eq!(offset_of!(P, world_view_proj), 22 * 16);
    assert_eq!(size_of::<dual_texture_effect::Parameters>(), 7 * 16);
}

#[test]
fn vertex_layouts_follow_the_signatures() {
    let tx_vc_lit = Permutation { lighting: Lighting::Vertex, texture: true, vertex_color: true, ..Default::default() };
    let layout = tx_vc_lit.vertex_buffer_layout().unwrap();
    let formats: Vec<_> = layout.attributes.iter().map(|a| (a.shader_location, a.format, a.offset)).collect();
    // DirectXTK's VSInputNmTxVc: position (float3 in the buffer for a float4 input), normal,
    // texcoord, colour.
    assert_eq!(
        formats,
        vec![
            (0, wgpu::VertexFormat::Float32x3, 0),
            (1, wgpu::VertexFormat::Float32x3, 12),
            (2, wgpu::VertexFormat::Float32x2, 24),
            (3, wgpu::VertexFormat::Float32x4, 32),
        ]
    );
    assert_eq!(layout.array_stride, 48);
}

fn device() -> Option<(wgpu::Device, wgpu::Queue)> {
    if std::env::var_os("DXBC_WGSL_SKIP_GPU").is_some() {
        eprintln!("DXBC_WGSL_SKIP_GPU is set: skipping the pipeline test");
        return None;
    }
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
        .expect("no GPU adapter (install mesa-vulkan-drivers for lavapipe, or set DXBC_WGSL_SKIP_GPU=1)");
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("include_effect test"),
        required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
        ..Default::default()
    }))
    .expect("request_device");
    Some((device, queue))
}

/// Runs `f` inside a validation error scope; panics with `what` and the error when wgpu reports one.
fn scoped(device: &wgpu::Device, what: &str, f: impl FnOnce()) {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    f();
    if let Some(e) = pollster::block_on(scope.pop()) {
        panic!("{what}: {e}");
    }
}

fn texture_view(device: &wgpu::Device) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: None,
            size: wgpu::Extent3d { width: 4, height: 4, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        })
        .create_view(&Default::default())
}

#[test]
fn every_permutation_creates_its_pipeline_and_bind_groups() {
    let Some((device, _queue)) = device() else {
        return;
    };
    let view = texture_view(&device);
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor::default());
    let buffer = |size: usize| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: size as u64,
            usage: wgpu::BufferUsages::UNIFORM,
            mapped_at_creation: false,
        })
    };
    let params = buffer(core::mem::size_of::<basic_effect::Parameters>());
    for p in Permutation::ALL {
        scoped(&device, &format!("BasicEffect {p:?}"), || {
            let layouts = basic_effect::Layouts::new(&device, p);
            let _pipeline = basic_effect::create_render_pipeline(
                &device,
                &layouts,
                &[wgpu::TextureFormat::Rgba8Unorm],
                Some(wgpu::TextureFormat::Depth32Float),
            );
            let resources =
                basic_effect::Resources { parameters: &params, texture: Some(&view), sampler: Some(&sampler) };
            basic_effect::BindGroups::new(&device, &layouts, &resources).unwrap();
            if p.texture {
                let missing = basic_effect::Resources { texture: None, ..resources };
                assert_eq!(
                    basic_effect::BindGroups::new(&device, &layouts, &missing).unwrap_err(),
                    basic_effect::MissingResource("texture")
                );
            }
        });
    }
    let params = buffer(core::mem::size_of::<dual_texture_effect::Parameters>());
    for p in dual_texture_effect::Permutation::ALL {
        scoped(&device, &format!("DualTextureEffect {p:?}"), || {
            let layouts = dual_texture_effect::Layouts::new(&device, p);
            let _pipeline = dual_texture_effect::create_render_pipeline(
                &device,
                &layouts,
                &[wgpu::TextureFormat::Rgba8Unorm],
                None,
            );
            dual_texture_effect::BindGroups::new(
                &device,
                &layouts,
                &dual_texture_effect::Resources {
                    parameters: &params,
                    texture: &view,
                    texture2: &view,
                    sampler: &sampler,
                    sampler2: &sampler,
                },
            )
            .unwrap();
        });
    }
}
