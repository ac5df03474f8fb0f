"""One embedded-tool call in a fresh process: how ``not --crash`` observes a real crash.

``python -m pytest_gpurunner.isolated RESULT_FD`` reads the pickled call
``(target, argv, stdin, env, cwd)`` from stdin and writes the pickled
``(returncode, stdout, stderr)`` to the inherited descriptor RESULT_FD (a pipe).  A fresh interpreter, not
``fork()``: forking a process that has threads (xdist, the runner's thread
pools) or an initialised CUDA driver is unsafe.
"""

from __future__ import annotations

import faulthandler
import pickle
import sys


def main(argv: list[str]) -> int:
    faulthandler.enable()  # a crash leaves a Python stack on stderr, which becomes the report
    target, args, stdin, env, cwd = pickle.load(sys.stdin.buffer)
    from .tools import load_embedded

    result = load_embedded(target)(list(args), stdin, env, cwd)
    payload = (int(result.returncode), bytes(result.stdout), bytes(result.stderr))
    with open(int(argv[1]), "wb") as handle:
        pickle.dump(payload, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
