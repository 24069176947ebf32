//! A pass with a geometry shader through its generated module (`tests/effects/geometry.effect.toml`,
//! whose shaders `dxbc_wgsl_tests::geometry_fixture` assembles): points with a per-instance
//! offset expanded into quads by the geometry shader (its half size from its constant buffer),
//! drawn with the colour of their point: `MainStage::new`, `bind_groups`, `prepare` before the
//! render pass and `draw` in it, compared pixel by pixel with the quads computed here.
//!
//! Needs a GPU adapter (CI installs lavapipe); `DXBC_WGSL_SKIP_GPU=1` skips explicitly.

use std::path::Path;

use dxbc_wgsl_tests::gpu::gpu_or_skip;
use wgpu::util::DeviceExt;

dxbc_wgsl_macros::include_effect!("effects/geometry.effect.toml");

use geometry_expand as fx;

/// The blobs in `tests/fixtures/geometry/` are what the assembler makes today (`UPDATE_GOLDEN=1`
/// rewrites them), and each translates in its role.
#[test]
fn fixture_blobs_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/geometry");
    for (name, bytes) in dxbc_wgsl_tests::geometry_fixture::blobs() {
        let path = dir.join(name);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &bytes).unwrap();
        }
        let kept = std::fs::read(&path).unwrap_or_default();
        assert!(kept == bytes, "{} differs from the assembler's (UPDATE_GOLDEN=1 rewrites it)", path.display());
        dxbc_wgsl::translate(&bytes, &Default::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// Target size.
const SIZE: (u32, u32) = (32, 32);

/// One point: position (float32x2), colour (unorm8x4).
fn vertex(x: f32, y: f32, rgba: [u8; 4]) -> fx::VertexPositionColor {
    fx::VertexPositionColor { position: [x, y], color: rgba }
}

#[test]
fn points_become_quads_of_their_colour() {
    let Some(gpu) = gpu_or_skip("points_become_quads_of_their_colour") else { return };
    let device = &gpu.device;
    // The device the test helper made has WebGPU's default limits; the pass needs no more.
    let needed = fx::MainStage::required_limits(wgpu::Limits::default());
    assert_eq!(needed, wgpu::Limits::default(), "the pass fits WebGPU's default limits");

    let format = wgpu::TextureFormat::Rgba8Unorm;
    let stage = fx::MainStage::new(device, fx::Permutation::default(), &[format], None).expect("stage");
    // Half size 0.25 (a quarter of the target's width per quad).
    let half = fx::Parameters { half_size: [0.25, 0.25], ..Default::default() };
    let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("Parameters"),
        contents: bytemuck::bytes_of(&half),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let groups = stage.bind_groups(device, &fx::GeometryResources { parameters: &params }).expect("groups");
    // Two points, two instances: instance 1 moves both by (0.5, 0) in clip space.
    let points = [vertex(-0.5, 0.5, [255, 0, 0, 255]), vertex(-0.5, -0.5, [0, 255, 0, 255])];
    let offsets = [fx::InstanceTexcoord { texcoord: [0.0, 0.0] }, fx::InstanceTexcoord { texcoord: [1.0, 0.0] }];
    let storage = |label, bytes: &[u8]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytes,
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let vertices = storage("points", bytemuck::cast_slice(&points));
    let instances = storage("offsets", bytemuck::cast_slice(&offsets));
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: SIZE.0, height: SIZE.1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&Default::default());
    let mut encoder = device.create_command_encoder(&Default::default());
    let draw = fx::MainStage::draw_call(2, 2);
    let prepared = stage
        .prepare(device, &mut encoder, &draw, &[Some((&vertices, 0)), Some((&instances, 0))], None, &groups)
        .expect("prepare");
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("draw"),
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
        stage.draw(&mut pass, &prepared, &groups);
    }
    let rgba = dxbc_wgsl_tests::gpu::read_rgba8(&gpu, encoder, &texture, SIZE.0, SIZE.1);
    stage.recycle(prepared);

    // The CPU's picture: each point's quad (instance 1 shifted right by half the target).
    let quads: Vec<([f32; 2], [u8; 4])> = (0..2)
        .flat_map(|i| points.iter().map(move |p| ([p.position[0] + offsets[i].texcoord[0], p.position[1]], p.color)))
        .collect();
    let mut wrong = Vec::new();
    for y in 0..SIZE.1 {
        for x in 0..SIZE.0 {
            // The pixel centre in clip space (y up).
            let cx = (x as f32 + 0.5) / SIZE.0 as f32 * 2.0 - 1.0;
            let cy = 1.0 - (y as f32 + 0.5) / SIZE.1 as f32 * 2.0;
            let inside = |c: &[f32; 2]| (cx - c[0]).abs() < 0.25 && (cy - c[1]).abs() < 0.25;
            let expected = quads.iter().find(|(c, _)| inside(c)).map_or([0, 0, 0, 255], |(_, rgba)| *rgba);
            let at = ((y * SIZE.0 + x) * 4) as usize;
            let actual = [rgba[at], rgba[at + 1], rgba[at + 2], rgba[at + 3]];
            if actual != expected {
                wrong.push((x, y, expected, actual));
            }
        }
    }
    assert!(wrong.is_empty(), "{} pixels differ, the first: {:?}", wrong.len(), &wrong[..wrong.len().min(8)]);
}

