//! The quad domain: points ring by ring from the outside in (an even axis leaves a middle row),
//! then the rings' triangles and the middle strip (D3D11.3 §11.7.9–11.7.10). Points are (u, v)
//! in 16.16.

use super::edge::{point_count, EdgeContext, Parity};
use super::factors::Factor;
use super::fixed::{FXP_ONE, FXP_ONE_HALF};
use super::stitch::{stitch_regular, stitch_transition, Diagonals, IndexMap, Row, TriangleSink};

/// A quad patch's factors with their edge contexts and point counts.
#[derive(Clone, Copy, Debug)]
pub struct QuadLayout {
    /// Outside edges U=0, V=0, U=1, V=1.
    pub edges: [EdgeContext; 4],
    /// Points on each outside edge, both ends included.
    pub edge_points: [i32; 4],
    /// The inside factors' contexts, U then V.
    pub inside: [EdgeContext; 2],
    /// Points along each inside axis (at least 4 odd, 3 even).
    pub inside_points: [i32; 2],
}

const U: usize = 0;
const V: usize = 1;

impl QuadLayout {
    /// The layout of processed factors.
    pub fn new(edges: [Factor; 4], inside: [Factor; 2]) -> QuadLayout {
        QuadLayout {
            edges: edges.map(Factor::context),
            edge_points: edges.map(|f| point_count(f.fixed, f.parity)),
            inside: inside.map(Factor::context),
            inside_points: inside.map(|f| {
                let minimum = if f.parity.odd() { 4 } else { 3 };
                point_count(f.fixed, f.parity).max(minimum)
            }),
        }
    }

    /// Points on the outer ring.
    pub fn outer_points(&self) -> u32 {
        (self.edge_points.iter().sum::<i32>() - 4) as u32
    }

    /// Points in all.
    pub fn point_count(&self) -> u32 {
        let [nu, nv] = self.inside_points;
        self.outer_points() + ((nu - 2) * (nv - 2)) as u32
    }

    /// Rings of triangles (the outer transition ring included) and the middle strip's quads.
    fn rings_and_strip(&self) -> (i32, i32) {
        let [nu, nv] = self.inside_points;
        let rings = ((nu + 1) >> 1).min((nv + 1) >> 1);
        let strip = if nu > nv && self.inside[V].parity.odd() {
            (((nu >> 1) - (nv >> 1)) << 1) + if self.inside[U].parity.odd() { 1 } else { 2 }
        } else if nv >= nu && self.inside[U].parity.odd() {
            (((nv >> 1) - (nu >> 1)) << 1) + if self.inside[V].parity.odd() { 1 } else { 2 }
        } else {
            0
        };
        (rings, strip)
    }

    /// Triangles in all.
    pub fn triangle_count(&self) -> u32 {
        let (rings, strip) = self.rings_and_strip();
        let mut outside = self.edge_points;
        let mut count = 0;
        for ring in 1..rings {
            for (edge, points) in outside.iter_mut().enumerate() {
                let inside = self.inside_points[(edge + 1) & 1] - 2 * ring;
                count += inside + *points - 2;
                *points = inside;
            }
        }
        (count + 2 * strip) as u32
    }

    /// Every point: the outer ring clockwise from (0, 0)'s edge U=0, the inside rings spiralling
    /// in, then the middle row of an even axis.
    pub fn points(&self, out: &mut impl FnMut(u32, u32)) {
        for (edge, ctx) in self.edges.iter().enumerate() {
            let end = self.edge_points[edge] - 1;
            for p in 0..end {
                let q = if edge == 1 || edge == 2 { p } else { end - p };
                let t = ctx.place(q);
                match edge {
                    0 => out(0, t),
                    1 => out(t, 0),
                    2 => out(FXP_ONE, t),
                    _ => out(t, FXP_ONE),
                }
            }
        }
        let [nu, nv] = self.inside_points;
        let rings = nu.min(nv) >> 1;
        for ring in 1..rings {
            self.ring_points(ring, out);
        }
        if nu > nv && !self.inside[V].parity.odd() {
            for p in rings..=nu - 1 - rings {
                out(self.inside[U].place(p), FXP_ONE_HALF);
            }
        } else if nv >= nu && !self.inside[U].parity.odd() {
            for p in (rings..=nv - 1 - rings).rev() {
                out(FXP_ONE_HALF, self.inside[V].place(p));
            }
        }
    }

