"""Host side of the gpu dialect, lowered to upstream's ``mgpu*`` runtime ABI.

One lowering serves every backend: the backend is only *which provider
implements the symbols* (contract 5 in docs/design.md).  The CPU backend's
provider (``runner_core.backends.cpu.runtime``) runs host-compiled kernels; the
CUDA backend's provider calls the driver; Debian's or a self-built
``libmlir_cuda_runtime.so`` can stand in for the latter.

The ABI (LLVM 22's ``CudaRuntimeWrappers.cpp``; ``index`` is ``intptr_t``)::

    ptr  mgpuModuleLoad(ptr blob, i64 size)        void mgpuModuleUnload(ptr module)
    ptr  mgpuModuleGetFunction(ptr module, ptr name)
    void mgpuLaunchKernel(ptr fn, i64 gx, i64 gy, i64 gz, i64 bx, i64 by, i64 bz,
                          i32 smem, ptr stream, ptr params, ptr extra, i64 nparams)
    ptr  mgpuStreamCreate()                         void mgpuStreamDestroy(ptr)
    void mgpuStreamSynchronize(ptr)                 void mgpuStreamWaitEvent(ptr s, ptr e)
    ptr  mgpuEventCreate()                          void mgpuEventDestroy(ptr)
    void mgpuEventSynchronize(ptr)                  void mgpuEventRecord(ptr e, ptr s)
    ptr  mgpuMemAlloc(i64 bytes, ptr stream, i8 host_shared)
    void mgpuMemFree(ptr, ptr stream)               void mgpuMemcpy(ptr d, ptr s, i64 n, ptr st)
    void mgpuMemset32(ptr d, i32 v, i64 count, ptr st)
    void mgpuMemset16(ptr d, i32 v, i64 count, ptr st)
    void mgpuMemHostRegisterMemRef(i64 rank, ptr descriptor, i64 elem_bytes)
    void mgpuMemHostUnregisterMemRef(i64 rank, ptr descriptor, i64 elem_bytes)

``params`` is an array of pointers, one per *expanded* kernel argument (a
ranked memref contributes ``allocated, aligned, offset, sizes..., strides...``),
as upstream's gpu-to-llvm passes them.  (``bool host_shared`` is passed as an
i8 0/1, which is how the C ABI passes a ``bool``.)

Tokens.  A ``!gpu.async.token`` is a stream (``ptr``), as after upstream's
gpu-async-region: an async op with no dependency creates a stream; with
dependencies it is enqueued on the first one's stream, and waits for the
others through an event (record on theirs, ``mgpuStreamWaitEvent`` on its own).
A synchronous op (no ``async`` keyword) runs on a temporary stream that is
synchronised and destroyed before the next host instruction.  ``gpu.wait
async`` makes a fresh stream waiting on its dependencies; ``gpu.wait``
synchronises each dependency's stream.  Streams that tokens stand for are
not destroyed by generated code (a token may be awaited any number of
times); providers release what is left at the end of a run.

Modules.  Each ``gpu.module`` is compiled at code generation time by the run's
backend (``ctx.backend``, a :class:`DeviceCompiler`: ``runner_core.backends``)
into a :class:`DeviceBinary` whose bytes are embedded in the host module; a
``gpu.binary`` (kernels compiled elsewhere) goes to the backend's
``load_gpu_object`` the same way.  The
first launch loads it (``mgpuModuleLoad``, published with a compare-and-swap so
concurrent first launches from async tasks agree on one handle); each kernel's
function handle is cached in a global likewise.  Compile errors (an op a
kernel target cannot lower) therefore surface before the program runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from runner_core.ir.dialects import gpu
from runner_core.runtime.core import LAUNCH_SITE

from . import abi
from . import memref_desc as md
from .context import LoweringContext
from .gpu_device import dynamic_smem_pad, opaque_pointer
from .gpu_device_sync import WHOLE_SUBGROUPS_OPTION, whole_subgroup_kernels
from .registry import Registry
from .types import I8, I32, I64, PTR, VOID, register_type

registry = Registry()
lowering = registry.lowering
register_module_op = registry.register_module_op

register_type(gpu.AsyncTokenType, lambda conv, t: PTR)

_MODULES_STATE = "gpu_host.modules"


@dataclass
class DeviceBinary:
    """What a device compiler produces for one gpu.module."""

    blob: bytes  # handed to mgpuModuleLoad (PTX/cubin for CUDA, LLVM IR for the CPU backend)
    kernels: tuple[str, ...]
    format: str = ""  # informative: "ptx", "cubin", "llvm-ir", ...
    info: dict = field(default_factory=dict)


class DeviceCompiler(Protocol):
    """What host code generation needs of a backend (``runner_core.backends.Backend``).

    ``options`` are the host lowering's options (``opt_level``, bounds checking,
    ...).  Both raise ``UnsupportedError`` (via ``ctx.unsupported``) for what the
    target cannot compile or load."""

    name: str

    def compile_gpu_module(self, op, *, filename: str = "",
                           options: Mapping | None = None) -> DeviceBinary: ...

    def load_gpu_object(self, op, *, filename: str = "",
                        options: Mapping | None = None) -> DeviceBinary: ...


@dataclass
class _LoadedModule:
    name: str
    blob: ir.GlobalVariable
    size: int
    handle: ir.GlobalVariable
    kernels: frozenset[str]
    functions: dict[str, ir.GlobalVariable] = field(default_factory=dict)
    # Extra dynamic shared bytes a launch of each kernel gets (gpu_device.dynamic_smem_pad).
    smem_pad: dict[str, int] = field(default_factory=dict)
    # The module lowered for block sizes that are multiples of 32, and the kernels a
    # launch of such a size takes from it (see _declare_gpu_module).
    variant: _LoadedModule | None = None
    variant_kernels: frozenset[str] = frozenset()


# --------------------------------------------------------------------- modules
def _backend(ctx: LoweringContext, op) -> DeviceCompiler:
    if ctx.backend is None:
        raise ctx.unsupported(op, f"'{op.name}' without a backend",
                              hint="host code with GPU modules is generated for a backend "
                                   "(lower_module(..., backend=...))")
    return ctx.backend


def _declare_gpu_module(ctx: LoweringContext, op) -> None:
    """The module's image, and on a backend that runs its own JIT images
    (``whole_subgroup_variants``) a second image for launches of whole subgroups where
    a kernel's gpu.all_reduce would otherwise test the block size: the general code a
    block of any size needs costs a latency-bound reduction ~5% (bench/results), so a
    launch whose block is a multiple of 32 threads takes the variant's function."""
    backend = _backend(ctx, op)
    binary = backend.compile_gpu_module(op, filename=ctx.filename, options=dict(ctx.options))
    loaded = _embed(ctx, op.sym_name.data, binary)
    for k in binary.kernels:
        pad = dynamic_smem_pad(op, k)
        if pad:
            loaded.smem_pad[k] = pad
    wanted = whole_subgroup_kernels(op) & set(binary.kernels) if getattr(
        backend, "whole_subgroup_variants", False) else frozenset()
    if wanted:
        variant = backend.compile_gpu_module(
            op, filename=ctx.filename, options={**ctx.options, WHOLE_SUBGROUPS_OPTION: True})
        loaded.variant = _embed_blob(ctx, op.sym_name.data, variant, "whole_subgroups")
        loaded.variant_kernels = frozenset(wanted)


