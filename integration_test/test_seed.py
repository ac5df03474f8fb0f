"""The project's seed test (../shared/seed/async.mlir, 2021 syntax), run unchanged.

The file is not copied here: it is read from the shared folder next to the
repository, and these tests skip when that folder is absent.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT.parent / "shared" / "seed" / "async.mlir"

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not SEED.exists(), reason=f"{SEED} is absent")]


def test_seed_passes_under_the_plugin():
    """Its own RUN/CHECK lines, through the plug-in, exactly as a user would run it."""
    env = dict(os.environ)
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTEST_XDIST_WORKER", None)
    res = subprocess.run([sys.executable, "-m", "pytest", str(SEED), "-m", "integration", "-q",
                          "-p", "no:cacheprovider", "-p", "no:randomly"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert "1 passed" in res.stdout, res.stdout[-3000:]


def test_seed_output_is_deterministic():
    """Upstream's version is flaky on GPUs (llvm-project#170833); ours must not be."""
    from runner_core.cli import tool_main

    argv = ["mlir-cuda-runner", str(SEED), "--entry-point-result=void", "-O0",
            "--shared-libs=/gpurunner-builtin-runtime/lib/libcuda-runtime-wrappers.so",
            "--shared-libs=/gpurunner-builtin-runtime/lib/libmlir_async_runtime.so",
            "--shared-libs=/gpurunner-builtin-runtime/lib/libmlir_runner_utils.so"]
    env = dict(os.environ)
    env.setdefault("GPURUNNER_BACKEND", "cpu")
    for _ in range(20):
        res = tool_main(argv, b"", env, str(ROOT))
        assert res.returncode == 0, res.stderr.decode()
        assert res.stdout.endswith(b"\n[84,  84]\n"), res.stdout
