//! `dxbc-wgsl bench-watch`: change-to-validated latency of the watcher.
//!
//! Copies an effect file and its shader inputs into a temporary folder, starts a [`Watcher`] on
//! it (with outputs), then edits one blob `edits` times, alternating between its own program and
//! another blob's, each edit saved as editors do (a temporary file renamed over the blob). Every
//! edit is also made unique (the edit's number written into the compiler-name string of the
//! reflection chunk, checksum recomputed), so no edit is ever served from the watcher's content
//! cache: each one is translated, its effect recompiled and the permutations using it validated. Latency is measured from just before the save to the moment the
//! watcher's report arrives: debounce, hashing, translation, compilation, validation and writing
//! the outputs included.

use std::path::{Path, PathBuf};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};

use super::{normalize, Change, Event, Options, Report, Status, Validate, Watcher};
use dxbc_wgsl_build::builder::candidate_inputs;
use dxbc_wgsl_build::Effect;

/// What to measure.
#[derive(Debug, Clone)]
pub struct Config {
    /// The effect file (its inputs are copied with it).
    pub effect: PathBuf,
    /// The input edited (a file name among the effect's inputs).
    pub blob: String,
    /// A file in the same folder whose bytes alternate with the blob's.
    pub alternative: String,
    /// Measured edits.
    pub edits: usize,
    /// Edits before measuring (not counted).
    pub warmup: usize,
    /// The watcher's debounce.
    pub debounce: Duration,
    /// How long to wait for one report before giving up.
    pub timeout: Duration,
}

/// The measurements.
#[derive(Debug, Clone)]
pub struct Measurements {
    /// What validated.
    pub validator: String,
    /// Permutations of the effect.
    pub permutations: usize,
    /// Distinct shader inputs of the effect.
    pub inputs: usize,
    /// Change-to-report latency per edit (debounce included).
    pub latency: Vec<Duration>,
    /// The watcher's own processing time per edit (debounce excluded).
    pub processing: Vec<Duration>,
    /// Permutations validated per edit.
    pub validated: Vec<usize>,
    /// Shader inputs translated per edit.
    pub translated: Vec<usize>,
    /// Initial scan (every permutation translated and validated).
    pub initial: Duration,
}

