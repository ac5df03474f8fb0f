"""Kernel-side synchronisation and exchange: `gpu.barrier`, `gpu.shuffle` and the
reductions, written once on top of the hooks' shuffle/barrier/workgroup memory
in the shape of upstream's `gpu-all-reduce` rewrite (so every target combines
values in the same order)."""

from __future__ import annotations

from collections.abc import Callable

import llvmlite.ir as ir

from .context import LoweringContext
from .gpu_device_hooks import (
    SUBGROUP_SIZE,
    block_size,
    current_gpu_func,
    hooks_of,
    linear_thread_id,
    opaque_pointer,
)
from .registry import Registry
from .types import I32, I64

registry = Registry()
lowering = registry.lowering


# --------------------------------------------------------------------- barrier
@lowering("gpu.barrier")
def _barrier(ctx, op):
    hooks_of(ctx, op).barrier(ctx)


# --------------------------------------------------------------------- shuffle
def _as_shuffle_word(ctx: LoweringContext, value: ir.Value, op) -> tuple[ir.Value, Callable]:
    """Bring a <=64-bit scalar to i32/i64/float/double for shuffling; returns the undo."""
    t = value.type
    bld = ctx.builder
    if isinstance(t, ir.IntType):
        if t.width in (32, 64):
            return value, lambda v: v
        if t.width < 32:
            return bld.zext(value, I32), lambda v: bld.trunc(v, t)
    if isinstance(t, (ir.FloatType, ir.DoubleType)):
        return value, lambda v: v
    if isinstance(t, ir.HalfType) or str(t) == "bfloat":
        w = bld.zext(bld.bitcast(value, ir.IntType(16)), I32)
        return w, lambda v: bld.bitcast(bld.trunc(v, ir.IntType(16)), t)
    if isinstance(t, ir.VectorType):
        bits = ctx.types.sizeof(t) * 8
        if bits in (32, 64):
            it = ir.IntType(bits)
            return bld.bitcast(value, it), lambda v: bld.bitcast(v, t)
    raise ctx.unsupported(op, f"gpu.shuffle of a value of LLVM type {t} (at most 64 bits)")


def shuffle(ctx: LoweringContext, mode: str, value: ir.Value, offset: ir.Value,
            width: ir.Value, op=None) -> tuple[ir.Value, ir.Value]:
    """Shuffle through the hooks, normalising the value to a 32/64-bit word."""
    word, undo = _as_shuffle_word(ctx, value, op)
    res, valid = hooks_of(ctx, op).shuffle(ctx, mode, word, offset, width)
    return undo(res), valid


def _i32(ctx: LoweringContext, v: ir.Value) -> ir.Value:
    if v.type == I32:
        return v
    if v.type.width > 32:
        return ctx.builder.trunc(v, I32)
    return ctx.builder.zext(v, I32)


@lowering("gpu.shuffle")
def _shuffle(ctx, op):
    hooks_of(ctx, op)
    mode = op.mode.data.value
    value = ctx.get(op.value)
    res, valid = shuffle(ctx, mode, value, _i32(ctx, ctx.get(op.offset)),
                         _i32(ctx, ctx.get(op.width)), op)
    ctx.set_results(op, [res, valid])


# ------------------------------------------------------------------- reductions
def combiner(ctx: LoweringContext, kind: str, op=None) -> Callable[[ir.Value, ir.Value], ir.Value]:
    """``(lhs, rhs) -> lhs <kind> rhs`` as arith/LLVM would compute it."""

    def fn(a: ir.Value, c: ir.Value) -> ir.Value:
        bld = ctx.builder
        is_float = not isinstance(a.type, ir.IntType)
        if kind == "add":
            return bld.fadd(a, c) if is_float else bld.add(a, c)
        if kind == "mul":
            return bld.fmul(a, c) if is_float else bld.mul(a, c)
        if kind == "and":
            return bld.and_(a, c)
        if kind == "or":
            return bld.or_(a, c)
        if kind == "xor":
            return bld.xor(a, c)
        if kind in ("minsi", "maxsi", "minui", "maxui"):
            pred = "<" if kind.startswith("min") else ">"
            cmp = bld.icmp_signed if kind.endswith("si") else bld.icmp_unsigned
            return bld.select(cmp(pred, a, c), a, c)
        intr = {"minnumf": "llvm.minnum", "maxnumf": "llvm.maxnum",
                "minimumf": "llvm.minimum", "maximumf": "llvm.maximum"}.get(kind)
        if intr is not None:
            return ctx.intrinsic(intr, a.type, [a, c], [a.type])
        raise ctx.unsupported(op, f"reduction kind '{kind}'")

    return fn


