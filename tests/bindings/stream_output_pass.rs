//! Stream output through the generated module (`tests/effects/stream_output.effect.toml`, whose
//! shaders `dxbc_wgsl_tests::so_fixture` assembles): the effect file's declarations resolved
//! against the shaders' output signatures, the geometry shaders translated keeping their
//! streams, the vertex-shader-only pass given its pass-through geometry stage, and every pass
//! driven through its generated stage type on the GPU. Every word of every stream-output buffer
//! and the decoded state (filled sizes, statistics, DrawAuto arguments) are compared with what
//! D3D11.3 §14 gives, computed here from the shaders' definitions (independently of
//! `tests/src/so_model.rs`); the rasterized stream's pixels too.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

use std::path::Path;

use dxbc_wgsl_tests::so_fixture::{MARK, POINT_STREAMS, STRIP_OFFSETS, W};

/// The blobs in `tests/fixtures/stream_output/` are what the assembler makes today
/// (`UPDATE_GOLDEN=1` rewrites them), and each translates.
#[test]
fn fixture_blobs_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stream_output");
    for (name, bytes) in dxbc_wgsl_tests::so_fixture::blobs() {
        let path = dir.join(name);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &bytes).unwrap();
        }
        let kept = std::fs::read(&path).unwrap_or_default();
        assert!(kept == bytes, "{} differs from the assembler's (UPDATE_GOLDEN=1 rewrites it)", path.display());
        dxbc_wgsl::translate(&bytes, &Default::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// Compiles the fixture's effect with `replace` applied to its text (in a folder of copies of
/// the fixture blobs); the first diagnostic and the line and column (1-based) of `needle` in the
/// edited text.
fn compile_error(replace: (&str, &str), needle: &str) -> (dxbc_wgsl_build::Diagnostic, (usize, usize)) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("effects/stream_output.effect.toml")).unwrap();
    assert!(text.contains(replace.0), "`{}` not in the effect", replace.0);
    let text = text.replacen(replace.0, replace.1, 1).replace("../fixtures/stream_output", ".");
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in dxbc_wgsl_tests::so_fixture::blobs() {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let path = dir.path().join("e.effect.toml");
    std::fs::write(&path, &text).unwrap();
    let effect = dxbc_wgsl_build::Effect::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let err = dxbc_wgsl_build::compile::compile(effect, &mut dxbc_wgsl_build::compile::DirectTranslator)
        .expect_err("the declaration should be refused");
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in the text"));
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |p| p + 1) + 1;
    (err.first().unwrap().clone(), (line, column))
}

/// A declaration that names what the shader does not write, writes a component twice, or does
/// not fit its stride is refused at its entry, as `CreateGeometryShaderWithStreamOutput` refuses
/// it; a pixel shader in a pass that rasterizes nothing at the pixel key.
#[test]
fn declarations_are_checked_against_the_output_signature() {
    let cases = [
        (
            (
                "{ semantic = \"data\", component_count = 1, slot = 1 }",
                "{ semantic = \"COLOR\", component_count = 1, slot = 1 }",
            ),
            "{ semantic = \"COLOR\"",
            "no output element COLOR0 on stream 0",
        ),
        (
            (
                "{ semantic = \"data\", component_count = 1, slot = 1 }",
                "{ semantic = \"DATA\", start_component = 3, component_count = 1, slot = 1 }",
            ),
            "{ semantic = \"DATA\", start_component = 3",
            "written twice",
        ),
        (("strides = [24, 8]", "strides = [20, 8]"), "20, 8]", "slot 0: stride 20"),
        (
            (
                "{ stream = 2, semantic = \"SV_Position\", component_count = 1, slot = 2 }",
                "{ stream = 3, semantic = \"SV_Position\", component_count = 1, slot = 2 }",
            ),
            "{ stream = 3",
            "slot 2",
        ),
        (
            ("strides = [24, 8]", "strides = [24, 8]\nrasterized_stream = 2"),
            "\"So_PS.dxbc\"\ntopology = \"point_list\"\nrasterizer",
            "rasterizes stream 2, but its pixel shader So_PS.dxbc reads DATA (v1)",
        ),
        (
            ("rasterized_stream = 1", "rasterized_stream = \"none\""),
            "pixel = \"So_PS.dxbc\"\ntopology = \"point_list\"\n\n[passes.points",
            "rasterizes no stream",
        ),
    ];
    for (replace, needle, message) in cases {
        let (d, at) = compile_error(replace, needle);
        assert!(d.message.contains(message), "{}: `{}` lacks `{message}`", replace.1, d.message);
        assert_eq!((d.line, d.column), at, "{}: {d}", replace.1);
    }
}

