"""``mlir_cuda_runtime`` on the real driver: upstream's ``mgpu*`` ABI for the cuda backend.

The host code generated for ``gpu.*`` ops calls upstream's runtime functions
(``mgpuLaunchKernel``, ``mgpuMemcpy``, ``mgpuStreamCreate`` ...; contract 5 of
docs/design.md).  This provider implements them for the cuda backend, in two
tiers:

* **hot paths in LLVM IR** (launch, function lookup, memcpy/memset, alloc/free,
  stream and event operations): compiled once per process by the host JIT,
  they call the driver's entry points directly (addresses from
  ``cuGetProcAddress``), so a ``gpu.launch_func`` costs one driver call and no
  Python frame.  Each makes the device's context current on its thread first
  (async.execute bodies run on runtime worker threads).
* **cold paths in Python** (module load, host registration, device choice,
  error reports), reached from the IR through ctypes callbacks.

Kernel images.  The cuda backend embeds each ``gpu.module`` as an image in
our own container (:mod:`.image`: a JSON header naming the kernels and
the source locations of the ops that use them, then the kernel's LLVM IR).
``mgpuModuleLoad`` compiles it for the device actually selected for the run
(LLVM IR -> PTX with libdevice -> cubin through the driver's linker), through
the disk cache of :mod:`.kernel_cache`.  Images in the
driver's own formats (cubin, fatbin, PTX, e.g. from upstream's
``gpu-module-to-binary``) are loaded as they are.

Errors.  A failing driver call is reported once per run as an
:class:`ExecutionError` naming the gpu op, its source location when known,
the kernel involved and the driver's error.  On the thread that called the
entry point the run stops at once (through the core runtime's unwinding
trampoline); on worker threads the call returns and the error is raised
when the run finishes.  A *sticky* error (a kernel fault: illegal address,
trap, misaligned access) poisons CUDA for the whole process - measured on an
H200: after ``cuDevicePrimaryCtxReset`` even ``cuDevicePrimaryCtxRetain``
returns the same error, as NVIDIA documents ("the process must be terminated
and relaunched").  So recovery is process isolation: the run fails with the
message above, the process is marked unusable (``runner_core.toolapi``), the
tool reports ``restart_process`` and the plug-in's worker executor replaces
its worker before the next test.  A later run in a poisoned process (an
in-process caller) fails at once with a message saying why.

Perturbation (the plug-in's ``--gpurunner-repeat``).  ``GPURUNNER_PERTURB=<seed>``
in the run's environment shakes the interleaving of concurrent streams: before
each kernel launch, copy, fill and event record, a generator seeded with
``<seed>`` picks nothing, a host-side sleep before the work is enqueued, or a
spin kernel (``clock64`` loop) enqueued on the same stream first, which holds
that stream back while others run on; delays up to ``GPURUNNER_PERTURB_MAX_US``
(default 200 us).  The IR tests one global before calling into Python, so with
perturbation off the hot paths pay a load and a branch.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import random
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from runner_core.errors import ExecutionError
from runner_core.runtime import host_register_2021
from runner_core.runtime.core import ASSERT_FAIL, core
from runner_core.runtime.provider import Provider
from runner_core.targets.host import compile_ir
from runner_core.toolapi import mark_process_unusable, process_unusable

from . import driver, kernel_cache, nvptx
from .image import KernelImage, KernelSite, image_size, parse_image

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
CUDA_ERROR_INVALID_VALUE = 1
CU_STREAM_NON_BLOCKING = 1
CU_EVENT_DISABLE_TIMING = 2
CU_MEM_ATTACH_GLOBAL = 1
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
# Streams one run may create before the pool stops tracking them.
POOL = 4096
_POOL_GLOBALS = ("streams.free", "streams.free_count", "streams.all", "streams.all_count")

# Driver entry points the IR calls, with their LLVM signatures.
_DRIVER_DECLS = {
    "cuCtxGetCurrent": "i32 (ptr)",
    "cuCtxSetCurrent": "i32 (ptr)",
    "cuModuleGetFunction": "i32 (ptr, ptr, ptr)",
    "cuLaunchKernel": "i32 (ptr, i32, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr)",
    "cuFuncSetAttribute": "i32 (ptr, i32, i32)",
    "cuStreamCreate": "i32 (ptr, i32)",
    "cuStreamDestroy": "i32 (ptr)",
    "cuStreamSynchronize": "i32 (ptr)",
    "cuStreamWaitEvent": "i32 (ptr, ptr, i32)",
    "cuEventCreate": "i32 (ptr, i32)",
    "cuEventDestroy": "i32 (ptr)",
    "cuEventSynchronize": "i32 (ptr)",
    "cuEventRecord": "i32 (ptr, ptr)",
    "cuMemAlloc": "i32 (ptr, i64)",
    "cuMemAllocManaged": "i32 (ptr, i64, i32)",
    "cuMemFree": "i32 (ptr)",
    "cuMemcpyAsync": "i32 (ptr, ptr, i64, ptr)",
    "cuMemsetD32Async": "i32 (ptr, i32, i64, ptr)",
    "cuMemsetD16Async": "i32 (ptr, i32, i64, ptr)",
}
_PREFIX = "gpurunner.cu."

# Cold paths implemented in Python: (symbol, restype, argtypes).
_PY_CALLBACKS = {
    "mgpuModuleLoad": (ctypes.c_void_p, (ctypes.c_void_p, ctypes.c_uint64)),
    "mgpuModuleLoadJIT": (ctypes.c_void_p, (ctypes.c_void_p, ctypes.c_int32, ctypes.c_uint64)),
    "mgpuModuleUnload": (None, (ctypes.c_void_p,)),
    "mgpuMemHostRegister": (None, (ctypes.c_void_p, ctypes.c_uint64)),
    "mgpuMemHostRegisterMemRef": (None, (ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64)),
    "mgpuMemHostUnregister": (None, (ctypes.c_void_p,)),
    # 2021 typed helpers (host_register_2021): fill, then register.
    "mgpuMemHostRegisterFloat": (None, (ctypes.c_int64, ctypes.c_void_p)),
    "mgpuMemHostRegisterInt32": (None, (ctypes.c_int64, ctypes.c_void_p)),
    "mgpuMemHostUnregisterMemRef": (None, (ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64)),
    "mgpuSetDefaultDevice": (None, (ctypes.c_int32,)),
}
_REPORT = "gpurunner.cuda.report"
_TRACK = "gpurunner.cuda.track"
_CTX_GLOBAL = "gpurunner_cuda_context"
_PERTURB = "gpurunner.cuda.perturb"
_PERTURB_GLOBAL = "gpurunner_cuda_perturb"
_LAST_FN_GLOBAL = "gpurunner_cuda_last_function"


def _runtime_ir() -> str:
    """The hot-path functions, as LLVM IR text."""
    s = SITE
    decls = "\n".join(f"declare {sig.split(' ', 1)[0]} @\"{_PREFIX}{name}\""
                      f"{sig.split(' ', 1)[1]}" for name, sig in _DRIVER_DECLS.items())

    def cu(name):
        return f'@"{_PREFIX}{name}"'

    def checked(call: str, site: str, arg: str = "ptr null", tag: str = "") -> str:
        """Call, then report a failure to Python (which may unwind the run)."""
        t = tag or "".join(ch if ch.isalnum() else "_" for ch in site)
        return f"""
  %r.{t} = call i32 {call}
  %bad.{t} = icmp ne i32 %r.{t}, 0
  br i1 %bad.{t}, label %fail.{t}, label %ok.{t}
