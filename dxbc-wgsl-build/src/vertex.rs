//! Vertex formats: the effect file's vertex-format names and what the generated code writes.

/// A vertex attribute format (WebGPU's `GPUVertexFormat`), as the effect file and the generated
/// `wgpu::VertexFormat` name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VertexFormat {
    /// wgpu variant name (`Float32x3`).
    pub wgpu: &'static str,
    /// WebGPU name (`float32x3`).
    pub webgpu: &'static str,
    /// Size in bytes.
    pub size: u32,
    /// The scalar kind a shader reading it must declare.
    pub kind: Kind,
    /// Components the buffer supplies.
    pub components: u8,
}

/// What a shader sees when it reads a vertex attribute: `f32` (float, unorm, snorm formats),
/// `u32` or `i32` — the scalar kind of the shader input it feeds.
pub use dxbc_wgsl::ScalarKind as Kind;

macro_rules! formats {
    ($( $wgpu:ident $webgpu:literal $size:literal $kind:ident $n:literal $($dxgi:literal)?; )*) => {
        /// Every format, with its DXGI name where D3D has one.
        pub const FORMATS: &[(VertexFormat, Option<&str>)] = &[
            $( (VertexFormat { wgpu: stringify!($wgpu), webgpu: $webgpu, size: $size, kind: Kind::$kind, components: $n }, formats!(@dxgi $($dxgi)?)), )*
        ];
    };
    (@dxgi $d:literal) => { Some($d) };
    (@dxgi) => { None };
}

formats! {
    Uint8 "uint8" 1 Uint 1 "R8_UINT";
    Uint8x2 "uint8x2" 2 Uint 2 "R8G8_UINT";
    Uint8x4 "uint8x4" 4 Uint 4 "R8G8B8A8_UINT";
    Sint8 "sint8" 1 Sint 1 "R8_SINT";
    Sint8x2 "sint8x2" 2 Sint 2 "R8G8_SINT";
    Sint8x4 "sint8x4" 4 Sint 4 "R8G8B8A8_SINT";
    Unorm8 "unorm8" 1 Float 1 "R8_UNORM";
    Unorm8x2 "unorm8x2" 2 Float 2 "R8G8_UNORM";
    Unorm8x4 "unorm8x4" 4 Float 4 "R8G8B8A8_UNORM";
    Snorm8 "snorm8" 1 Float 1 "R8_SNORM";
    Snorm8x2 "snorm8x2" 2 Float 2 "R8G8_SNORM";
    Snorm8x4 "snorm8x4" 4 Float 4 "R8G8B8A8_SNORM";
    Uint16 "uint16" 2 Uint 1 "R16_UINT";
    Uint16x2 "uint16x2" 4 Uint 2 "R16G16_UINT";
    Uint16x4 "uint16x4" 8 Uint 4 "R16G16B16A16_UINT";
    Sint16 "sint16" 2 Sint 1 "R16_SINT";
    Sint16x2 "sint16x2" 4 Sint 2 "R16G16_SINT";
    Sint16x4 "sint16x4" 8 Sint 4 "R16G16B16A16_SINT";
    Unorm16 "unorm16" 2 Float 1 "R16_UNORM";
    Unorm16x2 "unorm16x2" 4 Float 2 "R16G16_UNORM";
    Unorm16x4 "unorm16x4" 8 Float 4 "R16G16B16A16_UNORM";
    Snorm16 "snorm16" 2 Float 1 "R16_SNORM";
    Snorm16x2 "snorm16x2" 4 Float 2 "R16G16_SNORM";
    Snorm16x4 "snorm16x4" 8 Float 4 "R16G16B16A16_SNORM";
    Float16 "float16" 2 Float 1 "R16_FLOAT";
    Float16x2 "float16x2" 4 Float 2 "R16G16_FLOAT";
    Float16x4 "float16x4" 8 Float 4 "R16G16B16A16_FLOAT";
    Float32 "float32" 4 Float 1 "R32_FLOAT";
    Float32x2 "float32x2" 8 Float 2 "R32G32_FLOAT";
    Float32x3 "float32x3" 12 Float 3 "R32G32B32_FLOAT";
    Float32x4 "float32x4" 16 Float 4 "R32G32B32A32_FLOAT";
    Uint32 "uint32" 4 Uint 1 "R32_UINT";
    Uint32x2 "uint32x2" 8 Uint 2 "R32G32_UINT";
    Uint32x3 "uint32x3" 12 Uint 3 "R32G32B32_UINT";
    Uint32x4 "uint32x4" 16 Uint 4 "R32G32B32A32_UINT";
    Sint32 "sint32" 4 Sint 1 "R32_SINT";
    Sint32x2 "sint32x2" 8 Sint 2 "R32G32_SINT";
    Sint32x3 "sint32x3" 12 Sint 3 "R32G32B32_SINT";
    Sint32x4 "sint32x4" 16 Sint 4 "R32G32B32A32_SINT";
    Unorm10_10_10_2 "unorm10-10-10-2" 4 Float 4 "R10G10B10A2_UNORM";
    Unorm8x4Bgra "unorm8x4-bgra" 4 Float 4 "B8G8R8A8_UNORM";
}

