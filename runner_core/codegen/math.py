"""math dialect: each function reaches an LLVM intrinsic, libm or a target library.

Which of the three is the target's choice (:meth:`TargetDescription.math_function`),
so the same lowering serves the host (intrinsics + libm), CPU kernels and
NVPTX (libdevice).  Types narrower than f32 are computed in f32 when the
implementation is a C function, as upstream's libm lowering does.
"""

from __future__ import annotations

import llvmlite.ir as ir

from .context import LoweringContext
from .elementwise import map_nd, scalar_of, scalarize
from .registry import Registry
from .types import I1

registry = Registry()
lowering = registry.lowering

_FLOAT_FUNCS = {
    "math.sqrt": "sqrt", "math.sin": "sin", "math.cos": "cos", "math.tan": "tan",
    "math.exp": "exp", "math.exp2": "exp2", "math.log": "log", "math.log2": "log2",
    "math.log10": "log10", "math.absf": "fabs", "math.ceil": "ceil", "math.floor": "floor",
    "math.round": "round", "math.roundeven": "roundeven", "math.trunc": "trunc",
    "math.powf": "pow", "math.copysign": "copysign", "math.atan": "atan",
    "math.atan2": "atan2", "math.acos": "acos", "math.asin": "asin", "math.sinh": "sinh",
    "math.cosh": "cosh", "math.tanh": "tanh", "math.asinh": "asinh", "math.acosh": "acosh",
    "math.atanh": "atanh", "math.erf": "erf", "math.erfc": "erfc", "math.cbrt": "cbrt",
    "math.expm1": "expm1", "math.log1p": "log1p",
}


def call_math(ctx: LoweringContext, base: str, args: list[ir.Value], op=None) -> ir.Value:
    """Compute float math function ``base`` on lowered (scalar or vector) ``args``."""
    bld = ctx.builder
    t = args[0].type
    s = scalar_of(t)
    bits = {ir.HalfType: 16, ir.FloatType: 32, ir.DoubleType: 64}.get(type(s), 16)
    if not ctx.target.has_math_function(base):
        raise ctx.unsupported(op, f"math function '{base}' on target '{ctx.target.name}'")
    kind, sym = ctx.target.math_function(base, max(bits, 32) if bits == 16 else bits)
    if kind == "intrinsic":
        return map_nd(bld, lambda *xs: ctx.intrinsic(sym, xs[0].type, list(xs), [xs[0].type]),
                      *args)

    def scalar_call(*xs):
        st = xs[0].type
        if bits == 16:
            xs = [bld.fpext(x, ir.FloatType()) for x in xs]
        r = ctx.call(sym, xs[0].type, list(xs))
        return bld.fptrunc(r, st) if bits == 16 else r

    return scalarize(bld, scalar_call, *args)


def _float_func(base: str):
    def lower(ctx: LoweringContext, op) -> None:
        ctx.set_results(op, [call_math(ctx, base, ctx.get_all(op.operands), op)])

    return lower


for _name, _base in _FLOAT_FUNCS.items():
    lowering(_name)(_float_func(_base))


def narrow_fma(ctx: LoweringContext, args: list[ir.Value]) -> ir.Value | None:
    """f16 / bf16 fma on the CPU as LLVM 22 legalizes it on x86 without native half
    arithmetic: the fma in f64 (exact product and sum of half operands, one rounding),
    then rounded to the narrow type, which LLVM does with __truncdfhf2, a compiler
    runtime function a JIT-ed module cannot count on (arith's correct rounding here).
    None where the fma needs none of this (other types, or a GPU)."""
    s = scalar_of(args[0].type)
    if ctx.target.name == "nvptx" or not (isinstance(s, ir.HalfType) or str(s) == "bfloat"):
        return None
    from .arith import fptrunc_via_f32

    bld = ctx.builder
    d = ir.DoubleType()

    def one(a, b, c):
        wide = [bld.fpext(v, d) for v in (a, b, c)]
        return fptrunc_via_f32(ctx, ctx.intrinsic("llvm.fma", d, wide, [d]), a.type)

    return scalarize(bld, one, *args)


