//! D3D11 render states declared in an effect file (`tests/effects/render_states.effect.toml`),
//! drawn on the GPU through the pipelines `create_render_pipeline` builds from them: alpha
//! blending and the blend factor give `src * f + dest * (1 - f)` as computed here on the CPU, a
//! depth test LESS rejects a farther draw (and does not when the nearer draw kept depth writes
//! off), D3D's default rasterizer state culls counter-clockwise triangles, and alpha to coverage
//! masks samples on a multisampled target (alpha 0 covers none) while the single-sampled
//! `create_render_pipeline` of the same pass is valid and leaves it off.
//!
//! The shaders are BasicEffect's unlit VSBasicNoFog + PSBasicNoFog: each pixel's colour is the
//! draw's `DiffuseColor`, and the identity `WorldViewProj` leaves positions in clip space.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

use dxbc_wgsl_tests::gpu::gpu_or_skip;
use example_engine::{Gpu, Image, Target, COLOR_FORMAT, DEPTH_FORMAT};
use wgpu::util::DeviceExt;

dxbc_wgsl_macros::include_effect!("effects/render_states.effect.toml");

use render_states as fx;

/// Render target size (pixels per side).
const SIZE: u32 = 32;
/// Largest accepted difference per channel, in 1/255 steps (unorm8 rounding of the blend).
const TOLERANCE: u8 = 1;

/// One draw: an axis-aligned rectangle in clip space at depth `z`, in one colour.
struct Draw {
    pass: fx::Pass,
    /// x0, y0, x1, y1 in clip space (y up).
    rect: [f32; 4],
    z: f32,
    color: [f32; 4],
    /// Wound clockwise as seen on the target (D3D's default front face), else counter-clockwise.
    clockwise: bool,
}

/// The two triangles of a rectangle, clockwise or counter-clockwise on screen.
fn quad(rect: [f32; 4], z: f32, clockwise: bool) -> Vec<fx::VertexPosition> {
    let [x0, y0, x1, y1] = rect;
    // Clip-space y points up, as on the screen: (x0, y0) -> (x0, y1) -> (x1, y1) is clockwise.
    let mut corners = [[x0, y0], [x0, y1], [x1, y1], [x0, y0], [x1, y1], [x1, y0]];
    if !clockwise {
        corners.swap(1, 2);
        corners.swap(4, 5);
    }
    corners.iter().map(|&[x, y]| fx::VertexPosition { position: [x, y, z] }).collect()
}

/// Clears to `clear`, runs the draws in order in one render pass (blend constant `constant`), and
/// reads the colour target back.
fn render(gpu: &Gpu, clear: [f64; 4], constant: [f64; 4], draws: &[Draw]) -> Image {
    render_with(gpu, clear, constant, draws, 1)
}

/// [`render`] with `samples` per pixel: above 1, into a multisampled colour target without a
/// depth buffer (pipelines from `create_render_pipeline_with` and `multisample_state(samples)`),
/// resolved into the single-sampled target that is read back.
fn render_with(gpu: &Gpu, clear: [f64; 4], constant: [f64; 4], draws: &[Draw], samples: u32) -> Image {
    let target = Target::new(gpu, SIZE, SIZE);
    let msaa = (samples > 1).then(|| {
        gpu.device
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("multisampled colour"),
                size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format: COLOR_FORMAT,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            })
            .create_view(&Default::default())
    });
    let prepared = gpu
        .scoped("creating the pipelines and buffers", |device| {
            draws
                .iter()
                .map(|d| {
                    let layouts = fx::Layouts::new(device, d.pass, fx::Permutation {});
                    // The states are the effect file's: only the formats (and the sample count) are
                    // given here.
                    let pipeline = if samples > 1 {
                        let targets = fx::color_target_states(d.pass, &[COLOR_FORMAT]);
                        let options = fx::PipelineOptions {
                            multisample: fx::multisample_state(d.pass, samples),
                            ..fx::PipelineOptions::new(d.pass, &targets, None)
                        };
                        fx::create_render_pipeline_with(device, &layouts, &options)
                    } else {
                        fx::create_render_pipeline(device, &layouts, &[COLOR_FORMAT], Some(DEPTH_FORMAT))
                    };
                    let mut params = fx::Parameters { diffuse_color: d.color, ..Default::default() };
                    params.world_view_proj =
                        [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];
                    let parameters = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some("Parameters"),
                        contents: bytemuck::bytes_of(&params),
                        usage: wgpu::BufferUsages::UNIFORM,
                    });
                    let bind_groups = fx::BindGroups::new(device, &layouts, &fx::Resources { parameters: &parameters })
                        .expect("every resource given");
                    let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some("quad"),
                        contents: bytemuck::cast_slice(&quad(d.rect, d.z, d.clockwise)),
                        usage: wgpu::BufferUsages::VERTEX,
                    });
                    (pipeline, bind_groups, vertices)
                })
                .collect::<Vec<_>>()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    gpu.scoped("drawing", |device| {
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let [r, g, b, a] = clear;
            let clear = wgpu::Color { r, g, b, a };
            let mut pass = match &msaa {
                None => target.begin_pass(&mut encoder, clear),
                Some(view) => encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("multisampled pass"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view,
                        depth_slice: None,
                        resolve_target: Some(&target.color_view),
                        ops: wgpu::Operations { load: wgpu::LoadOp::Clear(clear), store: wgpu::StoreOp::Discard },
                    })],
                    ..Default::default()
                }),
            };
            let [r, g, b, a] = constant;
            pass.set_blend_constant(wgpu::Color { r, g, b, a });
            for (pipeline, bind_groups, vertices) in &prepared {
                pass.set_pipeline(pipeline);
                bind_groups.set(&mut pass);
                pass.set_vertex_buffer(0, vertices.slice(..));
                pass.draw(0..6, 0..1);
            }
        }
        gpu.queue.submit([encoder.finish()]);
    })
    .unwrap_or_else(|e| panic!("{e}"));
    target.read_back(gpu).unwrap_or_else(|e| panic!("{e}"))
}

