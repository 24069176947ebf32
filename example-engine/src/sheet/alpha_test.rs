//! AlphaTestEffect tiles: a tilted square textured with rings of four alpha levels, cut out by an
//! alpha test ("greater than" or "equal to" a reference), all eight permutations.

use crate::effects::alpha_test_effect as fx;
use crate::gpu::{Gpu, GpuError};
use crate::lighting::columns;
use crate::math::Mat4;
use crate::mesh::Mesh;
use crate::target::Image;
use crate::texture::TextureImage;

use super::common::{
    clear_color, draw_tile, missing, opaque_target, uniform_buffer, Camera, LitMesh, LitScene, TileData, TileTexture,
};

pub const FAMILY: &str = "AlphaTestEffect";

/// The D3D comparison functions the tiles use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlphaFunction {
    Greater,
    Equal,
}

/// Reference alpha (8-bit) of the tiles' alpha tests.
pub const GREATER_REFERENCE: u8 = 100;
pub const EQUAL_REFERENCE: u8 = 128;

const fn perm(compare: fx::Compare, fog: bool, vertex_color: bool) -> fx::Permutation {
    fx::Permutation { compare, fog, vertex_color }
}

/// The tiles: label and permutation (less/greater tiles test `alpha > 100`, equal/not-equal tiles
/// `alpha == 128`).
pub const TILES: [(&str, fx::Permutation); 8] = [
    ("alpha > 100", perm(fx::Compare::LtGt, false, false)),
    ("alpha > 100 + fog", perm(fx::Compare::LtGt, true, false)),
    ("alpha > 100 + vertex colour", perm(fx::Compare::LtGt, false, true)),
    ("alpha > 100 + vertex colour + fog", perm(fx::Compare::LtGt, true, true)),
    ("alpha = 128", perm(fx::Compare::EqNe, false, false)),
    ("alpha = 128 + fog", perm(fx::Compare::EqNe, true, false)),
    ("alpha = 128 + vertex colour", perm(fx::Compare::EqNe, false, true)),
    ("alpha = 128 + vertex colour + fog", perm(fx::Compare::EqNe, true, true)),
];

/// The scene: the square leans back from the camera (fog grows towards its top).
pub fn scene() -> LitScene {
    let mut scene = LitScene::new(Mat4::rotation_x(1.05).mul(&Mat4::rotation_z(0.2)));
    scene.camera = Camera { eye: [0.0, 0.3, 3.2], look_at: [0.0, 0.1, 0.0], fov_y: 0.8 };
    scene.material.diffuse = [1.0, 1.0, 1.0, 1.0];
    scene.fog.start = 2.6;
    scene.fog.end = 4.4;
    scene
}

/// A 2.6 x 2.6 square in the xz plane (the world matrix stands it up).
pub fn mesh() -> LitMesh {
    LitMesh::colored(&Mesh::plane([2.6, 2.6], [1.0, 1.0], 8))
}

/// Concentric rings with alpha 64, 128, 192 and 255 around the centre (and 32 outside).
pub fn texture() -> TextureImage {
    const SIZE: u32 = 64;
    TextureImage::from_fn(SIZE, SIZE, |x, y| {
        let (u, v) = ((x as f32 + 0.5) / SIZE as f32 - 0.5, (y as f32 + 0.5) / SIZE as f32 - 0.5);
        let ring = ((u * u + v * v).sqrt() * 10.0) as u32;
        let (color, alpha) = match ring {
            0 => ([255, 240, 120], 255),
            1 => ([255, 140, 60], 192),
            2 => ([120, 200, 255], 128),
            3 => ([200, 120, 255], 64),
            4 => ([255, 240, 120], 255),
            _ => ([90, 90, 90], 32),
        };
        [color[0], color[1], color[2], alpha]
    })
}

