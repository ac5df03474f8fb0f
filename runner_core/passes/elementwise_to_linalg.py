"""``convert-elementwise-to-linalg``: element-wise ops on ranked tensors as linalg.generic.

What MLIR 22 does, so that later passes (bufferization, linalg-to-loops) see the
same program: an op of `arith` or `math` (the ops MLIR marks
ElementwiseMappable) whose operands and results are all ranked tensors becomes
a ``linalg.generic`` with identity maps, all-parallel iterators, and a body
holding the same op on the elements.  Its ``outs`` operand is, per result, the
first operand of the same type, else a ``tensor.empty`` sized by
``tensor.dim`` of the first operand.

The conversion driver folds an op before converting it: an op of dense
constants becomes a constant (``arith.addf`` of two ``dense<...>``), the
originals staying in place (dialect conversion does not remove dead ops).  The
folds done here are the exact ones (IEEE arithmetic in the element type,
integer wrap-around); an op whose fold is not modelled is converted instead,
which computes the same values.
"""

from __future__ import annotations

import numpy as np
from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Block, Operation, Region
from xdsl.ir.affine import AffineMap

_NOT_ELEMENTWISE = frozenset({"arith.constant"})
_FLOAT_NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
_FLOAT_FOLDS = {"arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply,
                "arith.divf": np.divide}
_INT_FOLDS = {"arith.addi": lambda x, y: x + y, "arith.subi": lambda x, y: x - y,
              "arith.muli": lambda x, y: x * y, "arith.andi": lambda x, y: x & y,
              "arith.ori": lambda x, y: x | y, "arith.xori": lambda x, y: x ^ y}


def _ranked_tensor(t) -> bool:
    return isinstance(t, b.TensorType)


def _mappable(op: Operation) -> bool:
    dialect = op.name.split(".")[0]
    if dialect not in ("arith", "math") or op.name in _NOT_ELEMENTWISE or op.regions:
        return False
    values = (*op.operands, *op.results)
    return bool(values) and bool(op.results) and all(_ranked_tensor(v.type) for v in values)


def _dense_operand(v):
    owner = v.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        value = owner.properties.get("value")
        if isinstance(value, b.DenseIntOrFPElementsAttr):
            return value
    return None


def _fold(op: Operation):
    """The dense attribute `op` folds to, or None where its fold is not modelled."""
    attrs = [_dense_operand(v) for v in op.operands]
    if len(attrs) != 2 or any(a is None for a in attrs) or len(op.results) != 1:
        return None
    rtype = op.results[0].type
    el = rtype.element_type
    if op.name in _FLOAT_FOLDS and isinstance(el, b.AnyFloat) and el.name in _FLOAT_NP:
        dt = _FLOAT_NP[el.name]
        x, y = (np.array([float(v) for v in a.get_values()], dtype=dt) for a in attrs)
        with np.errstate(all="ignore"):
            out = _FLOAT_FOLDS[op.name](x, y).astype(dt)
        return b.DenseIntOrFPElementsAttr.from_list(rtype, [float(v) for v in out])
    if op.name in _INT_FOLDS and isinstance(el, b.IntegerType):
        width = el.width.data
        mask = (1 << width) - 1
        x, y = ([int(v) & mask for v in a.get_values()] for a in attrs)
        vals = [(_INT_FOLDS[op.name](p, q)) & mask for p, q in zip(x, y, strict=True)]
        signed = [v - (1 << width) if v >> (width - 1) and width > 1 else v for v in vals]
        return b.DenseIntOrFPElementsAttr.from_list(rtype, signed)
    return None


class ConvertElementwiseToLinalgPass:
    name = "convert-elementwise-to-linalg"

    def run(self, root: Operation, ctx: Context) -> None:
        for op in [o for o in root.walk() if _mappable(o)]:
            folded = _fold(op)
            if folded is not None:
                const = ctx.get_op("arith.constant").create(
                    properties={"value": folded}, result_types=[op.results[0].type])
                const.location = op.location
                op.parent_block().insert_op_before(const, op)
                op.results[0].replace_all_uses_with(const.results[0])
                op.detach()
                op.erase()
                continue
            self._convert(op, ctx)

    @staticmethod
    def _convert(op: Operation, ctx: Context) -> None:
        from xdsl.dialects.linalg.ops import GenericOp, YieldOp

        def before(new: Operation) -> Operation:
            new.location = op.location
            op.parent_block().insert_op_before(new, op)
            return new

        outs = []
        for r in op.results:
            same = next((v for v in op.operands if v.type == r.type), None)
            if same is None:
                first = op.operands[0]
                sizes = []
                for i, d in enumerate(r.type.get_shape()):
                    if d < 0:
                        idx = before(ctx.get_op("arith.constant").create(
                            properties={"value": b.IntegerAttr(i, b.IndexType())},
                            result_types=[b.IndexType()])).results[0]
                        sizes.append(before(ctx.get_op("tensor.dim").create(
                            operands=[first, idx], result_types=[b.IndexType()])).results[0])
                same = before(ctx.get_op("tensor.empty").create(
                    operands=sizes, result_types=[r.type])).results[0]
            outs.append(same)
        rank = len(op.results[0].type.get_shape())
        identity = b.AffineMapAttr(AffineMap.identity(rank))
        arg_types = [v.type.element_type for v in (*op.operands, *outs)]
        block = Block(arg_types=arg_types)
        scalar = type(op).create(
            operands=list(block.args[:len(op.operands)]),
            result_types=[r.type.element_type for r in op.results],
            properties=dict(op.properties), attributes=dict(op.attributes))
        scalar.location = op.location
        block.add_op(scalar)
        block.add_op(YieldOp(*scalar.results))
        generic = before(GenericOp(
            list(op.operands), outs, Region(block),
            [identity] * (len(op.operands) + len(outs)),
            _parallel(rank),
            [r.type for r in op.results]))
        for old, new in zip(op.results, generic.results, strict=True):
            old.replace_all_uses_with(new)
        op.detach()
        op.erase()


def _parallel(rank: int):
    from xdsl.dialects.linalg.attrs import IteratorTypeAttr

    return [IteratorTypeAttr.parallel()] * rank


REGISTRATION = {"name": "convert-elementwise-to-linalg",
                "factory": ConvertElementwiseToLinalgPass,
                "summary": "element-wise arith/math ops on ranked tensors as linalg.generic "
                           "(constant operands folded, as MLIR 22's conversion driver does)"}