dxbc_wgsl_macros::include_effect!("effects/stream_output.effect.toml");

#[path = "../tests/common/mod.rs"]
mod common;

use dxbc_wgsl_gpu::conformance::Device;
use stream_output as fx;
use stream_output::stream_output::{SoStart, SoState, SoTarget, SO_DRAW_AUTO};

/// What a slot's words were filled with before the draws (bytes no entry writes keep it).
const UNTOUCHED: u32 = 0xDEAD_BEEF;
/// The render target's clear value.
const CLEAR: [u32; 4] = [1, 2, 3, 4];

fn vertex(pos: [f32; 4], data: [u32; 4]) -> fx::VertexPositionData {
    fx::VertexPositionData { position: pos, data }
}

/// The centre of pixel `(x, y)` of the `W × W` target in clip space.
fn pixel_centre(x: u32, y: u32) -> [f32; 4] {
    let half = W as f32 / 2.0;
    [(x as f32 + 0.5) / half - 1.0, 1.0 - (y as f32 + 0.5) / half, 0.5, 1.0]
}

fn storage(dev: &Device, label: &str, words: &[u32]) -> wgpu::Buffer {
    dev.buffer(label, bytemuck::cast_slice(words), wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC)
}

fn target(dev: &Device) -> (wgpu::Texture, wgpu::TextureView) {
    let t = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: W, height: W, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba32Uint,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let v = t.create_view(&Default::default());
    (t, v)
}

