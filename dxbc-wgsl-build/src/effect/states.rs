//! Per-pass render states in D3D11's vocabulary (`[passes.NAME.blend]`, `.depth_stencil`,
//! `.rasterizer`, `topology`, and the shared `[blend_states.NAME]`...), and their wgpu
//! equivalents for the generated pipeline constructors.
//!
//! The model holds only what WebGPU can express: the parser refuses the rest (wireframe fill,
//! logic ops, dual-source blending, adjacency and patch topologies, anti-aliased lines...), so every
//! value here maps exactly onto a wgpu state, or onto a documented adaptation (dynamic scissor, the
//! blend factors of MIN/MAX). Defaults are D3D11's (`CD3D11_DEFAULT`). The key-by-key reference is
//! `docs/effect-format.md`.

/// Declares a D3D enumeration: its D3D names (without prefix) and the matching wgpu expressions.
macro_rules! d3d_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $d3d:literal => $wgpu:literal, $web:literal,)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $variant,)*
        }

        impl $name {
            /// Every value, in D3D's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// D3D's name without the `D3D11_...` prefix (`SRC_ALPHA`).
            pub fn d3d_name(self) -> &'static str {
                match self {
                    $($name::$variant => $d3d,)*
                }
            }

            /// The wgpu expression (`wgpu::BlendFactor::SrcAlpha`).
            pub fn wgpu(self) -> &'static str {
                match self {
                    $($name::$variant => $wgpu,)*
                }
            }

            /// WebGPU's enum value, as a JavaScript descriptor spells it (`"src-alpha"`;
            /// `"none"` for no culling), for the web artifact (`crate::web`).
            pub fn webgpu(self) -> &'static str {
                match self {
                    $($name::$variant => $web,)*
                }
            }

            /// From a D3D name without prefix (upper case).
            pub fn from_d3d_name(name: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.d3d_name() == name)
            }

            /// The D3D names, comma-separated (for messages).
            pub fn names() -> String {
                Self::ALL.iter().map(|v| v.d3d_name()).collect::<Vec<_>>().join(", ")
            }
        }
    };
}

d3d_enum! {
    /// `D3D11_PRIMITIVE_TOPOLOGY`, the lists and strips WebGPU has.
    #[derive(Default)]
    Topology {
        /// `POINTLIST`.
        PointList = "POINTLIST" => "wgpu::PrimitiveTopology::PointList", "point-list",
        /// `LINELIST`.
        LineList = "LINELIST" => "wgpu::PrimitiveTopology::LineList", "line-list",
        /// `LINESTRIP`.
        LineStrip = "LINESTRIP" => "wgpu::PrimitiveTopology::LineStrip", "line-strip",
        /// `TRIANGLELIST` (the default).
        #[default]
        TriangleList = "TRIANGLELIST" => "wgpu::PrimitiveTopology::TriangleList", "triangle-list",
        /// `TRIANGLESTRIP`.
        TriangleStrip = "TRIANGLESTRIP" => "wgpu::PrimitiveTopology::TriangleStrip", "triangle-strip",
    }
}

impl Topology {
    /// Whether it assembles triangles (depth bias applies only to those in WebGPU).
    pub fn is_triangles(self) -> bool {
        matches!(self, Topology::TriangleList | Topology::TriangleStrip)
    }
    /// Whether it is a strip (indexed draws then need wgpu's `strip_index_format`).
    pub fn is_strip(self) -> bool {
        matches!(self, Topology::LineStrip | Topology::TriangleStrip)
    }
}

/// The D3D11 topologies a pass with a geometry shader may draw, patch lists aside.
pub const DRAW_TOPOLOGIES: [dxbc_wgsl::geometry::Topology; 9] = {
    use dxbc_wgsl::geometry::Topology as T;
    [
        T::PointList,
        T::LineList,
        T::LineStrip,
        T::TriangleList,
        T::TriangleStrip,
        T::LineListAdj,
        T::LineStripAdj,
        T::TriangleListAdj,
        T::TriangleStripAdj,
    ]
};

/// D3D's name of a geometry shader's input primitive (`dcl_inputprimitive`): `point`, `line`,
/// `triangle`, `lineadj`, `triangleadj`, `patch3`.
pub fn input_primitive_name(p: dxbc_wgsl::geometry::InputPrimitive) -> String {
    use dxbc_wgsl::geometry::InputPrimitive as P;
    match p {
        P::Point => "points".into(),
        P::Line => "lines".into(),
        P::Triangle => "triangles".into(),
        P::LineAdj => "lines with adjacency".into(),
        P::TriangleAdj => "triangles with adjacency".into(),
        P::Patch(n) => format!("{n}-control-point patches"),
    }
}

