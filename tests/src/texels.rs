//! RGBA8 texel data for the mip-generation tests: a deterministic source image and the CPU's
//! 2×2 box filter.

/// `width` × `height` RGBA8 texels, every byte from a linear congruential generator started at
/// `seed`.
pub fn lcg_rgba8(width: u32, height: u32, seed: u32) -> Vec<u8> {
    let mut state = seed;
    (0..width * height * 4)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 24) as u8
        })
        .collect()
}

/// The next mip level of a `width` × `height` RGBA8 image (even sizes): each texel the mean of
/// its 2×2 source block, per channel, rounded to nearest.
pub fn box_filter_rgba8(src: &[u8], width: u32, height: u32) -> Vec<u8> {
    let (w, h) = (width / 2, height / 2);
    let mut out = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            for c in 0..4 {
                let at = |sx: u32, sy: u32| f64::from(src[((sy * width + sx) * 4 + c) as usize]);
                let sum = at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1);
                out.push((sum / 4.0).round() as u8);
            }
        }
    }
    out
}