fn begin<'e>(encoder: &'e mut wgpu::CommandEncoder, view: &'e wgpu::TextureView) -> wgpu::RenderPass<'e> {
    let c = CLEAR.map(f64::from);
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("draw"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color { r: c[0], g: c[1], b: c[2], a: c[3] }),
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// The decoded state buffer and its DrawAuto words (per slot: vertex count, 1, 0, 0).
fn state(dev: &Device, so: &fx::stream_output::StreamOutput) -> (SoState, Vec<u32>) {
    let words = common::read_words(dev, so.state());
    let state = SoState::from_bytes(bytemuck::cast_slice(&words)).expect("state");
    (state, words[SO_DRAW_AUTO..SO_DRAW_AUTO + 16].to_vec())
}

/// Writes `vertices` into `words` as D3D writes a stream's primitives into a slot: from byte
/// `filled` on, each whole primitive of `per` vertices of `stride` bytes while it fits in
/// `capacity` bytes; returns the primitives written and the new filled size.
fn append(words: &mut [u32], filled: u32, stride: u32, vertices: &[Vec<u32>], per: usize) -> (u32, u32) {
    let capacity = (words.len() * 4) as u32;
    let mut at = filled;
    let mut written = 0;
    for prim in vertices.chunks(per) {
        if at + stride * per as u32 > capacity {
            break;
        }
        for v in prim {
            for (i, &w) in v.iter().enumerate() {
                if w != UNTOUCHED {
                    words[(at / 4) as usize + i] = w;
                }
            }
            at += stride;
        }
        written += 1;
    }
    (written, at)
}

/// The strip shader's triangles of input point `i` (vertex `p`, DATA `d`, primitive `i`), in
/// D3D's order: the strip cut after vertex 2 gives `(0, 1, 2)`, then `(3, 4, 5)` and the odd
/// `(4, 6, 5)`. Each vertex as `(o0, o1)`.
fn strip_triangles(p: [f32; 4], d: [u32; 4], i: u32) -> Vec<([u32; 4], [u32; 4])> {
    let out = |k: usize| {
        let [x, y] = STRIP_OFFSETS[k];
        ([(p[0] + x).to_bits(), (p[1] + y).to_bits(), p[2].to_bits(), p[3].to_bits()], [d[0], k as u32, i, MARK])
    };
    [0, 1, 2, 3, 4, 5, 4, 6, 5].into_iter().map(out).collect()
}

#[test]
fn strips_stream_out_overflow_mid_draw_and_resume_with_append() {
    let Some(dev) = common::device("strips_stream_out_overflow_mid_draw_and_resume_with_append") else { return };
    let device = &dev.device;
    assert_eq!(fx::StripsStage::STREAM_OUTPUT_STRIDES, [24, 8, 0, 0]);
    assert_eq!(fx::StripsStage::RASTERIZED_STREAM, Some(0));
    let stage = fx::StripsStage::new(device, fx::Permutation::default(), &[wgpu::TextureFormat::Rgba32Uint], None)
        .expect("stage");
    let groups = stage.bind_groups(device, &fx::GeometryResources { _marker: Default::default() }).expect("groups");
    let points: Vec<fx::VertexPositionData> =
        (0..4).map(|i| vertex([-0.9 + 0.4 * i as f32, -0.5, 0.5, 1.0], [0x100 + i, 0xA1, 0xA2, 0xA3])).collect();
    let vertices = dev.buffer("points", bytemuck::cast_slice(&points), wgpu::BufferUsages::STORAGE);
    // Slot 0 holds 12 triangles of 24-byte vertices; slot 1 only 7 of 8-byte vertices: the
    // first draw stops in the middle of point 2's strips, where slot 1 is full.
    let slot0 = storage(&dev, "slot 0", &[UNTOUCHED; 12 * 3 * 6]);
    let slot1 = storage(&dev, "slot 1", &[UNTOUCHED; 7 * 3 * 2]);
    let mut want0 = vec![UNTOUCHED; 12 * 3 * 6];
    let mut want1 = vec![UNTOUCHED; 7 * 3 * 2];
    // The expected vertices of each slot, in D3D's order.
    let mut v0 = Vec::new();
    let mut v1 = Vec::new();
    for (i, p) in points.iter().enumerate() {
        for (o0, o1) in strip_triangles(p.position, p.data, i as u32) {
            v0.push(vec![o0[0], o0[1], UNTOUCHED, o1[1], o1[2], o1[3]]);
            v1.push(vec![o1[0], UNTOUCHED]);
        }
    }
    let (texture, view) = target(&dev);
    let draw = fx::StripsStage::draw_call(4, 1);

    // Draw 1: both slots from offset 0.
    let mut encoder = device.create_command_encoder(&Default::default());
    let targets = [
        Some(SoTarget { buffer: &slot0, start: SoStart::Offset(0) }),
        Some(SoTarget { buffer: &slot1, start: SoStart::Offset(0) }),
        None,
        None,
    ];
    let prepared =
        stage.prepare(device, &mut encoder, &draw, &[Some((&vertices, 0))], None, &groups, targets).expect("prepare");
    {
        let mut pass = begin(&mut encoder, &view);
        stage.draw(&mut pass, &prepared, &groups);
    }
    dev.queue.submit([encoder.finish()]);
    // The longest prefix of whole triangles both slots hold: 7 (slot 1's capacity).
    let fits0 = want0.len() as u32 * 4 / (3 * 24);
    let fits1 = want1.len() as u32 * 4 / (3 * 8);
    let first = fits0.min(fits1) as usize;
    assert_eq!(first, 7);
    let (_, filled0) = append(&mut want0, 0, 24, &v0[..first * 3], 3);
    let (_, filled1) = append(&mut want1, 0, 8, &v1[..first * 3], 3);
    assert_eq!(common::read_words(&dev, &slot0), want0, "slot 0 after draw 1");
    assert_eq!(common::read_words(&dev, &slot1), want1, "slot 1 after draw 1");
    let (s, auto) = state(&dev, stage.stream_output());
    assert_eq!(s.filled_size, [filled0, filled1, 0, 0], "filled sizes after draw 1");
    assert_eq!(s.statistics[0].primitives_written, 7);
    assert_eq!(s.statistics[0].primitives_storage_needed, 12);
    assert!(s.statistics[0].overflow, "12 triangles needed, 7 written");
    assert_eq!(&auto[..8], &[filled0 / 24, 1, 0, 0, filled1 / 8, 1, 0, 0], "DrawAuto arguments");
    // The rasterized stream drew the strips (the pixel shader writes DATA: MARK in `w`).
    let pixels = dev.read_texels(&texture, 4, 0, [0, 0, W, W]).expect("read");
    assert!(pixels.chunks(4).any(|p| p[3] == MARK), "the strips were drawn");
    stage.recycle(prepared);

    // Draw 2: slot 1 rebound to a fresh buffer from offset 0, slot 0 appended after its 7
    // triangles: writing resumes, and now slot 0's room (5 triangles) limits it.
    let slot1b = storage(&dev, "slot 1, second buffer", &[UNTOUCHED; 12 * 3 * 2]);
    let mut want1b = vec![UNTOUCHED; 12 * 3 * 2];
    let mut encoder = device.create_command_encoder(&Default::default());
    let targets = [
        Some(SoTarget { buffer: &slot0, start: SoStart::Append }),
        Some(SoTarget { buffer: &slot1b, start: SoStart::Offset(0) }),
        None,
        None,
    ];
    let prepared =
        stage.prepare(device, &mut encoder, &draw, &[Some((&vertices, 0))], None, &groups, targets).expect("prepare");
    dev.queue.submit([encoder.finish()]);
    let (second, filled0) = append(&mut want0, filled0, 24, &v0, 3);
    assert_eq!(second, 5);
    let (_, filled1) = append(&mut want1b, 0, 8, &v1[..second as usize * 3], 3);
    assert_eq!(common::read_words(&dev, &slot0), want0, "slot 0 after draw 2 (appended)");
    assert_eq!(common::read_words(&dev, &slot1b), want1b, "slot 1's new buffer after draw 2");
    let (s, auto) = state(&dev, stage.stream_output());
    assert_eq!(s.filled_size, [filled0, filled1, 0, 0], "filled sizes after draw 2");
    assert_eq!(s.statistics[0].primitives_written, 7 + 5);
    assert_eq!(s.statistics[0].primitives_storage_needed, 24);
    assert_eq!(&auto[..8], &[filled0 / 24, 1, 0, 0, filled1 / 8, 1, 0, 0], "DrawAuto arguments");
    stage.recycle(prepared);
}

#[test]
fn point_streams_two_streamed_out_one_drawn() {
    let Some(dev) = common::device("point_streams_two_streamed_out_one_drawn") else { return };
    let device = &dev.device;
    assert_eq!(fx::PointsStage::STREAM_OUTPUT_STRIDES, [16, 0, 20, 0]);
    assert_eq!(fx::PointsStage::RASTERIZED_STREAM, Some(1));
    let stage = fx::PointsStage::new(device, fx::Permutation::default(), &[wgpu::TextureFormat::Rgba32Uint], None)
        .expect("stage");
    let groups = stage.bind_groups(device, &fx::GeometryResources { _marker: Default::default() }).expect("groups");
    let n = 3u32;
    let points: Vec<fx::VertexPositionData> =
        (0..n).map(|i| vertex(pixel_centre(1, 4 * i + 1), [0x300 + i, 0xB1, 0xB2, 0xB3])).collect();
    let vertices = dev.buffer("points", bytemuck::cast_slice(&points), wgpu::BufferUsages::STORAGE);
    let slot0 = storage(&dev, "slot 0", &vec![UNTOUCHED; 4 * n as usize]);
    let slot2 = storage(&dev, "slot 2", &vec![UNTOUCHED; 5 * n as usize]);
    let (texture, view) = target(&dev);
    let mut encoder = device.create_command_encoder(&Default::default());
    let targets = [
        Some(SoTarget { buffer: &slot0, start: SoStart::Offset(0) }),
        None,
        Some(SoTarget { buffer: &slot2, start: SoStart::Offset(0) }),
        None,
    ];
    let prepared = stage
        .prepare(
            device,
            &mut encoder,
            &fx::PointsStage::draw_call(n, 1),
            &[Some((&vertices, 0))],
            None,
            &groups,
            targets,
        )
        .expect("prepare");
    {
        let mut pass = begin(&mut encoder, &view);
        stage.draw(&mut pass, &prepared, &groups);
    }
    dev.queue.submit([encoder.finish()]);
    // Emit k goes to stream POINT_STREAMS[k] at the point moved k pixels right, with
    // o1 = (DATA.x, stream, k, primitive); dcl_maxout 6 drops the seventh (stream 0's second).
    let emits: Vec<(u32, u32)> = POINT_STREAMS.iter().enumerate().take(6).map(|(k, &s)| (k as u32, s)).collect();
    let mut want0 = Vec::new();
    let mut want2 = Vec::new();
    let mut want_pixels = CLEAR.repeat((W * W) as usize);
    for (i, p) in points.iter().enumerate() {
        for &(k, s) in &emits {
            let x = p.position[0] + 2.0 / W as f32 * k as f32;
            let o1 = [p.data[0], s, k, i as u32];
            match s {
                0 => want0.extend(o1),
                2 => {
                    want2.extend(o1);
                    want2.push(x.to_bits());
                }
                1 => {
                    let at = (((4 * i as u32 + 1) * W + 1 + k) * 4) as usize;
                    want_pixels[at..at + 4].copy_from_slice(&o1);
                }
                _ => {}
            }
        }
    }
    assert_eq!(common::read_words(&dev, &slot0), want0, "slot 0 (stream 0)");
    assert_eq!(common::read_words(&dev, &slot2), want2, "slot 2 (stream 2)");
    let (s, auto) = state(&dev, stage.stream_output());
    assert_eq!(s.filled_size, [16 * n, 0, 20 * n, 0]);
    for (stream, written) in [(0, n), (1, 0), (2, n), (3, 0)] {
        let st = s.statistics[stream];
        assert_eq!(
            (st.primitives_written, st.primitives_storage_needed, st.overflow),
            (written.into(), written.into(), false),
            "stream {stream}"
        );
    }
    assert_eq!(&auto[..4], &[n, 1, 0, 0]);
    assert_eq!(&auto[8..12], &[n, 1, 0, 0]);
    let pixels = dev.read_texels(&texture, 4, 0, [0, 0, W, W]).expect("read");
    assert_eq!(pixels, want_pixels, "only stream 1's points are drawn");
    stage.recycle(prepared);
}

#[test]
fn vertex_shader_triangles_stream_out_without_a_geometry_shader() {
    let Some(dev) = common::device("vertex_shader_triangles_stream_out_without_a_geometry_shader") else { return };
    let device = &dev.device;
    assert_eq!(fx::CaptureStage::STREAM_OUTPUT_STRIDES, [16, 12, 0, 0]);
    assert_eq!(fx::CaptureStage::RASTERIZED_STREAM, None);
    let stage = fx::CaptureStage::new(device, fx::Permutation::default(), &[], None).expect("stage");
    let groups = stage.bind_groups(device, &fx::GeometryResources { _marker: Default::default() }).expect("groups");
    // A strip of 5 vertices: triangles (0, 1, 2), (1, 3, 2) (odd: its winding kept), (2, 3, 4).
    let strip: Vec<fx::VertexPositionData> = (0..5)
        .map(|i| vertex([0.1 * i as f32, -0.2 * i as f32, 0.25 + 0.125 * i as f32, 1.0], [0x400 + i, i, 0xC2, 0xC3]))
        .collect();
    let vertices = dev.buffer("strip", bytemuck::cast_slice(&strip), wgpu::BufferUsages::STORAGE);
    let slot0 = storage(&dev, "slot 0", &[UNTOUCHED; 9 * 4]);
    let slot1 = storage(&dev, "slot 1", &[UNTOUCHED; 9 * 3]);
    let mut encoder = device.create_command_encoder(&Default::default());
    let targets = [
        Some(SoTarget { buffer: &slot0, start: SoStart::Offset(0) }),
        Some(SoTarget { buffer: &slot1, start: SoStart::Offset(0) }),
        None,
        None,
    ];
    let prepared = stage
        .prepare(
            device,
            &mut encoder,
            &fx::CaptureStage::draw_call(5, 1),
            &[Some((&vertices, 0))],
            None,
            &groups,
            targets,
        )
        .expect("prepare");
    dev.queue.submit([encoder.finish()]);
    let mut want0 = Vec::new();
    let mut want1 = Vec::new();
    for i in [0u32, 1, 2, 1, 3, 2, 2, 3, 4] {
        let v = &strip[i as usize];
        // DATA = (data.xyz, SV_VertexID); SV_Position's y, z, w.
        want0.extend([v.data[0], v.data[1], v.data[2], i]);
        want1.extend(v.position[1..].iter().map(|f| f.to_bits()));
    }
    assert_eq!(common::read_words(&dev, &slot0), want0, "slot 0 (DATA)");
    assert_eq!(common::read_words(&dev, &slot1), want1, "slot 1 (SV_Position.yzw)");
    let (s, _) = state(&dev, stage.stream_output());
    assert_eq!(s.filled_size, [9 * 16, 9 * 12, 0, 0]);
    assert_eq!((s.statistics[0].primitives_written, s.statistics[0].primitives_storage_needed), (3, 3));
    stage.recycle(prepared);
}
