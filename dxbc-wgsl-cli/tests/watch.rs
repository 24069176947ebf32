//! `dxbc-wgsl watch`: the watcher on real folders, through the file system's events (notify) and
//! synchronously; the command line with Ctrl-C; the workspace's declared effects.
//!
//! Waits are for events with generous timeouts, never sleeps standing in for an assertion.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use dxbc_wgsl_build::compile::CompiledEffect;
use dxbc_wgsl_cli::watch::{
    Change, Event, Movement, NoValidation, Options, Report, Running, Status, Validate, Watcher,
};

const TIMEOUT: Duration = Duration::from_secs(60);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn blob(family: &str, name: &str) -> Vec<u8> {
    std::fs::read(repo().join("example-engine/shaders/directxtk").join(family).join(name)).unwrap()
}

fn basic(name: &str) -> Vec<u8> {
    blob("BasicEffect", name)
}

/// Saves as editors do: a temporary file renamed over the target (no half-written state).
fn save(path: &Path, bytes: &[u8]) {
    let tmp = path.with_file_name(format!(".{}.swp", path.file_name().unwrap().to_string_lossy()));
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in walk(dir) {
        out.insert(e.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(&e).unwrap());
    }
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries.flatten() {
        if e.path().is_dir() {
            out.extend(walk(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out.sort();
    out
}

struct Session {
    running: Option<Running>,
    seen: Vec<String>,
}

impl Session {
    fn start(paths: Vec<PathBuf>, out: &Path) -> (Session, Vec<Report>) {
        let watcher = Watcher::new(
            Options { paths, out: Some(out.to_path_buf()), debounce: Duration::from_millis(15) },
            NoValidation,
        )
        .unwrap();
        let mut s = Session { running: Some(watcher.spawn()), seen: Vec::new() };
        let mut initial = Vec::new();
        loop {
            match s.next() {
                Event::Report(r) => initial.push(r),
                Event::Ready { .. } => break,
                Event::Warning(w) => panic!("warning: {w}"),
            }
        }
        (s, initial)
    }

    fn next(&mut self) -> Event {
        match self.running.as_ref().unwrap().events.recv_timeout(TIMEOUT) {
            Ok(e) => {
                if let Event::Report(r) = &e {
                    self.seen.push(r.to_string());
                }
                e
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!("no event within {TIMEOUT:?}; seen so far:\n{}", self.seen.join("\n"))
            }
            Err(RecvTimeoutError::Disconnected) => panic!("the watcher stopped; seen:\n{}", self.seen.join("\n")),
        }
    }

    /// The first report about `subject` (a suffix of the shown path) that `done` accepts; other
    /// reports about it (a save split in two by the debounce) are skipped.
    fn wait(&mut self, subject: &str, done: impl Fn(&Report) -> bool) -> Report {
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            if let Event::Report(r) = self.next() {
                if r.subject.ends_with(subject) && done(&r) {
                    return r;
                }
            }
        }
        panic!("no matching report for {subject}; seen:\n{}", self.seen.join("\n"))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(r) = self.running.take() {
            let result = r.stop();
            if !std::thread::panicking() {
                result.unwrap();
            }
        }
    }
}

#[test]
fn bare_shaders_through_file_events_keep_the_last_good_output() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    let out = dir.path().join("out");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    let (mut s, initial) = Session::start(vec![src.clone()], &out);
    assert!(initial.is_empty(), "{initial:?}");

    // Add a blob (in a subfolder: the output mirrors it).
    let vs = src.join("sub/vs.dxbc");
    let wgsl = out.join("sub/vs.wgsl");
    save(&vs, &basic("BasicEffect_VSBasic.dxbc"));
    let r = s.wait("vs.dxbc", |r| r.status == Status::Qualified);
    assert_eq!((r.change, r.movement), (Change::New, Movement::New), "{r}");
    assert_eq!(r.written, vec![std::fs::canonicalize(&out).unwrap().join("sub/vs.wgsl")], "{r}");
    let first = std::fs::read_to_string(&wgsl).unwrap();
    assert!(first.contains("@vertex"), "{first}");

    // Replace it with another blob.
    save(&vs, &basic("BasicEffect_VSBasicTx.dxbc"));
    let r = s.wait("vs.dxbc", |r| r.change == Change::Modified);
    assert_eq!((r.status, r.movement), (Status::Qualified, Movement::Unchanged), "{r}");
    assert_eq!(r.written.len(), 1, "{r}");
    let good = std::fs::read(&wgsl).unwrap();
    assert_ne!(good, first.as_bytes(), "the new blob's WGSL replaced the old");

    // Corrupt it (truncated container): failed, regressed, the last good output stays.
    save(&vs, &basic("BasicEffect_VSBasicTx.dxbc")[..100]);
    let r = s.wait("vs.dxbc", |r| r.change == Change::Modified);
    assert_eq!((r.status, r.movement), (Status::Failed, Movement::Regressed), "{r}");
    assert!(r.kept_last_good && r.written.is_empty(), "{r}");
    assert!(r.reason.as_deref().unwrap().contains("truncated"), "{r}");
    assert_eq!(std::fs::read(&wgsl).unwrap(), good, "a corrupted input left the output byte-identical");

    // Garbage, then an empty file written in place (truncate-and-write, as some editors save).
    save(&vs, b"this is not a shader at all");
    let r = s.wait("vs.dxbc", |r| r.reason.as_deref().is_some_and(|x| x.contains("no DXBC magic")));
    assert_eq!((r.status, r.movement), (Status::Failed, Movement::Unchanged), "{r}");
    std::fs::write(&vs, b"").unwrap();
    let r = s.wait("vs.dxbc", |r| r.reason.as_deref().is_some_and(|x| x.contains("0 bytes")));
    assert_eq!(r.status, Status::Failed, "{r}");
    assert_eq!(std::fs::read(&wgsl).unwrap(), good);

    // Restore it (in place): newly qualified; the output already holds that WGSL, so nothing is written.
    std::fs::write(&vs, basic("BasicEffect_VSBasicTx.dxbc")).unwrap();
    let r = s.wait("vs.dxbc", |r| r.status == Status::Qualified);
    assert_eq!(r.movement, Movement::NewlyQualified, "{r}");
    assert!(r.written.is_empty(), "{r}");
    assert_eq!(std::fs::read(&wgsl).unwrap(), good);

    // The same bytes again: unchanged, no work.
    save(&vs, &basic("BasicEffect_VSBasicTx.dxbc"));
    let r = s.wait("vs.dxbc", |_| true);
    assert_eq!(r.change, Change::Unchanged, "{r}");
    assert!(r.to_string().contains("same content"), "{r}");

    // A header with two arrays: one output per array.
    let header = src.join("two.h");
    let array = |name: &str, bytes: &[u8]| {
        let body: Vec<String> = bytes.iter().map(|b| format!("{b:3}")).collect();
        format!("const BYTE {name}[] =\n{{\n{}\n}};\n", body.join(", "))
    };
    let text = array("g_VS", &basic("BasicEffect_VSBasic.dxbc")) + &array("g_PS", &basic("BasicEffect_PSBasic.dxbc"));
    save(&header, text.as_bytes());
    s.wait("two.h#g_VS", |r| r.status == Status::Qualified);
    s.wait("two.h#g_PS", |r| r.status == Status::Qualified);
    assert!(out.join("two#g_VS.wgsl").is_file() && out.join("two#g_PS.wgsl").is_file());

    // Rename: the old name is deleted (its output removed), the new one appears.
    let renamed = src.join("sub/vs2.cso");
    std::fs::rename(&vs, &renamed).unwrap();
    let r = s.wait("sub/vs.dxbc", |r| r.change == Change::Deleted);
    assert_eq!((r.status, r.movement), (Status::Deleted, Movement::Regressed), "{r}");
    assert!(!wgsl.exists(), "a deleted input's output is removed");
    s.wait("vs2.cso", |r| r.status == Status::Qualified);
    assert_eq!(std::fs::read(out.join("sub/vs2.wgsl")).unwrap(), good);

    // Files of other kinds are ignored; the watcher is still alive after all this.
    std::fs::write(src.join("notes.txt"), b"hello").unwrap();
    save(&src.join("late.dxbc"), &basic("BasicEffect_PSBasic.dxbc"));
    let r = s.wait("late.dxbc", |_| true);
    assert_eq!(r.status, Status::Qualified, "{r}");
    assert!(s.seen.iter().all(|l| !l.contains("notes.txt")), "{:?}", s.seen);
}

/// A private copy of an example effect (effects/ and shaders/directxtk/<family>/).
fn effect_copy(dir: &Path, effect: &str, family: &str) -> PathBuf {
    let effects = dir.join("effects");
    let shaders = dir.join("shaders/directxtk").join(family);
    std::fs::create_dir_all(&effects).unwrap();
    std::fs::create_dir_all(&shaders).unwrap();
    let from = repo().join("example-engine/shaders/directxtk").join(family);
    for e in std::fs::read_dir(&from).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "dxbc") {
            std::fs::copy(e.path(), shaders.join(e.file_name())).unwrap();
        }
    }
    let file = effects.join(effect);
    std::fs::copy(repo().join("example-engine/effects").join(effect), &file).unwrap();
    file
}

