//! Every limit of `dxbc_wgsl::limits` at the limit (translates) and one past it (refused with a
//! diagnostic naming the limit): temps, indexable temps, constant-buffer rows, immediate
//! constant-buffer rows, thread-group shared memory, instruction count, nesting depth, patch
//! control points, geometry-shader output vertices and scalars, instances, thread-group size.

use dxbc_wgsl::limits;
use dxbc_wgsl::{translate, TranslateError, TranslateOptions};
use dxbc_wgsl_tests::asm::*;

const DCL_INDEXABLE_TEMP: u32 = 105;
const CUSTOMDATA: u32 = 53;

fn translates(what: &str, blob: &[u8]) -> dxbc_wgsl::Translation {
    translate(blob, &TranslateOptions::default()).unwrap_or_else(|e| panic!("{what} at the limit: {e}"))
}

/// The refusal's detail, checked to name `mentions`.
fn refused(what: &str, blob: &[u8], mentions: &str) {
    match translate(blob, &TranslateOptions::default()) {
        Err(TranslateError::Unsupported(r)) => {
            assert!(r.detail.contains(mentions), "{what} past the limit: `{}` does not mention `{mentions}`", r.detail)
        }
        other => panic!("{what} past the limit: expected a refusal, got {other:?}"),
    }
}

/// `ps_4_0` writing `l(1,1,1,1)` to o0 after `decls`, with `temps` temps.
fn ps(decls: &[Vec<u32>], temps: u32, body: &[Vec<u32>]) -> Vec<u8> {
    let mut body = body.to_vec();
    body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), imm([0x3f80_0000; 4])]));
    pixel_shader_with(0x40, decls, &[], temps, &body, false)
}

#[test]
fn temp_registers() {
    let n = limits::TEMP_REGISTERS;
    // The last register is written and read.
    let body =
        [ins(MOV, &[dst(TEMP, n - 1, "x"), imm([1; 4])]), ins(MOV, &[dst(OUTPUT, 0, "x"), src(TEMP, n - 1, "xxxx")])];
    translates("dcl_temps", &ps(&[], n, &body));
    refused("dcl_temps", &ps(&[], n + 1, &[]), "4096");
}

#[test]
fn indexable_temp_registers_count_with_the_temps() {
    let n = limits::TEMP_REGISTERS;
    let x = |size: u32| ins(DCL_INDEXABLE_TEMP, &[vec![0, size, 4]]);
    // x0[4095] beside the helper's one `dcl_temps 1`: 4096 together.
    translates("x0[4095] + r0", &ps(&[x(n - 1)], 1, &[]));
    refused("x0[4096] + r0", &ps(&[x(n)], 1, &[]), "4096");
    // Components: 1-4.
    refused("x0[4] of 5 components", &ps(&[ins(DCL_INDEXABLE_TEMP, &[vec![0, 4, 5]])], 1, &[]), "4096");
}

#[test]
fn constant_buffer_rows() {
    let n = limits::CONSTANT_BUFFER_ROWS;
    // cb0[n]: its last row is read.
    let at_limit = pixel_shader(n, 1, &[ins(MOV, &[dst(OUTPUT, 0, "xyzw"), cb(0, n - 1, "xyzw")])], false);
    translates("cb0[4096]", &at_limit);
    refused("cb0[4097]", &pixel_shader(n + 1, 1, &[], false), "4096 rows");
}

#[test]
fn immediate_constant_buffer_rows() {
    let icb = |rows: u32| {
        let mut d = vec![CUSTOMDATA | (3 << 11), 2 + 4 * rows];
        d.extend((0..4 * rows).map(|w| w + 1));
        d
    };
    let n = limits::IMMEDIATE_CONSTANT_BUFFER_ROWS as u32;
    translates("icb[4096]", &ps(&[icb(n)], 1, &[]));
    refused("icb[4097]", &ps(&[icb(n + 1)], 1, &[]), "4096");
}

#[test]
fn thread_group_shared_memory() {
    let bytes = limits::TGSM_BYTES as u32;
    let store = [ins(STORE_RAW, &[dst(TGSM, 0, "x"), imm([bytes - 4; 4]), imm([7; 4])])];
    translates("g0 of 32768 bytes", &compute_shader([1, 1, 1], &[dcl_tgsm_raw(0, bytes)], 1, &store));
    refused("g0 of 32772 bytes", &compute_shader([1, 1, 1], &[dcl_tgsm_raw(0, bytes + 4)], 1, &[]), "32768");
    // All g# together.
    let two = [dcl_tgsm_raw(0, bytes / 2), dcl_tgsm_raw(1, bytes / 2 + 4)];
    refused("g0 + g1 past 32768 bytes", &compute_shader([1, 1, 1], &two, 1, &[]), "32768");
}

