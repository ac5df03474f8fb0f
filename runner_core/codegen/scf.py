"""scf dialect: structured loops and conditionals straight to LLVM basic blocks.

Each construct becomes the blocks and phi nodes it stands for (no detour
through cf).  :func:`emit_loop` is shared with other lowerings that need a
counted loop (``scf.parallel``, grid loops of CPU kernels).
"""

from __future__ import annotations

from collections.abc import Callable

import llvmlite.ir as ir

from .context import LoweringContext, prop
from .registry import Registry

registry = Registry()
lowering = registry.lowering


def emit_loop(ctx: LoweringContext, lb: ir.Value, ub: ir.Value, step: ir.Value,
              inits: list[ir.Value], body: Callable[[ir.Value, list[ir.Value]], list[ir.Value]],
              *, unsigned: bool = False, name: str = "loop") -> list[ir.Value]:
    """``for iv in [lb, ub) by step`` carrying ``inits``; returns the final carried values."""
    bld = ctx.builder
    pre = bld.block
    header = ctx.new_block(f"{name}.header")
    body_b = ctx.new_block(f"{name}.body")
    exit_b = ctx.new_block(f"{name}.exit")
    bld.branch(header)
    bld.position_at_end(header)
    iv = bld.phi(lb.type)
    iv.add_incoming(lb, pre)
    phis = []
    for v in inits:
        p = bld.phi(v.type)
        p.add_incoming(v, pre)
        phis.append(p)
    cond = (bld.icmp_unsigned if unsigned else bld.icmp_signed)("<", iv, ub)
    bld.cbranch(cond, body_b, exit_b)
    bld.position_at_end(body_b)
    nexts = body(iv, list(phis))
    nxt = bld.add(iv, step)
    latch = bld.block
    iv.add_incoming(nxt, latch)
    for p, v in zip(phis, nexts, strict=True):
        p.add_incoming(v, latch)
    bld.branch(header)
    bld.position_at_end(exit_b)
    return list(phis)


@lowering("scf.for")
def _for(ctx: LoweringContext, op) -> None:
    lb, ub, step = ctx.get(op.lb), ctx.get(op.ub), ctx.get(op.step)
    inits = ctx.get_all(op.iter_args)
    (block,) = op.body.blocks
    unsigned = prop(op, "unsignedCmp") is not None

    def body(iv, iters):
        return ctx.lower_inline(block, [iv, *iters])

    ctx.set_results(op, emit_loop(ctx, lb, ub, step, inits, body, unsigned=unsigned,
                                  name="for"))


def _lower_arm(ctx: LoweringContext, start: ir.Block, region, merge: ir.Block,
               incoming: list[tuple[list[ir.Value], ir.Block]]) -> None:
    """One arm of a branch: lower `region` from block `start`, note the values it yields
    and the block they leave from, continue at `merge`."""
    ctx.builder.position_at_end(start)
    (block,) = region.blocks
    vals = ctx.lower_inline(block)
    incoming.append((vals, ctx.builder.block))
    ctx.builder.branch(merge)


def _set_merged_results(ctx: LoweringContext, op,
                        incoming: list[tuple[list[ir.Value], ir.Block]]) -> None:
    """`op`'s results as phis over the values each arm (or yield) brought to the merge block."""
    results = []
    for i, r in enumerate(op.results):
        phi = ctx.builder.phi(ctx.convert(r.type))
        for vals, blk in incoming:
            phi.add_incoming(vals[i], blk)
        results.append(phi)
    ctx.set_results(op, results)


