//! An indenting line writer for generated code (the effect generator's and the struct writer's).

/// Accumulates lines with four-space indentation.
#[derive(Default)]
pub(crate) struct W {
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
    ///
    /// Text from blobs (semantic names) or effect files can hold anything: line breaks start a new
    /// `///` line and other control characters are escaped, so no text ever leaves the comment.
    pub fn doc(&mut self, s: &str) {
        for line in s.split(['\n', '\r']) {
            let clean: String = line
                .chars()
                .flat_map(|c| if c.is_control() { c.escape_default().collect::<Vec<_>>() } else { vec![c] })
                .collect();
            if clean.is_empty() {
                self.line("///");
            } else {
                self.line(&format!("/// {clean}"));
            }
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

#[cfg(test)]
mod tests {
    use super::W;

    /// Text from blobs cannot leave a doc comment: a line break starts another `///` line and
    /// control characters are escaped.
    #[test]
    fn doc_text_cannot_escape_the_comment() {
        let mut w = W::default();
        w.doc("POSITION\n    pub fn injected() {}\r// x\u{7}");
        let out = w.finish();
        assert!(out.lines().all(|l| l.trim_start().starts_with("///")), "{out}");
        assert!(out.contains("\\u{7}"), "{out}");
    }
}
