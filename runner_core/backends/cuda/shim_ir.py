"""The cuda runtime's hot paths as LLVM IR text (launch, function lookup, memcpy/memset,
alloc/free, streams, events), with the driver entry points and Python callbacks
they call; compiled once per process by the host JIT (see :mod:`.runtime`)."""

from __future__ import annotations

import ctypes

from .sites import SITE

CUDA_ERROR_INVALID_VALUE = 1
CUDA_ERROR_CONTEXT_IS_DESTROYED = 709
CU_STREAM_NON_BLOCKING = 1
CU_EVENT_DISABLE_TIMING = 2
CU_MEM_ATTACH_GLOBAL = 1
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4
CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5
CU_CLUSTER_SCHEDULING_POLICY_SPREAD = 1
# Streams one run may create before the pool stops tracking them.
POOL = 4096
# Grid and block sizes as the driver takes them (u32), after the launch checks.
TRUNC_SIZES = "\n".join(f"  %{d}32 = trunc i64 %{d} to i32"
                        for d in ("gx", "gy", "gz", "bx", "by", "bz"))
_POOL_GLOBALS = ("streams.free", "streams.free_count", "streams.all", "streams.all_count",
                 "streams.mark")

# Driver entry points the IR calls, with their LLVM signatures.
_DRIVER_DECLS = {
    "cuCtxGetCurrent": "i32 (ptr)",
    "cuCtxSetCurrent": "i32 (ptr)",
    "cuModuleGetFunction": "i32 (ptr, ptr, ptr)",
    "cuLaunchKernel": "i32 (ptr, i32, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr)",
    "cuLaunchKernelEx": "i32 (ptr, ptr, ptr, ptr)",
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
    # TMA tensor maps (tensor_map.py), upstream's signatures.
    "mgpuTensorMapEncodeTiledMemref": (ctypes.c_void_p, (ctypes.c_int64, ctypes.c_void_p,
                                                         *[ctypes.c_int64] * 5,
                                                         ctypes.c_void_p)),
    "mgpuTensorMapEncodeTiled": (None, (ctypes.c_void_p, ctypes.c_int32, ctypes.c_uint32,
                                        *[ctypes.c_void_p] * 5, *[ctypes.c_int32] * 4)),
}
_REPORT = "gpurunner.cuda.report"
_TRACK = "gpurunner.cuda.track"
_CTX_GLOBAL = "gpurunner_cuda_context"
_PERTURB = "gpurunner.cuda.perturb"
_PERTURB_GLOBAL = "gpurunner_cuda_perturb"
_LAST_FN_GLOBAL = "gpurunner_cuda_last_function"


