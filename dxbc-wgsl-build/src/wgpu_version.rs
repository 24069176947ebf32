//! The wgpu and the `dxbc-wgsl-runtime` the generated code compiles against, checked against the
//! ones the user's crate resolves, so that a mismatch is one clear error instead of type errors
//! inside `OUT_DIR`.
//!
//! [`Builder`](crate::Builder) (as a build script) and `include_effect!` both call
//! [`check_from_env`].

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The major version of wgpu the generated code is written for: it compiles against wgpu 30.x.
pub const WGPU_MAJOR: u64 = 30;

/// The runtime crate the generated code names (`::dxbc_wgsl_runtime::...`).
pub const RUNTIME_CRATE: &str = "dxbc-wgsl-runtime";

/// This crate's version: the generated code needs a `dxbc-wgsl-runtime` semver-compatible with it
/// (the same major version, and for 0.x the same minor one).
pub const GENERATOR_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The largest `Cargo.lock` read.
const MAX_LOCK_BYTES: u64 = 64 << 20;

#[derive(Deserialize)]
struct Lock {
    #[serde(default)]
    package: Vec<LockedPackage>,
}

#[derive(Deserialize)]
struct LockedPackage {
    name: String,
    version: String,
    source: Option<String>,
    #[serde(default)]
    dependencies: Vec<String>,
}

/// [`check`] for the crate cargo is building: `CARGO_MANIFEST_DIR`, `CARGO_PKG_NAME` and
/// `CARGO_PKG_VERSION` (set for build scripts and, during compilation, for proc macros). Outside
/// cargo (those unset) there is nothing to check.
///
/// # Errors
/// See [`check`].
pub fn check_from_env() -> Result<(), String> {
    let (Some(dir), Ok(name)) = (std::env::var_os("CARGO_MANIFEST_DIR"), std::env::var("CARGO_PKG_NAME")) else {
        return Ok(());
    };
    check(Path::new(&dir), &name, std::env::var("CARGO_PKG_VERSION").ok().as_deref())
}

/// Checks that the package `name` (of `version`, when given) whose manifest is in
/// `manifest_dir` depends on a wgpu 30.x ([`WGPU_MAJOR`]) and on a `dxbc-wgsl-runtime`
/// compatible with this generator ([`GENERATOR_VERSION`]), as the `Cargo.lock` found in
/// `manifest_dir` or the nearest folder above it records.
///
/// Says nothing (`Ok`) when there is no `Cargo.lock`, it cannot be read (or is larger than
/// 64 MiB), it does not list the package, or the package depends on neither crate; also when one
/// of several versions it depends on fits.
///
/// # Errors
/// `generated code needs wgpu 30.x; this crate resolves wgpu X.Y.Z (...)`, or
/// `generated code of dxbc-wgsl-build A.B.C needs dxbc-wgsl-runtime A.B.x; this crate resolves
/// dxbc-wgsl-runtime X.Y.Z (...)`, naming the lock file.
pub fn check(manifest_dir: &Path, name: &str, version: Option<&str>) -> Result<(), String> {
    let Some(lock_path) = find_lock(manifest_dir) else {
        return Ok(());
    };
    // Real lock files hold a few megabytes; parsing takes about twenty times a file's size in
    // memory (inside rustc, for `include_effect!`), so a larger one is not read.
    let read = crate::input::read_limited(&lock_path, MAX_LOCK_BYTES);
    let Some(text) = read.ok().and_then(|bytes| String::from_utf8(bytes).ok()) else {
        return Ok(());
    };
    let Ok(lock) = toml::from_str::<Lock>(&text) else {
        return Ok(());
    };
    // The crate itself: a local package (no `source`) of that name (and version).
    let Some(package) =
        lock.package.iter().find(|p| p.name == name && p.source.is_none() && version.is_none_or(|v| p.version == v))
    else {
        return Ok(());
    };
    let wgpu = resolved(&lock, package, "wgpu");
    if !wgpu.is_empty() && !wgpu.iter().any(|v| major(v) == Some(WGPU_MAJOR)) {
        let versions: Vec<String> = wgpu.iter().map(|v| format!("wgpu {v}")).collect();
        return Err(format!(
            "generated code needs wgpu {WGPU_MAJOR}.x; this crate resolves {} (`{name}` in {}): depend on wgpu = \
             \"{WGPU_MAJOR}\"",
            versions.join(" and "),
            lock_path.display()
        ));
    }
    let runtime = resolved(&lock, package, RUNTIME_CRATE);
    let wanted = compatible_series(GENERATOR_VERSION);
    if !runtime.is_empty() && !runtime.iter().any(|v| compatible_series(v) == wanted) {
        let versions: Vec<String> = runtime.iter().map(|v| format!("{RUNTIME_CRATE} {v}")).collect();
        return Err(format!(
            "generated code of dxbc-wgsl-build {GENERATOR_VERSION} needs {RUNTIME_CRATE} {wanted}.x; this crate \
             resolves {} (`{name}` in {}): depend on {RUNTIME_CRATE} = \"{wanted}\", or use the dxbc-wgsl-build \
             of the runtime's version",
            versions.join(" and "),
            lock_path.display()
        ));
    }
    Ok(())
}