/// Vertex and index buffers made for a D3D-style draw (`VERTEX`/`INDEX` usage, no `STORAGE`) are
/// `prepare`'s error naming the buffer, not a wgpu validation panic inside it.
#[test]
fn buffers_without_storage_usage_are_prepare_errors() {
    let Some(gpu) = gpu_or_skip("buffers_without_storage_usage_are_prepare_errors") else { return };
    let device = &gpu.device;
    let stage = fx::MainStage::new(device, fx::Permutation::default(), &[wgpu::TextureFormat::Rgba8Unorm], None)
        .expect("stage");
    let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("Parameters"),
        contents: bytemuck::bytes_of(&fx::Parameters::default()),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let groups = stage.bind_groups(device, &fx::GeometryResources { parameters: &params }).expect("groups");
    let buffer = |usage| {
        device.create_buffer(&wgpu::BufferDescriptor { label: None, size: 64, usage, mapped_at_creation: false })
    };
    let (storage, vertex, index) =
        (buffer(wgpu::BufferUsages::STORAGE), buffer(wgpu::BufferUsages::VERTEX), buffer(wgpu::BufferUsages::INDEX));
    let prepare = |slots: &[Option<(&wgpu::Buffer, u64)>], draw: &fx::primitive_stage::DrawCall, indices| {
        let mut encoder = device.create_command_encoder(&Default::default());
        stage.prepare(device, &mut encoder, draw, slots, indices, &groups).map(drop).map_err(|e| e.to_string())
    };
    let draw = fx::MainStage::draw_call(2, 1);
    let indexed = fx::primitive_stage::DrawCall { index: Some((wgpu::IndexFormat::Uint16, 0)), ..draw };
    for (slots, draw, indices, what) in [
        ([Some((&vertex, 0)), Some((&storage, 0))], &draw, None, "vertex buffer slot 0"),
        ([Some((&storage, 0)), Some((&vertex, 0))], &draw, None, "vertex buffer slot 1"),
        ([Some((&storage, 0)), Some((&storage, 0))], &indexed, Some(&index), "the index buffer"),
    ] {
        let error = prepare(&slots, draw, indices).expect_err(what);
        assert!(error.starts_with(&format!("{what} lacks BufferUsages::STORAGE")), "{error}");
    }
    // The index buffer of a non-indexed draw is not read, and null slots read zeros.
    assert_eq!(prepare(&[Some((&storage, 0)), None], &draw, Some(&index)), Ok(()));
}

/// Two effects with geometry passes share the runtime's types: the draws of this file's effect and
/// of example-engine's point sprites (`example-engine/effects/point_sprite.effect.toml`, generated
/// in another crate) go through one `DrawCall` type and one helper over `PrimitiveStage`, and the
/// runtime plans each against its own stage (7 points: the geometry pass expands each point once
/// per instance of 2, the point sprites once).
#[test]
fn two_effects_share_one_draw_call_type() {
    use dxbc_wgsl_runtime::primitive_stage::{plan_chunks, DrawCall, PrimitiveStage, PrimitiveStageError, Topology};
    use example_engine::effects::point_sprite_effect as sprites;
    if gpu_or_skip("two_effects_share_one_draw_call_type").is_none() {
        return;
    }
    // example-engine's device: its limits are raised to what the point-sprite pass needs.
    let gpu = example_engine::gpu::Gpu::new().expect("device");
    let device = &gpu.device;
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let geometry = fx::MainStage::new(device, fx::Permutation::default(), &[format], None).expect("geometry stage");
    let points = sprites::MainStage::new(device, sprites::Permutation::default(), &[format], None).expect("sprites");
    /// One helper for every effect's draws.
    fn invocations(stage: &PrimitiveStage, draw: &DrawCall) -> Result<u64, PrimitiveStageError> {
        let chunks = plan_chunks(stage.desc(), draw, 1 << 20)?;
        Ok(chunks.iter().map(|c| u64::from(c.instance_count) * u64::from(c.primitive_count)).sum())
    }
    let draws: [(&PrimitiveStage, DrawCall); 2] = [
        (geometry.primitive_stage(), fx::MainStage::draw_call(7, 2)),
        (points.primitive_stage(), sprites::MainStage::draw_call(7, 1)),
    ];
    let counts: Vec<u64> = draws.iter().map(|(stage, draw)| invocations(stage, draw).expect("plan")).collect();
    assert_eq!(counts, [14, 7]);
    // A draw of another primitive is refused by the same runtime, with the same error type.
    let lines = DrawCall { topology: Topology::LineList, ..draws[1].1 };
    assert!(matches!(invocations(draws[1].0, &lines), Err(PrimitiveStageError::TopologyMismatch { .. })));
}
