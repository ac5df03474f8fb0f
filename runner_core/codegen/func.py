"""func dialect: functions, calls and returns under the memref calling convention."""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from runner_core.errors import RunnerError

from . import abi
from .context import FunctionInfo, LoweringContext
from .registry import Registry
from .types import PTR

registry = Registry()
lowering = registry.lowering
register_module_op = registry.register_module_op


def _has_body(op) -> bool:
    return bool(op.body.blocks)


def _wants_c_interface(op) -> bool:
    return "llvm.emit_c_interface" in op.attributes


def _declare(ctx: LoweringContext, op) -> None:
    name = op.sym_name.data
    ftype = op.function_type
    if name in ctx.functions:
        raise ctx.unsupported(op, f"redefinition of function '@{name}'")
    external = not _has_body(op)
    cif = _wants_c_interface(op)
    fnty = abi.function_type(ctx.types, ftype)
    existing = ctx.module.globals.get(name)
    if existing is not None:
        # Declared earlier as a runtime helper by another lowering: reuse it if compatible.
        if not isinstance(existing, ir.Function) or existing.function_type != fnty:
            raise RunnerError(f"error: function '@{name}' conflicts with a runtime function "
                              f"of the same name")
        fn = existing
    elif external and cif:
        fn = None  # calls go to _mlir_ciface_NAME
    else:
        fn = abi.mark_c_abi(ir.Function(ctx.module, fnty, name))
    ctx.functions[name] = FunctionInfo(name, ftype, fn, external, cif, op)


def _define(ctx: LoweringContext, op) -> None:
    if not _has_body(op):
        return
    info = ctx.functions[op.sym_name.data]
    fn = info.function
    entry = ctx.begin_function(fn)
    values = abi.implode_all(ctx.builder, ctx.types, list(fn.args), info.mlir_type.inputs.data)
    ctx.lower_region_cfg(op.body, values, entry=entry)
    ctx.end_function()
    if info.c_interface:
        _define_c_wrapper(ctx, info)


def _define_c_wrapper(ctx: LoweringContext, info: FunctionInfo) -> None:
    """``_mlir_ciface_NAME``: descriptors by pointer, forwarding to NAME."""
    ftype = info.mlir_type
    cif = abi.c_interface(ctx.types, ftype)
    w = ir.Function(ctx.module, cif.fnty, abi.CIFACE_PREFIX + info.name)
    bld = ir.IRBuilder(w.append_basic_block("entry"))
    args = list(w.args)
    res_ptr = args.pop(0) if cif.result_by_pointer else None
    expanded = []
    for a, t in zip(args, ftype.inputs.data, strict=True):
        if abi.is_memref(t):
            desc = bld.load(a, typ=ctx.convert(t))
            expanded += abi.explode(bld, desc, t)
        else:
            expanded.append(a)
    res = bld.call(info.function, expanded)
    if res_ptr is not None:
        bld.store(res, res_ptr)
        bld.ret_void()
    elif isinstance(cif.fnty.return_type, ir.VoidType):
        bld.ret_void()
    else:
        bld.ret(res)


register_module_op("func.func", declare=_declare, define=_define)


def call_function(ctx: LoweringContext, info: FunctionInfo, args: list, op=None) -> list:
    """Call an MLIR function symbol with lowered arguments; returns lowered results."""
    ftype = info.mlir_type
    ins = list(ftype.inputs.data)
    outs = list(ftype.outputs.data)
    if len(args) != len(ins):
        raise ctx.unsupported(op, f"call to '@{info.name}' with {len(args)} arguments, "
                                  f"expected {len(ins)}")
    bld = ctx.builder
    if info.external and info.c_interface:
        cif = abi.c_interface(ctx.types, ftype)
        fn = ctx.declare(abi.CIFACE_PREFIX + info.name, cif.fnty.return_type,
                         list(cif.fnty.args))
        call_args = []
        res_slot = None
        if cif.result_by_pointer:
            rtype = abi.result_type(ctx.types, outs)
            res_slot = ctx.entry_alloca(rtype)
            call_args.append(res_slot)
        for v, t in zip(args, ins, strict=True):
            if abi.is_memref(t):
                slot = ctx.entry_alloca(ctx.convert(t))
                bld.store(v, slot)
                call_args.append(slot)
            else:
                call_args.append(v)
        res = bld.call(fn, call_args)
        if res_slot is not None:
            res = bld.load(res_slot, typ=abi.result_type(ctx.types, outs))
        return abi.unpack_results(bld, res, len(outs))
    expanded = []
    for v, t in zip(args, ins, strict=True):
        expanded += abi.explode(bld, v, t)
    res = bld.call(info.function, expanded)
    return abi.unpack_results(bld, res, len(outs))


@lowering("func.call")
def _call(ctx: LoweringContext, op) -> None:
    callee = op.callee.string_value() if hasattr(op.callee, "string_value") else str(op.callee)
    callee = callee.lstrip("@")
    info = ctx.functions.get(callee)
    if info is None:
        raise ctx.unsupported(op, f"call to unknown function '@{callee}'")
    ctx.set_results(op, call_function(ctx, info, ctx.get_all(op.operands), op))


@lowering("func.return")
def _return(ctx: LoweringContext, op) -> None:
    vals = ctx.get_all(op.operands)
    fn = ctx.function
    rv = abi.pack_results(ctx.builder, fn.function_type.return_type, vals)
    if rv is None:
        ctx.builder.ret_void()
    else:
        ctx.builder.ret(rv)


@lowering("func.constant")
def _constant(ctx: LoweringContext, op) -> None:
    name = op.properties.get("value") or op.attributes.get("value")
    sym = name.string_value() if hasattr(name, "string_value") else str(name).lstrip("@")
    info = ctx.functions.get(sym)
    if info is None or info.function is None:
        raise ctx.unsupported(op, f"reference to function '@{sym}' without a body")
    ctx.set_results(op, [ctx.builder.bitcast(info.function, PTR)])


@lowering("func.call_indirect")
def _call_indirect(ctx: LoweringContext, op) -> None:
    callee, *args = op.operands
    ftype = callee.type
    if not isinstance(ftype, b.FunctionType):
        raise ctx.unsupported(op)
    fnty = abi.function_type(ctx.types, ftype)
    expanded = []
    for v, t in zip(ctx.get_all(args), ftype.inputs.data, strict=True):
        expanded += abi.explode(ctx.builder, v, t)
    fptr = ctx.get(callee)
    res = ctx.builder.call(abi.IndirectCallee(fptr, fnty), expanded)
    ctx.set_results(op, abi.unpack_results(ctx.builder, res, len(ftype.outputs.data)))

