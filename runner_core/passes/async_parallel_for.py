"""`async-parallel-for`: run the iterations of `scf.parallel` loops as async tasks.

Upstream's pass of that name (used by its async CPU integration tests) splits
an `scf.parallel` into blocks of iterations executed by `async.execute` tasks
and waits for all of them.  This one does the same in a simpler shape, with
the same observable result (the loop's effects, all complete when the loop
op would have finished):

    %g = async.create_group %tasks
    scf.for %k = 0 to %tasks {
      %t = async.execute { scf.parallel (%i, ...) = (%lb_k, ...) to (%ub_k, ...) ... }
      async.add_to_group %t, %g
    }
    async.await_all %g

Only the outermost dimension is split, into `tasks = clamp(ceil(iterations /
min-task-size), 1, num-workers)` contiguous chunks (never more chunks than
outer iterations).  Options as upstream: `num-workers` (default 8),
`min-task-size` (default 1000), `async-dispatch` (accepted; upstream chooses
between a recursive and a sequential dispatch, which changes no result).
Loops with reductions (`init` values) are left alone, as upstream does, and so
are loops nested in another `scf.parallel` (the outer one is split).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue

from runner_core.ir.dialects import async_dialect as adl
from runner_core.passes.base import PassError, PassInfo

INDEX = IndexType()


def _bool(text: str, name: str) -> bool:
    if text in ("true", "1"):
        return True
    if text in ("false", "0"):
        return False
    raise ValueError(f"{name}={text!r}: expected true or false")


def _positive(text: str, name: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise ValueError(f"{name}={text!r}: expected an integer") from None
    if v < 1:
        raise ValueError(f"{name}={v}: must be at least 1")
    return v


class AsyncParallelForPass:
    name = "async-parallel-for"

    def __init__(self, async_dispatch: str = "true", num_workers: str = "8",
                 min_task_size: str = "1000"):
        self.async_dispatch = _bool(async_dispatch, "async-dispatch")
        self.num_workers = _positive(num_workers, "num-workers")
        self.min_task_size = _positive(min_task_size, "min-task-size")

    def run(self, op: Operation, ctx: Context) -> None:
        # Decide before rewriting: splitting a loop detaches the loops inside it.
        loops = [o for o in op.walk() if o.name == "scf.parallel" and not o.initVals
                 and o.lowerBound and not _inside_parallel(o)]
        for loop in loops:
            self._split(loop)

    def _split(self, loop: Operation) -> None:
        block = loop.parent_block()
        if block is None:  # pragma: no cover - a parallel op always has a parent
            raise PassError("error: async-parallel-for: detached scf.parallel")
        new_ops: list[Operation] = []

        def emit(o: Operation) -> SSAValue:
            new_ops.append(o)
            return o.results[0] if o.results else None

        def const(v: int) -> SSAValue:
            return emit(arith.ConstantOp(IntegerAttr(v, INDEX)))

        c0, c1 = const(0), const(1)
        trips = []
        for lb, ub, st in zip(loop.lowerBound, loop.upperBound, loop.step, strict=True):
            span = emit(arith.SubiOp(ub, lb))
            span = emit(arith.MaxSIOp(span, c0))
            trips.append(emit(arith.CeilDivUIOp(span, st)))
        total = trips[0]
        for t in trips[1:]:
            total = emit(arith.MuliOp(total, t))
        wanted = emit(arith.CeilDivUIOp(total, const(self.min_task_size)))
        tasks = emit(arith.MinUIOp(wanted, const(self.num_workers)))
        tasks = emit(arith.MinUIOp(tasks, trips[0]))
        tasks = emit(arith.MaxUIOp(tasks, c1))
        chunk = emit(arith.CeilDivUIOp(trips[0], tasks))
        chunk_span = emit(arith.MuliOp(chunk, loop.step[0]))
        group = emit(adl.CreateGroupOp.build(operands=[tasks], result_types=[adl.GroupType()]))

        body = Block(arg_types=[INDEX])

        def add(o: Operation) -> SSAValue:
            body.add_op(o)
            return o.results[0]

        k = body.args[0]
        offset = add(arith.MuliOp(k, chunk_span))
        start = add(arith.AddiOp(loop.lowerBound[0], offset))
        stop = add(arith.AddiOp(start, chunk_span))
        stop = add(arith.MinSIOp(stop, loop.upperBound[0]))
        part = loop.clone()
        n = len(loop.lowerBound)
        operands = list(part.operands)
        operands[0] = start
        operands[n] = stop
        part.operands = operands
        execute = adl.ExecuteOp.build(operands=[[], []], result_types=[adl.TokenType(), []],
                                      regions=[Region(Block([part, adl.YieldOp()]))])
        execute.location = loop.location
        body.add_op(execute)
        body.add_op(adl.AddToGroupOp.build(operands=[execute.token, group],
                                           result_types=[INDEX]))
        from xdsl.dialects import scf

        body.add_op(scf.YieldOp())
        new_ops.append(scf.ForOp(c0, tasks, c1, [], Region(body)))
        new_ops.append(adl.AwaitAllOp.build(operands=[group]))
        for o in new_ops:
            block.insert_op_before(o, loop)
        block.erase_op(loop)


def _inside_parallel(op: Operation) -> bool:
    cur = op.parent_op()
    while cur is not None:
        if cur.name == "scf.parallel":
            return True
        cur = cur.parent_op()
    return False


PASS = PassInfo("async-parallel-for", AsyncParallelForPass,
                summary="run the iterations of scf.parallel loops as async.execute tasks",
                options=frozenset({"async-dispatch", "num-workers", "min-task-size"}))
