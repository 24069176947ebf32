//! EnvironmentMapEffect tiles: a sphere reflecting a procedural sky (sun, horizon bands, checkered
//! ground) through a cube map, a sphere map and a dual-parabola map, eight of the 56 permutations.

use crate::effects::environment_map_effect as fx;
use crate::gpu::{Gpu, GpuError};
use crate::lighting::{columns, columns3, pad3};
use crate::math::{dot, normalize, Mat4};
use crate::mesh::Mesh;
use crate::target::Image;
use crate::texture::{sampler, sampler_with, upload_layers, TextureImage};

use super::common::{
    clear_color, depth_test, draw_tile, mesh_primitive, missing, opaque_target, uniform_buffer, LitMesh, LitScene,
};

pub const FAMILY: &str = "EnvironmentMapEffect";

const fn perm(
    mapping: fx::Mapping,
    lighting: fx::Lighting,
    fresnel: bool,
    specular: bool,
    fog: bool,
) -> fx::Permutation {
    fx::Permutation { mapping, lighting, fresnel, specular, fog, biased_normals: false }
}

/// The tiles: label and permutation.
pub const TILES: [(&str, fx::Permutation); 8] = [
    ("cube map, vertex lighting", perm(fx::Mapping::Cube, fx::Lighting::Vertex, false, false, false)),
    ("cube map, vertex lighting + fog", perm(fx::Mapping::Cube, fx::Lighting::Vertex, false, false, true)),
    ("cube map, fresnel", perm(fx::Mapping::Cube, fx::Lighting::Vertex, true, false, false)),
    ("cube map, env-map specular", perm(fx::Mapping::Cube, fx::Lighting::Vertex, false, true, false)),
    ("cube map, one light", perm(fx::Mapping::Cube, fx::Lighting::OneLight, false, false, false)),
    ("cube map, pixel lighting", perm(fx::Mapping::Cube, fx::Lighting::Pixel, false, false, false)),
    ("sphere map, pixel lighting + fresnel", perm(fx::Mapping::Sphere, fx::Lighting::Pixel, true, false, false)),
    ("dual parabola, pixel lighting + fog", perm(fx::Mapping::DualParabola, fx::Lighting::Pixel, false, false, true)),
];

/// How much of the environment shows (`EnvironmentMapAmount`), the Fresnel exponent, and the
/// environment-map specular colour.
pub const AMOUNT: f32 = 0.75;
pub const FRESNEL_FACTOR: f32 = 0.5;
pub const ENV_SPECULAR: [f32; 3] = [0.9, 0.75, 0.4];

pub fn scene() -> LitScene {
    let mut scene = LitScene::new(Mat4::rotation_y(0.4));
    scene.material.diffuse = [0.85, 0.85, 0.9, 1.0];
    scene.fog.start = 2.6;
    scene.fog.end = 4.6;
    scene
}

pub fn mesh() -> LitMesh {
    LitMesh::colored(&Mesh::sphere(1.25, 48, 24, [6.0, 3.0]))
}

/// The diffuse texture: a pale tiled pattern.
pub fn texture() -> TextureImage {
    TextureImage::checker(6, 8, [255, 255, 255, 255], [200, 210, 235, 255])
}

/// The environment seen in world direction `d`: RGB, and in alpha the sun's intensity (which the
/// env-map specular term adds).
pub fn environment(d: [f32; 3]) -> [f32; 4] {
    let d = normalize(d);
    let sun = dot(d, normalize([0.5, 0.55, 0.65])).max(0.0).powi(48);
    let mut rgb = if d[1] >= 0.0 {
        let t = d[1].sqrt();
        let band = if (d[2].atan2(d[0]) * 4.0).sin() > 0.0 { 1.0 } else { 0.8 };
        [0.95 - 0.75 * t, 0.7 - 0.3 * t, (0.5 + 0.45 * t) * band]
    } else {
        let (u, v) = (d[0] / -d[1], d[2] / -d[1]);
        let cell = ((u * 2.0).floor() + (v * 2.0).floor()) as i32;
        if cell.rem_euclid(2) == 0 {
            [0.35, 0.22, 0.12]
        } else {
            [0.12, 0.3, 0.15]
        }
    };
    for c in &mut rgb {
        *c = (*c + sun).min(1.0);
    }
    [rgb[0], rgb[1], rgb[2], (0.1 + sun).min(1.0)]
}

