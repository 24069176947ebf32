//! The primitive stage's runtime (D3D geometry shaders as compute work in front of a draw,
//! `docs/geometry.md`): the same source the generated code embeds
//! (`dxbc-wgsl-build/src/codegen/primitive_stage_runtime.rs`, std and wgpu only), compiled here
//! for the conformance runner and the tests.

include!(concat!(env!("CARGO_MANIFEST_DIR"), "/../dxbc-wgsl-build/src/codegen/primitive_stage_runtime.rs"));

/// The [`StageDesc`] of a geometry shader's translation (its `GeometryInfo`) and the vertex
/// buffer slots its vertex shader's pulling reads.
pub fn stage_desc(info: &dxbc_wgsl::geometry::GeometryInfo, vertex_slots: Vec<u32>) -> StageDesc {
    use dxbc_wgsl::geometry as lib;
    StageDesc {
        input_primitive: match info.input_primitive {
            lib::InputPrimitive::Point => InputPrimitive::Point,
            lib::InputPrimitive::Line => InputPrimitive::Line,
            lib::InputPrimitive::Triangle => InputPrimitive::Triangle,
            lib::InputPrimitive::LineAdj => InputPrimitive::LineAdj,
            lib::InputPrimitive::TriangleAdj => InputPrimitive::TriangleAdj,
            lib::InputPrimitive::Patch(n) => InputPrimitive::Patch(n),
        },
        input_registers: info.input_registers,
        output_registers: info.output_registers,
        max_vertices: info.max_vertices,
        gs_instances: info.instances,
        index_stride: info.index_stride,
        output: info.output_topology.map(|t| match t {
            lib::OutputTopology::PointList => OutputTopology::PointList,
            lib::OutputTopology::LineStrip => OutputTopology::LineStrip,
            lib::OutputTopology::TriangleStrip => OutputTopology::TriangleStrip,
        }),
        vertex_slots: vertex_slots.into(),
    }
}

