//! The whole translation of a container (decode → IR → lowering → naga validation → WGSL
//! text), checksum not verified so that mutated corpus blobs get past the reader. A translation
//! that fails validation (`TranslateError::Internal`) is a bug: the target aborts on it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dxbc_wgsl_fuzz::translate_checked(data);
});
