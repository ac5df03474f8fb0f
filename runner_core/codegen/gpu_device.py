"""Kernel-side gpu ops, lowered once for every GPU target through a small hook interface.

A ``gpu.module`` is compiled into its own LLVM module by
:func:`runner_core.codegen.emitter.lower_gpu_module` with the shared lowerings
(func/arith/math/memref/scf/... are reused as they are) plus the kernel-side ones
for ``gpu.func``, ids and sizes, ``gpu.barrier``, ``gpu.shuffle``,
``gpu.all_reduce``, ``gpu.subgroup_reduce``, ``gpu.printf``,
``gpu.dynamic_shared_memory`` and the workgroup/private attributions.
Everything that differs between targets goes through one :class:`KernelHooks`
object: the CPU backend (``runner_core.backends.cpu.kernel``, target
``cpu-kernel``) and the CUDA backend (``runner_core.backends.cuda.hooks``, target
``nvptx``) each implement it (``Backend.kernel_hooks``).  Reductions are written
on top of the ``shuffle``/``barrier``/``workgroup_alloca`` hooks, in exactly the
shape upstream's ``gpu-all-reduce`` rewrite gives them, so both backends combine
values in the same order and float results agree bit for bit.

The hooks' contract is in :mod:`runner_core.codegen.gpu_device_hooks`; ids and sizes
in ``gpu_device_ids``, barrier/shuffle/reductions in ``gpu_device_sync`` (each with
its own registry, installed by :mod:`runner_core.codegen.lowerings`).
"""

from __future__ import annotations

import llvmlite.ir as ir

from runner_core.ir.symbols import lookup_symbol

from . import abi
from . import memref_desc as md
from .context import FunctionInfo, LoweringContext
from .gpu_device_hooks import (
    _CURRENT_FUNC,
    _KERNELS_OPTION,
    REDUCTION_KINDS,
    SHUFFLE_MODES,
    SUBGROUP_SIZE,
    KernelHooks,
    KernelInfo,
    KernelModule,
    _known,
    block_dim,
    block_id,
    block_size,
    current_gpu_func,
    dynamic_smem_alignment,
    grid_dim,
    hooks_of,
    linear_thread_id,
    opaque_pointer,
    round_up_shared,
    thread_id,
    without_slack,
)
from .gpu_device_sync import all_reduce, combiner, shuffle, subgroup_reduce, subgroup_reduce_partial
from .registry import Registry
from .types import I1, I32, I64, PTR

registry = Registry()
lowering = registry.lowering
register_module_op = registry.register_module_op


# --------------------------------------------------------------------- gpu.func
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
SYNC_OPS = frozenset({"gpu.barrier", "gpu.shuffle", "gpu.all_reduce", "gpu.subgroup_reduce",
                      "gpu.subgroup_mma_load_matrix", "gpu.subgroup_mma_store_matrix",
                      "nvgpu.ldmatrix", "nvgpu.mma.sync"})


def dynamic_smem_pad(gpu_module_op, kernel_name: str) -> int:
    """Bytes added to a launch of ``kernel_name`` for :func:`dynamic_smem_alignment`."""
    align = dynamic_smem_alignment(gpu_module_op)
    if align == 1:
        return 0
    funcs, names = reachable(gpu_module_op, kernel_name)
    if "gpu.dynamic_shared_memory" in names:
        return align
    for fname in funcs:
        for op in lookup_symbol(gpu_module_op, fname).walk():
            # A zero-sized workgroup global is the dynamic area too (codegen.memref).
            if op.name == "memref.get_global" and 0 in op.results[0].type.get_shape():
                return align
    return 0


def ops_reachable(gpu_module_op, kernel_name: str) -> set[str]:
    """Names of the ops a kernel may execute, following calls inside its gpu.module."""
    return reachable(gpu_module_op, kernel_name)[1]


def reachable(gpu_module_op, kernel_name: str) -> tuple[set[str], set[str]]:
    """The functions a kernel may enter (itself included) and the names of the ops they
    hold, following calls inside its gpu.module."""
    seen_funcs: set[str] = set()
    names: set[str] = set()
    work = [kernel_name]
    while work:
        fname = work.pop()
        fn = None if fname in seen_funcs else lookup_symbol(gpu_module_op, fname)
        if fn is None:
            continue
        seen_funcs.add(fname)
        for inner in fn.walk():
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


__all__ = ["KernelHooks", "KernelInfo", "KernelModule", "hooks_of",
           "current_gpu_func", "linear_thread_id", "block_size", "thread_id", "block_id",
           "block_dim", "grid_dim", "shuffle", "combiner", "all_reduce", "subgroup_reduce",
           "subgroup_reduce_partial", "promote_printf_args", "ops_reachable", "SYNC_OPS",
           "SUBGROUP_SIZE", "SHUFFLE_MODES", "REDUCTION_KINDS", "PTR", "I1",
           "dynamic_smem_alignment", "dynamic_smem_pad", "round_up_shared",
           "without_slack"]
