//! An effect with a compute pass and a render pass on the GPU: `tests/effects/mip_preview.effect.toml`
//! (DirectXTK12's GenerateMips compute shader, DirectXTK's PostProcess VSQuad + PSCopy or
//! PSMonochrome), through one generated module. The compute pass makes the next mip level of a known
//! texture (`ComputeLayouts`, `ComputeBindGroups`, `create_compute_pipeline`, `dispatch_size`); the
//! render pass then draws that level into a target of its size (`Layouts`, `BindGroups`,
//! `create_render_pipeline`). Both are compared with the CPU: the level with a 2×2 box filter (the
//! shader's one bilinear tap at the centre of each block weighs the four texels equally), the
//! drawing with the level itself (copy) or its luminance (monochrome, PostProcess.fx's weights).
//!
//! A drawing made without the dispatch (the level still zero) is shown to fail the same comparison:
//! the render pass reads what the compute pass wrote.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

use dxbc_wgsl_tests::gpu::gpu_or_skip;
use example_engine::Gpu;
use wgpu::util::DeviceExt;

dxbc_wgsl_macros::include_effect!("effects/mip_preview.effect.toml");

use mip_preview as fx;

/// Source size (level 0); the level drawn is half of it. Not multiples of the 8×8 workgroup.
const SRC: (u32, u32) = (36, 20);
/// The level's size, and the render target's.
const DST: (u32, u32) = (SRC.0 / 2, SRC.1 / 2);
/// Largest accepted difference per channel, in 1/255 steps, for the level (unorm8 rounding of the
/// filtered value) and for the drawing (the level's rounding, then the drawing's).
const LEVEL_TOLERANCE: u8 = 1;
const DRAWING_TOLERANCE: u8 = 2;
/// PostProcess.fx's luminance weights (`PSMonochrome`: `dot(color.rgb, grayscale)`).
const LUMINANCE: [f64; 3] = [0.2125, 0.7154, 0.0721];

/// A deterministic texture: every byte from a small linear congruential generator.
fn source_texels() -> Vec<u8> {
    dxbc_wgsl_tests::texels::lcg_rgba8(SRC.0, SRC.1, 0x1234_5678)
}

/// The CPU's level: each texel is the mean of its 2×2 source block.
fn box_filter(src: &[u8]) -> Vec<u8> {
    dxbc_wgsl_tests::texels::box_filter_rgba8(src, SRC.0, SRC.1)
}

/// The CPU's drawing of a level: the level itself, or its luminance in red, green and blue with
/// its alpha.
fn drawn(level: &[u8], monochrome: bool) -> Vec<u8> {
    if !monochrome {
        return level.to_vec();
    }
    level
        .chunks_exact(4)
        .flat_map(|t| {
            let y = (0..3).map(|c| LUMINANCE[c] * f64::from(t[c])).sum::<f64>().round().clamp(0.0, 255.0) as u8;
            [y, y, y, t[3]]
        })
        .collect()
}

/// Channels (x, y, channel, expected, actual) farther apart than `tolerance`.
fn mismatches(expected: &[u8], actual: &[u8], tolerance: u8) -> Vec<(u32, u32, usize, u8, u8)> {
    expected
        .iter()
        .zip(actual)
        .enumerate()
        .filter(|(_, (e, a))| e.abs_diff(**a) > tolerance)
        .map(|(i, (e, a))| ((i / 4) as u32 % DST.0, (i / 4) as u32 / DST.0, i % 4, *e, *a))
        .collect()
}

/// Reads a `DST`-sized RGBA8 texture back, rows unpadded.
fn read_back(gpu: &Gpu, texture: &wgpu::Texture) -> Vec<u8> {
    let encoder = gpu.device.create_command_encoder(&Default::default());
    dxbc_wgsl_tests::gpu::read_rgba8(gpu, encoder, texture, DST.0, DST.1)
}

fn texture_2d(gpu: &Gpu, label: &str, size: (u32, u32), usage: wgpu::TextureUsages) -> wgpu::Texture {
    gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage,
        view_formats: &[],
    })
}

