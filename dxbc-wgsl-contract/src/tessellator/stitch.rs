//! Connectivity: triangles between two rows of points (a ring's edge and the next ring's), in
//! the reference tessellator's order, and the index remapping that lets the last edge of a ring
//! wrap around to its first point (D3D11.3 §11.7.10 "Connectivity").

use super::edge::Parity;

/// How an edge's point indices map to stored points while it is stitched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IndexMap {
    /// Indices are stored points.
    #[default]
    Direct,
    /// A ring's last edge: inside indices count from 0, outside ones from `outside_base`; the
    /// last of each row wraps to its ring's first point.
    Wrap {
        /// Added to inside indices.
        inside_delta: u32,
        /// The inside index that is the ring's first inside point.
        inside_last: u32,
        /// The ring's first inside point.
        inside_first: u32,
        /// Where outside indices start.
        outside_base: u32,
        /// Added to outside indices (wrapping).
        outside_delta: u32,
        /// The outside index that is the ring's first outside point.
        outside_last: u32,
        /// The ring's first outside point.
        outside_first: u32,
    },
    /// A row stored backwards (the degenerate middle row of even quads): indices at or past
    /// `base` are mirrored about `end`, and `bad` (when set) becomes `replacement`.
    Invert {
        /// The first mirrored index.
        base: u32,
        /// Mirrored index = `end - index`.
        end: u32,
        /// The index that wraps to `replacement` instead.
        bad: Option<u32>,
        /// What `bad` becomes.
        replacement: u32,
    },
}

impl IndexMap {
    /// The stored point an index names.
    pub fn apply(self, index: u32) -> u32 {
        match self {
            IndexMap::Direct => index,
            IndexMap::Wrap {
                inside_delta,
                inside_last,
                inside_first,
                outside_base,
                outside_delta,
                outside_last,
                outside_first,
            } => {
                if index >= outside_base {
                    if index == outside_last {
                        outside_first
                    } else {
                        index.wrapping_add(outside_delta)
                    }
                } else if index == inside_last {
                    inside_first
                } else {
                    index + inside_delta
                }
            }
            IndexMap::Invert { base, end, bad, replacement } => {
                if Some(index) == bad {
                    replacement
                } else if index >= base {
                    end.wrapping_sub(index)
                } else {
                    index
                }
            }
        }
    }
}

/// Receives triangles given clockwise and stores them in the output winding.
pub trait TriangleSink {
    /// Stores the clockwise triangle `a, b, c` (indices before `map`).
    fn triangle(&mut self, map: IndexMap, a: u32, b: u32, c: u32);
}

/// Which way a strip's quads are split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diagonals {
    /// Every diagonal from the inside row forward to the outside row.
    InsideToOutside,
    /// As `InsideToOutside`, except the middle quad's (odd rows).
    InsideToOutsideExceptMiddle,
    /// Mirrored about the middle (the regular rings).
    Mirrored,
}

/// Triangulates between an inside row of `inside_points` points and an outside row with one
/// more (`trapezoid`: a triangle at each end) or the same number.
pub fn stitch_regular(
    sink: &mut impl TriangleSink,
    map: IndexMap,
    trapezoid: bool,
    diagonals: Diagonals,
    inside_points: i32,
    inside_base: u32,
    outside_base: u32,
) {
    let (mut inside, mut outside) = (inside_base, outside_base);
    if trapezoid {
        sink.triangle(map, outside, outside + 1, inside);
        outside += 1;
    }
    let outward = |sink: &mut dyn FnMut(u32, u32, u32), inside: &mut u32, outside: &mut u32| {
        sink(*outside, *outside + 1, *inside);
        sink(*inside, *outside + 1, *inside + 1);
        *inside += 1;
        *outside += 1;
    };
    let mut emit = |a, b, c| sink.triangle(map, a, b, c);
    match diagonals {
        Diagonals::InsideToOutside => {
            for _ in 0..inside_points - 1 {
                emit(inside, outside, outside + 1);
                emit(inside, outside + 1, inside + 1);
                inside += 1;
                outside += 1;
            }
        }
        Diagonals::InsideToOutsideExceptMiddle => {
            let mut p = 0;
            while p < inside_points / 2 - 1 {
                outward(&mut emit, &mut inside, &mut outside);
                p += 1;
            }
            emit(outside, inside + 1, inside);
            emit(outside, outside + 1, inside + 1);
            inside += 1;
            outside += 1;
            p += 2;
            while p < inside_points {
                outward(&mut emit, &mut inside, &mut outside);
                p += 1;
            }
        }
        Diagonals::Mirrored => {
            let mut p = 0;
            while p < inside_points / 2 {
                emit(outside, inside + 1, inside);
                emit(outside, outside + 1, inside + 1);
                inside += 1;
                outside += 1;
                p += 1;
            }
            while p < inside_points - 1 {
                emit(inside, outside, outside + 1);
                emit(inside, outside + 1, inside + 1);
                inside += 1;
                outside += 1;
                p += 1;
            }
        }
    }
    if trapezoid {
        sink.triangle(map, outside, outside + 1, inside);
    }
}

