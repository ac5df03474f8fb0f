"""vector dialect: the subset tests use, most importantly ``vector.print``.

``vector.print`` lowers exactly as upstream does, to calls into the C runner
utilities (``printI64``/``printU64``/``printF32``/``printF64``/``printF16``/
``printBF16``, ``printOpen``/``printComma``/``printClose``/``printNewline``,
``printString``), so its output is whatever that library (real or built-in)
prints.  Signless integers are sign-extended to 64 bits (``i1`` zero-extended),
``index`` and unsigned integers print unsigned.
"""

from __future__ import annotations

import re

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from runner_core.ir.deferred import deferred_passes

from . import memref_desc as md
from . import small_floats
from .context import LoweringContext, prop
from .elementwise import map_nd
from .registry import Registry
from .types import I16, I32, I64, VOID
from .vector_lanes import count, flatten, from_lanes, shape_of, splat, to_lanes, unflatten

registry = Registry()
lowering = registry.lowering

DYNAMIC = md.DYNAMIC


# --------------------------------------------------------------------- print
_PUNCT = {"newline": "printNewline", "comma": "printComma", "open": "printOpen",
          "close": "printClose", "no_punctuation": None}


def _punctuation(op) -> str | None:
    p = prop(op, "punctuation")
    if p is None:
        return "printNewline"
    text = str(getattr(p, "data", p)).lower()
    for key, fn in _PUNCT.items():
        if re.search(rf"\b{key}\b", text):
            return fn
    if "newline" in text or "new_line" in text:
        return "printNewline"
    return "printNewline"


def _print_scalar(ctx: LoweringContext, v: ir.Value, mlir_elem, op) -> None:
    bld = ctx.builder
    t = v.type
    small = small_floats.format_of(mlir_elem)
    if small is not None:  # printApFloat(semantics, bits), as MLIR 22 lowers it
        from runner_core.ir.apfloat import SEMANTICS_ID

        ctx.call("printApFloat", VOID, [ir.Constant(ir.IntType(32), SEMANTICS_ID[small.name]),
                                        bld.zext(v, I64)])
    elif isinstance(t, ir.IntType):
        unsigned = isinstance(mlir_elem, b.IndexType) or (
            isinstance(mlir_elem, b.IntegerType)
            and mlir_elem.signedness.data == b.Signedness.UNSIGNED)
        if t.width > 64:
            raise ctx.unsupported(op, f"vector.print of {mlir_elem} (wider than 64 bits)")
        if t.width < 64:
            v = bld.zext(v, I64) if (unsigned or t.width == 1) else bld.sext(v, I64)
        ctx.call("printU64" if unsigned else "printI64", VOID, [v])
    elif isinstance(t, ir.FloatType):
        ctx.call("printF32", VOID, [v])
    elif isinstance(t, ir.DoubleType):
        ctx.call("printF64", VOID, [v])
    elif isinstance(t, ir.HalfType) or str(t) == "bfloat":
        _print_16_bits(ctx, "printF16" if isinstance(t, ir.HalfType) else "printBF16",
                       bld.bitcast(v, I16))
    else:
        raise ctx.unsupported(op, f"vector.print of {mlir_elem}")


def _print_16_bits(ctx: LoweringContext, name: str, bits: ir.Value) -> None:
    """printF16 / printBF16 (declared with `zeroext`: abi.ZEROEXT_PARAMS)."""
    ctx.builder.call(ctx.declare(name, VOID, [I16]), [bits])


def _print_nd(ctx: LoweringContext, v: ir.Value, mlir_elem, op) -> None:
    bld = ctx.builder
    t = v.type
    if isinstance(t, (ir.ArrayType, ir.VectorType)):
        ctx.call("printOpen", VOID, [])
        n = t.count
        for i in range(n):
            part = (bld.extract_value(v, i) if isinstance(t, ir.ArrayType)
                    else bld.extract_element(v, ir.Constant(I32, i)))
            _print_nd(ctx, part, mlir_elem, op)
            if i + 1 < n:
                ctx.call("printComma", VOID, [])
        ctx.call("printClose", VOID, [])
    else:
        _print_scalar(ctx, v, mlir_elem, op)


@lowering("vector.print")
def _print(ctx: LoweringContext, op) -> None:
    text = prop(op, "stringLiteral")
    if text is not None:
        ctx.call("printString", VOID, [ctx.string_constant(text.data, "vector_print_str")])
        return
    if op.operands:
        (src,) = op.operands
        v = ctx.get(src)
        elem = src.type.element_type if isinstance(src.type, b.VectorType) else src.type
        _print_nd(ctx, v, elem, op)
    fn = _punctuation(op)
    if fn:
        ctx.call(fn, VOID, [])


