//! Pipelines and draws of translated shaders, bound by the translator's binding plan.

use std::collections::HashMap;

use dxbc_wgsl::bindings::{ResourceBinding, ResourceKind};
use dxbc_wgsl::{ShaderStage, Translation};

use super::gpu::{one_line, Device};
use super::report::SkipReason;
use crate::primitive_stage::{
    DrawCall, FragmentEntry, PrimitiveStage, PrimitiveStageDescriptor, ShaderEntry, StageDesc,
};
use crate::select::Selection;

/// A stage program: translated WGSL (or our own pass-through vertex shader) and its interface.
#[derive(Debug, Clone)]
pub struct Program {
    /// The WGSL module.
    pub wgsl: String,
    /// Entry point name.
    pub entry: String,
    /// Pipeline stage.
    pub stage: ShaderStage,
    /// Resources it binds (group 0 for vertex, 1 for pixel).
    pub bindings: Vec<ResourceBinding>,
    /// The translation it came from (`None` for our hand-written vertex shaders).
    pub translation: Option<Translation>,
}

impl Program {
    /// A translated shader.
    pub fn from_translation(t: Translation) -> Self {
        Self {
            wgsl: t.wgsl.clone(),
            entry: t.entry_point.clone(),
            stage: t.stage,
            bindings: t.bindings.clone(),
            translation: Some(t),
        }
    }

    /// Declared size in bytes of constant buffer `b{slot}` (space 0), if the shader declares it.
    pub fn cbuffer_size(&self, slot: u32) -> Option<u32> {
        self.bindings.iter().find_map(|b| match b.kind {
            ResourceKind::UniformBuffer { size_bytes } if b.register.slot == slot && b.register.space == 0 => {
                Some(size_bytes)
            }
            _ => None,
        })
    }

    /// Its pipeline-overridable constants' values for a pipeline of `sample_count` samples per
    /// pixel (`Translation::pipeline_constants`).
    pub fn constants(&self, sample_count: u32) -> Vec<(&'static str, f64)> {
        self.translation
            .as_ref()
            .map(|t| t.pipeline_constants.iter().map(|c| (c.name(), c.value(sample_count))).collect())
            .unwrap_or_default()
    }

    /// Locations the program writes (pixel shader: render targets) or reads.
    pub fn output_locations(&self) -> Vec<u32> {
        self.translation.as_ref().map(|t| t.outputs.iter().filter_map(|o| o.location).collect()).unwrap_or_default()
    }
}

/// A pass-through vertex shader drawing a full-screen triangle from `vertex_index` and writing
/// zeros to every user location the pixel shader reads, with the pixel shader's interpolation.
pub fn fullscreen_vs_for(ps: &Program) -> Result<Program, String> {
    fullscreen_vs_with_w(ps, 1.0)
}

/// [`fullscreen_vs_for`] with every corner's clip-space `w` set to `w` (x and y scaled by it, so
/// the triangle covers the same pixels): for testing `SV_Position.w`.
pub fn fullscreen_vs_with_w(ps: &Program, w: f32) -> Result<Program, String> {
    Ok(Program {
        wgsl: crate::fullscreen::fullscreen_vs(&ps.wgsl, &ps.entry, w)?,
        entry: "main".into(),
        stage: ShaderStage::Vertex,
        bindings: Vec::new(),
        translation: None,
    })
}

/// A resource bound to one binding of the plan.
#[derive(Debug, Clone)]
pub enum Bound {
    /// A uniform buffer.
    Buffer(wgpu::Buffer),
    /// A texture view.
    View(wgpu::TextureView),
    /// A sampler.
    Sampler(wgpu::Sampler),
}

/// Why a draw did not happen.
#[derive(Debug, Clone)]
pub enum DrawError {
    /// A skip for a reason of the fixed list.
    Skip(SkipReason),
    /// Our failure (pipeline creation, binding, submission).
    Fail(String),
}

/// One vertex buffer slot.
#[derive(Debug, Clone)]
pub struct VertexInput {
    /// Bytes per vertex.
    pub stride: u64,
    /// Attributes read from it.
    pub attributes: Vec<wgpu::VertexAttribute>,
    /// The data.
    pub buffer: wgpu::Buffer,
}

