//! Translates BasicEffect's DXBC blobs to WGSL and generates its Rust bindings into OUT_DIR
//! (`basic_effect.rs`, included by `src/effects.rs`). DualTextureEffect goes through the
//! `include_effect!` macro instead, so both integrations are exercised.

fn main() {
    if let Err(error) = dxbc_wgsl_build::Builder::new().effect("effects/basic.effect.toml").build() {
        // The diagnostics were already printed as cargo::error= lines (file:line:column).
        eprintln!("{error}");
        std::process::exit(1);
    }
}
