"""Outlining and sinking give the same IR as MLIR 22's passes (up to SSA names).

Both outputs are parsed by our front end, stripped of name hints and printed
in generic form, then compared textually: any difference in kernel argument
order, id ops, known sizes, module naming or symbol cloning shows up.
Skipped when mlir-opt 22 is not installed.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from runner_core.ir.parse import parse_source
from runner_core.ir.printing import print_op
from runner_core.opt import tool_main

MLIR_OPT = os.environ.get("GPURUNNER_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")
pytestmark = pytest.mark.skipif(not os.path.exists(MLIR_OPT),
                                reason=f"upstream mlir-opt not found at {MLIR_OPT}")

LAUNCH = ("gpu.launch {async}blocks(%bx, %by, %bz) in (%gx = {g}, %gy = %c1, %gz = %c1) "
          "threads(%tx, %ty, %tz) in (%sx = {b}, %sy = %c1, %sz = %c1){extra}")

PROGRAMS = {
    "captures_and_constants": """
memref.global "private" constant @g : memref<2xi32> = dense<[1, 2]>
func.func @helper(%x: i32) -> i32 {
  return %x : i32
}
func.func @main(%m: memref<?xi32>, %f: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d = memref.dim %m, %c0 : memref<?xi32>
  %cmp = arith.cmpi slt, %d, %c2 : index
  %sel = arith.select %cmp, %d, %c2 : index
  %v = arith.constant 5 : i32
  %add = arith.addi %v, %v : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %gg = memref.get_global @g : memref<2xi32>
    %x = memref.load %gg[%tx] : memref<2xi32>
    %y = func.call @helper(%x) : (i32) -> i32
    %z = arith.addi %y, %add : i32
    %w = arith.addi %z, %v : i32
    %i2 = arith.addi %sel, %sx : index
    memref.store %w, %m[%i2] : memref<?xi32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %d, %sy = %c1, %sz = %c1) {
    %q = arith.fptosi %f : f32 to i32
    memref.store %q, %m[%tx] : memref<?xi32>
    gpu.terminator
  }
  return
}
""",
    "async_nested_attributions": """
func.func @other() {
  return
}
func.func @run(%m: memref<?xf32>, %n: index, %shm: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  scf.for %i = %c0 to %n step %c1 {
    %t = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) dynamic_shared_memory_size %shm workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) private(%p : memref<2xf32, #gpu.address_space<private>>) {
      %v = memref.load %m[%i] : memref<?xf32>
      memref.store %v, %w[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %u = memref.load %w[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %u, %p[%c0] : memref<2xf32, #gpu.address_space<private>>
      memref.store %u, %m[%tx] : memref<?xf32>
      gpu.terminator
    }
    gpu.wait [%t]
  }
  return
}
""",
    "clusters_and_names": """
func.func @main(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %c2, %csy = %c1, %csz = %c1) blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %f = arith.constant 1.0 : f32
    %i = arith.addi %cx, %csx : index
    memref.store %f, %m[%i] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) module(@mymod) function(@myfn) {
    gpu.terminator
  }
  return
}
""",
}

PIPELINES = ["-gpu-kernel-outlining",
             "-gpu-launch-sink-index-computations",
             "-gpu-launch-sink-index-computations -gpu-kernel-outlining"]


def _canonical(text: str) -> str:
    module = parse_source(text, "x.mlir")
    for op in module.walk():
        for r in op.results:
            r.name_hint = None
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    a.name_hint = None
    return print_op(module, generic=True)


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_ir_as_mlir_opt(name, pipeline):
    text = PROGRAMS[name]
    up = subprocess.run([MLIR_OPT, *pipeline.split(), "-"], input=text, text=True,
                        capture_output=True, timeout=120)
    assert up.returncode == 0, up.stderr
    ours = tool_main(["gpurunner-opt", "-", *pipeline.split()], text.encode(), {}, ".")
    assert ours.returncode == 0, ours.stderr.decode()
    assert _canonical(ours.stdout.decode()) == _canonical(up.stdout)
