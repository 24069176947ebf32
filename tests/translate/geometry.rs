//! The primitive stage's translations (docs/geometry.md): geometry shaders of the corpus as
//! compute modules with their `GeometryInfo`, a vertex shader pulled as compute, the draw's
//! pass-through vertex shader and a pixel shader behind a geometry shader. Execution is in
//! `execution/geometry.rs`.

use dxbc_wgsl::geometry::{
    GeometryInfo, InputPrimitive, OutputTopology, PulledElement, VertexFormat, VertexPulling, ASSEMBLY_WGSL,
};
use dxbc_wgsl::{translate, Builtin, ShaderStage, TranslateOptions, VertexStage};

fn corpus_blob(rel: &str) -> Option<Vec<u8>> {
    let Some(dir) = dxbc_wgsl_tests::corpus_dir() else {
        eprintln!("SKIPPED: the shader corpus is absent (set DXBC_WGSL_CORPUS or place it at ../shared/corpus)");
        return None;
    };
    Some(std::fs::read(dir.join(rel)).expect(rel))
}

fn validate(wgsl: &str) {
    let module = naga::front::wgsl::parse_str(wgsl).unwrap_or_else(|e| panic!("{}\n{wgsl}", e.emit_to_string(wgsl)));
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}\n{wgsl}", e.emit_to_string(wgsl)));
}

#[test]
fn a_point_to_strip_geometry_shader_is_a_compute_module_with_its_description() {
    let Some(gs) = corpus_blob("vkd3d-shader-tests/geometry/L0025_gs_4_0.dxbc") else { return };
    let t = translate(&gs, &TranslateOptions::default()).unwrap();
    assert_eq!(t.stage, ShaderStage::Geometry);
    assert_eq!(t.workgroup_size, Some([64, 1, 1]));
    assert!(t.wgsl.contains("@compute"), "{}", t.wgsl);
    assert_eq!(
        t.geometry,
        Some(GeometryInfo {
            input_primitive: InputPrimitive::Point,
            output_topology: Some(OutputTopology::TriangleStrip),
            max_vertices: 4,
            instances: 1,
            input_registers: 2,
            output_registers: 2,
            position_register: Some(0),
            index_stride: 9,
            cull_flag_register: None,
            streams: None,
        })
    );
    // Four emits, each storing both output registers into the slot gs_emit returned.
    assert_eq!(t.wgsl.matches("= gs_emit()").count(), 4, "{}", t.wgsl);
    assert_eq!(t.wgsl.matches("gs_store(").count(), 4 * 2 + 1, "{}", t.wgsl);
}

#[test]
fn the_sm5_stream_forms_on_stream_zero_emit_and_other_streams_are_dropped() {
    let Some(gs) = corpus_blob("vkd3d-shader-tests/geometry-shader-syntax/L0694_gs_5_0.dxbc") else { return };
    let t = translate(&gs, &TranslateOptions::default()).unwrap();
    // One emit_stream m0 and one emit_stream m1: only stream 0 reaches the draw.
    assert_eq!(t.wgsl.matches("= gs_emit()").count(), 1, "{}", t.wgsl);
}

