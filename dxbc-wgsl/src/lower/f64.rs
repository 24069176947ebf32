//! Double precision. WGSL has no `f64`: a double stays what it is in a D3D register, two 32-bit
//! lanes (low word in `x`/`z`, high word in `y`/`w`), and SM5's double instructions become calls
//! of WGSL helpers (`f64.wgsl`) that compute on `vec2<u32>(low, high)` with integer arithmetic,
//! exactly: IEEE-754 round-to-nearest-even, denormals honoured (docs/compatibility.md, "Doubles").
//!
//! A shader that uses doubles is lowered into the parsed helper library instead of an empty
//! module; the functions it does not call are removed afterwards ([`prune_functions`]).

use super::{refuse_at, Cx};
use crate::refusal::{RefusalReason, TranslateError};
use crate::sm4::{Modifier, Opcode, Operand, OperandType};
use naga::{BinaryOperator as B, Expression, Function, Handle, ScalarKind, Statement};
use std::sync::OnceLock;

type R<T> = Result<T, TranslateError>;
type E = Handle<Expression>;

const U: ScalarKind = ScalarKind::Uint;

/// The helper library's WGSL source.
pub const F64_WGSL: &str = include_str!("f64.wgsl");

/// The helper library parsed (once).
pub(crate) fn library() -> R<&'static naga::Module> {
    static LIBRARY: OnceLock<Result<naga::Module, String>> = OnceLock::new();
    LIBRARY
        .get_or_init(|| naga::front::wgsl::parse_str(F64_WGSL).map_err(|e| e.emit_to_string(F64_WGSL)))
        .as_ref()
        .map_err(|e| TranslateError::Internal(format!("f64.wgsl does not parse: {e}")))
}

/// Whether a program uses double-precision instructions.
pub(crate) fn uses_doubles(m: &crate::ir::Module<'_>) -> bool {
    m.program.instructions.iter().any(|ins| ins.opcode.is_double())
}

/// Removes the functions no entry point reaches (the helpers a shader does not call), keeping
/// the others in their order.
pub(crate) fn prune_functions(module: &mut naga::Module) {
    fn calls(block: &naga::Block, out: &mut Vec<Handle<Function>>) {
        for s in block.iter() {
            match s {
                Statement::Call { function, .. } => out.push(*function),
                Statement::Block(b) => calls(b, out),
                Statement::If { accept, reject, .. } => {
                    calls(accept, out);
                    calls(reject, out);
                }
                Statement::Switch { cases, .. } => cases.iter().for_each(|c| calls(&c.body, out)),
                Statement::Loop { body, continuing, .. } => {
                    calls(body, out);
                    calls(continuing, out);
                }
                _ => {}
            }
        }
    }
    fn remap(block: &mut naga::Block, map: &[Option<Handle<Function>>]) {
        for s in block.iter_mut() {
            match s {
                Statement::Call { function, .. } => *function = map[function.index()].expect("reachable"),
                Statement::Block(b) => remap(b, map),
                Statement::If { accept, reject, .. } => {
                    remap(accept, map);
                    remap(reject, map);
                }
                Statement::Switch { cases, .. } => cases.iter_mut().for_each(|c| remap(&mut c.body, map)),
                Statement::Loop { body, continuing, .. } => {
                    remap(body, map);
                    remap(continuing, map);
                }
                _ => {}
            }
        }
    }
    fn remap_function(f: &mut Function, map: &[Option<Handle<Function>>]) {
        for (_, e) in f.expressions.iter_mut() {
            if let Expression::CallResult(h) = e {
                *h = map[h.index()].expect("reachable");
            }
        }
        remap(&mut f.body, map);
    }
    let n = module.functions.len();
    let mut used = vec![false; n];
    let mut pending = Vec::new();
    for ep in &module.entry_points {
        calls(&ep.function.body, &mut pending);
    }
    while let Some(h) = pending.pop() {
        if !std::mem::replace(&mut used[h.index()], true) {
            calls(&module.functions[h].body, &mut pending);
        }
    }
    let mut map = vec![None; n];
    let mut kept = naga::Arena::new();
    for (h, f, span) in module.functions.drain() {
        if used[h.index()] {
            map[h.index()] = Some(kept.append(f, span));
        }
    }
    for (_, f) in kept.iter_mut() {
        remap_function(f, &map);
    }
    for ep in &mut module.entry_points {
        remap_function(&mut ep.function, &map);
    }
    module.functions = kept;
}

