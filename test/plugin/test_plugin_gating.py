"""Markers (unit / integration / gpu), selection with -m, and the GPU policy."""

import pytest
from plugin_session import run

from pytest_gpurunner import gating

GPU_TEST = """
// RUN: fake-echo-env GPURUNNER_BACKEND --shared-libs=%mlir_cuda_runtime | FileCheck %s
// CHECK: GPURUNNER_BACKEND=[[BACKEND:cpu|cuda]]
"""
CPU_RUNNER = "// RUN: mlir-runner --help 2>&1 | cat\n"
UNIT = "// RUN: true\n"


@pytest.fixture
def classified(project):
    project.makefile(".mlir", unit=UNIT, runner=CPU_RUNNER, gpu=GPU_TEST)
    deep = project.mkdir("integration_test")
    (deep / "by_path.mlir").write_text(UNIT)
    return project


def test_markers_are_registered(project):
    result = run(project, "--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.unit:*", "@pytest.mark.integration:*",
                                 "@pytest.mark.gpu:*"])


def test_m_integration_and_not_integration_partition_the_suite(classified):
    chosen = run(classified, "-m", "integration", "--collect-only", "-q").stdout.lines
    rest = run(classified, "-m", "not integration", "--collect-only", "-q").stdout.lines
    chosen = sorted(line for line in chosen if "::" in line)
    rest = sorted(line for line in rest if "::" in line)
    assert chosen == ["integration_test/by_path.mlir::by_path", "runner.mlir::runner"]
    assert rest == ["gpu.mlir::gpu", "unit.mlir::unit"]
    gpu = run(classified, "-m", "gpu", "--collect-only", "-q").stdout.lines
    assert [line for line in gpu if "::" in line] == ["gpu.mlir::gpu"]
    unit = run(classified, "-m", "unit", "--collect-only", "-q").stdout.lines
    assert sorted(line for line in unit if "::" in line) == ["gpu.mlir::gpu", "unit.mlir::unit"]


def test_integration_paths_and_runner_tools_come_from_the_ini(classified, ini):
    ini("""
        gpurunner_integration_paths = elsewhere
        gpurunner_runner_tools = true
    """)
    chosen = run(classified, "-m", "integration", "--collect-only", "-q").stdout.lines
    assert sorted(line for line in chosen if "::" in line) == [
        "integration_test/by_path.mlir::by_path", "unit.mlir::unit"]


def test_requiring_a_gpu_feature_makes_a_gpu_test(project):
    project.makefile(".mlir", t="// REQUIRES: cuda\n// RUN: true\n")
    lines = run(project, "-m", "gpu", "--collect-only", "-q").stdout.lines
    assert "t.mlir::t" in lines


@pytest.fixture
def fake_gpu(monkeypatch):
    info = gating.GpuInfo("Fake H200", "9.0", "580.00")
    monkeypatch.setattr(gating, "probe_gpu", lambda: (info, ""))
    return info


def backend_check(project, backend):
    project.makefile(".mlir", gpu=GPU_TEST.replace("[[BACKEND:cpu|cuda]]", backend),
                     unit=UNIT)


@pytest.mark.parametrize("policy, backend, outcome, summary", [
    ("auto", "cuda", {"passed": 2}, "1 ran on a GPU, 0 emulated on the cpu backend, 0 skipped"),
    ("emulate", "cpu", {"passed": 2}, "0 ran on a GPU, 1 emulated on the cpu backend, 0 skipped"),
    ("skip", "cuda", {"passed": 1, "skipped": 1}, "0 ran on a GPU, 0 emulated*, 1 skipped"),
    ("require", "cuda", {"passed": 2}, "1 ran on a GPU, 0 emulated on the cpu backend, 0 skipped"),
])
def test_policy_with_a_gpu(project, fake_gpu, policy, backend, outcome, summary):
    backend_check(project, backend)
    result = run(project, f"--gpurunner-gpu={policy}")
    result.assert_outcomes(**outcome)
    result.stdout.fnmatch_lines([
        "gpurunner: GPU Fake H200, compute capability 9.0, driver 580.00; *",
        f"*gpurunner: gpu tests: {summary}*",
    ])