#[test]
fn an_effect_is_redone_when_an_input_or_the_effect_file_changes() {
    let dir = tempfile::tempdir().unwrap();
    let effect = effect_copy(dir.path(), "dual_texture.effect.toml", "DualTextureEffect");
    let shaders = dir.path().join("shaders/directxtk/DualTextureEffect");
    let out = dir.path().join("out");
    let (mut s, initial) = Session::start(vec![effect.clone()], &out);
    assert_eq!(initial.len(), 1, "{initial:?}");
    let r = &initial[0];
    assert_eq!(
        (r.change, r.status, r.effect.as_deref()),
        (Change::Found, Status::Qualified, Some("DualTextureEffect"))
    );
    assert_eq!((r.translated, r.validated, r.written.len()), (6, 4, 7), "{r}");
    let rs = out.join("dual_texture_effect.rs");
    assert!(std::fs::read_to_string(&rs).unwrap().contains("pub mod dual_texture_effect"));

    // Replace a vertex shader with another blob (the vertex-colour one: same outputs, one input
    // more): the effect is redone; only the permutation using it (fog on, no vertex colour) is
    // validated again.
    let vs = shaders.join("DualTextureEffect_VSDualTexture.dxbc");
    let vs_wgsl = out.join("dual_texture_effect/DualTextureEffect_VSDualTexture.wgsl");
    let vs_before = std::fs::read_to_string(&vs_wgsl).unwrap();
    let original = std::fs::read(&vs).unwrap();
    save(&vs, &blob("DualTextureEffect", "DualTextureEffect_VSDualTextureVc.dxbc"));
    let r = s.wait("dual_texture.effect.toml", |r| r.change == Change::Modified);
    assert_eq!((r.status, r.movement, r.validated), (Status::Qualified, Movement::Unchanged, 1), "{r}");
    assert_eq!(r.via, vec!["DualTextureEffect_VSDualTexture.dxbc".to_string()], "{r}");
    assert!(r.written.iter().any(|w| w.ends_with("DualTextureEffect_VSDualTexture.wgsl")), "{r}");
    assert_ne!(std::fs::read_to_string(&vs_wgsl).unwrap(), vs_before);
    let good = snapshot(&out);

    // Corrupt it: the effect fails, every output stays byte-identical.
    save(&vs, &original[..original.len() / 2]);
    let r = s.wait("dual_texture.effect.toml", |r| r.change == Change::Modified);
    assert_eq!((r.status, r.movement), (Status::Failed, Movement::Regressed), "{r}");
    assert!(r.kept_last_good, "{r}");
    let reason = r.reason.clone().unwrap();
    assert!(reason.contains("DualTextureEffect_VSDualTexture.dxbc") && reason.contains("truncated"), "{reason}");
    assert_eq!(snapshot(&out), good, "a corrupted input leaves the outputs byte-identical");

    // Restore the original: newly qualified, its WGSL back.
    save(&vs, &original);
    let r = s.wait("dual_texture.effect.toml", |r| r.change == Change::Modified);
    assert_eq!((r.status, r.movement, r.validated), (Status::Qualified, Movement::NewlyQualified, 1), "{r}");
    assert_eq!(std::fs::read_to_string(&vs_wgsl).unwrap(), vs_before);

    // Edit the effect file: every permutation is validated again; the Rust changes.
    let text = std::fs::read_to_string(&effect).unwrap();
    save(&effect, text.replace("name = \"texture2\"", "name = \"light_map\"").as_bytes());
    let r = s.wait("dual_texture.effect.toml", |r| r.change == Change::Modified);
    assert_eq!((r.status, r.validated, r.translated), (Status::Qualified, 4, 0), "{r}");
    assert!(std::fs::read_to_string(&rs).unwrap().contains("pub light_map:"));
    let good = snapshot(&out);

    // Break the effect file: failed at a line and column, outputs untouched.
    save(&effect, text.replace("[resources]", "[resources\n").as_bytes());
    let r = s.wait("dual_texture.effect.toml", |r| r.change == Change::Modified);
    assert_eq!(r.status, Status::Failed, "{r}");
    assert!(r.reason.as_deref().unwrap().contains("dual_texture.effect.toml:"), "{r}");
    assert_eq!(snapshot(&out), good);

    // Fix it again but delete an input: failed (file not found), outputs untouched.
    save(&effect, text.replace("name = \"texture2\"", "name = \"light_map\"").as_bytes());
    s.wait("dual_texture.effect.toml", |r| r.status == Status::Qualified);
    std::fs::remove_file(shaders.join("DualTextureEffect_VSDualTextureVc.dxbc")).unwrap();
    let r = s.wait("dual_texture.effect.toml", |r| r.change == Change::Modified);
    assert_eq!(r.status, Status::Failed, "{r}");
    assert!(r.reason.as_deref().unwrap().contains("not found"), "{r}");
    assert_eq!(snapshot(&out), good);

    // Delete the effect file: its outputs go.
    std::fs::write(
        shaders.join("DualTextureEffect_VSDualTextureVc.dxbc"),
        blob("DualTextureEffect", "DualTextureEffect_VSDualTextureVc.dxbc"),
    )
    .unwrap();
    s.wait("dual_texture.effect.toml", |r| r.status == Status::Qualified);
    std::fs::remove_file(&effect).unwrap();
    let r = s.wait("dual_texture.effect.toml", |r| r.change == Change::Deleted);
    assert_eq!(r.removed.len(), 7, "{r}");
    assert!(snapshot(&out).is_empty(), "{:?}", snapshot(&out).keys().collect::<Vec<_>>());
}

