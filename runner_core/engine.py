"""The embedded runner: MLIR text in, program executed in this process.

Stages of :func:`run_program` (each a small function so the plug-in, the
benchmarks and other backends can reuse them):

1. parse (front end, ``parse_source``), 2. the runner's own pipeline of
preparation passes (``--print-pipeline`` shows it, ``--pass-pipeline=``
replaces it), 3. choose the backend (``--backend``, else ``GPURUNNER_BACKEND``
from the call's environment, else ``auto``), 4. code generation for the host
(:mod:`runner_core.codegen`), 5. entry-point checks with mlir-runner's
messages, 6. symbol resolution against ``--shared-libs`` (real libraries or
built-in providers) and the process, 7. JIT (:mod:`runner_core.targets.host`)
and a call of the entry point through the core trampoline, so a failing
``cf.assert`` comes back as an error instead of an ``abort()``.

Program output is not handled here: callers capture fds 1/2 around
:func:`run_program` (see :mod:`runner_core.cli`).
"""

from __future__ import annotations

import ctypes
import math
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

import llvmlite.ir as ir

from runner_core import input_policy
from runner_core.backends import Backend, cpu, cuda
from runner_core.errors import ExecutionError, RunnerError, UnsupportedError, format_diagnostic
from runner_core.options import RunOptions  # noqa: F401 - re-exported: callers import it here

ENTRY_RESULTS = ("void", "i32", "i64", "f32")
ENTRY_THUNK = "_gpurunner_entry"

# Preparation passes of the runner's own lowering, in order; a pass is
# included only when its name is registered in the pass registry.
_PIPELINE: tuple[tuple[int, str], ...] = ((100, "gpu-kernel-outlining"),)

# Upstream's 2021 runtime function names -> today's (same ABI).
LEGACY_SYMBOLS: dict[str, str] = {}
for _k in ("i8", "i32", "i64", "f32", "f64"):
    _new = "printMemref" + _k.upper()
    LEGACY_SYMBOLS[f"print_memref_{_k}"] = _new
    LEGACY_SYMBOLS[f"_mlir_ciface_print_memref_{_k}"] = "_mlir_ciface_" + _new
for _k in ("0d_f32", "1d_f32", "2d_f32", "3d_f32", "4d_f32", "1d_f64", "1d_i8", "1d_i32",
           "1d_i64"):
    _d, _t = _k.split("_")
    LEGACY_SYMBOLS[f"_mlir_ciface_print_memref_{_k}"] = f"_mlir_ciface_printMemref{_d}{_t.upper()}"
LEGACY_SYMBOLS["_mlir_ciface_print_memref_vector_4x4xf32"] = "_mlir_ciface_printMemrefVector4x4xf32"
LEGACY_SYMBOLS["print_flops"] = "printFlops"


@dataclass
class RunOutcome:
    """Result of a successful run (program output is captured by the caller)."""

    result_text: str = ""
    backend: str = "cpu"
    timings: dict[str, float] = field(default_factory=dict)
    # The run's environment (contract 3): providers read GPURUNNER_DEVICE,
    # CUDA_VISIBLE_DEVICES and GPURUNNER_CACHE_DIR from it in start_run.
    env: Mapping[str, str] = field(default_factory=dict)
    # runner_core.cache lookups of this run: kind -> [hits, misses].
    cache: dict = field(default_factory=dict)


# ----------------------------------------------------------------- backends
def select_backend(requested: str | None, env: Mapping[str, str]) -> Backend:
    """The backend of a run: ``--backend``, else ``GPURUNNER_BACKEND``, else ``auto``
    (cuda when a GPU is usable for ``env``, else cpu)."""
    choice = requested or env.get("GPURUNNER_BACKEND") or "auto"
    if choice not in ("auto", "cpu", "cuda"):
        raise RunnerError(f"error: unknown backend '{choice}' (expected auto, cpu or cuda)")
    if choice == "cpu":
        return cpu.BACKEND
    device = cuda.BACKEND.probe(env)  # the run's GPURUNNER_DEVICE / CUDA_VISIBLE_DEVICES
    if choice == "auto":
        return cuda.BACKEND if device else cpu.BACKEND
    if not device:
        reason = cuda.BACKEND.unavailable_reason()
        raise RunnerError(
            "error: --backend=cuda: no usable CUDA backend here (no NVIDIA GPU/driver visible, "
            "or the CUDA backend is not installed); use --backend=cpu or --backend=auto"
            + (f"\n  note: {reason}" if reason else ""))
    return cuda.BACKEND