/// D3D's name of a topology (`POINTLIST`, `LINELIST_ADJ`, `3_CONTROL_POINT_PATCHLIST`).
pub fn draw_topology_name(t: dxbc_wgsl::geometry::Topology) -> String {
    use dxbc_wgsl::geometry::Topology as T;
    match t {
        T::PointList => "POINTLIST".into(),
        T::LineList => "LINELIST".into(),
        T::LineStrip => "LINESTRIP".into(),
        T::TriangleList => "TRIANGLELIST".into(),
        T::TriangleStrip => "TRIANGLESTRIP".into(),
        T::LineListAdj => "LINELIST_ADJ".into(),
        T::LineStripAdj => "LINESTRIP_ADJ".into(),
        T::TriangleListAdj => "TRIANGLELIST_ADJ".into(),
        T::TriangleStripAdj => "TRIANGLESTRIP_ADJ".into(),
        T::PatchList(n) => format!("{n}_CONTROL_POINT_PATCHLIST"),
    }
}

d3d_enum! {
    /// `D3D11_BLEND`, less the dual-source factors (`SRC1_*`), which the parser refuses.
    Blend {
        /// `ZERO`.
        Zero = "ZERO" => "wgpu::BlendFactor::Zero", "zero",
        /// `ONE`.
        One = "ONE" => "wgpu::BlendFactor::One", "one",
        /// `SRC_COLOR`.
        SrcColor = "SRC_COLOR" => "wgpu::BlendFactor::Src", "src",
        /// `INV_SRC_COLOR`.
        InvSrcColor = "INV_SRC_COLOR" => "wgpu::BlendFactor::OneMinusSrc", "one-minus-src",
        /// `SRC_ALPHA`.
        SrcAlpha = "SRC_ALPHA" => "wgpu::BlendFactor::SrcAlpha", "src-alpha",
        /// `INV_SRC_ALPHA`.
        InvSrcAlpha = "INV_SRC_ALPHA" => "wgpu::BlendFactor::OneMinusSrcAlpha", "one-minus-src-alpha",
        /// `DEST_ALPHA`.
        DestAlpha = "DEST_ALPHA" => "wgpu::BlendFactor::DstAlpha", "dst-alpha",
        /// `INV_DEST_ALPHA`.
        InvDestAlpha = "INV_DEST_ALPHA" => "wgpu::BlendFactor::OneMinusDstAlpha", "one-minus-dst-alpha",
        /// `DEST_COLOR`.
        DestColor = "DEST_COLOR" => "wgpu::BlendFactor::Dst", "dst",
        /// `INV_DEST_COLOR`.
        InvDestColor = "INV_DEST_COLOR" => "wgpu::BlendFactor::OneMinusDst", "one-minus-dst",
        /// `SRC_ALPHA_SAT`: `(f, f, f, 1)`, `f = min(As, 1 - Ad)`; a source factor only.
        SrcAlphaSat = "SRC_ALPHA_SAT" => "wgpu::BlendFactor::SrcAlphaSaturated", "src-alpha-saturated",
        /// `BLEND_FACTOR`: the blend constant, set on the pass.
        BlendFactor = "BLEND_FACTOR" => "wgpu::BlendFactor::Constant", "constant",
        /// `INV_BLEND_FACTOR`.
        InvBlendFactor = "INV_BLEND_FACTOR" => "wgpu::BlendFactor::OneMinusConstant", "one-minus-constant",
    }
}

impl Blend {
    /// Factors made of colour channels, which D3D refuses in the alpha slots.
    pub fn is_color(self) -> bool {
        matches!(self, Blend::SrcColor | Blend::InvSrcColor | Blend::DestColor | Blend::InvDestColor)
    }
    /// Whether it reads the blend constant (which must then be set on the pass).
    pub fn uses_constant(self) -> bool {
        matches!(self, Blend::BlendFactor | Blend::InvBlendFactor)
    }
}

