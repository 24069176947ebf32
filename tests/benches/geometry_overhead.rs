//! The primitive stage's cost: a pass-through geometry shader (triangle in, the same triangle
//! out as a strip) over meshes of 1k, 100k and 1M triangles, against the same mesh drawn by the
//! same vertex and pixel shaders without one. One iteration is one frame: encode (the primitive
//! stage's `prepare` for the geometry pass), draw into a 256×256 target, submit, wait for the
//! device. `cargo bench -p dxbc-wgsl-tests --bench geometry_overhead`; the ratio per size is in
//! docs/geometry.md. `DXBC_WGSL_BENCH_SIZES=1000,100000` picks the sizes.

#[path = "pass_through.rs"]
#[allow(dead_code)] // the target is read back by execution/geometry_large.rs only
mod pass_through;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dxbc_wgsl_gpu::conformance::Device;
use pass_through::{frame, mesh, passes};
use std::time::Duration;

fn sizes() -> Vec<u32> {
    std::env::var("DXBC_WGSL_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 100_000, 1_000_000])
}

fn bench(c: &mut Criterion) {
    let dev = match Device::new() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("SKIPPED geometry_overhead: no adapter ({e})");
            return;
        }
    };
    eprintln!("adapter: {}", dev.adapter.get_info().name);
    let p = passes(&dev);
    let mut group = c.benchmark_group("geometry_overhead");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    for n in sizes() {
        let data = mesh(n);
        let vb =
            dev.buffer("mesh", bytemuck::cast_slice(&data), wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::STORAGE);
        group.bench_with_input(BenchmarkId::new("plain", n), &n, |b, &n| b.iter(|| frame(&dev, &p, &vb, n, false)));
        group.bench_with_input(BenchmarkId::new("geometry", n), &n, |b, &n| b.iter(|| frame(&dev, &p, &vb, n, true)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
