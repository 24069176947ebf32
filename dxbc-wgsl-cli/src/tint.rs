//! Tint validation: runs the WGSL compiler inside Chrome's WebGPU (Dawn for Node.js, npm package
//! `webgpu`, null backend — no GPU needed) over translated modules.
//!
//! naga does not implement WGSL's uniformity analysis and a few other rules; Tint does. A module
//! is Tint-clean when Tint reports no error and no warning. The checker script lives in
//! `tools/tint/check.mjs` of this repository; its `node_modules` come from
//! `npm ci --prefix tools/tint`. Node stays out of the library's dependencies: this module only
//! spawns `node`.
//!
//! [`check_in_browser`] runs the same protocol in headless Chromium's WebGPU (SwiftShader's
//! Vulkan device): `tools/browser/gate.mjs qualify`, with `npm ci --prefix tools/browser` and
//! Debian's `chromium`; each module's `getCompilationInfo()` messages come back.

use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One diagnostic Tint reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TintMessage {
    /// `error`, `warning` or `info`.
    #[serde(rename = "type")]
    pub kind: String,
    /// 1-based line in the WGSL.
    pub line: u64,
    /// 1-based column.
    pub col: u64,
    /// The message.
    pub text: String,
}

/// Tint's verdict on one module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TintVerdict {
    /// Caller's id (index into the batch).
    pub id: usize,
    /// No error and no warning.
    pub ok: bool,
    /// Everything Tint said.
    pub messages: Vec<TintMessage>,
    /// The browser did not compile the module: why (`needs feature primitive-index, which the
    /// adapter lacks`). Never set by Tint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

impl TintVerdict {
    /// The first error or warning, formatted `line:col: text`.
    pub fn first_problem(&self) -> Option<String> {
        self.messages
            .iter()
            .find(|m| m.kind == "error" || m.kind == "warning")
            .map(|m| format!("{}:{}: {}: {}", m.line, m.col, m.kind, m.text))
    }
}

/// Errors running Tint.
#[derive(Debug, thiserror::Error)]
pub enum TintError {
    /// The checker or its `node_modules` are missing.
    #[error("Tint is not installed: {0} (run `npm ci --prefix tools/tint` in the dxbc-wgsl repository, or set DXBC_WGSL_TINT_DIR to a folder holding check.mjs and node_modules/webgpu)")]
    NotInstalled(String),
    /// `node` could not be run or exited abnormally.
    #[error("running node for Tint: {0}")]
    Node(String),
}

/// The browser gate is not installed (`tools/browser/node_modules/playwright-core`, `chromium`).
#[derive(Debug, thiserror::Error)]
#[error("the browser gate is not installed: {0} (run `npm ci --prefix tools/browser` in the dxbc-wgsl repository and install Chromium: `apt-get install chromium`, or set DXBC_WGSL_CHROMIUM)")]
pub struct BrowserNotInstalled(pub String);

