//! Double precision: the WGSL helper library (`dxbc_wgsl::lower::F64_WGSL`) run on the GPU over
//! thousands of operand pairs and compared bit for bit with the host's IEEE-754 doubles (Rust's
//! `f64`: correctly rounded, denormals honoured — what D3D requires of doubles), and hand-assembled
//! shaders with double instructions run through the whole translator.

use dxbc_wgsl_gpu::conformance::table::run_pixel_shader;
#[path = "../tests/common/mod.rs"]
mod common;

use common::device;
use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_tests::asm::*;

fn words(x: f64) -> [u32; 2] {
    let b = x.to_bits();
    [b as u32, (b >> 32) as u32]
}

fn from_words(lo: u32, hi: u32) -> f64 {
    f64::from_bits(u64::from(lo) | u64::from(hi) << 32)
}

// ------------------------------------------------------------------ the helper library, in bulk

/// One case: the operands a, b, c of every helper.
#[derive(Clone, Copy, Debug)]
struct Case {
    a: f64,
    b: f64,
    c: f64,
}

/// Words of results per case (see `SHADER`).
const OUT_WORDS: usize = 32;

const SHADER: &str = r#"
@group(0) @binding(0) var<storage, read> cases: array<vec2<u32>>;
@group(0) @binding(1) var<storage, read_write> results: array<vec4<u32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= arrayLength(&cases) / 3u) {
        return;
    }
    let a = cases[3u * i];
    let b = cases[3u * i + 1u];
    let c = cases[3u * i + 2u];
    let o = 8u * i;
    results[o] = vec4<u32>(f64_add(a, b), f64_mul(a, b));
    results[o + 1u] = vec4<u32>(f64_div(a, b), f64_fma(a, b, c));
    results[o + 2u] = vec4<u32>(f64_min(a, b), f64_max(a, b));
    results[o + 3u] = vec4<u32>(f64_eq(a, b), f64_ne(a, b), f64_lt(a, b), f64_ge(a, b));
    results[o + 4u] = vec4<u32>(f64_to_float(a), f64_to_int(a), f64_to_uint(a), 0u);
    results[o + 5u] = vec4<u32>(f64_from_float(a.y), f64_from_int(a.x));
    results[o + 6u] = vec4<u32>(f64_from_uint(a.y), f64_rcp(a));
    results[o + 7u] = vec4<u32>(f64_saturate(a), 0u, 0u);
}
"#;

/// Runs the helpers over `cases` on the GPU; returns `OUT_WORDS` words per case.
fn run_library(dev: &Device, cases: &[Case]) -> Vec<u32> {
    let source = format!("{}\n{SHADER}", dxbc_wgsl::lower::F64_WGSL);
    let input: Vec<u32> = cases.iter().flat_map(|c| [words(c.a), words(c.b), words(c.c)]).flatten().collect();
    let out_bytes = (cases.len() * OUT_WORDS * 4) as u64;
    let inputs = dev.buffer("f64 cases", bytemuck::cast_slice(&input), wgpu::BufferUsages::STORAGE);
    let results = dev.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("f64 results"),
        size: out_bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let readback = dev.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("f64 read-back"),
        size: out_bytes,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    dev.scoped(|device| {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("f64 library"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &inputs,
                        offset: 0,
                        size: std::num::NonZeroU64::new((input.len() * 4) as u64),
                    }),
                },
                wgpu::BindGroupEntry { binding: 1, resource: results.as_entire_binding() },
            ],
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(cases.len().div_ceil(64) as u32, 1, 1);
        }
        encoder.copy_buffer_to_buffer(&results, 0, &readback, 0, out_bytes);
        dev.queue.submit([encoder.finish()]);
    })
    .expect("dispatch");
    let slice = readback.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = sender.send(r);
    });
    dev.wait().expect("wait");
    receiver.recv().expect("map").expect("map");
    let out = bytemuck::cast_slice::<u8, u32>(&slice.get_mapped_range().expect("mapped")).to_vec();
    readback.unmap();
    out
}

