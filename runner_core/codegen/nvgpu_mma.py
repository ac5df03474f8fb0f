"""sm80 `nvgpu` ops: warp MMA (`mma.sync`, `ldmatrix`) and `cp.async` copies.

On ``nvptx`` each op is the PTX instruction upstream's NVGPU-to-NVVM conversion
gives (``ldmatrix.sync.aligned.m8n8``, ``mma.sync.aligned.mMnNkK.row.col``,
``cp.async.{ca,cg}.shared.global``, ``cp.async.commit_group`` /
``wait_group``).  On ``cpu-kernel`` they are a reference implementation:
copies are synchronous (so groups and waits have nothing left to do), and
``ldmatrix`` / ``mma.sync`` exchange the lanes' addresses and fragments with
warp shuffles and compute from the fragment layouts of the PTX ISA.  The MMA
arithmetic is the model of :mod:`.gpu_mma`: f16/bf16 products exact in f32,
summed in k order from the accumulator in f32, an f16 accumulator rounded once
at the end; f32 inputs used as TF32 (low 13 mantissa bits dropped); f64 with
fused multiply-adds; integers exact in 64 bits, then saturated to i32
(``.satfinite``, as upstream's lowering asks for).
"""

from __future__ import annotations

import llvmlite.ir as ir

from runner_core.ir.dialects.nvgpu_mma import DeviceAsyncTokenType, mma_shape

from . import memref_desc as md
from .context import LoweringContext
from .gpu_device_hooks import hooks_of, opaque_pointer
from .registry import Registry
from .types import register_type

registry = Registry()
lowering = registry.lowering

I32, I64 = ir.IntType(32), ir.IntType(64)
F32, F64 = ir.FloatType(), ir.DoubleType()
SHARED, GLOBAL = 3, 1

register_type(DeviceAsyncTokenType, lambda conv, t: I32)


def _element_pointer(ctx: LoweringContext, op, memref, indices) -> ir.Value:
    mtype = memref.type
    elem = ctx.types.element(mtype)
    desc = md.Descriptor(ctx.builder, ctx.get(memref), mtype)
    return md.element_pointer(ctx.builder, elem, desc, [ctx.get(i) for i in indices])


def _in_space(ctx: LoweringContext, ptr: ir.Value, space: int) -> ir.Value:
    if ptr.type.addrspace == space:
        return ptr
    return ctx.builder.addrspacecast(ptr, ir.PointerType(addrspace=space))


def lane_id_value(ctx: LoweringContext, op) -> ir.Value:
    """The lane (i32) through the target's hooks."""
    v = hooks_of(ctx, op).lane_id(ctx)
    if v.type.width == 32:
        return v
    return ctx.builder.trunc(v, I32) if v.type.width > 32 else ctx.builder.zext(v, I32)


def _width(t: ir.Type) -> int:
    if isinstance(t, ir.IntType):
        return t.width
    return {"half": 16, "bfloat": 16, "float": 32, "double": 64}[str(t)]


# ------------------------------------------------------------------ async copies
@lowering("nvgpu.device_async_copy", targets=["nvptx"])
def _copy_ptx(ctx: LoweringContext, op) -> None:
    dst = _in_space(ctx, _element_pointer(ctx, op, op.dst, op.dstIndices), SHARED)
    src = _in_space(ctx, _element_pointer(ctx, op, op.src, op.srcIndices), GLOBAL)
    elem = ctx.types.element(op.dst.type)
    size = _width(elem) * op.dstElements.value.data // 8
    kind = "cg" if op.bypassL1 is not None else "ca"
    args, types = [dst, src], [ir.PointerType(addrspace=SHARED), ir.PointerType(addrspace=GLOBAL)]
    name = f"llvm.nvvm.cp.async.{kind}.shared.global.{size}"
    if op.srcElements is not None:
        # src-size in bytes: the copy zero-fills past it (upstream: srcElements * bits / 8).
        n = ctx.builder.trunc(ctx.get(op.srcElements), I32)
        args.append(ctx.builder.udiv(ctx.builder.mul(n, ir.Constant(I32, _width(elem))),
                                     ir.Constant(I32, 8)))
        types.append(I32)
        name += ".s"
    ctx.call(name, ir.VoidType(), args, types)
    ctx.set_results(op, [ir.Constant(I32, 0)])


