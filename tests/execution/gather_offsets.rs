//! `gather4_po` and `gather4_po_c`, programmable gather offsets, on the GPU against a CPU model
//! of D3D's gather rules.
//!
//! D3D: the footprint of a gather is the 2×2 block of the view's most detailed mip whose
//! top-left texel is `(floor(u·W − 0.5), floor(v·H − 0.5))` plus the offset, the offset being
//! the low 6 bits of each of the offset operand's first two components as a signed value in
//! [-32, 31] (gather4_po (sm5 - asm)); the sampler's address mode then applies to each texel,
//! and `_c` compares each with the reference (D3D11.3 §7.18). Results in x, y, z, w are the
//! texels (i, j+1), (i+1, j+1), (i+1, j), (i, j).
//!
//! One hand-assembled pixel shader per variant (2D or 2D array, with or without comparison,
//! offsets from a register or immediate) draws one case per pixel: the coordinate and the raw
//! offset words come from an `Rgba32Uint` texture (`ld` at the pixel), the array layer is the
//! pixel's row. The gathered texture is 5×4 (a width that is not a power of two, so that
//! `k / 5` is inexact in f32) with two layers; every texel holds its own number 1..40. The
//! comparison variants gather a `Depth16Unorm` copy (texel value n/64) 40 times with references
//! (k + 0.5)/64, k = 0..39, under `less` and add the results: the sum is n again. Each variant
//! runs under three samplers (repeat/clamp, clamp/mirror, mirror/repeat in u/v) — the same WGSL,
//! the address modes coming from the sampler alone. Coordinates are either exactly on a texel
//! boundary (u·W − 0.5 an integer: u = 0.5 on the width of 5, quarters and eighths on the
//! height of 4) or at least 1/256 texel away from one, so D3D's subtexel precision leaves the
//! footprint unambiguous; offsets span [-32, 31] and beyond WGSL's constant range [-8, 7], with
//! words whose bits above the sixth must be ignored (32 → -32, 63 → -1, 0x43 → 3, 0x7FFFFFFF →
//! -1, 0x80000000 → 0). Wine's `test_gather` shader with a programmable offset (from the corpus)
//! runs the same way with its offsets in `cb0`.
//!
//! Planted faults this test catches: the coordinate at the footprint's first texel instead of
//! its shared corner (every case), offsets zero-extended from 6 bits, and the coordinate moved by
//! `offset / size` in f32 (the exact boundary u = 0.5 on the width of 5 then selects the texel
//! before).

use dxbc_wgsl::{ResourceKind, ShaderStage, Translation};
use dxbc_wgsl_gpu::conformance::draw::{
    fullscreen_vs_for, uniform_buffer, Bound, ColorTarget, Draw, DrawError, Program, Renderer,
};
use dxbc_wgsl_tests::asm::*;

#[path = "../tests/common/mod.rs"]
mod common;

const FTOI: u32 = 27;
const ITOF: u32 = 43;
const LD: u32 = 45;
const GATHER4_PO: u32 = 127;
const GATHER4_PO_C: u32 = 128;
const DCL_RESOURCE: u32 = 88;
const DCL_SAMPLER: u32 = 90;
const RESOURCE: u32 = 7;
const SAMPLER: u32 = 6;

/// The gathered texture: width, height, layers.
const W: i64 = 5;
const H: i64 = 4;
const LAYERS: u32 = 2;

/// Texel (i, j) of `layer` holds this number (1..40).
fn texel_number(i: i64, j: i64, layer: u32) -> u32 {
    1 + (i + W * j) as u32 + (W * H) as u32 * layer
}

/// References of the comparison variants: (k + 0.5)/64 for k = 0..REFS, so that the count of
/// passing `less` comparisons against n/64 is n for n ≤ REFS.
const REFS: u32 = 40;

#[derive(Clone, Copy, Debug)]
struct Variant {
    array: bool,
    compare: bool,
    /// Immediate offset words; `None`: from the case texture (a register).
    immediate: Option<[u32; 2]>,
}

/// `dcl_resource_texture{dim} (T,T,T,T) t{reg}`: `dim` 3 2D, 8 2D array, 6 cube;
/// `return_type` 5 float, 4 uint.
fn dcl_resource(reg: u32, dim: u32, return_type: u32) -> Vec<u32> {
    let rt = (0..4).map(|k| return_type << (4 * k)).sum::<u32>();
    vec![DCL_RESOURCE | (dim << 11) | (4 << 24), 0x0010_7000, reg, rt]
}