d3d_enum! {
    /// `D3D11_BLEND_OP`.
    BlendOp {
        /// `ADD`: src + dest.
        Add = "ADD" => "wgpu::BlendOperation::Add", "add",
        /// `SUBTRACT`: src - dest.
        Subtract = "SUBTRACT" => "wgpu::BlendOperation::Subtract", "subtract",
        /// `REV_SUBTRACT`: dest - src.
        RevSubtract = "REV_SUBTRACT" => "wgpu::BlendOperation::ReverseSubtract", "reverse-subtract",
        /// `MIN`: min(src, dest), factors ignored.
        Min = "MIN" => "wgpu::BlendOperation::Min", "min",
        /// `MAX`: max(src, dest), factors ignored.
        Max = "MAX" => "wgpu::BlendOperation::Max", "max",
    }
}

d3d_enum! {
    /// `D3D11_COMPARISON_FUNC`.
    Comparison {
        /// `NEVER`.
        Never = "NEVER" => "wgpu::CompareFunction::Never", "never",
        /// `LESS`.
        Less = "LESS" => "wgpu::CompareFunction::Less", "less",
        /// `EQUAL`.
        Equal = "EQUAL" => "wgpu::CompareFunction::Equal", "equal",
        /// `LESS_EQUAL`.
        LessEqual = "LESS_EQUAL" => "wgpu::CompareFunction::LessEqual", "less-equal",
        /// `GREATER`.
        Greater = "GREATER" => "wgpu::CompareFunction::Greater", "greater",
        /// `NOT_EQUAL`.
        NotEqual = "NOT_EQUAL" => "wgpu::CompareFunction::NotEqual", "not-equal",
        /// `GREATER_EQUAL`.
        GreaterEqual = "GREATER_EQUAL" => "wgpu::CompareFunction::GreaterEqual", "greater-equal",
        /// `ALWAYS`.
        Always = "ALWAYS" => "wgpu::CompareFunction::Always", "always",
    }
}

d3d_enum! {
    /// `D3D11_STENCIL_OP`.
    StencilOp {
        /// `KEEP`.
        Keep = "KEEP" => "wgpu::StencilOperation::Keep", "keep",
        /// `ZERO`.
        Zero = "ZERO" => "wgpu::StencilOperation::Zero", "zero",
        /// `REPLACE`: the stencil reference, set on the pass.
        Replace = "REPLACE" => "wgpu::StencilOperation::Replace", "replace",
        /// `INCR_SAT`.
        IncrSat = "INCR_SAT" => "wgpu::StencilOperation::IncrementClamp", "increment-clamp",
        /// `DECR_SAT`.
        DecrSat = "DECR_SAT" => "wgpu::StencilOperation::DecrementClamp", "decrement-clamp",
        /// `INVERT`.
        Invert = "INVERT" => "wgpu::StencilOperation::Invert", "invert",
        /// `INCR` (wraps).
        Incr = "INCR" => "wgpu::StencilOperation::IncrementWrap", "increment-wrap",
        /// `DECR` (wraps).
        Decr = "DECR" => "wgpu::StencilOperation::DecrementWrap", "decrement-wrap",
    }
}

d3d_enum! {
    /// `D3D11_CULL_MODE`.
    CullMode {
        /// `NONE`.
        None = "NONE" => "None", "none",
        /// `FRONT`.
        Front = "FRONT" => "Some(wgpu::Face::Front)", "front",
        /// `BACK` (the default).
        Back = "BACK" => "Some(wgpu::Face::Back)", "back",
    }
}

/// One render target's blending (`D3D11_RENDER_TARGET_BLEND_DESC`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RenderTargetBlend {
    /// `BlendEnable`.
    pub blend_enable: bool,
    /// `SrcBlend`.
    pub src_blend: Blend,
    /// `DestBlend`.
    pub dest_blend: Blend,
    /// `BlendOp`.
    pub blend_op: BlendOp,
    /// `SrcBlendAlpha`.
    pub src_blend_alpha: Blend,
    /// `DestBlendAlpha`.
    pub dest_blend_alpha: Blend,
    /// `BlendOpAlpha`.
    pub blend_op_alpha: BlendOp,
    /// `RenderTargetWriteMask`: bit 0 red, 1 green, 2 blue, 3 alpha (as wgpu's `ColorWrites`).
    pub write_mask: u8,
}

