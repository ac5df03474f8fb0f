"""The cuda runtime's IR hot paths against a fake driver (runs without a GPU).

The ``mgpu*`` functions are LLVM IR calling driver entry points by address.
Here those addresses are ctypes callbacks that record their arguments, so
the argument marshalling (dimension truncation, flags, stream and context
handling) and the error path (report, then unwind or continue) are checked
on any machine.  The same functions run against the real driver in
``test_cuda_device.py``.
"""

from __future__ import annotations

import ctypes
import threading

import pytest
from fake_driver import FAKE_CTX, FakeDriver, fake_runtime

from runner_core.backends.cuda import driver as cuda
from runner_core.backends.cuda import image
from runner_core.backends.cuda import runtime as rt
from runner_core.errors import ExecutionError


@pytest.fixture
def fake(monkeypatch):
    drv = FakeDriver()
    provider, fns = fake_runtime(monkeypatch, drv)
    return drv, provider, fns


def test_launch_passes_dimensions_stream_and_params(fake):
    drv, _provider, f = fake
    params = (ctypes.c_void_p * 2)(1, 2)
    f["launch"](0xF00, 3, 2, 1, 128, 1, 1, 0, 0x57, ctypes.addressof(params), None, 2)
    (call,) = drv.named("cuLaunchKernel")
    assert call[1:8] == (0xF00, 3, 2, 1, 128, 1, 1)
    assert call[8] == 0 and call[9] == 0x57 and call[10] == ctypes.addressof(params)
    assert call[11] is None
    # The context was made current once on this thread, then reused.
    assert [c[1] for c in drv.named("cuCtxSetCurrent")] == [FAKE_CTX]
    f["launch"](0xF00, 1, 1, 1, 1, 1, 1, 0, 0x57, ctypes.addressof(params), None, 2)
    assert len(drv.named("cuCtxSetCurrent")) == 1
    assert _provider._last_fn.value == 0xF00  # remembered for fault reports


def test_large_dynamic_shared_memory_raises_the_kernel_limit(fake):
    drv, _provider, f = fake
    f["launch"](0xF00, 1, 1, 1, 32, 1, 1, 64 * 1024, None, None, None, 0)
    assert drv.named("cuFuncSetAttribute") == [("cuFuncSetAttribute", 0xF00, 8, 64 * 1024)]
    f["launch"](0xF00, 1, 1, 1, 32, 1, 1, 1024, None, None, None, 0)
    assert len(drv.named("cuFuncSetAttribute")) == 1


def test_oversized_grid_is_reported_not_truncated(fake):
    drv, provider, f = fake
    f["launch"](0xF00, 1 << 33, 1, 1, 1, 1, 1, 0, None, None, None, 0)
    assert drv.named("cuLaunchKernel") == []
    assert len(provider._run.errors) == 1
    assert "'gpu.launch_func' failed" in provider._run.errors[0]


def test_alloc_plain_managed_and_empty(fake):
    drv, _provider, f = fake
    assert f["alloc"](0, None, 0) is None
    assert drv.named("cuMemAlloc") == [] and drv.named("cuMemAllocManaged") == []
    assert f["alloc"](64, None, 0)
    assert drv.named("cuMemAlloc")[0][2] == 64
    assert f["alloc"](32, None, 1)
    assert drv.named("cuMemAllocManaged")[0][2:] == (32, 1)  # CU_MEM_ATTACH_GLOBAL
    f["free"](None, None)
    assert drv.named("cuMemFree") == []
    f["free"](0x1234, None)
    assert drv.named("cuMemFree") == [("cuMemFree", 0x1234)]


def test_copies_and_sets_are_asynchronous_on_the_given_stream(fake):
    drv, _provider, f = fake
    f["memcpy"](0x10, 0x20, 48, 0x57)
    assert drv.named("cuMemcpyAsync") == [("cuMemcpyAsync", 0x10, 0x20, 48, 0x57)]
    f["memset32"](0x10, -1, 12, 0x57)
    assert drv.named("cuMemsetD32Async") == [("cuMemsetD32Async", 0x10, 0xFFFFFFFF, 12, 0x57)]
    f["memset16"](0x10, -2, 6, 0x57)  # zero-extended to the driver's unsigned short
    assert drv.named("cuMemsetD16Async") == [("cuMemsetD16Async", 0x10, 0xFFFE, 6, 0x57)]