fail.{t}:
  call void @report(i32 %r.{t}, i32 {s[site]}, {arg})
  br label %ok.{t}
ok.{t}:"""

    def forward(signature: str, driver: str, args: str, *, arg: str = "ptr null",
                stream: str = "", before: str = "") -> str:
        """``define void signature``: make the context current, give perturbation its
        chance on ``stream`` (when named), run the ``before`` instruction, then the
        checked driver call ``driver(args)``; a failure is reported with ``arg``."""
        site = f"{signature.split('(', 1)[0]}:{driver}"
        perturb = f"  call void @perturb(i32 {s[site]}, ptr {stream})\n" if stream else ""
        before = f"  {before}\n" if before else ""
        return f"""define void @{signature} {{
entry:
  call void @ensure_ctx()
{perturb}{before}  {checked(f"{cu(driver)}({args})", site, arg).strip()}
  ret void
}}
"""

    return f"""
@{_CTX_GLOBAL} = global ptr null
@{_LAST_FN_GLOBAL} = global ptr null
@{_PERTURB_GLOBAL} = global i32 0
@streams.lock = internal global i32 0
@streams.free = global [{POOL} x ptr] zeroinitializer
@streams.free_count = global i64 0
@streams.all = global [{POOL} x ptr] zeroinitializer
@streams.all_count = global i64 0
@msg = private unnamed_addr constant [11 x i8] c"CUDA error\\00"
{decls}
declare i32 @"{_REPORT}"(i32, i32, ptr)
declare void @"{_TRACK}"(i32, ptr, i64)
declare void @"{_PERTURB}"(i32, ptr)
declare void @_gpurunner_assert_fail(ptr, ptr)

define internal void @report(i32 %code, i32 %site, ptr %arg) noinline cold {{
entry:
  %u = call i32 @"{_REPORT}"(i32 %code, i32 %site, ptr %arg)
  %unwind = icmp ne i32 %u, 0
  br i1 %unwind, label %jump, label %back
jump:
  call void @_gpurunner_assert_fail(ptr @msg, ptr null)
  unreachable
back:
  ret void
}}

