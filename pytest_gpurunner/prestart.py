"""Whether to start the worker process at configure time, before pytest collects.

The worker's imports (xDSL, the code generator, llvmlite, the pass registry:
most of a second) are the longest step before the first integration test can
run.  Started when pytest configures, they run on another core while pytest
loads its other plug-ins, prints its header and collects; started when the
first integration test is collected (``collect.py``), they overlap only the
rest of the collection.

Starting early is a guess made before collection, so it is made only where
collection would very likely find an integration test (the same rules as
``gating.classify``): a path given on the command line (else the ini's
``testpaths``, else the invocation directory) that lies under, or contains, one
of ``gpurunner_integration_paths``, or a test file among its first few that
names a runner tool on a RUN line.  A run of unit tests alone starts no worker.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_SNIFF_FILES = 40  # test files read per directory argument before giving up
_SNIFF_BYTES = 16384


def wants_worker(paths: list[Path], rootdir: Path, integration_paths: list[str],
                 runner_tools: set[str], suffixes: tuple[str, ...]) -> bool:
    bases = [(Path(p) if Path(p).is_absolute() else rootdir / p).resolve()
             for p in integration_paths]
    runner = re.compile(r"RUN:.*(?<![\w.+-])(" + "|".join(
        re.escape(t) for t in sorted(runner_tools)) + r")(?![\w.+-])") if runner_tools else None
    for path in paths:
        try:
            path = path.resolve()
        except OSError:
            continue
        for base in bases:
            if path == base or base in path.parents or path in base.parents and base.exists():
                return True
        if runner is not None and _names_runner(path, runner, suffixes):
            return True
    return False


def _names_runner(path: Path, runner: re.Pattern, suffixes: tuple[str, ...]) -> bool:
    if path.is_file():
        return path.name.endswith(suffixes) and _sniff(path, runner)
    if not path.is_dir():
        return False
    seen = 0
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.endswith(suffixes):
                continue
            if _sniff(Path(dirpath, name), runner):
                return True
            seen += 1
            if seen >= _SNIFF_FILES:
                return False
    return False


def _sniff(path: Path, runner: re.Pattern) -> bool:
    try:
        with open(path, "rb") as fh:
            head = fh.read(_SNIFF_BYTES).decode("utf-8", "replace")
    except OSError:
        return False
    return bool(runner.search(head))
