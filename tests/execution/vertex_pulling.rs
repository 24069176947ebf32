//! The vertex shader in front of a geometry shader, pulled as compute (`docs/geometry.md`,
//! `vertex_pull.wgsl`): every `VertexFormat` decoded from known bytes at aligned and unaligned
//! offsets, against a CPU decode of D3D's data conversion rules (UNORM `c / (2^n - 1)`, SNORM
//! with both minimums at -1, exact halves; D3D's defaults 0, 0, 0, 1 in the components a format
//! lacks); elements past their buffer; and vertex and index addresses whose 32-bit products
//! would wrap (D3D reads 0 there). The vertex records are read back through the runtime
//! (`dxbc_wgsl_gpu::primitive_stage`).

#[path = "../tests/common/mod.rs"]
mod common;

use std::borrow::Cow;

use dxbc_wgsl::geometry::{PulledElement, VertexFormat, VertexPulling};
use dxbc_wgsl::{translate, TranslateOptions, VertexStage};
use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_gpu::primitive_stage::{
    stage_desc, DrawCall, PrimitiveStage, PrimitiveStageDescriptor, PrimitiveStageError, ShaderEntry,
};
use dxbc_wgsl_tests::asm::*;

/// The device the tests run on: the conformance runner's, or one with lowered limits.
struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
}

impl Gpu {
    fn of(dev: &Device) -> Gpu {
        Gpu { device: dev.device.clone(), queue: dev.queue.clone() }
    }

    /// A buffer of `bytes` (padded to whole words), `COPY_DST` besides `usage`.
    fn buffer(&self, label: &str, bytes: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
        use wgpu::util::DeviceExt as _;
        let mut contents = bytes.to_vec();
        contents.resize(contents.len().max(4).next_multiple_of(4), 0);
        self.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: &contents,
            usage: usage | wgpu::BufferUsages::COPY_DST,
        })
    }

    fn wait(&self) {
        self.device.poll(wgpu::PollType::wait_indefinitely()).expect("wait");
    }
}

/// Reads a whole buffer (`COPY_SRC`) back as words.
fn read_words(dev: &Gpu, buffer: &wgpu::Buffer, words: usize) -> Vec<u32> {
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
    dev.wait();
    receiver.recv().expect("map").expect("map");
    let data = slice.get_mapped_range().expect("mapped range");
    let out = bytemuck::cast_slice::<u8, u32>(&data)[..words].to_vec();
    drop(data);
    staging.unmap();
    out
}

/// A vertex shader copying `v0..v{registers}` (raw bits; `SV_VertexID` and `SV_InstanceID` in
/// the registers `system` names) to `o0..`.
fn copy_vs(registers: u32, system: &[(u32, u32)]) -> Vec<u8> {
    let mut decls = Vec::new();
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let mut body = Vec::new();
    for r in 0..registers {
        let name = system.iter().find(|(reg, _)| *reg == r).map_or(0, |&(_, n)| n);
        let (semantic, m) = match name {
            NAME_VERTEX_ID => ("SV_VertexID", "x"),
            NAME_INSTANCE_ID => ("SV_InstanceID", "x"),
            _ => ("DATA", "xyzw"),
        };
        decls.push(dcl_vs_input(r, m, name));
        inputs.push(Element(semantic, r, name, 1, r, m));
        outputs.push(Element("DATA", r, 0, 1, r, "xyzw"));
    }
    for r in 0..registers {
        decls.push(dcl_output(r, "xyzw", 0));
        body.push(ins(MOV, &[dst(OUTPUT, r, "xyzw"), src(INPUT, r, "xyzw")]));
    }
    shader(VS_4_0, &inputs, &outputs, &decls, 0, &body)
}

/// A point-list geometry shader reading `registers` registers per vertex and emitting nothing
/// (no output topology): the stage only runs the vertex module into records.
fn sink_gs(registers: u32) -> Vec<u8> {
    let mut decls = vec![dcl_input_primitive(1), dcl_max_output(1)];
    let mut inputs = Vec::new();
    for r in 0..registers {
        decls.push(dcl_gs_input(1, r, "xyzw", 0));
        inputs.push(Element("DATA", r, 0, 1, r, "xyzw"));
    }
    shader(GS_4_0, &inputs, &[], &decls, 0, &[])
}