def test_streams_and_events(fake):
    drv, _provider, f = fake
    s = f["stream"]()
    e = f["event"]()
    assert s and e
    assert drv.named("cuStreamCreate")[0][2] == 1  # CU_STREAM_NON_BLOCKING
    assert drv.named("cuEventCreate")[0][2] == 2  # CU_EVENT_DISABLE_TIMING
    f["record"](e, s)
    f["wait"](s, e)
    f["sync"](s)
    assert drv.named("cuEventRecord") == [("cuEventRecord", e, s)]
    assert drv.named("cuStreamWaitEvent") == [("cuStreamWaitEvent", s, e, 0)]
    assert drv.named("cuStreamSynchronize") == [("cuStreamSynchronize", s)]


def test_worker_threads_make_the_context_current_themselves(fake):
    drv, _provider, f = fake
    t = threading.Thread(target=lambda: f["sync"](0x57))
    t.start()
    t.join()
    f["sync"](0x57)
    assert [c[1] for c in drv.named("cuCtxSetCurrent")] == [FAKE_CTX, FAKE_CTX]


def test_driver_failure_names_the_op_and_the_kernel(fake):
    drv, provider, f = fake
    drv.fail["cuLaunchKernel"] = 700
    site = image.KernelSite("main_kernel", "main_kernel", "t.mlir:30:5", ["t.mlir:12:7"])
    provider._functions[0xF00] = site
    provider._host_ops = {"gpu.launch_func": ["t.mlir:12:7"]}
    f["launch"](0xF00, 1, 1, 1, 1, 1, 1, 0, None, None, None, 0)
    (msg,) = provider._run.errors
    assert msg.startswith("t.mlir:12:7: error: 'gpu.launch_func' failed on the GPU")
    assert "CUresult 700" in msg or "CUDA_ERROR_ILLEGAL_ADDRESS" in msg
    assert "kernel @main_kernel::@main_kernel" in msg and "defined at t.mlir:30:5" in msg
    assert provider._run.sticky


def test_failed_launch_is_reported_at_its_own_launch_func(fake):
    """A kernel launched from two places: the failing launch names its own site."""
    from runner_core.runtime.core import LAUNCH_SITE, core

    drv, provider, f = fake
    site = image.KernelSite("k", "k", "t.mlir:30:5", ["t.mlir:12:7", "t.mlir:20:7"])
    provider._functions[0xF00] = site
    set_site = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(core().symbols[LAUNCH_SITE])
    first, second = ctypes.c_char_p(b"t.mlir:12:7"), ctypes.c_char_p(b"t.mlir:20:7")
    set_site(ctypes.cast(first, ctypes.c_void_p))
    f["launch"](0xF00, 1, 1, 1, 1, 1, 1, 0, None, None, None, 0)
    assert provider._run.errors == []
    drv.fail["cuLaunchKernel"] = 1  # CUDA_ERROR_INVALID_VALUE: not sticky
    set_site(ctypes.cast(second, ctypes.c_void_p))
    f["launch"](0xF00, 1, 1, 1, 1, 1, 1, 0, None, None, None, 0)
    (msg,) = provider._run.errors
    assert msg.startswith("t.mlir:20:7: error: 'gpu.launch_func' failed on the GPU"), msg
    assert core().take_launch_site() == ""  # taken, so never reported twice