/// One colour target.
#[derive(Debug, Clone)]
pub struct ColorTarget {
    /// The view rendered into (the first layer of an array).
    pub view: wgpu::TextureView,
    /// Views of each layer of the render-target view (D3D's array slices), for a layered draw
    /// ([`Draw::selected`]); empty when `view` is its only layer.
    pub layers: Vec<wgpu::TextureView>,
    /// Its format.
    pub format: wgpu::TextureFormat,
    /// Clear it to zero before drawing (instruction tables) instead of loading it.
    pub clear: bool,
}

/// The depth target.
#[derive(Debug, Clone)]
pub struct DepthTarget {
    /// The view.
    pub view: wgpu::TextureView,
    /// Views of each layer, as [`ColorTarget::layers`].
    pub layers: Vec<wgpu::TextureView>,
    /// The depth test.
    pub compare: wgpu::CompareFunction,
}

/// Everything a draw needs.
pub struct Draw<'a> {
    /// Vertex shader.
    pub vs: &'a Program,
    /// Pixel shader.
    pub ps: &'a Program,
    /// Vertex buffers by slot.
    pub vertex: Vec<Option<VertexInput>>,
    /// Topology.
    pub topology: wgpu::PrimitiveTopology,
    /// Vertices per instance.
    pub vertex_count: u32,
    /// Instances.
    pub instance_count: u32,
    /// Colour targets by slot.
    pub color: Vec<Option<ColorTarget>>,
    /// Depth target.
    pub depth: Option<DepthTarget>,
    /// Samples per pixel of the targets.
    pub sample_count: u32,
    /// The sample mask.
    pub sample_mask: u64,
    /// Viewport size (the smallest target).
    pub viewport: (u32, u32),
    /// The viewports set (`x, y, width, height`, depths 0–1: D3D's `RSSetViewports`, index by
    /// index); empty: one viewport over `viewport`. A draw that does not select (below) draws
    /// in viewport 0 only, as D3D does; one of width or height 0 draws nothing.
    pub viewports: Vec<[f32; 4]>,
    /// The vertex shader writes SV_RenderTargetArrayIndex or SV_ViewportArrayIndex and the pixel
    /// shader was translated with its `primitive_select` (docs/per-primitive.md): drawn once per
    /// layer of the targets (a render pass over each layer's view) and viewport, with the
    /// selection uniform of that layer and viewport as group 3.
    pub selected: bool,
}

/// A draw of a pass with a geometry shader, through the primitive stage
/// ([`crate::primitive_stage`]).
pub struct GeometryDraw<'a> {
    /// The vertex shader translated as compute (`VertexStage::Compute`).
    pub vs: &'a Program,
    /// The geometry shader.
    pub gs: &'a Program,
    /// The pass-through vertex shader of the draw (`geometry_draw_vertex_shader`).
    pub draw_vs: &'a Program,
    /// The pixel shader (translated `behind_geometry`).
    pub ps: &'a Program,
    /// What is fixed about the pass.
    pub stage: StageDesc,
    /// The D3D draw.
    pub call: DrawCall,
    /// Vertex buffers by slot (they need `STORAGE` usage).
    pub vertex_buffers: Vec<Option<wgpu::Buffer>>,
    /// Colour targets by slot.
    pub color: Vec<Option<ColorTarget>>,
    /// Depth target.
    pub depth: Option<DepthTarget>,
    /// Samples per pixel of the targets.
    pub sample_count: u32,
    /// The sample mask.
    pub sample_mask: u64,
    /// Viewport size (the smallest target).
    pub viewport: (u32, u32),
    /// The viewports set, as [`Draw::viewports`].
    pub viewports: Vec<[f32; 4]>,
    /// The geometry shader writes SV_RenderTargetArrayIndex or SV_ViewportArrayIndex, as
    /// [`Draw::selected`].
    pub selected: bool,
}

/// Caches shader modules and pipelines across draws.
#[derive(Default)]
pub struct Renderer {
    modules: HashMap<String, wgpu::ShaderModule>,
    pipelines: HashMap<String, Result<(wgpu::RenderPipeline, [wgpu::BindGroupLayout; 2]), String>>,
    compute: HashMap<String, Result<(wgpu::ComputePipeline, wgpu::BindGroupLayout), String>>,
    /// Selection uniforms by layer and viewport count.
    selections: HashMap<(u32, u32), std::sync::Arc<Selection>>,
}

