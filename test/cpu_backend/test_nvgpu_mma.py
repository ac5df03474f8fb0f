"""sm80 nvgpu ops on the cpu backend (and, with GPURUNNER_TEST_BACKEND=cuda, on a GPU):
cp.async copies with zero fill, ldmatrix (plain and transposed) feeding mma.sync
m16n8k16 f16 -> f32.  Expected values from numpy models of the PTX fragment layouts
(written from the PTX ISA's figures, not from the runner)."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

from .runner import run

pytestmark = pytest.mark.integration
BACKEND = os.environ.get("GPURUNNER_TEST_BACKEND", "cpu")

PROGRAM = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%ga: memref<16x16xf16>, %gb: memref<16x8xf16>, %out: memref<32x4xf32>,
                %cp: memref<32x8xf16>)
        workgroup(%sa: memref<16x16xf16, #gpu.address_space<workgroup>>,
                  %sb: memref<16x8xf16, #gpu.address_space<workgroup>>,
                  %sc: memref<32x8xf16, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %t = gpu.thread_id x
      // A: 16 rows of 16 halves, two 16-byte copies per row by threads 0..31.
      %row = arith.remui %t, %c16 : index
      %half = arith.divui %t, %c16 : index
      %col = arith.muli %half, %c8 : index
      %ta = nvgpu.device_async_copy %ga[%row, %col], %sa[%row, %col], 8 {bypassL1} : memref<16x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      %lt16 = arith.cmpi ult, %t, %c16 : index
      %tb = scf.if %lt16 -> (!nvgpu.device.async.token) {
        %x = nvgpu.device_async_copy %gb[%t, %c0], %sb[%t, %c0], 8 : memref<16x8xf16> to memref<16x8xf16, #gpu.address_space<workgroup>>
        scf.yield %x : !nvgpu.device.async.token
      } else {
        scf.yield %ta : !nvgpu.device.async.token
      }
      // Zero fill: thread t copies min(t mod 9, 8) of 8 elements of row t.
      %c9 = arith.constant 9 : index
      %m9 = arith.remui %t, %c9 : index
      %tc = nvgpu.device_async_copy %gb[%row, %c0], %sc[%t, %c0], 8, %m9 : memref<16x8xf16> to memref<32x8xf16, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %ta, %tb, %tc
      nvgpu.device_async_wait %g {numGroups = 0 : i32}
      gpu.barrier
      // ldmatrix x4 of A: lane l addresses row (l mod 16), column 8 * (l / 16).
      %a = nvgpu.ldmatrix %sa[%row, %col] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      // B (k x n, row-major in memory) transposed: lane l (< 16) addresses row l.
      %brow = arith.remui %t, %c16 : index
      %b = nvgpu.ldmatrix %sb[%brow, %c0] {numTiles = 2 : i32, transpose = true} : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %acc0 = arith.constant dense<[[0.5, -1.0], [2.0, 0.25]]> : vector<2x2xf32>
      %d = nvgpu.mma.sync(%a, %b, %acc0) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %r0 = vector.extract %d[0] : vector<2xf32> from vector<2x2xf32>
      %r1 = vector.extract %d[1] : vector<2xf32> from vector<2x2xf32>
      vector.store %r0, %out[%t, %c0] : memref<32x4xf32>, vector<2xf32>
      vector.store %r1, %out[%t, %c2] : memref<32x4xf32>, vector<2xf32>
      %v = vector.load %sc[%t, %c0] : memref<32x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      vector.store %v, %cp[%t, %c0] : memref<32x8xf16>, vector<8xf16>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %ga = gpu.alloc host_shared () : memref<16x16xf16>
    %gb = gpu.alloc host_shared () : memref<16x8xf16>
    %out = gpu.alloc host_shared () : memref<32x4xf32>
    %cp = gpu.alloc host_shared () : memref<32x8xf16>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %ij = arith.muli %i, %c16 : index
        %s = arith.addi %ij, %j : index
        %c7 = arith.constant 7 : index
        %m = arith.muli %s, %c7 : index
        %c23 = arith.constant 23 : index
        %r = arith.remui %m, %c23 : index
        %ri = arith.index_cast %r : index to i32
        %f = arith.sitofp %ri : i32 to f16
        %q = arith.constant 0.125 : f16
        %x = arith.mulf %f, %q : f16
        %off = arith.constant 1.0 : f16
        %y = arith.subf %x, %off : f16
        memref.store %y, %ga[%i, %j] : memref<16x16xf16>
        %jlt = arith.cmpi ult, %j, %c8 : index
        scf.if %jlt {
          %z = arith.mulf %y, %y : f16
          memref.store %z, %gb[%i, %j] : memref<16x8xf16>
        }
      }
    }
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%ga : memref<16x16xf16>, %gb : memref<16x8xf16>, %out : memref<32x4xf32>,
             %cp : memref<32x8xf16>)
    %u = memref.cast %out : memref<32x4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %h = memref.alloc() : memref<32x8xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %v = memref.load %cp[%i, %j] : memref<32x8xf16>
        %w = arith.extf %v : f16 to f32
        memref.store %w, %h[%i, %j] : memref<32x8xf32>
      }
    }
    %hu = memref.cast %h : memref<32x8xf32> to memref<*xf32>
    call @printMemrefF32(%hu) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
"""


