//! Translates the DirectXTK effects' DXBC blobs (and the point-sprite effect's, whose geometry
//! shader is the project's own) to WGSL and generates their Rust bindings into OUT_DIR
//! (`<module>.rs` per effect file, included by `src/effects.rs`). DualTextureEffect goes through
//! the `include_effect!` macro instead, so both integrations are exercised.

/// Every effect file `Builder` handles (DualTextureEffect is left to `include_effect!`).
const EFFECTS: [&str; 11] = [
    "effects/basic.effect.toml",
    "effects/alpha_test.effect.toml",
    "effects/debug.effect.toml",
    "effects/environment_map.effect.toml",
    "effects/normal_map.effect.toml",
    "effects/skinned.effect.toml",
    "effects/sprite.effect.toml",
    "effects/post_process.effect.toml",
    "effects/dual_post_process.effect.toml",
    "effects/tone_map.effect.toml",
    "effects/point_sprite.effect.toml",
];

fn main() {
    // Every effect's web artifact (`<module>.effect.json`) too: `src/web.rs` embeds them for
    // `--web-scene`, which hands the browser the same effects and scene.
    let builder = EFFECTS.iter().fold(dxbc_wgsl_build::Builder::new().web_artifacts(true), |b, path| b.effect(path));
    // An error has been printed as cargo::error= lines (file:line:column), which fail the build;
    // the script returns normally, since a non-zero exit would make cargo show them twice.
    let _ = builder.build();
    // DualTextureEffect's Rust comes from `include_effect!`; this build is for its web artifact
    // (the Rust module it also writes, `dual_texture_effect.rs`, is not included).
    let _ = dxbc_wgsl_build::Builder::new().web_artifacts(true).effect("effects/dual_texture.effect.toml").build();
}
