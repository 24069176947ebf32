//! `RTS0`: a serialized D3D12 root signature, versions 1.0, 1.1 (and 1.2's static-sampler
//! flags).
//!
//! Layout (offsets relative to the chunk data): version (1 = 1.0, 2 = 1.1, 3 = 1.2), parameter
//! count and offset, static-sampler count and offset, flags. A parameter is 12 bytes: type,
//! shader visibility, payload offset. Payloads: a descriptor table is a range count and offset,
//! a range 20 bytes (type, count, base register, space, offset in the table) or 24 in 1.1+
//! (flags before the table offset); 32-bit constants are register, space, count; a root
//! descriptor is register and space, plus flags in 1.1+. A static sampler is 13 words (filter,
//! address U/V/W, mip LOD bias, max anisotropy, comparison, border colour, min/max LOD,
//! register, space, visibility), plus flags in 1.2.

use super::{raw_enum, ChunkBytes};
use crate::container::Chunk;
use crate::error::ReadResult;

raw_enum! {
    /// Root signature version (`D3D_ROOT_SIGNATURE_VERSION`).
    Version(u32) {
        /// 1.0.
        V1_0 = 1 => "1.0",
        /// 1.1.
        V1_1 = 2 => "1.1",
        /// 1.2.
        V1_2 = 3 => "1.2",
    }
}

raw_enum! {
    /// Which stages see a parameter or sampler (`D3D12_SHADER_VISIBILITY`).
    Visibility(u32) {
        /// All stages.
        All = 0 => "all",
        /// Vertex.
        Vertex = 1 => "vertex",
        /// Hull.
        Hull = 2 => "hull",
        /// Domain.
        Domain = 3 => "domain",
        /// Geometry.
        Geometry = 4 => "geometry",
        /// Pixel.
        Pixel = 5 => "pixel",
        /// Amplification.
        Amplification = 6 => "amplification",
        /// Mesh.
        Mesh = 7 => "mesh",
    }
}

raw_enum! {
    /// Kind of a descriptor range (`D3D12_DESCRIPTOR_RANGE_TYPE`).
    RangeType(u32) {
        /// SRVs (`t#`).
        Srv = 0 => "SRV",
        /// UAVs (`u#`).
        Uav = 1 => "UAV",
        /// CBVs (`b#`).
        Cbv = 2 => "CBV",
        /// Samplers (`s#`).
        Sampler = 3 => "Sampler",
    }
}

/// Root-signature flag bits and their names (`D3D12_ROOT_SIGNATURE_FLAG_*`).
pub const FLAG_NAMES: [(u32, &str); 12] = [
    (0x1, "ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT"),
    (0x2, "DENY_VERTEX_SHADER_ROOT_ACCESS"),
    (0x4, "DENY_HULL_SHADER_ROOT_ACCESS"),
    (0x8, "DENY_DOMAIN_SHADER_ROOT_ACCESS"),
    (0x10, "DENY_GEOMETRY_SHADER_ROOT_ACCESS"),
    (0x20, "DENY_PIXEL_SHADER_ROOT_ACCESS"),
    (0x40, "ALLOW_STREAM_OUTPUT"),
    (0x80, "LOCAL_ROOT_SIGNATURE"),
    (0x100, "DENY_AMPLIFICATION_SHADER_ROOT_ACCESS"),
    (0x200, "DENY_MESH_SHADER_ROOT_ACCESS"),
    (0x400, "CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED"),
    (0x800, "SAMPLER_HEAP_DIRECTLY_INDEXED"),
];

/// A decoded root signature.
#[derive(Debug, Clone, PartialEq)]
pub struct RootSignature {
    /// Version.
    pub version: Version,
    /// Flags (see [`FLAG_NAMES`]).
    pub flags: u32,
    /// Root parameters, in order.
    pub parameters: Vec<RootParameter>,
    /// Static samplers, in order.
    pub static_samplers: Vec<StaticSampler>,
}

impl RootSignature {
    /// Names of the set flags (`0x...` for unnamed bits).
    pub fn flag_names(&self) -> Vec<String> {
        (0..32)
            .map(|i| 1u32 << i)
            .filter(|bit| self.flags & bit != 0)
            .map(|bit| match FLAG_NAMES.iter().find(|(b, _)| *b == bit) {
                Some((_, n)) => (*n).to_string(),
                None => format!("{bit:#x}"),
            })
            .collect()
    }
}

/// A root parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootParameter {
    /// Stages that see it.
    pub visibility: Visibility,
    /// What it is.
    pub kind: RootParameterKind,
}

/// The kinds of root parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootParameterKind {
    /// A descriptor table: its ranges.
    DescriptorTable(Vec<DescriptorRange>),
    /// 32-bit root constants.
    Constants {
        /// Register (`b#`).
        register: u32,
        /// Register space.
        space: u32,
        /// Number of 32-bit values.
        count: u32,
    },
    /// A root CBV.
    Cbv(RootDescriptor),
    /// A root SRV.
    Srv(RootDescriptor),
    /// A root UAV.
    Uav(RootDescriptor),
}