# ----------------------------------------------------------------- pipeline
def default_pipeline() -> str:
    from runner_core.passes.registry import registered_passes

    known = registered_passes()
    names = [n for _, n in _PIPELINE if n in known]
    return f"builtin.module({','.join(names)})"


def run_passes(module, pipeline: str) -> None:
    text = pipeline.strip()
    if not text or text == "builtin.module()":
        return
    from runner_core.passes.pipeline import run_pipeline

    run_pipeline(module, text)


# ------------------------------------------------------------------ parsing
def parse(text: str, filename: str, strict: bool = False):
    """The module; with ``strict``, refused as LLVM 22's mlir-runner would refuse it
    after the lowering passes the embedded mlir-opt recorded instead of running."""
    from runner_core.ir.parse import parse_source_ex

    result = parse_source_ex(text, filename)
    if strict:
        from runner_core.passes.legality import check_module
        from runner_core.passes.pipeline import deferred_passes

        check_module(result.module, deferred_passes(result.module),
                     legacy_syntax=bool(result.upgrades))
    return result.module


# -------------------------------------------------------------- entry point
def check_entry(ctx, name: str, result: str):
    """The entry function's info, or mlir-runner's error for a bad one."""
    from xdsl.dialects import builtin as b

    info = ctx.functions.get(name)
    if info is None or info.external or info.function is None:
        raise RunnerError("Error: entry point not found"
                          + (f"\n  note: no function '@{name}' with a body (select another "
                             f"with -e NAME)" if name else ""))
    ftype = info.mlir_type
    if list(ftype.inputs.data):
        raise RunnerError("Error: JIT can't invoke a main function expecting arguments")
    outs = list(ftype.outputs.data)
    if result == "void":
        if outs:
            raise RunnerError("Error: expected void function")
        return info
    want = {"i32": b.IntegerType, "i64": b.IntegerType, "f32": b.Float32Type}[result]
    ok = len(outs) == 1 and isinstance(outs[0], want)
    if ok and result in ("i32", "i64"):
        ok = outs[0].width.data == int(result[1:])
    if not ok:
        raise RunnerError(f"Error: only single {result} function result supported")
    return info


def add_entry_thunk(module: ir.Module, info, result: str) -> None:
    """``void _gpurunner_entry(ptr out)``: call the entry point, store its result."""
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [ir.PointerType()]), ENTRY_THUNK)
    bld = ir.IRBuilder(fn.append_basic_block("entry"))
    res = bld.call(info.function, [])
    if result != "void":
        bld.store(res, fn.args[0])
    bld.ret_void()


# ------------------------------------------------------- symbol resolution
_SYMBOL_REF = re.compile(r'@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)')


def external_symbols(module: ir.Module, text: str) -> list[str]:
    """External functions/globals the code actually refers to.

    A declaration nothing uses needs no definition (upstream's JIT never looks
    it up either), so ``func.func private @f()`` without calls is harmless.
    """
    counts: dict[str, int] = {}
    for m in _SYMBOL_REF.finditer(text):
        name = m.group(1)
        if name.startswith('"'):
            name = name[1:-1]
        counts[name] = counts.get(name, 0) + 1
    out = []
    for gv in module.global_values:
        if isinstance(gv, ir.Function):
            external = gv.is_declaration and not gv.name.startswith("llvm.")
        else:
            external = isinstance(gv, ir.GlobalVariable) and gv.initializer is None
        if external and counts.get(gv.name, 0) > 1:
            out.append(gv.name)
    return out


