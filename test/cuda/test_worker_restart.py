"""A process poisoned by a sticky error is replaced before the next job (worker executor)."""

from __future__ import annotations

import os
import re

from pytest_gpurunner.executor import WorkerExecutor
from pytest_gpurunner.job import Job, RunLine, ToolTable
from pytest_gpurunner.script import parse_shell

TOOLS = ToolTable("embedded", {"poison-tool": "gpurunner_poison_tool:poison"}, [])


def _job(arg: str, tmp_path) -> Job:
    cmd = f"poison-tool {arg}"
    return Job("t", str(tmp_path / "t.mlir"), [RunLine(1, 1, cmd, cmd, parse_shell(cmd, 1))],
               dict(os.environ), str(tmp_path), TOOLS, timeout=60)


def _pid(result) -> tuple[int, str]:
    out = result.stages[0].stdout.decode()
    m = re.match(r"pid=(\d+) unusable-before=(.*)", out)
    assert m, out
    return int(m.group(1)), m.group(2)


def test_poisoned_worker_is_replaced_before_the_next_job(tmp_path):
    ex = WorkerExecutor()
    try:
        first = ex.run(_job("check", tmp_path))
        poisoned = ex.run(_job("poison", tmp_path))
        after = ex.run(_job("check", tmp_path))
    finally:
        ex.close()
    assert first.status == poisoned.status == after.status == "pass"
    pid1, _ = _pid(first)
    pid2, _ = _pid(poisoned)
    pid3, state = _pid(after)
    assert pid1 == pid2  # a healthy worker is kept
    assert pid3 != pid2 and state == "None"  # the poisoned one is not
    assert ex.restarts == 1
