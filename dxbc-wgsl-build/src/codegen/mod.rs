//! The Rust binding generator: [`generate`] turns a [`CompiledEffect`] into the text of one Rust
//! module. `Builder` writes it to `OUT_DIR`; `include_effect!` parses it into tokens; both call
//! this one function, so their output is identical. The API it produces is described in
//! `docs/binding-model.md`.
//!
//! An effect with render passes and compute passes gets the render API under the names a
//! render-only effect has (`Shaders`, `Resources`, `Layouts`, `BindGroups`,
//! `create_render_pipeline`, `RenderPass` when there are several) and the compute API under
//! `Compute` names (`ComputeShaders`, `ComputeResources`, `ComputeLayouts`, `ComputeBindGroups`,
//! `compute_bind_group_layout_entries`, `create_compute_pipeline`, `ComputePass` when there are
//! several). They take different types, so a compute pass's values never reach a render function
//! (`tests/fixtures/tiny_mixed.rs` is such a module):
//!
//! ```no_run
//! # include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tiny_mixed.rs"));
//! # fn run(device: &wgpu::Device) {
//! use tiny_mixed::{ComputePass, Permutation, RenderPass};
//! let compute = tiny_mixed::ComputeLayouts::new(device, ComputePass::Build, Permutation::default());
//! let _ = tiny_mixed::create_compute_pipeline(device, &compute);
//! let render = tiny_mixed::Layouts::new(device, RenderPass::Main, Permutation::default());
//! let _ = tiny_mixed::create_render_pipeline(device, &render, &[wgpu::TextureFormat::Rgba8Unorm], None);
//! # }
//! # fn main() {}
//! ```
//!
//! ```compile_fail,E0308
//! # include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tiny_mixed.rs"));
//! # fn run(device: &wgpu::Device) {
//! use tiny_mixed::{ComputePass, Permutation};
//! let compute = tiny_mixed::ComputeLayouts::new(device, ComputePass::Build, Permutation::default());
//! // A compute pass's layouts are no render pipeline's.
//! let _ = tiny_mixed::create_render_pipeline(device, &compute, &[wgpu::TextureFormat::Rgba8Unorm], None);
//! # }
//! # fn main() {}
//! ```
//!
//! ```compile_fail,E0308
//! # include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tiny_mixed.rs"));
//! # fn main() {
//! use tiny_mixed::{ComputePass, Permutation};
//! // The render passes' shaders are asked for by `RenderPass`.
//! let _ = Permutation::default().shaders(ComputePass::Build);
//! # }
//! ```
//!
//! A pass with a geometry shader gets a stage type (`MainStage` for pass `main`,
//! `codegen/geometry.rs`): its compute work is recorded with `prepare` before the render pass,
//! its draw with `draw` inside it (`tests/fixtures/tiny_geometry.rs` is such a module):
//!
//! ```no_run
//! # include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tiny_geometry.rs"));
//! # fn run(device: &wgpu::Device, queue: &wgpu::Queue, view: &wgpu::TextureView, points: &wgpu::Buffer,
//! #        colors: &wgpu::Buffer, resources: &tiny_geometry::GeometryResources<'_>) {
//! use tiny_geometry::{MainStage, Permutation};
//! let stage = MainStage::new(device, Permutation::default(), &[wgpu::TextureFormat::Rgba8Unorm], None).unwrap();
//! let groups = stage.bind_groups(device, resources).unwrap();
//! let mut encoder = device.create_command_encoder(&Default::default());
//! let draw = MainStage::draw_call(3, 1);
//! let prepared = stage.prepare(device, &mut encoder, &draw, &[Some((points, 0)), Some((colors, 0))], None, &groups).unwrap();
//! {
//!     let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
//!         color_attachments: &[Some(wgpu::RenderPassColorAttachment {
//!             view, depth_slice: None, resolve_target: None, ops: wgpu::Operations::default(),
//!         })],
//!         ..Default::default()
//!     });
//!     stage.draw(&mut pass, &prepared, &groups);
//! }
//! queue.submit([encoder.finish()]);
//! stage.recycle(prepared);
//! # }
//! # fn main() {}
//! ```
//!
//! `prepare` needs the encoder an open render pass borrows, so it cannot run inside the pass:
//!
//! ```compile_fail,E0499
//! # include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tiny_geometry.rs"));
//! # fn run(device: &wgpu::Device, stage: &tiny_geometry::MainStage, groups: &tiny_geometry::GeometryBindGroups,
//! #        desc: &wgpu::RenderPassDescriptor<'_>, points: &wgpu::Buffer) {
//! let mut encoder = device.create_command_encoder(&Default::default());
//! let mut pass = encoder.begin_render_pass(desc);
//! let draw = tiny_geometry::MainStage::draw_call(3, 1);
//! let prepared = stage.prepare(device, &mut encoder, &draw, &[Some((points, 0))], None, groups).unwrap();
//! stage.draw(&mut pass, &prepared, groups);
//! # }
//! # fn main() {}
//! ```
//!
//! A draw is prepared by its own pass's stage: another pass's prepared draw is another type...
//!
//! ```compile_fail,E0308
//! # include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tiny_geometry.rs"));
//! # fn run(main: &tiny_geometry::MainStage, lines: &tiny_geometry::LinesStage, groups: &tiny_geometry::GeometryBindGroups,
//! #        pass: &mut wgpu::RenderPass<'_>, prepared: tiny_geometry::LinesPrepared) {
//! // `lines` prepared it; `main` cannot draw it.
//! main.draw(pass, &prepared, groups);
//! # }
//! # fn main() {}
//! ```
//!
//! ...and only `prepare` makes one: there is no drawing without preparing.
//!
//! ```compile_fail,E0451
//! # include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tiny_geometry.rs"));
//! # fn run(main: &tiny_geometry::MainStage, groups: &tiny_geometry::GeometryBindGroups, pass: &mut wgpu::RenderPass<'_>,
//! #        inner: tiny_geometry::primitive_stage::Prepared) {
//! let forged = tiny_geometry::MainPrepared { prepared: inner, stage: 0 };
//! main.draw(pass, &forged, groups);
//! # }
//! # fn main() {}
//! ```

pub(crate) mod geometry;

use crate::compile::{CompiledEffect, FieldKind, ResourceField};
use crate::effect::layout::REGISTER;
use crate::effect::states::PassStates;
use crate::effect::{pascal_case, AxisKind, Layout, PassKind, Stage};
use crate::plan::{GroupEntry, PipelinePlan, VariantPlan};
pub use crate::structs::{struct_source, StructSource, Word};
use crate::structs::{Doc, Structs};
use crate::vertex::VertexFormat;
use crate::writer::W;
use dxbc_wgsl::{ResourceBinding as Binding, ResourceKind as BindingKind, TextureSample as SampleType};
use dxbc_wgsl_contract::bindings::{PIXEL_GROUP, VERTEX_GROUP};
use dxbc_wgsl_contract::select::SELECT_GROUP;

/// The text of a pipeline layout's `bind_group_layouts`: `layouts` (`(group, expression)`) at
/// their groups, `empty` at the groups before the last one given.
fn group_slots(layouts: &[(u32, &str)], empty: &str) -> String {
    let len = layouts.iter().map(|&(g, _)| g as usize + 1).max().unwrap_or(0);
    let mut slots = vec![empty; len];
    for &(g, e) in layouts {
        slots[g as usize] = e;
    }
    slots.join(", ")
}

/// Version of the generator, part of the builder's cache key.
pub const GENERATOR_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Generates the Rust module for a compiled effect.
pub fn generate(c: &CompiledEffect) -> String {
    Gen::new(c).run()
}

struct Gen<'a> {
    c: &'a CompiledEffect,
    w: W,
    /// The effect has render passes and compute passes.
    mixed: bool,
    /// The names of the render passes' items.
    render: Kind,
    /// The names of the compute passes' items.
    compute_kind: Kind,
    /// The passes with a geometry shader.
    geometry: GeometryKind,
    /// Resources structs, bind group layouts, vertex layouts and the variants that use them.
    plan: PipelinePlan,
    /// The constant-buffer structs and the structs of their struct members.
    structs: Structs,
}

/// The generated names of one kind of pass (render or compute). An effect whose passes are all of
/// one kind names its items as before mixed effects existed (`Pass`, `Shaders`, `Layouts`...); an
/// effect with both kinds keeps those names for the render passes and prefixes the compute
/// passes' with `Compute` (`ComputePass`, `ComputeShaders`, `ComputeLayouts`...), so that no
/// render function accepts a compute pass's values or the reverse.
struct Kind {
    /// Indices of the kind's passes (into `Effect::passes`), in declaration order.
    passes: Vec<usize>,
    /// The pass enum, when the kind has several passes.
    pass_enum: Option<&'static str>,
    /// The struct of a permutation's shaders.
    shaders: &'static str,
    /// The `Permutation` method that returns it.
    shaders_method: &'static str,
    /// The resources struct.
    resources: &'static str,
    /// The layouts struct.
    layouts: &'static str,
    /// The bind groups struct.
    bind_groups: &'static str,
    /// The public function returning the bind group layout entries.
    entries_fn: &'static str,
    /// The private function that finds a variant.
    variant_fn: &'static str,
    /// The private variant table.
    variants: &'static str,
    /// The private function that makes bind group entries from resources.
    group_entries_fn: &'static str,
}

/// The passes with a geometry shader: their API is always named `Geometry*` (`GeometryPass`,
/// `GeometryShaders`, `GeometryResources`, `GeometryLayouts`, `GeometryBindGroups`), beside one
/// stage type per pass (`codegen/geometry.rs`).
struct GeometryKind {
    /// Indices of the passes (into `Effect::passes`), in declaration order.
    passes: Vec<usize>,
    /// `GeometryPass`, when there are several such passes (or techniques).
    pass_enum: Option<&'static str>,
}

impl GeometryKind {
    fn new(c: &CompiledEffect) -> Self {
        let passes: Vec<usize> = c
            .effect
            .passes
            .iter()
            .enumerate()
            .filter(|(_, p)| p.kind() == PassKind::Geometry)
            .map(|(i, _)| i)
            .collect();
        let several = passes.len() > 1 || (!passes.is_empty() && !c.effect.techniques.is_empty());
        GeometryKind { passes, pass_enum: several.then_some("GeometryPass") }
    }
}

impl Kind {
    fn new(c: &CompiledEffect, compute: bool, mixed: bool) -> Self {
        let kind = if compute { PassKind::Compute } else { PassKind::Render };
        let passes: Vec<usize> =
            c.effect.passes.iter().enumerate().filter(|(_, p)| p.kind() == kind).map(|(i, _)| i).collect();
        // Techniques name passes through the pass enums: with techniques they always exist.
        let several = passes.len() > 1 || (!passes.is_empty() && !c.effect.techniques.is_empty());
        if mixed && compute {
            Kind {
                passes,
                pass_enum: several.then_some("ComputePass"),
                shaders: "ComputeShaders",
                shaders_method: "compute_shaders",
                resources: "ComputeResources",
                layouts: "ComputeLayouts",
                bind_groups: "ComputeBindGroups",
                entries_fn: "compute_bind_group_layout_entries",
                variant_fn: "compute_variant",
                variants: "COMPUTE_VARIANTS",
                group_entries_fn: "compute_group_entries",
            }
        } else {
            Kind {
                passes,
                pass_enum: several.then_some(if mixed { "RenderPass" } else { "Pass" }),
                shaders: "Shaders",
                shaders_method: "shaders",
                resources: "Resources",
                layouts: "Layouts",
                bind_groups: "BindGroups",
                entries_fn: "bind_group_layout_entries",
                variant_fn: "variant",
                variants: "VARIANTS",
                group_entries_fn: "group_entries",
            }
        }
    }

