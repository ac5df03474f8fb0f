"""The integration suite stays valid for upstream LLVM 22 tools where they can run it.

Two checks, both skipped when Debian's LLVM 22 tools are absent:

* every ``mlir-opt`` stage that starts a RUN line runs with the real
  ``mlir-opt`` (``%gpu_compilation_format`` = ``isa``: PTX, since the machine
  has no ``ptxas`` for the default chip), and where a runner consumes the
  result, ``mlir-translate --mlir-to-llvmir`` accepts it: the pipelines the
  tests name really lower those programs to LLVM upstream;
* the CPU-only programs run end to end under the plug-in in ``system`` tools
  mode (real ``mlir-opt``, ``mlir-runner``, runtime libraries and ``FileCheck``)
  and pass with the same CHECK lines as on the embedded runner.

Files that upstream cannot lower are listed with the reason; the list is
checked too (a listed file that upstream handles after all is reported).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_gpurunner.script import run_commands

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "integration_test"
LLVM_BIN = Path(os.environ.get("GPURUNNER_LLVM_BIN", "/usr/lib/llvm-22/bin"))
MLIR_OPT = LLVM_BIN / "mlir-opt"

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not (MLIR_OPT.exists() and (LLVM_BIN / "mlir-runner").exists()),
                                 reason=f"LLVM 22 tools not found in {LLVM_BIN}")]

# 2021-syntax files (upstream dropped that syntax) and the XFAIL gap tests.
SKIP_DIRS = {"legacy", "known_gaps"}
# What upstream's mlir-opt cannot lower, and why.
NOT_LOWERABLE = {
    "cpu/gpu_subgroup_reduce.mlir": "MLIR 22 lowers gpu.subgroup_reduce to NVVM only in test passes",
    "gpu/subgroup_reduce.mlir": "MLIR 22 lowers gpu.subgroup_reduce to NVVM only in test passes",
    "gpu/types_f64.mlir": "written in the older spelling: gpu-to-cubin was removed upstream",
    "gpu/shuffle_modes.mlir": "written in the older spelling: gpu-to-cubin was removed upstream",
    "async/chains.mlir": "MLIR 22 cannot lower async tokens/values carried by scf.for",
    # Files of the CPU-backend suite (not F's); reported, see bench/results/suite-*.md.
    "cpu/gpu_all_reduce.mlir": "a synchronous gpu.dealloc: gpu-to-llvm lowers only the async form",
    "cpu/gpu_host_ops.mlir": "synchronous gpu.alloc/memcpy/memset/dealloc: gpu-to-llvm lowers "
                             "only their async forms",
    "cpu/async_gpu_tokens.mlir": "!gpu.async.token values crossing async.execute: gpu-to-llvm runs "
                                 "before the bodies are outlined, which keep token arguments",
}
# CPU-only files whose behaviour is the embedded runner's on purpose.
NOT_UPSTREAM_RUNNABLE = {
    "cpu/async_errors.mlir": "upstream aborts on an awaited error; the embedded runner reports it",
    "async/errors_groups_values.mlir": "upstream aborts on an awaited error; the embedded "
                                       "runner reports it",
    "async/chains.mlir": "MLIR 22 cannot lower async tokens/values carried by scf.for",
}
GPU_WORDS = re.compile(r"mlir_cuda_runtime|cuda-runtime-wrappers|mlir-cuda-runner")


def _rel(path: Path) -> str:
    return path.relative_to(HERE).as_posix()


def _files() -> list[Path]:
    return sorted(p for p in HERE.rglob("*.mlir")
                  if p.relative_to(HERE).parts[0] not in SKIP_DIRS)


RUNNERS = {"mlir-runner", "mlir-cpu-runner", "gpurunner"}


def opt_prefix(command: str, path: Path) -> tuple[list[list[str]], bool]:
    """The leading `mlir-opt` stages of a RUN pipeline, substituted for upstream,
    and whether a runner consumes their output."""
    command = command.replace("%s", str(path)).replace("%gpu_compilation_format", "isa")
    stages = []
    for stage in command.split("|"):
        words = shlex.split(stage)
        if words and words[0] == "not":
            words = words[1:]
        if not words or words[0] != "mlir-opt":
            return stages, bool(stages and words and words[0] in RUNNERS)
        stages.append([str(MLIR_OPT), *words[1:]])
    return stages, False


def _lowers_upstream(path: Path) -> tuple[bool, str]:
    checked = 0
    for command in run_commands(path):
        data: bytes | None = None
        stages, to_runner = opt_prefix(command, path)
        if to_runner:
            stages.append([str(LLVM_BIN / "mlir-translate"), "--mlir-to-llvmir"])
        for argv in stages:
            res = subprocess.run(argv, input=data, capture_output=True, timeout=300)
            if res.returncode != 0:
                return False, f"{' '.join(argv)}:\n{res.stderr.decode(errors='replace')[:2000]}"
            data = res.stdout
            checked += 1
    return True, f"{checked} stage(s)"


OPT_FILES = [p for p in _files() if any(opt_prefix(c, p)[0] for c in run_commands(p))]


@pytest.mark.parametrize("path", OPT_FILES, ids=[_rel(p) for p in OPT_FILES])
def test_mlir_opt_stages_run_upstream(path: Path):
    ok, detail = _lowers_upstream(path)
    reason = NOT_LOWERABLE.get(_rel(path))
    if reason is not None:
        assert not ok, f"listed as not lowerable upstream ({reason}) but it lowers: {detail}"
        pytest.skip(f"not lowerable upstream: {reason}")
    assert ok, detail


def _cpu_only(path: Path) -> bool:
    return not GPU_WORDS.search(path.read_text())


CPU_FILES = [p for p in _files() if _cpu_only(p) and _rel(p) not in NOT_UPSTREAM_RUNNABLE]


@pytest.fixture(scope="module")
def system_run(tmp_path_factory) -> dict[str, tuple[str, str]]:
    """One pytest run of the CPU-only files with the real tools; outcome per file."""
    tmp = tmp_path_factory.mktemp("system")
    tools = tmp / "tools"
    tools.mkdir()
    # mlir-cpu-runner is the old name of mlir-runner (renamed in LLVM 20).
    (tools / "mlir-cpu-runner").symlink_to(LLVM_BIN / "mlir-runner")
    report = tmp / "report.xml"
    env = dict(os.environ)
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTEST_XDIST_WORKER", None)
    bindir = str(Path(sys.executable).parent)  # our console scripts (gpurunner) live here
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    cmd = [sys.executable, "-m", "pytest", *map(str, CPU_FILES), "-p", "no:cacheprovider",
           "-p", "no:randomly", "-q", "--gpurunner-tools=system",
           f"--gpurunner-tool-dir={tools}", f"--gpurunner-tool-dir={LLVM_BIN}",
           f"--junitxml={report}", "-o", "junit_family=xunit2"]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    outcomes: dict[str, tuple[str, str]] = {}
    if report.exists():
        for case in ET.parse(report).getroot().iter("testcase"):
            name = case.get("file") or case.get("classname", "")
            failure = case.find("failure")
            error = case.find("error")
            skipped = case.find("skipped")
            bad = failure if failure is not None else error
            if bad is not None:
                outcomes[name] = ("failed", (bad.get("message") or "") + (bad.text or ""))
            elif skipped is not None:
                outcomes[name] = ("skipped", skipped.get("message") or "")
            else:
                outcomes[name] = ("passed", "")
    outcomes["<log>"] = ("", proc.stdout[-4000:] + proc.stderr[-2000:])
    return outcomes


@pytest.mark.parametrize("path", CPU_FILES, ids=[_rel(p) for p in CPU_FILES])
def test_cpu_program_passes_with_upstream_tools(system_run, path: Path):
    key = path.relative_to(ROOT).as_posix()
    # junit names a .mlir test by its path with dots: integration_test.runner.x.mlir
    hits = [v for k, v in system_run.items() if k == key.replace("/", ".")]
    assert hits, f"{key} not in the system-mode report:\n{system_run['<log>'][1]}"
    outcome, detail = hits[0]
    assert outcome == "passed", f"{key} {outcome} with the real LLVM 22 tools:\n{detail[-3000:]}"
