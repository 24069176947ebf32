//! Shared test helpers: a small effect whose shaders are stand-ins, translated by a fake
//! translator into hand-written `StageInfo`s (so generator tests do not depend on the translator).
#![allow(dead_code)]

pub mod rdef;

use std::path::{Path, PathBuf};

use dxbc_wgsl::{
    BindingClass as RegisterClass, BindingSlot, InterfaceVar as Interface, ResourceBinding as Binding,
    ResourceKind as BindingKind, ScalarKind, TexelFormat, TextureSample as SampleType, ViewDimension,
};
use dxbc_wgsl_build::compile::{self, CompiledEffect, Translator};
use dxbc_wgsl_build::effect::{ShaderRef, Stage};
use dxbc_wgsl_build::stage::StageInfo;
use dxbc_wgsl_build::Effect;

pub const TINY_EFFECT: &str = r#"# A small effect for the generator's golden test.
[effect]
name = "TinyEffect"
description = "A small effect for the generator's golden test."

[axes]
fog = { type = "bool", default = true, doc = "Fog on or off." }
texture = "bool"
shading = { values = ["flat", "lit"], doc = "Shading mode." }

[permutations]
exclude = [{ shading = "lit", texture = true }]

[layouts.Parameters]
fields = [
    { name = "DiffuseColor", type = "float4" },
    { name = "FogColor", type = "float3" },
    { name = "FogStart", type = "float" },
    { name = "LightDirection", type = "float3[2]" },
    { name = "Enabled", type = "bool" },
    { name = "WorldViewProj", type = "float4x4", offset = "c4" },
    { name = "Normals", type = "float3x3", packing = "row_major", doc = "Normal matrix." },
]

[cbuffers.Parameters]
register = "b0"
layout = "Parameters"

[resources]
t0 = "texture"
s0 = { name = "sampler", doc = "Any filtering sampler." }

[vertex_formats]
SV_Position = "float32x3"
COLOR = "unorm8x4"

[passes.main]
vertex = [
    { when = { shading = "lit" }, path = "Tiny_VSLit{fog::NoFog}.dxbc" },
    { path = "Tiny_VS{texture:Tx}{fog::NoFog}.dxbc" },
]
pixel = "Tiny_PS{texture:Tx}{fog::NoFog}.dxbc"
"#;

/// Every shader file the tiny effect names.
pub const TINY_FILES: &[&str] = &[
    "Tiny_VSLit.dxbc",
    "Tiny_VSLitNoFog.dxbc",
    "Tiny_VS.dxbc",
    "Tiny_VSNoFog.dxbc",
    "Tiny_VSTx.dxbc",
    "Tiny_VSTxNoFog.dxbc",
    "Tiny_PS.dxbc",
    "Tiny_PSNoFog.dxbc",
    "Tiny_PSTx.dxbc",
    "Tiny_PSTxNoFog.dxbc",
];

pub fn iface(semantic: &str, index: u32, register: u32, location: Option<u32>, components: u8) -> Interface {
    Interface {
        semantic: semantic.into(),
        semantic_index: index,
        register,
        location,
        builtin: if location.is_none() { Some(dxbc_wgsl::Builtin::Position) } else { None },
        scalar: ScalarKind::Float,
        components,
        first_component: 0,
        interpolation: None,
    }
}

pub fn cb0(group: u32, size_bytes: u32) -> Binding {
    Binding {
        register: BindingSlot { class: RegisterClass::ConstantBuffer, slot: 0, space: 0 },
        group,
        binding: 0,
        kind: BindingKind::UniformBuffer { size_bytes },
        name: "cb0".into(),
    }
}