    /// `, pass: Pass` (a trailing parameter), or nothing for a single pass.
    fn pass_param(&self) -> String {
        self.pass_enum.map(|e| format!(", pass: {e}")).unwrap_or_default()
    }

    /// `pass: Pass, ` (a leading parameter), or nothing.
    fn pass_first_param(&self) -> String {
        self.pass_enum.map(|e| format!("pass: {e}, ")).unwrap_or_default()
    }

    /// `, pass` (a trailing argument), or nothing.
    fn pass_arg(&self) -> &'static str {
        if self.pass_enum.is_some() {
            ", pass"
        } else {
            ""
        }
    }

    /// `, layouts.pass`, or nothing.
    fn layouts_pass_arg(&self) -> &'static str {
        if self.pass_enum.is_some() {
            ", layouts.pass"
        } else {
            ""
        }
    }

    /// `pass as usize * {count} + ` (the start of the pass's rows in the variant table), or nothing.
    fn pass_index(&self, count: &str) -> String {
        if self.pass_enum.is_some() {
            format!("pass as usize * {count} + ")
        } else {
            String::new()
        }
    }
}

impl<'a> Gen<'a> {
    fn new(c: &'a CompiledEffect) -> Self {
        let plan = PipelinePlan::new(c);
        // Names of nested structs avoid every other generated type.
        let mut taken: Vec<String> = crate::compile::RESERVED_TYPES.iter().map(|t| t.to_string()).collect();
        taken.extend(c.effect.layouts.iter().map(|l| pascal_case(&l.name)));
        taken.extend(c.effect.axes.iter().map(|a| pascal_case(&a.name)));
        taken.extend(plan.vertex_layouts.iter().map(|l| l.struct_name.clone()));
        taken.extend(plan.instance_layouts.iter().map(|l| l.struct_name.clone()));
        for p in c.effect.passes.iter().filter(|p| p.kind() == PassKind::Geometry) {
            let (stage, prepared) = p.stage_type_names();
            taken.extend([stage, prepared]);
        }
        let mixed = c.is_mixed();
        Gen {
            c,
            w: W::default(),
            mixed,
            render: Kind::new(c, false, mixed),
            compute_kind: Kind::new(c, true, mixed),
            geometry: GeometryKind::new(c),
            plan,
            structs: Structs::new(taken),
        }
    }

    /// Whether the effect has render passes (without geometry shader).
    /// Whether a render pass draws per layer and viewport (its vertex shader writes
    /// per-primitive values): the module embeds `select_runtime.rs` as `mod select`.
    fn selects(&self) -> bool {
        self.plan.variants.iter().flatten().any(|v| match v {
            VariantPlan::Render(r) => r.select,
            VariantPlan::Geometry(g) => g.select,
            VariantPlan::Compute(_) => false,
        })
    }

    /// The runtime's per-primitive selection (`dxbc_wgsl_runtime::select`).
    fn select_runtime(&mut self) {
        if !self.selects() {
            return;
        }
        let w = &mut self.w;
        w.blank();
        w.doc("Per-primitive selection (`dxbc_wgsl_runtime::select`): the draws of a pass whose vertex shader");
        w.doc("writes SV_RenderTargetArrayIndex or SV_ViewportArrayIndex, one per render-target layer and");
        w.doc("viewport (docs/per-primitive.md).");
        w.line("pub use ::dxbc_wgsl_runtime::select;");
    }

    fn has_render(&self) -> bool {
        !self.render.passes.is_empty()
    }

    /// Whether the effect has compute passes.
    fn has_compute(&self) -> bool {
        !self.compute_kind.passes.is_empty()
    }

    /// Whether the effect has passes with a geometry shader.
    fn has_geometry(&self) -> bool {
        !self.geometry.passes.is_empty()
    }

    fn run(mut self) -> String {
        let c = self.c;
        let e = &c.effect;
        let file = e.path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        let w = &mut self.w;
        w.line(&format!(
            "// @generated by dxbc-wgsl-build {GENERATOR_VERSION} (translator {}) from `{file}`.",
            dxbc_wgsl::TRANSLATOR_VERSION
        ));
        w.line("// Do not edit: change the effect file and rebuild.");
        w.blank();
        match &e.description {
            Some(d) => w.doc_text(d),
            None => w.doc(&format!("Effect `{}`, translated from D3D bytecode by dxbc-wgsl.", e.name)),
        }
        w.doc("");
        w.doc(&format!(
            "Generated from `{file}`: {} permutation{}, {} distinct shader{}. The API is described in \
             `docs/binding-model.md` of dxbc-wgsl.",
            c.permutations.len(),
            if c.permutations.len() == 1 { "" } else { "s" },
            c.shaders.len(),
            if c.shaders.len() == 1 { "" } else { "s" }
        ));
        w.open(&format!("pub mod {} {{", e.module));
        w.line("#![allow(dead_code)]");
        w.blank();
        w.doc("The wgpu the runtime (`dxbc_wgsl_runtime`) is built against: the generated code names its types");
        w.doc("through it, so that a crate needs no wgpu dependency of its own.");
        w.line("use ::dxbc_wgsl_runtime::wgpu;");
        w.blank();
        w.doc("The effect's name, as the effect file declares it.");
        w.line(&format!("pub const NAME: &str = {:?};", e.name));
        self.wgsl_module();
        self.stage_shader();
        self.axes();
        self.permutation();
        self.variants();
        for (i, l) in e.layouts.iter().enumerate() {
            self.cbuffer_struct(i, l);
        }
        self.structs.emit_pending(&mut self.w);
        self.vertex_structs();
        self.resources();
        self.layouts();
        self.bind_groups();
        self.pipeline();
        self.geometry_api();
        self.select_runtime();
        self.w.close("}");
        self.w.finish()
    }

    fn wgsl_module(&mut self) {
        let c = self.c;
        let w = &mut self.w;
        w.blank();
        w.doc("WGSL of every distinct shader of the effect, named after its source.");
        w.open("pub mod wgsl {");
        for (i, s) in c.shaders.iter().enumerate() {
            if i > 0 {
                w.blank();
            }
            w.doc(&format!(
                "{} shader (`{}_{}_{}`), entry point `{}`, from {}.",
                capitalize(s.info.stage.name()),
                stage_prefix(s.info.stage),
                s.info.shader_model.0,
                s.info.shader_model.1,
                s.info.entry_point,
                s.labels.iter().map(|l| format!("`{l}`")).collect::<Vec<_>>().join(", ")
            ));
            w.line(&format!("pub const {}: &str = {};", s.const_name, raw_string(&s.info.wgsl)));
        }
        w.close("}");
    }

    fn stage_shader(&mut self) {
        let c = self.c;
        let w = &mut self.w;
        w.blank();
        w.doc("A translated shader stage.");
        w.line("#[derive(Clone, Copy, Debug, PartialEq, Eq)]");
        w.open("pub struct StageShader {");
        w.doc("Where it came from (file, and `:symbol` for a header).");
        w.line("pub label: &'static str,");
        w.doc("WGSL module text.");
        w.line("pub wgsl: &'static str,");
        w.doc("Name of the WGSL entry point.");
        w.line("pub entry_point: &'static str,");
        w.close("}");
        w.blank();
        w.open("impl StageShader {");
        w.doc("Creates the shader module.");
        w.open("pub fn create_module(&self, device: &wgpu::Device) -> wgpu::ShaderModule {");
        w.open("device.create_shader_module(wgpu::ShaderModuleDescriptor {");
        w.line("label: Some(self.label),");
        w.line("source: wgpu::ShaderSource::Wgsl(self.wgsl.into()),");
        w.close("})");
        w.close("}");
        w.close("}");
        w.blank();
        w.doc("Every distinct shader of the effect (for tools that create or validate them all).");
        w.open(&format!("pub const SHADERS: [StageShader; {}] = [", c.shaders.len()));
        for s in &c.shaders {
            w.open("StageShader {");
            w.line(&format!("label: {:?},", s.labels[0]));
            w.line(&format!("wgsl: wgsl::{},", s.const_name));
            w.line(&format!("entry_point: {:?},", s.info.entry_point));
            w.close("},");
        }
        w.close("];");
        if self.has_compute() {
            let w = &mut self.w;
            let mixed = self.mixed;
            let size_of = |s: &crate::compile::CompiledShader| match s.info.stage {
                Stage::Compute => s.info.workgroup_size.unwrap_or([1, 1, 1]),
                _ if mixed => [0, 0, 0],
                _ => s.info.workgroup_size.unwrap_or([1, 1, 1]),
            };
            let sizes: Vec<[u32; 3]> = c.shaders.iter().map(size_of).collect();
            let compute_sizes: Vec<[u32; 3]> =
                c.shaders.iter().filter(|s| !mixed || s.info.stage == Stage::Compute).map(size_of).collect();
            w.blank();
            if mixed {
                w.doc("The workgroup size of each of [`SHADERS`] (`[0, 0, 0]` for vertex and pixel shaders).");
            } else {
                w.doc("The workgroup size of each of [`SHADERS`].");
            }
            w.line(&format!(
                "const WORKGROUP_SIZES: [[u32; 3]; {}] = [{}];",
                sizes.len(),
                sizes.iter().map(|s| format!("[{}, {}, {}]", s[0], s[1], s[2])).collect::<Vec<_>>().join(", ")
            ));
            if let Some(first) = compute_sizes.first().filter(|f| compute_sizes.iter().all(|s| s == *f)) {
                w.blank();
                w.doc("The workgroup size of every compute shader of the effect (`@workgroup_size`, D3D's");
                w.doc("`numthreads`).");
                w.line(&format!("pub const WORKGROUP_SIZE: [u32; 3] = [{}, {}, {}];", first[0], first[1], first[2]));
                w.blank();
                w.doc("The workgroup counts that cover `threads` threads in each dimension (rounded up): the");
                w.doc("arguments of `ComputePass::dispatch_workgroups` (D3D's `Dispatch`). The shader runs for");
                w.doc("the threads beyond `threads` too; D3D's do the same.");
                w.open("pub const fn dispatch_size(threads: [u32; 3]) -> [u32; 3] {");
                w.line("[");
                w.line("    threads[0].div_ceil(WORKGROUP_SIZE[0]),");
                w.line("    threads[1].div_ceil(WORKGROUP_SIZE[1]),");
                w.line("    threads[2].div_ceil(WORKGROUP_SIZE[2]),");
                w.line("]");
                w.close("}");
            }
        }
        if self.has_render() {
            let w = &mut self.w;
            w.blank();
            if self.mixed {
                w.doc("The shaders of one permutation's render pass.");
            } else {
                w.doc("The shaders of one permutation.");
            }
            w.line("#[derive(Clone, Copy, Debug, PartialEq, Eq)]");
            w.open("pub struct Shaders {");
            w.doc("Vertex shader.");
            w.line("pub vertex: StageShader,");
            w.doc("Pixel (fragment) shader; `None` for a pass without one.");
            w.line("pub pixel: Option<StageShader>,");
            w.close("}");
        }
        if self.has_compute() {
            let w = &mut self.w;
            w.blank();
            if self.mixed {
                w.doc("The shader of one permutation's compute pass.");
            } else {
                w.doc("The shaders of one permutation.");
            }
            w.line("#[derive(Clone, Copy, Debug, PartialEq, Eq)]");
            w.open(&format!("pub struct {} {{", self.compute_kind.shaders));
            w.doc("Compute shader.");
            w.line("pub compute: StageShader,");
            w.doc("Its workgroup size (`@workgroup_size`, D3D's `numthreads`).");
            w.line("pub workgroup_size: [u32; 3],");
            w.close("}");
        }
        for kind in [&self.render, &self.compute_kind] {
            let Some(name) = kind.pass_enum else { continue };
            let passes: Vec<&crate::effect::Pass> = kind.passes.iter().map(|&i| &c.effect.passes[i]).collect();
            let w = &mut self.w;
            w.blank();
            if !self.mixed {
                w.doc("The passes of the effect.");
            } else if name == "ComputePass" {
                w.doc("The compute passes of the effect.");
            } else {
                w.doc("The render passes of the effect.");
            }
            w.line("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]");
            w.open(&format!("pub enum {name} {{"));
            for p in &passes {
                w.doc(&format!("Pass `{}`.", p.name));
                w.line(&format!("{},", pascal_case(&p.name)));
            }
            w.close("}");
            w.blank();
            w.open(&format!("impl {name} {{"));
            w.doc(if self.mixed {
                "Every such pass, in declaration order."
            } else {
                "Every pass, in declaration order."
            });
            w.line(&format!(
                "pub const ALL: [{name}; {}] = [{}];",
                passes.len(),
                passes.iter().map(|p| format!("{name}::{}", pascal_case(&p.name))).collect::<Vec<_>>().join(", ")
            ));
            w.close("}");
        }
        self.techniques();
    }

