"""pytest plug-in that collects lit-style ``.mlir`` tests and runs their RUN pipelines.

``LocalConfig`` is what a conftest's ``pytest_gpurunner_local_config`` hook
receives; ``ToolResult`` is what an embedded tool returns.
"""

__version__ = "0.1.0"

__all__ = ["LocalConfig", "ToolResult", "__version__"]


def __getattr__(name: str):
    # Lazy, so that the worker process (which imports this package) does not import pytest.
    if name == "LocalConfig":
        from .settings import LocalConfig

        return LocalConfig
    if name == "ToolResult":
        from runner_core.toolapi import ToolResult

        return ToolResult
    raise AttributeError(name)
