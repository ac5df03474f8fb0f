"""Upstream's sm80 `transform-mma-sync-matmul-f16-f16-accum.mlir`, unchanged: real
mlir-opt 22 runs its transform schedule (linalg.matmul -> nvgpu.mma.sync with
per-lane loads), then the runner runs the result and real FileCheck checks the
file's own CHECK lines.  This pins nvgpu.mma.sync's fragment layout end to end.
Skipped where LLVM 22 or the upstream tree is not installed; the backend is
GPURUNNER_TEST_BACKEND (cpu by default)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from .runner import LLVM_BIN, run

pytestmark = pytest.mark.integration
BACKEND = os.environ.get("GPURUNNER_TEST_BACKEND", "cpu")
UPSTREAM = Path(os.environ.get("GPURUNNER_UPSTREAM", "/work/upstream/llvm-project")) / \
    "mlir/test/Integration/GPU/CUDA/TensorCore/sm80/transform-mma-sync-matmul-f16-f16-accum.mlir"
# Where the transformed program is kept for machines without mlir-opt (bench/work is
# git-ignored; bench/gpu_check_gpuperf.sh --prepare fills it).
PREPARED = Path(__file__).resolve().parents[2] / "bench/work/sm80" / (UPSTREAM.stem +
                                                                     ".transformed.mlir")


def _transformed(tmp_path: Path, tools: str = "system") -> Path:
    opt = LLVM_BIN / "mlir-opt"
    if tools == "embedded":
        from runner_core.opt import tool_main

        r = tool_main(["mlir-opt", str(UPSTREAM), "-transform-interpreter",
                       "-test-transform-dialect-erase-schedule"], b"", dict(os.environ),
                      str(tmp_path))
        assert r.returncode == 0, r.stderr.decode(errors="replace")
        out = tmp_path / "transformed.mlir"
        out.write_bytes(r.stdout)
        return out
    if opt.exists() and UPSTREAM.exists():
        out = tmp_path / "transformed.mlir"
        subprocess.run([str(opt), str(UPSTREAM), "-transform-interpreter",
                        "-test-transform-dialect-erase-schedule", "-o", str(out)],
                       check=True, capture_output=True, timeout=120)
        return out
    if PREPARED.exists():
        return PREPARED
    pytest.skip("needs mlir-opt 22 and upstream's sm80 test (or bench/work/sm80 prepared)")


def _filecheck() -> list[str] | None:
    fc = LLVM_BIN / "FileCheck"
    if fc.exists():
        return [str(fc)]
    from shutil import which

    return [which("filecheck")] if which("filecheck") else None


@pytest.mark.parametrize("tools", ["system", "embedded"])
def test_upstream_sm80_mma_sync_f16_accumulate(tmp_path, tools):
    """``system``: real mlir-opt's transform step; ``embedded``: ours
    (transform_nvgpu.py) - the whole file then runs without LLVM installed."""
    if not UPSTREAM.exists():
        pytest.skip(f"upstream's file (its CHECK lines) not found: {UPSTREAM}")
    program = _transformed(tmp_path, tools)
    check_file = UPSTREAM
    res = run(program, backend=BACKEND)
    assert res.returncode == 0, res.stderr.decode(errors="replace")[-3000:]
    fc = _filecheck()
    if fc is None:
        pytest.skip("no FileCheck")
    check = subprocess.run([*fc, str(check_file)], input=res.stdout, capture_output=True,
                           timeout=60)
    assert check.returncode == 0, check.stderr.decode(errors="replace")[-3000:]


TF32 = """
module attributes {transform.with_named_sequence} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %a = memref.alloc() : memref<16x4xf32>
    %b = memref.alloc() : memref<4x8xf32>
    %c = memref.alloc() : memref<16x8xf32>
    %c16 = arith.constant 16 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %s = arith.addi %i, %j : index
        %si = arith.index_cast %s : index to i32
        %f = arith.sitofp %si : i32 to f32
        memref.store %f, %c[%i, %j] : memref<16x8xf32>
        %jl = arith.cmpi ult, %j, %c4 : index
        scf.if %jl {
          %p = arith.muli %i, %c4 : index
          %q = arith.addi %p, %j : index
          %qi = arith.index_cast %q : index to i32
          %g = arith.sitofp %qi : i32 to f32
          %h = arith.constant 0.0625 : f32
          %x = arith.mulf %g, %h : f32
          memref.store %x, %a[%i, %j] : memref<16x4xf32>
        }
        %il = arith.cmpi ult, %i, %c4 : index
        scf.if %il {
          %p = arith.muli %j, %c4 : index
          %q = arith.subi %p, %i : index
          %qi = arith.index_cast %q : index to i32
          %g = arith.sitofp %qi : i32 to f32
          memref.store %g, %b[%i, %j] : memref<4x8xf32>
        }
      }
    }
    gpu.host_register_memref_dummy
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      linalg.matmul ins(%a, %b : memref<16x4xf32>, memref<4x8xf32>)
                    outs(%c : memref<16x8xf32>)
      gpu.terminator
    }
    %u = memref.cast %c : memref<16x8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %arg1
      : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %m : (!transform.any_op) -> ()
    transform.yield
  }
}
"""


def test_tf32_rewrite_matches_real_mlir_opt_and_numpy(tmp_path):
    """16x8x4 f32 (TF32): our rewrite and real mlir-opt's give the same output, and
    the numbers are numpy's (inputs exact in TF32, sums exact in f32)."""
    import re

    import numpy as np

    from runner_core.opt import tool_main

    text = TF32.replace("    gpu.host_register_memref_dummy\n", "".join(
        f"    %u{n} = memref.cast %{n} : {t} to memref<*xf32>\n"
        f"    gpu.host_register %u{n} : memref<*xf32>\n"
        for n, t in (("a", "memref<16x4xf32>"), ("b", "memref<4x8xf32>"),
                     ("c", "memref<16x8xf32>"))))
    src = tmp_path / "tf32.mlir"
    src.write_text(text)
    args = ["-transform-interpreter", "-test-transform-dialect-erase-schedule"]
    r = tool_main(["mlir-opt", str(src), *args], b"", dict(os.environ), str(tmp_path))
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    assert b"tf32Enabled" in r.stdout and b"mmaShape = [16, 8, 4]" in r.stdout
    ours = run(r.stdout.decode(), backend=BACKEND)
    assert ours.returncode == 0, ours.stderr.decode(errors="replace")[-2000:]
    i, j = np.meshgrid(np.arange(16), np.arange(8), indexing="ij")
    a = (np.arange(64).reshape(16, 4) * 0.0625).astype(np.float32)
    b = (np.arange(8)[None, :] * 4 - np.arange(4)[:, None]).astype(np.float32)
    want = (i + j).astype(np.float32) + a @ b
    data = ours.stdout.decode().split("data =", 1)[1]
    got = np.array([float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", data)])
    np.testing.assert_allclose(got.reshape(16, 8), want, rtol=6e-6)
    opt = LLVM_BIN / "mlir-opt"
    if opt.exists():
        real = subprocess.run([str(opt), str(src), *args], capture_output=True, timeout=60)
        assert real.returncode == 0, real.stderr.decode()
        theirs = run(real.stdout.decode(), backend=BACKEND)
        assert theirs.returncode == 0
        assert theirs.stdout.split(b"data =")[1] == ours.stdout.split(b"data =")[1]
