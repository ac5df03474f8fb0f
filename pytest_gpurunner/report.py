"""Failure text a person can act on: which RUN line, what really ran, and what it said.

The same text is the pytest failure representation and therefore also what
``--junitxml`` records.
"""

from __future__ import annotations

import re
import shlex

from .job import JobResult, RunLine, StageResult

_MAX_LINES = 60


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def indent(text: str, prefix: str = "  ") -> str:
    return "\n".join(prefix + line if line else prefix.rstrip() for line in text.splitlines())


def closing_lines(notes: list[str] | None, tmp_dir: str | None, which: str = "") -> list[str]:
    """The last lines of a report: its notes, then the kept temporary directory
    (``which``: of which run, when there were several)."""
    lines = [f"note: {note}" for note in notes or []]
    if tmp_dir:
        lines.append(f"temporary directory kept{which}: {tmp_dir}")
    return lines


def _clip(text: str, limit: int = _MAX_LINES) -> str:
    lines = text.splitlines()
    if len(lines) <= limit:
        return text.rstrip("\n")
    head = lines[: limit // 2]
    tail = lines[-limit // 2:]
    return "\n".join(head + [f"... [{len(lines) - limit} lines omitted] ..."] + tail)


def _numbered(text: str, around: int | None = None, limit: int = 40) -> str:
    lines = text.splitlines()
    start = 0
    if around is not None and len(lines) > limit:
        start = max(0, min(around - limit // 2, len(lines) - limit))
    shown = lines[start:start + limit]
    width = len(str(start + len(shown)))
    out = [f"{start + i + 1:>{width}}: {line}" for i, line in enumerate(shown)]
    if start > 0:
        out.insert(0, f"... [{start} lines before]")
    if start + limit < len(lines):
        out.append(f"... [{len(lines) - start - limit} more lines]")
    return "\n".join(out)


def stage_line(stage: StageResult) -> str:
    argv = " ".join(shlex.quote(a) for a in stage.argv)
    if len(argv) > 160:
        argv = argv[:157] + "..."
    code = f"exit {stage.returncode}"
    if stage.raw_returncode != stage.returncode:
        code += f" (tool exited {stage.raw_returncode})"
    where = stage.kind if stage.kind in ("builtin", "env") else f"{stage.kind} {stage.target}"
    redirect = f" > {', '.join(stage.redirected)}" if stage.redirected else ""
    return (f"[{stage.index + 1}/{stage.pipeline_len}] {argv}{redirect}\n"
            f"      {where}; {code}; {stage.duration * 1000:.1f} ms")


def stages_summary(result: JobResult, lineno: int | None = None) -> str:
    rows = []
    current = None
    for stage in result.stages:
        if lineno is not None and stage.lineno != lineno:
            continue
        if stage.lineno != current:
            current = stage.lineno
            rows.append(f"RUN at line {stage.lineno}:")
        rows.append(indent(stage_line(stage)))
    return "\n".join(rows)


def _input_line(stderr: str) -> int | None:
    """The input line a FileCheck failure is about, to centre the numbered input on.

    LLVM FileCheck's error line names the *check file*; the input positions are
    on its notes (``<stdin>:3:1: note: possible intended match here``, ``scanning
    from here``, ``found here``): the intended match is the most telling.  The
    filecheck package says ``Current position at <stdin>:LINE:COL``.
    """
    notes = re.findall(r"^(?:<stdin>|\S+?):(\d+):\d+: note: (.*)$", stderr, re.M)
    for line, text in notes:
        if text.startswith("possible intended match"):
            return int(line)
    if notes:
        return int(notes[0][0])
    match = re.search(r"(?:<stdin>|[^\s:]+):(\d+):\d+", stderr.split("Current position at", 1)[-1])
    return int(match.group(1)) if match else None


def _headline(message: str) -> tuple[str, str]:
    """``message`` split at its first ``; `` outside parentheses: (headline, detail)."""
    depth = 0
    for i, char in enumerate(message):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and message.startswith("; ", i):
            return message[:i], message[i + 2:]
    return message, ""


def failure_text(path: str, lines: list[RunLine], result: JobResult, tmp_dir: str | None,
                 attempts: int = 1, notes: list[str] | None = None) -> str:
    by_line = {line.lineno: line for line in lines}
    line = by_line.get(result.failed_lineno) if result.failed_lineno else None
    headline, detail = _headline(result.message)
    if result.status == "fail":
        headline = f"RUN at line {result.failed_lineno} failed with exit code {result.exit_code}"
        detail = ""
    elif result.status == "crash":
        headline, detail = "the process running the test died", result.message
    elif result.status == "error":
        headline, detail = "the RUN script could not be run as written", result.message
    location = f"{path}:{result.failed_lineno}" if result.failed_lineno else path
    parts = [f"{location}: {headline}"]
    if detail:
        parts.append(detail)
    if attempts > 1:
        parts.append(f"(failed on each of {attempts} attempts allowed by ALLOW_RETRIES)")
    if line is not None:
        parts.append(f"  as written:         {line.source}")
        parts.append(f"  after substitution: {line.command}")

    here = [s for s in result.stages if s.lineno == result.failed_lineno]
    if here:
        parts.append(f"stages (executor: {result.executor}):")
        parts.append(indent(stages_summary(result, result.failed_lineno)))
    # After a timeout, what the stages said is not the story (the last one was stopped,
    # or went on after its alarm was swallowed): the table above says what ran.
    failing = [] if result.status == "timeout" else (
        [s for s in here if s.returncode != 0] or here[-1:])
    for stage in failing:
        name = stage.argv[0] if stage.argv else "?"
        if stage.after_failed_stage:
            # Whatever it said about an empty input (no entry point, no CHECK match...)
            # points away from the stage that failed.
            parts.append(f"stage {stage.index + 1} ({name}): no input: the previous stage failed")
            continue
        if stage.stderr.strip():
            parts.append(f"stderr of stage {stage.index + 1} ({name}):")
            parts.append(indent(_clip(_text(stage.stderr))))
        if stage.stdout.strip() and stage.index == stage.pipeline_len - 1:
            parts.append(f"stdout of stage {stage.index + 1} ({name}):")
            parts.append(indent(_clip(_text(stage.stdout))))
        if stage.stdin:
            text = _text(stage.stdin)
            parts.append(f"input of stage {stage.index + 1} ({name}), "
                         f"{len(text.splitlines())} lines:")
            parts.append(indent(_numbered(text, _input_line(_text(stage.stderr)))))
        if stage.crashed:
            parts.append(f"stage {stage.index + 1} was killed by signal {-stage.raw_returncode}")
    parts.extend(closing_lines(notes, tmp_dir))
    return "\n".join(parts)
