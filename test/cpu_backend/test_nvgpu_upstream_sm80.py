"""Upstream's sm80 `transform-mma-sync-matmul-f16-f16-accum.mlir`, unchanged: real
mlir-opt 22 runs its transform schedule (linalg.matmul -> nvgpu.mma.sync with
per-lane loads), then the runner runs the result and real FileCheck checks the
file's own CHECK lines.  This pins nvgpu.mma.sync's fragment layout end to end.
Skipped where LLVM 22 or the upstream tree is not installed; the backend is
GPURUNNER_TEST_BACKEND (cpu by default)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from .runner import LLVM_BIN, run

pytestmark = pytest.mark.integration
BACKEND = os.environ.get("GPURUNNER_TEST_BACKEND", "cpu")
UPSTREAM = Path(os.environ.get("GPURUNNER_UPSTREAM", "/work/upstream/llvm-project")) / \
    "mlir/test/Integration/GPU/CUDA/TensorCore/sm80/transform-mma-sync-matmul-f16-f16-accum.mlir"
# Where the transformed program is kept for machines without mlir-opt (bench/work is
# git-ignored; bench/gpu_check_gpuperf.sh --prepare fills it).
PREPARED = Path(__file__).resolve().parents[2] / "bench/work/sm80" / (UPSTREAM.stem +
                                                                     ".transformed.mlir")


def _transformed(tmp_path: Path) -> Path:
    opt = LLVM_BIN / "mlir-opt"
    if opt.exists() and UPSTREAM.exists():
        out = tmp_path / "transformed.mlir"
        subprocess.run([str(opt), str(UPSTREAM), "-transform-interpreter",
                        "-test-transform-dialect-erase-schedule", "-o", str(out)],
                       check=True, capture_output=True, timeout=120)
        return out
    if PREPARED.exists():
        return PREPARED
    pytest.skip("needs mlir-opt 22 and upstream's sm80 test (or bench/work/sm80 prepared)")


def _filecheck() -> list[str] | None:
    fc = LLVM_BIN / "FileCheck"
    if fc.exists():
        return [str(fc)]
    from shutil import which

    return [which("filecheck")] if which("filecheck") else None


def test_upstream_sm80_mma_sync_f16_accumulate(tmp_path):
    if not UPSTREAM.exists():
        pytest.skip(f"upstream's file (its CHECK lines) not found: {UPSTREAM}")
    program = _transformed(tmp_path)
    check_file = UPSTREAM
    res = run(program, backend=BACKEND)
    assert res.returncode == 0, res.stderr.decode(errors="replace")[-3000:]
    fc = _filecheck()
    if fc is None:
        pytest.skip("no FileCheck")
    check = subprocess.run([*fc, str(check_file)], input=res.stdout, capture_output=True,
                           timeout=60)
    assert check.returncode == 0, check.stderr.decode(errors="replace")[-3000:]