# ------------------------------------------------------------ construction
@lowering("vector.broadcast")
def _broadcast(ctx: LoweringContext, op) -> None:
    (src,) = op.operands
    rt = op.results[0].type
    rty = ctx.convert(rt)
    bld = ctx.builder
    v = ctx.get(src)
    if not isinstance(src.type, b.VectorType):
        ctx.set_results(op, [splat(bld, v, rty)])
        return
    sshape, rshape = shape_of(src.type), shape_of(rt)
    lanes = to_lanes(bld, v)
    pad = len(rshape) - len(sshape)
    sshape_p = [1] * pad + sshape
    out = []
    for flat in range(count(rshape)):
        idx = unflatten(flat, rshape)
        sidx = [0 if sshape_p[d] == 1 else idx[d] for d in range(len(rshape))]
        out.append(lanes[flatten(sidx[pad:], sshape)] if sshape else lanes[0])
    ctx.set_results(op, [from_lanes(bld, out, rty)])


@lowering("vector.splat")
def _splat(ctx: LoweringContext, op) -> None:
    (src,) = op.operands
    ctx.set_results(op, [splat(ctx.builder, ctx.get(src), ctx.convert(op.results[0].type))])


@lowering("vector.from_elements")
def _from_elements(ctx: LoweringContext, op) -> None:
    ctx.set_results(op, [from_lanes(ctx.builder, ctx.get_all(op.operands),
                                    ctx.convert(op.results[0].type))])


# ------------------------------------------------------- extract / insert
def _positions(ctx, op) -> list:
    """Static positions as ints; a dynamic one that is an `arith.constant` as well (LLVM 22's
    convert-vector-to-llvm folds those), else its lowered value."""
    static = [int(x) for x in prop(op, "static_position").get_values()]
    dyn = iter(op.dynamic_position)
    out = []
    for s in static:
        if s != DYNAMIC:
            out.append(s)
            continue
        v = next(dyn)
        owner = v.owner
        attr = prop(owner, "value") if getattr(owner, "name", "") == "arith.constant" else None
        out.append(attr.value.data if isinstance(attr, b.IntegerAttr) else ctx.get(v))
    return out


def _extract_path(bld, v, pos):
    for p in pos:
        t = v.type
        if isinstance(t, ir.ArrayType):
            if not isinstance(p, int):
                raise NotImplementedError
            v = bld.extract_value(v, p)
        else:
            idx = ir.Constant(I32, p) if isinstance(p, int) else p
            v = bld.extract_element(v, idx)
    return v


@lowering("vector.extract")
def _extract(ctx: LoweringContext, op) -> None:
    pos = _positions(ctx, op)
    try:
        res = _extract_path(ctx.builder, ctx.get(op.vector), pos)
    except NotImplementedError:
        raise ctx.unsupported(op, "vector.extract with a dynamic position before the last "
                              "dimension (LLVM 22's convert-vector-to-llvm leaves it "
                              "unlowered too)") from None
    if not isinstance(op.results[0].type, b.VectorType) and isinstance(res.type, ir.VectorType):
        # `vector.extract %v[] : f32 from vector<f32>`: a 0-D vector is <1 x T>.
        res = ctx.builder.extract_element(res, ir.Constant(I32, 0))
    elif isinstance(op.results[0].type, b.VectorType) and not op.results[0].type.get_shape():
        res = splat(ctx.builder, res, ctx.convert(op.results[0].type))
    ctx.set_results(op, [res])


def _insert_path(bld, agg, value, pos):
    if not pos:
        return value
    p, rest = pos[0], pos[1:]
    t = agg.type
    if isinstance(t, ir.ArrayType):
        if not isinstance(p, int):
            raise NotImplementedError
        inner = bld.extract_value(agg, p)
        return bld.insert_value(agg, _insert_path(bld, inner, value, rest), p)
    idx = ir.Constant(I32, p) if isinstance(p, int) else p
    return bld.insert_element(agg, value, idx)


@lowering("vector.insert")
def _insert(ctx: LoweringContext, op) -> None:
    pos = _positions(ctx, op)
    src = ctx.get(op.source)
    if isinstance(op.source.type, b.VectorType) and not op.source.type.get_shape():
        src = ctx.builder.extract_element(src, ir.Constant(I32, 0))
    try:
        res = _insert_path(ctx.builder, ctx.get(op.dest), src, pos)
    except NotImplementedError:
        raise ctx.unsupported(op, "vector.insert with a dynamic position before the last "
                              "dimension (LLVM 22's convert-vector-to-llvm leaves it "
                              "unlowered too)") from None
    ctx.set_results(op, [res])