# The mgpu functions defined in IR by _runtime_ir (the rest are Python callbacks).
HOT_FUNCTIONS = ("mgpuModuleGetFunction", "mgpuLaunchKernel", "mgpuLaunchClusterKernel",
                 "mgpuStreamCreate",
                 "mgpuStreamDestroy", "mgpuStreamSynchronize", "mgpuStreamWaitEvent",
                 "mgpuEventCreate", "mgpuEventDestroy", "mgpuEventSynchronize",
                 "mgpuEventRecord", "mgpuMemAlloc", "mgpuMemFree", "mgpuMemcpy",
                 "mgpuMemset32", "mgpuMemset16")


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

    def launch_checks(name: str, sizes: tuple[str, ...]) -> str:
        """What both launch wrappers do before launching: make the context current, note
        the kernel for error sites, refuse sizes over 32 bits (INVALID_VALUE, as the
        driver's u32 parameters would truncate them), and opt in to more than 48 KiB
        of dynamic shared memory; ends at the ``launch`` label."""
        ors = [f"  %o1 = or i64 %{sizes[0]}, %{sizes[1]}"] + [
            f"  %o{i} = or i64 %o{i - 1}, %{v}" for i, v in enumerate(sizes[2:], 2)]
        setsmem = checked(f"{cu('cuFuncSetAttribute')}(ptr %f, i32 "
                          f"{CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES}, i32 %smem)",
                          f"{name}:cuFuncSetAttribute", "ptr %f").strip()
        launch_site = "cuLaunchKernel" if name == "mgpuLaunchKernel" else "cuLaunchKernelEx"
        return "\n".join([
            "  call void @ensure_ctx()",
            f"  %sok = call i1 @stream_ok(ptr %stream, i32 {s[f'{name}:{launch_site}']})",
            "  br i1 %sok, label %go, label %refused", "refused:", "  ret void", "go:",
            f"  store ptr %f, ptr @{_LAST_FN_GLOBAL}", *ors,
            f"  %high = lshr i64 %o{len(sizes) - 1}, 32", "  %toobig = icmp ne i64 %high, 0",
            "  br i1 %toobig, label %baddims, label %dims", "baddims:",
            f"  call void @report(i32 {CUDA_ERROR_INVALID_VALUE}, "
            f"i32 {s[name + ':launch dimensions']}, ptr %f)",
            "  ret void", "dims:", "  %bigsmem = icmp ugt i32 %smem, 49152",
            "  br i1 %bigsmem, label %setsmem, label %launch", "setsmem:", f"  {setsmem}",
            "  br label %launch", "launch:"])

    def forward(signature: str, driver: str, args: str, *, arg: str = "ptr null",
                stream: str = "", before: str = "", check: str = "") -> str:
        """``define void signature``: make the context current, refuse a destroyed
        stream (``check``, default ``stream``), give perturbation its chance on
        ``stream`` (when named), run the ``before`` instruction, then the checked driver
        call ``driver(args)``; a failure is reported with ``arg``."""
        site = f"{signature.split('(', 1)[0]}:{driver}"
        perturb = f"  call void @perturb(i32 {s[site]}, ptr {stream})\n" if stream else ""
        check = check or stream
        if check:
            perturb = (f"  %sok = call i1 @stream_ok(ptr {check}, i32 {s[site]})\n"
                       f"  br i1 %sok, label %go, label %refused\nrefused:\n  ret void\n"
                       f"go:\n{perturb}")
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
; Free-list entries below the mark were put there between runs (never the program's):
; only those above it can be streams this run's program destroyed.
@streams.mark = global i64 0
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
{launch_checks("mgpuLaunchKernel", ("gx", "gy", "gz", "bx", "by", "bz"))}
{TRUNC_SIZES}
  call void @perturb(i32 {s['mgpuLaunchKernel:cuLaunchKernel']}, ptr %stream)
  {checked(f"{cu('cuLaunchKernel')}(ptr %f, i32 %gx32, i32 %gy32, i32 %gz32, i32 %bx32, i32 %by32, i32 %bz32, i32 %smem, ptr %stream, ptr %params, ptr %extra)",
           "mgpuLaunchKernel:cuLaunchKernel", "ptr %f").strip()}
  ret void
}}

