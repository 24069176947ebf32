//! [`Builder`]: translate effects from `build.rs` into `OUT_DIR`, incrementally.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::codegen::{generate, GENERATOR_VERSION};
use crate::compile::{self, Translator};
use crate::diag::Diagnostics;
use crate::effect::{Effect, ShaderRef};
use crate::stage::StageInfo;

/// A translation function (the default is [`compile::translate_bytes`]).
pub type TranslateFn = fn(&[u8], &dxbc_wgsl::TranslateOptions) -> Result<StageInfo, compile::ShaderError>;

/// Translates effects at build time and writes their generated Rust into `OUT_DIR`.
///
/// ```no_run
/// // build.rs, in `fn main()`. Errors are printed as `cargo::error=` lines, which fail the build
/// // by themselves: the script returns normally (a non-zero exit would show them twice).
/// let _ = dxbc_wgsl_build::Builder::new().effect("effects/basic.effect.toml").build();
/// ```
///
/// For each effect it writes `<OUT_DIR>/<module>.rs` (e.g. `basic_effect.rs`, holding
/// `pub mod basic_effect { ... }`), to be `include!`d. It is incremental: each shader input is
/// keyed by the SHA-256 of its bytes and the translator and generator versions, and its
/// translation is kept in `<OUT_DIR>/dxbc-wgsl-cache/`; unchanged inputs are not translated again,
/// and an unchanged output file is not rewritten. Every file read is reported to cargo with
/// `cargo::rerun-if-changed`. Errors are printed as `cargo::error=file:line:column: message` and
/// returned; nothing panics. The generated code compiles against wgpu 30.x: with cargo output on
/// (as a build script), a crate whose `Cargo.lock` resolves another wgpu is an error naming both
/// versions ([`BuildError::WgpuVersion`]), before anything is translated.
///
/// A `cargo::error=` line fails the build on its own (cargo 1.84 and later), each diagnostic
/// shown once. So a build script should not exit with a non-zero status after a failed
/// [`build`](Builder::build): cargo would then also dump the script's whole standard output,
/// showing every diagnostic a second time.
#[derive(Debug, Clone)]
pub struct Builder {
    effects: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    base_dir: Option<PathBuf>,
    cargo: bool,
    translate: TranslateFn,
    web_artifacts: bool,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

/// What a build did, per effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectReport {
    /// The effect file.
    pub effect: PathBuf,
    /// The generated file.
    pub output: PathBuf,
    /// The web artifact, when [`Builder::web_artifacts`] asked for it.
    pub web_artifact: Option<PathBuf>,
    /// Shader inputs translated in this build.
    pub translated: usize,
    /// Shader inputs taken from the cache.
    pub cached: usize,
    /// Whether the output file was (re)written (false when its content was already current).
    pub written: bool,
}

/// Result of [`Builder::build`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BuildReport {
    /// One entry per effect, in the order they were added.
    pub effects: Vec<EffectReport>,
}

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Errors in an effect file or its inputs (each with file:line:column).
    #[error("{0}")]
    Effect(Diagnostics),
    /// No output directory: `OUT_DIR` is unset (not running under cargo) and none was given.
    #[error("OUT_DIR is not set: run from build.rs, or call Builder::out_dir")]
    NoOutDir,
    /// Two effect files generate the same module (`[effect] module`, or names with the same
    /// snake case), so the second would overwrite the first's output.
    #[error("{second} generates module `{module}`, as {first} does: give one of them another `module` in [effect]")]
    DuplicateModule {
        /// The module name.
        module: String,
        /// The effect file that claimed it first.
        first: PathBuf,
        /// The effect file that claimed it again.
        second: PathBuf,
    },
    /// The crate resolves a wgpu the generated code does not compile against (see
    /// [`wgpu_version`](crate::wgpu_version)): `generated code needs wgpu 30.x; this crate
    /// resolves wgpu X.Y.Z ...`.
    #[error("{0}")]
    WgpuVersion(String),
    /// Writing an output or cache file failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

impl Builder {
    /// A builder with no effects; output to `OUT_DIR`, paths relative to `CARGO_MANIFEST_DIR`.
    pub fn new() -> Self {
        Builder {
            effects: Vec::new(),
            out_dir: None,
            base_dir: None,
            cargo: true,
            translate: compile::translate_bytes_with,
            web_artifacts: false,
        }
    }

    /// Adds an effect file (relative paths are relative to the crate's `Cargo.toml` directory).
    pub fn effect(mut self, path: impl AsRef<Path>) -> Self {
        self.effects.push(path.as_ref().to_path_buf());
        self
    }

