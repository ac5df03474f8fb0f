"""test-math-polynomial-approximation: what it rewrites, what it leaves, and the values.

The values are LLVM 22's: where its tools are installed, the same programs go
through real mlir-opt 22 + mlir-runner 22 and the printed output must be
byte-identical (a sweep of inputs per function, special values included); the
constants the pass writes must be the ones real mlir-opt writes.  Without the
binaries those comparisons skip, and the structural checks still run.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from runner_core import cli, opt

LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"
HAVE_REAL = os.path.exists(os.path.join(LLVM_BIN, "mlir-runner"))
needs_real = pytest.mark.skipif(not HAVE_REAL, reason="LLVM 22's mlir-opt/mlir-runner not installed")

PASS = "-test-math-polynomial-approximation"
LOWER = ["-convert-vector-to-scf", "-convert-scf-to-cf", "-convert-vector-to-llvm",
         "-convert-to-llvm", "-reconcile-unrealized-casts"]
UNARY = ["tanh", "log", "log2", "log1p", "erf", "erfc", "exp", "expm1", "sin", "cos",
         "asin", "acos", "atan", "cbrt"]
# 16 lanes: ordinary values, range-reduction edges, tiny/huge, zeros, inf and NaN.
SWEEP = ("[-0.0, 0.0, 1.0e-38, 3.0e-3, 0.4999, 0.8, 1.25, 2.0, 3.75, 9.5, 88.5, 1.0e10, "
         "-0.6, -4.0, 0x7F800000, 0x7FC00000]")


def _sweep_program() -> str:
    funcs, calls = [], []
    for name in UNARY:
        funcs.append(f"func.func @{name}(%x: vector<16xf32>) {{\n"
                     f"  %r = math.{name} %x : vector<16xf32>\n"
                     f"  vector.print %r : vector<16xf32>\n  return\n}}\n")
        calls.append(f"  call @{name}(%v) : (vector<16xf32>) -> ()\n")
    funcs.append("func.func @atan2(%y: vector<16xf32>, %x: vector<16xf32>) {\n"
                 "  %r = math.atan2 %y, %x : vector<16xf32>\n"
                 "  vector.print %r : vector<16xf32>\n  return\n}\n")
    calls.append("  call @atan2(%v, %w) : (vector<16xf32>, vector<16xf32>) -> ()\n")
    return ("".join(funcs) + "func.func @main() {\n"
            f"  %v = arith.constant dense<{SWEEP}> : vector<16xf32>\n"
            "  %w = arith.constant dense<[1.0, -1.0, -2.0, 0.0, 3.0, -0.5, 0.0, 7.0, -3.0, 2.0, "
            "-0.0, 1.0, 1.0, -1.0, 0x7F800000, 2.0]> : vector<16xf32>\n"
            + "".join(calls) + "  return\n}\n")


def _embedded_opt(text: str, flags: list[str], tmp_path) -> str:
    r = opt.tool_main(["mlir-opt", "-", *flags], text.encode(), {}, str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout.decode()


def _embedded_run(lowered: str, tmp_path, libs=("mlir_c_runner_utils", "mlir_runner_utils")):
    r = cli.tool_main(["mlir-runner", "-e", "main", "--entry-point-result=void", "-O0",
                       *(f"--shared-libs={lib}" for lib in libs)], lowered.encode(), {},
                      str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout.decode()


def _real(text: str, flags: list[str], tmp_path) -> str:
    src = tmp_path / "p.mlir"
    src.write_text(text)
    lowered = subprocess.run([f"{LLVM_BIN}/mlir-opt", str(src), *flags], capture_output=True,
                             timeout=120, check=True).stdout
    run = subprocess.run([f"{LLVM_BIN}/mlir-runner", "-e", "main", "--entry-point-result=void",
                          "-O0", f"--shared-libs={LLVM_LIB}/libmlir_c_runner_utils.so,"
                          f"{LLVM_LIB}/libmlir_runner_utils.so"], input=lowered,
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr.decode()
    return run.stdout.decode()


# ---------------------------------------------------------------- structure
def test_f32_ops_are_rewritten_and_f64_left(tmp_path):
    text = "".join(
        f"func.func @{n}(%a: f32, %d: f64) -> (f32, f64) {{\n"
        f"  %r = math.{n} %a : f32\n  %s = math.{n} %d : f64\n"
        f"  return %r, %s : f32, f64\n}}\n" for n in UNARY)
    out = _embedded_opt(text, [PASS], tmp_path)
    for n in UNARY:
        assert f"math.{n} %arg1 : f64" in out, n
        assert not re.search(rf"math\.{n} %\w+ : f32", out), n
    assert "math.fma" in out and "math.floor" in out


def test_narrow_floats_go_through_f32_but_asin_f16_stays_native(tmp_path):
    text = ("func.func @f(%h: f16, %b: bf16) -> (f16, bf16, f16, bf16) {\n"
            "  %0 = math.exp %h : f16\n  %1 = math.tanh %b : bf16\n"
            "  %2 = math.asin %h : f16\n  %3 = math.asin %b : bf16\n"
            "  return %0, %1, %2, %3 : f16, bf16, f16, bf16\n}\n")
    out = _embedded_opt(text, [PASS], tmp_path)
    assert out.count("arith.extf") == 2 and out.count("arith.truncf") == 2
    assert "math.sqrt %" in out and re.search(r"math\.sqrt %\w+ : f16", out)
    assert "math.asin %arg1 : bf16" in out  # neither pattern takes bf16 asin


def test_rsqrt_needs_enable_avx2_and_eight_lanes(tmp_path):
    text = ("func.func @f(%a: vector<16xf32>, %b: vector<4xf32>, %c: f32) -> "
            "(vector<16xf32>, vector<4xf32>, f32) {\n"
            "  %0 = math.rsqrt %a : vector<16xf32>\n  %1 = math.rsqrt %b : vector<4xf32>\n"
            "  %2 = math.rsqrt %c : f32\n"
            "  return %0, %1, %2 : vector<16xf32>, vector<4xf32>, f32\n}\n")
    plain = _embedded_opt(text, [PASS], tmp_path)
    assert plain.count("math.rsqrt") == 3 and "x86vector" not in plain
    avx = _embedded_opt(text, [f"{PASS}=enable-avx2"], tmp_path)
    assert avx.count("x86vector.avx.rsqrt") == 2  # 16 lanes: two 8-lane halves
    assert avx.count("math.rsqrt") == 2
    off = _embedded_opt(text, [f"{PASS}=enable-avx2=false"], tmp_path)
    assert "x86vector" not in off


def test_bad_option_is_a_clear_error(tmp_path):
    for flag, words in ((f"{PASS}=enable-avx2=maybe", "invalid value for boolean argument"),
                        (f"{PASS}=unroll=1", "no such option unroll")):
        r = opt.tool_main(["mlir-opt", "-", flag], b"func.func @f() {\n  return\n}\n", {},
                          str(tmp_path))
        assert r.returncode != 0 and words in r.stderr.decode()


def test_x86vector_rsqrt_verifies_its_type(tmp_path):
    text = ("func.func @f(%a: vector<4xf32>) -> vector<4xf32> {\n"
            "  %r = x86vector.avx.rsqrt %a : vector<4xf32>\n  return %r : vector<4xf32>\n}\n")
    r = opt.tool_main(["mlir-opt", "-"], text.encode(), {}, str(tmp_path))
    assert r.returncode != 0
    assert "must be vector of 32-bit float of length 8" in r.stderr.decode()


def test_x86vector_rsqrt_without_avx_is_a_located_error(tmp_path, monkeypatch):
    from runner_core.codegen import x86vector

    monkeypatch.setattr(x86vector, "_host_has_avx", lambda: False)
    text = ("func.func @main() {\n  %v = arith.constant dense<2.0> : vector<8xf32>\n"
            "  %r = x86vector.avx.rsqrt %v : vector<8xf32>\n"
            "  %e = vector.extract %r[0] : f32 from vector<8xf32>\n"
            "  vector.print %e : f32\n  return\n}\n")
    r = cli.tool_main(["gpurunner", "-e", "main", "--entry-point-result=void"],
                      text.encode(), {"GPURUNNER_CACHE_DIR": str(tmp_path / "c")},
                      str(tmp_path))
    err = r.stderr.decode()
    assert r.returncode != 0 and "the host CPU has no AVX" in err and ":3:" in err


# ---------------------------------------------------------------- values (LLVM 22)
@needs_real
def test_sweep_prints_what_llvm22_prints(tmp_path):
    text = _sweep_program()
    flags = ["-pass-pipeline=builtin.module(func.func(test-math-polynomial-approximation),"
             "convert-vector-to-scf,convert-scf-to-cf,convert-vector-to-llvm,convert-to-llvm,"
             "reconcile-unrealized-casts)"]
    want = _real(text, flags, tmp_path)
    got = _embedded_run(_embedded_opt(text, flags, tmp_path), tmp_path)
    assert got == want
    assert len(want.splitlines()) == len(UNARY) + 1


@needs_real
def test_avx2_rsqrt_prints_what_llvm22_prints(tmp_path):
    text = ("func.func @f(%v: vector<2x8xf32>) {\n  %r = math.rsqrt %v : vector<2x8xf32>\n"
            "  vector.print %r : vector<2x8xf32>\n  return\n}\n"
            "func.func @main() {\n  %v = arith.constant dense<[[2.0, 0.0, -0.0, 1.0e-40, "
            "0x7F800000, -4.0, 0x7FC00000, 3.0e38], [1.0e-30, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, "
            "11.0]]> : vector<2x8xf32>\n  call @f(%v) : (vector<2x8xf32>) -> ()\n  return\n}\n")
    flags = [f"{PASS}=enable-avx2", "-convert-vector-to-scf", "-convert-scf-to-cf",
             "-convert-vector-to-llvm=enable-x86vector", "-convert-to-llvm",
             "-reconcile-unrealized-casts"]
    want = _real(text, flags, tmp_path)
    assert _embedded_run(_embedded_opt(text, flags, tmp_path), tmp_path) == want


def _float_constants(ir: str) -> set[str]:
    found = set()
    for m in re.finditer(r"arith\.constant (?:dense<)?([-+0-9.eEx]+[0-9A-Fa-f]*)>? : (f32|f16)",
                         ir):
        found.add(m.group(1))
    return found


@needs_real
@pytest.mark.parametrize("name", [*UNARY, "erf-f16", "asin-f16"])
def test_constants_are_the_ones_llvm22_writes(tmp_path, name):
    """Every float constant real mlir-opt writes for the expansion, we write too
    (the same printed spelling, so the same value after rounding)."""
    op, _, ty = name.partition("-")
    ty = ty or "f32"
    text = f"func.func @f(%a: {ty}) -> {ty} {{\n  %r = math.{op} %a : {ty}\n  return %r : {ty}\n}}\n"
    src = tmp_path / "p.mlir"
    src.write_text(text)
    real = subprocess.run([f"{LLVM_BIN}/mlir-opt", str(src), PASS], capture_output=True,
                          check=True, timeout=60).stdout.decode()
    ours = _embedded_opt(text, [PASS], tmp_path)
    assert _float_constants(real) <= _float_constants(ours)


@needs_real
def test_math_of_constants_is_folded_with_libm_like_llvm22(tmp_path):
    text = ("func.func @main() {\n"
            "  %a = arith.constant 1.7 : f32\n  %e = math.exp %a : f32\n"
            "  vector.print %e : f32\n"
            "  %v = arith.constant dense<[0.3, 1.7, 12.5, 60.0]> : vector<4xf32>\n"
            "  %s = math.sin %v : vector<4xf32>\n  vector.print %s : vector<4xf32>\n"
            "  %h = arith.constant 0.7 : f16\n  %t = math.tanh %h : f16\n"
            "  vector.print %t : f16\n"
            "  %n = arith.constant -2.0 : f32\n  %l = math.log %n : f32\n"
            "  vector.print %l : f32\n  return\n}\n")
    flags = [PASS, *LOWER]
    lowered = _embedded_opt(text, flags, tmp_path)
    assert "math.exp" not in lowered and "math.sin" not in lowered
    assert _embedded_run(lowered, tmp_path) == _real(text, flags, tmp_path)


@needs_real
def test_print_f16_with_llvm22s_library(tmp_path):
    """LLVM's own printF16 reads the whole argument register: +inf stays +inf."""
    text = ("func.func @main() {\n"
            "  %v = arith.constant dense<[0x7C00, 0xFC00, 1.5, -0.0]> : vector<4xf16>\n"
            "  vector.print %v : vector<4xf16>\n"
            "  %b = arith.constant dense<[0x7F80, 2.5]> : vector<2xbf16>\n"
            "  vector.print %b : vector<2xbf16>\n  return\n}\n")
    libs = (f"{LLVM_LIB}/libmlir_c_runner_utils.so", f"{LLVM_LIB}/libmlir_runner_utils.so")
    got = _embedded_run(_embedded_opt(text, LOWER, tmp_path), tmp_path, libs)
    assert got == _real(text, LOWER, tmp_path) == "( inf, -inf, 1.5, -0 )\n( inf, 2.5 )\n"


