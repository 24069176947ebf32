//! naga validation and WGSL text.

use crate::lower::Lowered;
use crate::refusal::TranslateError;
use crate::Translation;

/// Validates the lowered module and writes WGSL.
pub fn finish(_l: Lowered) -> Result<Translation, TranslateError> {
    Err(TranslateError::Internal("emitter not implemented".into()))
}
