"""The run-time checks LLVM 22 generates for linalg structured ops and tensor ops.

For a linalg op (``generic`` and the named ops), MLIR 22 takes the loop
ranges as the linalg-to-loops lowering does (each loop's size from the first
operand dimension indexed by that loop alone), and, when every loop runs at
least once, checks for each operand and dimension that the indexing map
applied to the first and last iteration stays within the operand:

    assert(min(start, end) >= 0)      "unexpected negative result on dimension #i of
                                       input/output operand #k"
    assert(max(start, end) + 1 == dim) "dimension #i of input/output operand #k is
                                       incompatible with inferred dimension size"

(``<=`` instead of ``==`` where the map's result is not a bare loop index).  The
ops generated are upstream's (`index.*`, `affine.apply`, `scf.if`, `tensor.dim`
or `memref.dim`), so the passes the pipeline needs afterwards are the same.
The op in the message is printed as mlir-opt prints it there: its region
elided (``{...}``) and its maps spelled out.
"""

from __future__ import annotations

from xdsl.dialects import builtin as b
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineConstantExpr,
    AffineDimExpr,
    AffineMap,
)

from runner_core.ir.affine_text import affine_map_text

_INDEX = b.IndexType()
# Ops of the tensor dialect with no run-time checks in LLVM 22.
UNCHECKED_TENSOR_OPS = frozenset({"tensor.empty", "tensor.splat", "tensor.from_elements",
                                  "tensor.rank", "tensor.yield", "tensor.generate"})
CHECKED_TENSOR_OPS = frozenset({"tensor.dim", "tensor.cast", "tensor.extract",
                                "tensor.insert", "tensor.extract_slice"})
_NOT_STRUCTURED = frozenset({"linalg.yield", "linalg.index"})


def is_structured(op: Operation) -> bool:
    return op.name.startswith("linalg.") and op.name not in _NOT_STRUCTURED


# ------------------------------------------------------------------ printing
def op_text(op: Operation, names, blocks) -> str:
    """The op as it appears in LLVM 22's message (region elided for linalg.generic)."""
    from runner_core.ir.printing import print_op_with_names

    if op.name != "linalg.generic":
        return print_op_with_names(op, names, blocks).rstrip("\n")

    def vals(vs):
        return ", ".join("%" + names[v] for v in vs)

    def types(vs):
        from runner_core.ir.printing import print_attribute_text

        return ", ".join(print_attribute_text(v.type) for v in vs)

    maps = ", ".join(affine_map_text(m.data) for m in op.indexing_maps.data)
    iters = ", ".join(f'"{_iterator(t)}"' for t in op.iterator_types.data)
    res = f"%{names[op.results[0]]} = " if op.results else ""
    text = (f"{res}linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}}"
            f" ins({vals(op.inputs)} : {types(op.inputs)})" if op.inputs else
            f"{res}linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}}")
    text += f" outs({vals(op.outputs)} : {types(op.outputs)}) {{...}}"
    if op.results:
        text += " -> " + types(op.results)
    return text


def _iterator(t) -> str:
    data = getattr(t, "data", t)
    return str(getattr(data, "value", data))


# ------------------------------------------------------------------ checks
def indexing_maps(op: Operation) -> list[AffineMap] | None:
    given = op.properties.get("indexing_maps") or op.attributes.get("indexing_maps")
    if given is not None:
        return [m.data for m in given.data]
    if hasattr(op, "get_default_indexing_maps"):
        try:
            return list(op.get_default_indexing_maps())
        except Exception:  # noqa: BLE001 - xDSL gives none for this op
            pass
    shaped = [v for v in op.operands if isinstance(v.type, b.ShapedType)]
    if op.name in ("linalg.fill", "linalg.copy") or op.name.split(".")[1] in (
            "add", "sub", "mul", "max", "min", "exp", "log", "sqrt", "select", "div"):
        rank = len(shaped[-1].type.get_shape())
        return [AffineMap.identity(rank) if isinstance(v.type, b.ShapedType)
                else AffineMap(rank, 0, ()) for v in op.operands]
    return None


