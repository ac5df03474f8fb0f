"""The CPU backend's provider of the ``mgpu*`` GPU runtime ABI.

Answers ``--shared-libs`` names of the CUDA runtime wrappers
(``mlir_cuda_runtime``, the seed's ``cuda-runtime-wrappers``) when the backend
is ``cpu`` (``CpuBackend.runtime_provider``), replacing a real file of that name: host code lowered by
:mod:`runner_core.codegen.gpu_host` calls the same symbols on every backend.

* Memory, copies, fills, streams and events are small functions in LLVM IR
  (no Python per call).  Device memory is host memory (``aligned_alloc``,
  256-byte aligned like ``cuMemAlloc``); ``host_shared`` and
  ``host_register`` need nothing more.
* Streams execute eagerly: every operation completes before the call that
  enqueues it returns.  That is a valid schedule of CUDA's stream model (an
  in-order queue whose work has finished), so events are always complete and
  synchronisation is free; programs that are correct on a GPU stay correct.
* ``mgpuModuleLoad`` receives the LLVM IR produced by
  :mod:`runner_core.backends.cpu.kernel` and JIT-compiles it (cached per
  process by content); ``mgpuModuleGetFunction`` returns a kernel descriptor.
* ``mgpuLaunchKernel`` runs the grid on a pool of OS threads: each calls the
  runtime's ``gpurunner_cpu_run_blocks`` through ctypes (the GIL is released
  while native code runs) and claims blocks from a shared counter until none
  are left.  A failing launch (deadlocked barrier, ``cf.assert`` in a kernel,
  bad configuration) stops the program at the launch, and the run fails with
  the launch's message.
* ``GPURUNNER_PERTURB=<seed>`` in the run's environment (the plug-in's
  ``--gpurunner-repeat``) shakes the order blocks run in, as a GPU's block
  scheduler may: each launch claims its blocks in a random affine permutation
  of the linear order (also the one-thread order of kernels that
  ``gpu.printf``) with a random chunk size, from a generator seeded with
  ``<seed>``.  Off, the runtime pays one test of a launch-record slot per block.
"""

from __future__ import annotations

import ctypes
import hashlib
import math
import os
import random
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from runner_core.errors import ExecutionError
from runner_core.runtime import host_register_2021
from runner_core.runtime.core import ASSERT_FAIL, core
from runner_core.runtime.provider import Provider, c_callback
from runner_core.targets.host import compile_ir

from . import fibers
from . import layout as L
from .kernel import KERNEL_OPT_LEVEL, MAX_THREADS_PER_BLOCK

_SHIM_HEAD = r"""
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare i32 @py_launch(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
declare ptr @py_error()
declare ptr @py_module_load(ptr, i64)
declare void @py_module_unload(ptr)
declare ptr @py_get_function(ptr, ptr)
declare void @_gpurunner_assert_fail(ptr, ptr)
declare i32 @py_register_typed(i32, i64, ptr)

@handles = internal global [2 x i64] zeroinitializer
@empty = private unnamed_addr constant [1 x i8] zeroinitializer

; A non-zero status from a Python callback stops the program with its message.
define internal void @stop_on_error(i32 %r) {
  %bad = icmp ne i32 %r, 0
  br i1 %bad, label %fail, label %ok
fail:
  %msg = call ptr @py_error()
  call void @_gpurunner_assert_fail(ptr %msg, ptr @empty)
  unreachable
ok:
  ret void
}
define ptr @mgpuModuleLoad(ptr %data, i64 %size) {
  %m = call ptr @py_module_load(ptr %data, i64 %size)
  ret ptr %m
}
define void @mgpuModuleUnload(ptr %m) {
  call void @py_module_unload(ptr %m)
  ret void
}
define ptr @mgpuModuleGetFunction(ptr %m, ptr %name) {
  %f = call ptr @py_get_function(ptr %m, ptr %name)
  ret ptr %f
}
define void @mgpuLaunchKernel(ptr %f, i64 %gx, i64 %gy, i64 %gz, i64 %bx, i64 %by, i64 %bz,
                              i32 %smem, ptr %stream, ptr %params, ptr %extra, i64 %n) {
  %r = call i32 @py_launch(ptr %f, i64 %gx, i64 %gy, i64 %gz, i64 %bx, i64 %by, i64 %bz,
                           i32 %smem, ptr %stream, ptr %params, ptr %extra, i64 %n)
  call void @stop_on_error(i32 %r)
  ret void
}
define ptr @mgpuStreamCreate() {
  ret ptr @handles
}
define ptr @mgpuEventCreate() {
  %e = getelementptr i64, ptr @handles, i64 1
  ret ptr %e
}
define ptr @mgpuMemAlloc(i64 %size, ptr %stream, i8 %shared) {
  %zero = icmp eq i64 %size, 0
  br i1 %zero, label %none, label %some
none:
  ret ptr null
some:
  %a = add i64 %size, 255
  %r = and i64 %a, -256
  %p = call ptr @aligned_alloc(i64 256, i64 %r)
  ret ptr %p
}
define void @mgpuMemFree(ptr %p, ptr %stream) {
  call void @free(ptr %p)
  ret void
}
define void @mgpuMemcpy(ptr %dst, ptr %src, i64 %n, ptr %stream) {
  call void @llvm.memmove.p0.p0.i64(ptr %dst, ptr %src, i64 %n, i1 false)
  ret void
}
"""