/// SV_RenderTargetArrayIndex written by a geometry shader (docs/per-primitive.md): a flat `u32`
/// output register the translation names, and the pixel shader behind it reads that location.
#[test]
fn a_geometry_shader_writing_the_layer_names_its_register() {
    let Some(gs) = corpus_blob("wine/d3d11/test_layered_rendering__gs_4_code.dxbc") else { return };
    let t = translate(&gs, &TranslateOptions::default()).unwrap();
    // `dcl_output_siv o1.x, rendertarget_array_index`.
    let source = t.per_primitive.render_target_array_index.expect("the layer's source");
    assert_eq!((source.location, source.component), (1, 0));
    assert_eq!(t.per_primitive.viewport_array_index, None);
    assert_eq!(t.per_primitive.cull_flag, None);
    let o1 = t.outputs.iter().find(|v| v.register == 1).expect("o1");
    assert_eq!(o1.scalar, dxbc_wgsl::ScalarKind::Uint, "integers travel flat");
    let Some(ps) = corpus_blob("wine/d3d11/test_layered_rendering__ps_code.dxbc") else { return };
    let p =
        translate(&ps, &TranslateOptions { primitive_select: Some(t.per_primitive), ..Default::default() }).unwrap();
    assert!(p.wgsl.contains("ps_selected("), "{}", p.wgsl);
    assert!(p.wgsl.contains("discard"), "{}", p.wgsl);
    // Without a source the pixel shader reads 0 and selects nothing.
    let bare = translate(&ps, &TranslateOptions::default()).unwrap();
    assert!(!bare.wgsl.contains("ps_selected("), "{}", bare.wgsl);
}

#[test]
fn a_vertex_shader_pulled_as_compute_reads_its_layout_and_writes_records() {
    let Some(vs) = corpus_blob("vkd3d-shader-tests/geometry/L0012_vs_4_0.dxbc") else { return };
    let pulling = VertexPulling {
        elements: vec![
            PulledElement {
                register: 0,
                slot: 0,
                offset: 0,
                format: VertexFormat::Float32x4,
                instance_step_rate: None,
            },
            PulledElement {
                register: 1,
                slot: 0,
                offset: 16,
                format: VertexFormat::Float32x4,
                instance_step_rate: None,
            },
        ],
        strides: vec![32],
        record_registers: 2,
    };
    let opts = TranslateOptions { vertex_stage: VertexStage::Compute(pulling), ..Default::default() };
    let t = translate(&vs, &opts).unwrap();
    assert_eq!(t.workgroup_size, Some([64, 1, 1]));
    assert!(t.wgsl.contains("@compute"), "{}", t.wgsl);
    assert!(t.wgsl.contains("@group(3) @binding(8) \nvar<storage> vs_vb0"), "{}", t.wgsl);
    assert_eq!(t.wgsl.matches("vs_fetch(0u, 32u, ").count(), 2, "{}", t.wgsl);
    assert_eq!(t.wgsl.matches("vs_store(").count(), 2 + 1, "{}", t.wgsl);
    // An input no element feeds is refused, naming the register.
    let opts = TranslateOptions {
        vertex_stage: VertexStage::Compute(VertexPulling { elements: vec![], strides: vec![], record_registers: 2 }),
        ..Default::default()
    };
    let e = translate(&vs, &opts).unwrap_err().to_string();
    assert!(e.contains("no input element feeds v0"), "{e}");
}

#[test]
fn the_draw_vertex_shader_passes_registers_on_and_the_pixel_shader_reads_the_gs_primitive_id() {
    let Some(gs) = corpus_blob("vkd3d-shader-tests/primitive-id/L0018_gs_4_0.dxbc") else { return };
    let Some(ps) = corpus_blob("vkd3d-shader-tests/primitive-id/L0054_ps_4_0.dxbc") else { return };
    let gs = translate(&gs, &TranslateOptions::default()).unwrap();
    let pst = translate(&ps, &TranslateOptions { behind_geometry: true, ..Default::default() }).unwrap();
    let interp: Vec<_> = pst.inputs.iter().filter_map(|v| Some((v.location?, v.interpolation?))).collect();
    let draw = dxbc_wgsl::geometry_draw_vertex_shader(&gs, &interp).unwrap();
    validate(&draw.wgsl);
    assert_eq!(draw.inputs.len(), 3);
    assert!(draw.wgsl.contains("out.position = bitcast<vec4<f32>>(v.r0_)"), "{}", draw.wgsl);
    // SV_PrimitiveID (o2) travels flat as raw bits; the pixel shader reads it at location 2.
    assert!(draw.wgsl.contains("@location(2) @interpolate(flat) o2_: vec4<u32>"), "{}", draw.wgsl);
    assert!(pst.wgsl.contains("@location(2) @interpolate(flat) v2_primitive_id: vec4<u32>"), "{}", pst.wgsl);
    assert!(!pst.wgsl.contains("primitive_index"), "{}", pst.wgsl);
    assert!(pst.required_features.is_empty());
    // Without a geometry shader it stays WebGPU's primitive_index.
    let plain = translate(&ps, &TranslateOptions::default()).unwrap();
    assert!(plain.inputs.iter().any(|v| v.builtin == Some(Builtin::PrimitiveIndex)));
}

