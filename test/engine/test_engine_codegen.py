"""Code generation beyond the differential programs: semantics checked against Python.

Each test runs a small program through the engine in process and compares
with values computed here, for the constructs upstream's standard pipeline
cannot run (n-D vector ops, masked transfers, CAS-loop atomics, integer
powers, ...), for the memref ABI seen from C (ctypes calls into JIT code), and
for the registry seams other targets use.
"""

from __future__ import annotations

import ctypes
import struct

import pytest

from runner_core.cli import tool_main
from runner_core.codegen import LoweringTable, Registry, lower_module
from runner_core.codegen.target import host_target
from runner_core.ir.parse import parse_source
from runner_core.targets.host import compile_ir

LIBS = "--shared-libs=mlir_runner_utils,mlir_c_runner_utils"


def run(tmp_path, src: str, *args: str, result: str = "void") -> str:
    f = tmp_path / "t.mlir"
    f.write_text(src)
    res = tool_main(["gpurunner", str(f), f"--entry-point-result={result}", LIBS, *args], b"",
                    {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    assert res.returncode == 0, res.stderr.decode()
    return res.stdout.decode()


def wrap32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def ipow(b: int, e: int) -> int:
    if e < 0:
        return 1 if b == 1 else ((-1 if e % 2 else 1) if b == -1 else 0)
    return wrap32(b ** e)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_ipowi(tmp_path, opt):
    cases = [(3, 4), (-2, 5), (7, 0), (2, 31), (2, 33), (5, -1), (1, -7), (-1, -3), (-1, -4),
             (0, 0), (10, 12)]
    body = "\n".join(
        f"  %b{i} = arith.constant {b} : i32\n  %e{i} = arith.constant {e} : i32\n"
        f"  %r{i} = math.ipowi %b{i}, %e{i} : i32\n  vector.print %r{i} : i32"
        for i, (b, e) in enumerate(cases))
    out = run(tmp_path, f"func.func @main() {{\n{body}\n  return\n}}\n", opt)
    assert [int(x) for x in out.split()] == [ipow(b, e) for b, e in cases]


def test_fpowi_and_rsqrt(tmp_path):
    src = """
func.func @main() {
  %x = arith.constant 1.5 : f64
  %n = arith.constant -3 : i32
  %p = math.fpowi %x, %n : f64, i32
  vector.print %p : f64
  %f = arith.constant 16.0 : f32
  %r = math.rsqrt %f : f32
  vector.print %r : f32
  return
}
"""
    assert run(tmp_path, src).split() == ["%g" % (1.5 ** -3), "0.25"]


def test_n_d_vector_operations(tmp_path):
    src = """
func.func @main() {
  %row = arith.constant dense<[1, 2, 3]> : vector<3xi32>
  %b = vector.broadcast %row : vector<3xi32> to vector<2x3xi32>
  vector.print %b : vector<2x3xi32>
  %col = arith.constant dense<[[10], [20]]> : vector<2x1xi32>
  %bc = vector.broadcast %col : vector<2x1xi32> to vector<2x3xi32>
  vector.print %bc : vector<2x3xi32>
  %s = arith.addi %b, %bc : vector<2x3xi32>
  vector.print %s : vector<2x3xi32>
  %x = vector.extract %s[1, 2] : i32 from vector<2x3xi32>
  vector.print %x : i32
  %c = arith.constant -1 : i32
  %ins = vector.insert %c, %s [0, 1] : i32 into vector<2x3xi32>
  vector.print %ins : vector<2x3xi32>
  %sh = vector.shuffle %s, %ins [1, 2] : vector<2x3xi32>, vector<2x3xi32>
  vector.print %sh : vector<2x3xi32>
  %m = arith.muli %sh, %sh : vector<2x3xi32>
  vector.print %m : vector<2x3xi32>
  return
}
"""
    assert run(tmp_path, src).splitlines() == [
        "( ( 1, 2, 3 ), ( 1, 2, 3 ) )",
        "( ( 10, 10, 10 ), ( 20, 20, 20 ) )",
        "( ( 11, 12, 13 ), ( 21, 22, 23 ) )",
        "23",
        "( ( 11, -1, 13 ), ( 21, 22, 23 ) )",
        "( ( 21, 22, 23 ), ( 11, -1, 13 ) )",
        "( ( 441, 484, 529 ), ( 121, 1, 169 ) )",
    ]


def test_transfer_read_with_mask_and_padding(tmp_path):
    src = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloc() : memref<2x3xi32>
  %v = arith.constant 5 : i32
  %w = arith.constant 6 : i32
  scf.for %i = %c0 to %c3 step %c1 {
    memref.store %v, %m[%c0, %i] : memref<2x3xi32>
    memref.store %w, %m[%c1, %i] : memref<2x3xi32>
  }
  %pad = arith.constant 0 : i32
  %mask = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %r = vector.transfer_read %m[%c1, %c0], %pad, %mask : memref<2x3xi32>, vector<4xi32>
  vector.print %r : vector<4xi32>
  return
}
"""
    assert run(tmp_path, src).strip() == "( 6, 0, 6, 0 )"


def test_atomic_rmw_compare_and_swap_kinds(tmp_path):
    src = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %f = memref.alloc() : memref<1xf32>
  %i = memref.alloc() : memref<1xi64>
  %one = arith.constant 1.0 : f32
  %onei = arith.constant 1 : i64
  memref.store %one, %f[%c0] : memref<1xf32>
  memref.store %onei, %i[%c0] : memref<1xi64>
  %x = arith.constant 1.5 : f32
  %y = arith.constant 3 : i64
  scf.for %k = %c0 to %c5 step %c1 {
    %a = memref.atomic_rmw mulf %x, %f[%c0] : (f32, memref<1xf32>) -> f32
    %b = memref.atomic_rmw muli %y, %i[%c0] : (i64, memref<1xi64>) -> i64
  }
  %old = memref.atomic_rmw mulf %x, %f[%c0] : (f32, memref<1xf32>) -> f32
  %rf = memref.load %f[%c0] : memref<1xf32>
  %ri = memref.load %i[%c0] : memref<1xi64>
  vector.print %old : f32
  vector.print %rf : f32
  vector.print %ri : i64
  return
}
"""
    assert run(tmp_path, src).split() == ["%g" % 1.5 ** 5, "%g" % 1.5 ** 6, str(3 ** 5)]


def test_aligned_alloc(tmp_path):
    src = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c20 = arith.constant 20 : index
  %c256 = arith.constant 256 : index
  scf.for %k = %c0 to %c20 step %c1 {
    %m = memref.alloc(%k) {alignment = 256} : memref<?xi8>
    %p = "memref.extract_aligned_pointer_as_index"(%m) : (memref<?xi8>) -> index
    %r = arith.remui %p, %c256 : index
    vector.print %r : index punctuation <comma>
    memref.dealloc %m : memref<?xi8>
  }
  vector.print punctuation <newline>
  return
}
"""
    assert run(tmp_path, src).strip() == ", ".join(["0"] * 20) + ","


def test_while_with_different_region_types(tmp_path):
    src = """
