"""vector dialect: ops that rearrange or combine lanes, with MLIR 22's rules.

`vector.shape_cast`, `vector.transpose`, `vector.interleave`,
`vector.deinterleave`, `vector.step` and `vector.outerproduct` are missing
from xDSL 0.75.  Custom forms are MLIR's; verifier messages are mlir-opt 22's
(checked against it).  `vector.outerproduct` keeps one upstream quirk: its
printer shows the attribute dictionary (and so `kind`) only when there is an
accumulator, as mlir-opt 22 does.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    IndexType,
    IntegerType,
    VectorType,
    i64,
)
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import parse_vector_type, print_attr_dict

INT_KINDS = frozenset({"add", "mul", "minui", "minsi", "maxui", "maxsi", "and", "or", "xor"})
FLOAT_KINDS = frozenset({"add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf"})


def kind_fits(kind: str, elem: Attribute) -> bool:
    """MLIR's isSupportedCombiningKind: bitwise and integer min/max kinds need integers,
    the float min/max kinds floats; add and mul take either."""
    if isinstance(elem, (IntegerType, IndexType)):
        return kind in INT_KINDS
    if isinstance(elem, AnyFloat):
        return kind in FLOAT_KINDS
    return False


def _shape(t: Attribute) -> list[int]:
    return list(t.get_shape()) if isinstance(t, VectorType) else []


def _scalable(t: VectorType) -> list[bool]:
    if not t.get_num_scalable_dims():
        return [False] * len(t.get_shape())
    return [bool(x.data) for x in t.scalable_dims]


def _count(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


@irdl_op_definition
class ShapeCastOp(IRDLOperation):
    """`%r = vector.shape_cast %v : vector<2x3xf32> to vector<6xf32>`: the same lanes in
    row-major order, another shape."""

    name = "vector.shape_cast"
    source = operand_def(VectorType)
    result = result_def(VectorType)
    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def verify_(self) -> None:
        src, res = self.source.type, self.result.type
        if src.element_type != res.element_type:
            raise VerifyException("has different source and result element types")
        a, b = _count(_shape(src)), _count(_shape(res))
        if a != b:
            raise VerifyException(f"has different number of elements at source ({a}) and "
                                  f"result ({b})")
        sa, sb = sum(_scalable(src)), sum(_scalable(res))
        if sa != sb:
            raise VerifyException(f"has different number of scalable dims at source ({sa}) "
                                  f"and result ({sb})")


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """`%r = vector.transpose %v, [1, 0] : vector<2x3xf32> to vector<3x2xf32>`: result
    dimension i is source dimension `permutation[i]`."""

    name = "vector.transpose"
    vector = operand_def(VectorType)
    permutation = prop_def(DenseArrayBase.constr(i64))
    result = result_def(VectorType)
    traits = traits_def(Pure())
    assembly_format = ("$vector `,` $permutation attr-dict `:` type($vector) `to` "
                       "type($result)")

    def verify_(self) -> None:
        src, res = self.vector.type, self.result.type
        if src.element_type != res.element_type:
            raise VerifyException("failed to verify that operand and result have same "
                                  "element type")
        perm = [int(x) for x in self.permutation.get_values()]
        sshape, rshape = _shape(src), _shape(res)
        if len(sshape) != len(rshape):
            raise VerifyException("vector result rank mismatch: " + str(len(rshape)))
        if len(perm) != len(sshape):
            raise VerifyException(f"transposition length mismatch: {len(perm)}")
        seen = set()
        for i, p in enumerate(perm):
            if p < 0 or p >= len(sshape):
                raise VerifyException(f"transposition index out of range: {p}")
            if p in seen:
                raise VerifyException(f"duplicate position index: {p}")
            seen.add(p)
            if rshape[i] != sshape[p]:
                raise VerifyException(f"dimension size mismatch at: {p}")


@irdl_op_definition
class InterleaveOp(IRDLOperation):
    """`%r = vector.interleave %a, %b : vector<2xf32> -> vector<4xf32>`: along the
    trailing dimension, a0 b0 a1 b1 ... (0-D operands give a 2-lane vector)."""

    name = "vector.interleave"
    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    result = result_def(VectorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> InterleaveOp:
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parse_vector_type(parser)
        parser.parse_punctuation("->")
        rt = parse_vector_type(parser)
        op = cls.create(operands=[parser.resolve_operand(a, t), parser.resolve_operand(b, t)],
                        result_types=[rt], attributes=attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        t, rt = self.lhs.type, self.result.type
        if self.rhs.type != t:
            raise VerifyException("failed to verify that all of {lhs, rhs} have same type")
        shape = _shape(t) or [1]
        want = VectorType(t.element_type, [*shape[:-1], shape[-1] * 2],
                          t.scalable_dims if _shape(t) else None)
        if rt != want:
            raise VerifyException("failed to verify that type of 'result' is double the "
                                  "width of the inputs")


@irdl_op_definition
class DeinterleaveOp(IRDLOperation):
    """`%even, %odd = vector.deinterleave %v : vector<4xf32> -> vector<2xf32>`: the even
    and the odd lanes of the trailing dimension."""

    name = "vector.deinterleave"
    source = operand_def(VectorType)
    res1 = result_def(VectorType)
    res2 = result_def(VectorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> DeinterleaveOp:
        a = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parse_vector_type(parser)
        parser.parse_punctuation("->")
        rt = parse_vector_type(parser)
        return cls.create(operands=[parser.resolve_operand(a, t)], result_types=[rt, rt],
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res1.type)

    def verify_(self) -> None:
        t, rt = self.source.type, self.res1.type
        if self.res2.type != rt:
            raise VerifyException("failed to verify that all of {res1, res2} have same type")
        shape = _shape(t)
        if not shape or shape[-1] % 2:
            raise VerifyException("failed to verify that the trailing dimension of the "
                                  "source vector has an even number of elements")
        want = VectorType(t.element_type, [*shape[:-1], shape[-1] // 2], t.scalable_dims)
        if rt != want:
            raise VerifyException("failed to verify that the trailing dimension of the "
                                  "results is half the width of source trailing dimension")


@irdl_op_definition
class StepOp(IRDLOperation):
    """`%s = vector.step : vector<4xindex>`: ( 0, 1, 2, 3 )."""

    name = "vector.step"
    result = result_def(VectorType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def verify_(self) -> None:
        t = self.result.type
        if not isinstance(t.element_type, IndexType) or len(_shape(t)) != 1:
            raise VerifyException(f"result #0 must be vector of index values of ranks 1, "
                                  f"but got '{t}'")


@irdl_op_definition
class OuterProductOp(IRDLOperation):
    """`%r = vector.outerproduct %a, %b[, %acc] {kind = #vector.kind<..>} : vector<2xf32>,
    vector<4xf32>`: r[i][j] = a[i] * b[j] (combined with acc[i][j] by `kind`); with a
    scalar `b`, r[i] = a[i] * b (AXPY)."""

    name = "vector.outerproduct"
    lhs = operand_def(VectorType)
    rhs = operand_def()
    acc = opt_operand_def(VectorType)
    kind = prop_def(CombiningKindAttr)
    result = result_def(VectorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> OuterProductOp:
        names = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation(","):
            names.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        lt = parser.parse_type()
        parser.parse_punctuation(",")
        rt = parser.parse_type()
        if not isinstance(lt, VectorType):
            parser.raise_error("expected vector type for operand #1", at, parser.pos)
        if len(names) not in (2, 3):
            parser.raise_error(f"expected 2 or 3 operands, got {len(names)}", at, parser.pos)
        if isinstance(rt, VectorType):
            res = VectorType(lt.element_type, [*_shape(lt), *_shape(rt)])
        else:
            res = lt
        operands = [parser.resolve_operand(names[0], lt), parser.resolve_operand(names[1], rt)]
        if len(names) == 3:
            operands.append(parser.resolve_operand(names[2], res))
        kind = attrs.pop("kind", None) or CombiningKindAttr(CombiningKindFlag.ADD)
        return cls.create(operands=operands, result_types=[res], properties={"kind": kind},
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        if self.acc is not None:  # as mlir-opt 22: the dictionary only with an accumulator
            merged = {**self.attributes, "kind": self.kind}  # one dictionary: sorted, as MLIR
            print_attr_dict(printer, dict(sorted(merged.items())))
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(", ")
        printer.print_attribute(self.rhs.type)

    def verify_(self) -> None:
        lt, rt, res = self.lhs.type, self.rhs.type, self.result.type
        if len(_shape(lt)) != 1:
            raise VerifyException("expected 1-d vector for operand #1")
        if isinstance(rt, VectorType):
            if len(_shape(rt)) != 1:
                raise VerifyException("expected 1-d vector for operand #2")
            if len(_shape(res)) != 2:
                raise VerifyException("expected 2-d vector result")
            if _shape(lt)[0] != _shape(res)[0]:
                raise VerifyException("expected #1 operand dim to match result dim #1")
            if _shape(rt)[0] != _shape(res)[1]:
                raise VerifyException("expected #2 operand dim to match result dim #2")
        else:
            if len(_shape(res)) != 1:
                raise VerifyException("expected 1-d vector result")
            if _shape(lt)[0] != _shape(res)[0]:
                raise VerifyException("expected #1 operand dim to match result dim #1")
        if self.acc is not None and self.acc.type != res:
            raise VerifyException("expected operand #3 of same type as result type")
        if not kind_fits(self.kind.data.value, res.element_type):
            raise VerifyException("unsupported outerproduct type")


SHAPE_OPS = [ShapeCastOp, TransposeOp, InterleaveOp, DeinterleaveOp, StepOp, OuterProductOp]

__all__ = ["DeinterleaveOp", "FLOAT_KINDS", "INT_KINDS", "InterleaveOp", "OuterProductOp",
           "SHAPE_OPS", "ShapeCastOp", "StepOp", "TransposeOp", "kind_fits"]