    /// `Technique` (and, in a mixed effect, `Step`): the effect file's `[techniques]`.
    fn techniques(&mut self) {
        let c = self.c;
        let techniques = &c.effect.techniques;
        if techniques.is_empty() {
            return;
        }
        // With passes of several kinds, a technique's steps say which API runs each.
        let kinds: Vec<PassKind> = [PassKind::Render, PassKind::Compute, PassKind::Geometry]
            .into_iter()
            .filter(|k| c.effect.passes.iter().any(|p| p.kind() == *k))
            .collect();
        let stepped = kinds.len() > 1;
        let pass_enum = |k: PassKind| match k {
            PassKind::Render => self.render.pass_enum,
            PassKind::Compute => self.compute_kind.pass_enum,
            PassKind::Geometry => self.geometry.pass_enum,
        };
        let step_name = |k: PassKind| match k {
            PassKind::Render => "Render",
            PassKind::Compute => "Compute",
            PassKind::Geometry => "Geometry",
        };
        // The value naming pass `i` in a technique's list.
        let step = |i: usize| -> String {
            let p = &c.effect.passes[i];
            let value =
                format!("{}::{}", pass_enum(p.kind()).expect("techniques imply pass enums"), pascal_case(&p.name));
            if stepped {
                format!("Step::{}({value})", step_name(p.kind()))
            } else {
                value
            }
        };
        let element = if stepped { "Step" } else { pass_enum(kinds[0]).expect("techniques imply pass enums") };
        let lists: Vec<Vec<String>> = techniques.iter().map(|t| t.passes.iter().map(|&i| step(i)).collect()).collect();
        let enums: Vec<(PassKind, &str)> =
            kinds.iter().map(|&k| (k, pass_enum(k).expect("techniques imply pass enums"))).collect();
        let w = &mut self.w;
        if stepped {
            w.blank();
            if kinds == [PassKind::Render, PassKind::Compute] {
                w.doc("One pass of a technique: a render pass (draw with its pipeline) or a compute pass");
                w.doc("(dispatch it).");
            } else {
                w.doc("One pass of a technique, of the kind that says which API runs it: a render pass (draw with");
                w.doc("its pipeline), a compute pass (dispatch it), or a pass with a geometry shader (prepare, then");
                w.doc("draw, its primitive stage).");
            }
            w.line("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]");
            w.open("pub enum Step {");
            for (k, e) in enums {
                w.doc(match k {
                    PassKind::Render => "A render pass.",
                    PassKind::Compute => "A compute pass.",
                    PassKind::Geometry => "A pass with a geometry shader.",
                });
                w.line(&format!("{}({e}),", step_name(k)));
            }
            w.close("}");
        }
        w.blank();
        w.doc("The techniques of the effect (`[techniques]`): named lists of passes, run in order, as a");
        w.doc("D3D effect's `technique11 { pass P0 { .. } pass P1 { .. } }`.");
        w.line("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]");
        w.open("pub enum Technique {");
        for t in techniques {
            if let Some(d) = &t.doc {
                for l in d.lines() {
                    w.doc(l);
                }
                w.doc("");
            }
            let names: Vec<String> = t.passes.iter().map(|&i| format!("`{}`", c.effect.passes[i].name)).collect();
            w.doc(&format!("Technique `{}`: {}.", t.name, names.join(", then ")));
            w.line(&format!("{},", pascal_case(&t.name)));
        }
        w.close("}");
        w.blank();
        w.open("impl Technique {");
        w.doc("Every technique, in declaration order.");
        w.line(&format!(
            "pub const ALL: [Technique; {}] = [{}];",
            techniques.len(),
            techniques.iter().map(|t| format!("Technique::{}", pascal_case(&t.name))).collect::<Vec<_>>().join(", ")
        ));
        w.blank();
        w.doc("The technique's name in the effect file.");
        w.open("pub const fn name(self) -> &'static str {");
        w.open("match self {");
        for t in techniques {
            w.line(&format!("Technique::{} => {:?},", pascal_case(&t.name), t.name));
        }
        w.close("}");
        w.close("}");
        w.blank();
        w.doc("Its passes, in the order they run.");
        w.open(&format!("pub const fn passes(self) -> &'static [{element}] {{"));
        w.open("match self {");
        for (t, list) in techniques.iter().zip(&lists) {
            w.line(&format!("Technique::{} => &[{}],", pascal_case(&t.name), list.join(", ")));
        }
        w.close("}");
        w.close("}");
        w.close("}");
    }

    fn axes(&mut self) {
        let e = &self.c.effect;
        for a in &e.axes {
            let AxisKind::Enum(values) = &a.kind else {
                continue;
            };
            let w = &mut self.w;
            let ty = pascal_case(&a.name);
            w.blank();
            match &a.doc {
                Some(d) => w.doc_text(d),
                None => w.doc(&format!("Values of the `{}` axis.", a.name)),
            }
            w.line("#[allow(clippy::enum_variant_names)]");
            w.line("#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]");
            w.open(&format!("pub enum {ty} {{"));
            for (i, v) in values.iter().enumerate() {
                w.doc(&format!("`{v}`{}", if i == a.default { " (the default)." } else { "." }));
                if i == a.default {
                    w.line("#[default]");
                }
                w.line(&format!("{},", pascal_case(v)));
            }
            w.close("}");
            w.blank();
            w.open(&format!("impl {ty} {{"));
            w.doc("Every value, in declaration order.");
            w.line(&format!(
                "pub const ALL: [{ty}; {}] = [{}];",
                values.len(),
                values.iter().map(|v| format!("{ty}::{}", pascal_case(v))).collect::<Vec<_>>().join(", ")
            ));
            w.doc("The value's name in the effect file.");
            w.open("pub const fn name(self) -> &'static str {");
            w.open("match self {");
            for v in values {
                w.line(&format!("{ty}::{} => {v:?},", pascal_case(v)));
            }
            w.close("}");
            w.close("}");
            w.close("}");
        }
    }

    fn value_expr(&self, axis: usize, value: usize) -> String {
        let a = &self.c.effect.axes[axis];
        match &a.kind {
            AxisKind::Bool => (value == 1).to_string(),
            AxisKind::Enum(v) => format!("{}::{}", pascal_case(&a.name), pascal_case(&v[value])),
        }
    }

    fn permutation(&mut self) {
        let c = self.c;
        let e = &c.effect;
        let n = c.permutations.len();
        let derivable = e.axes.iter().all(|a| a.kind != AxisKind::Bool || a.default == 0);
        {
            let w = &mut self.w;
            w.blank();
            w.doc("A permutation of the effect: one value per axis.");
            w.doc("");
            w.doc("The default has every axis at the default the effect file declares.");
            w.line(&format!(
                "#[derive(Clone, Copy, Debug, {}PartialEq, Eq, Hash, PartialOrd, Ord)]",
                if derivable { "Default, " } else { "" }
            ));
            if e.axes.is_empty() {
                w.line("pub struct Permutation {}");
            } else {
                w.open("pub struct Permutation {");
                for a in &e.axes {
                    match &a.doc {
                        Some(d) => w.doc_text(d),
                        None => w.doc(&format!("The `{}` axis.", a.name)),
                    }
                    let ty = match a.kind {
                        AxisKind::Bool => "bool".to_string(),
                        AxisKind::Enum(_) => pascal_case(&a.name),
                    };
                    w.line(&format!("pub {}: {ty},", a.name));
                }
                w.close("}");
            }
        }
        if !derivable {
            let fields: Vec<String> = e
                .axes
                .iter()
                .enumerate()
                .map(|(i, a)| format!("{}: {}", a.name, self.value_expr(i, a.default)))
                .collect();
            let w = &mut self.w;
            w.blank();
            w.open("impl Default for Permutation {");
            w.open("fn default() -> Self {");
            w.open("Permutation {");
            for f in fields {
                w.line(&format!("{f},"));
            }
            w.close("}");
            w.close("}");
            w.close("}");
        }
        let perm_exprs: Vec<String> = c.permutations.iter().map(|p| self.perm_expr(p)).collect();
        let tuples: Vec<String> = c
            .permutations
            .iter()
            .map(|p| {
                let parts: Vec<String> = p.iter().enumerate().map(|(i, &v)| self.value_expr(i, v)).collect();
                if parts.len() == 1 {
                    format!("({},)", parts[0])
                } else {
                    format!("({})", parts.join(", "))
                }
            })
            .collect();
        let excluded = c.permutations.len() < e.axes.iter().map(|a| a.len()).product::<usize>();
        let (has_render, has_compute) = (self.has_render(), self.has_compute());
        let w = &mut self.w;
        w.blank();
        w.open("impl Permutation {");
        w.doc("Number of permutations that exist.");
        w.line(&format!("pub const COUNT: usize = {n};"));
        w.doc("Every permutation that exists (excluded combinations left out), in `Ord` order.");
        w.open(&format!("pub const ALL: [Permutation; {n}] = ["));
        for p in &perm_exprs {
            w.line(&format!("{p},"));
        }
        w.close("];");
        w.blank();
        w.doc("Position in [`Permutation::ALL`], or `None` for a combination the effect file excludes.");
        w.open("pub const fn index(self) -> Option<usize> {");
        if e.axes.is_empty() {
            w.line("Some(0)");
        } else {
            let scrutinee: Vec<String> = e.axes.iter().map(|a| format!("self.{}", a.name)).collect();
            let scrutinee = if scrutinee.len() == 1 {
                format!("({},)", scrutinee[0])
            } else {
                format!("({})", scrutinee.join(", "))
            };
            w.open(&format!("match {scrutinee} {{"));
            for (i, t) in tuples.iter().enumerate() {
                w.line(&format!("{t} => Some({i}),"));
            }
            if excluded {
                w.line("_ => None,");
            }
            w.close("}");
        }
        w.close("}");
        if has_render {
            let pass_param = self.render.pass_param();
            let pass_index = self.render.pass_index("Self::COUNT");
            w.blank();
            if self.mixed {
                w.doc("The shaders of this permutation's render pass, or `None` when it is excluded.");
            } else {
                w.doc("The shaders of this permutation, or `None` when it is excluded.");
            }
            w.open(&format!("pub fn shaders(self{pass_param}) -> Option<Shaders> {{"));
            w.open("self.index().map(|i| {");
            w.line(&format!("let v = VARIANTS[{pass_index}i];"));
            w.open("Shaders {");
            w.line("vertex: SHADERS[v.vertex],");
            w.line("pixel: v.pixel.map(|p| SHADERS[p]),");
            w.close("}");
            w.close("})");
            w.close("}");
            w.blank();
            w.doc("The vertex buffer layout its vertex shader reads (`None` when excluded, or when the");
            w.doc("vertex shader reads no vertex attributes).");
            w.open(&format!(
                "pub fn vertex_buffer_layout(self{pass_param}) -> Option<wgpu::VertexBufferLayout<'static>> {{"
            ));
            w.line(&format!(
                "self.index().and_then(|i| VARIANTS[{pass_index}i].vertex_layout).map(|l| VERTEX_LAYOUTS[l].clone())"
            ));
            w.close("}");
        }
        if has_compute {
            let k = &self.compute_kind;
            let pass_param = k.pass_param();
            let pass_index = k.pass_index("Self::COUNT");
            w.blank();
            if self.mixed {
                w.doc("The shader of this permutation's compute pass, or `None` when it is excluded.");
            } else {
                w.doc("The shaders of this permutation, or `None` when it is excluded.");
            }
            w.open(&format!("pub fn {}(self{pass_param}) -> Option<{}> {{", k.shaders_method, k.shaders));
            w.open("self.index().map(|i| {");
            w.line(&format!("let v = {}[{pass_index}i];", k.variants));
            w.open(&format!("{} {{", k.shaders));
            w.line("compute: SHADERS[v.vertex],");
            w.line("workgroup_size: WORKGROUP_SIZES[v.vertex],");
            w.close("}");
            w.close("})");
            w.close("}");
        }
        w.close("}");
    }

