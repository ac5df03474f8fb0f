"""``test-math-polynomial-approximation``: math ops rewritten into LLVM 22's approximations.

Upstream's test pass applies `populateMathPolynomialApproximationPatterns`
with the greedy driver.  The approximations change the values a program
prints (they are not libm's), so the pass really rewrites the IR here:

* atan, atan2, tanh, log, log2, log1p, erf, erfc, exp, expm1, cbrt, sin, cos
  on f32 (scalars and vectors) become arith / math.fma / math.floor / ... code
  (``math_approx_*`` modules, one per family); asin and acos on f32 and f16;
* the same ops on a float type narrower than f32 (f16, bf16) are computed in
  f32 between `arith.extf` and `arith.truncf` (asin / acos on f16 stay native,
  as upstream's pattern order makes them);
* ``enable-avx2`` adds rsqrt on f32 vectors whose last dimension is a multiple
  of 8: `x86vector.avx.rsqrt` plus a Newton step;
* math ops the expansions create (log inside log1p and expm1, exp inside
  expm1 and erfc, atan inside atan2, asin inside acos) are rewritten in turn;
* what the greedy driver does before any pattern: an unused math op is erased,
  one whose operands are all constants is folded here with the C library as upstream's folders
  do (``math_const_fold``), so it keeps libm's value and no op is left behind.

Everything else (f64, other math ops, rsqrt without the option) is left for
the later lowering, where the legality model judges it as LLVM 22 would.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Operation, SSAValue

from runner_core.passes import math_approx_exp_log as el
from runner_core.passes import math_approx_misc as mi
from runner_core.passes import math_approx_trig as tr
from runner_core.passes.base import PassError, PassInfo
from runner_core.passes.math_approx_builder import F32, ApproxBuilder, ApproxError, element_type
from runner_core.passes.math_const_fold import fold_constant_op

_F16 = b.Float16Type()

# op name -> (builder function, element types it rewrites natively).
_APPROXIMATIONS = {
    "math.atan": (tr.atan, (F32,)), "math.atan2": (tr.atan2, (F32,)),
    "math.tanh": (tr.tanh, (F32,)), "math.log": (el.log, (F32,)),
    "math.log2": (el.log2, (F32,)), "math.log1p": (el.log1p, (F32,)),
    "math.erf": (mi.erf, (F32, _F16)), "math.erfc": (mi.erfc, (F32,)),
    "math.asin": (tr.asin, (F32, _F16)), "math.acos": (tr.acos, (F32, _F16)),
    "math.exp": (el.exp, (F32,)), "math.expm1": (el.expm1, (F32,)),
    "math.cbrt": (mi.cbrt, (F32,)), "math.sin": (tr.sin, (F32,)),
    "math.cos": (tr.cos, (F32,)),
}
# Ops whose narrower float forms are computed in f32 (populateMathF32ExpansionPatterns).
_F32_EXPANDED = frozenset({
    "math.atan", "math.atan2", "math.tanh", "math.log", "math.log2", "math.log1p",
    "math.erf", "math.erfc", "math.exp", "math.expm1", "math.cbrt", "math.sin", "math.cos",
})


def _parse_bool(name: str, value: str) -> bool:
    v = value.strip().lower()
    if v in ("", "true", "1"):
        return True
    if v in ("false", "0"):
        return False
    raise ValueError(f"option '{name}' takes true or false, not {value!r}")


class MathPolynomialApproximationPass:
    name = "test-math-polynomial-approximation"

    def __init__(self, enable_avx2: str = "false"):
        self.avx2 = _parse_bool("enable-avx2", enable_avx2)
        self.approximations = dict(_APPROXIMATIONS)
        self.f32_expanded = set(_F32_EXPANDED)
        if self.avx2:
            self.approximations["math.rsqrt"] = (mi.rsqrt, (F32,))
            self.f32_expanded.add("math.rsqrt")

    def run(self, root: Operation, ctx: Context) -> None:
        handled = set(self.approximations) | self.f32_expanded
        worklist = [op for op in root.walk() if op.name in handled]
        while worklist:
            op = worklist.pop()
            if op.parent is None:
                continue
            if not any(r.uses for r in op.results):  # trivially dead: the driver erases it
                op.detach()
                op.erase()
                continue
            if fold_constant_op(op, ctx):
                continue
            created: list[Operation] = []
            try:
                value = self._rewrite(op, ctx, created)
            except ApproxError as e:
                from runner_core.ir.parse import op_location

                loc = op_location(op)
                where = f"{loc}: " if loc else ""
                raise PassError(f"{where}error: unsupported by the embedded runner: "
                                f"'{op.name}' on {e} in {self.name}; run with "
                                f"--gpurunner-tools=system to use real LLVM tools") from None
            if value is None:
                continue
            op.results[0].replace_all_uses_with(value)
            op.detach()
            op.erase()
            worklist.extend(o for o in created if o.name in handled)

    def _rewrite(self, op: Operation, ctx: Context, created: list[Operation]):
        if len(op.results) != 1:
            return None
        rt = op.results[0].type
        et = element_type(rt)
        if op.name in self.f32_expanded and _narrow_float(et) and \
                all(v.type == rt for v in op.operands):
            return _in_f32(op, ctx, created)
        entry = self.approximations.get(op.name)
        if entry is None:
            return None
        build, types = entry
        if element_type(op.operands[-1].type) not in types:
            return None
        if op.name == "math.rsqrt" and not mi.rsqrt_applies(op.operands[0].type):
            return None
        bb = ApproxBuilder(ctx, op, rt, created)
        return build(bb, *op.operands)


def _narrow_float(t) -> bool:
    return isinstance(t, b.AnyFloat) and t != F32 and t.bitwidth < 32


def _in_f32(op: Operation, ctx: Context, created: list[Operation]) -> SSAValue:
    """`ReuseF32Expansion`: extf the operands, the same op on f32, truncf the result."""
    rt = op.results[0].type
    wide = b.VectorType(F32, rt.get_shape(), rt.scalable_dims) \
        if isinstance(rt, b.VectorType) else F32
    block = op.parent_block()

    def make(name, operands, result_type, props=None):
        new = ctx.get_op(name).create(operands=list(operands), result_types=[result_type],
                                      properties=dict(props or {}),
                                      attributes=dict(op.attributes) if name == op.name else {})
        new.location = op.location
        block.insert_op_before(new, op)
        created.append(new)
        return new

    exts = [make("arith.extf", [v], wide).results[0] for v in op.operands]
    inner = make(op.name, exts, wide, op.properties)
    return make("arith.truncf", [inner.results[0]], rt).results[0]


PASS = PassInfo(
    "test-math-polynomial-approximation", MathPolynomialApproximationPass,
    summary="rewrite math ops into LLVM 22's polynomial approximations (its test pass)",
    options=frozenset({"enable-avx2"}))
