"""Verdict fidelity: the same .mlir tests through the plug-in with real LLVM tools and embedded.

Each folder (or file) given is run once per mode, as a user would run it: a
pytest subprocess with the plug-in, ``--gpurunner-tools=<mode>``.  The first
mode is the reference (``system``: LLVM 22's mlir-opt, mlir-runner and
FileCheck from ``--tool-dir``); every other mode is compared with it, file by
file:

* agree: the same verdict (pass, fail or skip; XFAIL counts as pass, XPASS as fail);
* false pass: the reference fails, this mode passes (the verdict that must never happen);
* false fail: the reference passes, this mode fails;
* unsupported: this mode skips a test the reference ran, saying why (a gap named);
* no reference: the reference skipped (a REQUIRES it lacks, a GPU test without a GPU).

    python bench/fidelity.py                         # the project's suites
    python bench/fidelity.py DIR [DIR ...] -n 2      # any folders, two xdist workers
    python bench/fidelity.py DIR --write upstream    # also bench/results/fidelity-<date>.md
    python bench/fidelity.py DIR --modes system,embedded,hybrid
    python bench/fidelity.py DIR --json out.json     # every verdict, for other scripts

Folders outside the checkout are run with their own directory as rootdir and no
ini file (the project's pytest settings do not leak in).  GPU tests are
skipped by default (``--gpu skip``): without a GPU the reference cannot run
them, so there is nothing to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
DEFAULT_FOLDERS = ["integration_test", "test"]
DEFAULT_TOOL_DIR = "/usr/lib/llvm-22/bin"
MODES = ["system", "embedded"]  # the first is the reference
CLASSES = ("agree", "false pass", "false fail", "unsupported", "no reference")


@dataclass
class Verdict:
    outcome: str  # passed failed error skipped xfailed (missing: not collected)
    reason: str = ""
    props: dict = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """pass / fail / skip as lit would count the outcome; ``none`` when a command of
        the RUN lines is not an LLVM tool at all (``gpurunner``, ``xdsl-run``...)."""
        if self.outcome in ("failed", "error") and "command not found" in self.reason:
            return "none"
        return {"passed": "pass", "xfailed": "pass", "skipped": "skip"}.get(self.outcome, "fail")


@dataclass
class ModeRun:
    mode: str
    wall: float
    verdicts: dict[str, Verdict]  # file path -> verdict
    returncode: int
    tail: str


def mlir_tests(folder: Path) -> list[Path]:
    """The .mlir files under ``folder`` the plug-in would collect (a RUN: line)."""
    if folder.is_file():
        return [folder]
    return sorted(p for p in folder.rglob("*.mlir") if b"RUN:" in p.read_bytes())


def alias_dir(tool_dir: str, tmp: Path) -> Path:
    """``mlir-cpu-runner``, LLVM 22's ``mlir-runner`` under the name it had until LLVM 20
    (the same tool, renamed): the reference for RUN lines that still use the old name."""
    where = tmp / "aliases"
    if not where.exists():
        where.mkdir()
        (where / "mlir-cpu-runner").symlink_to(Path(tool_dir, "mlir-runner"))
    return where


def _inside_checkout(path: Path) -> bool:
    try:
        path.resolve().relative_to(ROOT)
        return True
    except ValueError:
        return False


def run_mode(mode: str, folder: Path, files: list[Path], args, tmp: Path) -> ModeRun:
    """One pytest run of ``files`` in ``mode``; a verdict per file."""
    report = tmp / f"{mode}-{abs(hash(str(folder)))}.jsonl"
    report.unlink(missing_ok=True)
    base = folder if folder.is_dir() else folder.parent
    if _inside_checkout(base):
        rootdir, extra = ROOT, []
    else:
        ini = tmp / "empty.ini"
        ini.write_text("[pytest]\n")
        rootdir, extra = base.resolve(), ["-c", str(ini), f"--rootdir={base.resolve()}"]
    cmd = [sys.executable, "-m", "pytest", *[str(f) for f in files], *extra,
           "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "_fidelity_report",
           f"--gpurunner-tools={'system' if mode == 'system' else mode}",
           f"--gpurunner-gpu={args.gpu}", f"--gpurunner-timeout={args.timeout}"]
    if mode in ("system", "hybrid") or args.tool_dir_everywhere:  # hybrid: real mlir-opt
        cmd += [f"--gpurunner-tool-dir={d}" for d in (alias_dir(args.tool_dir, tmp),
                                                       args.tool_dir)]
    if args.n:
        cmd += ["-n", str(args.n)]
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")}
    env["PYTHONPATH"] = os.pathsep.join([str(BENCH), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["FIDELITY_REPORT"] = str(report)
    env["GPURUNNER_CACHE_DIR"] = ""
    env["TMPDIR"] = str(tmp)  # failing tests' kept directories go with this run's folder
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=rootdir, env=env, capture_output=True, text=True,
                          timeout=args.suite_timeout)
    wall = time.perf_counter() - start
    verdicts: dict[str, Verdict] = {}
    if report.exists():
        for line in report.read_text().splitlines():
            entry = json.loads(line)
            path = str((rootdir / entry["nodeid"].split("::", 1)[0]).resolve())
            verdicts[path] = Verdict(entry["outcome"], entry["reason"], entry["props"])
    return ModeRun(mode, wall, verdicts, proc.returncode, (proc.stdout + proc.stderr)[-3000:])


def classify(reference: Verdict, other: Verdict) -> str:
    if reference.kind == "none":
        return "no reference"
    if reference.kind == "skip":
        return "agree" if other.kind == "skip" else "no reference"
    if other.kind == reference.kind:
        return "agree"
    if other.kind == "skip":
        return "unsupported"
    return "false pass" if other.kind == "pass" else "false fail"


def first_lines(text: str, count: int = 3, width: int = 200) -> str:
    """The lines of a report that say why: the headline and the first error lines."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    picked = lines[:1]
    picked += [ln for ln in lines[1:] if "error" in ln.lower() or "unsupported" in ln.lower()
               or "not found" in ln.lower()][:count - 1]
    return " | ".join(ln[:width] for ln in picked)


