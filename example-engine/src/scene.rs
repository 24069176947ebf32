//! The demo scene: a lit, textured, fogged torus drawn with BasicEffect (per-pixel lighting,
//! texture, fog) standing on a ground plane drawn with DualTextureEffect (checker texture times
//! a baked light map, fog).
//!
//! [`Renderer`] keeps the GPU resources (meshes, textures, constant buffers) apart from the
//! pipelines ([`Pipelines`]), so a watch mode can rebuild the pipelines from re-translated shaders
//! without touching the rest.

use crate::effects::{basic_effect, dual_texture_effect};
use crate::gpu::{Gpu, GpuError};
use crate::lighting::{columns, columns3, pad3, Fog, DEFAULT_AMBIENT, DEFAULT_LIGHTS};
use crate::math::Mat4;
use crate::mesh::{GpuMesh, Mesh};
use crate::target::{depth_stencil_state, Image, Target, COLOR_FORMAT};
use crate::texture::{sampler, TextureImage};

/// Camera, fog and object placement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scene {
    pub eye: [f32; 3],
    pub look_at: [f32; 3],
    pub fov_y: f32,
    pub fog: Fog,
    pub torus_world: Mat4,
    pub ground_world: Mat4,
}

impl Default for Scene {
    fn default() -> Self {
        Self {
            eye: [0.0, 2.4, 5.4],
            look_at: [0.0, 0.9, 0.0],
            fov_y: 0.8,
            fog: Fog { color: [0.42, 0.5, 0.62], start: 4.0, end: 11.0 },
            torus_world: Mat4::rotation_x(1.1).mul(&Mat4::rotation_y(0.6)).mul(&Mat4::translation([0.0, 1.5, 0.0])),
            ground_world: Mat4::translation([0.0, -0.05, -2.0]),
        }
    }
}

/// BasicEffect's permutation for the torus.
pub const TORUS_PERMUTATION: basic_effect::Permutation = basic_effect::Permutation {
    fog: true,
    vertex_color: false,
    texture: true,
    lighting: basic_effect::Lighting::Pixel,
    biased_normals: false,
};

/// DualTextureEffect's permutation for the ground.
pub const GROUND_PERMUTATION: dual_texture_effect::Permutation =
    dual_texture_effect::Permutation { fog: true, vertex_color: false };

/// The render pipelines and their layouts.
pub struct Pipelines {
    pub torus_layouts: basic_effect::Layouts,
    pub torus: wgpu::RenderPipeline,
    pub ground_layouts: dual_texture_effect::Layouts,
    pub ground: wgpu::RenderPipeline,
}

impl Pipelines {
    /// Creates both pipelines inside error scopes.
    pub fn new(gpu: &Gpu) -> Result<Self, GpuError> {
        let targets =
            [Some(wgpu::ColorTargetState { format: COLOR_FORMAT, blend: None, write_mask: wgpu::ColorWrites::ALL })];
        gpu.scoped("creating the BasicEffect and DualTextureEffect pipelines", |device| {
            let torus_layouts = basic_effect::Layouts::new(device, TORUS_PERMUTATION);
            let torus = basic_effect::create_render_pipeline_with(
                device,
                &torus_layouts,
                &basic_effect::PipelineOptions {
                    label: Some("torus (BasicEffect)"),
                    // The procedural meshes are wound counter-clockwise (right-handed).
                    primitive: wgpu::PrimitiveState {
                        front_face: wgpu::FrontFace::Ccw,
                        cull_mode: Some(wgpu::Face::Back),
                        ..Default::default()
                    },
                    ..basic_effect::PipelineOptions::new(&targets, Some(depth_stencil_state()))
                },
            );
            let ground_layouts = dual_texture_effect::Layouts::new(device, GROUND_PERMUTATION);
            let ground = dual_texture_effect::create_render_pipeline_with(
                device,
                &ground_layouts,
                &dual_texture_effect::PipelineOptions {
                    label: Some("ground (DualTextureEffect)"),
                    primitive: wgpu::PrimitiveState {
                        front_face: wgpu::FrontFace::Ccw,
                        cull_mode: Some(wgpu::Face::Back),
                        ..Default::default()
                    },
                    ..dual_texture_effect::PipelineOptions::new(&targets, Some(depth_stencil_state()))
                },
            );
            Self { torus_layouts, torus, ground_layouts, ground }
        })
    }
}

