"""Kernel-side gpu ops, lowered once for every GPU target through a small hook interface.

A ``gpu.module`` is compiled into its own LLVM module by :func:`lower_gpu_module`
with the shared emitter (func/arith/math/memref/scf/... lowerings are reused as
they are) plus the lowerings in this file for ``gpu.func``, ids and sizes,
``gpu.barrier``, ``gpu.shuffle``, ``gpu.all_reduce``, ``gpu.subgroup_reduce``,
``gpu.printf``, ``gpu.dynamic_shared_memory`` and the workgroup/private
attributions.  Everything that differs between targets goes through one
:class:`KernelHooks` object: the CPU backend (``runner_core.backends.cpu.kernel``,
target ``cpu-kernel``) and the CUDA backend (``runner_core.backends.cuda.hooks``,
target ``nvptx``) each implement it (``Backend.kernel_hooks``).  Reductions are written here, on top of the
``shuffle``/``barrier``/``workgroup_alloca`` hooks, in exactly the shape
upstream's ``gpu-all-reduce`` rewrite gives them, so both backends combine
values in the same order and float results agree bit for bit.

Contract of the hooks (read this before implementing a target)
---------------------------------------------------------------

``ctx`` is the :class:`~runner_core.codegen.context.LoweringContext` of the
kernel module; ``ctx.builder`` is positioned where code must go; hooks emit
LLVM IR there and return llvmlite values.  ``ctx.target`` is
``hooks.target_description()``.  :func:`current_gpu_func` gives the
``gpu.func`` being emitted (``None`` inside a ``func.func`` device function).

Module and functions
  ``target_description()``
      The :class:`TargetDescription` (triple, data layout, address spaces of
      ``#gpu.address_space<...>``, math functions) of kernel code.
  ``begin_module(ctx, gpu_module_op)`` / ``finish_module(ctx, kernels)``
      Called before the first and after the last op of a ``gpu.module``;
      ``kernels`` is the list of :class:`KernelInfo` (add entry wrappers,
      annotations, descriptor tables there).
  ``declare_function(ctx, op, name, fnty, kernel) -> ir.Function``
      Create the LLVM function for a ``gpu.func``.  ``fnty`` is the expanded
      memref ABI (each ranked memref argument is ``allocated, aligned, offset,
      sizes..., strides...``; upstream's convention, the one kernel launch
      parameters follow).  A *kernel* may get extra hidden parameters or a
      calling convention; a non-kernel ``gpu.func`` must keep ``fnty`` exactly,
      because calls to it go through the shared ``func.call`` lowering.
  ``enter_function(ctx, op, fn, kernel) -> list[ir.Value]``
      At the start of the body: emit any prologue and return the LLVM values
      of the ``fnty`` parameters (without hidden ones), in order.
  ``leave_function(ctx, op, fn, kernel)``
      After the body has been emitted (default: nothing).

Ids and sizes (each returns an unsigned integer of any width <= 64; it is
zero-extended to ``index`` here)
  ``thread_id(ctx, dim)``, ``block_id(ctx, dim)``, ``block_dim(ctx, dim)``,
  ``grid_dim(ctx, dim)`` with ``dim`` 0/1/2 for x/y/z.
  ``lane_id(ctx)``: default ``linear thread id & (subgroup_size - 1)`` where the
  linear id is ``x + bdx * (y + bdy * z)`` (how NVIDIA forms warps).
  ``block_dim``/``grid_dim`` are not asked when the kernel's
  ``known_block_size``/``known_grid_size`` answers (upstream promises UB
  when a launch disagrees with them).

Synchronisation and exchange
  ``barrier(ctx)``
      ``gpu.barrier``: every live thread of the block arrives before any
      leaves; workgroup memory written before is visible after.  Threads
      that have returned count as arrived (as on NVIDIA hardware).
  ``shuffle(ctx, mode, value, offset, width) -> (value, valid)``
      ``mode`` in ``"xor" "up" "down" "idx"``, ``value`` any scalar of <= 64
      bits, ``offset``/``width`` i32.  Semantics are PTX ``shfl.sync`` after
      upstream's NVVM conversion of ``width`` (bit-exact, including its
      quirks): participating lanes are those with ``lane < width``;
      ``clamp = 32 - width`` for ``up``, ``width - 1`` otherwise; the source
      lane and validity are ``xor: j = lane ^ offset, valid = j <= clamp``,
      ``down: j = lane + offset, valid = j <= clamp``, ``up: j = lane -
      offset, valid = j >= clamp`` (signed), ``idx: j = offset & 31, valid =
      j <= clamp``.  An invalid source yields the lane's own value.
  ``subgroup_size`` (attribute): 32.

Memory
  ``workgroup_alloca(ctx, elem_type, count, align, name) -> ptr``
      A buffer of ``count`` elements shared by the threads of one block,
      for the life of the kernel, as a pointer in the workgroup address space
      of ``target_description()``.  Called for workgroup attributions and by
      the reductions here; may be called while emitting a non-kernel function.
  ``private_alloca(ctx, elem_type, count, align) -> ptr``
      Per-thread buffer (default: an entry-block ``alloca`` cast to the
      private address space).
  ``dynamic_shared_memory(ctx) -> (ptr, size_or_None)``
      The block's dynamic shared memory (bytes given at launch) and, if the
      target knows it, its size in bytes as an index value.

Output
  ``printf(ctx, fmt: bytes, args)``
      ``args`` are the already-promoted values (floats as double, integers
      narrower than 32 bits widened to i32, index as i64); print from the
      calling thread to C ``stdout`` (contract 2 in docs/design.md).

Optional overrides (return ``None`` to use the generic lowering here)
  ``all_reduce(ctx, kind, value, combine)`` and
  ``subgroup_reduce(ctx, kind, value, combine, cluster_size, cluster_stride)``
  where ``combine(lhs, rhs) -> value`` emits one combination.

``memref.atomic_rmw`` uses the shared memref lowering (an LLVM ``atomicrmw``,
compare-and-swap loop for mul); a target that needs scopes registers its own
lowering for its target name.  Cluster ops (``gpu.cluster_*``) are rejected
unless the hooks define ``cluster_id``/``cluster_dim``/... methods of the same
shape as ``block_id``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from runner_core.errors import RunnerError

from . import abi
from . import memref_desc as md
from .context import FunctionInfo, LoweringContext
from .registry import lowering, register_module_op
from .target import TargetDescription
from .types import I1, I32, I64, PTR

HOOKS_OPTION = "kernel_hooks"
_KERNELS_OPTION = "gpu_kernels"
_CURRENT_FUNC = "gpu.current_func"
SUBGROUP_SIZE = 32

SHUFFLE_MODES = ("xor", "up", "down", "idx")
REDUCTION_KINDS = ("add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf",
                   "and", "or", "xor", "minimumf", "maximumf")


class KernelHooks:
    """Per-target code for kernel-side gpu ops; see the module docstring for the contract."""

    name: str = ""
    subgroup_size: int = SUBGROUP_SIZE

    # -- module / functions ---------------------------------------------------
    def target_description(self) -> TargetDescription:  # pragma: no cover - abstract
        raise NotImplementedError

    def begin_module(self, ctx: LoweringContext, gpu_module_op) -> None:
        pass

    def finish_module(self, ctx: LoweringContext, kernels: list[KernelInfo]) -> None:
        pass

    def declare_function(self, ctx: LoweringContext, op, name: str, fnty: ir.FunctionType,
                         kernel: bool) -> ir.Function:
        return ir.Function(ctx.module, fnty, name)

    def enter_function(self, ctx: LoweringContext, op, fn: ir.Function,
                       kernel: bool) -> list[ir.Value]:
        return list(fn.args)

    def leave_function(self, ctx: LoweringContext, op, fn: ir.Function, kernel: bool) -> None:
        pass

    # -- ids ------------------------------------------------------------------
    def thread_id(self, ctx: LoweringContext, dim: int) -> ir.Value:  # pragma: no cover
        raise NotImplementedError

    def block_id(self, ctx: LoweringContext, dim: int) -> ir.Value:  # pragma: no cover
        raise NotImplementedError

    def block_dim(self, ctx: LoweringContext, dim: int) -> ir.Value:  # pragma: no cover
        raise NotImplementedError

    def grid_dim(self, ctx: LoweringContext, dim: int) -> ir.Value:  # pragma: no cover
        raise NotImplementedError

    def lane_id(self, ctx: LoweringContext) -> ir.Value:
        lin = linear_thread_id(ctx)
        return ctx.builder.and_(lin, ir.Constant(lin.type, self.subgroup_size - 1))

    # -- synchronisation ------------------------------------------------------
    def barrier(self, ctx: LoweringContext) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def shuffle(self, ctx: LoweringContext, mode: str, value: ir.Value, offset: ir.Value,
                width: ir.Value) -> tuple[ir.Value, ir.Value]:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- memory ---------------------------------------------------------------
    def workgroup_alloca(self, ctx: LoweringContext, elem_type: ir.Type, count: int, align: int,
                         name: str) -> ir.Value:  # pragma: no cover - abstract
        raise NotImplementedError

    def private_alloca(self, ctx: LoweringContext, elem_type: ir.Type, count: int,
                       align: int) -> ir.Value:
        slot = ctx.entry_alloca(elem_type, count, align=align)
        space = ctx.target.address_spaces.get("#gpu.address_space<private>", 0)
        if space:
            return ctx.builder.addrspacecast(slot, ir.PointerType(addrspace=space))
        return slot

    def dynamic_shared_memory(self, ctx: LoweringContext) -> tuple[ir.Value, ir.Value | None]:
        raise RunnerError("error: this GPU target has no dynamic shared memory")

    # -- output ---------------------------------------------------------------
    def printf(self, ctx: LoweringContext, fmt: bytes, args: list[ir.Value]) -> None:
        raise RunnerError("error: this GPU target has no printf")  # pragma: no cover

    # -- optional overrides ---------------------------------------------------
    def all_reduce(self, ctx: LoweringContext, kind: str | None, value: ir.Value,
                   combine: Callable[[ir.Value, ir.Value], ir.Value]) -> ir.Value | None:
        return None

    def subgroup_reduce(self, ctx: LoweringContext, kind: str, value: ir.Value,
                        combine: Callable[[ir.Value, ir.Value], ir.Value], cluster_size: int,
                        cluster_stride: int) -> ir.Value | None:
        return None


@dataclass
class KernelInfo:
    """A kernel of a lowered gpu.module (what launches and targets need to know)."""

    name: str
    op: Any  # gpu.func
    function: ir.Function
    arg_types: list[ir.Type]  # expanded ABI: what mgpuLaunchKernel's params point to
    mlir_inputs: list[Any]
    known_block_size: tuple[int, int, int] | None = None
    known_grid_size: tuple[int, int, int] | None = None


@dataclass
class KernelModule:
    """Result of :func:`lower_gpu_module`."""

    name: str
    module: ir.Module
    ctx: LoweringContext
    kernels: list[KernelInfo] = field(default_factory=list)

    def kernel(self, name: str) -> KernelInfo | None:
        return next((k for k in self.kernels if k.name == name), None)


# ------------------------------------------------------------------------ driver
def lower_gpu_module(gpu_module_op, hooks: KernelHooks, *, filename: str = "",
                     options: dict | None = None) -> KernelModule:
    """Emit one ``gpu.module`` as an LLVM module for ``hooks``' target.

    Raises ``UnsupportedError`` (op name and source location) for anything the
    target cannot compile, before any code runs.
    """
    from . import load_dialect_lowerings
    from .emitter import lower_module_ops, new_module

    load_dialect_lowerings()
    name = gpu_module_op.sym_name.data
    target = hooks.target_description()
    mod = new_module(name, target)
    opts = dict(options or {})
    opts[HOOKS_OPTION] = hooks
    kernels: list[KernelInfo] = []
    opts[_KERNELS_OPTION] = kernels
    ctx = LoweringContext(target, mod, filename, opts)
    hooks.begin_module(ctx, gpu_module_op)
    lower_module_ops(ctx, gpu_module_op.body.block.ops, "in a gpu.module")
    hooks.finish_module(ctx, kernels)
    return KernelModule(name, mod, ctx, kernels)


def hooks_of(ctx: LoweringContext, op=None) -> KernelHooks:
    """The hooks of the kernel module being emitted; an error outside kernel code."""
    hooks = ctx.options.get(HOOKS_OPTION)
    if hooks is None:
        raise ctx.unsupported(op, f"'{op.name}' outside a gpu.module" if op is not None
                              else "kernel-side gpu op outside a gpu.module",
                              hint="kernel-side gpu ops are only valid inside gpu.func "
                                   "(gpu.launch bodies are outlined first)")
    return hooks


def current_gpu_func(ctx: LoweringContext):
    """The gpu.func whose body is being emitted (None in other functions)."""
    return ctx.state.get(_CURRENT_FUNC)


# --------------------------------------------------------------------- gpu.func
def _known(op, name: str) -> tuple[int, int, int] | None:
    v = op.properties.get(name) if op is not None else None
    if v is None:
        return None
    vals = [int(x) for x in v.get_values()]
    return (vals[0], vals[1], vals[2]) if len(vals) == 3 else None


def _declare_gpu_func(ctx: LoweringContext, op) -> None:
    hooks = hooks_of(ctx, op)
    name = op.sym_name.data
    if name in ctx.functions:
        raise ctx.unsupported(op, f"redefinition of function '@{name}'")
    ftype = op.function_type
    fnty = abi.function_type(ctx.types, ftype)
    kernel = op.is_kernel
    fn = hooks.declare_function(ctx, op, name, fnty, kernel)
    ctx.functions[name] = FunctionInfo(name, ftype, fn, False, False, op)
    if kernel:
        arg_types = []
        for t in ftype.inputs.data:
            arg_types += abi.expanded_types(ctx.types, t)
        ctx.options[_KERNELS_OPTION].append(
            KernelInfo(name, op, fn, arg_types, list(ftype.inputs.data),
                       _known(op, "known_block_size"), _known(op, "known_grid_size")))


def _define_gpu_func(ctx: LoweringContext, op) -> None:
    hooks = hooks_of(ctx, op)
    info = ctx.functions[op.sym_name.data]
    fn = info.function
    kernel = op.is_kernel
    entry = ctx.begin_function(fn)
    ctx.state[_CURRENT_FUNC] = op
    try:
        params = hooks.enter_function(ctx, op, fn, kernel)
        values = abi.implode_all(ctx.builder, ctx.types, params, info.mlir_type.inputs.data)
        for i, arg in enumerate(op.workgroup_buffers):
            values.append(_attribution(ctx, hooks, arg, workgroup=True,
                                       name=f"{op.sym_name.data}.wg{i}"))
        for arg in op.private_buffers:
            values.append(_attribution(ctx, hooks, arg, workgroup=False, name=""))
        ctx.lower_region_cfg(op.body, values, entry=entry)
        hooks.leave_function(ctx, op, fn, kernel)
    finally:
        ctx.state.pop(_CURRENT_FUNC, None)
    ctx.end_function()


def _static_count(ctx: LoweringContext, arg) -> int:
    t = arg.type
    shape = list(t.get_shape())
    if any(d < 0 for d in shape) or not md.is_identity_layout(t):
        raise ctx.unsupported(arg.owner.parent_op() if hasattr(arg.owner, "parent_op") else None,
                              f"attribution of type {t} (needs a static shape and identity "
                              f"layout)")
    n = 1
    for d in shape:
        n *= d
    return n


def _attribution(ctx: LoweringContext, hooks: KernelHooks, arg, *, workgroup: bool,
                 name: str) -> ir.Value:
    t = arg.type
    count = _static_count(ctx, arg)
    elem = ctx.types.element(t)
    align = max(ctx.types.alignof(elem), 16 if workgroup else 1)
    if workgroup:
        ptr = hooks.workgroup_alloca(ctx, elem, max(count, 1), align, name)
    else:
        ptr = hooks.private_alloca(ctx, elem, max(count, 1), align)
    ptr = opaque_pointer(ctx, ptr)
    st = ctx.convert(t)
    if ptr.type != st.elements[0]:
        ptr = ctx.builder.addrspacecast(ptr, st.elements[0])
    sizes = [ir.Constant(I64, d) for d in t.get_shape()]
    strides, acc = [], 1
    for d in reversed(list(t.get_shape())):
        strides.append(ir.Constant(I64, acc))
        acc *= d
    strides.reverse()
    return md.build(ctx.builder, st, ptr, ptr, ir.Constant(I64, 0), sizes, strides)


register_module_op("gpu.func", declare=_declare_gpu_func, define=_define_gpu_func)


@lowering("gpu.return")
def _return(ctx: LoweringContext, op) -> None:
    vals = ctx.get_all(op.operands)
    rv = abi.pack_results(ctx.builder, ctx.function.function_type.return_type, vals)
    if rv is None:
        ctx.builder.ret_void()
    else:
        ctx.builder.ret(rv)


# -------------------------------------------------------------------- ids, sizes
def opaque_pointer(ctx: LoweringContext, p: ir.Value) -> ir.Value:
    """llvmlite types globals and allocas with pointee types; the emitter uses opaque ptr."""
    t = p.type
    if isinstance(t, ir.PointerType) and not t.is_opaque:
        # IRBuilder.bitcast returns its operand when the types compare equal (they
        # do: llvmlite ignores pointees there), so insert the no-op cast directly.
        cast = ir.instructions.CastInstr(ctx.builder.block, "bitcast", p,
                                         ir.PointerType(addrspace=t.addrspace))
        ctx.builder._insert(cast)
        return cast
    return p


def _to_index(ctx: LoweringContext, v: ir.Value) -> ir.Value:
    idx = ctx.types.index
    if v.type == idx:
        return v
    if v.type.width < idx.width:
        return ctx.builder.zext(v, idx)
    return ctx.builder.trunc(v, idx)


def thread_id(ctx: LoweringContext, dim: int) -> ir.Value:
    return _to_index(ctx, hooks_of(ctx).thread_id(ctx, dim))


def block_id(ctx: LoweringContext, dim: int) -> ir.Value:
    return _to_index(ctx, hooks_of(ctx).block_id(ctx, dim))


def block_dim(ctx: LoweringContext, dim: int) -> ir.Value:
    return _launch_size(ctx, dim, "known_block_size", "block_dim")


def grid_dim(ctx: LoweringContext, dim: int) -> ir.Value:
    return _launch_size(ctx, dim, "known_grid_size", "grid_dim")


def _launch_size(ctx: LoweringContext, dim: int, known_attr: str, hook: str) -> ir.Value:
    """A block or grid size: a constant when the gpu.func declares it (``known_attr``),
    else read at run time by the hooks' ``hook``."""
    known = _known(current_gpu_func(ctx), known_attr)
    if known is not None:
        return ctx.index_const(known[dim])
    return _to_index(ctx, getattr(hooks_of(ctx), hook)(ctx, dim))