    /// Writes into `dir` instead of `OUT_DIR`.
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Resolves relative effect paths against `dir` instead of `CARGO_MANIFEST_DIR`.
    pub fn base_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.base_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Also writes each effect's web artifact, `<module>.effect.json` beside `<module>.rs`
    /// ([`crate::web`], docs/web-artifact.md), for a JavaScript engine or a page to load (default
    /// off). [`EffectReport::web_artifact`] names it.
    pub fn web_artifacts(mut self, on: bool) -> Self {
        self.web_artifacts = on;
        self
    }

    /// Whether to print `cargo::` lines (default true; tools and tests turn it off).
    pub fn cargo_output(mut self, on: bool) -> Self {
        self.cargo = on;
        self
    }

    /// Replaces the translator (for tests and tools; the default is
    /// [`dxbc_wgsl::translate`] with default options).
    pub fn translator(mut self, f: TranslateFn) -> Self {
        self.translate = f;
        self
    }

    /// Builds every effect. All effects are attempted; the first failure is returned after all of
    /// them have been reported.
    ///
    /// # Errors
    /// [`BuildError`]; with cargo output on, every error was also printed as a `cargo::error=`
    /// line (one per diagnostic), which fails the build: a build script has nothing more to do
    /// (see [`Builder`] on why it should not exit non-zero).
    pub fn build(self) -> Result<BuildReport, BuildError> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => match std::env::var_os("OUT_DIR") {
                Some(d) => PathBuf::from(d),
                None => {
                    if self.cargo {
                        println!("cargo::error={}", BuildError::NoOutDir);
                    }
                    return Err(BuildError::NoOutDir);
                }
            },
        };
        if self.cargo {
            if let Err(message) = crate::wgpu_version::check_from_env() {
                println!("cargo::error={message}");
                return Err(BuildError::WgpuVersion(message));
            }
        }
        let base = self
            .base_dir
            .clone()
            .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from))
            .unwrap_or_default();
        let mut report = BuildReport::default();
        let mut first_error = None;
        let mut used_keys: Vec<String> = Vec::new();
        let mut modules: Vec<(String, PathBuf)> = Vec::new();
        for e in &self.effects {
            let path = base.join(e);
            match self.build_one(&path, &out_dir, &mut used_keys, &mut modules) {
                Ok(r) => report.effects.push(r),
                Err(err) => {
                    if self.cargo {
                        match &err {
                            BuildError::Effect(d) => {
                                for d in d.iter() {
                                    println!("cargo::error={d}");
                                }
                            }
                            other => println!("cargo::error={}: {other}", path.display()),
                        }
                    }
                    first_error.get_or_insert(err);
                }
            }
        }
        match first_error {
            Some(e) => Err(e),
            None => {
                prune_cache(&out_dir.join(CACHE_DIR), &used_keys);
                Ok(report)
            }
        }
    }

    fn build_one(
        &self,
        path: &Path,
        out_dir: &Path,
        used_keys: &mut Vec<String>,
        modules: &mut Vec<(String, PathBuf)>,
    ) -> Result<EffectReport, BuildError> {
        if self.cargo {
            println!("cargo::rerun-if-changed={}", path.display());
        }
        let effect = Effect::load(path).map_err(BuildError::Effect)?;
        if let Some((_, first)) = modules.iter().find(|(m, _)| *m == effect.module) {
            return Err(BuildError::DuplicateModule {
                module: effect.module.clone(),
                first: first.clone(),
                second: path.to_path_buf(),
            });
        }
        modules.push((effect.module.clone(), path.to_path_buf()));
        if self.cargo {
            // Every input any permutation names, whether or not it exists yet.
            for input in candidate_inputs(&effect) {
                println!("cargo::rerun-if-changed={}", input.display());
            }
        }
        let cache_dir = out_dir.join(CACHE_DIR);
        let mut translator = CachingTranslator {
            cache_dir: cache_dir.clone(),
            translate: self.translate,
            translated: 0,
            cached: 0,
            io_error: None,
            used: Vec::new(),
        };
        let output = out_dir.join(format!("{}.rs", effect.module));
        let compiled = compile::compile(effect, &mut translator);
        used_keys.append(&mut translator.used);
        let compiled = compiled.map_err(BuildError::Effect)?;
        if let Some(e) = translator.io_error.take() {
            return Err(e);
        }
        let code = generate(&compiled);
        let mut written = write_if_changed(&output, code.as_bytes())?;
        let web_artifact = if self.web_artifacts {
            let file = out_dir.join(format!("{}.effect.json", compiled.effect.module));
            written |= write_if_changed(&file, crate::web::to_json(&crate::web::artifact(&compiled)).as_bytes())?;
            Some(file)
        } else {
            None
        };
        Ok(EffectReport {
            effect: path.to_path_buf(),
            output,
            web_artifact,
            translated: translator.translated,
            cached: translator.cached,
            written,
        })
    }
}

