"""Where a Job runs: in this process, or in a persistent worker process.

Unit tests (front-end and FileCheck pipelines) run in process: nothing to
isolate, and every microsecond counts.  Integration tests execute generated
code and load shared libraries, so a segfault, an abort or a hung kernel must
cost one test, not the run: they go to a worker process that keeps its imports
warm between tests and is replaced after it dies or is killed for a timeout.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

from .job import Job, JobResult
from .shell import Timeout, run_job

_HEADER = struct.Struct("!Q")


# ----------------------------------------------------------------------------- framing


def write_message(fd: int, obj) -> None:
    payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(payload)) + payload)
    while view:
        view = view[os.write(fd, view):]


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes:
    chunks, left = [], size
    while left:
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_message(fd: int, deadline: float | None = None):
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    return pickle.loads(_read_exact(fd, size, deadline))


# ----------------------------------------------------------------------------- executors


def run_with_alarm(job: Job, progress=None) -> JobResult:
    """Run the job here; a timeout also interrupts Python code via SIGALRM (main thread only).

    The shell's own deadline stops subprocesses and is checked between commands;
    the alarm, set a little later, is for an embedded tool spinning in Python.
    Code stuck in C is beyond it: that is what the worker executor's kill is for.
    """
    use_alarm = (job.timeout and hasattr(signal, "setitimer")
                 and threading.current_thread() is threading.main_thread())
    previous = None
    other_timer = (0.0, 0.0)
    started = time.monotonic()
    if use_alarm:
        def on_alarm(signum, frame):
            raise Timeout()

        # Someone else's alarm (pytest-timeout's signal method) is put back afterwards.
        other_timer = signal.getitimer(signal.ITIMER_REAL)
        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, job.timeout + 0.25)
    try:
        result = run_job(job, progress)
    except Timeout:
        result = JobResult("timeout", 124, [], f"timed out after {job.timeout:g} s")
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if other_timer[0] > 0:
                left = other_timer[0] - (time.monotonic() - started)
                signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), other_timer[1])
    return result


class InProcessExecutor:
    name = "in-process"

    def run(self, job: Job) -> JobResult:
        result = run_with_alarm(job)
        result.executor = self.name
        return result

    def close(self) -> None:
        pass


class NotPicklable(Exception):
    pass


class WorkerExecutor:
    """One persistent ``python -m pytest_gpurunner.worker`` per pytest process (per xdist worker).

    Jobs and results travel as length-prefixed pickles over two private pipes,
    not over the worker's stdout: the code under test owns fd 1 and fd 2.  The
    worker's own stdout/stderr go to a log file whose tail is shown when it
    dies.
    """

    name = "worker"
    grace = 2.0  # seconds the worker gets beyond the job timeout to report it itself

    def __init__(self, env: dict[str, str] | None = None, preload: list[str] | None = None):
        self.env = env
        self.preload = preload or []
        self.proc: subprocess.Popen | None = None
        self.to_worker = self.from_worker = -1
        self.log_path: str | None = None
        self.started = 0
        self.restarts = 0

    def _start(self) -> None:
        job_r, job_w = os.pipe()
        res_r, res_w = os.pipe()
        fd, self.log_path = tempfile.mkstemp(prefix="gpurunner-worker-", suffix=".log")
        os.close(fd)
        env = dict(os.environ if self.env is None else self.env)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "pytest_gpurunner.worker", str(job_r), str(res_w),
                 *self.preload],
                pass_fds=(job_r, res_w), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                env=env, start_new_session=True, close_fds=True,
            )
        os.close(job_r)
        os.close(res_w)
        self.to_worker, self.from_worker = job_w, res_r
        self.started += 1

    def _log_tail(self, offset: int, limit: int = 4000) -> str:
        if not self.log_path:
            return ""
        try:
            with open(self.log_path, "rb") as log:
                log.seek(offset)
                data = log.read()
        except OSError:
            return ""
        text = data.decode("utf-8", "replace")
        return text[-limit:]

    def _log_size(self) -> int:
        try:
            return os.path.getsize(self.log_path) if self.log_path else 0
        except OSError:
            return 0

    def _discard(self) -> int | None:
        """Kill the worker (whole process group) and forget it; return its exit status."""
        proc, self.proc = self.proc, None
        for fd in (self.to_worker, self.from_worker):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.to_worker = self.from_worker = -1
        if proc is None:
            return None
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        return proc.wait()

    def run(self, job: Job) -> JobResult:
        try:
            payload = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as err:
            raise NotPicklable(f"{type(err).__name__}: {err}") from None
        del payload
        if self.proc is None or self.proc.poll() is not None:
            if self.proc is not None:
                self._discard()
                self.restarts += 1
            self._start()
        log_offset = self._log_size()
        started = time.monotonic()
        deadline = started + job.timeout + self.grace if job.timeout else None
        current = "before its first command"
        lineno = None
        try:
            write_message(self.to_worker, job)
            while True:
                kind, *body = read_message(self.from_worker, deadline)
                if kind == "progress":
                    lineno, argv = body
                    current = f"RUN at line {lineno}: {' '.join(argv)}"
                    continue
                result = body[0]
                result.executor = f"{self.name} (pid {self.proc.pid})"
                if result.status == "timeout":
                    # Interrupted code may have left the process in any state: replace it.
                    self._discard()
                elif result.restart_reason or any(
                        s.info.get("restart_process") for s in result.stages):
                    # A tool says the process cannot run more programs (a sticky CUDA
                    # error, runner_core.toolapi): the next job gets a fresh worker.
                    self._discard()
                    self.restarts += 1
                return result
        except TimeoutError:
            pid = self.proc.pid
            self._discard()
            return JobResult(
                "timeout", 124, [],
                f"timed out after {job.timeout:g} s; worker process {pid} killed while running "
                f"{current}", lineno, time.monotonic() - started, self.name)
        except (EOFError, OSError, pickle.UnpicklingError) as err:
            pid = self.proc.pid if self.proc else "?"
            status = self._discard()
            how = _describe_status(status)
            tail = self._log_tail(log_offset)
            message = f"worker process {pid} {how} while running {current}"
            if tail.strip():
                message += "\n--- worker output (last lines) ---\n" + tail.rstrip()
            if isinstance(err, OSError) and not isinstance(err, EOFError):
                message += f"\n(pipe error: {err})"
            return JobResult("crash", status if isinstance(status, int) else -1, [], message,
                             lineno, time.monotonic() - started, self.name)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                write_message(self.to_worker, None)
                self.proc.wait(timeout=5)
            except Exception:
                pass
        self._discard()
        if self.log_path:
            try:
                os.unlink(self.log_path)
            except OSError:
                pass
            self.log_path = None


def _describe_status(status: int | None) -> str:
    if status is None:
        return "vanished"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"died with {name}"
    return f"exited with status {status}"
