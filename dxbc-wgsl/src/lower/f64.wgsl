// Double precision (IEEE-754 binary64) on pairs of 32-bit words, `vec2<u32>(low word, high word)`:
// the helpers the translation of SM5's double instructions calls. Every result is exact: add, mul,
// fma and div are correctly rounded to nearest even, denormals are honoured on input and output, as
// D3D11 requires of doubles (docs/compatibility.md, "Doubles"). Integers wider than 32 bits are
// vec2<u32> (64-bit, low word first) and vec4<u32> (128-bit, lowest word first).
//
// WGSL leaves a runtime shift by 32 or more to the backend, so every shift amount below is kept
// under 32 explicitly. The translator keeps only the functions a shader calls.

// ---- 64-bit and 128-bit unsigned integers

fn u64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x + b.x;
    return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

fn u64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn u64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y | (a.y == b.y & a.x < b.x);
}

fn u64_is_zero(a: vec2<u32>) -> bool {
    return (a.x | a.y) == 0u;
}

// a << n; 0 when n >= 64.
fn u64_shl(a: vec2<u32>, n: u32) -> vec2<u32> {
    let s = n & 31u;
    let lo = a.x << s;
    let hi = (a.y << s) | select(0u, a.x >> ((32u - s) & 31u), s != 0u);
    let r = select(vec2<u32>(lo, hi), vec2<u32>(0u, lo), n >= 32u);
    return select(r, vec2<u32>(0u), n >= 64u);
}

// a >> n; 0 when n >= 64.
fn u64_shr(a: vec2<u32>, n: u32) -> vec2<u32> {
    let s = n & 31u;
    let hi = a.y >> s;
    let lo = (a.x >> s) | select(0u, a.y << ((32u - s) & 31u), s != 0u);
    let r = select(vec2<u32>(lo, hi), vec2<u32>(hi, 0u), n >= 32u);
    return select(r, vec2<u32>(0u), n >= 64u);
}

// a >> n with every bit shifted out ORed into bit 0 (the sticky bit); any n.
fn u64_shr_jam(a: vec2<u32>, n: u32) -> vec2<u32> {
    let r = u64_shr(a, n);
    let lost = any(u64_shl(r, n) != a);
    return vec2<u32>(r.x | select(0u, 1u, lost), r.y);
}

fn u64_clz(a: vec2<u32>) -> u32 {
    return select(countLeadingZeros(a.y), 32u + countLeadingZeros(a.x), a.y == 0u);
}

