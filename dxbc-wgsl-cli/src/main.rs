//! `dxbc-wgsl`: the command line of dxbc-wgsl.
//!
//! - `translate FILE [-o OUT] [--symbol NAME]`: one shader's WGSL, or its diagnostic (exit 1).
//! - `info FILE [--symbol NAME]`: container chunks, signatures, bindings.
//! - `disasm FILE [--symbol NAME]`: fxc-style disassembly.
//! - `qualify [--json REPORT] [--tint] [--browser] [--gpu [--adapter A] | --no-gpu] [--no-progress] PATH...`:
//!   translate every shader found under files and folders; a histogram of refusal reasons, every
//!   refused or failed shader with its reason, and `qualified: N, unsupported: M, failed: K`
//!   (exit 1 when K > 0). `--gpu` (feature `gpu`) also creates each qualified shader's pipeline
//!   on a GPU. See `docs/qualify.md`.
//! - `conformance [--json REPORT] PATH...` (feature `gpu`): run translated shaders on a GPU
//!   against D3D's test suites; ends with `passed: N, failed: M, skipped: K`.
//! - `effect FILE [-o OUT.rs] [--gpu [--adapter A] | --no-gpu]`: validate an effect file,
//!   translate its shaders, print its permutations and what the generated code holds; `--gpu`
//!   (feature `gpu`) creates every pass × permutation's pipeline on a GPU.
//! - `tessellate`: D3D11's fixed-function tessellator on cases from standard input, one a line
//!   (`DOMAIN PARTITIONING OUTPUT factors...`), one JSON object a line out (domain points as f32
//!   bits, indices); a malformed line is an error at line:column. See `docs/tessellation.md`.
//! - `adapters` (feature `gpu`): the GPU adapters `--adapter` chooses from.
//! - `layouts [--rust] FILE...`: the constant-buffer layouts of shaders' reflection (RDEF), placed
//!   by HLSL's packing rules and checked against the offsets the compiler recorded (exit 1 when
//!   one disagrees); `--rust` also prints each layout's Rust struct.
//! - `watch [PATH...] [--out DIR] [--gpu|--no-gpu] [--adapter X] [--no-verify-checksum]`: re-translate, re-qualify and
//!   re-validate effects and shaders as they change, one line per change. See `docs/watch.md`.
//! - `bench-watch [EFFECT] [--blob NAME --alternative NAME]`: the watcher's change-to-validated
//!   latency (p50, p95); the inputs edited are derived from the effect unless given.
//!
//! `qualify` and `watch` without PATH take the effects the current cargo workspace declares under
//! `[package.metadata.dxbc-wgsl] effects = [...]`.
//!
//! FILE is a DXBC container (`.dxbc`, `.cso`, ...) or an fxc `/Fh` header (`.h`/`.inc`, with
//! `--symbol` when it holds several arrays). A container whose checksum does not match is refused;
//! `--no-verify-checksum` (translate, disasm, layouts, qualify, effect, watch) reads it anyway. Exit status 0 on success, 1 with a one-line error
//! otherwise.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context as _};
use clap::error::ErrorKind;
use clap::{Parser, Subcommand};
use dxbc_wgsl_build::compile::{self, DirectTranslator};
use dxbc_wgsl_build::effect::{AxisKind, PassKind, ShaderRef};
use dxbc_wgsl_build::Effect;
use dxbc_wgsl_cli::watch;

#[cfg(feature = "gpu")]
mod conformance_cmd;
mod qualify;