fn unorm8(c: [f64; 4]) -> [u8; 4] {
    c.map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8)
}

fn f64s(c: [f32; 4]) -> [f64; 4] {
    c.map(f64::from)
}

/// `src * f + dest * (1 - f)` per channel.
fn mix(src: [f64; 4], dest: [f64; 4], f: [f64; 4]) -> [f64; 4] {
    std::array::from_fn(|i| src[i] * f[i] + dest[i] * (1.0 - f[i]))
}

#[track_caller]
fn assert_pixel(image: &Image, x: u32, y: u32, expected: [u8; 4], what: &str) {
    let actual = image.pixel(x, y);
    let diff = (0..4).map(|c| actual[c].abs_diff(expected[c])).max().unwrap();
    println!("{what}: pixel ({x}, {y}) {actual:?}, expected {expected:?}");
    assert!(diff <= TOLERANCE, "{what}: pixel ({x}, {y}) is {actual:?}, expected {expected:?}");
}

/// Pixels of the left and right halves, away from the middle edge.
const LEFT: (u32, u32) = (SIZE / 4, SIZE / 2);
const RIGHT: (u32, u32) = (SIZE * 3 / 4, SIZE / 2);

#[test]
fn blending_follows_the_declared_blend_states() {
    let dest = [0.2, 0.4, 0.8, 1.0];
    let src = [1.0f32, 0.6, 0.0, 0.25];
    let constant = [0.5, 0.25, 0.75, 1.0];
    // SRC_ALPHA / INV_SRC_ALPHA (alpha: ONE / INV_SRC_ALPHA), and BLEND_FACTOR / INV_BLEND_FACTOR
    // (alpha: ONE / ZERO).
    let a = f64::from(src[3]);
    let over = mix(f64s(src), dest, [a, a, a, 1.0]);
    let over = [over[0], over[1], over[2], a + dest[3] * (1.0 - a)];
    let factor = mix(f64s(src), dest, constant);
    let factor = [factor[0], factor[1], factor[2], a];
    // Without blending the pixels would be the source colour: the comparison can tell.
    let unblended = unorm8(f64s(src));
    for expected in [unorm8(over), unorm8(factor)] {
        let apart = (0..4).map(|c| expected[c].abs_diff(unblended[c])).max().unwrap();
        assert!(apart > 20, "scene: blended {expected:?} too close to unblended {unblended:?}");
    }

    let Some(gpu) = gpu_or_skip("blending_follows_the_declared_blend_states") else {
        return;
    };
    // CullNone: both quads are drawn whatever their winding.
    let image = render(
        &gpu,
        dest,
        constant,
        &[
            Draw { pass: fx::Pass::AlphaBlend, rect: [-1.0, -1.0, 0.0, 1.0], z: 0.5, color: src, clockwise: false },
            Draw { pass: fx::Pass::BlendFactor, rect: [0.0, -1.0, 1.0, 1.0], z: 0.5, color: src, clockwise: true },
        ],
    );
    assert_pixel(&image, LEFT.0, LEFT.1, unorm8(over), "AlphaBlend (SRC_ALPHA, INV_SRC_ALPHA)");
    assert_pixel(&image, RIGHT.0, RIGHT.1, unorm8(factor), "BLEND_FACTOR, INV_BLEND_FACTOR");
}

