"""Building blocks of the math approximations (`test-math-polynomial-approximation`).

An :class:`ApproxBuilder` inserts arith / math / vector ops before the op being
rewritten, every value shaped like that op's operand (a scalar, or a vector
whose constants are splats).  Constants are rounded as LLVM 22's C++ rounds
them: a `double` literal to `float` (`f32Cst`), and an f16 constant from
`double` through `float` to `half` (`floatCst` takes a `float`), so the
program computes with exactly the coefficients real mlir-opt writes.  Upstream
builds scalar constants and broadcasts them; its greedy driver folds those
into splat constants, which is what is built here directly.
"""

from __future__ import annotations

import struct

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Attribute, Operation, SSAValue

from runner_core.errors import RunnerError

F32 = b.Float32Type()
I32 = b.IntegerType(32)
I1 = b.IntegerType(1)


class ApproxError(RunnerError):
    """A math op the approximation cannot be built for here (named, never skipped)."""


def element_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, b.VectorType) else t


def round_f32(value: float) -> float:
    """`(float)value`, round to nearest even (C's conversion)."""
    return struct.unpack("<f", struct.pack("<f", value))[0]


def round_to(value: float, elem: Attribute) -> float:
    """The constant LLVM 22 stores for `value` of type `elem` (float first, then narrower)."""
    v = round_f32(value)
    if isinstance(elem, b.Float16Type):
        return struct.unpack("<e", struct.pack("<e", v))[0]  # round to nearest even
    return v


