"""The embedded FileCheck against LLVM 22's FileCheck, and what each FileCheck costs.

    python bench/filecheck_diff.py [--upstream DIR ...] [--mutations N] [--write]

Cases (test/filecheck/filecheck_differential.py says how they are made): the
project's .mlir files with FileCheck RUN lines (inputs from their RUN pipelines
on the embedded tools), our own check files in test/filecheck/corpus/, each
``--upstream`` folder's .mlir files (RUN pipelines on LLVM 22's real tools in
/usr/lib/llvm-22/bin; read in place, never copied), and up to N mutations of
every input LLVM accepts.  Each case is answered by LLVM 22's FileCheck (the
reference) and by

* the embedded FileCheck (LLVM's FileCheck binary from llvm-testing-tools):
  exit code and, when both fail, the first diagnostic line must match;
* the filecheck package adapter alone (what the embedded FileCheck was
  before): exit code and verdict;
* the fallback (the adapter behind filecheck_fallback.py's refusals: what
  answers where the binary cannot run): exit code and verdict.

Then the cost of one FileCheck call per unmutated case, three ways: the
package in process, the wheel's binary started as a process, LLVM 22's binary
started as a process (median and mean of ``--repeats`` rounds).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "test" / "filecheck"))

import filecheck_differential as fd  # noqa: E402
from _common import write_result  # noqa: E402

from pytest_gpurunner import filecheck_fallback, filecheck_tool, llvm_filecheck  # noqa: E402


def _cases(paths, real_tools: bool, work: Path, root: Path, label: str):
    cases, unrunnable, checked = [], [], 0
    for i, path in enumerate(paths):
        name = f"{label}/{path.relative_to(root)}"
        try:
            found, status = fd.capture(path, work / f"{label}{i}", real_tools, timeout=60,
                                       name=name)
        except Exception as err:  # a harness problem on one file must not hide the others
            found, status = [], f"unrunnable: {type(err).__name__}: {err}"
        if found:
            checked += 1
            cases += found
        elif status.startswith("unrunnable") or status != "pass":
            unrunnable.append(f"{name}: {status}")
    return cases, checked, unrunnable


def _upstream_files(folder: Path) -> list[Path]:
    out = []
    for path in sorted(folder.rglob("*.mlir")):
        text = path.read_text(errors="replace")
        if "RUN:" in text and "FileCheck" in text:
            out.append(path)
    return out


def _row(name: str, tally: fd.Tally, verdict_only: bool = False) -> str:
    first = "n/a" if verdict_only else f"{tally.same_first_line}"
    return (f"| {name} | {tally.cases} | {tally.same_exit} | {tally.same_verdict} | {first} | "
            f"{tally.agree} |")


def _fallback(argv, stdin, env, cwd):
    """The embedded FileCheck as it answers where the binary cannot run."""
    return filecheck_fallback.fallback_filecheck("measured: binary not used", argv, stdin,
                                                 env, cwd)


def _time(fn, rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--upstream", action="append", default=[], type=Path,
                    help="a folder of upstream .mlir tests, run on LLVM 22's tools (repeatable)")
    ap.add_argument("--mutations", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3, help="rounds of the cost measurement")
    ap.add_argument("--write", action="store_true", help="write bench/results/filecheck-<date>.md")
    args = ap.parse_args()
    if not Path(fd.LLVM_FILECHECK).exists():
        print(f"{fd.LLVM_FILECHECK} not installed: nothing to compare with")
        return 2
    found = llvm_filecheck.locate()
    print(f"embedded FileCheck: {found.describe()}")

    groups: dict[str, list[fd.Case]] = {}
    files: dict[str, int] = {}
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        t0 = time.monotonic()
        cases, checked, bad = _cases(fd.mlir_files_with_checks(REPO), False, work, REPO, "project")
        groups["project .mlir"], files["project .mlir"] = cases, checked
        problems += bad
        own = list(fd.corpus_cases())
        groups["own check files"], files["own check files"] = own, len(list(fd.CORPUS.glob("*.chk")))
        for folder in args.upstream:
            cases, checked, bad = _cases(_upstream_files(folder), True, work, folder.parent,
                                         "upstream")
            groups[f"upstream {folder.name}"], files[f"upstream {folder.name}"] = cases, checked
            problems += bad
        capture_s = time.monotonic() - t0
        print(f"captured in {capture_s:.0f} s: " + ", ".join(f"{k}: {len(v)} cases from "
                                                          f"{files[k]} files" for k, v in groups.items()))

        # (title, tool, compare first lines too)
        variants = [
            ("Embedded FileCheck vs LLVM 22 FileCheck", None, True),
            ("The filecheck package adapter alone vs LLVM 22 FileCheck (verdicts)",
             filecheck_tool.filecheck_tool, False),
            ("The fallback (package adapter + filecheck_fallback.py refusals) vs LLVM 22 "
             "FileCheck (verdicts)", _fallback, False),
        ]
        rows = {v[0]: [] for v in variants}
        totals = {v[0]: fd.Tally() for v in variants}
        for label, cases in groups.items():
            tallies = {v[0]: fd.Tally() for v in variants}
            for case in cases:
                first = fd.compare(case)
                todo = [case]
                if first.reference.returncode == 0:
                    todo += fd.mutations(case, args.mutations)
                for c in todo:
                    for title, tool, diag in variants:
                        comparison = fd.compare(c, tool, diag)
                        tallies[title].add(comparison)
                        totals[title].add(comparison)
            for title, _tool, diag in variants:
                rows[title].append(_row(f"{label} ({files[label]} check files)", tallies[title],
                                        not diag))
        for title, _tool, diag in variants:
            rows[title].append(_row("**all**", totals[title], not diag))

        # Cost of one call per unmutated case, each way.
        bases = [c for cases in groups.values() for c in cases]
        ways = {"filecheck package, in process": lambda c: fd.run_tool(c, filecheck_tool.filecheck_tool),
                "LLVM 22 FileCheck, spawned": lambda c: fd.run_reference(c)}
        if isinstance(found, llvm_filecheck.Binary):
            ways["llvm-testing-tools FileCheck, spawned (embedded)"] = (
                lambda c: fd.run_reference(c, found.path))
        cost_rows = []
        for way, fn in ways.items():
            times: list[float] = []
            for c in bases:
                times += _time(lambda c=c, fn=fn: fn(c), args.repeats)
            cost_rows.append(f"| {way} | {len(times)} | {statistics.median(times):.2f} | "
                             f"{statistics.mean(times):.2f} | {sorted(times)[int(len(times) * .9)]:.2f} |")

    head = ("| source | cases | same exit code | same verdict | same first diagnostic line | "
            "agree |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
    body = (f"Embedded FileCheck: {found.describe()}.  Reference: {fd.LLVM_FILECHECK} "
            f"(LLVM 22).  Mutations: up to {args.mutations} per input LLVM accepts.  "
            f"Capturing the inputs (running the RUN pipelines) took {capture_s:.0f} s.  "
            f"Load average at the end: {os.getloadavg()[0]:.1f} (2 cores, shared).\n")
    for title, _tool, diag in variants:
        tally = totals[title]
        body += f"\n## {title}\n\n{head}" + "\n".join(rows[title]) + "\n\n"
        if diag:
            body += ("Disagreements:\n\n" + "\n".join(
                "    " + c.explain().replace("\n", "\n    ") for c in tally.disagreements)
                if tally.disagreements else "No disagreement.") + "\n"
        else:
            wrong_verdicts = [c for c in tally.disagreements if not c.same_verdict]
            false_pass = [c for c in wrong_verdicts if c.ours.returncode == 0]
            body += (f"Verdict disagreements: {len(wrong_verdicts)}; false passes (LLVM fails, "
                     f"this passes): {len(false_pass)}\n")
            if false_pass:
                body += "\n" + "\n".join(
                    f"    {c.case.name}: LLVM exit {c.reference.returncode}, exit "
                    f"{c.ours.returncode}" for c in false_pass[:40]) + "\n"
    body += ("\n## Cost of one FileCheck call (ms per check file)\n\n"
             "| FileCheck | calls | median | mean | p90 |\n| --- | ---: | ---: | ---: | ---: |\n"
             + "\n".join(cost_rows) + "\n")
    if problems:
        body += "\n## Files that ran no FileCheck\n\n" + "\n".join(f"    {p}" for p in problems) + "\n"
    print(body)
    if args.write:
        command = "python bench/filecheck_diff.py " + " ".join(sys.argv[1:])
        write_result("filecheck", "FileCheck: embedded vs LLVM 22, and the cost of each", command,
                     body, tools=f"FileCheck {found.describe()}")
    return 1 if totals[variants[0][0]].disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
