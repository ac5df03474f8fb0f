"""2021-syntax programs run, and mean what upstream's modern equivalent means.

The program below uses the 2021 forms the front end upgrades: `constant @f`,
`call_indirect`, generic-form `"std.*"` ops, the `offset: ?, strides: [..]`
memref layout, `print_memref_f32`.  Our runner executes it directly; the
modern text our `gpurunner-opt` prints for it is run by Debian's
`mlir-opt | mlir-runner` (when installed), and both must print the same.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

LLVM = Path("/usr/lib/llvm-22")
LOWER = ["-convert-vector-to-scf", "-convert-scf-to-cf", "-expand-strided-metadata",
         "-convert-math-to-libm", "-convert-vector-to-llvm", "-convert-to-llvm",
         "-reconcile-unrealized-casts"]

PROGRAM = """\
func @scale(%m: memref<?xf32, offset: ?, strides: [1]>, %k: f32) {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %n = dim %m, %c0 : memref<?xf32, offset: ?, strides: [1]>
  scf.for %i = %c0 to %n step %c1 {
    %v = load %m[%i] : memref<?xf32, offset: ?, strides: [1]>
    %w = "std.mulf"(%v, %k) : (f32, f32) -> f32
    store %w, %m[%i] : memref<?xf32, offset: ?, strides: [1]>
  }
  return
}

func @sum(%a: i32, %b: i32) -> i32 {
  %r = "std.addi"(%a, %b) : (i32, i32) -> i32
  return %r : i32
}

func @main() {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c2 = constant 2 : index
  %c6 = constant 6 : index
  %buf = alloc() : memref<6xf32>
  %one = constant 1.5 : f32
  scf.for %i = %c0 to %c6 step %c1 {
    store %one, %buf[%i] : memref<6xf32>
  }
  %mid = subview %buf[%c2] [%c2] [1] : memref<6xf32> to memref<?xf32, offset: ?, strides: [1]>
  %f = constant @scale : (memref<?xf32, offset: ?, strides: [1]>, f32) -> ()
  %three = "std.constant"() {value = 3.0 : f32} : () -> f32
  call_indirect %f(%mid, %three) : (memref<?xf32, offset: ?, strides: [1]>, f32) -> ()
  %u = memref_cast %buf : memref<6xf32> to memref<*xf32>
  call @print_memref_f32(%u) : (memref<*xf32>) -> ()
  %g = constant @sum : (i32, i32) -> i32
  %x = constant 40 : i32
  %y = constant 2 : i32
  %s = call_indirect %g(%x, %y) : (i32, i32) -> i32
  vector.print %s : i32
  dealloc %buf : memref<6xf32>
  return
}

func private @print_memref_f32(memref<*xf32>)
"""

EXPECTED = """\
Unranked Memref base@ = 0x(masked) rank = 1 offset = 0 sizes = [6] strides = [1] data = \n\
[1.5,  1.5,  4.5,  4.5,  1.5,  1.5]
42
"""

BASE = re.compile(r"base@ = 0x[0-9a-f]+")


def _mask(text: str) -> str:
    return BASE.sub("base@ = 0x(masked)", text)


def _ours(tmp_path: Path) -> str:
    from runner_core import cli

    r = cli.tool_main(["gpurunner", "-e", "main", "--entry-point-result=void",
                       "--shared-libs=mlir_runner_utils,mlir_c_runner_utils"],
                      PROGRAM.encode(), {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout.decode()


def test_2021_program_runs(tmp_path: Path):
    assert _mask(_ours(tmp_path)) == EXPECTED


@pytest.mark.skipif(not (LLVM / "bin/mlir-runner").exists(), reason="LLVM 22 tools not installed")
def test_upgraded_text_means_the_same_upstream(tmp_path: Path):
    from runner_core import opt

    modern = opt.tool_main(["gpurunner-opt"], PROGRAM.encode(), {}, str(tmp_path))
    assert modern.returncode == 0, modern.stderr.decode()
    # Upstream dropped the 2021 runtime names: call today's.
    text = modern.stdout.replace(b"print_memref_f32", b"printMemrefF32")
    low = subprocess.run([str(LLVM / "bin/mlir-opt"), *LOWER], input=text,
                         capture_output=True, timeout=120)
    assert low.returncode == 0, low.stderr.decode()
    libs = ",".join(str(LLVM / "lib" / n) for n in ("libmlir_runner_utils.so",
                                                     "libmlir_c_runner_utils.so"))
    up = subprocess.run([str(LLVM / "bin/mlir-runner"), "-e", "main",
                         "--entry-point-result=void", f"--shared-libs={libs}"],
                        input=low.stdout, capture_output=True, timeout=120)
    assert up.returncode == 0, up.stderr.decode()
    assert _mask(up.stdout.decode()) == _mask(_ours(tmp_path))
