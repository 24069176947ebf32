//! The binding plan: a fixed mapping from a D3D register `(stage, class, slot, space)` to a WGSL
//! `(group, binding)`.
//!
//! D3D binds resources per stage (`VSSetConstantBuffers` and `PSSetConstantBuffers` are separate
//! tables), so the plan keeps one bind group per stage and never lets the stages of one pass
//! collide:
//!
//! | stage | group |
//! |---|---|
//! | vertex, compute | 0 |
//! | pixel | 1 |
//! | geometry | 2 |
//! | hull / domain | 3 |
//!
//! Inside a group, each register class owns a fixed range of binding numbers (see
//! [`BindingClass::base`]), repeated per register space (SM5.1) every [`SPACE_STRIDE`] bindings:
//!
//! | class | D3D register | bindings (space 0) |
//! |---|---|---|
//! | constant buffer | `b0`–`b13` | 0–13 |
//! | sampler | `s0`–`s15` | 16–31 |
//! | shader resource view | `t0`–`t127` | 32–159 |
//! | unordered access view | `u0`–`u63` | 160–223 |
//!
//! A register outside these ranges, or a space past [`MAX_SPACE`], is refused
//! ([`crate::RefusalReason::BindingOutOfRange`]).
//!
//! A structured UAV's hidden counter (append/consume buffers, `imm_atomic_alloc`,
//! `imm_atomic_consume`) is a binding of its own, a `var<storage, read_write>` word
//! ([`ResourceKind::UavCounter`]), after the spaces' ranges: `u#`'s counter at
//! [`COUNTER_BASE`]` + #` (896–959), space 0 only ([`plan_counter`]). Documented in
//! `docs/binding-model.md`.

use crate::ShaderStage;

pub use dxbc_wgsl_contract::bindings::{BindingClass, COUNTER_BASE, MAX_SPACE, SPACE_STRIDE};
use dxbc_wgsl_contract::bindings::{GEOMETRY_GROUP, HULL_DOMAIN_GROUP, PIXEL_GROUP, VERTEX_GROUP};

/// A D3D register, as a shader names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BindingSlot {
    /// Register class.
    pub class: BindingClass,
    /// Register number (`3` for `t3`); for an element of an SM5.1 resource array (`T0[3]` of
    /// `T0[2:5]`), that element's register.
    pub slot: u32,
    /// Register space (0 before SM5.1).
    pub space: u32,
}

impl std::fmt::Display for BindingSlot {
    /// `t3`, or `u1, space2` outside space 0 (HLSL's `register(...)` spelling).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.class.letter(), self.slot)?;
        if self.space != 0 {
            write!(f, ", space{}", self.space)?;
        }
        Ok(())
    }
}

/// The view dimension of a texture binding, as WGSL names it (`texture_2d_array`: `D2Array`).
///
/// D3D's 1D textures and 1D texture arrays are bound as 2D textures of height 1
/// ([`ViewDimension::D1AsD2`], [`ViewDimension::D1ArrayAsD2Array`]): WebGPU's 1D textures have
/// one mip level and no arrays. The caller creates a 2D texture of height 1 with the D3D mip
/// chain (one array layer per D3D array slice) and binds a `2d` (`2d_array`) view of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ViewDimension {
    /// `1d`. The translator does not produce it (a D3D `Texture1D` is [`ViewDimension::D1AsD2`]).
    #[cfg_attr(feature = "serde", serde(rename = "1d"))]
    D1,
    /// A D3D `Texture1D` (`RWTexture1D`) as WGSL `texture_2d` (`texture_storage_2d`): bound as
    /// a `2d` view of a 2D texture of height 1 with the D3D mip chain.
    #[cfg_attr(feature = "serde", serde(rename = "1d_as_2d"))]
    D1AsD2,
    /// A D3D `Texture1DArray` (`RWTexture1DArray`) as WGSL `texture_2d_array`
    /// (`texture_storage_2d_array`): bound as a `2d_array` view of a 2D texture of height 1, one
    /// array layer per D3D array slice, with the D3D mip chain.
    #[cfg_attr(feature = "serde", serde(rename = "1d_array_as_2d_array"))]
    D1ArrayAsD2Array,
    /// `2d`.
    #[cfg_attr(feature = "serde", serde(rename = "2d"))]
    D2,
    /// `2d_array`.
    #[cfg_attr(feature = "serde", serde(rename = "2d_array"))]
    D2Array,
    /// `cube`.
    #[cfg_attr(feature = "serde", serde(rename = "cube"))]
    Cube,
    /// `cube_array`.
    #[cfg_attr(feature = "serde", serde(rename = "cube_array"))]
    CubeArray,
    /// `3d`.
    #[cfg_attr(feature = "serde", serde(rename = "3d"))]
    D3,
}

