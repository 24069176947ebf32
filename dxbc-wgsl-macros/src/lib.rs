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
/// at the effect file.
#[proc_macro]
pub fn include_effect(input: TokenStream) -> TokenStream {
    let lit = parse_macro_input!(input as LitStr);
    let base = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_default();
    let path = base.join(lit.value());
    expand(&path, &lit)
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}

fn expand(path: &Path, lit: &LitStr) -> Result<proc_macro2::TokenStream, syn::Error> {
    let mut tracked: Vec<PathBuf> = vec![path.to_path_buf()];
    let result = dxbc_wgsl_build::Effect::load(path).and_then(|effect| {
        tracked.extend(
            dxbc_wgsl_build::builder::candidate_inputs(&effect)
                .into_iter()
                .filter(|p| p.is_file()),
        );
        dxbc_wgsl_build::compile::compile(effect, &mut dxbc_wgsl_build::compile::DirectTranslator)
    });
    let mut out = String::new();
    for file in tracked.iter().filter(|p| p.is_file()) {
        let abs = std::fs::canonicalize(file).unwrap_or_else(|_| file.clone());
        out.push_str(&format!(
            "const _: &[u8] = include_bytes!({:?});\n",
            abs.to_string_lossy()
        ));
    }
    match result {
        Ok(compiled) => {
            out.push_str(&dxbc_wgsl_build::generate(&compiled));
            out.parse::<proc_macro2::TokenStream>().map_err(|e| {
                syn::Error::new(
                    lit.span(),
                    format!("internal error: generated code does not parse: {e}"),
                )
            })
        }
        Err(diags) => {
            let mut errors = diags
                .iter()
                .map(|d| syn::Error::new(lit.span(), d.to_string()));
            let mut first = errors
                .next()
                .unwrap_or_else(|| syn::Error::new(lit.span(), "the effect failed to compile"));
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
