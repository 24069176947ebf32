//! The binding plan's fixed numbers: the bind group of each stage's resources, and inside it
//! the binding range of each D3D register class, repeated per register space (SM5.1).
//!
//! D3D binds resources per stage (`VSSetConstantBuffers` and `PSSetConstantBuffers` are separate
//! tables), so each stage of a pass has its own bind group:
//!
//! | stage | group |
//! |---|---|
//! | vertex, compute | [`VERTEX_GROUP`] (0) |
//! | pixel | [`PIXEL_GROUP`] (1) |
//! | geometry | [`GEOMETRY_GROUP`] (2) |
//! | hull / domain | [`HULL_DOMAIN_GROUP`] (3) |
//!
//! Group 3 of the primitive stage's compute modules holds that stage's own buffers
//! ([`crate::geometry::SYSTEM_GROUP`]), and of a render pipeline that selects per primitive the
//! selection uniform ([`crate::select::SELECT_GROUP`]).
//!
//! Inside a group each class owns [`BindingClass::base`]`..+`[`BindingClass::slots`] in space 0,
//! and space `s` adds `s × `[`SPACE_STRIDE`]; a structured UAV's hidden counter is at
//! [`COUNTER_BASE`]` + #` (`docs/binding-model.md`).

/// Bind group of the vertex shader's resources (and of a compute shader's).
pub const VERTEX_GROUP: u32 = 0;
/// Bind group of the pixel shader's resources.
pub const PIXEL_GROUP: u32 = 1;
/// Bind group of the geometry shader's resources.
pub const GEOMETRY_GROUP: u32 = 2;
/// Bind group of a hull or domain shader's resources.
pub const HULL_DOMAIN_GROUP: u32 = 3;
/// Bind groups a pipeline of the plan uses at most (WebGPU's default `maxBindGroups`).
pub const MAX_GROUPS: u32 = 4;

/// Binding numbers used by one register space.
pub const SPACE_STRIDE: u32 = 224;
/// Highest register space the plan maps (WebGPU's default `maxBindingsPerBindGroup` is 1000).
pub const MAX_SPACE: u32 = 3;
/// Binding of `u0`'s hidden counter; `u#`'s is `COUNTER_BASE + #` (after the last space's
/// range: 896–959, under WebGPU's default `maxBindingsPerBindGroup` of 1000).
pub const COUNTER_BASE: u32 = (MAX_SPACE + 1) * SPACE_STRIDE;

/// A D3D register class that binds a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum BindingClass {
    /// `b#`: constant buffer.
    ConstantBuffer,
    /// `s#`: sampler.
    Sampler,
    /// `t#`: shader resource view.
    ShaderResource,
    /// `u#`: unordered access view.
    UnorderedAccess,
}

impl BindingClass {
    /// First binding number of the class in space 0.
    pub const fn base(self) -> u32 {
        match self {
            BindingClass::ConstantBuffer => 0,
            BindingClass::Sampler => 16,
            BindingClass::ShaderResource => 32,
            BindingClass::UnorderedAccess => 160,
        }
    }

    /// Number of slots the class has per space.
    pub const fn slots(self) -> u32 {
        match self {
            BindingClass::ConstantBuffer => 14,
            BindingClass::Sampler => 16,
            BindingClass::ShaderResource => 128,
            BindingClass::UnorderedAccess => 64,
        }
    }

    /// The register letter (`b`, `s`, `t`, `u`).
    pub const fn letter(self) -> char {
        match self {
            BindingClass::ConstantBuffer => 'b',
            BindingClass::Sampler => 's',
            BindingClass::ShaderResource => 't',
            BindingClass::UnorderedAccess => 'u',
        }
    }

    /// The binding of register `slot` of space `space`, or `None` past the class's slots or
    /// [`MAX_SPACE`].
    pub const fn binding(self, slot: u32, space: u32) -> Option<u32> {
        if slot >= self.slots() || space > MAX_SPACE {
            return None;
        }
        Some(space * SPACE_STRIDE + self.base() + slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classes' ranges tile one space exactly, and the counters follow the last space.
    #[test]
    fn ranges_tile_a_space() {
        let classes = [
            BindingClass::ConstantBuffer,
            BindingClass::Sampler,
            BindingClass::ShaderResource,
            BindingClass::UnorderedAccess,
        ];
        let mut end = 0;
        for c in classes {
            assert!(c.base() >= end, "{c:?} overlaps the class before it");
            end = c.base() + c.slots();
        }
        assert_eq!(end, SPACE_STRIDE);
        assert_eq!(BindingClass::UnorderedAccess.binding(63, MAX_SPACE), Some(COUNTER_BASE - 1));
        assert_eq!(BindingClass::Sampler.binding(16, 0), None);
        assert_eq!(BindingClass::ShaderResource.binding(0, MAX_SPACE + 1), None);
        const { assert!(COUNTER_BASE + 64 <= 1000, "counters past WebGPU's maxBindingsPerBindGroup") };
    }
}
