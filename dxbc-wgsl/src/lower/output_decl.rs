//! Output declarations: the entry point's result struct — a `vec4` member per output register
//! (`@location(register)`, or SV_Position's builtin), the SV_ClipDistance lanes as
//! `clip_distances`, `frag_depth` (conservative depth clamped to the rasterized depth),
//! `sample_mask`, the zero position of a vertex shader without one — and the zero-initialised
//! locals `o#` the shader writes in its place, read into the struct at every return.

use super::io_decl::{if_scalar, interpolation, ir_interpolation, kind_of, public_interpolation, sv, sv_semantic};
use super::{refuse_decl, ClipLane, Cx};
use crate::chunks::signature::SignatureElement;
use crate::ir::{Interpolation, IoDecl};
use crate::refusal::{RefusalReason, TranslateError};
use crate::sm4::{OperandType, ShaderStage};
use crate::{InterfaceVar, ScalarKind as IfScalar, TranslateOptions};
use naga::{
    Binding, BuiltIn, Expression, FunctionArgument, FunctionResult, Handle, LocalVariable, ScalarKind, Span,
    StructMember, Type, TypeInner,
};

/// The output struct under construction: its members, the local each member is read from, and
/// the offset of the next member.
#[derive(Default)]
struct OutputMembers {
    members: Vec<StructMember>,
    member_src: Vec<Handle<Expression>>,
    offset: u32,
}

impl Cx<'_, '_> {
    /// Declares the outputs: the entry point's result struct (per output register a `@location`
    /// or builtin member, `clip_distances`, `frag_depth`, `sample_mask`) and the locals written
    /// in its place; returns the interface.
    pub(super) fn declare_outputs(&mut self, options: &TranslateOptions) -> Result<Vec<InterfaceVar>, TranslateError> {
        let m = self.m;
        let stage = m.version.stage;
        let mut out_vars = Vec::new();
        let mut out = OutputMembers::default();
        let mut out_regs: Vec<u32> =
            m.outputs.iter().filter(|d| d.operand.ty == OperandType::Output).map(|d| d.register).collect();
        if stage == ShaderStage::Vertex {
            // Every signature register is output (zero when unwritten) so that any pixel shader
            // reading a subset links.
            for e in &m.output_signature.elements {
                // Registers past D3D's 32 cannot be real outputs; a hostile signature could
                // otherwise ask for any location.
                if e.register < 32 && !out_regs.contains(&e.register) {
                    out_regs.push(e.register);
                }
            }
        }
        out_regs.sort_unstable();
        out_regs.dedup();
        let mut clip_lanes: Vec<(Handle<Expression>, u32)> = Vec::new();
        for reg in out_regs {
            self.declare_output_register(reg, options, &mut out, &mut clip_lanes, &mut out_vars)?;
        }
        for d in m.outputs.iter().filter(|d| d.operand.ty != OperandType::Output) {
            self.declare_special_output(d, &mut out, &mut out_vars)?;
        }
        if !clip_lanes.is_empty() {
            self.clip_distances_member(clip_lanes, &mut out)?;
        }
        if stage == ShaderStage::Vertex && !out_vars.iter().any(|v| v.builtin == Some(crate::Builtin::Position)) {
            self.unused_position_member(&mut out);
        }
        let OutputMembers { members, member_src, offset } = out;
        if !members.is_empty() {
            let st = self.module.types.insert(
                Type {
                    name: Some(if stage == ShaderStage::Vertex { "VertexOutput".into() } else { "PixelOutput".into() }),
                    inner: TypeInner::Struct { members, span: offset },
                },
                Span::UNDEFINED,
            );
            self.b.f.result = Some(FunctionResult { ty: st, binding: None });
            self.out_struct = Some((st, member_src));
        }
        Ok(out_vars)
    }

