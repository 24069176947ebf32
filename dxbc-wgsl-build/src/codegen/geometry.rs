//! The generated API of the passes with a geometry shader (`docs/geometry.md`): the primitive
//! stage's runtime embedded once (`primitive_stage`), the `Geometry*` items shared by those passes
//! (`GeometryPass`, `GeometryShaders`, `GeometryLayouts`, `GeometryBindGroups`,
//! `GeometryPipelineOptions`), the per-instance structs, and per pass a stage type
//! (`MainStage` for pass `main`) with its prepared draw (`MainPrepared`).
//!
//! The order of the work is in the types: a stage type's `prepare` takes the
//! `&mut wgpu::CommandEncoder` that an open `wgpu::RenderPass` borrows, so it cannot run inside
//! the render pass; `draw` takes the pass's own prepared type, which only its `prepare` makes.

use super::{binding_type, opt, vertex_rust_type, Gen};
use crate::compile::FieldKind;
use crate::effect::states::{draw_topology_name, input_primitive_name, PassStates};
use crate::effect::{pascal_case, Pass};
use crate::plan::{GeometryVariant, GroupEntry, StageDesc, VariantPlan};
use crate::writer::W;
use dxbc_wgsl::geometry::{InputPrimitive, OutputTopology};
use dxbc_wgsl::ResourceKind as BindingKind;

