"""memref dialect: allocation, access and views over MLIR's descriptor ABI.

Views (subview, reinterpret_cast, expand/collapse_shape, view, cast) only
compute a new descriptor; loads and stores address ``aligned + offset +
sum(i * stride)``.  As upstream: ``alloc`` uses ``malloc``, ``get_global``
gives an ``allocated`` pointer of 0xdeadbeef (globals must not be freed), a
ranked-to-unranked cast stores the descriptor on the stack, and ``copy`` of
non-contiguous layouts calls ``memrefCopy`` from the C runner utilities.
"""

from __future__ import annotations

from collections.abc import Callable

import llvmlite.ir as ir
from llvmlite.ir.values import FormattedConstant
from xdsl.dialects import builtin as b

from . import bounds
from . import memref_desc as md
from .arith import dense_constant
from .context import LoweringContext, prop
from .registry import Registry
from .types import I1, I8, I64, PTR

registry = Registry()
lowering = registry.lowering
register_module_op = registry.register_module_op

DYNAMIC = md.DYNAMIC


def _ints(attr) -> list[int]:
    if attr is None:
        return []
    if hasattr(attr, "get_values"):
        return [int(x) for x in attr.get_values()]
    return [int(getattr(x, "value", x).data) if hasattr(getattr(x, "value", x), "data")
            else int(x) for x in attr.data]


def desc(ctx: LoweringContext, value) -> md.Descriptor:
    return md.Descriptor(ctx.builder, ctx.get(value), value.type)


def _mixed(ctx: LoweringContext, static: list[int], dynamic: list) -> list[ir.Value]:
    dyn = iter(dynamic)
    return [next(dyn) if s == DYNAMIC else ir.Constant(I64, s) for s in static]


def _row_major_strides(bld: ir.IRBuilder, sizes: list[ir.Value]) -> list[ir.Value]:
    strides = []
    acc: ir.Value = ir.Constant(I64, 1)
    for s in reversed(sizes):
        strides.append(acc)
        acc = _mul(bld, acc, s)
    return list(reversed(strides))


def _mul(bld, a, c):
    if isinstance(a, ir.Constant) and isinstance(c, ir.Constant):
        return ir.Constant(I64, a.constant * c.constant)
    if isinstance(a, ir.Constant) and a.constant == 1:
        return c
    if isinstance(c, ir.Constant) and c.constant == 1:
        return a
    return bld.mul(a, c)


def _add(bld, a, c):
    if isinstance(a, ir.Constant) and isinstance(c, ir.Constant):
        return ir.Constant(I64, a.constant + c.constant)
    if isinstance(a, ir.Constant) and a.constant == 0:
        return c
    if isinstance(c, ir.Constant) and c.constant == 0:
        return a
    return bld.add(a, c)


def _product(bld, values):
    acc: ir.Value = ir.Constant(I64, 1)
    for v in values:
        acc = _mul(bld, acc, v)
    return acc


def _shape_sizes(ctx, mtype: b.MemRefType, dynamic: list) -> list[ir.Value]:
    dyn = iter(dynamic)
    return [next(dyn) if d < 0 else ir.Constant(I64, d) for d in mtype.get_shape()]


