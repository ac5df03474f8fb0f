"""Lowering registries: which function lowers an operation to LLVM IR, per target.

As numba's targets do, each module of lowerings owns a :class:`Registry` that
its decorators fill (``registry = Registry()``, ``@registry.lowering("arith.addi")``)
and a target's :class:`LoweringTable` *installs* the registries it wants
(:mod:`.lowerings` lists them once).  Nothing is looked up in a process-wide
table, so a module's lowerings reach a target only by being installed there,
and a test can build a table of its own.

Keys are operation *names* ("arith.addi"), not Python classes: the front end
may replace an xDSL op class with its own (adding custom syntax or missing
attributes) and the lowering must follow the op, not one class.  An entry may
be limited to some targets ("nvptx", "cpu-kernel", "host"); for its target it
wins over the entry for every target.

Module-level ops (``func.func``, ``memref.global``, ``gpu.module`` ...) are
lowered in two phases, *declare* then *define*, so that bodies can refer to
symbols defined later in the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

# fn(ctx: LoweringContext, op); typed loosely so that this module stays below context.
OpLowering = Callable[[Any, Any], None]


@dataclass
class ModuleOpLowering:
    """Two-phase lowering of a symbol-defining op at module level."""

    declare: Callable[[Any, Any], None] | None = None
    define: Callable[[Any, Any], None] | None = None


def _op_name(key: str | type) -> str:
    if isinstance(key, str):
        return key
    name = getattr(key, "name", None)
    if not isinstance(name, str):
        raise TypeError(f"cannot register a lowering for {key!r}: no op name")
    return name


def _keys(key: str | type, targets: Iterable[str] | None) -> list[tuple[str, str | None]]:
    name = _op_name(key)
    return [(name, t) for t in ((None,) if targets is None else tuple(targets))]


class Registry:
    """The lowerings one module defines, keyed by (op name, target or None)."""

    def __init__(self) -> None:
        self.ops: dict[tuple[str, str | None], OpLowering] = {}
        self.module_ops: dict[tuple[str, str | None], ModuleOpLowering] = {}

    def register(self, key: str | type, fn: OpLowering, *,
                 targets: Iterable[str] | None = None) -> None:
        """Register ``fn(ctx, op)`` for an op name or op class (optionally per target)."""
        for k in _keys(key, targets):
            self.ops[k] = fn

    def lowering(self, *keys: str | type, targets: Iterable[str] | None = None):
        """Decorator form of :meth:`register` for one or more ops."""
        tlist = None if targets is None else tuple(targets)

        def deco(fn: OpLowering) -> OpLowering:
            for k in keys:
                self.register(k, fn, targets=tlist)
            return fn

        return deco

    def register_module_op(self, key: str | type, *, declare=None, define=None,
                           targets: Iterable[str] | None = None) -> None:
        """Register the two phases of a module-level op."""
        for k in _keys(key, targets):
            self.module_ops[k] = ModuleOpLowering(declare, define)

    def get(self, name: str, target: str | None = None) -> OpLowering | None:
        """This registry's own entry (for a lowering that reuses another's)."""
        return self.ops.get((name, target))


class LoweringTable:
    """What one target can lower: the registries installed on it, a later one
    overriding an earlier one's entry for the same op and target."""

    def __init__(self, target: str, registries: Iterable[Registry] = ()) -> None:
        self.target = target
        self._ops: dict[tuple[str, str | None], OpLowering] = {}
        self._module_ops: dict[tuple[str, str | None], ModuleOpLowering] = {}
        for r in registries:
            self.install(r)

    def install(self, registry: Registry) -> None:
        for (name, t), fn in registry.ops.items():
            if t is None or t == self.target:
                self._ops[(name, t)] = fn
        for (name, t), entry in registry.module_ops.items():
            if t is None or t == self.target:
                self._module_ops[(name, t)] = entry

    def lookup(self, name: str) -> OpLowering | None:
        return _for_target(self._ops, name, self.target)

    def lookup_module_op(self, name: str) -> ModuleOpLowering | None:
        return _for_target(self._module_ops, name, self.target)

    def registered_ops(self) -> list[str]:
        """Names of the ops this target can lower (for messages and tests)."""
        return sorted({n for (n, _) in self._ops} | {n for (n, _) in self._module_ops})


def _for_target(table: dict, name: str, target: str):
    """The entry registered for ``target``, else the one for every target."""
    entry = table.get((name, target))
    return entry if entry is not None else table.get((name, None))
