//! `texture2dms` views of single-sampled textures (`TranslateOptions::texture2dms_views`): D3D
//! lets a `Texture2DMS` declared with 1 sample, or with 0 (any count), view a single-sampled 2D
//! texture. A hand-assembled pixel shader `ld2dms`es t0 at coordinates and sample indices in and
//! out of range and stores the texels, `sampleinfo`, `samplepos` and `resinfo` into a raw UAV;
//! the words are compared with D3D's answers computed on the CPU from the texels uploaded
//! (`tests/src/texture2dms_fixture.rs`). Drawn through the conformance runner's renderer, whose
//! bind group layouts come from the translation's bindings: a binding that disagreed with the
//! texture's multisampling would be a validation error.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

#[path = "../tests/common/mod.rs"]
mod common;

use dxbc_wgsl::{
    translate, ResourceKind, Texture2dmsView, TranslateError, TranslateOptions, Translation, ViewRegister,
};
use dxbc_wgsl_gpu::conformance::draw::{fullscreen_vs_for, placeholder, Bound, ColorTarget, Draw, Program, Renderer};
use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_tests::texture2dms_fixture::{
    expected, ld2dms_shader, multi_texel, single_bytes, single_texel, SIZE, WORDS,
};

fn options(view: Option<Texture2dmsView>) -> TranslateOptions {
    TranslateOptions {
        texture2dms_views: view.map(|v| vec![(ViewRegister::new(0), v)]).unwrap_or_default(),
        ..Default::default()
    }
}

fn translated(samples: u32, view: Option<Texture2dmsView>) -> Translation {
    translate(&ld2dms_shader(samples), &options(view)).unwrap_or_else(|e| panic!("{e}"))
}

/// Whether t0's binding is multisampled.
fn t0_multisampled(t: &Translation) -> bool {
    t.bindings
        .iter()
        .find_map(|b| match b.kind {
            ResourceKind::Texture { multisampled, .. } => Some(multisampled),
            _ => None,
        })
        .expect("t0 bound")
}

/// Draws `ps` over a 1×1 target with `t0` bound and returns the words of its UAV.
fn run(dev: &Device, ps: &Translation, t0: &wgpu::TextureView) -> Vec<u32> {
    let ps = Program::from_translation(ps.clone());
    let vs = fullscreen_vs_for(&ps).expect("vs");
    let uav = dev.buffer(
        "u1",
        &[0xAAu8; WORDS * 4],
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
    );
    let target = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let draw = Draw {
        vs: &vs,
        ps: &ps,
        vertex: Vec::new(),
        topology: wgpu::PrimitiveTopology::TriangleList,
        vertex_count: 3,
        instance_count: 1,
        color: vec![Some(ColorTarget {
            view: target.create_view(&Default::default()),
            layers: Vec::new(),
            format: wgpu::TextureFormat::Rgba8Unorm,
            clear: true,
        })],
        depth: None,
        sample_count: 1,
        sample_mask: !0,
        viewport: (1, 1),
        viewports: Vec::new(),
        selected: false,
    };
    let mut resolve = |_: dxbc_wgsl::ShaderStage, b: &dxbc_wgsl::ResourceBinding| {
        Ok(match b.kind {
            ResourceKind::Texture { .. } => Bound::View(t0.clone()),
            ResourceKind::StorageBuffer { .. } => Bound::Buffer(uav.clone()),
            _ => placeholder(dev, b),
        })
    };
    match Renderer::default().draw(dev, &draw, &mut resolve) {
        Ok(()) => {}
        Err(e) => panic!("draw: {e:?}\n{}", ps.wgsl),
    }
    common::read_words(dev, &uav)
}

/// A single-sampled 2×2 `rgba8uint` texture holding [`single_texel`]s.
fn single_sampled(dev: &Device) -> wgpu::TextureView {
    let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("t0"),
        size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Uint,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    dev.queue.write_texture(
        texture.as_image_copy(),
        &single_bytes(),
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * SIZE), rows_per_image: Some(SIZE) },
        texture.size(),
    );
    texture.create_view(&Default::default())
}