@lowering("math.fma")
def _fma(ctx: LoweringContext, op) -> None:
    args = ctx.get_all(op.operands)
    narrow = narrow_fma(ctx, args)
    ctx.set_results(op, [narrow if narrow is not None else call_math(ctx, "fma", args, op)])


def _one_like(t: ir.Type) -> ir.Constant:
    s = scalar_of(t)
    if isinstance(t, ir.VectorType):
        return ir.Constant(t, [ir.Constant(s, 1.0)] * t.count)
    return ir.Constant(s, 1.0)


@lowering("math.rsqrt")
def _rsqrt(ctx, op):
    (a,) = ctx.get_all(op.operands)
    bld = ctx.builder
    root = call_math(ctx, "sqrt", [a], op)
    ctx.set_results(op, [map_nd(bld, lambda r: bld.fdiv(_one_like(r.type), r), root)])


def _bit_intrinsic(name: str, with_flag: bool):
    def lower(ctx: LoweringContext, op) -> None:
        (a,) = ctx.get_all(op.operands)

        def f(x):
            args = [x] + ([ir.Constant(I1, 0)] if with_flag else [])
            return ctx.intrinsic(name, x.type, args, [x.type])

        ctx.set_results(op, [map_nd(ctx.builder, f, a)])

    return lower


lowering("math.absi")(_bit_intrinsic("llvm.abs", True))
lowering("math.ctlz")(_bit_intrinsic("llvm.ctlz", True))
lowering("math.cttz")(_bit_intrinsic("llvm.cttz", True))
lowering("math.ctpop")(_bit_intrinsic("llvm.ctpop", False))


@lowering("math.fpowi")
def _fpowi(ctx, op):
    base, exp = ctx.get_all(op.operands)
    bld = ctx.builder
    ctx.set_results(op, [scalarize(bld, lambda x, e: _fpow_scalar(ctx, x, e), base, exp)])


def _fpow_scalar(ctx: LoweringContext, x: ir.Value, e: ir.Value) -> ir.Value:
    """x ** e by squaring, 1 / x ** |e| for e < 0: compiler-rt's __powidf2 (what
    llvm.powi calls on the host, absent from a JIT) and convert-math-to-funcs."""
    bld = ctx.builder
    t, it = x.type, e.type
    one = ir.Constant(t, 1.0)
    pre = bld.block
    loop, step, done = ctx.new_block("powi.loop"), ctx.new_block("powi.step"), \
        ctx.new_block("powi.done")
    bld.branch(loop)
    bld.position_at_end(loop)
    acc, b_, n = bld.phi(t), bld.phi(t), bld.phi(it)
    acc.add_incoming(one, pre)
    b_.add_incoming(x, pre)
    n.add_incoming(e, pre)
    acc2 = bld.select(bld.trunc(n, I1), bld.fmul(acc, b_), acc)
    n2 = bld.sdiv(n, ir.Constant(it, 2))  # toward zero, as C's b /= 2
    bld.cbranch(bld.icmp_signed("==", n2, ir.Constant(it, 0)), done, step)
    bld.position_at_end(step)
    acc.add_incoming(acc2, step)
    b_.add_incoming(bld.fmul(b_, b_), step)
    n.add_incoming(n2, step)
    bld.branch(loop)
    bld.position_at_end(done)
    neg = bld.icmp_signed("<", e, ir.Constant(it, 0))
    return bld.select(neg, bld.fdiv(one, acc2), acc2)


@lowering("math.ipowi")
def _ipowi(ctx, op):
    if _recorded(op, "convert-math-to-funcs"):
        # LLVM 22's expansion computes a negative power as 1 / base**-exp: 0 ** -1
        # divides by zero (UB; 1 at -O3 where a correct expansion gives 0).
        raise ctx.unsupported(op, "'math.ipowi' after convert-math-to-funcs (LLVM 22's "
                                  "expansion divides by zero for a zero base and negative "
                                  "exponent, which the runner does not reproduce)")
    base, exp = ctx.get_all(op.operands)
    bld = ctx.builder
    ctx.set_results(op, [scalarize(bld, lambda x, e: _ipow_scalar(ctx, x, e), base, exp)])


