"""Runs the RUN lines of the front end's .mlir tests in process.

A deliberately small stand-in for the plug-in: only `gpurunner-opt` /
`mlir-opt` (our embedded tool), `not`, `2>&1` and `FileCheck` (the
`filecheck` package) are understood, which is all these files use.  It keeps
the front end's own tests runnable with plain pytest, cheaply.
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
from pathlib import Path

import pytest

from pytest_gpurunner.script import run_commands
from runner_core.opt import tool_main

HERE = Path(__file__).parent
FILES = sorted(p for p in HERE.rglob("*.mlir"))


def _filecheck(args: list[str], stdin: bytes) -> tuple[int, str]:
    from filecheck.finput import FInput
    from filecheck.matcher import Matcher
    from filecheck.options import parse_argv_options
    from filecheck.parser import Parser

    opts = parse_argv_options(["filecheck", *args])
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        matcher = Matcher(opts, FInput("<stdin>", stdin.decode()), Parser.from_opts(opts))
        rc = matcher.run()
    return rc, err.getvalue()


def _run_stage(words: list[str], stdin: bytes) -> tuple[int, bytes, bytes]:
    invert = False
    if words and words[0] == "not":
        invert, words = True, words[1:]
    merge = "2>&1" in words
    words = [w for w in words if w != "2>&1"]
    tool = words[0]
    if tool in ("gpurunner-opt", "mlir-opt"):
        r = tool_main(words, stdin, dict(os.environ), str(HERE))
        rc, out, err = r.returncode, r.stdout, r.stderr
    elif tool == "FileCheck":
        rc, msg = _filecheck(words[1:], stdin)
        out, err = b"", msg.encode()
    else:
        raise AssertionError(f"tool {tool!r} is not handled by this driver")
    if merge:
        out, err = out + err, b""
    if invert:
        rc = 0 if rc != 0 else 1
    return rc, out, err


def run_file(path: Path) -> list[str]:
    """Failures (empty when every RUN line passes)."""
    failures = []
    for cmd in run_commands(path):
        cmd = cmd.replace("%s", str(path)).replace("%S", str(path.parent))
        data = b""
        for stage in cmd.split("|"):
            rc, data, err = _run_stage(shlex.split(stage), data)
            if rc != 0:
                failures.append(f"RUN: {cmd}\n  stage `{stage.strip()}` exit {rc}\n"
                                f"{err.decode(errors='replace')}")
                break
    return failures


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(HERE)) for p in FILES])
def test_mlir_file(path: Path):
    assert run_commands(path), f"{path} has no RUN line"
    failures = run_file(path)
    assert not failures, "\n".join(failures)
