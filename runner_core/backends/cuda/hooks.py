"""Kernel-side gpu ops on NVPTX: the cuda backend's hooks of the shared kernel lowering.

Special registers for ids and sizes, ``bar.sync`` for ``gpu.barrier``,
``shfl.sync`` for shuffles (the reductions of :mod:`runner_core.codegen.gpu_device`
are built on them), shared-memory globals for workgroup memory and ``vprintf``
for ``gpu.printf``; the contract is :class:`~runner_core.codegen.gpu_device.KernelHooks`.
"""

from __future__ import annotations

import llvmlite.ir as ir
from llvmlite.ir.values import FormattedConstant

from runner_core.codegen import gpu_device
from runner_core.codegen.types import I1, I32, I64, PTR

from .nvptx import KERNEL_CC, SHARED, nvptx_target


def _sreg(ctx, name: str):
    fn = ctx.declare(f"llvm.nvvm.read.ptx.sreg.{name}", I32, [])
    return ctx.builder.call(fn, [])


_DIMS = ("x", "y", "z")


def _dim_sreg(register: str):
    """A hook method reading the special register ``register.x`` (``.y``, ``.z``)."""
    return lambda self, ctx, dim: _sreg(ctx, f"{register}.{_DIMS[dim]}")


def _opaque_ref(gv, addrspace: int):
    """``gv`` as an opaque ``ptr addrspace(N)`` value.

    llvmlite gives globals typed pointer types, and a bitcast to the opaque
    type is folded away; users of the pointer (GEP, store) need the opaque one.
    """
    return FormattedConstant(ir.PointerType(addrspace=addrspace), gv.get_reference())


_SHFL_MODE = {"xor": "bfly", "up": "up", "down": "down", "idx": "idx"}


