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
            topology: dxbc_wgsl_gpu::primitive_stage::Topology::TriangleList,
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

mod translated {
    //! Hand-assembled vertex, geometry and pixel shaders translated by the library and run
    //! through the runtime, against a CPU model of D3D11.3's input assembler (§8), geometry
    //! shader stage (§13) and rasterizer order.
    //!
    //! - The vertex shader passes its position (`v0`, slot 0) on and records
    //!   `(SV_VertexID, SV_InstanceID, v1.x, v1.y)` (`v1` from slot 1, per vertex or per
    //!   instance).
    //! - The geometry shader (`Gs`) emits every input vertex `k` in order with
    //!   `o1 = v[k][1]`, `o2 = (vPrim, vGSInstanceID, k, MARK)` and SV_PrimitiveID
    //!   `o3.x = 16 vPrim + k`, cutting where asked; an instanced one moves instance `g` right
    //!   by `g / 4`.
    //! - The pixel shader writes `o1` (flat) to target 0 and
    //!   `(vPrim, vGSInstanceID, SV_PrimitiveID, k)` of the provoking vertex to target 1.
    //!
    //! Each scenario reads back every chunk's output vertices and strips, compares them with the
    //! model's output stream, and compares every pixel the model decides (no edge within a
    //! margin of its centre) with the model's image: draw order, culling of back faces
    //! (clockwise is front, as D3D's default), the provoking vertex. Each runs once in one chunk
    //! and once split into chunks by a small cap.

    use super::*;
    use dxbc_wgsl::geometry::{PulledElement, VertexFormat, VertexPulling};
    use dxbc_wgsl::{translate, TranslateOptions, VertexStage};
    use dxbc_wgsl_gpu::primitive_stage::{plan_chunks, stage_desc};
    use dxbc_wgsl_tests::asm::*;

    const MARK: u32 = 0x00C0_FFEE;
    const SIZE: u32 = 48;

    /// The echo geometry shader.
    #[derive(Clone, Debug)]
    pub(crate) struct Gs {
        /// `dcl_inputprimitive` code (1 point, 2 line, 3 triangle, 6 lineadj, 7 triangleadj,
        /// 7 + n patchN).
        pub(crate) primitive: u32,
        /// Vertices per input primitive.
        pub(crate) vertices: u32,
        pub(crate) output: OutputTopology,
        pub(crate) max_vertices: u32,
        /// `dcl_gsinstances` (gs_5_0 when over 1).
        pub(crate) instances: u32,
        /// Cut after emitting vertex `k`.
        pub(crate) cut_after: &'static [u32],
        /// Cut with `emit_then_cut` instead of `emit` + `cut`.
        pub(crate) emit_then_cut: bool,
    }

    impl Gs {
        pub(crate) fn echo(primitive: u32, vertices: u32, output: OutputTopology) -> Gs {
            Gs {
                primitive,
                vertices,
                output,
                max_vertices: vertices,
                instances: 1,
                cut_after: &[],
                emit_then_cut: false,
            }
        }

