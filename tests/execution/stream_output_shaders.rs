//! Stream output (D3D11.3 §14) from translated shaders: hand-assembled vertex and geometry
//! shaders (`tests/src/asm.rs`) translated with `TranslateOptions::geometry_streams`, prepared
//! by the primitive stage (`PrimitiveStage::with_streams`), streamed out by
//! `dxbc_wgsl_gpu::stream_output`, and every word of every stream-output buffer and of the state
//! buffer (filled sizes, statistics, DrawAuto arguments) read back after every draw and compared
//! with the CPU model of `tests/src/so_model.rs`; the pixels the rasterized stream draws
//! against the model's points, or against the plain translation's draw of the same shader.
//! Stream output without a geometry shader runs through `dxbc_wgsl::geometry::pass_through_geometry`.

#[path = "../tests/common/mod.rs"]
mod common;

use dxbc_wgsl::geometry::{
    pass_through_geometry, resolve_so_declaration, GeometryInfo, GeometryStreams, InputPrimitive, PulledElement,
    SoDeclaration, SoDeclarationEntry, VertexFormat, VertexPulling,
};
use dxbc_wgsl::{translate, TranslateOptions, Translation, VertexStage};
use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_gpu::primitive_stage::{
    stage_desc, stream_stage, DrawCall, FragmentEntry, Prepared, PrimitiveStage, PrimitiveStageDescriptor, ShaderEntry,
};
use dxbc_wgsl_gpu::stream_output::{
    so_desc, so_layout, SoChunk, SoStart, SoTarget, StreamOutput, SO_DRAW_AUTO, SO_FILLED, SO_STATE_WORDS,
    SO_STATISTICS,
};
use dxbc_wgsl_tests::asm::*;
use dxbc_wgsl_tests::so_fixture::{
    point_streams_gs, ps_blob, strip_gs, vs_blob, MARK, POINT_STREAMS, STRIP_OFFSETS, W,
};
use dxbc_wgsl_tests::so_model::{limit_emits, primitives, Event, SoModel};

const UNTOUCHED: u32 = 0xDEAD_BEEF;
/// The render target's clear value (not 0: a stray vertex of zeros shows).
const CLEAR: [u32; 4] = [1, 2, 3, 4];

/// The pixels of a target nothing was drawn to.
fn cleared() -> Vec<u32> {
    CLEAR.repeat((W * W) as usize)
}

// ---- the shaders' models (the shaders: `dxbc_wgsl_tests::so_fixture`) ----

/// The strip geometry shader's events for input point `prim` (its vertex record `v`).
fn strip_model(v: &[[u32; 4]], prim: u32, cuts: &[u32]) -> Vec<Event> {
    let mut out = Vec::new();
    for (k, [x, y]) in STRIP_OFFSETS.iter().enumerate() {
        let p = v[0];
        let o0 = [(f32::from_bits(p[0]) + x).to_bits(), (f32::from_bits(p[1]) + y).to_bits(), p[2], p[3]];
        out.push(Event::Emit(0, vec![o0, [v[1][0], k as u32, prim, MARK]]));
        if cuts.contains(&(k as u32)) {
            out.push(Event::Cut(0));
        }
    }
    out
}

fn point_streams_model(v: &[[u32; 4]], prim: u32) -> Vec<Event> {
    let mut out = Vec::new();
    let mut cut = false;
    for (k, &s) in POINT_STREAMS.iter().enumerate() {
        let p = v[0];
        let dx = 2.0 / W as f32 * k as f32;
        out.push(Event::Emit(
            s,
            vec![[(f32::from_bits(p[0]) + dx).to_bits(), p[1], p[2], p[3]], [v[1][0], s, k as u32, prim]],
        ));
        if s == 1 && !cut {
            out.push(Event::Cut(1));
            cut = true;
        }
    }
    limit_emits(&out, 6)
}

// ---- inputs ----

/// An input vertex: position and DATA.
#[derive(Clone, Copy)]
struct Vertex {
    pos: [f32; 4],
    data: [u32; 4],
}

/// The centre of pixel `(x, y)` in clip space.
fn pixel_centre(x: u32, y: u32) -> [f32; 4] {
    let half = W as f32 / 2.0;
    [(x as f32 + 0.5) / half - 1.0, 1.0 - (y as f32 + 0.5) / half, 0.5, 1.0]
}

/// The pixel a clip-space point lands in.
fn pixel_of(pos: [u32; 4]) -> (u32, u32) {
    let half = W as f32 / 2.0;
    let x = ((f32::from_bits(pos[0]) + 1.0) * half).floor() as u32;
    let y = ((1.0 - f32::from_bits(pos[1])) * half).floor() as u32;
    (x, y)
}

/// `n` vertices at pixel centres `(1, 2i mod W)`: the point shader's seven emits land in seven
/// pixels of the row.
fn point_vertices(n: u32) -> Vec<Vertex> {
    (0..n).map(|i| Vertex { pos: pixel_centre(1, (2 * i) % W), data: [0x100 + i, 7 * i, 0xA0, i] }).collect()
}

/// `n` vertices at pseudo-random positions in the viewport.
fn random_vertices(n: u32) -> Vec<Vertex> {
    (0..n)
        .map(|i| {
            let h = i.wrapping_mul(0x9E37_79B9).rotate_left(13).wrapping_mul(0x85EB_CA6B);
            let c = |bits: u32| ((bits % 121) as f32 - 60.0) / 80.0;
            Vertex { pos: [c(h), c(h >> 11), 0.25, 1.0], data: [0x200 + i, 3 * i + 1, 0xB0, i] }
        })
        .collect()
}

/// The vertex shader's record of vertex `i` (SV_VertexID `i`).
fn vs_model(v: &Vertex, i: u32) -> Vec<[u32; 4]> {
    vec![v.pos.map(f32::to_bits), [v.data[0], v.data[1], v.data[2], i]]
}

fn vertex_buffer(dev: &Device, vertices: &[Vertex]) -> wgpu::Buffer {
    let mut words = Vec::new();
    for v in vertices {
        words.extend(v.pos.map(f32::to_bits));
        words.extend(v.data);
    }
    dev.buffer("vertices", bytemuck::cast_slice(&words), wgpu::BufferUsages::STORAGE)
}

// ---- the passes ----

/// The geometry stage of a pass: a geometry shader's bytecode, or the implicit pass-through of
/// stream output without one.
#[derive(Clone)]
enum Gs {
    Blob(Vec<u8>),
    PassThrough(InputPrimitive),
}

/// The primitive stage of the vertex shader, `gs` translated with `streams`, and the pixel
/// shader; with `cap`, chunks of at most that many bytes.
struct Pass {
    stage: PrimitiveStage,
    info: GeometryInfo,
    geometry_layout: Option<wgpu::BindGroupLayout>,
}

fn pass(dev: &Device, gs: &Gs, streams: GeometryStreams, cap: Option<u64>) -> Pass {
    let elements = vec![
        PulledElement { register: 0, slot: 0, offset: 0, format: VertexFormat::Float32x4, instance_step_rate: None },
        PulledElement { register: 1, slot: 0, offset: 16, format: VertexFormat::Uint32x4, instance_step_rate: None },
    ];
    pass_with(dev, &vs_blob(), elements, 32, gs, streams, cap, true)
}

