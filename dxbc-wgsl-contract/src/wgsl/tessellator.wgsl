// D3D11's fixed-function tessellator (D3D11.3 §11.7) in compute, bit-exact with the CPU
// tessellator of `dxbc_wgsl_contract::tessellator` (the same algorithm, function for function;
// integers only, so that every GPU computes the same bits). Three entry points over a batch of
// patches of one domain, partitioning and output primitive (docs/tessellation.md):
//   `count`: one invocation per pid writes its point and index counts into `ranges`;
//   `scan`:  one workgroup turns the counts into first point / first index (exclusive prefix
//            sum, in pid order) and writes the batch's totals;
//   `write`: one invocation per pid writes its domain points (u, v as f32 bits), each point's
//            pid, and its indices (offset by its first point) at its ranges.

struct TessParams {
    domain: u32,        // 0 tri, 1 quad, 2 isoline
    partitioning: u32,  // 0 integer, 1 pow2, 2 fractional_odd, 3 fractional_even
    output: u32,        // 0 point, 1 line, 2 triangle_cw, 3 triangle_ccw
    patch_count: u32,
    factor_stride: u32, // u32s per pid in `factors` (at least the domain's factor count)
    workgroups_x: u32,  // the dispatch's x size: pid = id.x + id.y * workgroups_x * 64
    pad0: u32,
    pad1: u32,
}

struct PatchRange {
    first_point: u32,
    point_count: u32,
    first_index: u32,
    index_count: u32,
}

@group(0) @binding(0) var<uniform> params: TessParams;
@group(0) @binding(1) var<storage, read> factors: array<u32>;
@group(0) @binding(2) var<storage, read_write> ranges: array<PatchRange>;
@group(0) @binding(3) var<storage, read_write> totals: array<u32>;
@group(0) @binding(4) var<storage, read_write> points: array<vec2<u32>>;
@group(0) @binding(5) var<storage, read_write> point_patches: array<u32>;
@group(0) @binding(6) var<storage, read_write> indices: array<u32>;

const DOMAIN_TRI: u32 = 0u;
const DOMAIN_QUAD: u32 = 1u;
const PART_ODD: u32 = 2u;
const PART_EVEN: u32 = 3u;
const OUT_POINT: u32 = 0u;
const OUT_LINE: u32 = 1u;
const OUT_CCW: u32 = 3u;

const FXP_ONE: u32 = 0x10000u;
const FXP_ONE_HALF: u32 = 0x8000u;
const FXP_ONE_THIRD: u32 = 0x5555u;
const FXP_TWO_THIRDS: u32 = 0xaaaau;
const F32_ONE: u32 = 0x3f800000u;
const F32_TWO: u32 = 0x40000000u;
const F32_ONE_PLUS_EPSILON: u32 = 0x3f800080u;
const F32_ONE_PLUS_HALF_EPSILON: u32 = 0x3f800040u;
const F32_SIXTY_THREE: u32 = 0x427c0000u;
const F32_SIXTY_FOUR: u32 = 0x42800000u;

// ---- 16.16 fixed point and f32 bits (fixed.rs) ----

fn is_nan(b: u32) -> bool {
    return (b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu) != 0u;
}

fn flush(b: u32) -> u32 {
    if (b & 0x7fffffffu) < 0x00800000u {
        return b & 0x80000000u;
    }
    return b;
}

fn order_key(b: u32) -> i32 {
    let m = i32(b & 0x7fffffffu);
    return select(m, -m, (b & 0x80000000u) != 0u);
}

fn greater(a: u32, b: u32) -> bool {
    return !is_nan(a) && !is_nan(b) && order_key(a) > order_key(b);
}

fn clamp_bits(x: u32, lower: u32, upper: u32) -> u32 {
    var raised = x;
    if is_nan(x) || order_key(lower) >= order_key(flush(x)) {
        raised = lower;
    }
    if order_key(upper) < order_key(flush(raised)) {
        return upper;
    }
    return raised;
}

fn ceil_at_least_one(b: u32) -> u32 {
    let e = i32(b >> 23u) - 127;
    if e >= 23 {
        return b;
    }
    let mask = 0x007fffffu >> u32(e);
    if (b & mask) == 0u {
        return b;
    }
    return (b | mask) + 1u;
}

fn integer_part_is_even(b: u32) -> bool {
    let e = i32(b >> 23u) - 127;
    if e >= 24 {
        return true;
    }
    let mantissa = (b & 0x007fffffu) | 0x00800000u;
    return ((mantissa >> u32(23 - e)) & 1u) == 0u;
}

