//! `dxbc-wgsl qualify`: which of a project's shaders translate.
//!
//! Walks files and folders, finds every shader (`.dxbc`/`.cso` containers, every `BYTE name[]`
//! array of an fxc `/Fh` header `.h`/`.inc`, every distinct shader input an effect file
//! `*.effect.toml` references), translates each (a geometry shader also with stream output of
//! every stream it declares, as a pass with a stream-output declaration translates it),
//! optionally checks the WGSL with Tint, and reports
//! per shader `qualified`, `unsupported` (a documented refusal) or `failed` (our bug, or an input
//! that cannot be read). Blobs that are not shader programs (effect binaries, root signatures,
//! effect expression bytecode, ...) are listed in the JSON report as `skipped-not-a-shader` and
//! counted apart. The output is deterministic: records are sorted by path, and the parallel work
//! is collected in input order.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{IsTerminal as _, Write as _};
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context as _};
use dxbc_wgsl::classify::{classify, BlobKind};
use dxbc_wgsl::{TranslateError, TranslateOptions};
use dxbc_wgsl_build::compile;
use dxbc_wgsl_build::effect::ShaderRef;
use dxbc_wgsl_build::Effect;
use dxbc_wgsl_cli::watch::{input_kind as kind_of, InputKind as FileKind};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest as _, Sha256};

/// What `qualify` was asked to do.
#[derive(Debug)]
pub struct Args {
    /// Files and folders to walk.
    pub paths: Vec<PathBuf>,
    /// Where to write the JSON report.
    pub json: Option<PathBuf>,
    /// Also check every naga-valid module with Tint.
    pub tint: bool,
    /// Also compile every naga-valid module in headless Chromium (`--browser`).
    pub browser: bool,
    /// Never draw a progress bar.
    pub no_progress: bool,
    /// Also create every qualified shader's pipeline on a GPU with this check (`--gpu`).
    pub gpu: Option<Gpu>,
    /// `--no-gpu` was given: say that only naga (and Tint) validated.
    pub no_gpu: bool,
    /// `--no-verify-checksum`: read every container without verifying its checksum (an effect
    /// file's `verify_checksum = false` does so for its own shaders).
    pub no_verify_checksum: bool,
}

/// A GPU check of one translation: `Ok`, or why its pipeline did not pass.
pub type GpuCheck = Box<dyn Fn(&dxbc_wgsl::Translation) -> Result<(), GpuRejection> + Sync>;

/// A shader whose pipeline the GPU check did not pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuRejection {
    /// The pipeline needs a feature the adapter lacks: the shader is not checked (not failed).
    pub missing_feature: bool,
    /// The verdict as the report shows it: `error: ...`, `warning: ...`, or `skipped: needs
    /// feature X the adapter lacks`.
    pub message: String,
}

/// The GPU `qualify --gpu` validates on.
pub struct Gpu {
    /// The adapter, for the summary.
    pub adapter: String,
    /// Validates one translation.
    pub check: GpuCheck,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu").field("adapter", &self.adapter).finish_non_exhaustive()
    }
}

/// A shader's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Translated; naga (and Tint, where it ran) accept the WGSL (a geometry shader's
    /// stream-output form's too).
    Qualified,
    /// Refused for a documented reason.
    Unsupported,
    /// An internal error, a panic, invalid WGSL, or an input that cannot be read.
    Failed,
    /// Not a shader program (effect binary, root signature, effect expression, ...).
    SkippedNotAShader,
}

/// Where and why a shader was refused.
#[derive(Debug, Clone, Serialize)]
pub struct RefusalRecord {
    /// The reason's id (`opcode_unsupported`, ...).
    pub reason: &'static str,
    /// Instruction index in the token stream.
    pub instruction: Option<usize>,
    /// Byte offset of the instruction in the container.
    pub offset: Option<usize>,
    /// Opcode mnemonic.
    pub opcode: Option<&'static str>,
    /// Details.
    pub detail: String,
}

/// One report record.
#[derive(Debug, Clone, Serialize)]
pub struct Record {
    /// The file, with `#symbol` for a header array.
    pub path: String,
    /// SHA-256 of the blob's bytes (`null` when they could not be read).
    pub sha256: Option<String>,
    /// What the blob is (`shader`, `effect`, `root signature`, `effect expression`, `other`).
    pub kind: Option<&'static str>,
    /// `vertex`, `pixel`, `geometry`, `hull`, `domain` or `compute`.
    pub stage: Option<&'static str>,
    /// Shader model, e.g. `5_0`.
    pub shader_model: Option<String>,
    /// The status.
    pub status: Status,
    /// The refusal (`id: detail`), the error, or why the blob is skipped; `null` when qualified.
    pub reason: Option<String>,
    /// The refusal, structured, when unsupported.
    pub refusal: Option<RefusalRecord>,
    /// SHA-256 of the WGSL text, when qualified.
    pub wgsl_sha256: Option<String>,
    /// A geometry shader: SHA-256 of the WGSL of its stream-output translation (every stream it
    /// declares streamed out, stream 0 rasterized when declared), when qualified; omitted for
    /// the other stages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_output_wgsl_sha256: Option<String>,
    /// Tint's verdict: `true` accepted, `false` rejected, `null` not run.
    pub tint: Option<bool>,
    /// Chromium's verdict (`qualify --browser`): `true` when `getCompilationInfo()` gave no
    /// message at all, `false` when it gave any (an error or a warning also makes the shader
    /// `failed`), `null` not run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser: Option<bool>,
    /// Why Chromium did not compile the module (`needs feature primitive-index, which the
    /// adapter lacks`): then `browser` is `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_skipped: Option<String>,
    /// Chromium's messages, when it gave any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub browser_messages: Vec<dxbc_wgsl_cli::tint::TintMessage>,
    /// The GPU's verdict on the shader's pipeline: `ok`, `error: ...` (then `failed`),
    /// `skipped: needs feature X the adapter lacks`, or `null` when not run.
    pub gpu: Option<String>,
    /// The GPU check was skipped for a feature the adapter lacks.
    #[serde(skip)]
    pub gpu_skipped: bool,
}

