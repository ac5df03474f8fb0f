"""``gpurunner``: an mlir-runner compatible command line over the embedded engine.

:func:`tool_main` is the embedded tool of contract 1 (registered by the
plug-in as ``mlir-runner``, ``mlir-cpu-runner``, ``mlir-cuda-runner`` and
``gpurunner``): bytes in, bytes out, program output captured from fds 1/2,
every anticipated failure a message and a non-zero exit code.
:func:`main` is the console script over the real stdin/stdout.
"""

from __future__ import annotations

import os
import re
import sys
import traceback
from collections.abc import Mapping

from runner_core.errors import RunnerError
from runner_core.toolapi import ToolResult, recursion_headroom

USAGE = """\
OVERVIEW: gpurunner - run MLIR programs in process (mlir-runner compatible)

USAGE: {prog} [options] <input file>   (default input: stdin)

OPTIONS:
  -e <name>, --entry-point=<name>   function to call (default: main)
  --entry-point-result=<type>       void | i32 | i64 | f32 (default: f32); the result
                                    is printed like mlir-runner prints it
  -O0, -O1, -O2, -O3                LLVM optimisation level (default: -O0)
  --shared-libs=<a>[,<b>...]        runtime libraries (repeatable): a path that exists is
                                    loaded; a known runtime name (mlir_runner_utils,
                                    mlir_c_runner_utils, ...) selects the built-in one
  --backend=auto|cpu|cuda           where GPU code runs (default: $GPURUNNER_BACKEND or auto)
  --pass-pipeline=<pipeline>        replace the runner's preparation pipeline
  --print-pipeline                  print the preparation pipeline and exit
  --print-llvm-ir                   write the generated LLVM IR to stderr before running
  --bounds-check                    check every memref access at run time; the first
                                    out-of-bounds access stops the program with its op,
                                    location, index and shape (also GPURUNNER_BOUNDS_CHECK=1)
  --march=<arch>, --mattr=<attrs>   accepted for compatibility (the host CPU is used)
  -enable-matrix, -matrix-allow-contract, -matrix-default-layout=column-major|row-major
                                    LLVM's options for its matrix intrinsics
                                    (llvm.intr.matrix.*: compiled only with -enable-matrix)
  --dump-object-file, --object-filename=<file>
                                    write the JIT-compiled object code to <file>
                                    (default: <input file>.o)
  --no-implicit-module              the input's top-level op must be a builtin.module
  -h, --help                        this text
"""


class UsageError(RunnerError):
    """A bad command line, worded like LLVM's option parser."""


_VALUE_OPTS = {
    "e": "entry", "entry-point": "entry", "entry-point-result": "entry_result",
    "shared-libs": "shared_libs", "backend": "backend", "pass-pipeline": "pass_pipeline",
    "march": None, "mattr": None, "mcpu": None, "object-filename": "object_file",
}
# LLVM command-line options mlir-runner accepts (as LLVM's cl::opt) that change code
# generation: name -> allowed values (flags: true/false, given bare = true).
_LLVM_CL = {"enable-matrix": ("true", "false"), "matrix-allow-contract": ("true", "false"),
            "matrix-default-layout": ("column-major", "row-major")}
_FLAG_OPTS = {"print-pipeline", "print-llvm-ir", "bounds-check", "dump-object-file", "help", "h",
              "no-implicit-module",
              "O0", "O1", "O2", "O3"}


def parse_args(argv: list[str]):
    """``argv`` (without the program name) -> (RunOptions, input path or None, flags)."""
    from runner_core.options import RunOptions

    prog = "gpurunner"
    opts = RunOptions()
    flags: set[str] = set()
    inputs: list[str] = []
    i = 0
    only_positional = False
    while i < len(argv):
        arg = argv[i]
        i += 1
        if only_positional or arg == "-" or not arg.startswith("-"):
            inputs.append(arg)
            continue
        if arg == "--":
            only_positional = True
            continue
        body = arg.lstrip("-")
        name, eq, value = body.partition("=")
        if name in _FLAG_OPTS and not eq:
            flags.add(name)
            continue
        if name in _LLVM_CL:
            allowed = _LLVM_CL[name]
            if not eq and allowed[0] == "true":
                value = "true"
            elif not eq:
                if i >= len(argv):
                    raise UsageError(f"{prog}: for the --{name} option: requires a value!")
                value = argv[i]
                i += 1
            value = {"1": "true", "0": "false", "True": "true", "False": "false"}.get(value,
                                                                                     value)
            if value not in allowed:
                raise UsageError(f"{prog}: for the --{name} option: Cannot find option named "
                                 f"'{value}'!")
            opts.llvm_cl[name] = value
            continue
        if name in _VALUE_OPTS:
            if not eq:
                if i >= len(argv):
                    raise UsageError(f"{prog}: for the -{name} option: requires a value!")
                value = argv[i]
                i += 1
            field = _VALUE_OPTS[name]
            if field == "shared_libs":
                opts.shared_libs.append(value)
            elif field is not None:
                setattr(opts, field, value)
            continue
        raise UsageError(f"{prog}: Unknown command line argument '{arg}'.  "
                         f"Try: '{prog} --help'")
    levels = [int(f[1]) for f in flags if f in ("O0", "O1", "O2", "O3")]
    if len(levels) > 1:
        raise UsageError(f"{prog}: only one of -O0, -O1, -O2, -O3 may be given")
    opts.opt_level = levels[0] if levels else 0
    if len(inputs) > 1:
        raise UsageError(f"{prog}: Too many positional arguments specified!\n"
                         f"Can specify at most 1 positional arguments: See: {prog} --help")
    return opts, (inputs[0] if inputs else None), flags


