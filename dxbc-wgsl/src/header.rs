//! fxc `/Fh` headers: `.h`/`.inc` files holding `const BYTE Name[] = { 0x44, 0x58, ... };`.

use crate::error::{ReadError, ReadResult};

/// One byte array found in a header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderBlob {
    /// The array's symbol name.
    pub symbol: String,
    /// 1-based line of the declaration.
    pub line: usize,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// Blanks comments (`//`, `/* */`) and `#if 0` ... `#endif` blocks (where fxc puts its listing)
/// with spaces, keeping newlines, so byte offsets and line numbers stay those of the original.
fn mask_inactive(text: &str) -> Vec<u8> {
    let src = text.as_bytes();
    let mut out = src.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    let mut line_start = true;
    while i < src.len() {
        let c = src[i];
        if c == b'/' && src.get(i + 1) == Some(&b'/') {
            let end = src[i..].iter().position(|&b| b == b'\n').map_or(src.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
            continue;
        }
        if c == b'/' && src.get(i + 1) == Some(&b'*') {
            let end = src[i + 2..].windows(2).position(|w| w == b"*/").map_or(src.len(), |p| i + 2 + p + 2);
            blank(&mut out, i, end);
            i = end;
            continue;
        }
        if line_start && c == b'#' {
            let line_end = src[i..].iter().position(|&b| b == b'\n').map_or(src.len(), |p| i + p);
            let directive: Vec<&str> = text[i + 1..line_end].split_whitespace().collect();
            if directive.first() == Some(&"if") && directive.get(1) == Some(&"0") {
                // Skip to the matching #endif (nested #if/#ifdef/#ifndef counted).
                let mut depth = 0usize;
                let mut j = line_end;
                let mut end = src.len();
                while j < src.len() {
                    let next = src[j + 1..].iter().position(|&b| b == b'\n').map_or(src.len(), |p| j + 1 + p);
                    let line = text[(j + 1).min(src.len())..next].trim_start();
                    if let Some(d) = line.strip_prefix('#') {
                        let d = d.trim_start();
                        if d.starts_with("if") {
                            depth += 1;
                        } else if d.starts_with("endif") {
                            if depth == 0 {
                                end = next;
                                break;
                            }
                            depth -= 1;
                        }
                    }
                    j = next;
                }
                blank(&mut out, i, end);
                i = end;
                continue;
            }
        }
        if c == b'\n' {
            line_start = true;
        } else if !c.is_ascii_whitespace() {
            line_start = false;
        }
        i += 1;
    }
    out
}

/// Extracts every `BYTE name[] = {...}` array from header text, ignoring comments and `#if 0`
/// blocks. Linear in the text's length.
///
/// # Errors
/// [`ReadError::Header`] with line and column when an array is malformed.
pub fn parse_header(text: &str) -> ReadResult<Vec<HeaderBlob>> {
    let masked = mask_inactive(text);
    let bytes = &masked[..];
    let line_starts: Vec<usize> =
        std::iter::once(0).chain(bytes.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1)).collect();
    let line_col = |at: usize| {
        let line = line_starts.partition_point(|&s| s <= at);
        (line, at - line_starts[line - 1] + 1)
    };
    let skip_ws = |mut at: usize| {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        at
    };
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(rel) = bytes[pos..].windows(4).position(|w| w == b"BYTE") {
        let start = pos + rel;
        pos = start + 4;
        // Must be a whole word.
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        if (start > 0 && word(bytes[start - 1])) || bytes.get(pos).is_some_and(|&b| word(b)) {
            continue;
        }
        // BYTE name [ ... ] = {
        let name_start = skip_ws(pos);
        let name_len = bytes[name_start..].iter().take_while(|&&b| word(b)).count();
        if name_len == 0 {
            continue;
        }
        let symbol = text[name_start..name_start + name_len].to_string();
        let mut at = skip_ws(name_start + name_len);
        if bytes.get(at) != Some(&b'[') {
            continue;
        }
        at += 1;
        while at < bytes.len() && !matches!(bytes[at], b']' | b';' | b'{' | b'\n') {
            at += 1;
        }
        if bytes.get(at) != Some(&b']') {
            continue;
        }
        at = skip_ws(at + 1);
        if bytes.get(at) != Some(&b'=') {
            continue;
        }
        at = skip_ws(at + 1);
        if bytes.get(at) != Some(&b'{') {
            let (line, column) = line_col(start);
            return Err(ReadError::Header { line, column, reason: format!("array `{symbol}` has no `{{`") });
        }
        let body_start = at + 1;
        let Some(close_rel) = bytes[body_start..].iter().position(|&b| b == b'}') else {
            let (line, column) = line_col(start);
            return Err(ReadError::Header { line, column, reason: format!("array `{symbol}` has no closing `}}`") });
        };
        let body = std::str::from_utf8(&bytes[body_start..body_start + close_rel]).map_err(|_| {
            let (line, column) = line_col(body_start);
            ReadError::Header { line, column, reason: format!("array `{symbol}` is not text") }
        })?;
        let mut data = Vec::with_capacity(body.len() / 5);
        let mut off = body_start;
        for item in body.split(',') {
            let t = item.trim();
            let item_at = off + (item.len() - item.trim_start().len());
            off += item.len() + 1;
            if t.is_empty() {
                continue;
            }
            let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                u8::from_str_radix(h, 16)
            } else {
                t.parse::<u8>()
            };
            match v {
                Ok(b) => data.push(b),
                Err(_) => {
                    let (line, column) = line_col(item_at);
                    return Err(ReadError::Header {
                        line,
                        column,
                        reason: format!("`{t}` in array `{symbol}` is not a byte value"),
                    });
                }
            }
        }
        let (line, _) = line_col(start);
        out.push(HeaderBlob { symbol, line, bytes: data });
        pos = body_start + close_rel + 1;
    }
    Ok(out)
}