    /// One inside ring's points, clockwise.
    fn ring_points(&self, ring: i32, out: &mut impl FnMut(u32, u32)) {
        let end = [self.inside_points[U] - 1 - ring, self.inside_points[V] - 1 - ring];
        for edge in 0..4 {
            let (perp_axis, along_axis) = (edge & 1, (edge + 1) & 1);
            let perp_point = if edge < 2 { ring } else { end[perp_axis] };
            let perp = self.inside[perp_axis].place(perp_point);
            for p in ring..end[along_axis] {
                let q = if edge == 1 || edge == 2 { p } else { end[along_axis] - (p - ring) };
                let t = self.inside[along_axis].place(q);
                if along_axis == V {
                    out(perp, t);
                } else {
                    out(t, perp);
                }
            }
        }
    }

    /// Every triangle, clockwise: the rings from the outside, then the middle strip.
    pub fn triangles(&self, sink: &mut impl TriangleSink) {
        let (rings, strip) = self.rings_and_strip();
        let [nu, nv] = self.inside_points;
        let rows_to_centre = [(nu + 1) >> 1, (nv + 1) >> 1];
        // The ring that is an even axis's middle row, per parity index (edge + 1) & 1.
        let degenerate_ring = [
            if self.inside[V].parity.odd() { -1 } else { rows_to_centre[V] - 1 },
            if self.inside[U].parity.odd() { -1 } else { rows_to_centre[U] - 1 },
        ];
        let mut outside_rows = self.edges.map(|ctx| (ctx.half_points, ctx.parity));
        let mut outside_points = self.edge_points;
        let mut inside_base = self.outer_points();
        let mut outside_base = 0u32;
        for ring in 1..rings {
            let inside_edge_points = [nu - 2 * ring, nv - 2 * ring];
            let (first_inside, first_outside) = (inside_base, outside_base);
            for edge in 0..4 {
                let axis = (edge + 1) & 1;
                let inside_points = inside_edge_points[axis];
                let degenerate = ring == degenerate_ring[axis];
                let (map, ib, ob) = if edge == 3 && degenerate {
                    let base = inside_base + 1;
                    let map = IndexMap::Invert {
                        base,
                        end: (base << 1) - 1,
                        bad: Some(outside_base + outside_points[edge] as u32 - 1),
                        replacement: first_outside,
                    };
                    (map, base, outside_base)
                } else if edge == 3 {
                    let outside_start = inside_points as u32;
                    let map = IndexMap::Wrap {
                        inside_delta: inside_base,
                        inside_last: (inside_points - 1) as u32,
                        inside_first: first_inside,
                        outside_base: outside_start,
                        outside_delta: outside_base.wrapping_sub(outside_start),
                        outside_last: outside_start + outside_points[edge] as u32 - 1,
                        outside_first: first_outside,
                    };
                    (map, 0, outside_start)
                } else if edge == 2 && degenerate {
                    let map = IndexMap::Invert { base: inside_base, end: inside_base << 1, bad: None, replacement: 0 };
                    (map, inside_base, outside_base)
                } else {
                    (IndexMap::Direct, inside_base, outside_base)
                };
                if ring == 1 {
                    let inside =
                        Row { base: ib, half_points: self.inside[axis].half_points, parity: self.inside[axis].parity };
                    let (half_points, parity) = outside_rows[edge];
                    let outside = Row { base: ob, half_points, parity };
                    stitch_transition(sink, map, inside, outside);
                } else {
                    stitch_regular(sink, map, true, Diagonals::Mirrored, inside_points, ib, ob);
                }
                outside_base += outside_points[edge] as u32 - 1;
                if edge == 2 && degenerate {
                    inside_base -= inside_points as u32 - 1;
                } else {
                    inside_base += inside_points as u32 - 1;
                }
                outside_points[edge] = inside_points;
            }
            if ring == 1 {
                outside_rows = [0, 1, 0, 1].map(|a| (self.inside[a].half_points, self.inside[a].parity));
            }
        }
        self.middle_strip(sink, strip, outside_base);
    }

    /// The middle strip of quads an odd axis leaves (`strip` quads, 0 when none).
    fn middle_strip(&self, sink: &mut impl TriangleSink, strip: i32, outside_base: u32) {
        let [nu, nv] = self.inside_points;
        let strip_u = strip as u32;
        if nu > nv && self.inside[V].parity.odd() {
            let base = outside_base + strip_u + 2;
            let map = IndexMap::Invert { base, end: base + base + strip_u, bad: Some(base), replacement: outside_base };
            let diagonals = Diagonals::InsideToOutside;
            stitch_regular(sink, map, false, diagonals, strip + 1, base, outside_base + 1);
        } else if nv >= nu && self.inside[U].parity.odd() {
            let base = outside_base + strip_u + 1;
            let map = IndexMap::Invert { base, end: base + base + strip_u, bad: None, replacement: 0 };
            let diagonals = if self.inside[V].parity == Parity::Even {
                Diagonals::InsideToOutside
            } else {
                Diagonals::InsideToOutsideExceptMiddle
            };
            stitch_regular(sink, map, false, diagonals, strip + 1, base, outside_base);
        }
    }
}
