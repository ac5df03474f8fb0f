"""Printing fidelity: `gpurunner-opt FILE` against LLVM 22's `mlir-opt FILE`, byte for byte.

For every `.mlir` file under the given folders, in three modes (plain,
`-mlir-print-op-generic`, `-mlir-print-debuginfo`), the real mlir-opt prints
the file (with `-split-input-file` / `-allow-unregistered-dialect` when the
file's RUN lines use them) and so does the embedded mlir-opt (in process).
Each file and mode is then one of:

* identical    -- the same bytes;
* different    -- both printed, the bytes differ (the first differing line is listed);
* unsupported  -- mlir-opt printed, ours refused with an error (an op, attribute or
                  syntax the front end does not know: the first line is listed);
* rejected     -- mlir-opt 22 itself refuses the file (not counted against us).

`--chunks` also measures each top-level op of a file on its own (with the file's
alias definitions), so one unknown op does not hide the rest of an upstream file.

Usage: python bench/printing_fidelity.py FOLDER... [--chunks] [--write] [--show N]
Needs /usr/lib/llvm-22/bin/mlir-opt (or GPURUNNER_MLIR_OPT).
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from runner_core.opt import tool_main  # noqa: E402

MLIR_OPT = os.environ.get("GPURUNNER_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")
MODES = {"plain": [], "generic": ["-mlir-print-op-generic"],
         "debuginfo": ["-mlir-print-debuginfo"]}
_RUN = re.compile(r"//\s*RUN:(.*)")


def file_flags(text: str) -> list[str]:
    """The parsing flags the file's RUN lines give mlir-opt."""
    runs = " ".join(m.group(1) for m in _RUN.finditer(text))
    flags = []
    if re.search(r"(^|\s)--?split-input-file\b", runs):
        flags.append("-split-input-file")
    if re.search(r"(^|\s)--?allow-unregistered-dialect\b", runs):
        flags.append("-allow-unregistered-dialect")
    return flags


def compare(text: str, name: str, flags: list[str], cwd: str) -> tuple[str, str]:
    """(verdict, detail) for one input text and one set of mlir-opt flags."""
    ref = subprocess.run([MLIR_OPT, "-", *flags], input=text.encode(), capture_output=True,
                         timeout=120)
    if ref.returncode != 0:
        return "rejected", ref.stderr.decode(errors="replace").splitlines()[0][:160] \
            if ref.stderr else ""
    try:
        ours = tool_main(["gpurunner-opt", "-", *flags], text.encode(), os.environ, cwd)
    except Exception as e:  # a traceback is a bug of ours: count it, never hide it
        return "crash", f"{type(e).__name__}: {e}"[:160]
    if ours.returncode != 0:
        msg = ours.stderr.decode(errors="replace").strip().splitlines()
        return "unsupported", (msg[0] if msg else "")[:160]
    if ours.stdout == ref.stdout:
        return "identical", ""
    want = ref.stdout.decode(errors="replace").splitlines()
    got = ours.stdout.decode(errors="replace").splitlines()
    for line in difflib.unified_diff(want, got, lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        return "different", line[:200]
    return "different", "(trailing bytes differ)"


def top_level_chunks(text: str) -> list[str]:
    """Each top-level op of a file with the file's alias definitions (`#map = ...`)."""
    aliases, chunks, cur = [], [], []
    depth = 0
    for line in text.splitlines(keepends=True):
        code = _code(line)
        if depth == 0 and code.strip():
            if re.match(r"\s*[#!][\w.$-]+\s*=", code):
                aliases.append(line)
                depth += _balance(code)
                continue
            if cur and any(_code(c).strip() for c in cur):
                chunks.append(cur)
                cur = []
        cur.append(line)
        depth += _balance(code)
    if cur and any(_code(c).strip() for c in cur):
        chunks.append(cur)
    return ["".join(aliases) + "".join(c) for c in chunks]


def _code(line: str) -> str:
    out, in_str, i = [], False, 0
    while i < len(line):
        ch = line[i]
        if in_str:
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif line.startswith("//", i):
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _balance(code: str) -> int:
    return sum(code.count(c) for c in "({[") - sum(code.count(c) for c in ")}]")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--chunks", action="store_true", help="also measure top-level ops alone")
    ap.add_argument("--write", action="store_true", help="record bench/results/printing-DATE.md")
    ap.add_argument("--show", type=int, default=50, help="list at most N non-identical cases")
    args = ap.parse_args()
    if not os.path.exists(MLIR_OPT):
        print(f"needs LLVM 22's mlir-opt at {MLIR_OPT}", file=sys.stderr)
        return 2
    files = sorted({p for f in args.folders for p in
                    ([Path(f)] if f.endswith(".mlir") else Path(f).rglob("*.mlir"))})
    t0 = time.perf_counter()
    counts = {m: Counter() for m in MODES}
    chunk_counts = {m: Counter() for m in MODES}
    cases: list[str] = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        flags = file_flags(text)
        for mode, mflags in MODES.items():
            verdict, detail = compare(text, str(path), flags + mflags, str(path.parent))
            counts[mode][verdict] += 1
            if verdict in ("different", "unsupported", "crash"):
                cases.append(f"| {path} | {mode} | {verdict} | `{_md(detail)}` |")
            if args.chunks and "-split-input-file" not in flags and verdict != "identical":
                for chunk in top_level_chunks(text):
                    v, d = compare(chunk, str(path), flags + mflags, str(path.parent))
                    chunk_counts[mode][v] += 1
                    if v in ("different", "crash"):
                        cases.append(f"| {path} (chunk) | {mode} | {v} | `{_md(d)}` |")
            elif args.chunks:
                chunk_counts[mode][verdict] += 1
    wall = time.perf_counter() - t0
    kinds = ["identical", "different", "unsupported", "crash", "rejected"]
    lines = [f"{len(files)} files under {', '.join(args.folders)}; {wall:.1f} s.", "",
             "| mode | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
    for mode in MODES:
        lines.append(f"| {mode} | " + " | ".join(str(counts[mode][k]) for k in kinds) + " |")
    if args.chunks:
        lines += ["", "Top-level ops measured alone (files not identical as a whole; an "
                  "identical file counts once):", "",
                  "| mode | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
        for mode in MODES:
            lines.append(f"| {mode} | " + " | ".join(str(chunk_counts[mode][k])
                                                     for k in kinds) + " |")
    if cases:
        lines += ["", f"Not identical ({len(cases)}; first {args.show} listed, with the first "
                  "differing line of ours or the first line of our error):", "",
                  "| file | mode | verdict | detail |", "|---|---|---|---|",
                  *cases[:args.show]]
    body = "\n".join(lines) + "\n"
    print(body)
    if args.write:
        from _common import write_result

        write_result("printing", "Printing fidelity against LLVM 22 mlir-opt",
                     "python bench/printing_fidelity.py " + " ".join(sys.argv[1:]), body,
                     tools=_mlir_version())
    return 0


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")


def _mlir_version() -> str:
    out = subprocess.run([MLIR_OPT, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"LLVM version (\S+)", out)
    return f"mlir-opt {m.group(1)}" if m else "mlir-opt"


if __name__ == "__main__":
    sys.exit(main())