def resolve_symbols(names: list[str], libraries, core_symbols: Mapping[str, int]
                    ) -> tuple[dict[str, int], list[str]]:
    """Addresses for ``names`` from the core runtime, the libraries (in order),
    2021 aliases, then the process; also the names nothing provides."""
    from runner_core.targets.host import process_symbol

    found: dict[str, int] = {}
    missing: list[str] = []
    for name in names:
        addr = core_symbols.get(name)
        candidates = [name] + ([LEGACY_SYMBOLS[name]] if name in LEGACY_SYMBOLS else [])
        for cand in candidates:
            if addr:
                break
            for lib in libraries:
                addr = lib.lookup(cand)
                if addr:
                    break
        if not addr:
            addr = process_symbol(name)
        if addr:
            found[name] = addr
        else:
            missing.append(name)
    return found, missing


def unresolved_error(missing: list[str], entry: str, libraries) -> RunnerError:
    libs = ", ".join(getattr(lib, "name", str(lib)) for lib in libraries) or "none"
    # The advice names the library that defines what is missing: mgpu* is the GPU
    # runtime's (the CUDA runtime wrappers), the rest the runner utilities'.
    gpu = [name for name in missing if name.startswith("mgpu")]
    advice = []
    if gpu:
        advice.append(f"mgpu* functions ({', '.join(gpu)}) come from the GPU runtime: "
                      f"--shared-libs=%mlir_cuda_runtime (libmlir_cuda_runtime)")
    if len(gpu) < len(missing):
        advice.append("runtime functions such as printMemref*/printI64 come from "
                      "--shared-libs=%mlir_runner_utils,%mlir_c_runner_utils")
    return RunnerError(
        f"JIT session error: Symbols not found: [ {', '.join(missing)} ]\n"
        f"Error: Failed to materialize symbols: {{ (main, {{ {entry} }}) }}\n"
        f"  note: unresolved external functions: {', '.join(missing)} (--shared-libs: {libs}); "
        + "; ".join(advice))


# ---------------------------------------------------------------------- run
def with_source_line(err: UnsupportedError, text: str, filename: str) -> UnsupportedError:
    """The same error, showing the offending source line and a caret when we have it."""
    loc = err.location
    if loc is None or loc.filename != filename:
        return err
    lines = text.splitlines()
    if not 1 <= loc.line <= len(lines):
        return err
    msg = format_diagnostic(f"unsupported: {err.what}", loc, lines[loc.line - 1])
    rest = str(err).split("\n", 1)
    if len(rest) == 2:
        msg += "\n" + rest[1]
    new = UnsupportedError(err.what, loc)
    new.args = (msg,)
    return new


def format_result(result: str, raw) -> str:
    if result == "void":
        return ""
    if result == "f32":
        v = float(raw)
        if math.isnan(v):
            return ("-nan" if math.copysign(1.0, v) < 0 else "nan") + "\n"
        return f"{v:e}\n"
    return f"{int(raw)}\n"


def _finish_providers(providers, outcome) -> None:
    """Every provider finishes (drains its workers) even when an earlier one reports
    an error; the first error is raised afterwards (e.g. a CUDA fault of the run)."""
    from runner_core.runtime.provider import raise_pending_interrupt

    first: BaseException | None = None
    for p in providers:
        try:
            p.finish_run(outcome)
        except BaseException as err:  # noqa: BLE001 - re-raised below
            if first is None:
                first = err
    raise_pending_interrupt()  # a timeout or Ctrl-C that arrived inside a runtime callback
    if first is not None:
        raise first


def _raise_bounds_violation() -> None:
    from runner_core.runtime import bounds_state as bounds

    message = bounds.take_violation()
    if message:
        raise ExecutionError(message)


def _prebuilt_kernels_only(module) -> bool:
    """Kernels only as ``gpu.binary`` objects (none for our own compiler to build)."""
    names = {op.name for op in module.walk()}
    return "gpu.binary" in names and "gpu.module" not in names


# Programs whose code generation depends on more than their text and options (GPU
# kernels are compiled for the device found at run time), or reaches into the process.
_NOT_CACHED = ("gpu.module", "gpu.binary")