@lowering("scf.if")
def _if(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    cond = ctx.get(op.cond)
    then_b = ctx.new_block("if.then")
    merge = ctx.new_block("if.end")
    has_else = bool(op.false_region.blocks)
    else_b = ctx.new_block("if.else") if has_else else merge
    bld.cbranch(cond, then_b, else_b)
    incoming: list[tuple[list[ir.Value], ir.Block]] = []
    _lower_arm(ctx, then_b, op.true_region, merge, incoming)
    if has_else:
        _lower_arm(ctx, else_b, op.false_region, merge, incoming)
    bld.position_at_end(merge)
    _set_merged_results(ctx, op, incoming)


@lowering("scf.while")
def _while(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    inits = ctx.get_all(op.operands)
    (before,) = op.before_region.blocks
    (after,) = op.after_region.blocks
    pre = bld.block
    head = ctx.new_block("while.before")
    after_b = ctx.new_block("while.after")
    exit_b = ctx.new_block("while.exit")
    bld.branch(head)
    bld.position_at_end(head)
    phis = []
    for a, v in zip(before.args, inits, strict=True):
        p = bld.phi(v.type)
        p.add_incoming(v, pre)
        phis.append(p)
        ctx.set(a, p)
    cond_op = ctx.lower_ops(before)
    cond, *fwd = ctx.get_all(cond_op.operands)
    bld.cbranch(cond, after_b, exit_b)
    bld.position_at_end(after_b)
    for a, v in zip(after.args, fwd, strict=True):
        ctx.set(a, v)
    yield_op = ctx.lower_ops(after)
    nexts = ctx.get_all(yield_op.operands) if yield_op is not None else []
    latch = bld.block
    for p, v in zip(phis, nexts, strict=True):
        p.add_incoming(v, latch)
    bld.branch(head)
    bld.position_at_end(exit_b)
    ctx.set_results(op, fwd)


@lowering("scf.execute_region")
def _execute_region(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    region = op.regions[0]
    cont = ctx.new_block("region.end")
    incoming: list[tuple[list, ir.Block]] = []

    def on_yield(y):
        incoming.append((ctx.get_all(y.operands), bld.block))
        bld.branch(cont)

    with ctx.with_yield_handler({"scf.yield"}, on_yield):
        ctx.lower_region_cfg(region, [])
    bld.position_at_end(cont)
    _set_merged_results(ctx, op, incoming)


@lowering("scf.index_switch")
def _index_switch(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    arg = ctx.get(op.arg)
    cases = [int(x) for x in prop(op, "cases").get_values()]
    default_b = ctx.new_block("switch.default")
    merge = ctx.new_block("switch.end")
    sw = bld.switch(arg, default_b)
    incoming: list[tuple[list[ir.Value], ir.Block]] = []
    case_regions = list(op.case_regions)
    for value, region in zip(cases, case_regions, strict=True):
        blk = ctx.new_block(f"switch.case{value}")
        sw.add_case(ir.Constant(arg.type, value), blk)
        _lower_arm(ctx, blk, region, merge, incoming)
    _lower_arm(ctx, default_b, op.default_region, merge, incoming)
    bld.position_at_end(merge)
    _set_merged_results(ctx, op, incoming)


@lowering("scf.parallel")
def _parallel(ctx: LoweringContext, op) -> None:
    """Sequential loop nest on the host (upstream's host lowering does the same)."""
    lbs = ctx.get_all(op.lowerBound)
    ubs = ctx.get_all(op.upperBound)
    steps = ctx.get_all(op.step)
    inits = ctx.get_all(op.initVals)
    (block,) = op.body.blocks
    ivs: list[ir.Value] = []

    def level(d: int, iters: list[ir.Value]) -> list[ir.Value]:
        def body(iv, carried):
            ivs.append(iv)
            if d + 1 < len(lbs):
                out = level(d + 1, carried)
            else:
                out = _parallel_body(ctx, block, ivs, carried)
            ivs.pop()
            return out

        return emit_loop(ctx, lbs[d], ubs[d], steps[d], iters, body, name=f"par{d}")

    if not lbs:
        ctx.set_results(op, _parallel_body(ctx, block, [], inits))
        return
    ctx.set_results(op, level(0, inits))


def _parallel_body(ctx: LoweringContext, block, ivs, accs) -> list[ir.Value]:
    for a, v in zip(block.args, ivs, strict=True):
        ctx.set(a, v)
    term = ctx.lower_ops(block)
    if term is None or term.name != "scf.reduce" or not term.operands:
        return []
    out = []
    for acc, val, region in zip(accs, ctx.get_all(term.operands), term.regions, strict=True):
        (rblock,) = region.blocks
        ctx.set(rblock.args[0], acc)
        ctx.set(rblock.args[1], val)
        ret = ctx.lower_ops(rblock)
        out.append(ctx.get(ret.operands[0]))
    return out
