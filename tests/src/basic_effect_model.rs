//! An independent CPU model of DirectXTK's BasicEffect (BasicEffect.fx, Common.fxh, Lighting.fxh),
//! written from the HLSL source's equations, for checking what the translated shaders render.
//!
//! It works on the effect's *logical* parameters (the values a C++ application hands to
//! `BasicEffect`), not on the constant buffer's bytes, so it shares nothing with the packing code
//! under test. Matrices are `m[row][column]` applied to row vectors (`mul(position, World)`).

/// BasicEffect's parameters, as the HLSL `Parameters` cbuffer names them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BasicParams {
    pub diffuse_color: [f32; 4],
    pub emissive_color: [f32; 3],
    pub specular_color: [f32; 3],
    pub specular_power: f32,
    pub light_direction: [[f32; 3]; 3],
    pub light_diffuse_color: [[f32; 3]; 3],
    pub light_specular_color: [[f32; 3]; 3],
    pub eye_position: [f32; 3],
    pub fog_color: [f32; 3],
    pub fog_vector: [f32; 4],
    pub world: [[f32; 4]; 4],
    pub world_inverse_transpose: [[f32; 3]; 3],
    pub world_view_proj: [[f32; 4]; 4],
}

/// Diffuse and specular light (Lighting.fxh's `ColorPair`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColorPair {
    pub diffuse: [f32; 3],
    pub specular: [f32; 3],
}

/// What the per-pixel-lighting vertex shaders (`VSBasicPixelLighting*`) pass on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelLightingVaryings {
    pub position_ps: [f32; 4],
    /// World position in xyz, fog factor in w.
    pub position_ws: [f32; 4],
    pub normal_ws: [f32; 3],
    pub diffuse: [f32; 4],
    pub tex_coord: [f32; 2],
}

/// What the vertex-lighting vertex shaders (`VSBasicVertexLighting*`, `VSBasicOneLight*`) pass on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VertexLightingVaryings {
    pub position_ps: [f32; 4],
    pub diffuse: [f32; 4],
    /// Specular colour in xyz, fog factor in w.
    pub specular: [f32; 4],
}

