"""Folding math ops of constants as MLIR 22's folders do, for passes that mimic the greedy driver.

The greedy rewrite driver tries an op's folder before any pattern, so a math
op whose operands are constants becomes the C library's value (``expf`` for
f32, ``exp`` for f64; other float types are not folded) instead of being
rewritten.  The same libm is called here (ctypes), under the same conditions
as upstream's folders (no log of a negative number, no log1p below -1, NaN for
atan2(0, 0)), so the constant is the one real mlir-opt writes on this machine.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from functools import cache

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Operation, SSAValue

# op name -> C function (the float variant gets an `f` suffix).
_UNARY = {
    "math.tanh": "tanh", "math.log": "log", "math.log2": "log2", "math.log1p": "log1p",
    "math.erf": "erf", "math.erfc": "erfc", "math.exp": "exp", "math.expm1": "expm1",
    "math.sin": "sin", "math.cos": "cos", "math.asin": "asin", "math.acos": "acos",
    "math.atan": "atan", "math.cbrt": "cbrt",
}
_BINARY = {"math.atan2": "atan2"}
_NOT_NEGATIVE = frozenset({"math.log", "math.log2"})


@cache
def _libm():
    return ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")


@cache
def _function(name: str, single: bool, arity: int):
    fn = getattr(_libm(), name + ("f" if single else ""))
    t = ctypes.c_float if single else ctypes.c_double
    fn.restype = t
    fn.argtypes = [t] * arity
    return fn


def _constant_values(value: SSAValue):
    """(values, type) of an arith.constant, else None.  Only a constant already there:
    the driver visits ops bottom-up, so the `arith.extf` of an f16 constant that the f32
    expansion creates, or a `vector.broadcast` of a constant, is folded only after the
    math op using it was rewritten (mlir-opt 22: `math.tanh` of an f16 constant becomes
    the f32 polynomial of a constant; `math.exp` of a broadcast constant too)."""
    owner = value.owner
    if getattr(owner, "name", "") != "arith.constant":
        return None
    attr = owner.properties.get("value")
    if isinstance(attr, b.FloatAttr):
        values = [attr.value.data]
    elif isinstance(attr, b.DenseIntOrFPElementsAttr) and \
            isinstance(attr.get_element_type(), b.AnyFloat):
        values = [float(v) for v in attr.get_values()]
    else:
        return None
    return values, value.type


def _element(t):
    return t.element_type if isinstance(t, b.VectorType) else t


def _fold_values(name: str, args: list[list[float]], single: bool) -> list[float] | None:
    """The folded elements, or None where upstream's folder declines."""
    out = []
    count = max(len(a) for a in args)
    for i in range(count):
        xs = [a[i] if len(a) > 1 else a[0] for a in args]
        x = xs[0]
        if name in _NOT_NEGATIVE and math.copysign(1.0, x) < 0:
            return None  # APFloat::isNegative: also -0.0 and -NaN
        if name == "math.log1p" and math.copysign(1.0, x + 1.0) < 0:
            return None
        if name == "math.atan2":
            if xs[0] == 0.0 and xs[1] == 0.0:
                out.append(math.nan)
                continue
            out.append(_function(_BINARY[name], single, 2)(*xs))
            continue
        out.append(_function(_UNARY[name], single, 1)(x))
    return out


def fold_constant_op(op: Operation, ctx: Context) -> bool:
    """Replace `op` by an arith.constant when upstream's folder would; True if it did."""
    if op.name not in _UNARY and op.name not in _BINARY or len(op.results) != 1:
        return False
    rt = op.results[0].type
    et = _element(rt)
    if not isinstance(et, b.Float32Type | b.Float64Type):
        return False
    consts = [_constant_values(v) for v in op.operands]
    if not consts or any(c is None for c in consts) or any(c[1] != rt for c in consts):
        return False
    values = _fold_values(op.name, [c[0] for c in consts], isinstance(et, b.Float32Type))
    if values is None:
        return False
    if isinstance(rt, b.VectorType):
        attr = b.DenseIntOrFPElementsAttr.from_list(rt, values if len(values) > 1 else values)
    else:
        attr = b.FloatAttr(values[0], rt)
    new = ctx.get_op("arith.constant").create(result_types=[rt], properties={"value": attr})
    new.location = op.location
    op.parent_block().insert_op_before(new, op)
    op.results[0].replace_all_uses_with(new.results[0])
    op.detach()
    op.erase()
    return True
