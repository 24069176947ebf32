//! Where a pixel centre falls inside a projected triangle, computed on the CPU, so tests can
//! predict the interpolated shader inputs at that pixel without a CPU rasteriser.
//!
//! Conventions are Direct3D's and WebGPU's (they agree): normalised device x and y in [-1, 1],
//! y up; framebuffer y down; pixel (x, y) has its centre at (x + 0.5, y + 0.5); attributes are
//! interpolated perspective-correctly (weights divided by clip w and renormalised).

/// The framebuffer position (in pixels) of a clip-space position.
pub fn to_screen(clip: [f32; 4], width: u32, height: u32) -> [f64; 2] {
    let w = f64::from(clip[3]);
    let (nx, ny) = (f64::from(clip[0]) / w, f64::from(clip[1]) / w);
    [(nx + 1.0) * 0.5 * f64::from(width), (1.0 - ny) * 0.5 * f64::from(height)]
}

/// Perspective-correct interpolation weights of the centre of pixel (x, y) inside the triangle
/// with clip-space corners `clip`, or `None` if the centre lies outside it or closer than
/// `min_edge_distance` pixels to one of its edges (where the rasteriser's edge rules and rounding
/// could pick the neighbouring triangle).
pub fn pixel_weights(
    clip: [[f32; 4]; 3],
    width: u32,
    height: u32,
    x: u32,
    y: u32,
    min_edge_distance: f64,
) -> Option<[f64; 3]> {
    let s = clip.map(|c| to_screen(c, width, height));
    let p = [f64::from(x) + 0.5, f64::from(y) + 0.5];
    let edge = |a: [f64; 2], b: [f64; 2], q: [f64; 2]| (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
    let area = edge(s[0], s[1], s[2]);
    if area.abs() < 1e-9 {
        return None;
    }
    // Screen-space barycentrics: weight of corner i from the edge opposite it.
    let lambda = [edge(s[1], s[2], p) / area, edge(s[2], s[0], p) / area, edge(s[0], s[1], p) / area];
    for i in 0..3 {
        let (a, b) = (s[(i + 1) % 3], s[(i + 2) % 3]);
        let length = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        let height_px = area.abs() / length;
        if lambda[i] * height_px < min_edge_distance {
            return None;
        }
    }
    let over_w: [f64; 3] = std::array::from_fn(|i| lambda[i] / f64::from(clip[i][3]));
    let sum: f64 = over_w.iter().sum();
    Some(over_w.map(|v| v / sum))
}

/// `sum(weights[i] * values[i])`, component-wise.
pub fn interpolate<const N: usize>(weights: [f64; 3], values: [[f32; N]; 3]) -> [f32; N] {
    std::array::from_fn(|c| (0..3).map(|i| weights[i] * f64::from(values[i][c])).sum::<f64>() as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_mapping_flips_y() {
        assert_eq!(to_screen([-1.0, 1.0, 0.0, 1.0], 10, 20), [0.0, 0.0]);
        assert_eq!(to_screen([2.0, -2.0, 0.0, 2.0], 10, 20), [10.0, 20.0]);
    }

    #[test]
    fn weights_are_affine_when_w_is_one() {
        // Corners at screen (0, 0), (8, 0), (0, 8) of an 8x8 target.
        let clip = [[-1.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 1.0], [-1.0, -1.0, 0.0, 1.0]];
        let w = pixel_weights(clip, 8, 8, 1, 2, 0.0).unwrap();
        // Centre (1.5, 2.5): weight of corner 1 = 1.5 / 8, corner 2 = 2.5 / 8.
        assert!((w[1] - 1.5 / 8.0).abs() < 1e-12 && (w[2] - 2.5 / 8.0).abs() < 1e-12);
        assert!(pixel_weights(clip, 8, 8, 6, 6, 0.0).is_none(), "outside");
        assert!(pixel_weights(clip, 8, 8, 3, 3, 1.0).is_none(), "too close to the diagonal");
    }

    #[test]
    fn weights_are_perspective_correct() {
        // The same screen triangle, but corner 1 is twice as far (w = 2): halfway along the
        // top edge on screen is a third of the way in attribute space.
        let clip = [[-1.0, 1.0, 0.0, 1.0], [2.0, 2.0, 0.0, 2.0], [-1.0, -1.0, 0.0, 1.0]];
        let w = pixel_weights(clip, 2000, 2000, 999, 0, 0.0).unwrap();
        let u = interpolate(w, [[0.0], [1.0], [0.0]])[0];
        assert!((u - 1.0 / 3.0).abs() < 1e-3, "{u}");
    }
}
