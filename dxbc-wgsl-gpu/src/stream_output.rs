//! Stream output through the primitive stage (D3D11.3 §14, `docs/stream-output.md`): the same
//! source generated code embeds (`dxbc-wgsl-build/src/codegen/stream_output_runtime.rs`, std and
//! wgpu only), compiled here for the tests and `gpu_validate`.

include!(concat!(env!("CARGO_MANIFEST_DIR"), "/../dxbc-wgsl-build/src/codegen/stream_output_runtime.rs"));

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

#[cfg(test)]
mod tests {
    use super::*;

    /// A declaration D3D accepts (512 entries of which most are 5-component gaps, strides of 2004
    /// bytes) splits into more than 512 kernel entries; the kernels take it, and refuse only past
    /// what 4 slots of 2048 bytes can hold.
    #[test]
    fn split_gaps_past_512_entries_are_taken() {
        let mut entries = Vec::new();
        for slot in 0..4 {
            entries.push(SoEntry { stream: 0, register: Some(0), start_component: 0, component_count: 1, slot });
            for _ in 0..100 {
                // a 5-component gap, split
                entries.push(SoEntry { stream: 0, register: None, start_component: 0, component_count: 4, slot });
                entries.push(SoEntry { stream: 0, register: None, start_component: 0, component_count: 1, slot });
            }
        }
        let desc = SoDesc { entries, strides: [2004; 4], rasterized_stream: None };
        assert_eq!(desc.entries.len(), 804);
        desc.validate().expect("804 split entries");
        let mut too_many = desc.clone();
        too_many.entries = vec![too_many.entries[0]; SO_MAX_KERNEL_ENTRIES + 1];
        too_many.strides = [2048; 4];
        assert!(too_many.validate().is_err());
    }

    #[test]
    fn kernels_validate_with_naga() {
        let module = naga::front::wgsl::parse_str(STREAM_OUTPUT_WGSL).expect("parse");
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty())
            .validate(&module)
            .expect("valid");
        for entry in ["so_count", "so_scan", "so_write"] {
            assert!(module.entry_points.iter().any(|e| e.name == entry), "{entry}");
        }
    }

    fn entry(stream: u32, register: Option<u32>, start: u32, count: u32, slot: u32) -> SoEntry {
        SoEntry { stream, register, start_component: start, component_count: count, slot }
    }

    #[test]
    fn declarations_follow_d3d_rules() {
        let ok = SoDesc {
            entries: vec![entry(0, Some(0), 0, 4, 0), entry(0, None, 0, 2, 0), entry(1, Some(1), 1, 3, 1)],
            strides: [24, 12, 0, 0],
            rasterized_stream: Some(0),
        };
        assert_eq!(ok.validate(), Ok(()));
        assert_eq!(ok.entry_table(), vec![[0, 0, 4, 0], [SO_GAP, 0, 2, 16 << 8], [1, 1, 3, 1]]);
        assert_eq!(ok.streams(), 0b11);
        assert_eq!(ok.slots_of(1), 0b10);
        let broken = |f: &dyn Fn(&mut SoDesc)| {
            let mut d = ok.clone();
            f(&mut d);
            d.validate().is_err()
        };
        assert!(broken(&|d| d.entries[2].slot = 0), "two streams in one slot");
        assert!(broken(&|d| d.strides[0] = 20), "entries past the stride");
        assert!(broken(&|d| d.strides[1] = 14), "a stride not a multiple of 4");
        assert!(broken(&|d| d.strides[1] = 0), "no stride for a used slot");
        assert!(broken(&|d| d.entries[2].start_component = 2), "components past w");
        assert!(broken(&|d| d.entries[0].component_count = 0), "no components");
        assert!(broken(&|d| d.entries[0].stream = 4), "stream 4");
        assert!(broken(&|d| d.entries[0].slot = 4), "slot 4");
        assert!(broken(&|d| d.rasterized_stream = Some(4)), "rasterized stream 4");
        assert!(broken(&|d| d.entries.clear()), "no entries");
        assert!(broken(&|d| d.strides[1] = 2052), "stride past 2048");
    }
}
