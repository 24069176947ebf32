//! D3D 1D textures and 1D texture arrays, bound as WGSL 2D textures of height 1, on the GPU
//! against a CPU model of D3D's rules.
//!
//! WebGPU's 1D textures have one mip level and no arrays, so the translator binds a `Texture1D`
//! as `texture_2d` and a `Texture1DArray` as `texture_2d_array` (`ViewDimension::D1AsD2`,
//! `D1ArrayAsD2Array`): the caller creates a 2D texture of height 1 with the D3D mip chain and
//! one layer per slice. Every texel here names itself — `(index, mip level, slice marker, 255)`
//! in `Rgba8Unorm` — so a result says which texel of which level and slice was read.
//!
//! - a compute shader (one thread, straight-line) runs `sample_l` at several LODs (clamped to
//!   the chain, rounded by the point mip filter), with clamp and wrap addressing and an
//!   immediate offset; `ld` at each mip, past the width, past the chain and with an offset;
//!   `sample_d` with gradients in x and in y; slices of a 1D array selected by `.y` (rounded to
//!   nearest even, clamped), with a different slice in `.z` that must not be used;
//!   `sample_c_lz` of a depth 1D array; `resinfo` uint/float/rcpFloat of a 1D texture, a 1D
//!   array and a 2D array, at mips in and past the chain (D3D's layout: a 1D texture's `.yz` are
//!   0, a 1D array's slices in `.y`; rcpFloat inverts the sizes only, so the zeros stay 0 and
//!   the array size stays);
//! - a pixel shader samples with implicit LOD (`sample`, `sample_b`) at `u = pos.x · scale`:
//!   the LOD is D3D's 1D LOD `log2(scale · width)` (+ bias);
//! - a compute shader loads, stores and queries a typed `RWTexture1D` and `RWTexture1DArray`
//!   with threads past the width and past the slices (reads 0, writes dropped);
//! - Wine's `test_texture1d` `ps_ld` shader (from the corpus) reads every mip of the chain.
//!
//! Planted faults this test catches: the mip level read one too far (`lod + 1` in `sample_l`),
//! the array slice taken from `.z`, and `resinfo_rcpFloat` inverting the components D3D sets
//! to 0 (`1/0 = inf`).

use dxbc_wgsl::{ResourceKind, ShaderStage, Translation, ViewDimension};
use dxbc_wgsl_gpu::conformance::draw::{
    fullscreen_vs_for, uniform_buffer, Bound, ColorTarget, Draw, DrawError, Program, Renderer,
};
use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_tests::asm::*;

#[path = "../tests/common/mod.rs"]
mod common;

const LD: u32 = 45;
const RESINFO: u32 = 61;
const SAMPLE: u32 = 69;
const SAMPLE_C_LZ: u32 = 71;
const SAMPLE_L: u32 = 72;
const SAMPLE_D: u32 = 73;
const SAMPLE_B: u32 = 74;
const UDIV: u32 = 78;
const DCL_RESOURCE: u32 = 88;
const DCL_SAMPLER: u32 = 90;
const DCL_UAV_TYPED: u32 = 156;
const LD_UAV_TYPED: u32 = 163;
const STORE_UAV_TYPED: u32 = 164;
const RESOURCE: u32 = 7;
const SAMPLER: u32 = 6;

/// D3D resource dimensions.
const TEXTURE1D: u32 = 2;
const TEXTURE1DARRAY: u32 = 7;
const TEXTURE2DARRAY: u32 = 8;

/// t0: a `Texture1D` of 16 texels and its full chain of 5 mips.
const W0: u32 = 16;
const MIPS0: u32 = 5;
/// t1: a `Texture1DArray` of 8 texels, 3 slices, 2 mips.
const W1: u32 = 8;
const SLICES1: u32 = 3;
const MIPS1: u32 = 2;
/// t2: a depth `Texture1DArray` of 4 texels, 2 slices (value n/64, n = 1 + i + 4·slice).
const W2: u32 = 4;
const SLICES2: u32 = 2;
/// t3: a `Texture2DArray` of 4×2 texels, 3 layers, 2 mips (resinfo only).
const T3: (u32, u32, u32, u32) = (4, 2, 3, 2);

/// The slice marker of texel colours (blue): 0 in t0, 10 + slice in t1.
const SLICE_MARK: u32 = 10;

// ---- assembling ----

/// `dcl_resource_texture{dim} (float,float,float,float) t{reg}`.
fn dcl_resource(reg: u32, dim: u32) -> Vec<u32> {
    let rt = (0..4).map(|k| 5 << (4 * k)).sum::<u32>();
    vec![DCL_RESOURCE | (dim << 11) | (4 << 24), 0x0010_7000, reg, rt]
}

/// `dcl_sampler s{reg}, mode_default` (or `mode_comparison`).
fn dcl_sampler(reg: u32, comparison: bool) -> Vec<u32> {
    vec![DCL_SAMPLER | ((comparison as u32) << 11) | (3 << 24), (SAMPLER << 12) | (1 << 20), reg]
}

/// `dcl_uav_typed_texture{dim} (uint,uint,uint,uint) u{reg}`.
fn dcl_uav_typed(reg: u32, dim: u32) -> Vec<u32> {
    let rt = (0..4).map(|k| 4 << (4 * k)).sum::<u32>();
    vec![DCL_UAV_TYPED | (dim << 11) | (4 << 24), (UAV << 12) | (1 << 20), reg, rt]
}

/// `s{reg}`, as a sampling instruction names its sampler.
fn sampler(reg: u32) -> Vec<u32> {
    vec![(SAMPLER << 12) | (1 << 20), reg]
}

