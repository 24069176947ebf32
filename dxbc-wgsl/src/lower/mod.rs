//! IR → naga module.

use crate::ir::Module;
use crate::refusal::TranslateError;
use crate::TranslateOptions;

/// Output of lowering (placeholder).
#[derive(Debug)]
pub struct Lowered {}

/// Lowers an IR module to a naga module.
pub fn lower(_m: &Module, _options: &TranslateOptions) -> Result<Lowered, TranslateError> {
    Err(TranslateError::Internal("lowering not implemented".into()))
}
