//! `dxbc-wgsl conformance` (feature `gpu`): the runner of `dxbc_wgsl_gpu::conformance` with
//! progress on a terminal, the report table and an optional JSON report.

use std::path::{Path, PathBuf};

use dxbc_wgsl_gpu::conformance;

/// The `dxbc-wgsl conformance` command: finds the cases under `paths`, runs them on the default
/// adapter, prints failures, the per-source table and, last, `passed: N, failed: M, skipped: K`.
/// Writes the JSON report to `json` when given. Returns whether nothing failed.
pub fn cli(paths: &[PathBuf], json: Option<&Path>) -> anyhow::Result<bool> {
    use std::io::IsTerminal as _;
    let cases = conformance::discover(paths).map_err(anyhow::Error::msg)?;
    if cases.is_empty() {
        anyhow::bail!("no expected.jsonl tables or test.json replays under the given paths");
    }
    let device = conformance::Device::new()?;
    let terminal = std::io::stderr().is_terminal();
    let total = cases.len();
    let report = conformance::run(&device, &cases, |i, case| {
        if terminal {
            let p = match case {
                conformance::Case::Table(p) | conformance::Case::ShaderTest(p) => p.display().to_string(),
            };
            eprint!("\r\x1b[K[{}/{total}] {p}", i + 1);
        }
    });
    if terminal {
        eprint!("\r\x1b[K");
    }
    if let Some(path) = json {
        let per_source: std::collections::BTreeMap<&str, conformance::Counts> =
            report.per_source().into_iter().map(|(s, c)| (s.name(), c)).collect();
        let (by_kind, refusals) = report.skip_histogram();
        let value = serde_json::json!({
            "adapter": report.adapter,
            "totals": report.totals(),
            "per_source": per_source,
            "skipped_by_reason": by_kind,
            "refusals": refusals,
            "input_errors": report.input_errors,
            "records": report.records,
        });
        let text = serde_json::to_string_pretty(&value)?;
        dxbc_wgsl_build::builder::write_atomic(path, text.as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    print!("{}", report.describe());
    println!("{}", report.summary_line());
    Ok(report.totals().failed == 0)
}
