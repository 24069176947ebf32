//! `cargo xtask`: the workspace's test command with its set-up (`.cargo/config.toml` aliases
//! `cargo xtask` to `cargo run -p xtask --`). The decisions are in `plan.rs`; this file
//! probes the machine, prints the plan and runs the commands.

mod plan;

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use plan::{NpmFolder, Opts, Plan, Probe};

const HELP: &str = "\
cargo xtask: the dxbc-wgsl test suite with its set-up

USAGE:
    cargo xtask test [--dry-run] [CARGO TEST ARGS...]
    cargo xtask setup [--dry-run]
    cargo xtask --help

COMMANDS:
    setup   Install what the test suite needs and is missing, then stop:
              - Mesa's lavapipe Vulkan driver (apt: mesa-vulkan-drivers) when no lvp_icd*.json is
                in /usr/share/vulkan/icd.d, /etc/vulkan/icd.d or /usr/local/share/vulkan/icd.d;
              - Chromium (apt: chromium) when /usr/bin/chromium (or DXBC_WGSL_CHROMIUM) is absent;
              - `npm ci` in tools/tint and tools/browser when node_modules is absent or differs
                from package-lock.json (needs Node.js 20+ and npm on PATH, never installed here).
            apt runs as root, else through `sudo -n`; where neither works, or there is no apt-get,
            or apt fails, it prints the packages and the command to install them and exits 1.
    test    `setup`, then `cargo test --workspace --release ARGS...`, exiting with cargo's status.
            ARGS go to cargo test as given; `--workspace` is left out when ARGS pick packages
            (-p/--package) and `--release` when they pick a profile (--release/--profile).
            Arguments after `--` go to the test binaries:
                cargo xtask test -- --test-threads=1
                cargo xtask test -p dxbc-wgsl-tests --test 'execution_*'

OPTIONS (before any cargo argument):
    --dry-run   Print what was found and the commands it would run; run nothing.
    -h, --help  This text.

