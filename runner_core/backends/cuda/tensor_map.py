"""TMA tensor maps for the cuda runtime: upstream's `mgpuTensorMapEncodeTiled*` entry points.

`nvgpu.tma.create.descriptor` lowers (ours and `mlir-opt` 22's alike) to

    void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *rankedDescriptor,
        int64_t dataType, int64_t interleave, int64_t swizzle, int64_t l2promo,
        int64_t oobFill, int64_t *boxDims)

which, as upstream's CudaRuntimeWrappers do, reads the memref's aligned
pointer, sizes and strides (innermost first for the driver: dims reversed,
byte strides of all but the innermost), reverses the box the same way, calls
`cuTensorMapEncodeTiled` (element strides 1) and returns a device copy of the
128-byte CUtensorMap (kernels take it as a pointer argument).  `mgpuTensorMapEncodeTiled` (the raw form upstream also
exports) is here too.  Failures are reported like the other runtime calls.
"""

from __future__ import annotations

import ctypes

from . import driver

TENSOR_MAP_BYTES = 128
# Bytes per element of each CUtensorMapDataType (upstream's table).
ELEMENT_BYTES = (1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4)
MAX_RANK = 5

_PROTOS = {
    "cuTensorMapEncodeTiled": (ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32, ctypes.c_void_p,
                               ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                               ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                               ctypes.c_int),
    "cuMemAlloc": (ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t),
    "cuMemcpyHtoD": (ctypes.c_uint64, ctypes.c_void_p, ctypes.c_size_t),
}
_fns: dict[str, object] = {}


def _fn(name: str):
    fn = _fns.get(name)
    if fn is None:
        fn = _fns[name] = ctypes.CFUNCTYPE(ctypes.c_int, *_PROTOS[name])(
            driver.driver_function(name))
    return fn


class TensorMapError(Exception):
    """A driver call failed: (code, call, detail)."""

    def __init__(self, code: int, call: str, detail: str):
        super().__init__(detail)
        self.code, self.call, self.detail = code, call, detail


def memref_extent(rank: int, desc: int, dtype: int) -> tuple[int, list[int], list[int]]:
    """(aligned pointer, dims innermost first, byte strides of dims 1..rank-1) of a ranked
    descriptor `{ptr, ptr, i64 offset, i64 sizes[rank], i64 strides[rank]}` in memory."""
    words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(desc)
    aligned = words[1] & 0xFFFFFFFFFFFFFFFF
    sizes = list(words[3:3 + rank])
    strides = list(words[3 + rank:3 + 2 * rank])
    elem = ELEMENT_BYTES[dtype] if 0 <= dtype < len(ELEMENT_BYTES) else 1
    dims = [sizes[rank - i - 1] for i in range(rank)]
    byte_strides = [strides[rank - i - 2] * elem for i in range(rank - 1)]
    return aligned, dims, byte_strides


def encode_tiled(tmap: int, dtype: int, rank: int, address: int, dims, strides, box,
                 element_strides, interleave: int, swizzle: int, l2promo: int, oob: int) -> None:
    """`cuTensorMapEncodeTiled` into the 128 bytes at `tmap`; raises TensorMapError."""
    g_dim = (ctypes.c_uint64 * MAX_RANK)(*[int(d) for d in dims])
    g_str = (ctypes.c_uint64 * MAX_RANK)(*[int(s) for s in strides])
    b_dim = (ctypes.c_uint32 * MAX_RANK)(*[int(b) & 0xFFFFFFFF for b in box])
    e_str = (ctypes.c_uint32 * MAX_RANK)(*[int(e) for e in element_strides])
    code = _fn("cuTensorMapEncodeTiled")(tmap, dtype, rank, address, g_dim, g_str, b_dim,
                                         e_str, interleave, swizzle, l2promo, oob)
    if code:
        raise TensorMapError(code, "cuTensorMapEncodeTiled", (
            f"data type {dtype}, rank {rank}, address {address:#x}, dims {list(dims)}, byte "
            f"strides {list(strides)}, box {list(box)}, interleave {interleave}, swizzle "
            f"{swizzle}, l2 promotion {l2promo}, oob fill {oob}"))


def encode_memref(rank: int, desc: int, dtype: int, interleave: int, swizzle: int,
                  l2promo: int, oob: int, box_ptr: int) -> int:
    """upstream's mgpuTensorMapEncodeTiledMemref: the device address of a new CUtensorMap."""
    if not 1 <= rank <= MAX_RANK:
        raise TensorMapError(1, "mgpuTensorMapEncodeTiledMemref",
                             f"tensor rank {rank} (TMA supports 1 to {MAX_RANK})")
    address, dims, strides = memref_extent(rank, desc, dtype)
    boxes = (ctypes.c_int64 * rank).from_address(box_ptr)
    box = [boxes[rank - r - 1] for r in range(rank)]
    # CUtensorMap is 64-byte aligned (the driver checks): align inside a larger buffer.
    buf = (ctypes.c_uint8 * (TENSOR_MAP_BYTES + 64))()
    host = (ctypes.addressof(buf) + 63) & ~63
    encode_tiled(host, dtype, rank, address, dims, strides, box,
                 [1] * rank, interleave, swizzle, l2promo, oob)
    dev = ctypes.c_uint64()
    code = _fn("cuMemAlloc")(ctypes.byref(dev), TENSOR_MAP_BYTES)
    if code:
        raise TensorMapError(code, "cuMemAlloc", f"{TENSOR_MAP_BYTES} bytes for a tensor map")
    code = _fn("cuMemcpyHtoD")(dev.value, host, TENSOR_MAP_BYTES)
    if code:
        raise TensorMapError(code, "cuMemcpyHtoD", "copying a tensor map to the device")
    return dev.value
