"""``--gpurunner-cache-dir`` and ``--gpurunner-device`` reach the runner as GPURUNNER_CACHE_DIR and
GPURUNNER_DEVICE (contract 3)."""

from __future__ import annotations

import os
import subprocess
import sys

TEST = """// RUN: env | FileCheck %s
// CHECK: GPURUNNER_CACHE_DIR={}
"""


def _pytest(tmp_path, *args):
    env = {k: v for k, v in os.environ.items() if k != "GPURUNNER_CACHE_DIR"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(tmp_path), *args], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)


def test_cache_dir_option_sets_the_environment(tmp_path):
    cache = tmp_path / "kernels"
    (tmp_path / "env_test.mlir").write_text(TEST.format(cache))
    res = _pytest(tmp_path, f"--gpurunner-cache-dir={cache}")
    assert "1 passed" in res.stdout, res.stdout + res.stderr


def test_empty_cache_dir_option_disables_the_cache(tmp_path):
    (tmp_path / "env_test.mlir").write_text("// RUN: env | FileCheck %s\n"
                                            "// CHECK: GPURUNNER_CACHE_DIR={{$}}\n")
    res = _pytest(tmp_path, "--gpurunner-cache-dir=")
    assert "1 passed" in res.stdout, res.stdout + res.stderr


def test_device_option_sets_the_environment(tmp_path):
    (tmp_path / "env_test.mlir").write_text("// RUN: env | FileCheck %s\n"
                                            "// CHECK: GPURUNNER_DEVICE=1\n")
    res = _pytest(tmp_path, "--gpurunner-device=1")
    assert "1 passed" in res.stdout, res.stdout + res.stderr


def test_device_option_must_be_a_number(tmp_path):
    (tmp_path / "env_test.mlir").write_text("// RUN: true\n")
    res = _pytest(tmp_path, "--gpurunner-device=gpu1")
    assert res.returncode != 0
    assert "expected a device number" in res.stderr
