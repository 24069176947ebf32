//! Malformed programs in valid containers (tests/fixtures/hostile, made by adversarial testing):
//! each is refused with a specific reason naming its instruction. Before these refusals, every one
//! of them reached naga or Tint and came back as invalid WGSL (`failed`).

use dxbc_wgsl::{translate, TranslateError, TranslateOptions};

fn refusal(name: &str) -> (String, Option<usize>, String) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hostile").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match translate(&bytes, &TranslateOptions::default()) {
        Err(TranslateError::Unsupported(r)) => (r.reason.id().to_string(), r.instruction, r.detail),
        Err(other) => panic!("{name}: expected a refusal, got {other}"),
        Ok(t) => panic!("{name}: expected a refusal, got WGSL:\n{}", t.wgsl),
    }
}

#[test]
fn each_malformed_program_is_refused_with_its_reason() {
    let cases: &[(&str, &str, &str)] = &[
        ("break_outside.dxbc", "unstructured_control_flow", "outside a loop"),
        ("case_fallthrough.dxbc", "unstructured_control_flow", "falls through"),
        ("if_100.dxbc", "unstructured_control_flow", "nested deeper"),
        ("loop_no_break.dxbc", "webgpu_limitation", "no `break` or `ret`"),
        ("cs_no_threads.dxbc", "declaration_unsupported", "without dcl_thread_group"),
        ("cs_threads_0_0_0.dxbc", "declaration_unsupported", "outside D3D's limits"),
        ("cs_threads_0_1_1.dxbc", "declaration_unsupported", "outside D3D's limits"),
        ("cs_threads_1025_1_1.dxbc", "declaration_unsupported", "outside D3D's limits"),
        ("cs_threads_1024_1024_64.dxbc", "declaration_unsupported", "outside D3D's limits"),
        ("cs_threads_4294967295_4294967295_4294967295.dxbc", "declaration_unsupported", "outside D3D's limits"),
        ("ps_threadgroup.dxbc", "declaration_unsupported", "outside a compute shader"),
        ("ps_two_frontface.dxbc", "system_value_unsupported", "second input"),
        ("vs_two_pos.dxbc", "system_value_unsupported", "second SV_Position"),
        ("vs_pos_uint.dxbc", "system_value_unsupported", "non-float"),
        ("vs_odepth.dxbc", "operand_unsupported", "pixel shaders only"),
        ("sample_sint.dxbc", "operand_unsupported", "integer return type"),
        ("imm_nocomp.dxbc", "operand_unsupported", "no comp"),
        ("imm_nocomp_case.dxbc", "operand_unsupported", "not an imme"),
    ];
    for (file, reason, detail) in cases {
        let (got_reason, instruction, got_detail) = refusal(file);
        assert_eq!(&got_reason, reason, "{file}: {got_detail}");
        assert!(got_detail.contains(detail), "{file}: `{got_detail}` does not mention `{detail}`");
        assert!(instruction.is_some(), "{file}: the refusal names no instruction");
    }
}

/// The refusal of a program assembled here: (reason id, instruction index, detail).
fn refusal_of(blob: &[u8]) -> (String, Option<usize>, String) {
    match translate(blob, &TranslateOptions::default()) {
        Err(TranslateError::Unsupported(r)) => (r.reason.id().to_string(), r.instruction, r.detail),
        Err(other) => panic!("expected a refusal, got {other}"),
        Ok(t) => panic!("expected a refusal, got WGSL:\n{}", t.wgsl),
    }
}

