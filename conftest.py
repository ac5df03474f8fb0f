"""Repo-level pytest configuration for the project's own suites."""

import textwrap

import pytest

# pytester builds throwaway projects for the plug-in's end-to-end tests (test/plugin) and the
# reliability tests.  pytest accepts `pytest_plugins` only in the top-level conftest.
pytest_plugins = ["pytester"]

# Heavy third-party plug-ins installed here have nothing to do with pytester sessions; leaving
# them out keeps each in-process session cheap.
PYTESTER_HEAD = "[pytest]\naddopts = -p no:benchmark -p no:hypothesispytest -p no:randomly\n"

# Embedded tools of test/plugin/gpurunner_fake_tools.py, imported only by a test that runs one.
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
    fake-sleep = gpurunner_fake_tools:sleep
    fake-noise = gpurunner_fake_tools:noise
    fake-swallow = gpurunner_fake_tools:swallow
"""


def pytest_configure(config: pytest.Config) -> None:
    """The suite's runs cache (runner_core.cache) in a directory of their own, never the
    user's: a test's verdict must not depend on what ran on this machine before."""
    import os
    import tempfile

    if "GPURUNNER_CACHE_DIR" not in os.environ and not hasattr(config, "workerinput"):
        os.environ["GPURUNNER_CACHE_DIR"] = tempfile.mkdtemp(prefix="gpurunner-test-cache-")
        config._gpurunner_test_cache = os.environ["GPURUNNER_CACHE_DIR"]
        # LLVM 22's mlir-runner writes a perf jitdump for every run into
        # $JITDUMPDIR/.debug/jit (else the temporary directory): keep them with the cache.
        os.environ.setdefault("JITDUMPDIR", os.environ["GPURUNNER_CACHE_DIR"])


def pytest_unconfigure(config: pytest.Config) -> None:
    import os
    import shutil

    made = getattr(config, "_gpurunner_test_cache", None)
    if made:
        shutil.rmtree(made, ignore_errors=True)
        os.environ.pop("GPURUNNER_CACHE_DIR", None)
        if os.environ.get("JITDUMPDIR") == made:
            os.environ.pop("JITDUMPDIR")


@pytest.fixture
def ini(pytester: pytest.Pytester):
    """Write the project's ini: the fake tools plus ``body`` (ini lines, any indentation)."""

    def write(body: str = "", fake_tools: bool = True) -> None:
        text = PYTESTER_HEAD + (FAKE_TOOLS if fake_tools else "") + textwrap.dedent(body)
        (pytester.path / "tox.ini").write_text(text)

    return write


@pytest.fixture
def project(pytester: pytest.Pytester, ini) -> pytest.Pytester:
    """A throwaway pytest project (ini written) for end-to-end runs through the plug-in."""
    ini()
    return pytester


@pytest.fixture(autouse=True)
def _not_on_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pytest sessions our tests start print the same text on CI as here.

    pytest prints whole failure messages in its short summary when ``CI`` or
    ``BUILD_NUMBER`` is set (and truncates them otherwise), so tests that read an
    inner session's report would see other text on CI than on a developer's machine.
    """
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("BUILD_NUMBER", raising=False)


@pytest.fixture(autouse=True)
def _inner_sessions_keep_tmp_under_basetemp(request: pytest.FixtureRequest,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Pytester sessions run in this process: what they keep on purpose (the temporary
    directories of their deliberately failing tests, worker logs with content) goes under
    pytest's own basetemp, which pytest prunes, and never into the machine's /tmp."""
    if "pytester" not in request.fixturenames:
        return
    import tempfile

    where = request.getfixturevalue("tmp_path_factory").mktemp("inner-tmp")
    monkeypatch.setenv("TMPDIR", str(where))
    monkeypatch.setattr(tempfile, "tempdir", str(where))
