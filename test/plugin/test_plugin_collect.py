"""Collection: which files become tests, their ids, order, and broken files."""

import pytest

PASSING = """
// RUN: echo hello | FileCheck %s
// CHECK: hello
"""


def test_file_with_run_line_is_one_test_with_a_stable_id(project: pytest.Pytester):
    project.makefile(".mlir", a=PASSING)
    result = project.runpytest_inprocess("--collect-only", "-q")
    result.stdout.fnmatch_lines(["a.mlir::a"])
    assert project.runpytest_inprocess().parseoutcomes() == {"passed": 1}


def test_files_without_run_lines_are_not_collected(project: pytest.Pytester):
    project.makefile(".mlir", b="// CHECK: nothing runs this\nfunc.func @f()\n")
    result = project.runpytest_inprocess("--collect-only", "-q")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_suffixes_come_from_the_ini(project: pytest.Pytester, ini):
    ini("gpurunner_suffixes = .test .ll")
    project.makefile(".test", t=PASSING)
    project.makefile(".ll", l=PASSING)
    project.makefile(".mlir", m=PASSING)
    result = project.runpytest_inprocess("--collect-only", "-q")
    result.stdout.fnmatch_lines(["l.ll::l", "t.test::t"])
    assert "m.mlir" not in result.stdout.str()


def test_collection_order_is_deterministic(project: pytest.Pytester):
    for name in ["zeta", "alpha", "mid"]:
        project.makefile(".mlir", **{name: PASSING})
    sub = project.mkdir("sub")
    (sub / "beta.mlir").write_text(PASSING)
    first = project.runpytest_inprocess("--collect-only", "-q").stdout.lines
    second = project.runpytest_inprocess("--collect-only", "-q").stdout.lines
    ids = [line for line in first if "::" in line]
    assert ids == ["alpha.mlir::alpha", "mid.mlir::mid", "sub/beta.mlir::beta", "zeta.mlir::zeta"]
    assert [line for line in second if "::" in line] == ids


def test_malformed_directives_fail_the_test_not_the_collection(project: pytest.Pytester):
    project.makefile(".mlir", broken="// RUN: echo a \\\n// no continuation here\n",
                     good=PASSING)
    result = project.runpytest_inprocess()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*UNRESOLVED*unterminated 'RUN:' directive*"])


def test_binary_garbage_is_reported_cleanly(project: pytest.Pytester):
    (project.path / "garbage.mlir").write_bytes(b"\xff\xfe RUN: \xff\x00\x01 garbage\n")
    result = project.runpytest_inprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*UNRESOLVED*"])
    assert "Traceback" not in result.stdout.str()


def test_keyword_selection_and_exitfirst(project: pytest.Pytester):
    project.makefile(".mlir", a_fail="// RUN: false\n", b_pass=PASSING, c_pass=PASSING)
    project.runpytest_inprocess("-k", "b_pass").assert_outcomes(passed=1, deselected=2)
    project.runpytest_inprocess("-x").assert_outcomes(failed=1)


def test_last_failed_reruns_only_the_failures(project: pytest.Pytester):
    project.makefile(".mlir", a_fail="// RUN: false\n", b_pass=PASSING)
    project.runpytest_inprocess().assert_outcomes(passed=1, failed=1)
    result = project.runpytest_inprocess("--lf")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*rerun previous 1 failure*"])


def test_xdist_runs_the_same_items(project: pytest.Pytester):
    for i in range(4):
        project.makefile(".mlir", **{f"t{i}": PASSING})
    project.makefile(".mlir", bad="// RUN: false\n")
    result = project.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, failed=1)