/// One range of a descriptor table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DescriptorRange {
    /// Kind of descriptors.
    pub range_type: RangeType,
    /// Number of descriptors (`u32::MAX` = unbounded).
    pub count: u32,
    /// First register.
    pub base_register: u32,
    /// Register space.
    pub space: u32,
    /// 1.1+: `D3D12_DESCRIPTOR_RANGE_FLAGS`.
    pub flags: Option<u32>,
    /// Offset in descriptors from the table start (`u32::MAX` = append).
    pub offset: u32,
}

/// A root descriptor (CBV/SRV/UAV parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootDescriptor {
    /// Register.
    pub register: u32,
    /// Register space.
    pub space: u32,
    /// 1.1+: `D3D12_ROOT_DESCRIPTOR_FLAGS`.
    pub flags: Option<u32>,
}

/// A static sampler (`D3D12_STATIC_SAMPLER_DESC`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StaticSampler {
    /// `D3D12_FILTER`.
    pub filter: u32,
    /// Address modes U, V, W (`D3D12_TEXTURE_ADDRESS_MODE`).
    pub address: [u32; 3],
    /// Mip LOD bias.
    pub mip_lod_bias: f32,
    /// Maximum anisotropy.
    pub max_anisotropy: u32,
    /// `D3D12_COMPARISON_FUNC`.
    pub comparison: u32,
    /// `D3D12_STATIC_BORDER_COLOR`.
    pub border_color: u32,
    /// Minimum LOD.
    pub min_lod: f32,
    /// Maximum LOD.
    pub max_lod: f32,
    /// Register (`s#`).
    pub register: u32,
    /// Register space.
    pub space: u32,
    /// Stages that see it.
    pub visibility: Visibility,
    /// 1.2: `D3D12_SAMPLER_FLAGS`.
    pub flags: Option<u32>,
}

