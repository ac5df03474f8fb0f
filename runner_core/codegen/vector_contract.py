"""vector.contract, vector.multi_reduction and vector.mask, lowered lane by lane.

The order of floating-point accumulation is LLVM 22's: a contraction's sum
at each result position starts from the accumulator and adds the products in
row-major order over the reduction dimensions (upstream's dot lowering is an
ordered ``llvm.vector.reduce.fadd`` seeded with the accumulator); a
multi-reduction combines the accumulator with each reduced lane in row-major
order.  Operands of a contraction are promoted to the accumulator's element
type (sign-extended integers, extended floats), as MLIR defines it.

``vector.mask`` is lowered by lowering the op it holds with the mask applied:
masked-off reads give the padding, masked-off writes do not happen,
masked-off lanes do not take part in reductions and contractions.  The masked
forms LLVM 22 does not lower (a passthru, masked scatters, loads, stores ...)
are located errors, as its pipeline fails on them.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.ir.affine import AffineDimExpr

from .context import LoweringContext
from .registry import Registry
from .vector import combine, kind_name, lower_reduction
from .vector_lanes import (
    count,
    flatten,
    from_lanes,
    known_bit,
    shape_of,
    splat,
    to_lanes,
    unflatten,
)

registry = Registry()
lowering = registry.lowering


def _is_float(t: ir.Type) -> bool:
    return not isinstance(t, ir.IntType)


def _promote(bld: ir.IRBuilder, v: ir.Value, t: ir.Type) -> ir.Value:
    if v.type == t:
        return v
    if isinstance(t, ir.IntType):
        return bld.sext(v, t) if v.type.width < t.width else bld.trunc(v, t)
    return bld.fpext(v, t)


def _mul(bld: ir.IRBuilder, a: ir.Value, c: ir.Value) -> ir.Value:
    return bld.fmul(a, c) if _is_float(a.type) else bld.mul(a, c)


def _keep_if(bld: ir.IRBuilder, bit: ir.Value | None, new: ir.Value, old: ir.Value):
    """``new`` where the lane's mask ``bit`` holds (None: no mask), else ``old``."""
    if bit is None:
        return new
    k = known_bit(bit)
    if k is not None:
        return new if k else old
    return bld.select(bit, new, old)


def lower_contract(ctx: LoweringContext, op, mask: ir.Value | None = None) -> ir.Value:
    elem_t = op.acc.type.element_type if hasattr(op.acc.type, "element_type") else op.acc.type
    if kind_name(op) != "add" or any(
            t.element_type != elem_t for t in (op.lhs.type, op.rhs.type)):
        raise ctx.unsupported(op, "vector.contract other than an `add` contraction of operands "
                                  "of the accumulator's element type (LLVM 22's "
                                  "convert-vector-to-llvm leaves it unlowered)")
    bld = ctx.builder
    maps = op.maps()
    its = op.iterators()
    dims = [[e.position for e in m.results if isinstance(e, AffineDimExpr)] for m in maps]
    lhs_t, rhs_t, acc_t = op.lhs.type, op.rhs.type, op.acc.type
    sizes = [0] * len(its)
    for ds, t in ((dims[0], lhs_t), (dims[1], rhs_t)):
        for d, n in zip(ds, shape_of(t), strict=True):
            sizes[d] = n
    lhs, rhs = to_lanes(bld, ctx.get(op.lhs)), to_lanes(bld, ctx.get(op.rhs))
    acc = to_lanes(bld, ctx.get(op.acc))
    mask_lanes = to_lanes(bld, mask) if mask is not None else None
    kind = kind_name(op)
    red = [d for d in range(len(its)) if its[d] == "reduction"]
    acc_shape = shape_of(acc_t)
    elem = acc[0].type
    out = []
    for flat in range(max(count(acc_shape), 1)):
        pos = unflatten(flat, acc_shape)
        point = [0] * len(its)
        for d, i in zip(dims[2], pos, strict=True):
            point[d] = i
        s = acc[flat]
        products = []
        for r in range(count([sizes[d] for d in red])):
            for d, i in zip(red, unflatten(r, [sizes[d] for d in red]), strict=True):
                point[d] = i
            li = flatten([point[d] for d in dims[0]], shape_of(lhs_t))
            ri = flatten([point[d] for d in dims[1]], shape_of(rhs_t))
            p = _mul(bld, _promote(bld, lhs[li], elem), _promote(bld, rhs[ri], elem))
            bit = mask_lanes[flatten(point, sizes)] if mask_lanes is not None else None
            products.append((bit, p))
        for bit, p in products:
            s = _keep_if(bld, bit, combine(ctx, kind, s, p), s)
        out.append(s)
    if not acc_shape:
        return out[0]
    return from_lanes(bld, out, ctx.convert(acc_t))


