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
import signal
import subprocess
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Connection, Pipe

from . import lifeline
from .job import Job, JobResult
from .shell import Timeout, run_job

# Process groups of the workers alive in this process: what a second Ctrl-C kills at once.
LIVE_WORKERS: set[int] = set()


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
    fired = []
    if use_alarm:
        def on_alarm(signum, frame):
            fired.append(True)
            raise Timeout()

        # Someone else's alarm (pytest-timeout's signal method) is put back afterwards.
        other_timer = signal.getitimer(signal.ITIMER_REAL)
        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, job.timeout + 0.25)
    try:
        result = run_job(job, progress)
        if fired and result.status != "timeout":
            # The alarm went off inside code that swallowed its exception (a ctypes
            # callback prints it and returns): whatever came after is not the verdict.
            result = JobResult("timeout", 124, result.stages, job.timed_out(),
                               result.failed_lineno, result.duration)
    except Timeout:
        result = JobResult("timeout", 124, [], job.timed_out())
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if other_timer[0] > 0:
                left = other_timer[0] - (time.monotonic() - started)
                signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), other_timer[1])
    return result


# In the worker's environment: warm only what cached answers need (``worker.py``).
LIGHT_WARM_UP = "GPURUNNER_LIGHT_WARM_UP"


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

    Jobs and results travel as pickles over a ``multiprocessing.connection``
    pair (a socketpair; it does the framing), not over the worker's stdout:
    the code under test owns fd 1 and fd 2.  The worker's own stdout/stderr go
    to a log file whose tail is shown when it dies; a log that stays empty is
    removed with its worker.  The worker dies with this process: a
    parent-death signal plus a watchdog on a pipe only this process writes
    (``lifeline``).
    """

    name = "worker"
    grace = 2.0  # seconds the worker gets beyond the job timeout to report it itself
    startup_limit = 300.0  # seconds a new worker may take to import before its first job

    def __init__(self, env: dict[str, str] | None = None, preload: list[str] | None = None,
                 log_dir: str | None = None):
        self.env = env
        self.preload = preload or []
        self.log_dir = log_dir
        self.proc: subprocess.Popen | None = None
        self.conn: Connection | None = None
        self.lifeline = -1  # write end of the watchdog's pipe; closing it ends the worker
        self.log_path: str | None = None
        self.kept_logs: list[str] = []  # logs that held something when their worker ended
        self.busy = False  # a job was sent and its result has not come back
        self.started = 0
        self.restarts = 0
        self.ready = False  # the worker said it finished its imports (its first message)

    def _start(self) -> None:
        ours, theirs = Pipe(duplex=True)
        life_r, life_w = os.pipe()
        fd, self.log_path = tempfile.mkstemp(prefix="gpurunner-worker-", suffix=".log",
                                             dir=self.log_dir)
        os.close(fd)
        env = dict(os.environ if self.env is None else self.env)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        try:
            with open(self.log_path, "ab") as log:
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "pytest_gpurunner.worker", str(theirs.fileno()),
                     str(life_r), *self.preload],
                    pass_fds=(theirs.fileno(), life_r), stdin=subprocess.DEVNULL, stdout=log,
                    stderr=log, env=env, start_new_session=True, close_fds=True,
                    preexec_fn=lifeline.child_setup(os.getpid()),
                )
        except BaseException:
            ours.close()
            os.close(life_w)
            raise
        finally:
            theirs.close()
            os.close(life_r)
        LIVE_WORKERS.add(self.proc.pid)
        self.conn, self.lifeline = ours, life_w
        self.started += 1
        self.ready = False

    def prestart(self) -> None:
        """Start the worker now, before the first job: its imports (xDSL, the code
        generator, llvmlite: most of a second) then overlap pytest's collection, or
        the report of the test whose worker just died.  A start that fails here is
        retried, and reported, by the next :meth:`run`."""
        if self.proc is not None and self.proc.poll() is None:
            return
        if self.proc is not None:
            self._discard()
            self.restarts += 1
        try:
            self._start()
        except OSError:
            self.proc = None

    def _replace(self) -> None:
        """After a crash, a timeout or a restart request: the next worker starts at once."""
        self.restarts += 1
        self.prestart()

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
        conn, self.conn = self.conn, None
        if conn is not None:
            conn.close()
        if self.lifeline >= 0:
            os.close(self.lifeline)
            self.lifeline = -1
        self.busy = False
        if proc is None:
            return None
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        status = proc.wait()
        LIVE_WORKERS.discard(proc.pid)
        self._close_log()
        return status

    def _close_log(self) -> None:
        """Remove the ended worker's log unless it holds something (then it is listed as kept)."""
        path, self.log_path = self.log_path, None
        if path is None:
            return
        try:
            if os.path.getsize(path) == 0:
                os.unlink(path)
            else:
                self.kept_logs.append(path)
        except OSError:
            pass

    def run(self, job: Job) -> JobResult:
        try:
            payload = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as err:
            raise NotPicklable(f"{type(err).__name__}: {err}") from None
        if self.proc is None or self.proc.poll() is not None:
            if self.proc is not None:
                self._discard()
                self.restarts += 1
            self._start()
        log_offset = self._log_size()
        started = time.monotonic()
        deadline = None
        current = "before its first command"
        lineno = None
        pid = self.proc.pid
        try:
            self.busy = True
            if not self.ready:
                # Its imports (warm_up) are not the test's time: the timeout starts after them.
                if not self.conn.poll(self.startup_limit):
                    current = f"its start-up (no answer in {self.startup_limit:g} s)"
                    raise TimeoutError
                self.conn.recv()
                self.ready = True
                started = time.monotonic()
            deadline = started + job.timeout + self.grace if job.timeout else None
            self.conn.send_bytes(payload)
            while True:
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                if not self.conn.poll(wait):
                    raise TimeoutError
                kind, *body = self.conn.recv()
                if kind == "progress":
                    lineno, argv = body
                    current = f"RUN at line {lineno}: {' '.join(argv)}"
                    continue
                self.busy = False
                result = body[0]
                result.executor = f"{self.name} (pid {pid})"
                if result.status == "timeout":
                    # Interrupted code may have left the process in any state: replace it.
                    self._discard()
                    self._replace()
                elif result.restart_reason or any(
                        s.info.get("restart_process") for s in result.stages):
                    # A tool says the process cannot run more programs (a sticky CUDA
                    # error, runner_core.toolapi): the next job gets a fresh worker.
                    self._discard()
                    self._replace()
                return result
        except TimeoutError:
            self._discard()
            self._replace()
            return JobResult(
                "timeout", 124, [],
                f"{job.timed_out()}; worker process {pid} killed while running {current}",
                lineno, time.monotonic() - started, self.name)
        except (EOFError, OSError, pickle.UnpicklingError) as err:
            tail = self._log_tail(log_offset)
            kept = self.log_path
            status = self._discard()
            how = _describe_status(status)
            message = f"worker process {pid} {how} while running {current}"
            if tail.strip():
                message += "\n--- worker output (last lines) ---\n" + tail.rstrip()
                message += f"\n(worker log kept: {kept})"
            if isinstance(err, OSError) and not isinstance(err, EOFError):
                message += f"\n(pipe error: {err})"
            self._replace()
            return JobResult("crash", status if isinstance(status, int) else -1, [], message,
                             lineno, time.monotonic() - started, self.name)
        except BaseException:
            # KeyboardInterrupt (Ctrl-C, or the plug-in's SIGTERM handler): the test in flight
            # ends with its worker, at once, and the interrupt goes on to pytest.
            self._discard()
            raise

    def close(self) -> None:
        """End the worker: asked politely when idle (it exits at once), killed when busy."""
        if self.proc is not None and self.proc.poll() is None and not self.busy:
            try:
                self.conn.send(None)
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._discard()


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