@lowering("vector.shuffle")
def _shuffle(ctx: LoweringContext, op) -> None:
    a, c = ctx.get(op.v1), ctx.get(op.v2)
    mask = [int(x) for x in prop(op, "mask").get_values()]
    bld = ctx.builder
    rt = ctx.convert(op.results[0].type)
    if isinstance(a.type, ir.VectorType) and isinstance(c.type, ir.VectorType):
        m = ir.Constant(ir.VectorType(I32, len(mask)),
                        [ir.Constant(I32, x) if x >= 0 else ir.Constant(I32, ir.Undefined)
                         for x in mask])
        ctx.set_results(op, [bld.shuffle_vector(a, c, m)])
        return
    n1 = a.type.count
    agg = ir.Constant(rt, ir.Undefined)
    for i, x in enumerate(mask):
        part = bld.extract_value(a, x) if x < n1 else bld.extract_value(c, x - n1)
        agg = bld.insert_value(agg, part, i)
    ctx.set_results(op, [agg])


@lowering("vector.fma")
def _fma(ctx: LoweringContext, op) -> None:
    a, c, acc = ctx.get_all(op.operands)
    ctx.set_results(op, [map_nd(ctx.builder, lambda x, y, z: ctx.intrinsic(
        "llvm.fma", x.type, [x, y, z], [x.type]), a, c, acc)])


@lowering("vector.bitcast")
def _bitcast(ctx: LoweringContext, op) -> None:
    (a,) = ctx.get_all(op.operands)
    rt = ctx.convert(op.results[0].type)
    bld = ctx.builder
    if isinstance(rt, ir.ArrayType):
        ctx.set_results(op, [map_nd(bld, lambda x: bld.bitcast(x, _inner(rt)), a,
                                    result_type=rt)])
    else:
        ctx.set_results(op, [bld.bitcast(a, rt)])


def _inner(t):
    while isinstance(t, ir.ArrayType):
        t = t.element
    return t


# --------------------------------------------------------------- reduction
_REDUCE_INT = {"add": "llvm.vector.reduce.add", "mul": "llvm.vector.reduce.mul",
               "and": "llvm.vector.reduce.and", "or": "llvm.vector.reduce.or",
               "xor": "llvm.vector.reduce.xor", "minsi": "llvm.vector.reduce.smin",
               "maxsi": "llvm.vector.reduce.smax", "minui": "llvm.vector.reduce.umin",
               "maxui": "llvm.vector.reduce.umax"}
_REDUCE_FLOAT = {"minnumf": "llvm.vector.reduce.fmin", "maxnumf": "llvm.vector.reduce.fmax",
                 "minimumf": "llvm.vector.reduce.fminimum",
                 "maximumf": "llvm.vector.reduce.fmaximum"}
_COMBINE_INT = {"add": "add", "mul": "mul", "and": "and_", "or": "or_", "xor": "xor"}


def kind_name(op) -> str:
    """The op's vector.kind as MLIR 22 names it (2021's minf/maxf are minimumf/maximumf)."""
    k = prop(op, "kind")
    text = str(getattr(k, "data", k))
    m = re.search(r"(minnumf|maxnumf|minimumf|maximumf|minsi|maxsi|minui|maxui|add|mul|and|or|xor"
                  r"|minf|maxf)", text)
    if not m:
        raise KeyError(text)
    return {"minf": "minimumf", "maxf": "maximumf"}.get(m.group(1), m.group(1))


def combine(ctx: LoweringContext, kind: str, a: ir.Value, c: ir.Value) -> ir.Value:
    """Combine two scalars (or vectors) with a vector.kind."""
    bld = ctx.builder
    is_int = isinstance(a.type, ir.IntType) or (isinstance(a.type, ir.VectorType)
                                                and isinstance(a.type.element, ir.IntType))
    if is_int:
        if kind in _COMBINE_INT:
            return getattr(bld, _COMBINE_INT[kind])(a, c)
        intr = {"minsi": "llvm.smin", "maxsi": "llvm.smax", "minui": "llvm.umin",
                "maxui": "llvm.umax"}[kind]
        return ctx.intrinsic(intr, a.type, [a, c], [a.type])
    if kind == "add":
        return bld.fadd(a, c)
    if kind == "mul":
        return bld.fmul(a, c)
    intr = {"minnumf": "llvm.minnum", "maxnumf": "llvm.maxnum", "minimumf": "llvm.minimum",
            "maximumf": "llvm.maximum"}[kind]
    return ctx.intrinsic(intr, a.type, [a, c], [a.type])


@lowering("vector.reduction")
def _reduction(ctx: LoweringContext, op) -> None:
    ctx.set_results(op, [lower_reduction(ctx, op, ctx.get(op.vector))])


