//! Name patterns: how a permutation's shader file (or header symbol) is spelled.
//!
//! A pattern is literal text with `{...}` substitutions, one per axis:
//!
//! | form | bool axis | enum axis |
//! |---|---|---|
//! | `{axis}` | `true` / `false` | the value's name |
//! | `{axis:TEXT}` | `TEXT` when true, else nothing | — |
//! | `{axis:T:F}` | `T` when true, `F` when false | — |
//! | `{axis:v1=TEXT,v2=TEXT}` | values `true` / `false` | listed values; unlisted give nothing |
//!
//! `{{` and `}}` are literal braces. Example (DirectXTK's naming):
//! `BasicEffect_VSBasic{texture:Tx}{vertex_color:Vc}{fog::NoFog}.dxbc`.

/// One piece of a parsed pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Literal text.
    Literal(String),
    /// Text chosen by an axis value: `texts[value index]`.
    Axis {
        /// Axis index.
        axis: usize,
        /// Text for each value of the axis, by value index.
        texts: Vec<String>,
    },
}

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// The pattern as written.
    pub text: String,
    /// Its pieces.
    pub parts: Vec<Part>,
}

/// What the pattern parser needs to know about the axes.
pub trait AxisLookup {
    /// Index of the axis called `name`.
    fn axis_index(&self, name: &str) -> Option<usize>;
    /// Value names of axis `axis` (`["false", "true"]` for a bool axis).
    fn value_names(&self, axis: usize) -> Vec<String>;
    /// Whether axis `axis` is a bool axis.
    fn is_bool(&self, axis: usize) -> bool;
}

/// A pattern error: byte offset inside the pattern text, and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    /// Byte offset inside the pattern.
    pub at: usize,
    /// Message.
    pub message: String,
}

impl Pattern {
    /// Parses `text` against the declared axes.
    ///
    /// # Errors
    /// [`PatternError`] for an unknown axis or value, an unclosed brace, or a bool form used with
    /// an enum axis.
    pub fn parse(text: &str, axes: &dyn AxisLookup) -> Result<Self, PatternError> {
        let mut parts = Vec::new();
        let mut lit = String::new();
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '{' if chars.peek().map(|p| p.1) == Some('{') => {
                    chars.next();
                    lit.push('{');
                }
                '}' if chars.peek().map(|p| p.1) == Some('}') => {
                    chars.next();
                    lit.push('}');
                }
                '}' => {
                    return Err(PatternError {
                        at: i,
                        message: "unmatched `}` (write `}}` for a literal brace)".into(),
                    })
                }
                '{' => {
                    let Some(close) = text[i..].find('}') else {
                        return Err(PatternError { at: i, message: "unclosed `{`".into() });
                    };
                    let inner = &text[i + 1..i + close];
                    while chars.peek().is_some_and(|(j, _)| *j <= i + close) {
                        chars.next();
                    }
                    if !lit.is_empty() {
                        parts.push(Part::Literal(std::mem::take(&mut lit)));
                    }
                    parts.push(parse_sub(inner, i + 1, axes)?);
                }
                c => lit.push(c),
            }
        }
        if !lit.is_empty() {
            parts.push(Part::Literal(lit));
        }
        Ok(Pattern { text: text.to_string(), parts })
    }

    /// The text for a permutation, given the value index of every axis.
    pub fn expand(&self, values: &[usize]) -> String {
        let mut s = String::new();
        for p in &self.parts {
            match p {
                Part::Literal(l) => s.push_str(l),
                Part::Axis { axis, texts } => s.push_str(&texts[values[*axis]]),
            }
        }
        s
    }

    /// Axes the pattern depends on.
    pub fn axes(&self) -> impl Iterator<Item = usize> + '_ {
        self.parts.iter().filter_map(|p| match p {
            Part::Axis { axis, .. } => Some(*axis),
            Part::Literal(_) => None,
        })
    }
}

