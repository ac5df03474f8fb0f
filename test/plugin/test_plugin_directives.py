"""Every lit directive, read through lit's own parser, and what it does to the outcome."""

import pytest
from plugin_session import run


def test_run_continuation_lines_join(project):
    project.makefile(".mlir", t="""
        // RUN: echo one \\
        // RUN:   two \\
        // RUN:   three | FileCheck %s
        // CHECK: one two three
    """)
    run(project).assert_outcomes(passed=1)


def test_requires_with_boolean_expressions(project, ini):
    ini("gpurunner_features = alpha beta")
    project.makefile(".mlir", yes="// REQUIRES: alpha && !gamma\n// RUN: true\n",
                     no="// REQUIRES: alpha, gamma || delta\n// RUN: true\n")
    result = run(project, "-rs")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["*UNSUPPORTED: Test requires the following unavailable "
                                 "features: gamma || delta*"])


def test_feature_option_and_host_features(project):
    project.makefile(".mlir", opt="// REQUIRES: from-option\n// RUN: true\n",
                     host="// REQUIRES: system-linux && host-supports-jit && host-supports-nvptx"
                          "\n// RUN: true\n")
    run(project).assert_outcomes(passed=1, skipped=1)
    run(project, "--gpurunner-feature=from-option").assert_outcomes(passed=2)


def test_if_target_in_run_lines(project):
    """lit's `target=<triple>` feature, read by `%if target={{regex}} %{ ... %}`."""
    import platform

    if platform.system() != "Linux" or platform.machine() != "x86_64":
        pytest.skip("checks the x86_64 Linux triple")
    project.makefile(".mlir", t=(
        "// RUN: echo A %if target={{x86_64.*}} %{ yes %} %else %{ no %} | grep -q 'A yes'\n"
        "// RUN: echo B %if target={{s390x|sparc.*}} %{ big %} | grep -qv big\n"
        "// RUN: echo C %if target=x86_64-pc-linux-gnu %{ exact %} | grep -q exact\n"))
    run(project).assert_outcomes(passed=1)


def test_unsupported(project, ini):
    ini("gpurunner_features = windows-only-thing")
    project.makefile(".mlir", t="// UNSUPPORTED: windows-only-thing\n// RUN: false\n")
    result = run(project, "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*does not support the following features*windows-only-thing*"])


def test_xfail_that_fails_is_xfailed(project):
    project.makefile(".mlir", t="// XFAIL: *\n// RUN: false\n")
    run(project).assert_outcomes(xfailed=1)


def test_xfail_that_passes_is_a_failure(project, ini):
    ini("gpurunner_features = broken-here")
    project.makefile(".mlir", t="// XFAIL: broken-here\n// RUN: true\n",
                     u="// XFAIL: not-this-feature\n// RUN: true\n")
    result = run(project)
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(["*XPASS*passed but is marked XFAIL: broken-here*"])


def test_xfail_does_not_hide_a_timeout(project):
    project.makefile(".mlir", t="// XFAIL: *\n// GPURUNNER-TIMEOUT: 0.5\n// RUN: fake-hang\n")
    result = run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*timed out after 0.5 s*"])


def test_allow_retries_reruns_a_failing_script(project):
    project.makefile(".mlir", t=f"""
        // ALLOW_RETRIES: 2
        // RUN: fake-flaky {project.path}/count 3
    """)
    result = run(project, "-rA")
    result.assert_outcomes(passed=1)
    assert (project.path / "count").read_text() == "3"


def test_allow_retries_exhausted_says_so(project):
    project.makefile(".mlir", t=f"""
        // ALLOW_RETRIES: 1
        // RUN: fake-flaky {project.path}/count 5
    """)
    result = run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*failed on each of 2 attempts allowed by ALLOW_RETRIES*"])


def test_end_stops_reading_directives(project):
    project.makefile(".mlir", t="// RUN: true\n// END.\n// RUN: false\n")
    run(project).assert_outcomes(passed=1)


def test_define_and_redefine(project):
    project.makefile(".mlir", t="""
        // DEFINE: %{greeting} = hello
        // RUN: echo %{greeting} | FileCheck %s --check-prefix=FIRST
        // REDEFINE: %{greeting} = goodbye
        // RUN: echo %{greeting} | FileCheck %s --check-prefix=SECOND
        // FIRST: hello
        // SECOND: goodbye
    """)
    run(project).assert_outcomes(passed=1)


def test_redefine_of_unknown_name_is_unresolved(project):
    project.makefile(".mlir", t="// REDEFINE: %{nothing} = x\n// RUN: true\n")
    result = run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*UNRESOLVED*No substitution for '%{nothing}'*"])


def test_timeout_directive(project):
    project.makefile(".mlir", t="// GPURUNNER-TIMEOUT: 0.3\n// RUN: fake-hang\n",
                     bad="// GPURUNNER-TIMEOUT: soon\n// RUN: true\n")
    result = run(project)
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*expects a number of seconds*", "*timed out after 0.3 s*"])


def test_line_number_substitution(project):
    project.makefile(".mlir", t="""
        // RUN: echo %(line) %(line+2) | FileCheck %s
        // CHECK: 1 3
    """)
    run(project).assert_outcomes(passed=1)


def test_conditional_substitution_uses_features(project, ini):
    ini("gpurunner_features = fast")
    project.makefile(".mlir", t="""
        // RUN: echo %if fast %{ quick %} %else %{ slow %} | FileCheck %s
        // CHECK: quick
    """)
    run(project).assert_outcomes(passed=1)
