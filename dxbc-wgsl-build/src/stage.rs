//! What the binding generator needs from a translated shader, as owned, serializable data (the
//! builder's cache stores it; tests build it by hand).

use serde::{Deserialize, Serialize};

use crate::effect::Stage;

/// A translated shader stage: WGSL plus its interface and bindings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageInfo {
    /// Pipeline stage.
    pub stage: Stage,
    /// Shader model `(major, minor)`.
    pub shader_model: (u8, u8),
    /// WGSL module text.
    pub wgsl: String,
    /// WGSL entry point name.
    pub entry_point: String,
    /// Stage inputs (vertex attributes for a vertex shader).
    pub inputs: Vec<Interface>,
    /// Stage outputs.
    pub outputs: Vec<Interface>,
    /// Resources bound.
    pub bindings: Vec<Binding>,
    /// Compute workgroup size.
    pub workgroup_size: Option<[u32; 3]>,
    /// Bytes of workgroup (thread-group shared) memory a compute shader declares.
    pub workgroup_storage_bytes: u32,
}

/// Scalar kind of an interface variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScalarKind {
    /// `f32`.
    Float,
    /// `u32`.
    Uint,
    /// `i32`.
    Sint,
}

impl ScalarKind {
    /// WGSL scalar name.
    pub fn wgsl(self) -> &'static str {
        match self {
            ScalarKind::Float => "f32",
            ScalarKind::Uint => "u32",
            ScalarKind::Sint => "i32",
        }
    }
    /// The vertex-format kind a shader input of this type reads.
    pub fn vertex_kind(self) -> crate::vertex::Kind {
        match self {
            ScalarKind::Float => crate::vertex::Kind::Float,
            ScalarKind::Uint => crate::vertex::Kind::Uint,
            ScalarKind::Sint => crate::vertex::Kind::Sint,
        }
    }
}

/// One stage input or output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interface {
    /// D3D semantic name.
    pub semantic: String,
    /// D3D semantic index.
    pub semantic_index: u32,
    /// D3D signature register.
    pub register: u32,
    /// WGSL `@location`, or `None` for a builtin.
    pub location: Option<u32>,
    /// WGSL builtin name.
    pub builtin: Option<String>,
    /// Component type.
    pub scalar: ScalarKind,
    /// Component count (1–4).
    pub components: u8,
    /// First component in the D3D register.
    pub first_component: u8,
    /// Interpolation of a varying (`perspective`, `flat`, `linear_centroid`...), `None` for
    /// builtins and vertex inputs.
    #[serde(default)]
    pub interpolation: Option<String>,
}

impl Interface {
    /// `TEXCOORD1`, `SV_Position` (index 0 is not written).
    pub fn semantic_label(&self) -> String {
        if self.semantic_index == 0 {
            self.semantic.clone()
        } else {
            format!("{}{}", self.semantic, self.semantic_index)
        }
    }
    /// WGSL type: `f32`, `vec3<f32>`.
    pub fn wgsl_type(&self) -> String {
        if self.components == 1 {
            self.scalar.wgsl().to_string()
        } else {
            format!("vec{}<{}>", self.components, self.scalar.wgsl())
        }
    }
}

/// Register class of a binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RegisterClass {
    /// `b#`.
    ConstantBuffer,
    /// `s#`.
    Sampler,
    /// `t#`.
    ShaderResource,
    /// `u#`.
    UnorderedAccess,
}

impl RegisterClass {
    /// Register letter.
    pub fn letter(self) -> char {
        match self {
            RegisterClass::ConstantBuffer => 'b',
            RegisterClass::Sampler => 's',
            RegisterClass::ShaderResource => 't',
            RegisterClass::UnorderedAccess => 'u',
        }
    }
}

/// A resource binding of a stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    /// Register class.
    pub class: RegisterClass,
    /// Register number.
    pub slot: u32,
    /// Register space.
    pub space: u32,
    /// WGSL `@group`.
    pub group: u32,
    /// WGSL `@binding`.
    pub binding: u32,
    /// What it holds.
    pub kind: BindingKind,
    /// WGSL global name.
    pub name: String,
}

impl Binding {
    /// `b0`, `t3`, `s1` (with `, space1` when not space 0).
    pub fn register(&self) -> String {
        if self.space == 0 {
            format!("{}{}", self.class.letter(), self.slot)
        } else {
            format!("{}{}, space{}", self.class.letter(), self.slot, self.space)
        }
    }
}

/// Sample type of a texture binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SampleType {
    /// Filterable float.
    Float,
    /// Unfilterable float.
    UnfilterableFloat,
    /// `i32`.
    Sint,
    /// `u32`.
    Uint,
    /// Depth.
    Depth,
}

/// What a binding holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum BindingKind {
    /// Uniform buffer of the declared size.
    UniformBuffer {
        /// Bytes the shader declares (registers × 16).
        size_bytes: u32,
    },
    /// Sampler.
    Sampler {
        /// Comparison sampler.
        comparison: bool,
    },
    /// Sampled texture.
    Texture {
        /// WGSL view dimension (`2d`, `cube`, ...).
        dimension: String,
        /// Sample type.
        sample: SampleType,
        /// Multisampled.
        multisampled: bool,
    },
    /// Storage buffer.
    StorageBuffer {
        /// Read-only.
        read_only: bool,
    },
    /// Storage texture.
    StorageTexture {
        /// View dimension.
        dimension: String,
        /// WGSL texel format (`rgba8unorm`).
        format: String,
        /// The shader reads it too (`read_write`); otherwise write-only.
        #[serde(default)]
        read_write: bool,
    },
}

