"""Differential harness: two FileChecks on the same (check file, input) pairs.

A *case* is one FileCheck invocation as a RUN line makes it: its argument
vector, its stdin and its working directory.  Cases come from

* ``.mlir`` files with RUN lines: the RUN script runs through the plug-in's
  own shell, with every tool as configured except ``FileCheck``, which is
  replaced by a recorder (`capture`).  The project's files run with the
  embedded tools, upstream's with LLVM 22's real ones (``real_tools=True``):
  the question here is only whether two FileChecks agree on one input;
* our own check files (``corpus/*.chk`` with ``*.in`` inputs, `corpus_cases`);
* `mutations` of any case's input (a line dropped, altered, duplicated or
  swapped with the next) to reach the failure paths.

`compare` runs LLVM 22's FileCheck (the reference) and another FileCheck (the
embedded one by default) on a case and says whether they agree: same exit
code and, when both fail, the same first diagnostic line.  Used by
``test_filecheck_differential.py`` (CI) and ``bench/filecheck_diff.py``.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from pytest_gpurunner import script, settings, shell, tools
from pytest_gpurunner.job import Job, ToolTable
from runner_core.toolapi import ToolResult

LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_FILECHECK = f"{LLVM_BIN}/FileCheck"
LLVM_LIB = "/usr/lib/llvm-22/lib"
HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS = HERE / "corpus"

Tool = Callable[[list[str], bytes, dict, str], ToolResult]


@dataclass
class Outcome:
    returncode: int
    stderr: str

    @property
    def first_line(self) -> str:
        """The first diagnostic line (``file:line:col: error: ...``), else the first line."""
        lines = self.stderr.splitlines()
        for line in lines:
            if re.search(r": (error|warning|note): ", line) or line.startswith("error:"):
                return line.strip()
        return lines[0].strip() if lines else ""


@dataclass
class Case:
    name: str  # where it came from: "path#RUN@line", "corpus/x.chk:x.in", plus "+mutation"
    argv: list[str]  # argv[0] is the name on the RUN line
    stdin: bytes
    cwd: str
    mutable: bool = True  # False when the input is read from --input-file
    reference: Outcome | None = None  # the reference's answer, once known


@dataclass
class Comparison:
    case: Case
    reference: Outcome
    ours: Outcome
    diagnostics: bool = True  # compare first lines when both fail

    @property
    def same_exit(self) -> bool:
        return self.reference.returncode == self.ours.returncode

    @property
    def same_verdict(self) -> bool:
        return (self.reference.returncode == 0) == (self.ours.returncode == 0)

    @property
    def same_first_line(self) -> bool:
        if self.reference.returncode == 0 and self.ours.returncode == 0:
            return True
        return self.reference.first_line == self.ours.first_line

    @property
    def agree(self) -> bool:
        return self.same_exit and (not self.diagnostics or self.same_first_line)

    def explain(self) -> str:
        return (f"{self.case.name}: reference exit {self.reference.returncode}, ours exit "
                f"{self.ours.returncode}\n  argv: {shlex.join(self.case.argv)}\n"
                f"  reference: {self.reference.first_line}\n  ours:      {self.ours.first_line}")


# ----------------------------------------------------------------------------- running FileChecks


def run_reference(case: Case, binary: str = LLVM_FILECHECK) -> Outcome:
    proc = subprocess.run([case.argv[0], *case.argv[1:]], executable=binary, input=case.stdin,
                          capture_output=True, cwd=case.cwd, timeout=120)
    return Outcome(proc.returncode, proc.stderr.decode("utf-8", "replace"))


def run_tool(case: Case, tool: Tool) -> Outcome:
    result = tool(list(case.argv), case.stdin, dict(os.environ), case.cwd)
    return Outcome(result.returncode, result.stderr.decode("utf-8", "replace"))


def embedded_filecheck() -> Tool:
    """What the plug-in's default tool table runs for ``FileCheck``."""
    return tools.load_embedded(tools.DEFAULT_EMBEDDED["FileCheck"])


