"""The 2021 typed host-registration helpers on both built-in GPU runtimes.

``mgpuMemHostRegisterFloat`` / ``mgpuMemHostRegisterInt32`` take an unranked
memref as (rank, descriptor pointer), fill it (1.23f / 123) and register it.
The cpu backend runs a real program; the cuda runtime is driven directly with a
fake driver entry point, so both are checked without a GPU.
"""

from __future__ import annotations

import ctypes
import os
import struct

import pytest

from runner_core.backends.cuda import driver as cuda
from runner_core.backends.cuda import runtime as rt
from runner_core.cli import tool_main
from runner_core.runtime import host_register_2021 as hr


def _descriptor(buf, sizes, strides, offset=0):
    """A ranked descriptor over ``buf`` (kept alive by the caller)."""
    rank = len(sizes)
    words = (ctypes.c_int64 * (3 + 2 * rank))()
    words[0] = words[1] = ctypes.addressof(buf)
    words[2] = offset
    for i, (size, stride) in enumerate(zip(sizes, strides, strict=True)):
        words[3 + i] = size
        words[3 + rank + i] = stride
    return words


def test_fill_typed_fills_the_dense_extent_from_the_offset():
    buf = (ctypes.c_float * 12)(*([-1.0] * 12))
    desc = _descriptor(buf, [2, 3], [3, 1], offset=4)
    ptr, nbytes = hr.fill_typed("mgpuMemHostRegisterFloat", 2, ctypes.addressof(desc))
    assert ptr == ctypes.addressof(buf) + 16 and nbytes == 24
    assert list(buf) == [-1.0] * 4 + [ctypes.c_float(1.23).value] * 6 + [-1.0] * 2
    ints = (ctypes.c_int32 * 37)()
    desc = _descriptor(ints, [37], [1])
    hr.fill_typed("mgpuMemHostRegisterInt32", 1, ctypes.addressof(desc))
    assert list(ints) == [123] * 37


def test_strided_memref_is_refused_untouched():
    buf = (ctypes.c_int32 * 8)()
    desc = _descriptor(buf, [4], [2])
    with pytest.raises(ValueError, match=r"mgpuMemHostRegisterInt32: only densely packed "
                                         r"memrefs can be registered \(strides \[2\]\)"):
        hr.fill_typed("mgpuMemHostRegisterInt32", 1, ctypes.addressof(desc))
    assert list(buf) == [0] * 8
    # Size-1 dimensions may have any stride (MLIR's own rule).
    desc = _descriptor(buf, [1, 4], [99, 1])
    hr.fill_typed("mgpuMemHostRegisterInt32", 2, ctypes.addressof(desc))
    assert list(buf) == [123] * 4 + [0] * 4


STRIDED = """
func.func @main() {
  %m = memref.alloc() : memref<4x4xf32>
  %s = memref.subview %m[0, 0] [4, 2] [1, 1]
      : memref<4x4xf32> to memref<4x2xf32, strided<[4, 1]>>
  %u = memref.cast %s : memref<4x2xf32, strided<[4, 1]>> to memref<*xf32>
  call @mgpuMemHostRegisterFloat(%u) : (memref<*xf32>) -> ()
  vector.print str "not reached\\n"
  return
}
func.func private @mgpuMemHostRegisterFloat(memref<*xf32>)
"""


def test_cpu_backend_refuses_a_strided_memref_and_stops_the_program():
    argv = ["gpurunner", "--entry-point-result=void", "--backend=cpu",
            "--shared-libs=mlir_cuda_runtime,mlir_c_runner_utils", "-"]
    res = tool_main(argv, STRIDED.encode(), dict(os.environ), os.getcwd())
    err = res.stderr.decode()
    assert res.returncode != 0
    assert "mgpuMemHostRegisterFloat: only densely packed memrefs" in err, err
    assert "Traceback" not in err
    assert b"not reached" not in res.stdout


@pytest.fixture
def provider(monkeypatch):
    """The cuda runtime with a fake context and a fake cuMemHostRegister."""
    p = rt.CudaRuntimeProvider()

    class Ctx:
        def make_current(self):
            pass

    p._context = Ctx()
    p.calls = []

    def fake_raw(name):
        def call(*args):
            p.calls.append((name, *args))
            return 0
        return call

    monkeypatch.setattr(cuda, "raw", fake_raw)
    return p


def test_cuda_runtime_fills_then_registers(provider):
    buf = (ctypes.c_float * 6)()
    desc = _descriptor(buf, [3, 2], [2, 1])
    provider._py_mgpuMemHostRegisterFloat(2, ctypes.addressof(desc))
    assert provider._run.errors == []
    assert provider.calls == [("cuMemHostRegister", ctypes.addressof(buf), 24, 0)]
    assert bytes(buf) == struct.pack("<f", 1.23) * 6
    ints = (ctypes.c_int32 * 3)()
    desc = _descriptor(ints, [3], [1])
    provider._py_mgpuMemHostRegisterInt32(1, ctypes.addressof(desc))
    assert list(ints) == [123] * 3
    assert provider.calls[-1] == ("cuMemHostRegister", ctypes.addressof(ints), 12, 0)


def test_cuda_runtime_reports_a_strided_memref(provider):
    buf = (ctypes.c_float * 8)()
    desc = _descriptor(buf, [4], [2])
    provider._py_mgpuMemHostRegisterFloat(1, ctypes.addressof(desc))
    assert provider.calls == []
    assert len(provider._run.errors) == 1
    msg = provider._run.errors[0]
    assert "'mgpuMemHostRegisterFloat' failed" in msg
    assert "only densely packed memrefs can be registered (strides [2])" in msg


def test_both_runtimes_export_the_helpers():
    from runner_core.backends.cpu import runtime as cpu_gpu

    for name in hr.TYPED_HELPERS:
        assert name in cpu_gpu.SYMBOLS
        assert name in rt._PY_CALLBACKS
