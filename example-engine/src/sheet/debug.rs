//! DebugEffect tiles: a torus shown with hemispherical ambient light and as world-space normals,
//! tangents and bitangents, with vertex colour and with biased normals (eight of the 16
//! permutations). Vertex colour only changes the hemispherical-ambient shader's colour (the RGB
//! shaders take only its alpha); biased-normal tiles get normals stored as `n * 0.5 + 0.5` and
//! should look like their unbiased twins.

use crate::effects::debug_effect as fx;
use crate::gpu::{Gpu, GpuError};
use crate::lighting::{columns, columns3};
use crate::math::Mat4;
use crate::mesh::{GpuMesh, Mesh};
use crate::target::Image;

use super::common::{
    clear_color, draw_tile, missing, opaque_target, uniform_buffer, LitMesh, LitScene, LitVertex, TileData,
};

pub const FAMILY: &str = "DebugEffect";

const fn perm(mode: fx::Mode, vertex_color: bool, biased_normals: bool) -> fx::Permutation {
    fx::Permutation { mode, vertex_color, biased_normals }
}

/// The tiles: label and permutation.
pub const TILES: [(&str, fx::Permutation); 8] = [
    ("hemispherical ambient", perm(fx::Mode::HemiAmbient, false, false)),
    ("normals", perm(fx::Mode::Normals, false, false)),
    ("tangents", perm(fx::Mode::Tangents, false, false)),
    ("bitangents", perm(fx::Mode::Bitangents, false, false)),
    ("hemispherical ambient + vertex colour", perm(fx::Mode::HemiAmbient, true, false)),
    ("hemispherical ambient, biased normals", perm(fx::Mode::HemiAmbient, false, true)),
    ("normals, biased normals", perm(fx::Mode::Normals, false, true)),
    ("bitangents + vertex colour, biased normals", perm(fx::Mode::Bitangents, true, true)),
];

/// Hemispherical ambient light: the colour facing up and facing down.
pub const AMBIENT_UP: [f32; 3] = [0.95, 0.85, 0.6];
pub const AMBIENT_DOWN: [f32; 3] = [0.1, 0.14, 0.35];

pub fn scene() -> LitScene {
    LitScene::new(Mat4::rotation_x(0.95).mul(&Mat4::rotation_y(0.5)))
}

pub fn mesh() -> LitMesh {
    LitMesh::colored(&Mesh::torus(1.0, 0.42, 48, 24, [4.0, 1.0]))
}

/// DebugEffect's constants, as DirectXTK's `DebugEffect` class computes them.
pub fn parameters(scene: &LitScene) -> fx::Parameters {
    fx::Parameters {
        ambient_down: AMBIENT_DOWN,
        alpha: 1.0,
        ambient_range: std::array::from_fn(|c| AMBIENT_UP[c] - AMBIENT_DOWN[c]),
        world: columns(&scene.world),
        world_inverse_transpose: columns3(&scene.world_inverse_transpose()),
        world_view_proj: columns(&scene.world_view_proj()),
        ..Default::default()
    }
}

/// What one tile draws: the torus (normals biased when the permutation says so) and the constants.
pub fn tile_data(scene: &LitScene, permutation: fx::Permutation) -> TileData {
    let mesh = mesh();
    let normal = |v: &LitVertex| {
        if permutation.biased_normals {
            v.normal.map(|c| c * 0.5 + 0.5)
        } else {
            v.normal
        }
    };
    let vertices = if permutation.vertex_color {
        mesh.vertex_bytes(|v| fx::VertexPositionNormalTexcoordColor {
            position: v.position,
            normal: normal(v),
            texcoord: v.uv,
            color: v.color,
        })
    } else {
        mesh.vertex_bytes(|v| fx::VertexPositionNormalTexcoord {
            position: v.position,
            normal: normal(v),
            texcoord: v.uv,
        })
    };
    let index = permutation.index().expect("the sheet's permutations exist");
    TileData::mesh(index, vertices, mesh.indices, bytemuck::bytes_of(&parameters(scene)))
}

/// Draws one tile.
pub fn render(gpu: &Gpu, scene: &LitScene, permutation: fx::Permutation) -> Result<Image, GpuError> {
    let data = tile_data(scene, permutation);
    let targets = opaque_target();
    let (layouts, pipeline) = gpu.scoped("creating a DebugEffect pipeline", |device| {
        let layouts = fx::Layouts::new(device, permutation);
        let options = fx::PipelineOptions {
            label: Some("DebugEffect tile"),
            primitive: data.primitive(),
            ..fx::PipelineOptions::new(&targets, data.depth_stencil())
        };
        let pipeline = fx::create_render_pipeline_with(device, &layouts, &options);
        (layouts, pipeline)
    })?;
    let (groups, gpu_mesh) = gpu.scoped("creating DebugEffect resources", |device| {
        let buffer = uniform_buffer(device, "DebugEffect Parameters", &data.parameters);
        let groups = fx::BindGroups::new(device, &layouts, &fx::Resources { parameters: &buffer });
        (groups, GpuMesh::new(device, "torus", &data.vertices, &data.indices))
    })?;
    let groups = groups.map_err(missing)?;
    draw_tile(gpu, "drawing a DebugEffect tile", clear_color(), |pass| {
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
