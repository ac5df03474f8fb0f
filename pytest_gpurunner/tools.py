"""The tool table: which implementation answers a command name on a RUN line.

An *embedded* tool is a Python function following ``runner_core.toolapi``
(``tool(argv, stdin, env, cwd) -> ToolResult``) called in process: a Python
tool started as a process pays 0.1-0.5 s of interpreter start and imports, in
process it pays microseconds.  A *system* tool is an executable started as a
subprocess.  ``gpurunner_tools`` picks between them:

* ``embedded``: the embedded implementation where one is registered, executables
  for every other name;
* ``system``: executables only (tool directories first, then ``PATH``);
* ``auto``: the embedded implementation when it imports, else the executable;
* ``hybrid``: executables for the names that stand for real LLVM tools
  (``mlir-opt``, ``FileCheck``: ``LLVM_NAMES``), the embedded implementation for
  every other name, the runners above all.  This is the mode of a team with its
  own compiler build and no GPU-capable ``mlir-runner``: their real ``mlir-opt``
  lowers, our runner runs what it printed.
  The choice is printed in the report header, so it is never silent.

Embedded entries are dotted ``module:function`` paths, imported on first use:
the runner modules they name are optional, and a missing one fails the tests
that need it with a message instead of breaking collection.
"""

from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .job import ToolTable

RUNNER_TOOL = "runner_core.cli:tool_main"
OPT_TOOL = "runner_core.opt:tool_main"

DEFAULT_EMBEDDED: dict[str, str] = {
    "FileCheck": "pytest_gpurunner.llvm_filecheck:filecheck_tool",
    "filecheck": "pytest_gpurunner.filecheck_tool:filecheck_tool",
    "xdsl-opt": "pytest_gpurunner.xdsl_tools:xdsl_opt_tool",
    "xdsl-run": "pytest_gpurunner.xdsl_tools:xdsl_run_tool",
    "mlir-runner": RUNNER_TOOL,
    "mlir-cpu-runner": RUNNER_TOOL,
    "mlir-cuda-runner": RUNNER_TOOL,
    "gpurunner": RUNNER_TOOL,
    "mlir-opt": OPT_TOOL,
    "gpurunner-opt": OPT_TOOL,
}


# Embedded names that are stand-ins for LLVM executables: hybrid mode runs the real ones.
LLVM_NAMES = frozenset({"mlir-opt", "FileCheck"})


def wants_embedded(name: str, table: ToolTable) -> bool:
    """Whether the mode asks for the embedded implementation of ``name`` (if there is one)."""
    if table.mode == "system":
        return False
    if table.mode == "hybrid":
        return name not in LLVM_NAMES
    return True


class ToolError(Exception):
    """A command name cannot be resolved to anything runnable."""


@dataclass
class Resolved:
    kind: str  # embedded | system
    target: str  # dotted path / repr of the callable, or the executable path
    function: Callable | None = None


def describe_target(target: object) -> str:
    if isinstance(target, str):
        return target
    module = getattr(target, "__module__", "?")
    name = getattr(target, "__qualname__", repr(target))
    return f"{module}:{name}"


def load_embedded(target: object) -> Callable:
    """Import a ``module:function`` target; raise ToolError saying what failed.

    No cache of our own: ``sys.modules`` already makes a second import cheap, and
    a cache would outlive the pytest session that configured the table.
    """
    if callable(target):
        return target
    if not isinstance(target, str) or ":" not in target:
        raise ToolError(f"embedded tool target {target!r} is not 'module:function'")
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as err:  # an optional module that is absent or broken
        raise ToolError(
            f"cannot import {module_name} for the embedded tool {target}: "
            f"{type(err).__name__}: {err}"
        ) from None
    function = module
    for part in attr.split("."):
        function = getattr(function, part, None)
        if function is None:
            raise ToolError(f"{module_name} has no attribute {attr} (embedded tool {target})")
    return function


def find_executable(name: str, table: ToolTable, env: Mapping[str, str], cwd: str) -> str | None:
    if os.sep in name:
        path = name if os.path.isabs(name) else os.path.join(cwd, name)
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    for directory in table.tool_dirs:
        path = os.path.join(directory, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return shutil.which(name, path=env.get("PATH", os.defpath))


def resolve(name: str, table: ToolTable, env: Mapping[str, str], cwd: str) -> Resolved:
    target = table.embedded.get(name)
    if target is not None and wants_embedded(name, table):
        if table.mode in ("embedded", "hybrid"):
            return Resolved("embedded", describe_target(target), load_embedded(target))
        try:
            return Resolved("embedded", describe_target(target), load_embedded(target))
        except ToolError as err:
            path = find_executable(name, table, env, cwd)
            if path is None:
                raise ToolError(f"{name}: {err}; and no executable {name} on PATH either") from None
            return Resolved("system", path)
    path = find_executable(name, table, env, cwd)
    if path is None:
        where = ", ".join(table.tool_dirs + ["PATH"])
        extra = ""
        if target is not None:
            if table.mode == "hybrid":
                extra = (f" (gpurunner_tools=hybrid runs the real {name}, not the embedded "
                         f"{describe_target(target)}: add its directory to gpurunner_tool_dirs)")
            else:
                extra = f" (gpurunner_tools=system ignores the embedded {describe_target(target)})"
        raise ToolError(f"{name}: command not found (searched {where}){extra}")
    return Resolved("system", path)


def _detail(target: object) -> str:
    """What one of our own embedded tools says it is (its function's ``describe()``):
    e.g. which FileCheck binary answers ``FileCheck``.  Other targets are not imported."""
    if not (isinstance(target, str) and target.startswith("pytest_gpurunner.")):
        return ""
    try:
        describe = getattr(load_embedded(target), "describe", None)
    except ToolError:
        return ""
    return f" ({describe()})" if callable(describe) else ""


def describe_table(table: ToolTable, env: Mapping[str, str], cwd: str) -> list[str]:
    """One line per embedded-capable name saying what it resolves to now (report header)."""
    lines = []
    for name in sorted(table.embedded, key=str.lower):
        if table.mode == "embedded":  # no import needed to know the answer
            target = table.embedded[name]
            lines.append(f"{name}=embedded:{describe_target(target)}{_detail(target)}")
            continue
        try:
            res = resolve(name, table, env, cwd)
            detail = _detail(table.embedded[name]) if res.kind == "embedded" else ""
            lines.append(f"{name}={res.kind}:{res.target}{detail}")
        except ToolError as err:
            lines.append(f"{name}=unavailable ({str(err).splitlines()[0]})")
    return lines
