//! One tessellated edge: how many points a factor puts on it and where each lies
//! (D3D11.3 §11.7.8–11.7.9: fractional factors split the edge symmetrically about its middle,
//! new points appearing in the ruler function's order).

use super::fixed::{fxp_ceil, fxp_floor, reciprocal, remove_msb, FXP_ONE, FXP_ONE_HALF};

/// An edge factor's parity: odd factors have a point-free middle segment, even ones a point at
/// the middle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parity {
    /// Even partitioning (fractional_even, or an even integer factor, or 1 inside).
    Even,
    /// Odd partitioning (fractional_odd, or an odd integer factor).
    Odd,
}

impl Parity {
    /// Whether odd.
    pub fn odd(self) -> bool {
        self == Parity::Odd
    }
}

/// What placing points along an edge of a given 16.16 factor needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeContext {
    /// The parity the factor is tessellated with.
    pub parity: Parity,
    /// The fraction of half the factor (16.16): the blend between the floor and ceiling layouts.
    pub half_fraction: u32,
    /// Points on one half of the edge, ceiling of half the factor.
    pub half_points: i32,
    /// The point index after which the floor layout has one point fewer.
    pub split_point: i32,
    /// 1/segments (16.16) of the floor layout.
    pub inv_floor_segments: u32,
    /// 1/segments (16.16) of the ceiling layout.
    pub inv_ceil_segments: u32,
}

/// How many points (both ends included) an edge of 16.16 factor `factor` has.
pub fn point_count(factor: u32, parity: Parity) -> i32 {
    let half = factor.wrapping_add(1) / 2;
    if parity.odd() {
        ((fxp_ceil(FXP_ONE_HALF.wrapping_add(half)).wrapping_mul(2)) >> 16) as i32
    } else {
        ((fxp_ceil(half).wrapping_mul(2) >> 16) + 1) as i32
    }
}

impl EdgeContext {
    /// The context of an edge of 16.16 factor `factor` tessellated with `parity`.
    pub fn new(factor: u32, parity: Parity) -> EdgeContext {
        let mut half = factor.wrapping_add(1) / 2;
        if parity.odd() || half == FXP_ONE_HALF {
            half = half.wrapping_add(FXP_ONE_HALF);
        }
        let floor = fxp_floor(half);
        let ceil = fxp_ceil(half);
        let half_points = (ceil >> 16) as i32;
        let split_point = if ceil == floor {
            half_points + 1
        } else if parity.odd() {
            if floor == FXP_ONE {
                0
            } else {
                ((remove_msb((floor >> 16) - 1) << 1) + 1) as i32
            }
        } else {
            ((remove_msb(floor >> 16) << 1) + 1) as i32
        };
        let odd = u32::from(parity.odd());
        let floor_segments = (floor.wrapping_mul(2) >> 16).wrapping_sub(odd);
        let ceil_segments = (ceil.wrapping_mul(2) >> 16).wrapping_sub(odd);
        EdgeContext {
            parity,
            half_fraction: half - floor,
            half_points,
            split_point,
            inv_floor_segments: reciprocal(floor_segments),
            inv_ceil_segments: reciprocal(ceil_segments),
        }
    }

    /// Where point `point` (0 at the edge's start) lies along the edge, in 16.16 within `[0, 1]`.
    pub fn place(&self, point: i32) -> u32 {
        let mut point = point;
        let flip = point >= self.half_points;
        if flip {
            point = (self.half_points << 1) - point;
            if self.parity.odd() {
                point -= 1;
            }
        }
        if point == self.half_points {
            return FXP_ONE_HALF;
        }
        let on_ceil = point as u32;
        let on_floor = if point > self.split_point { on_ceil - 1 } else { on_ceil };
        let at_floor = on_floor.wrapping_mul(self.inv_floor_segments);
        let at_ceil = on_ceil.wrapping_mul(self.inv_ceil_segments);
        let blended =
            at_floor.wrapping_mul(FXP_ONE - self.half_fraction).wrapping_add(at_ceil.wrapping_mul(self.half_fraction));
        let location = blended.wrapping_add(FXP_ONE_HALF) >> 16;
        if flip {
            FXP_ONE - location
        } else {
            location
        }
    }
}
