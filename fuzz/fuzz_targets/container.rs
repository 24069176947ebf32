//! The container and chunk readers: a DXBC container (checksum verified, then not), and every
//! chunk it holds through its own parser (signatures, RDEF, STAT, SFI0, RTS0, IFCE), then the
//! `dxbc-wgsl info` summary built from them.
#![no_main]

use dxbc_wgsl::chunks::{ifce, rdef, rts0, sfi0, signature, stat};
use dxbc_wgsl::{Container, ReadOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = Container::parse(data, &ReadOptions { verify_checksum: true });
    let Ok(container) = Container::parse(data, &ReadOptions { verify_checksum: false }) else {
        return;
    };
    for chunk in &container.chunks {
        match &chunk.fourcc {
            b"ISGN" | b"OSGN" | b"PCSG" | b"ISG1" | b"OSG1" | b"PSG1" | b"OSG5" => {
                let _ = signature::parse(chunk);
            }
            b"RDEF" => {
                let _ = rdef::parse(chunk);
            }
            b"STAT" => {
                let _ = stat::parse(chunk);
            }
            b"SFI0" => {
                let _ = sfi0::parse(chunk);
            }
            b"RTS0" => {
                let _ = rts0::parse(chunk);
            }
            b"IFCE" => {
                let _ = ifce::parse(chunk);
            }
            _ => {}
        }
    }
    let _ = dxbc_wgsl::info::info(data);
});
