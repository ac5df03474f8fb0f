"""The CPU backend's provider of the ``mgpu*`` GPU runtime ABI.

Answers ``--shared-libs`` names of the CUDA runtime wrappers
(``mlir_cuda_runtime``, the seed's ``cuda-runtime-wrappers``) when the backend
is ``cpu`` (``CpuBackend.runtime_provider``), replacing a real file of that name: host code lowered by
:mod:`runner_core.codegen.gpu_host` calls the same symbols on every backend.

* Memory, copies, fills, streams and events are small functions in LLVM IR
  (:mod:`.shim`; no Python per call on an idle stream).  Device memory is host
  memory (``aligned_alloc``, 256-byte aligned like ``cuMemAlloc``);
  ``host_shared`` and ``host_register`` need nothing more.
* A launch enqueues its grid on its stream (:mod:`.streams`): kernels of
  different streams run at the same time, as on a GPU, while each stream keeps
  its order and events order streams.  The launch's argument values are
  copied when it is enqueued (``cuLaunchKernel`` does the same).
* ``mgpuModuleLoad`` receives the LLVM IR produced by
  :mod:`runner_core.backends.cpu.kernel` and JIT-compiles it (cached per
  process by content); ``mgpuModuleGetFunction`` returns a kernel descriptor.
* ``mgpuLaunchKernel`` runs the grid on a pool of OS threads: each calls the
  runtime's ``gpurunner_cpu_run_blocks`` through ctypes (the GIL is released
  while native code runs) and claims blocks from a shared counter until none
  are left.  A bad configuration stops the program at the launch; a launch
  that fails while it runs (deadlocked barrier, ``cf.assert`` in a kernel)
  stops it at its next GPU runtime call, as CUDA reports a kernel's fault at
  the next synchronisation; either way the run fails with the launch's message.
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
from runner_core.runtime.cstdio import libc
from runner_core.runtime.provider import Provider, c_callback
from runner_core.targets.host import compile_ir
from runner_core.toolapi import mark_process_unusable

from . import fibers, handles
from . import layout as L
from .layout import KERNEL_OPT_LEVEL, MAX_THREADS_PER_BLOCK
from .shim import _COPY, _SET16, _SET32, SHIM_IR, SYMBOLS
from .streams import StreamScheduler

_LOAD_T = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
_UNLOAD_T = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_GETFN_T = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)
_LAUNCH_T = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, *([ctypes.c_int64] * 6),
                             ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                             ctypes.c_int64)
_LAUNCH_CLUSTER_T = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, *([ctypes.c_int64] * 9),
                                     ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p,
                                     ctypes.c_void_p, ctypes.c_int64)
# Blocks per thread-block cluster without the non-portable-size attribute (which
# upstream's mgpuLaunchClusterKernel does not set), as on sm_90.
MAX_CLUSTER_BLOCKS = 8
_ERROR_T = ctypes.CFUNCTYPE(ctypes.c_void_p)
_TYPED_T = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p)
_ENQUEUE_T = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p,
                              ctypes.c_void_p, ctypes.c_int64)
_SYNC_T = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
_DESTROY_T = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_PUBLISH_T = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64)

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
# After a failure, how long kernels still running get to finish before the run gives up
# on them (they may wait for work the stopped program will never enqueue).
DRAIN_AFTER_FAILURE_S = 2.0


@dataclass
class KernelEntry:
    name: str
    flags: int
    static_bytes: int  # the block's shared area here (laid out for every kernel of the module)
    where: str = ""  # launch sites, "file:line:col[, ...]"
    gpu_static_bytes: int = 0  # workgroup memory this kernel would allocate on a GPU
    param_sizes: tuple[int, ...] = ()  # bytes of each expanded parameter

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
        self._failed_flag = None  # the shim's gpurunner_cpu_failed
        self.streams = StreamScheduler(self._publish, self._free_record,
                                       lambda: self._run_error is not None)

    # -- Provider -------------------------------------------------------------
    def build_symbols(self):

        cbs = {
            "py_module_load": _LOAD_T(self._guard(self._module_load, 0)),
            "py_module_unload": _UNLOAD_T(self._guard(self._module_unload, None)),
            "py_get_function": _GETFN_T(self._guard(self._get_function, 0)),
            "py_launch": _LAUNCH_T(self._guard(self._launch, 1)),
            "py_launch_cluster": _LAUNCH_CLUSTER_T(self._guard(self._launch_cluster, 1)),
            "py_error": _ERROR_T(lambda: ctypes.addressof(self._error)),
            "py_register_typed": _TYPED_T(self._guard(self._register_typed, 1)),
            "py_enqueue": _ENQUEUE_T(self._guard(self._enqueue, 1)),
            "py_sync": _SYNC_T(self._guard(self._sync, 1)),
            "py_stream_wait": _SYNC_T(self._guard(self._stream_wait, 1)),
            "py_destroy": _DESTROY_T(self._guard(self.streams.destroy, None)),
        }
        self._callbacks = list(cbs.values())
        imports = {k: ctypes.cast(v, ctypes.c_void_p).value for k, v in cbs.items()}
        imports[ASSERT_FAIL] = core().symbols[ASSERT_FAIL]
        own = ("gpurunner_cpu_publish", "gpurunner_cpu_failed", "gpurunner_cpu_poisoned",
               *handles.EXPORTS)
        self._shim = compile_ir(SHIM_IR, opt=2, exports=SYMBOLS + own, imports=imports,
                                name="gpurunner_cpu_gpu")
        self._publish_fn = _PUBLISH_T(self._shim.address("gpurunner_cpu_publish"))
        self._retire_stream = _DESTROY_T(self._shim.address("gpurunner_cpu_retire_streams"))
        self._failed_flag = ctypes.c_int64.from_address(self._shim.address("gpurunner_cpu_failed"))
        self._poisoned_flag = ctypes.c_int64.from_address(
            self._shim.address("gpurunner_cpu_poisoned"))
        return {k: v for k, v in self._shim.addresses.items() if k in SYMBOLS}

    def start_run(self, run) -> None:
        # Contract 3: the run's environment, not the process's, configures it.
        self._env = dict(getattr(run, "env", None) or os.environ)
        self._run_error = None
        seed = self._env.get("GPURUNNER_PERTURB", "").strip()
        # A stream of its own: the async runtime draws from another generator of the seed.
        self._perturb = random.Random(f"{seed}:cpu-blocks") if seed else None
        self.symbols()
        self._failed_flag.value = 0
        self._poisoned_flag.value = 0
        self.streams.start_run(seed, _perturb_max_us(self._env))

    def finish_run(self, run) -> None:
        # Kernels the program never waited for still finish (their code and the
        # memory they use must outlive them); after a failure, briefly.
        if not self.streams.drain(DRAIN_AFTER_FAILURE_S if self._run_error else None):
            mark_process_unusable("cpu backend: a GPU kernel was still running when the "
                                  "program stopped")
            self._run_error = (f"{self._run_error}\nnote: a GPU kernel was still running "
                               f"{DRAIN_AFTER_FAILURE_S:g} s after the program stopped; "
                               f"this process will not run another program")
        self._failed_flag.value = 0
        err, self._run_error = self._run_error, None
        if err:
            raise ExecutionError(err)

    # -- streams ------------------------------------------------------------------
    def _publish(self, addr: int, seq: int) -> None:
        self._publish_fn(addr, seq)

    def _free_record(self, addr: int) -> None:
        """A stream record the scheduler is done with: to the shim's free list, where
        its tag keeps saying it was destroyed (:mod:`.handles`)."""
        self._retire_stream(addr)

    def _enqueue(self, kind: int, stream, a, b, n) -> int:
        """A copy, fill or free behind the work in flight on ``stream``."""
        a, b = a or 0, b or 0
        if kind == _COPY:
            def run():
                ctypes.memmove(a, b, n)
        elif kind in (_SET32, _SET16):
            ctype = ctypes.c_uint32 if kind == _SET32 else ctypes.c_uint16
            value = b & (0xFFFFFFFF if kind == _SET32 else 0xFFFF)

            def run():
                (ctype * n).from_address(a)[:] = [value] * n
        else:
            def run():
                libc().free(ctypes.c_void_p(a))
        self.streams.enqueue(stream, run)
        return 0

    def _sync(self, stream, on, seq) -> int:
        self.streams.synchronize(stream, on or None, None if seq < 0 else seq)
        return 1 if self._run_error else 0

    def _stream_wait(self, stream, on, seq) -> int:
        self.streams.enqueue_wait(stream, on, seq)
        return 0

    # -- errors -----------------------------------------------------------------
    def _fail(self, message: str) -> None:
        self._run_error = self._run_error or message
        self._error = ctypes.create_string_buffer(self._run_error.encode())
        if self._failed_flag is not None:
            self._failed_flag.value = 1

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
                sizes = tuple((ctypes.c_int64 * k[L.K_NPARAMS]).from_address(
                    k[L.K_PARAM_SIZES])) if k[L.K_NPARAMS] else ()
                self._kernels[addr] = KernelEntry(name, k[L.K_FLAGS], k[L.K_STATIC], where,
                                                  k[L.K_GPU_STATIC], sizes)
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

    def _launch_cluster(self, fn, cx, cy, cz, gx, gy, gz, bx, by, bz, smem, stream, params,
                        extra, nparams) -> int:
        return self._launch(fn, gx, gy, gz, bx, by, bz, smem, stream, params, extra, nparams,
                            cluster=(cx, cy, cz))

    def _launch(self, fn, gx, gy, gz, bx, by, bz, smem, stream, params, extra, nparams,
                cluster=(1, 1, 1)) -> int:

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
        problem = (_check_config(grid, block, smem, kernel.gpu_static_bytes)
                   or _check_cluster(grid, cluster))
        if problem:
            self._fail(f"{where}error: launch of GPU kernel @{kernel.name} with grid "
                       f"{grid} and block {block}: {problem}")
            return 1
        args, args_addr = _copy_params(params, kernel.param_sizes)
        launch = (ctypes.c_int64 * L.LAUNCH_SLOTS)()
        for d in range(3):
            launch[L.L_GRID + d] = grid[d]
            launch[L.L_BLOCK + d] = block[d]
            launch[L.L_CLUSTER + d] = cluster[d]
        launch[L.L_PARAMS] = args_addr
        launch[L.L_DYN] = smem
        launch[L.L_KDESC] = fn
        launch[L.L_TOTAL] = gx * gy * gz
        total = gx * gy * gz
        serial = bool(kernel.flags & L.FLAG_SERIAL)
        n = 1 if serial else max(1, min(_workers(self._env), total))
        # Claim several blocks at a time when there are many: the shared counter's
        # cache line would otherwise bounce between workers for every tiny block.
        launch[L.L_CHUNK] = max(1, min(64, total // (n * 16)))
        if self._perturb is not None:
            self._perturb_order(launch, total)

        def run(keep=(args, launch)):
            try:
                self._run_grid(kernel, fn, launch, n, where)
            except Exception as err:  # noqa: BLE001 - reported as the launch's failure
                self._fail(f"{where}error: GPU runtime (cpu backend): {type(err).__name__}: "
                           f"{err}")

        if stream:
            self.streams.enqueue(stream, run)
        else:  # CUDA's legacy default stream: after all other work, and synchronous
            self.streams.wait_all()
            run()
        return 1 if self._run_error else 0

    def _run_grid(self, kernel: KernelEntry, fn: int, launch, n: int, where: str) -> None:
        """Run every block of one launch on ``n`` workers (this thread is one of them)."""
        workers = [(ctypes.c_int64 * L.WORKER_SLOTS)() for _ in range(n)]
        for w in workers:
            w[L.W_LAUNCH] = ctypes.addressof(launch)
        failures: list[str] = []
        rt = self._modules_runtime.get(fn)
        jobs = [lambda w=w: self._run_worker(w, failures, rt) for w in workers]
        futures = [self._executor().submit(j) for j in jobs[1:]]
        jobs[0]()
        # Every block has been claimed once this worker is done: helpers that have not
        # started have nothing left to do (and must not wait for a pool thread that a
        # kernel of another stream may hold).
        for f in futures:
            f.cancel()
        for f in futures:
            if not f.cancelled():
                f.result()
        if launch[L.L_ASSERTED]:
            # CUDA's device-side assert: the context is unusable from now on (every
            # later runtime call reports CUDA_ERROR_ASSERT, as upstream's wrappers do).
            self._poisoned_flag.value = 1
            failures = [f for f in failures if not f.startswith(_ASSERT_UNWIND)]
        if failures or launch[L.L_FAILED]:
            msg = failures[0] if failures else "error: GPU kernel @{kernel} failed"
            if msg.startswith("error:"):
                msg = where + msg
            self._fail(msg.replace("{kernel}", kernel.name))

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
            launch = ctypes.cast(worker[L.W_LAUNCH],
                                 ctypes.POINTER(ctypes.c_int64 * L.LAUNCH_SLOTS)).contents
            if asserted and launch[L.L_ASSERTED]:
                # A device function's failing cf.assert (printed already) unwound the
                # worker: its other blocks do not run, as a trapped GPU would not.
                failures.append(_ASSERT_UNWIND)
            elif asserted:
                msg, loc = the_core.last_failure()
                where = f"{loc}: " if loc else ""
                failures.append(f"{where}error: 'cf.assert' failed in GPU kernel @{{kernel}}: "
                                f"{msg}")
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


_ASSERT_UNWIND = "device-side assert"


def _copy_params(params: int | None, sizes: tuple[int, ...]):
    """A copy of a launch's argument values and its ``void **`` (storage, its address)."""
    if not sizes or not params:
        return None, 0
    src = (ctypes.c_void_p * len(sizes)).from_address(params)
    offsets, total = [], 0
    for size in sizes:
        total = (total + 15) // 16 * 16
        offsets.append(total)
        total += size
    buf = (ctypes.c_uint8 * (total + 16))()
    base = (ctypes.addressof(buf) + 15) // 16 * 16
    ptrs = (ctypes.c_void_p * len(sizes))()
    for i, (off, size) in enumerate(zip(offsets, sizes, strict=True)):
        ctypes.memmove(base + off, src[i], size)
        ptrs[i] = base + off
    return (buf, ptrs), ctypes.addressof(ptrs)


def _perturb_max_us(env) -> int:
    try:
        return max(0, int(env.get("GPURUNNER_PERTURB_MAX_US", "200")))
    except ValueError:
        return 200


def _check_cluster(grid, cluster) -> str:
    if cluster == (1, 1, 1):
        return ""
    if any(c <= 0 for c in cluster):
        return f"cluster size {cluster}: every dimension must be at least 1"
    if any(g % c for g, c in zip(grid, cluster, strict=True)):
        return f"the grid is not a whole number of clusters of {cluster} blocks"
    if cluster[0] * cluster[1] * cluster[2] > MAX_CLUSTER_BLOCKS:
        return (f"{cluster[0] * cluster[1] * cluster[2]} blocks per cluster; the portable "
                f"limit is {MAX_CLUSTER_BLOCKS} (sm_90)")
    return ""


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