    fn perm_expr(&self, p: &[usize]) -> String {
        if p.is_empty() {
            return "Permutation {}".into();
        }
        let fields: Vec<String> = self
            .c
            .effect
            .axes
            .iter()
            .zip(p)
            .enumerate()
            .map(|(i, (a, &v))| format!("{}: {}", a.name, self.value_expr(i, v)))
            .collect();
        format!("Permutation {{ {} }}", fields.join(", "))
    }

    fn variants(&mut self) {
        let selects = self.selects();
        let sel = |v: bool| if selects { format!(", select: {v}") } else { String::new() };
        let w = &mut self.w;
        w.blank();
        w.line("/// Per pass and permutation: shaders, bind group layouts and vertex layout.");
        w.line("#[derive(Clone, Copy, Debug)]");
        w.open("struct VariantInfo {");
        w.line("vertex: usize,");
        w.line("pixel: Option<usize>,");
        w.line("vertex_group: usize,");
        w.line("pixel_group: usize,");
        w.line("vertex_layout: Option<usize>,");
        if selects {
            w.line("select: bool,");
        }
        w.close("}");
        let kinds: Vec<&Kind> =
            [&self.render, &self.compute_kind].into_iter().filter(|k| !k.passes.is_empty()).collect();
        for k in &kinds {
            w.blank();
            if self.mixed && k.variants == "COMPUTE_VARIANTS" {
                w.line(
                    "// The compute passes: `vertex` is the compute shader, `vertex_group` its COMPUTE_GROUPS entry.",
                );
            } else if self.mixed {
                w.line("// The render passes.");
            }
            let rows: Vec<String> = k
                .passes
                .iter()
                .flat_map(|&p| &self.plan.variants[p])
                .filter_map(|v| match v {
                    VariantPlan::Render(v) => Some(format!(
                        "VariantInfo {{ vertex: {}, pixel: {}, vertex_group: {}, pixel_group: {}, vertex_layout: {}{} }},",
                        v.vertex,
                        opt(v.pixel),
                        v.vertex_group,
                        v.pixel_group,
                        opt(v.vertex_layout),
                        sel(v.select)
                    )),
                    VariantPlan::Compute(v) => Some(format!(
                        "VariantInfo {{ vertex: {}, pixel: None, vertex_group: {}, pixel_group: 0, vertex_layout: None{} }},",
                        v.compute,
                        v.group,
                        sel(false)
                    )),
                    // The passes with a geometry shader have their own table (`GEOMETRY_VARIANTS`).
                    VariantPlan::Geometry(_) => None,
                })
                .collect();
            w.open(&format!("const {}: [VariantInfo; {}] = [", k.variants, rows.len()));
            for r in rows {
                w.line(&r);
            }
            w.close("];");
        }
        for k in &kinds {
            w.blank();
            let pass_param = k.pass_param();
            let pass_index = k.pass_index("Permutation::COUNT");
            let pass_arg = if k.pass_enum.is_some() { "{pass:?} " } else { "" };
            w.open(&format!("fn {}(permutation: Permutation{pass_param}) -> VariantInfo {{", k.variant_fn));
            w.open("match permutation.index() {");
            w.line(&format!("Some(i) => {}[{pass_index}i],", k.variants));
            w.line(&format!(
                "None => panic!(\"{{NAME}}: {pass_arg}permutation {{permutation:?}} is excluded by the effect file\"),"
            ));
            w.close("}");
            w.close("}");
        }
    }

    fn cbuffer_struct(&mut self, index: usize, l: &Layout) {
        let c = self.c;
        let e = &c.effect;
        let name = pascal_case(&l.name);
        let size = l.size();
        let users: Vec<String> = e
            .cbuffers
            .iter()
            .filter(|cb| cb.layout == index)
            .map(|cb| {
                let stages = match &cb.stages {
                    Some(s) => s.iter().map(|s| s.name()).collect::<Vec<_>>().join(" and "),
                    None => "every stage".into(),
                };
                format!("`{}` (b{}, {stages})", cb.name, cb.slot)
            })
            .collect();
        let mut doc = vec![match &l.doc {
            Some(d) => Doc::Text(d.clone()),
            None if l.from_reflection => Doc::Line(format!(
                "Constant buffer `{}` as HLSL packs it, from the shaders' reflection (RDEF): HLSL's packing \
                 rules place its variables where the compiler recorded them.",
                l.name
            )),
            None => Doc::Line(format!("Constant-buffer layout `{}` as HLSL packs it.", l.name)),
        }];
        doc.push(Doc::Line(String::new()));
        doc.push(Doc::Line(format!(
            "{} registers ({size} bytes){}. Upload with `bytemuck::bytes_of`.",
            size / REGISTER,
            if users.is_empty() { String::new() } else { format!("; used by {}", users.join(", ")) }
        )));
        self.structs.write_layout(&mut self.w, &name, &doc, &l.fields, &l.field_docs, size);
    }

    fn vertex_structs(&mut self) {
        let w = &mut self.w;
        for l in &self.plan.vertex_layouts {
            w.blank();
            w.doc("One vertex as the vertex shaders of some permutations read it, tightly packed.");
            w.doc("");
            let attrs: Vec<String> = l
                .attributes
                .iter()
                .map(|a| format!("`{}` {} at byte {} (location {})", a.semantic, a.format.webgpu, a.offset, a.location))
                .collect();
            w.doc(&format!("Attributes: {}; stride {} bytes.", attrs.join(", "), l.stride));
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
                w.doc(&format!("`{}` (location {}), {}.", a.semantic, a.location, a.format.webgpu));
                w.line(&format!("pub {}: {},", a.field, vertex_rust_type(&a.format)));
                cursor = a.offset + a.format.size;
            }
            if l.stride > cursor {
                w.doc("Padding.");
                w.line(&format!("pub _pad{pad}: [u8; {}],", l.stride - cursor));
            }
            w.close("}");
            w.blank();
            w.open(&format!("impl {} {{", l.struct_name));
            w.doc("The vertex attributes, by shader location.");
            w.open(&format!("pub const ATTRIBUTES: [wgpu::VertexAttribute; {}] = [", l.attributes.len()));
            for a in &l.attributes {
                w.open("wgpu::VertexAttribute {");
                w.line(&format!("format: wgpu::VertexFormat::{},", a.format.wgpu));
                w.line(&format!("offset: {},", a.offset));
                w.line(&format!("shader_location: {},", a.location));
                w.close("},");
            }
            w.close("];");
            w.doc("The vertex buffer layout (one interleaved buffer, per-vertex step).");
            w.open("pub const LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {");
            w.line(&format!("array_stride: {},", l.stride));
            w.line("step_mode: wgpu::VertexStepMode::Vertex,");
            w.line(&format!("attributes: &{}::ATTRIBUTES,", l.struct_name));
            w.close("};");
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
        w.blank();
        w.open(&format!(
            "const VERTEX_LAYOUTS: [wgpu::VertexBufferLayout<'static>; {}] = [",
            self.plan.vertex_layouts.len()
        ));
        for l in &self.plan.vertex_layouts {
            w.line(&format!("{}::LAYOUT,", l.struct_name));
        }
        w.close("];");
    }

    fn resources(&mut self) {
        if self.has_render() {
            self.resources_struct(PassKind::Render);
        }
        if self.has_compute() {
            self.resources_struct(PassKind::Compute);
        }
        if self.has_geometry() {
            self.resources_struct(PassKind::Geometry);
        }
        let mixed = self.mixed;
        let geometry = self.has_geometry();
        let w = &mut self.w;
        w.blank();
        if geometry {
            let names: Vec<&str> = [
                (self.render.passes.is_empty(), "[`BindGroups::new`]"),
                (
                    self.compute_kind.passes.is_empty(),
                    if mixed { "[`ComputeBindGroups::new`]" } else { "[`BindGroups::new`]" },
                ),
                (false, "[`GeometryBindGroups::new`]"),
            ]
            .into_iter()
            .filter(|(none, _)| !none)
            .map(|(_, n)| n)
            .collect();
            w.doc(&format!("{} was not given a resource the permutation binds; the field name.", names.join(" or ")));
        } else if mixed {
            w.doc("[`BindGroups::new`] or [`ComputeBindGroups::new`] was not given a resource the permutation");
            w.doc("binds; the field name.");
        } else {
            w.doc("[`BindGroups::new`] was not given a resource the permutation binds; the field name.");
        }
        w.line("#[derive(Clone, Copy, Debug, PartialEq, Eq)]");
        w.line("pub struct MissingResource(pub &'static str);");
        w.blank();
        w.open("impl core::fmt::Display for MissingResource {");
        w.open("fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {");
        if mixed || geometry {
            w.line(
                "write!(f, \"{NAME}: the permutation binds `{}`, but the resources' `{}` is None\", self.0, self.0)",
            );
        } else {
            w.line("write!(f, \"{NAME}: the permutation binds `{}`, but Resources::{} is None\", self.0, self.0)");
        }
        w.close("}");
        w.close("}");
        w.blank();
        w.line("impl std::error::Error for MissingResource {}");
    }

