"""pytest plug-in that collects lit-style ``.mlir`` tests and runs their RUN pipelines.

``LocalConfig`` is what a conftest's ``pytest_gpurunner_local_config`` hook
receives; ``ToolResult`` is what an embedded tool returns.

PYTEST_DONT_REWRITE: pytest's marker for packages it must not assert-rewrite
(see ``_not_rewritten``); it also keeps pytest from warning, in a second
session of one process (pytester), that the package was imported unrewritten.
"""

__version__ = "0.1.0"

__all__ = ["LocalConfig", "ToolResult", "__version__"]


def _not_rewritten() -> None:
    """Take this distribution's packages off pytest's list of modules to assert-rewrite.

    pytest rewrites every module of a ``pytest11`` plug-in's distribution as it is
    imported, which here includes the whole runner (``runner_core``, ~200 modules):
    an AST pass and a compile per module, in every pytest process, with nothing
    gained (no test assertions live there).  Under ``PYTHONDONTWRITEBYTECODE`` that
    was about 2 s before the first test.  pytest keeps the list in a private set; if
    it changes shape, the modules are simply rewritten as before.
    """
    import sys

    for finder in sys.meta_path:
        marked = getattr(finder, "_must_rewrite", None)
        if type(finder).__name__ != "AssertionRewritingHook" or not isinstance(marked, set):
            continue
        marked.difference_update(("pytest_gpurunner", "runner_core"))
        cache = getattr(finder, "_marked_for_rewrite_cache", None)
        if isinstance(cache, dict):
            cache.clear()


_not_rewritten()


def __getattr__(name: str):
    # Lazy, so that the worker process (which imports this package) does not import pytest.
    if name == "LocalConfig":
        from .settings import LocalConfig

        return LocalConfig
    if name == "ToolResult":
        from runner_core.toolapi import ToolResult

        return ToolResult
    raise AttributeError(name)
