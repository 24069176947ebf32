//! Point-sprite tiles: the BasicEffect torus's vertices drawn as a point list, each expanded by
//! the project's own geometry shader (`shaders/own/PointSprite_GS.dxbc`) into a screen-aligned
//! square of [`SPRITE_SIZE`] pixels, between DirectXTK's BasicEffect vertex and pixel shaders
//! (`effects/point_sprite.effect.toml`). The sheet's pass with a geometry shader: drawn through
//! the generated stage type, its compute work prepared before the render pass.

use wgpu::util::DeviceExt;

use crate::effects::point_sprite_effect as fx;
use crate::gpu::{Gpu, GpuError};
use crate::lighting::columns;
use crate::target::{Image, COLOR_FORMAT, DEPTH_FORMAT};

use super::common::{
    clear_color, draw_geometry_tile, missing, uniform_buffer, LitMesh, LitScene, TILE_HEIGHT, TILE_WIDTH,
};

pub const FAMILY: &str = "PointSpriteEffect (own geometry shader)";

/// The tiles: label and permutation.
pub const TILES: [(&str, fx::Permutation); 2] = [
    ("diffuse colour", fx::Permutation { vertex_color: false }),
    ("vertex colour", fx::Permutation { vertex_color: true }),
];

/// Width and height of every sprite, in pixels.
pub const SPRITE_SIZE: f32 = 3.0;

/// The scene of every point-sprite tile: BasicEffect's (the same camera, torus pose and material).
pub fn scene() -> LitScene {
    super::basic::scene()
}

/// The points: every vertex of BasicEffect's torus (with its rainbow colours), in vertex-buffer
/// order, which is the draw's order.
pub fn mesh() -> LitMesh {
    super::basic::mesh()
}

/// BasicEffect's constants for its no-lighting, no-fog vertex shaders, as DirectXTK's
/// `BasicEffect` class computes them: the diffuse colour and the world-view-projection matrix
/// (the only constants these shaders read; the rest stay zero, as `FogVector` does with fog off).
pub fn parameters(scene: &LitScene) -> fx::Parameters {
    fx::Parameters {
        diffuse_color: scene.material.diffuse,
        world_view_proj: columns(&scene.world_view_proj()),
        ..Default::default()
    }
}

/// The geometry shader's constants for sprites of `size` pixels on a tile: half of `size` pixels
/// in clip space at w = 1 (the shader scales it by each point's w, so the size on screen is
/// constant). The viewport spans 2 clip-space units over the tile's width and height.
pub fn sprite(size: f32) -> fx::Sprite {
    fx::Sprite { half_size: [size / TILE_WIDTH as f32, size / TILE_HEIGHT as f32], ..Default::default() }
}

/// Draws one tile.
pub fn render(gpu: &Gpu, scene: &LitScene, permutation: fx::Permutation) -> Result<Image, GpuError> {
    render_with(gpu, permutation, &parameters(scene), &sprite(SPRITE_SIZE))
}

/// Draws one tile with the constants `parameters` and `sprite` (normally `parameters(&scene())`
/// and `sprite(SPRITE_SIZE)`; tests pass altered ones).
pub fn render_with(
    gpu: &Gpu,
    permutation: fx::Permutation,
    parameters: &fx::Parameters,
    sprite: &fx::Sprite,
) -> Result<Image, GpuError> {
    let mesh = mesh();
    // The effect's own states (D3D11's defaults: depth test, back faces culled, clockwise front
    // faces) on the sheet's targets.
    let stage = gpu
        .scoped("creating the point-sprite stage", |device| {
            fx::MainStage::new(device, permutation, &[COLOR_FORMAT], Some(DEPTH_FORMAT))
        })?
        .map_err(GpuError::PrimitiveStage)?;
    let (groups, points) = gpu.scoped("creating point-sprite resources", |device| {
        let parameters = uniform_buffer(device, "PointSpriteEffect Parameters", bytemuck::bytes_of(parameters));
        let sprite = uniform_buffer(device, "PointSpriteEffect Sprite", bytemuck::bytes_of(sprite));
        let groups = stage.bind_groups(device, &fx::GeometryResources { parameters: &parameters, sprite: &sprite });
        // The vertex shader pulls the points from a storage buffer.
        let bytes = if permutation.vertex_color {
            let points: Vec<fx::VertexPositionColor> = mesh
                .vertices
                .iter()
                .map(|v| fx::VertexPositionColor { position: v.position, color: v.color })
                .collect();
            bytemuck::cast_slice(&points).to_vec()
        } else {
            let points: Vec<fx::VertexPosition> =
                mesh.vertices.iter().map(|v| fx::VertexPosition { position: v.position }).collect();
            bytemuck::cast_slice(&points).to_vec()
        };
        let points = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("torus points"),
            contents: &bytes,
            usage: wgpu::BufferUsages::STORAGE,
        });
        (groups, points)
    })?;
    let groups = groups.map_err(missing)?;
    let draw = fx::MainStage::draw_call(mesh.vertices.len() as u32, 1);
    draw_geometry_tile(
        gpu,
        "drawing a point-sprite tile",
        clear_color(),
        |device, encoder| {
            stage
                .prepare(device, encoder, &draw, &[Some((&points, 0))], None, &groups)
                .map_err(GpuError::PrimitiveStage)
        },
        |pass, prepared| stage.draw(pass, prepared, &groups),
        |prepared| stage.recycle(prepared),
    )
}

/// Every tile of the family.
pub fn tiles(gpu: &Gpu) -> super::RenderedTiles {
    let scene = scene();
    TILES.iter().map(|&(label, p)| (label.to_owned(), render(gpu, &scene, p))).collect()
}