/// Runs `vs` pulled with `pulling` through a point-list stage of `sink_gs`, drawing `draw` over
/// `buffers` (slot → buffer, offset) and `index`; returns the vertex records, per (instance,
/// position) of the draw's one chunk, `registers` registers each.
fn records(
    dev: &Gpu,
    vs: &[u8],
    pulling: VertexPulling,
    buffers: &[Option<(&wgpu::Buffer, u64)>],
    index: Option<&wgpu::Buffer>,
    draw: &DrawCall,
) -> Vec<Vec<[u32; 4]>> {
    try_records(dev, vs, pulling, buffers, index, draw).unwrap_or_else(|e| panic!("prepare: {e}"))
}

/// [`records`], or the error `prepare` returns.
fn try_records(
    dev: &Gpu,
    vs: &[u8],
    pulling: VertexPulling,
    buffers: &[Option<(&wgpu::Buffer, u64)>],
    index: Option<&wgpu::Buffer>,
    draw: &DrawCall,
) -> Result<Vec<Vec<[u32; 4]>>, PrimitiveStageError> {
    let registers = pulling.record_registers;
    let slots: Vec<u32> = {
        let mut s: Vec<u32> = pulling.elements.iter().map(|e| e.slot).collect();
        s.sort_unstable();
        s.dedup();
        s
    };
    let vs_t = translate(vs, &TranslateOptions { vertex_stage: VertexStage::Compute(pulling), ..Default::default() })
        .unwrap_or_else(|e| panic!("vs: {e}"));
    let gs_t = translate(&sink_gs(registers), &TranslateOptions::default()).unwrap_or_else(|e| panic!("gs: {e}"));
    let desc = stage_desc(gs_t.geometry.as_ref().expect("geometry"), slots);
    let module = |wgsl: &str| {
        dev.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(Cow::Owned(wgsl.to_string())),
        })
    };
    let (vsm, gsm) = (module(&vs_t.wgsl), module(&gs_t.wgsl));
    let stage = PrimitiveStage::new(
        &dev.device,
        &PrimitiveStageDescriptor {
            label: Some("vertex pulling"),
            stage: desc.clone(),
            vertex: ShaderEntry { module: &vsm, entry_point: &vs_t.entry_point },
            vertex_layout: None,
            geometry: ShaderEntry { module: &gsm, entry_point: &gs_t.entry_point },
            geometry_layout: None,
            // No output topology: nothing is drawn.
            draw_vertex: ShaderEntry { module: &gsm, entry_point: &gs_t.entry_point },
            fragment: None,
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            max_binding_bytes: None,
        },
    )
    .expect("stage");
    let mut encoder = dev.device.create_command_encoder(&Default::default());
    let prepared = stage.prepare(&dev.device, &mut encoder, draw, buffers, index, None, None)?;
    dev.queue.submit([encoder.finish()]);
    dev.wait();
    assert_eq!(prepared.chunks().len(), 1);
    let c = &prepared.chunks()[0];
    let n = c.chunk.instance_count as usize * c.chunk.position_count as usize;
    let words = read_words(dev, &c.records, n * registers as usize * 4);
    Ok(words
        .chunks(registers as usize * 4)
        .map(|rec| rec.chunks(4).map(|r| [r[0], r[1], r[2], r[3]]).collect())
        .collect())
}

fn point_draw(vertex_count: u32) -> DrawCall {
    DrawCall {
        topology: dxbc_wgsl_gpu::primitive_stage::Topology::PointList,
        vertex_count,
        instance_count: 1,
        first_vertex: 0,
        base_vertex: 0,
        first_instance: 0,
        index: None,
    }
}

/// Bits of an f32 computed in f64 and rounded once.
fn f(v: f64) -> u32 {
    (v as f32).to_bits()
}

/// An IEEE half as f32 bits (exact: every half is an f32).
fn half(h: u16) -> u32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from(h >> 10) & 0x1F;
    let man = u32::from(h) & 0x3FF;
    match exp {
        0 => sign | f(f64::from(man) * 2f64.powi(-24)) & 0x7FFF_FFFF,
        31 => sign | 0x7F80_0000 | (man << 13),
        _ => sign | ((exp + 112) << 23) | (man << 13),
    }
}

