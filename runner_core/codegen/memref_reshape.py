"""memref.reshape: a new descriptor over the source's buffer, sizes read from a shape memref.

As MLIR's lowering to LLVM: the result has the identity layout (row-major
strides from the sizes), the source's pointers and offset, and sizes loaded
from the shape operand (index elements only: see `_reshape`).  A shape
of dynamic length gives an unranked result: its descriptor is built on the
stack with a loop over the runtime rank.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from . import memref_desc as md
from .context import LoweringContext
from .memref import desc
from .registry import Registry
from .types import I64, PTR

registry = Registry()
lowering = registry.lowering


def _source_parts(ctx: LoweringContext, src) -> tuple[ir.Value, ir.Value, ir.Value]:
    bld = ctx.builder
    v = ctx.get(src)
    if isinstance(src.type, b.UnrankedMemRefType):
        _, dptr = md.unranked_fields(bld, v)
        header = ir.LiteralStructType([PTR, PTR, I64])
        off = bld.load(bld.gep(dptr, [ir.Constant(I64, 0), ir.Constant(ir.IntType(32), 2)],
                               source_etype=header), typ=I64)
        return (md.unranked_pointer(bld, dptr, aligned=False),
                md.unranked_pointer(bld, dptr, aligned=True), off)
    d = desc(ctx, src)
    return d.allocated(), d.aligned(), d.offset()


def _load_extent(ctx: LoweringContext, shape, index: ir.Value) -> ir.Value:
    bld = ctx.builder
    elem = ctx.types.element(shape.type)
    v = bld.load(md.element_pointer(bld, elem, desc(ctx, shape), [index]), typ=elem)
    if isinstance(v.type, ir.IntType) and v.type.width < 64:
        v = bld.sext(v, I64)
    elif isinstance(v.type, ir.IntType) and v.type.width > 64:
        v = bld.trunc(v, I64)
    return v


@lowering("memref.reshape")
def _reshape(ctx: LoweringContext, op) -> None:
    src, shape = op.operands
    rt = op.results[0].type
    bld = ctx.builder
    if not isinstance(shape.type.element_type, b.IndexType):
        # LLVM 22 lowers the loads of a dynamic-length integer shape as 64-bit loads
        # whatever the element width (garbage sizes for i32): not reproduced.
        raise ctx.unsupported(op, "'memref.reshape' with a shape of "
                                  f"{shape.type.element_type} elements (only index)")
    allocated, aligned, offset = _source_parts(ctx, src)
    if isinstance(rt, b.MemRefType):
        dims = list(rt.get_shape())
        sizes = [ir.Constant(I64, d) if d >= 0 else _load_extent(ctx, shape, ir.Constant(I64, i))
                 for i, d in enumerate(dims)]
        strides: list[ir.Value] = [ir.Constant(I64, 1)] * len(dims)
        for i in range(len(dims) - 2, -1, -1):
            a, c = strides[i + 1], sizes[i + 1]
            if isinstance(a, ir.Constant) and isinstance(c, ir.Constant):
                strides[i] = ir.Constant(I64, a.constant * c.constant)
            else:
                strides[i] = bld.mul(a, c)
        st = ctx.convert(rt)
        ctx.set_results(op, [md.build(bld, st, allocated, aligned, offset, sizes, strides)])
        return
    # Unranked result: rank = length of the shape; a descriptor of that rank on the stack.
    rank = desc(ctx, shape).size(0)
    words = bld.add(bld.mul(rank, ir.Constant(I64, 2)), ir.Constant(I64, 3))
    ut = ir.LiteralStructType([I64, PTR])
    u = bld.insert_value(ir.Constant(ut, ir.Undefined), rank, 0)
    u = bld.insert_value(u, bld.alloca(I64, size=words), 1)
    dptr = bld.extract_value(u, 1)  # as an opaque `ptr` (llvmlite keeps alloca's i64*)
    bld.store(allocated, dptr)
    bld.store(aligned, bld.gep(dptr, [ir.Constant(I64, 1)], source_etype=PTR))
    bld.store(offset, bld.gep(dptr, [ir.Constant(I64, 2)], source_etype=I64))
    head = bld.block
    loop, body, done = ctx.new_block("reshape.loop"), ctx.new_block("reshape.body"), \
        ctx.new_block("reshape.done")
    bld.branch(loop)
    bld.position_at_end(loop)
    i = bld.phi(I64)  # counts down from rank to 0
    stride = bld.phi(I64)
    i.add_incoming(rank, head)
    stride.add_incoming(ir.Constant(I64, 1), head)
    bld.cbranch(bld.icmp_signed(">", i, ir.Constant(I64, 0)), body, done)
    bld.position_at_end(body)
    k = bld.sub(i, ir.Constant(I64, 1))
    size = _load_extent(ctx, shape, k)
    bld.store(size, md.unranked_size_ptr(bld, dptr, rank, k, "size"))
    bld.store(stride, md.unranked_size_ptr(bld, dptr, rank, k, "stride"))
    i.add_incoming(k, bld.block)
    stride.add_incoming(bld.mul(stride, size), bld.block)
    bld.branch(loop)
    bld.position_at_end(done)
    ctx.set_results(op, [u])
