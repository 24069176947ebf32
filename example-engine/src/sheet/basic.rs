//! BasicEffect tiles: a torus (per-vertex rainbow colours, checker texture) under DirectXTK's
//! default three-light rig, eight of the 56 permutations.

use crate::effects::basic_effect as fx;
use crate::gpu::{Gpu, GpuError};
use crate::lighting::{columns, columns3, pad3};
use crate::math::Mat4;
use crate::mesh::Mesh;
use crate::target::Image;
use crate::texture::{sampler, TextureImage};

use super::common::{
    clear_color, depth_test, draw_tile, mesh_primitive, missing, opaque_target, uniform_buffer, LitMesh, LitScene,
};

pub const FAMILY: &str = "BasicEffect";

const fn perm(fog: bool, vertex_color: bool, texture: bool, lighting: fx::Lighting) -> fx::Permutation {
    fx::Permutation { fog, vertex_color, texture, lighting, biased_normals: false }
}

/// The tiles: label and permutation.
pub const TILES: [(&str, fx::Permutation); 8] = [
    ("no lighting", perm(false, false, false, fx::Lighting::None)),
    ("no lighting + fog", perm(true, false, false, fx::Lighting::None)),
    ("vertex colour", perm(false, true, false, fx::Lighting::None)),
    ("texture + fog", perm(true, false, true, fx::Lighting::None)),
    ("vertex lighting", perm(false, false, false, fx::Lighting::Vertex)),
    ("one light + vertex colour", perm(false, true, false, fx::Lighting::OneLight)),
    ("pixel lighting", perm(false, false, false, fx::Lighting::Pixel)),
    ("pixel lighting + texture + fog", perm(true, false, true, fx::Lighting::Pixel)),
];

/// The scene of every BasicEffect tile.
pub fn scene() -> LitScene {
    LitScene::new(Mat4::rotation_x(0.95).mul(&Mat4::rotation_y(0.5)))
}

/// The torus, with rainbow vertex colours.
pub fn mesh() -> LitMesh {
    LitMesh::colored(&Mesh::torus(1.0, 0.42, 48, 24, [8.0, 2.0]))
}

/// The diffuse texture (sampled with nearest filtering, repeating).
pub fn texture() -> TextureImage {
    TextureImage::checker(8, 16, [235, 140, 40, 255], [250, 232, 196, 255])
}

/// BasicEffect's constants, computed as DirectXTK's `BasicEffect` class does.
pub fn parameters(scene: &LitScene, permutation: fx::Permutation) -> fx::Parameters {
    let m = &scene.material;
    fx::Parameters {
        diffuse_color: m.diffuse,
        emissive_color: m.emissive,
        specular_color: m.specular,
        specular_power: m.specular_power,
        light_direction: scene.lights.map(|l| pad3(l.direction)),
        light_diffuse_color: scene.lights.map(|l| pad3(l.diffuse)),
        light_specular_color: scene.lights.map(|l| pad3(l.specular)),
        eye_position: scene.camera.eye,
        fog_color: scene.fog.color,
        fog_vector: scene.fog_vector(permutation.fog),
        world: columns(&scene.world),
        world_inverse_transpose: columns3(&scene.world_inverse_transpose()),
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
    let (layouts, pipeline) = gpu.scoped("creating a BasicEffect pipeline", |device| {
        let layouts = fx::Layouts::new(device, permutation);
        let options = fx::PipelineOptions {
            label: Some("BasicEffect tile"),
            primitive: mesh_primitive(),
            ..fx::PipelineOptions::new(&targets, depth_test())
        };
        let pipeline = fx::create_render_pipeline_with(device, &layouts, &options);
        (layouts, pipeline)
    })?;
    let texture = texture().upload(gpu, "BasicEffect texture").create_view(&Default::default());
    let sampler = sampler(gpu, wgpu::FilterMode::Nearest);
    let (groups, gpu_mesh) = gpu.scoped("creating BasicEffect resources", |device| {
        let buffer = uniform_buffer(device, "BasicEffect Parameters", bytemuck::bytes_of(parameters));
        let groups = fx::BindGroups::new(
            device,
            &layouts,
            &fx::Resources { parameters: &buffer, texture: Some(&texture), sampler: Some(&sampler) },
        );
        let lit = permutation.lighting != fx::Lighting::None;
        let gpu_mesh =
            match (lit, permutation.texture, permutation.vertex_color) {
                (false, false, false) => mesh.upload(device, "torus", |v| fx::VertexPosition { position: v.position }),
                (false, false, true) => {
                    mesh.upload(device, "torus", |v| fx::VertexPositionColor { position: v.position, color: v.color })
                }
                (false, true, false) => mesh
                    .upload(device, "torus", |v| fx::VertexPositionTexcoord { position: v.position, texcoord: v.uv }),
                (false, true, true) => mesh.upload(device, "torus", |v| fx::VertexPositionTexcoordColor {
                    position: v.position,
                    texcoord: v.uv,
                    color: v.color,
                }),
                (true, false, false) => mesh
                    .upload(device, "torus", |v| fx::VertexPositionNormal { position: v.position, normal: v.normal }),
                (true, false, true) => mesh.upload(device, "torus", |v| fx::VertexPositionNormalColor {
                    position: v.position,
                    normal: v.normal,
                    color: v.color,
                }),
                (true, true, false) => mesh.upload(device, "torus", |v| fx::VertexPositionNormalTexcoord {
                    position: v.position,
                    normal: v.normal,
                    texcoord: v.uv,
                }),
                (true, true, true) => mesh.upload(device, "torus", |v| fx::VertexPositionNormalTexcoordColor {
                    position: v.position,
                    normal: v.normal,
                    texcoord: v.uv,
                    color: v.color,
                }),
            };
        (groups, gpu_mesh)
    })?;
    let groups = groups.map_err(missing)?;
    draw_tile(gpu, "drawing a BasicEffect tile", clear_color(), |pass| {
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
