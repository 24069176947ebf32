//! Tessellation factors as the hull shader wrote them, to what the tessellator tessellates:
//! culling, clamping per partitioning, rounding, parity and 16.16 conversion
//! (D3D11.3 §11.7.6 "Tessellation factor processing", §11.7.7 "Culling").
//!
//! Inside-factor reduction and pow2 rounding are hull-shader code (fxc compiles them into the
//! patch-constant phase); the fixed-function stage treats pow2 exactly as integer.

use super::edge::{EdgeContext, Parity};
use super::fixed::{
    ceil_at_least_one, clamp, greater, integer_part_is_even, is_nan, order_key, to_fixed, F32_ONE,
    F32_ONE_PLUS_EPSILON, F32_ONE_PLUS_HALF_EPSILON, FXP_ONE,
};
use super::Partitioning;

/// The f32 bits of 2.0, fractional_even's lower bound.
const F32_TWO: u32 = 0x4000_0000;
/// The f32 bits of 63.0, fractional_odd's upper bound.
const F32_SIXTY_THREE: u32 = 0x427c_0000;
/// The f32 bits of 64.0, the other partitionings' upper bound and the isoline density's.
const F32_SIXTY_FOUR: u32 = 0x4280_0000;

/// A processed factor: its 16.16 value and the parity its edge is tessellated with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Factor {
    /// The clamped (and, for integer partitioning, rounded-up) factor in 16.16.
    pub fixed: u32,
    /// The parity its points are placed with.
    pub parity: Parity,
}

impl Factor {
    /// The edge context that places this factor's points.
    pub fn context(self) -> EdgeContext {
        EdgeContext::new(self.fixed, self.parity)
    }
}

/// What factor processing decides for a tri or quad patch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Processed<const EDGES: usize, const INSIDE: usize> {
    /// An edge factor is ≤ 0 or NaN: no points, no primitives.
    Culled,
    /// Every factor is 1 (integer, pow2, fractional_odd): the patch's corners only.
    Minimum,
    /// Edge factors (in the domain's edge order) and inside factors (U, then V for quads).
    Factors {
        /// Outside edges.
        edges: [Factor; EDGES],
        /// Inside factors.
        inside: [Factor; INSIDE],
    },
}

/// Whether the patch is culled: an edge factor that is not greater than 0 (NaN included).
pub fn culled(edges: &[u32]) -> bool {
    edges.iter().any(|&bits| is_nan(bits) || order_key(bits) <= 0)
}

/// The (lower, upper) clamp bounds of a partitioning, as f32 bits.
pub fn bounds(partitioning: Partitioning) -> (u32, u32) {
    match partitioning {
        Partitioning::Integer | Partitioning::Pow2 => (F32_ONE, F32_SIXTY_FOUR),
        Partitioning::FractionalEven => (F32_TWO, F32_SIXTY_FOUR),
        Partitioning::FractionalOdd => (F32_ONE, F32_SIXTY_THREE),
    }
}

/// Whether a partitioning rounds factors up to integers (pow2 is integer here).
pub fn rounds_to_integer(partitioning: Partitioning) -> bool {
    matches!(partitioning, Partitioning::Integer | Partitioning::Pow2)
}

/// A factor clamped to `[lower, upper]` (NaN to `lower`), rounded up under integer
/// partitioning; f32 bits.
fn clamp_and_round(bits: u32, lower: u32, upper: u32, partitioning: Partitioning) -> u32 {
    let clamped = clamp(bits, lower, upper);
    if rounds_to_integer(partitioning) {
        ceil_at_least_one(clamped)
    } else {
        clamped
    }
}

/// An edge factor's parity: its integer's under integer partitioning, the partitioning's
/// otherwise.
fn edge_parity(bits: u32, partitioning: Partitioning) -> Parity {
    match partitioning {
        Partitioning::FractionalOdd => Parity::Odd,
        Partitioning::FractionalEven => Parity::Even,
        _ if integer_part_is_even(bits) => Parity::Even,
        _ => Parity::Odd,
    }
}

/// An inside factor's parity: as an edge's, except that an integer inside factor of 1 is even.
fn inside_parity(bits: u32, partitioning: Partitioning) -> Parity {
    if rounds_to_integer(partitioning) && bits == F32_ONE {
        Parity::Even
    } else {
        edge_parity(bits, partitioning)
    }
}

/// Processes a tri (`EDGES` 3, `INSIDE` 1) or quad (4, 2) patch's factors, f32 bits in the
/// domain's order (tri: U=0, V=0, W=0 edges, inside; quad: U=0, V=0, U=1, V=1, inside U, V).
pub fn process<const EDGES: usize, const INSIDE: usize>(
    edges: [u32; EDGES],
    inside: [u32; INSIDE],
    partitioning: Partitioning,
) -> Processed<EDGES, INSIDE> {
    if culled(&edges) {
        return Processed::Culled;
    }
    let (mut lower, upper) = bounds(partitioning);
    let edges = edges.map(|bits| clamp_and_round(bits, lower, upper, partitioning));
    if partitioning == Partitioning::FractionalOdd {
        // Any factor above 1 after conversion forces a picture frame: the inside factors are
        // raised above 1. (Tri patches test only their edges; quads also their raw inside factors.)
        let above_one = |&bits: &u32| greater(bits, F32_ONE_PLUS_HALF_EPSILON);
        if edges.iter().any(above_one) || (INSIDE == 2 && inside.iter().any(above_one)) {
            lower = F32_ONE_PLUS_EPSILON;
        }
    }
    let inside = inside.map(|bits| clamp_and_round(bits, lower, upper, partitioning));
    let edges = edges.map(|bits| Factor { fixed: to_fixed(bits), parity: edge_parity(bits, partitioning) });
    let inside = inside.map(|bits| Factor { fixed: to_fixed(bits), parity: inside_parity(bits, partitioning) });
    let all_one = edges.iter().chain(&inside).all(|f| f.fixed == FXP_ONE);
    if partitioning != Partitioning::FractionalEven && all_one {
        return Processed::Minimum;
    }
    Processed::Factors { edges, inside }
}

/// An isoline patch's processed factors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IsolineFactors {
    /// Line detail: points along each line (the partitioning's rules).
    pub detail: Factor,
    /// Line density: always integer partitioning, clamped to `[1, 64]`.
    pub density: Factor,
}

/// Processes an isoline patch's factors (f32 bits: density, detail); `None` when culled.
pub fn process_isoline(density: u32, detail: u32, partitioning: Partitioning) -> Option<IsolineFactors> {
    if culled(&[density, detail]) {
        return None;
    }
    let (lower, upper) = bounds(partitioning);
    let detail = clamp_and_round(detail, lower, upper, partitioning);
    let density = ceil_at_least_one(clamp(density, F32_ONE, F32_SIXTY_FOUR));
    Some(IsolineFactors {
        detail: Factor { fixed: to_fixed(detail), parity: edge_parity(detail, partitioning) },
        density: Factor { fixed: to_fixed(density), parity: edge_parity(density, Partitioning::Integer) },
    })
}