    /// Output register `o{reg}`: a member of the output struct (`@location(reg)` or a builtin),
    /// or lanes of `clip_distances`.
    fn declare_output_register(
        &mut self,
        reg: u32,
        options: &TranslateOptions,
        out: &mut OutputMembers,
        clip_lanes: &mut Vec<ClipLane>,
        out_vars: &mut Vec<InterfaceVar>,
    ) -> Result<(), TranslateError> {
        let m = self.m;
        let stage = m.version.stage;
        let decls: Vec<_> =
            m.outputs.iter().filter(|d| d.operand.ty == OperandType::Output && d.register == reg).collect();
        let elems: Vec<_> = m.output_signature.elements.iter().filter(|e| e.register == reg).collect();
        let sysval = decls
            .iter()
            .map(|d| d.system_value)
            .find(|&s| s != 0)
            .or_else(|| elems.iter().map(|e| e.system_value).find(|&s| s != 0 && s < 64))
            .unwrap_or(0);
        let mut kind = elems.first().map(|e| kind_of(e.component_type)).unwrap_or(ScalarKind::Float);
        if elems.iter().any(|e| kind_of(e.component_type) != kind) {
            if stage != ShaderStage::Vertex {
                let at = decls.first().map(|d| d.at).unwrap_or(0);
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::ResourceUnsupported,
                    format!("o{reg} packs elements of different component types into one render target"),
                ));
            }
            // Mixed types in one varying: the pixel shader must read it `constant` (D3D
            // interpolates integers only so, one mode per register): a flat `vec4<u32>` of
            // raw bits, matching the pixel side's translation.
            kind = ScalarKind::Uint;
        }
        let v4 = self.ty(kind, 4);
        if stage == ShaderStage::Vertex
            && sysval == sv::POSITION
            && out_vars.iter().any(|v: &InterfaceVar| v.builtin == Some(crate::Builtin::Position))
        {
            let at = decls.first().map(|d| d.at).unwrap_or(0);
            return Err(refuse_decl(
                m,
                at,
                RefusalReason::SystemValueUnsupported,
                format!("o{reg} is a second SV_Position output"),
            ));
        }
        if stage == ShaderStage::Vertex && sysval == sv::POSITION && kind != ScalarKind::Float {
            let at = decls.first().map(|d| d.at).unwrap_or(0);
            return Err(refuse_decl(
                m,
                at,
                RefusalReason::SystemValueUnsupported,
                format!("o{reg}: SV_Position declared with a non-float component type"),
            ));
        }
        if stage == ShaderStage::Vertex && sysval == sv::CLIP_DISTANCE {
            self.clip_distance_output(reg, kind, &decls, &elems, clip_lanes, out_vars)?;
            // A pixel shader reading SV_ClipDistance reads it interpolated at the register's
            // location: the register is written there too.
            if !options.vertex_output_interpolation.iter().any(|(r, _)| *r == reg) {
                return Ok(());
            }
        }
        // SV_RenderTargetArrayIndex and SV_ViewportArrayIndex are flat `u32` varyings: the
        // pixel shader's selection reads the primitive's leading vertex (`crate::select`).
        let per_primitive =
            stage == ShaderStage::Vertex && matches!(sysval, sv::RENDER_TARGET_ARRAY_INDEX | sv::VIEWPORT_ARRAY_INDEX);
        if per_primitive && kind != ScalarKind::Uint {
            let at = decls.first().map(|d| d.at).unwrap_or(0);
            return Err(refuse_decl(
                m,
                at,
                RefusalReason::SystemValueUnsupported,
                format!("o{reg}: {} packed with non-integer elements", sv_semantic(sysval)),
            ));
        }
        let mut out_interp = None;
        let (binding, builtin_name, location) = match (stage, sysval) {
            (ShaderStage::Vertex, sv::POSITION) => {
                (Binding::BuiltIn(BuiltIn::Position { invariant: true }), Some(crate::Builtin::Position), None)
            }
            (_, 0)
            | (ShaderStage::Pixel, _)
            | (ShaderStage::Vertex, sv::CLIP_DISTANCE)
            | (ShaderStage::Vertex, sv::RENDER_TARGET_ARRAY_INDEX | sv::VIEWPORT_ARRAY_INDEX) => {
                let (interpolation, sampling) = if stage == ShaderStage::Vertex {
                    let wanted = options
                        .vertex_output_interpolation
                        .iter()
                        .find(|(r, _)| *r == reg)
                        .map(|(_, i)| ir_interpolation(*i))
                        .unwrap_or(Interpolation::Linear);
                    interpolation(kind, wanted)
                } else {
                    (None, None)
                };
                out_interp = public_interpolation(interpolation, sampling);
                (
                    Binding::Location { location: reg, interpolation, sampling, blend_src: None, per_primitive: false },
                    None,
                    Some(reg),
                )
            }
            (_, sv::CULL_DISTANCE) => {
                let at = decls.first().map(|d| d.at).unwrap_or(0);
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::SystemValueUnsupported,
                    "SV_CullDistance: WGSL has no cull distances (the primitive stage culls per primitive: translate with VertexStage::Compute)",
                ));
            }
            (_, other) => {
                let at = decls.first().map(|d| d.at).unwrap_or(0);
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::SystemValueUnsupported,
                    format!("output system value {}: no WGSL builtin", sv_semantic(other)),
                ));
            }
        };
        let ptr = self.output_local(reg, kind);
        out.members.push(StructMember {
            name: Some(format!("o{reg}")),
            ty: v4,
            binding: Some(binding),
            offset: out.offset,
        });
        out.offset += 16;
        out.member_src.push(ptr);
        let mask = elems.iter().fold(0u8, |a, e| a | e.mask);
        let first = if mask == 0 { 0 } else { mask.trailing_zeros() as u8 };
        let last = if mask == 0 { 4 } else { 8 - mask.leading_zeros() as u8 };
        out_vars.push(InterfaceVar {
            semantic: elems.first().map(|e| e.semantic_name.clone()).unwrap_or_default(),
            semantic_index: elems.first().map(|e| e.semantic_index).unwrap_or(0),
            register: reg,
            location,
            builtin: builtin_name,
            scalar: if_scalar(kind),
            components: last.saturating_sub(first).max(1),
            first_component: first,
            interpolation: out_interp,
        });
        Ok(())
    }

    /// An SV_ClipDistance output register: its lanes go to WGSL's `clip_distances` array (in
    /// register, then component order; D3D clips against each lane alike), built at return.
    fn clip_distance_output(
        &mut self,
        reg: u32,
        kind: ScalarKind,
        decls: &[&IoDecl],
        elems: &[&SignatureElement],
        clip_lanes: &mut Vec<ClipLane>,
        out_vars: &mut Vec<InterfaceVar>,
    ) -> Result<(), TranslateError> {
        let m = self.m;
        let clip_mask = elems.iter().filter(|e| e.system_value == sv::CLIP_DISTANCE).fold(0u8, |a, e| a | e.mask)
            | decls.iter().filter(|d| d.system_value == sv::CLIP_DISTANCE).fold(0u8, |a, d| a | d.mask);
        if elems.iter().any(|e| e.system_value != sv::CLIP_DISTANCE) || kind != ScalarKind::Float {
            let at = decls.first().map(|d| d.at).unwrap_or(0);
            let why = if elems.iter().any(|e| e.system_value == sv::CULL_DISTANCE) {
                "SV_CullDistance: WGSL has no cull distances (the primitive stage culls per primitive: translate with VertexStage::Compute)".to_string()
            } else {
                format!("o{reg} packs SV_ClipDistance with other elements")
            };
            return Err(refuse_decl(m, at, RefusalReason::SystemValueUnsupported, why));
        }
        let ptr = self.output_local(reg, kind);
        for c in 0..4u32 {
            if clip_mask & (1 << c) != 0 {
                clip_lanes.push((ptr, c));
            }
        }
        let first = clip_mask.trailing_zeros().min(3) as u8;
        out_vars.push(InterfaceVar {
            semantic: elems.first().map(|e| e.semantic_name.clone()).unwrap_or_default(),
            semantic_index: elems.first().map(|e| e.semantic_index).unwrap_or(0),
            register: reg,
            location: None,
            builtin: Some(crate::Builtin::ClipDistances),
            scalar: IfScalar::Float,
            components: clip_mask.count_ones().max(1) as u8,
            first_component: first,
            interpolation: None,
        });
        Ok(())
    }

    /// An output register that is not `o#`: `oDepth` (conservative depth as a clamped
    /// `frag_depth`) or `oMask`, in pixel shaders.
    fn declare_special_output(
        &mut self,
        d: &IoDecl,
        out: &mut OutputMembers,
        out_vars: &mut Vec<InterfaceVar>,
    ) -> Result<(), TranslateError> {
        let m = self.m;
        let stage = m.version.stage;
        if stage != ShaderStage::Pixel {
            return Err(refuse_decl(
                m,
                d.at,
                RefusalReason::OperandUnsupported,
                format!("output register type {:?} in a {} shader (pixel shaders only)", d.operand.ty, stage.name()),
            ));
        }
        let (builtin, kind, name) = match d.operand.ty {
            OperandType::OutputDepth => (BuiltIn::FragDepth, ScalarKind::Float, "frag_depth"),
            OperandType::OutputCoverageMask => (BuiltIn::SampleMask, ScalarKind::Uint, "sample_mask"),
            OperandType::OutputDepthGreaterEqual | OperandType::OutputDepthLessEqual => {
                // WGSL has no conservative depth: write frag_depth, clamped to the
                // rasterized depth on the promised side (exact whenever the shader keeps its
                // promise, which is all D3D defines).
                let greater = d.operand.ty == OperandType::OutputDepthGreaterEqual;
                let pos = self.position_argument();
                self.depth_clamp = Some((out.members.len(), greater, pos));
                (BuiltIn::FragDepth, ScalarKind::Float, "frag_depth")
            }
            OperandType::OutputStencilRef => {
                return Err(refuse_decl(
                    m,
                    d.at,
                    RefusalReason::WebGpuLimitation,
                    "oStencilRef (SV_StencilRef): WGSL has no fragment output for the stencil reference value"
                        .to_string(),
                ))
            }
            other => {
                return Err(refuse_decl(
                    m,
                    d.at,
                    RefusalReason::OperandUnsupported,
                    format!("output register type {other:?}"),
                ))
            }
        };
        // One depth output (`oDepth`, `oDepthGE` or `oDepthLE`) and one `oMask`: a second
        // would be a second `frag_depth`/`sample_mask` member, which WGSL forbids.
        let declared = if builtin == BuiltIn::FragDepth { self.depth_out } else { self.mask_out };
        if declared.is_some() {
            return Err(refuse_decl(
                m,
                d.at,
                RefusalReason::DeclarationUnsupported,
                format!(
                    "{:?}: a second {} output",
                    d.operand.ty,
                    if builtin == BuiltIn::FragDepth { "depth" } else { "coverage-mask" }
                ),
            ));
        }
        let ty = self.ty(kind, 1);
        let zero = self.b.expr(Expression::ZeroValue(ty));
        let lv = self
            .b
            .f
            .local_variables
            .append(LocalVariable { name: Some(name.into()), ty, init: Some(zero) }, Span::UNDEFINED);
        let ptr = self.b.expr(Expression::LocalVariable(lv));
        if builtin == BuiltIn::FragDepth {
            self.depth_out = Some(ptr);
        } else {
            self.mask_out = Some(ptr);
        }
        out.members.push(StructMember {
            name: Some(name.into()),
            ty,
            binding: Some(Binding::BuiltIn(builtin)),
            offset: out.offset,
        });
        out.offset += 16;
        out.member_src.push(ptr);
        out_vars.push(InterfaceVar {
            semantic: if builtin == BuiltIn::FragDepth { "SV_Depth".into() } else { "SV_Coverage".into() },
            semantic_index: 0,
            register: 0,
            location: None,
            builtin: Some(crate::Builtin::from_naga(builtin)),
            scalar: if_scalar(kind),
            components: 1,
            first_component: 0,
            interpolation: None,
        });
        Ok(())
    }

    /// The `clip_distances` member, built at return from the SV_ClipDistance lanes.
    fn clip_distances_member(
        &mut self,
        clip_lanes: Vec<ClipLane>,
        out: &mut OutputMembers,
    ) -> Result<(), TranslateError> {
        let m = self.m;
        if clip_lanes.len() > 8 {
            return Err(refuse_decl(
                m,
                0,
                RefusalReason::SystemValueUnsupported,
                "more than 8 SV_ClipDistance components",
            ));
        }
        let f = self.ty(ScalarKind::Float, 1);
        let size = naga::ArraySize::Constant(std::num::NonZeroU32::new(clip_lanes.len() as u32).expect("non-empty"));
        let arr = self
            .module
            .types
            .insert(Type { name: None, inner: TypeInner::Array { base: f, size, stride: 4 } }, Span::UNDEFINED);
        self.clip_out = Some((out.members.len(), arr, clip_lanes.clone()));
        out.members.push(StructMember {
            name: Some("clip_distances".into()),
            ty: arr,
            binding: Some(Binding::BuiltIn(BuiltIn::ClipDistances)),
            offset: out.offset,
        });
        out.offset += 4 * clip_lanes.len() as u32;
        out.offset = out.offset.next_multiple_of(16);
        out.member_src.push(clip_lanes[0].0);
        Ok(())
    }

    /// The zero position of a vertex shader that outputs none (see the comment within).
    fn unused_position_member(&mut self, out: &mut OutputMembers) {
        // WGSL requires every vertex shader to output a position; D3D allows none (the
        // output then only feeds stream output or a geometry shader). Adaptation: a zero
        // position, documented in docs/compatibility.md.
        let ty = self.ty(ScalarKind::Float, 4);
        let zero = self.b.expr(Expression::ZeroValue(ty));
        let lv = self
            .b
            .f
            .local_variables
            .append(LocalVariable { name: Some("unused_position".into()), ty, init: Some(zero) }, Span::UNDEFINED);
        let ptr = self.b.expr(Expression::LocalVariable(lv));
        out.members.push(StructMember {
            name: Some("unused_position".into()),
            ty,
            binding: Some(Binding::BuiltIn(BuiltIn::Position { invariant: true })),
            offset: out.offset,
        });
        out.offset += 16;
        out.member_src.push(ptr);
    }

    /// The zero-initialised `vec4` local `o{reg}` that output register `o#` is written through,
    /// registered in `outputs`.
    pub(super) fn output_local(&mut self, reg: u32, kind: ScalarKind) -> Handle<Expression> {
        // A register written to two places (SV_ClipDistance's lanes and its location) has one.
        if let Some(&(ptr, k)) = self.outputs.get(&reg) {
            if k == kind {
                return ptr;
            }
        }
        let v4 = self.ty(kind, 4);
        let zero = self.b.expr(Expression::ZeroValue(v4));
        let lv = self
            .b
            .f
            .local_variables
            .append(LocalVariable { name: Some(format!("o{reg}")), ty: v4, init: Some(zero) }, Span::UNDEFINED);
        let ptr = self.b.expr(Expression::LocalVariable(lv));
        self.outputs.insert(reg, (ptr, kind));
        ptr
    }

    /// The fragment's `@builtin(position)` argument, added when the shader does not read
    /// `SV_Position` itself.
    fn position_argument(&mut self) -> Handle<Expression> {
        let found = self
            .b
            .f
            .arguments
            .iter()
            .position(|a| matches!(a.binding, Some(Binding::BuiltIn(BuiltIn::Position { .. }))));
        let idx = match found {
            Some(i) => i as u32,
            None => {
                let ty = self.ty(ScalarKind::Float, 4);
                self.b.f.arguments.push(FunctionArgument {
                    name: Some("frag_position".into()),
                    ty,
                    binding: Some(Binding::BuiltIn(BuiltIn::Position { invariant: false })),
                });
                (self.b.f.arguments.len() - 1) as u32
            }
        };
        self.b.expr(Expression::FunctionArgument(idx))
    }
}
