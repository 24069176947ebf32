//! `dxbc-wgsl watch` under a storm: 1,000 random edits in under a minute to a folder of bare
//! shaders and an effect — valid blobs, corrupt and truncated ones, deletions, renames, files
//! replaced by folders and back, the effect file made invalid and valid again, its input
//! truncated and restored. Meanwhile a reader keeps parsing every output file (a partial file
//! would not parse). Then, once the watcher is quiet: it is still running; no temporary file is
//! left; every input valid at the end has exactly the output a fresh watcher writes for the
//! final folder; every input corrupt at the end keeps the output of one of the valid contents it
//! held (the last good output, docs/watch.md: which one depends on which edits the debounce
//! merged, so any of them, and none after a deletion it saw); a missing input has no output.
//! Seeded: the same edits every run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dxbc_wgsl_cli::watch::{Event, NoValidation, Options, Running, Watcher};

const EDITS: usize = 1000;
const SLOTS: usize = 6;
const DEBOUNCE: Duration = Duration::from_millis(15);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What a slot holds now, as the storm left it.
#[derive(Clone, Debug, PartialEq)]
enum Held {
    Absent,
    Folder,
    Valid(Vec<u8>),
    Corrupt,
}

fn save(path: &Path, bytes: &[u8]) {
    let tmp = path.with_file_name(format!(".{}.swp", path.file_name().unwrap().to_string_lossy()));
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

fn clear(path: &Path) {
    if path.is_dir() {
        std::fs::remove_dir_all(path).unwrap();
    } else if path.exists() {
        std::fs::remove_file(path).unwrap();
    }
}

fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(bytes) = std::fs::read(&p) {
                out.insert(p.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    out
}

/// A watcher on `src` writing into `out`, after its initial scan.
fn start(src: &Path, out: &Path) -> Running {
    let watcher = Watcher::new(
        Options { paths: vec![src.to_path_buf()], out: Some(out.to_path_buf()), debounce: DEBOUNCE },
        NoValidation,
    )
    .unwrap();
    let running = watcher.spawn();
    loop {
        match running.events.recv_timeout(Duration::from_secs(120)).expect("the initial scan ends") {
            Event::Ready { .. } => break,
            Event::Report(_) | Event::Warning(_) => {}
        }
    }
    running
}

/// Drains `running`'s events until none came for `quiet`; panics if the watcher stopped.
fn settle(running: &Running, quiet: Duration) -> usize {
    let mut n = 0;
    loop {
        match running.events.recv_timeout(quiet) {
            Ok(_) => n += 1,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return n,
            Err(e) => panic!("the watcher stopped: {e}"),
        }
    }
}

#[test]
fn a_thousand_random_edits_leave_the_outputs_a_fresh_translation_gives() {
    let dir = tempfile::tempdir().unwrap();
    let (src, out, fresh_out) = (dir.path().join("src"), dir.path().join("out"), dir.path().join("fresh"));
    let basic = repo().join("example-engine/shaders/directxtk/BasicEffect");
    let mut pool: Vec<Vec<u8>> = std::fs::read_dir(&basic)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "dxbc"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    pool.sort();
    pool.truncate(12);
    // The bare shaders.
    std::fs::create_dir_all(src.join("bare")).unwrap();
    let slot = |i: usize| src.join("bare").join(format!("s{i}.dxbc"));
    let mut held: Vec<Held> = Vec::new();
    // Valid contents each slot held (a deletion the debounce merges with the next write is not
    // seen by the watcher, so deletions do not clear this).
    let mut since: Vec<BTreeSet<Vec<u8>>> = Vec::new();
    for (i, bytes) in pool.iter().take(SLOTS).enumerate() {
        save(&slot(i), bytes);
        held.push(Held::Valid(bytes.clone()));
        since.push(BTreeSet::from([bytes.clone()]));
    }
    // An effect with its inputs (DualTextureEffect).
    let fx = src.join("fx");
    std::fs::create_dir_all(fx.join("shaders")).unwrap();
    for e in std::fs::read_dir(repo().join("example-engine/shaders/directxtk/DualTextureEffect")).unwrap().flatten() {
        std::fs::copy(e.path(), fx.join("shaders").join(e.file_name())).unwrap();
    }
    let effect_text = std::fs::read_to_string(repo().join("example-engine/effects/dual_texture.effect.toml"))
        .unwrap()
        .replace("shader_dir = \"../shaders/directxtk/DualTextureEffect\"", "shader_dir = \"shaders\"");
    let effect = fx.join("dual.effect.toml");
    save(&effect, effect_text.as_bytes());
    let input = fx.join("shaders/DualTextureEffect_PSDualTexture.dxbc");
    let input_bytes = std::fs::read(&input).unwrap();

    let running = start(&src, &out);
    let good_module = std::fs::read(out.join("dual_texture_effect.rs")).expect("the effect's module");

    // A reader parsing every output while the storm runs.
    let stop = Arc::new(AtomicBool::new(false));
    let reader = std::thread::spawn({
        let (out, stop) = (out.clone(), stop.clone());
        move || {
            let mut checked = 0usize;
            while !stop.load(Ordering::Relaxed) {
                for (path, bytes) in files(&out) {
                    if path.extension().is_some_and(|x| x == "wgsl") {
                        let text = String::from_utf8(bytes).unwrap_or_else(|_| panic!("{}: not UTF-8", path.display()));
                        if let Err(e) = naga::front::wgsl::parse_str(&text) {
                            panic!("{}: a partial or broken output: {e}", path.display());
                        }
                        checked += 1;
                    }
                }
            }
            checked
        }
    });

    let mut rng = Rng(0x5eed_d0c5_1234_5678);
    let began = Instant::now();
    let mut paused = Duration::ZERO;
    let mut effect_valid = true;
    let mut input_valid = true;
    for _ in 0..EDITS {
        let i = rng.below(SLOTS);
        let path = slot(i);
        match rng.below(10) {
            0 | 1 => {
                let bytes = pool[rng.below(pool.len())].clone();
                clear(&path);
                save(&path, &bytes);
                since[i].insert(bytes.clone());
                held[i] = Held::Valid(bytes);
            }
            2 => {
                let garbage: Vec<u8> = (0..rng.below(300) + 1).map(|_| rng.next() as u8).collect();
                clear(&path);
                std::fs::write(&path, garbage).unwrap();
                held[i] = Held::Corrupt;
            }
            3 => {
                // Truncated in place, as an editor that writes without renaming leaves it.
                let bytes = &pool[rng.below(pool.len())];
                clear(&path);
                std::fs::write(&path, &bytes[..rng.below(bytes.len() - 1)]).unwrap();
                held[i] = Held::Corrupt;
            }
            4 => {
                clear(&path);
                held[i] = Held::Absent;
            }
            5 => {
                // Renamed over another slot.
                let j = (i + 1 + rng.below(SLOTS - 1)) % SLOTS;
                if path.is_file() {
                    clear(&slot(j));
                    std::fs::rename(&path, slot(j)).unwrap();
                    held[j] = std::mem::replace(&mut held[i], Held::Absent);
                    if let Held::Valid(b) = &held[j] {
                        since[j].insert(b.clone());
                    }
                }
            }
            6 => {
                clear(&path);
                std::fs::create_dir(&path).unwrap();
                held[i] = Held::Folder;
            }
            7 => {
                effect_valid = !effect_valid;
                let text = if effect_valid { effect_text.clone() } else { effect_text.replace("[passes", "[[passes") };
                std::fs::write(&effect, text).unwrap();
            }
            8 => {
                input_valid = !input_valid;
                let n = if input_valid { input_bytes.len() } else { 1 + rng.below(input_bytes.len() - 1) };
                std::fs::write(&input, &input_bytes[..n]).unwrap();
            }
            _ => {
                // The same bytes again.
                if let Held::Valid(b) = &held[i] {
                    save(&path, &b.clone());
                }
            }
        }
        let pause = Duration::from_millis(rng.below(90) as u64);
        paused += pause;
        std::thread::sleep(pause);
    }
    let storm = began.elapsed();
    // Within a minute by construction (the pauses; the edits themselves take milliseconds).
    assert!(paused < Duration::from_secs(55), "the storm's pauses add up to {paused:?}");
    // Quiet, then stopped cleanly: the watcher never exited.
    settle(&running, Duration::from_secs(3));
    stop.store(true, Ordering::Relaxed);
    let parsed = reader.join().expect("every output the reader saw parsed");
    running.stop().expect("the watcher stops cleanly");

    // No temporary files left.
    let after = files(&out);
    for path in after.keys() {
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(name.ends_with(".wgsl") || name.ends_with(".rs"), "a stray file in the outputs: {}", path.display());
    }
    // A fresh watcher over the final folder.
    let fresh = start(&src, &fresh_out);
    fresh.stop().unwrap();
    let expected = files(&fresh_out);
    let translate = |bytes: &[u8]| {
        let (f, o) = (dir.path().join("one"), dir.path().join("one-out"));
        clear(&f);
        clear(&o);
        std::fs::create_dir_all(&f).unwrap();
        std::fs::write(f.join("s.dxbc"), bytes).unwrap();
        let w = start(&f, &o);
        w.stop().unwrap();
        std::fs::read(o.join("s.wgsl")).ok()
    };
    for (i, h) in held.iter().enumerate() {
        let output = PathBuf::from(format!("bare/s{i}.wgsl"));
        match h {
            Held::Valid(_) => assert_eq!(after.get(&output), expected.get(&output), "s{i} (valid at the end)"),
            Held::Absent | Held::Folder => assert!(!after.contains_key(&output), "s{i} is gone but its output stayed"),
            Held::Corrupt => {
                if let Some(kept) = after.get(&output) {
                    let candidates: Vec<Option<Vec<u8>>> = since[i].iter().map(|b| translate(b)).collect();
                    assert!(
                        candidates.iter().any(|c| c.as_deref() == Some(kept.as_slice())),
                        "s{i} (corrupt at the end) holds an output none of its valid contents gives"
                    );
                }
            }
        }
    }
    let module = PathBuf::from("dual_texture_effect.rs");
    if effect_valid && input_valid {
        assert_eq!(after.get(&module), expected.get(&module), "the effect (valid at the end)");
        for (path, bytes) in &expected {
            if path.starts_with("dual_texture_effect") {
                assert_eq!(after.get(path), Some(bytes), "{}", path.display());
            }
        }
    } else {
        assert_eq!(after.get(&module), Some(&good_module), "the effect (broken at the end) keeps its last good module");
    }
    // The effect and its input made valid again (whatever the storm left): the watcher, started
    // on the storm's outputs, brings the effect's outputs to what a fresh translation writes.
    std::fs::write(&effect, &effect_text).unwrap();
    std::fs::write(&input, &input_bytes).unwrap();
    let again = start(&src, &out);
    settle(&again, Duration::from_secs(2));
    again.stop().unwrap();
    let fresh_fx = dir.path().join("fresh-fx");
    start(&src, &fresh_fx).stop().unwrap();
    let (after, expected) = (files(&out), files(&fresh_fx));
    let effect_files: Vec<&PathBuf> = expected.keys().filter(|p| p.starts_with("dual_texture_effect")).collect();
    assert!(effect_files.len() > 1, "{effect_files:?}");
    for path in effect_files {
        assert_eq!(after.get(path), expected.get(path), "{} after the effect was restored", path.display());
    }
    eprintln!(
        "{EDITS} edits in {:.1} s; {parsed} outputs parsed while they changed; final state: {:?}, effect {}, input {}",
        storm.as_secs_f64(),
        held.iter()
            .map(|h| match h {
                Held::Absent => "absent",
                Held::Folder => "folder",
                Held::Valid(_) => "valid",
                Held::Corrupt => "corrupt",
            })
            .collect::<Vec<_>>(),
        if effect_valid { "valid" } else { "invalid" },
        if input_valid { "valid" } else { "truncated" },
    );
}