/// [`pass`] of vertex shader `vs` pulled by `elements` from slot 0 of `stride` bytes, drawn
/// with the pixel shader when `fragment`; a geometry shader's constant buffers bind as uniforms
/// in group 2 (`Pass::geometry_layout`).
#[allow(clippy::too_many_arguments)]
fn pass_with(
    dev: &Device,
    vs_bytes: &[u8],
    elements: Vec<PulledElement>,
    stride: u32,
    gs: &Gs,
    streams: GeometryStreams,
    cap: Option<u64>,
    fragment: bool,
) -> Pass {
    let (gs_wgsl, info, gs_t) = match gs {
        Gs::Blob(b) => {
            let t = translate(b, &TranslateOptions { geometry_streams: streams, ..Default::default() })
                .unwrap_or_else(|e| panic!("gs: {e}"));
            (t.wgsl.clone(), t.geometry.clone().expect("geometry info"), t)
        }
        Gs::PassThrough(primitive) => {
            // The vertex shader's outputs are the records the pass-through module passes on.
            let vs = translate(vs_bytes, &TranslateOptions::default()).expect("vs");
            let registers = vs.outputs.iter().map(|o| o.register + 1).max().unwrap_or(1);
            let position =
                vs.outputs.iter().find(|o| o.semantic.eq_ignore_ascii_case("SV_Position")).map(|o| o.register);
            let (wgsl, info) = pass_through_geometry(*primitive, registers, position, streams).expect("pass-through");
            let outputs = vs
                .outputs
                .iter()
                .map(|o| dxbc_wgsl::InterfaceVar { location: Some(o.register), ..o.clone() })
                .collect();
            let t = Translation {
                wgsl: wgsl.clone(),
                stage: dxbc_wgsl::ShaderStage::Geometry,
                outputs,
                geometry: Some(info.clone()),
                ..vs
            };
            (wgsl, info, t)
        }
    };
    let pulling = VertexPulling { elements, strides: vec![stride], record_registers: info.input_registers };
    let vs_t =
        translate(vs_bytes, &TranslateOptions { vertex_stage: VertexStage::Compute(pulling), ..Default::default() })
            .expect("vs as compute");
    let ps_t = translate(&ps_blob(), &TranslateOptions { behind_geometry: true, ..Default::default() }).expect("ps");
    let interpolation: Vec<_> = ps_t.inputs.iter().filter_map(|i| Some((i.location?, i.interpolation?))).collect();
    let draw_t = dxbc_wgsl::geometry_draw_vertex_shader(&gs_t, &interpolation).expect("draw vertex shader");
    let module = |wgsl: &str| {
        dev.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(wgsl.to_string().into()),
        })
    };
    let (vs, gsm, ps, draw_vs) = (module(&vs_t.wgsl), module(&gs_wgsl), module(&ps_t.wgsl), module(&draw_t.wgsl));
    let targets = [Some(wgpu::TextureFormat::Rgba32Uint.into())];
    let layout_entries: Vec<wgpu::BindGroupLayoutEntry> = gs_t
        .bindings
        .iter()
        .map(|b| wgpu::BindGroupLayoutEntry {
            binding: b.binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: dxbc_wgsl_gpu::wgpu_map::binding_type(&b.kind),
            count: None,
        })
        .collect();
    let geometry_layout = (!layout_entries.is_empty()).then(|| {
        dev.device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some("gs"), entries: &layout_entries })
    });
    let stage = dev
        .scoped(|device| {
            PrimitiveStage::with_streams(
                device,
                &PrimitiveStageDescriptor {
                    label: Some("stream output"),
                    stage: stage_desc(&info, vec![0]),
                    vertex: ShaderEntry { module: &vs, entry_point: &vs_t.entry_point },
                    vertex_layout: None,
                    geometry: ShaderEntry { module: &gsm, entry_point: "main" },
                    geometry_layout: geometry_layout.as_ref(),
                    draw_vertex: ShaderEntry { module: &draw_vs, entry_point: &draw_t.entry_point },
                    fragment: fragment.then_some(FragmentEntry {
                        shader: ShaderEntry { module: &ps, entry_point: &ps_t.entry_point },
                        targets: &targets,
                        layout: None,
                    }),
                    primitive: Default::default(),
                    depth_stencil: None,
                    multisample: Default::default(),
                    max_binding_bytes: cap,
                },
                stream_stage(&info),
            )
        })
        .expect("pipelines")
        .expect("stage");
    Pass { stage, info, geometry_layout }
}

fn target(dev: &Device) -> wgpu::Texture {
    dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: W, height: W, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba32Uint,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

fn begin<'e>(encoder: &'e mut wgpu::CommandEncoder, view: &'e wgpu::TextureView) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("draw"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color {
                    r: f64::from(CLEAR[0]),
                    g: f64::from(CLEAR[1]),
                    b: f64::from(CLEAR[2]),
                    a: f64::from(CLEAR[3]),
                }),
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

fn draw_call(topology: u32, vertex_count: u32) -> DrawCall {
    DrawCall {
        topology: dxbc_wgsl_gpu::primitive_stage::Topology::from_number(topology).expect("a D3D11 topology"),
        vertex_count,
        instance_count: 1,
        first_vertex: 0,
        base_vertex: 0,
        first_instance: 0,
        index: None,
    }
}