def _declare_gpu_binary(ctx: LoweringContext, op) -> None:
    binary = _backend(ctx, op).load_gpu_object(op, filename=ctx.filename,
                                               options=dict(ctx.options))
    _embed(ctx, op.sym_name.data, binary)


def _embed(ctx: LoweringContext, name: str, binary: DeviceBinary) -> _LoadedModule:
    """The module's blob embedded, registered under its symbol for launches."""
    loaded = _embed_blob(ctx, name, binary)
    ctx.state.setdefault(_MODULES_STATE, {})[name] = loaded
    return loaded


def _embed_blob(ctx: LoweringContext, name: str, binary: DeviceBinary,
                suffix: str = "") -> _LoadedModule:
    """The blob as a private constant, and the slot its loaded module's handle goes in."""
    data = bytes(binary.blob) + b"\0"
    arr = ir.ArrayType(I8, len(data))
    tag = f"{name}.{suffix}" if suffix else name
    blob = ir.GlobalVariable(ctx.module, arr, ctx.module.get_unique_name(f"gpu.blob.{tag}"))
    blob.linkage = "private"
    blob.global_constant = True
    blob.initializer = ir.Constant(arr, bytearray(data))
    blob.align = 16
    handle = ir.GlobalVariable(ctx.module, PTR, ctx.module.get_unique_name(f"gpu.module.{tag}"))
    handle.linkage = "internal"
    handle.initializer = ir.Constant(PTR, None)
    return _LoadedModule(name, blob, len(binary.blob), handle, frozenset(binary.kernels))


