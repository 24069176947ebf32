// Translated by dxbc-wgsl 0.1.0 from a pixel shader (shader model 5.0).

struct PixelOutput {
    @location(0) o0_: vec4<u32>,
}

@group(1) @binding(0) 
var<uniform> cb0_: array<vec4<u32>, 1>;

fn u64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = (a.x + b.x);
    return vec2<u32>(lo, ((a.y + b.y) + select(0u, 1u, (lo < a.x))));
}

fn u64_sub(a_1: vec2<u32>, b_1: vec2<u32>) -> vec2<u32> {
    return vec2<u32>((a_1.x - b_1.x), ((a_1.y - b_1.y) - select(0u, 1u, (a_1.x < b_1.x))));
}

fn u64_lt(a_2: vec2<u32>, b_2: vec2<u32>) -> bool {
    return ((a_2.y < b_2.y) | ((a_2.y == b_2.y) & (a_2.x < b_2.x)));
}

fn u64_is_zero(a_3: vec2<u32>) -> bool {
    return ((a_3.x | a_3.y) == 0u);
}

fn u64_shl(a_4: vec2<u32>, n: u32) -> vec2<u32> {
    let s = (n & 31u);
    let lo_1 = (a_4.x << s);
    let hi = ((a_4.y << s) | select(0u, (a_4.x >> ((32u - s) & 31u)), (s != 0u)));
    let r = select(vec2<u32>(lo_1, hi), vec2<u32>(0u, lo_1), (n >= 32u));
    return select(r, vec2(0u), (n >= 64u));
}

fn u64_shr(a_5: vec2<u32>, n_1: u32) -> vec2<u32> {
    let s_1 = (n_1 & 31u);
    let hi_1 = (a_5.y >> s_1);
    let lo_2 = ((a_5.x >> s_1) | select(0u, (a_5.y << ((32u - s_1) & 31u)), (s_1 != 0u)));
    let r_1 = select(vec2<u32>(lo_2, hi_1), vec2<u32>(hi_1, 0u), (n_1 >= 32u));
    return select(r_1, vec2(0u), (n_1 >= 64u));
}

fn u64_shr_jam(a_6: vec2<u32>, n_2: u32) -> vec2<u32> {
    let _e2 = u64_shr(a_6, n_2);
    let _e3 = u64_shl(_e2, n_2);
    let lost = any((_e3 != a_6));
    return vec2<u32>((_e2.x | select(0u, 1u, lost)), _e2.y);
}

fn u64_clz(a_7: vec2<u32>) -> u32 {
    return select(countLeadingZeros(a_7.y), (32u + countLeadingZeros(a_7.x)), (a_7.y == 0u));
}

fn f64_exponent(a_8: vec2<u32>) -> u32 {
    return ((a_8.y >> 20u) & 2047u);
}

fn f64_is_nan(a_9: vec2<u32>) -> bool {
    let h = (a_9.y & 2147483647u);
    return ((h > 2146435072u) | ((h == 2146435072u) & (a_9.x != 0u)));
}

fn f64_is_inf(a_10: vec2<u32>) -> bool {
    return (((a_10.y & 2147483647u) == 2146435072u) & (a_10.x == 0u));
}

fn f64_default_nan() -> vec2<u32> {
    return vec2<u32>(0u, 2146959360u);
}

fn f64_quiet(a_11: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a_11.x, (a_11.y | 524288u));
}

fn f64_round_pack(sign_: u32, e: i32, sig_in: vec2<u32>) -> vec2<u32> {
    let tiny = (e < 1i);
    let _e11 = u64_shr_jam(sig_in, u32(clamp((1i - e), 0i, 64i)));
    let sig_1 = select(sig_in, _e11, tiny);
    let round_bits = (sig_1.x & 1023u);
    let _e19 = u64_add(sig_1, vec2<u32>(512u, 0u));
    let r_2 = vec2<u32>((((_e19.x >> 10u) | (_e19.y << 22u)) & ~(select(0u, 1u, (round_bits == 512u)))), (_e19.y >> 10u));
    let field = u32(max((select(e, 0i, tiny) - 1i), 0i));
    let overflow = ((field + (r_2.y >> 20u)) >= 2047u);
    return select(vec2<u32>(r_2.x, (sign_ | ((field << 20u) + r_2.y))), vec2<u32>(0u, (sign_ | 2146435072u)), overflow);
}

