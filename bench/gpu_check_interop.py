"""GPU check of issue 14: programs lowered by the real mlir-opt 22, run by the embedded runner.

``bench/interop_lower.py --lower-only --variants DIR...`` (run where LLVM 22
is installed) saves each lowered program under bench/work/interop/ with a
manifest.json (runner arguments, FileCheck arguments, check file).  Here, on a
machine with a GPU and no LLVM 22, every program holding a ``gpu.binary`` runs
on the embedded runner's cuda backend (a fresh process each) and its output
goes through the RUN line's FileCheck stage (the plug-in's FileCheck: LLVM's
binary from llvm-testing-tools where installed).  One line per program:

    PASS <lowered file>
    FAIL <lowered file>: <why>   (then the first lines of the runner's stderr / FileCheck's)

    python bench/gpu_check_interop.py [--manifest bench/work/interop/manifest.json] [-k WORD]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--manifest", default=str(ROOT / "bench/work/interop/manifest.json"))
    ap.add_argument("-k", default="", help="only lowered files whose name contains this")
    ap.add_argument("--timeout", type=float, default=180)
    ap.add_argument("--backend", default="cuda",
                    help="GPURUNNER_BACKEND (cpu: the 'offload' objects, on a machine without GPU)")
    args = ap.parse_args()
    from pytest_gpurunner.llvm_filecheck import filecheck_tool

    entries = json.loads(Path(args.manifest).read_text())
    env = dict(os.environ, GPURUNNER_BACKEND=args.backend)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    counts = {"PASS": 0, "FAIL": 0}
    for e in entries:
        lowered = ROOT / e["lowered"]
        if args.k not in e["lowered"] or b"gpu.binary" not in lowered.read_bytes():
            continue
        try:
            res = subprocess.run([sys.executable, "-m", "runner_core.cli", *e["runner"]],
                                 input=lowered.read_bytes(), capture_output=True, env=env,
                                 cwd=str(ROOT), timeout=args.timeout)
            code, out, err = res.returncode, res.stdout, res.stderr
        except subprocess.TimeoutExpired:
            code, out, err = 124, b"", f"timeout after {args.timeout:g} s".encode()
        why, detail = "", []
        if code != 0 and e["has_check"]:
            why = f"runner exit {code}"
            detail = err.decode(errors="replace").splitlines()[:8]
        elif e["has_check"]:
            fc = filecheck_tool(["FileCheck", str(ROOT / e["check_file"]), *e["filecheck"]],
                                out, env, str(ROOT))
            if fc.returncode:
                why = "FileCheck"
                detail = (fc.stderr.decode(errors="replace").splitlines()[:10]
                          + err.decode(errors="replace").splitlines()[:4])
        elif code != 0:
            why = f"runner exit {code}"
            detail = err.decode(errors="replace").splitlines()[:8]
        verdict = "FAIL" if why else "PASS"
        counts[verdict] += 1
        print(f"{verdict} {e['lowered']}" + (f": {why}" if why else ""), flush=True)
        for line in detail:
            print(f"    {line}")
    print(f"summary: PASS={counts['PASS']} FAIL={counts['FAIL']}")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
