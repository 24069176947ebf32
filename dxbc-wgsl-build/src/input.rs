//! Bounded reading of input files (effect files, shader inputs, the `Cargo.lock` the wgpu check
//! reads): a leaf module every other module may use.

use std::path::Path;

/// The most bytes a shader input (or an effect file) may hold: real ones hold kilobytes.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Reads `path`, at most `limit` bytes: a longer file, or a device or pipe that does not end
/// (`/dev/zero`), is an error ([`std::io::ErrorKind::FileTooLarge`]) instead of an allocation
/// without bound. Pipes and process substitutions (`<(...)`) are read like files.
///
/// # Errors
/// What opening or reading `path` gives, or `FileTooLarge`.
pub fn read_limited(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let too_large = || std::io::Error::new(std::io::ErrorKind::FileTooLarge, format!("more than {limit} bytes"));
    let file = std::fs::File::open(path)?;
    // A regular file says its size: no need to read past the limit to know.
    if file.metadata().is_ok_and(|m| m.is_file() && m.len() > limit) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}