/// A deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A double of sign, biased exponent in `exps` and random fraction.
    fn double_in(&mut self, exps: std::ops::RangeInclusive<u64>) -> f64 {
        let e = exps.start() + self.below(exps.end() - exps.start() + 1);
        f64::from_bits((self.next() & (1 << 63)) | e << 52 | (self.next() & ((1 << 52) - 1)))
    }
    /// A fraction with few bits set (exact ties and carries are likelier).
    fn sparse(&mut self, e: u64) -> f64 {
        let mut frac = 0u64;
        for _ in 0..self.below(4) {
            frac |= 1 << self.below(52);
        }
        if self.below(2) == 0 {
            frac |= 1;
        }
        f64::from_bits((self.next() & (1 << 63)) | e << 52 | frac)
    }
}

/// Values that separate right from plausible-wrong: zeros, infinities, NaNs, denormals, the
/// range's ends, neighbours of one, integers at the int32/uint32 limits, float32 limits.
fn specials() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1.5,
        2.0,
        3.0,
        0.1,
        1.0 / 3.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        from_words(1, 0x7ff0_0000), // signalling NaN
        from_words(0, 0x7ff8_dead), // quiet NaN with a payload
        f64::from_bits(1),          // smallest denormal
        -f64::from_bits(1),
        f64::from_bits(0x000f_ffff_ffff_ffff), // largest denormal
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::MAX,
        f64::MIN,
        1.0 + f64::EPSILON,
        1.0 - f64::EPSILON / 2.0,
        2147483647.0,
        2147483647.999,
        2147483648.0,
        -2147483648.0,
        -2147483648.999,
        -2147483649.0,
        4294967295.0,
        4294967295.5,
        4294967296.0,
        -0.999,
        0.999,
        f64::from(f32::MAX),
        f64::from(f32::MAX) * (1.0 + f64::EPSILON),
        3.4028235677973366e38, // rounds up to float32 infinity
        f64::from(f32::MIN_POSITIVE),
        1.401298464324817e-45,  // smallest float32 denormal
        7.006492321624085e-46,  // half of it: ties to even (0)
        7.006492321624087e-46,  // just above half: rounds up
        2.1019476964872256e-45, // 1.5 x smallest denormal: ties to even (2)
        1e300,
        1e-300,
        9007199254740993.0, // 2^53 + 1 (not representable: 2^53)
    ];
    let n = v.len();
    for k in 0..n {
        v.push(-v[k]);
    }
    v
}

fn cases() -> Vec<Case> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let sp = specials();
    let mut out = Vec::new();
    // Every pair of special values, with a random or special addend.
    for &a in &sp {
        for &b in &sp {
            let c =
                if rng.below(2) == 0 { sp[rng.below(sp.len() as u64) as usize] } else { rng.double_in(1000..=1050) };
            out.push(Case { a, b, c });
        }
    }
    for round in 0..16_000 {
        let (a, b, c) = match round % 9 {
            // Anything.
            0 => (f64::from_bits(rng.next()), f64::from_bits(rng.next()), f64::from_bits(rng.next())),
            // Near each other: alignment shifts of a few bits, cancellation.
            1 => {
                let a = rng.double_in(1000..=1040);
                let e = (a.to_bits() >> 52) & 0x7ff;
                (a, rng.double_in(e - 2..=e + 2), rng.double_in(e - 60..=e + 60))
            }
            // b = -a plus or minus a few ulps: massive cancellation.
            2 => {
                let a = rng.double_in(1..=2046);
                let d = rng.below(5) as i64 - 2;
                (a, -f64::from_bits((a.to_bits() as i64 + d) as u64), rng.double_in(1..=2046))
            }
            // Sparse fractions: exact ties, carries across the word boundary.
            3 => {
                let e = 1000 + rng.below(50);
                let eb = e + rng.below(60);
                (rng.sparse(e), rng.sparse(eb), rng.sparse(e))
            }
            // Denormals and the bottom of the normal range.
            4 => {
                let a = f64::from_bits(rng.next() & 0x801f_ffff_ffff_ffff);
                let b = if rng.below(2) == 0 { rng.double_in(0..=60) } else { rng.double_in(960..=1090) };
                (a, b, f64::from_bits(rng.next() & 0x801f_ffff_ffff_ffff))
            }
            // Products near overflow/underflow, float32 and int32 conversion ranges.
            5 => (rng.double_in(1500..=2046), rng.double_in(1..=600), rng.double_in(880..=1160)),
            // fma with c close to -a*b: the fused rounding is visible.
            6 => {
                let a = rng.double_in(900..=1100);
                let b = rng.double_in(900..=1100);
                let p = -(a * b);
                let d = rng.below(7) as i64 - 3;
                (a, b, f64::from_bits((p.to_bits() as i64 + d) as u64))
            }
            // fma and mul with a product near half an ulp of c: ties and near-ties of the single rounding.
            7 => {
                let k = 50 + rng.below(7);
                let ka = rng.below(k);
                let ec = 1023 + rng.below(2);
                (rng.sparse(1023 - ka), rng.sparse(1023 - (k - ka)), rng.sparse(ec))
            }
            // Integers and halves (conversions).
            _ => {
                let i = rng.next() as i64 >> rng.below(40);
                (i as f64 + if rng.below(2) == 0 { 0.5 } else { 0.0 }, rng.double_in(1020..=1030), 0.0)
            }
        };
        out.push(Case { a, b, c });
    }
    out
}