        fn blob(&self) -> Vec<u8> {
            let n = self.vertices;
            let sm5 = self.instances > 1;
            let topology = match self.output {
                OutputTopology::PointList => 1,
                OutputTopology::LineStrip => 3,
                OutputTopology::TriangleStrip => 5,
            };
            let mut decls = vec![
                dcl_input_primitive(self.primitive),
                dcl_output_topology(topology),
                dcl_max_output(self.max_vertices),
            ];
            if sm5 {
                decls.push(dcl_gs_instances(self.instances));
            }
            decls.extend([
                dcl_gs_input(n, 0, "xyzw", NAME_POSITION),
                dcl_gs_input(n, 1, "xyzw", 0),
                dcl_gs_system_input(INPUT_PRIMITIVE_ID),
            ]);
            if sm5 {
                decls.push(dcl_gs_system_input(INPUT_GS_INSTANCE_ID));
            }
            decls.extend([
                dcl_output(0, "xyzw", NAME_POSITION),
                dcl_output(1, "xyzw", 0),
                dcl_output(2, "xyzw", 0),
                dcl_output(3, "x", NAME_PRIMITIVE_ID),
            ]);
            let mut body = Vec::new();
            for k in 0..n {
                body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src_vertex(k, 0, "xyzw")]));
                if sm5 {
                    body.push(ins(UTOF, &[dst(TEMP, 0, "x"), scalar_input(INPUT_GS_INSTANCE_ID)]));
                    body.push(ins(
                        MAD,
                        &[
                            dst(OUTPUT, 0, "x"),
                            src(TEMP, 0, "xxxx"),
                            imm([0.25f32.to_bits(); 4]),
                            src_vertex(k, 0, "xxxx"),
                        ],
                    ));
                }
                body.push(ins(MOV, &[dst(OUTPUT, 1, "xyzw"), src_vertex(k, 1, "xyzw")]));
                body.push(ins(MOV, &[dst(OUTPUT, 2, "x"), scalar_input(INPUT_PRIMITIVE_ID)]));
                if sm5 {
                    body.push(ins(MOV, &[dst(OUTPUT, 2, "y"), scalar_input(INPUT_GS_INSTANCE_ID)]));
                } else {
                    body.push(ins(MOV, &[dst(OUTPUT, 2, "y"), imm([0; 4])]));
                }
                body.push(ins(MOV, &[dst(OUTPUT, 2, "zw"), imm([0, 0, k, MARK])]));
                body.push(ins(
                    IMAD,
                    &[dst(OUTPUT, 3, "x"), scalar_input(INPUT_PRIMITIVE_ID), imm([16; 4]), imm([k; 4])],
                ));
                let cut = self.cut_after.contains(&k);
                if cut && self.emit_then_cut {
                    body.push(bare(EMITTHENCUT));
                } else {
                    body.push(bare(EMIT));
                    if cut {
                        body.push(bare(CUT));
                    }
                }
            }
            let inputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element("INFO", 0, 0, 1, 1, "xyzw")];
            let outputs = [
                Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"),
                Element("INFO", 0, 0, 1, 1, "xyzw"),
                Element("MORE", 0, 0, 1, 2, "xyzw"),
                Element("SV_PrimitiveID", 0, NAME_PRIMITIVE_ID, 1, 3, "x"),
            ];
            shader(if sm5 { GS_5_0 } else { GS_4_0 }, &inputs, &outputs, &decls, u32::from(sm5), &body)
        }
    }

    fn vs_blob() -> Vec<u8> {
        let decls = [
            dcl_vs_input(0, "xyzw", 0),
            dcl_vs_input(1, "xy", 0),
            dcl_vs_input(2, "x", NAME_VERTEX_ID),
            dcl_vs_input(3, "x", NAME_INSTANCE_ID),
            dcl_output(0, "xyzw", NAME_POSITION),
            dcl_output(1, "xyzw", 0),
        ];
        let body = [
            ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 0, "xyzw")]),
            ins(MOV, &[dst(OUTPUT, 1, "x"), src(INPUT, 2, "xxxx")]),
            ins(MOV, &[dst(OUTPUT, 1, "y"), src(INPUT, 3, "xxxx")]),
            ins(MOV, &[dst(OUTPUT, 1, "zw"), src(INPUT, 1, "xxxy")]),
        ];
        let inputs = [
            Element("POSITION", 0, 0, 3, 0, "xyzw"),
            Element("INST", 0, 0, 1, 1, "xy"),
            Element("SV_VertexID", 0, NAME_VERTEX_ID, 1, 2, "x"),
            Element("SV_InstanceID", 0, NAME_INSTANCE_ID, 1, 3, "x"),
        ];
        let outputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"), Element("INFO", 0, 0, 1, 1, "xyzw")];
        shader(VS_4_0, &inputs, &outputs, &decls, 0, &body)
    }

    fn ps_blob() -> Vec<u8> {
        let decls = [
            dcl_input_ps_flat(1, "xyzw"),
            dcl_input_ps_flat(2, "xyz"),
            dcl_input_ps_sgv(3, "x", NAME_PRIMITIVE_ID),
            dcl_output(0, "xyzw", 0),
            dcl_output(1, "xyzw", 0),
        ];
        let body = [
            ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 1, "xyzw")]),
            ins(MOV, &[dst(OUTPUT, 1, "xyw"), src(INPUT, 2, "xyxz")]),
            ins(MOV, &[dst(OUTPUT, 1, "z"), src(INPUT, 3, "xxxx")]),
        ];
        let inputs = [
            Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw"),
            Element("INFO", 0, 0, 1, 1, "xyzw"),
            Element("MORE", 0, 0, 1, 2, "xyz"),
            Element("SV_PrimitiveID", 0, NAME_PRIMITIVE_ID, 1, 3, "x"),
        ];
        let outputs = [Element("SV_Target", 0, 0, 1, 0, "xyzw"), Element("SV_Target", 1, 0, 1, 1, "xyzw")];
        shader(PS_4_0, &inputs, &outputs, &decls, 0, &body)
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) enum Layout {
        /// Pseudo-random positions in the viewport: triangles overlap, half of them face away.
        Random,
        /// Every vertex at a pixel centre (for points).
        PixelCenters,
    }

    /// One draw through an echo geometry shader.
    #[derive(Clone, Debug)]
    pub(crate) struct Scenario {
        pub(crate) name: &'static str,
        pub(crate) gs: Gs,
        pub(crate) topology: u32,
        pub(crate) vertex_count: u32,
        pub(crate) instance_count: u32,
        pub(crate) first_vertex: u32,
        pub(crate) base_vertex: i32,
        pub(crate) first_instance: u32,
        /// The index buffer's values (the restart value as the format's), its format, and the
        /// byte offset of the binding (`IASetIndexBuffer`); the values start there.
        pub(crate) indices: Option<(wgpu::IndexFormat, Vec<u32>, u64)>,
        /// Slot 1 per instance with this step rate; `None`: per vertex.
        pub(crate) step_rate: Option<u32>,
        pub(crate) layout: Layout,
    }

    impl Scenario {
        pub(crate) fn new(name: &'static str, gs: Gs, topology: u32, vertex_count: u32) -> Scenario {
            Scenario {
                name,
                gs,
                topology,
                vertex_count,
                instance_count: 1,
                first_vertex: 0,
                base_vertex: 0,
                first_instance: 0,
                indices: None,
                step_rate: None,
                layout: Layout::Random,
            }
        }
    }

    /// A vertex shader's output in the model.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct VsOut {
        pos: [u32; 4],
        info: [u32; 4],
    }

    /// An output vertex: `o0`, `o1`, `o2` and `o3.x`.
    type OutV = [u32; 13];

    fn position(layout: Layout, vid: u32) -> [f32; 4] {
        match layout {
            Layout::Random => {
                let h = vid.wrapping_mul(0x9E37_79B9).rotate_left(13).wrapping_mul(0x85EB_CA6B);
                let c = |bits: u32| ((bits % 121) as f32 - 60.0) / 64.0;
                [c(h), c(h >> 11), 0.5, 1.0]
            }
            Layout::PixelCenters => {
                let (px, py) = ((vid * 7 + 3) % SIZE, (vid * 11 + 5) % SIZE);
                let half = SIZE as f32 / 2.0;
                [(px as f32 + 0.5) / half - 1.0, 1.0 - (py as f32 + 0.5) / half, 0.5, 1.0]
            }
        }
    }

    /// Element `e` of slot 1.
    fn instance_data(e: u32) -> [u32; 2] {
        [1000 + e, 2000 + e]
    }

    /// D3D11.3 §8: the vertex shader's outputs per input position of instance `iid` (`None` at
    /// a strip's restart index).
    fn vertices(s: &Scenario, iid: u32) -> Vec<Option<VsOut>> {
        (0..s.vertex_count)
            .map(|p| {
                let vid = match &s.indices {
                    None => s.first_vertex + p,
                    Some((format, values, _)) => {
                        let index = values[(s.first_vertex + p) as usize];
                        let restart = if *format == wgpu::IndexFormat::Uint16 { 0xFFFF } else { 0xFFFF_FFFF };
                        if index == restart && matches!(s.topology, 3 | 5 | 11 | 13) {
                            return None;
                        }
                        index.wrapping_add(s.base_vertex as u32)
                    }
                };
                let element = match s.step_rate {
                    None => vid,
                    Some(0) => s.first_instance,
                    Some(rate) => s.first_instance + iid / rate,
                };
                let [a, b] = instance_data(element);
                Some(VsOut { pos: position(s.layout, vid).map(f32::to_bits), info: [vid, iid, a, b] })
            })
            .collect()
    }

    /// D3D11.3 §8.3-8.4: the input primitives of one instance, in order (their index is
    /// SV_PrimitiveID).
    fn assemble(topology: u32, verts: &[Option<VsOut>]) -> Vec<Vec<VsOut>> {
        let strips: Vec<Vec<VsOut>> = verts
            .split(|v| v.is_none())
            .map(|s| s.iter().flatten().copied().collect())
            .filter(|s: &Vec<VsOut>| !s.is_empty())
            .collect();
        let all: Vec<VsOut> = verts.iter().flatten().copied().collect();
        let list = |n: usize| all.chunks_exact(n).map(<[VsOut]>::to_vec).collect::<Vec<_>>();
        let mut out = Vec::new();
        match topology {
            1 => out = list(1),
            2 => out = list(2),
            4 => out = list(3),
            10 => out = list(4),
            12 => out = list(6),
            33..=64 => out = list((topology - 32) as usize),
            3 | 11 => {
                let n = if topology == 3 { 2 } else { 4 };
                for s in &strips {
                    out.extend(s.windows(n).map(<[VsOut]>::to_vec));
                }
            }
            5 => {
                for s in &strips {
                    for k in 0..s.len().saturating_sub(2) {
                        // Odd triangles keep the winding: (k, k+2, k+1).
                        out.push(if k % 2 == 0 {
                            vec![s[k], s[k + 1], s[k + 2]]
                        } else {
                            vec![s[k], s[k + 2], s[k + 1]]
                        });
                    }
                }
            }
            13 => {
                for s in &strips {
                    if s.len() < 6 {
                        continue;
                    }
                    let n = (s.len() - 4) / 2;
                    for i in 0..n {
                        let b = 2 * i;
                        let p: [usize; 6] = if n == 1 {
                            [b, b + 1, b + 2, b + 5, b + 4, b + 3]
                        } else if i == 0 {
                            [b, b + 1, b + 2, b + 6, b + 4, b + 3]
                        } else if i == n - 1 && i % 2 == 0 {
                            [b, b - 2, b + 2, b + 5, b + 4, b + 3]
                        } else if i == n - 1 {
                            [b, b + 3, b + 4, b + 5, b + 2, b - 2]
                        } else if i % 2 == 0 {
                            [b, b - 2, b + 2, b + 6, b + 4, b + 3]
                        } else {
                            [b, b + 3, b + 4, b + 6, b + 2, b - 2]
                        };
                        out.push(p.iter().map(|&k| s[k]).collect());
                    }
                }
            }
            _ => panic!("topology {topology}"),
        }
        out
    }

    /// D3D11.3 §13: the echo geometry shader's output strips for one primitive and GS instance
    /// (an invocation's output ends with a cut).
    fn gs_model(gs: &Gs, prim: &[VsOut], prim_id: u32, g: u32) -> Vec<Vec<OutV>> {
        let mut strips = Vec::new();
        let mut strip = Vec::new();
        let mut emitted = 0;
        for k in 0..gs.vertices {
            let v = prim[k as usize];
            let mut pos = v.pos;
            if gs.instances > 1 {
                pos[0] = (g as f32).mul_add(0.25, f32::from_bits(pos[0])).to_bits();
            }
            let mut o = [0; 13];
            o[..4].copy_from_slice(&pos);
            o[4..8].copy_from_slice(&v.info);
            o[8..12].copy_from_slice(&[prim_id, g, k, MARK]);
            o[12] = prim_id * 16 + k;
            if emitted < gs.max_vertices {
                strip.push(o);
                emitted += 1;
            }
            if gs.cut_after.contains(&k) && !strip.is_empty() {
                strips.push(std::mem::take(&mut strip));
            }
        }
        if !strip.is_empty() {
            strips.push(strip);
        }
        if gs.output == OutputTopology::PointList {
            strips = strips.concat().into_iter().map(|v| vec![v]).collect();
        }
        strips
    }

    /// The whole draw's output stream: instance, then primitive, then GS instance.
    fn model(s: &Scenario) -> Vec<Vec<OutV>> {
        let mut out = Vec::new();
        for iid in 0..s.instance_count {
            for (id, prim) in assemble(s.topology, &vertices(s, iid)).iter().enumerate() {
                for g in 0..s.gs.instances {
                    out.extend(gs_model(&s.gs, prim, id as u32, g));
                }
            }
        }
        out
    }

    /// What every chunk wrote, as the output stream the draw rasterizes: the strips (cut at the
    /// restart index) or the points that are not culled.
    fn stream(dev: &Device, desc: &StageDesc, prepared: &Prepared) -> Vec<Vec<OutV>> {
        let mut out = Vec::new();
        for chunk in read_output(dev, desc, prepared) {
            let vertex = |v: &Vec<[u32; 4]>| -> OutV {
                let mut o = [0; 13];
                for r in 0..3 {
                    o[4 * r..4 * r + 4].copy_from_slice(&v[r]);
                }
                o[12] = v[3][0];
                o
            };
            match desc.output {
                Some(OutputTopology::PointList) => out
                    .extend(chunk.vertices.iter().filter(|v| f32::from_bits(v[0][0]) <= 1.0).map(|v| vec![vertex(v)])),
                _ => {
                    for strip in chunk.indices.split(|&i| i == RESTART_INDEX).filter(|s| !s.is_empty()) {
                        out.push(strip.iter().map(|&i| vertex(&chunk.vertices[i as usize])).collect());
                    }
                }
            }
        }
        out
    }

    /// Per pixel of both targets, the value the model's output gives it, or `None` where an
    /// edge passes within `MARGIN` pixels of the centre of a primitive drawn there.
    fn image(output: OutputTopology, stream: &[Vec<OutV>]) -> Vec<Option<[[u32; 4]; 2]>> {
        const MARGIN: f64 = 0.3;
        // Lines are not modelled: no pixel is decided.
        let blank = (output != OutputTopology::LineStrip).then_some([[0; 4]; 2]);
        let mut img: Vec<Option<[[u32; 4]; 2]>> = vec![blank; (SIZE * SIZE) as usize];
        let value = |v: &OutV| [[v[4], v[5], v[6], v[7]], [v[8], v[9], v[12], v[10]]];
        let screen = |v: &OutV| {
            let (x, y) = (f64::from(f32::from_bits(v[0])), f64::from(f32::from_bits(v[1])));
            [(x + 1.0) * f64::from(SIZE) / 2.0, (1.0 - y) * f64::from(SIZE) / 2.0]
        };
        for strip in stream {
            match output {
                OutputTopology::PointList => {
                    for v in strip {
                        let [x, y] = screen(v);
                        let (px, py) = (x.floor(), y.floor());
                        let inside = (0.0..f64::from(SIZE)).contains(&px) && (0.0..f64::from(SIZE)).contains(&py);
                        if inside && (x - px - 0.5).abs() < 0.25 && (y - py - 0.5).abs() < 0.25 {
                            img[(py as u32 * SIZE + px as u32) as usize] = Some(value(v));
                        }
                    }
                }
                OutputTopology::TriangleStrip => {
                    for k in 0..strip.len().saturating_sub(2) {
                        let (a, b, c) = if k % 2 == 0 { (k, k + 1, k + 2) } else { (k, k + 2, k + 1) };
                        let s = [screen(&strip[a]), screen(&strip[b]), screen(&strip[c])];
                        let edge = |p: [f64; 2], q: [f64; 2], r: [f64; 2]| {
                            (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
                        };
                        let area = edge(s[0], s[1], s[2]);
                        // Clockwise on screen is the front face; the back face is culled.
                        if area <= 1e-6 {
                            continue;
                        }
                        let flat = value(&strip[k]);
                        for py in 0..SIZE {
                            for px in 0..SIZE {
                                let q = [f64::from(px) + 0.5, f64::from(py) + 0.5];
                                let mut inside = true;
                                let mut near = false;
                                for i in 0..3 {
                                    let (p0, p1) = (s[i], s[(i + 1) % 3]);
                                    let len = ((p1[0] - p0[0]).powi(2) + (p1[1] - p0[1]).powi(2)).sqrt();
                                    let d = edge(p0, p1, q) / len;
                                    if d < -MARGIN {
                                        inside = false;
                                        near = false;
                                        break;
                                    }
                                    if d < MARGIN {
                                        near = true;
                                    }
                                }
                                let at = (py * SIZE + px) as usize;
                                if near {
                                    img[at] = None;
                                } else if inside {
                                    img[at] = Some(flat);
                                }
                            }
                        }
                    }
                }
                OutputTopology::LineStrip => {}
            }
        }
        img
    }

    fn uint_target(dev: &Device) -> wgpu::Texture {
        dev.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("target"),
            size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba32Uint,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        })
    }

    /// Runs a scenario (in one chunk, then in several) and checks it; returns a description of
    /// every difference.
    fn check(dev: &Device, s: &Scenario) -> Vec<String> {
        let mut problems = Vec::new();
        let gs_t =
            translate(&s.gs.blob(), &TranslateOptions::default()).unwrap_or_else(|e| panic!("{}: gs: {e}", s.name));
        let info = gs_t.geometry.clone().expect("geometry info");
        let pulling = VertexPulling {
            elements: vec![
                PulledElement {
                    register: 0,
                    slot: 0,
                    offset: 0,
                    format: VertexFormat::Float32x4,
                    instance_step_rate: None,
                },
                PulledElement {
                    register: 1,
                    slot: 1,
                    offset: 0,
                    format: VertexFormat::Uint32x2,
                    instance_step_rate: s.step_rate,
                },
            ],
            strides: vec![16, 8],
            record_registers: info.input_registers,
        };
        let vs_t = translate(
            &vs_blob(),
            &TranslateOptions { vertex_stage: VertexStage::Compute(pulling), ..Default::default() },
        )
        .unwrap_or_else(|e| panic!("{}: vs: {e}", s.name));
        let ps_t = translate(&ps_blob(), &TranslateOptions { behind_geometry: true, ..Default::default() })
            .unwrap_or_else(|e| panic!("{}: ps: {e}", s.name));
        let interpolation: Vec<_> = ps_t.inputs.iter().filter_map(|i| Some((i.location?, i.interpolation?))).collect();
        let draw_t = dxbc_wgsl::geometry_draw_vertex_shader(&gs_t, &interpolation).expect("draw vertex shader");
        let module = |wgsl: &str| {
            dev.device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: None,
                source: wgpu::ShaderSource::Wgsl(wgsl.to_string().into()),
            })
        };
        let desc = stage_desc(&info, vec![0, 1]);
        let (vs, gs, ps, draw_vs) = (module(&vs_t.wgsl), module(&gs_t.wgsl), module(&ps_t.wgsl), module(&draw_t.wgsl));
        let targets: [Option<wgpu::ColorTargetState>; 2] =
            std::array::from_fn(|_| Some(wgpu::TextureFormat::Rgba32Uint.into()));
        let mut stage = dev
            .scoped(|device| {
                PrimitiveStage::new(
                    device,
                    &PrimitiveStageDescriptor {
                        label: Some(s.name),
                        stage: desc.clone(),
                        vertex: ShaderEntry { module: &vs, entry_point: &vs_t.entry_point },
                        vertex_layout: None,
                        geometry: ShaderEntry { module: &gs, entry_point: &gs_t.entry_point },
                        geometry_layout: None,
                        draw_vertex: ShaderEntry { module: &draw_vs, entry_point: &draw_t.entry_point },
                        fragment: Some(FragmentEntry {
                            shader: ShaderEntry { module: &ps, entry_point: &ps_t.entry_point },
                            targets: &targets,
                            layout: None,
                        }),
                        primitive: wgpu::PrimitiveState {
                            front_face: wgpu::FrontFace::Cw,
                            cull_mode: Some(wgpu::Face::Back),
                            ..Default::default()
                        },
                        depth_stencil: None,
                        multisample: Default::default(),
                        max_binding_bytes: None,
                    },
                )
            })
            .unwrap_or_else(|e| panic!("{}: pipelines: {e}", s.name))
            .unwrap_or_else(|e| panic!("{}: stage: {e}", s.name));

        // Vertex buffers: every vertex ID and instance element the draw reads, and some more.
        let mut max_vid = s.first_vertex + s.vertex_count + 2;
        if let Some((_, values, _)) = &s.indices {
            let most = values.iter().filter(|&&v| v < 0xFFFF).max().copied().unwrap_or(0);
            max_vid = max_vid.max(most.wrapping_add(s.base_vertex as u32) + 2);
        }
        let elements = max_vid.max(s.first_instance + s.instance_count + 2);
        let positions: Vec<f32> = (0..max_vid).flat_map(|v| position(s.layout, v)).collect();
        let data: Vec<u32> = (0..elements).flat_map(instance_data).collect();
        let vb0 = dev.buffer("vb0", bytemuck::cast_slice(&positions), wgpu::BufferUsages::STORAGE);
        let vb1 = dev.buffer("vb1", bytemuck::cast_slice(&data), wgpu::BufferUsages::STORAGE);
        let (index_buffer, index) = match &s.indices {
            None => (None, None),
            Some((format, values, offset)) => {
                let mut bytes = vec![0xAB; *offset as usize];
                for &v in values {
                    match format {
                        wgpu::IndexFormat::Uint16 => bytes.extend((v as u16).to_le_bytes()),
                        wgpu::IndexFormat::Uint32 => bytes.extend(v.to_le_bytes()),
                    }
                }
                let b = dev.buffer("indices", &bytes, wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDEX);
                (Some(b), Some((*format, *offset)))
            }
        };
        let call = DrawCall {
            topology: dxbc_wgsl_gpu::primitive_stage::Topology::from_number(s.topology).expect("a D3D11 topology"),
            vertex_count: s.vertex_count,
            instance_count: s.instance_count,
            first_vertex: s.first_vertex,
            base_vertex: s.base_vertex,
            first_instance: s.first_instance,
            index,
        };
        let expected = model(s);
        let expected_image = image(s.gs.output, &expected);
        assert!(!expected.is_empty(), "{}: the model draws nothing", s.name);

        // One chunk, then a cap of about a third of it (at least one candidate primitive).
        let whole = plan_chunks(&desc, &call, u64::MAX).expect("plan");
        let bytes = whole.iter().map(|c| c.record_bytes(&desc).max(c.output_vertex_bytes(&desc))).max().unwrap_or(0);
        let cap = (1..=8).map(|d| bytes / 3 / d).find(|&cap| plan_chunks(&desc, &call, cap).is_ok());
        for cap in [None, cap] {
            stage.set_max_binding_bytes(cap);
            let t0 = uint_target(dev);
            let t1 = uint_target(dev);
            let (v0, v1) = (t0.create_view(&Default::default()), t1.create_view(&Default::default()));
            let mut encoder = dev.device.create_command_encoder(&Default::default());
            let vertex_buffers = [Some((&vb0, 0)), Some((&vb1, 0))];
            let prepared = dev
                .scoped(|device| {
                    let prepared = stage
                        .prepare(device, &mut encoder, &call, &vertex_buffers, index_buffer.as_ref(), None, None)
                        .unwrap_or_else(|e| panic!("{}: prepare: {e}", s.name));
                    {
                        let attachment = |view| {
                            Some(wgpu::RenderPassColorAttachment {
                                view,
                                depth_slice: None,
                                resolve_target: None,
                                ops: wgpu::Operations {
                                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                                    store: wgpu::StoreOp::Store,
                                },
                            })
                        };
                        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                            label: Some("draw"),
                            color_attachments: &[attachment(&v0), attachment(&v1)],
                            depth_stencil_attachment: None,
                            timestamp_writes: None,
                            occlusion_query_set: None,
                            multiview_mask: None,
                        });
                        stage.draw(&mut pass, &prepared, None);
                    }
                    dev.queue.submit([encoder.finish()]);
                    prepared
                })
                .unwrap_or_else(|e| panic!("{}: validation: {e}", s.name));
            dev.wait().expect("wait");
            let chunks = prepared.chunks().len();
            if cap.is_some() && chunks < 2 {
                problems.push(format!("{}: cap {cap:?} gave {chunks} chunk", s.name));
            }
            let got = stream(dev, &desc, &prepared);
            if got != expected {
                let first =
                    got.iter().zip(&expected).position(|(a, b)| a != b).unwrap_or(got.len().min(expected.len()));
                problems.push(format!(
                    "{} ({chunks} chunks): output stream differs at strip {first} of {} (expected {}):\n  got      {:?}\n  expected {:?}",
                    s.name,
                    got.len(),
                    expected.len(),
                    got.get(first),
                    expected.get(first)
                ));
            }
            let read = |t: &wgpu::Texture| dev.read_texels(t, 4, 0, [0, 0, SIZE, SIZE]).expect("read");
            let (p0, p1) = (read(&t0), read(&t1));
            let mut checked = 0;
            let mut covered = 0;
            let mut wrong = Vec::new();
            for (i, want) in expected_image.iter().enumerate() {
                let Some(want) = want else { continue };
                checked += 1;
                if want[0] != [0; 4] {
                    covered += 1;
                }
                let have = [
                    [p0[4 * i], p0[4 * i + 1], p0[4 * i + 2], p0[4 * i + 3]],
                    [p1[4 * i], p1[4 * i + 1], p1[4 * i + 2], p1[4 * i + 3]],
                ];
                if have != *want {
                    wrong.push(format!("({}, {}): got {have:?}, expected {want:?}", i as u32 % SIZE, i as u32 / SIZE));
                }
            }
            eprintln!(
                "{} ({chunks} chunks): {} strips, {checked} pixels decided, {covered} covered",
                s.name,
                got.len()
            );
            if s.gs.output != OutputTopology::LineStrip && covered == 0 {
                problems.push(format!("{}: no pixel of the model is covered", s.name));
            }
            if !wrong.is_empty() {
                problems.push(format!(
                    "{} ({chunks} chunks): {} of {checked} pixels differ, first {}",
                    s.name,
                    wrong.len(),
                    wrong[..wrong.len().min(3)].join("; ")
                ));
            }
            stage.recycle(prepared);
        }
        problems
    }

    pub(crate) fn run_all(test: &str, scenarios: &[Scenario]) {
        let Some(dev) = common::device(test) else { return };
        let problems: Vec<String> = scenarios.iter().flat_map(|s| check(&dev, s)).collect();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    pub(crate) fn points() -> Gs {
        Gs::echo(1, 1, OutputTopology::PointList)
    }

    pub(crate) fn triangles() -> Gs {
        Gs::echo(3, 3, OutputTopology::TriangleStrip)
    }

    #[test]
    fn every_input_topology() {
        let tri_adj = Gs::echo(7, 6, OutputTopology::TriangleStrip);
        let pixel = |mut s: Scenario| {
            s.layout = Layout::PixelCenters;
            s
        };
        run_all(
            "every_input_topology",
            &[
                pixel(Scenario::new("point list", points(), 1, 40)),
                pixel(Scenario::new("line list", Gs::echo(2, 2, OutputTopology::PointList), 2, 21)),
                Scenario::new("line list to line strips", Gs::echo(2, 2, OutputTopology::LineStrip), 2, 20),
                pixel(Scenario::new("line strip", Gs::echo(2, 2, OutputTopology::PointList), 3, 17)),
                Scenario::new("triangle list", triangles(), 4, 31),
                Scenario::new("triangle strip", triangles(), 5, 19),
                pixel(Scenario::new("line list with adjacency", Gs::echo(6, 4, OutputTopology::PointList), 10, 18)),
                Scenario::new("line strip with adjacency", Gs::echo(6, 4, OutputTopology::LineStrip), 11, 13),
                Scenario::new("triangle list with adjacency", tri_adj.clone(), 12, 25),
                Scenario::new("triangle strip with adjacency", tri_adj.clone(), 13, 16),
                Scenario {
                    first_vertex: 1,
                    ..Scenario::new("triangle strip with adjacency, one triangle", tri_adj.clone(), 13, 7)
                },
                Scenario::new("triangle strip with adjacency, two triangles", tri_adj, 13, 8),
                Scenario::new("5-point patch list", Gs::echo(12, 5, OutputTopology::TriangleStrip), 37, 26),
            ],
        );
    }
}

