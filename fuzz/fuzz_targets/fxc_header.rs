//! The fxc `/Fh` header reader: C text holding `const BYTE name[] = { ... };` arrays.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(blobs) = dxbc_wgsl::header::parse_header(text) {
            let first = blobs.first().map(|b| b.symbol.clone());
            let _ = dxbc_wgsl::header::select(blobs.clone(), None);
            let _ = dxbc_wgsl::header::select(blobs, first.as_deref());
        }
    }
});
