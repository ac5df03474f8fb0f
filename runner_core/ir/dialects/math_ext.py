"""The `math` dialect: xDSL's, plus `math.erfc`, which MLIR 22 has and xDSL 0.75 lacks.

`math.erfc` is what upstream's polynomial-approximation tests print through
(the pass rewrites it for f32; other types reach libm's `erfc`).
"""

from __future__ import annotations

from xdsl.dialects import math as _x
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import Pure, SameOperandsAndResultType


@irdl_op_definition
class ErfcOp(_x.FloatingPointLikeUnaryMathOperation):
    """`%r = math.erfc %x : f32`: the complementary error function, 1 - erf(x)."""

    name = "math.erfc"
    traits = traits_def(Pure(), SameOperandsAndResultType())


Math = Dialect("math", [*_x.Math.operations, ErfcOp], list(_x.Math.attributes))

__all__ = ["ErfcOp", "Math"]
