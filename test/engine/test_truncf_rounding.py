"""arith.truncf f64 -> f16 on the CPU is correctly rounded, without libcalls.

x86 has no f64 -> f16 instruction; LLVM would call __truncdfhf2 from the
compiler runtime, which JIT-ed code cannot count on, so the emitter rounds
through f32 with round-to-odd (codegen/arith.py).  This checks the bits
against numpy's conversion (correct rounding, ties to even) on values chosen
to catch double rounding: exact ties between two f16 values and one f64 ulp
either side of them, subnormals, overflow to infinity, NaN, signed zeros.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from runner_core import cli


def _cases() -> list[float]:
    rng = np.random.default_rng(12345)
    vals: list[float] = [0.0, -0.0, 1.0, -2.5, 0.1, 65504.0, 65520.0, 65519.99, 1e6, -1e6,
                         6.0e-8, 5.9604644775390625e-08, 2.98e-8, 1e-300, float("inf"),
                         float("-inf")]
    # ties between consecutive f16 values, and one f64 ulp either side
    halves = rng.integers(0x0001, 0x7BFF, 60, dtype=np.uint16).view(np.float16)
    for h in halves:
        lo = float(h)
        hi = float(np.nextafter(h, np.float16(np.inf)))
        mid = (lo + hi) / 2
        vals += [mid, np.nextafter(mid, np.inf), np.nextafter(mid, -np.inf), -mid]
    vals += list(rng.normal(0, 100, 40)) + list(rng.uniform(-1e-5, 1e-5, 20))
    return [float(v) for v in vals]


def _expected_bits(values: list[float]) -> list[int]:
    with np.errstate(over="ignore"):  # overflow to infinity is one of the cases
        half = np.array(values, dtype=np.float64).astype(np.float16)
    return [int(b) for b in half.view(np.uint16)]


def _program(values: list[float]) -> str:
    n = len(values)
    lits = ", ".join(f"0x{struct.unpack('<Q', struct.pack('<d', v))[0]:016X}" for v in values)
    return f"""
memref.global "private" constant @input : memref<{n}xf64> = dense<[{lits}]>
func.func private @printMemrefI32(memref<*xi32>)
func.func @narrow(%d: f64) -> f16 {{
  %h = arith.truncf %d : f64 to f16
  return %h : f16
}}
func.func @main() {{
  %in = memref.get_global @input : memref<{n}xf64>
  %out = memref.alloc() : memref<{n}xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant {n} : index
  scf.for %i = %c0 to %cn step %c1 {{
    %d = memref.load %in[%i] : memref<{n}xf64>
    %h = func.call @narrow(%d) : (f64) -> f16
    %b = arith.bitcast %h : f16 to i16
    %w = arith.extui %b : i16 to i32
    memref.store %w, %out[%i] : memref<{n}xi32>
  }}
  %u = memref.cast %out : memref<{n}xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}}
