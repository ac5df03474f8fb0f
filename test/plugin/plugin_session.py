"""How the plug-in's end-to-end tests run pytest on a throwaway ``pytester`` project."""

import pytest


def run(project: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest in this process on ``project`` (no cache plug-in: nothing is left behind)."""
    return project.runpytest_inprocess("-p", "no:cacheprovider", *args)