mod scenarios {
    //! The remaining D3D rules, one test each (the scenarios of [`super::translated`]).

    use super::translated::*;
    use dxbc_wgsl_gpu::primitive_stage::OutputTopology;

    #[test]
    fn strips_cut_by_the_geometry_shader() {
        let cut =
            |emit_then_cut| Gs { cut_after: &[2], emit_then_cut, ..Gs::echo(7, 6, OutputTopology::TriangleStrip) };
        let twice = Gs { cut_after: &[0, 3], ..Gs::echo(7, 6, OutputTopology::TriangleStrip) };
        run_all(
            "strips_cut_by_the_geometry_shader",
            &[
                Scenario::new("cut after vertex 2", cut(false), 12, 30),
                Scenario::new("emit_then_cut at vertex 2", cut(true), 12, 30),
                Scenario::new("cuts after vertices 0 and 3", twice, 12, 24),
            ],
        );
    }

    #[test]
    fn geometry_shader_instances_follow_each_primitive() {
        let gs = Gs { instances: 3, ..triangles() };
        run_all(
            "geometry_shader_instances_follow_each_primitive",
            &[
                Scenario::new("3 GS instances of a triangle list", gs.clone(), 4, 12),
                Scenario {
                    instance_count: 2,
                    ..Scenario::new("3 GS instances of 2 draw instances of a strip", gs, 5, 7)
                },
            ],
        );
    }

