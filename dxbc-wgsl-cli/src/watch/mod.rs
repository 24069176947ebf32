//! `dxbc-wgsl watch`: re-translate, re-qualify and re-validate shaders and effects as they change.
//!
//! A [`Watcher`] tracks effect files (`*.effect.toml`) with every shader input their rules can name,
//! and bare shader files (`.dxbc`/`.cso` containers, fxc `/Fh` headers `.h`/`.inc`) found in the
//! watched folders that no watched effect uses. Each change is keyed by content (SHA-256): a file
//! whose bytes did not change costs a hash and reports [`Change::Unchanged`]; a changed input
//! re-translates only that input (translations are cached by content), recompiles the effects
//! that use it, and validates again only the permutations whose shaders changed, through a
//! [`Validate`] implementation (the GPU, or [`NoValidation`]).
//!
//! Outputs (with [`Options::out`]): per bare shader `<relative path>.wgsl` (`<stem>#<symbol>.wgsl`
//! for a header array), per effect `<module>.rs` (what `Builder` generates) and `<module>/` with
//! one `<stem>[#symbol].wgsl` per shader input. Files are written atomically and only when their
//! content changes; after a failure the last good output stays. See `docs/watch.md`.
//!
//! [`Watcher::scan`] and [`Watcher::changed`] are the synchronous core (tests drive them
//! directly); [`Watcher::run`] adds `notify` with a short debounce and a stop channel, and
//! [`Watcher::spawn`] runs that on a thread with an event channel.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::panic::AssertUnwindSafe;
use std::path::{Component, Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

use sha2::{Digest as _, Sha256};

use dxbc_wgsl_build::builder::{candidate_inputs, write_atomic_with};
use dxbc_wgsl_build::compile::{
    self, CompiledEffect, CompiledShader, GeometryVariant, ShaderError, Translator, Variant,
};
use dxbc_wgsl_build::effect::ShaderRef;
use dxbc_wgsl_build::stage::StageInfo;
use dxbc_wgsl_build::{Diagnostics, Effect};

pub mod bench;
#[cfg(feature = "gpu")]
pub mod gpu;

/// The default debounce: long enough to merge the writes of one save (truncate-and-write, or
/// write-a-temporary-then-rename), short enough to stay well inside a 50 ms change-to-validated
/// budget.
pub const DEFAULT_DEBOUNCE: Duration = Duration::from_millis(15);

/// Validation of what the translator produced, beyond naga's (which every translation passed).
///
/// The GPU validator (`--gpu`) creates the shader modules and render pipelines on a device;
/// [`NoValidation`] accepts everything. [`Watcher`] hands [`Validate::effect`] only the
/// permutations whose shaders changed since they were last validated (a [`CompiledEffect`] cut
/// down by [`subset`]), so a validator can simply check everything it is given.
pub trait Validate {
    /// One line saying what validates (`none`, the adapter's name, ...), printed at start.
    fn describe(&self) -> String;
    /// Problems found in the effect's permutations (empty: valid).
    fn effect(&mut self, compiled: &CompiledEffect) -> Vec<String>;
    /// Checks one bare shader's translation.
    ///
    /// # Errors
    /// The first problem, one line.
    fn shader(&mut self, translation: &dxbc_wgsl::Translation) -> Result<(), String>;
}

/// Accepts everything: naga's validation (inside the translator) is the only check.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoValidation;

impl Validate for NoValidation {
    fn describe(&self) -> String {
        "naga only (no GPU validation)".into()
    }
    fn effect(&mut self, _compiled: &CompiledEffect) -> Vec<String> {
        Vec::new()
    }
    fn shader(&mut self, _translation: &dxbc_wgsl::Translation) -> Result<(), String> {
        Ok(())
    }
}

impl<V: Validate + ?Sized> Validate for Box<V> {
    fn describe(&self) -> String {
        (**self).describe()
    }
    fn effect(&mut self, compiled: &CompiledEffect) -> Vec<String> {
        (**self).effect(compiled)
    }
    fn shader(&mut self, translation: &dxbc_wgsl::Translation) -> Result<(), String> {
        (**self).shader(translation)
    }
}

/// What to watch and where to write.
#[derive(Debug, Clone)]
pub struct Options {
    /// Effect files, shader files and folders (walked recursively).
    pub paths: Vec<PathBuf>,
    /// Where outputs go; `None`: report only.
    pub out: Option<PathBuf>,
    /// How long a path must be quiet before its change is processed.
    pub debounce: Duration,
}

/// A unit's status after a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Translated and validated.
    Qualified,
    /// Refused for a documented reason (a shader of an effect, or the bare shader).
    Unsupported,
    /// Anything else: unreadable, not a container, effect errors, validation errors, ...
    Failed,
    /// Not a shader program (an effect binary, a root signature, a header without arrays, ...).
    Skipped,
    /// The file is gone.
    Deleted,
}

impl Status {
    /// The word printed.
    pub fn name(self) -> &'static str {
        match self {
            Status::Qualified => "qualified",
            Status::Unsupported => "unsupported",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
            Status::Deleted => "deleted",
        }
    }
}

/// What happened to the subject's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Change {
    /// Seen by the initial scan.
    Found,
    /// Appeared while watching.
    New,
    /// Its content (or an input's) changed.
    Modified,
    /// It was removed.
    Deleted,
    /// Something touched it but the content is the same: no work done.
    Unchanged,
}

impl Change {
    /// The word printed.
    pub fn name(self) -> &'static str {
        match self {
            Change::Found => "found",
            Change::New => "new",
            Change::Modified => "modified",
            Change::Deleted => "deleted",
            Change::Unchanged => "unchanged",
        }
    }
}

/// How the status moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Movement {
    /// No previous status.
    New,
    /// Was not qualified, is now.
    NewlyQualified,
    /// Was qualified, is not any more.
    Regressed,
    /// Same status as before.
    Unchanged,
    /// From one non-qualified status to another.
    Changed,
}

impl Movement {
    fn between(before: Option<Status>, after: Status) -> Movement {
        match before {
            None => Movement::New,
            Some(b) if b == after => Movement::Unchanged,
            Some(Status::Qualified) => Movement::Regressed,
            Some(_) if after == Status::Qualified => Movement::NewlyQualified,
            Some(_) => Movement::Changed,
        }
    }

    /// The words printed.
    pub fn name(self) -> &'static str {
        match self {
            Movement::New => "new",
            Movement::NewlyQualified => "newly qualified",
            Movement::Regressed => "regressed",
            Movement::Unchanged => "unchanged",
            Movement::Changed => "changed",
        }
    }
}

