"""Runtime libraries named by ``--shared-libs``: real files or built-in providers.

Resolution of one ``--shared-libs`` value:

1. a path that exists on disk is loaded as the real shared library (unless a
   provider for its name declares it must replace real files on the current
   backend, e.g. the CUDA runtime wrappers on the CPU backend);
2. otherwise its *name* (directory, ``lib`` prefix and ``.so``/``%shlibext``
   style extensions removed) selects a registered built-in provider;
3. otherwise it is an error naming the known runtimes.

A provider is a plain Python object (subclass :class:`Provider`) registered
with :func:`register_provider`; users may add their own from a conftest.
Real libraries are opened with ``RTLD_LOCAL`` and symbols are looked up
per run, so what one test loads never changes what another resolves.
"""

from __future__ import annotations

import ctypes
import os
import re
import threading
from collections.abc import Callable, Iterable, Mapping

from runner_core.errors import RunnerError


class SharedLibraryError(RunnerError):
    """A ``--shared-libs`` value that names nothing we can load."""


class Provider:
    """A built-in implementation of a runtime library's C functions.

    Subclasses set ``name`` (canonical library name, e.g. ``mlir_runner_utils``),
    optionally ``aliases`` (other names it answers to) and ``backends`` (the
    backends it serves; ``None`` = all), and implement :meth:`build_symbols`
    returning ``{symbol: address}``; addresses must stay valid for the life of
    the process (keep ctypes callbacks and JIT libraries referenced).
    """

    name: str = ""
    aliases: tuple[str, ...] = ()
    backends: frozenset[str] | None = None
    # When True, a real file of this name is ignored on the backends served
    # (the built-in implementation is the point, e.g. GPU runtime on CPU).
    replaces_real_library: bool = False

    def __init__(self) -> None:
        self._symbols: dict[str, int] | None = None
        self._lock = threading.Lock()

    def build_symbols(self) -> Mapping[str, int]:  # pragma: no cover - abstract
        raise NotImplementedError

    def symbols(self) -> Mapping[str, int]:
        if self._symbols is None:
            with self._lock:
                if self._symbols is None:
                    self._symbols = dict(self.build_symbols())
        return self._symbols

    def lookup(self, symbol: str) -> int | None:
        return self.symbols().get(symbol)

    def answers_to(self, normalized: str) -> bool:
        return normalized == self.name or normalized in self.aliases

    # Optional per-run hooks (e.g. an async scheduler draining its workers).
    def start_run(self, run) -> None:
        pass

    def finish_run(self, run) -> None:
        pass

    def __repr__(self) -> str:
        return f"<provider {self.name}>"


_providers: list[Provider] = []
_registry_lock = threading.Lock()
_builtins_loaded = False


def c_callback(fn: Callable, on_error: Callable[[Exception], object], result=0) -> Callable:
    """``fn`` made safe to call from C through ctypes: an exception never crosses into
    C (ctypes would only print it); it goes to ``on_error`` and ``result`` is returned."""

    def wrapped(*args):
        try:
            return fn(*args)
        except Exception as err:
            on_error(err)
            return result

    return wrapped


def register_provider(provider: Provider, *, replace: bool = False) -> Provider:
    """Add a provider; with ``replace`` it supersedes same-named ones for its backends."""
    with _registry_lock:
        if replace:
            _providers[:] = [p for p in _providers
                             if not (p.name == provider.name and p.backends == provider.backends)]
        _providers.insert(0, provider)  # later registrations win
    return provider


def unregister_provider(provider: Provider) -> None:
    with _registry_lock:
        if provider in _providers:
            _providers.remove(provider)


def providers() -> list[Provider]:
    _load_builtins()
    return list(_providers)


def _load_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True
        from . import c_runner_utils, runner_utils  # noqa: F401  (register on import)

        for mod in BUILTIN_PROVIDER_MODULES:
            __import__(mod)


# Modules of other packages that register providers on import (async, cuda...).
BUILTIN_PROVIDER_MODULES: list[str] = [
    "runner_core.runtime.cuda_runtime",  # mlir_cuda_runtime on the cuda backend (no import cost)
    "runner_core.runtime.cpu_gpu",  # mlir_cuda_runtime on the cpu backend
    "runner_core.runtime.async_runtime",  # mlir_async_runtime
]

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


def find_provider(value: str, backend: str = "cpu") -> Provider | None:
    norm = normalize_library_name(value)
    for p in providers():
        if p.answers_to(norm) and (p.backends is None or backend in p.backends):
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
REAL_LIBRARY_HOOKS: dict[str, Callable] = {}


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


def known_names(backend: str = "cpu") -> list[str]:
    names = []
    for p in providers():
        if p.backends is None or backend in p.backends:
            names.append(p.name)
    return sorted(set(names))


def split_values(values: Iterable[str]) -> list[str]:
    out = []
    for v in values:
        out += [x.strip() for x in v.split(",") if x.strip()]
    return out


def resolve_shared_libs(values: Iterable[str], *, cwd: str = ".", backend: str = "cpu"
                        ) -> list[Library]:
    """Turn ``--shared-libs`` values into libraries, in command-line order."""
    libs: list[Library] = []
    for value in split_values(values):
        path = value if os.path.isabs(value) else os.path.join(cwd, value)
        provider = find_provider(value, backend)
        if os.path.isfile(path) and not (provider and provider.replaces_real_library):
            libs.append(RealLibrary(path))
        elif provider is not None:
            libs.append(ProviderLibrary(value, provider))
        else:
            raise SharedLibraryError(
                f"error: --shared-libs: cannot open '{value}': no such file, and "
                f"'{normalize_library_name(value)}' is not a built-in runtime library "
                f"(built-in: {', '.join(known_names(backend))})")
    return libs
