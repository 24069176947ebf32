//! An independent CPU model of DirectXTK's DualTextureEffect (DualTextureEffect.fx, Common.fxh),
//! written from the HLSL source's equations, on the effect's logical parameters.

/// DualTextureEffect's parameters, as the HLSL `Parameters` cbuffer names them. Matrices are
/// `m[row][column]` applied to row vectors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DualParams {
    pub diffuse_color: [f32; 4],
    pub fog_color: [f32; 3],
    pub fog_vector: [f32; 4],
    pub world_view_proj: [[f32; 4]; 4],
}

/// What `VSDualTexture*` passes on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DualVaryings {
    pub position_ps: [f32; 4],
    pub diffuse: [f32; 4],
    pub fog_factor: f32,
    pub tex_coord: [f32; 2],
    pub tex_coord2: [f32; 2],
}

impl DualParams {
    /// `VSDualTexture`, `VSDualTextureVc` (pass `color` = 1 without vertex colour) and their NoFog
    /// twins (which drop the fog factor).
    pub fn vs(&self, position: [f32; 4], tex_coord: [f32; 2], tex_coord2: [f32; 2], color: [f32; 4]) -> DualVaryings {
        let dot: f32 = (0..4).map(|i| position[i] * self.fog_vector[i]).sum();
        DualVaryings {
            position_ps: crate::basic_effect_model::mul_row4(position, &self.world_view_proj),
            diffuse: std::array::from_fn(|c| self.diffuse_color[c] * color[c]),
            fog_factor: dot.clamp(0.0, 1.0),
            tex_coord,
            tex_coord2,
        }
    }

    /// `PSDualTexture` (`fog` true) or `PSDualTextureNoFog`: `texel` and `overlay` are what the two
    /// `Sample`s returned.
    pub fn ps(&self, texel: [f32; 4], overlay: [f32; 4], pin: &DualVaryings, fog: bool) -> [f32; 4] {
        let mut color = texel;
        for c in &mut color[..3] {
            *c *= 2.0;
        }
        for c in 0..4 {
            color[c] *= overlay[c] * pin.diffuse[c];
        }
        if fog {
            for c in 0..3 {
                color[c] += (self.fog_color[c] * color[3] - color[c]) * pin.fog_factor;
            }
        }
        color
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDENTITY: [[f32; 4]; 4] =
        [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];

    #[test]
    fn first_texture_doubled_times_overlay_and_diffuse() {
        let p = DualParams {
            diffuse_color: [1.0, 0.5, 1.0, 1.0],
            fog_color: [0.0, 0.0, 1.0],
            fog_vector: [0.0, 0.0, 0.0, 0.25],
            world_view_proj: IDENTITY,
        };
        let vout = p.vs([0.0, 0.0, 0.0, 1.0], [0.0; 2], [0.0; 2], [1.0, 1.0, 0.5, 1.0]);
        assert_eq!(vout.diffuse, [1.0, 0.5, 0.5, 1.0]);
        assert_eq!(vout.fog_factor, 0.25);
        let texel = [0.25, 0.5, 0.5, 1.0];
        let overlay = [0.5, 0.5, 1.0, 1.0];
        assert_eq!(p.ps(texel, overlay, &vout, false), [0.25, 0.25, 0.5, 1.0]);
        // A quarter of the way to blue.
        assert_eq!(p.ps(texel, overlay, &vout, true), [0.1875, 0.1875, 0.625, 1.0]);
    }
}