/// Runs the compute pass (unless `dispatch` is false) and then the render pass of `permutation`,
/// in one command buffer; returns the level and the drawing.
fn run(gpu: &Gpu, src: &[u8], permutation: fx::Permutation, dispatch: bool) -> (Vec<u8>, Vec<u8>) {
    let device = &gpu.device;
    let source = texture_2d(gpu, "level 0", SRC, wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST);
    gpu.queue.write_texture(
        source.as_image_copy(),
        src,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(SRC.0 * 4), rows_per_image: Some(SRC.1) },
        wgpu::Extent3d { width: SRC.0, height: SRC.1, depth_or_array_layers: 1 },
    );
    // The compute pass writes it as a storage texture; the render pass samples it.
    let level = texture_2d(
        gpu,
        "level 1",
        DST,
        wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_SRC,
    );
    let target = texture_2d(gpu, "target", DST, wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC);
    // DirectXTK12's static sampler for GenerateMips: MIN_MAG_LINEAR_MIP_POINT, clamp. The render
    // pass samples texel centres with it, which gives the texels themselves.
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        mipmap_filter: wgpu::MipmapFilterMode::Nearest,
        ..Default::default()
    });
    let constants = fx::MipConstants {
        inv_out_texel_size: [1.0 / DST.0 as f32, 1.0 / DST.1 as f32],
        src_mip_index: 0,
        ..Default::default()
    };
    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("MipConstants"),
        contents: bytemuck::bytes_of(&constants),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let source_view = source.create_view(&Default::default());
    let level_view = level.create_view(&Default::default());
    let target_view = target.create_view(&Default::default());

    // The compute pass: its own layouts, bind group and pipeline.
    let compute_layouts = fx::ComputeLayouts::new(device, permutation);
    let compute_pipeline = fx::create_compute_pipeline(device, &compute_layouts);
    let compute_groups = fx::ComputeBindGroups::new(
        device,
        &compute_layouts,
        &fx::ComputeResources {
            mip_constants: &buffer,
            sampler: &sampler,
            texture: &source_view,
            out_mip: &level_view,
        },
    )
    .expect("every compute resource is given");

    // The render pass: the level is its texture.
    let layouts = fx::Layouts::new(device, permutation);
    let pipeline = fx::create_render_pipeline(device, &layouts, &[wgpu::TextureFormat::Rgba8Unorm], None);
    let groups = fx::BindGroups::new(device, &layouts, &fx::Resources { sampler: &sampler, texture: &level_view })
        .expect("every render resource is given");

    let mut encoder = device.create_command_encoder(&Default::default());
    if dispatch {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&compute_pipeline);
        compute_groups.set(&mut pass);
        let [x, y, z] = fx::dispatch_size([DST.0, DST.1, 1]);
        pass.dispatch_workgroups(x, y, z);
    }
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("draw the level"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &target_view,
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
        // VSQuad: one triangle from SV_VertexID covers the target.
        pass.draw(0..3, 0..1);
    }
    gpu.queue.submit([encoder.finish()]);
    (read_back(gpu, &level), read_back(gpu, &target))
}

#[test]
fn generated_module_offers_both_kinds_of_pass() {
    // The compute pass: GenerateMips' 8×8×1 threads.
    assert_eq!(fx::WORKGROUP_SIZE, [8, 8, 1]);
    assert_eq!(fx::dispatch_size([DST.0, DST.1, 1]), [3, 2, 1]);
    for p in fx::Permutation::ALL {
        let c = p.compute_shaders().expect("every permutation exists");
        assert_eq!((c.compute.label, c.workgroup_size), ("GenerateMips_main.dxbc", [8, 8, 1]));
        assert!(c.compute.wgsl.contains("texture_storage_2d<rgba8unorm,write>"), "{}", c.compute.wgsl);
        let [group] = fx::compute_bind_group_layout_entries(p);
        assert_eq!(group.iter().map(|e| e.binding).collect::<Vec<_>>(), [0, 16, 32, 160]);
        assert!(group.iter().all(|e| e.visibility == wgpu::ShaderStages::COMPUTE));
    }
    // The render pass: VSQuad reads no vertex buffer; the pixel shader by the axis.
    let copy = fx::Permutation { monochrome: false };
    let mono = fx::Permutation { monochrome: true };
    assert_eq!(copy.shaders().unwrap().vertex.label, "PostProcess_VSQuad.dxbc");
    assert_eq!(copy.shaders().unwrap().pixel.unwrap().label, "PostProcess_PSCopy.dxbc");
    assert_eq!(mono.shaders().unwrap().pixel.unwrap().label, "PostProcess_PSMonochrome.dxbc");
    assert!(copy.vertex_buffer_layout().is_none());
    let [vs, ps] = fx::bind_group_layout_entries(mono);
    assert!(vs.is_empty());
    assert_eq!(ps.iter().map(|e| e.binding).collect::<Vec<_>>(), [16, 32]);
    assert!(ps.iter().all(|e| e.visibility == wgpu::ShaderStages::FRAGMENT));
}

