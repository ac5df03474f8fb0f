"""builtin and ub dialects: ``unrealized_conversion_cast``, ``ub.poison``, ``ub.unreachable``
(also LLVM's ``llvm.mlir.poison``/``undef`` and ``llvm.unreachable``, which mean the same)."""

from __future__ import annotations

from .context import LoweringContext
from .registry import Registry

registry = Registry()
lowering = registry.lowering
register_module_op = registry.register_module_op


@lowering("builtin.unrealized_conversion_cast")
def _cast(ctx: LoweringContext, op) -> None:
    ins = ctx.get_all(op.operands)
    outs = [ctx.convert(r.type) for r in op.results]
    if len(ins) == len(outs) and all(v.type == t for v, t in zip(ins, outs, strict=True)):
        ctx.set_results(op, ins)
        return
    if len(ins) == len(outs) and all(str(v.type) == str(t) for v, t in zip(ins, outs,
                                                                              strict=True)):
        ctx.set_results(op, ins)
        return
    raise ctx.unsupported(op, "unrealized_conversion_cast between types with different "
                              f"lowerings ({', '.join(str(v.type) for v in ins)} -> "
                              f"{', '.join(str(t) for t in outs)})")


# ub dialect (poison values and unreachable points), tiny enough to live here.
@lowering("ub.poison", "llvm.mlir.poison", "llvm.mlir.undef")
def _poison(ctx: LoweringContext, op) -> None:
    import llvmlite.ir as ir

    ctx.set_results(op, [ir.Constant(ctx.convert(op.results[0].type), ir.Undefined)])


@lowering("ub.unreachable", "llvm.unreachable")
def _unreachable(ctx: LoweringContext, op) -> None:
    ctx.builder.unreachable()


def _nested_module(ctx: LoweringContext, op) -> None:
    """A module inside the module: mlir-opt leaves an emptied transform library behind
    (`module attributes {transform.with_named_sequence} {}`), which translates to nothing."""
    if any(True for _ in op.body.walk()):
        raise ctx.unsupported(op, "operation 'builtin.module' at module level",
                              hint="a nested module with operations: the runner translates "
                                   "the top-level module only")


register_module_op("builtin.module", declare=_nested_module)
