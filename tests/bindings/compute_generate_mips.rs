//! A compute pass from an effect file on the GPU: DirectXTK12's GenerateMips compute shader
//! (`tests/effects/generate_mips.effect.toml`, with `[view_formats] u0 = "rgba8unorm"`), run
//! through the generated module (`Layouts`, `BindGroups`, `create_compute_pipeline`,
//! `dispatch_size`), makes the next mip level of a known texture. Every texel is compared with a
//! CPU 2×2 box filter: the shader takes one bilinear tap at the centre of each 2×2 block of the
//! source, which weighs the four texels equally.
//!
//! A deliberately wrong setup (the source's texel size where the shader wants the destination's,
//! the mistake the HLSL's comment warns about) is shown to fail the same comparison.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

use dxbc_wgsl_tests::gpu::gpu_or_skip;
use example_engine::Gpu;
use wgpu::util::DeviceExt;

dxbc_wgsl_macros::include_effect!("effects/generate_mips.effect.toml");

use generate_mips as fx;

/// Source size (level 0); the destination is half of it. Not multiples of the 8×8 workgroup, so
/// the dispatch covers threads outside the destination (their stores are dropped, as in D3D).
const SRC: (u32, u32) = (36, 20);
/// Largest accepted difference per channel, in 1/255 steps (fixed before running: unorm8
/// rounding of the filtered value).
const TOLERANCE: u8 = 1;

/// A deterministic texture: every byte from a small linear congruential generator.
fn source_texels() -> Vec<u8> {
    dxbc_wgsl_tests::texels::lcg_rgba8(SRC.0, SRC.1, 0x2545_f491)
}

/// The CPU's level: each texel is the mean of its 2×2 source block.
fn box_filter(src: &[u8]) -> Vec<u8> {
    dxbc_wgsl_tests::texels::box_filter_rgba8(src, SRC.0, SRC.1)
}

/// Runs the pass with the given texel-size constant and returns the destination level's texels.
fn generate(gpu: &Gpu, src: &[u8], inv_out_texel_size: [f32; 2]) -> Vec<u8> {
    let (w, h) = (SRC.0 / 2, SRC.1 / 2);
    let device = &gpu.device;
    let source = device.create_texture_with_data(
        &gpu.queue,
        &wgpu::TextureDescriptor {
            label: Some("level 0"),
            size: wgpu::Extent3d { width: SRC.0, height: SRC.1, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        },
        wgpu::util::TextureDataOrder::LayerMajor,
        src,
    );
    let dest = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("level 1"),
        size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    // DirectXTK12's static sampler: MIN_MAG_LINEAR_MIP_POINT, clamp.
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        mipmap_filter: wgpu::MipmapFilterMode::Nearest,
        ..Default::default()
    });
    let constants = fx::MipConstants { inv_out_texel_size, src_mip_index: 0, ..Default::default() };
    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("MipConstants"),
        contents: bytemuck::bytes_of(&constants),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let src_view = source.create_view(&Default::default());
    let out_view = dest.create_view(&Default::default());

    let layouts = fx::Layouts::new(device, fx::Permutation {});
    let pipeline = fx::create_compute_pipeline(device, &layouts);
    let groups = fx::BindGroups::new(
        device,
        &layouts,
        &fx::Resources { mip_constants: &buffer, sampler: &sampler, src_mip: &src_view, out_mip: &out_view },
    )
    .expect("every resource is given");

    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        groups.set(&mut pass);
        let [x, y, z] = fx::dispatch_size([w, h, 1]);
        pass.dispatch_workgroups(x, y, z);
    }
    dxbc_wgsl_tests::gpu::read_rgba8(gpu, encoder, &dest, w, h)
}

/// Texels (x, y, channel, expected, actual) farther apart than the tolerance.
fn mismatches(expected: &[u8], actual: &[u8]) -> Vec<(u32, u32, usize, u8, u8)> {
    let w = SRC.0 / 2;
    expected
        .iter()
        .zip(actual)
        .enumerate()
        .filter(|(_, (e, a))| e.abs_diff(**a) > TOLERANCE)
        .map(|(i, (e, a))| ((i / 4) as u32 % w, (i / 4) as u32 / w, i % 4, *e, *a))
        .collect()
}

#[test]
fn generated_module_describes_the_compute_pass() {
    assert_eq!(fx::WORKGROUP_SIZE, [8, 8, 1]);
    assert_eq!(fx::dispatch_size([18, 10, 1]), [3, 2, 1]);
    assert_eq!(fx::dispatch_size([8, 8, 1]), [1, 1, 1]);
    let shaders = fx::Permutation {}.shaders().expect("the only permutation");
    assert_eq!(shaders.workgroup_size, [8, 8, 1]);
    // The view format from the effect file reaches the WGSL: a write-only rgba8unorm storage texture.
    assert!(shaders.compute.wgsl.contains("texture_storage_2d<rgba8unorm,write>"), "{}", shaders.compute.wgsl);
}

#[test]
fn generate_mips_matches_a_box_filter() {
    let Some(gpu) = gpu_or_skip("generate_mips_matches_a_box_filter") else { return };
    let src = source_texels();
    let expected = box_filter(&src);
    let (w, h) = (SRC.0 / 2, SRC.1 / 2);

    // DirectXTK12's setup: InvOutTexelSize = 1 / the destination's size.
    let right = generate(&gpu, &src, [1.0 / w as f32, 1.0 / h as f32]);
    let bad = mismatches(&expected, &right);
    assert!(
        bad.is_empty(),
        "{} of {} channels differ by more than {TOLERANCE}/255 from the box filter; first: {:?}",
        bad.len(),
        expected.len(),
        &bad[..bad.len().min(8)]
    );

    // The source's texel size instead: the taps land in the wrong places and the comparison fails.
    let wrong = generate(&gpu, &src, [1.0 / SRC.0 as f32, 1.0 / SRC.1 as f32]);
    let bad = mismatches(&expected, &wrong);
    assert!(
        bad.len() > expected.len() / 2,
        "a wrong texel size must fail the comparison, but only {} of {} channels differ",
        bad.len(),
        expected.len()
    );
}
