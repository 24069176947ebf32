//! The IR: the decoded program with declarations gathered into an interface description and the
//! body kept as DXBC's own scoped control flow.

use crate::refusal::TranslateError;
use crate::shader::Shader;
use crate::TranslateOptions;

/// IR module (placeholder while the IR is built).
#[derive(Debug, Clone)]
pub struct Module {}

/// Builds the IR from a parsed shader.
pub fn build(_shader: &Shader<'_>, _options: &TranslateOptions) -> Result<Module, TranslateError> {
    Err(TranslateError::Internal("IR builder not implemented".into()))
}

/// Checks IR invariants.
pub fn validate(_m: &Module) -> Result<(), String> {
    Ok(())
}