#[derive(Parser)]
#[command(
    name = "dxbc-wgsl",
    version,
    about = "Translate compiled Direct3D shaders (DXBC) to WGSL",
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What `dxbc-wgsl effect --output` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Emit {
    /// The generated Rust module.
    Rust,
    /// The web artifact (one JSON document, docs/web-artifact.md).
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Translate one shader to WGSL.
    Translate {
        /// A DXBC container or an fxc /Fh header.
        file: PathBuf,
        /// Write the WGSL here instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// The array to use when the header holds several.
        #[arg(long)]
        symbol: Option<String>,
        /// Name of the WGSL entry point (default `main`).
        #[arg(long)]
        entry_point: Option<String>,
        /// The format of a typed view the bytecode does not carry: `t3=rgba32float` (typed
        /// Buffer SRV), `u0=rgba8unorm` (typed UAV), `u1,space2=r32uint` (SM5.1 register
        /// space). Repeatable.
        #[arg(long = "view-format", value_name = "SLOT=FORMAT")]
        view_formats: Vec<String>,
        /// What a `texture2dms` SRV declared with sample count 0 (any count) views:
        /// `t0=single_sampled` (a single-sampled 2D texture, WGSL `texture_2d`) or
        /// `t0=multisampled` (the default); `t0,space1=...` in SM5.1. A declared count of 1 is
        /// single-sampled without it. Repeatable.
        #[arg(long = "texture2dms-view", value_name = "SLOT=VIEW")]
        texture2dms_views: Vec<String>,
        /// Read the container even when its checksum does not match its contents (a knowingly
        /// patched blob).
        #[arg(long)]
        no_verify_checksum: bool,
    },
    /// Show a shader's chunks, signatures and resource bindings.
    Info {
        /// A DXBC container or an fxc /Fh header.
        file: PathBuf,
        /// The array to use when the header holds several.
        #[arg(long)]
        symbol: Option<String>,
    },
    /// Disassemble a shader's SM4/SM5 program.
    Disasm {
        /// A DXBC container or an fxc /Fh header.
        file: PathBuf,
        /// The array to use when the header holds several.
        #[arg(long)]
        symbol: Option<String>,
        /// Read the container even when its checksum does not match its contents (a knowingly
        /// patched blob).
        #[arg(long)]
        no_verify_checksum: bool,
    },
    /// Check an effect file: translate its shaders, run the checks, list its permutations.
    Effect {
        /// The `*.effect.toml` file.
        file: PathBuf,
        /// Also write the generated Rust module (or, with `--emit json`, the web artifact) here.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// What `--output` holds: `rust`, the generated module; `json`, the web artifact
        /// (docs/web-artifact.md), written to standard output when there is no `--output` (the
        /// summary then goes to standard error).
        #[arg(long, value_enum, default_value_t = Emit::Rust)]
        emit: Emit,
        /// Read every shader of the effect even when a container's checksum does not match (as
        /// `verify_checksum = false` in its [effect] table).
        #[arg(long)]
        no_verify_checksum: bool,
        #[command(flatten)]
        gpu: GpuArgs,
    },
    /// Write the web artifact's JSON Schema and TypeScript declarations (`web-artifact.schema.json`,
    /// `web-artifact.d.ts`) into a folder, or check that the folder's copies are current.
    Schema {
        /// The folder (this repository keeps them in `docs/`).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Only compare: exit status 1 when a file differs from what this version generates.
        #[arg(long)]
        check: bool,
    },
    /// Show the constant-buffer layouts a shader's reflection (RDEF) describes.
    ///
    /// Each layout is placed by HLSL's packing rules from the reflected types alone and compared
    /// with the offsets the compiler recorded; exit status 1 when one disagrees.
    Layouts {
        /// DXBC containers or fxc /Fh headers.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The array to use when a header holds several.
        #[arg(long)]
        symbol: Option<String>,
        /// Also print the Rust struct of each layout that agrees.
        #[arg(long)]
        rust: bool,
        /// Read the container even when its checksum does not match its contents (a knowingly
        /// patched blob).
        #[arg(long)]
        no_verify_checksum: bool,
    },
    /// Translate every shader under files and folders and report which qualify.
    ///
    /// Finds `.dxbc`/`.cso` containers, every array of fxc /Fh headers (`.h`/`.inc`) and the
    /// shaders effect files (`*.effect.toml`) reference. Ends with `qualified: N, unsupported: M,
    /// failed: K`; exit status 1 when K > 0.
    Qualify {
        /// Files and folders to walk (default: the effects the cargo workspace declares under
        /// `[package.metadata.dxbc-wgsl] effects`).
        paths: Vec<PathBuf>,
        /// Write a JSON report (one record per shader) here.
        #[arg(long, value_name = "REPORT")]
        json: Option<PathBuf>,
        /// Also check every naga-valid module with Tint (needs Node.js and `npm ci --prefix tools/tint`).
        #[arg(long)]
        tint: bool,
        /// Also compile every naga-valid module in headless Chromium's WebGPU and record its
        /// `getCompilationInfo()` messages (any error or warning fails the shader). Needs
        /// Debian's `chromium` and `npm ci --prefix tools/browser`.
        #[arg(long)]
        browser: bool,
        /// Never draw a progress bar (none is drawn when standard error is not a terminal).
        #[arg(long)]
        no_progress: bool,
        /// Read containers even when their checksum does not match their contents (knowingly
        /// patched blobs; effect files can say so for their shaders with `verify_checksum = false`).
        #[arg(long)]
        no_verify_checksum: bool,
        #[command(flatten)]
        gpu: GpuArgs,
    },
    /// Run translated shaders on a GPU and compare with D3D's test suites (needs the `gpu` feature).
    ///
    /// PATH: the corpus root, folders, `expected.jsonl` tables or `test.json` replays. Ends with
    /// `passed: N, failed: M, skipped: K`; exit status 1 when M > 0. See `docs/conformance.md`.
    Conformance {
        /// Files and folders holding the cases.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Write a JSON report (one record per table row or probe) here.
        #[arg(long, value_name = "REPORT")]
        json: Option<PathBuf>,
    },
    /// Watch effects and shaders: re-translate, re-qualify and re-validate on every change.
    ///
    /// Prints one line per change: what changed, the new status (and why), how it moved (newly
    /// qualified, regressed, unchanged) and the milliseconds taken. Ctrl-C stops it. See
    /// `docs/watch.md`.
    Watch {
        /// Effect files, shader files (`.dxbc`/`.cso`/`.h`/`.inc`) and folders (default: the
        /// effects the cargo workspace declares under `[package.metadata.dxbc-wgsl] effects`).
        paths: Vec<PathBuf>,
        /// Write outputs here: `<shader>.wgsl` per bare shader, `<module>.rs` and
        /// `<module>/<input>.wgsl` per effect (atomically; the last good output stays on failure).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        #[command(flatten)]
        gpu: GpuArgs,
        /// Milliseconds a file must be quiet before its change is processed.
        #[arg(long, value_name = "MS", default_value_t = 15)]
        debounce: u64,
        /// Read containers even when their checksum does not match their contents (knowingly
        /// patched blobs; effect files can say so for their shaders with `verify_checksum = false`).
        #[arg(long)]
        no_verify_checksum: bool,
    },
    /// Measure the watcher's change-to-validated latency on an effect (p50, p95).
    ///
    /// Edits one input of a copy of the effect EDITS times, alternating between its bytes and
    /// ALTERNATIVE's, and times each edit from the save to the watcher's report.
    BenchWatch {
        /// The effect file (default: the first effect the cargo workspace declares under
        /// `[package.metadata.dxbc-wgsl] effects`).
        effect: Option<PathBuf>,
        /// The input edited, a file name among the effect's inputs (default: a pixel shader, else a
        /// vertex shader, of the effect that another input of the same folder can stand in for).
        #[arg(long)]
        blob: Option<String>,
        /// The file (in the same folder) whose program alternates with the input's (default: one
        /// of the effect's inputs that can stand in for it).
        #[arg(long)]
        alternative: Option<String>,
        /// Measured edits.
        #[arg(long, default_value_t = 50)]
        edits: usize,
        /// Edits before measuring.
        #[arg(long, default_value_t = 4)]
        warmup: usize,
        #[command(flatten)]
        gpu: GpuArgs,
        /// Milliseconds a file must be quiet before its change is processed.
        #[arg(long, value_name = "MS", default_value_t = 15)]
        debounce: u64,
    },
    /// List the GPU adapters (index, name, backend, device type, driver) for `--adapter`.
    Adapters,
    /// Run D3D11's fixed-function tessellator on cases read from standard input, one a line
    /// (`DOMAIN PARTITIONING OUTPUT factors...`), printing one JSON object a line (see
    /// docs/tessellation.md).
    Tessellate,
}