// The 64-bit product of two 32-bit words.
fn u32_mul_wide(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let mid = ((a0 * b0) >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    return vec2<u32>(a * b, a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}

// The 128-bit product of two 64-bit integers.
fn u64_mul_wide(a: vec2<u32>, b: vec2<u32>) -> vec4<u32> {
    let p00 = u32_mul_wide(a.x, b.x);
    let p01 = u32_mul_wide(a.x, b.y);
    let p10 = u32_mul_wide(a.y, b.x);
    let p11 = u32_mul_wide(a.y, b.y);
    let m1 = u64_add(p01, p10);
    let c1 = select(0u, 1u, u64_lt(m1, p01));
    let m2 = u64_add(m1, vec2<u32>(p00.y, 0u));
    let c2 = select(0u, 1u, u64_lt(m2, m1));
    let hi = u64_add(p11, vec2<u32>(m2.y, c1 + c2));
    return vec4<u32>(p00.x, m2.x, hi.x, hi.y);
}

fn u128_add(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    let lo = u64_add(a.xy, b.xy);
    let carry = select(0u, 1u, u64_lt(lo, a.xy));
    return vec4<u32>(lo, u64_add(u64_add(a.zw, b.zw), vec2<u32>(carry, 0u)));
}

fn u128_sub(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    let borrow = select(0u, 1u, u64_lt(a.xy, b.xy));
    return vec4<u32>(u64_sub(a.xy, b.xy), u64_sub(u64_sub(a.zw, b.zw), vec2<u32>(borrow, 0u)));
}

fn u128_lt(a: vec4<u32>, b: vec4<u32>) -> bool {
    return u64_lt(a.zw, b.zw) | (all(a.zw == b.zw) & u64_lt(a.xy, b.xy));
}

// a << n; 0 when n >= 128.
fn u128_shl(a: vec4<u32>, n: u32) -> vec4<u32> {
    let small = vec4<u32>(u64_shl(a.xy, n), u64_shl(a.zw, n) | u64_shr(a.xy, 64u - min(n, 64u)));
    return select(small, vec4<u32>(0u, 0u, u64_shl(a.xy, n - 64u)), n >= 64u);
}

// a >> n; 0 when n >= 128.
fn u128_shr(a: vec4<u32>, n: u32) -> vec4<u32> {
    let small = vec4<u32>(u64_shr(a.xy, n) | u64_shl(a.zw, 64u - min(n, 64u)), u64_shr(a.zw, n));
    return select(small, vec4<u32>(u64_shr(a.zw, n - 64u), 0u, 0u), n >= 64u);
}

// a >> n with every bit shifted out ORed into bit 0; any n.
fn u128_shr_jam(a: vec4<u32>, n: u32) -> vec4<u32> {
    let r = u128_shr(a, n);
    let lost = any(u128_shl(r, n) != a);
    return vec4<u32>(r.x | select(0u, 1u, lost), r.yzw);
}

fn u128_clz(a: vec4<u32>) -> u32 {
    return select(u64_clz(a.zw), 64u + u64_clz(a.xy), u64_is_zero(a.zw));
}

// ---- binary64 fields

fn f64_exponent(a: vec2<u32>) -> u32 {
    return (a.y >> 20u) & 0x7ffu;
}

fn f64_is_nan(a: vec2<u32>) -> bool {
    let h = a.y & 0x7fffffffu;
    return h > 0x7ff00000u | (h == 0x7ff00000u & a.x != 0u);
}

fn f64_is_inf(a: vec2<u32>) -> bool {
    return (a.y & 0x7fffffffu) == 0x7ff00000u & a.x == 0u;
}

fn f64_is_zero(a: vec2<u32>) -> bool {
    return ((a.y & 0x7fffffffu) | a.x) == 0u;
}

// The result of an invalid operation (inf - inf, 0 * inf, 0 / 0, inf / inf).
fn f64_default_nan() -> vec2<u32> {
    return vec2<u32>(0u, 0x7ff80000u);
}

// A NaN operand passed on as a quiet NaN.
fn f64_quiet(a: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x, a.y | 0x00080000u);
}

// The significand of a finite value, normalised to [2^52, 2^53) (denormals shifted up).
fn f64_norm_sig(a: vec2<u32>) -> vec2<u32> {
    let sig = vec2<u32>(a.x, (a.y & 0xfffffu) | select(0x100000u, 0u, f64_exponent(a) == 0u));
    return u64_shl(sig, u64_clz(sig) - 11u);
}

// The biased exponent that goes with `f64_norm_sig` (below 1 for denormals).
fn f64_norm_exp(a: vec2<u32>) -> i32 {
    let e = f64_exponent(a);
    let sig = vec2<u32>(a.x, a.y & 0xfffffu);
    return select(i32(e), 12 - i32(u64_clz(sig)), e == 0u);
}

// Rounds to nearest even and packs: `sign` (bit 31), biased exponent `e` and a significand whose
// leading 1 is at bit 62 (value = sig * 2^(e - 1023 - 62)); bits 0-9 are rounding bits, bit 0 also
// the sticky bit. Below the normal range (e < 1) the significand is shifted down to a denormal;
// overflow gives infinity.
fn f64_round_pack(sign: u32, e: i32, sig_in: vec2<u32>) -> vec2<u32> {
    let tiny = e < 1;
    let sig = select(sig_in, u64_shr_jam(sig_in, u32(clamp(1 - e, 0, 64))), tiny);
    let round_bits = sig.x & 0x3ffu;
    let up = u64_add(sig, vec2<u32>(0x200u, 0u));
    // A tie rounds to even: clear the last bit.
    let r = vec2<u32>(((up.x >> 10u) | (up.y << 22u)) & ~select(0u, 1u, round_bits == 0x200u), up.y >> 10u);
    // r carries the implicit bit at bit 52 (bit 53 after rounding up past a power of two), which
    // the addition below adds to the exponent field.
    let field = u32(max(select(e, 0, tiny) - 1, 0));
    let overflow = field + (r.y >> 20u) >= 0x7ffu;
    return select(vec2<u32>(r.x, sign | ((field << 20u) + r.y)), vec2<u32>(0u, sign | 0x7ff00000u), overflow);
}

// `f64_round_pack` of a significand of any magnitude below 2^64 (normalised to bit 62 first).
fn f64_norm_round_pack(sign: u32, e: i32, sig: vec2<u32>) -> vec2<u32> {
    if (sig.y >= 0x80000000u) {
        return f64_round_pack(sign, e + 1, u64_shr_jam(sig, 1u));
    }
    let s = u64_clz(sig) - 1u;
    return f64_round_pack(sign, e - i32(s), u64_shl(sig, s));
}

// ---- arithmetic

fn f64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let nan_a = f64_is_nan(a);
    if (nan_a | f64_is_nan(b)) {
        return f64_quiet(select(b, a, nan_a));
    }
    let inf_a = f64_is_inf(a);
    let inf_b = f64_is_inf(b);
    if (inf_a | inf_b) {
        if (inf_a & inf_b & a.y != b.y) {
            return f64_default_nan();
        }
        return select(b, a, inf_a);
    }
    // x is the operand of larger magnitude; the result takes its sign.
    let swap = u64_lt(vec2<u32>(a.x, a.y & 0x7fffffffu), vec2<u32>(b.x, b.y & 0x7fffffffu));
    let x = select(a, b, swap);
    let y = select(b, a, swap);
    let sign = x.y & 0x80000000u;
    let ex = max(i32(f64_exponent(x)), 1);
    let ey = max(i32(f64_exponent(y)), 1);
    let sx = vec2<u32>(x.x << 10u, (((x.y & 0xfffffu) | select(0x100000u, 0u, f64_exponent(x) == 0u)) << 10u) | (x.x >> 22u));
    let sy0 = vec2<u32>(y.x << 10u, (((y.y & 0xfffffu) | select(0x100000u, 0u, f64_exponent(y) == 0u)) << 10u) | (y.x >> 22u));
    let sy = u64_shr_jam(sy0, u32(ex - ey));
    if (((x.y ^ y.y) & 0x80000000u) != 0u) {
        let d = u64_sub(sx, sy);
        if (u64_is_zero(d)) {
            // x - x is +0 when rounding to nearest.
            return vec2<u32>(0u);
        }
        return f64_norm_round_pack(sign, ex, d);
    }
    let s = u64_add(sx, sy);
    if (u64_is_zero(s)) {
        return vec2<u32>(0u, sign);
    }
    return f64_norm_round_pack(sign, ex, s);
}

