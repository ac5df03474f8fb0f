"""Lanes of lowered vectors: the helpers every vector lowering shares.

An n-D MLIR vector lowers as upstream lowers it: nested LLVM arrays of 1-D
LLVM vectors (`vector<2x3xf32>` is `[2 x <3 x float>]`).  Most vector ops
here are lowered lane by lane: take every scalar out (row-major), pick or
combine, build the result back.  Lanes of constants are read without
emitting instructions, so masks and index vectors known at compile time cost
nothing and guarded memory accesses on them need no branch.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from .types import I32


def shape_of(t) -> list[int]:
    return list(t.get_shape()) if isinstance(t, b.VectorType) else []


def count(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def unflatten(flat: int, shape) -> list[int]:
    idx = []
    for d in reversed(shape):
        idx.append(flat % d)
        flat //= d
    return list(reversed(idx))


def flatten(idx, shape) -> int:
    flat = 0
    for i, d in zip(idx, shape, strict=True):
        flat = flat * d + i
    return flat


def to_lanes(bld: ir.IRBuilder, value: ir.Value) -> list[ir.Value]:
    """Every scalar of a lowered (n-D) vector, row-major."""
    t = value.type
    if isinstance(value, ir.Constant) and isinstance(value.constant, list) \
            and isinstance(t, (ir.ArrayType, ir.VectorType)):
        out = []
        for part in value.constant:
            out += to_lanes(bld, part) if isinstance(t, ir.ArrayType) else [part]
        return out
    if isinstance(t, ir.ArrayType):
        out = []
        for i in range(t.count):
            out += to_lanes(bld, bld.extract_value(value, i))
        return out
    if isinstance(t, ir.VectorType):
        return [bld.extract_element(value, ir.Constant(I32, i)) for i in range(t.count)]
    return [value]


def from_lanes(bld: ir.IRBuilder, lanes: list[ir.Value], t: ir.Type) -> ir.Value:
    """The lowered vector of type ``t`` holding ``lanes`` (row-major)."""
    if isinstance(t, ir.ArrayType):
        n = len(lanes) // t.count
        agg = ir.Constant(t, ir.Undefined)
        for i in range(t.count):
            agg = bld.insert_value(agg, from_lanes(bld, lanes[i * n:(i + 1) * n], t.element), i)
        return agg
    if isinstance(t, ir.VectorType):
        if all(isinstance(x, ir.Constant) for x in lanes):
            return ir.Constant(t, list(lanes))
        vec = ir.Constant(t, ir.Undefined)
        for i, x in enumerate(lanes):
            vec = bld.insert_element(vec, x, ir.Constant(I32, i))
        return vec
    (x,) = lanes
    return x


def splat(bld: ir.IRBuilder, scalar: ir.Value, t: ir.Type) -> ir.Value:
    """``scalar`` in every lane of the lowered vector type ``t``."""
    if isinstance(t, ir.ArrayType):
        inner = splat(bld, scalar, t.element)
        agg = ir.Constant(t, ir.Undefined)
        for i in range(t.count):
            agg = bld.insert_value(agg, inner, i)
        return agg
    if isinstance(scalar, ir.Constant):
        return ir.Constant(t, [scalar] * t.count)
    one = bld.insert_element(ir.Constant(ir.VectorType(t.element, 1), ir.Undefined), scalar,
                             ir.Constant(I32, 0))
    mask = ir.Constant(ir.VectorType(I32, t.count), [ir.Constant(I32, 0)] * t.count)
    return bld.shuffle_vector(one, ir.Constant(one.type, ir.Undefined), mask)


def known_bit(v: ir.Value) -> bool | None:
    """The value of an i1 lane known at compile time, else None."""
    if isinstance(v, ir.Constant) and isinstance(v.type, ir.IntType) \
            and isinstance(v.constant, int):
        return bool(v.constant & 1)
    return None


def and_bits(bld: ir.IRBuilder, a: ir.Value | None, c: ir.Value) -> ir.Value:
    """``a and c`` over i1 lanes (``a`` None: true), folding known bits."""
    if a is None:
        return c
    ka, kc = known_bit(a), known_bit(c)
    if ka is True or kc is False:
        return c
    if kc is True or ka is False:
        return a
    return bld.and_(a, c)


def permute(bld: ir.IRBuilder, value: ir.Value, picks: list[int], t: ir.Type) -> ir.Value:
    """The lowered vector of type ``t`` whose lane k is lane ``picks[k]`` of ``value``
    (one shufflevector when both are 1-D)."""
    if isinstance(value.type, ir.VectorType) and isinstance(t, ir.VectorType) \
            and not isinstance(value, ir.Constant):
        mask = ir.Constant(ir.VectorType(I32, len(picks)), [ir.Constant(I32, p) for p in picks])
        return bld.shuffle_vector(value, ir.Constant(value.type, ir.Undefined), mask)
    lanes = to_lanes(bld, value)
    return from_lanes(bld, [lanes[p] for p in picks], t)
