//! Input declarations: the entry point's arguments — per input register `v#` a `@location`
//! argument (`vec4`, raw bits where element types differ), a builtin for its system value, or
//! both where user-defined elements share a scalar system value's register; the compute thread
//! IDs; `vCoverage` — copied into the `vec4` locals `v#` the shader reads (and the arrays of
//! `dcl_indexrange`), with D3D's conventions for SV_IsFrontFace and SV_Position made explicit.

use super::io_decl::{if_scalar, interpolation, kind_of, public_interpolation, sv, sv_semantic};
use super::{refuse_decl, Cx};
use crate::chunks::signature::SignatureElement;
use crate::ir::{Interpolation, IoDecl};
use crate::refusal::{RefusalReason, TranslateError};
use crate::sm4::{OperandType, ShaderStage};
use crate::{InterfaceVar, ScalarKind as IfScalar};
use naga::{Binding, BuiltIn, Expression, FunctionArgument, Handle, LocalVariable, ScalarKind, Span, Type, TypeInner};

/// The parts of an input register's value, each (value, component count, kind, first
/// component); later parts overwrite the components they cover.
type InputParts = Vec<InputPart>;
/// One part of an input register's value: (value, component count, kind, first component).
type InputPart = (Handle<Expression>, u8, ScalarKind, u8);

/// Components of the WGSL builtin a scalar or vector input system value becomes (position: 4).
fn n_of_builtin(stage: ShaderStage, sysval: u32) -> usize {
    if stage == ShaderStage::Pixel && sysval == sv::POSITION {
        4
    } else {
        1
    }
}

/// The WGSL builtin of a compute-shader input register: (builtin, components, WGSL name, HLSL
/// semantic).
fn compute_builtin(ty: OperandType) -> Option<(BuiltIn, usize, &'static str, &'static str)> {
    Some(match ty {
        OperandType::InputThreadId => (BuiltIn::GlobalInvocationId, 3, "global_invocation_id", "SV_DispatchThreadID"),
        OperandType::InputThreadGroupId => (BuiltIn::WorkGroupId, 3, "workgroup_id", "SV_GroupID"),
        OperandType::InputThreadIdInGroup => (BuiltIn::LocalInvocationId, 3, "local_invocation_id", "SV_GroupThreadID"),
        OperandType::InputThreadIdInGroupFlattened => {
            (BuiltIn::LocalInvocationIndex, 1, "local_invocation_index", "SV_GroupIndex")
        }
        _ => return None,
    })
}

impl Cx<'_, '_> {
    /// Declares the inputs: the entry point's arguments (per input register a `@location`, a
    /// builtin, or both where user elements share a scalar system value's register; the compute
    /// thread IDs; `vCoverage`), copied into the locals the shader reads; returns the interface.
    pub(super) fn declare_inputs(&mut self) -> Result<Vec<InterfaceVar>, TranslateError> {
        let m = self.m;
        let stage = m.version.stage;
        let mut in_vars = Vec::new();
        let mut regs: Vec<u32> = Vec::new();
        let mut special = Vec::new();
        for d in &m.inputs {
            match d.operand.ty {
                OperandType::Input => {
                    if !regs.contains(&d.register) {
                        regs.push(d.register)
                    }
                }
                _ => special.push(d.clone()),
            }
        }
        regs.sort_unstable();
        // A pixel shader runs once per sample when it reads SV_SampleIndex or an input is
        // interpolated per sample.
        let per_sample = stage == ShaderStage::Pixel
            && m.inputs.iter().any(|d| {
                d.system_value == sv::SAMPLE_INDEX
                    || matches!(d.interpolation, Interpolation::LinearSample | Interpolation::LinearNoPerspectiveSample)
            });
        // (register, parts, register kind)
        let mut copies: Vec<(u32, InputParts, ScalarKind)> = Vec::new();
        for reg in regs {
            let (parts, kind) = self.declare_input_register(reg, per_sample, &mut in_vars)?;
            copies.push((reg, parts, kind));
        }
        for d in &special {
            self.declare_special_input(d, &mut in_vars)?;
        }
        self.copy_inputs(copies);
        self.declare_input_ranges()?;
        Ok(in_vars)
    }

