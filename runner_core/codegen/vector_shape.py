"""vector dialect: ops that rearrange lanes or build products of them.

``shape_cast``, ``transpose``, ``interleave`` and ``deinterleave`` only move
lanes (a shufflevector when source and result are 1-D); ``step`` is a
constant; ``outerproduct`` multiplies lane by lane and combines with the
accumulator by its kind, as upstream's lowering does (``add`` on floats is a
fused multiply-add, ``llvm.fma``, as LLVM 22 emits it).
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from .context import LoweringContext, prop
from .registry import Registry
from .vector import combine, kind_name
from .vector_lanes import count, flatten, from_lanes, permute, shape_of, splat, to_lanes, unflatten

registry = Registry()
lowering = registry.lowering


def _moved(ctx: LoweringContext, op, src, picks: list[int]) -> None:
    rt = ctx.convert(op.results[0].type)
    ctx.set_results(op, [permute(ctx.builder, ctx.get(src), picks, rt)])


@lowering("vector.shape_cast")
def _shape_cast(ctx: LoweringContext, op) -> None:
    _moved(ctx, op, op.source, list(range(count(shape_of(op.source.type)))))


@lowering("vector.transpose")
def _transpose(ctx: LoweringContext, op) -> None:
    perm = [int(x) for x in prop(op, "permutation").get_values()]
    sshape = shape_of(op.vector.type)
    rshape = shape_of(op.results[0].type)
    picks = []
    for flat in range(count(rshape)):
        r = unflatten(flat, rshape)
        s = [0] * len(sshape)
        for i, p in enumerate(perm):
            s[p] = r[i]
        picks.append(flatten(s, sshape))
    _moved(ctx, op, op.vector, picks)


@lowering("vector.interleave")
def _interleave(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    rt = ctx.convert(op.results[0].type)
    a, c = to_lanes(bld, ctx.get(op.lhs)), to_lanes(bld, ctx.get(op.rhs))
    n = (shape_of(op.lhs.type) or [1])[-1]
    lanes = []
    for row in range(len(a) // n):
        for i in range(n):
            lanes += [a[row * n + i], c[row * n + i]]
    ctx.set_results(op, [from_lanes(bld, lanes, rt)])


@lowering("vector.deinterleave")
def _deinterleave(ctx: LoweringContext, op) -> None:
    shape = shape_of(op.source.type)
    n = shape[-1]
    total = count(shape)
    even = [r * n + i for r in range(total // n) for i in range(0, n, 2)]
    rt = ctx.convert(op.results[0].type)
    src = ctx.get(op.source)
    bld = ctx.builder
    ctx.set_results(op, [permute(bld, src, even, rt),
                         permute(bld, src, [x + 1 for x in even], rt)])


@lowering("vector.step")
def _step(ctx: LoweringContext, op) -> None:
    t = ctx.convert(op.results[0].type)
    ctx.set_results(op, [ir.Constant(t, [ir.Constant(t.element, i) for i in range(t.count)])])


@lowering("vector.outerproduct")
def _outerproduct(ctx: LoweringContext, op) -> None:
    """Row i is lhs[i] (broadcast) times rhs; with an accumulator, floats under `add` use
    llvm.fmuladd and other kinds combine the product with the accumulator row."""
    bld = ctx.builder
    kind = kind_name(op)
    rt = op.results[0].type
    is_float = not isinstance(rt.element_type, (b.IntegerType, b.IndexType))
    lhs_v = ctx.get(op.lhs)
    axpy = not isinstance(op.rhs.type, b.VectorType)
    if axpy:  # one row: lhs times the scalar broadcast
        rows_l = [lhs_v]
        right = splat(bld, ctx.get(op.rhs), lhs_v.type)
    else:
        right = ctx.get(op.rhs)
        rows_l = [splat(bld, a, right.type) for a in to_lanes(bld, lhs_v)]
    acc_v = ctx.get(op.acc) if op.acc is not None else None
    rows = []
    for i, left in enumerate(rows_l):
        acc = None if acc_v is None else (acc_v if axpy else bld.extract_value(acc_v, i))
        if acc is not None and is_float and kind == "add":
            rows.append(ctx.intrinsic("llvm.fmuladd", left.type, [left, right, acc],
                                      [left.type]))
            continue
        prod = bld.fmul(left, right) if is_float else bld.mul(left, right)
        rows.append(prod if acc is None else combine(ctx, kind, prod, acc))
    if axpy:
        ctx.set_results(op, rows)
        return
    agg = ir.Constant(ctx.convert(rt), ir.Undefined)
    for i, row in enumerate(rows):
        agg = bld.insert_value(agg, row, i)
    ctx.set_results(op, [agg])
