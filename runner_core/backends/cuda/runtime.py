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

This module is the provider; the hot paths' IR text is :mod:`.shim_ir`, the
error sites :mod:`.sites`, perturbation's settings and spin kernel :mod:`.perturb`.
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
from runner_core.runtime import host_register_2021, mgpu_reports
from runner_core.runtime.core import ASSERT_FAIL, core
from runner_core.runtime.cstdio import write_stderr
from runner_core.runtime.provider import Provider
from runner_core.targets.host import compile_ir
from runner_core.toolapi import mark_process_unusable, process_unusable

from . import driver, kernel_cache, nvptx, tensor_map
from .image import KernelImage, KernelSite, image_size, parse_image
from .perturb import PERTURB_ACTIONS, SPIN_CYCLES_PER_US, SPIN_IR, SPIN_KERNEL, perturb_settings
from .shim_ir import (
    _CTX_GLOBAL,
    _DRIVER_DECLS,
    _LAST_FN_GLOBAL,
    _PERTURB,
    _PERTURB_GLOBAL,
    _POOL_GLOBALS,
    _PREFIX,
    _PY_CALLBACKS,
    _REPORT,
    _TRACK,
    CUDA_ERROR_INVALID_VALUE,
    HOT_FUNCTIONS,
    POOL,
    _runtime_ir,
)
from .sites import _SITE_OPS, _SITES, STICKY

CUDA_ERROR_INVALID_PTX = 218


def _shared_memory_note(fn: int, detail: str) -> str:
    """Why raising a kernel's dynamic shared memory limit failed: its static share and the
    device's maximum (a kernel lowered by mlir-opt 22 may hold more static shared memory
    than its source says: the NVPTX back end turns the zero-length `__dynamic_shmem__`
    global, internal there, into a static variable of its own)."""
    budget = driver.shared_memory_budget(fn)
    if budget is None:
        return detail
    static, limit = budget
    return (f"{detail}; it has {static} bytes of static shared memory, so at most "
            f"{limit - static} dynamic bytes fit this device's {limit} per block")


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
        self._pool_mark = ctypes.c_int64.from_address(a("streams.mark"))
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
                if code == mgpu_reports.CUDA_ERROR_ASSERT:
                    state.sticky = True  # a device-side assert: reported, not an error
                elif code != 0:
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
        self._pool_mark.value = n  # none of these is a stream the next program destroyed

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
            if code == mgpu_reports.CUDA_ERROR_ASSERT:
                # A kernel's cf.assert failed (the driver printed its lines): as upstream's
                # wrappers, report each failing call on stderr and let the program go on.
                # The context stays unusable: the process is replaced after the run.
                name = f"{mgpu}:shared" if call == "cuMemAllocManaged" else mgpu
                line = mgpu_reports.report_line(name)
                if line:
                    write_stderr(line.encode())
                self._run.sticky = True
                return 0
            if code in mgpu_reports.HANDLE_ERRORS and mgpu in mgpu_reports.HANDLE_CALLS:
                # A destroyed or foreign stream/event handle: upstream's wrapper reports it
                # and the program goes on (mgpu_reports.HANDLE_ERRORS says why).
                line = mgpu_reports.report_line(mgpu, mgpu_reports.HANDLE_ERRORS[code])
                if line:
                    write_stderr(line.encode())
                return 0
            detail, locs = "", None
            if op == "gpu.launch_func":
                if call == "cuModuleGetFunction" and arg:
                    detail = f"kernel '{ctypes.string_at(arg).decode(errors='replace')}'"
                else:
                    detail, locs = self._kernel_facts(arg)
                    if call == "cuFuncSetAttribute":
                        detail = _shared_memory_note(arg, detail)
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
        try:
            handle = driver.load_module(binary, name)
        except driver.CudaError as err:
            missing = nvptx.unresolved_libdevice(binary.decode(errors="replace")) \
                if parsed is None and err.code == CUDA_ERROR_INVALID_PTX else []
            if not missing:
                raise
            raise driver.CudaError(
                f"{err}\n  note: the PTX calls libdevice functions it does not define ("
                f"{', '.join(missing[:4])}{', ...' if len(missing) > 4 else ''}): the real "
                f"mlir-runner fails the same way.  mlir-opt links libdevice only when it finds "
                f"a CUDA toolkit: lower with CUDA_ROOT=<toolkit> (or gpu-module-to-binary's "
                f"toolkit=) set", err.code) from None
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
        arch = nvptx.arch_for(info.arch, image.needs, image.module)
        api, version = driver.driver_version()
        cache = kernel_cache.cache_for(self._run.env or os.environ)
        key = kernel_cache.make_key([image.ir, arch, f"opt={image.opt}",
                                     f"driver={api}:{version}", *nvptx.tool_versions()])
        cubin = cache.get(key)
        if cubin is not None:
            return cubin
        t = time.perf_counter()
        ptx = nvptx.compile_ptx(image.ir, arch, kernels=list(image.kernels) or None,
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

    def _py_mgpuTensorMapEncodeTiledMemref(self, rank, desc, dtype, interleave, swizzle,
                                           l2promo, oob, box) -> int:
        self._make_context_current()
        try:
            ptr = tensor_map.encode_memref(rank, desc or 0, dtype, interleave, swizzle, l2promo,
                                           oob, box or 0)
        except tensor_map.TensorMapError as err:
            self._record(err.code, err.call, "mgpuTensorMapEncodeTiledMemref", err.detail,
                         "nvgpu.tma.create.descriptor", locs=[])
            return 0
        with self._state_lock:
            self._run.allocations[ptr] = tensor_map.TENSOR_MAP_BYTES
        return ptr

    def _py_mgpuTensorMapEncodeTiled(self, tmap, dtype, rank, address, dims, strides, box,
                                     element_strides, interleave, swizzle, l2promo, oob) -> None:
        self._make_context_current()
        n = max(1, min(int(rank), tensor_map.MAX_RANK))

        def read(ty, ptr, count):
            return list((ty * count).from_address(ptr)) if ptr and count else []

        try:
            tensor_map.encode_tiled(tmap, dtype, rank, address or 0,
                                    read(ctypes.c_uint64, dims, n),
                                    read(ctypes.c_uint64, strides, n - 1),
                                    read(ctypes.c_uint32, box, n),
                                    read(ctypes.c_uint32, element_strides, n),
                                    interleave, swizzle, l2promo, oob)
        except tensor_map.TensorMapError as err:
            self._record(err.code, err.call, "mgpuTensorMapEncodeTiled", err.detail,
                         "nvgpu.tma.create.descriptor", locs=[])

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
