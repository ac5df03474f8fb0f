"""Built-in ``mlir_runner_utils``: printMemref*, verifyMemRef* and friends.

Output matches the real library byte for byte (checked by
``test/engine/test_differential.py`` against Debian's
``libmlir_runner_utils.so``): the metadata header, the bracket/spacing rules
of its recursive printer (including its habit of printing the first element
of an empty dimension), ``i8`` elements as characters, floats as
``ostream <<`` prints them, and verifyMemRef's tolerances and messages on
stderr.  Everything is written through C stdio (contract 2).

The 2021 names of the seed (``print_memref_i32`` ...) are mapped onto these by
the engine's symbol resolution, for real libraries as well.
"""

from __future__ import annotations

import ctypes
import math
import struct

from . import apfloat_wrappers, float16_utils
from . import memref_access as ma
from .cstdio import write_stderr, write_stdout
from .provider import Provider, c_callback

_KINDS = ("I8", "I16", "I32", "I64", "F16", "BF16", "F32", "F64", "Ind", "C32", "C64")

_UNRANKED_T = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_void_p)
_CIFACE_T = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_VERIFY_T = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p)
_CIFACE_VERIFY_T = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p)
_NANO_T = ctypes.CFUNCTYPE(ctypes.c_int64)


def _ptr_text(p: int) -> str:
    return hex(p) if p else "0"


def metadata(m: ma.MemRefView) -> str:
    sizes = ", ".join(str(s) for s in m.sizes)
    strides = ", ".join(str(s) for s in m.strides)
    return (f"base@ = {_ptr_text(m.aligned)} rank = {m.rank} offset = {m.offset} "
            f"sizes = [{sizes}] strides = [{strides}]")


def format_data(kind: str, m: ma.MemRefView, element=None) -> bytes:
    """The data part of printMemref (without the header line); ``element(offset)``
    formats one element where it is not a scalar of ``kind`` (a Vector2D)."""
    _, esize = ma.KINDS[kind]
    out: list[bytes] = []

    def elem(off: int) -> None:
        if element is not None:
            out.append(element(off))
            return
        out.append(ma.format_element(kind, ma.read_element(kind, m.aligned + off * esize)))

    rank = m.rank

    def rec(dim: int, offset: int, sizes: list[int], strides: list[int]) -> None:
        if dim == 0:
            elem(offset)
            return
        sep = b", \n" if dim > 1 else b", "
        pad = b" " * (rank - dim + 1)
        out.append(b"[")
        rec(dim - 1, offset, sizes[1:], strides[1:])
        if sizes[0] <= 1:
            out.append(b"]")
            return
        out.append(sep)
        for i in range(1, sizes[0] - 1):
            out.append(pad)
            rec(dim - 1, offset + i * strides[0], sizes[1:], strides[1:])
            out.append(sep)
        out.append(pad)
        rec(dim - 1, offset + (sizes[0] - 1) * strides[0], sizes[1:], strides[1:])
        out.append(b"]")

    if m.aligned == 0:
        return b"[]"  # nothing to read; the real library would crash here
    if rank == 0:
        out.append(b"[")
        elem(m.offset)
        out.append(b"]")
    else:
        rec(rank, m.offset, m.sizes, m.strides)
    return b"".join(out)


def print_memref(kind: str, m: ma.MemRefView, prefix: str = "Unranked Memref ") -> None:
    text = (prefix + metadata(m) + " data = \n").encode() + format_data(kind, m) + b"\n"
    write_stdout(text)


def _guard(name, fn):
    return c_callback(fn, lambda err: ma.report_internal_error(name, err))


def _rel_ok(actual: float, expected: float, eps: float) -> bool:
    if not (math.isfinite(actual) and math.isfinite(expected)):
        return False
    return abs(actual - expected) <= eps * abs(expected)


def _f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


_EPS_F32 = _f32(1e-6)


def _verify_elem(kind: str, a, e) -> bool:
    if kind == "F32":
        # Evaluated in float arithmetic as the C++ template is: each step rounded.
        if not (math.isfinite(a) and math.isfinite(e)):
            return False
        return _f32(abs(_f32(a - e))) <= _f32(_EPS_F32 * abs(e))
    if kind == "F64":
        return _rel_ok(a, e, 1e-12)
    return a == e


