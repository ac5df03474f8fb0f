"""Differential tests: our engine against Debian's mlir-opt | mlir-runner (LLVM 22).

For every program in ``programs/`` the RUN pipeline is executed three ways:

1. upstream: real ``mlir-opt`` and ``mlir-runner`` with the real
   ``libmlir_runner_utils.so`` / ``libmlir_c_runner_utils.so``;
2. ours, built-in runtimes: the embedded ``mlir-opt`` then the embedded runner,
   ``%mlir_runner_utils`` substituted by a library *name* (built-in provider);
3. ours, real runtimes: the embedded tools with the Debian libraries loaded.

Standard output must be identical, with memref base pointers masked.
Skipped when the LLVM 22 tools are not installed (``.ci/run`` installs them).
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest
from update_checks import HAVE_LLVM, LLVM, REAL_LIBS, mask, pipeline

HERE = Path(__file__).parent
PROGRAMS = sorted((HERE / "programs").glob("*.mlir"))
BUILTIN_LIBS = {"%mlir_runner_utils": "mlir_runner_utils",
                "%mlir_c_runner_utils": "mlir_c_runner_utils"}
# Heavy (many programs end to end, or upstream tools): `-m integration`, not the unit run.
pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not HAVE_LLVM, reason="LLVM 22 tools not installed")]


def run_script(path: Path) -> list[list[str]]:
    """The RUN line's stages before FileCheck, as argument lists (with %s replaced)."""
    return [shlex.split(s.replace("%s", str(path))) for s in pipeline(path)]


def substitute(stages, table):
    out = []
    for argv in stages:
        new = []
        for a in argv:
            for k in sorted(table, key=len, reverse=True):
                a = a.replace(k, table[k])
            new.append(a)
        out.append(new)
    return out


_upstream_cache: dict[Path, bytes] = {}


def upstream_stdout(path: Path) -> bytes:
    if path not in _upstream_cache:
        stages = substitute(run_script(path), REAL_LIBS)
        data = b""
        for argv in stages:
            argv = [str(LLVM / "bin" / argv[0]), *argv[1:]]
            res = subprocess.run(argv, input=data, capture_output=True, timeout=120)
            assert res.returncode == 0, f"upstream {argv[0]} failed:\n{res.stderr.decode()}"
            data = res.stdout
        _upstream_cache[path] = data
    return _upstream_cache[path]


def ours_stdout(path: Path, libs: dict[str, str]) -> bytes:
    from runner_core import cli, opt

    tools = {"mlir-opt": opt.tool_main, "mlir-runner": cli.tool_main}
    data = b""
    for argv in substitute(run_script(path), libs):
        res = tools[argv[0]](argv, data, {"GPURUNNER_BACKEND": "cpu"}, str(path.parent))
        assert res.returncode == 0, f"embedded {argv[0]} failed:\n{res.stderr.decode()}"
        assert b"Traceback" not in res.stderr
        data = res.stdout
    return data


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_builtin_runtimes_match_upstream(path):
    expected = upstream_stdout(path)
    assert expected, "upstream printed nothing: the program tests nothing"
    assert mask(ours_stdout(path, BUILTIN_LIBS)) == mask(expected)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_real_runtimes_match_upstream(path):
    expected = upstream_stdout(path)
    assert mask(ours_stdout(path, REAL_LIBS)) == mask(expected)


def test_enough_programs():
    assert len(PROGRAMS) >= 30
