"""Trigonometric and hyperbolic approximations of LLVM 22's PolynomialApproximation.cpp.

* tanh (f32): x clamped to +-7.9988, a rational odd/even polynomial (degrees
  13/6) in x^2; |x| < 0.0004 returns x;
* atan (f32): Cephes' rational approximation after mapping |x| to [0, 0.66]
  (x, (x-1)/(x+1) above 0.66, -1/x above tan(3pi/8)), sign by copysign;
* atan2 (f32): atan(y/x) corrected by +-pi by quadrant, +-pi/2 on x = 0, NaN
  for (0, 0);
* asin / acos (f32 and f16 natively): the polynomial of the stackoverflow
  answer upstream cites, sqrt(1 - x^2) above |x|^2 > 0.5; acos through asin;
* sin / cos (f32): k = floor(x * 2/pi) (no Cody-Waite split), y = x - k*pi/2,
  sin or cos polynomial of y chosen by k mod 4, negated for half the range.
"""

from __future__ import annotations

import math

from runner_core.passes.math_approx_builder import ApproxBuilder, element_type

TWO_OVER_PI = 0.6366197723675813430755350534900574481378385829618257949906693762
PI_OVER_2 = 1.5707963267948966192313216916397514420985846996875529104874722961


def tanh(bb: ApproxBuilder, operand):
    x = bb.clamp(operand, bb.f32(-7.99881172180175781), bb.f32(7.99881172180175781))
    tiny_mask = bb.cmpf("olt", bb.abs(operand), bb.f32(0.0004))
    alpha = [bb.f32(v) for v in (4.89352455891786e-03, 6.37261928875436e-04,
                                 1.48572235717979e-05, 5.12229709037114e-08,
                                 -8.60467152213735e-11, 2.00018790482477e-13,
                                 -2.76076847742355e-16)]
    beta = [bb.f32(v) for v in (4.89352518554385e-03, 2.26843463243900e-03,
                                1.18534705686654e-04, 1.19825839466702e-06)]
    x2 = bb.mul(x, x)
    p = bb.fma(x2, alpha[6], alpha[5])
    for c in reversed(alpha[:5]):
        p = bb.fma(x2, p, c)
    p = bb.mul(x, p)
    q = bb.fma(x2, beta[3], beta[2])
    q = bb.fma(x2, q, beta[1])
    q = bb.fma(x2, q, beta[0])
    return bb.select(tiny_mask, x, bb.div(p, q))


_ATAN_P = (-8.750608600031904122785e-01, -1.615753718733365076637e+01,
           -7.500855792314704667340e+01, -1.228866684490136173410e+02,
           -6.485021904942025371773e+01)
_ATAN_Q = (+2.485846490142306297962e+01, +1.650270098316988542046e+02,
           +4.328810604912902668951e+02, +4.853903996359136964868e+02,
           +1.945506571482613964425e+02)


def atan(bb: ApproxBuilder, operand):
    abs_x = bb.abs(operand)
    one = bb.f32(1.0)
    cmp2 = bb.cmpf("ogt", abs_x, bb.f32(0.66))
    addone = bb.add(abs_x, one)
    subone = bb.sub(abs_x, one)
    xnum = bb.select(cmp2, subone, abs_x)
    xden = bb.select(cmp2, addone, one)
    cmp1 = bb.cmpf("ogt", abs_x, bb.f32(2.41421356237309504880))
    xnum = bb.select(cmp1, one, xnum)
    xden = bb.select(cmp1, abs_x, xden)
    x = bb.div(xnum, xden)
    xx = bb.mul(x, x)
    p = [bb.f32(v) for v in _ATAN_P]
    q = [bb.f32(v) for v in _ATAN_Q]
    n = p[0]
    for c in p[1:]:
        n = bb.fma(xx, n, c)
    n = bb.mul(n, xx)
    d = q[0]
    for c in q[1:]:
        d = bb.fma(xx, d, c)
    ans0 = bb.div(n, d)
    ans0 = bb.fma(ans0, x, x)
    ans = bb.select(cmp2, bb.add(bb.f32(math.pi / 4), ans0), ans0)
    ans = bb.select(cmp1, bb.sub(bb.f32(math.pi / 2), ans0), ans)
    return bb.copysign(ans, operand)


def atan2(bb: ApproxBuilder, y, x):
    at = bb.math("math.atan", bb.div(y, x))
    zero, pi = bb.f32(0.0), bb.f32(3.14159265359)
    add_pi = bb.add(at, pi)
    sub_pi = bb.sub(at, pi)
    flipped = bb.select(bb.cmpf("ogt", at, zero), sub_pi, add_pi)
    result = bb.select(bb.cmpf("ogt", x, zero), at, flipped)
    x_zero = bb.cmpf("oeq", x, zero)
    is_half_pi = bb.andi(x_zero, bb.cmpf("ogt", y, zero))
    result = bb.select(is_half_pi, bb.f32(1.57079632679), result)
    is_neg_half_pi = bb.andi(x_zero, bb.cmpf("olt", y, zero))
    result = bb.select(is_neg_half_pi, bb.f32(-1.57079632679), result)
    is_nan = bb.andi(x_zero, bb.cmpf("oeq", y, zero))
    return bb.select(is_nan, bb.bits(0x7FC00000), result)


