"""MLIR's `x86vector` dialect, the one op LLVM 22's math approximations emit.

`x86vector.avx.rsqrt` is what `test-math-polynomial-approximation{enable-avx2}`
makes of an 8-lane f32 `math.rsqrt`: the AVX approximate reciprocal square
root (`vrsqrtps`, about 12 bits), refined by a Newton step around it.
`convert-vector-to-llvm{enable-x86vector}` turns it into a call of the
intrinsic `llvm.x86.avx.rsqrt.ps.256`; codegen/x86vector.py does the same.
Real mlir-runner 22 does not register this dialect, so an op left unlowered
fails there (the legality model says so, legality_table.py).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import Float32Type, VectorType
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class AVXRsqrtOp(IRDLOperation):
    """`%r = x86vector.avx.rsqrt %a : vector<8xf32>`."""

    name = "x86vector.avx.rsqrt"
    T: ClassVar = VarConstraint("T", base(VectorType))
    a = operand_def(T)
    b = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$a attr-dict `:` type($a)"

    def __init__(self, a: SSAValue | Operation):
        a = SSAValue.get(a)
        super().__init__(operands=[a], result_types=[a.type])

    def verify_(self) -> None:
        want = VectorType(Float32Type(), [8])
        for what, t in (("operand #0", self.a.type), ("result #0", self.b.type)):
            if t != want:
                raise VerifyException(f"{what} must be vector of 32-bit float of length 8, "
                                      f"but got '{t}'")


X86Vector = Dialect("x86vector", [AVXRsqrtOp], [])

__all__ = ["AVXRsqrtOp", "X86Vector"]
