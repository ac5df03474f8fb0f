"""A fake CUDA driver for the cuda runtime's LLVM IR, so its hot paths run without a GPU.

The runtime's ``mgpu*`` functions call driver entry points by address; here
those addresses are ctypes callbacks that record their arguments.  Shared by
``test_runtime_fake_driver.py`` and ``test/plugin/test_repeat_seams.py`` (which
puts this folder on ``sys.path``).
"""

from __future__ import annotations

import ctypes
import threading

from runner_core.backends.cuda import driver as cuda
from runner_core.backends.cuda import runtime as rt

P = ctypes.c_void_p
I32, I64 = ctypes.c_int32, ctypes.c_int64
FAKE_CTX = 0xC0C0


class FakeDriver:
    """Driver entry points as Python callbacks; ``fail`` maps a name to a CUresult."""

    SIGS = {
        "cuCtxGetCurrent": (P,), "cuCtxSetCurrent": (P,),
        "cuModuleGetFunction": (P, P, ctypes.c_char_p),
        "cuLaunchKernel": (P, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                           ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, P, P, P),
        "cuFuncSetAttribute": (P, ctypes.c_int, ctypes.c_int),
        "cuLaunchKernelEx": (P, P, P, P),
        "cuStreamCreate": (P, ctypes.c_uint), "cuStreamDestroy": (P,),
        "cuStreamSynchronize": (P,), "cuStreamWaitEvent": (P, P, ctypes.c_uint),
        "cuEventCreate": (P, ctypes.c_uint), "cuEventDestroy": (P,),
        "cuEventSynchronize": (P,), "cuEventRecord": (P, P),
        "cuMemAlloc": (P, ctypes.c_size_t), "cuMemAllocManaged": (P, ctypes.c_size_t,
                                                                    ctypes.c_uint),
        "cuMemFree": (P,), "cuMemcpyAsync": (P, P, ctypes.c_size_t, P),
        "cuMemsetD32Async": (P, ctypes.c_uint, ctypes.c_size_t, P),
        "cuMemsetD16Async": (P, ctypes.c_uint, ctypes.c_size_t, P),
    }

    def __init__(self):
        self.calls: list[tuple] = []
        self.fail: dict[str, int] = {}
        self.local = threading.local()
        self._cbs = {}
        for name, argtypes in self.SIGS.items():
            cb = ctypes.CFUNCTYPE(ctypes.c_int, *argtypes)(self._make(name))
            self._cbs[name] = cb

    def address(self, name: str) -> int:
        return ctypes.cast(self._cbs[name], ctypes.c_void_p).value

    def _make(self, name):
        def fn(*args):
            if name == "cuLaunchKernelEx":  # the config lives on the caller's stack
                args = (decode_launch_config(args[0]), *args[1:])
            self.calls.append((name, *args))
            if name == "cuCtxGetCurrent":
                ctypes.c_void_p.from_address(args[0]).value = getattr(self.local, "ctx", None)
            elif name == "cuCtxSetCurrent":
                self.local.ctx = args[0]
            elif name in ("cuStreamCreate", "cuEventCreate", "cuMemAlloc", "cuMemAllocManaged",
                          "cuModuleGetFunction"):
                ctypes.c_void_p.from_address(args[0]).value = 0x5000 + len(self.calls)
            return self.fail.get(name, 0)

        return fn

    def named(self, name):
        return [c for c in self.calls if c[0] == name]


class _Attr(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint), ("pad", ctypes.c_char * 4), ("value", ctypes.c_uint * 16)]


class _Config(ctypes.Structure):
    """CUlaunchConfig as cuda.h (CUDA 12) lays it out."""
    _fields_ = [("dims", ctypes.c_uint * 6), ("smem", ctypes.c_uint), ("stream", P),
                ("attrs", ctypes.POINTER(_Attr)), ("count", ctypes.c_uint)]


def decode_launch_config(addr: int) -> dict:
    cfg = _Config.from_address(addr)
    attrs = {cfg.attrs[i].id: tuple(cfg.attrs[i].value[:3]) for i in range(cfg.count)}
    return {"grid": tuple(cfg.dims[:3]), "block": tuple(cfg.dims[3:]), "smem": cfg.smem,
            "stream": cfg.stream, "attrs": attrs}


def fake_runtime(monkeypatch, drv: FakeDriver):
    """A cuda runtime provider whose driver is ``drv``, its context current and errors
    recorded rather than unwound; returns it and its ``mgpu*`` functions by short name."""
    monkeypatch.setattr(cuda, "driver_function", drv.address)
    provider = rt.CudaRuntimeProvider()
    syms = provider.symbols()
    provider._ctx_slot.value = FAKE_CTX
    provider._run = rt._RunState(thread=-1)  # no unwinding: errors are recorded
    fns = {
        "launch": ctypes.CFUNCTYPE(None, P, I64, I64, I64, I64, I64, I64, I32, P, P, P, I64)(
            syms["mgpuLaunchKernel"]),
        "cluster": ctypes.CFUNCTYPE(None, P, *([I64] * 9), I32, P, P, P, I64)(
            syms["mgpuLaunchClusterKernel"]),
        "alloc": ctypes.CFUNCTYPE(P, I64, P, ctypes.c_int8)(syms["mgpuMemAlloc"]),
        "free": ctypes.CFUNCTYPE(None, P, P)(syms["mgpuMemFree"]),
        "memcpy": ctypes.CFUNCTYPE(None, P, P, I64, P)(syms["mgpuMemcpy"]),
        "memset16": ctypes.CFUNCTYPE(None, P, ctypes.c_int16, I64, P)(syms["mgpuMemset16"]),
        "memset32": ctypes.CFUNCTYPE(None, P, I32, I64, P)(syms["mgpuMemset32"]),
        "stream": ctypes.CFUNCTYPE(P)(syms["mgpuStreamCreate"]),
        "sync": ctypes.CFUNCTYPE(None, P)(syms["mgpuStreamSynchronize"]),
        "destroy": ctypes.CFUNCTYPE(None, P)(syms["mgpuStreamDestroy"]),
        "event": ctypes.CFUNCTYPE(P)(syms["mgpuEventCreate"]),
        "event_sync": ctypes.CFUNCTYPE(None, P)(syms["mgpuEventSynchronize"]),
        "event_destroy": ctypes.CFUNCTYPE(None, P)(syms["mgpuEventDestroy"]),
        "record": ctypes.CFUNCTYPE(None, P, P)(syms["mgpuEventRecord"]),
        "wait": ctypes.CFUNCTYPE(None, P, P)(syms["mgpuStreamWaitEvent"]),
        "getfn": ctypes.CFUNCTYPE(P, P, ctypes.c_char_p)(syms["mgpuModuleGetFunction"]),
    }
    return provider, fns