/// D3D11.3's decode of element `e` (the element's bytes from `b`), with D3D's defaults.
fn decode(format: VertexFormat, b: &[u8]) -> [u32; 4] {
    use VertexFormat::*;
    let one_f = 1f32.to_bits();
    let u8s = |i: usize| u32::from(b[i]);
    let u16s = |i: usize| u32::from(u16::from_le_bytes([b[2 * i], b[2 * i + 1]]));
    let u32s = |i: usize| u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
    let i8s = |i: usize| i32::from(b[i] as i8) as u32;
    let i16s = |i: usize| i32::from(u16s(i) as u16 as i16) as u32;
    let unorm = |c: u32, bits: i32| f(f64::from(c) / (2f64.powi(bits) - 1.0));
    let snorm = |c: i32, bits: i32| f((f64::from(c) / (2f64.powi(bits - 1) - 1.0)).max(-1.0));
    let fill = |v: &[u32], default_one: u32| {
        let mut out = [0, 0, 0, default_one];
        out[..v.len()].copy_from_slice(v);
        out
    };
    match format {
        Uint8 => fill(&[u8s(0)], 1),
        Uint8x2 => fill(&[u8s(0), u8s(1)], 1),
        Uint8x4 => fill(&[u8s(0), u8s(1), u8s(2), u8s(3)], 1),
        Sint8 => fill(&[i8s(0)], 1),
        Sint8x2 => fill(&[i8s(0), i8s(1)], 1),
        Sint8x4 => fill(&[i8s(0), i8s(1), i8s(2), i8s(3)], 1),
        Unorm8 => fill(&[unorm(u8s(0), 8)], one_f),
        Unorm8x2 => fill(&[unorm(u8s(0), 8), unorm(u8s(1), 8)], one_f),
        Unorm8x4 => fill(&[unorm(u8s(0), 8), unorm(u8s(1), 8), unorm(u8s(2), 8), unorm(u8s(3), 8)], one_f),
        Snorm8 => fill(&[snorm(i8s(0) as i32, 8)], one_f),
        Snorm8x2 => fill(&[snorm(i8s(0) as i32, 8), snorm(i8s(1) as i32, 8)], one_f),
        Snorm8x4 => fill(&(0..4).map(|i| snorm(i8s(i) as i32, 8)).collect::<Vec<_>>(), one_f),
        Uint16 => fill(&[u16s(0)], 1),
        Uint16x2 => fill(&[u16s(0), u16s(1)], 1),
        Uint16x4 => fill(&[u16s(0), u16s(1), u16s(2), u16s(3)], 1),
        Sint16 => fill(&[i16s(0)], 1),
        Sint16x2 => fill(&[i16s(0), i16s(1)], 1),
        Sint16x4 => fill(&[i16s(0), i16s(1), i16s(2), i16s(3)], 1),
        Unorm16 => fill(&[unorm(u16s(0), 16)], one_f),
        Unorm16x2 => fill(&[unorm(u16s(0), 16), unorm(u16s(1), 16)], one_f),
        Unorm16x4 => fill(&(0..4).map(|i| unorm(u16s(i), 16)).collect::<Vec<_>>(), one_f),
        Snorm16 => fill(&[snorm(i16s(0) as i32, 16)], one_f),
        Snorm16x2 => fill(&[snorm(i16s(0) as i32, 16), snorm(i16s(1) as i32, 16)], one_f),
        Snorm16x4 => fill(&(0..4).map(|i| snorm(i16s(i) as i32, 16)).collect::<Vec<_>>(), one_f),
        Float16 => fill(&[half(u16s(0) as u16)], one_f),
        Float16x2 => fill(&[half(u16s(0) as u16), half(u16s(1) as u16)], one_f),
        Float16x4 => fill(&(0..4).map(|i| half(u16s(i) as u16)).collect::<Vec<_>>(), one_f),
        Float32 => fill(&[u32s(0)], one_f),
        Float32x2 => fill(&[u32s(0), u32s(1)], one_f),
        Float32x3 => fill(&[u32s(0), u32s(1), u32s(2)], one_f),
        Float32x4 => fill(&[u32s(0), u32s(1), u32s(2), u32s(3)], one_f),
        Uint32 | Sint32 => fill(&[u32s(0)], 1),
        Uint32x2 | Sint32x2 => fill(&[u32s(0), u32s(1)], 1),
        Uint32x3 | Sint32x3 => fill(&[u32s(0), u32s(1), u32s(2)], 1),
        Uint32x4 | Sint32x4 => fill(&[u32s(0), u32s(1), u32s(2), u32s(3)], 1),
        Unorm10_10_10_2 => {
            let w = u32s(0);
            fill(
                &[unorm(w & 0x3FF, 10), unorm((w >> 10) & 0x3FF, 10), unorm((w >> 20) & 0x3FF, 10), unorm(w >> 30, 2)],
                0,
            )
        }
        Unorm8x4Bgra => fill(&[unorm(u8s(2), 8), unorm(u8s(1), 8), unorm(u8s(0), 8), unorm(u8s(3), 8)], 0),
    }
}

