"""The fallback's refusals, without LLVM installed: each names what LLVM would refuse.

Which inputs LLVM 22 refuses was measured on the corpus files named in each
case (test_filecheck_differential.py checks the fallback against LLVM where
LLVM is installed); here only that the refusal is given, and nothing else is.
"""

import pytest

from pytest_gpurunner import filecheck_fallback as fb


@pytest.mark.parametrize("args,checks,data,words", [
    (["c", "--enable-var-scope"], "CHECK: x\n", b"x\n", "--enable-var-scope"),       # global_vars
    (["c", "--reject-empty-vars"], "CHECK: x\n", b"x\n", "--reject-empty-vars"),     # reject_empty_vars
    (["c", "-D=value"], "CHECK: x\n", b"x\n", "empty name"),                         # defines_bad
    (["c", "--check-prefixes=A,A"], "A: x\n", b"x\n", "unique"),                     # prefix_dup
    (["c", "--check-prefix", "COM"], "COM: x\n", b"x\n", "unique"),
    (["c"], "CHECK-NEXT: x\n", b"x\n", "CHECK-NEXT as the first directive"),          # next_first
    (["c"], "// CHECK-SAME: x\n", b"x\n", "CHECK-SAME as the first directive"),       # same_first
    (["c", "--check-prefix=P"], "P-EMPTY:\nP: x\n", b"\nx\n", "P-EMPTY as the first"),  # empty_first
    (["c"], "CHECK-LABEL: [[V:x]]\n", b"x\n", "variable"),                           # label_var
    (["c"], "CHECK-NOT: anything\n", b"\nanything", "final newline"),                 # allow_empty
])
def test_refused(args, checks, data, words):
    gap = fb.known_gap(args, checks, data)
    assert gap is not None and words in gap


@pytest.mark.parametrize("args,checks,data", [
    (["c"], "CHECK: a\nCHECK-NEXT: b\nCHECK-SAME: c\nCHECK-EMPTY:\n", b"a\nb c\n\n"),
    (["c"], "COM: CHECK-NEXT: not a directive\nCHECK: a\n", b"a\n"),
    (["c", "--check-prefixes=A,B"], "B: x\nA-NEXT: y\n", b"x\ny\n"),
    (["c"], "MYCHECK-NEXT: x\nCHECK: x\n", b"x\n"),  # another prefix's directive is text here
    (["c"], "CHECK-NOT: a\nCHECK: b\n", b"b\n"),
    (["c"], "CHECK-LABEL: f\nCHECK: [[V:x]]\n", b"f\nx\n"),
    (["c", "-DV=1", "-D#N=2"], "CHECK: [[V]] [[#N]]\n", b"1 2\n"),
])
def test_accepted(args, checks, data):
    assert fb.known_gap(args, checks, data) is None


def test_check_file_skips_option_values():
    assert fb.check_file(["--check-prefix", "X", "--input-file", "in", "t.mlir", "-v"]) == "t.mlir"
    assert fb.check_file(["--check-prefix=X", "t.mlir"]) == "t.mlir"
    assert fb.check_file(["-v"]) is None
