//! The translator's typed binding data as wgpu's types: one mapping, used by GPU validation,
//! the conformance runner and (as text) the generated code's `codegen::binding_type`.

use dxbc_wgsl::{ResourceKind, TexelFormat, TextureSample, ViewDimension};

/// wgpu's view dimension of a texture binding.
pub fn view_dimension(d: ViewDimension) -> wgpu::TextureViewDimension {
    match d {
        ViewDimension::D1 => wgpu::TextureViewDimension::D1,
        ViewDimension::D2 | ViewDimension::D1AsD2 => wgpu::TextureViewDimension::D2,
        ViewDimension::D2Array | ViewDimension::D1ArrayAsD2Array => wgpu::TextureViewDimension::D2Array,
        ViewDimension::Cube => wgpu::TextureViewDimension::Cube,
        ViewDimension::CubeArray => wgpu::TextureViewDimension::CubeArray,
        ViewDimension::D3 => wgpu::TextureViewDimension::D3,
    }
}

/// The texture a view of dimension `d` is made from: `(dimension, array layers)` of the
/// smallest such texture (6 layers for cubes; D3D's 1D textures are 2D ones of height 1).
pub fn texture_shape(d: ViewDimension) -> (wgpu::TextureDimension, u32) {
    match d {
        ViewDimension::D1 => (wgpu::TextureDimension::D1, 1),
        ViewDimension::D2 | ViewDimension::D2Array | ViewDimension::D1AsD2 | ViewDimension::D1ArrayAsD2Array => {
            (wgpu::TextureDimension::D2, 1)
        }
        ViewDimension::Cube | ViewDimension::CubeArray => (wgpu::TextureDimension::D2, 6),
        ViewDimension::D3 => (wgpu::TextureDimension::D3, 1),
    }
}

/// wgpu's texture format of a storage texel format.
pub fn texture_format(f: TexelFormat) -> wgpu::TextureFormat {
    use wgpu::TextureFormat as F;
    match f {
        TexelFormat::R32Float => F::R32Float,
        TexelFormat::R32Uint => F::R32Uint,
        TexelFormat::R32Sint => F::R32Sint,
        TexelFormat::Rg32Float => F::Rg32Float,
        TexelFormat::Rg32Uint => F::Rg32Uint,
        TexelFormat::Rg32Sint => F::Rg32Sint,
        TexelFormat::Rgba32Float => F::Rgba32Float,
        TexelFormat::Rgba32Uint => F::Rgba32Uint,
        TexelFormat::Rgba32Sint => F::Rgba32Sint,
        TexelFormat::Rgba16Float => F::Rgba16Float,
        TexelFormat::Rgba16Uint => F::Rgba16Uint,
        TexelFormat::Rgba16Sint => F::Rgba16Sint,
        TexelFormat::Rgba8Unorm => F::Rgba8Unorm,
        TexelFormat::Rgba8Snorm => F::Rgba8Snorm,
        TexelFormat::Rgba8Uint => F::Rgba8Uint,
        TexelFormat::Rgba8Sint => F::Rgba8Sint,
        TexelFormat::Bgra8Unorm => F::Bgra8Unorm,
    }
}

/// wgpu's sample type of a sampled texture.
pub fn sample_type(s: TextureSample) -> wgpu::TextureSampleType {
    match s {
        TextureSample::Float => wgpu::TextureSampleType::Float { filterable: true },
        TextureSample::UnfilterableFloat => wgpu::TextureSampleType::Float { filterable: false },
        TextureSample::Sint => wgpu::TextureSampleType::Sint,
        TextureSample::Uint => wgpu::TextureSampleType::Uint,
        TextureSample::Depth => wgpu::TextureSampleType::Depth,
    }
}

/// The bind group layout entry type of a binding, as the generated code writes it: uniform
/// buffers with their declared size as minimum, filtering or comparison samplers, storage
/// textures `read_write` when the shader also reads them and `write` otherwise, a UAV's hidden
/// counter as a read-write storage buffer of at least 4 bytes.
pub fn binding_type(kind: &ResourceKind) -> wgpu::BindingType {
    match kind {
        ResourceKind::UniformBuffer { size_bytes } => wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(u64::from(*size_bytes)),
        },
        ResourceKind::StorageBuffer { read_only } => wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: *read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        ResourceKind::UavCounter => wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: false },
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(4),
        },
        ResourceKind::Sampler { comparison } => wgpu::BindingType::Sampler(if *comparison {
            wgpu::SamplerBindingType::Comparison
        } else {
            wgpu::SamplerBindingType::Filtering
        }),
        ResourceKind::Texture { dimension, sample, multisampled } => wgpu::BindingType::Texture {
            sample_type: sample_type(*sample),
            view_dimension: view_dimension(*dimension),
            multisampled: *multisampled,
        },
        ResourceKind::StorageTexture { dimension, format, read_write } => wgpu::BindingType::StorageTexture {
            access: if *read_write {
                wgpu::StorageTextureAccess::ReadWrite
            } else {
                wgpu::StorageTextureAccess::WriteOnly
            },
            format: texture_format(*format),
            view_dimension: view_dimension(*dimension),
        },
    }
}

/// The WebGPU features of [`dxbc_wgsl::WebGpuFeature`] as wgpu's.
pub fn features(list: &[dxbc_wgsl::WebGpuFeature]) -> wgpu::Features {
    list.iter().fold(wgpu::Features::empty(), |f, x| {
        f | match x {
            dxbc_wgsl::WebGpuFeature::ClipDistances => wgpu::Features::CLIP_DISTANCES,
            dxbc_wgsl::WebGpuFeature::PrimitiveIndex => wgpu::Features::PRIMITIVE_INDEX,
        }
    })
}
