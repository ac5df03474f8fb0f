"""Built-in ``mlir_apfloat_wrappers``: the ``_mlir_apfloat_*`` functions and ``printApFloat``.

``convert-arith-to-apfloat`` (MLIR 22) makes arithmetic on float formats LLVM
has no type for into calls ``_mlir_apfloat_add(i32 semantics, i64 a, i64 b) ->
i64`` (bits in, bits out); ``vector.print`` of such a value calls
``printApFloat(i32 semantics, i64 bits)``, which prints the value converted to
double as ``std::ostream`` does, without a newline.  Upstream they live in
``libmlir_apfloat_wrappers.so``, a ``DT_NEEDED`` of both ``libmlir_c_runner_utils.so``
and ``libmlir_runner_utils.so``, so a program given either finds them (mlir-runner 22
resolves through a library's dependencies): both providers include these symbols.  The arithmetic is :mod:`runner_core.ir.apfloat` (exact, rounded
once to nearest even).  A semantics id this module does not model is reported
as an internal error of the run, never a made-up value.
"""

from __future__ import annotations

import ctypes

from runner_core.ir import apfloat as ap

from . import memref_access as ma
from .cstdio import write_stdout
from .provider import c_callback

_BIN_T = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int32, ctypes.c_uint64, ctypes.c_uint64)
_UN_T = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int32, ctypes.c_uint64)
_PRINT_T = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_uint64)
BINARY = ("add", "subtract", "multiply", "divide", "remainder")


def _format(sem: int) -> ap.Format:
    f = ap.BY_ID.get(sem)
    if f is None:
        raise ValueError(f"APFloat semantics {sem} is not modelled by the embedded runner")
    return f


def _binary(op: str):
    def fn(sem: int, a: int, b: int) -> int:
        return ap.binary(op, _format(sem), a, b)

    name = f"_mlir_apfloat_{op}"
    return _BIN_T(c_callback(fn, lambda err: ma.report_internal_error(name, err)))


def _neg(sem: int, a: int) -> int:
    f = _format(sem)
    neg, v = ap.decode(f, a)
    if f.kind == "fnuz" and (v == 0 or v == ap.NAN):
        return a & ((1 << f.bits) - 1)
    return a ^ (1 << (f.bits - 1))


def _print(sem: int, bits: int) -> None:
    write_stdout(ma.format_float(ap.to_double(_format(sem), bits)).encode())


_CALLBACKS = {f"_mlir_apfloat_{op}": _binary(op) for op in BINARY}
_CALLBACKS["_mlir_apfloat_neg"] = _UN_T(c_callback(
    _neg, lambda err: ma.report_internal_error("_mlir_apfloat_neg", err)))
_CALLBACKS["printApFloat"] = _PRINT_T(c_callback(
    _print, lambda err: ma.report_internal_error("printApFloat", err)))


def symbols() -> dict[str, int]:
    """{name: address} of the library's functions (callbacks live as long as the module)."""
    return {n: ctypes.cast(cb, ctypes.c_void_p).value for n, cb in _CALLBACKS.items()}