@lowering("nvgpu.device_async_copy", targets=["cpu-kernel"])
def _copy_cpu(ctx: LoweringContext, op) -> None:
    """The copy done at once: ``dstElements`` elements, zero past ``srcElements``."""
    bld = ctx.builder
    elem = ctx.types.element(op.dst.type)
    dst = _element_pointer(ctx, op, op.dst, op.dstIndices)
    src = _element_pointer(ctx, op, op.src, op.srcIndices)
    count = op.dstElements.value.data
    limit = ctx.get(op.srcElements) if op.srcElements is not None else None
    zero = ir.Constant(elem, 0)
    for i in range(count):
        v = bld.load(bld.gep(src, [ir.Constant(I64, i)], source_etype=elem), typ=elem)
        if limit is not None:
            inside = bld.icmp_unsigned("<", ir.Constant(limit.type, i), limit)
            v = bld.select(inside, v, zero)
        bld.store(v, bld.gep(dst, [ir.Constant(I64, i)], source_etype=elem))
    ctx.set_results(op, [ir.Constant(I32, 0)])


@lowering("nvgpu.device_async_create_group", targets=["nvptx"])
def _group_ptx(ctx: LoweringContext, op) -> None:
    ctx.call("llvm.nvvm.cp.async.commit.group", ir.VoidType(), [])
    ctx.set_results(op, [ir.Constant(I32, 0)])


@lowering("nvgpu.device_async_wait", targets=["nvptx"])
def _wait_ptx(ctx: LoweringContext, op) -> None:
    n = op.numGroups.value.data if op.numGroups is not None else 0
    ctx.call("llvm.nvvm.cp.async.wait.group", ir.VoidType(), [ir.Constant(I32, n)], [I32])


@lowering("nvgpu.device_async_create_group", targets=["cpu-kernel"])
def _group_cpu(ctx: LoweringContext, op) -> None:
    ctx.set_results(op, [ir.Constant(I32, 0)])  # the copies are already done


@lowering("nvgpu.device_async_wait", targets=["cpu-kernel"])
def _wait_cpu(ctx: LoweringContext, op) -> None:
    pass


# --------------------------------------------------------------------- ldmatrix
def _tile_vector(ctx: LoweringContext, op) -> tuple[ir.ArrayType, ir.VectorType]:
    arr_t = ctx.convert(op.res.type)
    return arr_t, arr_t.element