def _region_combiner(ctx: LoweringContext, region, op) -> Callable[[ir.Value, ir.Value],
                                                                   ir.Value]:
    """Inline the all_reduce body (``^bb(%lhs, %rhs): ... gpu.yield %v``) per combination."""

    def fn(a: ir.Value, c: ir.Value) -> ir.Value:
        blocks = list(region.blocks)
        first = blocks[0]
        if len(blocks) == 1:
            ctx.set(first.args[0], a)
            ctx.set(first.args[1], c)
            term = ctx.lower_ops(first)
            if term is None or term.name != "gpu.yield":
                raise ctx.unsupported(op, "gpu.all_reduce region not ending in gpu.yield")
            return ctx.get(term.operands[0])
        bld = ctx.builder
        cont = ctx.new_block("reduce.join")
        incoming: list[tuple[ir.Value, ir.Block]] = []

        def on_yield(y):
            incoming.append((ctx.get(y.operands[0]), bld.block))
            bld.branch(cont)

        with ctx.with_yield_handler({"gpu.yield"}, on_yield):
            ctx.lower_region_cfg(region, [a, c])
        bld.position_at_end(cont)
        phi = bld.phi(a.type)
        for v, blk in incoming:
            phi.add_incoming(v, blk)
        return phi

    return fn


def _if_else(ctx: LoweringContext, cond: ir.Value, then_fn, else_fn) -> list[ir.Value]:
    """Structured if producing values (then_fn/else_fn return lists of equal types)."""
    bld = ctx.builder
    then_b, else_b, join = ctx.new_block("if.then"), ctx.new_block("if.else"), \
        ctx.new_block("if.join")
    bld.cbranch(cond, then_b, else_b)
    bld.position_at_end(then_b)
    tv = then_fn()
    t_end = bld.block
    bld.branch(join)
    bld.position_at_end(else_b)
    ev = else_fn()
    e_end = bld.block
    bld.branch(join)
    bld.position_at_end(join)
    out = []
    for x, y in zip(tv, ev, strict=True):
        phi = bld.phi(x.type)
        phi.add_incoming(x, t_end)
        phi.add_incoming(y, e_end)
        out.append(phi)
    return out


def subgroup_reduce_partial(ctx: LoweringContext, active_width: ir.Value, value: ir.Value,
                            combine, op=None) -> ir.Value:
    """Upstream's ``createSubgroupReduce`` as lane 0 sees it: lane 0 gets the reduction
    over the first ``active_width`` lanes (all 32 when it is at least 32), combined in
    upstream's order; other lanes hold partials (only lane 0's value is used).

    With fewer than 32 lanes, a butterfly step whose offset is at least
    ``active_width`` has no partner for lane 0 (its value stays), so the step is
    skipped (a block-uniform branch): 3 shuffles instead of 5 for 8 subgroups.
    """
    n = SUBGROUP_SIZE
    bld = ctx.builder
    partial = bld.icmp_signed("<", active_width, ir.Constant(I32, n))

    def step(v, i):
        shuffled, valid = shuffle(ctx, "xor", v, ir.Constant(I32, i), active_width, op)
        return _if_else(ctx, valid, lambda: [combine(v, shuffled)], lambda: [v])

    def partial_path():
        v = value
        i = 1
        while i < n:
            has_partner = bld.icmp_signed("<", ir.Constant(I32, i), active_width)
            (v,) = _if_else(ctx, has_partner, lambda v=v, i=i: step(v, i), lambda v=v: [v])
            i <<= 1
        return [v]

    def full_path():
        v = value
        i = 1
        while i < n:
            shuffled, _ = shuffle(ctx, "xor", v, ir.Constant(I32, i), ir.Constant(I32, n), op)
            v = combine(v, shuffled)
            i <<= 1
        return [v]

    (res,) = _if_else(ctx, partial, partial_path, full_path)
    return res


def all_reduce(ctx: LoweringContext, value: ir.Value, combine, op=None,
               kind: str | None = None) -> ir.Value:
    """Block-wide reduction; every thread gets the value upstream's rewrite gives.

    In a kernel: one workgroup-memory round and one barrier (:func:`_one_round`).
    In a device function, whose per-call state cannot outlive the call, the
    two-barrier shape of upstream (:func:`_two_rounds`).  ``kind`` (None for a
    region body) lets the second stage pad with the kind's identity.
    """
    fn = current_gpu_func(ctx)
    if fn is not None and fn.is_kernel:
        return _one_round(ctx, value, combine, op, identity(kind, value.type))
    return _two_rounds(ctx, value, combine, op)