_ASIN_R = (5.4224464349245036e-2, 1.5268872539397656e-2, 1.4106045900607047e-2,
           2.2372961589651054e-2, 4.4642857881094775e-2)
_ASIN_T = (-1.1326992890324464e-2, 1.0493798473372081e-2, 1.7339776384962050e-2,
           3.0381912707941005e-2, 7.4999999991367292e-2)


def asin(bb: ApproxBuilder, operand):
    et = element_type(operand.type)

    def c(v):
        return bb.const(v, et)

    abso = bb.abs(operand)
    aa = bb.mul(operand, operand)
    opp = bb.sqrt(bb.sub(c(1.0), aa))
    gt = bb.cmpf("ogt", aa, c(0.5))
    x = bb.select(gt, opp, abso)
    s = bb.mul(x, x)
    q = bb.mul(s, s)
    r, t = c(5.5579749017470502e-2), c(-6.2027913464120114e-2)
    for rc, tc in zip(_ASIN_R, _ASIN_T, strict=True):
        r = bb.fma(r, q, c(rc))
        t = bb.fma(t, q, c(tc))
    r = bb.fma(r, s, t)
    r = bb.fma(r, s, c(1.6666666666670193e-1))
    t = bb.mul(x, s)
    r = bb.fma(r, t, x)
    rsub = bb.sub(c(1.57079632679), r)
    r = bb.select(gt, rsub, r)
    return bb.copysign(r, operand)


def acos(bb: ApproxBuilder, operand):
    et = element_type(operand.type)

    def c(v):
        return bb.const(v, et)

    neg_operand = bb.neg(operand)
    zero, half, neg_one = c(0.0), c(0.5), c(-1.0)
    sel_r = bb.cmpf("ogt", operand, zero)
    r = bb.select(sel_r, neg_operand, operand)
    first = bb.cmpf("ogt", r, c(-0.5625))
    true_val = bb.fma(c(9.3282184640716537e-1), c(1.6839188885261840e+0),
                      bb.math("math.asin", r))
    false_val = bb.sqrt(bb.fma(half, r, half))
    false_val = bb.math("math.asin", false_val)
    false_val = bb.mul(c(2.0), false_val)
    r = bb.select(first, true_val, false_val)
    between = bb.andi(bb.cmpf("oge", operand, neg_one), bb.cmpf("olt", operand, zero))
    true_val = bb.fma(c(1.8656436928143307e+0), c(1.6839188885261840e+0), bb.neg(r))
    return bb.select(between, true_val, r)


_SIN = (-0.16666667163372039794921875, 8.333347737789154052734375e-3,
        -1.9842604524455964565277099609375e-4, 2.760012648650445044040679931640625e-6,
        -2.50293279435709337121807038784027099609375e-8)
_COS = (-0.5, 4.166664183139801025390625e-2, -1.388833043165504932403564453125e-3,
        2.47562347794882953166961669921875e-5, -2.59630184018533327616751194000244140625e-7)


def _sin_cos(bb: ApproxBuilder, x, is_sine: bool):
    two_over_pi, pi_over_2 = bb.f32(TWO_OVER_PI), bb.f32(PI_OVER_2)
    k = bb.floor(bb.mul(x, two_over_pi))
    y = bb.sub(x, bb.mul(k, pi_over_2))
    one, neg_one = bb.f32(1.0), bb.f32(-1.0)
    sc = [bb.f32(v) for v in _SIN]
    cc = [bb.f32(v) for v in _COS]
    k_mod4 = bb.andi(bb.fptosi(k), bb.i32(3))
    kr = [bb.cmpi("eq", k_mod4, bb.i32(i)) for i in range(4)]
    if is_sine:
        use_cos = bb.ori(kr[1], kr[3])
        negative = bb.cmpi("sgt", k_mod4, bb.i32(1))
    else:
        use_cos = bb.ori(kr[0], kr[2])
        negative = bb.ori(kr[1], kr[2])
    y2 = bb.mul(y, y)
    base = bb.select(use_cos, one, y)
    c2, c4, c6, c8, c10 = (bb.select(use_cos, cv, sv) for cv, sv in zip(cc, sc, strict=True))
    v = bb.fma(y2, c10, c8)
    v = bb.fma(y2, v, c6)
    v = bb.fma(y2, v, c4)
    v = bb.fma(y2, v, c2)
    v = bb.fma(y2, v, one)
    v = bb.mul(base, v)
    return bb.select(negative, bb.mul(neg_one, v), v)


def sin(bb: ApproxBuilder, x):
    return _sin_cos(bb, x, True)


def cos(bb: ApproxBuilder, x):
    return _sin_cos(bb, x, False)