def linear_thread_id(ctx: LoweringContext) -> ir.Value:
    """``x + bdx * (y + bdy * z)`` as index (the order warps are formed in)."""
    bld = ctx.builder
    x, y, z = (thread_id(ctx, d) for d in range(3))
    bx, by = block_dim(ctx, 0), block_dim(ctx, 1)
    return bld.add(x, bld.mul(bx, bld.add(y, bld.mul(by, z))))


def block_size(ctx: LoweringContext) -> ir.Value:
    bld = ctx.builder
    return bld.mul(bld.mul(block_dim(ctx, 0), block_dim(ctx, 1)), block_dim(ctx, 2))


def _dim_of(op) -> int:
    return op.dimension.index


_ID_READERS = {"gpu.thread_id": thread_id, "gpu.block_id": block_id,
               "gpu.block_dim": block_dim, "gpu.grid_dim": grid_dim}


@lowering(*_ID_READERS)
def _id_or_size(ctx, op):
    hooks_of(ctx, op)
    ctx.set_results(op, [_ID_READERS[op.name](ctx, _dim_of(op))])


@lowering("gpu.global_id")
def _global_id(ctx, op):
    hooks_of(ctx, op)
    d = _dim_of(op)
    bld = ctx.builder
    ctx.set_results(op, [bld.add(bld.mul(block_id(ctx, d), block_dim(ctx, d)),
                                 thread_id(ctx, d))])


