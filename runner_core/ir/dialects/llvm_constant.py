"""``llvm.mlir.constant`` printed as MLIR 22 prints it: the value with its own type
(``(4 : index) : i64``, ``(6 : i64) : i64``), only ``true``/``false`` bare.  xDSL's
printer drops the value's type whenever the result is ``i64``, which reads back as a
different attribute (``4 : index`` becomes ``4 : i64``) and differs from mlir-opt's text.
The op is xDSL's (fields, value parser), with this printer."""

from __future__ import annotations

from xdsl.dialects import llvm as _x
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect


@irdl_op_definition
class ConstantOp(IRDLOperation):
    name = "llvm.mlir.constant"
    result = result_def(Attribute)
    value = prop_def(IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr)

    traits = traits_def(NoMemoryEffect())

    def __init__(self, value: Attribute, value_type: Attribute):
        super().__init__(properties={"value": value}, result_types=[value_type])

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        parser.parse_characters("(")
        value = _x.ConstantOp.parse_value(parser)  # `true`, an attribute, or an i64
        parser.parse_characters(")")
        parser.parse_characters(":")
        return cls(value, parser.parse_type())

    def print(self, printer: Printer) -> None:
        with printer.in_parens():
            printer.print_attribute(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)
