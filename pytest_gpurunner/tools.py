"""The tool table: which implementation answers a command name on a RUN line.

An *embedded* tool is a Python function following ``runner_core.toolapi``
(``tool(argv, stdin, env, cwd) -> ToolResult``) called in process: a Python
tool started as a process pays 0.1-0.5 s of interpreter start and imports, in
process it pays microseconds.  A *system* tool is an executable started as a
subprocess.  ``gpurunner_tools`` picks between them:

* ``embedded``: the embedded implementation where one is registered, executables
  for every other name;
* ``system``: executables only (tool directories first, then ``PATH``);
* ``auto``: the embedded implementation when it imports, else the executable.
  The choice is printed in the report header, so it is never silent.

Embedded entries are dotted ``module:function`` paths, imported on first use:
the runner modules they name are optional, and a missing one fails the tests
that need it with a message instead of breaking collection.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import re
import shutil
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from runner_core.toolapi import ToolResult

from .filecheck_ere import llvm_regex_dialect
from .job import ToolTable

RUNNER_TOOL = "runner_core.cli:tool_main"
OPT_TOOL = "runner_core.opt:tool_main"

DEFAULT_EMBEDDED: dict[str, str] = {
    "FileCheck": "pytest_gpurunner.tools:filecheck_tool",
    "filecheck": "pytest_gpurunner.tools:filecheck_tool",
    "xdsl-opt": "pytest_gpurunner.tools:xdsl_opt_tool",
    "xdsl-run": "pytest_gpurunner.tools:xdsl_run_tool",
    "mlir-runner": RUNNER_TOOL,
    "mlir-cpu-runner": RUNNER_TOOL,
    "mlir-cuda-runner": RUNNER_TOOL,
    "gpurunner": RUNNER_TOOL,
    "mlir-opt": OPT_TOOL,
    "gpurunner-opt": OPT_TOOL,
}


class ToolError(Exception):
    """A command name cannot be resolved to anything runnable."""


@dataclass
class Resolved:
    kind: str  # embedded | system
    target: str  # dotted path / repr of the callable, or the executable path
    function: Callable | None = None


def describe_target(target: object) -> str:
    if isinstance(target, str):
        return target
    module = getattr(target, "__module__", "?")
    name = getattr(target, "__qualname__", repr(target))
    return f"{module}:{name}"


def load_embedded(target: object) -> Callable:
    """Import a ``module:function`` target; raise ToolError saying what failed.

    No cache of our own: ``sys.modules`` already makes a second import cheap, and
    a cache would outlive the pytest session that configured the table.
    """
    if callable(target):
        return target
    if not isinstance(target, str) or ":" not in target:
        raise ToolError(f"embedded tool target {target!r} is not 'module:function'")
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as err:  # an optional module that is absent or broken
        raise ToolError(
            f"cannot import {module_name} for the embedded tool {target}: "
            f"{type(err).__name__}: {err}"
        ) from None
    function = module
    for part in attr.split("."):
        function = getattr(function, part, None)
        if function is None:
            raise ToolError(f"{module_name} has no attribute {attr} (embedded tool {target})")
    return function


def find_executable(name: str, table: ToolTable, env: Mapping[str, str], cwd: str) -> str | None:
    if os.sep in name:
        path = name if os.path.isabs(name) else os.path.join(cwd, name)
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    for directory in table.tool_dirs:
        path = os.path.join(directory, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return shutil.which(name, path=env.get("PATH", os.defpath))


def resolve(name: str, table: ToolTable, env: Mapping[str, str], cwd: str) -> Resolved:
    target = table.embedded.get(name)
    if target is not None and table.mode != "system":
        if table.mode == "embedded":
            return Resolved("embedded", describe_target(target), load_embedded(target))
        try:
            return Resolved("embedded", describe_target(target), load_embedded(target))
        except ToolError as err:
            path = find_executable(name, table, env, cwd)
            if path is None:
                raise ToolError(f"{name}: {err}; and no executable {name} on PATH either") from None
            return Resolved("system", path)
    path = find_executable(name, table, env, cwd)
    if path is None:
        where = ", ".join(table.tool_dirs + ["PATH"])
        extra = ""
        if target is not None:
            extra = f" (gpurunner_tools=system ignores the embedded {describe_target(target)})"
        raise ToolError(f"{name}: command not found (searched {where}){extra}")
    return Resolved("system", path)


def describe_table(table: ToolTable, env: Mapping[str, str], cwd: str) -> list[str]:
    """One line per embedded-capable name saying what it resolves to now (report header)."""
    lines = []
    for name in sorted(table.embedded, key=str.lower):
        if table.mode == "embedded":  # no import needed to know the answer
            lines.append(f"{name}=embedded:{describe_target(table.embedded[name])}")
            continue
        try:
            res = resolve(name, table, env, cwd)
            lines.append(f"{name}={res.kind}:{res.target}")
        except ToolError as err:
            lines.append(f"{name}=unavailable ({str(err).splitlines()[0]})")
    return lines


# ----------------------------------------------------------------------------- in-process helpers


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


# ----------------------------------------------------------------------------- FileCheck

# Options of LLVM FileCheck that only change how diagnostics look: accepted, ignored.
_COSMETIC = {"v": False, "vv": False, "color": False, "allow-unused-prefixes": False,
             "dump-input-context": True, "dump-input-filter": True}
# Options the filecheck package does not implement: a test using them must not pass by accident.
_GAPS = {"implicit-check-not", "ignore-case", "allow-deprecated-dag-overlap",
         "enable-var-scope=false"}


def _gap(message: str) -> ToolResult:
    return ToolResult(2, b"", (
        f"FileCheck (embedded filecheck package): {message}\n"
        f"note: this is a known gap of the filecheck package against LLVM FileCheck; "
        f"run with --gpurunner-tools=system (or gpurunner_tools = system) to use LLVM FileCheck\n"
    ).encode())


_HORIZONTAL_RUN = re.compile(r"[ \t]+")


def _llvm_horizontal_space(opts, text: str, check_text: str) -> tuple[str, str]:
    """LLVM FileCheck's default whitespace rule, applied before the package sees anything.

    Without ``--strict-whitespace`` LLVM FileCheck rewrites every run of spaces and
    tabs to one space in the input *and in the whole check file* before parsing
    patterns, so the rule reaches inside ``{{...}}`` regexes too: ``{{(7, ){2}}}``
    matches printMemref's ``7,  7`` and ``{{a {2}b}}`` never matches.  The package
    instead widens the literal parts of a pattern (a space becomes ``[ \t\v]+``) and
    leaves regexes and the input alone.  Once both texts are canonical, literals can
    compare exactly (package strict mode), which also keeps a space from matching a
    vertical tab, as in LLVM.  Under ``--match-full-lines`` the package's strict mode
    would also drop LLVM's optional spaces around the line, so it stays non-strict
    there (its only remaining difference: ``\v`` next to a literal space).
    """
    text = _HORIZONTAL_RUN.sub(" ", text)
    check_text = _HORIZONTAL_RUN.sub(" ", check_text)
    opts.strict_whitespace = not opts.match_full_lines
    return text, check_text


def filecheck_tool(argv: list[str], stdin: bytes, env: Mapping[str, str], cwd: str) -> ToolResult:
    """LLVM FileCheck's command line on top of the ``filecheck`` package, in process."""
    from filecheck import colors
    from filecheck.finput import FInput
    from filecheck.matcher import Matcher
    from filecheck.options import Extension, parse_argv_options
    from filecheck.parser import Parser, pattern_for_opts

    colors.COLOR_SUPPORT = False  # diagnostics end up in reports, not on a terminal
    if os.path.basename(argv[0]) == "filecheck":
        # The package's own command line: it answers these before looking at anything else.
        if "--help" in argv or len(argv) < 2:
            from filecheck.help import HELP_TEXT

            return ToolResult(0, (HELP_TEXT + "\n").encode())
        if "--version" in argv or "-version" in argv:
            from importlib.metadata import version

            return ToolResult(0, f"filecheck version {version('filecheck')}\n".encode())
    args: list[str] = []
    rest = list(argv[1:])
    while rest:
        arg = rest.pop(0)
        if arg.startswith("-D#"):
            return _gap(f"numeric variable definitions ({arg}) are not supported")
        if arg.startswith("-") and arg != "-":
            name, eq, _value = arg.lstrip("-").partition("=")
            if name in _GAPS or f"{name}={_value}" in _GAPS:
                return _gap(f"option {arg} is not supported")
            if name in _COSMETIC:
                if _COSMETIC[name] and not eq and rest:
                    rest.pop(0)
                continue
        args.append(arg)
    try:
        opts = parse_argv_options(["FileCheck", *args])
    except (RuntimeError, ValueError) as err:
        return ToolResult(2, b"", f"FileCheck: {err}\n".encode())
    wanted = [e for e in env.get("FILECHECK_FEATURE_ENABLE", "").split(",") if e]
    opts.extensions = {Extension[e] for e in wanted if e in Extension.__members__}

    check_path = opts.match_filename
    if not os.path.isabs(check_path):
        check_path = os.path.join(cwd, check_path)
    try:
        with open(check_path, encoding="utf-8", errors="replace") as handle:
            check_text = handle.read()
    except OSError as err:
        return ToolResult(2, b"", f"FileCheck: could not open check file "
                                  f"'{opts.match_filename}': {err.strerror}\n".encode())
    if opts.input_file == "-":
        name, data = "<stdin>", stdin
    else:
        name = opts.input_file
        path = name if os.path.isabs(name) else os.path.join(cwd, name)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as err:
            return ToolResult(2, b"", f"FileCheck: could not open input file "
                                      f"'{name}': {err.strerror}\n".encode())
    text = FInput.canonicalize_line_ends(data.decode("utf-8", errors="replace"))
    if os.path.basename(argv[0]) != "filecheck" and not opts.strict_whitespace:
        text, check_text = _llvm_horizontal_space(opts, text, check_text)

    diag = io.StringIO()
    # FileCheck's regexes are LLVM's POSIX EREs; `filecheck` keeps the package's Python ones.
    dialect = (contextlib.nullcontext() if os.path.basename(argv[0]) == "filecheck"
               else llvm_regex_dialect())
    try:
        with dialect:
            parser = Parser(opts, io.StringIO(check_text), *pattern_for_opts(opts))
            matcher = Matcher(opts, FInput(name, text), parser)
            matcher.stderr = diag
            with contextlib.redirect_stderr(diag):
                code = matcher.run()
    except Exception:
        return ToolResult(2, b"", ("FileCheck: internal error in the filecheck package\n"
                                   + traceback.format_exc()).encode())
    message = diag.getvalue()
    if code != 0 and "Invalid substitution block" in message and "[[#" in message:
        message += ("note: the embedded filecheck package does not support this numeric "
                    "expression (e.g. one-letter names such as [[#N:]]); run with "
                    "--gpurunner-tools=system to use LLVM FileCheck\n")
    return ToolResult(code, b"", message.encode("utf-8", "replace"))


# ----------------------------------------------------------------------------- xDSL drivers

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
