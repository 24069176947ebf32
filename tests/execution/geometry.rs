//! Geometry shaders through the primitive stage (`dxbc_wgsl_gpu::primitive_stage`,
//! `docs/geometry.md`), executed and read back: the output vertices and strips every chunk
//! wrote, and the pixels drawn, against expectations computed here from D3D11.3's rules.

#[path = "../tests/common/mod.rs"]
mod common;

use std::borrow::Cow;

use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_gpu::primitive_stage::{
    DrawCall, FragmentEntry, InputPrimitive, OutputTopology, Prepared, PrimitiveStage, PrimitiveStageDescriptor,
    ShaderEntry, StageDesc, RESTART_INDEX,
};

/// Reads a whole buffer (`COPY_SRC`) back as words.
fn read_words(dev: &Device, buffer: &wgpu::Buffer, words: usize) -> Vec<u32> {
    let size = (words as u64 * 4).max(4);
    let staging = dev.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read-back"),
        size,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
    dev.queue.submit([encoder.finish()]);
    let slice = staging.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = sender.send(r);
    });
    dev.wait().expect("wait");
    receiver.recv().expect("map").expect("map");
    let data = slice.get_mapped_range().expect("mapped range");
    let out = bytemuck::cast_slice::<u8, u32>(&data)[..words].to_vec();
    drop(data);
    staging.unmap();
    out
}

/// What a chunk wrote: per output vertex its registers, and the output strips.
struct ChunkOutput {
    vertices: Vec<Vec<[u32; 4]>>,
    indices: Vec<u32>,
}

fn read_output(dev: &Device, desc: &StageDesc, prepared: &Prepared) -> Vec<ChunkOutput> {
    let regs = desc.output_registers.max(1) as usize;
    prepared
        .chunks()
        .iter()
        .map(|c| {
            let words = read_words(dev, &c.vertices, c.vertex_count as usize * regs * 4);
            let vertices =
                words.chunks(regs * 4).map(|v| v.chunks(4).map(|r| [r[0], r[1], r[2], r[3]]).collect()).collect();
            let indices = c.indices.as_ref().map(|b| read_words(dev, b, c.index_count as usize)).unwrap_or_default();
            ChunkOutput { vertices, indices }
        })
        .collect()
}

/// The primitives a chunk's output draws, as lists of output vertex numbers: the strips cut at
/// the restart index (a point list: every slot whose position is not the culled one).
fn primitives(desc: &StageDesc, out: &ChunkOutput) -> Vec<Vec<usize>> {
    match desc.output {
        Some(OutputTopology::PointList) => out
            .vertices
            .iter()
            .enumerate()
            .filter(|(_, v)| f32::from_bits(v[0][0]) <= 1.0)
            .map(|(i, _)| vec![i])
            .collect(),
        Some(topology) => {
            let n = if topology == OutputTopology::LineStrip { 2 } else { 3 };
            let mut prims = Vec::new();
            for strip in out.indices.split(|&i| i == RESTART_INDEX) {
                for k in 0..strip.len().saturating_sub(n - 1) {
                    let mut p: Vec<usize> = strip[k..k + n].iter().map(|&i| i as usize).collect();
                    // D3D11.3 §8.4.2: odd triangles of a strip swap their last two vertices.
                    if n == 3 && k % 2 == 1 {
                        p.swap(1, 2);
                    }
                    prims.push(p);
                }
            }
            prims
        }
        None => Vec::new(),
    }
}

/// WGSL of the `DrawParams` struct (the assembly kernel's declaration).
fn draw_params_wgsl() -> &'static str {
    let s = dxbc_wgsl::geometry::ASSEMBLY_WGSL;
    let start = s.find("struct DrawParams").expect("struct");
    let end = start + s[start..].find("}\n").expect("end") + 2;
    &s[start..end]
}

/// A render target and the texture it draws into.
struct Target {
    texture: wgpu::Texture,
}

fn target(dev: &Device, size: (u32, u32)) -> Target {
    let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba32Uint,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    Target { texture }
}

/// Prepares and draws once (targets cleared to zero); returns the prepared draw.
fn run(
    dev: &Device,
    stage: &PrimitiveStage,
    draw: &DrawCall,
    vertex_buffers: &[Option<(&wgpu::Buffer, u64)>],
    index_buffer: Option<&wgpu::Buffer>,
    target: &Target,
) -> Prepared {
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    let prepared = dev
        .scoped(|device| stage.prepare(device, &mut encoder, draw, vertex_buffers, index_buffer, None, None))
        .expect("prepare: validation")
        .expect("prepare");
    let view = target.texture.create_view(&Default::default());
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("draw"),
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
        stage.draw(&mut pass, &prepared, None);
    }
    dev.scoped(|_| dev.queue.submit([encoder.finish()])).expect("submit");
    dev.wait().expect("wait");
    prepared
}