/// One draw: prepare, stream output into `targets` (when `so`), draw; returns the pixels
/// (`W × W` texels of 4 words) and the number of chunks.
fn run(
    dev: &Device,
    p: &Pass,
    call: &DrawCall,
    vb: &wgpu::Buffer,
    so: Option<(&StreamOutput, [Option<SoTarget<'_>>; 4])>,
) -> (Vec<u32>, usize) {
    run_with(dev, p, call, vb, None, false, so)
}

/// [`run`] with the geometry shader's resources (group 2), and a reset of the statistics
/// first (a new query) when `reset`.
fn run_with(
    dev: &Device,
    p: &Pass,
    call: &DrawCall,
    vb: &wgpu::Buffer,
    geometry_group: Option<&wgpu::BindGroup>,
    reset: bool,
    so: Option<(&StreamOutput, [Option<SoTarget<'_>>; 4])>,
) -> (Vec<u32>, usize) {
    let t = target(dev);
    let view = t.create_view(&Default::default());
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    let prepared: Prepared = dev
        .scoped(|device| {
            let prepared = p
                .stage
                .prepare(device, &mut encoder, call, &[Some((vb, 0))], None, None, geometry_group)
                .expect("prepare");
            if let Some((so, targets)) = so {
                if reset {
                    so.reset_statistics(&mut encoder);
                }
                let chunks: Vec<SoChunk<'_>> = prepared
                    .chunks()
                    .iter()
                    .map(|c| SoChunk {
                        vertices: &c.vertices,
                        indices: c.indices.as_ref().expect("stream output keeps index regions"),
                        invocations: c.chunk.geometry_invocations(p.stage.desc()) as u32,
                    })
                    .collect();
                so.encode(device, &mut encoder, &chunks, targets).expect("encode");
            }
            {
                let mut pass = begin(&mut encoder, &view);
                p.stage.draw(&mut pass, &prepared, None);
            }
            dev.queue.submit([encoder.finish()]);
            prepared
        })
        .expect("validation");
    dev.wait().expect("wait");
    let chunks = prepared.chunks().len();
    p.stage.recycle(prepared);
    (dev.read_texels(&t, 4, 0, [0, 0, W, W]).expect("read"), chunks)
}

/// The pixels of the rasterized point stream `stream` of `invocations`' events, drawn in order
/// (the background [`CLEAR`]).
fn point_pixels(invocations: &[Vec<Event>], stream: u32) -> Vec<u32> {
    let mut px = cleared();
    for prim in primitives(invocations, stream, 1) {
        let (x, y) = pixel_of(prim[0][0]);
        if x < W && y < W {
            let at = ((y * W + x) * 4) as usize;
            px[at..at + 4].copy_from_slice(&prim[0][1]);
        }
    }
    px
}

fn so_target(dev: &Device, words: usize) -> wgpu::Buffer {
    dev.buffer(
        "so target",
        bytemuck::cast_slice(&vec![UNTOUCHED; words]),
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::VERTEX,
    )
}

fn entry(stream: u32, name: Option<&str>, start: u32, count: u32, slot: u32) -> SoDeclarationEntry {
    SoDeclarationEntry {
        stream,
        semantic_name: name.map(str::to_string),
        semantic_index: 0,
        start_component: start,
        component_count: count,
        output_slot: slot,
    }
}

/// The declaration resolved against the output signature of `blob` (the geometry shader's, or
/// the vertex shader's).
fn declaration(
    blob: &[u8],
    entries: &[SoDeclarationEntry],
    strides: Option<&[u32]>,
    rasterized: Option<u32>,
) -> SoDeclaration {
    let shader = dxbc_wgsl::Shader::parse(blob, &Default::default()).expect("parse");
    resolve_so_declaration(&shader.outputs.elements, entries, strides, rasterized).expect("declaration")
}

fn new_so(dev: &Device, decl: &SoDeclaration, info: &GeometryInfo) -> StreamOutput {
    let layout = so_layout(info).expect("a stream-output layout");
    dev.scoped(|device| StreamOutput::new(device, &so_desc(decl), &layout)).expect("validation").expect("new")
}

/// Compares every word of every bound buffer and the state with the model.
fn check(dev: &Device, so: &StreamOutput, gpu: &[Option<wgpu::Buffer>; 4], model: &SoModel, what: &str) {
    for (s, (g, m)) in gpu.iter().zip(&model.buffers).enumerate() {
        if let (Some(g), Some(m)) = (g, m) {
            assert_eq!(&common::read_words(dev, g), m, "{what}: slot {s}");
        }
    }
    assert_eq!(
        common::read_words(dev, so.state()),
        model.state_words(SO_FILLED, SO_STATISTICS, SO_DRAW_AUTO, SO_STATE_WORDS),
        "{what}: state (filled sizes 0-3, statistics 4-35, DrawAuto 36-51)"
    );
}

fn targets<'a>(gpu: &'a [Option<wgpu::Buffer>; 4], starts: [Option<SoStart>; 4]) -> [Option<SoTarget<'a>>; 4] {
    std::array::from_fn(|s| match (&gpu[s], starts[s]) {
        (Some(b), Some(start)) => Some(SoTarget { buffer: b, start }),
        _ => None,
    })
}

/// The model's offsets of `starts` (`Append` keeps the filled size).
fn offsets(starts: [Option<SoStart>; 4]) -> [Option<u32>; 4] {
    starts.map(|s| match s {
        Some(SoStart::Offset(o)) => Some(o),
        _ => None,
    })
}

/// The model draw with the slots `starts` leaves unbound taken out of the model's buffers.
fn model_draw(model: &mut SoModel, decl: &SoDeclaration, starts: [Option<SoStart>; 4], events: &[Vec<Event>], pv: u32) {
    let saved: Vec<_> = (0..4).map(|s| if starts[s].is_none() { model.buffers[s].take() } else { None }).collect();
    model.draw(decl, offsets(starts), &|stream| primitives(events, stream, pv));
    for (s, b) in saved.into_iter().enumerate() {
        if b.is_some() {
            model.buffers[s] = b;
        }
    }
}

/// The point draws' events: the vertex shader's records through `gs`.
fn events_of(vertices: &[Vertex], gs: impl Fn(&[[u32; 4]], u32) -> Vec<Event>) -> Vec<Vec<Event>> {
    vertices.iter().enumerate().map(|(i, v)| gs(&vs_model(v, i as u32), i as u32)).collect()
}

/// Triangle strips with cuts (two strips per input point, 1 and 2 triangles) into two slots,
/// the rasterized stream drawn as the plain translation draws it: a first draw fills part of
/// both (offsets 28 and 0), an appending draw overflows slot 1 in the middle of a strip while
/// slot 0 keeps room (nothing more is written to either), a third appends nothing, and new
/// offsets start over; the appending draws in several chunks.
#[test]
fn strips_with_cuts_overflow_mid_strip_and_resume() {
    let Some(dev) = common::device("strips_with_cuts_overflow_mid_strip_and_resume") else { return };
    let cuts = [2];
    let gs = Gs::Blob(strip_gs(7, &cuts));
    let streams = GeometryStreams { rasterized: Some(0), stream_out: 1 };
    let decl = declaration(
        &strip_gs(7, &cuts),
        &[
            entry(0, Some("SV_Position"), 0, 4, 0),
            entry(0, None, 0, 1, 0),
            entry(0, Some("DATA"), 1, 2, 0),
            entry(0, Some("data"), 0, 1, 1),
        ],
        None,
        Some(0),
    );
    assert_eq!(decl.strides, [28, 4, 0, 0]);
    let streamed = pass(&dev, &gs, streams, None);
    let chunked = pass(&dev, &gs, streams, Some(600));
    let plain = pass(&dev, &gs, GeometryStreams::default(), None);
    let so = new_so(&dev, &decl, &streamed.info);
    // Slot 1 holds 8 triangles and 2 words: the ninth triangle is the second of a strip.
    let words = [Some(400), Some(8 * 3 + 2), None, None];
    let gpu = words.map(|w| w.map(|w| so_target(&dev, w)));
    let mut model = SoModel::new(words, UNTOUCHED);
    let steps: [(u32, &Pass, [Option<SoStart>; 4], &str); 4] = [
        (2, &streamed, [Some(SoStart::Offset(28)), Some(SoStart::Offset(0)), None, None], "partial fill"),
        (6, &chunked, [Some(SoStart::Append), Some(SoStart::Append), None, None], "append: slot 1 overflows mid-strip"),
        (3, &chunked, [Some(SoStart::Append), Some(SoStart::Append), None, None], "append into a full slot"),
        (3, &streamed, [Some(SoStart::Offset(0)), Some(SoStart::Offset(0)), None, None], "offsets 0 again"),
    ];
    for (n, p, starts, what) in steps {
        let vertices = random_vertices(n);
        let vb = vertex_buffer(&dev, &vertices);
        let call = draw_call(1, n);
        let (pixels, chunks) = run(&dev, p, &call, &vb, Some((&so, targets(&gpu, starts))));
        let events = events_of(&vertices, |v, i| strip_model(v, i, &cuts));
        model_draw(&mut model, &decl, starts, &events, 3);
        check(&dev, &so, &gpu, &model, what);
        let (plain_pixels, _) = run(&dev, &plain, &call, &vb, None);
        assert_eq!(pixels, plain_pixels, "{what}: the drawn stream is the plain translation's draw");
        assert_ne!(pixels, cleared(), "{what}: something is drawn");
        if std::ptr::eq(p, &chunked) {
            assert!(chunks >= 2, "{what}: {chunks} chunk");
        }
    }
    // 6 + 2 + 0 + 8 triangles written of 6 + 18 + 9 + 9 needed (slot 1 holds 8); slot 0 kept
    // room.
    assert_eq!((model.written[0], model.needed[0], model.overflow[0]), (16, 42, true));
    assert_eq!(model.filled, [8 * 84, 8 * 12, 0, 0]);
}

/// `dcl_maxout` counts the emits of every stream: the strip shader's seventh vertex is dropped
/// at `dcl_maxout 6`, and a cut after it never happens.
#[test]
fn max_out_drops_the_last_vertex_of_a_strip() {
    let Some(dev) = common::device("max_out_drops_the_last_vertex_of_a_strip") else { return };
    let cuts = [2, 6];
    let blob = strip_gs(6, &cuts);
    let decl = declaration(&blob, &[entry(0, Some("DATA"), 0, 4, 0)], None, None);
    let p = pass(&dev, &Gs::Blob(blob), decl.geometry_streams(), None);
    let so = new_so(&dev, &decl, &p.info);
    let words = [Some(200), None, None, None];
    let gpu = words.map(|w| w.map(|w| so_target(&dev, w)));
    let mut model = SoModel::new(words, UNTOUCHED);
    let vertices = random_vertices(4);
    let vb = vertex_buffer(&dev, &vertices);
    let starts = [Some(SoStart::Offset(0)), None, None, None];
    let (pixels, _) = run(&dev, &p, &draw_call(1, 4), &vb, Some((&so, targets(&gpu, starts))));
    let events: Vec<Vec<Event>> = events_of(&vertices, |v, i| limit_emits(&strip_model(v, i, &cuts), 6));
    model_draw(&mut model, &decl, starts, &events, 3);
    check(&dev, &so, &gpu, &model, "dcl_maxout 6");
    assert_eq!(model.written[0], 4 * 2, "a triangle and a strip of two per point");
    assert_eq!(pixels, cleared(), "no rasterized stream: nothing drawn");
}

/// Points on streams 0-3: stream 1 rasterized, 0 and 2 streamed out (2 into two slots, one
/// small), 3 dropped; every emit counts against `dcl_maxout`. A second draw appends with slot 2
/// unbound (stream 2 writes nothing: an unbound slot is a full buffer, its points still
/// counted), stream 0 goes on. DrawAuto of slot 0 draws the points stream 0 wrote. Then stream 2
/// rasterized and streamed out at once.
#[test]
fn point_streams_kept_rasterized_dropped_and_draw_auto() {
    let Some(dev) = common::device("point_streams_kept_rasterized_dropped_and_draw_auto") else { return };
    let blob = point_streams_gs();
    let entries = [
        entry(0, Some("SV_Position"), 0, 4, 0),
        entry(0, Some("DATA"), 0, 4, 0),
        entry(2, Some("DATA"), 1, 3, 1),
        entry(2, None, 0, 1, 1),
        entry(2, Some("SV_POSITION"), 0, 2, 2),
    ];
    for rasterized in [1, 2] {
        let decl = declaration(&blob, &entries, None, Some(rasterized));
        assert_eq!(decl.strides, [32, 16, 8, 0]);
        let streams = decl.geometry_streams();
        assert_eq!(streams, GeometryStreams { rasterized: Some(rasterized), stream_out: 0b101 });
        let p = pass(&dev, &Gs::Blob(blob.clone()), streams, Some(500));
        let so = new_so(&dev, &decl, &p.info);
        // Slot 2 holds 5 points and a word.
        let words = [Some(8 * 40), Some(4 * 40), Some(2 * 5 + 1), None];
        let gpu = words.map(|w| w.map(|w| so_target(&dev, w)));
        let mut model = SoModel::new(words, UNTOUCHED);
        let all = [Some(SoStart::Offset(0)), Some(SoStart::Offset(0)), Some(SoStart::Offset(0)), None];
        let no_slot_2 = [Some(SoStart::Append), Some(SoStart::Append), None, None];
        for (n, starts, what) in [(4u32, all, "first draw"), (3, no_slot_2, "slot 2 unbound")] {
            let what = format!("rasterized {rasterized}: {what}");
            let vertices = point_vertices(n);
            let vb = vertex_buffer(&dev, &vertices);
            let (pixels, chunks) = run(&dev, &p, &draw_call(1, n), &vb, Some((&so, targets(&gpu, starts))));
            let events = events_of(&vertices, point_streams_model);
            model_draw(&mut model, &decl, starts, &events, 1);
            check(&dev, &so, &gpu, &model, &what);
            assert_eq!(pixels, point_pixels(&events, rasterized), "{what}: the pixels of stream {rasterized}");
            assert!(chunks >= 2, "{what}: {chunks} chunk");
        }
        // 4 + 3 input points: stream 0 and stream 2 have a point each (5 fit slot 2).
        assert_eq!((model.written[0], model.needed[0], model.overflow[0]), (7, 7, false));
        assert_eq!((model.written[2], model.needed[2], model.overflow[2]), (4, 7, true));
        assert_eq!((model.written[1], model.written[3]), (0, 0), "streams 1 and 3 are not streamed out");
        if rasterized == 1 {
            draw_auto_pixels(&dev, &so, gpu[0].as_ref().expect("slot 0"), &model);
        }
    }
}

/// DrawAuto of slot 0 (SV_Position and DATA per vertex, 32 bytes): the points the buffer holds,
/// drawn from the GPU's arguments, against the model's buffer.
fn draw_auto_pixels(dev: &Device, so: &StreamOutput, buffer: &wgpu::Buffer, model: &SoModel) {
    let wgsl = "struct Out { @builtin(position) p: vec4<f32>, @location(0) @interpolate(flat) d: vec4<u32> }
@vertex fn vs(@location(0) p: vec4<f32>, @location(1) d: vec4<u32>) -> Out { return Out(p, d); }
@fragment fn fs(@location(0) @interpolate(flat) d: vec4<u32>) -> @location(0) vec4<u32> { return d; }";
    let module = dev.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("draw auto"),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let attributes = [
        wgpu::VertexAttribute { format: wgpu::VertexFormat::Float32x4, offset: 0, shader_location: 0 },
        wgpu::VertexAttribute { format: wgpu::VertexFormat::Uint32x4, offset: 16, shader_location: 1 },
    ];
    let pipeline = dev.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("draw auto"),
        layout: None,
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: 32,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &attributes,
            })],
        },
        primitive: wgpu::PrimitiveState { topology: wgpu::PrimitiveTopology::PointList, ..Default::default() },
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::TextureFormat::Rgba32Uint.into())],
        }),
        multiview_mask: None,
        cache: None,
    });
    let t = target(dev);
    let view = t.create_view(&Default::default());
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    {
        let mut pass = begin(&mut encoder, &view);
        pass.set_pipeline(&pipeline);
        pass.set_vertex_buffer(0, buffer.slice(..));
        so.draw_auto(&mut pass, 0);
    }
    dev.scoped(|_| dev.queue.submit([encoder.finish()])).expect("submit");
    dev.wait().expect("wait");
    let pixels = dev.read_texels(&t, 4, 0, [0, 0, W, W]).expect("read");
    let words = model.buffers[0].as_ref().expect("slot 0");
    let mut expected = cleared();
    let n = model.draw_auto[0].expect("DrawAuto arguments");
    for v in 0..n as usize {
        let w = &words[8 * v..8 * v + 8];
        let (x, y) = pixel_of([w[0], w[1], w[2], w[3]]);
        let at = ((y * W + x) * 4) as usize;
        expected[at..at + 4].copy_from_slice(&w[4..8]);
    }
    assert_eq!(n, 7, "DrawAuto draws the 7 points of slot 0");
    assert_eq!(pixels, expected, "DrawAuto of slot 0");
}