; Perturbation of stream interleaving (off unless the run's env asks for it).
define internal void @perturb(i32 %site, ptr %stream) alwaysinline {{
entry:
  %on = load atomic i32, ptr @{_PERTURB_GLOBAL} monotonic, align 4
  %yes = icmp ne i32 %on, 0
  br i1 %yes, label %call, label %done
call:
  call void @"{_PERTURB}"(i32 %site, ptr %stream)
  br label %done
done:
  ret void
}}

; Make the run's context current on this thread (worker threads start with none).
define internal void @ensure_ctx() alwaysinline {{
entry:
  %slot = alloca ptr
  store ptr null, ptr %slot
  %g = call i32 {cu('cuCtxGetCurrent')}(ptr %slot)
  %cur = load ptr, ptr %slot
  %want = load ptr, ptr @{_CTX_GLOBAL}
  %same = icmp eq ptr %cur, %want
  br i1 %same, label %done, label %set
set:
  {checked(f"{cu('cuCtxSetCurrent')}(ptr %want)", "(any):cuCtxSetCurrent").strip()}
  br label %done
done:
  ret void
}}

define ptr @mgpuModuleGetFunction(ptr %module, ptr %name) {{
entry:
  %slot = alloca ptr
  store ptr null, ptr %slot
  call void @ensure_ctx()
  {checked(f"{cu('cuModuleGetFunction')}(ptr %slot, ptr %module, ptr %name)",
           "mgpuModuleGetFunction:cuModuleGetFunction", "ptr %name").strip()}
  %f = load ptr, ptr %slot
  ret ptr %f
}}

define void @mgpuLaunchKernel(ptr %f, i64 %gx, i64 %gy, i64 %gz, i64 %bx, i64 %by, i64 %bz,
                              i32 %smem, ptr %stream, ptr %params, ptr %extra, i64 %n) {{
entry:
  call void @ensure_ctx()
  store ptr %f, ptr @{_LAST_FN_GLOBAL}
  %o1 = or i64 %gx, %gy
  %o2 = or i64 %o1, %gz
  %o3 = or i64 %o2, %bx
  %o4 = or i64 %o3, %by
  %o5 = or i64 %o4, %bz
  %high = lshr i64 %o5, 32
  %toobig = icmp ne i64 %high, 0
  br i1 %toobig, label %baddims, label %dims
baddims:
  call void @report(i32 {CUDA_ERROR_INVALID_VALUE}, i32 {s['mgpuLaunchKernel:launch dimensions']}, ptr %f)
  ret void
dims:
  %bigsmem = icmp ugt i32 %smem, 49152
  br i1 %bigsmem, label %setsmem, label %launch
setsmem:
  {checked(f"{cu('cuFuncSetAttribute')}(ptr %f, i32 {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES}, i32 %smem)",
           "mgpuLaunchKernel:cuFuncSetAttribute", "ptr %f").strip()}
  br label %launch
launch:
  %gx32 = trunc i64 %gx to i32
  %gy32 = trunc i64 %gy to i32
  %gz32 = trunc i64 %gz to i32
  %bx32 = trunc i64 %bx to i32
  %by32 = trunc i64 %by to i32
  %bz32 = trunc i64 %bz to i32
  call void @perturb(i32 {s['mgpuLaunchKernel:cuLaunchKernel']}, ptr %stream)
  {checked(f"{cu('cuLaunchKernel')}(ptr %f, i32 %gx32, i32 %gy32, i32 %gz32, i32 %bx32, i32 %by32, i32 %bz32, i32 %smem, ptr %stream, ptr %params, ptr %extra)",
           "mgpuLaunchKernel:cuLaunchKernel", "ptr %f").strip()}
  ret void
}}

; Streams come from a pool: generated code creates a stream per async op (and a
; temporary one per synchronous op) and never destroys the streams tokens stand
; for, so creating and destroying driver streams would cost time per op and
; leak per run.  Every stream ever created is listed in @streams.all; the pool
; is refilled from that list between runs (Python, after a synchronize).
define internal void @pool_lock() alwaysinline {{
entry:
  br label %spin
spin:
  %old = atomicrmw xchg ptr @streams.lock, i32 1 acquire
  %free = icmp eq i32 %old, 0
  br i1 %free, label %done, label %spin
done:
  ret void
}}

define internal void @pool_unlock() alwaysinline {{
entry:
  store atomic i32 0, ptr @streams.lock release, align 4
  ret void
}}

define ptr @mgpuStreamCreate() {{
entry:
  %slot = alloca ptr
  store ptr null, ptr %slot
  call void @ensure_ctx()
  call void @pool_lock()
  %n = load i64, ptr @streams.free_count
  %have = icmp sgt i64 %n, 0
  br i1 %have, label %reuse, label %create
reuse:
  %n1 = sub i64 %n, 1
  %fp = getelementptr [{POOL} x ptr], ptr @streams.free, i64 0, i64 %n1
  %s0 = load ptr, ptr %fp
  store i64 %n1, ptr @streams.free_count
  call void @pool_unlock()
  ret ptr %s0
create:
  call void @pool_unlock()
  {checked(f"{cu('cuStreamCreate')}(ptr %slot, i32 {CU_STREAM_NON_BLOCKING})",
           "mgpuStreamCreate:cuStreamCreate").strip()}
  %s = load ptr, ptr %slot
  %made = icmp ne ptr %s, null
  br i1 %made, label %track, label %out
track:
  call void @pool_lock()
  %m = load i64, ptr @streams.all_count
  %room = icmp slt i64 %m, {POOL}
  br i1 %room, label %record, label %untracked
record:
  %ap = getelementptr [{POOL} x ptr], ptr @streams.all, i64 0, i64 %m
  store ptr %s, ptr %ap
  %m1 = add i64 %m, 1
  store i64 %m1, ptr @streams.all_count
  br label %untracked
untracked:
  call void @pool_unlock()
  br label %out
out:
  ret ptr %s
}}

define void @mgpuStreamDestroy(ptr %s) {{
entry:
  %isnull = icmp eq ptr %s, null
  br i1 %isnull, label %done, label %give
give:
  call void @pool_lock()
  %n = load i64, ptr @streams.free_count
  %room = icmp slt i64 %n, {POOL}
  br i1 %room, label %pool, label %really
pool:
  %fp = getelementptr [{POOL} x ptr], ptr @streams.free, i64 0, i64 %n
  store ptr %s, ptr %fp
  %n1 = add i64 %n, 1
  store i64 %n1, ptr @streams.free_count
  call void @pool_unlock()
  br label %done
really:
  call void @pool_unlock()
  call void @ensure_ctx()
  {checked(f"{cu('cuStreamDestroy')}(ptr %s)", "mgpuStreamDestroy:cuStreamDestroy").strip()}
  br label %done
done:
  ret void
}}

{forward("mgpuStreamSynchronize(ptr %s)", "cuStreamSynchronize", "ptr %s")}
{forward("mgpuStreamWaitEvent(ptr %s, ptr %e)", "cuStreamWaitEvent", "ptr %s, ptr %e, i32 0")}
define ptr @mgpuEventCreate() {{
entry:
  %slot = alloca ptr
  store ptr null, ptr %slot
  call void @ensure_ctx()
  {checked(f"{cu('cuEventCreate')}(ptr %slot, i32 {CU_EVENT_DISABLE_TIMING})",
           "mgpuEventCreate:cuEventCreate").strip()}
  %e = load ptr, ptr %slot
  ret ptr %e
}}

{forward("mgpuEventDestroy(ptr %e)", "cuEventDestroy", "ptr %e")}
{forward("mgpuEventSynchronize(ptr %e)", "cuEventSynchronize", "ptr %e")}
{forward("mgpuEventRecord(ptr %e, ptr %s)", "cuEventRecord", "ptr %e, ptr %s", stream="%s")}
define ptr @mgpuMemAlloc(i64 %size, ptr %stream, i8 %shared) {{
entry:
  %slot = alloca ptr
  store ptr null, ptr %slot
  %empty = icmp eq i64 %size, 0
  br i1 %empty, label %zero, label %alloc
zero:
  ret ptr null
alloc:
  call void @ensure_ctx()
  %bit = trunc i8 %shared to i1
  br i1 %bit, label %managed, label %device
managed:
  {checked(f"{cu('cuMemAllocManaged')}(ptr %slot, i64 %size, i32 {CU_MEM_ATTACH_GLOBAL})",
           "mgpuMemAlloc:cuMemAllocManaged").strip()}
  br label %done
device:
  {checked(f"{cu('cuMemAlloc')}(ptr %slot, i64 %size)", "mgpuMemAlloc:cuMemAlloc").strip()}
  br label %done
done:
  %p = load ptr, ptr %slot
  %got = icmp ne ptr %p, null
  br i1 %got, label %track, label %out
track:
  ; Allocations a program does not free are released before the next run.
  call void @"{_TRACK}"(i32 1, ptr %p, i64 %size)
  br label %out
out:
  ret ptr %p
}}

define void @mgpuMemFree(ptr %p, ptr %stream) {{
entry:
  %isnull = icmp eq ptr %p, null
  br i1 %isnull, label %done, label %free
free:
  call void @ensure_ctx()
  %fr = call i32 {cu('cuMemFree')}(ptr %p)
  %bad = icmp ne i32 %fr, 0
  br i1 %bad, label %fail, label %untrack
fail:
  call void @report(i32 %fr, i32 {s['mgpuMemFree:cuMemFree']}, ptr %p)
  br label %done
untrack:
  call void @"{_TRACK}"(i32 0, ptr %p, i64 0)
  br label %done
done:
  ret void
}}

{forward("mgpuMemcpy(ptr %dst, ptr %src, i64 %size, ptr %stream)", "cuMemcpyAsync",
          "ptr %dst, ptr %src, i64 %size, ptr %stream", arg="ptr %dst", stream="%stream")}
{forward("mgpuMemset32(ptr %dst, i32 %value, i64 %count, ptr %stream)", "cuMemsetD32Async",
          "ptr %dst, i32 %value, i64 %count, ptr %stream", arg="ptr %dst", stream="%stream")}
{forward("mgpuMemset16(ptr %dst, i16 %value, i64 %count, ptr %stream)", "cuMemsetD16Async",
          "ptr %dst, i32 %v, i64 %count, ptr %stream", arg="ptr %dst", stream="%stream",
          before="%v = zext i16 %value to i32")}"""


# The spin kernel of perturbation: holds its stream for a number of SM clock cycles.
SPIN_KERNEL = "gpurunner_spin"
SPIN_IR = f"""
declare i64 @llvm.nvvm.read.ptx.sreg.clock64()
define ptx_kernel void @{SPIN_KERNEL}(i64 %cycles) {{
entry:
  %start = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  br label %loop
loop:
  %now = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  %spent = sub i64 %now, %start
  %more = icmp ult i64 %spent, %cycles
  br i1 %more, label %loop, label %done
done:
  ret void
}}
"""
SPIN_CYCLES_PER_US = 1800  # about an H100/H200 SM clock; the length only needs to be rough
PERTURB_ACTIONS = ("none", "host delay", "spin kernel")


def perturb_settings(env: Mapping[str, str]) -> tuple[str, float] | None:
    """``(seed, max delay in seconds)`` when the run's env asks for perturbation, else None."""
    seed = (env.get("GPURUNNER_PERTURB") or "").strip()
    if not seed:
        return None
    try:
        max_us = float(env.get("GPURUNNER_PERTURB_MAX_US", "200"))
    except ValueError:
        max_us = 200.0
    return seed, max(max_us, 0.0) / 1e6


HOT_FUNCTIONS = ("mgpuModuleGetFunction", "mgpuLaunchKernel", "mgpuStreamCreate",
                 "mgpuStreamDestroy", "mgpuStreamSynchronize", "mgpuStreamWaitEvent",
                 "mgpuEventCreate", "mgpuEventDestroy", "mgpuEventSynchronize",
                 "mgpuEventRecord", "mgpuMemAlloc", "mgpuMemFree", "mgpuMemcpy",
                 "mgpuMemset32", "mgpuMemset16")


# ----------------------------------------------------------------------------- provider
@dataclass
class _RunState:
    thread: int = 0
    errors: list[str] = field(default_factory=list)
    sticky: bool = False
    registered: dict[int, int] = field(default_factory=dict)  # host ptr -> bytes
    allocations: dict[int, int] = field(default_factory=dict)  # device ptr -> bytes
    env: Mapping[str, str] = field(default_factory=dict)


class CudaRuntimeProvider(Provider):
    """The ``mgpu*`` functions over ``cuda.bindings`` / the driver, for the cuda backend."""

    name = "mlir_cuda_runtime"
    aliases = ("cuda-runtime-wrappers", "cuda_runtime_wrappers", "mlir_cuda_runtime")
    # Kernel images are our container format: a real upstream library could not
    # load them, so on the cuda backend the built-in runtime always serves.
    replaces_real_library = True

    def __init__(self) -> None:
        super().__init__()
        self._lib = None
        self._callbacks: list = []
        self._ctx_slot: ctypes.c_void_p | None = None
        self._ordinal: int | None = None
        self._context = None
        self._run = _RunState()
        self._state_lock = threading.RLock()
        self._load_lock = threading.Lock()
        # (context generation, image digest) -> (CUmodule, KernelImage | None)
        self._modules: dict[tuple[int, str], tuple[int, KernelImage | None]] = {}
        self._module_refs: dict[int, int] = {}
        self._functions: dict[int, KernelSite] = {}
        self._host_ops: dict[str, list[str]] = {}
        self.timings: dict[str, float] = {}
        self.compiles = 0
        self._previous: _RunState | None = None
        self.released = (0, 0)  # (allocations, registrations) freed at the last run start
        self._perturb_lock = threading.Lock()
        self._perturb_rng: random.Random | None = None
        self._perturb_max = 0.0
        self._spin: tuple[int, int, int] | None = None  # (context generation, module, function)
        self._launch_raw = None
        self.perturbations = {a: 0 for a in PERTURB_ACTIONS}  # what the last runs chose

    # ---------------------------------------------------------------- symbols
    def build_symbols(self) -> Mapping[str, int]:
        imports = {f"{_PREFIX}{name}": driver.driver_function(name) for name in _DRIVER_DECLS}
        report = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.c_int32,
                                  ctypes.c_void_p)(self._report)
        self._callbacks.append(report)
        imports[_REPORT] = ctypes.cast(report, ctypes.c_void_p).value
        track = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_void_p, ctypes.c_int64)(
            self._track)
        self._callbacks.append(track)
        imports[_TRACK] = ctypes.cast(track, ctypes.c_void_p).value
        perturb = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_void_p)(self._perturb_op)
        self._callbacks.append(perturb)
        imports[_PERTURB] = ctypes.cast(perturb, ctypes.c_void_p).value
        imports[ASSERT_FAIL] = core().symbols[ASSERT_FAIL]
        self._lib = compile_ir(_runtime_ir(), opt=2, name="gpurunner_cuda_runtime",
                               exports=[*HOT_FUNCTIONS, _CTX_GLOBAL, _LAST_FN_GLOBAL,
                                        _PERTURB_GLOBAL, *_POOL_GLOBALS],
                               imports=imports)
        addrs = {name: self._lib.address(name) for name in HOT_FUNCTIONS}
        self._ctx_slot = ctypes.c_void_p.from_address(self._lib.address(_CTX_GLOBAL))
        self._last_fn = ctypes.c_void_p.from_address(self._lib.address(_LAST_FN_GLOBAL))
        self._perturb_flag = ctypes.c_int32.from_address(self._lib.address(_PERTURB_GLOBAL))
        a = self._lib.address
        self._pool_free = (ctypes.c_void_p * POOL).from_address(a("streams.free"))
        self._pool_free_n = ctypes.c_int64.from_address(a("streams.free_count"))
        self._pool_all = (ctypes.c_void_p * POOL).from_address(a("streams.all"))
        self._pool_all_n = ctypes.c_int64.from_address(a("streams.all_count"))
        for name, (restype, argtypes) in _PY_CALLBACKS.items():
            cb = ctypes.CFUNCTYPE(restype, *argtypes)(getattr(self, "_py_" + name))
            self._callbacks.append(cb)
            addrs[name] = ctypes.cast(cb, ctypes.c_void_p).value
        return addrs

    # ---------------------------------------------------------------- runs
    def start_run(self, run) -> None:
        env = getattr(run, "env", None) or os.environ
        self.symbols()  # compiled before the first run needs them
        with self._state_lock:
            self._run = _RunState(thread=threading.get_ident(), env=env)
            self._host_ops = {}
            self._last_fn.value = None
            poisoned = process_unusable()
            if poisoned:
                raise ExecutionError(
                    "error: CUDA cannot be used again in this process: an earlier run hit a "
                    f"sticky error ({poisoned})\n  note: the driver requires a new process; "
                    "the plug-in's worker executor (the default for integration tests) "
                    "starts one for the next test")
            ordinal = driver.select_ordinal(env)
            self._use_device(ordinal)
            self._check_context()
            self._release_previous()
            self._unload_unused()
            self._refill_stream_pool()
            self._configure_perturbation(env)

    def finish_run(self, run) -> None:
        with self._state_lock:
            state = self._run
            if self._context is not None and self._context.alive:
                code = self._context.synchronize()
                if code != 0:
                    op, locs, detail = "gpu op", None, self._describe_last_kernel()
                    if code in STICKY and self._last_fn.value:
                        op = "gpu.launch_func"
                        detail, locs = self._kernel_facts(self._last_fn.value)
                    self._record(code, "cuCtxSynchronize", "the end of the run", detail, op,
                                 locs)
            # What the program left (allocations, host registrations) is released when
            # the next run starts: an async task of this run may still be finishing.
            self._previous = state
            if state.sticky:
                mark_process_unusable(state.errors[0].splitlines()[0] if state.errors
                                      else "sticky CUDA error")
            self._run = _RunState()
            if isinstance(getattr(run, "timings", None), dict):
                for k, v in self.timings.items():
                    run.timings[k] = v
            self.timings = {}
        if state.errors:
            extra = len(state.errors) - 1
            msg = state.errors[0]
            if extra:
                msg += f"\n  note: {extra} later CUDA error(s) in the same run not shown"
            if state.sticky:
                msg += ("\n  note: this error leaves CUDA unusable in this process (the "
                        "driver requires a new one); the plug-in runs the next test in a "
                        "fresh worker process")
            raise ExecutionError(msg)

    def _use_device(self, ordinal: int) -> None:
        if self._ordinal != ordinal or self._context is None:
            self._ordinal = ordinal
            self._context = driver.context(ordinal)
        handle = self._context.handle()
        self._ctx_slot.value = handle

    def _check_context(self) -> None:
        """Wait for earlier runs' work; a sticky error found now makes the process unusable."""
        code = self._context.synchronize()
        if code in STICKY:
            text = driver.error_text(code)
            mark_process_unusable(text)
            raise ExecutionError(f"error: the GPU context is unusable: {text} (left by an "
                                 f"earlier run in this process)")

    def _release_previous(self) -> None:
        """Free device memory and host registrations the previous run left behind."""
        prev, self._previous = self._previous, None
        if prev is None:
            return
        for ptr in prev.registered:
            driver.raw("cuMemHostUnregister")(ptr)
        for ptr in prev.allocations:
            driver.raw("cuMemFree")(ptr)
        self.released = (len(prev.allocations), len(prev.registered))

    def _track(self, kind: int, ptr: int, size: int) -> None:
        """Called from mgpuMemAlloc / mgpuMemFree after the driver succeeded."""
        try:
            with self._state_lock:
                if kind:
                    self._run.allocations[ptr] = size
                else:
                    self._run.allocations.pop(ptr, None)
        except Exception:  # never raise into JIT code
            pass

    def _refill_stream_pool(self) -> None:
        """Every stream of earlier runs is idle now (the context was synchronised)."""
        n = self._pool_all_n.value
        ctypes.memmove(self._pool_free, self._pool_all, n * ctypes.sizeof(ctypes.c_void_p))
        self._pool_free_n.value = n

    def _unload_unused(self) -> None:
        """Modules of earlier runs go now: no thread of those runs can still use them."""
        for key, (handle, _image) in list(self._modules.items()):
            driver.unload_module(handle)
            del self._modules[key]
        self._module_refs.clear()
        self._functions.clear()

    # ---------------------------------------------------------------- perturbation
    def _configure_perturbation(self, env: Mapping[str, str]) -> None:
        """Switch the hot paths' perturbation call on or off for this run."""
        settings = perturb_settings(env)
        with self._perturb_lock:
            self._perturb_flag.value = 0
            self._perturb_rng = None
            if settings is None:
                return
            seed, self._perturb_max = settings
            self._perturb_rng = random.Random(f"{seed}:cuda-streams")
            self.perturbations = {a: 0 for a in PERTURB_ACTIONS}
        self._spin_function()  # built now: a failure fails the run here, not inside a task
        self._perturb_flag.value = 1

    def _spin_function(self) -> int:
        """The spin kernel in the current context (compiled and loaded once per context)."""
        generation = self._context.generation
        if self._spin is not None and self._spin[0] == generation:
            return self._spin[2]
        try:
            info = driver.device_info(self._ordinal)
            ptx = nvptx.compile_ptx(SPIN_IR, info.arch, kernels=[SPIN_KERNEL], opt=1,
                                    name=SPIN_KERNEL)
            module = driver.load_module(driver.link_cubin(ptx, SPIN_KERNEL), SPIN_KERNEL)
            function = driver.module_function(module, SPIN_KERNEL)
        except Exception as err:
            raise ExecutionError(f"error: GPURUNNER_PERTURB: the perturbation spin kernel "
                                 f"could not be loaded: {err}") from None
        self._spin = (generation, module, function)
        return function

    def _perturb_op(self, site: int, stream: int) -> None:
        """Called from the IR before work is enqueued on ``stream`` (perturbation on)."""
        try:
            with self._perturb_lock:
                rng = self._perturb_rng
                if rng is None:
                    return
                action = PERTURB_ACTIONS[rng.randrange(len(PERTURB_ACTIONS))]
                delay = rng.random() * self._perturb_max
                self.perturbations[action] += 1
            if action == "host delay":
                time.sleep(delay)
            elif action == "spin kernel" and self._spin is not None:
                self._enqueue_spin(stream, int(delay * 1e6 * SPIN_CYCLES_PER_US))
        except Exception as err:  # never let an exception cross into JIT code
            with self._state_lock:
                self._run.errors.append(f"error: GPURUNNER_PERTURB: perturbing a stream "
                                        f"failed: {type(err).__name__}: {err}")

    def _enqueue_spin(self, stream: int, cycles: int) -> None:
        if self._launch_raw is None:
            u = ctypes.c_uint
            self._launch_raw = ctypes.CFUNCTYPE(
                ctypes.c_int, ctypes.c_void_p, u, u, u, u, u, u, u, ctypes.c_void_p,
                ctypes.c_void_p, ctypes.c_void_p)(driver.driver_function("cuLaunchKernel"))
        arg = ctypes.c_uint64(max(cycles, 0))
        params = (ctypes.c_void_p * 1)(ctypes.addressof(arg))
        code = self._launch_raw(self._spin[2], 1, 1, 1, 1, 1, 1, 0, stream or None,
                                params, None)
        if code != 0:
            self._record(code, "cuLaunchKernel", "the perturbation spin kernel "
                         "(GPURUNNER_PERTURB)", "", "gpu op")

    # ---------------------------------------------------------------- errors
    def _report(self, code: int, site: int, arg: int) -> int:
        """Called from the IR when a driver call fails; returns 1 to stop the run now."""
        try:
            mgpu, op, call = _SITES[site] if 0 <= site < len(_SITES) else ("?", "gpu op", "?")
            detail, locs = "", None
            if op == "gpu.launch_func":
                if call == "cuModuleGetFunction" and arg:
                    detail = f"kernel '{ctypes.string_at(arg).decode(errors='replace')}'"
                else:
                    detail, locs = self._kernel_facts(arg)
                    # The launch itself failed, on the launching thread: the host code
                    # named its own gpu.launch_func just before the call.
                    site = core().take_launch_site() if mgpu == "mgpuLaunchKernel" else ""
                    if site:
                        locs = [site]
            elif code in STICKY and self._last_fn.value:
                # A kernel fault surfaces at the next synchronisation: blame the kernel.
                op = "gpu.launch_func"
                detail, locs = self._kernel_facts(self._last_fn.value)
                detail = "the faulting kernel is most likely the last one launched: " + detail
            elif call in ("cuStreamSynchronize", "cuEventSynchronize"):
                detail = self._describe_last_kernel()
            self._record(code, call, mgpu, detail, op, locs)
            return 1 if threading.get_ident() == self._run.thread else 0
        except Exception:  # never let an exception cross into JIT code
            return 0

    def _kernel_facts(self, fn: int) -> tuple[str, list[str] | None]:
        site = self._functions.get(int(fn or 0))
        if site is not None:
            return site.describe(), list(site.launches) or None
        return self._describe_kernel(fn), None

    def _record(self, code: int, call: str, where: str, detail: str = "",
                op: str | None = None, locs: list[str] | None = None) -> None:
        text = driver.error_text(code)
        if op is None:
            op = "gpu op"
        if locs is None:
            locs = []
            for name in _SITE_OPS.get(op, ()):
                locs += self._host_ops.get(name, [])
        loc = f"{locs[0]}: " if len(locs) == 1 else ""
        msg = f"{loc}error: '{op}' failed on the GPU: {text}"
        if detail:
            msg += f"\n  note: {detail}"
        if len(locs) > 1:
            msg += f"\n  note: {op} ops of this program: " + ", ".join(locs[:5])
        msg += f"\n  note: reported by {call} in {where}"
        with self._state_lock:
            if code in STICKY and self._run.sticky and call == "cuCtxSynchronize":
                return  # the same fault again, seen when the run ends
            self._run.errors.append(msg)
            if code in STICKY:
                self._run.sticky = True

    def _describe_kernel(self, fn: int) -> str:
        site = self._functions.get(int(fn or 0))
        if site is not None:
            return site.describe()
        name = driver.function_name(int(fn or 0))
        return f"kernel '{name}'" if name else ""

    def _describe_last_kernel(self) -> str:
        fn = self._last_fn.value if self._lib is not None else None
        if not fn:
            return ""
        return "the last kernel launched was " + self._describe_kernel(fn)

    # ---------------------------------------------------------------- modules
    def _py_mgpuModuleLoad(self, data: int, size: int) -> int:
        return self._load(data, size)

    def _py_mgpuModuleLoadJIT(self, data: int, opt: int, size: int) -> int:
        return self._load(data, size)

    def _load(self, data: int, size: int) -> int:
        try:
            return self.load_image(ctypes.string_at(data, image_size(data, size)))
        except Exception as err:
            msg = str(err) if isinstance(err, ExecutionError) else \
                f"error: loading a GPU module failed: {type(err).__name__}: {err}"
            with self._state_lock:
                self._run.errors.append(msg)
            return 0

    def load_image(self, image: bytes) -> int:
        """CUmodule for an image in the current run's context (compiling through the cache).

        Loads are serialised: async tasks launching the same kernel for the first
        time at once must share one module (and one compilation), not race.
        """
        with self._load_lock:
            return self._load_image(image)

    def _load_image(self, image: bytes) -> int:
        ctx = self._context
        if ctx is None:
            self._use_device(driver.select_ordinal(self._run.env or os.environ))
            ctx = self._context
        ctx.make_current()
        digest = hashlib.sha256(image).hexdigest()
        key = (ctx.generation, digest)
        with self._state_lock:
            hit = self._modules.get(key)
            if hit is not None:
                self._module_refs[hit[0]] = self._module_refs.get(hit[0], 0) + 1
                return hit[0]
        parsed = parse_image(image)
        if parsed is None:
            binary, name = image, "gpu.binary"
        else:
            binary, name = self.cubin_for(parsed), parsed.module
        t = time.perf_counter()
        handle = driver.load_module(binary, name)
        self.timings["gpu_module_load"] = self.timings.get("gpu_module_load", 0.0) + \
            time.perf_counter() - t
        with self._state_lock:
            self._modules[key] = (handle, parsed)
            self._module_refs[handle] = 1
            if parsed is not None:
                for kname, site in parsed.kernels.items():
                    try:
                        self._functions[driver.module_function(handle, kname)] = site
                    except Exception:
                        pass
                for op, locs in parsed.host_ops.items():
                    known = self._host_ops.setdefault(op, [])
                    known += [x for x in locs if x not in known]
        return handle

    def cubin_for(self, image: KernelImage) -> bytes:
        """The cubin of a kernel image for the run's device: disk cache, else compile."""
        info = driver.device_info(self._ordinal)
        api, version = driver.driver_version()
        cache = kernel_cache.cache_for(self._run.env or os.environ)
        key = kernel_cache.make_key([image.ir, info.arch, f"opt={image.opt}",
                                     f"driver={api}:{version}", *nvptx.tool_versions()])
        cubin = cache.get(key)
        if cubin is not None:
            return cubin
        t = time.perf_counter()
        ptx = nvptx.compile_ptx(image.ir, info.arch, kernels=list(image.kernels) or None,
                                opt=image.opt, name=image.module)
        t1 = time.perf_counter()
        cubin = driver.link_cubin(ptx, image.module)
        t2 = time.perf_counter()
        self.compiles += 1
        self.timings["ptx"] = self.timings.get("ptx", 0.0) + t1 - t
        self.timings["cubin"] = self.timings.get("cubin", 0.0) + t2 - t1
        cache.put(key, cubin)
        return cubin

    def _py_mgpuModuleUnload(self, module: int) -> None:
        # Modules stay loaded until the next run starts (a kernel of this run
        # may still be in flight on another thread); unloading is bookkeeping.
        with self._state_lock:
            if module in self._module_refs:
                self._module_refs[module] = max(0, self._module_refs[module] - 1)

    # ---------------------------------------------------------------- host memory
    def _make_context_current(self) -> None:
        """The run's context, current on the calling thread, for driver calls made here.

        The IR entry points do this themselves (``ensure_ctx``); these Python
        ones must too: an ``async.execute`` body runs on a worker thread of the
        async runtime, which starts with no current context, and the driver
        answers CUDA_ERROR_INVALID_CONTEXT there.
        """
        if self._context is None:
            self._use_device(driver.select_ordinal(self._run.env or os.environ))
        else:
            self._context.make_current()

    def _py_mgpuMemHostRegister(self, ptr: int, size: int) -> None:
        if not ptr or not size:
            return
        self._make_context_current()
        code = driver.raw("cuMemHostRegister")(ptr, size, 0)
        if code != 0:
            self._record(code, "cuMemHostRegister", "mgpuMemHostRegister",
                         f"{size} bytes at {ptr:#x}", "gpu.host_register")
            return
        with self._state_lock:
            self._run.registered[ptr] = size

    def _py_mgpuMemHostUnregister(self, ptr: int) -> None:
        if not ptr:
            return
        self._make_context_current()
        code = driver.raw("cuMemHostUnregister")(ptr)
        if code != 0:
            self._record(code, "cuMemHostUnregister", "mgpuMemHostUnregister",
                         f"address {ptr:#x}", "gpu.host_unregister")
            return
        with self._state_lock:
            self._run.registered.pop(ptr, None)

    def _py_mgpuMemHostRegisterMemRef(self, rank: int, desc: int, elem: int) -> None:
        ptr, size, problem = host_register_2021.dense_extent(rank, desc, elem)
        if problem:
            self._record(CUDA_ERROR_INVALID_VALUE, "mgpuMemHostRegisterMemRef",
                         "mgpuMemHostRegisterMemRef", problem, "gpu.host_register")
            return
        self._py_mgpuMemHostRegister(ptr, size)

    def _register_typed(self, symbol: str, rank: int, desc: int) -> None:
        try:
            ptr, size = host_register_2021.fill_typed(symbol, rank, desc)
        except ValueError as err:
            self._record(CUDA_ERROR_INVALID_VALUE, symbol, symbol, str(err).split(": ", 1)[1],
                         symbol, locs=[])
            return
        self._py_mgpuMemHostRegister(ptr, size)

    def _py_mgpuMemHostRegisterFloat(self, rank: int, desc: int) -> None:
        self._register_typed("mgpuMemHostRegisterFloat", rank, desc)

    def _py_mgpuMemHostRegisterInt32(self, rank: int, desc: int) -> None:
        self._register_typed("mgpuMemHostRegisterInt32", rank, desc)

    def _py_mgpuMemHostUnregisterMemRef(self, rank: int, desc: int, elem: int) -> None:
        ptr, _size, _problem = host_register_2021.dense_extent(rank, desc, elem)
        self._py_mgpuMemHostUnregister(ptr)

    def _py_mgpuSetDefaultDevice(self, device: int) -> None:
        try:
            if not 0 <= device < driver.device_count():
                raise driver.CudaUnavailable(f"mgpuSetDefaultDevice({device}): no such device")
            with self._state_lock:
                self._use_device(device)
        except Exception as err:
            with self._state_lock:
                self._run.errors.append(f"error: {err}")


PROVIDER = CudaRuntimeProvider()
