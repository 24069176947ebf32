//! Reader throughput over the real corpus: container (with and without checksum verification),
//! signatures, RDEF and the SM4/SM5 program, for every shader blob.
//!
//! The corpus is `$DXBC_WGSL_CORPUS`, else `../shared/corpus` beside the workspace; without it the
//! benchmark prints a message and measures nothing.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dxbc_wgsl::container::{checksum_of, ReadOptions};
use dxbc_wgsl::Shader;

fn corpus_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DXBC_WGSL_CORPUS") {
        let p = PathBuf::from(p);
        if p.is_dir() {
            return Some(p);
        }
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    p.is_dir().then_some(p)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "dxbc") {
            out.push(p);
        }
    }
}

/// Every corpus blob that is a shader program.
fn shader_blobs() -> Vec<Vec<u8>> {
    let Some(dir) = corpus_dir() else {
        eprintln!("decode bench: no corpus (set DXBC_WGSL_CORPUS); nothing to measure");
        return Vec::new();
    };
    let mut paths = Vec::new();
    collect(&dir, &mut paths);
    paths
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .filter(|b| dxbc_wgsl::classify::classify(b).is_shader_program())
        .collect()
}

fn parse_all(blobs: &[Vec<u8>], options: &ReadOptions) -> usize {
    let mut n = 0;
    for b in blobs {
        let s = Shader::parse(b, options).expect("corpus shader parses");
        n += s.program.instructions.len() + s.reflection.as_ref().map_or(0, |r| r.constant_buffers.len());
    }
    n
}

fn bench(c: &mut Criterion) {
    let blobs = shader_blobs();
    if blobs.is_empty() {
        return;
    }
    let bytes: usize = blobs.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("corpus");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("parse", |b| b.iter(|| black_box(parse_all(black_box(&blobs), &ReadOptions::default()))));
    g.bench_function("parse_no_checksum", |b| {
        b.iter(|| black_box(parse_all(black_box(&blobs), &ReadOptions { verify_checksum: false })))
    });
    g.bench_function("checksum", |b| {
        b.iter(|| {
            for blob in &blobs {
                black_box(checksum_of(black_box(blob)));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