/// Totals of a run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    /// Qualified shaders.
    pub qualified: usize,
    /// Refused shaders.
    pub unsupported: usize,
    /// Failed shaders.
    pub failed: usize,
    /// Blobs that are not shader programs (not counted above).
    pub skipped_not_a_shader: usize,
}

/// The GPU part of a run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GpuSummary {
    /// The adapter.
    pub adapter: String,
    /// Pipelines the device accepted.
    pub ok: usize,
    /// Pipelines it rejected (their shaders are `failed`).
    pub errors: usize,
    /// Pipelines not created for a feature the adapter lacks.
    pub skipped: usize,
}

#[derive(Serialize)]
struct Report<'a> {
    translator_version: &'static str,
    tint: bool,
    browser: bool,
    gpu: Option<&'a GpuSummary>,
    summary: &'a Summary,
    refusal_histogram: BTreeMap<&'static str, usize>,
    records: &'a [Record],
}

/// Where a shader's bytes come from.
enum Load {
    /// A file read when the shader is processed.
    File(PathBuf),
    /// Bytes already read (a header array, an effect's shader input).
    Bytes(Vec<u8>),
    /// The input could not be read.
    Error(String),
}

struct Input {
    /// The file (what two inputs are compared by: names that are not UTF-8 can show alike).
    path: PathBuf,
    /// The file as shown in the report.
    display: String,
    symbol: Option<String>,
    load: Load,
    /// View-format settings (`u0=rgba8unorm`) from the effect file that references the input.
    view_formats: Vec<String>,
    /// Whether the container's checksum is verified (`--no-verify-checksum`, or the effect
    /// file's `verify_checksum = false`, turn it off).
    verify_checksum: bool,
}

