//! Records, statuses, skip reasons and the summary of a conformance run.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

/// Where a case comes from; counts are kept per source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// `wine/expected.jsonl`: Wine's d3d11 instruction tables.
    WineTable,
    /// `vkd3d/expected.jsonl`: vkd3d's d3d12 instruction tables.
    Vkd3dTable,
    /// An instruction table found elsewhere.
    OtherTable,
    /// `vkd3d-shader-tests/<stem>/test.json`: replays of vkd3d's shader_test files.
    ShaderTest,
}

impl Source {
    /// Name used in the printed summary and the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            Source::WineTable => "wine table",
            Source::Vkd3dTable => "vkd3d table",
            Source::OtherTable => "other table",
            Source::ShaderTest => "vkd3d shader tests",
        }
    }
}

/// Outcome of one record (an instruction-table row or a shader_test probe).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Run, and the result matched.
    Passed,
    /// Run, and the result did not match (or the draw could not be carried out): our failure.
    Failed,
    /// Run, did not match, but vkd3d's own file marks the command `todo`/`bug` at this model (or
    /// the table row carries a known-driver-issue flag for this device): listed, not counted as
    /// failed.
    TodoFailed,
    /// Not run, for a [`SkipReason`].
    Skipped,
    /// Not a case for this executor: the test file itself marks the command inactive at this
    /// model (`require_not_satisfied`, `if_condition_false`, `last_shader_section_expected_to_fail`,
    /// `previous_render_failed`). Counted apart from `skipped`.
    Inactive,
}

/// The fixed list of reasons a case may be skipped for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SkipReason {
    /// A capability WebGPU or the adapter lacks (int64, geometry shaders, ...).
    Capability {
        /// Which capability.
        capability: String,
    },
    /// The translator refused a shader the case needs.
    Refused {
        /// The refusal reason's id (`opcode_unsupported`, ...).
        reason: String,
        /// The refusal message (instruction, offset, opcode, details).
        detail: String,
    },
    /// A compute dispatch: compute shaders are not translated yet.
    ComputeDispatch,
    /// A fixed-function feature outside shader translation (fog, clip planes, point size).
    FixedFunction {
        /// Which feature.
        feature: String,
    },
}

impl SkipReason {
    /// A short id for histograms: `capability`, `refused`, `compute`, `fixed_function`.
    pub fn id(&self) -> &'static str {
        match self {
            SkipReason::Capability { .. } => "capability",
            SkipReason::Refused { .. } => "refused",
            SkipReason::ComputeDispatch => "compute",
            SkipReason::FixedFunction { .. } => "fixed_function",
        }
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::Capability { capability } => write!(f, "capability WebGPU or the adapter lacks: {capability}"),
            SkipReason::Refused { reason, detail } => {
                write!(f, "shader refused by the translator ({reason}): {detail}")
            }
            SkipReason::ComputeDispatch => f.write_str("compute dispatch before compute translation exists"),
            SkipReason::FixedFunction { feature } => {
                write!(f, "fixed-function feature outside shader translation: {feature}")
            }
        }
    }
}

/// One instruction-table row or one shader_test probe.
#[derive(Debug, Clone, Serialize)]
pub struct Record {
    /// Which source the case belongs to.
    pub source: Source,
    /// The case: `wine/expected.jsonl:12 (ps_bfi row 3)` or `vkd3d-shader-tests/<stem> sm4 line 14`.
    pub case: String,
    /// The blobs the case draws with (relative to the corpus root where possible).
    pub blobs: Vec<String>,
    /// Expected values (hex bit patterns for floats, decimal for integers).
    pub expected: Vec<String>,
    /// What the device produced (the first mismatching texel, else the first texel of the rect).
    pub got: Vec<String>,
    /// `exact` or `N ulps`.
    pub tolerance: String,
    /// Outcome.
    pub status: Status,
    /// Why it failed or was skipped; empty when passed.
    pub reason: String,
    /// The skip reason, when skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip: Option<SkipReason>,
    /// vkd3d's file marks the command `todo`/`bug` at this model (or the row's flag marks a known
    /// issue of this device): a failure is reported in the todo column.
    pub todo: bool,
}

