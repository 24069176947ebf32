//! `dxbc-wgsl qualify` and the refusal diagnostic of `dxbc-wgsl translate`: statuses, the JSON
//! report, headers and effect files, non-shader blobs, exit status and the summary line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sha2::{Digest as _, Sha256};

/// The tests crate's SM4 assembler for hand-written shaders, shared by path (depending on that
/// crate would build wgpu and the example engine for these tests).
#[path = "../../tests/src/asm.rs"]
#[allow(dead_code)]
mod asm;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxbc-wgsl")).args(args).output().unwrap()
}

fn directxtk() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/shaders/directxtk")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A DXBC container of the given chunks, with a correct checksum.
fn container(chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let chunks: Vec<([u8; 4], Vec<u8>)> = chunks.iter().map(|(f, d)| (**f, d.clone())).collect();
    dxbc_wgsl::container::assemble(&chunks)
}

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// gs_4_0 with an empty body: geometry shaders translate (as compute), but this one declares no
/// input primitive, and is refused for it.
fn geometry_shader() -> Vec<u8> {
    container(&[(b"SHDR", words(&[0x0002_0040, 2]))])
}

/// ps_5_0: `dcl_temps 1; dmov r0.xy, r0.xyxy; ret` — refused (float64) at instruction 1.
fn endless_loop_shader() -> Vec<u8> {
    // A loop with no exit: D3D would hang, WGSL rejects it; refused as a WebGPU limitation.
    let program = [
        0x50,
        7,
        0x0200_0068, // dcl_temps
        1,
        0x0100_0030, // loop
        0x0100_0016, // endloop
        0x0100_003E, // ret
    ];
    container(&[(b"SHEX", words(&program))])
}

/// A header holding two arrays.
fn header(arrays: &[(&str, &[u8])]) -> String {
    let mut text = String::from("// fxc /Fh output\n");
    for (name, bytes) in arrays {
        text.push_str(&format!("const BYTE {name}[] =\n{{\n"));
        for chunk in bytes.chunks(8) {
            let items: Vec<String> = chunk.iter().map(|b| format!("{b:3}")).collect();
            text.push_str(&format!("    {},\n", items.join(", ")));
        }
        text.push_str("};\n\n");
    }
    text
}

#[test]
fn directxtk_in_repo_all_qualify_and_effects_add_no_duplicates() {
    let dir = directxtk();
    let report = tempfile::tempdir().unwrap();
    let json = report.path().join("r.json");
    let effects = Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/effects");
    let r = run(&[
        "qualify",
        "--no-progress",
        "--json",
        json.to_str().unwrap(),
        dir.to_str().unwrap(),
        effects.to_str().unwrap(),
    ]);
    let out = stdout(&r);
    assert_eq!(r.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&r.stderr));
    // Every family folder's blobs (the LICENSE and README beside them are not shaders), and the
    // project's own blobs that the effect files name besides (`shaders/own/`, beside its README:
    // the point-sprite geometry shader).
    let directxtk_blobs: usize = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|family| std::fs::read_dir(family).unwrap().count())
        .sum();
    let own_blobs = std::fs::read_dir(dir.join("../own"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "dxbc"))
        .count();
    let blobs = directxtk_blobs + own_blobs;
    assert_eq!(out.lines().last(), Some(format!("qualified: {blobs}, unsupported: 0, failed: 0").as_str()), "{out}");

    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let records = v["records"].as_array().unwrap();
    assert_eq!(records.len(), blobs, "each shader once, though the effect files name them too");
    let paths: Vec<&str> = records.iter().map(|r| r["path"].as_str().unwrap()).collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted, "records in path order");
    for r in records {
        assert_eq!(r["status"], "qualified", "{r}");
        assert!(r["reason"].is_null() && r["refusal"].is_null() && r["tint"].is_null(), "{r}");
        let bytes = std::fs::read(r["path"].as_str().unwrap()).unwrap();
        assert_eq!(r["sha256"].as_str().unwrap(), hex::encode(Sha256::digest(&bytes)));
        assert_eq!(r["shader_model"], "4_0");
        let wgsl = dxbc_wgsl::translate(&bytes, &Default::default()).unwrap().wgsl;
        assert_eq!(r["wgsl_sha256"].as_str().unwrap(), hex::encode(Sha256::digest(wgsl.as_bytes())));
    }
    let stage =
        |name: &str| records.iter().find(|r| r["path"].as_str().unwrap().ends_with(name)).unwrap()["stage"].clone();
    assert_eq!(stage("BasicEffect_VSBasic.dxbc"), "vertex");
    assert_eq!(stage("BasicEffect_PSBasic.dxbc"), "pixel");
    assert_eq!(stage("PointSprite_GS.dxbc"), "geometry");
}

