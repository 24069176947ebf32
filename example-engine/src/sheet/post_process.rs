//! PostProcess tiles: DirectXTK's BasicPostProcess (all eight effects) and DualPostProcess (both)
//! applied to a procedural sunset picture, with the constants DirectXTK's classes compute.

use crate::effects::{basic_post_process as basic, dual_post_process as dual};
use crate::gpu::{Gpu, GpuError};
use crate::target::Image;
use crate::texture::TextureImage;

use super::common::{
    clear_color, draw_tile, missing, opaque_target, uniform_buffer, TileData, TileTexture, TILE_HEIGHT, TILE_WIDTH,
};

pub const BASIC_FAMILY: &str = "PostProcess (BasicPostProcess)";
pub const DUAL_FAMILY: &str = "PostProcess (DualPostProcess)";

/// BasicPostProcess tiles: label and permutation.
pub const BASIC_TILES: [(&str, basic::Permutation); 8] = [
    ("copy", basic::Permutation { effect: basic::Effect::Copy }),
    ("monochrome", basic::Permutation { effect: basic::Effect::Monochrome }),
    ("sepia", basic::Permutation { effect: basic::Effect::Sepia }),
    ("down-scale 2x2", basic::Permutation { effect: basic::Effect::DownScale2x2 }),
    ("down-scale 4x4", basic::Permutation { effect: basic::Effect::DownScale4x4 }),
    ("gaussian blur 5x5", basic::Permutation { effect: basic::Effect::GaussianBlur5x5 }),
    ("bloom extract (threshold 0.6)", basic::Permutation { effect: basic::Effect::BloomExtract }),
    ("bloom blur (horizontal)", basic::Permutation { effect: basic::Effect::BloomBlur }),
];

/// DualPostProcess tiles: label and permutation.
pub const DUAL_TILES: [(&str, dual::Permutation); 2] = [
    ("merge (0.7 picture + 0.6 glow)", dual::Permutation { effect: dual::Effect::Merge }),
    ("bloom combine", dual::Permutation { effect: dual::Effect::BloomCombine }),
];

/// The source picture: sky, sun, hills, and a row of fine stripes, at the tile's resolution.
pub fn picture() -> TextureImage {
    TextureImage::from_fn(TILE_WIDTH, TILE_HEIGHT, |x, y| {
        let (u, v) = ((x as f32 + 0.5) / TILE_WIDTH as f32, (y as f32 + 0.5) / TILE_HEIGHT as f32);
        let hill = 0.62 + 0.08 * (u * 9.0).sin() + 0.04 * (u * 23.0).cos();
        let sun = ((u - 0.68).powi(2) + (v - 0.35).powi(2)).sqrt();
        let rgb = if v > 0.9 {
            // Fine stripes: what blurs and down-scales smear.
            if (x / 2) % 2 == 0 {
                [0.95, 0.95, 0.9]
            } else {
                [0.1, 0.1, 0.15]
            }
        } else if v > hill {
            [0.1 + 0.15 * v, 0.25 + 0.2 * (u * 40.0).sin().abs() * 0.3, 0.12]
        } else if sun < 0.09 {
            [1.0, 0.97, 0.8]
        } else {
            let glow = (0.25 - sun).max(0.0) * 2.0;
            [0.95 * v + 0.2 + glow, 0.45 * v + 0.15 + glow * 0.8, 0.55 - 0.3 * v + glow * 0.3]
        };
        let c = rgb.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8);
        [c[0], c[1], c[2], 255]
    })
}

/// The second picture for DualPostProcess: a soft glow around the sun and along the stripes.
pub fn glow() -> TextureImage {
    TextureImage::from_fn(TILE_WIDTH, TILE_HEIGHT, |x, y| {
        let (u, v) = ((x as f32 + 0.5) / TILE_WIDTH as f32, (y as f32 + 0.5) / TILE_HEIGHT as f32);
        let sun = (-((u - 0.68).powi(2) + (v - 0.35).powi(2)) / 0.02).exp();
        let stripe = (-((v - 0.95).powi(2)) / 0.002).exp() * 0.5;
        let c = [sun + stripe, 0.8 * sun + stripe, 0.4 * sun + stripe].map(|c| (c.min(1.0) * 255.0).round() as u8);
        [c[0], c[1], c[2], 255]
    })
}

