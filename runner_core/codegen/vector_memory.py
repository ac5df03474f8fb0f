"""vector dialect: memory access (loads, stores, masked / indexed forms) and masks.

What LLVM 22's ``convert-vector-to-llvm`` lowers, this lowers to the same
meaning: ``vector.load``/``store`` as one wide access, ``maskedload``/
``maskedstore`` as LLVM's masked intrinsics, ``gather``/``scatter``/
``expandload``/``compressstore`` lane by lane (a guarded scalar access per
lane, no branch where the mask lane is known).  Forms LLVM 22 leaves
unlowered (n-D masked loads and stores, scatters, expand/compress; tensor
bases) are located errors saying so, never a different answer.

Indexed accesses (`gather`, `scatter`) address ``base[offsets]`` plus
``index[k]`` elements linearly, as upstream's GEP over the element type does,
so they need a unit innermost stride, as upstream does.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from . import memref_desc as md
from .arith import dense_constant
from .context import LoweringContext, prop
from .memref import desc, element_ptr
from .registry import Registry
from .types import I1, I32, I64, VOID
from .vector_lanes import (
    and_bits,
    count,
    from_lanes,
    known_bit,
    shape_of,
    to_lanes,
    unflatten,
)

registry = Registry()
lowering = registry.lowering


# ----------------------------------------------------------------- guards
def guarded_load(ctx: LoweringContext, cond: ir.Value | None, ptr_fn, elem: ir.Type,
                 fallback: ir.Value, align: int | None = None) -> ir.Value:
    """``*ptr_fn()`` where ``cond`` holds (None: always), else ``fallback``.  The pointer is
    computed inside the guard: a lane that is off may point anywhere."""
    bld = ctx.builder
    k = True if cond is None else known_bit(cond)
    if k is True:
        return bld.load(ptr_fn(), typ=elem, align=align)
    if k is False:
        return fallback
    then_b, done = ctx.new_block("vl.load"), ctx.new_block("vl.next")
    pre = bld.block
    bld.cbranch(cond, then_b, done)
    bld.position_at_end(then_b)
    val = bld.load(ptr_fn(), typ=elem, align=align)
    loaded = bld.block
    bld.branch(done)
    bld.position_at_end(done)
    phi = bld.phi(elem)
    phi.add_incoming(val, loaded)
    phi.add_incoming(fallback, pre)
    return phi


def guarded_store(ctx: LoweringContext, cond: ir.Value | None, value: ir.Value, ptr_fn,
                  align: int | None = None) -> None:
    """``*ptr_fn() = value`` where ``cond`` holds (None: always)."""
    bld = ctx.builder
    k = True if cond is None else known_bit(cond)
    if k is False:
        return
    if k is True:
        bld.store(value, ptr_fn(), align=align)
        return
    then_b, done = ctx.new_block("vs.store"), ctx.new_block("vs.next")
    bld.cbranch(cond, then_b, done)
    bld.position_at_end(then_b)
    bld.store(value, ptr_fn(), align=align)
    bld.branch(done)
    bld.position_at_end(done)


def _align(ctx: LoweringContext, op, elem: ir.Type) -> int:
    a = prop(op, "alignment")
    return a.value.data if isinstance(a, b.IntegerAttr) else ctx.types.alignof(elem)


def _memref_base(ctx: LoweringContext, op, base) -> None:
    if not isinstance(base.type, b.MemRefType):
        raise ctx.unsupported(op, f"{op.name} on a {base.type} (only memrefs are lowered; "
                                  f"bufferize tensors first)")


def _one_d(ctx: LoweringContext, op, t, zero_d: bool = False) -> None:
    if len(shape_of(t)) != 1 and not (zero_d and not shape_of(t)):
        raise ctx.unsupported(op, f"{op.name} of a {t} (LLVM 22's convert-vector-to-llvm "
                                  f"lowers only 1-D vectors here)")


def _unit_inner_stride(ctx: LoweringContext, op, mtype: b.MemRefType) -> None:
    strides, _ = md.static_strides_offset(mtype)
    if mtype.get_shape() and strides and strides[-1] != 1:
        raise ctx.unsupported(op, f"{op.name} on {mtype}: the innermost stride is not 1 "
                                  f"(LLVM 22's convert-vector-to-llvm does not lower it)")


# --------------------------------------------------------------- plain
@lowering("vector.load")
def _load(ctx: LoweringContext, op) -> None:
    _one_d(ctx, op, op.results[0].type, zero_d=True)
    ptr = element_ptr(ctx, op.base, op.indices, op=op)
    rt = ctx.convert(op.results[0].type)
    elem_align = ctx.types.alignof(ctx.types.element(op.base.type))
    ctx.set_results(op, [ctx.builder.load(ptr, typ=rt, align=elem_align)])


@lowering("vector.store")
def _store(ctx: LoweringContext, op) -> None:
    _one_d(ctx, op, op.operands[0].type, zero_d=True)
    ptr = element_ptr(ctx, op.base, op.indices, op=op)
    st = ctx.builder.store(ctx.get(op.operands[0]), ptr)
    st.align = ctx.types.alignof(ctx.types.element(op.base.type))


# -------------------------------------------------------------- masked
@lowering("vector.maskedload")
def _masked_load(ctx: LoweringContext, op) -> None:
    _one_d(ctx, op, op.results[0].type)
    ptr = element_ptr(ctx, op.base, op.indices, op=op)
    rt = ctx.convert(op.results[0].type)
    mask, passthru = ctx.get(op.mask), ctx.get(op.pass_thru)
    align = ir.Constant(I32, _align(ctx, op, rt.element))
    ctx.set_results(op, [ctx.intrinsic("llvm.masked.load", rt, [ptr, align, mask, passthru],
                                       [rt, ptr.type])])


@lowering("vector.maskedstore")
def _masked_store(ctx: LoweringContext, op) -> None:
    _one_d(ctx, op, op.valueToStore.type)
    ptr = element_ptr(ctx, op.base, op.indices, op=op)
    value = ctx.get(op.valueToStore)
    mask = ctx.get(op.mask)
    align = ir.Constant(I32, _align(ctx, op, value.type.element))
    ctx.intrinsic("llvm.masked.store", VOID, [value, ptr, align, mask], [value.type, ptr.type])


# ------------------------------------------------------------- indexed
def _lane_ptr(ctx: LoweringContext, base_ptr: ir.Value, elem: ir.Type, idx: ir.Value):
    """``base_ptr`` plus ``idx`` elements (a narrower index sign-extended, as a GEP does)."""
    bld = ctx.builder
    if idx.type.width < 64:
        idx = bld.sext(idx, I64)
    return lambda: bld.gep(base_ptr, [idx], source_etype=elem)


@lowering("vector.gather")
def _gather(ctx: LoweringContext, op) -> None:
    ctx.set_results(op, [lower_gather(ctx, op)])


def lower_gather(ctx: LoweringContext, op, outer_mask: ir.Value | None = None) -> ir.Value:
    """The gathered vector.  Under a vector.mask (``outer_mask``) LLVM 22's
    -lower-vector-mask replaces the gather's own mask by the outer one and its pass-through
    by zeros; so does this."""
    _memref_base(ctx, op, op.base)
    _unit_inner_stride(ctx, op, op.base.type)
    bld = ctx.builder
    elem = ctx.types.element(op.base.type)
    base = md.element_pointer(bld, elem, desc(ctx, op.base), ctx.get_all(op.offsets))
    align = _align(ctx, op, elem)
    idx = to_lanes(bld, ctx.get(op.indices))
    if outer_mask is None:
        mask = to_lanes(bld, ctx.get(op.mask))
        pas = to_lanes(bld, ctx.get(op.pass_thru))
    else:
        mask = to_lanes(bld, outer_mask)
        pas = [ir.Constant(elem, 0)] * len(mask)
    lanes = [guarded_load(ctx, m, _lane_ptr(ctx, base, elem, i), elem, p, align)
             for i, m, p in zip(idx, mask, pas, strict=True)]
    return from_lanes(bld, lanes, ctx.convert(op.results[0].type))


@lowering("vector.scatter")
def _scatter(ctx: LoweringContext, op) -> None:
    _memref_base(ctx, op, op.base)
    _one_d(ctx, op, op.valueToStore.type)
    _unit_inner_stride(ctx, op, op.base.type)
    bld = ctx.builder
    elem = ctx.types.element(op.base.type)
    base = md.element_pointer(bld, elem, desc(ctx, op.base), ctx.get_all(op.offsets))
    align = _align(ctx, op, elem)
    idx = to_lanes(bld, ctx.get(op.indices))
    mask = to_lanes(bld, ctx.get(op.mask))
    # In lane order: where two lanes hit one element, the later lane's value stays
    # (LLVM's masked.scatter: "stored in order from the lowest to the highest element").
    for i, m, v in zip(idx, mask, to_lanes(bld, ctx.get(op.valueToStore)), strict=True):
        guarded_store(ctx, m, v, _lane_ptr(ctx, base, elem, i), align)


def _running_offsets(ctx: LoweringContext, mask: list[ir.Value]) -> list[ir.Value]:
    """For each lane, how many set lanes come before it (i64): where expand/compress
    find its element."""
    bld = ctx.builder
    out = []
    acc: ir.Value = ir.Constant(I64, 0)
    for m in mask:
        out.append(acc)
        k = known_bit(m)
        if k is True:
            acc = ir.Constant(I64, acc.constant + 1) if isinstance(acc, ir.Constant) \
                else bld.add(acc, ir.Constant(I64, 1))
        elif k is None:
            acc = bld.add(acc, bld.zext(m, I64))
    return out


@lowering("vector.expandload")
def _expand_load(ctx: LoweringContext, op) -> None:
    _one_d(ctx, op, op.results[0].type)
    bld = ctx.builder
    elem = ctx.types.element(op.base.type)
    base = element_ptr(ctx, op.base, op.indices, op=op)
    mask = to_lanes(bld, ctx.get(op.mask))
    pas = to_lanes(bld, ctx.get(op.pass_thru))
    lanes = [guarded_load(ctx, m, _lane_ptr(ctx, base, elem, k), elem, p, 1)
             for m, p, k in zip(mask, pas, _running_offsets(ctx, mask), strict=True)]
    ctx.set_results(op, [from_lanes(bld, lanes, ctx.convert(op.results[0].type))])


@lowering("vector.compressstore")
def _compress_store(ctx: LoweringContext, op) -> None:
    _one_d(ctx, op, op.valueToStore.type)
    bld = ctx.builder
    elem = ctx.types.element(op.base.type)
    base = element_ptr(ctx, op.base, op.indices, op=op)
    mask = to_lanes(bld, ctx.get(op.mask))
    values = to_lanes(bld, ctx.get(op.valueToStore))
    for m, v, k in zip(mask, values, _running_offsets(ctx, mask), strict=True):
        guarded_store(ctx, m, v, _lane_ptr(ctx, base, elem, k), 1)


# --------------------------------------------------------------- masks
@lowering("vector.create_mask")
def _create_mask(ctx: LoweringContext, op) -> None:
    rt = op.results[0].type
    shape = shape_of(rt)
    bounds = ctx.get_all(op.operands)
    bld = ctx.builder
    lanes = []
    for flat in range(count(shape)):
        bit = None
        for d, i in enumerate(unflatten(flat, shape)):
            bit = and_bits(bld, bit, _less(bld, i, bounds[d]))
        lanes.append(bit if bit is not None else _less(bld, 0, bounds[0]))
    ctx.set_results(op, [from_lanes(bld, lanes, ctx.convert(rt))])


def _less(bld: ir.IRBuilder, i: int, bound: ir.Value) -> ir.Value:
    if isinstance(bound, ir.Constant):
        return ir.Constant(I1, int(i < bound.constant))
    return bld.icmp_signed("<", ir.Constant(bound.type, i), bound)


@lowering("vector.constant_mask")
def _constant_mask(ctx: LoweringContext, op) -> None:
    rt = op.results[0].type
    shape = shape_of(rt)
    dims = [int(x) for x in prop(op, "mask_dim_sizes").get_values()]
    if not shape:  # 0-D: one lane, set when the size is 1
        ctx.set_results(op, [dense_constant(ctx.convert(rt), [dims[0]])])
        return
    vals = [int(all(i < d for i, d in zip(unflatten(flat, shape), dims, strict=True)))
            for flat in range(count(shape))]
    ctx.set_results(op, [dense_constant(ctx.convert(rt), vals)])
