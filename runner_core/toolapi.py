"""The calling convention between the plug-in's shell and embedded tools.

An embedded tool is a plain function ``tool(argv, stdin, env, cwd) -> ToolResult``.
``argv[0]`` is the name the RUN line used (``mlir-cuda-runner`` and
``mlir-runner`` may mean different defaults).  Tools never touch the real
stdin/stdout of the process: bytes in, bytes out, like a subprocess, so the
shell can pipe them together without copying semantics.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class ToolResult:
    returncode: int
    stdout: bytes = b""
    stderr: bytes = b""
    # Free-form facts for reports (stages run, backend used, timings).
    info: dict = field(default_factory=dict)


EmbeddedTool = Callable[[list[str], bytes, Mapping[str, str], str], ToolResult]


# A runtime that leaves this *process* unable to run further programs correctly
# (a sticky CUDA error: the driver requires the process to be restarted) says so
# here.  Tools then report it as ``ToolResult.info["restart_process"]`` so that
# whoever runs many tools in one process (the plug-in's worker executor) replaces
# the process before the next job.
_unusable: list[str] = []


def mark_process_unusable(reason: str) -> None:
    if not _unusable:
        _unusable.append(reason)


def process_unusable() -> str | None:
    """Why this process must not run further programs, or ``None``."""
    return _unusable[0] if _unusable else None


# xDSL's parser, verifiers and printer and our code generator recurse once per
# nesting level (about 9 Python frames per region level in the parser), so the
# default limit of 1000 frames stops at ~110 nested scf.if.  Tools raise it for
# the duration of a call; parse.MAX_NESTING bounds the depth an input may reach
# (checked before parsing), which keeps the C stack needed far below 8 MiB.
RECURSION_LIMIT = 64000


@contextmanager
def recursion_headroom(limit: int = RECURSION_LIMIT) -> Iterator[None]:
    """Raise Python's recursion limit to ``limit`` while an embedded tool runs."""
    old = sys.getrecursionlimit()
    if old >= limit:
        yield
        return
    sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)