@needs_real
def test_only_constants_already_there_are_folded(tmp_path):
    """Bottom-up like the greedy driver: log(exp(c)) folds exp, expands log; an f16
    constant (extf'd by the f32 expansion) and a broadcast constant are expanded."""
    text = ("func.func @main() {\n"
            "  %h = arith.constant 0.7 : f16\n  %t = math.tanh %h : f16\n"
            "  vector.print %t : f16\n"
            "  %c = arith.constant 0.5 : f32\n  %e = math.exp %c : f32\n"
            "  %l = math.log %e : f32\n  vector.print %l : f32\n"
            "  %s = vector.broadcast %c : f32 to vector<4xf32>\n"
            "  %x = math.exp %s : vector<4xf32>\n  vector.print %x : vector<4xf32>\n"
            "  return\n}\n")
    src = tmp_path / "p.mlir"
    src.write_text(text)
    real = subprocess.run([f"{LLVM_BIN}/mlir-opt", str(src), PASS], capture_output=True,
                          check=True, timeout=60).stdout.decode()
    ours = _embedded_opt(text, [PASS], tmp_path)

    def math_ops(ir):  # those folding does not simply remove (absf of a constant...)
        return set(re.findall(r"math\.\w+", ir)) - {"math.absf"}

    assert math_ops(ours) == math_ops(real) == {"math.floor", "math.fma"}
    assert ours.count("math.floor") == real.count("math.floor") == 1  # one exp expanded
    flags = [PASS, *LOWER]
    assert _embedded_run(_embedded_opt(text, flags, tmp_path), tmp_path) == \
        _real(text, flags, tmp_path)
