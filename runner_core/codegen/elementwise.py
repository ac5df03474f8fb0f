"""Applying scalar/1-D operations to n-D vectors (arrays of LLVM vectors).

LLVM arithmetic already works on 1-D vectors; an n-D MLIR vector is lowered
(like upstream) to nested arrays of 1-D vectors, so elementwise ops recurse
over the outer array dimensions.
"""

from __future__ import annotations

from collections.abc import Callable

import llvmlite.ir as ir


def map_nd(builder: ir.IRBuilder, fn: Callable[..., ir.Value], *values: ir.Value,
           result_type: ir.Type | None = None) -> ir.Value:
    """``fn`` over the innermost 1-D vectors (or scalars) of same-shaped values."""
    first = values[0].type
    if not isinstance(first, ir.ArrayType):
        return fn(*values)
    out_type = result_type if result_type is not None else first
    agg = ir.Constant(out_type, ir.Undefined)
    for i in range(first.count):
        parts = [builder.extract_value(v, i) if isinstance(v.type, ir.ArrayType) else v
                 for v in values]
        sub = out_type.element if isinstance(out_type, ir.ArrayType) else None
        agg = builder.insert_value(agg, map_nd(builder, fn, *parts, result_type=sub), i)
    return agg


def scalarize(builder: ir.IRBuilder, fn: Callable[..., ir.Value], *values: ir.Value,
              result_elem: ir.Type | None = None) -> ir.Value:
    """``fn`` over every scalar lane (for operations with no vector form, e.g. libm)."""
    t = values[0].type
    if isinstance(t, ir.ArrayType):
        return map_nd(builder, lambda *vs: scalarize(builder, fn, *vs, result_elem=result_elem),
                      *values, result_type=_retype(t, result_elem))
    if not isinstance(t, ir.VectorType):
        return fn(*values)
    out_t = ir.VectorType(result_elem or t.element, t.count)
    vec = ir.Constant(out_t, ir.Undefined)
    for i in range(t.count):
        idx = ir.Constant(ir.IntType(32), i)
        lanes = [builder.extract_element(v, idx) if isinstance(v.type, ir.VectorType) else v
                 for v in values]
        vec = builder.insert_element(vec, fn(*lanes), idx)
    return vec


def _retype(t: ir.Type, elem: ir.Type | None) -> ir.Type:
    if elem is None:
        return t
    if isinstance(t, ir.ArrayType):
        return ir.ArrayType(_retype(t.element, elem), t.count)
    if isinstance(t, ir.VectorType):
        return ir.VectorType(elem, t.count)
    return elem


def retype(t: ir.Type, elem: ir.Type) -> ir.Type:
    """``t`` (scalar, vector or n-D array) with its scalar element type replaced."""
    return _retype(t, elem)


def scalar_of(t: ir.Type) -> ir.Type:
    while isinstance(t, ir.ArrayType):
        t = t.element
    if isinstance(t, ir.VectorType):
        return t.element
    return t
