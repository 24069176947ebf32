//! What a build script (`Builder`) reports for inputs it cannot use: the effect file or one of
//! its shader inputs missing, unreadable (a folder in its place), not UTF-8, larger than the
//! input bound, or truncated (cut short on disk, or a pipe that ends half-way while it is read).
//! Each is a diagnostic naming the file and the reason — what `cargo::error=` prints — never a
//! panic, a hang or an unbounded read. (The macro's side: `dxbc-wgsl-macros`' unit tests.)

use std::path::{Path, PathBuf};

use dxbc_wgsl_build::input::MAX_INPUT_BYTES;
use dxbc_wgsl_build::{BuildError, Builder};

const VERTEX_BLOB: &str = "DualTextureEffect_VSDualTexture.dxbc";

/// DualTextureEffect copied into `dir` (blobs in `dir/shaders`), real blobs and translator.
fn dual_texture(dir: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::create_dir_all(dir.join("shaders")).unwrap();
    for entry in std::fs::read_dir(root.join("example-engine/shaders/directxtk/DualTextureEffect")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join("shaders").join(path.file_name().unwrap())).unwrap();
    }
    let text = std::fs::read_to_string(root.join("example-engine/effects/dual_texture.effect.toml")).unwrap();
    let text = text.replace("shader_dir = \"../shaders/directxtk/DualTextureEffect\"", "shader_dir = \"shaders\"");
    let effect = dir.join("dual_texture.effect.toml");
    std::fs::write(&effect, text).unwrap();
    effect
}

/// Builds `dir/dual_texture.effect.toml`; the error's text (as `cargo::error=` lines show it).
fn build_error(dir: &Path) -> String {
    let err = Builder::new()
        .effect("dual_texture.effect.toml")
        .base_dir(dir)
        .out_dir(dir.join("out"))
        .cargo_output(false)
        .build()
        .expect_err("the build must fail");
    let BuildError::Effect(d) = &err else { panic!("not a diagnostic: {err}") };
    assert!(d.first().is_some());
    err.to_string()
}

fn assert_names(what: &str, error: &str, file: &str, reason: &str) {
    assert!(error.contains(file), "{what}: `{error}` does not name {file}");
    assert!(error.contains(reason), "{what}: `{error}` does not say `{reason}`");
}

#[test]
fn the_effect_file_missing_unreadable_not_utf8_or_huge() {
    let dir = tempfile::tempdir().unwrap();
    let effect = dual_texture(dir.path());
    std::fs::remove_file(&effect).unwrap();
    let e = build_error(dir.path());
    assert_names("missing", &e, "dual_texture.effect.toml", "cannot read effect file");
    // About the whole file: no position (not `:1:1:`).
    assert!(e.contains("dual_texture.effect.toml: cannot read effect file"), "{e}");

    std::fs::create_dir(&effect).unwrap();
    assert_names("a folder", &build_error(dir.path()), "dual_texture.effect.toml", "cannot read effect file");
    std::fs::remove_dir(&effect).unwrap();

    std::fs::write(&effect, b"[effect]\nname = \"Dual\xff\xfe\"\n").unwrap();
    assert_names("not UTF-8", &build_error(dir.path()), "dual_texture.effect.toml", "valid UTF-8");

    // Past the bound (sparse: no disk or memory spent).
    let f = std::fs::File::create(&effect).unwrap();
    f.set_len(MAX_INPUT_BYTES + 1).unwrap();
    drop(f);
    assert_names("huge", &build_error(dir.path()), "dual_texture.effect.toml", "more than");
}

#[test]
fn the_effect_file_truncated_while_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let effect = dual_texture(dir.path());
    let text = std::fs::read(&effect).unwrap();
    std::fs::remove_file(&effect).unwrap();
    // A pipe whose writer gives up half-way (inside the first `[passes...]` table).
    let fifo = std::process::Command::new("mkfifo").arg(&effect).status().expect("mkfifo");
    assert!(fifo.success());
    let cut = String::from_utf8_lossy(&text).find("[passes").unwrap() + 9;
    let writer = std::thread::spawn({
        let effect = effect.clone();
        move || {
            use std::io::Write as _;
            let mut pipe = std::fs::OpenOptions::new().write(true).open(&effect).unwrap();
            pipe.write_all(&text[..cut]).unwrap();
        }
    });
    let error = build_error(dir.path());
    writer.join().unwrap();
    // file:line:column of the cut.
    assert!(error.contains("dual_texture.effect.toml:"), "{error}");
}

#[test]
fn a_shader_input_missing_unreadable_huge_or_truncated() {
    let dir = tempfile::tempdir().unwrap();
    dual_texture(dir.path());
    let blob = dir.path().join("shaders").join(VERTEX_BLOB);
    let bytes = std::fs::read(&blob).unwrap();

    std::fs::remove_file(&blob).unwrap();
    assert_names("missing", &build_error(dir.path()), VERTEX_BLOB, "shader file not found");

    std::fs::create_dir(&blob).unwrap();
    assert_names("a folder", &build_error(dir.path()), VERTEX_BLOB, "not a regular file");
    std::fs::remove_dir(&blob).unwrap();

    let f = std::fs::File::create(&blob).unwrap();
    f.set_len(MAX_INPUT_BYTES + 1).unwrap();
    drop(f);
    assert_names("huge", &build_error(dir.path()), VERTEX_BLOB, "limited to");

    // Cut short on disk: half the container.
    std::fs::write(&blob, &bytes[..bytes.len() / 2]).unwrap();
    let error = build_error(dir.path());
    assert!(error.contains(VERTEX_BLOB), "{error}");
    assert!(error.contains("past the end") || error.contains("truncated") || error.contains("size"), "{error}");

    // Not a container (a `.dxbc` file is never read as a header): binary or text alike.
    std::fs::write(&blob, [0xffu8, 0xfe, 0, 1, 2, 3]).unwrap();
    assert_names("binary garbage", &build_error(dir.path()), VERTEX_BLOB, "is not a DXBC container");
    std::fs::write(&blob, "some notes, not a shader\n").unwrap();
    let e = build_error(dir.path());
    assert_names("a text file", &e, VERTEX_BLOB, "is not a DXBC container (it does not start with `DXBC`");
    assert!(!e.contains("BYTE"), "not read as a header: {e}");
}
