"""Host registration of memrefs, shared by the built-in GPU runtimes of every backend.

``gpu.host_register`` lowers to ``mgpuMemHostRegisterMemRef(rank, descriptor,
element bytes)``: register the dense extent of a ranked descriptor.  Before
that op existed (2020, still in tests written in 2021's syntax), programs
called the CUDA runtime wrappers' typed helpers themselves with an unranked
memref, which the calling convention passes as ``(int64 rank, descriptor *)``:

* ``mgpuMemHostRegisterFloat(memref<*xf32>)`` fills the memref with ``1.23f``
  and registers it;
* ``mgpuMemHostRegisterInt32(memref<*xi32>)`` fills it with ``123`` and
  registers it.

The fill is part of the contract, not a side effect: the wrappers had no
transfer functions yet, and upstream tests of the time check for the values
(``[1.23, 1.23, ...]``).  Both helpers assert a densely packed memref; here a
strided one is refused by name rather than half filled.
"""

from __future__ import annotations

import ctypes

# symbol -> (element type, value the wrappers filled in)
TYPED_HELPERS: dict[str, tuple[type[ctypes._SimpleCData], float | int]] = {
    "mgpuMemHostRegisterFloat": (ctypes.c_float, 1.23),
    "mgpuMemHostRegisterInt32": (ctypes.c_int32, 123),
}
# Index of each helper, for runtimes whose IR passes a kind number.
HELPER_KINDS: tuple[str, ...] = tuple(TYPED_HELPERS)


def dense_extent(rank: int, desc: int, elem: int) -> tuple[int, int, str]:
    """(first byte, byte count, problem) of a ranked descriptor's dense extent.

    ``problem`` is empty when the memref is densely packed in row-major order
    (dimensions of size 1 may have any stride, as in MLIR's own check).
    """
    if rank < 0:
        return 0, 0, f"invalid memref rank {rank}"
    words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(desc)
    aligned, offset = words[1], words[2]
    sizes = list(words[3:3 + rank])
    strides = list(words[3 + rank:3 + 2 * rank])
    count = 1
    for s in sizes:
        count *= s
    dense, acc = [], 1
    for s in reversed(sizes):
        dense.append(acc)
        acc *= s
    dense.reverse()
    problem = ""
    if count and any(sz != 1 and st != d for sz, st, d in zip(sizes, strides, dense,
                                                              strict=True)):
        problem = f"only densely packed memrefs can be registered (strides {strides})"
    return (aligned or 0) + offset * elem, count * elem, problem


def fill(ptr: int, ctype: type[ctypes._SimpleCData], value: float | int, count: int) -> None:
    """Store ``value`` in ``count`` consecutive elements at ``ptr`` (doubling copies)."""
    if count <= 0:
        return
    size = ctypes.sizeof(ctype)
    ctype.from_address(ptr).value = value
    done = 1
    while done < count:
        step = min(done, count - done)
        ctypes.memmove(ptr + done * size, ptr, step * size)
        done += step


def fill_typed(symbol: str, rank: int, desc: int) -> tuple[int, int]:
    """Do what the 2021 helper ``symbol`` does before registering: check and fill.

    Returns the (first byte, byte count) to register; raises ``ValueError``
    with the reason when the memref cannot be registered.
    """
    ctype, value = TYPED_HELPERS[symbol]
    size = ctypes.sizeof(ctype)
    if not desc:
        raise ValueError(f"{symbol}: null memref descriptor")
    ptr, nbytes, problem = dense_extent(rank, desc, size)
    if problem:
        raise ValueError(f"{symbol}: {problem}")
    if nbytes and not ptr:
        raise ValueError(f"{symbol}: memref of {nbytes // size} elements has no data")
    fill(ptr, ctype, value, nbytes // size)
    return ptr, nbytes
