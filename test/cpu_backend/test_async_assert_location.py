"""A failing cf.assert inside an async.execute body is reported where it is.

Upstream sets the body's token and values to the error state and fails only
when the program awaits one outside a body ("Awaited async operand is in
error state", at the await).  The embedded runner keeps those semantics and
names the assertion (file:line:col and message) with a note for the await,
through dependencies, awaited values and groups, on the built-in and the real
async runtime.
"""

from __future__ import annotations

import re

import pytest

from .runner import REAL_ASYNC, run

pytestmark = pytest.mark.integration

RUNTIMES = ["mlir_async_runtime"] + ([str(REAL_ASYNC)] if REAL_ASYNC.exists() else [])

PROGRAM = """\
func.func @direct() {
  %false = arith.constant false
  %t = async.execute {
    cf.assert %false, "direct failure"
    async.yield
  }
  async.await %t : !async.token
  return
}

func.func @chained() {
  %false = arith.constant false
  %ta, %va = async.execute -> !async.value<i32> {
    %v = arith.constant 1 : i32
    cf.assert %false, "producer failure"
    async.yield %v : i32
  }
  %tb = async.execute [%ta] {
    async.yield
  }
  %tc, %vc = async.execute (%va as %x: !async.value<i32>) -> !async.value<i32> {
    async.yield %x : i32
  }
  %td, %vd = async.execute -> !async.value<i32> {
    %y = async.await %vc : !async.value<i32>
    async.yield %y : i32
  }
  async.await %tb : !async.token
  return
}

func.func @through_values() {
  %false = arith.constant false
  %ta, %va = async.execute -> !async.value<i32> {
    %v = arith.constant 1 : i32
    cf.assert %false, "value producer failure"
    async.yield %v : i32
  }
  %tc, %vc = async.execute (%va as %x: !async.value<i32>) -> !async.value<i32> {
    async.yield %x : i32
  }
  %td, %vd = async.execute -> !async.value<i32> {
    %y = async.await %vc : !async.value<i32>
    async.yield %y : i32
  }
  %r = async.await %vd : !async.value<i32>
  return
}

func.func @group() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %g = async.create_group %c4 : !async.group
  scf.for %i = %c0 to %c4 step %c1 {
    %t = async.execute {
      %bad = arith.cmpi eq, %i, %c3 : index
      %ok = arith.xori %bad, %true : i1
      cf.assert %ok, "member 3 fails"
      async.yield
    }
    %n = async.add_to_group %t, %g : !async.token
  }
  async.await_all %g
  return
}

// Two failures: the one behind the awaited token is reported, not the earlier one
// (with one async worker the built-in runtime runs t1 first).
func.func @own_cause() {
  %false = arith.constant false
  %t1 = async.execute {
    cf.assert %false, "earlier, not awaited"
    async.yield
  }
  %t2 = async.execute {
    cf.assert %false, "later, awaited"
    async.yield
  }
  async.await %t2 : !async.token
  return
}

func.func @never_awaited() {
  %false = arith.constant false
  %t = async.execute {
    cf.assert %false, "nobody looks"
    async.yield
  }
  vector.print str "finished\\n"
  return
}
"""


def _assert_at(message: str) -> str:
    """``<stdin>:L:C`` of the cf.assert carrying ``message``."""
    at = PROGRAM.index(f'"{message}"')
    start = PROGRAM.rfind("cf.assert", 0, at)
    line = PROGRAM[:start].count("\n") + 1
    col = start - (PROGRAM.rfind("\n", 0, start) + 1) + 1
    return f"<stdin>:{line}:{col}"


def _await_at(func: str, what: str) -> str:
    body = PROGRAM.index(f"func.func @{func}(")
    at = PROGRAM.index(what, body)
    line = PROGRAM[:at].count("\n") + 1
    col = at - (PROGRAM.rfind("\n", 0, at) + 1) + 1
    return f"<stdin>:{line}:{col}"


CASES = [
    ("direct", "direct failure", "async.await %t :"),
    ("chained", "producer failure", "async.await %tb"),
    ("through_values", "value producer failure", "async.await %vd"),
    ("group", "member 3 fails", "async.await_all %g\n  return"),
    ("own_cause", "later, awaited", "async.await %t2"),
]


@pytest.mark.parametrize("libs", RUNTIMES, ids=["builtin", "real"][:len(RUNTIMES)])
@pytest.mark.parametrize("entry,message,await_text", CASES, ids=[c[0] for c in CASES])
def test_failure_is_reported_at_the_assertion(libs, entry, message, await_text):
    res = run(PROGRAM, "-e", entry, "-O0", libs=f"{libs},mlir_c_runner_utils",
              env={"GPURUNNER_ASYNC_THREADS": "1"})
    err = res.stderr.decode()
    assert res.returncode != 0
    lines = err.splitlines()
    assert lines[0] == f"{_assert_at(message)}: error: 'cf.assert' failed: {message}", err
    assert lines[1] == (f"{_await_at(entry, await_text)}: note: awaited here: "
                        f"Awaited async operand is in error state"), err
    assert "Traceback" not in err
    assert not re.search("earlier, not awaited", err)


@pytest.mark.parametrize("libs", RUNTIMES, ids=["builtin", "real"][:len(RUNTIMES)])
def test_an_error_nobody_awaits_does_not_fail_the_program(libs):
    res = run(PROGRAM, "-e", "never_awaited", "-O0", libs=f"{libs},mlir_c_runner_utils")
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout == b"finished\n"