/// Stream output with no rasterized stream: the strips are streamed out, nothing is drawn.
#[test]
fn no_rasterized_stream_streams_out_and_draws_nothing() {
    let Some(dev) = common::device("no_rasterized_stream_streams_out_and_draws_nothing") else { return };
    let cuts = [3];
    let blob = strip_gs(7, &cuts);
    let decl = declaration(
        &blob,
        &[entry(0, Some("DATA"), 1, 3, 0), entry(0, Some("SV_Position"), 3, 1, 0)],
        Some(&[20]),
        None,
    );
    assert_eq!(decl.strides, [20, 0, 0, 0]);
    let p = pass(&dev, &Gs::Blob(blob), decl.geometry_streams(), None);
    let so = new_so(&dev, &decl, &p.info);
    let words = [Some(300), None, None, None];
    let gpu = words.map(|w| w.map(|w| so_target(&dev, w)));
    let mut model = SoModel::new(words, UNTOUCHED);
    let vertices = random_vertices(5);
    let vb = vertex_buffer(&dev, &vertices);
    let starts = [Some(SoStart::Offset(8)), None, None, None];
    let (pixels, _) = run(&dev, &p, &draw_call(1, 5), &vb, Some((&so, targets(&gpu, starts))));
    model_draw(&mut model, &decl, starts, &events_of(&vertices, |v, i| strip_model(v, i, &cuts)), 3);
    check(&dev, &so, &gpu, &model, "no rasterized stream");
    assert_eq!(model.written[0], 5 * 3, "strips of 4 and 3 vertices: 2 + 1 triangles per point");
    assert_eq!(pixels, cleared(), "nothing drawn");
}