# Streams are eager and host memory needs no registration: these have nothing to do.
_NO_OPS = ("mgpuStreamDestroy(ptr %s)", "mgpuStreamSynchronize(ptr %s)",
           "mgpuStreamWaitEvent(ptr %s, ptr %e)", "mgpuEventDestroy(ptr %e)",
           "mgpuEventSynchronize(ptr %e)", "mgpuEventRecord(ptr %e, ptr %s)",
           "mgpuMemHostRegister(ptr %p, i64 %n)", "mgpuMemHostUnregister(ptr %p)",
           "mgpuMemHostRegisterMemRef(i64 %rank, ptr %d, i64 %esize)",
           "mgpuMemHostUnregisterMemRef(i64 %rank, ptr %d, i64 %esize)",
           "mgpuSetDefaultDevice(i32 %d)")


def _memset(bits: int) -> str:
    """``mgpuMemset{bits}``: store the low ``bits`` of the i32 value ``count`` times."""
    value = "%v" if bits == 32 else "%w"
    narrow = "" if bits == 32 else f"  %w = trunc i32 %v to i{bits}\n"
    return f"""define void @mgpuMemset{bits}(ptr %dst, i32 %v, i64 %count, ptr %stream) {{
entry:
{narrow}  br label %loop
loop:
  %i = phi i64 [0, %entry], [%i1, %body]
  %more = icmp ult i64 %i, %count
  br i1 %more, label %body, label %done
body:
  %p = getelementptr i{bits}, ptr %dst, i64 %i
  store i{bits} {value}, ptr %p
  %i1 = add i64 %i, 1
  br label %loop
done:
  ret void
}}
"""


def _typed_register(kind: int, name: str) -> str:
    """2021's ``mgpuMemHostRegisterFloat``-style helper: fill in Python (by kind number)."""
    return f"""define void @{name}(i64 %rank, ptr %d) {{
  %r = call i32 @py_register_typed(i32 {kind}, i64 %rank, ptr %d)
  call void @stop_on_error(i32 %r)
  ret void
}}
"""


_SHIM_IR = "".join([
    _SHIM_HEAD,
    *(f"define void @{sig} {{\n  ret void\n}}\n" for sig in _NO_OPS),
    _memset(32), _memset(16),
    *(_typed_register(k, n) for k, n in enumerate(host_register_2021.HELPER_KINDS)),
])

SYMBOLS = ("mgpuModuleLoad", "mgpuModuleUnload", "mgpuModuleGetFunction", "mgpuLaunchKernel",
           "mgpuStreamCreate", "mgpuStreamDestroy", "mgpuStreamSynchronize",
           "mgpuStreamWaitEvent", "mgpuEventCreate", "mgpuEventDestroy", "mgpuEventSynchronize",
           "mgpuEventRecord", "mgpuMemAlloc", "mgpuMemFree", "mgpuMemcpy", "mgpuMemset32",
           "mgpuMemset16", "mgpuMemHostRegister", "mgpuMemHostUnregister",
           "mgpuMemHostRegisterMemRef", "mgpuMemHostUnregisterMemRef", "mgpuSetDefaultDevice",
           *host_register_2021.HELPER_KINDS)

_LOAD_T = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
_UNLOAD_T = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_GETFN_T = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)
_LAUNCH_T = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, *([ctypes.c_int64] * 6),
                             ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                             ctypes.c_int64)
_ERROR_T = ctypes.CFUNCTYPE(ctypes.c_void_p)
_TYPED_T = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p)

