"""The async dialect, lowered to upstream's ``mlirAsyncRuntime*`` ABI with LLVM coroutines.

Same shape as upstream's ``async-to-async-runtime`` + ``convert-async-to-llvm``,
so Debian's ``libmlir_async_runtime.so`` can run the code as well as the
built-in provider (:mod:`runner_core.runtime.async_runtime`):

* ``!async.token``, ``!async.value<T>``, ``!async.group`` are runtime object
  pointers.
* ``async.execute`` creates its token and values (``CreateToken``,
  ``CreateValue(sizeof T)``) in the caller, then calls the body outlined into a
  *coroutine* ``ptr @<fn>.async_execute(captures..., deps..., operands..., token,
  values...)``.  The coroutine suspends at once, handing itself to
  ``mlirAsyncRuntimeExecute(handle, @__resume)``, so the caller continues
  while a runtime worker runs the body.  It then waits for each dependency
  token and operand value without blocking a thread
  (``...AwaitTokenAndExecute``/``...AwaitValueAndExecute`` + suspend), reads
  operand values from ``GetValueStorage``, runs the body, stores the yielded
  values, and emplaces values and token.
* ``async.await`` inside a body is another suspension point; outside one it
  blocks (``mlirAsyncRuntimeAwaitToken/Value``).  Groups map to
  ``CreateGroup``/``AddTokenToGroup``/``AwaitAllInGroup[AndExecute]``.
* Errors follow upstream: a ``cf.assert`` that fails inside a body, or a
  dependency/operand/awaited object in error state, sets the body's token and
  values to error (``SetTokenError``/``SetValueError``) and ends the body;
  awaiting an error outside a body fails the program with upstream's
  message "Awaited async operand is in error state" (through the runner's
  assertion hook, so the run reports it instead of aborting the process).
* The failing assertion is reported where it is, not at the await: each
  failing body notes its cause (message, location) against its token and
  values in a per-module list, a body ended by an erroneous dependency
  inherits that object's cause, and a blocking await in error reports the
  awaited object's cause with a note naming the await and upstream's message
  (the core runtime's ``_gpurunner_async_*`` hooks, :mod:`runner_core.runtime.core`).
* Runtime objects are not reference counted (no ``AddRef``/``DropRef``): they
  live until the end of the run.  The built-in provider frees them then; with
  the real library they are leaked, which is harmless for a test process.

The host JIT splits the coroutines (LLVM's coroutine passes also run at -O0;
see :mod:`runner_core.targets.host`).
"""

from __future__ import annotations

from contextlib import contextmanager

import llvmlite.ir as ir

from runner_core.ir.dialects import async_dialect as adl
from runner_core.runtime.core import ASYNC_AWAIT_FAIL, ASYNC_FORWARD, ASYNC_NOTE

from .context import LoweringContext
from .registry import Registry
from .types import I1, I8, I32, I64, PTR, VOID, KeywordType, register_type

registry = Registry()
lowering = registry.lowering

register_type(adl.TokenType, lambda conv, t: PTR)
register_type(adl.ValueType, lambda conv, t: PTR)
register_type(adl.GroupType, lambda conv, t: PTR)

AWAIT_ERROR_MESSAGE = "Awaited async operand is in error state"
_CORO_STATE = "async.coroutine"
_CAUSES = "__gpurunner_async_causes"


class TokenType(KeywordType):
    """LLVM's ``token`` type (coroutine intrinsics take and return it)."""

    keyword = "token"

    def format_constant(self, value):
        return "none"


TOKEN = TokenType()
TOKEN_NONE = ir.Constant(TOKEN, "none")
NULL = ir.Constant(PTR, None)


# --------------------------------------------------------------- runtime calls
def _rt(ctx: LoweringContext, name: str, ret, args: list, types: list):
    return ctx.call(f"mlirAsyncRuntime{name}", ret, args, types)


def _resume_fn(ctx: LoweringContext) -> ir.Function:
    """``void __resume(ptr handle)``: what the runtime calls to continue a coroutine."""
    fn = ctx.module.globals.get("__resume")
    if fn is None:
        fn = ir.Function(ctx.module, ir.FunctionType(VOID, [PTR]), "__resume")
        fn.linkage = "internal"
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        resume = ctx.declare("llvm.coro.resume", VOID, [PTR])
        b.call(resume, [fn.args[0]])
        b.ret_void()
    return fn


def _causes(ctx: LoweringContext) -> ir.GlobalVariable:
    """The module's list of failure causes (see runner_core.runtime.core)."""
    head = ctx.module.globals.get(_CAUSES)
    if head is None:
        head = ir.GlobalVariable(ctx.module, PTR, _CAUSES)
        head.linkage = "internal"
        head.initializer = NULL
    return head