def test_failure_on_the_entry_thread_unwinds_the_run(fake):
    """On the thread running the entry point a failure stops the program at once."""
    from runner_core.runtime.core import core
    from runner_core.targets.host import compile_ir

    drv, provider, f = fake
    drv.fail["cuMemcpyAsync"] = 1
    lib = compile_ir("""
declare void @mgpuMemcpy(ptr, ptr, i64, ptr)
@after = global i32 0
define void @thunk(ptr %arg) {
  call void @mgpuMemcpy(ptr null, ptr null, i64 4, ptr null)
  store i32 1, ptr @after
  ret void
}""", exports=["thunk", "after"], imports={"mgpuMemcpy": provider.lookup("mgpuMemcpy")},
        name="fake_thunk")
    provider._run = rt._RunState(thread=threading.get_ident())
    failed = core().invoke(lib.address("thunk"), None)
    assert failed == 1
    assert ctypes.c_int32.from_address(lib.address("after")).value == 0
    assert "'gpu.memcpy' failed on the GPU" in provider._run.errors[0]


def test_finish_run_raises_the_first_error(fake, monkeypatch):
    _drv, provider, _f = fake
    provider._run.errors += ["error: first", "error: second"]
    with pytest.raises(ExecutionError) as info:
        provider.finish_run(object())
    assert str(info.value).startswith("error: first")
    assert "1 later CUDA error" in str(info.value)


def test_streams_are_pooled_within_and_across_runs(fake):
    drv, provider, f = fake
    a = f["stream"]()
    b = f["stream"]()
    assert a != b and len(drv.named("cuStreamCreate")) == 2
    f["destroy"](a)
    assert f["stream"]() == a  # reused, not created again
    assert len(drv.named("cuStreamCreate")) == 2
    assert drv.named("cuStreamDestroy") == []
    # Between runs every stream ever created is free again (b was never destroyed).
    provider._refill_stream_pool()
    got = {f["stream"](), f["stream"]()}
    assert got == {a, b}
    assert len(drv.named("cuStreamCreate")) == 2
    f["stream"]()
    assert len(drv.named("cuStreamCreate")) == 3


def test_leftover_allocations_are_freed_when_the_next_run_starts(fake, monkeypatch):
    drv, provider, f = fake
    kept = f["alloc"](64, None, 0)
    freed = f["alloc"](32, None, 0)
    f["free"](freed, None)
    assert provider._run.allocations == {kept: 64}
    provider._run.registered[0x7000] = 4096
    released = []
    monkeypatch.setattr(cuda, "raw", lambda name: lambda ptr: released.append((name, ptr)))
    provider._previous, provider._run = provider._run, rt._RunState(thread=-1)
    provider._release_previous()
    assert sorted(released) == [("cuMemFree", kept), ("cuMemHostUnregister", 0x7000)]
    assert provider.released == (1, 1)


def test_device_assert_is_reported_like_upstreams_wrappers(fake, capfd):
    """CUDA_ERROR_ASSERT (a kernel's cf.assert failed): each failing call prints upstream's
    report on stderr and the program goes on; no run error, the context is sticky."""
    from runner_core.runtime.cstdio import flush_all

    drv, provider, f = fake
    provider._run = rt._RunState(thread=threading.get_ident())
    drv.fail["cuStreamSynchronize"] = 710
    drv.fail["cuMemAllocManaged"] = 710
    f["sync"](0x57)
    f["alloc"](16, None, 1)
    flush_all()
    err = capfd.readouterr().err
    assert err == ("'cuStreamSynchronize(stream)' failed with 'CUDA_ERROR_ASSERT'\n"
                   "'cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL)' failed with "
                   "'CUDA_ERROR_ASSERT'\n")
    assert provider._run.errors == [] and provider._run.sticky


