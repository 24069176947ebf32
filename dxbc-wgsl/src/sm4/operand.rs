//! Operand tokens (D3D11.3 §22.3 "Operand token format").
//!
//! Bits of the operand token: 0–1 component count (0, 1, 4, N), 2–3 selection mode (mask,
//! swizzle, select-1), 4–11 the mask/swizzle/select bits, 12–19 register type, 20–21 index
//! dimension, 22–30 three 3-bit index representations, 31 extended. An extended operand token
//! carries a modifier (neg/abs), a minimum precision and the non-uniform flag.

/// Register type of an operand (`D3D10_SB_OPERAND_TYPE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum OperandType {
    Temp,
    Input,
    Output,
    IndexableTemp,
    Immediate32,
    Immediate64,
    Sampler,
    Resource,
    ConstantBuffer,
    ImmediateConstantBuffer,
    Label,
    InputPrimitiveId,
    OutputDepth,
    Null,
    Rasterizer,
    OutputCoverageMask,
    Stream,
    FunctionBody,
    FunctionTable,
    Interface,
    FunctionInput,
    FunctionOutput,
    OutputControlPointId,
    InputForkInstanceId,
    InputJoinInstanceId,
    InputControlPoint,
    OutputControlPoint,
    InputPatchConstant,
    InputDomainPoint,
    ThisPointer,
    UnorderedAccessView,
    ThreadGroupSharedMemory,
    InputThreadId,
    InputThreadGroupId,
    InputThreadIdInGroup,
    InputCoverageMask,
    InputThreadIdInGroupFlattened,
    InputGsInstanceId,
    OutputDepthGreaterEqual,
    OutputDepthLessEqual,
    CycleCounter,
    OutputStencilRef,
    InnerCoverage,
}

impl OperandType {
    /// From the 8-bit register type field.
    pub fn from_u32(v: u32) -> Option<Self> {
        use OperandType::*;
        const ALL: [OperandType; 43] = [
            Temp,
            Input,
            Output,
            IndexableTemp,
            Immediate32,
            Immediate64,
            Sampler,
            Resource,
            ConstantBuffer,
            ImmediateConstantBuffer,
            Label,
            InputPrimitiveId,
            OutputDepth,
            Null,
            Rasterizer,
            OutputCoverageMask,
            Stream,
            FunctionBody,
            FunctionTable,
            Interface,
            FunctionInput,
            FunctionOutput,
            OutputControlPointId,
            InputForkInstanceId,
            InputJoinInstanceId,
            InputControlPoint,
            OutputControlPoint,
            InputPatchConstant,
            InputDomainPoint,
            ThisPointer,
            UnorderedAccessView,
            ThreadGroupSharedMemory,
            InputThreadId,
            InputThreadGroupId,
            InputThreadIdInGroup,
            InputCoverageMask,
            InputThreadIdInGroupFlattened,
            InputGsInstanceId,
            OutputDepthGreaterEqual,
            OutputDepthLessEqual,
            CycleCounter,
            OutputStencilRef,
            InnerCoverage,
        ];
        ALL.get(v as usize).copied()
    }
}

/// How a 4-component operand selects components.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComponentSelect {
    /// Operand has no components (e.g. `null`, some declarations' registers).
    None,
    /// Operand has one component (scalars such as `vCoverage`, immediates `l(1.0)`).
    Scalar,
    /// Write mask (bit 0 = x); 0 in a declaration means "all".
    Mask(u8),
    /// Swizzle: source component for each of x, y, z, w.
    Swizzle([u8; 4]),
    /// One component.
    Select1(u8),
}

impl ComponentSelect {
    /// The swizzle a source read uses: a mask reads its components in place, a select-1
    /// replicates.
    pub fn swizzle(&self) -> [u8; 4] {
        match *self {
            ComponentSelect::Swizzle(s) => s,
            ComponentSelect::Select1(c) => [c; 4],
            ComponentSelect::Mask(_) | ComponentSelect::None | ComponentSelect::Scalar => [0, 1, 2, 3],
        }
    }
    /// Write mask of a destination (all four when not a mask).
    pub fn mask(&self) -> u8 {
        match *self {
            ComponentSelect::Mask(m) => m,
            ComponentSelect::Scalar => 1,
            _ => 0xf,
        }
    }
}