def compare(folder: Path, runs: list[ModeRun], files: list[Path]) -> dict:
    ref = runs[0]
    rows = []
    counts = {run.mode: dict.fromkeys(CLASSES, 0) for run in runs[1:]}
    for f in files:
        key = str(f.resolve())
        verdicts = [run.verdicts.get(key, Verdict("missing", "not collected")) for run in runs]
        classes = [classify(verdicts[0], v) for v in verdicts[1:]]
        for run, cls in zip(runs[1:], classes, strict=True):
            counts[run.mode][cls] += 1
        rows.append({"file": str(f), "verdicts": verdicts, "classes": classes})
    return {"folder": str(folder), "rows": rows, "counts": counts,
            "walls": {run.mode: run.wall for run in runs}, "reference": ref.mode}


def relative(path: str, folder: str) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path(folder).resolve()))
    except ValueError:
        return path


def print_folder(res: dict, modes: list[str], verbose: bool) -> None:
    print(f"\n== {res['folder']}")
    width = max([len(relative(r["file"], res["folder"])) for r in res["rows"]] + [4])
    head = "  ".join(f"{m:9s}" for m in modes)
    print(f"{'file':{width}s}  {head}  class")
    for row in res["rows"]:
        cells = "  ".join(f"{v.outcome:9s}" for v in row["verdicts"])
        cls = ", ".join(row["classes"])
        print(f"{relative(row['file'], res['folder']):{width}s}  {cells}  {cls}")
        if verbose or any(c != "agree" for c in row["classes"]):
            for mode, v in zip(modes, row["verdicts"], strict=True):
                if v.outcome not in ("passed",) and v.reason:
                    print(f"{'':{width}s}    {mode}: {first_lines(v.reason)}")
    for mode, c in res["counts"].items():
        print(f"{mode} vs {res['reference']}: " + ", ".join(f"{k} {n}" for k, n in c.items()))
    print("wall: " + ", ".join(f"{m} {w:.1f} s" for m, w in res["walls"].items()))