/// GPU validation switches (`qualify`, `effect`, `watch`, `bench-watch`).
#[derive(clap::Args, Debug, Clone)]
struct GpuArgs {
    /// Validate on a GPU too: create the shader modules and pipelines on a device (needs the `gpu`
    /// feature and an adapter; `bench-watch` defaults to --gpu when built with it, the others to
    /// --no-gpu).
    #[arg(long, conflicts_with = "no_gpu")]
    gpu: bool,
    /// No GPU validation: naga's only (inside the translator; and Tint's, for `qualify --tint`).
    #[arg(long)]
    no_gpu: bool,
    /// The adapter to validate on: an index or part of a name, case-insensitive, as `dxbc-wgsl
    /// adapters` lists them; implies --gpu. Default: WGPU_ADAPTER_NAME, else the first Vulkan
    /// adapter.
    #[arg(long, value_name = "NAME|INDEX", conflicts_with = "no_gpu")]
    adapter: Option<String>,
}

impl GpuArgs {
    fn wanted(&self, default: bool) -> bool {
        self.gpu || self.adapter.is_some() || (default && !self.no_gpu)
    }
}

type BoxedValidator = Box<dyn watch::Validate + Send>;

#[cfg(feature = "gpu")]
fn gpu_validator(adapter: Option<&str>) -> anyhow::Result<BoxedValidator> {
    Ok(Box::new(dxbc_wgsl_gpu::gpu_validate::GpuValidator::new(adapter)?))
}

#[cfg(not(feature = "gpu"))]
fn gpu_validator(_adapter: Option<&str>) -> anyhow::Result<BoxedValidator> {
    bail!("this dxbc-wgsl was built without the `gpu` feature: cargo install/build with `--features gpu`, or use --no-gpu")
}

fn validator(args: &GpuArgs, default: bool) -> anyhow::Result<BoxedValidator> {
    if args.wanted(default) {
        gpu_validator(args.adapter.as_deref())
    } else {
        Ok(Box::new(watch::NoValidation))
    }
}

/// The given paths, or the effects the workspace declares.
fn paths_or_workspace(paths: Vec<PathBuf>) -> anyhow::Result<Vec<PathBuf>> {
    if !paths.is_empty() {
        return Ok(paths);
    }
    let effects = dxbc_wgsl_cli::workspace::effects(&std::env::current_dir()?)?;
    let cwd = std::env::current_dir()?;
    Ok(effects.into_iter().map(|e| e.strip_prefix(&cwd).map(PathBuf::from).unwrap_or(e)).collect())
}