fn to_fixed(b: u32) -> u32 {
    let e = i32((b >> 23u) & 0xffu) - 127;
    if is_nan(b) || (b & 0x80000000u) != 0u {
        return 0u;
    }
    if b >= ((127u + 15u) << 23u) {
        return 0xffffffffu;
    }
    if e < -17 {
        return 0u;
    }
    let mantissa = (b & 0x007fffffu) | 0x00800000u;
    let extra = 7 - e;
    if extra >= 0 {
        let lsb = 1u << u32(extra);
        let half = lsb >> 1u;
        var r = mantissa;
        if (mantissa & lsb) != 0u || (mantissa & (lsb - 1u)) > half {
            r = r + half;
        }
        return r >> u32(extra);
    }
    return mantissa << u32(-extra);
}

// A 16.16 value in [0, 1] as f32 bits, built from integers (exact).
fn fixed_to_f32_bits(fxp: u32) -> u32 {
    if fxp == 0u {
        return 0u;
    }
    let msb = firstLeadingBit(fxp);
    let mantissa = (fxp << (23u - msb)) & 0x007fffffu;
    return ((127u + msb - 16u) << 23u) | mantissa;
}

fn fxp_ceil(f: u32) -> u32 {
    if (f & 0xffffu) != 0u {
        return (f & 0x7fff0000u) + FXP_ONE;
    }
    return f;
}

fn fxp_floor(f: u32) -> u32 {
    return f & 0x7fff0000u;
}

fn reciprocal(segments: u32) -> u32 {
    if segments == 0u {
        return 0xffffffffu;
    }
    return (FXP_ONE + segments / 2u) / segments;
}

fn remove_msb(v: u32) -> u32 {
    if v == 0u {
        return 0u;
    }
    return v & ~(1u << firstLeadingBit(v));
}

// ---- one edge (edge.rs) ----

struct Factor {
    fixed: u32,
    odd: bool,
}

struct EdgeCtx {
    odd: bool,
    half_fraction: u32,
    half_points: i32,
    split_point: i32,
    inv_floor: u32,
    inv_ceil: u32,
}

fn point_count(f: Factor) -> i32 {
    let half = (f.fixed + 1u) / 2u;
    if f.odd {
        return i32((fxp_ceil(FXP_ONE_HALF + half) * 2u) >> 16u);
    }
    return i32(((fxp_ceil(half) * 2u) >> 16u) + 1u);
}

fn edge_ctx(f: Factor) -> EdgeCtx {
    var half = (f.fixed + 1u) / 2u;
    if f.odd || half == FXP_ONE_HALF {
        half = half + FXP_ONE_HALF;
    }
    let fl = fxp_floor(half);
    let ce = fxp_ceil(half);
    var c: EdgeCtx;
    c.odd = f.odd;
    c.half_fraction = half - fl;
    c.half_points = i32(ce >> 16u);
    if ce == fl {
        c.split_point = c.half_points + 1;
    } else if f.odd {
        if fl == FXP_ONE {
            c.split_point = 0;
        } else {
            c.split_point = i32((remove_msb((fl >> 16u) - 1u) << 1u) + 1u);
        }
    } else {
        c.split_point = i32((remove_msb(fl >> 16u) << 1u) + 1u);
    }
    let odd = select(0u, 1u, f.odd);
    c.inv_floor = reciprocal(((fl * 2u) >> 16u) - odd);
    c.inv_ceil = reciprocal(((ce * 2u) >> 16u) - odd);
    return c;
}

fn place(c: EdgeCtx, point_in: i32) -> u32 {
    var point = point_in;
    let flip = point >= c.half_points;
    if flip {
        point = (c.half_points << 1u) - point;
        if c.odd {
            point = point - 1;
        }
    }
    if point == c.half_points {
        return FXP_ONE_HALF;
    }
    let on_ceil = u32(point);
    var on_floor = on_ceil;
    if point > c.split_point {
        on_floor = on_ceil - 1u;
    }
    let blended = on_floor * c.inv_floor * (FXP_ONE - c.half_fraction)
        + on_ceil * c.inv_ceil * c.half_fraction;
    let location = (blended + FXP_ONE_HALF) >> 16u;
    if flip {
        return FXP_ONE - location;
    }
    return location;
}

// ---- factor processing (factors.rs) ----

const STATUS_CULLED: u32 = 0u;
const STATUS_MINIMUM: u32 = 1u;
const STATUS_FACTORS: u32 = 2u;

struct Processed {
    status: u32,
    edges: array<Factor, 4>,
    inside: array<Factor, 2>,
}

fn culled(b: u32) -> bool {
    return is_nan(b) || order_key(b) <= 0;
}

fn rounds_to_integer() -> bool {
    return params.partitioning < PART_ODD;
}

fn lower_bound() -> u32 {
    return select(F32_ONE, F32_TWO, params.partitioning == PART_EVEN);
}

fn upper_bound() -> u32 {
    return select(F32_SIXTY_FOUR, F32_SIXTY_THREE, params.partitioning == PART_ODD);
}

