//! The tri domain: points ring by ring from the outside in, then the rings' triangles
//! (D3D11.3 §11.7.9–11.7.10). Points are (u, v) in 16.16 with w = 1 − u − v.

use super::edge::{point_count, EdgeContext, Parity};
use super::factors::Factor;
use super::fixed::{FXP_ONE, FXP_ONE_HALF, FXP_ONE_THIRD, FXP_TWO_THIRDS};
use super::stitch::{stitch_regular, stitch_transition, Diagonals, IndexMap, Row, TriangleSink};

/// A tri patch's factors with their edge contexts and point counts.
#[derive(Clone, Copy, Debug)]
pub struct TriLayout {
    /// Outside edges U=0, V=0, W=0.
    pub edges: [EdgeContext; 3],
    /// Points on each outside edge, both ends included.
    pub edge_points: [i32; 3],
    /// The inside factor's context.
    pub inside: EdgeContext,
    /// Points along the inside factor's edge (at least 4 odd, 3 even).
    pub inside_points: i32,
}

impl TriLayout {
    /// The layout of processed factors.
    pub fn new(edges: [Factor; 3], inside: Factor) -> TriLayout {
        let minimum = if inside.parity.odd() { 4 } else { 3 };
        TriLayout {
            edges: edges.map(Factor::context),
            edge_points: edges.map(|f| point_count(f.fixed, f.parity)),
            inside: inside.context(),
            inside_points: point_count(inside.fixed, inside.parity).max(minimum),
        }
    }

    /// Points on the outer ring.
    pub fn outer_points(&self) -> u32 {
        (self.edge_points.iter().sum::<i32>() - 3) as u32
    }

    /// Points in all.
    pub fn point_count(&self) -> u32 {
        let rings = (self.inside_points >> 1) - 1;
        let interior =
            if self.inside.parity.odd() { 3 * (rings * (rings + 1) - rings) } else { 3 * (rings * (rings + 1)) + 1 };
        self.outer_points() + interior as u32
    }

    /// Triangles in all.
    pub fn triangle_count(&self) -> u32 {
        let mut outside = self.edge_points;
        let mut count = 0;
        for ring in 1..(self.inside_points + 1) >> 1 {
            let inside = self.inside_points - 2 * ring;
            for edge in &mut outside {
                count += inside + *edge - 2;
                *edge = inside;
            }
        }
        count as u32 + u32::from(self.inside.parity.odd())
    }

    /// Every point, outer ring first (clockwise from v = 1), spiralling in.
    pub fn points(&self, out: &mut impl FnMut(u32, u32)) {
        for (edge, ctx) in self.edges.iter().enumerate() {
            let end = self.edge_points[edge] - 1;
            for p in 0..end {
                let q = if edge & 1 == 1 { p } else { end - p };
                let t = ctx.place(q);
                match edge {
                    0 => out(0, t),
                    1 => out(t, 0),
                    _ => out(t, FXP_ONE - t),
                }
            }
        }
        for ring in 1..self.inside_points >> 1 {
            self.ring_points(ring, out);
        }
        if !self.inside.parity.odd() {
            out(FXP_ONE_THIRD, FXP_ONE_THIRD);
        }
    }

    /// One inside ring's points: the ring's distance from the edge is mapped into barycentric
    /// space (× 2/3, rounded), and the edge-parallel parameter pulled in by half of it.
    fn ring_points(&self, ring: i32, out: &mut impl FnMut(u32, u32)) {
        let end = self.inside_points - 1 - ring;
        let perp = self.inside.place(ring).wrapping_mul(FXP_TWO_THIRDS);
        let perp = perp.wrapping_add(FXP_ONE_HALF) >> 16;
        let pull = perp.wrapping_add(1) / 2;
        for edge in 0..3 {
            for p in ring..end {
                let q = if edge & 1 == 1 { p } else { end - (p - ring) };
                let t = self.inside.place(q).wrapping_sub(pull);
                match edge {
                    0 => out(perp, t),
                    1 => out(t, perp),
                    _ => out(t, FXP_ONE.wrapping_sub(t).wrapping_sub(perp)),
                }
            }
        }
    }

    /// Every triangle, clockwise, ring by ring from the outside.
    pub fn triangles(&self, sink: &mut impl TriangleSink) {
        let mut outside_rows = self.edges.map(|ctx| (ctx.half_points, ctx.parity));
        let mut outside_points = self.edge_points;
        let mut inside_base = self.outer_points();
        let mut outside_base = 0u32;
        for ring in 1..(self.inside_points + 1) >> 1 {
            let inside_points = self.inside_points - 2 * ring;
            let (first_inside, first_outside) = (inside_base, outside_base);
            for edge in 0..3 {
                let (map, ib, ob) = if edge == 2 {
                    let outside_start = (inside_points - 1) as u32 + 1;
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
                } else {
                    (IndexMap::Direct, inside_base, outside_base)
                };
                if ring == 1 {
                    let inside = Row { base: ib, half_points: self.inside.half_points, parity: self.inside.parity };
                    let (half_points, parity) = outside_rows[edge];
                    let outside = Row { base: ob, half_points, parity };
                    stitch_transition(sink, map, inside, outside);
                } else {
                    stitch_regular(sink, map, true, Diagonals::Mirrored, inside_points, ib, ob);
                }
                outside_base += outside_points[edge] as u32 - 1;
                inside_base += inside_points as u32 - 1;
                outside_points[edge] = inside_points;
            }
            outside_rows = [(self.inside.half_points, self.inside.parity); 3];
        }
        if self.inside.parity == Parity::Odd {
            let b = outside_base;
            sink.triangle(IndexMap::Direct, b, b + 1, b + 2);
        }
    }
}
