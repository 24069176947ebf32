//! What the fuzz targets share: wrapping program words in a container, translation that treats
//! an internal error as a crash, the effect compiler on text, and the structure-aware program
//! generator ([`generate`]).

pub mod generate;

use std::path::PathBuf;

/// A container holding `program` (a program chunk's bytes, any length) as chunk `fourcc`
/// (`SHDR` or `SHEX`) beside empty input and output signatures, with a correct checksum.
pub fn container_with_program(fourcc: &[u8; 4], program: &[u8]) -> Vec<u8> {
    let empty_signature = vec![0u8, 0, 0, 0, 8, 0, 0, 0];
    dxbc_wgsl::container::assemble(&[
        (*b"ISGN", empty_signature.clone()),
        (*b"OSGN", empty_signature),
        (*fourcc, program.to_vec()),
    ])
}

/// Translates `container` (checksum not verified) with the default options and, for a pixel
/// shader, also as the pixel shader behind a geometry shader.
///
/// # Panics
/// On [`dxbc_wgsl::TranslateError::Internal`]: the translator produced invalid WGSL or hit an
/// internal error, which is a bug (`failed`), never a refusal.
pub fn translate_checked(container: &[u8]) {
    let read = dxbc_wgsl::ReadOptions { verify_checksum: false };
    let Ok(shader) = dxbc_wgsl::Shader::parse(container, &read) else {
        return;
    };
    let mut options = dxbc_wgsl::TranslateOptions { skip_checksum: true, ..Default::default() };
    // A texel format for a typed UAV u0 (the bytecode does not say it; effect files do).
    options.set_view_format("u0=rgba8unorm").expect("a storage texel format");
    check(dxbc_wgsl::translate_shader(&shader, &options));
    if shader.program.version.stage == dxbc_wgsl::ShaderStage::Pixel {
        let behind = dxbc_wgsl::TranslateOptions { behind_geometry: true, ..options };
        check(dxbc_wgsl::translate_shader(&shader, &behind));
    }
}

fn check(result: Result<dxbc_wgsl::Translation, dxbc_wgsl::TranslateError>) {
    if let Err(dxbc_wgsl::TranslateError::Internal(message)) = result {
        panic!("internal error (a `failed` shader): {message}");
    }
}

/// Where the fuzzed effect file pretends to live: example-engine/effects/, so its shader paths
/// can name the DirectXTK blobs of example-engine/shaders/.
fn effect_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../example-engine/effects/fuzzed.effect.toml")
}

/// Parses `text` as an effect file, compiles it (translating its shaders) and prints the
/// generated Rust module and the web artifact. Errors are the expected outcome for most inputs.
pub fn compile_effect(text: &str) {
    let Ok(effect) = dxbc_wgsl_build::Effect::parse(&effect_path(), text.to_owned()) else {
        return;
    };
    let Ok(compiled) = dxbc_wgsl_build::compile::compile(effect, &mut dxbc_wgsl_build::compile::DirectTranslator)
    else {
        return;
    };
    let _ = dxbc_wgsl_build::generate(&compiled);
    let _ = dxbc_wgsl_build::web::to_json(&dxbc_wgsl_build::web::artifact(&compiled));
}
