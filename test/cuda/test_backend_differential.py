"""Differential check: every integration test prints the same on the cpu and cuda backends.

Each ``integration_test/**/*.mlir`` is collected as the plug-in collects it
(same substitutions, same tool table), then its RUN script is executed twice,
with ``GPURUNNER_BACKEND=cpu`` and ``=cuda``.  Both runs must end the same way
and every runner stage (``mlir-runner``, ``gpurunner``, ...) must write the
same bytes to stdout, up to the heap addresses ``printMemref`` headers show.
Skips without a usable GPU.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pytest_gpurunner import gating
from runner_core.backends.cuda import driver as cuda

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "integration_test").rglob("*.mlir")) if (ROOT / "integration_test").is_dir() \
    else []
RUNNERS = {"mlir-runner", "mlir-cpu-runner", "mlir-cuda-runner", "gpurunner"}
_ADDRESS = re.compile(rb"base@ = 0x[0-9a-fA-F]+")
# Programs that end their CUDA context (a device-side assertion is sticky): run here in
# the test process they would fail every later cuda run of it.  Their integration tests
# run them on both backends in the plug-in's replaceable worker; and the order in which
# GPU threads print is not the cpu backend's, which only their CHECK-DAG lines allow for.
POISONING = {"device_assert.mlir": "a device-side assertion poisons this process's CUDA "
                                   "context (checked by its own integration test)"}

# Heavy (many programs end to end, or upstream tools): `-m integration`, not the unit run.
pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(cuda.probe() is None,
                                 reason=f"no usable CUDA device ({cuda.probe_reason()})")]


def _outputs(item, backend: str):
    from pytest_gpurunner.shell import run_job

    item.test_dir.mkdir(parents=True, exist_ok=True)
    result = run_job(item._job(backend))
    stages = [(s.lineno, s.index, _ADDRESS.sub(b"base@ = <addr>", s.stdout))
              for s in result.stages if s.argv and s.argv[0] in RUNNERS]
    return result, stages


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_cpu_and_cuda_print_the_same(path, request):
    from pytest_gpurunner.collect import MlirFile

    if path.name in POISONING:
        pytest.skip(POISONING[path.name])
    # What the cpu backend skips (sm_90 TMA/wgmma, raw PTX warp instructions) leaves the
    # two backends nothing to compare; those programs' own integration tests run them.
    gap = gating.hardware_only_gap(path.read_text(errors="replace"))
    if gap:
        pytest.skip(f"nothing to compare: {gap}")

    (item,) = list(MlirFile.from_parent(request.session, path=path).collect())
    if item.problem:
        pytest.skip(item.problem)
    cpu_result, cpu = _outputs(item, "cpu")
    cuda_result, gpu = _outputs(item, "cuda")
    assert cpu, "no runner stage ran"
    assert (cpu_result.status, cpu_result.exit_code) == (cuda_result.status,
                                                         cuda_result.exit_code), \
        f"cpu: {cpu_result.message}\ncuda: {cuda_result.message}"
    for (line, index, out_cpu), (_, _, out_gpu) in zip(cpu, gpu, strict=True):
        assert out_cpu == out_gpu, (f"RUN line {line}, stage {index}:\n--- cpu ---\n"
                                    f"{out_cpu.decode(errors='replace')}\n--- cuda ---\n"
                                    f"{out_gpu.decode(errors='replace')}")