#[test]
fn the_assembly_kernel_validates() {
    validate(ASSEMBLY_WGSL);
}

#[test]
fn an_assembled_pass_through_geometry_shader_translates() {
    use dxbc_wgsl_tests::asm;
    // triangle in, triangle strip out, position + one TEXCOORD.
    let gs = asm::pass_through_gs(3, 3, 5, 2);
    let t = translate(&gs, &TranslateOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let g = t.geometry.unwrap();
    assert_eq!(
        (g.input_primitive, g.max_vertices, g.input_registers, g.output_registers),
        (InputPrimitive::Triangle, 3, 2, 2)
    );
    assert_eq!(t.wgsl.matches("= gs_emit()").count(), 3, "{}", t.wgsl);
    // A relative vertex index reads through gs_input with the register's value.
    let rel = asm::shader(
        asm::GS_4_0,
        &[asm::Element("SV_Position", 0, asm::NAME_POSITION, 3, 0, "xyzw")],
        &[asm::Element("SV_Position", 0, asm::NAME_POSITION, 3, 0, "xyzw")],
        &[
            asm::dcl_input_primitive(3),
            asm::dcl_output_topology(1),
            asm::dcl_max_output(1),
            asm::dcl_gs_input(3, 0, "xyzw", asm::NAME_POSITION),
            asm::dcl_gs_system_input(asm::INPUT_PRIMITIVE_ID),
            asm::dcl_output(0, "xyzw", asm::NAME_POSITION),
        ],
        1,
        &[
            asm::ins(asm::MOV, &[asm::dst(asm::TEMP, 0, "x"), asm::special(asm::INPUT_PRIMITIVE_ID, "xxxx")]),
            asm::ins(asm::MOV, &[asm::dst(asm::OUTPUT, 0, "xyzw"), asm::src_vertex_relative(0, 0, 1, 0, "xyzw")]),
            asm::bare(asm::EMIT),
        ],
    );
    let t = translate(&rel, &TranslateOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(t.wgsl.contains("gs_prim_id"), "{}", t.wgsl);
    assert!(t.wgsl.contains("gs_input((bitcast<u32>("), "{}", t.wgsl);
}

/// Every vertex shader of the corpus that translates for the render pipeline translates as
/// compute in front of a geometry shader too (each input register pulled as `float32x4`), and
/// naga accepts the result: the primitive stage's vertex module never fails where the vertex
/// stage does not.
#[test]
fn every_corpus_vertex_shader_translates_as_compute() {
    let Some(dir) = dxbc_wgsl_tests::corpus_dir() else {
        eprintln!("SKIPPED: the shader corpus is absent (set DXBC_WGSL_CORPUS or place it at ../shared/corpus)");
        return;
    };
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                files.push(p);
            }
        }
    }
    files.sort();
    let (mut pulled, mut failures) = (0, Vec::new());
    for p in files {
        let bytes = std::fs::read(&p).unwrap();
        let Ok(render) = translate(&bytes, &TranslateOptions::default()) else { continue };
        if render.stage != ShaderStage::Vertex {
            continue;
        }
        let elements = render
            .inputs
            .iter()
            .filter(|v| v.builtin.is_none())
            .map(|v| PulledElement {
                register: v.register,
                slot: 0,
                offset: 16 * v.register,
                format: VertexFormat::Float32x4,
                instance_step_rate: None,
            })
            .collect();
        let record_registers = render.outputs.iter().map(|v| v.register + 1).max().unwrap_or(1).clamp(1, 32);
        let pulling = VertexPulling { elements, strides: vec![256], record_registers };
        let opts = TranslateOptions { vertex_stage: VertexStage::Compute(pulling), ..Default::default() };
        match translate(&bytes, &opts) {
            Ok(t) => {
                assert_eq!(t.workgroup_size, Some([64, 1, 1]));
                pulled += 1;
            }
            Err(e) => failures.push(format!("{}: {e}", p.display())),
        }
    }
    eprintln!("{pulled} vertex shaders translated as compute");
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
    assert!(pulled > 100, "only {pulled} vertex shaders");
}