def f32_bits(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


class ApproxBuilder:
    """Creates ops before `anchor`, shaped like `shape_of` (a value or a type)."""

    def __init__(self, ctx: Context, anchor: Operation, shape_of: Attribute,
                 created: list[Operation]):
        self.ctx = ctx
        self.anchor = anchor
        self.created = created  # every op made, for the driver's worklist
        if isinstance(shape_of, b.VectorType):
            if shape_of.get_num_scalable_dims():
                raise ApproxError("scalable vectors")
            self.shape: tuple[int, ...] | None = tuple(shape_of.get_shape())
        else:
            self.shape = None

    # ------------------------------------------------------------------ types
    def like(self, elem: Attribute) -> Attribute:
        return b.VectorType(elem, self.shape) if self.shape is not None else elem

    # ------------------------------------------------------------------ ops
    def op(self, name: str, operands, result_type: Attribute, props=None) -> SSAValue:
        new = self.ctx.get_op(name).create(operands=[SSAValue.get(o) for o in operands],
                                           result_types=[result_type],
                                           properties=dict(props or {}))
        new.location = self.anchor.location
        self.anchor.parent_block().insert_op_before(new, self.anchor)
        self.created.append(new)
        return new.results[0]

    def same(self, name: str, *operands, props=None) -> SSAValue:
        """An op whose result has its first operand's type."""
        return self.op(name, operands, SSAValue.get(operands[0]).type, props)

    # ------------------------------------------------------------- constants
    def const(self, value: float | int, elem: Attribute = F32) -> SSAValue:
        """A constant of `elem` (splat over the shape), rounded as LLVM 22 rounds it."""
        if isinstance(elem, b.IntegerType):
            v: float | int = int(value)
            scalar: Attribute = b.IntegerAttr(v, elem)
        else:
            v = round_to(float(value), elem)
            scalar = b.FloatAttr(v, elem)
        if self.shape is None:
            return self.op("arith.constant", [], elem, {"value": scalar})
        t = self.like(elem)
        return self.op("arith.constant", [], t,
                       {"value": b.DenseIntOrFPElementsAttr.from_list(t, [v])})

    def f32(self, value: float) -> SSAValue:
        return self.const(value, F32)

    def i32(self, value: int) -> SSAValue:
        return self.const(value, I32)

    def bits(self, pattern: int) -> SSAValue:
        """`f32FromBits`: an f32 constant of that bit pattern (i32 constant + bitcast, folded)."""
        return self.const(f32_bits(pattern), F32)

    def true(self) -> SSAValue:
        return self.const(1, I1)

    # ------------------------------------------------------------- arith/math
    def add(self, x, y):
        return self.same("arith.addf", x, y)

    def sub(self, x, y):
        return self.same("arith.subf", x, y)

    def mul(self, x, y):
        return self.same("arith.mulf", x, y)

    def div(self, x, y):
        return self.same("arith.divf", x, y)

    def neg(self, x):
        return self.same("arith.negf", x)

    def fma(self, x, y, z):
        return self.same("math.fma", x, y, z)

    def abs(self, x):
        return self.same("math.absf", x)

    def floor(self, x):
        return self.same("math.floor", x)

    def sqrt(self, x):
        return self.same("math.sqrt", x)

    def copysign(self, x, y):
        return self.same("math.copysign", x, y)

    def math(self, name: str, *operands):
        """Another math op (rewritten in turn by the driver, as the greedy driver does)."""
        return self.same(name, *operands)

    def select(self, c, x, y):
        return self.op("arith.select", [c, x, y], SSAValue.get(x).type)

    def cmpf(self, predicate: str, x, y):
        from xdsl.dialects.arith import CMPF_COMPARISON_OPERATIONS

        pred = b.IntegerAttr(list(CMPF_COMPARISON_OPERATIONS).index(predicate), 64)
        return self.op("arith.cmpf", [x, y], self.like(I1), {"predicate": pred})

    def cmpi(self, predicate: str, x, y):
        from xdsl.dialects.arith import CMPI_COMPARISON_OPERATIONS

        pred = b.IntegerAttr(list(CMPI_COMPARISON_OPERATIONS).index(predicate), 64)
        return self.op("arith.cmpi", [x, y], self.like(I1), {"predicate": pred})

    def andi(self, x, y):
        return self.same("arith.andi", x, y)

    def ori(self, x, y):
        return self.same("arith.ori", x, y)

    def xori(self, x, y):
        return self.same("arith.xori", x, y)

    def addi(self, x, y):
        return self.same("arith.addi", x, y)

    def shli(self, x, y):
        return self.same("arith.shli", x, y)

    def shrui(self, x, y):
        return self.same("arith.shrui", x, y)

    def shrsi(self, x, y):
        return self.same("arith.shrsi", x, y)

    def bitcast(self, x, elem: Attribute):
        return self.op("arith.bitcast", [x], self.like(elem))

    def sitofp(self, x):
        return self.op("arith.sitofp", [x], self.like(F32))

    def fptosi(self, x):
        return self.op("arith.fptosi", [x], self.like(I32))

    # ------------------------------------------------------------- helpers
    def min(self, value, bound):
        """`value` or `bound`, whichever is smaller; NaN stays NaN (ULT)."""
        return self.select(self.cmpf("ult", value, bound), value, bound)

    def max(self, value, bound):
        return self.select(self.cmpf("ugt", value, bound), value, bound)

    def clamp(self, value, low, high):
        return self.max(self.min(value, high), low)

    def frexp(self, x, positive: bool = False):
        """(fraction in [0.5, 1), exponent) of f32 `x`, both f32 (std::frexp by bits)."""
        cst126 = self.f32(126.0)
        bits_x = self.bitcast(x, I32)
        inv_mant = self.i32(~0x7F800000)  # bitcast of the f32 constant of those bits
        half_bits = self.i32(0x3F000000)  # bitcast of 0.5f
        fraction = self.bitcast(self.ori(self.andi(bits_x, inv_mant), half_bits), F32)
        x0 = x if positive else self.abs(x)
        biased = self.shrui(self.bitcast(x0, I32), self.i32(23))
        exponent = self.sub(self.sitofp(biased), cst126)
        return fraction, exponent

    def exp2_i32(self, n):
        """2**n for i32 `n` by building the f32 bits ((n + 127) << 23)."""
        return self.bitcast(self.shli(self.addi(n, self.i32(127)), self.i32(23)), F32)

    def polynomial(self, coeffs: list, x):
        """c0 + x*(c1 + x*(...)) by fma, highest degree first (`makePolynomialCalculation`)."""
        if not coeffs:
            return self.const(0.0, element_type(SSAValue.get(x).type))
        if len(coeffs) == 1:
            return coeffs[0]
        res = self.fma(x, coeffs[-1], coeffs[-2])
        for c in reversed(coeffs[:-2]):
            res = self.fma(x, res, c)
        return res
