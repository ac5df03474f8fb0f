"""What a failing test's report shows when the embedded FileCheck fails: LLVM FileCheck's words.

The embedded ``FileCheck`` is LLVM's binary from the llvm-testing-tools wheel
(pytest_gpurunner/llvm_filecheck.py).  The expected lines below are what LLVM
22's FileCheck prints for the same check file and input (checked by running
/usr/lib/llvm-22/bin/FileCheck on them); the wheel's FileCheck 23 prints the
same.  Where the wheel cannot run, the package answers and says so (last tests).
"""

import pytest
from plugin_session import run

from pytest_gpurunner import llvm_filecheck

needs_binary = pytest.mark.skipif(
    not isinstance(llvm_filecheck.locate(), llvm_filecheck.Binary),
    reason=f"no runnable LLVM FileCheck from {llvm_filecheck.DISTRIBUTION} here")


@needs_binary
def test_next_failure_names_directive_position_and_intended_match(project):
    project.makefile(".mlir", t="""\
        // RUN: printf 'func @f\\n  y = add\\n  retrun\\n' | FileCheck %s
        // CHECK: func @f
        // CHECK-NEXT: add
        // CHECK-NEXT: return
        """)
    result = run(project)
    result.assert_outcomes(failed=1)
    # LLVM quotes the input with runs of blanks folded to one, as it compared it.
    result.stdout.fnmatch_lines([
        "*t.mlir:1: RUN at line 1 failed with exit code 1",
        "*embedded pytest_gpurunner.llvm_filecheck:filecheck_tool; exit 1;*",
        "stderr of stage 2 (FileCheck):",
        "  */t.mlir:4:16: error: CHECK-NEXT: expected string not found in input",
        "  // CHECK-NEXT: return",
        "                 ^",
        "  <stdin>:2:9: note: scanning from here",
        "   y = add",
        "          ^",
        "  <stdin>:3:2: note: possible intended match here",
        "   retrun",
        "   ^",
        "",
        "  Input file: <stdin>",
        "  Check file: */t.mlir",
        "",
        "  -dump-input=help explains the following input dump.",
        "",
        "  Input was:",
        "  <<<<<<",
        "            1: func @f ",
        "            2:  y = add ",
        "  next:4'0             X error: no match found",
        "            3:  retrun ",
        "  next:4'0     ~~~~~~~~",
        "  next:4'1      ?       possible intended match",
        "  >>>>>>",
        "input of stage 2 (FileCheck), 3 lines:",
        "  1: func @f",
        "  2:   y = add",
        "  3:   retrun",
    ])


@needs_binary
def test_numeric_expression_value_is_shown(project):
    project.makefile(".mlir", t="""\
        // RUN: printf 'row 4\\nrow 6\\n' | FileCheck %s
        // CHECK: row [[#N:]]
        // CHECK-NEXT: row [[#N+1]]
        """)
    result = run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "  */t.mlir:3:16: error: CHECK-NEXT: expected string not found in input",
        "  // CHECK-NEXT: row [[#N+1]]",
        "*",
        "  <stdin>:1:6: note: scanning from here",
        "*",
        '  <stdin>:1:6: note: with "N+1" equal to "5"',
        "*",
        "  <stdin>:2:1: note: possible intended match here",
        "  row 6",
    ])


@needs_binary
def test_implicit_check_not_and_exit_codes(project):
    project.makefile(".mlir", bad="""\
        // RUN: printf 'start\\nerror: boom\\nfinish\\n' | FileCheck %s --implicit-check-not=error
        // CHECK: start
        // CHECK: finish
        """, noprefix="""\
        // RUN: echo x | FileCheck %s --check-prefix=ABSENT
        // CHECK: x
        """, expected="""\
        // RUN: printf 'start\\nerror: boom\\nfinish\\n' \\
        // RUN:   | not FileCheck %s --implicit-check-not=error
        // CHECK: start
        // CHECK: finish
        """)
    result = run(project)
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines([
        "*bad.mlir:1: RUN at line 1 failed with exit code 1",
        "*",
        "  command line:1:22: error: IMPLICIT-CHECK-NOT: excluded string found in input",
        "  -implicit-check-not='error'",
        "                       ^",
        "  <stdin>:2:1: note: found here",
        "  error: boom",
        "  ^~~~~",
    ])
    result.stdout.fnmatch_lines([
        "*noprefix.mlir:1: RUN at line 1 failed with exit code 2",
        "*",
        "  error: no check strings found with prefix 'ABSENT:'",
    ])


@needs_binary
def test_dump_input_and_filecheck_opts_reach_llvm(project):
    """``--dump-input=never`` and ``FILECHECK_OPTS`` (read from the environment, as under lit)."""
    project.makefile(".mlir", never="""\
        // RUN: echo a | FileCheck %s --dump-input=never
        // CHECK: b
        """, env_opts="""\
        // RUN: echo a | env FILECHECK_OPTS=--dump-input=never FileCheck %s
        // CHECK: b
        """, dumped="""\
        // RUN: echo a | FileCheck %s
        // CHECK: b
        """)
    result = run(project)
    result.assert_outcomes(failed=3)
    text = result.stdout.str()
    for name in ("never", "env_opts", "dumped"):
        section = text.split(f"/{name}.mlir:1: RUN at line 1", 1)[1].split("____", 1)[0]
        assert "error: CHECK: expected string not found in input" in section, name
        assert ("Input was:" in section) == (name == "dumped"), name


@needs_binary
def test_header_names_the_filecheck_binary(project):
    result = run(project, "-v")
    version = llvm_filecheck.locate().version
    result.stdout.fnmatch_lines([
        "gpurunner: tool table: *FileCheck=embedded:pytest_gpurunner.llvm_filecheck:filecheck_tool"
        f" (LLVM FileCheck {version} from llvm-testing-tools *)*",
    ])


def test_without_the_binary_the_package_answers_and_says_so(project, monkeypatch):
    missing = llvm_filecheck.Unavailable("llvm-testing-tools is not installed")
    monkeypatch.setattr(llvm_filecheck, "locate", lambda: missing)
    project.makefile(".mlir", t="""\
        // RUN: echo alpha | FileCheck %s
        // CHECK: beta
        """)
    result = run(project, "-v")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "gpurunner: tool table: *FileCheck=embedded:pytest_gpurunner.llvm_filecheck:filecheck_tool"
        " (the filecheck package in process, not LLVM's: llvm-testing-tools is not installed)*",
    ])
    result.stdout.fnmatch_lines([
        "  note: the embedded FileCheck is the filecheck package here (llvm-testing-tools is not "
        "installed); its verdict and diagnostics can differ from LLVM FileCheck's. Install "
        "llvm-testing-tools (x86-64 Linux) or run with --gpurunner-tools=system to use LLVM "
        "FileCheck",
    ])


def test_a_binary_that_does_not_run_is_reported_not_used(monkeypatch, tmp_path):
    """An x86-64 binary on another machine (here: a file that is no executable) is refused."""
    fake = tmp_path / "FileCheck"
    fake.write_bytes(b"\x7fELF not really\n")
    fake.chmod(0o755)
    monkeypatch.setattr(llvm_filecheck, "_wheel_binary", lambda: str(fake))
    llvm_filecheck.locate.cache_clear()
    try:
        found = llvm_filecheck.locate()
    finally:
        llvm_filecheck.locate.cache_clear()
    assert isinstance(found, llvm_filecheck.Unavailable)
    assert "FileCheck does not run here: Exec format error" in found.reason
