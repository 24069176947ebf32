//! Procedural textures and their upload.

use crate::gpu::Gpu;

/// An RGBA8 (linear, non-sRGB) texture image on the CPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureImage {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl TextureImage {
    /// A `cells` x `cells` checkerboard of `cell` x `cell` texels alternating `a` and `b`.
    pub fn checker(cells: u32, cell: u32, a: [u8; 4], b: [u8; 4]) -> Self {
        Self::from_fn(
            cells * cell,
            cells * cell,
            |x, y| {
                if ((x / cell) + (y / cell)).is_multiple_of(2) {
                    a
                } else {
                    b
                }
            },
        )
    }

    /// An image whose texel (x, y) (y from the top row) is `f(x, y)`.
    pub fn from_fn(width: u32, height: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Self {
        let mut rgba = Vec::with_capacity((width * height * 4) as usize);
        for y in 0..height {
            for x in 0..width {
                rgba.extend_from_slice(&f(x, y));
            }
        }
        Self { width, height, rgba }
    }

    /// Texel (x, y) as RGBA bytes.
    pub fn texel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * self.width + x) * 4) as usize;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]
    }

    /// Uploads the image as a one-mip [`wgpu::TextureFormat::Rgba8Unorm`] texture.
    pub fn upload(&self, gpu: &Gpu, label: &str) -> wgpu::Texture {
        let size = wgpu::Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 };
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            &self.rgba,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(self.width * 4),
                rows_per_image: Some(self.height),
            },
            size,
        );
        texture
    }
}

/// Uploads `layers` (all of one size) as one [`wgpu::TextureFormat::Rgba8Unorm`] 2D texture with
/// as many array layers: six for a cube map (+X, -X, +Y, -Y, +Z, -Z), two for a dual-parabola map.
/// The caller picks the view dimension.
pub fn upload_layers(gpu: &Gpu, label: &str, layers: &[TextureImage]) -> wgpu::Texture {
    let (width, height) = (layers[0].width, layers[0].height);
    assert!(layers.iter().all(|l| l.width == width && l.height == height), "{label}: layers differ in size");
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: layers.len() as u32 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    for (layer, image) in layers.iter().enumerate() {
        gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: 0,
                origin: wgpu::Origin3d { x: 0, y: 0, z: layer as u32 },
                aspect: wgpu::TextureAspect::All,
            },
            &image.rgba,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(width * 4), rows_per_image: Some(height) },
            wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        );
    }
    texture
}

/// A linear floating-point RGBA image (values may exceed 1), uploaded as
/// [`wgpu::TextureFormat::Rgba16Float`].
#[derive(Clone, Debug, PartialEq)]
pub struct HdrImage {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<[f32; 4]>,
}

impl HdrImage {
    /// An image whose texel (x, y) (y from the top row) is `f(x, y)`.
    pub fn from_fn(width: u32, height: u32, f: impl Fn(u32, u32) -> [f32; 4]) -> Self {
        let rgba = (0..height).flat_map(|y| (0..width).map(move |x| (x, y))).map(|(x, y)| f(x, y)).collect();
        Self { width, height, rgba }
    }

    /// Uploads the image as a one-mip `Rgba16Float` texture (values rounded to half precision).
    pub fn upload(&self, gpu: &Gpu, label: &str) -> wgpu::Texture {
        let size = wgpu::Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 };
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba16Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let halves: Vec<u16> = self.rgba.iter().flatten().map(|&v| f32_to_f16(v)).collect();
        gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            bytemuck::cast_slice(&halves),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(self.width * 8),
                rows_per_image: Some(self.height),
            },
            size,
        );
        texture
    }
}

/// IEEE half-precision bits of `value`, rounded to nearest even (overflow gives infinity, NaN stays
/// NaN; values below the smallest subnormal flush to zero).
pub fn f32_to_f16(value: f32) -> u16 {
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xFF) as i32;
    let mantissa = bits & 0x7F_FFFF;
    if exponent == 0xFF {
        return sign | 0x7C00 | if mantissa != 0 { 0x200 } else { 0 };
    }
    let e = exponent - 127 + 15;
    if e >= 0x1F {
        return sign | 0x7C00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        // Subnormal: shift the mantissa (with its implicit 1) into place, rounding to nearest even.
        let m = mantissa | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1 << (shift - 1);
        let rounded = (m + half - 1 + ((m >> shift) & 1)) >> shift;
        return sign | rounded as u16;
    }
    let rounded = mantissa + 0xFFF + ((mantissa >> 13) & 1);
    if rounded & 0x80_0000 != 0 {
        // The mantissa rounded up into the next exponent.
        let e = e + 1;
        if e >= 0x1F {
            return sign | 0x7C00;
        }
        return sign | ((e as u16) << 10);
    }
    sign | ((e as u16) << 10) | (rounded >> 13) as u16
}

/// A sampler with the given filter for magnification and minification, repeating in u and v.
pub fn sampler(gpu: &Gpu, filter: wgpu::FilterMode) -> wgpu::Sampler {
    sampler_with(gpu, filter, wgpu::AddressMode::Repeat)
}

/// A sampler with the given filter for magnification and minification and address mode in u, v, w.
pub fn sampler_with(gpu: &Gpu, filter: wgpu::FilterMode, address: wgpu::AddressMode) -> wgpu::Sampler {
    gpu.device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("sampler"),
        address_mode_u: address,
        address_mode_v: address,
        address_mode_w: address,
        mag_filter: filter,
        min_filter: filter,
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checker_alternates_cells() {
        let black = [0, 0, 0, 255];
        let white = [255; 4];
        let t = TextureImage::checker(2, 3, black, white);
        assert_eq!((t.width, t.height), (6, 6));
        assert_eq!(t.texel(0, 0), black);
        assert_eq!(t.texel(2, 2), black);
        assert_eq!(t.texel(3, 0), white);
        assert_eq!(t.texel(0, 3), white);
        assert_eq!(t.texel(5, 5), black);
    }

    #[test]
    fn half_floats_round_to_nearest_even() {
        assert_eq!(f32_to_f16(0.0), 0);
        assert_eq!(f32_to_f16(-0.0), 0x8000);
        assert_eq!(f32_to_f16(1.0), 0x3C00);
        assert_eq!(f32_to_f16(-2.0), 0xC000);
        assert_eq!(f32_to_f16(0.5), 0x3800);
        assert_eq!(f32_to_f16(65504.0), 0x7BFF);
        assert_eq!(f32_to_f16(70000.0), 0x7C00);
        assert_eq!(f32_to_f16(f32::INFINITY), 0x7C00);
        assert_eq!(f32_to_f16(f32::NAN) & 0x7C00, 0x7C00);
        // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): ties to even (1).
        assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3C00);
        assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3C02);
        // Smallest subnormal 2^-24, and the largest subnormal.
        assert_eq!(f32_to_f16(2f32.powi(-24)), 0x0001);
        assert_eq!(f32_to_f16(1023.0 * 2f32.powi(-24)), 0x03FF);
        assert_eq!(f32_to_f16(2f32.powi(-26)), 0);
        // 0.1 is 0x2E66 in half precision.
        assert_eq!(f32_to_f16(0.1), 0x2E66);
    }
}