_KDESC_RE = re.compile(r'^@"?(__gpurunner_kdesc\.[^"\s]+)"?\s*=', re.M)
MAX_BLOCK_DIMS = (1024, 1024, 64)
MAX_GRID_DIMS = (2**31 - 1, 65535, 65535)
# Shared memory per block on NVIDIA GPUs: statically allocated (workgroup attributions,
# module-level workgroup globals) at most 48 KiB, ptxas's limit; static plus dynamic at most
# the device's opt-in maximum, 227 KiB on sm_90 (H100/H200), the largest current value.
# The cuda backend raises a kernel's dynamic limit as upstream's runtime does, so a launch
# within these bounds runs on both backends and one beyond them fails on both.
MAX_STATIC_SHARED_BYTES = 48 * 1024
MAX_SHARED_BYTES_PER_BLOCK = 227 * 1024


@dataclass
class KernelEntry:
    name: str
    flags: int
    static_bytes: int  # the block's shared area here (laid out for every kernel of the module)
    where: str = ""  # launch sites, "file:line:col[, ...]"
    gpu_static_bytes: int = 0  # workgroup memory this kernel would allocate on a GPU

    def prefix(self) -> str:
        """``file:line:col: `` of the (first) launch site, for diagnostics."""
        return f"{self.where.split(', ')[0]}: " if self.where else ""


class _LoadedModule:
    def __init__(self, lib, kernels: dict[str, int]):
        self.lib = lib
        self.kernels = kernels  # name -> descriptor address
        self.token = ctypes.c_int64(0)  # its address is the module handle


def _workers(env=None) -> int:
    """OS threads running the blocks of a launch: ``GPURUNNER_CPU_THREADS`` or one per CPU."""
    try:
        n = int((os.environ if env is None else env).get("GPURUNNER_CPU_THREADS", "0"))
    except ValueError:
        n = 0
    return n if n > 0 else (os.cpu_count() or 1)


