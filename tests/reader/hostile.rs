//! Hostile input: mutants of every corpus blob (truncations, shortened chunks, bit flips, odd
//! word values; the checksum recomputed so the decoders, not only the checksum, see them) and
//! arbitrary bytes (proptest). Each must be read or rejected with an error whose message is not
//! empty and whose byte offset lies inside the input: no panic, no allocation out of proportion
//! to the input.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;

use dxbc_wgsl::chunks::{ifce, rdef, rts0, sfi0, signature, stat};
use dxbc_wgsl::container::{fix_checksum, Container, ReadOptions};
use dxbc_wgsl::{ReadError, Shader};
use dxbc_wgsl_tests::corpus_dir;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Allocation guard: the largest single allocation made on this thread since the last reset.

struct Tracking;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
    static IN_MUTANT: Cell<bool> = const { Cell::new(false) };
}

fn note(size: usize) {
    // `try_with`: the thread-local may be gone while a thread shuts down.
    let _ = LARGEST.try_with(|l| {
        if size > l.get() {
            l.set(size);
        }
    });
}

unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Tracking = Tracking;

/// The most one allocation may take while reading `len` bytes: the decoded program keeps a
/// 128-byte instruction per word at worst and `info` renders text; anything far beyond means a
/// count was trusted before it was checked against the bytes present.
fn allocation_bound(len: usize) -> usize {
    64 * len + (64 << 10)
}

// ---------------------------------------------------------------------------------------------
// Reading one blob every way the library offers.

fn check_error(e: &ReadError, len: usize, what: &str) -> Result<(), String> {
    let text = e.to_string();
    if text.trim().is_empty() {
        return Err(format!("{what}: error with an empty message: {e:?}"));
    }
    let offset = match e {
        ReadError::Truncated { offset, .. } | ReadError::Malformed { offset, .. } => Some(*offset),
        _ => None,
    };
    if let Some(o) = offset {
        if o > len {
            return Err(format!("{what}: error names byte offset {o}, past the {len}-byte input: {text}"));
        }
        if !text.contains(&o.to_string()) {
            return Err(format!("{what}: message does not name its offset {o}: {text}"));
        }
    }
    Ok(())
}

/// Classifies, reads the container, the shader and every known chunk, and renders `info`.
fn exercise(bytes: &[u8]) -> Result<(), String> {
    let len = bytes.len();
    let class = dxbc_wgsl::classify::classify(bytes);
    if class.reason.is_empty() {
        return Err("classification without a reason".into());
    }
    if let Err(e) = Container::parse(bytes, &ReadOptions::default()) {
        check_error(&e, len, "Container::parse")?;
    }
    // The checksum path is covered above; the mutants carry fixed checksums anyway.
    if let Err(e) = Shader::parse(bytes, &ReadOptions { verify_checksum: false }) {
        check_error(&e, len, "Shader::parse")?;
    }
    if let Ok(c) = Container::parse(bytes, &ReadOptions { verify_checksum: false }) {
        for chunk in &c.chunks {
            let r = match &chunk.fourcc {
                b"ISGN" | b"OSGN" | b"OSG5" | b"PCSG" | b"ISG1" | b"OSG1" | b"PSG1" => {
                    signature::parse(chunk).map(drop)
                }
                b"RDEF" => rdef::parse(chunk).map(drop),
                b"SFI0" => sfi0::parse(chunk).map(drop),
                b"STAT" => stat::parse(chunk).map(drop),
                b"IFCE" => ifce::parse(chunk).map(drop),
                b"RTS0" => rts0::parse(chunk).map(drop),
                b"SHDR" | b"SHEX" => dxbc_wgsl::sm4::decode_program(chunk).map(drop),
                _ => Ok(()),
            };
            if let Err(e) = r {
                check_error(&e, len, &format!("{} chunk", chunk.name()))?;
            }
        }
    }
    match dxbc_wgsl::info::info(bytes) {
        Ok(text) if text.is_empty() => return Err("info rendered nothing".into()),
        Ok(_) => {}
        Err(e) => check_error(&e, len, "info")?,
    }
    Ok(())
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_MUTANT.try_with(Cell::get).unwrap_or(false) {
                // Reported with the mutant's name by `run_mutant`.
                let _ = LAST_PANIC.try_with(|p| *p.borrow_mut() = info.to_string());
            } else {
                default(info);
            }
        }))
    });
}