/// The declarations a program has one of (`dcl_inputprimitive`, `dcl_maxout`,
/// `dcl_gsinstances`, `dcl_thread_group`) declared twice are refused at the second, with its
/// position: the translation took the last one silently. A repeated `dcl_outputtopology` of the
/// same topology (SM5 declares it per stream) is kept; a different one is refused.
#[test]
fn single_declarations_declared_twice_are_refused() {
    use dxbc_wgsl::{RefusalReason, TranslateError};
    use dxbc_wgsl_tests::asm::*;
    let pos = Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw");
    let gs = |extra: Vec<u32>| {
        let decls = [
            dcl_input_primitive(3),
            dcl_output_topology(5),
            dcl_max_output(3),
            dcl_gs_instances(2),
            extra,
            dcl_gs_input(3, 0, "xyzw", NAME_POSITION),
            dcl_output(0, "xyzw", NAME_POSITION),
        ];
        let body = [ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src_vertex(0, 0, "xyzw")]), bare(EMIT)];
        shader(GS_5_0, &[pos], &[pos], &decls, 0, &body)
    };
    let refused_at_4 = |blob: &[u8], what: &str| {
        let Err(TranslateError::Unsupported(r)) = translate(blob, &TranslateOptions::default()) else {
            panic!("{what}: not refused")
        };
        assert_eq!(r.reason, RefusalReason::DeclarationUnsupported, "{what}: {r:?}");
        assert_eq!(r.instruction, Some(4), "{what}: the second declaration, {r:?}");
        assert!(r.offset.is_some() && r.opcode.is_some(), "{what}: {r:?}");
        assert!(r.detail.contains(what), "{what}: {}", r.detail);
    };
    refused_at_4(&gs(dcl_input_primitive(1)), "dcl_inputprimitive");
    refused_at_4(&gs(dcl_max_output(5)), "dcl_maxout");
    refused_at_4(&gs(dcl_gs_instances(3)), "dcl_gsinstances");
    refused_at_4(&gs(dcl_output_topology(1)), "dcl_outputtopology");
    let same = translate(&gs(dcl_output_topology(5)), &TranslateOptions::default()).unwrap();
    assert_eq!(same.geometry.unwrap().output_topology, Some(OutputTopology::TriangleStrip));
    assert!(translate(&gs(Vec::new()), &TranslateOptions::default()).is_ok());
    // A compute shader's second dcl_thread_group.
    let cs = compute_shader([8, 1, 1], &[vec![DCL_THREAD_GROUP | (4 << 24), 64, 1, 1]], 1, &[]);
    let Err(TranslateError::Unsupported(r)) = translate(&cs, &TranslateOptions::default()) else {
        panic!("dcl_thread_group twice: not refused")
    };
    assert_eq!((r.reason, r.instruction), (RefusalReason::DeclarationUnsupported, Some(1)), "{r:?}");
    assert!(r.detail.contains("dcl_thread_group declared twice"), "{}", r.detail);
}

