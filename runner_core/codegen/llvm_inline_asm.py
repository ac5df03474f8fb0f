"""llvm.inline_asm: LLVM's `call asm "...", "constraints"(args)` as the op states it.

The assembly string and constraint string go to LLVM unchanged (`$0`-style
operands, AT&T syntax).  Intel syntax (`asm_dialect = intel`) has no spelling
in llvmlite's IR builder: a clear unsupported error instead of AT&T parsing.
"""

from __future__ import annotations

import llvmlite.ir as ir

from .context import LoweringContext, prop
from .registry import Registry
from .types import VOID

registry = Registry()
lowering = registry.lowering


@lowering("llvm.inline_asm")
def _inline_asm(ctx: LoweringContext, op) -> None:
    dialect = prop(op, "asm_dialect")
    if dialect is not None and int(getattr(getattr(dialect, "value", None), "data", 0)) != 0:
        raise ctx.unsupported(op, "'llvm.inline_asm' in Intel syntax (asm_dialect = intel)")
    if prop(op, "is_align_stack") is not None:
        raise ctx.unsupported(op, "'llvm.inline_asm' with is_align_stack")
    args = ctx.get_all(op.operands)
    rtype = ctx.convert(op.results[0].type) if op.results else VOID
    ftype = ir.FunctionType(rtype, [a.type for a in args])
    asm = ir.InlineAsm(ftype, prop(op, "asm_string").data, prop(op, "constraints").data,
                       side_effect=prop(op, "has_side_effects") is not None)
    call = ctx.builder.call(asm, args)
    if op.results:
        ctx.set_results(op, [call])
