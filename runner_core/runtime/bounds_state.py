"""The run-time side of ``--bounds-check`` (``codegen/bounds.py`` emits the checks).

Kept apart from the code generator so that a run answered from the cache (which
never emits code) needs neither it nor xDSL: the engine asks whether checks are on
and collects the first violation through this module alone.
"""

from __future__ import annotations

import ctypes
from collections.abc import Mapping

ENV = "GPURUNNER_BOUNDS_CHECK"  # contract 3: the plug-in and users steer it by environment
_FALSE = ("", "0", "false", "no", "off")

# First violation of the current run: a char* to a malloc'd message, set by generated code.
_first = ctypes.c_void_p(0)


def requested(flag: bool, env: Mapping[str, str]) -> bool:
    """Checking is on when asked on the command line or by ``GPURUNNER_BOUNDS_CHECK``."""
    return bool(flag) or env.get(ENV, "").strip().lower() not in _FALSE


def first_violation_address() -> int:
    """Where generated code stores the first violation's message pointer."""
    return ctypes.addressof(_first)


def begin_run() -> None:
    """Forget an earlier run's violation (the engine calls this before the entry point)."""
    _first.value = None


def take_violation() -> str | None:
    """The first violation's message since :func:`begin_run`, if any (then cleared)."""
    addr = _first.value
    if not addr:
        return None
    _first.value = None
    return ctypes.string_at(addr).decode(errors="replace")
