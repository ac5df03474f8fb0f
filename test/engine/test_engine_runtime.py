"""Built-in runtime providers against Debian's real libraries, byte for byte.

The same memory is handed to the real ``libmlir_runner_utils.so`` /
``libmlir_c_runner_utils.so`` entry points and to ours (through the address
table the JIT would use), with fds 1/2 captured around each call, over
randomly generated shapes, strides, offsets and values (hypothesis).
Also: --shared-libs name matching, user-registered providers, the 2021 names.
"""

from __future__ import annotations

import ctypes
import math
import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner_core.cli import tool_main
from runner_core.runtime import registry
from runner_core.runtime.c_runner_utils import PROVIDER as C_UTILS
from runner_core.runtime.capture import capture_fds
from runner_core.runtime.runner_utils import PROVIDER as UTILS

LIB = Path("/usr/lib/llvm-22/lib")
have_real = (LIB / "libmlir_runner_utils.so").exists() and (
    LIB / "libmlir_c_runner_utils.so").exists()
needs_real = pytest.mark.skipif(not have_real, reason="Debian's MLIR runtime libraries absent")

_real = {}


def real(name: str):
    if name not in _real:
        _real[name] = ctypes.CDLL(str(LIB / f"lib{name}.so"))
    return _real[name]


KIND_FMT = {"I8": "b", "I16": "h", "I32": "i", "I64": "q", "Ind": "q", "F16": "e",
            "BF16": "H", "F32": "f", "F64": "d", "C32": "ff", "C64": "dd"}
KIND_SIZE = {"I8": 1, "I16": 2, "I32": 4, "I64": 8, "Ind": 8, "F16": 2, "BF16": 2, "F32": 4,
             "F64": 8, "C32": 8, "C64": 16}

SPECIAL = [0.0, -0.0, 1.0, -1.5, 1e-40, 3.4e38, 1e-310, 1e300, 123456.5, 1234567.0, 0.1, 1e-5,
           math.inf, -math.inf, math.nan, -math.nan]


class Strided(ctypes.Structure):
    pass


def descriptor(buf_addr: int, offset: int, sizes: list[int], strides: list[int]):
    rank = len(sizes)
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    cls = type(f"Desc{rank}", (ctypes.Structure,), {"_fields_": fields})
    d = cls()
    d.allocated = d.aligned = buf_addr
    d.offset = offset
    if rank:
        d.sizes[:] = sizes
        d.strides[:] = strides
    return d


class Unranked(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int64), ("descriptor", ctypes.c_void_p)]


@st.composite
def memref_case(draw, kinds=tuple(KIND_FMT)):
    kind = draw(st.sampled_from(kinds))
    rank = draw(st.integers(0, 4))
    sizes = [draw(st.integers(0 if rank else 1, 4)) for _ in range(rank)]
    # Strides: a permutation of a padded row-major layout, scaled.
    order = draw(st.permutations(list(range(rank))))
    strides = [0] * rank
    acc = 1
    for d in reversed(order):
        strides[d] = acc * draw(st.integers(1, 2))
        acc = strides[d] * max(sizes[d], 1) + draw(st.integers(0, 1))
    offset = draw(st.integers(0, 3))
    span = offset + sum((max(s, 1) - 1) * t for s, t in zip(sizes, strides, strict=True)) + 1
    if kind in ("F16", "BF16", "F32", "F64", "C32", "C64"):
        elem = st.one_of(st.sampled_from(SPECIAL), st.floats(allow_nan=True, width=64))
    else:
        bits = KIND_SIZE[kind] * 8
        elem = st.integers(-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    n = span * (2 if kind in ("C32", "C64") else 1)
    values = draw(st.lists(elem, min_size=n, max_size=n))
    return kind, sizes, strides, offset, values


def make_buffer(kind: str, values: list) -> ctypes.Array:
    fmt = KIND_FMT[kind][0]
    raw = b""
    for v in values:
        if kind == "BF16":
            bits = struct.unpack("<I", struct.pack("<f", _as_f32(v)))[0] >> 16
            raw += struct.pack("<H", bits)
        elif fmt in "efd":
            raw += struct.pack("<" + fmt, _fit(fmt, v))
        else:
            raw += struct.pack("<" + fmt, v)
    return ctypes.create_string_buffer(raw, max(len(raw), 16))


def _as_f32(v: float) -> float:
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def _fit(fmt: str, v: float) -> float:
    try:
        struct.pack("<" + fmt, v)
        return v
    except OverflowError:
        return math.copysign(math.inf, v)


def call_both(real_fn, ours_addr, argtypes, restype, *args):
    ours_fn = ctypes.CFUNCTYPE(restype, *argtypes)(ours_addr)
    real_fn.argtypes = argtypes
    real_fn.restype = restype
    with capture_fds() as a:
        ra = real_fn(*args)
    with capture_fds() as b:
        rb = ours_fn(*args)
    return (ra, a.stdout, a.stderr), (rb, b.stdout, b.stderr)


@needs_real
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memref_case())
def test_print_memref_matches_real_library(case):
    kind, sizes, strides, offset, values = case
    buf = make_buffer(kind, values)
    desc = descriptor(ctypes.addressof(buf), offset, sizes, strides)
    u = Unranked(len(sizes), ctypes.addressof(desc))
    name = f"_mlir_ciface_printMemref{kind}"
    got_real, got_ours = call_both(getattr(real("mlir_runner_utils"), name),
                                   UTILS.lookup(name), [ctypes.c_void_p], None,
                                   ctypes.addressof(u))
    assert got_ours == got_real
    # The (rank, descriptor*) entry point prints the same.
    if kind in ("I32", "I64", "F32", "F64", "Ind", "C32", "C64"):
        name = f"printMemref{kind}"
        got_real, got_ours = call_both(getattr(real("mlir_runner_utils"), name),
                                       UTILS.lookup(name), [ctypes.c_int64, ctypes.c_void_p],
                                       None, len(sizes), ctypes.addressof(desc))
        assert got_ours == got_real


