"""Slices, generated and padded tensors as buffers, for ``one-shot-bufferize``.

``tensor.extract_slice`` becomes a ``memref.subview`` of its source's buffer,
read in place where every use only reads it (``tensor.extract``/``dim``, a
linalg input, the source of another slice or an ``insert_slice``): LLVM 22's
in-place choice, with the same strided layout.  A slice that is written gets
a fresh buffer holding a copy (``linalg.copy`` for a linalg writer, whose
lowering the pipeline already has, else ``memref.copy``), so its source keeps
its value.  A slice whose buffer could reach a function boundary (a call, a
return, through casts and writers) is refused: LLVM 22 would pass the strided
view itself there, and a printed layout would differ.

``tensor.insert_slice`` copies its source into a subview of the destination's
buffer (the destination copied first unless it is fresh and used once), as
LLVM 22 does.  ``tensor.generate`` and ``tensor.pad`` allocate and fill the
buffer with a ``linalg.generic`` (LLVM 22 writes a ``linalg.map``: both need
the linalg lowering the pipeline must then have); ``pad`` then copies its
source into the interior.
"""

from __future__ import annotations

from xdsl.dialects import builtin as b
from xdsl.ir import Block, Operation, Region, SSAValue

from runner_core.passes.bufferize_ops import memref_of

KDYN = -(2 ** 63)
_INDEX = b.IndexType()
_READ_ONLY = ("tensor.extract", "tensor.dim", "tensor.extract_slice")


def slice_view_ok(op: Operation) -> bool:
    """Whether every use of the slice result only reads it (so a view suffices)."""
    for use in op.results[0].uses:
        user = use.operation
        if user.name in _READ_ONLY and use.index == 0:
            continue
        if user.name in ("tensor.insert_slice", "tensor.pad") and use.index == 0:
            continue
        if user.name.startswith("linalg.") and hasattr(user, "inputs") and \
                use.index < len(user.inputs):
            continue
        return False
    return True


def reaches_boundary(v: SSAValue, depth: int = 0, through_writes: bool = True
                     ) -> Operation | None:
    """A call, return or yield that the buffer of `v` (or one aliasing it) reaches.

    Without `through_writes` (a slice of a constant: LLVM 22 copies a read-only
    buffer before any write), writers end the search."""
    if depth > 64:
        return None
    for use in v.uses:
        user = use.operation
        if user.name in ("func.call", "func.return", "scf.yield", "scf.condition"):
            return user
        follow = []
        if user.name == "tensor.cast":
            follow = list(user.results)
        elif not through_writes:
            pass
        elif user.name in ("tensor.insert", "tensor.insert_slice") and use.index == 1:
            follow = list(user.results)
        elif user.name.startswith("linalg.") and hasattr(user, "inputs") and \
                use.index >= len(user.inputs):
            follow = [user.results[use.index - len(user.inputs)]] if user.results else []
        for r in follow:
            found = reaches_boundary(r, depth + 1, through_writes)
            if found is not None:
                return found
    return None


def constant_source(v: SSAValue) -> bool:
    """Whether `v` is (through casts and slices) a tensor constant's buffer."""
    while isinstance(v.owner, Operation) and v.owner.name in ("tensor.cast",
                                                              "tensor.extract_slice"):
        v = v.owner.operands[0]
    return isinstance(v.owner, Operation) and v.owner.name == "arith.constant"


def _strided(t) -> tuple[list, object]:
    strides = list(t.get_strides())
    off = t.get_offset()
    return strides, off if isinstance(off, int) else None


def subview(rw, buf: SSAValue, op: Operation, result_shape) -> SSAValue:
    """A (rank-reducing) memref.subview of `buf` with `op`'s offsets/sizes/strides."""
    offs = list(op.properties["static_offsets"].get_values())
    sizes = list(op.properties["static_sizes"].get_values())
    steps = list(op.properties["static_strides"].get_values())
    src_strides, src_off = _strided(buf.type)
    off = src_off
    strides = []
    for o, s, st in zip(offs, steps, src_strides, strict=True):
        # MLIR's saturated arithmetic: 0 times anything is 0, else `?` wins.
        if off is not None and o != 0:
            off = None if o == KDYN or st is None else off + o * st
        strides.append(0 if s == 0 or st == 0 else (
            None if s == KDYN or st is None else s * st))
    # Unit dimensions the result drops, greedily from the left (MLIR's rank-reduction mask).
    kept, j = [], 0
    result_shape = list(result_shape)
    for i, size in enumerate(sizes):
        want = result_shape[j] if j < len(result_shape) else None
        size_shape = -1 if size == KDYN else size
        if want is not None and want == size_shape:
            kept.append(i)
            j += 1
        elif size != 1:
            kept.append(i)
            j += 1
    layout = b.StridedLayoutAttr([strides[i] for i in kept], off)
    mtype = b.MemRefType(buf.type.element_type, result_shape, layout)
    dyn = [list(op.offsets), list(op.sizes), list(op.strides)]
    props = {"static_offsets": op.properties["static_offsets"],
             "static_sizes": op.properties["static_sizes"],
             "static_strides": op.properties["static_strides"],
             "operandSegmentSizes": b.DenseArrayBase.from_list(
                 b.i32, [1, *[len(d) for d in dyn]])}
    return rw.op("memref.subview", [buf, *dyn[0], *dyn[1], *dyn[2]], [mtype], props).results[0]


