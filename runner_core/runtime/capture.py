"""Capturing what a run writes to file descriptors 1 and 2.

The runner is called in process by the test plug-in, yet JIT code and real
shared libraries write straight to fds 1/2 through C stdio.  Around a run, the
fds are pointed at temporary files (``dup2``), C's buffers are flushed before
and after (``fflush(NULL)``), and the original fds are restored, so the bytes
come back to the caller exactly as a subprocess would have produced them.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass

from .cstdio import flush_all

_lock = threading.RLock()  # re-entrant: captures may nest (a tool run inside a capture)


@dataclass
class Captured:
    stdout: bytes = b""
    stderr: bytes = b""


def _flush_python() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, ValueError, OSError):
            pass


@contextmanager
def capture_fds():
    """Redirect fds 1 and 2 for the duration; the yielded object is filled on exit.

    Process-wide by nature (file descriptors are), so captures are serialised.
    """
    result = Captured()
    with _lock:
        _flush_python()
        flush_all()
        saved = [os.dup(1), os.dup(2)]
        files = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
        try:
            os.dup2(files[0].fileno(), 1)
            os.dup2(files[1].fileno(), 2)
            try:
                yield result
            finally:
                _flush_python()
                flush_all()
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
                for f, attr in zip(files, ("stdout", "stderr"), strict=True):
                    f.seek(0)
                    setattr(result, attr, f.read())
        finally:
            for fd in saved:
                os.close(fd)
            for f in files:
                f.close()
