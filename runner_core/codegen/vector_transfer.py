"""vector.transfer_read / vector.transfer_write on memrefs, with MLIR 22's meaning.

A transfer moves an n-D vector from or to ``base[indices]``.  Its permutation
map says, for each vector dimension, which memref dimension it walks (``d_k``)
or that it is a broadcast (``0``: every lane along it reads the same
element).  A lane whose position is past the end of a walked dimension that
is not ``in_bounds`` reads the padding (is not written); so does a lane whose
mask bit is off.  The mask is laid out as memory is walked: the walked vector
dimensions ordered by memref dimension (what upstream's
``inferTransferOpMaskType`` gives).

Rows along a contiguous innermost memref dimension (the common minor-identity
case) are one LLVM load or store, masked where a bound or the mask is not
known to hold; other forms go lane by lane with a guarded scalar access.
"""

from __future__ import annotations

from dataclasses import dataclass

import llvmlite.ir as ir
from xdsl.dialects import builtin as b
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr

from . import memref_desc as md
from .context import LoweringContext
from .memref import desc
from .registry import Registry
from .types import I1, I32, I64, VOID
from .vector_lanes import and_bits, count, flatten, from_lanes, shape_of, splat, to_lanes, unflatten
from .vector_memory import guarded_load, guarded_store

registry = Registry()
lowering = registry.lowering


@dataclass
class _Geometry:
    vshape: list[int]
    walks: list[int | None]  # per vector dim: the memref dim it walks, None: broadcast
    in_bounds: list[bool]
    mask_dims: list[int]  # vector dims in the mask's order

    def mask_shape(self) -> list[int]:
        return [self.vshape[j] for j in self.mask_dims]


def _geometry(ctx: LoweringContext, op, vtype) -> _Geometry:
    vshape = shape_of(vtype)
    amap = op.permutation_map.data
    walks: list[int | None] = []
    for e in amap.results:
        if isinstance(e, AffineDimExpr):
            walks.append(e.position)
        elif isinstance(e, AffineConstantExpr) and e.value == 0:
            walks.append(None)
        else:
            raise ctx.unsupported(op, f"{op.name} with permutation map {amap}")
    ib = op.properties.get("in_bounds") or op.attributes.get("in_bounds")
    in_bounds = [bool(x.value.data) for x in ib.data] if ib is not None else \
        [False] * len(vshape)
    mask_dims = sorted((j for j, d in enumerate(walks) if d is not None),
                       key=lambda j: walks[j])
    return _Geometry(vshape, walks, in_bounds, mask_dims)


def _check_operands(ctx: LoweringContext, op, base) -> None:
    if not isinstance(base.type, b.MemRefType):
        raise ctx.unsupported(op, f"{op.name} on a {base.type} (only memrefs are lowered; "
                                  f"bufferize tensors first)")
    if isinstance(base.type.element_type, b.VectorType):
        raise ctx.unsupported(op, f"{op.name} on a memref of vectors ({base.type})")


def _contiguous_rows(base_type: b.MemRefType, g: _Geometry) -> bool:
    """Whether the innermost vector dim walks the innermost memref dim, at unit stride."""
    rank = len(base_type.get_shape())
    if not g.vshape or rank == 0 or g.walks[-1] != rank - 1:
        return False
    strides, _ = md.static_strides_offset(base_type)
    return bool(strides) and strides[-1] == 1


class _Access:
    """Positions, bounds and mask of one transfer, shared by read and write."""

    def __init__(self, ctx: LoweringContext, op, base, g: _Geometry, mask_value, extra_mask):
        self.ctx, self.g = ctx, g
        self.bld = ctx.builder
        self.d = desc(ctx, base)
        self.elem = ctx.types.element(base.type)
        self.base_idx = ctx.get_all(op.indices)
        self.mask = to_lanes(self.bld, mask_value) if mask_value is not None else None
        self.extra = to_lanes(self.bld, extra_mask) if extra_mask is not None else None
        self.align = ctx.types.alignof(self.elem)

    def position(self, v: list[int], skip_last: bool = False) -> list[ir.Value]:
        idx = list(self.base_idx)
        dims = range(len(v) - 1) if skip_last else range(len(v))
        for j in dims:
            d = self.g.walks[j]
            if d is not None and v[j]:
                idx[d] = self.bld.add(idx[d], ir.Constant(I64, v[j]))
        return idx

    def bound_ok(self, v: list[int], dims) -> ir.Value | None:
        """All walked, not in-bounds dims among ``dims`` inside the memref (None: known)."""
        cond = None
        for j in dims:
            d = self.g.walks[j]
            if d is None or self.g.in_bounds[j]:
                continue
            pos = self.bld.add(self.base_idx[d], ir.Constant(I64, v[j])) if v[j] \
                else self.base_idx[d]
            cond = and_bits(self.bld, cond, self.bld.icmp_signed("<", pos, self.d.size(d)))
        return cond

    def mask_bit(self, v: list[int]) -> ir.Value | None:
        cond = None
        if self.mask is not None:
            g = self.g
            cond = self.mask[flatten([v[j] for j in g.mask_dims], g.mask_shape())]
        if self.extra is not None:
            cond = and_bits(self.bld, cond, self.extra[flatten(v, self.g.vshape)])
        return cond

    def lane_cond(self, v: list[int]) -> ir.Value | None:
        bound = self.bound_ok(v, range(len(v)))
        mask = self.mask_bit(v)
        return and_bits(self.bld, bound, mask) if mask is not None else bound

    def ptr_fn(self, idx):
        return lambda: md.element_pointer(self.bld, self.elem, self.d, idx)

    # -- rows: the innermost dim, contiguous
    def row_mask(self, outer: list[int]) -> tuple[ir.Value | None, bool]:
        """The i1 vector of a row's lanes that are accessed, and whether it is all-true."""
        bld, g = self.bld, self.g
        n = g.vshape[-1]
        row_cond = self.bound_ok(outer + [0], range(len(g.vshape) - 1))
        lanes = []
        for i in range(n):
            v = outer + [i]
            bit = self.mask_bit(v)
            lanes.append(bit)
        need_inner = not g.in_bounds[-1]
        if row_cond is None and not need_inner and all(x is None for x in lanes):
            return None, True
        vec_t = ir.VectorType(I1, n)
        if need_inner:
            d = g.walks[-1]
            start = self.base_idx[d]
            room = bld.sub(self.d.size(d), start)
            steps = ir.Constant(ir.VectorType(I64, n), [ir.Constant(I64, i) for i in range(n)])
            inner = bld.icmp_signed("<", steps, splat(bld, room, ir.VectorType(I64, n)))
        else:
            inner = None
        if any(x is not None for x in lanes):
            m = from_lanes(bld, [x if x is not None else ir.Constant(I1, 1) for x in lanes],
                           vec_t)
            inner = m if inner is None else bld.and_(inner, m)
        if row_cond is not None:
            rc = splat(bld, row_cond, vec_t)
            inner = rc if inner is None else bld.and_(inner, rc)
        return inner, False


