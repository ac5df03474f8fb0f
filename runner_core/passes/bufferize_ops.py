"""How each tensor op becomes buffer code, for ``one-shot-bufferize`` (one function each).

Values are kept, never shared in a way a program could observe: an op that
writes a tensor (a linalg op's ``outs``, ``tensor.insert``) writes a new buffer
holding a copy of it, except where that tensor's buffer is *fresh* (made by an
op of this function for this value alone: ``tensor.empty``, a linalg result, a
splat) and the writing op is its only use.  That is the choice one-shot's
analysis makes wherever it finds no conflict, and a copy wherever it does; the
values every op reads are the same.  Ranked tensors become identity-layout
memrefs (``memref<?xf32>``), unranked ones ``memref<*xf32>``.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Operation, SSAValue

_INDEX = b.IndexType()


def is_tensor(t) -> bool:
    return isinstance(t, b.TensorType | b.UnrankedTensorType)


def memref_of(t):
    if isinstance(t, b.UnrankedTensorType):
        return b.UnrankedMemRefType.from_type(t.element_type)
    if isinstance(t, b.TensorType):
        return b.MemRefType(t.element_type, t.get_shape())
    return t


def retype(v: SSAValue, t) -> None:
    """Give a block argument or result its buffer type in place (its uses stay)."""
    v._type = t  # noqa: SLF001 - xDSL has no public setter for a value's type


class Rewriter:
    """Creates buffer ops before `anchor`, with its location; remembers fresh buffers."""

    def __init__(self, ctx: Context, fresh: set):
        self.ctx, self.fresh = ctx, fresh
        self.anchor: Operation | None = None

    def op(self, name, operands=(), result_types=(), properties=None, regions=()):
        new = self.ctx.get_op(name).create(operands=list(operands),
                                           result_types=list(result_types),
                                           properties=properties or {}, regions=list(regions))
        new.location = self.anchor.location
        self.anchor.parent_block().insert_op_before(new, self.anchor)
        return new

    def index(self, v: int) -> SSAValue:
        return self.op("arith.constant", [], [_INDEX],
                       {"value": b.IntegerAttr(v, _INDEX)}).results[0]

    def alloc(self, mtype: b.MemRefType, dynamic_sizes) -> SSAValue:
        new = self.op("memref.alloc", dynamic_sizes, [mtype], {
            "alignment": b.IntegerAttr(64, b.i64),
            "operandSegmentSizes": b.DenseArrayBase.from_list(b.i32, [len(dynamic_sizes), 0])})
        self.fresh.add(new.results[0])
        return new.results[0]

    def alloc_like(self, buf: SSAValue) -> SSAValue:
        t = buf.type
        sizes = [self.op("memref.dim", [buf, self.index(i)], [_INDEX]).results[0]
                 for i, d in enumerate(t.get_shape()) if d < 0]
        return self.alloc(b.MemRefType(t.element_type, t.get_shape()), sizes)

    def copy_of(self, buf: SSAValue) -> SSAValue:
        new = self.alloc_like(buf)
        self.op("memref.copy", [buf, new])
        return new

    def writable(self, tensor_use_count: int, buf: SSAValue) -> SSAValue:
        """A buffer the op may write: `buf` itself when fresh and used once, else a copy."""
        if buf in self.fresh and tensor_use_count == 1:
            return buf
        return self.copy_of(buf)

    def replace(self, op: Operation, values) -> None:
        for old, new in zip(op.results, values, strict=True):
            old.replace_all_uses_with(new)
        op.detach()
        op.erase()


def bufferize_cast(rw: Rewriter, op: Operation) -> None:
    new = rw.op("memref.cast", op.operands, [memref_of(op.results[0].type)])
    rw.replace(op, new.results)


def bufferize_dim(rw: Rewriter, op: Operation) -> None:
    rw.replace(op, rw.op("memref.dim", op.operands, [_INDEX]).results)


def bufferize_rank(rw: Rewriter, op: Operation) -> None:
    rw.replace(op, rw.op("memref.rank", op.operands, [_INDEX]).results)


def bufferize_empty(rw: Rewriter, op: Operation) -> None:
    rw.replace(op, [rw.alloc(memref_of(op.results[0].type), list(op.operands))])


def bufferize_splat(rw: Rewriter, op: Operation) -> None:
    from xdsl.dialects.linalg.ops import FillOp

    buf = rw.alloc(memref_of(op.results[0].type), list(op.operands[1:]))
    fill = FillOp([op.operands[0]], [buf], res=[])
    fill.location = op.location
    op.parent_block().insert_op_before(fill, op)
    rw.replace(op, [buf])


def bufferize_extract(rw: Rewriter, op: Operation) -> None:
    rw.replace(op, rw.op("memref.load", op.operands, [op.results[0].type]).results)


def bufferize_insert(rw: Rewriter, op: Operation, counts: list[int]) -> None:
    value, dest, *indices = op.operands
    buf = rw.writable(counts[1], dest)
    rw.op("memref.store", [value, buf, *indices])
    rw.replace(op, [buf])


def bufferize_from_elements(rw: Rewriter, op: Operation) -> None:
    t = op.results[0].type
    buf = rw.alloc(memref_of(t), [])
    shape = t.get_shape()
    for n, v in enumerate(op.operands):
        idx, rest = [], n
        for d in reversed(shape):
            idx.append(rest % d)
            rest //= d
        rw.op("memref.store", [v, buf, *[rw.index(i) for i in reversed(idx)]])
    rw.replace(op, [buf])


def bufferize_linalg(rw: Rewriter, op: Operation, counts: list[int]) -> None:
    """A destination-style linalg op: written into a (fresh or copied) buffer per init."""
    n_in = len(op.inputs)
    operands = list(op.operands)
    outs = []
    for i, v in enumerate(operands[n_in:]):
        buf = rw.writable(counts[n_in + i], v) if isinstance(
            v.type, b.MemRefType) else v
        outs.append(buf)
    new = type(op).create(operands=[*operands[:n_in], *outs], result_types=[],
                          properties=dict(op.properties), attributes=dict(op.attributes),
                          regions=[r.clone() for r in op.regions])
    new.location = op.location
    op.parent_block().insert_op_before(new, op)
    rw.replace(op, outs[:len(op.results)])


def bufferize_region_results(op: Operation) -> None:
    """scf.if / scf.execute_region: results take buffer types; yields carry buffers."""
    for r in op.results:
        retype(r, memref_of(r.type))