/// `t{reg}.xyzw`.
fn texture(reg: u32) -> Vec<u32> {
    src(RESOURCE, reg, "xyzw")
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// The instruction with `_aoffimmi(u, v, w)` (an extended sample-controls token).
fn aoffimmi(mut instruction: Vec<u32>, u: i32, v: i32, w: i32) -> Vec<u32> {
    let ext = 1 | ((u as u32 & 0xf) << 9) | ((v as u32 & 0xf) << 13) | ((w as u32 & 0xf) << 17);
    instruction[0] |= 1 << 31;
    instruction[0] += 1 << 24;
    instruction.insert(1, ext);
    instruction
}

fn translate(blob: &[u8]) -> Translation {
    let t = dxbc_wgsl::translate(blob, &Default::default()).unwrap_or_else(|e| {
        let shader = dxbc_wgsl::Shader::parse(blob, &Default::default()).expect("assembled blob parses");
        panic!("translation failed: {e}\n{}", dxbc_wgsl::sm4::disasm::disassemble(&shader.program))
    });
    if std::env::var_os("DXBC_WGSL_SKIP_TINT").is_none() {
        let v = dxbc_wgsl_cli::tint::check(&[&t.wgsl]).unwrap_or_else(|e| panic!("{e} (DXBC_WGSL_SKIP_TINT=1 skips)"));
        assert!(v[0].ok, "Tint rejected:\n{}\n{:?}", t.wgsl, v[0].messages);
    }
    t
}

// ---- the CPU model ----

/// D3D's address modes on a texel index of an axis of `size` texels (clamp or wrap).
fn address(i: i64, size: u32, wrap: bool) -> u32 {
    let size = i64::from(size);
    (if wrap { i.rem_euclid(size) } else { i.clamp(0, size - 1) }) as u32
}

/// The mip a point mip filter reads at `lod`: the nearest level (the cases stay 0.2 away from
/// the halves), clamped to the chain.
fn point_mip(lod: f32, mips: u32) -> u32 {
    (lod.round().max(0.0) as u32).min(mips - 1)
}

/// The array slice of a float `.y`: nearest even, clamped (sample (sm4 - asm)).
fn slice_of(y: f32, slices: u32) -> u32 {
    (y.round_ties_even().max(0.0) as u32).min(slices - 1)
}

/// A texel's own colour as bytes: index, level, slice marker, 255.
fn texel(i: u32, level: u32, mark: u32) -> [u32; 4] {
    [i, level, mark, 255]
}

/// A point-sampled 1D texel: `(index, level, marker, 255)` at `u` (+ `offset` texels) of the
/// level `lod` selects.
fn sampled(u: f32, offset: i64, lod: f32, width: u32, mips: u32, mark: u32, wrap: bool) -> [u32; 4] {
    let level = point_mip(lod, mips);
    let w = width >> level;
    let t = f64::from(u) * f64::from(w);
    let at = |t: f64| address(t.floor() as i64 + offset, w, wrap);
    // Near a boundary between texels that differ, the case would depend on rounding.
    assert!(at(t - 0.02) == at(t + 0.02), "case u = {u} is too close to a texel boundary of level {level}");
    texel(at(t), level, mark)
}

/// A result in unorm bytes (each component n/255).
fn bytes_of(words: &[u32]) -> [u32; 4] {
    std::array::from_fn(|k| {
        let x = f32::from_bits(words[k]);
        let n = x * 255.0;
        assert!((n - n.round()).abs() < 0.01 && n >= -0.01, "{x} is not a texel's value");
        n.round() as u32
    })
}

// ---- the textures ----

struct Textures {
    t0: wgpu::Texture,
    t1: wgpu::Texture,
    t2: wgpu::Texture,
    t3: wgpu::Texture,
}

fn make(dev: &Device, size: (u32, u32, u32), mips: u32, format: wgpu::TextureFormat) -> wgpu::Texture {
    dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("1d as 2d"),
        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: size.2 },
        mip_level_count: mips,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    })
}

/// An `rgba32float` render target of `size` (width, height) that can be copied back.
fn render_target(dev: &Device, size: (u32, u32)) -> wgpu::Texture {
    dev.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba32Float,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

/// One full-screen triangle of `vs` and `ps` into `target` ([`render_target`]), cleared first.
fn full_screen_draw<'a>(vs: &'a Program, ps: &'a Program, target: &wgpu::Texture, viewport: (u32, u32)) -> Draw<'a> {
    Draw {
        vs,
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
        viewport,
        viewports: Vec::new(),
        selected: false,
    }
}

/// Writes the self-naming texels of every level and layer of a texture of height 1.
fn fill(dev: &Device, texture: &wgpu::Texture, width: u32, layers: u32, mips: u32, mark: impl Fn(u32) -> u32) {
    for level in 0..mips {
        let w = width >> level;
        let mut data = Vec::new();
        for layer in 0..layers {
            for i in 0..w {
                data.extend(texel(i, level, mark(layer)).map(|b| b as u8));
            }
        }
        dev.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: level,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            &data,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * w), rows_per_image: Some(1) },
            wgpu::Extent3d { width: w, height: 1, depth_or_array_layers: layers },
        );
    }
}

fn depth_value(i: u32, slice: u32) -> u32 {
    1 + i + W2 * slice
}

fn textures(dev: &Device) -> Textures {
    use wgpu::TextureFormat::{Depth16Unorm, Rgba8Unorm};
    let t0 = make(dev, (W0, 1, 1), MIPS0, Rgba8Unorm);
    fill(dev, &t0, W0, 1, MIPS0, |_| 0);
    let t1 = make(dev, (W1, 1, SLICES1), MIPS1, Rgba8Unorm);
    fill(dev, &t1, W1, SLICES1, MIPS1, |s| SLICE_MARK + s);
    let t2 = make(dev, (W2, 1, SLICES2), 1, Depth16Unorm);
    let d16: Vec<u8> = (0..SLICES2)
        .flat_map(|s| (0..W2).map(move |i| (f64::from(depth_value(i, s)) / 64.0 * 65535.0).round() as u16))
        .flat_map(u16::to_le_bytes)
        .collect();
    dev.queue.write_texture(
        t2.as_image_copy(),
        &d16,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(2 * W2), rows_per_image: Some(1) },
        wgpu::Extent3d { width: W2, height: 1, depth_or_array_layers: SLICES2 },
    );
    let t3 = make(dev, (T3.0, T3.1, T3.2), T3.3, Rgba8Unorm);
    Textures { t0, t1, t2, t3 }
}