# Set in the options of a gpu.module's second lowering, for launches whose block size is
# a multiple of the subgroup size (gpu_host's whole-subgroup variant, chosen at launch):
# gpu.all_reduce then has no partial-subgroup code at all.
WHOLE_SUBGROUPS_OPTION = "gpu.whole_subgroups"


def whole_subgroup_kernels(gpu_module_op) -> frozenset[str]:
    """Kernels a launch of whole subgroups runs shorter code for: a ``gpu.all_reduce`` of
    a kind in a kernel whose block size is not declared (a declared one folds the test
    away already).  A kernel named here whose variant turns out the same only costs one
    more compile; a variant is launched only for block sizes it is exact for."""
    out = set()
    for fn in gpu_module_op.body.block.ops:
        if fn.name != "gpu.func" or not fn.is_kernel or \
                fn.properties.get("known_block_size") is not None:
            continue
        if any(o.name == "gpu.all_reduce" and o.properties.get("op") is not None
               for o in fn.walk()):
            out.add(fn.sym_name.data)
    return frozenset(out)


def identity(kind: str | None, typ: ir.Type) -> ir.Constant | None:
    """The value ``e`` with ``combine(x, e)`` equal to ``x`` bit for bit for every ``x``
    (``-0.0`` for a float sum, NaN for minnum/maxnum, which drop a NaN operand), so
    that lanes holding it change nothing; None for region bodies."""
    if kind is None:
        return None
    if isinstance(typ, ir.IntType):
        w = typ.width
        ints = {"add": 0, "or": 0, "xor": 0, "maxui": 0, "mul": 1, "and": -1, "minui": -1,
                "minsi": (1 << (w - 1)) - 1, "maxsi": -(1 << (w - 1))}
        return ir.Constant(typ, ints[kind]) if kind in ints else None
    floats = {"add": -0.0, "mul": 1.0, "minnumf": float("nan"), "maxnumf": float("nan"),
              "minimumf": float("inf"), "maximumf": float("-inf")}
    return ir.Constant(typ, floats[kind]) if kind in floats else None


def _stage_one(ctx: LoweringContext, value: ir.Value, combine, op):
    """Ids and each subgroup's reduction into its lane 0 (upstream's first stage)."""
    bld = ctx.builder
    n = SUBGROUP_SIZE
    idx = _i32(ctx, linear_thread_id(ctx))
    size = _i32(ctx, block_size(ctx))
    lane = bld.and_(idx, ir.Constant(I32, n - 1))
    active = bld.sub(size, bld.sub(idx, lane))
    reduced = subgroup_reduce_partial(ctx, active, value, combine, op)
    return idx, size, lane, active, reduced


