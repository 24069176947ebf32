//! Offscreen colour/depth targets and read-back of rendered pixels.

use crate::gpu::{Gpu, GpuError};

/// Format of every offscreen colour target: 8-bit UNORM, no sRGB conversion, so a shader's output
/// `x` in [0, 1] is stored as `round(x * 255)`.
pub const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// Format of the depth buffer.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The depth state every pipeline drawing into a [`Target`] uses: nearer (less) passes, writes on.
pub fn depth_stencil_state() -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: Some(true),
        depth_compare: Some(wgpu::CompareFunction::Less),
        stencil: wgpu::StencilState::default(),
        bias: wgpu::DepthBiasState::default(),
    }
}

/// An RGBA8 image read back from the GPU, rows top to bottom, without padding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Image {
    /// The RGBA bytes of pixel (x, y), y counted from the top row.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        assert!(x < self.width && y < self.height, "pixel ({x}, {y}) outside {}x{}", self.width, self.height);
        let i = ((y * self.width + x) * 4) as usize;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]
    }

    /// Writes the image as a PNG file.
    pub fn save_png(&self, path: &std::path::Path) -> Result<(), image::ImageError> {
        image::save_buffer_with_format(
            path,
            &self.rgba,
            self.width,
            self.height,
            image::ExtendedColorType::Rgba8,
            image::ImageFormat::Png,
        )
    }
}

/// Bytes per row of a buffer receiving a texture copy: `unpadded` rounded up to
/// [`wgpu::COPY_BYTES_PER_ROW_ALIGNMENT`].
pub fn padded_bytes_per_row(unpadded: u32) -> u32 {
    unpadded.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT
}

/// Removes the row padding of a texture-to-buffer copy.
pub fn unpad_rows(padded: &[u8], unpadded_row: usize, padded_row: usize, rows: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(unpadded_row * rows);
    for row in padded.chunks(padded_row).take(rows) {
        out.extend_from_slice(&row[..unpadded_row]);
    }
    out
}

/// A colour target (with depth buffer) to render into and read back.
pub struct Target {
    pub width: u32,
    pub height: u32,
    pub color: wgpu::Texture,
    pub color_view: wgpu::TextureView,
    pub depth_view: wgpu::TextureView,
}

impl Target {
    /// Creates a `width` x `height` [`COLOR_FORMAT`] target with a [`DEPTH_FORMAT`] depth buffer.
    pub fn new(gpu: &Gpu, width: u32, height: u32) -> Self {
        let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
        let color = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen colour"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: COLOR_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let depth = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen depth"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        Self {
            width,
            height,
            color_view: color.create_view(&Default::default()),
            depth_view: depth.create_view(&Default::default()),
            color,
        }
    }

    /// A render pass clearing colour to `clear` and depth to 1.
    pub fn begin_pass<'e>(&self, encoder: &'e mut wgpu::CommandEncoder, clear: wgpu::Color) -> wgpu::RenderPass<'e> {
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("offscreen pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &self.color_view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(clear), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.depth_view,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Store }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        })
    }

    /// Copies the colour target into a mappable buffer (rows padded to
    /// [`wgpu::COPY_BYTES_PER_ROW_ALIGNMENT`]), waits, and returns the unpadded pixels.
    pub fn read_back(&self, gpu: &Gpu) -> Result<Image, GpuError> {
        read_rgba8(gpu, &self.color, self.width, self.height)
    }
}

/// Reads mip 0 of a `width` × `height` texture of 4 bytes per texel (RGBA8) back: copies it into
/// a mappable buffer (rows padded to [`wgpu::COPY_BYTES_PER_ROW_ALIGNMENT`]), waits for the GPU
/// (and so for the work submitted before), and returns the unpadded texels.
pub fn read_rgba8(gpu: &Gpu, texture: &wgpu::Texture, width: u32, height: u32) -> Result<Image, GpuError> {
    let unpadded = width * 4;
    let padded = padded_bytes_per_row(unpadded);
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read-back"),
        size: u64::from(padded) * u64::from(height),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    gpu.scoped("copying the frame to a buffer", |device| {
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(height),
                },
            },
            wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        );
        gpu.queue.submit([encoder.finish()]);
    })?;
    let slice = buffer.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = sender.send(result);
    });
    gpu.wait_idle()?;
    let mapped = receiver.recv().map_err(|e| e.to_string()).and_then(|r| r.map_err(|e| e.to_string()));
    if let Err(error) = mapped {
        return Err(GpuError::Scope { what: "mapping the read-back buffer".to_owned(), error });
    }
    let rgba = {
        let data = slice
            .get_mapped_range()
            .map_err(|e| GpuError::Scope { what: "reading the mapped buffer".to_owned(), error: e.to_string() })?;
        unpad_rows(&data, unpadded as usize, padded as usize, height as usize)
    };
    buffer.unmap();
    Ok(Image { width, height, rgba })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_padded_to_the_copy_alignment() {
        assert_eq!(padded_bytes_per_row(4), 256);
        assert_eq!(padded_bytes_per_row(256), 256);
        assert_eq!(padded_bytes_per_row(257), 512);
        assert_eq!(padded_bytes_per_row(100 * 4), 512);
    }

    #[test]
    fn unpadding_keeps_only_the_pixels_of_each_row() {
        // Two rows of 3 bytes padded to 5.
        let padded = [1, 2, 3, 0xEE, 0xEE, 4, 5, 6, 0xEE, 0xEE];
        assert_eq!(unpad_rows(&padded, 3, 5, 2), vec![1, 2, 3, 4, 5, 6]);
    }
}
