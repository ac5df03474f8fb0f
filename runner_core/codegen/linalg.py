"""linalg dialect on memrefs: structured ops as a plain loop nest.

Upstream's GPU and CPU tests initialise and combine buffers with `linalg.fill`,
`linalg.copy`, `linalg.matmul` and `linalg.generic`.  Every one of them is a
*structured op*: an iteration domain (one loop per dimension of its
indexing maps), operands accessed through those affine maps, and a body
region computing the outputs' new elements from one element of each operand
(xDSL builds that body for the named ops, e.g. `mulf` + `addf` for matmul).
So one lowering serves them all, the way `-convert-linalg-to-loops` does it:

    for d0 in [0, D0): for d1 ...:             (sizes from the operands' shapes)
      in_k  = load input_k [map_k(d)]           (scalar inputs: the value)
      out_j = load output_j[map_j(d)]
      yield = body(in..., out...)               (`linalg.index i` is d_i)
      store yield_j -> output_j[map_j(d)]

Loops run in order (sequential semantics also make reductions correct).
Only buffer (memref) semantics: linalg on tensors is reported unsupported,
naming the op.  Ops whose maps are not given explicitly get them here:
identity maps for the element-wise named ops and `copy`, the scalar-to-all
map for `fill`.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import builtin as b
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineMap,
    AffineSymExpr,
)

from . import bounds
from . import memref_desc as md
from .context import LoweringContext, prop
from .registry import Registry
from .scf import emit_loop

registry = Registry()
lowering = registry.lowering

# Named ops lowered through their body with identity maps on every shaped operand.
ELEMENTWISE = ("linalg.add", "linalg.sub", "linalg.mul", "linalg.max", "linalg.min",
               "linalg.exp", "linalg.log", "linalg.sqrt", "linalg.select", "linalg.copy")
CONVOLUTIONS = ("linalg.conv_1d", "linalg.conv_2d", "linalg.conv_3d")
# Maps from the op (ir/dialects/linalg_conv.py, linalg_named.py): MLIR 22's OpDSL maps,
# and those transpose / broadcast / reduce / map imply.
CONTRACTIONS = ("linalg.matvec", "linalg.vecmat", "linalg.dot", "linalg.batch_matmul",
                "linalg.batch_matvec", "linalg.mmt4d", "linalg.batch_mmt4d")
FIXED_MAPS = (*CONVOLUTIONS, *CONTRACTIONS, "linalg.transpose", "linalg.broadcast",
              "linalg.reduce", "linalg.map")
STRUCTURED = ("linalg.generic", "linalg.fill", "linalg.matmul", *ELEMENTWISE, *FIXED_MAPS)

_IVS = "linalg.ivs"  # ctx.state key: induction variables of the loop nests being emitted


def _maps(ctx: LoweringContext, op, operands) -> list[AffineMap]:
    given = prop(op, "indexing_maps")
    if given is not None:
        return [m.data for m in given.data]
    if op.name in FIXED_MAPS:  # maps fixed by the op (ir/dialects/linalg_conv.py, _named.py)
        return list(op.get_default_indexing_maps())
    shaped = [v for v in operands if isinstance(v.type, b.MemRefType)]
    if not shaped:
        raise ctx.unsupported(op, f"'{op.name}' without a memref operand")
    rank = len(shaped[0].type.get_shape())
    identity = AffineMap.identity(rank)
    return [identity if isinstance(v.type, b.MemRefType) else AffineMap(rank, 0, ())
            for v in operands]


def affine_value(ctx: LoweringContext, op, expr, dims, syms=()) -> ir.Value:
    """An affine expression over index values (dims, then symbols), as lower-affine
    expands it (mod into [0, c), floordiv and ceildiv rounding toward -inf / +inf)."""
    return _affine(ctx, op, expr, list(dims), list(syms))


def _affine(ctx: LoweringContext, op, expr, dims: list[ir.Value],
            syms: list[ir.Value] = ()) -> ir.Value:
    bld = ctx.builder
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return syms[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return ctx.index_const(expr.value)
    if isinstance(expr, AffineBinaryOpExpr):
        a = _affine(ctx, op, expr.lhs, dims, syms)
        c = _affine(ctx, op, expr.rhs, dims, syms)
        kind = expr.kind
        if kind is AffineBinaryOpKind.Add:
            return bld.add(a, c)
        if kind is AffineBinaryOpKind.Mul:
            return bld.mul(a, c)
        if kind is AffineBinaryOpKind.Mod:  # affine mod: result in [0, c)
            r = bld.srem(a, c)
            neg = bld.icmp_signed("<", r, ctx.index_const(0))
            return bld.select(neg, bld.add(r, c), r)
        if kind is AffineBinaryOpKind.FloorDiv:
            q = bld.sdiv(a, c)
            fix = bld.and_(bld.icmp_signed("!=", bld.srem(a, c), ctx.index_const(0)),
                           bld.icmp_signed("<", bld.xor(a, c), ctx.index_const(0)))
            return bld.sub(q, bld.zext(fix, q.type))
        if kind is AffineBinaryOpKind.CeilDiv:
            q = bld.sdiv(a, c)
            fix = bld.and_(bld.icmp_signed("!=", bld.srem(a, c), ctx.index_const(0)),
                           bld.icmp_signed(">=", bld.xor(a, c), ctx.index_const(0)))
            return bld.add(q, bld.zext(fix, q.type))
    raise ctx.unsupported(op, f"affine expression {expr} in an indexing map")


def _domain(ctx: LoweringContext, op, operands, maps: list[AffineMap]) -> list[ir.Value]:
    """Size of each loop: the extent of an operand dimension indexed by that loop alone."""
    n = maps[0].num_dims if maps else 0
    sizes: list[ir.Value | None] = [None] * n
    for v, m in zip(operands, maps, strict=True):
        if not isinstance(v.type, b.MemRefType):
            continue
        d = md.Descriptor(ctx.builder, ctx.get(v), v.type)
        for i, expr in enumerate(m.results):
            if isinstance(expr, AffineDimExpr) and sizes[expr.position] is None:
                sizes[expr.position] = d.size(i)
    if any(s is None for s in sizes):
        missing = [i for i, s in enumerate(sizes) if s is None]
        raise ctx.unsupported(op, f"'{op.name}': no operand dimension gives the size of "
                                  f"loop(s) {missing}")
    return sizes


def _lower_structured(ctx: LoweringContext, op) -> None:
    operands = list(op.operands)
    if op.results or any(isinstance(v.type, b.TensorType) for v in operands):
        raise ctx.unsupported(op, f"'{op.name}' on tensors (the runner lowers linalg on "
                                  f"memrefs only)")
    n_in = len(op.inputs)
    maps = _maps(ctx, op, operands)
    if len(maps) != len(operands):
        raise ctx.unsupported(op, f"'{op.name}' with {len(maps)} indexing maps for "
                                  f"{len(operands)} operands")
    if not op.regions or not op.regions[0].blocks:
        raise ctx.unsupported(op, f"'{op.name}' without a body")
    body = op.regions[0].blocks.first
    sizes = _domain(ctx, op, operands, maps)
    bld = ctx.builder
    zero, one = ctx.index_const(0), ctx.index_const(1)
    ivs: list[ir.Value] = []
    stack = ctx.state.setdefault(_IVS, [])
    stack.append(ivs)

    def element(v, m, dims):
        d = md.Descriptor(bld, ctx.get(v), v.type)
        idx = [_affine(ctx, op, e, dims) for e in m.results]
        if bounds.enabled(ctx):
            bounds.check_access(ctx, op, d, idx)
        return md.element_pointer(bld, ctx.types.element(v.type), d, idx)

    def innermost(dims: list[ir.Value]) -> None:
        for k, (v, m, arg) in enumerate(zip(operands, maps, body.args, strict=True)):
            if isinstance(v.type, b.MemRefType):
                ptr = element(v, m, dims)
                ctx.set(arg, bld.load(ptr, typ=ctx.types.element(v.type)))
            elif k < n_in:
                ctx.set(arg, ctx.get(v))
            else:
                raise ctx.unsupported(op, f"'{op.name}' with a scalar output")
        term = ctx.lower_ops(body)
        if term is None or term.name != "linalg.yield":
            raise ctx.unsupported(op, f"'{op.name}' body not ending in linalg.yield")
        outs = list(zip(operands[n_in:], maps[n_in:], strict=True))
        for value, (v, m) in zip(ctx.get_all(term.operands), outs, strict=True):
            bld.store(value, element(v, m, dims))

    def nest(d: int) -> None:
        if d == len(sizes):
            innermost(list(ivs))
            return

        def step(iv, carried):
            ivs.append(iv)
            nest(d + 1)
            ivs.pop()
            return []

        emit_loop(ctx, zero, sizes[d], one, [], step, name=f"linalg{d}")

    try:
        nest(0)
    finally:
        stack.pop()


for _name in STRUCTURED:
    lowering(_name)(_lower_structured)


@lowering("linalg.index")
def _index(ctx: LoweringContext, op) -> None:
    stack = ctx.state.get(_IVS) or []
    dim = int(prop(op, "dim").value.data)
    if not stack or dim >= len(stack[-1]):
        raise ctx.unsupported(op, f"linalg.index {dim} outside a linalg loop of that depth")
    ctx.set_results(op, [stack[-1][dim]])


_UNSUPPORTED = ("linalg.quantized_matmul", "linalg.pooling_nchw_max")


def _not_lowered(ctx: LoweringContext, op) -> None:
    raise ctx.unsupported(op, f"'{op.name}' is not lowered by the runner (supported: "
                              f"{', '.join(STRUCTURED)}); lower it with mlir-opt first, e.g. "
                              f"-convert-linalg-to-loops")


for _name in _UNSUPPORTED:
    lowering(_name)(_not_lowered)