/// Without a desktop session `XDG_RUNTIME_DIR` is unset, and Mesa (libwayland, probing for a
/// compositor) prints `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` twice
/// per GPU run (lavapipe, Mesa 22.3; with `WGPU_BACKEND=vulkan` too). When it is unset or
/// not absolute, point it at a private folder of this user's (`$TMPDIR/dxbc-wgsl-runtime-UID`,
/// mode 0700, created once and reused; no compositor there, so the probe fails quietly). Set
/// before any thread starts; child processes (Tint's Node.js, Chromium) inherit it. A folder that
/// exists but is not this user's private folder leaves the variable alone.
#[cfg(all(feature = "gpu", target_os = "linux"))]
fn quiet_runtime_dir() {
    use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _};
    if std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|v| v.to_string_lossy().starts_with('/')) {
        return;
    }
    let Ok(uid) = std::fs::metadata("/proc/self").map(|m| m.uid()) else { return };
    let dir = std::env::temp_dir().join(format!("dxbc-wgsl-runtime-{uid}"));
    let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
    let private = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir() && m.uid() == uid && m.mode() & 0o077 == 0);
    if private && dir.is_absolute() {
        std::env::set_var("XDG_RUNTIME_DIR", &dir);
    }
}

#[cfg(not(all(feature = "gpu", target_os = "linux")))]
fn quiet_runtime_dir() {}

fn main() -> ExitCode {
    quiet_runtime_dir();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        // No arguments at all: the usage (the commands), exit status 1 as for a usage error.
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            print!("{}", e.render());
            return ExitCode::FAILURE;
        }
        Err(e) => {
            // One line, exit status 1, like every other failure (`--help` has the usage).
            let text = e.to_string();
            let first: Vec<&str> = text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
            eprintln!("{} (see --help)", first.join(" "));
            return ExitCode::FAILURE;
        }
    };
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One line: the chain joined.
            let msg = format!("{e:#}").replace('\n', "; ");
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn read(file: PathBuf, symbol: Option<String>) -> anyhow::Result<Vec<u8>> {
    compile::read_shader(&ShaderRef::file(file, symbol)).map_err(anyhow::Error::new)
}

fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Translate {
            file,
            output,
            symbol,
            entry_point,
            view_formats,
            texture2dms_views,
            no_verify_checksum,
        } => {
            let bytes = read(file.clone(), symbol)?;
            let mut options =
                dxbc_wgsl::TranslateOptions { entry_point, skip_checksum: no_verify_checksum, ..Default::default() };
            for v in &view_formats {
                options.set_view_format(v).map_err(anyhow::Error::msg).context("--view-format")?;
            }
            for v in &texture2dms_views {
                options.set_texture2dms_view(v).map_err(anyhow::Error::msg).context("--texture2dms-view")?;
            }
            let t = match dxbc_wgsl::translate(&bytes, &options) {
                Err(dxbc_wgsl::TranslateError::Unsupported(r)) => {
                    // `<file>: unsupported (<reason>) at instruction N (byte offset 0x..) `op`: detail`
                    eprintln!("{}: {r}", file.display());
                    use dxbc_wgsl::RefusalReason as R;
                    match r.reason {
                        R::TypedBufferFormatUnknown => eprintln!(
                            "  give the view's format with --view-format t#=FORMAT (32-bit formats: r32float, \
                             rg32uint, rgba32float, ...; t#,spaceN=FORMAT in SM5.1)"
                        ),
                        R::TypedUavFormatUnknown => eprintln!(
                            "  give the view's format with --view-format u#=FORMAT (rgba8unorm, r32uint, ...; an \
                             RWBuffer takes 32-bit formats; u#,spaceN=FORMAT in SM5.1)"
                        ),
                        _ => {}
                    }
                    std::process::exit(1);
                }
                r => r.with_context(|| file.display().to_string())?,
            };
            match output {
                Some(out) => dxbc_wgsl_build::builder::write_atomic(&out, t.wgsl.as_bytes())
                    .with_context(|| format!("cannot write {}", out.display()))?,
                None => print!("{}", t.wgsl),
            }
            Ok(())
        }
        Command::Info { file, symbol } => {
            let bytes = read(file.clone(), symbol)?;
            let text = dxbc_wgsl::info::info(&bytes).with_context(|| file.display().to_string())?;
            print!("{text}");
            print!("{}", dxbc_wgsl::info::bindings(&bytes));
            Ok(())
        }
        Command::Disasm { file, symbol, no_verify_checksum } => {
            let bytes = read(file.clone(), symbol)?;
            let shader =
                dxbc_wgsl::Shader::parse(&bytes, &dxbc_wgsl::ReadOptions { verify_checksum: !no_verify_checksum })
                    .with_context(|| file.display().to_string())?;
            print!("{}", dxbc_wgsl::sm4::disasm::disassemble(&shader.program));
            Ok(())
        }
        Command::Effect { file, output, emit, no_verify_checksum, gpu } => {
            effect(file, output, emit, no_verify_checksum, &gpu)
        }
        Command::Schema { out, check } => schema(&out, check),
        Command::Adapters => adapters(),
        Command::Tessellate => tessellate(),
        Command::Layouts { files, symbol, rust, no_verify_checksum } => {
            if !layouts(&files, symbol, rust, no_verify_checksum)? {
                std::process::exit(1);
            }
            Ok(())
        }
        Command::Conformance { paths, json } => conformance(paths, json),
        Command::Watch { paths, out, gpu, debounce, no_verify_checksum } => {
            watch_command(paths, out, &gpu, debounce, no_verify_checksum)
        }
        Command::BenchWatch { effect, blob, alternative, edits, warmup, gpu, debounce } => {
            let effect = match effect {
                Some(e) => e,
                None => paths_or_workspace(Vec::new())?
                    .into_iter()
                    .find(|p| watch::input_kind(p) == Some(watch::InputKind::Effect))
                    .context("the cargo workspace declares no effect: give EFFECT")?,
            };
            let (blob, alternative) = match (blob, alternative) {
                (Some(b), Some(a)) => (b, a),
                (blob, alternative) => {
                    let (b, a) = watch::bench::pick_inputs(&effect, blob.as_deref())?;
                    (b, alternative.unwrap_or(a))
                }
            };
            let config = watch::bench::Config {
                effect,
                blob,
                alternative,
                edits,
                warmup,
                debounce: std::time::Duration::from_millis(debounce),
                timeout: std::time::Duration::from_secs(120),
            };
            let validator = validator(&gpu, cfg!(feature = "gpu"))?;
            println!(
                "bench-watch: {} edits of {} (alternating with {}), debounce {} ms",
                config.edits, config.blob, config.alternative, debounce
            );
            let m = watch::bench::run(&config, validator)?;
            println!("{}", m.summary());
            Ok(())
        }
        Command::Qualify { paths, json, tint, browser, no_progress, no_verify_checksum, gpu: g } => {
            let paths = paths_or_workspace(paths)?;
            let gpu = if g.wanted(false) { Some(qualify_gpu(g.adapter.as_deref())?) } else { None };
            let no_gpu = g.no_gpu;
            let args = qualify::Args { paths, json, tint, browser, no_progress, gpu, no_gpu, no_verify_checksum };
            if !qualify::run(&args)? {
                // The summary line stays the last line: no `error:` after it.
                std::process::exit(1);
            }
            Ok(())
        }
    }
}

