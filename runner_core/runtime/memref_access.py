"""Reading memref descriptors and elements from raw memory (for Python providers).

Layouts are upstream's: ``StridedMemRefType<T, N>`` is ``{T *allocated, T
*aligned, int64 offset, int64 sizes[N], int64 strides[N]}`` and
``UnrankedMemRefType<T>`` is ``{int64 rank, void *descriptor}``.
"""

from __future__ import annotations

import ctypes
import itertools
import math
import struct
from dataclasses import dataclass

from .cstdio import write_stderr


@dataclass
class MemRefView:
    rank: int
    allocated: int
    aligned: int
    offset: int
    sizes: list[int]
    strides: list[int]


def read_ranked(desc_ptr: int, rank: int) -> MemRefView:
    words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(desc_ptr)
    vals = list(words)
    return MemRefView(rank, vals[0] & 0xFFFFFFFFFFFFFFFF, vals[1] & 0xFFFFFFFFFFFFFFFF, vals[2],
                      vals[3:3 + rank], vals[3 + rank:3 + 2 * rank])


def read_unranked(unranked_ptr: int) -> MemRefView:
    rank, desc = struct.unpack("<qQ", ctypes.string_at(unranked_ptr, 16))
    return read_ranked(desc, rank)


def iter_indices(sizes: list[int]):
    return itertools.product(*(range(s) for s in sizes))


# element kinds: struct format, byte size
KINDS = {
    "I8": ("b", 1), "I16": ("h", 2), "I32": ("i", 4), "I64": ("q", 8), "Ind": ("Q", 8),
    "F16": ("e", 2), "BF16": ("H", 2), "F32": ("f", 4), "F64": ("d", 8),
    "C32": ("ff", 8), "C64": ("dd", 16),
}


def read_element(kind: str, addr: int):
    fmt, size = KINDS[kind]
    raw = ctypes.string_at(addr, size)
    if kind == "BF16":
        (bits,) = struct.unpack("<H", raw)
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    vals = struct.unpack("<" + fmt, raw)
    return vals if len(vals) == 2 else vals[0]


def format_float(v: float) -> str:
    """Like C++ ``ostream << double`` with default flags (printf ``%g``), glibc spelling."""
    if math.isnan(v):
        return "-nan" if math.copysign(1.0, v) < 0 else "nan"
    return f"{v:g}"


def format_element(kind: str, v) -> bytes:
    if kind == "I8":
        return bytes([v & 0xFF])
    if kind in ("F16", "BF16", "F32", "F64"):
        return format_float(v).encode()
    if kind in ("C32", "C64"):
        return f"({format_float(v[0])},{format_float(v[1])})".encode()
    return str(v).encode()


def report_internal_error(where: str, err: BaseException) -> None:
    write_stderr(f"gpurunner: internal error in built-in {where}: {err!r}\n".encode())