/// `emit_stream`/`cut_stream` on a stream past m3 or one no `dcl_stream` declares (invalid
/// bytecode) is refused at the instruction; it was dropped like a declared non-zero stream, or,
/// for m0 undeclared beside a declared m1, emitted with stream 1's outputs.
#[test]
fn stream_instructions_on_undeclared_streams_are_refused() {
    use dxbc_wgsl::{RefusalReason, TranslateError};
    use dxbc_wgsl_tests::asm::*;
    let pos = Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw");
    let gs = |streams: &[u32], opcode: u32, stream: u32| {
        let mut decls = vec![dcl_input_primitive(1), dcl_output_topology(1), dcl_max_output(2)];
        decls.extend(streams.iter().map(|&m| with_stream(DCL_STREAM, m)));
        decls.extend([dcl_gs_input(1, 0, "xyzw", NAME_POSITION), dcl_output(0, "xyzw", NAME_POSITION)]);
        let body = [ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src_vertex(0, 0, "xyzw")]), with_stream(opcode, stream)];
        shader(GS_5_0, &[pos], &[pos], &decls, 0, &body)
    };
    for (streams, opcode, stream) in [
        (&[0u32][..], EMIT_STREAM, 4),
        (&[0, 1, 2, 3][..], EMIT_STREAM, 7),
        (&[0][..], EMIT_STREAM, 1),
        (&[1][..], EMIT_STREAM, 0),
        (&[][..], EMIT_STREAM, 0),
        (&[0][..], CUT_STREAM, 2),
    ] {
        let Err(TranslateError::Unsupported(r)) = translate(&gs(streams, opcode, stream), &TranslateOptions::default())
        else {
            panic!("stream m{stream} beside {streams:?}: not refused")
        };
        assert_eq!((r.reason, r.instruction), (RefusalReason::OperandUnsupported, Some(6 + streams.len())), "{r:?}");
        assert!(r.detail.contains(&format!("stream m{stream}")), "{}", r.detail);
    }
    // Declared streams translate: m0 emits, m1 is dropped.
    let t = translate(&gs(&[0, 1], EMIT_STREAM, 0), &TranslateOptions::default()).unwrap();
    assert_eq!(t.wgsl.matches("= gs_emit()").count(), 1);
    let t = translate(&gs(&[0, 1], EMIT_STREAM, 1), &TranslateOptions::default()).unwrap();
    assert_eq!(t.wgsl.matches("= gs_emit()").count(), 0);
}

/// The draw's vertex shader builds for every interpolation a pixel shader can ask of a float
/// output: per-sample ones (`linear sample`, `linear noperspective sample`) were an internal
/// error (naga validated the module without the multisampled-shading capability WebGPU's core
/// has). Tint accepts each.
#[test]
fn the_draw_vertex_shader_takes_every_interpolation() {
    use dxbc_wgsl::Interpolation as I;
    let gs = translate(&dxbc_wgsl_tests::asm::pass_through_gs(3, 3, 5, 3), &TranslateOptions::default()).unwrap();
    // As naga writes them (the defaults left out).
    let all = [
        (I::Perspective, "@location(1) o1_"),
        (I::PerspectiveCentroid, "@location(1) @interpolate(perspective, centroid) o1_"),
        (I::PerspectiveSample, "@location(1) @interpolate(perspective, sample) o1_"),
        (I::Linear, "@location(1) @interpolate(linear) o1_"),
        (I::LinearCentroid, "@location(1) @interpolate(linear, centroid) o1_"),
        (I::LinearSample, "@location(1) @interpolate(linear, sample) o1_"),
        (I::Flat, "@location(1) @interpolate(flat) o1_"),
    ];
    let mut modules = Vec::new();
    for (interp, attribute) in all {
        let draw = dxbc_wgsl::geometry_draw_vertex_shader(&gs, &[(1, interp), (2, I::Linear)])
            .unwrap_or_else(|e| panic!("{interp:?}: {e}"));
        validate(&draw.wgsl);
        assert!(draw.wgsl.contains(attribute), "{interp:?}:\n{}", draw.wgsl);
        assert_eq!(draw.outputs.iter().find(|o| o.location == Some(1)).and_then(|o| o.interpolation), Some(interp));
        modules.push(draw.wgsl);
    }
    if std::env::var_os("DXBC_WGSL_SKIP_TINT").is_none() {
        let refs: Vec<&str> = modules.iter().map(String::as_str).collect();
        let verdicts =
            dxbc_wgsl_cli::tint::check(&refs).unwrap_or_else(|e| panic!("{e} (DXBC_WGSL_SKIP_TINT=1 skips)"));
        for (v, (interp, _)) in verdicts.iter().zip(all) {
            assert!(v.ok, "{interp:?}: {:?}", v.first_problem());
        }
    }
}