/// A 4-sample 2×2 `rgba8uint` texture whose sample `s` of texel `(x, y)` is
/// [`multi_texel`]`(x, y, s)`, drawn by a shader that runs per sample.
fn multisampled(dev: &Device) -> wgpu::TextureView {
    let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("t0"),
        size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 4,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Uint,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let view = texture.create_view(&Default::default());
    let wgsl = "@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {\n\
        let p = array(vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));\n\
        return vec4(p[i], 0.0, 1.0);\n}\n\
        @fragment fn fs(@builtin(position) p: vec4<f32>, @builtin(sample_index) s: u32) -> @location(0) vec4<u32> {\n\
        let t = u32(p.x) + 2u * u32(p.y);\n\
        return vec4(t, s, 7u + s, 200u + 4u * t + s);\n}\n";
    dev.scoped(|device| {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("per-sample texels"),
            source: wgpu::ShaderSource::Wgsl(wgsl.into()),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("per-sample texels"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState { count: 4, mask: !0, alpha_to_coverage_enabled: false },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::TextureFormat::Rgba8Uint.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
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
            pass.draw(0..3, 0..1);
        }
        dev.queue.submit([encoder.finish()]);
    })
    .expect("per-sample draw");
    view
}

/// Declared with 1 sample, no option: a single-sampled binding; `ld2dms` reads the texel for
/// sample 0 and zero for any other index and outside the texture; `sampleinfo` says 1,
/// `samplepos` the centre.
#[test]
fn declared_one_sample_views_a_single_sampled_texture() {
    let ps = translated(1, None);
    assert!(!t0_multisampled(&ps), "texture2dms(1) binds a single-sampled texture");
    assert!(ps.wgsl.contains("texture_2d<u32>"), "{}", ps.wgsl);
    let Some(dev) = common::device("declared_one_sample_views_a_single_sampled_texture") else { return };
    let got = run(&dev, &ps, &single_sampled(&dev));
    assert_eq!(got, expected(1, |x, y, _| single_texel(x, y)));
}

/// Declared with 0 samples (any count) and `single_sampled`: the same answers.
#[test]
fn any_count_with_single_sampled_views_a_single_sampled_texture() {
    let ps = translated(0, Some(Texture2dmsView::SingleSampled));
    assert!(!t0_multisampled(&ps));
    let Some(dev) = common::device("any_count_with_single_sampled_views_a_single_sampled_texture") else { return };
    let got = run(&dev, &ps, &single_sampled(&dev));
    assert_eq!(got, expected(1, |x, y, _| single_texel(x, y)));
}

/// Declared with 0 samples and no option (or `multisampled`): still a multisampled binding; each
/// of 4 samples reads its own value, an index of 4 or more zero.
#[test]
fn any_count_without_an_option_stays_multisampled() {
    let ps = translated(0, None);
    assert!(t0_multisampled(&ps), "texture2dms(0) binds a multisampled texture by default");
    assert_eq!(ps.wgsl, translated(0, Some(Texture2dmsView::Multisampled)).wgsl);
    let Some(dev) = common::device("any_count_without_an_option_stays_multisampled") else { return };
    let got = run(&dev, &ps, &multisampled(&dev));
    assert_eq!(got, expected(4, multi_texel));
}

/// An option contradicting a declared count is refused, not guessed: D3D requires a declared
/// count to be the bound resource's.
#[test]
fn an_option_contradicting_the_declared_count_is_refused() {
    for (samples, view) in [(1, Texture2dmsView::Multisampled), (4, Texture2dmsView::SingleSampled)] {
        match translate(&ld2dms_shader(samples), &options(Some(view))) {
            Err(TranslateError::Unsupported(r)) => {
                assert!(r.detail.contains(&format!("declared texture2dms({samples})")), "{r}");
                assert!(r.detail.contains(view.name()), "{r}");
            }
            other => panic!("texture2dms({samples}) with {view:?}: expected a refusal, got {other:?}"),
        }
    }
    // The option agreeing with the count changes nothing.
    assert_eq!(translated(1, None).wgsl, translated(1, Some(Texture2dmsView::SingleSampled)).wgsl);
    assert_eq!(translated(4, None).wgsl, translated(4, Some(Texture2dmsView::Multisampled)).wgsl);
}

/// Settings as the CLI and effect files spell them.
#[test]
fn settings_parse() {
    let mut o = TranslateOptions::default();
    o.set_texture2dms_view("t3=single_sampled").unwrap();
    o.set_texture2dms_view("t1,space2=multisampled").unwrap();
    // Through the view-format setting, as the effect model passes them.
    o.set_view_format("t3=multisampled").unwrap();
    assert_eq!(
        o.texture2dms_views,
        [
            (ViewRegister { register: 1, space: 2 }, Texture2dmsView::Multisampled),
            (ViewRegister::new(3), Texture2dmsView::Multisampled)
        ]
    );
    assert!(o.set_texture2dms_view("u0=single_sampled").unwrap_err().contains("an SRV (t#)"));
    assert!(o.set_texture2dms_view("t0=single").unwrap_err().contains("single_sampled or multisampled"));
    assert!(o.set_texture2dms_view("t0").is_err());
}