/// DirectXTK's `GaussianDistribution`.
fn gaussian(x: f32, y: f32, rho: f32) -> f32 {
    (-(x * x + y * y) / (2.0 * rho * rho)).exp() / (2.0 * std::f32::consts::PI * rho * rho).sqrt()
}

/// BasicPostProcess's constants for `effect` on a source of the tile's size, as
/// `BasicPostProcess` computes them (bloom: threshold 0.6, blur size 2.5, brightness 1).
pub fn basic_parameters(effect: basic::Effect) -> basic::Parameters {
    let (tu, tv) = (1.0 / TILE_WIDTH as f32, 1.0 / TILE_HEIGHT as f32);
    let mut p = basic::Parameters::default();
    match effect {
        basic::Effect::Copy | basic::Effect::Monochrome | basic::Effect::Sepia => {}
        basic::Effect::DownScale2x2 => {
            for y in 0..2 {
                for x in 0..2 {
                    p.sample_offsets[y * 2 + x] = [(x as f32 - 0.5) * tu, (y as f32 - 0.5) * tv, 0.0, 0.0];
                }
            }
        }
        basic::Effect::DownScale4x4 => {
            for y in 0..4 {
                for x in 0..4 {
                    p.sample_offsets[y * 4 + x] = [(x as f32 - 1.5) * tu, (y as f32 - 1.5) * tv, 0.0, 0.0];
                }
            }
        }
        basic::Effect::GaussianBlur5x5 => {
            // 13 taps: the 5x5 block without the points more than 2 steps away.
            let mut total = 0.0;
            let mut index = 0;
            for x in -2i32..=2 {
                for y in -2i32..=2 {
                    if x.abs() + y.abs() > 2 {
                        continue;
                    }
                    p.sample_offsets[index] = [x as f32 * tu, y as f32 * tv, 0.0, 0.0];
                    let g = gaussian(x as f32, y as f32, 1.0);
                    p.sample_weights[index] = [g; 4];
                    total += g;
                    index += 1;
                }
            }
            for w in &mut p.sample_weights[..index] {
                *w = w.map(|c| c / total);
            }
        }
        basic::Effect::BloomExtract => p.sample_weights[0] = [0.6; 4],
        basic::Effect::BloomBlur => {
            let (size, brightness) = (2.5, 1.0);
            p.sample_weights[0] = [gaussian(0.0, 0.0, size) * brightness; 4];
            for i in 1..8 {
                let w = gaussian(i as f32, 0.0, size) * brightness;
                p.sample_offsets[i] = [i as f32 * tu, 0.0, 0.0, 0.0];
                p.sample_offsets[i + 7] = [-(i as f32) * tu, 0.0, 0.0, 0.0];
                p.sample_weights[i] = [w; 4];
                p.sample_weights[i + 7] = [w; 4];
            }
        }
    }
    p
}

/// DualPostProcess's constants, as `DualPostProcess` computes them.
pub fn dual_parameters(effect: dual::Effect) -> dual::Parameters {
    let mut p = dual::Parameters::default();
    match effect {
        dual::Effect::Merge => {
            p.sample_weights[0] = [0.7; 4];
            p.sample_weights[1] = [0.6; 4];
        }
        dual::Effect::BloomCombine => {
            // Base saturation 0.6, bloom saturation 1; base intensity 1, bloom intensity 1.4.
            p.sample_weights[0] = [0.6, 1.0, 0.0, 0.0];
            p.sample_weights[1] = [1.0; 4];
            p.sample_weights[2] = [1.4; 4];
        }
    }
    p
}

/// The sampler of every PostProcess tile.
const SAMPLER: Option<(wgpu::FilterMode, wgpu::AddressMode)> =
    Some((wgpu::FilterMode::Linear, wgpu::AddressMode::ClampToEdge));

/// What one BasicPostProcess tile draws: the full-screen triangle over the picture.
pub fn basic_tile_data(permutation: basic::Permutation) -> TileData {
    let index = permutation.index().expect("the sheet's permutations exist");
    TileData {
        textures: vec![("texture", TileTexture::Rgba8(picture()))],
        sampler: SAMPLER,
        ..TileData::full_screen(index, bytemuck::bytes_of(&basic_parameters(permutation.effect)))
    }
}