fn watch_command(
    paths: Vec<PathBuf>,
    out: Option<PathBuf>,
    gpu: &GpuArgs,
    debounce: u64,
    no_verify_checksum: bool,
) -> anyhow::Result<()> {
    use std::io::Write as _;
    let paths = paths_or_workspace(paths)?;
    let validator = validator(gpu, false)?;
    let options =
        watch::Options { paths: paths.clone(), out: out.clone(), debounce: std::time::Duration::from_millis(debounce) };
    let mut watcher = watch::Watcher::new(options, validator)?;
    watcher.set_verify_checksum(!no_verify_checksum);
    let stopper = watcher.stopper();
    ctrlc::set_handler(move || stopper.stop()).context("cannot install the Ctrl-C handler")?;
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    println!(
        "watching {} (validation: {}){}",
        shown.join(", "),
        watcher.validator().describe(),
        out.as_ref().map(|o| format!("; outputs in {}", o.display())).unwrap_or_default()
    );
    let stdout = std::io::stdout();
    watcher.run(|event| {
        let mut o = stdout.lock();
        match event {
            // The initial scan lists effects and the shaders that do not qualify; the count follows.
            watch::Event::Report(r)
                if r.change == watch::Change::Found && r.effect.is_none() && r.status == watch::Status::Qualified => {}
            watch::Event::Report(r) => {
                let _ = writeln!(o, "{r}");
            }
            watch::Event::Ready { effects, shaders, qualified, elapsed } => {
                let _ = writeln!(
                    o,
                    "ready: {effects} effects, {shaders} shaders, {qualified} qualified ({:.0} ms); watching for changes \
                     (Ctrl-C to stop)",
                    elapsed.as_secs_f64() * 1000.0
                );
            }
            watch::Event::Warning(w) => eprintln!("warning: {w}"),
        }
        let _ = o.flush();
    })?;
    println!("stopped");
    std::io::stdout().flush()?;
    Ok(())
}

#[cfg(feature = "gpu")]
fn conformance(paths: Vec<PathBuf>, json: Option<PathBuf>) -> anyhow::Result<()> {
    if !conformance_cmd::cli(&paths, json.as_deref())? {
        // The summary line stays the last line: no `error:` after it.
        std::process::exit(1);
    }
    Ok(())
}

#[cfg(not(feature = "gpu"))]
fn conformance(_paths: Vec<PathBuf>, _json: Option<PathBuf>) -> anyhow::Result<()> {
    bail!("{NO_GPU_FEATURE}")
}

#[cfg(not(feature = "gpu"))]
const NO_GPU_FEATURE: &str =
    "this dxbc-wgsl was built without the `gpu` feature: cargo install/build with `--features gpu`";

