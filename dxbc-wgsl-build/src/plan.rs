//! The pipeline plan of a compiled effect: per pass and permutation, the shaders, the entries of
//! the bind group layouts and (render passes) the vertex buffer layout that the generated pipeline
//! constructors use.
//!
//! It is the one data model behind the generated code and the GPU validator:
//! [`crate::codegen::generate`] prints it as Rust (`VARIANTS`, `VERTEX_GROUPS`, `PIXEL_GROUPS`,
//! `COMPUTE_GROUPS`, `VERTEX_LAYOUTS`, the vertex structs, the resources structs and the bind
//! group entries made from them), and the `gpu` feature's validator builds wgpu descriptors from
//! the same values. The render states come from each pass's
//! [`PassStates`](crate::effect::states::PassStates), the formats from the caller.
//!
//! Each bind group layout entry holds the resources-struct field it binds ([`FieldId`]), taken
//! from the field that [`crate::compile`] decided for the shader's binding
//! ([`CompiledShader::fields`]); nothing downstream looks a field up by name.

use crate::compile::{CompiledEffect, CompiledShader, ResourceField};
use crate::effect::{is_keyword, pascal_case, snake_case, VertexFormatOverride};
use crate::vertex::VertexFormat;
use dxbc_wgsl::{InterfaceVar as Interface, ResourceBinding as Binding};

/// What the generated module builds, per pass and permutation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelinePlan {
    /// Fields of the render passes' resources struct (`Resources`): the fields of
    /// [`CompiledEffect::resources`] the render passes bind, in the order their shaders first
    /// bind them, with the registers and kinds of those passes' stages only, and `required` when
    /// every permutation of every render pass binds the field.
    pub render_fields: Vec<ResourceField>,
    /// Fields of the compute passes' resources struct (`Resources` in an effect of compute
    /// passes only, `ComputeResources` in one with both kinds of pass), the same way. For an
    /// effect whose passes are all of one kind, that kind's fields are
    /// [`CompiledEffect::resources`].
    pub compute_fields: Vec<ResourceField>,
    /// Distinct bind group layouts of the render passes, as entry lists sorted by binding number:
    /// `[0]` for `@group(0)` (the vertex shader's resources), `[1]` for `@group(1)` (the pixel
    /// shader's). Their fields are [`PipelinePlan::render_fields`].
    pub groups: [Vec<Vec<GroupEntry>>; 2],
    /// Distinct bind group layouts of the compute passes (`@group(0)`, the compute shader's
    /// resources), sorted by binding number. Their fields are [`PipelinePlan::compute_fields`].
    pub compute_groups: Vec<Vec<GroupEntry>>,
    /// Distinct vertex buffer layouts (one generated vertex struct each).
    pub vertex_layouts: Vec<VertexLayout>,
    /// Per pass, per permutation (in [`CompiledEffect::permutations`] order).
    pub variants: Vec<Vec<VariantPlan>>,
}

/// One entry of a bind group layout: a shader's binding and the resources-struct field that the
/// generated bind group entry takes its resource from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupEntry {
    /// The binding (`@binding`, register, kind).
    pub binding: Binding,
    /// The field bound to it ([`PipelinePlan::field`]).
    pub field: FieldId,
}

/// A field of one of the plan's resources structs: [`PipelinePlan::render_fields`] for the
/// entries of [`PipelinePlan::groups`], [`PipelinePlan::compute_fields`] for those of
/// [`PipelinePlan::compute_groups`]. Only the plan makes them, for fields it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldId {
    compute: bool,
    index: usize,
}

impl FieldId {
    /// Whether it is a field of the compute passes' struct.
    pub fn is_compute(self) -> bool {
        self.compute
    }

    /// Its position in its struct's fields.
    pub fn index(self) -> usize {
        self.index
    }
}

/// One pass of one permutation: a render pipeline or a compute pipeline, as the pass is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariantPlan {
    /// A render pass's pipeline.
    Render(RenderVariant),
    /// A compute pass's pipeline.
    Compute(ComputeVariant),
}