/// Every `InstanceDataStepRate` reaches the vertex module unchanged: u32::MAX was encoded as
/// `rate + 1` saturated, so the module divided by u32::MAX - 1 (instance u32::MAX - 1 read
/// element 1 instead of 0).
#[test]
fn instance_step_rates_reach_the_vertex_module_unchanged() {
    use dxbc_wgsl_tests::asm::*;
    let vs = shader(
        VS_4_0,
        &[Element("DATA", 0, 0, 1, 0, "xyzw")],
        &[Element("DATA", 0, 0, 1, 0, "xyzw")],
        &[dcl_vs_input(0, "xyzw", 0), dcl_output(0, "xyzw", 0)],
        0,
        &[ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src(INPUT, 0, "xyzw")])],
    );
    for (rate, call) in [
        (None, "vs_fetch(0u, 16u, 0u, 0u, 0u, "),
        (Some(0), "vs_fetch(0u, 16u, 0u, 1u, 0u, "),
        (Some(3), "vs_fetch(0u, 16u, 0u, 1u, 3u, "),
        (Some(u32::MAX), "vs_fetch(0u, 16u, 0u, 1u, 4294967295u, "),
    ] {
        let element =
            PulledElement { register: 0, slot: 0, offset: 0, format: VertexFormat::Uint32x4, instance_step_rate: rate };
        let pulling = VertexPulling { elements: vec![element], strides: vec![16], record_registers: 1 };
        let opts = TranslateOptions { vertex_stage: VertexStage::Compute(pulling), ..Default::default() };
        let t = translate(&vs, &opts).unwrap_or_else(|e| panic!("{rate:?}: {e}"));
        assert!(t.wgsl.contains(call), "{rate:?}: {call} in\n{}", t.wgsl);
    }
}

/// A geometry shader reading an input it does not declare (`v[k][r]` of an undeclared
/// register, `vPrim`, `vGSInstanceID`), or an input register by a relative index (which needs a
/// `dcl_indexrange`), is refused at the instruction, as the other stages refuse an undeclared
/// `v#`; it read zeros.
#[test]
fn undeclared_geometry_inputs_are_refused() {
    use dxbc_wgsl::{RefusalReason, TranslateError};
    use dxbc_wgsl_tests::asm::*;
    let pos = Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw");
    let gs = |source: Vec<u32>| {
        let decls = [
            dcl_input_primitive(3),
            dcl_output_topology(5),
            dcl_max_output(1),
            dcl_gs_input(3, 0, "xyzw", NAME_POSITION),
            dcl_output(0, "xyzw", NAME_POSITION),
        ];
        let body =
            [ins(MOV, &[dst(TEMP, 0, "x"), imm([0; 4])]), ins(MOV, &[dst(OUTPUT, 0, "xyzw"), source]), bare(EMIT)];
        shader(GS_4_0, &[pos], &[pos], &decls, 1, &body)
    };
    // v[r0.x + 0][0]: a relative vertex index into a declared register translates.
    translate(&gs(src_vertex_relative(0, 0, 0, 0, "xyzw")), &TranslateOptions::default()).expect("v[r0.x][0]");
    let relative_register = {
        let mut op = src_vertex(0, 0, "xyzw");
        // Index 1 (the register): immediate + relative `r0.x`.
        op[0] |= 3 << 25;
        op.extend([2 | (2 << 2) | (TEMP << 12) | (1 << 20), 0]);
        op
    };
    for (source, what) in [
        (src_vertex(1, 3, "xyzw"), "v[][3] is not declared"),
        (scalar_input(INPUT_PRIMITIVE_ID), "vPrim is not declared"),
        (scalar_input(INPUT_GS_INSTANCE_ID), "vGSInstanceID is not declared"),
        (relative_register, "relative indexing of a geometry-shader input's register"),
    ] {
        let Err(TranslateError::Unsupported(r)) = translate(&gs(source), &TranslateOptions::default()) else {
            panic!("{what}: not refused")
        };
        assert_eq!((r.reason, r.instruction), (RefusalReason::OperandUnsupported, Some(7)), "{what}: {r:?}");
        assert!(r.detail.contains(what), "{what}: {}", r.detail);
    }
}

