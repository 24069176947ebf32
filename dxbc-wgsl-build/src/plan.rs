//! The pipeline plan of a compiled effect: per pass and permutation, the shaders, the entries of
//! the bind group layouts and (render passes) the vertex buffer layout that the generated pipeline
//! constructors use.
//!
//! It is the one data model behind the generated code and the GPU validator:
//! [`crate::codegen::generate`] prints it as Rust (`VARIANTS`, `VERTEX_GROUPS`, `PIXEL_GROUPS`,
//! `COMPUTE_GROUPS`, `VERTEX_LAYOUTS`, the vertex structs, the resources structs and the bind
//! group entries made from them; for passes with a geometry shader `GEOMETRY_VARIANTS`, the
//! `GEOMETRY_*_GROUPS`, `GEOMETRY_STAGES` and the instance structs), and the `gpu` feature's
//! validator builds wgpu descriptors from the same values. The render states come from each pass's
//! [`PassStates`](crate::effect::states::PassStates), the formats from the caller.
//!
//! Each bind group layout entry holds the resources-struct field it binds ([`FieldId`]), taken
//! from the field that [`crate::compile`] decided for the shader's binding
//! ([`CompiledShader::fields`]); nothing downstream looks a field up by name.

use crate::compile::{CompiledEffect, CompiledShader, ResourceField};
use crate::effect::{pascal_case, PassKind};
pub use crate::vertex_layout::{vertex_attributes, VertexAttribute};
use dxbc_wgsl::ResourceBinding as Binding;

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
    /// Fields of the resources struct of the passes with a geometry shader
    /// (`GeometryResources`), the same way.
    pub geometry_fields: Vec<ResourceField>,
    /// Distinct bind group layouts of the passes with a geometry shader, by group: `[0]` the
    /// vertex shader's resources (a compute module there: visibility `COMPUTE`), `[1]` the pixel
    /// shader's (`FRAGMENT`), `[2]` the geometry shader's (`COMPUTE`). Their fields are
    /// [`PipelinePlan::geometry_fields`]. The primitive stage's own buffers (group 3) are the
    /// runtime's, fixed by `dxbc_wgsl::geometry`.
    pub geometry_groups: [Vec<Vec<GroupEntry>>; 3],
    /// Distinct descriptions of primitive stages (the runtime's `StageDesc`).
    pub stage_descs: Vec<StageDesc>,
    /// Distinct vertex buffer layouts (one generated vertex struct each): a render pass's
    /// buffer, and the per-vertex slot (0) of a pass with a geometry shader.
    pub vertex_layouts: Vec<VertexLayout>,
    /// Distinct per-instance layouts (slot 1 of a pass with a geometry shader, `[instance_data]`):
    /// one generated instance struct each.
    pub instance_layouts: Vec<VertexLayout>,
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
    kind: PassKind,
    index: usize,
}

impl FieldId {
    /// Whether it is a field of the compute passes' struct.
    pub fn is_compute(self) -> bool {
        self.kind == PassKind::Compute
    }

    /// The kind of pass whose struct holds it.
    pub fn kind(self) -> PassKind {
        self.kind
    }

    /// Its position in its struct's fields.
    pub fn index(self) -> usize {
        self.index
    }
}

/// One pass of one permutation: a render pipeline, a compute pipeline, or a primitive stage, as
/// the pass is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariantPlan {
    /// A render pass's pipeline.
    Render(RenderVariant),
    /// A compute pass's pipeline.
    Compute(ComputeVariant),
    /// A pass with a geometry shader: the primitive stage's pipelines.
    Geometry(GeometryVariant),
}

/// One pass with a geometry shader, of one permutation: the runtime's vertex, geometry and
/// assembly compute pipelines and the draw's render pipeline (`docs/geometry.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GeometryVariant {
    /// The vertex shader translated as compute (index into [`CompiledEffect::shaders`]).
    pub vertex: usize,
    /// The geometry shader.
    pub geometry: usize,
    /// The draw's pass-through vertex shader.
    pub draw_vertex: usize,
    /// The pixel shader (translated behind geometry), if the pass has one.
    pub pixel: Option<usize>,
    /// Bind group layouts: indices into [`PipelinePlan::geometry_groups`] `[0]` (vertex), `[1]`
    /// (pixel), `[2]` (geometry).
    pub groups: [usize; 3],
    /// The per-vertex layout (slot 0; index into [`PipelinePlan::vertex_layouts`]).
    pub vertex_layout: Option<usize>,
    /// The per-instance layout (slot 1; index into [`PipelinePlan::instance_layouts`]).
    pub instance_layout: Option<usize>,
    /// The primitive stage's description (index into [`PipelinePlan::stage_descs`]).
    pub stage: usize,
    /// The geometry shader writes per-primitive values (docs/per-primitive.md): the draw's
    /// pipeline layout has the selection uniform as group 3.
    pub select: bool,
    /// The pass's stream output: its resolved declaration (index into
    /// [`CompiledEffect::stream_outputs`]).
    pub stream_output: Option<usize>,
}

