"""Inputs shared by the reliability tests and ``bench/reliability.py``.

The bad-input corpus (``bad/*.mlir``) is run through the embedded tools the
way its RUN lines say, and both the tests and the benchmark build the same
very large and very deep programs; one definition keeps what the benchmark
counts and what the tests assert about the same inputs.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

BAD_DIR = Path(__file__).parent / "bad"

# RUN-line substitutions the plug-in makes, pointing at the built-in runtime providers.
BUILTIN_LIBS = {"%mlir_runner_utils": "mlir_runner_utils",
                "%mlir_c_runner_utils": "mlir_c_runner_utils",
                "%mlir_async_runtime": "mlir_async_runtime",
                "%mlir_cuda_runtime": "mlir_cuda_runtime"}


def corpus_command(path: Path, tmp: Path) -> tuple[list[str], str]:
    """The embedded tool's argv from the file's RUN line, and its first CHECK pattern."""
    raw = path.read_bytes().decode("utf-8", errors="replace")
    run = re.search(r"^// RUN: not (gpurunner(?:-opt)?) (.*?) 2>&1 \| FileCheck %s\s*$", raw,
                    re.M)
    assert run, f"{path.name}: expected '// RUN: not gpurunner ... 2>&1 | FileCheck %s'"
    args = []
    for a in shlex.split(run.group(2)):
        a = a.replace("%s", str(path)).replace("%t", str(tmp / "t"))
        for name, lib in BUILTIN_LIBS.items():
            a = a.replace(name, lib)
        args.append(a)
    checks = re.findall(r"^// CHECK: (.*?)\s*$", raw, re.M)
    assert checks, f"{path.name}: no CHECK line"
    errors = [c for c in checks if "error" in c.lower()]
    return [run.group(1), *args], (errors or checks)[0]


def chain(n: int, tail: str = "") -> str:
    """A valid program of ``n`` dependent additions (then ``tail``, then a print)."""
    lines = ["func.func @main() {", "  %c0 = arith.constant 0 : i64",
             "  %c1 = arith.constant 1 : i64"]
    prev = "%c0"
    for i in range(n):
        lines.append(f"  %v{i} = arith.addi {prev}, %c1 : i64")
        prev = f"%v{i}"
    lines += [tail, f"  vector.print {prev} : i64", "  return", "}"]
    return "\n".join(lines) + "\n"


def nested_ifs(depth: int, indent: bool = True) -> str:
    """A valid program printing 7 inside ``depth`` nested ``scf.if``s (unindented when
    ``indent`` is false: the file then grows linearly, not quadratically, with depth)."""
    pad = (lambda i: " " * i) if indent else (lambda i: "")
    lines = ["func.func @main() {", "  %t = arith.constant true", "  %c = arith.constant 7 : i32"]
    lines += ["  " + pad(i) + "scf.if %t {" for i in range(depth)]
    lines.append("  vector.print %c : i32")
    lines += ["  " + pad(i) + "}" for i in reversed(range(depth))]
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"
