"""Float literals spelled as mlir-opt 22 spells them (MLIR's printFloatValue).

MLIR prints a float with LLVM's `APFloat::toString(6 digits, no padding)`
(`1.000000e+00`, `9.997550e-02`) when that text reads back as the same value,
else with APFloat's shortest round-trip form (`9.99999993E-9`,
`1.7976931348623157E+308`) when it has a `.`, else the bit pattern in hex
(`0x7FC00000`, `0x419D6F3454000000`).  APFloat's digit generation first
truncates the exact decimal expansion to about the requested precision, then
rounds half up, so its digits differ from Python's correctly rounded `%e` in
the last place: the algorithm is reproduced here exactly, on integers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

# name -> (precision with the integer bit, minimum exponent, maximum exponent)
SEMANTICS: dict[str, tuple[int, int, int]] = {
    "f16": (11, -14, 15),
    "bf16": (8, -126, 127),
    "tf32": (11, -126, 127),
    "f32": (24, -126, 127),
    "f64": (53, -1022, 1023),
    "f80": (64, -16382, 16383),
    "f128": (113, -16382, 16383),
}


def _decompose(value: Fraction, precision: int, emin: int) -> tuple[int, int]:
    """(significand, exponent) with value == significand * 2**exponent, as APFloat
    stores it (exponent = unbiased exponent - (precision - 1), denormals at emin)."""
    e = value.numerator.bit_length() - value.denominator.bit_length()
    if Fraction(2) ** e > value:
        e -= 1
    e = max(e, emin) - (precision - 1)
    sig = value / Fraction(2) ** e
    assert sig.denominator == 1, "value not representable in its semantics"
    return sig.numerator, e


def _adjust_digits(digits: list[str], exp: int, prec: int) -> tuple[list[str], int]:
    """APFloat's AdjustToPrecision on the digit buffer (least significant first)."""
    n = len(digits)
    if n <= prec:
        return digits, exp
    first = n - prec
    if digits[first - 1] < "5":
        while first < n and digits[first] == "0":
            first += 1
        return digits[first:], exp + first
    for i in range(first, n):
        if digits[i] == "9":
            first += 1
        else:
            digits[i] = chr(ord(digits[i]) + 1)
            break
    if first == n:
        return ["1"], exp + first
    return digits[first:], exp + first


def to_string(value: Fraction, semantics: str, format_precision: int = 0,
              format_max_padding: int = 3, truncate_zero: bool = True) -> str:
    """LLVM's IEEEFloat::toString of a finite value."""
    precision, emin, _ = SEMANTICS[semantics]
    neg = value < 0
    sign = "-" if neg else ""
    if value == 0:
        if format_max_padding:
            return sign + "0"
        if truncate_zero:
            return sign + "0.0E+0"
        return sign + "0.0" + "0" * max(format_precision - 1, 0) + "e+00"
    sig, exp = _decompose(abs(value), precision, emin)
    if not format_precision:
        format_precision = 2 + precision * 59 // 196
    tz = (sig & -sig).bit_length() - 1
    exp += tz
    sig >>= tz
    if exp > 0:
        sig <<= exp
        exp = 0
    elif exp < 0:
        sig *= 5 ** (-exp)
    bits = sig.bit_length()
    required = (format_precision * 196 + 58) // 59
    if bits > required:
        removable = (bits - required) * 59 // 196
        if removable:
            exp += removable
            sig //= 10 ** removable
    text = str(sig)
    stripped = text.rstrip("0")
    exp += len(text) - len(stripped)
    digits, exp = _adjust_digits(list(reversed(stripped)), exp, format_precision)
    nd = len(digits)
    if not format_max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > format_max_padding or nd + exp > format_precision
    else:
        msd = exp + nd - 1
        scientific = msd < 0 and -msd > format_max_padding
    ms = digits[::-1]  # most significant first
    if scientific:
        exp += nd - 1
        out = sign + ms[0] + "."
        if nd == 1 and truncate_zero:
            out += "0"
        else:
            out += "".join(ms[1:])
        if not truncate_zero and format_precision > nd - 1:
            out += "0" * (format_precision - nd + 1)
        out += "E" if truncate_zero else "e"
        out += "+" if exp >= 0 else "-"
        e = str(abs(exp))
        if not truncate_zero and len(e) < 2:
            e = "0" + e
        return out + e
    if exp >= 0:
        return sign + "".join(ms) + "0" * exp
    whole = exp + nd
    if whole > 0:
        return sign + "".join(ms[:whole]) + "." + "".join(ms[whole:])
    return sign + "0." + "0" * (-whole) + "".join(ms)


def round_to(value: Fraction, semantics: str) -> Fraction | None:
    """The nearest value of `semantics` (ties to even), None on overflow: what
    `APFloat(semantics, text)` reads."""
    precision, emin, emax = SEMANTICS[semantics]
    if value == 0:
        return value
    a = abs(value)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    quantum = Fraction(2) ** (max(e, emin) - precision + 1)
    q = a / quantum
    n = q.numerator // q.denominator
    rest = q - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2):
        n += 1
    r = n * quantum
    largest = (2 ** precision - 1) * Fraction(2) ** (emax - precision + 1)
    if r > largest:
        return None
    return -r if value < 0 else r


def mlir_float_text(value: float, semantics: str, bits: Callable[[], int]) -> str:
    """printFloatValue: the literal mlir-opt prints for `value`; `bits()` gives its bit
    pattern, asked for only when the hex form is printed."""
    if value == 0:
        return ("-" if math.copysign(1.0, value) < 0 else "") + "0.000000e+00"
    exact = round_to(Fraction(value), semantics) if math.isfinite(value) else None
    if exact is not None:  # (a value beyond the type's range is read as infinity)
        text = to_string(exact, semantics, 6, 0, False)
        if round_to(Fraction(text), semantics) == exact:
            return text
        text = to_string(exact, semantics)
        if "." in text:
            return text
    return f"0x{bits():X}"
