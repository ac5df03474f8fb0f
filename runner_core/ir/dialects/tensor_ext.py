"""The tensor dialect as xDSL defines it, plus `tensor.rank`.

MLIR 22's run-time checks of `tensor.dim` and of a cast from an unranked
tensor read the rank (``%rank = tensor.rank %t : tensor<*xf32>``), which
one-shot-bufferize turns into `memref.rank`; xDSL has no such op.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, TensorType, UnrankedTensorType
from xdsl.dialects.tensor import PadOp as _XPadOp
from xdsl.dialects.tensor import Tensor as _XTensor
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from ._syntax import print_attr_dict


@irdl_op_definition
class RankOp(IRDLOperation):
    """`%r = tensor.rank %t : tensor<...>`."""

    name = "tensor.rank"
    tensor = operand_def(TensorType | UnrankedTensorType)
    rank = result_def(IndexType)
    traits = traits_def(Pure())

    def __init__(self, tensor: SSAValue):
        super().__init__(operands=[tensor], result_types=[IndexType()])

    @classmethod
    def parse(cls, parser: Parser) -> RankOp:
        name = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.resolve_operand(name, parser.parse_type()))
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensor)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor.type)


@irdl_op_definition
class GenerateOp(IRDLOperation):
    """`%t = tensor.generate %d... { ^bb0(%i: index, ...): ... tensor.yield %v } : tensor<..>`:
    one dynamic size per `?`; one-shot-bufferize fills a buffer with the body's values."""

    name = "tensor.generate"
    dynamic_extents = var_operand_def(IndexType)
    result = result_def(TensorType)
    body = region_def("single_block")

    @classmethod
    def parse(cls, parser: Parser) -> GenerateOp:
        sizes = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand) or []
        region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls.create(operands=[parser.resolve_operand(s, IndexType()) for s in sizes],
                        result_types=[t], regions=[region])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.dynamic_extents:
            printer.print_string(" ")
            printer.print_list(self.dynamic_extents, printer.print_operand)
        printer.print_string(" ")
        printer.print_region(self.body)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


class PadOp(_XPadOp):
    """xDSL's `tensor.pad` with MLIR 22's result check: a dimension MLIR infers static (its
    source size and both pad amounts static) must have that size; one it infers dynamic may
    be written static (`low[%c0]` with a static result is valid upstream IR)."""

    def verify_(self):
        from xdsl.utils.exceptions import VerifyException

        self.get_irdl_definition().verify(self)  # operand/result/region constraints
        low = list(self.static_low.get_values())
        high = list(self.static_high.get_values())
        src = self.source.type.get_shape()
        if not (len(low) == len(high) == len(src)):
            raise VerifyException("expected one low and one high pad amount per source dimension")
        out = self.result.type.get_shape()
        for i, (n, lo, hi) in enumerate(zip(src, low, high, strict=True)):
            if n >= 0 and lo >= 0 and hi >= 0 and out[i] != n + lo + hi:
                raise VerifyException(f"expected result dimension {i} to be {n + lo + hi}")
        if len(self.region.block.args) != len(low):
            raise VerifyException("expected one region argument per source dimension")


Tensor = Dialect("tensor", [*(o for o in _XTensor.operations if o is not _XPadOp), RankOp,
                            GenerateOp, PadOp], list(_XTensor.attributes))

__all__ = ["Tensor", "RankOp", "GenerateOp", "PadOp"]