fn f64_mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let nan_a = f64_is_nan(a);
    if (nan_a | f64_is_nan(b)) {
        return f64_quiet(select(b, a, nan_a));
    }
    let sign = (a.y ^ b.y) & 0x80000000u;
    let zero = f64_is_zero(a) | f64_is_zero(b);
    if (f64_is_inf(a) | f64_is_inf(b)) {
        return select(vec2<u32>(0u, sign | 0x7ff00000u), f64_default_nan(), zero);
    }
    if (zero) {
        return vec2<u32>(0u, sign);
    }
    // (2^52..2^53 << 10) * (2^52..2^53 << 11): the top 64 bits of the product lead at bit 61 or 62.
    let p = u64_mul_wide(u64_shl(f64_norm_sig(a), 10u), u64_shl(f64_norm_sig(b), 11u));
    let sig = vec2<u32>(p.z | select(0u, 1u, (p.x | p.y) != 0u), p.w);
    return f64_norm_round_pack(sign, f64_norm_exp(a) + f64_norm_exp(b) - 1022, sig);
}

// a * b + c with a single rounding.
fn f64_fma(a: vec2<u32>, b: vec2<u32>, c: vec2<u32>) -> vec2<u32> {
    let nan_a = f64_is_nan(a);
    let nan_b = f64_is_nan(b);
    if (nan_a | nan_b | f64_is_nan(c)) {
        return f64_quiet(select(select(c, b, nan_b), a, nan_a));
    }
    let sign_p = (a.y ^ b.y) & 0x80000000u;
    let sign_c = c.y & 0x80000000u;
    let zero_p = f64_is_zero(a) | f64_is_zero(b);
    let inf_c = f64_is_inf(c);
    if (f64_is_inf(a) | f64_is_inf(b)) {
        if (zero_p | (inf_c & sign_c != sign_p)) {
            return f64_default_nan();
        }
        return vec2<u32>(0u, sign_p | 0x7ff00000u);
    }
    if (inf_c) {
        return c;
    }
    if (zero_p) {
        // 0 + c is c; (+-0) + (+-0) is -0 only when both are negative.
        return select(c, vec2<u32>(0u, sign_p & sign_c), f64_is_zero(c));
    }
    if (f64_is_zero(c)) {
        return f64_mul(a, b);
    }
    // The exact product (106 bits) as a 128-bit significand with its leading 1 at bit 126.
    let p = u128_shl(u64_mul_wide(f64_norm_sig(a), f64_norm_sig(b)), 21u);
    let p_low = p.w < 0x40000000u;
    let sp = select(p, u128_shl(p, 1u), p_low);
    let ep = f64_norm_exp(a) + f64_norm_exp(b) - 1022 - select(0, 1, p_low);
    // c the same way.
    let sc = vec4<u32>(0u, 0u, u64_shl(f64_norm_sig(c), 10u));
    let ec = f64_norm_exp(c);
    // x is the term of larger magnitude; the result takes its sign.
    let c_larger = ec > ep | (ec == ep & u128_lt(sp, sc));
    let sx = select(sp, sc, c_larger);
    let ex = select(ep, ec, c_larger);
    let sign = select(sign_p, sign_c, c_larger);
    let sy = u128_shr_jam(select(sc, sp, c_larger), u32(min(ex - select(ec, ep, c_larger), 255)));
    var s: vec4<u32>;
    var e = ex;
    if (sign_p != sign_c) {
        s = u128_sub(sx, sy);
        if (all(s == vec4<u32>(0u))) {
            return vec2<u32>(0u);
        }
        let n = u128_clz(s) - 1u;
        s = u128_shl(s, n);
        e = e - i32(n);
    } else {
        s = u128_add(sx, sy);
        if (s.w >= 0x80000000u) {
            s = u128_shr_jam(s, 1u);
            e = e + 1;
        }
    }
    // The top 64 bits, the rest folded into the sticky bit.
    return f64_round_pack(sign, e, vec2<u32>(s.z | select(0u, 1u, (s.x | s.y) != 0u), s.w));
}