@lowering("vector.contract")
def _contract(ctx: LoweringContext, op) -> None:
    ctx.set_results(op, [lower_contract(ctx, op)])


def lower_multi_reduction(ctx: LoweringContext, op, mask: ir.Value | None = None) -> ir.Value:
    bld = ctx.builder
    shape = shape_of(op.source.type)
    red = set(op.dims())
    kept = [d for d in range(len(shape)) if d not in red]
    src = to_lanes(bld, ctx.get(op.source))
    acc = to_lanes(bld, ctx.get(op.acc))
    mask_lanes = to_lanes(bld, mask) if mask is not None else None
    kind = kind_name(op)
    kept_shape = [shape[d] for d in kept]
    red_dims = sorted(red)
    red_shape = [shape[d] for d in red_dims]
    out = []
    for flat in range(count(kept_shape)):
        pos = unflatten(flat, kept_shape)
        s = acc[flat]
        for r in range(count(red_shape)):
            point = [0] * len(shape)
            for d, i in zip(kept, pos, strict=True):
                point[d] = i
            for d, i in zip(red_dims, unflatten(r, red_shape), strict=True):
                point[d] = i
            k = flatten(point, shape)
            bit = mask_lanes[k] if mask_lanes is not None else None
            s = _keep_if(bld, bit, combine(ctx, kind, s, src[k]), s)
        out.append(s)
    if not kept:
        return out[0]
    return from_lanes(bld, out, ctx.convert(op.dest.type))


@lowering("vector.multi_reduction")
def _multi_reduction(ctx: LoweringContext, op) -> None:
    ctx.set_results(op, [lower_multi_reduction(ctx, op)])


# ------------------------------------------------------------------ mask
_NEUTRAL_FLOAT = {"add": -0.0, "mul": 1.0, "minnumf": float("nan"), "maxnumf": float("nan"),
                  "minimumf": float("inf"), "maximumf": float("-inf")}


def _neutral(kind: str, t: ir.Type) -> ir.Constant:
    """The lane value a masked-off lane of a reduction stands for (changes nothing)."""
    if not isinstance(t, ir.IntType):
        return ir.Constant(t, _NEUTRAL_FLOAT[kind])
    w = t.width
    ones = (1 << w) - 1
    value = {"add": 0, "mul": 1, "and": ones, "or": 0, "xor": 0, "minsi": (1 << (w - 1)) - 1,
             "maxsi": 1 << (w - 1), "minui": ones, "maxui": 0}[kind]
    return ir.Constant(t, value)


def _masked_reduction(ctx: LoweringContext, op, mask: ir.Value) -> ir.Value:
    """vector.reduction with its masked-off lanes replaced by the kind's neutral value."""
    bld = ctx.builder
    kind = kind_name(op)
    v = ctx.get(op.vector)
    neutral = splat(bld, _neutral(kind, v.type.element), v.type)
    return lower_reduction(ctx, op, bld.select(mask, v, neutral))


@lowering("vector.mask")
def _mask(ctx: LoweringContext, op) -> None:
    from .vector_memory import lower_gather
    from .vector_transfer import lower_read, lower_write

    inner = op.maskable()
    if inner is None:  # only a yield: the mask changes nothing
        ctx.set_results(op, ctx.get_all(op.body.block.last_op.operands))
        return
    mask = ctx.get(op.mask)
    name = inner.name
    if name == "vector.transfer_read" and op.passthru is None:
        results = [lower_read(ctx, inner, extra_mask=mask)]
    elif name == "vector.transfer_write":
        if inner.results:
            raise ctx.unsupported(inner, "vector.transfer_write to a tensor (bufferize first)")
        lower_write(ctx, inner, extra_mask=mask)
        results = []
    elif name == "vector.reduction":
        results = [_masked_reduction(ctx, inner, mask)]
    elif name == "vector.multi_reduction":
        results = [lower_multi_reduction(ctx, inner, mask)]
    elif name == "vector.gather":
        results = [lower_gather(ctx, inner, outer_mask=mask)]
    elif name == "vector.contract":
        results = [lower_contract(ctx, inner, mask)]
    else:  # LLVM 22's lowerings leave these masked forms unlowered (or fail on them)
        what = f"'{name}' inside vector.mask" + (" with a passthru" if op.passthru else "")
        raise ctx.unsupported(op, f"{what} (LLVM 22's -lower-vector-mask and "
                                  f"convert-vector-to-llvm do not lower it)")
    ctx.set_results(op, results)


__all__ = ["lower_contract", "lower_multi_reduction"]