impl BindingKind {
    /// Short description for messages and docs.
    pub fn describe(&self) -> String {
        match self {
            BindingKind::UniformBuffer { size_bytes } => {
                format!("constant buffer of {size_bytes} bytes")
            }
            BindingKind::Sampler { comparison: false } => "sampler".into(),
            BindingKind::Sampler { comparison: true } => "comparison sampler".into(),
            BindingKind::Texture { dimension, sample, multisampled } => format!(
                "texture_{}{dimension}{}",
                if *multisampled { "multisampled_" } else { "" },
                match sample {
                    SampleType::Float => "<f32>",
                    SampleType::UnfilterableFloat => "<f32> (unfilterable)",
                    SampleType::Sint => "<i32>",
                    SampleType::Uint => "<u32>",
                    SampleType::Depth => " (depth)",
                }
            ),
            BindingKind::StorageBuffer { read_only: true } => "read-only storage buffer".into(),
            BindingKind::StorageBuffer { read_only: false } => "read-write storage buffer".into(),
            BindingKind::StorageTexture { dimension, format, read_write } => {
                format!("storage texture {dimension} {format}, {}", if *read_write { "read_write" } else { "write" })
            }
        }
    }
}

impl StageInfo {
    /// From a translation; `None` for a stage the effect model does not know (geometry, hull,
    /// domain).
    pub fn from_translation(t: &dxbc_wgsl::Translation) -> Option<Self> {
        let iface = |v: &dxbc_wgsl::InterfaceVar| Interface {
            semantic: v.semantic.clone(),
            semantic_index: v.semantic_index,
            register: v.register,
            location: v.location,
            builtin: v.builtin.map(str::to_string),
            scalar: match v.scalar {
                dxbc_wgsl::ScalarKind::Float => ScalarKind::Float,
                dxbc_wgsl::ScalarKind::Uint => ScalarKind::Uint,
                dxbc_wgsl::ScalarKind::Sint => ScalarKind::Sint,
            },
            components: v.components,
            first_component: v.first_component,
            interpolation: v.interpolation.map(|i| {
                match i {
                    dxbc_wgsl::Interpolation::Perspective => "perspective",
                    dxbc_wgsl::Interpolation::PerspectiveCentroid => "perspective_centroid",
                    dxbc_wgsl::Interpolation::PerspectiveSample => "perspective_sample",
                    dxbc_wgsl::Interpolation::Linear => "linear",
                    dxbc_wgsl::Interpolation::LinearCentroid => "linear_centroid",
                    dxbc_wgsl::Interpolation::LinearSample => "linear_sample",
                    dxbc_wgsl::Interpolation::Flat => "flat",
                }
                .to_string()
            }),
        };
        let binding = |b: &dxbc_wgsl::ResourceBinding| Binding {
            class: match b.register.class {
                dxbc_wgsl::BindingClass::ConstantBuffer => RegisterClass::ConstantBuffer,
                dxbc_wgsl::BindingClass::Sampler => RegisterClass::Sampler,
                dxbc_wgsl::BindingClass::ShaderResource => RegisterClass::ShaderResource,
                dxbc_wgsl::BindingClass::UnorderedAccess => RegisterClass::UnorderedAccess,
            },
            slot: b.register.slot,
            space: b.register.space,
            group: b.group,
            binding: b.binding,
            kind: match &b.kind {
                dxbc_wgsl::ResourceKind::UniformBuffer { size_bytes } => {
                    BindingKind::UniformBuffer { size_bytes: *size_bytes }
                }
                dxbc_wgsl::ResourceKind::Sampler { comparison } => BindingKind::Sampler { comparison: *comparison },
                dxbc_wgsl::ResourceKind::Texture { dimension, sample, multisampled } => BindingKind::Texture {
                    dimension: dimension.to_string(),
                    sample: match sample {
                        dxbc_wgsl::bindings::TextureSample::Float => SampleType::Float,
                        dxbc_wgsl::bindings::TextureSample::UnfilterableFloat => SampleType::UnfilterableFloat,
                        dxbc_wgsl::bindings::TextureSample::Sint => SampleType::Sint,
                        dxbc_wgsl::bindings::TextureSample::Uint => SampleType::Uint,
                        dxbc_wgsl::bindings::TextureSample::Depth => SampleType::Depth,
                    },
                    multisampled: *multisampled,
                },
                dxbc_wgsl::ResourceKind::StorageBuffer { read_only } => {
                    BindingKind::StorageBuffer { read_only: *read_only }
                }
                dxbc_wgsl::ResourceKind::StorageTexture { dimension, format, read_write } => {
                    BindingKind::StorageTexture {
                        dimension: dimension.to_string(),
                        format: format.to_string(),
                        read_write: *read_write,
                    }
                }
            },
            name: b.name.clone(),
        };
        Some(StageInfo {
            stage: Stage::from_d3d(t.stage)?,
            shader_model: t.shader_model,
            wgsl: t.wgsl.clone(),
            entry_point: t.entry_point.clone(),
            inputs: t.inputs.iter().map(iface).collect(),
            outputs: t.outputs.iter().map(iface).collect(),
            bindings: t.bindings.iter().map(binding).collect(),
            workgroup_size: t.workgroup_size,
            workgroup_storage_bytes: t.workgroup_storage_bytes,
        })
    }
}