/// What is fixed about one pass with a geometry shader, as the runtime's `StageDesc` takes it:
/// the geometry shader's `GeometryInfo` and the vertex buffer slots its vertex shader pulls.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StageDesc {
    /// `dcl_inputprimitive`.
    pub input_primitive: dxbc_wgsl::geometry::InputPrimitive,
    /// Registers per vertex record.
    pub input_registers: u32,
    /// Registers per output vertex.
    pub output_registers: u32,
    /// `dcl_maxout`.
    pub max_vertices: u32,
    /// `dcl_gsinstances` (1 without it).
    pub gs_instances: u32,
    /// Output index words per invocation (0 for a point list).
    pub index_stride: u32,
    /// `dcl_outputtopology` (`None`: the shader emits nothing).
    pub output: Option<dxbc_wgsl::geometry::OutputTopology>,
    /// The vertex buffer slots the vertex shader pulls, ascending.
    pub vertex_slots: Vec<u32>,
    /// Byte stride per slot in [`StageDesc::vertex_slots`] (the same order).
    pub vertex_strides: Vec<u32>,
    /// How a geometry module translated with stream output lays out its streams
    /// ([`dxbc_wgsl::geometry::GeometryInfo::streams`]; `None`: the plain translation).
    pub streams: Option<dxbc_wgsl::geometry::StreamInfo>,
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
    /// The vertex shader writes per-primitive values (docs/per-primitive.md): the pixel shader
    /// was translated with their selection, and the pipeline layout has the selection uniform
    /// as group 3 (group 2 empty).
    pub select: bool,
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

