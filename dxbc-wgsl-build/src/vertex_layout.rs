//! The vertex buffer layouts a vertex shader's inputs are read from: one interleaved buffer for
//! a render pass ([`vertex_attributes`]), and for a pass with a geometry shader the per-vertex
//! and per-instance slots its vertex shader pulls ([`InputLayout`]).

use crate::effect::{is_keyword, snake_case, InstanceDataDecl, VertexFormatOverride};
use crate::vertex::VertexFormat;
use dxbc_wgsl::InterfaceVar as Interface;

/// One vertex attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexAttribute {
    /// `@location` of the shader input.
    pub location: u32,
    /// Its semantic (`TEXCOORD1`).
    pub semantic: String,
    /// The format the buffer holds.
    pub format: VertexFormat,
    /// Byte offset in the vertex.
    pub offset: u32,
    /// Field name in the generated vertex struct.
    pub field: String,
    /// `Some(step rate)` for per-instance data (`[instance_data]`), `None` per vertex.
    pub instance_step_rate: Option<u32>,
}

/// The vertex buffer a vertex shader with `inputs` reads: its attributes tightly packed in
/// location order (each offset aligned to min(4, format size)) with the shader input's 32-bit
/// format unless `overrides` (the effect file's `[vertex_formats]`) names another, and the stride
/// rounded up to 4. `None` when the shader reads no vertex attributes.
pub fn vertex_attributes(
    inputs: &[Interface],
    overrides: &[VertexFormatOverride],
) -> Option<(Vec<VertexAttribute>, u32)> {
    let mut inputs: Vec<_> = inputs.iter().filter(|i| i.location.is_some()).collect();
    if inputs.is_empty() {
        return None;
    }
    inputs.sort_by_key(|i| i.location);
    let mut attrs = Vec::new();
    let mut offset = 0u32;
    let mut names: Vec<String> = Vec::new();
    for i in inputs {
        let format = overrides
            .iter()
            .find(|o| o.semantic.eq_ignore_ascii_case(&i.semantic) && o.index == i.semantic_index)
            .map(|o| o.format)
            .unwrap_or_else(|| VertexFormat::default_for(i.scalar, i.components));
        let align = format.size.min(4);
        offset = offset.div_ceil(align) * align;
        let sem = i.semantic.strip_prefix("SV_").or_else(|| i.semantic.strip_prefix("sv_")).unwrap_or(&i.semantic);
        let mut field = snake_case(sem);
        if i.semantic_index != 0 {
            field.push_str(&i.semantic_index.to_string());
        }
        if field.is_empty() || is_keyword(&field) || names.contains(&field) {
            field = format!("{field}_l{}", i.location.unwrap_or(0));
        }
        names.push(field.clone());
        attrs.push(VertexAttribute {
            location: i.location.unwrap_or(0),
            semantic: i.semantic_label(),
            format,
            offset,
            field,
            instance_step_rate: None,
        });
        offset += format.size;
    }
    let stride = offset.div_ceil(4) * 4;
    Some((attrs, stride))
}

/// The input layout of the vertex shader of a pass with a geometry shader: the per-vertex
/// elements in vertex buffer slot 0 and the per-instance ones (`[instance_data]`) in slot 1, each
/// slot packed as [`vertex_attributes`] packs one buffer. The vertex shader pulls them from
/// storage buffers ([`InputLayout::pulling`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputLayout {
    /// Slot 0: the per-vertex elements and the stride, if the shader reads any.
    pub vertices: Option<(Vec<VertexAttribute>, u32)>,
    /// Slot 1: the per-instance elements and the stride, if any.
    pub instances: Option<(Vec<VertexAttribute>, u32)>,
}

/// Vertex buffer slot of the per-vertex elements of a pass with a geometry shader.
pub const VERTEX_SLOT: u32 = 0;
/// Vertex buffer slot of the per-instance elements (`[instance_data]`).
pub const INSTANCE_SLOT: u32 = 1;

impl InputLayout {
    /// The layout of a vertex shader with `inputs`: an input whose semantic `instance_data` lists
    /// is per-instance data with its step rate.
    pub fn new(inputs: &[Interface], overrides: &[VertexFormatOverride], instance_data: &[InstanceDataDecl]) -> Self {
        let rate = |i: &Interface| {
            instance_data
                .iter()
                .find(|d| d.semantic.eq_ignore_ascii_case(&i.semantic) && d.index == i.semantic_index)
                .map(|d| d.step_rate)
        };
        let (per_instance, per_vertex): (Vec<Interface>, Vec<Interface>) =
            inputs.iter().filter(|i| i.location.is_some()).cloned().partition(|i| rate(i).is_some());
        let instances = vertex_attributes(&per_instance, overrides).map(|(mut attrs, stride)| {
            for a in &mut attrs {
                let i = per_instance.iter().find(|i| i.location == Some(a.location));
                a.instance_step_rate = i.and_then(rate);
            }
            (attrs, stride)
        });
        InputLayout { vertices: vertex_attributes(&per_vertex, overrides), instances }
    }

    /// The slots the layout uses, with their elements and strides.
    pub fn slots(&self) -> impl Iterator<Item = (u32, &[VertexAttribute], u32)> {
        [(VERTEX_SLOT, &self.vertices), (INSTANCE_SLOT, &self.instances)]
            .into_iter()
            .filter_map(|(slot, l)| l.as_ref().map(|(a, stride)| (slot, a.as_slice(), *stride)))
    }

    /// The vertex pulling the vertex shader is translated with, writing vertex records of
    /// `record_registers` registers (the geometry shader's `input_registers`). An element's
    /// register is its shader input's location (`@location(register)` for vertex inputs).
    pub fn pulling(&self, record_registers: u32) -> dxbc_wgsl::geometry::VertexPulling {
        let mut elements = Vec::new();
        let mut strides = Vec::new();
        for (slot, attrs, stride) in self.slots() {
            if strides.len() <= slot as usize {
                strides.resize(slot as usize + 1, 0);
            }
            strides[slot as usize] = stride;
            for a in attrs {
                elements.push(dxbc_wgsl::geometry::PulledElement {
                    register: a.location,
                    slot,
                    offset: a.offset,
                    format: a.format.geometry_format(),
                    instance_step_rate: a.instance_step_rate,
                });
            }
        }
        elements.sort_by_key(|e| e.register);
        dxbc_wgsl::geometry::VertexPulling { elements, strides, record_registers }
    }
}
