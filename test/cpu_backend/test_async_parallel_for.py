"""The async-parallel-for preparation pass: what it rewrites and what it leaves alone."""

from __future__ import annotations

import pytest

from runner_core.ir.parse import parse_source
from runner_core.passes.pipeline import run_pipeline
from runner_core.passes.registry import PassError

SRC = """
func.func @f(%m: memref<64xi32>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      %v = arith.index_cast %j : index to i32
      memref.store %v, %m[%i] : memref<64xi32>
      scf.reduce
    }
    scf.reduce
  }
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> i32 {
    %v = arith.index_cast %i : index to i32
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  return %r : i32
}
"""


def _names(module) -> list[str]:
    return [op.name for op in module.walk()]


def test_outer_loops_without_reductions_become_tasks():
    mod = parse_source(SRC, "apf.mlir")
    run_pipeline(mod, "builtin.module(async-parallel-for{num-workers=4 min-task-size=1})")
    names = _names(mod)
    assert names.count("async.execute") == 1  # the outer loop only; inner stays inside
    assert names.count("scf.parallel") == 3  # outer (now in a task), inner, reduction loop
    assert {"async.create_group", "async.add_to_group", "async.await_all"} <= set(names)
    execute = next(op for op in mod.walk() if op.name == "async.execute")
    assert any(op.name == "scf.parallel" for op in execute.walk())


@pytest.mark.parametrize("opts", ["num-workers=0", "min-task-size=x", "async-dispatch=maybe"])
def test_bad_options_are_clear_errors(opts):
    mod = parse_source(SRC, "apf.mlir")
    with pytest.raises(PassError) as info:
        run_pipeline(mod, f"builtin.module(async-parallel-for{{{opts}}})")
    assert "async-parallel-for" in str(info.value)
