"""Run-time bounds checks of memref accesses (``gpurunner --bounds-check``).

Why: an out-of-bounds ``memref.load`` in a test silently reads a neighbour's
data (or another test's, in one process) and the test passes or fails for
the wrong reason.  With checking on, every access is compared with the
memref's sizes *as the program sees them* (the descriptor, so dynamic shapes
and subviews are checked against their own extents) before it happens, and
the first violation stops the program with the op, its location, the index
and the shape::

    prog.mlir:7:5: error: 'memref.store' index out of bounds: index [2, 5], shape [3, 4] (memref<?x4xf32>)

What is checked (the lowerings call :func:`check_access` through
``memref.element_ptr(..., op=op)``, plus the two view/copy seams):

* ``memref.load``, ``memref.store``, ``memref.atomic_rmw``: ``0 <= i < size``
  in every dimension (one unsigned compare per dimension catches negatives).
* ``vector.load``/``vector.store``: the whole vector, i.e. ``i + n - 1 <
  size`` in each of the trailing dimensions the vector covers.
* ``vector.maskedload``/``vector.maskedstore``: only lanes whose mask bit is
  set (masking out the tail is what these ops are for); the report names the
  first failing lane.
* ``memref.subview``: the view must lie inside its source (each dimension's
  last element ``offset + (size - 1) * stride``), so accesses through it,
  checked against the view's own sizes, stay inside the allocation.
* ``memref.copy``: source and target shapes must agree.

Not checked: ``vector.transfer_read/write`` (they already clip the minor
dimension), ``memref.reinterpret_cast``/``view`` (the allocation's size is
not known to the code), ``llvm.load``/``llvm.store`` (no shape).

How a violation stops the program.  Host code and CPU-backend kernels format
the message with ``snprintf`` into a fresh ``malloc`` buffer, publish it with
one compare-and-swap into a process-wide slot owned by this module (the first
violation wins; later ones, e.g. other kernel threads, do not overwrite it),
and call the core runtime's ``_gpurunner_assert_fail``: the same unwinding a
failing ``cf.assert`` uses, so the program stops at once on every path (entry
point, async bodies, kernel worker threads) and the process survives.  The
engine then reports the recorded message (``runtime.bounds_state.take_violation``) instead of
the generic assertion text.  The slot's address is a constant in the
generated code: kernel modules of the CPU backend are linked by their
provider against a fixed import table, and a constant needs no linking.

On ``nvptx`` (CUDA) a failing check prints the same message with ``vprintf``
(adding block and thread ids) and executes ``llvm.trap``: the kernel faults,
the CUDA runtime reports the failed launch and the process is marked for
replacement (contract 9).  Whether the device's printf buffer reaches stdout
after a trap is up to the driver.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from runner_core.ir.locations import op_location
from runner_core.runtime.bounds_state import first_violation_address

from . import memref_desc as md
from .gpu_device_hooks import HOOKS_OPTION, block_id, current_gpu_func, thread_id
from .types import I1, I32, I64, PTR, VOID

OPTION = "bounds_check"  # the lowering option (ctx.options) that turns checks on
_MESSAGE_BYTES = 1024


def enabled(ctx) -> bool:
    return bool(ctx.options.get(OPTION))


# ------------------------------------------------------------------ emission
def check_access(ctx, op, desc: md.Descriptor, indices: list[ir.Value]) -> None:
    """Guard the access ``op`` makes at ``indices`` of the memref ``desc``."""
    rank = desc.rank
    if rank == 0 or len(indices) != rank:
        return
    bld = ctx.builder
    idx = [_i64(bld, v) for v in indices]
    sizes = desc.sizes()
    name = op.name
    if name in ("vector.maskedload", "vector.maskedstore"):
        _check_masked(ctx, op, desc, idx, sizes)
        return
    spans = [1] * rank
    vec = _vector_shape(op)
    if vec:
        for j, n in enumerate(vec[-rank:][::-1]):
            spans[rank - 1 - j] = n
    ok = None
    for i, s, n in zip(idx, sizes, spans, strict=True):
        ok = _and(bld, ok, _within(bld, i, s, n))
    if _always(ok):
        return
    what = f"'{name}'"
    if vec:
        last = [bld.add(i, ir.Constant(I64, n - 1)) if n > 1 else i
                for i, n in zip(idx, spans, strict=True)]
        text = (f"{what} index out of bounds: index [{_list(rank)}] + {_t(_vector_type(op))} "
                f"reaches [{_list(rank)}], shape [{_list(rank)}] ({_t(desc.type)})")
        values = idx + last + sizes
    else:
        text = f"{what} index out of bounds: index [{_list(rank)}], shape [{_list(rank)}] " \
               f"({_t(desc.type)})"
        values = idx + sizes
    _fail_unless(ctx, op, ok, text, values)


def check_subview(ctx, op, desc: md.Descriptor, offsets, sizes, strides) -> None:
    """A subview must lie inside its source: each dimension's last element is in range."""
    if not enabled(ctx) or desc.rank == 0:
        return
    bld = ctx.builder
    offsets = [_i64(bld, v) for v in offsets]
    sizes = [_i64(bld, v) for v in sizes]
    strides = [_i64(bld, v) for v in strides]
    src = desc.sizes()
    ok = None
    lasts = []
    one = ir.Constant(I64, 1)
    for o, n, st, s in zip(offsets, sizes, strides, src, strict=True):
        # An empty view touches nothing; otherwise offset and last element must be < size.
        last = bld.add(o, bld.mul(bld.sub(n, one), st))
        lasts.append(bld.select(bld.icmp_signed("==", n, ir.Constant(I64, 0)), o, last))
        inside = bld.and_(bld.icmp_unsigned("<", o, s), bld.icmp_unsigned("<", last, s))
        inside = bld.and_(inside, bld.icmp_signed(">=", n, ir.Constant(I64, 0)))
        empty_ok = bld.and_(bld.icmp_signed("==", n, ir.Constant(I64, 0)),
                            bld.icmp_unsigned("<=", o, s))
        ok = _and(bld, ok, bld.or_(inside, empty_ok))
    if _always(ok):
        return
    r = desc.rank
    text = (f"'{op.name}' out of bounds: offsets [{_list(r)}], sizes [{_list(r)}], strides "
            f"[{_list(r)}] reach index [{_list(r)}], source shape [{_list(r)}] ({_t(desc.type)})")
    _fail_unless(ctx, op, ok, text, offsets + sizes + strides + lasts + src)


