//! Procedural meshes with positions, normals and texture coordinates.

use crate::math::{cross, normalize, sub};

/// One vertex as stored in the vertex buffer: 32 bytes, position at 0, normal at 12, uv at 24.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Vertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub uv: [f32; 2],
}

/// Byte offsets of [`Vertex`]'s fields, for vertex buffer layouts.
pub const POSITION_OFFSET: u64 = 0;
pub const NORMAL_OFFSET: u64 = 12;
pub const UV_OFFSET: u64 = 24;

/// An indexed triangle list (counter-clockwise front faces, right-handed).
#[derive(Clone, Debug, Default)]
pub struct Mesh {
    pub vertices: Vec<Vertex>,
    pub indices: Vec<u32>,
}

impl Mesh {
    /// A torus around the y axis: ring radius `major`, tube radius `minor`.
    /// u runs `u_repeat` times around the ring, v `v_repeat` times around the tube.
    pub fn torus(major: f32, minor: f32, segments: u32, sides: u32, uv_repeat: [f32; 2]) -> Self {
        let mut mesh = Self::default();
        for i in 0..=segments {
            let u = i as f32 / segments as f32;
            let (su, cu) = (u * std::f32::consts::TAU).sin_cos();
            for j in 0..=sides {
                let v = j as f32 / sides as f32;
                let (sv, cv) = (v * std::f32::consts::TAU).sin_cos();
                let normal = [cu * cv, sv, -su * cv];
                let centre = [major * cu, 0.0, -major * su];
                mesh.vertices.push(Vertex {
                    position: [
                        centre[0] + minor * normal[0],
                        centre[1] + minor * normal[1],
                        centre[2] + minor * normal[2],
                    ],
                    normal,
                    uv: [u * uv_repeat[0], v * uv_repeat[1]],
                });
            }
        }
        mesh.grid_indices(segments, sides);
        mesh
    }

    /// A flat rectangle in the xz plane (normal +y), centred at the origin, uv from 0 to
    /// `uv_repeat`, split into `divisions` x `divisions` cells (per-vertex effects such as
    /// DirectXTK's fog are interpolated linearly between vertices, so large planes need them).
    pub fn plane(size: [f32; 2], uv_repeat: [f32; 2], divisions: u32) -> Self {
        let mut mesh = Self::default();
        for i in 0..=divisions {
            let v = i as f32 / divisions as f32;
            for j in 0..=divisions {
                let u = j as f32 / divisions as f32;
                mesh.vertices.push(Vertex {
                    position: [(u - 0.5) * size[0], 0.0, (v - 0.5) * size[1]],
                    normal: [0.0, 1.0, 0.0],
                    uv: [u * uv_repeat[0], v * uv_repeat[1]],
                });
            }
        }
        mesh.grid_indices(divisions, divisions);
        mesh
    }

    /// A UV sphere of `radius` around the origin: u runs around the y axis (from +x towards -z),
    /// v from the north pole (v = 0) to the south pole, `uv_repeat` times each.
    pub fn sphere(radius: f32, segments: u32, rings: u32, uv_repeat: [f32; 2]) -> Self {
        let mut mesh = Self::default();
        for i in 0..=rings {
            let v = i as f32 / rings as f32;
            let (sp, cp) = (v * std::f32::consts::PI).sin_cos();
            for j in 0..=segments {
                let u = j as f32 / segments as f32;
                let (st, ct) = (u * std::f32::consts::TAU).sin_cos();
                let normal = [sp * ct, cp, -sp * st];
                mesh.vertices.push(Vertex {
                    position: normal.map(|c| c * radius),
                    normal,
                    uv: [u * uv_repeat[0], v * uv_repeat[1]],
                });
            }
        }
        mesh.grid_indices(rings, segments);
        mesh
    }

