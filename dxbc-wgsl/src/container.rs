//! The DXBC container: header, chunk table and checksum.
//!
//! Layout (little endian): `"DXBC"`, 16-byte checksum, `u16` major + `u16` minor version (1.0),
//! `u32` total size, `u32` chunk count, then one `u32` offset per chunk. Each chunk starts with
//! its FourCC and `u32` data size, followed by the data.
//!
//! The checksum is MD5 over bytes `20..size` with DXBC's own final-block layout (see
//! [`checksum`]).

use crate::error::{ReadError, ReadResult};

/// Options for reading a container.
#[derive(Debug, Clone, Copy)]
pub struct ReadOptions {
    /// Verify the container checksum (default `true`).
    pub verify_checksum: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions { verify_checksum: true }
    }
}

/// One chunk of a container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// FourCC, e.g. `*b"SHDR"`.
    pub fourcc: [u8; 4],
    /// Byte offset of the chunk's data (after its 8-byte header) from the start of the container.
    pub offset: usize,
    /// The chunk's data.
    pub data: &'a [u8],
}

impl Chunk<'_> {
    /// FourCC as text (non-ASCII bytes shown as `?`).
    pub fn name(&self) -> String {
        self.fourcc.iter().map(|&b| if b.is_ascii_graphic() { b as char } else { '?' }).collect()
    }
}

/// A parsed DXBC container. Chunks borrow from the input.
#[derive(Debug, Clone)]
pub struct Container<'a> {
    /// The container bytes (exactly `total_size` long).
    pub bytes: &'a [u8],
    /// Stored checksum.
    pub checksum: [u8; 16],
    /// Container version `(major, minor)`.
    pub version: (u16, u16),
    /// Chunks in table order, unknown ones included.
    pub chunks: Vec<Chunk<'a>>,
}

pub(crate) fn read_u32(bytes: &[u8], offset: usize, what: &'static str) -> ReadResult<u32> {
    match bytes.get(offset..offset.saturating_add(4)) {
        Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        None => Err(ReadError::Truncated { what, offset, needed: 4, available: bytes.len().saturating_sub(offset) }),
    }
}

impl<'a> Container<'a> {
    /// Parses a container.
    ///
    /// # Errors
    /// [`ReadError::BadMagic`], [`ReadError::Truncated`], [`ReadError::Malformed`] (sizes or
    /// offsets out of range, overlapping the table), [`ReadError::Checksum`] when
    /// `options.verify_checksum` is set and the checksum does not match.
    pub fn parse(bytes: &'a [u8], options: &ReadOptions) -> ReadResult<Self> {
        if bytes.len() < 32 {
            if bytes.len() >= 4 && &bytes[0..4] != b"DXBC" {
                return Err(ReadError::BadMagic { found: [bytes[0], bytes[1], bytes[2], bytes[3]] });
            }
            return Err(ReadError::Truncated {
                what: "container header",
                offset: 0,
                needed: 32,
                available: bytes.len(),
            });
        }
        if &bytes[0..4] != b"DXBC" {
            return Err(ReadError::BadMagic { found: [bytes[0], bytes[1], bytes[2], bytes[3]] });
        }
        let mut checksum = [0u8; 16];
        checksum.copy_from_slice(&bytes[4..20]);
        let major = u16::from_le_bytes([bytes[20], bytes[21]]);
        let minor = u16::from_le_bytes([bytes[22], bytes[23]]);
        let total = read_u32(bytes, 24, "container size")? as usize;
        if total > bytes.len() {
            return Err(ReadError::Truncated {
                what: "container (size from header)",
                offset: 0,
                needed: total,
                available: bytes.len(),
            });
        }
        if total < 32 {
            return Err(ReadError::malformed(
                "container header",
                24,
                format!("total size {total} is smaller than the 32-byte header"),
            ));
        }
        let bytes = &bytes[..total];
        let count = read_u32(bytes, 28, "chunk count")? as usize;
        let table_end =
            count.checked_mul(4).and_then(|n| n.checked_add(32)).filter(|&end| end <= total).ok_or_else(|| {
                ReadError::malformed(
                    "chunk table",
                    28,
                    format!("{count} chunks do not fit in a {total}-byte container"),
                )
            })?;
        if options.verify_checksum {
            let computed = checksum_of(bytes);
            if computed != checksum {
                return Err(ReadError::Checksum { stored: hex(&checksum), computed: hex(&computed) });
            }
        }
        let mut chunks = Vec::with_capacity(count);
        for i in 0..count {
            let at = 32 + 4 * i;
            let off = read_u32(bytes, at, "chunk offset")? as usize;
            if off < table_end || off.checked_add(8).is_none_or(|e| e > total) {
                return Err(ReadError::malformed(
                    "chunk table",
                    at,
                    format!(
                        "chunk {i} offset {off:#x} is outside the container's chunk area ({table_end:#x}..{total:#x})"
                    ),
                ));
            }
            let mut fourcc = [0u8; 4];
            fourcc.copy_from_slice(&bytes[off..off + 4]);
            let size = read_u32(bytes, off + 4, "chunk size")? as usize;
            let data_start = off + 8;
            let data_end = data_start.checked_add(size).filter(|&e| e <= total).ok_or_else(|| {
                ReadError::malformed(
                    "chunk header",
                    off + 4,
                    format!("chunk {i} size {size} runs past the container end ({total} bytes)"),
                )
            })?;
            chunks.push(Chunk { fourcc, offset: data_start, data: &bytes[data_start..data_end] });
        }
        Ok(Container { bytes, checksum, version: (major, minor), chunks })
    }