func.func @main() {
  %c0 = arith.constant 0 : i32
  %f = arith.constant 0.5 : f64
  %r = scf.while (%i = %c0, %x = %f) : (i32, f64) -> f64 {
    %c10 = arith.constant 10 : i32
    %go = arith.cmpi slt, %i, %c10 : i32
    %twice = arith.addf %x, %x : f64
    scf.condition(%go) %twice : f64
  } do {
  ^bb0(%y: f64):
    %k = arith.fptosi %y : f64 to i32
    scf.yield %k, %y : i32, f64
  }
  vector.print %r : f64
  return
}
"""
    # x doubles each trip; the loop stops once int(x) >= 10.
    x, i = 0.5, 0
    while True:
        x2 = x + x
        if not i < 10:
            break
        i, x = int(x2), x2
    assert run(tmp_path, src).strip() == f"{x2:g}"


def test_parallel_three_dims_without_reduction(tmp_path):
    src = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloc() : memref<2x3x2xindex>
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c2, %c3, %c2) step (%c1, %c1, %c1) {
    %a = arith.muli %i, %c3 : index
    %b = arith.addi %a, %j : index
    %d = arith.muli %b, %c2 : index
    %e = arith.addi %d, %k : index
    memref.store %e, %m[%i, %j, %k] : memref<2x3x2xindex>
  }
  %u = memref.cast %m : memref<2x3x2xindex> to memref<*xindex>
  call @printMemrefInd(%u) : (memref<*xindex>) -> ()
  return
}
func.func private @printMemrefInd(memref<*xindex>) attributes { llvm.emit_c_interface }
"""
    out = run(tmp_path, src).splitlines()
    flat = [int(t) for line in out[1:] for t in
            line.replace("[", " ").replace("]", " ").replace(",", " ").split()]
    assert flat == list(range(12))


def test_unranked_dealloc_and_dim(tmp_path):
    src = """
func.func @main() {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %m = memref.alloc(%c5) : memref<3x?xf32>
  %u = memref.cast %m : memref<3x?xf32> to memref<*xf32>
  %d = memref.dim %u, %c1 : memref<*xf32>
  %r = memref.rank %u : memref<*xf32>
  vector.print %d : index
  vector.print %r : index
  memref.dealloc %u : memref<*xf32>
  return
}
"""
    assert run(tmp_path, src).split() == ["5", "2"]


