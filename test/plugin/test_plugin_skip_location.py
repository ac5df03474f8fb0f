"""Skipped .mlir tests are reported at the .mlir file and the line that skipped them.

pytest reports a skip at the line that raised it; without help that is the
plug-in's own collect.py.  REQUIRES/UNSUPPORTED skips name their directive's
line, policy skips (GPU gating, a conftest marking a directory unsupported)
the test's first RUN line.
"""

import pytest
from plugin_session import run as run_pytest


def run(project: pytest.Pytester, *args: str):
    return run_pytest(project, "-rs", *args)


def test_directive_skips_name_the_directive_line(project):
    # The first REQUIRES line is satisfied; the skip is the second line's doing.
    project.makeconftest("def pytest_gpurunner_local_config(local):\n"
                         "    local.features.add('present')\n")
    project.makefile(".mlir", requires="// RUN: true\n// comment\n"
                                       "// REQUIRES: present\n// REQUIRES: missing-feature\n",
                     unsupported="// RUN: true\n// UNSUPPORTED: true\n")
    result = run(project)
    result.assert_outcomes(skipped=2)
    result.stdout.fnmatch_lines_random([
        "SKIPPED [[]1[]] requires.mlir:4: UNSUPPORTED: Test requires the following "
        "unavailable features: missing-feature",
        "SKIPPED [[]1[]] unsupported.mlir:2: UNSUPPORTED: Test does not support the "
        "following features and/or targets: true",
    ])
    assert "collect.py" not in result.stdout.str()


def test_gpu_policy_skip_names_the_first_run_line(project, no_gpu):
    project.makefile(".mlir", gpu="// A GPU test.\n\n"
                                  "// RUN: fake-echo-env X --shared-libs=%mlir_cuda_runtime\n")
    result = run(project, "--gpurunner-gpu=skip")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["SKIPPED [[]1[]] gpu.mlir:3: GPU test skipped*"])


def test_conftest_unsupported_directory_names_the_test(project):
    sub = project.mkdir("sub")
    (sub / "conftest.py").write_text(
        "def pytest_gpurunner_local_config(local):\n    local.unsupported = True\n")
    (sub / "t.mlir").write_text("// RUN: true\n")
    result = run(project)
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["SKIPPED [[]1[]] sub/t.mlir:1: UNSUPPORTED: the directory's*"])


def test_skip_location_survives_xdist(project):
    project.makefile(".mlir", a="// RUN: true\n// REQUIRES: missing-feature\n",
                     b="// RUN: true\n\n// REQUIRES: other-missing\n")
    result = run(project, "-n", "2")
    result.assert_outcomes(skipped=2)
    result.stdout.fnmatch_lines_random(["SKIPPED [[]1[]] a.mlir:2: *", "SKIPPED [[]1[]] b.mlir:3: *"])
