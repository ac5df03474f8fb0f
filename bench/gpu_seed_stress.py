"""The seed (shared/seed/async.mlir) many times in a row on the GPU, counting its outputs.

Upstream's version of this test is flaky on NVIDIA machines (llvm-project
issue 170833: it sometimes prints ``[42, 42]``, the values before the kernel
ran).  Ours must print ``[84, 84]`` every time.  Each execution is a complete
``gpurunner`` invocation in this process (parse, passes, code generation, JIT,
run), as the plug-in's worker process runs it; outputs are tallied and any
other output, or any failure, makes the script exit non-zero.

    python bench/gpu_seed_stress.py [SEED] [-n 1000] [--backend cuda] [--out FILE]
"""

from __future__ import annotations

import argparse
import collections
import datetime
import os
import platform
import re
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

DEFAULT_SEED = os.path.join(REPO, "..", "shared", "seed", "async.mlir")
LIBS = ["--shared-libs=%cuda_wrapper_library_dir/libcuda-runtime-wrappers%shlibext",
        "--shared-libs=%linalg_test_lib_dir/libmlir_async_runtime%shlibext",
        "--shared-libs=%linalg_test_lib_dir/libmlir_runner_utils%shlibext"]


def data_line(stdout: bytes) -> str:
    """The printed memref's data (``[84, 84]``), whitespace normalised like FileCheck."""
    text = stdout.decode(errors="replace")
    rows = [ln for ln in text.splitlines() if ln.strip().startswith("[")]
    return re.sub(r"\s+", " ", rows[-1].strip()) if rows else text.strip()[:80]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seed", nargs="?", default=DEFAULT_SEED)
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--backend", default="cuda")
    ap.add_argument("--out")
    args = ap.parse_args(argv)

    from runner_core.backends.cuda import driver as cuda
    from runner_core.cli import tool_main

    seed = os.path.abspath(args.seed)
    env = dict(os.environ)
    argv_run = ["mlir-cuda-runner", seed, "--entry-point-result=void", "-O0",
                f"--backend={args.backend}", *LIBS]
    outputs: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    times = []
    start = time.perf_counter()
    for i in range(args.n):
        t = time.perf_counter()
        res = tool_main(argv_run, b"", env, os.path.dirname(seed))
        times.append(time.perf_counter() - t)
        if res.returncode != 0:
            failures.append(f"run {i}: exit {res.returncode}: "
                            f"{res.stderr.decode(errors='replace')[:500]}")
            outputs[f"<exit {res.returncode}>"] += 1
            continue
        outputs[data_line(res.stdout)] += 1
    total = time.perf_counter() - start
    good = outputs.get("[84, 84]", 0)
    info = cuda.probe() if args.backend != "cpu" else None
    machine = (f"{info.name} ({info.arch}), driver {info.driver_version}" if info
               else f"{platform.machine()} (cpu backend)")
    lines = [f"# Seed stress run - {datetime.date.today().isoformat()}", "",
             f"Machine: {machine}, Python {platform.python_version()}. "
             f"Script: `bench/gpu_seed_stress.py -n {args.n} --backend {args.backend}`; seed "
             f"`shared/seed/async.mlir`, unchanged, run as `mlir-cuda-runner` in process.", "",
             "| output | count |", "| --- | --- |"]
    for text, count in outputs.most_common():
        lines.append(f"| `{text}` | {count} |")
    lines += ["", f"{good} of {args.n} runs printed `[84, 84]`. "
              f"Per run: median {statistics.median(times) * 1e3:.1f} ms, "
              f"max {max(times) * 1e3:.1f} ms; total {total:.1f} s."]
    if failures:
        lines += ["", "First failures:", "```", *failures[:5], "```"]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text + "\n")
    return 0 if good == args.n else 1


if __name__ == "__main__":
    sys.exit(main())