/// `tools/browser` of this repository (`DXBC_WGSL_BROWSER_DIR` overrides it).
pub fn browser_dir() -> PathBuf {
    std::env::var_os("DXBC_WGSL_BROWSER_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("tools").join("browser"))
}

/// Whether the browser gate can run here: its script, playwright-core, and Chromium.
pub fn browser_available() -> Result<PathBuf, BrowserNotInstalled> {
    let dir = browser_dir();
    if !dir.join("gate.mjs").is_file() {
        return Err(BrowserNotInstalled(format!("{} has no gate.mjs", dir.display())));
    }
    if !dir.join("node_modules").join("playwright-core").is_dir() {
        return Err(BrowserNotInstalled(format!("{} has no node_modules/playwright-core", dir.display())));
    }
    let chromium =
        std::env::var_os("DXBC_WGSL_CHROMIUM").map(PathBuf::from).unwrap_or_else(|| "/usr/bin/chromium".into());
    if !chromium.is_file() {
        return Err(BrowserNotInstalled(format!("no Chromium at {}", chromium.display())));
    }
    Ok(dir)
}

/// Compiles WGSL modules in headless Chromium (`tools/browser/gate.mjs qualify`): each module's
/// `getCompilationInfo()` messages, `ok` when none is an error or a warning. Verdicts come back in
/// input order.
///
/// # Errors
/// [`TintError::NotInstalled`] when the gate is not installed, [`TintError::Node`] when `node` or
/// the browser fails.
/// `features[i]` lists the WebGPU features module `i` needs (`"primitive-index"`): the page
/// creates its device with every feature the adapter has, and a module that needs one it lacks
/// is not compiled ([`TintVerdict::skipped`]).
pub fn check_in_browser(modules: &[&str], features: &[Vec<String>]) -> Result<Vec<TintVerdict>, TintError> {
    let dir = browser_available().map_err(|e| TintError::NotInstalled(e.to_string()))?;
    let requests = modules
        .iter()
        .enumerate()
        .map(|(id, code)| {
            serde_json::json!({ "id": id, "code": code, "features": features.get(id).cloned().unwrap_or_default() })
                .to_string()
        })
        .collect();
    run_checker(&dir, &["gate.mjs", "qualify"], requests, modules.len())
}

/// The folder holding `check.mjs` and `node_modules/webgpu`: `DXBC_WGSL_TINT_DIR`, else this
/// repository's `tools/tint`.
pub fn tint_dir() -> PathBuf {
    std::env::var_os("DXBC_WGSL_TINT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("tools").join("tint"))
}

/// Whether Tint can run here.
pub fn available() -> Result<PathBuf, TintError> {
    let dir = tint_dir();
    if !dir.join("check.mjs").is_file() {
        return Err(TintError::NotInstalled(format!("{} has no check.mjs", dir.display())));
    }
    if !dir.join("node_modules").join("webgpu").is_dir() {
        return Err(TintError::NotInstalled(format!("{} has no node_modules/webgpu", dir.display())));
    }
    Ok(dir)
}

/// Checks WGSL modules with Tint; verdicts come back in input order.
///
/// # Errors
/// [`TintError`] when Tint is not installed or `node` fails.
pub fn check(modules: &[&str]) -> Result<Vec<TintVerdict>, TintError> {
    let dir = available()?;
    let requests = modules
        .iter()
        .enumerate()
        .map(|(id, code)| serde_json::json!({ "id": id, "code": code }).to_string())
        .collect();
    run_checker(&dir, &["check.mjs"], requests, modules.len())
}

/// Runs `node ARGS` in `dir` over `modules` with the checkers' protocol (one JSON request per
/// line on stdin, one verdict per line on stdout).
fn run_checker(dir: &Path, args: &[&str], requests: Vec<String>, count: usize) -> Result<Vec<TintVerdict>, TintError> {
    let mut child = Command::new("node")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| TintError::Node(format!("cannot start `node`: {e}")))?;
    let mut stdin = child.stdin.take().ok_or_else(|| TintError::Node("no stdin".into()))?;
    // Write from a thread so a full stdout pipe cannot deadlock us.
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        for r in requests {
            stdin.write_all(r.as_bytes())?;
            stdin.write_all(b"\n")?;
        }
        Ok(())
    });
    let stdout = child.stdout.take().ok_or_else(|| TintError::Node("no stdout".into()))?;
    let mut verdicts = Vec::with_capacity(count);
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| TintError::Node(e.to_string()))?;
        let v: TintVerdict =
            serde_json::from_str(&line).map_err(|e| TintError::Node(format!("bad checker output `{line}`: {e}")))?;
        verdicts.push(v);
    }
    writer
        .join()
        .map_err(|_| TintError::Node("writer thread panicked".into()))?
        .map_err(|e| TintError::Node(e.to_string()))?;
    let out = child.wait_with_output().map_err(|e| TintError::Node(e.to_string()))?;
    if !out.status.success() || verdicts.len() != count {
        return Err(TintError::Node(format!(
            "checker exited with {} after {} of {} modules: {}",
            out.status,
            verdicts.len(),
            count,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    verdicts.sort_by_key(|v| v.id);
    Ok(verdicts)
}
