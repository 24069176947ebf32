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

#[test]
fn per_primitive_system_values_are_refused_with_their_reason() {
    let Some(gs) = corpus_blob("wine/d3d11/test_layered_rendering__gs_4_code.dxbc") else { return };
    let e = translate(&gs, &TranslateOptions::default()).unwrap_err();
    let dxbc_wgsl::TranslateError::Unsupported(r) = e else { panic!("{e}") };
    assert_eq!(r.reason, dxbc_wgsl::RefusalReason::SystemValueUnsupported);
    assert!(r.detail.contains("SV_RenderTargetArrayIndex"), "{}", r.detail);
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