# ---------------------------------------------------------------- allocation
def _alloc(ctx: LoweringContext, op, on_stack: bool) -> None:
    mtype = op.results[0].type
    bld = ctx.builder
    dyn = ctx.get_all(getattr(op, "dynamic_sizes", op.operands))
    sizes = _shape_sizes(ctx, mtype, dyn)
    strides = _row_major_strides(bld, sizes)
    elem = ctx.types.element(mtype)
    esize = ctx.types.sizeof(elem)
    count = _product(bld, sizes)
    nbytes = _mul(bld, count, ir.Constant(I64, esize))
    align_attr = prop(op, "alignment")
    align = int(align_attr.value.data) if align_attr is not None else 0
    st = ctx.convert(mtype)
    ptr_t = st.elements[0]
    if on_stack:
        p = bld.alloca(elem, size=count)
        p.align = max(align, ctx.types.alignof(elem))
        if ptr_t != p.type:
            p = bld.addrspacecast(p, ptr_t)
        allocated = aligned = p
    else:
        malloc = ctx.declare("malloc", PTR, [I64])
        if align:
            raw = bld.call(malloc, [_add(bld, nbytes, ir.Constant(I64, align - 1))])
            addr = bld.ptrtoint(raw, I64)
            bumped = bld.add(addr, ir.Constant(I64, align - 1))
            rounded = bld.and_(bumped, ir.Constant(I64, ~(align - 1)))
            allocated = raw
            aligned = bld.gep(raw, [bld.sub(rounded, addr)], source_etype=I8)
        else:
            allocated = aligned = bld.call(malloc, [nbytes])
        if ptr_t != PTR:
            allocated = bld.addrspacecast(allocated, ptr_t)
            aligned = bld.addrspacecast(aligned, ptr_t)
    ctx.set_results(op, [md.build(bld, st, allocated, aligned, ir.Constant(I64, 0), sizes,
                                  strides)])


@lowering("memref.alloc")
def _lower_alloc(ctx, op):
    _alloc(ctx, op, on_stack=False)


@lowering("memref.alloca")
def _lower_alloca(ctx, op):
    _alloc(ctx, op, on_stack=True)


def _base_pointer(ctx, value, aligned: bool) -> ir.Value:
    """The allocated (or aligned) pointer of a ranked or unranked memref ``value``."""
    if isinstance(value.type, b.UnrankedMemRefType):
        _, dptr = md.unranked_fields(ctx.builder, ctx.get(value))
        return md.unranked_pointer(ctx.builder, dptr, aligned)
    d = desc(ctx, value)
    return d.aligned() if aligned else d.allocated()


@lowering("memref.dealloc")
def _dealloc(ctx, op):
    bld = ctx.builder
    allocated = _base_pointer(ctx, op.operands[0], aligned=False)
    if allocated.type != PTR:  # a ranked memref in another address space
        allocated = bld.addrspacecast(allocated, PTR)
    bld.call(ctx.declare("free", ir.VoidType(), [PTR]), [allocated])


# --------------------------------------------------------------- load/store
def element_ptr(ctx: LoweringContext, memref_value, indices, op=None) -> ir.Value:
    """Address of an element; ``op`` (the accessing op) gets a bounds check when enabled."""
    d = desc(ctx, memref_value)
    elem = ctx.types.element(memref_value.type)
    idx = ctx.get_all(indices)
    if op is not None and bounds.enabled(ctx):
        bounds.check_access(ctx, op, d, idx)
    return md.element_pointer(ctx.builder, elem, d, idx)


@lowering("memref.load")
def _load(ctx, op):
    mem = op.memref
    ptr = element_ptr(ctx, mem, op.indices, op=op)
    ctx.set_results(op, [ctx.builder.load(ptr, typ=ctx.types.element(mem.type))])


@lowering("memref.store")
def _store(ctx, op):
    ptr = element_ptr(ctx, op.memref, op.indices, op=op)
    ctx.builder.store(ctx.get(op.value), ptr)


# ------------------------------------------------------------- dims, ranks
@lowering("memref.dim")
def _dim(ctx, op):
    src, idx = op.operands
    bld = ctx.builder
    iv = ctx.get(idx)
    if isinstance(src.type, b.UnrankedMemRefType):
        rank, dptr = md.unranked_fields(bld, ctx.get(src))
        ctx.set_results(op, [bld.load(md.unranked_size_ptr(bld, dptr, rank, iv, "size"),
                                      typ=I64)])
        return
    d = desc(ctx, src)
    if isinstance(iv, ir.Constant):
        k = int(iv.constant)  # out of range: poison, as memref.dim's fold makes it
        ctx.set_results(op, [d.size(k) if 0 <= k < d.rank else ir.Constant(I64, ir.Undefined)])
        return
    rank = d.rank
    arr = ir.ArrayType(I64, rank)
    slot = ctx.entry_alloca(arr)
    sizes = ir.Constant(arr, ir.Undefined)
    for i in range(rank):
        sizes = bld.insert_value(sizes, d.size(i), i)
    bld.store(sizes, slot)
    p = bld.gep(slot, [ir.Constant(I64, 0), iv], source_etype=arr)
    ctx.set_results(op, [bld.load(p, typ=I64)])