def lower_read(ctx: LoweringContext, op, extra_mask: ir.Value | None = None) -> ir.Value:
    """The lowered result of a transfer_read (``extra_mask``: a vector.mask around it,
    one bit per result lane)."""
    base = op.source
    _check_operands(ctx, op, base)
    rt = op.results[0].type
    g = _geometry(ctx, op, rt)
    acc = _Access(ctx, op, base, g, ctx.get(op.mask) if op.mask is not None else None,
                  extra_mask)
    bld = ctx.builder
    pad = ctx.get(op.padding)
    lrt = ctx.convert(rt)
    if _contiguous_rows(base.type, g) and (acc.extra is None):
        n = g.vshape[-1]
        row_t = ir.VectorType(acc.elem, n)
        rows = []
        for r in range(count(g.vshape[:-1])):
            outer = unflatten(r, g.vshape[:-1])
            mask, full = acc.row_mask(outer)
            ptr = md.element_pointer(bld, acc.elem, acc.d, acc.position(outer + [0]))
            if full:
                rows.append(bld.load(ptr, typ=row_t, align=acc.align))
                continue
            rows.append(ctx.intrinsic("llvm.masked.load", row_t,
                                      [ptr, ir.Constant(I32, acc.align), mask,
                                       splat(bld, pad, row_t)], [row_t, ptr.type]))
        lanes = []
        for row in rows:
            lanes += to_lanes(bld, row)
        return from_lanes(bld, lanes, lrt)
    lanes = []
    for flat in range(count(g.vshape)):
        v = unflatten(flat, g.vshape)
        lanes.append(guarded_load(ctx, acc.lane_cond(v), acc.ptr_fn(acc.position(v)),
                                  acc.elem, pad, acc.align))
    return from_lanes(bld, lanes, lrt)


def lower_write(ctx: LoweringContext, op, extra_mask: ir.Value | None = None) -> None:
    vec_v, base = op.vector, op.source
    _check_operands(ctx, op, base)
    g = _geometry(ctx, op, vec_v.type)
    if any(w is None for w in g.walks):
        raise ctx.unsupported(op, "vector.transfer_write with a broadcast in its "
                                  "permutation map")
    acc = _Access(ctx, op, base, g, ctx.get(op.mask) if op.mask is not None else None,
                  extra_mask)
    bld = ctx.builder
    value = ctx.get(vec_v)
    lanes = to_lanes(bld, value)
    if _contiguous_rows(base.type, g) and acc.extra is None:
        n = g.vshape[-1]
        row_t = ir.VectorType(acc.elem, n)
        for r in range(count(g.vshape[:-1])):
            outer = unflatten(r, g.vshape[:-1])
            row = from_lanes(bld, lanes[r * n:(r + 1) * n], row_t)
            mask, full = acc.row_mask(outer)
            ptr = md.element_pointer(bld, acc.elem, acc.d, acc.position(outer + [0]))
            if full:
                bld.store(row, ptr, align=acc.align)
                continue
            ctx.intrinsic("llvm.masked.store", VOID,
                          [row, ptr, ir.Constant(I32, acc.align), mask], [row_t, ptr.type])
        return
    for flat, lane in enumerate(lanes):
        v = unflatten(flat, g.vshape)
        guarded_store(ctx, acc.lane_cond(v), lane, acc.ptr_fn(acc.position(v)), acc.align)


@lowering("vector.transfer_read")
def _transfer_read(ctx: LoweringContext, op) -> None:
    ctx.set_results(op, [lower_read(ctx, op)])


@lowering("vector.transfer_write")
def _transfer_write(ctx: LoweringContext, op) -> None:
    if op.results:
        raise ctx.unsupported(op, "vector.transfer_write to a tensor (bufferize first)")
    lower_write(ctx, op)
