//! Stream output (D3D11.3 §14) through `dxbc_wgsl_gpu::stream_output`: the count, scan and
//! write kernels over geometry-module output written here (per stream region, restart-indexed
//! lists of output vertex slots, as the primitive stage lays them out), read back and compared
//! word for word with a CPU model of D3D's rules: strips decomposed into lists (odd triangles
//! `(k, k+2, k+1)`), incomplete primitives dropped, primitives in invocation order, writing
//! stopped as soon as any one bound buffer of the stream cannot hold the next primitive, filled
//! sizes kept for appending, statistics per stream, DrawAuto from the GPU.

#[path = "../tests/common/mod.rs"]
mod common;

use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_gpu::stream_output::*;

const R: u32 = 0xFFFF_FFFF;
const UNTOUCHED: u32 = 0xDEAD_BEEF;

/// One chunk of geometry output: vertices (`registers` registers each) and lists.
struct ChunkData {
    vertices: Vec<[u32; 4]>,
    indices: Vec<u32>,
    invocations: u32,
}

/// The CPU model of the SO pass: the slots' contents and the state words.
struct Model {
    buffers: [Option<Vec<u32>>; 4],
    state: [u32; SO_STATE_WORDS],
}

/// D3D11.3 §14: a stream's primitives of one invocation's list, in order.
fn decompose(list: &[u32], prim_vertices: u32) -> Vec<Vec<u32>> {
    let mut prims = Vec::new();
    for strip in list.split(|&w| w == R) {
        match prim_vertices {
            1 => prims.extend(strip.iter().map(|&v| vec![v])),
            2 => prims.extend(strip.windows(2).map(|w| w.to_vec())),
            _ => prims.extend(strip.windows(3).enumerate().map(|(k, w)| {
                if k % 2 == 1 {
                    vec![w[0], w[2], w[1]]
                } else {
                    w.to_vec()
                }
            })),
        }
    }
    prims
}

fn add64(state: &mut [u32], at: usize, v: u32) {
    let x = (u64::from(state[at + 1]) << 32 | u64::from(state[at])) + u64::from(v);
    state[at] = x as u32;
    state[at + 1] = (x >> 32) as u32;
}

impl Model {
    fn encode(&mut self, desc: &SoDesc, layout: &SoLayout, chunks: &[ChunkData], starts: [Option<SoStart>; 4]) {
        let pv = layout.prim_vertices;
        for stream in 0..4u32 {
            if desc.streams() & (1 << stream) == 0 {
                continue;
            }
            let slots: Vec<usize> =
                (0..4).filter(|&s| desc.slots_of(stream) & (1 << s) != 0 && self.buffers[s].is_some()).collect();
            for &s in &slots {
                if let Some(SoStart::Offset(o)) = starts[s] {
                    self.state[SO_FILLED + s] = o;
                }
            }
            let region = layout.regions[stream as usize].expect("region");
            for c in chunks {
                let prims: Vec<Vec<u32>> = (0..c.invocations)
                    .flat_map(|t| {
                        let at = ((region * c.invocations + t) * layout.index_stride) as usize;
                        decompose(&c.indices[at..at + layout.index_stride as usize], pv)
                    })
                    .collect();
                let needed = prims.len() as u32;
                // Any one bound buffer that cannot hold the next primitive stops the stream.
                let fit = slots
                    .iter()
                    .map(|&s| {
                        let cap = self.buffers[s].as_ref().map_or(0, |b| b.len() as u32 * 4);
                        cap.saturating_sub(self.state[SO_FILLED + s]) / (desc.strides[s] * pv)
                    })
                    .min()
                    .unwrap_or(u32::MAX);
                // An unbound slot the stream writes is a full buffer (D3D11.3 §14.6).
                let unbound = (0..4).any(|s| desc.slots_of(stream) & (1 << s) != 0 && self.buffers[s].is_none());
                let fit = if unbound { 0 } else { fit };
                let written = needed.min(fit);
                for (k, prim) in prims.iter().take(written as usize).enumerate() {
                    for (v, &slot) in prim.iter().enumerate() {
                        let mut offset = [0u32; 4];
                        for e in &desc.entries {
                            let s = e.slot as usize;
                            let at = offset[s];
                            offset[s] += 4 * e.component_count;
                            if e.stream != stream || !slots.contains(&s) {
                                continue;
                            }
                            let Some(r) = e.register else { continue };
                            let base = self.state[SO_FILLED + s] + (k as u32 * pv + v as u32) * desc.strides[s] + at;
                            let buf = self.buffers[s].as_mut().expect("bound");
                            for i in 0..e.component_count {
                                buf[(base / 4 + i) as usize] = c.vertices[(slot * layout.registers + r) as usize]
                                    [(e.start_component + i) as usize];
                            }
                        }
                    }
                }
                for &s in &slots {
                    self.state[SO_FILLED + s] += written * desc.strides[s] * pv;
                    self.state[SO_DRAW_AUTO + 4 * s] = self.state[SO_FILLED + s] / desc.strides[s];
                    self.state[SO_DRAW_AUTO + 4 * s + 1] = 1;
                }
                let stats = SO_STATISTICS + 8 * stream as usize;
                add64(&mut self.state, stats, written);
                add64(&mut self.state, stats + 2, needed);
                if written < needed {
                    self.state[stats + 4] = 1;
                }
            }
        }
    }
}