/// What D3D's double instructions compute, on the host's doubles.
fn expected(c: &Case) -> [u32; OUT_WORDS] {
    let (a, b, cc) = (c.a, c.b, c.c);
    let mut w = [0u32; OUT_WORDS];
    let put = |w: &mut [u32; OUT_WORDS], at: usize, x: f64| w[at..at + 2].copy_from_slice(&words(x));
    put(&mut w, 0, a + b);
    put(&mut w, 2, a * b);
    put(&mut w, 4, a / b);
    put(&mut w, 6, a.mul_add(b, cc));
    let min = if a.is_nan() {
        b
    } else if b.is_nan() || a < b {
        a
    } else {
        b
    };
    let max = if a.is_nan() {
        b
    } else if b.is_nan() || a >= b {
        a
    } else {
        b
    };
    put(&mut w, 8, min);
    put(&mut w, 10, max);
    let mask = |t: bool| if t { u32::MAX } else { 0 };
    w[12] = mask(a == b);
    w[13] = mask(a != b);
    w[14] = mask(a < b);
    w[15] = mask(a >= b);
    w[16] = (a as f32).to_bits();
    w[17] = (a as i32) as u32;
    w[18] = a as u32;
    let [lo, hi] = words(a);
    put(&mut w, 20, f64::from(f32::from_bits(hi)));
    put(&mut w, 22, f64::from(lo as i32));
    put(&mut w, 24, f64::from(hi));
    put(&mut w, 26, 1.0 / a);
    let sat = if a.is_nan() || a.is_sign_negative() { 0.0 } else { a.min(1.0) };
    put(&mut w, 28, sat);
    w
}

const NAMES: [&str; OUT_WORDS] = [
    "add", "add", "mul", "mul", "div", "div", "fma", "fma", "min", "min", "max", "max", "eq", "ne", "lt", "ge", "dtof",
    "dtoi", "dtou", "-", "ftod", "ftod", "itod", "itod", "utod", "utod", "rcp", "rcp", "sat", "sat", "-", "-",
];

/// Whether a result matches: bit for bit, except that any NaN matches any NaN where D3D leaves
/// the NaN's bits open (arithmetic results; `min`/`max`/`sat` and the comparisons are exact).
fn matches(name: &str, exp: &[u32], got: &[u32]) -> bool {
    if exp == got {
        return true;
    }
    let nan = |w: &[u32]| match w.len() {
        2 => from_words(w[0], w[1]).is_nan(),
        _ => f32::from_bits(w[0]).is_nan(),
    };
    matches!(name, "add" | "mul" | "div" | "fma" | "rcp" | "dtof" | "ftod") && nan(exp) && nan(got)
}