register_module_op("gpu.module", declare=_declare_gpu_module)
register_module_op("gpu.binary", declare=_declare_gpu_binary)


def _cached_handle(ctx: LoweringContext, slot: ir.GlobalVariable, blocks: tuple[str, str],
                   fill: Callable[[], ir.Value]) -> ir.Value:
    """The handle in ``slot``; while it is null, ``fill()`` emits code that obtains it
    (and stores it).  The fast path is one acquire load and a branch."""
    bld = ctx.builder
    cur = bld.load_atomic(slot, "acquire", 8, typ=PTR)
    is_null = bld.icmp_unsigned("==", cur, ir.Constant(PTR, None))
    pre = bld.block
    fill_b, done = ctx.new_block(blocks[0]), ctx.new_block(blocks[1])
    bld.cbranch(is_null, fill_b, done)
    bld.position_at_end(fill_b)
    got = fill()
    filled = bld.block
    bld.branch(done)
    bld.position_at_end(done)
    h = bld.phi(PTR)
    h.add_incoming(cur, pre)
    h.add_incoming(got, filled)
    return h


def _module_handle(ctx: LoweringContext, m: _LoadedModule) -> ir.Value:
    """Load the module on first use; concurrent first uses agree through a CAS."""

    def load() -> ir.Value:
        bld = ctx.builder
        load_b = bld.block
        new = ctx.call("mgpuModuleLoad", PTR, [m.blob, ir.Constant(I64, m.size)], [PTR, I64])
        pair = bld.cmpxchg(m.handle, ir.Constant(PTR, None), new, "acq_rel", "acquire")
        won = bld.extract_value(pair, 1)
        seen = bld.extract_value(pair, 0)
        lost_b, join = ctx.new_block("gpu.load_lost"), ctx.new_block("gpu.load_join")
        bld.cbranch(won, join, lost_b)
        bld.position_at_end(lost_b)
        ctx.call("mgpuModuleUnload", VOID, [new], [PTR])
        bld.branch(join)
        bld.position_at_end(join)
        mine = bld.phi(PTR)
        mine.add_incoming(new, load_b)
        mine.add_incoming(seen, lost_b)
        return mine

    return _cached_handle(ctx, m.handle, ("gpu.load_module", "gpu.module_ready"), load)


def _function_handle(ctx: LoweringContext, m: _LoadedModule, kernel: str) -> ir.Value:
    gv = m.functions.get(kernel)
    if gv is None:
        gv = ir.GlobalVariable(ctx.module, PTR,
                               ctx.module.get_unique_name(f"gpu.function.{m.name}.{kernel}"))
        gv.linkage = "internal"
        gv.initializer = ir.Constant(PTR, None)
        m.functions[kernel] = gv

    def get() -> ir.Value:
        module = _module_handle(ctx, m)
        fn = ctx.call("mgpuModuleGetFunction", PTR,
                      [module, ctx.string_constant(kernel, "gpu.kernel_name")], [PTR, PTR])
        ctx.builder.atomic_rmw("xchg", gv, fn, "release")
        return fn

    return _cached_handle(ctx, gv, ("gpu.get_function", "gpu.function_ready"), get)


def _kernel_function(ctx: LoweringContext, m: _LoadedModule, kernel: str,
                     block: list[ir.Value]) -> ir.Value:
    """The function a launch of ``block`` threads runs: the whole-subgroup variant's
    when the module has one for ``kernel`` and the block size is a multiple of 32 (each
    image is loaded on its first use only)."""
    v = m.variant
    if v is None or kernel not in m.variant_kernels:
        return _function_handle(ctx, m, kernel)
    bld = ctx.builder
    t = block[0].type
    threads = bld.mul(bld.mul(block[0], block[1]), block[2])
    whole = bld.icmp_unsigned("==", bld.and_(threads, ir.Constant(t, 31)), ir.Constant(t, 0))
    whole_b, any_b = ctx.new_block("gpu.whole_subgroups"), ctx.new_block("gpu.any_block")
    join = ctx.new_block("gpu.kernel_chosen")
    bld.cbranch(whole, whole_b, any_b)
    chosen = []
    for where, module in ((whole_b, v), (any_b, m)):
        bld.position_at_end(where)
        chosen.append((_function_handle(ctx, module, kernel), bld.block))
        bld.branch(join)
    bld.position_at_end(join)
    fn = bld.phi(PTR)
    for value, came_from in chosen:
        fn.add_incoming(value, came_from)
    return fn