@lowering("nvgpu.ldmatrix", targets=["nvptx"])
def _ldmatrix_ptx(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    arr_t, vec_t = _tile_vector(ctx, op)
    tiles = op.numTiles.value.data
    ptr = _in_space(ctx, _element_pointer(ctx, op, op.srcMemref, op.indices), SHARED)
    trans = ".trans" if op.transpose.value.data else ""
    ret = I32 if tiles == 1 else ir.LiteralStructType([I32] * tiles)
    res = ctx.call(f"llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{tiles}{trans}.b16", ret, [ptr],
                   [ir.PointerType(addrspace=SHARED)])
    out = ir.Constant(arr_t, ir.Undefined)
    for i in range(tiles):
        word = res if tiles == 1 else bld.extract_value(res, i)
        out = bld.insert_value(out, bld.bitcast(word, vec_t), i)
    ctx.set_results(op, [out])


def _shfl(ctx: LoweringContext, op, value: ir.Value, lane: ir.Value) -> ir.Value:
    res, _ = hooks_of(ctx, op).shuffle(ctx, "idx", value, lane, ir.Constant(I32, 32))
    return res


@lowering("nvgpu.ldmatrix", targets=["cpu-kernel"])
def _ldmatrix_cpu(ctx: LoweringContext, op) -> None:
    """Lane ``8i + r`` gives the address of row ``r`` of tile ``i``; lane ``l`` gets
    row ``l / 4``, 32 bits at column word ``l % 4`` (transposed: column ``l / 4``,
    rows ``2 (l % 4)`` and ``+1``)."""
    bld = ctx.builder
    arr_t, vec_t = _tile_vector(ctx, op)
    elem = vec_t.element
    lane = lane_id_value(ctx, op)
    mine = bld.ptrtoint(_element_pointer(ctx, op, op.srcMemref, op.indices), I64)
    out = ir.Constant(arr_t, ir.Undefined)
    group, quad = bld.udiv(lane, ir.Constant(I32, 4)), bld.urem(lane, ir.Constant(I32, 4))
    for i in range(op.numTiles.value.data):
        if not op.transpose.value.data:
            row = _shfl(ctx, op, mine, bld.add(ir.Constant(I32, 8 * i), group))
            addr = bld.add(row, bld.zext(bld.mul(quad, ir.Constant(I32, 4)), I64))
            word = bld.load(bld.inttoptr(addr, ir.PointerType()), typ=I32)
            out = bld.insert_value(out, bld.bitcast(word, vec_t), i)
            continue
        vec = ir.Constant(vec_t, ir.Undefined)
        for p in range(2):
            src = bld.add(ir.Constant(I32, 8 * i + p), bld.mul(quad, ir.Constant(I32, 2)))
            row = _shfl(ctx, op, mine, src)
            addr = bld.add(row, bld.zext(bld.mul(group, ir.Constant(I32, 2)), I64))
            v = bld.load(bld.inttoptr(addr, ir.PointerType()), typ=elem)
            vec = bld.insert_element(vec, v, ir.Constant(I32, p))
        out = bld.insert_value(out, vec, i)
    ctx.set_results(op, [out])


# --------------------------------------------------------------------- mma.sync
_PTX_IN = {"half": "f16", "bfloat": "bf16", "float": "tf32", "double": "f64", "i8": "s8",
           "i4": "s4"}
_PTX_ACC = {"half": "f16", "float": "f32", "double": "f64", "i32": "s32"}


def _words(ctx: LoweringContext, value: ir.Value, arr_t: ir.ArrayType, split: bool):
    """The registers of a fragment: each row as one 32-bit word (or one double), or each
    element on its own (``split``: f32/i32/f64 accumulators)."""
    bld = ctx.builder
    vec_t = arr_t.element
    out = []
    for r in range(arr_t.count):
        row = bld.extract_value(value, r)
        if split:
            out += [bld.extract_element(row, ir.Constant(I32, j)) for j in range(vec_t.count)]
        elif _width(vec_t.element) == 64:
            out.append(bld.extract_element(row, ir.Constant(I32, 0)))
        else:
            out.append(bld.bitcast(row, I32))
    return out


def _constraint(t: ir.Type) -> str:
    return {"float": "f", "double": "d"}.get(str(t), "r")


@lowering("nvgpu.mma.sync", targets=["nvptx"])
def _mma_ptx(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    m, n, k = mma_shape(op)
    a_t, b_t, c_t = (ctx.convert(v.type) for v in (op.matrixA, op.matrixB, op.matrixC))
    a_elem, c_elem = a_t.element.element, c_t.element.element
    split = _width(c_elem) != 16
    a = _words(ctx, ctx.get(op.matrixA), a_t, False)
    bw = _words(ctx, ctx.get(op.matrixB), b_t, False)
    c = _words(ctx, ctx.get(op.matrixC), c_t, split)
    ain, acc = _PTX_IN[str(a_elem)], _PTX_ACC[str(c_elem)]
    sat = ".satfinite" if acc == "s32" else ""
    text = f"mma.sync.aligned.m{m}n{n}k{k}.row.col{sat}.{acc}.{ain}.{ain}.{acc} "
    groups, pos = [], 0
    for count in (len(c), len(a), len(bw), len(c)):
        groups.append("{" + ", ".join(f"${pos + j}" for j in range(count)) + "}")
        pos += count
    text += ", ".join(groups) + ";"
    outs = [x.type for x in c]
    cons = ",".join([f"={_constraint(t)}" for t in outs] +
                    [_constraint(x.type) for x in (*a, *bw, *c)])
    fnty = ir.FunctionType(ir.LiteralStructType(outs), [x.type for x in (*a, *bw, *c)])
    res = bld.call(ir.InlineAsm(fnty, text, cons, side_effect=False), [*a, *bw, *c])
    out = ir.Constant(c_t, ir.Undefined)
    vec_t = c_t.element
    regs = [bld.extract_value(res, i) for i in range(len(outs))]
    for r in range(c_t.count):
        if split:
            row = ir.Constant(vec_t, ir.Undefined)
            for j in range(vec_t.count):
                row = bld.insert_element(row, regs[r * vec_t.count + j], ir.Constant(I32, j))
        else:
            row = bld.bitcast(regs[r], vec_t)
        out = bld.insert_value(out, row, r)
    ctx.set_results(op, [out])


def _gather(ctx, op, value, arr_t, full, full_t, place):
    """Every lane's fragment registers into ``full`` (a private matrix), by shuffles:
    ``place(lane, reg, pos) -> (row, col, row_length)`` from the PTX ISA's layout."""
    bld = ctx.builder
    rows = [bld.extract_value(value, r) for r in range(arr_t.count)]
    vec_t = arr_t.element
    per = vec_t.count
    word_t = I64 if _width(vec_t.element) * per == 64 else I32
    words = [bld.bitcast(row, word_t) for row in rows]
    for s in range(32):
        for r, w in enumerate(words):
            got = bld.bitcast(_shfl(ctx, op, w, ir.Constant(I32, s)), vec_t)
            for p in range(per):
                row, col, ld = place(s, r, p)
                slot = bld.gep(full, [ir.Constant(I64, 0), ir.Constant(I64, row * ld + col)],
                               source_etype=full_t)
                bld.store(bld.extract_element(got, ir.Constant(I32, p)), slot)


@lowering("nvgpu.mma.sync", targets=["cpu-kernel"])
def _mma_cpu(ctx: LoweringContext, op) -> None:
    bld = ctx.builder
    m, n, k = mma_shape(op)
    a_t, b_t, c_t = (ctx.convert(v.type) for v in (op.matrixA, op.matrixB, op.matrixC))
    a_elem, c_elem = a_t.element.element, c_t.element.element
    if str(a_elem) == "i4":
        raise ctx.unsupported(op, "nvgpu.mma.sync on i4 operands on the cpu backend",
                              hint="run it on a GPU (--gpurunner-gpu=require)")
    e = a_t.element.count  # elements per register
    blocks = m // 8
    full_a_t, full_b_t = ir.ArrayType(a_elem, m * k), ir.ArrayType(a_elem, k * n)
    full_a = opaque_pointer(ctx, ctx.entry_alloca(full_a_t, name="mma.a"))
    full_b = opaque_pointer(ctx, ctx.entry_alloca(full_b_t, name="mma.b"))

    def place_a(s, r, p):
        return (s // 4 + 8 * (r % blocks), (s % 4) * e + p + 4 * e * (r // blocks), k)

    def place_b(s, r, p):
        return (((s % 4) * e + p + 4 * e * r), s // 4, n)

    _gather(ctx, op, ctx.get(op.matrixA), a_t, full_a, full_a_t, place_a)
    _gather(ctx, op, ctx.get(op.matrixB), b_t, full_b, full_b_t, place_b)
    lane = lane_id_value(ctx, op)
    g = bld.zext(bld.udiv(lane, ir.Constant(I32, 4)), I64)
    t = bld.zext(bld.urem(lane, ir.Constant(I32, 4)), I64)
    cval = ctx.get(op.matrixC)
    out = ir.Constant(c_t, ir.Undefined)
    for r in range(c_t.count):
        crow = bld.extract_value(cval, r)
        row_v = ir.Constant(c_t.element, ir.Undefined)
        for p in range(2):
            row = bld.add(g, ir.Constant(I64, 8 * r))
            col = bld.add(bld.mul(t, ir.Constant(I64, 2)), ir.Constant(I64, p))
            acc = bld.extract_element(crow, ir.Constant(I32, p))
            val = _dot(ctx, full_a, full_a_t, full_b, full_b_t, row, col, k, n, acc, a_elem,
                       c_elem)
            row_v = bld.insert_element(row_v, val, ir.Constant(I32, p))
        out = bld.insert_value(out, row_v, r)
    ctx.set_results(op, [out])


def _tf32(ctx: LoweringContext, x: ir.Value) -> ir.Value:
    bld = ctx.builder
    bits = bld.and_(bld.bitcast(x, I32), ir.Constant(I32, 0xFFFFE000))
    return bld.bitcast(bits, F32)


def _dot(ctx, full_a, a_t, full_b, b_t, row, col, k, n, acc, a_elem, c_elem):
    """``acc + sum_kk A[row, kk] * B[kk, col]`` with the tensor cores' arithmetic."""
    bld = ctx.builder
    kind = str(a_elem)
    if kind == "i8":
        total = bld.sext(acc, I64)
    elif str(c_elem) == "half":
        total = bld.fpext(acc, F32)
    else:
        total = acc
    for kk in range(k):
        pa = bld.gep(full_a, [ir.Constant(I64, 0), bld.add(bld.mul(row, ir.Constant(I64, k)),
                                                            ir.Constant(I64, kk))],
                     source_etype=a_t)
        pb = bld.gep(full_b, [ir.Constant(I64, 0), bld.add(ir.Constant(I64, kk * n), col)],
                     source_etype=b_t)
        x, y = bld.load(pa, typ=a_elem), bld.load(pb, typ=a_elem)
        if kind == "i8":
            total = bld.add(total, bld.mul(bld.sext(x, I64), bld.sext(y, I64)))
        elif kind == "double":
            total = ctx.intrinsic("llvm.fma", F64, [x, y, total], [F64])
        else:
            if kind == "float":
                x, y = _tf32(ctx, x), _tf32(ctx, y)
            else:
                x, y = bld.fpext(x, F32), bld.fpext(y, F32)
            total = bld.fadd(total, bld.fmul(x, y))
    if kind == "i8":
        lo, hi = ir.Constant(I64, -(2**31)), ir.Constant(I64, 2**31 - 1)
        total = bld.select(bld.icmp_signed("<", total, lo), lo, total)
        total = bld.select(bld.icmp_signed(">", total, hi), hi, total)
        return bld.trunc(total, I32)
    if str(c_elem) == "half":
        return bld.fptrunc(total, c_elem)
    return total


__all__ = ["registry"]
