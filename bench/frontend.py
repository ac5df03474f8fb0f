"""Front-end latency: import + context + parse (+ verify) of a 60-op test program.

Budget (issue 3): <= 150 ms cold (fresh process), <= 15 ms warm (in process).
References measured in the same run, so numbers from different machines compare:
* `python -c pass` (interpreter start-up, not counted in "cold");
* xDSL alone: importing `xdsl.parser` with the stock dialects and parsing the
  same program in generic form (which needs none of our syntax) — the floor
  our front end sits on.

Usage: python bench/frontend.py [--runs N] [--write]   (--write records a result file)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAM = HERE / "frontend_program.mlir"

COLD_OURS = r"""
import json, sys, time
t0 = time.perf_counter()
from runner_core.ir.parse import parse_source
t1 = time.perf_counter()
from runner_core.ir.context import shared_context
shared_context()
t2 = time.perf_counter()
m = parse_source(open(sys.argv[1]).read(), sys.argv[1])
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "context": t2 - t1, "parse": t3 - t2, "total": t3 - t0,
                  "ops": sum(1 for _ in m.walk())}))
"""

COLD_XDSL = r"""
import json, sys, time
t0 = time.perf_counter()
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.parser import Parser
ctx = Context(allow_unregistered=True)
for name, factory in get_all_dialects().items():
    ctx.register_dialect(name, factory)
t1 = time.perf_counter()
Parser(ctx, sys.stdin.read(), "generic").parse_module()
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "parse": t2 - t1, "total": t2 - t0}))
"""


def _fresh(code: str, *args: str, stdin: str | None = None) -> tuple[dict, float]:
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code, *args], input=stdin, text=True,
                         capture_output=True, check=True, cwd=HERE.parent)
    wall = time.perf_counter() - t
    return json.loads(out.stdout), wall


def _median(xs: list[float]) -> float:
    return statistics.median(xs) * 1e3


def _min(xs: list[float]) -> float:
    return min(xs) * 1e3


def _generic_text(text: str) -> str:
    from runner_core.ir.parse import parse_source
    from runner_core.ir.printing import print_op

    return print_op(parse_source(text, "p"), generic=True)


def run(runs: int) -> dict:
    text = PROGRAM.read_text()
    generic = _generic_text(text)

    startup = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        startup.append(time.perf_counter() - t)

    cold = [_fresh(COLD_OURS, str(PROGRAM)) for _ in range(runs)]
    cold_x = [_fresh(COLD_XDSL, stdin=generic) for _ in range(runs)]

    # Warm: in this process, after one parse has loaded everything.
    from xdsl.context import Context
    from xdsl.dialects import get_all_dialects
    from xdsl.parser import Parser

    from runner_core.ir.parse import parse_source

    parse_source(text, "p")
    warm, warm_noverify, warm_x = [], [], []
    xctx = Context(allow_unregistered=True)
    for name, factory in get_all_dialects().items():
        xctx.register_dialect(name, factory)
    Parser(xctx, generic, "g").parse_module()
    for _ in range(max(runs * 10, 30)):
        t = time.perf_counter()
        parse_source(text, "p")
        warm.append(time.perf_counter() - t)
        t = time.perf_counter()
        parse_source(text, "p", verify=False)
        warm_noverify.append(time.perf_counter() - t)
        t = time.perf_counter()
        Parser(xctx, generic, "g").parse_module()
        warm_x.append(time.perf_counter() - t)

    return {
        "min": {
            "cold_total_ms": _min([c["total"] for c, _ in cold]),
            "xdsl_cold_total_ms": _min([c["total"] for c, _ in cold_x]),
            "warm_ms": _min(warm),
            "xdsl_warm_generic_parse_ms": _min(warm_x),
            "python_startup_ms": _min(startup),
        },
        "ops": cold[0][0]["ops"],
        "python_startup_ms": _median(startup),
        "cold_total_ms": _median([c["total"] for c, _ in cold]),
        "cold_import_ms": _median([c["import"] for c, _ in cold]),
        "cold_context_ms": _median([c["context"] for c, _ in cold]),
        "cold_parse_ms": _median([c["parse"] for c, _ in cold]),
        "cold_process_wall_ms": _median([w for _, w in cold]),
        "xdsl_cold_total_ms": _median([c["total"] for c, _ in cold_x]),
        "xdsl_cold_import_ms": _median([c["import"] for c, _ in cold_x]),
        "warm_ms": _median(warm),
        "warm_parse_only_ms": _median(warm_noverify),
        "xdsl_warm_generic_parse_ms": _median(warm_x),
    }


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{cpu}, {os.cpu_count()} cores, load {load:.2f}, Python "
            f"{platform.python_version()}, {platform.system()} {platform.release()}")


def report(r: dict) -> str:
    ratio_cold = r["cold_total_ms"] / r["xdsl_cold_total_ms"]
    ratio_warm = r["warm_ms"] / r["xdsl_warm_generic_parse_ms"]
    m = r["min"]
    return f"""# Front-end latency ({dt.date.today().isoformat()})

Machine: {_machine()}
Program: bench/frontend_program.mlir ({r['ops']} ops, modern syntax: func, arith, math,
memref, scf, vector, gpu, async). Medians unless noted. Command: `python bench/frontend.py --write`.

| measure | ms | budget |
| --- | ---: | ---: |
| cold: import + context + parse + verify (fresh process, excl. interpreter start) | {r['cold_total_ms']:.1f} | 150 |
| &nbsp;&nbsp;of which import of runner_core.ir.parse (xDSL included) | {r['cold_import_ms']:.1f} | |
| &nbsp;&nbsp;of which context | {r['cold_context_ms']:.1f} | |
| &nbsp;&nbsp;of which first parse (lazy dialect loading) + verify | {r['cold_parse_ms']:.1f} | |
| cold process wall time (incl. interpreter start) | {r['cold_process_wall_ms']:.1f} | |
| warm: parse + verify, in process | {r['warm_ms']:.2f} | 15 |
| warm: parse only | {r['warm_parse_only_ms']:.2f} | |

References in the same run:

| reference | ms |
| --- | ---: |
| `python -c pass` | {r['python_startup_ms']:.1f} |
| xDSL alone, cold: import xdsl.parser + all stock dialects registered + parse generic form | {r['xdsl_cold_total_ms']:.1f} |
| &nbsp;&nbsp;of which import | {r['xdsl_cold_import_ms']:.1f} |
| xDSL alone, warm: parse of the generic form (no verify) | {r['xdsl_warm_generic_parse_ms']:.2f} |

Ratios: cold ours / xDSL alone = {ratio_cold:.2f}; warm ours (with verify) / xDSL generic parse = {ratio_warm:.2f}.

Best of the runs (least disturbed by other load on the machine): cold {m['cold_total_ms']:.1f} ms
(xDSL alone {m['xdsl_cold_total_ms']:.1f}), warm {m['warm_ms']:.2f} ms (xDSL generic parse
{m['xdsl_warm_generic_parse_ms']:.2f}), `python -c pass` {m['python_startup_ms']:.1f} ms.
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--write", action="store_true", help="record bench/results/frontend-DATE.md")
    args = ap.parse_args()
    r = run(args.runs)
    text = report(r)
    print(text)
    if args.write:
        out = HERE / "results" / f"frontend-{dt.date.today().isoformat()}.md"
        out.parent.mkdir(exist_ok=True)
        out.write_text(text)
        print(f"written {out}")


if __name__ == "__main__":
    main()