def test_cluster_launch_passes_cuLaunchKernelEx_a_cluster_config(fake):
    """Layout from cuda.h: 6 dims + smem, stream, attrs, count; each attribute an id, 4 bytes
    of padding and a 64-byte value (CLUSTER_DIMENSION = 4, SCHEDULING_POLICY = 5, SPREAD =
    1), as upstream's mgpuLaunchClusterKernel fills it."""
    drv, provider, f = fake
    params = (ctypes.c_void_p * 1)()
    f["cluster"](0xF00, 2, 1, 1, 8, 4, 1, 128, 1, 1, 1024, 0x57, params, None, 1)
    ((_, cfg, fn, p, extra),) = drv.named("cuLaunchKernelEx")
    assert fn == 0xF00 and p == ctypes.addressof(params) and extra is None
    assert cfg == {"grid": (8, 4, 1), "block": (128, 1, 1), "smem": 1024, "stream": 0x57,
                   "attrs": {4: (2, 1, 1), 5: (1, 0, 0)}}
    assert provider._run.errors == []
    f["cluster"](0xF00, 2, 1, 1, 1 << 32, 1, 1, 1, 1, 1, 0, None, params, None, 1)
    assert "launch dimensions" in provider._run.errors[-1]


def test_destroyed_or_foreign_handles_are_reported_and_the_program_goes_on(fake, capfd):
    """LLVM 22's gpu-to-llvm hands a stream to mgpuEventSynchronize/Destroy and
    mgpuStreamWaitEvent (a token across async.execute) and reuses destroyed streams.  The
    driver answers CUDA_ERROR_CONTEXT_IS_DESTROYED (measured on an H100 for a stream given
    as an event); upstream's wrappers print their line and go on: no run error.  A stream
    the program destroyed stays alive in our pool, so the runtime refuses it itself."""
    from runner_core.runtime.cstdio import flush_all

    drv, provider, f = fake
    provider._run = rt._RunState(thread=threading.get_ident())  # errors would unwind
    s = f["stream"]()
    drv.fail["cuEventSynchronize"] = 709  # the driver's answer for a stream as an event
    drv.fail["cuEventDestroy"] = 709
    f["event_sync"](s)
    f["event_destroy"](s)
    f["destroy"](s)
    f["destroy"](s)  # twice: the pool must not hand it out twice
    f["memcpy"](0x10, 0x20, 8, s)
    f["launch"](0xF00, 1, 1, 1, 1, 1, 1, 0, s, None, None, 0)
    f["sync"](s)
    flush_all()
    err = capfd.readouterr().err
    assert err == (
        "'cuEventSynchronize(event)' failed with 'CUDA_ERROR_CONTEXT_IS_DESTROYED'\n"
        "'cuEventDestroy(event)' failed with 'CUDA_ERROR_CONTEXT_IS_DESTROYED'\n"
        "'cuStreamDestroy(stream)' failed with 'CUDA_ERROR_CONTEXT_IS_DESTROYED'\n"
        "'cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>"
        "(src), sizeBytes, stream)' failed with 'CUDA_ERROR_CONTEXT_IS_DESTROYED'\n"
        "'cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, smem, "
        "stream, params, extra)' failed with 'CUDA_ERROR_CONTEXT_IS_DESTROYED'\n"
        "'cuStreamSynchronize(stream)' failed with 'CUDA_ERROR_CONTEXT_IS_DESTROYED'\n")
    assert provider._run.errors == []
    # Nothing reached the driver for the destroyed stream, and it is handed out once.
    assert drv.named("cuMemcpyAsync") == drv.named("cuLaunchKernel") == []
    assert drv.named("cuStreamSynchronize") == []
    assert f["stream"]() == s and f["stream"]() != s


def test_streams_refilled_between_runs_are_not_taken_for_destroyed_ones(fake, capfd):
    """Only streams this run's program destroyed are refused (the pool's mark): a program
    creating and destroying a stream per op scans one entry, not every pooled stream."""
    from runner_core.runtime.cstdio import flush_all

    drv, provider, f = fake
    kept = [f["stream"]() for _ in range(3)]
    provider._refill_stream_pool()  # a new run: all three are free again
    s = f["stream"]()  # takes the last one
    f["destroy"](s)
    f["memcpy"](0x10, 0x20, 8, kept[0])  # free, but not destroyed by this program
    f["memcpy"](0x10, 0x20, 8, s)
    flush_all()
    assert capfd.readouterr().err.count("CUDA_ERROR_CONTEXT_IS_DESTROYED") == 1
    assert [c[4] for c in drv.named("cuMemcpyAsync")] == [kept[0]]