# ---------------------------------------------------------------------- streams
def stream_create(ctx: LoweringContext) -> ir.Value:
    return ctx.call("mgpuStreamCreate", PTR, [], [])


def stream_wait_for(ctx: LoweringContext, stream: ir.Value, dep: ir.Value) -> None:
    """Make ``stream`` wait (on the device) for the work enqueued so far on ``dep``."""
    ev = ctx.call("mgpuEventCreate", PTR, [], [])
    ctx.call("mgpuEventRecord", VOID, [ev, dep], [PTR, PTR])
    ctx.call("mgpuStreamWaitEvent", VOID, [stream, ev], [PTR, PTR])
    ctx.call("mgpuEventDestroy", VOID, [ev], [PTR])


def stream_synchronize(ctx: LoweringContext, stream: ir.Value) -> None:
    ctx.call("mgpuStreamSynchronize", VOID, [stream], [PTR])


def _begin_async_op(ctx: LoweringContext, op) -> tuple[ir.Value, bool]:
    """The stream ``op`` runs on, and whether it is a temporary (synchronous op)."""
    deps = ctx.get_all(op.asyncDependencies)
    if op.asyncToken is None or not deps:
        s = stream_create(ctx)
        for d in deps:
            stream_wait_for(ctx, s, d)
        return s, op.asyncToken is None
    s = deps[0]
    for d in deps[1:]:
        stream_wait_for(ctx, s, d)
    return s, False


def _end_async_op(ctx: LoweringContext, op, stream: ir.Value, temporary: bool) -> None:
    if temporary:
        stream_synchronize(ctx, stream)
        ctx.call("mgpuStreamDestroy", VOID, [stream], [PTR])
    if op.asyncToken is not None:
        ctx.set(op.asyncToken, stream)


@lowering("gpu.wait")
def _wait(ctx, op):
    deps = ctx.get_all(op.asyncDependencies)
    if op.asyncToken is not None:
        s = stream_create(ctx)
        for d in deps:
            stream_wait_for(ctx, s, d)
        ctx.set(op.asyncToken, s)
        return
    for d in deps:
        stream_synchronize(ctx, d)


# ---------------------------------------------------------------------- launch
def _intptr(ctx: LoweringContext, v: ir.Value) -> ir.Value:
    if v.type == I64:
        return v
    return ctx.builder.zext(v, I64) if v.type.width < 64 else ctx.builder.trunc(v, I64)