/// The versions of `dependency` that `package` resolves, sorted, each once.
fn resolved<'a>(lock: &'a Lock, package: &'a LockedPackage, dependency: &str) -> Vec<&'a str> {
    let mut versions: Vec<&str> = Vec::new();
    for d in &package.dependencies {
        // `wgpu`, `wgpu 30.0.1` (several versions locked) or `wgpu 30.0.1 (registry+...)`.
        let mut words = d.split_whitespace();
        if words.next() != Some(dependency) {
            continue;
        }
        match words.next() {
            Some(v) => versions.push(v),
            None => versions.extend(lock.package.iter().filter(|p| p.name == dependency).map(|p| p.version.as_str())),
        }
    }
    versions.sort_unstable();
    versions.dedup();
    versions
}

/// The major version of `v` (`30` of `30.0.2`).
fn major(v: &str) -> Option<u64> {
    v.split('.').next().and_then(|m| m.parse::<u64>().ok())
}

/// The semver-compatible series of `v`: `0.1` of `0.1.4`, `2` of `2.3.0`.
fn compatible_series(v: &str) -> String {
    let mut parts = v.split('.');
    match (parts.next(), parts.next()) {
        (Some("0"), Some(minor)) => format!("0.{minor}"),
        (Some(major), _) => major.to_string(),
        (None, _) => String::new(),
    }
}

