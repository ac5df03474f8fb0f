"""What a user waits for before anything happens: ``gpurunner --help`` and the first test result.

* ``gpurunner --help``: the console script, a fresh interpreter each time.
* first result: a fresh ``pytest -v`` on a folder, timed from the spawn to the
  first line that carries a verdict (``PASSED``/``FAILED``/``SKIPPED``/...); cold
  (an empty cache directory) and warm (the same directory again).

Each measurement is repeated and the median kept; the load average is printed
with it (the machine may be shared).  Python's bytecode caching is as the
environment has it (``PYTHONDONTWRITEBYTECODE`` is reported): without ``.pyc``
files every import compiles its module again.

    python bench/cold_start.py [FOLDER] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VERDICT = re.compile(rb" (PASSED|FAILED|SKIPPED|XFAIL|XPASS|ERROR)\b")


def time_help() -> float:
    exe = Path(sys.executable).with_name("gpurunner")
    start = time.perf_counter()
    subprocess.run([str(exe), "--help"], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def time_first_result(folder: Path, cache: Path, extra: list[str], tmp: Path) -> float:
    """Seconds from starting pytest to its first verdict line.  pytest is then killed with
    its whole session (xdist and runner workers), so its temporary root (under ``tmp``,
    which the caller removes) is left as it was: nothing of the bench outlives it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    env["TMPDIR"] = str(tmp)
    cmd = [sys.executable, "-m", "pytest", str(folder), "-v", "-p", "no:cacheprovider",
           f"--gpurunner-cache-dir={cache}", *extra]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    first = float("nan")
    assert proc.stdout is not None
    for line in proc.stdout:
        if VERDICT.search(line):
            first = time.perf_counter() - start
            break
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    return first


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", type=Path, default=ROOT / "integration_test" / "runner")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '<unset>')}; "
          f"{os.cpu_count()} cores; load {os.getloadavg()}")
    helps = [time_help() for _ in range(args.repeat)]
    print(f"gpurunner --help: median {1000 * statistics.median(helps):.0f} ms "
          f"(min {1000 * min(helps):.0f}, max {1000 * max(helps):.0f})")
    tmp = Path(tempfile.mkdtemp(prefix="cold-start-"))
    try:
        for extra, label in (([], "serial"), (["-n", "2"], "-n 2")):
            cold, warm = [], []
            for _ in range(args.repeat):
                cache = Path(tempfile.mkdtemp(prefix="cache-", dir=tmp))
                cold.append(time_first_result(args.folder, cache, extra, tmp))
                warm.append(time_first_result(args.folder, cache, extra, tmp))
                shutil.rmtree(cache, ignore_errors=True)
            print(f"first test result ({label}, {args.folder.name}): cold median "
                  f"{1000 * statistics.median(cold):.0f} ms, warm median "
                  f"{1000 * statistics.median(warm):.0f} ms; load {os.getloadavg()}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