/// Whether a decoded component matches D3D's: integers and copied floats bit for bit, floats
/// computed from integers within 1 ULP (UNORM/SNORM to float), NaN for NaN.
fn same(format: VertexFormat, got: u32, want: u32) -> bool {
    if got == want {
        return true;
    }
    let (g, w) = (f32::from_bits(got), f32::from_bits(want));
    if w.is_nan() {
        return g.is_nan();
    }
    let computed = !matches!(format.kind(), dxbc_wgsl::ScalarKind::Uint | dxbc_wgsl::ScalarKind::Sint)
        && !matches!(
            format,
            VertexFormat::Float32 | VertexFormat::Float32x2 | VertexFormat::Float32x3 | VertexFormat::Float32x4
        );
    computed && got.abs_diff(want) <= 1 && g.signum() == w.signum()
}

/// Bytes every format reads something telling from: a counter, sign bits, half-float specials
/// (denormals, infinities, NaNs), the extremes of the normalized ranges.
fn pattern(len: usize) -> Vec<u8> {
    let specials: [u8; 16] =
        [0x00, 0x80, 0xFF, 0x7F, 0x01, 0x7C, 0x00, 0xFC, 0x01, 0x00, 0xFF, 0x7B, 0x00, 0x7E, 0x81, 0x3C];
    (0..len)
        .map(|i| if i % 48 < 16 { specials[i % 16] } else { (i as u32).wrapping_mul(0x9E37_79B9).rotate_left(7) as u8 })
        .collect()
}

