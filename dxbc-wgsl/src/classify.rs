//! What a blob is: a shader program, an effect, a root signature, effect expression bytecode or
//! something else, with the reason in words.
//!
//! Classification looks only at the magic, the container's chunk list and the first word of
//! the deciding chunk; it never fails (a blob that cannot be read is [`BlobKind::Other`] with
//! the read error as the reason). Use [`crate::Shader::parse`] to read a shader program whole.

use crate::container::{Container, ReadOptions};
use crate::sm4::ShaderStage;

/// The kinds of blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlobKind {
    /// A DXBC container with an SM4/SM5 program (`SHDR`/`SHEX`).
    ShaderProgram {
        /// Stage, from the program's version token.
        stage: ShaderStage,
        /// Major shader model.
        major: u8,
        /// Minor shader model.
        minor: u8,
    },
    /// A Direct3D effect (FX10): a DXBC container with an `FX10` chunk, or the bare effect
    /// payload that starts with its version word (as vkd3d writes it).
    Effect {
        /// The effect version word (`0xFEFF1001` fx_4_0, `0xFEFF1011` fx_4_1, `0xFEFF2001`
        /// fx_5_0, `0xFEFF0901` fx_2_0).
        version: u32,
        /// Whether it is wrapped in a DXBC container.
        in_container: bool,
    },
    /// A serialized D3D12 root signature: a DXBC container whose only chunk is `RTS0`.
    RootSignature {
        /// The root signature version word (1 = 1.0, 2 = 1.1, 3 = 1.2).
        version: u32,
    },
    /// Effect expression bytecode: a container with `FXLC` (and usually `CLI4` literals and
    /// a `CTAB` constant table), which the effect runtime evaluates on the CPU to compute state
    /// values and array indices. Not a shader program.
    EffectExpression,
    /// Anything else (including blobs that cannot be read).
    Other,
}

impl BlobKind {
    /// A short name (`shader`, `effect`, `root signature`, `effect expression`, `other`).
    pub fn name(&self) -> &'static str {
        match self {
            BlobKind::ShaderProgram { .. } => "shader",
            BlobKind::Effect { .. } => "effect",
            BlobKind::RootSignature { .. } => "root signature",
            BlobKind::EffectExpression => "effect expression",
            BlobKind::Other => "other",
        }
    }
}

/// The result of [`classify`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    /// What the blob is.
    pub kind: BlobKind,
    /// Why, in words (never empty).
    pub reason: String,
    /// For DXBC containers: whether the stored checksum matches; `None` for other blobs.
    pub checksum_ok: Option<bool>,
}

impl Classification {
    /// Whether the blob is a shader program (worth handing to [`crate::translate`]).
    pub fn is_shader_program(&self) -> bool {
        matches!(self.kind, BlobKind::ShaderProgram { .. })
    }
}

/// The fxc profile name of an effect version word (`fx_4_0`, ...).
pub fn effect_profile(version: u32) -> Option<&'static str> {
    Some(match version {
        0xFEFF_1001 => "fx_4_0",
        0xFEFF_1011 => "fx_4_1",
        0xFEFF_2001 => "fx_5_0",
        0xFEFF_0901 => "fx_2_0",
        _ => return None,
    })
}

