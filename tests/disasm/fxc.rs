//! The disassembler against fxc's own listings: every corpus blob with a `.fxc.asm` beside it is
//! disassembled and compared with the program part of the listing (from the `ps_5_0`-style line
//! on, `//` comment lines dropped), token by token. Only whitespace, the letter case of hex
//! literals and register names (`CB0`/`cb0`), and float spelling (compared at 6 decimals) are
//! normalised. The signature tables at the top of each listing are compared with the parsed
//! signature chunks, column by column.

use dxbc_wgsl::chunks::signature::Signature;
use dxbc_wgsl::sm4::disasm::{disassemble, signature_fields, signature_table, SignatureFields};
use dxbc_wgsl::{ReadOptions, Shader};
use dxbc_wgsl_tests::corpus_dir;
use std::path::{Path, PathBuf};

const FOLDERS: [&str; 4] = ["directxtk", "directxtk12", "directxtex", "hbaoplus"];

fn files_with_suffix(dir: &Path, suffix: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_with_suffix(&p, suffix, out);
        } else if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(suffix)) {
            out.push(p);
        }
    }
}

/// Pairs of (listing, blob) under one corpus folder.
fn listings(folder: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut asm = Vec::new();
    files_with_suffix(folder, ".fxc.asm", &mut asm);
    asm.into_iter()
        .map(|a| {
            let name = a.file_name().unwrap().to_str().unwrap().trim_end_matches(".fxc.asm").to_string();
            let blob = a.with_file_name(format!("{name}.dxbc"));
            (a, blob)
        })
        .collect()
}

fn is_version_line(line: &str) -> bool {
    let b = line.trim_end().as_bytes();
    b.len() == 6
        && matches!(&b[..3], b"vs_" | b"ps_" | b"gs_" | b"hs_" | b"ds_" | b"cs_")
        && b[3].is_ascii_digit()
        && b[4] == b'_'
        && b[5].is_ascii_digit()
}

/// The program lines of a listing: from the SM4+ version line on (the level-9 part of a
/// `_level_9_x` listing is indented and comes first), without comment or blank lines.
fn listing_program(text: &str) -> Vec<(usize, String)> {
    let mut started = false;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if !started {
            if is_version_line(line) && (line.as_bytes()[3] == b'4' || line.as_bytes()[3] == b'5') {
                started = true;
            } else {
                continue;
            }
        }
        let t = line.trim();
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        out.push((n + 1, line.to_string()));
    }
    out
}

/// Splits a line into tokens: identifiers, numbers (with their `.`/`#` parts) and single
/// punctuation characters, normalised as the comparison allows.
fn tokens(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.' || chars[i] == '#') {
                i += 1;
            }
            out.push(normalise_number(&chars[start..i].iter().collect::<String>()));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(normalise_word(&chars[start..i].iter().collect::<String>()));
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

fn normalise_number(t: &str) -> String {
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return format!("0x{}", hex.to_ascii_lowercase());
    }
    if t.contains('.') {
        if let Ok(f) = t.parse::<f64>() {
            return format!("{f:.6}");
        }
    }
    t.to_string()
}

/// Register names (`CB0`, `T12`, `cb0`) compare without letter case.
fn normalise_word(t: &str) -> String {
    let letters = t.trim_end_matches(|c: char| c.is_ascii_digit());
    if letters.len() < t.len() && !letters.is_empty() && letters.chars().all(|c| c.is_ascii_alphabetic()) {
        t.to_ascii_lowercase()
    } else {
        t.to_string()
    }
}

/// Tokens are equal as text, except that a float whose exact value lies halfway between two
/// 6-decimal numbers may be printed either way: Microsoft's C runtimes disagree on such ties
/// (the directxtk listings round `18.8515625` to `18.851563`, the directxtk12 ones to
/// `18.851562`). Only that exact case is accepted.
fn token_eq(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (Ok(x), Ok(y)) = (a.parse::<f64>(), b.parse::<f64>()) else {
        return false;
    };
    if !(a.contains('.') && b.contains('.')) || (x - y).abs() > 1.5e-6 {
        return false;
    }
    let low = if x < y { a } else { b };
    let midpoint = format!("{low}5");
    let Ok(m) = midpoint.parse::<f32>() else {
        return false;
    };
    let exact = format!("{:.1074}", m as f64);
    let exact = exact.trim_end_matches('0');
    exact == midpoint && (x - y).abs() > 0.5e-6
}

struct Mismatch {
    file: String,
    line: usize,
    expected: String,
    got: String,
}

