//! naga validation and WGSL text.

use crate::lower::Lowered;
use crate::refusal::TranslateError;
use crate::Translation;
use naga::valid::{Capabilities, ValidationFlags, Validator};

/// The naga capabilities translated modules may use: what WebGPU's core feature set provides
/// (per-sample interpolation among them), and the optional features reported in
/// `Translation::required_features`.
pub(crate) const WEBGPU_CAPABILITIES: Capabilities = Capabilities::CUBE_ARRAY_TEXTURES
    .union(Capabilities::MULTISAMPLED_SHADING)
    .union(Capabilities::SHADER_FLOAT16_IN_FLOAT32)
    .union(Capabilities::CLIP_DISTANCES)
    .union(Capabilities::PRIMITIVE_INDEX);

/// Validates the lowered module with naga and writes WGSL.
///
/// # Errors
/// [`TranslateError::Internal`] when naga rejects the module (a translator bug).
pub fn finish(l: Lowered) -> Result<Translation, TranslateError> {
    let mut validator = Validator::new(ValidationFlags::all(), WEBGPU_CAPABILITIES);
    let info = validator.validate(&l.module).map_err(|e| {
        TranslateError::Internal(format!("naga rejected the generated module: {}", e.emit_to_string("")))
    })?;
    let body = naga::back::wgsl::write_string(&l.module, &info, naga::back::wgsl::WriterFlags::empty())
        .map_err(|e| TranslateError::Internal(format!("WGSL writer: {e}")))?;
    let mut wgsl = String::with_capacity(body.len() + 256);
    wgsl.push_str(&format!(
        "// Translated by dxbc-wgsl {} from a {} shader (shader model {}.{}).\n",
        crate::TRANSLATOR_VERSION,
        l.stage.name(),
        l.shader_model.0,
        l.shader_model.1
    ));
    if let Some(note) = &l.uniformity_note {
        wgsl.push_str(&format!("// {note}.\ndiagnostic(off, derivative_uniformity);\n"));
    }
    wgsl.push('\n');
    wgsl.push_str(&body);
    // From the interface: naga writes `enable clip_distances;` / `enable primitive_index;`
    // exactly when the entry point uses those builtins.
    let used: Vec<crate::WebGpuFeature> =
        l.inputs.iter().chain(&l.outputs).filter_map(|v| v.builtin?.required_feature()).collect();
    let required_features = crate::WebGpuFeature::ALL.into_iter().filter(|f| used.contains(f)).collect();
    Ok(Translation {
        wgsl,
        stage: l.stage,
        shader_model: l.shader_model,
        entry_point: l.entry_point,
        inputs: l.inputs,
        outputs: l.outputs,
        bindings: l.bindings,
        workgroup_size: l.workgroup_size,
        workgroup_storage_bytes: l.workgroup_storage_bytes,
        derivative_uniformity_off: l.derivative_uniformity_off,
        required_features,
        geometry: l.geometry,
        pipeline_constants: l.pipeline_constants,
        per_primitive: l.per_primitive,
    })
}
