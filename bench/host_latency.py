"""End-to-end latency of one small program: in-process engine vs upstream processes.

Same file, same output, two ways:

* ours: ``runner_core.cli.tool_main`` (parse -> prepare -> codegen -> JIT -> run,
  output captured) inside this process, as the plug-in calls it: the first
  call (cold: imports, JIT and runtime initialisation) and the median of
  later calls (warm);
* upstream: ``mlir-opt <lowering> | mlir-runner`` as two processes (shell
  pipe), median wall time.

Goal (issue 4): in-process warm latency <= 1x the upstream pipeline.
Usage: python bench/host_latency.py [--runs N] [--write]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import write_result

HERE = Path(__file__).resolve().parent
LLVM = Path("/usr/lib/llvm-22")
PIPELINE = ("-convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata "
            "-convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts")

PROGRAM = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m = memref.alloc() : memref<4x4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %s = arith.addi %i, %j : index
      %v = arith.index_cast %s : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %m[%i, %j] : memref<4x4xf32>
    }
  }
  %u = memref.cast %m : memref<4x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %x = memref.load %m[%c1, %c4] : memref<4x4xf32>
  vector.print %x : f32
  memref.dealloc %m : memref<4x4xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
"""

BASE = re.compile(rb"base@ = 0x[0-9a-f]+")


def ours_once(path: Path) -> tuple[float, bytes]:
    from runner_core.cli import tool_main

    t = time.perf_counter()
    res = tool_main(["gpurunner", str(path), "-e", "main", "--entry-point-result=void",
                     "--shared-libs=mlir_runner_utils,mlir_c_runner_utils"], b"",
                    {"GPURUNNER_BACKEND": "cpu"}, str(path.parent))
    dt_ = time.perf_counter() - t
    if res.returncode:
        raise SystemExit(res.stderr.decode())
    return dt_, res.stdout


def upstream_once(path: Path) -> tuple[float, bytes]:
    lib = LLVM / "lib"
    cmd = (f"{LLVM}/bin/mlir-opt {path} {PIPELINE} | {LLVM}/bin/mlir-runner -e main "
           f"--entry-point-result=void --shared-libs={lib}/libmlir_runner_utils.so,"
           f"{lib}/libmlir_c_runner_utils.so")
    t = time.perf_counter()
    res = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, check=True)
    return time.perf_counter() - t, res.stdout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="host_latency."))
    src = work / "small.mlir"
    src.write_text(PROGRAM)

    t = time.perf_counter()
    import runner_core.cli  # noqa: F401  (import cost counted in "cold")
    cold_import = time.perf_counter() - t
    cold, out = ours_once(src)
    warm = [ours_once(src)[0] for _ in range(args.runs)]
    rows = [("ours cold: import + first run in a fresh process", f"{(cold_import + cold) * 1e3:.0f} ms"),
            ("ours warm: in-process run (median)", f"{statistics.median(warm) * 1e3:.1f} ms"),
            ("ours warm: fastest run", f"{min(warm) * 1e3:.1f} ms")]
    if (LLVM / "bin/mlir-runner").exists():
        ups = [upstream_once(src) for _ in range(max(5, args.runs // 2))]
        up_t = statistics.median(t for t, _ in ups)
        if BASE.sub(b"", ups[0][1]) != BASE.sub(b"", out):
            raise SystemExit("outputs differ between ours and upstream")
        rows += [("upstream mlir-opt | mlir-runner processes (median)", f"{up_t * 1e3:.1f} ms"),
                 ("ratio ours warm / upstream (goal <= 1)",
                  f"{statistics.median(warm) / up_t:.3f}"),
                 ("ratio ours cold (import + first run) / upstream",
                  f"{(cold_import + cold) / up_t:.2f}")]
    table = "\n".join(f"| {k} | {v} |" for k, v in rows)
    print(table)
    if args.write:
        write_result(
            "engine-host_latency", "Host latency: one small program, in process vs processes",
            f"python bench/host_latency.py --runs {args.runs} --write",
            f"Program: 4x4 memref filled by two scf.for loops, printMemrefF32 and "
            f"vector.print (identical output both ways, pointers masked).\n\n"
            f"| what | number |\n| --- | --- |\n{table}\n", tools="Debian LLVM 22")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    main()
