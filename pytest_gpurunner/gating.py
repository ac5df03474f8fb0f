"""Which tests are unit, integration or GPU tests, and what happens to GPU tests here.

The GPU policy (``gpurunner_gpu``) decides per GPU test:

=========  =========================  ==========================
policy     GPU usable                 no GPU usable
=========  =========================  ==========================
auto       run on the GPU (cuda)      run on the CPU backend
emulate    run on the CPU backend     run on the CPU backend
skip       skip                       skip
require    run on the GPU (cuda)      fail: a GPU job must never
                                      pass by emulating or skipping
=========  =========================  ==========================

The runner learns the backend from ``GPURUNNER_BACKEND`` in the environment
of its tool call (contract 3 in docs/design.md), never from an edited command.
"""

from __future__ import annotations

import functools
import os
import platform
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .job import Node, Pipeline, Sequence

POLICIES = ("auto", "emulate", "skip", "require")
DEFAULT_RUNNER_TOOLS = ("mlir-runner", "mlir-cpu-runner", "mlir-cuda-runner", "mlir-rocm-runner",
                        "gpurunner", "xdsl-run", "lli")
# Command names and library names that only make sense with a GPU.
GPU_TOOLS = {"mlir-cuda-runner", "mlir-rocm-runner"}
GPU_RUNTIME = re.compile(r"mlir_cuda_runtime|mlir_rocm_runtime|cuda-runtime-wrappers|"
                         r"rocm-runtime-wrappers|mlir_sycl_runtime|mlir_levelzero_runtime")
GPU_FEATURES = {"gpu", "cuda", "rocm", "host-supports-nvptx", "host-supports-cuda"}
_PREFIXES = {"env", "not", "!", "--crash"}


@dataclass(frozen=True)
class GpuInfo:
    name: str
    compute_capability: str
    driver_version: str


_PROBED: tuple[GpuInfo | None, str] | None = None


def probe_gpu() -> tuple[GpuInfo | None, str]:
    """Ask the runner's cuda backend for a usable device, once per process.

    Returns (info, note); the note says why there is none, for the report header.
    """
    global _PROBED
    if _PROBED is not None:
        return _PROBED
    if os.environ.get("GPURUNNER_NO_GPU"):
        _PROBED = (None, "GPURUNNER_NO_GPU is set")
        return _PROBED
    from runner_core.backends import cuda

    try:
        device = cuda.BACKEND.probe()
    except Exception as err:  # probe() must not raise (contract 7); report it if it does
        _PROBED = (None, f"probe failed: {type(err).__name__}: {err}")
        return _PROBED
    if device is None:
        reason = cuda.BACKEND.unavailable_reason() or "no CUDA device usable"
        _PROBED = (None, reason.splitlines()[0])
        return _PROBED
    cc = ".".join(str(x) for x in device.compute_capability)
    _PROBED = (GpuInfo(device.name, cc, device.driver_version), "")
    return _PROBED


def visible_gpu_count() -> int:
    """How many CUDA devices this process sees (0 when none or no driver; never raises)."""
    from runner_core.backends.cuda import driver

    return driver.device_count()


def worker_gpu(worker_id: str, visible: list[str]) -> str | None:
    """The device an xdist worker (``gw3``) is pinned to: round-robin over the visible ones."""
    match = re.fullmatch(r"gw(\d+)", worker_id or "")
    if not match or not visible:
        return None
    return visible[int(match.group(1)) % len(visible)]


def host_features() -> set[str]:
    """Features lit's LLVM configuration would detect for this host, as far as they matter here."""
    features = {"gpurunner", "lit-max-individual-test-time"}
    system = platform.system().lower()
    if system:
        features.add(f"system-{system}")
    features.add(f"host-byteorder-{sys.byteorder}-endian")
    machine = platform.machine().lower()
    if machine:
        features.add(machine)
    if machine in ("x86_64", "amd64", "aarch64", "arm64"):
        features.add("host-supports-jit")
    # The compiler can emit PTX (lit: the NVPTX target is built): llvmlite's LLVM always
    # has it, and Debian's LLVM 22 too; a GPU to run it on is gated separately.
    features.add("host-supports-nvptx")
    if system == "linux" and machine:
        # lit adds `target=<triple>` (LLVM's default triple); RUN lines test it with
        # `%if target={{x86_64.*}} %{ ... %}`.
        vendor = "pc" if machine in ("x86_64", "i686") else "unknown"
        features.add(f"target={machine}-{vendor}-linux-gnu")
    return features


def gpu_features(info: GpuInfo | None) -> set[str]:
    return {"gpu", "cuda"} if info is not None else set()


# ----------------------------------------------------------------------------- classification


