"""MLIR's `index` dialect (xDSL 0.75 has none).

All arithmetic is on `index` values, whose width is the target's pointer
width (64 bits on every target the runner has).  Division and remainder
follow MLIR: `divs`/`rems` truncate towards zero, `ceildiv*`/`floordivs`
round as named; `shl`/`shrs`/`shru` with a shift >= width give poison.
"""

from __future__ import annotations

from enum import auto
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, IndexType, IntegerAttr, IntegerType, i1
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Dialect, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from runner_core.ir.dialects._syntax import (
    parse_attrs_and_types,
    print_attr_dict,
    print_attrs_and_types,
    print_enclosed_operands,
    print_operands,
)

INDEX = IndexType()


class CmpPredicate(StrEnum):
    EQ = auto()
    NE = auto()
    SLT = auto()
    SLE = auto()
    SGT = auto()
    SGE = auto()
    ULT = auto()
    ULE = auto()
    UGT = auto()
    UGE = auto()


@irdl_attr_definition
class CmpPredicateAttr(EnumAttribute[CmpPredicate], SpacedOpaqueSyntaxAttribute):
    """`#index<cmp_predicate slt>`."""

    name = "index.cmp_predicate"


class _BinaryOp(IRDLOperation):
    """`%r = index.<op> %lhs, %rhs` on index values."""

    lhs = operand_def(IndexType)
    rhs = operand_def(IndexType)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        super().__init__(operands=[lhs, rhs], result_types=[INDEX])

    @classmethod
    def parse(cls, parser: Parser):
        a, b = _parse_index_pair(parser)
        attrs = parser.parse_optional_attr_dict()
        op = cls(a, b)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.lhs, self.rhs])
        print_attr_dict(printer, self.attributes)


def _parse_index_pair(parser: Parser) -> tuple[SSAValue, SSAValue]:
    """`%a, %b`, both index."""
    a = parser.resolve_operand(parser.parse_unresolved_operand(), INDEX)
    parser.parse_punctuation(",")
    return a, parser.resolve_operand(parser.parse_unresolved_operand(), INDEX)


def _binary(opname: str, doc: str) -> type[_BinaryOp]:
    cls = type(opname.title().replace("div", "Div").replace("rem", "Rem") + "Op", (_BinaryOp,),
               {"name": f"index.{opname}", "__doc__": doc, "__module__": __name__})
    return irdl_op_definition(cls)


_BINARY_DOCS = {
    "add": "lhs + rhs (wrapping)", "sub": "lhs - rhs (wrapping)", "mul": "lhs * rhs (wrapping)",
    "divs": "signed division, truncating", "divu": "unsigned division",
    "ceildivs": "signed division rounding up", "ceildivu": "unsigned division rounding up",
    "floordivs": "signed division rounding down", "rems": "signed remainder (sign of lhs)",
    "remu": "unsigned remainder", "maxs": "signed max", "maxu": "unsigned max",
    "mins": "signed min", "minu": "unsigned min", "shl": "shift left",
    "shrs": "arithmetic shift right", "shru": "logical shift right",
    "and": "bitwise and", "or": "bitwise or", "xor": "bitwise xor",
}
BINARY_OPS: dict[str, type[_BinaryOp]] = {n: _binary(n, d) for n, d in _BINARY_DOCS.items()}
globals().update({cls.__name__: cls for cls in BINARY_OPS.values()})


class _LiteralConstantOp(IRDLOperation):
    """`%c = index.<op> LITERAL attr-dict`: a constant written as a bare literal.

    Subclasses say how the literal is read (`_parse_literal`) and written
    (`_literal`); their constructor takes the literal's Python value.
    """

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):
        v = cls._parse_literal(parser)
        attrs = parser.parse_optional_attr_dict()
        op = cls(v)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self._literal()}")
        print_attr_dict(printer, self.attributes)