/// Runs [`exercise`] on a mutant; describes any broken rule.
fn run_mutant(bytes: &[u8]) -> Option<String> {
    guarded(bytes.len(), || exercise(bytes))
}

/// The most one allocation may take while translating: declarations are bounded (4096 temps,
/// 4096-entry immediate constant buffers, 65,536 instructions), so the translator's tables stay
/// within a few megabytes whatever the input claims.
const TRANSLATION_ALLOCATION_BOUND: usize = 8 << 20;

/// Translates a mutant (checksum not verified, so that the mutation reaches the decoder and the
/// lowering) and renders `info::bindings`; a panic or an allocation past
/// [`TRANSLATION_ALLOCATION_BOUND`] is a broken rule. Refusals and read errors are fine.
fn translate_mutant(bytes: &[u8]) -> Option<String> {
    guarded_with(TRANSLATION_ALLOCATION_BOUND, bytes.len(), || {
        let options = dxbc_wgsl::TranslateOptions { skip_checksum: true, ..Default::default() };
        let _ = dxbc_wgsl::translate(bytes, &options);
        let _ = dxbc_wgsl::info::bindings(bytes);
        Ok(())
    })
}

/// Runs `f` with panics caught and the largest allocation measured; describes any broken rule
/// for an input of `len` bytes.
fn guarded(len: usize, f: impl FnOnce() -> Result<(), String>) -> Option<String> {
    guarded_with(allocation_bound(len), len, f)
}