/// `Topology::PatchList(0)` (the enum admits it; D3D11 has patches of 1-32 points) has no
/// candidate primitives instead of dividing by zero.
#[test]
fn a_patch_list_of_no_points_has_no_candidates() {
    use dxbc_wgsl::geometry::Topology;
    assert_eq!(Topology::PatchList(0).candidates(10), 0);
    assert_eq!(Topology::PatchList(0).positions_of(0, 3, 10), (0, 0));
    assert_eq!(Topology::PatchList(3).candidates(10), 3);
}

/// Stream output (`TranslateOptions::geometry_streams`, docs/stream-output.md): L0694 emits
/// to streams 0 and 1 (points); kept, each emit goes through the stream library with its
/// stream, and the layout gives stream 1 its own region.
#[test]
fn kept_streams_emit_through_the_stream_library_with_their_layout() {
    use dxbc_wgsl::geometry::{GeometryStreams, StreamInfo};
    let Some(gs) = corpus_blob("vkd3d-shader-tests/geometry-shader-syntax/L0694_gs_5_0.dxbc") else { return };
    let streams = GeometryStreams { rasterized: Some(0), stream_out: 0b11 };
    let t = translate(&gs, &TranslateOptions { geometry_streams: streams, ..Default::default() }).unwrap();
    validate(&t.wgsl);
    assert_eq!(t.wgsl.matches("= gs_stream_emit(").count(), 2, "{}", t.wgsl);
    assert!(!t.wgsl.contains("gs_emit()"), "{}", t.wgsl);
    let info = t.geometry.unwrap();
    let s: StreamInfo = info.streams.expect("a stream layout");
    // A drawn point list: region 0 the draw's (padded with the hidden slot), stream 0's and
    // stream 1's lists in regions 1 and 2.
    assert_eq!((s.regions, s.so_regions, s.drawn, s.hidden_slot), (3, [Some(1), Some(2), None, None], true, true));
    assert_eq!((s.slots, s.index_stride, s.prim_vertices), (info.max_vertices + 1, info.max_vertices, 1));
    assert_eq!((s.region_mask(0), s.region_mask(1), s.region_mask(2)), (0b011, 0b100, 0));
    // The default is the plain translation, byte for byte.
    let plain = translate(&gs, &TranslateOptions::default()).unwrap();
    let default = TranslateOptions { geometry_streams: GeometryStreams::default(), ..Default::default() };
    assert_eq!(translate(&gs, &default).unwrap().wgsl, plain.wgsl);
    assert_eq!(plain.geometry.unwrap().streams, None);
    // Stream output of a stream the shader does not declare, or past m3, is refused.
    for bad in [
        GeometryStreams { rasterized: None, stream_out: 0b100 },
        GeometryStreams { rasterized: Some(4), stream_out: 1 },
    ] {
        let r = translate(&gs, &TranslateOptions { geometry_streams: bad, ..Default::default() });
        assert!(matches!(r, Err(dxbc_wgsl::TranslateError::InvalidOptions(_))), "{bad:?}: {r:?}");
    }
}