impl ViewDimension {
    /// WGSL's spelling inside a texture type name: `1d`, `2d`, `2d_array`, `cube`,
    /// `cube_array`, `3d` (`2d` and `2d_array` for D3D's 1D textures bound as 2D ones).
    pub const fn wgsl_name(self) -> &'static str {
        match self {
            ViewDimension::D1 => "1d",
            ViewDimension::D2 | ViewDimension::D1AsD2 => "2d",
            ViewDimension::D2Array | ViewDimension::D1ArrayAsD2Array => "2d_array",
            ViewDimension::Cube => "cube",
            ViewDimension::CubeArray => "cube_array",
            ViewDimension::D3 => "3d",
        }
    }
}

impl ViewDimension {
    /// The view the caller creates when it differs from the D3D resource's own dimension: for
    /// D3D's 1D textures, what texture and view stand for them.
    pub const fn caller_view(self) -> Option<&'static str> {
        match self {
            ViewDimension::D1AsD2 => Some("a D3D Texture1D: a 2D texture of height 1 with the D3D mip chain, `D2` view"),
            ViewDimension::D1ArrayAsD2Array => Some(
                "a D3D Texture1DArray: a 2D texture of height 1, one layer per D3D array slice, with the D3D mip chain, `D2Array` view",
            ),
            _ => None,
        }
    }
}

impl std::fmt::Display for ViewDimension {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.wgsl_name())
    }
}

/// Bind group of a stage in the plan.
pub const fn group_of(stage: ShaderStage) -> u32 {
    match stage {
        ShaderStage::Vertex | ShaderStage::Compute => VERTEX_GROUP,
        ShaderStage::Pixel => PIXEL_GROUP,
        ShaderStage::Geometry => GEOMETRY_GROUP,
        ShaderStage::Hull | ShaderStage::Domain => HULL_DOMAIN_GROUP,
    }
}

/// `(group, binding)` of a D3D register, or `None` when the plan has no room for it.
pub fn plan(stage: ShaderStage, slot: BindingSlot) -> Option<(u32, u32)> {
    Some((group_of(stage), slot.class.binding(slot.slot, slot.space)?))
}

/// `(group, binding)` of UAV `u#`'s hidden counter, or `None` outside space 0 or past `u63`.
pub fn plan_counter(stage: ShaderStage, uav: BindingSlot) -> Option<(u32, u32)> {
    let class = BindingClass::UnorderedAccess;
    if uav.class != class || uav.space != 0 || uav.slot >= class.slots() {
        return None;
    }
    Some((group_of(stage), COUNTER_BASE + uav.slot))
}

/// What a binding holds, in WGSL terms.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case", tag = "type")
)]
pub enum ResourceKind {
    /// A uniform buffer of `size_bytes` bytes (D3D declares it in 16-byte registers).
    UniformBuffer {
        /// Declared size in bytes (registers × 16).
        size_bytes: u32,
    },
    /// A filtering or non-filtering sampler.
    Sampler {
        /// `true` for a comparison sampler (`sample_c`).
        comparison: bool,
    },
    /// A sampled texture.
    Texture {
        /// View dimension.
        dimension: ViewDimension,
        /// Sample type: float, sint, uint, depth.
        sample: TextureSample,
        /// Multisampled.
        multisampled: bool,
    },
    /// A storage buffer (raw/structured SRV or UAV), bound read-only or read-write.
    StorageBuffer {
        /// Read-only (SRV) or read-write (UAV).
        read_only: bool,
    },
    /// A storage texture (typed UAV).
    StorageTexture {
        /// View dimension (2D, 2D array or 3D; D3D's 1D and 1D arrays as 2D ones of height 1).
        dimension: ViewDimension,
        /// Texel format.
        format: crate::TexelFormat,
        /// Whether the shader also reads it (`read_write` access); otherwise it only writes
        /// (`write` access).
        read_write: bool,
    },
    /// The hidden counter of a structured UAV (its `register`): `var<storage, read_write>
    /// u#_counter: atomic<u32>`, a buffer of at least 4 bytes whose first word is the count.
    /// D3D sets the count when the view is bound (`UAVInitialCounts`): the caller writes it
    /// into the buffer before the pass, and copies it out where D3D copies it
    /// (`CopyStructureCount`: 4 bytes from offset 0).
    UavCounter,
}

/// Sample type of a sampled texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum TextureSample {
    /// `texture_*<f32>` used with filtering samplers.
    Float,
    /// `texture_*<f32>` that must be bound as unfilterable (only `textureLoad`ed).
    UnfilterableFloat,
    /// `texture_*<i32>`.
    Sint,
    /// `texture_*<u32>`.
    Uint,
    /// `texture_depth_*`.
    Depth,
}

/// One resource a translated shader binds.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ResourceBinding {
    /// The D3D register it was declared at (for a [`ResourceKind::UavCounter`], the UAV's: a
    /// shader's bindings are unique by `binding`, not by register).
    pub register: BindingSlot,
    /// WGSL `@group`.
    pub group: u32,
    /// WGSL `@binding`.
    pub binding: u32,
    /// What it holds.
    pub kind: ResourceKind,
    /// Name of the WGSL global.
    pub name: String,
}
