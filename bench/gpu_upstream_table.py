"""Upstream's CUDA integration tests through the plug-in, one row per file (issue 13).

    python bench/gpu_upstream_table.py DIR --gpu emulate   # cpu backend
    python bench/gpu_upstream_table.py DIR --gpu require   # a real GPU

Each file is also parsed by LLVM 22's mlir-opt (when installed) to say whether
it is valid MLIR 22 (upstream's folder mixes files from several releases).
Prints a markdown table: file, valid in 22, verdict, the reason of a skip or
the first error line of a failure.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

MLIR_OPT = Path("/usr/lib/llvm-22/bin/mlir-opt")


def valid22(path: Path) -> str:
    if not MLIR_OPT.exists():
        return "?"
    res = subprocess.run([str(MLIR_OPT), str(path), "-o", "/dev/null"], capture_output=True,
                         timeout=120)
    return "yes" if res.returncode == 0 else "no"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--gpu", default="emulate")
    ap.add_argument("-n", default="2")
    ap.add_argument("--timeout", type=int, default=1500)
    args = ap.parse_args()
    folder = Path(args.folder).resolve()
    from importlib.metadata import entry_points

    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "-q",
           f"--gpurunner-gpu={args.gpu}", str(folder)]
    if not any(e.name == "gpurunner" for e in entry_points(group="pytest11")):
        cmd[3:3] = ["-p", "pytest_gpurunner.plugin"]  # not installed: load it by name
    if args.n not in ("", "0"):
        cmd += ["-n", args.n]
    with tempfile.TemporaryDirectory(prefix="gpurunner-table-") as tmp:
        # Failing tests' kept directories go with this folder, not into /tmp.
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout,
                             env={**os.environ, "TMPDIR": tmp}).stdout
    verdict: dict[str, tuple[str, str]] = {}
    for line in out.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR|SKIPPED \[\d+\]|XFAIL) (\S+?\.mlir)(?:::\S+)?(?::\d+)?"
                     r"(?::| -)? ?(.*)$", line)
        if not m:
            continue
        kind = m.group(1).split()[0].lower()
        path = Path(m.group(2))
        if not path.is_absolute():
            path = (Path.cwd() / path).resolve()
        verdict[str(path)] = (kind, m.group(3).strip()[:140])
    rows = []
    for path in sorted(folder.rglob("*.mlir")):
        kind, why = verdict.get(str(path.resolve()), ("not collected", ""))
        rows.append((str(path.relative_to(folder)), valid22(path), kind, why))
    print("| file | valid in 22 | verdict | reason / first error |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        print("| " + " | ".join(x.replace("|", "\\|") for x in r) + " |")
    counts: dict[str, int] = {}
    for r in rows:
        counts[r[2]] = counts.get(r[2], 0) + 1
    print("\n" + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