/// The layers a selected draw renders: the layer count of the bound targets, which D3D
/// requires to be the same for every render-target view and the depth-stencil view.
fn layer_count(color: &[Option<ColorTarget>], depth: Option<&DepthTarget>) -> Result<u32, DrawError> {
    let mut counts = color
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.as_ref().map(|c| (format!("render target {i}"), c.layers.len().max(1) as u32)))
        .chain(depth.map(|d| ("the depth target".to_string(), d.layers.len().max(1) as u32)));
    let Some((first, n)) = counts.next() else { return Ok(1) };
    for (other, m) in counts {
        if m != n {
            return Err(DrawError::Fail(format!(
                "a layered draw over {first} of {n} layers and {other} of {m} (D3D requires one array size)"
            )));
        }
    }
    Ok(n)
}

/// The viewports of a draw (`x, y, width, height, min depth, max depth`): those set, or one
/// over `viewport`.
fn viewport_list(viewport: (u32, u32), viewports: &[[f32; 4]]) -> Vec<[f32; 6]> {
    if viewports.is_empty() {
        return vec![[0.0, 0.0, viewport.0 as f32, viewport.1 as f32, 0.0, 1.0]];
    }
    viewports.iter().map(|&[x, y, w, h]| [x, y, w, h, 0.0, 1.0]).collect()
}

/// The render passes of a draw: one over the targets' views, or for a selected draw one per
/// layer over each target's view of that layer, drawn once per viewport with the selection
/// uniform of that layer and viewport (group 3, set before `body`). A draw that does not
/// select draws in viewport 0 (D3D rasterizes a primitive in the viewport its
/// SV_ViewportArrayIndex names, 0 without one). A viewport of width or height 0 rasterizes
/// nothing, and is not set (Vulkan requires a positive width). `body` sets the pipeline, the
/// other groups, and draws.
fn render_passes(
    encoder: &mut wgpu::CommandEncoder,
    color: &[Option<ColorTarget>],
    depth: Option<&DepthTarget>,
    viewports: &[[f32; 6]],
    selection: Option<&Selection>,
    mut body: impl FnMut(&mut wgpu::RenderPass<'_>),
) {
    let layers = selection.map_or(1, Selection::layers);
    for layer in 0..layers {
        let layer_view = |view: &wgpu::TextureView, views: &[wgpu::TextureView]| -> wgpu::TextureView {
            match selection {
                Some(_) => views.get(layer as usize).unwrap_or(view).clone(),
                None => view.clone(),
            }
        };
        let color_views: Vec<Option<(wgpu::TextureView, bool)>> =
            color.iter().map(|c| c.as_ref().map(|c| (layer_view(&c.view, &c.layers), c.clear))).collect();
        let depth_view = depth.map(|t| layer_view(&t.view, &t.layers));
        let attachments: Vec<Option<wgpu::RenderPassColorAttachment<'_>>> = color_views
            .iter()
            .map(|c| {
                c.as_ref().map(|(view, clear)| wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: if *clear { wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT) } else { wgpu::LoadOp::Load },
                        store: wgpu::StoreOp::Store,
                    },
                })
            })
            .collect();
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: None,
            color_attachments: &attachments,
            depth_stencil_attachment: depth_view.as_ref().map(|view| wgpu::RenderPassDepthStencilAttachment {
                view,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        let drawn = match selection {
            Some(_) => viewports,
            None => &viewports[..viewports.len().min(1)],
        };
        for (v, &[x, y, w, h, near, far]) in drawn.iter().enumerate() {
            if w <= 0.0 || h <= 0.0 {
                continue;
            }
            pass.set_viewport(x, y, w, h, near, far);
            if let Some(selection) = selection {
                selection.set(&mut pass, layer, v as u32);
            }
            body(&mut pass);
        }
    }
}

impl Renderer {
    /// The selection uniforms of a draw over `layers` layers and `viewports` viewports.
    fn selection(
        &mut self,
        dev: &Device,
        layers: u32,
        viewports: usize,
    ) -> Result<std::sync::Arc<Selection>, DrawError> {
        let viewports = viewports as u32;
        if let Some(s) = self.selections.get(&(layers, viewports)) {
            return Ok(s.clone());
        }
        let made = dev
            .scoped(|device| Selection::new(device, layers, viewports))
            .map_err(|e| DrawError::Fail(format!("selection uniforms: {e}")))?
            .map_err(|e| DrawError::Fail(e.to_string()))?;
        let made = std::sync::Arc::new(made);
        self.selections.insert((layers, viewports), made.clone());
        Ok(made)
    }