/// Counts for one source.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Passed records (todo ones included).
    pub passed: usize,
    /// Failed records (todo ones excluded).
    pub failed: usize,
    /// Skipped records.
    pub skipped: usize,
    /// Records run under a `todo`/`bug` marker (passed or not).
    pub todo_run: usize,
    /// Records run under a marker that failed (not counted as failed).
    pub todo_failed: usize,
    /// Records the test file marks inactive for this executor.
    pub inactive: usize,
}

impl Counts {
    /// Records actually run (passed, failed or todo-failed).
    pub fn run(&self) -> usize {
        self.passed + self.failed + self.todo_failed
    }

    fn add(&mut self, r: &Record) {
        match r.status {
            Status::Passed => self.passed += 1,
            Status::Failed => self.failed += 1,
            Status::TodoFailed => self.todo_failed += 1,
            Status::Skipped => self.skipped += 1,
            Status::Inactive => self.inactive += 1,
        }
        if r.todo && matches!(r.status, Status::Passed | Status::TodoFailed) {
            self.todo_run += 1;
        }
    }
}

/// The result of a conformance run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    /// The adapter the cases ran on.
    pub adapter: String,
    /// Every record, in replay order.
    pub records: Vec<Record>,
    /// Problems with the inputs themselves (unreadable files, malformed JSON): each is also
    /// counted as a failed record.
    pub input_errors: Vec<String>,
}

impl Report {
    /// Counts over all records.
    pub fn totals(&self) -> Counts {
        let mut c = Counts::default();
        for r in &self.records {
            c.add(r);
        }
        c.failed += self.input_errors.len();
        c
    }

    /// Counts per source.
    pub fn per_source(&self) -> BTreeMap<Source, Counts> {
        let mut m: BTreeMap<Source, Counts> = BTreeMap::new();
        for r in &self.records {
            m.entry(r.source).or_default().add(r);
        }
        m
    }

    /// Skipped records per skip reason id, and refused ones per refusal reason.
    pub fn skip_histogram(&self) -> (BTreeMap<&'static str, usize>, BTreeMap<String, usize>) {
        let mut by_kind = BTreeMap::new();
        let mut refusals = BTreeMap::new();
        for r in &self.records {
            if let Some(s) = &r.skip {
                *by_kind.entry(s.id()).or_default() += 1;
                if let SkipReason::Refused { reason, .. } = s {
                    *refusals.entry(reason.clone()).or_default() += 1;
                }
            }
        }
        (by_kind, refusals)
    }

    /// The closing line: `passed: N, failed: M, skipped: K`.
    pub fn summary_line(&self) -> String {
        let t = self.totals();
        format!("passed: {}, failed: {}, skipped: {}", t.passed, t.failed, t.skipped)
    }

    /// The human-readable report: failures, todo failures, per-source table, skip histogram. The
    /// caller prints [`Report::summary_line`] after it.
    pub fn describe(&self) -> String {
        use fmt::Write as _;
        let mut s = String::new();
        let _ = writeln!(s, "adapter: {}", self.adapter);
        for e in &self.input_errors {
            let _ = writeln!(s, "input error: {e}");
        }
        for r in self.records.iter().filter(|r| r.status == Status::Failed) {
            let _ = writeln!(s, "FAILED {}: {}", r.case, r.reason);
        }
        for r in self.records.iter().filter(|r| r.status == Status::TodoFailed) {
            let _ = writeln!(s, "todo   {}: {}", r.case, r.reason);
        }
        let _ = writeln!(
            s,
            "{:<20} {:>6} {:>6} {:>6} {:>7} {:>9} {:>11} {:>8}",
            "source", "run", "passed", "failed", "skipped", "todo run", "todo failed", "inactive"
        );
        for (src, c) in self.per_source() {
            let _ = writeln!(
                s,
                "{:<20} {:>6} {:>6} {:>6} {:>7} {:>9} {:>11} {:>8}",
                src.name(),
                c.run(),
                c.passed,
                c.failed,
                c.skipped,
                c.todo_run,
                c.todo_failed,
                c.inactive
            );
        }
        let (kinds, refusals) = self.skip_histogram();
        if !kinds.is_empty() {
            let k: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let _ = writeln!(s, "skipped by reason: {}", k.join(", "));
        }
        if !refusals.is_empty() {
            let k: Vec<String> = refusals.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let _ = writeln!(s, "refused by the translator: {}", k.join(", "));
        }
        let t = self.totals();
        let _ = writeln!(s, "todo: {} run, {} failed (listed, not counted as failed)", t.todo_run, t.todo_failed);
        s
    }
}