/// A plausible `StageInfo` for a stand-in shader, from its file name.
pub fn fake_info(label: &str) -> StageInfo {
    if label.contains("Bare") {
        // A full-screen-triangle style pair: no vertex attributes, no resources.
        let vs = label.contains("_VS");
        return StageInfo {
            stage: if vs { Stage::Vertex } else { Stage::Pixel },
            shader_model: (5, 0),
            wgsl: format!("// {label}\n"),
            entry_point: "main".into(),
            inputs: if vs { vec![] } else { vec![iface("TEXCOORD", 0, 0, Some(0), 2)] },
            outputs: if vs {
                vec![iface("TEXCOORD", 0, 0, Some(0), 2), iface("SV_Position", 0, 1, None, 4)]
            } else {
                vec![iface("SV_Target", 0, 0, Some(0), 4)]
            },
            bindings: vec![],
            workgroup_size: None,
            workgroup_storage_bytes: 0,
            required_features: vec![],
            geometry: None,
            pipeline_constants: Vec::new(),
            per_primitive: Default::default(),
        };
    }
    if label.contains("_CS") {
        return fake_compute(label);
    }
    if label.contains("_GS") {
        return fake_geometry(label);
    }
    let vs = label.contains("_VS");
    let tx = label.contains("Tx");
    let fog = !label.contains("NoFog");
    let lit = label.contains("Lit");
    if vs {
        let mut inputs = vec![iface("SV_Position", 0, 0, Some(0), 4)];
        if lit {
            inputs.push(iface("NORMAL", 0, 1, Some(1), 3));
            inputs.push(iface("COLOR", 0, 2, Some(2), 4));
        }
        if tx {
            inputs.push(iface("TEXCOORD", 0, 1, Some(1), 2));
        }
        let mut outputs = vec![iface("COLOR", 0, 0, Some(0), 4)];
        if fog {
            outputs.push(iface("COLOR", 1, 1, Some(1), 4));
        }
        if tx {
            outputs.push(iface("TEXCOORD", 0, 2, Some(2), 2));
        }
        outputs.push(iface("SV_Position", 0, 3, None, 4));
        StageInfo {
            stage: Stage::Vertex,
            shader_model: (4, 0),
            wgsl: format!("// {label}\n@vertex fn main() -> @builtin(position) vec4<f32> {{ return vec4<f32>(); }}\n"),
            entry_point: "main".into(),
            inputs,
            outputs,
            bindings: vec![cb0(0, if lit { 176 } else { 128 })],
            workgroup_size: None,
            workgroup_storage_bytes: 0,
            required_features: vec![],
            geometry: None,
            pipeline_constants: Vec::new(),
            per_primitive: Default::default(),
        }
    } else {
        let mut inputs = vec![iface("COLOR", 0, 0, Some(0), 4)];
        if fog {
            inputs.push(iface("COLOR", 1, 1, Some(1), 4));
        }
        let mut bindings = Vec::new();
        if fog {
            bindings.push(cb0(1, 32));
        }
        if tx {
            inputs.push(iface("TEXCOORD", 0, 2, Some(2), 2));
            bindings.push(Binding {
                register: BindingSlot { class: RegisterClass::Sampler, slot: 0, space: 0 },
                group: 1,
                binding: 16,
                kind: BindingKind::Sampler { comparison: false },
                name: "s0".into(),
            });
            bindings.push(Binding {
                register: BindingSlot { class: RegisterClass::ShaderResource, slot: 0, space: 0 },
                group: 1,
                binding: 32,
                kind: BindingKind::Texture {
                    dimension: ViewDimension::D2,
                    sample: SampleType::Float,
                    multisampled: false,
                },
                name: "t0".into(),
            });
        }
        StageInfo {
            stage: Stage::Pixel,
            shader_model: (4, 0),
            wgsl: format!("// {label}\n@fragment fn main() -> @location(0) vec4<f32> {{ return vec4<f32>(); }}\n"),
            entry_point: "main".into(),
            inputs,
            outputs: vec![iface("SV_Target", 0, 0, Some(0), 4)],
            bindings,
            workgroup_size: None,
            workgroup_storage_bytes: 0,
            required_features: vec![],
            geometry: None,
            pipeline_constants: Vec::new(),
            per_primitive: Default::default(),
        }
    }
}

