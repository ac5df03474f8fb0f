"""No process of ours outlives the process that started it, whatever signal ended that one.

Two mechanisms, because each alone has a hole:

* the parent-death signal (Linux ``prctl(PR_SET_PDEATHSIG)``): the kernel
  sends SIGKILL to a child the moment its parent dies, even by SIGKILL and
  even while the child is stuck in C code; it is set between ``fork`` and
  ``exec`` (``preexec_fn``), and survives ``exec`` of an ordinary binary;
* a watchdog thread in the worker on a pipe whose only write end the parent
  holds: end of file means the parent is gone.  It covers systems without
  ``prctl`` and a parent whose forking *thread* ended (the kernel's signal
  follows the thread, not the process).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading

_PR_SET_PDEATHSIG = 1


def _load_prctl():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        return libc.prctl
    except (OSError, AttributeError):
        return None


# Resolved once here: a ``preexec_fn`` runs in the forked child, where loading a
# library (taking the loader's lock another thread may have held at fork time) is unsafe.
_PRCTL = _load_prctl()


def die_with_parent() -> bool:
    """Ask the kernel to SIGKILL this process when its parent dies; False where it cannot."""
    if _PRCTL is None:
        return False
    return _PRCTL(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0


def child_setup(parent_pid: int):
    """A ``preexec_fn`` for a child that must die with ``parent_pid`` (this process).

    The parent may die between ``fork`` and the ``prctl`` call; the child then
    already has another parent and would never get the signal, so it checks.
    """

    def setup() -> None:
        die_with_parent()
        if os.getppid() != parent_pid:
            os.kill(os.getpid(), signal.SIGKILL)

    return setup


def watch(fd: int) -> threading.Thread:
    """Start a daemon thread that ends this process when ``fd`` (a pipe's read end) hits EOF."""

    def run() -> None:
        while True:
            try:
                if not os.read(fd, 4096):
                    break
            except InterruptedError:
                continue
            except OSError:
                break
        os._exit(3)  # the parent is gone; nothing here is worth finishing

    thread = threading.Thread(target=run, name="gpurunner-parent-watchdog", daemon=True)
    thread.start()
    return thread