/// One line of output: what changed, the new status, how it moved, what was written, how long it
/// took.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// What happened to the files.
    pub change: Change,
    /// The effect file, or the shader file (`file.h#symbol` for a header array), as shown.
    pub subject: String,
    /// The effect's name, when the subject is an effect.
    pub effect: Option<String>,
    /// The changed files that caused an effect's update (file names), when not the effect file alone.
    pub via: Vec<String>,
    /// The status now.
    pub status: Status,
    /// Why, when not qualified: the refusal, the error, the first diagnostic or validation issue.
    pub reason: Option<String>,
    /// How the status moved.
    pub movement: Movement,
    /// Shader inputs translated for this change (the others came from the content cache).
    pub translated: usize,
    /// Permutations (effects) or shaders validated for this change.
    pub validated: usize,
    /// Files written (content changed).
    pub written: Vec<PathBuf>,
    /// Output files removed.
    pub removed: Vec<PathBuf>,
    /// Whether a previous good output was kept in place (the change failed).
    pub kept_last_good: bool,
    /// Time spent processing the change (the debounce before it is not included).
    pub elapsed: Duration,
}

impl Report {
    fn new(change: Change, subject: String, status: Status, movement: Movement) -> Self {
        Report {
            change,
            subject,
            effect: None,
            via: Vec::new(),
            status,
            reason: None,
            movement,
            translated: 0,
            validated: 0,
            written: Vec::new(),
            removed: Vec::new(),
            kept_last_good: false,
            elapsed: Duration::ZERO,
        }
    }
}

impl fmt::Display for Report {
    /// `modified effects/basic.effect.toml [BasicEffect] via BasicEffect_PSBasic.dxbc: qualified (unchanged);
    /// 1 translated, 8 validated, 2 written (12.3 ms)`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.change.name(), self.subject)?;
        if let Some(e) = &self.effect {
            write!(f, " [{e}]")?;
        }
        if !self.via.is_empty() {
            write!(f, " via {}", self.via.join(", "))?;
        }
        if self.change == Change::Unchanged {
            return write!(f, ": same content, nothing to do ({:.1} ms)", ms(self.elapsed));
        }
        write!(f, ": {}", self.status.name())?;
        if let Some(r) = &self.reason {
            write!(f, ": {r}")?;
        }
        write!(f, " ({})", self.movement.name())?;
        let mut notes = Vec::new();
        if self.translated > 0 {
            notes.push(format!("{} translated", self.translated));
        }
        if self.validated > 0 {
            notes.push(format!("{} validated", self.validated));
        }
        if !self.written.is_empty() {
            notes.push(format!("{} written", self.written.len()));
        }
        if !self.removed.is_empty() {
            notes.push(format!("{} removed", self.removed.len()));
        }
        if self.kept_last_good {
            notes.push("last good output kept".into());
        }
        if !notes.is_empty() {
            write!(f, "; {}", notes.join(", "))?;
        }
        write!(f, " ({:.1} ms)", ms(self.elapsed))
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// What [`Watcher::run`] reports.
#[derive(Debug, Clone)]
pub enum Event {
    /// One change's outcome.
    Report(Report),
    /// The initial scan is done and the file system is being watched.
    Ready {
        /// Effects watched.
        effects: usize,
        /// Bare shaders (header arrays counted one each) watched.
        shaders: usize,
        /// Of those (effects and shaders), how many qualify.
        qualified: usize,
        /// Time the initial scan took.
        elapsed: Duration,
    },
    /// Something went wrong that is not a shader's status (a folder that cannot be watched, a
    /// notify error); the watcher goes on.
    Warning(String),
}

type Hash = [u8; 32];

fn sha(bytes: &[u8]) -> Hash {
    Sha256::digest(bytes).into()
}

/// The content hash of a file, `None` when it is missing, not a regular file or unreadable.
fn file_hash(path: &Path) -> Option<Hash> {
    read_file(path).map(|b| sha(&b))
}

fn read_file(path: &Path) -> Option<Vec<u8>> {
    const MAX_INPUT: u64 = 256 << 20;
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_INPUT {
        return None;
    }
    std::fs::read(path).ok()
}

/// What a shader input file is, by its name (what `watch` and `qualify` walk).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InputKind {
    /// A compiled blob: `.dxbc`, `.cso`.
    Blob,
    /// An fxc `/Fh` header: `.h`, `.inc`.
    Header,
    /// An effect file: `*.effect.toml`.
    Effect,
}

/// The kind of a shader input by its file name (case-insensitive), `None` for other files.
pub fn input_kind(p: &Path) -> Option<InputKind> {
    let name = p.file_name()?.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".effect.toml") {
        return Some(InputKind::Effect);
    }
    match p.extension()?.to_string_lossy().to_ascii_lowercase().as_str() {
        "dxbc" | "cso" => Some(InputKind::Blob),
        "h" | "inc" => Some(InputKind::Header),
        _ => None,
    }
}