/// `s0.x` (a select-one operand, as fxc writes a gather's sampler).
fn s0_x() -> Vec<u32> {
    vec![2 | (2 << 2) | (SAMPLER << 12) | (1 << 20), 0]
}

/// `l(x)`, one component.
fn scalar(bits: u32) -> Vec<u32> {
    vec![1 | (IMMEDIATE32 << 12), bits]
}

/// The variant's pixel shader:
///
/// ```text
/// ftoi r0.xy, v0.xyxx                 ; the pixel
/// mov r0.zw, l(0, 0, 0, 0)
/// ld r1.xyzw, r0.xyzw, t1.xyzw        ; (u, v, offset x, offset y) as bits
/// itof r0.z, r0.y                     ; the array layer: the row
/// mov r0.xy, r1.xyxx
/// gather4_po r2.xyzw, r0.xyzx, r1.zwzz (or l(ox, oy, 0, 0)), t0.xyzw, s0.x
/// ; _c: r2 = Σ_k gather4_po_c r3.xyzw, r0.xyzx, r1.zwzz, t0.xyzw, s0.x, l((k + 0.5)/64)
/// mov o0.xyzw, r2.xyzw
/// ```
fn shader(v: Variant) -> Vec<u8> {
    shader_of_dimension(v, if v.array { 8 } else { 3 })
}

/// [`shader`] with t0 of resource dimension `dim`.
fn shader_of_dimension(v: Variant, dim: u32) -> Vec<u8> {
    let mut sampler = vec![DCL_SAMPLER | ((v.compare as u32) << 11) | (3 << 24)];
    sampler.extend(vec![(SAMPLER << 12) | (1 << 20), 0]);
    let decls = [
        sampler,
        dcl_resource(0, dim, 5),
        dcl_resource(1, 3, 4),
        // dcl_input_ps_siv linear noperspective v0.xy, position
        vec![DCL_INPUT_PS_SIV | (4 << 11) | (4 << 24), 0x0010_1032, 0, 1],
    ];
    let inputs = [Input("SV_Position", 1, 3, 0, 0b1111)];
    let offset = match v.immediate {
        Some([x, y]) => imm([x, y, 0, 0]),
        None => src(TEMP, 1, "zwzz"),
    };
    let mut body = vec![
        ins(FTOI, &[dst(TEMP, 0, "xy"), src(INPUT, 0, "xyxx")]),
        ins(MOV, &[dst(TEMP, 0, "zw"), imm([0; 4])]),
        ins(LD, &[dst(TEMP, 1, "xyzw"), src(TEMP, 0, "xyzw"), src(RESOURCE, 1, "xyzw")]),
        ins(ITOF, &[dst(TEMP, 0, "z"), src(TEMP, 0, "yyyy")]),
        ins(MOV, &[dst(TEMP, 0, "xy"), src(TEMP, 1, "xyxx")]),
    ];
    if v.compare {
        body.push(ins(MOV, &[dst(TEMP, 2, "xyzw"), imm([0; 4])]));
        for k in 0..REFS {
            let reference = ((k as f32 + 0.5) / 64.0).to_bits();
            body.push(ins(
                GATHER4_PO_C,
                &[
                    dst(TEMP, 3, "xyzw"),
                    src(TEMP, 0, "xyzx"),
                    offset.clone(),
                    src(RESOURCE, 0, "xyzw"),
                    s0_x(),
                    scalar(reference),
                ],
            ));
            body.push(ins(ADD, &[dst(TEMP, 2, "xyzw"), src(TEMP, 2, "xyzw"), src(TEMP, 3, "xyzw")]));
        }
    } else {
        body.push(ins(
            GATHER4_PO,
            &[dst(TEMP, 2, "xyzw"), src(TEMP, 0, "xyzx"), offset, src(RESOURCE, 0, "xyzw"), s0_x()],
        ));
    }
    body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 2, "xyzw")]));
    pixel_shader_with(0x50, &decls, &inputs, 4, &body, false)
}

/// One case: the coordinate and the two raw offset words.
#[derive(Clone, Copy, Debug)]
struct Case {
    u: f32,
    v: f32,
    offset: [u32; 2],
}

