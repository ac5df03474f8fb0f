"""LLVM-dialect coroutines (mlir-opt 22's ``convert-async-to-llvm`` output), lowered here;
and ``llvm.inline_asm``, ``llvm.call_intrinsic``, ``llvm.intr.assume`` (LLVM-dialect ops
llvm.py, at its size limit, does not hold).

Each ``llvm.intr.coro.*`` op is the LLVM intrinsic of the same name; the
coroutine passes that split them run in the host JIT's pipeline, also at -O0
(:mod:`runner_core.targets.host`).  The ``token`` type is the one our own
async lowering uses, so both kinds of coroutine meet the same passes.
"""

from __future__ import annotations

import llvmlite.ir as ir

from runner_core.ir.dialects import llvm_coro as dl

from .context import LoweringContext
from .registry import Registry
from .types import VOID, register_type

registry = Registry()
lowering = registry.lowering


def _async():
    from . import async_lowering  # the token type lives with our own coroutine lowering

    return async_lowering


register_type(dl.TokenType, lambda conv, t: _async().TOKEN)


@lowering("llvm.mlir.none")
def _none(ctx: LoweringContext, op) -> None:
    ctx.set_results(op, [_async().TOKEN_NONE])


# Intrinsics overloaded on their result type (``llvm.coro.size.i64``); the others are not.
_BY_RESULT = {"size", "align"}


def _lower_coro(ctx: LoweringContext, op) -> None:
    suffix = op.name[len("llvm.intr.coro."):]
    rt = ctx.convert(op.results[0].type) if op.results else VOID
    args = ctx.get_all(op.operands)
    if suffix == "end":
        # LLVM 22's llvm.coro.end returns nothing; the dialect op still has an i1 result,
        # which mlir-translate leaves unused.  It reads as false (not in a landing pad).
        ctx.intrinsic("llvm.coro.end", VOID, args)
        ctx.set_results(op, [ir.Constant(rt, 0)] if op.results else [])
        return
    res = ctx.intrinsic(f"llvm.coro.{suffix}", rt, args, [rt] if suffix in _BY_RESULT else [])
    ctx.set_results(op, [res] if op.results else [])


for _name in dl.CORO_OPS:
    lowering(_name)(_lower_coro)


@lowering("llvm.inline_asm")
def _inline_asm(ctx: LoweringContext, op) -> None:
    """AT&T-syntax inline assembly (LLVM's default dialect) as an LLVM ``asm`` call."""
    from .context import prop

    dialect = prop(op, "asm_dialect")
    if dialect is not None and int(getattr(dialect, "value", dialect).data) != 0:
        raise ctx.unsupported(op, "'llvm.inline_asm' in the Intel dialect",
                              hint="only AT&T syntax (asm_dialect = att) is lowered")
    args = ctx.get_all(op.operands)
    ret = ctx.convert(op.results[0].type) if op.results else VOID
    fnty = ir.FunctionType(ret, [a.type for a in args])
    res = ctx.builder.asm(fnty, prop(op, "asm_string").data, prop(op, "constraints").data,
                          args, prop(op, "has_side_effects") is not None)
    ctx.set_results(op, [res] if op.results else [])


@lowering("llvm.call_intrinsic")
def _call_intrinsic(ctx: LoweringContext, op) -> None:
    """``llvm.call_intrinsic "llvm.x86.avx.rsqrt.ps.256"(%v)``: the intrinsic by its full
    name (overloads already mangled in it), declared with the op's types."""
    from .context import prop

    if op.op_bundle_operands:
        raise ctx.unsupported(op, "'llvm.call_intrinsic' with operand bundles")
    args = ctx.get_all(op.args)
    ret = ctx.convert(op.results[0].type) if op.results else VOID
    fn = ctx.declare(prop(op, "intrin").data, ret, [a.type for a in args])
    res = ctx.builder.call(fn, args)
    ctx.set_results(op, [res] if op.results else [])


@lowering("llvm.intr.assume")
def _assume(ctx: LoweringContext, op) -> None:
    """``llvm.assume(cond)``.  Operand bundles (``"align"(%p, %n)``, ``"nonnull"(%p)``,
    ``"separate_storage"(%a, %b)`` ...) are dropped: llvmlite's builder cannot attach them,
    and they only add facts the optimizer may use.  A program that honours them runs the
    same without them, and one that breaks them has undefined behaviour either way.  What
    LLVM's verifier asks of them is kept: a bundled assume's condition must be the
    constant true (mlir-runner 22 refuses the module otherwise, with this message)."""
    from runner_core.errors import IRError
    from runner_core.ir.locations import op_location

    cond = ctx.get(op.cond)
    if op.bundles():
        if not (isinstance(cond, ir.Constant) and cond.constant not in (0, False, None)):
            raise IRError("assume with operand bundles must have i1 true condition "
                          "(LLVM's verifier, when translating to LLVM IR)", op_location(op))
        return
    ctx.intrinsic("llvm.assume", VOID, [cond])
