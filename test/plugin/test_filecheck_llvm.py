"""The embedded FileCheck against LLVM 22's FileCheck on whitespace and regex cases.

Each case is run by both; the verdicts (match or not) must agree.  The table is
what decides whether the embedded FileCheck may stand in for LLVM's on
upstream tests: a pattern that passes here and fails upstream is a test that
breaks the day someone runs it with real tools.  Skipped when LLVM's FileCheck
is not installed.
"""

import os
import subprocess

import pytest

from pytest_gpurunner.filecheck_tool import filecheck_tool

LLVM_FILECHECK = "/usr/lib/llvm-22/bin/FileCheck"
pytestmark = pytest.mark.skipif(not os.path.exists(LLVM_FILECHECK),
                                reason="LLVM 22 FileCheck not installed")

# (check file, input, extra options, LLVM's verdict as measured: True = match).
# The expected verdict is written down so that a case that stops agreeing says
# which side moved.
CASES = [
    # Runs of spaces/tabs in the input and in regexes compare as one space.
    ("CHECK: {{a b}}", "a    b\n", (), True),
    ("CHECK: {{a  b}}", "a b\n", (), True),
    ("CHECK: {{a {2}b}}", "a  b\n", (), False),
    ("CHECK: {{a[ ]b}}", "a\t\tb\n", (), True),
    ("CHECK: a{{ }}b", "a\t \tb\n", (), True),
    ("CHECK: {{a\tb}}", "a b\n", (), True),
    ("CHECK: {{a[[:blank:]]{2}b}}", "a  b\n", (), False),
    ("CHECK: {{a[[:space:]]+b}}", "a \t b\n", (), True),
    ("CHECK: {{a.b}}", "a\tb\n", (), True),
    # printMemref rows, as upstream's 2021 GPU tests check them.
    ("CHECK: {{\\[\\[7(, 7){2}\\]}},", "[[7,   7,   7], \n [7,   7,   7]]\n", (), True),
    ("CHECK: [{{(5, ){3}5}}]", "[5,    5,    5,    5]\n", (), True),
    # Literal text.
    ("CHECK: a  b", "a\tb\n", (), True),
    ("CHECK: a b", "ab\n", (), False),
    ("CHECK: a b", "a\vb\n", (), False),
    ("CHECK: {{a b}}", "a\u00a0b\n", (), False),
    ("CHECK: {{^}}a", "  a\n", (), False),
    ("CHECK:\t\ta", "a\n", (), True),
    ("CHECK: a   ", "a\n", (), True),
    ("CHECK: a b", "a\r\n", (), False),
    ("CHECK: a b", "a \t\r\nb\n", (), False),
    ("CHECK{LITERAL}: {{a  b}}", "{{a b}}\n", (), True),
    # Other directives and variables see the same canonical text.
    ("CHECK: a\nCHECK-NEXT: {{b  c}}", "a\n\tb\t\tc\n", (), True),
    ("CHECK: a\nCHECK-SAME: {{ b}}", "a  \t b\n", (), True),
    ("CHECK-NOT: {{a  b}}", "a b\n", (), False),
    ("CHECK-DAG: {{b  c}}\nCHECK-DAG: {{a\t\tb}}", "a\tb\nb\t\tc\n", (), True),
    ("CHECK-COUNT-2: {{7,  }}", "7,\t7,   7\n", (), True),
    ("CHECK: a\nCHECK-EMPTY:", "a\n   \n", (), False),
    ("CHECK: x [[V:[a-z]+ +[a-z]+]]\nCHECK: [[V]]", "x foo   bar\nfoo bar\n", (), True),
    ("CHECK: [[V]]", "a b\n", ("-DV=a  b",), False),
    ("CHECK: [[V]]", "a  b\n", ("-DV=a b",), True),
    # --strict-whitespace keeps every byte; --match-full-lines allows spaces around the line.
    ("CHECK: a b", "a  b\n", ("--strict-whitespace",), False),
    ("CHECK: a  b", "a  b\n", ("--strict-whitespace",), True),
    ("CHECK: {{a {2}b}}", "a  b\n", ("--strict-whitespace",), True),
    ("CHECK: a\tb", "a\tb\n", ("--strict-whitespace",), True),
    ("CHECK: a b", "  a  b  \n", ("--match-full-lines",), True),
    ("CHECK: a b", "a b c\n", ("--match-full-lines",), False),
    # ... and with both, even the space after the colon belongs to the pattern.
    ("CHECK: a b", " a b\n", ("--match-full-lines", "--strict-whitespace"), True),
    ("CHECK: a b", "a b\n", ("--match-full-lines", "--strict-whitespace"), False),
    # Backslashes in regexes are POSIX's: before a letter the letter itself, 1-9 are
    # back-references, inside brackets a plain member (filecheck_ere.py).
    ("CHECK: {{a\\db}}", "a1b\n", (), False),
    ("CHECK: {{a\\db}}", "adb\n", (), True),
    ("CHECK: {{a\\sb}}", "a b\n", (), False),
    ("CHECK: {{a\\sb}}", "asb\n", (), True),
    ("CHECK: {{a\\tb}}", "a\tb\n", (), False),
    ("CHECK: {{a\\wb}}", "awb\n", (), True),
    ("CHECK: {{a\\.b}}", "axb\n", (), False),
    ("CHECK: {{(ab)\\1}}", "abab\n", (), True),
    ("CHECK: {{(ab)\\1}}", "abba\n", (), False),
    ("CHECK: {{x[\\d]y}}", "x\\y\n", (), True),
    ("CHECK: {{x[\\d]y}}", "x1y\n", (), False),
    ("CHECK: {{x[^\\n]y}}", "xny\n", (), False),
    ("CHECK: {{x[^\\n]y}}", "xay\n", (), True),
    ("CHECK: {{x[]]y}}", "x]y\n", (), True),
    ("CHECK: x [[V:a\\sb]]\nCHECK: [[V]]", "x asb\nasb\n", (), True),
    ("CHECK: {{\\[[[:digit:]]+\\]}}", "[42]\n", (), True),
]


