"""xDSL IR -> LLVM IR with llvmlite: one emitter, one module per source dialect.

Public surface:

* :func:`lower_module` / :func:`lower_gpu_module` (``emitter``) - emit a whole
  ``builtin.module`` / one ``gpu.module`` for a kernel target's hooks.
* :class:`registry.Registry` - a module's lowerings (``registry.lowering``,
  ``registry.register_module_op``, optionally for one target only);
  :mod:`lowerings` lists the modules and builds each target's
  :class:`registry.LoweringTable`.
* :class:`LoweringContext` - what a lowering function receives.
* :class:`TargetDescription` - per-target choices (math, address spaces).
* :func:`types.register_type` - teach the converter a new type.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for readers and checkers; at run time ``__getattr__`` loads them
    from .context import FunctionInfo, LoweringContext
    from .emitter import lower_gpu_module, lower_module
    from .registry import LoweringTable, Registry
    from .target import TargetDescription, host_target

# The public names load their modules on first use (PEP 562): a light module of this
# package, such as ``target``, is imported by the cuda runtime provider, and a run answered
# from the cache must not pay for the emitter and xDSL through this file (issue 17).
_HOME = {"FunctionInfo": "context", "LoweringContext": "context",
         "lower_gpu_module": "emitter", "lower_module": "emitter",
         "LoweringTable": "registry", "Registry": "registry",
         "TargetDescription": "target", "host_target": "target"}


def __getattr__(name: str):
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    globals()[name] = value
    return value


__all__ = ["FunctionInfo", "LoweringContext", "LoweringTable", "Registry", "TargetDescription",
           "host_target", "lower_gpu_module", "lower_module"]
