//! The isoline domain: `density` lines at v = 0, 1/density, ..., each of `detail` segments
//! along u (D3D11.3 §11.7.9; the density is always integer-partitioned, the line at v = 1 is
//! not drawn).

use super::edge::{point_count, EdgeContext};
use super::factors::IsolineFactors;

/// An isoline patch's contexts and counts.
#[derive(Clone, Copy, Debug)]
pub struct IsolineLayout {
    /// Along each line (u).
    pub detail: EdgeContext,
    /// Across the lines (v).
    pub density: EdgeContext,
    /// Points per line.
    pub points_per_line: i32,
    /// Lines.
    pub lines: i32,
}

impl IsolineLayout {
    /// The layout of processed factors.
    pub fn new(factors: IsolineFactors) -> IsolineLayout {
        IsolineLayout {
            detail: factors.detail.context(),
            density: factors.density.context(),
            points_per_line: point_count(factors.detail.fixed, factors.detail.parity),
            lines: point_count(factors.density.fixed, factors.density.parity) - 1,
        }
    }

    /// Points in all.
    pub fn point_count(&self) -> u32 {
        (self.points_per_line * self.lines) as u32
    }

    /// Line segments in all.
    pub fn segment_count(&self) -> u32 {
        (self.lines * (self.points_per_line - 1)) as u32
    }

    /// Every point, line by line.
    pub fn points(&self, out: &mut impl FnMut(u32, u32)) {
        for line in 0..self.lines {
            let v = self.density.place(line);
            for point in 0..self.points_per_line {
                out(self.detail.place(point), v);
            }
        }
    }

    /// Every segment's two point indices, line by line.
    pub fn segments(&self, out: &mut impl FnMut(u32, u32)) {
        for line in 0..self.lines {
            let first = (line * self.points_per_line) as u32;
            for point in 1..self.points_per_line as u32 {
                out(first + point - 1, first + point);
            }
        }
    }
}
