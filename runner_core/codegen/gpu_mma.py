"""Warp-level matrix ops (`gpu.subgroup_mma_*`) as a reference implementation, every GPU target.

Each lane of the warp holds the whole tile (an LLVM array value of M*N
elements) and computes all of it, so the result does not depend on how a
target spreads fragments over lanes: the cpu backend runs it as is, and on
the cuda backend it is plain per-thread code (correct on any GPU, not fast;
the lanes store identical values).  Loads and stores start with a warp
barrier (a shuffle) so that no lane stores before all have loaded.  The arithmetic is the tensor cores':
f16 inputs are widened to f32, products and the running sum are f32 (exact
products; the sum in k order from the accumulator's value), f32 inputs are
used as TF32 (low 13 mantissa bits dropped), and an f16 accumulator is
rounded once at the end of each compute; f64 uses fused multiply-adds (DMMA).
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from runner_core.ir.dialects.gpu_mma import MMAMatrixType

from . import memref_desc as md
from .context import LoweringContext
from .gpu_device_hooks import hooks_of, opaque_pointer
from .registry import Registry
from .types import register_type

registry = Registry()
lowering = registry.lowering

I32, I64 = ir.IntType(32), ir.IntType(64)
F32, F64 = ir.FloatType(), ir.DoubleType()
_TARGETS = ["nvptx", "cpu-kernel"]


def _array(conv, t: MMAMatrixType) -> ir.Type:
    m, n = t.dims
    return ir.ArrayType(conv.convert(t.element_type), m * n)


register_type(MMAMatrixType, _array)


def _loop(ctx: LoweringContext, count: int, body) -> None:
    """``for i in range(count): body(i)`` (``i`` an i64), as an LLVM loop."""
    bld = ctx.builder
    pre = bld.block
    head, inner, done = ctx.new_block("mma.head"), ctx.new_block("mma.body"), ctx.new_block(
        "mma.done")
    bld.branch(head)
    bld.position_at_end(head)
    i = bld.phi(I64)
    i.add_incoming(ir.Constant(I64, 0), pre)
    bld.cbranch(bld.icmp_unsigned("<", i, ir.Constant(I64, count)), inner, done)
    bld.position_at_end(inner)
    body(i)
    i.add_incoming(bld.add(i, ir.Constant(I64, 1)), bld.block)
    bld.branch(head)
    bld.position_at_end(done)


def _spill(ctx: LoweringContext, value: ir.Value, name: str) -> ir.Value:
    slot = _slot(ctx, value.type, name)
    ctx.builder.store(value, slot)
    return slot


def _slot(ctx: LoweringContext, arr_t: ir.ArrayType, name: str) -> ir.Value:
    return opaque_pointer(ctx, ctx.entry_alloca(arr_t, name=name))


def _at(ctx: LoweringContext, arr: ir.Value, arr_t: ir.ArrayType, i: ir.Value) -> ir.Value:
    return ctx.builder.gep(arr, [ir.Constant(I64, 0), i], source_etype=arr_t)


def _warp_sync(ctx: LoweringContext, op) -> None:
    """Every lane of the warp gets here before any goes on: loads and stores of a tile
    are collective (a lane must not store the result before all have loaded), as the
    warp-synchronous wmma instructions are.  A shuffle is the targets' warp barrier."""
    hooks = hooks_of(ctx, op)
    zero = ir.Constant(I32, 0)
    hooks.shuffle(ctx, "idx", zero, zero, ir.Constant(I32, hooks.subgroup_size))


def _ld(op) -> int:
    v = op.leadDimension
    return int(v.value.data if hasattr(v, "value") else v.data)


def _base(ctx: LoweringContext, op, memref, indices) -> tuple[ir.Value, ir.Type]:
    mtype = memref.type
    if not isinstance(mtype, b.MemRefType) or not md.is_identity_layout(mtype):
        raise ctx.unsupported(op, f"'{op.name}' on {mtype} (needs an identity layout)")
    elem = ctx.types.element(mtype)
    desc = md.Descriptor(ctx.builder, ctx.get(memref), mtype)
    idx = [ctx.get(i) for i in indices]
    return md.element_pointer(ctx.builder, elem, desc, idx), elem


def _offset(ctx: LoweringContext, e: ir.Value, n: int, ld: int, transpose: bool) -> ir.Value:
    bld = ctx.builder
    i = bld.udiv(e, ir.Constant(I64, n))
    j = bld.urem(e, ir.Constant(I64, n))
    row, col = (j, i) if transpose else (i, j)
    return bld.add(bld.mul(row, ir.Constant(I64, ld)), col)


@lowering("gpu.subgroup_mma_load_matrix", targets=_TARGETS)
def _load(ctx: LoweringContext, op) -> None:
    rt = op.res.type
    arr_t = ctx.convert(rt)
    base, elem = _base(ctx, op, op.srcMemref, op.indices)
    m, n = rt.dims
    buf = _slot(ctx, arr_t, "mma.load")
    ld, tr = _ld(op), op.transpose is not None
    bld = ctx.builder
    _warp_sync(ctx, op)

    def body(e):
        v = bld.load(bld.gep(base, [_offset(ctx, e, n, ld, tr)], source_etype=elem), typ=elem)
        bld.store(v, _at(ctx, buf, arr_t, e))

    _loop(ctx, m * n, body)
    ctx.set_results(op, [bld.load(buf, typ=arr_t)])


