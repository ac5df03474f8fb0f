"""End-to-end tests of the plug-in: each builds a throwaway project with ``pytester``."""

import os
import textwrap
from pathlib import Path

import pytest

from pytest_gpurunner import gating

# `pytester` itself is enabled by the repository's top-level conftest.py (pytest accepts
# `pytest_plugins` only there).

# Heavy third-party plug-ins installed here have nothing to do with these tests; leaving them
# out keeps each in-process session cheap.
HEAD = "[pytest]\naddopts = -p no:benchmark -p no:hypothesispytest -p no:randomly\n"

FAKE_TOOLS = """
gpurunner_embedded_tools =
    fake-echo-env = gpurunner_fake_tools:echo_env
    fake-fail = gpurunner_fake_tools:fail
    fake-crash = gpurunner_fake_tools:crash
    fake-hang = gpurunner_fake_tools:hang
    fake-flaky = gpurunner_fake_tools:flaky
    fake-cat = gpurunner_fake_tools:cat
    fake-raise = gpurunner_fake_tools:raise_error
    fake-poison = gpurunner_fake_tools:poison
    fake-mark-unusable = gpurunner_fake_tools:mark_unusable
"""


@pytest.fixture
def ini(pytester: pytest.Pytester):
    """Write the project's ini: the fake tools plus ``body`` (ini lines, any indentation)."""

    def write(body: str = "", fake_tools: bool = True) -> None:
        text = HEAD + (FAKE_TOOLS if fake_tools else "") + textwrap.dedent(body)
        (pytester.path / "tox.ini").write_text(text)

    return write


@pytest.fixture
def project(pytester: pytest.Pytester, ini) -> pytest.Pytester:
    """A throwaway project whose tests can use the fake embedded tools of gpurunner_fake_tools."""
    ini()
    return pytester


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