fn parse_sub(inner: &str, at: usize, axes: &dyn AxisLookup) -> Result<Part, PatternError> {
    let (name, spec) = match inner.split_once(':') {
        Some((n, s)) => (n.trim(), Some(s)),
        None => (inner.trim(), None),
    };
    let Some(axis) = axes.axis_index(name) else {
        return Err(PatternError {
            at,
            message: format!("`{{{inner}}}`: no axis named `{name}` is declared in [axes]"),
        });
    };
    let values = axes.value_names(axis);
    let texts = match spec {
        None => values.clone(),
        Some(spec) if spec.contains('=') => {
            let mut texts = vec![String::new(); values.len()];
            for item in spec.split(',') {
                let Some((v, t)) = item.split_once('=') else {
                    return Err(PatternError {
                        at,
                        message: format!("`{{{inner}}}`: `{item}` is not of the form value=TEXT"),
                    });
                };
                let v = v.trim();
                let Some(vi) = values.iter().position(|x| x == v) else {
                    return Err(PatternError {
                        at,
                        message: format!(
                            "`{{{inner}}}`: axis `{name}` has no value `{v}` (values: {})",
                            values.join(", ")
                        ),
                    });
                };
                texts[vi] = t.to_string();
            }
            texts
        }
        Some(spec) => {
            if !axes.is_bool(axis) {
                return Err(PatternError {
                    at,
                    message: format!(
                        "`{{{inner}}}`: `{name}` is an enumeration; write `{{{name}}}` for the value name or \
                         `{{{name}:value=TEXT,...}}`"
                    ),
                });
            }
            let (t, f) = match spec.split_once(':') {
                Some((t, f)) => (t, f),
                None => (spec, ""),
            };
            if f.contains(':') {
                return Err(PatternError {
                    at,
                    message: format!("`{{{inner}}}`: expected `{{{name}:IF_TRUE}}` or `{{{name}:IF_TRUE:IF_FALSE}}`"),
                });
            }
            vec![f.to_string(), t.to_string()]
        }
    };
    Ok(Part::Axis { axis, texts })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Axes;
    impl AxisLookup for Axes {
        fn axis_index(&self, name: &str) -> Option<usize> {
            ["fog", "lighting"].iter().position(|n| *n == name)
        }
        fn value_names(&self, axis: usize) -> Vec<String> {
            match axis {
                0 => vec!["false".into(), "true".into()],
                _ => vec!["none".into(), "vertex".into(), "pixel".into()],
            }
        }
        fn is_bool(&self, axis: usize) -> bool {
            axis == 0
        }
    }

    #[test]
    fn expands_bool_and_enum_forms() {
        let p =
            Pattern::parse("VS{lighting:vertex=VertexLighting,pixel=PixelLighting}{fog::NoFog}.dxbc", &Axes).unwrap();
        assert_eq!(p.expand(&[1, 0]), "VS.dxbc");
        assert_eq!(p.expand(&[0, 0]), "VSNoFog.dxbc");
        assert_eq!(p.expand(&[1, 2]), "VSPixelLighting.dxbc");
        let p = Pattern::parse("{lighting}_{fog}_{fog:F}{{x}}", &Axes).unwrap();
        assert_eq!(p.expand(&[1, 1]), "vertex_true_F{x}");
        assert_eq!(p.expand(&[0, 0]), "none_false_{x}");
    }

    #[test]
    fn reports_errors_with_offsets() {
        let e = Pattern::parse("ab{fgo:X}", &Axes).unwrap_err();
        assert_eq!(e.at, 3);
        assert!(e.message.contains("no axis named `fgo`"), "{}", e.message);
        let e = Pattern::parse("ab{lighting:X}", &Axes).unwrap_err();
        assert!(e.message.contains("enumeration"), "{}", e.message);
        let e = Pattern::parse("ab{lighting:spot=X}", &Axes).unwrap_err();
        assert!(e.message.contains("no value `spot`"), "{}", e.message);
        assert_eq!(Pattern::parse("x{fog", &Axes).unwrap_err().at, 1);
        assert_eq!(Pattern::parse("x}y", &Axes).unwrap_err().at, 1);
    }
}