impl Default for RenderTargetBlend {
    fn default() -> Self {
        RenderTargetBlend {
            blend_enable: false,
            src_blend: Blend::One,
            dest_blend: Blend::Zero,
            blend_op: BlendOp::Add,
            src_blend_alpha: Blend::One,
            dest_blend_alpha: Blend::Zero,
            blend_op_alpha: BlendOp::Add,
            write_mask: 0xF,
        }
    }
}

impl RenderTargetBlend {
    /// The blend equations as WebGPU states them, `[colour, alpha]` as `(src, dst, op)`, or `None`
    /// when blending is off. With MIN and MAX, which ignore the factors in D3D, the factors are
    /// `One`, as WebGPU requires. The generated code and the GPU validator both build from this.
    pub fn components(&self) -> Option<[(Blend, Blend, BlendOp); 2]> {
        if !self.blend_enable {
            return None;
        }
        let component = |src: Blend, dst: Blend, op: BlendOp| match op {
            BlendOp::Min | BlendOp::Max => (Blend::One, Blend::One, op),
            _ => (src, dst, op),
        };
        Some([
            component(self.src_blend, self.dest_blend, self.blend_op),
            component(self.src_blend_alpha, self.dest_blend_alpha, self.blend_op_alpha),
        ])
    }

    /// The `Option<wgpu::BlendState>` expression of [`RenderTargetBlend::components`].
    pub fn wgpu_blend(&self) -> String {
        let Some([color, alpha]) = self.components() else {
            return "None".into();
        };
        let component = |(src, dst, op): (Blend, Blend, BlendOp)| {
            format!(
                "wgpu::BlendComponent {{ src_factor: {}, dst_factor: {}, operation: {} }}",
                src.wgpu(),
                dst.wgpu(),
                op.wgpu()
            )
        };
        format!("Some(wgpu::BlendState {{ color: {}, alpha: {} }})", component(color), component(alpha))
    }

    /// The `wgpu::ColorWrites` expression.
    pub fn wgpu_write_mask(&self) -> String {
        match self.write_mask & 0xF {
            0xF => "wgpu::ColorWrites::ALL".into(),
            0 => "wgpu::ColorWrites::empty()".into(),
            m => {
                let names = ["RED", "GREEN", "BLUE", "ALPHA"];
                let set: Vec<String> =
                    (0..4).filter(|b| m & (1 << b) != 0).map(|b| format!("wgpu::ColorWrites::{}", names[b])).collect();
                let mut out = set[0].clone();
                for s in &set[1..] {
                    out = format!("{out}.union({s})");
                }
                out
            }
        }
    }

    /// The write mask in D3D's words: `ALL`, `RED|GREEN|BLUE`, `0`.
    pub fn write_mask_name(&self) -> String {
        match self.write_mask & 0xF {
            0xF => "ALL".into(),
            0 => "0 (no channel)".into(),
            m => ["RED", "GREEN", "BLUE", "ALPHA"]
                .iter()
                .enumerate()
                .filter(|(b, _)| m & (1 << b) != 0)
                .map(|(_, n)| *n)
                .collect::<Vec<_>>()
                .join("|"),
        }
    }

    /// Whether a factor reads the blend constant (MIN and MAX use no factor).
    pub fn uses_constant(&self) -> bool {
        let reads = |src: Blend, dst: Blend, op: BlendOp| {
            !matches!(op, BlendOp::Min | BlendOp::Max) && (src.uses_constant() || dst.uses_constant())
        };
        self.blend_enable
            && (reads(self.src_blend, self.dest_blend, self.blend_op)
                || reads(self.src_blend_alpha, self.dest_blend_alpha, self.blend_op_alpha))
    }

    /// One line of documentation.
    pub fn describe(&self) -> String {
        let mask = format!("write mask {}", self.write_mask_name());
        if !self.blend_enable {
            return format!("no blending, {mask}");
        }
        let eq = |src: Blend, dst: Blend, op: BlendOp| match op {
            BlendOp::Min => "MIN(src, dest)".to_string(),
            BlendOp::Max => "MAX(src, dest)".to_string(),
            _ => format!("src * {} {op} dest * {}", src.d3d_name(), dst.d3d_name(), op = op.d3d_name()),
        };
        format!(
            "colour {}, alpha {}, {mask}",
            eq(self.src_blend, self.dest_blend, self.blend_op),
            eq(self.src_blend_alpha, self.dest_blend_alpha, self.blend_op_alpha)
        )
    }
}

