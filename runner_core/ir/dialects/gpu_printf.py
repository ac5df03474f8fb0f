"""`gpu.printf`: C printf from each device thread."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryWriteEffect

from runner_core.ir.dialects._syntax import print_attr_dict, resolve_operands


@irdl_op_definition
class PrintfOp(IRDLOperation):
    """`gpu.printf "fmt %d\\n", %a, %b : i32, f32`: C printf from each thread (to stdout)."""

    name = "gpu.printf"
    format = prop_def(StringAttr)
    args = var_operand_def(Attribute)
    traits = traits_def(MemoryWriteEffect())

    @classmethod
    def parse(cls, parser: Parser) -> PrintfOp:
        fmt = parser.parse_str_literal()
        args: list[SSAValue] = []
        if parser.parse_optional_punctuation(","):
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                      parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            if len(types) != len(names):
                parser.raise_error(f"{len(names)} arguments but {len(types)} types")
            args = resolve_operands(parser, names, types)
        attrs = parser.parse_optional_attr_dict()
        return cls.build(operands=[args], properties={"format": StringAttr(fmt)},
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.format.data)
        if self.args:
            printer.print_string(", ")
            printer.print_list(self.args, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([a.type for a in self.args], printer.print_attribute)
        print_attr_dict(printer, self.attributes)
