"""Built-in ``mlir_float16_utils``: ``printF16`` / ``printBF16``.

``vector.print`` of ``f16`` / ``bf16`` lowers to these (the value's bits as an
``i16``).  Upstream they live in ``libmlir_float16_utils.so``, which both
``libmlir_c_runner_utils.so`` and ``libmlir_runner_utils.so`` load (a
``DT_NEEDED`` of each), so a program linked with either finds them: the two
built-in providers include these symbols for the same reason.  The value is
printed as the real library prints it (``std::ostream << float``).
"""

from __future__ import annotations

import ctypes
import struct

from . import memref_access as ma
from .cstdio import write_stdout
from .provider import Provider, c_callback

_F16_T = ctypes.CFUNCTYPE(None, ctypes.c_uint16)


def half_to_float(bits: int, bf16: bool) -> float:
    if bf16:
        return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0]
    return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]


def _printer(name: str, bf16: bool):
    def fn(bits: int) -> None:
        write_stdout(ma.format_float(half_to_float(bits, bf16)).encode())

    return _F16_T(c_callback(fn, lambda err: ma.report_internal_error(name, err)))


_CALLBACKS = {"printF16": _printer("printF16", False), "printBF16": _printer("printBF16", True)}


def symbols() -> dict[str, int]:
    """{name: address} of the library's functions (callbacks live as long as the module)."""
    return {n: ctypes.cast(cb, ctypes.c_void_p).value for n, cb in _CALLBACKS.items()}


class Float16Utils(Provider):
    name = "mlir_float16_utils"
    aliases = ("float16_utils",)

    def build_symbols(self):
        return symbols()


PROVIDER = Float16Utils()