@lowering("memref.rank")
def _rank(ctx, op):
    (src,) = op.operands
    if isinstance(src.type, b.UnrankedMemRefType):
        ctx.set_results(op, [ctx.builder.extract_value(ctx.get(src), 0)])
    else:
        ctx.set_results(op, [ir.Constant(I64, len(src.type.get_shape()))])


# -------------------------------------------------------------------- casts
def to_unranked(ctx: LoweringContext, value: ir.Value, mtype) -> ir.Value:
    """Store a ranked descriptor on the stack and return ``{rank, ptr}``."""
    bld = ctx.builder
    slot = ctx.entry_alloca(ctx.convert(mtype))
    bld.store(value, slot)
    ut = ir.LiteralStructType([I64, PTR])
    u = bld.insert_value(ir.Constant(ut, ir.Undefined), ir.Constant(I64, len(mtype.get_shape())), 0)
    return bld.insert_value(u, slot, 1)


@lowering("memref.cast")
def _cast(ctx, op):
    (src,) = op.operands
    st, rt = src.type, op.results[0].type
    v = ctx.get(src)
    bld = ctx.builder
    if isinstance(st, b.MemRefType) and isinstance(rt, b.MemRefType):
        res = v
    elif isinstance(st, b.MemRefType):
        res = to_unranked(ctx, v, st)
    elif isinstance(rt, b.MemRefType):
        _, dptr = md.unranked_fields(bld, v)
        res = bld.load(dptr, typ=ctx.convert(rt))
    else:
        res = v
    ctx.set_results(op, [res])


@lowering("memref.memory_space_cast")
def _memory_space_cast(ctx, op):
    (src,) = op.operands
    rt = op.results[0].type
    bld = ctx.builder
    v = ctx.get(src)
    if isinstance(rt, b.UnrankedMemRefType):
        ctx.set_results(op, [v])
        return
    d = md.Descriptor(bld, v, src.type)
    st = ctx.convert(rt)
    pt = st.elements[0]
    al = d.allocated()
    ag = d.aligned()
    if al.type != pt:
        al = bld.addrspacecast(al, pt)
        ag = bld.addrspacecast(ag, pt)
    rank = d.rank
    sizes = [bld.extract_value(v, [3, i]) for i in range(rank)]
    strides = [bld.extract_value(v, [4, i]) for i in range(rank)]
    ctx.set_results(op, [md.build(bld, st, al, ag, bld.extract_value(v, 2), sizes, strides)])


# -------------------------------------------------------------------- views
def _set_view(ctx, op, d: md.Descriptor, sizes: list, strides: list, *,
              aligned: ir.Value | None = None, offset: ir.Value | None = None) -> None:
    """``op``'s result: a descriptor over ``d``'s buffer (its aligned pointer and offset
    unless given) with the given sizes and strides."""
    st = ctx.convert(op.results[0].type)
    ctx.set_results(op, [md.build(ctx.builder, st, d.allocated(),
                                  d.aligned() if aligned is None else aligned,
                                  d.offset() if offset is None else offset, sizes, strides)])


@lowering("memref.subview")
def _subview(ctx, op):
    src = op.source
    bld = ctx.builder
    d = desc(ctx, src)
    offsets = _mixed(ctx, _ints(prop(op, "static_offsets")), ctx.get_all(op.offsets))
    sizes = _mixed(ctx, _ints(prop(op, "static_sizes")), ctx.get_all(op.sizes))
    steps = _mixed(ctx, _ints(prop(op, "static_strides")), ctx.get_all(op.strides))
    bounds.check_subview(ctx, op, d, offsets, sizes, steps)
    off = d.offset()
    for i, o in enumerate(offsets):
        off = _add(bld, off, _mul(bld, o, d.stride(i)))
    strides = [_mul(bld, s, d.stride(i)) for i, s in enumerate(steps)]
    rtype = op.results[0].type
    keep = _kept_dims(list(src.type.get_shape()), _ints(prop(op, "static_sizes")),
                      list(rtype.get_shape()))
    _set_view(ctx, op, d, [sizes[i] for i in keep], [strides[i] for i in keep], offset=off)


