"""The error for what the emitter cannot lower, located at the op (:mod:`runner_core.ir.locations`)."""

from __future__ import annotations

from runner_core.errors import UnsupportedError
from runner_core.ir.locations import op_location


def unsupported(op, what: str | None = None, hint: str = "") -> UnsupportedError:
    """The error for an op (or a form of it) the emitter cannot lower."""
    text = what or f"operation '{op.name}'"
    return UnsupportedError(text, op_location(op), hint)
