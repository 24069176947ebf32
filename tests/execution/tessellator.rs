//! The WGSL tessellator (`dxbc_wgsl_runtime::tessellator`, the contract's kernel) against the CPU
//! tessellator (`dxbc_wgsl_contract::tessellator`), bit for bit, points and indices in order:
//! every reference case of `../shared/tessellator-reference` (batched: every case of a domain ×
//! partitioning × output in one dispatch), and random factors (NaN, ±inf, negative, 0, 1e-7,
//! denormals, 63–65 and the rest), batches of patches per dispatch. The CPU side is checked
//! against Microsoft's reference by `dxbc-wgsl-cli`'s `tessellate` test; here the CPU
//! tessellator's own invariants are property-tested too (counts, index ranges, 2^-16 grid,
//! winding).
//!
//! Runs alone with `cargo test --release -p dxbc-wgsl-tests --test execution_tessellator`; needs
//! no Tint or browser.

#[path = "../tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;

use dxbc_wgsl_gpu::conformance::Device;
use dxbc_wgsl_runtime::contract::tessellator::case::Case;
use dxbc_wgsl_runtime::contract::tessellator::kernel::{MAX_INDICES_PER_PATCH, MAX_POINTS_PER_PATCH};
use dxbc_wgsl_runtime::contract::tessellator::{
    counts, tessellate, Domain, OutputPrimitive, Partitioning, Tessellation,
};
use dxbc_wgsl_runtime::tessellator::Tessellator;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

type Key = (Domain, Partitioning, OutputPrimitive);

/// Runs one batch on the GPU; its per-patch results.
fn gpu_batch(dev: &Device, tess: &Tessellator, key: Key, factors: &[f32]) -> Vec<Tessellation> {
    let (domain, partitioning, output) = key;
    let batch = tess.tessellate(&dev.device, &dev.queue, domain, partitioning, output, factors).expect("tessellate");
    batch.read_back(&dev.device, &dev.queue).expect("read back")
}

/// The first difference between the CPU and GPU results of a batch, if any.
fn first_mismatch(key: Key, factors: &[f32], gpu: &[Tessellation]) -> Option<String> {
    let stride = key.0.factor_count();
    let patches = factors.len() / stride;
    if gpu.len() != patches {
        return Some(format!("{} patches back, {} sent", gpu.len(), patches));
    }
    for (i, (f, g)) in factors.chunks(stride).zip(gpu).enumerate() {
        let cpu = tessellate(key.0, key.1, key.2, f);
        if &cpu != g {
            let what = if cpu.points != g.points {
                let at = cpu.points.iter().zip(&g.points).position(|(a, b)| a != b);
                format!("points differ ({} cpu, {} gpu; first at {at:?})", cpu.points.len(), g.points.len())
            } else {
                let at = cpu.indices.iter().zip(&g.indices).position(|(a, b)| a != b);
                format!("indices differ ({} cpu, {} gpu; first at {at:?})", cpu.indices.len(), g.indices.len())
            };
            return Some(format!(
                "patch {i} of the batch, {} {} {} factors {f:?}: {what}",
                key.0.name(),
                key.1.name(),
                key.2.name()
            ));
        }
    }
    None
}

#[test]
fn reference_cases_on_the_gpu_equal_the_cpu_tessellator() {
    let Some(dir) = dxbc_wgsl_tests::tessellator_reference_dir() else {
        eprintln!(
            "skipped: no tessellator reference (../shared/tessellator-reference or $DXBC_WGSL_TESSELLATOR_REFERENCE)"
        );
        return;
    };
    let Some(dev) = common::device("reference_cases_on_the_gpu_equal_the_cpu_tessellator") else {
        return;
    };
    eprintln!("adapter: {:?}", dev.adapter.get_info());
    let tess = Tessellator::new(&dev.device);
    let text = std::fs::read_to_string(dir.join("cases.txt")).unwrap();
    let mut batches: BTreeMap<String, (Key, Vec<f32>)> = BTreeMap::new();
    let mut cases = 0;
    for line in text.lines() {
        let case = Case::parse(line).unwrap();
        let key = (case.domain, case.partitioning, case.output);
        let name = format!("{} {} {}", case.domain.name(), case.partitioning.name(), case.output.name());
        batches.entry(name).or_insert((key, Vec::new())).1.extend(&case.factors);
        cases += 1;
    }
    let mut failures = Vec::new();
    for (name, (key, factors)) in &batches {
        let gpu = gpu_batch(&dev, &tess, *key, factors);
        if let Some(why) = first_mismatch(*key, factors, &gpu) {
            failures.push(format!("{name}: {why}"));
        }
    }
    eprintln!("{cases} reference cases in {} batches; {} batches differ", batches.len(), failures.len());
    assert_eq!(cases, 416);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Factors worth testing: the special values, the clamp limits and their neighbours, small and
/// fractional values, and anything.
fn factor() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => prop::sample::select(vec![
            f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -0.0, 0.0, 1e-7, 1e-40,
            -1e-40, 1.0, 1.0001, 1.0000076, 1.0000153, 2.0, 2.5, 3.0, 63.0, 63.5, 64.0, 64.5, 65.0,
            f32::MAX, f32::from_bits(0x7f80_0001), 0.5, 1.5,
        ]),
        3 => 0.0f32..70.0,
        2 => 62.5f32..65.5,
        2 => 0.9f32..4.0,
        1 => any::<u32>().prop_map(f32::from_bits),
    ]
}

