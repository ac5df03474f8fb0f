"""Float formats LLVM has no type for (f8E4M3FN, f4E2M1FN, ...): their bits as integers.

MLIR 22's LLVM type converter turns such a type into an integer of its width;
arithmetic on it exists only as calls made by ``convert-arith-to-apfloat``
(``_mlir_apfloat_*``), and ``vector.print`` calls ``printApFloat(semantics,
bits)``.  So here a value of such a type is its bit pattern (``i8``, ``i4``,
``i6``), a constant is encoded by APFloat's rounding (:mod:`runner_core.ir.apfloat`),
and any other arith or math op on it is an unsupported error naming the pass
that would have made it computable.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from runner_core.ir import apfloat as ap

_PASS_THROUGH = frozenset({"arith.constant", "arith.bitcast"})


def format_of(t) -> ap.Format | None:
    name = getattr(t, "name", None)
    return ap.FORMATS[name] if name in ap.SMALL else None


def llvm_type(_converter, t) -> ir.Type:
    return ir.IntType(format_of(t).bits)


def constant_bits(t, value) -> ir.Constant | None:
    """The bit-pattern constant of a float literal of a small format, else None."""
    f = format_of(t)
    if f is None:
        return None
    from fractions import Fraction

    v = float(value)
    if v != v:
        bits = ap.nan_bits(f)
    elif v in (float("inf"), float("-inf")):
        bits = ap.encode(f, v < 0, ap.INF)
    else:
        bits = ap.encode(f, v < 0 or (v == 0 and str(v).startswith("-")),
                         abs(Fraction(v)))
    return ir.Constant(ir.IntType(f.bits), bits)


def refused_arithmetic(op) -> str | None:
    """Why `op` cannot be lowered (arith/math on a small format), or None."""
    if not op.name.startswith(("arith.", "math.")) or op.name in _PASS_THROUGH:
        return None
    for v in (*op.operands, *op.results):
        t = v.type
        el = t.element_type if isinstance(t, b.ContainerType) else t
        if format_of(el) is not None:
            return (f"'{op.name}' on {el.name} (LLVM has no such float type: MLIR 22 computes "
                    f"it only after convert-arith-to-apfloat)")
    return None


def _register() -> None:
    from runner_core.codegen.types import register_type

    for cls_name in ("Float8E5M2Type", "Float8E5M2FNUZType", "Float8E4M3Type",
                     "Float8E4M3FNType", "Float8E4M3FNUZType", "Float8E4M3B11FNUZType",
                     "Float8E3M4Type", "Float6E3M2FNType", "Float6E2M3FNType",
                     "Float4E2M1FNType"):
        cls = getattr(b, cls_name, None)
        if cls is not None:
            register_type(cls, llvm_type)


_register()
