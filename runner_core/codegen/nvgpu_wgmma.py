"""`nvgpu.warpgroup.*` and the `nvvm.wgmma.*` group ops (sm_90a) as LLVM 22 lowers them.

* `nvgpu.warpgroup.generate.descriptor`: the 64-bit wgmma shared-memory
  matrix descriptor (start address >> 4 in bits 0-13, leading byte offset
  in 16-29, stride byte offset in 32-45, base offset in 49-51, swizzle mode
  in 62-63), computed as upstream does from the tensor map's box and swizzle.
* `nvgpu.warpgroup.mma`: `wgmma.fence`, then one `wgmma.mma_async
  .m64nNk16` per 64-row block and 16-wide k step (descriptors advanced as
  upstream advances them), `wgmma.commit_group`, `wgmma.wait_group N`.  The
  instruction is upstream's inline PTX (LLVM has no intrinsic for it): same
  text, same constraints, so the PTX matches `mlir-opt`'s.
* `nvgpu.warpgroup.mma.init.accumulator` (zeros) and
  `nvgpu.warpgroup.mma.store` (each thread stores its fragment: the PTX ISA's
  wgmma D layout, row = 16 * warp + lane / 4 (+ 8), column = 2 * (lane % 4) + 8 * j).

Accumulators are `{ {f32 x N/2} x M/64 }` (codegen/nvgpu_tma.py registers the
types).  Only f16/bf16 inputs with f32 accumulators are lowered (what
`nvgpu.warpgroup.mma.store` supports upstream); other types are a located
error.  The sm_90a-only instructions make the kernel image ask for
`sm_90a` (``nvgpu_tma.require_target``; the cuda backend's image records it).
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from .context import LoweringContext
from .gpu_device_hooks import hooks_of
from .nvgpu_tma import (
    NVPTX,
    cpu_kernel_gap,
    element_pointer,
    require_target,
)
from .registry import Registry
from .types import I32, I64, VOID

registry = Registry()
lowering = registry.lowering

F32 = ir.FloatType()
EXCLUDE_4LSB = 4
SWIZZLE_MODE = {"swizzle_128b": 1, "swizzle_64b": 2, "swizzle_32b": 3}
SWIZZLE_BYTES = {"swizzle_128b": 128, "swizzle_64b": 64, "swizzle_32b": 32}
def _const(v: int) -> ir.Constant:
    return ir.Constant(I64, v)


@lowering("nvgpu.warpgroup.generate.descriptor", targets=NVPTX)
def _generate_descriptor(ctx: LoweringContext, op) -> None:
    tm = op.tensorMap.type
    swz = tm.swizzle.data
    layout = SWIZZLE_BYTES.get(swz, 1)
    mode = SWIZZLE_MODE.get(swz, 0)
    size_n = tm.tensor.get_shape()[0]
    stride = (layout << 3) >> EXCLUDE_4LSB
    lead = (size_n * layout) >> EXCLUDE_4LSB
    bld = ctx.builder
    addr = bld.ptrtoint(element_pointer(ctx, op.tensor), I64)
    base14 = bld.lshr(bld.shl(addr, _const(46)), _const(50))
    desc = (mode << 62) | (0 << 49) | (stride << 32) | (lead << 16)
    ctx.set_results(op, [bld.or_(_const(desc), base14)])


def _shape(op):
    a = op.descriptorA.type.tensor
    b_ = op.descriptorB.type.tensor
    return a, b_


def _check_types(ctx: LoweringContext, op) -> tuple[str, int]:
    a, bt = _shape(op)
    ea, eb = a.element_type, bt.element_type
    ec = op.matrixC.type.fragmented.element_type
    kinds = {b.Float16Type: "f16", b.BFloat16Type: "bf16"}
    if type(ea) not in kinds or type(ea) is not type(eb) or not isinstance(ec, b.Float32Type):
        raise ctx.unsupported(op, f"'{op.name}' with {ec} += {ea} * {eb} (the embedded runner "
                                  "lowers f32 += f16 * f16 and f32 += bf16 * bf16)",
                              hint="run with --gpurunner-tools=system")
    return kinds[type(ea)], 16


def wgmma_asm(n: int, kind: str) -> tuple[str, str]:
    """Upstream's inline PTX for one `wgmma.mma_async.m64n{n}k16.f32.{kind}.{kind}` and its
    constraints: N/2 f32 in-out registers, two descriptors, scale-d (register, turned into
    a predicate), then the immediates scale-a, scale-b, transpose-a, transpose-b."""
    regs = n // 2
    outs = ", ".join(f"${i}" for i in range(regs))
    da, db, sd = 2 * regs, 2 * regs + 1, 2 * regs + 2
    text = (f"{{\n.reg .pred p;\nsetp.ne.b32 p, ${sd}, 0;\n"
            f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{kind}.{kind} {{{outs}}}, "
            f"${da}, ${db}, p, ${sd + 1},  ${sd + 2}, ${sd + 3},  ${sd + 4};\n}}\n")
    cons = ",".join(["=f"] * regs + [str(i) for i in range(regs)] + ["l", "l"] + ["n"] * 5)
    return text, cons


def _intrinsic(ctx: LoweringContext, name: str, args=()) -> None:
    fn = ctx.declare(name, VOID, [a.type for a in args])
    ctx.builder.call(fn, list(args))


@lowering("nvgpu.warpgroup.mma", targets=NVPTX)
def _warpgroup_mma(ctx: LoweringContext, op) -> None:
    kind, wgmma_k = _check_types(ctx, op)
    require_target(ctx, op, "nvvm.wgmma.fence.aligned", "sm_90a")
    a, bt = _shape(op)
    total_m, total_k = a.get_shape()
    total_n = bt.get_shape()[1]
    byte_a = 2
    byte_b = 2
    iter_m, iter_k = total_m // 64, total_k // wgmma_k
    bld = ctx.builder
    desc_a, desc_b = ctx.get(op.descriptorA), ctx.get(op.descriptorB)
    acc = ctx.get(op.matrixC)
    struct_t = ctx.convert(op.matrixD.type)
    inner_t = struct_t.elements[0]
    regs = total_n // 2
    text, cons = wgmma_asm(total_n, kind)
    asm_t = ir.FunctionType(inner_t, [F32] * regs + [I64, I64] + [I32] * 5)
    asm = ir.InlineAsm(asm_t, text, cons, side_effect=True)
    tr_a = 1 if op.transposeA is not None else 0
    tr_b = 1 if op.transposeB is not None else 0
    _intrinsic(ctx, "llvm.nvvm.wgmma.fence.sync.aligned")
    result = ir.Constant(struct_t, ir.Undefined)
    for i in range(iter_m):
        c = bld.extract_value(acc, i)
        for k in range(iter_k):
            inc_a = ((wgmma_k * k) + (total_k * a.get_shape()[1] * i)) * byte_a >> EXCLUDE_4LSB
            inc_b = (bt.get_shape()[0] * wgmma_k * k * byte_b) >> EXCLUDE_4LSB
            da = bld.add(desc_a, _const(inc_a)) if inc_a else desc_a
            db = bld.add(desc_b, _const(inc_b)) if inc_b else desc_b
            vals = [bld.extract_value(c, j) for j in range(regs)]
            ones = [ir.Constant(I32, 1)] * 3
            c = bld.call(asm, [*vals, da, db, *ones, ir.Constant(I32, tr_a),
                               ir.Constant(I32, tr_b)])
        result = bld.insert_value(result, c, i)
    _intrinsic(ctx, "llvm.nvvm.wgmma.commit_group.sync.aligned")
    _intrinsic(ctx, "llvm.nvvm.wgmma.wait_group.sync.aligned", [_const(op.wait_group)])
    ctx.set_results(op, [result])


@lowering("nvgpu.warpgroup.mma.init.accumulator", targets=NVPTX)
def _init_accumulator(ctx: LoweringContext, op) -> None:
    st = ctx.convert(op.matrixC.type)
    if not isinstance(op.matrixC.type.fragmented.element_type, b.Float32Type):
        raise ctx.unsupported(op, f"'{op.name}' of {op.matrixC.type.fragmented} (the embedded "
                                  "runner lowers f32 accumulators)")
    ctx.set_results(op, [ir.Constant(st, [ir.Constant(e, [ir.Constant(F32, 0.0)] *
                                                       len(e.elements))
                                          for e in st.elements])])


@lowering("nvgpu.warpgroup.mma.store", targets=NVPTX)
def _mma_store(ctx: LoweringContext, op) -> None:
    from .memref_desc import Descriptor
    from .memref_desc import element_pointer as md_element_pointer

    bld = ctx.builder
    hooks = hooks_of(ctx, op)
    acc = ctx.get(op.matrixD)
    m, n = op.matrixD.type.fragmented.get_shape()
    mtype = op.dstMemref.type
    desc = Descriptor(bld, ctx.get(op.dstMemref), mtype)
    elem = ctx.types.element(mtype)
    tid = hooks.thread_id(ctx, 0)
    lane = bld.urem(tid, ir.Constant(I32, 32))
    warp = bld.udiv(tid, ir.Constant(I32, 32))
    row0 = bld.add(bld.udiv(lane, ir.Constant(I32, 4)), bld.mul(warp, ir.Constant(I32, 16)))
    col0 = bld.mul(bld.urem(lane, ir.Constant(I32, 4)), ir.Constant(I32, 2))
    index = ctx.types.index

    def store(value, row, col) -> None:
        idx = [bld.sext(row, index), bld.sext(col, index)]
        bld.store(value, md_element_pointer(bld, elem, desc, idx))

    for i in range(m // 64):
        frag = bld.extract_value(acc, i)
        for half in range(2):
            row = bld.add(row0, ir.Constant(I32, 64 * i + 8 * half))
            for j in range(n // 8):
                col = bld.add(col0, ir.Constant(I32, 8 * j))
                base = 4 * j + 2 * half
                store(bld.extract_value(frag, base), row, col)
                store(bld.extract_value(frag, base + 1), row, bld.add(col, ir.Constant(I32, 1)))


@lowering("nvvm.wgmma.wait.group.sync.aligned", targets=NVPTX)
def _wait_group(ctx: LoweringContext, op) -> None:
    require_target(ctx, op, "nvvm.wgmma.wait.group.sync.aligned", "sm_90a")
    _intrinsic(ctx, "llvm.nvvm.wgmma.wait_group.sync.aligned", [_const(op.group.value.data)])


@lowering("nvvm.wgmma.fence.aligned", targets=NVPTX)
def _fence(ctx: LoweringContext, op) -> None:
    require_target(ctx, op, "nvvm.wgmma.fence.aligned", "sm_90a")
    _intrinsic(ctx, "llvm.nvvm.wgmma.fence.sync.aligned")


@lowering("nvvm.wgmma.commit.group.sync.aligned", targets=NVPTX)
def _commit(ctx: LoweringContext, op) -> None:
    require_target(ctx, op, "nvvm.wgmma.commit.group.sync.aligned", "sm_90a")
    _intrinsic(ctx, "llvm.nvvm.wgmma.commit_group.sync.aligned")


for _name in ("nvgpu.warpgroup.generate.descriptor", "nvgpu.warpgroup.mma",
              "nvgpu.warpgroup.mma.init.accumulator", "nvgpu.warpgroup.mma.store",
              "nvvm.wgmma.wait.group.sync.aligned", "nvvm.wgmma.fence.aligned",
              "nvvm.wgmma.commit.group.sync.aligned"):
    lowering(_name, targets=["cpu-kernel"])(cpu_kernel_gap)