/// A stand-in compute shader: `b0` (16 bytes) and a write-only `rgba8unorm` storage texture at
/// `u0`; with `Tx` in the name also `t0` and `s0`; with `Clear` also a structured buffer at `u1`
/// and its hidden counter (binding 897: a second binding of register `u1`). Workgroup size
/// 8×8×1, or 512×1×1 for `Clear`.
pub fn fake_compute(label: &str) -> StageInfo {
    let mut bindings = vec![cb0(0, 16)];
    if label.contains("Tx") {
        bindings.push(Binding {
            register: BindingSlot { class: RegisterClass::Sampler, slot: 0, space: 0 },
            group: 0,
            binding: 16,
            kind: BindingKind::Sampler { comparison: false },
            name: "s0".into(),
        });
        bindings.push(Binding {
            register: BindingSlot { class: RegisterClass::ShaderResource, slot: 0, space: 0 },
            group: 0,
            binding: 32,
            kind: BindingKind::Texture { dimension: ViewDimension::D2, sample: SampleType::Float, multisampled: false },
            name: "t0".into(),
        });
    }
    bindings.push(Binding {
        register: BindingSlot { class: RegisterClass::UnorderedAccess, slot: 0, space: 0 },
        group: 0,
        binding: 160,
        kind: BindingKind::StorageTexture {
            dimension: ViewDimension::D2,
            format: TexelFormat::Rgba8Unorm,
            read_write: false,
        },
        name: "u0".into(),
    });
    if label.contains("Clear") {
        let u1 = BindingSlot { class: RegisterClass::UnorderedAccess, slot: 1, space: 0 };
        bindings.push(Binding {
            register: u1,
            group: 0,
            binding: 161,
            kind: BindingKind::StorageBuffer { read_only: false },
            name: "u1".into(),
        });
        bindings.push(Binding {
            register: u1,
            group: 0,
            binding: 897,
            kind: BindingKind::UavCounter,
            name: "u1_counter".into(),
        });
    }
    // The clearing shader is wider than WebGPU's defaults allow (512 threads, 20 KB shared).
    let (size, shared) = if label.contains("Clear") { ([512, 1, 1], 20480) } else { ([8, 8, 1], 0) };
    StageInfo {
        stage: Stage::Compute,
        shader_model: (5, 0),
        wgsl: format!("// {label}\n@compute @workgroup_size({}, {}, {}) fn main() {{}}\n", size[0], size[1], size[2]),
        entry_point: "main".into(),
        inputs: vec![],
        outputs: vec![],
        bindings,
        workgroup_size: Some(size),
        workgroup_storage_bytes: shared,
        required_features: vec![],
        geometry: None,
        pipeline_constants: Vec::new(),
        per_primitive: Default::default(),
    }
}

/// A stand-in geometry shader: reads COLOR (v[][0]) and SV_Position (v[][3]) of the tiny vertex
/// shaders, writes the tiny pixel shaders' inputs (COLOR0, COLOR1, TEXCOORD0 at o0-o2) and
/// SV_Position at o3, binds `b0` (64 bytes, group 2). `Lines` in the name: lines in, line strips
/// out, two GS instances; else points in, triangle strips out (4 vertices at most).
pub fn fake_geometry(label: &str) -> StageInfo {
    use dxbc_wgsl::geometry::{GeometryInfo, InputPrimitive, OutputTopology};
    let lines = label.contains("Lines");
    let mut position_in = iface("SV_Position", 0, 3, Some(3), 4);
    position_in.builtin = None;
    StageInfo {
        stage: Stage::Geometry,
        shader_model: (4, 0),
        wgsl: format!("// {label}\n@compute @workgroup_size(64, 1, 1) fn main() {{}}\n"),
        entry_point: "main".into(),
        inputs: vec![iface("COLOR", 0, 0, Some(0), 4), position_in],
        outputs: vec![
            iface("COLOR", 0, 0, Some(0), 4),
            iface("COLOR", 1, 1, Some(1), 4),
            iface("TEXCOORD", 0, 2, Some(2), 2),
            iface("SV_Position", 0, 3, None, 4),
        ],
        bindings: vec![cb0(2, 64)],
        workgroup_size: Some([64, 1, 1]),
        workgroup_storage_bytes: 0,
        required_features: vec![],
        geometry: Some(GeometryInfo {
            input_primitive: if lines { InputPrimitive::Line } else { InputPrimitive::Point },
            output_topology: Some(if lines { OutputTopology::LineStrip } else { OutputTopology::TriangleStrip }),
            max_vertices: 4,
            instances: if lines { 2 } else { 1 },
            input_registers: 4,
            output_registers: 4,
            position_register: Some(3),
            index_stride: 9,
            cull_flag_register: None,
            streams: None,
        }),
        pipeline_constants: Vec::new(),
        per_primitive: Default::default(),
    }
}