@lowering("gpu.lane_id")
def _lane_id(ctx, op):
    hooks = hooks_of(ctx, op)
    ctx.set_results(op, [_to_index(ctx, hooks.lane_id(ctx))])


@lowering("gpu.subgroup_size")
def _subgroup_size(ctx, op):
    hooks = hooks_of(ctx, op)
    ctx.set_results(op, [ctx.index_const(hooks.subgroup_size)])


@lowering("gpu.subgroup_id")
def _subgroup_id(ctx, op):
    hooks = hooks_of(ctx, op)
    lin = linear_thread_id(ctx)
    ctx.set_results(op, [ctx.builder.udiv(lin, ctx.index_const(hooks.subgroup_size))])


@lowering("gpu.num_subgroups")
def _num_subgroups(ctx, op):
    hooks = hooks_of(ctx, op)
    n = hooks.subgroup_size
    bld = ctx.builder
    ctx.set_results(op, [bld.udiv(bld.add(block_size(ctx), ctx.index_const(n - 1)),
                                  ctx.index_const(n))])


def _cluster(ctx, op, method: str):
    hooks = hooks_of(ctx, op)
    fn = getattr(hooks, method, None)
    if fn is None:
        raise ctx.unsupported(op, hint=f"thread-block clusters are not supported by the "
                                       f"'{ctx.target.name}' target")
    ctx.set_results(op, [_to_index(ctx, fn(ctx, _dim_of(op)))])