/// Runs one SO pass on the GPU and in the model; compares every buffer and the state.
fn step(
    dev: &Device,
    so: &StreamOutput,
    model: &mut Model,
    gpu_buffers: &[Option<wgpu::Buffer>; 4],
    chunks: &[ChunkData],
    starts: [Option<SoStart>; 4],
    what: &str,
) {
    let layout_of = |c: &ChunkData| {
        (
            dev.buffer("vertices", bytemuck::cast_slice(&c.vertices), wgpu::BufferUsages::STORAGE),
            dev.buffer("indices", bytemuck::cast_slice(&c.indices), wgpu::BufferUsages::STORAGE),
        )
    };
    let bufs: Vec<_> = chunks.iter().map(layout_of).collect();
    let so_chunks: Vec<SoChunk<'_>> = chunks
        .iter()
        .zip(&bufs)
        .map(|(c, (v, i))| SoChunk { vertices: v, indices: i, invocations: c.invocations })
        .collect();
    let targets: [Option<SoTarget<'_>>; 4] = std::array::from_fn(|s| {
        gpu_buffers[s].as_ref().map(|b| SoTarget { buffer: b, start: starts[s].unwrap_or(SoStart::Append) })
    });
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    dev.scoped(|device| so.encode(device, &mut encoder, &so_chunks, targets))
        .expect("encode: validation")
        .expect("encode");
    dev.scoped(|_| dev.queue.submit([encoder.finish()])).expect("submit");
    dev.wait().expect("wait");
    model.encode(so.desc(), so.layout(), chunks, starts);
    for (s, (g, m)) in gpu_buffers.iter().zip(&model.buffers).enumerate() {
        if let (Some(g), Some(m)) = (g, m) {
            assert_eq!(&common::read_words(dev, g), m, "{what}: slot {s}");
        }
    }
    assert_eq!(common::read_words(dev, so.state()), model.state.to_vec(), "{what}: state");
}

fn new_so(dev: &Device, desc: &SoDesc, layout: &SoLayout) -> StreamOutput {
    dev.scoped(|device| StreamOutput::new(device, desc, layout)).expect("validation").expect("new")
}

fn target(dev: &Device, words: usize) -> wgpu::Buffer {
    dev.buffer(
        "so target",
        bytemuck::cast_slice(&vec![UNTOUCHED; words]),
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::VERTEX,
    )
}

fn vertex_words(chunk: u32, count: u32, registers: u32) -> Vec<[u32; 4]> {
    (0..count * registers)
        .map(|i| std::array::from_fn(|c| (chunk + 1) << 24 | (i / registers) << 8 | (i % registers) << 2 | c as u32))
        .collect()
}