#[test]
fn statuses_headers_non_shaders_and_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let vs = std::fs::read(directxtk().join("BasicEffect/BasicEffect_VSBasic.dxbc")).unwrap();
    let ps = std::fs::read(directxtk().join("BasicEffect/BasicEffect_PSBasic.dxbc")).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("sub/shaders.h"), header(&[("g_VS", &vs), ("g_PS", &ps)])).unwrap();
    std::fs::write(dir.path().join("sub/plain.h"), "int x;\n").unwrap();
    std::fs::write(dir.path().join("gs.cso"), geometry_shader()).unwrap();
    std::fs::write(dir.path().join("endless_loop.dxbc"), endless_loop_shader()).unwrap();
    std::fs::write(dir.path().join("rootsig.dxbc"), container(&[(b"RTS0", words(&[2, 0, 0, 0, 0, 0]))])).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a shader, not looked at").unwrap();
    let json = dir.path().join("report.json");

    let r = run(&["qualify", "--json", json.to_str().unwrap(), dir.path().to_str().unwrap()]);
    let out = stdout(&r);
    assert_eq!(r.status.code(), Some(0), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"qualified: 2, unsupported: 2, failed: 0"), "{out}");
    assert!(lines.contains(&"(1 non-shader blobs skipped; 1 headers without BYTE arrays ignored)"), "{out}");
    assert!(out.contains("1  declaration_unsupported") && out.contains("1  webgpu_limitation"), "{out}");

    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["summary"]["skipped_not_a_shader"], 1);
    assert_eq!(v["refusal_histogram"]["webgpu_limitation"], 1);
    let records = v["records"].as_array().unwrap();
    let find = |suffix: &str| {
        records.iter().find(|r| r["path"].as_str().unwrap().ends_with(suffix)).unwrap_or_else(|| panic!("{suffix}"))
    };
    assert_eq!(records.len(), 5);

    let d = find("endless_loop.dxbc");
    assert_eq!(d["status"], "unsupported");
    assert_eq!(d["stage"], "pixel");
    assert_eq!(d["shader_model"], "5_0");
    assert_eq!(d["refusal"]["reason"], "webgpu_limitation");
    assert_eq!(d["refusal"]["instruction"], 1);
    assert_eq!(d["refusal"]["opcode"], "loop");
    assert_eq!(d["refusal"]["offset"], 0x2c + 16, "SHEX data starts at 0x2c; the loop is its fifth word");
    assert!(d["reason"].as_str().unwrap().starts_with("webgpu_limitation: "), "{d}");
    assert!(d["wgsl_sha256"].is_null());

    let g = find("gs.cso");
    assert_eq!((g["status"].as_str(), g["stage"].as_str()), (Some("unsupported"), Some("geometry")));
    assert_eq!(g["refusal"]["reason"], "declaration_unsupported");
    assert!(g["reason"].as_str().unwrap().contains("without dcl_inputprimitive"), "{g}");

    let vs_rec = find("shaders.h#g_VS");
    assert_eq!((vs_rec["status"].as_str(), vs_rec["stage"].as_str()), (Some("qualified"), Some("vertex")));
    assert_eq!(vs_rec["sha256"].as_str().unwrap(), hex::encode(Sha256::digest(&vs)));
    assert_eq!(find("shaders.h#g_PS")["stage"], "pixel");

    let rs = find("rootsig.dxbc");
    assert_eq!(rs["status"], "skipped-not-a-shader");
    assert_eq!(rs["kind"], "root signature");

    // An unreadable container is a failure: exit status 1, the summary stays the last line.
    std::fs::write(dir.path().join("junk.dxbc"), b"DXBC and then nothing sensible").unwrap();
    let r = run(&["qualify", dir.path().to_str().unwrap()]);
    let out = stdout(&r);
    assert_eq!(r.status.code(), Some(1), "{out}");
    assert_eq!(out.lines().last(), Some("qualified: 2, unsupported: 2, failed: 1"), "{out}");
    assert!(out.contains("junk.dxbc: not a shader: unreadable DXBC container"), "{out}");
    assert!(r.stderr.is_empty(), "no progress bar off a terminal: {}", String::from_utf8_lossy(&r.stderr));
}

