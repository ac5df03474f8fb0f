"""RUN lines where the output of a lowering pass the embedded mlir-opt records reaches
something other than a runner.

The embedded ``mlir-opt`` records upstream lowerings (``convert-scf-to-cf``...)
instead of running them; only the runners know what to do with that.  A
``FileCheck`` (or ``mlir-translate``, ``cat``...) reading that output would
judge IR the real pass never produces, so such a line must not be judged by
the embedded tools: it runs with the real tools when they are installed, and
the test is skipped, saying why, when they are not.  Found statically, from the
parsed RUN lines, before anything runs.

Only the upstream name ``mlir-opt`` is concerned: ``gpurunner-opt`` is our own
tool, whose recording is its documented behaviour.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass

from . import tools as _tools
from .job import Command, Glob, Job, Pipeline, RunLine, Sequence, ToolTable

OPT_NAMES = frozenset({"mlir-opt"})
# Consumers that read recorded passes as intended (they lower themselves).
RUNNER_NAMES = frozenset({"mlir-runner", "mlir-cpu-runner", "mlir-cuda-runner", "gpurunner",
                          "mlir-opt", "gpurunner-opt"})
_PREFIXES = {"not", "!", "--crash"}


@dataclass(frozen=True)
class Finding:
    lineno: int
    passes: tuple[str, ...]  # the recorded lowerings
    consumer: str  # what reads their output

    def text(self) -> str:
        names = ", ".join(f"'{p}'" for p in self.passes)
        plural = "es" if len(self.passes) > 1 else ""
        return (f"RUN at line {self.lineno}: the output of the lowering pass{plural} {names} "
                f"reaches {self.consumer}; the embedded mlir-opt records such passes "
                f"instead of running them, so {self.consumer} would read IR the real pass "
                f"never produces")


def _words(command: Command) -> list[str]:
    """The command's argv past `not`/`env VAR=...` prefixes (globs dropped)."""
    words = [w for w in command.args if not isinstance(w, Glob)]
    i = 0
    while i < len(words) and (words[i] in _PREFIXES or (words[0] == "env" and (
            words[i] == "env" or "=" in words[i]))):
        i += 1
    return words[i:]


def recorded_passes(argv: list[str]) -> list[str]:
    """The upstream lowerings an embedded ``mlir-opt`` command line would record."""
    try:
        from runner_core.passes.pipeline_text import PassError, parse_pipeline_tree
        from runner_core.passes.registry import is_deferred
    except ImportError:  # no embedded mlir-opt here: nothing is recorded
        return []

    found: list[str] = []
    i = 1
    while i < len(argv):
        arg = argv[i]
        i += 1
        if not arg.startswith("-") or arg == "-":
            continue
        name, eq, value = arg.lstrip("-").partition("=")
        if name == "pass-pipeline":
            if not eq and i < len(argv):
                value, i = argv[i], i + 1
            try:
                tree = parse_pipeline_tree(value.strip("'\""))
            except PassError:
                continue  # mlir-opt itself reports the bad pipeline
            found += [p.name for p in tree.passes() if is_deferred(p.name)]
        elif is_deferred(name):
            found.append(name)
    return found


def _embedded_opt(name: str, table: ToolTable) -> bool:
    return name in OPT_NAMES and table.mode != "system" and name in table.embedded


