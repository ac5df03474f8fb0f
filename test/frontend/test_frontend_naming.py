"""Value names as mlir-opt prints them: printing mlir-opt's output gives its names back.

For every program of `test/engine/programs/` and `test/frontend/*.mlir`
(that mlir-opt 22 accepts), mlir-opt's output is parsed and printed by us;
the sequence of SSA names (`%0:2`, `%0#1`, `%arg3`, `%cst_0`, ...) must be
exactly mlir-opt's.  Other cosmetic differences (float spelling, trailing
spaces) are not this test's business.  Skipped without mlir-opt.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from runner_core.ir.naming import assign_names
from runner_core.ir.parse import parse_source
from runner_core.ir.printing import print_op

MLIR_OPT = os.environ.get("GPURUNNER_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")
ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*(ROOT / "test/engine/programs").glob("*.mlir"),
                *(ROOT / "test/frontend").glob("*.mlir")])
SSA = re.compile(r"%[\w$.-]+(?::\d+|#\d+)?")


def _names(text: str) -> list[str]:
    # String literals may contain '%' (printf formats): drop them first.
    return SSA.findall(re.sub(r'"(?:[^"\\]|\\.)*"', '""', text))


@pytest.mark.skipif(not os.path.exists(MLIR_OPT), reason="mlir-opt 22 not installed")
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_names_match_mlir_opt(path: Path):
    if "split-input-file" in path.read_text():
        pytest.skip("split-input-file tests are covered chunk by chunk elsewhere")
    up = subprocess.run([MLIR_OPT, str(path)], capture_output=True, text=True, timeout=60)
    if up.returncode != 0:
        pytest.skip("mlir-opt rejects this program (2021 syntax or an expected error)")
    ours = print_op(parse_source(up.stdout, f"{path.name} (mlir-opt)"))
    assert _names(ours) == _names(up.stdout)


def test_unnamed_values_are_numbered_per_region_like_mlir_opt():
    text = """
    func.func @f(%p: i1) -> i32 {
      %0 = "scf.if"(%p) ({
        %1 = "arith.constant"() {value = 1 : i32} : () -> i32
        "scf.yield"(%1) : (i32) -> ()
      }, {
        %2 = "arith.constant"() {value = 2 : i32} : () -> i32
        "scf.yield"(%2) : (i32) -> ()
      }) : (i1) -> i32
      %3 = "arith.addi"(%0, %0) : (i32, i32) -> i32
      return %3 : i32
    }
    """
    module = parse_source(text, "n.mlir")
    for op in module.walk():  # forget the source's names: number everything
        for r in op.results:
            r.name_hint = None
    names = assign_names(module)
    func = module.body.block.first_op
    if_op, add = list(func.body.block.ops)[:2]
    then_c = if_op.regions[0].block.first_op
    else_c = if_op.regions[1].block.first_op
    # The function body first (%0, %1), then each branch from %2 (siblings reuse it).
    assert (names[if_op.results[0]], names[add.results[0]]) == ("0", "1")
    assert names[then_c.results[0]] == names[else_c.results[0]] == "2"
    assert names[func.body.block.args[0]] == "p"
