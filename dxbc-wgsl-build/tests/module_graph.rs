//! The crate's top-level modules import each other without a circle: the graph of
//! `crate::<module>` references (and `super::` paths that leave a module) in `src/**/*.rs`, comments,
//! doc comments and string literals left out, is acyclic. A reference to an item the crate root
//! re-exports (`crate::Builder`) counts as one to the module that defines it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Where a reference was seen: file (relative to `src`) and line.
type At = (String, usize);

/// Top-level module → the modules it references, each with its first occurrence.
type Graph = BTreeMap<String, BTreeMap<String, At>>;

/// The source with comments and string/char literals blanked out (newlines kept, so lines still
/// count).
fn code_only(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let prev_ident = i > 0 && ident(c[i - 1]);
        // Line comment (`//`, `///`, `//!`).
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
            continue;
        }
        // Block comment, nested.
        if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            continue;
        }
        // Raw string: r"..", r#".."#, br#".."#.
        let raw_at = if !prev_ident && c[i] == 'r' {
            Some(i + 1)
        } else if !prev_ident && c[i] == 'b' && c.get(i + 1) == Some(&'r') {
            Some(i + 2)
        } else {
            None
        };
        if let Some(mut j) = raw_at {
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) == Some(&'"') {
                let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                let mut k = j + 1;
                while k < c.len() && !c[k..].starts_with(&close) {
                    k += 1;
                }
                let end = (k + close.len()).min(c.len());
                for &ch in &c[i..end] {
                    blank(&mut out, ch);
                }
                i = end;
                continue;
            }
        }
        // String (also b"..").
        if c[i] == '"' {
            blank(&mut out, c[i]);
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' && i + 1 < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                blank(&mut out, c[i]);
                i += 1;
            }
            if i < c.len() {
                blank(&mut out, c[i]);
                i += 1;
            }
            continue;
        }
        // Char literal ('x', '\n', '\u{..}'), not a lifetime ('a).
        if c[i] == '\'' {
            let end = if c.get(i + 1) == Some(&'\\') {
                (i + 2..c.len()).find(|&k| c[k] == '\'')
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            if let Some(end) = end {
                for &ch in &c[i..=end] {
                    blank(&mut out, ch);
                }
                i = end + 1;
                continue;
            }
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// Identifiers, `::` and single punctuation characters, each with its line.
fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(c[start..i].iter().collect()), line));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// The first segments of a use tree's items: `a::b` → `[a]`, `{a, b::c, d::{e}}` → `[a, b, d]`.
/// `toks` starts after the `::` that precedes the tree. `self` (the crate root itself) is left out.
fn first_segments(toks: &[(Tok, usize)]) -> Vec<(String, usize)> {
    let mut found = match toks.first() {
        Some((Tok::Ident(name), line)) => vec![(name.clone(), *line)],
        Some((Tok::Punct('{'), _)) => {
            let mut out = Vec::new();
            let mut depth = 0;
            let mut item_start = true;
            for (t, line) in toks {
                match t {
                    Tok::Punct('{') => {
                        depth += 1;
                        item_start = depth == 1;
                    }
                    Tok::Punct('}') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Tok::Punct(',') if depth == 1 => item_start = true,
                    Tok::Ident(name) if item_start && depth == 1 => {
                        out.push((name.clone(), *line));
                        item_start = false;
                    }
                    _ => item_start = false,
                }
            }
            out
        }
        _ => Vec::new(),
    };
    found.retain(|(name, _)| name != "self");
    found
}