def _frontend_key(text: str, opts: RunOptions, pipeline: str, backend: Backend,
                  check_bounds: bool) -> str | None:
    """The ``frontend`` cache key of a run (``runner_core.cache``), or None: not cached."""
    if check_bounds or opts.print_llvm_ir or any(word in text for word in _NOT_CACHED):
        return None
    from runner_core import cache

    options = repr((opts.entry, opts.entry_result, opts.opt_level, sorted(opts.llvm_cl.items()),
                    backend.name, pipeline, opts.strict, input_policy.requested(opts.env)))
    return cache.make_key("frontend", [options, opts.filename, text])


def _deterministic(err: RunnerError) -> bool:
    """A front-end refusal that depends only on what the ``frontend`` key holds (the text,
    its options, the runner's code), so that it may be kept: not one that depends on a
    device, a library on disk or the run itself."""
    from runner_core.backends.cuda.driver import CudaUnavailable
    from runner_core.backends.cuda.nvptx import PTXError
    from runner_core.runtime.registry import SharedLibraryError
    from runner_core.targets.host import LinkError

    return not isinstance(err, (ExecutionError, CudaUnavailable, PTXError, SharedLibraryError,
                                LinkError))


def _front_end(text: str, opts: RunOptions, pipeline: str, backend: Backend,
               check_bounds: bool, timings: dict, t0: float) -> tuple[str, list[str], bool]:
    """Parse, prepare and lower ``text``: (LLVM IR with the entry thunk, external symbols,
    whether every kernel is a prebuilt ``gpu.binary`` object on the cuda backend)."""
    from runner_core.codegen import bounds, lower_module
    from runner_core.codegen.target import host_target

    module = parse(text, opts.filename, strict=opts.strict)
    if "unrealized_conversion_cast" in text:  # no walk over programs that hold no cast
        from runner_core.ir import half_lowered

        try:
            half_lowered.check(module)
        except UnsupportedError as err:
            raise with_source_line(err, text, opts.filename) from None
    if input_policy.requested(opts.env):  # standing in for the real mlir-runner (hybrid)
        input_policy.check(module)
    timings["parse"] = time.perf_counter() - t0
    t = time.perf_counter()
    run_passes(module, pipeline)
    timings["passes"] = time.perf_counter() - t
    prebuilt = backend.name == "cuda" and _prebuilt_kernels_only(module)
    t = time.perf_counter()
    try:
        llmod, ctx = lower_module(module, host_target(), name=os.path.basename(opts.filename),
                                  filename=opts.filename, backend=backend,
                                  options={"opt_level": opts.opt_level,
                                           bounds.OPTION: check_bounds,
                                           "llvm_cl": opts.llvm_cl})
    except UnsupportedError as err:
        raise with_source_line(err, text, opts.filename) from None
    info = check_entry(ctx, opts.entry, opts.entry_result)
    add_entry_thunk(llmod, info, opts.entry_result)
    timings["codegen"] = time.perf_counter() - t
    ir_text = str(llmod)
    return ir_text, external_symbols(llmod, ir_text), prebuilt