def compare(case: Case, tool: Tool | None = None, diagnostics: bool = True) -> Comparison:
    ours = run_tool(case, tool or embedded_filecheck())
    if case.reference is None:
        case.reference = run_reference(case)
    return Comparison(case, case.reference, ours, diagnostics)


# ----------------------------------------------------------------------------- cases from RUN lines


def _has_input_file(argv: list[str]) -> bool:
    return any(a == "--input-file" or a.startswith("--input-file=") or a == "-input-file"
               or a.startswith("-input-file=") for a in argv)


def _real_mlir_runner(argv, stdin, env, cwd):
    """``mlir-cpu-runner`` (older upstream RUN lines) is ``mlir-runner`` in LLVM 22; only
    used to make FileCheck's input, so the rename does not matter to the comparison."""
    proc = subprocess.run([f"{LLVM_BIN}/mlir-runner", *argv[1:]], input=stdin,
                          capture_output=True, cwd=cwd, env=dict(env), timeout=120)
    return ToolResult(proc.returncode, proc.stdout, proc.stderr)


def capture(path: str | os.PathLike, work_dir: str | os.PathLike, real_tools: bool = False,
            timeout: float = 120, name: str | None = None) -> tuple[list[Case], str]:
    """Run a file's RUN script and record every FileCheck invocation in it.

    The recorder answers as the reference FileCheck would (so a ``not FileCheck``
    line goes on as it should) and snapshots its input; each case gets its own
    copy of the working directory's files it names, so it can be rerun after the
    script's temporary files are gone.  Returns the cases and the script's
    status (``pass``, ``fail``, ...) or ``"unrunnable: why"``.
    """
    path = os.path.abspath(path)
    name = name or path
    work = Path(work_dir)
    run_dir = work / "run"
    run_dir.mkdir(parents=True, exist_ok=True)
    cases: list[Case] = []

    def recorder(argv, stdin, env, cwd):
        case_dir = work / f"case{len(cases)}"
        case_dir.mkdir(exist_ok=True)
        for entry in Path(cwd).iterdir():  # --input-file and relative check files
            if entry.is_file() and entry.stat().st_size < 1 << 24:
                (case_dir / entry.name).write_bytes(entry.read_bytes())
        line = state_line[0]
        case = Case(f"{name}#RUN@{line}", list(argv), stdin, str(case_dir),
                    not _has_input_file(argv))
        cases.append(case)
        case.reference = run_reference(case)
        return ToolResult(case.reference.returncode, b"", case.reference.stderr.encode())

    state_line = [0]
    try:
        parsed = script.parse_file(path)
        lib = LLVM_LIB if real_tools else settings.BUILTIN_LIB_DIR
        subs = script.substitution_list(path, str(run_dir / Path(path).name),
                                        settings._runtime_substitutions(lib, "fatbin"))
        lines = script.expand(parsed, subs, set())
    except (script.DirectiveError, script.ScriptError) as err:
        return [], f"unrunnable: {str(err).splitlines()[0]}"
    if real_tools:
        table = ToolTable("embedded", {"FileCheck": recorder,
                                       "mlir-cpu-runner": _real_mlir_runner}, [LLVM_BIN])
    else:
        table = ToolTable("embedded", {**tools.DEFAULT_EMBEDDED, "FileCheck": recorder}, [])
    env = dict(os.environ, GPURUNNER_BACKEND="cpu")
    for line in lines:  # one job per RUN line, so the recorder knows the line
        state_line[0] = line.lineno
        job = Job(path, path, [line], env, str(run_dir), table, timeout)
        result = shell.run_job(job)
        if result.status != "pass":
            return cases, result.status
    return cases, "pass"


# ----------------------------------------------------------------------------- our own check files


