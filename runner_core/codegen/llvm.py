"""llvm dialect: programs (or parts) already written in MLIR's LLVM dialect.

Upstream tests sometimes contain LLVM-dialect code directly (``llvm.func``,
``llvm.mlir.global`` strings passed to ``printf``, ``llvm.call``).  These ops
are one-to-one with LLVM IR; this module covers what xDSL's ``llvm`` dialect
can represent.  LLVM-dialect functions use the plain C ABI (no memref
expansion): their types already are LLVM types.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b
from xdsl.dialects import llvm as L

from . import arith
from .context import FunctionInfo, LoweringContext
from .registry import lowering, register_module_op
from .types import I8, PTR, VOID, TypeConverter, register_type


# ------------------------------------------------------------------- types
def _ptr(tc: TypeConverter, t) -> ir.Type:
    space = getattr(t, "addr_space", None)
    n = int(space.data) if hasattr(space, "data") else 0
    return ir.PointerType(addrspace=n) if n else PTR


def _struct(tc: TypeConverter, t) -> ir.Type:
    types = [tc.convert(x) for x in t.types.data]
    return ir.LiteralStructType(types)


def _array(tc: TypeConverter, t) -> ir.Type:
    return ir.ArrayType(tc.convert(t.type), int(t.size.data))


register_type(L.LLVMPointerType, _ptr)
register_type(L.LLVMStructType, _struct)
register_type(L.LLVMArrayType, _array)
register_type(L.LLVMVoidType, lambda tc, t: VOID)
register_type(L.LLVMFunctionType, lambda tc, t: PTR)


def _prop(op, name):
    v = op.properties.get(name)
    return v if v is not None else op.attributes.get(name)


def _fn_type(ctx: LoweringContext, ftype) -> ir.FunctionType:
    ret = ctx.convert(ftype.output)
    args = [ctx.convert(t) for t in ftype.inputs.data]
    return ir.FunctionType(ret, args, var_arg=ftype.is_variadic)


def _as_builtin(ftype) -> b.FunctionType:
    outs = [] if isinstance(ftype.output, L.LLVMVoidType) else [ftype.output]
    return b.FunctionType.from_lists(list(ftype.inputs.data), outs)


# -------------------------------------------------------------- functions
def _declare_func(ctx: LoweringContext, op) -> None:
    name = op.sym_name.data
    ftype = op.function_type
    fnty = _fn_type(ctx, ftype)
    existing = ctx.module.globals.get(name)
    if isinstance(existing, ir.Function) and str(existing.function_type) == str(fnty):
        fn = existing
    else:
        fn = ir.Function(ctx.module, fnty, name)
    linkage = str(_prop(op, "linkage") or "")
    if op.body.blocks and ("internal" in linkage or "private" in linkage):
        fn.linkage = "internal"
    ctx.functions[name] = FunctionInfo(name, _as_builtin(ftype), fn, not op.body.blocks,
                                       False, op)


def _define_func(ctx: LoweringContext, op) -> None:
    if not op.body.blocks:
        return
    info = ctx.functions[op.sym_name.data]
    entry = ctx.begin_function(info.function)
    ctx.lower_region_cfg(op.body, list(info.function.args), entry=entry)
    ctx.end_function()


register_module_op("llvm.func", declare=_declare_func, define=_define_func)


def _declare_global(ctx: LoweringContext, op) -> None:
    name = op.sym_name.data
    gtype = ctx.convert(_prop(op, "global_type"))
    space = _prop(op, "addr_space")
    gv = ir.GlobalVariable(ctx.module, gtype, name,
                           addrspace=int(space.value.data) if space is not None else 0)
    value = _prop(op, "value")
    if op.regions and op.regions[0].blocks:
        raise ctx.unsupported(op, "llvm.mlir.global with an initializer region")
    if isinstance(value, b.StringAttr):
        data = value.data.encode("latin-1", errors="surrogateescape") \
            if isinstance(value.data, str) else bytes(value.data)
        gv.initializer = ir.Constant(gtype, bytearray(data))
    elif value is not None:
        if isinstance(value, b.DenseIntOrFPElementsAttr):
            gv.initializer = arith.dense_constant(gtype, _flat_values(value, gtype))
        else:
            gv.initializer = arith.scalar_constant(gtype, value.value.data)
    linkage = str(_prop(op, "linkage") or "")
    if "external" in linkage and value is None:
        pass  # a declaration: resolved like an external function
    elif value is None:
        gv.initializer = ir.Constant(gtype, None)
    if "internal" in linkage or "private" in linkage:
        gv.linkage = "internal"
    if _prop(op, "constant") is not None:
        gv.global_constant = True
    align = _prop(op, "alignment")
    if align is not None:
        gv.align = int(align.value.data)
    ctx.globals[name] = (gv, None)


def _flat_values(attr, ty):
    vals = list(attr.get_values())
    count = 1
    t = ty
    while isinstance(t, (ir.ArrayType, ir.VectorType)):
        count *= t.count
        t = t.element
    return vals * count if len(vals) == 1 and count > 1 else vals


register_module_op("llvm.mlir.global", declare=_declare_global)


# ---------------------------------------------------------------- values
@lowering("llvm.mlir.constant")
def _constant(ctx, op):
    ctx.set_results(op, [arith.constant_value(ctx, _prop(op, "value"), op.results[0].type)])


@lowering("llvm.mlir.undef")
def _undef(ctx, op):
    ctx.set_results(op, [ir.Constant(ctx.convert(op.results[0].type), ir.Undefined)])


@lowering("llvm.mlir.poison")
def _poison(ctx, op):
    ctx.set_results(op, [ir.Constant(ctx.convert(op.results[0].type), ir.Undefined)])


@lowering("llvm.mlir.zero")
def _zero(ctx, op):
    ctx.set_results(op, [ir.Constant(ctx.convert(op.results[0].type), None)])


@lowering("llvm.mlir.addressof")
def _addressof(ctx, op):
    ref = _prop(op, "global_name")
    name = ref.string_value() if hasattr(ref, "string_value") else str(ref).lstrip("@")
    if name in ctx.globals:
        target = ctx.globals[name][0]
    elif name in ctx.functions and ctx.functions[name].function is not None:
        target = ctx.functions[name].function
    else:
        raise ctx.unsupported(op, f"address of unknown symbol '@{name}'")
    ctx.set_results(op, [target])


_BIN = {"llvm.add": "add", "llvm.sub": "sub", "llvm.mul": "mul", "llvm.sdiv": "sdiv",
        "llvm.udiv": "udiv", "llvm.srem": "srem", "llvm.urem": "urem", "llvm.and": "and_",
        "llvm.or": "or_", "llvm.xor": "xor", "llvm.shl": "shl", "llvm.lshr": "lshr",
        "llvm.ashr": "ashr", "llvm.fadd": "fadd", "llvm.fsub": "fsub", "llvm.fmul": "fmul",
        "llvm.fdiv": "fdiv", "llvm.frem": "frem"}
for _n, _m in _BIN.items():
    lowering(_n)(arith._binary(_m))

_CASTS = {"llvm.sext": "sext", "llvm.zext": "zext", "llvm.trunc": "trunc",
          "llvm.fpext": "fpext", "llvm.fptrunc": "fptrunc", "llvm.sitofp": "sitofp",
          "llvm.uitofp": "uitofp", "llvm.fptosi": "fptosi", "llvm.fptoui": "fptoui",
          "llvm.bitcast": "bitcast", "llvm.inttoptr": "inttoptr", "llvm.ptrtoint": "ptrtoint"}


def _cast(method):
    def lower(ctx, op):
        (a,) = ctx.get_all(op.operands)
        ctx.set_results(op, [getattr(ctx.builder, method)(a, ctx.convert(op.results[0].type))])

    return lower


for _n, _m in _CASTS.items():
    lowering(_n)(_cast(_m))


@lowering("llvm.fneg")
def _fneg(ctx, op):
    ctx.set_results(op, [ctx.builder.fneg(ctx.get(op.operands[0]))])


@lowering("llvm.icmp")
def _icmp(ctx, op):
    a, c = ctx.get_all(op.operands)
    ctx.set_results(op, [arith.icmp(ctx.builder, int(_prop(op, "predicate").value.data), a, c)])


@lowering("llvm.fcmp")
def _fcmp(ctx, op):
    a, c = ctx.get_all(op.operands)
    ctx.set_results(op, [arith.fcmp(ctx.builder, int(_prop(op, "predicate").value.data), a, c)])


@lowering("llvm.select")
def _select(ctx, op):
    k, a, c = ctx.get_all(op.operands)
    ctx.set_results(op, [ctx.builder.select(k, a, c)])


# ---------------------------------------------------------------- memory
@lowering("llvm.load")
def _load(ctx, op):
    (p,) = ctx.get_all(op.operands)
    ld = ctx.builder.load(p, typ=ctx.convert(op.results[0].type))
    align = _prop(op, "alignment")
    if align is not None:
        ld.align = int(align.value.data)
    ctx.set_results(op, [ld])


@lowering("llvm.store")
def _store(ctx, op):
    v, p = ctx.get_all(op.operands)
    st = ctx.builder.store(v, p)
    align = _prop(op, "alignment")
    if align is not None:
        st.align = int(align.value.data)


@lowering("llvm.alloca")
def _alloca(ctx, op):
    (n,) = ctx.get_all(op.operands)
    slot = ctx.builder.alloca(ctx.convert(_prop(op, "elem_type")), size=n)
    align = _prop(op, "alignment")
    if align is not None:
        slot.align = int(align.value.data)
    ctx.set_results(op, [slot])


_GEP_DYNAMIC = -2147483648


@lowering("llvm.getelementptr")
def _gep(ctx, op):
    p = ctx.get(op.ptr)
    dyn = iter(ctx.get_all(op.ssa_indices))
    idx = []
    for raw in _prop(op, "rawConstantIndices").get_values():
        idx.append(next(dyn) if raw == _GEP_DYNAMIC else ir.Constant(ir.IntType(32), int(raw)))
    etype = ctx.convert(_prop(op, "elem_type"))
    ctx.set_results(op, [ctx.builder.gep(p, idx, inbounds=_prop(op, "inbounds") is not None,
                                         source_etype=etype)])


@lowering("llvm.extractvalue")
def _extractvalue(ctx, op):
    pos = [int(x) for x in _prop(op, "position").get_values()]
    ctx.set_results(op, [ctx.builder.extract_value(ctx.get(op.operands[0]), pos)])


@lowering("llvm.insertvalue")
def _insertvalue(ctx, op):
    pos = [int(x) for x in _prop(op, "position").get_values()]
    agg, v = ctx.get_all(op.operands)
    ctx.set_results(op, [ctx.builder.insert_value(agg, v, pos)])


@lowering("llvm.insertelement")
def _insertelement(ctx, op):
    vec, val, idx = ctx.get(op.vector), ctx.get(op.value), ctx.get(op.index)
    ctx.set_results(op, [ctx.builder.insert_element(vec, val, idx)])


@lowering("llvm.extractelement")
def _extractelement(ctx, op):
    vec, idx = ctx.get_all(op.operands)
    ctx.set_results(op, [ctx.builder.extract_element(vec, idx)])


@lowering("llvm.shufflevector")
def _shufflevector(ctx, op):
    a, c = ctx.get_all(op.operands)
    mask = [int(x) for x in _prop(op, "mask").get_values()]
    m = ir.Constant(ir.VectorType(ir.IntType(32), len(mask)),
                    [ir.Constant(ir.IntType(32), x) if x >= 0
                     else ir.Constant(ir.IntType(32), ir.Undefined) for x in mask])
    ctx.set_results(op, [ctx.builder.shuffle_vector(a, c, m)])


# ----------------------------------------------------------- control flow
@lowering("llvm.br")
def _br(ctx, op):
    (dest,) = op.successors
    ctx.branch(dest, ctx.get_all(op.operands))


@lowering("llvm.cond_br")
def _cond_br(ctx, op):
    t, e = op.successors
    tb = ctx.edge(t, ctx.get_all(op.then_arguments))
    eb = ctx.edge(e, ctx.get_all(op.else_arguments))
    ctx.builder.cbranch(ctx.get(op.cond), tb, eb)


@lowering("llvm.return")
def _return(ctx, op):
    if op.operands:
        ctx.builder.ret(ctx.get(op.operands[0]))
    else:
        ctx.builder.ret_void()


@lowering("llvm.unreachable")
def _unreachable(ctx, op):
    ctx.builder.unreachable()


@lowering("llvm.call")
def _call(ctx, op):
    args = ctx.get_all(op.args)
    callee = _prop(op, "callee")
    if callee is None:
        raise ctx.unsupported(op, "indirect llvm.call")
    name = callee.string_value() if hasattr(callee, "string_value") else str(callee).lstrip("@")
    info = ctx.functions.get(name)
    if info is None or info.function is None:
        raise ctx.unsupported(op, f"llvm.call to unknown function '@{name}'")
    res = ctx.builder.call(info.function, args)
    ctx.set_results(op, [res] if op.results else [])


def _intrinsic(ctx, op, name):
    args = ctx.get_all(op.operands)
    rt = ctx.convert(op.results[0].type) if op.results else VOID
    over = [rt] if op.results else ([args[0].type] if args else [])
    res = ctx.intrinsic(name, rt, args, over)
    ctx.set_results(op, [res] if op.results else [])


@lowering("llvm.call_intrinsic")
def _call_intrinsic(ctx, op):
    name = _prop(op, "intrin").data
    args = ctx.get_all(op.args)
    rt = ctx.convert(op.results[0].type) if op.results else VOID
    fn = ctx.declare(name, rt, [a.type for a in args])
    res = ctx.builder.call(fn, args)
    ctx.set_results(op, [res] if op.results else [])


for _n in ("ceil", "copysign", "cos", "exp", "exp2", "fabs", "floor", "fma", "log", "log2",
           "maxnum", "minnum", "pow", "sin", "sqrt"):
    lowering(f"llvm.intr.{_n}")(lambda ctx, op, _n=_n: _intrinsic(ctx, op, f"llvm.{_n}"))


@lowering("llvm.intr.stacksave")
def _stacksave(ctx, op):
    ctx.set_results(op, [ctx.intrinsic("llvm.stacksave", PTR, [], [PTR])])


@lowering("llvm.intr.stackrestore")
def _stackrestore(ctx, op):
    ctx.intrinsic("llvm.stackrestore", VOID, ctx.get_all(op.operands), [PTR])


def byte_string(data: bytes) -> ir.Constant:
    return ir.Constant(ir.ArrayType(I8, len(data)), bytearray(data))


@lowering("llvm.intr.vector.reduce.fadd", "llvm.intr.vector.reduce.fmul")
def _vector_reduce_ordered(ctx, op):
    start, vec = ctx.get_all(op.operands)
    name = "llvm.vector.reduce." + op.name.rsplit(".", 1)[1]
    ctx.set_results(op, [ctx.intrinsic(name, start.type, [start, vec], [vec.type])])


@lowering("llvm.intr.masked.store")
def _masked_store(ctx, op):
    value, ptr, mask = ctx.get_all(op.operands)
    align = _prop(op, "alignment")
    a = ir.Constant(ir.IntType(32), int(align.value.data) if align is not None else 1)
    ctx.intrinsic("llvm.masked.store", VOID, [value, ptr, a, mask], [value.type, ptr.type])
