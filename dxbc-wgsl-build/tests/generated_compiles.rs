//! The generated code compiles (with wgpu and bytemuck, under the workspace's clippy settings) and
//! behaves as documented (for an effect of render passes, of compute passes, and of both:
//! `tiny_mixed.rs`, and passes with a geometry shader: `tiny_geometry.rs`, from `tests/codegen.rs`). `tests/fixtures/tiny_effect.rs` is the generator's output for the tiny
//! effect of `tests/common`; `tests/codegen.rs` checks it is current.

#![deny(missing_docs)]

include!("fixtures/tiny_effect.rs");
include!("fixtures/tiny_two_pass.rs");
include!("fixtures/bare.rs");
include!("fixtures/states.rs");
include!("fixtures/reflected_scene.rs");
include!("fixtures/tiny_mixed.rs");
include!("fixtures/tiny_geometry.rs");

use tiny_effect as fx;

#[test]
fn permutations_and_lookup() {
    assert_eq!(fx::Permutation::ALL.len(), 6);
    assert_eq!(fx::Permutation::COUNT, 6);
    for (i, p) in fx::Permutation::ALL.iter().enumerate() {
        assert_eq!(p.index(), Some(i));
    }
    // Ord order.
    assert!(fx::Permutation::ALL.windows(2).all(|w| w[0] < w[1]));
    // The default has fog on (declared default) and the other axes at theirs.
    let d = fx::Permutation::default();
    assert!(d.fog && !d.texture && d.shading == fx::Shading::Flat);
    // Excluded combination.
    let lit_tx = fx::Permutation { shading: fx::Shading::Lit, texture: true, fog: true };
    assert_eq!(lit_tx.index(), None);
    assert!(lit_tx.shaders().is_none());
    // The lit permutation uses the lit vertex shader and the untextured pixel shader.
    let lit = fx::Permutation { shading: fx::Shading::Lit, ..d };
    let s = lit.shaders().unwrap();
    assert_eq!(s.vertex.label, "Tiny_VSLit.dxbc");
    assert_eq!(s.pixel.unwrap().label, "Tiny_PS.dxbc");
    assert_eq!(s.vertex.wgsl, fx::wgsl::TINY_VS_LIT);
    let no_fog = fx::Permutation { fog: false, ..lit };
    assert_eq!(no_fog.shaders().unwrap().pixel.unwrap().wgsl, fx::wgsl::TINY_PS_NO_FOG);
}

#[test]
fn constant_buffer_layout() {
    assert_eq!(std::mem::size_of::<fx::Parameters>(), 176);
    let p = fx::Parameters {
        fog_start: 2.0,
        enabled: 1,
        light_direction_last: [7.0, 8.0, 9.0],
        world_view_proj: [[1.0, 2.0, 3.0, 4.0], [0.0; 4], [0.0; 4], [0.0; 4]],
        ..Default::default()
    };
    let bytes = bytemuck::bytes_of(&p);
    let word = |i: usize| f32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
    assert_eq!(word(7), 2.0); // c1.w
    assert_eq!(word(12), 7.0); // c3.x
    assert_eq!(word(14), 9.0); // c3.z
    assert_eq!(u32::from_le_bytes(bytes[60..64].try_into().unwrap()), 1); // c3.w
    assert_eq!(word(16), 1.0); // c4.x
    assert_eq!(word(19), 4.0); // c4.w
}

#[test]
fn vertex_layouts() {
    let d = fx::Permutation::default();
    let l = d.vertex_buffer_layout().unwrap();
    assert_eq!(l.array_stride, 12);
    assert_eq!(l.attributes[0].format, wgpu::VertexFormat::Float32x3);
    let lit = fx::Permutation { shading: fx::Shading::Lit, ..d }.vertex_buffer_layout().unwrap();
    assert_eq!(lit.array_stride, 28);
    assert_eq!(lit.attributes[2].format, wgpu::VertexFormat::Unorm8x4);
    assert_eq!(std::mem::size_of::<fx::VertexPositionNormalColor>(), 28);
}

