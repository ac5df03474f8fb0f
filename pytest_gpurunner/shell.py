"""Run a Job's RUN script with lit's internal-shell semantics, in the current process.

What matches lit: RUN lines chained with ``&&``; ``;`` ``&&`` ``||`` evaluated
left to right; pipelines with pipefail; redirections ``< > >> 2> 2>> 2>&1 &>``;
``not``, ``not --crash`` and ``!`` with lit's exact exit-code rules; ``env``
(``-u``, ``-i``, ``K=V``) for one command; ``export``, ``cd``, ``pushd``/``popd``,
``umask``; the builtins in ``shell_builtins.py``; ``%{readfile:F}``.

Where we differ on purpose:

* a bare ``env`` in a pipeline prints the environment and the pipeline goes on
  (lit 23.1.5 returns early and never runs the rest, e.g. ``env | FileCheck``);
* pipeline stages run one after another with their output passed on as bytes,
  which is what makes chaining in-process tools free; a producer that never
  ends is stopped by the timeout instead of by a closed pipe;
* nothing goes through ``/bin/sh``: commands are argument vectors.
"""

from __future__ import annotations

import glob as _glob
import os
import pickle
import re
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable

from . import lifeline
from . import shell_builtins as _builtins
from . import tools as _tools
from .job import Command, Glob, Job, JobResult, Node, Pipeline, Sequence, StageResult


class ShellError(Exception):
    """The script cannot run as written (lit would report exit 127 for the script)."""


class ToolCrash(Exception):
    """An embedded tool raised instead of returning a ToolResult: a bug in that tool."""


class Timeout(BaseException):  # noqa: N818 - BaseException so tools' `except Exception` cannot eat it
    """The job's deadline passed; raised between commands or by the executor's alarm."""


_CHECKERS = {"filecheck"}
_READFILE = re.compile(r"%\{readfile:([^}]*)\}")


class _State:
    def __init__(self, job: Job, deadline: float | None,
                 progress: Callable[[int, list[str]], None] | None):
        self.job = job
        self.cwd = job.cwd
        self.env = dict(job.env)
        self.dir_stack: list[str] = []
        self.umask: int | None = None
        self.deadline = deadline
        self.progress = progress
        self.stages: list[StageResult] = []
        self.lineno = 0
        self.tools = job.tools  # the current line's (RunLine.tools) or the job's
        self.current = ""  # the command being executed, for timeout messages

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise Timeout()
        return left

    def keep(self, data: bytes) -> bytes:
        limit = self.job.keep_bytes
        if len(data) <= limit:
            return data
        return data[:limit] + f"\n... [{len(data) - limit} more bytes]\n".encode()


def run_job(job: Job, progress: Callable[[int, list[str]], None] | None = None) -> JobResult:
    """Run every RUN line in order; stop at the first that fails, like lit's ``&&`` chain."""
    start = time.monotonic()
    deadline = start + job.timeout if job.timeout else None
    state = _State(job, deadline, progress)

    def result(status: str, code: int, message: str = "", lineno: int | None = None):
        return JobResult(status, code, state.stages, message, lineno,
                         time.monotonic() - start)

    try:
        for line in job.lines:
            if line.tree is None:
                continue
            state.lineno = line.lineno
            state.tools = line.tools or job.tools
            state.remaining()
            code = _run_node(line.tree, state)
            if code != 0:
                return result("fail", code, "", line.lineno)
        return result("pass", 0)
    except Timeout:
        message = job.timed_out()
        if state.current:
            message += f"; stopped while running RUN at line {state.lineno}: {state.current}"
        return result("timeout", 124, message, state.lineno)
    except ShellError as err:
        return result("error", 127, f"RUN at line {state.lineno}: {err}", state.lineno)
    except ToolCrash as err:
        return result("error", 70, f"RUN at line {state.lineno}: {err}", state.lineno)


def _run_node(node: Node, state: _State) -> int:
    if isinstance(node, Sequence):
        if node.op == "&":
            raise ShellError("unsupported shell operator: '&'")
        left = _run_node(node.lhs, state)
        if node.op == ";":
            return _run_node(node.rhs, state)
        if node.op == "&&":
            return _run_node(node.rhs, state) if left == 0 else left
        if node.op == "||":
            return _run_node(node.rhs, state) if left != 0 else left
        raise ShellError(f"unknown shell operator {node.op!r}")
    assert isinstance(node, Pipeline)
    data = b""
    exit_code = 0
    previous_failed = False
    for index, command in enumerate(node.commands):
        recorded = len(state.stages)
        starved = previous_failed and not data
        code, data = _run_command(command, data, index, len(node.commands), state)
        if starved and len(state.stages) > recorded:
            state.stages[-1].after_failed_stage = True
        previous_failed = code != 0
        if code != 0:  # pipefail: the last failing stage decides
            exit_code = code
    return exit_code


