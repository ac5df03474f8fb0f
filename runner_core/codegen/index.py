"""index dialect: arithmetic on ``index`` values (the target's index width).

The op classes come from the front end (xDSL 0.75 has no index dialect), so
properties are read by name as MLIR spells them (``value``, ``pred``).
"""

from __future__ import annotations

import re

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from . import arith
from .context import LoweringContext, prop
from .registry import Registry
from .types import I1

registry = Registry()
lowering = registry.lowering

_BIN = {
    "index.add": "add", "index.sub": "sub", "index.mul": "mul", "index.divs": "sdiv",
    "index.divu": "udiv", "index.rems": "srem", "index.remu": "urem", "index.and": "and_",
    "index.or": "or_", "index.xor": "xor", "index.shl": "shl", "index.shrs": "ashr",
    "index.shru": "lshr",
}
for _n, _m in _BIN.items():
    lowering(_n)(arith._binary(_m))

for _n, _a in {"index.ceildivs": "arith.ceildivsi", "index.ceildivu": "arith.ceildivui",
               "index.floordivs": "arith.floordivsi"}.items():
    lowering(_n)(arith.registry.get(_a))

for _n, _intr in {"index.maxs": "llvm.smax", "index.maxu": "llvm.umax",
                  "index.mins": "llvm.smin", "index.minu": "llvm.umin"}.items():
    lowering(_n)(arith._intrinsic_binary(_intr))


@lowering("index.constant")
def _constant(ctx: LoweringContext, op) -> None:
    v = prop(op, "value")
    ctx.set_results(op, [arith.scalar_constant(ctx.types.index, v.value.data)])


@lowering("index.bool.constant")
def _bool_constant(ctx: LoweringContext, op) -> None:
    v = prop(op, "value")
    data = v.value.data if isinstance(v, b.IntegerAttr) else bool(getattr(v, "data", v))
    ctx.set_results(op, [ir.Constant(I1, 1 if data else 0)])


_PREDS = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


@lowering("index.cmp")
def _cmp(ctx: LoweringContext, op) -> None:
    p = prop(op, "pred")
    if p is None:
        p = prop(op, "predicate")
    if isinstance(p, b.IntegerAttr):
        pred: int | str = int(p.value.data)
    else:
        m = re.search(r"\b(" + "|".join(_PREDS) + r")\b", str(p))
        if not m:
            raise ctx.unsupported(op, f"index.cmp predicate {p}")
        pred = m.group(1)
    a, c = ctx.get_all(op.operands)
    ctx.set_results(op, [arith.icmp(ctx.builder, pred, a, c)])


def _cast(signed: bool):
    def lower(ctx: LoweringContext, op) -> None:
        (a,) = ctx.get_all(op.operands)
        to = ctx.convert(op.results[0].type)
        bld = ctx.builder
        if a.type.width == to.width:
            res = a
        elif a.type.width > to.width:
            res = bld.trunc(a, to)
        else:
            res = (bld.sext if signed else bld.zext)(a, to)
        ctx.set_results(op, [res])

    return lower


lowering("index.casts")(_cast(True))
lowering("index.castu")(_cast(False))


@lowering("index.sizeof")
def _sizeof(ctx: LoweringContext, op) -> None:
    ctx.set_results(op, [ir.Constant(ctx.types.index, ctx.target.index_bits // 8)])