/// Records what it was asked to validate.
#[derive(Default)]
struct Recorder {
    effects: Vec<(usize, Vec<String>)>,
    fail_with: Option<String>,
}

impl Validate for Recorder {
    fn describe(&self) -> String {
        "recorder".into()
    }
    fn effect(&mut self, c: &CompiledEffect) -> Vec<String> {
        let labels = c.shaders.iter().flat_map(|s| s.labels.clone()).collect();
        self.effects.push((c.permutations.len(), labels));
        self.fail_with.iter().cloned().collect()
    }
    fn shader(&mut self, _t: &dxbc_wgsl::Translation) -> Result<(), String> {
        self.fail_with.clone().map_or(Ok(()), Err)
    }
}

#[test]
fn only_the_permutations_using_a_changed_blob_are_validated_again() {
    let dir = tempfile::tempdir().unwrap();
    let effect = effect_copy(dir.path(), "basic.effect.toml", "BasicEffect");
    let shaders = dir.path().join("shaders/directxtk/BasicEffect");
    let out = dir.path().join("out");
    let options = Options { paths: vec![effect.clone()], out: Some(out.clone()), debounce: Duration::from_millis(15) };
    let mut w = Watcher::new(options, Recorder::default()).unwrap();
    let initial = w.scan();
    assert_eq!(initial.len(), 1);
    assert_eq!((initial[0].status, initial[0].translated, initial[0].validated), (Status::Qualified, 42, 56));
    assert_eq!(walk(&out).len(), 43, "basic_effect.rs and 42 stage files");

    // PSBasicVertexLightingTx serves 8 permutations (vertex or one-light lighting, texture, fog;
    // with and without vertex colour and biased normals).
    let ps = shaders.join("BasicEffect_PSBasicVertexLightingTx.dxbc");
    std::fs::write(&ps, basic("BasicEffect_PSBasicVertexLightingTxNoFog.dxbc")).unwrap();
    let r = w.changed(std::slice::from_ref(&ps));
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!((r[0].status, r[0].validated), (Status::Qualified, 8), "{}", r[0]);
    let (perms, labels) = w.validator().effects.last().unwrap().clone();
    assert_eq!(perms, 8);
    assert!(labels.iter().any(|l| l == "BasicEffect_PSBasicVertexLightingTx.dxbc"), "{labels:?}");
    assert!(labels.len() < 20, "only the shaders of those permutations are handed over: {labels:?}");

    // Same content again: no work, the validator is not called.
    let calls = w.validator().effects.len();
    let r = w.changed(std::slice::from_ref(&ps));
    assert_eq!(r[0].change, Change::Unchanged);
    assert_eq!(w.validator().effects.len(), calls);

    // A validation failure is a failure, and the last good outputs stay.
    let good = snapshot(&out);
    let mut w2 = {
        let options =
            Options { paths: vec![effect.clone()], out: Some(out.clone()), debounce: Duration::from_millis(15) };
        Watcher::new(options, Recorder { fail_with: Some("pipeline creation failed".into()), ..Default::default() })
            .unwrap()
    };
    let r = w2.scan();
    assert_eq!(r[0].status, Status::Failed, "{}", r[0]);
    assert!(r[0].reason.as_deref().unwrap().starts_with("pipeline creation failed"), "{}", r[0]);
    assert_eq!(snapshot(&out), good);
}

