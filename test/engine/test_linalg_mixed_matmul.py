"""linalg.matmul of f16 inputs into an f32 accumulator: MLIR widens each input first.

MLIR's body is `extf a, extf b, mulf, addf` (f32 products of the exact f16
values, summed in k order from the accumulator), so the result is not the f16
product rounded.  Expected value from a numpy model of that body.
"""

from __future__ import annotations

import os

import numpy as np

from runner_core import cli
from runner_core.opt import tool_main

PROGRAM = """
func.func @main() {
  %a = memref.alloc() : memref<2x4xf16>
  %b = memref.alloc() : memref<4x3xf16>
  %c = memref.alloc() : memref<2x3xf32>
  %x = arith.constant 0.1 : f16
  %y = arith.constant 3.0 : f16
  %z = arith.constant 0.5 : f32
  linalg.fill ins(%x : f16) outs(%a : memref<2x4xf16>)
  linalg.fill ins(%y : f16) outs(%b : memref<4x3xf16>)
  linalg.fill ins(%z : f32) outs(%c : memref<2x3xf32>)
  linalg.matmul ins(%a, %b : memref<2x4xf16>, memref<4x3xf16>) outs(%c : memref<2x3xf32>)
  %i = arith.constant 1 : index
  %v = memref.load %c[%i, %i] : memref<2x3xf32>
  vector.print %v : f32
  return
}
"""


def test_f16_inputs_widened_before_multiplying(tmp_path):
    lowered = tool_main(["mlir-opt", "-", "-convert-linalg-to-loops"], PROGRAM.encode(),
                        dict(os.environ), str(tmp_path))
    assert lowered.returncode == 0, lowered.stderr.decode()
    res = cli.tool_main(["gpurunner", "-e", "main", "-entry-point-result=void",
                         "-shared-libs=%mlir_c_runner_utils"],
                        lowered.stdout, dict(os.environ), str(tmp_path))
    assert res.returncode == 0, res.stderr.decode()
    acc = np.float32(0.5)
    for _ in range(4):
        acc = np.float32(acc + np.float32(np.float16(0.1)) * np.float32(np.float16(3.0)))
    assert res.stdout.decode().strip() == f"{float(acc):g}"  # 1.69971, not 1.69922 (f16)