/// Where point i of a half edge ends up at the largest factor, in ruler-function split order:
/// the order in which fractional factors introduce points, which decides when the stitch
/// advances along the inside or outside row.
const FINAL_POSITION: [i32; 33] = [
    0, 32, 16, 8, 17, 4, 18, 9, 19, 2, 20, 10, 21, 5, 22, 11, 23, 1, 24, 12, 25, 6, 26, 13, 27, 3, 28, 14, 29, 7, 30,
    15, 31,
];
/// Per half-point count, the first entry of `FINAL_POSITION` (after 0) below it.
const LOOP_START: [i32; 33] =
    [1, 1, 17, 9, 9, 5, 5, 5, 5, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];
/// Per half-point count, the last entry of `FINAL_POSITION` below it.
const LOOP_END: [i32; 33] = [
    0, 0, 17, 17, 25, 25, 25, 25, 29, 29, 29, 29, 29, 29, 29, 29, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 32,
];

/// One row of a transition stitch: its first point, half-point count and parity.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// Index of its first point.
    pub base: u32,
    /// Points on its half (the edge context's `half_points`).
    pub half_points: i32,
    /// Its parity.
    pub parity: Parity,
}

/// Triangulates between the outermost ring (arbitrary factors) and the first inside ring.
pub fn stitch_transition(sink: &mut impl TriangleSink, map: IndexMap, inside: Row, outside: Row) {
    let inside_half = inside.half_points - i32::from(inside.parity.odd());
    let outside_half = outside.half_points - i32::from(outside.parity.odd());
    let (mut ip, mut op) = (inside.base, outside.base);
    let start = LOOP_START[inside_half as usize].min(LOOP_START[outside_half as usize]);
    let end = LOOP_END[inside_half as usize].max(LOOP_END[outside_half as usize]);
    let mut emit = |a, b, c| sink.triangle(map, a, b, c);
    if FINAL_POSITION[0] < outside_half {
        emit(op, op + 1, ip);
        op += 1;
    }
    for i in start..=end {
        if FINAL_POSITION[i as usize] < inside_half {
            emit(ip, op, ip + 1);
            ip += 1;
        }
        if FINAL_POSITION[i as usize] < outside_half {
            emit(op, op + 1, ip);
            op += 1;
        }
    }
    if inside.parity != outside.parity || inside.parity.odd() {
        if inside.parity == outside.parity {
            emit(ip, op, ip + 1);
            emit(ip + 1, op, op + 1);
            ip += 1;
            op += 1;
        } else if !inside.parity.odd() {
            emit(ip, op, op + 1);
            op += 1;
        } else {
            emit(ip, op, ip + 1);
            ip += 1;
        }
    }
    for i in (start..=end).rev() {
        if FINAL_POSITION[i as usize] < outside_half {
            emit(op, op + 1, ip);
            op += 1;
        }
        if FINAL_POSITION[i as usize] < inside_half {
            emit(ip, op, ip + 1);
            ip += 1;
        }
    }
    if FINAL_POSITION[0] < outside_half {
        emit(op, op + 1, ip);
    }
}