    /// Input register `v{reg}`: a builtin argument for its system value, a `@location` argument
    /// for its user-defined elements, or both; returns the parts of its value and its kind.
    fn declare_input_register(
        &mut self,
        reg: u32,
        per_sample: bool,
        in_vars: &mut Vec<InterfaceVar>,
    ) -> Result<(InputParts, ScalarKind), TranslateError> {
        let m = self.m;
        let stage = m.version.stage;
        let decls: Vec<_> =
            m.inputs.iter().filter(|d| d.operand.ty == OperandType::Input && d.register == reg).collect();
        let elems: Vec<_> = m.input_signature.elements.iter().filter(|e| e.register == reg).collect();
        let sysval = decls.iter().map(|d| d.system_value).find(|&s| s != 0).unwrap_or(0);
        let sig_sv = elems.iter().map(|e| e.system_value).find(|&s| s != 0).unwrap_or(0);
        let sysval = if sysval != 0 { sysval } else { sig_sv };
        let at = decls[0].at;
        let mut parts = Vec::new();
        let mut reg_kind = None;
        if stage == ShaderStage::Pixel && matches!(sysval, sv::RENDER_TARGET_ARRAY_INDEX | sv::VIEWPORT_ARRAY_INDEX) {
            let part = self.pixel_primitive_value(reg, sysval, &decls, &elems, in_vars)?;
            return Ok((vec![part], ScalarKind::Uint));
        }
        if stage == ShaderStage::Pixel && sysval == sv::PRIMITIVE_ID && self.behind_geometry {
            let part = self.primitive_id_from_geometry(reg, &decls, &elems, in_vars)?;
            return Ok((vec![part], ScalarKind::Uint));
        }
        // A pixel shader reads SV_ClipDistance and SV_CullDistance as the interpolated values
        // the vertex stage wrote at the register's location.
        let interpolated_sv = stage == ShaderStage::Pixel && matches!(sysval, sv::CLIP_DISTANCE | sv::CULL_DISTANCE);
        let builtin_reg = sysval != 0 && !(stage == ShaderStage::Vertex && sysval == sv::POSITION) && !interpolated_sv;
        // User-defined elements packed into the register of a scalar system value (e.g. a
        // `uint` in v0.x beside SV_IsFrontFace in v0.y) keep their own location.
        let sv_decl_mask = decls.iter().filter(|d| d.system_value != 0).fold(0u8, |a, d| a | d.mask);
        let user_elems: Vec<_> =
            elems.iter().copied().filter(|e| e.system_value == 0 && e.mask & sv_decl_mask == 0).collect();
        if builtin_reg {
            let part = self.input_system_value(reg, sysval, &decls, &elems, per_sample, in_vars)?;
            reg_kind = Some(part.2);
            parts.push(part);
        }
        if !builtin_reg || (n_of_builtin(stage, sysval) == 1 && !user_elems.is_empty()) {
            let (elems, decls) = if builtin_reg {
                (user_elems.clone(), decls.iter().copied().filter(|d| d.system_value == 0).collect())
            } else {
                (elems.clone(), decls.clone())
            };
            let (arg, kind) = self.input_location(reg, at, &elems, &decls, in_vars)?;
            parts.insert(0, (arg, 4, kind, 0));
            reg_kind = Some(kind);
        }
        Ok((parts, reg_kind.unwrap_or(ScalarKind::Float)))
    }

