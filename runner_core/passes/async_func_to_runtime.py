"""``async-func-to-async-runtime``: async.func as a function that starts an async.execute.

LLVM 22 turns each ``async.func`` into a coroutine whose caller gets its
token and values at once, the body running until its first suspension.  The
runner already runs ``async.execute`` bodies as such coroutines, with the same
error propagation (a failed ``cf.assert`` sets the token and values in error),
so the rewrite here is::

    async.func @f(%a: T) -> (!async.token, !async.value<U>) { ...; return %u : U }
  =>
    func.func @f(%a: T) -> (!async.token, !async.value<U>) {
      %t, %v = async.execute -> !async.value<U> { ...; async.yield %u : U }
      return %t, %v : !async.token, !async.value<U>
    }

(the token is returned only where the signature has one), and ``async.call``
becomes ``func.call``.  The body runs asynchronously from the start instead of
until its first await: only scheduling differs, never a value.  A body of
several blocks is refused (``async.execute`` holds one).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Block, Operation, Region

from runner_core.errors import RunnerError
from runner_core.mlir22_names import unsupported_message


class AsyncFuncError(RunnerError):
    pass


class AsyncFuncToAsyncRuntimePass:
    name = "async-func-to-async-runtime"

    def run(self, root: Operation, ctx: Context) -> None:
        from runner_core.ir.dialects.async_dialect import ExecuteOp, TokenType, ValueType
        from runner_core.ir.parse import op_location

        for call in [op for op in root.walk() if op.name == "async.call"]:
            new = func.CallOp(call.callee, list(call.operands), [r.type for r in call.results])
            new.location = call.location
            call.parent_block().insert_op_before(new, call)
            for old, res in zip(call.results, new.results, strict=True):
                old.replace_all_uses_with(res)
            call.detach()
            call.erase()
        for fn in [op for op in root.walk() if op.name == "async.func"]:
            ft = fn.function_type
            outs = list(ft.outputs.data)
            values = [t for t in outs if isinstance(t, ValueType)]
            with_token = bool(outs) and isinstance(outs[0], TokenType)
            vis = fn.sym_visibility.data if fn.sym_visibility is not None else None
            if not fn.body.blocks:
                new = func.FuncOp(fn.sym_name.data, ft, Region(), vis)
            else:
                if len(fn.body.blocks) != 1:
                    raise AsyncFuncError("error: " + unsupported_message(
                        f"'async.func' @{fn.sym_name.data} with several blocks in {self.name}",
                        op_location(fn)))
                old = fn.body.blocks.first
                entry = Block(arg_types=[a.type for a in old.args])
                for a, n in zip(old.args, entry.args, strict=True):
                    a.replace_all_uses_with(n)
                inner = Block()
                for op in list(old.ops):
                    op.detach()
                    if op.name == "async.return":
                        y = ctx.get_op("async.yield").create(operands=list(op.operands))
                        y.location = op.location
                        inner.add_op(y)
                        op.erase()
                    else:
                        inner.add_op(op)
                ex = ExecuteOp.build(operands=[[], []], result_types=[TokenType(), values],
                                     regions=[Region(inner)])
                ex.location = fn.location
                entry.add_op(ex)
                rets = ([ex.results[0]] if with_token else []) + list(ex.results[1:])
                entry.add_op(func.ReturnOp(*rets))
                new = func.FuncOp(fn.sym_name.data, ft, Region(entry), vis)
            new.location = fn.location
            fn.parent_block().insert_op_before(new, fn)
            fn.detach()
            fn.erase()


REGISTRATION = {"name": "async-func-to-async-runtime", "factory": AsyncFuncToAsyncRuntimePass,
                "summary": "async.func as functions starting an async.execute (same values "
                           "and errors as LLVM 22's coroutines)"}
