"""Where a typical test's time goes: parse, verify, passes, print, codegen, JIT, run, FileCheck.

The plug-in runs a folder in this process (``--gpurunner-executor=inprocess``)
three times: once to import everything, then measured with the caches off
(``--gpurunner-cache-dir=``: every stage computed, as on a first run), then
measured twice with one cache directory (the second of those is the warm run).
Each phase is timed by a wrapper around the function that does it, exclusive
of the phases it calls (the parser's verify is "verify", not "parse"); what no
phase covers is "other" (the shell, pipes, the runtime's output capture, the
plug-in's reports).  FileCheck is LLVM's binary started as a process (or its
cached answer).

    python bench/phase_profile.py [FOLDER ...]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PHASES: dict[str, float] = defaultdict(float)
_stack: list[list[float]] = []  # [start, time spent in child phases]


def timed(phase: str, fn):
    def wrapper(*args, **kwargs):
        _stack.append([time.perf_counter(), 0.0])
        try:
            return fn(*args, **kwargs)
        finally:
            start, children = _stack.pop()
            spent = time.perf_counter() - start
            PHASES[phase] += spent - children
            if _stack:
                _stack[-1][1] += spent
    wrapper.__wrapped__ = fn
    return wrapper


def instrument() -> None:
    from pytest_gpurunner import executor, llvm_filecheck
    from runner_core import cache, codegen, engine
    from runner_core.ir import parse, printing
    from runner_core.passes import pipeline
    from runner_core.runtime import core
    from runner_core.targets import host

    parse.parse_source_ex = timed("parse", parse.parse_source_ex)
    parse.verify_module = timed("verify", parse.verify_module)
    pipeline.run_pipeline = timed("passes", pipeline.run_pipeline)
    printing.print_op = timed("print", printing.print_op)
    codegen.lower_module = timed("codegen", codegen.lower_module)
    engine.add_entry_thunk = timed("codegen", engine.add_entry_thunk)
    host.compile_ir = timed("jit", host.compile_ir)
    the_core = core.core()
    the_core.invoke = timed("run", the_core.invoke)
    llvm_filecheck.subprocess = _Subprocess(llvm_filecheck.subprocess)
    for kind in cache.KINDS:
        store = cache.STORES[kind]
        store.get = timed("cache", store.get)
        store.put = timed("cache", store.put)
    executor.run_job = timed("other", executor.run_job)


class _Subprocess:
    """``subprocess`` as llvm_filecheck sees it, with ``run`` timed as FileCheck."""

    def __init__(self, module):
        self._module = module
        self.run = timed("FileCheck", module.run)

    def __getattr__(self, name):
        return getattr(self._module, name)


def measure(folders: list[str], cache_dir: str) -> tuple[dict[str, float], float, int]:
    PHASES.clear()
    outcomes: list[str] = []

    class Count:
        def pytest_runtest_logreport(self, report):
            if report.when == "call":
                outcomes.append(report.outcome)

    start = time.perf_counter()
    pytest.main(["-q", "-p", "no:cacheprovider", "--gpurunner-executor=inprocess",
                 f"--gpurunner-cache-dir={cache_dir}", "--gpurunner-gpu=emulate", *folders],
                plugins=[Count()])
    return dict(PHASES), time.perf_counter() - start, len(outcomes)


def table(label: str, phases: dict[str, float], tests: int) -> str:
    total = phases.get("other", 0.0) + sum(v for k, v in phases.items() if k != "other")
    rows = [f"### {label}: {tests} tests, {total:.2f} s in their RUN lines "
            f"({1000 * total / max(tests, 1):.1f} ms a test)", "",
            "| phase | s | share | ms a test |", "|---|---|---|---|"]
    for name, value in sorted(phases.items(), key=lambda kv: -kv[1]):
        rows.append(f"| {name} | {value:.3f} | {100 * value / total:.1f}% | "
                    f"{1000 * value / max(tests, 1):.2f} |")
    return "\n".join(rows) + "\n"


def main() -> int:
    folders = sys.argv[1:] or [str(ROOT / "integration_test" / "runner"),
                               str(ROOT / "integration_test" / "legacy")]
    pytest.main(["-q", "-p", "no:cacheprovider", "--gpurunner-executor=inprocess",
                 "--gpurunner-cache-dir=", "--gpurunner-gpu=emulate", *folders])
    instrument()
    cold, cold_wall, n = measure(folders, "")
    cache_dir = tempfile.mkdtemp(prefix="phase-profile-cache-")
    try:
        measure(folders, cache_dir)
        warm, warm_wall, n2 = measure(folders, cache_dir)
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)  # nothing of the bench outlives it
    out = table("caches off (every stage computed; imports done)", cold, n) + "\n" + \
        table("warm (second run with one cache directory)", warm, n2)
    print(out)
    print(f"walls: caches off {cold_wall:.2f} s, warm {warm_wall:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
