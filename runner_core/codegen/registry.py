"""The table that maps an operation to the function lowering it to LLVM IR.

Keys are operation *names* ("arith.addi"), not Python classes: the front end
may replace an xDSL op class with its own (adding custom syntax or missing
attributes) and the lowering must follow the op, not one class.  A
registration may be limited to one target ("nvptx", "cpu-kernel", "host"), so
GPU and async code generation plug in from their own modules without editing
the dialect modules here: a target-specific entry wins over the generic one.

Module-level ops (``func.func``, ``memref.global``, ``gpu.module`` ...) are
lowered in two phases, *declare* then *define*, so that bodies can refer to
symbols defined later in the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .context import LoweringContext

OpLowering = Callable[["LoweringContext", Any], None]

_OPS: dict[tuple[str, str | None], OpLowering] = {}


@dataclass
class ModuleOpLowering:
    """Two-phase lowering of a symbol-defining op at module level."""

    declare: Callable[[LoweringContext, Any], None] | None = None
    define: Callable[[LoweringContext, Any], None] | None = None


_MODULE_OPS: dict[tuple[str, str | None], ModuleOpLowering] = {}


def _op_name(key: str | type) -> str:
    if isinstance(key, str):
        return key
    name = getattr(key, "name", None)
    if not isinstance(name, str):
        raise TypeError(f"cannot register a lowering for {key!r}: no op name")
    return name


def register(key: str | type, fn: OpLowering, *, targets: Iterable[str] | None = None) -> None:
    """Register ``fn(ctx, op)`` for an op name or op class (optionally per target)."""
    name = _op_name(key)
    for t in (None,) if targets is None else tuple(targets):
        _OPS[(name, t)] = fn


def lowering(*keys: str | type, targets: Iterable[str] | None = None):
    """Decorator form of :func:`register` for one or more ops."""
    tlist = None if targets is None else tuple(targets)

    def deco(fn: OpLowering) -> OpLowering:
        for k in keys:
            register(k, fn, targets=tlist)
        return fn

    return deco


def register_module_op(key: str | type, *, declare=None, define=None,
                       targets: Iterable[str] | None = None) -> None:
    """Register the two phases of a module-level op."""
    name = _op_name(key)
    for t in (None,) if targets is None else tuple(targets):
        _MODULE_OPS[(name, t)] = ModuleOpLowering(declare, define)


def lookup(name: str, target: str) -> OpLowering | None:
    return _for_target(_OPS, name, target)


def lookup_module_op(name: str, target: str) -> ModuleOpLowering | None:
    return _for_target(_MODULE_OPS, name, target)


def _for_target(table: dict, name: str, target: str):
    """The entry registered for ``target``, else the one for every target."""
    entry = table.get((name, target))
    return entry if entry is not None else table.get((name, None))


def registered_ops(target: str | None = None) -> list[str]:
    """Names of ops with a lowering usable for ``target`` (for messages and tests)."""
    names = {n for (n, t) in _OPS if t is None or t == target}
    names |= {n for (n, t) in _MODULE_OPS if t is None or t == target}
    return sorted(names)
