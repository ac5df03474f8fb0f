"""Flake detection on a real GPU: the cuda runtime's perturbation seam (skipped without one).

Verifies on the device what ``test_repeat_seams.py`` checks against a fake
driver: with ``GPURUNNER_PERTURB`` the runtime enqueues spin kernels and host
delays, correct stream programs stay correct, and a race between kernels on
two streams is shaken into both outcomes, so ``--gpurunner-repeat`` reports it.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from repeat_programs import FORK_JOIN, STREAM_RACE, TWO_STREAMS_RACE

from pytest_gpurunner import gating

INFO, WHY = gating.probe_gpu()
pytestmark = pytest.mark.skipif(INFO is None, reason=f"no usable GPU: {WHY}")

LIBS = ["--shared-libs=/gpurunner-builtin-runtime/lib/libmlir_cuda_runtime.so",
        "--shared-libs=/gpurunner-builtin-runtime/lib/libmlir_async_runtime.so",
        "--shared-libs=/gpurunner-builtin-runtime/lib/libmlir_runner_utils.so",
        "--shared-libs=/gpurunner-builtin-runtime/lib/libmlir_c_runner_utils.so"]

def _run(tmp_path, text: str, seed: str | None):
    from runner_core.cli import tool_main

    src = tmp_path / "prog.mlir"
    src.write_text(text)
    env = dict(os.environ, GPURUNNER_BACKEND="cuda")
    env.pop("GPURUNNER_PERTURB", None)
    if seed is not None:
        env["GPURUNNER_PERTURB"] = seed
    res = tool_main(["gpurunner", str(src), "--entry-point-result=void", "-O0", *LIBS],
                    b"", env, str(tmp_path))
    assert res.returncode == 0, res.stderr.decode()
    return res.stdout.decode()


def test_perturbed_fork_join_stays_correct_and_spins_streams(tmp_path):
    from runner_core.backends.cuda import runtime as rt

    actions: Counter = Counter()
    for k in range(10):
        out = _run(tmp_path, FORK_JOIN, f"gpu{k}")
        assert out.endswith("[84,  84]\n"), out
        actions.update(rt.PROVIDER.perturbations)
    assert actions["spin kernel"] > 0 and actions["host delay"] > 0, actions
    _run(tmp_path, FORK_JOIN, None)
    assert rt.PROVIDER._perturb_flag.value == 0


def test_perturbation_shakes_a_race_between_streams(tmp_path):
    plain = Counter(_run(tmp_path, STREAM_RACE, None).strip() for _ in range(10))
    shaken = Counter(_run(tmp_path, STREAM_RACE, f"race{k}").strip() for k in range(40))
    assert set(shaken) == {"1", "2"}, (plain, shaken)


def test_spin_kernels_and_host_delays_reorder_two_streams(tmp_path):
    """Stream perturbation alone (one host thread, no async.execute) flips the race."""
    plain = Counter(_run(tmp_path, TWO_STREAMS_RACE, None).strip() for _ in range(10))
    shaken = Counter(_run(tmp_path, TWO_STREAMS_RACE, f"streams{k}").strip() for k in range(40))
    assert set(shaken) == {"1", "2"}, (plain, shaken)


def test_repeat_reports_the_stream_race(pytester, ini):
    ini("", fake_tools=False)
    pytester.mkdir("integration_test")
    (pytester.path / "integration_test" / "race.mlir").write_text(
        "// RUN: gpurunner %s --entry-point-result=void -O0 --shared-libs=%mlir_cuda_runtime "
        "--shared-libs=%mlir_async_runtime --shared-libs=%mlir_c_runner_utils | FileCheck %s\n// CHECK: {{^[12]$}}\n"
        + STREAM_RACE)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--gpurunner-gpu=require",
                                          "--gpurunner-repeat=20")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*race.mlir: FLAKY: the outputs of its 20 runs*",
                                 "*gpurunner: gpu tests: 1 ran on a GPU*"])
