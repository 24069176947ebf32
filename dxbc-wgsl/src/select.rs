//! Per-primitive system values on WebGPU (docs/per-primitive.md): SV_RenderTargetArrayIndex,
//! SV_ViewportArrayIndex and SV_CullDistance.
//!
//! WebGPU draws a primitive into one render-target layer and one viewport of the pass, and has
//! no cull distances. D3D picks a layer and a viewport per primitive (D3D11.3 §15.6, §17.x:
//! from the primitive's leading vertex) and discards a primitive when one of its cull distances
//! is negative at all of its vertices. The product draws a pass once per layer and viewport the
//! upstream stage can select, each draw keeping only the primitives that select it:
//!
//! - the vertex or geometry stage writes the per-primitive values as flat `u32` varyings at its
//!   register's `@location` (flat interpolation reads the primitive's leading vertex, as D3D);
//!   a geometry shader's cull distances become a per-primitive *cull flag* the primitive stage
//!   computes in compute (`crate::geometry`) and stores on the leading vertex;
//! - the pixel shader, translated with [`crate::TranslateOptions::primitive_select`], starts by
//!   discarding the fragments of a primitive that selects another layer or viewport than the
//!   draw's (or that is culled). The draw's layer and viewport come from a uniform
//!   ([`SelectParams`], `@group(SELECT_GROUP) @binding(SELECT_BINDING)`);
//! - a layer index at or past the views' array size selects layer 0 (D3D11.3 §15.15); a
//!   viewport index past D3D's 16 selects viewport 0, one of the 16 not set is disabled (drawn
//!   nowhere); a pixel shader reading SV_RenderTargetArrayIndex or SV_ViewportArrayIndex reads
//!   the value written, or 0 when the upstream stage writes none.

pub use dxbc_wgsl_contract::select::{SelectParams, SELECT_BINDING, SELECT_GROUP, SELECT_PARAMS_SIZE, SELECT_WGSL};

/// Where the pixel shader finds a per-primitive value: a component of the flat `vec4<u32>`
/// varying at `location` (the upstream stage's output register).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SelectSource {
    /// The `@location` (the upstream output register).
    pub location: u32,
    /// The component (0-3).
    pub component: u8,
}

/// What the stage in front of a pixel shader writes per primitive
/// ([`crate::TranslateOptions::primitive_select`]). A `None` source is not written: the value
/// reads 0 (and selects layer or viewport 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PrimitiveSelect {
    /// SV_RenderTargetArrayIndex.
    pub render_target_array_index: Option<SelectSource>,
    /// SV_ViewportArrayIndex.
    pub viewport_array_index: Option<SelectSource>,
    /// The primitive stage's cull flag (non-zero: a cull distance is negative at every vertex).
    pub cull_flag: Option<SelectSource>,
}

impl PrimitiveSelect {
    /// Whether the pixel shader discards anything: some source is written.
    pub fn selects(&self) -> bool {
        self.render_target_array_index.is_some() || self.viewport_array_index.is_some() || self.cull_flag.is_some()
    }
}

/// A fragment shader that only discards what [`PrimitiveSelect`] deselects, for a pass drawn
/// without a pixel shader (depth only). Entry point `main`; reads the sources' locations and the
/// uniform at `@group(SELECT_GROUP) @binding(SELECT_BINDING)`.
pub fn select_fragment_shader(select: &PrimitiveSelect) -> String {
    let mut locations: Vec<u32> = [select.render_target_array_index, select.viewport_array_index, select.cull_flag]
        .iter()
        .flatten()
        .map(|s| s.location)
        .collect();
    locations.sort_unstable();
    locations.dedup();
    let mut s = String::from(SELECT_WGSL);
    s.push_str("\n@fragment\nfn main(");
    let args: Vec<String> =
        locations.iter().map(|l| format!("@location({l}) @interpolate(flat) sel{l}: vec4<u32>")).collect();
    s.push_str(&args.join(", "));
    s.push_str(") {\n");
    let value = |src: Option<SelectSource>| match src {
        Some(SelectSource { location, component }) => format!("sel{location}[{}]", component.min(3)),
        None => "0u".to_string(),
    };
    s.push_str(&format!(
        "    if (!ps_selected({}, {}, {})) {{\n        discard;\n    }}\n}}\n",
        value(select.render_target_array_index),
        value(select.viewport_array_index),
        value(select.cull_flag)
    ));
    s
}
