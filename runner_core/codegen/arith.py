"""arith dialect: integer and float arithmetic, comparisons, casts, constants.

Scalars and 1-D vectors map onto single LLVM instructions; n-D vectors go
through :func:`elementwise.map_nd`.  Semantics follow upstream's
arith-to-llvm (e.g. ``ceildivsi``/``floordivsi`` expansions, ``maximumf`` as
``llvm.maximum``, signless ints sign-extended by ``index_cast``).
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from . import small_floats
from .context import LoweringContext, prop
from .elementwise import map_nd, retype, scalar_of
from .registry import Registry
from .types import I1

registry = Registry()
lowering = registry.lowering


# ---------------------------------------------------------------- constants
def _int_const(t: ir.IntType, v: int) -> ir.Constant:
    w = t.width
    v &= (1 << w) - 1
    if v >= 1 << (w - 1):
        v -= 1 << w
    return ir.Constant(t, v)


def _float_const(t: ir.Type, v: float) -> ir.Constant:
    return ir.Constant(t, v)


def scalar_constant(t: ir.Type, v) -> ir.Constant:
    if isinstance(t, ir.IntType):
        return _int_const(t, int(v))
    if isinstance(t, ir.LiteralStructType) and isinstance(v, tuple):  # complex<T>: {re, im}
        return ir.Constant(t, [scalar_constant(e, x) for e, x in zip(t.elements, v, strict=True)])
    return _float_const(t, float(v))


def dense_constant(ty: ir.Type, values: list) -> ir.Constant:
    """An LLVM constant of vector/array type ``ty`` from flat row-major values."""
    if isinstance(ty, ir.VectorType):
        return ir.Constant(ty, [scalar_constant(ty.element, v) for v in values])
    if isinstance(ty, ir.ArrayType):
        if ty.count == 0:  # e.g. a global of type memref<0xi64>
            return ir.Constant(ty, [])
        n = len(values) // ty.count
        return ir.Constant(ty, [dense_constant(ty.element, values[i * n:(i + 1) * n])
                                for i in range(ty.count)])
    (v,) = values
    if isinstance(ty, ir.LiteralStructType) and isinstance(v, tuple):
        # complex<T> elements ({T, T} in LLVM), e.g. an llvm.mlir.global of complex values
        return ir.Constant(ty, [scalar_constant(e, x) for e, x in zip(ty.elements, v,
                                                                        strict=True)])
    return scalar_constant(ty, v)


def constant_value(ctx: LoweringContext, attr, mlir_type) -> ir.Constant:
    ty = ctx.convert(mlir_type)
    if isinstance(attr, b.FloatAttr):
        bits = small_floats.constant_bits(attr.type, attr.value.data)
        if bits is not None:  # f8E4M3FN & co: the bit pattern (codegen/small_floats.py)
            return bits
    if isinstance(attr, (b.IntegerAttr, b.FloatAttr)):
        return scalar_constant(ty, attr.value.data)
    if isinstance(attr, b.DenseIntOrFPElementsAttr):
        vals = list(attr.get_values())
        count = 1
        for d in (attr.get_shape() or ()):
            count *= d
        if len(vals) == 1 and count > 1:
            vals = vals * count
        return dense_constant(ty, vals)
    raise ctx.unsupported(None, f"constant attribute {attr}")


@lowering("arith.constant")
def _constant(ctx: LoweringContext, op) -> None:
    attr = prop(op, "value")
    try:
        c = constant_value(ctx, attr, op.results[0].type)
    except AttributeError:
        raise ctx.unsupported(op, f"constant {attr}") from None
    ctx.set_results(op, [c])


# --------------------------------------------------------------- binary ops
def _binary(method: str):
    def lower(ctx: LoweringContext, op) -> None:
        a, c = ctx.get_all(op.operands)
        bld = ctx.builder
        ctx.set_results(op, [map_nd(bld, lambda x, y: getattr(bld, method)(x, y), a, c)])

    return lower


for _name, _method in {
    "arith.addi": "add", "arith.subi": "sub", "arith.muli": "mul",
    "arith.divsi": "sdiv", "arith.divui": "udiv", "arith.remui": "urem",
    "arith.andi": "and_", "arith.ori": "or_", "arith.xori": "xor",
    "arith.shli": "shl", "arith.shrsi": "ashr", "arith.shrui": "lshr",
    "arith.addf": "fadd", "arith.subf": "fsub", "arith.mulf": "fmul", "arith.divf": "fdiv",
    "arith.remf": "frem",
}.items():
    lowering(_name)(_binary(_method))


@lowering("arith.remsi")
def _remsi(ctx, op):
    """x % -1 is 0 for every x, but x86's idiv traps on INT_MIN % -1: divide by 1
    instead (MLIR folds `remsi INT_MIN, -1` to 0, which -test-lower-to-llvm's
    canonicalize does before upstream's tests run it)."""
    a, c = ctx.get_all(op.operands)
    bld = ctx.builder

    def f(x, y):
        minus1 = bld.icmp_signed("==", y, _splat_like(y, -1))
        return bld.srem(x, bld.select(minus1, _splat_like(y, 1), y))

    ctx.set_results(op, [map_nd(bld, f, a, c)])


def _intrinsic_binary(name: str):
    def lower(ctx: LoweringContext, op) -> None:
        a, c = ctx.get_all(op.operands)
        ctx.set_results(op, [map_nd(ctx.builder, lambda x, y: ctx.intrinsic(
            name, x.type, [x, y], [x.type]), a, c)])

    return lower


for _name, _intr in {
    "arith.maxsi": "llvm.smax", "arith.minsi": "llvm.smin",
    "arith.maxui": "llvm.umax", "arith.minui": "llvm.umin",
    "arith.maximumf": "llvm.maximum", "arith.minimumf": "llvm.minimum",
    "arith.maxnumf": "llvm.maxnum", "arith.minnumf": "llvm.minnum",
}.items():
    lowering(_name)(_intrinsic_binary(_intr))


@lowering("arith.negf")
def _negf(ctx, op):
    (a,) = ctx.get_all(op.operands)
    ctx.set_results(op, [map_nd(ctx.builder, ctx.builder.fneg, a)])


def _splat_like(v: ir.Value, scalar: int) -> ir.Constant:
    t = v.type
    if isinstance(t, ir.VectorType):
        return ir.Constant(t, [ir.Constant(t.element, scalar)] * t.count)
    return ir.Constant(t, scalar)


def _rounded_sdiv(up: bool):
    """arith.ceildivsi (`up`) / floordivsi: the truncated quotient moved one step up
    (or down) when there is a remainder and the exact quotient is positive (negative),
    i.e. the operands' signs agree (differ)."""

    def lower(ctx, op):
        bld = ctx.builder

        def f(a, c):
            zero, one = _splat_like(a, 0), _splat_like(a, 1)
            q = bld.sdiv(a, c)
            r = bld.srem(a, c)
            nonzero = bld.icmp_signed("!=", r, zero)
            signs = bld.icmp_signed("==" if up else "!=", bld.icmp_signed("<", a, zero),
                                    bld.icmp_signed("<", c, zero))
            adjust = bld.and_(nonzero, signs)
            return (bld.add if up else bld.sub)(q, bld.select(adjust, one, zero))

        a, c = ctx.get_all(op.operands)
        ctx.set_results(op, [map_nd(bld, f, a, c)])

    return lower


lowering("arith.ceildivsi")(_rounded_sdiv(up=True))
lowering("arith.floordivsi")(_rounded_sdiv(up=False))


@lowering("arith.ceildivui")
def _ceildivui(ctx, op):
    bld = ctx.builder

    def f(a, c):
        zero, one = _splat_like(a, 0), _splat_like(a, 1)
        is_zero = bld.icmp_unsigned("==", a, zero)
        q = bld.add(bld.udiv(bld.sub(a, one), c), one)
        return bld.select(is_zero, zero, q)

    a, c = ctx.get_all(op.operands)
    ctx.set_results(op, [map_nd(bld, f, a, c)])


# ------------------------------------------------------------- comparisons
_CMPI = {0: ("s", "=="), 1: ("s", "!="), 2: ("s", "<"), 3: ("s", "<="), 4: ("s", ">"),
         5: ("s", ">="), 6: ("u", "<"), 7: ("u", "<="), 8: ("u", ">"), 9: ("u", ">=")}
_CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
         "ule", "une", "uno", "true"]