/// Every shader path an effect's rules name over all permutations.
pub fn candidate_inputs(effect: &Effect) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for values in effect.permutations() {
        for pass in &effect.passes {
            for rules in pass.stage_rules() {
                if let Ok(r) = effect.shader_for(rules, &values) {
                    if !out.contains(&r.path) {
                        out.push(r.path);
                    }
                }
            }
        }
    }
    out.sort();
    out
}

/// The cache key of a shader input: SHA-256 over the translator and generator versions (the
/// translator's with [`dxbc_wgsl::TRANSLATOR_SOURCE_HASH`]) and the container bytes.
pub fn cache_key(bytes: &[u8]) -> String {
    cache_key_with(bytes, &[])
}

/// The cache key of a shader input translated with `[view_formats]` settings (`u0=rgba8unorm`):
/// [`cache_key`] when there are none, else the settings are hashed too.
pub fn cache_key_with(bytes: &[u8], view_formats: &[String]) -> String {
    key_of(bytes, view_formats, true, "")
}

/// The cache key of an effect's shader input: [`cache_key_with`] its view formats, and whether
/// its checksum is verified (`[effect] verify_checksum = false` is hashed too, so that turning
/// the check back on does not find the unverified translation).
pub fn cache_key_for(bytes: &[u8], shader: &ShaderRef) -> String {
    key_of(bytes, &shader.view_formats, shader.verify_checksum, &shader.role.key())
}

fn key_of(bytes: &[u8], view_formats: &[String], verify_checksum: bool, role: &str) -> String {
    let mut h = Sha256::new();
    // The role of a shader around a geometry shader (vertex pulling, behind geometry): empty,
    // and not hashed, for a shader that is its own stage.
    if !role.is_empty() {
        h.update(b"role ");
        h.update(role.as_bytes());
        h.update(b"\0");
    }
    for s in view_formats {
        h.update(b"view format ");
        h.update(s.as_bytes());
        h.update(b"\0");
    }
    if !verify_checksum {
        h.update(b"checksum not verified\0");
    }
    h.update(b"dxbc-wgsl translator ");
    h.update(dxbc_wgsl::TRANSLATOR_VERSION.as_bytes());
    h.update(b" ");
    h.update(dxbc_wgsl::TRANSLATOR_SOURCE_HASH.as_bytes());
    h.update(b"\0generator ");
    h.update(GENERATOR_VERSION.as_bytes());
    h.update(b"\0");
    h.update(bytes);
    hex::encode(h.finalize())
}

/// Folder of `OUT_DIR` holding cached translations (`<key>.json`).
pub const CACHE_DIR: &str = "dxbc-wgsl-cache";

struct CachingTranslator {
    cache_dir: PathBuf,
    translate: TranslateFn,
    translated: usize,
    cached: usize,
    io_error: Option<BuildError>,
    used: Vec<String>,
}