fn compare_program(path: &Path, listing: &str, got: &str, out: &mut Vec<Mismatch>) -> bool {
    let expected = listing_program(listing);
    let got: Vec<&str> = got.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut ok = true;
    let n = expected.len().max(got.len());
    for i in 0..n {
        let e = expected.get(i);
        let g = got.get(i).copied();
        let same = match (e, g) {
            (Some((_, e)), Some(g)) => {
                let (e, g) = (tokens(e), tokens(g));
                e.len() == g.len() && e.iter().zip(&g).all(|(a, b)| token_eq(a, b))
            }
            _ => false,
        };
        if !same {
            ok = false;
            out.push(Mismatch {
                file: path.display().to_string(),
                line: e.map(|(n, _)| *n).unwrap_or(0),
                expected: e.map(|(_, l)| l.trim().to_string()).unwrap_or_else(|| "<end of listing>".into()),
                got: g.map(|l| l.trim().to_string()).unwrap_or_else(|| "<end of disassembly>".into()),
            });
        }
    }
    ok
}

/// A signature table from the listing header: rows of the table after `// <title>:`.
fn listing_signature(listing: &str, title: &str) -> Option<Vec<SignatureFields>> {
    let lines: Vec<&str> = listing.lines().collect();
    let start = lines.iter().position(|l| l.trim() == format!("// {title}:"))?;
    let mut i = start + 1;
    while i < lines.len() && !lines[i].starts_with("// Name") {
        if !lines[i].starts_with("//") || lines[i].contains("signature:") {
            return None;
        }
        i += 1;
    }
    let dashes = lines.get(i + 1)?.strip_prefix("// ")?;
    // Column spans from the dash line.
    let mut spans = Vec::new();
    let mut col = None;
    for (k, ch) in dashes.char_indices() {
        match (ch, col) {
            ('-', None) => col = Some(k),
            (' ', Some(s)) => {
                spans.push((s, k));
                col = None;
            }
            _ => {}
        }
    }
    if let Some(s) = col {
        spans.push((s, dashes.len()));
    }
    let mut rows = Vec::new();
    for line in &lines[i + 2..] {
        let Some(row) = line.strip_prefix("// ") else {
            break;
        };
        if row.trim().is_empty() || row.trim().starts_with("no ") {
            break;
        }
        let name_len = row.split_whitespace().next().map(str::len).unwrap_or(0);
        let shift = name_len.saturating_sub(spans[0].1 - spans[0].0);
        let cell = |k: usize| -> String {
            let (s, e) = spans[k];
            let (s, e) = if k == 0 { (s, e + shift) } else { (s + shift, e + shift) };
            let e = if k + 1 == spans.len() { row.len().max(e) } else { e };
            row.get(s.min(row.len())..e.min(row.len())).unwrap_or("").trim().to_string()
        };
        rows.push(SignatureFields {
            name: cell(0),
            index: cell(1),
            mask: cell(2),
            register: cell(3),
            system_value: cell(4),
            format: cell(5),
            used: cell(6),
        });
    }
    Some(rows)
}

/// The table's text as printed (header, dash line and rows, without `// ` and trailing blanks).
fn listing_table_text(listing: &str, title: &str) -> Vec<String> {
    let mut lines = listing.lines().skip_while(|l| l.trim() != format!("// {title}:"));
    let mut out = Vec::new();
    for l in lines.by_ref().skip(1) {
        if l.starts_with("// Name") {
            out.push(l[3..].trim_end().to_string());
            break;
        }
    }
    for l in lines {
        let Some(row) = l.strip_prefix("// ") else {
            break;
        };
        if row.trim().is_empty() {
            break;
        }
        out.push(row.trim_end().to_string());
    }
    out
}

fn compare_signature(
    path: &Path,
    listing: &str,
    title: &str,
    sig: &Signature,
    is_output: bool,
    out: &mut Vec<Mismatch>,
) -> bool {
    let Some(expected) = listing_signature(listing, title) else {
        if sig.elements.is_empty() {
            return true;
        }
        out.push(Mismatch {
            file: path.display().to_string(),
            line: 0,
            expected: format!("<no {title} table>"),
            got: format!("{} elements", sig.elements.len()),
        });
        return false;
    };
    let got: Vec<SignatureFields> = sig
        .elements
        .iter()
        .map(|e| {
            let mut f = signature_fields(e, is_output);
            f.mask = f.mask.trim().to_string();
            f.used = f.used.trim().to_string();
            f
        })
        .collect();
    let mut ok = true;
    if !sig.elements.is_empty() {
        // The whole table, character for character (up to trailing blanks).
        let text: Vec<String> = signature_table(sig, is_output).lines().map(|l| l.trim_end().to_string()).collect();
        let listed = listing_table_text(listing, title);
        if text != listed {
            ok = false;
            out.push(Mismatch {
                file: path.display().to_string(),
                line: 0,
                expected: format!("{title} table:\n{}", listed.join("\n")),
                got: text.join("\n"),
            });
        }
    }
    for i in 0..expected.len().max(got.len()) {
        if expected.get(i) != got.get(i) {
            ok = false;
            out.push(Mismatch {
                file: path.display().to_string(),
                line: 0,
                expected: format!("{title} row {i}: {:?}", expected.get(i)),
                got: format!("{:?}", got.get(i)),
            });
        }
    }
    ok
}

