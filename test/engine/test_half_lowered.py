"""A program LLVM 22's -convert-async-to-llvm left half lowered is refused at the first
cast between an LLVM and an async type, never run (runner_core/ir/half_lowered.py)."""

from __future__ import annotations

import os

import pytest

from runner_core import cli

HALF = """\
func.func @main() {
  %p = llvm.mlir.zero : !llvm.ptr
  %t = builtin.unrealized_conversion_cast %p : !llvm.ptr to !async.token
  return
}
"""

BACK = HALF.replace("%t = builtin.unrealized_conversion_cast %p : !llvm.ptr to !async.token",
                    "%t = async.execute {\n    async.yield\n  }\n"
                    "  %q = builtin.unrealized_conversion_cast %t : !async.token to !llvm.ptr")


def _run(text: str, name: str = "gpurunner"):
    return cli.tool_main([name, "-e", "main", "--entry-point-result=void"], text.encode(),
                         dict(os.environ), os.getcwd())


@pytest.mark.parametrize(("text", "line", "types"), [
    (HALF, 3, "'!llvm.ptr' to '!async.token'"),
    (BACK, 6, "'!async.token' to '!llvm.ptr'"),
])
def test_the_permissive_runner_refuses_it_at_the_cast(text, line, types):
    r = _run(text)
    err = r.stderr.decode()
    assert r.returncode == 1, err
    assert err.startswith(f"<stdin>:{line}:")
    assert "half lowered by -convert-async-to-llvm" in err and types in err
    assert "gpurunner_tools=embedded" in err
    assert r.stdout == b""


def test_a_cast_between_other_types_is_not_this_refusal():
    text = HALF.replace("!async.token", "i64")
    err = _run(text).stderr.decode()
    assert "half lowered" not in err