fn entry(stream: u32, register: Option<u32>, start: u32, count: u32, slot: u32) -> SoEntry {
    SoEntry { stream, register, start_component: start, component_count: count, slot }
}

/// Counts the vertices a DrawAuto of slot `slot` draws: one point per vertex, at
/// `x = vertex_index` of a 64×1 target.
fn draw_auto_vertices(dev: &Device, so: &StreamOutput, slot: u32) -> u32 {
    let wgsl = "@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    return vec4<f32>((f32(i) + 0.5) / 32.0 - 1.0, 0.0, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<u32> { return vec4<u32>(1u); }";
    let module = dev.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("draw auto"),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let pipeline = dev.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("draw auto"),
        layout: None,
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState { topology: wgpu::PrimitiveTopology::PointList, ..Default::default() },
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: wgpu::TextureFormat::Rgba32Uint,
                blend: None,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    });
    let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("draw auto"),
        size: wgpu::Extent3d { width: 64, height: 1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba32Uint,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&Default::default());
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("draw auto"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&pipeline);
        so.draw_auto(&mut pass, slot);
    }
    dev.scoped(|_| dev.queue.submit([encoder.finish()])).expect("submit");
    dev.wait().expect("wait");
    let texels = dev.read_texels(&texture, 4, 0, [0, 0, 64, 1]).expect("read");
    texels.chunks(4).filter(|t| t[0] == 1).count() as u32
}

/// Triangle strips of stream 0 into two slots (a gap, a component subset, offsets): a first
/// pass fills part of the buffers, an appending pass overflows slot 1 in the middle of a strip
/// (slot 0 could hold more: the stream stops), a third appends nothing and counts; DrawAuto
/// draws the filled vertices from the GPU's arguments.
#[test]
fn triangle_strips_overflow_mid_strip_resume_and_draw_auto() {
    let Some(dev) = common::device("triangle_strips_overflow_mid_strip_resume_and_draw_auto") else { return };
    let desc = SoDesc {
        entries: vec![
            entry(0, Some(0), 0, 4, 0),
            entry(0, None, 0, 1, 0),
            entry(0, Some(2), 1, 2, 1),
            entry(0, Some(1), 3, 1, 0),
        ],
        strides: [24, 8, 0, 0],
        rasterized_stream: None,
    };
    let (max, stride) = (5u32, 11u32);
    let layout =
        SoLayout { registers: 3, index_stride: stride, prim_vertices: 3, regions: [Some(0), None, None, None] };
    let lists: [&[u32]; 5] = [&[0, 1, 2, 3, 4], &[5, 6, R, 7, 8, 9], &[10, 11, 12, 13], &[], &[20, 21, 22, R, 23, 24]];
    let chunk = |invocations: u32| {
        let mut indices = vec![R; (invocations * stride) as usize];
        for (t, l) in lists.iter().take(invocations as usize).enumerate() {
            indices[t * stride as usize..t * stride as usize + l.len()].copy_from_slice(l);
        }
        ChunkData { vertices: vertex_words(0, invocations * max, 3), indices, invocations }
    };
    let so = new_so(&dev, &desc, &layout);
    let words = [648 / 4, 128 / 4];
    let gpu = [Some(target(&dev, words[0])), Some(target(&dev, words[1])), None, None];
    let mut model = Model {
        buffers: [Some(vec![UNTOUCHED; words[0]]), Some(vec![UNTOUCHED; words[1]]), None, None],
        state: [0; SO_STATE_WORDS],
    };
    let starts = [Some(SoStart::Offset(24)), Some(SoStart::Offset(8)), None, None];
    step(&dev, &so, &mut model, &gpu, &[chunk(1)], starts, "partial fill");
    assert_eq!(model.state[SO_STATISTICS + 4], 0, "no overflow yet");
    let append = [Some(SoStart::Append), Some(SoStart::Append), None, None];
    step(&dev, &so, &mut model, &gpu, &[chunk(5)], append, "append, overflow mid-strip");
    step(&dev, &so, &mut model, &gpu, &[chunk(5)], append, "append into full buffers");
    // The numbers the model reached, spelled out: 3 + 2 + 0 written of 3 + 7 + 7 needed.
    assert_eq!(&model.state[SO_STATISTICS..SO_STATISTICS + 5], &[5, 0, 17, 0, 1]);
    assert_eq!(&model.state[SO_FILLED..SO_FILLED + 2], &[24 + 5 * 72, 8 + 5 * 24]);
    assert_eq!(&model.state[SO_DRAW_AUTO..SO_DRAW_AUTO + 8], &[16, 1, 0, 0, 16, 1, 0, 0]);
    assert_eq!(draw_auto_vertices(&dev, &so, 0), 16, "DrawAuto of slot 0");
    // A new offset restarts the slot: everything fits again.
    let restart = [Some(SoStart::Offset(0)), Some(SoStart::Offset(0)), None, None];
    step(&dev, &so, &mut model, &gpu, &[chunk(3)], restart, "offset 0 again");
    assert_eq!(draw_auto_vertices(&dev, &so, 1), 15, "DrawAuto of slot 1: it holds 5 of the 6 triangles");
}

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(n)) as u32
    }
}