def run_program(text: str, opts: RunOptions) -> RunOutcome:
    """Parse, prepare, compile and run ``text``; raises RunnerError on failure.

    The front end's product (LLVM IR) and the JIT's (an object image) come from
    ``runner_core.cache`` when the same program ran before with the same options."""
    from runner_core import cache
    from runner_core.runtime import bounds_state as bounds
    from runner_core.runtime.core import core
    from runner_core.runtime.registry import resolve_shared_libs
    from runner_core.targets.host import compile_ir

    if opts.entry_result not in ENTRY_RESULTS:
        raise RunnerError("Error: unsupported function type")
    t0 = time.perf_counter()
    timings: dict[str, float] = {}
    backend = select_backend(opts.backend, opts.env)
    check_bounds = bounds.requested(opts.bounds_check, opts.env)
    # A missing --shared-libs file: mlir-runner 22 says so and goes on.  So do the runs that
    # stand in for it (hybrid) and its strict names; gpurunner's own names refuse it
    # (contract 6: a typo in a library path is named, not silently skipped).
    missing_ok = input_policy.requested(opts.env) or opts.strict
    libraries = resolve_shared_libs(opts.shared_libs, cwd=opts.cwd,
                                    gpu_runtime=backend.runtime_provider(), missing_ok=missing_ok)
    before = cache.counters()
    # The default pipeline is the runner's own code, which the key's code fingerprint
    # covers: the key names it without loading the pass registry (and xDSL), so that a
    # run answered from the cache imports neither.
    named = opts.pass_pipeline if opts.pass_pipeline is not None else "<default pipeline>"
    key = _frontend_key(text, opts, named, backend, check_bounds)
    hit = cache.get_json("frontend", opts.env, key) if key else None
    if isinstance(hit, dict) and isinstance(hit.get("error"), str):
        err = RunnerError(hit["error"])  # the front end refused this program before
        err.exit_code = int(hit.get("exit_code", 1))
        raise err
    if isinstance(hit, dict) and isinstance(hit.get("ir"), str):
        ir_text, externals = hit["ir"], list(hit.get("externals", []))
        timings["frontend_cached"] = time.perf_counter() - t0
    else:
        try:
            pipeline = opts.pass_pipeline if opts.pass_pipeline is not None \
                else default_pipeline()
            ir_text, externals, prebuilt = _front_end(text, opts, pipeline, backend,
                                                      check_bounds, timings, t0)
        except RunnerError as err:
            if key and _deterministic(err):
                cache.put_json("frontend", opts.env, key,
                               {"error": str(err), "exit_code": getattr(err, "exit_code", 1)})
            raise
        if prebuilt:
            # Upstream's own libmlir_cuda_runtime.so, given by path, can load these kernels.
            libraries = resolve_shared_libs(opts.shared_libs, cwd=opts.cwd,
                                            gpu_runtime=backend.runtime_provider(),
                                            real_gpu_runtime=True, missing_ok=missing_ok,
                                            quiet=True)
        if key:
            cache.put_json("frontend", opts.env, key, {"ir": ir_text, "externals": externals})
    the_core = core()
    found, missing = resolve_symbols(externals, libraries, the_core.symbols)
    if opts.print_llvm_ir:
        from runner_core.runtime.cstdio import flush_all, write_stderr

        write_stderr(ir_text.encode())
        flush_all()
    if missing:
        raise unresolved_error(missing, opts.entry, libraries)
    if opts.object_file is not None:
        from runner_core.targets.host import write_object

        write_object(ir_text, os.path.join(opts.cwd, opts.object_file), opt=opts.opt_level)
    t = time.perf_counter()
    lib = compile_ir(ir_text, opt=opts.opt_level, exports=[ENTRY_THUNK], imports=found,
                     name=os.path.basename(opts.filename) or "program", cache_env=opts.env)
    timings["jit"] = time.perf_counter() - t
    outcome = RunOutcome(backend=backend.name, timings=timings, env=opts.env)
    outcome.cache = cache.delta(before)
    providers = [getattr(x, "provider", None) for x in libraries]
    providers = [p for p in providers if p is not None]
    slot = {"i32": ctypes.c_int32, "i64": ctypes.c_int64, "f32": ctypes.c_float,
            "void": ctypes.c_int64}[opts.entry_result]()
    t = time.perf_counter()
    for p in providers:
        p.start_run(outcome)
    bounds.begin_run()
    try:
        try:
            failed = the_core.invoke(lib.address(ENTRY_THUNK), ctypes.addressof(slot))
        finally:
            _finish_providers(providers, outcome)
    except RunnerError:
        _raise_bounds_violation()  # a checked access stopped the program (in any thread)
        raise
    timings["run"] = time.perf_counter() - t
    if failed:
        _raise_bounds_violation()
        # The message lives in the program's constants: read it before the code is freed.
        msg, loc = the_core.last_failure()
        where = f"{loc}: " if loc else ""
        del lib
        raise ExecutionError(f"{where}error: 'cf.assert' failed: {msg}")
    del lib  # the code may be freed now that the run (and its workers) are done
    outcome.result_text = format_result(opts.entry_result, slot.value)
    return outcome