fn clamp_and_round(b: u32, lower: u32, upper: u32) -> u32 {
    let c = clamp_bits(b, lower, upper);
    if rounds_to_integer() {
        return ceil_at_least_one(c);
    }
    return c;
}

fn edge_factor(b: u32, inside: bool) -> Factor {
    var f: Factor;
    f.fixed = to_fixed(b);
    if params.partitioning == PART_ODD {
        f.odd = true;
    } else if params.partitioning == PART_EVEN {
        f.odd = false;
    } else if inside && b == F32_ONE {
        f.odd = false;
    } else {
        f.odd = !integer_part_is_even(b);
    }
    return f;
}

fn factor_bits(pid: u32, i: u32) -> u32 {
    return factors[pid * params.factor_stride + i];
}

// A tri (3 edges, 1 inside) or quad (4, 2) pid's factors.
fn process(pid: u32, n_edges: u32, n_inside: u32) -> Processed {
    var p: Processed;
    p.status = STATUS_CULLED;
    var e: array<u32, 4>;
    var ins: array<u32, 2>;
    for (var i = 0u; i < n_edges; i++) {
        e[i] = factor_bits(pid, i);
        if culled(e[i]) {
            return p;
        }
    }
    var lower = lower_bound();
    let upper = upper_bound();
    var above_one = false;
    for (var i = 0u; i < n_edges; i++) {
        e[i] = clamp_and_round(e[i], lower, upper);
        above_one = above_one || greater(e[i], F32_ONE_PLUS_HALF_EPSILON);
    }
    for (var i = 0u; i < n_inside; i++) {
        ins[i] = factor_bits(pid, n_edges + i);
        if n_inside == 2u {
            above_one = above_one || greater(ins[i], F32_ONE_PLUS_HALF_EPSILON);
        }
    }
    if params.partitioning == PART_ODD && above_one {
        lower = F32_ONE_PLUS_EPSILON;
    }
    var all_one = true;
    for (var i = 0u; i < n_edges; i++) {
        p.edges[i] = edge_factor(e[i], false);
        all_one = all_one && p.edges[i].fixed == FXP_ONE;
    }
    for (var i = 0u; i < n_inside; i++) {
        p.inside[i] = edge_factor(clamp_and_round(ins[i], lower, upper), true);
        all_one = all_one && p.inside[i].fixed == FXP_ONE;
    }
    if params.partitioning != PART_EVEN && all_one {
        p.status = STATUS_MINIMUM;
    } else {
        p.status = STATUS_FACTORS;
    }
    return p;
}

struct IsolineFactors {
    culled: bool,
    detail: Factor,
    density: Factor,
}

fn process_isoline(pid: u32) -> IsolineFactors {
    var r: IsolineFactors;
    let density = factor_bits(pid, 0u);
    let detail = factor_bits(pid, 1u);
    r.culled = culled(density) || culled(detail);
    if r.culled {
        return r;
    }
    r.detail = edge_factor(clamp_and_round(detail, lower_bound(), upper_bound()), false);
    let d = ceil_at_least_one(clamp_bits(density, F32_ONE, F32_SIXTY_FOUR));
    r.density.fixed = to_fixed(d);
    r.density.odd = !integer_part_is_even(d);
    return r;
}

// ---- the layout of one pid (tri.rs, quad.rs, isoline.rs) ----

var<private> edge_ctxs: array<EdgeCtx, 4>;
var<private> edge_points: array<i32, 4>;
var<private> inside_ctxs: array<EdgeCtx, 2>;
var<private> inside_points: array<i32, 2>;

fn set_layout(p: Processed, n_edges: u32, n_inside: u32) {
    for (var i = 0u; i < n_edges; i++) {
        edge_ctxs[i] = edge_ctx(p.edges[i]);
        edge_points[i] = point_count(p.edges[i]);
    }
    for (var i = 0u; i < n_inside; i++) {
        inside_ctxs[i] = edge_ctx(p.inside[i]);
        inside_points[i] = max(select(3, 4, p.inside[i].odd), point_count(p.inside[i]));
    }
}

fn outer_points(n_edges: u32) -> u32 {
    var n = 0;
    for (var i = 0u; i < n_edges; i++) {
        n += edge_points[i];
    }
    return u32(n - i32(n_edges));
}

fn tri_point_count() -> u32 {
    let rings = (inside_points[0] >> 1u) - 1;
    var interior = 3 * (rings * (rings + 1)) + 1;
    if inside_ctxs[0].odd {
        interior = 3 * (rings * (rings + 1) - rings);
    }
    return outer_points(3u) + u32(interior);
}

