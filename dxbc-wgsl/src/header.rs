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

/// Extracts every `BYTE name[] = {...}` array from header text.
///
/// # Errors
/// [`ReadError::Header`] with line and column when an array is malformed.
pub fn parse_header(text: &str) -> ReadResult<Vec<HeaderBlob>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut pos = 0;
    let line_col = |at: usize| {
        let line = text[..at].bytes().filter(|&b| b == b'\n').count() + 1;
        let col = at - text[..at].rfind('\n').map(|p| p + 1).unwrap_or(0) + 1;
        (line, col)
    };
    while let Some(rel) = text[pos..].find("BYTE") {
        let start = pos + rel;
        pos = start + 4;
        // Must be a whole word.
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        let rest = &text[pos..];
        let trimmed = rest.trim_start();
        let name_start = pos + (rest.len() - trimmed.len());
        let name_len = trimmed.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
        if name_len == 0 {
            continue;
        }
        let symbol = text[name_start..name_start + name_len].to_string();
        let after = &text[name_start + name_len..];
        let Some(open) = after.find('{') else {
            let (line, column) = line_col(start);
            return Err(ReadError::Header { line, column, reason: format!("array `{symbol}` has no `{{`") });
        };
        if !after[..open].contains('[') {
            continue;
        }
        let body_start = name_start + name_len + open + 1;
        let Some(close_rel) = text[body_start..].find('}') else {
            let (line, column) = line_col(start);
            return Err(ReadError::Header { line, column, reason: format!("array `{symbol}` has no closing `}}`") });
        };
        let body = &text[body_start..body_start + close_rel];
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