fn le32(bytes: &[u8], at: usize) -> Option<u32> {
    bytes.get(at..at.checked_add(4)?).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Classifies a blob.
pub fn classify(bytes: &[u8]) -> Classification {
    let other = |reason: String| Classification { kind: BlobKind::Other, reason, checksum_ok: None };
    if bytes.len() < 4 {
        return other(format!("{} bytes: too short for any magic", bytes.len()));
    }
    if &bytes[0..4] != b"DXBC" {
        let first = le32(bytes, 0).unwrap_or(0);
        if let Some(profile) = effect_profile(first) {
            return Classification {
                kind: BlobKind::Effect { version: first, in_container: false },
                reason: format!("bare {profile} effect payload (version word {first:#010x}, no DXBC container)"),
                checksum_ok: None,
            };
        }
        return match first >> 16 {
            0xFFFE | 0xFFFF if (first >> 8) & 0xff <= 3 => other(format!(
                "Direct3D 9 shader bytecode ({}_{}_{}), not an SM4/SM5 container",
                if first >> 16 == 0xFFFE { "vs" } else { "ps" },
                (first >> 8) & 0xff,
                first & 0xff
            )),
            _ => other(format!("no DXBC magic: the first bytes are {:02x?}", &bytes[0..4])),
        };
    }
    let container = match Container::parse(bytes, &ReadOptions { verify_checksum: false }) {
        Ok(c) => c,
        Err(e) => return other(format!("unreadable DXBC container: {e}")),
    };
    let checksum_ok = Some(crate::container::checksum_of(container.bytes) == container.checksum);
    let names: Vec<String> = container.chunks.iter().map(|c| c.name()).collect();
    let listing = if names.is_empty() { "no chunks".to_string() } else { names.join(", ") };
    let with = |kind: BlobKind, reason: String| Classification { kind, reason, checksum_ok };

    if let Some(chunk) = container.program_chunk() {
        let Some(token) = le32(chunk.data, 0) else {
            return with(BlobKind::Other, format!("{} chunk too short for a version token", chunk.name()));
        };
        let Some(stage) = ShaderStage::from_program_type(token >> 16) else {
            return with(
                BlobKind::Other,
                format!("{} chunk with program type {:#x}, which is not 0-5", chunk.name(), token >> 16),
            );
        };
        let (major, minor) = (((token >> 4) & 0xf) as u8, (token & 0xf) as u8);
        return with(
            BlobKind::ShaderProgram { stage, major, minor },
            format!("{} program {}_{}_{} (chunks: {listing})", chunk.name(), stage.prefix(), major, minor),
        );
    }
    if let Some(fx) = container.chunk(b"FX10") {
        let version = le32(fx.data, 0).unwrap_or(0);
        let profile = effect_profile(version).unwrap_or("unknown effect version");
        return with(
            BlobKind::Effect { version, in_container: true },
            format!("FX10 chunk: {profile} effect ({version:#010x}); its shaders are separate containers inside it"),
        );
    }
    if container.chunk(b"FXLC").is_some() {
        return with(
            BlobKind::EffectExpression,
            format!("effect expression bytecode (chunks: {listing}): evaluated by the effect runtime on the CPU, not a shader program"),
        );
    }
    if container.chunk(b"DXIL").is_some() {
        return with(BlobKind::Other, format!("DXIL (SM6) container (chunks: {listing}); only DXBC SM4/SM5 is read"));
    }
    if let Some(rts) = container.chunk(b"RTS0") {
        let version = le32(rts.data, 0).unwrap_or(0);
        if container.chunks.len() == 1 {
            return with(
                BlobKind::RootSignature { version },
                format!("root signature only (RTS0, version word {version})"),
            );
        }
        return with(BlobKind::Other, format!("RTS0 without a program, with other chunks (chunks: {listing})"));
    }
    with(BlobKind::Other, format!("DXBC container without a program chunk (chunks: {listing})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn container(chunks: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
        let mut out = vec![0u8; 32 + 4 * chunks.len()];
        out[0..4].copy_from_slice(b"DXBC");
        out[20] = 1;
        out[28..32].copy_from_slice(&(chunks.len() as u32).to_le_bytes());
        for (i, (fourcc, data)) in chunks.iter().enumerate() {
            let at = out.len() as u32;
            out[32 + 4 * i..36 + 4 * i].copy_from_slice(&at.to_le_bytes());
            out.extend_from_slice(*fourcc);
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(data);
        }
        let len = out.len() as u32;
        out[24..28].copy_from_slice(&len.to_le_bytes());
        crate::container::fix_checksum(&mut out);
        out
    }

    #[test]
    fn kinds() {
        let program = [0x50, 0, 5, 0, 2, 0, 0, 0]; // cs_5_0, length 2
        let c = classify(&container(&[(b"SHEX", &program)]));
        assert_eq!(c.kind, BlobKind::ShaderProgram { stage: ShaderStage::Compute, major: 5, minor: 0 });
        assert_eq!(c.checksum_ok, Some(true));
        let c = classify(&container(&[(b"RTS0", &[2, 0, 0, 0])]));
        assert_eq!(c.kind, BlobKind::RootSignature { version: 2 });
        let c = classify(&container(&[(b"FX10", &0xFEFF_2001u32.to_le_bytes())]));
        assert_eq!(c.kind, BlobKind::Effect { version: 0xFEFF_2001, in_container: true });
        let c = classify(&container(&[(b"CTAB", &[]), (b"CLI4", &[]), (b"FXLC", &[])]));
        assert_eq!(c.kind, BlobKind::EffectExpression);
        let c = classify(&container(&[(b"ISGN", &[0; 8])]));
        assert_eq!(c.kind, BlobKind::Other);
        assert!(c.reason.contains("ISGN"), "{}", c.reason);
        let c = classify(&container(&[(b"RTS0", &[2, 0, 0, 0]), (b"ISGN", &[0; 8])]));
        assert_eq!(c.kind, BlobKind::Other);
    }

    #[test]
    fn bare_blobs() {
        let c = classify(&0xFEFF_1011u32.to_le_bytes());
        assert_eq!(c.kind, BlobKind::Effect { version: 0xFEFF_1011, in_container: false });
        assert!(c.reason.contains("fx_4_1"), "{}", c.reason);
        let c = classify(&0xFFFF_0300u32.to_le_bytes());
        assert!(c.kind == BlobKind::Other && c.reason.contains("ps_3_0"), "{c:?}");
        for bytes in [&b""[..], b"DX", b"DXBC", b"\x7fELF...."] {
            let c = classify(bytes);
            assert!(c.kind == BlobKind::Other && !c.reason.is_empty(), "{c:?}");
        }
        let mut bad = container(&[(b"SHEX", &[0x50, 0, 5, 0, 2, 0, 0, 0])]);
        bad[50] ^= 1;
        assert_eq!(classify(&bad).checksum_ok, Some(false));
    }
}