fn dot3(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn dot4(a: [f32; 4], b: [f32; 4]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

fn normalize(a: [f32; 3]) -> [f32; 3] {
    let inv = 1.0 / dot3(a, a).sqrt();
    [a[0] * inv, a[1] * inv, a[2] * inv]
}

fn saturate(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

/// `mul(v, m)` for a row vector and a 4x4 matrix.
pub fn mul_row4(v: [f32; 4], m: &[[f32; 4]; 4]) -> [f32; 4] {
    std::array::from_fn(|c| v[0] * m[0][c] + v[1] * m[1][c] + v[2] * m[2][c] + v[3] * m[3][c])
}

/// `mul(v, m)` for a row vector and a 3x3 matrix.
pub fn mul_row3(v: [f32; 3], m: &[[f32; 3]; 3]) -> [f32; 3] {
    std::array::from_fn(|c| v[0] * m[0][c] + v[1] * m[1][c] + v[2] * m[2][c])
}

impl BasicParams {
    /// Common.fxh `ComputeFogFactor`: `saturate(dot(position, FogVector))` on the object-space
    /// position.
    pub fn fog_factor(&self, position: [f32; 4]) -> f32 {
        saturate(dot4(position, self.fog_vector))
    }

    /// Lighting.fxh `ComputeLights` for the first `num_lights` lights.
    pub fn compute_lights(&self, eye_vector: [f32; 3], world_normal: [f32; 3], num_lights: usize) -> ColorPair {
        let mut diffuse_sum = [0.0f32; 3];
        let mut specular_sum = [0.0f32; 3];
        for i in 0..num_lights {
            let l = self.light_direction[i];
            let half_vector = normalize([eye_vector[0] - l[0], eye_vector[1] - l[1], eye_vector[2] - l[2]]);
            let dot_l = -dot3(l, world_normal);
            let dot_h = dot3(half_vector, world_normal);
            // zeroL = step(0, dotL): 1 where dotL >= 0.
            let zero_l = if dot_l >= 0.0 { 1.0 } else { 0.0 };
            let diffuse = zero_l * dot_l;
            let specular = (dot_h.max(0.0) * zero_l).powf(self.specular_power) * dot_l;
            for c in 0..3 {
                diffuse_sum[c] += diffuse * self.light_diffuse_color[i][c];
                specular_sum[c] += specular * self.light_specular_color[i][c];
            }
        }
        ColorPair {
            diffuse: std::array::from_fn(|c| diffuse_sum[c] * self.diffuse_color[c] + self.emissive_color[c]),
            specular: std::array::from_fn(|c| specular_sum[c] * self.specular_color[c]),
        }
    }

    fn world_normal(&self, normal: [f32; 3]) -> [f32; 3] {
        normalize(mul_row3(normal, &self.world_inverse_transpose))
    }

    /// `VSBasicPixelLightingTx` (and `VSBasicPixelLighting`, ignoring the texture coordinate).
    pub fn vs_pixel_lighting_tx(
        &self,
        position: [f32; 4],
        normal: [f32; 3],
        tex_coord: [f32; 2],
    ) -> PixelLightingVaryings {
        let pos_ws = mul_row4(position, &self.world);
        PixelLightingVaryings {
            position_ps: mul_row4(position, &self.world_view_proj),
            position_ws: [pos_ws[0], pos_ws[1], pos_ws[2], self.fog_factor(position)],
            normal_ws: self.world_normal(normal),
            diffuse: [1.0, 1.0, 1.0, self.diffuse_color[3]],
            tex_coord,
        }
    }

    /// `PSBasicPixelLightingTx`: `texel` is what `Texture.Sample` returned; the varyings are the
    /// interpolated vertex-shader outputs.
    pub fn ps_pixel_lighting_tx(&self, texel: [f32; 4], pin: &PixelLightingVaryings) -> [f32; 4] {
        let mut color: [f32; 4] = std::array::from_fn(|c| texel[c] * pin.diffuse[c]);
        let pos_ws = [pin.position_ws[0], pin.position_ws[1], pin.position_ws[2]];
        let eye_vector = normalize([
            self.eye_position[0] - pos_ws[0],
            self.eye_position[1] - pos_ws[1],
            self.eye_position[2] - pos_ws[2],
        ]);
        let world_normal = normalize(pin.normal_ws);
        let light = self.compute_lights(eye_vector, world_normal, 3);
        for (channel, light_diffuse) in color.iter_mut().zip(light.diffuse) {
            *channel *= light_diffuse;
        }
        self.add_specular(&mut color, light.specular);
        self.apply_fog(&mut color, pin.position_ws[3]);
        color
    }

    /// `VSBasicVertexLightingVc` (three lights, vertex colour).
    pub fn vs_vertex_lighting_vc(
        &self,
        position: [f32; 4],
        normal: [f32; 3],
        color: [f32; 4],
    ) -> VertexLightingVaryings {
        self.vs_vertex_lighting(position, normal, color, 3)
    }

    /// `VSBasicVertexLighting*` (`num_lights` 3) and `VSBasicOneLight*` (1); without vertex colour
    /// pass `color` = 1 (Lighting.fxh `ComputeCommonVSOutputWithLighting`, then `Diffuse *= Color`).
    pub fn vs_vertex_lighting(
        &self,
        position: [f32; 4],
        normal: [f32; 3],
        color: [f32; 4],
        num_lights: usize,
    ) -> VertexLightingVaryings {
        let pos_ws = mul_row4(position, &self.world);
        let eye_vector = normalize([
            self.eye_position[0] - pos_ws[0],
            self.eye_position[1] - pos_ws[1],
            self.eye_position[2] - pos_ws[2],
        ]);
        let light = self.compute_lights(eye_vector, self.world_normal(normal), num_lights);
        let diffuse = [
            light.diffuse[0] * color[0],
            light.diffuse[1] * color[1],
            light.diffuse[2] * color[2],
            self.diffuse_color[3] * color[3],
        ];
        VertexLightingVaryings {
            position_ps: mul_row4(position, &self.world_view_proj),
            diffuse,
            specular: [light.specular[0], light.specular[1], light.specular[2], self.fog_factor(position)],
        }
    }

    /// `PSBasicVertexLighting`.
    pub fn ps_vertex_lighting(&self, pin: &VertexLightingVaryings) -> [f32; 4] {
        self.ps_vertex_lighting_tx([1.0; 4], pin)
    }

    /// `PSBasicVertexLightingTx` (and SkinnedEffect's `PSSkinnedVertexLighting`): `texel` is what
    /// `Texture.Sample` returned. The NoFog shaders are the same with a fog factor of 0.
    pub fn ps_vertex_lighting_tx(&self, texel: [f32; 4], pin: &VertexLightingVaryings) -> [f32; 4] {
        let mut color: [f32; 4] = std::array::from_fn(|c| texel[c] * pin.diffuse[c]);
        self.add_specular(&mut color, [pin.specular[0], pin.specular[1], pin.specular[2]]);
        self.apply_fog(&mut color, pin.specular[3]);
        color
    }

    /// `VSBasic*` without lighting: `DiffuseColor` times the vertex colour (1 without one), fog
    /// factor in `specular.w` (Common.fxh `ComputeCommonVSOutput`).
    pub fn vs_basic(&self, position: [f32; 4], color: [f32; 4]) -> VertexLightingVaryings {
        VertexLightingVaryings {
            position_ps: mul_row4(position, &self.world_view_proj),
            diffuse: std::array::from_fn(|c| self.diffuse_color[c] * color[c]),
            specular: [0.0, 0.0, 0.0, self.fog_factor(position)],
        }
    }

    /// `PSBasic` / `PSBasicTx` (texel 1 without texture): no specular; the NoFog shaders are the
    /// same with a fog factor of 0.
    pub fn ps_basic(&self, texel: [f32; 4], pin: &VertexLightingVaryings) -> [f32; 4] {
        let mut color: [f32; 4] = std::array::from_fn(|c| texel[c] * pin.diffuse[c]);
        self.apply_fog(&mut color, pin.specular[3]);
        color
    }

    /// Common.fxh `AddSpecular`.
    fn add_specular(&self, color: &mut [f32; 4], specular: [f32; 3]) {
        for c in 0..3 {
            color[c] += specular[c] * color[3];
        }
    }

    /// Common.fxh `ApplyFog`: `lerp(color.rgb, FogColor * color.a, fogFactor)`.
    fn apply_fog(&self, color: &mut [f32; 4], fog_factor: f32) {
        for c in 0..3 {
            color[c] = lerp(color[c], self.fog_color[c] * color[3], fog_factor);
        }
    }
}

/// What an `Rgba8Unorm` render target stores for a shader output: clamped, scaled, rounded.
pub fn to_unorm8(color: [f32; 4]) -> [u8; 4] {
    color.map(|x| (saturate(x) * 255.0).round() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDENTITY4: [[f32; 4]; 4] =
        [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];
    const IDENTITY3: [[f32; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

    fn params() -> BasicParams {
        BasicParams {
            diffuse_color: [0.5, 0.25, 1.0, 1.0],
            emissive_color: [0.0; 3],
            specular_color: [1.0, 1.0, 1.0],
            specular_power: 8.0,
            light_direction: [[0.0, 0.0, -1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]],
            light_diffuse_color: [[1.0, 0.5, 0.25], [0.0; 3], [0.0; 3]],
            light_specular_color: [[0.5, 0.5, 0.5], [0.0; 3], [0.0; 3]],
            eye_position: [0.0, 0.0, 10.0],
            fog_color: [0.0, 1.0, 0.0],
            fog_vector: [0.0; 4],
            world: IDENTITY4,
            world_inverse_transpose: IDENTITY3,
            world_view_proj: IDENTITY4,
        }
    }

    fn close3(a: [f32; 3], b: [f32; 3]) -> bool {
        (0..3).all(|i| (a[i] - b[i]).abs() < 1e-5)
    }

    #[test]
    fn head_on_light_gives_full_diffuse_and_specular() {
        let p = params();
        // Light travels along -z onto a surface facing +z, eye straight above: dotL = dotH = 1.
        let r = p.compute_lights([0.0, 0.0, 1.0], [0.0, 0.0, 1.0], 3);
        assert!(close3(r.diffuse, [0.5, 0.125, 0.25]), "{r:?}");
        assert!(close3(r.specular, [0.5, 0.5, 0.5]), "{r:?}");
    }

    #[test]
    fn light_from_behind_contributes_nothing_but_emissive() {
        let mut p = params();
        p.emissive_color = [0.1, 0.2, 0.3];
        let r = p.compute_lights([0.0, 0.0, 1.0], [0.0, 0.0, -1.0], 1);
        assert!(close3(r.diffuse, [0.1, 0.2, 0.3]), "{r:?}");
        assert!(close3(r.specular, [0.0; 3]), "{r:?}");
    }

    #[test]
    fn specular_uses_the_half_vector_and_power() {
        let p = params();
        // Eye at 90 degrees from the normal: half vector at 45 degrees, dotH = cos 45.
        let r = p.compute_lights([1.0, 0.0, 0.0], [0.0, 0.0, 1.0], 1);
        let expected = std::f32::consts::FRAC_1_SQRT_2.powf(8.0) * 0.5;
        assert!(close3(r.specular, [expected; 3]), "{r:?} vs {expected}");
    }

    #[test]
    fn only_the_requested_lights_count() {
        let mut p = params();
        p.light_direction[1] = [0.0, 0.0, -1.0];
        p.light_diffuse_color[1] = [0.0, 1.0, 0.0];
        let one = p.compute_lights([0.0, 0.0, 1.0], [0.0, 0.0, 1.0], 1);
        let two = p.compute_lights([0.0, 0.0, 1.0], [0.0, 0.0, 1.0], 2);
        assert!(close3(one.diffuse, [0.5, 0.125, 0.25]));
        assert!(close3(two.diffuse, [0.5, 0.375, 0.25]));
    }

    #[test]
    fn fog_is_saturated_dot_with_the_object_position() {
        let mut p = params();
        p.fog_vector = [0.0, 0.0, -0.1, 0.5];
        assert_eq!(p.fog_factor([0.0, 0.0, 2.0, 1.0]), 0.3);
        assert_eq!(p.fog_factor([0.0, 0.0, -20.0, 1.0]), 1.0);
        assert_eq!(p.fog_factor([0.0, 0.0, 20.0, 1.0]), 0.0);
    }

    #[test]
    fn fog_lerps_towards_fog_colour_times_alpha() {
        let mut p = params();
        p.diffuse_color = [1.0, 0.0, 0.0, 0.5];
        p.light_diffuse_color = [[0.0; 3]; 3];
        p.specular_color = [0.0; 3];
        p.emissive_color = [0.0; 3];
        p.fog_vector = [0.0, 0.0, 0.0, 0.25];
        let vout = p.vs_vertex_lighting_vc([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [1.0; 4]);
        // Unlit and no emissive: colour (0, 0, 0, 0.5); fog 0.25 towards (0, 1, 0) * 0.5.
        let out = p.ps_vertex_lighting(&vout);
        assert!(close3([out[0], out[1], out[2]], [0.0, 0.125, 0.0]), "{out:?}");
        assert_eq!(out[3], 0.5);
    }

    #[test]
    fn world_transform_moves_the_lit_position() {
        let mut p = params();
        p.world[3] = [0.0, 0.0, 5.0, 1.0];
        let vout = p.vs_pixel_lighting_tx([1.0, 2.0, 3.0, 1.0], [0.0, 0.0, 1.0], [0.5, 0.5]);
        assert_eq!(vout.position_ws, [1.0, 2.0, 8.0, 0.0]);
        assert_eq!(vout.diffuse, [1.0, 1.0, 1.0, 1.0]);
    }

    #[test]
    fn normals_go_through_the_inverse_transpose_and_are_normalised() {
        let mut p = params();
        p.world_inverse_transpose = [[0.5, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let vout = p.vs_pixel_lighting_tx([0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 0.0], [0.0, 0.0]);
        let expected = normalize([0.5, 1.0, 0.0]);
        assert!(close3(vout.normal_ws, expected), "{vout:?}");
    }

    #[test]
    fn vertex_colour_scales_lit_diffuse_and_alpha() {
        let p = params();
        let vout = p.vs_vertex_lighting_vc([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.5, 1.0, 1.0, 0.5]);
        assert!(close3([vout.diffuse[0], vout.diffuse[1], vout.diffuse[2]], [0.25, 0.125, 0.25]));
        assert_eq!(vout.diffuse[3], 0.5);
        // Specular is not scaled by the vertex colour but the pixel shader scales it by alpha.
        let out = p.ps_vertex_lighting(&vout);
        assert!((out[0] - (0.25 + 0.5 * 0.5)).abs() < 1e-5, "{out:?}");
    }

    #[test]
    fn one_light_ignores_the_other_lights() {
        let mut p = params();
        p.light_direction[1] = [0.0, 0.0, -1.0];
        p.light_diffuse_color[1] = [0.0, 1.0, 0.0];
        let one = p.vs_vertex_lighting([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [1.0; 4], 1);
        let three = p.vs_vertex_lighting([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [1.0; 4], 3);
        assert!(close3([one.diffuse[0], one.diffuse[1], one.diffuse[2]], [0.5, 0.125, 0.25]));
        assert!(close3([three.diffuse[0], three.diffuse[1], three.diffuse[2]], [0.5, 0.375, 0.25]));
    }

    #[test]
    fn unlit_is_diffuse_times_vertex_colour_and_texture_then_fog() {
        let mut p = params();
        p.fog_vector = [0.0, 0.0, 0.0, 0.5];
        let vout = p.vs_basic([0.0, 0.0, 0.0, 1.0], [0.5, 1.0, 1.0, 1.0]);
        assert_eq!(vout.diffuse, [0.25, 0.25, 1.0, 1.0]);
        let out = p.ps_basic([1.0, 0.5, 0.5, 1.0], &vout);
        // (0.25, 0.125, 0.5) halfway to the fog colour (0, 1, 0).
        assert!(close3([out[0], out[1], out[2]], [0.125, 0.5625, 0.25]), "{out:?}");
    }

    #[test]
    fn unorm8_rounds_and_clamps() {
        assert_eq!(to_unorm8([0.0, 1.0, 0.5, 2.0]), [0, 255, 128, 255]);
        assert_eq!(to_unorm8([-1.0, 0.3, 0.998, 0.002]), [0, 77, 254, 1]);
    }
}