    /// The `Resources` struct of the render passes (or of the compute passes, in an effect that
    /// has only those), or a mixed effect's `ComputeResources`.
    fn resources_struct(&mut self, kind: PassKind) {
        let c = self.c;
        let e = &c.effect;
        let mixed = self.mixed;
        let compute = kind == PassKind::Compute;
        let fields = self.plan.fields_of(kind);
        let name = match kind {
            PassKind::Render => self.render.resources,
            PassKind::Compute => self.compute_kind.resources,
            PassKind::Geometry => "GeometryResources",
        };
        let w = &mut self.w;
        w.blank();
        if kind == PassKind::Geometry {
            w.doc("The resources the effect's passes with a geometry shader bind, by name: their vertex shaders'");
            w.doc("(group 0), pixel shaders' (group 1) and geometry shaders' (group 2) registers.");
            w.doc("");
            w.doc("A constant-buffer field serves every stage that declares its register, as D3D applications");
            w.doc("usually bind one buffer to several stages. Fields that only some permutations (or passes) use");
            w.doc("are `Option`s.");
        } else if !mixed {
            w.doc("The resources the effect binds, by name.");
            w.doc("");
            w.doc("A constant-buffer field serves every stage that declares its register: the same buffer");
            w.doc("is bound as the vertex shader's and the pixel shader's `b#`, as D3D applications usually do.");
            w.doc("Fields that only some permutations use are `Option`s.");
        } else if !compute {
            w.doc("The resources the effect's render passes bind, by name ([`ComputeResources`] are the compute");
            w.doc("passes').");
            w.doc("");
            w.doc("A constant-buffer field serves every stage that declares its register: the same buffer");
            w.doc("is bound as the vertex shader's and the pixel shader's `b#`, as D3D applications usually do.");
            w.doc("Fields that only some permutations (or passes) use are `Option`s.");
        } else {
            w.doc("The resources the effect's compute passes bind, by name ([`Resources`] are the render");
            w.doc("passes'; a resource both kinds of pass bind is a field of both).");
            w.doc("");
            w.doc("Fields that only some permutations (or passes) use are `Option`s.");
        }
        w.line("#[derive(Clone, Copy, Debug)]");
        w.open(&format!("pub struct {name}<'a> {{"));
        if fields.is_empty() {
            w.doc(if kind == PassKind::Geometry {
                "The passes with a geometry shader bind nothing."
            } else if mixed {
                if compute {
                    "The compute passes bind nothing."
                } else {
                    "The render passes bind nothing."
                }
            } else {
                "The effect binds nothing."
            });
            w.line("pub _marker: core::marker::PhantomData<&'a ()>,");
        }
        for f in fields {
            w.doc(&resource_doc(e, f));
            if let Some(d) = &f.doc {
                w.doc("");
                w.doc_text(d);
            }
            let ty = match f.kind {
                FieldKind::UniformBuffer | FieldKind::StorageBuffer | FieldKind::CounterBuffer => "&'a wgpu::Buffer",
                FieldKind::TextureView => "&'a wgpu::TextureView",
                FieldKind::Sampler => "&'a wgpu::Sampler",
            };
            if f.required {
                w.line(&format!("pub {}: {ty},", f.name));
            } else {
                w.line(&format!("pub {}: Option<{ty}>,", f.name));
            }
        }
        w.close("}");
    }

    fn layouts(&mut self) {
        if self.has_render() {
            self.render_layouts();
        }
        if self.has_compute() {
            self.compute_layouts();
        }
    }

    fn render_layouts(&mut self) {
        let c = self.c;
        let e = &c.effect;
        let k = &self.render;
        let (pass_param, pass_arg, pass_first) = (k.pass_param(), k.pass_arg(), k.pass_first_param());
        let pass_enum = k.pass_enum;
        let selects = self.selects();
        let groups = &self.plan.groups;
        let w = &mut self.w;
        for (g, (list, stage)) in groups.iter().zip([Stage::Vertex, Stage::Pixel]).enumerate() {
            w.blank();
            let vis = match stage {
                Stage::Pixel => "FRAGMENT",
                Stage::Vertex => "VERTEX",
                Stage::Compute | Stage::Geometry => "COMPUTE",
            };
            w.open(&format!(
                "const {}_GROUPS: [&[wgpu::BindGroupLayoutEntry]; {}] = [",
                stage.name().to_ascii_uppercase(),
                list.len()
            ));
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
            let _ = g;
        }
        w.blank();
        w.doc("The entries of the bind group layouts of a permutation, `[group 0 (vertex), group 1 (pixel)]`,");
        w.doc("as [`Layouts::new`] creates them (for tools that build or check layouts themselves).");
        w.doc("");
        w.doc("# Panics");
        w.doc("");
        w.doc("If `permutation` is a combination the effect file excludes (not in [`Permutation::ALL`]).");
        w.open(&format!(
            "pub fn bind_group_layout_entries({pass_first}permutation: Permutation) -> [&'static [wgpu::BindGroupLayoutEntry]; 2] {{"
        ));
        w.line(&format!("let v = variant(permutation{pass_arg});"));
        w.line("[VERTEX_GROUPS[v.vertex_group], PIXEL_GROUPS[v.pixel_group]]");
        w.close("}");
        w.blank();
        if self.mixed {
            w.doc("The bind group layouts and the pipeline layout of one permutation's render pass.");
        } else {
            w.doc("The bind group layouts and the pipeline layout of one permutation.");
        }
        w.doc("");
        w.doc("Group 0 holds the vertex shader's resources and group 1 the pixel shader's (empty when");
        w.doc("a stage binds nothing), as `docs/binding-model.md` of dxbc-wgsl describes.");
        w.line("#[derive(Clone, Debug)]");
        w.open("pub struct Layouts {");
        if let Some(pass_enum) = pass_enum {
            w.doc("The pass they were made for.");
            w.line(&format!("pub pass: {pass_enum},"));
        }
        w.doc("The permutation they were made for.");
        w.line("pub permutation: Permutation,");
        w.doc("`@group(0)`: the vertex shader's resources.");
        w.line("pub vertex: wgpu::BindGroupLayout,");
        w.doc("`@group(1)`: the pixel shader's resources.");
        w.line("pub pixel: wgpu::BindGroupLayout,");
        if selects {
            w.doc("`@group(3)`: the per-primitive selection uniform when the vertex shader writes");
            w.doc("SV_RenderTargetArrayIndex or SV_ViewportArrayIndex (group 2 empty): draw once per layer and");
            w.doc("viewport with [`select::Selection`] (docs/per-primitive.md).");
            w.line("pub select: Option<wgpu::BindGroupLayout>,");
        }
        w.doc("The pipeline layout with both groups.");
        w.line("pub pipeline: wgpu::PipelineLayout,");
        w.close("}");
        w.blank();
        w.open("impl Layouts {");
        w.doc("Creates the layouts of a permutation.");
        w.doc("");
        w.doc("# Panics");
        w.doc("");
        w.doc("If `permutation` is a combination the effect file excludes (not in [`Permutation::ALL`]).");
        w.open(&format!("pub fn new(device: &wgpu::Device{pass_param}, permutation: Permutation) -> Self {{"));
        w.line(&format!("let v = variant(permutation{pass_arg});"));
        w.open("let vertex = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {");
        w.line(&format!("label: Some({:?}),", format!("{} group {VERTEX_GROUP} (vertex)", e.name)));
        w.line("entries: VERTEX_GROUPS[v.vertex_group],");
        w.close("});");
        w.open("let pixel = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {");
        w.line(&format!("label: Some({:?}),", format!("{} group {PIXEL_GROUP} (pixel)", e.name)));
        w.line("entries: PIXEL_GROUPS[v.pixel_group],");
        w.close("});");
        if selects {
            w.open("let select = v.select.then(|| {");
            w.open("device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {");
            w.line(&format!(
                "label: Some({:?}),",
                format!("{} group {SELECT_GROUP} (per-primitive selection)", e.name)
            ));
            w.line("entries: &select::Selection::layout_descriptor_entries(),");
            w.close("})");
            w.close("});");
            w.line("let empty = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &[] });");
            w.open("let groups = match &select {");
            let (vertex, pixel) = ((VERTEX_GROUP, "Some(&vertex)"), (PIXEL_GROUP, "Some(&pixel)"));
            let selected = group_slots(&[vertex, pixel, (SELECT_GROUP, "Some(s)")], "Some(&empty)");
            w.line(&format!("Some(s) => vec![{selected}],"));
            w.line(&format!("None => vec![{}],", group_slots(&[vertex, pixel], "Some(&empty)")));
            w.close("};");
        }
        w.open("let pipeline = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {");
        w.line("label: Some(NAME),");
        if selects {
            w.line("bind_group_layouts: &groups,");
        } else {
            let groups = group_slots(&[(VERTEX_GROUP, "Some(&vertex)"), (PIXEL_GROUP, "Some(&pixel)")], "None");
            w.line(&format!("bind_group_layouts: &[{groups}],"));
        }
        w.line("immediate_size: 0,");
        w.close("});");
        w.open("Layouts {");
        if pass_enum.is_some() {
            w.line("pass,");
        }
        w.line("permutation,");
        w.line("vertex,");
        w.line("pixel,");
        if selects {
            w.line("select,");
        }
        w.line("pipeline,");
        w.close("}");
        w.close("}");
        w.close("}");
    }

    fn bind_groups(&mut self) {
        if self.has_render() {
            self.render_bind_groups();
            self.group_entries(false);
        }
        if self.has_compute() {
            self.compute_bind_groups();
            self.group_entries(true);
        }
    }

    fn render_bind_groups(&mut self) {
        let e = &self.c.effect;
        let pass_arg = self.render.layouts_pass_arg();
        let w = &mut self.w;
        w.blank();
        if self.mixed {
            w.doc("The bind groups of one permutation's render pass: group 0 (vertex) and group 1 (pixel).");
        } else {
            w.doc("The bind groups of one permutation: group 0 (vertex) and group 1 (pixel).");
        }
        w.line("#[derive(Clone, Debug)]");
        w.open("pub struct BindGroups {");
        w.doc("`@group(0)`.");
        w.line("pub vertex: wgpu::BindGroup,");
        w.doc("`@group(1)`.");
        w.line("pub pixel: wgpu::BindGroup,");
        w.close("}");
        w.blank();
        w.open("impl BindGroups {");
        w.doc("Creates the bind groups for `layouts` from `resources`.");
        w.doc("");
        w.doc("# Errors");
        w.doc("");
        w.doc("[`MissingResource`] when the permutation binds a resource given as `None`.");
        w.open(
            "pub fn new(device: &wgpu::Device, layouts: &Layouts, resources: &Resources<'_>) -> Result<Self, MissingResource> {",
        );
        w.line(&format!("let v = variant(layouts.permutation{pass_arg});"));
        w.line("let vertex_entries = group_entries(0, v.vertex_group, resources)?;");
        w.line("let pixel_entries = group_entries(1, v.pixel_group, resources)?;");
        w.open("Ok(BindGroups {");
        w.open("vertex: device.create_bind_group(&wgpu::BindGroupDescriptor {");
        w.line(&format!("label: Some({:?}),", format!("{} group {VERTEX_GROUP} (vertex)", e.name)));
        w.line("layout: &layouts.vertex,");
        w.line("entries: &vertex_entries,");
        w.close("}),");
        w.open("pixel: device.create_bind_group(&wgpu::BindGroupDescriptor {");
        w.line(&format!("label: Some({:?}),", format!("{} group {PIXEL_GROUP} (pixel)", e.name)));
        w.line("layout: &layouts.pixel,");
        w.line("entries: &pixel_entries,");
        w.close("}),");
        w.close("})");
        w.close("}");
        w.blank();
        w.doc("Sets both bind groups (0 and 1) on a render pass.");
        w.open("pub fn set(&self, pass: &mut wgpu::RenderPass<'_>) {");
        w.line(&format!("pass.set_bind_group({VERTEX_GROUP}, &self.vertex, &[]);"));
        w.line(&format!("pass.set_bind_group({PIXEL_GROUP}, &self.pixel, &[]);"));
        w.close("}");
        w.close("}");
    }

