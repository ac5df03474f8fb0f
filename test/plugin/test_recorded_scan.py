"""Static detection of recorded lowerings whose output reaches something other than a runner."""

import pytest

from pytest_gpurunner import recorded
from pytest_gpurunner.job import RunLine, ToolTable
from pytest_gpurunner.script import parse_shell
from pytest_gpurunner.tools import DEFAULT_EMBEDDED

EMBEDDED = ToolTable("embedded", dict(DEFAULT_EMBEDDED), [])


def _lines(*commands: str) -> list[RunLine]:
    return [RunLine(i + 1, i + 1, c, c, parse_shell(c)) for i, c in enumerate(commands)]


def _found(*commands: str, table: ToolTable = EMBEDDED):
    return [(f.lineno, f.passes, f.consumer) for f in recorded.scan(_lines(*commands), table)]


@pytest.mark.parametrize("command, expected", [
    ("mlir-opt in.mlir -convert-scf-to-cf | FileCheck in.mlir",
     [(1, ("convert-scf-to-cf",), "FileCheck")]),
    ("mlir-opt in.mlir --pass-pipeline='builtin.module(func.func(convert-scf-to-cf),cse)' "
     "| not FileCheck in.mlir", [(1, ("convert-scf-to-cf",), "FileCheck")]),
    ("mlir-opt in.mlir -convert-to-llvm | mlir-opt -canonicalize | mlir-translate "
     "--mlir-to-llvmir", [(1, ("convert-to-llvm",), "mlir-translate")]),
    # a runner reads it: as intended
    ("mlir-opt in.mlir -convert-to-llvm | mlir-runner -e main | FileCheck in.mlir", []),
    # no lowering recorded (canonicalize runs for real)
    ("mlir-opt in.mlir -canonicalize | FileCheck in.mlir", []),
    # our own name: recording is its documented output
    ("gpurunner-opt in.mlir -convert-scf-to-cf | FileCheck in.mlir", []),
])
def test_pipes(command, expected):
    assert _found(command) == expected


def test_through_a_file_on_a_later_line():
    assert _found("mlir-opt in.mlir -test-lower-to-llvm -o out.mlir",
                  "mlir-runner out.mlir -e main",
                  "FileCheck in.mlir --input-file out.mlir") == [
        (3, ("test-lower-to-llvm",), "FileCheck")]
    assert _found("mlir-opt in.mlir -convert-scf-to-cf > out.mlir",
                  "FileCheck in.mlir < out.mlir") == [(2, ("convert-scf-to-cf",), "FileCheck")]


def test_a_pass_starting_with_o_is_not_an_output_file():
    assert _found("mlir-opt in.mlir -one-shot-bufferize -convert-to-llvm -o=out.mlir",
                  "cat out.mlir") == [(2, ("convert-to-llvm",), "cat")]


def test_system_tools_record_nothing():
    table = ToolTable("system", dict(DEFAULT_EMBEDDED), [])
    assert _found("mlir-opt in.mlir -convert-scf-to-cf | FileCheck in.mlir", table=table) == []
