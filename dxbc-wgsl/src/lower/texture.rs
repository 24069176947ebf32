//! Textures: sampling (`sample*`), texel loads (`ld`, `ld_ms`), gathers (`gather4*`) and the
//! queries `sampleinfo` and `resinfo`, with D3D's out-of-bounds rules made explicit (a load out
//! of bounds reads zero). Typed `Buffer` loads go to `buffer.rs`.

use super::{mask_lanes, refuse_at, Cx, Tex, E, F, I, R, U};
use crate::refusal::RefusalReason;
use crate::sm4::opcodes::{COMPARISON, UNIFORM};
use crate::sm4::{ComponentSelect, Instruction, Opcode, Operand, OperandType, ShaderStage};
use naga::{BinaryOperator as B, Expression, ImageDimension, MathFunction as M, SampleLevel, ScalarKind};

impl Cx<'_, '_> {
    fn texture(&self, i: usize, op: &Operand) -> R<Tex> {
        if op.ty != OperandType::Resource {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                format!("{:?} as a texture operand", op.ty),
            ));
        }
        self.textures.get(&self.m.resource_id(op)).copied().ok_or_else(|| {
            refuse_at(self, i, RefusalReason::OperandUnsupported, format!("t{} is not a declared texture", op.reg()))
        })
    }

    /// Result components in destination order, given the resource operand's swizzle.
    pub(super) fn result_swizzle(&mut self, v4: E, res: &Operand, lanes: &[u8]) -> E {
        let sw = res.select.swizzle();
        let comps: Vec<u8> = lanes.iter().map(|&l| sw[l as usize]).collect();
        self.b.swizzle(v4, &comps)
    }

    /// Splits an address operand into (coordinates, array layer) for a texture. A D3D 1D
    /// address `u` (array slice in `.y`) is `(u, row)` on the 2D texture of height 1 that stands
    /// for it: `row` 0.5 for a normalized coordinate (the row's centre: any filter and address
    /// mode reads that row alone), 0 for a texel index.
    fn coords(&mut self, i: usize, addr: &Operand, tex: &Tex, kind: ScalarKind) -> R<(E, Option<E>)> {
        let n = tex.d3d_coords() as u8;
        let comps: Vec<u8> = (0..n).collect();
        let c = self.read(i, addr, &comps, kind)?;
        let c = if tex.d1 {
            let row = if kind == F { self.b.f32(0.5) } else { self.b.i32(0) };
            self.widen_1d(c, row, kind)
        } else {
            c
        };
        let layer = if tex.arrayed {
            let l = self.read(i, addr, &[n], kind)?;
            let l = if kind == F {
                // D3D rounds the array coordinate to the nearest integer.
                let r = self.b.math(M::Round, &[l]);
                let z = self.b.f32(0.0);
                let r = self.b.math(M::Max, &[r, z]);
                self.b.convert(r, U)
            } else {
                self.b.bitcast(l, U)
            };
            Some(l)
        } else {
            None
        };
        Ok((c, layer))
    }

    /// `(x, fill)`: a D3D 1D coordinate, gradient or offset on the 2D texture of height 1.
    pub(super) fn widen_1d(&mut self, x: E, fill: E, kind: ScalarKind) -> E {
        let ty = self.ty(kind, 2);
        self.b.compose(ty, vec![x, fill])
    }

    fn offset_expr(&mut self, ins: &Instruction, tex: &Tex) -> Option<E> {
        let mut o = ins.texel_offset?;
        if tex.d1 {
            // A 1D texture's offset is `u` alone.
            o[1] = 0;
        }
        if o == [0, 0, 0] {
            return None;
        }
        let n = match tex.dim {
            ImageDimension::D1 => 1,
            ImageDimension::D2 => 2,
            _ => 3,
        };
        let parts: Vec<E> = o[..n].iter().map(|&v| self.b.i32(v as i32)).collect();
        let ty = self.ty(I, n);
        Some(self.b.compose(ty, parts))
    }

    pub(super) fn sample(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let tex = self.texture(i, &ops[2])?;
        if tex.multi {
            return Err(refuse_at(self, i, RefusalReason::OperandUnsupported, "sampling a multisampled texture"));
        }
        if tex.kind != F {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                "sampling a texture declared with an integer return type (invalid in D3D; WGSL cannot sample it)",
            ));
        }
        if ins.opcode.has(UNIFORM) {
            // Implicit derivatives: pixel shaders only.
            self.require_pixel(i)?;
        }
        let compare = ins.opcode.has(COMPARISON);
        let sampler = *self.samplers.get(&(self.m.resource_id(&ops[3]), compare)).ok_or_else(|| {
            refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                format!("s{} is not a declared sampler", ops[3].reg()),
            )
        })?;
        let (coordinate, array_index) = self.coords(i, &ops[1], &tex, F)?;
        let offset = self.offset_expr(ins, &tex);
        if offset.is_some() && tex.dim == ImageDimension::Cube {
            return Err(refuse_at(self, i, RefusalReason::WebGpuLimitation, "texel offsets on cube textures"));
        }
        let stage_pixel = self.m.version.stage == ShaderStage::Pixel;
        let level = match ins.opcode {
            Opcode::SAMPLE | Opcode::SAMPLE_C => {
                if !stage_pixel {
                    return Err(refuse_at(
                        self,
                        i,
                        RefusalReason::OpcodeUnsupported,
                        "implicit-LOD sampling outside a pixel shader",
                    ));
                }
                SampleLevel::Auto
            }
            Opcode::SAMPLE_B => {
                if !stage_pixel {
                    return Err(refuse_at(
                        self,
                        i,
                        RefusalReason::OpcodeUnsupported,
                        "biased sampling outside a pixel shader",
                    ));
                }
                let b = self.read(i, &ops[4], &[0], F)?;
                SampleLevel::Bias(b)
            }
            Opcode::SAMPLE_L => {
                let l = self.read(i, &ops[4], &[0], F)?;
                SampleLevel::Exact(l)
            }
            Opcode::SAMPLE_D => {
                // A gradient has the address's coordinate components (3 for cubes).
                let comps: Vec<u8> = (0..tex.d3d_coords() as u8).collect();
                let mut x = self.read(i, &ops[4], &comps, F)?;
                let mut y = self.read(i, &ops[5], &comps, F)?;
                if tex.d1 {
                    // The row does not move: its derivatives are zero.
                    let z = self.b.f32(0.0);
                    x = self.widen_1d(x, z, F);
                    y = self.widen_1d(y, z, F);
                }
                SampleLevel::Gradient { x, y }
            }
            _ => SampleLevel::Zero,
        };
        if tex.depth && !compare && !matches!(level, SampleLevel::Auto) {
            return Err(refuse_at(self, i, RefusalReason::WebGpuLimitation, "a texture used for comparison sampling is a WGSL depth texture, which has no biased, gradient or fractional-LOD sampling"));
        }
        let depth_ref = if compare { Some(self.read(i, &ops[4], &[0], F)?) } else { None };
        let v = self.b.expr(Expression::ImageSample {
            image: tex.expr,
            sampler,
            gather: None,
            coordinate,
            array_index,
            offset,
            level,
            depth_ref,
            clamp_to_edge: false,
        });
        let v4 = if compare || tex.depth {
            // Depth results are one float; D3D returns (d, 0, 0, 1) for a one-channel format and
            // the comparison result in every lane of a comparison.
            if compare {
                self.b.splat(v, 4)
            } else {
                let z = self.b.f32(0.0);
                let one = self.b.f32(1.0);
                let ty = self.ty(F, 4);
                self.b.compose(ty, vec![v, z, z, one])
            }
        } else {
            v
        };
        let kind = if compare { F } else { tex.kind };
        let r = self.result_swizzle(v4, &ops[2], &lanes);
        self.write(i, &ops[0], &lanes, r, kind, ins.saturate)
    }

    /// `ld` / `ld_ms`: integer texel coordinates (plus an immediate offset), the mip level in
    /// the address's `.w` (`ld`) or the sample index (`ld_ms`); zero when anything is out of
    /// bounds.
    pub(super) fn load_texel(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        if ins.opcode == Opcode::LD && ops[2].ty == OperandType::Resource {
            if let Some(tb) = self.typed_buffers.get(&(false, self.m.resource_id(&ops[2]))).copied() {
                return self.typed_buffer_load(i, tb, &ops[1], &ops[2]);
            }
        }
        let tex = self.texture(i, &ops[2])?;
        let ms = ins.opcode == Opcode::LD_MS;
        if tex.depth || tex.dim == ImageDimension::Cube || ms != tex.multi {
            return Err(refuse_at(self, i, RefusalReason::OperandUnsupported, "this load from this texture kind"));
        }
        let (coordinate, array_index) = self.coords(i, &ops[1], &tex, I)?;
        // Immediate offsets apply before the bounds test.
        let coordinate = match self.offset_expr(ins, &tex) {
            Some(off) => self.b.bin(B::Add, coordinate, off),
            None => coordinate,
        };
        let zero_i = self.b.i32(0);
        let zeros = self.b.splat(zero_i, tex.coords);
        let nonneg = self.b.bin(B::GreaterEqual, coordinate, zeros);
        let nonneg = if tex.coords == 1 {
            nonneg
        } else {
            self.b.expr(Expression::Relational { fun: naga::RelationalFunction::All, argument: nonneg })
        };
        let coordinate = self.b.bitcast(coordinate, U);
        let (level_ok, safe_level, sample) = if ms && tex.single {
            // A `texture2dms` viewing a single-sampled texture: sample 0 is level 0's texel, any
            // other index is out of range (zero).
            let s = self.read(i, &ops[3], &[0], U)?;
            let zero = self.b.u32(0);
            (self.b.bin(B::Equal, s, zero), Some(zero), None)
        } else if ms {
            let s = self.read(i, &ops[3], &[0], U)?;
            let n = self.b.expr(Expression::ImageQuery { image: tex.expr, query: naga::ImageQuery::NumSamples });
            let ok = self.b.bin(B::Less, s, n);
            let one = self.b.u32(1);
            let last = self.b.bin(B::Subtract, n, one);
            let safe = self.b.math(M::Min, &[s, last]);
            (ok, None, Some(safe))
        } else {
            let level = self.read(i, &ops[1], &[3], U)?;
            let levels = self.b.expr(Expression::ImageQuery { image: tex.expr, query: naga::ImageQuery::NumLevels });
            let ok = self.b.bin(B::Less, level, levels);
            let one = self.b.u32(1);
            let last = self.b.bin(B::Subtract, levels, one);
            (ok, Some(self.b.math(M::Min, &[level, last])), None)
        };
        let size = self
            .b
            .expr(Expression::ImageQuery { image: tex.expr, query: naga::ImageQuery::Size { level: safe_level } });
        let inside = self.b.bin(B::Less, coordinate, size);
        let inside = if tex.coords == 1 {
            inside
        } else {
            self.b.expr(Expression::Relational { fun: naga::RelationalFunction::All, argument: inside })
        };
        let inside = self.b.bin(B::LogicalAnd, inside, nonneg);
        let mut ok = self.b.bin(B::LogicalAnd, level_ok, inside);
        let one = self.b.u32(1);
        let ones = self.b.splat(one, tex.coords);
        let max_c = self.b.bin(B::Subtract, size, ones);
        let safe_c = self.b.math(M::Min, &[coordinate, max_c]);
        let safe_layer = if let Some(l) = array_index {
            let layers = self.b.expr(Expression::ImageQuery { image: tex.expr, query: naga::ImageQuery::NumLayers });
            let lok = self.b.bin(B::Less, l, layers);
            ok = self.b.bin(B::LogicalAnd, ok, lok);
            let one = self.b.u32(1);
            let last = self.b.bin(B::Subtract, layers, one);
            Some(self.b.math(M::Min, &[l, last]))
        } else {
            None
        };
        let v = self.b.expr(Expression::ImageLoad {
            image: tex.expr,
            coordinate: safe_c,
            array_index: safe_layer,
            sample,
            level: safe_level,
        });
        let ty = self.ty(tex.kind, 4);
        let zero = self.b.expr(Expression::ZeroValue(ty));
        let v = self.b.select(ok, v, zero);
        let r = self.result_swizzle(v, &ops[2], &lanes);
        self.write(i, &ops[0], &lanes, r, tex.kind, false)
    }

    /// `gather4` family: the four texels of the bilinear footprint, one channel (chosen by the
    /// sampler operand's selected component), or their comparison results.
    pub(super) fn gather(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let po = matches!(ins.opcode, Opcode::GATHER4_PO | Opcode::GATHER4_PO_C);
        let compare = ins.opcode.has(COMPARISON);
        let (res_k, smp_k) = if po { (3, 4) } else { (2, 3) };
        let tex = self.texture(i, &ops[res_k])?;
        if tex.multi || tex.d1 || tex.dim == ImageDimension::D3 {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "gather from a 1D, 3D or multisampled texture",
            ));
        }
        if tex.depth != compare {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "a texture gathered both with and without comparison",
            ));
        }
        let sampler = *self.samplers.get(&(self.m.resource_id(&ops[smp_k]), compare)).ok_or_else(|| {
            refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                format!("s{} is not a declared sampler", ops[smp_k].reg()),
            )
        })?;
        let (coordinate, array_index) = self.coords(i, &ops[1], &tex, F)?;
        // A programmable offset (`gather4_po*`) is the low 6 bits of each of the first two
        // components, as a signed value in [-32, 31]. WGSL's offsets are constant expressions
        // in [-8, 7]: an immediate offset in that range is one; any other offset moves the
        // coordinate instead (`po_shift`, the footprint the offset selects).
        let (offset, po_shift) = if po {
            let o = &ops[2];
            let constant = (o.ty == OperandType::Immediate32).then(|| {
                let sw = o.select.swizzle();
                [0, 1].map(|k| {
                    let w = if o.imm.len() == 1 { o.imm[0] } else { o.imm[sw[k] as usize] };
                    ((w as i32) << 26) >> 26
                })
            });
            match constant {
                Some(v) if v.iter().all(|c| (-8..=7).contains(c)) => {
                    let parts: Vec<E> = v.iter().map(|&c| self.b.i32(c)).collect();
                    let ty = self.ty(I, 2);
                    (Some(self.b.compose(ty, parts)), None)
                }
                Some(v) => {
                    let parts: Vec<E> = v.iter().map(|&c| self.b.i32(c)).collect();
                    let ty = self.ty(I, 2);
                    (None, Some(self.b.compose(ty, parts)))
                }
                None => {
                    let raw = self.read(i, o, &[0, 1], I)?;
                    let zero = self.b.u32(0);
                    let six = self.b.u32(6);
                    (None, Some(self.b.math(M::ExtractBits, &[raw, zero, six])))
                }
            }
        } else {
            (self.offset_expr(ins, &tex), None)
        };
        if (offset.is_some() || po_shift.is_some()) && tex.dim == ImageDimension::Cube {
            return Err(if po {
                refuse_at(
                    self,
                    i,
                    RefusalReason::OperandUnsupported,
                    "gather4_po on a cube texture (invalid in D3D: programmable offsets are for 2D textures)",
                )
            } else {
                refuse_at(self, i, RefusalReason::WebGpuLimitation, "texel offsets on cube textures")
            });
        }
        let coordinate = match po_shift {
            Some(off) => self.gather_footprint_coordinate(&tex, coordinate, off),
            None => coordinate,
        };
        let channel = match ops[smp_k].select {
            ComponentSelect::Select1(c) => c,
            ComponentSelect::Swizzle(sw) => sw[0],
            _ => 0,
        };
        if compare && channel != 0 {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::WebGpuLimitation,
                "comparison gather of a channel other than red",
            ));
        }
        let depth_ref = if compare { Some(self.read(i, &ops[smp_k + 1], &[0], F)?) } else { None };
        let gather = [
            naga::SwizzleComponent::X,
            naga::SwizzleComponent::Y,
            naga::SwizzleComponent::Z,
            naga::SwizzleComponent::W,
        ][channel as usize];
        let v = self.b.expr(Expression::ImageSample {
            image: tex.expr,
            sampler,
            gather: Some(gather),
            coordinate,
            array_index,
            offset,
            level: SampleLevel::Zero,
            depth_ref,
            clamp_to_edge: false,
        });
        let kind = if compare { F } else { tex.kind };
        let r = self.result_swizzle(v, &ops[res_k], &lanes);
        self.write(i, &ops[0], &lanes, r, kind, false)
    }

    /// The coordinate whose gather footprint is the one `coordinate` selects moved by the
    /// integer texel offset `off` (`vec2<i32>`), whatever the sampler's address modes: D3D's
    /// footprint starts at texel `base = floor(coordinate · size − 0.5) + off` of the view's
    /// most detailed mip (`size` = its width and height, which `textureGather` reads too); the
    /// result is the corner that texel shares with the next one in x and y, `(base + 1) / size`.
    /// That point is half a texel from every boundary, so the sampler's own rounding (of the
    /// division, of its fixed-point texel address) selects exactly that footprint, then applies
    /// its address mode (and comparison) to each of the four texels as for an offset of its own.
    ///
    /// The floor is D3D's on a texel boundary: when `coordinate · size − 0.5` is an integer the
    /// f32 product is exact (a half-integer), so it is not rounded across. Within D3D's subtexel
    /// precision (8 bits) of a boundary, D3D leaves the texel to the device; f32 decides. Moving
    /// the coordinate by `off / size` instead would be rounded across exact boundaries on a
    /// texture whose size is not a power of two.
    fn gather_footprint_coordinate(&mut self, tex: &Tex, coordinate: E, off: E) -> E {
        let size =
            self.b.expr(Expression::ImageQuery { image: tex.expr, query: naga::ImageQuery::Size { level: None } });
        let size = self.b.convert(size, F);
        let half = self.b.f32(0.5);
        let half = self.b.splat(half, 2);
        let texel = self.b.bin(B::Multiply, coordinate, size);
        let texel = self.b.bin(B::Subtract, texel, half);
        let base = self.b.math(M::Floor, &[texel]);
        let off = self.b.convert(off, F);
        let base = self.b.bin(B::Add, base, off);
        let one = self.b.f32(1.0);
        let one = self.b.splat(one, 2);
        let corner = self.b.bin(B::Add, base, one);
        self.b.bin(B::Divide, corner, size)
    }

    /// The sample count `sampleinfo` and `samplepos` read from operand `op`: a texture's
    /// (`textureNumSamples`, 1 when it is not multisampled or views a single-sampled texture),
    /// or the rasterizer's, the pipeline's sample count as the pipeline-overridable constant
    /// [`crate::PipelineConstant::RasterizerSampleCount`] (a pixel shader's only; not yet behind a
    /// geometry shader, whose draw the primitive stage's runtime creates).
    fn sample_count_of(&mut self, i: usize, op: &Operand) -> R<E> {
        if op.ty == OperandType::Rasterizer {
            if self.m.version.stage != ShaderStage::Pixel || self.behind_geometry {
                return Err(refuse_at(
                    self,
                    i,
                    RefusalReason::WebGpuLimitation,
                    "the rasterizer's sample count is a pipeline constant of a pixel shader's own render pipeline \
                     (not yet behind a geometry shader)",
                ));
            }
            return Ok(self.pipeline_constant(crate::PipelineConstant::RasterizerSampleCount));
        }
        if op.ty != OperandType::Resource {
            return Err(refuse_at(
                self,
                i,
                RefusalReason::OperandUnsupported,
                "sample count of a non-resource operand",
            ));
        }
        let tex = self.texture(i, op)?;
        Ok(if tex.multi && !tex.single {
            self.b.expr(Expression::ImageQuery { image: tex.expr, query: naga::ImageQuery::NumSamples })
        } else {
            self.b.u32(1)
        })
    }

    /// `samplepos`: `(x, y, 0, 0)`, the position of sample `src1` (uint) relative to the pixel
    /// centre in a resource or the rasterizer of that many samples, a zero vector for an index
    /// out of range ("samplepos (sm4.1 - asm)"). WebGPU fixes the sample positions of the counts
    /// it has (WebGPU spec, "Rasterization": count 1 the centre, count 4 D3D's standard
    /// pattern `(-2,-6), (6,-2), (-6,2), (2,6)` / 16); a count WebGPU lacks reads zeros.
    pub(super) fn sample_pos(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let count = self.sample_count_of(i, &ops[1])?;
        let index = self.read(i, &ops[2], &[0], U)?;
        let (four, zero_f) = (self.b.u32(4), self.b.f32(0.0));
        let is4 = self.b.bin(B::Equal, count, four);
        let in_range = self.b.bin(B::Less, index, four);
        let valid = self.b.bin(B::LogicalAnd, is4, in_range);
        // D3D11.3's 4-sample standard pattern, in 1/16 pixel: x (-2, 6, -6, 2), y (-6, -2, 2, 6).
        let pick = |cx: &mut Self, values: [f32; 4]| {
            let mut v = cx.b.f32(values[0] / 16.0);
            for (k, &value) in values.iter().enumerate().skip(1) {
                let kk = cx.b.u32(k as u32);
                let at = cx.b.bin(B::Equal, index, kk);
                let x = cx.b.f32(value / 16.0);
                v = cx.b.select(at, x, v);
            }
            cx.b.select(valid, v, zero_f)
        };
        let x = pick(self, [-2.0, 6.0, -6.0, 2.0]);
        let y = pick(self, [-6.0, -2.0, 2.0, 6.0]);
        let ty = self.ty(F, 4);
        let v = self.b.compose(ty, vec![x, y, zero_f, zero_f]);
        let r = self.result_swizzle(v, &ops[1], &lanes);
        self.write(i, &ops[0], &lanes, r, F, ins.saturate)
    }

    /// `sampleinfo`: the sample count of a texture or of the rasterizer in `.x` (uint with
    /// `_uint`, else float), zero in the other components; 1 for a texture that is not
    /// multisampled.
    pub(super) fn sample_info(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        let n = self.sample_count_of(i, &ops[1])?;
        let zero = self.b.u32(0);
        let ty = self.ty(U, 4);
        let v = self.b.compose(ty, vec![n, zero, zero, zero]);
        let (v, kind) = if ins.control & 1 != 0 { (v, U) } else { (self.b.convert(v, F), F) };
        let r = self.result_swizzle(v, &ops[1], &lanes);
        self.write(i, &ops[0], &lanes, r, kind, ins.saturate)
    }

    /// `resinfo`: (width, height, depth or array size, mip count) of mip `src0`; zero for the
    /// size of a missing mip, the mip count always.
    pub(super) fn resinfo(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let lanes = mask_lanes(ops[0].select.mask());
        // (image, D3D's size components, WGSL's, arrayed, has mip levels): a UAV view is one mip
        // level (resinfo (sm4 - asm): "for UAVs (u#), the number of mip levels is always 1"). A
        // D3D 1D texture (2D of height 1 here) has the width alone, the array size in `.y`.
        let (image, dims, width, arrayed, mipped) = if ops[2].ty == OperandType::UnorderedAccessView {
            let id = self.m.resource_id(&ops[2]);
            let st = *self.storage_textures.get(&id).ok_or_else(|| {
                refuse_at(self, i, RefusalReason::OperandUnsupported, format!("u{id} is not a typed UAV texture"))
            })?;
            (st.expr, st.d3d_coords() as u32, st.coords as u32, st.arrayed, false)
        } else {
            let tex = self.texture(i, &ops[2])?;
            let width = match tex.dim {
                ImageDimension::D1 => 1,
                ImageDimension::D2 | ImageDimension::Cube => 2,
                ImageDimension::D3 => 3,
            };
            (tex.expr, if tex.d1 { 1 } else { width }, width, tex.arrayed, !tex.multi)
        };
        let level = self.read(i, &ops[1], &[0], U)?;
        let levels = if mipped {
            self.b.expr(Expression::ImageQuery { image, query: naga::ImageQuery::NumLevels })
        } else {
            self.b.u32(1)
        };
        let ok = self.b.bin(B::Less, level, levels);
        let one = self.b.u32(1);
        let last = self.b.bin(B::Subtract, levels, one);
        let safe = self.b.math(M::Min, &[level, last]);
        let size = self
            .b
            .expr(Expression::ImageQuery { image, query: naga::ImageQuery::Size { level: mipped.then_some(safe) } });
        let zero = self.b.u32(0);
        let mut c = Vec::new();
        for k in 0..dims {
            c.push(if width == 1 { size } else { self.b.comp(size, k) });
        }
        if arrayed {
            let layers = self.b.expr(Expression::ImageQuery { image, query: naga::ImageQuery::NumLayers });
            c.push(layers);
        }
        while c.len() < 3 {
            c.push(zero);
        }
        let ty3 = self.ty(U, 3);
        let xyz = self.b.compose(ty3, c);
        let z3 = self.b.splat(zero, 3);
        let xyz = self.b.select(ok, xyz, z3);
        let ty4 = self.ty(U, 4);
        let x = self.b.comp(xyz, 0);
        let y = self.b.comp(xyz, 1);
        let z = self.b.comp(xyz, 2);
        let v = self.b.compose(ty4, vec![x, y, z, levels]);
        let (v, kind) = match ins.control & 3 {
            2 => (v, U),
            mode => {
                let f = self.b.convert(v, F);
                if mode == 1 {
                    // rcpFloat: reciprocals of the sizes (INF for a missing mip's zero sizes); the
                    // array size, the components D3D sets to 0 and the mip count stay (resinfo
                    // (sm4 - asm)).
                    let one = self.b.f32(1.0);
                    let ty = self.ty(F, 4);
                    let mut comps = Vec::new();
                    for k in 0..4 {
                        let x = self.b.comp(f, k);
                        comps.push(if k < dims { self.b.bin(B::Divide, one, x) } else { x });
                    }
                    (self.b.compose(ty, comps), F)
                } else {
                    (f, F)
                }
            }
        };
        let r = self.result_swizzle(v, &ops[2], &lanes);
        self.write(i, &ops[0], &lanes, r, kind, ins.saturate)
    }
}