# ----------------------------------------------------------------------------- one command


def _expand_word(word, cwd: str) -> list[str]:
    if isinstance(word, Glob):
        base = word.pattern if os.path.isabs(word.pattern) else os.path.join(cwd, word.pattern)
        found = sorted(_glob.glob(base))
        return found or [word.pattern]
    return [word]


def _readfile(arg: str, cwd: str) -> str:
    def replace(match):
        path = match.group(1)
        full = path if os.path.isabs(path) else os.path.join(cwd, path)
        try:
            with open(full, encoding="utf-8") as handle:
                return handle.read()
        except FileNotFoundError:
            raise ShellError(f"File specified in readfile substitution does not exist: {full}") from None

    return _READFILE.sub(replace, arg) if "%{readfile:" in arg else arg


def _update_env(env: dict[str, str], args: list[str]) -> list[str]:
    """lit's ``env`` argument rules: ``-u NAME``, ``-i``, ``K=V``; the rest is the command."""
    rest = args[1:]
    while rest:
        arg = rest[0]
        if arg == "-i":
            env.clear()
        elif arg == "-u":
            if len(rest) < 2:
                raise ShellError("env: option requires an argument -- 'u'")
            env.pop(rest[1], None)
            rest = rest[1:]
        elif "=" in arg:
            key, _, value = arg.partition("=")
            env[key] = value
        else:
            break
        rest = rest[1:]
    return rest


def _apply_nots(nots: list[str], code: int) -> int:
    """lit's rules for ``not``, ``not --crash`` and ``!`` (TestRunner._executeShCmd)."""
    crashed = code < 0
    if "crash" in nots:
        # lit hands these to LLVM's `not` binary; evaluate it from the inside out.
        result = code
        for marker in reversed(nots):
            if marker == "crash":
                result, crashed = (0 if crashed else 1), False
            elif crashed:
                result, crashed = 1, False
            else:
                result = 1 if result == 0 else 0
        return result
    if not nots:
        return code
    if nots == ["not"]:
        return 1 if code <= 0 else 0
    if len(nots) % 2:
        return 1 if code == 0 else 0
    return 1 if code != 0 else 0


def _open_target(word, mode: str, state: _State):
    names = _expand_word(word, state.cwd)
    if len(names) != 1:
        raise ShellError("Unsupported: glob in redirect expanded to multiple files")
    path = names[0] if os.path.isabs(names[0]) else os.path.join(state.cwd, names[0])
    try:
        return open(path, mode + "b")
    except OSError as err:
        raise ShellError(f"cannot open {names[0]} for redirection: {err.strerror}") from None


def _write(target: tuple, data: bytes) -> None:
    """Write a redirection's bytes; a full disk or a closed device is the script's error."""
    handle, label = target
    try:
        handle.write(data)
        handle.flush()
    except OSError as exc:
        raise ShellError(f"cannot write to {label}: {exc.strerror}") from None


