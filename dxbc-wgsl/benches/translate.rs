//! Translation throughput over the real corpus: [`dxbc_wgsl::translate`] — container, decode, IR,
//! lowering to naga IR, naga's full validation and the WGSL writer — for every shader program,
//! single-threaded. Reported in shaders per second (target: 18,000/s in a release build).
//!
//! `translate/all_programs` counts every shader program (a refusal is work too: it stops early);
//! `translate/qualified` only the programs that translate. Before measuring, each shader is timed
//! alone (best of a few passes) and the slowest are printed.
//!
//! The corpus is `$DXBC_WGSL_CORPUS`, else `../shared/corpus` beside the workspace; without it the
//! benchmark prints a message and measures nothing.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dxbc_wgsl::{translate, TranslateOptions};

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

/// Every corpus blob that is a shader program, with its path relative to the corpus.
fn shader_programs() -> Vec<(String, Vec<u8>)> {
    let Some(dir) = corpus_dir() else {
        eprintln!("translate bench: no corpus (set DXBC_WGSL_CORPUS); nothing to measure");
        return Vec::new();
    };
    let mut paths = Vec::new();
    collect(&dir, &mut paths);
    paths
        .iter()
        .filter_map(|p| {
            let bytes = std::fs::read(p).ok()?;
            let rel = p.strip_prefix(&dir).unwrap_or(p).display().to_string();
            dxbc_wgsl::classify::classify(&bytes).is_shader_program().then_some((rel, bytes))
        })
        .collect()
}

fn translate_all(blobs: &[&[u8]], options: &TranslateOptions) -> usize {
    let mut n = 0;
    for b in blobs {
        if let Ok(t) = translate(b, options) {
            n += t.wgsl.len();
        }
    }
    n
}

/// Each shader alone, best of `passes`; prints the slowest and the sum.
fn time_each(programs: &[(String, Vec<u8>)], options: &TranslateOptions) {
    const PASSES: usize = 5;
    let mut times: Vec<(Duration, &str, bool)> = programs
        .iter()
        .map(|(path, bytes)| {
            let mut best = Duration::MAX;
            let mut ok = false;
            for _ in 0..PASSES {
                let t0 = Instant::now();
                let r = black_box(translate(black_box(bytes), options));
                best = best.min(t0.elapsed());
                ok = r.is_ok();
            }
            (best, path.as_str(), ok)
        })
        .collect();
    let total: Duration = times.iter().map(|t| t.0).sum();
    times.sort_by_key(|t| std::cmp::Reverse(t.0));
    eprintln!(
        "translate bench: {} shader programs, one pass each (best of {PASSES}): {:.1} ms in all, {:.0} shaders/s",
        programs.len(),
        total.as_secs_f64() * 1e3,
        programs.len() as f64 / total.as_secs_f64()
    );
    eprintln!("slowest shaders:");
    for (d, path, ok) in times.iter().take(8) {
        eprintln!("  {:>8.1} µs  {path}{}", d.as_secs_f64() * 1e6, if *ok { "" } else { " (refused)" });
    }
}

fn bench(c: &mut Criterion) {
    let programs = shader_programs();
    if programs.is_empty() {
        return;
    }
    let options = TranslateOptions::default();
    time_each(&programs, &options);

    let all: Vec<&[u8]> = programs.iter().map(|(_, b)| b.as_slice()).collect();
    let qualified: Vec<&[u8]> = all.iter().copied().filter(|b| translate(b, &options).is_ok()).collect();
    let mut g = c.benchmark_group("translate");
    g.sample_size(20).measurement_time(Duration::from_secs(8));
    g.throughput(Throughput::Elements(all.len() as u64));
    g.bench_function("all_programs", |b| b.iter(|| black_box(translate_all(black_box(&all), &options))));
    g.throughput(Throughput::Elements(qualified.len() as u64));
    g.bench_function("qualified", |b| b.iter(|| black_box(translate_all(black_box(&qualified), &options))));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
