//! The decisions of `cargo xtask setup`, as pure functions over what was found on the machine
//! ([`Probe`]) and the opt-out variables ([`Opts`]): which apt packages are missing, how they can
//! be installed, which npm folders need `npm ci`, and what stops the set-up. `main.rs` gathers the
//! probe, prints the plan and carries it out.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// The apt package of Mesa's CPU Vulkan driver, lavapipe.
pub const MESA_PACKAGE: &str = "mesa-vulkan-drivers";
/// The apt package of the Chromium the browser gate launches.
pub const CHROMIUM_PACKAGE: &str = "chromium";
/// The oldest Node.js major version the tools support.
pub const NODE_MIN_MAJOR: u32 = 20;

/// The opt-out and override variables that the test suite reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opts {
    /// `DXBC_WGSL_SKIP_GPU=1`.
    pub skip_gpu: bool,
    /// `DXBC_WGSL_SKIP_BROWSER=1`.
    pub skip_browser: bool,
    /// `DXBC_WGSL_SKIP_TINT=1`.
    pub skip_tint: bool,
    /// `DXBC_WGSL_CHROMIUM`: the Chromium the browser gate launches instead of /usr/bin/chromium.
    pub chromium_override: Option<PathBuf>,
}

impl Opts {
    /// Reads the variables through `var` (the process environment in `main`). A skip variable
    /// counts only when it is `1`, as the GPU tests and the browser gate read theirs: with any
    /// other value some test still runs, so its prerequisite is still installed.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Opts {
        let one = |name: &str| var(name).is_some_and(|v| v == "1");
        Opts {
            skip_gpu: one("DXBC_WGSL_SKIP_GPU"),
            skip_browser: one("DXBC_WGSL_SKIP_BROWSER"),
            skip_tint: one("DXBC_WGSL_SKIP_TINT"),
            chromium_override: var("DXBC_WGSL_CHROMIUM").filter(|v| !v.is_empty()).map(PathBuf::from),
        }
    }
}

/// The state of one npm folder (`tools/tint`, `tools/browser`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NpmFolder {
    /// Its path relative to the workspace root (`tools/tint`).
    pub dir: String,
    /// The package whose folder under `node_modules` the tests look for (`webgpu`).
    pub marker: String,
    /// `package-lock.json`'s text, `None` when it is absent.
    pub lock: Option<String>,
    /// Whether `node_modules` exists.
    pub node_modules: bool,
    /// Whether `node_modules/<marker>` is a folder.
    pub marker_installed: bool,
    /// `node_modules/.package-lock.json`'s text (npm's record of what it installed), `None` when
    /// it is absent.
    pub installed_lock: Option<String>,
}

/// What the set-up found on this machine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Probe {
    /// The lavapipe ICD file found (`lvp_icd*.json` in a Vulkan ICD folder).
    pub lavapipe_icd: Option<PathBuf>,
    /// Whether the Chromium the browser gate launches exists (`DXBC_WGSL_CHROMIUM`, else
    /// /usr/bin/chromium).
    pub chromium_found: bool,
    /// `chromium` on PATH, if any (reported; the gate itself launches the fixed path).
    pub chromium_on_path: Option<PathBuf>,
    /// `node --version`'s output, `None` when `node` is not on PATH.
    pub node_version: Option<String>,
    /// Whether `npm` is on PATH.
    pub npm: bool,
    /// Whether `apt-get` is on PATH.
    pub apt_get: bool,
    /// Whether this process runs as root.
    pub root: bool,
    /// Whether `sudo -n true` succeeds (passwordless sudo).
    pub sudo: bool,
    /// The npm folders the tests use.
    pub npm_folders: Vec<NpmFolder>,
}

/// The prerequisites the test suite needs under `opts`, and a line per opt-out saying what it
/// skips.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Needs {
    pub gpu_driver: bool,
    pub chromium: bool,
    pub tint: bool,
    pub browser_npm: bool,
    pub skipped: Vec<String>,
}

impl Needs {
    pub fn node(&self) -> bool {
        self.tint || self.browser_npm
    }
}