#[test]
fn missing_resource_message() {
    let e = fx::MissingResource("texture");
    assert!(e.to_string().contains("texture"));
}

#[test]
fn two_passes() {
    use tiny_two_pass::{Pass, Permutation};
    assert_eq!(Pass::ALL, [Pass::Main, Pass::DepthOnly]);
    let p = Permutation::default();
    let main = p.shaders(Pass::Main).unwrap();
    let depth = p.shaders(Pass::DepthOnly).unwrap();
    assert_eq!(main.pixel.unwrap().label, "Tiny_PS.dxbc");
    assert_eq!(depth.vertex.label, "Tiny_VS.dxbc");
    assert!(depth.pixel.is_none());
    assert_eq!(p.vertex_buffer_layout(Pass::DepthOnly).unwrap().array_stride, 12);
    // Techniques: named pass lists, in their order.
    use tiny_two_pass::Technique;
    assert_eq!(Technique::ALL, [Technique::DepthPrepass, Technique::Forward]);
    assert_eq!(Technique::DepthPrepass.passes(), &[Pass::DepthOnly, Pass::Main]);
    assert_eq!(Technique::Forward.passes(), &[Pass::Main]);
    assert_eq!(Technique::DepthPrepass.name(), "depth_prepass");
}

#[test]
fn bare_effect() {
    assert_eq!(bare::Permutation::ALL, [bare::Permutation {}]);
    assert_eq!(bare::Permutation::default().index(), Some(0));
    assert!(bare::Permutation::default().vertex_buffer_layout().is_none());
    let _ = bare::Resources { _marker: core::marker::PhantomData };
}