def _kept_dims(src_shape: list[int], static_sizes: list[int], res_shape: list[int]) -> list[int]:
    """Which source dims survive a rank-reducing subview (dropped ones have size 1)."""
    n = len(static_sizes)
    if len(res_shape) == n:
        return list(range(n))
    drop = n - len(res_shape)
    keep = []
    r = 0
    for i, s in enumerate(static_sizes):
        remaining_src = n - i
        remaining_res = len(res_shape) - r
        if s == 1 and drop > 0 and (r >= len(res_shape) or res_shape[r] != 1
                                    or remaining_src > remaining_res):
            drop -= 1
            continue
        keep.append(i)
        r += 1
    return keep


@lowering("memref.reinterpret_cast")
def _reinterpret_cast(ctx, op):
    src = op.source
    bld = ctx.builder
    v = ctx.get(src)
    if isinstance(src.type, b.UnrankedMemRefType):
        _, dptr = md.unranked_fields(bld, v)
        allocated = md.unranked_pointer(bld, dptr, aligned=False)
        aligned = md.unranked_pointer(bld, dptr, aligned=True)
    else:
        d = md.Descriptor(bld, v, src.type)
        allocated, aligned = d.allocated(), d.aligned()
    offsets = _mixed(ctx, _ints(prop(op, "static_offsets")), ctx.get_all(op.offsets))
    sizes = _mixed(ctx, _ints(prop(op, "static_sizes")), ctx.get_all(op.sizes))
    strides = _mixed(ctx, _ints(prop(op, "static_strides")), ctx.get_all(op.strides))
    st = ctx.convert(op.results[0].type)
    ctx.set_results(op, [md.build(bld, st, allocated, aligned, offsets[0], sizes, strides)])


@lowering("memref.view")
def _view(ctx, op):
    src = op.source
    bld = ctx.builder
    d = desc(ctx, src)
    rtype = op.results[0].type
    shift = ctx.get(op.byte_shift)
    aligned = bld.gep(d.aligned(), [shift], source_etype=I8)
    sizes = _shape_sizes(ctx, rtype, ctx.get_all(op.sizes))
    _set_view(ctx, op, d, sizes, _row_major_strides(bld, sizes), aligned=aligned,
              offset=ir.Constant(I64, 0))


def _reassociation(op) -> list[list[int]]:
    attr = prop(op, "reassociation")
    return [[int(x.value.data) for x in grp.data] for grp in attr.data]


@lowering("memref.collapse_shape")
def _collapse_shape(ctx, op):
    src = op.src
    bld = ctx.builder
    d = desc(ctx, src)
    sizes, strides = [], []
    for grp in _reassociation(op):
        sizes.append(_product(bld, [d.size(i) for i in grp]))
        # The innermost dim of a group that is not a unit dim carries the stride.
        strides.append(d.stride(grp[-1]))
    _set_view(ctx, op, d, sizes, strides)


@lowering("memref.expand_shape")
def _expand_shape(ctx, op):
    src = op.src
    bld = ctx.builder
    d = desc(ctx, src)
    groups = _reassociation(op)
    rtype = op.results[0].type
    static = _ints(prop(op, "static_output_shape")) or list(rtype.get_shape())
    out_sizes = _mixed(ctx, static, ctx.get_all(getattr(op, "output_shape", [])))
    strides: list[ir.Value] = [None] * len(out_sizes)  # type: ignore[list-item]
    for src_dim, grp in enumerate(groups):
        acc = d.stride(src_dim)
        for i in reversed(grp):
            strides[i] = acc
            acc = _mul(bld, acc, out_sizes[i])
    _set_view(ctx, op, d, out_sizes, strides)