/// Every format, at 8 offsets each (every residue mod 4, elements crossing words), from 5
/// vertices of a 64-byte stride, four formats per translation; the buffer ends inside the last
/// vertex, so its later elements lie partly or wholly past the end and read 0 in the components
/// the format has.
#[test]
fn every_vertex_format_decodes_as_d3d_at_every_offset() {
    let Some(dev) = common::device("every_vertex_format_decodes_as_d3d_at_every_offset") else { return };
    let dev = Gpu::of(&dev);
    const STRIDE: u32 = 64;
    const VERTICES: u32 = 5;
    // The buffer covers 4 vertices and 16 bytes of the fifth.
    let len = (STRIDE * (VERTICES - 1) + 16) as usize;
    let bytes = pattern(len);
    let buffer = dev.buffer("vertices", &bytes, wgpu::BufferUsages::STORAGE);
    let offsets = [0u32, 1, 2, 3, 6, 9, 13, 31];
    let mut problems = Vec::new();
    for formats in VertexFormat::ALL.chunks(4) {
        let placed: Vec<(u32, VertexFormat, u32)> = formats
            .iter()
            .flat_map(|&format| offsets.iter().map(move |&offset| (format, offset)))
            .enumerate()
            .map(|(r, (format, offset))| (r as u32, format, offset))
            .collect();
        let elements = placed
            .iter()
            .map(|&(register, format, offset)| PulledElement {
                register,
                slot: 0,
                offset,
                format,
                instance_step_rate: None,
            })
            .collect();
        let registers = placed.len() as u32;
        let pulling = VertexPulling { elements, strides: vec![STRIDE], record_registers: registers };
        let got = records(&dev, &copy_vs(registers, &[]), pulling, &[Some((&buffer, 0))], None, &point_draw(VERTICES));
        for v in 0..VERTICES {
            for &(r, format, offset) in &placed {
                let start = (v * STRIDE + offset) as usize;
                let end = start + format.size() as usize;
                let want = if end <= len {
                    decode(format, &bytes[start..end])
                } else {
                    // Past the end: 0 in the format's components, the defaults in the others.
                    decode(format, &vec![0; format.size() as usize])
                };
                let have = got[v as usize][r as usize];
                if (0..4).any(|c| !same(format, have[c], want[c])) {
                    problems.push(format!(
                        "{}: vertex {v} offset {offset}: got {have:08x?}, want {want:08x?}",
                        format.webgpu_name()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} differences:\n{}", problems.len(), problems.join("\n"));
}

/// `v0` a `uint32x4` from slot 0 (stride 16), `v1` SV_VertexID.
fn id_pulling() -> VertexPulling {
    VertexPulling {
        elements: vec![PulledElement {
            register: 0,
            slot: 0,
            offset: 0,
            format: VertexFormat::Uint32x4,
            instance_step_rate: None,
        }],
        strides: vec![16],
        record_registers: 2,
    }
}

/// Vertex `v` of [`id_buffer`]: `(100 + v, 200 + v, 300 + v, 400 + v)`.
fn id_vertex(v: u32) -> [u32; 4] {
    [100 + v, 200 + v, 300 + v, 400 + v]
}

fn id_buffer(dev: &Gpu, vertices: u32) -> wgpu::Buffer {
    let words: Vec<u32> = (0..vertices).flat_map(id_vertex).collect();
    dev.buffer("vertices", bytemuck::cast_slice(&words), wgpu::BufferUsages::STORAGE)
}

/// A vertex whose element lies past the vertex buffer reads 0 however large its index: the
/// address `vertex × stride + offset` must not wrap around 32 bits back into the buffer
/// (D3D11's out-of-bounds vertex-buffer reads return 0; hardware checks the vertex index
/// against the buffer's records). Nor may a negative vertex (`BaseVertexLocation` below the
/// index) read the bytes before the bound offset.
#[test]
fn vertex_addresses_past_32_bits_read_zero() {
    let Some(dev) = common::device("vertex_addresses_past_32_bits_read_zero") else { return };
    let dev = Gpu::of(&dev);
    let vs = copy_vs(2, &[(1, NAME_VERTEX_ID)]);
    let vb = id_buffer(&dev, 8);
    // Non-indexed: StartVertexLocation 2^28, stride 16: 2^32 wraps to vertex 0.
    let draw = DrawCall { first_vertex: 1 << 28, ..point_draw(2) };
    let got = records(&dev, &vs, id_pulling(), &[Some((&vb, 0))], None, &draw);
    assert_eq!(got[0][0], [0; 4], "vertex 2^28 is past the buffer");
    assert_eq!(got[0][1][0], 1 << 28);
    assert_eq!(got[1][0], [0; 4], "vertex 2^28 + 1 is past the buffer");

    // Indexed: 2^28 + 3 wraps to vertex 3; 0xFFFFFFFF × 16 wraps to -16, which from a binding
    // offset of 32 would read vertex 1.
    let indices: Vec<u32> = vec![(1 << 28) + 3, 2, 0xFFFF_FFFF];
    let ib = dev.buffer("indices", bytemuck::cast_slice(&indices), wgpu::BufferUsages::STORAGE);
    let draw = DrawCall { index: Some((wgpu::IndexFormat::Uint32, 0)), ..point_draw(3) };
    let got = records(&dev, &vs, id_pulling(), &[Some((&vb, 32))], Some(&ib), &draw);
    assert_eq!(got.iter().map(|r| r[1][0]).collect::<Vec<_>>(), indices, "SV_VertexID is the index");
    assert_eq!(got[0][0], [0; 4], "index 2^28 + 3 is past the buffer");
    assert_eq!(got[1][0], id_vertex(4), "index 2 from the offset of 2 vertices");
    assert_eq!(got[2][0], [0; 4], "index 0xFFFFFFFF is past the buffer");

    // BaseVertexLocation -1 on index 0: vertex -1, before the bound offset.
    let ib = dev.buffer("indices", bytemuck::cast_slice(&[0u32, 1, 2]), wgpu::BufferUsages::STORAGE);
    let draw = DrawCall { base_vertex: -1, index: Some((wgpu::IndexFormat::Uint32, 0)), ..point_draw(3) };
    let got = records(&dev, &vs, id_pulling(), &[Some((&vb, 32))], Some(&ib), &draw);
    assert_eq!(got[0][1][0], u32::MAX, "SV_VertexID -1");
    assert_eq!(got[0][0], [0; 4], "vertex -1 is before the buffer's offset");
    assert_eq!(got[1][0], id_vertex(2));
    assert_eq!(got[2][0], id_vertex(3));
}

/// Indices at a `StartIndexLocation` past the index buffer read 0 (D3D11's out-of-bounds
/// index-buffer reads return 0), however far past: the byte address `offset + index × size` must
/// not wrap around 32 bits back into the buffer.
#[test]
fn index_addresses_past_32_bits_read_zero() {
    let Some(dev) = common::device("index_addresses_past_32_bits_read_zero") else { return };
    let dev = Gpu::of(&dev);
    let vs = copy_vs(2, &[(1, NAME_VERTEX_ID)]);
    let vb = id_buffer(&dev, 8);
    let ib = dev.buffer("indices", bytemuck::cast_slice(&[5u32, 6, 7, 1]), wgpu::BufferUsages::STORAGE);
    for (format, start) in [(wgpu::IndexFormat::Uint32, 1u32 << 30), (wgpu::IndexFormat::Uint16, 1 << 31)] {
        let draw = DrawCall { first_vertex: start, index: Some((format, 0)), ..point_draw(3) };
        let got = records(&dev, &vs, id_pulling(), &[Some((&vb, 0))], Some(&ib), &draw);
        let ids: Vec<u32> = got.iter().map(|r| r[1][0]).collect();
        assert_eq!(ids, [0, 0, 0], "{format:?} from index {start}: every index past the buffer reads 0");
        assert!(got.iter().all(|r| r[0] == id_vertex(0)), "{format:?}");
    }
}

/// SV_VertexID and SV_InstanceID packed into one register (`v0.x`, `v0.y`) beside a
/// per-instance element: each lane its value, SV_InstanceID from 0, the element from
/// `StartInstanceLocation`.
#[test]
fn system_values_packed_into_one_register() {
    let Some(dev) = common::device("system_values_packed_into_one_register") else { return };
    let dev = Gpu::of(&dev);
    let decls = vec![
        dcl_vs_input(0, "x", NAME_VERTEX_ID),
        dcl_vs_input(0, "y", NAME_INSTANCE_ID),
        dcl_vs_input(1, "xyzw", 0),
        dcl_output(0, "xyzw", 0),
        dcl_output(1, "xyzw", 0),
    ];
    let body = vec![
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 0, "xyzw")]),
        ins(MOV, &[dst(OUTPUT, 1, "xyzw"), src(INPUT, 1, "xyzw")]),
    ];
    let inputs = [
        Element("SV_VertexID", 0, NAME_VERTEX_ID, 1, 0, "x"),
        Element("SV_InstanceID", 0, NAME_INSTANCE_ID, 1, 0, "y"),
        Element("DATA", 0, 0, 1, 1, "xyzw"),
    ];
    let outputs = [Element("DATA", 0, 0, 1, 0, "xyzw"), Element("DATA", 1, 0, 1, 1, "xyzw")];
    let vs = shader(VS_4_0, &inputs, &outputs, &decls, 0, &body);
    let vb = id_buffer(&dev, 16);
    let pulling = VertexPulling {
        elements: vec![PulledElement {
            register: 1,
            slot: 0,
            offset: 0,
            format: VertexFormat::Uint32x4,
            instance_step_rate: Some(1),
        }],
        strides: vec![16],
        record_registers: 2,
    };
    let draw = DrawCall { first_vertex: 5, instance_count: 3, first_instance: 2, ..point_draw(2) };
    let got = records(&dev, &vs, pulling, &[Some((&vb, 0))], None, &draw);
    let expected: Vec<Vec<[u32; 4]>> =
        (0..3).flat_map(|i| (0..2).map(move |p| vec![[5 + p, i, 0, 0], id_vertex(2 + i)])).collect();
    assert_eq!(got, expected);
}

/// An index buffer larger than a storage binding is bound from the draw's first index: on a
/// device whose bindings hold 1 KiB, a 2 KiB buffer of 32-bit indices is read from index 300
/// (a binding from byte 1024), indices past its end read 0, and a draw whose indices inside the
/// buffer overrun the binding is refused rather than read as zeros.
#[test]
fn index_buffers_past_the_binding_limit_bind_from_the_draw_s_first_index() {
    let Some(dev) = common::device("index_buffers_past_the_binding_limit_bind_from_the_draw_s_first_index") else {
        return;
    };
    let limits = wgpu::Limits {
        max_storage_buffer_binding_size: 1024,
        ..wgpu::Limits::default().using_resolution(dev.adapter.limits())
    };
    let (device, queue) = pollster::block_on(dev.adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("1 KiB bindings"),
        required_limits: limits,
        ..Default::default()
    }))
    .expect("a device with 1 KiB storage bindings");
    let gpu = Gpu { device, queue };
    let vs = copy_vs(2, &[(1, NAME_VERTEX_ID)]);
    let vb = id_buffer(&gpu, 8);
    let values: Vec<u32> = (0..512).map(|i| (i * 3) % 8).collect();
    let ib = gpu.buffer("indices", bytemuck::cast_slice(&values), wgpu::BufferUsages::STORAGE);
    let draw = |first_vertex, vertex_count| DrawCall {
        first_vertex,
        index: Some((wgpu::IndexFormat::Uint32, 0)),
        ..point_draw(vertex_count)
    };
    let ids = |r: Vec<Vec<[u32; 4]>>| r.iter().map(|r| r[1][0]).collect::<Vec<_>>();
    let got = records(&gpu, &vs, id_pulling(), &[Some((&vb, 0))], Some(&ib), &draw(300, 5));
    assert!(got.iter().all(|r| r[0] == id_vertex(r[1][0])));
    assert_eq!(ids(got), values[300..305]);
    let got = records(&gpu, &vs, id_pulling(), &[Some((&vb, 0))], Some(&ib), &draw(508, 8));
    assert_eq!(ids(got), [&values[508..], &[0; 4]].concat(), "indices 512.. are past the buffer");
    let e = try_records(&gpu, &vs, id_pulling(), &[Some((&vb, 0))], Some(&ib), &draw(0, 300)).unwrap_err();
    assert!(matches!(e, PrimitiveStageError::DrawTooLarge { what: "indices", .. }), "{e}");
}