fn key() -> impl Strategy<Value = Key> {
    let domain = prop::sample::select(vec![Domain::Tri, Domain::Quad, Domain::Isoline]);
    let partitioning = prop::sample::select(vec![
        Partitioning::Integer,
        Partitioning::Pow2,
        Partitioning::FractionalOdd,
        Partitioning::FractionalEven,
    ]);
    let output = prop::sample::select(vec![
        OutputPrimitive::Point,
        OutputPrimitive::Line,
        OutputPrimitive::TriangleCw,
        OutputPrimitive::TriangleCcw,
    ]);
    (domain, partitioning, output)
}

/// A batch: one domain × partitioning × output and 1–300 patches of random factors (a batch of
/// more than 256 patches takes the scan over several blocks).
fn batch() -> impl Strategy<Value = (Key, Vec<f32>)> {
    (key(), 1usize..300)
        .prop_flat_map(|(key, patches)| (Just(key), prop::collection::vec(factor(), patches * key.0.factor_count())))
}

const GPU_BATCHES: u32 = 48;

#[test]
fn random_factors_on_the_gpu_equal_the_cpu_tessellator() {
    let Some(dev) = common::device("random_factors_on_the_gpu_equal_the_cpu_tessellator") else {
        return;
    };
    let tess = Tessellator::new(&dev.device);
    let mut runner = TestRunner::new(Config { cases: GPU_BATCHES, failure_persistence: None, ..Config::default() });
    let patches = std::cell::Cell::new(0usize);
    runner
        .run(&batch(), |(key, factors)| {
            patches.set(patches.get() + factors.len() / key.0.factor_count());
            let gpu = gpu_batch(&dev, &tess, key, &factors);
            match first_mismatch(key, &factors, &gpu) {
                None => Ok(()),
                Some(why) => Err(TestCaseError::fail(why)),
            }
        })
        .unwrap();
    eprintln!("{GPU_BATCHES} random batches, {} patches: GPU equals CPU", patches.get());
}

/// Signed area (× 2) of a triangle of domain points, in u, v.
fn area(t: &Tessellation, tri: &[u32]) -> f64 {
    let p = |i: u32| {
        let [u, v] = t.points[i as usize];
        (f32::from_bits(u) as f64, f32::from_bits(v) as f64)
    };
    let (a, b, c) = (p(tri[0]), p(tri[1]), p(tri[2]));
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}

proptest! {
    #![proptest_config(Config { cases: 2000, failure_persistence: None, ..Config::default() })]

    /// The CPU tessellator's invariants: `counts` agrees, every index names a point, every
    /// coordinate lies on the 2^-16 grid in [0, 1], culling empties the patch, and no triangle
    /// winds against the output winding.
    #[test]
    fn cpu_tessellator_invariants(key in key(), factors in prop::collection::vec(factor(), 6)) {
        let (domain, partitioning, output) = key;
        let f = &factors[..domain.factor_count()];
        let t = tessellate(domain, partitioning, output, f);
        prop_assert_eq!(counts(domain, partitioning, output, f), (t.points.len() as u32, t.indices.len() as u32));
        prop_assert!(t.points.len() as u32 <= MAX_POINTS_PER_PATCH && t.indices.len() as u32 <= MAX_INDICES_PER_PATCH);
        let edges = match domain { Domain::Tri => 3, Domain::Quad => 4, Domain::Isoline => 2 };
        let culled = f[..edges].iter().any(|x| x.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater));
        prop_assert_eq!(culled, t.points.is_empty());
        for &i in &t.indices {
            prop_assert!((i as usize) < t.points.len());
        }
        for p in &t.points {
            for &c in p {
                let x = f32::from_bits(c);
                prop_assert!((0.0..=1.0).contains(&x) && (x * 65536.0).fract() == 0.0, "{}", x);
            }
        }
        if domain != Domain::Isoline && matches!(output, OutputPrimitive::TriangleCw | OutputPrimitive::TriangleCcw) {
            let sign = if output == OutputPrimitive::TriangleCw { 1.0 } else { -1.0 };
            for tri in t.indices.chunks(3) {
                prop_assert!(area(&t, tri) * sign >= 0.0, "triangle {:?} winds the wrong way", tri);
            }
        }
    }
}