fn f64_div(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let nan_a = f64_is_nan(a);
    if (nan_a | f64_is_nan(b)) {
        return f64_quiet(select(b, a, nan_a));
    }
    let sign = (a.y ^ b.y) & 0x80000000u;
    let inf_a = f64_is_inf(a);
    let inf_b = f64_is_inf(b);
    let zero_a = f64_is_zero(a);
    let zero_b = f64_is_zero(b);
    if ((inf_a & inf_b) | (zero_a & zero_b)) {
        return f64_default_nan();
    }
    if (inf_a | zero_b) {
        return vec2<u32>(0u, sign | 0x7ff00000u);
    }
    if (inf_b | zero_a) {
        return vec2<u32>(0u, sign);
    }
    let sa = f64_norm_sig(a);
    let sb = f64_norm_sig(b);
    // The quotient of the significands in [1, 2): double the dividend when it is the smaller.
    let small = u64_lt(sa, sb);
    var r = select(sa, u64_shl(sa, 1u), small);
    let e = f64_norm_exp(a) - f64_norm_exp(b) + 1023 - select(0, 1, small);
    // 55 quotient bits by restoring division; the remainder makes the sticky bit.
    var q = vec2<u32>(0u);
    for (var i = 0u; i < 55u; i = i + 1u) {
        let fits = !u64_lt(r, sb);
        r = select(r, u64_sub(r, sb), fits);
        q = vec2<u32>((q.x << 1u) | select(0u, 1u, fits), (q.y << 1u) | (q.x >> 31u));
        r = vec2<u32>(r.x << 1u, (r.y << 1u) | (r.x >> 31u));
    }
    let sig = u64_shl(q, 8u);
    return f64_round_pack(sign, e, vec2<u32>(sig.x | select(0u, 1u, !u64_is_zero(r)), sig.y));
}

