//! The primitive stage's runtime (D3D geometry shaders as compute work in front of a draw,
//! `docs/geometry.md`): `dxbc_wgsl_runtime::primitive_stage`, the one the generated code uses,
//! with the conversions from a translation's `GeometryInfo`.

pub use dxbc_wgsl_runtime::primitive_stage::*;

/// The [`StageDesc`] of a geometry shader's translation (its `GeometryInfo`) and the vertex
/// buffer slots its vertex shader's pulling reads.
pub fn stage_desc(info: &dxbc_wgsl::geometry::GeometryInfo, vertex_slots: Vec<u32>) -> StageDesc {
    StageDesc {
        input_primitive: info.input_primitive,
        input_registers: info.input_registers,
        output_registers: info.output_registers,
        max_vertices: info.max_vertices,
        gs_instances: info.instances,
        index_stride: info.index_stride,
        output: info.output_topology,
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
    use std::borrow::Cow;

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
}
