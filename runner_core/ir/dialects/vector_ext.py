"""The `vector` dialect with MLIR's `vector.print`, `vector.from_elements` and strided slices.

xDSL 0.75's `vector.print` takes exactly one operand and has no syntax.
MLIR's prints an optional value, an optional string literal and a trailing
punctuation (newline unless told otherwise).  `vector.from_elements` (build a
vector from scalars, row-major) and `vector.extract_strided_slice` /
`vector.insert_strided_slice` are missing from xDSL.  The rest of xDSL's
vector dialect is reused as is.
"""

from __future__ import annotations

from xdsl.dialects import vector as _x
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, VectorType, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
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

from runner_core.ir.dialects._syntax import (
    parse_operands,
    parse_vector_type,
    print_attr_dict,
    print_operands,
    resolve_operands,
)
from runner_core.ir.dialects.vector_contract import CONTRACT_ATTRS, CONTRACT_OPS
from runner_core.ir.dialects.vector_memory import MEMORY_OPS
from runner_core.ir.dialects.vector_memory import REPLACES as MEMORY_REPLACES
from runner_core.ir.dialects.vector_shape import SHAPE_OPS


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


# ------------------------------------------------------------ strided slices
def _i64_array(op: Operation, name: str) -> list[int]:
    """Property ``name`` as Python ints, checked like MLIR's I64ArrayAttr constraint."""
    attr = op.properties.get(name)
    if attr is None:
        raise VerifyException(f"requires attribute '{name}'")
    if not isinstance(attr, ArrayAttr) or not all(
            isinstance(x, IntegerAttr) and x.type == i64 for x in attr.data):
        raise VerifyException(f"attribute '{name}' failed to satisfy constraint: 64-bit "
                              f"integer array attribute")
    return [x.value.data for x in attr.data]


def _confined(name: str, values: list[int], lows, highs) -> None:
    """MLIR's "expected NAME dimension i to be confined to [lo, hi)" check."""
    for i, (v, lo, hi) in enumerate(zip(values, lows, highs, strict=False)):
        if not lo <= v < hi:
            raise VerifyException(f"expected {name} dimension {i} to be confined to "
                                  f"[{lo}, {hi})")


def _unit_strides(strides: list[int]) -> None:
    if any(s != 1 for s in strides):
        raise VerifyException("expected strides to be confined to [1, 2)")


def _parse_slice_form(parser: Parser, count: int, names: tuple[str, ...], keyword: str):
    """`%a[, %b] {props} : vector<..> KEYWORD vector<..>`, the custom form of both strided
    slice ops: (operand names, properties, other attributes, the two types)."""
    operands = parse_operands(parser, count)
    attrs = parser.parse_optional_attr_dict()
    props = {n: attrs.pop(n) for n in names if n in attrs}
    parser.parse_punctuation(":")
    first = parse_vector_type(parser)
    parser.parse_keyword(keyword)
    return operands, props, attrs, (first, parse_vector_type(parser))


def _print_slice_form(printer: Printer, op: Operation, names: tuple[str, ...], keyword: str,
                      second: Attribute) -> None:
    """Mirror of `_parse_slice_form` (the first type is the source's)."""
    print_operands(printer, op.operands)
    _print_props(printer, op, names)
    printer.print_string(" : ")
    printer.print_attribute(op.source.type)
    printer.print_string(f" {keyword} ")
    printer.print_attribute(second)


def _print_props(printer: Printer, op: Operation, names: tuple[str, ...]) -> None:
    """` {offsets = [0, 2], ...}` as mlir-opt prints I64ArrayAttr (no `: i64`)."""
    printer.print_string(" {")
    first = True
    for n in names:
        attr = op.properties.get(n)
        if attr is None:
            continue
        if not first:
            printer.print_string(", ")
        first = False
        printer.print_string(f"{n} = ")
        if isinstance(attr, ArrayAttr) and all(isinstance(x, IntegerAttr) and x.type == i64
                                               for x in attr.data):
            printer.print_string("[" + ", ".join(str(x.value.data) for x in attr.data) + "]")
        else:
            printer.print_attribute(attr)
    for n, attr in op.attributes.items():
        printer.print_string(f"{', ' if not first else ''}{n} = ")
        first = False
        printer.print_attribute(attr)
    printer.print_string("}")


_EXTRACT_PROPS = ("offsets", "sizes", "strides")
_INSERT_PROPS = ("offsets", "strides")


def _i64_array_attr(values) -> ArrayAttr:
    return ArrayAttr([IntegerAttr(v, i64) for v in values])


