"""``llvm.intr.assume``: LLVM's ``llvm.assume`` on the condition.

Operand bundles (``"align"(%p, %n)``) only add facts for the optimizer; the
call keeps the condition and drops them, which promises less and so never
changes what a program with defined behaviour computes.
"""

from __future__ import annotations

import llvmlite.ir as ir

from .context import LoweringContext
from .registry import Registry
from .types import I1, VOID

registry = Registry()
lowering = registry.lowering


@lowering("llvm.intr.assume")
def _assume(ctx: LoweringContext, op) -> None:
    cond = ctx.get(op.operands[0])
    module = ctx.builder.module
    fn = module.globals.get("llvm.assume")
    if fn is None:
        fn = ir.Function(module, ir.FunctionType(VOID, [I1]), "llvm.assume")
    ctx.builder.call(fn, [cond])
