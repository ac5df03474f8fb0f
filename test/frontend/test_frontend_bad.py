"""Every malformed input in bad/ gives a short mlir-opt style diagnostic, never a traceback."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from runner_core.opt import tool_main

BAD = sorted((Path(__file__).parent / "bad").glob("*.mlir"))
SCREEN_LINES = 24


def _args(path: Path) -> list[str]:
    """The gpurunner-opt arguments of the file's RUN line."""
    for line in path.read_text().splitlines():
        m = re.search(r"RUN: not gpurunner-opt (.*?)(?: 2>&1)? \|", line)
        if m:
            return [a.replace("%s", str(path)) for a in shlex.split(m.group(1))]
    raise AssertionError(f"{path} has no 'not gpurunner-opt' RUN line")


@pytest.mark.parametrize("path", BAD, ids=[p.name for p in BAD])
def test_malformed_input_gives_one_screen_diagnostic(path: Path):
    r = tool_main(["gpurunner-opt", *_args(path)], b"", dict(os.environ), str(path.parent))
    err = r.stderr.decode()
    assert r.returncode != 0
    assert r.stdout == b""
    assert "Traceback" not in err and 'File "' not in err
    lines = err.rstrip("\n").splitlines()
    assert 1 <= len(lines) <= SCREEN_LINES
    first = lines[0]
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error: \S", first) or \
        first.startswith("error: "), first
    if ": error: " in first and first.startswith(str(path)):
        # file:line:col diagnostics quote the line and put a caret under the column.
        col = int(first.split(":")[2])
        assert lines[2] == " " * (col - 1) + "^"