fn view(texture: &wgpu::Texture, dimension: wgpu::TextureViewDimension) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor { dimension: Some(dimension), ..Default::default() })
}

/// s0 point/clamp, s1 point/wrap (u), s2 `less` comparison, point.
fn samplers(dev: &Device) -> [wgpu::Sampler; 3] {
    let point = |u, compare| {
        dev.device.create_sampler(&wgpu::SamplerDescriptor {
            address_mode_u: u,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Nearest,
            min_filter: wgpu::FilterMode::Nearest,
            mipmap_filter: wgpu::MipmapFilterMode::Nearest,
            lod_max_clamp: 32.0,
            compare,
            ..Default::default()
        })
    };
    [
        point(wgpu::AddressMode::ClampToEdge, None),
        point(wgpu::AddressMode::Repeat, None),
        point(wgpu::AddressMode::ClampToEdge, Some(wgpu::CompareFunction::Less)),
    ]
}

// ---- the compute cases ----

/// One instruction whose result (four words) the compute shader stores, and what D3D returns.
struct Case {
    what: String,
    instruction: Vec<u32>,
    /// Expected words; `bytes` compares the result as unorm bytes instead of bits.
    expected: [u32; 4],
    bytes: bool,
}

fn dst0() -> Vec<u32> {
    dst(TEMP, 0, "xyzw")
}

fn sample_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    // sample_l on t0, clamp (s0) and wrap (s1): u, lod; .y holds junk a 1D texture ignores.
    for &(u, lod, wrap) in &[
        (0.53f32, 0.0f32, false),
        (0.53, 1.0, false),
        (0.53, 2.0, false),
        (0.53, 3.0, false),
        (0.53, 4.0, false),
        (0.53, 9.0, false),
        (0.53, -2.0, false),
        (0.9, 1.2, false),
        (0.9, 2.8, false),
        (0.2, 1.0, false),
        (1.3, 1.0, false),
        (-0.2, 2.0, false),
        (1.3, 1.0, true),
        (-0.2, 2.0, true),
    ] {
        cases.push(Case {
            what: format!("sample_l t0 u={u} lod={lod} wrap={wrap}"),
            instruction: ins(
                SAMPLE_L,
                &[dst0(), imm([f(u), f(7.0), f(5.0), 0]), texture(0), sampler(wrap as u32), imm([f(lod); 4])],
            ),
            expected: sampled(u, 0, lod, W0, MIPS0, 0, wrap),
            bytes: true,
        });
    }
    // An immediate offset moves u (by whole texels of the level read).
    for &(off, wrap) in &[(-1, false), (3, false), (-3, true), (5, true)] {
        let (u, lod) = (0.3f32, 1.0f32);
        cases.push(Case {
            what: format!("sample_l_aoffimmi({off}) t0 u={u} lod={lod} wrap={wrap}"),
            instruction: aoffimmi(
                ins(SAMPLE_L, &[dst0(), imm([f(u), 0, 0, 0]), texture(0), sampler(wrap as u32), imm([f(lod); 4])]),
                off,
                0,
                0,
            ),
            expected: sampled(u, i64::from(off), lod, W0, MIPS0, 0, wrap),
            bytes: true,
        });
    }
    // sample_l on the 1D array t1: the slice from .y (nearest even, clamped); .z holds another.
    for &(u, y, lod) in &[
        (0.3f32, 0.0f32, 0.0f32),
        (0.3, 1.0, 0.0),
        (0.3, 2.0, 1.0),
        (0.7, 1.4, 0.0),
        (0.7, 1.6, 1.0),
        (0.7, 0.5, 0.0),
        (0.7, 1.5, 0.0),
        (0.45, 7.0, 0.0),
        (0.45, -3.0, 1.0),
    ] {
        let z = ((slice_of(y, SLICES1) + 1) % SLICES1) as f32;
        cases.push(Case {
            what: format!("sample_l t1 u={u} slice={y} lod={lod}"),
            instruction: ins(SAMPLE_L, &[dst0(), imm([f(u), f(y), f(z), 0]), texture(1), sampler(0), imm([f(lod); 4])]),
            expected: sampled(u, 0, lod, W1, MIPS1, SLICE_MARK + slice_of(y, SLICES1), false),
            bytes: true,
        });
    }
    // sample_d: the LOD of the larger gradient, log2(|d| · width).
    for &(u, ddx, ddy) in &[
        (0.53f32, 4.0f32 / 16.0, 1.0f32 / 16.0),
        (0.53, 1.0 / 16.0, 8.0 / 16.0),
        (0.53, 0.01, 0.0),
        (0.53, 0.0, 2.0 / 16.0),
        (0.53, 4.0, 0.0),
    ] {
        let lod = (ddx.abs().max(ddy.abs()) * W0 as f32).log2();
        cases.push(Case {
            what: format!("sample_d t0 u={u} ddx={ddx} ddy={ddy}"),
            instruction: ins(
                SAMPLE_D,
                &[
                    dst0(),
                    imm([f(u), 0, 0, 0]),
                    texture(0),
                    sampler(0),
                    imm([f(ddx), f(5.0), 0, 0]),
                    imm([f(ddy), f(3.0), 0, 0]),
                ],
            ),
            expected: sampled(u, 0, lod, W0, MIPS0, 0, false),
            bytes: true,
        });
    }
    for &(u, y, ddx) in &[(0.3f32, 2.0f32, 2.0f32 / 8.0), (0.7, 1.0, 1.0 / 8.0)] {
        let lod = (ddx * W1 as f32).log2();
        cases.push(Case {
            what: format!("sample_d t1 u={u} slice={y} ddx={ddx}"),
            instruction: ins(
                SAMPLE_D,
                &[dst0(), imm([f(u), f(y), f(0.0), 0]), texture(1), sampler(0), imm([f(ddx), 0, 0, 0]), imm([0; 4])],
            ),
            expected: sampled(u, 0, lod, W1, MIPS1, SLICE_MARK + slice_of(y, SLICES1), false),
            bytes: true,
        });
    }
    // sample_c_lz on the depth 1D array: `less` passes when the reference is below the texel.
    for &(u, y, n_ref) in
        &[(0.1f32, 0.0f32, 0.5f32), (0.1, 0.0, 1.5), (0.6, 1.0, 7.5), (0.6, 1.0, 6.5), (0.9, 1.0, 8.5)]
    {
        let i = (u * W2 as f32).floor() as u32;
        let pass = n_ref < depth_value(i, slice_of(y, SLICES2)) as f32;
        let v = if pass { f(1.0) } else { f(0.0) };
        cases.push(Case {
            what: format!("sample_c_lz t2 u={u} slice={y} ref={n_ref}/64"),
            instruction: ins(
                SAMPLE_C_LZ,
                &[dst0(), imm([f(u), f(y), f(1.0 - y), 0]), texture(2), sampler(2), imm([f(n_ref / 64.0); 4])],
            ),
            expected: [v; 4],
            bytes: false,
        });
    }
    cases
}

