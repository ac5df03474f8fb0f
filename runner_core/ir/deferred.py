"""The module attribute where `mlir-opt` stages record the lowerings left to the runner.

Upstream passes that only lower towards LLVM/NVVM are not run (the runner
lowers high-level IR itself); the pipeline appends their text here, and code
generation reads it where an option of such a pass changes the code (e.g.
``convert-vector-to-llvm{reassociate-fp-reductions}``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Operation

DEFERRED_ATTR = "gpurunner.deferred_passes"


def record_deferred(module: ModuleOp, texts: list[str]) -> None:
    old = module.attributes.get(DEFERRED_ATTR)
    prev = [a.data for a in old.data] if isinstance(old, ArrayAttr) else []
    module.attributes[DEFERRED_ATTR] = ArrayAttr([StringAttr(t) for t in prev + texts])


def deferred_passes(module: Operation) -> list[str]:
    """What earlier `mlir-opt` stages left for the runner to lower."""
    old = module.attributes.get(DEFERRED_ATTR)
    return [a.data for a in old.data] if isinstance(old, ArrayAttr) else []