fn pixel(dev: &Device, target: &Target, x: u32, y: u32) -> [u32; 4] {
    let t = dev.read_texels(&target.texture, 4, 0, [x, y, x + 1, y + 1]).expect("read");
    [t[0], t[1], t[2], t[3]]
}

mod hand_written {
    //! The runtime alone, over hand-written modules that follow the binding contract: a
    //! vertex module pulling a `float4` position from slot 0 (stride 16) and recording
    //! `(SV_VertexID, SV_InstanceID, position)`, a triangle-list geometry module emitting each
    //! triangle as a strip with `(SV_VertexID of the vertex, instance, primitive)`.

    use super::*;

    fn vertex_wgsl() -> String {
        format!(
            "{}\n@group(3) @binding(0) var<uniform> draw: DrawParams;
@group(3) @binding(1) var<storage, read_write> records: array<vec4<u32>>;
@group(3) @binding(2) var<storage, read> indices: array<u32>;
@group(3) @binding(8) var<storage, read> vb0: array<u32>;
fn index_at(p: u32) -> u32 {{
    let byte = draw.index_offset + (draw.first_vertex + p) * draw.index_size;
    let word = byte / 4u;
    if (word >= arrayLength(&indices)) {{ return 0u; }}
    let w = indices[word];
    if (draw.index_size == 2u) {{ return (w >> ((byte & 2u) * 8u)) & 0xFFFFu; }}
    return w;
}}
fn vb(w: u32) -> u32 {{
    if (w >= arrayLength(&vb0)) {{ return 0u; }}
    return vb0[w];
}}
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) li: u32) {{
    let t = (wg.y * draw.workgroups_x + wg.x) * 64u + li;
    if (t >= draw.invocations) {{ return; }}
    let p = draw.position_begin + t % draw.position_count;
    let instance = draw.instance_begin + t / draw.position_count;
    var vid = draw.first_vertex + p;
    if (draw.index_size != 0u) {{ vid = index_at(p) + draw.base_vertex; }}
    let w = draw.vertex_buffer_offsets[0].x / 4u + vid * 4u;
    records[2u * t] = vec4<u32>(vb(w), vb(w + 1u), vb(w + 2u), vb(w + 3u));
    records[2u * t + 1u] = vec4<u32>(vid, instance, p, 0u);
}}
",
            draw_params_wgsl()
        )
    }

    fn geometry_wgsl() -> String {
        format!(
            "{}\n@group(3) @binding(0) var<uniform> draw: DrawParams;
@group(3) @binding(1) var<storage, read> records: array<vec4<u32>>;
@group(3) @binding(3) var<storage, read_write> out_vertices: array<vec4<u32>>;
@group(3) @binding(4) var<storage, read_write> out_indices: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) li: u32) {{
    let t = (wg.y * draw.workgroups_x + wg.x) * 64u + li;
    if (t >= draw.invocations) {{ return; }}
    let j = draw.primitive_begin + t % draw.primitive_count;
    let inst = t / draw.primitive_count;
    for (var k = 0u; k < 3u; k++) {{
        let r = inst * draw.position_count + (3u * j + k - draw.position_begin);
        out_vertices[(3u * t + k) * 2u] = records[2u * r];
        out_vertices[(3u * t + k) * 2u + 1u] = vec4<u32>(records[2u * r + 1u].x, records[2u * r + 1u].y, j, 1u);
        out_indices[7u * t + k] = 3u * t + k;
    }}
    for (var k = 3u; k < 7u; k++) {{ out_indices[7u * t + k] = 0xFFFFFFFFu; }}
}}
",
            draw_params_wgsl()
        )
    }

    const DRAW_WGSL: &str = "struct Out { @builtin(position) pos: vec4<f32>, @location(1) @interpolate(flat) info: vec4<u32> }