/// Removes `.` and `name/..` pairs without touching the file system.
fn lexical_clean(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

/// The path's canonical form when it exists; else its parent's canonical form joined with its
/// name (a deleted file keeps the identity it had); else the absolute path, cleaned.
fn normalize(p: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(p) {
        return c;
    }
    let abs = if p.is_absolute() { p.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(p) };
    let abs = lexical_clean(&abs);
    match (abs.parent(), abs.file_name()) {
        (Some(parent), Some(name)) => match std::fs::canonicalize(parent) {
            Ok(c) => c.join(name),
            Err(_) => abs,
        },
        _ => abs,
    }
}

/// A watched root.
#[derive(Debug, Clone)]
struct Root {
    path: PathBuf,
    dir: bool,
}

impl Root {
    fn covers(&self, p: &Path) -> bool {
        if self.dir {
            p.starts_with(&self.path)
        } else {
            p == self.path
        }
    }
}

/// One shader of a bare file (the file itself, or one array of a header).
#[derive(Debug, Clone)]
struct Unit {
    status: Status,
    blob: Option<Hash>,
}

#[derive(Debug, Clone, Default)]
struct BareFile {
    units: BTreeMap<Option<String>, Unit>,
}

/// What became of one bare shader.
struct Bare {
    status: Status,
    reason: Option<String>,
    wgsl: Option<String>,
    validated: usize,
    translated: usize,
}

/// A translation of one effect input, by content.
#[derive(Debug, Clone)]
struct Translated {
    info: Result<StageInfo, ShaderError>,
    refused: bool,
}

#[derive(Debug, Default)]
struct EffectState {
    status: Option<Status>,
    module: Option<String>,
    name: Option<String>,
    /// The candidate inputs of the last load (canonical).
    inputs: Vec<PathBuf>,
    /// Content of the effect file and each input at the last processing.
    hashes: BTreeMap<PathBuf, Option<Hash>>,
    /// Per (pass, permutation values): the WGSL hashes last validated successfully.
    validated: HashMap<(usize, Vec<usize>), Vec<Option<Hash>>>,
    /// Output files written for it (what a later change may remove).
    files: BTreeSet<PathBuf>,
    /// Translation cache keys its last compile used.
    used: BTreeSet<Hash>,
}

/// The platform's watcher without access events: reading a file (as the watcher itself does)
/// raises `open`/`close` events on Linux, which would otherwise come back as changes.
struct ChangesOnly(notify::RecommendedWatcher);

impl notify::Watcher for ChangesOnly {
    fn new<F: notify::EventHandler>(mut handler: F, config: notify::Config) -> notify::Result<Self> {
        let filter = move |e: notify::Result<notify::Event>| {
            if !matches!(&e, Ok(event) if event.kind.is_access()) {
                handler.handle_event(e);
            }
        };
        notify::RecommendedWatcher::new(filter, config).map(ChangesOnly)
    }
    fn watch(&mut self, path: &Path, mode: notify::RecursiveMode) -> notify::Result<()> {
        self.0.watch(path, mode)
    }
    fn unwatch(&mut self, path: &Path) -> notify::Result<()> {
        self.0.unwatch(path)
    }
    fn kind() -> notify::WatcherKind {
        notify::RecommendedWatcher::kind()
    }
}

enum Msg {
    Fs(notify_debouncer_mini::DebounceEventResult),
    Stop,
}

/// Stops a running [`Watcher`] (from another thread, a Ctrl-C handler, ...).
#[derive(Clone)]
pub struct Stopper(Sender<Msg>);

impl Stopper {
    /// Asks the watcher to stop after the change it is processing; it returns from
    /// [`Watcher::run`].
    pub fn stop(&self) {
        let _ = self.0.send(Msg::Stop);
    }
}

/// A watcher running on its own thread ([`Watcher::spawn`]).
pub struct Running {
    /// Every event, in order.
    pub events: Receiver<Event>,
    stopper: Stopper,
    thread: std::thread::JoinHandle<anyhow::Result<()>>,
}

impl Running {
    /// A handle to stop it.
    pub fn stopper(&self) -> Stopper {
        self.stopper.clone()
    }

    /// Stops it and waits for the thread.
    ///
    /// # Errors
    /// What [`Watcher::run`] returned, or a panic of the thread.
    pub fn stop(self) -> anyhow::Result<()> {
        self.stopper.stop();
        self.thread.join().map_err(|_| anyhow::anyhow!("the watcher thread panicked"))?
    }
}

/// The watcher: tracked files, their last statuses and outputs, the translation cache, the
/// validator.
pub struct Watcher<V> {
    roots: Vec<Root>,
    out: Option<PathBuf>,
    debounce: Duration,
    cwd: PathBuf,
    validator: V,
    /// Content hash of every tracked file at its last processing.
    files: HashMap<PathBuf, Option<Hash>>,
    bare: BTreeMap<PathBuf, BareFile>,
    effects: BTreeMap<PathBuf, EffectState>,
    cache: HashMap<Hash, Translated>,
    watched: BTreeMap<PathBuf, bool>,
    /// Whether containers' checksums are verified (`watch --no-verify-checksum` turns it off).
    verify_checksum: bool,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
}

impl<V: Validate> Watcher<V> {
    /// A watcher over `options.paths` (which must exist, except effect files named explicitly,
    /// which may appear later). Nothing is read until [`Watcher::scan`] or [`Watcher::run`].
    ///
    /// # Errors
    /// A path that does not exist, or no path.
    pub fn new(options: Options, validator: V) -> anyhow::Result<Self> {
        if options.paths.is_empty() {
            anyhow::bail!("nothing to watch: give effect files, shader files or folders");
        }
        let mut roots = Vec::new();
        for p in &options.paths {
            let meta = std::fs::metadata(p);
            if meta.is_err() && input_kind(p) != Some(InputKind::Effect) {
                anyhow::bail!("{}: no such file or directory", p.display());
            }
            roots.push(Root { path: normalize(p), dir: meta.is_ok_and(|m| m.is_dir()) });
        }
        let out = options.out.as_deref().map(|o| {
            let _ = std::fs::create_dir_all(o);
            normalize(o)
        });
        let (tx, rx) = std::sync::mpsc::channel();
        Ok(Watcher {
            roots,
            out,
            debounce: options.debounce,
            cwd: std::env::current_dir().ok().map(|c| normalize(&c)).unwrap_or_default(),
            validator,
            files: HashMap::new(),
            bare: BTreeMap::new(),
            effects: BTreeMap::new(),
            cache: HashMap::new(),
            watched: BTreeMap::new(),
            verify_checksum: true,
            tx,
            rx,
        })
    }

    /// The validator.
    pub fn validator(&self) -> &V {
        &self.validator
    }

    /// Reads containers whose checksum does not match their contents (knowingly patched blobs),
    /// bare shaders and every effect's shaders alike (`watch --no-verify-checksum`; an effect
    /// file's `verify_checksum = false` does so for its own shaders). Call it before the scan.
    pub fn set_verify_checksum(&mut self, verify: bool) {
        self.verify_checksum = verify;
    }

    /// A handle that stops [`Watcher::run`].
    pub fn stopper(&self) -> Stopper {
        Stopper(self.tx.clone())
    }

    fn show(&self, p: &Path) -> String {
        match p.strip_prefix(&self.cwd) {
            Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
            _ => p.display().to_string(),
        }
    }

    fn in_out_dir(&self, p: &Path) -> bool {
        self.out.as_ref().is_some_and(|o| p.starts_with(o))
    }

    /// Every effect file and shader file under the roots (walked), sorted.
    fn discover(&self) -> (BTreeSet<PathBuf>, BTreeSet<PathBuf>) {
        let mut effects = BTreeSet::new();
        let mut shaders = BTreeSet::new();
        for root in &self.roots {
            if root.dir {
                for entry in walkdir::WalkDir::new(&root.path).follow_links(true).into_iter().flatten() {
                    if !entry.file_type().is_file() || self.in_out_dir(entry.path()) {
                        continue;
                    }
                    match input_kind(entry.path()) {
                        Some(InputKind::Effect) => {
                            effects.insert(normalize(entry.path()));
                        }
                        Some(_) => {
                            shaders.insert(normalize(entry.path()));
                        }
                        None => {}
                    }
                }
            } else if input_kind(&root.path) == Some(InputKind::Effect) {
                effects.insert(root.path.clone());
            } else {
                shaders.insert(root.path.clone());
            }
        }
        (effects, shaders)
    }

    /// Inputs of the tracked effects.
    fn claimed(&self) -> BTreeSet<PathBuf> {
        self.effects.values().flat_map(|e| e.inputs.iter().cloned()).collect()
    }

    /// The root a shader file was found under (its folder for an explicit file).
    fn root_of(&self, p: &Path) -> Option<&Root> {
        self.roots.iter().filter(|r| r.covers(p)).max_by_key(|r| r.path.as_os_str().len())
    }

    /// Processes everything once (the initial scan): every effect, then every bare shader.
    pub fn scan(&mut self) -> Vec<Report> {
        let (effects, shaders) = self.discover();
        let mut reports = Vec::new();
        for e in &effects {
            reports.push(self.process_effect(e, Change::Found, Vec::new()));
        }
        let claimed = self.claimed();
        for s in shaders.iter().filter(|s| !claimed.contains(*s)) {
            reports.extend(self.process_bare(s, Change::Found));
        }
        self.prune_cache();
        reports
    }

    /// Processes one batch of changed paths (files or folders, as the file system reported them).
    pub fn changed(&mut self, paths: &[PathBuf]) -> Vec<Report> {
        // The files concerned: the paths, what a changed folder holds, what we knew under it.
        let mut touched: BTreeSet<PathBuf> = BTreeSet::new();
        for p in paths {
            let p = normalize(p);
            if self.in_out_dir(&p) {
                continue;
            }
            if p.is_dir() {
                if !self.roots.iter().any(|r| r.path == p) {
                    for entry in walkdir::WalkDir::new(&p).follow_links(true).into_iter().flatten() {
                        if entry.file_type().is_file() && input_kind(entry.path()).is_some() {
                            touched.insert(normalize(entry.path()));
                        }
                    }
                }
            } else if input_kind(&p).is_some() {
                touched.insert(p.clone());
            }
            let known = self.files.keys().chain(self.effects.keys()).chain(self.bare.keys());
            let under: Vec<PathBuf> = known.filter(|k| k.starts_with(&p) && **k != p).cloned().collect();
            touched.extend(under);
        }
        if touched.is_empty() {
            return Vec::new();
        }

        let mut reports = Vec::new();
        // Effects: the touched effect files under a root, and every effect using a touched input.
        let before = self.claimed();
        let mut affected: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
        for t in &touched {
            if input_kind(t) == Some(InputKind::Effect)
                && (self.effects.contains_key(t) || (self.root_of(t).is_some() && t.is_file()))
            {
                affected.entry(t.clone()).or_default();
            }
            for (e, state) in &self.effects {
                if state.inputs.contains(t) {
                    let name = t.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    affected.entry(e.clone()).or_default().push(name);
                }
            }
        }
        // Deletions first: a renamed effect file frees its module for the new name.
        let mut affected: Vec<(PathBuf, Vec<String>)> = affected.into_iter().collect();
        affected.sort_by_key(|(e, _)| e.is_file());
        for (e, via) in affected {
            let change = if self.effects.contains_key(&e) { Change::Modified } else { Change::New };
            reports.push(self.process_effect(&e, change, via));
        }

        // Bare shaders: touched shader files under a root that no effect uses, files an effect
        // stopped using, and bare files an effect now uses (they stop being bare).
        let claimed = self.claimed();
        let newly_claimed: Vec<PathBuf> = self.bare.keys().filter(|b| claimed.contains(*b)).cloned().collect();
        for b in newly_claimed {
            let t0 = Instant::now();
            let removed = self.forget_bare(&b);
            let mut r = Report::new(Change::Modified, self.show(&b), Status::Skipped, Movement::Changed);
            r.reason = Some("now an input of a watched effect".into());
            r.removed = removed;
            r.elapsed = t0.elapsed();
            reports.push(r);
        }
        let released = before.difference(&claimed).filter(|p| p.is_file()).cloned();
        let mut bare_touched: BTreeSet<PathBuf> = released.collect();
        for t in &touched {
            if matches!(input_kind(t), Some(InputKind::Blob | InputKind::Header))
                && !claimed.contains(t)
                && (self.bare.contains_key(t) || self.root_of(t).is_some())
            {
                bare_touched.insert(t.clone());
            }
        }
        let bare_touched: Vec<PathBuf> =
            bare_touched.into_iter().filter(|b| self.root_of(b).is_some() || self.bare.contains_key(b)).collect();
        for b in bare_touched {
            let change = if self.bare.contains_key(&b) { Change::Modified } else { Change::New };
            reports.extend(self.process_bare(&b, change));
        }
        self.prune_cache();
        reports
    }

    /// Keeps the translations the tracked effects use now (a version edited away is translated
    /// again if it comes back: the cache stays bounded).
    fn prune_cache(&mut self) {
        let used: BTreeSet<Hash> = self.effects.values().flat_map(|e| e.used.iter().copied()).collect();
        self.cache.retain(|k, _| used.contains(k));
    }

    fn forget_bare(&mut self, path: &Path) -> Vec<PathBuf> {
        let mut removed = Vec::new();
        if let Some(file) = self.bare.remove(path) {
            for sym in file.units.keys() {
                if let Some(o) = self.bare_output(path, sym.as_deref()) {
                    if std::fs::remove_file(&o).is_ok() {
                        removed.push(o);
                    }
                }
            }
        }
        self.files.remove(path);
        removed
    }

    /// `<out>/<path relative to its root, extension replaced>.wgsl`; `<stem>#<symbol>.wgsl` for a
    /// header array.
    fn bare_output(&self, path: &Path, symbol: Option<&str>) -> Option<PathBuf> {
        let out = self.out.as_ref()?;
        let rel = match self.root_of(path) {
            Some(r) if r.dir => path.strip_prefix(&r.path).ok()?.to_path_buf(),
            _ => PathBuf::from(path.file_name()?),
        };
        let stem = rel.file_stem()?.to_string_lossy().into_owned();
        let name = match symbol {
            Some(s) => format!("{stem}#{s}.wgsl"),
            None => format!("{stem}.wgsl"),
        };
        Some(out.join(rel.with_file_name(name)))
    }

    fn process_bare(&mut self, path: &Path, change: Change) -> Vec<Report> {
        let t0 = Instant::now();
        let shown = self.show(path);
        let bytes = read_file(path);
        let hash = bytes.as_deref().map(sha);
        let known = self.bare.contains_key(path);
        if known && self.files.get(path) == Some(&hash) {
            let mut r = Report::new(Change::Unchanged, shown, Status::Qualified, Movement::Unchanged);
            if let Some(u) = self.bare[path].units.values().next() {
                r.status = u.status;
            }
            r.elapsed = t0.elapsed();
            return vec![r];
        }
        let Some(bytes) = bytes else {
            if !known {
                return Vec::new();
            }
            let units: Vec<(Option<String>, Unit)> = self.bare[path].units.clone().into_iter().collect();
            let removed = self.forget_bare(path);
            let mut reports = Vec::new();
            for (sym, u) in units {
                let subject = match &sym {
                    Some(s) => format!("{shown}#{s}"),
                    None => shown.clone(),
                };
                let mut r = Report::new(Change::Deleted, subject, Status::Deleted, Movement::Regressed);
                if u.status != Status::Qualified {
                    r.movement = Movement::Changed;
                }
                r.removed = self
                    .out
                    .as_ref()
                    .and_then(|_| self.bare_output(path, sym.as_deref()))
                    .filter(|o| removed.contains(o))
                    .into_iter()
                    .collect();
                r.elapsed = t0.elapsed();
                reports.push(r);
            }
            return reports;
        };
        self.files.insert(path.to_path_buf(), hash);

        // The units: a header's arrays, or the file.
        type Bytes = Result<Vec<u8>, (Status, String)>;
        let mut units: Vec<(Option<String>, Bytes)> = Vec::new();
        if input_kind(path) == Some(InputKind::Header) && !bytes.starts_with(b"DXBC") {
            match String::from_utf8(bytes.clone()) {
                Err(_) => units.push((None, Ok(bytes))),
                Ok(text) => match dxbc_wgsl::header::parse_header(&text) {
                    Err(e) => units.push((None, Err((Status::Failed, e.to_string())))),
                    Ok(blobs) if blobs.is_empty() => {
                        units.push((None, Err((Status::Skipped, "a header without BYTE arrays".into()))))
                    }
                    Ok(blobs) => units.extend(blobs.into_iter().map(|b| (Some(b.symbol), Ok(b.bytes)))),
                },
            }
        } else {
            units.push((None, Ok(bytes)));
        }

        let previous = self.bare.get(path).cloned().unwrap_or_default();
        let mut now = BareFile::default();
        let mut reports = Vec::new();
        for (sym, unit) in units {
            let t1 = Instant::now();
            let subject = match &sym {
                Some(s) => format!("{shown}#{s}"),
                None => shown.clone(),
            };
            let before = previous.units.get(&sym);
            let blob = unit.as_ref().ok().map(|b| sha(b));
            if let (Some(b), Some(old)) = (blob, before) {
                if old.blob == Some(b) {
                    // Another array of the header changed; this one did not.
                    now.units.insert(sym, old.clone());
                    continue;
                }
            }
            let unit_change = if before.is_some() {
                change
            } else if known {
                Change::New
            } else {
                change
            };
            let Bare { status, reason, wgsl, validated, translated } = match unit {
                Err((s, why)) => Bare { status: s, reason: Some(why), wgsl: None, validated: 0, translated: 0 },
                Ok(b) => self.bare_status(&b),
            };
            let mut r = Report::new(unit_change, subject, status, Movement::between(before.map(|u| u.status), status));
            r.reason = reason;
            r.validated = validated;
            r.translated = translated;
            let output = self.bare_output(path, sym.as_deref());
            match (wgsl, &output) {
                (Some(w), Some(o)) => match write_if_changed(o, w.as_bytes()) {
                    Ok(true) => r.written.push(o.clone()),
                    Ok(false) => {}
                    Err(e) => {
                        r.status = Status::Failed;
                        r.reason = Some(format!("cannot write {}: {e}", o.display()));
                        r.movement = Movement::between(before.map(|u| u.status), r.status);
                    }
                },
                (None, Some(o)) => r.kept_last_good = o.is_file(),
                _ => {}
            }
            r.elapsed = t1.elapsed();
            now.units.insert(sym, Unit { status: r.status, blob });
            reports.push(r);
        }
        // Arrays that left the header.
        for (sym, u) in &previous.units {
            if now.units.contains_key(sym) {
                continue;
            }
            let mut r = Report::new(
                Change::Deleted,
                match sym {
                    Some(s) => format!("{shown}#{s}"),
                    None => shown.clone(),
                },
                Status::Deleted,
                if u.status == Status::Qualified { Movement::Regressed } else { Movement::Changed },
            );
            if let Some(o) = self.bare_output(path, sym.as_deref()) {
                if std::fs::remove_file(&o).is_ok() {
                    r.removed.push(o);
                }
            }
            reports.push(r);
        }
        self.bare.insert(path.to_path_buf(), now);
        if reports.is_empty() {
            let mut r = Report::new(Change::Unchanged, shown, Status::Qualified, Movement::Unchanged);
            r.elapsed = t0.elapsed();
            reports.push(r);
        }
        reports
    }

    /// One shader's bytes: classified, translated, validated.
    fn bare_status(&mut self, bytes: &[u8]) -> Bare {
        use dxbc_wgsl::classify::{classify, BlobKind};
        let done =
            |status, reason: String| Bare { status, reason: Some(reason), wgsl: None, validated: 0, translated: 0 };
        let class = classify(bytes);
        match class.kind {
            BlobKind::ShaderProgram { .. } => {}
            BlobKind::Other => {
                let container = bytes.starts_with(b"DXBC")
                    && dxbc_wgsl::Container::parse(bytes, &dxbc_wgsl::ReadOptions { verify_checksum: false }).is_ok();
                let d3d9 = bytes.get(2..4).is_some_and(|w| w == [0xFE, 0xFF] || w == [0xFF, 0xFF]);
                return if container || d3d9 {
                    done(Status::Skipped, class.reason)
                } else {
                    done(Status::Failed, format!("not a shader: {}", class.reason))
                };
            }
            _ => return done(Status::Skipped, class.reason),
        }
        let options = dxbc_wgsl::TranslateOptions { skip_checksum: !self.verify_checksum, ..Default::default() };
        let result = std::panic::catch_unwind(|| dxbc_wgsl::translate(bytes, &options));
        let translated = |mut b: Bare| {
            b.translated = 1;
            b
        };
        match result {
            Err(p) => {
                translated(done(Status::Failed, format!("internal error: the translator panicked: {}", panic_text(&p))))
            }
            Ok(Err(dxbc_wgsl::TranslateError::Unsupported(r))) => {
                translated(done(Status::Unsupported, format!("{}: {}", r.reason.id(), r.detail)))
            }
            Ok(Err(e)) => translated(done(Status::Failed, one_line(&e.to_string()))),
            Ok(Ok(t)) => {
                let v = std::panic::catch_unwind(AssertUnwindSafe(|| self.validator.shader(&t)))
                    .unwrap_or_else(|p| Err(format!("the validator panicked: {}", panic_text(&p))));
                match v {
                    Ok(()) => Bare {
                        status: Status::Qualified,
                        reason: None,
                        wgsl: Some(t.wgsl),
                        validated: 1,
                        translated: 1,
                    },
                    Err(e) => Bare {
                        status: Status::Failed,
                        reason: Some(one_line(&e)),
                        wgsl: None,
                        validated: 1,
                        translated: 1,
                    },
                }
            }
        }
    }

    fn process_effect(&mut self, path: &Path, change: Change, via: Vec<String>) -> Report {
        let t0 = Instant::now();
        let shown = self.show(path);
        let mut state = self.effects.remove(path).unwrap_or_default();
        let before = state.status;
        let effect_hash = file_hash(path);
        let effect_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let via: Vec<String> = via.into_iter().filter(|v| *v != effect_name).collect();

        if effect_hash.is_none() {
            // Deleted, or named (on the command line, in the workspace) but not there (yet). Its
            // outputs go with it; an effect named explicitly stays tracked and comes back when the
            // file does.
            let explicit = self.roots.iter().any(|r| !r.dir && r.path == path);
            let mut r = Report::new(change, shown, Status::Deleted, Movement::between(before, Status::Deleted));
            r.effect = state.name.clone();
            r.via = via;
            match before {
                None | Some(Status::Deleted) => {
                    if before.is_some() {
                        r.change = Change::Unchanged;
                    }
                    r.reason = Some("effect file not found".into());
                }
                Some(_) => {
                    r.change = Change::Deleted;
                    r.removed = self.remove_effect_outputs(&state, None);
                }
            }
            self.files.remove(path);
            if explicit {
                let state = EffectState {
                    status: Some(Status::Deleted),
                    hashes: BTreeMap::from([(path.to_path_buf(), None)]),
                    name: state.name,
                    ..Default::default()
                };
                self.effects.insert(path.to_path_buf(), state);
            }
            r.elapsed = t0.elapsed();
            return r;
        }

        let report = |state: &EffectState, status: Status, reason: Option<String>| {
            let mut r = Report::new(change, shown.clone(), status, Movement::between(before, status));
            r.effect = state.name.clone();
            r.via = via.clone();
            r.reason = reason;
            r
        };
        // Loaded by its shown (relative) path, so that diagnostics name it as the user does.
        let effect = match Effect::load(Path::new(&shown)) {
            Ok(mut e) => {
                e.verify_checksum &= self.verify_checksum;
                e
            }
            Err(d) => {
                let mut hashes = state.hashes.clone();
                hashes.insert(path.to_path_buf(), effect_hash);
                if before.is_some() && hashes == state.hashes && change != Change::Found {
                    let mut r = report(&state, before.unwrap_or(Status::Failed), None);
                    r.change = Change::Unchanged;
                    r.elapsed = t0.elapsed();
                    self.effects.insert(path.to_path_buf(), state);
                    return r;
                }
                state.hashes = hashes;
                state.status = Some(Status::Failed);
                let mut r = report(&state, Status::Failed, Some(first_diagnostic(&d)));
                r.kept_last_good = !state.files.is_empty();
                r.elapsed = t0.elapsed();
                self.effects.insert(path.to_path_buf(), state);
                return r;
            }
        };
        state.name = Some(effect.name.clone());
        let inputs: Vec<PathBuf> = candidate_inputs(&effect).iter().map(|p| normalize(p)).collect();
        let mut hashes: BTreeMap<PathBuf, Option<Hash>> = inputs.iter().map(|p| (p.clone(), file_hash(p))).collect();
        hashes.insert(path.to_path_buf(), effect_hash);
        if before.is_some() && hashes == state.hashes && change != Change::Found {
            let mut r = report(&state, before.unwrap_or(Status::Failed), None);
            r.change = Change::Unchanged;
            r.elapsed = t0.elapsed();
            self.effects.insert(path.to_path_buf(), state);
            return r;
        }
        let effect_changed = state.hashes.get(path) != Some(&effect_hash);
        for (p, h) in &hashes {
            self.files.insert(p.clone(), *h);
        }
        state.hashes = hashes;
        state.inputs = inputs;

        let module = effect.module.clone();
        let owner = self.effects.iter().find(|(p, s)| {
            *p != path && s.module.as_deref() == Some(module.as_str()) && s.status != Some(Status::Deleted)
        });
        if let Some((other, _)) = owner {
            let why = format!(
                "generates module `{module}`, as {} does: give one of them another `module` in [effect]",
                self.show(other)
            );
            state.status = Some(Status::Failed);
            let mut r = report(&state, Status::Failed, Some(why));
            r.elapsed = t0.elapsed();
            self.effects.insert(path.to_path_buf(), state);
            return r;
        }
        let mut translator =
            CacheTranslator { cache: &mut self.cache, used: BTreeSet::new(), translated: 0, refused: false };
        let compiled = compile::compile(effect, &mut translator);
        let (translated, refused) = (translator.translated, translator.refused);
        state.used = translator.used;
        let compiled = match compiled {
            Ok(c) => c,
            Err(d) => {
                let status = if refused { Status::Unsupported } else { Status::Failed };
                state.status = Some(status);
                let mut r = report(&state, status, Some(first_diagnostic(&d)));
                r.translated = translated;
                r.kept_last_good = !state.files.is_empty();
                r.elapsed = t0.elapsed();
                self.effects.insert(path.to_path_buf(), state);
                return r;
            }
        };

        // Validate the permutations whose shaders changed since they were last validated.
        if effect_changed || state.module.as_deref() != Some(module.as_str()) {
            state.validated.clear();
        }
        let keys = variant_keys(&compiled);
        let mut stale: Vec<usize> = keys
            .iter()
            .filter(|((pi, vi), v)| state.validated.get(&(*pi, compiled.permutations[*vi].clone())) != Some(v))
            .map(|((_, vi), _)| *vi)
            .collect();
        stale.sort_unstable();
        stale.dedup();
        let mut issues = Vec::new();
        let mut validated = 0;
        if !stale.is_empty() {
            let sub = subset(&compiled, &stale);
            validated = stale.len() * compiled.passes.len();
            issues = std::panic::catch_unwind(AssertUnwindSafe(|| self.validator.effect(&sub)))
                .unwrap_or_else(|p| vec![format!("the validator panicked: {}", panic_text(&p))]);
        }
        if !issues.is_empty() {
            state.status = Some(Status::Failed);
            let more = if issues.len() > 1 { format!(" (and {} more)", issues.len() - 1) } else { String::new() };
            let mut r = report(&state, Status::Failed, Some(format!("{}{more}", one_line(&issues[0]))));
            r.translated = translated;
            r.validated = validated;
            r.kept_last_good = !state.files.is_empty();
            r.elapsed = t0.elapsed();
            self.effects.insert(path.to_path_buf(), state);
            return r;
        }
        for ((pi, vi), v) in keys {
            state.validated.insert((pi, compiled.permutations[vi].clone()), v);
        }

        let mut r = report(&state, Status::Qualified, None);
        r.translated = translated;
        r.validated = validated;
        if self.out.is_some() {
            match self.write_effect(&compiled, &mut state) {
                Ok((written, removed)) => {
                    r.written = written;
                    r.removed = removed;
                }
                Err(e) => {
                    r.status = Status::Failed;
                    r.reason = Some(e);
                    r.movement = Movement::between(before, Status::Failed);
                    r.kept_last_good = true;
                }
            }
        }
        state.module = Some(module);
        state.status = Some(r.status);
        r.elapsed = t0.elapsed();
        self.effects.insert(path.to_path_buf(), state);
        r
    }

    /// Writes `<module>.rs` and `<module>/<stem>.wgsl` per shader input; removes what the effect
    /// no longer produces. Returns (written, removed).
    fn write_effect(
        &self,
        compiled: &CompiledEffect,
        state: &mut EffectState,
    ) -> Result<(Vec<PathBuf>, Vec<PathBuf>), String> {
        let out = self.out.as_ref().expect("checked by the caller");
        let module = &compiled.effect.module;
        let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
        files.push((out.join(format!("{module}.rs")), dxbc_wgsl_build::generate(compiled).into_bytes()));
        let dir = out.join(module);
        for (name, s) in effect_wgsl_files(compiled) {
            files.push((dir.join(name), s.info.wgsl.clone().into_bytes()));
        }
        let mut written = Vec::new();
        for (p, bytes) in &files {
            match write_if_changed(p, bytes) {
                Ok(true) => written.push(p.clone()),
                Ok(false) => {}
                Err(e) => return Err(format!("cannot write {}: {e}", p.display())),
            }
        }
        let keep: BTreeSet<PathBuf> = files.into_iter().map(|(p, _)| p).collect();
        let removed = self.remove_effect_outputs(state, Some(&keep));
        state.files = keep;
        Ok((written, removed))
    }

    /// Removes the effect's outputs except `keep`: the files it wrote before, and stray `.wgsl`
    /// files in its module folder.
    fn remove_effect_outputs(&self, state: &EffectState, keep: Option<&BTreeSet<PathBuf>>) -> Vec<PathBuf> {
        let empty = BTreeSet::new();
        let keep = keep.unwrap_or(&empty);
        let mut candidates: BTreeSet<PathBuf> = state.files.clone();
        if let (Some(out), Some(m)) = (&self.out, &state.module) {
            candidates.insert(out.join(format!("{m}.rs")));
            if let Ok(entries) = std::fs::read_dir(out.join(m)) {
                for e in entries.flatten() {
                    if e.path().extension().is_some_and(|x| x == "wgsl") {
                        candidates.insert(e.path());
                    }
                }
            }
        }
        let mut removed = Vec::new();
        for c in candidates.difference(keep) {
            if std::fs::remove_file(c).is_ok() {
                removed.push(c.clone());
            }
        }
        if let (Some(out), Some(m)) = (&self.out, &state.module) {
            let _ = std::fs::remove_dir(out.join(m)); // only when empty
        }
        removed
    }

    /// The folders to watch: each folder root recursively; the folder of each file root and of
    /// each effect's file and inputs (not recursively) unless a recursive root covers it.
    fn wanted_watches(&self) -> BTreeMap<PathBuf, bool> {
        let mut w: BTreeMap<PathBuf, bool> = BTreeMap::new();
        for r in &self.roots {
            if r.dir {
                w.insert(r.path.clone(), true);
            }
        }
        let covered = |p: &Path, w: &BTreeMap<PathBuf, bool>| w.iter().any(|(d, rec)| *rec && p.starts_with(d));
        let mut files: Vec<PathBuf> = self.roots.iter().filter(|r| !r.dir).map(|r| r.path.clone()).collect();
        for (e, s) in &self.effects {
            files.push(e.clone());
            files.extend(s.inputs.iter().cloned());
        }
        for f in files {
            if let Some(parent) = f.parent() {
                if !covered(parent, &w) && parent.is_dir() {
                    w.entry(parent.to_path_buf()).or_insert(false);
                }
            }
        }
        w
    }

    fn sync_watches(&mut self, watcher: &mut dyn notify::Watcher, on_event: &mut dyn FnMut(Event)) {
        let wanted = self.wanted_watches();
        let old: Vec<(PathBuf, bool)> = self.watched.iter().map(|(p, r)| (p.clone(), *r)).collect();
        for (p, rec) in old {
            if wanted.get(&p) != Some(&rec) {
                let _ = watcher.unwatch(&p);
                self.watched.remove(&p);
            }
        }
        for (p, rec) in wanted {
            if self.watched.contains_key(&p) {
                continue;
            }
            let mode = if rec { notify::RecursiveMode::Recursive } else { notify::RecursiveMode::NonRecursive };
            match watcher.watch(&p, mode) {
                Ok(()) => {
                    self.watched.insert(p, rec);
                }
                Err(e) => on_event(Event::Warning(format!("cannot watch {}: {e}", self.show(&p)))),
            }
        }
    }

    /// Watches until stopped ([`Watcher::stopper`]): the initial scan ([`Event::Report`]s with
    /// [`Change::Found`], then [`Event::Ready`]), then one batch of reports per debounced change.
    ///
    /// # Errors
    /// The file-system watcher cannot start.
    pub fn run(mut self, mut on_event: impl FnMut(Event)) -> anyhow::Result<()> {
        let tx = self.tx.clone();
        let config = notify_debouncer_mini::Config::default().with_timeout(self.debounce).with_batch_mode(false);
        let mut debouncer = notify_debouncer_mini::new_debouncer_opt::<_, ChangesOnly>(config, move |r| {
            let _ = tx.send(Msg::Fs(r));
        })?;
        // Watch first, then scan: a change during the scan is seen (at worst twice, "unchanged").
        let t0 = Instant::now();
        self.sync_watches(debouncer.watcher(), &mut on_event);
        let reports = self.scan();
        self.sync_watches(debouncer.watcher(), &mut on_event);
        let qualified = reports.iter().filter(|r| r.status == Status::Qualified).count();
        for r in reports {
            on_event(Event::Report(r));
        }
        on_event(Event::Ready {
            effects: self.effects.len(),
            shaders: self.bare.values().map(|b| b.units.len()).sum(),
            qualified,
            elapsed: t0.elapsed(),
        });
        while let Ok(first) = self.rx.recv() {
            let mut batch = vec![first];
            while let Ok(m) = self.rx.try_recv() {
                batch.push(m);
            }
            let mut paths = Vec::new();
            let mut stop = false;
            for m in batch {
                match m {
                    Msg::Stop => stop = true,
                    Msg::Fs(Ok(events)) => paths.extend(events.into_iter().map(|e| e.path)),
                    Msg::Fs(Err(e)) => on_event(Event::Warning(format!("file watching: {e}"))),
                }
            }
            if stop {
                break;
            }
            paths.sort();
            paths.dedup();
            for r in self.changed(&paths) {
                on_event(Event::Report(r));
            }
            self.sync_watches(debouncer.watcher(), &mut on_event);
        }
        Ok(())
    }

    /// Runs [`Watcher::run`] on a thread; its events arrive on [`Running::events`].
    pub fn spawn(self) -> Running
    where
        V: Send + 'static,
    {
        let (tx, rx) = std::sync::mpsc::channel();
        let stopper = self.stopper();
        let thread = std::thread::spawn(move || {
            self.run(|e| {
                let _ = tx.send(e);
            })
        });
        Running { events: rx, stopper, thread }
    }
}

/// The stage WGSL files of an effect: one per shader input (label), named `<stem>[#symbol].wgsl`
/// (`BasicEffect_VSBasic.dxbc` → `BasicEffect_VSBasic.wgsl`, `shaders.h:g_VS` → `shaders#g_VS.wgsl`);
/// a name two inputs share gets `~2`, `~3`, ...
pub fn effect_wgsl_files(compiled: &CompiledEffect) -> Vec<(String, &CompiledShader)> {
    let mut out: Vec<(String, &CompiledShader)> = Vec::new();
    for s in &compiled.shaders {
        for label in &s.labels {
            let base = wgsl_file_stem(label);
            let mut name = format!("{base}.wgsl");
            let mut n = 2;
            while out.iter().any(|(o, _)| *o == name) {
                name = format!("{base}~{n}.wgsl");
                n += 1;
            }
            out.push((name, s));
        }
    }
    out
}

/// `<stem>[#symbol][.role]` of a shader label (`file.dxbc`, `file.h:symbol`; a shader around a
/// geometry shader adds its role: `file.dxbc (vertex pulling)` is `file.vertex-pulling`).
pub fn wgsl_file_stem(label: &str) -> String {
    if let Some((base, role)) = label.strip_suffix(')').and_then(|l| l.rsplit_once(" (")) {
        return format!("{}.{}", wgsl_file_stem(base), role.replace(' ', "-"));
    }
    let (file, symbol) = match label.rsplit_once(':') {
        Some((f, s)) => (f, Some(s)),
        None => (label, None),
    };
    let stem = Path::new(file).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| file.into());
    match symbol {
        Some(s) => format!("{stem}#{s}"),
        None => stem,
    }
}