def scan_line(line: RunLine, table: ToolTable
              ) -> tuple[list[Finding], dict[str, tuple[str, ...]]]:
    """Findings of one RUN line's pipes, and the files its recording stages write."""
    out: list[Finding] = []
    tainted_files: dict[str, tuple[str, ...]] = {}

    def pipeline(node: Pipeline) -> None:
        taint: tuple[str, ...] = ()
        for command in node.commands:
            argv = _words(command)
            if not argv:
                taint = ()
                continue
            name = os.path.basename(argv[0])
            reads = [a for a in argv[1:] if a in tainted_files]
            reads += [str(r.target) for r in command.redirects
                      if r.op == "<" and str(r.target) in tainted_files]
            if name not in RUNNER_NAMES:
                for path in reads:
                    out.append(Finding(line.lineno, tainted_files[path], name))
                if taint:
                    out.append(Finding(line.lineno, taint, name))
                taint = ()
                continue
            if _embedded_opt(name, table):
                taint = tuple(dict.fromkeys(
                    taint + tuple(recorded_passes(argv))
                    + tuple(p for path in reads for p in tainted_files[path])))
                written = [r for r in command.redirects
                           if r.op in (">", ">>") and r.fd in (None, 1)]
                out_file = _output_option(argv)
                for target in [str(r.target) for r in written] + ([out_file] if out_file else []):
                    if taint:
                        tainted_files[target] = taint
            else:
                taint = ()  # a runner consumes it

    def walk(node) -> None:
        if isinstance(node, Sequence):
            walk(node.lhs)
            walk(node.rhs)
        elif isinstance(node, Pipeline):
            pipeline(node)

    walk(line.tree)
    return out, tainted_files


def _output_option(argv: list[str]) -> str | None:
    """mlir-opt's `-o FILE` / `-o=FILE` (not a prefix option: `-one-shot-...` is a pass)."""
    for i, a in enumerate(argv):
        if a in ("-o", "--o") and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(("-o=", "--o=")):
            return a.split("=", 1)[1]
    return None


def scan(lines: list[RunLine], table: ToolTable) -> list[Finding]:
    """Every finding of a test's RUN lines (a file written by a recording stage on one
    line and read on a later one counts as a pipe does)."""
    findings: list[Finding] = []
    carried: dict[str, tuple[str, ...]] = {}
    for line in lines:
        if line.tree is None:
            continue
        if carried:
            findings += _reads_carried(line, carried)
        found, files = scan_line(line, table)
        findings += found
        carried.update(files)
    return findings


def _reads_carried(line: RunLine, carried: Mapping[str, tuple[str, ...]]) -> list[Finding]:
    out = []

    def walk(node):
        if isinstance(node, Sequence):
            walk(node.lhs)
            walk(node.rhs)
        elif isinstance(node, Pipeline):
            for command in node.commands:
                argv = _words(command)
                if not argv or os.path.basename(argv[0]) in RUNNER_NAMES:
                    continue
                paths = [a for a in argv[1:] if a in carried]
                paths += [str(r.target) for r in command.redirects
                          if r.op == "<" and str(r.target) in carried]
                for p in paths:
                    out.append(Finding(line.lineno, carried[p], os.path.basename(argv[0])))

    walk(line.tree)
    return out


def system_table(table: ToolTable) -> ToolTable:
    return ToolTable("system", dict(table.embedded), list(table.tool_dirs))


def missing_real_tools(line: RunLine, table: ToolTable, env: Mapping[str, str],
                       cwd: str) -> list[str]:
    """The command names of ``line`` that have no executable (tool dirs, then PATH)."""
    from .gating import command_names

    missing = []
    for name in dict.fromkeys(command_names(line.tree)):
        if name in table.embedded and _tools.find_executable(name, table, env, cwd) is None:
            missing.append(name)
    return missing


def with_real_tools(job: Job, findings: list[Finding]) -> tuple[Job | None, list[str]]:
    """The job with the lines of ``findings`` run by the real tools, and what it says; or
    None and the reason when a tool those lines need has no executable."""
    linenos = {f.lineno for f in findings}
    real = system_table(job.tools)
    lines: list[RunLine] = []
    notes: list[str] = []
    for line in job.lines:
        if line.lineno not in linenos:
            lines.append(line)
            continue
        missing = missing_real_tools(line, job.tools, job.env, job.cwd)
        if missing:
            return None, [f"no executable for {', '.join(missing)} (tool dirs: "
                          f"{', '.join(job.tools.tool_dirs) or 'none'}, then PATH)"]
        lines.append(dataclasses.replace(line, tools=real))
        notes.append(f"RUN at line {line.lineno} ran with the real LLVM tools")
    return dataclasses.replace(job, lines=lines), notes