def _inputs():
    i, j = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
    a = (((i * 16 + j) * 7 % 23).astype(np.float16) * np.float16(0.125)) - np.float16(1.0)
    b = (a * a)[:, :8]  # f16 products, rounded to f16 as arith.mulf on f16 does
    return a.astype(np.float16), b.astype(np.float16)


def _mma_model(a, b, acc):
    """Lane l of mma.sync m16n8k16 holds D rows g and g+8 (g = l / 4), columns 2 (l % 4)
    and +1; each element: the accumulator plus the f32 products in k order, in f32."""
    out = np.zeros((32, 4), np.float32)
    for lane in range(32):
        g, t = lane // 4, lane % 4
        for r in range(2):
            for p in range(2):
                row, col = g + 8 * r, 2 * t + p
                total = np.float32(acc[r][p])
                for kk in range(16):
                    total = np.float32(total + np.float32(a[row, kk]) * np.float32(b[kk, col]))
                out[lane, 2 * r + p] = total
    return out


def _floats(block: str) -> np.ndarray:
    return np.array([float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", block)])


def test_ldmatrix_mma_sync_and_async_copy_match_the_ptx_layouts():
    res = run(PROGRAM, backend=BACKEND)
    assert res.returncode == 0, res.stderr.decode(errors="replace")[-3000:]
    parts = res.stdout.decode().split("data =")
    d = _floats(parts[1].split("Unranked")[0]).reshape(32, 4)
    copied = _floats(parts[2]).reshape(32, 8)
    a, b = _inputs()
    want = _mma_model(a, b, [[0.5, -1.0], [2.0, 0.25]])
    # printMemrefF32 prints 6 significant digits: compare at that precision.
    np.testing.assert_allclose(d, want, rtol=6e-6, atol=1e-6)
    for t in range(32):
        keep = min(t % 9, 8)
        row = b[t % 16].astype(np.float32)
        np.testing.assert_allclose(copied[t, :keep], row[:keep], rtol=6e-6)
        np.testing.assert_array_equal(copied[t, keep:], 0)


def test_model_layout_is_not_trivial():
    """A wrong fragment layout (e.g. B not transposed) changes the expected numbers."""
    a, b = _inputs()
    right = _mma_model(a, b, [[0, 0], [0, 0]])
    wrong = _mma_model(a, np.ascontiguousarray(b[::-1]), [[0, 0], [0, 0]])
    assert not np.allclose(right, wrong)