/// (pass, permutation index) and the WGSL hashes of its shaders: vertex (or compute), pixel,
/// geometry and the draw's vertex shader (a pass with a geometry shader).
type VariantKey = ((usize, usize), Vec<Option<Hash>>);

fn variant_keys(c: &CompiledEffect) -> Vec<VariantKey> {
    let wgsl: Vec<Hash> = c.shaders.iter().map(|s| sha(s.info.wgsl.as_bytes())).collect();
    let mut keys = Vec::new();
    for (pi, pass) in c.passes.iter().enumerate() {
        for (vi, v) in pass.iter().enumerate() {
            let g = v.geometry;
            let stages = [Some(v.vertex), v.pixel, g.map(|g| g.geometry), g.map(|g| g.draw_vertex)];
            keys.push(((pi, vi), stages.iter().map(|s| s.map(|s| wgsl[s])).collect()));
        }
    }
    keys
}

/// The effect cut down to the given permutations (indices into `permutations`), with only the
/// shaders they use: what a validator needs to check them, and nothing else.
pub fn subset(c: &CompiledEffect, permutations: &[usize]) -> CompiledEffect {
    let mut used: Vec<usize> = Vec::new();
    for pass in &c.passes {
        for &vi in permutations {
            let v = pass[vi];
            used.extend(v.stages().chain(v.geometry.map(|g| g.draw_vertex)));
        }
    }
    used.sort_unstable();
    used.dedup();
    let remap = |i: usize| used.binary_search(&i).expect("collected above");
    CompiledEffect {
        effect: c.effect.clone(),
        permutations: permutations.iter().map(|&vi| c.permutations[vi].clone()).collect(),
        shaders: used.iter().map(|&i| c.shaders[i].clone()).collect(),
        passes: c
            .passes
            .iter()
            .map(|pass| {
                permutations
                    .iter()
                    .map(|&vi| Variant {
                        vertex: remap(pass[vi].vertex),
                        pixel: pass[vi].pixel.map(remap),
                        geometry: pass[vi].geometry.map(|g| GeometryVariant {
                            geometry: remap(g.geometry),
                            draw_vertex: remap(g.draw_vertex),
                            input_layout: g.input_layout,
                            stream_output: g.stream_output,
                        }),
                    })
                    .collect()
            })
            .collect(),
        resources: c.resources.clone(),
        inputs: c.inputs.clone(),
        input_layouts: c.input_layouts.clone(),
        stream_outputs: c.stream_outputs.clone(),
    }
}