def _run_command(command: Command, stdin: bytes, index: int, count: int,
                 state: _State) -> tuple[int, bytes]:
    state.remaining()
    args: list[str] = []
    for word in command.args:
        if isinstance(word, str):
            word = _readfile(word, state.cwd)
        expanded = _expand_word(word, state.cwd)
        args.extend(expanded if args else expanded[:1])  # lit: the program name is one word

    cmd_env: dict[str, str] | None = None
    nots: list[str] = []
    print_env = False
    while args:
        head = args[0]
        if head == "env":
            cmd_env = dict(state.env if cmd_env is None else cmd_env)
            args = _update_env(cmd_env, args)
            if not args:
                print_env = True
        elif head == "not":
            args = args[1:]
            if args and args[0] == "--crash":
                args = args[1:]
                nots.append("crash")
            else:
                nots.append("not")
            if not args:
                raise ShellError("Error: 'not' requires a subcommand")
        elif head == "!":
            args = args[1:]
            nots.append("!")
            if not args:
                raise ShellError("Error: '!' requires a subcommand")
        else:
            break
    env = state.env if cmd_env is None else cmd_env
    name = "env" if print_env else args[0]
    if print_env:
        args = [w for w in command.args if isinstance(w, str)]  # show what was written

    if not print_env and name in _STATE_BUILTINS:
        if cmd_env is not None:
            raise ShellError(f"Error: 'env' cannot call '{name}'")
        if "crash" in nots:
            raise ShellError(f"Error: 'not --crash' cannot call '{name}'")
        if count != 1:
            raise ShellError(f"Unsupported: '{name}' cannot be part of a pipeline")
        code = _STATE_BUILTINS[name](args, state)
        code = _apply_nots(nots, code)
        state.stages.append(StageResult(state.lineno, index, count, args, "builtin", name,
                                        code, code))
        return code, b""

    # Redirections, in order, as lit's processRedirects reads them.
    stdout_to = "pipe"  # pipe | stderr | (handle, label)
    stderr_to = "capture"  # capture | stdout | (handle, label)
    opened = []
    try:
        for red in command.redirects:
            op, fd = red.op, red.fd
            if op == "<" and fd in (None, 0):
                names = _expand_word(red.target, state.cwd)
                path = names[0] if os.path.isabs(names[0]) else os.path.join(state.cwd, names[0])
                try:
                    with open(path, "rb") as handle:
                        stdin = handle.read()
                except OSError as err:
                    raise ShellError(f"cannot read {names[0]}: {err.strerror}") from None
            elif op in (">", ">>") and fd in (None, 1, 2):
                handle = _open_target(red.target, "w" if op == ">" else "a", state)
                opened.append(handle)
                if fd == 2:
                    stderr_to = (handle, str(red.target))
                else:
                    stdout_to = (handle, str(red.target))
            elif op == ">&" and fd == 2 and red.target in ("1", "2"):
                if red.target == "1":
                    stderr_to = "stdout" if stdout_to == "pipe" else stdout_to
            elif op == ">&" and fd == 1 and red.target == "2":
                stdout_to = "stderr" if stderr_to == "capture" else stderr_to
            elif (op == ">&" and fd is None) or op == "&>":
                handle = _open_target(red.target, "w", state)
                opened.append(handle)
                stdout_to = stderr_to = (handle, str(red.target))
            else:
                raise ShellError(f"Unsupported redirect: {op if fd is None else str(fd) + op} "
                                 f"{red.target}")

        started = time.perf_counter()
        info: dict = {}
        if print_env:
            kind, target = "env", "env"
            text = "".join(f"{k}={v}\n" for k, v in sorted(env.items()))
            raw, out, err = 0, text.encode(), b""
        elif name in _builtins.STREAM_BUILTINS:
            kind, target = "builtin", name
            raw, out, err = _builtins.STREAM_BUILTINS[name](args[1:], stdin, state.cwd)
        else:
            try:
                resolved = _tools.resolve(name, state.tools, env, state.cwd)
            except _tools.ToolError as exc:
                raise ShellError(str(exc)) from None
            kind, target = resolved.kind, resolved.target
            state.current = " ".join(args)
            if state.progress is not None:
                state.progress(state.lineno, args)
            merge = stderr_to == "stdout" or (stderr_to == stdout_to and stdout_to != "pipe")
            if resolved.kind == "embedded":
                raw, out, err, info = _call_embedded(resolved, args, stdin, env, state,
                                                     isolate="crash" in nots)
                if merge:
                    out, err = out + err, b""
            else:
                raw, out, err = _call_system(resolved.target, args, stdin, env, state, merge)
        duration = time.perf_counter() - started

        # Route the streams.
        if stdout_to == "stderr":
            err, out = err + out, b""
        if stderr_to == "stdout":
            out, err = out + err, b""
        redirected = []
        if isinstance(stdout_to, tuple):
            _write(stdout_to, out)
            redirected.append(stdout_to[1])
        if isinstance(stderr_to, tuple) and stderr_to is not stdout_to:
            _write(stderr_to, err)
            redirected.append(stderr_to[1])
    finally:
        for handle in opened:
            try:
                handle.close()  # flushes: a full disk may only show here
            except OSError as exc:
                raise ShellError(f"cannot write to {handle.name}: {exc.strerror}") from None

    code = _apply_nots(nots, raw)
    keep_stdin = os.path.basename(name).lower() in _CHECKERS and code != 0
    state.stages.append(StageResult(
        lineno=state.lineno, index=index, pipeline_len=count, argv=list(args), kind=kind,
        target=target, returncode=code, raw_returncode=raw,
        stdout=state.keep(out), stderr=state.keep(err),
        stdin=state.keep(stdin) if keep_stdin else b"",
        duration=duration, redirected=redirected, info=info,
    ))
    piped = b"" if isinstance(stdout_to, tuple) else out
    return code, piped


# ----------------------------------------------------------------------------- builtins with state


def _cd(args: list[str], state: _State) -> int:
    if len(args) != 2:
        raise ShellError("'cd' supports only one argument")
    state.cwd = os.path.normpath(os.path.join(state.cwd, args[1]))
    return 0


def _pushd(args: list[str], state: _State) -> int:
    if len(args) != 2:
        raise ShellError("'pushd' supports only one argument")
    state.dir_stack.append(state.cwd)
    return _cd(args, state)


def _popd(args: list[str], state: _State) -> int:
    if len(args) != 1:
        raise ShellError("'popd' does not support arguments")
    if not state.dir_stack:
        raise ShellError("popd: directory stack empty")
    state.cwd = state.dir_stack.pop()
    return 0


