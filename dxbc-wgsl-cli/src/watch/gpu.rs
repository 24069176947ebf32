//! `watch --gpu` (feature `gpu`): the watcher validates through
//! [`GpuValidator`](dxbc_wgsl_gpu::gpu_validate::GpuValidator), which creates every shader module and
//! every pass × permutation's render pipeline (or compute pipeline) with exactly the generated
//! code's bind group layouts, vertex buffer layout and render states, on one device kept for the
//! whole session (modules cached by WGSL, pipeline verdicts by descriptor; the pipelines of an
//! effect are created on every core).

use super::Validate;
use dxbc_wgsl_build::compile::CompiledEffect;
pub use dxbc_wgsl_gpu::gpu_validate::GpuValidator;
use dxbc_wgsl_gpu::gpu_validate::Severity;

impl Validate for GpuValidator {
    fn describe(&self) -> String {
        format!("GPU: {}", self.adapter_summary())
    }

    /// Every problem, as `effect.toml:line:column: effect X, pass `p`, permutation ... (VS + PS):
    /// GPU error: ...`. A pipeline that needs a feature the adapter lacks is not an issue.
    fn effect(&mut self, compiled: &CompiledEffect) -> Vec<String> {
        self.validate_effect(compiled)
            .into_iter()
            .filter(|i| i.severity != Severity::MissingFeature)
            .map(|i| i.to_string())
            .collect()
    }

    fn shader(&mut self, translation: &dxbc_wgsl::Translation) -> Result<(), String> {
        match self.check_shader(translation).into_iter().find(|p| p.severity != Severity::MissingFeature) {
            None => Ok(()),
            Some(p) => Err(format!("GPU {p}")),
        }
    }
}
