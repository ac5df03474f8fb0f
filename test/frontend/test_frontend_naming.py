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


def test_values_are_numbered_per_region_like_mlir_opt_whatever_the_source_names():
    text = """
    func.func @f(%p: i1) -> i32 {
      %x = "scf.if"(%p) ({
        %one = "arith.constant"() {value = 1 : i32} : () -> i32
        %y = "arith.addi"(%one, %one) : (i32, i32) -> i32
        "scf.yield"(%y) : (i32) -> ()
      }, {
        %two = "arith.constant"() {value = 2 : i32} : () -> i32
        %z = "arith.addi"(%two, %two) : (i32, i32) -> i32
        "scf.yield"(%z) : (i32) -> ()
      }) : (i1) -> i32
      %w = "arith.addi"(%x, %x) : (i32, i32) -> i32
      return %w : i32
    }
    """
    module = parse_source(text, "n.mlir")
    names, blocks = assign_names(module)
    func = module.body.block.first_op
    if_op, add = list(func.body.block.ops)[:2]
    then_c, then_add = list(if_op.regions[0].block.ops)[:2]
    else_c, else_add = list(if_op.regions[1].block.ops)[:2]
    # The function body first (%0, %1), then each branch from %2 (siblings reuse it);
    # constants are named by arith.constant's hook.
    assert (names[if_op.results[0]], names[add.results[0]]) == ("0", "1")
    assert names[then_add.results[0]] == names[else_add.results[0]] == "2"
    assert (names[then_c.results[0]], names[else_c.results[0]]) == ("c1_i32", "c2_i32")
    assert names[func.body.block.args[0]] == "arg0"
    assert blocks[func.body.block] == "bb0"
    # The generic form uses no hooks and numbers uniquely, the last region first.
    names, _ = assign_names(module, generic=True)
    assert [names[v] for v in (if_op.results[0], add.results[0], else_c.results[0],
                               else_add.results[0], then_c.results[0],
                               then_add.results[0])] == ["0", "1", "2", "3", "4", "5"]
