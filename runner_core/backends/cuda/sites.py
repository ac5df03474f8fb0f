"""Where a driver failure can be reported from in the cuda runtime: each site names
the `mgpu*` function, the gpu op and the driver call, so an error message can
say which op of the source failed; and which CUresults poison the process."""

from __future__ import annotations

# Identifiers of the places that can report a driver failure (argument of
# the report callback); the table says which gpu op and runtime function.
_SITES = [
    # (mgpu function, gpu op, driver call)
    ("mgpuModuleGetFunction", "gpu.launch_func", "cuModuleGetFunction"),
    ("mgpuLaunchKernel", "gpu.launch_func", "cuLaunchKernel"),
    ("mgpuStreamCreate", "gpu stream creation", "cuStreamCreate"),
    ("mgpuStreamDestroy", "gpu stream destruction", "cuStreamDestroy"),
    ("mgpuStreamSynchronize", "gpu op", "cuStreamSynchronize"),
    ("mgpuStreamWaitEvent", "gpu op", "cuStreamWaitEvent"),
    ("mgpuEventCreate", "gpu async token", "cuEventCreate"),
    ("mgpuEventDestroy", "gpu async token", "cuEventDestroy"),
    ("mgpuEventSynchronize", "gpu.wait", "cuEventSynchronize"),
    ("mgpuEventRecord", "gpu async token", "cuEventRecord"),
    ("mgpuMemAlloc", "gpu.alloc", "cuMemAlloc"),
    ("mgpuMemAlloc", "gpu.alloc host_shared", "cuMemAllocManaged"),
    ("mgpuMemFree", "gpu.dealloc", "cuMemFree"),
    ("mgpuMemcpy", "gpu.memcpy", "cuMemcpyAsync"),
    ("mgpuMemset32", "gpu.memset", "cuMemsetD32Async"),
    ("mgpuMemset16", "gpu.memset", "cuMemsetD16Async"),
    ("(any)", "gpu op", "cuCtxSetCurrent"),
    ("mgpuLaunchKernel", "gpu.launch_func", "launch dimensions"),
    ("mgpuLaunchKernel", "gpu.launch_func", "cuFuncSetAttribute"),
    ("mgpuLaunchClusterKernel", "gpu.launch_func", "cuLaunchKernelEx"),
    ("mgpuLaunchClusterKernel", "gpu.launch_func", "launch dimensions"),
    ("mgpuLaunchClusterKernel", "gpu.launch_func", "cuFuncSetAttribute"),
]
SITE = {f"{m}:{d}": i for i, (m, _, d) in enumerate(_SITES)}
# Op names a site may correspond to in the source (for locating it).
_SITE_OPS = {
    "gpu.launch_func": ("gpu.launch_func",), "gpu.alloc": ("gpu.alloc",),
    "gpu.alloc host_shared": ("gpu.alloc",), "gpu.dealloc": ("gpu.dealloc",),
    "gpu.memcpy": ("gpu.memcpy",), "gpu.memset": ("gpu.memset",), "gpu.wait": ("gpu.wait",),
}

# Sticky CUresults: the context is unusable after them.
STICKY = {214, 700, 702, 710, 714, 715, 716, 717, 718, 719, 720}
