"""`nvgpu` TMA and mbarrier ops (sm_90) as upstream's NVGPU -> NVVM -> LLVM lowering makes them.

Host: `nvgpu.tma.create.descriptor` calls the GPU runtime's
`mgpuTensorMapEncodeTiledMemref(rank, descriptor, dtype, interleave, swizzle,
l2promo, oob, box)`, which encodes a CUtensorMap and returns a device copy
of it (the `!nvgpu.tensormap.descriptor` value, a pointer; kernels receive
it as an argument).

Kernel (nvptx): the same NVVM intrinsics and inline PTX LLVM 22 emits
(`llvm.nvvm.cp.async.bulk.tensor.g2s.tile.Nd`, `llvm.nvvm.mbarrier.*`,
`llvm.nvvm.prefetch.tensormap`, the `mbarrier.try_wait.parity` spin loop), so
the PTX matches `mlir-opt`'s instruction for instruction
(test/cuda/test_nvgpu_ptx.py).  The cpu backend cannot emulate TMA or
mbarrier transactions: every op is a located error there naming the gap.
"""

from __future__ import annotations

import re

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from runner_core.ir.dialects.nvgpu_types import (
    MBarrierGroupType,
    TensorMapDescriptorType,
    WarpgroupAccumulatorType,
    WarpgroupMatrixDescriptorType,
)

from . import memref_desc as md
from .context import LoweringContext
from .gpu_device_hooks import hooks_of, opaque_pointer
from .registry import Registry
from .types import I1, I16, I32, I64, PTR, VOID, register_type

registry = Registry()
lowering = registry.lowering

SHARED, SHARED_CLUSTER = 3, 7
NVPTX = ["nvptx"]
SM90_GAP = ("'{name}' (sm_90 TMA / wgmma / mbarrier) needs a real GPU: the cpu backend "
            "cannot emulate it")
SM90_HINT = "run with --gpurunner-gpu=require on an sm_90 GPU (H100/H200)"

# Upstream's wait loop for `nvgpu.mbarrier.try_wait.parity` (NVVM's inline PTX).
TRY_WAIT_PARITY_ASM = ("{\n\t.reg .pred       P1; \n\tLAB_WAIT: \n\t"
                       "mbarrier.try_wait.parity.shared.b64 P1, [$0], $1, $2; \n\t"
                       "@P1 bra.uni DONE; \n\tbra.uni     LAB_WAIT; \n\tDONE: \n\t}")