/// The [`StreamStage`] of a geometry translation with stream output (its
/// `GeometryInfo::streams`), for [`PrimitiveStage::with_streams`]; `None` for the plain one.
pub fn stream_stage(info: &dxbc_wgsl::geometry::GeometryInfo) -> Option<StreamStage> {
    info.streams.map(|s| StreamStage {
        slots: s.slots,
        regions: s.regions,
        index_stride: s.index_stride,
        drawn: s.drawn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxbc_wgsl::geometry as lib;

    #[test]
    fn contract_constants_are_the_library_s() {
        assert_eq!(SYSTEM_GROUP, lib::SYSTEM_GROUP);
        assert_eq!(DRAW_PARAMS, lib::DRAW_PARAMS);
        assert_eq!(VERTEX_RECORDS, lib::VERTEX_RECORDS);
        assert_eq!(INDEX_BUFFER, lib::INDEX_BUFFER);
        assert_eq!(OUTPUT_VERTICES, lib::OUTPUT_VERTICES);
        assert_eq!(OUTPUT_INDICES, lib::OUTPUT_INDICES);
        assert_eq!(ASSEMBLY_TABLE, lib::ASSEMBLY_TABLE);
        assert_eq!(VERTEX_BUFFER_BASE, lib::VERTEX_BUFFER_BASE);
        assert_eq!(MAX_VERTEX_BUFFER_SLOTS, lib::MAX_VERTEX_BUFFER_SLOTS);
        assert_eq!(RESTART_INDEX, lib::RESTART_INDEX);
        assert_eq!(WORKGROUP_SIZE, lib::WORKGROUP_SIZE);
        assert_eq!(DRAW_PARAMS_SIZE, lib::DRAW_PARAMS_SIZE);
        assert_eq!(DRAW_PARAMS_WORDS as u64 * 4, lib::DRAW_PARAMS_SIZE);
        assert_eq!(lib::DrawParams::default().to_bytes().len() as u64, DRAW_PARAMS_SIZE);
    }

    #[test]
    fn draw_params_lay_out_as_the_library_s() {
        // Every field a distinct value, so a swapped or shifted field shows.
        let v = |i: u32| 0x0101_0101u32.wrapping_mul(i + 1) ^ (i << 20);
        let offsets: [[u32; 4]; 4] = std::array::from_fn(|a| std::array::from_fn(|b| v(16 + (a * 4 + b) as u32)));
        let ours = DrawParams {
            vertex_count: v(0),
            first_vertex: v(1),
            base_vertex: v(2),
            first_instance: v(3),
            index_size: v(4),
            index_offset: v(5),
            topology: v(6),
            use_assembly_table: v(7),
            instance_begin: v(8),
            instance_count: v(9),
            position_begin: v(10),
            position_count: v(11),
            primitive_begin: v(12),
            primitive_count: v(13),
            invocations: v(14),
            workgroups_x: v(15),
            vertex_buffer_offsets: offsets,
        };
        let theirs = lib::DrawParams {
            vertex_count: v(0),
            first_vertex: v(1),
            base_vertex: v(2),
            first_instance: v(3),
            index_size: v(4),
            index_offset: v(5),
            topology: v(6),
            use_assembly_table: v(7),
            instance_begin: v(8),
            instance_count: v(9),
            position_begin: v(10),
            position_count: v(11),
            primitive_begin: v(12),
            primitive_count: v(13),
            invocations: v(14),
            workgroups_x: v(15),
            vertex_buffer_offsets: offsets,
        };
        assert_eq!(ours.to_bytes(), theirs.to_bytes());
        // And the WGSL struct the assembly kernel declares has the same members in that order.
        let members = [
            "vertex_count",
            "first_vertex",
            "base_vertex",
            "first_instance",
            "index_size",
            "index_offset",
            "topology",
            "use_assembly_table",
            "instance_begin",
            "instance_count",
            "position_begin",
            "position_count",
            "primitive_begin",
            "primitive_count",
            "invocations",
            "workgroups_x",
            "vertex_buffer_offsets",
        ];
        let at: Vec<usize> = members
            .iter()
            .map(|m| lib::ASSEMBLY_WGSL.find(&format!("    {m}:")).unwrap_or_else(|| panic!("{m} missing")))
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "member order differs: {at:?}");
    }

    #[test]
    fn topology_formulas_are_the_library_s() {
        for number in 0..=70u32 {
            let theirs = lib::Topology::from_number(number);
            let ours = InputPrimitive::of_topology(number);
            assert_eq!(ours.is_some(), theirs.is_some(), "topology {number}");
            let Some(t) = theirs else {
                assert_eq!(candidates(number, 10), None);
                continue;
            };
            assert_eq!(ours.map(InputPrimitive::vertices), Some(t.input_primitive().vertices()), "{t:?}");
            assert_eq!(is_strip(number), t.is_strip(), "{t:?}");
            for positions in 0..=40 {
                let c = t.candidates(positions);
                assert_eq!(candidates(number, positions), Some(c), "{t:?} {positions}");
                for begin in 0..=c + 1 {
                    for end in begin..=c + 1 {
                        assert_eq!(
                            positions_of(number, begin, end, positions),
                            Some(t.positions_of(begin, end, positions)),
                            "{t:?} {positions} {begin}..{end}"
                        );
                    }
                }
            }
            // At the ends of 32 bits (the products of list positions and the last candidates of
            // a strip with adjacency pass them).
            let far = [0, 1, 2, 5, 1 << 30, u32::MAX / 6, u32::MAX / 2, u32::MAX - 6, u32::MAX - 1, u32::MAX];
            for positions in far {
                assert_eq!(candidates(number, positions), Some(t.candidates(positions)), "{t:?} {positions}");
                for begin in far {
                    for end in far {
                        assert_eq!(
                            positions_of(number, begin, end, positions),
                            Some(t.positions_of(begin, end, positions)),
                            "{t:?} {positions} {begin}..{end}"
                        );
                    }
                }
            }
        }
    }

    /// The positions candidate `j` may read (docs/geometry.md's table, for any strip start an
    /// index buffer's restarts may give it), clipped to the draw: an inclusive range.
    fn reads(topology: u32, j: u32, positions: u32) -> (u32, u32) {
        let n = InputPrimitive::of_topology(topology).map_or(1, InputPrimitive::vertices);
        let (lo, hi) = match topology {
            3 | 5 | 11 => (j, j + n - 1),
            // b - 2 (the previous triangle's first vertex) up to b + 6.
            13 => (j.saturating_sub(2), j + 6),
            _ => (n * j, n * j + n - 1),
        };
        (lo, hi.min(positions - 1))
    }

    const TOPOLOGIES: [u32; 14] = [1, 2, 3, 4, 5, 10, 11, 12, 13, 33, 34, 35, 37, 64];

    fn stage(topology: u32, input_registers: u32, output_registers: u32, max_vertices: u32, gs: u32) -> StageDesc {
        StageDesc {
            input_primitive: InputPrimitive::of_topology(topology).expect("topology"),
            input_registers,
            output_registers,
            max_vertices,
            gs_instances: gs,
            index_stride: 2 * max_vertices + 1,
            output: Some(OutputTopology::TriangleStrip),
            vertex_slots: Cow::Borrowed(&[0]),
        }
    }

    fn draw(topology: u32, vertex_count: u32, instance_count: u32) -> DrawCall {
        DrawCall {
            topology,
            vertex_count,
            instance_count,
            first_vertex: 0,
            base_vertex: 0,
            first_instance: 0,
            index: None,
        }
    }

    /// Checks a plan against D3D's order and the limits, with sizes computed here.
    fn check_plan(desc: &StageDesc, d: &DrawCall, limit: u64, chunks: &[Chunk]) {
        let positions = d.vertex_count;
        let c = candidates(d.topology, positions).expect("topology");
        let mut expected = (0..d.instance_count).flat_map(|i| (0..c).map(move |j| (i, j)));
        for chunk in chunks {
            let vertex_bytes = u64::from(desc.output_registers.max(1)) * 16;
            let invocations =
                u64::from(chunk.instance_count) * u64::from(chunk.primitive_count) * u64::from(desc.gs_instances);
            let records = u64::from(chunk.instance_count) * u64::from(chunk.position_count);
            assert!(records * u64::from(desc.input_registers) * 16 <= limit, "records of {chunk:?} over {limit}");
            assert!(invocations * u64::from(desc.max_vertices) * vertex_bytes <= limit, "vertices of {chunk:?}");
            assert!(invocations * u64::from(desc.index_stride) * 4 <= limit, "indices of {chunk:?}");
            assert!(chunk.instance_count > 0 && chunk.primitive_count > 0, "empty chunk {chunk:?}");
            assert!(chunk.primitive_begin + chunk.primitive_count <= c);
            assert!(chunk.position_begin + chunk.position_count <= positions, "{chunk:?} past the draw");
            for i in chunk.instance_begin..chunk.instance_begin + chunk.instance_count {
                for j in chunk.primitive_begin..chunk.primitive_begin + chunk.primitive_count {
                    assert_eq!(expected.next(), Some((i, j)), "order, in {chunk:?}");
                    let (lo, hi) = reads(d.topology, j, positions);
                    assert!(
                        lo >= chunk.position_begin && hi < chunk.position_begin + chunk.position_count,
                        "candidate {j} reads {lo}..={hi}, outside the records of {chunk:?}"
                    );
                }
            }
        }
        assert_eq!(expected.next(), None, "candidates left uncovered");
    }

    #[test]
    fn chunks_cover_every_candidate_once_in_order_within_the_limits() {
        let mut plans = 0;
        let mut split_instances = 0;
        let mut too_large = 0;
        for topology in TOPOLOGIES {
            for positions in [0, 1, 2, 3, 5, 6, 7, 8, 9, 12, 13, 17] {
                for instances in 0..=3 {
                    for (max_vertices, gs) in [(1, 1), (3, 1), (2, 2), (4, 3)] {
                        for input_registers in [0, 1, 3] {
                            let desc = stage(topology, input_registers, 2, max_vertices, gs);
                            let d = draw(topology, positions, instances);
                            for limit in (0..=1400).step_by(44) {
                                match plan_chunks(&desc, &d, limit) {
                                    Ok(chunks) => {
                                        check_plan(&desc, &d, limit, &chunks);
                                        plans += 1;
                                        if chunks.iter().any(|c| {
                                            c.instance_count == 1
                                                && c.primitive_count < candidates(topology, positions).unwrap_or(0)
                                        }) {
                                            split_instances += 1;
                                        }
                                    }
                                    Err(PrimitiveStageError::PrimitiveTooLarge { bytes, limit: l }) => {
                                        assert_eq!(l, limit);
                                        assert!(bytes > limit);
                                        // Some single candidate indeed does not fit.
                                        let c = candidates(topology, positions).unwrap_or(0);
                                        let single = (0..c).any(|j| {
                                            let (pb, pc) = positions_of(topology, j, j + 1, positions).unwrap();
                                            let chunk = Chunk {
                                                instance_begin: 0,
                                                instance_count: 1,
                                                primitive_begin: j,
                                                primitive_count: 1,
                                                position_begin: pb,
                                                position_count: pc,
                                            };
                                            !chunk.fits(&desc, limit)
                                        });
                                        assert!(single, "{topology} {positions} {limit}: refused a draw that splits");
                                        too_large += 1;
                                    }
                                    Err(e) => panic!("{topology} {positions} {instances}: {e}"),
                                }
                            }
                        }
                    }
                }
            }
        }
        // The loops reach every branch.
        assert!(plans > 10_000 && split_instances > 1000 && too_large > 1000, "{plans} {split_instances} {too_large}");
    }

    #[test]
    fn whole_instances_share_a_chunk_when_they_fit() {
        let desc = stage(4, 2, 2, 3, 1);
        // 10 triangles: records 30 × 32 = 960 bytes; vertices 30 × 32 = 960; indices 10 × 7 × 4.
        let d = draw(4, 30, 5);
        let chunks = plan_chunks(&desc, &d, 4 * 960).unwrap();
        assert_eq!(chunks.iter().map(|c| (c.instance_begin, c.instance_count)).collect::<Vec<_>>(), [(0, 4), (4, 1)]);
        assert_eq!(plan_chunks(&desc, &d, 1 << 27).unwrap().len(), 1);
    }

    #[test]
    fn a_million_triangles_split_into_chunks_within_128_mib() {
        const LIMIT: u64 = 128 << 20;
        // A pass-through GS: 2 registers in and out, 3 vertices per triangle.
        let desc = stage(4, 2, 2, 3, 1);
        let d = draw(4, 3_000_000, 1);
        let chunks = plan_chunks(&desc, &d, LIMIT).unwrap();
        assert_eq!(chunks.len(), 1, "96 MB of records and of vertices fit one chunk");
        check_plan(&desc, &d, LIMIT, &chunks);
        // Four instances: one per chunk.
        let d4 = draw(4, 3_000_000, 4);
        let chunks = plan_chunks(&desc, &d4, LIMIT).unwrap();
        assert_eq!(chunks.len(), 4);
        check_plan(&desc, &d4, LIMIT, &chunks);
        // An expanding GS (12 vertices of 4 registers per triangle: 768 MB): ranges of one instance.
        let big = stage(4, 2, 4, 12, 1);
        let chunks = plan_chunks(&big, &d, LIMIT).unwrap();
        assert_eq!(chunks.len(), 6, "{}", chunks.len());
        assert!(chunks.iter().all(|c| c.output_vertex_bytes(&big) <= LIMIT));
        check_plan(&big, &d, LIMIT, &chunks);
        // A million-triangle strip through 2 GS instances, split the same way.
        let strip = stage(5, 2, 4, 12, 2);
        let ds = draw(5, 1_000_002, 2);
        let chunks = plan_chunks(&strip, &ds, LIMIT).unwrap();
        assert!(chunks.len() >= 2 * 12, "{}", chunks.len());
        check_plan(&strip, &ds, LIMIT, &chunks);
        // Consecutive chunks of a strip share the positions between them.
        assert_eq!(chunks[1].position_begin, chunks[0].primitive_begin + chunks[0].primitive_count);
        assert_eq!(chunks[0].position_count, chunks[0].primitive_count + 2);
    }

    #[test]
    fn bad_draws_are_errors() {
        let desc = stage(4, 2, 2, 3, 1);
        assert_eq!(plan_chunks(&desc, &draw(6, 3, 1), 1 << 20), Err(PrimitiveStageError::UnknownTopology(6)));
        assert_eq!(
            plan_chunks(&desc, &draw(2, 4, 1), 1 << 20),
            Err(PrimitiveStageError::TopologyMismatch { topology: 2, expected: InputPrimitive::Triangle })
        );
        // A 3-point patch list is not a triangle list.
        assert!(matches!(
            plan_chunks(&desc, &draw(35, 3, 1), 1 << 20),
            Err(PrimitiveStageError::TopologyMismatch { .. })
        ));
        assert!(matches!(plan_chunks(&desc, &draw(4, 3, 1), 95), Err(PrimitiveStageError::PrimitiveTooLarge { .. })));
        let mut bad = desc.clone();
        bad.max_vertices = 0;
        assert!(matches!(plan_chunks(&bad, &draw(4, 3, 1), 1 << 20), Err(PrimitiveStageError::InvalidStage(_))));
        let mut bad = desc.clone();
        bad.index_stride = 0;
        assert!(matches!(bad.validate(), Err(PrimitiveStageError::InvalidStage(_))));
        // Fields past D3D's limits, or a stride that does not fit the emits and cuts, are
        // refused before any size is computed from them (in a debug build the products
        // overflowed: a panic).
        let huge = |f: fn(&mut StageDesc)| {
            let mut d = stage(4, 2, 2, 3, 1);
            f(&mut d);
            plan_chunks(&d, &draw(4, u32::MAX, u32::MAX), 128 << 20)
        };
        let refusals = [
            huge(|d| {
                d.max_vertices = u32::MAX;
                d.index_stride = 1;
            }),
            huge(|d| {
                d.max_vertices = 1025;
                d.index_stride = 2051;
            }),
            huge(|d| d.output_registers = u32::MAX),
            huge(|d| d.input_registers = 1 << 30),
            huge(|d| d.index_stride = u32::MAX),
            huge(|d| d.index_stride = 6),
        ];
        for r in refusals {
            assert!(matches!(r, Err(PrimitiveStageError::InvalidStage(_))), "{r:?}");
        }
        let mut bad = desc;
        bad.vertex_slots = Cow::Owned(vec![16]);
        assert!(matches!(bad.validate(), Err(PrimitiveStageError::InvalidStage(_))));
        assert!(!PrimitiveStageError::UnknownTopology(6).to_string().is_empty());
        // Every candidate range of u32::MAX instances: refused, not allocated.
        assert!(matches!(
            plan_chunks(&stage(4, 2, 2, 3, 1), &draw(4, 3_000_000, u32::MAX), 128 << 20),
            Err(PrimitiveStageError::TooManyChunks { .. })
        ));
        assert!(matches!(
            plan_chunks(&stage(4, 2, 2, 3, 1), &draw(4, u32::MAX, 100), 128 << 20),
            Err(PrimitiveStageError::TooManyChunks { .. })
        ));
        // A point list of u32::MAX points in one instance: about 1000 ranges.
        let points = stage(1, 1, 1, 1, 1);
        let chunks = plan_chunks(&points, &draw(1, u32::MAX, 1), 128 << 20).unwrap();
        assert_eq!(chunks.iter().map(|c| u64::from(c.primitive_count)).sum::<u64>(), u64::from(u32::MAX));
    }

    /// Generated code writes a pass's description as a constant.
    const CONST_STAGE: StageDesc = StageDesc {
        input_primitive: InputPrimitive::Triangle,
        input_registers: 2,
        output_registers: 3,
        max_vertices: 4,
        gs_instances: 1,
        index_stride: 9,
        output: Some(OutputTopology::TriangleStrip),
        vertex_slots: Cow::Borrowed(&[0, 2]),
    };

    #[test]
    fn a_stage_description_is_a_constant() {
        assert_eq!(CONST_STAGE.validate(), Ok(()));
        assert_eq!(CONST_STAGE.output_vertex_bytes(), 48);
        let info = lib::GeometryInfo {
            input_primitive: lib::InputPrimitive::Triangle,
            output_topology: Some(lib::OutputTopology::TriangleStrip),
            max_vertices: 4,
            instances: 1,
            input_registers: 2,
            output_registers: 3,
            position_register: Some(0),
            index_stride: 9,
            cull_flag_register: None,
            streams: None,
        };
        assert_eq!(stage_desc(&info, vec![0, 2]), CONST_STAGE);
        assert_eq!(CONST_STAGE.output_vertex_bytes(), info.output_vertex_bytes());
    }

    #[test]
    fn dispatches_spread_over_y_past_65535_workgroups() {
        assert_eq!(dispatch_size(0), [0, 0]);
        assert_eq!(dispatch_size(1), [1, 1]);
        assert_eq!(dispatch_size(64), [1, 1]);
        assert_eq!(dispatch_size(65), [2, 1]);
        assert_eq!(dispatch_size(64 * 65535), [65535, 1]);
        assert_eq!(dispatch_size(64 * 65535 + 1), [65535, 2]);
        for n in [1u64, 100, 1 << 22, 64 * 65535 * 3 + 7, MAX_INVOCATIONS] {
            let [x, y] = dispatch_size(n);
            let groups = n.div_ceil(64);
            assert!(u64::from(x) * u64::from(y) >= groups && u64::from(x) * u64::from(y - 1) < groups, "{n}");
            // Every invocation index of the dispatch fits 32 bits.
            assert!(u64::from(x) * u64::from(y) * 64 <= 1 << 32, "{n}");
        }
    }
}