    /// The private function that makes the bind group entries of the render passes' groups (or of
    /// the compute passes') from the resources struct.
    fn group_entries(&mut self, compute: bool) {
        let k = if compute { &self.compute_kind } else { &self.render };
        let plan = &self.plan;
        let tables: Vec<(usize, &Vec<Vec<GroupEntry>>)> =
            if compute { vec![(0, &plan.compute_groups)] } else { vec![(0, &plan.groups[0]), (1, &plan.groups[1])] };
        let w = &mut self.w;
        w.blank();
        w.open(&format!(
            "fn {}<'a>(group: u32, index: usize, r: &{}<'a>) -> Result<Vec<wgpu::BindGroupEntry<'a>>, MissingResource> {{",
            k.group_entries_fn, k.resources
        ));
        let any_resources = tables.iter().flat_map(|t| t.1).any(|g| !g.is_empty());
        if !any_resources {
            w.line("let _ = (group, index, r);");
            w.line("Ok(Vec::new())");
        } else {
            w.open("Ok(match (group, index) {");
            for (g, list) in tables {
                for (i, entries) in list.iter().enumerate() {
                    if entries.is_empty() {
                        continue;
                    }
                    w.open(&format!("({g}, {i}) => vec!["));
                    for entry in entries {
                        let f = plan.field(entry.field);
                        let name = &f.name;
                        let get = if f.required {
                            format!("r.{name}")
                        } else {
                            format!("r.{name}.ok_or(MissingResource({name:?}))?")
                        };
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
                    w.close("],");
                }
            }
            w.line("_ => Vec::new(),");
            w.close("})");
        }
        w.close("}");
    }

    /// Doc lines for one aspect of every render pass's states: `- line` for a single pass, and
    /// `- pass \`name\`: line; line` for several.
    fn pass_docs(&mut self, describe: impl Fn(&PassStates) -> Vec<String>) {
        let multi = self.render.pass_enum.is_some();
        let w = &mut self.w;
        for p in self.render.passes.iter().map(|&i| &self.c.effect.passes[i]) {
            let lines = describe(&p.states);
            if multi {
                w.doc(&format!("- pass `{}`: {}.", p.name, lines.join("; ")));
            } else {
                for l in lines {
                    w.doc(&format!("- {l}."));
                }
            }
        }
    }

    /// The per-pass render-state tables and the public functions that read them.
    fn states(&mut self) {
        let passes: Vec<&crate::effect::Pass> = self.render.passes.iter().map(|&i| &self.c.effect.passes[i]).collect();
        let n = passes.len();
        let pp = self.render.pass_first_param();
        let (pa, index) = if self.render.pass_enum.is_some() { ("pass, ", "pass as usize") } else { ("", "0") };
        let w = &mut self.w;
        w.blank();
        w.line(if self.mixed {
            "// The render states of each render pass (effect file, else D3D11's defaults), in wgpu's terms."
        } else {
            "// The render states of each pass (effect file, else D3D11's defaults), in wgpu's terms."
        });
        let table = |w: &mut W, name: &str, ty: &str, item: &dyn Fn(&PassStates) -> String| {
            w.open(&format!("const {name}: [{ty}; {n}] = ["));
            for p in &passes {
                w.line(&format!("{}, // {}", item(&p.states), p.name));
            }
            w.close("];");
        };
        table(w, "PASS_PRIMITIVE", "wgpu::PrimitiveState", &|s| s.wgpu_primitive());
        table(w, "PASS_BLEND", "[Option<wgpu::BlendState>; 8]", &|s| {
            if s.blend.independent_blend {
                format!("[{}]", (0..8).map(|i| s.blend.target(i).wgpu_blend()).collect::<Vec<_>>().join(", "))
            } else {
                format!("[{}; 8]", s.blend.target(0).wgpu_blend())
            }
        });
        table(w, "PASS_WRITE_MASK", "[wgpu::ColorWrites; 8]", &|s| {
            if s.blend.independent_blend {
                format!("[{}]", (0..8).map(|i| s.blend.target(i).wgpu_write_mask()).collect::<Vec<_>>().join(", "))
            } else {
                format!("[{}; 8]", s.blend.target(0).wgpu_write_mask())
            }
        });
        table(w, "PASS_ALPHA_TO_COVERAGE", "bool", &|s| s.blend.alpha_to_coverage.to_string());
        table(w, "PASS_DEPTH", "(bool, wgpu::CompareFunction)", &|s| {
            format!("({}, {})", s.depth_stencil.wgpu_depth_write(), s.depth_stencil.wgpu_depth_compare())
        });
        table(w, "PASS_STENCIL", "wgpu::StencilState", &|s| s.depth_stencil.wgpu_stencil());
        table(w, "PASS_DEPTH_BIAS", "wgpu::DepthBiasState", &|s| s.rasterizer.wgpu_bias());
        table(w, "PASS_SCISSOR", "bool", &|s| s.rasterizer.scissor_enable.to_string());
        table(w, "PASS_FEATURES", "wgpu::Features", &|s| s.wgpu_features().to_string());

        let named = |s: &PassStates, i: usize, what: &str| {
            s.names[i].as_ref().map(|n| format!("{what} state `{n}`: ")).unwrap_or_default()
        };
        w.blank();
        w.doc("Primitive assembly and rasterizer state: the effect file's `topology` and rasterizer state");
        w.doc("(D3D's `FrontCounterClockwise = FALSE` is `FrontFace::Cw`; D3D's default culls back faces).");
        w.doc("The depth bias is part of [`depth_stencil_state`]; the scissor test, of the render pass.");
        w.doc("");
        self.pass_docs(|s| {
            let mut l = s.describe_primitive();
            l[0] = format!("{}{}", named(s, 2, "rasterizer"), l[0]);
            l
        });
        let w = &mut self.w;
        w.open(&format!("pub fn primitive_state({}) -> wgpu::PrimitiveState {{", pp.trim_end_matches(", ")));
        w.line(&format!("PASS_PRIMITIVE[{index}]"));
        w.close("}");
        w.blank();
        w.doc("The blend state of render target `target` (`None`: blending off), from the effect file's");
        w.doc("blend state. D3D's MIN and MAX ignore the factors; WebGPU requires them to be `One`, which");
        w.doc("they are here.");
        w.doc("");
        self.pass_docs(|s| {
            let mut l = s.describe_blend();
            l[0] = format!("{}{}", named(s, 0, "blend"), l[0]);
            l
        });
        let w = &mut self.w;
        w.open(&format!("pub fn blend_state({pp}target: usize) -> Option<wgpu::BlendState> {{"));
        w.line(&format!("PASS_BLEND[{index}].get(target).copied().flatten()"));
        w.close("}");
        w.blank();
        w.doc("The channels render target `target` writes (D3D's `RenderTargetWriteMask`; the bits are");
        w.doc("the same). See [`blend_state`] for each pass's values.");
        w.open(&format!("pub fn color_write_mask({pp}target: usize) -> wgpu::ColorWrites {{"));
        w.line(&format!("PASS_WRITE_MASK[{index}].get(target).copied().unwrap_or(wgpu::ColorWrites::ALL)"));
        w.close("}");
        w.blank();
        w.doc("One color target per format (`SV_Target0`, ...) with the pass's blend state and write mask.");
        w.open(&format!(
            "pub fn color_target_states({pp}formats: &[wgpu::TextureFormat]) -> Vec<Option<wgpu::ColorTargetState>> {{"
        ));
        w.open("formats.iter().enumerate().map(|(i, &format)| {");
        w.line(&format!(
            "Some(wgpu::ColorTargetState {{ format, blend: blend_state({pa}i), write_mask: color_write_mask({pa}i) }})"
        ));
        w.close("}).collect()");
        w.close("}");
        w.blank();
        w.doc("The depth-stencil state for a depth buffer of `format`: the effect file's depth-stencil");
        w.doc("state, and its rasterizer state's depth bias (D3D's `DepthBias`, `SlopeScaledDepthBias` and");
        w.doc("`DepthBiasClamp` are WebGPU's `constant`, `slope_scale` and `clamp`, with the same formula and");
        w.doc("the same unit, the format's minimum resolvable difference). `depth_enable = false` is the");
        w.doc("comparison `Always` without writes. The stencil reference is dynamic in both APIs: set it");
        w.doc("with `RenderPass::set_stencil_reference` (D3D's `OMSetDepthStencilState` argument).");
        w.doc("");
        self.pass_docs(|s| {
            let mut l = s.depth_stencil.describe();
            l[0] = format!("{}{}", named(s, 1, "depth-stencil"), l[0]);
            l.push(s.describe_bias());
            l
        });
        let w = &mut self.w;
        w.open(&format!("pub fn depth_stencil_state({pp}format: wgpu::TextureFormat) -> wgpu::DepthStencilState {{"));
        w.line(&format!("let (depth_write, depth_compare) = PASS_DEPTH[{index}];"));
        w.open("wgpu::DepthStencilState {");
        w.line("format,");
        w.line("depth_write_enabled: Some(depth_write),");
        w.line("depth_compare: Some(depth_compare),");
        w.line(&format!("stencil: PASS_STENCIL[{index}].clone(),"));
        w.line(&format!("bias: PASS_DEPTH_BIAS[{index}],"));
        w.close("}");
        w.close("}");
        w.blank();
        w.doc("Multisample state for `count` samples per pixel (all of them enabled), with the blend");
        w.doc("state's alpha to coverage when `count` is above 1. WebGPU rejects alpha to coverage on");
        w.doc("single-sampled targets, so with `count == 1` it is left off and alpha does not mask the");
        w.doc("pixel (D3D11 would turn alpha into a one-sample coverage mask; see docs/compatibility.md).");
        w.open(&format!("pub fn multisample_state({pp}count: u32) -> wgpu::MultisampleState {{"));
        w.line(&format!(
            "wgpu::MultisampleState {{ count, mask: !0, alpha_to_coverage_enabled: count > 1 && PASS_ALPHA_TO_COVERAGE[{index}] }}"
        ));
        w.close("}");
        w.blank();
        w.doc("Whether the rasterizer state enables the scissor test (D3D's `ScissorEnable`). WebGPU's");
        w.doc("scissor rectangle is state of the render pass, the whole target unless changed: when this");
        w.doc("is true, call `RenderPass::set_scissor_rect` (D3D's `RSSetScissorRects`) before drawing;");
        w.doc("when false, leave it at (or reset it to) the whole target.");
        w.open(&format!("pub fn scissor_enable({}) -> bool {{", pp.trim_end_matches(", ")));
        w.line(&format!("PASS_SCISSOR[{index}]"));
        w.close("}");
        w.blank();
        w.doc("The wgpu features the pass's states need (`DEPTH_CLIP_CONTROL` for `depth_clip_enable =");
        w.doc("false`); request them when creating the device.");
        w.open(&format!("pub fn required_features({}) -> wgpu::Features {{", pp.trim_end_matches(", ")));
        w.line(&format!("PASS_FEATURES[{index}]"));
        w.close("}");
    }

    fn pipeline(&mut self) {
        if self.has_render() {
            self.render_pipeline();
        }
        if self.has_compute() {
            self.compute_pipeline();
        }
    }

    fn render_pipeline(&mut self) {
        self.states();
        let multi_pass = self.render.pass_enum.is_some();
        let pp = self.render.pass_first_param();
        let (pa, layouts_pass) = if multi_pass { ("pass, ", "layouts.pass, ") } else { ("", "") };
        let w = &mut self.w;
        w.blank();
        w.doc("Render states for [`create_render_pipeline_with`].");
        w.line("#[derive(Clone, Debug)]");
        w.open("pub struct PipelineOptions<'a> {");
        w.doc("Pipeline label (the effect name when `None`).");
        w.line("pub label: Option<&'a str>,");
        w.doc("One entry per render target the pixel shader writes (`SV_Target0`, ...).");
        w.line("pub color_targets: &'a [Option<wgpu::ColorTargetState>],");
        w.doc("Depth-stencil state, if the pass has a depth buffer.");
        w.line("pub depth_stencil: Option<wgpu::DepthStencilState>,");
        w.doc("Primitive assembly and rasterizer state.");
        w.line("pub primitive: wgpu::PrimitiveState,");
        w.doc("Multisampling.");
        w.line("pub multisample: wgpu::MultisampleState,");
        w.close("}");
        w.blank();
        w.open("impl<'a> PipelineOptions<'a> {");
        w.doc("The given targets and depth-stencil state, with the pass's declared primitive and");
        w.doc("rasterizer state ([`primitive_state`]) and single-sampled [`multisample_state`].");
        w.doc("[`color_target_states`] and [`depth_stencil_state`] give the pass's declared targets.");
        w.open(&format!(
            "pub fn new({pp}color_targets: &'a [Option<wgpu::ColorTargetState>], depth_stencil: Option<wgpu::DepthStencilState>) -> Self {{"
        ));
        w.open("PipelineOptions {");
        w.line("label: None,");
        w.line("color_targets,");
        w.line("depth_stencil,");
        w.line(&format!("primitive: primitive_state({}),", pa.trim_end_matches(", ")));
        w.line(&format!("multisample: multisample_state({pa}1),"));
        w.close("}");
        w.close("}");
        w.close("}");
        w.blank();
        w.doc("Creates the render pipeline of `layouts`' permutation with the states the effect file");
        w.doc("declares for the pass (D3D11's defaults for what it leaves out): one color target per");
        w.doc("format with [`color_target_states`], [`depth_stencil_state`] when `depth_format` is given,");
        w.doc("[`primitive_state`], and one sample per pixel. Set the dynamic states on the render pass:");
        w.doc("blend constant, stencil reference, and the scissor rectangle when [`scissor_enable`].");
        w.open(
            "pub fn create_render_pipeline(device: &wgpu::Device, layouts: &Layouts, color_formats: &[wgpu::TextureFormat], depth_format: Option<wgpu::TextureFormat>) -> wgpu::RenderPipeline {",
        );
        w.line(&format!("let targets = color_target_states({layouts_pass}color_formats);"));
        if multi_pass {
            w.line("let depth_stencil = depth_format.map(|format| depth_stencil_state(layouts.pass, format));");
        } else {
            w.line("let depth_stencil = depth_format.map(depth_stencil_state);");
        }
        w.line(&format!(
            "create_render_pipeline_with(device, layouts, &PipelineOptions::new({layouts_pass}&targets, depth_stencil))"
        ));
        w.close("}");
        w.blank();
        w.doc("Creates the render pipeline of `layouts`' permutation with the given states.");
        w.open(
            "pub fn create_render_pipeline_with(device: &wgpu::Device, layouts: &Layouts, options: &PipelineOptions<'_>) -> wgpu::RenderPipeline {",
        );
        w.line(&format!("let v = variant(layouts.permutation{});", if multi_pass { ", layouts.pass" } else { "" }));
        w.line("let vs = SHADERS[v.vertex];");
        w.line("let vs_module = vs.create_module(device);");
        w.line("let ps = v.pixel.map(|p| SHADERS[p]);");
        w.line("let ps_module = ps.map(|p| p.create_module(device));");
        w.line(
            "let buffers: Vec<Option<wgpu::VertexBufferLayout<'static>>> = v.vertex_layout.map(|l| VERTEX_LAYOUTS[l].clone()).into_iter().map(Some).collect();",
        );
        // A pixel shader reading the rasterizer's sample count (`sampleinfo`/`samplepos` of the
        // rasterizer) declares it as a pipeline-overridable constant, set from the pipeline's
        // multisample state.
        let counted: Vec<usize> = (0..self.c.shaders.len())
            .filter(|&i| {
                self.c.shaders[i].info.pipeline_constants.contains(&dxbc_wgsl::PipelineConstant::RasterizerSampleCount)
            })
            .collect();
        let ps_constants = if counted.is_empty() {
            "wgpu::PipelineCompilationOptions::default()"
        } else {
            w.line(&format!(
                "// The pixel shaders that read the rasterizer's sample count (`override {}`).",
                dxbc_wgsl::PipelineConstant::RasterizerSampleCount.name()
            ));
            w.line(&format!(
                "const SAMPLE_COUNT_SHADERS: [usize; {}] = [{}];",
                counted.len(),
                counted.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
            ));
            w.line(&format!(
                "let sample_count = [({:?}, f64::from(options.multisample.count))];",
                dxbc_wgsl::PipelineConstant::RasterizerSampleCount.name()
            ));
            w.line("let ps_constants: &[(&str, f64)] = if v.pixel.is_some_and(|p| SAMPLE_COUNT_SHADERS.contains(&p)) { &sample_count } else { &[] };");
            "wgpu::PipelineCompilationOptions { constants: ps_constants, ..Default::default() }"
        };
        w.open("device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {");
        w.line("label: Some(options.label.unwrap_or(NAME)),");
        w.line("layout: Some(&layouts.pipeline),");
        w.open("vertex: wgpu::VertexState {");
        w.line("module: &vs_module,");
        w.line("entry_point: Some(vs.entry_point),");
        w.line("compilation_options: wgpu::PipelineCompilationOptions::default(),");
        w.line("buffers: &buffers,");
        w.close("},");
        w.line("primitive: options.primitive,");
        w.line("depth_stencil: options.depth_stencil.clone(),");
        w.line("multisample: options.multisample,");
        w.open("fragment: match (ps, ps_module.as_ref()) {");
        w.open("(Some(ps), Some(module)) => Some(wgpu::FragmentState {");
        w.line("module,");
        w.line("entry_point: Some(ps.entry_point),");
        w.line(&format!("compilation_options: {ps_constants},"));
        w.line("targets: options.color_targets,");
        w.close("}),");
        w.line("_ => None,");
        w.close("},");
        w.line("multiview_mask: None,");
        w.line("cache: None,");
        w.close("})");
        w.close("}");
    }
}

impl Gen<'_> {
    fn compute_layouts(&mut self) {
        let c = self.c;
        let e = &c.effect;
        let k = &self.compute_kind;
        let (pass_param, pass_arg, pass_first) = (k.pass_param(), k.pass_arg(), k.pass_first_param());
        let (layouts, variant_fn) = (k.layouts, k.variant_fn);
        let w = &mut self.w;
        w.blank();
        w.open(&format!(
            "const COMPUTE_GROUPS: [&[wgpu::BindGroupLayoutEntry]; {}] = [",
            self.plan.compute_groups.len()
        ));
        for entries in &self.plan.compute_groups {
            w.open("&[");
            for b in entries.iter().map(|e| &e.binding) {
                w.open("wgpu::BindGroupLayoutEntry {");
                w.line(&format!("binding: {},", b.binding));
                w.line("visibility: wgpu::ShaderStages::COMPUTE,");
                w.line(&format!("ty: {},", binding_type(b)));
                w.line("count: None,");
                w.close("},");
            }
            w.close("],");
        }
        w.close("];");
        w.blank();
        w.doc("The entries of the bind group layout of a permutation, `[group 0 (compute)]`, as");
        w.doc(&format!("[`{layouts}::new`] creates them (for tools that build or check layouts themselves)."));
        w.doc("");
        w.doc("# Panics");
        w.doc("");
        w.doc("If `permutation` is a combination the effect file excludes (not in [`Permutation::ALL`]).");
        w.open(&format!(
            "pub fn {}({pass_first}permutation: Permutation) -> [&'static [wgpu::BindGroupLayoutEntry]; 1] {{",
            k.entries_fn
        ));
        w.line(&format!("let v = {variant_fn}(permutation{pass_arg});"));
        w.line("[COMPUTE_GROUPS[v.vertex_group]]");
        w.close("}");
        w.blank();
        if self.mixed {
            w.doc("The bind group layout and the pipeline layout of one permutation's compute pass.");
        } else {
            w.doc("The bind group layout and the pipeline layout of one permutation.");
        }
        w.doc("");
        w.doc("Group 0 holds the compute shader's resources, as `docs/binding-model.md` of dxbc-wgsl");
        w.doc("describes.");
        w.line("#[derive(Clone, Debug)]");
        w.open(&format!("pub struct {layouts} {{"));
        if let Some(pass_enum) = k.pass_enum {
            w.doc("The pass they were made for.");
            w.line(&format!("pub pass: {pass_enum},"));
        }
        w.doc("The permutation they were made for.");
        w.line("pub permutation: Permutation,");
        w.doc("`@group(0)`: the compute shader's resources.");
        w.line("pub compute: wgpu::BindGroupLayout,");
        w.doc("The pipeline layout.");
        w.line("pub pipeline: wgpu::PipelineLayout,");
        w.close("}");
        w.blank();
        w.open(&format!("impl {layouts} {{"));
        w.doc("Creates the layouts of a permutation.");
        w.doc("");
        w.doc("# Panics");
        w.doc("");
        w.doc("If `permutation` is a combination the effect file excludes (not in [`Permutation::ALL`]).");
        w.open(&format!("pub fn new(device: &wgpu::Device{pass_param}, permutation: Permutation) -> Self {{"));
        w.line(&format!("let v = {variant_fn}(permutation{pass_arg});"));
        w.open("let compute = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {");
        w.line(&format!("label: Some({:?}),", format!("{} group {VERTEX_GROUP} (compute)", e.name)));
        w.line("entries: COMPUTE_GROUPS[v.vertex_group],");
        w.close("});");
        w.open("let pipeline = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {");
        w.line("label: Some(NAME),");
        w.line(&format!("bind_group_layouts: &[{}],", group_slots(&[(VERTEX_GROUP, "Some(&compute)")], "None")));
        w.line("immediate_size: 0,");
        w.close("});");
        w.open(&format!("{layouts} {{"));
        if k.pass_enum.is_some() {
            w.line("pass,");
        }
        w.line("permutation,");
        w.line("compute,");
        w.line("pipeline,");
        w.close("}");
        w.close("}");
        w.close("}");
    }

