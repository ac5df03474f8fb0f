"""The async lowering against both runtimes, upstream's tools, and perturbed schedules."""

from __future__ import annotations

import subprocess

import pytest

from .runner import ASYNC_LIBS, INTEGRATION, LLVM_BIN, LLVM_LIB, REAL_ASYNC, masked, run

pytestmark = pytest.mark.integration

# Programs whose output is fully determined (no failure expected).
ASYNC_PROGRAMS = ["async_fork_join.mlir", "async_values.mlir", "async_groups.mlir",
                  "async_concurrency.mlir"]
PARALLEL_FOR = "async_parallel_for.mlir"  # needs the async-parallel-for pass first
GPU_ASYNC_PROGRAMS = ["async_gpu_tokens.mlir"]


def _libs_with_real_async(libs: str) -> str:
    return libs.replace("mlir_async_runtime", str(REAL_ASYNC))


@pytest.mark.skipif(not REAL_ASYNC.exists(), reason="Debian's libmlir_async_runtime.so absent")
@pytest.mark.parametrize("name", ASYNC_PROGRAMS + GPU_ASYNC_PROGRAMS)
def test_builtin_and_real_async_runtime_agree(name):
    libs = ASYNC_LIBS if name in ASYNC_PROGRAMS else \
        "mlir_cuda_runtime,mlir_async_runtime,mlir_runner_utils"
    builtin = run(INTEGRATION / name, libs=libs)
    real = run(INTEGRATION / name, libs=_libs_with_real_async(libs))
    assert builtin.returncode == 0, builtin.stderr.decode()
    assert real.returncode == 0, real.stderr.decode()
    assert masked(builtin.stdout) == masked(real.stdout)
    assert builtin.stdout  # the programs print


@pytest.mark.skipif(not REAL_ASYNC.exists(), reason="Debian's libmlir_async_runtime.so absent")
@pytest.mark.parametrize("entry", ["direct", "chained", "in_body"])
def test_errors_behave_alike_on_both_runtimes(entry):
    prog = INTEGRATION / "async_errors.mlir"
    for libs in ("mlir_async_runtime,mlir_c_runner_utils",
                 f"{REAL_ASYNC},mlir_c_runner_utils"):
        res = run(prog, "-e", entry, libs=libs)
        assert res.returncode != 0
        assert "Awaited async operand is in error state" in res.stderr.decode()
        assert b"B (depends on the failure) ran" not in res.stdout
        assert b"consumer continued" not in res.stdout


def _upstream_output(path, *first: str) -> bytes | None:
    opt, runner = LLVM_BIN / "mlir-opt", LLVM_BIN / "mlir-runner"
    # The unversioned runtime libraries come with libmlir-22-dev, not with mlir-22-tools.
    if not (opt.exists() and runner.exists() and REAL_ASYNC.exists()):
        return None
    lowered = subprocess.run(
        [str(opt), str(path), *first, "-async-to-async-runtime", "-async-runtime-ref-counting",
         "-convert-async-to-llvm", "-convert-scf-to-cf", "-convert-to-llvm",
         "-reconcile-unrealized-casts"], capture_output=True, timeout=120, check=True).stdout
    libs = ",".join(str(LLVM_LIB / f"lib{n}.so")
                    for n in ("mlir_async_runtime", "mlir_runner_utils", "mlir_c_runner_utils"))
    res = subprocess.run([str(runner), "-e", "main", "--entry-point-result=void", "-O0",
                          f"--shared-libs={libs}"], input=lowered, capture_output=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr.decode()[-2000:]
    return res.stdout


@pytest.mark.parametrize("name", ASYNC_PROGRAMS)
def test_same_output_as_upstream_mlir_runner(name):
    expected = _upstream_output(INTEGRATION / name)
    if expected is None:
        pytest.skip("upstream mlir-opt/mlir-runner 22 not installed")
    ours = run(INTEGRATION / name, libs=ASYNC_LIBS)
    assert ours.returncode == 0, ours.stderr.decode()
    assert masked(ours.stdout) == masked(expected)


def test_async_parallel_for_matches_upstreams_pass():
    expected = _upstream_output(INTEGRATION / PARALLEL_FOR, "-async-parallel-for")
    if expected is None:
        pytest.skip("upstream mlir-opt/mlir-runner 22 not installed")
    ours = run(INTEGRATION / PARALLEL_FOR, "--pass-pipeline=builtin.module(async-parallel-for)",
               libs=ASYNC_LIBS)
    assert ours.returncode == 0, ours.stderr.decode()
    assert masked(ours.stdout) == masked(expected)


@pytest.mark.parametrize("seed", ["1", "7", "12345"])
def test_perturbed_schedules_give_the_same_results(seed):
    env = {"GPURUNNER_PERTURB": seed, "GPURUNNER_PERTURB_MAX_US": "300"}
    for name in ("async_fork_join.mlir", "async_values.mlir", "async_groups.mlir"):
        calm = run(INTEGRATION / name, libs=ASYNC_LIBS)
        shaken = run(INTEGRATION / name, libs=ASYNC_LIBS, env=env)
        assert shaken.returncode == 0, shaken.stderr.decode()
        assert masked(shaken.stdout) == masked(calm.stdout)
    seed_prog = INTEGRATION.parents[1].parent / "shared" / "seed" / "async.mlir"
    if seed_prog.exists():
        res = run(seed_prog, "-O0", env=env,
                  libs="cuda-runtime-wrappers,mlir_async_runtime,mlir_runner_utils")
        assert res.returncode == 0, res.stderr.decode()
        assert res.stdout.endswith(b"[84,  84]\n")


def test_failing_kernel_inside_a_task_does_not_hang():
    """A device-side assert in a task: CUDA's lines, then the program goes on as upstream's
    runtime wrappers let it (they only report failed CUDA calls)."""
    src = """
func.func @main() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %t = async.execute {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %tx, %c0 : index
      cf.assert %first, "only thread 0 may run this"
      gpu.terminator
    }
    async.yield
  }
  async.await %t : !async.token
  vector.print str "not reached\\n"
  return
}
"""
    res = run(src, libs="mlir_cuda_runtime,mlir_async_runtime,mlir_c_runner_utils")
    assert res.returncode == 0, res.stderr.decode()
    err = res.stderr.decode()
    assert err.count("Assertion `only thread 0 may run this` failed.") == 63, err
    assert "'cuStreamSynchronize(stream)' failed with 'CUDA_ERROR_ASSERT'" in err, err
    assert b"not reached" in res.stdout


def test_runtime_objects_of_a_run_are_released_at_its_end():
    from runner_core.runtime import async_runtime

    res = run(INTEGRATION / "async_groups.mlir", libs=ASYNC_LIBS)
    assert res.returncode == 0
    assert async_runtime.PROVIDER._objects == {}
