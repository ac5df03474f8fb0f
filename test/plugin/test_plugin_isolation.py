"""Executors: integration tests in a replaceable worker process, timeouts, crash isolation."""

import pytest
from plugin_session import run


def test_a_segfault_fails_one_test_and_the_next_ones_pass(project, integration):
    (integration / "a_crash.mlir").write_text("// RUN: fake-crash\n")
    (integration / "b_after.mlir").write_text("// RUN: fake-echo-env | FileCheck %s\n"
                                              "// CHECK: pid=\n")
    (integration / "c_after.mlir").write_text("// RUN: true\n")
    result = run(project)
    result.assert_outcomes(failed=1, passed=2)
    result.stdout.fnmatch_lines([
        "*a_crash.mlir:1: the process running the test died",
        "worker process * died with SIGSEGV while running RUN at line 1: fake-crash",
        "--- worker output (last lines) ---",
        "*Segmentation fault*",
    ])


def test_integration_tests_share_a_warm_worker_unit_tests_stay_in_process(project, integration):
    for name in ("a", "b"):
        (integration / f"{name}.mlir").write_text(
            f"// RUN: fake-echo-env > {project.path}/{name}.out\n")
    project.makefile(".mlir", unit=f"// RUN: fake-echo-env > {project.path}/unit.out\n")
    result = run(project, "--junitxml=out.xml")
    result.assert_outcomes(passed=3)
    pids = {name: (project.path / f"{name}.out").read_text().split("pid=")[1].split()[0]
            for name in ("a", "b", "unit")}
    import os

    assert pids["a"] == pids["b"] != str(os.getpid())
    assert pids["unit"] == str(os.getpid())
    xml = (project.path / "out.xml").read_text()
    assert 'value="worker (pid ' in xml and 'value="in-process"' in xml


def test_a_hung_tool_times_out_and_the_run_goes_on(project, integration, ini):
    ini("gpurunner_timeout = 0.5")
    (integration / "a_hang.mlir").write_text("// RUN: fake-hang\n")
    (integration / "b_next.mlir").write_text("// RUN: true\n")
    project.makefile(".mlir", unit_hang="// RUN: fake-hang\n")
    result = run(project)
    result.assert_outcomes(failed=2, passed=1)
    result.stdout.fnmatch_lines(["*a_hang.mlir:1: timed out after 0.5 s",
                                 "stopped while running RUN at line 1: fake-hang"])
    result.stdout.fnmatch_lines(["*unit_hang.mlir:1: timed out after 0.5 s"])


@pytest.mark.parametrize("where", ["integration_test", "."])
def test_a_timeout_whose_alarm_a_tool_swallowed_is_still_a_timeout(project, ini, where):
    """A ctypes callback prints and drops the alarm's exception; the verdict is the timeout."""
    ini("gpurunner_timeout = 0.3")
    (project.path / where).mkdir(exist_ok=True)
    (project.path / where / "t.mlir").write_text("// RUN: fake-swallow 1.5\n")
    result = run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*t.mlir:1: timed out after 0.3 s*"])
    assert "ordinary-looking" not in result.stdout.str()


def test_timeout_option_beats_the_ini(project, ini):
    ini("gpurunner_timeout = 100")
    project.makefile(".mlir", t="// RUN: fake-hang\n")
    result = run(project, "--gpurunner-timeout=0.3")
    result.stdout.fnmatch_lines(["*timed out after 0.3 s*"])


def test_timeout_kills_a_subprocess_and_its_children(project, integration, ini):
    import os
    import sys
    import time

    ini("gpurunner_timeout = 1")
    pidfile = project.path / "grandchild.pid"
    grandchild = (f"import os, time; open('{pidfile}', 'w').write(str(os.getpid())); "
                  f"time.sleep(60)")
    (project.path / "spawn.py").write_text(
        f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {grandchild!r}])\n")
    (integration / "sleepy.mlir").write_text(f"// RUN: {sys.executable} {project.path}/spawn.py\n")
    result = run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*timed out after 1 s*"])
    pid = int(pidfile.read_text())
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, 9)
        raise AssertionError("the grandchild outlived the timeout")


def test_executor_option_forces_everything_into_the_worker(project):
    project.makefile(".mlir", t=f"// RUN: fake-echo-env > {project.path}/t.out\n")
    run(project, "--gpurunner-executor=worker").assert_outcomes(passed=1)
    import os

    pid = (project.path / "t.out").read_text().split("pid=")[1].split()[0]
    assert pid != str(os.getpid())


def test_unpicklable_tool_falls_back_to_in_process_and_says_so(project):
    project.makeconftest("""
        from runner_core.toolapi import ToolResult

        def pytest_gpurunner_local_config(local, path):
            local.tools["closure-tool"] = lambda argv, stdin, env, cwd: ToolResult(0, b"ok\\n")
    """)
    project.makefile(".mlir", t="// RUN: closure-tool | FileCheck %s\n// CHECK: ok\n")
    result = run(project, "--gpurunner-executor=worker", "-v", "-rP")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["executor: in-process (could not be sent to a worker: *"])


@pytest.mark.parametrize("first", ["not fake-poison", "fake-mark-unusable"])
def test_a_process_declared_unusable_is_replaced_before_the_next_test(project, integration,
                                                                      first):
    """A sticky CUDA error poisons the whole process: the next test must get a fresh one."""
    (integration / "a.mlir").write_text(f"// RUN: {first} > {project.path}/a.out\n")
    (integration / "b.mlir").write_text(f"// RUN: fake-echo-env > {project.path}/b.out\n")
    run(project).assert_outcomes(passed=2)
    pid_a = (project.path / "a.out").read_text().split("pid=")[1].split()[0]
    pid_b = (project.path / "b.out").read_text().split("pid=")[1].split()[0]
    assert pid_a != pid_b
