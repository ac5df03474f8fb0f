"""Ctrl-C and SIGTERM: the first ends the run with pytest's summary, a second ends it at once.

pytest turns SIGINT into ``KeyboardInterrupt`` and prints the interrupted
summary; that already reaches an integration test in flight, whose worker the
executor then kills (the main thread waits in ``poll``, which a signal
interrupts).  What this module adds:

* SIGTERM (what a CI timeout sends) is handled like the first Ctrl-C, so the
  run still ends with a summary and leaves nothing behind; its exception is a
  ``KeyboardInterrupt`` subclass because that is what pytest treats as an
  interrupt.
* A second SIGINT or SIGTERM kills every worker of this process and, in an
  xdist controller, every xdist worker, then exits with 128 + the signal.  A
  watcher thread on ``signal.set_wakeup_fd`` does it even while the main
  thread is stuck in C code and no Python handler can run.
* An xdist controller forwards the interrupt to its workers (SIGUSR1, which a
  worker treats as "the controller was interrupted": a first interrupt, never
  a second), because a signal sent to the controller's pid alone would
  otherwise leave them running their tests until xdist kills them, 10 s or
  more later.  Workers announce their pids in files of a directory the
  controller names in ``workerinput``.

Handlers are installed only in the main thread and only over the default
ones, so a user's own handler is left alone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from pathlib import Path

from .executor import LIVE_WORKERS

FORWARD = signal.SIGUSR1

# The terminal's stderr, kept before pytest's capture (which starts after plug-ins are
# imported) points fd 2 at a file: the hard stop's last word must reach the user.
try:
    _STDERR = os.dup(2)
except OSError:
    _STDERR = -1
_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Terminated(KeyboardInterrupt):
    """SIGTERM, reported like Ctrl-C (pytest prints the interrupted summary)."""


class Interrupts:
    def __init__(self) -> None:
        self.count = 0
        self.watched = 0  # signals the wakeup-fd watcher saw
        self.worker_pids: Path | None = None  # controller: where xdist workers announce pids
        self.on_stop = None  # called by stop_now: remove what no report names
        self._lock = threading.Lock()
        self._stopping = False
        self._quiet = 0
        self._saved: dict[int, object] = {}
        self._wakeup: tuple[int, int] | None = None
        self._saved_wakeup = -1

    # -- installation ----------------------------------------------------------

    def install(self, forwarded: bool = False) -> None:
        """Take SIGINT/SIGTERM (and, in an xdist worker, ``FORWARD``) where nobody else did."""
        if threading.current_thread() is not threading.main_thread():
            return
        defaults = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL,
                    FORWARD: signal.SIG_DFL}
        for signum in (*_SIGNALS, *((FORWARD,) if forwarded else ())):
            if signal.getsignal(signum) is defaults[signum]:
                self._saved[signum] = signal.signal(signum, self._handle)
        if self._saved:
            self._watch()

    @property
    def forwarded(self) -> bool:
        """Whether this process took ``FORWARD`` (only then may the controller send it)."""
        return FORWARD in self._saved

    def uninstall(self) -> None:
        """Give the signals back, unless an interrupt already came.

        Once interrupted the process is ending; a second Ctrl-C during the rest of
        its shutdown must still end it at once with 128 + the signal, not as
        Python's default handler would (a ``KeyboardInterrupt`` in the middle of
        interpreter teardown, or death by the signal), whichever moment it hits.
        """
        if threading.current_thread() is not threading.main_thread() or self.count:
            return
        for signum, previous in self._saved.items():
            signal.signal(signum, previous)
        self._saved.clear()
        if self._wakeup is not None:
            signal.set_wakeup_fd(self._saved_wakeup)
            os.close(self._wakeup[1])  # the watcher reads EOF and ends
            self._wakeup = None

    def _watch(self) -> None:
        """Count signals from C level, where a main thread stuck in C cannot stop it."""
        read, write = os.pipe()
        os.set_blocking(write, False)
        try:
            previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        except (ValueError, OSError):
            os.close(read)
            os.close(write)
            return
        if previous != -1:  # someone else's (an event loop's): theirs it stays
            signal.set_wakeup_fd(previous)
            os.close(read)
            os.close(write)
            return
        self._wakeup, self._saved_wakeup = (read, write), previous

        def run() -> None:
            try:
                while True:
                    data = os.read(read, 64)
                    if not data:
                        return
                    for signum in data:
                        if signum in _SIGNALS:
                            self.watched += 1
                            if self.watched >= 2:
                                self.stop_now(signum)
            finally:
                os.close(read)

        threading.Thread(target=run, name="gpurunner-interrupts", daemon=True).start()

    # -- handling ---------------------------------------------------------------

    @contextlib.contextmanager
    def quiet(self):
        """While cleaning up, a first interrupt is noted, not raised.

        Raised in the middle of the cleanup it would stop it half done (the
        worker alive, the temporary root half removed); the run is ending
        anyway.  A second one still ends the process at once.
        """
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1

    def _handle(self, signum, frame) -> None:
        if signum == FORWARD:
            if self.count:
                return  # this worker is already stopping
            self.count = 1
            if self._quiet:
                return
            raise KeyboardInterrupt("the xdist controller was interrupted")
        self.count += 1
        if self.count >= 2:
            self.stop_now(signum)
        self.forward(FORWARD)
        if self._quiet:
            return
        if signum == signal.SIGTERM:
            raise Terminated("SIGTERM")
        raise KeyboardInterrupt

    def forward(self, signum: int) -> None:
        """Send ``signum`` to the xdist workers that announced themselves (children only)."""
        if self.worker_pids is None:
            return
        try:
            entries = list(self.worker_pids.iterdir())
        except OSError:
            return
        for entry in entries:
            try:
                pid = int(entry.name.rpartition("-")[2])
            except ValueError:
                continue
            parent = _parent_of(pid)
            if parent is not None and parent != os.getpid():
                continue  # not (or no longer) our child: the pid may belong to someone else
            try:
                os.kill(pid, signum)
            except OSError:
                pass

    def stop_now(self, signum: int) -> None:
        """The second interrupt: kill what we started and leave, without unwinding."""
        with self._lock:
            if self._stopping:
                return
            self._stopping = True
        for pid in list(LIVE_WORKERS):
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
        if self.on_stop is not None:
            try:
                self.on_stop()
            except Exception:
                pass
        # xdist workers: a second SIGINT lets each clean up its own temporary root the
        # same way; one that does not go at once (stuck in C) is killed.
        self.forward(signal.SIGINT)
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline and self._children_left():
            time.sleep(0.02)
        self.forward(signal.SIGKILL)
        try:
            os.write(_STDERR if _STDERR >= 0 else 2,
                     f"\ngpurunner: second {signal.Signals(signum).name}: stopped at once\n"
                     .encode())
        except OSError:
            pass
        os._exit(128 + int(signum))


    def _children_left(self) -> bool:
        if self.worker_pids is None:
            return False
        try:
            entries = list(self.worker_pids.iterdir())
        except OSError:
            return False
        for entry in entries:
            try:
                pid = int(entry.name.rpartition("-")[2])
            except ValueError:
                continue
            if _parent_of(pid) == os.getpid() and not _zombie(pid):
                return True
        return False


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return True
    return stat[stat.rindex(b")") + 2:].split()[0] in (b"Z", b"X")


def _parent_of(pid: int) -> int | None:
    """The parent pid of ``pid`` (None where /proc cannot tell; -1 when it is gone)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return -1
    # The name is in parentheses and may hold spaces; the fields after it are plain.
    fields = stat[stat.rindex(b")") + 2:].split()
    return int(fields[1])


def announce(directory: str, worker_id: str) -> Path | None:
    """An xdist worker tells the controller its pid (a file named ``<id>-<pid>``)."""
    path = Path(directory) / f"{worker_id}-{os.getpid()}"
    try:
        path.touch()
    except OSError:
        return None
    return path
