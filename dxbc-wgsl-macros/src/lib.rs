//! # dxbc-wgsl-macros
//!
//! [`include_effect!`]: translate an effect file's D3D shaders to WGSL while the crate compiles,
//! and expand to its generated Rust module — the same code `dxbc_wgsl_build::Builder` writes
//! (both call `dxbc_wgsl_build::generate`). The generated API is described in
//! `docs/binding-model.md`; the effect-file format in `docs/effect-format.md`.

use std::path::{Path, PathBuf};

use proc_macro::TokenStream;
use syn::{parse_macro_input, LitStr};

/// Expands to the generated module of an effect file.
///
/// ```ignore
/// // Path relative to the crate's Cargo.toml; expands to `pub mod dual_texture_effect { ... }`.
/// dxbc_wgsl_macros::include_effect!("effects/dual_texture.effect.toml");
/// ```
///
/// rustc tracks every file the macro reads (the effect file and each shader input, through an
/// `include_bytes!` in the expansion), so editing one recompiles the crate. Errors in the effect
/// file or its shaders become `compile_error!`s of the form `path:line:column: message`, pointing
/// at the effect file (`path: message` for an effect file that cannot be read).
///
/// The generated code compiles against wgpu 30.x: when the crate's `Cargo.lock` resolves another
/// wgpu, the expansion is one `compile_error!` naming both versions instead.
#[proc_macro]
pub fn include_effect(input: TokenStream) -> TokenStream {
    let lit = parse_macro_input!(input as LitStr);
    if let Err(message) = dxbc_wgsl_build::wgpu_version::check_from_env() {
        return syn::Error::new(lit.span(), message).to_compile_error().into();
    }
    let base = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_default();
    let path = base.join(lit.value());
    expand(&path, &lit).unwrap_or_else(|e| e.to_compile_error()).into()
}