def _one_round(ctx: LoweringContext, value: ir.Value, combine, op,
               ident: ir.Constant | None = None) -> ir.Value:
    """Lane 0 of each subgroup writes its partial, barrier, then EVERY subgroup reduces
    the partials itself (the same shuffles upstream's subgroup 0 runs, so the same
    value bit for bit) and broadcasts its lane 0's result: no second barrier and no
    second workgroup-memory read.

    The partials live in two halves used alternately (a per-thread parity flag
    in the kernel's entry block): a thread that runs the op again (a loop) writes
    the other half, and it can only come back to this half after the next
    barrier, which every thread reaches after its reads of this round.

    With the kind's identity (``ident``) a full subgroup reads all 32 slots, the
    ones past the partials counting as the identity, and runs the full butterfly:
    lane 0 combines exactly what upstream's partial butterfly combines (a skipped
    partner is a combination of identities), every lane ends with the same value
    (the kinds are commutative), and no lane waits on a divergent branch or a
    broadcast.  Blocks whose size is a multiple of 32 take that path with no
    partial-subgroup code at all.
    """
    hooks = hooks_of(ctx, op)
    bld = ctx.builder
    n = SUBGROUP_SIZE
    elem = value.type
    buf = opaque_pointer(ctx, hooks.workgroup_alloca(ctx, elem, 2 * n,
                                                     max(ctx.types.alignof(elem), 8),
                                                     "all_reduce.buffer"))
    parity = ctx.entry_alloca(I32, align=4)
    ir.IRBuilder(ctx._alloca_block).store(ir.Constant(I32, 0), parity)
    half = bld.load(parity, typ=I32)
    bld.store(bld.xor(half, ir.Constant(I32, 1)), parity)
    base = bld.mul(half, ir.Constant(I32, n))
    idx = _i32(ctx, linear_thread_id(ctx))
    size = _i32(ctx, block_size(ctx))
    lane = bld.and_(idx, ir.Constant(I32, n - 1))

    def slot(i32_index):
        return bld.gep(buf, [bld.zext(bld.add(base, i32_index), I64)], source_etype=elem)

    def store_partial(v):
        first_lane = bld.icmp_unsigned("==", lane, ir.Constant(I32, 0))
        _if_else(ctx, first_lane, lambda: (bld.store(v, slot(bld.lshr(
            idx, ir.Constant(I32, 5)))), [])[1], lambda: [])

    def full_butterfly(v):
        i = 1
        while i < n:
            shuffled, _ = shuffle(ctx, "xor", v, ir.Constant(I32, i), ir.Constant(I32, n), op)
            v = combine(v, shuffled)
            i <<= 1
        return v

    def padded_partials(num_sub):
        v = bld.load(slot(lane), typ=elem)
        return bld.select(bld.icmp_unsigned("<", lane, num_sub), v, ident)

    def whole_subgroups():
        # Block size a multiple of 32 (block-uniform): straight-line code, which ptxas
        # schedules as it does hand-written CUDA (no reconvergence points in between).
        store_partial(full_butterfly(value))
        hooks.barrier(ctx)
        return [full_butterfly(padded_partials(bld.lshr(size, ir.Constant(I32, 5))))]

    def general():
        active = bld.sub(size, bld.sub(idx, lane))
        reduced = subgroup_reduce_partial(ctx, active, value, combine, op)
        store_partial(reduced)
        hooks.barrier(ctx)
        num_sub = bld.lshr(bld.add(size, ir.Constant(I32, n - 1)), ir.Constant(I32, 5))
        # A last subgroup with fewer lanes than there are partials cannot run the
        # second stage itself: blocks of such a size (block-uniform) let subgroup 0
        # do it and publish the total, behind a second barrier, as upstream does.
        rem = bld.and_(size, ir.Constant(I32, n - 1))
        short = bld.and_(bld.icmp_unsigned("!=", rem, ir.Constant(I32, 0)),
                         bld.icmp_unsigned("<", rem, num_sub))

        def partial_round():
            def second_stage():
                v = bld.load(slot(lane), typ=elem)
                return [subgroup_reduce_partial(ctx, num_sub, v, combine, op)]

            (total,) = _if_else(ctx, bld.icmp_unsigned("<", lane, num_sub), second_stage,
                                lambda: [reduced])
            width = bld.select(bld.icmp_unsigned("<", active, ir.Constant(I32, n)), active,
                               ir.Constant(I32, n))
            res, _ = shuffle(ctx, "idx", total, ir.Constant(I32, 0), width, op)
            return [res]

        def one_round():
            if ident is None:
                return partial_round()
            full = bld.icmp_unsigned(">=", active, ir.Constant(I32, n))
            return _if_else(ctx, full, lambda: [full_butterfly(padded_partials(num_sub))],
                            partial_round)

        def two_rounds():
            _second_stage_to_slot0(ctx, idx, num_sub, slot, elem, combine, op)
            hooks.barrier(ctx)
            return [bld.load(slot(ir.Constant(I32, 0)), typ=elem)]

        return _if_else(ctx, short, two_rounds, one_round)

    if ident is None:
        (res,) = general()
        return res
    if ctx.options.get(WHOLE_SUBGROUPS_OPTION):
        (res,) = whole_subgroups()
        return res
    whole = bld.icmp_unsigned("==", bld.and_(size, ir.Constant(I32, n - 1)), ir.Constant(I32, 0))
    (res,) = _if_else(ctx, whole, whole_subgroups, general)
    return res


