"""A run answered from the cache loads neither xDSL nor the compiler (issue 17: a warm
suite's worker has only the JIT to warm).  Each check runs in a fresh interpreter, the
first time to fill the cache, the second time to look at ``sys.modules``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from runner_core import cache

# A program in LLVM dialect that prints 42 (shared with test/plugin/test_plugin_hybrid.py).
PROGRAM = (Path(__file__).resolve().parents[1] / "data" / "print_42_llvm.mlir").read_text()

SCRIPT = """\
import json, os, sys
from runner_core import {module} as tool
r = tool.tool_main({argv!r}, {stdin!r}.encode(), dict(os.environ), os.getcwd())
print(json.dumps({{"rc": r.returncode, "out": r.stdout.decode(), "err": r.stderr.decode(),
                  "cache": (r.info or {{}}).get("cache"),
                  "xdsl": sorted(m for m in sys.modules if m.startswith("xdsl"))[:3],
                  "registry": "runner_core.passes.registry" in sys.modules}}))
"""

CASES = {
    "runner": ("cli", ["gpurunner", "--entry-point-result=void",
                       "--shared-libs=%mlir_c_runner_utils"], PROGRAM),
    "mlir-opt": ("opt", ["mlir-opt", "-", "--canonicalize"], "func.func @f() { return }\n"),
    "refused pass": ("opt", ["mlir-opt", "-", "--sparsifier"], "func.func @f() { return }\n"),
}


def _run(tmp_path, module, argv, stdin) -> dict:
    env = {"GPURUNNER_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    if "PYTHONPATH" in os.environ:  # where the libraries are (e.g. wheels unpacked there)
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(module=module, argv=argv,
                                                              stdin=stdin)],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.parametrize("case", CASES)
def test_a_cached_answer_loads_no_compiler(tmp_path, case):
    module, argv, stdin = CASES[case]
    cold = _run(tmp_path, module, argv, stdin)
    warm = _run(tmp_path, module, argv, stdin)
    assert (warm["rc"], warm["out"], warm["err"]) == (cold["rc"], cold["out"], cold["err"])
    assert cold["xdsl"], "the cold run compiled (the check itself would be vacuous)"
    assert warm["xdsl"] == [] and not warm["registry"]
    assert all(misses == 0 for _hits, misses in warm["cache"].values()), warm["cache"]


def test_the_marker_of_this_code(tmp_path):
    env = {"GPURUNNER_CACHE_DIR": str(tmp_path / "cache")}
    assert not cache.has_entries_of_this_code(env)
    cache.put_json("opt", env, cache.make_key("opt", ["marker test"]), [0, "x", ""])
    assert cache.has_entries_of_this_code(env)
    assert not cache.has_entries_of_this_code({"GPURUNNER_CACHE_DIR": ""})


def test_the_cuda_runtime_provider_loads_no_compiler():
    """On a machine with a GPU, ``auto`` picks the cuda backend, whose runtime provider
    a cached run resolves its libraries with: that import alone must not pull xDSL in
    (it did through ``runner_core.codegen``'s package file, seen only on a GPU)."""
    script = ("import sys, runner_core.backends.cuda.runtime\n"
              "print(sorted(m for m in sys.modules if m.startswith('xdsl')"
              " or m == 'runner_core.codegen.emitter'))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_the_codegen_package_s_lazy_names_are_its_modules_names():
    import importlib

    from runner_core import codegen

    assert sorted(codegen.__all__) == sorted(codegen._HOME)
    for name in codegen.__all__:
        home = importlib.import_module(f"runner_core.codegen.{codegen._HOME[name]}")
        assert getattr(codegen, name) is getattr(home, name)
    with pytest.raises(AttributeError):
        codegen.no_such_name  # noqa: B018