/// The tiny effect with passes that have a geometry shader: `main` (points expanded to quads,
/// every permutation's vertex shader, COLOR per instance), `lines` (line strips, no pixel
/// shader), beside a render pass `depth_only`, and a technique of all three.
pub fn tiny_geometry_effect() -> String {
    TINY_EFFECT
        .replace("name = \"TinyEffect\"", "name = \"TinyEffect\"\nmodule = \"tiny_geometry\"")
        .replace(
            "pixel = \"Tiny_PS{texture:Tx}{fog::NoFog}.dxbc\"",
            "geometry = \"Tiny_GS.dxbc\"\ntopology = \"point_list\"\npixel = \"Tiny_PS{texture:Tx}{fog::NoFog}.dxbc\"",
        )
        .replace("[vertex_formats]", "[instance_data]\nCOLOR = 1\n\n[vertex_formats]")
        + "\n[passes.lines]\nvertex = \"Tiny_VS.dxbc\"\ngeometry = \"Tiny_GSLines.dxbc\"\ntopology = \"LINESTRIP\"\n\
           rasterizer = { cull_mode = \"NONE\" }\n\
           \n[passes.depth_only]\nvertex = \"Tiny_VS.dxbc\"\n\
           \n[techniques.frame]\npasses = [\"depth_only\", \"main\", \"lines\"]\n"
}

/// Writes the tiny geometry effect and its stand-ins into `dir`; returns the effect path.
pub fn write_tiny_geometry(dir: &Path) -> PathBuf {
    write_tiny(dir);
    for f in ["Tiny_GS.dxbc", "Tiny_GSLines.dxbc"] {
        std::fs::write(dir.join(f), format!("DXBC stand-in for {f}")).unwrap();
    }
    let path = dir.join("geometry.effect.toml");
    std::fs::write(&path, tiny_geometry_effect()).unwrap();
    path
}

/// Translates stand-ins by file name; counts calls.
#[derive(Default)]
pub struct FakeTranslator {
    pub calls: usize,
}

impl Translator for FakeTranslator {
    fn translate(&mut self, shader: &ShaderRef, _bytes: &[u8]) -> Result<StageInfo, compile::ShaderError> {
        self.calls += 1;
        Ok(fake_info(&shader.label()))
    }
}

/// Writes the tiny effect and its stand-in shader files into `dir`; returns the effect path.
pub fn write_tiny(dir: &Path) -> PathBuf {
    for f in TINY_FILES {
        std::fs::write(dir.join(f), format!("DXBC stand-in for {f}")).unwrap();
    }
    let path = dir.join("tiny.effect.toml");
    std::fs::write(&path, TINY_EFFECT).unwrap();
    path
}

/// The tiny effect, compiled with the fake translator.
pub fn compile_tiny(dir: &Path) -> CompiledEffect {
    let path = write_tiny(dir);
    let effect = Effect::load(&path).unwrap();
    compile::compile(effect, &mut FakeTranslator::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// A copy of a DXBC container with one byte of its first chunk's data flipped: the header's
/// checksum no longer matches (for DirectXTK's blobs the first chunk is `Aon9`, the level 9
/// program the translator does not read, so the translation is unchanged).
pub fn flip_after_header(container: &[u8]) -> Vec<u8> {
    let mut bytes = container.to_vec();
    let first_chunk = u32::from_le_bytes(bytes[32..36].try_into().unwrap()) as usize;
    bytes[first_chunk + 8 + 16] ^= 0xff;
    bytes
}
