//! What the contact sheet's tiles share: the tile target, camera, lit-object scene, pipeline
//! states and a draw helper.

use wgpu::util::DeviceExt;

use crate::gpu::{Gpu, GpuError};
use crate::lighting::{DirectionalLight, Fog, DEFAULT_LIGHTS};
use crate::math::Mat4;
use crate::target::{depth_stencil_state, Image, Target, COLOR_FORMAT, DEPTH_FORMAT};
use crate::texture::TextureImage;

/// Width of one tile in pixels.
pub const TILE_WIDTH: u32 = 160;
/// Height of one tile in pixels.
pub const TILE_HEIGHT: u32 = 120;
/// The colour 3D tiles are cleared to (what shows where nothing is drawn).
pub const CLEAR_COLOR: [f32; 3] = [0.08, 0.09, 0.12];

/// [`CLEAR_COLOR`] as a wgpu clear value.
pub fn clear_color() -> wgpu::Color {
    let [r, g, b] = CLEAR_COLOR.map(f64::from);
    wgpu::Color { r, g, b, a: 1.0 }
}

/// A perspective camera for a tile (right-handed, y up, depth 0.1 to 50).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub eye: [f32; 3],
    pub look_at: [f32; 3],
    pub fov_y: f32,
}

impl Camera {
    /// The camera most lit tiles use: slightly above, looking at the origin.
    pub const DEFAULT: Camera = Camera { eye: [0.0, 1.2, 3.6], look_at: [0.0, 0.0, 0.0], fov_y: 0.8 };

    pub fn view(&self) -> Mat4 {
        Mat4::look_at_rh(self.eye, self.look_at, [0.0, 1.0, 0.0])
    }

    pub fn projection(&self) -> Mat4 {
        Mat4::perspective_fov_rh(self.fov_y, TILE_WIDTH as f32 / TILE_HEIGHT as f32, 0.1, 50.0)
    }
}

/// Surface colours of a lit effect, as DirectXTK's effect classes take them (the ambient light is
/// already folded into `emissive`, as DirectXTK does).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    pub diffuse: [f32; 4],
    pub emissive: [f32; 3],
    pub specular: [f32; 3],
    pub specular_power: f32,
}

/// Everything a lit effect's constants are computed from, in application terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LitScene {
    pub camera: Camera,
    pub world: Mat4,
    pub material: Material,
    pub lights: [DirectionalLight; 3],
    pub fog: Fog,
}

impl LitScene {
    /// A warm, shiny material under DirectXTK's default three-light rig, fog from 2.8 to 5 units.
    pub fn new(world: Mat4) -> Self {
        Self {
            camera: Camera::DEFAULT,
            world,
            material: Material {
                diffuse: [0.95, 0.9, 0.85, 1.0],
                emissive: [0.06, 0.08, 0.14],
                specular: [0.6, 0.6, 0.6],
                specular_power: 20.0,
            },
            lights: DEFAULT_LIGHTS,
            fog: Fog { color: [0.3, 0.4, 0.6], start: 2.8, end: 5.0 },
        }
    }

    pub fn world_view(&self) -> Mat4 {
        self.world.mul(&self.camera.view())
    }

    pub fn world_view_proj(&self) -> Mat4 {
        self.world_view().mul(&self.camera.projection())
    }

    /// The normal matrix (identity if the world matrix is singular).
    pub fn world_inverse_transpose(&self) -> [[f32; 3]; 3] {
        self.world.inverse_transpose_3x3().unwrap_or([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    }

    /// `FogVector`: DirectXTK uploads zeros when fog is off (the per-pixel-lighting shaders always
    /// apply fog).
    pub fn fog_vector(&self, enabled: bool) -> [f32; 4] {
        if enabled {
            self.fog.vector(&self.world_view())
        } else {
            [0.0; 4]
        }
    }
}

/// One opaque colour target of [`COLOR_FORMAT`].
pub fn opaque_target() -> [Option<wgpu::ColorTargetState>; 1] {
    [Some(wgpu::ColorTargetState { format: COLOR_FORMAT, blend: None, write_mask: wgpu::ColorWrites::ALL })]
}

/// The procedural meshes are wound counter-clockwise (right-handed); back faces culled.
pub fn mesh_primitive() -> wgpu::PrimitiveState {
    wgpu::PrimitiveState { front_face: wgpu::FrontFace::Ccw, cull_mode: Some(wgpu::Face::Back), ..Default::default() }
}

/// Depth testing and writing, for meshes.
pub fn depth_test() -> Option<wgpu::DepthStencilState> {
    Some(depth_stencil_state())
}

/// Full-screen and 2D passes: the target's depth buffer is attached but neither tested nor written.
pub fn no_depth_test() -> Option<wgpu::DepthStencilState> {
    Some(wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: Some(false),
        depth_compare: Some(wgpu::CompareFunction::Always),
        stencil: wgpu::StencilState::default(),
        bias: wgpu::DepthBiasState::default(),
    })
}

/// A uniform buffer holding `bytes`.
pub fn uniform_buffer(device: &wgpu::Device, label: &str, bytes: &[u8]) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: bytes,
        usage: wgpu::BufferUsages::UNIFORM,
    })
}