/// Stream output without a geometry shader (the vertex shader's bytecode given to
/// `CreateGeometryShaderWithStreamOutput`): the pass-through module emits each primitive's
/// vertices in primitive-assembly order; a triangle list and a triangle strip (odd triangles
/// `(k, k+2, k+1)`), streamed out alone and while drawn (as the plain pass-through draws).
#[test]
fn vertex_shader_stream_output_through_the_pass_through_module() {
    let Some(dev) = common::device("vertex_shader_stream_output_through_the_pass_through_module") else { return };
    let vs = vs_blob();
    let entries = [entry(0, Some("DATA"), 0, 4, 0), entry(0, Some("SV_Position"), 0, 3, 0)];
    let gs = Gs::PassThrough(InputPrimitive::Triangle);
    let plain = pass(&dev, &gs, GeometryStreams::default(), None);
    for rasterized in [None, Some(0)] {
        let decl = declaration(&vs, &entries, None, rasterized);
        let p = pass(&dev, &gs, decl.geometry_streams(), None);
        let so = new_so(&dev, &decl, &p.info);
        let words = [Some(600), None, None, None];
        let gpu = words.map(|w| w.map(|w| so_target(&dev, w)));
        let mut model = SoModel::new(words, UNTOUCHED);
        for (topology, n) in [(4u32, 9u32), (5, 7)] {
            let what = format!("rasterized {rasterized:?}, topology {topology}");
            let vertices = random_vertices(n);
            let records: Vec<_> = vertices.iter().enumerate().map(|(i, v)| vs_model(v, i as u32)).collect();
            let triangles: Vec<[usize; 3]> = match topology {
                4 => (0..n as usize / 3).map(|j| [3 * j, 3 * j + 1, 3 * j + 2]).collect(),
                _ => (0..n as usize - 2)
                    .map(|j| if j % 2 == 1 { [j, j + 2, j + 1] } else { [j, j + 1, j + 2] })
                    .collect(),
            };
            let events: Vec<Vec<Event>> =
                triangles.iter().map(|t| t.iter().map(|&k| Event::Emit(0, records[k].clone())).collect()).collect();
            let vb = vertex_buffer(&dev, &vertices);
            let call = draw_call(topology, n);
            let starts = [Some(SoStart::Append), None, None, None];
            let (pixels, _) = run(&dev, &p, &call, &vb, Some((&so, targets(&gpu, starts))));
            model_draw(&mut model, &decl, starts, &events, 3);
            check(&dev, &so, &gpu, &model, &what);
            if rasterized.is_some() {
                let (plain_pixels, _) = run(&dev, &plain, &call, &vb, None);
                assert_eq!(pixels, plain_pixels, "{what}: drawn as the plain pass-through draws");
                assert_ne!(pixels, cleared(), "{what}: something is drawn");
            } else {
                assert_eq!(pixels, cleared(), "{what}: nothing drawn");
            }
        }
        assert_eq!(model.written[0], 3 + 5);
    }
}

/// Replays of Wine's d3d11 stream-output tests (`dlls/d3d11/tests/d3d11.c`: test_stream_output,
/// test_stream_output_resume, test_stream_output_components and its vertex-shader variant,
/// test_so_statistics_query) with their inputs and expected values, over their shaders read
/// from the shared corpus (`$DXBC_WGSL_CORPUS` or `../shared/corpus`, `wine/d3d11/`; skipped
/// with a message when absent: Wine's blobs are LGPL and not copied here).
/// test_so_statistics_query's four-stream geometry shader is not in the corpus: it is assembled
/// here from its HLSL.
mod wine {
    use super::*;

    fn blob(test: &str, name: &str) -> Option<Vec<u8>> {
        let Some(dir) = dxbc_wgsl_tests::corpus_dir() else {
            eprintln!("SKIPPED {test}: no shared corpus (set DXBC_WGSL_CORPUS)");
            return None;
        };
        let path = dir.join("wine/d3d11").join(format!("{name}.dxbc"));
        match std::fs::read(&path) {
            Ok(b) => Some(b),
            Err(e) => {
                eprintln!("SKIPPED {test}: {}: {e}", path.display());
                None
            }
        }
    }

