"""Small parse/print helpers shared by the dialect modules here.

Most custom op forms MLIR prints are built from the same few pieces: a list
of operands, the attribute dictionary, then `: T1, T2` (or `: T to U` for a
cast).  Each piece is parsed and printed here once, so every dialect reads
and writes it the same way (same spacing, same errors).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX as DYNAMIC  # `?` in a shape
from xdsl.dialects.builtin import FunctionType, VectorType
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer


def print_attr_dict(printer: Printer, attrs: Mapping[str, Attribute],
                    exclude: Iterable[str] = (), keyword: bool = False) -> None:
    """Print ` {a = 1}` (or ` attributes {...}`), nothing when empty, like MLIR: in
    name order, as MLIR's dictionary attributes hold them (`{columns = .., rows = ..}`)."""
    printer.print_op_attributes(dict(sorted(attrs.items())),
                                reserved_attr_names=tuple(exclude), print_keyword=keyword)


def shapes_compatible(a: Sequence[int], b: Sequence[int]) -> bool:
    """MLIR's verifyCompatibleShape: same rank, and each pair equal or one dynamic."""
    if len(a) != len(b):
        return False
    return all(x == y or x == DYNAMIC or y == DYNAMIC for x, y in zip(a, b, strict=True))


# -- operands ------------------------------------------------------------------------


def parse_operands(parser: Parser, count: int) -> list[UnresolvedOperand]:
    """`%a, %b, ...`: exactly `count` operand names, comma separated."""
    names = [parser.parse_unresolved_operand()]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
    return names


def resolve_operands(parser: Parser, names: Sequence[UnresolvedOperand],
                     types: Sequence[Attribute]) -> list[SSAValue]:
    """Each name with its type, in order (the lists have the same length)."""
    return [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]


def print_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    """` %a, %b`: the operand list right after the op name."""
    printer.print_string(" ")
    printer.print_list(values, printer.print_operand)


def parse_operand_with_type(parser: Parser) -> SSAValue:
    """`%a : T`."""
    name = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    return parser.resolve_operand(name, parser.parse_type())


def print_operand_with_type(printer: Printer, value: SSAValue) -> None:
    """`%a : T`."""
    printer.print_operand(value)
    printer.print_string(" : ")
    printer.print_attribute(value.type)


def parse_optional_bracketed_operands(parser: Parser, ty: Attribute) -> list[SSAValue]:
    """`[%a, %b]` (possibly `[]`) or nothing, every operand of type `ty` (async tokens)."""
    if parser.parse_optional_punctuation("[") is None:
        return []
    if parser.parse_optional_punctuation("]") is not None:
        return []
    names = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                              parser.parse_unresolved_operand)
    parser.parse_punctuation("]")
    return [parser.resolve_operand(n, ty) for n in names]


def print_bracketed_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    """` [%a, %b]`, nothing for an empty list."""
    if values:
        print_enclosed_operands(printer, values, " [", "]")


def print_enclosed_operands(printer: Printer, values: Sequence[SSAValue], left: str = "(",
                            right: str = ")") -> None:
    """`left%a, %bright`: an operand list between two given strings (`(...)`, `[...]`)."""
    printer.print_string(left)
    printer.print_list(values, printer.print_operand)
    printer.print_string(right)


# -- the `attr-dict : types` tail ---------------------------------------------------------


def parse_attrs_and_types(parser: Parser, count: int = 1, *,
                          to: bool = False) -> tuple[dict[str, Attribute], list[Attribute]]:
    """`attr-dict : T1, ..., Tcount` (then `to U` when `to`): the tail of most custom forms.

    Returns the attribute dictionary and the types in order (U last).
    """
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    types = [parser.parse_type()]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        types.append(parser.parse_type())
    if to:
        parser.parse_keyword("to")
        types.append(parser.parse_type())
    return attrs, types


