//! Diagnostics with file:line:column positions.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// One error in an effect file or one of its inputs, with the position it refers to.
///
/// Displays as `file:line:column: message`, the form editors and cargo understand. Code that
/// acts on a diagnostic reads its [`kind`](Diagnostic::kind) and position, never its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// What it is about.
    pub kind: DiagnosticKind,
    /// The file the position is in (the effect file, or a shader input).
    pub file: PathBuf,
    /// 1-based line; 0 for a diagnostic about a whole file (an unreadable one), which displays
    /// as `file: message`, without a position.
    pub line: usize,
    /// 1-based column (in characters); 0 with line 0.
    pub column: usize,
    /// The byte range of `file` it refers to, when it refers to one (a key, a value, a table).
    pub span: Option<Range<usize>>,
    /// The message (one line).
    pub message: String,
}

/// What a [`Diagnostic`] is about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// The effect file itself: unreadable, TOML syntax, unknown keys, bad values.
    Syntax,
    /// A shader input that is missing or cannot be used (not a container or header, ...).
    Input,
    /// The translator refused a shader (with the reason) or failed on it (`None`: an internal
    /// error, the translator's bug).
    Translation(Option<dxbc_wgsl::RefusalReason>),
    /// A constant buffer's layout against a shader's declaration or reflection: the `[cbuffers]`
    /// entry by name.
    Cbuffer(String),
    /// A check of the effect against its shaders: bindings, resources, view formats, stage
    /// linking, vertex formats, render states, generated names.
    Check,
    /// A GPU rejected a pipeline (GPU validation).
    Gpu,
}

impl Diagnostic {
    /// A diagnostic of kind [`DiagnosticKind::Check`] at byte offset `at` of `source` (the text
    /// of `file`).
    pub fn at(file: &Path, source: &str, at: usize, message: impl Into<String>) -> Self {
        let (line, column) = line_column(source, at);
        Diagnostic {
            kind: DiagnosticKind::Check,
            file: file.to_path_buf(),
            line,
            column,
            span: Some(at..at),
            message: message.into(),
        }
    }

    /// A diagnostic at `span` (its position is the span's start).
    pub fn span(file: &Path, source: &str, span: &Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic { span: Some(span.clone()), ..Self::at(file, source, span.start, message) }
    }

    /// A diagnostic about a whole file (no position: line 0, column 0, no span; it displays as
    /// `file: message`).
    pub fn file(file: &Path, message: impl Into<String>) -> Self {
        Diagnostic {
            kind: DiagnosticKind::Check,
            file: file.to_path_buf(),
            line: 0,
            column: 0,
            span: None,
            message: message.into(),
        }
    }

    /// The same diagnostic with another kind.
    pub fn with_kind(self, kind: DiagnosticKind) -> Self {
        Diagnostic { kind, ..self }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return write!(f, "{}: {}", self.file.display(), self.message);
        }
        write!(f, "{}:{}:{}: {}", self.file.display(), self.line, self.column, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// One or more diagnostics: the error type of loading and compiling an effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The diagnostics, in the order they were found.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter()
    }
    /// The first diagnostic.
    pub fn first(&self) -> Option<&Diagnostic> {
        self.0.first()
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

impl Diagnostics {
    /// The diagnostics in file, line and column order (stable: those at one position keep the
    /// order they were found in).
    pub fn sorted(mut list: Vec<Diagnostic>) -> Self {
        list.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
        Diagnostics(list)
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// 1-based line and column (in characters) of byte offset `at` in `source`.
pub fn line_column(source: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(source.len());
    while !source.is_char_boundary(at) {
        at -= 1;
    }
    let before = &source[..at];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map(|p| p + 1).unwrap_or(0);
    let column = source[line_start..at].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_from_one() {
        let s = "ab\ncdé\nf";
        assert_eq!(line_column(s, 0), (1, 1));
        assert_eq!(line_column(s, 1), (1, 2));
        assert_eq!(line_column(s, 3), (2, 1));
        // 'é' is two bytes; 'f' line starts after it.
        assert_eq!(line_column(s, s.find('f').unwrap()), (3, 1));
        assert_eq!(line_column(s, s.find('é').unwrap() + 2), (2, 4));
    }
}