/// Translates effect inputs, cached by content (the translation only depends on the bytes).
struct CacheTranslator<'a> {
    cache: &'a mut HashMap<Hash, Translated>,
    used: BTreeSet<Hash>,
    translated: usize,
    refused: bool,
}

impl Translator for CacheTranslator<'_> {
    fn translate(&mut self, shader: &ShaderRef, bytes: &[u8]) -> Result<StageInfo, ShaderError> {
        let options = dxbc_wgsl_build::compile::translate_options(shader).map_err(ShaderError::Options)?;
        // The view formats, the checksum setting and the role around a geometry shader are part
        // of what is translated.
        let role = shader.role.key();
        let key = if shader.view_formats.is_empty() && shader.verify_checksum && role.is_empty() {
            sha(bytes)
        } else {
            let mut keyed = bytes.to_vec();
            keyed.extend_from_slice(format!("\0view formats {:?}", shader.view_formats).as_bytes());
            if !shader.verify_checksum {
                keyed.extend_from_slice(b"\0checksum not verified");
            }
            if !role.is_empty() {
                keyed.extend_from_slice(format!("\0role {role}").as_bytes());
            }
            sha(&keyed)
        };
        self.used.insert(key);
        let t = self.cache.entry(key).or_insert_with(|| {
            self.translated += 1;
            let info = dxbc_wgsl_build::compile::translate_bytes_with(bytes, &options);
            let refused = info.as_ref().is_err_and(|e| e.refusal().is_some());
            Translated { info, refused }
        });
        self.refused |= t.refused;
        t.info.clone()
    }
}

