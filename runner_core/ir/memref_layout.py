"""What a memref type fixes statically: rank, strides and offset of its layout.

Facts of the IR type alone (no LLVM), shared by code generation's memref
descriptors and by passes that reason about layouts.
"""

from __future__ import annotations

from xdsl.dialects import builtin as b

DYNAMIC = -9223372036854775808  # MLIR's ShapedType::kDynamic


def rank_of(t) -> int:
    return len(t.get_shape())


def static_strides_offset(t: b.MemRefType) -> tuple[list[int | None], int | None]:
    """Strides and offset a memref type fixes statically (None where dynamic)."""
    rank = len(t.get_shape())
    try:
        strides = t.get_strides()
        off = t.get_offset()
    except Exception:  # layouts xDSL cannot analyse: trust the descriptor
        strides, off = None, None
    if strides is None:
        return [None] * rank, None
    strides = [None if s is None or s == DYNAMIC else int(s) for s in strides]
    off = None if off is None or off == DYNAMIC else int(off)
    return strides, off


def is_identity_layout(t: b.MemRefType) -> bool:
    layout = t.layout
    if isinstance(layout, b.NoneAttr) or layout is None:
        return True
    if isinstance(layout, b.StridedLayoutAttr):
        strides, off = static_strides_offset(t)
        shape = list(t.get_shape())
        if off != 0 or any(s is None for s in strides) or any(d < 0 for d in shape):
            return False
        expect = 1
        for d, s in zip(reversed(shape), reversed(strides), strict=True):
            if s != expect and d != 1:
                return False
            expect *= d
        return True
    return False