/// Which prerequisites are needed. The browser gate compares the browser's frame with the one
/// wgpu draws on this machine's adapter, so it needs the GPU driver too: only both opt-outs
/// together drop lavapipe.
pub fn needs(opts: &Opts) -> Needs {
    let mut skipped = Vec::new();
    if opts.skip_gpu && opts.skip_browser {
        skipped.push("DXBC_WGSL_SKIP_GPU=1: not checking for a GPU driver (lavapipe)".to_string());
    } else if opts.skip_gpu {
        skipped.push(
            "DXBC_WGSL_SKIP_GPU=1 skips the GPU tests, but the browser gate (not skipped) compares with \
             wgpu's frame: lavapipe is still needed (DXBC_WGSL_SKIP_BROWSER=1 as well drops it)"
                .to_string(),
        );
    }
    if opts.skip_browser {
        skipped.push("DXBC_WGSL_SKIP_BROWSER=1: not checking for Chromium or tools/browser".to_string());
    }
    if opts.skip_tint {
        skipped.push("DXBC_WGSL_SKIP_TINT=1: not checking tools/tint".to_string());
    }
    Needs {
        gpu_driver: !(opts.skip_gpu && opts.skip_browser),
        chromium: !opts.skip_browser,
        tint: !opts.skip_tint,
        browser_npm: !opts.skip_browser,
        skipped,
    }
}

/// The apt packages to install: those needed whose probe came back empty. A missing Chromium at
/// a `DXBC_WGSL_CHROMIUM` path is not apt's to fix ([`plan`] reports it instead).
pub fn missing_packages(needs: &Needs, opts: &Opts, probe: &Probe) -> Vec<&'static str> {
    let mut packages = Vec::new();
    if needs.gpu_driver && probe.lavapipe_icd.is_none() {
        packages.push(MESA_PACKAGE);
    }
    if needs.chromium && !probe.chromium_found && opts.chromium_override.is_none() {
        packages.push(CHROMIUM_PACKAGE);
    }
    packages
}

/// How apt runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// This process is root.
    Root,
    /// Through `sudo -n` (passwordless sudo).
    Sudo,
}

impl Route {
    /// The command prefix: nothing as root, `sudo -n env DEBIAN_FRONTEND=noninteractive` (sudo
    /// resets the environment) otherwise.
    pub fn prefix(self) -> Vec<String> {
        match self {
            Route::Root => vec![],
            Route::Sudo => {
                vec!["sudo".into(), "-n".into(), "env".into(), "DEBIAN_FRONTEND=noninteractive".into()]
            }
        }
    }
}

/// How apt can run here, or why it cannot.
pub fn install_route(probe: &Probe) -> Result<Route, String> {
    if !probe.apt_get {
        Err("apt-get is not on PATH (not Debian or Ubuntu)".to_string())
    } else if probe.root {
        Ok(Route::Root)
    } else if probe.sudo {
        Ok(Route::Sudo)
    } else {
        Err("not root, and `sudo -n` (passwordless sudo) does not work".to_string())
    }
}

/// The apt commands that install `packages` (`apt-get update` once, then one install).
pub fn apt_commands(route: Route, packages: &[&str]) -> Vec<Vec<String>> {
    let prefix = route.prefix();
    let mut update = prefix.clone();
    update.extend(["apt-get", "update"].map(String::from));
    let mut install = prefix;
    install.extend(["apt-get", "install", "-y", "--no-install-recommends"].map(String::from));
    install.extend(packages.iter().map(|p| p.to_string()));
    vec![update, install]
}

/// What to tell a user when `packages` cannot be installed here: `reason`, the command that
/// installs them, and per package what it is for and the alternatives.
pub fn cannot_install_message(packages: &[&str], reason: &str) -> String {
    let list = packages.join(" ");
    let mut text = format!("cannot install {list}: {reason}.\nInstall them yourself (Debian/Ubuntu):\n");
    text.push_str(&format!("    sudo apt-get update && sudo apt-get install -y --no-install-recommends {list}\n"));
    for p in packages {
        text.push_str(match *p {
            MESA_PACKAGE => {
                "  mesa-vulkan-drivers: lavapipe, the CPU Vulkan driver the GPU tests and the browser gate draw on \
                 (elsewhere: Mesa's lavapipe or another Vulkan driver; DXBC_WGSL_SKIP_GPU=1 with \
                 DXBC_WGSL_SKIP_BROWSER=1 skips those tests instead)\n"
            }
            CHROMIUM_PACKAGE => {
                "  chromium: /usr/bin/chromium, which the browser gate launches (elsewhere: \
                 DXBC_WGSL_CHROMIUM=PATH names another Chromium; DXBC_WGSL_SKIP_BROWSER=1 skips the gate instead)\n"
            }
            _ => "",
        });
    }
    text.pop();
    text
}

