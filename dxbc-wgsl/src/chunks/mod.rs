//! Chunk decoders: signatures (ISGN/OSGN/OSG5/PCSG/ISG1/OSG1/PSG1), reflection (RDEF), feature
//! flags (SFI0), statistics (STAT), interfaces (IFCE), root signatures (RTS0).
//!
//! Every decoder takes a [`Chunk`] and reports errors as [`ReadError`]s whose byte offsets count
//! from the start of the container. Counts read from the data are checked against the bytes
//! present before anything is allocated from them.

pub mod ifce;
pub mod rdef;
pub mod rts0;
pub mod sfi0;
pub mod signature;
pub mod stat;

use crate::container::Chunk;
use crate::error::{ReadError, ReadResult};

/// What a chunk holds, by FourCC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChunkKind {
    /// `SHDR` (SM4) or `SHEX` (SM5) program.
    Program,
    /// A signature chunk: ISGN, OSGN, OSG5, PCSG, ISG1, OSG1, PSG1.
    Signature,
    /// `RDEF` reflection (constant buffers, resource bindings).
    Reflection,
    /// `SFI0` shader feature flags.
    FeatureFlags,
    /// `STAT` statistics.
    Statistics,
    /// `IFCE` interfaces (class instances and types).
    Interfaces,
    /// `RTS0` root signature.
    RootSignature,
    /// `Aon9`: the Direct3D 9 (feature level 9.x) program fxc adds for `level_9_*` targets;
    /// recognised, not decoded.
    Level9,
    /// `FX10`: a Direct3D 10/11 effect.
    Effect,
    /// `CLI4`: literal constants of effect expression bytecode.
    ExpressionLiterals,
    /// `FXLC`: effect expression bytecode.
    ExpressionCode,
    /// `CTAB`: a Direct3D 9 constant table (in effect expressions).
    ConstantTable,
    /// `SDBG`/`SPDB`/`ILDB`/`ILDN`: debug information.
    Debug,
    /// `XNAS`/`XNAP`: the Xbox / level-9 shader-model hints some compilers add.
    Xna,
    /// `PRIV`: private data.
    Private,
    /// `DXIL`/`ILDB`-era chunks of DXIL containers (SM6), which this crate does not read.
    Dxil,
    /// Anything else; kept and listed, never an error.
    Unknown,
}

impl ChunkKind {
    /// Classifies a FourCC.
    pub fn of(fourcc: &[u8; 4]) -> Self {
        match fourcc {
            b"SHDR" | b"SHEX" => ChunkKind::Program,
            b"ISGN" | b"OSGN" | b"OSG5" | b"PCSG" | b"ISG1" | b"OSG1" | b"PSG1" => ChunkKind::Signature,
            b"RDEF" => ChunkKind::Reflection,
            b"SFI0" => ChunkKind::FeatureFlags,
            b"STAT" => ChunkKind::Statistics,
            b"IFCE" => ChunkKind::Interfaces,
            b"RTS0" => ChunkKind::RootSignature,
            b"Aon9" => ChunkKind::Level9,
            b"FX10" => ChunkKind::Effect,
            b"CLI4" => ChunkKind::ExpressionLiterals,
            b"FXLC" => ChunkKind::ExpressionCode,
            b"CTAB" => ChunkKind::ConstantTable,
            b"SDBG" | b"SPDB" | b"ILDB" | b"ILDN" => ChunkKind::Debug,
            b"XNAS" | b"XNAP" => ChunkKind::Xna,
            b"PRIV" => ChunkKind::Private,
            b"DXIL" | b"PSV0" | b"HASH" | b"RDAT" => ChunkKind::Dxil,
            _ => ChunkKind::Unknown,
        }
    }

    /// A short description for listings.
    pub fn describe(self) -> &'static str {
        match self {
            ChunkKind::Program => "shader program",
            ChunkKind::Signature => "signature",
            ChunkKind::Reflection => "reflection",
            ChunkKind::FeatureFlags => "feature flags",
            ChunkKind::Statistics => "statistics",
            ChunkKind::Interfaces => "interfaces",
            ChunkKind::RootSignature => "root signature",
            ChunkKind::Level9 => "level 9 program (not decoded)",
            ChunkKind::Effect => "effect",
            ChunkKind::ExpressionLiterals => "expression literals",
            ChunkKind::ExpressionCode => "expression bytecode",
            ChunkKind::ConstantTable => "D3D9 constant table",
            ChunkKind::Debug => "debug info",
            ChunkKind::Xna => "XNA hints",
            ChunkKind::Private => "private data",
            ChunkKind::Dxil => "DXIL (not read)",
            ChunkKind::Unknown => "unknown",
        }
    }
}

/// Bounds-checked little-endian reads inside one chunk, with errors at container offsets.
#[derive(Clone, Copy)]
pub(crate) struct ChunkBytes<'a> {
    pub(crate) data: &'a [u8],
    /// Offset of `data[0]` from the start of the container.
    pub(crate) base: usize,
}

