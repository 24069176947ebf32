//! A small builder over naga's function IR: it appends expressions, covers them with `Emit`
//! statements as naga requires, and keeps a stack of blocks for structured control flow.

use naga::{
    BinaryOperator, Block, Expression, Function, Handle, Literal, MathFunction, Range, Scalar, ScalarKind, Span,
    Statement, SwizzleComponent, Type, TypeInner, UniqueArena, VectorSize,
};

/// Builds one naga function.
pub struct FnBuilder {
    /// The function under construction.
    pub f: Function,
    blocks: Vec<Block>,
    emit: Option<(Handle<Expression>, Handle<Expression>)>,
    /// Private globals holding non-finite float bits (created by the module owner).
    pub nonfinite_globals: Vec<(u32, Handle<naga::GlobalVariable>)>,
}

const SW: [SwizzleComponent; 4] = [SwizzleComponent::X, SwizzleComponent::Y, SwizzleComponent::Z, SwizzleComponent::W];

/// `VectorSize` for 2–4 components.
pub fn vsize(n: usize) -> VectorSize {
    match n {
        2 => VectorSize::Bi,
        3 => VectorSize::Tri,
        _ => VectorSize::Quad,
    }
}

/// Scalar of a kind, 32-bit.
pub fn scalar(kind: ScalarKind) -> Scalar {
    Scalar { kind, width: 4 }
}

/// Type handle for a scalar or vector of `n` components.
pub fn ty_vec(types: &mut UniqueArena<Type>, kind: ScalarKind, n: usize) -> Handle<Type> {
    let inner = if n == 1 {
        TypeInner::Scalar(scalar(kind))
    } else {
        TypeInner::Vector { size: vsize(n), scalar: scalar(kind) }
    };
    types.insert(Type { name: None, inner }, Span::UNDEFINED)
}

impl FnBuilder {
    /// A new, empty function.
    pub fn new(name: &str) -> Self {
        FnBuilder {
            f: Function { name: Some(name.to_string()), ..Default::default() },
            blocks: vec![Block::new()],
            emit: None,
            nonfinite_globals: Vec::new(),
        }
    }

    fn flush(&mut self) {
        if let Some((first, last)) = self.emit.take() {
            self.blocks
                .last_mut()
                .expect("block")
                .push(Statement::Emit(Range::new_from_bounds(first, last)), Span::UNDEFINED);
        }
    }

    /// Appends an expression (emitting it when naga requires).
    pub fn expr(&mut self, e: Expression) -> Handle<Expression> {
        if e.needs_pre_emit() {
            self.flush();
            return self.f.expressions.append(e, Span::UNDEFINED);
        }
        let h = self.f.expressions.append(e, Span::UNDEFINED);
        self.emit = Some(match self.emit {
            Some((first, _)) => (first, h),
            None => (h, h),
        });
        h
    }

    /// Appends the result expression of a statement (`AtomicResult`, `CallResult`): never
    /// covered by `Emit`.
    pub fn result_expr(&mut self, e: Expression) -> Handle<Expression> {
        self.flush();
        self.f.expressions.append(e, Span::UNDEFINED)
    }

    /// Appends a statement to the current block.
    pub fn stmt(&mut self, s: Statement) {
        self.flush();
        self.blocks.last_mut().expect("block").push(s, Span::UNDEFINED);
    }

    /// Opens a nested block.
    pub fn open(&mut self) {
        self.flush();
        self.blocks.push(Block::new());
    }

    /// Closes the innermost block and returns it.
    pub fn close(&mut self) -> Block {
        self.flush();
        self.blocks.pop().expect("open block")
    }

    /// Finishes the function.
    pub fn finish(mut self) -> Function {
        self.flush();
        debug_assert_eq!(self.blocks.len(), 1);
        self.f.body = self.blocks.pop().expect("body");
        self.f
    }

    // ---- small helpers ----

    /// A 32-bit immediate as a runtime `u32` (a load from a private global), so that expressions
    /// built on it are not constant expressions WGSL compilers evaluate (and reject on an
    /// infinity, a NaN or a division by zero).
    pub fn runtime_word(&mut self, bits: u32) -> Handle<Expression> {
        if let Some(&(_, g)) = self.nonfinite_globals.iter().find(|(b, _)| *b == bits) {
            let p = self.expr(Expression::GlobalVariable(g));
            return self.load(p);
        }
        // The owner declares a global for every such immediate of the program up front.
        self.u32(bits)
    }