@lowering("gpu.launch_func")
def _launch_func(ctx, op):
    mod_name, kname = op.kernel_module_name, op.kernel_name
    m = ctx.state.get(_MODULES_STATE, {}).get(mod_name)
    if m is None:
        raise ctx.unsupported(op, f"launch of @{mod_name}::@{kname}: no gpu.module "
                                  f"@{mod_name} in this module")
    if kname not in m.kernels:
        raise ctx.unsupported(op, f"launch of @{mod_name}::@{kname}: gpu.module @{mod_name} "
                                  f"has no kernel @{kname}")
    bld = ctx.builder
    if op.asyncObject is not None:
        # `<%stream : !llvm.ptr>`: gpu-to-llvm's form (mlir-opt 22): enqueued on that stream.
        stream, temporary = ctx.get(op.asyncObject), False
        for d in ctx.get_all(op.asyncDependencies):
            stream_wait_for(ctx, stream, d)
    else:
        stream, temporary = _begin_async_op(ctx, op)
    grid = [_intptr(ctx, ctx.get(v)) for v in op.grid_size]
    block = [_intptr(ctx, ctx.get(v)) for v in op.block_size]
    fn = _kernel_function(ctx, m, kname, block)
    smem = ir.Constant(I32, 0)
    if op.dynamicSharedMemorySize is not None:
        smem = ctx.get(op.dynamicSharedMemorySize)
    if m.smem_pad.get(kname):
        smem = bld.add(smem, ir.Constant(I32, m.smem_pad[kname]))
    scalars: list[ir.Value] = []
    for v in op.kernelOperands:
        scalars += abi.explode(bld, ctx.get(v), v.type)
    n = len(scalars)
    if n:
        st = ir.LiteralStructType([s.type for s in scalars])
        storage = opaque_pointer(ctx, ctx.entry_alloca(st, name="kernel.args"))
        arr_t = ir.ArrayType(PTR, n)
        params = opaque_pointer(ctx, ctx.entry_alloca(arr_t, name="kernel.params"))
        for i, s in enumerate(scalars):
            field_ptr = bld.gep(storage, [ir.Constant(I32, 0), ir.Constant(I32, i)],
                                source_etype=st)
            bld.store(s, field_ptr)
            bld.store(field_ptr, bld.gep(params, [ir.Constant(I32, 0), ir.Constant(I32, i)],
                                         source_etype=arr_t))
        params_ptr = params
    else:
        params_ptr = ir.Constant(PTR, None)
    loc = ctx.location(op)
    if loc:
        # Which launch this is, for the runtime's diagnostics (runtime/core.py).
        ctx.call(LAUNCH_SITE, VOID, [ctx.string_constant(str(loc), "launch_site")], [PTR])
    tail = [smem, stream, params_ptr, ir.Constant(PTR, None), ir.Constant(I64, n)]
    if op.cluster_size is not None:  # sm_90 thread-block clusters (cuLaunchKernelEx)
        cluster = [_intptr(ctx, ctx.get(v)) for v in op.cluster_size]
        ctx.call("mgpuLaunchClusterKernel", VOID, [fn, *cluster, *grid, *block, *tail],
                 [PTR] + [I64] * 9 + [I32, PTR, PTR, PTR, I64])
    else:
        ctx.call("mgpuLaunchKernel", VOID, [fn, *grid, *block, *tail],
                 [PTR, I64, I64, I64, I64, I64, I64, I32, PTR, PTR, PTR, I64])
    _end_async_op(ctx, op, stream, temporary)


@lowering("gpu.launch")
def _launch(ctx, op):
    raise ctx.unsupported(op, "gpu.launch that was not outlined",
                          hint="the runner's pipeline outlines kernels with "
                               "gpu-kernel-outlining; a --pass-pipeline replacing it must "
                               "keep that pass")


# ---------------------------------------------------------------------- memory
def _element_bytes(ctx: LoweringContext, mtype) -> int:
    return ctx.types.sizeof(ctx.types.element(mtype))


def _contiguous(mtype) -> bool:
    return isinstance(mtype, b.MemRefType) and md.is_identity_layout(mtype)


def _base_and_count(ctx: LoweringContext, value, op) -> tuple[ir.Value, ir.Value]:
    """(pointer to the first element, element count) of a contiguous memref."""
    mtype = value.type
    if not _contiguous(mtype):
        raise ctx.unsupported(op, f"'{op.name}' of a memref with a non-identity layout "
                                  f"({mtype})", hint="only contiguous memrefs can be copied "
                                                     "or filled by the GPU runtime")
    d = md.Descriptor(ctx.builder, ctx.get(value), mtype)
    elem = ctx.types.element(mtype)
    ptr = md.element_pointer(ctx.builder, elem, d, [ir.Constant(I64, 0)] * d.rank)
    count: ir.Value = ir.Constant(I64, 1)
    for s in d.sizes():
        count = ctx.builder.mul(count, s) if not (isinstance(count, ir.Constant)
                                                  and count.constant == 1) else s
    if ptr.type != PTR:
        ptr = ctx.builder.addrspacecast(ptr, PTR)
    return ptr, count