@lowering("gpu.subgroup_mma_store_matrix", targets=_TARGETS)
def _store(ctx: LoweringContext, op) -> None:
    st = op.src.type
    arr_t = ctx.convert(st)
    base, elem = _base(ctx, op, op.dstMemref, op.indices)
    m, n = st.dims
    src = _spill(ctx, ctx.get(op.src), "mma.store")
    ld, tr = _ld(op), op.transpose is not None
    bld = ctx.builder
    _warp_sync(ctx, op)

    def body(e):
        v = bld.load(_at(ctx, src, arr_t, e), typ=arr_t.element)
        bld.store(v, bld.gep(base, [_offset(ctx, e, n, ld, tr)], source_etype=elem))

    _loop(ctx, m * n, body)


@lowering("gpu.subgroup_mma_constant_matrix", targets=_TARGETS)
def _constant(ctx: LoweringContext, op) -> None:
    arr_t = ctx.convert(op.res.type)
    v = ctx.get(op.value)
    agg = ir.Constant(arr_t, ir.Undefined)
    bld = ctx.builder
    for e in range(arr_t.count):
        agg = bld.insert_value(agg, v, e)
    ctx.set_results(op, [agg])


def _tf32(ctx: LoweringContext, v: ir.Value) -> ir.Value:
    """An f32 as a TF32 tensor-core input: the low 13 mantissa bits are not used."""
    bld = ctx.builder
    return bld.bitcast(bld.and_(bld.bitcast(v, I32), ir.Constant(I32, -0x2000)), F32)


@lowering("gpu.subgroup_mma_compute", targets=_TARGETS)
def _compute(ctx: LoweringContext, op) -> None:
    # a_transpose/b_transpose say the fragments were loaded column-major (`transpose`
    # on the load), which the logical tiles here already reflect.
    at, bt, ct = op.opA.type, op.opB.type, op.res.type
    a_t, b_t, c_t = ctx.convert(at), ctx.convert(bt), ctx.convert(ct)
    m, k = at.dims
    _, n = bt.dims
    bld = ctx.builder
    wide = F64 if isinstance(c_t.element, ir.DoubleType) else F32
    fma = isinstance(wide, ir.DoubleType)
    if isinstance(c_t.element, ir.IntType) or isinstance(a_t.element, ir.IntType):
        raise ctx.unsupported(op, "integer gpu.subgroup_mma_compute")
    a = _spill(ctx, ctx.get(op.opA), "mma.a")
    bb = _spill(ctx, ctx.get(op.opB), "mma.b")
    out = _spill(ctx, ctx.get(op.opC), "mma.c")
    acc_slot = opaque_pointer(ctx, ctx.entry_alloca(wide, name="mma.acc"))

    def widen(v):
        if isinstance(v.type, ir.FloatType) and wide == F32:
            return _tf32(ctx, v)
        return v if v.type == wide else bld.fpext(v, wide)

    def element(e):
        i = bld.udiv(e, ir.Constant(I64, n))
        j = bld.urem(e, ir.Constant(I64, n))
        c = bld.load(_at(ctx, out, c_t, e), typ=c_t.element)
        bld.store(c if c.type == wide else bld.fpext(c, wide), acc_slot)

        def step(kk):
            x = widen(bld.load(_at(ctx, a, a_t, bld.add(bld.mul(i, ir.Constant(I64, k)), kk)),
                               typ=a_t.element))
            y = widen(bld.load(_at(ctx, bb, b_t, bld.add(bld.mul(kk, ir.Constant(I64, n)), j)),
                               typ=b_t.element))
            acc = bld.load(acc_slot, typ=wide)
            if fma:
                r = ctx.intrinsic("llvm.fma", wide, [x, y, acc], [wide])
            else:
                r = bld.fadd(acc, bld.fmul(x, y))
            bld.store(r, acc_slot)

        _loop(ctx, k, step)
        r = bld.load(acc_slot, typ=wide)
        bld.store(r if r.type == c_t.element else bld.fptrunc(r, c_t.element),
                  _at(ctx, out, c_t, e))

    _loop(ctx, m * n, element)
    ctx.set_results(op, [bld.load(out, typ=c_t)])


def _elementwise_one(ctx: LoweringContext, op, kind: str, xs: list[ir.Value],
                     out_t: ir.Type) -> ir.Value:
    bld = ctx.builder
    x = xs[0]
    y = xs[1] if len(xs) > 1 else None
    simple = {"addf": bld.fadd, "mulf": bld.fmul, "subf": bld.fsub, "divf": bld.fdiv,
              "addi": bld.add, "muli": bld.mul, "subi": bld.sub, "divs": bld.sdiv,
              "divu": bld.udiv}
    if kind in simple:
        return simple[kind](x, y)
    if kind in ("maxf", "minf"):  # NaN-propagating, as upstream's NVVM lowering
        name = "llvm.maximum" if kind == "maxf" else "llvm.minimum"
        return ctx.intrinsic(name, x.type, [x, y], [x.type])
    if kind == "negatef":
        return bld.fneg(x)
    if kind == "negates":
        return bld.neg(x)
    if kind == "extf":
        return bld.fpext(x, out_t)
    raise ctx.unsupported(op, f"gpu.subgroup_mma_elementwise {kind}")


@lowering("gpu.subgroup_mma_elementwise", targets=_TARGETS)
def _elementwise(ctx: LoweringContext, op) -> None:
    res_t = ctx.convert(op.res.type)
    bld = ctx.builder
    ins = [(_spill(ctx, ctx.get(a), "mma.ew"), ctx.convert(a.type)) for a in op.args]
    out = _slot(ctx, res_t, "mma.ew.out")

    def body(e):
        xs = [bld.load(_at(ctx, p, t, e), typ=t.element) for p, t in ins]
        bld.store(_elementwise_one(ctx, op, op.kind, xs, res_t.element), _at(ctx, out, res_t, e))

    _loop(ctx, res_t.count, body)
    ctx.set_results(op, [bld.load(out, typ=res_t)])