/// Lists of one chunk: per region and invocation, emits (slot `(region * n + t) * max + k`)
/// and cuts at random.
fn random_chunk(rng: &mut Lcg, chunk: u32, invocations: u32, regions: u32, max: u32, registers: u32) -> ChunkData {
    let stride = 2 * max + 1;
    let mut indices = vec![R; (regions * invocations * stride) as usize];
    for r in 0..regions {
        for t in 0..invocations {
            let base = ((r * invocations + t) * stride) as usize;
            let mut e = 0;
            for k in 0..rng.next(max + 1) {
                indices[base + e] = (r * invocations + t) * max + k;
                e += 1;
                if rng.next(4) == 0 {
                    e += 1;
                }
            }
        }
    }
    ChunkData { vertices: vertex_words(chunk, regions * invocations * max, registers), indices, invocations }
}

/// Points on streams 0 and 2 (regions 0 and 1), in two chunks and three passes: stream 2
/// writes slots 1 and 2, and slot 2's small buffer stops it (slot 1 keeps room); stream 0 goes
/// on into slots 0 and 3.
#[test]
fn point_streams_stop_independently_at_any_full_buffer() {
    let Some(dev) = common::device("point_streams_stop_independently_at_any_full_buffer") else { return };
    let desc = SoDesc {
        entries: vec![
            entry(0, Some(0), 0, 2, 0),
            entry(2, Some(1), 0, 4, 1),
            entry(0, Some(1), 0, 1, 0),
            entry(2, None, 0, 2, 2),
            entry(2, Some(0), 3, 1, 2),
            entry(0, Some(1), 2, 2, 3),
        ],
        strides: [12, 16, 12, 8],
        rasterized_stream: Some(0),
    };
    let (max, registers) = (4u32, 2u32);
    let layout =
        SoLayout { registers, index_stride: 2 * max + 1, prim_vertices: 1, regions: [Some(0), None, Some(1), None] };
    let mut rng = Lcg(15);
    let so = new_so(&dev, &desc, &layout);
    let words = [400usize, 400, 3 * 13, 400];
    let gpu = words.map(|w| Some(target(&dev, w)));
    let mut model = Model { buffers: words.map(|w| Some(vec![UNTOUCHED; w])), state: [0; SO_STATE_WORDS] };
    let mut starts = [Some(SoStart::Offset(0)); 4];
    for pass in 0..3 {
        let chunks = [
            random_chunk(&mut rng, 2 * pass, 7, 2, max, registers),
            random_chunk(&mut rng, 2 * pass + 1, 5, 2, max, registers),
        ];
        step(&dev, &so, &mut model, &gpu, &chunks, starts, &format!("pass {pass}"));
        starts = [Some(SoStart::Append); 4];
    }
    let stats = |s: usize| &model.state[SO_STATISTICS + 8 * s..SO_STATISTICS + 8 * s + 5];
    assert_eq!(stats(2)[0], 13, "stream 2 stops when slot 2 holds 13 points");
    assert!(stats(2)[2] > 13 && stats(2)[4] == 1, "stream 2 overflowed: {:?}", stats(2));
    assert_eq!(stats(0)[0], stats(0)[2], "stream 0 wrote every point");
    assert_eq!(stats(0)[4], 0, "stream 0 did not overflow");
    assert!(model.state[SO_FILLED + 1] < 1600, "slot 1 kept room");
}

