"""The `arith` dialect: xDSL's, plus the ops MLIR has and xDSL 0.75 lacks.

Added: `arith.remf` (C `fmod` semantics: the result has the sign of the
dividend) and `arith.index_castui` (zero-extending index cast).  Replaced:
`arith.trunci`, which in MLIR 22 carries `overflowFlags` (nsw/nuw: poison
when the dropped bits are not a sign/zero extension) and accepts vectors.
"""

from __future__ import annotations

from xdsl.dialects import arith as _x
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class RemFOp(_x.FloatingPointLikeBinaryOperation):
    """`%r = arith.remf %a, %b : f32`: remainder with the sign of `lhs` (like fmod)."""

    name = "arith.remf"
    traits = traits_def(Pure())


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """`%r = arith.index_castui %x : i32 to index`: like index_cast, zero-extending."""

    name = "arith.index_castui"
    input = operand_def(base(IntegerType) | base(IndexType))
    result = result_def(base(IntegerType) | base(IndexType))
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, input_arg: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input_arg], result_types=[target_type])

    def verify_(self) -> None:
        if isinstance(self.input.type, IndexType) == isinstance(self.result.type, IndexType):
            raise VerifyException(
                f"arith.index_castui: exactly one of {self.input.type} and "
                f"{self.result.type} must be index")


@irdl_op_definition
class TruncIOp(IRDLOperation):
    """`%r = arith.trunci %x [overflow<nsw>] : i32 to i16`: keep the low bits."""

    name = "arith.trunci"
    input = operand_def(_x.signlessIntegerLike)
    result = result_def(_x.signlessIntegerLike)
    overflow_flags = prop_def(_x.IntegerOverflowAttr,
                              default_value=_x.IntegerOverflowAttr("none"),
                              prop_name="overflowFlags")
    traits = traits_def(Pure())
    assembly_format = ("$input (`overflow` `` $overflowFlags^)? attr-dict `:` type($input) "
                       "`to` type($result)")

    def __init__(self, op: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[op], result_types=[target_type],
                         properties={"overflowFlags": _x.IntegerOverflowAttr("none")})

    def verify_(self) -> None:
        src = getattr(self.input.type, "element_type", self.input.type)
        dst = getattr(self.result.type, "element_type", self.result.type)
        if not dst.width.data < src.width.data:
            raise VerifyException("result type must be narrower than the operand type")


_REPLACED = {_x.TruncIOp: TruncIOp}

Arith = Dialect("arith", [*(_REPLACED.get(o, o) for o in _x.Arith.operations), RemFOp,
                          IndexCastUIOp],
                list(_x.Arith.attributes))

__all__ = ["Arith", "RemFOp", "IndexCastUIOp", "TruncIOp"]