def print_attrs_and_types(printer: Printer, attrs: Mapping[str, Attribute],
                          types: Sequence[Attribute], to: Attribute | None = None) -> None:
    """` {attrs} : T1, T2` (then ` to U` when `to` is given): mirrors `parse_attrs_and_types`."""
    print_attr_dict(printer, attrs)
    printer.print_string(" : ")
    printer.print_list(types, printer.print_attribute)
    if to is not None:
        printer.print_string(" to ")
        printer.print_attribute(to)


def parse_typed_operands(parser: Parser,
                         count: int) -> tuple[list[SSAValue], dict[str, Attribute]]:
    """`%a, %b attr-dict : Ta, Tb`: `count` operands, each with its own type."""
    names = parse_operands(parser, count)
    attrs, types = parse_attrs_and_types(parser, count)
    return resolve_operands(parser, names, types), attrs


def print_typed_operands(printer: Printer, values: Sequence[SSAValue],
                         attrs: Mapping[str, Attribute]) -> None:
    """Mirror of `parse_typed_operands` (with the space after the op name)."""
    print_operands(printer, values)
    print_attrs_and_types(printer, attrs, [v.type for v in values])


def parse_function_type(parser: Parser) -> FunctionType:
    """A type that must be a function type `(T) -> U` (an error spanning it otherwise)."""
    at = parser.pos
    t = parser.parse_type()
    if not isinstance(t, FunctionType):
        parser.raise_error(f"expected a function type, got {t}", at, parser.pos)
    return t


def parse_values_with_types(parser: Parser) -> list[SSAValue]:
    """` %a, %b : T1, T2` (or nothing): the operands of a yield/return-like terminator."""
    first = parser.parse_optional_unresolved_operand()
    if first is None:
        return []
    names = [first]
    while parser.parse_optional_punctuation(","):
        names.append(parser.parse_unresolved_operand())
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    if len(types) != len(names):
        parser.raise_error(f"{len(names)} values but {len(types)} types")
    return resolve_operands(parser, names, types)


def print_values_with_types(printer: Printer, values: Sequence[SSAValue]) -> None:
    """Mirror of `parse_values_with_types`: nothing for no values."""
    if not values:
        return
    print_operands(printer, values)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)


class ValuesTerminatorSyntax:
    """Custom form `attr-dict %a, %b : T1, T2` of yield/return-like ops.

    A base for op classes whose only operand definition is one variadic list
    (gpu.return, gpu.yield, async.yield, async.return).
    """

    @classmethod
    def parse(cls, parser: Parser):
        attrs = parser.parse_optional_attr_dict()
        return cls.build(operands=[parse_values_with_types(parser)],  # type: ignore[attr-defined]
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self.attributes)  # type: ignore[attr-defined]
        print_values_with_types(printer, self.operands)  # type: ignore[attr-defined]


def print_result_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """`T` for one result, `(T, U)` for several (after a ` -> `)."""
    if len(types) == 1:
        printer.print_attribute(types[0])
    else:
        printer.print_string("(")
        printer.print_list(types, printer.print_attribute)
        printer.print_string(")")


def parse_vector_type(parser: Parser) -> VectorType:
    """A type that must be a vector, refused in mlir-opt 22's words otherwise."""
    at = parser.pos
    t = parser.parse_type()
    if not isinstance(t, VectorType):
        parser.raise_error(f"invalid kind of type specified: expected builtin.vector, but "
                           f"found '{t}'", at, parser.pos)
    return t


def parse_optional_arrow_types(parser: Parser) -> list[Attribute]:
    """`-> T`, `-> (T, U)`, `-> ()` or nothing: result types as MLIR writes them after a
    region or a signature."""
    if not parser.parse_optional_punctuation("->"):
        return []
    if parser.parse_optional_punctuation("(") is None:
        return [parser.parse_type()]
    if parser.parse_optional_punctuation(")") is not None:
        return []
    results = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return results