fn expand(path: &Path, lit: &LitStr) -> Result<proc_macro2::TokenStream, syn::Error> {
    let mut tracked: Vec<PathBuf> = vec![path.to_path_buf()];
    let result = dxbc_wgsl_build::Effect::load(path).and_then(|effect| {
        tracked.extend(dxbc_wgsl_build::builder::candidate_inputs(&effect).into_iter().filter(|p| p.is_file()));
        dxbc_wgsl_build::compile::compile(effect, &mut dxbc_wgsl_build::compile::DirectTranslator)
    });
    let mut out = String::new();
    // Tracked through `include_bytes!`, so that rustc's dependency info names them; not a file
    // past the input bound (its error says so), which rustc would otherwise read whole.
    let within_bound = |p: &&PathBuf| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= dxbc_wgsl_build::input::MAX_INPUT_BYTES)
    };
    for file in tracked.iter().filter(within_bound) {
        let abs = std::fs::canonicalize(file).unwrap_or_else(|_| file.clone());
        out.push_str(&format!("const _: &[u8] = include_bytes!({:?});\n", abs.to_string_lossy()));
    }
    match result {
        Ok(compiled) => {
            out.push_str(&dxbc_wgsl_build::generate(&compiled));
            out.parse::<proc_macro2::TokenStream>()
                .map_err(|e| syn::Error::new(lit.span(), format!("internal error: generated code does not parse: {e}")))
        }
        Err(diags) => {
            let mut errors = diags.iter().map(|d| syn::Error::new(lit.span(), d.to_string()));
            let mut first =
                errors.next().unwrap_or_else(|| syn::Error::new(lit.span(), "the effect failed to compile"));
            for e in errors {
                first.combine(e);
            }
            // Keep tracking the files that exist, so fixing one triggers a rebuild.
            let mut tokens: proc_macro2::TokenStream = out.parse().unwrap_or_default();
            tokens.extend(first.to_compile_error());
            Ok(tokens)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(relative: &str) -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
        let lit = LitStr::new(relative, proc_macro2::Span::call_site());
        expand(&path, &lit).unwrap().to_string()
    }

    #[test]
    fn expansion_tracks_every_file_it_read() {
        let out = expand_str("../example-engine/effects/dual_texture.effect.toml");
        // The effect file and its six blobs.
        assert_eq!(out.matches("include_bytes !").count(), 7, "{}", &out[..out.len().min(2000)]);
        assert!(out.contains("dual_texture.effect.toml"));
        assert!(out.contains("DualTextureEffect_PSDualTextureNoFog.dxbc"));
        assert!(out.contains("pub mod dual_texture_effect"));
    }

    #[test]
    fn errors_become_compile_errors_with_positions() {
        let dir = std::env::temp_dir().join(format!("dxbc-wgsl-macros-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bad.effect.toml");
        std::fs::write(&file, "[effect]\nname = \"Bad\"\n[passes.main]\nvertex = \"missing.dxbc\"\n").unwrap();
        let lit = LitStr::new("bad.effect.toml", proc_macro2::Span::call_site());
        let out = expand(&file, &lit).unwrap().to_string();
        std::fs::remove_dir_all(&dir).ok();
        assert!(out.contains("compile_error"), "{out}");
        assert!(
            out.contains("bad.effect.toml:4:10: vertex shader of pass `main`: shader file not found: ")
                && out.contains("missing.dxbc (needed by the only permutation)"),
            "{out}"
        );
        // The effect file is still tracked, so fixing it recompiles.
        assert!(out.contains("include_bytes"), "{out}");
    }

    /// `[effect] verify_checksum = false` reaches the macro's translations: a patched blob (a byte
    /// of its level 9 program flipped, so the checksum is wrong) is a compile error without it.
    #[test]
    fn verify_checksum_false_expands_a_patched_blob() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = tempfile_dir("verify-checksum");
        let shaders = dir.join("shaders");
        std::fs::create_dir_all(&shaders).unwrap();
        let blobs = root.join("example-engine/shaders/directxtk/DualTextureEffect");
        for entry in std::fs::read_dir(&blobs).unwrap() {
            let path = entry.unwrap().path();
            let mut bytes = std::fs::read(&path).unwrap();
            let first_chunk = u32::from_le_bytes(bytes[32..36].try_into().unwrap()) as usize;
            bytes[first_chunk + 8 + 16] ^= 0xff;
            std::fs::write(shaders.join(path.file_name().unwrap()), bytes).unwrap();
        }
        let text = std::fs::read_to_string(root.join("example-engine/effects/dual_texture.effect.toml")).unwrap();
        let file = dir.join("dual.effect.toml");
        let lit = LitStr::new("dual.effect.toml", proc_macro2::Span::call_site());
        let write = |extra: &str| {
            let t = text.replace(
                "shader_dir = \"../shaders/directxtk/DualTextureEffect\"",
                &format!("shader_dir = \"shaders\"\n{extra}"),
            );
            std::fs::write(&file, t).unwrap();
        };
        write("");
        let refused = expand(&file, &lit).unwrap().to_string();
        write("verify_checksum = false");
        let read = expand(&file, &lit).unwrap().to_string();
        std::fs::remove_dir_all(&dir).ok();
        assert!(refused.contains("compile_error") && refused.contains("checksum mismatch"), "{refused}");
        assert!(!read.contains("compile_error") && read.contains("pub mod dual_texture_effect"), "{read}");
    }

    /// The effect file missing, a folder, not UTF-8 or past the input bound, and a shader input
    /// cut in half: each a `compile_error!` naming the file and the reason, never a panic.
    #[test]
    fn unusable_inputs_become_compile_errors_naming_the_file() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = tempfile_dir("inputs");
        std::fs::create_dir_all(dir.join("shaders")).unwrap();
        for entry in std::fs::read_dir(root.join("example-engine/shaders/directxtk/DualTextureEffect")).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.join("shaders").join(path.file_name().unwrap())).unwrap();
        }
        let text = std::fs::read_to_string(root.join("example-engine/effects/dual_texture.effect.toml"))
            .unwrap()
            .replace("shader_dir = \"../shaders/directxtk/DualTextureEffect\"", "shader_dir = \"shaders\"");
        let file = dir.join("dual.effect.toml");
        let lit = LitStr::new("dual.effect.toml", proc_macro2::Span::call_site());
        let expand_error = |what: &str| {
            let out = match expand(&file, &lit) {
                Ok(tokens) => tokens.to_string(),
                Err(e) => e.to_string(),
            };
            assert!(out.contains("compile_error") || !out.contains("pub mod"), "{what}: expanded: {out:.300}");
            out
        };
        let check = |what: &str, out: &str, name: &str, reason: &str| {
            assert!(out.contains(name) && out.contains(reason), "{what}: `{out:.400}` lacks {name} / {reason}");
        };
        check("missing", &expand_error("missing"), "dual.effect.toml", "cannot read effect file");
        std::fs::create_dir(&file).unwrap();
        check("a folder", &expand_error("a folder"), "dual.effect.toml", "cannot read effect file");
        std::fs::remove_dir(&file).unwrap();
        std::fs::write(&file, b"[effect]\nname = \"\xff\"\n").unwrap();
        check("not UTF-8", &expand_error("not UTF-8"), "dual.effect.toml", "valid UTF-8");
        let f = std::fs::File::create(&file).unwrap();
        f.set_len(dxbc_wgsl_build::input::MAX_INPUT_BYTES + 1).unwrap();
        drop(f);
        check("huge", &expand_error("huge"), "dual.effect.toml", "more than");
        std::fs::write(&file, &text).unwrap();
        let blob = dir.join("shaders/DualTextureEffect_VSDualTexture.dxbc");
        let bytes = std::fs::read(&blob).unwrap();
        std::fs::write(&blob, &bytes[..bytes.len() / 2]).unwrap();
        check("truncated shader", &expand_error("truncated shader"), "DualTextureEffect_VSDualTexture.dxbc", "");
        std::fs::remove_dir_all(&dir).ok();
    }

    fn tempfile_dir(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("dxbc-wgsl-macros-{name}-{}", std::process::id()))
    }
}