/// The major version of `node --version`'s output (`v20.11.1` → 20).
pub fn node_major(version: &str) -> Option<u32> {
    version.trim().trim_start_matches('v').split('.').next()?.parse().ok()
}

/// Whether the Node.js found is usable: `Err` says exactly what is needed.
pub fn check_node(probe: &Probe) -> Result<(), String> {
    let need = format!(
        "Node.js {NODE_MIN_MAJOR} or newer with npm on PATH (tools/tint and tools/browser run on it; \
         Debian's own nodejs package is too old: use NodeSource's or the official build from \
         https://nodejs.org/, or opt out with DXBC_WGSL_SKIP_TINT=1 and DXBC_WGSL_SKIP_BROWSER=1)"
    );
    match &probe.node_version {
        None => Err(format!("`node` is not on PATH; needed: {need}")),
        Some(v) => match node_major(v) {
            Some(major) if major >= NODE_MIN_MAJOR => {
                if probe.npm {
                    Ok(())
                } else {
                    Err(format!("`npm` is not on PATH (node {} is); needed: {need}", v.trim()))
                }
            }
            _ => Err(format!("node {} is too old; needed: {need}", v.trim())),
        },
    }
}

/// The `"node_modules/…"` entries of an npm lockfile (`package-lock.json` or npm's record
/// `node_modules/.package-lock.json`) with their versions. npm writes both pretty-printed, two
/// spaces an indent: an entry's key is a line `"node_modules/NAME": {` and its version the line
/// `"version": "X"` one indent deeper.
pub fn locked_versions(lockfile: &str) -> BTreeMap<String, String> {
    let mut versions = BTreeMap::new();
    let mut current: Option<(String, usize)> = None;
    for line in lockfile.lines() {
        let indent = line.len() - line.trim_start().len();
        let text = line.trim();
        if let Some(rest) = text.strip_prefix("\"node_modules/") {
            if let Some(name) = rest.strip_suffix("\": {") {
                current = Some((format!("node_modules/{name}"), indent));
                continue;
            }
        }
        if let Some((key, key_indent)) = &current {
            if indent <= *key_indent {
                current = None;
            } else if indent == key_indent + 2 {
                if let Some(v) = text.strip_prefix("\"version\": \"") {
                    let v = v.trim_end_matches(',').trim_end_matches('"');
                    versions.insert(key.clone(), v.to_string());
                }
            }
        }
    }
    versions
}

/// What to do with an npm folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NpmAction {
    /// Up to date: nothing to do (the reason is printed).
    Skip(String),
    /// Run `npm ci` (the reason is printed).
    Ci(String),
}

/// Whether `folder` needs `npm ci`: when `node_modules` or the tests' package in it is absent,
/// when npm's record of the install is absent, or when the packages and versions it records
/// differ from `package-lock.json`'s.
pub fn npm_action(folder: &NpmFolder) -> NpmAction {
    let Some(lock) = &folder.lock else {
        return NpmAction::Ci(format!("{}/package-lock.json is absent (npm ci will say so)", folder.dir));
    };
    if !folder.node_modules {
        return NpmAction::Ci(format!("{}/node_modules is absent", folder.dir));
    }
    if !folder.marker_installed {
        return NpmAction::Ci(format!("{}/node_modules/{} is absent", folder.dir, folder.marker));
    }
    let Some(installed) = &folder.installed_lock else {
        return NpmAction::Ci(format!("{}/node_modules/.package-lock.json is absent", folder.dir));
    };
    let wanted = locked_versions(lock);
    let have = locked_versions(installed);
    if wanted != have {
        let differ: Vec<String> = wanted
            .iter()
            .filter(|(k, v)| have.get(*k) != Some(*v))
            .map(|(k, v)| format!("{}@{v}", k.trim_start_matches("node_modules/")))
            .chain(have.keys().filter(|k| !wanted.contains_key(*k)).map(|k| format!("extra {k}")))
            .take(3)
            .collect();
        return NpmAction::Ci(format!(
            "{}/node_modules differs from package-lock.json ({})",
            folder.dir,
            if differ.is_empty() { "versions".to_string() } else { differ.join(", ") }
        ));
    }
    NpmAction::Skip(format!(
        "{}/node_modules matches package-lock.json ({} {})",
        folder.dir,
        wanted.len(),
        if wanted.len() == 1 { "package" } else { "packages" }
    ))
}