    fn compute_bind_groups(&mut self) {
        let e = &self.c.effect;
        let k = &self.compute_kind;
        let pass_arg = k.layouts_pass_arg();
        let w = &mut self.w;
        w.blank();
        if self.mixed {
            w.doc("The bind group of one permutation's compute pass: group 0 (compute).");
        } else {
            w.doc("The bind group of one permutation: group 0 (compute).");
        }
        w.line("#[derive(Clone, Debug)]");
        w.open(&format!("pub struct {} {{", k.bind_groups));
        w.doc("`@group(0)`.");
        w.line("pub compute: wgpu::BindGroup,");
        w.close("}");
        w.blank();
        w.open(&format!("impl {} {{", k.bind_groups));
        w.doc("Creates the bind group for `layouts` from `resources`.");
        w.doc("");
        w.doc("# Errors");
        w.doc("");
        w.doc("[`MissingResource`] when the permutation binds a resource given as `None`.");
        w.open(&format!(
            "pub fn new(device: &wgpu::Device, layouts: &{}, resources: &{}<'_>) -> Result<Self, MissingResource> {{",
            k.layouts, k.resources
        ));
        w.line(&format!("let v = {}(layouts.permutation{pass_arg});", k.variant_fn));
        w.line(&format!("let entries = {}(0, v.vertex_group, resources)?;", k.group_entries_fn));
        w.open(&format!("Ok({} {{", k.bind_groups));
        w.open("compute: device.create_bind_group(&wgpu::BindGroupDescriptor {");
        w.line(&format!("label: Some({:?}),", format!("{} group {VERTEX_GROUP} (compute)", e.name)));
        w.line("layout: &layouts.compute,");
        w.line("entries: &entries,");
        w.close("}),");
        w.close("})");
        w.close("}");
        w.blank();
        w.doc("Sets the bind group (group 0) on a compute pass.");
        w.open("pub fn set(&self, pass: &mut wgpu::ComputePass<'_>) {");
        w.line(&format!("pass.set_bind_group({VERTEX_GROUP}, &self.compute, &[]);"));
        w.close("}");
        w.close("}");
    }