fn tri_triangle_count() -> u32 {
    var outside = edge_points;
    var count = 0;
    for (var ring = 1; ring < ((inside_points[0] + 1) >> 1u); ring++) {
        let inside = inside_points[0] - 2 * ring;
        for (var e = 0; e < 3; e++) {
            count += inside + outside[e] - 2;
            outside[e] = inside;
        }
    }
    return u32(count) + select(0u, 1u, inside_ctxs[0].odd);
}

fn quad_point_count() -> u32 {
    return outer_points(4u) + u32((inside_points[0] - 2) * (inside_points[1] - 2));
}

fn quad_rings() -> i32 {
    return min((inside_points[0] + 1) >> 1u, (inside_points[1] + 1) >> 1u);
}

fn quad_strip() -> i32 {
    let nu = inside_points[0];
    let nv = inside_points[1];
    if nu > nv && inside_ctxs[1].odd {
        return (((nu >> 1u) - (nv >> 1u)) << 1u) + select(2, 1, inside_ctxs[0].odd);
    }
    if nv >= nu && inside_ctxs[0].odd {
        return (((nv >> 1u) - (nu >> 1u)) << 1u) + select(2, 1, inside_ctxs[1].odd);
    }
    return 0;
}

fn quad_triangle_count() -> u32 {
    var outside = edge_points;
    var count = 0;
    for (var ring = 1; ring < quad_rings(); ring++) {
        for (var e = 0; e < 4; e++) {
            let inside = inside_points[(e + 1) & 1] - 2 * ring;
            count += inside + outside[e] - 2;
            outside[e] = inside;
        }
    }
    return u32(count + 2 * quad_strip());
}

// ---- output ----

var<private> patch_id: u32;
var<private> point_cursor: u32;
var<private> first_point: u32;
var<private> index_cursor: u32;

fn emit_point(u: u32, v: u32) {
    points[point_cursor] = vec2<u32>(fixed_to_f32_bits(u), fixed_to_f32_bits(v));
    point_patches[point_cursor] = patch_id;
    point_cursor += 1u;
}

fn emit_index(i: u32) {
    indices[index_cursor] = first_point + i;
    index_cursor += 1u;
}

// The index map of stitch.rs: 0 direct, 1 wrap (a ring's last edge), 2 invert (a row stored
// backwards).
const MAP_DIRECT: u32 = 0u;
const MAP_WRAP: u32 = 1u;
const MAP_INVERT: u32 = 2u;
var<private> map_kind: u32;
// Wrap: inside delta, inside last, inside first, outside base, outside delta, outside last,
// outside first. Invert: base, end, bad (or NONE), replacement.
var<private> map_args: array<u32, 7>;
const NONE: u32 = 0xffffffffu;

fn set_map_direct() {
    map_kind = MAP_DIRECT;
}

fn set_map_wrap(inside_delta: u32, inside_last: u32, inside_first: u32, outside_base: u32,
                outside_last: u32, outside_first: u32, outside_delta: u32) {
    map_kind = MAP_WRAP;
    map_args = array<u32, 7>(inside_delta, inside_last, inside_first, outside_base, outside_delta,
                             outside_last, outside_first);
}

fn set_map_invert(base: u32, end: u32, bad: u32, replacement: u32) {
    map_kind = MAP_INVERT;
    map_args = array<u32, 7>(base, end, bad, replacement, 0u, 0u, 0u);
}

fn apply_map(i: u32) -> u32 {
    if map_kind == MAP_WRAP {
        if i >= map_args[3] {
            if i == map_args[5] {
                return map_args[6];
            }
            return i + map_args[4];
        }
        if i == map_args[1] {
            return map_args[2];
        }
        return i + map_args[0];
    }
    if map_kind == MAP_INVERT {
        if i == map_args[2] {
            return map_args[3];
        }
        if i >= map_args[0] {
            return map_args[1] - i;
        }
    }
    return i;
}

// A clockwise triangle, stored in the output winding.
fn triangle(a: u32, b: u32, c: u32) {
    emit_index(apply_map(a));
    if params.output == OUT_CCW {
        emit_index(apply_map(c));
        emit_index(apply_map(b));
    } else {
        emit_index(apply_map(b));
        emit_index(apply_map(c));
    }
}

// ---- connectivity (stitch.rs) ----

const DIAG_INSIDE_TO_OUTSIDE: u32 = 0u;
const DIAG_EXCEPT_MIDDLE: u32 = 1u;
const DIAG_MIRRORED: u32 = 2u;

