"""Real MLIR in, embedded runner out: the suite's programs as mlir-opt 22 lowers them.

For every RUN line of ``integration_test/**.mlir`` of the form
``mlir-opt ... [| mlir-opt ...] | mlir-runner ...``, Debian's ``mlir-opt``
runs the mlir-opt stages (``%gpu_compilation_format`` = ``isa``), and the
LLVM-dialect program it prints goes to the embedded runner with the RUN
line's runner arguments:

* CPU programs: the real ``mlir-runner`` (Debian's runtime libraries) runs it
  too, and both print the same (heap addresses masked);
* GPU programs (``gpu.binary``): with a GPU, lowered to PTX (``isa``) and run on
  the cuda backend; without one, lowered to LLVM bitcode (``llvm``) and run on
  the cpu backend.  Either way the output must satisfy the file's CHECK lines
  (LLVM's FileCheck).  A PTX object on the cpu backend is refused with the
  "needs a GPU" error (checked too).

Skipped where the LLVM 22 tools are absent (CI installs them).  Programs the
real mlir-opt cannot lower are listed in ``test_upstream_tools``.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from test_upstream_tools import NOT_LOWERABLE, NOT_UPSTREAM_RUNNABLE

from pytest_gpurunner.script import run_commands

HERE = Path(__file__).resolve().parent
LLVM_BIN = Path(os.environ.get("GPURUNNER_LLVM_BIN", "/usr/lib/llvm-22/bin"))
LIB = (LLVM_BIN / ".." / "lib").resolve()
RUNNERS = {"mlir-runner", "mlir-cpu-runner", "mlir-cuda-runner"}
LIBS = ("mlir_c_runner_utils", "mlir_runner_utils", "mlir_async_runtime", "mlir_cuda_runtime")
ADDRESS = re.compile(rb"base@ = 0x[0-9a-f]+")

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not (LLVM_BIN / "mlir-opt").exists()
                                 or not (LLVM_BIN / "mlir-runner").exists(),
                                 reason=f"LLVM 22 tools not found in {LLVM_BIN}")]


def _substitute(command: str, path: Path, fmt: str) -> str:
    subs = {f"%{lib}": f"{LIB}/lib{lib}.so" for lib in LIBS}
    subs.update({"%mlir_lib_dir": str(LIB), "%shlibext": ".so", "%gpu_compilation_format": fmt,
                 "%s": str(path)})
    for name in sorted(subs, key=len, reverse=True):
        command = command.replace(name, subs[name])
    return command


# Named `gpurunner` because LLVM 22 lays out their zero-length workgroup buffers apart
# (passes/shared_memory_layout.py: mlir-runner's name refuses them); their mlir-opt 22
# lowering is still a program the runner must take as the real one would.
GPURUNNER_NAMED = {"gpu_barrier_memory.mlir", "shared_memory_limits.mlir",
                   "tma_wgmma_gemm.mlir", "tma_load_oob.mlir"}


def _cases() -> list[tuple[Path, int, str]]:
    out = []
    for path in sorted(HERE.rglob("*.mlir")):
        if path.relative_to(HERE).parts[0] in ("legacy", "known_gaps"):
            continue
        for n, command in enumerate(run_commands(path)):
            stages = [shlex.split(s) for s in command.split("|")]
            runners = RUNNERS | ({"gpurunner"} if path.name in GPURUNNER_NAMED else set())
            if (len(stages) > 1 and stages[0] and stages[0][0] == "mlir-opt"
                    and any(s and s[0] in runners for s in stages)):
                out.append((path, n, command))
    return out


CASES = _cases()
# GPU programs whose mlir-opt 22 lowering the cpu backend does not run, and why.
CPU_KNOWN: dict[str, str] = {
    "gpu/tma_wgmma_gemm.mlir": "sm_90 TMA / mbarrier / wgmma: the cpu backend cannot emulate "
                               "them (needs an sm_90 GPU)",
    "gpu/tma_load_oob.mlir": "sm_90 TMA / mbarrier: the cpu backend cannot emulate them "
                             "(needs an sm_90 GPU)",
    "gpu/warp_nvvm_ops.mlir": "nvvm.elect.sync / nvvm.shfl.sync are PTX instructions the "
                              "cpu backend does not model (needs a GPU)",
}
# Kernels that LLVM 22 miscompiles for a GPU: convert-gpu-to-nvvm makes the dynamic shared
# memory global (`__dynamic_shmem__N`, [0 x i8]) internal, and the NVPTX back end turns it
# into a static shared variable of its own (ptxas: 4 bytes more static memory).  With other
# workgroup memory in the kernel, its accesses overlap that memory (wrong numbers), and
# 227 KiB of dynamic memory no longer fits beside 4096 + 4 static bytes (cuFuncSetAttribute:
# CUDA_ERROR_INVALID_VALUE).  The real tools fail on a GPU too; the cpu backend refuses them.
GPU_LOWERING_FAULTS = {
    "cpu/gpu_barrier_memory.mlir": "the dynamic shared memory overlaps the workgroup "
                                   "buffers (LLVM 22's NVPTX demotes __dynamic_shmem__0)",
    "gpu/shared_memory_limits.mlir": "4100 static bytes (LLVM 22's NVPTX demotes "
                                     "__dynamic_shmem__0) + 228352 dynamic exceed 227 KiB",
    # Measured on an H100: FileCheck fails on LLVM 22's lowering (the TMA loads land in
    # __dynamic_shmem__0, the wgmma reads @dynamicShmem, a different static byte).
    "gpu/tma_wgmma_gemm.mlir": "TMA writes and wgmma reads two different demoted "
                               "zero-length buffers (LLVM 22's NVPTX)",
}
CPU_KNOWN.update({rel: f"refused on the cpu backend (needs a GPU): {why}"
                  for rel, why in GPU_LOWERING_FAULTS.items()})
# GPU programs that LLVM 22's gpu-to-llvm breaks: a !gpu.async.token crossing
# async.execute becomes the stream itself, given to mgpuStreamWaitEvent /
# mgpuEventSynchronize / mgpuEventDestroy (no event is ever created), and a token
# waited on twice has its stream used after mgpuStreamDestroy.  The driver refuses
# those handles (CUDA_ERROR_CONTEXT_IS_DESTROYED), upstream's wrappers report each
# call on stderr and the program goes on: exit 0 with the reports _driver_reports
# predicts.  What it prints then: "racy" (no device-side order is left between the
# tasks, nor before the final print: a GPU may or may not have finished) or
# "FileCheck fails" (the work on the destroyed stream is not done, so the real tools'
# run fails its CHECK lines too).
LOWERING_FAULTS = {
    "gpu/streams_concurrent.mlir": "FileCheck fails",
    "gpu/seed_modern.mlir": "racy",
    "async/gpu_tasks.mlir": "racy",
}
# The calls as upstream's CUDA_REPORT_IF_ERROR stringifies them (CudaRuntimeWrappers.cpp).
_UPSTREAM_CALLS = {
    "mgpuStreamDestroy": "cuStreamDestroy(stream)",
    "mgpuStreamSynchronize": "cuStreamSynchronize(stream)",
    "mgpuStreamWaitEvent": "cuStreamWaitEvent(stream, event, 0)",
    "mgpuEventDestroy": "cuEventDestroy(event)",
    "mgpuEventSynchronize": "cuEventSynchronize(event)",
    "mgpuEventRecord": "cuEventRecord(event, stream)",
    "mgpuMemcpy": "cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), "
                  "reinterpret_cast<CUdeviceptr>(src), sizeBytes, stream)",
    "launch": "cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, smem, "
              "stream, params, extra)",
}
_CALL = re.compile(r"llvm\.call @(mgpu\w+)\(([^)]*)\)|gpu\.launch_func <(%\w+)")


def _driver_reports(text: str) -> Counter:
    """The report lines a real driver and upstream's wrappers give for a lowered program,
    from its text: with no mgpuEventCreate anywhere, every event argument is something
    else (a stream); a stream SSA value destroyed in straight-line code and used again
    names a destroyed stream (each function read top to bottom)."""
    no_events = "@mgpuEventCreate" not in text
    out: Counter = Counter()
    dead: set[str] = set()
    for line in text.splitlines():
        if line.lstrip().startswith("llvm.func @"):
            dead = set()
        m = _CALL.search(line)
        if not m:
            continue
        name, args = (m.group(1), m.group(2).split(", ")) if m.group(1) else ("launch", [m.group(3)])
        call = _UPSTREAM_CALLS.get(name)
        if call is None:
            continue
        stream = {"mgpuStreamDestroy": 0, "mgpuStreamSynchronize": 0, "mgpuStreamWaitEvent": 0,
                  "mgpuEventRecord": 1, "mgpuMemcpy": 3, "launch": 0}.get(name)
        event = {"mgpuStreamWaitEvent": 1, "mgpuEventDestroy": 0, "mgpuEventSynchronize": 0,
                 "mgpuEventRecord": 0}.get(name)
        bad = (stream is not None and args[stream] in dead) or (event is not None and no_events)
        if bad:
            out[f"'{call}' failed with 'CUDA_ERROR_CONTEXT_IS_DESTROYED'"] += 1
        elif name == "mgpuStreamDestroy":
            dead.add(args[0])
    return out


# CPU programs whose mlir-opt 22 lowering the embedded runner refuses (a located error), and why.
LOWERED_KNOWN: dict[str, str] = {}


def _toolkit_env(fmt: str) -> dict | None:
    """CUDA_ROOT for mlir-opt when a CUDA toolkit is installed, so PTX objects link libdevice
    (LLVM 22 otherwise leaves `.extern .func __nv_*` in them, which no driver loads)."""
    if fmt == "llvm" or any(os.environ.get(v) for v in ("CUDA_ROOT", "CUDA_HOME", "CUDA_PATH")):
        return None
    root = next((r for r in ("/usr/local/cuda", "/usr/lib/cuda")
                 if Path(r, "nvvm", "libdevice").is_dir()), None)
    return dict(os.environ, CUDA_ROOT=root) if root else None


def _lower(path: Path, command: str, fmt: str = "isa"):
    """(lowered program, runner argv, FileCheck argv or None)."""
    stages = [shlex.split(s) for s in _substitute(command, path, fmt).split("|")]
    data = None
    for i, words in enumerate(stages):
        if words[0] == "mlir-opt":
            res = subprocess.run([str(LLVM_BIN / "mlir-opt"), *words[1:]], input=data,
                                 capture_output=True, timeout=300, env=_toolkit_env(fmt))
            if res.returncode:
                return None, res.stderr.decode(errors="replace"), None
            data = res.stdout
            continue
        runner = [w for w in words[1:] if not re.match(r"^\d?>", w)]
        check = next((s for s in stages[i + 1:] if s and s[0] == "FileCheck"), None)
        return data, runner, check
    raise AssertionError("no runner stage")


def _embedded(runner: list[str], data: bytes, backend: str, cwd: Path):
    from runner_core import cli

    return cli.tool_main(["mlir-runner", *runner], data, {**os.environ,
                                                         "GPURUNNER_BACKEND": backend}, str(cwd))


def _cuda_usable() -> bool:
    from runner_core.backends import cuda

    return cuda.BACKEND.probe(os.environ) is not None


@pytest.mark.parametrize("path,n,command", CASES,
                         ids=[f"{p.relative_to(HERE).as_posix()}#{n}" for p, n, _ in CASES])
def test_lowered_program_runs_on_embedded_runner(path: Path, n: int, command: str, tmp_path):
    rel = path.relative_to(HERE).as_posix()
    if rel in NOT_LOWERABLE:  # test_upstream_tools checks that the list is still true
        pytest.skip(f"mlir-opt 22 cannot lower it: {NOT_LOWERABLE[rel]}")
    data, runner, check = _lower(path, command)
    assert data is not None, f"mlir-opt 22 cannot lower {rel}:\n{runner[:2000]}"
    if rel in LOWERED_KNOWN:
        ours = _embedded(runner, data, "cpu", tmp_path)
        assert ours.returncode != 0 and b"unsupported" in ours.stderr, ours.stderr.decode()
        pytest.xfail(LOWERED_KNOWN[rel])
    if b"gpu.binary" in data:
        backend = "cuda"
        if not _cuda_usable():
            ours = _embedded(runner, data, "cpu", tmp_path)
            assert ours.returncode != 0 and b"(needs a GPU)" in ours.stderr, ours.stderr.decode()
            data, runner, check = _lower(path, command, "llvm")  # bitcode the cpu backend runs
            backend = "cpu"
            if rel in CPU_KNOWN:
                ours = _embedded(runner, data, backend, tmp_path)
                assert ours.returncode != 0 and b"(needs a GPU)" in ours.stderr, \
                    ours.stderr.decode()
                pytest.xfail(CPU_KNOWN[rel])
        ours = _embedded(runner, data, backend, tmp_path)
        assert ours.returncode == 0 or rel in GPU_LOWERING_FAULTS, ours.stderr.decode()
        assert check is not None, f"{rel}: no FileCheck stage to compare with"
        # `mlir-runner ... 2>&1 | FileCheck`: FileCheck reads both streams.
        merged = "2>&1" in command.split("|")[-2] if "|" in command else False
        fc = subprocess.run([str(LLVM_BIN / "FileCheck"), *check[1:]],
                            input=ours.stdout + ours.stderr if merged else ours.stdout,
                            capture_output=True, timeout=120)
        if backend == "cuda" and rel in GPU_LOWERING_FAULTS:
            assert ours.returncode != 0 or fc.returncode != 0, \
                f"{rel} passes on the GPU: list it in GPU_LOWERING_FAULTS no more"
            pytest.xfail(GPU_LOWERING_FAULTS[rel])
        if rel in LOWERING_FAULTS:
            reports = _driver_reports(data.decode())
            assert reports, f"{rel}: the lowering no longer misuses handles: list it no more"
            assert Counter(ours.stderr.decode().splitlines()) == reports
            if LOWERING_FAULTS[rel] == "FileCheck fails":
                assert fc.returncode != 0, "the work on the destroyed stream was done"
            return
        assert fc.returncode == 0, fc.stderr.decode()
        return
    if rel in NOT_UPSTREAM_RUNNABLE:
        pytest.skip(f"the real mlir-runner cannot run it: {NOT_UPSTREAM_RUNNABLE[rel]}")
    real = subprocess.run([str(LLVM_BIN / "mlir-runner"), *runner], input=data,
                          capture_output=True, timeout=300)
    ours = _embedded(runner, data, "cpu", tmp_path)
    assert real.stdout, f"the real mlir-runner printed nothing: {real.stderr.decode()[:2000]}"
    assert (ours.returncode == 0) == (real.returncode == 0), (
        f"real exit {real.returncode}, embedded exit {ours.returncode}:\n"
        + ours.stderr.decode(errors="replace"))
    assert ADDRESS.sub(b"", ours.stdout) == ADDRESS.sub(b"", real.stdout)