@lowering("memref.extract_strided_metadata")
def _extract_strided_metadata(ctx, op):
    src = op.source
    bld = ctx.builder
    d = desc(ctx, src)
    base_t = op.results[0].type
    base = md.build(bld, ctx.convert(base_t), d.allocated(), d.aligned(), ir.Constant(I64, 0),
                    [], [])
    ctx.set_results(op, [base, d.offset(), *d.sizes(), *d.strides()])


@lowering("memref.extract_aligned_pointer_as_index")
def _extract_aligned_pointer(ctx, op):
    p = _base_pointer(ctx, op.operands[0], aligned=True)
    ctx.set_results(op, [ctx.builder.ptrtoint(p, ctx.types.index)])


@lowering("memref.assume_alignment")
def _assume_alignment(ctx, op):
    if op.results:
        ctx.set_results(op, [ctx.get(op.operands[0])])


# --------------------------------------------------------------------- copy
@lowering("memref.copy")
def _copy(ctx, op):
    src, dst = op.operands
    bld = ctx.builder
    st, dt = src.type, dst.type
    if isinstance(st, b.MemRefType) and isinstance(dt, b.MemRefType):
        bounds.check_copy(ctx, op, desc(ctx, src), desc(ctx, dst))
    if (isinstance(st, b.MemRefType) and isinstance(dt, b.MemRefType)
            and md.is_identity_layout(st) and md.is_identity_layout(dt)):
        s, t = desc(ctx, src), desc(ctx, dst)
        elem = ctx.types.element(st)
        count = _product(bld, s.sizes())
        nbytes = _mul(bld, count, ir.Constant(I64, ctx.types.sizeof(elem)))
        sp = md.element_pointer(bld, elem, s, [ir.Constant(I64, 0)] * s.rank)
        tp = md.element_pointer(bld, elem, t, [ir.Constant(I64, 0)] * t.rank)
        ctx.intrinsic("llvm.memcpy", ir.VoidType(), [tp, sp, nbytes, ir.Constant(I1, 0)],
                      [tp.type, sp.type, I64])
        return
    # Strided layouts: the C runner utilities copy element by element.
    elem_size = ctx.types.sizeof(ctx.types.element(st))
    ut = ir.LiteralStructType([I64, PTR])

    def unranked_slot(value, t):
        v = ctx.get(value)
        u = v if isinstance(t, b.UnrankedMemRefType) else to_unranked(ctx, v, t)
        slot = ctx.entry_alloca(ut)
        bld.store(u, slot)
        return slot

    sp, tp = unranked_slot(src, st), unranked_slot(dst, dt)
    ctx.call("memrefCopy", ir.VoidType(), [ir.Constant(I64, elem_size), sp, tp])


# ------------------------------------------------------------------ globals
def _declare_global(ctx: LoweringContext, op) -> None:
    name = op.sym_name.data
    mtype = prop(op, "type")
    elem = ctx.types.element(mtype)
    count = 1
    for dim in mtype.get_shape():
        count *= dim
    arr = ir.ArrayType(elem, count)
    space = _kernel_address_space(ctx, mtype)
    gv = ir.GlobalVariable(ctx.module, arr, name, addrspace=space)
    init = prop(op, "initial_value")
    if space == _SHARED:
        # Workgroup memory in a kernel: no initial value on the GPU.  A zero-sized one
        # is `extern __shared__` (the block's dynamic shared memory, as upstream's
        # sm90 programs use it: every such global starts where that memory starts).
        gv.align = 16
        align = prop(op, "alignment")
        if count == 0:
            # 16 whatever the op asks: all CUDA guarantees for that area (see
            # gpu_device_hooks.dynamic_smem_alignment), and LLVM must not assume more.
            gv.linkage = "external"
        else:
            gv.linkage = "internal"
            gv.initializer = ir.Constant(arr, ir.Undefined)
            if align is not None:
                gv.align = int(align.value.data)
        ctx.globals[name] = (gv, mtype)
        return
    if isinstance(init, b.DenseIntOrFPElementsAttr):
        vals = list(init.get_values())
        if len(vals) == 1 and count != 1:
            vals = vals * count
        gv.initializer = dense_constant(arr, vals) if count else ir.Constant(arr, [])
    elif isinstance(init, b.DenseResourceAttr if hasattr(b, "DenseResourceAttr") else ()):
        raise ctx.unsupported(op, "memref.global with a dense_resource initializer")
    elif init is None or isinstance(init, b.UnitAttr):
        gv.initializer = ir.Constant(arr, None)  # zero: 'uninitialized' or external
    else:
        raise ctx.unsupported(op, f"memref.global initializer {init}")
    if prop(op, "constant") is not None:
        gv.global_constant = True
    vis = prop(op, "sym_visibility")
    if vis is not None and vis.data == "private":
        gv.linkage = "internal"
    align = prop(op, "alignment")
    if align is not None:
        gv.align = int(align.value.data)
    ctx.globals[name] = (gv, mtype)


