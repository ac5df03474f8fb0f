"""async.runtime.await / is_error: direct calls of the async runtime's ABI.

Outside a coroutine they block (`mlirAsyncRuntimeAwait{Token,Value,AllInGroup}`)
and read the error flag (`mlirAsyncRuntimeIs{Token,Value,Group}Error`); unlike
`async.await`, an error is only reported, never a failure.  Inside an
`async.execute` body upstream suspends instead; that form is not supported.
"""

from __future__ import annotations

from runner_core.ir.dialects import async_dialect as adl

from .context import LoweringContext
from .registry import Registry
from .types import I1, PTR, VOID

registry = Registry()
lowering = registry.lowering


def _kind(t) -> str:
    if isinstance(t, adl.ValueType):
        return "Value"
    if isinstance(t, adl.GroupType):
        return "Group"
    return "Token"


def _in_coroutine(op) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if parent.name == "async.execute":
            return True
        parent = parent.parent_op()
    return False


@lowering("async.runtime.await")
def _runtime_await(ctx: LoweringContext, op) -> None:
    if _in_coroutine(op):
        raise ctx.unsupported(op, "'async.runtime.await' inside an async.execute body")
    kind = _kind(op.operand.type)
    name = "AwaitAllInGroup" if kind == "Group" else f"Await{kind}"
    ctx.call(f"mlirAsyncRuntime{name}", VOID, [ctx.get(op.operand)], [PTR])


@lowering("async.runtime.is_error")
def _runtime_is_error(ctx: LoweringContext, op) -> None:
    kind = _kind(op.operand.type)
    flag = ctx.call(f"mlirAsyncRuntimeIs{kind}Error", I1, [ctx.get(op.operand)], [PTR])
    ctx.set_results(op, [flag])