/// A generated `MissingResource` as a [`GpuError`].
pub fn missing(error: impl std::fmt::Display) -> GpuError {
    GpuError::MissingResource(error.to_string())
}

/// Clears a [`TILE_WIDTH`] x [`TILE_HEIGHT`] target to `clear`, records `draw` into one render
/// pass (inside error scopes) and reads the pixels back.
pub fn draw_tile(
    gpu: &Gpu,
    what: &str,
    clear: wgpu::Color,
    draw: impl FnOnce(&mut wgpu::RenderPass<'_>),
) -> Result<Image, GpuError> {
    let target = Target::new(gpu, TILE_WIDTH, TILE_HEIGHT);
    gpu.scoped(what, |device| {
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = target.begin_pass(&mut encoder, clear);
            draw(&mut pass);
        }
        gpu.queue.submit([encoder.finish()]);
    })?;
    target.read_back(gpu)
}

/// [`draw_tile`] for a pass with a geometry shader, whose compute work precedes the render pass:
/// `prepare` records it into the command encoder before the pass opens and returns the prepared
/// draw (the generated `<Pass>Stage::prepare`), `draw` draws that inside the pass
/// (`<Pass>Stage::draw`), and once the work is submitted the prepared draw goes to `recycle`
/// (`<Pass>Stage::recycle`), whose buffers then serve a later draw.
pub fn draw_geometry_tile<P>(
    gpu: &Gpu,
    what: &str,
    clear: wgpu::Color,
    prepare: impl FnOnce(&wgpu::Device, &mut wgpu::CommandEncoder) -> Result<P, GpuError>,
    draw: impl FnOnce(&mut wgpu::RenderPass<'_>, &P),
    recycle: impl FnOnce(P),
) -> Result<Image, GpuError> {
    let target = Target::new(gpu, TILE_WIDTH, TILE_HEIGHT);
    let prepared = gpu.scoped(what, |device| {
        let mut encoder = device.create_command_encoder(&Default::default());
        let prepared = prepare(device, &mut encoder)?;
        {
            let mut pass = target.begin_pass(&mut encoder, clear);
            draw(&mut pass, &prepared);
        }
        gpu.queue.submit([encoder.finish()]);
        Ok::<P, GpuError>(prepared)
    })??;
    recycle(prepared);
    target.read_back(gpu)
}

/// HLSL's default (column-major) packing of a 4x3 matrix (the first three columns of `m`, used
/// as `mul(float4 position, m)`): register k holds column k.
pub fn columns4x3(m: &Mat4) -> [[f32; 4]; 3] {
    std::array::from_fn(|k| [m.0[0][k], m.0[1][k], m.0[2][k], m.0[3][k]])
}

/// A mesh vertex with everything the effects' vertex shaders may read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LitVertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub uv: [f32; 2],
    pub color: [f32; 4],
}

/// An indexed triangle list of [`LitVertex`] (counter-clockwise front faces).
#[derive(Clone, Debug, Default)]
pub struct LitMesh {
    pub vertices: Vec<LitVertex>,
    pub indices: Vec<u32>,
}

impl LitMesh {
    /// `mesh` with [`rainbow`] vertex colours.
    pub fn colored(mesh: &crate::mesh::Mesh) -> Self {
        Self {
            vertices: mesh
                .vertices
                .iter()
                .map(|v| LitVertex { position: v.position, normal: v.normal, uv: v.uv, color: rainbow(v.position) })
                .collect(),
            indices: mesh.indices.clone(),
        }
    }

    /// Uploads the vertices as `T` (one of an effect's generated vertex structs) built by `f`.
    pub fn upload<T: bytemuck::Pod>(
        &self,
        device: &wgpu::Device,
        label: &str,
        f: impl Fn(&LitVertex) -> T,
    ) -> crate::mesh::GpuMesh {
        crate::mesh::GpuMesh::new(device, label, &self.vertex_bytes(f), &self.indices)
    }

    /// The vertices as `T` (one of an effect's generated vertex structs) built by `f`, as the
    /// vertex buffer's bytes.
    pub fn vertex_bytes<T: bytemuck::Pod>(&self, f: impl Fn(&LitVertex) -> T) -> Vec<u8> {
        let vertices: Vec<T> = self.vertices.iter().map(f).collect();
        bytemuck::cast_slice(&vertices).to_vec()
    }
}