    fn e(stream: u32, name: Option<&str>, index: u32, start: u32, count: u32, slot: u32) -> SoDeclarationEntry {
        SoDeclarationEntry {
            stream,
            semantic_name: name.map(str::to_string),
            semantic_index: index,
            start_component: start,
            component_count: count,
            output_slot: slot,
        }
    }

    /// test_stream_output: which declarations CreateGeometryShaderWithStreamOutput accepts for
    /// its geometry shader (SV_Position o0, ATTRIB1 o1, attrib2 o2.xyz, ATTriB3 o3.xy, ATTRIB4
    /// o3.z), strides 64.
    #[test]
    fn test_stream_output_declarations() {
        let Some(gs) = blob("test_stream_output_declarations", "test_stream_output__gs_code") else { return };
        let shader = dxbc_wgsl::Shader::parse(&gs, &Default::default()).expect("parse");
        let sig = &shader.outputs.elements;
        let pos = |slot| e(0, Some("SV_Position"), 0, 0, 4, slot);
        let a = |i, start, count, slot| e(0, Some("ATTRIB"), i, start, count, slot);
        let gap = |count, slot| e(0, None, 0, 0, count, slot);
        let strides = [64u32; 4];
        let check = |decl: &[SoDeclarationEntry], counts: &[usize], valid: bool| {
            for &n in counts {
                let given = (n > 0).then(|| &strides[..n]);
                let r = resolve_so_declaration(sig, decl, given, None);
                assert_eq!(r.is_ok(), valid, "{decl:?} with {n} strides: {r:?}");
            }
        };
        let slot0 = [0, 1, 2, 3, 4];
        for decl in [
            vec![pos(0)],
            vec![e(0, Some("sv_position"), 0, 0, 4, 0), e(0, Some("attrib"), 1, 0, 4, 0)],
            vec![e(0, Some("SV_POSITION"), 0, 0, 4, 0), e(0, Some("ATTRIB"), 1, 0, 4, 0)],
            vec![e(0, Some("SV_POSITION"), 0, 0, 4, 0), gap(8, 0), a(1, 0, 4, 0)],
            vec![pos(0), gap(4, 0), gap(4, 0), a(1, 0, 4, 0)],
            vec![pos(0), a(1, 0, 4, 0), a(2, 0, 3, 0), a(3, 0, 2, 0), a(4, 0, 1, 0)],
            vec![pos(0), a(1, 1, 3, 0)],
            vec![pos(0), a(1, 2, 2, 0)],
            vec![pos(0), a(1, 3, 1, 0)],
            vec![pos(0), a(3, 1, 1, 0)],
            vec![a(1, 0, 4, 0), a(2, 0, 3, 0), a(3, 0, 2, 0), gap(1, 0), a(4, 0, 1, 0)],
            vec![a(1, 0, 2, 0), a(1, 2, 2, 0)],
            vec![a(1, 0, 1, 0), a(1, 1, 3, 0)],
        ] {
            check(&decl, &slot0, true);
        }
        for decl in [
            vec![a(1, 0, 4, 1)],
            vec![a(1, 0, 4, 2)],
            vec![a(1, 0, 4, 3)],
            vec![a(1, 0, 4, 0), a(2, 0, 3, 1), gap(1, 1), a(3, 0, 2, 2), gap(2, 2), a(4, 0, 1, 3), gap(7, 3)],
            vec![a(1, 0, 4, 0), a(2, 0, 3, 0), a(3, 0, 2, 3), gap(1, 3), a(4, 0, 1, 3)],
            vec![a(1, 0, 2, 0), a(1, 2, 2, 1)],
        ] {
            let used = decl.iter().map(|x| x.output_slot as usize + 1).max().unwrap_or(1);
            check(&decl, &[0, used], true);
        }
        for decl in [
            vec![pos(0), a(0, 0, 4, 0)],
            vec![pos(0), e(0, Some("ATTRIB_"), 1, 0, 4, 0)],
            vec![pos(0), e(0, None, 0, 1, 8, 0)],
            vec![pos(0), e(0, None, 1, 0, 8, 0)],
            vec![e(0, Some("SV_POSITION"), 0, 0, 4, 0), gap(8, 0), gap(8, 0), a(1, 0, 4, 0)],
            vec![pos(0), a(2, 0, 5, 0)],
            vec![pos(0), a(2, 0, 4, 0)],
            vec![pos(0), a(3, 0, 3, 0)],
            vec![pos(0), a(4, 0, 2, 0)],
            vec![pos(0), a(1, 1, 4, 0)],
            vec![pos(0), a(1, 2, 3, 0)],
            vec![pos(0), a(1, 3, 2, 0)],
            vec![pos(0), a(1, 4, 0, 0)],
            vec![pos(0), a(1, 4, 1, 0)],
            vec![pos(0), a(3, 2, 1, 0)],
            vec![pos(0), a(3, 2, 0, 0)],
            vec![pos(0), a(1, 0, 4, 4)],
            vec![pos(0), a(1, 0, 4, 0), gap(3, 4)],
            vec![a(1, 0, 4, 0), a(2, 0, 3, 0), a(3, 0, 2, 0), gap(1, 0), a(4, 0, 1, 0), gap(3, 3), gap(1, 3)],
            vec![a(1, 0, 4, 0), gap(3, 1), gap(1, 1), gap(1, 2), a(2, 0, 3, 3), gap(1, 3)],
            vec![e(1, Some("attrib"), 1, 0, 4, 0)],
            vec![e(4, Some("attrib"), 1, 0, 4, 0)],
            vec![a(1, 0, 4, 0), a(1, 0, 4, 1)],
            vec![a(1, 0, 4, 0), a(1, 0, 3, 0)],
        ] {
            check(&decl, &[1, 2, 3, 4], false);
        }
        // ATTRIB4 is o3.z: its start component counts from the element's first.
        let r = resolve_so_declaration(sig, &[a(4, 0, 1, 0)], None, None).expect("ATTRIB4");
        assert_eq!((r.entries[0].register, r.entries[0].start_component, r.strides[0]), (Some(3), 2, 4));
        // Strides and the rasterized stream.
        let decl = [pos(0)];
        assert!(resolve_so_declaration(sig, &decl, Some(&[63]), None).is_err(), "{{63}}");
        assert!(resolve_so_declaration(sig, &decl, Some(&[64, 63]), None).is_ok(), "{{64, 63}}: slot 1 unused");
        assert!(resolve_so_declaration(sig, &decl, Some(&[64, 1]), None).is_ok(), "{{64, 1}}");
        assert!(resolve_so_declaration(sig, &decl, Some(&[0, 1]), None).is_err(), "{{0, 1}}");
        for r in 0..4 {
            assert!(resolve_so_declaration(sig, &decl, None, Some(r)).is_ok(), "rasterized {r}");
        }
        assert!(resolve_so_declaration(sig, &decl, None, Some(4)).is_err(), "rasterized 4");
        assert!(resolve_so_declaration(sig, &[], Some(&strides[..1]), None).is_err(), "no entries");
    }

