"""Where the 2021-syntax upgrade records what it rewrote (kept import-light)."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Upgrade:
    """One rewritten op: where it was (offset in the text), the 2021 name, the new name."""

    offset: int
    old: str
    new: str
    kind: str = "op"  # what was rewritten: "op", "memref layout"


# Set by the parser for the duration of one parse; None means "do not record".
UPGRADE_LOG: ContextVar[list[Upgrade] | None] = ContextVar("UPGRADE_LOG", default=None)
