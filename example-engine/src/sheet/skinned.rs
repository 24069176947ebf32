//! SkinnedEffect tiles: a tube bent by a chain of four bones (stored in bone slots 3, 17, 42 and 71
//! of the 72), weighted by one, two or four bones per vertex, eight of the 36 permutations.

use crate::effects::skinned_effect as fx;
use crate::gpu::{Gpu, GpuError};
use crate::lighting::{columns, columns3, pad3};
use crate::math::Mat4;
use crate::mesh::Mesh;
use crate::target::Image;
use crate::texture::TextureImage;

use super::common::{
    clear_color, columns4x3, draw_tile, missing, opaque_target, uniform_buffer, LitScene, TileData, TileTexture,
};

pub const FAMILY: &str = "SkinnedEffect";

const fn perm(lighting: fx::Lighting, weights: fx::Weights, fog: bool) -> fx::Permutation {
    fx::Permutation { lighting, weights, fog, biased_normals: false }
}

/// The tiles: label and permutation.
pub const TILES: [(&str, fx::Permutation); 8] = [
    ("vertex lighting, 1 bone", perm(fx::Lighting::Vertex, fx::Weights::One, false)),
    ("vertex lighting, 2 bones", perm(fx::Lighting::Vertex, fx::Weights::Two, false)),
    ("vertex lighting, 4 bones", perm(fx::Lighting::Vertex, fx::Weights::Four, false)),
    ("vertex lighting, 4 bones + fog", perm(fx::Lighting::Vertex, fx::Weights::Four, true)),
    ("one light, 4 bones", perm(fx::Lighting::OneLight, fx::Weights::Four, false)),
    ("pixel lighting, 1 bone", perm(fx::Lighting::Pixel, fx::Weights::One, false)),
    ("pixel lighting, 2 bones", perm(fx::Lighting::Pixel, fx::Weights::Two, false)),
    ("pixel lighting, 4 bones + fog", perm(fx::Lighting::Pixel, fx::Weights::Four, true)),
];

/// Which of the 72 `Bones` the four bones of the chain occupy.
pub const BONE_SLOTS: [u8; 4] = [3, 17, 42, 71];
/// Where along the tube (y) each bone's influence peaks.
pub const BONE_CENTRES: [f32; 4] = [-0.9, -0.3, 0.3, 0.9];
/// Each joint (between consecutive bones) bends by this many radians about z.
pub const BEND: f32 = 0.6;

/// One vertex of the skinned tube.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkinnedVertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub uv: [f32; 2],
    /// Bone slots, most influential first.
    pub indices: [u8; 4],
    /// Their weights as stored (UNORM8: weight = w / 255), summing to 255.
    pub weights: [u8; 4],
}

/// The skinned tube.
#[derive(Clone, Debug, Default)]
pub struct SkinnedMesh {
    pub vertices: Vec<SkinnedVertex>,
    pub indices: Vec<u32>,
}

pub fn scene() -> LitScene {
    let mut scene = LitScene::new(Mat4::rotation_y(-0.35).mul(&Mat4::translation([0.55, -0.1, 0.0])));
    scene.camera.eye = [0.0, 0.7, 3.1];
    scene.fog.start = 2.6;
    scene.fog.end = 4.0;
    scene
}

/// Number of bone influences the vertex shader reads for `weights`.
pub fn influences(weights: fx::Weights) -> usize {
    match weights {
        fx::Weights::One => 1,
        fx::Weights::Two => 2,
        fx::Weights::Four => 4,
    }
}

/// The tube (radius 0.36, y from -1.2 to 1.2), its vertices weighted by their `influences`
/// nearest bones (Gaussian falloff along y, renormalised to the kept bones).
pub fn mesh(weights: fx::Weights) -> SkinnedMesh {
    let keep = influences(weights);
    let tube = Mesh::tube(0.36, -1.2, 1.2, 32, 24, [8.0, 6.0]);
    let vertices = tube
        .vertices
        .iter()
        .map(|v| {
            let raw: [f32; 4] = BONE_CENTRES.map(|c| (-(v.position[1] - c).powi(2) / (2.0 * 0.3f32.powi(2))).exp());
            let mut order = [0usize, 1, 2, 3];
            order.sort_by(|&a, &b| raw[b].total_cmp(&raw[a]));
            let total: f32 = order[..keep].iter().map(|&k| raw[k]).sum();
            // Quantised down, except the first (largest), which takes the rest: they sum to 255.
            let mut stored = [0u8; 4];
            for i in 1..keep {
                stored[i] = (raw[order[i]] / total * 255.0) as u8;
            }
            stored[0] = 255 - stored[1..].iter().sum::<u8>();
            SkinnedVertex {
                position: v.position,
                normal: v.normal,
                uv: v.uv,
                indices: order.map(|k| BONE_SLOTS[k]),
                weights: stored,
            }
        })
        .collect();
    SkinnedMesh { vertices, indices: tube.indices }
}