    /// test_stream_output_resume: a triangle-to-points geometry shader writing its constant;
    /// draws into a second buffer, then three draws of the quad (a strip of two triangles) with
    /// three constants append six points each to the first buffer at 0.
    #[test]
    fn test_stream_output_resume() {
        let test = "test_stream_output_resume";
        let (Some(gs), Some(vs)) =
            (blob(test, "test_stream_output_resume__gs_code"), blob(test, "draw_quad_vs___default_vs_code"))
        else {
            return;
        };
        let Some(dev) = common::device(test) else { return };
        let decl = declaration(&gs, &[entry(0, Some("so_output"), 0, 4, 0)], None, None);
        let elements = vec![PulledElement {
            register: 0,
            slot: 0,
            offset: 0,
            format: VertexFormat::Float32x3,
            instance_step_rate: None,
        }];
        let p = pass_with(&dev, &vs, elements, 12, &Gs::Blob(gs), decl.geometry_streams(), None, false);
        let so = new_so(&dev, &decl, &p.info);
        let quad: [f32; 12] = [-1.0, -1.0, 0.0, -1.0, 1.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0];
        let vb = dev.buffer("quad", bytemuck::cast_slice(&quad), wgpu::BufferUsages::STORAGE);
        let cb = dev.buffer("cb0", &[0u8; 16], wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST);
        let group = dev.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gs"),
            layout: p.geometry_layout.as_ref().expect("the constant buffer"),
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: cb.as_entire_binding() }],
        });
        let constants: [[f32; 4]; 3] = [[0.5, 0.25, 0.0, 0.0], [0.0, 0.125, 0.0, 1.0], [1.0, 1.0, 1.0, 0.0]];
        let so_buffer = so_target(&dev, 1024 / 4);
        let so_buffer2 = so_target(&dev, 1024 / 4);
        let call = draw_call(5, 4);
        let draws: [(usize, &wgpu::Buffer, SoStart); 4] = [
            (0, &so_buffer2, SoStart::Offset(0)),
            (0, &so_buffer, SoStart::Offset(0)),
            (1, &so_buffer, SoStart::Append),
            (2, &so_buffer, SoStart::Append),
        ];
        for (c, buffer, start) in draws {
            dev.queue.write_buffer(&cb, 0, bytemuck::cast_slice(&constants[c]));
            let targets = [Some(SoTarget { buffer, start }), None, None, None];
            let (pixels, _) = run_with(&dev, &p, &call, &vb, Some(&group), false, Some((&so, targets)));
            assert_eq!(pixels, cleared(), "no rasterized stream");
        }
        let words = common::read_words(&dev, &so_buffer);
        for (i, c) in constants.iter().enumerate() {
            for j in 0..6 {
                let at = 4 * (i * 6 + j);
                assert_eq!(&words[at..at + 4], &c.map(f32::to_bits), "vec4 {}", i * 6 + j);
            }
        }
        assert!(words[72..].iter().all(|&w| w == UNTOUCHED), "nothing past the 18 points");
        assert_eq!(common::read_words(&dev, &so_buffer2)[..24], constants[0].map(f32::to_bits).repeat(6)[..]);
        assert_eq!(common::read_words(&dev, so.state())[SO_FILLED], 288, "BufferFilledSize");
    }

    /// test_stream_output_components (and test_stream_output_vs over the same vertex shader,
    /// its COLOR2 for COLOR1): declarations of whole elements, single components and component
    /// ranges, over two input layouts, through the geometry shader and without one.
    #[test]
    fn test_stream_output_components() {
        let test = "test_stream_output_components";
        let (Some(gs), Some(vs)) = (
            blob(test, "test_stream_output_components__gs_code"),
            blob(test, "test_stream_output_components__vs_code"),
        ) else {
            return;
        };
        let Some(dev) = common::device(test) else { return };
        let pulled =
            |register, offset, format| PulledElement { register, slot: 0, offset, format, instance_step_rate: None };
        let layout0 = (
            vec![
                pulled(0, 0, VertexFormat::Float32x4),
                pulled(1, 16, VertexFormat::Float32x3),
                pulled(2, 28, VertexFormat::Float32x2),
            ],
            36u32,
        );
        let layout1 = (
            vec![
                pulled(0, 0, VertexFormat::Float32x4),
                pulled(1, 16, VertexFormat::Float32x4),
                pulled(2, 32, VertexFormat::Float32x4),
            ],
            48u32,
        );
        #[rustfmt::skip]
        let vb_data: [f32; 36] = [
            -1.0, -1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.5, 1.0,
            -1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0,
            1.0, -1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.5, 0.4,
            1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.1, 0.6,
        ];
        #[rustfmt::skip]
        let vb_data2: [f32; 48] = [
            -1.0, -1.0, 0.0, 1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0,
            -1.0, 1.0, 0.0, 1.0, 9.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7,
            1.0, -1.0, 0.0, 1.0, 1.8, 1.9, 2.0, 2.1, 2.2, 2.3, 2.4, 2.5,
            1.0, 1.0, 0.0, 1.0, 2.5, 2.6, 2.7, 2.8, 2.9, 3.0, 3.1, 3.2,
        ];
        #[rustfmt::skip]
        let exp2: [f32; 36] = [
            -1.0, -1.0, 0.0, 1.0, 1.0, 2.0, 3.0, 5.0, 6.0,
            -1.0, 1.0, 0.0, 1.0, 9.0, 1.1, 1.2, 1.4, 1.5,
            1.0, -1.0, 0.0, 1.0, 1.8, 1.9, 2.0, 2.2, 2.3,
            1.0, 1.0, 0.0, 1.0, 2.5, 2.6, 2.7, 2.9, 3.0,
        ];
        let exp3: [f32; 12] = [3.0, 4.0, 8.0, 1.2, 1.3, 1.7, 2.0, 2.1, 2.5, 2.7, 2.8, 3.2];
        let decl1 =
            [e(0, Some("POSITION"), 0, 0, 4, 0), e(0, Some("COLOR"), 0, 0, 3, 0), e(0, Some("COLOR"), 2, 0, 2, 0)];
        let mut decl2 = Vec::new();
        for (name, index, n) in [("POSITION", 0, 4), ("COLOR", 0, 3), ("COLOR", 2, 2)] {
            decl2.extend((0..n).map(|c| e(0, Some(name), index, c, 1, 0)));
        }
        let decl3 = [e(0, Some("COLOR"), 0, 2, 2, 0), e(0, Some("COLOR"), 2, 3, 1, 0)];
        let runs: [(&[SoDeclarationEntry], _, &[f32], &[f32]); 5] = [
            (&decl1, &layout0, &vb_data, &vb_data),
            (&decl1, &layout1, &vb_data2, &exp2),
            (&decl2, &layout0, &vb_data, &vb_data),
            (&decl2, &layout1, &vb_data2, &exp2),
            (&decl3, &layout1, &vb_data2, &exp3),
        ];
        for (gs_stage, source) in [(Gs::Blob(gs.clone()), &gs), (Gs::PassThrough(InputPrimitive::Point), &vs)] {
            let so_buffer = so_target(&dev, 1024 / 4);
            for (k, (entries, (elements, stride), data, expected)) in runs.iter().enumerate() {
                let decl = declaration(source, entries, None, None);
                let p =
                    pass_with(&dev, &vs, elements.clone(), *stride, &gs_stage, decl.geometry_streams(), None, false);
                let so = new_so(&dev, &decl, &p.info);
                let vb = dev.buffer("vb", bytemuck::cast_slice(data), wgpu::BufferUsages::STORAGE);
                let targets = [Some(SoTarget { buffer: &so_buffer, start: SoStart::Offset(0) }), None, None, None];
                run(&dev, &p, &draw_call(1, 4), &vb, Some((&so, targets)));
                let words = common::read_words(&dev, &so_buffer);
                let what = if matches!(gs_stage, Gs::Blob(_)) { "geometry shader" } else { "vertex shader only" };
                assert_eq!(
                    &words[..expected.len()],
                    &expected.iter().map(|f| f.to_bits()).collect::<Vec<_>>()[..],
                    "{what}: run {k}"
                );
            }
        }
        // test_stream_output_vs's other declarations: POSITION whole and its xy.
        for (entries, expected) in [
            (
                vec![e(0, Some("POSITION"), 0, 0, 4, 0)],
                vb_data2.chunks(12).flat_map(|v| v[..4].to_vec()).collect::<Vec<f32>>(),
            ),
            (vec![e(0, Some("POSITION"), 0, 0, 2, 0)], vec![-1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 1.0, 1.0]),
        ] {
            let decl = declaration(&vs, &entries, None, None);
            let (elements, stride) = &layout1;
            let p = pass_with(
                &dev,
                &vs,
                elements.clone(),
                *stride,
                &Gs::PassThrough(InputPrimitive::Point),
                decl.geometry_streams(),
                None,
                false,
            );
            let so = new_so(&dev, &decl, &p.info);
            let so_buffer = so_target(&dev, 1024 / 4);
            let vb = dev.buffer("vb", bytemuck::cast_slice(&vb_data2), wgpu::BufferUsages::STORAGE);
            let targets = [Some(SoTarget { buffer: &so_buffer, start: SoStart::Offset(0) }), None, None, None];
            run(&dev, &p, &draw_call(1, 4), &vb, Some((&so, targets)));
            let words = common::read_words(&dev, &so_buffer);
            assert_eq!(&words[..expected.len()], &expected.iter().map(|f| f.to_bits()).collect::<Vec<_>>()[..]);
            assert!(words[expected.len()..].iter().all(|&w| w == UNTOUCHED));
        }
    }

    /// test_so_statistics_query's geometry shader (gs_5_0): points in; on stream `n` the point
    /// again when `SV_PrimitiveID < vertex_count[n]` (cb0[0]); `dcl_maxout 32`.
    fn statistics_gs() -> Vec<u8> {
        let inputs = [Element("custom", 0, 0, 3, 0, "xyzw")];
        let mut outputs = Vec::new();
        let mut decls = vec![vec![DCL_CONSTANT_BUFFER | (4 << 24), 0x0020_8e46, 0, 1], dcl_input_primitive(1)];
        for s in 0..4 {
            outputs.push((s, Element("custom", 0, 0, 3, 0, "xyzw")));
            decls.push(with_stream(DCL_STREAM, s));
            decls.push(dcl_output_topology(1));
            decls.push(dcl_output(0, "xyzw", 0));
        }
        decls.extend([dcl_max_output(32), dcl_gs_input(1, 0, "xyzw", 0), dcl_gs_system_input(INPUT_PRIMITIVE_ID)]);
        let mut body = Vec::new();
        for (s, c) in ["xxxx", "yyyy", "zzzz", "wwww"].iter().enumerate() {
            body.push(ins(ULT, &[dst(TEMP, 0, "x"), scalar_input(INPUT_PRIMITIVE_ID), cb(0, 0, c)]));
            body.push(nz(ins(IF, &[src(TEMP, 0, "xxxx")])));
            body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src_vertex(0, 0, "xyzw")]));
            body.push(with_stream(EMIT_STREAM, s as u32));
            body.push(ins(ENDIF, &[]));
        }
        shader_streams(GS_5_0, &inputs, &outputs, &decls, 1, &body)
    }

    /// test_so_statistics_query, part B: four streams into four slots of 10 points; the
    /// statistics of stream 0 (D3D11_QUERY_SO_STATISTICS) per query: nothing bound (0 written of
    /// 5: an unbound slot is full), then 5 of 5, 3 of 3, 10 of 16 (the buffer full).
    #[test]
    fn test_so_statistics_query() {
        let test = "test_so_statistics_query";
        let Some(vs) = blob(test, "test_so_statistics_query__vs_code") else { return };
        let Some(dev) = common::device(test) else { return };
        let gs = statistics_gs();
        let entries: Vec<_> = (0..4).map(|s| e(s, Some("custom"), 0, 0, 4, s)).collect();
        let decl = declaration(&gs, &entries, None, None);
        assert_eq!(decl.strides, [16; 4]);
        let p = pass_with(&dev, &vs, Vec::new(), 16, &Gs::Blob(gs), decl.geometry_streams(), None, false);
        let so = new_so(&dev, &decl, &p.info);
        let cb = dev.buffer("cb0", &[0u8; 16], wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST);
        let group = dev.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gs"),
            layout: p.geometry_layout.as_ref().expect("the constant buffer"),
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: cb.as_entire_binding() }],
        });
        let vb = dev.buffer("unused", &[0u8; 16], wgpu::BufferUsages::STORAGE);
        let buffers: Vec<wgpu::Buffer> = (0..4).map(|_| so_target(&dev, 160 / 4)).collect();
        let rows: [([u32; 4], bool, u32, u64, u64); 4] = [
            ([5, 5, 5, 5], false, 5, 0, 5),
            ([5, 5, 5, 5], true, 16, 5, 5),
            ([3, 6, 4, 12], true, 32, 3, 3),
            ([16, 6, 4, 12], true, 32, 10, 16),
        ];
        for (counts, bound, n, written, needed) in rows {
            dev.queue.write_buffer(&cb, 0, bytemuck::cast_slice(&counts));
            let targets: [Option<SoTarget<'_>>; 4] =
                std::array::from_fn(|s| bound.then(|| SoTarget { buffer: &buffers[s], start: SoStart::Offset(0) }));
            run_with(&dev, &p, &draw_call(1, n), &vb, Some(&group), true, Some((&so, targets)));
            let state = common::read_words(&dev, so.state());
            for s in 0..4 {
                let need = u64::from(counts[s].min(n));
                let wrote = if bound { need.min(10) } else { 0 };
                let at = SO_STATISTICS + 8 * s;
                let stats = [wrote as u32, 0, need as u32, 0, u32::from(wrote < need)];
                assert_eq!(&state[at..at + 5], &stats, "{counts:?}, draw {n}: stream {s}");
            }
            let at = SO_STATISTICS;
            assert_eq!(
                (u64::from(state[at]), u64::from(state[at + 2])),
                (written, needed),
                "{counts:?}: Wine's values"
            );
            // The points are the vertex IDs, as floats.
            if bound {
                let words = common::read_words(&dev, &buffers[0]);
                for v in 0..written as usize {
                    assert_eq!(&words[4 * v..4 * v + 4], &[(v as f32).to_bits(); 4], "{counts:?}: point {v}");
                }
            }
        }
    }
}
