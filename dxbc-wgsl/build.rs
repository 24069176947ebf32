//! Sets `DXBC_WGSL_SOURCE_HASH`: a hash of every file under `src/`, so that build-time caches
//! keyed by the translator (`dxbc-wgsl-build`'s translation cache) notice a changed translator
//! even when its version number is the same (a path or git dependency, a local edit).

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    println!("cargo::rerun-if-changed=src");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut list = Vec::new();
    files(&root.join("src"), &mut list);
    list.sort();
    // FNV-1a (64 bits) over each file's relative path and contents.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for p in &list {
        let rel = p.strip_prefix(root).unwrap_or(p);
        feed(rel.to_string_lossy().replace('\\', "/").as_bytes());
        feed(&[0]);
        feed(&std::fs::read(p).unwrap_or_default());
        feed(&[0]);
    }
    println!("cargo::rustc-env=DXBC_WGSL_SOURCE_HASH={h:016x}");
}