/// `D3D11_BLEND_DESC`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct BlendDesc {
    /// `AlphaToCoverageEnable`.
    pub alpha_to_coverage: bool,
    /// `IndependentBlendEnable`: when false, render target 0's state applies to all eight.
    pub independent_blend: bool,
    /// `RenderTarget[0..8]` (all equal to `[0]` when `independent_blend` is false).
    pub render_targets: [RenderTargetBlend; 8],
}

impl BlendDesc {
    /// The state of render target `i` as D3D applies it.
    pub fn target(&self, i: usize) -> &RenderTargetBlend {
        if self.independent_blend {
            &self.render_targets[i]
        } else {
            &self.render_targets[0]
        }
    }
}

/// One face's stencil operations (`D3D11_DEPTH_STENCILOP_DESC`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StencilFace {
    /// `StencilFailOp`.
    pub fail: StencilOp,
    /// `StencilDepthFailOp`.
    pub depth_fail: StencilOp,
    /// `StencilPassOp`.
    pub pass: StencilOp,
    /// `StencilFunc`.
    pub func: Comparison,
}

impl Default for StencilFace {
    fn default() -> Self {
        StencilFace {
            fail: StencilOp::Keep,
            depth_fail: StencilOp::Keep,
            pass: StencilOp::Keep,
            func: Comparison::Always,
        }
    }
}

impl StencilFace {
    fn wgpu(&self) -> String {
        format!(
            "wgpu::StencilFaceState {{ compare: {}, fail_op: {}, depth_fail_op: {}, pass_op: {} }}",
            self.func.wgpu(),
            self.fail.wgpu(),
            self.depth_fail.wgpu(),
            self.pass.wgpu()
        )
    }
    fn describe(&self) -> String {
        format!(
            "func {}, fail {}, depth_fail {}, pass {}",
            self.func.d3d_name(),
            self.fail.d3d_name(),
            self.depth_fail.d3d_name(),
            self.pass.d3d_name()
        )
    }
}

/// `D3D11_DEPTH_STENCIL_DESC`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DepthStencilDesc {
    /// `DepthEnable`: when false, no depth test and no depth writes.
    pub depth_enable: bool,
    /// `DepthWriteMask`: `ALL` (true) or `ZERO` (false).
    pub depth_write: bool,
    /// `DepthFunc`.
    pub depth_func: Comparison,
    /// `StencilEnable`.
    pub stencil_enable: bool,
    /// `StencilReadMask`.
    pub stencil_read_mask: u8,
    /// `StencilWriteMask`.
    pub stencil_write_mask: u8,
    /// `FrontFace`.
    pub front_face: StencilFace,
    /// `BackFace`.
    pub back_face: StencilFace,
}

impl Default for DepthStencilDesc {
    fn default() -> Self {
        DepthStencilDesc {
            depth_enable: true,
            depth_write: true,
            depth_func: Comparison::Less,
            stencil_enable: false,
            stencil_read_mask: 0xFF,
            stencil_write_mask: 0xFF,
            front_face: StencilFace::default(),
            back_face: StencilFace::default(),
        }
    }
}

impl DepthStencilDesc {
    /// `depth_write_enabled` of wgpu: writes happen only with the depth test on and mask `ALL`.
    pub fn wgpu_depth_write(&self) -> bool {
        self.depth_enable && self.depth_write
    }
    /// The depth comparison as WebGPU states it: `ALWAYS` when the depth test is off.
    pub fn depth_compare(&self) -> Comparison {
        if self.depth_enable {
            self.depth_func
        } else {
            Comparison::Always
        }
    }
    /// `depth_compare` of wgpu: [`DepthStencilDesc::depth_compare`]'s expression.
    pub fn wgpu_depth_compare(&self) -> &'static str {
        self.depth_compare().wgpu()
    }
    /// The `wgpu::StencilState` expression. A disabled stencil test is wgpu's default (faces
    /// `IGNORE`, masks 0): D3D ignores the masks and operations then.
    pub fn wgpu_stencil(&self) -> String {
        if !self.stencil_enable {
            return "wgpu::StencilState { front: wgpu::StencilFaceState::IGNORE, back: \
                    wgpu::StencilFaceState::IGNORE, read_mask: 0, write_mask: 0 }"
                .into();
        }
        format!(
            "wgpu::StencilState {{ front: {}, back: {}, read_mask: 0x{:02X}, write_mask: 0x{:02X} }}",
            self.front_face.wgpu(),
            self.back_face.wgpu(),
            self.stencil_read_mask,
            self.stencil_write_mask
        )
    }
    /// Whether an operation writes the stencil reference (which must then be set on the pass) or
    /// a comparison reads it.
    pub fn uses_reference(&self) -> bool {
        self.stencil_enable
            && [self.front_face, self.back_face].iter().any(|f| {
                (f.func != Comparison::Always && f.func != Comparison::Never)
                    || [f.fail, f.depth_fail, f.pass].contains(&StencilOp::Replace)
            })
    }
    /// Documentation lines.
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        out.push(if self.depth_enable {
            format!(
                "depth test {}, depth writes {}",
                self.depth_func.d3d_name(),
                if self.depth_write { "on (ALL)" } else { "off (ZERO)" }
            )
        } else {
            "depth test and depth writes off (depth_enable = false)".into()
        });
        out.push(if self.stencil_enable {
            format!(
                "stencil test on, read mask 0x{:02X}, write mask 0x{:02X}; front faces: {}; back faces: {}",
                self.stencil_read_mask,
                self.stencil_write_mask,
                self.front_face.describe(),
                self.back_face.describe()
            )
        } else {
            "stencil test off".into()
        });
        out
    }
}