@lowering("gpu.alloc")
def _alloc(ctx, op):
    mtype = op.memref.type
    if op.symbolOperands or not md.is_identity_layout(mtype):
        raise ctx.unsupported(op, f"gpu.alloc of {mtype} (layout maps are not supported)")
    bld = ctx.builder
    dyn = iter(ctx.get_all(op.dynamicSizes))
    sizes = [next(dyn) if d < 0 else ir.Constant(I64, d) for d in mtype.get_shape()]
    count: ir.Value = ir.Constant(I64, 1)
    for s in sizes:
        count = bld.mul(count, s)
    nbytes = bld.mul(count, ir.Constant(I64, _element_bytes(ctx, mtype)))
    if op.is_host_shared:
        stream, temporary = ir.Constant(PTR, None), False
    else:
        stream, temporary = _begin_async_op(ctx, op)
    ptr = ctx.call("mgpuMemAlloc", PTR,
                   [nbytes, stream, ir.Constant(I8, 1 if op.is_host_shared else 0)],
                   [I64, PTR, I8])
    st = ctx.convert(mtype)
    if st.elements[0] != PTR:
        ptr = bld.addrspacecast(ptr, st.elements[0])
    strides, acc = [], ir.Constant(I64, 1)
    for s in reversed(sizes):
        strides.append(acc)
        acc = bld.mul(acc, s)
    strides.reverse()
    ctx.set(op.memref, md.build(bld, st, ptr, ptr, ir.Constant(I64, 0), sizes, strides))
    if op.is_host_shared:
        if op.asyncToken is not None:  # pragma: no cover - the verifier rejects this
            ctx.set(op.asyncToken, stream_create(ctx))
        return
    _end_async_op(ctx, op, stream, temporary)


@lowering("gpu.dealloc")
def _dealloc(ctx, op):
    bld = ctx.builder
    d = md.Descriptor(bld, ctx.get(op.memref), op.memref.type)
    ptr = d.allocated()
    if ptr.type != PTR:
        ptr = bld.addrspacecast(ptr, PTR)
    stream, temporary = _begin_async_op(ctx, op)
    ctx.call("mgpuMemFree", VOID, [ptr, stream], [PTR, PTR])
    _end_async_op(ctx, op, stream, temporary)


@lowering("gpu.memcpy")
def _memcpy(ctx, op):
    dst, dcount = _base_and_count(ctx, op.dst, op)
    src, _ = _base_and_count(ctx, op.src, op)
    nbytes = ctx.builder.mul(dcount, ir.Constant(I64, _element_bytes(ctx, op.dst.type)))
    stream, temporary = _begin_async_op(ctx, op)
    ctx.call("mgpuMemcpy", VOID, [dst, src, nbytes, stream], [PTR, PTR, I64, PTR])
    _end_async_op(ctx, op, stream, temporary)


@lowering("gpu.memset")
def _memset(ctx, op):
    dst, count = _base_and_count(ctx, op.dst, op)
    value = ctx.get(op.value)
    bld = ctx.builder
    bits = ctx.types.sizeof(value.type) * 8
    if bits not in (16, 32):
        raise ctx.unsupported(op, f"gpu.memset of {bits}-bit values",
                              hint="the GPU runtime ABI has mgpuMemset16 and mgpuMemset32 only")
    if not isinstance(value.type, ir.IntType):
        value = bld.bitcast(value, ir.IntType(bits))
    if bits == 16:
        value = bld.zext(value, I32)
    stream, temporary = _begin_async_op(ctx, op)
    ctx.call(f"mgpuMemset{bits}", VOID, [dst, value, count, stream], [PTR, I32, I64, PTR])
    _end_async_op(ctx, op, stream, temporary)


def _host_register(ctx, op, fn: str) -> None:
    bld = ctx.builder
    u = ctx.get(op.value)
    if isinstance(op.value.type, b.MemRefType):
        # Ranked (accepted after LLVM 22): the descriptor on the stack, as an unranked one.
        slot = opaque_pointer(ctx, ctx.entry_alloca(u.type, name="host_register.desc"))
        bld.store(u, slot)
        rank, desc = ir.Constant(I64, op.value.type.get_num_dims()), slot
    else:
        rank, desc = bld.extract_value(u, 0), bld.extract_value(u, 1)
    esize = ctx.types.sizeof(ctx.convert(op.value.type.element_type))
    ctx.call(fn, VOID, [rank, desc, ir.Constant(I64, esize)], [I64, PTR, I64])


@lowering("gpu.host_register")
def _host_register_op(ctx, op):
    _host_register(ctx, op, "mgpuMemHostRegisterMemRef")


@lowering("gpu.host_unregister")
def _host_unregister_op(ctx, op):
    _host_register(ctx, op, "mgpuMemHostUnregisterMemRef")


__all__ = ["DeviceBinary", "DeviceCompiler", "stream_create", "stream_wait_for",
           "stream_synchronize"]
