"""The embedded mlir-opt refuses a memref.subview whose result layout is not the one
mlir-opt 22 infers, with its message; it accepts the ones mlir-opt accepts."""

from __future__ import annotations

import os
import subprocess

import pytest

from runner_core import opt

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"

_F = """func.func @f(%A: memref<?x?xf32>, %i: index, %n: index) {{
  %r = memref.subview {sv} : {src} to {dst}
  return
}}
"""
CASES = [  # (subview operands, source type, result type, mlir-opt 22's verdict)
    ("%A[%i, 0][1, %n][1, 1]", "memref<?x?xf32>", "memref<?xf32, strided<[1]>>",
     "expected result type to be 'memref<1x?xf32, strided<[?, 1], offset: ?>>' or a "
     "rank-reduced version. (mismatch of result layout), but got "
     "'memref<?xf32, strided<[1]>>'"),
    ("%A[%i, 0][1, %n][1, 1]", "memref<?x?xf32>", "memref<?xf32, strided<[1], offset: ?>>",
     None),
    ("%A[0, %i][%n, 1][1, 1]", "memref<?x?xf32>", "memref<?xf32, strided<[?], offset: ?>>",
     None),
    ("%A[1, 2][2, 2][1, 1]", "memref<4x4xf32>", "memref<2x2xf32, strided<[4, 1], offset: 6>>",
     None),
    ("%A[1, 2][2, 2][1, 1]", "memref<4x4xf32>", "memref<2x2xf32, strided<[4, 1], offset: 5>>",
     "expected result type to be 'memref<2x2xf32, strided<[4, 1], offset: 6>>' or a "
     "rank-reduced version. (mismatch of result layout), but got "
     "'memref<2x2xf32, strided<[4, 1], offset: 5>>'"),
    ("%A[1, 0][1, 2][1, 2]", "memref<4x4xf32>", "memref<2xf32, strided<[2], offset: 4>>",
     None),
    # The expected type keeps the source's memory space.
    ("%A[%i, 0][1, 4][1, 1]", "memref<2x4xf32, 3>", "memref<4xf32, strided<[1]>, 3>",
     "expected result type to be 'memref<1x4xf32, strided<[4, 1], offset: ?>, 3>' or a "
     "rank-reduced version. (mismatch of result layout), but got "
     "'memref<4xf32, strided<[1]>, 3>'"),
]


def _source(case) -> str:
    sv, src, dst, _ = case
    text = _F.format(sv=sv, src=src, dst=dst)
    return text.replace("memref<?x?xf32>, %i", f"{src}, %i")


@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in range(len(CASES))])
def test_embedded_mlir_opt_checks_the_layout(case):
    r = opt.tool_main(["mlir-opt", "-"], _source(case).encode(), {}, ".")
    expect = case[3]
    if expect is None:
        assert r.returncode == 0, r.stderr.decode()
    else:
        assert r.returncode == 1 and f"<stdin>:2:8: error: {expect}" in r.stderr.decode()


@pytest.mark.skipif(not os.path.exists(MLIR_OPT), reason="LLVM 22's mlir-opt not installed")
@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in range(len(CASES))])
def test_cases_are_mlir_opt_22s(case):
    p = subprocess.run([MLIR_OPT, "-"], input=_source(case).encode(), capture_output=True,
                       timeout=60)
    if case[3] is None:
        assert p.returncode == 0, p.stderr.decode()
    else:
        assert p.returncode == 1 and case[3] in p.stderr.decode()
