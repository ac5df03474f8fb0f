"""Small embedded tools for the plug-in's own tests (the runner is not needed to test the plug-in).

They follow runner_core.toolapi: ``tool(argv, stdin, env, cwd) -> ToolResult``.
"""

import ctypes
import os
import time

from runner_core.toolapi import ToolResult


def echo_env(argv, stdin, env, cwd):
    """Print the named environment variables (all GPURUNNER_* when none are named) and the cwd."""
    names = argv[1:] or sorted(k for k in env if k.startswith("GPURUNNER_"))
    lines = [f"{name}={env.get(name, '<unset>')}" for name in names]
    lines.append(f"cwd={cwd}")
    lines.append(f"pid={os.getpid()}")
    return ToolResult(0, ("\n".join(lines) + "\n").encode())


def fail(argv, stdin, env, cwd):
    code = int(argv[1]) if len(argv) > 1 else 1
    return ToolResult(code, b"partial output\n", f"fake-fail: failing with {code}\n".encode())


def crash(argv, stdin, env, cwd):
    ctypes.string_at(0)  # SIGSEGV


def hang(argv, stdin, env, cwd):
    while True:
        time.sleep(0.01)


def flaky(argv, stdin, env, cwd):
    """Fails until it has been called N times (argv[2]); the count lives in file argv[1]."""
    path = os.path.join(cwd, argv[1])
    count = int(open(path).read()) if os.path.exists(path) else 0
    with open(path, "w") as handle:
        handle.write(str(count + 1))
    ok = count + 1 >= int(argv[2])
    return ToolResult(0 if ok else 1, f"call {count + 1}\n".encode())


def cat(argv, stdin, env, cwd):
    return ToolResult(0, stdin)


def raise_error(argv, stdin, env, cwd):
    raise RuntimeError("a bug in the tool")


def cuda_device(argv, stdin, env, cwd):
    """Report the device this process's CUDA sees first (only meaningful on a GPU machine)."""
    from runner_core.backends.cuda import driver as cuda

    info = cuda.probe()
    if info is None:
        return ToolResult(1, b"", f"no device: {cuda.probe_reason()}\n".encode())
    text = (f"uuid={info.uuid}\nname={info.name}\nvisible={os.environ.get('CUDA_VISIBLE_DEVICES')}"
            f"\nbackend={env.get('GPURUNNER_BACKEND')}\nworker={env.get('PYTEST_XDIST_WORKER')}\n")
    return ToolResult(0, text.encode())


def poison(argv, stdin, env, cwd):
    """Fails like a sticky CUDA error would: the process must not run another test."""
    return ToolResult(1, f"pid={os.getpid()}\n".encode(), b"sticky error\n",
                      {"restart_process": True})


def mark_unusable(argv, stdin, env, cwd):
    """Marks the process unusable through runner_core.toolapi without saying so in its result."""
    from runner_core.toolapi import mark_process_unusable

    mark_process_unusable("fake sticky error")
    return ToolResult(0, f"pid={os.getpid()}\n".encode())


def sleep(argv, stdin, env, cwd):
    """Sleep argv[1] seconds, then succeed (in slices, so a timeout's alarm can interrupt it)."""
    end = time.monotonic() + float(argv[1])
    while time.monotonic() < end:
        time.sleep(0.01)
    return ToolResult(0, b"slept\n")


def noise(argv, stdin, env, cwd):
    """Write to the process's real stderr, past any capture: what lands in a worker's log."""
    os.write(2, b"noise from a tool\n")
    return ToolResult(0, b"")


def swallow(argv, stdin, env, cwd):
    """Drops every exception for argv[1] s, as a ctypes callback does, then fails ordinarily."""
    end = time.monotonic() + float(argv[1])
    while time.monotonic() < end:
        try:
            time.sleep(0.01)
        except BaseException:  # noqa: B036 - the point: the alarm's exception goes nowhere
            pass
    return ToolResult(1, b"", b"an ordinary-looking failure\n")
