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


def _cases() -> list[tuple[Path, int, str]]:
    out = []
    for path in sorted(HERE.rglob("*.mlir")):
        if path.relative_to(HERE).parts[0] in ("legacy", "known_gaps"):
            continue
        for n, command in enumerate(run_commands(path)):
            stages = [shlex.split(s) for s in command.split("|")]
            if (len(stages) > 1 and stages[0] and stages[0][0] == "mlir-opt"
                    and any(s and s[0] in RUNNERS for s in stages)):
                out.append((path, n, command))
    return out


CASES = _cases()
# GPU programs whose mlir-opt 22 lowering the cpu backend does not run, and why.
CPU_KNOWN = {
    "gpu/streams_concurrent.mlir": "upstream's gpu-to-llvm destroys the stream of a token "
                                   "waited on twice (mgpuStreamDestroy twice): the cpu "
                                   "backend's runtime crashes on the second",
    "gpu/seed_modern.mlir": "a !gpu.async.token passed to two async.execute regions: both "
                            "destroy its event (mgpuEventDestroy twice), the cpu runtime crashes",
    "async/gpu_tasks.mlir": "a !gpu.async.token passed to two async.execute regions: both "
                            "destroy its event (mgpuEventDestroy twice), the cpu runtime crashes",
    "gpu/clusters.mlir": "the cpu backend does not map the cluster id registers "
                         "(llvm.nvvm.read.ptx.sreg.cluster*) of a bitcode object: a located "
                         "error naming them",
    "gpu/device_assert.mlir": "__assertfail in a bitcode object stops the program on the cpu "
                              "backend instead of CUDA's report-and-go-on",
}
# CPU programs whose mlir-opt 22 lowering the embedded runner refuses (a located error), and why.
LOWERED_KNOWN: dict[str, str] = {}


def _lower(path: Path, command: str, fmt: str = "isa"):
    """(lowered program, runner argv, FileCheck argv or None)."""
    stages = [shlex.split(s) for s in _substitute(command, path, fmt).split("|")]
    data = None
    for i, words in enumerate(stages):
        if words[0] == "mlir-opt":
            res = subprocess.run([str(LLVM_BIN / "mlir-opt"), *words[1:]], input=data,
                                 capture_output=True, timeout=300)
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
            if rel in CPU_KNOWN:
                pytest.xfail(CPU_KNOWN[rel])
            data, runner, check = _lower(path, command, "llvm")  # bitcode the cpu backend runs
            backend = "cpu"
        ours = _embedded(runner, data, backend, tmp_path)
        assert ours.returncode == 0, ours.stderr.decode()
        assert check is not None, f"{rel}: no FileCheck stage to compare with"
        fc = subprocess.run([str(LLVM_BIN / "FileCheck"), *check[1:]], input=ours.stdout,
                            capture_output=True, timeout=120)
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
