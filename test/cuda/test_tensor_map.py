"""mgpuTensorMapEncodeTiledMemref's arguments to cuTensorMapEncodeTiled, with a stand-in driver.

What upstream's CudaRuntimeWrappers pass (facts from its source): the memref's
aligned pointer, sizes innermost first, byte strides of all but the innermost
dimension, the box reversed the same way, element strides of 1, the enums as
given; the 128-byte map (64-byte aligned) is copied to a fresh device buffer
whose address is returned.  The expected values below are worked out by hand
from a row-major 128x64 f16 memref.
"""

from __future__ import annotations

import ctypes

import pytest

from runner_core.backends.cuda import tensor_map


class FakeDriver:
    def __init__(self):
        self.calls = []

    def fn(self, name):
        def encode(tmap, dtype, rank, addr, dims, strides, box, estr, il, sw, l2, oob):
            def g(ty, p, n):
                p = p if isinstance(p, int) else ctypes.addressof(p)
                return list((ty * n).from_address(p))

            self.calls.append(("encode", dict(
                aligned64=tmap % 64 == 0, dtype=dtype, rank=rank, addr=addr,
                dims=g(ctypes.c_uint64, dims, rank), strides=g(ctypes.c_uint64, strides, rank - 1),
                box=g(ctypes.c_uint32, box, rank), estr=g(ctypes.c_uint32, estr, rank),
                enums=(il, sw, l2, oob))))
            ctypes.memset(tmap, 0xAB, tensor_map.TENSOR_MAP_BYTES)
            return 0

        def alloc(slot, size):
            self.calls.append(("alloc", size))
            slot._obj.value = 0x7000_0000
            return 0

        def copy(dst, src, size):
            self.calls.append(("copy", dst, bytes((ctypes.c_uint8 * size).from_address(src))))
            return 0

        return {"cuTensorMapEncodeTiled": encode, "cuMemAlloc": alloc, "cuMemcpyHtoD": copy}[name]


@pytest.fixture
def fake(monkeypatch):
    drv = FakeDriver()
    monkeypatch.setattr(tensor_map, "_fn", drv.fn)
    return drv


def _descriptor(aligned: int, sizes, strides):
    rank = len(sizes)
    words = (ctypes.c_int64 * (3 + 2 * rank))(0x1000, aligned, 5, *sizes, *strides)
    return words


def test_memref_extent_is_innermost_first():
    d = _descriptor(0x2000, [128, 64], [64, 1])
    addr, dims, strides = tensor_map.memref_extent(2, ctypes.addressof(d), 6)  # f16
    assert (addr, dims, strides) == (0x2000, [64, 128], [128])


def test_encode_memref_arguments_and_device_copy(fake):
    d = _descriptor(0x2000, [128, 64], [64, 1])
    box = (ctypes.c_int64 * 2)(128, 64)
    ptr = tensor_map.encode_memref(2, ctypes.addressof(d), 6, 0, 3, 0, 0, ctypes.addressof(box))
    assert ptr == 0x7000_0000
    (kind, enc), alloc, copy = fake.calls
    assert kind == "encode" and enc == dict(aligned64=True, dtype=6, rank=2, addr=0x2000,
                                           dims=[64, 128], strides=[128], box=[64, 128],
                                           estr=[1, 1], enums=(0, 3, 0, 0))
    assert alloc == ("alloc", 128)
    assert copy == ("copy", 0x7000_0000, b"\xab" * 128)


def test_encode_failure_names_the_call(fake, monkeypatch):
    monkeypatch.setattr(tensor_map, "_fn", lambda name: (lambda *a: 1))
    d = _descriptor(0x2000, [8], [1])
    box = (ctypes.c_int64 * 1)(8)
    with pytest.raises(tensor_map.TensorMapError) as err:
        tensor_map.encode_memref(1, ctypes.addressof(d), 7, 0, 0, 0, 0, ctypes.addressof(box))
    assert err.value.call == "cuTensorMapEncodeTiled" and "dims [8]" in err.value.detail
    with pytest.raises(tensor_map.TensorMapError, match="tensor rank 6"):
        tensor_map.encode_memref(6, 0, 7, 0, 0, 0, 0, 0)