/// [`guarded`] with an explicit allocation bound.
fn guarded_with(bound: usize, len: usize, f: impl FnOnce() -> Result<(), String>) -> Option<String> {
    install_panic_hook();
    LARGEST.with(|l| l.set(0));
    IN_MUTANT.with(|f| f.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    IN_MUTANT.with(|f| f.set(false));
    let largest = LARGEST.with(|l| l.get());
    match result {
        Err(_) => Some(format!("panic: {}", LAST_PANIC.with(|p| p.borrow().clone()))),
        Ok(Err(msg)) => Some(msg),
        Ok(Ok(())) if largest > bound => Some(format!("allocated {largest} bytes at once for a {len}-byte input")),
        Ok(Ok(())) => None,
    }
}

/// The harness itself must notice a panic, a large allocation and a broken error rule.
#[test]
fn harness_reports_panics_allocations_and_bad_errors() {
    let panic = guarded(100, || panic!("boom"));
    assert!(panic.as_deref().is_some_and(|p| p.contains("boom")), "{panic:?}");
    let big = guarded(100, || {
        std::hint::black_box(vec![0u8; 16 << 20]);
        Ok(())
    });
    assert!(big.as_deref().is_some_and(|p| p.contains("allocated")), "{big:?}");
    let past = ReadError::Truncated { what: "x", offset: 200, needed: 4, available: 0 };
    assert!(check_error(&past, 100, "test").is_err());
    assert!(check_error(&past, 300, "test").is_ok());
    assert_eq!(guarded(100, || Ok(())), None);
}

// ---------------------------------------------------------------------------------------------
// Corpus and mutations.

fn blobs(test: &str) -> Vec<(String, Vec<u8>)> {
    let Some(dir) = corpus_dir() else {
        eprintln!("{test}: skipped: no corpus (set DXBC_WGSL_CORPUS or put it at ../shared/corpus)");
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "dxbc" || e == "fxo") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    let rel = |p: &Path| p.strip_prefix(&dir).unwrap_or(p).to_string_lossy().into_owned();
    paths.iter().map(|p| (rel(p), std::fs::read(p).unwrap())).collect()
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn new(seed: &str) -> Self {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in seed.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        Rng(h | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// How many random mutants of one kind a blob of `len` bytes gets: `most` for small blobs,
/// fewer for large ones (each mutant is read whole, several times, in a debug build), at least 3.
fn budget(len: usize, most: usize) -> usize {
    (most * 2048 / len.max(1)).clamp(3, most)
}

/// Positions `0..len` stepping by `step` when that gives at most `max`, else `max` random ones.
fn positions(rng: &mut Rng, len: usize, step: usize, max: usize) -> Vec<usize> {
    if len.div_ceil(step) <= max {
        (0..len).step_by(step).collect()
    } else {
        (0..max).map(|_| rng.below(len)).collect()
    }
}

fn le32(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize
}

/// `(offset of the chunk's size field, data size)` for each chunk of a well-formed container.
fn chunk_size_fields(bytes: &[u8]) -> Vec<(usize, usize)> {
    let Ok(c) = Container::parse(bytes, &ReadOptions { verify_checksum: false }) else {
        return Vec::new();
    };
    c.chunks.iter().map(|ch| (ch.offset - 4, ch.data.len())).collect()
}

/// Runs `mutate` over every blob and fails with every broken rule found.
fn hostile(test: &str, mutants: impl Fn(&str, &[u8], &mut Rng) -> Vec<(String, Vec<u8>)>) {
    let blobs = blobs(test);
    let mut failures = Vec::new();
    let mut count = 0usize;
    for (name, bytes) in &blobs {
        let mut rng = Rng::new(&format!("{test}/{name}"));
        for (what, mutant) in mutants(name, bytes, &mut rng) {
            count += 1;
            if let Some(problem) = run_mutant(&mutant) {
                failures.push(format!("{name}: {what}: {problem}"));
            }
            if let Some(problem) = translate_mutant(&mutant) {
                failures.push(format!("{name}: {what}: translating: {problem}"));
            }
        }
    }
    eprintln!("{test}: {count} mutants of {} blobs", blobs.len());
    failures.truncate(50);
    assert!(failures.is_empty(), "{test}: broken rules (first 50):\n{}", failures.join("\n"));
}

#[test]
fn hostile_truncations() {
    hostile("hostile_truncations", |_, bytes, rng| {
        let mut out = Vec::new();
        for at in positions(rng, bytes.len(), 4, budget(bytes.len(), 24)) {
            // As cut: the container's size field now points past the end.
            out.push((format!("truncated to {at} bytes"), bytes[..at].to_vec()));
            // Cut and made consistent: size field patched, checksum recomputed, so chunk
            // offsets and sizes run past the new end.
            if at >= 32 && bytes.starts_with(b"DXBC") {
                let mut m = bytes[..at].to_vec();
                m[24..28].copy_from_slice(&(at as u32).to_le_bytes());
                fix_checksum(&mut m);
                out.push((format!("truncated to {at} bytes, size and checksum fixed"), m));
            }
        }
        out
    });
}

#[test]
fn hostile_chunk_truncations() {
    hostile("hostile_chunk_truncations", |_, bytes, rng| {
        let mut out = Vec::new();
        for (field, size) in chunk_size_fields(bytes) {
            for new_size in positions(rng, size, 4, budget(bytes.len(), 6)) {
                let mut m = bytes.to_vec();
                m[field..field + 4].copy_from_slice(&(new_size as u32).to_le_bytes());
                fix_checksum(&mut m);
                out.push((format!("chunk size at {field:#x} set to {new_size} (was {size})"), m));
            }
        }
        out
    });
}

#[test]
fn hostile_bit_flips() {
    hostile("hostile_bit_flips", |_, bytes, rng| {
        if bytes.len() <= 20 {
            return Vec::new();
        }
        (0..budget(bytes.len(), 16))
            .map(|_| {
                let at = 20 + rng.below(bytes.len() - 20);
                let bit = rng.below(8);
                let mut m = bytes.to_vec();
                m[at] ^= 1 << bit;
                fix_checksum(&mut m);
                (format!("bit {bit} of byte {at:#x} flipped"), m)
            })
            .collect()
    });
}

#[test]
fn hostile_word_values() {
    const VALUES: [u32; 10] = [0, 1, 2, 3, 0xff, 0xffff, 0x7fff_ffff, 0x8000_0000, 0xffff_fffe, 0xffff_ffff];
    hostile("hostile_word_values", |_, bytes, rng| {
        let words = bytes.len() / 4;
        if words <= 5 {
            return Vec::new();
        }
        let mut out = Vec::new();
        // Chunk headers and the first words of each chunk hold the counts and offsets.
        let mut targets: Vec<usize> = Vec::new();
        if bytes.starts_with(b"DXBC") {
            targets.extend([24, 28]);
            let count = le32(bytes, 28).min(8);
            for i in 0..count {
                targets.push(32 + 4 * i);
            }
            for (field, size) in chunk_size_fields(bytes) {
                targets.push(field);
                targets.extend((0..size.min(24)).step_by(4).map(|k| field + 4 + k));
            }
        }
        targets.extend((0..budget(bytes.len(), 8)).map(|_| 4 * (5 + rng.below(words - 5))));
        for at in targets {
            let v = VALUES[rng.below(VALUES.len())];
            let mut m = bytes.to_vec();
            m[at..at + 4].copy_from_slice(&v.to_le_bytes());
            fix_checksum(&mut m);
            out.push((format!("word at {at:#x} set to {v:#x}"), m));
        }
        out
    });
}

// ---------------------------------------------------------------------------------------------
// Arbitrary bytes.

/// A container around arbitrary chunk payloads with the given FourCCs, checksum fixed.
fn container_of(chunks: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let header = 32 + 4 * chunks.len();
    let mut out = vec![0u8; header];
    out[0..4].copy_from_slice(b"DXBC");
    out[20..24].copy_from_slice(&[1, 0, 0, 0]);
    out[28..32].copy_from_slice(&(chunks.len() as u32).to_le_bytes());
    for (i, (fourcc, data)) in chunks.iter().enumerate() {
        let at = out.len() as u32;
        out[32 + 4 * i..36 + 4 * i].copy_from_slice(&at.to_le_bytes());
        out.extend_from_slice(fourcc);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
    }
    let total = out.len() as u32;
    out[24..28].copy_from_slice(&total.to_le_bytes());
    fix_checksum(&mut out);
    out
}

fn fourcc() -> impl Strategy<Value = [u8; 4]> {
    prop::sample::select(vec![
        *b"SHDR", *b"SHEX", *b"ISGN", *b"OSGN", *b"OSG5", *b"PCSG", *b"ISG1", *b"OSG1", *b"PSG1", *b"RDEF", *b"SFI0",
        *b"STAT", *b"IFCE", *b"RTS0", *b"FX10", *b"FXLC", *b"Aon9", *b"ABCD",
    ])
}

/// Words biased towards small counts and offsets, so that structures point inside the chunk.
fn payload() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop_oneof![0u32..64, 0u32..0x400, any::<u32>()], 0..96)
        .prop_map(|w| w.iter().flat_map(|v| v.to_le_bytes()).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_are_read_or_rejected(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        prop_assert_eq!(run_mutant(&bytes), None);
    }

    #[test]
    fn arbitrary_dxbc_prefixed_bytes_are_read_or_rejected(rest in prop::collection::vec(any::<u8>(), 0..600)) {
        let mut bytes = b"DXBC".to_vec();
        bytes.extend_from_slice(&rest);
        if bytes.len() >= 32 {
            let len = bytes.len() as u32;
            bytes[24..28].copy_from_slice(&len.to_le_bytes());
            fix_checksum(&mut bytes);
        }
        prop_assert_eq!(run_mutant(&bytes), None);
    }

    #[test]
    fn arbitrary_chunks_are_read_or_rejected(chunks in prop::collection::vec((fourcc(), payload()), 0..5)) {
        prop_assert_eq!(run_mutant(&container_of(&chunks)), None);
    }
}