    #[test]
    fn draw_instances_step_per_instance_data() {
        let base = |name, rate| Scenario {
            instance_count: 5,
            first_instance: 2,
            step_rate: Some(rate),
            ..Scenario::new(name, triangles(), 4, 15)
        };
        run_all(
            "draw_instances_step_per_instance_data",
            &[
                base("step rate 1", 1),
                base("step rate 2", 2),
                base("step rate 0", 0),
                Scenario { first_vertex: 5, ..base("step rate 3, start vertex 5", 3) },
            ],
        );
    }

    #[test]
    fn primitive_ids_restart_per_instance_and_count_across_strip_restarts() {
        const R16: u32 = 0xFFFF;
        const R32: u32 = 0xFFFF_FFFF;
        let strip16 = vec![0, 1, 2, 3, 4, R16, 5, 6, 7, R16, R16, 8, 9, R16, 10, 11, 12, 13, 14, 15];
        let strip32: Vec<u32> = strip16.iter().map(|&i| if i == R16 { R32 } else { i }).collect();
        let indexed = |name, format, values: Vec<u32>, topology, gs| Scenario {
            instance_count: 3,
            indices: Some((format, values.clone(), 0)),
            ..Scenario::new(name, gs, topology, values.len() as u32)
        };
        run_all(
            "primitive_ids_restart_per_instance_and_count_across_strip_restarts",
            &[
                indexed(
                    "16-bit triangle strip with restarts",
                    wgpu::IndexFormat::Uint16,
                    strip16.clone(),
                    5,
                    triangles(),
                ),
                indexed(
                    "32-bit triangle strip with restarts",
                    wgpu::IndexFormat::Uint32,
                    strip32.clone(),
                    5,
                    triangles(),
                ),
                indexed(
                    "16-bit line strip with restarts",
                    wgpu::IndexFormat::Uint16,
                    strip16.clone(),
                    3,
                    Gs::echo(2, 2, OutputTopology::LineStrip),
                ),
                indexed(
                    "32-bit triangle strip with adjacency and restarts",
                    wgpu::IndexFormat::Uint32,
                    [&strip32[..], &[16, 17, 18, 19, 20, 21, 22, 23, 24]].concat(),
                    13,
                    Gs::echo(7, 6, OutputTopology::TriangleStrip),
                ),
                Scenario { instance_count: 2, ..Scenario::new("non-indexed strip", triangles(), 5, 9) },
            ],
        );
    }

