//! Why a shader is not translated: the one enumerated list of refusal reasons, documented in
//! `docs/compatibility.md`, and the translator's error type.

use crate::error::ReadError;
use std::fmt;

/// A reason to refuse a shader. Each variant is documented in `docs/compatibility.md` with why
/// and what revisiting it would take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum RefusalReason {
    /// Geometry, hull and domain programs: WGSL has no such stages.
    StageUnsupported,
    /// Double-precision operations: WGSL has no `f64`.
    Float64,
    /// An opcode the translator does not lower (yet).
    OpcodeUnsupported,
    /// An operand register type the translator does not lower in this position.
    OperandUnsupported,
    /// A declaration the translator does not lower.
    DeclarationUnsupported,
    /// A system value with no WGSL builtin.
    SystemValueUnsupported,
    /// A resource register outside the binding plan.
    BindingOutOfRange,
    /// A typed `Buffer` SRV whose view format the caller did not supply.
    TypedBufferFormatUnknown,
    /// A typed UAV whose texel format the caller did not supply.
    TypedUavFormatUnknown,
    /// Integer absolute-value source modifier (undefined in D3D for integers).
    IntegerAbsModifier,
    /// Subroutines and interfaces (`fcall`, function tables).
    Interfaces,
    /// Control flow that does not nest (an `endif` without `if`, and so on).
    UnstructuredControlFlow,
    /// A resource or interpolation feature WGSL cannot express.
    ResourceUnsupported,
    /// Something WebGPU lacks entirely.
    WebGpuLimitation,
    /// A `sync` (a WGSL barrier) in control flow WGSL cannot prove uniform across the workgroup:
    /// WGSL rejects such barriers, and no diagnostic filter relaxes that.
    NonUniformBarrier,
    /// A program past the translator's size limits (instructions, immediate-constant-buffer
    /// elements), which bound the memory WGSL compilers need.
    ProgramTooLarge,
}

impl RefusalReason {
    /// Short stable identifier (`snake_case`), used in reports and histograms.
    pub fn id(self) -> &'static str {
        match self {
            RefusalReason::StageUnsupported => "stage_unsupported",
            RefusalReason::Float64 => "float64",
            RefusalReason::OpcodeUnsupported => "opcode_unsupported",
            RefusalReason::OperandUnsupported => "operand_unsupported",
            RefusalReason::DeclarationUnsupported => "declaration_unsupported",
            RefusalReason::SystemValueUnsupported => "system_value_unsupported",
            RefusalReason::BindingOutOfRange => "binding_out_of_range",
            RefusalReason::TypedBufferFormatUnknown => "typed_buffer_format_unknown",
            RefusalReason::TypedUavFormatUnknown => "typed_uav_format_unknown",
            RefusalReason::IntegerAbsModifier => "integer_abs_modifier",
            RefusalReason::Interfaces => "interfaces",
            RefusalReason::UnstructuredControlFlow => "unstructured_control_flow",
            RefusalReason::ResourceUnsupported => "resource_unsupported",
            RefusalReason::WebGpuLimitation => "webgpu_limitation",
            RefusalReason::ProgramTooLarge => "program_too_large",
            RefusalReason::NonUniformBarrier => "nonuniform_barrier",
        }
    }
}

impl fmt::Display for RefusalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A refusal: where in the program, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Refusal {
    /// The reason class.
    pub reason: RefusalReason,
    /// Index of the instruction in the token stream (declarations included), if any.
    pub instruction: Option<usize>,
    /// Byte offset of the instruction from the start of the container, if any.
    pub offset: Option<usize>,
    /// Opcode mnemonic, if any.
    pub opcode: Option<&'static str>,
    /// What the refusal is about, as data, where a caller can act on it (the view whose format
    /// to supply); `None` otherwise.
    pub subject: Option<RefusalSubject>,
    /// Details.
    pub detail: String,
}

/// The thing a [`Refusal`] is about, for callers that act on it without reading its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum RefusalSubject {
    /// A typed view whose format the bytecode does not carry
    /// ([`RefusalReason::TypedBufferFormatUnknown`], [`RefusalReason::TypedUavFormatUnknown`]):
    /// give it with [`crate::TranslateOptions::set_view_format`].
    ViewFormat {
        /// The view's register (`t#` or `u#`, with its space).
        register: crate::BindingSlot,
        /// A typed buffer (`Buffer`/`RWBuffer`: 32-bit formats only) rather than a texture.
        buffer: bool,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unsupported ({})", self.reason)?;
        if let Some(i) = self.instruction {
            write!(f, " at instruction {i}")?;
        }
        if let Some(o) = self.offset {
            write!(f, " (byte offset {o:#x})")?;
        }
        if let Some(op) = self.opcode {
            write!(f, " `{op}`")?;
        }
        write!(f, ": {}", self.detail)
    }
}

/// Error of [`crate::translate`].
#[derive(Debug, Clone, thiserror::Error)]
pub enum TranslateError {
    /// The input could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The shader uses something that cannot be translated exactly.
    #[error("{0}")]
    Unsupported(Refusal),
    /// A translator bug: invalid WGSL or an internal inconsistency.
    #[error("internal error: {0}")]
    Internal(String),
    /// The translation options contradict the shader or each other (a vertex-pulling layout
    /// with two elements for one register, a slot past the primitive stage's).
    #[error("invalid translation options: {0}")]
    InvalidOptions(String),
}

impl TranslateError {
    /// The refusal with what it is about ([`Refusal::subject`]); other errors as they are.
    pub fn with_subject(mut self, subject: RefusalSubject) -> Self {
        if let TranslateError::Unsupported(r) = &mut self {
            r.subject = Some(subject);
        }
        self
    }
}

impl From<Refusal> for TranslateError {
    fn from(r: Refusal) -> Self {
        TranslateError::Unsupported(r)
    }
}
