"""erf, erfc, cbrt and rsqrt as LLVM 22's PolynomialApproximation.cpp computes them.

* erf (f32; f16 natively, but the f32 expansion wins for f16): a + P(x)/Q(x)
  with degree-4 P and Q chosen among three intervals of |x| (bounds 0.8, 2,
  3.75), 1 beyond, odd by symmetry;
* erfc (f32): the vectorizable erfcf of the stackoverflow answer upstream
  cites: a degree-9 polynomial in (|x|-2)/(|x|+2), times exp(-x^2) with a
  correction term; 0 above 10.0546875, 2 - r for x < 0;
* cbrt (f32): Hacker's Delight: an integer estimate of the bits, two Newton
  steps, zero kept and the sign restored;
* rsqrt (f32 vectors whose last dimension is a multiple of 8, only with
  `enable-avx2`): `x86vector.avx.rsqrt` on each 8-lane slice, one Newton step
  for positive normal inputs, the raw estimate otherwise.
"""

from __future__ import annotations

from xdsl.dialects import builtin as b

from runner_core.passes.math_approx_builder import F32, I32, ApproxBuilder, element_type

_ERF_P = ((+0.00000000000000000e+00, +1.12837916222975858e+00, -5.23018562988006470e-01,
           +2.09741709609267072e-01, +2.58146801602987875e-02),
          (+0.00000000000000000e+00, +1.12750687816789140e+00, -3.64721408487825775e-01,
           +1.18407396425136952e-01, +3.70645533056476558e-02),
          (-3.30093071049483172e-03, +3.51961938357697011e-03, -1.41373622814988039e-03,
           +2.53447094961941348e-04, -1.71048029455037401e-05))
_ERF_Q = ((+1.000000000000000000e+00, -4.635138185962547255e-01, +5.192301327279782447e-01,
           -1.318089722204810087e-01, +7.397964654672315005e-02),
          (+1.00000000000000000e+00, -3.27607011824493086e-01, +4.48369090658821977e-01,
           -8.83462621207857930e-02, +5.72442770283176093e-02),
          (+1.00000000000000000e+00, -2.06069165953913769e+00, +1.62705939945477759e+00,
           -5.83389859211130017e-01, +8.21908939856640930e-02))
_ERF_OFFSETS = (0.0, 0.0, 1.0)
_ERF_BOUNDS = (0.8, 2.0, 3.75)


def erf(bb: ApproxBuilder, operand):
    et = element_type(operand.type)

    def c(v):
        return bb.const(v, et)

    zero, one = c(0.0), c(1.0)
    pp = [[c(v) for v in row] for row in _ERF_P]
    qq = [[c(v) for v in row] for row in _ERF_Q]
    offsets = [c(v) for v in _ERF_OFFSETS]
    bounds = [c(v) for v in _ERF_BOUNDS]
    is_negative = bb.cmpf("olt", operand, zero)
    x = bb.select(is_negative, bb.neg(operand), operand)
    offset = offsets[0]
    p, q = list(pp[0]), list(qq[0])
    for j in range(len(bounds) - 1):
        below = bb.cmpf("olt", x, bounds[j])
        for i in range(len(p)):
            p[i] = bb.select(below, p[i], pp[j + 1][i])
            q[i] = bb.select(below, q[i], qq[j + 1][i])
        offset = bb.select(below, offset, offsets[j + 1])
    below_last = bb.cmpf("ult", x, bounds[-1])
    formula = bb.add(offset, bb.div(bb.polynomial(p, x), bb.polynomial(q, x)))
    formula = bb.select(below_last, formula, one)
    return bb.select(is_negative, bb.neg(formula), formula)


# C hex-float literals (upstream writes them as floats), read exactly.
_ERFC_P0 = float.fromhex("-0x1.a4a000p-12")
_ERFC_P = tuple(float.fromhex(h) for h in (
    "-0x1.42a260p-10", "0x1.585714p-10", "0x1.1adcc4p-07", "-0x1.081b82p-07",
    "-0x1.bc0b6ap-05", "0x1.4ffc46p-03", "-0x1.540840p-03", "-0x1.7bf616p-04",
    "0x1.1ba03ap-02"))


