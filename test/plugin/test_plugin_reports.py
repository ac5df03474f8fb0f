"""Failure reports, verbose stages, junit XML and the report header."""

import xml.etree.ElementTree as ET

import pytest
from plugin_session import run

FILECHECK_FAILURE = """
// RUN: echo 'first line' > %t
// RUN: fake-fail 1 2>/dev/null || echo alpha beta gamma | FileCheck %s
// CHECK: alpha
// CHECK-NEXT: delta
"""


def test_filecheck_failure_report(project):
    project.makefile(".mlir", t=FILECHECK_FAILURE)
    result = run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*/t.mlir:2: RUN at line 2 failed with exit code 1",
        "  as written:         fake-fail 1 2>/dev/null || echo alpha beta gamma | FileCheck %s",
        "  after substitution: fake-fail 1 2>/dev/null || echo alpha beta gamma | FileCheck */t.mlir",
        "stages (executor: in-process):",
        "*[[]1/2] echo alpha beta gamma*",
        "*builtin; exit 0;*",
        "*[[]2/2] FileCheck */t.mlir*",
        "*embedded pytest_gpurunner.llvm_filecheck:filecheck_tool; exit 1;*",
        "stderr of stage 2 (FileCheck):",
        "*t.mlir:4*: error: *",
        "input of stage 2 (FileCheck), 1 lines:",
        "  1: alpha beta gamma",
        "temporary directory kept: *",
    ])


def test_failing_tool_report_shows_exit_code_and_stderr(project):
    project.makefile(".mlir", t="// RUN: fake-fail 7\n")
    result = run(project)
    result.stdout.fnmatch_lines([
        "*/t.mlir:1: RUN at line 1 failed with exit code 7",
        "*embedded gpurunner_fake_tools:fail; exit 7;*",
        "stderr of stage 1 (fake-fail):",
        "  fake-fail: failing with 7",
        "stdout of stage 1 (fake-fail):",
        "  partial output",
    ])
    assert "Traceback" not in result.stdout.str()


def test_unknown_command_report(project):
    project.makefile(".mlir", t="// RUN: definitely-not-installed-tool %s\n")
    result = run(project)
    result.stdout.fnmatch_lines([
        "*/t.mlir:1: the RUN script could not be run as written",
        "RUN at line 1: definitely-not-installed-tool: command not found (searched PATH)",
    ])


def test_verbose_names_every_stage(project):
    project.makefile(".mlir", t="// RUN: echo a | fake-cat | FileCheck %s\n// CHECK: a\n")
    result = run(project, "-v")
    result.assert_outcomes(passed=1)
    result.stdout.re_match_lines([
        r".*t\.mlir::t PASSED.*",
        r"    RUN@1: echo\[builtin [\d.]+ms\] \| fake-cat\[embedded [\d.]+ms\] "
        r"\| FileCheck\[embedded [\d.]+ms\]",
    ])
    result = run(project, "-v", "-rP")
    result.stdout.fnmatch_lines(["*gpurunner stages*", "*[[]3/3] FileCheck*"])


def test_junit_xml_carries_the_report(project):
    project.makefile(".mlir", t=FILECHECK_FAILURE, ok="// RUN: true\n")
    run(project, "--junitxml=out.xml")
    root = ET.parse(project.path / "out.xml").getroot()
    cases = {case.get("name"): case for case in root.iter("testcase")}
    failure = cases["t"].find("failure")
    assert "RUN at line 2 failed with exit code 1" in failure.text
    assert "input of stage 2 (FileCheck)" in failure.text
    props = {p.get("name"): p.get("value") for p in cases["ok"].iter("property")}
    assert props["gpurunner_kind"] == "unit"
    assert props["gpurunner_executor"] == "in-process"
    assert props["gpurunner_stages"].startswith("RUN@1: true[builtin")


def test_header_names_tools_backend_and_gpu(project, monkeypatch):
    from pytest_gpurunner import gating

    monkeypatch.setattr(gating, "probe_gpu", lambda: (None, "no CUDA device visible"))
    result = run(project, "-v")
    result.stdout.fnmatch_lines([
        "gpurunner: tools=embedded, executor=auto, timeout=600 s for integration tests (default), "
        "suffixes=.mlir",
        "gpurunner: no GPU (no CUDA device visible); backend cpu; gpu policy auto*",
        "gpurunner: %mlir_lib_dir=*",
        "gpurunner: tool table: *FileCheck=embedded:pytest_gpurunner.llvm_filecheck:filecheck_tool*",
        "gpurunner: features: *system-linux*",
    ])


def test_bad_option_values_are_usage_errors(project, ini):
    ini("gpurunner_tools = sometimes")
    result = run(project)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*gpurunner_tools = 'sometimes': expected one of embedded, "
                                 "system, auto*"])