@needs_real
@settings(max_examples=120, deadline=None)
@given(memref_case(kinds=("I32", "I64", "F32", "F64", "I8", "F16")), st.data())
def test_verify_memref_matches_real_library(case, data):
    kind, sizes, strides, offset, values = case
    # The expected buffer: equal, nearly equal, or different in some places.
    other = []
    for v in values:
        how = data.draw(st.sampled_from(["same", "same", "near", "far"]))
        if how == "same" or isinstance(v, int) and how == "near":
            other.append(v)
        elif how == "near":
            other.append(v * (1 + data.draw(st.sampled_from([1e-7, 4e-6, 6e-6, 1e-13]))))
        else:
            other.append(v + 1 if isinstance(v, int) and v < 100 else (0 if isinstance(v, int)
                                                                       else v * 2 + 1))
    a, e = make_buffer(kind, values), make_buffer(kind, other)
    da = descriptor(ctypes.addressof(a), offset, sizes, strides)
    de = descriptor(ctypes.addressof(e), offset, sizes, strides)
    if data.draw(st.booleans()) and sizes:
        de.offset = offset + 1  # metadata mismatch: reported and -1
    ua, ue = Unranked(len(sizes), ctypes.addressof(da)), Unranked(len(sizes), ctypes.addressof(de))
    name = f"_mlir_ciface_verifyMemRef{kind}"
    got_real, got_ours = call_both(getattr(real("mlir_runner_utils"), name), UTILS.lookup(name),
                                   [ctypes.c_void_p, ctypes.c_void_p], ctypes.c_int64,
                                   ctypes.addressof(ua), ctypes.addressof(ue))
    assert got_ours == got_real


@needs_real
@settings(max_examples=150, deadline=None)
@given(st.one_of(st.sampled_from(SPECIAL), st.floats(width=32)), st.floats(),
       st.integers(-(2 ** 63), 2 ** 63 - 1))
def test_scalar_printers_match_real_library(f32, f64, i64):
    lib = real("mlir_c_runner_utils")
    for name, argtypes, args in [
        ("printF32", [ctypes.c_float], [_as_f32(f32)]),
        ("printF64", [ctypes.c_double], [f64]),
        ("printI64", [ctypes.c_int64], [i64]),
        ("printU64", [ctypes.c_uint64], [i64 & (2 ** 64 - 1)]),
        ("printOpen", [], []), ("printClose", [], []), ("printComma", [], []),
        ("printNewline", [], []),
        ("printFlops", [ctypes.c_double], [abs(f64)]),
    ]:
        got_real, got_ours = call_both(getattr(lib, name), C_UTILS.lookup(name), argtypes,
                                       None, *args)
        assert got_ours == got_real, name


