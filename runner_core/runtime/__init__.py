"""Runtime support of the embedded runner: library providers, fd capture, core hooks.

* :mod:`.registry` - ``--shared-libs`` resolution and the provider table
  (:func:`register_provider`).
* :mod:`.c_runner_utils`, :mod:`.runner_utils` - built-in upstream runtimes.
* :mod:`.capture` - capturing fd 1/2 around a run.
* :mod:`.core` - entry trampoline and assertion unwinding.
"""

from .registry import (
    BUILTIN_PROVIDER_MODULES,
    Library,
    Provider,
    ProviderLibrary,
    RealLibrary,
    SharedLibraryError,
    find_provider,
    normalize_library_name,
    register_provider,
    resolve_shared_libs,
    unregister_provider,
)

__all__ = ["BUILTIN_PROVIDER_MODULES", "Library", "Provider", "ProviderLibrary", "RealLibrary",
           "SharedLibraryError", "find_provider", "normalize_library_name", "register_provider",
           "resolve_shared_libs", "unregister_provider"]