def erfc(bb: ApproxBuilder, x):
    true = bb.true()
    zero, one, onehalf = bb.f32(0.0), bb.f32(1.0), bb.f32(0.5)
    neg4, neg2, pos2 = bb.f32(-4.0), bb.f32(-2.0), bb.f32(2.0)
    pos_inf = bb.bits(0x7F800000)
    clamp_val = bb.f32(10.0546875)
    a = bb.select(bb.cmpf("olt", x, zero), bb.neg(x), x)
    p = bb.add(a, pos2)
    r = bb.div(one, p)
    q = bb.fma(neg4, r, one)
    t = bb.fma(bb.add(q, one), neg2, a)
    e = bb.fma(bb.neg(a), q, t)
    q = bb.fma(r, e, q)
    p = bb.f32(_ERFC_P0)
    for coeff in _ERFC_P:
        p = bb.fma(p, q, bb.f32(coeff))
    d = bb.fma(pos2, a, one)
    r = bb.div(one, d)
    q = bb.fma(p, r, r)
    fmaqah = bb.fma(q, bb.neg(a), onehalf)
    e = bb.fma(fmaqah, pos2, bb.sub(p, q))
    r = bb.fma(e, r, q)
    s = bb.mul(a, a)
    e = bb.math("math.exp", bb.neg(s))
    t = bb.fma(bb.neg(a), a, s)
    r = bb.fma(r, e, bb.mul(bb.mul(r, e), t))
    not_less_than_inf = bb.xori(bb.cmpf("olt", a, pos_inf), true)
    r = bb.select(not_less_than_inf, bb.add(x, x), r)
    r = bb.select(bb.cmpf("ogt", a, clamp_val), zero, r)
    return bb.select(bb.cmpf("olt", x, zero), bb.sub(pos2, r), r)


def cbrt(bb: ApproxBuilder, operand):
    two, four, eight = bb.i32(2), bb.i32(4), bb.i32(8)
    magic = bb.i32(0x2A5137A0)
    third, fp_two, fp_zero = bb.f32(0.33333333), bb.f32(2.0), bb.f32(0.0)
    abs_value = bb.abs(operand)
    iv = bb.bitcast(abs_value, I32)
    iv = bb.addi(bb.shrsi(iv, two), bb.shrsi(iv, four))
    iv = bb.addi(iv, bb.shrsi(iv, four))
    iv = bb.addi(iv, bb.shrsi(iv, eight))
    iv = bb.addi(iv, magic)
    fv = bb.bitcast(iv, F32)
    for _ in range(2):
        squared = bb.mul(fv, fv)
        mul_two = bb.mul(fv, fp_two)
        fv = bb.mul(bb.add(mul_two, bb.div(abs_value, squared)), third)
    fv = bb.select(bb.cmpf("oeq", abs_value, fp_zero), fp_zero, fv)
    return bb.copysign(fv, operand)


def rsqrt_applies(t) -> bool:
    """Only vectors whose last dimension is a multiple of 8 (already vectorized code)."""
    return isinstance(t, b.VectorType) and bool(t.get_shape()) and t.get_shape()[-1] % 8 == 0


def rsqrt(bb: ApproxBuilder, x):
    pos_inf, one_point_five = bb.bits(0x7F800000), bb.f32(1.5)
    neg_half_c, min_norm_pos = bb.f32(-0.5), bb.bits(0x00800000)
    neg_half = bb.mul(x, neg_half_c)
    lt_min = bb.cmpf("olt", x, min_norm_pos)
    is_inf = bb.cmpf("oeq", x, pos_inf)
    not_normal_finite = bb.ori(lt_min, is_inf)
    approx = _per_8_lanes(bb, x, lambda v: bb.op("x86vector.avx.rsqrt", [v], v.type))
    inner = bb.mul(neg_half, approx)
    newton = bb.mul(approx, bb.fma(approx, inner, one_point_five))
    return bb.select(not_normal_finite, approx, newton)


def _per_8_lanes(bb: ApproxBuilder, value, compute):
    """`handleMultidimensionalVectors` with width 8: shape_cast to [..., n/8, 8], compute
    each 8-lane vector, insert back into a zero vector, shape_cast back."""
    t = value.type
    shape = list(t.get_shape())
    if shape == [8]:
        return compute(value)
    expanded = shape[:-1] + ([shape[-1] // 8, 8] if shape[-1] > 8 else [8])
    ex_t = b.VectorType(F32, expanded)
    source = bb.op("vector.shape_cast", [value], ex_t) if expanded != shape else value
    outer = expanded[:-1]
    v8 = b.VectorType(F32, [8])
    count = 1
    for d in outer:
        count *= d
    positions = []
    for i in range(count):
        pos, rest = [], i
        for d in reversed(outer):
            pos.append(rest % d)
            rest //= d
        positions.append(list(reversed(pos)))
    results = []
    for pos in positions:
        part = bb.op("vector.extract", [source], v8,
                     {"static_position": b.DenseArrayBase.from_list(b.i64, pos)})
        results.append(compute(part))
    acc = bb.op("arith.constant", [], ex_t,
                {"value": b.DenseIntOrFPElementsAttr.from_list(ex_t, [0.0])})
    for pos, part in zip(positions, results, strict=True):
        acc = bb.op("vector.insert", [part, acc], ex_t,
                    {"static_position": b.DenseArrayBase.from_list(b.i64, pos)})
    return bb.op("vector.shape_cast", [acc], t) if expanded != shape else acc
