"""`convert-vector-to-gpu`: the mma ops it makes agree with LLVM 22's mlir-opt.

The conversion keeps values (checked end to end on the cpu backend by
test/cpu_backend/test_mma.py's model); here, which ops it makes.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from runner_core.opt import tool_main

LLVM_BIN = Path("/usr/lib/llvm-22/bin")

KERNEL = """#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @f(%a: memref<16x16xf16>, %c: memref<16x16xf32>, %v: memref<16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %f0 = arith.constant 0.0 : f16
  %z = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %A = vector.transfer_read %a[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
    %B = vector.transfer_read %a[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
    %C = vector.transfer_read %c[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
    %two = arith.constant dense<2.0> : vector<16x16xf32>
    %D = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %E = arith.mulf %D, %two : vector<16x16xf32>
    vector.transfer_write %E, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
    %w = vector.transfer_read %v[%c0], %f0 {in_bounds = [true]} : memref<16xf16>, vector<16xf16>
    vector.transfer_write %w, %v[%c0] {in_bounds = [true]} : vector<16xf16>, memref<16xf16>
    gpu.terminator
  }
  return
}
"""


def _mma_ops(text: str) -> Counter:
    return Counter(re.findall(r"gpu\.subgroup_mma_\w+(?:\s+(?:addf|mulf|subf|negatef|maxf|"
                              r"minf|divf|extf))?", text))


def _ours() -> str:
    res = tool_main(["mlir-opt", "-", "-convert-vector-to-gpu"], KERNEL.encode(),
                    dict(os.environ), os.getcwd())
    assert res.returncode == 0, res.stderr
    return res.stdout.decode()


def test_matmul_slice_becomes_mma_ops_and_1d_vectors_stay():
    out = _ours()
    got = _mma_ops(out)
    assert got["gpu.subgroup_mma_load_matrix"] == 3
    assert got["gpu.subgroup_mma_compute"] == 1 and got["gpu.subgroup_mma_store_matrix"] == 1
    assert got["gpu.subgroup_mma_constant_matrix"] == 1
    assert "vector.contract" not in out
    assert out.count("vector.transfer_read") == 1  # the 1-D one is left alone


@pytest.mark.skipif(not (LLVM_BIN / "mlir-opt").exists(), reason="needs LLVM 22's mlir-opt")
def test_same_mma_ops_as_mlir_opt_22():
    real = subprocess.run([str(LLVM_BIN / "mlir-opt"), "-", "-convert-vector-to-gpu"],
                          input=KERNEL.encode(), capture_output=True, check=True).stdout.decode()
    assert _mma_ops(_ours()) == _mma_ops(real)