#[cfg(feature = "gpu")]
fn adapters() -> anyhow::Result<()> {
    let all = dxbc_wgsl_gpu::gpu_validate::adapters();
    if all.is_empty() {
        bail!("{}", dxbc_wgsl_gpu::gpu_validate::NO_ADAPTER_HINT);
    }
    for a in all {
        println!("{a}");
    }
    Ok(())
}

#[cfg(not(feature = "gpu"))]
fn adapters() -> anyhow::Result<()> {
    bail!("{NO_GPU_FEATURE}")
}

/// The validator `qualify --gpu` checks each translation with (its device is opened before any
/// translation, so a missing adapter fails at once).
#[cfg(feature = "gpu")]
fn qualify_gpu(adapter: Option<&str>) -> anyhow::Result<qualify::Gpu> {
    let v = dxbc_wgsl_gpu::gpu_validate::GpuValidator::new(adapter)?;
    let adapter = v.adapter_name();
    let check = move |t: &dxbc_wgsl::Translation| match v.check_shader(t).into_iter().next() {
        None => Ok(()),
        Some(p) => Err(qualify::GpuRejection {
            missing_feature: p.severity == dxbc_wgsl_gpu::gpu_validate::Severity::MissingFeature,
            message: p.to_string(),
        }),
    };
    Ok(qualify::Gpu { adapter, check: Box::new(check) })
}

#[cfg(not(feature = "gpu"))]
fn qualify_gpu(_adapter: Option<&str>) -> anyhow::Result<qualify::Gpu> {
    bail!("{NO_GPU_FEATURE}")
}

/// `effect --gpu`: validates every pass × permutation; prints each issue and a summary line.
/// Returns whether the device accepted everything (missing features aside).
#[cfg(feature = "gpu")]
fn effect_gpu(compiled: &compile::CompiledEffect, adapter: Option<&str>) -> anyhow::Result<bool> {
    use dxbc_wgsl_gpu::gpu_validate::{effect_pipelines, GpuValidator, Severity};
    let v = GpuValidator::new(adapter)?;
    let variants = effect_pipelines(compiled).len();
    let issues = v.validate_effect(compiled);
    for i in &issues {
        eprintln!("{i}");
    }
    let stats = v.stats();
    let errors = issues.iter().filter(|i| i.severity != Severity::MissingFeature).count();
    let skipped = issues.len() - errors;
    let per = if stats.pipelines > 0 { stats.busy.as_secs_f64() * 1000.0 / stats.pipelines as f64 } else { 0.0 };
    println!(
        "  gpu: {variants} pass × permutation pipelines ({} distinct) on {}: {}{} ({per:.0} ms per pipeline)",
        stats.pipelines,
        v.adapter_summary(),
        if errors == 0 { "ok".to_string() } else { format!("{errors} errors") },
        if skipped > 0 { format!(", {skipped} skipped for missing features") } else { String::new() },
    );
    Ok(errors == 0)
}

#[cfg(not(feature = "gpu"))]
fn effect_gpu(_compiled: &compile::CompiledEffect, _adapter: Option<&str>) -> anyhow::Result<bool> {
    bail!("{NO_GPU_FEATURE}")
}

/// `dxbc-wgsl schema`.
fn schema(out: &std::path::Path, check: bool) -> anyhow::Result<()> {
    use dxbc_wgsl_build::web::schema;
    let files = [("web-artifact.schema.json", schema::json_schema()), ("web-artifact.d.ts", schema::typescript())];
    let mut stale = Vec::new();
    for (name, text) in files {
        let path = out.join(name);
        if check {
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(path.display().to_string());
            }
        } else {
            std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
            dxbc_wgsl_build::builder::write_atomic(&path, text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
            println!("wrote {}", path.display());
        }
    }
    if !stale.is_empty() {
        bail!("not what this version generates (run `dxbc-wgsl schema --out {}`): {}", out.display(), stale.join(", "));
    }
    Ok(())
}