fn report(kind: &str, mismatches: &[Mismatch]) {
    let mut shown = std::collections::BTreeMap::<&str, usize>::new();
    for m in mismatches {
        let n = shown.entry(m.file.as_str()).or_default();
        *n += 1;
        if *n > 5 {
            continue;
        }
        eprintln!("{kind} mismatch {}:{}\n  expected: {}\n  got:      {}", m.file, m.line, m.expected, m.got);
    }
}

#[test]
fn disassembly_matches_fxc_listings() {
    let Some(corpus) = corpus_dir() else {
        eprintln!("corpus not found (set DXBC_WGSL_CORPUS or place it at ../shared/corpus); skipping");
        return;
    };
    let mut program_mismatches = Vec::new();
    let mut signature_mismatches = Vec::new();
    let mut summary = Vec::new();
    let mut all = 0;
    for folder in FOLDERS {
        let pairs = listings(&corpus.join(folder));
        let (mut same_prog, mut same_sig) = (0, 0);
        for (asm_path, blob_path) in &pairs {
            let listing = std::fs::read_to_string(asm_path).unwrap();
            let bytes = std::fs::read(blob_path).unwrap_or_else(|e| panic!("{}: {e}", blob_path.display()));
            let shader = match Shader::parse(&bytes, &ReadOptions::default()) {
                Ok(s) => s,
                Err(e) => {
                    program_mismatches.push(Mismatch {
                        file: blob_path.display().to_string(),
                        line: 0,
                        expected: "a parsable blob".into(),
                        got: format!("error: {e}"),
                    });
                    continue;
                }
            };
            let text = disassemble(&shader.program);
            if compare_program(asm_path, &listing, &text, &mut program_mismatches) {
                same_prog += 1;
            }
            let a = compare_signature(
                asm_path,
                &listing,
                "Input signature",
                &shader.inputs,
                false,
                &mut signature_mismatches,
            );
            let b = compare_signature(
                asm_path,
                &listing,
                "Output signature",
                &shader.outputs,
                true,
                &mut signature_mismatches,
            );
            if a && b {
                same_sig += 1;
            }
        }
        all += pairs.len();
        summary.push(format!(
            "{folder}: program identical {same_prog}/{n}, signatures identical {same_sig}/{n}",
            n = pairs.len()
        ));
    }
    report("program", &program_mismatches);
    report("signature", &signature_mismatches);
    for s in &summary {
        eprintln!("{s}");
    }
    assert!(all > 0, "no listings found under {}", corpus.display());
    assert!(
        program_mismatches.is_empty() && signature_mismatches.is_empty(),
        "{} program and {} signature lines differ from fxc's listings",
        program_mismatches.len(),
        signature_mismatches.len()
    );
}

#[test]
fn tokens_normalise_only_what_is_allowed() {
    assert_eq!(tokens("mov r0.x, CB0[1].x"), tokens("mov  r0.x,cb0[1].x"));
    assert_eq!(tokens("l(0x0000FFFE)"), tokens("l(0x0000fffe)"));
    assert_eq!(tokens("l(1.0)"), tokens("l(1.000000)"));
    assert_ne!(tokens("l(1)"), tokens("l(1.000000)"));
    assert_ne!(tokens("mov r0.xy, r1.xyxx"), tokens("mov r0.xy, r1.xyyy"));
    assert_ne!(tokens("dcl_indexableTemp x0[4], 4"), tokens("dcl_indexabletemp x0[4], 4"));
    assert!(token_eq("18.851562", "18.851563"));
    assert!(token_eq("18.851563", "18.851562"));
    assert!(!token_eq("0.500001", "0.500002"));
    assert!(!token_eq("18.851562", "18.851564"));
    assert!(is_version_line("ps_4_0"));
    assert!(!is_version_line("    ps_2_0"));
}