/// Source modifier from an extended operand token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Modifier {
    /// None.
    #[default]
    None,
    /// `-x`
    Neg,
    /// `|x|`
    Abs,
    /// `-|x|`
    AbsNeg,
}

/// One index of an operand.
#[derive(Debug, Clone, PartialEq)]
pub enum Index {
    /// Immediate 32-bit index.
    Imm(u32),
    /// Immediate 64-bit index (never produced by fxc).
    Imm64(u64),
    /// `base + register`, where the register is a scalar-selected operand (e.g. `r0.x`).
    Relative {
        /// Immediate part (0 for a purely relative index).
        base: u32,
        /// The register supplying the variable part.
        reg: Box<Operand>,
    },
}

impl Index {
    /// The immediate part.
    pub fn imm(&self) -> u32 {
        match self {
            Index::Imm(v) => *v,
            Index::Imm64(v) => *v as u32,
            Index::Relative { base, .. } => *base,
        }
    }
    /// Whether a register takes part.
    pub fn is_relative(&self) -> bool {
        matches!(self, Index::Relative { .. })
    }
}

impl Default for Index {
    fn default() -> Self {
        Index::Imm(0)
    }
}

/// A vector of at most `N` items stored inline (operands have at most 3 indices and 4
/// immediate words, and decoding them must not allocate). Dereferences to a slice, so
/// `ops.indices[0]`, `.len()`, `.iter()`, `.first()`, `.get(i)` work as on a `Vec`.
#[derive(Clone)]
pub struct InlineVec<T, const N: usize> {
    items: [T; N],
    len: u8,
}

/// The indices of an operand (0–3).
pub type Indices = InlineVec<Index, 3>;
/// The immediate words of an operand (0–4).
pub type Immediates = InlineVec<u32, 4>;

impl<T: Default, const N: usize> InlineVec<T, N> {
    /// An empty vector.
    pub fn new() -> Self {
        InlineVec { items: std::array::from_fn(|_| T::default()), len: 0 }
    }
}

impl<T, const N: usize> InlineVec<T, N> {
    /// Appends an item; gives it back when all `N` places are taken.
    pub fn try_push(&mut self, item: T) -> Result<(), T> {
        match self.items.get_mut(self.len as usize) {
            Some(slot) => {
                *slot = item;
                self.len += 1;
                Ok(())
            }
            None => Err(item),
        }
    }
    /// The capacity `N`.
    pub const CAPACITY: usize = N;
}

impl<T: Default, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, const N: usize> std::ops::Deref for InlineVec<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
}

impl<T, const N: usize> std::ops::DerefMut for InlineVec<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }
}

impl<T: PartialEq, const N: usize> PartialEq for InlineVec<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: std::fmt::Debug, const N: usize> std::fmt::Debug for InlineVec<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a InlineVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Collects at most `N` items.
///
/// # Panics
/// When the iterator yields more than `N` items (a programming error: operands never have more
/// than 3 indices or 4 immediate words).
impl<T: Default, const N: usize> FromIterator<T> for InlineVec<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        for item in iter {
            assert!(v.try_push(item).is_ok(), "InlineVec: more than {N} items");
        }
        v
    }
}

impl<T: Default, const N: usize> From<Vec<T>> for InlineVec<T, N> {
    /// # Panics
    /// When the vector holds more than `N` items.
    fn from(v: Vec<T>) -> Self {
        v.into_iter().collect()
    }
}

/// A decoded operand.
#[derive(Debug, Clone, PartialEq)]
pub struct Operand {
    /// Register type.
    pub ty: OperandType,
    /// Raw register-type number (kept for unknown types in diagnostics).
    pub raw_type: u32,
    /// Component selection.
    pub select: ComponentSelect,
    /// Indices (0–3), stored inline.
    pub indices: Indices,
    /// Source modifier.
    pub modifier: Modifier,
    /// Minimum precision (extended operand token bits 14–16; 0 = default).
    pub min_precision: u8,
    /// `nonuniform` (SM5.1 resource indexing).
    pub nonuniform: bool,
    /// Immediate values: 1 or 4 words for `Immediate32`, 2 or 4 words (pairs) for `Immediate64`;
    /// stored inline.
    pub imm: Immediates,
}

impl Operand {
    /// The first index's immediate part (the register number), or 0.
    pub fn reg(&self) -> u32 {
        self.indices.first().map(Index::imm).unwrap_or(0)
    }
}
