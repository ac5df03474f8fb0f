"""Recording a pass that was run only in part, for the legality model.

A pass whose effect on the IR the runner provides itself (tiling left to the
loop nest, cf.assert lowered by codegen) appends its name to the module's
recorded passes, as the pipeline does for deferred lowerings, so the legality
model replays it.  Kept apart from `pipeline.py`, which imports the registry
(the passes here are imported by the registry).
"""

from __future__ import annotations

from xdsl.dialects import builtin as b
from xdsl.ir import Operation

DEFERRED_ATTR = "gpurunner.deferred_passes"  # == pipeline.DEFERRED_ATTR (tested)


def record(root: Operation, name: str) -> None:
    top = root
    while top.parent_op() is not None:
        top = top.parent_op()
    old = top.attributes.get(DEFERRED_ATTR)
    prev = [a.data for a in old.data] if isinstance(old, b.ArrayAttr) else []
    if name not in prev:
        top.attributes[DEFERRED_ATTR] = b.ArrayAttr([b.StringAttr(t) for t in [*prev, name]])
