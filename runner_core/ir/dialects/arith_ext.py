"""The `arith` dialect: xDSL's, plus the ops MLIR has and xDSL 0.75 lacks.

Added: `arith.remf` (C `fmod` semantics: the result has the sign of the
dividend) and `arith.index_castui` (zero-extending index cast).
"""

from __future__ import annotations

from xdsl.dialects import arith as _x
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import IRDLOperation, base, irdl_op_definition, operand_def, result_def, traits_def
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


Arith = Dialect("arith", [*_x.Arith.operations, RemFOp, IndexCastUIOp],
                list(_x.Arith.attributes))

__all__ = ["Arith", "RemFOp", "IndexCastUIOp"]