impl PipelinePlan {
    /// The plan of a compiled effect.
    pub fn new(c: &CompiledEffect) -> Self {
        let (render_fields, render_ids) = kind_fields(c, PassKind::Render);
        let (compute_fields, compute_ids) = kind_fields(c, PassKind::Compute);
        let (geometry_fields, geometry_ids) = kind_fields(c, PassKind::Geometry);
        let mut plan = PipelinePlan {
            render_fields,
            compute_fields,
            groups: [Vec::new(), Vec::new()],
            compute_groups: Vec::new(),
            geometry_fields,
            geometry_groups: [Vec::new(), Vec::new(), Vec::new()],
            stage_descs: Vec::new(),
            vertex_layouts: Vec::new(),
            instance_layouts: Vec::new(),
            variants: Vec::new(),
        };
        for (pass, variants) in c.effect.passes.iter().zip(&c.passes) {
            let mut per_pass = Vec::new();
            for v in variants {
                let first = &c.shaders[v.vertex].info;
                if let Some(g) = v.geometry {
                    let entries =
                        |s: Option<usize>| s.map(|s| shader_entries(&c.shaders[s], &geometry_ids)).unwrap_or_default();
                    let groups = [
                        intern(&mut plan.geometry_groups[0], entries(Some(v.vertex))),
                        intern(&mut plan.geometry_groups[1], entries(v.pixel)),
                        intern(&mut plan.geometry_groups[2], entries(Some(g.geometry))),
                    ];
                    let layout = &c.input_layouts[g.input_layout];
                    let vertex_layout = layout
                        .vertices
                        .clone()
                        .map(|(attributes, stride)| plan.intern_vertex_layout(attributes, stride));
                    let instance_layout = layout
                        .instances
                        .clone()
                        .map(|(attributes, stride)| plan.intern_instance_layout(attributes, stride));
                    let info =
                        c.shaders[g.geometry].info.geometry.clone().expect("compile checked the geometry shader");
                    let (vertex_slots, vertex_strides) = layout.slots().map(|(slot, _, stride)| (slot, stride)).unzip();
                    let desc = StageDesc {
                        input_primitive: info.input_primitive,
                        input_registers: info.input_registers,
                        output_registers: info.output_registers,
                        max_vertices: info.max_vertices,
                        gs_instances: info.instances,
                        index_stride: info.index_stride,
                        output: info.output_topology,
                        vertex_slots,
                        vertex_strides,
                        streams: info.streams,
                    };
                    let stage = intern_one(&mut plan.stage_descs, desc);
                    per_pass.push(VariantPlan::Geometry(GeometryVariant {
                        vertex: v.vertex,
                        geometry: g.geometry,
                        draw_vertex: g.draw_vertex,
                        pixel: v.pixel,
                        groups,
                        vertex_layout,
                        instance_layout,
                        stage,
                        select: v.pixel.is_some() && c.shaders[g.geometry].info.per_primitive.selects(),
                        stream_output: g.stream_output,
                    }));
                    continue;
                }
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
                    select: v.pixel.is_some() && c.shaders[v.vertex].info.per_primitive.selects(),
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

    /// The bind group layout entries of a pass with a geometry shader: `[group 0 (vertex),
    /// group 1 (pixel), group 2 (geometry)]`.
    pub fn geometry_entries(&self, v: &GeometryVariant) -> [&[GroupEntry]; 3] {
        [0, 1, 2].map(|g| self.geometry_groups[g][v.groups[g]].as_slice())
    }

    /// The fields of the render passes' (`compute == false`) or the compute passes' resources
    /// struct.
    pub fn fields(&self, compute: bool) -> &[ResourceField] {
        self.fields_of(if compute { PassKind::Compute } else { PassKind::Render })
    }

    /// The fields of the resources struct of one kind of pass.
    pub fn fields_of(&self, kind: PassKind) -> &[ResourceField] {
        match kind {
            PassKind::Render => &self.render_fields,
            PassKind::Compute => &self.compute_fields,
            PassKind::Geometry => &self.geometry_fields,
        }
    }

    /// The field a bind group layout entry binds.
    pub fn field(&self, id: FieldId) -> &ResourceField {
        &self.fields_of(id.kind)[id.index]
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

    /// Index of an identical per-instance layout, or of the new one, named after its attributes
    /// (`InstanceTexcoord4`).
    fn intern_instance_layout(&mut self, attributes: Vec<VertexAttribute>, stride: u32) -> usize {
        let key = |a: &VertexAttribute| (a.location, a.format, a.offset, a.instance_step_rate);
        if let Some(i) =
            self.instance_layouts.iter().position(|l| l.attributes.iter().map(key).eq(attributes.iter().map(key)))
        {
            return i;
        }
        let mut name = String::from("Instance");
        for a in &attributes {
            name.push_str(&pascal_case(&a.field));
        }
        let base = name.clone();
        let mut n = 2;
        while self.instance_layouts.iter().any(|l| l.struct_name == name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.instance_layouts.push(VertexLayout { struct_name: name, attributes, stride });
        self.instance_layouts.len() - 1
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
        let field = s.fields.get(&b.binding).copied();
        (b, field.unwrap_or_else(|| panic!("internal error: {} binds {} to no field", s.labels[0], b.register)))
    })
}

/// The fields of the resources struct of the render passes (`compute == false`) or of the
/// compute passes (see [`PipelinePlan::render_fields`]), and the id of each field of
/// [`CompiledEffect::resources`] in it (`None`: those passes do not bind it).
fn kind_fields(c: &CompiledEffect, kind: PassKind) -> (Vec<ResourceField>, Vec<Option<FieldId>>) {
    let variants: Vec<_> =
        c.effect.passes.iter().zip(&c.passes).filter(|(p, _)| p.kind() == kind).flat_map(|(_, v)| v).collect();
    let mut fields: Vec<ResourceField> = Vec::new();
    let mut ids: Vec<Option<FieldId>> = vec![None; c.resources.len()];
    for v in &variants {
        for si in v.stages() {
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
                        ids[fi] = Some(FieldId { kind, index: fields.len() });
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
        fields[id.index].required =
            variants.iter().all(|v| v.stages().any(|si| bound_fields(&c.shaders[si]).any(|(_, f)| f == fi)));
    }
    (fields, ids)
}

fn intern_one<T: PartialEq>(list: &mut Vec<T>, item: T) -> usize {
    match list.iter().position(|x| *x == item) {
        Some(i) => i,
        None => {
            list.push(item);
            list.len() - 1
        }
    }
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
