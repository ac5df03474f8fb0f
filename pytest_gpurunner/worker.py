"""Entry point of the persistent worker process (``python -m pytest_gpurunner.worker``).

``python -m pytest_gpurunner.worker CONN_FD LIFELINE_FD [MODULE...]``: reads
jobs from the ``multiprocessing.connection`` end ``CONN_FD``, runs each with
the shell, answers on the same connection.  It is deliberately dumb: all
policy (timeouts, restarts, what a crash means) lives in the parent's
``WorkerExecutor``.  It dies with its parent (``lifeline``).  It runs in a
session of its own, so a terminal's Ctrl-C reaches only the parent, which
ends this process itself.
"""

from __future__ import annotations

import faulthandler
import importlib
import os
import pickle
import sys
import traceback
from multiprocessing.connection import Connection

from runner_core.toolapi import process_unusable

from . import lifeline
from .executor import LIGHT_WARM_UP, run_with_alarm
from .job import JobResult


def main(argv: list[str]) -> int:
    conn = Connection(int(argv[1]))
    lifeline.die_with_parent()
    lifeline.watch(int(argv[2]))
    # A fatal signal then leaves a Python stack in the log, which the parent shows.
    faulthandler.enable()
    # The cache holds entries of this code (runner_core.cache.has_entries_of_this_code):
    # warm only what cached answers need; a miss imports the rest when it comes.
    light = os.environ.pop(LIGHT_WARM_UP, "") == "1"
    for module in argv[3:]:
        # The tool table's modules, warmed.  One that does not import (a user's tool, an
        # optional package) is the business of the test that runs it: the tool table
        # says why there (or falls back to an executable in auto mode).
        try:
            mod = importlib.import_module(module)
            warm_up = getattr(mod, "warm_up_cached" if light else "warm_up", None)
            # A tool module may name what its first call would import (the engine,
            # xDSL, llvmlite): done now, while the parent is still collecting.
            if callable(warm_up):
                warm_up()
        except Exception:
            pass
    conn.send(("ready",))  # the parent starts the first job's clock from here
    while True:
        try:
            payload = conn.recv_bytes()
        except EOFError:
            return 0
        try:
            job = pickle.loads(payload)
        except Exception:
            conn.send(("result", JobResult(
                "error", 70, [], "the worker process could not load the job:\n"
                + traceback.format_exc())))
            continue
        if job is None:
            return 0

        def progress(lineno: int, args: list[str]) -> None:
            conn.send(("progress", lineno, list(args)))

        result = run_with_alarm(job, progress)
        result.restart_reason = process_unusable() or ""
        conn.send(("result", result))
        sys.stdout.flush()
        sys.stderr.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