/// The four bones' transforms (row-vector convention, rest pose to bent pose): each joint, at the
/// midpoint between two bones, bends the rest of the chain about z.
pub fn bones() -> [Mat4; 4] {
    let about =
        |y: f32| Mat4::translation([0.0, -y, 0.0]).mul(&Mat4::rotation_z(BEND)).mul(&Mat4::translation([0.0, y, 0.0]));
    let mut bones = [Mat4::IDENTITY; 4];
    for k in 1..4 {
        let joint = 0.5 * (BONE_CENTRES[k - 1] + BONE_CENTRES[k]);
        bones[k] = about(joint).mul(&bones[k - 1]);
    }
    bones
}

/// SkinnedEffect's constants, as DirectXTK's `SkinnedEffect` class computes them (unused bones are
/// identity).
pub fn parameters(scene: &LitScene, permutation: fx::Permutation) -> fx::Parameters {
    let m = &scene.material;
    let mut registers = [columns4x3(&Mat4::IDENTITY); 72];
    for (slot, bone) in BONE_SLOTS.iter().zip(bones()) {
        registers[usize::from(*slot)] = columns4x3(&bone);
    }
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
        bones: registers,
        ..Default::default()
    }
}

/// The diffuse texture (nearest filtering, repeating).
pub fn texture() -> TextureImage {
    TextureImage::checker(2, 8, [90, 170, 230, 255], [240, 240, 225, 255])
}

/// What one tile draws from `mesh` and constants `parameters` (normally `mesh(permutation.weights)`
/// and `parameters(&scene(), permutation)`; tests pass altered ones): the tube and the texture.
pub fn tile_data_with(permutation: fx::Permutation, mesh: &SkinnedMesh, parameters: &fx::Parameters) -> TileData {
    let vertices: Vec<fx::VertexPositionNormalTexcoordBlendindicesBlendweight> = mesh
        .vertices
        .iter()
        .map(|v| fx::VertexPositionNormalTexcoordBlendindicesBlendweight {
            position: v.position,
            normal: v.normal,
            texcoord: v.uv,
            blendindices: v.indices,
            blendweight: v.weights,
        })
        .collect();
    let index = permutation.index().expect("the sheet's permutations exist");
    TileData {
        textures: vec![("texture", TileTexture::Rgba8(texture()))],
        sampler: Some((wgpu::FilterMode::Nearest, wgpu::AddressMode::Repeat)),
        ..TileData::mesh(
            index,
            bytemuck::cast_slice(&vertices).to_vec(),
            mesh.indices.clone(),
            bytemuck::bytes_of(parameters),
        )
    }
}

/// What one tile draws.
pub fn tile_data(scene: &LitScene, permutation: fx::Permutation) -> TileData {
    tile_data_with(permutation, &mesh(permutation.weights), &parameters(scene, permutation))
}

/// Draws one tile from `mesh` and constants `parameters` (see [`tile_data_with`]).
pub fn render_with(
    gpu: &Gpu,
    permutation: fx::Permutation,
    mesh: &SkinnedMesh,
    parameters: &fx::Parameters,
) -> Result<Image, GpuError> {
    let data = tile_data_with(permutation, mesh, parameters);
    let targets = opaque_target();
    let (layouts, pipeline) = gpu.scoped("creating a SkinnedEffect pipeline", |device| {
        let layouts = fx::Layouts::new(device, permutation);
        let options = fx::PipelineOptions {
            label: Some("SkinnedEffect tile"),
            primitive: data.primitive(),
            ..fx::PipelineOptions::new(&targets, data.depth_stencil())
        };
        let pipeline = fx::create_render_pipeline_with(device, &layouts, &options);
        (layouts, pipeline)
    })?;
    let texture = data.view(gpu, "texture")?;
    let sampler = data.sampler(gpu);
    let (groups, gpu_mesh) = gpu.scoped("creating SkinnedEffect resources", |device| {
        let buffer = uniform_buffer(device, "SkinnedEffect Parameters", &data.parameters);
        let groups = fx::BindGroups::new(
            device,
            &layouts,
            &fx::Resources { parameters: &buffer, texture: &texture, sampler: &sampler },
        );
        (groups, crate::mesh::GpuMesh::new(device, "tube", &data.vertices, &data.indices))
    })?;
    let groups = groups.map_err(missing)?;
    draw_tile(gpu, "drawing a SkinnedEffect tile", clear_color(), |pass| {
        pass.set_pipeline(&pipeline);
        groups.set(pass);
        gpu_mesh.draw(pass);
    })
}

/// Draws one tile.
pub fn render(gpu: &Gpu, scene: &LitScene, permutation: fx::Permutation) -> Result<Image, GpuError> {
    render_with(gpu, permutation, &mesh(permutation.weights), &parameters(scene, permutation))
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