#[test]
fn depth_test_less_rejects_a_farther_draw() {
    let near = [0.9f32, 0.1, 0.1, 1.0];
    let far = [0.1f32, 0.1, 0.9, 1.0];
    let clear = [0.0, 0.0, 0.0, 1.0];
    let Some(gpu) = gpu_or_skip("depth_test_less_rejects_a_farther_draw") else {
        return;
    };
    let image = render(
        &gpu,
        clear,
        [0.0; 4],
        &[
            // Left: near, writing depth. Right: near, depth writes off (depth_write_mask = ZERO).
            Draw { pass: fx::Pass::DepthWrite, rect: [-1.0, -1.0, 0.0, 1.0], z: 0.25, color: near, clockwise: true },
            Draw { pass: fx::Pass::DepthReadOnly, rect: [0.0, -1.0, 1.0, 1.0], z: 0.25, color: near, clockwise: true },
            // Then far, over the whole target, with LESS.
            Draw { pass: fx::Pass::DepthWrite, rect: [-1.0, -1.0, 1.0, 1.0], z: 0.75, color: far, clockwise: true },
        ],
    );
    assert_pixel(&image, LEFT.0, LEFT.1, unorm8(f64s(near)), "far draw behind a depth-writing near draw");
    assert_pixel(&image, RIGHT.0, RIGHT.1, unorm8(f64s(far)), "far draw behind a near draw without depth writes");
}

#[test]
fn default_rasterizer_state_culls_counter_clockwise_triangles() {
    let color = [0.3f32, 0.9, 0.3, 1.0];
    let clear = [0.0, 0.0, 0.0, 1.0];
    let Some(gpu) = gpu_or_skip("default_rasterizer_state_culls_counter_clockwise_triangles") else {
        return;
    };
    let image = render(
        &gpu,
        clear,
        [0.0; 4],
        &[
            Draw { pass: fx::Pass::Defaults, rect: [-1.0, -1.0, 0.0, 1.0], z: 0.5, color, clockwise: true },
            Draw { pass: fx::Pass::Defaults, rect: [0.0, -1.0, 1.0, 1.0], z: 0.5, color, clockwise: false },
        ],
    );
    assert_pixel(&image, LEFT.0, LEFT.1, unorm8(f64s(color)), "clockwise (front) quad, CULL_BACK");
    assert_pixel(&image, RIGHT.0, RIGHT.1, unorm8(clear), "counter-clockwise (back) quad, CULL_BACK");
}

#[test]
fn alpha_to_coverage_masks_samples_when_multisampled() {
    let color = [0.9f32, 0.5, 0.1, 0.0];
    let opaque = [0.9f32, 0.5, 0.1, 1.0];
    let clear = [0.1, 0.2, 0.7, 1.0];
    let Some(gpu) = gpu_or_skip("alpha_to_coverage_masks_samples_when_multisampled") else {
        return;
    };
    let draws = [
        // Alpha 0 on the left, 1 on the right.
        Draw { pass: fx::Pass::AlphaToCoverage, rect: [-1.0, -1.0, 0.0, 1.0], z: 0.5, color, clockwise: true },
        Draw { pass: fx::Pass::AlphaToCoverage, rect: [0.0, -1.0, 1.0, 1.0], z: 0.5, color: opaque, clockwise: true },
    ];
    // Four samples: alpha 0 covers no sample (WebGPU guarantees it), alpha 1 all of them.
    let image = render_with(&gpu, clear, [0.0; 4], &draws, 4);
    assert_pixel(&image, LEFT.0, LEFT.1, unorm8(clear), "alpha 0, alpha to coverage, 4 samples");
    assert_pixel(&image, RIGHT.0, RIGHT.1, unorm8(f64s(opaque)), "alpha 1, alpha to coverage, 4 samples");
    // One sample: `create_render_pipeline` is valid (WebGPU rejects alpha to coverage there, so
    // the generated multisample state leaves it off) and alpha masks nothing.
    assert!(!fx::multisample_state(fx::Pass::AlphaToCoverage, 1).alpha_to_coverage_enabled);
    let image = render(&gpu, clear, [0.0; 4], &draws);
    assert_pixel(&image, LEFT.0, LEFT.1, unorm8(f64s(color)), "alpha 0, one sample (alpha to coverage off)");
    assert_pixel(&image, RIGHT.0, RIGHT.1, unorm8(f64s(opaque)), "alpha 1, one sample");
}