def _second_stage_to_slot0(ctx: LoweringContext, idx, num_sub, slot, elem, combine, op):
    """The first ``num_sub`` threads reduce the partials; thread 0 stores the total in
    slot 0 (upstream lets every one of them store, which races when ``num_sub`` is
    not a power of two)."""
    bld = ctx.builder

    def second_stage():
        v = bld.load(slot(idx), typ=elem)
        r = subgroup_reduce_partial(ctx, num_sub, v, combine, op)
        is_zero = bld.icmp_unsigned("==", idx, ir.Constant(I32, 0))
        _if_else(ctx, is_zero, lambda: (bld.store(r, slot(ir.Constant(I32, 0))), [])[1],
                 lambda: [])
        return []

    _if_else(ctx, bld.icmp_unsigned("<", idx, num_sub), second_stage, lambda: [])


def _two_rounds(ctx: LoweringContext, value: ir.Value, combine, op) -> ir.Value:
    """Upstream's gpu-all-reduce shape.

    Each subgroup reduces into lane 0, lane 0 writes a workgroup slot, barrier,
    the first ``numSubgroups`` threads reduce the slots, barrier, all read slot 0.
    """
    hooks = hooks_of(ctx, op)
    bld = ctx.builder
    n = SUBGROUP_SIZE
    idx, size, lane, active, reduced = _stage_one(ctx, value, combine, op)
    first_lane = bld.icmp_unsigned("==", lane, ir.Constant(I32, 0))
    elem = value.type
    buf = opaque_pointer(ctx, hooks.workgroup_alloca(ctx, elem, n,
                                                     max(ctx.types.alignof(elem), 8),
                                                     "all_reduce.buffer"))

    def slot(i32_index):
        return bld.gep(buf, [bld.zext(i32_index, I64)], source_etype=elem)

    def store_partial():
        bld.store(reduced, slot(bld.lshr(idx, ir.Constant(I32, 5))))
        return []

    _if_else(ctx, first_lane, store_partial, lambda: [])
    hooks.barrier(ctx)
    num_sub = bld.lshr(bld.add(size, ir.Constant(I32, n - 1)), ir.Constant(I32, 5))
    _second_stage_to_slot0(ctx, idx, num_sub, slot, elem, combine, op)
    hooks.barrier(ctx)
    return bld.load(slot(ir.Constant(I32, 0)), typ=elem)


@lowering("gpu.all_reduce")
def _all_reduce(ctx, op):
    hooks = hooks_of(ctx, op)
    value = ctx.get(op.value)
    if op.body.blocks and list(op.body.blocks.first.ops):
        combine = _region_combiner(ctx, op.body, op)
        kind = None
    else:
        kind = op.reduction.value
        combine = combiner(ctx, kind, op)
    if not isinstance(value.type, (ir.IntType, ir.FloatType, ir.DoubleType, ir.HalfType)):
        raise ctx.unsupported(op, f"gpu.all_reduce of LLVM type {value.type} (scalars only)")
    res = hooks.all_reduce(ctx, kind, value, combine)
    if res is None:
        res = all_reduce(ctx, value, combine, op, kind)
    ctx.set_results(op, [res])


def subgroup_reduce(ctx: LoweringContext, value: ir.Value, combine, cluster_size: int,
                    cluster_stride: int, op=None) -> ir.Value:
    """Butterfly over ``cluster_size`` lanes ``cluster_stride`` apart (all lanes get it)."""
    v = value
    i = cluster_stride
    while i < cluster_stride * cluster_size:
        shuffled, _ = shuffle(ctx, "xor", v, ir.Constant(I32, i),
                              ir.Constant(I32, SUBGROUP_SIZE), op)
        v = combine(v, shuffled)
        i <<= 1
    return v


@lowering("gpu.subgroup_reduce")
def _subgroup_reduce(ctx, op):
    hooks = hooks_of(ctx, op)
    kind = op.reduction.value
    value = ctx.get(op.value)
    if not isinstance(value.type, (ir.IntType, ir.FloatType, ir.DoubleType, ir.HalfType)):
        raise ctx.unsupported(op, f"gpu.subgroup_reduce of LLVM type {value.type} (scalars "
                                  f"only)")
    size = op.cluster_size.value.data if op.cluster_size is not None else hooks.subgroup_size
    stride = op.stride
    if size * stride > hooks.subgroup_size:
        raise ctx.unsupported(op, f"subgroup_reduce cluster of {size} lanes with stride "
                                  f"{stride} (exceeds the subgroup of {hooks.subgroup_size})")
    combine = combiner(ctx, kind, op)
    res = hooks.subgroup_reduce(ctx, kind, value, combine, size, stride,
                                uniform=op.uniform is not None)
    if res is None:
        res = subgroup_reduce(ctx, value, combine, size, stride, op)
    ctx.set_results(op, [res])