register_module_op("memref.global", declare=_declare_global)

_SHARED = 3  # NVPTX's shared address space


def _kernel_address_space(ctx: LoweringContext, mtype) -> int:
    """The LLVM address space of a memref.global: NVPTX kernels put workgroup memory
    in shared memory; other targets keep every global in the default space."""
    if ctx.target.name != "nvptx":
        return 0
    try:
        return ctx.target.address_space(getattr(mtype, "memory_space", None))
    except KeyError:
        return 0


@lowering("memref.get_global")
def _get_global(ctx, op):
    ref = prop(op, "name")
    name = ref.string_value() if hasattr(ref, "string_value") else str(ref).lstrip("@")
    entry = ctx.globals.get(name)
    if entry is None:
        raise ctx.unsupported(op, f"reference to unknown memref.global '@{name}'")
    gv, _ = entry
    bld = ctx.builder
    rtype = op.results[0].type
    st = ctx.convert(rtype)
    space = gv.type.addrspace
    if space:
        # llvmlite types the global `[N x T] addrspace(N)*`; the descriptor holds opaque ptrs.
        ptr_t = ir.PointerType(addrspace=space)
        aligned = FormattedConstant(ptr_t, gv.get_reference())
        dead = ir.Constant(I64, 0xDEADBEEF).inttoptr(ptr_t)
        if gv.linkage == "external" and 0 in rtype.get_shape():
            aligned = _dynamic_area(ctx, op, aligned)
    else:
        aligned = bld.bitcast(gv, PTR) if gv.type != PTR else gv
        dead = ir.Constant(I64, 0xDEADBEEF).inttoptr(PTR)
    sizes = [ir.Constant(I64, s) for s in rtype.get_shape()]
    strides = _row_major_strides(bld, sizes)
    ctx.set_results(op, [md.build(bld, st, dead, aligned, ir.Constant(I64, 0), sizes, strides)])


def _dynamic_area(ctx: LoweringContext, op, ptr: ir.Value) -> ir.Value:
    """A zero-sized workgroup global is the dynamic shared area: where the kernel aligns
    that area itself (gpu_device_hooks.dynamic_smem_alignment), the same base."""
    from .gpu_device_hooks import hooks_of, round_up_shared

    align = hooks_of(ctx, op).dynamic_smem_align
    return round_up_shared(ctx, ptr, align) if align > 1 else ptr


# ------------------------------------------------------------------ atomics
# MLIR's AtomicRMWKind numbering (alphabetical; checked against mlir-opt 22's generic form).
_RMW_KINDS = ["addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
              "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori"]
_LLVM_RMW = {"addf": "fadd", "addi": "add", "assign": "xchg", "maximumf": "fmaximum",
             "maxs": "max", "maxu": "umax", "minimumf": "fminimum", "mins": "min",
             "minu": "umin", "ori": "or", "andi": "and", "maxnumf": "fmax", "minnumf": "fmin",
             "xori": "xor"}


def rmw_kind(op) -> str:
    name = getattr(op, "kind_name", None)
    if isinstance(name, str):
        return name
    k = prop(op, "kind")
    if isinstance(k, b.IntegerAttr):
        return _RMW_KINDS[int(k.value.data)]
    text = str(k)
    for name in sorted(_RMW_KINDS, key=len, reverse=True):
        if name in text:
            return name
    raise KeyError(text)


