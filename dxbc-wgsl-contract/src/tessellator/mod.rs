//! D3D11's fixed-function tessellator, bit-exact (D3D11.3 functional spec §11.7).
//!
//! Between the hull shader and the domain shader, the tessellator turns a patch's tessellation
//! factors into domain points (u, v) and the primitives that connect them. It computes in 16.16
//! fixed point, so every coordinate is an exact multiple of 2^-16, and this implementation
//! reproduces Microsoft's reference tessellator (`CHWTessellator`) bit for bit. The same
//! algorithm runs in WGSL compute ([`WGSL`], driven by `dxbc-wgsl-runtime`'s `tessellator`
//! module); `docs/tessellation.md` describes the design and the output layout.
//!
//! | module | concern |
//! |---|---|
//! | [`fixed`] | 16.16 fixed point, f32-bit clamping and rounding (integer-only) |
//! | [`factors`] | culling, clamping, rounding and parity of the hull shader's factors |
//! | [`edge`] | points along one edge: counts and 1D placement |
//! | [`stitch`] | triangles between two rows of points, index remapping |
//! | [`tri`], [`quad`], [`isoline`] | each domain's points and primitives |
//! | [`case`] | the text form of `dxbc-wgsl tessellate` (`cases.txt` lines, `expected.jsonl` objects) |
//! | [`kernel`] | the WGSL kernel's bindings, uniform and per-patch record |
//!
//! Inside-factor reduction and pow2 rounding are hull-shader code: this stage treats pow2 as
//! integer, as the hardware does.

pub mod case;
pub mod edge;
pub mod factors;
pub mod fixed;
pub mod isoline;
pub mod kernel;
pub mod quad;
pub mod stitch;
pub mod tri;

use factors::{process, process_isoline, Processed};
use fixed::{fixed_to_f32_bits, FXP_ONE};
use isoline::IsolineLayout;
use quad::QuadLayout;
use stitch::{IndexMap, TriangleSink};
use tri::TriLayout;

/// The tessellator in WGSL: a count pass and a write pass over a batch of patches (see
/// `docs/tessellation.md`; `dxbc-wgsl-runtime`'s `tessellator` module drives it).
pub const WGSL: &str = include_str!("../wgsl/tessellator.wgsl");

/// The patch domain (`[domain(...)]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Domain {
    /// Triangles: factors U=0, V=0, W=0 edges and one inside factor.
    Tri,
    /// Quads: factors U=0, V=0, U=1, V=1 edges and inside U, V.
    Quad,
    /// Isolines: line density, line detail.
    Isoline,
}

/// The partitioning (`[partitioning(...)]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Partitioning {
    /// Integer factors (rounded up).
    Integer,
    /// Powers of two: the fixed-function stage treats them as integer.
    Pow2,
    /// Fractional, odd number of segments.
    FractionalOdd,
    /// Fractional, even number of segments.
    FractionalEven,
}

/// The output primitive (`[outputtopology(...)]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputPrimitive {
    /// Every domain point once.
    Point,
    /// Line segments (isolines; tri and quad give the points in order as a line list).
    Line,
    /// Triangles, clockwise.
    TriangleCw,
    /// Triangles, counter-clockwise.
    TriangleCcw,
}

impl Domain {
    /// The name in HLSL and in `cases.txt` (`tri`, `quad`, `isoline`).
    pub fn name(self) -> &'static str {
        match self {
            Domain::Tri => "tri",
            Domain::Quad => "quad",
            Domain::Isoline => "isoline",
        }
    }

    /// The domain of a name.
    pub fn from_name(name: &str) -> Option<Domain> {
        [Domain::Tri, Domain::Quad, Domain::Isoline].into_iter().find(|d| d.name() == name)
    }

    /// How many factors a patch of this domain has (edges, then inside).
    pub fn factor_count(self) -> usize {
        match self {
            Domain::Tri => 4,
            Domain::Quad => 6,
            Domain::Isoline => 2,
        }
    }

    /// The domain's number in the WGSL kernel's `TessParams.domain`.
    pub fn code(self) -> u32 {
        self as u32
    }
}

