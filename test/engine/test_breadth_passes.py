"""Passes made usable for upstream tests: test-arith-emulate-wide-int (kept ops where LLVM 22
emulates exactly, an error where its emulation fails: each failing case fails with the real
mlir-opt 22 too) and convert-math-to-funcs (recorded; its ipowi refused)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from runner_core import cli, opt

PASS = '--test-arith-emulate-wide-int=widest-int-supported=8'
PROGRAM = """
func.func @emulate_ops(%a: i16, %b: i16) -> i16 {
  %s = arith.addi %a, %b : i16
  %m = arith.muli %s, %b : i16
  %r = arith.shrsi %m, %a : i16
  return %r : i16
}
func.func @main() {
  %a = arith.constant 3 : i16
  %b = arith.constant -1234 : i16
  %r = func.call @emulate_ops(%a, %b) : (i16, i16) -> i16
  vector.print %r : i16
  return
}
"""
FAILING = {
    "divsi": "func.func @emulate_d(%a: i16, %b: i16) -> i16 {\n"
             "  %r = arith.divsi %a, %b : i16\n  return %r : i16\n}\n",
    "too wide": "func.func @emulate_w(%a: i64, %b: i64) -> i64 {\n"
                "  %r = arith.addi %a, %b : i64\n  return %r : i64\n}\n",
    "vector op": "func.func @emulate_v(%a: vector<2xi16>) -> i16 {\n"
                 "  %e = vector.extract %a[0] : i16 from vector<2xi16>\n  return %e : i16\n}\n",
}


def test_emulated_function_computes_the_native_result(tmp_path):
    r = opt.tool_main(["mlir-opt", PASS], PROGRAM.encode(), {}, str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    run = cli.tool_main(["gpurunner", "-e", "main", "--entry-point-result=void",
                         "--shared-libs=mlir_c_runner_utils"], r.stdout, {}, str(tmp_path))
    assert run.returncode == 0, run.stderr.decode()
    want = (((3 - 1234) * -1234) & 0xFFFF)  # Python model of the i16 arithmetic
    want = want - 0x10000 if want & 0x8000 else want
    assert run.stdout.decode().strip() == str(want >> 3)


def test_functions_without_the_prefix_are_not_checked(tmp_path):
    text = FAILING["divsi"].replace("@emulate_d", "@native_d")
    r = opt.tool_main(["mlir-opt", PASS], text.encode(), {}, str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()


@pytest.mark.parametrize("case", sorted(FAILING))
def test_what_llvm_cannot_emulate_is_an_error(tmp_path, case):
    r = opt.tool_main(["mlir-opt", PASS], FAILING[case].encode(), {}, str(tmp_path))
    assert r.returncode != 0
    assert "unsupported by the embedded runner" in r.stderr.decode()
    real = shutil.which("mlir-opt", path="/usr/lib/llvm-22/bin")
    if real:
        p = subprocess.run([real, PASS], input=FAILING[case].encode(), capture_output=True)
        assert p.returncode != 0 and b"failed to legalize operation" in p.stderr


def test_ipowi_after_math_to_funcs_is_refused(tmp_path):
    """LLVM 22's convert-math-to-funcs expansion of ipowi divides by zero for 0 ** -1
    (1 at -O3): the runner refuses rather than give the correct 0."""
    text = ("func.func @main() -> i32 {\n  %b = arith.constant 0 : i32\n"
            "  %e = arith.constant -1 : i32\n  %r = math.ipowi %b, %e : i32\n"
            "  return %r : i32\n}\n")
    r = opt.tool_main(["mlir-opt", "-convert-math-to-funcs"], text.encode(), {}, str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    run = cli.tool_main(["gpurunner", "-e", "main", "--entry-point-result=i32"], r.stdout, {},
                        str(tmp_path))
    assert run.returncode != 0
    assert "unsupported: 'math.ipowi' after convert-math-to-funcs" in run.stderr.decode()
    run = cli.tool_main(["gpurunner", "-e", "main", "--entry-point-result=i32"],
                        text.encode(), {}, str(tmp_path))
    assert run.returncode == 0 and run.stdout.decode().strip() == "0"


def test_runtime_verification_refuses_ops_it_does_not_check(tmp_path):
    """memref.subview has run-time checks in LLVM 22 that the pass does not generate:
    an error naming the op, never a program that runs unchecked."""
    text = ("func.func @f(%m: memref<8xf32>, %o: index) -> memref<2xf32, strided<[1], offset: ?>> {\n"
            "  %s = memref.subview %m[%o] [2] [1] : memref<8xf32> to "
            "memref<2xf32, strided<[1], offset: ?>>\n"
            "  return %s : memref<2xf32, strided<[1], offset: ?>>\n}\n")
    r = opt.tool_main(["mlir-opt", "-generate-runtime-verification"], text.encode(), {},
                      str(tmp_path))
    assert r.returncode != 0
    err = r.stderr.decode()
    assert "unsupported by the embedded runner: 'memref.subview' in generate-runtime-verification" \
        in err and "<stdin>:2:8" in err


def test_transform_op_not_implemented_is_named(tmp_path):
    text = ("func.func @f(%m: memref<4xf32>) {\n  return\n}\n"
            "module attributes {transform.with_named_sequence} {\n"
            "  transform.named_sequence @__transform_main(%r: !transform.any_op "
            "{transform.readonly}) {\n"
            "    %0 = transform.structured.match ops{[\"func.func\"]} in %r : "
            "(!transform.any_op) -> !transform.any_op\n"
            "    %1 = \"transform.get_parent_op\"(%0) <{nth_parent = 1 : i64}> : (!transform.any_op) -> !transform.any_op\n"
            "    transform.yield\n  }\n}\n")
    r = opt.tool_main(["mlir-opt", "-transform-interpreter"], text.encode(), {}, str(tmp_path))
    assert r.returncode != 0
    err = r.stderr.decode()
    assert ("unsupported by the embedded runner: transform op 'transform.get_parent_op' in "
            "transform-interpreter (<stdin>:7:10)") in err, err


def test_erase_schedule_leaves_the_payload(tmp_path):
    text = ("func.func @f() {\n  return\n}\n"
            "module attributes {transform.with_named_sequence} {\n"
            "  transform.named_sequence @__transform_main(%r: !transform.any_op) {\n"
            "    transform.yield\n  }\n}\n")
    r = opt.tool_main(["mlir-opt", "-test-transform-dialect-erase-schedule"], text.encode(), {},
                      str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode()
    assert "transform.named_sequence" not in out and "func.func @f()" in out
    assert "module attributes {transform.with_named_sequence} {\n  }" in out


def test_interpreter_records_under_the_pipeline_attribute():
    from runner_core.passes import pipeline, recording

    assert recording.DEFERRED_ATTR == pipeline.DEFERRED_ATTR


SUBVIEWS_OK = """func.func @f(%m: memref<8x8xf32>, %o: index, %d: memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  %a = memref.subview %m[2, 3][4, 4][1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 19>>
  %b = memref.subview %m[%o, 0][4, 4][2, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[16, 1], offset: ?>>
  %c = memref.subview %m[1, 0][1, 8][1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  %e = memref.subview %d[1, 1][2, 2][1, 1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  %g = memref.subview %m[0, 0][4, 4][1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  return
}
"""


def test_subview_result_layout_checked_like_mlir_opt():
    """Valid layouts (each accepted by mlir-opt 22) pass; a static offset where the
    offsets make it dynamic is mlir-opt 22's error."""
    from runner_core.errors import IRError
    from runner_core.ir.parse import parse_source

    parse_source(SUBVIEWS_OK)
    bad = ("func.func @f(%a: memref<?x?xf32>, %i: index, %n: index) {\n"
           "  %b = memref.subview %a[%i, 0][1, %n][1, 1] : memref<?x?xf32> to "
           "memref<?xf32, strided<[1]>>\n  return\n}\n")
    with pytest.raises(IRError) as err:
        parse_source(bad)
    assert ("expected result type to be 'memref<1x?xf32, strided<[?, 1], offset: ?>>' or a "
            "rank-reduced version. (mismatch of result layout), but got "
            "'memref<?xf32, strided<[1]>>'") in str(err.value)


RAW_CONFLICT = """
func.func private @printMemrefF32(%ptr : tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @verifyMemRefF32(%a : tensor<*xf32> {bufferization.access = "read"},
                                   %b : tensor<*xf32> {bufferization.access = "read"}) -> i64
func.func @entry() {
  %f32 = arith.constant dense<3.5> : tensor<3x3xf32>
  %1 = tensor.cast %f32 : tensor<3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%1) : (tensor<*xf32>) -> ()
  %v = call @verifyMemRefF32(%1, %1) : (tensor<*xf32>, tensor<*xf32>) -> i64
  return
}
"""


def test_bufferize_refuses_what_llvm_may_find_conflicting(tmp_path):
    """A tensor passed to a function that may write it and read again: LLVM 22 fails
    ('cannot avoid RaW conflict'); the embedded pass refuses rather than copy."""
    r = opt.tool_main(["mlir-opt", "-one-shot-bufferize=bufferize-function-boundaries"],
                      RAW_CONFLICT.encode(), {}, str(tmp_path))
    assert r.returncode != 0
    assert "unsupported by the embedded runner: 'func.call' in one-shot-bufferize" in \
        r.stderr.decode()
    real = shutil.which("mlir-opt", path="/usr/lib/llvm-22/bin")
    if real:
        p = subprocess.run([real, "-one-shot-bufferize=bufferize-function-boundaries"],
                           input=RAW_CONFLICT.encode(), capture_output=True)
        assert p.returncode != 0 and b"RaW conflict" in p.stderr


def test_bufferize_refuses_other_tensor_ops(tmp_path):
    text = ("func.func @f() -> index {\n  %t = tensor.empty() : tensor<2x2xf32>\n"
            "  %s = tensor.collapse_shape %t [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>\n"
            "  %c0 = arith.constant 0 : index\n  %d = tensor.dim %s, %c0 : tensor<4xf32>\n"
            "  return %d : index\n}\n")
    r = opt.tool_main(["mlir-opt", "-one-shot-bufferize"], text.encode(), {}, str(tmp_path))
    assert r.returncode != 0
    assert "'tensor.collapse_shape' in one-shot-bufferize" in r.stderr.decode()
