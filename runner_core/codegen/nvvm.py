"""The warp-level `nvvm` ops programs write by hand, as MLIR 22 translates them to LLVM.

* `nvvm.elect.sync`: `{i32, i1} @llvm.nvvm.elect.sync(mask)`, field 1 (sm_90).
* `nvvm.shfl.sync`: `@llvm.nvvm.shfl.sync.<kind>.<i32|f32>[p]` with the op's raw mask
  and packed clamp; the `p` form returns `{T, i1}` for `return_value_and_is_valid`.

These are PTX instructions with PTX's own operand conventions, not the gpu dialect's
portable ops; the cpu backend does not model them (a located error naming the gap).
"""

from __future__ import annotations

import llvmlite.ir as ir

from .context import LoweringContext
from .nvgpu_tma import NVPTX, require_target
from .registry import Registry
from .types import I1, I32

registry = Registry()
lowering = registry.lowering

CPU_GAP = ("'{name}' is a PTX instruction the cpu backend does not model; it needs a real "
           "GPU")
CPU_HINT = "run with --gpurunner-gpu=require on an NVIDIA GPU"


@lowering("nvvm.elect.sync", targets=NVPTX)
def _elect_sync(ctx: LoweringContext, op) -> None:
    require_target(ctx, op, "nvvm.elect.sync", "sm_90")
    mask = ctx.get(op.membermask) if op.membermask is not None else ir.Constant(I32, -1)
    fn = ctx.declare("llvm.nvvm.elect.sync", ir.LiteralStructType([I32, I1]), [I32])
    ctx.set(op.pred, ctx.builder.extract_value(ctx.builder.call(fn, [mask]), 1))


@lowering("nvvm.shfl.sync", targets=NVPTX)
def _shfl_sync(ctx: LoweringContext, op) -> None:
    val = ctx.get(op.val)
    suffix = "f32" if isinstance(val.type, ir.FloatType) else "i32"
    with_valid = op.return_value_and_is_valid is not None
    rt = ir.LiteralStructType([val.type, I1]) if with_valid else val.type
    fn = ctx.declare(f"llvm.nvvm.shfl.sync.{op.kind.data.value}.{suffix}{'p' if with_valid else ''}",
                     rt, [I32, val.type, I32, I32])
    ctx.set(op.res, ctx.builder.call(fn, [ctx.get(op.thread_mask), val, ctx.get(op.offset),
                                          ctx.get(op.mask_and_clamp)]))


def _cpu_gap(ctx: LoweringContext, op) -> None:
    raise ctx.unsupported(op, CPU_GAP.format(name=op.name), hint=CPU_HINT)


for _name in ("nvvm.elect.sync", "nvvm.shfl.sync"):
    lowering(_name, targets=["cpu-kernel"])(_cpu_gap)
