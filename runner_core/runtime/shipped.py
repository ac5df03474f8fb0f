"""The providers that ship with the runner, listed once.

Upstream's runtime libraries the runner implements itself: ``mlir_runner_utils``,
``mlir_c_runner_utils``, ``mlir_float16_utils`` and ``mlir_async_runtime``.  The ``mgpu*`` GPU runtime is
not here: each backend brings its own (``Backend.runtime_provider``).  Listing
them here, rather than having each module register itself when imported, keeps
the registry free of imports of its providers and the table readable in one place.
"""

from __future__ import annotations

from . import async_runtime, c_runner_utils, float16_utils, runner_utils

PROVIDERS = (async_runtime.PROVIDER, runner_utils.PROVIDER, c_runner_utils.PROVIDER,
             float16_utils.PROVIDER)

# Per-run hooks for *real* libraries of these names (see registry.REAL_LIBRARY_HOOKS).
REAL_LIBRARY_HOOKS = {"mlir_async_runtime": async_runtime.RealAsyncRuntimeHook}
