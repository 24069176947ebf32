//! Comparison rules of the test suites: exact 32-bit patterns and ULP distance on floats.

/// Maps an f32 bit pattern onto a line where adjacent floats are adjacent integers: `x` when the
/// sign is clear, else `i32::MIN - x` (so +0 and -0 coincide).
pub fn ordered_f32(bits: u32) -> i64 {
    let x = bits as i32;
    if x >= 0 {
        i64::from(x)
    } else {
        i64::from(i32::MIN) - i64::from(x)
    }
}

/// ULP distance between two f32 bit patterns, as vkd3d measures it.
pub fn ulp_distance_f32(a: u32, b: u32) -> u64 {
    ordered_f32(a).abs_diff(ordered_f32(b))
}

/// The same for f64 bit patterns.
pub fn ulp_distance_f64(a: u64, b: u64) -> u128 {
    let o = |bits: u64| -> i128 {
        let x = bits as i64;
        if x >= 0 {
            i128::from(x)
        } else {
            i128::from(i64::MIN) - i128::from(x)
        }
    };
    o(a).abs_diff(o(b))
}

/// How values are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Bit-exact 32-bit words.
    Exact,
    /// f32 values within this many ULPs.
    Ulps(u32),
}

impl Rule {
    /// `exact` or `N ulps`.
    pub fn describe(self) -> String {
        match self {
            Rule::Exact => "exact".into(),
            Rule::Ulps(n) => format!("{n} ulps"),
        }
    }

    /// Whether `got` matches `expected` under this rule.
    pub fn matches(self, expected: u32, got: u32) -> bool {
        match self {
            Rule::Exact => expected == got,
            Rule::Ulps(n) => ulp_distance_f32(expected, got) <= u64::from(n),
        }
    }
}

/// Formats a 32-bit word for a report: `0x3f800000 (1)` for floats, the plain number otherwise.
pub fn show(word: u32, kind: ValueKind) -> String {
    match kind {
        ValueKind::F32 => format!("{word:#010x} ({})", f32::from_bits(word)),
        ValueKind::U32 => format!("{word} ({word:#x})"),
        ValueKind::I32 => format!("{}", word as i32),
    }
}

/// How a word is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// An f32 bit pattern.
    F32,
    /// An unsigned integer.
    U32,
    /// A signed integer.
    I32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeros_of_both_signs_are_equal() {
        assert_eq!(ulp_distance_f32(0x0000_0000, 0x8000_0000), 0);
    }

    #[test]
    fn neighbours_across_zero_are_two_apart() {
        // The smallest positive and negative denormals.
        assert_eq!(ulp_distance_f32(0x0000_0001, 0x8000_0001), 2);
    }

    #[test]
    fn one_and_its_successor_are_one_apart() {
        assert_eq!(ulp_distance_f32(1.0f32.to_bits(), 1.0f32.to_bits() + 1), 1);
        assert!(Rule::Ulps(1).matches(1.0f32.to_bits(), 1.0f32.to_bits() + 1));
        assert!(!Rule::Exact.matches(1.0f32.to_bits(), 1.0f32.to_bits() + 1));
    }

    #[test]
    fn opposite_signs_are_far_apart() {
        assert!(ulp_distance_f32((-1.0f32).to_bits(), 1.0f32.to_bits()) > 1_000_000);
        assert!(!Rule::Ulps(16).matches((-1.0f32).to_bits(), 1.0f32.to_bits()));
    }

    #[test]
    fn nan_only_matches_nearby_nan() {
        assert!(Rule::Ulps(0).matches(0x7fc0_0000, 0x7fc0_0000));
        assert!(!Rule::Ulps(4).matches(0x7fc0_0000, 0x7f80_0000 - 1));
        assert!(!Rule::Ulps(4).matches(0x7fc0_0000, 0xffc0_0000));
    }

    #[test]
    fn f64_distance() {
        assert_eq!(ulp_distance_f64(1.0f64.to_bits(), 1.0f64.to_bits() + 3), 3);
        assert_eq!(ulp_distance_f64(0, 0x8000_0000_0000_0000), 0);
    }
}