/// Parses an `RTS0` chunk.
///
/// # Errors
/// [`ReadError::Truncated`](crate::ReadError::Truncated) /
/// [`ReadError::Malformed`](crate::ReadError::Malformed) with container offsets: an unknown
/// version or parameter type, tables outside the chunk.
pub fn parse(chunk: &Chunk<'_>) -> ReadResult<RootSignature> {
    let b = ChunkBytes::new(chunk);
    let version = Version::from_raw(b.u32(0, "root signature version")?);
    if let Version::Other(v) = version {
        return Err(b.malformed("root signature", 0, format!("version {v} is not 1 (1.0), 2 (1.1) or 3 (1.2)")));
    }
    let v11 = version != Version::V1_0;
    let param_count = b.u32(4, "root parameter count")?;
    let param_offset = b.u32(8, "root parameter offset")? as usize;
    let sampler_count = b.u32(12, "static sampler count")?;
    let sampler_offset = b.u32(16, "static sampler offset")? as usize;
    let flags = b.u32(20, "root signature flags")?;

    let n = b.check_array(param_offset, param_count, 12, "root parameters", 4)?;
    let mut parameters = Vec::with_capacity(n);
    for i in 0..n {
        let at = param_offset + 12 * i;
        let ty = b.u32(at, "root parameter type")?;
        let visibility = Visibility::from_raw(b.u32(at + 4, "root parameter visibility")?);
        let payload = b.u32(at + 8, "root parameter payload offset")?;
        let payload = b.pointer(payload, "root parameter payload offset", at + 8)?;
        let descriptor = || -> ReadResult<RootDescriptor> {
            Ok(RootDescriptor {
                register: b.u32(payload, "root descriptor register")?,
                space: b.u32(payload + 4, "root descriptor space")?,
                flags: if v11 { Some(b.u32(payload + 8, "root descriptor flags")?) } else { None },
            })
        };
        let kind = match ty {
            0 => {
                let count = b.u32(payload, "descriptor range count")?;
                let offset = b.u32(payload + 4, "descriptor range offset")? as usize;
                let stride = if v11 { 24 } else { 20 };
                let n = b.check_array(offset, count, stride, "descriptor ranges", payload)?;
                let mut ranges = Vec::with_capacity(n);
                for k in 0..n {
                    let r = offset + stride * k;
                    let w = |j: usize, what| b.u32(r + 4 * j, what);
                    ranges.push(DescriptorRange {
                        range_type: RangeType::from_raw(w(0, "descriptor range type")?),
                        count: w(1, "descriptor count")?,
                        base_register: w(2, "descriptor range base register")?,
                        space: w(3, "descriptor range space")?,
                        flags: if v11 { Some(w(4, "descriptor range flags")?) } else { None },
                        offset: w(if v11 { 5 } else { 4 }, "descriptor range table offset")?,
                    });
                }
                RootParameterKind::DescriptorTable(ranges)
            }
            1 => RootParameterKind::Constants {
                register: b.u32(payload, "root constants register")?,
                space: b.u32(payload + 4, "root constants space")?,
                count: b.u32(payload + 8, "root constants count")?,
            },
            2 => RootParameterKind::Cbv(descriptor()?),
            3 => RootParameterKind::Srv(descriptor()?),
            4 => RootParameterKind::Uav(descriptor()?),
            t => return Err(b.malformed("root parameter", at, format!("parameter type {t} is not 0-4"))),
        };
        parameters.push(RootParameter { visibility, kind });
    }

    let stride = if version == Version::V1_2 { 56 } else { 52 };
    let n = b.check_array(sampler_offset, sampler_count, stride, "static samplers", 12)?;
    let mut static_samplers = Vec::with_capacity(n);
    for i in 0..n {
        let at = sampler_offset + stride * i;
        let w = |j: usize, what| b.u32(at + 4 * j, what);
        static_samplers.push(StaticSampler {
            filter: w(0, "sampler filter")?,
            address: [w(1, "sampler address U")?, w(2, "sampler address V")?, w(3, "sampler address W")?],
            mip_lod_bias: b.f32(at + 16, "sampler mip LOD bias")?,
            max_anisotropy: w(5, "sampler max anisotropy")?,
            comparison: w(6, "sampler comparison")?,
            border_color: w(7, "sampler border colour")?,
            min_lod: b.f32(at + 32, "sampler min LOD")?,
            max_lod: b.f32(at + 36, "sampler max LOD")?,
            register: w(10, "sampler register")?,
            space: w(11, "sampler space")?,
            visibility: Visibility::from_raw(w(12, "sampler visibility")?),
            flags: if stride == 56 { Some(w(13, "sampler flags")?) } else { None },
        });
    }
    Ok(RootSignature { version, flags, parameters, static_samplers })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[u32]) -> Vec<u8> {
        w.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    /// `DescriptorTable(CBV(b1, space = 7), SRV(t16, numDescriptors = 8), UAV(u3, numDescriptors =
    /// unbounded, offset = 44))` with pixel visibility, in version 1.0 or 1.1 (range flags 1, 2, 8).
    fn table(v11: bool) -> Vec<u8> {
        let mut w = vec![if v11 { 2 } else { 1 }, 1, 24, 0, 0, 0];
        // parameter at 24: table, pixel, payload at 36
        w.extend([0, 5, 36]);
        // payload at 36: 3 ranges at 44
        w.extend([3, 44]);
        let ranges: [[u32; 6]; 3] = [[2, 1, 1, 7, 1, u32::MAX], [0, 8, 16, 0, 2, u32::MAX], [1, u32::MAX, 3, 0, 8, 44]];
        for r in ranges {
            if v11 {
                w.extend(r);
            } else {
                w.extend([r[0], r[1], r[2], r[3], r[5]]);
            }
        }
        words(&w)
    }

    #[test]
    fn descriptor_tables_in_both_versions() {
        for v11 in [false, true] {
            let data = table(v11);
            let r = parse(&Chunk { fourcc: *b"RTS0", offset: 0, data: &data }).unwrap();
            assert_eq!(r.version, if v11 { Version::V1_1 } else { Version::V1_0 });
            assert_eq!(r.parameters[0].visibility, Visibility::Pixel);
            let RootParameterKind::DescriptorTable(ranges) = &r.parameters[0].kind else { panic!("{r:?}") };
            let got: Vec<_> =
                ranges.iter().map(|r| (r.range_type, r.count, r.base_register, r.space, r.flags, r.offset)).collect();
            let f = |x| if v11 { Some(x) } else { None };
            assert_eq!(
                got,
                [
                    (RangeType::Cbv, 1, 1, 7, f(1), u32::MAX),
                    (RangeType::Srv, 8, 16, 0, f(2), u32::MAX),
                    (RangeType::Uav, u32::MAX, 3, 0, f(8), 44)
                ]
            );
        }
    }

    #[test]
    fn version_1_2_samplers_carry_flags() {
        let mut w = vec![3, 0, 24, 1, 24, 0];
        w.extend([0x15, 1, 1, 1, 0, 16, 4, 2, 0, f32::MAX.to_bits(), 4, 0, 0, 1]);
        let data = words(&w);
        let r = parse(&Chunk { fourcc: *b"RTS0", offset: 0, data: &data }).unwrap();
        let s = r.static_samplers[0];
        assert_eq!((s.filter, s.register, s.flags, s.max_lod), (0x15, 4, Some(1), f32::MAX));
    }

    #[test]
    fn bad_versions_and_types_are_errors() {
        let mut data = table(true);
        data[0] = 9;
        assert!(parse(&Chunk { fourcc: *b"RTS0", offset: 0, data: &data }).is_err());
        let mut data = table(true);
        data[24] = 7;
        let e = parse(&Chunk { fourcc: *b"RTS0", offset: 1000, data: &data }).unwrap_err();
        assert!(e.to_string().contains("1024"), "{e}");
    }
}