def accumulator_struct(conv, t: WarpgroupAccumulatorType) -> ir.Type:
    """Upstream's layout: one struct per 64 rows, each the thread's N/2 values of them."""
    m, n = t.fragmented.get_shape()
    inner = ir.LiteralStructType([conv.convert(t.fragmented.element_type)] * (n // 2))
    return ir.LiteralStructType([inner] * (m // 64))


register_type(TensorMapDescriptorType, lambda conv, t: PTR)
register_type(MBarrierGroupType,
              lambda conv, t: ir.PointerType(addrspace=SHARED) if t.shared else PTR)
register_type(WarpgroupMatrixDescriptorType, lambda conv, t: I64)
register_type(WarpgroupAccumulatorType, accumulator_struct)


# ctx.state key: the least target the module's kernels need ("sm_90" or "sm_90a").
NEEDS_TARGET = "nvgpu.needs"


def require_target(ctx: LoweringContext, op, nvvm_op: str, target: str, *,
                   check: bool = True) -> None:
    """Record that the kernels need `target` ("sm_90": TMA and mbarrier transactions;
    "sm_90a": wgmma); where a pipeline names its chip (compile-only serialization), a
    chip without it is MLIR 22's verifier error for the NVVM op the nvgpu op becomes."""
    if target == "sm_90a" or not ctx.state.get(NEEDS_TARGET):
        ctx.state[NEEDS_TARGET] = target
    chip = getattr(hooks_of(ctx, op), "chip", None)
    if not chip or not check:
        return
    m = re.fullmatch(r"sm_(\d+)([a-z]?)", chip)
    sm, suffix = (int(m.group(1)), m.group(2)) if m else (0, "")
    if sm < 90 or (target == "sm_90a" and (sm, suffix) != (90, "a")):
        raise ctx.unsupported(op, f"'{nvvm_op}' op is not supported on {chip}")


def cpu_kernel_gap(ctx: LoweringContext, op) -> None:
    raise ctx.unsupported(op, SM90_GAP.format(name=op.name), hint=SM90_HINT)


def trunc32(ctx: LoweringContext, v: ir.Value) -> ir.Value:
    return ctx.builder.trunc(v, I32) if v.type.width > 32 else v


def element_pointer(ctx: LoweringContext, value, indices=()) -> ir.Value:
    """`aligned + offset (+ indices)` of a ranked memref operand (upstream's getStridedElementPtr)."""
    mtype = value.type
    desc = md.Descriptor(ctx.builder, ctx.get(value), mtype)
    return md.element_pointer(ctx.builder, ctx.types.element(mtype), desc,
                              [ctx.get(i) for i in indices])


def barrier_pointer(ctx: LoweringContext, op) -> ir.Value:
    """The mbarrier `%group[%id]`: a 64-bit object in the group's array."""
    base = ctx.get(op.barriers)
    return ctx.builder.gep(base, [ctx.get(op.mbarId)], source_etype=I64)


def _predicated(ctx: LoweringContext, op, emit) -> None:
    """Emit under `predicate = %p` when the op has one (upstream guards the instruction)."""
    pred = getattr(op, "predicate", None)
    if pred is None:
        emit()
        return
    with ctx.builder.if_then(ctx.get(pred)):
        emit()


def _require_shared(ctx: LoweringContext, op) -> None:
    if not op.barriers.type.shared:
        raise ctx.unsupported(op, f"'{op.name}' on an mbarrier group outside shared memory",
                              hint="use memorySpace = #gpu.address_space<workgroup>")


# ------------------------------------------------------------------------------ host
# CUtensorMapDataType of each element type (the CUDA driver's enum, as upstream maps it).
def _tensor_data_type(t) -> int | None:
    if isinstance(t, b.IntegerType):
        width, sign = t.width.data, t.signedness.data
        if sign == b.Signedness.UNSIGNED:
            return {8: 0, 16: 1, 32: 2, 64: 4}.get(width)
        if sign == b.Signedness.SIGNLESS:
            return {32: 3, 64: 5}.get(width)
        return None
    return {b.Float16Type: 6, b.Float32Type: 7, b.Float64Type: 8,
            b.BFloat16Type: 9}.get(type(t))


@lowering("nvgpu.tma.create.descriptor")
def _create_descriptor(ctx: LoweringContext, op) -> None:
    dtype = _tensor_data_type(op.tensor.type.element_type)
    if dtype is None:
        raise ctx.unsupported(op, f"'{op.name}' of element type {op.tensor.type.element_type} "
                                  "(no CUtensorMapDataType for it)")
    bld = ctx.builder
    rank, desc_ptr = md.unranked_fields(bld, ctx.get(op.tensor))
    box = ctx.entry_alloca(I64, 5, align=8, name="tma.box")
    for i, v in enumerate(op.boxDimensions):
        bld.store(ctx.get(v), bld.gep(box, [ir.Constant(I64, i)], source_etype=I64))
    tm = op.tensorMap.type
    args = [rank, desc_ptr, ir.Constant(I64, dtype), ir.Constant(I64, tm.code("interleave")),
            ir.Constant(I64, tm.code("swizzle")), ir.Constant(I64, tm.code("l2promo")),
            ir.Constant(I64, tm.code("oob")), opaque_pointer(ctx, box)]
    res = ctx.call("mgpuTensorMapEncodeTiledMemref", PTR, args,
                   [I64, PTR, I64, I64, I64, I64, I64, PTR])
    ctx.set_results(op, [res])


# ---------------------------------------------------------------------------- kernel
@lowering("nvgpu.tma.prefetch.descriptor", targets=NVPTX)
def _prefetch(ctx: LoweringContext, op) -> None:
    # LLVM 22 verifies no chip for these NVVM ops (PTX 8.0 still needed).
    require_target(ctx, op, "nvvm.prefetch", "sm_90", check=False)
    fn = ctx.declare("llvm.nvvm.prefetch.tensormap.p0", VOID, [PTR])
    _predicated(ctx, op, lambda: ctx.builder.call(fn, [ctx.get(op.tensorMapDescriptor)]))


@lowering("nvgpu.tma.async.load", targets=NVPTX)
def _tma_load(ctx: LoweringContext, op) -> None:
    _require_shared(ctx, op)
    require_target(ctx, op, "nvvm.cp.async.bulk.tensor.shared.cluster.global", "sm_90")
    rank = len(op.coordinates)
    bld = ctx.builder
    dst = bld.addrspacecast(element_pointer(ctx, op.dst), ir.PointerType(addrspace=SHARED_CLUSTER))
    bar = barrier_pointer(ctx, op)
    coords = [trunc32(ctx, ctx.get(c)) for c in op.coordinates]
    mask = ctx.get(op.multicastMask) if op.multicastMask is not None else ir.Constant(I16, 0)
    fn = ctx.declare(f"llvm.nvvm.cp.async.bulk.tensor.g2s.tile.{rank}d", VOID,
                     [ir.PointerType(addrspace=SHARED_CLUSTER), ir.PointerType(addrspace=SHARED),
                      PTR, *([I32] * rank), I16, I64, I1, I1, I32])
    args = [dst, bar, ctx.get(op.tensorMapDescriptor), *coords, mask, ir.Constant(I64, 0),
            ir.Constant(I1, op.multicastMask is not None), ir.Constant(I1, 0),
            ir.Constant(I32, 0)]
    _predicated(ctx, op, lambda: bld.call(fn, args))


@lowering("nvgpu.mbarrier.create", targets=NVPTX)
def _mbarrier_create(ctx: LoweringContext, op) -> None:
    ty = op.barriers.type
    if not ty.shared:
        raise ctx.unsupported(op, "'nvgpu.mbarrier.create' outside shared memory",
                              hint="use memorySpace = #gpu.address_space<workgroup>")
    arr = ir.ArrayType(I64, ty.num_barriers.data)
    gv = ir.GlobalVariable(ctx.module, arr, ctx.module.get_unique_name("__mbarrier"),
                           addrspace=SHARED)
    gv.linkage = "private"
    gv.initializer = ir.Constant(arr, ir.Undefined)
    gv.align = 8
    ctx.set_results(op, [opaque_pointer(ctx, gv)])


def _mbarrier_call(ctx: LoweringContext, op, intrinsic: str, ret, value,
                   nvvm_op: str = "") -> None:
    """``intrinsic(barrier, i32 value)`` on the op's shared-memory mbarrier, predicated
    (``nvvm_op``: the NVVM op whose sm_90 requirement is checked)."""
    _require_shared(ctx, op)
    if nvvm_op:
        require_target(ctx, op, nvvm_op, "sm_90", check=False)
    bar = barrier_pointer(ctx, op)
    n = trunc32(ctx, ctx.get(value))
    fn = ctx.declare(intrinsic, ret, [ir.PointerType(addrspace=SHARED), I32])
    _predicated(ctx, op, lambda: ctx.builder.call(fn, [bar, n]))


@lowering("nvgpu.mbarrier.init", targets=NVPTX)
def _mbarrier_init(ctx: LoweringContext, op) -> None:
    _mbarrier_call(ctx, op, "llvm.nvvm.mbarrier.init.shared", VOID, op.count)


@lowering("nvgpu.mbarrier.arrive.expect_tx", targets=NVPTX)
def _arrive_expect_tx(ctx: LoweringContext, op) -> None:
    _mbarrier_call(ctx, op, "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta", I64,
                   op.txcount, "nvvm.mbarrier.arrive.expect_tx")


@lowering("nvgpu.mbarrier.try_wait.parity", targets=NVPTX)
def _try_wait_parity(ctx: LoweringContext, op) -> None:
    _require_shared(ctx, op)
    require_target(ctx, op, "nvvm.mbarrier.try_wait.parity", "sm_90", check=False)
    bld = ctx.builder
    bar = barrier_pointer(ctx, op)
    ticks = trunc32(ctx, ctx.get(op.ticks))
    phase = bld.zext(ctx.get(op.phaseParity), I32)
    asm = ir.InlineAsm(ir.FunctionType(VOID, [bar.type, I32, I32]), TRY_WAIT_PARITY_ASM,
                       "r,r,r", side_effect=True)
    bld.call(asm, [bar, phase, ticks])


TMA_OP_NAMES = ("nvgpu.tma.prefetch.descriptor", "nvgpu.tma.async.load",
                "nvgpu.mbarrier.create", "nvgpu.mbarrier.init",
                "nvgpu.mbarrier.arrive.expect_tx", "nvgpu.mbarrier.try_wait.parity")
for _name in TMA_OP_NAMES:
    lowering(_name, targets=["cpu-kernel"])(cpu_kernel_gap)
