"""mlir-opt 22's check of a memref.subview's result layout (xDSL's verifier has none).

MLIR infers the subview's strided layout from the source's strides and offset
(offset = source offset + sum(offset_i * stride_i), stride_i = source stride_i *
subview stride_i, each `?` where an input is dynamic) and requires the written
result type to have exactly that layout, up to dropped unit dimensions.  Without
this check the embedded mlir-opt accepted what the real one refuses (upstream's
Linalg/CPU/rank-reducing-subview.mlir): a verdict LLVM 22 would not give.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, NoneAttr

DYN = None  # a dynamic stride or offset, as xDSL's get_strides() gives it
_KDYN = -(2 ** 63)


def _layout(memref) -> tuple[list[int | None], int | None] | None:
    try:
        strides = list(memref.get_strides())
        offset = memref.get_offset()
    except Exception:  # an affine-map layout: not a strided one, not checked here
        return None
    if strides is None or any(s is not None and not isinstance(s, int) for s in strides):
        return None
    return strides, offset if isinstance(offset, int) else DYN


def _mul(a, b):
    """MLIR's saturated product: 0 times anything (even `?`) is 0, else `?` wins."""
    if a == 0 or b == 0:
        return 0
    return None if a is None or b is None else a * b


def expected_layout(op) -> tuple[list[int], list[int | None], int | None] | None:
    """(static sizes, strides, offset) mlir-opt infers for `op`'s result."""
    src = _layout(op.operands[0].type)
    if src is None:
        return None
    strides, offset = src
    offs = list(op.properties["static_offsets"].get_values())
    sizes = list(op.properties["static_sizes"].get_values())
    steps = list(op.properties["static_strides"].get_values())
    if not (len(offs) == len(sizes) == len(steps) == len(strides)):
        return None
    for o, s in zip(offs, strides, strict=True):
        term = _mul(None if o == _KDYN else o, s)
        offset = None if offset is None or term is None else offset + term
    out = [_mul(s, None if t == _KDYN else t) for s, t in zip(strides, steps, strict=True)]
    return sizes, out, offset


def _text(shape, element, strides, offset, space: str = "") -> str:
    dims = "".join(("?" if d == _KDYN or d is None else str(d)) + "x" for d in shape)
    st = ", ".join("?" if s is None else str(s) for s in strides)
    off = "" if offset == 0 else f", offset: {'?' if offset is None else offset}"
    return f"memref<{dims}{element}, strided<[{st}]{off}>{space}>"


def check_subview(op, printed_type) -> str | None:
    """mlir-opt's message when the result layout is not the inferred one, else None."""
    inferred = expected_layout(op)
    result = op.results[0].type
    got = _layout(result)
    if inferred is None or got is None:
        return None
    sizes, strides, offset = inferred
    shape = list(result.get_shape())
    kept, j = [], 0
    for i, size in enumerate(sizes):
        if j < len(shape) and (size == shape[j] or (size == _KDYN and shape[j] == -1)):
            kept.append(i)
            j += 1
        elif size != 1:
            return None  # a size mismatch: not this check's business
    if j != len(shape):
        return None
    if got[1] == offset and [strides[i] for i in kept] == got[0]:
        return None
    element = printed_type(result.element_type)
    space = getattr(result, "memory_space", None)
    if space is None or isinstance(space, NoneAttr):
        space = ""
    elif isinstance(space, IntegerAttr):  # `3`, as a memref type spells it
        space = f", {space.value.data}"
    else:
        space = f", {printed_type(space)}"
    return (f"expected result type to be '{_text(sizes, element, strides, offset, space)}' "
            f"or a "
            f"rank-reduced version. (mismatch of result layout), but got "
            f"'{printed_type(result)}'")
