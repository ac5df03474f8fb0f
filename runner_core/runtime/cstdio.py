"""C's stdio from Python: the one channel program output may take (contract 2).

JIT code and real runtime libraries write to C's ``FILE *stdout``; built-in
providers must append to the same buffer or output would interleave wrongly.
"""

from __future__ import annotations

import ctypes
import ctypes.util

_libc = ctypes.CDLL(None, use_errno=True)

_libc.fwrite.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p]
_libc.fwrite.restype = ctypes.c_size_t
_libc.fflush.argtypes = [ctypes.c_void_p]
_libc.fflush.restype = ctypes.c_int

_stdout_var = ctypes.c_void_p.in_dll(_libc, "stdout")
_stderr_var = ctypes.c_void_p.in_dll(_libc, "stderr")


def libc() -> ctypes.CDLL:
    return _libc


def write_stdout(data: bytes) -> None:
    """Append bytes to C's stdout buffer."""
    if data:
        _libc.fwrite(data, 1, len(data), _stdout_var.value)


def write_stderr(data: bytes) -> None:
    if data:
        _libc.fwrite(data, 1, len(data), _stderr_var.value)


def flush_all() -> None:
    """``fflush(NULL)``: push every C stream's buffer to its file descriptor."""
    _libc.fflush(None)


def symbol_address(name: str) -> int | None:
    """Address of a libc symbol (function or variable) in this process."""
    try:
        return ctypes.cast(getattr(_libc, name), ctypes.c_void_p).value
    except AttributeError:
        return None