impl VertexFormat {
    /// Looks a format up by WebGPU name (`float32x3`, `unorm8x4-bgra`; `_` may replace `-`) or
    /// DXGI name (`R32G32B32_FLOAT`, with or without `DXGI_FORMAT_`).
    pub fn by_name(name: &str) -> Option<VertexFormat> {
        let n = name.trim();
        let webgpu = n.to_ascii_lowercase().replace('_', "-");
        let dxgi = n.to_ascii_uppercase();
        let dxgi = dxgi.strip_prefix("DXGI_FORMAT_").unwrap_or(&dxgi);
        FORMATS.iter().find(|(f, d)| f.webgpu == webgpu || *d == Some(dxgi)).map(|(f, _)| *f)
    }

    /// The default format for a shader input of `kind` with `components` components: 32-bit
    /// components, as many as the shader declares.
    pub fn default_for(kind: Kind, components: u8) -> VertexFormat {
        FORMATS
            .iter()
            .map(|(f, _)| *f)
            .find(|f| f.kind == kind && f.components == components && f.size == 4 * u32::from(components))
            .expect("every 32-bit format with 1-4 components is in the table")
    }

    /// Names accepted by [`VertexFormat::by_name`], for error messages.
    pub fn names() -> String {
        FORMATS.iter().map(|(f, _)| f.webgpu).collect::<Vec<_>>().join(", ")
    }
}

impl VertexFormat {
    /// The library's value for the format (same WebGPU name).
    pub fn geometry_format(&self) -> dxbc_wgsl::geometry::VertexFormat {
        dxbc_wgsl::geometry::VertexFormat::from_webgpu_name(self.webgpu)
            .expect("the build side's vertex formats are the library's (a test checks it)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_up_webgpu_and_dxgi_names() {
        assert_eq!(VertexFormat::by_name("float32x3").unwrap().wgpu, "Float32x3");
        assert_eq!(VertexFormat::by_name("R32G32B32_FLOAT").unwrap().wgpu, "Float32x3");
        assert_eq!(VertexFormat::by_name("DXGI_FORMAT_B8G8R8A8_UNORM").unwrap().wgpu, "Unorm8x4Bgra");
        assert_eq!(VertexFormat::by_name("unorm10_10_10_2").unwrap().size, 4);
        assert!(VertexFormat::by_name("float32x5").is_none());
        assert_eq!(VertexFormat::default_for(Kind::Float, 4).wgpu, "Float32x4");
        assert_eq!(VertexFormat::default_for(Kind::Uint, 1).wgpu, "Uint32");
    }

    /// Every format has the library's counterpart, of the same size, components and kind.
    #[test]
    fn formats_are_the_librarys() {
        assert_eq!(FORMATS.len(), dxbc_wgsl::geometry::VertexFormat::ALL.len());
        for (f, _) in FORMATS {
            let g = f.geometry_format();
            assert_eq!((g.size(), g.components(), g.kind()), (f.size, u32::from(f.components), f.kind), "{}", f.webgpu);
        }
    }
}
