//! Typed errors of the reader (container, chunks, token decoder).
//!
//! Every variant carries the byte offset where the problem was found, counted from the start of the
//! buffer the caller handed in (the whole container for container/chunk errors, the start of the
//! container as well for token errors: decoders add their chunk's offset).

/// An error reading a DXBC container, one of its chunks, or the SM4/SM5 token stream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The input ends before a structure that must be there.
    #[error("truncated input: {what} needs {needed} bytes at byte offset {offset}, but only {available} remain")]
    Truncated {
        /// What was being read (e.g. "container header", "chunk table", "operand token").
        what: &'static str,
        /// Byte offset where the structure starts.
        offset: usize,
        /// Bytes needed.
        needed: usize,
        /// Bytes available from `offset`.
        available: usize,
    },
    /// The first four bytes are not `DXBC`.
    #[error("not a DXBC container: expected magic \"DXBC\" at byte offset 0, found {found:02x?}")]
    BadMagic {
        /// The bytes found.
        found: [u8; 4],
    },
    /// The stored checksum differs from the one computed over the container.
    #[error("checksum mismatch: the container header says {stored}, the contents hash to {computed} (a knowingly patched blob is read with `--no-verify-checksum`, `verify_checksum = false` under an effect file's `[effect]`, or `ReadOptions {{ verify_checksum: false }}`)")]
    Checksum {
        /// Stored checksum, as 32 hex digits.
        stored: String,
        /// Computed checksum, as 32 hex digits.
        computed: String,
    },
    /// A structure is present but its contents are invalid.
    #[error("malformed {what} at byte offset {offset}: {reason}")]
    Malformed {
        /// What was being read.
        what: &'static str,
        /// Byte offset of the offending value.
        offset: usize,
        /// Human-readable reason.
        reason: String,
    },
    /// A required chunk is missing.
    #[error("the container has no {0} chunk")]
    MissingChunk(&'static str),
    /// An fxc `/Fh` header could not be read.
    #[error("header {line}:{column}: {reason}")]
    Header {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// Reason.
        reason: String,
    },
}

impl ReadError {
    /// Shorthand for [`ReadError::Malformed`].
    pub fn malformed(what: &'static str, offset: usize, reason: impl Into<String>) -> Self {
        ReadError::Malformed { what, offset, reason: reason.into() }
    }
}

/// Result alias for the reader.
pub type ReadResult<T> = Result<T, ReadError>;
