"""The plug-in's configuration: command-line options, ini keys and per-directory conftest hooks.

Precedence: a command-line option beats its ini key, which beats the default.
Per-directory settings come from ``pytest_gpurunner_local_config`` hooks in
``conftest.py`` files (the pytest counterpart of ``lit.local.cfg``): each one
receives the configuration its parent directory ended with and changes it,
outermost conftest first, exactly like lit's local configs.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from . import gating, tools
from .job import ToolTable

TOOL_MODES = ("embedded", "system", "auto", "hybrid")
# Integration tests run generated code, which can hang: unless told otherwise, none may
# hold a CI machine longer than this.  Unit tests run our own Python code in process.
DEFAULT_TIMEOUT = 600.0
DEFAULT_TIMEOUT_NOTE = "the default; set gpurunner_timeout"
EXECUTORS = ("auto", "inprocess", "worker")


@dataclass
class LocalConfig:
    """What a directory's conftest may change (``pytest_gpurunner_local_config(local, path)``).

    ``substitutions`` is lit's ordered list of ``(regex, replacement)``; the
    first pattern that matches wins, lit's own ``%s %S %t %p ...`` come after
    it.  Use ``add_substitution`` for a literal name.
    """

    substitutions: list[tuple[str, str]] = field(default_factory=list)
    features: set[str] = field(default_factory=set)
    environment: dict[str, str] = field(default_factory=dict)
    tools: dict[str, object] = field(default_factory=dict)
    unsupported: bool = False
    timeout: float | None = None

    def add_substitution(self, name: str, value: str, first: bool = False) -> None:
        entry = (re.escape(name), value)
        if first:
            self.substitutions.insert(0, entry)
        else:
            self.substitutions.append(entry)

    def copy(self) -> LocalConfig:
        return LocalConfig(list(self.substitutions), set(self.features), dict(self.environment),
                           dict(self.tools), self.unsupported, self.timeout)


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("gpurunner", "lit-style .mlir tests (pytest-gpurunner)")
    group.addoption("--gpurunner-tools", choices=TOOL_MODES, default=None,
                    help="embedded: in-process tools where available (default); system: "
                         "executables only; auto: embedded when importable, else executables; "
                         "hybrid: real mlir-opt/FileCheck executables, the embedded runner")
    group.addoption("--gpurunner-tool-dir", action="append", default=None, metavar="DIR",
                    help="directory searched for executables before PATH (repeatable), "
                         "e.g. /usr/lib/llvm-22/bin")
    group.addoption("--gpurunner-gpu", choices=gating.POLICIES, default=None,
                    help="GPU tests: auto (GPU if usable, else CPU backend), emulate (CPU "
                         "backend), skip, require (fail when no GPU is usable)")
    group.addoption("--gpurunner-timeout", type=float, default=None, metavar="SECONDS",
                    help="per-test timeout for the whole RUN script (0: none; default: "
                         f"{DEFAULT_TIMEOUT:g} s for integration tests, none for unit tests)")
    group.addoption("--gpurunner-executor", choices=EXECUTORS, default=None,
                    help="auto: unit tests in process, integration tests in a worker process")
    group.addoption("--gpurunner-feature", action="append", default=None, metavar="NAME",
                    help="add a lit feature (repeatable)")
    group.addoption("--gpurunner-device", default=None, metavar="N",
                    help="CUDA device (among the visible ones) GPU tests run on, passed to the "
                         "runner as GPURUNNER_DEVICE")
    group.addoption("--gpurunner-cache-dir", default=None, metavar="DIR",
                    help="directory of the compiled GPU kernels and of the embedded tools' "
                         "content-keyed results, passed to the tools as GPURUNNER_CACHE_DIR "
                         "(an empty value disables the caches)")
    group.addoption("--gpurunner-bounds-check", action="store_true", default=None,
                    help="embedded runner: check every memref access at run time (passed as "
                         "GPURUNNER_BOUNDS_CHECK=1; ini gpurunner_bounds_check)")
    group.addoption("--gpurunner-repeat", type=int, default=None, metavar="N",
                    help="flake detection: run each integration test N times (runs 2..N with "
                         "GPURUNNER_PERTURB=<seed> shaking the runner's schedules); a test whose "
                         "outputs differ between runs fails as flaky (ini gpurunner_repeat)")
    group.addoption("--gpurunner-keep-tmp", action="store_true", default=False,
                    help="keep every test's %t directory, not only those of failed tests")

    parser.addini("gpurunner_suffixes", "file suffixes collected as lit-style tests",
                  type="args", default=[".mlir"])
    parser.addini("gpurunner_features", "lit features available to REQUIRES/UNSUPPORTED/XFAIL",
                  type="args", default=[])
    parser.addini("gpurunner_substitutions", "extra substitutions, one 'NAME = VALUE' per line",
                  type="linelist", default=[])
    parser.addini("gpurunner_environment", "environment for RUN lines, one 'KEY=VALUE' per line",
                  type="linelist", default=[])
    parser.addini("gpurunner_integration_paths",
                  "paths (relative to rootdir) whose tests are integration tests",
                  type="args", default=["integration_test"])
    parser.addini("gpurunner_runner_tools",
                  "commands that make a test an integration test",
                  type="args", default=list(gating.DEFAULT_RUNNER_TOOLS))
    parser.addini("gpurunner_tools", "embedded | system | auto | hybrid", default="embedded")
    parser.addini("gpurunner_tool_dirs", "directories searched for executables before PATH",
                  type="args", default=[])
    parser.addini("gpurunner_embedded_tools",
                  "extra embedded tools, one 'NAME = module:function' per line",
                  type="linelist", default=[])
    parser.addini("gpurunner_gpu", "auto | emulate | skip | require", default="auto")
    parser.addini("gpurunner_timeout", "per-test timeout in seconds (0: none; unset: "
                  f"{DEFAULT_TIMEOUT:g} s for integration tests)", default="")
    parser.addini("gpurunner_executor", "auto | inprocess | worker", default="auto")
    parser.addini("gpurunner_mlir_lib_dir",
                  "value of %mlir_lib_dir (default: the built-in runtimes, or the system "
                  "LLVM's lib directory when the runner is a system executable)", default="")
    parser.addini("gpurunner_gpu_compilation_format", "value of %gpu_compilation_format "
                  "(default: fatbin; isa in hybrid tools mode)", default="")
    parser.addini("gpurunner_recursive_expansion_limit",
                  "lit's recursiveExpansionLimit (empty: substitutions are applied once)",
                  default="")
    parser.addini("gpurunner_bounds_check",
                  "check every memref access at run time (GPURUNNER_BOUNDS_CHECK=1)",
                  type="bool", default=False)
    parser.addini("gpurunner_repeat",
                  "flake detection: runs of each integration test (1: no repetition)",
                  default="1")
    parser.addini("gpurunner_repeat_masks",
                  "repeat mode: regular expressions, one per line, whose matches in outputs "
                  "are ignored when runs are compared", type="linelist", default=[])
    parser.addini("gpurunner_pin_gpus",
                  "under xdist, give each worker its own GPU through CUDA_VISIBLE_DEVICES",
                  type="bool", default=True)


def _choice(config: pytest.Config, option: str, ini: str, allowed: tuple[str, ...]) -> str:
    value = config.getoption(option)
    if value is None:
        value = str(config.getini(ini)).strip()
    if value not in allowed:
        raise pytest.UsageError(f"{ini} = {value!r}: expected one of {', '.join(allowed)}")
    return value


def _pairs(lines: list[str], key: str, sep: str = "=") -> list[tuple[str, str]]:
    pairs = []
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, found, value = line.partition(sep)
        if not found or not name.strip():
            raise pytest.UsageError(f"{key}: expected 'NAME {sep} VALUE', got {line!r}")
        pairs.append((name.strip(), value.strip()))
    return pairs


@dataclass
class Settings:
    suffixes: tuple[str, ...]
    features: set[str]
    integration_paths: list[str]
    runner_tools: set[str]
    tools: ToolTable
    gpu_policy: str
    timeout: float | None  # None: no limit, or not configured (then see timeout_configured)
    executor: str
    environment: dict[str, str]
    base_local: LocalConfig
    recursion_limit: int | None
    keep_tmp: bool
    rootdir: Path
    mlir_lib_dir: str
    runtime_note: str
    gpu: gating.GpuInfo | None = None
    gpu_note: str = ""
    pinned_gpu: str | None = None
    repeat: int = 1
    repeat_masks: list = field(default_factory=list)
    timeout_configured: bool = True  # False: integration tests get DEFAULT_TIMEOUT
    compilation_format_configured: bool = True
    hybrid_format: str = ""  # what hybrid mode chose for %gpu_compilation_format


def hybrid_compilation_format(s: Settings, gpu_runs: bool) -> str:
    """Hybrid mode's ``%gpu_compilation_format`` unless configured: a real mlir-opt
    serialises the kernels; ``isa`` (PTX: no ptxas needed for the default chip, the driver
    JIT-compiles it for the GPU) when GPU tests run on a GPU, else ``llvm`` (the bitcode
    the cpu backend runs).  Returns the format chosen ('' when not hybrid's choice)."""
    if s.tools.mode != "hybrid" or s.compilation_format_configured:
        return ""
    fmt = "isa" if gpu_runs else "llvm"
    key = re.escape("%gpu_compilation_format")
    s.base_local.substitutions = [(k, fmt if k == key else v)
                                  for k, v in s.base_local.substitutions]
    return fmt


def _number(config: pytest.Config, name: str, convert, default: str, expected: str):
    """Option ``name`` from the command line, else from the ini (``default`` when empty)."""
    value = config.getoption(name)
    if value is None:
        raw = str(config.getini(name)).strip() or default
        try:
            value = convert(raw)
        except ValueError:
            raise pytest.UsageError(f"{name} = {raw!r}: expected {expected}") from None
    return value


def _timeout(config: pytest.Config) -> tuple[float | None, bool]:
    """(timeout or None for no limit, whether the option or the ini key set it)."""
    configured = (config.getoption("gpurunner_timeout") is not None
                  or bool(str(config.getini("gpurunner_timeout")).strip()))
    value = _number(config, "gpurunner_timeout", float, "0", "seconds")
    if value < 0:
        raise pytest.UsageError("gpurunner timeout must not be negative")
    return value or None, configured


def _repeat(config: pytest.Config) -> int:
    value = _number(config, "gpurunner_repeat", int, "1", "a number of runs")
    if value < 1:
        raise pytest.UsageError(f"--gpurunner-repeat={value}: expected at least 1 run")
    return value


def _repeat_masks(config: pytest.Config) -> list:
    from .repeat import compile_masks

    try:
        return compile_masks(list(config.getini("gpurunner_repeat_masks")))
    except ValueError as err:
        raise pytest.UsageError(str(err)) from None


def _runtime_substitutions(lib_dir: str, compilation_format: str) -> list[tuple[str, str]]:
    """Upstream MLIR's runtime names and the seed's 2021 names, longest first."""
    ext = ".dylib" if sys.platform == "darwin" else ".dll" if os.name == "nt" else ".so"
    libs = {
        "%mlir_c_runner_utils": "mlir_c_runner_utils",
        "%mlir_runner_utils": "mlir_runner_utils",
        "%mlir_async_runtime": "mlir_async_runtime",
        "%mlir_cuda_runtime": "mlir_cuda_runtime",
        "%mlir_rocm_runtime": "mlir_rocm_runtime",
    }
    subs = [(name, os.path.join(lib_dir, f"lib{lib}{ext}")) for name, lib in libs.items()]
    subs += [
        ("%cuda_wrapper_library_dir", lib_dir),
        ("%linalg_test_lib_dir", lib_dir),
        ("%mlir_lib_dir", lib_dir),
        ("%gpu_compilation_format", compilation_format),
        ("%shlibext", ext),
    ]
    subs.sort(key=lambda pair: -len(pair[0]))
    return [(re.escape(name), value) for name, value in subs]


BUILTIN_LIB_DIR = "/gpurunner-builtin-runtime/lib"


def _lib_dir(config: pytest.Config, table: ToolTable) -> tuple[str, str]:
    configured = str(config.getini("gpurunner_mlir_lib_dir")).strip()
    if configured:
        return configured, "gpurunner_mlir_lib_dir"
    # Where the runner itself will come from decides what the library names must mean.
    if table.mode in ("embedded", "hybrid") and "mlir-runner" in table.embedded:
        return BUILTIN_LIB_DIR, "built-in runtime providers (no such directory on disk)"
    try:
        runner = tools.resolve("mlir-runner", table, os.environ, str(config.rootpath))
    except tools.ToolError:
        runner = None
    if runner is not None and runner.kind == "system":
        lib = os.path.normpath(os.path.join(os.path.dirname(os.path.realpath(runner.target)),
                                            "..", "lib"))
        return lib, f"next to {runner.target}"
    return BUILTIN_LIB_DIR, "built-in runtime providers (no such directory on disk)"


def build(config: pytest.Config) -> Settings:
    mode = _choice(config, "gpurunner_tools", "gpurunner_tools", TOOL_MODES)
    dirs = config.getoption("gpurunner_tool_dir") or list(config.getini("gpurunner_tool_dirs"))
    embedded = dict(tools.DEFAULT_EMBEDDED)
    embedded.update(_pairs(config.getini("gpurunner_embedded_tools"), "gpurunner_embedded_tools"))
    table = ToolTable(mode, embedded, [str(Path(d).expanduser()) for d in dirs])

    features = gating.host_features()
    features.update(config.getini("gpurunner_features"))
    features.update(config.getoption("gpurunner_feature") or [])

    limit_raw = str(config.getini("gpurunner_recursive_expansion_limit")).strip()
    try:
        limit = int(limit_raw) if limit_raw else None
    except ValueError:
        raise pytest.UsageError(
            f"gpurunner_recursive_expansion_limit = {limit_raw!r}: expected an integer") from None

    environment = dict(_pairs(config.getini("gpurunner_environment"), "gpurunner_environment"))
    device = config.getoption("gpurunner_device")
    if device is not None:
        if not device.strip().isdigit():
            raise pytest.UsageError(f"--gpurunner-device={device!r}: expected a device number")
        environment["GPURUNNER_DEVICE"] = device.strip()
    cache_dir = config.getoption("gpurunner_cache_dir")
    if cache_dir is not None:  # contract 3: the runner reads it from the tool's environment
        environment["GPURUNNER_CACHE_DIR"] = (str(Path(cache_dir).expanduser().resolve())
                                              if cache_dir.strip() else "")

    if mode == "hybrid":  # contract 3: the runner stands in for the real mlir-runner
        environment.setdefault("GPURUNNER_LLVM_ONLY", "1")
    bounds_check = config.getoption("gpurunner_bounds_check")
    if bounds_check is None:
        bounds_check = config.getini("gpurunner_bounds_check")
    if bounds_check:  # contract 3, like the cache directory
        environment["GPURUNNER_BOUNDS_CHECK"] = "1"

    timeout, timeout_configured = _timeout(config)
    lib_dir, lib_note = _lib_dir(config, table)
    base = LocalConfig()
    for name, value in _pairs(config.getini("gpurunner_substitutions"), "gpurunner_substitutions"):
        base.add_substitution(name, value)
    configured_format = str(config.getini("gpurunner_gpu_compilation_format")).strip()
    base.substitutions += _runtime_substitutions(
        lib_dir, configured_format or ("isa" if mode == "hybrid" else "fatbin"))

    return Settings(
        suffixes=tuple(config.getini("gpurunner_suffixes")),
        features=features,
        integration_paths=list(config.getini("gpurunner_integration_paths")),
        runner_tools=set(config.getini("gpurunner_runner_tools")),
        tools=table,
        gpu_policy=_choice(config, "gpurunner_gpu", "gpurunner_gpu", gating.POLICIES),
        timeout=timeout,
        timeout_configured=timeout_configured,
        executor=_choice(config, "gpurunner_executor", "gpurunner_executor", EXECUTORS),
        environment=environment,
        base_local=base,
        recursion_limit=limit,
        keep_tmp=bool(config.getoption("gpurunner_keep_tmp")),
        rootdir=Path(config.rootpath),
        mlir_lib_dir=lib_dir,
        runtime_note=lib_note,
        repeat=_repeat(config),
        repeat_masks=_repeat_masks(config),
        compilation_format_configured=bool(configured_format),
    )