/// The scene's meshes and textures on the CPU: what [`Renderer`] uploads, and what
/// [`crate::web::write_scene`] hands the browser.
pub struct SceneData {
    pub torus_vertices: Vec<basic_effect::VertexPositionNormalTexcoord>,
    pub torus_indices: Vec<u32>,
    pub ground_vertices: Vec<dual_texture_effect::VertexPositionTexcoordTexcoord1>,
    pub ground_indices: Vec<u32>,
    pub torus_texture: TextureImage,
    pub ground_texture: TextureImage,
    pub light_map: TextureImage,
}

impl SceneData {
    /// The torus, the ground plane and their textures.
    pub fn new() -> Self {
        let torus_mesh = Mesh::torus(1.0, 0.38, 96, 48, [8.0, 2.0]);
        let torus_vertices = torus_mesh
            .vertices
            .iter()
            .map(|v| basic_effect::VertexPositionNormalTexcoord {
                position: v.position,
                normal: v.normal,
                texcoord: v.uv,
            })
            .collect();
        let ground_mesh = Mesh::plane([14.0, 14.0], [7.0, 7.0], 28);
        let ground_vertices = ground_mesh
            .vertices
            .iter()
            .map(|v| dual_texture_effect::VertexPositionTexcoordTexcoord1 {
                position: v.position,
                // The checker repeats; the light map spans the plane once.
                texcoord: v.uv,
                texcoord1: [v.uv[0] / 7.0, v.uv[1] / 7.0],
            })
            .collect();
        SceneData {
            torus_vertices,
            torus_indices: torus_mesh.indices,
            ground_vertices,
            ground_indices: ground_mesh.indices,
            torus_texture: TextureImage::checker(8, 16, [235, 140, 40, 255], [250, 230, 190, 255]),
            ground_texture: TextureImage::checker(2, 32, [90, 110, 90, 255], [170, 180, 160, 255]),
            light_map: light_map(256),
        }
    }
}

impl Default for SceneData {
    fn default() -> Self {
        Self::new()
    }
}

/// Everything needed to draw the scene into an offscreen target.
pub struct Renderer {
    pub scene: Scene,
    pub target: Target,
    pub pipelines: Pipelines,
    torus: GpuMesh,
    ground: GpuMesh,
    torus_parameters: wgpu::Buffer,
    ground_parameters: wgpu::Buffer,
    torus_texture: wgpu::TextureView,
    ground_texture: wgpu::TextureView,
    light_map: wgpu::TextureView,
    sampler: wgpu::Sampler,
}