    /// An open tube of `radius` along the y axis from `y0` to `y1`: u runs around it (from +x
    /// towards -z), v along it from `y0` (v = 0) to `y1`, `uv_repeat` times each.
    pub fn tube(radius: f32, y0: f32, y1: f32, segments: u32, rings: u32, uv_repeat: [f32; 2]) -> Self {
        let mut mesh = Self::default();
        for i in 0..=rings {
            let v = i as f32 / rings as f32;
            let y = y0 + (y1 - y0) * v;
            for j in 0..=segments {
                let u = j as f32 / segments as f32;
                let (st, ct) = (u * std::f32::consts::TAU).sin_cos();
                let normal = [ct, 0.0, -st];
                mesh.vertices.push(Vertex {
                    position: [radius * ct, y, -radius * st],
                    normal,
                    uv: [u * uv_repeat[0], v * uv_repeat[1]],
                });
            }
        }
        mesh.grid_indices(rings, segments);
        // The rings run upwards (the sphere's run downwards), so flip every triangle to face out.
        for t in mesh.indices.chunks_mut(3) {
            t.swap(1, 2);
        }
        mesh
    }

    fn grid_indices(&mut self, rows: u32, columns: u32) {
        let stride = columns + 1;
        for i in 0..rows {
            for j in 0..columns {
                let a = i * stride + j;
                let b = a + stride;
                self.indices.extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
            }
        }
    }

    /// Geometric normal of triangle `t` from its winding (counter-clockwise = front).
    pub fn face_normal(&self, t: usize) -> [f32; 3] {
        let p = |k: usize| self.vertices[self.indices[3 * t + k] as usize].position;
        normalize(cross(sub(p(1), p(0)), sub(p(2), p(0))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{cross, dot, sub};

    #[test]
    fn torus_normals_are_unit_and_match_the_winding() {
        let mesh = Mesh::torus(1.0, 0.3, 24, 12, [4.0, 1.0]);
        assert_eq!(mesh.vertices.len(), 25 * 13);
        assert_eq!(mesh.indices.len(), 24 * 12 * 6);
        for v in &mesh.vertices {
            assert!((dot(v.normal, v.normal) - 1.0).abs() < 1e-5);
        }
        // Counter-clockwise winding must face the same way as the vertex normals.
        for t in 0..mesh.indices.len() / 3 {
            let n = mesh.vertices[mesh.indices[3 * t] as usize].normal;
            assert!(dot(mesh.face_normal(t), n) > 0.0, "triangle {t} is wound inside out");
        }
    }

    #[test]
    fn sphere_and_tube_face_outwards() {
        for mesh in [Mesh::sphere(1.5, 16, 8, [1.0, 1.0]), Mesh::tube(0.5, -1.0, 2.0, 16, 4, [1.0, 1.0])] {
            for v in &mesh.vertices {
                assert!((dot(v.normal, v.normal) - 1.0).abs() < 1e-5);
            }
            for t in 0..mesh.indices.len() / 3 {
                let corners = [0, 1, 2].map(|k| mesh.vertices[mesh.indices[3 * t + k] as usize]);
                // Skip the degenerate triangles at the sphere's poles.
                let area =
                    cross(sub(corners[1].position, corners[0].position), sub(corners[2].position, corners[0].position));
                if dot(area, area) < 1e-12 {
                    continue;
                }
                let n =
                    corners.iter().fold([0.0; 3], |a, c| [a[0] + c.normal[0], a[1] + c.normal[1], a[2] + c.normal[2]]);
                assert!(dot(mesh.face_normal(t), n) > 0.0, "triangle {t} is wound inside out");
            }
        }
    }

    #[test]
    fn plane_faces_up() {
        let mesh = Mesh::plane([2.0, 2.0], [1.0, 1.0], 3);
        assert_eq!(mesh.vertices.len(), 16);
        assert_eq!(mesh.indices.len(), 3 * 3 * 6);
        for t in 0..mesh.indices.len() / 3 {
            assert!(dot(mesh.face_normal(t), [0.0, 1.0, 0.0]) > 0.99, "triangle {t}");
        }
        assert_eq!(std::mem::size_of::<Vertex>(), 32);
    }
}

/// One indexed mesh on the GPU.
pub struct GpuMesh {
    pub vertices: wgpu::Buffer,
    pub indices: wgpu::Buffer,
    pub index_count: u32,
}

impl GpuMesh {
    /// Uploads `vertex_bytes` (laid out as the pipeline's vertex buffer expects) and 32-bit indices.
    pub fn new(device: &wgpu::Device, label: &str, vertex_bytes: &[u8], indices: &[u32]) -> Self {
        use wgpu::util::DeviceExt;
        Self {
            vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: vertex_bytes,
                usage: wgpu::BufferUsages::VERTEX,
            }),
            indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(indices),
                usage: wgpu::BufferUsages::INDEX,
            }),
            index_count: indices.len() as u32,
        }
    }

    /// Binds the buffers (slot 0) and draws every triangle.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.index_count, 0, 0..1);
    }
}