/// Removes cached translations no effect of this build used (inputs that changed, an older
/// translator), so the cache does not grow without bound.
fn prune_cache(dir: &Path, used: &[String]) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(key) = name.strip_suffix(".json") {
            if !used.iter().any(|u| u == key) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

impl Translator for CachingTranslator {
    fn translate(&mut self, shader: &ShaderRef, bytes: &[u8]) -> Result<StageInfo, compile::ShaderError> {
        let key = cache_key_for(bytes, shader);
        let file = self.cache_dir.join(format!("{key}.json"));
        self.used.push(key);
        if let Ok(text) = std::fs::read(&file) {
            if let Ok(info) = serde_json::from_slice::<StageInfo>(&text) {
                self.cached += 1;
                return Ok(info);
            }
        }
        let options = compile::translate_options(shader).map_err(compile::ShaderError::Options)?;
        let info = (self.translate)(bytes, &options)?;
        self.translated += 1;
        let json = serde_json::to_vec(&info).expect("StageInfo serializes");
        if let Err(e) = std::fs::create_dir_all(&self.cache_dir).and_then(|()| write_atomic(&file, &json)) {
            self.io_error.get_or_insert(BuildError::Io { path: file, source: e });
        }
        Ok(info)
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so a
/// reader never sees half a file.
///
/// A path that names something other than a regular file (`/dev/null`, a FIFO), or an open
/// file through /proc (`/dev/stdout`, `/dev/fd/N`, whatever they refer to), is written in place:
/// renaming over it would replace the device with a file, or the shell's redirection target with
/// another. A symbolic link is followed, so the link stays and its target is replaced
/// atomically (or created). An existing file the process may not write (read-only) is an error,
/// as with [`std::fs::write`].
///
/// On Unix a new file gets mode 0666 less the umask (as with [`std::fs::write`]); a replaced
/// file keeps its mode.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, bytes, true)
}

/// [`write_atomic`], with the temporary file flushed to disk before the rename (`sync`) or not.
/// Without it a reader still never sees half a file, but a crash right after may leave an empty
/// one: fine for outputs that are regenerated anyway (`dxbc-wgsl watch`, where the flush costs
/// milliseconds per file).
pub fn write_atomic_with(path: &Path, bytes: &[u8], sync: bool) -> std::io::Result<()> {
    // Something other than a regular file (`/dev/null`, a FIFO), or a file the process has open
    // named through /proc (`/dev/stdout`, `/dev/fd/N`: a renamed file would replace the shell's
    // redirection target, whose descriptor would then write to a deleted file), is written in
    // place; the process's own standard output and error through their descriptors, so that
    // the bytes land where the shell's redirection (`>`, `>>`, a pipe) puts them.
    let special = std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir());
    match open_file_named(path) {
        Some(OpenFile::Stdout) => return write_flushed(&mut std::io::stdout().lock(), bytes),
        Some(OpenFile::Stderr) => return write_flushed(&mut std::io::stderr().lock(), bytes),
        Some(OpenFile::Other) => {
            let mut f = std::fs::OpenOptions::new().write(true).truncate(!special).open(path)?;
            return f.write_all(bytes);
        }
        None if special => {
            let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
            return f.write_all(bytes);
        }
        None => {}
    }
    // A symbolic link is followed to the file it names (which need not exist yet).
    let resolved = resolve_links(path)?;
    let path = resolved.as_path();
    if std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        // A file this process may not write (read-only, another user's) is refused, as
        // `std::fs::write` refuses it, not replaced by the rename. Opening it changes nothing.
        std::fs::OpenOptions::new().write(true).open(path)?;
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // A fresh, exclusively created temporary (random name, O_EXCL): a symlink planted at a
    // predictable name cannot redirect the write.
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // The file's mode: a replaced file keeps its own; a new one gets 0666 less the umask, as
    // `std::fs::write` gives it (tempfile's default, 0600, would hide outputs from other users).
    #[cfg(unix)]
    let existing = std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.permissions());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // The umask applies to this mode at creation; it is never wider than the final one.
        let mode = existing.as_ref().map_or(0o666, |p| p.mode() & 0o7777);
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    #[cfg(unix)]
    if let Some(permissions) = existing {
        // Exactly the old mode, which the umask may have narrowed at creation.
        tmp.as_file().set_permissions(permissions)?;
    }
    tmp.write_all(bytes)?;
    if sync {
        tmp.as_file().sync_all()?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// `path` with its symbolic links followed, as far as they lead (the last target need not
/// exist: writing creates it, as `std::fs::write` does).
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    // As many links as Linux follows (`ELOOP` after 40).
    for _ in 0..40 {
        if !std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink()) {
            return Ok(p);
        }
        let target = std::fs::read_link(&p)?;
        p = match p.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// An open file [`open_file_named`] finds.
enum OpenFile {
    /// This process's standard output.
    Stdout,
    /// This process's standard error.
    Stderr,
    /// Another open file (another descriptor, or another process's).
    Other,
}

/// The open file `path` names when it is, or links to, an entry of a folder of open files
/// (`/proc/<pid>/fd/N`, `/dev/fd/N`), as `/dev/stdout` and `/dev/stderr` are.
fn open_file_named(path: &Path) -> Option<OpenFile> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        if !std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink()) {
            return None;
        }
        let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let dir = std::fs::canonicalize(dir).ok()?;
        if dir.starts_with("/proc") || dir.starts_with("/dev/fd") {
            let own = dir == Path::new(&format!("/proc/{}/fd", std::process::id())) || dir == Path::new("/dev/fd");
            return Some(match p.file_name().and_then(|n| n.to_str()) {
                Some("1") if own => OpenFile::Stdout,
                Some("2") if own => OpenFile::Stderr,
                _ => OpenFile::Other,
            });
        }
        p = dir.join(std::fs::read_link(&p).ok()?);
    }
    None
}

fn write_flushed(w: &mut impl std::io::Write, bytes: &[u8]) -> std::io::Result<()> {
    w.write_all(bytes)?;
    w.flush()
}

