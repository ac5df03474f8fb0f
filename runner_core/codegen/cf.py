"""cf dialect: branches between the blocks of a function, and assertions.

A failing ``cf.assert`` calls the runtime hook ``_gpurunner_assert_fail(msg,
where)`` instead of upstream's ``puts`` + ``abort``: the runner is in the
test process, so the hook unwinds to the entry trampoline and the run fails
with the message and location rather than killing the process.
"""

from __future__ import annotations

import llvmlite.ir as ir

from runner_core.ir.assert_sites import NO_ABORT

from .context import LoweringContext
from .registry import Registry
from .types import PTR, VOID

registry = Registry()
lowering = registry.lowering

ASSERT_HOOK = "_gpurunner_assert_fail"


# LLVM's br and cond_br carry the same operands and lower the same way.
@lowering("cf.br", "llvm.br")
def _br(ctx: LoweringContext, op) -> None:
    (dest,) = op.successors
    ctx.branch(dest, ctx.get_all(op.operands))


@lowering("cf.cond_br", "llvm.cond_br")
def _cond_br(ctx: LoweringContext, op) -> None:
    then_b, else_b = op.successors
    cond = ctx.get(op.cond)
    t = ctx.edge(then_b, ctx.get_all(op.then_arguments))
    e = ctx.edge(else_b, ctx.get_all(op.else_arguments))
    ctx.builder.cbranch(cond, t, e)


@lowering("cf.switch")
def _switch(ctx: LoweringContext, op) -> None:
    flag = ctx.get(op.flag)
    default_dest = op.default_block
    default = ctx.edge(default_dest, ctx.get_all(op.default_operands))
    values = []
    cv = op.case_values
    if cv is not None:
        values = [int(v) for v in cv.get_values()]
    segments = [int(s) for s in op.case_operand_segments.get_values()]
    operands = ctx.get_all(op.case_operands)
    edges = []
    pos = 0
    for blk, n in zip(op.case_blocks, segments, strict=True):
        edges.append(ctx.edge(blk, operands[pos:pos + n]))
        pos += n
    sw = ctx.builder.switch(flag, default)
    for v, e in zip(values, edges, strict=True):
        sw.add_case(ir.Constant(flag.type, v), e)




def branch_to_failure(ctx: LoweringContext, op) -> tuple[str, ir.Block]:
    """Splits at a `cf.assert`: the builder is left in the failing path, and the message
    and the block where the program goes on are returned (host and kernel asserts differ
    only in what the failing path does)."""
    bld = ctx.builder
    ok = ctx.new_block("assert.ok")
    fail = ctx.new_block("assert.fail")
    bld.cbranch(ctx.get(op.arg), ok, fail)
    bld.position_at_end(fail)
    return (op.msg.data if hasattr(op.msg, "data") else str(op.msg)), ok


@lowering("cf.assert")
def _assert(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    msg, ok = branch_to_failure(ctx, op)
    if NO_ABORT in op.attributes:
        # -test-cf-assert: print the message and a newline (stdout), then go on.
        puts = ctx.declare("puts", ir.IntType(32), [PTR])
        bld.call(puts, [ctx.string_constant(msg, "assert_msg")])
        bld.branch(ok)
        bld.position_at_end(ok)
        return
    loc = ctx.location(op)
    hook = ctx.declare(ASSERT_HOOK, VOID, [PTR, PTR])
    bld.call(hook, [ctx.string_constant(msg, "assert_msg"),
                    ctx.string_constant(str(loc) if loc else "", "assert_loc")])
    bld.unreachable()
    bld.position_at_end(ok)