_CMPI_NAMES = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5, "ult": 6, "ule": 7,
               "ugt": 8, "uge": 9}


def _predicate(op) -> int:
    p = prop(op, "predicate")
    return int(p.value.data)


def icmp(bld: ir.IRBuilder, pred: int | str, a, c):
    if isinstance(pred, str):
        pred = _CMPI_NAMES[pred]
    kind, sym = _CMPI[pred]
    return (bld.icmp_signed if kind == "s" else bld.icmp_unsigned)(sym, a, c)


def fcmp(bld: ir.IRBuilder, pred: int, a, c):
    name = _CMPF[pred]
    if name in ("false", "true"):
        t = a.type
        res_t = ir.VectorType(I1, t.count) if isinstance(t, ir.VectorType) else I1
        return _splat_like(ir.Constant(res_t, 0), 1 if name == "true" else 0) \
            if isinstance(res_t, ir.VectorType) else ir.Constant(I1, 1 if name == "true" else 0)
    return bld.fcmp_ordered(name, a, c)


def _compare(cmp):
    """arith.cmpi / cmpf through `cmp(builder, predicate, a, b)`, element by element."""

    def lower(ctx, op):
        a, c = ctx.get_all(op.operands)
        p = _predicate(op)
        rt = ctx.convert(op.results[0].type)
        ctx.set_results(op, [map_nd(ctx.builder, lambda x, y: cmp(ctx.builder, p, x, y), a, c,
                                    result_type=rt)])

    return lower