fn stitch_regular(trapezoid: bool, diagonals: u32, inside_count: i32, inside_base: u32,
                  outside_base: u32) {
    var ip = inside_base;
    var op = outside_base;
    if trapezoid {
        triangle(op, op + 1u, ip);
        op += 1u;
    }
    if diagonals == DIAG_INSIDE_TO_OUTSIDE {
        for (var p = 0; p < inside_count - 1; p++) {
            triangle(ip, op, op + 1u);
            triangle(ip, op + 1u, ip + 1u);
            ip += 1u;
            op += 1u;
        }
    } else if diagonals == DIAG_EXCEPT_MIDDLE {
        var p = 0;
        for (; p < inside_count / 2 - 1; p++) {
            triangle(op, op + 1u, ip);
            triangle(ip, op + 1u, ip + 1u);
            ip += 1u;
            op += 1u;
        }
        triangle(op, ip + 1u, ip);
        triangle(op, op + 1u, ip + 1u);
        ip += 1u;
        op += 1u;
        p += 2;
        for (; p < inside_count; p++) {
            triangle(op, op + 1u, ip);
            triangle(ip, op + 1u, ip + 1u);
            ip += 1u;
            op += 1u;
        }
    } else {
        var p = 0;
        for (; p < inside_count / 2; p++) {
            triangle(op, ip + 1u, ip);
            triangle(op, op + 1u, ip + 1u);
            ip += 1u;
            op += 1u;
        }
        for (; p < inside_count - 1; p++) {
            triangle(ip, op, op + 1u);
            triangle(ip, op + 1u, ip + 1u);
            ip += 1u;
            op += 1u;
        }
    }
    if trapezoid {
        triangle(op, op + 1u, ip);
    }
}

var<private> FINAL_POSITION: array<i32, 33> = array<i32, 33>(
    0, 32, 16, 8, 17, 4, 18, 9, 19, 2, 20, 10, 21, 5, 22, 11, 23, 1, 24, 12, 25, 6, 26, 13, 27, 3,
    28, 14, 29, 7, 30, 15, 31);
var<private> LOOP_START: array<i32, 33> = array<i32, 33>(
    1, 1, 17, 9, 9, 5, 5, 5, 5, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2);
var<private> LOOP_END: array<i32, 33> = array<i32, 33>(
    0, 0, 17, 17, 25, 25, 25, 25, 29, 29, 29, 29, 29, 29, 29, 29, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 32);

fn stitch_transition(inside_base: u32, inside_half_points: i32, inside_odd: bool,
                     outside_base: u32, outside_half_points: i32, outside_odd: bool) {
    let ih = inside_half_points - select(0, 1, inside_odd);
    let oh = outside_half_points - select(0, 1, outside_odd);
    var ip = inside_base;
    var op = outside_base;
    let start = min(LOOP_START[ih], LOOP_START[oh]);
    let end = max(LOOP_END[ih], LOOP_END[oh]);
    if FINAL_POSITION[0] < oh {
        triangle(op, op + 1u, ip);
        op += 1u;
    }
    for (var i = start; i <= end; i++) {
        if FINAL_POSITION[i] < ih {
            triangle(ip, op, ip + 1u);
            ip += 1u;
        }
        if FINAL_POSITION[i] < oh {
            triangle(op, op + 1u, ip);
            op += 1u;
        }
    }
    if inside_odd != outside_odd || inside_odd {
        if inside_odd == outside_odd {
            triangle(ip, op, ip + 1u);
            triangle(ip + 1u, op, op + 1u);
            ip += 1u;
            op += 1u;
        } else if !inside_odd {
            triangle(ip, op, op + 1u);
            op += 1u;
        } else {
            triangle(ip, op, ip + 1u);
            ip += 1u;
        }
    }
    for (var i = end; i >= start; i--) {
        if FINAL_POSITION[i] < oh {
            triangle(op, op + 1u, ip);
            op += 1u;
        }
        if FINAL_POSITION[i] < ih {
            triangle(ip, op, ip + 1u);
            ip += 1u;
        }
    }
    if FINAL_POSITION[0] < oh {
        triangle(op, op + 1u, ip);
    }
}

// ---- tri (tri.rs) ----

fn tri_points() {
    for (var e = 0; e < 3; e++) {
        let end = edge_points[e] - 1;
        for (var p = 0; p < end; p++) {
            var q = end - p;
            if (e & 1) == 1 {
                q = p;
            }
            let t = place(edge_ctxs[e], q);
            if e == 0 {
                emit_point(0u, t);
            } else if e == 1 {
                emit_point(t, 0u);
            } else {
                emit_point(t, FXP_ONE - t);
            }
        }
    }
    let ctx = inside_ctxs[0];
    for (var ring = 1; ring < (inside_points[0] >> 1u); ring++) {
        let end = inside_points[0] - 1 - ring;
        let perp = (place(ctx, ring) * FXP_TWO_THIRDS + FXP_ONE_HALF) >> 16u;
        let pull = (perp + 1u) / 2u;
        for (var e = 0; e < 3; e++) {
            for (var p = ring; p < end; p++) {
                var q = end - (p - ring);
                if (e & 1) == 1 {
                    q = p;
                }
                let t = place(ctx, q) - pull;
                if e == 0 {
                    emit_point(perp, t);
                } else if e == 1 {
                    emit_point(t, perp);
                } else {
                    emit_point(t, FXP_ONE - t - perp);
                }
            }
        }
    }
    if !ctx.odd {
        emit_point(FXP_ONE_THIRD, FXP_ONE_THIRD);
    }
}