def check_copy(ctx, op, src: md.Descriptor, dst: md.Descriptor) -> None:
    """``memref.copy`` between dynamic shapes: the shapes must agree."""
    if not enabled(ctx) or src.rank != dst.rank or src.rank == 0:
        return
    bld = ctx.builder
    a, c = src.sizes(), dst.sizes()
    ok = None
    for x, y in zip(a, c, strict=True):
        ok = _and(bld, ok, bld.icmp_signed("==", x, y))
    if _always(ok):
        return
    r = src.rank
    text = (f"'{op.name}' shape mismatch: source shape [{_list(r)}] ({_t(src.type)}), target "
            f"shape [{_list(r)}] ({_t(dst.type)})")
    _fail_unless(ctx, op, ok, text, a + c)


# ------------------------------------------------------------------ helpers
def _check_masked(ctx, op, desc, idx, sizes) -> None:
    bld = ctx.builder
    rank = desc.rank
    mask = ctx.get(op.mask)
    lanes = mask.type.count if isinstance(mask.type, ir.VectorType) else 1
    lead = None
    for i, s in zip(idx[:-1], sizes[:-1], strict=True):
        lead = _and(bld, lead, _within(bld, i, s, 1))
    ok = None
    bad_lane = ir.Constant(I64, 0)
    for lane in reversed(range(lanes)):
        on = bld.extract_element(mask, ir.Constant(I32, lane)) \
            if isinstance(mask.type, ir.VectorType) else mask
        pos = bld.add(idx[-1], ir.Constant(I64, lane)) if lane else idx[-1]
        good = _and(bld, lead, _within(bld, pos, sizes[-1], 1))
        lane_ok = bld.or_(bld.not_(on), good)
        ok = _and(bld, ok, lane_ok)
        # Walking down from the last lane, the final select names the first failing lane.
        bad_lane = bld.select(lane_ok, bad_lane, ir.Constant(I64, lane))
    if _always(ok):
        return
    at = idx[:-1] + [bld.add(idx[-1], bad_lane)]
    text = (f"'{op.name}' index out of bounds: lane %lld of {_t(_vector_type(op))} at index "
            f"[{_list(rank)}], shape [{_list(rank)}] ({_t(desc.type)})")
    _fail_unless(ctx, op, ok, text, [bad_lane] + at + sizes)


def _fail_unless(ctx, op, ok: ir.Value, text: str, values: list[ir.Value]) -> None:
    """Where ``ok`` is false at run time: report ``text`` (a printf format whose
    ``%lld``s take ``values``) and stop."""
    with ctx.builder.if_then(ctx.builder.not_(ok), likely=False):
        _fail(ctx, op, text, values)


