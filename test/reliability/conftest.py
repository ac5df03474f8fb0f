"""Shared helpers of the reliability suite (bad inputs, fuzzing, bounds checks)."""

import pytest

# pytester is enabled by the top-level conftest (pytest accepts pytest_plugins only there).

# Heavy third-party plug-ins have nothing to do with pytester sessions here.
PYTESTER_INI = "[pytest]\naddopts = -p no:benchmark -p no:hypothesispytest -p no:randomly\n"


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """A throwaway pytest project (ini written) for end-to-end runs through the plug-in."""
    (pytester.path / "tox.ini").write_text(PYTESTER_INI)
    return pytester