fn cases() -> Vec<Case> {
    // u on the width of 5: 0.5 is exactly on a boundary (2.5 − 0.5 = 2); v on the height of 4:
    // 0.125, 0.375 and 0.625 are.
    let us = [0.45f32, 0.5, 0.13, -0.25, 1.625, 0.0, 0.75, 2.2, 1.0, -0.6, 0.5];
    let vs = [0.375f32, 0.3, 0.125, 0.9, -0.1, 1.2, 0.625, 0.55, 0.375];
    let n = |x: i32| x as u32;
    let offsets = [
        [0, 0],
        [1, n(-1)],
        [n(-1), 2],
        [7, n(-8)],
        [8, n(-9)],
        [31, n(-32)],
        [n(-32), 31],
        [32, 63],
        [0x43, 0xFFFF_FFC5],
        [0x7FFF_FFFF, 0x8000_0000],
        [n(-5), 20],
        [33, 0x1F],
        [n(-13), 12],
        [2, 3],
    ];
    let mut out: Vec<Case> = (0..28)
        .map(|k| Case { u: us[k % us.len()], v: vs[(3 * k + 1) % vs.len()], offset: offsets[k % offsets.len()] })
        .collect();
    // Exact boundaries in both axes, with and without offsets.
    for (u, v, offset) in
        [(0.5, 0.375, [0, 0]), (0.5, 0.125, [1, 1]), (0.5, 0.625, [n(-1), n(-3)]), (0.5, 0.375, [9, n(-10)])]
    {
        out.push(Case { u, v, offset });
    }
    out
}

/// D3D's address modes on an integer texel index of an axis of `size` texels.
fn address(i: i64, size: i64, mode: wgpu::AddressMode) -> i64 {
    match mode {
        wgpu::AddressMode::Repeat => i.rem_euclid(size),
        wgpu::AddressMode::ClampToEdge => i.clamp(0, size - 1),
        wgpu::AddressMode::MirrorRepeat => {
            let m = i.rem_euclid(2 * size);
            if m < size {
                m
            } else {
                2 * size - 1 - m
            }
        }
        other => unreachable!("{other:?}"),
    }
}

/// The low 6 bits of a word as a signed value.
fn offset_of(word: u32) -> i64 {
    i64::from(((word as i32) << 26) >> 26)
}

/// The first texel of the footprint along one axis: floor(c·size − 0.5), computed exactly (f64
/// holds the f32's product with a small integer exactly). Asserts that D3D's subtexel precision
/// (8 bits at least) cannot make it ambiguous: exactly on a boundary or 1/256 texel from one.
fn footprint_start(c: f32, size: i64) -> i64 {
    let t = f64::from(c) * size as f64 - 0.5;
    let frac = t - t.floor();
    assert!(frac == 0.0 || (1.0 / 256.0..=1.0 - 1.0 / 256.0).contains(&frac), "case {c} is too close to a boundary");
    t.floor() as i64
}

/// The expected four results (texel numbers) of a case on `layer`.
fn expected(case: Case, v: Variant, layer: u32, modes: (wgpu::AddressMode, wgpu::AddressMode)) -> [u32; 4] {
    let words = v.immediate.unwrap_or(case.offset);
    let i = footprint_start(case.u, W) + offset_of(words[0]);
    let j = footprint_start(case.v, H) + offset_of(words[1]);
    let layer = if v.array { layer } else { 0 };
    let at = |di: i64, dj: i64| texel_number(address(i + di, W, modes.0), address(j + dj, H, modes.1), layer);
    [at(0, 1), at(1, 1), at(1, 0), at(0, 0)]
}

struct Textures {
    /// The numbers in red (`Rgba8Unorm`), two layers.
    color: wgpu::Texture,
    /// The numbers as depth n/64 (`Depth16Unorm`), two layers.
    depth: wgpu::Texture,
}