/// The module path of a file under `src`: `compile.rs` → `[compile]`, `codegen/mod.rs` →
/// `[codegen]`, `effect/parse/render_states.rs` → `[effect, parse, render_states]`; `lib.rs` → `[]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The top-level modules a file's code names, each with the line of its first mention. `file`
/// is the file's module path; `modules` the crate's top-level modules; `reexports` the items the
/// crate root re-exports, by name, with their module.
fn references(
    code: &str,
    file: &[String],
    modules: &BTreeSet<String>,
    reexports: &BTreeMap<String, String>,
) -> Result<Vec<(String, usize)>, String> {
    let toks = tokens(code);
    let mut out = Vec::new();
    // Inline modules (`mod tests { .. }`): name and the brace depth inside them.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let resolve = |name: &str, line: usize| -> Result<String, String> {
        if modules.contains(name) {
            Ok(name.to_string())
        } else if let Some(m) = reexports.get(name) {
            Ok(m.clone())
        } else {
            Err(format!("line {line}: `crate::{name}` is neither a top-level module nor a re-export of lib.rs"))
        }
    };
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(kw) if kw == "mod" => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Punct('{'), _))) = (toks.get(i + 1), toks.get(i + 2)) {
                    inline.push((name.clone(), depth + 1));
                }
            }
            Tok::Ident(kw) if kw == "crate" && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Path) => {
                // `$crate` is a macro's, not this crate's path.
                let after_dollar = i > 0 && toks[i - 1].0 == Tok::Punct('$');
                if !after_dollar {
                    for (name, line) in first_segments(&toks[i + 2..]) {
                        out.push((resolve(&name, line)?, line));
                    }
                }
            }
            Tok::Ident(kw) if kw == "super" && !(i > 0 && toks[i - 1].0 == Tok::Path) => {
                // `super::super::x`: up one scope per `super` from the file's module and the inline
                // modules around the path.
                let mut k = i;
                let mut ups = 0;
                while matches!(&toks.get(k).map(|t| &t.0), Some(Tok::Ident(s)) if s == "super")
                    && toks.get(k + 1).map(|t| &t.0) == Some(&Tok::Path)
                {
                    ups += 1;
                    k += 2;
                }
                let mut scope: Vec<String> = file.to_vec();
                scope.extend(inline.iter().map(|(n, _)| n.clone()));
                if ups > 0 {
                    if ups < scope.len() {
                        scope.truncate(scope.len() - ups);
                        out.push((scope[0].clone(), toks[i].1));
                    } else if ups == scope.len() {
                        // The crate root: what follows names the module.
                        for (name, line) in first_segments(&toks[k..]) {
                            out.push((resolve(&name, line)?, line));
                        }
                    } else {
                        return Err(format!("line {}: `super::` above the crate root", toks[i].1));
                    }
                    i = k;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    Ok(out)
}

/// The items `lib.rs` re-exports (`pub use module::{A, B};`), by name, with their module: every
/// name in the use tree after the module.
fn reexports(lib: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let toks = tokens(&code_only(lib));
    let mut out = BTreeMap::new();
    for i in 0..toks.len().saturating_sub(2) {
        if let [(Tok::Ident(u), _), (Tok::Ident(m), _), (Tok::Path, _)] = &toks[i..i + 3] {
            if u == "use" && modules.contains(m) {
                for (t, _) in toks[i + 3..].iter().take_while(|(t, _)| *t != Tok::Punct(';')) {
                    if let Tok::Ident(name) = t {
                        out.insert(name.clone(), m.clone());
                    }
                }
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module graph of the crate whose sources are in `src` (file path relative to `src`, text).
fn graph(files: &[(PathBuf, String)]) -> Result<Graph, String> {
    let modules: BTreeSet<String> = files.iter().filter_map(|(p, _)| module_path(p).first().cloned()).collect();
    let lib = files.iter().find(|(p, _)| p == Path::new("lib.rs")).map(|(_, s)| s.as_str()).unwrap_or("");
    let reexports = reexports(lib, &modules);
    let mut g: Graph = modules.iter().map(|m| (m.clone(), BTreeMap::new())).collect();
    for (rel, src) in files {
        let file = module_path(rel);
        let Some(top) = file.first() else { continue };
        let refs =
            references(&code_only(src), &file, &modules, &reexports).map_err(|e| format!("{}: {e}", rel.display()))?;
        for (to, line) in refs {
            if &to != top {
                g.get_mut(top).unwrap().entry(to).or_insert((rel.display().to_string(), line));
            }
        }
    }
    Ok(g)
}

/// A cycle of the graph (its modules, the first repeated at the end), if it has one.
fn find_cycle(g: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(g: &Graph, n: &str, marks: &mut BTreeMap<String, Mark>, stack: &mut Vec<String>) -> Option<Vec<String>> {
        match marks.get(n) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = stack.iter().position(|s| s == n).unwrap();
                let mut cycle = stack[from..].to_vec();
                cycle.push(n.to_string());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(n.to_string(), Mark::Open);
        stack.push(n.to_string());
        for to in g.get(n).into_iter().flat_map(|e| e.keys()) {
            if let Some(c) = visit(g, to, marks, stack) {
                return Some(c);
            }
        }
        stack.pop();
        marks.insert(n.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    g.keys().find_map(|n| visit(g, n, &mut marks, &mut Vec::new()))
}

/// The cycle with the reference behind each step.
fn describe(g: &Graph, cycle: &[String]) -> String {
    cycle
        .windows(2)
        .map(|w| {
            let (file, line) = &g[&w[0]][&w[1]];
            format!("  {} -> {}   (src/{file}:{line})", w[0], w[1])
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn crate_sources() -> Vec<(PathBuf, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p.strip_prefix(&src).unwrap().to_path_buf(), text)
        })
        .collect()
}

#[test]
fn top_level_modules_form_no_import_circle() {
    let g = graph(&crate_sources()).unwrap_or_else(|e| panic!("{e}"));
    let edges: Vec<String> = g.iter().flat_map(|(from, to)| to.keys().map(move |t| format!("{from} -> {t}"))).collect();
    // The scanner sees the crate's layering (so an empty graph cannot pass).
    for expected in ["codegen -> plan", "plan -> compile", "compile -> reflect", "builder -> codegen"] {
        assert!(edges.iter().any(|e| e == expected), "no edge {expected} in:\n{}", edges.join("\n"));
    }
    if let Some(cycle) = find_cycle(&g) {
        panic!(
            "the modules of dxbc-wgsl-build import each other in a circle: {}\n{}",
            cycle.join(" -> "),
            describe(&g, &cycle)
        );
    }
}

/// The scanner itself: comments, doc comments and literals name nothing; use trees, `super::`
/// and re-exports resolve to top-level modules; a circle is found and printed.
#[test]
fn the_scanner_finds_references_and_circles() {
    let crate_with = |d: &str| -> Vec<(PathBuf, String)> {
        [
            ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod d;\npub use d::{Thing, Other};\n"),
            (
                "a/mod.rs",
                "//! [`crate::c`]\n/// crate::c::X\n/* crate::c /* nested */ crate::c */\n\
                 const S: &str = \"crate::c::y\";\nconst R: &str = r#\"crate::c \"quoted\"\"#;\n\
                 fn f<'a>(x: &'a u8) -> char { let _ = x; '\"' }\nuse crate::{b::B, self as _};\n",
            ),
            ("a/inner.rs", "use super::*;\nuse super::super::d::Y;\n"),
            ("b.rs", "pub(crate) struct B;\nfn g() -> crate::Thing { todo!() }\nmod tests { use super::B; }\n"),
            ("c.rs", "pub(super) fn h() {}\n"),
            ("d.rs", d),
        ]
        .into_iter()
        .map(|(p, s)| (PathBuf::from(p), s.to_string()))
        .collect()
    };
    let g = graph(&crate_with("pub struct Thing;\npub struct Other;\npub struct Y;\n")).unwrap();
    let out = |m: &str| g[m].keys().cloned().collect::<Vec<_>>();
    assert_eq!(out("a"), ["b", "d"]);
    assert_eq!(out("b"), ["d"]);
    assert!(out("c").is_empty() && out("d").is_empty());
    assert_eq!(find_cycle(&g), None);

    // A back edge d -> a closes a circle (through b, which also names d).
    let g = graph(&crate_with("pub struct Thing;\npub struct Other;\npub struct Y;\nuse crate::a;\n")).unwrap();
    let cycle = find_cycle(&g).expect("a circle");
    assert_eq!(cycle, ["a", "b", "d", "a"]);
    assert_eq!(describe(&g, &cycle), "  a -> b   (src/a/mod.rs:7)\n  b -> d   (src/b.rs:2)\n  d -> a   (src/d.rs:4)");

    let unknown = graph(&[(PathBuf::from("a.rs"), "use crate::nowhere;\n".to_string())]).unwrap_err();
    assert!(unknown.contains("crate::nowhere"), "{unknown}");
}
