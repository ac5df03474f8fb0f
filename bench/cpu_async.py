"""Async runtime throughput: the built-in provider against Debian's real library.

10,000 ``async.execute`` tasks (each stores one value) added to a group and
awaited, timed inside the program with ``rtclock``; the same compiled code runs
on the built-in ``mlir_async_runtime`` (Python scheduler, worker threads calling
the JIT'd coroutines through ctypes) and on ``libmlir_async_runtime.so`` (C++)
in the same process.  Also a chain of 2,000 tasks, each depending on the
previous one's token (latency of a dependency hop).

Usage: ``python bench/cpu_async.py [--repeat N] [--record bench/results/cpu-async-DATE.md]``
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
REAL = Path("/usr/lib/llvm-22/lib/libmlir_async_runtime.so")
TASKS, CHAIN = 10_000, 2_000

FAN_OUT = f"""
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {TASKS} : index
  %out = memref.alloc(%n) : memref<?xi32>
  %g = async.create_group %n : !async.group
  %t0 = func.call @rtclock() : () -> f64
  scf.for %i = %c0 to %n step %c1 {{
    %t = async.execute {{
      %v = arith.index_cast %i : index to i32
      memref.store %v, %out[%i] : memref<?xi32>
      async.yield
    }}
    %r = async.add_to_group %t, %g : !async.token
  }}
  async.await_all %g
  %t1 = func.call @rtclock() : () -> f64
  %dt = arith.subf %t1, %t0 : f64
  %last = arith.subi %n, %c1 : index
  %lv = memref.load %out[%last] : memref<?xi32>
  vector.print %dt : f64
  vector.print %lv : i32
  return
}}
func.func private @rtclock() -> f64
"""

CHAINED = f"""
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {CHAIN} : index
  %cell = memref.alloc() : memref<1xi32>
  %z = arith.constant 0 : i32
  memref.store %z, %cell[%c0] : memref<1xi32>
  %start = async.execute {{
    async.yield
  }}
  %t0 = func.call @rtclock() : () -> f64
  %end = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %start) -> (!async.token) {{
    %t = async.execute [%prev] {{
      %k0 = arith.constant 0 : index
      %v = memref.load %cell[%k0] : memref<1xi32>
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      memref.store %w, %cell[%k0] : memref<1xi32>
      async.yield
    }}
    scf.yield %t : !async.token
  }}
  async.await %end : !async.token
  %t1 = func.call @rtclock() : () -> f64
  %dt = arith.subf %t1, %t0 : f64
  %v = memref.load %cell[%c0] : memref<1xi32>
  vector.print %dt : f64
  vector.print %v : i32
  return
}}
func.func private @rtclock() -> f64
"""


def _run(program: str, lib: str) -> tuple[float, int]:
    from runner_core.cli import tool_main

    res = tool_main(["gpurunner", "--entry-point-result=void", "-O2",
                     f"--shared-libs={lib},mlir_c_runner_utils", "-"], program.encode(),
                    dict(os.environ), str(ROOT))
    if res.returncode != 0:
        raise SystemExit(res.stderr.decode())
    t, v = re.findall(r"[-+0-9.e]+", res.stdout.decode())[:2]
    return float(t), int(v)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--record", type=Path)
    args = ap.parse_args()
    libs = [("built-in mlir_async_runtime", "mlir_async_runtime")]
    if REAL.exists():
        libs.append((f"real {REAL.name} (LLVM 22)", str(REAL)))
    rows = []
    for label, lib in libs:
        fan = min(_run(FAN_OUT, lib) for _ in range(args.repeat))
        chain = min(_run(CHAINED, lib) for _ in range(args.repeat))
        if fan[1] != TASKS - 1 or chain[1] != CHAIN:
            raise SystemExit(f"wrong results with {label}: {fan}, {chain}")
        rows.append((label, fan[0], chain[0]))
    try:
        load = f", load average {os.getloadavg()[0]:.1f}"
    except OSError:
        load = ""
    lines = [f"# Async runtime throughput ({datetime.date.today().isoformat()})", "",
             f"{os.cpu_count()} logical CPUs{load}; best of {args.repeat}; results verified.",
             "", f"| runtime | {TASKS} independent tasks | per task | chain of {CHAIN} "
                 f"dependent tasks | per hop |", "| --- | --- | --- | --- | --- |"]
    for label, fan, chain in rows:
        lines.append(f"| {label} | {fan * 1e3:.1f} ms | {fan / TASKS * 1e6:.1f} us | "
                     f"{chain * 1e3:.1f} ms | {chain / CHAIN * 1e6:.1f} us |")
    lines += ["", "The built-in runtime pays a few ctypes callbacks per task (create, "
                  "execute, emplace, group) under the GIL; bodies themselves run without it."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        args.record.write_text(text)


if __name__ == "__main__":
    main()