fn f64_norm_round_pack(sign_1: u32, e_1: i32, sig: vec2<u32>) -> vec2<u32> {
    if (sig.y >= 2147483648u) {
        let _e9 = u64_shr_jam(sig, 1u);
        let _e10 = f64_round_pack(sign_1, (e_1 + 1i), _e9);
        return _e10;
    }
    let _e11 = u64_clz(sig);
    let s_2 = (_e11 - 1u);
    let _e16 = u64_shl(sig, s_2);
    let _e17 = f64_round_pack(sign_1, (e_1 - i32(s_2)), _e16);
    return _e17;
}

fn f64_add(a_12: vec2<u32>, b_3: vec2<u32>) -> vec2<u32> {
    let _e2 = f64_is_nan(a_12);
    let _e3 = f64_is_nan(b_3);
    if (_e2 | _e3) {
        let _e6 = f64_quiet(select(b_3, a_12, _e2));
        return _e6;
    }
    let _e7 = f64_is_inf(a_12);
    let _e8 = f64_is_inf(b_3);
    if (_e7 | _e8) {
        if ((_e7 & _e8) & (a_12.y != b_3.y)) {
            let _e15 = f64_default_nan();
            return _e15;
        }
        return select(b_3, a_12, _e7);
    }
    let _e27 = u64_lt(vec2<u32>(a_12.x, (a_12.y & 2147483647u)), vec2<u32>(b_3.x, (b_3.y & 2147483647u)));
    let x = select(a_12, b_3, _e27);
    let y = select(b_3, a_12, _e27);
    let sign_2 = (x.y & 2147483648u);
    let _e33 = f64_exponent(x);
    let ex = max(i32(_e33), 1i);
    let _e37 = f64_exponent(y);
    let ey = max(i32(_e37), 1i);
    let _e49 = f64_exponent(x);
    let sx = vec2<u32>((x.x << 10u), ((((x.y & 1048575u) | select(1048576u, 0u, (_e49 == 0u))) << 10u) | (x.x >> 22u)));
    let _e69 = f64_exponent(y);
    let sy0_ = vec2<u32>((y.x << 10u), ((((y.y & 1048575u) | select(1048576u, 0u, (_e69 == 0u))) << 10u) | (y.x >> 22u)));
    let _e83 = u64_shr_jam(sy0_, u32((ex - ey)));
    if (((x.y ^ y.y) & 2147483648u) != 0u) {
        let _e91 = u64_sub(sx, _e83);
        let _e92 = u64_is_zero(_e91);
        if _e92 {
            return vec2(0u);
        }
        let _e95 = f64_norm_round_pack(sign_2, ex, _e91);
        return _e95;
    }
    let _e96 = u64_add(sx, _e83);
    let _e97 = u64_is_zero(_e96);
    if _e97 {
        return vec2<u32>(0u, sign_2);
    }
    let _e100 = f64_norm_round_pack(sign_2, ex, _e96);
    return _e100;
}

fn f64_saturate(a_13: vec2<u32>) -> vec2<u32> {
    let _e1 = f64_is_nan(a_13);
    if (_e1 | (a_13.y >= 2147483648u)) {
        return vec2(0u);
    }
    let _e14 = u64_lt(a_13, vec2<u32>(0u, 1072693248u));
    return select(a_13, vec2<u32>(0u, 1072693248u), !(_e14));
}

@fragment 
fn main() -> PixelOutput {
    var o0_: vec4<u32> = vec4<u32>();
    var r0_: vec4<u32> = vec4<u32>();

    let _e6 = cb0_[0];
    let _e8 = f64_saturate(_e6.xy);
    r0_.x = _e8.x;
    r0_.y = _e8.y;
    let _e13 = r0_;
    let _e18 = f64_add(_e13.xy, vec2<u32>(0u, 1073217536u));
    r0_.x = _e18.x;
    r0_.y = _e18.y;
    let _e23 = r0_;
    let _e24 = _e23.xy;
    o0_.z = _e24.x;
    o0_.w = _e24.y;
    let _e30 = cb0_[0];
    let _e31 = _e30.xy;
    let _e36 = vec2<u32>(_e31.x, (_e31.y & 2147483647u));
    r0_.x = _e36.x;
    r0_.y = _e36.y;
    let _e41 = r0_;
    let _e42 = _e41.xy;
    o0_.x = _e42.x;
    o0_.y = _e42.y;
    let _e47 = o0_;
    return PixelOutput(_e47);
}