fn first_diagnostic(d: &Diagnostics) -> String {
    let first = d.first().map(ToString::to_string).unwrap_or_default();
    let more = if d.0.len() > 1 { format!(" (and {} more)", d.0.len() - 1) } else { String::new() };
    format!("{}{more}", one_line(&first))
}

fn one_line(s: &str) -> String {
    s.trim().replace('\n', "; ")
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
        .replace('\n', " ")
}

/// Writes atomically (temporary file, rename; not flushed to disk: outputs are regenerated after a
/// crash) unless the file already holds `bytes`; returns whether it wrote.
fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_atomic_with(path, bytes, false)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wgsl_file_names() {
        assert_eq!(wgsl_file_stem("BasicEffect_VSBasic.dxbc"), "BasicEffect_VSBasic");
        assert_eq!(wgsl_file_stem("shaders.h:g_VSMain"), "shaders#g_VSMain");
        assert_eq!(wgsl_file_stem("noext"), "noext");
        assert_eq!(wgsl_file_stem("GS.dxbc (draw vertex shader)"), "GS.draw-vertex-shader");
        assert_eq!(wgsl_file_stem("fx.h:g_VS (vertex pulling)"), "fx#g_VS.vertex-pulling");
    }

    #[test]
    fn movements() {
        assert_eq!(Movement::between(None, Status::Failed), Movement::New);
        assert_eq!(Movement::between(Some(Status::Failed), Status::Qualified), Movement::NewlyQualified);
        assert_eq!(Movement::between(Some(Status::Qualified), Status::Failed), Movement::Regressed);
        assert_eq!(Movement::between(Some(Status::Qualified), Status::Qualified), Movement::Unchanged);
        assert_eq!(Movement::between(Some(Status::Unsupported), Status::Failed), Movement::Changed);
    }
}