/// One render pass of one permutation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderVariant {
    /// Vertex shader (index into [`CompiledEffect::shaders`]).
    pub vertex: usize,
    /// Pixel shader, if the pass has one.
    pub pixel: Option<usize>,
    /// The `@group(0)` layout (index into `PipelinePlan::groups[0]`).
    pub vertex_group: usize,
    /// The `@group(1)` layout (index into `PipelinePlan::groups[1]`).
    pub pixel_group: usize,
    /// The vertex buffer layout (index into [`PipelinePlan::vertex_layouts`]); `None` when the
    /// vertex shader reads no vertex attributes.
    pub vertex_layout: Option<usize>,
}

/// One compute pass of one permutation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComputeVariant {
    /// Compute shader (index into [`CompiledEffect::shaders`]).
    pub compute: usize,
    /// The `@group(0)` layout (index into [`PipelinePlan::compute_groups`]).
    pub group: usize,
}

/// One interleaved vertex buffer (slot 0, per-vertex step).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexLayout {
    /// Name of the generated vertex struct (`VertexPositionNormalTexcoord`).
    pub struct_name: String,
    /// Attributes in location order.
    pub attributes: Vec<VertexAttribute>,
    /// Bytes per vertex (a multiple of 4).
    pub stride: u32,
}

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
}

impl PipelinePlan {
    /// The plan of a compiled effect.
    pub fn new(c: &CompiledEffect) -> Self {
        let (render_fields, render_ids) = kind_fields(c, false);
        let (compute_fields, compute_ids) = kind_fields(c, true);
        let mut plan = PipelinePlan {
            render_fields,
            compute_fields,
            groups: [Vec::new(), Vec::new()],
            compute_groups: Vec::new(),
            vertex_layouts: Vec::new(),
            variants: Vec::new(),
        };
        for (pass, variants) in c.effect.passes.iter().zip(&c.passes) {
            let mut per_pass = Vec::new();
            for v in variants {
                let first = &c.shaders[v.vertex].info;
                if pass.is_compute() {
                    let entries = shader_entries(&c.shaders[v.vertex], &compute_ids);
                    let group = intern(&mut plan.compute_groups, entries);
                    per_pass.push(VariantPlan::Compute(ComputeVariant { compute: v.vertex, group }));
                    continue;
                }
                let vertex_group = intern(&mut plan.groups[0], shader_entries(&c.shaders[v.vertex], &render_ids));
                let pixel_entries = v.pixel.map(|p| shader_entries(&c.shaders[p], &render_ids)).unwrap_or_default();
                let pixel_group = intern(&mut plan.groups[1], pixel_entries);
                let vertex_layout = vertex_attributes(&first.inputs, &c.effect.vertex_formats)
                    .map(|(attributes, stride)| plan.intern_vertex_layout(attributes, stride));
                per_pass.push(VariantPlan::Render(RenderVariant {
                    vertex: v.vertex,
                    pixel: v.pixel,
                    vertex_group,
                    pixel_group,
                    vertex_layout,
                }));
            }
            plan.variants.push(per_pass);
        }
        plan
    }

    /// Every variant in pass-major order (the order of the generated `VARIANTS` table of an
    /// effect whose passes are all render or all compute passes), with its pass and permutation
    /// indices.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize, &VariantPlan)> {
        self.variants.iter().enumerate().flat_map(|(p, per)| per.iter().enumerate().map(move |(i, v)| (p, i, v)))
    }

    /// The bind group layout entries of a render variant: `[group 0, group 1]`.
    pub fn entries(&self, v: &RenderVariant) -> [&[GroupEntry]; 2] {
        [&self.groups[0][v.vertex_group], &self.groups[1][v.pixel_group]]
    }

    /// The bind group layout entries of a compute variant (group 0).
    pub fn compute_entries(&self, v: &ComputeVariant) -> &[GroupEntry] {
        &self.compute_groups[v.group]
    }

    /// The fields of the render passes' (`compute == false`) or the compute passes' resources
    /// struct.
    pub fn fields(&self, compute: bool) -> &[ResourceField] {
        if compute {
            &self.compute_fields
        } else {
            &self.render_fields
        }
    }

    /// The field a bind group layout entry binds.
    pub fn field(&self, id: FieldId) -> &ResourceField {
        &self.fields(id.compute)[id.index]
    }

    /// Index of an identical layout, or of the new one, named after its attributes.
    fn intern_vertex_layout(&mut self, attributes: Vec<VertexAttribute>, stride: u32) -> usize {
        let key = |a: &VertexAttribute| (a.location, a.format, a.offset);
        if let Some(i) =
            self.vertex_layouts.iter().position(|l| l.attributes.iter().map(key).eq(attributes.iter().map(key)))
        {
            return i;
        }
        let mut name = String::from("Vertex");
        for a in &attributes {
            name.push_str(&pascal_case(&a.field));
        }
        let base = name.clone();
        let mut n = 2;
        while self.vertex_layouts.iter().any(|l| l.struct_name == name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.vertex_layouts.push(VertexLayout { struct_name: name, attributes, stride });
        self.vertex_layouts.len() - 1
    }
}

