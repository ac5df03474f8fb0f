"""Default timeout, what stays in the temporary directory, and honest report lines.

The runs are in process (pytester); ``TMPDIR`` points at a directory of the test's own
so that "nothing left behind" can be checked exactly.
"""

import os
import stat
import tempfile

import pytest
from plugin_session import run

from pytest_gpurunner import collect


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    """TMPDIR (and tempfile's cached answer) for this test alone, for the plug-in and its worker."""
    where = tmp_path / "TMP"
    where.mkdir()
    monkeypatch.setenv("TMPDIR", str(where))
    monkeypatch.setattr(tempfile, "tempdir", str(where))
    return where


def left_in(where) -> list[str]:
    return sorted(str(p.relative_to(where)) for p in where.rglob("*"))


def test_integration_tests_get_a_default_timeout_that_says_where_it_came_from(
        project, integration, monkeypatch):
    monkeypatch.setattr(collect, "DEFAULT_TIMEOUT", 0.5)
    (integration / "hang.mlir").write_text("// RUN: fake-hang\n")
    project.makefile(".mlir", unit="// RUN: fake-sleep 1\n")  # unit tests get no default
    result = run(project)
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines([
        "*hang.mlir:1: timed out after 0.5 s (the default; set gpurunner_timeout)"])


def test_a_timeout_of_zero_turns_the_default_off(project, integration, ini, monkeypatch):
    monkeypatch.setattr(collect, "DEFAULT_TIMEOUT", 0.5)
    ini("gpurunner_timeout = 0")
    (integration / "slow.mlir").write_text("// RUN: fake-sleep 1.5\n")
    result = run(project)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["gpurunner: tools=embedded, executor=auto, timeout=none, *"])


def test_a_green_run_leaves_nothing_in_tmp(project, integration, private_tmp):
    (integration / "a.mlir").write_text("// RUN: echo x > %t\n// RUN: fake-echo-env\n")
    (integration / "b.mlir").write_text("// RUN: mkdir -p %t.d && echo y > %t.d/f\n")
    project.makefile(".mlir", unit="// RUN: echo z > %t\n")
    result = run(project, "--gpurunner-executor=worker")
    result.assert_outcomes(passed=3)
    assert left_in(private_tmp) == []
    assert "kept" not in result.stdout.str()


def test_kept_is_said_only_of_a_directory_that_exists_afterwards(project, private_tmp):
    project.makefile(".mlir", wrote="// RUN: echo evidence > %t\n// RUN: false\n",
                     silent="// RUN: false\n")
    result = run(project)
    result.assert_outcomes(failed=2)
    kept = [line.split(": ", 1)[1] for line in result.stdout.lines
            if line.startswith("temporary directory kept: ")]
    assert len(kept) == 1 and kept[0].endswith("wrote.mlir"), result.stdout.str()
    assert os.path.isfile(os.path.join(kept[0], "wrote.mlir.tmp"))
    assert [p for p in left_in(private_tmp) if "silent" in p] == []
    result.stdout.fnmatch_lines(["gpurunner: 1 failed test directory(ies) kept under *"])


def test_keep_tmp_keeps_every_directory(project, private_tmp):
    project.makefile(".mlir", green="// RUN: echo x > %t\n", silent="// RUN: false\n")
    result = run(project, "--gpurunner-keep-tmp")
    result.assert_outcomes(passed=1, failed=1)
    line = next(x for x in result.stdout.lines if x.startswith("temporary directory kept: "))
    assert os.path.isdir(line.split(": ", 1)[1])
    assert any(p.endswith("green.mlir.tmp") for p in left_in(private_tmp))
    result.stdout.fnmatch_lines(["gpurunner: temporary files kept (--gpurunner-keep-tmp): *"])


def test_a_worker_log_is_kept_only_when_it_holds_something(project, integration, private_tmp):
    (integration / "quiet.mlir").write_text("// RUN: true\n")
    (integration / "noisy.mlir").write_text("// RUN: fake-noise\n")
    result = run(project)
    result.assert_outcomes(passed=2)
    line = next(x for x in result.stdout.lines if "worker log kept" in x)
    log = line.rsplit(": ", 1)[1]
    assert open(log).read() == "noise from a tool\n"
    # Nothing else: every path left is the log or a directory on the way to it.
    assert all(log.startswith(str(private_tmp / p)) for p in left_in(private_tmp))


def test_a_stage_fed_by_a_failed_one_says_so_instead_of_guessing(project):
    project.makefile(".mlir", t="// RUN: false | fake-fail 2\n")
    result = run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["stage 2 (fake-fail): no input: the previous stage failed"])
    assert "failing with 2" not in result.stdout.str()


def test_a_gpu_test_the_system_runner_ran_is_not_called_emulated(project, ini, no_gpu,
                                                                   tmp_path):
    tools = tmp_path / "bin"
    tools.mkdir()
    runner = tools / "mlir-cuda-runner"
    runner.write_text("#!/bin/sh\necho ran\n")
    runner.chmod(runner.stat().st_mode | stat.S_IEXEC)
    ini(f"gpurunner_tool_dirs = {tools}")
    project.makefile(".mlir", t="// RUN: mlir-cuda-runner %s\n")
    result = run(project, "--gpurunner-tools=system")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*gpurunner: gpu tests: 0 ran on a GPU, 0 emulated on the cpu "
                                 "backend, 1 run by the system tools, 0 skipped*"])