/// The set-up to carry out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Lines to print before anything runs: what is skipped and what was found.
    pub notes: Vec<String>,
    /// apt packages to install, and how.
    pub apt: Option<(Route, Vec<&'static str>)>,
    /// npm folders to run `npm ci` in, with the reason.
    pub npm_ci: Vec<(String, String)>,
    /// What stops the set-up; when not empty, nothing is installed and the command fails.
    pub problems: Vec<String>,
}

impl Plan {
    /// The message that stops the set-up (every problem, a paragraph each), `None` when it can go
    /// on. With `Some`, `cargo xtask setup` and `test` print it, install nothing and exit 1.
    pub fn failure(&self) -> Option<String> {
        (!self.problems.is_empty()).then(|| self.problems.join("\n"))
    }
}

/// The whole plan for `opts` on a machine probed as `probe`.
pub fn plan(opts: &Opts, probe: &Probe) -> Plan {
    let needs = needs(opts);
    let mut notes = needs.skipped.clone();
    let mut problems = Vec::new();

    if needs.gpu_driver {
        notes.push(match &probe.lavapipe_icd {
            Some(icd) => format!("GPU driver: lavapipe found ({})", icd.display()),
            None => format!("GPU driver: no lavapipe (lvp_icd*.json) found: {MESA_PACKAGE} to install"),
        });
    }
    if needs.chromium {
        let path = opts.chromium_override.clone().unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
        if probe.chromium_found {
            notes.push(format!("Chromium: found ({})", path.display()));
        } else if opts.chromium_override.is_some() {
            problems.push(format!(
                "DXBC_WGSL_CHROMIUM={} is not a file: point it at a Chromium, or unset it to use \
                 Debian's /usr/bin/chromium (apt package {CHROMIUM_PACKAGE})",
                path.display()
            ));
        } else {
            let elsewhere = match &probe.chromium_on_path {
                Some(p) => format!(" (the browser gate does not use {} on PATH)", p.display()),
                None => String::new(),
            };
            notes.push(format!("Chromium: no {} found{elsewhere}: {CHROMIUM_PACKAGE} to install", path.display()));
        }
    }

    let packages = missing_packages(&needs, opts, probe);
    let apt = if packages.is_empty() {
        None
    } else {
        match install_route(probe) {
            Ok(route) => Some((route, packages)),
            Err(reason) => {
                problems.push(cannot_install_message(&packages, &reason));
                None
            }
        }
    };

    let mut npm_ci = Vec::new();
    if needs.node() {
        match check_node(probe) {
            Ok(()) => notes
                .push(format!("Node.js: node {} and npm found", probe.node_version.as_deref().unwrap_or("").trim())),
            Err(e) => problems.push(e),
        }
        for folder in &probe.npm_folders {
            let wanted = match folder.dir.as_str() {
                "tools/tint" => needs.tint,
                "tools/browser" => needs.browser_npm,
                _ => true,
            };
            if !wanted {
                continue;
            }
            match npm_action(folder) {
                NpmAction::Skip(why) => notes.push(format!("npm: {why}: skipping npm ci")),
                NpmAction::Ci(why) => {
                    notes.push(format!("npm: {why}: npm ci to run"));
                    npm_ci.push((folder.dir.clone(), why));
                }
            }
        }
    }

    Plan { notes, apt, npm_ci, problems }
}

/// The `npm ci` command for `dir`.
pub fn npm_ci_command(dir: &str) -> Vec<String> {
    ["npm", "ci", "--prefix", dir, "--no-audit", "--no-fund"].map(String::from).to_vec()
}

