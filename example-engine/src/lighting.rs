//! Effect settings in application terms (matrices, light directions, fog distances) and their
//! conversion to the constant-buffer values DirectXTK's effects expect, the way DirectXTK's C++
//! effect classes compute them.

use crate::math::Mat4;

/// One directional light.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectionalLight {
    /// Direction the light travels (normalised).
    pub direction: [f32; 3],
    pub diffuse: [f32; 3],
    pub specular: [f32; 3],
}

/// DirectXTK's `EnableDefaultLighting` rig: key, fill and back light, and its ambient colour.
pub const DEFAULT_LIGHTS: [DirectionalLight; 3] = [
    DirectionalLight {
        direction: [-0.526_540_8, -0.573_576_5, -0.627_506_9],
        diffuse: [1.0, 0.960_784_4, 0.807_843_2],
        specular: [1.0, 0.960_784_4, 0.807_843_2],
    },
    DirectionalLight {
        direction: [0.719_846_4, 0.342_020_1, 0.604_022_7],
        diffuse: [0.964_705_9, 0.760_784_4, 0.407_843_2],
        specular: [0.0, 0.0, 0.0],
    },
    DirectionalLight {
        direction: [0.454_519_5, -0.766_044_4, 0.454_519_5],
        diffuse: [0.323_137_3, 0.360_784_4, 0.393_725_5],
        specular: [0.323_137_3, 0.360_784_4, 0.393_725_5],
    },
];
pub const DEFAULT_AMBIENT: [f32; 3] = [0.053_333_32, 0.098_823_54, 0.181_960_8];

/// Linear fog between two view-space distances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fog {
    pub color: [f32; 3],
    pub start: f32,
    pub end: f32,
}

impl Fog {
    /// The `FogVector` constant: `saturate(dot(object_position, v))` is 0 at `start` and 1 at
    /// `end` view-space units in front of a right-handed camera. Only the view-space z row of
    /// `world * view` is needed.
    pub fn vector(&self, world_view: &Mat4) -> [f32; 4] {
        if self.start == self.end {
            // Fog everywhere.
            return [0.0, 0.0, 0.0, 1.0];
        }
        let m = &world_view.0;
        let scale = 1.0 / (self.start - self.end);
        [m[0][2] * scale, m[1][2] * scale, m[2][2] * scale, (m[3][2] + self.start) * scale]
    }
}

/// HLSL's default (column-major) packing of a matrix used as `mul(row_vector, M)`: register i
/// holds column i.
pub fn columns(m: &Mat4) -> [[f32; 4]; 4] {
    m.transpose().0
}

/// The same for a 3x3 matrix (lane w of each register is padding).
pub fn columns3(m: &[[f32; 3]; 3]) -> [[f32; 4]; 3] {
    std::array::from_fn(|i| [m[0][i], m[1][i], m[2][i], 0.0])
}

/// A float3 widened to a register (w = 0).
pub fn pad3(v: [f32; 3]) -> [f32; 4] {
    [v[0], v[1], v[2], 0.0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fog_vector_is_0_at_start_and_1_at_end() {
        let view = Mat4::look_at_rh([0.0, 0.0, 5.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        let fog = Fog { color: [0.0; 3], start: 2.0, end: 10.0 };
        let v = fog.vector(&view);
        let f = |z: f32| v[0] * 0.0 + v[1] * 0.0 + v[2] * z + v[3];
        // The camera is at z = 5 looking down -z: z = 3 is 2 units away, z = -5 is 10.
        assert!((f(3.0) - 0.0).abs() < 1e-6);
        assert!((f(-5.0) - 1.0).abs() < 1e-6);
        assert!((f(-1.0) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn columns_put_translation_in_the_w_lanes() {
        let c = columns(&Mat4::translation([1.0, 2.0, 3.0]));
        assert_eq!(c[0], [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(c[2], [0.0, 0.0, 1.0, 3.0]);
        assert_eq!(c[3], [0.0, 0.0, 0.0, 1.0]);
    }
}
