"""GPU gating and worker pinning on a machine with real NVIDIA GPUs (skipped elsewhere).

Run on the GPU machine with the plug-in loaded explicitly when the project is
not installed there: ``PYTEST_PLUGINS=pytest_gpurunner.plugin pytest test/plugin/...``.
"""

import pytest

from pytest_gpurunner import gating

INFO, WHY = gating.probe_gpu()
pytestmark = pytest.mark.skipif(INFO is None, reason=f"no usable GPU: {WHY}")

GPU_TEST = """
// RUN: fake-cuda-device --shared-libs=%mlir_cuda_runtime | FileCheck %s
// CHECK: backend=cuda
"""


@pytest.fixture
def gpu_project(pytester, ini):
    ini("""
        gpurunner_embedded_tools =
            fake-cuda-device = gpurunner_fake_tools:cuda_device
    """, fake_tools=False)
    return pytester


def test_header_names_the_real_gpu_and_gpu_tests_run_on_it(gpu_project):
    gpu_project.makefile(".mlir", t=GPU_TEST)
    result = gpu_project.runpytest_inprocess("-p", "no:cacheprovider", "--gpurunner-gpu=require")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([
        f"gpurunner: GPU {INFO.name}, compute capability {INFO.compute_capability}, "
        f"driver {INFO.driver_version}; backend cuda; gpu policy require",
        "*gpurunner: gpu tests: 1 ran on a GPU, 0 emulated on the cpu backend, 0 skipped*",
    ])


def test_emulate_keeps_the_cpu_backend_even_with_a_gpu(gpu_project):
    gpu_project.makefile(".mlir", t=GPU_TEST.replace("backend=cuda", "backend=cpu"))
    result = gpu_project.runpytest_inprocess("-p", "no:cacheprovider", "--gpurunner-gpu=emulate")
    result.assert_outcomes(passed=1)


def test_each_xdist_worker_gets_its_own_gpu(gpu_project, subprocess_path):
    count = gating.visible_gpu_count()
    if count < 2:
        pytest.skip(f"{count} GPU visible; pinning needs at least 2")
    for i in range(2 * count):
        gpu_project.makefile(".mlir", **{f"t{i}": f"// RUN: fake-cuda-device > "
                                                  f"{gpu_project.path}/out{i}.txt\n"})
    result = gpu_project.runpytest_subprocess("-n", str(count), "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2 * count)
    seen: dict[str, set[str]] = {}
    for i in range(2 * count):
        values = dict(line.split("=", 1) for line in
                      (gpu_project.path / f"out{i}.txt").read_text().splitlines())
        seen.setdefault(values["worker"], set()).add(values["uuid"])
        assert values["visible"] and "," not in values["visible"]  # exactly one device
    # One device per worker, and different workers on different devices.
    assert all(len(uuids) == 1 for uuids in seen.values())
    assert len(set().union(*seen.values())) == len(seen)
    print({worker: sorted(uuids) for worker, uuids in seen.items()})
