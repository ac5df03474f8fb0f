"""Repo-level pytest configuration for the project's own suites."""

# pytester builds throwaway projects for the plug-in's end-to-end tests (test/plugin) and the
# reliability tests.  pytest accepts `pytest_plugins` only in the top-level conftest.
pytest_plugins = ["pytester"]
