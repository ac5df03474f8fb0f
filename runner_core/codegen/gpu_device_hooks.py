"""The interface every GPU target implements for kernel code (:class:`KernelHooks`),
and what the kernel lowerings share: the hooks and gpu.func being emitted, and
the ids and sizes read through them.


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
  ``subgroup_reduce(ctx, kind, value, combine, cluster_size, cluster_stride, uniform=)``
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

from runner_core.errors import RunnerError

from .context import LoweringContext
from .target import TargetDescription

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

    # Set by lower_gpu_module before begin_module (dynamic_smem_alignment).
    dynamic_smem_align: int = 1

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
                        cluster_stride: int, *, uniform: bool = False) -> ir.Value | None:
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


# TMA copies need a 128-byte aligned shared destination and wgmma's 128-byte swizzle
# a 1024-byte aligned tile, but CUDA places the dynamic shared area only 16-byte
# aligned after the static shared variables (an mbarrier, say), whatever alignment
# the `.extern .shared` declaration asks for.  So in a gpu.module that uses those
# ops, a kernel that takes dynamic shared memory is launched with this many bytes
# more than its launch asks for, and `gpu.dynamic_shared_memory` (and a zero-sized
# workgroup `memref.global`, which aliases the same area) rounds its base up inside
# that slack; the size the kernel sees stays the one the launch asked for.
ALIGNED_DYNAMIC_SMEM_OPS = ("nvgpu.tma.", "nvgpu.warpgroup.", "nvvm.cp.async.bulk",
                            "nvvm.wgmma.")
DYNAMIC_SMEM_ALIGNMENT = 1024


def dynamic_smem_alignment(gpu_module_op) -> int:
    """The alignment the dynamic shared area of this module's kernels gets (1: none
    beyond CUDA's own)."""
    for op in gpu_module_op.walk():
        if op.name.startswith(ALIGNED_DYNAMIC_SMEM_OPS):
            return DYNAMIC_SMEM_ALIGNMENT
    return 1


def round_up_shared(ctx: LoweringContext, ptr: ir.Value, align: int) -> ir.Value:
    """``ptr`` (a shared-memory address) moved up to the next multiple of ``align``."""
    bld = ctx.builder
    i32 = ir.IntType(32)
    base = bld.ptrtoint(ptr, i32)
    bump = bld.and_(bld.sub(ir.Constant(i32, 0), base), ir.Constant(i32, align - 1))
    return bld.gep(ptr, [bld.zext(bump, ir.IntType(64))], source_etype=ir.IntType(8))


def without_slack(ctx: LoweringContext, size: ir.Value, align: int) -> ir.Value:
    """The dynamic shared size a kernel sees: the launch's, less the alignment slack
    (0 for a launch that gave no slack, e.g. one without a dynamic size)."""
    bld = ctx.builder
    slack = ir.Constant(size.type, align)
    return bld.select(bld.icmp_unsigned(">=", size, slack), bld.sub(size, slack),
                      ir.Constant(size.type, 0))


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


# -------------------------------------------------------------------- ids, sizes
def _known(op, name: str) -> tuple[int, int, int] | None:
    v = op.properties.get(name) if op is not None else None
    if v is None:
        return None
    vals = [int(x) for x in v.get_values()]
    return (vals[0], vals[1], vals[2]) if len(vals) == 3 else None


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
