//! # dxbc-wgsl-cli
//!
//! The `dxbc-wgsl` command line (`src/main.rs`) and the parts of it the tests drive directly:
//!
//! - [`watch`]: the watcher behind `dxbc-wgsl watch` (re-translate, re-qualify, re-validate on
//!   change; `docs/watch.md`);
//! - [`workspace`]: the effects a cargo workspace declares under
//!   `[package.metadata.dxbc-wgsl] effects = [...]`;
//! - [`tint`]: WGSL validation by Tint (Chrome's WGSL compiler) through Node.js.
//!
//! Install the binary with `cargo install --path dxbc-wgsl-cli` (add `--features gpu` for
//! `--gpu`, `adapters` and `conformance`).
#![warn(missing_docs)]

pub mod tint;
pub mod watch;
pub mod workspace;