fn effect(
    file: PathBuf,
    output: Option<PathBuf>,
    emit: Emit,
    no_verify_checksum: bool,
    gpu: &GpuArgs,
) -> anyhow::Result<()> {
    // The web artifact on standard output moves the summary to standard error.
    let to_stderr = emit == Emit::Json && output.is_none();
    macro_rules! println {
        ($($t:tt)*) => {
            if to_stderr { eprintln!($($t)*) } else { std::println!($($t)*) }
        };
    }
    if gpu.wanted(false) && !cfg!(feature = "gpu") {
        bail!("--gpu: this dxbc-wgsl was built without the `gpu` feature: build it with `--features gpu`");
    }
    let mut effect = match Effect::load(&file) {
        Ok(e) => e,
        Err(d) => {
            let n = d.0.len();
            for x in d.iter().take(n.saturating_sub(1)) {
                eprintln!("error: {x}");
            }
            bail!("{}", d.0.last().map(ToString::to_string).unwrap_or_default());
        }
    };
    if no_verify_checksum {
        effect.verify_checksum = false;
    }
    let compiled = match compile::compile(effect, &mut DirectTranslator) {
        Ok(c) => c,
        Err(d) => {
            // In file order, each with its position; the count last.
            let n = d.0.len();
            for x in d.iter().take(n.saturating_sub(1)) {
                eprintln!("error: {x}");
            }
            match n {
                1 => bail!("{}", d.0[0]),
                _ => bail!("{} ({n} errors in all)", d.0[n - 1]),
            }
        }
    };
    let e = &compiled.effect;
    println!("effect {} (module `{}`)", e.name, e.module);
    for a in &e.axes {
        let values = match &a.kind {
            AxisKind::Bool => "bool".to_string(),
            AxisKind::Enum(v) => v.join(" | "),
        };
        println!("  axis {}: {values} (default {})", a.name, a.value_names()[a.default]);
    }
    println!("  {} permutations, {} distinct shaders", compiled.permutations.len(), compiled.shaders.len());
    for (pi, pass) in e.passes.iter().enumerate() {
        match &pass.geometry {
            None => println!("  {} pass {}:", if pass.is_compute() { "compute" } else { "render" }, pass.name),
            Some(g) => println!(
                "  geometry pass {} (draws {}; compute work in front of the draw{}{}):",
                pass.name,
                dxbc_wgsl_build::effect::states::draw_topology_name(g.topology),
                if g.implicit { "; no geometry shader: the vertex shader's pass-through" } else { "" },
                match &pass.stream_output {
                    None => String::new(),
                    Some(d) => format!(
                        "; stream output of {} entries, rasterized stream {}",
                        d.entries.len(),
                        d.rasterized_stream.map_or("none".to_string(), |r| r.to_string())
                    ),
                }
            ),
        }
        for (values, v) in compiled.permutations.iter().zip(&compiled.passes[pi]) {
            let label = |i: usize| compiled.shaders[i].labels[0].as_str();
            let mut shaders = label(v.vertex).to_string();
            if let Some(g) = v.geometry {
                shaders.push_str(&format!(" + {}", label(g.geometry)));
                if let Some(info) = &compiled.shaders[g.geometry].info.geometry {
                    shaders.push_str(&format!(
                        " ({} vertices at most{})",
                        info.max_vertices,
                        if info.instances > 1 { format!(", {} instances", info.instances) } else { String::new() }
                    ));
                }
            }
            if let Some(d) = v.geometry.and_then(|g| g.stream_output).map(|i| &compiled.stream_outputs[i]) {
                let slots: Vec<String> =
                    (0..4).filter(|&s| d.strides[s] != 0).map(|s| format!("slot {s}: {} B", d.strides[s])).collect();
                shaders.push_str(&format!(" (stream-output strides {})", slots.join(", ")));
            }
            match v.pixel {
                Some(p) => shaders.push_str(&format!(" + {}", label(p))),
                None if pass.is_compute() => {}
                None => shaders.push_str(" (no pixel shader)"),
            }
            println!("    {:<60} {shaders}", e.describe(values));
        }
    }
    for t in &e.techniques {
        let passes: Vec<&str> = t.passes.iter().map(|&i| e.passes[i].name.as_str()).collect();
        println!("  technique {}: {}", t.name, passes.join(", then "));
    }
    for l in &e.layouts {
        println!("  layout {}: {} fields, {} bytes", l.name, l.fields.len(), l.size());
    }
    // Each kind of pass of an effect with several has its own resources struct.
    let plan = dxbc_wgsl_build::plan::PipelinePlan::new(&compiled);
    let kinds: Vec<(&str, PassKind)> = [
        (" of the render passes", PassKind::Render),
        (" of the compute passes", PassKind::Compute),
        (" of the geometry passes", PassKind::Geometry),
    ]
    .into_iter()
    .filter(|(_, k)| e.passes.iter().any(|p| p.kind() == *k))
    .collect();
    let groups = if kinds.len() > 1 {
        kinds.iter().map(|(whose, k)| (*whose, plan.fields_of(*k))).collect()
    } else {
        vec![("", compiled.resources.as_slice())]
    };
    for (whose, fields) in groups {
        for r in fields {
            let regs: Vec<String> = r.registers.iter().map(|(s, reg)| format!("{} {reg}", s.name())).collect();
            println!(
                "  resource {}{whose}: {} ({})",
                r.name,
                regs.join(", "),
                if r.required { "always bound" } else { "some permutations" }
            );
        }
    }
    let code = dxbc_wgsl_build::generate(&compiled);
    let wgsl_bytes: usize = compiled.shaders.iter().map(|s| s.info.wgsl.len()).sum();
    println!(
        "  generated: {} lines of Rust, {} bytes of WGSL in {} constants",
        code.lines().count(),
        wgsl_bytes,
        compiled.shaders.len()
    );
    let bytes = match emit {
        Emit::Rust => code,
        Emit::Json => dxbc_wgsl_build::web::to_json(&dxbc_wgsl_build::web::artifact(&compiled)),
    };
    match output {
        Some(out) => dxbc_wgsl_build::builder::write_atomic(&out, bytes.as_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?,
        None if emit == Emit::Json => {
            use std::io::Write as _;
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(bytes.as_bytes()).and_then(|()| stdout.flush()).context("cannot write the artifact")?;
        }
        None => {}
    }
    if gpu.wanted(false) {
        if !effect_gpu(&compiled, gpu.adapter.as_deref())? {
            bail!("the GPU rejected pipelines of effect {} (above)", compiled.effect.name);
        }
    } else if gpu.no_gpu {
        println!("  gpu: not validated (--no-gpu: naga only)");
    }
    Ok(())
}

/// Prints the reflected layouts of each file; `false` when one disagrees or cannot be read.
fn layouts(files: &[PathBuf], symbol: Option<String>, rust: bool, no_verify_checksum: bool) -> anyhow::Result<bool> {
    use dxbc_wgsl_build::effect::layout::format_offset;
    use dxbc_wgsl_build::reflect::{self, ReflectError};
    let mut ok = true;
    for file in files {
        let mut bytes = read(file.clone(), symbol.clone())?;
        if no_verify_checksum {
            // The reflection reader always verifies: give the container the checksum of what it
            // holds (only the container's own bytes, not what may follow it).
            let len = dxbc_wgsl::Container::parse(&bytes, &dxbc_wgsl::ReadOptions { verify_checksum: false })
                .map_or(0, |c| c.bytes.len());
            dxbc_wgsl::container::fix_checksum(&mut bytes[..len]);
        }
        let layouts = match reflect::cbuffer_layouts(&bytes) {
            Ok(l) => l,
            Err(ReflectError::NoReflection) => {
                println!("{}: no reflection (RDEF): the layouts must be declared", file.display());
                continue;
            }
            Err(e) => {
                println!("{}: {e}", file.display());
                ok = false;
                continue;
            }
        };
        if layouts.is_empty() {
            println!("{}: no constant buffers", file.display());
        }
        for l in &layouts {
            let register = match l.register {
                Some((slot, 0)) => format!("b{slot}, "),
                Some((slot, space)) => format!("b{slot} space{space}, "),
                None => String::new(),
            };
            println!("{}: cbuffer {} ({register}{} bytes): {}", file.display(), l.name, l.size, l.verdict);
            ok &= l.verdict.agrees();
            // The compiler's offset first; the packing rules' where they differ (struct members
            // relative to their struct, `+`).
            fn rows(
                fields: &[dxbc_wgsl_build::effect::PlacedField],
                recorded: &[(u32, Option<&dxbc_wgsl::chunks::rdef::Type>)],
                depth: usize,
            ) {
                for (i, f) in fields.iter().enumerate() {
                    let (rec, ty) = recorded.get(i).copied().unwrap_or((f.offset, None));
                    let show = |o: u32| if depth == 0 { format_offset(o) } else { format!("+{}", format_offset(o)) };
                    let rules = if rec == f.offset { String::new() } else { format!(" (rules: {})", show(f.offset)) };
                    println!(
                        "    {:indent$}{:<8} {:>5}  {:<28} {}{rules}",
                        "",
                        show(rec),
                        f.ty.size(),
                        f.ty.declaration(),
                        f.name,
                        indent = 2 * depth
                    );
                    if let dxbc_wgsl_build::effect::VarType::Struct(s) = &f.ty {
                        let members: Vec<(u32, Option<&dxbc_wgsl::chunks::rdef::Type>)> =
                            ty.map(|t| t.members.iter().map(|m| (m.offset, Some(&m.ty))).collect()).unwrap_or_default();
                        rows(&s.members, &members, depth + 1);
                    }
                }
            }
            let recorded: Vec<(u32, Option<&dxbc_wgsl::chunks::rdef::Type>)> =
                l.reflection.variables.iter().map(|v| (v.offset, Some(&v.ty))).collect();
            rows(&l.fields, &recorded, 0);
            if rust && l.verdict.agrees() {
                if let Ok(s) = reflect::rust_struct_source(l) {
                    println!();
                    print!("{}", s.code);
                    println!();
                }
            }
        }
    }
    Ok(ok)
}

/// `dxbc-wgsl tessellate`: one JSON object per case line on standard input (blank lines and
/// `#` comments skipped); a malformed line stops with `<stdin>:LINE:COLUMN: ...`.
fn tessellate() -> anyhow::Result<()> {
    use dxbc_wgsl_contract::tessellator::case::Case;
    use std::io::{BufRead as _, Write as _};
    let stdin = std::io::stdin().lock();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (number, line) in stdin.lines().enumerate() {
        let line = line.with_context(|| format!("<stdin>:{}: cannot read the line", number + 1))?;
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let case =
            Case::parse(&line).map_err(|e| anyhow::anyhow!("<stdin>:{}:{}: {}", number + 1, e.column, e.message))?;
        writeln!(out, "{}", case.to_json(&case.tessellate()))?;
    }
    out.flush()?;
    Ok(())
}
