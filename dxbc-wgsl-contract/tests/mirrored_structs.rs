//! The WGSL side of the contract agrees with the Rust side: every WGSL struct that mirrors a
//! Rust one has each member at the Rust field's offset (naga's layout of the WGSL against
//! `offset_of!`), and every resource the WGSL sources declare sits at the group and binding the
//! constants name.

use dxbc_wgsl_contract::geometry::{self as geo, DrawParams};
use dxbc_wgsl_contract::select;
use dxbc_wgsl_contract::stream_output::{self as so, SoParams};
use dxbc_wgsl_contract::tessellator::{self as tess, kernel as tk};
use std::mem::{offset_of, size_of};

fn parse(name: &str, source: &str) -> naga::Module {
    naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)))
}

/// `(member name, offset)` of the WGSL struct `name` of `module`, and its size.
fn wgsl_struct(module: &naga::Module, name: &str) -> (Vec<(String, u32)>, u32) {
    let (_, ty) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no struct {name}"));
    match &ty.inner {
        naga::TypeInner::Struct { members, span } => {
            (members.iter().map(|m| (m.name.clone().unwrap_or_default(), m.offset)).collect(), *span)
        }
        other => panic!("{name} is {other:?}"),
    }
}

macro_rules! rust_offsets {
    ($ty:ty { $($field:ident),* $(,)? }) => {
        (vec![$((stringify!($field).to_string(), offset_of!($ty, $field) as u32)),*], size_of::<$ty>() as u32)
    };
}

fn draw_params_rust() -> (Vec<(String, u32)>, u32) {
    rust_offsets!(DrawParams {
        vertex_count,
        first_vertex,
        base_vertex,
        first_instance,
        index_size,
        index_offset,
        topology,
        use_assembly_table,
        instance_begin,
        instance_count,
        position_begin,
        position_count,
        primitive_begin,
        primitive_count,
        invocations,
        workgroups_x,
        vertex_buffer_offsets,
    })
}

