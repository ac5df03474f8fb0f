"""Runtime libraries named by ``--shared-libs``: real files or built-in providers.

Resolution of one ``--shared-libs`` value:

1. a path that exists on disk is loaded as the real shared library (unless the
   provider for its name must replace real files: the backend's ``mgpu*``
   runtime, which loads that backend's kernel images);
2. otherwise its *name* (directory, ``lib`` prefix and ``.so``/``%shlibext``
   style extensions removed) selects a provider: one registered with
   :func:`register_provider` (users, from a conftest; later ones first), the
   run's GPU runtime (``Backend.runtime_provider``), then those that ship with
   the runner (:mod:`.shipped`);
3. otherwise it is an error naming the known runtimes.

Real libraries are opened with ``RTLD_LOCAL`` and symbols are looked up
per run, so what one test loads never changes what another resolves.
"""

from __future__ import annotations

import ctypes
import os
import re
import threading
from collections.abc import Callable, Iterable

from runner_core.errors import RunnerError

from . import shipped
from .provider import Provider


class SharedLibraryError(RunnerError):
    """A ``--shared-libs`` value that names nothing we can load."""


_registered: list[Provider] = []
_registry_lock = threading.Lock()


def register_provider(provider: Provider, *, replace: bool = False) -> Provider:
    """Add a provider (it wins over earlier ones); with ``replace`` it also drops the
    registered ones of the same name."""
    with _registry_lock:
        if replace:
            _registered[:] = [p for p in _registered if p.name != provider.name]
        _registered.insert(0, provider)
    return provider


def unregister_provider(provider: Provider) -> None:
    with _registry_lock:
        if provider in _registered:
            _registered.remove(provider)


def providers(gpu_runtime: Provider | None = None) -> list[Provider]:
    """Every provider a run may use, in the order names are looked up."""
    with _registry_lock:
        out = list(_registered)
    if gpu_runtime is not None:
        out.append(gpu_runtime)
    return out + list(shipped.PROVIDERS)


_EXT = re.compile(r"(\.so(\.\d+)*|\.dylib|\.dll|%shlibext)$")


def normalize_library_name(value: str) -> str:
    """``%linalg_test_lib_dir/libmlir_runner_utils%shlibext`` -> ``mlir_runner_utils``."""
    base = value.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    base = _EXT.sub("", base)
    base = _EXT.sub("", base)
    if base.startswith("%"):
        base = base[1:]
    if base.startswith("lib") and len(base) > 3:
        base = base[3:]
    return base


def find_provider(value: str, gpu_runtime: Provider | None = None) -> Provider | None:
    norm = normalize_library_name(value)
    for p in providers(gpu_runtime):
        if p.answers_to(norm):
            return p
    return None


class Library:
    """One resolved ``--shared-libs`` entry."""

    name: str

    def lookup(self, symbol: str) -> int | None:  # pragma: no cover - abstract
        raise NotImplementedError


# Per-run hooks for *real* libraries, by normalised name: ``factory(real_library)``
# returns an object with ``start_run(run)``/``finish_run(run)`` that the engine calls
# like a provider's (e.g. the async runtime's: wait until the real library's worker
# threads have left the program's code before it is freed).
REAL_LIBRARY_HOOKS: dict[str, Callable] = dict(shipped.REAL_LIBRARY_HOOKS)


class RealLibrary(Library):
    """A shared object from disk, opened privately (``RTLD_LOCAL``)."""

    _cache: dict[str, ctypes.CDLL] = {}

    def __init__(self, path: str):
        self.name = path
        self.path = os.path.realpath(path)
        handle = self._cache.get(self.path)
        if handle is None:
            try:
                handle = ctypes.CDLL(self.path, mode=os.RTLD_LAZY | os.RTLD_LOCAL)
            except OSError as err:
                raise SharedLibraryError(f"error: --shared-libs: cannot load '{path}': {err}") \
                    from None
            self._cache[self.path] = handle
        self.handle = handle
        self._addrs: dict[str, int | None] = {}
        hook = REAL_LIBRARY_HOOKS.get(normalize_library_name(path))
        # The engine runs start_run/finish_run of a library's ``provider``.
        self.provider = hook(self) if hook is not None else None

    def lookup(self, symbol: str) -> int | None:
        if symbol not in self._addrs:
            try:
                fn = getattr(self.handle, symbol)
                self._addrs[symbol] = ctypes.cast(fn, ctypes.c_void_p).value
            except AttributeError:
                self._addrs[symbol] = None
        return self._addrs[symbol]

    def __repr__(self) -> str:
        return f"<library {self.path}>"


class ProviderLibrary(Library):
    def __init__(self, value: str, provider: Provider):
        self.name = value
        self.provider = provider

    def lookup(self, symbol: str) -> int | None:
        return self.provider.lookup(symbol)

    def __repr__(self) -> str:
        return f"<{self.name} -> built-in {self.provider.name}>"


def known_names(gpu_runtime: Provider | None = None) -> list[str]:
    return sorted({p.name for p in providers(gpu_runtime)})


def split_values(values: Iterable[str]) -> list[str]:
    out = []
    for v in values:
        out += [x.strip() for x in v.split(",") if x.strip()]
    return out


def resolve_shared_libs(values: Iterable[str], *, cwd: str = ".",
                        gpu_runtime: Provider | None = None,
                        real_gpu_runtime: bool = False,
                        missing_ok: bool = False, quiet: bool = False) -> list[Library]:
    """Turn ``--shared-libs`` values into libraries, in command-line order.

    ``gpu_runtime`` is the run's backend's ``mgpu*`` provider (None: no GPU runtime
    name is known).  ``real_gpu_runtime``: a real file of that name is loaded too
    (the program's kernels are objects any ``mgpuModuleLoad`` reads: ``gpu.binary``).
    ``missing_ok``: a value that is neither a file nor a known name is reported on stderr
    and skipped, as the real mlir-runner does (the runner standing in for it); ``quiet``:
    skipped without a word (a second resolution of the same values)."""
    libs: list[Library] = []
    for value in split_values(values):
        path = value if os.path.isabs(value) else os.path.join(cwd, value)
        provider = find_provider(value, gpu_runtime)
        replaced = provider is not None and provider.replaces_real_library and not (
            real_gpu_runtime and provider is gpu_runtime)
        if os.path.isfile(path) and not replaced:
            libs.append(RealLibrary(path))
        elif provider is not None:
            libs.append(ProviderLibrary(value, provider))
        elif missing_ok and quiet:
            continue
        elif missing_ok:
            # What the real mlir-runner does: say so and go on (the symbols may come from
            # elsewhere; if not, the link fails naming them).
            from .cstdio import write_stderr

            write_stderr(f"Failed to create MemoryBuffer for: {os.path.abspath(path)}\n"
                         "Error: No such file or directory\n".encode())
        else:
            raise SharedLibraryError(
                f"error: --shared-libs: cannot open '{value}': no such file, and "
                f"'{normalize_library_name(value)}' is not a built-in runtime library "
                f"(built-in: {', '.join(known_names(gpu_runtime))})")
    return libs
