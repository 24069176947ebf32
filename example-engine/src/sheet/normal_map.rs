//! NormalMapEffect tiles: a torus with a bumpy two-channel normal map and a striped specular map,
//! the eight permutations without biased normals.

use crate::effects::normal_map_effect as fx;
use crate::gpu::{Gpu, GpuError};
use crate::lighting::{columns, columns3, pad3};
use crate::math::{normalize, Mat4};
use crate::mesh::{GpuMesh, Mesh};
use crate::target::Image;
use crate::texture::TextureImage;

use super::common::{
    clear_color, draw_tile, missing, opaque_target, uniform_buffer, LitMesh, LitScene, TileData, TileTexture,
};

pub const FAMILY: &str = "NormalMapEffect";

const fn perm(vertex_color: bool, specular_map: bool, fog: bool) -> fx::Permutation {
    fx::Permutation { vertex_color, specular_map, fog, biased_normals: false }
}

/// The tiles: label and permutation.
pub const TILES: [(&str, fx::Permutation); 8] = [
    ("specular map", perm(false, true, false)),
    ("specular map + fog", perm(false, true, true)),
    ("no specular map", perm(false, false, false)),
    ("no specular map + fog", perm(false, false, true)),
    ("vertex colour + specular map", perm(true, true, false)),
    ("vertex colour + specular map + fog", perm(true, true, true)),
    ("vertex colour, no specular map", perm(true, false, false)),
    ("vertex colour, no specular map + fog", perm(true, false, true)),
];

pub fn scene() -> LitScene {
    let mut scene = LitScene::new(Mat4::rotation_x(0.95).mul(&Mat4::rotation_y(0.5)));
    scene.material.specular = [0.9, 0.9, 0.9];
    scene.material.specular_power = 24.0;
    scene
}

pub fn mesh() -> LitMesh {
    LitMesh::colored(&Mesh::torus(1.0, 0.42, 64, 32, [6.0, 2.0]))
}

/// The diffuse texture: warm stone.
pub fn texture() -> TextureImage {
    TextureImage::checker(4, 16, [205, 170, 130, 255], [180, 150, 120, 255])
}

/// The normal map: a dome-shaped bump in each of 4 x 4 cells; x and y of the tangent-space normal
/// in red and green (`* 0.5 + 0.5`), z reconstructed by the shader.
pub fn normal_texture() -> TextureImage {
    const SIZE: u32 = 64;
    const CELL: u32 = 16;
    TextureImage::from_fn(SIZE, SIZE, |x, y| {
        let dx = ((x % CELL) as f32 + 0.5) / CELL as f32 * 2.0 - 1.0;
        let dy = ((y % CELL) as f32 + 0.5) / CELL as f32 * 2.0 - 1.0;
        let r2 = dx * dx + dy * dy;
        let n = if r2 < 0.8 { normalize([dx * 1.2, -dy * 1.2, 1.0]) } else { [0.0, 0.0, 1.0] };
        [((n[0] * 0.5 + 0.5) * 255.0).round() as u8, ((n[1] * 0.5 + 0.5) * 255.0).round() as u8, 255, 255]
    })
}

/// The specular map: bright and dull stripes.
pub fn specular_texture() -> TextureImage {
    TextureImage::from_fn(32, 32, |x, _| if (x / 8) % 2 == 0 { [255, 255, 255, 255] } else { [30, 30, 30, 255] })
}

/// NormalMapEffect's constants, as DirectXTK's `NormalMapEffect` class computes them.
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

/// What one tile draws: the torus, the constants, the diffuse, normal and specular maps.
pub fn tile_data(scene: &LitScene, permutation: fx::Permutation) -> TileData {
    let mesh = mesh();
    let vertices = if permutation.vertex_color {
        mesh.vertex_bytes(|v| fx::VertexPositionNormalTexcoordColor {
            position: v.position,
            normal: v.normal,
            texcoord: v.uv,
            color: v.color,
        })
    } else {
        mesh.vertex_bytes(|v| fx::VertexPositionNormalTexcoord {
            position: v.position,
            normal: v.normal,
            texcoord: v.uv,
        })
    };
    let index = permutation.index().expect("the sheet's permutations exist");
    TileData {
        textures: vec![
            ("texture", TileTexture::Rgba8(texture())),
            ("normal_texture", TileTexture::Rgba8(normal_texture())),
            ("specular_texture", TileTexture::Rgba8(specular_texture())),
        ],
        sampler: Some((wgpu::FilterMode::Linear, wgpu::AddressMode::Repeat)),
        ..TileData::mesh(index, vertices, mesh.indices, bytemuck::bytes_of(&parameters(scene, permutation)))
    }
}

/// Draws one tile.
pub fn render(gpu: &Gpu, scene: &LitScene, permutation: fx::Permutation) -> Result<Image, GpuError> {
    let data = tile_data(scene, permutation);
    let targets = opaque_target();
    let (layouts, pipeline) = gpu.scoped("creating a NormalMapEffect pipeline", |device| {
        let layouts = fx::Layouts::new(device, permutation);
        let options = fx::PipelineOptions {
            label: Some("NormalMapEffect tile"),
            primitive: data.primitive(),
            ..fx::PipelineOptions::new(&targets, data.depth_stencil())
        };
        let pipeline = fx::create_render_pipeline_with(device, &layouts, &options);
        (layouts, pipeline)
    })?;
    let texture = data.view(gpu, "texture")?;
    let normals = data.view(gpu, "normal_texture")?;
    let specular = data.view(gpu, "specular_texture")?;
    let sampler = data.sampler(gpu);
    let (groups, gpu_mesh) = gpu.scoped("creating NormalMapEffect resources", |device| {
        let buffer = uniform_buffer(device, "NormalMapEffect Parameters", &data.parameters);
        let groups = fx::BindGroups::new(
            device,
            &layouts,
            &fx::Resources {
                parameters: &buffer,
                texture: &texture,
                specular_texture: Some(&specular),
                normal_texture: &normals,
                sampler: &sampler,
            },
        );
        (groups, GpuMesh::new(device, "torus", &data.vertices, &data.indices))
    })?;
    let groups = groups.map_err(missing)?;
    draw_tile(gpu, "drawing a NormalMapEffect tile", clear_color(), |pass| {
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
