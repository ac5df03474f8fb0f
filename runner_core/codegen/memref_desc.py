"""Reading and building memref descriptors, and addressing their elements.

A ranked descriptor is an LLVM struct value ``{allocated, aligned, offset,
sizes[N], strides[N]}``; this module is the only code that knows the field
numbers.  Static facts from the MLIR type (constant strides/offset of a
layout, static sizes) are preferred over loads from the descriptor so that
unoptimised (-O0) code stays small.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from runner_core.ir.memref_layout import DYNAMIC as DYNAMIC  # re-exported: md.DYNAMIC
from runner_core.ir.memref_layout import is_identity_layout as is_identity_layout
from runner_core.ir.memref_layout import rank_of as rank_of
from runner_core.ir.memref_layout import static_strides_offset as static_strides_offset

from .types import I64, PTR


class Descriptor:
    """Accessors over one lowered ranked memref value."""

    def __init__(self, builder: ir.IRBuilder, value: ir.Value, mtype: b.MemRefType):
        self.builder = builder
        self.value = value
        self.type = mtype
        self.rank = rank_of(mtype)

    def allocated(self) -> ir.Value:
        return self.builder.extract_value(self.value, 0)

    def aligned(self) -> ir.Value:
        return self.builder.extract_value(self.value, 1)

    def offset(self) -> ir.Value:
        _, off = static_strides_offset(self.type)
        if off is not None:
            return ir.Constant(I64, off)
        return self.builder.extract_value(self.value, 2)

    def size(self, i: int) -> ir.Value:
        d = self.type.get_shape()[i]
        if d >= 0:
            return ir.Constant(I64, d)
        return self.builder.extract_value(self.value, [3, i])

    def stride(self, i: int) -> ir.Value:
        strides, _ = static_strides_offset(self.type)
        if strides[i] is not None:
            return ir.Constant(I64, strides[i])
        return self.builder.extract_value(self.value, [4, i])

    def sizes(self) -> list[ir.Value]:
        return [self.size(i) for i in range(self.rank)]

    def strides(self) -> list[ir.Value]:
        return [self.stride(i) for i in range(self.rank)]


def build(builder: ir.IRBuilder, struct_type: ir.LiteralStructType, allocated, aligned,
          offset, sizes, strides) -> ir.Value:
    agg = ir.Constant(struct_type, ir.Undefined)
    agg = builder.insert_value(agg, allocated, 0)
    agg = builder.insert_value(agg, aligned, 1)
    agg = builder.insert_value(agg, offset, 2)
    for i, s in enumerate(sizes):
        agg = builder.insert_value(agg, s, [3, i])
    for i, s in enumerate(strides):
        agg = builder.insert_value(agg, s, [4, i])
    return agg


def linear_index(builder: ir.IRBuilder, desc: Descriptor, indices: list[ir.Value]) -> ir.Value:
    """``offset + sum(index_i * stride_i)`` with constants folded where known."""
    terms = []
    off = desc.offset()
    for i, idx in enumerate(indices):
        st = desc.stride(i)
        if isinstance(st, ir.Constant) and st.constant == 1:
            terms.append(idx)
        else:
            terms.append(builder.mul(idx, st))
    acc = off
    for t in terms:
        if isinstance(acc, ir.Constant) and acc.constant == 0:
            acc = t
        else:
            acc = builder.add(acc, t)
    return acc


def element_pointer(builder: ir.IRBuilder, elem_type: ir.Type, desc: Descriptor,
                    indices: list[ir.Value]) -> ir.Value:
    base = desc.aligned()
    lin = linear_index(builder, desc, indices)
    if isinstance(lin, ir.Constant) and lin.constant == 0:
        return base
    return builder.gep(base, [lin], inbounds=True, source_etype=elem_type)


def unranked_fields(builder: ir.IRBuilder, value: ir.Value) -> tuple[ir.Value, ir.Value]:
    """(rank, pointer to the ranked descriptor in memory) of an unranked memref."""
    return builder.extract_value(value, 0), builder.extract_value(value, 1)


def unranked_pointer(builder: ir.IRBuilder, desc_ptr: ir.Value, aligned: bool) -> ir.Value:
    """The allocated (or aligned) pointer of the ranked descriptor an unranked memref points to."""
    field = builder.gep(desc_ptr, [ir.Constant(I64, 1)], source_etype=PTR) if aligned \
        else desc_ptr
    return builder.load(field, typ=PTR)


def unranked_size_ptr(builder: ir.IRBuilder, desc_ptr: ir.Value, rank: ir.Value,
                      dim: ir.Value, which: str) -> ir.Value:
    """Address of sizes[dim] (or strides[dim]) inside a descriptor of dynamic rank."""
    # Layout in memory: ptr, ptr, i64 offset, i64 sizes[rank], i64 strides[rank].
    header = ir.LiteralStructType([PTR, PTR, I64])
    first = builder.gep(desc_ptr, [ir.Constant(I64, 1)], source_etype=header)
    idx = dim if which == "size" else builder.add(rank, dim)
    return builder.gep(first, [idx], source_etype=I64)
