"""Driver: one MLIR ``builtin.module`` in, one llvmlite module out.

Module-level ops are lowered in two passes (declare every symbol, then define
bodies) through the registry; everything inside function bodies goes through
:meth:`LoweringContext.lower_op`.  Importing this package registers the
dialect modules; GPU/async modules register themselves when imported by
their target.
"""

from __future__ import annotations

import llvmlite.ir as ir

from . import registry
from .context import LoweringContext
from .diag import unsupported
from .target import TargetDescription
from .types import UnsupportedType

# Module-level ops that carry no code.
_IGNORED_MODULE_OPS = frozenset({"gpurunner.deferred_passes"})


def lower_module(module_op, target: TargetDescription, *, name: str = "module",
                 filename: str = "", options: dict | None = None
                 ) -> tuple[ir.Module, LoweringContext]:
    """Emit LLVM IR for every function and global of ``module_op`` on ``target``.

    ``options`` is visible to lowerings as ``ctx.options`` (e.g. ``backend``:
    which runtime will implement GPU calls, ``opt_level``).
    """
    from . import load_dialect_lowerings

    load_dialect_lowerings()
    mod = ir.Module(name=name)
    mod.triple = target.triple
    mod.data_layout = target.data_layout
    ctx = LoweringContext(target, mod, filename, options)
    ops = list(module_op.body.block.ops) if hasattr(module_op, "body") else list(module_op.ops)
    entries = []
    for op in ops:
        if op.name in _IGNORED_MODULE_OPS:
            continue
        entry = registry.lookup_module_op(op.name, target.name)
        if entry is None:
            raise unsupported(op, f"operation '{op.name}' at module level",
                              hint=f"no module-level lowering for target '{target.name}'")
        entries.append((entry, op))
    for entry, op in entries:
        if entry.declare is not None:
            _guard(entry.declare, ctx, op)
    for entry, op in entries:
        if entry.define is not None:
            _guard(entry.define, ctx, op)
    return mod, ctx


def _guard(fn, ctx, op):
    try:
        fn(ctx, op)
    except UnsupportedType as err:
        raise unsupported(op, f"{err} in '{op.name}'") from None
