"""gpu.host_register from an async.execute body: the driver call gets a current context.

Found on the H200 (bench/results/suite-gpu-2026-11-30.md): a program that calls
gpu.host_register inside an async.execute body (integration_test/legacy/
async_gpu_2021.mlir) failed with CUDA_ERROR_INVALID_CONTEXT, because the body
runs on a worker thread of the async runtime, which starts with no current
context, and mgpuMemHostRegister (written in Python, unlike the IR entry points
that call ensure_ctx) went to the driver without making the run's context
current.  Checked here without a GPU: a fake context records on which threads
it was made current, a fake driver entry point on which thread it was called.
"""

from __future__ import annotations

import ctypes
import threading

import pytest

from runner_core.backends.cuda import driver as cuda
from runner_core.backends.cuda import runtime as rt


class FakeContext:
    def __init__(self):
        self.current = threading.local()

    def make_current(self):
        self.current.yes = True

    def is_current(self) -> bool:
        return getattr(self.current, "yes", False)


@pytest.mark.parametrize("entry", ["register", "unregister"])
def test_host_register_on_a_thread_without_context(monkeypatch, entry):
    provider = rt.CudaRuntimeProvider()
    ctx = FakeContext()
    provider._context = ctx
    seen = []

    def fake_raw(name):
        def call(*args):
            seen.append((name, ctx.is_current()))
            return 0 if ctx.is_current() else 201  # CUDA_ERROR_INVALID_CONTEXT
        return call

    monkeypatch.setattr(cuda, "raw", fake_raw)
    buf = ctypes.create_string_buffer(64)
    ptr = ctypes.addressof(buf)

    def body():  # what an async.execute body's thread does
        if entry == "register":
            provider._py_mgpuMemHostRegister(ptr, 64)
        else:
            provider._py_mgpuMemHostUnregister(ptr)

    worker = threading.Thread(target=body)
    worker.start()
    worker.join()
    name = "cuMemHostRegister" if entry == "register" else "cuMemHostUnregister"
    assert seen == [(name, True)]
    assert provider._run.errors == []
    assert (ptr in provider._run.registered) == (entry == "register")
