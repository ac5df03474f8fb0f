"""xDSL's own drivers (``xdsl-opt``, ``xdsl-run``) as embedded tools.

xDSL's drivers are written for a fresh process: they read ``sys.argv`` and the
standard streams, flip process-wide switches and fill module-level stores.
Called in process they get that process state for the length of the call and
everything they changed is put back, so the next test sees a clean interpreter.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping

from runner_core.toolapi import ToolResult


@contextlib.contextmanager
def python_process_state(stdin: bytes, env: Mapping[str, str], cwd: str,
                         argv: list[str]) -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    """Give a Python-level tool the process state a subprocess would have.

    Swaps ``sys.stdin/stdout/stderr/argv``, the cwd and the differing
    environment variables, and restores them all afterwards.  Only for tools
    that use Python streams; C-level output (fd 1) is the runner's own business
    (contract 2 in docs/design.md).
    """
    out_buf, err_buf = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_buf, encoding="utf-8", errors="surrogateescape",
                           write_through=True)
    err = io.TextIOWrapper(err_buf, encoding="utf-8", errors="backslashreplace",
                           write_through=True)
    inp = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="surrogateescape")
    saved_streams = sys.stdin, sys.stdout, sys.stderr, sys.argv
    saved_cwd = os.getcwd()
    changed: dict[str, str | None] = {}
    for key in set(os.environ) | set(env):
        old, new = os.environ.get(key), env.get(key)
        if old != new:
            changed[key] = old
            if new is None:
                del os.environ[key]
            else:
                os.environ[key] = new
    try:
        os.chdir(cwd)
        sys.stdin, sys.stdout, sys.stderr, sys.argv = inp, out, err, list(argv)
        yield out_buf, err_buf
    finally:
        out.flush()
        err.flush()
        sys.stdin, sys.stdout, sys.stderr, sys.argv = saved_streams
        os.chdir(saved_cwd)
        for key, old in changed.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def _run_main(body: Callable[[], object], argv: list[str], stdin: bytes,
              env: Mapping[str, str], cwd: str) -> ToolResult:
    """Run a console-script style ``main`` like its own process would: exit codes and tracebacks."""
    with python_process_state(stdin, env, cwd, argv) as (out, err):
        try:
            body()
            code = 0
        except SystemExit as stop:
            if stop.code is None:
                code = 0
            elif isinstance(stop.code, int):
                code = stop.code
            else:
                print(stop.code, file=sys.stderr)
                code = 1
        except Exception:
            # What the real process would print before exiting with status 1.
            traceback.print_exc(file=sys.stderr)
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        return ToolResult(code, out.getvalue(), err.getvalue())


_MULTIVERSE = None


def _multiverse():
    """xDSL's registry of dialects/passes/targets/frontends, read once per process.

    xDSL's drivers rebuild it from package metadata four times per start
    (~40 ms); the installed distributions do not change while tests run.
    """
    global _MULTIVERSE
    if _MULTIVERSE is None:
        from xdsl.universe import Universe

        _MULTIVERSE = Universe.get_multiverse()
    return _MULTIVERSE


class _CachedUniverseMixin:
    """Overrides of xDSL's documented ``register_all_*`` extension points, fed from the cache."""

    def register_all_dialects(self):
        for name, factory in _multiverse().all_dialects.items():
            self.ctx.register_dialect(name, factory)

    def register_all_frontends(self):
        for name, factory in _multiverse().all_frontends.items():
            self.available_frontends.setdefault(name, factory)

    def register_all_passes(self):
        for name, factory in _multiverse().all_passes.items():
            self.register_pass(name, factory)

    def register_all_targets(self):
        for name, factory in _multiverse().all_targets.items():
            self.available_targets.setdefault(name, factory)


@contextlib.contextmanager
def _xdsl_globals():
    """Undo the process-wide switches xDSL's drivers flip (they assume a fresh process)."""
    import warnings

    from xdsl.ir import Attribute
    from xdsl.utils.diagnostic import Diagnostic

    had_post_init = "__post_init__" in Attribute.__dict__
    post_init = Attribute.__dict__.get("__post_init__")
    colored = Diagnostic.colored
    drivers: list = []
    with warnings.catch_warnings():
        warnings.filterwarnings("default", category=DeprecationWarning)
        # A fresh process prints warnings to its stderr; pytest's own recorder must not get them.
        warnings.showwarning = _print_warning
        try:
            yield drivers
        finally:
            if had_post_init:
                Attribute.__post_init__ = post_init
            elif "__post_init__" in Attribute.__dict__:
                del Attribute.__post_init__
            Diagnostic.colored = colored
            for driver in drivers:
                _forget_resources(driver)


def _print_warning(message, category, filename, lineno, file=None, line=None):
    import warnings

    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def _forget_resources(driver) -> None:
    """Empty the dialect resource stores (``dense_resource`` blobs) a run filled.

    They live on module-level Dialect objects, so a second run in the same
    process would see the first run's keys and rename its own (``key_0``).
    """
    from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
    from xdsl.dialects.builtin import Builtin

    ctx = getattr(driver, "ctx", None)
    dialects = [Builtin, *(ctx.loaded_dialects if ctx is not None else ())]
    for dialect in dialects:
        interface = dialect.get_interface(OpAsmDialectInterface)
        if interface is not None:
            interface.__init__()


_DRIVERS: dict[str, type] = {}


def _driver_class(kind: str) -> type:
    """xDSL's driver class with the cached-universe overrides, built once per process."""
    cls = _DRIVERS.get(kind)
    if cls is None:
        if kind == "opt":
            from xdsl.xdsl_opt_main import xDSLOptMain as base
        else:
            from xdsl.tools.xdsl_run import xDSLRunMain as base
        cls = type(f"Embedded{base.__name__}", (_CachedUniverseMixin, base), {})
        _DRIVERS[kind] = cls
    return cls


def _xdsl_tool(kind: str, argv: list[str], stdin: bytes, env: Mapping[str, str],
               cwd: str) -> ToolResult:
    cls = _driver_class(kind)

    def body():
        with _xdsl_globals() as drivers:
            # Kept before __init__ runs, so its context can be cleaned even if __init__ fails.
            drivers.append(cls.__new__(cls))
            drivers[0].__init__(args=argv[1:])
            drivers[0].run()

    return _run_main(body, argv, stdin, env, cwd)


def xdsl_opt_tool(argv: list[str], stdin: bytes, env: Mapping[str, str], cwd: str) -> ToolResult:
    return _xdsl_tool("opt", argv, stdin, env, cwd)


def xdsl_run_tool(argv: list[str], stdin: bytes, env: Mapping[str, str], cwd: str) -> ToolResult:
    return _xdsl_tool("run", argv, stdin, env, cwd)