/// `AlphaTest` as DirectXTK's `AlphaTestEffect` computes it for a comparison function and
/// reference: `clip((a < x) ? z : w)` or `clip((abs(a - x) < y) ? z : w)`.
pub fn alpha_test(function: AlphaFunction, reference: u8) -> [f32; 4] {
    let reference = f32::from(reference) / 255.0;
    // Comparison tolerance of half the 8-bit precision.
    let threshold = 0.5 / 255.0;
    match function {
        AlphaFunction::Greater => [reference + threshold, 0.0, -1.0, 1.0],
        AlphaFunction::Equal => [reference, threshold, 1.0, -1.0],
    }
}

/// AlphaTestEffect's constants.
pub fn parameters(scene: &LitScene, permutation: fx::Permutation) -> fx::Parameters {
    let test = match permutation.compare {
        fx::Compare::LtGt => alpha_test(AlphaFunction::Greater, GREATER_REFERENCE),
        fx::Compare::EqNe => alpha_test(AlphaFunction::Equal, EQUAL_REFERENCE),
    };
    fx::Parameters {
        diffuse_color: scene.material.diffuse,
        alpha_test: test,
        fog_color: scene.fog.color,
        fog_vector: scene.fog_vector(permutation.fog),
        world_view_proj: columns(&scene.world_view_proj()),
        ..Default::default()
    }
}

/// What one tile draws: the square (both sides), the constants and the ring texture.
pub fn tile_data(scene: &LitScene, permutation: fx::Permutation) -> TileData {
    let mesh = mesh();
    let vertices = if permutation.vertex_color {
        mesh.vertex_bytes(|v| fx::VertexPositionTexcoordColor { position: v.position, texcoord: v.uv, color: v.color })
    } else {
        mesh.vertex_bytes(|v| fx::VertexPositionTexcoord { position: v.position, texcoord: v.uv })
    };
    let index = permutation.index().expect("the sheet's permutations exist");
    TileData {
        cull_back: false,
        textures: vec![("texture", TileTexture::Rgba8(texture()))],
        sampler: Some((wgpu::FilterMode::Nearest, wgpu::AddressMode::Repeat)),
        ..TileData::mesh(index, vertices, mesh.indices, bytemuck::bytes_of(&parameters(scene, permutation)))
    }
}

/// Draws one tile.
pub fn render(gpu: &Gpu, scene: &LitScene, permutation: fx::Permutation) -> Result<Image, GpuError> {
    let data = tile_data(scene, permutation);
    let targets = opaque_target();
    let (layouts, pipeline) = gpu.scoped("creating an AlphaTestEffect pipeline", |device| {
        let layouts = fx::Layouts::new(device, permutation);
        let options = fx::PipelineOptions {
            label: Some("AlphaTestEffect tile"),
            primitive: data.primitive(),
            ..fx::PipelineOptions::new(&targets, data.depth_stencil())
        };
        let pipeline = fx::create_render_pipeline_with(device, &layouts, &options);
        (layouts, pipeline)
    })?;
    let texture = data.view(gpu, "texture")?;
    let sampler = data.sampler(gpu);
    let (groups, gpu_mesh) = gpu.scoped("creating AlphaTestEffect resources", |device| {
        let buffer = uniform_buffer(device, "AlphaTestEffect Parameters", &data.parameters);
        let groups = fx::BindGroups::new(
            device,
            &layouts,
            &fx::Resources { parameters: &buffer, texture: &texture, sampler: &sampler },
        );
        (groups, crate::mesh::GpuMesh::new(device, "square", &data.vertices, &data.indices))
    })?;
    let groups = groups.map_err(missing)?;
    draw_tile(gpu, "drawing an AlphaTestEffect tile", clear_color(), |pass| {
        pass.set_pipeline(&pipeline);
        groups.set(pass);
        gpu_mesh.draw(pass);
    })
}

/// Every tile's data, in order.
pub fn tiles_data() -> Vec<TileData> {
    let scene = scene();
    TILES.iter().map(|&(_, p)| tile_data(&scene, p)).collect()
}

/// Every tile of the family.
pub fn tiles(gpu: &Gpu) -> super::RenderedTiles {
    let scene = scene();
    TILES.iter().map(|&(label, p)| (label.to_owned(), render(gpu, &scene, p))).collect()
}