impl Cx<'_, '_> {
    /// Calls a helper of the library; returns its result.
    fn call_helper(&mut self, name: &str, arguments: Vec<E>) -> R<E> {
        self.call_library(name, arguments)
    }

    /// `v` with `bits` applied to its high word (`op` = and, or, xor).
    fn high_word_op(&mut self, v: E, op: B, bits: u32) -> E {
        let lo = self.b.comp(v, 0);
        let hi = self.b.comp(v, 1);
        let m = self.b.u32(bits);
        let hi = self.b.bin(op, hi, m);
        let ty = self.ty(U, 2);
        self.b.compose(ty, vec![lo, hi])
    }

    /// A source modifier on a sign bit: of the high word of a double, or of a float32's bits.
    fn sign_modifier(&mut self, v: E, modifier: Modifier, double: bool) -> E {
        let (op, bits) = match modifier {
            Modifier::None => return v,
            Modifier::Neg => (B::ExclusiveOr, 0x8000_0000),
            Modifier::Abs => (B::And, 0x7fff_ffff),
            Modifier::AbsNeg => (B::InclusiveOr, 0x8000_0000),
        };
        if double {
            self.high_word_op(v, op, bits)
        } else {
            let m = self.b.u32(bits);
            self.b.bin(op, v, m)
        }
    }

    /// The `k`-th double of a source (0: its swizzle's `xy`, 1: its `zw`) as `vec2<u32>`, with
    /// the source modifier applied to the sign bit.
    fn read_double(&mut self, i: usize, op: &Operand, k: u8) -> R<E> {
        let v = self.read_raw(i, op, &[2 * k, 2 * k + 1], U)?;
        Ok(self.sign_modifier(v, op.modifier, true))
    }

