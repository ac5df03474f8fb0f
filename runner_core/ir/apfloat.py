"""LLVM APFloat's small and unusual float formats: bits <-> values, exact arithmetic.

MLIR 22's ``convert-arith-to-apfloat`` turns arithmetic on any float type into
calls of ``_mlir_apfloat_*(semantics, bits...)``, which run llvm::APFloat.
Each result here is computed exactly (rationals) and rounded once to nearest,
ties to even, as APFloat does; the formats differ in what lies beyond the
finite range:

* ``ieee``: infinities and NaNs in the all-ones exponent (f16, f8E5M2, ...);
* ``fn``: no infinity, the all-ones pattern (sign aside) is NaN (f8E4M3FN);
  an overflowing result is NaN;
* ``fnuz``: no infinity and no negative zero, NaN is the sign bit alone;
* ``finite``: neither (f4E2M1FN, f6*): an overflowing result saturates.

``SEMANTICS_ID`` is llvm::APFloatBase::Semantics, the integer the calls carry.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Format:
    name: str
    bits: int
    exp_bits: int
    man_bits: int
    bias: int
    kind: str  # ieee / fn / fnuz / finite

    @property
    def emin(self) -> int:
        return 1 - self.bias

    @property
    def max_finite(self) -> Fraction:
        top = (1 << self.exp_bits) - (2 if self.kind == "ieee" else 1)
        man = (1 << self.man_bits) - (2 if self.kind == "fn" else 1)
        return Fraction((1 << self.man_bits) + man, 1 << self.man_bits) * \
            Fraction(2) ** (top - self.bias)


FORMATS = {f.name: f for f in (
    Format("f16", 16, 5, 10, 15, "ieee"), Format("bf16", 16, 8, 7, 127, "ieee"),
    Format("f32", 32, 8, 23, 127, "ieee"), Format("f64", 64, 11, 52, 1023, "ieee"),
    Format("tf32", 19, 8, 10, 127, "ieee"),
    Format("f8E5M2", 8, 5, 2, 15, "ieee"), Format("f8E5M2FNUZ", 8, 5, 2, 16, "fnuz"),
    Format("f8E4M3", 8, 4, 3, 7, "ieee"), Format("f8E4M3FN", 8, 4, 3, 7, "fn"),
    Format("f8E4M3FNUZ", 8, 4, 3, 8, "fnuz"), Format("f8E4M3B11FNUZ", 8, 4, 3, 11, "fnuz"),
    Format("f8E3M4", 8, 3, 4, 3, "ieee"), Format("f6E3M2FN", 6, 3, 2, 3, "finite"),
    Format("f6E2M3FN", 6, 2, 3, 1, "finite"), Format("f4E2M1FN", 4, 2, 1, 1, "finite"))}

SEMANTICS_ID = {"f16": 0, "bf16": 1, "f32": 2, "f64": 3, "f8E5M2": 7, "f8E5M2FNUZ": 8,
                "f8E4M3": 9, "f8E4M3FN": 10, "f8E4M3FNUZ": 11, "f8E4M3B11FNUZ": 12,
                "f8E3M4": 13, "tf32": 14, "f6E3M2FN": 16, "f6E2M3FN": 17, "f4E2M1FN": 18}
BY_ID = {i: FORMATS[n] for n, i in SEMANTICS_ID.items()}
# Types the runner otherwise has no arithmetic for (LLVM has no such type either).
SMALL = frozenset(SEMANTICS_ID) - {"f16", "bf16", "f32", "f64"}

NAN, INF = "nan", "inf"


def decode(f: Format, bits: int) -> tuple[bool, object]:
    """(negative, Fraction | INF | NAN)."""
    bits &= (1 << f.bits) - 1
    neg = bool(bits >> (f.bits - 1))
    e = (bits >> f.man_bits) & ((1 << f.exp_bits) - 1)
    m = bits & ((1 << f.man_bits) - 1)
    if f.kind == "fnuz" and bits == 1 << (f.bits - 1):
        return True, NAN
    top = (1 << f.exp_bits) - 1
    if f.kind == "ieee" and e == top:
        return neg, (NAN if m else INF)
    if f.kind == "fn" and e == top and m == (1 << f.man_bits) - 1:
        return neg, NAN
    if e == 0:
        value = Fraction(m, 1 << f.man_bits) * Fraction(2) ** f.emin
    else:
        value = Fraction((1 << f.man_bits) + m, 1 << f.man_bits) * Fraction(2) ** (e - f.bias)
    return neg, value


def nan_bits(f: Format, negative: bool = False) -> int:
    if f.kind == "fnuz":
        return 1 << (f.bits - 1)
    if f.kind == "finite":  # APFloat encodes its NaN in a format without one as +0
        return 0
    man = (1 << f.man_bits) - 1 if f.kind == "fn" else 1 << (f.man_bits - 1)
    return (int(negative) << (f.bits - 1)) | (((1 << f.exp_bits) - 1) << f.man_bits) | man


def encode(f: Format, negative: bool, value) -> int:
    """The bits of `value` (exact Fraction, INF or NAN), rounded to nearest even."""
    sign = int(negative) << (f.bits - 1)
    if value == NAN:
        return nan_bits(f, negative)
    if value == INF:
        if f.kind == "ieee":
            return sign | (((1 << f.exp_bits) - 1) << f.man_bits)
        # No infinity: NaN where there is one; a finite-only format keeps just the
        # sign (APFloat's encoding of an infinity it cannot represent).
        return nan_bits(f, negative) if f.kind != "finite" else sign
    if value == 0:
        return 0 if f.kind == "fnuz" else sign
    e = value.numerator.bit_length() - value.denominator.bit_length()
    if Fraction(2) ** e > value:
        e -= 1
    e = max(e, f.emin)
    quantum = Fraction(2) ** (e - f.man_bits)
    n = value / quantum
    q, r = divmod(n.numerator, n.denominator)
    twice = 2 * r
    if twice > n.denominator or (twice == n.denominator and q % 2):
        q += 1
    rounded = q * quantum
    if rounded > f.max_finite:  # overflow: infinity, NaN, or the largest finite value
        return sign | ((1 << (f.bits - 1)) - 1) if f.kind == "finite" else \
            encode(f, negative, INF)
    if rounded == 0:
        return 0 if f.kind == "fnuz" else sign
    e = rounded.numerator.bit_length() - rounded.denominator.bit_length()
    if Fraction(2) ** e > rounded:
        e -= 1
    if e < f.emin:
        return sign | int(rounded / Fraction(2) ** (f.emin - f.man_bits))
    man = int(rounded / Fraction(2) ** (e - f.man_bits)) - (1 << f.man_bits)
    return sign | ((e + f.bias) << f.man_bits) | man


def to_double(f: Format, bits: int) -> float:
    neg, v = decode(f, bits)
    if v == NAN:
        return -float("nan") if neg else float("nan")
    if v == INF:
        return -float("inf") if neg else float("inf")
    return -float(v) if neg else float(v)


def _signed(neg: bool, v) -> object:
    return -v if neg and isinstance(v, Fraction) else v


def binary(op: str, f: Format, a: int, b: int) -> int:
    """add / subtract / multiply / divide / remainder of two bit patterns."""
    (na, va), (nb, vb) = decode(f, a), decode(f, b)
    if va == NAN or vb == NAN:  # the first NaN operand, quieted (its payload kept)
        bits = a if va == NAN else b
        return bits | (1 << (f.man_bits - 1)) if f.kind == "ieee" else \
            bits & ((1 << f.bits) - 1)
    if op == "subtract":
        op, nb = "add", not nb
    if va == INF or vb == INF:
        return _special(op, f, na, va, nb, vb)
    x, y = _signed(na, va), _signed(nb, vb)
    if op == "add":
        r = x + y
        neg = (na and nb) if r == 0 else r < 0
    elif op == "multiply":
        r, neg = x * y, na != nb
    elif op == "divide":
        if y == 0:
            return nan_bits(f) if x == 0 else encode(f, na != nb, INF)
        r, neg = x / y, na != nb
    elif op == "remainder":
        if y == 0:
            return nan_bits(f)
        q = x / y
        n, rest = divmod(q.numerator, q.denominator)
        if 2 * rest > q.denominator or (2 * rest == q.denominator and n % 2):
            n += 1
        r = x - n * y
        neg = na if r == 0 else r < 0
    else:
        raise ValueError(op)
    return encode(f, neg, abs(r))


def _special(op, f, na, va, nb, vb) -> int:
    if op == "add":
        if va == INF and vb == INF and na != nb:
            return nan_bits(f)
        return encode(f, na if va == INF else nb, INF)
    if op == "multiply":
        if va == 0 or vb == 0:
            return nan_bits(f)
        return encode(f, na != nb, INF)
    if op == "divide":
        if va == INF and vb == INF:
            return nan_bits(f)
        return encode(f, na != nb, INF) if va == INF else encode(f, na != nb, Fraction(0))
    if op == "remainder":
        return nan_bits(f) if va == INF else encode(f, na, va)
    raise ValueError(op)