    /// The builtin argument of input register `v{reg}`, of system value `sysval`, as the part of
    /// the register's value it provides (D3D's conventions: SV_IsFrontFace as a mask, SV_Position
    /// at the pixel centre when run per sample, its `w` the clip-space w).
    fn input_system_value(
        &mut self,
        reg: u32,
        sysval: u32,
        decls: &[&IoDecl],
        elems: &[&SignatureElement],
        per_sample: bool,
        in_vars: &mut Vec<InterfaceVar>,
    ) -> Result<InputPart, TranslateError> {
        let m = self.m;
        let stage = m.version.stage;
        let at = decls[0].at;
        let (builtin, ty_kind, n, name): (BuiltIn, ScalarKind, usize, &'static str) = match (stage, sysval) {
            (ShaderStage::Vertex, sv::VERTEX_ID) => (BuiltIn::VertexIndex, ScalarKind::Uint, 1, "vertex_index"),
            (ShaderStage::Vertex, sv::INSTANCE_ID) => (BuiltIn::InstanceIndex, ScalarKind::Uint, 1, "instance_index"),
            (ShaderStage::Pixel, sv::POSITION) => {
                (BuiltIn::Position { invariant: false }, ScalarKind::Float, 4, "position")
            }
            (ShaderStage::Pixel, sv::IS_FRONT_FACE) => (BuiltIn::FrontFacing, ScalarKind::Bool, 1, "front_facing"),
            (ShaderStage::Pixel, sv::SAMPLE_INDEX) => (BuiltIn::SampleIndex, ScalarKind::Uint, 1, "sample_index"),
            (ShaderStage::Pixel, sv::PRIMITIVE_ID) => (BuiltIn::PrimitiveIndex, ScalarKind::Uint, 1, "primitive_index"),
            (_, other) => {
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::SystemValueUnsupported,
                    format!("input system value {} in a {} shader: no WGSL builtin", sv_semantic(other), stage.name()),
                ))
            }
        };
        if self.b.f.arguments.iter().any(|a| a.binding == Some(Binding::BuiltIn(builtin))) {
            return Err(refuse_decl(
                m,
                at,
                RefusalReason::SystemValueUnsupported,
                format!("v{reg}: a second input of system value {name}"),
            ));
        }
        let ty = if ty_kind == ScalarKind::Bool {
            self.module.types.insert(Type { name: None, inner: TypeInner::Scalar(naga::Scalar::BOOL) }, Span::UNDEFINED)
        } else {
            self.ty(ty_kind, n)
        };
        let idx = self.b.f.arguments.len() as u32;
        self.b.f.arguments.push(FunctionArgument {
            name: Some(format!("v{reg}_{name}")),
            ty,
            binding: Some(Binding::BuiltIn(builtin)),
        });
        let arg = self.b.expr(Expression::FunctionArgument(idx));
        let (val, k) = if ty_kind == ScalarKind::Bool {
            // D3D's SV_IsFrontFace is 0xFFFFFFFF / 0.
            let t = self.b.u32(u32::MAX);
            let f = self.b.u32(0);
            (self.b.select(arg, t, f), ScalarKind::Uint)
        } else {
            (arg, ty_kind)
        };
        let pos_interp = decls
            .iter()
            .map(|d| d.interpolation)
            .find(|&i| i != Interpolation::Undefined)
            .unwrap_or(Interpolation::Undefined);
        let val = if sysval == sv::POSITION
            && per_sample
            && !matches!(pos_interp, Interpolation::LinearSample | Interpolation::LinearNoPerspectiveSample)
        {
            // Run per sample, WebGPU's fragment position is the sample's location; D3D
            // gives SV_Position at the pixel centre unless it is declared `sample`.
            let xy = self.b.swizzle(val, &[0, 1]);
            let xy = self.b.math(naga::MathFunction::Floor, &[xy]);
            let half = self.b.f32(0.5);
            let half = self.b.splat(half, 2);
            let xy = self.b.bin(naga::BinaryOperator::Add, xy, half);
            let x = self.b.comp(xy, 0);
            let y = self.b.comp(xy, 1);
            let z = self.b.comp(val, 2);
            let w = self.b.comp(val, 3);
            let v4 = self.ty(ScalarKind::Float, 4);
            self.b.compose(v4, vec![x, y, z, w])
        } else {
            val
        };
        let declared_mask = decls.iter().fold(0u8, |a, d| a | d.mask);
        let val = if sysval == sv::POSITION && stage == ShaderStage::Pixel && declared_mask & 8 != 0 {
            // D3D's SV_Position.w in a pixel shader is the clip-space w; WGSL's fragment
            // position.w is its reciprocal.
            let x = self.b.comp(val, 0);
            let y = self.b.comp(val, 1);
            let z = self.b.comp(val, 2);
            let w = self.b.comp(val, 3);
            let one = self.b.f32(1.0);
            let w = self.b.bin(naga::BinaryOperator::Divide, one, w);
            let v4 = self.ty(ScalarKind::Float, 4);
            self.b.compose(v4, vec![x, y, z, w])
        } else {
            val
        };
        let sv_mask = elems.iter().filter(|e| e.system_value != 0).fold(0u8, |a, e| a | e.mask)
            | decls.iter().filter(|d| d.system_value != 0).fold(0u8, |a, d| a | d.mask);
        let first = if n == 1 { sv_mask.trailing_zeros().min(3) as u8 } else { 0 };
        in_vars.push(InterfaceVar {
            semantic: elems.first().map(|e| e.semantic_name.clone()).unwrap_or_default(),
            semantic_index: elems.first().map(|e| e.semantic_index).unwrap_or(0),
            register: reg,
            location: None,
            builtin: Some(crate::Builtin::from_naga(builtin)),
            scalar: if_scalar(k),
            components: n as u8,
            first_component: first,
            interpolation: None,
        });
        Ok((val, if n == 1 { 1u8 } else { 4u8 }, k, first))
    }

    /// The `@location(reg)` argument of input register `v{reg}`'s user-defined elements (a
    /// `vec4<u32>` of raw bits when their types differ) and its kind.
    fn input_location(
        &mut self,
        reg: u32,
        at: usize,
        elems: &[&SignatureElement],
        decls: &[&IoDecl],
        in_vars: &mut Vec<InterfaceVar>,
    ) -> Result<(Handle<Expression>, ScalarKind), TranslateError> {
        let m = self.m;
        let stage = m.version.stage;
        let kinds: Vec<ScalarKind> = elems.iter().map(|e| kind_of(e.component_type)).collect();
        let mut kind = kinds.first().copied().unwrap_or(ScalarKind::Float);
        let sig_mask = elems.iter().fold(0u8, |a, e| a | e.mask);
        let decl_mask = decls.iter().fold(0u8, |a, d| a | d.mask);
        let mask = if sig_mask != 0 { sig_mask } else { decl_mask };
        let interp = decls
            .iter()
            .map(|d| d.interpolation)
            .find(|&i| i != Interpolation::Undefined)
            .unwrap_or(Interpolation::Undefined);
        if kinds.iter().any(|&k| k != kind) {
            // Elements of different types in one register: D3D interpolates a register
            // in one mode, and integers only as `constant`, so the register is flat and
            // its lanes are raw bits: one `vec4<u32>` location, read through bitcasts.
            // A vertex attribute has one format per location, so vertex inputs cannot.
            if stage != ShaderStage::Pixel || !matches!(interp, Interpolation::Constant) {
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::ResourceUnsupported,
                    format!(
                        "v{reg} packs elements of different component types into one {}",
                        if stage == ShaderStage::Pixel {
                            "register that is not `constant`-interpolated"
                        } else {
                            "vertex attribute"
                        }
                    ),
                ));
            }
            kind = ScalarKind::Uint;
        }
        let (interpolation, sampling) =
            if stage == ShaderStage::Pixel { interpolation(kind, interp) } else { (None, None) };
        let ty = self.ty(kind, 4);
        let idx = self.b.f.arguments.len() as u32;
        self.b.f.arguments.push(FunctionArgument {
            name: Some(format!("v{reg}_in")),
            ty,
            binding: Some(Binding::Location {
                location: reg,
                interpolation,
                sampling,
                blend_src: None,
                per_primitive: false,
            }),
        });
        let arg = self.b.expr(Expression::FunctionArgument(idx));
        let first = mask.trailing_zeros().min(3) as u8;
        let last = 8 - mask.leading_zeros().min(8) as u8;
        let first_elem = elems.iter().min_by_key(|e| e.mask.trailing_zeros());
        in_vars.push(InterfaceVar {
            semantic: first_elem.map(|e| e.semantic_name.clone()).unwrap_or_default(),
            semantic_index: first_elem.map(|e| e.semantic_index).unwrap_or(0),
            register: reg,
            location: Some(reg),
            builtin: None,
            scalar: if_scalar(kind),
            components: last.saturating_sub(first).max(1),
            first_component: first,
            interpolation: public_interpolation(interpolation, sampling),
        });
        Ok((arg, kind))
    }

    /// SV_PrimitiveID of a pixel shader drawing a geometry shader's output: the value the
    /// geometry shader wrote into register `v{reg}`, which the draw's pass-through vertex shader
    /// passes on as a flat `vec4<u32>` at `@location(reg)` (D3D11.3 §13.6: the pixel shader reads
    /// the geometry shader's SV_PrimitiveID output).
    /// A pixel shader's SV_RenderTargetArrayIndex or SV_ViewportArrayIndex (`crate::select`):
    /// the flat `u32` the upstream stage wrote at its register's location (the source
    /// [`crate::TranslateOptions::primitive_select`] names; without that option, this register's
    /// own location), or 0 when the upstream stage writes none.
    fn pixel_primitive_value(
        &mut self,
        reg: u32,
        sysval: u32,
        decls: &[&IoDecl],
        elems: &[&SignatureElement],
        in_vars: &mut Vec<InterfaceVar>,
    ) -> Result<InputPart, TranslateError> {
        let m = self.m;
        let at = decls[0].at;
        if elems.iter().any(|e| e.system_value != sysval) || decls.iter().any(|d| d.system_value != sysval) {
            return Err(refuse_decl(
                m,
                at,
                RefusalReason::SystemValueUnsupported,
                format!("v{reg}: {} shares its register with other inputs", sv_semantic(sysval)),
            ));
        }
        let lane = decls.iter().map(|d| d.mask).find(|&k| k != 0).map_or(0, |k| k.trailing_zeros().min(3));
        let own = crate::select::SelectSource { location: reg, component: lane as u8 };
        let source = match self.primitive_select {
            None => Some(own),
            Some(sel) if sysval == sv::RENDER_TARGET_ARRAY_INDEX => sel.render_target_array_index,
            Some(sel) => sel.viewport_array_index,
        };
        let value = match source {
            Some(src) => {
                let arg = self.flat_location(src.location)?;
                let v = self.b.comp(arg, u32::from(src.component.min(3)));
                in_vars.push(InterfaceVar {
                    semantic: elems.first().map(|e| e.semantic_name.clone()).unwrap_or_else(|| sv_semantic(sysval)),
                    semantic_index: 0,
                    register: reg,
                    location: Some(src.location),
                    builtin: None,
                    scalar: IfScalar::Uint,
                    components: 1,
                    first_component: src.component.min(3),
                    interpolation: Some(crate::Interpolation::Flat),
                });
                v
            }
            None => self.b.lit_bits(ScalarKind::Uint, 0),
        };
        Ok((value, 1, ScalarKind::Uint, lane as u8))
    }

    /// The flat `vec4<u32>` argument at `location` (one per location, shared by the per-primitive
    /// reads and the selection prologue).
    pub(super) fn flat_location(&mut self, location: u32) -> Result<Handle<Expression>, TranslateError> {
        if let Some(&(_, e)) = self.flat_args.iter().find(|(l, _)| *l == location) {
            return Ok(e);
        }
        let taken = self
            .b
            .f
            .arguments
            .iter()
            .any(|a| matches!(a.binding, Some(Binding::Location { location: l, .. }) if l == location));
        if taken {
            return Err(TranslateError::InvalidOptions(format!(
                "primitive_select: location {location} is one of the pixel shader's own inputs"
            )));
        }
        let ty = self.ty(ScalarKind::Uint, 4);
        let idx = self.b.f.arguments.len() as u32;
        self.b.f.arguments.push(FunctionArgument {
            name: Some(format!("sel{location}")),
            ty,
            binding: Some(Binding::Location {
                location,
                interpolation: Some(naga::Interpolation::Flat),
                sampling: None,
                blend_src: None,
                per_primitive: false,
            }),
        });
        let e = self.b.expr(Expression::FunctionArgument(idx));
        self.flat_args.push((location, e));
        Ok(e)
    }

    /// The selection prologue of a pixel shader drawn per layer and viewport (`crate::select`):
    /// `if !ps_selected(layer, viewport, culled) { discard; }`, before anything else runs.
    pub(super) fn select_prologue(&mut self) -> Result<(), TranslateError> {
        let Some(sel) = self.primitive_select.filter(|s| s.selects()) else { return Ok(()) };
        let value =
            |cx: &mut Self, src: Option<crate::select::SelectSource>| -> Result<Handle<Expression>, TranslateError> {
                match src {
                    Some(src) => {
                        let arg = cx.flat_location(src.location)?;
                        Ok(cx.b.comp(arg, u32::from(src.component.min(3))))
                    }
                    None => Ok(cx.b.lit_bits(ScalarKind::Uint, 0)),
                }
            };
        let layer = value(self, sel.render_target_array_index)?;
        let viewport = value(self, sel.viewport_array_index)?;
        let culled = value(self, sel.cull_flag)?;
        let keep = self.call_library("ps_selected", vec![layer, viewport, culled])?;
        let not = self.b.expr(Expression::Unary { op: naga::UnaryOperator::LogicalNot, expr: keep });
        self.b.open();
        self.b.stmt(naga::Statement::Kill);
        let accept = self.b.close();
        self.b.stmt(naga::Statement::If { condition: not, accept, reject: naga::Block::new() });
        Ok(())
    }

    ///
    /// User-defined inputs packed into the same register (vkd3d's HLSL compiler puts
    /// `dcl_input_ps_sgv constant v1.z, primitive_id` beside `dcl_input_ps constant v1.x`, `v1.y`)
    /// are the geometry shader's outputs in the same register: the register is one flat
    /// `vec4<u32>` of raw bits (the draw's vertex shader passes an integer register on so), read
    /// whole. D3D interpolates a register in one mode, and SV_PrimitiveID only as `constant`, so
    /// the other inputs must be `constant` too; another system value in the register is not the
    /// geometry shader's to write.
    fn primitive_id_from_geometry(
        &mut self,
        reg: u32,
        decls: &[&IoDecl],
        elems: &[&SignatureElement],
        in_vars: &mut Vec<InterfaceVar>,
    ) -> Result<InputPart, TranslateError> {
        let m = self.m;
        let at = decls[0].at;
        let packed = elems.iter().any(|e| e.system_value == 0) || decls.iter().any(|d| d.system_value == 0);
        if elems.iter().any(|e| !matches!(e.system_value, 0 | sv::PRIMITIVE_ID))
            || decls.iter().any(|d| !matches!(d.system_value, 0 | sv::PRIMITIVE_ID))
        {
            return Err(refuse_decl(
                m,
                at,
                RefusalReason::SystemValueUnsupported,
                format!(
                    "v{reg}: SV_PrimitiveID shares its register with another system value behind a geometry shader"
                ),
            ));
        }
        if let Some(d) = decls.iter().find(|d| {
            d.system_value == 0 && !matches!(d.interpolation, Interpolation::Constant | Interpolation::Undefined)
        }) {
            return Err(refuse_decl(
                m,
                d.at,
                RefusalReason::SystemValueUnsupported,
                format!(
                    "v{reg}: an input interpolated as {:?} shares its register with SV_PrimitiveID (constant)",
                    d.interpolation
                ),
            ));
        }
        let lane =
            decls.iter().find(|d| d.system_value == sv::PRIMITIVE_ID).map_or(0, |d| d.mask.trailing_zeros().min(3));
        let ty = self.ty(ScalarKind::Uint, 4);
        let idx = self.b.f.arguments.len() as u32;
        self.b.f.arguments.push(FunctionArgument {
            name: Some(format!("v{reg}_primitive_id")),
            ty,
            binding: Some(Binding::Location {
                location: reg,
                interpolation: Some(naga::Interpolation::Flat),
                sampling: None,
                blend_src: None,
                per_primitive: false,
            }),
        });
        let arg = self.b.expr(Expression::FunctionArgument(idx));
        let part = if packed {
            (arg, 4, ScalarKind::Uint, 0)
        } else {
            (self.b.comp(arg, lane), 1, ScalarKind::Uint, lane as u8)
        };
        in_vars.push(InterfaceVar {
            semantic: elems.first().map(|e| e.semantic_name.clone()).unwrap_or_else(|| "SV_PrimitiveID".into()),
            semantic_index: 0,
            register: reg,
            location: Some(reg),
            builtin: None,
            scalar: IfScalar::Uint,
            components: 4,
            first_component: 0,
            interpolation: Some(crate::Interpolation::Flat),
        });
        Ok(part)
    }

    /// An input register that is not `v#`: a compute-shader thread ID or a pixel shader's
    /// `vCoverage`.
    fn declare_special_input(&mut self, d: &IoDecl, in_vars: &mut Vec<InterfaceVar>) -> Result<(), TranslateError> {
        let m = self.m;
        let stage = m.version.stage;
        if stage == ShaderStage::Compute {
            if let Some((builtin, n, name, semantic)) = compute_builtin(d.operand.ty) {
                self.thread_id_input(d.at, d.operand.ty, builtin, n, name)?;
                in_vars.push(InterfaceVar {
                    semantic: semantic.into(),
                    semantic_index: 0,
                    register: 0,
                    location: None,
                    builtin: Some(crate::Builtin::from_naga(builtin)),
                    scalar: IfScalar::Uint,
                    components: n as u8,
                    first_component: 0,
                    interpolation: None,
                });
                return Ok(());
            }
        }
        match (stage, d.operand.ty) {
            (ShaderStage::Pixel, OperandType::InputCoverageMask) => {
                if self.coverage_in.is_some() {
                    // A second `sample_mask` argument, which WGSL forbids.
                    return Err(refuse_decl(
                        m,
                        d.at,
                        RefusalReason::DeclarationUnsupported,
                        "vCoverage declared twice",
                    ));
                }
                let ty = self.ty(ScalarKind::Uint, 1);
                let idx = self.b.f.arguments.len() as u32;
                self.b.f.arguments.push(FunctionArgument {
                    name: Some("v_coverage".into()),
                    ty,
                    binding: Some(Binding::BuiltIn(BuiltIn::SampleMask)),
                });
                let e = self.b.expr(Expression::FunctionArgument(idx));
                self.coverage_in = Some(e);
                in_vars.push(InterfaceVar {
                    semantic: "SV_Coverage".into(),
                    semantic_index: 0,
                    register: 0,
                    location: None,
                    builtin: Some(crate::Builtin::SampleMask),
                    scalar: IfScalar::Uint,
                    components: 1,
                    first_component: 0,
                    interpolation: None,
                });
            }
            _ => {
                return Err(refuse_decl(
                    m,
                    d.at,
                    RefusalReason::OperandUnsupported,
                    format!("input register type {:?} in a {} shader", d.operand.ty, stage.name()),
                ))
            }
        }
        Ok(())
    }

    /// Copies the inputs into `vec4` locals `v#`.
    fn copy_inputs(&mut self, copies: Vec<(u32, InputParts, ScalarKind)>) {
        for (reg, parts, kind) in copies {
            let v4 = self.ty(kind, 4);
            let lv = self
                .b
                .f
                .local_variables
                .append(LocalVariable { name: Some(format!("v{reg}")), ty: v4, init: None }, Span::UNDEFINED);
            let ptr = self.b.expr(Expression::LocalVariable(lv));
            let value = match parts[..] {
                [(val, 4, k, _)] if k == kind => val,
                _ => {
                    let z = self.b.lit_bits(kind, 0);
                    let mut comps = [z; 4];
                    for &(val, n, k, first) in &parts {
                        let val = if k == kind { val } else { self.b.bitcast(val, kind) };
                        if n == 4 {
                            for (c, slot) in comps.iter_mut().enumerate() {
                                *slot = self.b.comp(val, c as u32);
                            }
                        } else {
                            comps[first as usize] = val;
                        }
                    }
                    self.b.compose(v4, comps.to_vec())
                }
            };
            self.b.store(ptr, value);
            self.inputs.insert(reg, (ptr, kind));
        }
    }

    /// Input registers addressed relatively (`dcl_indexrange`): a local array of the range's
    /// registers, copied once; raw bits when the registers' types differ.
    pub(super) fn declare_input_ranges(&mut self) -> Result<(), TranslateError> {
        let m = self.m;
        for &(at, first, count) in &m.input_ranges {
            let kinds: Vec<Option<ScalarKind>> =
                (first..first + count).map(|r| self.inputs.get(&r).map(|&(_, k)| k)).collect();
            if kinds.iter().any(Option::is_none) {
                return Err(refuse_decl(
                    m,
                    at,
                    RefusalReason::DeclarationUnsupported,
                    "dcl_indexrange over input registers that are not all declared",
                ));
            }
            let kinds: Vec<ScalarKind> = kinds.into_iter().flatten().collect();
            let kind = if kinds.iter().all(|&k| k == kinds[0]) { kinds[0] } else { ScalarKind::Uint };
            let v4 = self.ty(kind, 4);
            let size = naga::ArraySize::Constant(std::num::NonZeroU32::new(count).expect("count > 0"));
            let arr = self
                .module
                .types
                .insert(Type { name: None, inner: TypeInner::Array { base: v4, size, stride: 16 } }, Span::UNDEFINED);
            let mut elems = Vec::new();
            for r in first..first + count {
                let (p, k) = self.inputs[&r];
                let v = self.b.load(p);
                elems.push(if k == kind { v } else { self.b.bitcast(v, kind) });
            }
            let value = self.b.expr(Expression::Compose { ty: arr, components: elems });
            let lv = self
                .b
                .f
                .local_variables
                .append(LocalVariable { name: Some(format!("v{first}_range")), ty: arr, init: None }, Span::UNDEFINED);
            let ptr = self.b.expr(Expression::LocalVariable(lv));
            self.b.store(ptr, value);
            self.input_ranges.push((first, count, ptr, kind));
        }
        Ok(())
    }

    /// A compute-shader thread ID: the builtin argument, kept as a `vec4<u32>` local (`w` = 0)
    /// for swizzled reads, or as the `u32` itself for `vThreadIDInGroupFlattened`.
    fn thread_id_input(
        &mut self,
        at: usize,
        ty: OperandType,
        builtin: BuiltIn,
        n: usize,
        name: &'static str,
    ) -> Result<(), TranslateError> {
        if self.thread_ids.contains_key(&ty) {
            return Err(refuse_decl(
                self.m,
                at,
                RefusalReason::DeclarationUnsupported,
                format!("{name} declared twice"),
            ));
        }
        let ty_arg = self.ty(ScalarKind::Uint, n);
        let idx = self.b.f.arguments.len() as u32;
        self.b.f.arguments.push(FunctionArgument {
            name: Some(name.into()),
            ty: ty_arg,
            binding: Some(Binding::BuiltIn(builtin)),
        });
        let arg = self.b.expr(Expression::FunctionArgument(idx));
        if n == 1 {
            self.thread_ids.insert(ty, (arg, true));
            return Ok(());
        }
        let v4 = self.ty(ScalarKind::Uint, 4);
        let x = self.b.comp(arg, 0);
        let y = self.b.comp(arg, 1);
        let z = self.b.comp(arg, 2);
        let w = self.b.u32(0);
        let value = self.b.compose(v4, vec![x, y, z, w]);
        let local = match ty {
            OperandType::InputThreadId => "vThreadID",
            OperandType::InputThreadGroupId => "vThreadGroupID",
            _ => "vThreadIDInGroup",
        };
        let lv = self
            .b
            .f
            .local_variables
            .append(LocalVariable { name: Some(local.into()), ty: v4, init: None }, Span::UNDEFINED);
        let ptr = self.b.expr(Expression::LocalVariable(lv));
        self.b.store(ptr, value);
        self.thread_ids.insert(ty, (ptr, false));
        Ok(())
    }
}
