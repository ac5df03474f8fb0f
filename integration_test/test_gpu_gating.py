"""GPU gating end to end on real programs: the four policies of ``--gpurunner-gpu``.

Each policy runs a real GPU test (gpu/seed_modern.mlir, which names the CUDA
runtime) and a CPU-only one (runner/entry_points.mlir) in a fresh pytest
process, as a CI job would.  On a machine without a usable GPU:

* ``auto`` and ``emulate`` run the GPU test on the CPU backend and pass;
* ``skip`` skips it, with the policy named in the reason;
* ``require`` fails it (a GPU job must not pass by emulating or skipping);

the CPU-only test passes under every policy, and the terminal summary counts
the GPU test where it went.  With a GPU, ``auto`` and ``require`` run it there.
(test/plugin/test_plugin_gating.py covers the same rules with fake tools and a
fake GPU; this file checks them with the real runner and the real probe.)
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_gpurunner import gating

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
GPU_TEST = ROOT / "integration_test" / "gpu" / "seed_modern.mlir"
CPU_TEST = ROOT / "integration_test" / "runner" / "entry_points.mlir"
HAVE_GPU = gating.probe_gpu()[0] is not None


def _run(policy: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", str(GPU_TEST), str(CPU_TEST), "-rA", "-q",
         "-p", "no:cacheprovider", "-p", "no:randomly", f"--gpurunner-gpu={policy}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def _outcome(out: str, path: Path) -> str:
    rel = path.relative_to(ROOT).as_posix()
    match = re.search(rf"^(PASSED|FAILED|ERROR)\b.*{re.escape(rel)}", out, re.M)
    if match:
        return match.group(1)
    # pytest's skip lines name where the skip was raised, not the test.
    assert re.search(r"^SKIPPED \[1\] .*GPU test skipped", out, re.M), \
        f"no outcome line for {rel}:\n{out[-3000:]}"
    return "SKIPPED"


EXPECTED = {
    # policy: (GPU test outcome, summary fragment)
    "auto": ("PASSED", "1 ran on a GPU" if HAVE_GPU else "1 emulated on the cpu backend"),
    "emulate": ("PASSED", "1 emulated on the cpu backend"),
    "skip": ("SKIPPED", "1 skipped"),
    "require": ("PASSED", "1 ran on a GPU") if HAVE_GPU else (
        "FAILED", "1 failed for want of a GPU (gpurunner_gpu=require)"),
}


@pytest.mark.parametrize("policy", sorted(EXPECTED))
def test_policy_end_to_end(policy: str):
    res = _run(policy)
    out = res.stdout + res.stderr
    gpu_outcome, summary = EXPECTED[policy]
    assert _outcome(out, GPU_TEST) == gpu_outcome, out[-3000:]
    assert _outcome(out, CPU_TEST) == "PASSED", out[-3000:]
    line = next((ln for ln in out.splitlines() if "gpurunner: gpu tests:" in ln), "")
    assert summary in line, f"summary line {line!r} lacks {summary!r}"
    assert res.returncode == (1 if gpu_outcome == "FAILED" else 0), out[-3000:]
    if policy == "skip":
        assert "gpurunner_gpu=skip" in out
    if policy == "require" and not HAVE_GPU:
        assert "no usable GPU" in out and "forbids emulating" in out
