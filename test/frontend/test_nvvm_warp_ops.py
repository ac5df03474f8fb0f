"""`nvvm.elect.sync` and `nvvm.shfl.sync` as MLIR 22 writes and checks them.

Expected texts and messages were captured from LLVM 22's ``mlir-opt`` (and are
re-checked against it where it is installed), never from our own output.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from runner_core.opt import tool_main

MLIR_OPT = shutil.which("mlir-opt", path="/usr/lib/llvm-22/bin")

SOURCE = """\
llvm.func @f(%m: i32, %v: f32, %o: i32, %c: i32) -> i1 {
  %e = nvvm.elect.sync -> i1
  %em = nvvm.elect.sync %m -> i1
  %0 = nvvm.shfl.sync idx %m, %m, %o, %c : i32 -> i32
  %1 = nvvm.shfl.sync bfly %m, %v, %o, %c {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
  %2 = nvvm.shfl.sync up %m, %v, %o, %c : f32 -> f32
  %3 = nvvm.shfl.sync down %m, %v, %o, %c : f32 -> f32
  %4 = llvm.extractvalue %1[1] : !llvm.struct<(f32, i1)>
  llvm.return %4 : i1
}
"""

# mlir-opt 22's output: two spaces before the shuffle kind, the unit attribute kept.
PRINTED = """\
module {
  llvm.func @f(%arg0: i32, %arg1: f32, %arg2: i32, %arg3: i32) -> i1 {
    %0 = nvvm.elect.sync -> i1
    %1 = nvvm.elect.sync %arg0 -> i1
    %2 = nvvm.shfl.sync  idx %arg0, %arg0, %arg2, %arg3 : i32 -> i32
    %3 = nvvm.shfl.sync  bfly %arg0, %arg1, %arg2, %arg3 {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
    %4 = nvvm.shfl.sync  up %arg0, %arg1, %arg2, %arg3 : f32 -> f32
    %5 = nvvm.shfl.sync  down %arg0, %arg1, %arg2, %arg3 : f32 -> f32
    %6 = llvm.extractvalue %3[1] : !llvm.struct<(f32, i1)> \n    llvm.return %6 : i1
  }
}

"""

GENERIC_SHUFFLES = [
    '"nvvm.shfl.sync"(%arg0, %arg0, %arg2, %arg3) <{kind = #nvvm<shfl_kind idx>}> '
    ': (i32, i32, i32, i32) -> i32',
    '"nvvm.shfl.sync"(%arg0, %arg1, %arg2, %arg3) <{kind = #nvvm<shfl_kind bfly>, '
    'return_value_and_is_valid}> : (i32, f32, i32, i32) -> !llvm.struct<(f32, i1)>',
]

BAD = [
    ("%v, %o, %c {return_value_and_is_valid} : f32 -> f32",
     "'nvvm.shfl.sync' op expected return type to be a two-element struct"),
    ("%v, %o, %c {return_value_and_is_valid} : f32 -> !llvm.struct<(i32, i1)>",
     "'nvvm.shfl.sync' op expected first element in the returned struct to be of type "
     "'f32' but got 'i32' instead"),
    ("%o, %o, %c {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i32)>",
     "'nvvm.shfl.sync' op expected second element in the returned struct to be of type "
     "'i1' but got 'i32' instead"),
    ("%o, %o, %c : i32 -> !llvm.struct<(i32, i1)>",
     "'nvvm.shfl.sync' op \"return_value_and_is_valid\" attribute must be specified when "
     "the return type is a struct type"),
    ("%v, %o, %c : f32 -> i32",
     "'nvvm.shfl.sync' op expected return type to be of type 'f32' but got 'i32' instead"),
    ("%h, %o, %c : f16 -> f16",
     "'nvvm.shfl.sync' op operand #1 must be 32-bit signless integer or 32-bit float, "
     "but got 'f16'"),
]


def _bad_source(tail: str) -> str:
    return ("llvm.func @f(%m: i32, %v: f32, %o: i32, %c: i32, %h: f16) {\n"
            f"  %2 = nvvm.shfl.sync up %m, {tail}\n  llvm.return\n}}\n")


def _opt(src: str, *args: str):
    return tool_main(["mlir-opt", "-", *args], src.encode(), dict(os.environ), os.getcwd())


def test_prints_as_mlir_opt():
    res = _opt(SOURCE)
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.decode() == PRINTED


def test_generic_form_as_mlir_opt():
    res = _opt(SOURCE, "-mlir-print-op-generic")
    assert res.returncode == 0, res.stderr.decode()
    out = res.stdout.decode()
    for line in GENERIC_SHUFFLES:
        assert line in out
    assert '"nvvm.elect.sync"(%arg0) : (i32) -> i1' in out
    assert '"nvvm.elect.sync"() : () -> i1' in out


@pytest.mark.parametrize("tail,message", BAD, ids=[str(i) for i in range(len(BAD))])
def test_verifier_messages(tail, message):
    res = _opt(_bad_source(tail))
    assert res.returncode != 0
    assert res.stderr.decode().splitlines()[0] == f"<stdin>:2:8: error: {message}"


@pytest.mark.skipif(MLIR_OPT is None, reason="LLVM 22's mlir-opt is not installed")
def test_expectations_are_what_mlir_opt_22_says():
    real = subprocess.run([MLIR_OPT, "-"], input=SOURCE.encode(), capture_output=True,
                          timeout=60)
    assert real.stdout.decode() == PRINTED
    for tail, message in BAD:
        real = subprocess.run([MLIR_OPT, "-"], input=_bad_source(tail).encode(),
                              capture_output=True, timeout=60)
        assert real.stderr.decode().splitlines()[0] == f"<stdin>:2:8: error: {message}"