; sm_90 thread-block clusters, as upstream's wrapper: cuLaunchKernelEx with the
; cluster size and the "spread" scheduling preference.  CUlaunchConfig is
; 7 x u32 (dims, smem), stream, attrs, u32 count; CUlaunchAttribute is u32 id,
; 4 bytes padding, a 64-byte value union (cuda.h, CUDA 12).
define void @mgpuLaunchClusterKernel(ptr %f, i64 %cx, i64 %cy, i64 %cz, i64 %gx, i64 %gy,
                                     i64 %gz, i64 %bx, i64 %by, i64 %bz, i32 %smem,
                                     ptr %stream, ptr %params, ptr %extra, i64 %n) {{
entry:
  %attrs = alloca [2 x {{ i32, [4 x i8], [8 x i64] }}], align 8
  %config = alloca {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }}, align 8
{launch_checks("mgpuLaunchClusterKernel",
                ("gx", "gy", "gz", "bx", "by", "bz", "cx", "cy", "cz"))}
  call void @llvm.memset.p0.i64(ptr %attrs, i8 0, i64 144, i1 false)
  store i32 {CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION}, ptr %attrs
  %v0 = getelementptr i8, ptr %attrs, i64 8
  %cx32 = trunc i64 %cx to i32
  %cy32 = trunc i64 %cy to i32
  %cz32 = trunc i64 %cz to i32
  store i32 %cx32, ptr %v0
  %v0y = getelementptr i8, ptr %v0, i64 4
  store i32 %cy32, ptr %v0y
  %v0z = getelementptr i8, ptr %v0, i64 8
  store i32 %cz32, ptr %v0z
  %a1 = getelementptr i8, ptr %attrs, i64 72
  store i32 {CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE}, ptr %a1
  %v1 = getelementptr i8, ptr %a1, i64 8
  store i32 {CU_CLUSTER_SCHEDULING_POLICY_SPREAD}, ptr %v1
{TRUNC_SIZES}
  %c0 = insertvalue {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }} zeroinitializer, i32 %gx32, 0
  %c1 = insertvalue {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }} %c0, i32 %gy32, 1
  %c2 = insertvalue {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }} %c1, i32 %gz32, 2
  %c3 = insertvalue {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }} %c2, i32 %bx32, 3
  %c4 = insertvalue {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }} %c3, i32 %by32, 4
  %c5 = insertvalue {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }} %c4, i32 %bz32, 5
  %c6 = insertvalue {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }} %c5, i32 %smem, 6
  %c7 = insertvalue {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }} %c6, ptr %stream, 7
  %c8 = insertvalue {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }} %c7, ptr %attrs, 8
  %c9 = insertvalue {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }} %c8, i32 2, 9
  store {{ i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }} %c9, ptr %config
  call void @perturb(i32 {s['mgpuLaunchClusterKernel:cuLaunchKernelEx']}, ptr %stream)
  {checked(f"{cu('cuLaunchKernelEx')}(ptr %config, ptr %f, ptr %params, ptr %extra)",
           "mgpuLaunchClusterKernel:cuLaunchKernelEx", "ptr %f").strip()}
  ret void
}}
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare i64 @llvm.smin.i64(i64, i64)

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
  %mark = load i64, ptr @streams.mark
  %lower = call i64 @llvm.smin.i64(i64 %mark, i64 %n1)
  store atomic i64 %lower, ptr @streams.mark monotonic, align 8
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

; Is %s a stream the program destroyed (kept in the pool, not yet handed out again)?
; The driver refuses such a handle (CUDA_ERROR_CONTEXT_IS_DESTROYED); so do we, though
; the driver's stream still lives.  Only the entries above the mark are searched: the
; program's own destroys (streams are reused LIFO, so there are few).
define internal i1 @pooled(ptr %s) {{
entry:
  %any = load atomic i64, ptr @streams.free_count monotonic, align 8
  %low = load atomic i64, ptr @streams.mark monotonic, align 8
  %none = icmp sle i64 %any, %low
  %isnull = icmp eq ptr %s, null
  %skip = or i1 %none, %isnull
  br i1 %skip, label %no, label %scan
scan:
  call void @pool_lock()
  %n = load i64, ptr @streams.free_count
  %from = load i64, ptr @streams.mark
  br label %loop
loop:
  %i = phi i64 [%from, %scan], [%i1, %next]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %test, label %notfound
test:
  %fp = getelementptr [{POOL} x ptr], ptr @streams.free, i64 0, i64 %i
  %f = load ptr, ptr %fp
  %hit = icmp eq ptr %f, %s
  %i1 = add i64 %i, 1
  br i1 %hit, label %found, label %next
next:
  br label %loop
found:
  call void @pool_unlock()
  ret i1 true
notfound:
  call void @pool_unlock()
  br label %no
no:
  ret i1 false
}}

; Refuse work on a destroyed stream as the driver would: report it, return 0.
define internal i1 @stream_ok(ptr %s, i32 %site) alwaysinline {{
entry:
  %dead = call i1 @pooled(ptr %s)
  br i1 %dead, label %bad, label %good
bad:
  call void @report(i32 {CUDA_ERROR_CONTEXT_IS_DESTROYED}, i32 %site, ptr %s)
  ret i1 false
good:
  ret i1 true
}}

define void @mgpuStreamDestroy(ptr %s) {{
entry:
  %ok = call i1 @stream_ok(ptr %s, i32 {s['mgpuStreamDestroy:cuStreamDestroy']})
  br i1 %ok, label %live, label %done
live:
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

{forward("mgpuStreamSynchronize(ptr %s)", "cuStreamSynchronize", "ptr %s", check="%s")}
{forward("mgpuStreamWaitEvent(ptr %s, ptr %e)", "cuStreamWaitEvent", "ptr %s, ptr %e, i32 0",
          check="%s")}
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