# --------------------------------------------------------- nested emission
@contextmanager
def nested_function(ctx: LoweringContext, fn: ir.Function):
    """Emit ``fn`` while the current function is half done, then come back to it.

    The LoweringContext holds one function's emission state; this saves it,
    runs the body emission in a clean state (no inherited yield handlers) and
    restores it, so the parent's value map is untouched by remapped captures.
    """
    saved = (ctx.function, ctx.builder, ctx._alloca_block, dict(ctx._values),
             dict(ctx._blocks), ctx._yield_handlers, ctx.state.get(_CORO_STATE))
    ctx._yield_handlers = []
    ctx.state.pop(_CORO_STATE, None)
    try:
        yield ctx.begin_function(fn)
        ctx.end_function()
    finally:
        (ctx.function, ctx.builder, ctx._alloca_block, values, blocks, ctx._yield_handlers,
         coro) = saved
        ctx._values = values
        ctx._blocks = blocks
        if coro is None:
            ctx.state.pop(_CORO_STATE, None)
        else:
            ctx.state[_CORO_STATE] = coro


def values_defined_above(block) -> list:
    """Values used in ``block`` (and regions inside it) but defined outside, in first-use order."""
    inside: set = set(block.args)
    for op in block.walk():
        inside.update(op.results)
        for region in op.regions:
            for blk in region.blocks:
                inside.update(blk.args)
    seen: dict = {}
    for op in block.walk():
        for v in op.operands:
            if v not in inside and v not in seen:
                seen[v] = None
    return list(seen)


# -------------------------------------------------------------- coroutines
class _Coroutine:
    """The suspension machinery of one outlined async.execute body."""

    def __init__(self, ctx: LoweringContext, token: ir.Value, values: list[ir.Value]):
        self.ctx = ctx
        self.token = token
        self.values = values
        bld = ctx.builder
        coro_id = ctx.declare("llvm.coro.id", TOKEN, [I32, PTR, PTR, PTR])
        self.id = bld.call(coro_id, [ir.Constant(I32, 0), NULL, NULL, NULL])
        size = bld.call(ctx.declare("llvm.coro.size.i64", I64, []), [])
        mem = bld.call(ctx.declare("malloc", PTR, [I64]), [size])
        self.handle = bld.call(ctx.declare("llvm.coro.begin", PTR, [TOKEN, PTR]), [self.id, mem])
        self.cleanup = ctx.new_block("coro.cleanup")
        self.suspend_b = ctx.new_block("coro.suspend")
        self.error_b = ctx.new_block("coro.set_error")

    def suspend(self, schedule) -> None:
        """Save, let ``schedule(handle, resume_fn)`` arrange the resumption, suspend."""
        ctx, bld = self.ctx, self.ctx.builder
        save = bld.call(ctx.declare("llvm.coro.save", TOKEN, [PTR]), [self.handle])
        schedule(self.handle, _resume_fn(ctx))
        s = bld.call(ctx.declare("llvm.coro.suspend", I8, [TOKEN, I1]), [save, ir.Constant(I1, 0)])
        resumed = ctx.new_block("coro.resumed")
        sw = bld.switch(s, self.suspend_b)
        sw.add_case(ir.Constant(I8, 0), resumed)
        sw.add_case(ir.Constant(I8, 1), self.cleanup)
        bld.position_at_end(resumed)

    def check_error(self, is_error: ir.Value, note_cause) -> None:
        """Branch to the error path when ``is_error``, after ``note_cause(obj)`` has
        recorded why for the body's token and each of its values."""
        ctx, bld = self.ctx, self.ctx.builder
        ok, bad = ctx.new_block("coro.no_error"), ctx.new_block("coro.error")
        bld.cbranch(is_error, bad, ok)
        bld.position_at_end(bad)
        for obj in (self.token, *self.values):
            note_cause(obj)
        bld.branch(self.error_b)
        bld.position_at_end(ok)

    def check_assert(self, cond: ir.Value, msg: str, loc: str) -> None:
        ctx = self.ctx
        m = ctx.string_constant(msg, "assert_msg")
        w = ctx.string_constant(loc, "assert_loc")
        note = ctx.declare(ASYNC_NOTE, VOID, [PTR, PTR, PTR, PTR])
        self.check_error(ctx.builder.not_(cond),
                         lambda obj: ctx.builder.call(note, [_causes(ctx), obj, m, w]))

    def _inherit(self, source: ir.Value):
        forward = self.ctx.declare(ASYNC_FORWARD, VOID, [PTR, PTR, PTR])
        return lambda obj: self.ctx.builder.call(forward, [_causes(self.ctx), source, obj])

    def await_token(self, t: ir.Value) -> None:
        self.suspend(lambda h, r: _rt(self.ctx, "AwaitTokenAndExecute", VOID, [t, h, r],
                                      [PTR, PTR, PTR]))
        self.check_error(_rt(self.ctx, "IsTokenError", I1, [t], [PTR]), self._inherit(t))

    def await_value(self, v: ir.Value) -> None:
        self.suspend(lambda h, r: _rt(self.ctx, "AwaitValueAndExecute", VOID, [v, h, r],
                                      [PTR, PTR, PTR]))
        self.check_error(_rt(self.ctx, "IsValueError", I1, [v], [PTR]), self._inherit(v))

    def await_group(self, g: ir.Value) -> None:
        self.suspend(lambda h, r: _rt(self.ctx, "AwaitAllInGroupAndExecute", VOID, [g, h, r],
                                      [PTR, PTR, PTR]))
        self.check_error(_rt(self.ctx, "IsGroupError", I1, [g], [PTR]), self._inherit(g))

    def finish(self) -> None:
        """Emit the error, cleanup and suspend blocks (the body has branched to them)."""
        ctx, bld = self.ctx, self.ctx.builder
        bld.position_at_end(self.error_b)
        _rt(ctx, "SetTokenError", VOID, [self.token], [PTR])
        for v in self.values:
            _rt(ctx, "SetValueError", VOID, [v], [PTR])
        bld.branch(self.cleanup)
        bld.position_at_end(self.cleanup)
        mem = bld.call(ctx.declare("llvm.coro.free", PTR, [TOKEN, PTR]), [self.id, self.handle])
        bld.call(ctx.declare("free", VOID, [PTR]), [mem])
        bld.branch(self.suspend_b)
        bld.position_at_end(self.suspend_b)
        bld.call(ctx.declare("llvm.coro.end", VOID, [PTR, I1, TOKEN]),
                 [self.handle, ir.Constant(I1, 0), TOKEN_NONE])
        bld.ret(self.handle)