@needs_real
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 0xFFFF))
def test_half_printers_match_real_library(bits):
    lib = real("mlir_runner_utils")
    for name in ("printF16", "printBF16"):
        got_real, got_ours = call_both(getattr(lib, name), UTILS.lookup(name),
                                       [ctypes.c_uint16], None, bits)
        assert got_ours == got_real, (name, hex(bits))


@needs_real
def test_print_string_matches_real_library():
    text = ctypes.create_string_buffer(b"hello, world\n")
    got_real, got_ours = call_both(real("mlir_c_runner_utils").printString,
                                   C_UTILS.lookup("printString"), [ctypes.c_void_p], None,
                                   ctypes.addressof(text))
    assert got_ours == got_real


@needs_real
@settings(max_examples=80, deadline=None)
@given(memref_case(kinds=("I32", "F64", "I8")), st.data())
def test_memref_copy_matches_real_library(case, data):
    kind, sizes, strides, offset, values = case
    src = make_buffer(kind, values)
    n = len(values)
    dst_real = make_buffer(kind, [0] * n)
    dst_ours = make_buffer(kind, [0] * n)
    # Destination: row-major contiguous view of the same shape.
    dstrides, acc = [], 1
    for s in reversed(sizes):
        dstrides.insert(0, acc)
        acc *= max(s, 1)
    ds = descriptor(ctypes.addressof(src), offset, sizes, strides)
    results = []
    for dst in (dst_real, dst_ours):
        dd = descriptor(ctypes.addressof(dst), 0, sizes, dstrides)
        results.append((Unranked(len(sizes), ctypes.addressof(ds)),
                        Unranked(len(sizes), ctypes.addressof(dd)), dd))
    esize = KIND_SIZE[kind]
    fn = real("mlir_c_runner_utils").memrefCopy
    fn.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p]
    fn(esize, ctypes.addressof(results[0][0]), ctypes.addressof(results[0][1]))
    ours = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p)(
        C_UTILS.lookup("memrefCopy"))
    ours(esize, ctypes.addressof(results[1][0]), ctypes.addressof(results[1][1]))
    assert dst_ours.raw == dst_real.raw


# --------------------------------------------------------------- registry
@pytest.mark.parametrize("value,name", [
    ("mlir_runner_utils", "mlir_runner_utils"),
    ("libmlir_runner_utils.so", "mlir_runner_utils"),
    ("/usr/lib/llvm-22/lib/libmlir_runner_utils.so.22.1", "mlir_runner_utils"),
    ("%linalg_test_lib_dir/libmlir_runner_utils%shlibext", "mlir_runner_utils"),
    ("%mlir_c_runner_utils", "mlir_c_runner_utils"),
    ("C:\\llvm\\bin\\mlir_c_runner_utils.dll", "mlir_c_runner_utils"),
    ("/opt/lib/libmlir_async_runtime.dylib", "mlir_async_runtime"),
    ("%cuda_wrapper_library_dir/libcuda-runtime-wrappers%shlibext", "cuda-runtime-wrappers"),
    ("lib", "lib"),
])
def test_library_name_normalisation(value, name):
    assert registry.normalize_library_name(value) == name


def test_resolution_order_real_file_wins(tmp_path):
    if not have_real:
        pytest.skip("no real library to load")
    libs = registry.resolve_shared_libs(
        [f"{LIB}/libmlir_runner_utils.so,mlir_c_runner_utils"], cwd=str(tmp_path))
    assert isinstance(libs[0], registry.RealLibrary)
    assert isinstance(libs[1], registry.ProviderLibrary)
    assert libs[1].provider is C_UTILS


def test_unknown_missing_library_lists_builtins(tmp_path):
    with pytest.raises(registry.SharedLibraryError) as info:
        registry.resolve_shared_libs(["libnope.so"], cwd=str(tmp_path))
    msg = str(info.value)
    assert "libnope.so" in msg and "mlir_runner_utils" in msg and "mlir_c_runner_utils" in msg


