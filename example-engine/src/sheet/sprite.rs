//! SpriteEffect tile: DirectXTK's SpriteBatch shaders drawing a tiled background sprite and
//! rotated, tinted star sprites with premultiplied-alpha blending (its one permutation).

use crate::effects::sprite_effect as fx;
use crate::gpu::{Gpu, GpuError};
use crate::target::{Image, COLOR_FORMAT};
use crate::texture::{sampler, TextureImage};

use super::common::{clear_color, draw_tile, missing, no_depth_test, uniform_buffer, TILE_HEIGHT, TILE_WIDTH};

pub const FAMILY: &str = "SpriteEffect";

/// The tile: label.
pub const TILES: [&str; 1] = ["background + 6 tinted, rotated sprites"];

/// One sprite: centre and size in pixels, rotation in radians, premultiplied tint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprite {
    pub centre: [f32; 2],
    pub size: [f32; 2],
    pub rotation: f32,
    pub color: [f32; 4],
}

/// The star sprites.
pub fn sprites() -> Vec<Sprite> {
    let w = TILE_WIDTH as f32;
    let h = TILE_HEIGHT as f32;
    let tints = [
        [1.0, 0.85, 0.3, 1.0],
        [0.3, 0.8, 1.0, 1.0],
        [1.0, 0.4, 0.6, 1.0],
        [0.5, 1.0, 0.5, 1.0],
        // Half transparent (premultiplied).
        [0.45, 0.45, 0.5, 0.5],
        [0.9, 0.5, 1.0, 1.0],
    ];
    tints
        .iter()
        .enumerate()
        .map(|(i, &color)| {
            let t = i as f32 / tints.len() as f32;
            let size = 30.0 + 14.0 * ((i * 7) % 3) as f32;
            Sprite {
                centre: [w * (0.14 + 0.72 * t + 0.06), h * (0.3 + 0.4 * ((i % 2) as f32))],
                size: [size, size],
                rotation: 0.4 * i as f32,
                color,
            }
        })
        .collect()
}

/// The star texture: a soft five-pointed star, premultiplied alpha.
pub fn star_texture() -> TextureImage {
    const SIZE: u32 = 64;
    TextureImage::from_fn(SIZE, SIZE, |x, y| {
        let (u, v) = ((x as f32 + 0.5) / SIZE as f32 * 2.0 - 1.0, (y as f32 + 0.5) / SIZE as f32 * 2.0 - 1.0);
        let (r, a) = ((u * u + v * v).sqrt(), v.atan2(u));
        let edge = 0.55 + 0.35 * (5.0 * a).cos();
        let alpha = ((edge - r) * 12.0).clamp(0.0, 1.0);
        let shade = 1.0 - 0.4 * r;
        let c = (shade * alpha * 255.0).round() as u8;
        [c, c, c, (alpha * 255.0).round() as u8]
    })
}

/// The background texture: a dim checker.
pub fn background_texture() -> TextureImage {
    TextureImage::checker(8, 4, [40, 44, 70, 255], [60, 66, 100, 255])
}

/// SpriteBatch's viewport transform: pixels (y down) to clip space, row-major (`[i]` is row i).
pub fn matrix_transform() -> [[f32; 4]; 4] {
    let (x, y) = (2.0 / TILE_WIDTH as f32, -2.0 / TILE_HEIGHT as f32);
    [[x, 0.0, 0.0, 0.0], [0.0, y, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [-1.0, 1.0, 0.0, 1.0]]
}

/// The four corners of `sprite` (top-left, top-right, bottom-left, bottom-right), as SpriteBatch
/// writes them.
fn quad(sprite: &Sprite, uv_scale: f32) -> [fx::VertexColorTexcoordPosition; 4] {
    let (s, c) = sprite.rotation.sin_cos();
    [(-0.5f32, -0.5f32, 0.0, 0.0), (0.5, -0.5, 1.0, 0.0), (-0.5, 0.5, 0.0, 1.0), (0.5, 0.5, 1.0, 1.0)].map(
        |(dx, dy, u, v)| {
            let (x, y) = (dx * sprite.size[0], dy * sprite.size[1]);
            fx::VertexColorTexcoordPosition {
                color: sprite.color,
                texcoord: [u * uv_scale, v * uv_scale],
                position: [sprite.centre[0] + c * x - s * y, sprite.centre[1] + s * x + c * y, 0.0],
            }
        },
    )
}

/// Draws the tile.
pub fn render(gpu: &Gpu) -> Result<Image, GpuError> {
    let targets = [Some(wgpu::ColorTargetState {
        format: COLOR_FORMAT,
        blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
        write_mask: wgpu::ColorWrites::ALL,
    })];
    let permutation = fx::Permutation::default();
    let (layouts, pipeline) = gpu.scoped("creating the SpriteEffect pipeline", |device| {
        let layouts = fx::Layouts::new(device, permutation);
        let options = fx::PipelineOptions {
            label: Some("SpriteEffect tile"),
            primitive: wgpu::PrimitiveState { cull_mode: None, ..Default::default() },
            ..fx::PipelineOptions::new(&targets, no_depth_test())
        };
        let pipeline = fx::create_render_pipeline_with(device, &layouts, &options);
        (layouts, pipeline)
    })?;
    let star = star_texture().upload(gpu, "star").create_view(&Default::default());
    let background = background_texture().upload(gpu, "background").create_view(&Default::default());
    let sampler = sampler(gpu, wgpu::FilterMode::Linear);
    let backdrop = Sprite {
        centre: [TILE_WIDTH as f32 / 2.0, TILE_HEIGHT as f32 / 2.0],
        size: [TILE_WIDTH as f32, TILE_HEIGHT as f32],
        rotation: 0.0,
        color: [1.0; 4],
    };
    let (groups, buffers) = gpu.scoped("creating SpriteEffect resources", |device| {
        let parameters = fx::Parameters { matrix_transform: matrix_transform() };
        let buffer = uniform_buffer(device, "SpriteEffect Parameters", bytemuck::bytes_of(&parameters));
        let groups = [&background, &star].map(|texture| {
            fx::BindGroups::new(device, &layouts, &fx::Resources { parameters: &buffer, texture, sampler: &sampler })
        });
        let backdrop_vertices = quad(&backdrop, 2.0);
        let star_vertices: Vec<_> = sprites().iter().flat_map(|s| quad(s, 1.0)).collect();
        // Two triangles per sprite, as SpriteBatch's index buffer has them.
        let indices = |count: usize| -> Vec<u32> {
            (0..count as u32).flat_map(|i| [0, 1, 2, 1, 3, 2].map(|k| 4 * i + k)).collect()
        };
        let buffers = [
            crate::mesh::GpuMesh::new(device, "backdrop", bytemuck::cast_slice(&backdrop_vertices), &indices(1)),
            crate::mesh::GpuMesh::new(
                device,
                "sprites",
                bytemuck::cast_slice(&star_vertices),
                &indices(star_vertices.len() / 4),
            ),
        ];
        (groups, buffers)
    })?;
    let [background_groups, star_groups] = groups;
    let (background_groups, star_groups) = (background_groups.map_err(missing)?, star_groups.map_err(missing)?);
    draw_tile(gpu, "drawing the SpriteEffect tile", clear_color(), |pass| {
        pass.set_pipeline(&pipeline);
        background_groups.set(pass);
        buffers[0].draw(pass);
        star_groups.set(pass);
        buffers[1].draw(pass);
    })
}

/// The family's tile.
pub fn tiles(gpu: &Gpu) -> super::RenderedTiles {
    vec![(TILES[0].to_owned(), render(gpu))]
}