/// Writes atomically unless the file already holds `bytes`; returns whether it wrote.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<bool, BuildError> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_atomic(path, bytes).map_err(|source| BuildError::Io { path: path.to_path_buf(), source })?;
    Ok(true)
}

#[cfg(all(test, unix))]
mod write_atomic_tests {
    use super::write_atomic;
    use std::os::unix::fs::FileTypeExt;

    /// Renaming a temporary file over `/dev/null` would replace the device with a regular file
    /// (it happened once, breaking the whole machine's tools).
    #[test]
    fn write_atomic_keeps_devices() {
        write_atomic(std::path::Path::new("/dev/null"), b"discarded").expect("write to /dev/null");
        let meta = std::fs::metadata("/dev/null").expect("metadata");
        assert!(meta.file_type().is_char_device(), "/dev/null is no longer a character device");
    }

    #[test]
    fn write_atomic_replaces_a_symlink_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("target.txt");
        let link = dir.path().join("link.txt");
        std::fs::write(&target, b"old").expect("write");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        write_atomic(&link, b"new").expect("write");
        assert!(std::fs::symlink_metadata(&link).expect("meta").file_type().is_symlink());
        assert_eq!(std::fs::read(&target).expect("read"), b"new");
    }

    /// A new file gets 0666 less the umask, as `std::fs::write` gives it (not the temporary
    /// file's 0600).
    #[test]
    fn write_atomic_creates_files_with_the_umask_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("new.wgsl");
        // SAFETY: umask only swaps the process's file-creation mask; it is restored right after.
        let old = unsafe { libc::umask(0o022) };
        let written = write_atomic(&file, b"fn main() {}");
        unsafe { libc::umask(old) };
        written.expect("write");
        let mode = std::fs::metadata(&file).expect("metadata").permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "got {mode:o}");
    }

    /// A file the process has open, named through /proc (as `/dev/stdout` names the shell's
    /// redirection target), is written in place: renaming a new file over it left the descriptor
    /// on the deleted old file, so what the shell wrote after was lost.
    #[cfg(target_os = "linux")]
    #[test]
    fn write_atomic_writes_an_open_file_named_through_proc_in_place() {
        use std::io::{Read as _, Seek as _, Write as _};
        use std::os::fd::AsRawFd as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("redirected.txt");
        let mut f =
            std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(true).open(&file).expect("open");
        f.write_all(b"stale").expect("write");
        let through_proc = std::path::PathBuf::from(format!("/proc/self/fd/{}", f.as_raw_fd()));
        write_atomic(&through_proc, b"new").expect("write through /proc");
        let mut seen = String::new();
        f.rewind().expect("rewind");
        f.read_to_string(&mut seen).expect("read");
        assert_eq!(seen, "new", "the open descriptor no longer names the file");
        assert_eq!(std::fs::read(&file).expect("read"), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).expect("read_dir").count(), 1, "a file was left beside it");
    }

    /// A link to a file that does not exist yet creates it (as `std::fs::write` does); the
    /// link stays.
    #[test]
    fn write_atomic_creates_a_dangling_links_target() {
        let dir = tempfile::tempdir().expect("tempdir");
        let link = dir.path().join("link.wgsl");
        std::os::unix::fs::symlink("target.wgsl", &link).expect("symlink");
        write_atomic(&link, b"new").expect("write");
        assert!(std::fs::symlink_metadata(&link).expect("meta").file_type().is_symlink());
        assert_eq!(std::fs::read(dir.path().join("target.wgsl")).expect("read"), b"new");
    }

    /// A read-only file is not replaced: the write fails as `std::fs::write` fails.
    #[test]
    fn write_atomic_refuses_a_read_only_file() {
        use std::os::unix::fs::PermissionsExt;
        // SAFETY: geteuid only reads the process's effective user id.
        if unsafe { libc::geteuid() } == 0 {
            eprintln!("skipped: root may write read-only files");
            return;
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("kept.wgsl");
        std::fs::write(&file, b"old").expect("write");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).expect("chmod");
        let e = write_atomic(&file, b"new").expect_err("a read-only file was replaced");
        assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied, "{e}");
        assert_eq!(std::fs::read(&file).expect("read"), b"old");
    }

    /// A file that is replaced keeps its mode.
    #[test]
    fn write_atomic_keeps_an_existing_files_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("old.rs");
        std::fs::write(&file, b"old").expect("write");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        write_atomic(&file, b"new").expect("write");
        assert_eq!(std::fs::read(&file).expect("read"), b"new");
        let mode = std::fs::metadata(&file).expect("metadata").permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "got {mode:o}");
    }
}