fn textures(dev: &dxbc_wgsl_gpu::conformance::Device) -> Textures {
    let size = wgpu::Extent3d { width: W as u32, height: H as u32, depth_or_array_layers: LAYERS };
    let make = |label, format| {
        dev.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        })
    };
    let color = make("numbers", wgpu::TextureFormat::Rgba8Unorm);
    let depth = make("numbers as depth", wgpu::TextureFormat::Depth16Unorm);
    let mut rgba = Vec::new();
    let mut d16 = Vec::new();
    for layer in 0..LAYERS {
        for j in 0..H {
            for i in 0..W {
                let n = texel_number(i, j, layer);
                rgba.extend([n as u8, 200, 100, 255]);
                let unorm = (f64::from(n) / 64.0 * 65535.0).round() as u16;
                d16.extend(unorm.to_le_bytes());
            }
        }
    }
    let write = |texture: &wgpu::Texture, data: &[u8], texel_bytes: u32| {
        dev.queue.write_texture(
            texture.as_image_copy(),
            data,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(texel_bytes * W as u32),
                rows_per_image: Some(H as u32),
            },
            size,
        );
    };
    write(&color, &rgba, 4);
    write(&depth, &d16, 2);
    Textures { color, depth }
}

/// The case texture: per pixel (u, v, offset x, offset y), the same in each row.
fn case_texture(dev: &dxbc_wgsl_gpu::conformance::Device, cases: &[Case]) -> wgpu::Texture {
    let size = wgpu::Extent3d { width: cases.len() as u32, height: LAYERS, depth_or_array_layers: 1 };
    let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("cases"),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba32Uint,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let row: Vec<u32> = cases.iter().flat_map(|c| [c.u.to_bits(), c.v.to_bits(), c.offset[0], c.offset[1]]).collect();
    let words: Vec<u32> = (0..LAYERS).flat_map(|_| row.iter().copied()).collect();
    dev.queue.write_texture(
        texture.as_image_copy(),
        bytemuck::cast_slice(&words),
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(16 * cases.len() as u32), rows_per_image: None },
        size,
    );
    texture
}

fn translate(blob: &[u8]) -> Translation {
    dxbc_wgsl::translate(blob, &Default::default()).unwrap_or_else(|e| {
        let shader = dxbc_wgsl::Shader::parse(blob, &Default::default()).expect("assembled blob parses");
        panic!("translation failed: {e}\n{}", dxbc_wgsl::sm4::disasm::disassemble(&shader.program))
    })
}

/// A view of the gathered texture: both layers as a 2D array, or layer 0 as a 2D texture.
fn gathered_view(textures: &Textures, compare: bool, array: bool) -> wgpu::TextureView {
    let texture = if compare { &textures.depth } else { &textures.color };
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(if array { wgpu::TextureViewDimension::D2Array } else { wgpu::TextureViewDimension::D2 }),
        base_array_layer: 0,
        array_layer_count: Some(if array { LAYERS } else { 1 }),
        ..Default::default()
    })
}

/// A sampler of address modes `modes` (u, v), linear filtering (a gather ignores it) and with
/// `compare`, the `less` comparison.
fn sampler(
    dev: &dxbc_wgsl_gpu::conformance::Device,
    modes: (wgpu::AddressMode, wgpu::AddressMode),
    compare: bool,
) -> wgpu::Sampler {
    dev.device.create_sampler(&wgpu::SamplerDescriptor {
        address_mode_u: modes.0,
        address_mode_v: modes.1,
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        compare: compare.then_some(wgpu::CompareFunction::Less),
        ..Default::default()
    })
}

/// What a draw binds: t0 (gathered), s0, and t1 (the cases) or cb0.
struct Bindings<'a> {
    gathered: wgpu::TextureView,
    sampler: wgpu::Sampler,
    cases: Option<&'a wgpu::Texture>,
    cb0: Option<&'a [u32]>,
}

