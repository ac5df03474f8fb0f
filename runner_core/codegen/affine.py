"""The affine dialect, lowered as `-lower-affine` then the scf/memref lowerings would.

`affine.for` bounds are maps over (dims, symbols) operands: the lower bound is
the max of the lower map's results, the upper bound the min of the upper
map's; the step is a positive constant.  `affine.load`/`store` address the
memref at the results of their map; `affine.apply` / `min` evaluate a map.
Expressions follow lower-affine's expansion (`codegen/linalg.affine_value`).
`affine.if`, `affine.parallel` and the vector forms are not lowered (an
unsupported error naming the op).
"""

from __future__ import annotations

import llvmlite.ir as ir

from . import bounds
from . import memref_desc as md
from .context import LoweringContext
from .linalg import affine_value
from .registry import Registry
from .scf import emit_loop

registry = Registry()
lowering = registry.lowering


def _results(ctx: LoweringContext, op, amap, operands) -> list[ir.Value]:
    vals = ctx.get_all(operands)
    dims, syms = vals[:amap.num_dims], vals[amap.num_dims:]
    return [affine_value(ctx, op, e, dims, syms) for e in amap.results]


def _fold(ctx: LoweringContext, values: list[ir.Value], pred: str) -> ir.Value:
    bld = ctx.builder
    acc = values[0]
    for v in values[1:]:
        acc = bld.select(bld.icmp_signed(pred, v, acc), v, acc)
    return acc


@lowering("affine.for")
def _for(ctx: LoweringContext, op) -> None:
    lb = _fold(ctx, _results(ctx, op, op.lowerBoundMap.data, op.lowerBoundOperands), ">")
    ub = _fold(ctx, _results(ctx, op, op.upperBoundMap.data, op.upperBoundOperands), "<")
    step = ctx.index_const(op.step.value.data)
    (block,) = op.body.blocks

    def body(iv, iters):
        return ctx.lower_inline(block, [iv, *iters])

    ctx.set_results(op, emit_loop(ctx, lb, ub, step, ctx.get_all(op.inits), body,
                                  name="affine.for"))


def _address(ctx: LoweringContext, op) -> ir.Value:
    idx = _results(ctx, op, op.map.data, op.indices)
    mem = op.memref
    d = md.Descriptor(ctx.builder, ctx.get(mem), mem.type)
    if bounds.enabled(ctx):
        bounds.check_access(ctx, op, d, idx)
    return md.element_pointer(ctx.builder, ctx.types.element(mem.type), d, idx)


@lowering("affine.load")
def _load(ctx: LoweringContext, op) -> None:
    ptr = _address(ctx, op)
    ctx.set_results(op, [ctx.builder.load(ptr, typ=ctx.types.element(op.memref.type))])


@lowering("affine.store")
def _store(ctx: LoweringContext, op) -> None:
    ctx.builder.store(ctx.get(op.value), _address(ctx, op))


@lowering("affine.apply")
def _apply(ctx: LoweringContext, op) -> None:
    (v,) = _results(ctx, op, op.map.data, op.mapOperands)
    ctx.set_results(op, [v])


@lowering("affine.min")
def _min(ctx: LoweringContext, op) -> None:
    ctx.set_results(op, [_fold(ctx, _results(ctx, op, op.map.data, op.arguments), "<")])


@lowering("affine.max")
def _max(ctx: LoweringContext, op) -> None:
    ctx.set_results(op, [_fold(ctx, _results(ctx, op, op.map.data, op.arguments), ">")])