/// `D3D11_RASTERIZER_DESC` (fill mode `SOLID`: the parser refuses `WIREFRAME`).
#[derive(Debug, Clone, PartialEq)]
pub struct RasterizerDesc {
    /// `CullMode`.
    pub cull_mode: CullMode,
    /// `FrontCounterClockwise`.
    pub front_counter_clockwise: bool,
    /// `DepthBias`, in units of the depth format's minimum resolvable difference (as WebGPU's).
    pub depth_bias: i32,
    /// `DepthBiasClamp` (finite).
    pub depth_bias_clamp: f32,
    /// `SlopeScaledDepthBias` (finite).
    pub slope_scaled_depth_bias: f32,
    /// `DepthClipEnable`: false needs wgpu's `DEPTH_CLIP_CONTROL` feature.
    pub depth_clip_enable: bool,
    /// `ScissorEnable`: WebGPU's scissor is dynamic state of the pass.
    pub scissor_enable: bool,
    /// `MultisampleEnable`: only picks D3D's line anti-aliasing on multisampled targets.
    pub multisample_enable: bool,
}

// The floats are finite (the parser refuses NaN and infinities), so equality is reflexive.
impl Eq for RasterizerDesc {}

impl Default for RasterizerDesc {
    fn default() -> Self {
        RasterizerDesc {
            cull_mode: CullMode::Back,
            front_counter_clockwise: false,
            depth_bias: 0,
            depth_bias_clamp: 0.0,
            slope_scaled_depth_bias: 0.0,
            depth_clip_enable: true,
            scissor_enable: false,
            multisample_enable: false,
        }
    }
}

impl RasterizerDesc {
    /// The `wgpu::FrontFace` expression: D3D's clockwise front faces (the default) are `Cw`.
    pub fn wgpu_front_face(&self) -> &'static str {
        if self.front_counter_clockwise {
            "wgpu::FrontFace::Ccw"
        } else {
            "wgpu::FrontFace::Cw"
        }
    }
    /// The `wgpu::DepthBiasState` expression (D3D's and WebGPU's bias formulas are the same).
    pub fn wgpu_bias(&self) -> String {
        format!(
            "wgpu::DepthBiasState {{ constant: {}, slope_scale: {}, clamp: {} }}",
            self.depth_bias,
            float(self.slope_scaled_depth_bias),
            float(self.depth_bias_clamp)
        )
    }
    /// Whether any depth bias is set.
    pub fn has_bias(&self) -> bool {
        self.depth_bias != 0 || self.slope_scaled_depth_bias != 0.0 || self.depth_bias_clamp != 0.0
    }
}

/// A float as a Rust literal (`0.0`, `-1.5`, `1e-5`).
fn float(v: f32) -> String {
    let s = format!("{v:?}");
    if s.contains(['.', 'e', 'E']) {
        s
    } else {
        format!("{s}.0")
    }
}

