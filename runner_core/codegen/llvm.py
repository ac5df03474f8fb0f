"""llvm dialect: programs (or parts) already written in MLIR's LLVM dialect.

Upstream tests sometimes contain LLVM-dialect code directly (``llvm.func``,
``llvm.mlir.global`` strings passed to ``printf``, ``llvm.call``), and users
pipe upstream's own lowering into the runner (``mlir-opt --convert-to-llvm
... | gpurunner``), which is LLVM dialect throughout.  These ops are
one-to-one with LLVM IR (the op set is ``runner_core.ir.dialects.llvm_ext``).
LLVM-dialect functions use the plain C ABI (no memref expansion): their
types already are LLVM types.

Intrinsics: ``llvm.intr.X`` calls LLVM's ``llvm.X`` overloaded on the types
LLVM mangles for it (``_INTRINSIC_RULES``), with the op's properties
(``isVolatile``, ``alignment``, ``is_zero_poison`` ...) passed as the
constant arguments LLVM expects.  Properties that are only hints
(fast-math flags, GEP ``nuw``, ``volatile``/``syncscope`` of atomics,
``weak`` cmpxchg) are dropped: the code stays correct, maybe slower.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b
from xdsl.dialects import llvm as L

from . import abi, arith
from .context import FunctionInfo, LoweringContext, prop
from .registry import Registry
from .types import PTR, VOID, TypeConverter, register_type

registry = Registry()
lowering = registry.lowering
register_module_op = registry.register_module_op


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
        fn = abi.mark_c_abi(ir.Function(ctx.module, fnty, name))
    linkage = str(prop(op, "linkage") or "")
    if op.body.blocks and ("internal" in linkage or "private" in linkage):
        fn.linkage = "internal"
    if _passthrough(op, "presplitcoroutine"):  # convert-async-to-llvm's coroutines
        set.add(fn.attributes, "presplitcoroutine")  # llvmlite does not know this attribute
    ctx.functions[name] = FunctionInfo(name, _as_builtin(ftype), fn, not op.body.blocks,
                                       False, op)


def _passthrough(op, name: str) -> bool:
    attr = op.attributes.get("passthrough") or prop(op, "passthrough")
    return isinstance(attr, b.ArrayAttr) and any(
        isinstance(a, b.StringAttr) and a.data == name for a in attr.data)


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
    gtype = ctx.convert(prop(op, "global_type"))
    space = prop(op, "addr_space")
    gv = ir.GlobalVariable(ctx.module, gtype, name,
                           addrspace=int(space.value.data) if space is not None else 0)
    value = prop(op, "value")
    has_region = bool(op.regions and op.regions[0].blocks)
    if isinstance(value, b.StringAttr):
        data = value.data.encode("latin-1", errors="surrogateescape") \
            if isinstance(value.data, str) else bytes(value.data)
        gv.initializer = ir.Constant(gtype, bytearray(data))
    elif value is not None:
        if isinstance(value, b.DenseIntOrFPElementsAttr):
            gv.initializer = arith.dense_constant(gtype, _flat_values(value, gtype))
        else:
            gv.initializer = arith.scalar_constant(gtype, value.value.data)
    linkage = str(prop(op, "linkage") or "")
    if has_region:
        pass  # initialised in the define phase, once every global exists
    elif "external" in linkage and value is None:
        pass  # a declaration: resolved like an external function
    elif value is None:
        gv.initializer = ir.Constant(gtype, None)
    if "internal" in linkage or "private" in linkage:
        gv.linkage = "internal"
    if prop(op, "constant") is not None:
        gv.global_constant = True
    align = prop(op, "alignment")
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


def _define_global(ctx: LoweringContext, op) -> None:
    """A global whose initializer is a region: evaluate it as an LLVM constant."""
    if not (op.regions and op.regions[0].blocks):
        return
    gv = ctx.globals[op.sym_name.data][0]
    gv.initializer = _constant_region(ctx, op, op.regions[0].blocks.first)


def _aggregate_elements(c: ir.Constant) -> list[ir.Constant]:
    t = c.type
    elems = (list(t.elements) if isinstance(t, ir.LiteralStructType)
             else [t.element] * t.count)
    if isinstance(c.constant, list):
        return list(c.constant)
    fill = ir.Undefined if c.constant is ir.Undefined else None
    return [ir.Constant(e, fill) for e in elems]


def _constant_insert(agg: ir.Constant, value: ir.Constant, path: list[int]) -> ir.Constant:
    elems = _aggregate_elements(agg)
    i = path[0]
    elems[i] = value if len(path) == 1 else _constant_insert(elems[i], value, path[1:])
    return ir.Constant(agg.type, elems)


def _constant_region(ctx: LoweringContext, global_op, block) -> ir.Constant:
    """Fold an initializer region (constants, undef/zero, insertvalue, addressof, ...)."""
    vals: dict = {}
    for o in block.ops:
        name = o.name
        rt = ctx.convert(o.results[0].type) if o.results else None
        if name == "llvm.return":
            return vals[o.operands[0]]
        if name == "llvm.mlir.constant":
            vals[o.results[0]] = arith.constant_value(ctx, prop(o, "value"), o.results[0].type)
        elif name in ("llvm.mlir.undef", "llvm.mlir.poison"):
            vals[o.results[0]] = ir.Constant(rt, ir.Undefined)
        elif name == "llvm.mlir.zero":
            vals[o.results[0]] = ir.Constant(rt, None)
        elif name == "llvm.insertvalue":
            agg, v = (vals[x] for x in o.operands)
            pos = [int(x) for x in prop(o, "position").get_values()]
            vals[o.results[0]] = _constant_insert(agg, v, pos)
        elif name == "llvm.mlir.addressof":
            ref = prop(o, "global_name")
            target = ref.string_value() if hasattr(ref, "string_value") else str(ref)[1:]
            if target in ctx.globals:
                vals[o.results[0]] = ctx.globals[target][0]
            elif target in ctx.functions:
                vals[o.results[0]] = ctx.functions[target].function
            else:
                raise ctx.unsupported(o, f"address of unknown symbol '@{target}'")
        else:
            raise ctx.unsupported(o, f"'{name}' in the initializer of global "
                                     f"@{global_op.sym_name.data}")
    raise ctx.unsupported(global_op, "initializer region without llvm.return")


register_module_op("llvm.mlir.global", declare=_declare_global, define=_define_global)


# ---------------------------------------------------------------- values
@lowering("llvm.mlir.constant")
def _constant(ctx, op):
    ctx.set_results(op, [arith.constant_value(ctx, prop(op, "value"), op.results[0].type)])


# llvm.mlir.undef / llvm.mlir.poison lower as ub.poison does (builtin.py).


@lowering("llvm.mlir.zero")
def _zero(ctx, op):
    ctx.set_results(op, [ir.Constant(ctx.convert(op.results[0].type), None)])


@lowering("llvm.mlir.addressof")
def _addressof(ctx, op):
    ref = prop(op, "global_name")
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
          "llvm.bitcast": "bitcast", "llvm.inttoptr": "inttoptr", "llvm.ptrtoint": "ptrtoint",
          "llvm.addrspacecast": "addrspacecast"}


def _cast(method):
    def lower(ctx, op):
        (a,) = ctx.get_all(op.operands)
        to = ctx.convert(op.results[0].type)
        soft = arith.narrow_fptrunc(ctx, a, to) if method == "fptrunc" else None
        if soft is not None:  # no __truncdfhf2 / __truncsfbf2 in a JIT
            ctx.set_results(op, [soft])
            return
        ctx.set_results(op, [getattr(ctx.builder, method)(a, to)])

    return lower


for _n, _m in _CASTS.items():
    lowering(_n)(_cast(_m))


@lowering("llvm.fneg")
def _fneg(ctx, op):
    ctx.set_results(op, [ctx.builder.fneg(ctx.get(op.operands[0]))])


@lowering("llvm.icmp")
def _icmp(ctx, op):
    a, c = ctx.get_all(op.operands)
    ctx.set_results(op, [arith.icmp(ctx.builder, int(prop(op, "predicate").value.data), a, c)])


@lowering("llvm.fcmp")
def _fcmp(ctx, op):
    a, c = ctx.get_all(op.operands)
    ctx.set_results(op, [arith.fcmp(ctx.builder, int(prop(op, "predicate").value.data), a, c)])


@lowering("llvm.select")
def _select(ctx, op):
    k, a, c = ctx.get_all(op.operands)
    ctx.set_results(op, [ctx.builder.select(k, a, c)])


# ---------------------------------------------------------------- memory
@lowering("llvm.load")
def _load(ctx, op):
    (p,) = ctx.get_all(op.operands)
    ld = ctx.builder.load(p, typ=ctx.convert(op.results[0].type))
    align = prop(op, "alignment")
    if align is not None:
        ld.align = int(align.value.data)
    ctx.set_results(op, [ld])


@lowering("llvm.store")
def _store(ctx, op):
    v, p = ctx.get_all(op.operands)
    if isinstance(p.type, ir.PointerType) and not p.type.is_opaque and p.type.pointee != v.type:
        # llvmlite types an alloca's pointer and checks it; the LLVM dialect's pointers
        # are opaque (any value may be stored), as they are in the IR llvmlite prints.
        st = ir.instructions.StoreInstr(ctx.builder.block, v, p)
        st.align = None
        ctx.builder._insert(st)
    else:
        st = ctx.builder.store(v, p)
    align = prop(op, "alignment")
    if align is not None:
        st.align = int(align.value.data)


@lowering("llvm.alloca")
def _alloca(ctx, op):
    (n,) = ctx.get_all(op.operands)
    slot = ctx.builder.alloca(ctx.convert(prop(op, "elem_type")), size=n)
    align = prop(op, "alignment")
    if align is not None:
        slot.align = int(align.value.data)
    ctx.set_results(op, [slot])


_GEP_DYNAMIC = -2147483648


@lowering("llvm.getelementptr")
def _gep(ctx, op):
    p = ctx.get(op.ptr)
    dyn = iter(ctx.get_all(op.ssa_indices))
    idx = []
    for raw in prop(op, "rawConstantIndices").get_values():
        idx.append(next(dyn) if raw == _GEP_DYNAMIC else ir.Constant(ir.IntType(32), int(raw)))
    etype = ctx.convert(prop(op, "elem_type"))
    flags = prop(op, "noWrapFlags")
    inbounds = prop(op, "inbounds") is not None or (
        isinstance(flags, b.IntegerAttr) and flags.value.data & 1)
    res = ctx.builder.gep(p, idx, inbounds=bool(inbounds), source_etype=etype)
    if isinstance(op.result.type, b.VectorType):  # a vector of pointers (llvmlite says ptr)
        res.type = ctx.convert(op.result.type)
    ctx.set_results(op, [res])


@lowering("llvm.extractvalue")
def _extractvalue(ctx, op):
    pos = [int(x) for x in prop(op, "position").get_values()]
    ctx.set_results(op, [ctx.builder.extract_value(ctx.get(op.operands[0]), pos)])


@lowering("llvm.insertvalue")
def _insertvalue(ctx, op):
    pos = [int(x) for x in prop(op, "position").get_values()]
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
    mask = [int(x) for x in prop(op, "mask").get_values()]
    m = ir.Constant(ir.VectorType(ir.IntType(32), len(mask)),
                    [ir.Constant(ir.IntType(32), x) if x >= 0
                     else ir.Constant(ir.IntType(32), ir.Undefined) for x in mask])
    ctx.set_results(op, [ctx.builder.shuffle_vector(a, c, m)])


# ----------------------------------------------------------- control flow
# llvm.br and llvm.cond_br lower as cf's branches (cf.py); llvm.unreachable as
# ub.unreachable (builtin.py).
@lowering("llvm.return")
def _return(ctx, op):
    if op.operands:
        ctx.builder.ret(ctx.get(op.operands[0]))
    else:
        ctx.builder.ret_void()


@lowering("llvm.call")
def _call(ctx, op):
    args = ctx.get_all(op.args)
    callee = prop(op, "callee")
    if callee is None:  # llvm.call %fptr(%a, ...) : !llvm.ptr, (T...) -> R
        fptr, *rest = args
        vtype = prop(op, "var_callee_type")
        if vtype is not None:
            fnty = _fn_type(ctx, vtype)
        else:
            ret = ctx.convert(op.results[0].type) if op.results else VOID
            fnty = ir.FunctionType(ret, [a.type for a in rest])
        from .abi import IndirectCallee

        res = ctx.builder.call(IndirectCallee(fptr, fnty), rest)
        ctx.set_results(op, [res] if op.results else [])
        return
    name = callee.string_value() if hasattr(callee, "string_value") else str(callee).lstrip("@")
    info = ctx.functions.get(name)
    if info is None or info.function is None:
        raise ctx.unsupported(op, f"llvm.call to unknown function '@{name}'")
    res = ctx.builder.call(info.function, args)
    ctx.set_results(op, [res] if op.results else [])


# -------------------------------------------------------------- intrinsics
def _flag(op, name: str, default: int = 0) -> int:
    v = prop(op, name)
    if isinstance(v, b.IntegerAttr):
        return int(v.value.data)
    if isinstance(v, b.UnitAttr):
        return 1
    return default


def _i1(v: int) -> ir.Constant:
    return ir.Constant(ir.IntType(1), v)


def _i32(v: int) -> ir.Constant:
    return ir.Constant(ir.IntType(32), v)


def _by_result(op, args, rt):
    return [rt] if op.results else [args[0].type], args


def _by_operand(i):
    return lambda op, args, rt: ([args[i].type], args)


def _by_result_and_operand(i):
    return lambda op, args, rt: ([rt, args[i].type], args)


def _with_flag(name: str, make=_i1):
    return lambda op, args, rt: ([rt], [*args, make(_flag(op, name))])


def _mem_transfer(op, args, rt):
    return [a.type for a in args], [*args, _i1(_flag(op, "isVolatile"))]


def _memset(op, args, rt):
    return [args[0].type, args[2].type], [*args, _i1(_flag(op, "isVolatile"))]


def _masked_load(op, args, rt):  # (ptr(s), mask, passthru) -> ptr(s), align, mask, passthru
    return [rt, args[0].type], [args[0], _i32(_flag(op, "alignment", 1)), args[1], args[2]]


def _masked_store(op, args, rt):  # (value, ptr(s), mask) -> value, ptr(s), align, mask
    return [args[0].type, args[1].type], [args[0], args[1], _i32(_flag(op, "alignment", 1)),
                                          args[2]]


def _frexp(op, args, rt):
    return [args[0].type, rt.elements[1]], args


def _prefetch(op, args, rt):
    return [args[0].type], [args[0], _i32(_flag(op, "rw")), _i32(_flag(op, "hint")),
                            _i32(_flag(op, "cache"))]


def _is_fpclass(op, args, rt):
    return [args[0].type], [*args, _i32(_flag(op, "bit"))]


# suffix of llvm.intr.X -> (overloaded types, call arguments); default: by result type.
_INTRINSIC_RULES = {
    **{f"{k}.with.overflow": _by_operand(0) for k in ("sadd", "uadd", "ssub", "usub", "smul",
                                                      "umul")},
    **{f"vector.reduce.{k}": _by_operand(0) for k in (
        "add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin", "fmax", "fmin",
        "fmaximum", "fminimum")},
    "vector.reduce.fadd": _by_operand(1), "vector.reduce.fmul": _by_operand(1),
    **{f"vp.reduce.{k}": _by_operand(1) for k in (
        "add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin", "fadd", "fmul",
        "fmax", "fmin", "fmaximum", "fminimum")},
    **{k: _by_result_and_operand(0) for k in ("lround", "llround", "lrint", "llrint",
                                              "fptosi.sat", "fptoui.sat",
                                              "get.active.lane.mask")},
    "powi": _by_result_and_operand(1), "ldexp": _by_result_and_operand(1),
    "frexp": _frexp,
    "abs": _with_flag("is_int_min_poison"),
    "ctlz": _with_flag("is_zero_poison"), "cttz": _with_flag("is_zero_poison"),
    "is.fpclass": _is_fpclass,
    "memcpy": _mem_transfer, "memmove": _mem_transfer, "memset": _memset,
    "masked.load": _masked_load, "masked.gather": _masked_load,
    "masked.store": _masked_store, "masked.scatter": _masked_store,
    "masked.compressstore": _by_operand(0),
    "prefetch": _prefetch,
    "trap": lambda op, args, rt: ([], args), "debugtrap": lambda op, args, rt: ([], args),
    "stacksave": lambda op, args, rt: ([PTR], args),
    "stackrestore": lambda op, args, rt: ([PTR], args),
}


def _lower_intrinsic(ctx: LoweringContext, op) -> None:
    suffix = op.name[len("llvm.intr."):]
    args = ctx.get_all(op.operands)
    if len(op.results) > 1:
        raise ctx.unsupported(op, f"'{op.name}' with {len(op.results)} results")
    if suffix == "fma":  # f16/bf16 on the CPU: without __truncdfhf2 (codegen/math.py)
        from .math import narrow_fma

        narrow = narrow_fma(ctx, args)
        if narrow is not None:
            ctx.set_results(op, [narrow])
            return
    rt = ctx.convert(op.results[0].type) if op.results else VOID
    overload, call_args = _INTRINSIC_RULES.get(suffix, _by_result)(op, args, rt)
    fm = prop(op, "fastmathFlags")  # e.g. reassoc on a reduction: LLVM may then sum in a tree
    flags = tuple(sorted(getattr(fm, "data", None) or ())) if fm is not None else ()
    res = ctx.intrinsic(f"llvm.{suffix}", rt, call_args, overload,
                        fastmath=tuple(f for f in flags if f != "none"))
    ctx.set_results(op, [res] if op.results else [])


def _register_intrinsics() -> None:
    from runner_core.ir.dialects.llvm_ext import INTRINSICS

    for name in INTRINSICS:
        lowering(name)(_lower_intrinsic)


_register_intrinsics()


# ------------------------------------------------------------------ atomics
_ORDERINGS = {0: "unordered", 1: "unordered", 2: "monotonic", 4: "acquire", 5: "release",
              6: "acq_rel", 7: "seq_cst"}
_RMW_NAMES = {"_and": "and", "_or": "or", "_xor": "xor"}


def _ordering(ctx, op, name: str) -> str:
    v = _flag(op, name, -1)
    if v not in _ORDERINGS:
        raise ctx.unsupported(op, f"atomic ordering {v}")
    return _ORDERINGS[v]


@lowering("llvm.atomicrmw")
def _atomicrmw(ctx, op):
    from runner_core.ir.dialects.llvm_ext import ATOMIC_BIN_OPS

    p, v = ctx.get_all(op.operands)
    kind = ATOMIC_BIN_OPS[_flag(op, "bin_op")]
    res = ctx.builder.atomic_rmw(_RMW_NAMES.get(kind, kind), p, v, _ordering(ctx, op, "ordering"))
    ctx.set_results(op, [res])


@lowering("llvm.cmpxchg")
def _cmpxchg(ctx, op):
    p, c, n = ctx.get_all(op.operands)
    res = ctx.builder.cmpxchg(p, c, n, _ordering(ctx, op, "success_ordering"),
                              _ordering(ctx, op, "failure_ordering"))
    ctx.set_results(op, [res])


@lowering("llvm.fence")
def _fence(ctx, op):
    scope = prop(op, "syncscope")
    ctx.builder.fence(_ordering(ctx, op, "ordering"),
                      scope.data if isinstance(scope, b.StringAttr) and scope.data else None)


@lowering("llvm.freeze")
def _freeze(ctx, op):
    (v,) = ctx.get_all(op.operands)
    bld = ctx.builder
    inst = ir.instructions.Instruction(bld.block, v.type, "freeze", [v])
    bld._insert(inst)  # llvmlite has no freeze helper; the instruction prints as LLVM's
    ctx.set_results(op, [inst])


# ------------------------------------------------------------------- switch
@lowering("llvm.switch")
def _switch(ctx, op):
    value = ctx.get(op.operands[0])
    default = ctx.edge(op.defaultDestination, ctx.get_all(op.defaultOperands))
    cases = [(v, ctx.edge(dest, ctx.get_all(args))) for v, dest, args in op.case_list()]
    sw = ctx.builder.switch(value, default)
    for v, edge in cases:
        sw.add_case(ir.Constant(value.type, v), edge)
