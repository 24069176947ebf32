//! Structure-aware translation: `arbitrary` builds a well-formed program (declarations the
//! instructions need, instructions of the opcode table with operands of the right kinds,
//! balanced control flow most of the time), assembled into a container with signatures and a
//! correct checksum, so the fuzzer reaches the IR builder and the lowering instead of stopping
//! at the reader.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = arbitrary::Unstructured::new(data);
    if let Ok(container) = dxbc_wgsl_fuzz::generate::program(&mut u) {
        dxbc_wgsl_fuzz::translate_checked(&container);
    }
});