/// `cargo test` arguments for `cargo xtask test ARGS`: `--workspace` unless ARGS pick packages
/// (`-p`/`--package`, before a `--`), `--release` unless ARGS pick a profile, then ARGS as given.
pub fn cargo_test_args(args: &[String]) -> Vec<String> {
    let ours = args.iter().take_while(|a| *a != "--");
    let mut picks_package = false;
    let mut picks_profile = false;
    for a in ours {
        let a = a.as_str();
        if a == "-p" || a == "--package" || a.starts_with("--package=") || (a.starts_with("-p") && a.len() > 2) {
            picks_package = true;
        }
        if a == "--release" || a == "-r" || a == "--profile" || a.starts_with("--profile=") {
            picks_profile = true;
        }
        if a == "--workspace" || a == "--all" {
            picks_package = true; // given explicitly: not repeated
        }
    }
    let mut out = vec!["test".to_string()];
    if !picks_package {
        out.push("--workspace".into());
    }
    if !picks_profile {
        out.push("--release".into());
    }
    out.extend(args.iter().cloned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"{
  "name": "dxbc-wgsl-tint-check",
  "lockfileVersion": 3,
  "packages": {
    "": {
      "name": "dxbc-wgsl-tint-check",
      "version": "0.1.0",
      "dependencies": {
        "webgpu": "0.6.2"
      }
    },
    "node_modules/debug": {
      "version": "4.4.3",
      "dependencies": {
        "ms": "^2.1.3"
      },
      "peerDependenciesMeta": {
        "supports-color": {
          "version": "not this one"
        }
      }
    },
    "node_modules/webgpu": {
      "version": "0.6.2",
      "license": "BSD-3-Clause"
    }
  }
}
"#;

    /// npm's record of the same install: no root entry.
    const INSTALLED: &str = r#"{
  "name": "dxbc-wgsl-tint-check",
  "lockfileVersion": 3,
  "requires": true,
  "packages": {
    "node_modules/debug": {
      "version": "4.4.3",
      "dependencies": {
        "ms": "^2.1.3"
      }
    },
    "node_modules/webgpu": {
      "version": "0.6.2"
    }
  }
}
"#;

    fn installed_folder() -> NpmFolder {
        NpmFolder {
            dir: "tools/tint".into(),
            marker: "webgpu".into(),
            lock: Some(LOCK.into()),
            node_modules: true,
            marker_installed: true,
            installed_lock: Some(INSTALLED.into()),
        }
    }

    /// A Debian machine as root with everything installed.
    fn ready() -> Probe {
        Probe {
            lavapipe_icd: Some("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json".into()),
            chromium_found: true,
            chromium_on_path: Some("/usr/bin/chromium".into()),
            node_version: Some("v20.19.2\n".into()),
            npm: true,
            apt_get: true,
            root: true,
            sudo: false,
            npm_folders: vec![
                installed_folder(),
                NpmFolder { dir: "tools/browser".into(), marker: "playwright-core".into(), ..installed_folder() },
            ],
        }
    }

    fn strings(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn opts_count_only_one() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
        };
        let o = Opts::from_vars(vars(&[("DXBC_WGSL_SKIP_GPU", "1"), ("DXBC_WGSL_SKIP_TINT", "0")]));
        assert!(o.skip_gpu && !o.skip_tint && !o.skip_browser);
        let o = Opts::from_vars(vars(&[("DXBC_WGSL_SKIP_BROWSER", "1"), ("DXBC_WGSL_CHROMIUM", "")]));
        assert!(o.skip_browser && o.chromium_override.is_none());
    }

    #[test]
    fn everything_installed_plans_nothing() {
        let p = plan(&Opts::default(), &ready());
        assert_eq!(p.apt, None);
        assert!(p.npm_ci.is_empty());
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert!(p.notes.iter().any(|n| n.contains("lavapipe found")));
        assert!(p.notes.iter().any(|n| n.contains("tools/browser/node_modules matches package-lock.json")));
    }

    #[test]
    fn missing_packages_follow_the_probe_and_opt_outs() {
        let mut probe = ready();
        probe.lavapipe_icd = None;
        probe.chromium_found = false;
        let all = Opts::default();
        assert_eq!(missing_packages(&needs(&all), &all, &probe), [MESA_PACKAGE, CHROMIUM_PACKAGE]);

        let no_browser = Opts { skip_browser: true, ..Opts::default() };
        assert_eq!(missing_packages(&needs(&no_browser), &no_browser, &probe), [MESA_PACKAGE]);

        // The browser gate draws wgpu's frame: skipping only the GPU tests keeps lavapipe.
        let no_gpu = Opts { skip_gpu: true, ..Opts::default() };
        assert_eq!(missing_packages(&needs(&no_gpu), &no_gpu, &probe), [MESA_PACKAGE, CHROMIUM_PACKAGE]);
        assert!(needs(&no_gpu).skipped[0].contains("lavapipe is still needed"));

        let neither = Opts { skip_gpu: true, skip_browser: true, ..Opts::default() };
        assert!(missing_packages(&needs(&neither), &neither, &probe).is_empty());

        // A DXBC_WGSL_CHROMIUM that points nowhere is the user's to fix, not apt's.
        let custom = Opts { chromium_override: Some("/opt/chrome/chrome".into()), ..Opts::default() };
        assert_eq!(missing_packages(&needs(&custom), &custom, &probe), [MESA_PACKAGE]);
        let p = plan(&custom, &probe);
        assert!(p.problems.iter().any(|e| e.contains("DXBC_WGSL_CHROMIUM=/opt/chrome/chrome is not a file")));
    }

    #[test]
    fn skip_lines_name_the_variable() {
        let opts = Opts { skip_gpu: true, skip_browser: true, skip_tint: true, chromium_override: None };
        let p = plan(&opts, &Probe::default());
        assert_eq!(
            p.notes,
            [
                "DXBC_WGSL_SKIP_GPU=1: not checking for a GPU driver (lavapipe)",
                "DXBC_WGSL_SKIP_BROWSER=1: not checking for Chromium or tools/browser",
                "DXBC_WGSL_SKIP_TINT=1: not checking tools/tint",
            ]
        );
        // Nothing needed: not even Node.js.
        assert!(p.problems.is_empty() && p.apt.is_none() && p.npm_ci.is_empty());
    }

    #[test]
    fn route_root_then_sudo_then_none() {
        let mut probe = ready();
        assert_eq!(install_route(&probe), Ok(Route::Root));
        probe.root = false;
        probe.sudo = true;
        assert_eq!(install_route(&probe), Ok(Route::Sudo));
        assert_eq!(
            apt_commands(Route::Sudo, &[CHROMIUM_PACKAGE]),
            [
                strings(&["sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "update"]),
                strings(&[
                    "sudo",
                    "-n",
                    "env",
                    "DEBIAN_FRONTEND=noninteractive",
                    "apt-get",
                    "install",
                    "-y",
                    "--no-install-recommends",
                    "chromium"
                ]),
            ]
        );
        assert_eq!(apt_commands(Route::Root, &[MESA_PACKAGE])[0], strings(&["apt-get", "update"]));
        probe.sudo = false;
        assert!(install_route(&probe).unwrap_err().contains("passwordless sudo"));
        probe.root = true;
        probe.apt_get = false;
        assert!(install_route(&probe).unwrap_err().contains("apt-get is not on PATH"));
    }

    #[test]
    fn cannot_install_gives_the_exact_command_and_fails() {
        let mut probe = ready();
        probe.lavapipe_icd = None;
        probe.chromium_found = false;
        probe.root = false;
        let p = plan(&Opts::default(), &probe);
        assert_eq!(p.apt, None);
        assert_eq!(p.problems.len(), 1);
        // The whole message, as printed before exiting with status 1.
        assert_eq!(
            p.failure(),
            Some(
                "cannot install mesa-vulkan-drivers chromium: not root, and `sudo -n` (passwordless sudo) does not \
                 work.\n\
                 Install them yourself (Debian/Ubuntu):\n    \
                 sudo apt-get update && sudo apt-get install -y --no-install-recommends mesa-vulkan-drivers chromium\n  \
                 mesa-vulkan-drivers: lavapipe, the CPU Vulkan driver the GPU tests and the browser gate draw on \
                 (elsewhere: Mesa's lavapipe or another Vulkan driver; DXBC_WGSL_SKIP_GPU=1 with \
                 DXBC_WGSL_SKIP_BROWSER=1 skips those tests instead)\n  \
                 chromium: /usr/bin/chromium, which the browser gate launches (elsewhere: DXBC_WGSL_CHROMIUM=PATH \
                 names another Chromium; DXBC_WGSL_SKIP_BROWSER=1 skips the gate instead)"
                    .to_string()
            )
        );

        probe.apt_get = false;
        probe.chromium_found = true;
        let p = plan(&Opts::default(), &probe);
        assert!(p.problems[0].starts_with("cannot install mesa-vulkan-drivers: apt-get is not on PATH"));
    }

    #[test]
    fn sudo_route_plans_the_install() {
        let mut probe = ready();
        probe.chromium_found = false;
        probe.root = false;
        probe.sudo = true;
        let p = plan(&Opts::default(), &probe);
        assert_eq!(p.apt, Some((Route::Sudo, vec![CHROMIUM_PACKAGE])));
        assert!(p.problems.is_empty());
    }

    #[test]
    fn node_versions() {
        assert_eq!(node_major("v20.11.1\n"), Some(20));
        assert_eq!(node_major("v18.19.0"), Some(18));
        assert_eq!(node_major("garbage"), None);
        let mut probe = ready();
        assert_eq!(check_node(&probe), Ok(()));
        probe.node_version = Some("v18.19.0".into());
        let e = check_node(&probe).unwrap_err();
        assert!(e.starts_with("node v18.19.0 is too old; needed: Node.js 20 or newer with npm on PATH"), "{e}");
        probe.node_version = None;
        assert!(check_node(&probe).unwrap_err().starts_with("`node` is not on PATH"));
        probe.node_version = Some("v22.1.0".into());
        probe.npm = false;
        assert!(check_node(&probe).unwrap_err().starts_with("`npm` is not on PATH"));
        // Not needed when both npm folders are skipped.
        let p = plan(&Opts { skip_tint: true, skip_browser: true, ..Opts::default() }, &probe);
        assert!(p.problems.is_empty());
        assert_eq!(p.failure(), None);
        // Needed for one.
        let p = plan(&Opts { skip_tint: true, ..Opts::default() }, &probe);
        assert_eq!(p.problems.len(), 1);
    }

    #[test]
    fn lockfile_versions_ignore_nested_version_keys_and_the_root() {
        let v = locked_versions(LOCK);
        assert_eq!(
            v.into_iter().collect::<Vec<_>>(),
            [("node_modules/debug".into(), "4.4.3".into()), ("node_modules/webgpu".into(), "0.6.2".into())]
        );
        assert_eq!(locked_versions(LOCK), locked_versions(INSTALLED));
    }

    #[test]
    fn npm_ci_when_absent_incomplete_or_different() {
        assert!(matches!(npm_action(&installed_folder()), NpmAction::Skip(_)));

        assert_eq!(npm_action(&absent_tint()), NpmAction::Ci("tools/tint/node_modules is absent".into()));

        let no_marker = NpmFolder { marker_installed: false, ..installed_folder() };
        assert_eq!(npm_action(&no_marker), NpmAction::Ci("tools/tint/node_modules/webgpu is absent".into()));

        let no_record = NpmFolder { installed_lock: None, ..installed_folder() };
        assert_eq!(
            npm_action(&no_record),
            NpmAction::Ci("tools/tint/node_modules/.package-lock.json is absent".into())
        );

        let older = NpmFolder { installed_lock: Some(INSTALLED.replace("0.6.2", "0.6.1")), ..installed_folder() };
        assert_eq!(
            npm_action(&older),
            NpmAction::Ci("tools/tint/node_modules differs from package-lock.json (webgpu@0.6.2)".into())
        );

        let p = plan(&Opts::default(), &Probe { npm_folders: vec![absent_tint()], ..ready() });
        assert_eq!(p.npm_ci, [("tools/tint".to_string(), "tools/tint/node_modules is absent".to_string())]);
        let p =
            plan(&Opts { skip_tint: true, ..Opts::default() }, &Probe { npm_folders: vec![absent_tint()], ..ready() });
        assert!(p.npm_ci.is_empty());
    }

    fn absent_tint() -> NpmFolder {
        NpmFolder { node_modules: false, marker_installed: false, installed_lock: None, ..installed_folder() }
    }

    #[test]
    fn cargo_test_arguments() {
        assert_eq!(cargo_test_args(&[]), strings(&["test", "--workspace", "--release"]));
        assert_eq!(
            cargo_test_args(&strings(&["--", "--test-threads=1"])),
            strings(&["test", "--workspace", "--release", "--", "--test-threads=1"])
        );
        assert_eq!(
            cargo_test_args(&strings(&["-p", "dxbc-wgsl", "--test", "golden"])),
            strings(&["test", "--release", "-p", "dxbc-wgsl", "--test", "golden"])
        );
        assert_eq!(cargo_test_args(&strings(&["--package=xtask"])), strings(&["test", "--release", "--package=xtask"]));
        assert_eq!(
            cargo_test_args(&strings(&["--profile", "dev"])),
            strings(&["test", "--workspace", "--profile", "dev"])
        );
        // After `--` everything is the test binaries': `-p` there picks no package.
        assert_eq!(
            cargo_test_args(&strings(&["--", "-p"])),
            strings(&["test", "--workspace", "--release", "--", "-p"])
        );
    }
}