#[test]
fn instruction_count() {
    // `ps` adds dcl_output, dcl_temps, the final mov and ret to the body: 4 instructions.
    let n = limits::INSTRUCTIONS;
    let body = |count: usize| vec![ins(MOV, &[dst(TEMP, 0, "x"), imm([1; 4])]); count];
    translates("65536 instructions", &ps(&[], 1, &body(n - 4)));
    refused("65537 instructions", &ps(&[], 1, &body(n - 3)), "65536");
}

#[test]
fn nesting_depth() {
    let nested = |depth: usize| {
        let mut body = Vec::new();
        for _ in 0..depth {
            body.push(nz(ins(IF, &[src(TEMP, 0, "xxxx")])));
        }
        body.extend(vec![ins(ENDIF, &[]); depth]);
        ps(&[], 1, &body)
    };
    translates("if nested 40 deep", &nested(limits::NESTING));
    refused("if nested 41 deep", &nested(limits::NESTING + 1), "nested deeper than 40");
    const { assert!(limits::NESTING <= limits::D3D_FLOW_CONTROL_NESTING) };
}

#[test]
fn patch_control_points() {
    use dxbc_wgsl::sm4::decl::InputPrimitive;
    // The 6-bit field: 8 + n - 1 for a patch of n control points.
    let last = 7 + limits::PATCH_CONTROL_POINTS;
    assert_eq!(InputPrimitive::from_raw(last), InputPrimitive::ControlPointPatch(limits::PATCH_CONTROL_POINTS as u8));
    assert_eq!(InputPrimitive::from_raw(last + 1), InputPrimitive::Reserved((last + 1) as u8));
}

/// A point-in, point-list-out geometry shader emitting SV_Position (4 components) `emits`
/// times, declaring `dcl_maxout max_out` and `dcl_gsinstances instances` when given.
fn gs(max_out: u32, emits: u32, instances: Option<u32>) -> Vec<u8> {
    let position = Element("SV_Position", 0, NAME_POSITION, 3, 0, "xyzw");
    let mut decls = vec![dcl_input_primitive(1), dcl_output_topology(1), dcl_max_output(max_out)];
    if let Some(n) = instances {
        decls.push(dcl_gs_instances(n));
    }
    decls.push(dcl_gs_input(1, 0, "xyzw", NAME_POSITION));
    decls.push(dcl_output(0, "xyzw", NAME_POSITION));
    let mut body = Vec::new();
    for _ in 0..emits {
        body.push(ins(MOV, &[dst(OUTPUT, 0, "xyzw"), src_vertex(0, 0, "xyzw")]));
        body.push(bare(EMIT));
    }
    let version = if instances.is_some() { GS_5_0 } else { GS_4_0 };
    shader(version, &[position], &[position], &decls, 0, &body)
}

#[test]
fn geometry_output_vertices_and_scalars() {
    // 1024 scalars: 256 vertices of 4 components.
    let per_vertex = 4;
    let vertices = (limits::GS_OUTPUT_SCALARS / per_vertex) as u32;
    translates("dcl_maxout 256 of float4", &gs(vertices, 2, None));
    refused("dcl_maxout 257 of float4", &gs(vertices + 1, 2, None), "1024 scalars");
    // The vertex count itself: 1-1024.
    refused("dcl_maxout 1025", &gs(limits::GS_OUTPUT_VERTICES + 1, 1, None), "1-1024 output vertices");
    refused("dcl_maxout 0", &gs(0, 1, None), "1-1024 output vertices");
}

#[test]
fn geometry_instances() {
    translates("dcl_gsinstances 32", &gs(4, 1, Some(limits::GS_INSTANCES)));
    refused("dcl_gsinstances 33", &gs(4, 1, Some(limits::GS_INSTANCES + 1)), "1-32 instances");
}

#[test]
fn thread_group_size() {
    let cs = |group: [u32; 3]| compute_shader(group, &[], 1, &[]);
    let xy = limits::THREAD_GROUP_XY;
    let z = limits::THREAD_GROUP_Z;
    translates("1024x1x1", &cs([xy, 1, 1]));
    translates("1x1024x1", &cs([1, xy, 1]));
    translates("1x1x64", &cs([1, 1, z]));
    translates("16x16x4 (1024 threads)", &cs([16, 16, 4]));
    refused("1025x1x1", &cs([xy + 1, 1, 1]), "outside D3D's limits");
    refused("1x1x65", &cs([1, 1, z + 1]), "outside D3D's limits");
    refused("16x16x5 (1280 threads)", &cs([16, 16, 5]), "outside D3D's limits");
}
