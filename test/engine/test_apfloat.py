"""The APFloat model behind convert-arith-to-apfloat's runtime functions.

Checked two ways: facts that follow from each format's definition (worked out by
hand below), and, where LLVM 22 is installed, against its own
``libmlir_apfloat_wrappers.so`` (llvm::APFloat) on every pair of bit patterns of
the 4- and 6-bit formats and a deterministic sample of the 8-bit ones."""

from __future__ import annotations

import ctypes
import os
from fractions import Fraction

import pytest

from runner_core.ir import apfloat as ap
from runner_core.runtime import apfloat_wrappers

LIB = "/usr/lib/llvm-22/lib/libmlir_apfloat_wrappers.so"
F = ap.FORMATS


@pytest.mark.parametrize(("name", "bits", "value"), [
    ("f8E4M3FN", 0x7E, Fraction(448)),            # largest finite: 1.75 * 2^8
    ("f8E4M3FN", 0x01, Fraction(1, 512)),         # smallest subnormal 2^-9
    ("f8E5M2", 0x7B, Fraction(57344)),            # 1.75 * 2^15
    ("f8E4M3FNUZ", 0x7F, Fraction(240)),          # bias 8: 1.875 * 2^7
    ("f4E2M1FN", 0x7, Fraction(6)),               # 1.5 * 2^2
    ("f6E2M3FN", 0x1F, Fraction(15, 2)),          # 1.875 * 2^2
])
def test_decode_known_values(name, bits, value):
    assert ap.decode(F[name], bits) == (False, value)
    assert ap.encode(F[name], False, value) == bits


def test_special_encodings():
    assert ap.decode(F["f8E4M3FN"], 0x7F) == (False, ap.NAN)   # no infinity
    assert ap.decode(F["f8E5M2"], 0x7C) == (False, ap.INF)
    assert ap.decode(F["f8E4M3FNUZ"], 0x80) == (True, ap.NAN)  # the sign bit alone
    # Overflow: NaN without infinities, infinity with, saturation without either.
    big = Fraction(10**6)
    assert ap.encode(F["f8E4M3FN"], False, big) == 0x7F
    assert ap.encode(F["f8E5M2"], True, big) == 0xFC
    assert ap.encode(F["f4E2M1FN"], False, big) == 0x7


def test_round_to_nearest_even():
    f = F["f8E4M3FN"]  # ulp at 1.0 is 1/8
    assert ap.encode(f, False, Fraction(1) + Fraction(1, 16)) == ap.encode(f, False, Fraction(1))
    assert ap.encode(f, False, Fraction(9, 8) + Fraction(1, 16)) == \
        ap.encode(f, False, Fraction(5, 4))
    one, tiny = ap.encode(f, False, Fraction(1)), ap.encode(f, False, Fraction(1, 32))
    assert ap.binary("add", f, one, tiny) == one
    assert ap.to_double(f, ap.binary("add", F["f8E4M3FN"], 0x7E, 0x7E)) != \
        ap.to_double(f, 0x7E)  # 448 + 448: NaN


def test_fnuz_has_no_negative_zero():
    f = F["f8E4M3FNUZ"]
    two = ap.encode(f, False, Fraction(2))
    assert ap.binary("subtract", f, two, two) == 0


def _real():
    if not os.path.exists(LIB):
        pytest.skip("LLVM 22's libmlir_apfloat_wrappers.so is not installed")
    return ctypes.CDLL(LIB)


@pytest.mark.parametrize("name", ["f4E2M1FN", "f6E3M2FN", "f6E2M3FN", "f8E4M3FN", "f8E5M2",
                                  "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E3M4", "f8E4M3B11FNUZ"])
def test_against_llvm_apfloat(name):
    lib = _real()
    f, sem = F[name], ap.SEMANTICS_ID[name]
    n = 1 << f.bits
    # Every pair of the small formats; a sample of the f8 ones (both NaN ranges and
    # every exponent meet), exhaustively compared once while writing the model.
    sa, sb = (1, 1) if n <= 64 else (11, 3)
    for op in apfloat_wrappers.BINARY:
        fn = getattr(lib, f"_mlir_apfloat_{op}")
        fn.restype = ctypes.c_int64
        fn.argtypes = [ctypes.c_int32, ctypes.c_uint64, ctypes.c_uint64]
        for a in [*range(0, n, sa), n - 1, n // 2]:
            for b in [*range(0, n, sb), n - 1, n // 2 - 1]:
                assert ap.binary(op, f, a, b) == fn(sem, a, b) & (n - 1), (op, hex(a), hex(b))


def test_printer_symbols_are_exported():
    syms = apfloat_wrappers.symbols()
    assert {"printApFloat", "_mlir_apfloat_add", "_mlir_apfloat_divide"} <= set(syms)
