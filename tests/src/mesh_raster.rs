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

/// One triangle's screen-space corners, depths and bounding box.
struct ScreenTriangle {
    indices: [usize; 3],
    screen: [[f64; 2]; 3],
    depth: [f64; 3],
    area: f64,
    min: [f64; 2],
    max: [f64; 2],
}

/// A projected mesh: clip-space vertex positions and triangles, prepared for per-pixel queries.
pub struct ScreenMesh<'a> {
    clip: &'a [[f32; 4]],
    width: u32,
    height: u32,
    triangles: Vec<ScreenTriangle>,
}

fn edge(a: [f64; 2], b: [f64; 2], q: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0])
}

impl<'a> ScreenMesh<'a> {
    /// Projects `clip` (one position per vertex) for a `width` x `height` target; triangles with a
    /// corner behind the camera (w <= 0) or of zero area are dropped.
    pub fn new(clip: &'a [[f32; 4]], indices: &[u32], width: u32, height: u32) -> Self {
        let triangles = indices
            .chunks_exact(3)
            .filter_map(|t| {
                let indices = [t[0] as usize, t[1] as usize, t[2] as usize];
                let c = indices.map(|i| clip[i]);
                if c.iter().any(|v| v[3] <= 1e-6) {
                    return None;
                }
                let screen = c.map(|v| to_screen(v, width, height));
                let area = edge(screen[0], screen[1], screen[2]);
                if area.abs() < 1e-12 {
                    return None;
                }
                let min = [0, 1].map(|k| screen.iter().map(|s| s[k]).fold(f64::INFINITY, f64::min));
                let max = [0, 1].map(|k| screen.iter().map(|s| s[k]).fold(f64::NEG_INFINITY, f64::max));
                let depth = c.map(|v| f64::from(v[2]) / f64::from(v[3]));
                Some(ScreenTriangle { indices, screen, depth, area, min, max })
            })
            .collect();
        Self { clip, width, height, triangles }
    }

    /// The nearest triangle (smallest depth z/w in [0, 1]) covering the centre of pixel (x, y), or
    /// `None` when none does, when the centre lies within `min_edge_distance` pixels of that
    /// triangle's edges, or when another covering triangle is within 1e-4 in depth (ambiguous).
    pub fn visible(&self, x: u32, y: u32, min_edge_distance: f64) -> Option<Hit> {
        let p = [f64::from(x) + 0.5, f64::from(y) + 0.5];
        let mut nearest: Option<(f64, &ScreenTriangle)> = None;
        let mut second = f64::INFINITY;
        for t in &self.triangles {
            if p[0] < t.min[0] || p[0] > t.max[0] || p[1] < t.min[1] || p[1] > t.max[1] {
                continue;
            }
            let s = &t.screen;
            let l = [edge(s[1], s[2], p) / t.area, edge(s[2], s[0], p) / t.area, edge(s[0], s[1], p) / t.area];
            if l.iter().any(|&v| v < 0.0) {
                continue;
            }
            let depth: f64 = (0..3).map(|i| l[i] * t.depth[i]).sum();
            if !(0.0..=1.0).contains(&depth) {
                continue;
            }
            match nearest {
                Some((d, _)) if depth >= d => second = second.min(depth),
                _ => {
                    if let Some((d, _)) = nearest {
                        second = second.min(d);
                    }
                    nearest = Some((depth, t));
                }
            }
        }
        let (depth, t) = nearest?;
        if second - depth < 1e-4 {
            return None;
        }
        let corners = t.indices.map(|i| self.clip[i]);
        let weights = pixel_weights(corners, self.width, self.height, x, y, min_edge_distance)?;
        let ndc = corners.map(|v| [f64::from(v[0]) / f64::from(v[3]), f64::from(v[1]) / f64::from(v[3])]);
        let counter_clockwise = edge(ndc[0], ndc[1], ndc[2]) > 0.0;
        Some(Hit { triangle: t.indices, weights, counter_clockwise })
    }
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
        let hit = ScreenMesh::new(&clip, &[0, 1, 2, 3, 4, 5], 8, 8).visible(2, 5, 0.5).unwrap();
        assert_eq!(hit.triangle, [3, 4, 5]);
        // (-1,-1) -> (3,-1) -> (-1,3) turns left with y up.
        assert!(hit.counter_clockwise);
        let reversed = ScreenMesh::new(&clip, &[0, 2, 1], 8, 8).visible(2, 5, 0.5).unwrap();
        assert!(!reversed.counter_clockwise);
        // Coplanar duplicates are ambiguous.
        assert!(ScreenMesh::new(&clip, &[0, 1, 2, 0, 2, 1], 8, 8).visible(2, 5, 0.5).is_none());
        // Outside every triangle.
        let small = [[-1.0, -1.0, 0.5, 1.0], [0.0, -1.0, 0.5, 1.0], [-1.0, 0.0, 0.5, 1.0]];
        assert!(ScreenMesh::new(&small, &[0, 1, 2], 8, 8).visible(7, 0, 0.5).is_none());
        // Too close to an edge: the centre of pixel (3, 6) is 0.5 pixels from this triangle's edge x = 4.
        let half = [[-1.0, -1.0, 0.5, 1.0], [0.0, -1.0, 0.5, 1.0], [0.0, 1.0, 0.5, 1.0]];
        assert!(ScreenMesh::new(&half, &[0, 1, 2], 8, 8).visible(3, 6, 0.6).is_none());
        assert!(ScreenMesh::new(&half, &[0, 1, 2], 8, 8).visible(3, 6, 0.4).is_some());
    }
}
