"""memref view ops whose MLIR 22 rules xDSL 0.75 lacks or narrows.

* `memref.reinterpret_cast` accepts an unranked source (`memref<*xf32>`), as
  in MLIR; xDSL requires a ranked one.
* `memref.reshape %src(%shape) : (memref<2x3xf32>, memref<2xindex>) -> memref<?x?xf32>`:
  the shape operand (a rank-1 memref of index or signless integers) gives the
  result's sizes; a static-length shape gives a ranked result, a dynamic one an
  unranked result.  The source must have the identity layout (MLIR's rule).
"""

from __future__ import annotations

from xdsl.dialects import memref as _x
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneAttr,
    UnrankedMemRefType,
    i64,
)
from xdsl.dialects.utils import DynamicIndexList
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import print_attr_dict
from runner_core.ir.subview_layout import check_subview
from runner_core.ir.verify_errors import UnprefixedVerifyException

AnyMemRef = base(MemRefType) | base(UnrankedMemRefType)


@irdl_op_definition
class ReinterpretCastOp(IRDLOperation):
    """xDSL's op (same fields and syntax) with MLIR's source rule: ranked or unranked."""

    name = "memref.reinterpret_cast"
    source = operand_def(AnyMemRef)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = _x.ReinterpretCastOp.assembly_format
    custom_directives = (DynamicIndexList,)

    def verify_(self) -> None:
        st = self.source.type
        rt = self.result.type
        if st.element_type != rt.element_type:
            raise VerifyException(f"different element types specified ({st.element_type} "
                                  f"and {rt.element_type})")
        _x.ReinterpretCastOp.verify_(_RankedView(self))


class _RankedView:
    """What xDSL's verifier reads of the op, with a ranked stand-in for an unranked
    source (its checks compare only the result with the static lists)."""

    def __init__(self, op: ReinterpretCastOp):
        self._op = op
        self.source = _TypeHolder(op.result.type)

    def __getattr__(self, name):
        return getattr(self._op, name)


class _TypeHolder:
    def __init__(self, t):
        self.type = t


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    name = "memref.reshape"

    source = operand_def(AnyMemRef)
    shape = operand_def(MemRefType)
    result = result_def(AnyMemRef)
    traits = traits_def(NoMemoryEffect())

    def __init__(self, source, shape, result_type, attributes=None):
        super().__init__(operands=[source, shape], result_types=[result_type],
                         attributes=attributes or {})

    @classmethod
    def parse(cls, parser: Parser) -> ReshapeOp:
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation("(")
        shape = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        ft = parser.parse_type()
        if not isinstance(ft, FunctionType) or len(ft.inputs) != 2 or len(ft.outputs) != 1:
            parser.raise_error("expected (source type, shape type) -> result type", at,
                               parser.pos)
        ins = ft.inputs.data
        return cls(parser.resolve_operand(src, ins[0]), parser.resolve_operand(shape, ins[1]),
                   ft.outputs.data[0], attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("(")
        printer.print_operand(self.shape)
        printer.print_string(")")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.source.type)
        printer.print_string(", ")
        printer.print_attribute(self.shape.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        st, sh, rt = self.source.type, self.shape.type, self.result.type
        if st.element_type != rt.element_type:
            raise VerifyException("element types of source and destination memref types "
                                  "should be the same")
        if isinstance(st, MemRefType) and not (isinstance(st.layout, NoneAttr)
                                               or _identity(st)):
            raise VerifyException("source memref type should have identity affine map")
        shape = sh.get_shape()
        if len(shape) != 1 or not isinstance(sh.element_type, IndexType | IntegerType):
            raise VerifyException("shape must be a rank-1 memref of index or integer")
        if isinstance(rt, MemRefType):
            if not (isinstance(rt.layout, NoneAttr) or _identity(rt)):
                raise VerifyException("result memref type should have identity affine map")
            if shape[0] < 0:
                raise VerifyException("cannot use shape operand with dynamic length to reshape "
                                      "to statically-ranked memref type")
            if shape[0] != len(rt.get_shape()):
                raise VerifyException("length of shape operand differs from the result's "
                                      "memref rank")


def _identity(t: MemRefType) -> bool:
    """Row-major strides from the shape and offset 0 (static), as MLIR's identity map."""
    try:
        strides, offset = t.get_strides(), t.get_offset()
    except Exception:
        return False
    if strides is None or offset != 0:
        return False
    expect = 1
    for d, s in zip(reversed(t.get_shape()), reversed(strides), strict=True):
        if d != 1 and s != expect:
            return False
        if d < 0:
            return False
        expect *= d
    return True


class SubviewOp(_x.SubviewOp):
    """xDSL's subview with mlir-opt 22's check of the result layout against the one
    the offsets and strides give (`runner_core.ir.subview_layout`), in the op so that
    the embedded mlir-opt and the runners refuse it alike."""

    def verify_(self) -> None:
        super().verify_()
        message = check_subview(self, _text)
        if message is not None:
            raise UnprefixedVerifyException(message)


def _text(t) -> str:
    from runner_core.ir.printing import print_attribute_text

    return print_attribute_text(t)
