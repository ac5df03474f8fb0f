"""Faults in real programs (not fake tools) fail only their own test; the next one passes.

One pytest session through the plug-in runs, in order, a program that faults
in each way we know of, each followed by a correct program.  Crashes take the
worker process down (the plug-in replaces it), hangs hit the per-file timeout,
anticipated failures come back as messages.  The tally is the "faults
injected and survived" line of bench/results/reliability-2026-11-30.md.
"""

from __future__ import annotations

import textwrap

import pytest

# Heavy (many programs end to end, or upstream tools): `-m integration`, not the unit run.
pytestmark = pytest.mark.integration

RT = "--shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%mlir_cuda_runtime"
RUN = f"// RUN: gpurunner %s --backend=cpu --entry-point-result=void {RT}"

GOOD = RUN + """ | FileCheck %s
// CHECK: 42
func.func @main() {
  %a = arith.constant 42 : i64
  vector.print %a : i64
  return
}
"""

KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xi32>) kernel {
      BODY
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = memref.alloc() : memref<4xi32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xi32>)
    return
  }
}
"""

# A loop that never ends (its condition is constant true): a host and a kernel body.
SPIN = """\
%t = arith.constant true
%c = arith.constant 0 : i32
%r = scf.while (%a = %c) : (i32) -> i32 {
  scf.condition(%t) %a : i32
} do {
^bb0(%b: i32):
  scf.yield %b : i32
}"""

# name -> (file text, what the report must say)
FAULTS = {
    "null_store": (RUN + """
func.func @main() {
  %p = llvm.mlir.zero : !llvm.ptr
  %v = arith.constant 1 : i32
  llvm.store %v, %p : i32, !llvm.ptr
  return
}
""", "died with SIGSEGV"),
    "divide_by_zero": (RUN + """
func.func @main() {
  %a = arith.constant 7 : i32
  %z = llvm.mlir.constant(0 : i32) : i32
  %q = arith.divsi %a, %z : i32
  vector.print %q : i32
  return
}
""", "died with SIGFPE"),
    "stack_overflow": (RUN + """
func.func @f(%x: i64) -> i64 {
  %one = arith.constant 1 : i64
  %y = arith.addi %x, %one : i64
  %r = func.call @f(%y) : (i64) -> i64
  %s = arith.addi %r, %x : i64
  return %s : i64
}
func.func @main() {
  %z = arith.constant 0 : i64
  %r = func.call @f(%z) : (i64) -> i64
  vector.print %r : i64
  return
}
""", "died with SIGSEGV"),
    "abort": (RUN + """
func.func private @abort()
func.func @main() {
  func.call @abort() : () -> ()
  return
}
""", "died with SIGABRT"),
    "exit": (RUN + """
func.func private @exit(i32)
func.func @main() {
  %c = arith.constant 3 : i32
  func.call @exit(%c) : (i32) -> ()
  return
}
""", "died"),
    "host_infinite_loop": ("// GPURUNNER-TIMEOUT: 2\n" + RUN + "\nfunc.func @main() {\n"
                           + textwrap.indent(SPIN, "  ") + "\n  return\n}\n",
                           "timed out after 2"),
    "kernel_infinite_loop": ("// GPURUNNER-TIMEOUT: 2\n" + RUN
                             + KERNEL.replace("BODY", textwrap.indent(SPIN, " " * 6).lstrip()),
                             "timed out after 2"),
    "failing_assert": (RUN + """
func.func @main() {
  %f = arith.constant false
  cf.assert %f, "planted"
  return
}
""", "'cf.assert' failed: planted"),
    # (A failing cf.assert in a kernel is CUDA's device-side assert: upstream's runner
    # prints the driver's lines and exits 0, so it is no fault; see
    # test/cpu_backend/test_device_assert.py.)
    "out_of_bounds_in_kernel": (RUN + " --bounds-check" + KERNEL.replace("BODY", """\
%t = gpu.thread_id x
      %one = arith.constant 1 : index
      %i = arith.addi %t, %one : index
      %v = arith.constant 5 : i32
      memref.store %v, %m[%i] : memref<4xi32>"""), "'memref.store' index out of bounds: index [4]"),
}


def test_each_fault_fails_only_its_own_test(project):
    for i, (name, (text, _)) in enumerate(FAULTS.items()):
        (project.path / f"t{i:02d}a_{name}.mlir").write_text(text)
        (project.path / f"t{i:02d}b_after_{name}.mlir").write_text(GOOD)
    result = project.runpytest_inprocess("-p", "no:cacheprovider", "-rA")
    out = result.stdout.str()
    result.assert_outcomes(failed=len(FAULTS), passed=len(FAULTS))
    assert "INTERNALERROR" not in out and "Traceback" not in out, out[-4000:]
    for i, (name, (_, expected)) in enumerate(FAULTS.items()):
        section = out.split(f"_ t{i:02d}a_{name} _", 1)[1].split("\n___", 1)[0]
        assert expected in section, (name, section[-2000:])
        assert f"PASSED t{i:02d}b_after_{name}.mlir" in out, name
