"""Helpers the bench scripts share (run as `python bench/<script>.py`, so this
directory is on the import path)."""

from __future__ import annotations

import platform


def cpu_model() -> str:
    """The CPU's model name (Linux's /proc/cpuinfo), else what `platform` knows: the
    machine line every result file starts with."""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