class NVPTXHooks(gpu_device.KernelHooks):
    """Kernel-side gpu ops as NVVM intrinsics, PTX special registers and ``vprintf``."""

    name = "nvptx"
    subgroup_size = 32

    def __init__(self, chip: str | None = None):
        # The chip a pipeline serializes for (cubin-chip); None: the run's device,
        # known only when the module is loaded, so no chip-specific instructions.
        self.chip = chip

    def _sm(self) -> int:
        digits = "".join(ch for ch in (self.chip or "")[3:] if ch.isdigit())
        return int(digits) if self.chip and self.chip.startswith("sm_") and digits else 0

    # redux.sync kinds (sm_80+) for i32 reductions over the whole warp, as upstream.
    _REDUX = {"add": "add", "and": "and", "or": "or", "xor": "xor", "minsi": "min",
              "minui": "umin", "maxsi": "max", "maxui": "umax"}

    def subgroup_reduce(self, ctx, kind, value, combine, cluster_size, cluster_stride, *,
                        uniform=False):
        """``redux.sync`` when upstream's NVVM lowering would use it: a chip of sm_80 or
        later, a uniform i32 reduction over the whole warp (else the shuffle tree)."""
        if not (uniform and self._sm() >= 80 and kind in self._REDUX and cluster_size == 32
                and cluster_stride == 1 and value.type == I32):
            return None
        fn = ctx.declare(f"llvm.nvvm.redux.sync.{self._REDUX[kind]}", I32, [I32, I32])
        return ctx.builder.call(fn, [value, ir.Constant(I32, -1)])

    def target_description(self):
        return nvptx_target()

    def declare_function(self, ctx, op, name, fnty, kernel):
        fn = ir.Function(ctx.module, fnty, name)
        if kernel:
            fn.calling_convention = KERNEL_CC
        return fn

    # ids: PTX special registers (unsigned 32-bit)
    thread_id = _dim_sreg("tid")
    block_id = _dim_sreg("ctaid")
    block_dim = _dim_sreg("ntid")
    grid_dim = _dim_sreg("nctaid")
    cluster_id = _dim_sreg("clusterid")
    cluster_dim = _dim_sreg("nclusterid")
    cluster_block_id = _dim_sreg("cluster.ctaid")
    cluster_dim_blocks = _dim_sreg("cluster.nctaid")

    def lane_id(self, ctx):
        return _sreg(ctx, "laneid")

    def barrier(self, ctx):
        # bar.sync 0; LLVM upgrades the name to its current barrier intrinsic.
        fn = ctx.declare("llvm.nvvm.barrier0", ir.VoidType(), [])
        ctx.builder.call(fn, [])

    def shuffle(self, ctx, mode, value, offset, width):
        """``shfl.sync`` with upstream's member mask and clamp (segment mask 0)."""
        bld = ctx.builder
        mask = bld.lshr(ir.Constant(I32, -1), bld.sub(ir.Constant(I32, 32), width))
        if mode == "up":
            clamp = bld.sub(ir.Constant(I32, 32), width)
        else:
            clamp = bld.sub(width, ir.Constant(I32, 1))
        kind = _SHFL_MODE[mode]
        t = value.type
        if isinstance(t, (ir.IntType, ir.DoubleType)) and (
                isinstance(t, ir.DoubleType) or t.width == 64):
            # Two 32-bit shuffles with the same lanes; validity is the same for both.
            word = bld.bitcast(value, I64) if isinstance(t, ir.DoubleType) else value
            lo = bld.trunc(word, I32)
            hi = bld.trunc(bld.lshr(word, ir.Constant(I64, 32)), I32)
            lo2, valid = self._shfl(ctx, kind, lo, offset, clamp, mask)
            hi2, _ = self._shfl(ctx, kind, hi, offset, clamp, mask)
            joined = bld.or_(bld.zext(lo2, I64),
                             bld.shl(bld.zext(hi2, I64), ir.Constant(I64, 32)))
            return (bld.bitcast(joined, t) if isinstance(t, ir.DoubleType) else joined,
                    valid)
        return self._shfl(ctx, kind, value, offset, clamp, mask)

    @staticmethod
    def _shfl(ctx, kind, value, offset, clamp, mask):
        suffix = "f32" if isinstance(value.type, ir.FloatType) else "i32"
        rt = ir.LiteralStructType([value.type, I1])
        fn = ctx.declare(f"llvm.nvvm.shfl.sync.{kind}.{suffix}p", rt,
                         [I32, value.type, I32, I32])
        res = ctx.builder.call(fn, [mask, value, offset, clamp])
        return ctx.builder.extract_value(res, 0), ctx.builder.extract_value(res, 1)

    def workgroup_alloca(self, ctx, elem_type, count, align, name):
        arr = ir.ArrayType(elem_type, count)
        gv = ir.GlobalVariable(ctx.module, arr, ctx.module.get_unique_name(name or "shared"),
                               addrspace=SHARED)
        gv.linkage = "internal"
        gv.initializer = ir.Constant(arr, ir.Undefined)
        gv.align = align
        return _opaque_ref(gv, SHARED)

    def dynamic_shared_memory(self, ctx):
        gv = ctx.module.globals.get("__gpurunner_dynamic_shmem")
        if gv is None:
            arr = ir.ArrayType(ir.IntType(8), 0)
            gv = ir.GlobalVariable(ctx.module, arr, "__gpurunner_dynamic_shmem",
                                   addrspace=SHARED)
            gv.linkage = "external"
            gv.align = 16
        ptr = _opaque_ref(gv, SHARED)
        size = ctx.builder.zext(_sreg(ctx, "dynamic_smem_size"), I64)
        align = self.dynamic_smem_align
        if align > 1:
            # The launch added `align` bytes (codegen.gpu_device.dynamic_smem_pad): round
            # the base up inside them; the kernel sees the size its launch asked for.
            ptr = gpu_device.round_up_shared(ctx, ptr, align)
            size = gpu_device.without_slack(ctx, size, align)
        return ptr, size

    def printf(self, ctx, fmt, args):
        """``vprintf(format, buffer)``: the arguments packed at their natural alignment."""
        bld = ctx.builder
        fmt_ptr = ctx.string_constant(fmt, "printf.format")
        vprintf = ctx.declare("vprintf", I32, [PTR, PTR])
        if not args:
            bld.call(vprintf, [fmt_ptr, ir.Constant(PTR, None)])
            return
        st = ir.LiteralStructType([a.type for a in args])
        slot = ctx.entry_alloca(st, align=8)
        agg = ir.Constant(st, ir.Undefined)
        for i, a in enumerate(args):
            agg = bld.insert_value(agg, a, i)
        bld.store(agg, slot)  # a struct: the layout a C caller of vprintf builds
        bld.call(vprintf, [fmt_ptr, slot])

    def device_assert(self, ctx, msg, file, line, func):
        """CUDA's ``__assertfail`` (resolved by the driver's JIT linker, like ``vprintf``)."""
        bld = ctx.builder
        fn = ctx.declare("__assertfail", ir.VoidType(), [PTR, PTR, I32, PTR, I64])
        fn.attributes.add("noreturn")
        bld.call(fn, [ctx.string_constant(msg, "assert_message_"),
                      ctx.string_constant(file, "assert_file_"), ir.Constant(I32, line),
                      ctx.string_constant(func, "assert_func_"), ir.Constant(I64, 1)])
        bld.unreachable()