/// The blobs in `tests/fixtures/texture2dms/` are what the assembler makes today
/// (`UPDATE_GOLDEN=1` rewrites them).
#[test]
fn fixture_blobs_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/texture2dms");
    for (name, bytes) in dxbc_wgsl_tests::texture2dms_fixture::blobs() {
        let path = dir.join(name);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        let kept = std::fs::read(&path).unwrap_or_default();
        assert!(kept == bytes, "{} differs from the assembler's (UPDATE_GOLDEN=1 rewrites it)", path.display());
    }
}

/// A `texture2dmsarray` declared with 1 sample (or with 0 and `single_sampled`) views a
/// single-sampled 2D array (`texture_2d_array`): `ld2dms` at `(x, y, slice)` reads that slice's
/// texel for sample 0, and zero for any other sample index, a slice past the array or a
/// coordinate outside it. With more samples, or 0 and no option, it stays refused (WebGPU has no
/// multisampled arrays).
#[test]
fn a_one_sample_texture2dms_array_views_a_single_sampled_array() {
    use dxbc_wgsl_tests::asm::*;
    use dxbc_wgsl_tests::sample_fixture::{DCL_RESOURCE, PS_5_0, RESOURCE};
    use dxbc_wgsl_tests::texture2dms_fixture::LD_MS;
    const LAYERS: u32 = 2;
    // (x, y, slice, sample)
    let cases: [(i32, i32, u32, u32); 7] =
        [(0, 0, 0, 0), (1, 1, 1, 0), (1, 0, 1, 0), (0, 1, 0, 0), (0, 1, 0, 1), (0, 0, 2, 0), (2, 0, 1, 0)];
    let texel = |x: u32, y: u32, l: u32| [x + 1, y + 2, l + 3, 50 + x + 2 * y + 4 * l];
    let shader = |samples: u32| {
        let decls = [
            vec![DCL_RESOURCE | (9 << 11) | (samples << 16) | (4 << 24), 0x0010_7000, 0, 0x4444],
            dcl_uav_raw(1, false),
        ];
        let mut body = Vec::new();
        for (k, &(x, y, l, s)) in cases.iter().enumerate() {
            body.push(ins(
                LD_MS,
                &[dst(TEMP, 0, "xyzw"), imm([x as u32, y as u32, l, 0]), src(RESOURCE, 0, "xyzw"), imm([s; 4])],
            ));
            body.push(ins(STORE_RAW, &[dst(UAV, 1, "xyzw"), imm([16 * k as u32; 4]), src(TEMP, 0, "xyzw")]));
        }
        body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), imm([0; 4])]));
        pixel_shader_with(PS_5_0, &decls, &[], 1, &body, false)
    };
    let expected: Vec<u32> = cases
        .iter()
        .flat_map(|&(x, y, l, s)| {
            let inside = (0..SIZE as i32).contains(&x) && (0..SIZE as i32).contains(&y) && l < LAYERS && s == 0;
            if inside {
                texel(x as u32, y as u32, l)
            } else {
                [0; 4]
            }
        })
        .collect();
    for (samples, view) in [(4, None), (0, None), (0, Some(Texture2dmsView::Multisampled))] {
        match translate(&shader(samples), &options(view)) {
            Err(TranslateError::Unsupported(r)) => assert!(r.detail.contains("multisampled 2D texture arrays"), "{r}"),
            other => panic!("texture2dmsarray({samples}) with {view:?}: expected a refusal, got {other:?}"),
        }
    }
    let translations = [
        translate(&shader(1), &options(None)).unwrap_or_else(|e| panic!("{e}")),
        translate(&shader(0), &options(Some(Texture2dmsView::SingleSampled))).unwrap_or_else(|e| panic!("{e}")),
    ];
    for ps in &translations {
        assert!(!t0_multisampled(ps));
        assert!(ps.wgsl.contains("texture_2d_array<u32>"), "{}", ps.wgsl);
    }
    let Some(dev) = common::device("a_one_sample_texture2dms_array_views_a_single_sampled_array") else { return };
    let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("t0"),
        size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: LAYERS },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Uint,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let bytes: Vec<u8> = (0..LAYERS)
        .flat_map(|l| (0..SIZE * SIZE).flat_map(move |i| texel(i % SIZE, i / SIZE, l).map(|c| c as u8)))
        .collect();
    dev.queue.write_texture(
        texture.as_image_copy(),
        &bytes,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * SIZE), rows_per_image: Some(SIZE) },
        texture.size(),
    );
    let view = texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2Array),
        ..Default::default()
    });
    for ps in &translations {
        let got = run(&dev, ps, &view);
        assert_eq!(&got[..4 * cases.len()], &expected[..], "{}", ps.wgsl);
    }
}