fn load_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    // ld t0 at (x, mip in .w); .y and .z junk.
    for level in 0..=MIPS0 {
        let w = W0 >> level.min(MIPS0 - 1);
        for x in [0i32, w as i32 - 1, w as i32, -1] {
            let inside = level < MIPS0 && x >= 0 && (x as u32) < w;
            cases.push(Case {
                what: format!("ld t0 x={x} mip={level}"),
                instruction: ins(LD, &[dst0(), imm([x as u32, 3, 9, level]), texture(0)]),
                expected: if inside { texel(x as u32, level, 0) } else { [0; 4] },
                bytes: true,
            });
        }
    }
    // ld_aoffimmi: the offset moves x before the bounds test.
    for &(x, off, level) in &[(2i32, 3i32, 0u32), (5, -5, 1), (6, 2, 1), (0, -1, 0)] {
        let at = x + off;
        let inside = at >= 0 && (at as u32) < (W0 >> level);
        cases.push(Case {
            what: format!("ld_aoffimmi({off}) t0 x={x} mip={level}"),
            instruction: aoffimmi(ins(LD, &[dst0(), imm([x as u32, 0, 0, level]), texture(0)]), off, 0, 0),
            expected: if inside { texel(at as u32, level, 0) } else { [0; 4] },
            bytes: true,
        });
    }
    // ld t1 at (x, slice in .y, mip in .w); .z another slice.
    for &(x, slice, level) in &[(3u32, 0u32, 0u32), (3, 1, 0), (2, 2, 1), (3, 2, 1), (8, 1, 0), (1, 3, 0), (1, 1, 2)] {
        let inside = slice < SLICES1 && level < MIPS1 && x < (W1 >> level);
        cases.push(Case {
            what: format!("ld t1 x={x} slice={slice} mip={level}"),
            instruction: ins(LD, &[dst0(), imm([x, slice, (slice + 1) % SLICES1, level]), texture(1)]),
            expected: if inside { texel(x, level, SLICE_MARK + slice) } else { [0; 4] },
            bytes: true,
        });
    }
    cases
}

/// resinfo modes (control bits 11–12).
const FLOAT: u32 = 0;
const RCP_FLOAT: u32 = 1;
const UINT: u32 = 2;

fn resinfo_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    // (texture, mip, D3D's integer result before the mode: sizes, array size, zeros, mip count;
    // how many leading components are sizes).
    let mut rows: Vec<(u32, u32, [u32; 4], usize)> = Vec::new();
    for level in [0u32, 2, 4, 5, 9] {
        let w = if level < MIPS0 { W0 >> level } else { 0 };
        rows.push((0, level, [w, 0, 0, MIPS0], 1));
    }
    for level in [0u32, 1] {
        rows.push((1, level, [W1 >> level, SLICES1, 0, MIPS1], 1));
    }
    rows.push((2, 0, [W2, SLICES2, 0, 1], 1));
    for level in [0u32, 1] {
        rows.push((3, level, [T3.0 >> level, T3.1 >> level, T3.2, T3.3], 2));
    }
    for (t, level, v, sizes) in rows {
        for mode in [UINT, FLOAT, RCP_FLOAT] {
            let expected = std::array::from_fn(|k| match mode {
                UINT => v[k],
                RCP_FLOAT if k < sizes => f(1.0 / v[k] as f32),
                _ => f(v[k] as f32),
            });
            cases.push(Case {
                what: format!("resinfo mode {mode} t{t} mip={level}"),
                instruction: ins(RESINFO | (mode << 11), &[dst0(), imm([level; 4]), texture(t)]),
                expected,
                bytes: false,
            });
        }
    }
    cases
}