/// A pass with a geometry shader (`tests/effects/geometry.effect.toml`) is watched like any other:
/// its geometry shader is an input, a change to it redoes the effect and hands the validator the
/// pass's four shaders.
#[test]
fn a_geometry_pass_is_revalidated_when_its_geometry_shader_changes() {
    let dir = tempfile::tempdir().unwrap();
    let shaders = dir.path().join("geometry");
    std::fs::create_dir_all(&shaders).unwrap();
    for f in ["Expand_VS.dxbc", "Expand_GS.dxbc", "Expand_PS.dxbc"] {
        std::fs::copy(repo().join("tests/fixtures/geometry").join(f), shaders.join(f)).unwrap();
    }
    let text = std::fs::read_to_string(repo().join("tests/effects/geometry.effect.toml")).unwrap();
    let effect = dir.path().join("geometry.effect.toml");
    std::fs::write(&effect, text.replace("shader_dir = \"../fixtures/geometry\"", "shader_dir = \"geometry\""))
        .unwrap();
    let out = dir.path().join("out");
    let options = Options { paths: vec![effect.clone()], out: Some(out.clone()), debounce: Duration::from_millis(15) };
    let mut w = Watcher::new(options, Recorder::default()).unwrap();
    let initial = w.scan();
    assert_eq!((initial[0].status, initial[0].validated), (Status::Qualified, 1), "{}", initial[0]);
    let (_, labels) = w.validator().effects.last().unwrap().clone();
    for l in [
        "Expand_VS.dxbc (vertex pulling)",
        "Expand_GS.dxbc",
        "Expand_GS.dxbc (draw vertex shader)",
        "Expand_PS.dxbc (behind geometry)",
    ] {
        assert!(labels.iter().any(|x| x == l), "{l} missing from {labels:?}");
    }
    assert!(std::fs::read_to_string(out.join("geometry_expand.rs")).unwrap().contains("pub struct MainStage"));

    // The geometry shader changes (its bytes, the same program): the effect is redone.
    let gs = shaders.join("Expand_GS.dxbc");
    let mut bytes = std::fs::read(&gs).unwrap();
    bytes.extend_from_slice(&[0; 4]);
    std::fs::write(&gs, &bytes).unwrap();
    let r = w.changed(std::slice::from_ref(&gs));
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].change, Change::Modified, "{}", r[0]);
    assert_eq!(r[0].via, vec!["Expand_GS.dxbc".to_string()], "{}", r[0]);

    // A geometry shader that is no geometry shader fails at its rule.
    std::fs::copy(shaders.join("Expand_PS.dxbc"), &gs).unwrap();
    let r = w.changed(std::slice::from_ref(&gs));
    assert_eq!(r[0].status, Status::Failed, "{}", r[0]);
    let reason = r[0].reason.as_deref().unwrap();
    assert!(reason.contains("is a pixel shader, but pass `main` uses it as its geometry shader"), "{reason}");
}