fn f64_rcp(a: vec2<u32>) -> vec2<u32> {
    return f64_div(vec2<u32>(0u, 0x3ff00000u), a);
}

// ---- comparisons (0xffffffff true, 0 false), minimum, maximum, saturation

// An integer whose unsigned order is the order of the (non-NaN) values; -0 sorts below +0.
fn f64_order_key(a: vec2<u32>) -> vec2<u32> {
    return select(vec2<u32>(a.x, a.y | 0x80000000u), ~a, (a.y & 0x80000000u) != 0u);
}

fn f64_less(a: vec2<u32>, b: vec2<u32>) -> bool {
    let both_zero = f64_is_zero(a) & f64_is_zero(b);
    return !f64_is_nan(a) & !f64_is_nan(b) & !both_zero & u64_lt(f64_order_key(a), f64_order_key(b));
}

fn f64_greater_equal(a: vec2<u32>, b: vec2<u32>) -> bool {
    let both_zero = f64_is_zero(a) & f64_is_zero(b);
    return !f64_is_nan(a) & !f64_is_nan(b) & (both_zero | !u64_lt(f64_order_key(a), f64_order_key(b)));
}

fn f64_equal(a: vec2<u32>, b: vec2<u32>) -> bool {
    return !f64_is_nan(a) & (all(a == b) | (f64_is_zero(a) & f64_is_zero(b)));
}

fn f64_eq(a: vec2<u32>, b: vec2<u32>) -> u32 {
    return select(0u, 0xffffffffu, f64_equal(a, b));
}

fn f64_ne(a: vec2<u32>, b: vec2<u32>) -> u32 {
    return select(0xffffffffu, 0u, f64_equal(a, b));
}

fn f64_lt(a: vec2<u32>, b: vec2<u32>) -> u32 {
    return select(0u, 0xffffffffu, f64_less(a, b));
}

fn f64_ge(a: vec2<u32>, b: vec2<u32>) -> u32 {
    return select(0u, 0xffffffffu, f64_greater_equal(a, b));
}

// a < b ? a : b; a NaN operand gives the other operand.
fn f64_min(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (f64_is_nan(a)) {
        return b;
    }
    if (f64_is_nan(b)) {
        return a;
    }
    return select(b, a, f64_less(a, b));
}

// a >= b ? a : b; a NaN operand gives the other operand.
fn f64_max(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (f64_is_nan(a)) {
        return b;
    }
    if (f64_is_nan(b)) {
        return a;
    }
    return select(b, a, f64_greater_equal(a, b));
}

// Clamps to [+0, 1]; NaN and -0 give +0.
fn f64_saturate(a: vec2<u32>) -> vec2<u32> {
    if (f64_is_nan(a) | a.y >= 0x80000000u) {
        return vec2<u32>(0u);
    }
    return select(a, vec2<u32>(0u, 0x3ff00000u), !u64_lt(a, vec2<u32>(0u, 0x3ff00000u)));
}

// ---- conversions

// Rounds to nearest even and packs a float32: `sign`, biased exponent `e` and a significand whose
// leading 1 is at bit 30 (bits 0-6 rounding bits, bit 0 sticky). Below the normal range the result
// is a float32 denormal; overflow gives infinity.
fn float_round_pack(sign: u32, e: i32, sig_in: u32) -> u32 {
    let tiny = e < 1;
    let n = u32(clamp(1 - e, 0, 31));
    let jammed = (sig_in >> n) | select(0u, 1u, (sig_in & ((1u << n) - 1u)) != 0u);
    let sig = select(sig_in, jammed, tiny);
    let round_bits = sig & 0x7fu;
    let r = ((sig + 0x40u) >> 7u) & ~select(0u, 1u, round_bits == 0x40u);
    let field = u32(max(select(e, 0, tiny) - 1, 0));
    return select(sign | ((field << 23u) + r), sign | 0x7f800000u, field + (r >> 23u) >= 0xffu);
}