fn tri_triangles() {
    let ctx = inside_ctxs[0];
    var outside_half: array<i32, 3>;
    var outside_odd: array<bool, 3>;
    for (var e = 0; e < 3; e++) {
        outside_half[e] = edge_ctxs[e].half_points;
        outside_odd[e] = edge_ctxs[e].odd;
    }
    var outside_points = array<i32, 3>(edge_points[0], edge_points[1], edge_points[2]);
    var inside_base = outer_points(3u);
    var outside_base = 0u;
    for (var ring = 1; ring < ((inside_points[0] + 1) >> 1u); ring++) {
        let n_inside = inside_points[0] - 2 * ring;
        let first_inside = inside_base;
        let first_outside = outside_base;
        for (var e = 0; e < 3; e++) {
            var ib = inside_base;
            var ob = outside_base;
            set_map_direct();
            if e == 2 {
                let outside_start = u32(n_inside);
                set_map_wrap(inside_base, u32(n_inside - 1), first_inside, outside_start,
                             outside_start + u32(outside_points[e]) - 1u, first_outside,
                             outside_base - outside_start);
                ib = 0u;
                ob = outside_start;
            }
            if ring == 1 {
                stitch_transition(ib, ctx.half_points, ctx.odd, ob, outside_half[e], outside_odd[e]);
            } else {
                stitch_regular(true, DIAG_MIRRORED, n_inside, ib, ob);
            }
            set_map_direct();
            outside_base += u32(outside_points[e] - 1);
            inside_base += u32(n_inside - 1);
            outside_points[e] = n_inside;
        }
        for (var e = 0; e < 3; e++) {
            outside_half[e] = ctx.half_points;
            outside_odd[e] = ctx.odd;
        }
    }
    if ctx.odd {
        triangle(outside_base, outside_base + 1u, outside_base + 2u);
    }
}

// ---- quad (quad.rs) ----

fn quad_points() {
    for (var e = 0; e < 4; e++) {
        let end = edge_points[e] - 1;
        for (var p = 0; p < end; p++) {
            var q = end - p;
            if e == 1 || e == 2 {
                q = p;
            }
            let t = place(edge_ctxs[e], q);
            if e == 0 {
                emit_point(0u, t);
            } else if e == 1 {
                emit_point(t, 0u);
            } else if e == 2 {
                emit_point(FXP_ONE, t);
            } else {
                emit_point(t, FXP_ONE);
            }
        }
    }
    let nu = inside_points[0];
    let nv = inside_points[1];
    let rings = min(nu, nv) >> 1u;
    for (var ring = 1; ring < rings; ring++) {
        let end = array<i32, 2>(nu - 1 - ring, nv - 1 - ring);
        for (var e = 0; e < 4; e++) {
            let perp_axis = e & 1;
            let along = (e + 1) & 1;
            var perp_point = end[perp_axis];
            if e < 2 {
                perp_point = ring;
            }
            let perp = place(inside_ctxs[perp_axis], perp_point);
            for (var p = ring; p < end[along]; p++) {
                var q = end[along] - (p - ring);
                if e == 1 || e == 2 {
                    q = p;
                }
                let t = place(inside_ctxs[along], q);
                if along == 1 {
                    emit_point(perp, t);
                } else {
                    emit_point(t, perp);
                }
            }
        }
    }
    if nu > nv && !inside_ctxs[1].odd {
        for (var p = rings; p <= nu - 1 - rings; p++) {
            emit_point(place(inside_ctxs[0], p), FXP_ONE_HALF);
        }
    } else if nv >= nu && !inside_ctxs[0].odd {
        for (var p = nv - 1 - rings; p >= rings; p--) {
            emit_point(FXP_ONE_HALF, place(inside_ctxs[1], p));
        }
    }
}