def atomic_update(ctx: LoweringContext, kind: str, ptr: ir.Value, val: ir.Value) -> ir.Value:
    """Atomically combine ``val`` into ``*ptr``; returns the previous value."""
    bld = ctx.builder
    llvm_op = _LLVM_RMW.get(kind)
    if llvm_op is not None:
        return bld.atomic_rmw(llvm_op, ptr, val, "acq_rel")
    # mulf / muli: LLVM has no atomicrmw for them.
    mul = bld.mul if isinstance(val.type, ir.IntType) else bld.fmul
    return cas_loop(ctx, ptr, val.type, lambda old: mul(old, val), "rmw")


def cas_loop(ctx: LoweringContext, ptr: ir.Value, t: ir.Type,
             update: Callable[[ir.Value], ir.Value], name: str) -> ir.Value:
    """Replace ``*ptr`` (of type ``t``) by ``update(current)`` atomically; returns the
    value replaced.

    A compare-and-swap loop, as upstream lowers such updates: compute the new value
    from the one last seen, store it if the element still holds that value,
    otherwise retry with what was there.  Floats are swapped as same-width integers
    (LLVM's cmpxchg takes integers and pointers only).  ``update`` may add blocks.
    """
    bld = ctx.builder
    is_int = isinstance(t, ir.IntType)
    it = t if is_int else ir.IntType(ctx.types.sizeof(t) * 8)
    pre = bld.block
    init = bld.load(ptr, typ=t)
    loop = ctx.new_block(f"{name}.loop")
    done = ctx.new_block(f"{name}.done")
    bld.branch(loop)
    bld.position_at_end(loop)
    cur = bld.phi(t)
    cur.add_incoming(init, pre)
    new = update(cur)
    as_int = (lambda v: v) if is_int else (lambda v: bld.bitcast(v, it))
    pair = bld.cmpxchg(ptr, as_int(cur), as_int(new), "acq_rel", "monotonic")
    seen_i = bld.extract_value(pair, 0)
    seen = seen_i if is_int else bld.bitcast(seen_i, t)
    cur.add_incoming(seen, bld.block)
    bld.cbranch(bld.extract_value(pair, 1), done, loop)
    bld.position_at_end(done)
    return seen


@lowering("memref.atomic_rmw")
def _atomic_rmw(ctx, op):
    try:
        kind = rmw_kind(op)
    except (KeyError, IndexError):
        raise ctx.unsupported(op, f"atomic_rmw kind {prop(op, 'kind')}") from None
    ptr = element_ptr(ctx, op.memref, op.indices, op=op)
    ctx.set_results(op, [atomic_update(ctx, kind, ptr, ctx.get(op.value))])


# ------------------------------------------------------------ alloca_scope
@lowering("memref.alloca_scope")
def _alloca_scope(ctx, op):
    bld = ctx.builder
    saved = ctx.intrinsic("llvm.stacksave", PTR, [], [PTR])
    (block,) = op.regions[0].blocks
    results = ctx.lower_inline(block)
    ctx.intrinsic("llvm.stackrestore", ir.VoidType(), [saved], [PTR])
    ctx.set_results(op, results)
    del bld


# --------------------------------------------------------------- transpose
@lowering("memref.transpose")
def _transpose(ctx, op):
    """The same buffer and offset; sizes and strides taken in the permuted order."""
    d = desc(ctx, op.operands[0])
    order = op.order()
    sizes, strides = d.sizes(), d.strides()
    _set_view(ctx, op, d, [sizes[i] for i in order], [strides[i] for i in order])


# ------------------------------------------------------- generic_atomic_rmw
@lowering("memref.generic_atomic_rmw")
def _generic_atomic_rmw(ctx, op):
    """The body, run on the element's current value, inside `cas_loop`."""
    ptr = element_ptr(ctx, op.operands[0], list(op.operands[1:]), op=op)
    t = ctx.types.element(op.operands[0].type)
    block = op.regions[0].blocks.first
    seen = cas_loop(ctx, ptr, t, lambda cur: ctx.lower_inline(block, [cur])[0],
                    "generic_rmw")
    ctx.set_results(op, [seen])
