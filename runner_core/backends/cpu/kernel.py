"""The ``cpu-kernel`` target: GPU kernels compiled for the host CPU.

:func:`compile_gpu_module` is the CPU backend's device compiler
(``CpuBackend.compile_gpu_module``): it lowers a ``gpu.module`` with the
shared kernel lowering (:mod:`runner_core.codegen.gpu_device`) through
:class:`CpuKernelHooks` and returns the module's LLVM IR as the "binary" that
``mgpuModuleLoad`` of the CPU provider (:mod:`runner_core.backends.cpu.runtime`)
JIT-compiles.

Code shape, per kernel ``@k``:

* ``@k(ptr block, <hidden>, <expanded args>)`` - the kernel body for one GPU
  thread.  The hidden parameters are the thread id, block id, block and grid
  sizes, shared and dynamic shared memory (:data:`HIDDEN_FIELDS`): plain values,
  loaded from the block record (:mod:`runner_core.backends.cpu.layout`) by the
  caller, so nothing in the body has to be reloaded after a store to a memref
  LLVM cannot prove distinct from the record (the loop path vectorises).
* ``@k.block(ptr block, ptr params)`` for kernels that never synchronise:
  arguments unpacked once, then a loop nest over the block's threads calling
  ``@k`` (inlined by LLVM), or ``@k.thread(ptr block, i64 tx, ty, tz, ptr
  params)`` run by one fiber per thread (:mod:`runner_core.backends.cpu.fibers`)
  for kernels that reach ``gpu.barrier``, ``gpu.shuffle`` or a reduction.
* ``@__gpurunner_kdesc.k`` - the descriptor ``mgpuModuleGetFunction`` returns.

Device functions (non-kernel ``gpu.func``, ``func.func`` in the gpu.module)
keep upstream's signature and find their block through
``gpurunner_cpu_current_block()`` (a pthread key the runtime sets).  Kernels
that call ``gpu.printf`` run their blocks one after another in block order,
so their output is deterministic (GPUs give no order; tests should not rely on
one across blocks).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import llvmlite.ir as ir

from runner_core.codegen.emitter import lower_gpu_module
from runner_core.codegen.gpu_device import (
    SYNC_OPS,
    KernelHooks,
    KernelInfo,
    reachable,
    without_slack,
)
from runner_core.codegen.gpu_host import DeviceBinary
from runner_core.codegen.target import TargetDescription

from . import layout as L
from .fibers import count_loop

I1, I32, I64 = ir.IntType(1), ir.IntType(32), ir.IntType(64)
PTR = ir.PointerType()
VOID = ir.VoidType()

TARGET_NAME = "cpu-kernel"
KERNEL_OPT_LEVEL = L.KERNEL_OPT_LEVEL
MAX_THREADS_PER_BLOCK = L.MAX_THREADS_PER_BLOCK
# Block-record fields passed to kernel bodies as parameters (after the block pointer
# and the three thread ids), in this order.
HIDDEN_FIELDS = (L.B_BID, L.B_BID + 1, L.B_BID + 2, L.B_BDIM, L.B_BDIM + 1, L.B_BDIM + 2,
                 L.B_GDIM, L.B_GDIM + 1, L.B_GDIM + 2, L.B_SHARED, L.B_DYN, L.B_DYN_SIZE)
_PTR_FIELDS = (L.B_SHARED, L.B_DYN)


def _field_type(idx: int) -> ir.Type:
    return PTR if idx in _PTR_FIELDS else I64


def _hidden_types() -> list[ir.Type]:
    return [PTR, I64, I64, I64] + [_field_type(i) for i in HIDDEN_FIELDS]


@cache
def cpu_kernel_target() -> TargetDescription:
    from runner_core.codegen.target import host_target

    host = host_target()
    return TargetDescription(
        name=TARGET_NAME, triple=host.triple, data_layout=host.data_layout,
        address_spaces={"#gpu.address_space<global>": 0, "#gpu.address_space<workgroup>": 0,
                        "#gpu.address_space<private>": 0})


class CpuKernelHooks(KernelHooks):
    """Hooks of the shared kernel lowering for the host CPU (see gpu_device's contract)."""

    name = TARGET_NAME

    def __init__(self):
        self.static_bytes = 0
        self._static_by_fn: dict[str, int] = {}  # function -> workgroup bytes it allocates
        self.gpu_module = None
        # kernel function -> (block pointer, thread ids, {field slot: value})
        self._hidden: dict[int, tuple[ir.Value, list[ir.Value], dict[int, ir.Value]]] = {}
        self._block_ptr: dict[int, ir.Value] = {}
        self._fields: dict[tuple[int, int], ir.Value] = {}

    def target_description(self) -> TargetDescription:
        return cpu_kernel_target()

    def begin_module(self, ctx, gpu_module_op) -> None:
        self.gpu_module = gpu_module_op

    # -- functions ------------------------------------------------------------
    def declare_function(self, ctx, op, name, fnty, kernel):
        if not kernel:
            return ir.Function(ctx.module, fnty, name)
        hidden = _hidden_types()
        fn = ir.Function(ctx.module, ir.FunctionType(fnty.return_type, hidden + list(fnty.args)),
                         name)
        fn.linkage = "internal"
        return fn

    def enter_function(self, ctx, op, fn, kernel):
        args = list(fn.args)
        if not kernel:
            return args
        n = len(_hidden_types())
        fields = dict(zip(HIDDEN_FIELDS, args[4:n], strict=True))
        self._hidden[id(fn)] = (args[0], args[1:4], fields)
        return args[n:]

    def _block(self, ctx) -> ir.Value:
        """The block record: a hidden parameter in kernels, the runtime's pthread key else."""
        fn = ctx.function
        hidden = self._hidden.get(id(fn))
        if hidden is not None:
            return hidden[0]
        cached = self._block_ptr.get(id(fn))
        if cached is None:
            # Once per function, at its top (the emitter's alloca block comes first).
            ab = ir.IRBuilder(fn.blocks[0])
            getter = ctx.declare("gpurunner_cpu_current_block", PTR, [])
            cached = ab.call(getter, [])
            self._block_ptr[id(fn)] = cached
        return cached

    def _slot(self, ctx, idx: int, ty=I64) -> ir.Value:
        """A field of the block record, read once at the top of the function.

        Every field a kernel reads (ids, sizes, shared memory) is fixed while the
        block runs, and reading it up front keeps LLVM from reloading it after each
        store to a memref it cannot prove distinct (which defeats vectorisation).
        """
        fn = ctx.function
        hidden = self._hidden.get(id(fn))
        if hidden is not None and idx in hidden[2]:
            return hidden[2][idx]
        key = (id(fn), idx)
        cached = self._fields.get(key)
        if cached is None:
            blk = self._block(ctx)
            ab = ir.IRBuilder(fn.blocks[0])
            cached = ab.load(ab.gep(blk, [ir.Constant(I64, idx)], source_etype=I64), typ=ty)
            self._fields[key] = cached
        return cached

    # -- ids ------------------------------------------------------------------
    def thread_id(self, ctx, dim):
        hidden = self._hidden.get(id(ctx.function))
        if hidden is not None:
            return hidden[1][dim]
        return self._slot(ctx, L.B_CUR_TID + dim)

    def block_id(self, ctx, dim):
        return self._slot(ctx, L.B_BID + dim)

    def block_dim(self, ctx, dim):
        return self._slot(ctx, L.B_BDIM + dim)

    def grid_dim(self, ctx, dim):
        return self._slot(ctx, L.B_GDIM + dim)

    # Thread-block clusters (sm_90): a cluster is a box of blocks of the grid; without
    # clusters each block is a cluster of one, as on the GPU.
    def cluster_dim_blocks(self, ctx, dim):
        return self._slot(ctx, L.B_CLUSTER + dim)

    def cluster_block_id(self, ctx, dim):
        return ctx.builder.urem(self.block_id(ctx, dim), self.cluster_dim_blocks(ctx, dim))

    def cluster_id(self, ctx, dim):
        return ctx.builder.udiv(self.block_id(ctx, dim), self.cluster_dim_blocks(ctx, dim))

    def cluster_dim(self, ctx, dim):
        return ctx.builder.udiv(self.grid_dim(ctx, dim), self.cluster_dim_blocks(ctx, dim))

    # -- synchronisation ------------------------------------------------------
    def barrier(self, ctx):
        ctx.call("gpurunner_cpu_barrier", VOID, [self._block(ctx)], [PTR])

    def shuffle(self, ctx, mode, value, offset, width):
        bld = ctx.builder
        t = value.type
        if isinstance(t, ir.IntType):
            bits = bld.zext(value, I64) if t.width < 64 else value
        else:
            it = ir.IntType(ctx.types.sizeof(t) * 8)
            bits = bld.bitcast(value, it)
            if it.width < 64:
                bits = bld.zext(bits, I64)
        res_t = ir.LiteralStructType([I64, I1])
        r = ctx.call("gpurunner_cpu_shuffle", res_t,
                     [self._block(ctx), ir.Constant(I32, L.SHUFFLE_MODE_CODES[mode]), bits,
                      offset, width], [PTR, I32, I64, I32, I32])
        out, valid = bld.extract_value(r, 0), bld.extract_value(r, 1)
        if isinstance(t, ir.IntType):
            out = bld.trunc(out, t) if t.width < 64 else out
        else:
            it = ir.IntType(ctx.types.sizeof(t) * 8)
            out = bld.bitcast(bld.trunc(out, it) if it.width < 64 else out, t)
        return out, valid

    # -- memory ---------------------------------------------------------------
    def workgroup_alloca(self, ctx, elem_type, count, align, name):
        size = ctx.types.sizeof(elem_type) * count
        offset = (self.static_bytes + align - 1) // align * align
        fn = ctx.function.name
        self._static_by_fn[fn] = self._static_by_fn.get(fn, 0) + offset + size - self.static_bytes
        self.static_bytes = offset + size
        bld = ctx.builder
        base = self._slot(ctx, L.B_SHARED, PTR)
        return bld.gep(base, [ir.Constant(I64, offset)], source_etype=ir.IntType(8))

    def dynamic_shared_memory(self, ctx):
        size = self._slot(ctx, L.B_DYN_SIZE)
        if self.dynamic_smem_align > 1:  # the launch's alignment slack (as on CUDA)
            size = without_slack(ctx, size, self.dynamic_smem_align)
        return self._slot(ctx, L.B_DYN, PTR), size

    # -- output ---------------------------------------------------------------
    def printf(self, ctx, fmt, args):
        fn = ctx.declare("printf", I32, [PTR], var_arg=True)
        ctx.builder.call(fn, [ctx.string_constant(fmt, "printf_format"), *args])

    def device_assert(self, ctx, msg, file, line, func):
        """CUDA's device-side assertion: the line its driver prints, then this thread ends.

        The launch is marked (``L_ASSERTED``): the provider then behaves as CUDA's
        context does after ``CUDA_ERROR_ASSERT``.  In a kernel the thread returns
        (other threads go on, as the lanes of a warp that did not fail do); in a
        device function it cannot, so the worker unwinds (its remaining blocks do
        not run).
        """
        bld = ctx.builder
        launch = bld.load(bld.gep(self._block(ctx), [ir.Constant(I64, L.B_LAUNCH)],
                                  source_etype=I64), typ=PTR)
        bld.atomic_rmw("xchg", bld.gep(launch, [ir.Constant(I64, L.L_ASSERTED)],
                                       source_etype=I64), ir.Constant(I64, 1), "monotonic")
        fmt = (b"%s:%d: %s: block: [%lld,%lld,%lld], thread: [%lld,%lld,%lld] "
               b"Assertion `%s` failed.\n")
        err = ctx.module.globals.get("stderr")
        if err is None:
            err = ir.GlobalVariable(ctx.module, PTR, "stderr")
            err.linkage = "external"
        ids = [bld.zext(v, I64) if v.type != I64 else v
               for v in [self.block_id(ctx, d) for d in range(3)]
               + [self.thread_id(ctx, d) for d in range(3)]]
        fprintf = ctx.declare("fprintf", I32, [PTR, PTR], var_arg=True)
        bld.call(fprintf, [bld.load(err, typ=PTR), ctx.string_constant(fmt, "assert_format"),
                           ctx.string_constant(file, "assert_file_"), ir.Constant(I32, line),
                           ctx.string_constant(func, "assert_func_"), *ids,
                           ctx.string_constant(msg, "assert_message_")])
        if id(ctx.function) in self._hidden:
            bld.ret_void()
            return
        unwind = ctx.declare("_gpurunner_assert_fail", VOID, [PTR, PTR])
        bld.call(unwind, [ctx.string_constant(msg, "assert_message_"),
                          ctx.string_constant("", "assert_loc")])
        bld.unreachable()

    # -- module end: entry points and descriptors -----------------------------
    def finish_module(self, ctx, kernels: list[KernelInfo]) -> None:
        self.descriptors: dict[str, int] = {}
        for k in kernels:
            funcs, reach = reachable(self.gpu_module, k.name)
            flags = 0
            if reach & SYNC_OPS:
                flags |= L.FLAG_FIBERS
            if "gpu.printf" in reach:
                flags |= L.FLAG_SERIAL
            self.descriptors[k.name] = flags
            # Device functions read the running thread's id from the block record;
            # without calls the loop path need not keep it there (and stays vectorisable).
            gpu_static = sum(self._static_by_fn.get(f, 0) for f in funcs)
            _emit_entry_points(ctx, k, flags, self.static_bytes, gpu_static,
                               publish_tid="func.call" in reach,
                               launch_sites=tuple(launch_sites(self.gpu_module, k.name)))


def _record_fields(bld: ir.IRBuilder, blk: ir.Value) -> list[ir.Value]:
    """The hidden field values of a kernel body, read from the block record."""
    return [bld.load(bld.gep(blk, [ir.Constant(I64, i)], source_etype=I64), typ=_field_type(i))
            for i in HIDDEN_FIELDS]


def _unpack_params(bld: ir.IRBuilder, params: ir.Value, types: list[ir.Type]) -> list[ir.Value]:
    out = []
    for i, t in enumerate(types):
        p = bld.load(bld.gep(params, [ir.Constant(I64, i)], source_etype=PTR), typ=PTR)
        out.append(bld.load(p, typ=t))
    return out


def _emit_entry_points(ctx, k: KernelInfo, flags: int, static_bytes: int, gpu_static: int,
                       publish_tid: bool = True, launch_sites: tuple[str, ...] = ()) -> None:
    mod = ctx.module
    body = k.function
    if flags & L.FLAG_FIBERS:
        fn = ir.Function(mod, ir.FunctionType(VOID, [PTR, I64, I64, I64, PTR]), f"{k.name}.thread")
        fn.linkage = "internal"
        bld = ir.IRBuilder(fn.append_basic_block("entry"))
        blk, tx, ty, tz, params = fn.args
        fields = _record_fields(bld, blk)
        bld.call(body, [blk, tx, ty, tz, *fields, *_unpack_params(bld, params, k.arg_types)])
        bld.ret_void()
        block_fn, thread_fn = None, fn
    else:
        fn = ir.Function(mod, ir.FunctionType(VOID, [PTR, PTR]), f"{k.name}.block")
        fn.linkage = "internal"
        bld = ir.IRBuilder(fn.append_basic_block("entry"))
        blk, params = fn.args
        args = _unpack_params(bld, params, k.arg_types)
        fields = _record_fields(bld, blk)

        def slot(i):
            return bld.gep(blk, [ir.Constant(I64, i)], source_etype=I64)

        dims = [bld.load(slot(L.B_BDIM + d), typ=I64) for d in range(3)]
        ids: list[ir.Value] = [None, None, None]  # type: ignore[list-item]

        def level(d: int) -> None:
            count_loop(bld, (f"loop{d}", f"body{d}", f"exit{d}"), ir.Constant(I64, 0), dims[d],
                       lambda iv: at_level(d, iv))

        def at_level(d: int, iv: ir.Value) -> None:
            ids[d] = iv
            if d == 0:
                if publish_tid:
                    for dd in range(3):
                        bld.store(ids[dd], slot(L.B_CUR_TID + dd))
                bld.call(body, [blk, ids[0], ids[1], ids[2], *fields, *args])
            else:
                level(d - 1)

        level(2)
        bld.ret_void()
        block_fn, thread_fn = fn, None
    name = _c_string(mod, k.name, "kernel_name")
    where = _c_string(mod, ", ".join(launch_sites), "kernel_launches")
    sizes_t = ir.ArrayType(I64, len(k.arg_types))
    sizes = ir.GlobalVariable(mod, sizes_t, mod.get_unique_name("kernel_param_sizes"))
    sizes.linkage = "private"
    sizes.global_constant = True
    sizes.initializer = ir.Constant(sizes_t, [ir.Constant(I64, ctx.types.sizeof(t))
                                              for t in k.arg_types])
    desc_t = ir.LiteralStructType([PTR, PTR, I64, I64, PTR, PTR, I64, I64, PTR])
    gv = ir.GlobalVariable(mod, desc_t, L.KDESC_PREFIX + k.name)
    gv.global_constant = True
    null = ir.Constant(PTR, None)
    gv.initializer = ir.Constant(desc_t, [block_fn if block_fn is not None else null,
                                          thread_fn if thread_fn is not None else null,
                                          ir.Constant(I64, static_bytes), ir.Constant(I64, flags),
                                          name, where, ir.Constant(I64, gpu_static),
                                          ir.Constant(I64, len(k.arg_types)), sizes])


def _c_string(mod: ir.Module, text: str, name: str) -> ir.GlobalVariable:
    data = bytearray(text.encode() + b"\0")
    ty = ir.ArrayType(ir.IntType(8), len(data))
    gv = ir.GlobalVariable(mod, ty, mod.get_unique_name(name))
    gv.linkage = "private"
    gv.global_constant = True
    gv.initializer = ir.Constant(ty, data)
    return gv


def launch_sites(gpu_module_op, kernel: str) -> list[str]:
    """Source locations of the gpu.launch_func ops of the enclosing module that launch
    ``kernel`` of ``gpu_module_op`` (for messages about failing launches)."""
    from runner_core.ir.locations import op_location

    top = gpu_module_op.parent_op()
    module = gpu_module_op.sym_name.data
    out: list[str] = []
    if top is None:
        return out
    for op in top.walk():
        if op.name == "gpu.launch_func" and op.kernel_module_name == module \
                and op.kernel_name == kernel:
            loc = op_location(op)
            if loc is not None and str(loc) not in out:
                out.append(str(loc))
    return out


def compile_gpu_module(gpu_module_op, hooks: CpuKernelHooks, *, filename: str = "",
                       options: Mapping | None = None) -> DeviceBinary:
    """The CPU backend's device compiler: LLVM IR text that the CPU provider JITs."""
    km = lower_gpu_module(gpu_module_op, hooks, filename=filename, options=options)
    text = str(km.module)
    return DeviceBinary(text.encode(), tuple(k.name for k in km.kernels), "llvm-ir",
                        {"flags": dict(hooks.descriptors)})


__all__ = ["CpuKernelHooks", "compile_gpu_module", "cpu_kernel_target", "TARGET_NAME",
           "MAX_THREADS_PER_BLOCK", "KERNEL_OPT_LEVEL"]