def _export(args: list[str], state: _State) -> int:
    if len(args) != 2:
        raise ShellError("'export' supports only one argument")
    _update_env(state.env, args)
    return 0


def _umask(args: list[str], state: _State) -> int:
    if len(args) != 2:
        raise ShellError("'umask' supports only one argument")
    try:
        state.umask = int(args[1], 8)
    except ValueError as err:
        raise ShellError(f"Error: 'umask': {err}") from None
    return 0


def _ulimit(args: list[str], state: _State) -> int:
    raise ShellError("'ulimit' is not supported by pytest-gpurunner's shell")


_STATE_BUILTINS = {"cd": _cd, "pushd": _pushd, "popd": _popd, "export": _export,
                   "umask": _umask, "ulimit": _ulimit}


# ----------------------------------------------------------------------------- tools


def _call_embedded(resolved, args, stdin, env, state: _State, isolate: bool):
    if isolate:
        return _call_isolated(resolved, args, stdin, env, state)
    try:
        result = resolved.function(list(args), stdin, dict(env), state.cwd)
    except (Exception, SystemExit):
        raise ToolCrash(f"embedded tool {args[0]} ({resolved.target}) raised instead of "
                        f"returning a ToolResult:\n{traceback.format_exc()}") from None
    try:
        return (int(result.returncode), bytes(result.stdout), bytes(result.stderr),
                dict(getattr(result, "info", {}) or {}))
    except (AttributeError, TypeError, ValueError):
        raise ToolCrash(f"embedded tool {args[0]} ({resolved.target}) returned "
                        f"{type(result).__name__}, not a ToolResult") from None


def _call_isolated(resolved, args, stdin, env, state: _State):
    """Run an embedded tool in a fresh interpreter so that ``not --crash`` sees a real crash."""
    target = state.tools.embedded.get(args[0], resolved.function)
    try:
        request = pickle.dumps((target, list(args), stdin, dict(env), state.cwd))
    except Exception as err:
        raise ShellError(f"'not --crash {args[0]}' needs the tool in a separate process, but "
                         f"{resolved.target} cannot be sent there: {err}") from None
    # The answer comes back on a pipe of its own (no file that a killed worker would leave
    # in /tmp), drained by a thread so that a large answer cannot block the child.
    result_r, result_w = os.pipe()
    answer: list[bytes] = []
    reader = threading.Thread(target=lambda: answer.append(_read_all(result_r)), daemon=True)
    child_env = dict(env)
    child_env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    try:
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "pytest_gpurunner.isolated", str(result_w)],
                cwd=state.cwd, env=child_env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, pass_fds=(result_w,),
                preexec_fn=lifeline.child_setup(os.getpid()))
        finally:
            os.close(result_w)
    except BaseException:
        os.close(result_r)
        raise
    reader.start()  # it closes result_r when the child's end is closed
    out, err = _communicate(proc, request, state)
    reader.join()
    if proc.returncode < 0:  # the crash `not --crash` is looking for
        return proc.returncode, out, err, {"isolated": True}
    try:
        code, tool_out, tool_err = pickle.loads(answer[0])
    except (IndexError, EOFError, pickle.UnpicklingError):
        raise ToolCrash(f"embedded tool {args[0]} ({resolved.target}) failed in its "
                        f"separate process (exit {proc.returncode}):\n"
                        f"{err.decode('utf-8', 'replace')}") from None
    return code, tool_out + out, tool_err + err, {"isolated": True}


def _read_all(fd: int) -> bytes:
    chunks = []
    try:
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def _call_system(path: str, args: list[str], stdin: bytes, env, state: _State, merge: bool):
    try:
        proc = subprocess.Popen(
            args, executable=path, cwd=state.cwd, env=dict(env),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if merge else subprocess.PIPE,
            start_new_session=True, preexec_fn=lifeline.child_setup(os.getpid()),
            umask=state.umask if state.umask is not None else -1,
        )
    except OSError as err:
        raise ShellError(f"Could not create process ({path}) due to {err}") from None
    out, err = _communicate(proc, stdin, state)
    return proc.returncode, out or b"", err or b""


def _communicate(proc: subprocess.Popen, stdin: bytes, state: _State) -> tuple[bytes, bytes]:
    """Feed ``stdin`` and collect the output within the script's time left; on a timeout
    (or an interrupt) the child's whole process group is killed before unwinding."""
    try:
        return proc.communicate(stdin, timeout=state.remaining())
    except (subprocess.TimeoutExpired, Timeout):
        _kill_group(proc)
        raise Timeout() from None
    except BaseException:
        _kill_group(proc)
        raise


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.communicate(timeout=5)
    except Exception:
        proc.kill()