for _name in ("cluster_id", "cluster_dim", "cluster_block_id", "cluster_dim_blocks"):
    lowering(f"gpu.{_name}")(lambda ctx, op, _m=_name: _cluster(ctx, op, _m))


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
    """Upstream's ``createSubgroupReduce``: lane 0 gets the reduction over the first
    ``active_width`` lanes (all 32 when it is at least 32); other lanes get partials."""
    n = SUBGROUP_SIZE
    bld = ctx.builder
    partial = bld.icmp_signed("<", active_width, ir.Constant(I32, n))

    def partial_path():
        v = value
        i = 1
        while i < n:
            shuffled, valid = shuffle(ctx, "xor", v, ir.Constant(I32, i), active_width, op)
            cur = v
            (v,) = _if_else(ctx, valid, lambda cur=cur, s=shuffled: [combine(cur, s)],
                            lambda cur=cur: [cur])
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


def all_reduce(ctx: LoweringContext, value: ir.Value, combine, op=None) -> ir.Value:
    """Block-wide reduction as upstream's gpu-all-reduce rewrite shapes it.

    Each subgroup reduces into lane 0, lane 0 writes a workgroup slot, barrier,
    the first ``numSubgroups`` threads reduce the slots, barrier, all read slot 0.
    One deliberate difference: only thread 0 writes the final slot (upstream lets
    every thread of the second stage store its value, which races when the
    number of subgroups is not a power of two).
    """
    hooks = hooks_of(ctx, op)
    bld = ctx.builder
    n = SUBGROUP_SIZE
    idx = _i32(ctx, linear_thread_id(ctx))
    size = _i32(ctx, block_size(ctx))
    lane = bld.and_(idx, ir.Constant(I32, n - 1))
    first_lane = bld.icmp_unsigned("==", lane, ir.Constant(I32, 0))
    active = bld.sub(size, bld.sub(idx, lane))
    reduced = subgroup_reduce_partial(ctx, active, value, combine, op)
    elem = value.type
    buf = opaque_pointer(ctx, hooks.workgroup_alloca(ctx, elem, n,
                                                     max(ctx.types.alignof(elem), 8),
                                                     "all_reduce.buffer"))

    def slot(i32_index):
        return bld.gep(buf, [bld.zext(i32_index, I64)], source_etype=elem)

    def store_partial():
        bld.store(reduced, slot(bld.sdiv(idx, ir.Constant(I32, n))))
        return []

    _if_else(ctx, first_lane, store_partial, lambda: [])
    hooks.barrier(ctx)
    num_sub = bld.sdiv(bld.add(size, ir.Constant(I32, n - 1)), ir.Constant(I32, n))
    valid_sub = bld.icmp_signed("<", idx, num_sub)

    def second_stage():
        v = bld.load(slot(idx), typ=elem)
        r = subgroup_reduce_partial(ctx, num_sub, v, combine, op)
        is_zero = bld.icmp_unsigned("==", idx, ir.Constant(I32, 0))
        _if_else(ctx, is_zero, lambda: (bld.store(r, slot(ir.Constant(I32, 0))), [])[1],
                 lambda: [])
        return []

    _if_else(ctx, valid_sub, second_stage, lambda: [])
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
        res = all_reduce(ctx, value, combine, op)
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
    res = hooks.subgroup_reduce(ctx, kind, value, combine, size, stride)
    if res is None:
        res = subgroup_reduce(ctx, value, combine, size, stride, op)
    ctx.set_results(op, [res])