def command_names(node: Node | None) -> list[str]:
    """The program each command of a RUN line starts, past ``env``/``not`` prefixes."""
    names: list[str] = []
    if node is None:
        return names
    if isinstance(node, Sequence):
        return command_names(node.lhs) + command_names(node.rhs)
    assert isinstance(node, Pipeline)
    for cmd in node.commands:
        words = [w for w in cmd.args if isinstance(w, str)]
        i = 0
        while i < len(words):
            word = words[i]
            if word in _PREFIXES or (words[0] == "env" and "=" in word) or word in ("-u", "-i"):
                if word == "-u":
                    i += 1
                i += 1
                continue
            names.append(os.path.basename(word))
            break
    return names


@dataclass
class Classification:
    integration: bool
    gpu: bool
    reasons: list[str]


@functools.lru_cache(maxsize=64)
def _resolved_base(rootdir: Path, entry: str) -> Path:
    """An integration path, resolved once a session (not once a test file)."""
    base = Path(entry)
    return (base if base.is_absolute() else rootdir / base).resolve()


def classify(path: Path, rootdir: Path, texts: list[str], names: list[str],
             requires_gpu_feature: bool, integration_paths: list[str],
             runner_tools: set[str]) -> Classification:
    reasons = []
    integration = False
    resolved = path.resolve()
    for entry in integration_paths:
        try:
            resolved.relative_to(_resolved_base(rootdir, entry))
        except ValueError:
            continue
        integration = True
        reasons.append(f"lies under {entry}")
        break
    runners = sorted(set(names) & runner_tools)
    if runners:
        integration = True
        reasons.append(f"runs {', '.join(runners)}")
    gpu = False
    gpu_tools = sorted(set(names) & GPU_TOOLS)
    if gpu_tools:
        gpu = True
        reasons.append(f"uses {', '.join(gpu_tools)}")
    for text in texts:
        match = GPU_RUNTIME.search(text)
        if match:
            gpu = True
            reasons.append(f"names the GPU runtime {match.group(0)}")
            break
    if requires_gpu_feature:
        gpu = True
        reasons.append("requires a GPU feature")
    return Classification(integration, gpu, reasons)


# What the cpu backend does not emulate, so a GPU test using it is skipped there, naming
# the gap (issue 13): sm_90 features only hardware has, and the raw PTX warp
# instructions (`nvvm.elect.sync`, `nvvm.shfl.sync`) that it does not model.
_HARDWARE_ONLY = re.compile(r"\b(nvgpu\.tma\.[\w.]+|nvgpu\.warpgroup\.[\w.]+|"
                            r"nvgpu\.mbarrier\.[\w.]+|nvvm\.wgmma\.[\w.]+|"
                            r"nvvm\.cp\.async\.bulk[\w.]*)")
_RAW_PTX_WARP_OPS = re.compile(r"\b(nvvm\.elect\.sync|nvvm\.shfl\.sync)\b")


def hardware_only_gap(text: str) -> str | None:
    """The skip reason for a GPU test the cpu backend cannot emulate (None: it can)."""
    if m := _HARDWARE_ONLY.search(text):
        return (f"UNSUPPORTED on the cpu backend: '{m.group(1)}' (sm_90 TMA / wgmma / "
                f"mbarrier) needs a real GPU; run with --gpurunner-gpu=require on an sm_90 GPU")
    if m := _RAW_PTX_WARP_OPS.search(text):
        return (f"UNSUPPORTED on the cpu backend: '{m.group(1)}' is a PTX instruction the cpu "
                f"backend does not model; run with --gpurunner-gpu=require on an NVIDIA GPU")
    return None


@dataclass
class Decision:
    action: str  # run | skip | fail
    backend: str  # cpu | cuda
    where: str  # gpu | emulated | skipped | missing  (for the summary)
    reason: str = ""


def decide(policy: str, is_gpu_test: bool, info: GpuInfo | None) -> Decision:
    backend = "cuda" if info is not None and policy != "emulate" else "cpu"
    if not is_gpu_test:
        return Decision("run", backend, "")
    if policy == "skip":
        return Decision("skip", backend, "skipped", "GPU test skipped (gpurunner_gpu=skip)")
    if info is None:
        if policy == "require":
            return Decision("fail", backend, "missing",
                            "no usable GPU, and gpurunner_gpu=require forbids emulating or "
                            "skipping GPU tests")
        return Decision("run", "cpu", "emulated")
    if policy == "emulate":
        return Decision("run", "cpu", "emulated")
    return Decision("run", "cuda", "gpu")


# What the embedded runner's error says when a GPU test emulated on the cpu backend needs
# a real GPU (runner_core.backends.gpu_objects.NEEDS_GPU: a precompiled GPU object).
NEEDS_GPU = "(needs a GPU)"


def needs_gpu_reason(result) -> str:
    """The runner's error line when an emulated run failed only because it needs a GPU."""
    if result.status != "fail":
        return ""
    for stage in result.stages:
        if stage.kind != "embedded" or stage.returncode == 0:
            continue
        for line in stage.stderr.decode(errors="replace").splitlines():
            if NEEDS_GPU in line and "unsupported:" in line:
                return line.split("unsupported:", 1)[1].replace(NEEDS_GPU, "").strip()
    return ""
