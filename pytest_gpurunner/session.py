"""What one pytest process keeps while it runs ``.mlir`` tests: settings, executors, temp root.

It lives apart from the hooks (``plugin.py``) so that the collection tree
(``collect.py``) can reach it without importing the module that creates the
tree: the hooks import both, neither imports the hooks.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from . import settings
from .executor import InProcessExecutor, WorkerExecutor

STATE = pytest.StashKey["SessionState"]()
LOCAL_CONFIG_HOOK = "pytest_gpurunner_local_config"


class SessionState:
    """Per-process state: settings, executors, temp root, per-directory configs, counters."""

    def __init__(self, config: pytest.Config, resolved: settings.Settings):
        self.config = config
        self.settings = resolved
        self._tmp: Path | None = None
        self._locals: dict[Path, settings.LocalConfig] = {}
        self._inprocess = InProcessExecutor()
        self._worker: WorkerExecutor | None = None
        self.gpu_counts = {"gpu": 0, "emulated": 0, "skipped": 0, "missing": 0}

    def tmp_base(self) -> Path:
        if self._tmp is None:
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            self._tmp = Path(tempfile.mkdtemp(prefix=f"gpurunner-{worker}-"))
        return self._tmp

    def executor_for(self, integration: bool, force_inprocess: bool = False):
        mode = self.settings.executor
        if force_inprocess or mode == "inprocess" or (mode == "auto" and not integration):
            return self._inprocess
        if self._worker is None:
            preload = ["pytest_gpurunner.shell", "pytest_gpurunner.filecheck_tool",
                       "filecheck.matcher"]
            preload += sorted({t.partition(":")[0] for t in self.settings.tools.embedded.values()
                               if isinstance(t, str) and ":" in t})
            self._worker = WorkerExecutor(preload=preload)
        return self._worker

    def local_config(self, node: pytest.Item, directory: Path) -> settings.LocalConfig:
        """The lit configuration of ``directory``: the ini's, then each level's hook call.

        lit applies ``lit.cfg`` and then each ``lit.local.cfg`` from the outermost
        directory inwards, each seeing what the ones above decided.  pluggy calls
        the implementations of one hook call last-registered first, which for
        conftests is innermost first; so there is one call per level, outermost
        first: the plug-ins' (installed, ``-p``, ``pytest_plugins``), then the
        conftest of each directory above the test.  Every call goes through
        pluggy, so within a level ``tryfirst``/``trylast`` and wrappers apply and
        ``--debug`` traces it.
        """
        cached = self._locals.get(directory)
        if cached is not None:
            return cached
        local = self.settings.base_local.copy()
        for caller in level_callers(self.config.pluginmanager, node):
            caller(local=local, path=directory, config=self.config)
        self._locals[directory] = local
        return local

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
        if self._tmp is not None:
            _remove_empty_dirs(self._tmp)


def level_callers(pluginmanager: pytest.PytestPluginManager, node: pytest.Item) -> Iterator:
    """One hook caller per configuration level that applies to ``node``, outermost first."""
    applicable = getattr(node.ihook, LOCAL_CONFIG_HOOK).get_hookimpls()
    everyone = {impl.plugin for impl in getattr(pluginmanager.hook,
                                                LOCAL_CONFIG_HOOK).get_hookimpls()}
    levels: dict[tuple[int, int], set] = {}
    for impl in applicable:
        levels.setdefault(_level(impl.plugin), set()).add(impl.plugin)
    for key in sorted(levels):
        yield pluginmanager.subset_hook_caller(LOCAL_CONFIG_HOOK, everyone - levels[key])


def _level(plugin) -> tuple[int, int]:
    """(0, 0) for a plug-in; (1, depth of its directory) for a conftest module."""
    source = getattr(plugin, "__file__", None)
    if not source or os.path.basename(source) != "conftest.py":
        return (0, 0)
    return (1, len(Path(source).resolve().parent.parts))


def _remove_empty_dirs(root: Path) -> None:
    for dirpath, _dirnames, _filenames in sorted(os.walk(root), key=lambda e: -len(e[0])):
        try:
            os.rmdir(dirpath)
        except OSError:
            pass


def state_of(config: pytest.Config) -> SessionState:
    return config.stash[STATE]
