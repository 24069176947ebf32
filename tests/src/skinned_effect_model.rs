//! An independent CPU model of DirectXTK's SkinnedEffect (SkinnedEffect.fx): the `Skin` function,
//! then BasicEffect's lighting (the same Common.fxh / Lighting.fxh code, `basic_effect_model`).

/// A bone as SkinnedEffect's `float4x3 Bones[i]`: `m[row][column]`, used as `mul(float4 p, m)`.
pub type Bone = [[f32; 3]; 4];

/// The identity bone.
pub const IDENTITY_BONE: Bone = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]];

/// `Skin(vin, normal, bone_count)`: the weighted sum of the first `bone_count` bones
/// (`Bones[indices[i]] * weights[i]`, not renormalised) applied to the position (w = 1) and, by its
/// upper 3x3, to the normal. Returns the skinned position (w = 1) and normal.
pub fn skin(
    bones: &[Bone],
    position: [f32; 3],
    normal: [f32; 3],
    indices: [usize; 4],
    weights: [f32; 4],
    bone_count: usize,
) -> ([f32; 4], [f32; 3]) {
    let mut skinning = [[0.0f32; 3]; 4];
    for i in 0..bone_count {
        for (r, row) in skinning.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell += bones[indices[i]][r][c] * weights[i];
            }
        }
    }
    let p = [position[0], position[1], position[2], 1.0];
    let skinned: [f32; 3] = std::array::from_fn(|c| (0..4).map(|r| p[r] * skinning[r][c]).sum());
    let n: [f32; 3] = std::array::from_fn(|c| (0..3).map(|r| normal[r] * skinning[r][c]).sum());
    ([skinned[0], skinned[1], skinned[2], 1.0], n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_blend_bones_and_only_the_counted_ones() {
        let mut shifted = IDENTITY_BONE;
        shifted[3] = [2.0, 0.0, 0.0];
        let mut scaled = IDENTITY_BONE;
        scaled[1][1] = 3.0;
        let bones = [IDENTITY_BONE, shifted, scaled];
        let (p, n) = skin(&bones, [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [1, 2, 0, 0], [0.5, 0.5, 0.0, 0.0], 2);
        // Half moved by 2 in x, half scaled by 3 in y.
        assert_eq!(p, [2.0, 2.0, 0.0, 1.0]);
        assert_eq!(n, [0.0, 2.0, 0.0]);
        // With one bone counted the second weight is ignored (and the first not renormalised).
        let (p, _) = skin(&bones, [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [1, 2, 0, 0], [0.5, 0.5, 0.0, 0.0], 1);
        assert_eq!(p, [1.5, 0.5, 0.0, 1.0]);
    }
}