/// What one DualPostProcess tile draws: the full-screen triangle over the picture and the glow.
pub fn dual_tile_data(permutation: dual::Permutation) -> TileData {
    let index = permutation.index().expect("the sheet's permutations exist");
    TileData {
        textures: vec![("texture", TileTexture::Rgba8(picture())), ("texture2", TileTexture::Rgba8(glow()))],
        sampler: SAMPLER,
        ..TileData::full_screen(index, bytemuck::bytes_of(&dual_parameters(permutation.effect)))
    }
}

/// Draws one BasicPostProcess tile: the full-screen triangle (three vertices, no vertex buffer).
pub fn render_basic(gpu: &Gpu, permutation: basic::Permutation) -> Result<Image, GpuError> {
    let data = basic_tile_data(permutation);
    let targets = opaque_target();
    let (layouts, pipeline) = gpu.scoped("creating a BasicPostProcess pipeline", |device| {
        let layouts = basic::Layouts::new(device, permutation);
        let options = basic::PipelineOptions {
            label: Some("BasicPostProcess tile"),
            primitive: data.primitive(),
            ..basic::PipelineOptions::new(&targets, data.depth_stencil())
        };
        let pipeline = basic::create_render_pipeline_with(device, &layouts, &options);
        (layouts, pipeline)
    })?;
    let source = data.view(gpu, "texture")?;
    let sampler = data.sampler(gpu);
    let groups = gpu.scoped("creating BasicPostProcess resources", |device| {
        let buffer = uniform_buffer(device, "BasicPostProcess Parameters", &data.parameters);
        basic::BindGroups::new(
            device,
            &layouts,
            &basic::Resources { parameters: Some(&buffer), texture: &source, sampler: &sampler },
        )
    })?;
    let groups = groups.map_err(missing)?;
    draw_tile(gpu, "drawing a BasicPostProcess tile", clear_color(), |pass| {
        pass.set_pipeline(&pipeline);
        groups.set(pass);
        data.draw(pass, None);
    })
}

/// Draws one DualPostProcess tile.
pub fn render_dual(gpu: &Gpu, permutation: dual::Permutation) -> Result<Image, GpuError> {
    let data = dual_tile_data(permutation);
    let targets = opaque_target();
    let (layouts, pipeline) = gpu.scoped("creating a DualPostProcess pipeline", |device| {
        let layouts = dual::Layouts::new(device, permutation);
        let options = dual::PipelineOptions {
            label: Some("DualPostProcess tile"),
            primitive: data.primitive(),
            ..dual::PipelineOptions::new(&targets, data.depth_stencil())
        };
        let pipeline = dual::create_render_pipeline_with(device, &layouts, &options);
        (layouts, pipeline)
    })?;
    let source = data.view(gpu, "texture")?;
    let glow = data.view(gpu, "texture2")?;
    let sampler = data.sampler(gpu);
    let groups = gpu.scoped("creating DualPostProcess resources", |device| {
        let buffer = uniform_buffer(device, "DualPostProcess Parameters", &data.parameters);
        dual::BindGroups::new(
            device,
            &layouts,
            &dual::Resources { parameters: &buffer, texture: &source, texture2: &glow, sampler: &sampler },
        )
    })?;
    let groups = groups.map_err(missing)?;
    draw_tile(gpu, "drawing a DualPostProcess tile", clear_color(), |pass| {
        pass.set_pipeline(&pipeline);
        groups.set(pass);
        data.draw(pass, None);
    })
}

/// Every BasicPostProcess tile's data, in order.
pub fn basic_tiles_data() -> Vec<TileData> {
    BASIC_TILES.iter().map(|&(_, p)| basic_tile_data(p)).collect()
}

/// Every DualPostProcess tile's data, in order.
pub fn dual_tiles_data() -> Vec<TileData> {
    DUAL_TILES.iter().map(|&(_, p)| dual_tile_data(p)).collect()
}

/// Every BasicPostProcess tile.
pub fn basic_tiles(gpu: &Gpu) -> super::RenderedTiles {
    BASIC_TILES.iter().map(|&(label, p)| (label.to_owned(), render_basic(gpu, p))).collect()
}

/// Every DualPostProcess tile.
pub fn dual_tiles(gpu: &Gpu) -> super::RenderedTiles {
    DUAL_TILES.iter().map(|&(label, p)| (label.to_owned(), render_dual(gpu, p))).collect()
}
