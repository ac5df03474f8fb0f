"""Older GPU forms accepted like the 2021 syntax (issue 13), each noted under ``-v``.

* reduction kinds before LLVM 18 (`min`, `max`: signed for integers; `minf`, `maxf`),
* `gpu.host_register` of a ranked memref (accepted by upstream after LLVM 22),
* the pipeline names `-gpu-lower-to-nvvm` and `-test-lower-to-nvvm`.

Expected values come from a Python model of each reduction.
"""

from __future__ import annotations

import os

import pytest

from runner_core.opt import tool_main as opt_main

from .runner import LLVM_BIN, run

PROGRAM = """func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 32 : index
  %m = memref.alloc() : memref<4xf32>
  gpu.host_register %m : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %c3 = arith.constant 3 : i32
    %v = arith.subi %t, %c3 : i32
    %f = arith.sitofp %v : i32 to f32
    %imin = gpu.all_reduce min %v uniform {} : (i32) -> (i32)
    %imax = gpu.all_reduce max %v {} : (i32) -> (i32)
    %fmin = gpu.all_reduce minf %f {} : (f32) -> (f32)
    %fmax = gpu.all_reduce max %f {} : (f32) -> (f32)
    %smin = gpu.subgroup_reduce min %v : (i32) -> (i32)
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      gpu.printf "%d %d %f %f %d\\n", %imin, %imax, %fmin, %fmax, %smin : i32, i32, f32, f32, i32
    }
    %i = arith.remui %tx, %c8 : index
    %c4 = arith.constant 4 : index
    %low = arith.cmpi ult, %tx, %c4 : index
    scf.if %low {
      memref.store %fmax, %m[%tx] : memref<4xf32>
    }
    gpu.terminator
  }
  gpu.host_unregister %m : memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
"""


def _model() -> str:
    vals = [t - 3 for t in range(32)]
    return (f"{min(vals)} {max(vals)} {float(min(vals)):f} {float(max(vals)):f} "
            f"{min(vals)}\n")


def test_old_kinds_and_ranked_host_register_run():
    res = run(PROGRAM, libs="mlir_cuda_runtime,mlir_runner_utils")
    assert res.returncode == 0, res.stderr.decode()
    out = res.stdout.decode()
    assert out.startswith(_model()), out
    assert "[28,  28,  28,  28]" in out, out


def _opt(*args: str, src: str = PROGRAM):
    return opt_main(["mlir-opt", "-", *args], src.encode(), dict(os.environ), os.getcwd())


def test_verbose_notes_each_older_form():
    res = _opt("-v")
    assert res.returncode == 0, res.stderr
    err = res.stderr.decode()
    for old, new in (("min", "minsi"), ("max", "maxsi"), ("minf", "minnumf"),
                     ("max", "maxnumf")):
        assert f"'{old}' to '{new}'" in err, err
    assert err.count("gpu reduction kind (before LLVM 18)") == 5
    assert err.count("of a ranked memref (accepted after LLVM 22)") == 2
    out = " ".join(res.stdout.decode().split())
    assert "gpu.all_reduce minsi" in out and "gpu.subgroup_reduce minsi" in out
    assert "gpu.all_reduce maxnumf" in out and "gpu.all_reduce minnumf" in out


@pytest.mark.parametrize("name", ["gpu-lower-to-nvvm", "test-lower-to-nvvm"])
def test_old_pipeline_names_are_deferred_and_noted(name):
    res = _opt(f"-{name}", "-v", src="func.func @main() {\n  return\n}\n")
    assert res.returncode == 0, res.stderr
    assert f"pipeline '{name}' is an older LLVM's name of 'gpu-lower-to-nvvm-pipeline'" in \
        res.stderr.decode()
    quiet = _opt(f"-{name}", src="func.func @main() {\n  return\n}\n")
    assert quiet.stderr == b""


@pytest.mark.skipif(not (LLVM_BIN / "mlir-opt").exists(), reason="needs LLVM 22's mlir-opt")
def test_upgraded_kinds_are_accepted_by_mlir_opt_22():
    """What the upgrade prints is today's syntax: the real mlir-opt 22 reads it back."""
    import subprocess

    src = "\n".join(line for line in PROGRAM.splitlines() if "host_" not in line)
    up = _opt(src=src)
    assert up.returncode == 0, up.stderr
    real = subprocess.run([str(LLVM_BIN / "mlir-opt"), "-"], input=up.stdout,
                          capture_output=True)
    assert real.returncode == 0, real.stderr.decode()
    assert b"minsi" in real.stdout and b"maxnumf" in real.stdout