#[test]
fn helper_library_matches_ieee_doubles() {
    let Some(dev) = device("helper_library_matches_ieee_doubles") else { return };
    let cases = cases();
    let got = run_library(&dev, &cases);
    let mut failures = Vec::new();
    let mut checked = 0;
    for (n, c) in cases.iter().enumerate() {
        let exp = expected(c);
        let g = &got[n * OUT_WORDS..(n + 1) * OUT_WORDS];
        let mut k = 0;
        while k < OUT_WORDS {
            let name = NAMES[k];
            let width = if k + 1 < OUT_WORDS && NAMES[k + 1] == name && !matches!(name, "-") { 2 } else { 1 };
            if name != "-" {
                checked += 1;
                if !matches(name, &exp[k..k + width], &g[k..k + width]) {
                    failures.push(format!(
                        "{name}({:e} [{:#018x}], {:e} [{:#018x}], {:e}): expected {:08x?}, got {:08x?}",
                        c.a,
                        c.a.to_bits(),
                        c.b,
                        c.b.to_bits(),
                        c.c,
                        &exp[k..k + width],
                        &g[k..k + width]
                    ));
                }
            }
            k += width;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} results differ from IEEE-754 doubles; first ones:\n{}",
        failures.len(),
        failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

// ------------------------------------------------------------------ through the translator

/// cb0 words holding these doubles (two per register).
fn doubles(values: &[f64]) -> Vec<u32> {
    values.iter().flat_map(|&x| words(x)).collect()
}

/// `ps_5_0` with `cb0[...]` holding `cb0`, two temps, `body`, then `mov o0.xyzw, r0.xyzw` into a
/// `uint4` target; returns `o0`'s words.
fn run(dev: &Device, cb0: &[u32], body: &[Vec<u32>]) -> Vec<u32> {
    let regs = cb0.len().div_ceil(4).max(1) as u32;
    let decls = [vec![DCL_CONSTANT_BUFFER | (4 << 24), 0x0020_8e46, 0, regs]];
    let mut body = body.to_vec();
    body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]));
    let blob = pixel_shader_with(0x50, &decls, &[], 2, &body, true);
    run_pixel_shader(dev, &blob, cb0, wgpu::TextureFormat::Rgba32Uint).expect("draw")
}

fn is_nan(lo: u32, hi: u32) -> bool {
    from_words(lo, hi).is_nan()
}