lowering("arith.cmpi")(_compare(icmp))
lowering("arith.cmpf")(_compare(fcmp))


@lowering("arith.select")
def _select(ctx, op):
    cond, a, c = ctx.get_all(op.operands)
    bld = ctx.builder
    if isinstance(cond.type, ir.ArrayType):
        res = map_nd(bld, lambda k, x, y: bld.select(k, x, y), cond, a, c, result_type=a.type)
    elif isinstance(a.type, ir.ArrayType):
        res = map_nd(bld, lambda x, y: bld.select(cond, x, y), a, c)
    else:
        res = bld.select(cond, a, c)
    ctx.set_results(op, [res])


# -------------------------------------------------------------------- casts
def _cast(kind: str):
    def lower(ctx: LoweringContext, op) -> None:
        mode = prop(op, "roundingmode")
        if mode is not None and int(mode.value.data) != 0:  # 0: to_nearest_even, LLVM's
            from runner_core.ir.dialects.arith_ext import ROUNDING_MODES

            m = int(mode.value.data)
            name = ROUNDING_MODES[m] if 0 <= m < len(ROUNDING_MODES) else str(m)
            raise ctx.unsupported(op, f"'{op.name}' with rounding mode {name} (only "
                                      f"to_nearest_even is lowered)")
        (a,) = ctx.get_all(op.operands)
        rt = ctx.convert(op.results[0].type)
        bld = ctx.builder
        res_scalar = scalar_of(rt)

        def f(x):
            to = retype(x.type, res_scalar)
            src = scalar_of(x.type)
            if kind in ("index_cast", "index_castui"):
                if src.width == res_scalar.width:
                    return x
                if src.width > res_scalar.width:
                    return bld.trunc(x, to)
                return (bld.sext if kind == "index_cast" else bld.zext)(x, to)
            if kind == "bitcast":
                return bld.bitcast(x, to)
            if kind == "fptrunc" and _needs_round_to_odd(ctx, src, res_scalar):
                x = _round_to_odd_f32(ctx, x)
                src = ir.FloatType()
                if isinstance(res_scalar, ir.HalfType):
                    return bld.fptrunc(x, to)
            if kind == "fptrunc" and _bf16_in_software(ctx, src, res_scalar):
                return _fptrunc_f32_to_bf16(ctx, x, to)
            return getattr(bld, kind)(x, to)

        ctx.set_results(op, [map_nd(bld, f, a, result_type=rt)])

    return lower


def _needs_round_to_odd(ctx: LoweringContext, src: ir.Type, dst: ir.Type) -> bool:
    """f64 -> f16/bf16 on the CPU: x86 has no instruction, and LLVM would call the
    compiler runtime (__truncdfhf2), which a JIT-ed module cannot count on."""
    return (ctx.target.name != "nvptx" and isinstance(src, ir.DoubleType)
            and (isinstance(dst, ir.HalfType) or str(dst) == "bfloat"))


def fptrunc_via_f32(ctx: LoweringContext, x: ir.Value, to: ir.Type) -> ir.Value:
    """f64 -> f16/bf16 on the CPU, correctly rounded (also for llvm.fptrunc in lowered
    input, codegen/llvm.py): round to odd into f32, then to nearest."""
    t = _round_to_odd_f32(ctx, x)
    if str(scalar_of(to)) == "bfloat":
        return _fptrunc_f32_to_bf16(ctx, t, to)
    return ctx.builder.fptrunc(t, to)


def narrow_fptrunc(ctx: LoweringContext, x: ir.Value, to: ir.Type) -> ir.Value | None:
    """An fptrunc the CPU backend does in software (see the two predicates), or None."""
    src, dst = scalar_of(x.type), scalar_of(to)
    if _needs_round_to_odd(ctx, src, dst):
        return fptrunc_via_f32(ctx, x, to)
    if _bf16_in_software(ctx, src, dst):
        return _fptrunc_f32_to_bf16(ctx, x, to)
    return None


def _bf16_in_software(ctx: LoweringContext, src: ir.Type, dst: ir.Type) -> bool:
    """f32 -> bf16 on the CPU: without AVX512-BF16 LLVM calls the compiler runtime
    (__truncsfbf2), which a JIT-ed module cannot count on."""
    return (ctx.target.name != "nvptx" and isinstance(src, ir.FloatType)
            and str(dst) == "bfloat")