impl<'a> ChunkBytes<'a> {
    pub(crate) fn new(chunk: &Chunk<'a>) -> Self {
        ChunkBytes { data: chunk.data, base: chunk.offset }
    }

    fn truncated(&self, what: &'static str, at: usize, needed: usize) -> ReadError {
        if at > self.data.len() {
            // Report inside the input: the chunk's end, with the offset that was asked for.
            return self.malformed(
                what,
                self.data.len(),
                format!(
                    "{needed} bytes wanted at chunk offset {at:#x}, past the end of the {}-byte chunk",
                    self.data.len()
                ),
            );
        }
        ReadError::Truncated { what, offset: self.base + at, needed, available: self.data.len() - at }
    }

    /// Checks an offset read from the field at `field`: it must lie inside the chunk.
    pub(crate) fn pointer(&self, value: u32, what: &'static str, field: usize) -> ReadResult<usize> {
        let at = value as usize;
        if at < self.data.len() {
            Ok(at)
        } else {
            Err(self.malformed(what, field, format!("offset {at:#x} is outside the {}-byte chunk", self.data.len())))
        }
    }

    pub(crate) fn malformed(&self, what: &'static str, at: usize, reason: impl Into<String>) -> ReadError {
        ReadError::malformed(what, self.base + at, reason)
    }

    pub(crate) fn u32(&self, at: usize, what: &'static str) -> ReadResult<u32> {
        match at.checked_add(4).and_then(|end| self.data.get(at..end)) {
            Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => Err(self.truncated(what, at, 4)),
        }
    }

    pub(crate) fn u16(&self, at: usize, what: &'static str) -> ReadResult<u16> {
        match at.checked_add(2).and_then(|end| self.data.get(at..end)) {
            Some(b) => Ok(u16::from_le_bytes([b[0], b[1]])),
            None => Err(self.truncated(what, at, 2)),
        }
    }

    pub(crate) fn f32(&self, at: usize, what: &'static str) -> ReadResult<f32> {
        self.u32(at, what).map(f32::from_bits)
    }

    /// `len` bytes at `at`.
    pub(crate) fn slice(&self, at: usize, len: usize, what: &'static str) -> ReadResult<&'a [u8]> {
        at.checked_add(len).and_then(|end| self.data.get(at..end)).ok_or_else(|| self.truncated(what, at, len))
    }

    /// Checks that `count` records of `stride` bytes fit at `at`, so that a `Vec` of `count`
    /// elements may be allocated. `field` is the offset of the count itself (for the error).
    pub(crate) fn check_array(
        &self,
        at: usize,
        count: u32,
        stride: usize,
        what: &'static str,
        field: usize,
    ) -> ReadResult<usize> {
        let count = count as usize;
        let fits = count.checked_mul(stride).and_then(|n| n.checked_add(at)).is_some_and(|end| end <= self.data.len());
        if fits {
            Ok(count)
        } else {
            Err(self.malformed(
                what,
                field,
                format!(
                    "{count} records of {stride} bytes at chunk offset {at:#x} do not fit in the {}-byte chunk",
                    self.data.len()
                ),
            ))
        }
    }

    /// A NUL-terminated string at `at` (bytes that are not UTF-8 are replaced).
    pub(crate) fn cstr(&self, at: usize, what: &'static str, field: usize) -> ReadResult<String> {
        let rest = self.data.get(at..).ok_or_else(|| {
            self.malformed(what, field, format!("string offset {at:#x} is outside the {}-byte chunk", self.data.len()))
        })?;
        let end = rest.iter().position(|&b| b == 0).ok_or_else(|| {
            self.malformed(what, field, format!("string at chunk offset {at:#x} has no terminating NUL"))
        })?;
        Ok(String::from_utf8_lossy(&rest[..end]).into_owned())
    }
}

/// Declares a `u32`/`u16`-backed enum with named values, an `Other` fallback, and the D3D/HLSL
/// spelling of each value.
macro_rules! raw_enum {
    (
        $(#[$meta:meta])*
        $name:ident($raw:ty) {
            $( $(#[$vmeta:meta])* $variant:ident = $value:literal => $text:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
            /// A value this crate does not name.
            Other($raw),
        }

        impl $name {
            /// From the stored value.
            pub fn from_raw(v: $raw) -> Self {
                match v {
                    $( $value => $name::$variant, )*
                    other => $name::Other(other),
                }
            }
            /// The stored value.
            pub fn raw(self) -> $raw {
                match self {
                    $( $name::$variant => $value, )*
                    $name::Other(v) => v,
                }
            }
            /// The name D3D's tools print for this value (`"?"` for unnamed values).
            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )*
                    $name::Other(_) => "?",
                }
            }
        }
    };
}
pub(crate) use raw_enum;