/// One thread: each case's instruction into r0, stored at `u0[16 · k]`.
fn compute_blob(cases: &[Case]) -> Vec<u8> {
    let decls = [
        dcl_sampler(0, false),
        dcl_sampler(1, false),
        dcl_sampler(2, true),
        dcl_resource(0, TEXTURE1D),
        dcl_resource(1, TEXTURE1DARRAY),
        dcl_resource(2, TEXTURE1DARRAY),
        dcl_resource(3, TEXTURE2DARRAY),
        dcl_uav_raw(0, false),
    ];
    let mut body = Vec::new();
    for (k, c) in cases.iter().enumerate() {
        body.push(c.instruction.clone());
        body.push(ins(STORE_RAW, &[dst(UAV, 0, "xyzw"), imm([16 * k as u32; 4]), src(TEMP, 0, "xyzw")]));
    }
    compute_shader([1, 1, 1], &decls, 1, &body)
}

fn run_compute(dev: &Device, cs: &Program, textures: &Textures, words: usize) -> Vec<u32> {
    use wgpu::TextureViewDimension::{D2Array, D2};
    let samplers = samplers(dev);
    let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let out = dev.buffer("results", &vec![0xEEu8; words * 4], usage);
    let mut resolve = |_: ShaderStage, b: &dxbc_wgsl::ResourceBinding| -> Result<Bound, DrawError> {
        Ok(match (&b.kind, b.register.slot) {
            (ResourceKind::Sampler { .. }, s) => Bound::Sampler(samplers[s as usize].clone()),
            (ResourceKind::Texture { .. }, 0) => Bound::View(view(&textures.t0, D2)),
            (ResourceKind::Texture { .. }, 1) => Bound::View(view(&textures.t1, D2Array)),
            (ResourceKind::Texture { .. }, 2) => Bound::View(view(&textures.t2, D2Array)),
            (ResourceKind::Texture { .. }, 3) => Bound::View(view(&textures.t3, D2Array)),
            (ResourceKind::StorageBuffer { .. }, 0) => Bound::Buffer(out.clone()),
            _ => panic!("unexpected binding {b:?}"),
        })
    };
    if let Err(e) = Renderer::default().dispatch(dev, cs, [1, 1, 1], &mut resolve) {
        let why = match e {
            DrawError::Skip(s) => s.to_string(),
            DrawError::Fail(f) => f,
        };
        panic!("dispatch failed: {why}\n{}", cs.wgsl);
    }
    common::read_words(dev, &out)
}

