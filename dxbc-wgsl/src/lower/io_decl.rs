//! Stage I/O: `declare_io`, which checks the signatures' semantic names and declares the inputs
//! (`input_decl.rs`) and the outputs (`output_decl.rs`), and what both sides share — D3D's
//! system-value names, component and interpolation types in naga's and the public interface's
//! terms.

use super::{refuse_decl, Cx};
use crate::chunks::signature::ComponentType;
use crate::ir::Interpolation;
use crate::refusal::{RefusalReason, TranslateError};
use crate::{InterfaceVar, ScalarKind as IfScalar, TranslateOptions};
use naga::ScalarKind;

pub(super) fn kind_of(ct: ComponentType) -> ScalarKind {
    match ct {
        ComponentType::Uint32 => ScalarKind::Uint,
        ComponentType::Sint32 => ScalarKind::Sint,
        _ => ScalarKind::Float,
    }
}

pub(super) fn public_interpolation(
    i: Option<naga::Interpolation>,
    s: Option<naga::Sampling>,
) -> Option<crate::Interpolation> {
    use crate::Interpolation as P;
    use naga::{Interpolation as I, Sampling as S};
    Some(match (i?, s) {
        (I::Flat, _) => P::Flat,
        (I::Perspective, Some(S::Centroid)) => P::PerspectiveCentroid,
        (I::Perspective, Some(S::Sample)) => P::PerspectiveSample,
        (I::Perspective, _) => P::Perspective,
        (I::Linear, Some(S::Centroid)) => P::LinearCentroid,
        (I::Linear, Some(S::Sample)) => P::LinearSample,
        (I::Linear, _) => P::Linear,
        _ => return None,
    })
}

pub(super) fn ir_interpolation(i: crate::Interpolation) -> Interpolation {
    use crate::Interpolation as P;
    match i {
        P::Perspective => Interpolation::Linear,
        P::PerspectiveCentroid => Interpolation::LinearCentroid,
        P::PerspectiveSample => Interpolation::LinearSample,
        P::Linear => Interpolation::LinearNoPerspective,
        P::LinearCentroid => Interpolation::LinearNoPerspectiveCentroid,
        P::LinearSample => Interpolation::LinearNoPerspectiveSample,
        P::Flat => Interpolation::Constant,
    }
}

pub(super) fn if_scalar(k: ScalarKind) -> IfScalar {
    match k {
        ScalarKind::Uint => IfScalar::Uint,
        ScalarKind::Sint => IfScalar::Sint,
        _ => IfScalar::Float,
    }
}

pub(super) fn interpolation(
    kind: ScalarKind,
    mode: Interpolation,
) -> (Option<naga::Interpolation>, Option<naga::Sampling>) {
    use naga::{Interpolation as I, Sampling as S};
    if kind != ScalarKind::Float {
        return (Some(I::Flat), None);
    }
    match mode {
        Interpolation::Constant => (Some(I::Flat), None),
        Interpolation::Undefined | Interpolation::Linear => (Some(I::Perspective), Some(S::Center)),
        Interpolation::LinearCentroid => (Some(I::Perspective), Some(S::Centroid)),
        Interpolation::LinearNoPerspective => (Some(I::Linear), Some(S::Center)),
        Interpolation::LinearNoPerspectiveCentroid => (Some(I::Linear), Some(S::Centroid)),
        Interpolation::LinearSample => (Some(I::Perspective), Some(S::Sample)),
        Interpolation::LinearNoPerspectiveSample => (Some(I::Linear), Some(S::Sample)),
    }
}

/// D3D system-value names (`D3D10_SB_NAME`).
pub(super) mod sv {
    pub const POSITION: u32 = 1;
    pub const CLIP_DISTANCE: u32 = 2;
    pub const CULL_DISTANCE: u32 = 3;
    pub const RENDER_TARGET_ARRAY_INDEX: u32 = 4;
    pub const VIEWPORT_ARRAY_INDEX: u32 = 5;
    pub const VERTEX_ID: u32 = 6;
    pub const PRIMITIVE_ID: u32 = 7;
    pub const INSTANCE_ID: u32 = 8;
    pub const IS_FRONT_FACE: u32 = 9;
    pub const SAMPLE_INDEX: u32 = 10;
}

/// The HLSL semantic of a system value (`D3D_NAME`), for messages: `SV_RenderTargetArrayIndex`,
/// or the number when it has none.
pub(super) fn sv_semantic(v: u32) -> String {
    let s = match v {
        1 => "SV_Position",
        2 => "SV_ClipDistance",
        3 => "SV_CullDistance",
        4 => "SV_RenderTargetArrayIndex",
        5 => "SV_ViewportArrayIndex",
        6 => "SV_VertexID",
        7 => "SV_PrimitiveID",
        8 => "SV_InstanceID",
        9 => "SV_IsFrontFace",
        10 => "SV_SampleIndex",
        11 | 13 | 15 | 16 => "SV_TessFactor",
        12 | 14 => "SV_InsideTessFactor",
        17 => "SV_Barycentrics",
        18 => "SV_ShadingRate",
        19 => "SV_CullPrimitive",
        _ => return format!("{v} (D3D_NAME)"),
    };
    format!("{s} ({v})")
}

impl Cx<'_, '_> {
    /// Declares entry-point arguments (inputs) and the output struct; returns the interface.
    pub(super) fn declare_io(
        &mut self,
        options: &TranslateOptions,
    ) -> Result<(Vec<InterfaceVar>, Vec<InterfaceVar>), TranslateError> {
        self.check_semantic_names()?;
        let in_vars = self.declare_inputs()?;
        let out_vars = self.declare_outputs(options)?;
        Ok((in_vars, out_vars))
    }

    /// Refuses a signature element whose semantic name is not an HLSL identifier.
    fn check_semantic_names(&self) -> Result<(), TranslateError> {
        let m = self.m;
        // Semantic names are HLSL identifiers; anything else (control characters, code) is a
        // hostile blob, and the names travel on into generated code and reports.
        for e in m.input_signature.elements.iter().chain(&m.output_signature.elements) {
            let ok = !e.semantic_name.is_empty()
                && e.semantic_name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !e.semantic_name.starts_with(|c: char| c.is_ascii_digit());
            if !ok {
                let at = m.program.instructions.iter().position(|i| i.opcode.is_declaration()).unwrap_or(0);
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::OperandUnsupported,
                    format!("signature semantic name {:?} is not an HLSL identifier", e.semantic_name),
                ));
            }
        }
        Ok(())
    }
}
