"""arith casts, cmpi/cmpf and select on vectors and tensors: MLIR 22's type rules.

Each case is one op applied to the arguments of a function; the expected
outcome (accepted, or the verifier's message) is written here and, where
Debian's mlir-opt 22 is installed, also checked against it, so the table
cannot drift from upstream.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from runner_core.errors import IRError
from runner_core.ir.parse import parse_source
from runner_core.ir.printing import print_op

MLIR_OPT = os.environ.get("GPURUNNER_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")

ARGS = ("%x: vector<4xi32>, %f: vector<4xf32>, %d: vector<4xf64>, %c: vector<4xi1>, %t: i1, "
        "%i: index, %k: vector<3xi1>, %s: si32, %m: memref<4xi32>, %n: vector<2x3xi32>, "
        "%tn: tensor<?xi32>")

OK = None
CASES = [
    # casts: accepted on vectors, n-D vectors, tensors
    ("arith.extsi %x : vector<4xi32> to vector<4xi64>", OK),
    ("arith.extui %x : vector<4xi32> to vector<4xi64>", OK),
    ("arith.trunci %x : vector<4xi32> to vector<4xi8>", OK),
    ("arith.trunci %x overflow<nsw> : vector<4xi32> to vector<4xi8>", OK),
    ("arith.sitofp %x : vector<4xi32> to vector<4xf32>", OK),
    ("arith.uitofp %x : vector<4xi32> to vector<4xf64>", OK),
    ("arith.fptosi %f : vector<4xf32> to vector<4xi16>", OK),
    ("arith.fptoui %d : vector<4xf64> to vector<4xi64>", OK),
    ("arith.extf %f : vector<4xf32> to vector<4xf64>", OK),
    ("arith.extf %f fastmath<fast> : vector<4xf32> to vector<4xf64>", OK),
    ("arith.truncf %d : vector<4xf64> to vector<4xf16>", OK),
    ("arith.truncf %d to_nearest_even fastmath<nnan> : vector<4xf64> to vector<4xf32>", OK),
    ("arith.truncf %f : vector<4xf32> to vector<4xbf16>", OK),
    ("arith.index_cast %x : vector<4xi32> to vector<4xindex>", OK),
    ("arith.index_castui %x : vector<4xi32> to vector<4xindex>", OK),
    ("arith.bitcast %f : vector<4xf32> to vector<4xi32>", OK),
    ("arith.extsi %n : vector<2x3xi32> to vector<2x3xi64>", OK),
    ("arith.extsi %tn : tensor<?xi32> to tensor<?xi64>", OK),
    ("arith.extsi %tn : tensor<?xi32> to tensor<4xi64>",
     "failed to verify that input and output have the same tensor dimensions"),
    ("arith.extsi %x : vector<4xi32> to tensor<4xi64>",
     "failed to verify that input and output have the same tensor dimensions"),
    ("arith.index_cast %m : memref<4xi32> to memref<4xindex>", OK),
    # casts: rejected
    ("arith.extsi %x : vector<4xi32> to vector<4xi16>",
     "operand type 'vector<4xi32>' and result type 'vector<4xi16>' are cast incompatible"),
    ("arith.trunci %x : vector<4xi32> to vector<4xi64>",
     "operand type 'vector<4xi32>' and result type 'vector<4xi64>' are cast incompatible"),
    ("arith.extf %f : vector<4xf32> to vector<4xbf16>",
     "operand type 'vector<4xf32>' and result type 'vector<4xbf16>' are cast incompatible"),
    ("arith.index_cast %x : vector<4xi32> to vector<4xi64>",
     "operand type 'vector<4xi32>' and result type 'vector<4xi64>' are cast incompatible"),
    ("arith.index_cast %i : index to index",
     "operand type 'index' and result type 'index' are cast incompatible"),
    ("arith.bitcast %x : vector<4xi32> to vector<4xf64>",
     "operand type 'vector<4xi32>' and result type 'vector<4xf64>' are cast incompatible"),
    ("arith.extsi %x : vector<4xi32> to vector<3xi64>",
     "requires the same shape for all operands and results"),
    ("arith.extsi %x : vector<4xi32> to i64",
     "requires the same shape for all operands and results"),
    ("arith.extui %x : vector<4xi32> to vector<[4]xi64>",
     "requires the same shape for all operands and results"),
    ("arith.extsi %f : vector<4xf32> to vector<4xi64>",
     "operand #0 must be signless-fixed-width-integer-like, but got 'vector<4xf32>'"),
    ("arith.extsi %x : vector<4xi32> to vector<4xf64>",
     "result #0 must be signless-fixed-width-integer-like, but got 'vector<4xf64>'"),
    ("arith.extsi %s : si32 to i64",
     "operand #0 must be signless-fixed-width-integer-like, but got 'si32'"),
    ("arith.sitofp %i : index to f32",
     "operand #0 must be signless-fixed-width-integer-like, but got 'index'"),
    ("arith.fptosi %x : vector<4xi32> to vector<4xi32>",
     "operand #0 must be floating-point-like, but got 'vector<4xi32>'"),
    ("arith.index_cast %f : vector<4xf32> to vector<4xindex>",
     "operand #0 must be signless-integer-like or memref of signless-integer, "
     "but got 'vector<4xf32>'"),
    ("arith.bitcast %i : index to i64",
     "operand #0 must be signless-integer-or-float-like or memref of signless-integer or "
     "float, but got 'index'"),
    # comparisons
    ("arith.cmpi slt, %x, %x : vector<4xi32>", OK),
    ("arith.cmpi ult, %n, %n : vector<2x3xi32>", OK),
    ("arith.cmpf olt, %f, %f fastmath<fast> : vector<4xf32>", OK),
    ("arith.cmpi eq, %tn, %tn : tensor<?xi32>", OK),
    ('"arith.cmpi"(%x, %x) {predicate = 2 : i64} : (vector<4xi32>, vector<4xi32>) -> i1',
     "failed to verify that result type has i1 element type and same shape as operands"),
    ('"arith.cmpf"(%f, %f) {predicate = 2 : i64} : (vector<4xf32>, vector<4xf32>) '
     "-> vector<3xi1>",
     "failed to verify that result type has i1 element type and same shape as operands"),
    ('"arith.cmpi"(%x, %x) {predicate = 2 : i64} : (vector<4xi32>, vector<4xi32>) '
     "-> vector<4xi8>", "result #0 must be bool-like, but got 'vector<4xi8>'"),
    ('"arith.cmpi"(%x, %i) {predicate = 2 : i64} : (vector<4xi32>, index) -> vector<4xi1>',
     "requires all operands to have the same type"),
    ('"arith.cmpi"(%x, %x) {predicate = 12 : i64} : (vector<4xi32>, vector<4xi32>) '
     "-> vector<4xi1>", "attribute 'predicate' failed to satisfy constraint: allowed 64-bit "
     "signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9"),
    # select
    ("arith.select %c, %x, %x : vector<4xi1>, vector<4xi32>", OK),
    ("arith.select %t, %x, %x : vector<4xi32>", OK),
    ("arith.select %t, %m, %m : memref<4xi32>", OK),
    ('"arith.select"(%c, %x, %f) : (vector<4xi1>, vector<4xi32>, vector<4xf32>) '
     "-> vector<4xi32>",
     "failed to verify that all of {true_value, false_value, result} have same type"),
    ('"arith.select"(%i, %x, %x) : (index, vector<4xi32>, vector<4xi32>) -> vector<4xi32>',
     "operand #0 must be bool-like, but got 'index'"),
    ('"arith.select"(%k, %x, %x) : (vector<3xi1>, vector<4xi32>, vector<4xi32>) '
     "-> vector<4xi32>", "failed to verify that condition is signless i1 or has matching shape"),
    ('"arith.select"(%c, %m, %m) : (vector<4xi1>, memref<4xi32>, memref<4xi32>) '
     "-> memref<4xi32>",
     "if an operand is non-scalar, then there must be at least one non-scalar result"),
]


def _program(op: str) -> str:
    return f"func.func @f({ARGS}) {{\n  %r = {op}\n  return\n}}\n"


def _ours(op: str) -> str | None:
    try:
        parse_source(_program(op), "case.mlir")
    except IRError as e:
        first = str(e).splitlines()[0]
        return first.split(" op ", 1)[1] if " op " in first else first
    return None


@pytest.mark.parametrize(("op", "expected"), CASES, ids=[c[0][:60] for c in CASES])
def test_type_rules(op: str, expected: str | None):
    assert _ours(op) == expected


@pytest.mark.skipif(not os.path.exists(MLIR_OPT), reason="mlir-opt 22 not installed")
def test_table_agrees_with_mlir_opt():
    src = "// -----\n".join(_program(op) for op, _ in CASES)
    proc = subprocess.run([MLIR_OPT, "-split-input-file", "-"], input=src, text=True,
                          capture_output=True, timeout=120)
    starts = [1]
    for op, _ in CASES[:-1]:
        starts.append(starts[-1] + _program(op).count("\n") + 1)
    upstream: list[str | None] = [None] * len(CASES)
    for m in re.finditer(r"^<stdin>:(\d+):\d+: error: (.*)$", proc.stderr, re.M):
        i = max(k for k, s in enumerate(starts) if s <= int(m.group(1)))
        msg = m.group(2)
        upstream[i] = msg.split(" op ", 1)[1] if " op " in msg else msg
    wrong = [(op, exp, up) for (op, exp), up in zip(CASES, upstream, strict=True) if exp != up]
    assert not wrong, "\n".join(f"{op}\n  table: {e}\n  mlir-opt: {u}" for op, e, u in wrong)


def test_vector_compare_has_vector_result_and_round_trips():
    text = _program("arith.cmpf olt, %f, %f fastmath<fast> : vector<4xf32>")
    module = parse_source(text, "case.mlir")
    printed = print_op(module)
    assert "%0 = arith.cmpf olt, %arg1, %arg1 fastmath<fast> : vector<4xf32>" in printed
    func = module.body.block.first_op
    cmp = func.body.block.first_op
    assert str(cmp.results[0].type) == "vector<4xi1>"
    assert print_op(parse_source(printed, "again.mlir")) == printed


def test_select_prints_the_condition_type_only_when_it_is_a_vector():
    both = print_op(parse_source(_program(
        "arith.select %c, %x, %x : vector<4xi1>, vector<4xi32>"), "a.mlir"))
    assert "arith.select %arg3, %arg0, %arg0 : vector<4xi1>, vector<4xi32>" in both
    scalar = print_op(parse_source(_program("arith.select %t, %x, %x : vector<4xi32>"), "b.mlir"))
    assert "arith.select %arg4, %arg0, %arg0 : vector<4xi32>" in scalar