@irdl_op_definition
class ExtractStridedSliceOp(IRDLOperation):
    """`%r = vector.extract_strided_slice %v {offsets = [..], sizes = [..], strides = [..]}
    : vector<4x8xf32> to vector<2x8xf32>`.

    Takes `sizes[d]` elements from `offsets[d]` in each of the leading
    dimensions the three arrays name (all of the same length, at most the
    rank); the trailing dimensions are kept whole.  MLIR 22 accepts only unit
    strides.
    """

    name = "vector.extract_strided_slice"
    source = operand_def(VectorType)
    offsets = opt_prop_def(ArrayAttr)
    sizes = opt_prop_def(ArrayAttr)
    strides = opt_prop_def(ArrayAttr)
    result = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(self, source: SSAValue | Operation, offsets, sizes, strides,
                 result_type: VectorType):
        super().__init__(operands=[source], result_types=[result_type],
                         properties={"offsets": _i64_array_attr(offsets),
                                     "sizes": _i64_array_attr(sizes),
                                     "strides": _i64_array_attr(strides)})

    @classmethod
    def parse(cls, parser: Parser) -> ExtractStridedSliceOp:
        (u,), props, attrs, (src_t, res_t) = _parse_slice_form(parser, 1, _EXTRACT_PROPS, "to")
        return cls.create(operands=[parser.resolve_operand(u, src_t)], result_types=[res_t],
                          properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_slice_form(printer, self, _EXTRACT_PROPS, "to", self.result.type)

    def verify_(self) -> None:
        offsets, sizes, strides = (_i64_array(self, n) for n in _EXTRACT_PROPS)
        src_t, res_t = self.source.type, self.result.type
        if src_t.element_type != res_t.element_type:
            raise VerifyException("failed to verify that operand and result have same "
                                  "element type")
        if not len(offsets) == len(sizes) == len(strides):
            raise VerifyException("expected offsets, sizes and strides attributes of same size")
        shape = list(src_t.get_shape())
        for name, values in zip(_EXTRACT_PROPS, (offsets, sizes, strides), strict=True):
            if len(values) > len(shape):
                raise VerifyException(f"expected {name} attribute of rank no greater than "
                                      f"vector rank")
        _confined("offsets", offsets, [0] * len(shape), shape)
        _confined("sizes", sizes, [1] * len(shape), [d + 1 for d in shape])
        _unit_strides(strides)
        _confined("sum(offsets, sizes)", [o + n for o, n in zip(offsets, sizes, strict=True)],
                  [1] * len(shape), [d + 1 for d in shape])
        want = VectorType(src_t.element_type, [*sizes, *shape[len(sizes):]],
                          src_t.scalable_dims)
        if res_t != want:
            raise VerifyException(f"expected result type to be '{want}'")


@irdl_op_definition
class InsertStridedSliceOp(IRDLOperation):
    """`%r = vector.insert_strided_slice %src, %dst {offsets = [..], strides = [..]}
    : vector<2x4xf32> into vector<16x4x8xf32>`.

    Writes `source` into `dest` with its element (i_1, ..., i_k) at
    (offsets[0], ..., offsets[n-k-1], offsets[n-k] + i_1, ..., offsets[n-1] + i_k):
    one offset per dimension of `dest`, one (unit) stride per dimension of
    `source`.
    """

    name = "vector.insert_strided_slice"
    source = operand_def(VectorType)
    dest = operand_def(VectorType)
    offsets = opt_prop_def(ArrayAttr)
    strides = opt_prop_def(ArrayAttr)
    result = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(self, source: SSAValue | Operation, dest: SSAValue | Operation, offsets,
                 strides):
        dest_t = SSAValue.get(dest).type
        super().__init__(operands=[source, dest], result_types=[dest_t],
                         properties={"offsets": _i64_array_attr(offsets),
                                     "strides": _i64_array_attr(strides)})

    @classmethod
    def parse(cls, parser: Parser) -> InsertStridedSliceOp:
        names, props, attrs, types = _parse_slice_form(parser, 2, _INSERT_PROPS, "into")
        return cls.create(operands=resolve_operands(parser, names, types),
                          result_types=[types[1]], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_slice_form(printer, self, _INSERT_PROPS, "into", self.dest.type)

    def verify_(self) -> None:
        offsets, strides = (_i64_array(self, n) for n in _INSERT_PROPS)
        src_t, dst_t = self.source.type, self.dest.type
        if src_t.element_type != self.result.type.element_type:
            raise VerifyException("failed to verify that operand #0 and result have same "
                                  "element type")
        if self.result.type != dst_t:
            raise VerifyException("failed to verify that all of {dest, result} have same type")
        src_shape, dst_shape = list(src_t.get_shape()), list(dst_t.get_shape())
        if len(offsets) != len(dst_shape):
            raise VerifyException("expected offsets of same size as destination vector rank")
        if len(strides) != len(src_shape):
            raise VerifyException("expected strides of same size as source vector rank")
        if len(src_shape) > len(dst_shape):
            raise VerifyException("expected source rank to be no greater than destination "
                                  "rank")
        _confined("offsets", offsets, [0] * len(dst_shape), dst_shape)
        _unit_strides(strides)
        padded = [1] * (len(dst_shape) - len(src_shape)) + src_shape
        _confined("sum(offsets, source vector shape)",
                  [o + n for o, n in zip(offsets, padded, strict=True)],
                  [1] * len(dst_shape), [d + 1 for d in dst_shape])


_REPLACED = {_x.PrintOp.name: PrintOp, **MEMORY_REPLACES}

Vector = Dialect("vector", [*(_REPLACED.get(op.name, op) for op in _x.Vector.operations),
                            FromElementsOp, ExtractStridedSliceOp, InsertStridedSliceOp,
                            *MEMORY_OPS, *SHAPE_OPS, *CONTRACT_OPS],
                 [*_x.Vector.attributes, PunctuationAttr, *CONTRACT_ATTRS])

__all__ = ["Vector", "ExtractStridedSliceOp", "FromElementsOp", "InsertStridedSliceOp",
           "PrintOp", "Punctuation", "PunctuationAttr"]
