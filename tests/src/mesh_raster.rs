//! Which triangle of an indexed mesh a pixel shows, computed on the CPU (nearest covering triangle
//! at the pixel centre), so tests can predict a rendered mesh's pixels with `raster`'s
//! interpolation weights without a CPU rasteriser.

use crate::raster::{pixel_weights, to_screen};

/// The triangle seen at a pixel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Vertex indices of the triangle.
    pub triangle: [usize; 3],
    /// Perspective-correct interpolation weights of its corners at the pixel centre.
    pub weights: [f64; 3],
    /// Counter-clockwise in normalised device coordinates (y up): a front face for
    /// `FrontFace::Ccw` pipelines.
    pub counter_clockwise: bool,
}

/// The nearest triangle (smallest depth z/w in [0, 1]) covering the centre of pixel (x, y), or
/// `None` when none does, when the centre lies within `min_edge_distance` pixels of that
/// triangle's edges, or when another covering triangle is within 1e-4 in depth (ambiguous).
pub fn visible_triangle(
    clip: &[[f32; 4]],
    indices: &[u32],
    width: u32,
    height: u32,
    x: u32,
    y: u32,
    min_edge_distance: f64,
) -> Option<Hit> {
    let p = [f64::from(x) + 0.5, f64::from(y) + 0.5];
    let edge = |a: [f64; 2], b: [f64; 2], q: [f64; 2]| (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
    let mut nearest: Option<(f64, [usize; 3])> = None;
    let mut second = f64::INFINITY;
    for t in indices.chunks_exact(3) {
        let tri = [t[0] as usize, t[1] as usize, t[2] as usize];
        let c = tri.map(|i| clip[i]);
        if c.iter().any(|v| v[3] <= 1e-6) {
            continue;
        }
        let s = c.map(|v| to_screen(v, width, height));
        let area = edge(s[0], s[1], s[2]);
        if area.abs() < 1e-12 {
            continue;
        }
        let l = [edge(s[1], s[2], p) / area, edge(s[2], s[0], p) / area, edge(s[0], s[1], p) / area];
        if l.iter().any(|&v| v < 0.0) {
            continue;
        }
        let depth: f64 = (0..3).map(|i| l[i] * f64::from(c[i][2]) / f64::from(c[i][3])).sum();
        if !(0.0..=1.0).contains(&depth) {
            continue;
        }
        match nearest {
            Some((d, _)) if depth >= d => second = second.min(depth),
            _ => {
                if let Some((d, _)) = nearest {
                    second = second.min(d);
                }
                nearest = Some((depth, tri));
            }
        }
    }
    let (depth, triangle) = nearest?;
    if second - depth < 1e-4 {
        return None;
    }
    let corners = triangle.map(|i| clip[i]);
    let weights = pixel_weights(corners, width, height, x, y, min_edge_distance)?;
    let ndc = corners.map(|v| [f64::from(v[0]) / f64::from(v[3]), f64::from(v[1]) / f64::from(v[3])]);
    let counter_clockwise = edge(ndc[0], ndc[1], ndc[2]) > 0.0;
    Some(Hit { triangle, weights, counter_clockwise })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearer_of_two_overlapping_triangles_wins() {
        // Two screen-filling triangles, the second nearer (z 0.2 against 0.5).
        let far = [[-1.0, -1.0, 0.5, 1.0], [3.0, -1.0, 0.5, 1.0], [-1.0, 3.0, 0.5, 1.0]];
        let near = [[-1.0, -1.0, 0.2, 1.0], [3.0, -1.0, 0.2, 1.0], [-1.0, 3.0, 0.2, 1.0]];
        let clip: Vec<[f32; 4]> = far.iter().chain(near.iter()).copied().collect();
        let hit = visible_triangle(&clip, &[0, 1, 2, 3, 4, 5], 8, 8, 2, 5, 0.5).unwrap();
        assert_eq!(hit.triangle, [3, 4, 5]);
        // (-1,-1) -> (3,-1) -> (-1,3) turns left with y up.
        assert!(hit.counter_clockwise);
        let reversed = visible_triangle(&clip, &[0, 2, 1], 8, 8, 2, 5, 0.5).unwrap();
        assert!(!reversed.counter_clockwise);
        // Coplanar duplicates are ambiguous.
        assert!(visible_triangle(&clip, &[0, 1, 2, 0, 2, 1], 8, 8, 2, 5, 0.5).is_none());
        // Outside every triangle.
        let small = [[-1.0, -1.0, 0.5, 1.0], [0.0, -1.0, 0.5, 1.0], [-1.0, 0.0, 0.5, 1.0]];
        assert!(visible_triangle(&small, &[0, 1, 2], 8, 8, 7, 0, 0.5).is_none());
    }
}