/// `Cargo.lock` in `dir` or the nearest folder above it.
fn find_lock(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().map(|d| d.join("Cargo.lock")).find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    const WGPU_29: &str = r#"
version = 4

[[package]]
name = "user"
version = "0.1.0"
dependencies = [
 "bytemuck",
 "wgpu",
]

[[package]]
name = "bytemuck"
version = "1.23.0"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "wgpu"
version = "29.0.1"
source = "registry+https://github.com/rust-lang/crates.io-index"
"#;

    /// A crate folder two levels below the lock file (a workspace member), with `lock` as the
    /// workspace's Cargo.lock.
    fn workspace(lock: &str) -> (tempfile::TempDir, PathBuf) {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("Cargo.lock"), lock).unwrap();
        let member = root.path().join("crates/user");
        std::fs::create_dir_all(&member).unwrap();
        (root, member)
    }

    #[test]
    fn another_major_is_an_error_naming_both_versions() {
        let (root, member) = workspace(WGPU_29);
        let e = check(&member, "user", Some("0.1.0")).unwrap_err();
        assert!(e.starts_with("generated code needs wgpu 30.x; this crate resolves wgpu 29.0.1 (`user` in "), "{e}");
        assert!(e.contains(&root.path().join("Cargo.lock").display().to_string()), "{e}");
        // Without the version, by name.
        assert!(check(&member, "user", None).is_err());
    }

    #[test]
    fn wgpu_30_passes() {
        let (_root, member) = workspace(&WGPU_29.replace("29.0.1", "30.0.2"));
        assert_eq!(check(&member, "user", Some("0.1.0")), Ok(()));
    }

    #[test]
    fn several_locked_versions_pass_when_one_is_30() {
        let lock = WGPU_29.replace("\"wgpu\",", "\"wgpu 29.0.1\",\n \"wgpu 30.0.2 (registry+https://github.com/rust-lang/crates.io-index)\",")
            + "\n[[package]]\nname = \"wgpu\"\nversion = \"30.0.2\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n";
        let (_root, member) = workspace(&lock);
        assert_eq!(check(&member, "user", None), Ok(()));
        // Only the 29 and a 31: both named.
        let lock = lock.replace("30.0.2", "31.0.0");
        let (_root, member) = workspace(&lock);
        let e = check(&member, "user", None).unwrap_err();
        assert!(e.contains("this crate resolves wgpu 29.0.1 and wgpu 31.0.0 ("), "{e}");
    }

    /// A runtime of another series than the generator's is an error naming both; the same
    /// series passes.
    #[test]
    fn the_runtime_must_match_the_generator() {
        let series = compatible_series(GENERATOR_VERSION);
        let with_runtime = |v: &str| {
            WGPU_29.replace("29.0.1", "30.0.2").replace(" \"wgpu\",\n", " \"dxbc-wgsl-runtime\",\n \"wgpu\",\n")
                + &format!("\n[[package]]\nname = \"dxbc-wgsl-runtime\"\nversion = \"{v}\"\n")
        };
        let (_root, member) = workspace(&with_runtime(GENERATOR_VERSION));
        assert_eq!(check(&member, "user", None), Ok(()));
        let (root, member) = workspace(&with_runtime("7.0.0"));
        let e = check(&member, "user", None).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "generated code of dxbc-wgsl-build {GENERATOR_VERSION} needs dxbc-wgsl-runtime {series}.x; this crate \
                 resolves dxbc-wgsl-runtime 7.0.0 (`user` in "
            )),
            "{e}"
        );
        assert!(e.contains(&root.path().join("Cargo.lock").display().to_string()), "{e}");
        assert_eq!(compatible_series("0.1.9"), "0.1");
        assert_eq!(compatible_series("0.2.0"), "0.2");
        assert_eq!(compatible_series("3.1.0"), "3");
    }

    #[test]
    fn nothing_to_check_says_nothing() {
        // No Cargo.lock anywhere above (a temporary folder has none).
        let bare = tempfile::tempdir().unwrap();
        if find_lock(bare.path()).is_none() {
            assert_eq!(check(bare.path(), "user", None), Ok(()));
        }
        // The package depends on no wgpu.
        let (_root, member) = workspace(&WGPU_29.replace(" \"wgpu\",\n", ""));
        assert_eq!(check(&member, "user", None), Ok(()));
        // The package is not in the lock file, or the lock file is not TOML.
        let (_root, member) = workspace(WGPU_29);
        assert_eq!(check(&member, "someone-else", None), Ok(()));
        assert_eq!(check(&member, "user", Some("0.2.0")), Ok(()));
        let (_root, member) = workspace("this is not [toml");
        assert_eq!(check(&member, "user", None), Ok(()));
    }

    /// A lock file past the limit is not read (parsing one of 168 MB of packages took 3.4 GB and
    /// 7 s): the same lock, padded past it with a comment, says nothing.
    #[test]
    fn a_huge_lock_file_is_not_read() {
        let (root, member) = workspace(WGPU_29);
        assert!(check(&member, "user", None).is_err());
        let padded = format!("{WGPU_29}#{}\n", "x".repeat(MAX_LOCK_BYTES as usize));
        std::fs::write(root.path().join("Cargo.lock"), padded).unwrap();
        assert_eq!(check(&member, "user", None), Ok(()));
    }

    /// This workspace's own crates resolve wgpu 30 (the generated code's tests compile against it).
    #[test]
    fn this_workspace_resolves_wgpu_30() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(check(dir, "dxbc-wgsl-build", Some(env!("CARGO_PKG_VERSION"))), Ok(()));
        assert_eq!(check(&dir.join("../example-engine"), "example-engine", None), Ok(()));
    }
}
