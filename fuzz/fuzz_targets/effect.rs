//! The effect-file parser and compiler: TOML text in, generated Rust and the web artifact out.
//! The file is placed in example-engine/effects/, so its shader paths may name the DirectXTK
//! blobs there.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        dxbc_wgsl_fuzz::compile_effect(text);
    }
});
