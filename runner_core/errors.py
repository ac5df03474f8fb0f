"""Errors meant for the person running a test.

Every failure the runner can anticipate is raised as a ``RunnerError`` whose
``str()`` is the complete, user-facing message.  Command-line entry points and
the plug-in print that message and exit non-zero; they never show a Python
traceback for these.  Anything else escaping is an internal error (a bug).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SourceLocation:
    """A point in an input file, 1-based like MLIR's ``loc("file":line:col)``."""

    filename: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.column}"


class RunnerError(Exception):
    """An anticipated failure; ``str(err)`` is the whole message for the user."""

    exit_code = 1


class IRError(RunnerError):
    """Malformed or invalid IR, reported like mlir-opt: ``file:line:col: error: ...``."""

    def __init__(self, message: str, location: SourceLocation | None = None,
                 source_line: str | None = None):
        self.message = message
        self.location = location
        self.source_line = source_line
        super().__init__(format_diagnostic(message, location, source_line))


class UnsupportedError(RunnerError):
    """A construct the embedded runner does not implement; names the op and where it is."""

    def __init__(self, what: str, location: SourceLocation | None = None, hint: str = ""):
        self.what = what
        self.location = location
        msg = format_diagnostic(f"unsupported: {what}", location, None)
        if hint:
            msg += f"\n  note: {hint}"
        super().__init__(msg)


class ExecutionError(RunnerError):
    """A failure while the program runs (assertion, device fault, runtime error)."""


def format_diagnostic(message: str, location: SourceLocation | None,
                      source_line: str | None, severity: str = "error") -> str:
    """Render a diagnostic the way mlir-opt does: header, source line, caret."""
    head = f"{location}: {severity}: {message}" if location else f"{severity}: {message}"
    if location is None or source_line is None:
        return head
    line, column = _clip(source_line.rstrip("\n"), location.column)
    caret = " " * max(column - 1, 0) + "^"
    return f"{head}\n{line}\n{caret}"


# Longest source line quoted whole; longer ones (minified or generated IR, one op per
# file line not guaranteed) are cut to a window around the column, so a diagnostic
# stays a few hundred bytes.
MAX_QUOTED_LINE = 160


def _clip(line: str, column: int) -> tuple[str, int]:
    """The part of ``line`` to quote and the column of the caret in it."""
    # Control characters would move the caret (or start new lines in a terminal).
    line = "".join(c if c.isprintable() or c == "\t" else "?" for c in line)
    if len(line) <= MAX_QUOTED_LINE:
        return line, column
    start = max(0, min(column - 1 - MAX_QUOTED_LINE // 2, len(line) - MAX_QUOTED_LINE))
    prefix = "..." if start > 0 else ""
    suffix = "..." if start + MAX_QUOTED_LINE < len(line) else ""
    return prefix + line[start:start + MAX_QUOTED_LINE] + suffix, column - start + len(prefix)
