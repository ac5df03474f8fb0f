"""Where an op was written, for every message that points at the user's file.

One rule for the front end's verifier and for code generation alike: the op's
own ``FileLineColLoc`` (looking through ``NameLoc``, ``CallSiteLoc`` and
``FusedLoc``), else, for an op a pass made without one, its nearest located
ancestor.
"""

from __future__ import annotations

from xdsl.dialects import builtin as b

from runner_core.errors import SourceLocation


def _from_attr(loc) -> SourceLocation | None:
    if isinstance(loc, b.FileLineColLoc):
        return SourceLocation(loc.filename.data, loc.line.data, loc.column.data)
    if isinstance(loc, b.NameLoc):
        return _from_attr(loc.location)
    if isinstance(loc, b.CallSiteLoc):
        return _from_attr(loc.callee) or _from_attr(loc.caller)
    if isinstance(loc, b.FusedLoc):
        for sub in getattr(loc.locations, "data", ()):
            found = _from_attr(sub)
            if found:
                return found
    return None


def op_location(op) -> SourceLocation | None:
    """Where ``op`` (or, for ops made by a pass, its nearest ancestor) was written."""
    while op is not None:
        loc = getattr(op, "location", None)
        found = _from_attr(loc) if loc is not None else None
        if found:
            return found
        op = op.parent_op()
    return None