/// Draws `ps` full-screen into an `Rgba32Float` target of `size` and returns its texels row by
/// row (four floats each).
fn draw(dev: &dxbc_wgsl_gpu::conformance::Device, ps: &Program, bound: &Bindings<'_>, size: (u32, u32)) -> Vec<f32> {
    let vs = fullscreen_vs_for(ps).expect("pass-through vertex shader");
    let target = dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba32Float,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let cases_view = bound.cases.map(|t| t.create_view(&Default::default()));
    let d = Draw {
        vs: &vs,
        ps,
        vertex: Vec::new(),
        topology: wgpu::PrimitiveTopology::TriangleList,
        vertex_count: 3,
        instance_count: 1,
        color: vec![Some(ColorTarget {
            view: target.create_view(&Default::default()),
            layers: Vec::new(),
            format: wgpu::TextureFormat::Rgba32Float,
            clear: true,
        })],
        depth: None,
        sample_count: 1,
        sample_mask: !0,
        viewport: size,
        viewports: Vec::new(),
        selected: false,
    };
    let mut resolve = |stage: ShaderStage, b: &dxbc_wgsl::ResourceBinding| -> Result<Bound, DrawError> {
        assert_eq!(stage, ShaderStage::Pixel, "the vertex shader binds nothing");
        Ok(match (&b.kind, b.register.slot, &cases_view, bound.cb0) {
            (ResourceKind::Sampler { .. }, 0, _, _) => Bound::Sampler(bound.sampler.clone()),
            (ResourceKind::Texture { .. }, 0, _, _) => Bound::View(bound.gathered.clone()),
            (ResourceKind::Texture { .. }, 1, Some(view), _) => Bound::View(view.clone()),
            (ResourceKind::UniformBuffer { size_bytes }, 0, _, Some(words)) => {
                Bound::Buffer(uniform_buffer(dev, words, *size_bytes))
            }
            _ => panic!("unexpected binding {b:?}"),
        })
    };
    if let Err(e) = Renderer::default().draw(dev, &d, &mut resolve) {
        let why = match e {
            DrawError::Skip(s) => s.to_string(),
            DrawError::Fail(f) => f,
        };
        panic!("draw failed: {why}\n{}", ps.wgsl);
    }
    let words = dev.read_texels(&target, 4, 0, [0, 0, size.0, size.1]).expect("read-back");
    words.into_iter().map(f32::from_bits).collect()
}

/// A result as the texel number it stands for: red ·255 (colour), or the count of passing
/// comparisons (depth).
fn number(x: f32, compare: bool) -> u32 {
    let n = if compare { x } else { x * 255.0 };
    assert!(n >= 0.0 && (n - n.round()).abs() < 0.01, "{x} is not a texel's value");
    n.round() as u32
}

