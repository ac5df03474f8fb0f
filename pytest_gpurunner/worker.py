"""Entry point of the persistent worker process (``python -m pytest_gpurunner.worker``).

Reads jobs from one inherited pipe, runs each with the shell, answers on the
other pipe.  It is deliberately dumb: all policy (timeouts, restarts, what a
crash means) lives in the parent's ``WorkerExecutor``.
"""

from __future__ import annotations

import faulthandler
import importlib
import pickle
import sys
import traceback


def main(argv: list[str]) -> int:
    from .executor import _HEADER, _read_exact, run_with_alarm, write_message
    from .job import JobResult

    job_fd, result_fd = int(argv[1]), int(argv[2])
    # A fatal signal then leaves a Python stack in the log, which the parent shows.
    faulthandler.enable()
    for module in argv[3:]:
        try:  # warm imports; a failure surfaces later, in the test that needs the module
            importlib.import_module(module)
        except Exception:
            pass
    while True:
        try:
            (size,) = _HEADER.unpack(_read_exact(job_fd, _HEADER.size, None))
            payload = _read_exact(job_fd, size, None)
        except EOFError:
            return 0
        try:
            job = pickle.loads(payload)
        except Exception:
            write_message(result_fd, ("result", JobResult(
                "error", 70, [], "the worker process could not load the job:\n"
                + traceback.format_exc())))
            continue
        if job is None:
            return 0

        def progress(lineno: int, args: list[str]) -> None:
            write_message(result_fd, ("progress", lineno, list(args)))

        result = run_with_alarm(job, progress)
        result.restart_reason = _unusable() or ""
        write_message(result_fd, ("result", result))
        sys.stdout.flush()
        sys.stderr.flush()


def _unusable() -> str | None:
    """Whether a tool marked this process unusable (a sticky CUDA error, say)."""
    from runner_core.toolapi import process_unusable

    return process_unusable()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
