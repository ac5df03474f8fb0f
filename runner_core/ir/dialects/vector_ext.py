"""The `vector` dialect with MLIR's `vector.print` and `vector.from_elements`.

xDSL 0.75's `vector.print` takes exactly one operand and has no syntax.
MLIR's prints an optional value, an optional string literal and a trailing
punctuation (newline unless told otherwise).  `vector.from_elements` (build a
vector from scalars, row-major) is missing from xDSL.  The rest of xDSL's
vector dialect is reused as is.
"""

from __future__ import annotations

from xdsl.dialects import vector as _x
from xdsl.dialects.builtin import StringAttr, VectorType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_operand_def,
    opt_prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from runner_core.ir.dialects._syntax import print_attr_dict


class Punctuation(StrEnum):
    NO_PUNCTUATION = "no_punctuation"
    NEWLINE = "newline"
    COMMA = "comma"
    OPEN = "open"
    CLOSE = "close"


@irdl_attr_definition
class PunctuationAttr(EnumAttribute[Punctuation]):
    """`#vector.punctuation<comma>` (MLIR's generic form of the print property)."""

    name = "vector.punctuation"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string(self.data.value)
        printer.print_string(">")

    @classmethod
    def parse_parameter(cls, parser) -> Punctuation:
        parser.parse_punctuation("<")
        value = parser.parse_str_enum(Punctuation)
        parser.parse_punctuation(">")
        return value


@irdl_op_definition
class PrintOp(IRDLOperation):
    """`vector.print %v : vector<4xf32>`, `vector.print str "text"`,
    `vector.print punctuation <comma>`.

    Output goes to C stdout like upstream's runtime calls (`printF32`,
    `printOpen`, ..., `printString`).  `source` (optional) is a scalar or
    vector value; `stringLiteral` (optional) is printed verbatim; then
    `punctuation_kind` is emitted (`NEWLINE` when the property is absent).
    """

    name = "vector.print"
    source = opt_operand_def()
    punctuation = opt_prop_def(PunctuationAttr)
    stringLiteral = opt_prop_def(StringAttr)

    def __init__(self, source: SSAValue | Operation | None = None,
                 punctuation: Punctuation | None = None, string: str | None = None):
        props = {}
        if punctuation is not None:
            props["punctuation"] = PunctuationAttr(punctuation)
        if string is not None:
            props["stringLiteral"] = StringAttr(string)
        super().__init__(operands=[[source] if source is not None else []], properties=props)

    @property
    def punctuation_kind(self) -> Punctuation:
        return Punctuation.NEWLINE if self.punctuation is None else self.punctuation.data

    @classmethod
    def parse(cls, parser: Parser) -> PrintOp:
        source = None
        if (u := parser.parse_optional_unresolved_operand()) is not None:
            parser.parse_punctuation(":")
            source = parser.resolve_operand(u, parser.parse_type())
        string = None
        punct = None
        while True:
            if parser.parse_optional_keyword("str"):
                string = parser.parse_str_literal()
            elif parser.parse_optional_keyword("punctuation"):
                punct = PunctuationAttr.parse_parameter(parser)
            else:
                break
        attrs = parser.parse_optional_attr_dict()
        op = cls(source, punct, string)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.source is not None:
            printer.print_string(" ")
            printer.print_operand(self.source)
            printer.print_string(" : ")
            printer.print_attribute(self.source.type)
        if self.stringLiteral is not None:
            printer.print_string(" str ")
            printer.print_string_literal(self.stringLiteral.data)
        if self.punctuation is not None and self.punctuation.data != Punctuation.NEWLINE:
            printer.print_string(" punctuation ")
            self.punctuation.print_parameter(printer)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        if self.source is not None and self.stringLiteral is not None:
            raise VerifyException("vector.print: cannot print both a value and a string")


@irdl_op_definition
class FromElementsOp(IRDLOperation):
    """`%v = vector.from_elements %a, %b, %c, %d : vector<2x2xf32>` (row-major).

    A 0-D result (`vector<f32>`) takes one element.  The result type alone
    determines the operand types, so the custom form prints only it.
    """

    name = "vector.from_elements"
    elements = var_operand_def()
    dest = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(self, elements: list[SSAValue | Operation], result_type: VectorType):
        super().__init__(operands=[elements], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> FromElementsOp:
        names = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand) or []
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        t = parser.parse_type()
        if not isinstance(t, VectorType):
            parser.raise_error(f"invalid kind of type specified: expected builtin.vector, but "
                               f"found '{t}'", at, parser.pos)
        count = 1
        for d in t.get_shape():
            count *= d
        if count != len(names):
            parser.raise_error(f"number of operands and types do not match: got "
                               f"{len(names)} operands and {count} types", at, parser.pos)
        op = cls([parser.resolve_operand(n, t.element_type) for n in names], t)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.elements:
            printer.print_string(" ")
            printer.print_list(self.elements, printer.print_operand)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        t = self.dest.type
        if t.get_num_scalable_dims():
            raise VerifyException(f"'dest' must be fixed-length vector of any type values, "
                                  f"but got '{t}'")
        count = 1
        for d in t.get_shape():
            count *= d
        if count != len(self.elements) or any(e.type != t.element_type
                                              for e in self.elements):
            raise VerifyException("failed to verify that shaped type 'dest' matches "
                                  "'elements' element count and types")


_REPLACED = {_x.PrintOp: PrintOp}

Vector = Dialect("vector", [*(_REPLACED.get(op, op) for op in _x.Vector.operations),
                            FromElementsOp],
                 [*_x.Vector.attributes, PunctuationAttr])

__all__ = ["Vector", "FromElementsOp", "PrintOp", "Punctuation", "PunctuationAttr"]