impl Input {
    fn label(&self) -> String {
        match &self.symbol {
            Some(s) => format!("{}#{s}", self.display),
            None => self.display.clone(),
        }
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
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Every input under the given paths, deduplicated (an effect's shader that the walk also found
/// is one record) and sorted by path. Also returns how many headers held no arrays.
/// `verify_checksum: false` turns the checksum check off for every input.
fn discover(paths: &[PathBuf], verify_checksum: bool) -> anyhow::Result<(Vec<Input>, usize)> {
    let mut files: Vec<(PathBuf, FileKind)> = Vec::new();
    for root in paths {
        let meta = std::fs::metadata(root).with_context(|| format!("{}: no such file or directory", root.display()))?;
        if meta.is_dir() {
            for entry in walkdir::WalkDir::new(root).follow_links(true).sort_by_file_name() {
                // A dangling symlink or a loop is reported and skipped; the run goes on.
                let entry = match entry {
                    Ok(e) => e,
                    Err(e) => {
                        eprintln!("warning: skipping an entry under {}: {e}", root.display());
                        continue;
                    }
                };
                if entry.file_type().is_file() {
                    if let Some(k) = kind_of(entry.path()) {
                        files.push((entry.into_path(), k));
                    }
                }
            }
        } else {
            // A file named explicitly: by its extension, else as a blob.
            files.push((root.clone(), kind_of(root).unwrap_or(FileKind::Blob)));
        }
    }

    let mut inputs: Vec<Input> = Vec::new();
    let mut empty_headers = 0;
    let mut effect_refs: Vec<ShaderRef> = Vec::new();
    for (path, kind) in files {
        let display = path.display().to_string();
        match kind {
            FileKind::Blob => inputs.push(Input {
                path: path.clone(),
                display,
                symbol: None,
                load: Load::File(path),
                view_formats: Vec::new(),
                verify_checksum,
            }),
            FileKind::Header => match compile::read_limited(&path, compile::MAX_INPUT_BYTES) {
                Err(e) => inputs.push(Input {
                    path: path.clone(),
                    display,
                    symbol: None,
                    load: Load::Error(format!("cannot read: {e}")),
                    view_formats: Vec::new(),
                    verify_checksum,
                }),
                Ok(bytes) => {
                    let Ok(text) = String::from_utf8(bytes) else {
                        // Not a text header: a blob with a header's extension, or binary junk.
                        inputs.push(Input {
                            path: path.clone(),
                            display,
                            symbol: None,
                            load: Load::File(path),
                            view_formats: Vec::new(),
                            verify_checksum,
                        });
                        continue;
                    };
                    match dxbc_wgsl::header::parse_header(&text) {
                        Err(e) => inputs.push(Input {
                            path: path.clone(),
                            display,
                            symbol: None,
                            load: Load::Error(e.to_string()),
                            view_formats: Vec::new(),
                            verify_checksum,
                        }),
                        Ok(blobs) if blobs.is_empty() => empty_headers += 1,
                        Ok(blobs) => inputs.extend(blobs.into_iter().map(|b| Input {
                            path: path.clone(),
                            display: display.clone(),
                            symbol: Some(b.symbol),
                            load: Load::Bytes(b.bytes),
                            view_formats: Vec::new(),
                            verify_checksum,
                        })),
                    }
                }
            },
            FileKind::Effect => match effect_inputs(&path) {
                Ok(refs) => effect_refs.extend(refs),
                Err(e) => inputs.push(Input {
                    path: path.clone(),
                    display,
                    symbol: None,
                    load: Load::Error(e),
                    view_formats: Vec::new(),
                    verify_checksum,
                }),
            },
        }
    }
    for r in effect_refs {
        let path = lexical_clean(&r.path);
        let display = path.display().to_string();
        let load = match compile::read_shader(&r) {
            Ok(bytes) => Load::Bytes(bytes),
            Err(e) => Load::Error(e.to_string()),
        };
        let verify_checksum = verify_checksum && r.verify_checksum;
        inputs.push(Input { path, display, symbol: r.symbol, load, view_formats: r.view_formats, verify_checksum });
    }

    // One record per (file, symbol, view formats, checksum check): the first occurrence (walked
    // files come before effect inputs; an effect's view formats or `verify_checksum = false` make
    // another translation of the same file).
    let mut seen = BTreeSet::new();
    inputs.retain(|i| {
        let key = std::fs::canonicalize(&i.path).unwrap_or_else(|_| i.path.clone());
        seen.insert((key, i.symbol.clone(), i.view_formats.clone(), i.verify_checksum))
    });
    inputs.sort_by(|a, b| (&a.display, &a.symbol).cmp(&(&b.display, &b.symbol)));
    Ok((inputs, empty_headers))
}

/// The distinct shader inputs an effect file references, over every permutation and pass.
fn effect_inputs(path: &Path) -> Result<Vec<ShaderRef>, String> {
    let first = |d: dxbc_wgsl_build::Diagnostics| d.first().map(ToString::to_string).unwrap_or_default();
    let effect = Effect::load(path).map_err(first)?;
    let mut refs = BTreeSet::new();
    for values in effect.permutations() {
        for pass in &effect.passes {
            for rules in pass.stage_rules() {
                refs.insert(effect.shader_for(rules, &values).map_err(|d| d.to_string())?);
            }
        }
    }
    Ok(refs.into_iter().collect())
}

thread_local! {
    /// The message of the last panic on this thread (set by the hook `run` installs).
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The translation of one input, before Tint.
struct Outcome {
    record: Record,
    /// The WGSL, kept for Tint when it runs.
    wgsl: Option<String>,
    /// The translation, kept for the GPU when it runs.
    translation: Option<dxbc_wgsl::Translation>,
    /// A geometry shader's stream-output translation: its WGSL, kept for Tint.
    so_wgsl: Option<String>,
    /// A geometry shader's stream-output translation, kept for the GPU.
    so_translation: Option<dxbc_wgsl::Translation>,
}

impl Outcome {
    fn plain(record: Record) -> Self {
        Outcome { record, wgsl: None, translation: None, so_wgsl: None, so_translation: None }
    }
}

fn failed(path: String, sha256: Option<String>, reason: String) -> Record {
    Record {
        path,
        sha256,
        kind: None,
        stage: None,
        shader_model: None,
        status: Status::Failed,
        reason: Some(reason),
        refusal: None,
        wgsl_sha256: None,
        stream_output_wgsl_sha256: None,
        tint: None,
        browser: None,
        browser_messages: Vec::new(),
        browser_skipped: None,
        gpu: None,
        gpu_skipped: false,
    }
}

/// The translator `qualify` runs (a parameter so that tests can make it panic).
type TranslateFn = fn(&[u8], &TranslateOptions) -> Result<dxbc_wgsl::Translation, TranslateError>;

fn translate_default(bytes: &[u8], options: &TranslateOptions) -> Result<dxbc_wgsl::Translation, TranslateError> {
    dxbc_wgsl::translate(bytes, options)
}

fn process(input: &Input, keep_wgsl: bool, keep_translation: bool, translate: TranslateFn) -> Outcome {
    let path = input.label();
    let bytes = match &input.load {
        // Bounded: a named `/dev/zero` (or a huge file) would otherwise be read without end.
        Load::File(p) => match compile::read_limited(p, compile::MAX_INPUT_BYTES) {
            Ok(b) => b,
            Err(e) => return Outcome::plain(failed(path, None, format!("cannot read: {e}"))),
        },
        Load::Bytes(b) => b.clone(),
        Load::Error(e) => return Outcome::plain(failed(path, None, e.clone())),
    };
    let sha = sha256_hex(&bytes);
    let class = classify(&bytes);
    let mut record = failed(path, Some(sha), String::new());
    record.kind = Some(class.kind.name());
    match class.kind {
        BlobKind::ShaderProgram { stage, major, minor } => {
            record.stage = Some(stage.name());
            record.shader_model = Some(format!("{major}_{minor}"));
        }
        BlobKind::Effect { .. } | BlobKind::RootSignature { .. } | BlobKind::EffectExpression => {
            record.status = Status::SkippedNotAShader;
            record.reason = Some(class.reason);
            return Outcome::plain(record);
        }
        BlobKind::Other => {
            // A readable container without an SM4/SM5 program (DXIL, chunks only) and Direct3D 9
            // bytecode are not shaders this tool reads; bytes that are neither are a failure.
            let container = bytes.starts_with(b"DXBC")
                && dxbc_wgsl::Container::parse(&bytes, &dxbc_wgsl::ReadOptions { verify_checksum: false }).is_ok();
            let d3d9 = bytes.get(2..4).is_some_and(|w| w == [0xFE, 0xFF] || w == [0xFF, 0xFF]);
            if container || d3d9 {
                record.status = Status::SkippedNotAShader;
                record.reason = Some(class.reason);
            } else {
                record.reason = Some(format!("not a shader: {}", class.reason));
            }
            return Outcome::plain(record);
        }
    }

    LAST_PANIC.with(|p| p.borrow_mut().take());
    let mut options = TranslateOptions { skip_checksum: !input.verify_checksum, ..Default::default() };
    for v in &input.view_formats {
        // Checked when the effect file was read.
        let _ = options.set_view_format(v);
    }
    // A vertex shader that runs only in the primitive stage (it writes SV_CullDistance) is
    // checked as the compute module it becomes there, its inputs pulled as the signature packs
    // them.
    let primitive_stage = std::panic::catch_unwind(|| {
        dxbc_wgsl::Shader::parse(&bytes, &dxbc_wgsl::ReadOptions { verify_checksum: false })
            .ok()
            .filter(dxbc_wgsl::geometry::needs_primitive_stage)
            .map(|s| dxbc_wgsl::geometry::VertexPulling::packed(&s))
    });
    if let Ok(Some(pulling)) = primitive_stage {
        options.vertex_stage = dxbc_wgsl::VertexStage::Compute(pulling);
    }
    let result = std::panic::catch_unwind(|| translate(&bytes, &options));
    let mut wgsl = None;
    let mut translation = None;
    // A geometry shader that qualifies is also translated with stream output (below).
    let mut stream_output = false;
    match result {
        Err(payload) => {
            record.reason = Some(format!("internal error: the translator panicked: {}", panic_message(payload)));
        }
        Ok(Ok(t)) => {
            record.status = Status::Qualified;
            record.reason = None;
            record.wgsl_sha256 = Some(sha256_hex(t.wgsl.as_bytes()));
            // Without dcl_outputtopology it emits nothing: there is nothing to stream out (the
            // library refuses stream output of it).
            stream_output = t.stage == dxbc_wgsl::ShaderStage::Geometry
                && t.geometry.as_ref().is_some_and(|g| g.output_topology.is_some());
            if keep_wgsl {
                wgsl = Some(t.wgsl.clone());
            }
            if keep_translation {
                translation = Some(t);
            }
        }
        Ok(Err(TranslateError::Unsupported(r))) => {
            record.status = Status::Unsupported;
            record.reason = Some(format!("{}: {}", r.reason.id(), r.detail));
            record.refusal = Some(refusal_record(r, ""));
        }
        Ok(Err(e)) => record.reason = Some(e.to_string()),
    }
    let mut outcome = Outcome { record, wgsl, translation, so_wgsl: None, so_translation: None };
    if stream_output {
        stream_output_check(&mut outcome, &bytes, &options, keep_wgsl, keep_translation, translate);
    }
    outcome
}

/// What a stream-output form's reason starts with (`stream output: reason_id: detail`).
const STREAM_OUTPUT: &str = "stream output: ";

/// The structured refusal, its detail after `prefix`.
fn refusal_record(r: dxbc_wgsl::Refusal, prefix: &str) -> RefusalRecord {
    RefusalRecord {
        reason: r.reason.id(),
        instruction: r.instruction,
        offset: r.offset,
        opcode: r.opcode,
        detail: format!("{prefix}{}", r.detail),
    }
}

/// The message of a caught panic: the hook's (with its location), else the payload's.
fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    let msg = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_else(|| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".into())
    });
    msg.replace('\n', " ")
}

/// The streams a geometry shader declares (`dcl_stream`; stream 0 when it declares none, as
/// before SM5).
fn declared_streams(bytes: &[u8]) -> Vec<u32> {
    use dxbc_wgsl::sm4::{Declaration, OperandType};
    let mut streams: Vec<u32> = dxbc_wgsl::Shader::parse(bytes, &dxbc_wgsl::ReadOptions { verify_checksum: false })
        .map(|s| {
            s.program
                .instructions
                .iter()
                .filter_map(|i| match i.decl.as_deref() {
                    Some(Declaration::Stream(op)) if op.ty == OperandType::Stream && op.reg() < 4 => Some(op.reg()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    streams.sort_unstable();
    streams.dedup();
    if streams.is_empty() {
        streams.push(0);
    }
    streams
}

/// The stream output of a pass that streams out every stream the geometry shader declares and
/// draws stream 0 when it declares it (`CreateGeometryShaderWithStreamOutput`).
fn stream_output_streams(bytes: &[u8]) -> dxbc_wgsl::geometry::GeometryStreams {
    let declared = declared_streams(bytes);
    dxbc_wgsl::geometry::GeometryStreams {
        rasterized: declared.contains(&0).then_some(0),
        stream_out: declared.iter().fold(0, |m, s| m | 1 << s),
    }
}

/// A qualified geometry shader's stream-output translation: the record stays qualified only
/// if it translates too (naga validates inside); a refusal makes it `unsupported`, any other
/// error `failed`, the reason after [`STREAM_OUTPUT`].
fn stream_output_check(
    outcome: &mut Outcome,
    bytes: &[u8],
    options: &TranslateOptions,
    keep_wgsl: bool,
    keep_translation: bool,
    translate: TranslateFn,
) {
    LAST_PANIC.with(|p| p.borrow_mut().take());
    let result = std::panic::catch_unwind(|| {
        let options = TranslateOptions { geometry_streams: stream_output_streams(bytes), ..options.clone() };
        translate(bytes, &options)
    });
    let record = &mut outcome.record;
    let refused = match result {
        Ok(Ok(t)) => {
            record.stream_output_wgsl_sha256 = Some(sha256_hex(t.wgsl.as_bytes()));
            if keep_wgsl {
                outcome.so_wgsl = Some(t.wgsl.clone());
            }
            if keep_translation {
                outcome.so_translation = Some(t);
            }
            return;
        }
        Err(payload) => {
            record.status = Status::Failed;
            format!("{STREAM_OUTPUT}internal error: the translator panicked: {}", panic_message(payload))
        }
        Ok(Err(TranslateError::Unsupported(r))) => {
            record.status = Status::Unsupported;
            let reason = format!("{STREAM_OUTPUT}{}: {}", r.reason.id(), r.detail);
            record.refusal = Some(refusal_record(r, STREAM_OUTPUT));
            reason
        }
        Ok(Err(e)) => {
            record.status = Status::Failed;
            format!("{STREAM_OUTPUT}{e}")
        }
    };
    // Not qualified: no WGSL, and neither Tint nor the GPU looks at the plain form.
    record.reason = Some(refused);
    record.wgsl_sha256 = None;
    outcome.wgsl = None;
    outcome.translation = None;
}

/// The records of a run, with Tint's and the GPU's verdicts applied when asked.
///
/// # Errors
/// A missing path, or Tint that cannot run when `tint` is set.
pub fn qualify(
    paths: &[PathBuf],
    tint: bool,
    browser: bool,
    gpu: Option<&Gpu>,
    verify_checksum: bool,
    progress: &ProgressBar,
) -> anyhow::Result<(Vec<Record>, usize)> {
    let (inputs, empty_headers) = discover(paths, verify_checksum)?;
    if tint {
        // Fail before the work, not after it.
        dxbc_wgsl_cli::tint::available()?;
    }
    if browser {
        dxbc_wgsl_cli::tint::browser_available()?;
    }
    progress.set_length(inputs.len() as u64);

    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(info.to_string()));
    }));
    let outcomes: Vec<Outcome> = inputs
        .par_iter()
        .map(|i| {
            let o = process(i, tint || browser, gpu.is_some() || browser, translate_default);
            progress.inc(1);
            o
        })
        .collect();
    std::panic::set_hook(previous_hook);
    progress.finish_and_clear();

    let mut records = Vec::with_capacity(outcomes.len());
    let mut wgsl = Vec::with_capacity(outcomes.len());
    let mut translations = Vec::with_capacity(outcomes.len());
    let mut so_wgsl = Vec::with_capacity(outcomes.len());
    let mut so_translations = Vec::with_capacity(outcomes.len());
    for o in outcomes {
        records.push(o.record);
        wgsl.push(o.wgsl);
        translations.push(o.translation);
        so_wgsl.push(o.so_wgsl);
        so_translations.push(o.so_translation);
    }
    // What Tint and the browser check: every naga-valid module (record index, whether it is the
    // stream-output form, WGSL), the plain ones first, then the geometry shaders' stream-output
    // forms.
    let plain = wgsl.iter().enumerate().filter_map(|(i, w)| w.as_deref().map(|w| (i, false, w)));
    let so = so_wgsl.iter().enumerate().filter_map(|(i, w)| w.as_deref().map(|w| (i, true, w)));
    let checked: Vec<(usize, bool, &str)> = plain.chain(so).collect();
    let codes: Vec<&str> = checked.iter().map(|(_, _, w)| *w).collect();
    if tint {
        let verdicts = dxbc_wgsl_cli::tint::check(&codes)?;
        for (v, &(i, so, _)) in verdicts.iter().zip(&checked) {
            let r = &mut records[i];
            // A stream-output form's verdict comes after its plain form's: the first rejection
            // gives the reason.
            let rejected_before = r.tint == Some(false);
            r.tint = Some(v.ok && !rejected_before);
            if !v.ok {
                r.status = Status::Failed;
                r.wgsl_sha256 = None;
                r.stream_output_wgsl_sha256 = None;
                if !rejected_before {
                    let problem = v.first_problem().unwrap_or_else(|| "rejected without a message".into());
                    r.reason = Some(format!("{}Tint: {problem}", if so { STREAM_OUTPUT } else { "" }));
                }
            }
        }
    }
    if browser {
        // Any message Chromium gives is recorded; an error or a warning fails the shader.
        let features: Vec<Vec<String>> = checked
            .iter()
            .map(|&(i, so, _)| {
                let t = if so { so_translations[i].as_ref() } else { translations[i].as_ref() };
                t.map(|t| t.required_features.iter().map(|f| f.webgpu_name().to_string()).collect()).unwrap_or_default()
            })
            .collect();
        let verdicts = dxbc_wgsl_cli::tint::check_in_browser(&codes, &features)?;
        for (v, &(i, so, _)) in verdicts.iter().zip(&checked) {
            let r = &mut records[i];
            if let Some(why) = &v.skipped {
                // Not compiled there (a feature the adapter lacks): neither passed nor failed.
                r.browser_skipped = Some(why.clone());
                continue;
            }
            let rejected_before = r.browser == Some(false);
            r.browser = Some(v.messages.is_empty() && !rejected_before);
            r.browser_messages.extend(v.messages.iter().cloned());
            if !v.ok && r.status != Status::Failed {
                r.status = Status::Failed;
                r.wgsl_sha256 = None;
                r.stream_output_wgsl_sha256 = None;
                let problem = v.first_problem().unwrap_or_else(|| "rejected without a message".into());
                r.reason = Some(format!("{}Chromium: {problem}", if so { STREAM_OUTPUT } else { "" }));
            }
        }
    }
    if let Some(gpu) = gpu {
        // Every shader still qualified gets its pipeline created (in parallel: the validator's
        // error scopes are per thread), a geometry shader's stream-output form too.
        let todo: Vec<usize> = (0..records.len())
            .filter(|&i| records[i].status == Status::Qualified && translations[i].is_some())
            .collect();
        progress.reset();
        progress.set_message("creating the pipelines of");
        progress.set_length(todo.len() as u64);
        let verdicts: Vec<Result<(), GpuRejection>> = todo
            .par_iter()
            .map(|&i| {
                let plain = (gpu.check)(translations[i].as_ref().expect("kept for the GPU"));
                let so = so_translations[i].as_ref().map(|t| (gpu.check)(t));
                progress.inc(1);
                gpu_verdict(plain, so)
            })
            .collect();
        progress.finish_and_clear();
        for (&i, v) in todo.iter().zip(verdicts) {
            let r = &mut records[i];
            match v {
                Ok(()) => r.gpu = Some("ok".into()),
                Err(rejection) => {
                    if !rejection.missing_feature {
                        r.status = Status::Failed;
                        r.wgsl_sha256 = None;
                        r.stream_output_wgsl_sha256 = None;
                        r.reason = Some(match rejection.message.strip_prefix(STREAM_OUTPUT) {
                            Some(m) => format!("{STREAM_OUTPUT}GPU {m}"),
                            None => format!("GPU {}", rejection.message),
                        });
                    }
                    r.gpu_skipped = rejection.missing_feature;
                    r.gpu = Some(rejection.message);
                }
            }
        }
    }
    Ok((records, empty_headers))
}

/// One record's GPU verdict from its plain form's and its stream-output form's (a geometry
/// shader's): an error before a missing feature, the plain form's before the other's; the
/// stream-output form's message after [`STREAM_OUTPUT`] (`stream output: error: ...`).
fn gpu_verdict(plain: Result<(), GpuRejection>, so: Option<Result<(), GpuRejection>>) -> Result<(), GpuRejection> {
    let so = so.unwrap_or(Ok(())).map_err(|r| GpuRejection { message: format!("{STREAM_OUTPUT}{}", r.message), ..r });
    match (plain, so) {
        (Err(p), _) if !p.missing_feature => Err(p),
        (_, Err(s)) if !s.missing_feature => Err(s),
        (Err(p), _) => Err(p),
        (Ok(()), so) => so,
    }
}

/// Totals of the records.
pub fn summarize(records: &[Record]) -> Summary {
    let mut s = Summary::default();
    for r in records {
        match r.status {
            Status::Qualified => s.qualified += 1,
            Status::Unsupported => s.unsupported += 1,
            Status::Failed => s.failed += 1,
            Status::SkippedNotAShader => s.skipped_not_a_shader += 1,
        }
    }
    s
}

fn histogram(records: &[Record]) -> BTreeMap<&'static str, usize> {
    let mut h = BTreeMap::new();
    for r in records {
        if let Some(refusal) = &r.refusal {
            *h.entry(refusal.reason).or_default() += 1;
        }
    }
    h
}

/// Runs `dxbc-wgsl qualify`: prints the report and returns whether no shader failed.
///
/// # Errors
/// A missing path, a report that cannot be written, or Tint that cannot run.
pub fn run(args: &Args) -> anyhow::Result<bool> {
    if let Some(missing) = args.paths.iter().find(|p| !p.exists()) {
        bail!("{}: no such file or directory", missing.display());
    }
    let progress = if args.no_progress || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template("{spinner} {msg} {pos}/{len} shaders [{bar:40}] {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        pb.set_message("translating");
        pb
    };
    let (records, empty_headers) =
        qualify(&args.paths, args.tint, args.browser, args.gpu.as_ref(), !args.no_verify_checksum, &progress)?;
    let summary = summarize(&records);
    let hist = histogram(&records);
    let gpu_summary = args.gpu.as_ref().map(|g| {
        let mut s = GpuSummary { adapter: g.adapter.clone(), ..Default::default() };
        for r in records.iter().filter(|r| r.gpu.is_some()) {
            match (r.gpu_skipped, r.status) {
                (true, _) => s.skipped += 1,
                (false, Status::Failed) => s.errors += 1,
                (false, _) => s.ok += 1,
            }
        }
        s
    });

    if let Some(out) = &args.json {
        let report = Report {
            translator_version: dxbc_wgsl::TRANSLATOR_VERSION,
            tint: args.tint,
            browser: args.browser,
            gpu: gpu_summary.as_ref(),
            summary: &summary,
            refusal_histogram: hist.clone(),
            records: &records,
        };
        let mut text = serde_json::to_string_pretty(&report)?;
        text.push('\n');
        dxbc_wgsl_build::builder::write_atomic(out, text.as_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
    }

    let stdout = std::io::stdout();
    let mut o = stdout.lock();
    // Per stage: qualified / unsupported / failed.
    let mut stages: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
    for r in &records {
        let slot = match r.status {
            Status::Qualified => 0,
            Status::Unsupported => 1,
            Status::Failed => 2,
            Status::SkippedNotAShader => continue,
        };
        stages.entry(r.stage.unwrap_or("unknown")).or_default()[slot] += 1;
    }
    if !stages.is_empty() {
        writeln!(o, "{:<10} {:>9} {:>11} {:>6}", "stage", "qualified", "unsupported", "failed")?;
        for (stage, [q, u, f]) in &stages {
            writeln!(o, "{stage:<10} {q:>9} {u:>11} {f:>6}")?;
        }
    }
    if !hist.is_empty() {
        let mut sorted: Vec<(&str, usize)> = hist.iter().map(|(k, v)| (*k, *v)).collect();
        sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        writeln!(o, "refusal reasons:")?;
        for (id, n) in sorted {
            writeln!(o, "  {n:>6}  {id}")?;
        }
    }
    // Which shaders the histogram counts, and which failed: one line each, by path.
    let mut listed: Vec<&Record> =
        records.iter().filter(|r| matches!(r.status, Status::Unsupported | Status::Failed)).collect();
    listed.sort_by(|a, b| a.path.cmp(&b.path));
    if !listed.is_empty() {
        writeln!(o, "unsupported and failed:")?;
        for r in listed {
            let status = if r.status == Status::Failed { "failed" } else { "unsupported" };
            // `reason_id: detail` when refused, the error when failed.
            let reason = r.reason.as_deref().unwrap_or("").replace('\n', " ");
            writeln!(o, "  {status:<11}  {}: {reason}", r.path)?;
        }
    }
    let mut notes = Vec::new();
    if summary.skipped_not_a_shader > 0 {
        notes.push(format!("{} non-shader blobs skipped", summary.skipped_not_a_shader));
    }
    if empty_headers > 0 {
        notes.push(format!("{empty_headers} headers without BYTE arrays ignored"));
    }
    if !notes.is_empty() {
        writeln!(o, "({})", notes.join("; "))?;
    }
    if args.tint {
        let checked = records.iter().filter(|r| r.tint.is_some()).count();
        let accepted = records.iter().filter(|r| r.tint == Some(true)).count();
        writeln!(o, "tint: {accepted} of {checked} naga-valid modules accepted by Tint (Chrome's WGSL compiler)")?;
    }
    if args.browser {
        let checked = records.iter().filter(|r| r.browser.is_some()).count();
        let clean = records.iter().filter(|r| r.browser == Some(true)).count();
        let skipped = records.iter().filter(|r| r.browser.is_none() && r.browser_skipped.is_some()).count();
        let skipped = match skipped {
            0 => String::new(),
            n => format!("; {n} not compiled there: they need a feature its adapter lacks"),
        };
        writeln!(o, "browser: {clean} of {checked} shaders compiled in Chromium with no message{skipped}")?;
    }
    if let Some(g) = &gpu_summary {
        let skipped = if g.skipped > 0 { format!(" / skipped {}", g.skipped) } else { String::new() };
        writeln!(o, "gpu: ok {} / errors {}{skipped} (adapter {})", g.ok, g.errors, g.adapter)?;
    } else if args.no_gpu {
        writeln!(o, "gpu: not validated (--no-gpu: naga{} only)", if args.tint { " and Tint" } else { "" })?;
    }
    writeln!(o, "qualified: {}, unsupported: {}, failed: {}", summary.qualified, summary.unsupported, summary.failed)?;
    o.flush()?;
    Ok(summary.failed == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_clean_removes_dot_and_parent_pairs() {
        assert_eq!(lexical_clean(Path::new("a/effects/../shaders/./x.dxbc")), PathBuf::from("a/shaders/x.dxbc"));
        assert_eq!(lexical_clean(Path::new("../x/../y")), PathBuf::from("../y"));
        assert_eq!(lexical_clean(Path::new("./")), PathBuf::from("."));
    }

    #[test]
    fn a_translator_panic_is_a_failure_with_its_message() {
        fn panicking(_: &[u8], _: &TranslateOptions) -> Result<dxbc_wgsl::Translation, TranslateError> {
            panic!("index out of bounds in the lowering");
        }
        let vs = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../example-engine/shaders/directxtk/BasicEffect/BasicEffect_VSBasic.dxbc"),
        )
        .unwrap();
        let input = Input {
            path: "vs.dxbc".into(),
            display: "vs.dxbc".into(),
            symbol: None,
            load: Load::Bytes(vs.clone()),
            view_formats: Vec::new(),
            verify_checksum: true,
        };
        let ok = process(&input, false, false, translate_default).record;
        assert_eq!(ok.status, Status::Qualified);
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| LAST_PANIC.with(|p| *p.borrow_mut() = Some(info.to_string()))));
        let r = process(&input, false, false, panicking).record;
        std::panic::set_hook(previous);
        assert_eq!(r.status, Status::Failed);
        assert_eq!((r.stage, r.sha256.as_deref()), (Some("vertex"), Some(sha256_hex(&vs).as_str())));
        let reason = r.reason.unwrap();
        assert!(reason.starts_with("internal error: the translator panicked"), "{reason}");
        assert!(reason.contains("index out of bounds in the lowering"), "{reason}");
        assert!(reason.contains("qualify.rs"), "the panic's location is kept: {reason}");
    }

    /// The point-sprite geometry shader of the example engine, as an input.
    fn point_sprite_gs() -> Input {
        let gs = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/shaders/own/PointSprite_GS.dxbc"),
        )
        .unwrap();
        Input {
            path: "gs.dxbc".into(),
            display: "gs.dxbc".into(),
            symbol: None,
            load: Load::Bytes(gs),
            view_formats: Vec::new(),
            verify_checksum: true,
        }
    }