def _fail(ctx, op, text: str, values: list[ir.Value]) -> None:
    """Report ``text`` (a printf format whose ``%lld``s take ``values``) and stop."""
    loc = op_location(op)
    head = f"{_escape(str(loc))}: error: " if loc else "error: "
    fmt = head + text
    values = [_i64(ctx.builder, v) for v in values]
    hooks = _kernel_hooks(ctx)
    if hooks is not None:
        fmt += _kernel_suffix(ctx)
        values += _kernel_ids(ctx)
    if ctx.target.name == "nvptx":
        hooks.printf(ctx, (fmt + "\n").encode(), values)
        ctx.intrinsic("llvm.trap", VOID, [])
        ctx.builder.unreachable()
        return
    bld = ctx.builder
    malloc = ctx.declare("malloc", PTR, [I64])
    snprintf = ctx.declare("snprintf", I32, [PTR, I64, PTR], var_arg=True)
    buf = bld.call(malloc, [ir.Constant(I64, _MESSAGE_BYTES)])
    bld.call(snprintf, [buf, ir.Constant(I64, _MESSAGE_BYTES),
                        ctx.string_constant(fmt, "bounds_fmt"), *values])
    slot = ir.Constant(I64, first_violation_address()).inttoptr(PTR)
    bld.cmpxchg(slot, ir.Constant(PTR, None), buf, "seq_cst", "seq_cst")
    from runner_core.runtime.core import ASSERT_FAIL

    fail = ctx.declare(ASSERT_FAIL, VOID, [PTR, PTR])
    bld.call(fail, [buf, ctx.string_constant(str(loc) if loc else "", "bounds_loc")])
    bld.unreachable()


def _kernel_hooks(ctx):
    return ctx.options.get(HOOKS_OPTION)


def _kernel_suffix(ctx) -> str:
    fn = current_gpu_func(ctx)
    where = f"GPU kernel @{_escape(fn.sym_name.data)}" if fn is not None else "GPU code"
    return f" in {where}, block (%lld, %lld, %lld), thread (%lld, %lld, %lld)"


def _kernel_ids(ctx) -> list[ir.Value]:
    bld = ctx.builder
    return [_i64(bld, block_id(ctx, d)) for d in range(3)] + \
        [_i64(bld, thread_id(ctx, d)) for d in range(3)]


def _within(bld, i: ir.Value, size: ir.Value, span: int) -> ir.Value:
    """``0 <= i`` and ``i + span - 1 < size`` without overflow (unsigned compares)."""
    if isinstance(i, ir.Constant) and isinstance(size, ir.Constant):
        iv, sv = _signed(i.constant), size.constant
        return ir.Constant(I1, int(0 <= iv and iv + span <= sv))
    inside = bld.icmp_unsigned("<", i, size)
    if span == 1:
        return inside
    room = bld.sub(size, i)
    return bld.and_(inside, bld.icmp_unsigned(">=", room, ir.Constant(I64, span)))


def _and(bld, a, c):
    if a is None:
        return c
    if isinstance(a, ir.Constant) and a.constant == 1:
        return c
    if isinstance(c, ir.Constant) and c.constant == 1:
        return a
    return bld.and_(a, c)


def _always(ok) -> bool:
    return ok is None or (isinstance(ok, ir.Constant) and ok.constant == 1)


def _signed(v: int) -> int:
    return v - (1 << 64) if v >= (1 << 63) else v


def _i64(bld, v: ir.Value) -> ir.Value:
    t = v.type
    if isinstance(t, ir.IntType) and t.width < 64:
        return bld.zext(v, I64)
    if isinstance(t, ir.IntType) and t.width > 64:
        return bld.trunc(v, I64)
    return v


def _list(n: int) -> str:
    return ", ".join(["%lld"] * n)


def _escape(text: str) -> str:
    return text.replace("%", "%%")


def _t(attr) -> str:
    """A type as printed, safe inside a printf format."""
    return _escape(str(attr))


def _vector_shape(op) -> list[int]:
    t = _vector_type(op)
    return list(t.get_shape()) if t is not None else []


def _vector_type(op):
    if op.name == "vector.load" or op.name == "vector.maskedload":
        t = op.results[0].type
    elif op.name in ("vector.store", "vector.maskedstore"):
        t = op.operands[-1].type if op.name == "vector.maskedstore" else op.operands[0].type
    else:
        return None
    return t if isinstance(t, b.VectorType) else None
