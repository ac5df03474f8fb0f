"""The integration suite in process against the same work as separate processes.

The plug-in's normal mode runs every RUN-line tool (``mlir-opt``,
``mlir-runner``, ``FileCheck``...) in process, inside one warm worker.  The
reference is what lit does: every pipeline stage is a new process.  Here that
reference is the same plug-in in ``system`` tools mode with a tool directory of
links to our own console scripts (``mlir-opt`` -> ``gpurunner-opt``,
``mlir-runner``/``mlir-cpu-runner``/``mlir-cuda-runner`` -> ``gpurunner``,
``FileCheck`` -> the filecheck package's ``filecheck``), so both sides run the
same runner, the same FileCheck and the same shell over the same files; only
where the tools run differs.  Both modes run in the same invocation of this
script, alternating, and must give the same outcomes.

    python bench/suite.py                    # print the table
    python bench/suite.py --write            # also bench/results/suite-DATE.md
    python bench/suite.py --repeat 3 -n 2    # more rounds, two xdist workers
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = "integration_test"
LINKS = {
    "mlir-opt": "gpurunner-opt",
    "gpurunner-opt": "gpurunner-opt",
    "mlir-runner": "gpurunner",
    "mlir-cpu-runner": "gpurunner",
    "mlir-cuda-runner": "gpurunner",
    "gpurunner": "gpurunner",
    "FileCheck": "filecheck",
}


def _script(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if not found:
        sys.exit(f"console script {name!r} not found (pip install -e '.[test]' installs it)")
    return found


def make_tool_dir(where: Path) -> Path:
    bindir = where / "bin"
    bindir.mkdir()
    for link, target in LINKS.items():
        (bindir / link).symlink_to(_script(target))
    return bindir


def run_suite(mode: str, bindir: Path, workers: int, report: Path) -> tuple[float, dict]:
    """One pytest run over the suite's .mlir files; wall seconds and outcome counts."""
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / SUITE).rglob("*.mlir"))
    cmd = [sys.executable, "-m", "pytest", *files, "-q", "-p", "no:cacheprovider",
           "-p", "no:randomly", f"--junitxml={report}", "--gpurunner-gpu=emulate"]
    if workers:
        cmd += ["-n", str(workers)]
    if mode == "processes":
        cmd += ["--gpurunner-tools=system", f"--gpurunner-tool-dir={bindir}"]
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")}
    env["GPURUNNER_CACHE_DIR"] = ""  # no kernel cache carried from one round to the next
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    wall = time.perf_counter() - start
    counts = {"passed": 0, "failed": 0, "skipped": 0, "xfailed": 0}
    outcome = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        name = case.get("classname", "") + "::" + case.get("name", "")
        if case.find("failure") is not None or case.find("error") is not None:
            kind = "failed"
        elif case.find("skipped") is not None:
            msg = case.find("skipped").get("message", "") or ""
            kind = "xfailed" if "XFAIL" in msg or "xfail" in msg.lower() else "skipped"
        else:
            kind = "passed"
        counts[kind] += 1
        outcome[name] = kind
    if proc.returncode not in (0, 1):
        sys.exit(f"{mode}: pytest exited {proc.returncode}\n{proc.stdout[-3000:]}{proc.stderr[-2000:]}")
    return wall, {"counts": counts, "outcome": outcome, "tail": proc.stdout[-400:]}


def count_stages() -> dict[str, int]:
    """Tool invocations the suite makes: RUN pipeline stages, as lit would start them
    (RUN lines read by the plug-in's lit adapter, continuations joined)."""
    from pytest_gpurunner.script import parse_file

    commands = [command for path in (ROOT / SUITE).rglob("*.mlir")
                for _, _, command in parse_file(str(path)).run_lines]
    return {"run_lines": len(commands),
            "stages": sum(command.count("|") + 1 for command in commands)}


def measure(rounds: int, workers: int) -> dict:
    results: dict[str, list[float]] = {"inprocess": [], "processes": []}
    info: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="gpurunner-suite-") as tmp:
        bindir = make_tool_dir(Path(tmp))
        for r in range(rounds):
            order = ("inprocess", "processes") if r % 2 == 0 else ("processes", "inprocess")
            for mode in order:
                wall, data = run_suite(mode, bindir, workers, Path(tmp) / f"{mode}-{r}.xml")
                results[mode].append(wall)
                info[mode] = data
                print(f"round {r + 1}/{rounds} {mode:10s} {wall:7.1f} s  {data['counts']}",
                      flush=True)
    differ = sorted(k for k in info["inprocess"]["outcome"]
                    if info["inprocess"]["outcome"][k] != info["processes"]["outcome"].get(k))
    return {"walls": results, "info": info, "differ": differ, "stages": count_stages()}


def report(res: dict, rounds: int, workers: int) -> str:
    w_in, w_pr = res["walls"]["inprocess"], res["walls"]["processes"]
    best_in, best_pr = min(w_in), min(w_pr)
    mean_in, mean_pr = sum(w_in) / len(w_in), sum(w_pr) / len(w_pr)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0, 0, 0)
    c = res["info"]["inprocess"]["counts"]
    s = res["stages"]
    same = "the same outcome for every test" if not res["differ"] else \
        f"DIFFERENT outcomes for {len(res['differ'])} tests: {', '.join(res['differ'][:8])}"
    return f"""# The integration suite: in process vs a process per RUN stage ({dt.date.today()})

Machine: {platform.node() or 'unknown'}, {os.cpu_count()} CPUs, Python
{platform.python_version()}, load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}
(the machine is shared: other engineers' jobs run beside this one).  Command:
`python bench/suite.py --repeat {rounds}{f' -n {workers}' if workers else ''} --write`.

Suite: every `.mlir` file under `integration_test/` ({sum(c.values())} tests: {c['passed']} passed,
{c['xfailed']} xfailed, {c['skipped']} skipped, {c['failed']} failed), GPU tests on the CPU backend
(`--gpurunner-gpu=emulate`), kernel cache off.  {s['run_lines']} RUN lines, {s['stages']} pipeline
stages: the reference starts {s['stages']} processes, one per stage, as lit would.

| mode | what runs the tools | rounds (s) | best (s) | mean (s) |
| --- | --- | --- | ---: | ---: |
| in process (the plug-in's normal mode) | embedded tools in one warm worker per pytest process | {', '.join(f'{x:.1f}' for x in w_in)} | {best_in:.1f} | {mean_in:.1f} |
| a process per RUN stage | `--gpurunner-tools=system`, links to `gpurunner`, `gpurunner-opt`, `filecheck` | {', '.join(f'{x:.1f}' for x in w_pr)} | {best_pr:.1f} | {mean_pr:.1f} |

Ratio (processes / in process): **{best_pr / best_in:.2f}x** on the best rounds,
{mean_pr / mean_in:.2f}x on the means; per stage, a process costs about
{(best_pr - best_in) / max(1, s['stages']) * 1000:.0f} ms more than an in-process call.
Both modes gave {same}.
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2, help="rounds of each mode (alternating)")
    ap.add_argument("-n", type=int, default=0, help="xdist workers (0: none, one process)")
    ap.add_argument("--write", action="store_true", help="write bench/results/suite-DATE.md")
    args = ap.parse_args()
    res = measure(args.repeat, args.n)
    text = report(res, args.repeat, args.n)
    print(text)
    if args.write:
        out = ROOT / "bench" / "results" / f"suite-{dt.date.today()}.md"
        out.write_text(text)
        print(f"written {out}")
    if res["differ"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