def bufferize_extract_slice(rw, op: Operation) -> None:
    t = op.results[0].type
    view = subview(rw, op.operands[0], op, t.get_shape())
    if slice_view_ok(op):
        rw.replace(op, [view])
        return
    sizes = [rw.op("memref.dim", [view, rw.index(i)], [_INDEX]).results[0]
             for i, d in enumerate(t.get_shape()) if d < 0]
    new = rw.alloc(memref_of(t), sizes)
    if any(u.operation.name.startswith("linalg.") for u in op.results[0].uses):
        _linalg_copy(rw, view, new)
    else:
        rw.op("memref.copy", [view, new])
    rw.replace(op, [new])


def _linalg_copy(rw, src: SSAValue, dst: SSAValue) -> None:
    from xdsl.dialects.linalg.ops import CopyOp

    copy = CopyOp([src], [dst], res=[])
    copy.location = rw.anchor.location
    rw.anchor.parent_block().insert_op_before(copy, rw.anchor)


def bufferize_insert_slice(rw, op: Operation, counts: list[int]) -> None:
    src, dest = op.operands[0], op.operands[1]
    buf = rw.writable(counts[1], dest)
    view = subview(rw, buf, op, op.operands[0].type.get_shape())
    rw.op("memref.copy", [src, view])
    rw.replace(op, [buf])


def _fill_generic(rw, buf: SSAValue, body: Block) -> None:
    """Writes `buf[i...]` = the value `body` (index arguments, tensor.yield) yields."""
    from xdsl.dialects.builtin import AffineMapAttr
    from xdsl.dialects.linalg.attrs import IteratorTypeAttr
    from xdsl.dialects.linalg.ops import GenericOp, YieldOp
    from xdsl.ir.affine import AffineMap

    rank = len(buf.type.get_shape())
    elem = buf.type.element_type
    new_block = Block(arg_types=[elem])
    idx = []
    for d in range(rank):
        i = rw.ctx.get_op("linalg.index").create(
            result_types=[_INDEX], properties={"dim": b.IntegerAttr(d, b.i64)})
        i.location = rw.anchor.location
        new_block.add_op(i)
        idx.append(i.results[0])
    for arg, v in zip(body.args, idx, strict=True):
        arg.replace_all_uses_with(v)
    for inner in list(body.ops):
        inner.detach()
        if inner.name == "tensor.yield":
            y = YieldOp(*inner.operands)
            y.location = inner.location
            new_block.add_op(y)
            inner.erase()
        else:
            new_block.add_op(inner)
    gen = GenericOp([], [buf], Region(new_block),
                           b.ArrayAttr([AffineMapAttr(AffineMap.identity(rank))]),
                           b.ArrayAttr([IteratorTypeAttr.parallel()] * rank),
                           [])
    gen.location = rw.anchor.location
    rw.anchor.parent_block().insert_op_before(gen, rw.anchor)


def bufferize_generate(rw, op: Operation) -> None:
    buf = rw.alloc(memref_of(op.results[0].type), list(op.operands))
    _fill_generic(rw, buf, op.regions[0].blocks.first)
    rw.replace(op, [buf])


def bufferize_pad(rw, op: Operation) -> None:
    t = op.results[0].type
    src = op.operands[0]
    low_static = list(op.properties["static_low"].get_values())
    high_static = list(op.properties["static_high"].get_values())
    lows, highs = iter(op.low), iter(op.high)
    low_vals, sizes = [], []
    for i, (lo, hi) in enumerate(zip(low_static, high_static, strict=True)):
        lo_v = next(lows) if lo == KDYN else None
        hi_v = next(highs) if hi == KDYN else None
        low_vals.append(lo_v)
        if t.get_shape()[i] >= 0:
            continue
        n = rw.op("memref.dim", [src, rw.index(i)], [_INDEX]).results[0]
        for part, static in ((lo_v, lo), (hi_v, hi)):
            p = part if part is not None else rw.index(static)
            n = rw.op("arith.addi", [n, p], [_INDEX]).results[0]
        sizes.append(n)
    buf = rw.alloc(memref_of(t), sizes)
    _fill_generic(rw, buf, op.regions[0].blocks.first)
    src_shape = src.type.get_shape()
    src_sizes = [rw.op("memref.dim", [src, rw.index(i)], [_INDEX]).results[0]
                 for i, d in enumerate(src_shape) if d < 0]
    offs_dyn = [v for v in low_vals if v is not None]
    view_op = _SliceSpec(low_static, [d if d >= 0 else KDYN for d in src_shape],
                         [1] * len(src_shape), offs_dyn, src_sizes, [])
    view = subview(rw, buf, view_op, src_shape)
    rw.op("memref.copy", [src, view])
    rw.replace(op, [buf])


class _SliceSpec:
    """Offsets, sizes and strides in the shape `subview` reads from a slice op."""

    def __init__(self, offs, sizes, steps, dyn_offs, dyn_sizes, dyn_steps):
        self.properties = {"static_offsets": b.DenseArrayBase.from_list(b.i64, offs),
                           "static_sizes": b.DenseArrayBase.from_list(b.i64, sizes),
                           "static_strides": b.DenseArrayBase.from_list(b.i64, steps)}
        self.offsets, self.sizes, self.strides = dyn_offs, dyn_sizes, dyn_steps
