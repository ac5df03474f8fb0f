"""linalg.conv_1d / conv_2d / conv_3d: MLIR's plain convolutions (no batch, no channels).

`linalg.conv_2d ins(%in, %filter : memref<?x?xf32>, memref<?x?xf32>) outs(%out : memref<?x?xf32>)`
computes out[i, j] += in[i + m, j + n] * filter[m, n] over the filter's extent
(MLIR's OpDSL definition: indexing maps (d0, d1, d2, d3) -> (d0 + d2, d1 + d3),
(d2, d3), (d0, d1); iterators parallel x N, reduction x N).  The body is the
one of matmul: multiply, then add the accumulator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, TensorType
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import irdl_op_definition


class DestinationStyleNamed(NamedOperation):
    """A named op built from inputs and outputs: results are the tensor outputs' types,
    the body is the op's own (`get_hidden_region`); shared by every named op we define."""

    def __init__(self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue] = (),
                 res: Sequence[Attribute] | None = None,
                 attributes: dict[str, Attribute] | None = None):
        if res is None:
            res = tuple(o.type for o in outputs if isinstance(o.type, TensorType))
        super().__init__(ins=inputs, outs=outputs, result_types=res, attributes=attributes,
                         hidden_region=self.get_hidden_region(inputs, outputs))


class _ConvND(DestinationStyleNamed):
    RANK: ClassVar[int] = 0

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]):
        return MatmulOp.get_hidden_region.__func__(cls, inputs, outputs)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n = self.RANK
        d = [AffineDimExpr(i) for i in range(2 * n)]
        return (AffineMap(2 * n, 0, tuple(d[i] + d[n + i] for i in range(n))),
                AffineMap(2 * n, 0, tuple(d[n:])),
                AffineMap(2 * n, 0, tuple(d[:n])))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * self.RANK
                         + [IteratorTypeAttr.reduction()] * self.RANK)


@irdl_op_definition
class Conv1DOp(_ConvND):
    name = "linalg.conv_1d"
    RANK: ClassVar[int] = 1


@irdl_op_definition
class Conv2DOp(_ConvND):
    name = "linalg.conv_2d"
    RANK: ClassVar[int] = 2


@irdl_op_definition
class Conv3DOp(_ConvND):
    name = "linalg.conv_3d"
    RANK: ClassVar[int] = 3


CONV_OPS = [Conv1DOp, Conv2DOp, Conv3DOp]