@pytest.mark.parametrize("names", [["mgpuStreamCreate"], ["mgpuStreamCreate", "printNewline"]])
def test_missing_symbols_get_the_advice_of_the_library_that_has_them(tmp_path, names):
    """mgpu* comes from the GPU runtime: the printMemref advice alone would point away."""
    decls = "".join(f"func.func private @{n}() -> i64\n" for n in names)
    calls = "".join(f"  %r{i} = func.call @{n}() : () -> i64\n" for i, n in enumerate(names))
    (tmp_path / "t.mlir").write_text(decls + "func.func @main() {\n" + calls + "  return\n}\n")
    result = tool_main(["gpurunner", "t.mlir", "--entry-point-result=void"], b"", {},
                       str(tmp_path))
    err = result.stderr.decode()
    assert result.returncode != 0, err
    assert "mgpu* functions (mgpuStreamCreate) come from the GPU runtime: " \
           "--shared-libs=%mlir_cuda_runtime" in err, err
    assert ("printMemref*" in err) == ("printNewline" in names), err


_SQUARE_T = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)


class _SquareProvider(registry.Provider):
    """A user's provider, as a conftest would register it."""

    name = "my_square_runtime"
    aliases = ("square",)

    def build_symbols(self):
        def square(x):
            return x * x

        self._cb = _SQUARE_T(square)
        return {"square_it": ctypes.cast(self._cb, ctypes.c_void_p).value}


def test_user_registered_provider(tmp_path):
    prov = registry.register_provider(_SquareProvider())
    try:
        src = ("func.func @main() -> i64 {\n  %c = arith.constant 12 : i64\n"
               "  %r = call @square_it(%c) : (i64) -> i64\n  return %r : i64\n}\n"
               "func.func private @square_it(i64) -> i64\n")
        f = tmp_path / "p.mlir"
        f.write_text(src)
        for spelling in ("libmy_square_runtime.so", "/some/dir/libsquare%shlibext"):
            res = tool_main(["gpurunner", str(f), "--entry-point-result=i64",
                             f"--shared-libs={spelling}"], b"", {}, str(tmp_path))
            assert res.returncode == 0, res.stderr.decode()
            assert res.stdout == b"144\n"
    finally:
        registry.unregister_provider(prov)
    res = tool_main(["gpurunner", str(f), "--entry-point-result=i64",
                     "--shared-libs=libmy_square_runtime.so"], b"", {}, str(tmp_path))
    assert res.returncode != 0


LEGACY = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<2xi32>
  %v = arith.constant 84 : i32
  memref.store %v, %m[%c0] : memref<2xi32>
  memref.store %v, %m[%c1] : memref<2xi32>
  %u = memref.cast %m : memref<2xi32> to memref<*xi32>
  call @print_memref_i32(%u) : (memref<*xi32>) -> ()
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func private @print_memref_i32(memref<*xi32>)
func.func private @printMemrefI32(memref<*xi32>)
"""


@pytest.mark.parametrize("lib", ["%linalg_test_lib_dir/libmlir_runner_utils%shlibext",
                                 str(LIB / "libmlir_runner_utils.so")])
def test_2021_runtime_names(tmp_path, lib):
    if lib.startswith("/") and not have_real:
        pytest.skip("no real library")
    f = tmp_path / "p.mlir"
    f.write_text(LEGACY)
    # gpurunner: the strict mlir-cpu-runner would refuse the unlowered IR, as LLVM 22 does.
    res = tool_main(["gpurunner", str(f), "--entry-point-result=void",
                     f"--shared-libs={lib}"], b"", {}, str(tmp_path))
    assert res.returncode == 0, res.stderr.decode()
    lines = res.stdout.decode().splitlines()
    assert lines[1] == "[84,  84]" and lines[3] == "[84,  84]"
    assert lines[0] == lines[2]


def test_capture_keeps_order_between_jit_code_and_providers(tmp_path):
    """printI64 (compiled), printMemref (Python) and printString interleave in program order."""
    src = """
func.func @main() {
  %c = arith.constant 1 : i64
  vector.print %c : i64
  %m = memref.alloc() : memref<i64>
  memref.store %c, %m[] : memref<i64>
  %u = memref.cast %m : memref<i64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  vector.print str "after\\n"
  return
}
func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }
"""
    f = tmp_path / "p.mlir"
    f.write_text(src)
    with capture_fds() as outer:  # nested capture, as under pytest's own fd capture
        res = tool_main(["gpurunner", str(f), "--entry-point-result=void",
                         "--shared-libs=mlir_runner_utils,mlir_c_runner_utils"], b"", {},
                        str(tmp_path))
    assert outer.stdout == b"" and outer.stderr == b""
    lines = res.stdout.decode().splitlines()
    assert lines[0] == "1"
    assert lines[1].startswith("Unranked Memref base@")
    assert lines[2:] == ["[1]", "after"]
