"""gpu.all_reduce in a kernel takes one workgroup round (partials in two halves used
alternately): its results must be exactly upstream's, for every thread, in loops
(the halves alternate), in 3-d blocks whose size is not a multiple of 32, for
narrow and wide types, and with a combiner that is neither associative nor
commutative (which pins down the combination tree and operand order).

Expected values come from a Python model of upstream's rewrite (butterfly per
subgroup, lane 0 keeps the partial of lanes that exist, then the same over the
subgroup partials), not from the runner.  ``GPURUNNER_TEST_BACKEND=cuda`` runs
the same checks on a GPU (bench/gpu_check_gpuperf.sh).
"""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

from .runner import run

pytestmark = pytest.mark.integration

BACKEND = os.environ.get("GPURUNNER_TEST_BACKEND", "cpu")
ITERS = 3


def _butterfly(vals: list, combine) -> object:
    """Lane 0's value after upstream's subgroup reduce over ``len(vals)`` lanes."""
    w = len(vals)
    v = list(vals)
    i = 1
    while i < 32:
        v = [combine(v[lane], v[lane ^ i]) if (lane ^ i) <= w - 1 else v[lane]
             for lane in range(w)]
        i <<= 1
    return v[0]


def model(vals: list, combine) -> object:
    warps = [_butterfly(vals[s:s + 32], combine) for s in range(0, len(vals), 32)]
    return _butterfly(warps, combine)


def _wrap32(x: int) -> int:
    return (x + 2**31) % 2**32 - 2**31


def _wrap8(x: int) -> int:
    return (x + 128) % 256 - 128


KERNEL = """
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %sx = arith.constant {sx} : index
  %sy = arith.constant {sy} : index
  %sz = arith.constant {sz} : index
  %niter = arith.constant {iters} : index
  %n = arith.constant {n} : index
  %out = gpu.alloc host_shared (%niter, %n) : memref<?x?x4xi64>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%bdx = %sx, %bdy = %sy, %bdz = %sz) {{
    %l0 = arith.muli %tz, %bdy : index
    %l1 = arith.addi %l0, %ty : index
    %l2 = arith.muli %l1, %bdx : index
    %lin = arith.addi %l2, %tx : index
    %li = arith.index_cast %lin : index to i32
    scf.for %it = %c0 to %niter step %c1 {{
      %ii = arith.index_cast %it : index to i32
      %c37 = arith.constant 37 : i32
      %c11 = arith.constant 11 : i32
      %c29 = arith.constant 29 : i32
      %c9 = arith.constant 9 : i32
      %a = arith.muli %li, %c37 : i32
      %b = arith.muli %ii, %c11 : i32
      %ab = arith.addi %a, %b : i32
      %m = arith.remui %ab, %c29 : i32
      %v = arith.subi %m, %c9 : i32
      %r = gpu.all_reduce %v uniform {{
      ^bb0(%lhs: i32, %rhs: i32):
        %k3 = arith.constant 3 : i32
        %t3 = arith.muli %lhs, %k3 : i32
        %s = arith.addi %t3, %rhs : i32
        gpu.yield %s : i32
      }} : (i32) -> (i32)
      %v8 = arith.trunci %v : i32 to i8
      %r8 = gpu.all_reduce add %v8 uniform {{}} : (i8) -> (i8)
      %mx = gpu.all_reduce maxsi %v uniform {{}} : (i32) -> (i32)
      %vf = arith.sitofp %v : i32 to f64
      %q = arith.constant 0.1 : f64
      %f = arith.mulf %vf, %q : f64
      %rf = gpu.all_reduce add %f uniform {{}} : (f64) -> (f64)
      %w0 = arith.extsi %r : i32 to i64
      %w1 = arith.extsi %r8 : i8 to i64
      %w2 = arith.extsi %mx : i32 to i64
      %w3 = arith.bitcast %rf : f64 to i64
      memref.store %w0, %out[%it, %lin, %c0] : memref<?x?x4xi64>
      memref.store %w1, %out[%it, %lin, %c1] : memref<?x?x4xi64>
      memref.store %w2, %out[%it, %lin, %c2] : memref<?x?x4xi64>
      memref.store %w3, %out[%it, %lin, %c3] : memref<?x?x4xi64>
    }}
    gpu.terminator
  }}
  %u = memref.cast %out : memref<?x?x4xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}}
func.func private @printMemrefI64(memref<*xi64>)
"""

SHAPES = [(40, 1, 1), (5, 7, 3), (32, 2, 1), (1, 1, 1), (33, 1, 1), (16, 4, 16), (31, 1, 1),
          (97, 1, 1), (100, 1, 1)]


def _expected(n: int) -> np.ndarray:
    want = np.zeros((ITERS, n, 4), np.int64)
    for it in range(ITERS):
        vals = [(37 * lin + 11 * it) % 29 - 9 for lin in range(n)]
        region = model(vals, lambda a, b: _wrap32(3 * a + b))
        add8 = model([_wrap8(x) for x in vals], lambda a, b: _wrap8(a + b))
        mx = model(vals, max)
        fsum = model([float(x) * 0.1 for x in vals], lambda a, b: a + b)
        bits = int(np.array([fsum], np.float64).view(np.int64)[0])
        want[it, :] = (region, add8, mx, bits)
    return want


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_all_reduce_results_match_upstreams_tree(shape):
    sx, sy, sz = shape
    n = sx * sy * sz
    res = run(KERNEL.format(sx=sx, sy=sy, sz=sz, n=n, iters=ITERS), backend=BACKEND)
    assert res.returncode == 0, res.stderr.decode(errors="replace")[-2000:]
    text = res.stdout.decode()
    data = text.split("data =", 1)[1]
    got = np.array([int(x) for x in re.findall(r"-?\d+", data)], np.int64)
    assert got.size == ITERS * n * 4, text[:400]
    got = got.reshape(ITERS, n, 4)
    want = _expected(n)
    bad = np.argwhere(got != want)
    assert bad.size == 0, (f"{len(bad)} wrong, first at [iter, thread, kind] = "
                           f"{bad[0].tolist()}: got {got[tuple(bad[0])]}, want "
                           f"{want[tuple(bad[0])]}")


def test_model_is_not_a_plain_fold():
    """The region combiner really depends on the tree (else the test pins nothing)."""
    vals = [(37 * lin) % 29 - 9 for lin in range(40)]
    tree = model(vals, lambda a, b: _wrap32(3 * a + b))
    seq = vals[0]
    for x in vals[1:]:
        seq = _wrap32(3 * seq + x)
    assert tree != seq
