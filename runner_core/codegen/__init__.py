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

from .context import FunctionInfo, LoweringContext
from .emitter import lower_gpu_module, lower_module
from .registry import LoweringTable, Registry
from .target import TargetDescription, host_target

__all__ = ["FunctionInfo", "LoweringContext", "LoweringTable", "Registry", "TargetDescription",
           "host_target", "lower_gpu_module", "lower_module"]