def lower_reduction(ctx: LoweringContext, op, v: ir.Value) -> ir.Value:
    """vector.reduction of the lowered vector ``v`` (the op's operand, or it masked)."""
    acc = ctx.get(op.acc) if op.acc is not None else None
    try:
        kind = kind_name(op)
    except KeyError:
        raise ctx.unsupported(op, f"vector.reduction kind {prop(op, 'kind')}") from None
    vt = v.type
    elem = vt.element
    if isinstance(elem, ir.IntType):
        res = ctx.intrinsic(_REDUCE_INT[kind], elem, [v], [vt])
    elif kind in ("add", "mul"):
        start = acc if acc is not None else ir.Constant(elem, 0.0 if kind == "add" else 1.0)
        name = "llvm.vector.reduce.fadd" if kind == "add" else "llvm.vector.reduce.fmul"
        res = ctx.intrinsic(name, elem, [start, v], [vt], fastmath=_reduction_flags(op))
        acc = None
    else:
        res = ctx.intrinsic(_REDUCE_FLOAT[kind], elem, [v], [vt],
                            fastmath=_reduction_flags(op))
    if acc is not None:  # upstream: the reduced value first, then the accumulator
        res = combine(ctx, kind, res, acc)
    return res


def _reduction_flags(op) -> tuple[str, ...]:
    """The fast-math flags LLVM 22 puts on a float reduction: the op's own, plus
    ``reassoc`` where the recorded convert-vector-to-llvm had reassociate-fp-reductions
    (which lets LLVM sum in a tree instead of in order)."""
    fm = prop(op, "fastmath")
    flags = set(getattr(fm, "data", ()) or ())
    if _reassociating(op):
        flags.add("reassoc")
    return tuple(sorted(flags))


def _reassociating(op) -> bool:
    top = op
    while top.parent_op() is not None:
        top = top.parent_op()
    for text in deferred_passes(top):
        m = re.search(r"convert-vector-to-llvm\{([^}]*)\}", text)
        if m and re.search(r"reassociate-fp-reductions(\s*=\s*(1|true|True))?(\s|$)",
                           m.group(1)):
            return True
    return False


# ------------------------------------------------------- strided slices
def _i64s(op, name) -> list[int]:
    return [x.value.data for x in prop(op, name).data]


def _slice_lanes(src_shape, offsets, res_shape) -> list[int]:
    """Row-major source lane of each result lane of an extract_strided_slice (unit strides)."""
    k = len(offsets)
    lanes = []
    for r in range(count(res_shape)):
        idx = unflatten(r, res_shape)
        src = [o + i for o, i in zip(offsets, idx[:k], strict=True)] + idx[k:]
        lanes.append(flatten(src, src_shape))
    return lanes


@lowering("vector.extract_strided_slice")
def _extract_strided_slice(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    src = ctx.get(op.source)
    rt = ctx.convert(op.results[0].type)
    picks = _slice_lanes(shape_of(op.source.type), _i64s(op, "offsets"),
                         shape_of(op.results[0].type))
    if isinstance(src.type, ir.VectorType) and isinstance(rt, ir.VectorType):
        mask = ir.Constant(ir.VectorType(I32, len(picks)), [ir.Constant(I32, p) for p in picks])
        ctx.set_results(op, [bld.shuffle_vector(src, ir.Constant(src.type, ir.Undefined), mask)])
        return
    lanes = to_lanes(bld, src)
    ctx.set_results(op, [from_lanes(bld, [lanes[p] for p in picks], rt)])


@lowering("vector.insert_strided_slice")
def _insert_strided_slice(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    src, dst = ctx.get(op.source), ctx.get(op.dest)
    src_shape, dst_shape = shape_of(op.source.type), shape_of(op.dest.type)
    offsets = _i64s(op, "offsets")
    padded = [1] * (len(dst_shape) - len(src_shape)) + src_shape
    # Destination lane of each source lane.
    targets = [flatten([o + i for o, i in zip(offsets, unflatten(s, padded), strict=True)],
                        dst_shape) for s in range(count(padded))]
    if isinstance(src.type, ir.VectorType) and isinstance(dst.type, ir.VectorType):
        # One shuffle: lane j of the result is the source lane landing there, else dest's.
        n = dst.type.count
        from_src = {t: s for s, t in enumerate(targets)}
        mask = [n + from_src[j] if j in from_src else j for j in range(n)]
        widened = src
        if src.type.count != n:  # shufflevector needs operands of one type
            widen = ir.Constant(ir.VectorType(I32, n),
                                [ir.Constant(I32, i if i < src.type.count else 0)
                                 for i in range(n)])
            widened = bld.shuffle_vector(src, ir.Constant(src.type, ir.Undefined), widen)
        m = ir.Constant(ir.VectorType(I32, n), [ir.Constant(I32, x) for x in mask])
        ctx.set_results(op, [bld.shuffle_vector(dst, widened, m)])
        return
    lanes = to_lanes(bld, dst)
    for s, lane in enumerate(to_lanes(bld, src)):
        lanes[targets[s]] = lane
    ctx.set_results(op, [from_lanes(bld, lanes, dst.type)])
