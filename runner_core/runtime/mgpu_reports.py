"""What upstream's CUDA runtime wrappers print when a driver call fails.

Upstream's ``mgpu*`` functions do not stop the program on a CUDA error: each
wraps its driver call in a macro that prints ``'<call>' failed with
'<CUresult name>'`` on stderr and goes on.  After a device-side assertion
(``CUDA_ERROR_ASSERT``, sticky) every later call fails that way, and tests
such as upstream's GPU ``assert`` test run to the end with exit status 0.
Both of our backends reproduce that: the cuda backend when the driver
returns the error, the cpu backend, which emulates the assertion, for every
runtime call after it.  The call texts below are the C expressions as the
macro stringifies them (one space between tokens, comments dropped).
"""

from __future__ import annotations

CUDA_ERROR_ASSERT = 710
ASSERT_NAME = "CUDA_ERROR_ASSERT"

# mgpu function -> the driver call it reports (None: no driver call to fail).
CALLS: dict[str, str | None] = {
    "mgpuModuleLoad": "cuModuleLoadData(&module, data)",
    "mgpuModuleUnload": "cuModuleUnload(module)",
    "mgpuModuleGetFunction": "cuModuleGetFunction(&function, module, name)",
    "mgpuLaunchKernel": "cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, "
                        "blockZ, smem, stream, params, extra)",
    "mgpuLaunchClusterKernel": "cuLaunchKernelEx(&config, function, params, extra)",
    "mgpuStreamCreate": "cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING)",
    "mgpuStreamDestroy": "cuStreamDestroy(stream)",
    "mgpuStreamSynchronize": "cuStreamSynchronize(stream)",
    "mgpuStreamWaitEvent": "cuStreamWaitEvent(stream, event, 0)",
    "mgpuEventCreate": "cuEventCreate(&event, CU_EVENT_DISABLE_TIMING)",
    "mgpuEventDestroy": "cuEventDestroy(event)",
    "mgpuEventSynchronize": "cuEventSynchronize(event)",
    "mgpuEventRecord": "cuEventRecord(event, stream)",
    "mgpuMemAlloc": "cuMemAlloc(&ptr, sizeBytes)",
    "mgpuMemAlloc:shared": "cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL)",
    "mgpuMemFree": "cuMemFree(reinterpret_cast<CUdeviceptr>(ptr))",
    "mgpuMemcpy": "cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), "
                  "reinterpret_cast<CUdeviceptr>(src), sizeBytes, stream)",
    "mgpuMemset32": "cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count, stream)",
    "mgpuMemset16": "cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count, stream)",
    "mgpuMemHostRegister": "cuMemHostRegister(ptr, sizeBytes, 0)",
    "mgpuMemHostRegisterMemRef": "cuMemHostRegister(ptr, sizeBytes, 0)",
    "mgpuMemHostUnregister": "cuMemHostUnregister(ptr)",
    "mgpuMemHostUnregisterMemRef": "cuMemHostUnregister(ptr)",
    "mgpuSetDefaultDevice": None,
}

# Driver calls that still succeed once the context has a device-side assertion: seen on
# an H100 (driver 580.159.04), where upstream's assert program printed no report for
# cuStreamDestroy after the failing cuStreamSynchronize.
SUCCEED_AFTER_ASSERT = frozenset({"mgpuStreamDestroy"})


# Driver results for a handle that names no live object of its kind: a stream or event
# used after its destruction, or a stream given where an event is expected (LLVM 22's
# gpu-to-llvm does that with a token that crosses async.execute).  Measured on an H100
# (driver 580.159.04): cuStreamWaitEvent and cuEventSynchronize given a stream returned
# CUDA_ERROR_CONTEXT_IS_DESTROYED; a null handle is CUDA_ERROR_INVALID_HANDLE.  Upstream's
# wrappers print the line and the program goes on, so both backends do too.
HANDLE_ERRORS = {709: "CUDA_ERROR_CONTEXT_IS_DESTROYED", 400: "CUDA_ERROR_INVALID_HANDLE"}
HANDLE_CALLS = frozenset({
    "mgpuStreamDestroy", "mgpuStreamSynchronize", "mgpuStreamWaitEvent", "mgpuEventDestroy",
    "mgpuEventSynchronize", "mgpuEventRecord", "mgpuLaunchKernel", "mgpuLaunchClusterKernel",
    "mgpuMemcpy", "mgpuMemset32", "mgpuMemset16"})


def report_line(mgpu: str, error_name: str = ASSERT_NAME) -> str | None:
    """The line upstream's wrapper ``mgpu`` prints when its driver call fails."""
    call = CALLS.get(mgpu)
    if call is None:
        return None
    return f"'{call}' failed with '{error_name}'\n"