impl Renderer {
    pub fn new(gpu: &Gpu, width: u32, height: u32, scene: Scene) -> Result<Self, GpuError> {
        let pipelines = Pipelines::new(gpu)?;
        let data = SceneData::new();
        gpu.scoped("creating the scene's buffers and textures", |device| {
            let uniform = |label: &str, size: usize| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: size as u64,
                    usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            };
            Self {
                scene,
                target: Target::new(gpu, width, height),
                torus: GpuMesh::new(device, "torus", bytemuck::cast_slice(&data.torus_vertices), &data.torus_indices),
                ground: GpuMesh::new(
                    device,
                    "ground",
                    bytemuck::cast_slice(&data.ground_vertices),
                    &data.ground_indices,
                ),
                torus_parameters: uniform("BasicEffect Parameters", size_of::<basic_effect::Parameters>()),
                ground_parameters: uniform(
                    "DualTextureEffect Parameters",
                    size_of::<dual_texture_effect::Parameters>(),
                ),
                torus_texture: data.torus_texture.upload(gpu, "torus checker").create_view(&Default::default()),
                ground_texture: data.ground_texture.upload(gpu, "ground checker").create_view(&Default::default()),
                light_map: data.light_map.upload(gpu, "ground light map").create_view(&Default::default()),
                sampler: sampler(gpu, wgpu::FilterMode::Linear),
                pipelines,
            }
        })
    }

    fn view_proj(&self) -> (Mat4, Mat4) {
        let s = &self.scene;
        let view = Mat4::look_at_rh(s.eye, s.look_at, [0.0, 1.0, 0.0]);
        let aspect = self.target.width as f32 / self.target.height as f32;
        (view, Mat4::perspective_fov_rh(s.fov_y, aspect, 0.1, 50.0))
    }

    /// BasicEffect's constants for the torus, computed as DirectXTK's `BasicEffect` class does.
    pub fn torus_parameters(&self) -> basic_effect::Parameters {
        let s = &self.scene;
        let (view, proj) = self.view_proj();
        let world = s.torus_world;
        let diffuse = [1.0, 1.0, 1.0];
        basic_effect::Parameters {
            diffuse_color: [diffuse[0], diffuse[1], diffuse[2], 1.0],
            // DirectXTK folds the ambient light into the emissive colour.
            emissive_color: std::array::from_fn(|c| DEFAULT_AMBIENT[c] * diffuse[c]),
            specular_color: [0.7, 0.7, 0.7],
            specular_power: 24.0,
            light_direction: DEFAULT_LIGHTS.map(|l| pad3(l.direction)),
            light_diffuse_color: DEFAULT_LIGHTS.map(|l| pad3(l.diffuse)),
            light_specular_color: DEFAULT_LIGHTS.map(|l| pad3(l.specular)),
            eye_position: s.eye,
            fog_color: s.fog.color,
            fog_vector: s.fog.vector(&world.mul(&view)),
            world: columns(&world),
            world_inverse_transpose: columns3(&world.inverse_transpose_3x3().unwrap_or([
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 0.0, 1.0],
            ])),
            world_view_proj: columns(&world.mul(&view).mul(&proj)),
            ..Default::default()
        }
    }

    /// DualTextureEffect's constants for the ground.
    pub fn ground_parameters(&self) -> dual_texture_effect::Parameters {
        let s = &self.scene;
        let (view, proj) = self.view_proj();
        let world = s.ground_world;
        dual_texture_effect::Parameters {
            diffuse_color: [1.0, 1.0, 1.0, 1.0],
            fog_color: s.fog.color,
            fog_vector: s.fog.vector(&world.mul(&view)),
            world_view_proj: columns(&world.mul(&view).mul(&proj)),
            ..Default::default()
        }
    }

    /// Draws the frame and reads it back.
    pub fn render(&self, gpu: &Gpu) -> Result<Image, GpuError> {
        gpu.scoped("drawing the frame", |device| {
            gpu.queue.write_buffer(&self.torus_parameters, 0, bytemuck::bytes_of(&self.torus_parameters()));
            gpu.queue.write_buffer(&self.ground_parameters, 0, bytemuck::bytes_of(&self.ground_parameters()));
            let torus_groups = basic_effect::BindGroups::new(
                device,
                &self.pipelines.torus_layouts,
                &basic_effect::Resources {
                    parameters: &self.torus_parameters,
                    texture: Some(&self.torus_texture),
                    sampler: Some(&self.sampler),
                },
            )
            .map_err(|e| GpuError::MissingResource(e.to_string()))?;
            let ground_groups = dual_texture_effect::BindGroups::new(
                device,
                &self.pipelines.ground_layouts,
                &dual_texture_effect::Resources {
                    parameters: &self.ground_parameters,
                    texture: &self.ground_texture,
                    texture2: &self.light_map,
                    sampler: &self.sampler,
                    sampler2: &self.sampler,
                },
            )
            .map_err(|e| GpuError::MissingResource(e.to_string()))?;
            let fog = self.scene.fog.color.map(f64::from);
            let mut encoder = device.create_command_encoder(&Default::default());
            {
                let mut pass =
                    self.target.begin_pass(&mut encoder, wgpu::Color { r: fog[0], g: fog[1], b: fog[2], a: 1.0 });
                pass.set_pipeline(&self.pipelines.ground);
                ground_groups.set(&mut pass);
                self.ground.draw(&mut pass);
                pass.set_pipeline(&self.pipelines.torus);
                torus_groups.set(&mut pass);
                self.torus.draw(&mut pass);
            }
            gpu.queue.submit([encoder.finish()]);
            Ok(())
        })??;
        self.target.read_back(gpu)
    }
}

/// A baked light map for the ground: 0.5 (which DualTextureEffect's `* 2` makes 1) in the open,
/// darker in a soft blob shadow under the torus, which stands over light-map uv (0.5, 0.643).
pub fn light_map(size: u32) -> TextureImage {
    TextureImage::from_fn(size, size, |x, y| {
        let u = (x as f32 + 0.5) / size as f32 - 0.5;
        let v = (y as f32 + 0.5) / size as f32 - 0.643;
        let d = (u * u + v * v).sqrt();
        let shadow = 1.0 - 0.6 * (-(d * d) / 0.006).exp();
        let value = (0.5 * shadow * 255.0).round() as u8;
        [value, value, value, 255]
    })
}

/// Renders the default scene at the given size.
pub fn render_frame(gpu: &Gpu, width: u32, height: u32) -> Result<Image, GpuError> {
    Renderer::new(gpu, width, height, Scene::default())?.render(gpu)
}
