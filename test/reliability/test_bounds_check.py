"""``--bounds-check``: the first out-of-bounds memref access stops the program and says where.

Each bad program is also run *without* checking where that is safe, to show
the check is what catches it (the unchecked run "succeeds" or reads junk).
"""

from __future__ import annotations

import os
import re

import pytest

from runner_core.cli import tool_main

RT = "--shared-libs=mlir_runner_utils,mlir_c_runner_utils"
GPU_RT = "--shared-libs=mlir_runner_utils,mlir_c_runner_utils,mlir_cuda_runtime"


def run(tmp_path, src: str, *args: str, env: dict | None = None, name: str = "prog.mlir"):
    (tmp_path / name).write_text(src)
    e = {k: v for k, v in os.environ.items() if k != "GPURUNNER_BOUNDS_CHECK"}
    e.update(env or {})
    return tool_main(["gpurunner", "--entry-point-result=void", *args, name], b"", e,
                     str(tmp_path))


def _no_address(out: bytes) -> bytes:
    return re.sub(rb"base@ = 0x[0-9a-f]+", b"base@ = ADDR", out)


def err(res) -> str:
    return res.stderr.decode()


def assert_violation(res, pattern: str) -> str:
    text = err(res)
    assert res.returncode == 1, text
    assert "Traceback" not in text and "internal error" not in text, text
    first = text.splitlines()[0]
    assert re.fullmatch(pattern, first), first
    return first


HOST_STORE = """\
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %m = memref.alloc() : memref<4xi32>
  %v = arith.constant 7 : i32
  scf.for %i = %c0 to %c5 step %c1 {
    vector.print %i : index
    memref.store %v, %m[%i] : memref<4xi32>
  }
  memref.dealloc %m : memref<4xi32>
  return
}
"""


def test_host_store_out_of_bounds(tmp_path):
    unchecked = run(tmp_path, HOST_STORE, RT)
    assert unchecked.returncode == 0  # the bug goes unnoticed without checking
    res = run(tmp_path, HOST_STORE, RT, "--bounds-check")
    assert_violation(res, r"prog\.mlir:9:5: error: 'memref\.store' index out of bounds: "
                          r"index \[4\], shape \[4\] \(memref<4xi32>\)")
    # Output before the violation is kept; the loop stopped at the bad iteration.
    assert res.stdout == b"0\n1\n2\n3\n4\n"


HOST_LOAD_2D = """\
func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloc() : memref<3x4xf32>
  %x = memref.load %m[%c2, %c0] : memref<3x4xf32>
  %y = memref.load %m[%c3, %c2] : memref<3x4xf32>
  vector.print %y : f32
  return
}
"""


def test_host_load_out_of_bounds_2d(tmp_path):
    res = run(tmp_path, HOST_LOAD_2D, RT, "--bounds-check")
    assert_violation(res, r"prog\.mlir:7:8: error: 'memref\.load' index out of bounds: "
                          r"index \[3, 2\], shape \[3, 4\] \(memref<3x4xf32>\)")
    assert res.stdout == b""


def test_environment_variable_turns_checking_on(tmp_path):
    res = run(tmp_path, HOST_LOAD_2D, RT, env={"GPURUNNER_BOUNDS_CHECK": "1"})
    assert_violation(res, r".*'memref\.load' index out of bounds: index \[3, 2\].*")
    off = run(tmp_path, HOST_LOAD_2D, RT, env={"GPURUNNER_BOUNDS_CHECK": "0"})
    assert off.returncode == 0


DYNAMIC = """\
func.func @fill(%m: memref<?x?xi64>, %rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 3 : i64
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      memref.store %v, %m[%i, %j] : memref<?x?xi64>
    }
  }
  return
}
func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %m = memref.alloc(%c3, %c4) : memref<?x?xi64>
  call @fill(%m, %c3, %c4) : (memref<?x?xi64>, index, index) -> ()
  vector.print %c2 : index
  call @fill(%m, %c2, %c3) : (memref<?x?xi64>, index, index) -> ()
  %bad = memref.alloc(%c2, %c3) : memref<?x?xi64>
  call @fill(%bad, %c3, %c3) : (memref<?x?xi64>, index, index) -> ()
  return
}
"""