/// The effect's blobs in `tests/fixtures` are the corpus's, byte for byte.
#[test]
fn effect_shaders_are_the_corpus_blobs() {
    let Some(corpus) = dxbc_wgsl_tests::corpus_dir() else {
        eprintln!("SKIPPED effect_shaders_are_the_corpus_blobs: the corpus is absent (set DXBC_WGSL_CORPUS)");
        return;
    };
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for (ours, theirs) in [
        ("directxtk12/GenerateMips/GenerateMips_main.dxbc", "directxtk12/GenerateMips/GenerateMips_main.dxbc"),
        ("directxtk/PostProcess_VSQuad.dxbc", "directxtk/PostProcess/PostProcess_VSQuad.dxbc"),
        ("directxtk/PostProcess_PSCopy.dxbc", "directxtk/PostProcess/PostProcess_PSCopy.dxbc"),
        ("directxtk/PostProcess_PSMonochrome.dxbc", "directxtk/PostProcess/PostProcess_PSMonochrome.dxbc"),
    ] {
        let Ok(corpus_bytes) = std::fs::read(corpus.join(theirs)) else {
            eprintln!("SKIPPED {ours}: the corpus at {} has no {theirs}", corpus.display());
            continue;
        };
        assert!(
            std::fs::read(fixtures.join(ours)).unwrap() == corpus_bytes,
            "{ours} differs from the corpus's {theirs}"
        );
    }
}

#[test]
fn compute_pass_output_drawn_by_the_render_pass_matches_the_cpu() {
    let Some(gpu) = gpu_or_skip("compute_pass_output_drawn_by_the_render_pass_matches_the_cpu") else { return };
    let src = source_texels();
    let expected_level = box_filter(&src);
    for permutation in fx::Permutation::ALL {
        let (level, drawing) = run(&gpu, &src, permutation, true);
        let bad = mismatches(&expected_level, &level, LEVEL_TOLERANCE);
        assert!(
            bad.is_empty(),
            "{permutation:?}: {} of {} channels of the level differ by more than {LEVEL_TOLERANCE}/255 from the box \
             filter; first: {:?}",
            bad.len(),
            level.len(),
            &bad[..bad.len().min(8)]
        );
        let expected = drawn(&expected_level, permutation.monochrome);
        let bad = mismatches(&expected, &drawing, DRAWING_TOLERANCE);
        assert!(
            bad.is_empty(),
            "{permutation:?}: {} of {} channels of the drawing differ by more than {DRAWING_TOLERANCE}/255 from the \
             CPU's; first: {:?}",
            bad.len(),
            drawing.len(),
            &bad[..bad.len().min(8)]
        );
        if permutation.monochrome {
            // Luminance: grey, and not the level's colours.
            assert!(drawing.chunks_exact(4).all(|t| t[0] == t[1] && t[1] == t[2]));
            assert!(mismatches(&drawn(&expected_level, false), &drawing, DRAWING_TOLERANCE).len() > drawing.len() / 4);
        }
    }

    // Without the dispatch the render pass draws the untouched (zero) level: the comparison fails.
    let monochrome = fx::Permutation { monochrome: true };
    let (_, drawing) = run(&gpu, &src, monochrome, false);
    let bad = mismatches(&drawn(&expected_level, true), &drawing, DRAWING_TOLERANCE);
    assert!(
        bad.len() > drawing.len() / 2,
        "a drawing without the compute pass must fail the comparison, but only {} of {} channels differ",
        bad.len(),
        drawing.len()
    );
}