class CpuGpuRuntime(Provider):
    """Built-in ``mgpu*`` runtime of the CPU backend."""

    name = "mlir_cuda_runtime"
    aliases = ("cuda-runtime-wrappers", "cuda_runtime_wrappers", "mlir_cuda_runtime_wrappers")
    replaces_real_library = True

    def __init__(self) -> None:
        super().__init__()
        self._state_lock = threading.Lock()
        self._compiled: dict[str, tuple[object, dict[str, int]]] = {}
        self._modules: dict[int, _LoadedModule] = {}
        self._kernels: dict[int, KernelEntry] = {}
        self._modules_runtime: dict[int, object] = {}  # kernel descriptor -> its runtime
        self._error = ctypes.create_string_buffer(1)
        self._run_error: str | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._callbacks: list = []
        self._env: dict = dict(os.environ)
        self._perturb: random.Random | None = None

    # -- Provider -------------------------------------------------------------
    def build_symbols(self):

        cbs = {
            "py_module_load": _LOAD_T(self._guard(self._module_load, 0)),
            "py_module_unload": _UNLOAD_T(self._guard(self._module_unload, None)),
            "py_get_function": _GETFN_T(self._guard(self._get_function, 0)),
            "py_launch": _LAUNCH_T(self._guard(self._launch, 1)),
            "py_error": _ERROR_T(lambda: ctypes.addressof(self._error)),
            "py_register_typed": _TYPED_T(self._guard(self._register_typed, 1)),
        }
        self._callbacks = list(cbs.values())
        imports = {k: ctypes.cast(v, ctypes.c_void_p).value for k, v in cbs.items()}
        imports[ASSERT_FAIL] = core().symbols[ASSERT_FAIL]
        self._shim = compile_ir(_SHIM_IR, opt=2, exports=SYMBOLS, imports=imports,
                                name="gpurunner_cpu_gpu")
        return dict(self._shim.addresses)

    def start_run(self, run) -> None:
        # Contract 3: the run's environment, not the process's, configures it.
        self._env = dict(getattr(run, "env", None) or os.environ)
        self._run_error = None
        seed = self._env.get("GPURUNNER_PERTURB", "").strip()
        # A stream of its own: the async runtime draws from another generator of the seed.
        self._perturb = random.Random(f"{seed}:cpu-blocks") if seed else None

    def finish_run(self, run) -> None:
        err, self._run_error = self._run_error, None
        if err:
            raise ExecutionError(err)

    # -- errors -----------------------------------------------------------------
    def _fail(self, message: str) -> None:
        self._run_error = self._run_error or message
        self._error = ctypes.create_string_buffer(message.encode())

    def _guard(self, fn, on_error):
        return c_callback(fn, lambda err: self._fail(
            f"error: GPU runtime (cpu backend): {type(err).__name__}: {err}"), on_error)

    # -- host memory ------------------------------------------------------------
    def _register_typed(self, kind: int, rank: int, desc: int) -> int:
        """A 2021 typed helper: fill the memref; registering host memory is free here."""
        try:
            host_register_2021.fill_typed(host_register_2021.HELPER_KINDS[kind], rank, desc)
        except ValueError as err:
            self._fail(f"error: {err}")
            return 1
        return 0

    # -- modules ----------------------------------------------------------------
    def _compile(self, text: str) -> tuple[object, dict[str, int]]:

        rt = fibers.runtime(env=self._env)
        # Kernels link against one runtime (context-switch mode, stack size).
        key = f"{rt.mode}:{rt.stack}:" + hashlib.sha256(text.encode()).hexdigest()
        with self._state_lock:
            hit = self._compiled.get(key)
        if hit is not None:
            return hit
        imports = dict(rt.symbols)
        imports[ASSERT_FAIL] = core().symbols[ASSERT_FAIL]
        names = _KDESC_RE.findall(text)
        lib = compile_ir(text, opt=KERNEL_OPT_LEVEL, exports=names, imports=imports,
                         name="gpu_kernels")
        kernels = {n[len(L.KDESC_PREFIX):]: lib.address(n) for n in names}
        with self._state_lock:
            for addr in kernels.values():
                self._modules_runtime[addr] = rt
            self._compiled.setdefault(key, (lib, kernels))
            return self._compiled[key]

    def _module_load(self, data, size) -> int:
        text = ctypes.string_at(data, size).decode()
        lib, kernels = self._compile(text)
        mod = _LoadedModule(lib, kernels)
        handle = ctypes.addressof(mod.token)

        with self._state_lock:
            self._modules[handle] = mod
            for name, addr in kernels.items():
                k = (ctypes.c_int64 * L.K_SLOTS).from_address(addr)
                where = ctypes.string_at(k[L.K_WHERE]).decode() if k[L.K_WHERE] else ""
                self._kernels[addr] = KernelEntry(name, k[L.K_FLAGS], k[L.K_STATIC], where,
                                                  k[L.K_GPU_STATIC])
        return handle

    def _module_unload(self, handle) -> None:
        with self._state_lock:
            self._modules.pop(handle, None)

    def _get_function(self, handle, name: bytes) -> int:
        mod = self._modules.get(handle)
        kname = name.decode()
        if mod is None:
            if not self._run_error:
                self._fail(f"error: mgpuModuleGetFunction('{kname}'): the GPU module was not "
                           f"loaded")
            return 0
        addr = mod.kernels.get(kname)
        if addr is None:
            self._fail(f"error: mgpuModuleGetFunction: no kernel '{kname}' in the GPU module")
            return 0
        return addr

    # -- launches ---------------------------------------------------------------
    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            with self._state_lock:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(max_workers=max(os.cpu_count() or 1, 2),
                                                    thread_name_prefix="gpurunner-cpu-block")
        return self._pool

    def _launch(self, fn, gx, gy, gz, bx, by, bz, smem, stream, params, extra, nparams) -> int:

        # This launch's own gpu.launch_func (set by the host code just before the
        # call); the kernel's first launch site when the code did not say.
        site = core().take_launch_site()
        kernel = self._kernels.get(fn) if fn else None
        where = f"{site}: " if site else (kernel.prefix() if kernel is not None else "")
        if kernel is None:
            if not self._run_error:
                self._fail(f"{where}error: mgpuLaunchKernel: not a kernel of a loaded GPU "
                           f"module")
            return 1
        grid, block = (gx, gy, gz), (bx, by, bz)
        problem = _check_config(grid, block, smem, kernel.gpu_static_bytes)
        if problem:
            self._fail(f"{where}error: launch of GPU kernel @{kernel.name} with grid "
                       f"{grid} and block {block}: {problem}")
            return 1
        launch = (ctypes.c_int64 * L.LAUNCH_SLOTS)()
        for d in range(3):
            launch[L.L_GRID + d] = grid[d]
            launch[L.L_BLOCK + d] = block[d]
        launch[L.L_PARAMS] = params or 0
        launch[L.L_DYN] = smem
        launch[L.L_KDESC] = fn
        launch[L.L_TOTAL] = gx * gy * gz
        serial = bool(kernel.flags & L.FLAG_SERIAL)
        total = gx * gy * gz
        n = 1 if serial else max(1, min(_workers(self._env), total))
        # Claim several blocks at a time when there are many: the shared counter's
        # cache line would otherwise bounce between workers for every tiny block.
        launch[L.L_CHUNK] = max(1, min(64, total // (n * 16)))
        if self._perturb is not None:
            self._perturb_order(launch, total)
        workers = [(ctypes.c_int64 * L.WORKER_SLOTS)() for _ in range(n)]
        for w in workers:
            w[L.W_LAUNCH] = ctypes.addressof(launch)
        failures: list[str] = []
        rt = self._modules_runtime.get(fn)
        jobs = [lambda w=w: self._run_worker(w, failures, rt) for w in workers]
        futures = [self._executor().submit(j) for j in jobs[1:]]
        jobs[0]()
        for f in futures:
            f.result()
        if failures or launch[L.L_FAILED]:
            msg = failures[0] if failures else "error: GPU kernel @{kernel} failed"
            if msg.startswith("error:"):
                msg = where + msg
            self._fail(msg.replace("{kernel}", kernel.name))
            return 1
        return 0

    def _perturb_order(self, launch, total: int) -> None:
        """A random block order for this launch: claim ``i`` runs block ``(i*a + c) % total``.

        ``a`` is coprime with ``total`` (so the map is a permutation); the
        product stays below 2**64 for grids under 2**32 blocks (larger ones
        keep their order).
        """

        rng = self._perturb
        with self._state_lock:  # launches may come from several async bodies at once
            if 1 < total < 2**32:
                mul = rng.randrange(1, total)
                while math.gcd(mul, total) != 1:
                    mul = rng.randrange(1, total)
                launch[L.L_PERM_MUL] = mul
                launch[L.L_PERM_ADD] = rng.randrange(total)
            launch[L.L_CHUNK] = rng.randint(1, launch[L.L_CHUNK])

    def _run_worker(self, worker, failures: list[str], rt) -> None:

        the_core = core()
        addr = ctypes.addressof(worker)
        try:
            asserted = the_core.invoke(rt.symbols["gpurunner_cpu_run_blocks"], addr)
            if asserted:
                msg, loc = the_core.last_failure()
                where = f"{loc}: " if loc else ""
                failures.append(f"{where}error: 'cf.assert' failed in GPU kernel @{{kernel}}: "
                                f"{msg}")
                launch = ctypes.cast(worker[L.W_LAUNCH],
                                     ctypes.POINTER(ctypes.c_int64 * L.LAUNCH_SLOTS)).contents
                launch[L.L_FAILED] = 1
            elif worker[L.W_WAITING_BLOCK] or worker[L.W_WAITING_WARP]:
                bid = tuple(worker[L.W_FAILED_BID + d] for d in range(3))
                failures.append(
                    f"error: GPU kernel @{{kernel}} deadlocked in block {bid}: "
                    f"{worker[L.W_WAITING_BLOCK]} thread(s) wait at gpu.barrier and "
                    f"{worker[L.W_WAITING_WARP]} at a subgroup operation (gpu.shuffle or a "
                    f"reduction) while no other thread can reach them (every live thread of "
                    f"a block must reach the same barriers; the lanes of a warp, the same "
                    f"subgroup operations)")
        finally:
            rt.function("gpurunner_cpu_release", None, ctypes.c_void_p)(addr)


def _check_config(grid, block, smem, static_bytes: int) -> str:
    if any(g <= 0 for g in grid) or any(b <= 0 for b in block):
        return "every grid and block dimension must be at least 1"
    if block[0] * block[1] * block[2] > MAX_THREADS_PER_BLOCK:
        return (f"{block[0] * block[1] * block[2]} threads per block; the limit is "
                f"{MAX_THREADS_PER_BLOCK}, as on NVIDIA GPUs")
    for d, (b, lim) in enumerate(zip(block, MAX_BLOCK_DIMS, strict=True)):
        if b > lim:
            return f"block dimension {'xyz'[d]} = {b} exceeds {lim}"
    for d, (g, lim) in enumerate(zip(grid, MAX_GRID_DIMS, strict=True)):
        if g > lim:
            return f"grid dimension {'xyz'[d]} = {g} exceeds {lim}"
    if smem < 0:
        return f"negative dynamic shared memory size {smem}"
    if static_bytes > MAX_STATIC_SHARED_BYTES:
        return (f"{static_bytes} bytes of statically allocated workgroup memory; the limit is "
                f"{MAX_STATIC_SHARED_BYTES} (48 KiB), as on NVIDIA GPUs")
    if static_bytes + smem > MAX_SHARED_BYTES_PER_BLOCK:
        return (f"{static_bytes + smem} bytes of workgroup memory per block ({static_bytes} "
                f"static + {smem} dynamic); the limit is {MAX_SHARED_BYTES_PER_BLOCK} "
                f"(227 KiB, sm_90)")
    return ""


PROVIDER = CpuGpuRuntime()