/// Every corpus geometry shader that translates translates with its first declared stream
/// streamed out and not drawn, and drawn and streamed out; naga accepts both.
#[test]
fn every_corpus_geometry_shader_translates_with_stream_output() {
    use dxbc_wgsl::geometry::GeometryStreams;
    let Some(dir) = dxbc_wgsl_tests::corpus_dir() else {
        eprintln!("SKIPPED: the shader corpus is absent (set DXBC_WGSL_CORPUS or place it at ../shared/corpus)");
        return;
    };
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut translated = 0;
    for p in files {
        let bytes = std::fs::read(&p).unwrap();
        let Ok(plain) = translate(&bytes, &TranslateOptions::default()) else { continue };
        let Some(info) = plain.geometry else { continue };
        if info.output_topology.is_none() {
            continue;
        }
        for rasterized in [None, Some(0)] {
            // The first stream the shader declares (SM5 may declare only m1..m3).
            let t = (0..4u32).find_map(|n| {
                let streams = GeometryStreams { rasterized, stream_out: 1 << n };
                let t = translate(&bytes, &TranslateOptions { geometry_streams: streams, ..Default::default() });
                match t {
                    Err(dxbc_wgsl::TranslateError::InvalidOptions(e)) if e.contains("does not declare") => None,
                    t => Some((n, t.unwrap_or_else(|e| panic!("{}: {streams:?}: {e}", p.display())))),
                }
            });
            let (n, t) = t.unwrap_or_else(|| panic!("{}: no stream declared", p.display()));
            let s = t.geometry.unwrap().streams.expect("a stream layout");
            assert!(s.so_regions[n as usize].is_some(), "{}", p.display());
            translated += 1;
        }
    }
    eprintln!("{translated} stream-output translations");
    assert!(translated >= 40, "only {translated}");
}

/// `pass_through_geometry`: for every primitive and stream setting, WGSL naga accepts with
/// the description of an echo of the primitive's non-adjacent vertices; a patch list is
/// refused.
#[test]
fn the_pass_through_geometry_module_validates_for_every_primitive() {
    use dxbc_wgsl::geometry::{pass_through_geometry, GeometryStreams};
    let cases = [
        (InputPrimitive::Point, OutputTopology::PointList, 1),
        (InputPrimitive::Line, OutputTopology::LineStrip, 2),
        (InputPrimitive::Triangle, OutputTopology::TriangleStrip, 3),
        (InputPrimitive::LineAdj, OutputTopology::LineStrip, 2),
        (InputPrimitive::TriangleAdj, OutputTopology::TriangleStrip, 3),
    ];
    for (primitive, topology, vertices) in cases {
        for streams in [
            GeometryStreams::default(),
            GeometryStreams { rasterized: None, stream_out: 1 },
            GeometryStreams { rasterized: Some(0), stream_out: 1 },
        ] {
            let (wgsl, info) = pass_through_geometry(primitive, 3, Some(0), streams).unwrap();
            validate(&wgsl);
            assert_eq!((info.output_topology, info.max_vertices, info.input_registers), (Some(topology), vertices, 3));
            assert_eq!(info.streams.is_some(), !streams.is_default());
            let emit = if streams.is_default() { "= gs_emit()" } else { "= gs_stream_emit(0u)" };
            assert_eq!(wgsl.matches(emit).count(), vertices as usize, "{primitive:?}");
        }
    }
    let (wgsl, _) = pass_through_geometry(InputPrimitive::TriangleAdj, 1, None, GeometryStreams::default()).unwrap();
    for k in ["gs_input(0u, r)", "gs_input(2u, r)", "gs_input(4u, r)"] {
        assert!(wgsl.contains(k), "{k}");
    }
    assert!(pass_through_geometry(InputPrimitive::Patch(3), 2, Some(0), GeometryStreams::default()).is_err());
    assert!(pass_through_geometry(InputPrimitive::Point, 2, Some(2), GeometryStreams::default()).is_err());
    assert!(pass_through_geometry(InputPrimitive::Point, 0, None, GeometryStreams::default()).is_err());
}
