//! The token decoder and the disassembler: the input is a program chunk's words (version token,
//! length, declarations, instructions), wrapped in a container with a correct checksum and
//! empty signatures so every input reaches the decoder.
#![no_main]

use dxbc_wgsl::{ReadOptions, Shader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let container = dxbc_wgsl_fuzz::container_with_program(b"SHEX", data);
    if let Ok(shader) = Shader::parse(&container, &ReadOptions { verify_checksum: true }) {
        let _ = dxbc_wgsl::sm4::disasm::disassemble(&shader.program);
    }
});