/// Passes with stream output (`tests/effects/stream_output.effect.toml`) are watched like any
/// other: validated once per pass; an edit that breaks a declaration fails the effect at the
/// entry's line and keeps the last good output; the fix qualifies it again.
#[test]
fn a_stream_output_declaration_is_rechecked_when_the_effect_file_changes() {
    let dir = tempfile::tempdir().unwrap();
    let shaders = dir.path().join("so");
    std::fs::create_dir_all(&shaders).unwrap();
    for f in ["So_VS.dxbc", "So_PS.dxbc", "So_Strip_GS.dxbc", "So_Points_GS.dxbc"] {
        std::fs::copy(repo().join("tests/fixtures/stream_output").join(f), shaders.join(f)).unwrap();
    }
    let text = std::fs::read_to_string(repo().join("tests/effects/stream_output.effect.toml")).unwrap();
    let text = text.replace("shader_dir = \"../fixtures/stream_output\"", "shader_dir = \"so\"");
    let effect = dir.path().join("stream_output.effect.toml");
    std::fs::write(&effect, &text).unwrap();
    let out = dir.path().join("out");
    let options = Options { paths: vec![effect.clone()], out: Some(out.clone()), debounce: Duration::from_millis(15) };
    let mut w = Watcher::new(options, Recorder::default()).unwrap();
    let initial = w.scan();
    assert_eq!((initial[0].status, initial[0].validated), (Status::Qualified, 3), "{}", initial[0]);
    let (_, labels) = w.validator().effects.last().unwrap().clone();
    for l in ["So_Points_GS.dxbc (stream output)", "So_VS.dxbc (pass-through geometry)"] {
        assert!(labels.iter().any(|x| x == l), "{l} missing from {labels:?}");
    }
    let good = std::fs::read_to_string(out.join("stream_output.rs")).unwrap();
    assert!(good.contains("pub struct CaptureStage") && good.contains("pub mod stream_output"));

    // An entry naming an element the geometry shader does not write.
    let broken = text.replacen("{ stream = 2, semantic = \"DATA\"", "{ stream = 2, semantic = \"NORMAL\"", 1);
    std::fs::write(&effect, &broken).unwrap();
    let r = w.changed(std::slice::from_ref(&effect));
    assert_eq!(r[0].status, Status::Failed, "{}", r[0]);
    let reason = r[0].reason.as_deref().unwrap();
    let line = broken.lines().position(|l| l.contains("\"NORMAL\"")).unwrap() + 1;
    assert!(reason.contains(&format!("stream_output.effect.toml:{line}:")), "{reason}");
    assert!(reason.contains("no output element NORMAL0 on stream 2"), "{reason}");
    assert_eq!(std::fs::read_to_string(out.join("stream_output.rs")).unwrap(), good, "the last good output stays");

    // Fixed again.
    std::fs::write(&effect, &text).unwrap();
    let r = w.changed(std::slice::from_ref(&effect));
    assert_eq!(r[0].status, Status::Qualified, "{}", r[0]);
    assert_eq!(std::fs::read_to_string(out.join("stream_output.rs")).unwrap(), good);
}