// dtof: to the nearest float32 (ties to even); float32 denormals are produced, a NaN keeps its
// sign and the top of its payload.
fn f64_to_float(a: vec2<u32>) -> u32 {
    let sign = a.y & 0x80000000u;
    let e = f64_exponent(a);
    if (e == 0x7ffu) {
        let payload = ((a.y & 0xfffffu) << 3u) | (a.x >> 29u);
        return select(sign | 0x7f800000u, sign | 0x7fc00000u | payload, f64_is_nan(a));
    }
    // 31 bits: the implicit bit at 30, the 22 lowest fraction bits folded into the sticky bit.
    let sig = select(0x40000000u, 0u, e == 0u) | ((a.y & 0xfffffu) << 10u) | (a.x >> 22u)
        | select(0u, 1u, (a.x & 0x3fffffu) != 0u);
    return float_round_pack(sign, i32(e) - 896, sig);
}

// ftod: exact; float32 denormals are converted (not flushed), a NaN keeps its payload.
fn f64_from_float(f: u32) -> vec2<u32> {
    let sign = f & 0x80000000u;
    let e = (f >> 23u) & 0xffu;
    let m = f & 0x7fffffu;
    if (e == 0xffu) {
        return vec2<u32>(m << 29u, sign | 0x7ff00000u | (m >> 3u) | select(0u, 0x80000u, m != 0u));
    }
    if (e == 0u) {
        if (m == 0u) {
            return vec2<u32>(0u, sign);
        }
        let s = countLeadingZeros(m) - 8u;
        let n = (m << s) & 0x7fffffu;
        return vec2<u32>(n << 29u, sign | ((897u - s) << 20u) | (n >> 3u));
    }
    return vec2<u32>(m << 29u, sign | ((e + 896u) << 20u) | (m >> 3u));
}

// dtoi: rounds toward zero; out of range saturates to the int32 range, NaN gives 0.
fn f64_to_int(a: vec2<u32>) -> u32 {
    let negative = a.y >= 0x80000000u;
    let e = i32(f64_exponent(a)) - 1023;
    if (f64_is_nan(a) | e < 0) {
        return 0u;
    }
    if (e >= 31) {
        return select(0x7fffffffu, 0x80000000u, negative);
    }
    let magnitude = u64_shr(vec2<u32>(a.x, (a.y & 0xfffffu) | 0x100000u), u32(52 - e)).x;
    return select(magnitude, 0u - magnitude, negative);
}

// dtou: rounds toward zero; out of range saturates to the uint32 range, NaN gives 0.
fn f64_to_uint(a: vec2<u32>) -> u32 {
    let e = i32(f64_exponent(a)) - 1023;
    if (f64_is_nan(a) | a.y >= 0x80000000u | e < 0) {
        return 0u;
    }
    if (e >= 32) {
        return 0xffffffffu;
    }
    return u64_shr(vec2<u32>(a.x, (a.y & 0xfffffu) | 0x100000u), u32(52 - e)).x;
}

// utod: exact.
fn f64_from_uint(u: u32) -> vec2<u32> {
    if (u == 0u) {
        return vec2<u32>(0u);
    }
    let lz = countLeadingZeros(u);
    // The fraction bits, left-aligned (the leading 1 shifted out).
    let m = (u << lz) << 1u;
    return vec2<u32>(m << 20u, ((1054u - lz) << 20u) | (m >> 12u));
}

// itod: exact (the argument is the int32's bits).
fn f64_from_int(i: u32) -> vec2<u32> {
    let negative = i >= 0x80000000u;
    let r = f64_from_uint(select(i, 0u - i, negative));
    return vec2<u32>(r.x, r.y | select(0u, 0x80000000u, negative));
}