fn to_texel(c: [f32; 4]) -> [u8; 4] {
    c.map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// The six faces of the cube map (+X, -X, +Y, -Y, +Z, -Z; D3D's face orientation).
pub fn cube_faces(size: u32) -> Vec<TextureImage> {
    (0..6)
        .map(|face| {
            TextureImage::from_fn(size, size, |x, y| {
                let u = 2.0 * (x as f32 + 0.5) / size as f32 - 1.0;
                let v = 2.0 * (y as f32 + 0.5) / size as f32 - 1.0;
                let d = match face {
                    0 => [1.0, -v, -u],
                    1 => [-1.0, -v, u],
                    2 => [u, 1.0, v],
                    3 => [u, -1.0, -v],
                    4 => [u, -v, 1.0],
                    _ => [-u, -v, -1.0],
                };
                to_texel(environment(d))
            })
        })
        .collect()
}

/// The sphere map EnvironmentMapEffect's sphere-mapping shaders index with
/// `r.xy / (2 * sqrt(r.x^2 + r.y^2 + (r.z + 1)^2)) + 0.5`.
pub fn sphere_map(size: u32) -> TextureImage {
    TextureImage::from_fn(size, size, |x, y| {
        let a = 2.0 * (x as f32 + 0.5) / size as f32 - 1.0;
        let b = 2.0 * (y as f32 + 0.5) / size as f32 - 1.0;
        let nz = (1.0 - a * a - b * b).max(0.0).sqrt();
        to_texel(environment([2.0 * nz * a, 2.0 * nz * b, 2.0 * nz * nz - 1.0]))
    })
}

/// The two layers of the dual-parabola map (layer 0: r.z > 0), indexed with
/// `r.xy / (2 * (1 + |r.z|)) + 0.5`.
pub fn dual_parabola_map(size: u32) -> Vec<TextureImage> {
    (0..2)
        .map(|layer| {
            TextureImage::from_fn(size, size, |x, y| {
                let a = 2.0 * (x as f32 + 0.5) / size as f32 - 1.0;
                let b = 2.0 * (y as f32 + 0.5) / size as f32 - 1.0;
                let s = 1.0 + a * a + b * b;
                let z = (1.0 - a * a - b * b) / s;
                to_texel(environment([2.0 * a / s, 2.0 * b / s, if layer == 0 { z } else { -z }]))
            })
        })
        .collect()
}

/// EnvironmentMapEffect's constants, as DirectXTK's `EnvironmentMapEffect` class computes them.
pub fn parameters(scene: &LitScene, permutation: fx::Permutation) -> fx::Parameters {
    let m = &scene.material;
    fx::Parameters {
        // DirectXTK picks the specular shaders when this is not black (the per-pixel-lighting
        // shaders always add it).
        environment_map_specular: if permutation.specular { ENV_SPECULAR } else { [0.0; 3] },
        environment_map_amount: AMOUNT,
        fresnel_factor: FRESNEL_FACTOR,
        diffuse_color: m.diffuse,
        emissive_color: m.emissive,
        light_direction: scene.lights.map(|l| pad3(l.direction)),
        light_diffuse_color: scene.lights.map(|l| pad3(l.diffuse)),
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
    let mesh = mesh();
    let targets = opaque_target();
    let (layouts, pipeline) = gpu.scoped("creating an EnvironmentMapEffect pipeline", |device| {
        let layouts = fx::Layouts::new(device, permutation);
        let options = fx::PipelineOptions {
            label: Some("EnvironmentMapEffect tile"),
            primitive: mesh_primitive(),
            ..fx::PipelineOptions::new(&targets, depth_test())
        };
        let pipeline = fx::create_render_pipeline_with(device, &layouts, &options);
        (layouts, pipeline)
    })?;
    let texture = texture().upload(gpu, "EnvironmentMapEffect texture").create_view(&Default::default());
    let environment = match permutation.mapping {
        fx::Mapping::Cube => {
            upload_layers(gpu, "cube map", &cube_faces(64)).create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::Cube),
                ..Default::default()
            })
        }
        fx::Mapping::Sphere => sphere_map(128).upload(gpu, "sphere map").create_view(&Default::default()),
        fx::Mapping::DualParabola => {
            upload_layers(gpu, "dual-parabola map", &dual_parabola_map(64)).create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D2Array),
                ..Default::default()
            })
        }
    };
    let sampler = sampler(gpu, wgpu::FilterMode::Linear);
    let env_sampler = sampler_with(gpu, wgpu::FilterMode::Linear, wgpu::AddressMode::ClampToEdge);
    let (groups, gpu_mesh) = gpu.scoped("creating EnvironmentMapEffect resources", |device| {
        let bytes = parameters(scene, permutation);
        let buffer = uniform_buffer(device, "EnvironmentMapEffect Parameters", bytemuck::bytes_of(&bytes));
        let groups = fx::BindGroups::new(
            device,
            &layouts,
            &fx::Resources {
                parameters: &buffer,
                texture: &texture,
                environment_map: &environment,
                sampler: &sampler,
                env_map_sampler: &env_sampler,
            },
        );
        let gpu_mesh = mesh.upload(device, "sphere", |v| fx::VertexPositionNormalTexcoord {
            position: v.position,
            normal: v.normal,
            texcoord: v.uv,
        });
        (groups, gpu_mesh)
    })?;
    let groups = groups.map_err(missing)?;
    draw_tile(gpu, "drawing an EnvironmentMapEffect tile", clear_color(), |pass| {
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
