//! `dxbc-wgsl tessellate` against the output of Microsoft's reference tessellator for the 416
//! cases of `../shared/tessellator-reference` (or `$DXBC_WGSL_TESSELLATOR_REFERENCE`): point
//! sets equal bit for bit, triangles equal up to rotation (never reflection), lines as given.
//! Skips with a message when the reference is absent.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn reference_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DXBC_WGSL_TESSELLATOR_REFERENCE") {
        let p = PathBuf::from(p);
        if p.is_dir() {
            return Some(p);
        }
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tessellator-reference");
    p.is_dir().then_some(p)
}

fn tessellate(stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dxbc-wgsl"))
        .arg("tessellate")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_owned();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out
}

type Point = (String, String);

fn points(v: &Value) -> Vec<Point> {
    v["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().to_owned(), p[1].as_str().unwrap().to_owned()))
        .collect()
}

fn indices(v: &Value) -> Vec<usize> {
    v["indices"].as_array().unwrap().iter().map(|i| i.as_u64().unwrap() as usize).collect()
}

/// The primitives of a result as point values, each triangle rotated to start at its least
/// point (rotation keeps the winding), as a multiset.
fn primitives(v: &Value) -> Result<BTreeMap<Vec<Point>, usize>, String> {
    let pts = points(v);
    let per = match v["output"].as_str().unwrap() {
        "point" => 1,
        "line" => 2,
        _ if v["domain"] == "isoline" => 2,
        _ => 3,
    };
    let idx = indices(v);
    if !idx.len().is_multiple_of(per) {
        return Err(format!("{} indices, not a multiple of {per}", idx.len()));
    }
    if let Some(i) = idx.iter().find(|&&i| i >= pts.len()) {
        return Err(format!("index {i} past the {} points", pts.len()));
    }
    let mut set = BTreeMap::new();
    for prim in idx.chunks(per) {
        let mut p: Vec<Point> = prim.iter().map(|&i| pts[i].clone()).collect();
        if per == 3 {
            let first = (0..3).min_by_key(|&k| p[k].clone()).unwrap();
            p.rotate_left(first);
        }
        *set.entry(p).or_insert(0) += 1;
    }
    Ok(set)
}

/// Differences between an expected and an actual result, as the issue defines equality.
fn compare(expected: &Value, got: &Value) -> Result<(), String> {
    for key in ["domain", "partitioning", "output", "factors"] {
        if expected[key] != got[key] {
            return Err(format!("{key}: expected {}, got {}", expected[key], got[key]));
        }
    }
    let (mut e, mut g) = (points(expected), points(got));
    e.sort();
    g.sort();
    if e != g {
        return Err(format!("point sets differ: expected {} points, got {}", e.len(), g.len()));
    }
    let (e, g) = (primitives(expected)?, primitives(got)?);
    if e != g {
        let missing = e.keys().find(|k| g.get(*k) != e.get(*k));
        return Err(format!(
            "primitives differ ({} expected, {} got); first expected one not matched: {missing:?}",
            e.values().sum::<usize>(),
            g.values().sum::<usize>()
        ));
    }
    Ok(())
}

#[test]
fn reference_cases_match() {
    let Some(dir) = reference_dir() else {
        eprintln!(
            "skipped: no tessellator reference (../shared/tessellator-reference or \
             $DXBC_WGSL_TESSELLATOR_REFERENCE)"
        );
        return;
    };
    let cases = std::fs::read_to_string(dir.join("cases.txt")).unwrap();
    let expected = std::fs::read_to_string(dir.join("expected.jsonl")).unwrap();
    let out = tessellate(&cases);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = String::from_utf8(out.stdout).unwrap();
    let (case_lines, expected_lines): (Vec<_>, Vec<_>) = (cases.lines().collect(), expected.lines().collect());
    let got_lines: Vec<_> = got.lines().collect();
    assert_eq!(got_lines.len(), expected_lines.len());
    assert_eq!(case_lines.len(), 416);
    let mut failures = Vec::new();
    let mut identical = 0;
    for (i, (e, g)) in expected_lines.iter().zip(&got_lines).enumerate() {
        let (ev, gv): (Value, Value) = (serde_json::from_str(e).unwrap(), serde_json::from_str(g).unwrap());
        let keys: Vec<_> = gv.as_object().unwrap().keys().collect();
        let expected_keys: Vec<_> = ev.as_object().unwrap().keys().collect();
        assert_eq!(keys, expected_keys, "line {}: keys", i + 1);
        identical += usize::from(ev == gv);
        if let Err(why) = compare(&ev, &gv) {
            failures.push(format!("case {} `{}`: {why}", i + 1, case_lines[i]));
        }
    }
    eprintln!("tessellate: {} of {} cases match ({identical} identical, order included)", 416 - failures.len(), 416);
    assert!(failures.is_empty(), "{} of 416 cases differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn malformed_lines_are_errors_at_line_and_column() {
    let cases = [
        ("tri integer point 1 1 1 1\nquad integer point 1 2 x 1 1 1\n", "<stdin>:2:24: `x` is not a number"),
        ("tri integer point 1 1 1\n", "<stdin>:1:24: expected 4 factors for a tri patch, found 3"),
        ("tri integer point 1 1 1 1 1\n", "<stdin>:1:27: unexpected `1`: a tri patch has 4 factors"),
        ("\nhex integer point 1 1\n", "<stdin>:2:1: unknown domain `hex`"),
        ("isoline odd line 1 1\n", "<stdin>:1:9: unknown partitioning `odd`"),
        ("isoline pow2 lines 1 1\n", "<stdin>:1:14: unknown output primitive `lines`"),
    ];
    for (input, message) in cases {
        let out = tessellate(input);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{input:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("error: {message}")), "{input:?}: {err}");
    }
    let out = tessellate("# a comment\n\nisoline integer line 1 2\n");
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        line.trim_end(),
        r#"{"domain":"isoline","partitioning":"integer","output":"line","factors":["3f800000","40000000"],"points":[["00000000","00000000"],["3f000000","00000000"],["3f800000","00000000"]],"indices":[0,1,1,2]}"#
    );
}