/// The declared render states are what the generated constructors use (fixture: `states.rs`, from
/// `tests/codegen_states.rs`).
#[test]
fn declared_render_states() {
    use states::Pass;
    use wgpu::{BlendComponent, BlendFactor, BlendOperation, BlendState, ColorWrites, CompareFunction, TextureFormat};

    // `AlphaBlend` (SRC_ALPHA, INV_SRC_ALPHA; alpha ONE, INV_SRC_ALPHA) is wgpu's
    // `BlendState::ALPHA_BLENDING`, on every render target (no independent blending).
    assert_eq!(states::blend_state(Pass::Main, 0), Some(BlendState::ALPHA_BLENDING));
    assert_eq!(states::blend_state(Pass::Main, 7), Some(BlendState::ALPHA_BLENDING));
    assert_eq!(states::blend_state(Pass::Main, 8), None);
    assert_eq!(states::blend_state(Pass::Decal, 0), None);
    let targets = states::color_target_states(Pass::Main, &[TextureFormat::Rgba8Unorm, TextureFormat::R16Float]);
    assert_eq!(targets.len(), 2);
    let t1 = targets[1].as_ref().unwrap();
    assert_eq!(
        (t1.format, t1.blend, t1.write_mask),
        (TextureFormat::R16Float, Some(BlendState::ALPHA_BLENDING), ColorWrites::ALL)
    );

    // Independent blending: target 0 blends (MIN with factors One, as WebGPU wants), target 1 writes
    // red and green only, the others are D3D's defaults.
    let outline0 = states::blend_state(Pass::Outline, 0).unwrap();
    assert_eq!(
        outline0.color,
        BlendComponent {
            src_factor: BlendFactor::Constant,
            dst_factor: BlendFactor::One,
            operation: BlendOperation::Add
        }
    );
    assert_eq!(
        outline0.alpha,
        BlendComponent { src_factor: BlendFactor::One, dst_factor: BlendFactor::One, operation: BlendOperation::Min }
    );
    assert_eq!(states::blend_state(Pass::Outline, 1), None);
    assert_eq!(states::color_write_mask(Pass::Outline, 1), ColorWrites::RED | ColorWrites::GREEN);
    assert_eq!(states::color_write_mask(Pass::Outline, 2), ColorWrites::ALL);

    // Rasterizer: CullNone; counter-clockwise front faces, no depth clip, line strip.
    let main = states::primitive_state(Pass::Main);
    assert_eq!(
        (main.topology, main.front_face, main.cull_mode),
        (wgpu::PrimitiveTopology::TriangleList, wgpu::FrontFace::Cw, None)
    );
    let outline = states::primitive_state(Pass::Outline);
    assert_eq!(outline.topology, wgpu::PrimitiveTopology::LineStrip);
    assert_eq!((outline.front_face, outline.cull_mode), (wgpu::FrontFace::Ccw, Some(wgpu::Face::Back)));
    assert!(outline.unclipped_depth && !main.unclipped_depth);
    assert_eq!(states::required_features(Pass::Outline), wgpu::Features::DEPTH_CLIP_CONTROL);
    assert_eq!(states::required_features(Pass::Main), wgpu::Features::empty());
    assert!(states::scissor_enable(Pass::Outline) && !states::scissor_enable(Pass::Main));

    // Depth-stencil.
    let d = states::depth_stencil_state(Pass::Main, TextureFormat::Depth32Float);
    assert_eq!((d.depth_write_enabled, d.depth_compare), (Some(false), Some(CompareFunction::LessEqual)));
    assert!(!d.stencil.is_enabled() && !d.bias.is_enabled());
    let d = states::depth_stencil_state(Pass::Outline, TextureFormat::Depth24PlusStencil8);
    assert_eq!((d.depth_write_enabled, d.depth_compare), (Some(false), Some(CompareFunction::Always)));
    assert!(d.stencil.is_enabled() && d.stencil.needs_ref_value());
    assert_eq!((d.stencil.read_mask, d.stencil.write_mask), (0x0F, 0xFF));
    assert_eq!(d.stencil.front.compare, CompareFunction::Equal);
    assert_eq!(d.stencil.front.pass_op, wgpu::StencilOperation::Replace);
    assert_eq!(d.stencil.back, wgpu::StencilFaceState::IGNORE);
    let d = states::depth_stencil_state(Pass::Decal, TextureFormat::Depth32Float);
    assert_eq!((d.bias.constant, d.bias.slope_scale, d.bias.clamp), (-2, 1.5, 0.25));
    assert_eq!((d.depth_write_enabled, d.depth_compare), (Some(true), Some(CompareFunction::Less)));

    // PipelineOptions::new takes the pass's primitive state; the sample count is the caller's.
    let options = states::PipelineOptions::new(Pass::Outline, &targets, None);
    assert_eq!(options.primitive, outline);
    assert_eq!(options.multisample.count, 1);
    assert!(!states::multisample_state(Pass::Main, 4).alpha_to_coverage_enabled);
    assert_eq!(states::multisample_state(Pass::Main, 4).count, 4);
}

/// The struct of a layout taken from reflection (`tests/reflect_layouts.rs` keeps it current):
/// row-major matrix arrays, arrays of structs whose last element shares its register with the
/// next variable, a struct variable.
#[test]
fn reflected_layout_bytes() {
    use reflected_scene::{Scene, SceneLights, SceneLightsUnpadded};
    let s = Scene {
        bones: [[[0.0; 4]; 3], [[0.0; 4], [0.0, 0.0, 0.0, 7.0], [0.0; 4]]],
        time: 2.0,
        lights: [SceneLights { color: [0.0, 0.0, 3.0], ..Default::default() }],
        lights_last: SceneLightsUnpadded { color: [4.0, 0.0, 0.0], ..Default::default() },
        exposure: 5.0,
        sun: SceneLights { dir: [6.0, 0.0, 0.0], ..Default::default() },
        jitter: [0.0, 8.0],
        ..Default::default()
    };
    let bytes = bytemuck::bytes_of(&s);
    assert_eq!(bytes.len(), 288);
    let at = |byte: usize| f32::from_le_bytes(bytes[byte..byte + 4].try_into().unwrap());
    assert_eq!(at(64 + 48 + 16 + 12), 7.0); // Bones[1] row 1 .w: c8.w
    assert_eq!(at(172), 2.0); // Time: c10.w
    assert_eq!(at(176 + 16 + 8), 3.0); // Lights[0].color.z: c12.z
    assert_eq!(at(208 + 16), 4.0); // Lights[1].color.x: c14.x
    assert_eq!(at(236), 5.0); // Exposure: c14.w
    assert_eq!(at(240), 6.0); // Sun.dir.x: c15.x
    assert_eq!(at(276), 8.0); // Jitter.y: c17.y
}

