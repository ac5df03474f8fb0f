"""xDSL IR -> LLVM IR with llvmlite: one emitter, one module per source dialect.

Public surface:

* :func:`lower_module` (``emitter``) - emit a whole ``builtin.module``.
* :func:`registry.lowering` / :func:`registry.register_module_op` - plug in
  lowerings of more ops, optionally for one target only.
* :class:`LoweringContext` - what a lowering function receives.
* :class:`TargetDescription` - per-target choices (math, address spaces).
* :func:`types.register_type` - teach the converter a new type.
"""

from __future__ import annotations

import importlib

from .context import FunctionInfo, LoweringContext
from .emitter import lower_module
from .registry import lowering, register, register_module_op
from .target import TargetDescription, host_target

# The dialect modules of this package; each registers its lowerings on import.
DIALECT_MODULES = ("func", "arith", "math", "index", "memref", "scf", "cf", "vector",
                   "vector_memory", "vector_transfer", "vector_shape", "vector_contract", "llvm",
                   "llvm_matrix", "llvm_coro", "builtin", "linalg")
# Modules other packages add (e.g. "runner_core.codegen.gpu_host"); imported
# lazily by lower_module so that they may import this package themselves.
EXTRA_MODULES: list[str] = ["runner_core.codegen.gpu_host", "runner_core.codegen.gpu_device",
                             "runner_core.codegen.async_lowering"]

_loaded: set[str] = set()


def load_dialect_lowerings() -> None:
    for mod in DIALECT_MODULES:
        if mod not in _loaded:
            importlib.import_module(f"{__name__}.{mod}")
            _loaded.add(mod)
    for mod in list(EXTRA_MODULES):
        if mod not in _loaded:
            importlib.import_module(mod)
            _loaded.add(mod)


__all__ = ["FunctionInfo", "LoweringContext", "TargetDescription", "host_target",
           "load_dialect_lowerings", "lower_module", "lowering", "register",
           "register_module_op", "DIALECT_MODULES", "EXTRA_MODULES"]
