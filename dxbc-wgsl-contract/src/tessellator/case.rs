//! The text form of a tessellation case and of its result: `cases.txt`'s lines
//! (`DOMAIN PARTITIONING OUTPUT factors...`) and `expected.jsonl`'s objects, as
//! `dxbc-wgsl tessellate` reads and prints them.

use std::fmt::{self, Write as _};

use super::{tessellate, Domain, OutputPrimitive, Partitioning, Tessellation};

/// One patch to tessellate.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// Its domain.
    pub domain: Domain,
    /// Its partitioning.
    pub partitioning: Partitioning,
    /// Its output primitive.
    pub output: OutputPrimitive,
    /// Its factors, as many as the domain has, in the domain's order.
    pub factors: Vec<f32>,
}

/// Why a case line does not parse: the 1-based column of the offending word (or of the line's
/// end when a word is missing) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseError {
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for CaseError {}

/// The words of a line with their 1-based character columns.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (column, (byte, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((column + 1, byte)),
            (true, Some((col, from))) => {
                out.push((col, &line[from..byte]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((col, from)) = start {
        out.push((col, &line[from..]));
    }
    out
}

impl Case {
    /// Parses one line of `cases.txt`: `DOMAIN PARTITIONING OUTPUT` and the domain's factors as
    /// decimal f32s (`nan`, `inf`, `-inf` and exponents allowed), separated by whitespace.
    pub fn parse(line: &str) -> Result<Case, CaseError> {
        let words = words(line);
        let end = line.chars().count() + 1;
        let word = |i: usize, what: &str| {
            words.get(i).copied().ok_or_else(|| CaseError { column: end, message: format!("expected {what}") })
        };
        let (column, name) = word(0, "a domain (tri, quad, isoline)")?;
        let domain = Domain::from_name(name)
            .ok_or_else(|| CaseError { column, message: format!("unknown domain `{name}` (tri, quad, isoline)") })?;
        let (column, name) = word(1, "a partitioning")?;
        let partitioning = Partitioning::from_name(name).ok_or_else(|| CaseError {
            column,
            message: format!("unknown partitioning `{name}` (integer, pow2, fractional_odd, fractional_even)"),
        })?;
        let (column, name) = word(2, "an output primitive")?;
        let output = OutputPrimitive::from_name(name).ok_or_else(|| CaseError {
            column,
            message: format!("unknown output primitive `{name}` (point, line, triangle_cw, triangle_ccw)"),
        })?;
        let count = domain.factor_count();
        let mut factors = Vec::with_capacity(count);
        for i in 0..count {
            let what = format!("{count} factors for a {} patch, found {i}", domain.name());
            let (column, text) = word(3 + i, &what)?;
            let factor =
                text.parse::<f32>().map_err(|_| CaseError { column, message: format!("`{text}` is not a number") })?;
            factors.push(factor);
        }
        if let Some(&(column, text)) = words.get(3 + count) {
            return Err(CaseError {
                column,
                message: format!("unexpected `{text}`: a {} patch has {count} factors", domain.name()),
            });
        }
        Ok(Case { domain, partitioning, output, factors })
    }

    /// Tessellates the case.
    pub fn tessellate(&self) -> Tessellation {
        tessellate(self.domain, self.partitioning, self.output, &self.factors)
    }

    /// The result as one line of `expected.jsonl`: `domain`, `partitioning`, `output`,
    /// `factors` (8-hex-digit f32 bits), `points` (`[u, v]` bit pairs) and `indices`.
    pub fn to_json(&self, result: &Tessellation) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            r#"{{"domain":"{}","partitioning":"{}","output":"{}","factors":["#,
            self.domain.name(),
            self.partitioning.name(),
            self.output.name()
        );
        for (i, f) in self.factors.iter().enumerate() {
            let _ = write!(s, r#"{}"{:08x}""#, if i > 0 { "," } else { "" }, f.to_bits());
        }
        s.push_str(r#"],"points":["#);
        for (i, [u, v]) in result.points.iter().enumerate() {
            let _ = write!(s, r#"{}["{u:08x}","{v:08x}"]"#, if i > 0 { "," } else { "" });
        }
        s.push_str(r#"],"indices":["#);
        for (i, index) in result.indices.iter().enumerate() {
            let _ = write!(s, "{}{index}", if i > 0 { "," } else { "" });
        }
        s.push_str("]}");
        s
    }
}
