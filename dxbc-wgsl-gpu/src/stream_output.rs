//! Stream output through the primitive stage (D3D11.3 §14, `docs/stream-output.md`):
//! `dxbc_wgsl_runtime::stream_output`, the one the generated code uses, with the conversions from
//! a translation's `GeometryInfo` and a resolved declaration.

pub use dxbc_wgsl_runtime::stream_output::*;

/// The [`SoLayout`] of a geometry translation with stream output (its `GeometryInfo::streams`:
/// registers per output vertex, index words per invocation and region, vertices per primitive,
/// the region of each stream); `None` for a translation without stream output.
pub fn so_layout(info: &dxbc_wgsl::geometry::GeometryInfo) -> Option<SoLayout> {
    let s = info.streams?;
    Some(SoLayout {
        registers: info.output_registers.max(1),
        index_stride: s.index_stride,
        prim_vertices: s.prim_vertices,
        regions: s.so_regions,
    })
}

/// The [`SoDesc`] of a declaration resolved against the shader's output signature
/// (`dxbc_wgsl::geometry::resolve_so_declaration`): gaps of more than 4 components become
/// consecutive gaps of at most 4 (the same bytes skipped).
pub fn so_desc(d: &dxbc_wgsl::geometry::SoDeclaration) -> SoDesc {
    let entries = d
        .runtime_entries()
        .into_iter()
        .map(|e| SoEntry {
            stream: e.stream,
            register: e.register,
            start_component: e.start_component,
            component_count: e.component_count,
            slot: e.slot,
        })
        .collect();
    SoDesc { entries, strides: d.strides, rasterized_stream: d.rasterized }
}