def test_dynamic_shape_checked_against_runtime_sizes(tmp_path):
    res = run(tmp_path, DYNAMIC, RT, "--bounds-check")
    assert_violation(res, r"prog\.mlir:7:7: error: 'memref\.store' index out of bounds: "
                          r"index \[2, 0\], shape \[2, 3\] \(memref<\?x\?xi64>\)")
    assert res.stdout == b"2\n"  # the two in-bounds calls ran


VECTORS = """\
func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %m = memref.alloc() : memref<8xf32>
  %z = arith.constant dense<1.0> : vector<4xf32>
  vector.store %z, %m[%c4] : memref<8xf32>, vector<4xf32>
  %two = vector.create_mask %c2 : vector<4xi1>
  vector.maskedstore %m[%c6], %two, %z : memref<8xf32>, vector<4xi1>, vector<4xf32>
  %l = vector.load %m[%c4] : memref<8xf32>, vector<4xf32>
  vector.print %l : vector<4xf32>
  %three = vector.create_mask %c3 : vector<4xi1>
  vector.maskedstore %m[%c6], %three, %z : memref<8xf32>, vector<4xi1>, vector<4xf32>
  return
}
"""


def test_vector_accesses_check_every_lane_and_respect_masks(tmp_path):
    res = run(tmp_path, VECTORS, RT, "--bounds-check")
    assert_violation(res, r"prog\.mlir:14:3: error: 'vector\.maskedstore' index out of bounds: "
                          r"lane 2 of vector<4xf32> at index \[8\], shape \[8\] "
                          r"\(memref<8xf32>\)")
    assert res.stdout == b"( 1, 1, 1, 1 )\n"
    whole = VECTORS.replace("vector.load %m[%c4]", "vector.load %m[%c6]")
    res = run(tmp_path, whole, RT, "--bounds-check")
    assert_violation(res, r"prog\.mlir:11:8: error: 'vector\.load' index out of bounds: "
                          r"index \[6\] \+ vector<4xf32> reaches \[9\], shape \[8\] .*")


SUBVIEW = """\
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = arith.constant 5 : index
  %m = memref.alloc(%n) : memref<?x4xf32>
  %s = memref.subview %m[1, 1] [2, 2] [1, 1] : memref<?x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  %ok = memref.load %s[%c1, %c1] : memref<2x2xf32, strided<[4, 1], offset: 5>>
  %bad = memref.load %s[%c0, %c2] : memref<2x2xf32, strided<[4, 1], offset: 5>>
  return
}
"""


def test_access_through_subview_uses_the_view_shape(tmp_path):
    # [0, 2] of the 2x2 view is still inside the 5x4 allocation: only the view check sees it.
    assert run(tmp_path, SUBVIEW, RT).returncode == 0
    res = run(tmp_path, SUBVIEW, RT, "--bounds-check")
    assert_violation(res, r"prog\.mlir:10:10: error: 'memref\.load' index out of bounds: "
                          r"index \[0, 2\], shape \[2, 2\] \(memref<2x2xf32, .*>\)")


def test_subview_outside_its_source(tmp_path):
    src = SUBVIEW.replace("%m[1, 1] [2, 2] [1, 1]", "%m[%c3, 2] [%c3, 2] [1, 1]").replace(
        "memref<2x2xf32, strided<[4, 1], offset: 5>>",
        "memref<?x2xf32, strided<[4, 1], offset: ?>>").replace(
        "%bad = memref.load %s[%c0, %c2]", "%bad = memref.load %s[%c0, %c1]")
    res = run(tmp_path, src, RT, "--bounds-check")
    assert_violation(res, r"prog\.mlir:8:8: error: 'memref\.subview' out of bounds: offsets "
                          r"\[3, 2\], sizes \[3, 2\], strides \[1, 1\] reach index \[5, 3\], "
                          r"source shape \[5, 4\] .*")