# ----------------------------------------------------------------------- printf
def promote_printf_args(ctx: LoweringContext, values: list[ir.Value], op=None) -> list[ir.Value]:
    """C variadic promotions: float -> double, narrow integers -> i32 (i1 zero-extended)."""
    bld = ctx.builder
    out = []
    for v in values:
        t = v.type
        if isinstance(t, ir.FloatType) or isinstance(t, ir.HalfType) or str(t) == "bfloat":
            out.append(bld.fpext(v, ir.DoubleType()))
        elif isinstance(t, ir.IntType) and t.width < 32:
            out.append(bld.zext(v, I32) if t.width == 1 else bld.sext(v, I32))
        elif isinstance(t, (ir.IntType, ir.DoubleType)) or isinstance(t, ir.PointerType):
            out.append(v)
        else:
            raise ctx.unsupported(op, f"gpu.printf argument of LLVM type {t}")
    return out


@lowering("gpu.printf")
def _printf(ctx, op):
    hooks = hooks_of(ctx, op)
    fmt = op.format.data.encode()
    args = promote_printf_args(ctx, ctx.get_all(op.args), op)
    hooks.printf(ctx, fmt, args)


# ------------------------------------------------------------ shared memory
@lowering("gpu.dynamic_shared_memory")
def _dynamic_shared_memory(ctx, op):
    hooks = hooks_of(ctx, op)
    ptr, size = hooks.dynamic_shared_memory(ctx)
    ptr = opaque_pointer(ctx, ptr)
    t = op.results[0].type
    st = ctx.convert(t)
    if ptr.type != st.elements[0]:
        ptr = ctx.builder.addrspacecast(ptr, st.elements[0])
    size = size if size is not None else ctx.index_const(0)
    ctx.set_results(op, [md.build(ctx.builder, st, ptr, ptr, ir.Constant(I64, 0), [size],
                                  [ir.Constant(I64, 1)])])