/// Everything one tile draws, on the CPU: what its `render` uploads and what the tile's web scene
/// (`crate::web::write_family_scene`) hands the browser, so both renderers draw the same data.
#[derive(Clone, Debug)]
pub struct TileData {
    /// The permutation's index (the generated `Permutation::index`, the artifact's variant).
    pub permutation: usize,
    /// The vertex buffer (the permutation's generated vertex struct, as bytes); empty for a
    /// full-screen pass, whose vertex shader makes its triangle from the vertex index.
    pub vertices: Vec<u8>,
    /// Triangle-list indices; empty for a non-indexed draw of [`TileData::vertex_count`] vertices.
    pub indices: Vec<u32>,
    /// Vertices of a non-indexed draw.
    pub vertex_count: u32,
    /// Back faces culled (the procedural meshes are wound counter-clockwise), or both sides drawn.
    pub cull_back: bool,
    /// Depth tested and written ([`depth_test`]), or neither ([`no_depth_test`]: 2D passes).
    pub depth_test: bool,
    /// The bytes of the `parameters` constant buffer (the generated `Parameters` struct).
    pub parameters: Vec<u8>,
    /// Textures by the effect's resource name (`texture`, `normal_texture`, ...).
    pub textures: Vec<(&'static str, TileTexture)>,
    /// The filter and address mode (u, v, w) of the `sampler` resource; `None` when there is none.
    pub sampler: Option<(wgpu::FilterMode, wgpu::AddressMode)>,
}

/// A tile's texture image: one mip level, 2D.
#[derive(Clone, Debug, PartialEq)]
pub enum TileTexture {
    /// `Rgba8Unorm`.
    Rgba8(TextureImage),
    /// `Rgba16Float` (values rounded to half precision on upload).
    Rgba16Float(crate::texture::HdrImage),
}

impl TileData {
    /// A tile of the indexed triangle list `vertices`/`indices`, back faces culled, depth tested,
    /// no textures and no sampler.
    pub fn mesh(permutation: usize, vertices: Vec<u8>, indices: Vec<u32>, parameters: &[u8]) -> Self {
        Self {
            permutation,
            vertices,
            indices,
            vertex_count: 0,
            cull_back: true,
            depth_test: true,
            parameters: parameters.to_vec(),
            textures: Vec::new(),
            sampler: None,
        }
    }

    /// A full-screen tile: three vertices, no vertex buffer, no culling, no depth test.
    pub fn full_screen(permutation: usize, parameters: &[u8]) -> Self {
        Self {
            vertex_count: 3,
            cull_back: false,
            depth_test: false,
            ..Self::mesh(permutation, Vec::new(), Vec::new(), parameters)
        }
    }

    /// The texture bound to `resource`, uploaded, as a view.
    ///
    /// # Errors
    /// [`GpuError::MissingResource`] when the tile has no such texture.
    pub fn view(&self, gpu: &Gpu, resource: &str) -> Result<wgpu::TextureView, GpuError> {
        let (_, image) = self
            .textures
            .iter()
            .find(|(name, _)| *name == resource)
            .ok_or_else(|| missing(format!("the tile has no texture `{resource}`")))?;
        let texture = match image {
            TileTexture::Rgba8(image) => image.upload(gpu, resource),
            TileTexture::Rgba16Float(image) => image.upload(gpu, resource),
        };
        Ok(texture.create_view(&Default::default()))
    }

    /// The pipeline's primitive state.
    pub fn primitive(&self) -> wgpu::PrimitiveState {
        if self.cull_back {
            mesh_primitive()
        } else {
            wgpu::PrimitiveState { cull_mode: None, ..Default::default() }
        }
    }

    /// The pipeline's depth-stencil state.
    pub fn depth_stencil(&self) -> Option<wgpu::DepthStencilState> {
        if self.depth_test {
            depth_test()
        } else {
            no_depth_test()
        }
    }

    /// The `sampler` resource (nearest and repeating when the tile names none).
    pub fn sampler(&self, gpu: &Gpu) -> wgpu::Sampler {
        let (filter, address) = self.sampler.unwrap_or((wgpu::FilterMode::Nearest, wgpu::AddressMode::Repeat));
        crate::texture::sampler_with(gpu, filter, address)
    }

    /// Records the tile's draw (vertex and index buffers of `mesh` when it is indexed).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, mesh: Option<&crate::mesh::GpuMesh>) {
        match mesh {
            Some(mesh) => mesh.draw(pass),
            None => pass.draw(0..self.vertex_count, 0..1),
        }
    }
}

/// The per-vertex colour the sheet's meshes carry: a smooth rainbow over object space (alpha 1).
pub fn rainbow(p: [f32; 3]) -> [f32; 4] {
    [
        0.65 + 0.35 * (2.5 * p[0]).sin(),
        0.65 + 0.35 * (2.5 * p[1] + 2.0).sin(),
        0.65 + 0.35 * (2.5 * p[2] + 4.0).sin(),
        1.0,
    ]
}