/// An effect with render passes (`main`, `depth_only`) and compute passes (`build`, `clear`),
/// declared interleaved (fixture: `tiny_mixed.rs`, from `tests/codegen.rs`): each kind has its
/// pass enum, variant table, layouts, bind groups and resources; the render API takes
/// `RenderPass`, the compute API `ComputePass`.
#[test]
fn mixed_render_and_compute_passes() {
    use tiny_mixed::{ComputePass, Permutation, RenderPass, Shading};
    assert_eq!(RenderPass::ALL, [RenderPass::Main, RenderPass::DepthOnly]);
    assert_eq!(ComputePass::ALL, [ComputePass::Build, ComputePass::Clear]);

    let p = Permutation::default();
    let tx = Permutation { texture: true, ..p };
    // Render passes: as in a render-only effect, by `RenderPass`.
    assert_eq!(p.shaders(RenderPass::Main).unwrap().pixel.unwrap().label, "Tiny_PS.dxbc");
    let depth = p.shaders(RenderPass::DepthOnly).unwrap();
    assert_eq!((depth.vertex.label, depth.pixel), ("Tiny_VS.dxbc", None));
    assert_eq!(p.vertex_buffer_layout(RenderPass::DepthOnly).unwrap().array_stride, 12);
    let [vs, ps] = tiny_mixed::bind_group_layout_entries(RenderPass::Main, tx);
    assert!(vs.iter().all(|e| e.visibility == wgpu::ShaderStages::VERTEX) && !vs.is_empty());
    assert_eq!(ps.iter().map(|e| e.binding).collect::<Vec<_>>(), [0, 16, 32]);
    assert!(ps.iter().all(|e| e.visibility == wgpu::ShaderStages::FRAGMENT));
    assert_eq!(tiny_mixed::primitive_state(RenderPass::DepthOnly).topology, wgpu::PrimitiveTopology::TriangleList);

    // Compute passes: by `ComputePass`, with their workgroup sizes (they differ, so the effect has
    // no single WORKGROUP_SIZE).
    let build = p.compute_shaders(ComputePass::Build).unwrap();
    assert_eq!((build.compute.label, build.workgroup_size), ("Tiny_CS.dxbc", [8, 8, 1]));
    assert_eq!(tx.compute_shaders(ComputePass::Build).unwrap().compute.label, "Tiny_CSTx.dxbc");
    let clear = p.compute_shaders(ComputePass::Clear).unwrap();
    assert_eq!((clear.compute.label, clear.workgroup_size), ("Tiny_CSClear.dxbc", [512, 1, 1]));
    let [cs] = tiny_mixed::compute_bind_group_layout_entries(ComputePass::Build, tx);
    assert_eq!(cs.iter().map(|e| e.binding).collect::<Vec<_>>(), [0, 16, 32, 160]);
    assert!(cs.iter().all(|e| e.visibility == wgpu::ShaderStages::COMPUTE));
    let [cs] = tiny_mixed::compute_bind_group_layout_entries(ComputePass::Clear, tx);
    assert_eq!(cs.iter().map(|e| e.binding).collect::<Vec<_>>(), [0, 160, 161, 897]);
    // The clearing pass's `u1` and its hidden counter: two fields of one register.
    let counter = &cs[3];
    assert_eq!(
        counter.ty,
        wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: false },
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(4),
        }
    );

    // Excluded permutations are `None` for both kinds.
    let excluded = Permutation { shading: Shading::Lit, texture: true, fog: true };
    assert!(excluded.shaders(RenderPass::Main).is_none());
    assert!(excluded.compute_shaders(ComputePass::Clear).is_none());
    let message =
        std::panic::catch_unwind(|| tiny_mixed::compute_bind_group_layout_entries(ComputePass::Clear, excluded))
            .expect_err("an excluded permutation has no layouts");
    let message = message.downcast_ref::<String>().unwrap();
    assert!(message.contains("TinyEffect: Clear permutation") && message.contains("excluded"), "{message}");

    // Each kind's resources: the compute passes' `u0` is required there and absent from the render
    // passes' struct; the constant buffer is a field of both.
    fn compute_resources<'a>(
        buffer: &'a wgpu::Buffer,
        view: &'a wgpu::TextureView,
    ) -> tiny_mixed::ComputeResources<'a> {
        tiny_mixed::ComputeResources {
            parameters: buffer,
            u0: view,
            u1: None,
            u1_counter: None,
            sampler: None,
            texture: None,
        }
    }
    fn render_resources(buffer: &wgpu::Buffer) -> tiny_mixed::Resources<'_> {
        tiny_mixed::Resources { parameters: buffer, sampler: None, texture: None }
    }
    let _ = (compute_resources, render_resources);
    assert!(tiny_mixed::MissingResource("texture").to_string().contains("`texture`"));
    // The device limits the compute shaders need beyond WebGPU's defaults: only raised.
    let l = tiny_mixed::required_limits(wgpu::Limits::default());
    assert_eq!(
        (
            l.max_compute_invocations_per_workgroup,
            l.max_compute_workgroup_size_x,
            l.max_compute_workgroup_size_y,
            l.max_compute_workgroup_size_z,
            l.max_compute_workgroup_storage_size
        ),
        (512, 512, 256, 64, 20480)
    );
    assert_eq!(tiny_mixed::required_limits(wgpu::Limits::downlevel_defaults()).max_texture_dimension_2d, 2048);
    // A technique mixing both kinds lists `Step`s.
    use tiny_mixed::{Step, Technique};
    assert_eq!(
        Technique::Frame.passes(),
        &[
            Step::Compute(ComputePass::Clear),
            Step::Compute(ComputePass::Build),
            Step::Render(RenderPass::DepthOnly),
            Step::Render(RenderPass::Main)
        ]
    );
}