def _ipow_scalar(ctx: LoweringContext, x: ir.Value, e: ir.Value) -> ir.Value:
    """Integer power by squaring; negative exponents give 0 except for bases 1 and -1."""
    bld = ctx.builder
    t = x.type
    zero, one, minus1 = ir.Constant(t, 0), ir.Constant(t, 1), ir.Constant(t, -1)
    pre = bld.block
    loop = ctx.new_block("ipow.loop")
    body_done = ctx.new_block("ipow.done")
    neg = bld.icmp_signed("<", e, zero)
    # Negative exponent result, computed up front.
    is_one = bld.icmp_signed("==", x, one)
    is_m1 = bld.icmp_signed("==", x, minus1)
    odd = bld.trunc(e, I1)
    neg_res = bld.select(is_one, one, bld.select(is_m1, bld.select(odd, minus1, one), zero))
    bld.cbranch(neg, body_done, loop)
    bld.position_at_end(loop)
    acc = bld.phi(t)
    b_ = bld.phi(t)
    n = bld.phi(t)
    acc.add_incoming(one, pre)
    b_.add_incoming(x, pre)
    n.add_incoming(e, pre)
    is_zero = bld.icmp_signed("==", n, zero)
    step = ctx.new_block("ipow.step")
    bld.cbranch(is_zero, body_done, step)
    bld.position_at_end(step)
    low = bld.trunc(n, I1)
    acc2 = bld.select(low, bld.mul(acc, b_), acc)
    b2 = bld.mul(b_, b_)
    n2 = bld.lshr(n, ir.Constant(t, 1))
    acc.add_incoming(acc2, step)
    b_.add_incoming(b2, step)
    n.add_incoming(n2, step)
    bld.branch(loop)
    bld.position_at_end(body_done)
    res = bld.phi(t)
    res.add_incoming(neg_res, pre)
    res.add_incoming(acc, loop)
    return res


def _fclass(kind: str):
    def lower(ctx: LoweringContext, op) -> None:
        (a,) = ctx.get_all(op.operands)
        bld = ctx.builder
        rt = ctx.convert(op.results[0].type)

        def f(x):
            if kind == "isnan":
                return bld.fcmp_unordered("uno", x, x)
            ax = ctx.intrinsic("llvm.fabs", x.type, [x], [x.type])
            s = scalar_of(x.type)
            inf = ir.Constant(s, float("inf"))
            if isinstance(x.type, ir.VectorType):
                inf = ir.Constant(x.type, [inf] * x.type.count)
            if kind == "isinf":
                return bld.fcmp_ordered("oeq", ax, inf)
            if kind == "isfinite":
                return bld.fcmp_ordered("one", ax, inf)
            # isnormal: finite and >= smallest normal
            tiny = {ir.HalfType: 2.0 ** -14, ir.FloatType: 2.0 ** -126,
                    ir.DoubleType: 2.0 ** -1022}[type(s)]
            tc = ir.Constant(s, tiny)
            if isinstance(x.type, ir.VectorType):
                tc = ir.Constant(x.type, [tc] * x.type.count)
            return bld.and_(bld.fcmp_ordered("one", ax, inf), bld.fcmp_ordered("oge", ax, tc))

        ctx.set_results(op, [map_nd(bld, f, a, result_type=rt)])

    return lower


for _k in ("isnan", "isinf", "isfinite", "isnormal"):
    lowering(f"math.{_k}")(_fclass(_k))


def _recorded(op, name: str) -> bool:
    """Whether an earlier mlir-opt stage recorded (deferred) the pass ``name``."""
    from runner_core.ir.deferred import deferred_passes

    top = op
    while top.parent_op() is not None:
        top = top.parent_op()
    return any(text == name or text.startswith(name + "{") for text in deferred_passes(top))