/// A resource a WGSL source declares: `(variable, group, binding)`.
type Declared = (&'static str, u32, u32);

/// The WGSL sources of the contract, with what each declares.
fn sources() -> Vec<(&'static str, String, Vec<Declared>)> {
    use geo::SYSTEM_GROUP as S;
    let mut vertex_pull = geo::VERTEX_PULL_WGSL.to_string();
    // The translator completes it per shader: its vertex buffers, their accessors and the entry
    // point (a shader that reads no vertex buffer gets these).
    vertex_pull.push_str(
        "\nfn vs_word(slot: u32, w: u32) -> u32 { return 0u; }\n\
         fn vs_bytes(slot: u32) -> u32 { return 0u; }\n\
         @compute @workgroup_size(1) fn main() {}\n",
    );
    let mut streams = geo::GEOMETRY_WGSL.to_string();
    streams.push_str(geo::GEOMETRY_STREAMS_WGSL);
    vec![
        (
            "assembly.wgsl",
            geo::ASSEMBLY_WGSL.to_string(),
            vec![("draw", S, geo::DRAW_PARAMS), ("indices", S, geo::INDEX_BUFFER), ("table", S, geo::ASSEMBLY_TABLE)],
        ),
        (
            "geometry.wgsl",
            geo::GEOMETRY_WGSL.to_string(),
            vec![
                ("gs_draw", S, geo::DRAW_PARAMS),
                ("gs_records", S, geo::VERTEX_RECORDS),
                ("gs_out_vertices", S, geo::OUTPUT_VERTICES),
                ("gs_out_indices", S, geo::OUTPUT_INDICES),
                ("gs_table", S, geo::ASSEMBLY_TABLE),
            ],
        ),
        (
            "geometry.wgsl + geometry_streams.wgsl",
            streams,
            vec![
                ("gs_draw", S, geo::DRAW_PARAMS),
                ("gs_records", S, geo::VERTEX_RECORDS),
                ("gs_out_vertices", S, geo::OUTPUT_VERTICES),
                ("gs_out_indices", S, geo::OUTPUT_INDICES),
                ("gs_table", S, geo::ASSEMBLY_TABLE),
            ],
        ),
        (
            "vertex_pull.wgsl",
            vertex_pull,
            vec![
                ("vs_draw", S, geo::DRAW_PARAMS),
                ("vs_records", S, geo::VERTEX_RECORDS),
                ("vs_indices", S, geo::INDEX_BUFFER),
            ],
        ),
        (
            "select.wgsl",
            select::SELECT_WGSL.to_string(),
            vec![("ps_select", select::SELECT_GROUP, select::SELECT_BINDING)],
        ),
        (
            "stream_output.wgsl",
            so::STREAM_OUTPUT_WGSL.to_string(),
            vec![
                ("so", so::SO_GROUP, so::SO_PARAMS),
                ("so_entries", so::SO_GROUP, so::SO_ENTRIES),
                ("so_vertices", so::SO_GROUP, so::SO_OUTPUT_VERTICES),
                ("so_indices", so::SO_GROUP, so::SO_OUTPUT_INDICES),
                ("so_scratch", so::SO_GROUP, so::SO_SCRATCH),
                ("so_state", so::SO_GROUP, so::SO_STATE),
                ("so_buf0", so::SO_GROUP, so::SO_TARGET_BASE),
                ("so_buf1", so::SO_GROUP, so::SO_TARGET_BASE + 1),
                ("so_buf2", so::SO_GROUP, so::SO_TARGET_BASE + 2),
                ("so_buf3", so::SO_GROUP, so::SO_TARGET_BASE + 3),
            ],
        ),
        (
            "tessellator.wgsl",
            tess::WGSL.to_string(),
            vec![
                ("params", tk::GROUP, tk::PARAMS),
                ("factors", tk::GROUP, tk::FACTORS),
                ("ranges", tk::GROUP, tk::RANGES),
                ("totals", tk::GROUP, tk::TOTALS),
                ("points", tk::GROUP, tk::POINTS),
                ("point_patches", tk::GROUP, tk::POINT_PATCHES),
                ("indices", tk::GROUP, tk::INDICES),
            ],
        ),
    ]
}

#[test]
fn mirrored_structs() {
    let draw = draw_params_rust();
    let so_params = rust_offsets!(SoParams {
        invocations,
        index_stride,
        index_base,
        registers,
        prim_vertices,
        entry_count,
        slot_mask,
        reset_mask,
        workgroups_x,
        stream,
        unbound_mask,
        pad1,
        offsets,
        capacities,
        strides,
    });
    assert_eq!(u64::from(draw.1), geo::DRAW_PARAMS_SIZE);
    assert_eq!(u64::from(so_params.1), so::SO_PARAMS_SIZE);
    let mut checked = 0;
    for (name, source, _) in sources() {
        let module = parse(name, &source);
        for (wgsl, rust) in [("DrawParams", &draw), ("SoParams", &so_params)] {
            if module.types.iter().any(|(_, t)| t.name.as_deref() == Some(wgsl)) {
                assert_eq!(&wgsl_struct(&module, wgsl), rust, "{name}: struct {wgsl} against the Rust struct");
                checked += 1;
            }
        }
    }
    // DrawParams in assembly, geometry (twice) and vertex_pull; SoParams in the kernels.
    assert_eq!(checked, 5);
    // The tessellator's uniform and per-patch record.
    let module = parse("tessellator.wgsl", tess::WGSL);
    let params = rust_offsets!(tk::TessParams {
        domain,
        partitioning,
        output,
        patch_count,
        factor_stride,
        workgroups_x,
        pad0,
        pad1,
    });
    let range = rust_offsets!(tk::PatchRange { first_point, point_count, first_index, index_count });
    assert_eq!(wgsl_struct(&module, "TessParams"), params);
    assert_eq!(wgsl_struct(&module, "PatchRange"), range);
    assert_eq!(u64::from(params.1), tk::TESS_PARAMS_SIZE);
    assert_eq!(u64::from(range.1), tk::PATCH_RANGE_SIZE);
    // The selection uniform is a bare vec4<u32> of SelectParams' four words.
    assert_eq!(size_of::<select::SelectParams>() as u64, select::SELECT_PARAMS_SIZE);
}

#[test]
fn wgsl_bindings_are_the_constants() {
    for (name, source, expected) in sources() {
        let module = parse(name, &source);
        let declared: Vec<(String, u32, u32)> = module
            .global_variables
            .iter()
            .filter_map(|(_, v)| v.binding.as_ref().map(|b| (v.name.clone().unwrap_or_default(), b.group, b.binding)))
            .collect();
        let mut expected: Vec<(String, u32, u32)> =
            expected.into_iter().map(|(n, g, b)| (n.to_string(), g, b)).collect();
        let mut declared_sorted = declared.clone();
        declared_sorted.sort();
        expected.sort();
        assert_eq!(declared_sorted, expected, "{name}: resource bindings");
    }
}

/// Every WGSL source of the contract that is a complete module (the kernels, the helper
/// libraries completed as above) validates with naga.
#[test]
fn wgsl_sources_validate() {
    for (name, source, _) in sources() {
        let module = parse(name, &source);
        // WebGPU's core: `unpack2x16float` is core WGSL (naga names it a capability).
        let caps = naga::valid::Capabilities::SHADER_FLOAT16_IN_FLOAT32;
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), caps)
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
    }
    let kernels = parse("stream_output.wgsl", so::STREAM_OUTPUT_WGSL);
    for entry in so::ENTRY_POINTS {
        assert!(kernels.entry_points.iter().any(|e| e.name == entry), "{entry}");
    }
    let tessellator = parse("tessellator.wgsl", tess::WGSL);
    for entry in tk::ENTRY_POINTS {
        assert!(tessellator.entry_points.iter().any(|e| e.name == entry), "{entry}");
    }
}
