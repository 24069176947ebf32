//! DualTextureEffect tiles: a tilted square (checker texture times a coarse light map), all four
//! permutations.

use crate::effects::dual_texture_effect as fx;
use crate::gpu::{Gpu, GpuError};
use crate::lighting::columns;
use crate::math::Mat4;
use crate::mesh::Mesh;
use crate::target::Image;
use crate::texture::{sampler, TextureImage};

use super::common::{
    clear_color, depth_test, draw_tile, mesh_primitive, missing, opaque_target, uniform_buffer, Camera, LitMesh,
    LitScene,
};

pub const FAMILY: &str = "DualTextureEffect";

/// The tiles: label and permutation.
pub const TILES: [(&str, fx::Permutation); 4] = [
    ("no fog", fx::Permutation { fog: false, vertex_color: false }),
    ("fog", fx::Permutation { fog: true, vertex_color: false }),
    ("vertex colour", fx::Permutation { fog: false, vertex_color: true }),
    ("vertex colour + fog", fx::Permutation { fog: true, vertex_color: true }),
];

/// How often the checker repeats across the square (the light map spans it once).
pub const CHECKER_REPEAT: f32 = 3.0;

/// The scene (only the camera, world matrix, diffuse colour and fog matter to this effect).
pub fn scene() -> LitScene {
    let mut scene = LitScene::new(Mat4::rotation_y(0.35).mul(&Mat4::translation([0.0, -0.6, 0.0])));
    scene.camera = Camera { eye: [0.0, 2.2, 2.9], look_at: [0.0, -0.5, -0.3], fov_y: 0.85 };
    scene.material.diffuse = [0.9, 0.95, 1.0, 1.0];
    scene.fog.start = 2.8;
    scene.fog.end = 5.5;
    scene
}

/// A 3 x 3 square in the xz plane; `uv` runs 0..CHECKER_REPEAT, the light map's coordinates are
/// `uv / CHECKER_REPEAT`.
pub fn mesh() -> LitMesh {
    LitMesh::colored(&Mesh::plane([3.0, 3.0], [CHECKER_REPEAT, CHECKER_REPEAT], 12))
}

/// The first texture: a green and stone checker.
pub fn texture() -> TextureImage {
    TextureImage::checker(4, 8, [96, 140, 90, 255], [200, 190, 160, 255])
}

/// The second texture: an 8 x 8 light map, 0.5 (neutral after the shader's `* 2`) in the open,
/// darker under a soft blob and brighter along one edge.
pub fn light_map() -> TextureImage {
    TextureImage::from_fn(8, 8, |x, y| {
        let (u, v) = ((x as f32 + 0.5) / 8.0 - 0.55, (y as f32 + 0.5) / 8.0 - 0.45);
        let shadow = 1.0 - 0.7 * (-(u * u + v * v) / 0.05).exp();
        let glow = 0.3 * (1.0 - (x as f32 + 0.5) / 8.0);
        let value = ((0.5 * shadow + glow).min(1.0) * 255.0).round() as u8;
        [value, value, (value as f32 * 0.9) as u8, 255]
    })
}

/// DualTextureEffect's constants, as DirectXTK's `DualTextureEffect` class computes them.
pub fn parameters(scene: &LitScene, permutation: fx::Permutation) -> fx::Parameters {
    fx::Parameters {
        diffuse_color: scene.material.diffuse,
        fog_color: scene.fog.color,
        fog_vector: scene.fog_vector(permutation.fog),
        world_view_proj: columns(&scene.world_view_proj()),
        ..Default::default()
    }
}

/// Draws one tile.
pub fn render(gpu: &Gpu, scene: &LitScene, permutation: fx::Permutation) -> Result<Image, GpuError> {
    render_with(gpu, permutation, &parameters(scene, permutation))
}

/// Draws one tile with the constants `parameters` (normally `parameters(&scene(), permutation)`;
/// tests pass altered ones).
pub fn render_with(gpu: &Gpu, permutation: fx::Permutation, parameters: &fx::Parameters) -> Result<Image, GpuError> {
    let mesh = mesh();
    let targets = opaque_target();
    let (layouts, pipeline) = gpu.scoped("creating a DualTextureEffect pipeline", |device| {
        let layouts = fx::Layouts::new(device, permutation);
        let options = fx::PipelineOptions {
            label: Some("DualTextureEffect tile"),
            primitive: mesh_primitive(),
            ..fx::PipelineOptions::new(&targets, depth_test())
        };
        let pipeline = fx::create_render_pipeline_with(device, &layouts, &options);
        (layouts, pipeline)
    })?;
    let texture = texture().upload(gpu, "DualTextureEffect texture").create_view(&Default::default());
    let light_map = light_map().upload(gpu, "DualTextureEffect light map").create_view(&Default::default());
    let sampler = sampler(gpu, wgpu::FilterMode::Nearest);
    let (groups, gpu_mesh) = gpu.scoped("creating DualTextureEffect resources", |device| {
        let buffer = uniform_buffer(device, "DualTextureEffect Parameters", bytemuck::bytes_of(parameters));
        let groups = fx::BindGroups::new(
            device,
            &layouts,
            &fx::Resources {
                parameters: &buffer,
                texture: &texture,
                texture2: &light_map,
                sampler: &sampler,
                sampler2: &sampler,
            },
        );
        let uv2 = |v: &super::common::LitVertex| v.uv.map(|c| c / CHECKER_REPEAT);
        let gpu_mesh = if permutation.vertex_color {
            mesh.upload(device, "square", |v| fx::VertexPositionTexcoordTexcoord1Color {
                position: v.position,
                texcoord: v.uv,
                texcoord1: uv2(v),
                color: v.color,
            })
        } else {
            mesh.upload(device, "square", |v| fx::VertexPositionTexcoordTexcoord1 {
                position: v.position,
                texcoord: v.uv,
                texcoord1: uv2(v),
            })
        };
        (groups, gpu_mesh)
    })?;
    let groups = groups.map_err(missing)?;
    draw_tile(gpu, "drawing a DualTextureEffect tile", clear_color(), |pass| {
        pass.set_pipeline(&pipeline);
        groups.set(pass);
        gpu_mesh.draw(pass);
    })
}

/// Every tile of the family.
pub fn tiles(gpu: &Gpu) -> super::RenderedTiles {
    let scene = scene();
    TILES.iter().map(|&(label, p)| (label.to_owned(), render(gpu, &scene, p))).collect()
}
