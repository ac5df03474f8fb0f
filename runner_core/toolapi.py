"""The calling convention between the plug-in's shell and embedded tools.

An embedded tool is a plain function ``tool(argv, stdin, env, cwd) -> ToolResult``.
``argv[0]`` is the name the RUN line used (``mlir-cuda-runner`` and
``mlir-runner`` may mean different defaults).  Tools never touch the real
stdin/stdout of the process: bytes in, bytes out, like a subprocess, so the
shell can pipe them together without copying semantics.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
