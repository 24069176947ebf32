//! DirectXTK's BasicEffect, translated from its fxc-compiled bytecode, rendered through wgpu and
//! compared pixel by pixel with an independent CPU computation of BasicEffect's equations
//! (`dxbc_wgsl_tests::basic_effect_model`).
//!
//! The scene is a perspective-projected quad (two triangles) whose corners have different
//! normals, texture coordinates and colours. At a pixel centre the rasteriser's interpolated
//! inputs are the perspective-correct barycentric blend of the corners' vertex-shader outputs,
//! which `dxbc_wgsl_tests::raster` computes exactly; pixels within a pixel of a triangle edge or
//! within 2% of a texel boundary are left out so that edge rules and rounding do not matter.
//!
//! Tolerance, fixed before the comparisons were written: 2/255 per channel on an Rgba8Unorm target.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

use dxbc_wgsl_tests::basic_effect_model::{to_unorm8, BasicParams, PixelLightingVaryings};
use dxbc_wgsl_tests::gpu::{check_pixels, format_checks, gpu_or_skip, PixelCheck};
use dxbc_wgsl_tests::raster::{interpolate, pixel_weights};
use example_engine::effects::basic_effect as fx;
use example_engine::math::Mat4;
use example_engine::mesh::pack_vertices;
use example_engine::target::depth_stencil_state;
use example_engine::texture::{sampler, TextureImage};
use example_engine::{Gpu, Image, Target, COLOR_FORMAT};
use wgpu::util::DeviceExt;

/// Largest accepted difference per channel, in 1/255 steps.
const TOLERANCE: u8 = 2;
/// The render target is SIZE x SIZE pixels.
const SIZE: u32 = 64;
/// Texture cells per side.
const TEXELS: u32 = 4;

/// One corner of the quad.
#[derive(Clone, Copy, Debug)]
struct Corner {
    position: [f32; 4],
    normal: [f32; 3],
    tex_coord: [f32; 2],
    color: [f32; 4],
}

const CORNERS: [Corner; 4] = [
    Corner {
        position: [-1.0, -1.0, 0.0, 1.0],
        normal: [-0.3, -0.2, 1.0],
        tex_coord: [0.0, 1.0],
        color: [1.0, 0.8, 0.6, 1.0],
    },
    Corner {
        position: [1.0, -1.0, 0.0, 1.0],
        normal: [0.35, -0.1, 1.0],
        tex_coord: [1.0, 1.0],
        color: [0.6, 1.0, 0.7, 0.8],
    },
    Corner {
        position: [1.0, 1.0, 0.0, 1.0],
        normal: [0.2, 0.3, 0.9],
        tex_coord: [1.0, 0.0],
        color: [0.7, 0.6, 1.0, 0.9],
    },
    Corner {
        position: [-1.0, 1.0, 0.0, 1.0],
        normal: [-0.25, 0.25, 1.1],
        tex_coord: [0.0, 0.0],
        color: [0.9, 0.9, 0.5, 0.7],
    },
];

const TRIANGLES: [[usize; 3]; 2] = [[0, 1, 2], [0, 2, 3]];

fn normalize(v: [f32; 3]) -> [f32; 3] {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|x| x / l)
}

