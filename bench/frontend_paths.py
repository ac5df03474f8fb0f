"""How far a faster front-end path goes: the same programs parsed three ways.

For each test file of the folders (its text as written, RUN lines and all):

* custom: ``parse_source`` of the text (what ``mlir-opt %s`` does first),
  including verification;
* generic: the same module printed in the generic form
  (``--mlir-print-op-generic``) and parsed back, verified (what a front end
  that only ever read the generic form would cost);
* cached: what a warm run pays instead (``runner_core.cache``: the key's
  SHA-256 over the text plus reading and decoding the JSON entry).

Medians of ``--repeat`` timings per file in one warm process; files the front
end rejects are left out (and counted).  Sizes are in ops (every op the module
holds).

    python bench/frontend_paths.py [FOLDER ...] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = Path("/work/upstream/llvm-project/mlir/test")


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    folders = args.folders or sorted((UPSTREAM / "Integration" / "Dialect").glob("*/CPU"))
    from runner_core import cache
    from runner_core.errors import RunnerError
    from runner_core.ir.parse import parse_source
    from runner_core.ir.printing import print_op

    env = {"GPURUNNER_CACHE_DIR": tempfile.mkdtemp(prefix="frontend-paths-")}
    rows = []
    rejected = 0
    for folder in folders:
        for path in sorted(folder.rglob("*.mlir")):
            text = path.read_text(errors="replace")
            try:
                module = parse_source(text, str(path))
                generic = print_op(module, generic=True)
                parse_source(generic, "<generic>")
            except (RunnerError, RecursionError, ValueError):
                rejected += 1
                continue
            ops = sum(1 for _ in module.walk())
            key = cache.make_key("frontend", ["bench", text])
            cache.put_json("frontend", env, key, {"ir": generic})
            custom_t = best_of(lambda t=text, p=str(path): parse_source(t, p), args.repeat)
            generic_t = best_of(lambda g=generic: parse_source(g, "<generic>"), args.repeat)

            def lookup(t=text, k=key):
                cache.STORES["frontend"].clear_memory()  # read from disk, as a new process would
                cache.make_key("frontend", ["bench", t])
                cache.get_json("frontend", env, k)

            cached_t = best_of(lookup, args.repeat)
            rows.append((path, ops, custom_t, generic_t, cached_t))
    if not rows:
        print("no programs parsed")
        return 1
    small = [r for r in rows if r[1] < 100]

    def summary(label: str, sel: list) -> str:
        if not sel:
            return f"| {label} | 0 | | | | |"
        med = [statistics.median(r[i] for r in sel) * 1000 for i in (2, 3, 4)]
        ops = statistics.median(r[1] for r in sel)
        return (f"| {label} | {len(sel)} | {ops:.0f} | {med[0]:.2f} | {med[1]:.2f} "
                f"({med[0] / med[1]:.2f}x) | {med[2]:.3f} ({med[0] / med[2]:.0f}x) |")

    print("| programs | files | median ops | custom form (ms) | generic form (ms) | "
          "cached (ms) |")
    print("|---|---|---|---|---|---|")
    print(summary("all", rows))
    print(summary("under 100 ops", small))
    print(f"\n{rejected} file(s) the front end rejects were left out.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