/// A vertex layout's attribute format that [`pack_vertices`] cannot fill from `f32` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("vertex attribute at location {location} has format {format:?}; only Float32, Float32x2, Float32x3 and Float32x4 are packed")]
pub struct UnsupportedVertexFormat {
    pub location: u32,
    pub format: wgpu::VertexFormat,
}

/// Packs `count` vertices into the bytes `layout` describes, whatever order, offsets and
/// component counts it uses: `value(vertex, location)` gives the attribute at a shader location
/// as four floats, of which the format keeps the first 1 to 4.
pub fn pack_vertices(
    layout: &wgpu::VertexBufferLayout<'_>,
    count: usize,
    value: impl Fn(usize, u32) -> [f32; 4],
) -> Result<Vec<u8>, UnsupportedVertexFormat> {
    let stride = layout.array_stride as usize;
    let mut bytes = vec![0u8; stride * count];
    for attribute in layout.attributes {
        let components = match attribute.format {
            wgpu::VertexFormat::Float32 => 1,
            wgpu::VertexFormat::Float32x2 => 2,
            wgpu::VertexFormat::Float32x3 => 3,
            wgpu::VertexFormat::Float32x4 => 4,
            format => return Err(UnsupportedVertexFormat { location: attribute.shader_location, format }),
        };
        for v in 0..count {
            let data = value(v, attribute.shader_location);
            let start = v * stride + attribute.offset as usize;
            bytes[start..start + 4 * components].copy_from_slice(bytemuck::cast_slice(&data[..components]));
        }
    }
    Ok(bytes)
}

#[cfg(test)]
mod pack_tests {
    use super::*;

    #[test]
    fn packs_by_location_offset_and_format() {
        let attributes = [
            wgpu::VertexAttribute { format: wgpu::VertexFormat::Float32x2, offset: 12, shader_location: 0 },
            wgpu::VertexAttribute { format: wgpu::VertexFormat::Float32x3, offset: 0, shader_location: 2 },
        ];
        let layout = wgpu::VertexBufferLayout {
            array_stride: 20,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        };
        let bytes = pack_vertices(&layout, 2, |v, loc| {
            let base = (v * 10 + loc as usize) as f32;
            [base, base + 0.5, base + 0.25, 99.0]
        })
        .unwrap();
        let floats: &[f32] = bytemuck::cast_slice(&bytes);
        assert_eq!(floats, &[2.0, 2.5, 2.25, 0.0, 0.5, 12.0, 12.5, 12.25, 10.0, 10.5]);
        let bad = [wgpu::VertexAttribute { format: wgpu::VertexFormat::Unorm8x4, offset: 0, shader_location: 3 }];
        let layout =
            wgpu::VertexBufferLayout { array_stride: 4, step_mode: wgpu::VertexStepMode::Vertex, attributes: &bad };
        assert!(pack_vertices(&layout, 1, |_, _| [0.0; 4]).is_err());
    }
}