/// The effect's parameters: three lights of distinct directions and colours, specular, fog.
fn scene_params() -> BasicParams {
    let world = Mat4::scaling([1.2, 0.9, 1.0])
        .mul(&Mat4::rotation_x(-0.45))
        .mul(&Mat4::rotation_y(0.3))
        .mul(&Mat4::translation([0.1, -0.2, 0.3]));
    let eye = [0.4, 0.7, 3.5];
    let view = Mat4::look_at_rh(eye, [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
    let proj = Mat4::perspective_fov_rh(0.9, 1.0, 0.5, 20.0);
    let wit = world.inverse_transpose_3x3().expect("world is invertible");
    BasicParams {
        diffuse_color: [0.8, 0.7, 0.6, 0.9],
        emissive_color: [0.05, 0.02, 0.08],
        specular_color: [0.6, 0.5, 0.4],
        specular_power: 12.0,
        light_direction: [normalize([-0.5, -0.6, -0.6]), normalize([0.7, -0.2, -0.7]), normalize([0.1, 0.8, -0.6])],
        light_diffuse_color: [[0.9, 0.3, 0.2], [0.2, 0.7, 0.3], [0.2, 0.3, 0.8]],
        light_specular_color: [[0.8, 0.6, 0.4], [0.3, 0.9, 0.5], [0.4, 0.4, 0.9]],
        eye_position: eye,
        fog_color: [0.3, 0.35, 0.5],
        // fog = 0.15 x + 0.2 y + 0.5 on the object-space quad: between 0.15 and 0.85.
        fog_vector: [0.15, 0.2, 0.0, 0.5],
        world: world.0,
        world_inverse_transpose: wit,
        world_view_proj: world.mul(&view).mul(&proj).0,
    }
}

/// HLSL's default column-major packing: register i of a matrix holds its column i.
fn columns4(m: &[[f32; 4]; 4]) -> [[f32; 4]; 4] {
    std::array::from_fn(|i| [m[0][i], m[1][i], m[2][i], m[3][i]])
}

fn columns3(m: &[[f32; 3]; 3]) -> [[f32; 4]; 3] {
    std::array::from_fn(|i| [m[0][i], m[1][i], m[2][i], 0.0])
}

fn pad3(v: [f32; 3]) -> [f32; 4] {
    [v[0], v[1], v[2], 0.0]
}

/// The constant buffer the application uploads, through the generated struct.
fn constants(p: &BasicParams) -> fx::Parameters {
    fx::Parameters {
        diffuse_color: p.diffuse_color,
        emissive_color: p.emissive_color,
        specular_color: p.specular_color,
        specular_power: p.specular_power,
        light_direction: p.light_direction.map(pad3),
        light_diffuse_color: p.light_diffuse_color.map(pad3),
        light_specular_color: p.light_specular_color.map(pad3),
        eye_position: p.eye_position,
        fog_color: p.fog_color,
        fog_vector: p.fog_vector,
        world: columns4(&p.world),
        world_inverse_transpose: columns3(&p.world_inverse_transpose),
        world_view_proj: columns4(&p.world_view_proj),
        ..Default::default()
    }
}

/// The same bytes moved one register (16 bytes) later: what a wrong register offset would upload.
fn shifted_by_one_register(bytes: &[u8]) -> Vec<u8> {
    let mut shifted = vec![0u8; 16];
    shifted.extend_from_slice(&bytes[..bytes.len() - 16]);
    shifted
}

/// A 4x4 texture whose texels all differ in colour and (some) in alpha.
fn texture() -> TextureImage {
    TextureImage::from_fn(TEXELS, TEXELS, |x, y| {
        [(40 + 60 * x) as u8, (50 + 55 * y) as u8, (230 - 30 * (x + y)) as u8, (255 - 15 * ((x + 2 * y) % 4)) as u8]
    })
}

/// The texel nearest-filtering picks at `uv` (repeat addressing), or `None` within 2% of a texel
/// boundary.
fn nearest_texel(texture: &TextureImage, uv: [f32; 2]) -> Option<[f32; 4]> {
    let mut index = [0u32; 2];
    for (i, &c) in uv.iter().enumerate() {
        let t = c * TEXELS as f32;
        let frac = t - t.floor();
        if !(0.02..=0.98).contains(&frac) {
            return None;
        }
        index[i] = (t.floor() as i64).rem_euclid(i64::from(TEXELS)) as u32;
    }
    Some(texture.texel(index[0], index[1]).map(|b| f32::from(b) / 255.0))
}

/// Every pixel of a grid (every 3rd pixel) whose centre is safely inside one of the triangles,
/// with the interpolation weights of that triangle's corners.
fn sample_points(clip: &[[f32; 4]; 4]) -> Vec<(u32, u32, [usize; 3], [f64; 3])> {
    let mut points = Vec::new();
    for y in (1..SIZE).step_by(3) {
        for x in (1..SIZE).step_by(3) {
            for tri in TRIANGLES {
                let corners = tri.map(|i| clip[i]);
                if let Some(w) = pixel_weights(corners, SIZE, SIZE, x, y, 1.0) {
                    points.push((x, y, tri, w));
                }
            }
        }
    }
    points
}

/// Renders the quad with one permutation and the given constant-buffer bytes.
fn render(
    gpu: &Gpu,
    permutation: fx::Permutation,
    constants: &[u8],
    vertex: impl Fn(&Corner, u32) -> [f32; 4],
    texture: Option<&TextureImage>,
) -> Image {
    let target = Target::new(gpu, SIZE, SIZE);
    let layout = permutation.vertex_buffer_layout().expect("permutation exists");
    let corners: Vec<Corner> = TRIANGLES.iter().flatten().map(|&i| CORNERS[i]).collect();
    let vertex_bytes = pack_vertices(&layout, corners.len(), |v, location| vertex(&corners[v], location))
        .expect("float vertex formats");
    let (layouts, pipeline) = gpu
        .scoped("creating the BasicEffect pipeline", |device| {
            let layouts = fx::Layouts::new(device, permutation);
            let pipeline = fx::create_render_pipeline_with(
                device,
                &layouts,
                &fx::PipelineOptions {
                    label: Some("BasicEffect test"),
                    color_targets: &[Some(wgpu::ColorTargetState {
                        format: COLOR_FORMAT,
                        blend: None,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                    depth_stencil: Some(depth_stencil_state()),
                    primitive: wgpu::PrimitiveState::default(),
                    multisample: wgpu::MultisampleState::default(),
                },
            );
            (layouts, pipeline)
        })
        .unwrap_or_else(|e| panic!("{e}"));
    gpu.scoped("drawing the quad", |device| {
        let parameters = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("Parameters"),
            contents: constants,
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("quad"),
            contents: &vertex_bytes,
            usage: wgpu::BufferUsages::VERTEX,
        });
        let texture = texture.map(|t| t.upload(gpu, "test texture"));
        let view = texture.as_ref().map(|t| t.create_view(&Default::default()));
        let sampler = sampler(gpu, wgpu::FilterMode::Nearest);
        let bind_groups = fx::BindGroups::new(
            device,
            &layouts,
            &fx::Resources { parameters: &parameters, texture: view.as_ref(), sampler: Some(&sampler) },
        )
        .expect("all resources given");
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = target.begin_pass(&mut encoder, wgpu::Color::BLACK);
            pass.set_pipeline(&pipeline);
            bind_groups.set(&mut pass);
            pass.set_vertex_buffer(0, vertices.slice(..));
            pass.draw(0..corners.len() as u32, 0..1);
        }
        gpu.queue.submit([encoder.finish()]);
    })
    .unwrap_or_else(|e| panic!("{e}"));
    target.read_back(gpu).unwrap_or_else(|e| panic!("{e}"))
}

/// Attribute values by the vertex shader's input register (= shader location): SV_Position v0,
/// NORMAL v1, then TEXCOORD0 or COLOR0 in v2.
fn position_normal_then(corner: &Corner, location: u32, third: [f32; 4]) -> [f32; 4] {
    match location {
        0 => corner.position,
        1 => pad3(corner.normal),
        2 => third,
        other => panic!("unexpected vertex input location {other}"),
    }
}

fn assert_within_tolerance(what: &str, checks: &[PixelCheck]) {
    let worst = checks.iter().map(PixelCheck::max_diff).max().unwrap_or(0);
    println!(
        "{what}: {} pixels, largest difference {worst}/255 (tolerance {TOLERANCE}/255); first 10:\n{}",
        checks.len(),
        format_checks(&checks[..checks.len().min(10)])
    );
    assert!(
        worst <= TOLERANCE,
        "{what}: rendered pixels differ from the CPU model by up to {worst}/255:\n{}",
        format_checks(checks)
    );
}

fn assert_shift_detected(what: &str, checks: &[PixelCheck]) {
    let worst = checks.iter().map(PixelCheck::max_diff).max().unwrap_or(0);
    println!("{what}, constants shifted by one register: largest difference {worst}/255");
    assert!(
        worst > TOLERANCE,
        "{what}: uploading the constants one register late still matched the CPU model \
         (largest difference {worst}/255), so the comparison cannot detect a wrong layout"
    );
}

/// (a) Per-pixel lighting, texture and fog: VSBasicPixelLightingTx + PSBasicPixelLightingTx.
#[test]
fn per_pixel_lighting_texture_fog_matches_cpu_model() {
    let params = scene_params();
    let texture = texture();
    let vout: Vec<PixelLightingVaryings> =
        CORNERS.iter().map(|c| params.vs_pixel_lighting_tx(c.position, c.normal, c.tex_coord)).collect();
    let clip: [[f32; 4]; 4] = std::array::from_fn(|i| vout[i].position_ps);

    // Expected pixels, and the scene's own requirements: fog strictly between 0 and 1, specular
    // and every light visibly (more than the tolerance) changing each sampled pixel or some.
    let mut expected = Vec::new();
    let mut light_matters = [false; 3];
    let mut fog_range = (f32::MAX, f32::MIN);
    let mut specular_range = (u8::MAX, 0);
    for (x, y, tri, w) in sample_points(&clip) {
        let v = tri.map(|i| vout[i]);
        let pin = PixelLightingVaryings {
            position_ps: interpolate(w, v.map(|o| o.position_ps)),
            position_ws: interpolate(w, v.map(|o| o.position_ws)),
            normal_ws: interpolate(w, v.map(|o| o.normal_ws)),
            diffuse: interpolate(w, v.map(|o| o.diffuse)),
            tex_coord: interpolate(w, v.map(|o| o.tex_coord)),
        };
        let Some(texel) = nearest_texel(&texture, pin.tex_coord) else {
            continue;
        };
        let fog = pin.position_ws[3];
        assert!(fog > 0.05 && fog < 0.95, "scene: fog {fog} at ({x}, {y}) not strictly inside (0, 1)");
        let color = to_unorm8(params.ps_pixel_lighting_tx(texel, &pin));
        let unlit_specular =
            to_unorm8(BasicParams { specular_color: [0.0; 3], ..params }.ps_pixel_lighting_tx(texel, &pin));
        let specular_effect = max_diff(color, unlit_specular);
        assert!(specular_effect > TOLERANCE, "scene: specular too weak at ({x}, {y})");
        fog_range = (fog_range.0.min(fog), fog_range.1.max(fog));
        specular_range = (specular_range.0.min(specular_effect), specular_range.1.max(specular_effect));
        for (l, matters) in light_matters.iter_mut().enumerate() {
            let mut without = params;
            without.light_diffuse_color[l] = [0.0; 3];
            without.light_specular_color[l] = [0.0; 3];
            *matters |= max_diff(color, to_unorm8(without.ps_pixel_lighting_tx(texel, &pin))) > TOLERANCE;
        }
        expected.push((x, y, color));
    }
    println!(
        "scene (a): fog factor {:.3}..{:.3} at the sampled pixels; specular changes them by \
         {}..{}/255; every light changes some by more than the tolerance: {light_matters:?}",
        fog_range.0, fog_range.1, specular_range.0, specular_range.1
    );
    assert!(light_matters.iter().all(|&m| m), "scene: every light must matter somewhere: {light_matters:?}");
    assert!(expected.len() >= 16, "scene: only {} usable pixels", expected.len());

    let Some(gpu) = gpu_or_skip("per_pixel_lighting_texture_fog_matches_cpu_model") else {
        return;
    };
    let permutation = fx::Permutation { fog: true, texture: true, lighting: fx::Lighting::Pixel, ..Default::default() };
    let vertex =
        |c: &Corner, location: u32| position_normal_then(c, location, [c.tex_coord[0], c.tex_coord[1], 0.0, 0.0]);
    let bytes = bytemuck::bytes_of(&constants(&params)).to_vec();
    let image = render(&gpu, permutation, &bytes, vertex, Some(&texture));
    assert_within_tolerance("per-pixel lighting + texture + fog", &check_pixels(&image, &expected));

    let shifted = render(&gpu, permutation, &shifted_by_one_register(&bytes), vertex, Some(&texture));
    assert_shift_detected("per-pixel lighting + texture + fog", &check_pixels(&shifted, &expected));
}

/// (b) Per-vertex lighting with vertex colour: VSBasicVertexLightingVc + PSBasicVertexLighting.
#[test]
fn per_vertex_lighting_vertex_color_matches_cpu_model() {
    let params = scene_params();
    let vout: Vec<_> = CORNERS.iter().map(|c| params.vs_vertex_lighting_vc(c.position, c.normal, c.color)).collect();
    let clip: [[f32; 4]; 4] = std::array::from_fn(|i| vout[i].position_ps);
    let mut expected = Vec::new();
    let mut fog_range = (f32::MAX, f32::MIN);
    for (x, y, tri, w) in sample_points(&clip) {
        let v = tri.map(|i| vout[i]);
        let pin = dxbc_wgsl_tests::basic_effect_model::VertexLightingVaryings {
            position_ps: interpolate(w, v.map(|o| o.position_ps)),
            diffuse: interpolate(w, v.map(|o| o.diffuse)),
            specular: interpolate(w, v.map(|o| o.specular)),
        };
        let fog = pin.specular[3];
        assert!(fog > 0.05 && fog < 0.95, "scene: fog {fog} at ({x}, {y}) not strictly inside (0, 1)");
        fog_range = (fog_range.0.min(fog), fog_range.1.max(fog));
        expected.push((x, y, to_unorm8(params.ps_vertex_lighting(&pin))));
    }
    println!("scene (b): fog factor {:.3}..{:.3} at the sampled pixels", fog_range.0, fog_range.1);
    assert!(expected.len() >= 16, "scene: only {} usable pixels", expected.len());

    let Some(gpu) = gpu_or_skip("per_vertex_lighting_vertex_color_matches_cpu_model") else {
        return;
    };
    let permutation =
        fx::Permutation { fog: true, vertex_color: true, lighting: fx::Lighting::Vertex, ..Default::default() };
    let vertex = |c: &Corner, location: u32| position_normal_then(c, location, c.color);
    let bytes = bytemuck::bytes_of(&constants(&params)).to_vec();
    let image = render(&gpu, permutation, &bytes, vertex, None);
    assert_within_tolerance("per-vertex lighting + vertex colour + fog", &check_pixels(&image, &expected));

    let shifted = render(&gpu, permutation, &shifted_by_one_register(&bytes), vertex, None);
    assert_shift_detected("per-vertex lighting + vertex colour + fog", &check_pixels(&shifted, &expected));
}

fn max_diff(a: [u8; 4], b: [u8; 4]) -> u8 {
    (0..4).map(|c| a[c].abs_diff(b[c])).max().unwrap_or(0)
}