/// The `p`-th percentile (nearest rank) of `values`.
pub fn percentile(values: &[Duration], p: f64) -> Duration {
    if values.is_empty() {
        return Duration::ZERO;
    }
    let mut v = values.to_vec();
    v.sort_unstable();
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

impl Measurements {
    /// The summary printed by `bench-watch`.
    pub fn summary(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let line = |name: &str, v: &[Duration]| {
            format!(
                "{name}: p50 {:.1} ms, p95 {:.1} ms, min {:.1} ms, max {:.1} ms",
                ms(percentile(v, 50.0)),
                ms(percentile(v, 95.0)),
                ms(v.iter().copied().min().unwrap_or_default()),
                ms(v.iter().copied().max().unwrap_or_default()),
            )
        };
        let mean = |v: &[usize]| v.iter().sum::<usize>() as f64 / v.len().max(1) as f64;
        format!(
            "validation: {}\neffect: {} permutations over {} inputs; initial scan {:.0} ms\n{} edits: {:.1} \
             permutations validated and {:.1} inputs translated per edit on average\n{}\n{}",
            self.validator,
            self.permutations,
            self.inputs,
            ms(self.initial),
            self.latency.len(),
            mean(&self.validated),
            mean(&self.translated),
            line("change-to-validated latency (debounce included)", &self.latency),
            line("processing (debounce excluded)", &self.processing),
        )
    }
}

/// The deepest folder holding all of `paths`.
fn common_ancestor(paths: &[PathBuf]) -> PathBuf {
    let mut common = paths[0].parent().map(Path::to_path_buf).unwrap_or_default();
    for p in paths {
        while !p.starts_with(&common) {
            if !common.pop() {
                break;
            }
        }
    }
    common
}

/// `bytes` with `n` written into the fxc creator string (`Microsoft (R) HLSL Shader Compiler`,
/// which nothing reads) or, in a container without one (reflection stripped), into a `SALT` chunk
/// appended to it (which nothing reads either), and the container checksum recomputed: the same
/// program, new content.
///
/// # Errors
/// `bytes` is not a DXBC container.
pub fn salted(bytes: &[u8], n: usize) -> anyhow::Result<Vec<u8>> {
    const CREATOR: &[u8] = b"Microsoft (R)";
    let tag = format!("{n:09}");
    let mut out = match bytes.windows(CREATOR.len()).position(|w| w == CREATOR) {
        Some(at) => {
            let mut out = bytes.to_vec();
            out[at..at + tag.len()].copy_from_slice(tag.as_bytes());
            out
        }
        None => with_salt_chunk(bytes, tag.as_bytes())?,
    };
    let sum = dxbc_wgsl::container::checksum_of(&out);
    out[4..20].copy_from_slice(&sum);
    Ok(out)
}

/// The container `bytes` with a chunk `SALT` holding `tag` (padded to 4 bytes) after its other
/// chunks (the checksum left to the caller).
fn with_salt_chunk(bytes: &[u8], tag: &[u8]) -> anyhow::Result<Vec<u8>> {
    let container = dxbc_wgsl::Container::parse(bytes, &dxbc_wgsl::ReadOptions { verify_checksum: false })
        .map_err(|e| anyhow::anyhow!("the blob cannot be salted: {e}"))?;
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let total = container.bytes.len();
    let count = word(28) as usize;
    let table_end = 32 + 4 * count;
    let mut data = tag.to_vec();
    data.resize(tag.len().div_ceil(4) * 4, 0);
    let new_total = total + 4 + 8 + data.len();
    let mut out = Vec::with_capacity(new_total);
    out.extend_from_slice(&bytes[..24]);
    out.extend_from_slice(&u32::try_from(new_total)?.to_le_bytes());
    out.extend_from_slice(&u32::try_from(count + 1)?.to_le_bytes());
    // Every chunk moves by the new table entry.
    for i in 0..count {
        out.extend_from_slice(&(word(32 + 4 * i) + 4).to_le_bytes());
    }
    out.extend_from_slice(&u32::try_from(total + 4)?.to_le_bytes());
    out.extend_from_slice(&bytes[table_end..total]);
    out.extend_from_slice(b"SALT");
    out.extend_from_slice(&u32::try_from(data.len())?.to_le_bytes());
    out.extend_from_slice(&data);
    Ok(out)
}

fn save_like_an_editor(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.swp"));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// The input to edit and the file whose program alternates with it, for an effect whose
/// `bench-watch` names neither (or only the input): two shader inputs of the effect in one folder,
/// of the same stage, with different bytes, such that the second can stand in for the first
/// without breaking the effect: pixel shaders first (the second reads no input and binds no
/// register the first does not, and writes the same outputs), then vertex shaders (it binds no
/// register the first does not, and writes the same outputs, registers included; its inputs may
/// differ). File names, as [`Config`] takes them.
///
/// # Errors
/// The effect cannot be loaded, `blob` is not one of its inputs, or no such pair exists (give
/// `--blob` and `--alternative`).
pub fn pick_inputs(effect_path: &Path, blob: Option<&str>) -> anyhow::Result<(String, String)> {
    use dxbc_wgsl_build::stage::StageInfo;
    let effect = Effect::load(effect_path).map_err(|d| anyhow::anyhow!("{d}"))?;
    let options = dxbc_wgsl::TranslateOptions { skip_checksum: !effect.verify_checksum, ..Default::default() };
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut shaders: Vec<(PathBuf, Vec<u8>, StageInfo)> = Vec::new();
    for p in candidate_inputs(&effect) {
        let Ok(bytes) = std::fs::read(&p) else { continue };
        if !bytes.starts_with(b"DXBC") {
            continue;
        }
        if let Ok(info) = dxbc_wgsl_build::compile::translate_bytes_with(&bytes, &options) {
            shaders.push((p, bytes, info));
        }
    }
    shaders.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some(b) = blob {
        if !shaders.iter().any(|(p, ..)| name(p) == b) {
            bail!("{b} is not a DXBC input of {} that translates", effect_path.display());
        }
    }
    let regs = |i: &StageInfo| -> Vec<_> { i.bindings.iter().map(|b| b.register).collect() };
    let stands_in = |a: &StageInfo, b: &StageInfo| match a.stage {
        dxbc_wgsl_build::effect::Stage::Pixel => {
            b.inputs.iter().all(|i| a.inputs.contains(i))
                && regs(b).iter().all(|r| regs(a).contains(r))
                && a.outputs == b.outputs
        }
        // Its vertex layout follows the program: only what the next stage reads must stay.
        dxbc_wgsl_build::effect::Stage::Vertex => regs(b).iter().all(|r| regs(a).contains(r)) && a.outputs == b.outputs,
        _ => false,
    };
    for stage in [dxbc_wgsl_build::effect::Stage::Pixel, dxbc_wgsl_build::effect::Stage::Vertex] {
        for (pa, ba, ia) in shaders.iter().filter(|s| s.2.stage == stage) {
            if blob.is_some_and(|b| name(pa) != b) {
                continue;
            }
            for (pb, bb, ib) in shaders.iter().filter(|s| s.2.stage == stage) {
                if pa.parent() == pb.parent() && ba != bb && stands_in(ia, ib) {
                    return Ok((name(pa), name(pb)));
                }
            }
        }
    }
    bail!(
        "found no two inputs of {} to alternate{}: give --blob and --alternative",
        effect_path.display(),
        blob.map(|b| format!(" with {b}")).unwrap_or_default()
    )
}

/// Runs the benchmark.
///
/// # Errors
/// The effect cannot be loaded or copied, the blob or its alternative is missing, the watcher
/// fails to start, a report does not come in time or an edit does not qualify.
pub fn run<V: Validate + Send + 'static>(config: &Config, validator: V) -> anyhow::Result<Measurements> {
    let effect = Effect::load(&config.effect).map_err(|d| anyhow::anyhow!("{d}"))?;
    let effect_file = normalize(&config.effect);
    let inputs: Vec<PathBuf> = candidate_inputs(&effect).iter().map(|p| normalize(p)).collect();
    let blob = inputs
        .iter()
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy() == config.blob))
        .with_context(|| format!("{} is not an input of {}", config.blob, config.effect.display()))?
        .clone();
    let alternative = blob.with_file_name(&config.alternative);
    let version_a = std::fs::read(&blob).with_context(|| blob.display().to_string())?;
    let version_b = std::fs::read(&alternative).with_context(|| alternative.display().to_string())?;
    if version_a == version_b {
        bail!("{} and {} have the same bytes", config.blob, config.alternative);
    }

    // A private copy: the effect file and its inputs, in the same relative layout.
    let dir = tempfile::tempdir()?;
    let mut all = inputs.clone();
    all.push(effect_file.clone());
    let base = common_ancestor(&all);
    let copy = |p: &Path| -> anyhow::Result<PathBuf> {
        let to = dir.path().join("src").join(p.strip_prefix(&base)?);
        std::fs::create_dir_all(to.parent().expect("a file"))?;
        if p.is_file() {
            std::fs::copy(p, &to)?;
        }
        Ok(to)
    };
    for p in &inputs {
        copy(p)?;
    }
    let effect_copy = copy(&effect_file)?;
    let blob_copy = dir.path().join("src").join(blob.strip_prefix(&base)?);

    let watcher = Watcher::new(
        Options { paths: vec![effect_copy], out: Some(dir.path().join("out")), debounce: config.debounce },
        validator,
    )?;
    let validator_name = watcher.validator().describe();
    let running = watcher.spawn();
    let next = |what: &str| -> anyhow::Result<Event> {
        running.events.recv_timeout(config.timeout).map_err(|e| match e {
            RecvTimeoutError::Timeout => anyhow::anyhow!("no report within {:?} ({what})", config.timeout),
            RecvTimeoutError::Disconnected => anyhow::anyhow!("the watcher stopped ({what})"),
        })
    };
    let initial = loop {
        match next("initial scan")? {
            Event::Report(r) if r.status != Status::Qualified => bail!("the effect does not qualify: {r}"),
            Event::Ready { elapsed, .. } => break elapsed,
            _ => {}
        }
    };

    let compiled_inputs = inputs.len();
    let mut m = Measurements {
        validator: validator_name,
        permutations: effect.permutations().len(),
        inputs: compiled_inputs,
        latency: Vec::new(),
        processing: Vec::new(),
        validated: Vec::new(),
        translated: Vec::new(),
        initial,
    };
    for i in 0..config.warmup + config.edits {
        let bytes = salted(if i % 2 == 0 { &version_b } else { &version_a }, i)?;
        let t0 = Instant::now();
        save_like_an_editor(&blob_copy, &bytes)?;
        let report: Report = loop {
            match next(&format!("edit {i}"))? {
                Event::Report(r) if r.change == Change::Modified => break r,
                _ => {}
            }
        };
        let latency = t0.elapsed();
        if report.status != Status::Qualified {
            bail!("edit {i} did not qualify: {report}");
        }
        if i >= config.warmup {
            m.latency.push(latency);
            m.processing.push(report.elapsed);
            m.validated.push(report.validated);
            m.translated.push(report.translated);
        }
        // Let stray events of this save settle so that they never count for the next one.
        let quiet = Instant::now() + config.debounce * 3;
        while let Some(left) = quiet.checked_duration_since(Instant::now()) {
            match running.events.recv_timeout(left) {
                Ok(Event::Report(r)) if r.change == Change::Modified => {
                    bail!("edit {i} was reported twice: {r}")
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
    }
    running.stop()?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn translated(bytes: &[u8]) -> String {
        dxbc_wgsl::translate(bytes, &dxbc_wgsl::TranslateOptions::default()).expect("translates").wgsl
    }

    /// A blob whose reflection is stripped (no fxc creator string) is salted too: a new, valid
    /// container (its checksum verified) of the same program.
    #[test]
    fn a_blob_without_a_creator_string_is_salted_with_a_chunk() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../example-engine/shaders/directxtk/DebugEffect/DebugEffect_PSHemiAmbient.dxbc");
        let bytes = std::fs::read(path).unwrap();
        assert!(!bytes.windows(13).any(|w| w == b"Microsoft (R)"));
        let (a, b) = (salted(&bytes, 1).unwrap(), salted(&bytes, 2).unwrap());
        assert!(a != b && a != bytes);
        assert_eq!(translated(&a), translated(&bytes));
        assert_eq!(translated(&b), translated(&bytes));
        assert!(salted(b"DXBC", 1).is_err());
    }
}
