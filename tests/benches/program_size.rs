//! Translation time against program size: synthetic pixel shaders of 1k, 8k and 64k
//! instructions (64k: the translator's limit, `dxbc_wgsl::limits::INSTRUCTIONS`), in three
//! shapes — straight-line arithmetic over eight temps; the same with every instruction writing
//! its own register of 4096 temps (many registers); and blocks of `if`s nested to the nesting
//! limit. Linear cost shows as a time per instruction that stays flat across the sizes:
//! `cargo bench -p dxbc-wgsl-tests --bench program_size` (docs/fuzzing.md has the figures).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dxbc_wgsl::{limits, translate, TranslateOptions};
use dxbc_wgsl_tests::asm::*;

const SIZES: [usize; 3] = [1_000, 8_000, 64_000];

/// `ps_4_0` with `temps` temps: `body`, then o0 = r0.
fn ps(temps: u32, mut body: Vec<Vec<u32>>) -> Vec<u8> {
    body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(TEMP, 0, "xyzw")]));
    pixel_shader_with(0x40, &[], &[], temps, &body, false)
}

/// `n` instructions: `mad`/`add`/`mul` chains over r0-r7.
fn straight_line(n: usize) -> Vec<u8> {
    let body = (0..n)
        .map(|i| {
            let (d, a, b) = ((i % 8) as u32, ((i + 3) % 8) as u32, ((i + 5) % 8) as u32);
            match i % 3 {
                0 => ins(ADD, &[dst(TEMP, d, "xyzw"), src(TEMP, a, "xyzw"), src(TEMP, b, "yzwx")]),
                1 => ins(MUL, &[dst(TEMP, d, "xy"), src(TEMP, a, "xxyy"), imm([0x3f00_0000; 4])]),
                _ => ins(MAD, &[dst(TEMP, d, "z"), src(TEMP, a, "zzzz"), src(TEMP, b, "xxxx"), src(TEMP, d, "wwww")]),
            }
        })
        .collect();
    ps(8, body)
}

/// `n` instructions, instruction `i` writing r(i mod 4096) from the register before it.
fn many_registers(n: usize) -> Vec<u8> {
    let regs = limits::TEMP_REGISTERS;
    let body = (0..n)
        .map(|i| {
            let r = (i as u32) % regs;
            ins(ADD, &[dst(TEMP, r, "xyzw"), src(TEMP, (r + regs - 1) % regs, "xyzw"), imm([0x3f80_0000; 4])])
        })
        .collect();
    ps(regs, body)
}

/// About `n` instructions: blocks of `if_nz` nested to the limit, an `add` at every level.
fn nested(n: usize) -> Vec<u8> {
    let depth = limits::NESTING;
    let mut body = Vec::new();
    while body.len() + 3 * depth <= n {
        for _ in 0..depth {
            body.push(nz(ins(IF, &[src(TEMP, 0, "xxxx")])));
            body.push(ins(ADD, &[dst(TEMP, 0, "x"), src(TEMP, 0, "xxxx"), imm([0x3f80_0000; 4])]));
        }
        body.extend(vec![ins(ENDIF, &[]); depth]);
    }
    ps(1, body)
}

/// A program shape: the container of a program of about `n` instructions.
type Shape = fn(usize) -> Vec<u8>;

fn bench(c: &mut Criterion) {
    let shapes: [(&str, Shape); 3] =
        [("straight-line", straight_line), ("many registers", many_registers), ("nested", nested)];
    for (name, make) in shapes {
        let mut group = c.benchmark_group(format!("translate {name}"));
        group.sample_size(10);
        for n in SIZES {
            let blob = make(n);
            translate(&blob, &TranslateOptions::default()).unwrap_or_else(|e| panic!("{name} {n}: {e}"));
            group.throughput(Throughput::Elements(n as u64));
            group.bench_with_input(BenchmarkId::from_parameter(n), &blob, |b, blob| {
                b.iter(|| translate(blob, &TranslateOptions::default()).unwrap())
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
