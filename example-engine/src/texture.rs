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

/// A sampler with the given filter for magnification and minification, repeating in u and v.
pub fn sampler(gpu: &Gpu, filter: wgpu::FilterMode) -> wgpu::Sampler {
    gpu.device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("sampler"),
        address_mode_u: wgpu::AddressMode::Repeat,
        address_mode_v: wgpu::AddressMode::Repeat,
        address_mode_w: wgpu::AddressMode::Repeat,
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
}