def markdown(results: list[dict], modes: list[str], command: str) -> str:
    out = []
    for mode in modes[1:]:
        out.append(f"## {mode} against {modes[0]}\n")
        out.append("| folder | files | agree | false pass | false fail | unsupported | "
                   f"no reference | {modes[0]} wall (s) | {mode} wall (s) |")
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for res in results:
            c = res["counts"][mode]
            out.append(f"| `{res['folder']}` | {len(res['rows'])} | {c['agree']} | "
                       f"{c['false pass']} | {c['false fail']} | {c['unsupported']} | "
                       f"{c['no reference']} | {res['walls'][modes[0]]:.1f} | "
                       f"{res['walls'][mode]:.1f} |")
        out.append("")
    out.append("## Disagreements\n")
    out.append("Every file whose verdicts differ, with what each mode said (first lines of "
               "its report).\n")
    for res in results:
        rows = [r for r in res["rows"] if any(c != "agree" for c in r["classes"])]
        if not rows:
            continue
        out.append(f"### `{res['folder']}`\n")
        for row in rows:
            name = relative(row["file"], res["folder"])
            cls = ", ".join(f"{m}: {c}" for m, c in zip(modes[1:], row["classes"], strict=True)
                            if c != "agree")
            out.append(f"* `{name}` — {cls}")
            for mode, v in zip(modes, row["verdicts"], strict=True):
                why = first_lines(v.reason).replace("`", "'") if v.reason else ""
                out.append(f"  * {mode}: {v.outcome}" + (f" — `{why}`" if why else ""))
        out.append("")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", help=f"folders or files (default: "
                                               f"{' '.join(DEFAULT_FOLDERS)})")
    ap.add_argument("--modes", default=",".join(MODES),
                    help="comma-separated --gpurunner-tools modes, the reference first "
                         f"(default: {','.join(MODES)})")
    ap.add_argument("--tool-dir", default=DEFAULT_TOOL_DIR,
                    help="directory of the real LLVM tools for the reference mode")
    ap.add_argument("--tool-dir-everywhere", action="store_true",
                    help="give --tool-dir to every mode (the real tools are then available "
                         "to the embedded modes' fallbacks too)")
    ap.add_argument("-n", type=int, default=0, help="xdist workers per pytest run")
    ap.add_argument("--gpu", default="skip", help="--gpurunner-gpu policy (default: skip)")
    ap.add_argument("--timeout", type=float, default=120, help="per-test timeout (s)")
    ap.add_argument("--suite-timeout", type=float, default=3600, help="per-run timeout (s)")
    ap.add_argument("-v", "--verbose", action="store_true", help="reasons for every non-pass")
    ap.add_argument("--write", metavar="NAME",
                    help="write bench/results/fidelity-<date>.md (NAME: a section title)")
    ap.add_argument("--json", metavar="FILE", help="write every verdict as JSON")
    args = ap.parse_args(argv)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if len(modes) < 2:
        ap.error("--modes needs a reference and at least one mode to compare")
    if "system" in modes and not Path(args.tool_dir, "mlir-opt").exists():
        print(f"warning: no mlir-opt in {args.tool_dir}: the system mode will fail",
              file=sys.stderr)
    folders = [Path(f) for f in (args.folders or [str(ROOT / f) for f in DEFAULT_FOLDERS])]
    results = []
    with tempfile.TemporaryDirectory(prefix="gpurunner-fidelity-") as tmp:
        for folder in folders:
            files = mlir_tests(folder)
            if not files:
                print(f"\n== {folder}: no .mlir tests")
                continue
            runs = []
            for mode in modes:
                run = run_mode(mode, folder, files, args, Path(tmp))
                if not run.verdicts:
                    print(f"{folder} [{mode}]: pytest gave no results (exit {run.returncode})\n"
                          f"{run.tail}", file=sys.stderr)
                runs.append(run)
            res = compare(folder, runs, files)
            print_folder(res, modes, args.verbose)
            results.append(res)
    if not results:
        return 1
    print("\n== totals")
    for mode in modes[1:]:
        total = dict.fromkeys(CLASSES, 0)
        for res in results:
            for k, n in res["counts"][mode].items():
                total[k] += n
        print(f"{mode} vs {modes[0]}: " + ", ".join(f"{k} {n}" for k, n in total.items()))
    if args.json:
        Path(args.json).write_text(json.dumps(
            [{**r, "rows": [{**row, "verdicts": [v.__dict__ for v in row["verdicts"]]}
                            for row in r["rows"]]} for r in results], indent=1))
    if args.write:
        sys.path.insert(0, str(BENCH))
        from _common import write_result

        command = "python bench/fidelity.py " + " ".join(argv if argv is not None
                                                           else sys.argv[1:])
        write_result("fidelity", f"Verdict fidelity: {args.write}", command,
                     markdown(results, modes, command), tools="LLVM 22 tools from "
                     + args.tool_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
