"""Exponentials and logarithms as LLVM 22's PolynomialApproximation.cpp computes them (f32).

* exp: Cephes; n = floor(x*log2(e) + 0.5) clamped to [-127, 127], a = x - n*ln2
  in two parts, a degree-5 polynomial for e^a, times 2^n built from bits
  (so results below 2^-126 are 0 and x is first clamped to [-87.8, 88.8]);
* expm1: exp(x) - 1, corrected by x / log(exp(x)) (Kahan), exact near 0;
* log / log2: Cephes after Julien Pommier's SSE library: frexp, a shift to
  [sqrt(1/2), sqrt(2)), a degree-8 polynomial in three parts; 0 -> -inf,
  x < 0 (or NaN) -> NaN, +inf -> +inf;
* log1p: x * log(u) / (u - 1) with u = 1 + x (Kahan), x where u is 1 or inf.

Each function takes the builder and the op's operand and returns the value
that replaces the op.
"""

from __future__ import annotations

from runner_core.passes.math_approx_builder import I32, ApproxBuilder

LN2 = 0.693147180559945309417232121458176568075500134360255254120680009493393621
LOG2E = 1.442695040888963407359924681001892137426645954152985934135449406931109219


def _clamp_with_normals(bb: ApproxBuilder, value, low: float, high: float):
    """UGE / ULE selects (vmaxps / vminps on x86), as upstream's clampWithNormals."""
    lo = bb.f32(low)
    value = bb.select(bb.cmpf("uge", value, lo), value, lo)
    hi = bb.f32(high)
    return bb.select(bb.cmpf("ule", value, hi), value, hi)


def exp(bb: ApproxBuilder, x):
    half, one = bb.f32(0.5), bb.f32(1.0)
    log2ef = bb.f32(1.44269504088896341)
    c1, c2 = bb.f32(-0.693359375), bb.f32(2.12194440e-4)
    p = [bb.f32(v) for v in (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3,
                             4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1)]
    x = _clamp_with_normals(bb, x, -87.8, 88.8)
    n = bb.floor(bb.fma(x, log2ef, half))
    n = _clamp_with_normals(bb, n, -127.0, 127.0)
    x = bb.fma(c1, n, x)
    x = bb.fma(c2, n, x)
    z = bb.fma(x, p[0], p[1])
    for c in p[2:]:
        z = bb.fma(z, x, c)
    z = bb.fma(z, bb.mul(x, x), x)
    z = bb.add(one, z)
    n_i32 = bb.op("arith.fptosi", [n], bb.like(I32))
    return bb.mul(z, bb.exp2_i32(n_i32))


def expm1(bb: ApproxBuilder, x):
    one, neg_one = bb.f32(1.0), bb.f32(-1.0)
    u = bb.math("math.exp", x)
    u_eq_one_or_nan = bb.cmpf("ueq", u, one)
    u_minus_one = bb.sub(u, one)
    u_minus_one_eq_neg_one = bb.cmpf("oeq", u_minus_one, neg_one)
    log_u = bb.math("math.log", u)
    is_inf = bb.cmpf("oeq", log_u, u)
    r = bb.mul(u_minus_one, bb.div(x, log_u))
    r = bb.select(is_inf, u, r)
    return bb.select(u_eq_one_or_nan, x, bb.select(u_minus_one_eq_neg_one, neg_one, r))


_LOG_P = (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
          +1.4249322787e-1, -1.6668057665e-1, +2.0000714765e-1, -2.4999993993e-1,
          +3.3333331174e-1)


def _log(bb: ApproxBuilder, operand, base2: bool):
    zero, one, neg_half = bb.f32(0.0), bb.f32(1.0), bb.f32(-0.5)
    min_norm_pos = bb.bits(0x00800000)
    minus_inf, pos_inf, nan = bb.bits(0xFF800000), bb.bits(0x7F800000), bb.bits(0x7FC00000)
    sqrthf = bb.f32(0.707106781186547524)
    p = [bb.f32(v) for v in _LOG_P]

    x = bb.max(operand, min_norm_pos)
    x, e = bb.frexp(x, positive=True)
    mask = bb.cmpf("olt", x, sqrthf)
    tmp = bb.select(mask, x, zero)
    x = bb.sub(x, one)
    e = bb.sub(e, bb.select(mask, one, zero))
    x = bb.add(x, tmp)
    x2 = bb.mul(x, x)
    x3 = bb.mul(x2, x)
    y0 = bb.fma(p[0], x, p[1])
    y1 = bb.fma(p[3], x, p[4])
    y2 = bb.fma(p[6], x, p[7])
    y0 = bb.fma(y0, x, p[2])
    y1 = bb.fma(y1, x, p[5])
    y2 = bb.fma(y2, x, p[8])
    y0 = bb.fma(y0, x3, y1)
    y0 = bb.fma(y0, x3, y2)
    y0 = bb.mul(y0, x3)
    y0 = bb.fma(neg_half, x2, y0)
    x = bb.add(x, y0)
    if base2:
        x = bb.fma(x, bb.f32(LOG2E), e)
    else:
        x = bb.fma(e, bb.f32(LN2), x)
    invalid = bb.cmpf("ult", operand, zero)
    is_zero = bb.cmpf("oeq", operand, zero)
    is_pos_inf = bb.cmpf("oeq", operand, pos_inf)
    return bb.select(is_zero, minus_inf,
                     bb.select(invalid, nan, bb.select(is_pos_inf, pos_inf, x)))


def log(bb: ApproxBuilder, x):
    return _log(bb, x, base2=False)


def log2(bb: ApproxBuilder, x):
    return _log(bb, x, base2=True)


def log1p(bb: ApproxBuilder, x):
    one = bb.f32(1.0)
    u = bb.add(x, one)
    u_small = bb.cmpf("oeq", u, one)
    log_u = bb.math("math.log", u)
    u_inf = bb.cmpf("oeq", u, log_u)
    log_large = bb.mul(x, bb.div(log_u, bb.sub(u, one)))
    return bb.select(bb.ori(u_small, u_inf), x, log_large)