    #[test]
    fn a_geometry_shader_is_also_translated_with_stream_output() {
        let input = point_sprite_gs();
        let o = process(&input, true, true, translate_default);
        assert_eq!(o.record.status, Status::Qualified);
        let (plain, so) = (o.wgsl.unwrap(), o.so_wgsl.unwrap());
        assert_ne!(plain, so);
        assert_eq!(o.record.stream_output_wgsl_sha256, Some(sha256_hex(so.as_bytes())));
        let streams = o.so_translation.unwrap().geometry.unwrap().streams.unwrap().streams;
        assert_eq!((streams.rasterized, streams.stream_out), (Some(0), 1), "stream 0 before SM5");
        assert!(o.translation.unwrap().geometry.unwrap().streams.is_none());
    }

    #[test]
    fn a_stream_output_panic_or_error_is_a_failure() {
        fn panicking(bytes: &[u8], options: &TranslateOptions) -> Result<dxbc_wgsl::Translation, TranslateError> {
            if !options.geometry_streams.is_default() {
                panic!("the stream library broke");
            }
            dxbc_wgsl::translate(bytes, options)
        }
        fn erring(bytes: &[u8], options: &TranslateOptions) -> Result<dxbc_wgsl::Translation, TranslateError> {
            if !options.geometry_streams.is_default() {
                return Err(TranslateError::InvalidOptions("geometry streams: nonsense".into()));
            }
            dxbc_wgsl::translate(bytes, options)
        }
        let input = point_sprite_gs();
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| LAST_PANIC.with(|p| *p.borrow_mut() = Some(info.to_string()))));
        let p = process(&input, true, true, panicking);
        std::panic::set_hook(previous);
        let e = process(&input, true, true, erring);
        for o in [&p, &e] {
            assert_eq!(o.record.status, Status::Failed);
            assert!(o.record.wgsl_sha256.is_none() && o.record.stream_output_wgsl_sha256.is_none());
            assert!(o.wgsl.is_none() && o.translation.is_none(), "neither Tint nor the GPU sees it");
        }
        let reason = p.record.reason.unwrap();
        assert!(reason.starts_with("stream output: internal error: the translator panicked"), "{reason}");
        assert!(reason.contains("the stream library broke"), "{reason}");
        assert_eq!(
            e.record.reason.as_deref(),
            Some("stream output: invalid translation options: geometry streams: nonsense")
        );
    }

    #[test]
    fn gpu_verdicts_of_both_forms() {
        let rejection = |missing_feature, message: &str| GpuRejection { missing_feature, message: message.into() };
        let error = || Err(rejection(false, "error: bad"));
        let missing = || Err(rejection(true, "skipped: needs feature X the adapter lacks"));
        assert_eq!(gpu_verdict(Ok(()), None), Ok(()));
        assert_eq!(gpu_verdict(Ok(()), Some(Ok(()))), Ok(()));
        assert_eq!(gpu_verdict(error(), Some(error())), error());
        assert_eq!(gpu_verdict(Ok(()), Some(error())), Err(rejection(false, "stream output: error: bad")));
        assert_eq!(gpu_verdict(missing(), Some(error())), Err(rejection(false, "stream output: error: bad")));
        assert_eq!(gpu_verdict(missing(), Some(Ok(()))), missing());
        assert_eq!(
            gpu_verdict(Ok(()), Some(missing())),
            Err(rejection(true, "stream output: skipped: needs feature X the adapter lacks"))
        );
    }

    #[test]
    fn kinds_by_name() {
        assert!(kind_of(Path::new("a/B.effect.toml")) == Some(FileKind::Effect));
        assert!(kind_of(Path::new("a/b.CSO")) == Some(FileKind::Blob));
        assert!(kind_of(Path::new("a/b.inc")) == Some(FileKind::Header));
        assert!(kind_of(Path::new("a/b.toml")).is_none());
        assert!(kind_of(Path::new("a/b.asm")).is_none());
    }
}