# ------------------------------------------------------------------ analysis
SYNC_OPS = frozenset({"gpu.barrier", "gpu.shuffle", "gpu.all_reduce", "gpu.subgroup_reduce"})


def ops_reachable(gpu_module_op, kernel_name: str) -> set[str]:
    """Names of the ops a kernel may execute, following calls inside its gpu.module."""
    return reachable(gpu_module_op, kernel_name)[1]


def reachable(gpu_module_op, kernel_name: str) -> tuple[set[str], set[str]]:
    """The functions a kernel may enter (itself included) and the names of the ops they
    hold, following calls inside its gpu.module."""
    table = {}
    for o in gpu_module_op.body.block.ops:
        sym = o.attributes.get("sym_name") or o.properties.get("sym_name")
        if isinstance(sym, b.StringAttr):
            table[sym.data] = o
    seen_funcs: set[str] = set()
    names: set[str] = set()
    work = [kernel_name]
    while work:
        fname = work.pop()
        if fname in seen_funcs or fname not in table:
            continue
        seen_funcs.add(fname)
        for inner in table[fname].walk():
            names.add(inner.name)
            if inner.name == "func.call":
                callee = inner.callee
                work.append(callee.root_reference.data if hasattr(callee, "root_reference")
                            else str(callee).lstrip("@"))
    return seen_funcs, names


