//! 16.16 fixed point and the f32 bit operations the tessellator's factor processing uses
//! (D3D11.3 §11.7.6–11.7.8).
//!
//! Every operation here works on integers only (f32 values travel as their bit patterns), so that
//! the WGSL port (`wgsl/tessellator.wgsl`) computes the same bits on any GPU, denormals, NaN and
//! infinity included. Fixed-point values are `u32` with 16 fraction bits; arithmetic on them
//! wraps as the reference tessellator's unsigned `FXP` arithmetic does.

/// 1.0 in 16.16 fixed point.
pub const FXP_ONE: u32 = 1 << 16;
/// 0.5 in 16.16 fixed point.
pub const FXP_ONE_HALF: u32 = 0x8000;
/// 1/3 in 16.16 fixed point, rounded down (the centre of an even tri patch).
pub const FXP_ONE_THIRD: u32 = 0x5555;
/// 2/3 in 16.16 fixed point, rounded down (maps a 1D position into barycentric space).
pub const FXP_TWO_THIRDS: u32 = 0xaaaa;
const FXP_FRACTION_MASK: u32 = 0xffff;
const FXP_INTEGER_MASK: u32 = 0x7fff_0000;

/// The f32 bits of 1.0.
pub const F32_ONE: u32 = 0x3f80_0000;
/// The f32 bits of 1 + 2^-16: fractional_odd's inside lower bound when a frame is forced.
pub const F32_ONE_PLUS_EPSILON: u32 = 0x3f80_0080;
/// The f32 bits of 1 + 2^-17: above it a factor converts to more than 1.0 in 16.16.
pub const F32_ONE_PLUS_HALF_EPSILON: u32 = 0x3f80_0040;

/// Whether f32 bits are a NaN.
pub fn is_nan(bits: u32) -> bool {
    bits & 0x7f80_0000 == 0x7f80_0000 && bits & 0x007f_ffff != 0
}

/// A denormal flushed to a zero of the same sign (D3D's float rules for min/max).
pub fn flush(bits: u32) -> u32 {
    if bits & 0x7fff_ffff < 0x0080_0000 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// An integer that orders non-NaN f32 bits as their values (both zeros map to 0).
pub fn order_key(bits: u32) -> i32 {
    let magnitude = (bits & 0x7fff_ffff) as i32;
    if bits & 0x8000_0000 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// `a > b` as IEEE compares floats (false when either is NaN); denormals are not flushed.
pub fn greater(a: u32, b: u32) -> bool {
    !is_nan(a) && !is_nan(b) && order_key(a) > order_key(b)
}

/// `min(upper, max(lower, x))` with D3D's IEEE 754R min and max (denormals flushed for the
/// comparison, a NaN operand ignored): NaN maps to `lower`. `lower` and `upper` are positive.
pub fn clamp(x: u32, lower: u32, upper: u32) -> u32 {
    let raised = if is_nan(x) || order_key(lower) >= order_key(flush(x)) { lower } else { x };
    if order_key(upper) < order_key(flush(raised)) {
        upper
    } else {
        raised
    }
}

/// `ceil` of a finite f32 of at least 1.0 (a clamped factor), on its bits.
pub fn ceil_at_least_one(bits: u32) -> u32 {
    let exponent = (bits >> 23) as i32 - 127;
    if exponent >= 23 {
        return bits;
    }
    let fraction_mask = 0x007f_ffff_u32 >> exponent;
    if bits & fraction_mask == 0 {
        bits
    } else {
        (bits | fraction_mask) + 1
    }
}

/// Whether the integer part of a finite f32 of at least 1.0 is even.
pub fn integer_part_is_even(bits: u32) -> bool {
    let exponent = (bits >> 23) as i32 - 127;
    if exponent >= 24 {
        return true;
    }
    let mantissa = (bits & 0x007f_ffff) | 0x0080_0000;
    (mantissa >> (23 - exponent)) & 1 == 0
}

/// An f32 (bits) to unsigned 15.16 fixed point, rounding to nearest even: NaN and negative
/// values give 0, values of 2^15 and above saturate (D3D11.3 §3.2.4.1's float-to-fixed rules).
pub fn to_fixed(bits: u32) -> u32 {
    let exponent = ((bits >> 23) & 0xff) as i32 - 127;
    if is_nan(bits) || bits & 0x8000_0000 != 0 {
        return 0;
    }
    if bits >= ((127 + 15) << 23) {
        return u32::MAX;
    }
    if exponent < -17 {
        return 0;
    }
    let mantissa = (bits & 0x007f_ffff) | 0x0080_0000;
    let extra_bits = 23 - 16 - exponent;
    if extra_bits >= 0 {
        let lsb = 1u32 << extra_bits;
        let half = lsb >> 1;
        let mut rounded = mantissa;
        if mantissa & lsb != 0 || mantissa & (lsb - 1) > half {
            rounded += half;
        }
        rounded >> extra_bits
    } else {
        mantissa << -extra_bits
    }
}

/// A 16.16 value in `[0, 1]` as f32 bits (exact: every such value is a multiple of 2^-16).
pub fn fixed_to_f32_bits(fxp: u32) -> u32 {
    ((fxp >> 16) as f32 + (fxp & FXP_FRACTION_MASK) as f32 / 65536.0).to_bits()
}

/// The smallest integer not below a 16.16 value.
pub fn fxp_ceil(fxp: u32) -> u32 {
    if fxp & FXP_FRACTION_MASK != 0 {
        (fxp & FXP_INTEGER_MASK).wrapping_add(FXP_ONE)
    } else {
        fxp
    }
}

/// The largest integer not above a 16.16 value.
pub fn fxp_floor(fxp: u32) -> u32 {
    fxp & FXP_INTEGER_MASK
}

/// 1/`segments` in 16.16, rounded to nearest (the reference's reciprocal table; 1/0 is all ones).
pub fn reciprocal(segments: u32) -> u32 {
    (FXP_ONE + segments / 2).checked_div(segments).unwrap_or(u32::MAX)
}

/// `value` without its most significant set bit (0 for 0).
pub fn remove_msb(value: u32) -> u32 {
    if value == 0 {
        0
    } else {
        value & !(1 << (31 - value.leading_zeros()))
    }
}