def check_structured(bld, op: Operation, message, maps: list[AffineMap]) -> None:
    operands = list(op.operands)
    n_loops = maps[0].num_dims
    # Every operand dimension, as createFlatListOfOperandDims makes them.
    flat: list[tuple[AffineMap, int, SSAValue]] = []
    for v, m in zip(operands, maps, strict=True):
        for i in range(len(v.type.get_shape()) if isinstance(v.type, b.ShapedType) else 0):
            flat.append((m, i, _dim(bld, v, i)))
    ends: list[SSAValue | None] = [None] * n_loops
    for m, i, size in flat:
        r = m.results[i]
        if isinstance(r, AffineDimExpr) and ends[r.position] is None:
            ends[r.position] = size
    if any(e is None for e in ends):
        raise ValueError("a loop whose size no operand dimension gives")
    zero, one = bld.index(0), bld.index(1)
    guard = None
    for e in ends:
        c = _cmp(bld, "slt", bld.index(0), e)
        guard = c if guard is None else bld.op("arith.andi", [guard, c], [b.i1]).results[0]
    if guard is None:
        guard = bld.op("arith.constant", [], [b.i1], {"value": b.IntegerAttr(1, b.i1)}).results[0]
    block = Block()
    bld.op("scf.if", [guard], [], regions=[Region(block), Region()])
    inner = bld.inside(block)
    lasts = [inner.op("index.sub", [e, one], [_INDEX]).results[0] for e in ends]
    for k, (v, m) in enumerate(zip(operands, maps, strict=True)):
        if not isinstance(v.type, b.ShapedType):
            continue
        for i, r in enumerate(m.results):
            start = _apply(inner, r, [zero] * n_loops, constant_dims=True)
            end = _apply(inner, r, lasts)
            low = inner.op("index.mins", [end, start], [_INDEX]).results[0]
            inner.assert_(_cmp(inner, "sge", low, zero), message(
                f"unexpected negative result on dimension #{i} of input/output operand #{k}"))
            high = inner.op("index.maxs", [end, start], [_INDEX]).results[0]
            inferred = inner.op("index.add", [high, one], [_INDEX]).results[0]
            actual = _dim(inner, v, i)
            pred = "eq" if isinstance(r, AffineDimExpr) else "sle"
            inner.assert_(_cmp(inner, pred, inferred, actual), message(
                f"dimension #{i} of input/output operand #{k} is incompatible with inferred "
                f"dimension size"))
    block.add_op(bld.ctx.get_op("scf.yield").create())


def _dim(bld, v: SSAValue, i: int) -> SSAValue:
    d = v.type.get_shape()[i]
    if d >= 0:
        return bld.index(d)
    name = "tensor.dim" if isinstance(v.type, b.TensorType) else "memref.dim"
    return bld.op(name, [v, bld.index(i)], [_INDEX]).results[0]


def _cmp(bld, pred: str, x, y) -> SSAValue:
    from runner_core.ir.dialects.index_dialect import CmpPredicate, CmpPredicateAttr

    return bld.op("index.cmp", [x, y], [b.i1],
                  {"pred": CmpPredicateAttr(CmpPredicate(pred))}).results[0]


def _apply(bld, expr, dims: list[SSAValue], constant_dims: bool = False) -> SSAValue:
    """`expr` of the loop indices `dims` (all zero when `constant_dims`)."""
    if isinstance(expr, AffineConstantExpr):
        return bld.index(expr.value)
    if isinstance(expr, AffineDimExpr) and not constant_dims:
        return dims[expr.position]
    if constant_dims:
        return bld.index(AffineMap(len(dims), 0, (expr,)).eval([0] * len(dims), [])[0])
    m = AffineMap(len(dims), 0, (expr,))
    return bld.op("affine.apply", dims, [_INDEX], {"map": b.AffineMapAttr(m)}).results[0]


def _rank(bld, t: SSAValue) -> SSAValue:
    return bld.op("tensor.rank", [t], [_INDEX]).results[0]


def check_tensor_dim(bld, op: Operation, message) -> None:
    idx = op.operands[1]
    ok = bld.and_(bld.cmp("sge", idx, bld.index(0)), bld.cmp("slt", idx, _rank(bld, op.operands[0])))
    bld.assert_(ok, message("index is out of bounds"))