impl Partitioning {
    /// The name in HLSL (`integer`, `pow2`, `fractional_odd`, `fractional_even`).
    pub fn name(self) -> &'static str {
        match self {
            Partitioning::Integer => "integer",
            Partitioning::Pow2 => "pow2",
            Partitioning::FractionalOdd => "fractional_odd",
            Partitioning::FractionalEven => "fractional_even",
        }
    }

    /// The partitioning of a name.
    pub fn from_name(name: &str) -> Option<Partitioning> {
        use Partitioning::*;
        [Integer, Pow2, FractionalOdd, FractionalEven].into_iter().find(|p| p.name() == name)
    }

    /// The partitioning's number in the WGSL kernel's `TessParams.partitioning`.
    pub fn code(self) -> u32 {
        self as u32
    }
}

impl OutputPrimitive {
    /// The name in HLSL (`point`, `line`, `triangle_cw`, `triangle_ccw`).
    pub fn name(self) -> &'static str {
        match self {
            OutputPrimitive::Point => "point",
            OutputPrimitive::Line => "line",
            OutputPrimitive::TriangleCw => "triangle_cw",
            OutputPrimitive::TriangleCcw => "triangle_ccw",
        }
    }

    /// The output primitive of a name.
    pub fn from_name(name: &str) -> Option<OutputPrimitive> {
        use OutputPrimitive::*;
        [Point, Line, TriangleCw, TriangleCcw].into_iter().find(|o| o.name() == name)
    }

    /// Indices per primitive: 1, 2 or 3.
    pub fn indices_per_primitive(self) -> u32 {
        match self {
            OutputPrimitive::Point => 1,
            OutputPrimitive::Line => 2,
            _ => 3,
        }
    }

    /// The output primitive's number in the WGSL kernel's `TessParams.output`.
    pub fn code(self) -> u32 {
        self as u32
    }
}

/// One patch's tessellation: its domain points and the primitives' indices into them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tessellation {
    /// Domain points (u, v) as f32 bits, each an exact multiple of 2^-16 in `[0, 1]`
    /// (for tri, w = 1 − u − v).
    pub points: Vec<[u32; 2]>,
    /// Indices into `points`: 3 per triangle in the output winding, 2 per line, one per point.
    /// Empty (with `points`) when the patch is culled.
    pub indices: Vec<u32>,
}

/// Collects points and stores triangles in the output winding.
struct Mesh {
    tessellation: Tessellation,
    clockwise: bool,
}

impl Mesh {
    fn point(&mut self, u: u32, v: u32) {
        self.tessellation.points.push([fixed_to_f32_bits(u), fixed_to_f32_bits(v)]);
    }
}

impl TriangleSink for Mesh {
    fn triangle(&mut self, map: IndexMap, a: u32, b: u32, c: u32) {
        let [a, b, c] = [a, b, c].map(|i| map.apply(i));
        let triangle = if self.clockwise { [a, b, c] } else { [a, c, b] };
        self.tessellation.indices.extend(triangle);
    }
}

/// The points of a patch as drawn from `points`, connected as `output` says when it is not a
/// triangle list (points: each once; lines: the points in order as a line list).
fn dump_points(mesh: &mut Mesh, output: OutputPrimitive) {
    let n = mesh.tessellation.points.len() as u32;
    let indices = &mut mesh.tessellation.indices;
    match output {
        OutputPrimitive::Point => indices.extend(0..n),
        _ => indices.extend((1..n).flat_map(|p| [p - 1, p])),
    }
}