    /// The first chunk with this FourCC.
    pub fn chunk(&self, fourcc: &[u8; 4]) -> Option<&Chunk<'a>> {
        self.chunks.iter().find(|c| &c.fourcc == fourcc)
    }

    /// The shader program chunk (`SHEX`, or `SHDR`).
    pub fn program_chunk(&self) -> Option<&Chunk<'a>> {
        self.chunk(b"SHEX").or_else(|| self.chunk(b"SHDR"))
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Computes the DXBC checksum of a whole container (the checksum field itself is skipped).
///
/// DXBC uses MD5's compression function over bytes `20..len` but lays the final block out its
/// own way: with `bits = 8 * (len - 20)`, when fewer than 56 bytes remain the last block is
/// `bits` (u32) + the remaining bytes + `0x80` + zeros + `(bits >> 2) | 1` in its last word;
/// otherwise the remaining bytes are padded with `0x80` and zeros into one block, followed by a
/// block holding `bits` first and `(bits >> 2) | 1` last.
pub fn checksum_of(container: &[u8]) -> [u8; 16] {
    let data = container.get(20..).unwrap_or(&[]);
    let bits = (data.len() as u32).wrapping_mul(8);
    let mut state: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    let full = data.len() / 64;
    for block in data.chunks_exact(64) {
        md5_compress(&mut state, block);
    }
    let rest = &data[full * 64..];
    let tail = ((bits >> 2) | 1).to_le_bytes();
    if rest.len() >= 56 {
        let mut b = [0u8; 64];
        b[..rest.len()].copy_from_slice(rest);
        b[rest.len()] = 0x80;
        md5_compress(&mut state, &b);
        let mut last = [0u8; 64];
        last[0..4].copy_from_slice(&bits.to_le_bytes());
        last[60..64].copy_from_slice(&tail);
        md5_compress(&mut state, &last);
    } else {
        let mut b = [0u8; 64];
        b[0..4].copy_from_slice(&bits.to_le_bytes());
        b[4..4 + rest.len()].copy_from_slice(rest);
        b[4 + rest.len()] = 0x80;
        b[60..64].copy_from_slice(&tail);
        md5_compress(&mut state, &b);
    }
    let mut out = [0u8; 16];
    for (i, w) in state.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// Builds a container from chunks (FourCC and data), with a correct checksum. The inverse of
/// [`Container::parse`]; used by tools that patch blobs and by tests that assemble programs.
pub fn assemble(chunks: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let header = 32 + 4 * chunks.len();
    let total = header + chunks.iter().map(|(_, d)| 8 + d.len()).sum::<usize>();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"DXBC");
    out.extend_from_slice(&[0; 16]);
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    let mut at = header;
    for (_, d) in chunks {
        out.extend_from_slice(&(at as u32).to_le_bytes());
        at += 8 + d.len();
    }
    for (fourcc, d) in chunks {
        out.extend_from_slice(fourcc);
        out.extend_from_slice(&(d.len() as u32).to_le_bytes());
        out.extend_from_slice(d);
    }
    fix_checksum(&mut out);
    out
}

/// Writes a correct checksum into a container buffer in place (for tools that patch blobs and
/// for tests that mutate them).
pub fn fix_checksum(container: &mut [u8]) {
    if container.len() >= 20 {
        let sum = checksum_of(container);
        container[4..20].copy_from_slice(&sum);
    }
}

/// MD5's compression function (RFC 1321 §3.4) over one 64-byte block (`block.len() == 64`).
fn md5_compress(state: &mut [u32; 4], block: &[u8]) {
    const S: [u32; 64] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14,
        20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6,
        10, 15, 21,
    ];
    // K[i] = floor(abs(sin(i + 1)) * 2^32)
    const K: [u32; 64] = [
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8,
        0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
        0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87,
        0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
        0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039,
        0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
        0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
        0xeb86d391,
    ];
    let mut m = [0u32; 16];
    for (w, b) in m.iter_mut().zip(block.chunks_exact(4)) {
        *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    #[inline(always)]
    fn step(f: u32, a: u32, b: u32, m: u32, k: u32, s: u32) -> u32 {
        b.wrapping_add(a.wrapping_add(f).wrapping_add(k).wrapping_add(m).rotate_left(s))
    }
    let f = |b: u32, c: u32, d: u32| d ^ (b & (c ^ d));
    let g = |b: u32, c: u32, d: u32| c ^ (d & (b ^ c));
    let h = |b: u32, c: u32, d: u32| b ^ c ^ d;
    let ii = |b: u32, c: u32, d: u32| c ^ (b | !d);
    let [mut a, mut b, mut c, mut d] = *state;
    // Four steps per iteration rotate the roles of a, b, c, d back to where they started.
    macro_rules! round {
        ($fun:ident, $first:expr, $index:expr) => {
            let mut i = $first;
            while i < $first + 16 {
                a = step($fun(b, c, d), a, b, m[$index(i)], K[i], S[i]);
                d = step($fun(a, b, c), d, a, m[$index(i + 1)], K[i + 1], S[i + 1]);
                c = step($fun(d, a, b), c, d, m[$index(i + 2)], K[i + 2], S[i + 2]);
                b = step($fun(c, d, a), b, c, m[$index(i + 3)], K[i + 3], S[i + 3]);
                i += 4;
            }
        };
    }
    round!(f, 0, |i: usize| i);
    round!(g, 16, |i: usize| (5 * i + 1) % 16);
    round!(h, 32, |i: usize| (3 * i + 5) % 16);
    round!(ii, 48, |i: usize| (7 * i) % 16);
    state[0] = state[0].wrapping_add(a);
    state[1] = state[1].wrapping_add(b);
    state[2] = state[2].wrapping_add(c);
    state[3] = state[3].wrapping_add(d);
}
