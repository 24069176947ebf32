//! The shaders example-engine ships of its own (`example-engine/shaders/own/`, assembled by
//! `dxbc_wgsl_tests::example_shaders`) are what the assembler makes today, and each translates.
//! `DXBC_WGSL_BLESS=1` rewrites them after an intended change to the generator.

use std::path::Path;

/// The environment variable that rewrites the committed blobs.
const BLESS_ENV: &str = "DXBC_WGSL_BLESS";

#[test]
fn own_shader_blobs_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-engine/shaders/own");
    let bless = std::env::var_os(BLESS_ENV).is_some_and(|v| v == "1");
    for (name, bytes) in dxbc_wgsl_tests::example_shaders::blobs() {
        let path = dir.join(name);
        if bless {
            std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        let kept = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} ({BLESS_ENV}=1 writes it)", path.display()));
        assert!(
            kept == bytes,
            "{} differs from what tests/src/example_shaders.rs assembles ({BLESS_ENV}=1 rewrites it)",
            path.display()
        );
        dxbc_wgsl::translate(&bytes, &Default::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
