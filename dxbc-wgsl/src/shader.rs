//! A shader blob read whole: container, signatures and decoded program.

use crate::chunks::signature::{self, Signature};
use crate::container::{Container, ReadOptions};
use crate::error::{ReadError, ReadResult};
use crate::sm4::{decode_program, Program};

/// A parsed shader: the container with its signatures and decoded program.
#[derive(Debug, Clone)]
pub struct Shader<'a> {
    /// The container.
    pub container: Container<'a>,
    /// The decoded `SHEX`/`SHDR` program.
    pub program: Program,
    /// Input signature (ISGN / ISG1), empty if absent.
    pub inputs: Signature,
    /// Output signature (OSGN / OSG5 / OSG1), empty if absent.
    pub outputs: Signature,
    /// Patch-constant signature (PCSG / PSG1), if present.
    pub patch_constants: Option<Signature>,
    /// Reflection (`RDEF`), when present (fxc's `/Qstrip_reflect` removes it).
    pub reflection: Option<crate::chunks::rdef::Reflection>,
    /// Feature flags (`SFI0`), when present.
    pub feature_flags: Option<crate::chunks::sfi0::FeatureFlags>,
    /// Root signature (`RTS0`), when present.
    pub root_signature: Option<crate::chunks::rts0::RootSignature>,
}

impl<'a> Shader<'a> {
    /// Reads a container and decodes its program and signatures.
    ///
    /// # Errors
    /// Any [`ReadError`]; [`ReadError::MissingChunk`] when there is no `SHDR`/`SHEX` chunk.
    pub fn parse(bytes: &'a [u8], options: &ReadOptions) -> ReadResult<Self> {
        let container = Container::parse(bytes, options)?;
        let program_chunk = container.program_chunk().ok_or(ReadError::MissingChunk("SHDR or SHEX"))?;
        let program = decode_program(program_chunk)?;
        let find = |names: &[&[u8; 4]]| -> ReadResult<Option<Signature>> {
            for n in names {
                if let Some(c) = container.chunk(n) {
                    return signature::parse(c).map(Some);
                }
            }
            Ok(None)
        };
        let inputs = find(&[b"ISGN", b"ISG1"])?.unwrap_or_default();
        let outputs = find(&[b"OSGN", b"OSG5", b"OSG1"])?.unwrap_or_default();
        let patch_constants = find(&[b"PCSG", b"PSG1"])?;
        let reflection = container.chunk(b"RDEF").map(crate::chunks::rdef::parse).transpose()?;
        let feature_flags = container.chunk(b"SFI0").map(crate::chunks::sfi0::parse).transpose()?;
        let root_signature = container.chunk(b"RTS0").map(crate::chunks::rts0::parse).transpose()?;
        Ok(Shader { container, program, inputs, outputs, patch_constants, reflection, feature_flags, root_signature })
    }
}