/// A second depth output (`oDepth`, `oDepthGE`, `oDepthLE` in any mix), `oMask` or `vCoverage`
/// (found by adversarial testing) is refused at its declaration. Before, each became a second
/// `frag_depth`/`sample_mask` builtin, which naga rejects: `failed`.
#[test]
fn a_second_depth_mask_or_coverage_declaration_is_refused() {
    use dxbc_wgsl_tests::asm::{ins, pixel_shader_with, DCL_INPUT, DCL_OUTPUT};
    // A one-component operand of the register type, no index: `oDepth`, `vCoverage`, ...
    let decl = |opcode: u32, ty: u32| ins(opcode, &[vec![1 | (ty << 12)]]);
    let (depth, mask, depth_ge, depth_le, coverage) = (12, 15, 38, 39, 35);
    let cases = [
        ("oDepth twice", decl(DCL_OUTPUT, depth), decl(DCL_OUTPUT, depth)),
        ("oDepthGE twice", decl(DCL_OUTPUT, depth_ge), decl(DCL_OUTPUT, depth_ge)),
        ("oDepth and oDepthLE", decl(DCL_OUTPUT, depth), decl(DCL_OUTPUT, depth_le)),
        ("oMask twice", decl(DCL_OUTPUT, mask), decl(DCL_OUTPUT, mask)),
        ("vCoverage twice", decl(DCL_INPUT, coverage), decl(DCL_INPUT, coverage)),
    ];
    for (what, first, second) in cases {
        // ps_5_0: the two declarations, then `dcl_output o0.xyzw`, `dcl_temps 1`, `ret`.
        let blob = pixel_shader_with(0x50, &[first, second], &[], 1, &[], false);
        let (reason, instruction, detail) = refusal_of(&blob);
        assert_eq!(reason, "declaration_unsupported", "{what}: {detail}");
        assert_eq!(instruction, Some(1), "{what}: {detail}");
        assert!(detail.contains("second") || detail.contains("twice"), "{what}: {detail}");
    }
    // One of each is fine.
    let blob = pixel_shader_with(
        0x50,
        &[decl(DCL_OUTPUT, depth), decl(DCL_OUTPUT, mask), decl(DCL_INPUT, coverage)],
        &[],
        1,
        &[],
        false,
    );
    if let Err(e) = translate(&blob, &TranslateOptions::default()) {
        panic!("oDepth, oMask and vCoverage once each: {e}");
    }
}

/// Declarations a program has once — `dcl_temps`, one `dcl_indexableTemp` per x#, the
/// immediate constant buffer — declared twice (found by adversarial testing) are refused at the
/// second. Before, the last one won: a smaller second `dcl_temps` after instructions that use
/// the registers broke the IR's invariant (an internal error in debug builds, such as build
/// scripts), and a second x# or immediate constant buffer silently replaced the first.
#[test]
fn a_second_temps_indexable_temp_or_immediate_constant_buffer_is_refused() {
    use dxbc_wgsl_tests::asm::{dst, imm, ins, pixel_shader_with, DCL_TEMPS, MOV, TEMP};
    const DCL_INDEXABLE_TEMP: u32 = 105;
    let icb = |rows: u32| {
        let mut d = vec![53 | (3 << 11), 2 + 4 * rows];
        d.extend((0..4 * rows).map(|w| w + 1));
        d
    };
    let cases = [
        // dcl_temps 4; mov r3.x, l(1, 1, 1, 1); then the helper's dcl_output o0 and dcl_temps 1.
        (
            "dcl_temps",
            vec![ins(DCL_TEMPS, &[vec![4]]), ins(MOV, &[dst(TEMP, 3, "x"), imm([1; 4])])],
            3,
            "dcl_temps declared twice",
        ),
        (
            "dcl_indexableTemp x0",
            vec![ins(DCL_INDEXABLE_TEMP, &[vec![0, 8, 4]]), ins(DCL_INDEXABLE_TEMP, &[vec![0, 2, 4]])],
            1,
            "x0 declared twice",
        ),
        ("immediate constant buffer", vec![icb(2), icb(1)], 1, "second immediate constant buffer"),
    ];
    for (what, decls, at, detail) in cases {
        let blob = pixel_shader_with(0x40, &decls, &[], 1, &[], false);
        let (got_reason, instruction, got_detail) = refusal_of(&blob);
        assert_eq!(got_reason, "declaration_unsupported", "{what}: {got_detail}");
        assert_eq!(instruction, Some(at), "{what}: {got_detail}");
        assert!(got_detail.contains(detail), "{what}: `{got_detail}` does not mention `{detail}`");
    }
    // Two x# registers and one immediate constant buffer are fine.
    let decls = [ins(DCL_INDEXABLE_TEMP, &[vec![0, 8, 4]]), ins(DCL_INDEXABLE_TEMP, &[vec![1, 2, 4]]), icb(2)];
    if let Err(e) = translate(&pixel_shader_with(0x40, &decls, &[], 1, &[], false), &TranslateOptions::default()) {
        panic!("x0, x1 and one immediate constant buffer: {e}");
    }
}

/// A compute shader declaring an output (`dcl_output o0`) or an input register `v0` (found by
/// adversarial testing) is refused: each became a `@location` return value or argument of the
/// compute entry point, which naga accepts but WGSL forbids (Tint rejects it: `failed` under
/// `qualify --tint`).
#[test]
fn compute_shader_inputs_and_outputs_are_refused() {
    use dxbc_wgsl_tests::asm::{compute_shader, dst, ins, DCL_INPUT, DCL_OUTPUT, INPUT, OUTPUT};
    let cases = [
        ("dcl_output o0.xyzw", ins(DCL_OUTPUT, &[dst(OUTPUT, 0, "xyzw")]), "an output declaration"),
        ("dcl_input v0.xyzw", ins(DCL_INPUT, &[dst(INPUT, 0, "xyzw")]), "an input register v#"),
    ];
    for (what, decl, detail) in cases {
        // dcl_thread_group 1, 1, 1; the declaration; dcl_temps 1; ret
        let blob = compute_shader([1, 1, 1], &[decl], 1, &[]);
        let (reason, instruction, got_detail) = refusal_of(&blob);
        assert_eq!(reason, "declaration_unsupported", "{what}: {got_detail}");
        assert_eq!(instruction, Some(1), "{what}: {got_detail}");
        assert!(got_detail.contains(detail), "{what}: `{got_detail}` does not mention `{detail}`");
    }
}

