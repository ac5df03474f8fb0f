"""The kernel-side lowering talks to targets only through KernelHooks.

A recording fake target checks which hooks each op reaches and that the
generated module is valid LLVM IR, independent of any real backend.
"""

from __future__ import annotations

import llvmlite.binding as llvm
import llvmlite.ir as ir
import pytest

from runner_core.codegen.emitter import lower_gpu_module
from runner_core.codegen.gpu_device import KernelHooks
from runner_core.codegen.target import host_target
from runner_core.errors import UnsupportedError
from runner_core.ir.parse import parse_source


class RecordingHooks(KernelHooks):
    name = "fake"

    def __init__(self):
        self.calls: list[str] = []

    def target_description(self):
        h = host_target()
        from runner_core.codegen.target import TargetDescription

        return TargetDescription(name="fake", triple=h.triple, data_layout=h.data_layout,
                                 address_spaces={"#gpu.address_space<workgroup>": 0,
                                                 "#gpu.address_space<private>": 0,
                                                 "#gpu.address_space<global>": 0})

    def _reg(self, ctx, what):
        self.calls.append(what)
        fn = ctx.declare(f"fake_{what}", ir.IntType(32), [])
        return ctx.builder.call(fn, [])

    def thread_id(self, ctx, dim):
        return self._reg(ctx, f"tid{dim}")

    def block_id(self, ctx, dim):
        return self._reg(ctx, f"bid{dim}")

    def block_dim(self, ctx, dim):
        return self._reg(ctx, f"bdim{dim}")

    def grid_dim(self, ctx, dim):
        return self._reg(ctx, f"gdim{dim}")

    def barrier(self, ctx):
        self.calls.append("barrier")
        ctx.call("fake_barrier", ir.VoidType(), [])

    def shuffle(self, ctx, mode, value, offset, width):
        self.calls.append(f"shuffle.{mode}")
        return value, ir.Constant(ir.IntType(1), 1)

    def workgroup_alloca(self, ctx, elem, count, align, name):
        self.calls.append(f"workgroup[{count}]")
        gv = ir.GlobalVariable(ctx.module, ir.ArrayType(elem, count),
                               ctx.module.get_unique_name("wg"))
        gv.initializer = ir.Constant(ir.ArrayType(elem, count), None)
        return gv

    def printf(self, ctx, fmt, args):
        self.calls.append("printf")
        ctx.call("printf", ir.IntType(32), [ctx.string_constant(fmt), *args],
                 [ir.PointerType(), *[a.type for a in args]])


SRC = """
gpu.module @m {
  gpu.func @k(%a: memref<?xf32>, %n: index)
      workgroup(%w : memref<8xf32, #gpu.address_space<workgroup>>)
      private(%p : memref<2xi32, #gpu.address_space<private>>) kernel {
    %t = gpu.thread_id x
    %g = gpu.global_id y
    %l = gpu.lane_id
    gpu.barrier
    %f = memref.load %a[%t] : memref<?xf32>
    %s, %ok = gpu.shuffle xor %f, %c1, %c32 : f32
    %r = gpu.all_reduce add %f uniform {} : (f32) -> (f32)
    %q = gpu.subgroup_reduce maxnumf %f : (f32) -> (f32)
    %z = gpu.all_reduce %f {
    ^bb0(%x: f32, %y: f32):
      %m = arith.mulf %x, %y : f32
      gpu.yield %m : f32
    } : (f32) -> (f32)
    gpu.printf "%f %ld\\n", %r, %t : f32, index
    gpu.return
  }
}
"""


def _module(text: str):
    mod = parse_source(text.replace("%c1,", "%c1,").replace(
        "%t = gpu.thread_id x", "%c1 = arith.constant 1 : i32\n    %c32 = arith.constant 32 : i32\n"
        "    %t = gpu.thread_id x"), "contract.mlir")
    return next(op for op in mod.walk() if op.name == "gpu.module")


def test_every_kernel_op_goes_through_hooks_and_yields_valid_ir():
    hooks = RecordingHooks()
    km = lower_gpu_module(_module(SRC), hooks, filename="contract.mlir")
    llvm.parse_assembly(str(km.module)).verify()
    assert [k.name for k in km.kernels] == ["k"]
    # memref<?xf32> expands to 5 scalars, then the index.
    assert len(km.kernels[0].arg_types) == 6
    for expected in ("tid0", "barrier", "shuffle.xor", "shuffle.idx", "printf",
                     "workgroup[8]", "workgroup[64]"):
        assert expected in hooks.calls, expected
    # In a kernel an all_reduce is one workgroup round (partials in two alternating
    # halves) with a second barrier only on the path for blocks whose last subgroup
    # is shorter than the number of subgroups, and a straight-line copy of the round
    # for blocks of whole subgroups: barriers emitted beyond the explicit one.
    assert hooks.calls.count("barrier") == 6


def test_all_reduce_in_a_device_function_keeps_upstreams_two_rounds():
    """A device function has no state that outlives a call, so no alternating halves:
    the second barrier keeps a second call from overwriting partials still read."""
    src = SRC.replace(") kernel {", ") {")
    hooks = RecordingHooks()
    km = lower_gpu_module(_module(src), hooks, filename="contract.mlir")
    llvm.parse_assembly(str(km.module)).verify()
    assert "workgroup[32]" in hooks.calls and "workgroup[64]" not in hooks.calls
    assert hooks.calls.count("barrier") == 5


def test_unsupported_op_in_kernel_names_op_and_location():
    src = """
gpu.module @m {
  gpu.func @k() kernel {
    %c = arith.constant 1 : index
    %x = gpu.cluster_id x
    gpu.return
  }
}
"""
    mod = parse_source(src, "bad.mlir")
    gm = next(op for op in mod.walk() if op.name == "gpu.module")
    with pytest.raises(UnsupportedError) as info:
        lower_gpu_module(gm, RecordingHooks(), filename="bad.mlir")
    assert "gpu.cluster_id" in str(info.value)
    assert "bad.mlir:5:" in str(info.value)