"""


def test_f64_to_f16_matches_correct_rounding(tmp_path):
    values = _cases()
    r = cli.tool_main(["gpurunner", "-e", "main", "--entry-point-result=void", "-O2",
                       "--shared-libs=mlir_runner_utils"], _program(values).encode(),
                      {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    data = r.stdout.decode().split("data =", 1)[1]
    got = [int(x) for x in data.replace("[", " ").replace("]", " ").replace(",", " ").split()]
    want = _expected_bits(values)
    bad = [(v, hex(g), hex(w)) for v, g, w in zip(values, got, want, strict=True) if g != w]
    assert not bad, bad[:10]


def test_f64_to_f16_nan_stays_nan(tmp_path):
    text = _program([float("nan")])
    r = cli.tool_main(["gpurunner", "-e", "main", "--entry-point-result=void",
                       "--shared-libs=mlir_runner_utils"], text.encode(),
                      {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    bits = int(r.stdout.decode().split("data =", 1)[1].strip(" \n[]"))
    assert bits & 0x7C00 == 0x7C00 and bits & 0x03FF != 0  # a NaN


def test_other_rounding_modes_are_refused_not_ignored(tmp_path):
    text = """func.func @main() {
  %d = arith.constant 0.1 : f64
  %f = arith.truncf %d toward_zero : f64 to f32
  return
}
"""
    r = cli.tool_main(["gpurunner", "-e", "main", "--entry-point-result=void"], text.encode(),
                      {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    assert r.returncode != 0
    assert ":3:8: error: unsupported: 'arith.truncf' with rounding mode toward_zero" in \
        r.stderr.decode()


def _bf16_table() -> tuple[list[float], list[int]]:
    """Every finite non-negative bf16 value (ascending) with its bits: the model."""
    bits = list(range(0x0000, 0x7F81))
    vals = [struct.unpack("<f", struct.pack("<I", b << 16))[0] for b in bits]
    return vals[:-1], bits[:-1]  # 0x7F80 is +inf


def _bf16_model(x: float) -> int:
    """Correct rounding to bf16, ties to even, by search over all bf16 values."""
    import bisect
    import math

    if math.isnan(x):
        return -1
    sign = 0x8000 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    vals, bits = _bf16_table()
    i = bisect.bisect_left(vals, a)
    if i < len(vals) and vals[i] == a:
        return sign | bits[i]
    if i == len(vals):  # above the largest finite: the next step up is 2**128
        lo, hi, lo_b, hi_b = vals[-1], 2.0 ** 128, bits[-1], 0x7F80
    else:
        lo, hi, lo_b, hi_b = vals[i - 1], vals[i], bits[i - 1], bits[i]
    if a - lo < hi - a or (a - lo == hi - a and lo_b % 2 == 0):
        return sign | lo_b
    return sign | hi_b


@pytest.mark.parametrize("src", ["f32", "f64"])
def test_truncf_to_bf16_matches_correct_rounding(tmp_path, src):
    """f32/f64 -> bf16 without the compiler runtime's __truncsfbf2 (absent in a JIT)."""
    rng = np.random.default_rng(7)
    vals = [0.0, -0.0, 1.0, 1.00390625, 1.01171875, -1.00390625, 3.4e38, -3.4e38, 1e-40,
            3.3895313892515355e38, float("inf"), float("-inf")]
    for b in rng.integers(0x0001, 0x7F7F, 50):  # ties between bf16 neighbours, and around
        lo = struct.unpack("<f", struct.pack("<I", int(b) << 16))[0]
        hi = struct.unpack("<f", struct.pack("<I", (int(b) + 1) << 16))[0]
        mid = (lo + hi) / 2
        vals += [mid, -mid, float(np.nextafter(np.float32(mid), np.float32(np.inf)))]
    vals += [float(v) for v in rng.normal(0, 1000, 30)]
    if src == "f32":
        vals = [float(np.float32(v)) for v in vals]
    else:
        vals += [1.0 + 2.0 ** -8 + 2.0 ** -40]  # just above a tie only f64 can hold
    text = _program(vals).replace("f16", "bf16")
    text = text.replace("%d: f64", f"%d: {src}").replace(": f64 to bf16", f": {src} to bf16")
    text = text.replace("(%d) : (f64)", f"(%d) : ({src})")
    if src == "f32":
        text = text.replace("xf64>", "xf32>")
        text = text.replace("dense<[" + text.split("dense<[", 1)[1].split("]>", 1)[0] + "]>",
                            "dense<[" + ", ".join(
                                f"0x{struct.unpack('<I', struct.pack('<f', v))[0]:08X}"
                                for v in vals) + "]>")
    r = cli.tool_main(["gpurunner", "-e", "main", "--entry-point-result=void", "-O2",
                       "--shared-libs=mlir_runner_utils"], text.encode(),
                      {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    data = r.stdout.decode().split("data =", 1)[1]
    got = [int(x) for x in data.replace("[", " ").replace("]", " ").replace(",", " ").split()]
    bad = [(v, hex(g), hex(_bf16_model(v))) for v, g in zip(vals, got, strict=True)
           if g != _bf16_model(v)]
    assert not bad, bad[:10]
