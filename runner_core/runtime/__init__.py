"""Runtime support of the embedded runner: library providers, fd capture, core hooks.

* :mod:`.provider` - what a provider is (:class:`Provider`).
* :mod:`.registry` - ``--shared-libs`` resolution and the user's providers
  (:func:`register_provider`).
* :mod:`.shipped` - the providers that ship with the runner
  (:mod:`.c_runner_utils`, :mod:`.runner_utils`, :mod:`.async_runtime`).
* :mod:`.capture` - capturing fd 1/2 around a run.
* :mod:`.core` - entry trampoline and assertion unwinding.
"""

from .provider import Provider
from .registry import (
    Library,
    ProviderLibrary,
    RealLibrary,
    SharedLibraryError,
    find_provider,
    normalize_library_name,
    register_provider,
    resolve_shared_libs,
    unregister_provider,
)

__all__ = ["Library", "Provider", "ProviderLibrary", "RealLibrary", "SharedLibraryError",
           "find_provider", "normalize_library_name", "register_provider", "resolve_shared_libs",
           "unregister_provider"]