    fn module(&mut self, dev: &Device, wgsl: &str) -> Result<wgpu::ShaderModule, String> {
        if let Some(m) = self.modules.get(wgsl) {
            return Ok(m.clone());
        }
        let m = dev
            .scoped(|d| {
                d.create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: None,
                    source: wgpu::ShaderSource::Wgsl(wgsl.into()),
                })
            })
            .map_err(|e| format!("shader module creation failed: {e}"))?;
        self.modules.insert(wgsl.to_string(), m.clone());
        Ok(m)
    }

    /// Draws once (a selected draw once per layer of the targets, [`Draw::selected`]). `resolve`
    /// supplies the resource for each binding of either stage.
    pub fn draw(
        &mut self,
        dev: &Device,
        d: &Draw<'_>,
        resolve: &mut dyn FnMut(ShaderStage, &ResourceBinding) -> Result<Bound, DrawError>,
    ) -> Result<(), DrawError> {
        let ps_outputs = d.ps.output_locations();
        let targets: Vec<Option<wgpu::ColorTargetState>> = d
            .color
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.as_ref().map(|c| wgpu::ColorTargetState {
                    format: c.format,
                    blend: None,
                    write_mask: if ps_outputs.contains(&(i as u32)) {
                        wgpu::ColorWrites::ALL
                    } else {
                        wgpu::ColorWrites::empty()
                    },
                })
            })
            .collect();
        let vertex_layouts: Vec<Option<wgpu::VertexBufferLayout<'_>>> = d
            .vertex
            .iter()
            .map(|v| {
                v.as_ref().map(|v| wgpu::VertexBufferLayout {
                    array_stride: v.stride,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &v.attributes,
                })
            })
            .collect();
        let depth_stencil = d.depth.as_ref().map(|t| wgpu::DepthStencilState {
            format: wgpu::TextureFormat::Depth32Float,
            depth_write_enabled: Some(true),
            depth_compare: Some(t.compare),
            stencil: Default::default(),
            bias: Default::default(),
        });
        let viewports = viewport_list(d.viewport, &d.viewports);
        let selection = match d.selected {
            true => Some(self.selection(dev, layer_count(&d.color, d.depth.as_ref())?, viewports.len())?),
            false => None,
        };
        let key = format!(
            "{}\u{0}{}\u{0}{targets:?}{vertex_layouts:?}{:?}{depth_stencil:?}{}/{}/{:?}",
            d.vs.wgsl,
            d.ps.wgsl,
            d.topology,
            d.sample_count,
            d.sample_mask,
            selection.as_ref().map(|s| (s.layers(), s.viewports()))
        );
        if !self.pipelines.contains_key(&key) {
            let vs = self.module(dev, &d.vs.wgsl).map_err(DrawError::Fail)?;
            let ps = self.module(dev, &d.ps.wgsl).map_err(DrawError::Fail)?;
            let made = dev.scoped(|device| {
                let layouts = [layout_for(device, d.vs), layout_for(device, d.ps)];
                let empty =
                    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &[] });
                let mut groups = vec![Some(&layouts[0]), Some(&layouts[1])];
                if let Some(selection) = &selection {
                    // Group 2 (the geometry shader's in the primitive stage) is unused here.
                    groups.extend([Some(&empty), Some(selection.layout())]);
                }
                let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: None,
                    bind_group_layouts: &groups,
                    immediate_size: 0,
                });
                let ps_constants = d.ps.constants(d.sample_count);
                let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: None,
                    layout: Some(&pl),
                    vertex: wgpu::VertexState {
                        module: &vs,
                        entry_point: Some(&d.vs.entry),
                        compilation_options: Default::default(),
                        buffers: &vertex_layouts,
                    },
                    primitive: wgpu::PrimitiveState {
                        topology: d.topology,
                        strip_index_format: None,
                        front_face: wgpu::FrontFace::Cw,
                        cull_mode: None,
                        ..Default::default()
                    },
                    depth_stencil: depth_stencil.clone(),
                    multisample: wgpu::MultisampleState {
                        count: d.sample_count,
                        mask: d.sample_mask,
                        alpha_to_coverage_enabled: false,
                    },
                    fragment: Some(wgpu::FragmentState {
                        module: &ps,
                        entry_point: Some(&d.ps.entry),
                        compilation_options: wgpu::PipelineCompilationOptions {
                            constants: &ps_constants,
                            ..Default::default()
                        },
                        targets: &targets,
                    }),
                    multiview_mask: None,
                    cache: None,
                });
                (pipeline, layouts)
            });
            self.pipelines.insert(key.clone(), made.map_err(|e| format!("pipeline creation failed: {e}")));
        }
        let (pipeline, layouts) = match &self.pipelines[&key] {
            Ok(p) => p.clone(),
            Err(e) => return Err(DrawError::Fail(e.clone())),
        };
        let mut groups = Vec::new();
        for (program, layout) in [(d.vs, &layouts[0]), (d.ps, &layouts[1])] {
            let mut bound = Vec::new();
            for b in &program.bindings {
                bound.push((b.binding, resolve(program.stage, b)?));
            }
            let entries = entries_of(&bound);
            let group = dev
                .scoped(|device| {
                    device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout, entries: &entries })
                })
                .map_err(|e| DrawError::Fail(format!("bind group creation failed: {e}")))?;
            groups.push(group);
        }
        if selection.is_some() {
            // Group 2, empty; group 3 is the selection's, set per layer.
            let layout = pipeline.get_bind_group_layout(2);
            let empty = dev
                .scoped(|device| {
                    device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &layout, entries: &[] })
                })
                .map_err(|e| DrawError::Fail(format!("bind group creation failed: {e}")))?;
            groups.push(empty);
        }
        dev.scoped(|device| {
            let mut encoder = device.create_command_encoder(&Default::default());
            render_passes(&mut encoder, &d.color, d.depth.as_ref(), &viewports, selection.as_deref(), |pass| {
                pass.set_pipeline(&pipeline);
                for (i, g) in groups.iter().enumerate() {
                    pass.set_bind_group(i as u32, g, &[]);
                }
                for (slot, v) in d.vertex.iter().enumerate() {
                    if let Some(v) = v {
                        pass.set_vertex_buffer(slot as u32, v.buffer.slice(..));
                    }
                }
                pass.draw(0..d.vertex_count, 0..d.instance_count);
            });
            dev.queue.submit([encoder.finish()]);
        })
        .map_err(|e| DrawError::Fail(format!("draw failed: {e}")))?;
        Ok(())
    }
}

