//! The `dxbc-wgsl` binary: exit status and one-line errors.

use std::path::Path;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxbc-wgsl")).args(args).output().unwrap()
}

fn blob(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../example-engine/shaders/directxtk/BasicEffect")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn translate_writes_wgsl_or_fails_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("vs.wgsl");
    let r = run(&["translate", &blob("BasicEffect_VSBasic.dxbc"), "-o", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(std::fs::read_to_string(&out).unwrap().contains("@vertex"));

    let r = run(&["translate", "no/such/file.dxbc"]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: shader file not found: no/such/file.dxbc"), "{err}");

    // Not a container.
    let junk = dir.path().join("junk.dxbc");
    std::fs::write(&junk, [0u8, 1, 2, 3, 0xff]).unwrap();
    let r = run(&["translate", junk.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&r.stderr).lines().count(), 1);
}

#[test]
fn info_and_disasm() {
    let r = run(&["info", &blob("BasicEffect_PSBasicTx.dxbc")]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(String::from_utf8_lossy(&r.stdout).contains("SHDR"));
    let r = run(&["disasm", &blob("BasicEffect_PSBasicTx.dxbc")]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(String::from_utf8_lossy(&r.stdout).contains("sample"));
}

#[test]
fn effect_reports_permutations_or_the_first_error() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/effects/dual_texture.effect.toml");
    let r = run(&["effect", file.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(text.contains("4 permutations, 6 distinct shaders"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.effect.toml");
    std::fs::write(
        &bad,
        "[effect]\nname = \"B\"\n[axes]\nfog = \"bool\"\n[passes.main]\nvertex = \"VS{fgo:X}.dxbc\"\n",
    )
    .unwrap();
    let r = run(&["effect", bad.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("bad.effect.toml:6:14: `{fgo:X}`: no axis named `fgo`"), "{err}");
}

#[test]
fn usage_errors_are_one_line_with_status_1() {
    let r = run(&["translate"]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error:"), "{err}");
    assert!(run(&["--help"]).status.success());
}

/// The RDEF container writer the build crate's reflection tests use.
#[path = "../../dxbc-wgsl-build/tests/common/rdef.rs"]
mod rdef;

/// `layouts`: the packing-rule layout with the verdict, the Rust struct with `--rust`; exit 1 when
/// the reflection's offsets are not the packing rules'.
#[test]
fn layouts_print_the_packed_layout_and_the_verdict() {
    use rdef::{float, matrix, strukt, var, Cbuffer};
    let dir = tempfile::tempdir().unwrap();
    let cb = |m_offset| Cbuffer {
        name: "$Globals".into(),
        slot: 0,
        size: 80,
        vars: vec![
            var("s", 0, 12, strukt(vec![("a", 0, float(2, 0)), ("b", 8, float(1, 0))], 0)),
            var("f", 12, 4, float(1, 0)),
            var("m", m_offset, 64, matrix(4, 4, true, 0)),
        ],
    };
    let good = dir.path().join("good.dxbc");
    std::fs::write(&good, rdef::container(&[cb(16)])).unwrap();
    let r = run(&["layouts", "--rust", good.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{text}");
    assert!(text.contains("cbuffer $Globals (b0, 80 bytes): the packing rules agree with the compiler's offsets"));
    assert!(text.contains("c0.w         4  float                        f"), "{text}");
    assert!(text.contains("c1          64  row_major float4x4           m"), "{text}");
    assert!(text.contains("pub struct Globals {") && text.contains("pub s: GlobalsSUnpadded,"), "{text}");

    let bad = dir.path().join("bad.dxbc");
    std::fs::write(&bad, rdef::container(&[Cbuffer { size: 96, ..cb(32) }])).unwrap();
    let r = run(&["layouts", bad.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(
        text.contains("`m`: float4x4: the packing rules put it at c1 (byte 16), the compiler at c2 (byte 32)"),
        "{text}"
    );
    // The table shows the compiler's offset, and the rules' beside it where they differ.
    assert!(text.contains("c2          64  row_major float4x4           m (rules: c1)"), "{text}");
}

/// `translate --symbol` reads one array of an fxc `/Fh` header and translates it exactly as the
/// raw blob (the header reader itself is tested in dxbc-wgsl-build's `fxc_header.rs`).
#[test]
fn translate_reads_a_header_array_by_symbol() {
    let blobs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/shaders/directxtk/BasicEffect");
    let vs = std::fs::read(blobs.join("BasicEffect_VSBasicTx.dxbc")).unwrap();
    let ps = std::fs::read(blobs.join("BasicEffect_PSBasicTx.dxbc")).unwrap();
    let array = |name: &str, bytes: &[u8]| {
        let cells: Vec<String> = bytes.iter().map(|b| b.to_string()).collect();
        format!("const BYTE {name}[] =\n{{\n    {}\n}};\n", cells.join(", "))
    };
    let dir = tempfile::tempdir().unwrap();
    let header = dir.path().join("basic.h");
    std::fs::write(&header, array("g_vs", &vs) + &array("g_ps", &ps)).unwrap();
    let from_header = run(&["translate", header.to_str().unwrap(), "--symbol", "g_vs"]);
    assert!(from_header.status.success(), "{}", String::from_utf8_lossy(&from_header.stderr));
    let from_blob = run(&["translate", blobs.join("BasicEffect_VSBasicTx.dxbc").to_str().unwrap()]);
    assert!(from_blob.status.success());
    assert!(!from_blob.stdout.is_empty());
    assert_eq!(from_header.stdout, from_blob.stdout);
    // Two arrays and no symbol: ambiguous, and the error names both.
    let ambiguous = run(&["translate", header.to_str().unwrap()]);
    assert!(!ambiguous.status.success());
    let err = String::from_utf8_lossy(&ambiguous.stderr);
    assert!(err.contains("g_vs") && err.contains("g_ps"), "{err}");
}

/// A copy of a DirectXTK blob with one byte of its first chunk (`Aon9`, the level 9 program the
/// translator does not read) flipped: the checksum no longer matches.
fn patched(name: &str) -> Vec<u8> {
    let mut bytes = std::fs::read(blob(name)).unwrap();
    let first_chunk = u32::from_le_bytes(bytes[32..36].try_into().unwrap()) as usize;
    bytes[first_chunk + 8 + 16] ^= 0xff;
    bytes
}

/// A knowingly patched blob: refused by default (one line naming the mismatch), read with
/// `--no-verify-checksum` by every command that reads a blob.
#[test]
fn no_verify_checksum_reads_a_patched_blob() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vs.dxbc");
    std::fs::write(&file, patched("BasicEffect_VSBasic.dxbc")).unwrap();
    let file = file.to_str().unwrap();
    for command in ["translate", "disasm"] {
        let r = run(&[command, file]);
        assert_eq!(r.status.code(), Some(1), "{command}");
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && err.contains("checksum mismatch"), "{command}: {err}");
        let r = run(&[command, "--no-verify-checksum", file]);
        assert!(r.status.success(), "{command}: {}", String::from_utf8_lossy(&r.stderr));
    }
    let r = run(&["translate", "--no-verify-checksum", file]);
    let original = run(&["translate", &blob("BasicEffect_VSBasic.dxbc")]);
    assert_eq!(r.stdout, original.stdout, "the flipped byte is not in the program");

    let r = run(&["layouts", file]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stdout).contains("checksum mismatch"));
    let r = run(&["layouts", "--no-verify-checksum", file]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stdout));
    assert!(String::from_utf8_lossy(&r.stdout).contains("no reflection (RDEF)"));

    // `effect --no-verify-checksum`: the effect file's `verify_checksum = false` for one run.
    let shaders = dir.path().join("shaders");
    std::fs::create_dir(&shaders).unwrap();
    let blobs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/shaders/directxtk/DualTextureEffect");
    for entry in std::fs::read_dir(&blobs).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, shaders.join(path.file_name().unwrap())).unwrap();
    }
    let ps = shaders.join("DualTextureEffect_PSDualTexture.dxbc");
    let mut bytes = std::fs::read(&ps).unwrap();
    let first_chunk = u32::from_le_bytes(bytes[32..36].try_into().unwrap()) as usize;
    bytes[first_chunk + 8 + 16] ^= 0xff;
    std::fs::write(&ps, bytes).unwrap();
    let effect = Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/effects/dual_texture.effect.toml");
    let text = std::fs::read_to_string(effect)
        .unwrap()
        .replace("shader_dir = \"../shaders/directxtk/DualTextureEffect\"", "shader_dir = \"shaders\"");
    let effect = dir.path().join("dual_texture.effect.toml");
    std::fs::write(&effect, text).unwrap();
    let r = run(&["effect", effect.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("DualTextureEffect_PSDualTexture.dxbc") && err.contains("checksum mismatch"), "{err}");
    let r = run(&["effect", "--no-verify-checksum", effect.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(String::from_utf8_lossy(&r.stdout).contains("4 permutations, 6 distinct shaders"));
}

/// `-o /dev/stdout` writes through the process's standard output, wherever the shell sends it:
/// into a redirected file between what the shell writes before and after (the output was
/// renamed over the redirection target, so the shell's later writes went to a deleted file and
/// `>>` replaced the whole file), and appended with `>>`.
#[cfg(target_os = "linux")]
#[test]
fn translate_to_dev_stdout_writes_through_the_redirection() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.txt");
    let bin = env!("CARGO_BIN_EXE_dxbc-wgsl");
    let vs = blob("BasicEffect_VSBasic.dxbc");
    let sh = |script: &str| {
        let r = Command::new("sh").arg("-c").arg(script).arg("sh").arg(bin).arg(&vs).arg(&file).output().unwrap();
        assert!(r.status.success(), "{script}: {}", String::from_utf8_lossy(&r.stderr));
        std::fs::read_to_string(&file).unwrap()
    };
    let text = sh(r#"{ echo BEFORE; "$1" translate "$2" -o /dev/stdout; echo AFTER; } > "$3""#);
    assert!(text.starts_with("BEFORE\n") && text.ends_with("}\nAFTER\n"), "{text}");
    assert!(text.contains("@vertex"), "{text}");
    let appended = sh(r#""$1" translate "$2" -o /dev/stdout >> "$3""#);
    assert!(appended.starts_with(&text) && appended.len() > text.len(), "{appended}");
}

/// `dxbc-wgsl` alone prints its usage (the commands), exit status 1.
#[test]
fn no_arguments_print_the_usage() {
    let r = run(&[]);
    assert_eq!(r.status.code(), Some(1));
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(out.contains("Usage: dxbc-wgsl <COMMAND>"), "{out}");
    assert!(out.contains("translate") && out.contains("qualify") && out.contains("watch"), "{out}");
}

/// DualTextureEffect's blobs and its effect file copied into `dir` beside each other, with
/// `shader_dir = "."`; returns the effect file's name.
fn dual_texture_beside_its_blobs(dir: &Path) -> &'static str {
    let blobs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/shaders/directxtk/DualTextureEffect");
    for entry in std::fs::read_dir(&blobs).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let effect = Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/effects/dual_texture.effect.toml");
    let text = std::fs::read_to_string(effect)
        .unwrap()
        .replace("shader_dir = \"../shaders/directxtk/DualTextureEffect\"", "shader_dir = \".\"");
    assert!(text.contains("shader_dir = \".\""));
    std::fs::write(dir.join("e.effect.toml"), text).unwrap();
    "e.effect.toml"
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxbc-wgsl")).args(args).current_dir(dir).output().unwrap()
}

/// An effect file given by a bare relative name with `shader_dir = "."` finds its shaders (the
/// folder was the empty path: `shader_dir: no folder`).
#[test]
fn shader_dir_dot_beside_an_effect_named_without_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let effect = dual_texture_beside_its_blobs(dir.path());
    let r = run_in(dir.path(), &["effect", effect]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(String::from_utf8_lossy(&r.stdout).contains("4 permutations, 6 distinct shaders"));
}

/// A missing effect file: one line without a position (`:1:1` pointed into a file that is not there).
#[test]
fn a_missing_effect_file_has_no_position() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_in(dir.path(), &["effect", "missing.effect.toml"]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.starts_with("error: missing.effect.toml: cannot read effect file: "), "{err}");
    assert!(!err.contains(":1:1"), "{err}");
}

/// A text file named `.dxbc` is not a DXBC container (it was read as an fxc header: "no `BYTE
/// name[]` array").
#[test]
fn a_text_file_named_dxbc_is_not_a_container() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notes.dxbc");
    std::fs::write(&file, "some notes, not a shader\n").unwrap();
    for command in ["translate", "info", "disasm"] {
        let r = run(&[command, file.to_str().unwrap()]);
        assert_eq!(r.status.code(), Some(1), "{command}");
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("notes.dxbc is not a DXBC container (it does not start with `DXBC`"), "{command}: {err}");
        assert!(!err.contains("BYTE"), "{err}");
    }
}

/// `watch --no-verify-checksum` reads a knowingly patched blob (the checksum failure suggests the
/// option; `watch` did not accept it).
#[test]
fn watch_accepts_no_verify_checksum() {
    use std::io::{BufRead as _, BufReader};
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("vs.dxbc"), patched("BasicEffect_VSBasic.dxbc")).unwrap();
    let ready = |extra: &[&str]| -> String {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dxbc-wgsl"))
            .arg("watch")
            .args(extra)
            .arg(dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = Vec::new();
        for line in BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            let done = line.starts_with("ready:");
            lines.push(line);
            if done {
                break;
            }
        }
        child.kill().unwrap();
        let _ = child.wait();
        lines.join("\n")
    };
    let refused = ready(&[]);
    assert!(refused.contains("checksum mismatch") && refused.contains("--no-verify-checksum"), "{refused}");
    assert!(refused.contains("1 shaders, 0 qualified"), "{refused}");
    let read = ready(&["--no-verify-checksum"]);
    assert!(read.contains("1 shaders, 1 qualified"), "{read}");
    assert!(!read.contains("checksum mismatch"), "{read}");
}

/// `bench-watch EFFECT` outside this repository, on an effect that is not BasicEffect: the input
/// edited and its alternative come from the effect.
#[test]
fn bench_watch_derives_its_inputs_from_the_effect() {
    let dir = tempfile::tempdir().unwrap();
    let effect = dual_texture_beside_its_blobs(dir.path());
    let r = run_in(dir.path(), &["bench-watch", effect, "--no-gpu", "--edits", "2", "--warmup", "0"]);
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{out}{}", String::from_utf8_lossy(&r.stderr));
    assert!(
        out.starts_with(
            "bench-watch: 2 edits of DualTextureEffect_VSDualTexture.dxbc (alternating with \
             DualTextureEffect_VSDualTextureVc.dxbc)"
        ),
        "{out}"
    );
    assert!(out.contains("2 edits: 1.0 permutations validated"), "{out}");
    // Given, they are used as given.
    let r = run_in(
        dir.path(),
        &[
            "bench-watch",
            effect,
            "--no-gpu",
            "--edits",
            "2",
            "--warmup",
            "0",
            "--blob",
            "DualTextureEffect_VSDualTextureVc.dxbc",
            "--alternative",
            "DualTextureEffect_VSDualTexture.dxbc",
        ],
    );
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{out}{}", String::from_utf8_lossy(&r.stderr));
    assert!(out.starts_with("bench-watch: 2 edits of DualTextureEffect_VSDualTextureVc.dxbc"), "{out}");
}

/// `qualify`'s refusal for a typed UAV without a format says how the command line gives one.
#[test]
fn qualify_hints_name_the_command_line_option() {
    let blob =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/directxtk12/GenerateMips/GenerateMips_main.dxbc");
    let r = run(&["qualify", "--no-progress", blob.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{out}");
    assert!(out.contains("typed_uav_format_unknown: typed UAV u0"), "{out}");
    assert!(out.contains("give it with `--view-format u0=FORMAT`, an effect file's [view_formats]"), "{out}");
}

/// `qualify --tint` says in its text output that Tint ran (skipped without Tint's packages, or
/// with `DXBC_WGSL_SKIP_TINT` set).
#[test]
fn qualify_tint_says_that_tint_ran() {
    if std::env::var_os("DXBC_WGSL_SKIP_TINT").is_some() {
        eprintln!("SKIPPED: DXBC_WGSL_SKIP_TINT is set");
        return;
    }
    if let Err(e) = dxbc_wgsl_cli::tint::available() {
        panic!("{e} (set DXBC_WGSL_SKIP_TINT=1 to skip explicitly)");
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/shaders/directxtk/DualTextureEffect");
    let r = run(&["qualify", "--no-progress", "--tint", dir.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{out}{}", String::from_utf8_lossy(&r.stderr));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[lines.len() - 2],
        "tint: 6 of 6 naga-valid modules accepted by Tint (Chrome's WGSL compiler)",
        "{out}"
    );
}