/// All the render states of one pass.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PassStates {
    /// `topology` (D3D11_PRIMITIVE_TOPOLOGY); default `TRIANGLELIST`.
    pub topology: Topology,
    /// The blend state.
    pub blend: BlendDesc,
    /// The depth-stencil state.
    pub depth_stencil: DepthStencilDesc,
    /// The rasterizer state.
    pub rasterizer: RasterizerDesc,
    /// Names of the shared states the pass references (`blend = "AlphaBlend"`), for documentation:
    /// blend, depth-stencil, rasterizer.
    pub names: [Option<String>; 3],
}

impl PassStates {
    /// The `wgpu::PrimitiveState` expression.
    pub fn wgpu_primitive(&self) -> String {
        let r = &self.rasterizer;
        format!(
            "wgpu::PrimitiveState {{ topology: {}, strip_index_format: None, front_face: {}, cull_mode: {}, \
             unclipped_depth: {}, polygon_mode: wgpu::PolygonMode::Fill, conservative: false }}",
            self.topology.wgpu(),
            r.wgpu_front_face(),
            r.cull_mode.wgpu(),
            !r.depth_clip_enable
        )
    }

    /// The wgpu features the states need (`wgpu::Features` expression).
    pub fn wgpu_features(&self) -> &'static str {
        if self.rasterizer.depth_clip_enable {
            "wgpu::Features::empty()"
        } else {
            "wgpu::Features::DEPTH_CLIP_CONTROL"
        }
    }

    /// Documentation of the topology and rasterizer state.
    pub fn describe_primitive(&self) -> Vec<String> {
        let r = &self.rasterizer;
        let mut out = vec![format!(
            "topology {}{}, cull {}, {}, fill SOLID",
            self.topology.d3d_name(),
            if self.topology.is_strip() {
                " (indexed draws: set `strip_index_format` to the index format)"
            } else {
                ""
            },
            r.cull_mode.d3d_name(),
            if r.front_counter_clockwise {
                "counter-clockwise front faces (front_counter_clockwise = true: `Ccw`)"
            } else {
                "clockwise front faces (front_counter_clockwise = false: `Cw`)"
            },
        )];
        out.push(if r.depth_clip_enable {
            "depth clipping on".into()
        } else {
            "depth clipping off (`unclipped_depth`: needs `wgpu::Features::DEPTH_CLIP_CONTROL`)".into()
        });
        if r.scissor_enable {
            out.push(
                "scissor test on: set the rectangle with `RenderPass::set_scissor_rect` (D3D's RSSetScissorRects)"
                    .into(),
            );
        } else {
            out.push(
                "scissor test off: leave the pass's scissor rectangle at the whole target (WebGPU's default)".into(),
            );
        }
        if r.multisample_enable {
            out.push(
                "multisample_enable = true (in D3D11 it only selects quadrilateral lines on multisampled targets, \
                 which is how WebGPU rasterizes lines there)"
                    .into(),
            );
        }
        out
    }

    /// Documentation of the depth bias.
    pub fn describe_bias(&self) -> String {
        let r = &self.rasterizer;
        if r.has_bias() {
            format!(
                "depth bias {} (units of the format's minimum resolvable difference), slope scale {}, clamp {}",
                r.depth_bias,
                float(r.slope_scaled_depth_bias),
                float(r.depth_bias_clamp)
            )
        } else {
            "no depth bias".into()
        }
    }

    /// Documentation of the blend state.
    pub fn describe_blend(&self) -> Vec<String> {
        let b = &self.blend;
        let mut out = Vec::new();
        if b.independent_blend {
            let mut i = 0;
            while i < 8 {
                let mut j = i;
                while j + 1 < 8 && b.render_targets[j + 1] == b.render_targets[i] {
                    j += 1;
                }
                let which = if i == j { format!("render target {i}") } else { format!("render targets {i}-{j}") };
                out.push(format!("{which}: {}", b.render_targets[i].describe()));
                i = j + 1;
            }
        } else {
            out.push(format!("every render target: {}", b.render_targets[0].describe()));
        }
        if (0..8).any(|i| b.target(i).uses_constant()) {
            out.push(
                "BLEND_FACTOR is the blend constant: set it with `RenderPass::set_blend_constant` \
                 (D3D's OMSetBlendState argument)"
                    .into(),
            );
        }
        if b.alpha_to_coverage {
            out.push(
                "alpha to coverage on for multisampled targets (`multisample_state` with a count above 1); \
                 WebGPU rejects it on single-sampled targets, where it is left off"
                    .into(),
            );
        }
        out
    }
}
