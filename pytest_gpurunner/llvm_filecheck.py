"""The embedded ``FileCheck``: LLVM's own FileCheck, shipped by the ``llvm-testing-tools`` wheel.

Why a binary and not the ``filecheck`` package: the package's matcher differs
from LLVM's in structure (CHECK-DAG holes, CHECK-NOT ranges, variable scope,
LABEL blocks, numeric expressions, ``--implicit-check-not``, ``--ignore-case``)
and its diagnostics are its own (0-based ``<stdin>:0:0``, no directive name, no
input dump).  Matching LLVM there means rewriting FileCheck; the wheel ships
LLVM's FileCheck itself (Apache-2.0 WITH LLVM-exception, ~1 MB, no libLLVM).
Started as a process it costs a few milliseconds more per check file than the
package in process, measured in ``bench/results/filecheck-*.md``; a test's
pipeline costs hundreds.  ``docs/design.md`` records the choice.

The wheel is tagged ``py3-none-any`` but its binary is an x86-64 Linux ELF, so
pyproject.toml asks for it only there.  Where it is missing or does not run, the
package adapter (``filecheck_tool.py``) answers through ``filecheck_fallback.py``,
which refuses the inputs it was measured to pass wrongly, and every failure it
reports says that its verdict and words are not LLVM's and how to get LLVM's.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from runner_core.toolapi import ToolResult

DISTRIBUTION = "llvm-testing-tools"


@dataclass(frozen=True)
class Binary:
    path: str
    version: str  # what `FileCheck --version` says, e.g. "23.0.0git"
    distribution: str  # e.g. "llvm-testing-tools 23.0.0"

    def describe(self) -> str:
        return f"LLVM FileCheck {self.version} from {self.distribution}"


@dataclass(frozen=True)
class Unavailable:
    reason: str

    def describe(self) -> str:
        return f"the filecheck package in process, not LLVM's: {self.reason}"


def _wheel_binary() -> str:
    """The FileCheck inside the installed wheel, or raise LookupError saying why not."""
    import importlib.resources

    try:
        root = importlib.resources.files("llvm_testing_tools")
    except ModuleNotFoundError:
        raise LookupError(f"{DISTRIBUTION} is not installed") from None
    path = os.path.join(str(root), "binaries", "FileCheck")
    if not os.path.isfile(path):
        raise LookupError(f"{DISTRIBUTION} has no binaries/FileCheck")
    return path


@lru_cache(maxsize=1)
def locate() -> Binary | Unavailable:
    """LLVM's FileCheck from the wheel, checked to run here (once per process)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        path = _wheel_binary()
    except LookupError as err:
        return Unavailable(str(err))
    try:
        dist = f"{DISTRIBUTION} {version(DISTRIBUTION)}"
    except PackageNotFoundError:
        dist = DISTRIBUTION
    try:
        probe = subprocess.run([path, "--version"], capture_output=True, timeout=30)
    except OSError as err:  # e.g. an x86-64 binary on another architecture
        return Unavailable(f"{dist}'s FileCheck does not run here: {err.strerror}")
    except subprocess.TimeoutExpired:
        return Unavailable(f"{dist}'s FileCheck --version did not answer in 30 s")
    found = re.search(rb"LLVM version (\S+)", probe.stdout)
    if probe.returncode != 0 or not found:
        return Unavailable(f"{dist}'s FileCheck --version failed (exit {probe.returncode})")
    return Binary(path, found.group(1).decode(), dist)


def describe() -> str:
    """What answers ``FileCheck`` in this process, for the report header."""
    return locate().describe()


def filecheck_tool(argv: list[str], stdin: bytes, env: Mapping[str, str], cwd: str) -> ToolResult:
    """``FileCheck`` as LLVM's binary answers it: same arguments, stdin, environment and cwd.

    ``FILECHECK_OPTS`` in ``env`` reaches the binary, as it does under lit.  A
    job's timeout interrupts ``subprocess.run``, which kills the child first.
    """
    found = locate()
    if isinstance(found, Unavailable):
        from .filecheck_fallback import fallback_filecheck

        result = fallback_filecheck(found.reason, argv, stdin, env, cwd)
        result.info["filecheck"] = found.describe()
        return result
    from runner_core import cache

    info: dict = {"filecheck": found.describe()}
    before = cache.counters()
    key = _cache_key(found, argv, stdin, env, cwd)
    hit = cache.get_json("filecheck", env, key) if key else None
    if isinstance(hit, list) and len(hit) == 3:
        info["cache"] = cache.delta(before)
        return ToolResult(int(hit[0]), hit[1].encode("latin-1"), hit[2].encode("latin-1"), info)
    # argv[0] stays the name on the RUN line: LLVM prints it in command-line errors.
    # No preexec_fn (lifeline's parent-death signal): with one, Python must fork() this
    # process (the worker: ~120 MB with xDSL and LLVM loaded) instead of vfork(), and a
    # start cost 24-27 ms instead of 6-10 ms (bench/results/suite-vs-lit-*.md), once per
    # FileCheck on every RUN line.  FileCheck cannot outlive us anyway: it reads its stdin
    # (our pipe) to the end and exits, and our end closes when we die; it stays in our
    # process group, which the plug-in kills with a worker.
    proc = subprocess.run([argv[0], *argv[1:]], executable=found.path, input=stdin,
                          capture_output=True, cwd=cwd, env=dict(env))
    if key and proc.returncode in (0, 1, 2):  # a signal is no answer to keep
        cache.put_json("filecheck", env, key, [proc.returncode, proc.stdout.decode("latin-1"),
                                               proc.stderr.decode("latin-1")])
    info["cache"] = cache.delta(before)
    return ToolResult(proc.returncode, proc.stdout, proc.stderr, info)


@lru_cache(maxsize=4)
def _digest(path: str) -> str:
    """The binary by content (once per process, ~1 MB): a wheel rebuilt under the same
    version string is another FileCheck."""
    import hashlib

    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return "unreadable"


def _cache_key(found: Binary, argv: list[str], stdin: bytes, env: Mapping[str, str],
               cwd: str) -> str | None:
    """FileCheck's answer depends on its command line, its input, ``FILECHECK_OPTS`` and
    the files it reads, which its command line names (the check file, ``--input-file``):
    every argument, or value after ``=``, that names a file here adds that file's
    content.  None (not cached) when such a file cannot be read."""
    from runner_core import cache

    parts: list[bytes | str] = [found.path, found.version, _digest(found.path), repr(list(argv)),
                                env.get("FILECHECK_OPTS", ""), stdin]
    for arg in argv[1:]:
        for word in {arg, arg.partition("=")[2]}:
            if not word:
                continue
            path = word if os.path.isabs(word) else os.path.join(cwd, word)
            if os.path.isfile(path):
                try:
                    with open(path, "rb") as fh:
                        parts += [path, fh.read()]
                except OSError:
                    return None
    return cache.make_key("filecheck", parts)


filecheck_tool.describe = describe  # read by tools.describe_table for the report header