@irdl_op_definition
class ConstantOp(_LiteralConstantOp):
    """`%c = index.constant 42`; `value` is an IntegerAttr of type index."""

    name = "index.constant"
    value = prop_def(IntegerAttr)
    result = result_def(IndexType)

    def __init__(self, value: int):
        super().__init__(properties={"value": IntegerAttr(value, INDEX)}, result_types=[INDEX])

    @staticmethod
    def _parse_literal(parser: Parser) -> int:
        return parser.parse_integer(allow_boolean=False)

    def _literal(self) -> str:
        return str(self.value.value.data)


@irdl_op_definition
class BoolConstantOp(_LiteralConstantOp):
    """`%t = index.bool.constant true` (an i1)."""

    name = "index.bool.constant"
    value = prop_def(BoolAttr)
    result = result_def(i1)

    def __init__(self, value: bool):
        super().__init__(properties={"value": IntegerAttr(int(value), i1)}, result_types=[i1])

    @staticmethod
    def _parse_literal(parser: Parser) -> bool:
        return parser.parse_boolean()

    def _literal(self) -> str:
        return "true" if self.value.value.data else "false"


@irdl_op_definition
class CmpOp(IRDLOperation):
    """`%b = index.cmp slt(%lhs, %rhs)`; `pred` holds the predicate."""

    name = "index.cmp"
    pred = prop_def(CmpPredicateAttr)
    lhs = operand_def(IndexType)
    rhs = operand_def(IndexType)
    result = result_def(i1)
    traits = traits_def(Pure())

    def __init__(self, pred: CmpPredicate, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        super().__init__(operands=[lhs, rhs], result_types=[i1],
                         properties={"pred": CmpPredicateAttr(pred)})

    @classmethod
    def parse(cls, parser: Parser) -> CmpOp:
        pred = parser.parse_str_enum(CmpPredicate)
        parser.parse_punctuation("(")
        a, b = _parse_index_pair(parser)
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        op = cls(pred, a, b)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_enclosed_operands(printer, [self.lhs, self.rhs], f" {self.pred.data.value}(")
        print_attr_dict(printer, self.attributes)


class _CastOp(IRDLOperation):
    """`%o = index.casts %i : i64 to index`: one side index, the other an integer."""

    input = operand_def(IntegerType | IndexType)
    output = result_def(IntegerType | IndexType)
    traits = traits_def(Pure())

    SIGNED: ClassVar[bool] = True

    @classmethod
    def parse(cls, parser: Parser):
        u = parser.parse_unresolved_operand()
        attrs, (t_in, t_out) = parse_attrs_and_types(parser, to=True)
        return cls.build(operands=[parser.resolve_operand(u, t_in)], result_types=[t_out],
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.input])
        print_attrs_and_types(printer, self.attributes, [self.input.type], to=self.output.type)

    def verify_(self) -> None:
        a, b = self.input.type, self.output.type
        if isinstance(a, IndexType) == isinstance(b, IndexType):
            raise VerifyException(f"{self.name}: exactly one side must be index, got {a} to {b}")


@irdl_op_definition
class CastSOp(_CastOp):
    """Sign-extending / truncating cast between index and an integer type."""

    name = "index.casts"


@irdl_op_definition
class CastUOp(_CastOp):
    """Zero-extending / truncating cast between index and an integer type."""

    name = "index.castu"
    SIGNED: ClassVar[bool] = False


@irdl_op_definition
class SizeOfOp(IRDLOperation):
    """`%s = index.sizeof`: the index width in bits (64 on every target here)."""

    name = "index.sizeof"
    result = result_def(IndexType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> SizeOfOp:
        attrs = parser.parse_optional_attr_dict()
        return cls.build(result_types=[INDEX], attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self.attributes)


Index = Dialect(
    "index",
    [*BINARY_OPS.values(), ConstantOp, BoolConstantOp, CmpOp, CastSOp, CastUOp, SizeOfOp],
    [CmpPredicateAttr],
)

__all__ = ["Index", "BINARY_OPS", "ConstantOp", "BoolConstantOp", "CmpOp", "CmpPredicate",
           "CmpPredicateAttr", "CastSOp", "CastUOp", "SizeOfOp"]
