//! ToneMap tiles: DirectXTK's ToneMapPostProcess on a procedural HDR picture (exposure ramp from
//! 1/8 to 32 across the tile), eight of the twelve permutations (the four HDR10 permutations share
//! one shader; one is shown).

use crate::effects::tone_map as fx;
use crate::gpu::{Gpu, GpuError};
use crate::target::Image;
use crate::texture::HdrImage;

use super::common::{
    clear_color, draw_tile, missing, opaque_target, uniform_buffer, TileData, TileTexture, TILE_HEIGHT, TILE_WIDTH,
};

pub const FAMILY: &str = "ToneMap";

const fn perm(transfer: fx::Transfer, operator: fx::Operator) -> fx::Permutation {
    fx::Permutation { transfer, operator }
}

/// The tiles: label and permutation.
pub const TILES: [(&str, fx::Permutation); 8] = [
    ("copy (no operator, linear)", perm(fx::Transfer::Linear, fx::Operator::None)),
    ("saturate", perm(fx::Transfer::Linear, fx::Operator::Saturate)),
    ("reinhard", perm(fx::Transfer::Linear, fx::Operator::Reinhard)),
    ("ACES filmic", perm(fx::Transfer::Linear, fx::Operator::AcesFilmic)),
    ("sRGB (no operator)", perm(fx::Transfer::Srgb, fx::Operator::None)),
    ("reinhard, sRGB", perm(fx::Transfer::Srgb, fx::Operator::Reinhard)),
    ("ACES filmic, sRGB", perm(fx::Transfer::Srgb, fx::Operator::AcesFilmic)),
    ("HDR10 (rec.2020, ST.2084)", perm(fx::Transfer::St2084, fx::Operator::None)),
];

/// Exposure and paper white of every tile.
pub const LINEAR_EXPOSURE: f32 = 0.8;
pub const PAPER_WHITE_NITS: f32 = 200.0;

/// The HDR picture: colour bands down the tile, brightness doubling every 1/8 of its width from
/// 1/8 to 32.
pub fn picture() -> HdrImage {
    HdrImage::from_fn(TILE_WIDTH, TILE_HEIGHT, |x, y| {
        let exposure = 2f32.powf(8.0 * (x as f32 + 0.5) / TILE_WIDTH as f32 - 3.0);
        let band =
            [[1.0, 0.9, 0.8], [1.0, 0.35, 0.1], [0.2, 0.7, 0.25], [0.15, 0.35, 1.0], [0.8, 0.2, 0.8], [0.5, 0.5, 0.5]]
                [(y * 6 / TILE_HEIGHT) as usize];
        [band[0] * exposure, band[1] * exposure, band[2] * exposure, 1.0]
    })
}

/// What one tile draws: the full-screen triangle over the HDR picture (linear filter, clamped).
pub fn tile_data(permutation: fx::Permutation) -> TileData {
    let bytes =
        fx::Parameters { linear_exposure: LINEAR_EXPOSURE, paper_white_nits: PAPER_WHITE_NITS, ..Default::default() };
    TileData {
        textures: vec![("hdr_texture", TileTexture::Rgba16Float(picture()))],
        sampler: Some((wgpu::FilterMode::Linear, wgpu::AddressMode::ClampToEdge)),
        ..TileData::full_screen(
            permutation.index().expect("the sheet's permutations exist"),
            bytemuck::bytes_of(&bytes),
        )
    }
}

/// Draws one tile: the full-screen triangle (three vertices, no vertex buffer).
pub fn render(gpu: &Gpu, permutation: fx::Permutation) -> Result<Image, GpuError> {
    let data = tile_data(permutation);
    let targets = opaque_target();
    let (layouts, pipeline) = gpu.scoped("creating a ToneMap pipeline", |device| {
        let layouts = fx::Layouts::new(device, permutation);
        let options = fx::PipelineOptions {
            label: Some("ToneMap tile"),
            primitive: data.primitive(),
            ..fx::PipelineOptions::new(&targets, data.depth_stencil())
        };
        let pipeline = fx::create_render_pipeline_with(device, &layouts, &options);
        (layouts, pipeline)
    })?;
    let hdr = data.view(gpu, "hdr_texture")?;
    let sampler = data.sampler(gpu);
    let groups = gpu.scoped("creating ToneMap resources", |device| {
        let buffer = uniform_buffer(device, "ToneMap Parameters", &data.parameters);
        fx::BindGroups::new(
            device,
            &layouts,
            &fx::Resources { parameters: Some(&buffer), hdr_texture: &hdr, sampler: &sampler },
        )
    })?;
    let groups = groups.map_err(missing)?;
    draw_tile(gpu, "drawing a ToneMap tile", clear_color(), |pass| {
        pass.set_pipeline(&pipeline);
        groups.set(pass);
        data.draw(pass, None);
    })
}

/// Every tile's data, in order.
pub fn tiles_data() -> Vec<TileData> {
    TILES.iter().map(|&(_, p)| tile_data(p)).collect()
}

/// Every tile of the family.
pub fn tiles(gpu: &Gpu) -> super::RenderedTiles {
    TILES.iter().map(|&(label, p)| (label.to_owned(), render(gpu, p))).collect()
}