/// Passes with a geometry shader (`main`: points to quads, `lines`: line strips without pixel
/// shader) beside a render pass (fixture: `tiny_geometry.rs`): the `Geometry*` API, the stage
/// types' constants, states and limits, the per-instance struct, and the technique's steps.
#[test]
fn passes_with_a_geometry_shader() {
    use tiny_geometry::{GeometryPass, LinesStage, MainStage, Pass, Permutation, Shading, Step, Technique};
    assert_eq!(GeometryPass::ALL, [GeometryPass::Main, GeometryPass::Lines]);
    assert_eq!(Pass::ALL, [Pass::DepthOnly]);
    assert_eq!(
        Technique::Frame.passes(),
        &[Step::Render(Pass::DepthOnly), Step::Geometry(GeometryPass::Main), Step::Geometry(GeometryPass::Lines)]
    );
    let p = Permutation::default();
    let s = p.geometry_shaders(GeometryPass::Main).unwrap();
    assert_eq!(s.vertex.label, "Tiny_VS.dxbc (vertex pulling)");
    assert_eq!(s.geometry.label, "Tiny_GS.dxbc");
    assert_eq!(s.draw_vertex.label, "Tiny_GS.dxbc (draw vertex shader)");
    assert_eq!(s.pixel.unwrap().label, "Tiny_PS.dxbc (behind geometry)");
    assert!(s.draw_vertex.wgsl.contains("@vertex"), "{}", s.draw_vertex.wgsl);
    let lines = p.geometry_shaders(GeometryPass::Lines).unwrap();
    assert!(lines.pixel.is_none());
    // Groups 0 and 2 belong to compute modules, group 1 to the fragment stage.
    let tx = Permutation { texture: true, ..p };
    let [vs, ps, gs] = tiny_geometry::geometry_bind_group_layout_entries(GeometryPass::Main, tx);
    assert!(!vs.is_empty() && vs.iter().all(|e| e.visibility == wgpu::ShaderStages::COMPUTE));
    assert_eq!(ps.iter().map(|e| e.binding).collect::<Vec<_>>(), [0, 16, 32]);
    assert!(ps.iter().all(|e| e.visibility == wgpu::ShaderStages::FRAGMENT));
    assert_eq!(gs.iter().map(|e| (e.binding, e.visibility)).collect::<Vec<_>>(), [(0, wgpu::ShaderStages::COMPUTE)]);
    // The draw's topologies and states.
    use tiny_geometry::primitive_stage::Topology;
    assert_eq!((MainStage::TOPOLOGY, LinesStage::TOPOLOGY), (Topology::PointList, Topology::LineStrip));
    assert_eq!(MainStage::PASS, GeometryPass::Main);
    let draw = MainStage::draw_call(6, 2);
    assert_eq!((draw.topology, draw.vertex_count, draw.instance_count, draw.index), (Topology::PointList, 6, 2, None));
    // The draw is the runtime's type, the same for every effect of a crate.
    let _: &dxbc_wgsl_runtime::primitive_stage::DrawCall = &draw;
    assert_eq!(MainStage::primitive_state().cull_mode, Some(wgpu::Face::Back));
    assert_eq!(LinesStage::primitive_state().cull_mode, None);
    assert_eq!(MainStage::color_target_states(&[wgpu::TextureFormat::Rgba8Unorm]).len(), 1);
    assert_eq!(
        MainStage::depth_stencil_state(wgpu::TextureFormat::Depth32Float).depth_compare,
        Some(wgpu::CompareFunction::Less)
    );
    assert!(!MainStage::multisample_state(1).alpha_to_coverage_enabled && !MainStage::scissor_enable());
    assert_eq!(MainStage::required_features(), wgpu::Features::empty());
    // The primitive stage's buffers count against the device's limits; only raised.
    // The geometry module binds 4 storage buffers (records, output vertices and strips, assembly
    // table), the lit vertex module 4 (records, indices, slots 0 and 1); each module a DrawParams
    // uniform beside b0; 4 output registers.
    let none = wgpu::Limits {
        max_bind_groups: 0,
        max_storage_buffers_per_shader_stage: 0,
        max_uniform_buffers_per_shader_stage: 0,
        max_vertex_attributes: 0,
        max_vertex_buffer_array_stride: 0,
        ..wgpu::Limits::downlevel_defaults()
    };
    let l = MainStage::required_limits(none.clone());
    assert_eq!(
        (
            l.max_bind_groups,
            l.max_storage_buffers_per_shader_stage,
            l.max_uniform_buffers_per_shader_stage,
            l.max_vertex_attributes,
            l.max_vertex_buffer_array_stride
        ),
        (4, 4, 2, 4, 64)
    );
    assert_eq!(l.max_texture_dimension_2d, wgpu::Limits::downlevel_defaults().max_texture_dimension_2d);
    let d = wgpu::Limits::default();
    assert_eq!(
        MainStage::required_limits(d.clone()).max_storage_buffers_per_shader_stage,
        d.max_storage_buffers_per_shader_stage
    );
    // COLOR is per-instance data (slot 1) of the lit vertex shader.
    assert_eq!(std::mem::size_of::<tiny_geometry::InstanceColor>(), 4);
    let lit = Permutation { shading: Shading::Lit, ..p };
    assert_eq!(lit.geometry_shaders(GeometryPass::Main).unwrap().vertex.label, "Tiny_VSLit.dxbc (vertex pulling)");
    let excluded = Permutation { shading: Shading::Lit, texture: true, fog: true };
    assert!(excluded.geometry_shaders(GeometryPass::Main).is_none());
    fn resources(buffer: &wgpu::Buffer) -> tiny_geometry::GeometryResources<'_> {
        tiny_geometry::GeometryResources { parameters: buffer, sampler: None, texture: None }
    }
    let _ = resources;
}