impl Renderer {
    /// Draws once through the primitive stage: the vertex and geometry compute work, then the
    /// draw of the geometry shader's output (once per layer of the targets when selected,
    /// [`GeometryDraw::selected`]). `resolve` supplies the resource for each binding
    /// of every stage.
    pub fn draw_geometry(
        &mut self,
        dev: &Device,
        d: &GeometryDraw<'_>,
        resolve: &mut dyn FnMut(ShaderStage, &ResourceBinding) -> Result<Bound, DrawError>,
    ) -> Result<(), DrawError> {
        let ps_outputs = d.ps.output_locations();
        let targets: Vec<Option<wgpu::ColorTargetState>> = d
            .color
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.as_ref().map(|c| wgpu::ColorTargetState {
                    format: c.format,
                    blend: None,
                    write_mask: if ps_outputs.contains(&(i as u32)) {
                        wgpu::ColorWrites::ALL
                    } else {
                        wgpu::ColorWrites::empty()
                    },
                })
            })
            .collect();
        let depth_stencil = d.depth.as_ref().map(|t| wgpu::DepthStencilState {
            format: wgpu::TextureFormat::Depth32Float,
            depth_write_enabled: Some(true),
            depth_compare: Some(t.compare),
            stencil: Default::default(),
            bias: Default::default(),
        });
        let viewports = viewport_list(d.viewport, &d.viewports);
        let selection = match d.selected {
            true => Some(self.selection(dev, layer_count(&d.color, d.depth.as_ref())?, viewports.len())?),
            false => None,
        };
        let mut module = |p: &Program| self.module(dev, &p.wgsl).map_err(DrawError::Fail);
        let (vs, gs, draw_vs, ps) = (module(d.vs)?, module(d.gs)?, module(d.draw_vs)?, module(d.ps)?);
        let made = dev.scoped(|device| {
            let layouts = [
                layout_with(device, d.vs, wgpu::ShaderStages::COMPUTE),
                layout_with(device, d.gs, wgpu::ShaderStages::COMPUTE),
                layout_with(device, d.ps, wgpu::ShaderStages::FRAGMENT),
            ];
            let stage = PrimitiveStage::new_selected(
                device,
                &PrimitiveStageDescriptor {
                    label: Some("conformance"),
                    stage: d.stage.clone(),
                    vertex: ShaderEntry { module: &vs, entry_point: &d.vs.entry },
                    vertex_layout: Some(&layouts[0]),
                    geometry: ShaderEntry { module: &gs, entry_point: &d.gs.entry },
                    geometry_layout: Some(&layouts[1]),
                    draw_vertex: ShaderEntry { module: &draw_vs, entry_point: &d.draw_vs.entry },
                    fragment: Some(FragmentEntry {
                        shader: ShaderEntry { module: &ps, entry_point: &d.ps.entry },
                        targets: &targets,
                        layout: Some(&layouts[2]),
                    }),
                    primitive: wgpu::PrimitiveState {
                        front_face: wgpu::FrontFace::Cw,
                        cull_mode: None,
                        ..Default::default()
                    },
                    depth_stencil: depth_stencil.clone(),
                    multisample: wgpu::MultisampleState {
                        count: d.sample_count,
                        mask: d.sample_mask,
                        alpha_to_coverage_enabled: false,
                    },
                    max_binding_bytes: None,
                },
                selection.as_ref().map(|s| s.layout()),
            );
            stage.map(|s| (s, layouts))
        });
        let (stage, layouts) = match made {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => return Err(DrawError::Fail(format!("primitive stage: {e}"))),
            Err(e) => return Err(DrawError::Fail(format!("primitive stage pipeline creation failed: {e}"))),
        };
        let mut groups = Vec::new();
        for (program, layout) in [(d.vs, &layouts[0]), (d.gs, &layouts[1]), (d.ps, &layouts[2])] {
            let mut bound = Vec::new();
            for b in &program.bindings {
                bound.push((b.binding, resolve(program.stage, b)?));
            }
            let entries = entries_of(&bound);
            let group = dev
                .scoped(|device| {
                    device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout, entries: &entries })
                })
                .map_err(|e| DrawError::Fail(format!("bind group creation failed: {e}")))?;
            groups.push(group);
        }
        let vertex_buffers: Vec<Option<(&wgpu::Buffer, u64)>> =
            d.vertex_buffers.iter().map(|b| b.as_ref().map(|b| (b, 0))).collect();
        let drawn = dev.scoped(|device| {
            let mut encoder = device.create_command_encoder(&Default::default());
            let prepared = stage.prepare(
                device,
                &mut encoder,
                &d.call,
                &vertex_buffers,
                None,
                Some(&groups[0]),
                Some(&groups[1]),
            )?;
            render_passes(&mut encoder, &d.color, d.depth.as_ref(), &viewports, selection.as_deref(), |pass| {
                stage.draw(pass, &prepared, Some(&groups[2]))
            });
            dev.queue.submit([encoder.finish()]);
            Ok::<(), crate::primitive_stage::PrimitiveStageError>(())
        });
        match drawn {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(DrawError::Fail(format!("primitive stage: {e}"))),
            Err(e) => Err(DrawError::Fail(format!("draw failed: {e}"))),
        }
    }

    /// Dispatches a compute shader once (bind group 0 holds its resources, as the binding plan
    /// places the compute stage). `resolve` supplies the resource for each binding.
    pub fn dispatch(
        &mut self,
        dev: &Device,
        cs: &Program,
        groups: [u32; 3],
        resolve: &mut dyn FnMut(ShaderStage, &ResourceBinding) -> Result<Bound, DrawError>,
    ) -> Result<(), DrawError> {
        if !self.compute.contains_key(&cs.wgsl) {
            let module = self.module(dev, &cs.wgsl).map_err(DrawError::Fail)?;
            let made = dev.scoped(|device| {
                let layout = layout_for(device, cs);
                let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: None,
                    bind_group_layouts: &[Some(&layout)],
                    immediate_size: 0,
                });
                let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: None,
                    layout: Some(&pl),
                    module: &module,
                    entry_point: Some(&cs.entry),
                    compilation_options: Default::default(),
                    cache: None,
                });
                (pipeline, layout)
            });
            self.compute.insert(cs.wgsl.clone(), made.map_err(|e| format!("compute pipeline creation failed: {e}")));
        }
        let (pipeline, layout) = match &self.compute[&cs.wgsl] {
            Ok(p) => p.clone(),
            Err(e) => return Err(DrawError::Fail(e.clone())),
        };
        let mut bound = Vec::new();
        for b in &cs.bindings {
            bound.push((b.binding, resolve(cs.stage, b)?));
        }
        let entries = entries_of(&bound);
        let group = dev
            .scoped(|device| {
                device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &layout, entries: &entries })
            })
            .map_err(|e| DrawError::Fail(format!("bind group creation failed: {e}")))?;
        dev.scoped(|device| {
            let mut encoder = device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(dxbc_wgsl::bindings::group_of(dxbc_wgsl::ShaderStage::Compute), &group, &[]);
                pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
            }
            dev.queue.submit([encoder.finish()]);
        })
        .map_err(|e| DrawError::Fail(format!("dispatch failed: {e}")))
    }
}

