//! The little linear algebra the renderer needs, in Direct3D's conventions: row vectors
//! (`v' = v * M`, translation in the last row), right-handed view space, clip-space depth in [0, 1].

/// A 4x4 matrix, `m[row][column]`, used as `row_vector * m`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mat4(pub [[f32; 4]; 4]);

impl Mat4 {
    pub const IDENTITY: Self =
        Self([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]);

    pub fn translation(t: [f32; 3]) -> Self {
        let mut m = Self::IDENTITY;
        m.0[3] = [t[0], t[1], t[2], 1.0];
        m
    }

    pub fn scaling(s: [f32; 3]) -> Self {
        let mut m = Self::IDENTITY;
        m.0[0][0] = s[0];
        m.0[1][1] = s[1];
        m.0[2][2] = s[2];
        m
    }

    /// Rotation by `angle` radians about the x axis (counter-clockwise looking down the axis).
    pub fn rotation_x(angle: f32) -> Self {
        let (s, c) = angle.sin_cos();
        Self([[1.0, 0.0, 0.0, 0.0], [0.0, c, s, 0.0], [0.0, -s, c, 0.0], [0.0, 0.0, 0.0, 1.0]])
    }

    /// Rotation by `angle` radians about the y axis.
    pub fn rotation_y(angle: f32) -> Self {
        let (s, c) = angle.sin_cos();
        Self([[c, 0.0, -s, 0.0], [0.0, 1.0, 0.0, 0.0], [s, 0.0, c, 0.0], [0.0, 0.0, 0.0, 1.0]])
    }

    /// Rotation by `angle` radians about the z axis.
    pub fn rotation_z(angle: f32) -> Self {
        let (s, c) = angle.sin_cos();
        Self([[c, s, 0.0, 0.0], [-s, c, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
    }

    /// Right-handed view matrix looking from `eye` at `target`.
    pub fn look_at_rh(eye: [f32; 3], target: [f32; 3], up: [f32; 3]) -> Self {
        let z = normalize(sub(eye, target));
        let x = normalize(cross(up, z));
        let y = cross(z, x);
        Self([
            [x[0], y[0], z[0], 0.0],
            [x[1], y[1], z[1], 0.0],
            [x[2], y[2], z[2], 0.0],
            [-dot(x, eye), -dot(y, eye), -dot(z, eye), 1.0],
        ])
    }

    /// Right-handed perspective projection (D3D depth range [0, 1]).
    pub fn perspective_fov_rh(fov_y: f32, aspect: f32, near: f32, far: f32) -> Self {
        let h = 1.0 / (fov_y * 0.5).tan();
        let w = h / aspect;
        let r = far / (near - far);
        Self([[w, 0.0, 0.0, 0.0], [0.0, h, 0.0, 0.0], [0.0, 0.0, r, -1.0], [0.0, 0.0, r * near, 0.0]])
    }

    pub fn mul(&self, other: &Self) -> Self {
        let mut out = [[0.0; 4]; 4];
        for (r, row) in out.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = (0..4).map(|k| self.0[r][k] * other.0[k][c]).sum();
            }
        }
        Self(out)
    }

    pub fn transpose(&self) -> Self {
        let mut out = [[0.0; 4]; 4];
        for (r, row) in out.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = self.0[c][r];
            }
        }
        Self(out)
    }

    /// `v * self` for a row vector `v`.
    pub fn transform(&self, v: [f32; 4]) -> [f32; 4] {
        std::array::from_fn(|c| (0..4).map(|k| v[k] * self.0[k][c]).sum())
    }

    /// The upper-left 3x3 block's inverse transpose (the matrix that transforms normals), or
    /// `None` if that block is singular.
    pub fn inverse_transpose_3x3(&self) -> Option<[[f32; 3]; 3]> {
        let m = |r: usize, c: usize| f64::from(self.0[r][c]);
        let cof = |r: usize, c: usize| {
            let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
            let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
            m(r1, c1) * m(r2, c2) - m(r1, c2) * m(r2, c1)
        };
        let det = m(0, 0) * cof(0, 0) + m(0, 1) * cof(0, 1) + m(0, 2) * cof(0, 2);
        if det.abs() < 1e-12 {
            return None;
        }
        // inverse = adjugate / det = cofactor^T / det, so inverse^T = cofactor / det.
        Some(std::array::from_fn(|r| std::array::from_fn(|c| (cof(r, c) / det) as f32)))
    }
}

pub fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

pub fn normalize(a: [f32; 3]) -> [f32; 3] {
    let len = dot(a, a).sqrt();
    [a[0] / len, a[1] / len, a[2] / len]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-5
    }

    #[test]
    fn translation_moves_points_not_directions() {
        let m = Mat4::translation([1.0, 2.0, 3.0]);
        assert_eq!(m.transform([1.0, 1.0, 1.0, 1.0]), [2.0, 3.0, 4.0, 1.0]);
        assert_eq!(m.transform([1.0, 1.0, 1.0, 0.0]), [1.0, 1.0, 1.0, 0.0]);
    }

    #[test]
    fn product_applies_left_matrix_first() {
        let m = Mat4::scaling([2.0, 2.0, 2.0]).mul(&Mat4::translation([1.0, 0.0, 0.0]));
        assert_eq!(m.transform([1.0, 0.0, 0.0, 1.0]), [3.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn rotation_z_turns_x_into_y() {
        let v = Mat4::rotation_z(std::f32::consts::FRAC_PI_2).transform([1.0, 0.0, 0.0, 0.0]);
        assert!(close(v[0], 0.0) && close(v[1], 1.0), "{v:?}");
    }

    #[test]
    fn inverse_transpose_keeps_normals_perpendicular_under_non_uniform_scale() {
        let m = Mat4::scaling([4.0, 1.0, 1.0]).mul(&Mat4::rotation_z(0.3));
        let it = m.inverse_transpose_3x3().unwrap();
        // A surface spanned by tangent t with normal n: after transforming, n' . t' must stay 0.
        let (t, n) = ([1.0, 1.0, 0.0], [1.0, -1.0, 0.0]);
        let t2 = m.transform([t[0], t[1], t[2], 0.0]);
        let n2: [f32; 3] = std::array::from_fn(|c| (0..3).map(|k| n[k] * it[k][c]).sum());
        assert!(close(dot([t2[0], t2[1], t2[2]], n2), 0.0));
        assert!(Mat4::scaling([1.0, 0.0, 1.0]).inverse_transpose_3x3().is_none());
    }

    #[test]
    fn perspective_maps_near_to_0_and_far_to_1() {
        let p = Mat4::perspective_fov_rh(1.0, 1.0, 0.5, 10.0);
        let near = p.transform([0.0, 0.0, -0.5, 1.0]);
        let far = p.transform([0.0, 0.0, -10.0, 1.0]);
        assert!(close(near[2] / near[3], 0.0) && close(far[2] / far[3], 1.0));
    }

    #[test]
    fn look_at_puts_the_target_on_the_negative_z_axis() {
        let v = Mat4::look_at_rh([0.0, 0.0, 5.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        let p = v.transform([0.0, 0.0, 0.0, 1.0]);
        assert!(close(p[0], 0.0) && close(p[1], 0.0) && close(p[2], -5.0));
    }
}