fn quad_triangles() {
    let nu = inside_points[0];
    let nv = inside_points[1];
    let rows_u = (nu + 1) >> 1u;
    let rows_v = (nv + 1) >> 1u;
    let degenerate_ring = array<i32, 2>(select(rows_v - 1, -1, inside_ctxs[1].odd),
                                        select(rows_u - 1, -1, inside_ctxs[0].odd));
    var outside_half: array<i32, 4>;
    var outside_odd: array<bool, 4>;
    for (var e = 0; e < 4; e++) {
        outside_half[e] = edge_ctxs[e].half_points;
        outside_odd[e] = edge_ctxs[e].odd;
    }
    var outside_points = edge_points;
    var inside_base = outer_points(4u);
    var outside_base = 0u;
    for (var ring = 1; ring < quad_rings(); ring++) {
        let first_inside = inside_base;
        let first_outside = outside_base;
        for (var e = 0; e < 4; e++) {
            let axis = (e + 1) & 1;
            let n_inside = inside_points[axis] - 2 * ring;
            let degenerate = ring == degenerate_ring[axis];
            var ib = inside_base;
            var ob = outside_base;
            set_map_direct();
            if e == 3 && degenerate {
                let base = inside_base + 1u;
                set_map_invert(base, (base << 1u) - 1u,
                               outside_base + u32(outside_points[e]) - 1u, first_outside);
                ib = base;
            } else if e == 3 {
                let outside_start = u32(n_inside);
                set_map_wrap(inside_base, u32(n_inside - 1), first_inside, outside_start,
                             outside_start + u32(outside_points[e]) - 1u, first_outside,
                             outside_base - outside_start);
                ib = 0u;
                ob = outside_start;
            } else if e == 2 && degenerate {
                set_map_invert(inside_base, inside_base << 1u, NONE, 0u);
            }
            if ring == 1 {
                stitch_transition(ib, inside_ctxs[axis].half_points, inside_ctxs[axis].odd,
                                  ob, outside_half[e], outside_odd[e]);
            } else {
                stitch_regular(true, DIAG_MIRRORED, n_inside, ib, ob);
            }
            set_map_direct();
            outside_base += u32(outside_points[e] - 1);
            if e == 2 && degenerate {
                inside_base -= u32(n_inside - 1);
            } else {
                inside_base += u32(n_inside - 1);
            }
            outside_points[e] = n_inside;
        }
        for (var e = 0; e < 4; e++) {
            outside_half[e] = inside_ctxs[e & 1].half_points;
            outside_odd[e] = inside_ctxs[e & 1].odd;
        }
    }
    let strip = quad_strip();
    let s = u32(strip);
    if nu > nv && inside_ctxs[1].odd {
        let base = outside_base + s + 2u;
        set_map_invert(base, base + base + s, base, outside_base);
        stitch_regular(false, DIAG_INSIDE_TO_OUTSIDE, strip + 1, base, outside_base + 1u);
    } else if nv >= nu && inside_ctxs[0].odd {
        let base = outside_base + s + 1u;
        set_map_invert(base, base + base + s, NONE, 0u);
        let diagonals = select(DIAG_EXCEPT_MIDDLE, DIAG_INSIDE_TO_OUTSIDE, !inside_ctxs[1].odd);
        stitch_regular(false, diagonals, strip + 1, base, outside_base);
    }
    set_map_direct();
}

// ---- a pid ----

fn is_triangles() -> bool {
    return params.output > OUT_LINE;
}

// Points and indices of a pid whose layout is set (tri or quad).
fn mesh_counts(points_n: u32, triangles_n: u32) -> vec2<u32> {
    if params.output == OUT_POINT {
        return vec2<u32>(points_n, points_n);
    }
    if params.output == OUT_LINE {
        return vec2<u32>(points_n, 2u * max(points_n, 1u) - 2u);
    }
    return vec2<u32>(points_n, 3u * triangles_n);
}

fn patch_counts(pid: u32) -> vec2<u32> {
    if params.domain == DOMAIN_TRI || params.domain == DOMAIN_QUAD {
        let tri = params.domain == DOMAIN_TRI;
        let n_edges = select(4u, 3u, tri);
        let n_inside = select(2u, 1u, tri);
        let p = process(pid, n_edges, n_inside);
        if p.status == STATUS_CULLED {
            return vec2<u32>(0u, 0u);
        }
        if p.status == STATUS_MINIMUM {
            return mesh_counts(select(4u, 3u, tri), select(2u, 1u, tri));
        }
        set_layout(p, n_edges, n_inside);
        if tri {
            return mesh_counts(tri_point_count(), tri_triangle_count());
        }
        return mesh_counts(quad_point_count(), quad_triangle_count());
    }
    let f = process_isoline(pid);
    if f.culled {
        return vec2<u32>(0u, 0u);
    }
    let per_line = point_count(f.detail);
    let lines = point_count(f.density) - 1;
    let n = u32(per_line * lines);
    if params.output == OUT_POINT {
        return vec2<u32>(n, n);
    }
    return vec2<u32>(n, 2u * u32(lines * (per_line - 1)));
}

// Every point once (point output), or the points in order as a line list (line output).
fn dump_points(n: u32) {
    if params.output == OUT_POINT {
        for (var i = 0u; i < n; i++) {
            emit_index(i);
        }
    } else {
        for (var i = 1u; i < n; i++) {
            emit_index(i - 1u);
            emit_index(i);
        }
    }
}