# ------------------------------------------------------- host-only operations
# Host-side gpu ops and async ops lower to calls of the host runtimes (mgpu*,
# mlirAsyncRuntime*).  Inside kernel code those calls cannot be linked (the CPU
# backend's kernel loader, ptxas), so say so at code generation, with the op's place.
KERNEL_TARGETS = ("nvptx", "cpu-kernel")
HOST_ONLY_OPS = ("gpu.wait", "gpu.launch_func", "gpu.launch", "gpu.alloc", "gpu.dealloc",
                 "gpu.memcpy", "gpu.memset", "gpu.host_register", "gpu.host_unregister",
                 "async.execute", "async.await", "async.create_group", "async.add_to_group",
                 "async.await_all")


def _host_only(ctx, op):
    raise ctx.unsupported(op, f"'{op.name}' inside GPU kernel code",
                          hint="it is a host-side operation; move it out of the gpu.module")


for _name in HOST_ONLY_OPS:
    lowering(_name, targets=KERNEL_TARGETS)(_host_only)


__all__ = ["KernelHooks", "KernelInfo", "KernelModule", "lower_gpu_module", "hooks_of",
           "current_gpu_func", "linear_thread_id", "block_size", "thread_id", "block_id",
           "block_dim", "grid_dim", "shuffle", "combiner", "all_reduce", "subgroup_reduce",
           "subgroup_reduce_partial", "promote_printf_args", "ops_reachable", "SYNC_OPS",
           "SUBGROUP_SIZE", "SHUFFLE_MODES", "REDUCTION_KINDS", "PTR", "I1"]
