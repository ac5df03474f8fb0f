"""What a pass is, for the pass modules and the registry that lists them.

Kept apart from :mod:`.registry` so that a pass module can raise
:class:`PassError` and describe itself (:class:`PassInfo`) without importing
the registry, which imports the pass modules to list them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from runner_core.errors import RunnerError

if TYPE_CHECKING:  # annotations only: the plug-in reads pipelines without xDSL
    from xdsl.context import Context
    from xdsl.ir import Operation


class PassError(RunnerError):
    """A pipeline names an unknown pass or option, or a pass fails."""


class Pass(Protocol):
    name: str

    def run(self, op: Operation, ctx: Context) -> None: ...


PassFactory = Callable[..., Pass]


@dataclass(frozen=True)
class PassInfo:
    """What the registry knows about one pass name."""

    name: str
    factory: PassFactory
    summary: str = ""
    options: frozenset[str] = field(default_factory=frozenset)
    # Ops the pass may be anchored on ('builtin.module', 'func.func', ...); empty = any.
    anchors: frozenset[str] = field(default_factory=frozenset)

    def create(self, options: Mapping[str, str]) -> Pass:
        unknown = sorted(set(options) - self.options)
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise PassError(f"error: pass '{self.name}' has no option '{unknown[0]}' "
                            f"(options: {known})")
        try:
            return self.factory(**{k.replace("-", "_"): v for k, v in options.items()})
        except (TypeError, ValueError) as e:
            raise PassError(f"error: bad options for pass '{self.name}': {e}") from None