impl Gen<'_> {
    /// Every item of the passes with a geometry shader (nothing without them).
    pub(super) fn geometry_api(&mut self) {
        if !self.has_geometry() {
            return;
        }
        self.geometry_runtime();
        self.geometry_shaders();
        self.geometry_variants();
        self.instance_structs();
        self.geometry_layouts();
        self.geometry_bind_groups();
        self.geometry_options();
        let passes = self.geometry.passes.clone();
        for p in passes {
            self.stage_type(p);
        }
    }

    /// Whether a pass with a geometry stage streams out: the module embeds
    /// `stream_output_runtime.rs` as `mod stream_output`.
    pub(super) fn streams_out(&self) -> bool {
        self.plan.variants.iter().flatten().any(|v| matches!(v, VariantPlan::Geometry(g) if g.stream_output.is_some()))
    }

    /// The runtime's stream output (`dxbc_wgsl_runtime::stream_output`) and the error of a
    /// stream-output pass's constructors.
    fn stream_output_runtime(&mut self) {
        let w = &mut self.w;
        w.blank();
        w.doc("Stream output (`dxbc_wgsl_runtime::stream_output`): D3D's stream-output stage as compute work");
        w.doc("over the primitive stage's output (docs/stream-output.md). The stage types of the passes that");
        w.doc("declare stream output drive it; its types (`SoTarget`, `SoStart`, `SoState`,");
        w.doc("`StreamOutputError`, `StreamOutputPassError`, ...) are part of their API.");
        w.line("pub use ::dxbc_wgsl_runtime::stream_output;");
        w.line("pub use ::dxbc_wgsl_runtime::stream_output::StreamOutputPassError;");
    }

    /// The runtime's primitive stage (`dxbc_wgsl_runtime::primitive_stage`).
    fn geometry_runtime(&mut self) {
        if self.streams_out() {
            self.stream_output_runtime();
        }
        let w = &mut self.w;
        w.blank();
        w.doc("The primitive stage (`dxbc_wgsl_runtime::primitive_stage`): D3D geometry shaders as compute work");
        w.doc("in front of a draw. The stage types of the passes with a geometry shader drive it; its types");
        w.doc("(`DrawCall`, `PrimitiveStageError`, ...) are part of their API, the same for every effect.");
        w.line("pub use ::dxbc_wgsl_runtime::primitive_stage;");
    }

    /// `GeometryShaders`, `GeometryPass` and `Permutation::geometry_shaders`.
    fn geometry_shaders(&mut self) {
        let c = self.c;
        let k = &self.geometry;
        let w = &mut self.w;
        w.blank();
        w.doc("The shaders of one permutation's pass with a geometry shader: the vertex shader translated as");
        w.doc("compute (it pulls the pass's input layout from storage buffers), the geometry shader (compute),");
        w.doc("the draw's pass-through vertex shader and the pixel shader (translated behind the geometry");
        w.doc("shader).");
        w.line("#[derive(Clone, Copy, Debug, PartialEq, Eq)]");
        w.open("pub struct GeometryShaders {");
        w.doc("The vertex shader, as a compute shader writing vertex records.");
        w.line("pub vertex: StageShader,");
        w.doc("The geometry shader, as a compute shader writing output vertices and strips.");
        w.line("pub geometry: StageShader,");
        w.doc("The draw's vertex shader: the geometry shader's output registers as vertex attributes.");
        w.line("pub draw_vertex: StageShader,");
        w.doc("Pixel (fragment) shader; `None` for a pass without one.");
        w.line("pub pixel: Option<StageShader>,");
        w.close("}");
        if let Some(name) = k.pass_enum {
            w.blank();
            w.doc("The passes of the effect with a geometry shader.");
            w.line("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]");
            w.open(&format!("pub enum {name} {{"));
            for &p in &k.passes {
                let pass = &c.effect.passes[p];
                w.doc(&format!("Pass `{}` ([`{}`]).", pass.name, pass.stage_type_names().0));
                w.line(&format!("{},", pascal_case(&pass.name)));
            }
            w.close("}");
            w.blank();
            w.open(&format!("impl {name} {{"));
            w.doc("Every such pass, in declaration order.");
            w.line(&format!(
                "pub const ALL: [{name}; {}] = [{}];",
                k.passes.len(),
                k.passes
                    .iter()
                    .map(|&p| format!("{name}::{}", pascal_case(&c.effect.passes[p].name)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            w.close("}");
        }
        let pass_param = k.pass_enum.map(|e| format!(", pass: {e}")).unwrap_or_default();
        let pass_index = if k.pass_enum.is_some() { "pass as usize * Self::COUNT + " } else { "" };
        w.blank();
        w.open("impl Permutation {");
        w.doc("The shaders of this permutation's pass with a geometry shader, or `None` when it is excluded.");
        w.open(&format!("pub fn geometry_shaders(self{pass_param}) -> Option<GeometryShaders> {{"));
        w.open("self.index().map(|i| {");
        w.line(&format!("let v = GEOMETRY_VARIANTS[{pass_index}i];"));
        w.open("GeometryShaders {");
        w.line("vertex: SHADERS[v.vertex],");
        w.line("geometry: SHADERS[v.geometry],");
        w.line("draw_vertex: SHADERS[v.draw_vertex],");
        w.line("pixel: v.pixel.map(|p| SHADERS[p]),");
        w.close("}");
        w.close("})");
        w.close("}");
        w.close("}");
    }

    /// The variants of the passes with a geometry shader (pass-major), the stage descriptions,
    /// and the private function that finds a variant.
    fn geometry_variants(&mut self) {
        let selects = self.selects();
        let streams_out = self.streams_out();
        let k = &self.geometry;
        let rows: Vec<String> = k
            .passes
            .iter()
            .flat_map(|&p| &self.plan.variants[p])
            .filter_map(|v| match v {
                VariantPlan::Geometry(v) => Some(format!(
                    "GeometryVariantInfo {{ vertex: {}, geometry: {}, draw_vertex: {}, pixel: {}, groups: [{}, {}, {}], stage: {}{}{} }},",
                    v.vertex,
                    v.geometry,
                    v.draw_vertex,
                    opt(v.pixel),
                    v.groups[0],
                    v.groups[1],
                    v.groups[2],
                    v.stage,
                    if selects { format!(", select: {}", v.select) } else { String::new() },
                    if streams_out { format!(", stream_output: {}", opt(v.stream_output)) } else { String::new() }
                )),
                _ => None,
            })
            .collect();
        let pass_param = k.pass_enum.map(|e| format!(", pass: {e}")).unwrap_or_default();
        let (pass_index, pass_arg) =
            if k.pass_enum.is_some() { ("pass as usize * Permutation::COUNT + ", "{pass:?} ") } else { ("", "") };
        let w = &mut self.w;
        w.blank();
        w.line("/// Per pass with a geometry shader and permutation: shaders, bind group layouts and stage.");
        w.line("#[derive(Clone, Copy, Debug)]");
        w.open("struct GeometryVariantInfo {");
        w.line("vertex: usize,");
        w.line("geometry: usize,");
        w.line("draw_vertex: usize,");
        w.line("pixel: Option<usize>,");
        w.line("groups: [usize; 3],");
        w.line("stage: usize,");
        if selects {
            w.line("select: bool,");
        }
        if streams_out {
            w.line("stream_output: Option<usize>,");
        }
        w.close("}");
        w.blank();
        w.open(&format!("const GEOMETRY_VARIANTS: [GeometryVariantInfo; {}] = [", rows.len()));
        for r in rows {
            w.line(&r);
        }
        w.close("];");
        w.blank();
        w.line("/// The variant's position in `GEOMETRY_VARIANTS`, and the variant.");
        w.open(&format!(
            "fn geometry_variant(permutation: Permutation{pass_param}) -> (usize, GeometryVariantInfo) {{"
        ));
        w.open("match permutation.index() {");
        w.line(&format!("Some(i) => ({pass_index}i, GEOMETRY_VARIANTS[{pass_index}i]),"));
        w.line(&format!(
            "None => panic!(\"{{NAME}}: {pass_arg}permutation {{permutation:?}} is excluded by the effect file\"),"
        ));
        w.close("}");
        w.close("}");
        let stages = &self.plan.stage_descs;
        w.blank();
        w.line("/// The primitive stages' descriptions (from the geometry shaders' translations and the input");
        w.line("/// layouts), as the runtime takes them.");
        w.open(&format!("const GEOMETRY_STAGES: [primitive_stage::StageDesc; {}] = [", stages.len()));
        for s in stages {
            stage_desc(w, s);
        }
        w.close("];");
        if !streams_out {
            return;
        }
        w.blank();
        w.line("/// Per primitive stage, how its geometry module lays out the streams it keeps (`None`: the plain");
        w.line("/// translation): the runtime's chunk layout and the stream-output kernels' view of it.");
        w.open(&format!(
            "const GEOMETRY_STREAMS: [Option<(primitive_stage::StreamStage, stream_output::SoLayout)>; {}] = [",
            stages.len()
        ));
        for s in stages {
            match &s.streams {
                None => w.line("None,"),
                Some(i) => w.line(&format!(
                    "Some((primitive_stage::StreamStage {{ slots: {}, regions: {}, index_stride: {}, drawn: {} }}, stream_output::SoLayout {{ registers: {}, index_stride: {}, prim_vertices: {}, regions: [{}] }})),",
                    i.slots,
                    i.regions,
                    i.index_stride,
                    i.drawn,
                    s.output_registers.max(1),
                    i.index_stride,
                    i.prim_vertices,
                    i.so_regions.iter().map(|r| opt(*r)).collect::<Vec<_>>().join(", ")
                )),
            }
        }
        w.close("];");
        w.blank();
        w.line("/// The resolved stream-output declarations (D3D11.3 §14.4), by index.");
        w.open("fn stream_output_desc(i: usize) -> stream_output::SoDesc {");
        w.open("match i {");
        for (i, d) in self.c.stream_outputs.iter().enumerate() {
            w.open(&format!("{i} => stream_output::SoDesc {{"));
            w.open("entries: vec![");
            for e in d.runtime_entries() {
                w.line(&format!(
                    "stream_output::SoEntry {{ stream: {}, register: {}, start_component: {}, component_count: {}, slot: {} }},",
                    e.stream,
                    opt(e.register),
                    e.start_component,
                    e.component_count,
                    e.slot
                ));
            }
            w.close("],");
            w.line(&format!("strides: {:?},", d.strides));
            w.line(&format!("rasterized_stream: {},", opt(d.rasterized)));
            w.close("},");
        }
        w.line("_ => unreachable!(\"no such stream-output declaration\"),");
        w.close("}");
        w.close("}");
    }

    /// One `#[repr(C)]` struct per per-instance layout (`[instance_data]`, vertex buffer slot 1).
    fn instance_structs(&mut self) {
        let w = &mut self.w;
        for l in &self.plan.instance_layouts {
            w.blank();
            w.doc("One instance's elements (`[instance_data]`, vertex buffer slot 1 of a pass with a geometry");
            w.doc("shader), tightly packed; the vertex shader pulls them from a storage buffer.");
            w.doc("");
            let attrs: Vec<String> = l
                .attributes
                .iter()
                .map(|a| {
                    format!(
                        "`{}` {} at byte {} (location {}, step rate {})",
                        a.semantic,
                        a.format.webgpu,
                        a.offset,
                        a.location,
                        a.instance_step_rate.unwrap_or(0)
                    )
                })
                .collect();
            w.doc(&format!("Elements: {}; stride {} bytes.", attrs.join(", "), l.stride));
            w.line("#[repr(C)]");
            w.line("#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]");
            w.open(&format!("pub struct {} {{", l.struct_name));
            let mut cursor = 0;
            let mut pad = 0;
            for a in &l.attributes {
                if a.offset > cursor {
                    w.doc("Padding.");
                    w.line(&format!("pub _pad{pad}: [u8; {}],", a.offset - cursor));
                    pad += 1;
                }
                w.doc(&format!(
                    "`{}` (location {}), {}, one element per {} instance{}.",
                    a.semantic,
                    a.location,
                    a.format.webgpu,
                    a.instance_step_rate.unwrap_or(0),
                    if a.instance_step_rate == Some(1) { "" } else { "s (0: every instance reads the first)" }
                ));
                w.line(&format!("pub {}: {},", a.field, vertex_rust_type(&a.format)));
                cursor = a.offset + a.format.size;
            }
            if l.stride > cursor {
                w.doc("Padding.");
                w.line(&format!("pub _pad{pad}: [u8; {}],", l.stride - cursor));
            }
            w.close("}");
            w.blank();
            w.line(&format!("const _: () = assert!(core::mem::size_of::<{}>() == {});", l.struct_name, l.stride));
            for a in &l.attributes {
                w.line(&format!(
                    "const _: () = assert!(core::mem::offset_of!({}, {}) == {});",
                    l.struct_name, a.field, a.offset
                ));
            }
        }
    }

    /// The bind group layout tables, `geometry_bind_group_layout_entries` and `GeometryLayouts`.
    fn geometry_layouts(&mut self) {
        let e = &self.c.effect;
        let k = &self.geometry;
        let pass_param = k.pass_enum.map(|e| format!(", pass: {e}")).unwrap_or_default();
        let pass_first = k.pass_enum.map(|e| format!("pass: {e}, ")).unwrap_or_default();
        let pass_arg = if k.pass_enum.is_some() { ", pass" } else { "" };
        let w = &mut self.w;
        for (g, (name, vis)) in [
            ("GEOMETRY_VERTEX_GROUPS", "COMPUTE"),
            ("GEOMETRY_PIXEL_GROUPS", "FRAGMENT"),
            ("GEOMETRY_GEOMETRY_GROUPS", "COMPUTE"),
        ]
        .into_iter()
        .enumerate()
        {
            let list = &self.plan.geometry_groups[g];
            w.blank();
            w.open(&format!("const {name}: [&[wgpu::BindGroupLayoutEntry]; {}] = [", list.len()));
            for entries in list {
                if entries.is_empty() {
                    w.line("&[],");
                    continue;
                }
                w.open("&[");
                for b in entries.iter().map(|e| &e.binding) {
                    w.open("wgpu::BindGroupLayoutEntry {");
                    w.line(&format!("binding: {},", b.binding));
                    w.line(&format!("visibility: wgpu::ShaderStages::{vis},"));
                    w.line(&format!("ty: {},", binding_type(b)));
                    w.line("count: None,");
                    w.close("},");
                }
                w.close("],");
            }
            w.close("];");
        }
        w.blank();
        w.doc("The entries of the bind group layouts of a permutation's pass with a geometry shader,");
        w.doc("`[group 0 (vertex), group 1 (pixel), group 2 (geometry)]`, as [`GeometryLayouts::new`] creates");
        w.doc("them. The vertex and geometry shaders run as compute shaders, so their entries are visible to");
        w.doc("`COMPUTE`. The primitive stage's own buffers (group 3) are the runtime's.");
        w.doc("");
        w.doc("# Panics");
        w.doc("");
        w.doc("If `permutation` is a combination the effect file excludes (not in [`Permutation::ALL`]).");
        w.open(&format!(
            "pub fn geometry_bind_group_layout_entries({pass_first}permutation: Permutation) -> [&'static [wgpu::BindGroupLayoutEntry]; 3] {{"
        ));
        w.line(&format!("let (_, v) = geometry_variant(permutation{pass_arg});"));
        w.line(
            "[GEOMETRY_VERTEX_GROUPS[v.groups[0]], GEOMETRY_PIXEL_GROUPS[v.groups[1]], GEOMETRY_GEOMETRY_GROUPS[v.groups[2]]]",
        );
        w.close("}");
        w.blank();
        w.doc("The bind group layouts of one permutation's pass with a geometry shader: group 0 holds the");
        w.doc("vertex shader's resources, group 1 the pixel shader's and group 2 the geometry shader's (empty");
        w.doc("when a stage binds nothing), as `docs/binding-model.md` of dxbc-wgsl describes. The runtime");
        w.doc("makes the pipeline layouts (with its group 3).");
        w.line("#[derive(Clone, Debug)]");
        w.open("pub struct GeometryLayouts {");
        if let Some(p) = k.pass_enum {
            w.doc("The pass they were made for.");
            w.line(&format!("pub pass: {p},"));
        }
        w.doc("The permutation they were made for.");
        w.line("pub permutation: Permutation,");
        w.doc("`@group(0)`: the vertex shader's resources.");
        w.line("pub vertex: wgpu::BindGroupLayout,");
        w.doc("`@group(1)`: the pixel shader's resources.");
        w.line("pub pixel: wgpu::BindGroupLayout,");
        w.doc("`@group(2)`: the geometry shader's resources.");
        w.line("pub geometry: wgpu::BindGroupLayout,");
        w.close("}");
        w.blank();
        w.open("impl GeometryLayouts {");
        w.doc("Creates the layouts of a permutation.");
        w.doc("");
        w.doc("# Panics");
        w.doc("");
        w.doc("If `permutation` is a combination the effect file excludes (not in [`Permutation::ALL`]).");
        w.open(&format!("pub fn new(device: &wgpu::Device{pass_param}, permutation: Permutation) -> Self {{"));
        w.line(&format!(
            "let [vertex, pixel, geometry] = geometry_bind_group_layout_entries({pass_first_arg}permutation);",
            pass_first_arg = if k.pass_enum.is_some() { "pass, " } else { "" }
        ));
        w.open("let layout = |label: &str, entries: &[wgpu::BindGroupLayoutEntry]| {");
        w.line("device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries })");
        w.close("};");
        w.open("GeometryLayouts {");
        if k.pass_enum.is_some() {
            w.line("pass,");
        }
        w.line("permutation,");
        for (field, g, what) in [("vertex", 0, "vertex"), ("pixel", 1, "pixel"), ("geometry", 2, "geometry")] {
            w.line(&format!("{field}: layout({:?}, {field}),", format!("{} group {g} ({what})", e.name)));
        }
        w.close("}");
        w.close("}");
        w.close("}");
    }

    /// `GeometryBindGroups` and the private function that makes their entries.
    fn geometry_bind_groups(&mut self) {
        let e = &self.c.effect;
        let k = &self.geometry;
        let pass_arg = if k.pass_enum.is_some() { ", layouts.pass" } else { "" };
        let w = &mut self.w;
        w.blank();
        w.doc("The bind groups of one permutation's pass with a geometry shader: group 0 (vertex), group 1");
        w.doc("(pixel) and group 2 (geometry). The pass's stage type sets them: groups 0 and 2 in `prepare`,");
        w.doc("group 1 in `draw`.");
        w.line("#[derive(Clone, Debug)]");
        w.open("pub struct GeometryBindGroups {");
        w.doc("`@group(0)`: the vertex shader's resources.");
        w.line("pub vertex: wgpu::BindGroup,");
        w.doc("`@group(1)`: the pixel shader's resources.");
        w.line("pub pixel: wgpu::BindGroup,");
        w.doc("`@group(2)`: the geometry shader's resources.");
        w.line("pub geometry: wgpu::BindGroup,");
        w.doc("The pass and permutation (position in `GEOMETRY_VARIANTS`) the groups were made for.");
        w.line("variant: usize,");
        w.close("}");
        w.blank();
        w.open("impl GeometryBindGroups {");
        w.doc("Creates the bind groups for `layouts` from `resources`.");
        w.doc("");
        w.doc("# Errors");
        w.doc("");
        w.doc("[`MissingResource`] when the permutation binds a resource given as `None`.");
        w.open(
            "pub fn new(device: &wgpu::Device, layouts: &GeometryLayouts, resources: &GeometryResources<'_>) -> Result<Self, MissingResource> {",
        );
        w.line(&format!("let (variant, v) = geometry_variant(layouts.permutation{pass_arg});"));
        w.open("let group = |g: u32, layout: &wgpu::BindGroupLayout, label: &str| -> Result<wgpu::BindGroup, MissingResource> {");
        w.line("let entries = geometry_group_entries(g, v.groups[g as usize], resources)?;");
        w.line("Ok(device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout, entries: &entries }))");
        w.close("};");
        w.open("Ok(GeometryBindGroups {");
        for (field, g, what) in [("vertex", 0, "vertex"), ("pixel", 1, "pixel"), ("geometry", 2, "geometry")] {
            w.line(&format!("{field}: group({g}, &layouts.{field}, {:?})?,", format!("{} group {g} ({what})", e.name)));
        }
        w.line("variant,");
        w.close("})");
        w.close("}");
        w.close("}");
        let plan = &self.plan;
        w.blank();
        w.open(
            "fn geometry_group_entries<'a>(group: u32, index: usize, r: &GeometryResources<'a>) -> Result<Vec<wgpu::BindGroupEntry<'a>>, MissingResource> {",
        );
        if plan.geometry_groups.iter().flatten().all(|g| g.is_empty()) {
            w.line("let _ = (group, index, r);");
            w.line("Ok(Vec::new())");
        } else {
            w.open("Ok(match (group, index) {");
            for (g, list) in plan.geometry_groups.iter().enumerate() {
                for (i, entries) in list.iter().enumerate() {
                    if entries.is_empty() {
                        continue;
                    }
                    w.open(&format!("({g}, {i}) => vec!["));
                    for entry in entries {
                        group_entry(w, plan, entry);
                    }
                    w.close("],");
                }
            }
            w.line("_ => Vec::new(),");
            w.close("})");
        }
        w.close("}");
    }

    /// `GeometryPipelineOptions`.
    fn geometry_options(&mut self) {
        let w = &mut self.w;
        w.blank();
        w.doc("The draw's states, for the `new_with` constructors of the stage types.");
        w.line("#[derive(Clone, Debug)]");
        w.open("pub struct GeometryPipelineOptions<'a> {");
        w.doc("Label prefix of the pipelines and buffers (the pass's name when `None`).");
        w.line("pub label: Option<&'a str>,");
        w.doc("One entry per render target the pixel shader writes (`SV_Target0`, ...).");
        w.line("pub color_targets: &'a [Option<wgpu::ColorTargetState>],");
        w.doc("Depth-stencil state, if the pass has a depth buffer.");
        w.line("pub depth_stencil: Option<wgpu::DepthStencilState>,");
        w.doc("Rasterizer state (cull mode, front face, depth clipping); its topology and strip index format");
        w.doc("are the runtime's (the geometry shader's output topology).");
        w.line("pub primitive: wgpu::PrimitiveState,");
        w.doc("Multisampling.");
        w.line("pub multisample: wgpu::MultisampleState,");
        w.doc("A cap on the bytes of one chunk's buffers (`None`: the device's binding limits); a smaller cap");
        w.doc("splits draws into more chunks.");
        w.line("pub max_binding_bytes: Option<u64>,");
        w.close("}");
    }

    /// The stage type of pass `p` and its prepared draw.
    fn stage_type(&mut self, p: usize) {
        let c_selects = self.selects();
        let c = self.c;
        let pass = &c.effect.passes[p];
        let g = pass.geometry.as_ref().expect("a pass with a geometry shader");
        let (stage, prepared) = pass.stage_type_names();
        let variants: Vec<GeometryVariant> = self.plan.variants[p]
            .iter()
            .filter_map(|v| match v {
                VariantPlan::Geometry(v) => Some(*v),
                _ => None,
            })
            .collect();
        let pass_enum = self.geometry.pass_enum.map(|e| format!("{e}::{}", pascal_case(&pass.name)));
        let pass_arg = pass_enum.as_ref().map(|p| format!(", {p}")).unwrap_or_default();
        let states = &pass.states;
        // A pass with stream output: the declaration resolved for its first permutation (the
        // strides and the rasterized stream do not depend on the shaders' registers).
        let so = variants.first().and_then(|v| v.stream_output).map(|i| &c.stream_outputs[i]);
        let new_error = if so.is_some() { "StreamOutputPassError" } else { "primitive_stage::PrimitiveStageError" };
        // What the pass's permutations need beyond WebGPU's defaults.
        let need = self.needs(&variants);
        let features = self.features(pass, &variants);
        // The input layouts of its permutations, for the documentation.
        let mut vertex_structs: Vec<&str> = variants
            .iter()
            .filter_map(|v| v.vertex_layout)
            .map(|l| self.plan.vertex_layouts[l].struct_name.as_str())
            .collect();
        vertex_structs.dedup();
        let mut instance_structs: Vec<&str> = variants
            .iter()
            .filter_map(|v| v.instance_layout)
            .map(|l| self.plan.instance_layouts[l].struct_name.as_str())
            .collect();
        instance_structs.dedup();
        let outputs: Vec<&str> = {
            let mut o: Vec<&str> = variants
                .iter()
                .map(|v| match self.plan.stage_descs[v.stage].output {
                    Some(OutputTopology::PointList) => "points",
                    Some(OutputTopology::LineStrip) => "line strips",
                    Some(OutputTopology::TriangleStrip) => "triangle strips",
                    None => "nothing (no dcl_outputtopology)",
                })
                .collect();
            o.sort_unstable();
            o.dedup();
            o
        };
        let primitives: Vec<String> = {
            let mut o: Vec<String> =
                variants.iter().map(|v| input_primitive_name(self.plan.stage_descs[v.stage].input_primitive)).collect();
            o.sort();
            o.dedup();
            o
        };
        let w = &mut self.w;
        w.blank();
        w.doc(&format!(
            "Pass `{}`: its vertex shader, geometry shader and {} as D3D draws them, on WebGPU (which has no",
            pass.name,
            if pass.pixel.is_some() { "pixel shader" } else { "depth-only draw (no pixel shader)" }
        ));
        w.doc("geometry stage): compute work recorded before the render pass ([`Self::prepare`]), and a draw");
        w.doc("inside it ([`Self::draw`]) of what the geometry shader emitted, in D3D's order");
        w.doc("(`docs/geometry.md` of dxbc-wgsl).");
        w.doc("");
        w.doc(&format!(
            "The geometry shader reads {} and emits {}; the effect file draws {} (`topology`, [`Self::TOPOLOGY`]).",
            primitives.join(" or "),
            outputs.join(" or "),
            draw_topology_name(g.topology)
        ));
        let slot0 = if vertex_structs.is_empty() {
            "no vertex buffer (the vertex shader reads no attributes)".to_string()
        } else {
            format!(
                "vertex buffer slot 0 holds {}",
                vertex_structs.iter().map(|s| format!("[`{s}`]")).collect::<Vec<_>>().join(" or ")
            )
        };
        let slot1 = if instance_structs.is_empty() {
            String::new()
        } else {
            format!(
                ", slot 1 {} (per instance)",
                instance_structs.iter().map(|s| format!("[`{s}`]")).collect::<Vec<_>>().join(" or ")
            )
        };
        w.doc(&format!(
            "Vertex input: {slot0}{slot1}. The vertex shader reads them as storage buffers: create them with"
        ));
        w.doc("`wgpu::BufferUsages::STORAGE` (an index buffer too).");
        if let Some(d) = so {
            w.doc("");
            w.doc(&format!(
                "Stream output (`[passes.{}.stream_output]`, D3D11.3 §14): {}; rasterized stream {}. [`Self::prepare`]",
                pass.name,
                (0..4)
                    .filter(|&s| d.strides[s] != 0)
                    .map(|s| format!("slot {s} of {} bytes per vertex", d.strides[s]))
                    .collect::<Vec<_>>()
                    .join(", "),
                d.rasterized.map_or("none (nothing is drawn)".to_string(), |r| r.to_string())
            ));
            w.doc("takes the stream-output targets (`SOSetTargets`: per slot a buffer with");
            w.doc("`wgpu::BufferUsages::STORAGE` and where writing starts); the filled sizes, statistics and");
            w.doc("DrawAuto arguments stay on the GPU in [`Self::stream_output`]'s state buffer.");
        }
        w.doc("");
        w.doc("```ignore");
        w.doc(&format!("let stage = {stage}::new(&device, permutation, &[format], None)?;"));
        w.doc("let groups = stage.bind_groups(&device, &resources)?;");
        w.doc(&format!("let draw = {stage}::draw_call(vertex_count, 1);"));
        w.doc("// Before the render pass: the compute work, into the encoder.");
        if so.is_some() {
            w.doc("let targets = [Some(stream_output::SoTarget { buffer: &so_buffer, start: stream_output::SoStart::Offset(0) }), None, None, None];");
            w.doc("let prepared = stage.prepare(&device, &mut encoder, &draw, &[Some((&vertices, 0))], None, &groups, targets)?;");
        } else {
            w.doc(
                "let prepared = stage.prepare(&device, &mut encoder, &draw, &[Some((&vertices, 0))], None, &groups)?;",
            );
        }
        w.doc("{");
        w.doc("    let mut pass = encoder.begin_render_pass(&desc);");
        w.doc("    stage.draw(&mut pass, &prepared, &groups);");
        w.doc("}");
        w.doc("queue.submit([encoder.finish()]);");
        w.doc("stage.recycle(prepared); // its buffers serve a later draw");
        w.doc("```");
        w.line("#[derive(Debug)]");
        w.open(&format!("pub struct {stage} {{"));
        w.line("permutation: Permutation,");
        w.line("variant: usize,");
        w.line("id: u64,");
        w.line("layouts: GeometryLayouts,");
        w.line("stage: primitive_stage::PrimitiveStage,");
        if so.is_some() {
            w.line("stream_output: stream_output::StreamOutput,");
        }
        w.close("}");
        w.blank();
        w.doc(&format!(
            "A draw of pass `{}` prepared by [`{stage}::prepare`]: the buffers the geometry shader",
            pass.name
        ));
        w.doc(&format!("wrote, for [`{stage}::draw`] of the same stage object (another pass's stage type does not"));
        w.doc("take it). Drop it, or give it back with `recycle` once the commands that draw it are submitted.");
        w.line("#[derive(Debug)]");
        w.line("#[must_use = \"a prepared draw is drawn with the stage's `draw`\"]");
        w.open(&format!("pub struct {prepared} {{"));
        w.line("prepared: primitive_stage::Prepared,");
        w.line("stage: u64,");
        w.close("}");
        w.blank();
        w.open(&format!("impl {prepared} {{"));
        w.doc("The runtime's prepared draw (its chunks' buffers).");
        w.open("pub fn inner(&self) -> &primitive_stage::Prepared {");
        w.line("&self.prepared");
        w.close("}");
        w.close("}");
        w.blank();
        w.open(&format!("impl {stage} {{"));
        if let Some(p) = &pass_enum {
            w.doc("The pass.");
            w.line(&format!("pub const PASS: {} = {p};", self.geometry.pass_enum.unwrap_or_default()));
        }
        w.doc(&format!(
            "The topology the effect file draws the pass with (`D3D11_PRIMITIVE_TOPOLOGY_{}`).",
            draw_topology_name(g.topology)
        ));
        w.doc("A draw may use any topology of the same primitive, as in D3D.");
        w.line(&format!(
            "pub const TOPOLOGY: primitive_stage::Topology = primitive_stage::Topology::{:?};",
            g.topology
        ));
        if let Some(d) = so {
            w.doc("Bytes per vertex of each stream-output slot (0: a slot the declaration does not write).");
            w.line(&format!("pub const STREAM_OUTPUT_STRIDES: [u32; 4] = {:?};", d.strides));
            w.doc("The stream drawn (`RasterizedStream`); `None`: nothing is drawn.");
            w.line(&format!("pub const RASTERIZED_STREAM: Option<u32> = {};", opt(d.rasterized)));
        }
        w.blank();
        w.doc("Creates the primitive stage of `permutation` with the states the effect file declares for the");
        w.doc("pass: one color target per format ([`Self::color_target_states`]), [`Self::depth_stencil_state`]");
        w.doc("when `depth_format` is given, [`Self::primitive_state`], one sample per pixel.");
        w.doc("");
        w.doc("# Errors");
        w.doc("");
        w.doc("The runtime's, when the device cannot run the stage (see [`Self::required_limits`]).");
        w.doc("");
        w.doc("# Panics");
        w.doc("");
        w.doc("If `permutation` is a combination the effect file excludes (not in [`Permutation::ALL`]).");
        w.open(&format!("pub fn new(device: &wgpu::Device, permutation: Permutation, color_formats: &[wgpu::TextureFormat], depth_format: Option<wgpu::TextureFormat>) -> Result<Self, {new_error}> {{"));
        w.line("let targets = Self::color_target_states(color_formats);");
        w.open("let options = GeometryPipelineOptions {");
        w.line("label: None,");
        w.line("color_targets: &targets,");
        w.line("depth_stencil: depth_format.map(Self::depth_stencil_state),");
        w.line("primitive: Self::primitive_state(),");
        w.line("multisample: Self::multisample_state(1),");
        w.line("max_binding_bytes: None,");
        w.close("};");
        w.line("Self::new_with(device, permutation, &options)");
        w.close("}");
        w.blank();
        w.doc("Creates the primitive stage of `permutation` with the given states.");
        w.doc("");
        w.doc("# Errors");
        w.doc("");
        w.doc("The runtime's, when the device cannot run the stage (see [`Self::required_limits`]).");
        w.doc("");
        w.doc("# Panics");
        w.doc("");
        w.doc("If `permutation` is a combination the effect file excludes (not in [`Permutation::ALL`]).");
        w.open(&format!("pub fn new_with(device: &wgpu::Device, permutation: Permutation, options: &GeometryPipelineOptions<'_>) -> Result<Self, {new_error}> {{"));
        w.line(&format!("let (variant, v) = geometry_variant(permutation{pass_arg});"));
        w.line(&format!("let layouts = GeometryLayouts::new(device{pass_arg}, permutation);"));
        w.line("let (vs, gs, draw, ps) = (SHADERS[v.vertex], SHADERS[v.geometry], SHADERS[v.draw_vertex], v.pixel.map(|p| SHADERS[p]));");
        w.line("let (vs_module, gs_module, draw_module) = (vs.create_module(device), gs.create_module(device), draw.create_module(device));");
        w.line("let ps_module = ps.map(|p| p.create_module(device));");
        w.line("let entry = |module, shader: StageShader| primitive_stage::ShaderEntry { module, entry_point: shader.entry_point };");
        if so.is_some() {
            w.line("// The geometry module keeps the streams the declaration writes (docs/stream-output.md).");
            w.line("let (streams, so_layout) = GEOMETRY_STREAMS[v.stage].clone().expect(\"a stream-output pass's geometry module keeps its streams\");");
        }
        if c_selects {
            w.line("// The pixel shader reads the per-primitive selection uniform (group 3): draw per layer and");
            w.line("// viewport with [`select::Selection`] (docs/per-primitive.md).");
            w.open("let select_layout = v.select.then(|| {");
            w.line("device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &select::Selection::layout_descriptor_entries() })");
            w.close("});");
            if so.is_some() {
                w.open("let stage = primitive_stage::PrimitiveStage::with_streams_selected(device, &primitive_stage::PrimitiveStageDescriptor {");
            } else {
                w.open("let stage = primitive_stage::PrimitiveStage::new_selected(device, &primitive_stage::PrimitiveStageDescriptor {");
            }
        } else if so.is_some() {
            w.open("let stage = primitive_stage::PrimitiveStage::with_streams(device, &primitive_stage::PrimitiveStageDescriptor {");
        } else {
            w.open(
                "let stage = primitive_stage::PrimitiveStage::new(device, &primitive_stage::PrimitiveStageDescriptor {",
            );
        }
        w.line(&format!(
            "label: Some(options.label.unwrap_or({:?})),",
            format!("{} pass {}", c.effect.name, pass.name)
        ));
        w.line("stage: GEOMETRY_STAGES[v.stage].clone(),");
        w.line("vertex: entry(&vs_module, vs),");
        w.line("vertex_layout: Some(&layouts.vertex),");
        w.line("geometry: entry(&gs_module, gs),");
        w.line("geometry_layout: Some(&layouts.geometry),");
        w.line("draw_vertex: entry(&draw_module, draw),");
        w.open("fragment: ps.zip(ps_module.as_ref()).map(|(ps, module)| primitive_stage::FragmentEntry {");
        w.line("shader: entry(module, ps),");
        w.line("targets: options.color_targets,");
        w.line("layout: Some(&layouts.pixel),");
        w.close("}),");
        w.line("primitive: options.primitive,");
        w.line("depth_stencil: options.depth_stencil.clone(),");
        w.line("multisample: options.multisample,");
        w.line("max_binding_bytes: options.max_binding_bytes,");
        match (c_selects, so.is_some()) {
            (true, true) => w.close("}, Some(streams), select_layout.as_ref())?;"),
            (true, false) => w.close("}, select_layout.as_ref())?;"),
            (false, true) => w.close("}, Some(streams))?;"),
            (false, false) => w.close("})?;"),
        }
        w.line("let id = primitive_stage::next_stage_id();");
        if so.is_some() {
            w.line("let so = v.stream_output.expect(\"a stream-output pass has a declaration\");");
            w.line(
                "let stream_output = stream_output::StreamOutput::new(device, &stream_output_desc(so), &so_layout)?;",
            );
            w.line(&format!("Ok({stage} {{ permutation, variant, id, layouts, stage, stream_output }})"));
        } else {
            w.line(&format!("Ok({stage} {{ permutation, variant, id, layouts, stage }})"));
        }
        w.close("}");
        w.blank();
        w.doc("The permutation it was made for.");
        w.open("pub fn permutation(&self) -> Permutation {");
        w.line("self.permutation");
        w.close("}");
        w.blank();
        w.doc("Its bind group layouts (for [`GeometryBindGroups::new`]).");
        w.open("pub fn layouts(&self) -> &GeometryLayouts {");
        w.line("&self.layouts");
        w.close("}");
        w.blank();
        w.doc("The runtime's primitive stage (its pipelines and description).");
        w.open("pub fn primitive_stage(&self) -> &primitive_stage::PrimitiveStage {");
        w.line("&self.stage");
        w.close("}");
        if so.is_some() {
            w.blank();
            w.doc("The pass's stream-output stage: its state buffer (`state()`: per slot the filled size, per");
            w.doc("stream the statistics D3D's SO queries report, decoded by `stream_output::SoState::from_bytes`),");
            w.doc("`draw_auto` (D3D's DrawAuto from a slot's filled size, without a read-back) and");
            w.doc("`reset_statistics` (a new `Begin` of the queries). The filled sizes belong to this stage object:");
            w.doc("`SoStart::Append` continues after what its last draws wrote.");
            w.open("pub fn stream_output(&self) -> &stream_output::StreamOutput {");
            w.line("&self.stream_output");
            w.close("}");
        }
        w.blank();
        w.doc("The bind groups of its layouts from `resources`.");
        w.doc("");
        w.doc("# Errors");
        w.doc("");
        w.doc("[`MissingResource`] when the permutation binds a resource given as `None`.");
        w.open("pub fn bind_groups(&self, device: &wgpu::Device, resources: &GeometryResources<'_>) -> Result<GeometryBindGroups, MissingResource> {");
        w.line("GeometryBindGroups::new(device, &self.layouts, resources)");
        w.close("}");
        w.blank();
        w.doc("A non-indexed draw of `vertex_count` vertices and `instance_count` instances from vertex 0 and");
        w.doc("instance 0 with the pass's topology (`DrawInstanced(vertex_count, instance_count, 0, 0)`).");
        w.open("pub const fn draw_call(vertex_count: u32, instance_count: u32) -> primitive_stage::DrawCall {");
        w.line("primitive_stage::DrawCall { topology: Self::TOPOLOGY, vertex_count, instance_count, first_vertex: 0, base_vertex: 0, first_instance: 0, index: None }");
        w.close("}");
        w.blank();
        w.doc("Records the draw's compute work into `encoder` (one compute pass: for an indexed strip draw the");
        w.doc("assembly kernel, then per chunk the vertex and geometry dispatches). Call it before the render");
        w.doc("pass that draws the result: an open `wgpu::RenderPass` borrows the encoder, so this does not");
        w.doc("compile inside one.");
        w.doc("");
        w.doc("`vertex_buffers[slot]` is the buffer and byte offset of each vertex buffer slot (D3D's");
        w.doc("`IASetVertexBuffers`; `None` reads zeros), `index_buffer` the index buffer of an indexed draw");
        w.doc("(`draw.index`); all with `wgpu::BufferUsages::STORAGE`. `groups` are this stage's bind groups");
        w.doc("(groups 0 and 2 are used here).");
        w.doc("");
        w.doc("# Errors");
        w.doc("");
        w.doc("The runtime's: a draw topology that does not feed the geometry shader, a draw too large for the");
        w.doc("device's bindings, offsets WebGPU cannot bind, a vertex or index buffer without");
        w.doc("`wgpu::BufferUsages::STORAGE`.");
        if so.is_some() {
            w.doc("");
            w.doc("Then the stream output of the draw (D3D11.3 §14): `targets[slot]` is the buffer bound to each");
            w.doc("output slot (`SOSetTargets`; `None`: unbound, as if full) and where writing starts");
            w.doc("(`SoStart::Offset(bytes)`, or `SoStart::Append` after the slot's filled size). Primitives are");
            w.doc("written in D3D's order until one bound buffer of their stream cannot hold the next one whole.");
            w.doc("");
            w.doc("Stream-output errors (`StreamOutputPassError::StreamOutput`): a misaligned offset, a target");
            w.doc("larger than one storage binding; the targets need `wgpu::BufferUsages::STORAGE`.");
        }
        w.doc("");
        w.doc("# Panics");
        w.doc("");
        w.doc("If `groups` were made for another pass or permutation.");
        if so.is_some() {
            w.line(
                "#[allow(clippy::too_many_arguments)] // D3D's draw state: the draw, its buffers, groups, SO targets",
            );
            w.open(&format!("pub fn prepare(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, draw: &primitive_stage::DrawCall, vertex_buffers: &[Option<(&wgpu::Buffer, u64)>], index_buffer: Option<&wgpu::Buffer>, groups: &GeometryBindGroups, targets: [Option<stream_output::SoTarget<'_>>; 4]) -> Result<{prepared}, StreamOutputPassError> {{"));
        } else {
            w.open(&format!("pub fn prepare(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, draw: &primitive_stage::DrawCall, vertex_buffers: &[Option<(&wgpu::Buffer, u64)>], index_buffer: Option<&wgpu::Buffer>, groups: &GeometryBindGroups) -> Result<{prepared}, primitive_stage::PrimitiveStageError> {{"));
        }
        w.line(&format!(
            "assert!(groups.variant == self.variant, \"{{NAME}}: bind groups of another pass or permutation given to {stage}\");"
        ));
        w.line("let prepared = self.stage.prepare(device, encoder, draw, vertex_buffers, index_buffer, Some(&groups.vertex), Some(&groups.geometry))?;");
        if so.is_some() {
            w.open("let chunks: Vec<stream_output::SoChunk<'_>> = prepared.chunks().iter().filter_map(|c| {");
            w.line("let invocations = u32::try_from(c.chunk.geometry_invocations(self.stage.desc())).ok()?;");
            w.line("Some(stream_output::SoChunk { vertices: &c.vertices, indices: c.indices.as_ref()?, invocations })");
            w.close("}).collect();");
            w.line("self.stream_output.encode(device, encoder, &chunks, targets)?;");
        }
        w.line(&format!("Ok({prepared} {{ prepared, stage: self.id }})"));
        w.close("}");
        w.blank();
        w.doc("Draws what `prepared` holds into `pass` (its targets those the stage was made for): sets the");
        w.doc("draw's pipeline, bind groups 0 and 1 (the pixel shader's resources from `groups`), vertex buffer");
        w.doc("0 and the index buffer, and draws every chunk in order.");
        w.doc("");
        w.doc("# Panics");
        w.doc("");
        w.doc("If `prepared` comes from another stage object of the pass (another permutation), or `groups`");
        w.doc("were made for another pass or permutation.");
        w.open(&format!("pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, prepared: &{prepared}, groups: &GeometryBindGroups) {{"));
        w.line(&format!(
            "assert!(prepared.stage == self.id, \"{{NAME}}: a draw prepared by another {stage} given to draw\");"
        ));
        w.line(&format!(
            "assert!(groups.variant == self.variant, \"{{NAME}}: bind groups of another pass or permutation given to {stage}\");"
        ));
        w.line("self.stage.draw(pass, &prepared.prepared, Some(&groups.pixel));");
        w.close("}");
        w.blank();
        w.doc("Gives a prepared draw's buffers back for later draws: call it once the command buffers that");
        w.doc("prepared and drew it are submitted (before that, drop it instead).");
        w.doc("");
        w.doc("# Panics");
        w.doc("");
        w.doc("If `prepared` comes from another stage object of the pass.");
        w.open(&format!("pub fn recycle(&self, prepared: {prepared}) {{"));
        w.line(&format!(
            "assert!(prepared.stage == self.id, \"{{NAME}}: a draw prepared by another {stage} given to recycle\");"
        ));
        w.line("self.stage.recycle(prepared.prepared);");
        w.close("}");
        stage_states(w, states);
        w.blank();
        w.doc("The wgpu features the pass needs: its states' (`DEPTH_CLIP_CONTROL` for `depth_clip_enable =");
        w.doc("false`) and its shaders' (every permutation's); request them when creating the device.");
        w.open("pub fn required_features() -> wgpu::Features {");
        w.line(&features);
        w.close("}");
        w.blank();
        w.doc("`limits` raised to what the pass needs (every permutation): storage buffers per shader stage");
        w.doc(&format!(
            "({}: the vertex and geometry modules bind the primitive stage's buffers besides the shaders'),",
            need.storage_buffers
        ));
        w.doc(&format!(
            "uniform buffers per stage ({}: the runtime's `DrawParams` besides the shaders' constant buffers),",
            need.uniform_buffers
        ));
        w.doc(&format!(
            "vertex attributes of the draw ({}, one per output register) and their stride ({} bytes), and four",
            need.vertex_attributes, need.vertex_stride
        ));
        w.doc("bind groups (the runtime's group 3). Request them when creating the device");
        w.doc("(`DeviceDescriptor::required_limits`, within the adapter's `limits()`).");
        w.open("pub fn required_limits(limits: wgpu::Limits) -> wgpu::Limits {");
        w.open("wgpu::Limits {");
        for (field, n) in [
            ("max_bind_groups", 4),
            ("max_storage_buffers_per_shader_stage", need.storage_buffers),
            ("max_uniform_buffers_per_shader_stage", need.uniform_buffers),
            ("max_vertex_attributes", need.vertex_attributes),
            ("max_vertex_buffer_array_stride", need.vertex_stride),
        ] {
            w.line(&format!("{field}: limits.{field}.max({n}),"));
        }
        w.line("..limits");
        w.close("}");
        w.close("}");
        w.close("}");
    }

    /// The limits a pass's variants need.
    fn needs(&self, variants: &[GeometryVariant]) -> Needs {
        let c = self.c;
        let mut need = Needs { storage_buffers: 0, uniform_buffers: 0, vertex_attributes: 1, vertex_stride: 16 };
        let count = |s: usize, storage: bool| {
            c.shaders[s]
                .info
                .bindings
                .iter()
                .filter(|b| match b.kind {
                    BindingKind::StorageBuffer { .. } | BindingKind::UavCounter => storage,
                    BindingKind::UniformBuffer { .. } => !storage,
                    _ => false,
                })
                .count() as u32
        };
        for v in variants {
            let d = &self.plan.stage_descs[v.stage];
            // The vertex module: records, index buffer, one buffer per slot; the geometry
            // module: records, output vertices, output strips, assembly table.
            let vertex = 2 + d.vertex_slots.len() as u32 + count(v.vertex, true);
            let geometry = 4 + count(v.geometry, true);
            let pixel = v.pixel.map_or(0, |p| count(p, true));
            need.storage_buffers = need.storage_buffers.max(vertex).max(geometry).max(pixel);
            let uniforms = (1 + count(v.vertex, false)).max(1 + count(v.geometry, false));
            need.uniform_buffers = need.uniform_buffers.max(uniforms).max(v.pixel.map_or(0, |p| count(p, false)));
            if v.stream_output.is_some() {
                // The stream-output kernels: params and entries as uniforms; output vertices and
                // lists, scratch, state and the four slots as storage buffers.
                need.storage_buffers = need.storage_buffers.max(8);
                need.uniform_buffers = need.uniform_buffers.max(2);
            }
            need.vertex_attributes = need.vertex_attributes.max(d.output_registers);
            need.vertex_stride = need.vertex_stride.max(d.output_registers.max(1) * 16);
        }
        need
    }

    /// The `wgpu::Features` expression of a pass: its states' and its shaders'.
    fn features(&self, pass: &Pass, variants: &[GeometryVariant]) -> String {
        let mut names: Vec<&str> = Vec::new();
        if !pass.states.rasterizer.depth_clip_enable {
            names.push("DEPTH_CLIP_CONTROL");
        }
        for v in variants {
            for s in [Some(v.vertex), Some(v.geometry), Some(v.draw_vertex), v.pixel].into_iter().flatten() {
                for f in &self.c.shaders[s].info.required_features {
                    let n = match f {
                        dxbc_wgsl::WebGpuFeature::ClipDistances => "CLIP_DISTANCES",
                        dxbc_wgsl::WebGpuFeature::PrimitiveIndex => "PRIMITIVE_INDEX",
                    };
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
            }
        }
        if names.is_empty() {
            return "wgpu::Features::empty()".into();
        }
        names.sort_unstable();
        names.iter().map(|n| format!("wgpu::Features::{n}")).collect::<Vec<_>>().join(" | ")
    }
}

/// What a pass with a geometry shader needs of the device, at least.
struct Needs {
    storage_buffers: u32,
    uniform_buffers: u32,
    vertex_attributes: u32,
    vertex_stride: u32,
}

/// One `primitive_stage::StageDesc` constant.
fn stage_desc(w: &mut W, s: &StageDesc) {
    let primitive = match s.input_primitive {
        InputPrimitive::Point => "Point".to_string(),
        InputPrimitive::Line => "Line".to_string(),
        InputPrimitive::Triangle => "Triangle".to_string(),
        InputPrimitive::LineAdj => "LineAdj".to_string(),
        InputPrimitive::TriangleAdj => "TriangleAdj".to_string(),
        InputPrimitive::Patch(n) => format!("Patch({n})"),
    };
    let output = match s.output {
        None => "None",
        Some(OutputTopology::PointList) => "Some(primitive_stage::OutputTopology::PointList)",
        Some(OutputTopology::LineStrip) => "Some(primitive_stage::OutputTopology::LineStrip)",
        Some(OutputTopology::TriangleStrip) => "Some(primitive_stage::OutputTopology::TriangleStrip)",
    };
    w.open("primitive_stage::StageDesc {");
    w.line(&format!("input_primitive: primitive_stage::InputPrimitive::{primitive},"));
    w.line(&format!("input_registers: {},", s.input_registers));
    w.line(&format!("output_registers: {},", s.output_registers));
    w.line(&format!("max_vertices: {},", s.max_vertices));
    w.line(&format!("gs_instances: {},", s.gs_instances));
    w.line(&format!("index_stride: {},", s.index_stride));
    w.line(&format!("output: {output},"));
    let slots: Vec<String> = s.vertex_slots.iter().map(u32::to_string).collect();
    let strides: Vec<String> = s.vertex_strides.iter().map(u32::to_string).collect();
    w.line(&format!(
        "vertex_slots: std::borrow::Cow::Borrowed(&[{}]), // strides {}",
        slots.join(", "),
        if strides.is_empty() { "none".to_string() } else { strides.join(", ") }
    ));
    w.close("},");
}

/// One bind group entry of a geometry group from the resources struct.
fn group_entry(w: &mut W, plan: &crate::plan::PipelinePlan, entry: &GroupEntry) {
    let f = plan.field(entry.field);
    let name = &f.name;
    let get = if f.required { format!("r.{name}") } else { format!("r.{name}.ok_or(MissingResource({name:?}))?") };
    let resource = match f.kind {
        FieldKind::UniformBuffer | FieldKind::StorageBuffer | FieldKind::CounterBuffer => {
            format!("{get}.as_entire_binding()")
        }
        FieldKind::TextureView => format!("wgpu::BindingResource::TextureView({get})"),
        FieldKind::Sampler => format!("wgpu::BindingResource::Sampler({get})"),
    };
    w.open("wgpu::BindGroupEntry {");
    w.line(&format!("binding: {},", entry.binding.binding));
    w.line(&format!("resource: {resource},"));
    w.close("},");
}

/// The state functions of a stage type: the pass's render states in wgpu's terms.
fn stage_states(w: &mut W, s: &PassStates) {
    let blend: Vec<String> = (0..8).map(|i| s.blend.target(i).wgpu_blend()).collect();
    let masks: Vec<String> = (0..8).map(|i| s.blend.target(i).wgpu_write_mask()).collect();
    w.blank();
    w.doc("The rasterizer state the effect file declares (cull mode, front face, depth clipping). Its");
    w.doc("topology is a placeholder: the runtime draws the geometry shader's output topology.");
    w.doc("");
    for l in s.describe_primitive().iter().skip(1) {
        w.doc(&format!("- {l}."));
    }
    w.open("pub fn primitive_state() -> wgpu::PrimitiveState {");
    w.line(&s.wgpu_primitive());
    w.close("}");
    w.blank();
    w.doc("One color target per format (`SV_Target0`, ...) with the pass's blend state and write mask:");
    for l in s.describe_blend() {
        w.doc(&format!("- {l}."));
    }
    w.open("pub fn color_target_states(formats: &[wgpu::TextureFormat]) -> Vec<Option<wgpu::ColorTargetState>> {");
    w.line(&format!("const BLEND: [Option<wgpu::BlendState>; 8] = [{}];", blend.join(", ")));
    w.line(&format!("const WRITE_MASK: [wgpu::ColorWrites; 8] = [{}];", masks.join(", ")));
    w.open("formats.iter().enumerate().map(|(i, &format)| {");
    w.line(
        "Some(wgpu::ColorTargetState { format, blend: BLEND.get(i).copied().flatten(), write_mask: WRITE_MASK.get(i).copied().unwrap_or(wgpu::ColorWrites::ALL) })",
    );
    w.close("}).collect()");
    w.close("}");
    w.blank();
    w.doc("The depth-stencil state for a depth buffer of `format`: the effect file's depth-stencil state");
    w.doc("and its rasterizer state's depth bias. Set the stencil reference on the render pass.");
    w.doc("");
    for l in s.depth_stencil.describe() {
        w.doc(&format!("- {l}."));
    }
    w.doc(&format!("- {}.", s.describe_bias()));
    w.open("pub fn depth_stencil_state(format: wgpu::TextureFormat) -> wgpu::DepthStencilState {");
    w.open("wgpu::DepthStencilState {");
    w.line("format,");
    w.line(&format!("depth_write_enabled: Some({}),", s.depth_stencil.wgpu_depth_write()));
    w.line(&format!("depth_compare: Some({}),", s.depth_stencil.wgpu_depth_compare()));
    w.line(&format!("stencil: {},", s.depth_stencil.wgpu_stencil()));
    w.line(&format!("bias: {},", s.rasterizer.wgpu_bias()));
    w.close("}");
    w.close("}");
    w.blank();
    w.doc("Multisample state for `count` samples per pixel, with the blend state's alpha to coverage when");
    w.doc("`count` is above 1 (WebGPU rejects it on single-sampled targets).");
    w.open("pub fn multisample_state(count: u32) -> wgpu::MultisampleState {");
    if s.blend.alpha_to_coverage {
        w.line("wgpu::MultisampleState { count, mask: !0, alpha_to_coverage_enabled: count > 1 }");
    } else {
        w.line("wgpu::MultisampleState { count, mask: !0, alpha_to_coverage_enabled: false }");
    }
    w.close("}");
    w.blank();
    w.doc("Whether the rasterizer state enables the scissor test (D3D's `ScissorEnable`): when true, set");
    w.doc("the rectangle with `RenderPass::set_scissor_rect` before drawing.");
    w.open("pub const fn scissor_enable() -> bool {");
    w.line(&s.rasterizer.scissor_enable.to_string());
    w.close("}");
}
