"""What one pytest process keeps while it runs ``.mlir`` tests: settings, executors, temp root.

It lives apart from the hooks (``plugin.py``) so that the collection tree
(``collect.py``) can reach it without importing the module that creates the
tree: the hooks import both, neither imports the hooks.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from . import settings
from .executor import LIGHT_WARM_UP, InProcessExecutor, WorkerExecutor
from .interrupts import Interrupts

STATE = pytest.StashKey["SessionState"]()
LOCAL_CONFIG_HOOK = "pytest_gpurunner_local_config"


class SessionState:
    """Per-process state: settings, executors, temp root, per-directory configs, counters."""

    def __init__(self, config: pytest.Config, resolved: settings.Settings):
        self.config = config
        self.settings = resolved
        self._tmp: Path | None = None
        self._cache_env: dict[str, str] | None = None
        self._locals: dict[Path, settings.LocalConfig] = {}
        self._inprocess = InProcessExecutor()
        self._worker: WorkerExecutor | None = None
        self._kept: set[Path] = set()  # directories of failed tests that hold something
        self._closed = False
        self.kept_lines: list[str] = []  # what close() kept, for the terminal summary
        self.interrupts = Interrupts()
        self.interrupts.on_stop = self.remove_unkept
        self.announced: Path | None = None  # an xdist worker's pid file (see interrupts)
        self.gpu_counts = {"gpu": 0, "emulated": 0, "system": 0, "skipped": 0, "missing": 0}

    def cache_environment(self) -> dict[str, str]:
        """The environment that locates the caches (``GPURUNNER_CACHE_DIR`` from the
        command line or the ini wins), built once a session for collection's look-ups."""
        if self._cache_env is None:
            self._cache_env = {**os.environ, **self.settings.environment}
        return self._cache_env

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
            # The tool table's modules, warmed before the first test needs them (the
            # worker imports the shell itself).
            preload = sorted({t.partition(":")[0] for t in self.settings.tools.embedded.values()
                              if isinstance(t, str) and ":" in t})
            self._worker = WorkerExecutor(env={**os.environ, **self._worker_environment()},
                                          preload=preload, log_dir=str(self.tmp_base()))
        return self._worker

    def _worker_environment(self) -> dict[str, str]:
        """The cache directory the jobs will use, and whether the worker may skip
        importing the compiler up front: this code's entries are already there, so the
        tests that ran before are answered from the cache (``runner_core.cache``)."""
        from runner_core import cache

        env: dict[str, str] = {}
        if cache.ENV_VAR in self.settings.environment:
            env[cache.ENV_VAR] = self.settings.environment[cache.ENV_VAR]
        if cache.has_entries_of_this_code(self.cache_environment()):
            env[LIGHT_WARM_UP] = "1"
        return env

    def prestart_worker(self) -> None:
        """Collection found an integration test: start the worker now, so that its
        imports run while pytest goes on collecting (on another core)."""
        if self._closed or getattr(self.config.option, "collectonly", False):
            return
        executor = self.executor_for(True)
        if isinstance(executor, WorkerExecutor):
            executor.prestart()

    def worker_pid_dir(self) -> Path:
        """xdist controller: the directory its workers announce their pids in."""
        if self.interrupts.worker_pids is None:
            path = self.tmp_base() / "xdist-workers"
            path.mkdir(exist_ok=True)
            self.interrupts.worker_pids = path
        return self.interrupts.worker_pids

    def keep(self, directory: Path) -> None:
        """``directory`` (a failed test's) survives ``close``; its report names it."""
        self._kept.add(directory)

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

    def remove_unkept(self) -> None:
        """What ``close`` removes, without ending anything first (a second Ctrl-C)."""
        if self._tmp is not None and not self.settings.keep_tmp:
            _prune(self._tmp, set(self._kept))
            _remove_empty_dirs(self._tmp)

    def close(self) -> None:
        """End the worker and leave in the temporary root only what a report named.

        Kept: failed tests' directories that hold something and worker logs that
        do (everything with ``--gpurunner-keep-tmp``).  Gone: the rest, including
        the directory of a test an interrupt stopped.  Idempotent: it runs at
        session finish (so an xdist worker can report what it kept) and again at
        unconfigure.
        """
        if self._closed:
            return
        with self.interrupts.quiet():
            self._close()
        self._closed = True

    def _close(self) -> None:
        if self.announced is not None:
            self.announced.unlink(missing_ok=True)
        logs: list[str] = []
        if self._worker is not None:
            self._worker.close()
            logs = self._worker.kept_logs
        if self._tmp is None:
            return
        if not self.settings.keep_tmp:
            _prune(self._tmp, self._kept | {Path(p) for p in logs})
            _remove_empty_dirs(self._tmp)
        if not self._tmp.exists():
            return
        if self.settings.keep_tmp:
            self.kept_lines.append(f"temporary files kept (--gpurunner-keep-tmp): {self._tmp}")
            return
        dirs = sorted(p for p in self._kept if p.exists())
        if dirs:
            self.kept_lines.append(f"{len(dirs)} failed test directory(ies) kept under "
                                   f"{self._tmp}")
        for path in logs:
            if os.path.exists(path):
                self.kept_lines.append(f"worker log kept (it holds output): {path}")


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


def _prune(root: Path, keep: set[Path]) -> None:
    """Remove everything under ``root`` except the paths in ``keep`` (and what leads to them)."""
    keep = {p.resolve() for p in keep}
    ancestors = {parent for p in keep for parent in p.parents}

    def visit(directory: Path) -> None:
        for entry in directory.iterdir():
            resolved = entry.resolve()
            if resolved in keep:
                continue
            if resolved in ancestors and entry.is_dir() and not entry.is_symlink():
                visit(entry)
            elif entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                try:
                    entry.unlink()
                except OSError:
                    pass

    try:
        visit(root)
    except OSError:
        pass


def _remove_empty_dirs(root: Path) -> None:
    for dirpath, _dirnames, _filenames in sorted(os.walk(root), key=lambda e: -len(e[0])):
        try:
            os.rmdir(dirpath)
        except OSError:
            pass


def state_of(config: pytest.Config) -> SessionState:
    return config.stash[STATE]