#[test]
fn the_command_line_prints_one_line_per_change_and_stops_on_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("ps.dxbc"), basic("BasicEffect_PSBasic.dxbc")).unwrap();
    std::fs::write(src.join("bad.dxbc"), b"junk").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dxbc-wgsl"))
        .args(["watch", "--no-gpu", "--out"])
        .arg(dir.path().join("out"))
        .arg(&src)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead as _;
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut lines = Vec::new();
    let mut wait_for = |needle: &str| loop {
        match rx.recv_timeout(TIMEOUT) {
            Ok(l) => {
                lines.push(l.clone());
                if l.contains(needle) {
                    return l;
                }
            }
            Err(_) => panic!("no line with {needle:?}; got:\n{}", lines.join("\n")),
        }
    };
    // The initial scan lists what does not qualify, then the count.
    let bad = wait_for("bad.dxbc");
    assert!(bad.starts_with("found ") && bad.contains(": failed: not a shader"), "{bad}");
    let ready = wait_for("ready:");
    assert!(ready.contains("1 shaders") || ready.contains("2 shaders"), "{ready}");
    save(&src.join("ps.dxbc"), &basic("BasicEffect_PSBasicTx.dxbc"));
    let line = wait_for("ps.dxbc");
    assert!(line.starts_with("modified ") && line.contains(": qualified (unchanged); 1 translated"), "{line}");
    assert!(line.trim_end().ends_with(" ms)"), "{line}");

    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let stopped = wait_for("stopped");
    assert_eq!(stopped, "stopped");
    let exit = child.wait().unwrap();
    assert_eq!(exit.code(), Some(0), "Ctrl-C ends it cleanly");
}