def corpus_cases(corpus: Path = CORPUS) -> Iterator[Case]:
    """``NAME.chk`` (first lines ``; ARGS: ...`` give FileCheck's options) with each
    ``NAME.in`` / ``NAME.*.in`` as stdin."""
    for check in sorted(corpus.glob("*.chk")):
        args: list[str] = []
        for line in check.read_text().splitlines():
            if line.startswith("; ARGS:"):
                args += shlex.split(line[len("; ARGS:"):])
        inputs = sorted(corpus.glob(f"{check.stem}.in")) + sorted(corpus.glob(f"{check.stem}.*.in"))
        for data in inputs:
            yield Case(f"corpus/{check.name}:{data.name}", ["FileCheck", check.name, *args],
                       data.read_bytes(), str(corpus), not _has_input_file(args))


# ----------------------------------------------------------------------------- mutations


def _check_words(case: Case) -> set[str]:
    """Words of three or more letters on the check file's lines: the lines worth mutating."""
    words: set[str] = set()
    for arg in case.argv[1:]:
        if arg.startswith("-"):
            continue
        check = Path(case.cwd, arg)
        if check.is_file():
            text = check.read_text(errors="replace")
            words |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_.]{2,}", text))
            break
    return words


def _alter(line: bytes) -> bytes:
    """One character changed: a digit bumped, else a letter's case flipped, else an 'x' added."""
    for i, c in enumerate(line):
        if 0x30 <= c <= 0x39:
            return line[:i] + bytes([0x30 + (c - 0x30 + 1) % 10]) + line[i + 1:]
    for i, c in enumerate(line):
        if chr(c).isalpha():
            return line[:i] + chr(c).swapcase().encode() + line[i + 1:]
    return line + b"x"


def mutations(case: Case, limit: int = 4) -> list[Case]:
    """Up to ``limit`` variants of the case's input, each with one line changed."""
    if not case.mutable:
        return []
    lines = case.stdin.split(b"\n")
    if len(lines) < 2:
        return [replace(case, name=case.name + "+empty", stdin=b"", reference=None)] if limit else []
    words = _check_words(case)
    candidates = [i for i, line in enumerate(lines)
                  if line.strip() and any(w.encode() in line for w in words)]
    if not candidates:
        candidates = [i for i, line in enumerate(lines) if line.strip()]
    kinds = ["drop", "alter", "duplicate", "swap"]
    out: list[Case] = []
    for n in range(limit):
        if not candidates:
            break
        i = candidates[(n * 7919 + len(lines)) % len(candidates)]
        kind = kinds[n % len(kinds)]
        new = list(lines)
        if kind == "drop":
            del new[i]
        elif kind == "alter":
            new[i] = _alter(new[i])
        elif kind == "duplicate":
            new.insert(i, new[i])
        elif i + 1 < len(new):
            new[i], new[i + 1] = new[i + 1], new[i]
        else:
            new[i - 1], new[i] = new[i], new[i - 1]
        out.append(replace(case, name=f"{case.name}+{kind}@{i + 1}", stdin=b"\n".join(new),
                           reference=None))
    return out


# ----------------------------------------------------------------------------- files


def mlir_files_with_checks(root: Path, subdirs=("test", "integration_test")) -> list[Path]:
    found = []
    for sub in subdirs:
        for path in sorted((root / sub).rglob("*.mlir")):
            text = path.read_text(errors="replace")
            if "RUN:" in text and "FileCheck" in text:
                found.append(path)
    return found


@dataclass
class Tally:
    cases: int = 0
    agree: int = 0
    same_exit: int = 0
    same_verdict: int = 0
    same_first_line: int = 0
    disagreements: list[Comparison] = field(default_factory=list)

    def add(self, comparison: Comparison) -> None:
        self.cases += 1
        self.agree += comparison.agree
        self.same_exit += comparison.same_exit
        self.same_verdict += comparison.same_verdict
        self.same_first_line += comparison.same_first_line
        if not comparison.agree:
            self.disagreements.append(comparison)