/// What WebGPU lacks, or what the bytecode does not carry, is named as such: `oStencilRef` is a
/// WebGPU absence (no WGSL output for the stencil reference), and class linkage (an interface
/// declaration) needs the class instances the application binds at SetShader time. Before, the
/// first was "output register type OutputStencilRef" and the second "not translated yet".
#[test]
fn stencil_ref_output_and_class_linkage_are_refused_with_their_reasons() {
    use dxbc_wgsl_tests::asm::{ins, pixel_shader_with, DCL_OUTPUT};
    let stencil_ref = 41;
    let blob = pixel_shader_with(0x50, &[ins(DCL_OUTPUT, &[vec![1 | (stencil_ref << 12)]])], &[], 1, &[], false);
    let (reason, instruction, detail) = refusal_of(&blob);
    assert_eq!(reason, "webgpu_limitation", "{detail}");
    assert_eq!(instruction, Some(0), "{detail}");
    assert!(detail.contains("stencil reference"), "{detail}");

    // `dcl_function_body fb0` (opcode 144, one raw word).
    let dcl_function_body = 144;
    let body = vec![dcl_function_body | (2 << 24), 0];
    let blob = pixel_shader_with(0x50, &[body], &[], 1, &[], false);
    let (reason, instruction, detail) = refusal_of(&blob);
    assert_eq!(reason, "interfaces", "{detail}");
    assert_eq!(instruction, Some(0), "{detail}");
    assert!(detail.contains("SetShader"), "{detail}");
}

/// `ld_uav_typed` / `store_uav_typed` naming a `g#` instead of a `u#` (found by the structured
/// fuzz target) is refused at the instruction. Before, the access was taken for `u0`, whose
/// write-only storage texture it then read: naga rejected the module (`failed`).
#[test]
fn typed_uav_access_to_another_register_type_is_refused() {
    use dxbc_wgsl_tests::asm::{compute_shader, dcl_tgsm_raw, dst, imm, ins, memory, src, TEMP, TGSM, UAV};
    const DCL_UAV_TYPED: u32 = 156;
    const LD_UAV_TYPED: u32 = 163;
    const STORE_UAV_TYPED: u32 = 164;
    // RWTexture2D<float4> u0, written once so it exists as a write-only storage texture.
    let decls = [vec![DCL_UAV_TYPED | (3 << 11) | (4 << 24), (UAV << 12) | (1 << 20), 0, 0x5555], dcl_tgsm_raw(0, 256)];
    let write_u0 = ins(STORE_UAV_TYPED, &[memory(UAV, 0), imm([0; 4]), imm([0x3f80_0000; 4])]);
    let cases = [
        ("ld_uav_typed of g0", ins(LD_UAV_TYPED, &[dst(TEMP, 0, "xyzw"), imm([0; 4]), src(TGSM, 0, "xyzw")])),
        ("store_uav_typed to g0", ins(STORE_UAV_TYPED, &[memory(TGSM, 0), imm([0; 4]), imm([1; 4])])),
    ];
    for (what, access) in cases {
        let mut options = TranslateOptions::default();
        options.set_view_format("u0=rgba8unorm").unwrap();
        let blob = compute_shader([1, 1, 1], &decls, 1, &[write_u0.clone(), access]);
        match translate(&blob, &options) {
            Err(TranslateError::Unsupported(r)) => {
                assert_eq!(r.reason.id(), "operand_unsupported", "{what}: {}", r.detail);
                assert_eq!(r.instruction, Some(5), "{what}: {}", r.detail);
                assert!(r.detail.contains("only a typed UAV"), "{what}: {}", r.detail);
            }
            other => panic!("{what}: expected a refusal, got {other:?}"),
        }
    }
    // The same accesses to u0 translate.
    let mut options = TranslateOptions::default();
    options.set_view_format("u0=rgba8unorm").unwrap();
    let blob = compute_shader([1, 1, 1], &decls[..1], 1, &[write_u0]);
    translate(&blob, &options).unwrap_or_else(|e| panic!("store_uav_typed to u0: {e}"));
}
