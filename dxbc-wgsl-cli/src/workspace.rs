//! The effects a cargo workspace declares, for `dxbc-wgsl qualify` and `watch` without paths.
//!
//! A package lists its effect files in its manifest, relative to the manifest's folder:
//!
//! ```toml
//! [package.metadata.dxbc-wgsl]
//! effects = ["effects/basic.effect.toml", "effects/dual_texture.effect.toml"]
//! ```

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

/// The metadata key, under `[package.metadata]`.
pub const METADATA_KEY: &str = "dxbc-wgsl";

/// Every effect file the workspace members around `dir` declare, in package order. Files that do
/// not exist are returned too (the caller reports them).
///
/// # Errors
/// No cargo workspace around `dir` (or `cargo metadata` fails), a malformed `effects` value, or no
/// package declaring any effect.
pub fn effects(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let metadata = cargo_metadata::MetadataCommand::new()
        .current_dir(dir)
        .no_deps()
        .exec()
        .context("no PATH given, and no cargo workspace here to take effects from")?;
    let mut out = Vec::new();
    for package in metadata.workspace_packages() {
        let Some(section) = package.metadata.get(METADATA_KEY) else { continue };
        let manifest = package.manifest_path.as_std_path();
        let list = section.get("effects").and_then(|e| e.as_array()).with_context(|| {
            format!("{}: [package.metadata.{METADATA_KEY}] needs `effects = [\"...\"]`", manifest.display())
        })?;
        let base = manifest.parent().unwrap_or(Path::new("."));
        for e in list {
            let Some(e) = e.as_str() else {
                bail!("{}: [package.metadata.{METADATA_KEY}] effects: every entry is a path string", manifest.display())
            };
            out.push(base.join(e));
        }
    }
    if out.is_empty() {
        bail!(
            "no PATH given, and no package of the workspace at {} declares effects: add \
             `[package.metadata.{METADATA_KEY}] effects = [\"effects/x.effect.toml\"]` to its Cargo.toml",
            metadata.workspace_root
        );
    }
    Ok(out)
}