def verify(kind: str, actual: ma.MemRefView, expected: ma.MemRefView) -> int:
    if (actual.offset != expected.offset or actual.sizes != expected.sizes
            or actual.strides != expected.strides):
        write_stderr((metadata(actual) + metadata(expected)).encode())
        return -1
    _, esize = ma.KINDS[kind]
    errors = 0
    printed = 0
    for idx in ma.iter_indices(actual.sizes) if actual.rank else [()]:
        off = actual.offset + sum(i * s for i, s in zip(idx, actual.strides, strict=True))
        a = ma.read_element(kind, actual.aligned + off * esize)
        e = ma.read_element(kind, expected.aligned + off * esize)
        if kind in ("F16", "BF16"):
            # The half types compare their bit patterns (NaN == NaN, 0 != -0).
            same = (ctypes.string_at(actual.aligned + off * esize, esize)
                    == ctypes.string_at(expected.aligned + off * esize, esize))
        else:
            same = _verify_elem(kind, a, e)
        if not same:
            if printed < 10:
                write_stderr(ma.format_element(kind, a) + b" != " + ma.format_element(kind, e)
                             + f" offset = {off}\n".encode())
                printed += 1
            errors += 1
    return errors


class RunnerUtils(Provider):
    name = "mlir_runner_utils"
    aliases = ("runner_utils",)

    def build_symbols(self):
        self._callbacks = []
        syms: dict[str, int] = {}

        def add(name, cb):
            self._callbacks.append(cb)
            syms[name] = ctypes.cast(cb, ctypes.c_void_p).value

        for kind in _KINDS:
            def unranked(rank, ptr, kind=kind):
                print_memref(kind, ma.read_ranked(ptr, rank))

            def ciface(uptr, kind=kind):
                print_memref(kind, ma.read_unranked(uptr))

            def shape(uptr, kind=kind):
                write_stdout(("Unranked Memref " + metadata(ma.read_unranked(uptr)) + "\n")
                             .encode())

            def ver(rank, a, e, kind=kind):
                return verify(kind, ma.read_ranked(a, rank), ma.read_ranked(e, rank))

            def ciface_ver(a, e, kind=kind):
                return verify(kind, ma.read_unranked(a), ma.read_unranked(e))

            add(f"printMemref{kind}", _UNRANKED_T(_guard(f"printMemref{kind}", unranked)))
            add(f"_mlir_ciface_printMemref{kind}",
                _CIFACE_T(_guard(f"printMemref{kind}", ciface)))
            add(f"_mlir_ciface_printMemrefShape{kind}",
                _CIFACE_T(_guard(f"printMemrefShape{kind}", shape)))
            add(f"verifyMemRef{kind}", _VERIFY_T(_guard(f"verifyMemRef{kind}", ver)))
            add(f"_mlir_ciface_verifyMemRef{kind}",
                _CIFACE_VERIFY_T(_guard(f"verifyMemRef{kind}", ciface_ver)))
        # Ranked entry points with a fixed rank (StridedMemRefType<T, N> *).
        for name, kind, rank in [("0dF32", "F32", 0), ("1dF32", "F32", 1), ("2dF32", "F32", 2),
                                 ("3dF32", "F32", 3), ("4dF32", "F32", 4), ("1dF64", "F64", 1),
                                 ("1dI8", "I8", 1), ("1dI32", "I32", 1), ("1dI64", "I64", 1),
                                 ("1dInd", "Ind", 1), ("1dC32", "C32", 1), ("1dC64", "C64", 1)]:
            def ranked(dptr, kind=kind, rank=rank):
                print_memref(kind, ma.read_ranked(dptr, rank), prefix="Memref ")

            add(f"_mlir_ciface_printMemref{name}", _CIFACE_T(_guard(f"printMemref{name}",
                                                                      ranked)))

        def vec4x4(dptr):
            # StridedMemRefType<Vector2D<4, 4, float>, 2>: a rank-2 memref of 4x4 vectors.
            m = ma.read_ranked(dptr, 2)
            head = ("Memref " + metadata(m) + " data = \n").encode()
            write_stdout(head + format_data("F32", m, lambda off: _vector4x4(m, off)) + b"\n")

        add("_mlir_ciface_printMemrefVector4x4xf32", _CIFACE_T(_guard("printMemrefVector", vec4x4)))

        syms.update(float16_utils.symbols())  # libmlir_float16_utils.so comes with it
        syms.update(apfloat_wrappers.symbols())  # so does libmlir_apfloat_wrappers.so

        import time

        add("_mlir_ciface_nanoTime", _NANO_T(_guard("nanoTime", time.monotonic_ns)))
        return syms


def _vector4x4(m: ma.MemRefView, offset: int) -> bytes:
    """One Vector2D<4, 4, float> as RunnerUtils' VectorDataPrinter writes it: the inner
    vectors joined by ", ", padded by 2 spaces (middle ones) or 1 (the last)."""
    base = m.aligned + offset * 64
    rows = []
    for r in range(4):
        vals = [ma.format_float(ma.read_element("F32", base + (r * 4 + c) * 4)) for c in range(4)]
        rows.append("(" + ", ".join(vals) + ")")
    return ("(" + rows[0] + ", " + "  " + rows[1] + ", " + "  " + rows[2] + ", " + " " + rows[3]
            + ")").encode()


PROVIDER = RunnerUtils()