#[test]
fn qualify_without_paths_takes_the_workspace_effects() {
    let r = Command::new(env!("CARGO_BIN_EXE_dxbc-wgsl"))
        .args(["qualify", "--no-progress"])
        .current_dir(repo())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{text}{}", String::from_utf8_lossy(&r.stderr));
    // example-engine declares BasicEffect (42 blobs) and DualTextureEffect (6).
    assert!(text.trim_end().ends_with("qualified: 48, unsupported: 0, failed: 0"), "{text}");

    let effects = dxbc_wgsl_cli::workspace::effects(&repo()).unwrap();
    let names: Vec<String> = effects.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["basic.effect.toml", "dual_texture.effect.toml"]);

    let elsewhere = tempfile::tempdir().unwrap();
    let r =
        Command::new(env!("CARGO_BIN_EXE_dxbc-wgsl")).args(["watch"]).current_dir(elsewhere.path()).output().unwrap();
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.starts_with("error: no PATH given, and no cargo workspace here"), "{err}");
}

#[test]
fn the_benchmark_measures_every_edit() {
    let config = dxbc_wgsl_cli::watch::bench::Config {
        effect: repo().join("example-engine/effects/dual_texture.effect.toml"),
        blob: "DualTextureEffect_VSDualTexture.dxbc".into(),
        alternative: "DualTextureEffect_VSDualTextureVc.dxbc".into(),
        edits: 6,
        warmup: 1,
        debounce: Duration::from_millis(15),
        timeout: TIMEOUT,
    };
    let m = dxbc_wgsl_cli::watch::bench::run(&config, NoValidation).unwrap();
    assert_eq!(m.latency.len(), 6);
    assert!(m.translated.iter().all(|&t| t == 1), "every edit is new content: {:?}", m.translated);
    assert!(m.validated.iter().all(|&v| v == 1), "{:?}", m.validated);
    assert!(m.latency.iter().zip(&m.processing).all(|(l, p)| l >= p), "latency includes processing");
    assert!(m.latency.iter().all(|l| *l >= Duration::from_millis(15)), "and the debounce: {:?}", m.latency);
    assert!(m.summary().contains("p95"));
}