def _ids():
    return [f"{i}-{' '.join(case[2]) or 'default'}" for i, case in enumerate(CASES)]


@pytest.mark.parametrize("checks,text,options,llvm_matches", CASES, ids=_ids())
def test_verdict_matches_llvm(tmp_path, checks, text, options, llvm_matches):
    (tmp_path / "check.txt").write_text(checks + "\n")
    (tmp_path / "input.txt").write_bytes(text.encode())
    llvm = subprocess.run([LLVM_FILECHECK, "check.txt", "--input-file=input.txt", *options],
                          cwd=tmp_path, capture_output=True, timeout=60)
    assert llvm.returncode in (0, 1), llvm.stderr.decode()
    assert (llvm.returncode == 0) == llvm_matches, "LLVM FileCheck changed its mind"
    ours = filecheck_tool(["FileCheck", "check.txt", *options], text.encode(), {},
                                str(tmp_path))
    assert ours.returncode in (0, 1), ours.stderr.decode()
    assert (ours.returncode == 0) == llvm_matches, ours.stderr.decode()


def test_package_cli_keeps_its_own_whitespace_rule(tmp_path):
    """`filecheck` (the package's name, used by xDSL's tests) is left as the package has it."""
    (tmp_path / "check.txt").write_text("CHECK: {{a {2}b}}\n")
    ours = filecheck_tool(["filecheck", "check.txt"], b"a  b\n", {}, str(tmp_path))
    assert ours.returncode == 0
    llvm_named = filecheck_tool(["FileCheck", "check.txt"], b"a  b\n", {}, str(tmp_path))
    assert llvm_named.returncode == 1


def test_diagnostics_show_the_canonical_input(tmp_path):
    """Like LLVM, a failure quotes the input as it was compared (one space per run)."""
    (tmp_path / "check.txt").write_text("CHECK: a\nCHECK-NEXT: zzz\n")
    ours = filecheck_tool(["FileCheck", "check.txt"], b"a\nb \t c\n", {}, str(tmp_path))
    assert ours.returncode == 1
    assert b"b c" in ours.stderr


def test_package_cli_keeps_python_regex_escapes(tmp_path):
    """`filecheck` keeps the package's Python `\\d`; `FileCheck` reads it as LLVM does."""
    (tmp_path / "check.txt").write_text("CHECK: {{a\\db}}\n")
    assert filecheck_tool(["filecheck", "check.txt"], b"a1b\n", {},
                                str(tmp_path)).returncode == 0
    assert filecheck_tool(["FileCheck", "check.txt"], b"a1b\n", {},
                                str(tmp_path)).returncode == 1
