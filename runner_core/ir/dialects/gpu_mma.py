"""Warp-level matrix ops (tensor cores): `!gpu.mma_matrix` and `gpu.subgroup_mma_*`.

A `!gpu.mma_matrix<MxNxT, "AOp"|"BOp"|"COp">` is a tile owned jointly by the
32 lanes of a warp; the ops load, multiply-accumulate, combine and store whole
tiles (`gpu.subgroup_mma_load_matrix` / `_compute` / `_store_matrix` /
`_constant_matrix` / `_elementwise`).  Syntax and verification follow MLIR 22.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    IntAttr,
    MemRefType,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    param_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

OPERANDS = ("AOp", "BOp", "COp")
ELEMENTWISE = ("addf", "mulf", "subf", "maxf", "minf", "divf", "addi", "muli", "subi",
               "divs", "divu", "negatef", "negates", "extf")


@irdl_attr_definition
class MMAMatrixType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.mma_matrix<16x16xf16, "AOp">`."""

    name = "gpu.mma_matrix"
    shape: ArrayAttr = param_def()
    element_type: Attribute = param_def()
    operand: StringAttr = param_def()

    def __init__(self, shape: Sequence[int], element_type: Attribute, operand: str):
        super().__init__(ArrayAttr([IntAttr(d) for d in shape]), element_type,
                         StringAttr(operand))

    @property
    def dims(self) -> tuple[int, int]:
        a, b = (d.data for d in self.shape.data)
        return a, b

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        pos = parser.pos
        shape, elem = parser.parse_ranked_shape()
        if len(shape) != 2 or min(shape) <= 0:
            parser.raise_error("MMAMatrixType must have exactly two dimensions", pos)
        elem_type = parser.parse_type() if elem is None else elem
        parser.parse_punctuation(",")
        pos = parser.pos
        operand = parser.parse_str_literal()
        if operand not in OPERANDS:
            parser.raise_error("operand expected to be one of AOp, BOp or COp", pos)
        parser.parse_punctuation(">")
        return (ArrayAttr([IntAttr(d) for d in shape]), elem_type, StringAttr(operand))

    def print_parameters(self, printer: Printer) -> None:
        m, n = self.dims
        printer.print_string(f"<{m}x{n}x")
        printer.print_attribute(self.element_type)
        printer.print_string(f', "{self.operand.data}">')


def _attr_dict_and_types(parser: Parser) -> tuple[dict[str, Attribute], list[Attribute]]:
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    types = [parser.parse_type()]
    while parser.parse_optional_punctuation(","):
        types.append(parser.parse_type())
    return attrs, types


def _print_attrs(printer: Printer, attrs: dict[str, Attribute]) -> None:
    if attrs:
        printer.print_string(" ")
        printer.print_attr_dict(attrs)


def _mma(ty: Attribute, what: str) -> MMAMatrixType:
    if not isinstance(ty, MMAMatrixType):
        raise VerifyException(f"{what} must be !gpu.mma_matrix, found {ty}")
    return ty