/// Line strips with random cuts, one stream into one slot, three chunks per pass: the pairs
/// in invocation order, the last one that fits written whole, then nothing.
#[test]
fn line_strips_decompose_into_pairs_until_the_buffer_is_full() {
    let Some(dev) = common::device("line_strips_decompose_into_pairs_until_the_buffer_is_full") else { return };
    let desc = SoDesc { entries: vec![entry(0, Some(1), 1, 3, 0)], strides: [16, 0, 0, 0], rasterized_stream: Some(0) };
    let (max, registers) = (6u32, 2u32);
    let layout =
        SoLayout { registers, index_stride: 2 * max + 1, prim_vertices: 2, regions: [Some(0), None, None, None] };
    let so = new_so(&dev, &desc, &layout);
    // 75 lines of 32 bytes, and 16 bytes more: the 76th does not fit.
    let words = 75 * 8 + 4;
    let gpu = [Some(target(&dev, words)), None, None, None];
    let mut model = Model { buffers: [Some(vec![UNTOUCHED; words]), None, None, None], state: [0; SO_STATE_WORDS] };
    let mut rng = Lcg(7);
    let mut start = Some(SoStart::Offset(0));
    for pass in 0..3 {
        let chunks: Vec<ChunkData> =
            (0..3).map(|c| random_chunk(&mut rng, 3 * pass + c, 9 + c, 1, max, registers)).collect();
        step(&dev, &so, &mut model, &gpu, &chunks, [start, None, None, None], &format!("pass {pass}"));
        start = Some(SoStart::Append);
    }
    assert_eq!(model.state[SO_STATISTICS], 75, "the buffer holds 75 lines");
    assert_eq!(model.state[SO_STATISTICS + 4], 1, "overflow");
    assert_eq!(model.state[SO_DRAW_AUTO], 150);
}

/// A target buffer larger than one storage binding of the device is refused with
/// `InvalidTargets` (D3D binds any size; the pass binds each target whole): it was a wgpu
/// validation error when the bind group was created, which panics under wgpu's default handler.
#[test]
fn a_target_past_the_binding_limit_is_invalid_targets() {
    let Some(dev) = common::device("a_target_past_the_binding_limit_is_invalid_targets") else { return };
    let desc = SoDesc { entries: vec![entry(0, Some(0), 0, 4, 0)], strides: [16, 0, 0, 0], rasterized_stream: None };
    let layout = SoLayout { registers: 1, index_stride: 3, prim_vertices: 1, regions: [Some(0), None, None, None] };
    let so = new_so(&dev, &desc, &layout);
    let vertices = dev.buffer("vertices", bytemuck::cast_slice(&vertex_words(0, 2, 1)), wgpu::BufferUsages::STORAGE);
    let indices = dev.buffer("indices", bytemuck::cast_slice(&[0u32, 1, R]), wgpu::BufferUsages::STORAGE);
    let chunks = [SoChunk { vertices: &vertices, indices: &indices, invocations: 1 }];
    let limit = dev.device.limits().max_storage_buffer_binding_size;
    let big = dev.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("past one binding"),
        size: limit + 256,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    let targets = [Some(SoTarget { buffer: &big, start: SoStart::Offset(0) }), None, None, None];
    match dev.scoped(|device| so.encode(device, &mut encoder, &chunks, targets)) {
        Ok(Err(StreamOutputError::InvalidTargets(what))) => {
            assert!(what.contains("max_storage_buffer_binding_size"), "{what}")
        }
        other => panic!("a target of {} bytes: {other:?}", limit + 256),
    }
}