    #[test]
    fn indexed_draws_with_base_vertex_start_index_and_start_instance() {
        let list: Vec<u32> = (0..30).map(|i| (i * 7) % 23).collect();
        run_all(
            "indexed_draws_with_base_vertex_start_index_and_start_instance",
            &[
                Scenario {
                    first_vertex: 3,
                    base_vertex: 4,
                    first_instance: 2,
                    instance_count: 2,
                    step_rate: Some(1),
                    indices: Some((wgpu::IndexFormat::Uint16, list.clone(), 6)),
                    ..Scenario::new("16-bit list, start index 3 at offset 6, base vertex 4", triangles(), 4, 24)
                },
                Scenario {
                    first_vertex: 1,
                    base_vertex: -2,
                    indices: Some((wgpu::IndexFormat::Uint32, list.iter().map(|i| i + 2).collect(), 8)),
                    ..Scenario::new("32-bit list, start index 1 at offset 8, base vertex -2", triangles(), 4, 27)
                },
                Scenario {
                    base_vertex: 1,
                    indices: Some((wgpu::IndexFormat::Uint16, vec![3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5], 2)),
                    ..Scenario::new("16-bit strip of an odd start, base vertex 1", triangles(), 5, 11)
                },
            ],
        );
    }

    #[test]
    fn a_large_draw_split_into_many_chunks_keeps_d3d_order() {
        run_all(
            "a_large_draw_split_into_many_chunks_keeps_d3d_order",
            &[
                Scenario {
                    instance_count: 3,
                    step_rate: Some(1),
                    ..Scenario::new("900 triangles", triangles(), 4, 900)
                },
                Scenario {
                    instance_count: 2,
                    ..Scenario::new("3 GS instances of a 400-vertex strip", Gs { instances: 3, ..triangles() }, 5, 400)
                },
            ],
        );
    }
}
