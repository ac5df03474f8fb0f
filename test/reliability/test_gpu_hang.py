"""On a GPU: a kernel that never ends is stopped, and the next GPU test of the run passes.

The kernel's worker process is killed at the timeout; the driver ends its
context (and the kernel with it), and the next test gets a fresh worker and a
usable GPU.  Skipped without a usable CUDA device; ``bench/reliability_faults.py
--gpu`` records the times.  Same check on the cpu backend in
``test_fault_injection.py`` (``kernel_spin``).
"""

from __future__ import annotations

import faults
import pytest

from pytest_gpurunner import gating

GPU, WHY = gating.probe_gpu()
pytestmark = [pytest.mark.integration, pytest.mark.gpu,
              pytest.mark.skipif(GPU is None, reason=f"no usable CUDA device: {WHY}")]

TIMEOUT = 15  # generous: the first kernel of a worker pays for CUDA's start and the compile


def test_a_hung_kernel_times_out_and_the_next_gpu_test_passes():
    run = faults.Run(faults.gpu_hang_project("cuda", TIMEOUT), ["-v", "--gpurunner-gpu=require"])
    try:
        out = run.finish(timeout=TIMEOUT * 6)
        assert run.returncode == 1, out[-4000:]
        assert f"a_kernel_hang.mlir:3: timed out after {TIMEOUT} s" in out, out[-4000:]
        assert "PASSED integration_test/b_after.mlir::b_after" in out, out[-4000:]
        assert "PASSED integration_test/c_after.mlir::c_after" in out, out[-4000:]
        assert "2 ran on a GPU" in out or "3 ran on a GPU" in out, out[-2000:]
        procs, _ = run.settle()
        assert not procs, procs
    finally:
        run.cleanup()