fn run(variants: &[Variant], test: &str) {
    let blobs: Vec<(Variant, Vec<u8>)> = variants.iter().map(|&v| (v, shader(v))).collect();
    let programs: Vec<(Variant, Program)> =
        blobs.iter().map(|(v, b)| (*v, Program::from_translation(translate(b)))).collect();
    let Some(dev) = common::device(test) else { return };
    let cases = cases();
    let textures = textures(&dev);
    let case_texture = case_texture(&dev, &cases);
    use wgpu::AddressMode::{ClampToEdge, MirrorRepeat, Repeat};
    let mut failures = Vec::new();
    let mut checked = 0;
    for (v, ps) in &programs {
        for modes in [(Repeat, ClampToEdge), (ClampToEdge, MirrorRepeat), (MirrorRepeat, Repeat)] {
            let bound = Bindings {
                gathered: gathered_view(&textures, v.compare, v.array),
                sampler: sampler(&dev, modes, v.compare),
                cases: Some(&case_texture),
                cb0: None,
            };
            let texels = draw(&dev, ps, &bound, (cases.len() as u32, LAYERS));
            for layer in 0..LAYERS {
                for (k, case) in cases.iter().enumerate() {
                    let at = (layer as usize * cases.len() + k) * 4;
                    let got: Vec<u32> = texels[at..at + 4].iter().map(|&x| number(x, v.compare)).collect();
                    let want = expected(*case, *v, layer, modes);
                    checked += 1;
                    if got != want {
                        failures.push(format!("{v:?} {modes:?} layer {layer} {case:?}: got {got:?}, want {want:?}"));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} gathers differ from D3D's footprint:\n{}\n--- WGSL of the first variant ---\n{}",
        failures.len(),
        failures.join("\n"),
        programs[0].1.wgsl
    );
}

const REGISTER_2D: Variant = Variant { array: false, compare: false, immediate: None };

/// `gather4_po` with offsets from a register, on a 2D texture and a 2D array.
#[test]
fn gather4_po_with_register_offsets_selects_d3d_footprints() {
    run(
        &[REGISTER_2D, Variant { array: true, ..REGISTER_2D }],
        "gather4_po_with_register_offsets_selects_d3d_footprints",
    );
}

/// `gather4_po_c` with offsets from a register, on a 2D texture and a 2D array.
#[test]
fn gather4_po_c_with_register_offsets_compares_d3d_footprints() {
    run(
        &[Variant { compare: true, ..REGISTER_2D }, Variant { array: true, compare: true, immediate: None }],
        "gather4_po_c_with_register_offsets_compares_d3d_footprints",
    );
}

/// Immediate programmable offsets: outside WGSL's constant range (20, -13; -32 and 0x25 → -27)
/// they move the coordinate too; inside it (3, -2) they are WGSL's constant offset.
#[test]
fn gather4_po_with_immediate_offsets_selects_d3d_footprints() {
    let n = |x: i32| x as u32;
    let native = Variant { immediate: Some([3, n(-2)]), ..REGISTER_2D };
    let wgsl = translate(&shader(native)).wgsl;
    let gather = wgsl.lines().find(|l| l.contains("textureGather(")).expect("a textureGather");
    assert!(
        gather.ends_with(", vec2<i32>(3i, -2i));") && !gather.contains("floor"),
        "an offset in [-8, 7] is WGSL's own:\n{wgsl}"
    );
    run(
        &[
            Variant { immediate: Some([20, n(-13)]), ..REGISTER_2D },
            native,
            Variant { array: true, compare: true, immediate: Some([n(-32), 0x25]) },
        ],
        "gather4_po_with_immediate_offsets_selects_d3d_footprints",
    );
}

/// A programmable offset on a cube texture is invalid in D3D (2D textures only): refused.
#[test]
fn gather4_po_on_a_cube_texture_is_refused() {
    let blob = shader_of_dimension(REGISTER_2D, 6);
    let err = dxbc_wgsl::translate(&blob, &Default::default()).expect_err("gather4_po of a cube");
    let text = err.to_string();
    assert!(text.contains("gather4_po on a cube texture"), "{text}");
}

/// Wine's `test_gather` pixel shader with a programmable offset (in the corpus): `gather4_po`
/// at `SV_Position.xy / cb0[0].xy` (ints) with the offset `cb0[0].zw`, drawn into a 10×8 target
/// (coordinates a quarter texel from the boundaries of the 5×4 texture) for several offsets,
/// under each sampler, against the CPU model. (The corpus keeps no expectations of Wine's own for
/// this shader.)
#[test]
fn wine_gather4_po_shader_selects_d3d_footprints() {
    const TEST: &str = "wine_gather4_po_shader_selects_d3d_footprints";
    let Some(corpus) = dxbc_wgsl_tests::corpus_dir() else {
        eprintln!("SKIPPED {TEST}: the shader corpus is absent (set DXBC_WGSL_CORPUS or place it at ../shared/corpus)");
        return;
    };
    let blob = std::fs::read(corpus.join("wine/d3d11/test_gather__gather4_po_code.dxbc")).expect("corpus blob");
    let ps = Program::from_translation(translate(&blob));
    let Some(dev) = common::device(TEST) else { return };
    let textures = textures(&dev);
    let (w, h) = (10u32, 8u32);
    let n = |x: i32| x as u32;
    use wgpu::AddressMode::{ClampToEdge, MirrorRepeat, Repeat};
    let mut failures = Vec::new();
    let mut checked = 0;
    for offset in [[0, 0], [1, n(-1)], [n(-9), 8], [31, n(-32)], [32, 63], [0x7FFF_FFFF, 0x8000_0000]] {
        for modes in [(Repeat, ClampToEdge), (ClampToEdge, MirrorRepeat), (MirrorRepeat, Repeat)] {
            let cb0 = [w, h, offset[0], offset[1]];
            let bound = Bindings {
                gathered: gathered_view(&textures, false, false),
                sampler: sampler(&dev, modes, false),
                cases: None,
                cb0: Some(&cb0),
            };
            let texels = draw(&dev, &ps, &bound, (w, h));
            for y in 0..h {
                for x in 0..w {
                    // div r0.xy, v0.xyxx, r0.xyxx: the pixel centre over the target size.
                    let case = Case { u: (x as f32 + 0.5) / w as f32, v: (y as f32 + 0.5) / h as f32, offset };
                    let at = ((y * w + x) * 4) as usize;
                    let got: Vec<u32> = texels[at..at + 4].iter().map(|&t| number(t, false)).collect();
                    let want = expected(case, REGISTER_2D, 0, modes);
                    checked += 1;
                    if got != want {
                        failures.push(format!("{modes:?} pixel ({x}, {y}) {case:?}: got {got:?}, want {want:?}"));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} gathers differ from D3D's footprint:\n{}\n{}",
        failures.len(),
        failures.join("\n"),
        ps.wgsl
    );
}
