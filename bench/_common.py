"""Helpers the bench scripts share (run as `python bench/<script>.py`, so this
directory is on the import path)."""

from __future__ import annotations

import datetime as dt
import os
import platform
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


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


def write_result(stem: str, title: str, command: str, body: str, *, tools: str = "") -> Path:
    """Write ``results/<stem>-<date>.md``: the title and date, the machine line (CPU,
    cores, Python, llvmlite, then ``tools``), the command that produced it, then ``body``."""
    import llvmlite

    day = dt.date.today().isoformat()
    out = RESULTS / f"{stem}-{day}.md"
    extra = f", {tools}" if tools else ""
    out.write_text(f"# {title} — {day}\n\n"
                   f"Machine: {cpu_model()}, {os.cpu_count()} cores (shared), Python "
                   f"{platform.python_version()}, llvmlite {llvmlite.__version__}{extra}.\n"
                   f"Command: `{command}`\n\n{body}")
    print(f"wrote {out}")
    return out
