//! Every limit on a program that the translator checks, in one place: Direct3D 11's (D3D11.3
//! functional spec; the `D3D11_*` constant of d3d11.h each mirrors is named) and the
//! translator's own where it is tighter (each says why). Each is checked while the declarations
//! are read, before anything is allocated from the declared count; a program past one is refused
//! ([`crate::RefusalReason::ProgramTooLarge`] or `DeclarationUnsupported`), never truncated.
//! `tests/translate/limits.rs` translates each at the limit and one past it.

/// Temp registers, `r#` and every `x#` array's elements together
/// (`D3D11_COMMONSHADER_TEMP_REGISTER_COUNT`, §7.2).
pub const TEMP_REGISTERS: u32 = 4096;

/// Components of an indexable temp's element: 1 to 4 (§7.2).
pub const INDEXABLE_TEMP_COMPONENTS: u32 = 4;

/// Rows (16-byte registers) of one constant buffer, `cb#[n]`
/// (`D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT`, §7.5).
pub const CONSTANT_BUFFER_ROWS: u32 = 4096;

/// Rows of the immediate constant buffer `icb` (`D3D11_REQ_IMMEDIATE_CONSTANT_BUFFER_ELEMENT_COUNT`).
pub const IMMEDIATE_CONSTANT_BUFFER_ROWS: usize = 4096;

/// Thread-group shared memory of a compute shader, all `g#` together, in bytes
/// (`D3D11_CS_TGSM_REGISTER_COUNT` = 8192 words, §18.6.7).
pub const TGSM_BYTES: u64 = 32 * 1024;

/// Instructions of a program (declarations included). D3D sets none for SM5; the translator's:
/// real shaders stay far below it (the corpus's longest has a few thousand), and a
/// million-instruction program makes a WGSL module that Tint needs tens of gigabytes for.
pub const INSTRUCTIONS: usize = 65_536;

/// Nesting of `if`/`loop`/`switch`, counted together. D3D allows 64 of each kind
/// ([`D3D_FLOW_CONTROL_NESTING`]); the translator's limit is lower because Tint limits WGSL
/// statement nesting to 127 (an `if` takes two levels, a `switch` three) and the lowering, the
/// uniformity analysis and naga recurse per level. Real shaders nest a handful deep.
pub const NESTING: usize = 40;

/// D3D's nesting limit per kind of flow control (`D3D11_REQ_..._FLOW_CONTROL_NESTING`, §7.x).
pub const D3D_FLOW_CONTROL_NESTING: usize = 64;

/// Control points of a patch (`D3D11_IA_PATCH_MAX_CONTROL_POINT_COUNT`): input primitives
/// `patch1` to `patch32`.
pub const PATCH_CONTROL_POINTS: u32 = 32;

/// Vertices one geometry-shader invocation may emit, `dcl_maxout` (§13.2,
/// `D3D11_GS_MAX_OUTPUT_VERTEX_COUNT_ACROSS_INSTANCES`).
pub const GS_OUTPUT_VERTICES: u32 = dxbc_wgsl_contract::geometry::MAX_OUTPUT_VERTICES;

/// Scalars one geometry-shader invocation may emit: `dcl_maxout` × the output components
/// declared (§13.2).
pub const GS_OUTPUT_SCALARS: u64 = 1024;

/// Geometry-shader instances, `dcl_gsinstances` (`D3D11_GS_MAX_INSTANCE_COUNT`).
pub const GS_INSTANCES: u32 = 32;

/// Threads of a compute shader's thread group, `x × y × z`
/// (`D3D11_CS_THREAD_GROUP_MAX_THREADS_PER_GROUP`).
pub const THREAD_GROUP_THREADS: u64 = 1024;

/// The largest `x` and `y` of a thread group (`D3D11_CS_THREAD_GROUP_MAX_X`, `_MAX_Y`).
pub const THREAD_GROUP_XY: u32 = 1024;

/// The largest `z` of a thread group (`D3D11_CS_THREAD_GROUP_MAX_Z`).
pub const THREAD_GROUP_Z: u32 = 64;