#[test]
fn deterministic_report_and_missing_path() {
    let dir = directxtk();
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a.json"), t.path().join("b.json"));
    for out in [&a, &b] {
        let r = run(&["qualify", "--json", out.to_str().unwrap(), dir.to_str().unwrap()]);
        assert!(r.status.success());
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());

    let r = run(&["qualify", dir.to_str().unwrap(), "no/such/folder"]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(err.trim_end(), "error: no/such/folder: no such file or directory");
    assert!(r.stdout.is_empty(), "nothing is translated when a path is missing");
}

#[test]
fn translate_prints_the_refusal_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("endless_loop.dxbc");
    std::fs::write(&path, endless_loop_shader()).unwrap();
    let r = run(&["translate", path.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(r.stdout.is_empty());
    let err = String::from_utf8_lossy(&r.stderr);
    let expected =
        format!("{}: unsupported (webgpu_limitation) at instruction 1 (byte offset 0x3c) `loop`: ", path.display());
    assert!(err.starts_with(&expected), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A dangling symlink in a folder is skipped with a warning; the run still ends with its summary.
#[cfg(unix)]
#[test]
fn a_dangling_symlink_does_not_abort_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let blob = directxtk().join("BasicEffect/BasicEffect_PSBasic.dxbc");
    std::fs::copy(&blob, dir.path().join("ps.dxbc")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("missing.dxbc"), dir.path().join("dangling.dxbc")).unwrap();
    let o = run(&["qualify", "--no-progress", dir.path().to_str().unwrap()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.trim_end().ends_with("qualified: 1, unsupported: 0, failed: 0"), "{out}");
}

/// An effect file's `[view_formats]` apply to the shaders it references: GenerateMips' typed UAV
/// `u0` qualifies through the effect, and is refused when the blob is qualified alone.
#[test]
fn effect_view_formats_apply_to_its_shaders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let effect = root.join("tests/effects/generate_mips.effect.toml");
    let o = run(&["qualify", "--no-gpu", "--no-progress", effect.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.trim_end().ends_with("qualified: 1, unsupported: 0, failed: 0"), "{out}");
    let blob = root.join("tests/fixtures/directxtk12/GenerateMips/GenerateMips_main.dxbc");
    let o = run(&["qualify", "--no-gpu", "--no-progress", blob.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(out.trim_end().ends_with("qualified: 0, unsupported: 1, failed: 0"), "{out}");
}

/// Without `--json`, the output still names the shaders: after the histogram, one line per refused
/// or failed shader (status, path, refusal id and detail, or the error), sorted by path.
#[test]
fn the_refused_and_failed_shaders_are_listed_by_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("z")).unwrap();
    std::fs::copy(directxtk().join("BasicEffect/BasicEffect_PSBasic.dxbc"), dir.path().join("a_ps.dxbc")).unwrap();
    std::fs::write(dir.path().join("z/gs.cso"), geometry_shader()).unwrap();
    std::fs::write(dir.path().join("c_junk.dxbc"), b"DXBC and then nothing sensible").unwrap();
    std::fs::write(dir.path().join("b_loop.dxbc"), endless_loop_shader()).unwrap();
    let r = run(&["qualify", "--no-progress", dir.path().to_str().unwrap()]);
    let out = stdout(&r);
    assert_eq!(r.status.code(), Some(1), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let at = |line: &str| lines.iter().position(|l| *l == line).unwrap_or_else(|| panic!("no {line:?} in\n{out}"));
    let listed = at("unsupported and failed:");
    assert!(at("refusal reasons:") < listed, "the list follows the histogram:\n{out}");
    let path = |name: &str| dir.path().join(name).display().to_string();
    let list = &lines[listed + 1..listed + 4];
    assert!(list[0].starts_with(&format!("  unsupported  {}: webgpu_limitation: ", path("b_loop.dxbc"))), "{out}");
    assert!(list[1].starts_with(&format!("  failed       {}: not a shader: ", path("c_junk.dxbc"))), "{out}");
    assert!(list[2].starts_with(&format!("  unsupported  {}: declaration_unsupported: ", path("z/gs.cso"))), "{out}");
    assert!(!lines[listed + 4].starts_with("  "), "only those three:\n{out}");
    assert!(!out.contains("a_ps.dxbc"), "qualified shaders are not listed:\n{out}");
    assert_eq!(lines.last(), Some(&"qualified: 1, unsupported: 2, failed: 1"), "{out}");
}

/// A knowingly patched blob (a byte after the header flipped, so the checksum is wrong) fails by
/// default and qualifies with `--no-verify-checksum`, or through an effect file that says
/// `verify_checksum = false`.
#[test]
fn no_verify_checksum_qualifies_a_patched_blob() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(directxtk().join("BasicEffect/BasicEffect_PSBasic.dxbc")).unwrap();
    let first_chunk = u32::from_le_bytes(bytes[32..36].try_into().unwrap()) as usize;
    bytes[first_chunk + 8 + 16] ^= 0xff;
    let shaders = dir.path().join("shaders");
    std::fs::create_dir(&shaders).unwrap();
    std::fs::write(shaders.join("ps.dxbc"), bytes).unwrap();
    let shaders = shaders.to_str().unwrap();
    let r = run(&["qualify", "--no-progress", shaders]);
    let out = stdout(&r);
    assert_eq!(r.status.code(), Some(1), "{out}");
    assert!(out.contains("ps.dxbc: checksum mismatch"), "{out}");
    assert_eq!(out.lines().last(), Some("qualified: 0, unsupported: 0, failed: 1"), "{out}");
    let r = run(&["qualify", "--no-progress", "--no-verify-checksum", shaders]);
    let out = stdout(&r);
    assert!(r.status.success(), "{out}");
    assert_eq!(out.lines().last(), Some("qualified: 1, unsupported: 0, failed: 0"), "{out}");

    let effect = dir.path().join("ps.effect.toml");
    let text = "[effect]\nname = \"P\"\nshader_dir = \"shaders\"\nverify_checksum = false\n\
                [passes.main]\nvertex = \"vs.dxbc\"\npixel = \"ps.dxbc\"\n";
    std::fs::copy(directxtk().join("BasicEffect/BasicEffect_VSBasic.dxbc"), dir.path().join("shaders/vs.dxbc"))
        .unwrap();
    std::fs::write(&effect, text).unwrap();
    let r = run(&["qualify", "--no-progress", effect.to_str().unwrap()]);
    let out = stdout(&r);
    assert!(r.status.success(), "{out}");
    assert_eq!(out.lines().last(), Some("qualified: 2, unsupported: 0, failed: 0"), "{out}");
}

/// Two files whose names are not UTF-8 and differ only there (both shown as `a\u{fffd}.dxbc`)
/// are two records. Inputs were deduplicated by the name as shown, so one was silently dropped.
#[cfg(target_os = "linux")]
#[test]
fn files_whose_names_show_alike_are_two_records() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = tempfile::tempdir().unwrap();
    let shaders = directxtk().join("BasicEffect");
    for (byte, shader) in [(0xfe, "BasicEffect_VSBasic.dxbc"), (0xff, "BasicEffect_PSBasic.dxbc")] {
        let name = [b'a', byte, b'.', b'd', b'x', b'b', b'c'];
        std::fs::copy(shaders.join(shader), dir.path().join(std::ffi::OsStr::from_bytes(&name))).unwrap();
    }
    let report = dir.path().join("report.json");
    let out = run(&["qualify", "--no-progress", "--json", report.to_str().unwrap(), dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout(&out).ends_with("qualified: 2, unsupported: 0, failed: 0\n"), "{}", stdout(&out));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let stages: Vec<&str> = json["records"].as_array().unwrap().iter().map(|r| r["stage"].as_str().unwrap()).collect();
    assert_eq!(stages, ["vertex", "pixel"]);
}

/// A device that never ends, named as a shader or linked to as an effect file or a header, is
/// a failed input, read up to the inputs' limit: it was read until memory ran out.
#[cfg(target_os = "linux")]
#[test]
fn a_device_that_never_ends_is_a_failed_input() {
    let dir = tempfile::tempdir().unwrap();
    let (effect, header) = (dir.path().join("zero.effect.toml"), dir.path().join("zero.h"));
    std::os::unix::fs::symlink("/dev/zero", &effect).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &header).unwrap();
    for path in ["/dev/zero", effect.to_str().unwrap(), header.to_str().unwrap()] {
        let out = run(&["qualify", "--no-progress", path]);
        assert_eq!(out.status.code(), Some(1), "{path}: {}", stdout(&out));
        assert!(stdout(&out).contains("more than 268435456 bytes"), "{path}: {}", stdout(&out));
        assert!(stdout(&out).ends_with("failed: 1\n"), "{path}: {}", stdout(&out));
    }
    let out = run(&["effect", effect.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read effect file: more than 268435456 bytes"), "{err}");
}

/// `D3D_NAME_CULL_DISTANCE`.
const NAME_CULL_DISTANCE: u32 = 3;

/// gs_5_0, a point in, points out on each of `streams` (`dcl_stream`, an OSG5 signature with
/// SV_Position in o0 on each): one `emit_stream` per stream of the input point.
fn streams_gs(streams: &[u32]) -> Vec<u8> {
    use asm::*;
    let inputs = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw")];
    let mut outputs = Vec::new();
    let mut decls = vec![dcl_input_primitive(1)];
    for &s in streams {
        outputs.push((s, Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw")));
        decls.push(with_stream(DCL_STREAM, s));
        decls.push(dcl_output_topology(1));
        decls.push(dcl_output(0, "xyzw", NAME_POSITION));
    }
    decls.extend([dcl_max_output(streams.len() as u32), dcl_gs_input(1, 0, "xyzw", NAME_POSITION)]);
    let mut body = Vec::new();
    for &s in streams {
        body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src_vertex(0, 0, "xyzw")]));
        body.push(with_stream(EMIT_STREAM, s));
    }
    shader_streams(GS_5_0, &inputs, &outputs, &decls, 0, &body)
}

/// gs_4_0, a point in, one point out with SV_Position and SV_CullDistance: the plain
/// translation qualifies (a cull flag), the stream-output one is refused.
fn cull_distance_gs() -> Vec<u8> {
    use asm::*;
    let decls = [
        dcl_input_primitive(1),
        dcl_output_topology(1),
        dcl_max_output(1),
        dcl_gs_input(1, 0, "xyzw", NAME_POSITION),
        dcl_output(0, "xyzw", NAME_POSITION),
        dcl_output(1, "x", NAME_CULL_DISTANCE),
    ];
    let body = [
        ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src_vertex(0, 0, "xyzw")]),
        ins(MOV, &[dst(OUTPUT, 1, "x"), src_vertex(0, 0, "xxxx")]),
        bare(EMIT),
    ];
    let io = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw")];
    let outputs = [io[0], Element("SV_CullDistance", 0, NAME_CULL_DISTANCE, 3, 1, "x")];
    shader(GS_4_0, &io, &outputs, &decls, 0, &body)
}

/// gs_4_0 without dcl_outputtopology: it emits nothing, and has no stream-output form.
fn no_topology_gs() -> Vec<u8> {
    use asm::*;
    let decls = [dcl_input_primitive(1), dcl_max_output(1), dcl_gs_input(1, 0, "xyzw", NAME_POSITION)];
    let io = [Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw")];
    shader(GS_4_0, &io, &[], &decls, 0, &[])
}

fn sha(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// A geometry shader qualifies only if its stream-output translation (every declared stream
/// streamed out, stream 0 drawn when declared) validates too; the record gives that WGSL's
/// SHA-256 (`stream_output_wgsl_sha256`, absent for the other stages), and a refusal of the
/// stream-output form makes it `unsupported`, its reason after `stream output: `.
#[test]
fn geometry_shaders_qualify_with_their_stream_output_translation() {
    use dxbc_wgsl::geometry::GeometryStreams;
    use dxbc_wgsl::TranslateOptions;
    let dir = tempfile::tempdir().unwrap();
    let shaders = [
        ("cull.dxbc", cull_distance_gs()),
        ("no_topology.dxbc", no_topology_gs()),
        ("sm4.dxbc", asm::pass_through_gs(1, 1, 1, 2)),
        ("streams01.dxbc", streams_gs(&[0, 1])),
        ("streams1.dxbc", streams_gs(&[1])),
    ];
    for (name, bytes) in &shaders {
        // The plain translation of each qualifies: whatever else a record says comes of the
        // stream-output form.
        let t = dxbc_wgsl::translate(bytes, &TranslateOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(t.geometry.is_some(), "{name}");
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let vs = std::fs::read(directxtk().join("BasicEffect/BasicEffect_VSBasic.dxbc")).unwrap();
    std::fs::write(dir.path().join("vs.dxbc"), &vs).unwrap();
    let json = dir.path().join("r.json");
    let r = run(&["qualify", "--no-progress", "--json", json.to_str().unwrap(), dir.path().to_str().unwrap()]);
    let out = stdout(&r);
    assert_eq!(r.status.code(), Some(0), "{out}");
    assert_eq!(out.lines().last(), Some("qualified: 5, unsupported: 1, failed: 0"), "{out}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let records = v["records"].as_array().unwrap();
    let find = |suffix: &str| records.iter().find(|r| r["path"].as_str().unwrap().ends_with(suffix)).unwrap();
    let so_sha = |bytes: &[u8], rasterized, stream_out| {
        let options =
            TranslateOptions { geometry_streams: GeometryStreams { rasterized, stream_out }, ..Default::default() };
        sha(dxbc_wgsl::translate(bytes, &options).unwrap().wgsl.as_bytes())
    };

    // Refused with stream output: unsupported, the plain form's hash gone with it.
    let c = find("cull.dxbc");
    assert_eq!(c["status"], "unsupported", "{c}");
    assert_eq!(c["refusal"]["reason"], "system_value_unsupported", "{c}");
    let reason = c["reason"].as_str().unwrap();
    assert!(reason.starts_with("stream output: system_value_unsupported: SV_CullDistance"), "{reason}");
    assert!(c["refusal"]["detail"].as_str().unwrap().starts_with("stream output: SV_CullDistance"), "{c}");
    assert!(c["wgsl_sha256"].is_null() && c.get("stream_output_wgsl_sha256").is_none(), "{c}");
    assert!(out.contains("cull.dxbc: stream output: system_value_unsupported: "), "{out}");
    assert_eq!(v["refusal_histogram"]["system_value_unsupported"], 1);

    // Qualified: both hashes, the stream-output form's of the streams the shader declares.
    for (name, rasterized, stream_out) in
        [("sm4.dxbc", Some(0), 0b1), ("streams01.dxbc", Some(0), 0b11), ("streams1.dxbc", None, 0b10)]
    {
        let bytes = &shaders.iter().find(|(n, _)| *n == name).unwrap().1;
        let g = find(name);
        assert_eq!(g["status"], "qualified", "{g}");
        let plain = sha(dxbc_wgsl::translate(bytes, &TranslateOptions::default()).unwrap().wgsl.as_bytes());
        assert_eq!(g["wgsl_sha256"].as_str(), Some(plain.as_str()), "{g}");
        let so = so_sha(bytes, rasterized, stream_out);
        assert_eq!(g["stream_output_wgsl_sha256"].as_str(), Some(so.as_str()), "{name}: {g}");
        assert_ne!(so, plain, "{name}");
    }
    // No output topology, no stream-output form; nor for another stage.
    let n = find("no_topology.dxbc");
    assert_eq!(n["status"], "qualified", "{n}");
    assert!(n.get("stream_output_wgsl_sha256").is_none(), "{n}");
    let vs = find("vs.dxbc");
    assert_eq!(vs["status"], "qualified", "{vs}");
    assert!(vs.get("stream_output_wgsl_sha256").is_none(), "{vs}");
}
