"""The fault-injection cases of test/reliability/test_fault_injection.py, timed and counted.

For each case: what pytest did (its exit status and the outcome line the case
is about), the time from the signal to pytest's exit (or from its start to the
faulty test's report, for faults inside a program), and what was left: live
processes of the run and files in its private TMPDIR (pytest's own
``pytest-of-<user>`` excepted; see test/reliability/faults.py).  The machine's
load average is printed with each row: the times are wall-clock times on a
shared machine.

Usage: python bench/reliability_faults.py [--gpu] [--only TEXT] [--write FILE]
  --gpu        also the H200 case: a CUDA kernel that never ends, then two GPU tests
  --only TEXT  only the cases whose name contains TEXT (``--gpu --only GPU``: that one)
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import re
import signal
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "test" / "reliability"))

import faults  # noqa: E402


def interrupted_project() -> dict[str, str]:
    return {"integration_test/a_first.mlir": faults.passing(1),
            "integration_test/a_second.mlir": faults.quick(),
            "integration_test/b_hang.mlir": faults.spin_host("b_hang"),
            "integration_test/c_after.mlir": faults.quick()}


def wait_hung(run: faults.Run) -> None:
    for name in ("a_first", "a_second"):
        run.wait_text(rf"{name}\.mlir::{name} PASSED|PASSED \S*{name}\.mlir::{name}")
    run.wait_started("b_hang")


def summary_line(out: str) -> str:
    lines = [x.strip("= ") for x in out.splitlines() if re.match(r"^=+ .* in [\d.]+s", x)]
    return lines[-1] if lines else "(no summary line)"


def signal_case(sig: int, xdist: bool, group: bool = False, times: int = 1):
    def case() -> tuple[faults.Run, str]:
        run = faults.Run(interrupted_project(), ["-v", *(["-n", "2"] if xdist else [])])
        wait_hung(run)
        run.signal(sig, group=group, times=times, gap=0.05)
        out = run.finish()
        note = summary_line(out)
        if "second SIGINT: stopped at once" in out:
            note = "gpurunner: second SIGINT: stopped at once"
        return run, f"exit {run.returncode}; {note}"

    return case


def killed_worker() -> tuple[faults.Run, str]:
    run = faults.Run(interrupted_project(), ["-v"])
    wait_hung(run)
    (pid,) = run.workers()
    run.signal_time = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    out = run.finish()
    said = "died with SIGKILL" in out
    return run, f"exit {run.returncode}; {summary_line(out)}; report says SIGKILL: {said}"


def program_faults() -> tuple[faults.Run, str]:
    sys.path.insert(0, str(HERE.parent / "test" / "reliability"))
    from test_fault_injection import IN_RUN_FAULTS

    files = {}
    for i, (name, (text, _)) in enumerate(IN_RUN_FAULTS.items()):
        files[f"integration_test/t{i}a_{name}.mlir"] = text
        files[f"integration_test/t{i}b_after_{name}.mlir"] = faults.passing(7 + i)
    run = faults.Run(files, ["-v"])
    run.signal_time = run.started
    out = run.finish()
    found = [name for i, (name, (_, expected)) in enumerate(IN_RUN_FAULTS.items())
             if expected in out.split(f"_ t{i}a_{name} _", 1)[-1].split("\n___", 1)[0]]
    return run, (f"exit {run.returncode}; {summary_line(out)}; expected reports: "
                 f"{', '.join(found)}")


def gpu_hang() -> tuple[faults.Run, str]:
    run = faults.Run(faults.gpu_hang_project("cuda", 15), ["-v", "--gpurunner-gpu=require"])
    run.signal_time = run.started
    out = run.finish(600)
    hang = re.search(r"timed out after 15 s[^\n]*", out)
    return run, (f"exit {run.returncode}; {summary_line(out)}; "
                 f"{hang.group(0) if hang else 'NO TIMEOUT REPORT'}; "
                 f"b_after passed: {'PASSED integration_test/b_after.mlir' in out}")


def named_in(output: str) -> list[str]:
    """The paths a report says it kept."""
    return (re.findall(r"(?:temporary directory kept|worker log kept[^:]*): (\S+)", output)
            + [m.rstrip(")") for m in re.findall(r"\(worker log kept: (\S+)", output)])


CASES = {
    "SIGINT to pytest, serial": signal_case(signal.SIGINT, False),
    "SIGINT to pytest's process group (Ctrl-C), -n 2": signal_case(signal.SIGINT, True, True),
    "SIGINT to pytest's pid only, -n 2": signal_case(signal.SIGINT, True),
    "SIGTERM to pytest, serial": signal_case(signal.SIGTERM, False),
    "SIGTERM to pytest, -n 2": signal_case(signal.SIGTERM, True),
    "two SIGINTs 0.05 s apart, serial": signal_case(signal.SIGINT, False, times=2),
    "SIGKILL to pytest, serial": signal_case(signal.SIGKILL, False),
    "SIGKILL to pytest, -n 2": signal_case(signal.SIGKILL, True),
    "SIGKILL to the worker mid-test": killed_worker,
    "in one run: kernel spin (3 s timeout), JIT segfault, 256 TiB alloc, %t on /dev/full, "
    "each followed by a passing test (time = whole run)": program_faults,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpu", action="store_true", help="also the GPU hang case")
    parser.add_argument("--write", metavar="FILE", help="append the markdown record here")
    parser.add_argument("--only", metavar="TEXT", default="",
                        help="only the cases whose name contains TEXT (e.g. GPU)")
    args = parser.parse_args()
    cases = dict(CASES)
    if args.gpu:
        cases["GPU: a CUDA kernel that never ends (15 s timeout), then two GPU tests "
              "(time = whole run)"] = gpu_hang
    cases = {n: c for n, c in cases.items() if args.only in n}
    rows = []
    for name, case in cases.items():
        load = faults.load_average()
        run, outcome = case()
        procs, files = run.settle()
        stop = f"{run.stop_time:.2f}" if run.stop_time is not None else "-"
        named = named_in(run.output)
        unnamed = [f for f in files if not any(
            f == n or n.startswith(f + "/") or f.startswith(n + "/") for n in named)]
        left = f"{len(files)}" + (f" ({len(files) - len(unnamed)} named in the report)"
                                  if len(unnamed) < len(files) else "")
        rows.append((name, outcome, stop, len(procs), left, load))
        print(f"{name}: {outcome}; {stop} s; {len(procs)} processes, {left} files left "
              f"(load {load})", file=sys.stderr)
        if procs or files:
            print("  left: " + "; ".join(procs + files), file=sys.stderr)
        run.cleanup()
    text = [f"## Fault injection ({dt.date.today()}, {platform.node()}, "
            f"{os.cpu_count()} cores, Python {platform.python_version()})", "",
            "Time: from the signal to pytest's exit (whole run where marked).  Left: live "
            "processes of the run and files in its private TMPDIR, counted after up to 20 s "
            "(pytest's own `pytest-of-<user>` basetemp excepted; \"named\": paths, with "
            "the directories leading to them, that the report says it kept).  After SIGKILL "
            "of pytest its temporary root stays: no process is left to remove it.  Load: "
            "the 1/5/15-minute load average when the case started (the machine is shared; "
            "times are wall-clock).", "",
            "| case | outcome | time (s) | processes left | files left | load |",
            "| --- | --- | --- | --- | --- | --- |"]
    text += [f"| {n} | {o} | {t} | {p} | {f} | {ld} |" for n, o, t, p, f, ld in rows]
    record = "\n".join(text) + "\n"
    print(record)
    if args.write:
        with open(args.write, "a") as handle:
            handle.write(record + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
