"""Reliability numbers: fuzzing at scale, bad inputs tried, cost of ``--bounds-check``.

* Fuzz: N mutants of the repository's valid test files (byte flips, line
  deletions/duplications, token swaps/replacements, truncation) through the
  plug-in's RUN-line reader, parse, passes, code generation (host + CPU or
  NVPTX kernels), LLVM's verifier and the printer (``test/reliability/fuzzing.py``).
  Every distinct internal error or hang is listed with a reproducer.
* Bad inputs: the corpus ``test/reliability/bad`` (through the embedded tool
  and, in a subprocess, through pytest + the plug-in), plus generated garbage,
  token soup, very large and very deep files through ``gpurunner`` and
  ``gpurunner-opt``; counts of clean errors, tracebacks and hangs.
* Bounds checking: run time of the same programs with and without
  ``--bounds-check`` (host loops at -O0 and -O2, a kernel on the CPU backend),
  measured in the same process, ratios reported (min of runs).

Usage: python bench/reliability.py [--fuzz N] [--seed S] [--runs R] [--skip-fuzz]
                                   [--skip-bad] [--skip-bounds] [--write FILE]
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import os
import platform
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "test" / "reliability"))

import fuzzing  # noqa: E402
import reliability_inputs  # noqa: E402

LEAKS = ("Traceback", 'File "', "internal error")


# ----------------------------------------------------------------------- fuzz
def fuzz(n: int, seed: int, out: list[str]) -> None:
    work = Path(tempfile.mkdtemp(prefix="gpurunner-fuzz-bench-"))
    t0 = time.perf_counter()
    last = [t0]

    def progress(i, o):
        if (i + 1) % 500 == 0 or time.perf_counter() - last[0] > 60:
            last[0] = time.perf_counter()
            print(f"  fuzz {i + 1}/{n} ({last[0] - t0:.0f} s)", file=sys.stderr)

    outcomes, findings = fuzzing.run_many(n, seed=seed, workdir=work, time_limit=30.0,
                                          progress=progress)
    secs = time.perf_counter() - t0
    reached = collections.Counter(o.reached for o in outcomes)
    rejected = collections.Counter(o.rejected_by or "accepted" for o in outcomes)
    slowest = max(outcomes, key=lambda o: o.seconds)
    out += [
        "## Fuzzing (mutations of valid test files)",
        "",
        f"Seed files: {len(fuzzing.seed_files())} (test/engine/programs, test/frontend, "
        f"integration_test, test/reliability/bad; each <= {fuzzing.MAX_SEED_BYTES} bytes). "
        f"Random seed {seed}; 1-3 mutations per mutant; kernels alternately for the CPU "
        f"backend and NVPTX.",
        "",
        "| what | number |",
        "| --- | --- |",
        f"| mutants (N) | {n} |",
        f"| time | {secs:.0f} s ({1000 * secs / n:.1f} ms per mutant) |",
        f"| slowest mutant | {slowest.seconds:.2f} s |",
        f"| internal errors / hangs (distinct) | {len(findings)} |",
        "",
        "Deepest stage each mutant completed: " + ", ".join(
            f"{k} {v}" for k, v in sorted(reached.items(), key=lambda kv: -kv[1])) + ".",
        "",
        "Rejections by kind: " + ", ".join(
            f"{k} {v}" for k, v in sorted(rejected.items(), key=lambda kv: -kv[1])) + ".",
        "",
    ]
    if findings:
        out += ["Findings:", ""]
        for sig, (_f, rep) in findings.items():
            out.append(f"* `{sig}` - {rep}")
        out.append("")


# ------------------------------------------------------------------ bad input
def bad_inputs(out: list[str]) -> None:
    from runner_core import cli, opt

    work = Path(tempfile.mkdtemp(prefix="gpurunner-bad-bench-"))
    env = dict(os.environ)
    stats = collections.Counter()
    notes: list[str] = []
    rt = "--shared-libs=mlir_runner_utils,mlir_c_runner_utils"

    def judge(kind: str, res, expect_ok: bool = False) -> None:
        text = res.stderr.decode(errors="replace")
        stats["tried"] += 1
        stats[f"tried {kind}"] += 1
        if any(m in text for m in LEAKS) or res.returncode not in (0, 1):
            stats["tracebacks"] += 1
            notes.append(f"{kind}: exit {res.returncode}: {text[:200]!r}")
        elif res.returncode == 0 and expect_ok:
            stats["valid, ran"] += 1
        elif res.returncode == 0:
            stats["accepted"] += 1
        elif res.returncode == 1:
            stats["clean errors"] += 1

    # the corpus, through the embedded tool (RUN-line arguments)
    corpus = sorted(reliability_inputs.BAD_DIR.glob("*.mlir"))
    for path in corpus:
        argv, _ = reliability_inputs.corpus_command(path, work)
        tool = cli.tool_main if argv[0] == "gpurunner" else opt.tool_main
        judge("corpus", tool(argv, b"", env, str(path.parent)))

    class Hang(BaseException):
        pass

    def on_alarm(signum, frame):
        raise Hang()

    def guarded(kind: str, call, expect_ok: bool) -> None:
        old = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, 300.0)
        try:
            judge(kind, call(), expect_ok)
        except Hang:
            stats["tried"] += 1
            stats[f"tried {kind}"] += 1
            stats["hangs"] += 1
            notes.append(f"{kind}: no answer within 300 s: {(work / 'g.mlir').read_bytes()[:200]!r}")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)

    def both(kind: str, data: bytes, expect_ok: bool = False) -> float:
        (work / "g.mlir").write_bytes(data)
        t = time.perf_counter()
        guarded(kind, lambda: cli.tool_main(["gpurunner", "--entry-point-result=void", rt,
                                             "g.mlir"], b"", env, str(work)), expect_ok)
        guarded(kind, lambda: opt.tool_main(["gpurunner-opt", "g.mlir"], b"", env, str(work)),
                expect_ok)
        return time.perf_counter() - t

    rng = random.Random(1)
    for _ in range(150):
        both("garbage", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 5000))))
    tokens = ["func.func", "@main", "(", ")", "{", "}", "%a", "=", "arith.addi", ",", ":", "i32",
              "index", "memref<4xf32>", "->", "return", "scf.for", "\"s", "gpu.launch", "^bb0",
              "<", ">", "[", "]", "\n", "0x10", "async.execute", "module", "attributes"]
    for _ in range(150):
        both("token soup", " ".join(rng.choice(tokens)
                                    for _ in range(rng.randrange(1, 200))).encode())
    timings = {
        "50,000 ops, valid (runs)": both("large", reliability_inputs.chain(50_000).encode(), expect_ok=True),
        "50,000 ops, error in the last op": both(
            "large", reliability_inputs.chain(50_000, "  %bad = arith.addi %v1, %nope : i64").encode()),
        "2,000 nested scf.if, valid (runs)": both("deep", reliability_inputs.nested_ifs(2000, indent=False).encode(), expect_ok=True),
        "4,990 nested scf.if, valid (runs)": both("deep", reliability_inputs.nested_ifs(4990, indent=False).encode(), expect_ok=True),
        "5,001 nested brackets (refused)": both("deep", b"func.func @main() {\n"
                                                + b"(" * 5001 + b"\n}\n"),
    }
    # the corpus through pytest and the plug-in
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly",
                           "-p", "no:cacheprovider", str(REPO / "test/reliability/bad")],
                          capture_output=True, text=True, cwd=REPO, timeout=900)
    plugin_secs = time.perf_counter() - t
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-200:]
    plugin_tb = proc.stdout.count("Traceback") + proc.stdout.count("INTERNALERROR")
    out += [
        "## Bad inputs",
        "",
        "| what | number |",
        "| --- | --- |",
        f"| inputs tried through gpurunner / gpurunner-opt | {stats['tried']} |",
        f"| - corpus files (test/reliability/bad) | {stats['tried corpus']} |",
        f"| - binary garbage (x2 tools) | {stats['tried garbage']} |",
        f"| - token soup (x2 tools) | {stats['tried token soup']} |",
        f"| - very large / very deep files (x2 tools) | "
        f"{stats['tried large'] + stats['tried deep']} |",
        f"| clean errors (exit 1, message, no Python internals) | {stats['clean errors']} |",
        f"| valid big inputs that ran (expected) | {stats['valid, ran']} |",
        f"| other inputs accepted (valid after all) | {stats['accepted']} |",
        f"| tracebacks / internal errors | {stats['tracebacks']} |",
        f"| hangs (no answer within 300 s) | {stats['hangs']} |",
        f"| corpus through pytest + plug-in | {summary} ({plugin_secs:.0f} s), "
        f"{plugin_tb} tracebacks |",
        "",
        "Generated big inputs (both tools, seconds):",
        "",
        "| input | time |",
        "| --- | --- |",
    ]
    out += [f"| {k} | {v:.1f} s |" for k, v in timings.items()]
    out.append("")
    if notes:
        out += ["Problems:", ""] + [f"* {n}" for n in notes] + [""]


# --------------------------------------------------------------------- bounds
MATMUL = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant N : index
  %a = memref.alloc(%n, %n) : memref<?x?xf32>
  %b = memref.alloc(%n, %n) : memref<?x?xf32>
  %c = memref.alloc(%n, %n) : memref<?x?xf32>
  %one = arith.constant 1.0 : f32
  %z = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %one, %a[%i, %j] : memref<?x?xf32>
      memref.store %one, %b[%i, %j] : memref<?x?xf32>
      memref.store %z, %c[%i, %j] : memref<?x?xf32>
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      scf.for %k = %c0 to %n step %c1 {
        %x = memref.load %a[%i, %k] : memref<?x?xf32>
        %y = memref.load %b[%k, %j] : memref<?x?xf32>
        %p = memref.load %c[%i, %j] : memref<?x?xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %p, %m : f32
        memref.store %s, %c[%i, %j] : memref<?x?xf32>
      }
    }
  }
  %r = memref.load %c[%c0, %c0] : memref<?x?xf32>
  vector.print %r : f32
  return
}
"""

KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @axpy(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %base = arith.muli %b, %d : index
      %i = arith.addi %base, %t : index
      %xi = memref.load %x[%i] : memref<?xf32>
      %yi = memref.load %y[%i] : memref<?xf32>
      %m = arith.mulf %a, %xi : f32
      %s = arith.addf %m, %yi : f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %blocks = arith.constant BLOCKS : index
    %n = arith.muli %blocks, %c256 : index
    %x = memref.alloc(%n) : memref<?xf32>
    %y = memref.alloc(%n) : memref<?xf32>
    %ux = memref.cast %x : memref<?xf32> to memref<*xf32>
    %uy = memref.cast %y : memref<?xf32> to memref<*xf32>
    gpu.host_register %ux : memref<*xf32>
    gpu.host_register %uy : memref<*xf32>
    %a = arith.constant 2.0 : f32
    gpu.launch_func @kernels::@axpy blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>, %a : f32)
    gpu.launch_func @kernels::@axpy blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>, %a : f32)
    return
  }
}
"""


def bounds(runs: int, out: list[str]) -> None:
    from runner_core import engine
    from runner_core.runtime.capture import capture_fds

    def measure(src: str, opt_level: int, check: bool, libs: list[str], backend="cpu"):
        opts = engine.RunOptions(entry_result="void", opt_level=opt_level, shared_libs=libs,
                                 bounds_check=check, backend=backend, filename="bench.mlir",
                                 env={"GPURUNNER_CACHE_DIR": ""})  # compile time measured
        best_run = best_compile = float("inf")
        for _ in range(runs):
            with capture_fds():
                o = engine.run_program(src, opts)
            best_run = min(best_run, o.timings["run"])
            best_compile = min(best_compile, o.timings["codegen"] + o.timings["jit"])
        return best_run, best_compile

    host_libs = ["mlir_runner_utils", "mlir_c_runner_utils"]
    gpu_libs = host_libs + ["mlir_cuda_runtime"]
    cases = [
        ("host matmul 160x160 (f32, 3 loads + 1 store per step)", MATMUL.replace("N", "160"),
         0, host_libs),
        ("host matmul 160x160", MATMUL.replace("N", "160"), 2, host_libs),
        ("CPU-backend kernel, axpy 2 x 1,048,576 elements", KERNEL.replace("BLOCKS", "4096"),
         2, gpu_libs),
    ]
    if engine.select_backend("auto", dict(os.environ)).name == "cuda":
        # nvptx: the check is a compare and a branch to vprintf + trap (never taken here)
        cases.append(("CUDA kernel, axpy 2 x 16,777,216 elements",
                      KERNEL.replace("BLOCKS", "65536"), 2, gpu_libs, "cuda"))
    out += [
        "## Bounds checking overhead",
        "",
        f"Same process, same program, min of {runs} runs each; 'run' is the entry point's "
        f"execution, 'compile' code generation + JIT.",
        "",
        "| program | opt | run unchecked | run checked | ratio | compile ratio |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, src, level, libs, *backend in cases:
        where = backend[0] if backend else "cpu"
        r0, c0 = measure(src, level, False, libs, where)
        r1, c1 = measure(src, level, True, libs, where)
        out.append(f"| {name} | -O{level} | {1000 * r0:.1f} ms | {1000 * r1:.1f} ms | "
                   f"{r1 / r0:.2f} | {c1 / c0:.2f} |")
    out.append("")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fuzz", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--skip-fuzz", action="store_true")
    ap.add_argument("--skip-bad", action="store_true")
    ap.add_argument("--skip-bounds", action="store_true")
    ap.add_argument("--write", metavar="FILE")
    a = ap.parse_args()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    import llvmlite

    out = [f"# Reliability bench - {dt.date.today().isoformat()}", "",
           f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared), Python "
           f"{platform.python_version()}, llvmlite {llvmlite.__version__}.",
           f"Command: `python bench/reliability.py {' '.join(sys.argv[1:])}`", ""]
    if not a.skip_bounds:
        bounds(a.runs, out)
    if not a.skip_bad:
        bad_inputs(out)
    if not a.skip_fuzz:
        fuzz(a.fuzz, a.seed, out)
    text = "\n".join(out) + "\n"
    print(text)
    if a.write:
        Path(a.write).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
