"""Flake detection (``--gpurunner-repeat=N``): run a test N times under shaken schedules, compare.

Why.  A test that passes its CHECK lines while its program races is a flake
waiting to happen: upstream's GPU async test failed on more than 200 unrelated
pull requests before it was switched off (llvm-project issue 170833), and lit's
answer, ``ALLOW_RETRIES``, hides such tests instead of finding them.  So the
verdict here does not rest on the checks alone: every run's *outputs* must be
the same.

How.  Run 1 is the ordinary run (the environment as configured).  Runs 2..N
add ``GPURUNNER_PERTURB=<seed>`` to the tools' environment (contract 3), the
seed derived from the test id and the run number, so the same command line
replays the same seeds.  The embedded runner reads it in every scheduler it
has: the async runtime (random ready-task order, small delays), the CPU
backend (random block order) and the CUDA runtime (host delays and spin
kernels before work is enqueued on a stream).

What is compared: the outcome (status, exit code, the RUN line that failed)
and, for every command that ran, its exit code, stdout and stderr (outputs
redirected to files included), after masking what legitimately differs
between runs of a correct program: memref addresses printed by
``printMemref*`` (``base@ = 0x...``), and patterns from the ini key
``gpurunner_repeat_masks``.  Durations, pids and the executor are not part of
it.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
import shlex
from dataclasses import dataclass

from .job import JobResult
from .report import closing_lines, indent

PERTURB_VAR = "GPURUNNER_PERTURB"

# (pattern, replacement) applied to every stdout/stderr before comparing.
DEFAULT_MASKS: list[tuple[re.Pattern[bytes], bytes]] = [
    (re.compile(rb"base@ = 0x[0-9a-fA-F]+"), b"base@ = 0x<address>"),
]

_MAX_DIFF_LINES = 40
_MAX_GROUPS_SHOWN = 3


def run_seed(test_id: str, number: int) -> str | None:
    """The perturbation seed of run ``number`` (1-based) of a test; run 1 has none."""
    if number <= 1:
        return None
    return hashlib.sha256(f"{test_id}#{number}".encode()).hexdigest()[:12]


def compile_masks(lines: list[str]) -> list[tuple[re.Pattern[bytes], bytes]]:
    """Ini ``gpurunner_repeat_masks``: one regular expression per line, matches masked."""
    masks = list(DEFAULT_MASKS)
    for line in lines:
        text = line.strip()
        if not text:
            continue
        try:
            pattern = re.compile(text.encode())
        except re.error as err:
            raise ValueError(f"gpurunner_repeat_masks: {text!r}: {err}") from None
        masks.append((pattern, b"<masked>"))
    return masks


def _masked(data: bytes, masks) -> str:
    for pattern, replacement in masks:
        data = pattern.sub(replacement, data)
    return data.decode("utf-8", "replace")


def outcome_text(result: JobResult) -> str:
    """One line saying how a run ended (what a person compares first)."""
    if result.status == "pass":
        return "passed"
    if result.status == "fail":
        return f"failed: RUN at line {result.failed_lineno} exited {result.exit_code}"
    if result.status == "timeout":
        return "timed out"
    if result.status == "crash":
        return f"the process running it died (status {result.exit_code})"
    return f"could not be run: {result.message.splitlines()[0] if result.message else '?'}"


def observe(result: JobResult, masks) -> tuple[tuple[str, str], ...]:
    """What one run showed, as ``(label, text)`` pairs compared between runs."""
    items = [("outcome", outcome_text(result))]
    if result.status == "error":  # the shell's message is deterministic and says what
        items.append(("message", result.message))
    for stage in result.stages:
        name = os.path.basename(stage.argv[0]) if stage.argv else "?"
        where = (f"RUN at line {stage.lineno}, command {stage.index + 1}/"
                 f"{stage.pipeline_len} ({name})")
        items.append((f"{where}: exit code", f"{stage.returncode}\n"))
        items.append((f"{where}: stdout", _masked(stage.stdout, masks)))
        items.append((f"{where}: stderr", _masked(stage.stderr, masks)))
    return tuple(items)


@dataclass
class Run:
    number: int
    seed: str | None
    result: JobResult
    observed: tuple[tuple[str, str], ...]

    def label(self, configured_seed: str | None = None) -> str:
        if self.seed is not None:
            return f"run {self.number} ({PERTURB_VAR}={self.seed})"
        if configured_seed:
            return f"run {self.number} ({PERTURB_VAR}={configured_seed}, as configured)"
        return f"run {self.number} (unperturbed)"


@dataclass
class Verdict:
    runs: list[Run]
    groups: list[list[Run]]  # runs with identical observations, in order of first appearance
    planned: int  # N

    @property
    def flaky(self) -> bool:
        return len(self.groups) > 1

    @property
    def differing(self) -> list[Run]:
        return [r for g in self.groups[1:] for r in g]

    def summary(self) -> str:
        """One line for the terminal summary and the junit properties."""
        odd = self.differing
        seeds = ", ".join(f"{r.number}:{r.seed}" for r in odd[:5] if r.seed)
        more = " ..." if len(odd) > 5 else ""
        return (f"{len(odd)} of {len(self.runs)} runs differ from run 1 "
                f"({len(self.groups)} different outcomes; seeds {seeds}{more})")


def judge(runs: list[Run], planned: int) -> Verdict:
    groups: dict[tuple, list[Run]] = {}
    for run in runs:
        groups.setdefault(run.observed, []).append(run)
    return Verdict(runs, list(groups.values()), planned)


def _ranges(numbers: list[int]) -> str:
    parts, start, prev = [], None, None
    for n in numbers + [None]:
        if start is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    return ", ".join(parts)


def _diff(a: Run, b: Run, a_label: str, b_label: str) -> list[str]:
    """Unified diffs of every observation that differs between two runs."""
    left, right = dict(a.observed), dict(b.observed)
    keys = list(left) + [k for k in right if k not in left]
    out = []
    for key in keys:
        x, y = left.get(key), right.get(key)
        if x == y:
            continue
        if x is None or y is None:
            ran = a_label if x is not None else b_label
            out.append(f"{key}: only in {ran}")
            continue
        lines = list(difflib.unified_diff(x.splitlines(), y.splitlines(), a_label, b_label,
                                          lineterm="", n=2))
        if len(lines) > _MAX_DIFF_LINES:
            lines = lines[:_MAX_DIFF_LINES] + [f"... [{len(lines) - _MAX_DIFF_LINES} more "
                                               f"diff lines]"]
        out.append(f"{key}:")
        out.append(indent("\n".join(lines)))
    return out


def flaky_text(path: str, nodeid: str, verdict: Verdict, configured_seed: str | None,
               failure_of=None, notes: list[str] | None = None,
               tmp_dir: str | None = None) -> str:
    """The report of a flaky test: outcomes, which runs differ, diffs, seeds, how to replay."""
    runs, groups = verdict.runs, verdict.groups
    letters = [chr(ord("A") + i) if i < 26 else f"#{i + 1}" for i in range(len(groups))]
    parts = [f"{path}: FLAKY: the outputs of its {len(runs)} runs (--gpurunner-repeat="
             f"{verdict.planned}) differ: {len(groups)} different outcomes"]
    for letter, group in zip(letters, groups, strict=True):
        parts.append(f"  outcome {letter}: runs {_ranges([r.number for r in group])} "
                     f"({len(group)} of {len(runs)}): {outcome_text(group[0].result)}")
    if all(r.result.status == "pass" for r in runs):
        parts.append("  every run passed its checks: what differs is the output")
    reference = groups[0][0]
    ref_label = reference.label(configured_seed)
    for letter, group in list(zip(letters, groups, strict=True))[1:1 + _MAX_GROUPS_SHOWN]:
        other = group[0]
        other_label = other.label(configured_seed)
        parts.append(f"outcome {letter}, {other_label}, against outcome A, {ref_label}:")
        parts.extend(indent(line) for line in _diff(reference, other, ref_label, other_label))
    if len(groups) > 1 + _MAX_GROUPS_SHOWN:
        parts.append(f"({len(groups) - 1 - _MAX_GROUPS_SHOWN} more outcomes not shown)")
    seeds = [f"run {r.number}: {PERTURB_VAR}={r.seed}" for r in verdict.differing if r.seed]
    if seeds:
        parts.append("seeds of the runs that differ from run 1:")
        parts.append(indent("; ".join(seeds)))
    example = next((r for r in verdict.differing if r.seed), None) or \
        next((r for r in runs if r.seed), None)
    node = shlex.quote(nodeid)
    if example is not None:
        parts.append(f"to replay: {PERTURB_VAR}={example.seed} pytest {node}")
        parts.append(f"  or: pytest {node} --gpurunner-repeat={verdict.planned} (the same seeds)")
        parts.append("  (a seed fixes the runner's random choices, not the operating system's "
                     "thread timing: a replay may take a few tries)")
    if failure_of is not None:
        failing = next((r for g in groups for r in g[:1] if r.result.status != "pass"), None)
        if failing is not None:
            parts.append(f"how {failing.label(configured_seed)} failed:")
            parts.append(indent(failure_of(failing.result)))
    parts.extend(closing_lines(notes, tmp_dir, " (last run)"))
    return "\n".join(parts)
