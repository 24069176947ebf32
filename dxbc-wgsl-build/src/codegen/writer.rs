//! An indenting line writer for generated code.

/// Accumulates lines with four-space indentation.
#[derive(Default)]
pub(super) struct W {
    out: String,
    indent: usize,
}

impl W {
    /// A line at the current indentation.
    pub fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }
    /// An empty line.
    pub fn blank(&mut self) {
        self.out.push('\n');
    }
    /// A line that opens a block; following lines are indented.
    pub fn open(&mut self, s: &str) {
        self.line(s);
        self.indent += 1;
    }
    /// Closes a block with `s`.
    pub fn close(&mut self, s: &str) {
        self.indent = self.indent.saturating_sub(1);
        self.line(s);
    }
    /// One `///` doc line (an empty `s` gives a bare `///`).
    pub fn doc(&mut self, s: &str) {
        if s.is_empty() {
            self.line("///");
        } else {
            self.line(&format!("/// {s}"));
        }
    }
    /// User text as doc lines (one per line of `s`).
    pub fn doc_text(&mut self, s: &str) {
        for l in s.trim_end().lines() {
            self.doc(l.trim_end());
        }
    }
    /// The text.
    pub fn finish(self) -> String {
        self.out
    }
}