def check_tensor_cast(bld, op: Operation, message) -> None:
    src, rt = op.operands[0], op.results[0].type
    if not isinstance(rt, b.TensorType):
        return  # to an unranked tensor: nothing to check
    shape = rt.get_shape()
    if not isinstance(src.type, b.TensorType):
        bld.assert_(bld.cmp("eq", _rank(bld, src), bld.index(len(shape))),
                    message("rank mismatch"))
        known = [-1] * len(shape)
    else:
        known = list(src.type.get_shape())
    for i, (d, s) in enumerate(zip(shape, known, strict=True)):
        if d >= 0 and s < 0:
            dim = bld.op("tensor.dim", [src, bld.index(i)], [_INDEX]).results[0]
            bld.assert_(bld.cmp("eq", dim, bld.index(d)), message(f"size mismatch of dim {i}"))


def check_tensor_access(bld, op: Operation, message) -> None:
    t = op.operands[0] if op.name == "tensor.extract" else op.operands[1]
    indices = op.operands[1:] if op.name == "tensor.extract" else op.operands[2:]
    cond = None
    for i, idx in enumerate(indices):
        ok = bld.and_(bld.cmp("sge", idx, bld.index(0)), bld.cmp("slt", idx, _dim(bld, t, i)))
        cond = ok if cond is None else bld.and_(cond, ok)
    if cond is not None:
        bld.assert_(cond, message("out-of-bounds access"))


_KDYN = -(1 << 63)


def _mixed(bld, op: Operation, which: str) -> list[SSAValue]:
    """The op's offsets, sizes or strides as index values (constants for static ones)."""
    dynamic = iter(getattr(op, which))
    return [next(dynamic) if v == _KDYN else bld.index(v)
            for v in op.properties[f"static_{which}"].get_values()]


def _select_i1(bld, cond: SSAValue, then_fn, else_fn) -> SSAValue:
    """``scf.if %cond -> (i1)`` whose branches yield what ``then_fn``/``else_fn`` build."""
    blocks = (Block(), Block())
    if_op = bld.op("scf.if", [cond], [b.i1], regions=[Region(blocks[0]), Region(blocks[1])])
    for blk, fn in zip(blocks, (then_fn, else_fn), strict=True):
        v = fn(bld.inside(blk))
        blk.add_op(bld.ctx.get_op("scf.yield").create(operands=[v]))
    return if_op.results[0]


def check_tensor_extract_slice(bld, op: Operation, message) -> None:
    """LLVM 22's checks, dimension by dimension: the offset within the source (up to its
    size inclusive when the slice is empty there), then the last element read
    (offset + (size - 1) * stride), only where the size is positive."""
    src = op.operands[0]
    zero, one = bld.index(0), bld.index(1)
    offsets, sizes, strides = (_mixed(bld, op, k) for k in ("offsets", "sizes", "strides"))
    for i in range(len(src.type.get_shape())):
        off, size, stride = offsets[i], sizes[i], strides[i]
        dim = _dim(bld, src, i)

        def within(ib, v, upper_pred, upper=dim):
            return ib.and_(ib.cmp("sge", v, zero), ib.cmp(upper_pred, v, upper))

        ok = _select_i1(bld, bld.cmp("eq", size, zero),
                        lambda ib, off=off: within(ib, off, "sle"),
                        lambda ib, off=off: within(ib, off, "slt"))
        bld.assert_(ok, message(f"offset {i} is out-of-bounds"))

        def last_in_bounds(ib, off=off, size=size, stride=stride, within=within):
            below = ib.op("arith.subi", [size, one], [_INDEX]).results[0]
            span = ib.op("arith.muli", [below, stride], [_INDEX]).results[0]
            return within(ib, ib.op("arith.addi", [off, span], [_INDEX]).results[0], "slt")

        ok = _select_i1(bld, bld.cmp("sgt", size, zero), last_in_bounds,
                        lambda ib: ib.op("arith.constant", [], [b.i1],
                                         {"value": b.IntegerAttr(1, b.i1)}).results[0])
        bld.assert_(ok, message(f"extract_slice runs out-of-bounds along dimension {i}"))