@irdl_op_definition
class SubgroupMmaLoadMatrixOp(IRDLOperation):
    """`%m = gpu.subgroup_mma_load_matrix %src[%i, %j] {leadDimension = 16 : index}
    : memref<..> -> !gpu.mma_matrix<..>` (`transpose` unit attribute: column-major)."""

    name = "gpu.subgroup_mma_load_matrix"
    srcMemref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    leadDimension = prop_def(Attribute)
    transpose = opt_prop_def(UnitAttr)
    res = result_def(MMAMatrixType)

    @classmethod
    def parse(cls, parser: Parser):
        src = parser.parse_unresolved_operand()
        idx = parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                parser.parse_unresolved_operand)
        attrs, (mt,) = _attr_dict_and_types(parser)
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        props = {k: attrs.pop(k) for k in ("leadDimension", "transpose") if k in attrs}
        return cls.create(operands=[parser.resolve_operand(src, mt),
                                    *(parser.resolve_operand(i, IndexType()) for i in idx)],
                          result_types=[rt], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.srcMemref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        _print_attrs(printer, {**self.properties, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.srcMemref.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        rt = _mma(self.res.type, "result")
        if rt.operand.data == "COp" and self.transpose is not None:
            raise VerifyException("cannot transpose a COp fragment on load")


@irdl_op_definition
class SubgroupMmaStoreMatrixOp(IRDLOperation):
    """`gpu.subgroup_mma_store_matrix %m, %dst[%i, %j] {leadDimension = 16 : index}
    : !gpu.mma_matrix<..>, memref<..>`."""

    name = "gpu.subgroup_mma_store_matrix"
    src = operand_def(MMAMatrixType)
    dstMemref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    leadDimension = prop_def(Attribute)
    transpose = opt_prop_def(UnitAttr)

    @classmethod
    def parse(cls, parser: Parser):
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        idx = parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                parser.parse_unresolved_operand)
        attrs, types = _attr_dict_and_types(parser)
        if len(types) != 2:
            parser.raise_error("expected the matrix type and the memref type")
        props = {k: attrs.pop(k) for k in ("leadDimension", "transpose") if k in attrs}
        return cls.create(operands=[parser.resolve_operand(src, types[0]),
                                    parser.resolve_operand(dst, types[1]),
                                    *(parser.resolve_operand(i, IndexType()) for i in idx)],
                          properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_string(", ")
        printer.print_operand(self.dstMemref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        _print_attrs(printer, {**self.properties, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(", ")
        printer.print_attribute(self.dstMemref.type)


@irdl_op_definition
class SubgroupMmaComputeOp(IRDLOperation):
    """`%d = gpu.subgroup_mma_compute %a, %b, %c : !A, !B -> !C`: D = A * B + C."""

    name = "gpu.subgroup_mma_compute"
    opA = operand_def(MMAMatrixType)
    opB = operand_def(MMAMatrixType)
    opC = operand_def(MMAMatrixType)
    a_transpose = opt_prop_def(UnitAttr)
    b_transpose = opt_prop_def(UnitAttr)
    res = result_def(MMAMatrixType)

    @classmethod
    def parse(cls, parser: Parser):
        ops = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                parser.parse_unresolved_operand)
        attrs, types = _attr_dict_and_types(parser)
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        if len(ops) != 3 or len(types) != 2:
            parser.raise_error("expected three operands and two operand types")
        props = {k: attrs.pop(k) for k in ("a_transpose", "b_transpose") if k in attrs}
        return cls.create(operands=[parser.resolve_operand(ops[0], types[0]),
                                    parser.resolve_operand(ops[1], types[1]),
                                    parser.resolve_operand(ops[2], rt)],
                          result_types=[rt], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.opA, self.opB, self.opC], printer.print_operand)
        _print_attrs(printer, {**self.properties, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.opA.type)
        printer.print_string(", ")
        printer.print_attribute(self.opB.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        a, b, c = (_mma(v.type, n) for v, n in ((self.opA, "A"), (self.opB, "B"),
                                                 (self.opC, "C")))
        (m, k), (k2, n), (m2, n2) = a.dims, b.dims, c.dims
        if (a.operand.data, b.operand.data, c.operand.data) != OPERANDS:
            raise VerifyException("operands must be AOp, BOp and COp fragments")
        if k != k2 or m != m2 or n != n2:
            raise VerifyException("operand shapes do not satisfy matmul constraints")


@irdl_op_definition
class SubgroupMmaConstantMatrixOp(IRDLOperation):
    """`%m = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<..>`."""

    name = "gpu.subgroup_mma_constant_matrix"
    value = operand_def(Attribute)
    res = result_def(MMAMatrixType)

    @classmethod
    def parse(cls, parser: Parser):
        v = parser.parse_unresolved_operand()
        attrs, (rt,) = _attr_dict_and_types(parser)
        return cls.create(operands=[parser.resolve_operand(v, _mma(rt, "result").element_type)],
                          result_types=[rt], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        _print_attrs(printer, dict(self.attributes))
        printer.print_string(" : ")
        printer.print_attribute(self.res.type)


@irdl_op_definition
class SubgroupMmaElementwiseOp(IRDLOperation):
    """`%r = gpu.subgroup_mma_elementwise addf %a, %b : (!T, !T) -> !T`."""

    name = "gpu.subgroup_mma_elementwise"
    args = var_operand_def(MMAMatrixType)
    opType = prop_def(Attribute)
    res = result_def(MMAMatrixType)

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        kind = parser.parse_identifier()
        if kind not in ELEMENTWISE:
            parser.raise_error(f"unknown mma elementwise operation '{kind}'", pos)
        ops = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ft = parser.parse_function_type()
        return cls.create(operands=[parser.resolve_operand(o, t)
                                    for o, t in zip(ops, ft.inputs.data, strict=True)],
                          result_types=list(ft.outputs.data),
                          properties={"opType": StringAttr(kind)}, attributes=attrs)

    @property
    def kind(self) -> str:
        return getattr(self.opType, "data", str(self.opType))

    def print(self, printer: Printer) -> None:
        printer.print_string(f"  {self.kind} ")
        printer.print_list(self.args, printer.print_operand)
        _print_attrs(printer, dict(self.attributes))
        printer.print_string(" : (")
        printer.print_list([a.type for a in self.args], printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.res.type)


MMA_OPS = (SubgroupMmaLoadMatrixOp, SubgroupMmaStoreMatrixOp, SubgroupMmaComputeOp,
           SubgroupMmaConstantMatrixOp, SubgroupMmaElementwiseOp)