/// 1 + 2^-53 is a tie between 1 and 1 + 2^-52: it rounds to even (1); 1 + 3 * 2^-53 rounds up to
/// 1 + 2^-51. Truncation or rounding half up get one of them wrong.
#[test]
fn dadd_rounds_ties_to_even() {
    let Some(dev) = device("dadd_rounds_ties_to_even") else { return };
    let ulp_half = 2f64.powi(-53);
    // dadd r0.xy, cb0[0].xyxy, cb0[0].zwzw     1 + 2^-53
    // dadd r0.zw, cb0[0].xyxy, cb0[1].xyxy     1 + 3 * 2^-53 (the second double of .xyxy is xy)
    let got = run(
        &dev,
        &doubles(&[1.0, ulp_half, 3.0 * ulp_half, 0.0]),
        &[
            ins(DADD, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyxy"), cb(0, 0, "zwzw")]),
            ins(DADD, &[dst(TEMP, 0, "zw"), cb(0, 0, "xyxy"), cb(0, 1, "xyxy")]),
        ],
    );
    assert_eq!(got, [0, 0x3ff0_0000, 2, 0x3ff0_0000]);
}

/// A carry out of the low word into the high word, and a subtraction that cancels all but the
/// last bit.
#[test]
fn dadd_carries_across_the_word_boundary_and_cancels() {
    let Some(dev) = device("dadd_carries_across_the_word_boundary_and_cancels") else { return };
    // cb0[0] = (0x3ff00000_ffffffff, 2^-52), cb0[1] = (1 + 2^-52, -1)
    // dadd r0.xy, cb0[0].xyxy, cb0[0].zwzw     -> 0x3ff00001_00000000
    // dadd r0.zw, cb0[1].xyxy, cb0[1].zwzw     -> 2^-52 = 0x3cb00000_00000000
    let got = run(
        &dev,
        &doubles(&[from_words(u32::MAX, 0x3ff0_0000), f64::EPSILON, 1.0 + f64::EPSILON, -1.0]),
        &[
            ins(DADD, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyxy"), cb(0, 0, "zwzw")]),
            ins(DADD, &[dst(TEMP, 0, "zw"), cb(0, 1, "xyxy"), cb(0, 1, "zwzw")]),
        ],
    );
    assert_eq!(got, [0, 0x3ff0_0001, 0, 0x3cb0_0000]);
}

/// Denormals are produced and read (D3D flushes float32 denormals but not doubles'); signed zeros
/// follow IEEE-754: -0 + -0 = -0, x - x = +0.
#[test]
fn denormals_and_signed_zeros() {
    let Some(dev) = device("denormals_and_signed_zeros") else { return };
    let tiny = f64::from_bits(1);
    let values = doubles(&[f64::MIN_POSITIVE, 0.5, -0.0, 1.5, tiny, 3.0]);
    // dmul r0.xy, cb0[0].xyxy, cb0[0].zwzw     2^-1022 * 0.5 = 2^-1023 (a denormal, not 0)
    // dadd r0.zw, cb0[1].xyxy, cb0[1].xyxy     -0 + -0 = -0
    let got = run(
        &dev,
        &values,
        &[
            ins(DMUL, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyxy"), cb(0, 0, "zwzw")]),
            ins(DADD, &[dst(TEMP, 0, "zw"), cb(0, 1, "xyxy"), cb(0, 1, "xyxy")]),
        ],
    );
    assert_eq!(got, [0, 0x0008_0000, 0, 0x8000_0000], "denormal product, -0 + -0");
    // dadd r0.xy, cb0[1].zwzw, -cb0[1].zwzw    1.5 - 1.5 = +0
    // dmul r0.zw, cb0[2].xyxy, cb0[2].zwzw     smallest denormal * 3 = 3 * 2^-1074
    let got = run(
        &dev,
        &values,
        &[
            ins(DADD, &[dst(TEMP, 0, "xy"), cb(0, 1, "zwzw"), modified(cb(0, 1, "zwzw"), 1)]),
            ins(DMUL, &[dst(TEMP, 0, "zw"), cb(0, 2, "xyxy"), cb(0, 2, "zwzw")]),
        ],
    );
    assert_eq!(got, [0, 0, 3, 0], "x - x, denormal operand");
}

/// inf - inf and 0 * inf are NaN; comparisons with NaN are false except `dne`; +0 == -0.
#[test]
fn nan_results_and_comparisons() {
    let Some(dev) = device("nan_results_and_comparisons") else { return };
    let values = doubles(&[f64::INFINITY, f64::NAN, 1.0, 0.0, -0.0, f64::NEG_INFINITY, f64::MIN, 0.0]);
    // dadd r0.xy, cb0[0].xyxy, -cb0[0].xyxy    inf - inf
    // dmul r0.zw, cb0[0].xyxy, cb0[1].zwzw     inf * 0
    let got = run(
        &dev,
        &values,
        &[
            ins(DADD, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyxy"), modified(cb(0, 0, "xyxy"), 1)]),
            ins(DMUL, &[dst(TEMP, 0, "zw"), cb(0, 0, "xyxy"), cb(0, 1, "zwzw")]),
        ],
    );
    assert!(is_nan(got[0], got[1]) && is_nan(got[2], got[3]), "inf - inf, inf * 0: {got:08x?}");
    // deq r0.x, NaN, NaN; dne r0.y, NaN, NaN; dlt r0.z, NaN, 1; dge r0.w, 1, NaN
    let got = run(
        &dev,
        &values,
        &[
            ins(DEQ, &[dst(TEMP, 0, "x"), cb(0, 0, "zwzw"), cb(0, 0, "zwzw")]),
            ins(DNE, &[dst(TEMP, 0, "y"), cb(0, 0, "zwzw"), cb(0, 0, "zwzw")]),
            ins(DLT, &[dst(TEMP, 0, "z"), cb(0, 0, "zwzw"), cb(0, 1, "xyxy")]),
            ins(DGE, &[dst(TEMP, 0, "w"), cb(0, 1, "xyxy"), cb(0, 0, "zwzw")]),
        ],
    );
    assert_eq!(got, [0, u32::MAX, 0, 0], "deq/dne/dlt/dge with NaN");
    // deq r0.xy, cb0[1].zwzw, cb0[2].xyxy      (+0 == -0, 0 == -0): one instruction, two results
    // dlt r0.z, -inf, -MAX; dge r0.w, -0, +0
    let got = run(
        &dev,
        &values,
        &[
            ins(DEQ, &[dst(TEMP, 0, "xy"), cb(0, 1, "zwzw"), cb(0, 2, "xyxy")]),
            ins(DLT, &[dst(TEMP, 0, "z"), cb(0, 2, "zwzw"), cb(0, 3, "xyxy")]),
            ins(DGE, &[dst(TEMP, 0, "w"), cb(0, 2, "xyxy"), cb(0, 1, "zwzw")]),
        ],
    );
    assert_eq!(got, [u32::MAX, u32::MAX, u32::MAX, u32::MAX], "signed zeros and infinities");
}

/// `dmin`/`dmax` return the other operand when one is NaN.
#[test]
fn dmin_dmax_with_one_nan() {
    let Some(dev) = device("dmin_dmax_with_one_nan") else { return };
    // dmin r0.xy, NaN, 2.0; dmax r0.zw, 1.0, NaN
    let got = run(
        &dev,
        &doubles(&[f64::NAN, 2.0, 1.0, 0.0]),
        &[
            ins(DMIN, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyxy"), cb(0, 0, "zwzw")]),
            ins(DMAX, &[dst(TEMP, 0, "zw"), cb(0, 1, "xyxy"), cb(0, 0, "xyxy")]),
        ],
    );
    assert_eq!(got, [0, 0x4000_0000, 0, 0x3ff0_0000]);
}

/// `ddiv` and `drcp` are correctly rounded (D3D asks 0.5 ULP of ddiv and 1 ULP of drcp; both give
/// the correctly rounded quotient here): 1/3 = 0x3fd55555_55555555, also into the denormals.
#[test]
fn ddiv_drcp_are_correctly_rounded() {
    let Some(dev) = device("ddiv_drcp_are_correctly_rounded") else { return };
    let values = doubles(&[1.0, 3.0, -0.0, 1e-308, 7.0, 0.0]);
    // ddiv r0.xy, cb0[0].xyxy, cb0[0].zwzw     1 / 3
    // drcp r0.zw, cb0[0].zwzw                  1 / 3
    let got = run(
        &dev,
        &values,
        &[
            ins(DDIV, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyxy"), cb(0, 0, "zwzw")]),
            ins(DRCP, &[dst(TEMP, 0, "zw"), cb(0, 0, "zwzw")]),
        ],
    );
    assert_eq!(got, [0x5555_5555, 0x3fd5_5555, 0x5555_5555, 0x3fd5_5555], "1/3");
    // drcp r0.xy, -0 -> -inf; ddiv r0.zw, 1e-308, 7 (a denormal quotient)
    let got = run(
        &dev,
        &values,
        &[
            ins(DRCP, &[dst(TEMP, 0, "xy"), cb(0, 1, "xyxy")]),
            ins(DDIV, &[dst(TEMP, 0, "zw"), cb(0, 1, "zwzw"), cb(0, 2, "xyxy")]),
        ],
    );
    let [lo, hi] = words(1e-308 / 7.0);
    assert_eq!(got, [0, 0xfff0_0000, lo, hi], "1/-0, denormal quotient");
}

/// `dfma` rounds once: (1 + 2^-27)^2 - 1 keeps the 2^-54 term a `dmul` then `dadd` loses.
#[test]
fn dfma_rounds_once() {
    let Some(dev) = device("dfma_rounds_once") else { return };
    let a = 1.0 + 2f64.powi(-27);
    // dfma r0.xy, a, a, -1
    // dmul r1.xy, a, a; dadd r0.zw, r1.xyxy, -1
    let got = run(
        &dev,
        &doubles(&[a, -1.0]),
        &[
            ins(DFMA, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyxy"), cb(0, 0, "xyxy"), cb(0, 0, "zwzw")]),
            ins(DMUL, &[dst(TEMP, 1, "xy"), cb(0, 0, "xyxy"), cb(0, 0, "xyxy")]),
            ins(DADD, &[dst(TEMP, 0, "zw"), src(TEMP, 1, "xyxy"), cb(0, 0, "zwzw")]),
        ],
    );
    assert_eq!(got, [0x0100_0000, 0x3e50_0000, 0, 0x3e50_0000]);
}

/// `dtof` rounds to nearest even: 1 + 2^-24 is a float32 tie (1.0), 1 + 3 * 2^-24 rounds up;
/// tiny values become float32 denormals, huge ones infinity. The two results of one `dtof` go to
/// the mask's two components.
#[test]
fn dtof_rounds_to_nearest_even() {
    let Some(dev) = device("dtof_rounds_to_nearest_even") else { return };
    let t = 2f64.powi(-24);
    // dtof r0.xy, cb0[0].xyzw; dtof r0.zw, cb0[1].xyzw
    let got = run(
        &dev,
        &doubles(&[1.0 + t, 1.0 + 3.0 * t, 1e-45, 1e39]),
        &[ins(DTOF, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyzw")]), ins(DTOF, &[dst(TEMP, 0, "zw"), cb(0, 1, "xyzw")])],
    );
    assert_eq!(got, [0x3f80_0000, 0x3f80_0002, 1, 0x7f80_0000]);
}

/// `dtoi`/`dtou` truncate toward zero, saturate out-of-range values and infinities, and give 0 for
/// NaN.
#[test]
fn dtoi_dtou_truncate_and_saturate() {
    let Some(dev) = device("dtoi_dtou_truncate_and_saturate") else { return };
    let values = doubles(&[-2.75, 3e9, f64::NEG_INFINITY, f64::NAN, -1.5, 4294967295.9, f64::INFINITY, 2.99]);
    // dtoi r0.xy, cb0[0].xyzw; dtoi r0.zw, cb0[1].xyzw
    let got = run(
        &dev,
        &values,
        &[ins(DTOI, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyzw")]), ins(DTOI, &[dst(TEMP, 0, "zw"), cb(0, 1, "xyzw")])],
    );
    assert_eq!(got, [(-2i32) as u32, 0x7fff_ffff, 0x8000_0000, 0], "dtoi");
    // dtou r0.xy, cb0[2].xyzw; dtou r0.zw, cb0[3].xyzw
    let got = run(
        &dev,
        &values,
        &[ins(DTOU, &[dst(TEMP, 0, "xy"), cb(0, 2, "xyzw")]), ins(DTOU, &[dst(TEMP, 0, "zw"), cb(0, 3, "xyzw")])],
    );
    assert_eq!(got, [0, u32::MAX, u32::MAX, 2], "dtou");
}

/// The 32-bit source of `ftod`/`itod`/`utod` and `dmovc`'s condition: component 0 of the swizzle
/// for the first double (`.xy`), component 1 for the second (`.zw`). A float32 denormal converts
/// exactly (not flushed).
#[test]
fn conversions_and_conditional_moves_map_components_by_position() {
    let Some(dev) = device("conversions_and_conditional_moves_map_components_by_position") else { return };
    // cb0[0] = (f32 denormal 0x00000001, -2.5f, -7, 0x80000000), cb0[1] = doubles (2.5, -0.25),
    // cb0[2] = (0, ~0, 0, 0)
    let mut values = vec![1, 0xc020_0000, (-7i32) as u32, 0x8000_0000];
    values.extend(doubles(&[2.5, -0.25]));
    values.extend([0, u32::MAX, 0, 0]);
    // ftod r0.xyzw, cb0[0].xyxx
    let got = run(&dev, &values, &[ins(FTOD, &[dst(TEMP, 0, "xyzw"), cb(0, 0, "xyxx")])]);
    assert_eq!(got, [0, 0x36a0_0000, 0, 0xc004_0000], "ftod");
    // itod r0.xyzw, cb0[0].zwzz; utod r0.zw, cb0[0].wwww... (second double: component 1)
    let got = run(&dev, &values, &[ins(ITOD, &[dst(TEMP, 0, "xyzw"), cb(0, 0, "zwzz")])]);
    assert_eq!(got, [0, 0xc01c_0000, 0, 0xc1e0_0000], "itod");
    let got = run(&dev, &values, &[ins(UTOD, &[dst(TEMP, 0, "zw"), cb(0, 0, "zwww")])]);
    assert_eq!(got, [0, 0, 0, 0x41e0_0000], "utod of the second component");
    // dmovc r0.xyzw, cb0[2].xyxx, cb0[1].xyzw, d(7.0, 7.0): condition x = 0 -> 7.0, y = ~0 -> -0.25
    let got = run(
        &dev,
        &values,
        &[ins(DMOVC, &[dst(TEMP, 0, "xyzw"), cb(0, 2, "xyxx"), cb(0, 1, "xyzw"), imm64([7.0, 7.0])])],
    );
    assert_eq!(got, [0, 0x401c_0000, 0, 0xbfd0_0000], "dmovc");
}

/// Source modifiers act on the sign bit of the high word; `_sat` clamps doubles to [0, 1].
#[test]
fn modifiers_and_saturate() {
    let Some(dev) = device("modifiers_and_saturate") else { return };
    let values = doubles(&[2.5, -0.25, f64::NAN, -3.0]);
    // dmov_sat r0.xy, cb0[0].xyxy (2.5 -> 1); dmov_sat r0.zw, |cb0[0].zwzw| (0.25)
    let got = run(
        &dev,
        &values,
        &[
            saturated(ins(DMOV, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyxy")])),
            saturated(ins(DMOV, &[dst(TEMP, 0, "zw"), modified(cb(0, 0, "zwzw"), 2)])),
        ],
    );
    assert_eq!(got, [0, 0x3ff0_0000, 0, 0x3fd0_0000], "_sat");
    // dadd_sat r0.xy, NaN, 1 (NaN -> 0); dmov r0.zw, -|cb0[1].zwzw| (-3)
    let got = run(
        &dev,
        &values,
        &[
            saturated(ins(DADD, &[dst(TEMP, 0, "xy"), cb(0, 1, "xyxy"), imm64([1.0, 1.0])])),
            ins(DMOV, &[dst(TEMP, 0, "zw"), modified(cb(0, 1, "zwzw"), 3)]),
        ],
    );
    assert_eq!(got, [0, 0, 0, 0xc008_0000], "NaN saturates to 0, -|x|");
}

// ------------------------------------------------------------------ without a GPU

/// `ps_5_0` with `cb0[1]`, two temps, any extra declarations and `body`; `uint4` output.
fn shader(extra_decls: &[Vec<u32>], body: &[Vec<u32>]) -> Vec<u8> {
    let mut decls = vec![vec![DCL_CONSTANT_BUFFER | (4 << 24), 0x0020_8e46, 0, 1]];
    decls.extend_from_slice(extra_decls);
    pixel_shader_with(0x50, &decls, &[], 2, body, true)
}

/// The output is byte-identical across translations, and holds the helpers the shader calls
/// (with what they call) and no others.
#[test]
fn translation_is_deterministic_and_keeps_only_called_helpers() {
    let blob = shader(
        &[],
        &[
            ins(DADD, &[dst(TEMP, 0, "xy"), cb(0, 0, "xyxy"), cb(0, 0, "zwzw")]),
            ins(DTOF, &[dst(OUTPUT, 0, "x"), src(TEMP, 0, "xyxy")]),
        ],
    );
    let first = dxbc_wgsl::translate(&blob, &Default::default()).expect("translates").wgsl;
    for _ in 0..3 {
        assert_eq!(dxbc_wgsl::translate(&blob, &Default::default()).expect("translates").wgsl, first);
    }
    for called in ["fn f64_add(", "fn f64_to_float(", "fn float_round_pack(", "fn f64_round_pack(", "fn u64_shr_jam("] {
        assert!(first.contains(called), "{called} missing:\n{first}");
    }
    for unused in ["fn f64_div(", "fn f64_fma(", "fn f64_mul(", "fn u64_mul_wide(", "fn u128_", "fn f64_eq("] {
        assert!(!first.contains(unused), "{unused} kept:\n{first}");
    }
}

/// What the lowering relies on is refused up front: a double destination other than `.xy`, `.zw`,
/// `.xyzw`, a 32-bit result of doubles with more than two components, and resources of doubles.
#[test]
fn malformed_double_masks_and_double_resources_are_refused() {
    use dxbc_wgsl::{RefusalReason, TranslateError};
    let refusal = |blob: Vec<u8>| match dxbc_wgsl::translate(&blob, &Default::default()) {
        Err(TranslateError::Unsupported(r)) => r.reason,
        other => panic!("expected a refusal, got {other:?}"),
    };
    let bad_double_mask = shader(&[], &[ins(DADD, &[dst(TEMP, 0, "x"), cb(0, 0, "xyxy"), cb(0, 0, "zwzw")])]);
    assert_eq!(refusal(bad_double_mask), RefusalReason::OperandUnsupported);
    let three_results = shader(&[], &[ins(DEQ, &[dst(TEMP, 0, "xyz"), cb(0, 0, "xyzw"), cb(0, 0, "zwxy")])]);
    assert_eq!(refusal(three_results), RefusalReason::OperandUnsupported);
    // dcl_resource_texture2d (double,double,double,double) t0
    let double_texture = shader(&[vec![88 | (3 << 11) | (4 << 24), 0x0010_7000, 0, 0x7777]], &[]);
    assert_eq!(refusal(double_texture), RefusalReason::Float64);
}