/// A layout over more vertex buffer slots than the device's storage buffers per stage hold (the
/// records and the index buffer besides them) is `PrimitiveStageError::Device` from
/// `PrimitiveStage::new`, as documented, not pipelines that fail validation.
#[test]
fn more_vertex_slots_than_storage_buffers_is_a_device_error() {
    let Some(dev) = common::device("more_vertex_slots_than_storage_buffers_is_a_device_error") else { return };
    let per_stage = dev.device.limits().max_storage_buffers_per_shader_stage;
    let slots = (per_stage - 1).min(16);
    if 2 + slots <= per_stage {
        eprintln!("SKIPPED: the device binds {per_stage} storage buffers per stage, more than 16 slots need");
        return;
    }
    let elements = (0..slots)
        .map(|s| PulledElement {
            register: s,
            slot: s,
            offset: 0,
            format: VertexFormat::Uint32,
            instance_step_rate: None,
        })
        .collect();
    let pulling = VertexPulling { elements, strides: vec![4; slots as usize], record_registers: slots };
    let vs_t = translate(
        &copy_vs(slots, &[]),
        &TranslateOptions { vertex_stage: VertexStage::Compute(pulling), ..Default::default() },
    )
    .expect("vs");
    let gs_t = translate(&sink_gs(slots), &TranslateOptions::default()).expect("gs");
    let desc = stage_desc(gs_t.geometry.as_ref().expect("geometry"), (0..slots).collect());
    let module = |wgsl: &str| {
        dev.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(Cow::Owned(wgsl.to_string())),
        })
    };
    let (vsm, gsm) = (module(&vs_t.wgsl), module(&gs_t.wgsl));
    let made = dev.scoped(|device| {
        PrimitiveStage::new(
            device,
            &PrimitiveStageDescriptor {
                label: Some("many slots"),
                stage: desc.clone(),
                vertex: ShaderEntry { module: &vsm, entry_point: &vs_t.entry_point },
                vertex_layout: None,
                geometry: ShaderEntry { module: &gsm, entry_point: &gs_t.entry_point },
                geometry_layout: None,
                draw_vertex: ShaderEntry { module: &gsm, entry_point: &gs_t.entry_point },
                fragment: None,
                primitive: Default::default(),
                depth_stencil: None,
                multisample: Default::default(),
                max_binding_bytes: None,
            },
        )
        .map(|_| ())
    });
    match made {
        Ok(Err(PrimitiveStageError::Device(what))) => assert!(what.contains("storage buffers"), "{what}"),
        other => panic!("{slots} slots, {per_stage} storage buffers per stage: {other:?}"),
    }
}
