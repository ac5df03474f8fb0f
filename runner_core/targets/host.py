"""Compiling LLVM IR for this machine and linking it into the process.

ORC's LLJIT (through llvmlite's ``JITLibraryBuilder``) is used rather than
MCJIT for two reasons: it is as fast or faster for the small modules tests
produce (``bench/host_jit.py``: 1.9 ms against 4.4 ms per module at -O0), and
it resolves external symbols *per library* from an explicit import table.  MCJIT only knows a process-global symbol table, so
one test loading Debian's ``libmlir_runner_utils.so`` would change what the
next test's ``printMemrefF32`` means.

The LLJIT instances (one per optimisation level) live for the whole process:
creating one costs more than compiling a small module.  A linked
:class:`JITLibrary` stays valid while the object is referenced; the engine
keeps every library of a run alive until the run (including any threads it
started) is over.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import llvmlite.binding as llvm

from runner_core.errors import RunnerError

_lock = threading.Lock()
_initialized = False
_target_machines: dict[int, llvm.TargetMachine] = {}
_jits: dict[int, object] = {}
_names = itertools.count()


def _init() -> None:
    global _initialized
    if not _initialized:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        llvm.initialize_native_asmparser()
        _initialized = True


def _new_host_machine(opt: int) -> llvm.TargetMachine:
    target = llvm.Target.from_triple(llvm.get_process_triple())
    return target.create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=llvm.get_host_cpu_features().flatten(),
        opt=opt,
        codemodel="jitdefault",
        jit=True,
    )


def native_target_machine(opt: int = 0) -> llvm.TargetMachine:
    """A target machine for the host CPU at codegen level ``opt`` (cached)."""
    with _lock:
        _init()
        tm = _target_machines.get(opt)
        if tm is None:
            tm = _new_host_machine(opt)
            _target_machines[opt] = tm
        return tm


def _lljit(opt: int):
    with _lock:
        jit = _jits.get(opt)
    if jit is None:
        # A separate target machine: the JIT must not share ownership with the
        # one used for optimisation pipelines.
        tm = _new_host_machine(opt)
        jit = llvm.create_lljit_compiler(tm, suppress_errors=True)
        jit._gpurunner_tm = tm  # keep the machine alive with the JIT
        with _lock:
            _jits.setdefault(opt, jit)
            jit = _jits[opt]
    return jit


_objects: dict[int, llvm.TargetMachine] = {}


def _object_machine(opt: int) -> llvm.TargetMachine:
    """The machine that makes cached object images: configured like the JIT's own."""
    with _lock:
        tm = _objects.get(opt)
        if tm is None:
            tm = _objects[opt] = _new_host_machine(opt)
        return tm


def _host_identity() -> str:
    """What machine code depends on besides the IR: the CPU, its features, LLVM's version."""
    return f"{llvm.get_process_triple()}|{llvm.get_host_cpu_name()}|" \
           f"{llvm.get_host_cpu_features().flatten()}|{llvm.llvm_version_info}"


def warm_jit(opt: int = 0) -> None:
    """Create the -O``opt`` JIT now (tens of ms), before a run waits for it."""
    _init()
    _lljit(opt)


def _has_coroutines(module: llvm.ModuleRef) -> bool:
    """Coroutines (async.execute bodies) must be split even at -O0; LLVM's O0 pipeline does it."""
    return any(f.name.startswith("llvm.coro.") for f in module.functions)


def optimize(module: llvm.ModuleRef, opt: int) -> None:
    """Run LLVM's default -O``opt`` module pipeline on ``module`` in place."""
    if opt <= 0 and not _has_coroutines(module):
        return
    tm = native_target_machine(opt)
    pto = llvm.create_pipeline_tuning_options(speed_level=opt)
    pb = llvm.create_pass_builder(tm, pto)
    pm = pb.getModulePassManager()
    pm.run(module, pb)


@dataclass
class JITLibrary:
    """Native code linked into the process; addresses valid while this lives."""

    name: str
    addresses: dict[str, int]
    _tracker: object = field(repr=False, default=None)

    def address(self, symbol: str) -> int:
        return self.addresses[symbol]


class LinkError(RunnerError):
    """The JIT could not link a module (reported like mlir-runner's session error)."""


def parse_ir(text: str, name: str = "module") -> llvm.ModuleRef:
    _init()
    try:
        mod = llvm.parse_assembly(text)
        mod.verify()
    except RuntimeError as err:
        # Our emitter produced invalid IR: that is a bug, but say where.
        raise RunnerError(f"internal error: generated LLVM IR for {name} is invalid: {err}") from err
    return mod


def compile_ir(text_or_module, *, opt: int = 0, exports: Iterable[str] = (),
               imports: Mapping[str, int] | None = None, name: str = "module",
               link_process: bool = True,
               cache_env: Mapping[str, str] | None = None) -> JITLibrary:
    """Optimise (at -O``opt``), compile and link LLVM IR; return the exported addresses.

    ``imports`` maps external symbol names to addresses (runtime providers,
    real shared libraries).  With ``cache_env`` (a run's environment) the object
    code is kept in, and taken from, ``runner_core.cache`` (kind ``object``).  With ``link_process`` the process's own symbols
    (libc, libm) satisfy whatever ``imports`` does not.
    """
    _init()
    key = None
    image = None
    if cache_env is not None and not isinstance(text_or_module, llvm.ModuleRef):
        from runner_core import cache

        key = cache.make_key("object", [str(opt), _host_identity(), str(text_or_module)])
        image = cache.STORES["object"].get(cache_env, key)
    builder = llvm.JITLibraryBuilder()
    if image is not None:
        builder.add_object_img(image)
    else:
        if isinstance(text_or_module, llvm.ModuleRef):
            mod = text_or_module
        else:
            mod = parse_ir(str(text_or_module), name)
        optimize(mod, opt)
        if key is not None:
            # The JIT's own compile of the IR, done here so the image can be kept: the
            # same target machine settings as the JIT's (host CPU and features, -O level).
            image = _object_machine(opt).emit_object(mod)
            cache.STORES["object"].put(cache_env, key, image)
            builder.add_object_img(image)
        else:
            builder.add_ir(str(mod))
    if link_process:
        builder.add_current_process()
    for sym, addr in (imports or {}).items():
        builder.import_symbol(sym, addr)
    exports = list(exports)
    for sym in exports:
        builder.export_symbol(sym)
    libname = f"{name}.{next(_names)}"
    try:
        tracker = builder.link(_lljit(opt), libname)
    except RuntimeError as err:
        raise LinkError(f"Error: {err}") from err
    return JITLibrary(libname, {s: tracker[s] for s in exports}, tracker)


def write_object(text: str, path: str, *, opt: int = 0, name: str = "module") -> None:
    """mlir-runner's -dump-object-file: the host object code of the program, as
    the JIT compiles it (after the -O``opt`` pipeline), written to ``path``."""
    _init()
    mod = parse_ir(text, name)
    optimize(mod, opt)
    data = native_target_machine(opt).emit_object(mod)
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as err:
        raise RunnerError(f"error: could not open '{path}': {err.strerror}") from None


def process_symbol(name: str) -> int | None:
    """Address of ``name`` among the symbols already loaded in this process."""
    _init()
    addr = llvm.address_of_symbol(name)
    return int(addr) if addr else None