    /// `u32` literal.
    pub fn u32(&mut self, v: u32) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::U32(v)))
    }
    /// `i32` literal.
    pub fn i32(&mut self, v: i32) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::I32(v)))
    }
    /// `f32` literal.
    pub fn f32(&mut self, v: f32) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::F32(v)))
    }
    /// Literal of a kind from raw bits. Denormal floats and ±`f32::MAX` are written as
    /// `bitcast<f32>(bits)` (the shortest decimal of `f32::MAX`, `3.4028235e38`, which naga
    /// writes, lies past it: Tint rejects the literal as not representable); infinities and
    /// NaNs must not be constant expressions in WGSL (their evaluation is a shader-creation
    /// error), so they are read through `nonfinite` — a module-scope `var<private>` holding the
    /// bits — which the caller supplies for them.
    pub fn lit_bits(&mut self, kind: ScalarKind, bits: u32) -> Handle<Expression> {
        match kind {
            ScalarKind::Float => {
                let v = f32::from_bits(bits);
                if v.is_finite() && (v == 0.0 || v.is_normal()) && v.abs() != f32::MAX {
                    self.f32(v)
                } else if v.is_finite() {
                    let u = self.u32(bits);
                    self.expr(Expression::As { expr: u, kind: ScalarKind::Float, convert: None })
                } else {
                    let u = self.runtime_word(bits);
                    self.expr(Expression::As { expr: u, kind: ScalarKind::Float, convert: None })
                }
            }
            ScalarKind::Sint => self.i32(bits as i32),
            _ => self.u32(bits),
        }
    }
    /// `vecN(x)` (or `x` when n = 1).
    pub fn splat(&mut self, x: Handle<Expression>, n: usize) -> Handle<Expression> {
        if n == 1 {
            x
        } else {
            self.expr(Expression::Splat { size: vsize(n), value: x })
        }
    }
    /// Component `i` of a vector.
    pub fn comp(&mut self, v: Handle<Expression>, i: u32) -> Handle<Expression> {
        self.expr(Expression::AccessIndex { base: v, index: i })
    }
    /// Swizzle `v` (a vec4 or smaller) to the listed components (1–4); a single component is an
    /// access.
    pub fn swizzle(&mut self, v: Handle<Expression>, comps: &[u8]) -> Handle<Expression> {
        if comps.len() == 1 {
            return self.comp(v, comps[0] as u32);
        }
        let mut pattern = [SwizzleComponent::X; 4];
        for (k, &c) in comps.iter().enumerate() {
            pattern[k] = SW[c as usize];
        }
        self.expr(Expression::Swizzle { size: vsize(comps.len()), vector: v, pattern })
    }
    /// Bit-preserving reinterpretation (`bitcast`).
    pub fn bitcast(&mut self, v: Handle<Expression>, to: ScalarKind) -> Handle<Expression> {
        self.expr(Expression::As { expr: v, kind: to, convert: None })
    }
    /// Value conversion (`f32(x)`, `u32(x)`...).
    pub fn convert(&mut self, v: Handle<Expression>, to: ScalarKind) -> Handle<Expression> {
        self.expr(Expression::As { expr: v, kind: to, convert: Some(4) })
    }
    /// Binary operation.
    pub fn bin(&mut self, op: BinaryOperator, a: Handle<Expression>, b: Handle<Expression>) -> Handle<Expression> {
        self.expr(Expression::Binary { op, left: a, right: b })
    }
    /// Math function of up to four arguments.
    pub fn math(&mut self, fun: MathFunction, args: &[Handle<Expression>]) -> Handle<Expression> {
        self.expr(Expression::Math {
            fun,
            arg: args[0],
            arg1: args.get(1).copied(),
            arg2: args.get(2).copied(),
            arg3: args.get(3).copied(),
        })
    }
    /// `select(reject, accept, cond)`.
    pub fn select(
        &mut self,
        cond: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Handle<Expression> {
        self.expr(Expression::Select { condition: cond, accept, reject })
    }
    /// Vector constructor.
    pub fn compose(&mut self, ty: Handle<Type>, parts: Vec<Handle<Expression>>) -> Handle<Expression> {
        if parts.len() == 1 {
            return parts[0];
        }
        self.expr(Expression::Compose { ty, components: parts })
    }
    /// `load(ptr)`.
    pub fn load(&mut self, ptr: Handle<Expression>) -> Handle<Expression> {
        self.expr(Expression::Load { pointer: ptr })
    }
    /// `*ptr = v`.
    pub fn store(&mut self, ptr: Handle<Expression>, v: Handle<Expression>) {
        self.stmt(Statement::Store { pointer: ptr, value: v });
    }
}