def test_copy_between_different_dynamic_shapes(tmp_path):
    src = """\
func.func @main() {
  %a = arith.constant 3 : index
  %b = arith.constant 4 : index
  %m = memref.alloc(%a) : memref<?xf32>
  %n = memref.alloc(%b) : memref<?xf32>
  memref.copy %m, %n : memref<?xf32> to memref<?xf32>
  return
}
"""
    res = run(tmp_path, src, RT, "--bounds-check")
    assert_violation(res, r"prog\.mlir:6:3: error: 'memref\.copy' shape mismatch: source shape "
                          r"\[3\] \(memref<\?xf32>\), target shape \[4\] \(memref<\?xf32>\)")


def test_negative_index_of_atomic_rmw(tmp_path):
    src = """\
func.func @main() {
  %neg = arith.constant -1 : index
  %m = memref.alloc() : memref<4xi32>
  %v = arith.constant 1 : i32
  %o = memref.atomic_rmw addi %v, %m[%neg] : (i32, memref<4xi32>) -> i32
  return
}
"""
    res = run(tmp_path, src, RT, "--bounds-check")
    assert_violation(res, r"prog\.mlir:5:8: error: 'memref\.atomic_rmw' index out of bounds: "
                          r"index \[-1\], shape \[4\] \(memref<4xi32>\)")


KERNEL = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%m: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %base = arith.muli %b, %n : index
      %i = arith.addi %base, %t : index
      %c = arith.index_cast %i : index to i32
      memref.store %c, %m[%i] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %len = arith.constant LEN : index
    %m = memref.alloc(%len) : memref<?xi32>
    %u = memref.cast %m : memref<?xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    gpu.launch_func @kernels::@fill blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<?xi32>)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
"""


def test_kernel_on_cpu_backend_out_of_bounds(tmp_path):
    res = run(tmp_path, KERNEL.replace("LEN", "7"), GPU_RT, "--backend=cpu", "--bounds-check")
    assert_violation(res, r"prog\.mlir:10:7: error: 'memref\.store' index out of bounds: "
                          r"index \[7\], shape \[7\] \(memref<\?xi32>\) in GPU kernel @fill, "
                          r"block \(1, 0, 0\), thread \(3, 0, 0\)")
    assert res.stdout == b""  # the program stopped at the launch


def test_correct_kernel_passes_unchanged_with_checking(tmp_path):
    src = KERNEL.replace("LEN", "8")
    plain = run(tmp_path, src, GPU_RT, "--backend=cpu")
    checked = run(tmp_path, src, GPU_RT, "--backend=cpu", "--bounds-check")
    assert checked.returncode == 0, err(checked)
    assert plain.returncode == 0, err(plain)
    assert _no_address(checked.stdout) == _no_address(plain.stdout)
    assert b"[0,  1,  2,  3,  4,  5,  6,  7]" in checked.stdout


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_correct_program_passes_unchanged_with_checking(tmp_path, opt):
    src = DYNAMIC.split("  %bad = ")[0] + "  return\n}\n"
    src = src.replace("vector.print %c2 : index",
                      "vector.print %c2 : index\n"
                      "  %x = memref.load %m[%c2, %c3] : memref<?x?xi64>\n"
                      "  vector.print %x : i64")
    plain = run(tmp_path, src, RT, opt)
    checked = run(tmp_path, src, RT, opt, "--bounds-check")
    assert plain.returncode == 0 and checked.returncode == 0, err(checked)
    assert checked.stdout == plain.stdout == b"2\n3\n"


def test_next_run_is_not_blamed_for_an_earlier_violation(tmp_path):
    bad = run(tmp_path, HOST_LOAD_2D, RT, "--bounds-check")
    assert bad.returncode == 1
    # A failing cf.assert in the next run must keep its own message.
    src = ('func.func @main() {\n  %f = arith.constant false\n  cf.assert %f, "own"\n'
           "  return\n}\n")
    res = run(tmp_path, src, RT, "--bounds-check")
    assert "prog.mlir:3:3: error: 'cf.assert' failed: own" in err(res)


def test_generated_ir_has_no_checks_when_off(tmp_path):
    off = run(tmp_path, HOST_LOAD_2D, RT, "--print-llvm-ir")
    on = run(tmp_path, HOST_LOAD_2D, RT, "--print-llvm-ir", "--bounds-check")
    assert "index out of bounds" not in err(off)
    assert "index out of bounds" in err(on)