/// Selects one blob from a header: by symbol, or the only one when `symbol` is `None`.
///
/// # Errors
/// [`ReadError::Header`] when the symbol is missing or the choice is ambiguous.
pub fn select(blobs: Vec<HeaderBlob>, symbol: Option<&str>) -> ReadResult<HeaderBlob> {
    let names: Vec<String> = blobs.iter().map(|b| b.symbol.clone()).collect();
    match symbol {
        Some(s) => blobs.into_iter().find(|b| b.symbol == s).ok_or_else(|| ReadError::Header {
            line: 1,
            column: 1,
            reason: format!("no array named `{s}` (found: {})", names.join(", ")),
        }),
        None => {
            if blobs.len() == 1 {
                Ok(blobs.into_iter().next().expect("one blob"))
            } else if blobs.is_empty() {
                Err(ReadError::Header { line: 1, column: 1, reason: "no `BYTE name[] = {...}` array found".into() })
            } else {
                Err(ReadError::Header {
                    line: 1,
                    column: 1,
                    reason: format!("several arrays ({}); choose one by symbol", names.join(", ")),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_header;

    #[test]
    fn comments_and_if0_blocks_are_not_read() {
        let text = "#if 0\n// const BYTE listing[] = { 1 };\nconst BYTE inside[] = { 9 };\n#endif\n\
                    /* const BYTE c[] = { 7 }; */\n// BYTE d[] = { 8 };\nconst BYTE g_main[] =\n{\n  68, 0x58\n};\n";
        let blobs = parse_header(text).unwrap();
        assert_eq!(blobs.len(), 1, "{blobs:?}");
        assert_eq!(blobs[0].symbol, "g_main");
        assert_eq!(blobs[0].line, 7);
        assert_eq!(blobs[0].bytes, vec![68, 0x58]);
    }

    #[test]
    fn nested_conditionals_inside_if0_end_at_the_matching_endif() {
        let text = "#if 0\n#ifdef X\nconst BYTE a[] = { 1 };\n#endif\nconst BYTE b[] = { 2 };\n#endif\nconst BYTE c[] = { 3 };\n";
        let blobs = parse_header(text).unwrap();
        assert_eq!(blobs.iter().map(|b| b.symbol.as_str()).collect::<Vec<_>>(), vec!["c"]);
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = parse_header("\n\nconst BYTE x[] = { 1, 300 };\n").unwrap_err().to_string();
        assert!(err.contains("3:23") || err.contains("line 3"), "{err}");
    }

    #[test]
    fn many_byte_words_without_arrays_stay_linear() {
        // 200,000 `BYTE x;` declarations: a quadratic scan (searching for `{` from each) would
        // take minutes; this returns at once. (Timing is not asserted; the test documents it.)
        let text = "BYTE x;\n".repeat(200_000);
        assert!(parse_header(&text).unwrap().is_empty());
    }
}