/// Bind group entries for resolved bindings. Buffers are bound with an explicit size: wgpu pads
/// buffers that have VERTEX usage, and an implicit-size storage binding lets `arrayLength` see
/// the padding.
fn entries_of(bound: &[(u32, Bound)]) -> Vec<wgpu::BindGroupEntry<'_>> {
    bound
        .iter()
        .map(|(binding, r)| wgpu::BindGroupEntry {
            binding: *binding,
            resource: match r {
                Bound::Buffer(b) => wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: b,
                    offset: 0,
                    size: wgpu::BufferSize::new(b.size()),
                }),
                Bound::View(v) => wgpu::BindingResource::TextureView(v),
                Bound::Sampler(s) => wgpu::BindingResource::Sampler(s),
            },
        })
        .collect()
}

fn layout_for(device: &wgpu::Device, p: &Program) -> wgpu::BindGroupLayout {
    let visibility = match p.stage {
        ShaderStage::Vertex => wgpu::ShaderStages::VERTEX,
        ShaderStage::Compute => wgpu::ShaderStages::COMPUTE,
        _ => wgpu::ShaderStages::FRAGMENT,
    };
    layout_with(device, p, visibility)
}

fn layout_with(device: &wgpu::Device, p: &Program, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayout {
    let entries: Vec<wgpu::BindGroupLayoutEntry> = p
        .bindings
        .iter()
        .map(|b| wgpu::BindGroupLayoutEntry {
            binding: b.binding,
            visibility,
            ty: crate::wgpu_map::binding_type(&b.kind),
            count: None,
        })
        .collect();
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &entries })
}

