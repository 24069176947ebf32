//! Signature chunks: ISGN, OSGN, PCSG (8 words per element), OSG5 (stream + 8 words), ISG1/OSG1/PSG1
//! (stream + 8 words + minimum precision).

use crate::container::{read_u32, Chunk};
use crate::error::{ReadError, ReadResult};

/// Component type of a signature element (`D3D_REGISTER_COMPONENT_TYPE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComponentType {
    /// 0: unknown.
    Unknown,
    /// 1: uint.
    Uint32,
    /// 2: int.
    Sint32,
    /// 3: float.
    Float32,
    /// Any other value.
    Other(u32),
}

impl ComponentType {
    fn from_u32(v: u32) -> Self {
        match v {
            0 => ComponentType::Unknown,
            1 => ComponentType::Uint32,
            2 => ComponentType::Sint32,
            3 => ComponentType::Float32,
            o => ComponentType::Other(o),
        }
    }
}

/// One element of a signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureElement {
    /// Semantic name as stored (case preserved).
    pub semantic_name: String,
    /// Semantic index.
    pub semantic_index: u32,
    /// System value (`D3D_NAME`: 0 none, 1 position, 2 clip distance, ... 64 target, 65 depth...).
    pub system_value: u32,
    /// Component type.
    pub component_type: ComponentType,
    /// Register number.
    pub register: u32,
    /// Declared component mask (bit 0 = x).
    pub mask: u8,
    /// Read/write mask: for inputs the components the shader reads, for outputs the components
    /// it never writes (fxc's convention).
    pub rw_mask: u8,
    /// Geometry-shader stream (OSG5/ISG1/OSG1/PSG1), else 0.
    pub stream: u32,
    /// Minimum precision (ISG1/OSG1/PSG1), else 0.
    pub min_precision: u32,
}

/// A parsed signature chunk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Signature {
    /// Elements in chunk order.
    pub elements: Vec<SignatureElement>,
}

/// Parses a signature chunk of any of the known kinds (selected by the chunk's FourCC).
///
/// # Errors
/// [`ReadError::Truncated`] / [`ReadError::Malformed`] with byte offsets from the container start.
pub fn parse(chunk: &Chunk<'_>) -> ReadResult<Signature> {
    let (has_stream, has_precision) = match &chunk.fourcc {
        b"ISGN" | b"OSGN" | b"PCSG" => (false, false),
        b"OSG5" => (true, false),
        b"ISG1" | b"OSG1" | b"PSG1" => (true, true),
        _ => {
            return Err(ReadError::malformed(
                "signature chunk",
                chunk.offset,
                format!("{} is not a signature chunk", chunk.name()),
            ))
        }
    };
    let d = chunk.data;
    let base = chunk.offset;
    let err = |e: ReadError| match e {
        ReadError::Truncated { what, offset, needed, available } => {
            ReadError::Truncated { what, offset: offset + base, needed, available }
        }
        other => other,
    };
    let count = read_u32(d, 0, "signature element count").map_err(err)? as usize;
    let stride = 24 + if has_stream { 4 } else { 0 } + if has_precision { 4 } else { 0 };
    if count.checked_mul(stride).is_none_or(|n| n + 8 > d.len()) {
        return Err(ReadError::malformed(
            "signature",
            base,
            format!("{count} elements of {stride} bytes do not fit in a {}-byte chunk", d.len()),
        ));
    }
    let mut elements = Vec::with_capacity(count);
    for i in 0..count {
        let mut at = 8 + i * stride;
        let stream = if has_stream {
            let s = read_u32(d, at, "signature stream").map_err(err)?;
            at += 4;
            s
        } else {
            0
        };
        let name_off = read_u32(d, at, "semantic name offset").map_err(err)? as usize;
        let semantic_index = read_u32(d, at + 4, "semantic index").map_err(err)?;
        let system_value = read_u32(d, at + 8, "system value").map_err(err)?;
        let component_type = ComponentType::from_u32(read_u32(d, at + 12, "component type").map_err(err)?);
        let register = read_u32(d, at + 16, "register").map_err(err)?;
        let masks = read_u32(d, at + 20, "masks").map_err(err)?;
        let min_precision = if has_precision { read_u32(d, at + 24, "minimum precision").map_err(err)? } else { 0 };
        let semantic_name = read_cstr(d, name_off).ok_or_else(|| {
            ReadError::malformed(
                "semantic name",
                base + at,
                format!("name offset {name_off:#x} is outside the chunk or unterminated"),
            )
        })?;
        elements.push(SignatureElement {
            semantic_name,
            semantic_index,
            system_value,
            component_type,
            register,
            mask: (masks & 0xff) as u8,
            rw_mask: ((masks >> 8) & 0xff) as u8,
            stream,
            min_precision,
        });
    }
    Ok(Signature { elements })
}

/// Reads a NUL-terminated string at `offset` in `data`.
pub(crate) fn read_cstr(data: &[u8], offset: usize) -> Option<String> {
    let rest = data.get(offset..)?;
    let end = rest.iter().position(|&b| b == 0)?;
    Some(String::from_utf8_lossy(&rest[..end]).into_owned())
}