fn check(cases: &[Case], words: &[u32], wgsl: &str) {
    let mut failures = Vec::new();
    for (k, c) in cases.iter().enumerate() {
        let got = &words[4 * k..4 * k + 4];
        let ok = if c.bytes { bytes_of(got) == c.expected } else { got == c.expected };
        if !ok {
            let shown = if c.bytes { format!("{:?}", bytes_of(got)) } else { format!("{got:08x?}") };
            let want = if c.bytes { format!("{:?}", c.expected) } else { format!("{:08x?}", c.expected) };
            failures.push(format!("{}: got {shown}, want {want}", c.what));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from D3D:\n{}\n--- WGSL ---\n{wgsl}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn run_cases(test: &str, cases: Vec<Case>) {
    let t = translate(&compute_blob(&cases));
    let dims: Vec<(u32, ViewDimension)> = t
        .bindings
        .iter()
        .filter_map(|b| match b.kind {
            ResourceKind::Texture { dimension, .. } => Some((b.register.slot, dimension)),
            _ => None,
        })
        .collect();
    for (slot, d) in &dims {
        let want = match *slot {
            0 => ViewDimension::D1AsD2,
            1 | 2 => ViewDimension::D1ArrayAsD2Array,
            _ => ViewDimension::D2Array,
        };
        assert_eq!(*d, want, "t{slot}'s binding tells the caller which view to create");
    }
    let cs = Program::from_translation(t);
    let Some(dev) = common::device(test) else { return };
    let textures = textures(&dev);
    let words = run_compute(&dev, &cs, &textures, 4 * cases.len());
    check(&cases, &words, &cs.wgsl);
}

/// `sample_l` (LODs, clamping, wrapping, offsets), 1D-array slices, `sample_d` and
/// `sample_c_lz` read the texel D3D reads.
#[test]
fn sampling_1d_textures_reads_d3d_texels() {
    run_cases("sampling_1d_textures_reads_d3d_texels", sample_cases());
}

/// `ld` at every mip, past the width and the chain, with offsets, and on slices of a 1D array.
#[test]
fn loads_from_1d_textures_read_d3d_texels() {
    run_cases("loads_from_1d_textures_read_d3d_texels", load_cases());
}

/// `resinfo` with D3D's 1D layout, and `_rcpFloat` leaving zeros and array sizes alone.
#[test]
fn resinfo_of_1d_textures_has_d3d_layout() {
    run_cases("resinfo_of_1d_textures_has_d3d_layout", resinfo_cases());
}

// ---- implicit LOD in a pixel shader ----

/// `u = pos.x · cb0.x + cb0.w` on t0 (`sample`, then `sample_b` with bias `cb0.z`) and on t1
/// at slice `cb0.y`: `o0 = (index, level of sample, level of sample_b, slice marker + 16 ·
/// level on t1)` as unorm bytes.
///
/// ```text
/// mad r0.x, v0.x, cb0[0].x, cb0[0].w
/// mov r0.y, cb0[0].y
/// sample r1.xyzw, r0.xyxx, t0.xyzw, s0
/// sample_b r2.xyzw, r0.xyxx, t0.xyzw, s0, cb0[0].z
/// sample r3.xyzw, r0.xyxx, t1.xyzw, s0
/// mov o0.xy, r1.xyxx
/// mov o0.z, r2.y
/// mad o0.w, r3.y, l(16), r3.z
/// ```
fn implicit_lod_shader() -> Vec<u8> {
    let decls = [
        vec![DCL_CONSTANT_BUFFER | (4 << 24), 0x0020_8e46, 0, 1],
        dcl_sampler(0, false),
        dcl_resource(0, TEXTURE1D),
        dcl_resource(1, TEXTURE1DARRAY),
        // dcl_input_ps_siv linear noperspective v0.xy, position
        vec![DCL_INPUT_PS_SIV | (4 << 11) | (4 << 24), 0x0010_1032, 0, 1],
    ];
    let inputs = [Input("SV_Position", 1, 3, 0, 0b1111)];
    let body = [
        ins(MAD, &[dst(TEMP, 0, "x"), src(INPUT, 0, "xxxx"), cb(0, 0, "xxxx"), cb(0, 0, "wwww")]),
        ins(MOV, &[dst(TEMP, 0, "y"), cb(0, 0, "yyyy")]),
        ins(SAMPLE, &[dst(TEMP, 1, "xyzw"), src(TEMP, 0, "xyxx"), texture(0), sampler(0)]),
        ins(SAMPLE_B, &[dst(TEMP, 2, "xyzw"), src(TEMP, 0, "xyxx"), texture(0), sampler(0), cb(0, 0, "zzzz")]),
        ins(SAMPLE, &[dst(TEMP, 3, "xyzw"), src(TEMP, 0, "xyxx"), texture(1), sampler(0)]),
        ins(MOV, &[dst(OUTPUT, 0, "xy"), src(TEMP, 1, "xyxx")]),
        ins(MOV, &[dst(OUTPUT, 0, "z"), src(TEMP, 2, "yyyy")]),
        ins(MAD, &[dst(OUTPUT, 0, "w"), src(TEMP, 3, "yyyy"), imm([f(16.0); 4]), src(TEMP, 3, "zzzz")]),
    ];
    pixel_shader_with(0x40, &decls, &inputs, 4, &body, false)
}

/// Implicit LOD of `sample` and `sample_b` in a draw is D3D's 1D LOD: `log2(|du/dx| · width)`
/// (+ bias), the row's derivatives being zero.
#[test]
fn implicit_lod_of_1d_textures_is_d3d_lod() {
    const TEST: &str = "implicit_lod_of_1d_textures_is_d3d_lod";
    let ps = Program::from_translation(translate(&implicit_lod_shader()));
    let Some(dev) = common::device(TEST) else { return };
    let vs = fullscreen_vs_for(&ps).expect("pass-through vertex shader");
    let textures = textures(&dev);
    let [s0, _, _] = samplers(&dev);
    let (w, h) = (8u32, 2u32);
    let mut failures = Vec::new();
    let mut renderer = Renderer::default();
    // scale = 2^k / 16: the LOD on t0 is k, on t1 (8 wide) k − 1.
    for (k, bias, slice) in [
        (-1i32, 1.0f32, 0.0f32),
        (0, 0.0, 1.0),
        (1, 1.0, 2.0),
        (2, -1.0, 1.0),
        (3, 1.0, 0.0),
        (4, 0.0, 2.0),
        (6, 0.0, 1.0),
    ] {
        let scale = 2f32.powi(k) / W0 as f32;
        let target = render_target(&dev, (w, h));
        let d = full_screen_draw(&vs, &ps, &target, (w, h));
        // 0.3 of a texel of the level read past the pixel's texel centre (any level is then
        // read away from its texel boundaries).
        let cb0 = [f(scale), f(slice), f(bias), f(0.3 * scale)];
        let mut resolve = |stage: ShaderStage, b: &dxbc_wgsl::ResourceBinding| -> Result<Bound, DrawError> {
            assert_eq!(stage, ShaderStage::Pixel, "the vertex shader binds nothing");
            Ok(match (&b.kind, b.register.slot) {
                (ResourceKind::Sampler { .. }, 0) => Bound::Sampler(s0.clone()),
                (ResourceKind::Texture { .. }, 0) => Bound::View(view(&textures.t0, wgpu::TextureViewDimension::D2)),
                (ResourceKind::Texture { .. }, 1) => {
                    Bound::View(view(&textures.t1, wgpu::TextureViewDimension::D2Array))
                }
                (ResourceKind::UniformBuffer { size_bytes }, 0) => {
                    Bound::Buffer(uniform_buffer(&dev, &cb0, *size_bytes))
                }
                _ => panic!("unexpected binding {b:?}"),
            })
        };
        if let Err(e) = renderer.draw(&dev, &d, &mut resolve) {
            let why = match e {
                DrawError::Skip(s) => s.to_string(),
                DrawError::Fail(f) => f,
            };
            panic!("draw failed: {why}\n{}", ps.wgsl);
        }
        let texels = dev.read_texels(&target, 4, 0, [0, 0, w, h]).expect("read-back");
        let lod = k as f32;
        for y in 0..h {
            for x in 0..w {
                let u = (x as f32 + 0.8) * scale;
                let plain = sampled(u, 0, lod, W0, MIPS0, 0, false);
                let biased = sampled(u, 0, lod + bias, W0, MIPS0, 0, false);
                let array = sampled(u, 0, lod - 1.0, W1, MIPS1, SLICE_MARK + slice_of(slice, SLICES1), false);
                let want = [plain[0], plain[1], biased[1], array[2] + 16 * array[1]];
                let at = ((y * w + x) * 4) as usize;
                let got = bytes_of(&texels[at..at + 4]);
                if got != want {
                    failures.push(format!("scale 2^{k}/16 bias {bias} pixel ({x}, {y}): got {got:?}, want {want:?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} pixels differ from D3D:\n{}\n{}", failures.len(), failures.join("\n"), ps.wgsl);
}

// ---- typed UAVs ----

/// u1: `RWTexture1D<uint>` (R32_UINT, 8 texels), u2: `RWTexture1DArray<uint>` (4 texels, 3
/// slices); u0 the results. Thread t (16 of them):
///
/// ```text
/// ld_uav_typed r1.x, vThreadID.xxxx, u1.xyzw       ; u0[t] = u1[t] (0 past the width)
/// store_raw u0.x, 4t, r1.x
/// iadd r1.y, vThreadID.x, l(100)
/// store_uav_typed u1.xyzw, vThreadID.xxxx, r1.yyyy  ; u1[t] = 100 + t (dropped past it)
/// udiv r2.y, r2.x, vThreadID.x, l(5)               ; x = t % 5, slice = t / 5
/// ld_uav_typed r1.z, r2.xyxx, u2.xxxx              ; u0[16 + t] = u2[x, slice]
/// store_raw u0.x, 64 + 4t, r1.z
/// iadd r1.w, vThreadID.x, l(1000)
/// store_uav_typed u2.xyzw, r2.xyxx, r1.wwww        ; u2[x, slice] = 1000 + t
/// resinfo_uint r3.xyzw, l(0), u2.xyzw              ; u0[32..36]
/// resinfo_rcpFloat r4.xyzw, l(0), u1.xyzw          ; u0[36..40]
/// ```
fn uav_blob() -> Vec<u8> {
    let decls = [
        dcl_uav_raw(0, false),
        dcl_uav_typed(1, TEXTURE1D),
        dcl_uav_typed(2, TEXTURE1DARRAY),
        dcl_thread_input(THREAD_ID, "x"),
    ];
    let tid = || special(THREAD_ID, "xxxx");
    let u0 = |m| dst(UAV, 0, m);
    let body = [
        ins(LD_UAV_TYPED, &[dst(TEMP, 1, "x"), tid(), src(UAV, 1, "xyzw")]),
        ins(ISHL, &[dst(TEMP, 0, "x"), tid(), imm([2; 4])]),
        ins(STORE_RAW, &[u0("x"), src(TEMP, 0, "xxxx"), src(TEMP, 1, "xxxx")]),
        ins(IADD, &[dst(TEMP, 1, "y"), tid(), imm([100; 4])]),
        ins(STORE_UAV_TYPED, &[dst(UAV, 1, "xyzw"), tid(), src(TEMP, 1, "yyyy")]),
        ins(UDIV, &[dst(TEMP, 2, "y"), dst(TEMP, 2, "x"), tid(), imm([5; 4])]),
        ins(LD_UAV_TYPED, &[dst(TEMP, 1, "z"), src(TEMP, 2, "xyxx"), src(UAV, 2, "xxxx")]),
        ins(IADD, &[dst(TEMP, 0, "y"), src(TEMP, 0, "xxxx"), imm([64; 4])]),
        ins(STORE_RAW, &[u0("x"), src(TEMP, 0, "yyyy"), src(TEMP, 1, "zzzz")]),
        ins(IADD, &[dst(TEMP, 1, "w"), tid(), imm([1000; 4])]),
        ins(STORE_UAV_TYPED, &[dst(UAV, 2, "xyzw"), src(TEMP, 2, "xyxx"), src(TEMP, 1, "wwww")]),
        ins(RESINFO | (UINT << 11), &[dst(TEMP, 3, "xyzw"), imm([0; 4]), src(UAV, 2, "xyzw")]),
        ins(STORE_RAW, &[u0("xyzw"), imm([128; 4]), src(TEMP, 3, "xyzw")]),
        ins(RESINFO | (RCP_FLOAT << 11), &[dst(TEMP, 4, "xyzw"), imm([0; 4]), src(UAV, 1, "xyzw")]),
        ins(STORE_RAW, &[u0("xyzw"), imm([144; 4]), src(TEMP, 4, "xyzw")]),
    ];
    compute_shader([16, 1, 1], &decls, 5, &body)
}

/// Typed `RWTexture1D` and `RWTexture1DArray` accesses at `(x, 0)` of 2D storage textures of
/// height 1: loads past the width or the slices read 0, stores there are dropped, `resinfo` has
/// D3D's layout (one mip level).
#[test]
fn typed_1d_uavs_load_store_and_drop_out_of_bounds() {
    const TEST: &str = "typed_1d_uavs_load_store_and_drop_out_of_bounds";
    let t = translate(&uav_blob());
    for b in &t.bindings {
        if let ResourceKind::StorageTexture { dimension, .. } = b.kind {
            let want = if b.register.slot == 1 { ViewDimension::D1AsD2 } else { ViewDimension::D1ArrayAsD2Array };
            assert_eq!(dimension, want, "u{}", b.register.slot);
        }
    }
    let cs = Program::from_translation(t);
    let Some(dev) = common::device(TEST) else { return };
    let (w1, w2, slices) = (8u32, 4u32, 3u32);
    let storage = |width, layers, data: &[u32]| {
        let texture = dev.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("1d uav as 2d"),
            size: wgpu::Extent3d { width, height: 1, depth_or_array_layers: layers },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::R32Uint,
            usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        dev.queue.write_texture(
            texture.as_image_copy(),
            bytemuck::cast_slice(data),
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * width), rows_per_image: Some(1) },
            wgpu::Extent3d { width, height: 1, depth_or_array_layers: layers },
        );
        texture
    };
    let initial1: Vec<u32> = (0..w1).map(|x| 50 + x).collect();
    let initial2: Vec<u32> = (0..slices).flat_map(|s| (0..w2).map(move |x| 500 + 10 * s + x)).collect();
    let u1 = storage(w1, 1, &initial1);
    let u2 = storage(w2, slices, &initial2);
    let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let out = dev.buffer("results", &[0xEEu8; 40 * 4], usage);
    let mut resolve = |_: ShaderStage, b: &dxbc_wgsl::ResourceBinding| -> Result<Bound, DrawError> {
        Ok(match (&b.kind, b.register.slot) {
            (ResourceKind::StorageBuffer { .. }, 0) => Bound::Buffer(out.clone()),
            (ResourceKind::StorageTexture { .. }, 1) => Bound::View(view(&u1, wgpu::TextureViewDimension::D2)),
            (ResourceKind::StorageTexture { .. }, 2) => Bound::View(view(&u2, wgpu::TextureViewDimension::D2Array)),
            _ => panic!("unexpected binding {b:?}"),
        })
    };
    if let Err(e) = Renderer::default().dispatch(&dev, &cs, [1, 1, 1], &mut resolve) {
        let why = match e {
            DrawError::Skip(s) => s.to_string(),
            DrawError::Fail(f) => f,
        };
        panic!("dispatch failed: {why}\n{}", cs.wgsl);
    }
    let words = common::read_words(&dev, &out);
    let mut want = vec![0u32; 40];
    for t in 0..16u32 {
        want[t as usize] = if t < w1 { 50 + t } else { 0 };
        let (x, s) = (t % 5, t / 5);
        want[16 + t as usize] = if x < w2 && s < slices { 500 + 10 * s + x } else { 0 };
    }
    want[32..36].copy_from_slice(&[w2, slices, 0, 1]);
    want[36..40].copy_from_slice(&[f(1.0 / w1 as f32), 0, 0, f(1.0)]);
    assert_eq!(words, want, "loads (0 out of bounds) and resinfo\n{}", cs.wgsl);
    let stored1 = dev.read_texels(&u1, 1, 0, [0, 0, w1, 1]).expect("read-back");
    assert_eq!(stored1, (0..w1).map(|x| 100 + x).collect::<Vec<_>>(), "RWTexture1D after the stores");
    for s in 0..slices {
        let stored = dev.read_texels(&u2, 1, s, [0, 0, w2, 1]).expect("read-back");
        let want: Vec<u32> = (0..w2).map(|x| 1000 + 5 * s + x).collect();
        assert_eq!(stored, want, "RWTexture1DArray slice {s} after the stores (those past it dropped)");
    }
}

/// A gather from a 1D texture is invalid in D3D (gathers read 2D and cube textures): refused.
#[test]
fn gather_from_a_1d_texture_is_refused() {
    const GATHER4: u32 = 109;
    let decls = [dcl_sampler(0, false), dcl_resource(0, TEXTURE1D), dcl_uav_raw(0, false)];
    let body = [
        ins(GATHER4, &[dst0(), imm([f(0.5), 0, 0, 0]), texture(0), sampler(0)]),
        ins(STORE_RAW, &[dst(UAV, 0, "xyzw"), imm([0; 4]), src(TEMP, 0, "xyzw")]),
    ];
    let err = dxbc_wgsl::translate(&compute_shader([1, 1, 1], &decls, 1, &body), &Default::default())
        .expect_err("gather4 of a 1D texture");
    assert!(err.to_string().contains("gather from a 1D"), "{err}");
}

/// Wine's `test_texture1d` `ps_ld` shader (in the corpus), which needs a 1D mip chain:
/// `resinfo` of mip `cb0.x`, then `ld` at `(ftoi(width · pos.x / 640), mip)`, drawn into a
/// 640×1 target for every mip of t0 and one past the chain (zero there). WebGPU's own 1D
/// textures could not hold the chain.
#[test]
fn wine_texture1d_ld_shader_reads_each_mip() {
    const TEST: &str = "wine_texture1d_ld_shader_reads_each_mip";
    let Some(corpus) = dxbc_wgsl_tests::corpus_dir() else {
        eprintln!("SKIPPED {TEST}: the shader corpus is absent (set DXBC_WGSL_CORPUS or place it at ../shared/corpus)");
        return;
    };
    let blob = std::fs::read(corpus.join("wine/d3d11/test_texture1d__ps_ld_code.dxbc")).expect("corpus blob");
    let ps = Program::from_translation(translate(&blob));
    let Some(dev) = common::device(TEST) else { return };
    let vs = fullscreen_vs_for(&ps).expect("pass-through vertex shader");
    let textures = textures(&dev);
    let (w, h) = (640u32, 1u32);
    let mut renderer = Renderer::default();
    let mut failures = Vec::new();
    for level in 0..=MIPS0 {
        let target = render_target(&dev, (w, h));
        let d = full_screen_draw(&vs, &ps, &target, (w, h));
        let cb0 = [f(level as f32), 0, 0, 0];
        let mut resolve = |_: ShaderStage, b: &dxbc_wgsl::ResourceBinding| -> Result<Bound, DrawError> {
            Ok(match (&b.kind, b.register.slot) {
                (ResourceKind::Texture { dimension: ViewDimension::D1AsD2, .. }, 0) => {
                    Bound::View(view(&textures.t0, wgpu::TextureViewDimension::D2))
                }
                (ResourceKind::UniformBuffer { size_bytes }, 0) => {
                    Bound::Buffer(uniform_buffer(&dev, &cb0, *size_bytes))
                }
                _ => panic!("unexpected binding {b:?}"),
            })
        };
        if let Err(e) = renderer.draw(&dev, &d, &mut resolve) {
            let why = match e {
                DrawError::Skip(s) => s.to_string(),
                DrawError::Fail(f) => f,
            };
            panic!("draw failed: {why}\n{}", ps.wgsl);
        }
        let texels = dev.read_texels(&target, 4, 0, [0, 0, w, h]).expect("read-back");
        for x in 0..w {
            let want = if level < MIPS0 {
                let width = W0 >> level;
                // mul by the width, then by 1/640 (0.0015625 in the shader), in f32; ftoi.
                let i = (width as f32 * (x as f32 + 0.5) * 0.0015625f32) as u32;
                texel(i, level, 0)
            } else {
                [0; 4]
            };
            let at = (x * 4) as usize;
            let got = bytes_of(&texels[at..at + 4]);
            if got != want {
                failures.push(format!("mip {level} pixel {x}: got {got:?}, want {want:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} pixels differ from D3D:\n{}\n{}", failures.len(), failures.join("\n"), ps.wgsl);
}
