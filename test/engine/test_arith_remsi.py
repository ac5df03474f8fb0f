"""arith.remsi never traps: INT_MIN % -1 is 0 (MLIR's fold), other values as C's %."""

from __future__ import annotations

import pytest

from runner_core import cli

PROGRAM = """
func.func @rem(%a: {t}, %b: {t}) -> {t} {{
  %r = arith.remsi %a, %b : {t}
  return %r : {t}
}}
func.func @rem_vec(%a: vector<2x{t}>, %b: vector<2x{t}>) -> vector<2x{t}> {{
  %r = arith.remsi %a, %b : vector<2x{t}>
  return %r : vector<2x{t}>
}}
func.func @main() {{
  %a = arith.constant {a} : {t}
  %b = arith.constant {b} : {t}
  %r = func.call @rem(%a, %b) : ({t}, {t}) -> {t}
  vector.print %r : {t}
  %va = vector.broadcast %a : {t} to vector<2x{t}>
  %vb = vector.from_elements %b, %b : vector<2x{t}>
  %vr = func.call @rem_vec(%va, %vb) : (vector<2x{t}>, vector<2x{t}>) -> vector<2x{t}>
  vector.print %vr : vector<2x{t}>
  return
}}
"""


def _c_rem(a: int, b: int) -> int:
    r = abs(a) % abs(b)
    return -r if a < 0 else r


@pytest.mark.parametrize("t, a, b", [("i8", -128, -1), ("i32", -2**31, -1), ("i64", -2**63, -1),
                                     ("i32", -7, 3), ("i32", 7, -3), ("i16", -32768, 7)])
def test_remsi(tmp_path, t, a, b):
    r = cli.tool_main(["gpurunner", "-e", "main", "--entry-point-result=void",
                       "--shared-libs=mlir_c_runner_utils"],
                      PROGRAM.format(t=t, a=a, b=b).encode(), {}, str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    want = _c_rem(a, b)
    assert r.stdout.decode().split("\n")[:2] == [str(want), f"( {want}, {want} )"]
