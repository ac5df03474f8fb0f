"""The CUDA driver as the runner sees it: is a GPU usable, which one, its context.

Everything here is a *cold* path (once per process or once per run) and goes
through ``cuda.bindings.driver``.  The per-launch hot paths live in LLVM IR
(:mod:`runner_core.backends.cuda.runtime`) and call the driver functions whose
addresses :func:`driver_function` hands out; that is how a ``gpu.launch_func``
costs no Python frame.

Device selection (contract 3 of docs/design.md):

* ``CUDA_VISIBLE_DEVICES`` is honoured by the driver itself when it
  initialises (the plug-in pins xdist workers before anything touches CUDA).
  A *tool call* whose environment names a different list than the process had
  at initialisation is mapped onto the devices this process can see
  (:func:`select_ordinal`), or refused with a clear message.
* ``GPURUNNER_DEVICE=N`` picks the N-th of the visible devices (default 0).

:func:`probe` never raises (contract 7): any failure, from a missing
``cuda-bindings`` to a driver without devices, is ``None``, and
:func:`probe_reason` says why.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass

from runner_core.errors import ExecutionError, RunnerError

# The driver ABI the hot paths are written against (cuGetProcAddress version).
DRIVER_ABI_VERSION = 12000

_lock = threading.RLock()
_driver = None
_init_error: str | None = None
_initialized = False
_visible_at_init: str | None = None
_probes: dict[int, DeviceInfo | None] = {}
_probe_reasons: dict[int, str] = {}
_last_reason = ""


class CudaUnavailable(RunnerError):
    """No usable CUDA driver/device; the message says what is missing."""


class CudaError(ExecutionError):
    """A driver call failed; ``code`` is the numeric ``CUresult``."""

    def __init__(self, message: str, code: int = 0):
        self.code = code
        super().__init__(message)


@dataclass(frozen=True)
class DeviceInfo:
    """What the report header, gating and code generation need to know of a GPU."""

    name: str
    compute_capability: tuple[int, int]
    driver_version: str
    ordinal: int = 0
    total_memory: int = 0
    multiprocessors: int = 0
    uuid: str = ""

    @property
    def arch(self) -> str:
        """``sm_90`` for compute capability 9.0 (what PTX targets)."""
        major, minor = self.compute_capability
        return f"sm_{major}{minor}"


# ----------------------------------------------------------------------- driver access
def driver():
    """``cuda.bindings.driver``, initialised (``cuInit``) once; raises CudaUnavailable."""
    global _driver, _init_error, _initialized, _visible_at_init
    with _lock:
        if _initialized:
            if _driver is None:
                raise CudaUnavailable(_init_error or "CUDA driver unavailable")
            return _driver
        _initialized = True
        try:
            from cuda.bindings import driver as cu
        except Exception as err:  # ImportError, or a broken install
            _init_error = f"cuda-bindings not importable ({type(err).__name__}: {err})"
            raise CudaUnavailable(_init_error) from None
        _visible_at_init = os.environ.get("CUDA_VISIBLE_DEVICES")
        try:
            (res,) = cu.cuInit(0)
        except Exception as err:  # the bindings raise when libcuda.so is absent
            _init_error = f"no NVIDIA driver library ({_first_line(err)})"
            raise CudaUnavailable(_init_error) from None
        if int(res) != 0:
            _init_error = f"cuInit failed: {error_text(int(res), cu)}"
            raise CudaUnavailable(_init_error)
        _driver = cu
        return cu


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0] if text else ''}"


def error_text(code: int, cu=None) -> str:
    """``CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)``."""
    cu = cu or _driver
    name, desc = f"CUresult {code}", ""
    if cu is not None:
        try:
            err, raw = cu.cuGetErrorName(cu.CUresult(code))
            if int(err) == 0 and raw:
                name = raw.decode() if isinstance(raw, bytes) else str(raw)
            err, raw = cu.cuGetErrorString(cu.CUresult(code))
            if int(err) == 0 and raw:
                desc = raw.decode() if isinstance(raw, bytes) else str(raw)
        except Exception:
            pass
    return f"{name} ({desc})" if desc else name


def check(result, what: str):
    """Unpack a cuda-bindings result tuple; raise :class:`CudaError` on failure."""
    if isinstance(result, tuple):
        code, rest = result[0], result[1:]
    else:
        code, rest = result, ()
    code = int(code)
    if code != 0:
        raise CudaError(f"error: {what} failed: {error_text(code)}", code)
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else rest


def driver_function(name: str) -> int:
    """Address of driver entry point ``name`` for the ABI the hot paths are written for.

    ``cuGetProcAddress`` picks the right versioned symbol (``cuMemAlloc`` ->
    ``cuMemAlloc_v2`` ...), which a plain ``dlsym`` would get wrong.
    """
    cu = driver()
    flags = cu.CUdriverProcAddress_flags.CU_GET_PROC_ADDRESS_DEFAULT
    res = cu.cuGetProcAddress(name.encode(), DRIVER_ABI_VERSION, flags)
    code = int(res[0])
    pfn = res[1] if len(res) > 1 else None
    addr = int(pfn) if pfn is not None else 0
    if code != 0 or not addr:
        raise CudaUnavailable(f"the CUDA driver has no entry point '{name}' "
                              f"(cuGetProcAddress: {error_text(code)})")
    return addr


_driver_version: tuple[int, str] | None = None


def driver_version() -> tuple[int, str]:
    """(API version number like 13000, text like ``13.0 (580.159.04)``); fixed per process."""
    global _driver_version
    if _driver_version is None:
        _driver_version = _read_driver_version()
    return _driver_version


def _read_driver_version() -> tuple[int, str]:
    cu = driver()
    api = int(check(cu.cuDriverGetVersion(), "cuDriverGetVersion"))
    text = f"{api // 1000}.{(api % 1000) // 10}"
    kernel = _kernel_driver_version()
    return api, f"{text} ({kernel})" if kernel else text


def _kernel_driver_version() -> str:
    try:
        with open("/proc/driver/nvidia/version", encoding="utf-8", errors="replace") as fh:
            first = fh.readline()
    except OSError:
        return ""
    for word in first.split():
        parts = word.split(".")
        if len(parts) >= 2 and all(p.isdigit() for p in parts):
            return word
    return ""


def device_count() -> int:
    """Devices this process sees (0 when there is no driver); never raises."""
    try:
        cu = driver()
        return int(check(cu.cuDeviceGetCount(), "cuDeviceGetCount"))
    except Exception:
        return 0


# --------------------------------------------------------------------- device selection
def _device_uuid(cu, dev) -> str:
    try:
        raw = check(cu.cuDeviceGetUuid(dev), "cuDeviceGetUuid")
        data = bytes(raw.bytes) if hasattr(raw, "bytes") else bytes(raw)
        h = data.hex()
        return f"GPU-{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"
    except Exception:
        return ""


def select_ordinal(env: Mapping[str, str] | None = None) -> int:
    """The ordinal (among this process's visible devices) a run with ``env`` uses.

    Raises :class:`CudaUnavailable` with a user-facing message for a device
    that does not exist or cannot be reached from this process.
    """
    env = os.environ if env is None else env
    count = device_count()
    if count == 0:
        # Why the driver gave no device: its initialisation error, never the last probe's
        # answer (which is this message: each probe would wrap it once more).
        raise CudaUnavailable(f"no CUDA device visible ({_init_error or 'no device'})")
    wanted_visible = env.get("CUDA_VISIBLE_DEVICES")
    candidates = list(range(count))
    if wanted_visible is not None and wanted_visible != _visible_at_init:
        candidates = _map_visible(wanted_visible, count)
    raw = (env.get("GPURUNNER_DEVICE") or "").strip()
    index = 0
    if raw:
        try:
            index = int(raw)
        except ValueError:
            raise CudaUnavailable(f"GPURUNNER_DEVICE={raw!r} is not a device number") from None
    if not 0 <= index < len(candidates):
        raise CudaUnavailable(f"GPURUNNER_DEVICE={index} but only {len(candidates)} CUDA "
                              f"device(s) are visible")
    return candidates[index]


def _map_visible(listed: str, count: int) -> list[int]:
    """Devices of this process that a different ``CUDA_VISIBLE_DEVICES`` names.

    The driver applied the list it saw at ``cuInit``; a tool call may name
    another one.  Indices can be mapped only when the process saw every
    device; UUIDs (``GPU-...``) can always be matched.
    """
    cu = driver()
    items = [x.strip() for x in listed.split(",") if x.strip()]
    out: list[int] = []
    uuids = None
    for item in items:
        if item.isdigit():
            if _visible_at_init not in (None, ""):
                raise CudaUnavailable(
                    f"CUDA_VISIBLE_DEVICES={listed} differs from the list this process started "
                    f"with ({_visible_at_init}); device indices cannot be remapped after CUDA "
                    f"initialisation (use GPURUNNER_DEVICE, or a UUID)")
            n = int(item)
            if n >= count:
                break  # the driver also stops at the first invalid entry
            out.append(n)
        elif item.startswith(("GPU-", "MIG-")):
            if uuids is None:
                uuids = [_device_uuid(cu, check(cu.cuDeviceGet(i), "cuDeviceGet"))
                         for i in range(count)]
            match = [i for i, u in enumerate(uuids) if u and u.startswith(item)]
            if not match:
                break
            out.append(match[0])
        else:
            break
    if not out:
        raise CudaUnavailable(f"CUDA_VISIBLE_DEVICES={listed} names no device this process "
                              f"can use")
    return out


def _describe(ordinal: int) -> DeviceInfo:
    cu = driver()
    dev = check(cu.cuDeviceGet(ordinal), "cuDeviceGet")
    raw = check(cu.cuDeviceGetName(256, dev), "cuDeviceGetName")
    name = raw.split(b"\0", 1)[0].decode(errors="replace").strip() if isinstance(raw, bytes) \
        else str(raw)
    attr = cu.CUdevice_attribute

    def get(a) -> int:
        return int(check(cu.cuDeviceGetAttribute(a, dev), "cuDeviceGetAttribute"))

    cc = (get(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
          get(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR))
    sms = get(attr.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
    if not get(attr.CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING):
        raise CudaUnavailable(f"device {ordinal} ({name}) has no unified addressing, which "
                              f"registered host memory needs")
    total = int(check(cu.cuDeviceTotalMem(dev), "cuDeviceTotalMem"))
    _, version = driver_version()
    return DeviceInfo(name, cc, version, ordinal, total, sms, _device_uuid(cu, dev))


# Oldest GPU generation the NVPTX code generator and our kernels target.
MIN_COMPUTE_CAPABILITY = (5, 0)


def probe(env: Mapping[str, str] | None = None) -> DeviceInfo | None:
    """The device a run with ``env`` would use, or ``None``; never raises.

    Cheap after the first call (results are cached per device); it does not
    create a context, so the report header costs no GPU memory.
    """
    global _last_reason
    try:
        with _lock:
            try:
                ordinal = select_ordinal(env)
            except CudaUnavailable as err:
                _last_reason = str(err)
                return None
            if ordinal not in _probes:
                try:
                    info = _describe(ordinal)
                    if info.compute_capability < MIN_COMPUTE_CAPABILITY:
                        raise CudaUnavailable(
                            f"device {ordinal} ({info.name}) has compute capability "
                            f"{info.compute_capability[0]}.{info.compute_capability[1]}; "
                            f"at least {MIN_COMPUTE_CAPABILITY[0]}.{MIN_COMPUTE_CAPABILITY[1]} "
                            f"is needed")
                    _probes[ordinal] = info
                except RunnerError as err:
                    _probes[ordinal] = None
                    _probe_reasons[ordinal] = str(err)
            info = _probes[ordinal]
            _last_reason = "" if info is not None else _probe_reasons.get(ordinal, "")
            return info
    except Exception as err:  # contract 7: never raise
        _last_reason = f"probe failed: {_first_line(err)}"
        return None


def probe_reason() -> str:
    """Why the last :func:`probe` (or driver initialisation) found nothing usable."""
    return _last_reason or _init_error or ""


# ------------------------------------------------------------------------------ contexts
class DeviceContext:
    """The primary context of one device, retained for the life of the process.

    Every thread that calls the driver makes it current first (the IR hot
    paths do so themselves).  After a *sticky* error (an illegal address, a
    trap) CUDA is unusable in the whole process; see
    :mod:`runner_core.backends.cuda.runtime` for how the plug-in recovers.
    ``generation`` numbers the retained context, so caches of modules know
    whose handles they hold.
    """

    def __init__(self, ordinal: int):
        self.ordinal = ordinal
        self._handle: int | None = None
        self._device = None
        self.generation = 0
        self._lock = threading.Lock()

    def handle(self) -> int:
        """The context (retained and current on this thread); an int for IR globals."""
        with self._lock:
            cu = driver()
            if self._handle is None:
                self._device = check(cu.cuDeviceGet(self.ordinal), "cuDeviceGet")
                ctx = check(cu.cuDevicePrimaryCtxRetain(self._device),
                            f"retaining the primary context of CUDA device {self.ordinal}")
                self._handle = int(ctx)
                self.generation += 1
            check(cu.cuCtxSetCurrent(cu.CUcontext(self._handle)), "cuCtxSetCurrent")
            return self._handle

    def make_current(self) -> None:
        self.handle()

    def synchronize(self) -> int:
        """``cuCtxSynchronize``; returns the CUresult (0 = healthy, no pending error)."""
        if self._handle is None:
            return 0
        cu = driver()
        cu.cuCtxSetCurrent(cu.CUcontext(self._handle))
        (res,) = cu.cuCtxSynchronize()
        return int(res)

    @property
    def alive(self) -> bool:
        return self._handle is not None


_contexts: dict[int, DeviceContext] = {}


def context(ordinal: int) -> DeviceContext:
    """The (process-wide) context object of device ``ordinal``."""
    with _lock:
        ctx = _contexts.get(ordinal)
        if ctx is None:
            ctx = _contexts[ordinal] = DeviceContext(ordinal)
        return ctx


def device_info(ordinal: int) -> DeviceInfo:
    """Description of a device known to be usable (raises CudaUnavailable otherwise)."""
    with _lock:
        if ordinal not in _probes:
            try:
                _probes[ordinal] = _describe(ordinal)
            except RunnerError as err:
                _probes[ordinal] = None
                _probe_reasons[ordinal] = str(err)
        info = _probes[ordinal]
    if info is None:
        raise CudaUnavailable(_probe_reasons.get(ordinal, f"CUDA device {ordinal} unusable"))
    return info


# ------------------------------------------------------------------ raw driver calls
# Cold paths that pass raw pointers and option arrays (module loading, linking,
# host registration) call the driver through ctypes over the same entry points
# the IR hot paths use, so both sides agree on every pointer and version.
_PROTOTYPES: dict[str, tuple] = {}


def _prototypes() -> dict[str, tuple]:
    if not _PROTOTYPES:
        import ctypes as c

        vp, u32, sz = c.c_void_p, c.c_uint, c.c_size_t
        _PROTOTYPES.update({
            "cuLinkCreate": (u32, c.POINTER(c.c_int), c.POINTER(vp), c.POINTER(vp)),
            "cuLinkAddData": (vp, c.c_int, vp, sz, c.c_char_p, u32, c.POINTER(c.c_int),
                              c.POINTER(vp)),
            "cuLinkComplete": (vp, c.POINTER(vp), c.POINTER(sz)),
            "cuLinkDestroy": (vp,),
            "cuModuleLoadData": (c.POINTER(vp), vp),
            "cuModuleUnload": (vp,),
            "cuModuleGetFunction": (c.POINTER(vp), vp, c.c_char_p),
            "cuMemHostRegister": (vp, sz, u32),
            "cuMemHostUnregister": (vp,),
            "cuMemFree": (vp,),
            "cuFuncGetName": (c.POINTER(c.c_char_p), vp),
            "cuCtxSynchronize": (),
            "cuCtxGetCurrent": (c.POINTER(vp),),
            "cuCtxSetCurrent": (vp,),
            "cuCtxGetDevice": (c.POINTER(c.c_int),),
            "cuFuncGetAttribute": (c.POINTER(c.c_int), c.c_int, vp),
            "cuDeviceGetAttribute": (c.POINTER(c.c_int), c.c_int, c.c_int),
        })
    return _PROTOTYPES


_raw: dict[str, object] = {}


def raw(name: str):
    """A ctypes callable for driver entry point ``name`` (returns the CUresult as int)."""
    fn = _raw.get(name)
    if fn is None:
        import ctypes

        argtypes = _prototypes()[name]
        fn = ctypes.CFUNCTYPE(ctypes.c_int, *argtypes)(driver_function(name))
        _raw[name] = fn
    return fn


def raw_check(code: int, what: str) -> None:
    if code != 0:
        raise CudaError(f"error: {what} failed: {error_text(code)}", code)


JIT_INFO_LOG_BUFFER, JIT_INFO_LOG_BUFFER_SIZE_BYTES = 3, 4
JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 5, 6
JIT_INPUT_PTX = 1


def link_cubin(ptx: str | bytes, name: str = "kernels",
               jit_options: Mapping[int, int] | None = None) -> bytes:
    """PTX -> cubin for the current context's device, with the driver's assembler.

    ``cuLinkCreate/AddData/Complete`` hands the cubin back as bytes (unlike
    ``cuModuleLoadData`` of PTX), which is what makes the kernel cache possible.
    ``jit_options`` (``CUjit_option`` -> integer value) is for experiments with the
    assembler's settings (``bench/gpu_jit_paths.py``); the runner passes none.
    """
    import ctypes as c

    data = ptx.encode() if isinstance(ptx, str) else bytes(ptx)
    if not data.endswith(b"\0"):
        data += b"\0"
    log_size = 1 << 16
    err_log = c.create_string_buffer(log_size)
    extra = dict(jit_options or {})
    count = 2 + len(extra)
    opts = (c.c_int * count)(JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES, *extra)
    vals = (c.c_void_p * count)(c.cast(err_log, c.c_void_p).value, log_size,
                                *extra.values())
    state = c.c_void_p()
    raw_check(raw("cuLinkCreate")(count, opts, vals, c.byref(state)), "cuLinkCreate")
    try:
        buf = c.create_string_buffer(data, len(data))
        code = raw("cuLinkAddData")(state, JIT_INPUT_PTX, c.cast(buf, c.c_void_p), len(data),
                                    name.encode(), 0, None, None)
        if code == 0:
            out, size = c.c_void_p(), c.c_size_t()
            code = raw("cuLinkComplete")(state, c.byref(out), c.byref(size))
            if code == 0:
                return c.string_at(out.value, size.value)
        log = err_log.value.decode(errors="replace").strip()
        raise CudaError(f"error: the CUDA driver could not assemble the PTX of GPU module "
                        f"'{name}': {error_text(code)}" + (f"\n{log}" if log else ""), code)
    finally:
        raw("cuLinkDestroy")(state)


def load_module(image: bytes, name: str = "kernels") -> int:
    """``cuModuleLoadData`` of a cubin/fatbin/PTX image in the current context."""
    import ctypes as c

    buf = c.create_string_buffer(bytes(image), len(image))
    mod = c.c_void_p()
    raw_check(raw("cuModuleLoadData")(c.byref(mod), c.cast(buf, c.c_void_p)),
              f"loading GPU module '{name}' (cuModuleLoadData)")
    return int(mod.value or 0)


def unload_module(handle: int) -> int:
    return int(raw("cuModuleUnload")(handle))


def module_function(module: int, name: str) -> int:
    import ctypes as c

    fn = c.c_void_p()
    raw_check(raw("cuModuleGetFunction")(c.byref(fn), module, name.encode()),
              f"looking up kernel '{name}' (cuModuleGetFunction)")
    return int(fn.value or 0)


def function_name(fn: int) -> str:
    """The kernel name of a ``CUfunction`` handle ('' when the driver cannot say)."""
    import ctypes as c

    if not fn:
        return ""
    try:
        out = c.c_char_p()
        if raw("cuFuncGetName")(c.byref(out), fn) == 0 and out.value:
            return out.value.decode(errors="replace")
    except Exception:
        pass
    return ""


CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97


def shared_memory_budget(fn: int) -> tuple[int, int] | None:
    """(static shared bytes of kernel ``fn``, the current device's opt-in maximum per
    block), or None when the driver cannot say: why a dynamic size was refused."""
    import ctypes as c

    try:
        static, limit, dev = c.c_int(), c.c_int(), c.c_int()
        if raw("cuFuncGetAttribute")(c.byref(static), CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn):
            return None
        if raw("cuCtxGetDevice")(c.byref(dev)) or raw("cuDeviceGetAttribute")(
                c.byref(limit), CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev.value):
            return None
        return static.value, limit.value
    except Exception:
        return None