@pytest.mark.parametrize("policy, outcome, summary", [
    ("auto", {"passed": 2}, "0 ran on a GPU, 1 emulated on the cpu backend, 0 skipped"),
    ("emulate", {"passed": 2}, "0 ran on a GPU, 1 emulated on the cpu backend, 0 skipped"),
    ("skip", {"passed": 1, "skipped": 1}, "0 ran on a GPU, 0 emulated*, 1 skipped"),
    ("require", {"passed": 1, "failed": 1}, "*1 failed for want of a GPU*"),
])
def test_policy_without_a_gpu(project, no_gpu, policy, outcome, summary):
    backend_check(project, "cpu")
    result = run(project, f"--gpurunner-gpu={policy}")
    result.assert_outcomes(**outcome)
    result.stdout.fnmatch_lines([f"*gpurunner: gpu tests: {summary}*"])
    if policy == "require":
        result.stdout.fnmatch_lines(["*no usable GPU, and gpurunner_gpu=require forbids*"])


def test_requires_cuda_without_gpu_skips_but_require_fails(project, no_gpu, ini):
    project.makefile(".mlir", t="// REQUIRES: cuda\n// RUN: true\n")
    run(project).assert_outcomes(skipped=1)
    ini("gpurunner_gpu = require")
    run(project).assert_outcomes(failed=1)


def test_gpu_features_present_with_a_gpu(project, fake_gpu):
    project.makefile(".mlir", t="// REQUIRES: gpu && cuda\n// RUN: true\n")
    run(project).assert_outcomes(passed=1)


def test_worker_pinning_is_round_robin():
    assert gating.worker_gpu("gw0", ["0", "1"]) == "0"
    assert gating.worker_gpu("gw3", ["0", "1"]) == "1"
    assert gating.worker_gpu("gw2", ["5", "7", "9"]) == "9"
    assert gating.worker_gpu("", ["0"]) is None
    assert gating.worker_gpu("gw1", []) is None


def test_xdist_workers_each_get_their_own_gpu(pytester, ini, subprocess_path, monkeypatch):
    """The controller counts GPUs; each worker sets CUDA_VISIBLE_DEVICES before any CUDA use."""
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)  # as on a machine with 2 GPUs
    ini(fake_tools=True)
    pytester.makepyfile(fakegpu="""
        from pytest_gpurunner import gating
        gating.probe_gpu = lambda: (gating.GpuInfo("Fake", "9.0", "1"), "")
        gating.visible_gpu_count = lambda: 2
    """)
    for i in range(6):
        pytester.makefile(".mlir", **{f"t{i}": f"// RUN: fake-echo-env CUDA_VISIBLE_DEVICES "
                                              f"GPURUNNER_DEVICE PYTEST_XDIST_WORKER "
                                              f"> {pytester.path}/out{i}.txt\n"})
    result = pytester.runpytest_subprocess("-n", "2", "-p", "fakegpu", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=6)
    for i in range(6):
        text = (pytester.path / f"out{i}.txt").read_text()
        values = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
        worker = values["PYTEST_XDIST_WORKER"]
        assert values["CUDA_VISIBLE_DEVICES"] == {"gw0": "0", "gw1": "1"}[worker]
        assert values["GPURUNNER_DEVICE"] == "0"


def test_the_reason_for_no_gpu_says_it_once():
    """Each probe used to wrap the last probe's answer once more ("no CUDA device visible
    (no CUDA device visible (..."), and skip reasons and the header showed the pile."""
    from runner_core.backends.cuda import driver

    for _ in range(3):
        found = driver.probe()
    if found is not None:
        pytest.skip("a CUDA device is usable here")
    reason = driver.probe_reason()
    assert reason and reason.count("no CUDA device visible") <= 1, reason


def test_hardware_only_gpu_test_is_skipped_on_the_cpu_backend_naming_the_gap(project):
    """sm_90 TMA / wgmma / mbarrier are not emulated: a clear skip, not a failure."""
    project.makefile(".mlir", tma=GPU_TEST + "// nvgpu.tma.async.load %d[...]\n",
                     plain=GPU_TEST)
    result = run(project, "--gpurunner-gpu=emulate", "-rs")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["*tma.mlir*UNSUPPORTED on the cpu backend: "
                                 "'nvgpu.tma.async.load'*needs a real GPU*"])
    assert gating.hardware_only_gap("nvgpu.warpgroup.mma %a") is not None
    assert gating.hardware_only_gap("gpu.subgroup_mma_compute %a") is None
    assert "PTX instruction" in gating.hardware_only_gap("%e = nvvm.elect.sync -> i1")
    assert "PTX instruction" in gating.hardware_only_gap("nvvm.shfl.sync  idx %m, %v")
    assert gating.hardware_only_gap("gpu.shuffle idx %v, %o, %w : f32") is None