def test_results_agree_across_opt_levels(tmp_path):
    src = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000 : index
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %q = math.sqrt %f : f64
    %a = arith.addf %acc, %q : f64
    scf.yield %a : f64
  }
  vector.print %s : f64
  return
}
"""
    outs = {run(tmp_path, src, f"-O{k}") for k in range(4)}
    assert outs == {f"{sum(i ** 0.5 for i in range(1000)):g}\n"}


# ----------------------------------------------------- ABI seen from C
ABI = """
func.func @sum(%m: memref<?xf32>) -> f32 attributes { llvm.emit_c_interface } {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %z = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    %x = memref.load %m[%i] : memref<?xf32>
    %a = arith.addf %acc, %x : f32
    scf.yield %a : f32
  }
  return %s : f32
}
func.func @view(%m: memref<?xf32>, %off: index) -> memref<2xf32, strided<[1], offset: ?>>
    attributes { llvm.emit_c_interface } {
  %v = memref.subview %m[%off][2][1] : memref<?xf32> to memref<2xf32, strided<[1], offset: ?>>
  return %v : memref<2xf32, strided<[1], offset: ?>>
}
"""


class Desc1(ctypes.Structure):
    _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * 1),
                ("strides", ctypes.c_int64 * 1)]


def test_memref_abi_from_c():
    module = parse_source(ABI, "abi.mlir")
    llmod, _ = lower_module(module, host_target(), name="abi")
    lib = compile_ir(str(llmod), exports=["sum", "_mlir_ciface_sum", "_mlir_ciface_view"])
    data = (ctypes.c_float * 5)(1.0, 2.0, 3.0, 4.0, 5.5)
    addr = ctypes.addressof(data)
    # Expanded convention: allocated, aligned, offset, size, stride.
    expanded = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
                                ctypes.c_int64, ctypes.c_int64)(lib.address("sum"))
    assert expanded(addr, addr, 0, 3, 1) == 6.0
    # C interface: a pointer to the descriptor.
    d = Desc1(addr, addr, 0, (ctypes.c_int64 * 1)(5), (ctypes.c_int64 * 1)(1))
    ciface = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.POINTER(Desc1))(
        lib.address("_mlir_ciface_sum"))
    assert ciface(ctypes.byref(d)) == 15.5
    # A memref result comes back through a leading result pointer.
    out = Desc1()
    view = ctypes.CFUNCTYPE(None, ctypes.POINTER(Desc1), ctypes.POINTER(Desc1), ctypes.c_int64)(
        lib.address("_mlir_ciface_view"))
    view(ctypes.byref(out), ctypes.byref(d), 2)
    assert (out.aligned, out.offset, out.sizes[0], out.strides[0]) == (addr, 2, 2, 1)
    assert struct.unpack("<f", ctypes.string_at(out.aligned + 4 * out.offset, 4))[0] == 3.0


# ------------------------------------------------------ registry seams
def test_target_specific_lowering_wins_for_its_target_only():
    from runner_core.codegen.lowerings import REGISTRIES

    generic = LoweringTable("host", REGISTRIES).lookup("arith.addi")
    assert generic is not None

    def special(ctx, op):  # pragma: no cover - never called here
        raise AssertionError

    extra = Registry()
    extra.register("arith.addi", special, targets=["test-target"])
    assert LoweringTable("test-target", (*REGISTRIES, extra)).lookup("arith.addi") is special
    assert LoweringTable("host", (*REGISTRIES, extra)).lookup("arith.addi") is generic


def test_every_dialect_op_we_claim_has_a_lowering():
    from runner_core.codegen.lowerings import table_for

    names = set(table_for("host").registered_ops())
    for op in ("func.func", "func.call", "arith.ceildivsi", "math.ipowi", "index.cmp",
               "memref.subview", "memref.copy", "memref.global", "scf.parallel", "cf.switch",
               "cf.assert", "vector.print", "vector.transfer_read", "llvm.call",
               "builtin.unrealized_conversion_cast"):
        assert op in names, op


def test_every_lowering_registry_is_installed():
    """A module of lowerings reaches a target only through lowerings.REGISTRIES: one
    defined but not listed there would leave its ops 'unsupported' everywhere."""
    import importlib
    import pkgutil

    import runner_core.codegen as codegen
    from runner_core.codegen.lowerings import REGISTRIES

    missing = []
    for info in pkgutil.iter_modules(codegen.__path__):
        module = importlib.import_module(f"runner_core.codegen.{info.name}")
        registry = getattr(module, "registry", None)
        if isinstance(registry, Registry) and registry not in REGISTRIES:
            missing.append(info.name)
    assert not missing, f"add their registries to codegen.lowerings.REGISTRIES: {missing}"
    assert len(set(map(id, REGISTRIES))) == len(REGISTRIES), "a registry listed twice"