/// Tessellates one patch. `factors` are f32s as the hull shader's patch-constant phase wrote
/// them, in the domain's order (tri: U=0, V=0, W=0, inside; quad: U=0, V=0, U=1, V=1, inside U,
/// inside V; isoline: density, detail); missing ones read as 0 and extra ones are ignored.
pub fn tessellate(
    domain: Domain,
    partitioning: Partitioning,
    output: OutputPrimitive,
    factors: &[f32],
) -> Tessellation {
    let bits = |i: usize| factors.get(i).map_or(0, |f| f.to_bits());
    let mut mesh = Mesh { tessellation: Tessellation::default(), clockwise: output != OutputPrimitive::TriangleCcw };
    let triangles = matches!(output, OutputPrimitive::TriangleCw | OutputPrimitive::TriangleCcw);
    match domain {
        Domain::Isoline => {
            let Some(processed) = process_isoline(bits(0), bits(1), partitioning) else {
                return mesh.tessellation;
            };
            let layout = IsolineLayout::new(processed);
            layout.points(&mut |u, v| mesh.point(u, v));
            if output == OutputPrimitive::Point {
                dump_points(&mut mesh, output);
            } else {
                let indices = &mut mesh.tessellation.indices;
                layout.segments(&mut |a, b| indices.extend([a, b]));
            }
        }
        Domain::Tri => match process([bits(0), bits(1), bits(2)], [bits(3)], partitioning) {
            Processed::Culled => {}
            Processed::Minimum => {
                for (u, v) in [(0, FXP_ONE), (0, 0), (FXP_ONE, 0)] {
                    mesh.point(u, v);
                }
                if triangles {
                    mesh.triangle(IndexMap::Direct, 0, 1, 2);
                } else {
                    dump_points(&mut mesh, output);
                }
            }
            Processed::Factors { edges, inside: [inside] } => {
                let layout = TriLayout::new(edges, inside);
                layout.points(&mut |u, v| mesh.point(u, v));
                if triangles {
                    layout.triangles(&mut mesh);
                } else {
                    dump_points(&mut mesh, output);
                }
            }
        },
        Domain::Quad => {
            let edges = [bits(0), bits(1), bits(2), bits(3)];
            match process(edges, [bits(4), bits(5)], partitioning) {
                Processed::Culled => {}
                Processed::Minimum => {
                    for (u, v) in [(0, 0), (FXP_ONE, 0), (FXP_ONE, FXP_ONE), (0, FXP_ONE)] {
                        mesh.point(u, v);
                    }
                    if triangles {
                        mesh.triangle(IndexMap::Direct, 0, 1, 3);
                        mesh.triangle(IndexMap::Direct, 1, 2, 3);
                    } else {
                        dump_points(&mut mesh, output);
                    }
                }
                Processed::Factors { edges, inside } => {
                    let layout = QuadLayout::new(edges, inside);
                    layout.points(&mut |u, v| mesh.point(u, v));
                    if triangles {
                        layout.triangles(&mut mesh);
                    } else {
                        dump_points(&mut mesh, output);
                    }
                }
            }
        }
    }
    mesh.tessellation
}

/// How many points and indices [`tessellate`] gives a patch, without generating them (the WGSL
/// kernel's count pass computes the same).
pub fn counts(domain: Domain, partitioning: Partitioning, output: OutputPrimitive, factors: &[f32]) -> (u32, u32) {
    let bits = |i: usize| factors.get(i).map_or(0, |f| f.to_bits());
    let (points, primitives) = match domain {
        Domain::Isoline => match process_isoline(bits(0), bits(1), partitioning) {
            None => (0, 0),
            Some(p) => {
                let layout = IsolineLayout::new(p);
                (layout.point_count(), layout.segment_count())
            }
        },
        Domain::Tri => match process([bits(0), bits(1), bits(2)], [bits(3)], partitioning) {
            Processed::Culled => (0, 0),
            Processed::Minimum => (3, 1),
            Processed::Factors { edges, inside: [inside] } => {
                let layout = TriLayout::new(edges, inside);
                (layout.point_count(), layout.triangle_count())
            }
        },
        Domain::Quad => match process([bits(0), bits(1), bits(2), bits(3)], [bits(4), bits(5)], partitioning) {
            Processed::Culled => (0, 0),
            Processed::Minimum => (4, 2),
            Processed::Factors { edges, inside } => {
                let layout = QuadLayout::new(edges, inside);
                (layout.point_count(), layout.triangle_count())
            }
        },
    };
    let indices = match output {
        OutputPrimitive::Point => points,
        OutputPrimitive::Line if domain == Domain::Isoline => 2 * primitives,
        OutputPrimitive::Line => 2 * points.saturating_sub(1),
        _ if domain == Domain::Isoline => 2 * primitives,
        _ => 3 * primitives,
    };
    (points, indices)
}