ENVIRONMENT (as the tests read them; a skip counts when its value is 1):
    DXBC_WGSL_SKIP_GPU=1      the GPU tests skip: lavapipe is not needed, unless the browser gate
                              runs (it compares with wgpu's frame)
    DXBC_WGSL_SKIP_BROWSER=1  the browser gate skips: Chromium and tools/browser are not needed
    DXBC_WGSL_SKIP_TINT=1     the Tint checks skip: tools/tint is not needed
    DXBC_WGSL_CHROMIUM=PATH   the Chromium the browser gate launches (checked, never installed)
";

/// The Vulkan ICD folders searched for lavapipe's `lvp_icd*.json`.
const ICD_DIRS: [&str; 3] = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d"];

/// The npm folders and the package in each that the tests look for.
const NPM_FOLDERS: [(&str, &str); 2] = [("tools/tint", "webgpu"), ("tools/browser", "playwright-core")];

fn say(line: &str) {
    println!("xtask: {line}");
}

fn error(text: &str) {
    for (i, line) in text.lines().enumerate() {
        eprintln!("xtask: {}{line}", if i == 0 { "error: " } else { "       " });
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(command) = args.first() else {
        eprint!("{HELP}");
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    match command.as_str() {
        "-h" | "--help" | "help" => {
            print!("{HELP}");
            ExitCode::SUCCESS
        }
        "setup" => {
            let mut dry_run = false;
            for a in rest {
                match a.as_str() {
                    "--dry-run" => dry_run = true,
                    "-h" | "--help" => {
                        print!("{HELP}");
                        return ExitCode::SUCCESS;
                    }
                    other => {
                        error(&format!("`cargo xtask setup` takes no argument `{other}` (see cargo xtask --help)"));
                        return ExitCode::from(2);
                    }
                }
            }
            match setup(dry_run) {
                Ok(()) => ExitCode::SUCCESS,
                Err(()) => ExitCode::FAILURE,
            }
        }
        "test" => {
            let mut dry_run = false;
            let mut i = 0;
            while let Some(a) = rest.get(i) {
                match a.as_str() {
                    "--dry-run" => dry_run = true,
                    "-h" | "--help" => {
                        print!("{HELP}");
                        return ExitCode::SUCCESS;
                    }
                    _ => break,
                }
                i += 1;
            }
            test(dry_run, &rest[i..])
        }
        other => {
            error(&format!("unknown command `{other}`: expected `test` or `setup` (see cargo xtask --help)"));
            ExitCode::from(2)
        }
    }
}

/// The workspace root: the parent of this package's folder (cargo run sets CARGO_MANIFEST_DIR).
fn workspace_root() -> PathBuf {
    let manifest_dir =
        std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").into());
    manifest_dir.parent().map(Path::to_path_buf).unwrap_or(manifest_dir)
}

fn test(dry_run: bool, args: &[String]) -> ExitCode {
    if setup(dry_run).is_err() {
        error("set-up failed: not running the tests");
        return ExitCode::FAILURE;
    }
    say(&corpus_line(&workspace_root()));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let cargo_args = plan::cargo_test_args(args);
    let shown = format!("cargo {}", cargo_args.join(" "));
    if dry_run {
        say(&format!("would run: {shown}"));
        return ExitCode::SUCCESS;
    }
    say(&format!("running: {shown}"));
    match Command::new(&cargo).args(&cargo_args).current_dir(workspace_root()).status() {
        Ok(status) => match status.code() {
            Some(0) => ExitCode::SUCCESS,
            Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            None => {
                error(&format!("{shown} was killed ({status})"));
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            error(&format!("cannot run {}: {e}", Path::new(&cargo).display()));
            ExitCode::FAILURE
        }
    }
}

/// Where the corpus tests find the shared corpus (as `dxbc_wgsl_tests::corpus_dir` looks:
/// `$DXBC_WGSL_CORPUS`, else `../shared/corpus` beside the workspace), or that they will pass
/// without reading it: a line for the user, so that skipped corpus tests are never silent.
fn corpus_line(root: &Path) -> String {
    let from_env = std::env::var_os("DXBC_WGSL_CORPUS").map(PathBuf::from).filter(|p| p.is_dir());
    let beside = root.join("../shared/corpus");
    match from_env.or_else(|| beside.is_dir().then_some(beside)) {
        Some(dir) => format!("corpus: {} (the corpus tests read it)", dir.display()),
        None => "corpus: none (no DXBC_WGSL_CORPUS, no ../shared/corpus beside the workspace): the corpus \
                 tests pass without reading one; point DXBC_WGSL_CORPUS at the shared corpus to run them"
            .to_string(),
    }
}

/// Probes, prints the plan, and (unless `dry_run`) carries it out. `Err` after the reason is
/// printed.
fn setup(dry_run: bool) -> Result<(), ()> {
    let root = workspace_root();
    let opts = Opts::from_vars(|name| std::env::var(name).ok());
    let probe = probe(&root, &opts);
    let plan = plan::plan(&opts, &probe);
    for note in &plan.notes {
        say(note);
    }
    if let Some(failure) = plan.failure() {
        error(&failure);
        return Err(());
    }
    let Plan { apt, npm_ci, .. } = plan;

    if let Some((route, packages)) = &apt {
        let how = match route {
            plan::Route::Root => "as root",
            plan::Route::Sudo => "through sudo -n",
        };
        say(&format!("apt: installing {} {how}", packages.join(" ")));
        for command in plan::apt_commands(*route, packages) {
            if dry_run {
                say(&format!("would run: {}", command.join(" ")));
            } else if let Err(why) = run(&command, &root) {
                error(&plan::cannot_install_message(packages, &why));
                return Err(());
            }
        }
        if !dry_run {
            let after = probe_system(&opts);
            let mut still = Vec::new();
            if packages.contains(&plan::MESA_PACKAGE) {
                match &after.lavapipe_icd {
                    Some(icd) => say(&format!("GPU driver: lavapipe installed ({})", icd.display())),
                    None => still.push("no lvp_icd*.json after installing mesa-vulkan-drivers"),
                }
            }
            if packages.contains(&plan::CHROMIUM_PACKAGE) {
                if after.chromium_found {
                    say(&format!("Chromium: installed ({})", chromium_version()));
                } else {
                    still.push("no /usr/bin/chromium after installing chromium");
                }
            }
            if !still.is_empty() {
                error(&plan::cannot_install_message(packages, &still.join("; ")));
                return Err(());
            }
        }
    }

    for (dir, _why) in &npm_ci {
        let command = plan::npm_ci_command(dir);
        if dry_run {
            say(&format!("would run: {}", command.join(" ")));
            continue;
        }
        say(&format!("npm: installing {dir} from its package-lock.json"));
        if let Err(why) = run(&command, &root) {
            error(&format!("{why}\n(the tests that use {dir} need it; check the network and npm's message above)"));
            return Err(());
        }
        let (_, marker) = NPM_FOLDERS.iter().find(|(d, _)| d == dir).copied().unwrap_or((dir, ""));
        if !marker.is_empty() && !root.join(dir).join("node_modules").join(marker).is_dir() {
            error(&format!("{dir}/node_modules/{marker} is still absent after npm ci"));
            return Err(());
        }
    }

    say(if dry_run { "set-up: dry run, nothing installed" } else { "set-up: done" });
    Ok(())
}

/// Runs `command` (printed first) in `dir`; `Err` describes a failure.
fn run(command: &[String], dir: &Path) -> Result<(), String> {
    let shown = command.join(" ");
    say(&format!("+ {shown}"));
    let mut c = Command::new(&command[0]);
    c.args(&command[1..]).current_dir(dir).env("DEBIAN_FRONTEND", "noninteractive");
    match c.status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(format!("`{shown}` failed ({status})")),
        Err(e) => Err(format!("`{shown}` could not run: {e}")),
    }
}

/// Everything the plan needs to know about this machine and checkout.
fn probe(root: &Path, opts: &Opts) -> Probe {
    let mut probe = probe_system(opts);
    probe.npm_folders = NPM_FOLDERS.iter().map(|(dir, marker)| npm_folder(root, dir, marker)).collect();
    probe
}

/// The machine's part of the probe (no npm folders).
fn probe_system(opts: &Opts) -> Probe {
    let root = is_root();
    Probe {
        lavapipe_icd: find_lavapipe(),
        chromium_found: opts.chromium_override.as_deref().unwrap_or(Path::new("/usr/bin/chromium")).is_file(),
        chromium_on_path: on_path("chromium"),
        node_version: output("node", &["--version"]),
        npm: on_path("npm").is_some(),
        apt_get: on_path("apt-get").is_some(),
        root,
        // Asked only when it matters (not root); `-n` never prompts.
        sudo: !root
            && on_path("sudo").is_some()
            && Command::new("sudo").args(["-n", "true"]).output().is_ok_and(|o| o.status.success()),
        npm_folders: Vec::new(),
    }
}

fn npm_folder(root: &Path, dir: &str, marker: &str) -> NpmFolder {
    let path = root.join(dir);
    NpmFolder {
        dir: dir.to_string(),
        marker: marker.to_string(),
        lock: fs::read_to_string(path.join("package-lock.json")).ok(),
        node_modules: path.join("node_modules").is_dir(),
        marker_installed: path.join("node_modules").join(marker).is_dir(),
        installed_lock: fs::read_to_string(path.join("node_modules").join(".package-lock.json")).ok(),
    }
}

fn find_lavapipe() -> Option<PathBuf> {
    ICD_DIRS.iter().find_map(|dir| {
        let mut found: Vec<PathBuf> = fs::read_dir(dir)
            .ok()?
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().and_then(OsStr::to_str).unwrap_or("");
                name.starts_with("lvp_icd") && name.ends_with(".json")
            })
            .collect();
        found.sort();
        found.into_iter().next()
    })
}

/// `name` on PATH, if it is there.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(name)).find(|p| p.is_file())
}

/// A command's standard output, `None` when it cannot run or fails.
fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn is_root() -> bool {
    // Linux: the effective uid is the second field of /proc/self/status's Uid line.
    if let Ok(status) = fs::read_to_string("/proc/self/status") {
        if let Some(uid) = status.lines().find_map(|l| l.strip_prefix("Uid:")) {
            return uid.split_whitespace().nth(1) == Some("0");
        }
    }
    output("id", &["-u"]).is_some_and(|uid| uid.trim() == "0")
}

fn chromium_version() -> String {
    output("/usr/bin/chromium", &["--version"])
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|| "/usr/bin/chromium".to_string())
}