def _read_input(path: str | None, stdin: bytes, cwd: str) -> tuple[str, str]:
    if path is None or path == "-":
        data, name = stdin, "<stdin>"
    else:
        full = path if os.path.isabs(path) else os.path.join(cwd, path)
        try:
            with open(full, "rb") as f:
                data = f.read()
        except OSError as err:
            raise RunnerError(f"cannot open input file '{path}': {err.strerror}") from None
        name = path
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise RunnerError(f"{name}:{line}:{col}: error: input is not UTF-8 text (byte "
                          f"0x{data[err.start]:02x} at offset {err.start})") from None


def tool_main(argv: list[str], stdin: bytes, env: Mapping[str, str], cwd: str) -> ToolResult:
    """The embedded tool (contract 1)."""
    prog = os.path.basename(argv[0]) if argv else "gpurunner"
    try:
        opts, path, flags = parse_args(list(argv[1:]))
    except RunnerError as err:
        return ToolResult(1, b"", (str(err) + "\n").encode())
    if flags & {"help", "h"}:
        return ToolResult(0, USAGE.format(prog=prog).encode(), b"")
    # Imported only now: the engine pulls in xDSL and llvmlite (~0.7 s), which --help
    # and a bad command line do without.
    from runner_core import engine
    from runner_core.runtime.capture import capture_fds

    opts.env = dict(env)
    opts.cwd = cwd
    from runner_core.passes.legality import STRICT_RUNNERS

    opts.strict = prog in STRICT_RUNNERS
    opts.print_llvm_ir = "print-llvm-ir" in flags
    opts.bounds_check = "bounds-check" in flags
    if "dump-object-file" not in flags:
        opts.object_file = None
    elif opts.object_file is None:
        opts.object_file = (path or "-") + ".o"  # mlir-runner: <input file>.o
    if "print-pipeline" in flags:
        text = opts.pass_pipeline if opts.pass_pipeline is not None else engine.default_pipeline()
        return ToolResult(0, (text + "\n").encode(), b"")
    from runner_core import cache

    outcome = None
    error: str | None = None
    code = 0
    before = cache.counters()  # a refusal from the cache is reported as a hit too
    with capture_fds() as cap:
        try:
            text, opts.filename = _read_input(path, stdin, cwd)
            if "no-implicit-module" in flags:
                _check_explicit_module(text)
            with recursion_headroom():  # deeply nested IR recurses deeply
                outcome = engine.run_program(text, opts)
        except RunnerError as err:
            error, code = str(err), getattr(err, "exit_code", 1) or 1
        except Exception as err:  # a bug in the runner: say so, with the trace
            error = (f"{prog}: internal error: {type(err).__name__}: {err}\n"
                     + traceback.format_exc())
            code = 2
    stdout = cap.stdout
    stderr = cap.stderr
    info: dict = {}
    if outcome is not None:
        stdout += outcome.result_text.encode()
        info = {"backend": outcome.backend, "timings": outcome.timings}
    looked_up = cache.delta(before)
    if looked_up:
        info["cache"] = looked_up
    if error:
        stderr += (error.rstrip("\n") + "\n").encode()
    from runner_core.toolapi import process_unusable

    unusable = process_unusable()
    if unusable:
        info["restart_process"] = unusable
    return ToolResult(code, stdout, stderr, info)


_FIRST_TOKEN = re.compile(r'(?:\s|//[^\n]*)*("?[\w.$]+)')


def _check_explicit_module(text: str) -> None:
    """--no-implicit-module: the file's top-level op is taken as it is, and mlir-runner
    needs a symbol table there (a `builtin.module`), as LLVM 22 words it."""
    m = _FIRST_TOKEN.match(text)
    if m is None or m.group(1).strip('"') not in ("module", "builtin.module"):
        raise RunnerError("Error: top-level op must be a symbol table.\n"
                          "could not parse the input IR")


def warm_up() -> None:
    """Import and set up what the first run needs (a persistent worker calls this before
    its first job, while the plug-in is still collecting): the engine, the pass registry
    (the default pipeline is part of every cache key), the dialect lowerings, the core
    runtime and the JIT."""
    from runner_core import cache, engine
    from runner_core.codegen.lowerings import table_for
    from runner_core.codegen.target import host_target
    from runner_core.ir import parse  # noqa: F401
    from runner_core.runtime.capture import capture_fds  # noqa: F401
    from runner_core.runtime.core import core
    from runner_core.targets import host

    cache.code_fingerprint()
    engine.default_pipeline()
    table_for(host_target().name)
    core()
    host.warm_jit(0)


def warm_up_cached() -> None:
    """What a run answered from the cache needs (the core runtime and the JIT), for a
    worker whose cache holds this code's entries (``cache.has_entries_of_this_code``)."""
    from runner_core.runtime.core import core
    from runner_core.targets import host

    core()
    host.warm_jit(0)


def main(argv: list[str] | None = None) -> int:
    """Console script: the same tool over the process's real stdin/stdout."""
    argv = list(sys.argv if argv is None else argv)
    try:
        _, path, flags = parse_args(argv[1:])
        needs_stdin = path in (None, "-") and not (flags & {"help", "h", "print-pipeline"})
    except RunnerError:
        needs_stdin = False
    stdin = sys.stdin.buffer.read() if needs_stdin else b""
    res = tool_main(argv, stdin, os.environ, os.getcwd())
    sys.stdout.buffer.write(res.stdout)
    sys.stdout.flush()
    sys.stderr.buffer.write(res.stderr)
    sys.stderr.flush()
    return res.returncode


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