/// A uniform buffer holding `words` then zeros up to `size_bytes` (at least 16 bytes).
pub fn uniform_buffer(dev: &Device, words: &[u32], size_bytes: u32) -> wgpu::Buffer {
    let mut bytes: Vec<u8> = bytemuck::cast_slice(words).to_vec();
    let size = (size_bytes as usize).max(bytes.len()).max(16).next_multiple_of(16);
    bytes.resize(size, 0);
    dev.buffer("cb", &bytes, wgpu::BufferUsages::UNIFORM)
}

/// A placeholder for a binding the case does not supply: zero buffers, zero textures, and a
/// point-clamp sampler (D3D reads zeros from null views).
pub fn placeholder(dev: &Device, b: &ResourceBinding) -> Bound {
    match &b.kind {
        ResourceKind::UniformBuffer { size_bytes } => Bound::Buffer(uniform_buffer(dev, &[], *size_bytes)),
        ResourceKind::Sampler { comparison } => Bound::Sampler(dev.device.create_sampler(&wgpu::SamplerDescriptor {
            compare: comparison.then_some(wgpu::CompareFunction::Never),
            ..Default::default()
        })),
        ResourceKind::Texture { dimension, sample, multisampled } => {
            Bound::View(dev.placeholder_texture(*dimension, *sample, *multisampled))
        }
        ResourceKind::StorageBuffer { .. } | ResourceKind::StorageTexture { .. } | ResourceKind::UavCounter => {
            Bound::Buffer(dev.buffer("placeholder storage", &[0; 16], wgpu::BufferUsages::STORAGE))
        }
    }
}

/// Turns a translator error into a skip (refusal) or a failure (anything else).
pub fn translate_error(e: &dxbc_wgsl::TranslateError) -> DrawError {
    match e {
        dxbc_wgsl::TranslateError::Unsupported(r) => {
            DrawError::Skip(SkipReason::Refused { reason: r.reason.to_string(), detail: one_line(&r.to_string()) })
        }
        other => DrawError::Fail(format!("translation failed: {}", one_line(&other.to_string()))),
    }
}