/// A stage's bindings as bind group layout entries: sorted by binding number (those of a bare
/// shader, which has no resources struct; an effect's are [`GroupEntry`]s of the plan).
pub fn group_entries(bindings: &[Binding]) -> Vec<Binding> {
    let mut entries = bindings.to_vec();
    entries.sort_by_key(|b| b.binding);
    entries
}

/// A shader's bindings as bind group layout entries, sorted by binding number, each with its
/// field: `ids` maps a field of [`CompiledEffect::resources`] to its id in the struct of the
/// shader's kind of pass.
fn shader_entries(s: &CompiledShader, ids: &[Option<FieldId>]) -> Vec<GroupEntry> {
    let mut entries: Vec<GroupEntry> = bound_fields(s)
        .map(|(b, fi)| GroupEntry {
            binding: b.clone(),
            field: ids[fi].unwrap_or_else(|| {
                panic!(
                    "internal error: the field of {} in {} is not one of its passes' fields",
                    b.register, s.labels[0]
                )
            }),
        })
        .collect();
    entries.sort_by_key(|e| e.binding.binding);
    entries
}

/// A shader's bindings, each with the field of [`CompiledEffect::resources`] it binds.
fn bound_fields(s: &CompiledShader) -> impl Iterator<Item = (&Binding, usize)> {
    s.info.bindings.iter().map(|b| {
        let field = s.fields.get(&b.register).copied();
        (b, field.unwrap_or_else(|| panic!("internal error: {} binds {} to no field", s.labels[0], b.register)))
    })
}

/// The fields of the resources struct of the render passes (`compute == false`) or of the
/// compute passes (see [`PipelinePlan::render_fields`]), and the id of each field of
/// [`CompiledEffect::resources`] in it (`None`: those passes do not bind it).
fn kind_fields(c: &CompiledEffect, compute: bool) -> (Vec<ResourceField>, Vec<Option<FieldId>>) {
    let variants: Vec<_> =
        c.effect.passes.iter().zip(&c.passes).filter(|(p, _)| p.is_compute() == compute).flat_map(|(_, v)| v).collect();
    let mut fields: Vec<ResourceField> = Vec::new();
    let mut ids: Vec<Option<FieldId>> = vec![None; c.resources.len()];
    for v in &variants {
        for si in std::iter::once(v.vertex).chain(v.pixel) {
            let s = &c.shaders[si];
            for (b, fi) in bound_fields(s) {
                let (reg, describe) = (b.register.to_string(), crate::stage::describe(&b.kind));
                match ids[fi] {
                    Some(id) => {
                        let f = &mut fields[id.index];
                        if !f.registers.contains(&(s.info.stage, reg.clone())) {
                            f.registers.push((s.info.stage, reg));
                        }
                        if !f.kinds.contains(&describe) {
                            f.kinds.push(describe);
                        }
                    }
                    None => {
                        ids[fi] = Some(FieldId { compute, index: fields.len() });
                        fields.push(ResourceField {
                            registers: vec![(s.info.stage, reg)],
                            kinds: vec![describe],
                            required: false,
                            ..c.resources[fi].clone()
                        });
                    }
                }
            }
        }
    }
    for (fi, id) in ids.iter().enumerate() {
        let Some(id) = id else { continue };
        fields[id.index].required = variants.iter().all(|v| {
            std::iter::once(v.vertex).chain(v.pixel).any(|si| bound_fields(&c.shaders[si]).any(|(_, f)| f == fi))
        });
    }
    (fields, ids)
}

fn intern<T: PartialEq>(list: &mut Vec<Vec<T>>, entries: Vec<T>) -> usize {
    match list.iter().position(|x| *x == entries) {
        Some(i) => i,
        None => {
            list.push(entries);
            list.len() - 1
        }
    }
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
        });
        offset += format.size;
    }
    let stride = offset.div_ceil(4) * 4;
    Some((attrs, stride))
}