def _coroutine(ctx: LoweringContext) -> _Coroutine | None:
    return ctx.state.get(_CORO_STATE)


def _value_size(ctx: LoweringContext, value_type) -> int:
    return max(ctx.types.sizeof(ctx.convert(value_type.value_type)), 1)


def _storage(ctx: LoweringContext, v: ir.Value) -> ir.Value:
    return _rt(ctx, "GetValueStorage", PTR, [v], [PTR])


# ----------------------------------------------------------- async.execute
@lowering("async.execute")
def _execute(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    body = op.body.block
    captured = [v for v in values_defined_above(body)]
    cap_vals = ctx.get_all(captured)
    deps = ctx.get_all(op.dependencies)
    operands = ctx.get_all(op.bodyOperands)
    token = _rt(ctx, "CreateToken", PTR, [], [])
    results = [_rt(ctx, "CreateValue", PTR, [ir.Constant(I64, _value_size(ctx, r.type))], [I64])
               for r in op.bodyResults]
    params = [v.type for v in cap_vals] + [PTR] * (len(deps) + len(operands) + 1 + len(results))
    parent = ctx.function.name if ctx.function is not None else "async"
    fn = ir.Function(ctx.module, ir.FunctionType(PTR, params),
                     ctx.module.get_unique_name(f"{parent}.async_execute"))
    fn.linkage = "internal"
    set.add(fn.attributes, "presplitcoroutine")  # llvmlite does not know this attribute
    bld.call(fn, [*cap_vals, *deps, *operands, token, *results])
    ctx.set_results(op, [token, *results])
    with nested_function(ctx, fn):
        _emit_body(ctx, op, fn, captured, len(deps), len(operands), len(results))


def _emit_body(ctx: LoweringContext, op, fn: ir.Function, captured: list, n_deps: int,
               n_operands: int, n_results: int) -> None:
    args = list(fn.args)
    cap_args = args[:len(captured)]
    pos = len(captured)
    dep_args = args[pos:pos + n_deps]
    pos += n_deps
    operand_args = args[pos:pos + n_operands]
    pos += n_operands
    token = args[pos]
    results = args[pos + 1:pos + 1 + n_results]
    bld = ctx.builder
    coro = _Coroutine(ctx, token, results)
    ctx.state[_CORO_STATE] = coro
    # Initial suspension: the caller continues; a runtime worker runs the rest.
    coro.suspend(lambda h, r: _rt(ctx, "Execute", VOID, [h, r], [PTR, PTR]))
    for t in dep_args:
        coro.await_token(t)
    for v in operand_args:
        coro.await_value(v)
    for mv, v in zip(captured, cap_args, strict=True):
        ctx.set(mv, v)
    block = op.body.block
    for barg, v in zip(block.args, operand_args, strict=True):
        ctx.set(barg, bld.load(_storage(ctx, v), typ=ctx.convert(barg.type)))

    def on_assert(a):
        msg = a.msg.data if hasattr(a.msg, "data") else str(a.msg)
        loc = ctx.location(a)
        coro.check_assert(ctx.get(a.arg), msg, str(loc) if loc else "")

    with ctx.with_yield_handler({"cf.assert"}, on_assert):
        term = ctx.lower_ops(block)
    if term is None or term.name != "async.yield":
        raise ctx.unsupported(op, "async.execute body not ending in async.yield")
    for v, r in zip(ctx.get_all(term.operands), results, strict=True):
        ctx.builder.store(v, _storage(ctx, r))
        _rt(ctx, "EmplaceValue", VOID, [r], [PTR])
    _rt(ctx, "EmplaceToken", VOID, [token], [PTR])
    ctx.builder.branch(coro.cleanup)
    coro.finish()


# -------------------------------------------------------------- awaiting
def _blocking_check(ctx: LoweringContext, op, obj: ir.Value, is_error: ir.Value) -> None:
    """Outside coroutines an error fails the program, as upstream's cf.assert does.

    The run reports the assertion that put ``obj`` in error (when one did), with
    a note naming this await and upstream's message; else upstream's message here.
    """
    bld = ctx.builder
    bad, ok = ctx.new_block("await.error"), ctx.new_block("await.ok")
    bld.cbranch(is_error, bad, ok)
    bld.position_at_end(bad)
    loc = str(ctx.location(op) or "")
    note = f"\n{loc + ': ' if loc else ''}note: awaited here: {AWAIT_ERROR_MESSAGE}"
    hook = ctx.declare(ASYNC_AWAIT_FAIL, VOID, [PTR, PTR, PTR, PTR, PTR])
    hook.attributes.add("noreturn")
    bld.call(hook, [_causes(ctx), obj,
                    ctx.string_constant(AWAIT_ERROR_MESSAGE, "await_error"),
                    ctx.string_constant(loc, "await_loc"),
                    ctx.string_constant(note, "await_note")])
    bld.unreachable()
    bld.position_at_end(ok)


@lowering("async.await")
def _await(ctx: LoweringContext, op) -> None:
    x = ctx.get(op.operand)
    is_value = isinstance(op.operand.type, adl.ValueType)
    coro = _coroutine(ctx)
    if coro is not None:
        (coro.await_value if is_value else coro.await_token)(x)
    elif is_value:
        _rt(ctx, "AwaitValue", VOID, [x], [PTR])
        _blocking_check(ctx, op, x, _rt(ctx, "IsValueError", I1, [x], [PTR]))
    else:
        _rt(ctx, "AwaitToken", VOID, [x], [PTR])
        _blocking_check(ctx, op, x, _rt(ctx, "IsTokenError", I1, [x], [PTR]))
    if is_value:
        ctx.set_results(op, [ctx.builder.load(_storage(ctx, x),
                                              typ=ctx.convert(op.result.type))])


@lowering("async.create_group")
def _create_group(ctx: LoweringContext, op) -> None:
    size = ctx.get(op.size)
    ctx.set_results(op, [_rt(ctx, "CreateGroup", PTR, [size], [I64])])


@lowering("async.add_to_group")
def _add_to_group(ctx: LoweringContext, op) -> None:
    rank = _rt(ctx, "AddTokenToGroup", I64, [ctx.get(op.operand), ctx.get(op.group)],
               [PTR, PTR])
    ctx.set_results(op, [rank])


@lowering("async.await_all")
def _await_all(ctx: LoweringContext, op) -> None:
    g = ctx.get(op.operand)
    coro = _coroutine(ctx)
    if coro is not None:
        coro.await_group(g)
        return
    _rt(ctx, "AwaitAllInGroup", VOID, [g], [PTR])
    _blocking_check(ctx, op, g, _rt(ctx, "IsGroupError", I1, [g], [PTR]))


@lowering("async.yield")
def _stray_yield(ctx: LoweringContext, op) -> None:
    raise ctx.unsupported(op, "async.yield outside an async.execute body")