@vertex fn main(@location(0) r0: vec4<u32>, @location(1) r1: vec4<u32>) -> Out { return Out(bitcast<vec4<f32>>(r0), r1); }
@fragment fn fs(@location(1) @interpolate(flat) info: vec4<u32>) -> @location(0) vec4<u32> { return info; }
";

    fn stage(dev: &Device, max_binding_bytes: Option<u64>) -> PrimitiveStage {
        let module = |src: &str| {
            dev.device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: None,
                source: wgpu::ShaderSource::Wgsl(src.to_string().into()),
            })
        };
        let (vs, gs, draw) = (module(&vertex_wgsl()), module(&geometry_wgsl()), module(DRAW_WGSL));
        let targets = [Some(wgpu::ColorTargetState::from(wgpu::TextureFormat::Rgba32Uint))];
        dev.scoped(|device| {
            PrimitiveStage::new(
                device,
                &PrimitiveStageDescriptor {
                    label: Some("hand-written"),
                    stage: StageDesc {
                        input_primitive: InputPrimitive::Triangle,
                        input_registers: 2,
                        output_registers: 2,
                        max_vertices: 3,
                        gs_instances: 1,
                        index_stride: 7,
                        output: Some(OutputTopology::TriangleStrip),
                        vertex_slots: Cow::Borrowed(&[0]),
                    },
                    vertex: ShaderEntry { module: &vs, entry_point: "main" },
                    vertex_layout: None,
                    geometry: ShaderEntry { module: &gs, entry_point: "main" },
                    geometry_layout: None,
                    assembly_wgsl: dxbc_wgsl::geometry::ASSEMBLY_WGSL,
                    draw_vertex: ShaderEntry { module: &draw, entry_point: "main" },
                    fragment: Some(FragmentEntry {
                        shader: ShaderEntry { module: &draw, entry_point: "fs" },
                        targets: &targets,
                        layout: None,
                    }),
                    primitive: Default::default(),
                    depth_stencil: None,
                    multisample: Default::default(),
                    max_binding_bytes,
                },
            )
        })
        .expect("pipelines")
        .expect("stage")
    }

    /// Triangles, each a small one around pixel `(2 + 4 * (i % 8), 2 + 4 * (i / 8))` of a 32×32
    /// target; vertex `v` of the buffer is vertex `v % 3` of triangle `v / 3`.
    fn triangles(n: u32) -> Vec<f32> {
        let mut v = Vec::new();
        for i in 0..n {
            let (cx, cy) = (2.0 + 4.0 * (i % 8) as f32, 2.0 + 4.0 * (i / 8) as f32);
            let ndc = |x: f32, y: f32| [x / 16.0 - 1.0, 1.0 - y / 16.0, 0.5, 1.0];
            v.extend(ndc(cx - 1.5, cy - 1.5));
            v.extend(ndc(cx + 1.5, cy - 1.5));
            v.extend(ndc(cx - 1.5, cy + 1.5));
        }
        v
    }

    #[test]
    fn runtime_drives_contract_modules_over_chunks() {
        let Some(dev) = common::device("runtime_drives_contract_modules_over_chunks") else { return };
        let vb = dev.buffer("vb", bytemuck::cast_slice(&triangles(16)), wgpu::BufferUsages::STORAGE);
        // A 16-byte-aligned offset skipping triangle 0, and a cap of 3 triangles per chunk.
        let offset = 48;
        let draw = DrawCall {
            topology: 4,
            vertex_count: 15,
            instance_count: 2,
            first_vertex: 3,
            base_vertex: 0,
            first_instance: 0,
            index: None,
        };
        for cap in [None, Some(3 * 3 * 32)] {
            let stage = stage(&dev, cap);
            let t = target(&dev, (32, 32));
            let prepared = run(&dev, &stage, &draw, &[Some((&vb, offset))], None, &t);
            let chunks = prepared.chunks().len();
            assert_eq!(chunks, if cap.is_some() { 4 } else { 1 });
            let out = read_output(&dev, stage.desc(), &prepared);
            let mut seen = Vec::new();
            for (c, o) in prepared.chunks().iter().zip(&out) {
                for prim in primitives(stage.desc(), o) {
                    let info: Vec<[u32; 4]> = prim.iter().map(|&v| o.vertices[v][1]).collect();
                    seen.push(info);
                }
                assert_eq!(o.indices.len(), c.index_count as usize);
            }
            // Per instance, triangles 0..5 of the draw: SV_VertexID counts from
            // StartVertexLocation (3), the data from the buffer offset.
            let expected: Vec<Vec<[u32; 4]>> =
                (0..2).flat_map(|i| (0..5).map(move |j| (0..3).map(|k| [3 + 3 * j + k, i, j, 1]).collect())).collect();
            assert_eq!(seen, expected, "cap {cap:?}");
            // Instance 1 drew last; triangle j reads buffer triangle j + 2 (the offset skips one,
            // StartVertexLocation another); its first vertex provokes.
            for j in 0..5u32 {
                let tri = j + 2;
                let (x, y) = (2 + 4 * (tri % 8) - 1, 2 + 4 * (tri / 8) - 1);
                assert_eq!(pixel(&dev, &t, x, y), [3 + 3 * j, 1, j, 1], "triangle {j}, cap {cap:?}");
            }
            assert_eq!(pixel(&dev, &t, 1, 1), [0; 4], "buffer triangle 0 is skipped by the offset");
            assert_eq!(pixel(&dev, &t, 29, 1), [0; 4], "nothing past the draw");
            stage.recycle(prepared);
        }
    }
}
