"""`llvm.mlir.constant` prints its value with the value's own type, as mlir-opt 22 does
(`(4 : index) : i64`, `(8 : i64) : i32` for a bare `(8)`), and reads back the same: the
expected lines are written here and, where Debian's mlir-opt 22 is installed, also
compared with its output."""

from __future__ import annotations

import os
import subprocess

import pytest

from runner_core.ir.parse import parse_source
from runner_core.ir.printing import print_op

MLIR_OPT = os.environ.get("GPURUNNER_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")

CASES = [  # (as written, as mlir-opt 22 prints it)
    ("(4 : index) : i64", "(4 : index) : i64"),
    ("(5 : i64) : i64", "(5 : i64) : i64"),
    ("(6) : i64", "(6 : i64) : i64"),
    ("(7 : i32) : i32", "(7 : i32) : i32"),
    ("(8) : i32", "(8 : i64) : i32"),
    ("(1.5 : f32) : f32", "(1.500000e+00 : f32) : f32"),
    ("(true) : i1", "(true) : i1"),
    ("(dense<[1, 2]> : vector<2xi32>) : vector<2xi32>",
     "(dense<[1, 2]> : vector<2xi32>) : vector<2xi32>"),
]


def _module(forms) -> str:
    body = "\n".join(f"  %c{i} = llvm.mlir.constant{f}" for i, f in enumerate(forms))
    return f"llvm.func @f() {{\n{body}\n  llvm.return\n}}\n"


def _constants(text: str) -> list[str]:
    return [line.split("llvm.mlir.constant", 1)[1].strip() for line in text.splitlines()
            if "llvm.mlir.constant" in line]


def test_printed_as_mlir_opt_22_prints_it_and_read_back_the_same():
    text = print_op(parse_source(_module([w for w, _ in CASES]), "c.mlir"))
    assert _constants(text) == [p for _, p in CASES]
    again = print_op(parse_source(text, "again.mlir"))
    assert _constants(again) == [p for _, p in CASES]


@pytest.mark.skipif(not os.path.exists(MLIR_OPT), reason="LLVM 22's mlir-opt is not installed")
def test_the_table_is_mlir_opt_22s():
    real = subprocess.run([MLIR_OPT], input=_module([w for w, _ in CASES]).encode(),
                          capture_output=True, check=True).stdout.decode()
    assert _constants(real) == [p for _, p in CASES]