    /// Lowers a double-precision instruction. Double destinations are `.xy` (the first double),
    /// `.zw` (the second) or both; a double's 32-bit sources (`ftod`, `itod`, `utod`, `dmovc`'s
    /// condition) take their swizzle's component 0 for the first double and 1 for the second. A
    /// 32-bit destination (`dtof`, `dtoi`, `dtou`, comparisons) of one or two components gets the
    /// first double's result in its first component, the second's in its second (`ir::build`
    /// checks the masks).
    pub(crate) fn double_op(&mut self, i: usize) -> R<()> {
        let ins = self.m.ins(i);
        let ops = &ins.operands;
        let info = ins.opcode.info().ok_or_else(|| TranslateError::Internal("double opcode without a row".into()))?;
        let dst = &ops[0];
        if dst.ty == OperandType::Null {
            return Ok(());
        }
        let mask = dst.select.mask();
        let lanes: Vec<u8> = (0..4u8).filter(|c| mask & (1 << c) != 0).collect();
        let binary = |op: Opcode| match op {
            Opcode::DADD => Some("f64_add"),
            Opcode::DMUL => Some("f64_mul"),
            Opcode::DDIV => Some("f64_div"),
            Opcode::DMIN => Some("f64_min"),
            Opcode::DMAX => Some("f64_max"),
            Opcode::DEQ => Some("f64_eq"),
            Opcode::DNE => Some("f64_ne"),
            Opcode::DLT => Some("f64_lt"),
            Opcode::DGE => Some("f64_ge"),
            _ => None,
        };
        if info.dst.starts_with('d') {
            let mut results = Vec::new();
            for k in [0u8, 1] {
                if mask & (0b11 << (2 * k)) == 0 {
                    continue;
                }
                let v = match ins.opcode {
                    op if binary(op).is_some() => {
                        let a = self.read_double(i, &ops[1], k)?;
                        let b = self.read_double(i, &ops[2], k)?;
                        self.call_helper(binary(op).unwrap_or_default(), vec![a, b])?
                    }
                    Opcode::DFMA => {
                        let a = self.read_double(i, &ops[1], k)?;
                        let b = self.read_double(i, &ops[2], k)?;
                        let c = self.read_double(i, &ops[3], k)?;
                        self.call_helper("f64_fma", vec![a, b, c])?
                    }
                    Opcode::DRCP => {
                        let a = self.read_double(i, &ops[1], k)?;
                        self.call_helper("f64_rcp", vec![a])?
                    }
                    Opcode::DMOV => self.read_double(i, &ops[1], k)?,
                    Opcode::DMOVC => {
                        let c = self.read(i, &ops[1], &[k], U)?;
                        let z = self.b.u32(0);
                        let cond = self.b.bin(B::NotEqual, c, z);
                        let a = self.read_double(i, &ops[2], k)?;
                        let b = self.read_double(i, &ops[3], k)?;
                        self.b.select(cond, a, b)
                    }
                    Opcode::FTOD => {
                        let f = self.read_raw(i, &ops[1], &[k], U)?;
                        let f = self.sign_modifier(f, ops[1].modifier, false);
                        self.call_helper("f64_from_float", vec![f])?
                    }
                    Opcode::ITOD | Opcode::UTOD => {
                        let x = self.read(i, &ops[1], &[k], U)?;
                        self.call_helper(
                            if ins.opcode == Opcode::ITOD { "f64_from_int" } else { "f64_from_uint" },
                            vec![x],
                        )?
                    }
                    other => {
                        return Err(refuse_at(
                            self,
                            i,
                            RefusalReason::Float64,
                            format!("`{}` is not translated", other.name()),
                        ))
                    }
                };
                let v = if ins.saturate { self.call_helper("f64_saturate", vec![v])? } else { v };
                results.push(v);
            }
            let value = match results[..] {
                [one] => one,
                [first, second] => {
                    let parts = vec![
                        self.b.comp(first, 0),
                        self.b.comp(first, 1),
                        self.b.comp(second, 0),
                        self.b.comp(second, 1),
                    ];
                    let ty = self.ty(U, 4);
                    self.b.compose(ty, parts)
                }
                _ => return Err(TranslateError::Internal("double destination without a double".into())),
            };
            return self.write(i, dst, &lanes, value, U, false);
        }
        let mut results = Vec::new();
        for j in 0..lanes.len() as u8 {
            let v = match ins.opcode {
                op if binary(op).is_some() => {
                    let a = self.read_double(i, &ops[1], j)?;
                    let b = self.read_double(i, &ops[2], j)?;
                    self.call_helper(binary(op).unwrap_or_default(), vec![a, b])?
                }
                Opcode::DTOF | Opcode::DTOI | Opcode::DTOU => {
                    let a = self.read_double(i, &ops[1], j)?;
                    let name = match ins.opcode {
                        Opcode::DTOF => "f64_to_float",
                        Opcode::DTOI => "f64_to_int",
                        _ => "f64_to_uint",
                    };
                    self.call_helper(name, vec![a])?
                }
                other => {
                    return Err(refuse_at(
                        self,
                        i,
                        RefusalReason::Float64,
                        format!("`{}` is not translated", other.name()),
                    ))
                }
            };
            results.push(v);
        }
        let ty = self.ty(U, results.len());
        let value = self.b.compose(ty, results);
        if ins.opcode == Opcode::DTOF && ins.saturate {
            // A float32 result: `_sat` as for any float instruction.
            let f = self.b.bitcast(value, ScalarKind::Float);
            return self.write(i, dst, &lanes, f, ScalarKind::Float, true);
        }
        // `_sat` on an integer or comparison result does nothing, as for the 32-bit instructions.
        self.write(i, dst, &lanes, value, U, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library parses and validates as WebGPU core WGSL, and every function the lowering calls
    /// exists.
    #[test]
    fn library_parses_validates_and_has_every_called_helper() {
        let module = library().expect("f64.wgsl parses");
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty())
            .validate(module)
            .expect("f64.wgsl validates");
        let names: Vec<&str> = module.functions.iter().filter_map(|(_, f)| f.name.as_deref()).collect();
        let called = include_str!("f64.rs").split('"').filter(|s| {
            s.len() > 4 && s.starts_with("f64_") && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        let mut n = 0;
        for name in called {
            assert!(names.contains(&name), "the lowering calls `{name}`, which f64.wgsl lacks");
            n += 1;
        }
        assert!(n >= 18, "found only {n} helper names in f64.rs");
    }

    /// Pruning keeps what an entry point reaches (transitively) and drops the rest.
    #[test]
    fn prune_keeps_reachable_functions_only() {
        let mut module = naga::front::wgsl::parse_str(
            "fn leaf() -> u32 { return 1u; }\n\
             fn unused() -> u32 { return leaf(); }\n\
             fn mid() -> u32 { return leaf() + 1u; }\n\
             @fragment fn main() -> @location(0) vec4<u32> { return vec4<u32>(mid()); }",
        )
        .expect("parses");
        prune_functions(&mut module);
        let names: Vec<&str> = module.functions.iter().filter_map(|(_, f)| f.name.as_deref()).collect();
        assert_eq!(names, ["leaf", "mid"]);
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty())
            .validate(&module)
            .expect("the pruned module validates");
    }
}