    fn compute_pipeline(&mut self) {
        // What the compute shaders need beyond WebGPU's default limits (D3D allows 1024 threads
        // per group, 1024 in x and y and 64 in z, and 32 KB of shared memory).
        let c = self.c;
        let mut need = [0u32; 5];
        for &pi in &self.compute_kind.passes {
            for v in &c.passes[pi] {
                let info = &c.shaders[v.vertex].info;
                if let Some([x, y, z]) = info.workgroup_size {
                    need[0] = need[0].max(x.saturating_mul(y).saturating_mul(z));
                    need[1] = need[1].max(x);
                    need[2] = need[2].max(y);
                    need[3] = need[3].max(z);
                }
                need[4] = need[4].max(info.workgroup_storage_bytes);
            }
        }
        let w = &mut self.w;
        w.blank();
        w.doc("`limits` with what the effect's compute shaders need raised: threads per workgroup");
        w.doc(&format!(
            "({}, {} × {} × {} at most) and workgroup memory ({} bytes). WebGPU's defaults (256",
            need[0], need[1], need[2], need[3], need[4]
        ));
        w.doc("threads, 256 × 256 × 64, 16384 bytes) are below D3D's; request these when creating the device");
        w.doc("(`DeviceDescriptor::required_limits`, within the adapter's `limits()`).");
        w.open("pub fn required_limits(limits: wgpu::Limits) -> wgpu::Limits {");
        w.open("wgpu::Limits {");
        for (field, n) in [
            ("max_compute_invocations_per_workgroup", need[0]),
            ("max_compute_workgroup_size_x", need[1]),
            ("max_compute_workgroup_size_y", need[2]),
            ("max_compute_workgroup_size_z", need[3]),
            ("max_compute_workgroup_storage_size", need[4]),
        ] {
            w.line(&format!("{field}: limits.{field}.max({n}),"));
        }
        w.line("..limits");
        w.close("}");
        w.close("}");
        let k = &self.compute_kind;
        let pass_arg = k.layouts_pass_arg();
        let w = &mut self.w;
        w.blank();
        w.doc("Creates the compute pipeline of `layouts`' permutation (and pass): its compute shader");
        w.doc(&format!("with the pipeline layout of `layouts`. Dispatch it with `{}::set` and", k.bind_groups));
        w.doc(&format!("`dispatch_workgroups` (see `{}::workgroup_size`).", k.shaders));
        w.open(&format!(
            "pub fn create_compute_pipeline(device: &wgpu::Device, layouts: &{}) -> wgpu::ComputePipeline {{",
            k.layouts
        ));
        w.line(&format!(
            "let shaders = layouts.permutation.{}({}).expect(\"Layouts are made for permutations that exist\");",
            k.shaders_method,
            pass_arg.trim_start_matches(", ")
        ));
        w.line("let module = shaders.compute.create_module(device);");
        w.open("device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {");
        w.line("label: Some(NAME),");
        w.line("layout: Some(&layouts.pipeline),");
        w.line("module: &module,");
        w.line("entry_point: Some(shaders.compute.entry_point),");
        w.line("compilation_options: Default::default(),");
        w.line("cache: None,");
        w.close("})");
        w.close("}");
    }
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    match v {
        Some(v) => format!("Some({v})"),
        None => "None".into(),
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

fn stage_prefix(s: Stage) -> &'static str {
    match s {
        Stage::Vertex => "vs",
        Stage::Pixel => "ps",
        Stage::Compute => "cs",
        Stage::Geometry => "gs",
    }
}

/// A raw string literal that can hold `s`.
fn raw_string(s: &str) -> String {
    let mut hashes = 1;
    while s.contains(&format!("\"{}", "#".repeat(hashes))) {
        hashes += 1;
    }
    let h = "#".repeat(hashes);
    format!("r{h}\"{s}\"{h}")
}

fn resource_doc(e: &crate::effect::Effect, f: &ResourceField) -> String {
    let regs: Vec<String> = {
        let mut by_reg: Vec<(String, Vec<&str>)> = Vec::new();
        for (stage, reg) in &f.registers {
            match by_reg.iter_mut().find(|(r, _)| r == reg) {
                Some((_, s)) => s.push(stage.name()),
                None => by_reg.push((reg.clone(), vec![stage.name()])),
            }
        }
        by_reg.into_iter().map(|(r, s)| format!("{r} of the {} shader", s.join(" and "))).collect()
    };
    let mut d = match f.cbuffer {
        Some(ci) => {
            let cb = &e.cbuffers[ci];
            let layout = &e.layouts[cb.layout];
            format!(
                "Constant buffer `{}` ({}): layout [`{}`], at least {} bytes, with `wgpu::BufferUsages::UNIFORM`.",
                cb.name,
                regs.join(", "),
                pascal_case(&layout.name),
                layout.size()
            )
        }
        None if f.kind == FieldKind::CounterBuffer => format!(
            "The hidden counter of {} (`imm_atomic_alloc`/`imm_atomic_consume`):\n\
             the count is its first 4 bytes, a `u32` (`wgpu::BufferUsages::STORAGE`). Write the count\n\
             D3D sets when it binds the view (`UAVInitialCounts`) before the pass; `CopyStructureCount`\n\
             is `copy_buffer_to_buffer(counter, 0, destination, offset, 4)`.",
            regs.join(", ")
        ),
        None => format!(
            "Register {}: {}.",
            regs.join(", "),
            f.kinds.iter().map(|k| doc_kind(k)).collect::<Vec<_>>().join(" or ")
        ),
    };
    if !f.required {
        d.push_str(" Only some permutations bind it.");
    }
    d
}

/// A resource kind for rustdoc: a WGSL type with `<...>` in a code span (rustdoc reads a bare
/// `texture_2d<f32>` as an unclosed HTML tag).
fn doc_kind(kind: &str) -> String {
    let (ty, rest) = kind.split_once(' ').unwrap_or((kind, ""));
    if !ty.contains('<') {
        return kind.to_string();
    }
    if rest.is_empty() {
        format!("`{ty}`")
    } else {
        format!("`{ty}` {rest}")
    }
}

fn vertex_rust_type(f: &VertexFormat) -> String {
    let scalar = match f.wgpu {
        w if w.starts_with("Float32") => "f32",
        w if w.starts_with("Uint32") => "u32",
        w if w.starts_with("Sint32") => "i32",
        w if w.starts_with("Uint16") || w.starts_with("Unorm16") || w.starts_with("Float16") => "u16",
        w if w.starts_with("Sint16") || w.starts_with("Snorm16") => "i16",
        w if w.starts_with("Sint8") || w.starts_with("Snorm8") => "i8",
        "Unorm10_10_10_2" => return "u32".into(),
        _ => "u8",
    };
    let n = match f.wgpu {
        "Unorm8x4Bgra" => 4,
        w if w.ends_with("x2") => 2,
        w if w.ends_with("x3") => 3,
        w if w.ends_with("x4") => 4,
        _ => 1,
    };
    if n == 1 {
        scalar.to_string()
    } else {
        format!("[{scalar}; {n}]")
    }
}

fn binding_type(b: &Binding) -> String {
    match &b.kind {
        BindingKind::UniformBuffer { size_bytes } => format!(
            "wgpu::BindingType::Buffer {{ ty: wgpu::BufferBindingType::Uniform, has_dynamic_offset: false, min_binding_size: wgpu::BufferSize::new({size_bytes}) }}"
        ),
        BindingKind::StorageBuffer { read_only } => format!(
            "wgpu::BindingType::Buffer {{ ty: wgpu::BufferBindingType::Storage {{ read_only: {read_only} }}, has_dynamic_offset: false, min_binding_size: None }}"
        ),
        BindingKind::UavCounter => "wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Storage { read_only: false }, has_dynamic_offset: false, min_binding_size: wgpu::BufferSize::new(4) }".to_string(),
        BindingKind::Sampler { comparison } => format!(
            "wgpu::BindingType::Sampler(wgpu::SamplerBindingType::{})",
            if *comparison { "Comparison" } else { "Filtering" }
        ),
        BindingKind::Texture {
            dimension,
            sample,
            multisampled,
        } => {
            let sample_type = match sample {
                SampleType::Float => "wgpu::TextureSampleType::Float { filterable: true }",
                SampleType::UnfilterableFloat => "wgpu::TextureSampleType::Float { filterable: false }",
                SampleType::Sint => "wgpu::TextureSampleType::Sint",
                SampleType::Uint => "wgpu::TextureSampleType::Uint",
                SampleType::Depth => "wgpu::TextureSampleType::Depth",
            };
            format!(
                "wgpu::BindingType::Texture {{ sample_type: {sample_type}, view_dimension: wgpu::TextureViewDimension::{}, multisampled: {multisampled} }}",
                view_dimension(dimension)
            )
        }
        BindingKind::StorageTexture { dimension, format, read_write } => format!(
            "wgpu::BindingType::StorageTexture {{ access: wgpu::StorageTextureAccess::{}, format: wgpu::TextureFormat::{}, view_dimension: wgpu::TextureViewDimension::{} }}",
            if *read_write { "ReadWrite" } else { "WriteOnly" },
            texture_format(format),
            view_dimension(dimension)
        ),
    }
}

fn view_dimension(d: &dxbc_wgsl::ViewDimension) -> &'static str {
    use dxbc_wgsl::ViewDimension as D;
    match d {
        D::D1 => "D1",
        D::D2 | D::D1AsD2 => "D2",
        D::D2Array | D::D1ArrayAsD2Array => "D2Array",
        D::Cube => "Cube",
        D::CubeArray => "CubeArray",
        D::D3 => "D3",
    }
}

/// wgpu `TextureFormat` variant of a storage texel format.
pub fn texture_format(f: &dxbc_wgsl::TexelFormat) -> &'static str {
    use dxbc_wgsl::TexelFormat as T;
    match f {
        T::Bgra8Unorm => "Bgra8Unorm",
        T::R32Float => "R32Float",
        T::R32Uint => "R32Uint",
        T::R32Sint => "R32Sint",
        T::Rg32Float => "Rg32Float",
        T::Rg32Uint => "Rg32Uint",
        T::Rg32Sint => "Rg32Sint",
        T::Rgba32Float => "Rgba32Float",
        T::Rgba32Uint => "Rgba32Uint",
        T::Rgba32Sint => "Rgba32Sint",
        T::Rgba16Float => "Rgba16Float",
        T::Rgba16Uint => "Rgba16Uint",
        T::Rgba16Sint => "Rgba16Sint",
        T::Rgba8Unorm => "Rgba8Unorm",
        T::Rgba8Snorm => "Rgba8Snorm",
        T::Rgba8Uint => "Rgba8Uint",
        T::Rgba8Sint => "Rgba8Sint",
    }
}
