"""End-to-end tests of the plug-in: each builds a throwaway project with ``pytester``."""

import os
from pathlib import Path

import pytest

from pytest_gpurunner import gating

# `pytester`, `ini` and `project` come from the repository's top-level conftest.py.


@pytest.fixture
def integration(project: pytest.Pytester):
    """The project's ``integration_test`` folder: by default its tests are integration tests."""
    return project.mkdir("integration_test")


@pytest.fixture
def no_gpu(monkeypatch):
    """The machine has no usable CUDA device, whatever this one has."""
    monkeypatch.setattr(gating, "probe_gpu", lambda: (None, "no CUDA device usable"))


@pytest.fixture
def subprocess_path(pytester: pytest.Pytester, monkeypatch) -> None:
    """Make the fake tools (and modules written into the project) importable in subprocesses."""
    here = str(Path(__file__).resolve().parent)
    paths = [here, str(pytester.path), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