def _fptrunc_f32_to_bf16(ctx: LoweringContext, x: ir.Value, to: ir.Type) -> ir.Value:
    """Round to nearest even on the bits, as arith-expand's bf16 expansion does: add
    0x7fff plus the lowest kept bit, keep the high half; a NaN stays a (quiet) NaN."""
    bld = ctx.builder
    i32 = retype(x.type, ir.IntType(32))
    i16 = retype(x.type, ir.IntType(16))
    bits = bld.bitcast(x, i32)
    high = bld.lshr(bits, _splat_like(bits, 16))
    bias = bld.add(bld.and_(high, _splat_like(bits, 1)), _splat_like(bits, 0x7FFF))
    rounded = bld.lshr(bld.add(bits, bias), _splat_like(bits, 16))
    nan = bld.fcmp_unordered("uno", x, x)
    quiet = bld.or_(high, _splat_like(bits, 0x40))
    out = bld.trunc(bld.select(nan, quiet, rounded), i16)
    return bld.bitcast(out, to)


def _round_to_odd_f32(ctx: LoweringContext, x: ir.Value) -> ir.Value:
    """Correctly rounded f64 -> f16 through f32: round to f32 *to odd* (truncate
    toward zero, then set the last bit if anything was lost), then round to
    nearest.  f32 keeps more than two extra bits over f16/bf16's precision, which
    makes the two-step rounding exact (no double-rounding error)."""
    bld = ctx.builder
    f32 = retype(x.type, ir.FloatType())
    i32 = retype(x.type, ir.IntType(32))
    t = bld.fptrunc(x, f32)
    back = bld.fpext(t, x.type)
    fabs = [ctx.intrinsic("llvm.fabs", v.type, [v], [v.type]) for v in (back, x)]
    away = bld.fcmp_ordered(">", fabs[0], fabs[1])  # rounded away from zero
    inexact = bld.fcmp_ordered("!=", back, x)  # false for NaN: left as it is
    bits = bld.bitcast(t, i32)
    bits = bld.select(away, bld.sub(bits, _splat_like(bits, 1)), bits)
    bits = bld.select(inexact, bld.or_(bits, _splat_like(bits, 1)), bits)
    return bld.bitcast(bits, f32)  # the caller rounds this to nearest (f16 / bf16)


for _name, _kind in {
    "arith.extsi": "sext", "arith.extui": "zext", "arith.trunci": "trunc",
    "arith.extf": "fpext", "arith.truncf": "fptrunc",
    "arith.sitofp": "sitofp", "arith.uitofp": "uitofp",
    "arith.fptosi": "fptosi", "arith.fptoui": "fptoui",
    "arith.index_cast": "index_cast", "arith.index_castui": "index_castui",
    "arith.bitcast": "bitcast",
}.items():
    lowering(_name)(_cast(_kind))


# ---------------------------------------------------------- extended ops
@lowering("arith.addui_extended")
def _addui_extended(ctx, op):
    a, c = ctx.get_all(op.operands)
    bld = ctx.builder
    if isinstance(a.type, (ir.VectorType, ir.ArrayType)):
        s = map_nd(bld, bld.add, a, c)
        ovf = map_nd(bld, lambda x, y: bld.icmp_unsigned("<", bld.add(x, y), x), a, c,
                     result_type=ctx.convert(op.results[1].type))
        ctx.set_results(op, [s, ovf])
        return
    pair = bld.uadd_with_overflow(a, c)
    ctx.set_results(op, [bld.extract_value(pair, 0), bld.extract_value(pair, 1)])


def _mul_extended(signed: bool):
    def lower(ctx: LoweringContext, op) -> None:
        a, c = ctx.get_all(op.operands)
        bld = ctx.builder

        def halves(x, y, which):
            s = scalar_of(x.type)
            wide = retype(x.type, ir.IntType(2 * s.width))
            ext = bld.sext if signed else bld.zext
            p = bld.mul(ext(x, wide), ext(y, wide))
            if which == 0:
                return bld.trunc(p, x.type)
            shift = ir.Constant(scalar_of(wide), s.width)
            if isinstance(wide, ir.VectorType):
                shift = ir.Constant(wide, [shift] * wide.count)
            return bld.trunc(bld.lshr(p, shift), x.type)

        lo = map_nd(bld, lambda x, y: halves(x, y, 0), a, c)
        hi = map_nd(bld, lambda x, y: halves(x, y, 1), a, c)
        ctx.set_results(op, [lo, hi])

    return lower


lowering("arith.mulsi_extended")(_mul_extended(True))
lowering("arith.mului_extended")(_mul_extended(False))