fn write_isoline() {
    let f = process_isoline(patch_id);
    if f.culled {
        return;
    }
    let detail = edge_ctx(f.detail);
    let density = edge_ctx(f.density);
    let per_line = point_count(f.detail);
    let lines = point_count(f.density) - 1;
    for (var line = 0; line < lines; line++) {
        let v = place(density, line);
        for (var p = 0; p < per_line; p++) {
            emit_point(place(detail, p), v);
        }
    }
    if params.output == OUT_POINT {
        dump_points(u32(per_line * lines));
        return;
    }
    for (var line = 0; line < lines; line++) {
        let first = u32(line * per_line);
        for (var p = 1u; p < u32(per_line); p++) {
            emit_index(first + p - 1u);
            emit_index(first + p);
        }
    }
}

fn write_patch() {
    if params.domain != DOMAIN_TRI && params.domain != DOMAIN_QUAD {
        write_isoline();
        return;
    }
    let tri = params.domain == DOMAIN_TRI;
    let n_edges = select(4u, 3u, tri);
    let n_inside = select(2u, 1u, tri);
    let p = process(patch_id, n_edges, n_inside);
    set_map_direct();
    if p.status == STATUS_CULLED {
        return;
    }
    if p.status == STATUS_MINIMUM {
        if tri {
            emit_point(0u, FXP_ONE);
            emit_point(0u, 0u);
            emit_point(FXP_ONE, 0u);
            if is_triangles() {
                triangle(0u, 1u, 2u);
            } else {
                dump_points(3u);
            }
        } else {
            emit_point(0u, 0u);
            emit_point(FXP_ONE, 0u);
            emit_point(FXP_ONE, FXP_ONE);
            emit_point(0u, FXP_ONE);
            if is_triangles() {
                triangle(0u, 1u, 3u);
                triangle(1u, 2u, 3u);
            } else {
                dump_points(4u);
            }
        }
        return;
    }
    set_layout(p, n_edges, n_inside);
    if tri {
        tri_points();
    } else {
        quad_points();
    }
    if !is_triangles() {
        dump_points(point_cursor - first_point);
    } else if tri {
        tri_triangles();
    } else {
        quad_triangles();
    }
}

fn patch_of(id: vec3<u32>) -> u32 {
    return id.x + id.y * params.workgroups_x * 64u;
}

@compute @workgroup_size(64)
fn count(@builtin(global_invocation_id) id: vec3<u32>) {
    let pid = patch_of(id);
    if pid >= params.patch_count {
        return;
    }
    let c = patch_counts(pid);
    ranges[pid].point_count = c.x;
    ranges[pid].index_count = c.y;
}

const SCAN_THREADS: u32 = 256u;
var<workgroup> scan_points: array<u32, 256>;
var<workgroup> scan_indices: array<u32, 256>;

// One workgroup: exclusive prefix sums of the counts, block by block, in pid order; then the
// totals (points, indices) into `totals`.
@compute @workgroup_size(256)
fn scan(@builtin(local_invocation_index) lid: u32) {
    var carry = vec2<u32>(0u, 0u);
    let n = params.patch_count;
    for (var block = 0u; block < n; block += SCAN_THREADS) {
        let pid = block + lid;
        var own = vec2<u32>(0u, 0u);
        if pid < n {
            own = vec2<u32>(ranges[pid].point_count, ranges[pid].index_count);
        }
        scan_points[lid] = own.x;
        scan_indices[lid] = own.y;
        workgroupBarrier();
        for (var step = 1u; step < SCAN_THREADS; step <<= 1u) {
            var add = vec2<u32>(0u, 0u);
            if lid >= step {
                add = vec2<u32>(scan_points[lid - step], scan_indices[lid - step]);
            }
            workgroupBarrier();
            scan_points[lid] += add.x;
            scan_indices[lid] += add.y;
            workgroupBarrier();
        }
        if pid < n {
            ranges[pid].first_point = carry.x + scan_points[lid] - own.x;
            ranges[pid].first_index = carry.y + scan_indices[lid] - own.y;
        }
        carry += vec2<u32>(scan_points[SCAN_THREADS - 1u], scan_indices[SCAN_THREADS - 1u]);
        workgroupBarrier();
    }
    if lid == 0u {
        totals[0] = carry.x;
        totals[1] = carry.y;
    }
}

@compute @workgroup_size(64)
fn write(@builtin(global_invocation_id) id: vec3<u32>) {
    let pid = patch_of(id);
    if pid >= params.patch_count {
        return;
    }
    patch_id = pid;
    first_point = ranges[pid].first_point;
    point_cursor = first_point;
    index_cursor = ranges[pid].first_index;
    write_patch();
}
