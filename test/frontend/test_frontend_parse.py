"""parse_source: modern and 2021 syntax, locations, and diagnostics."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from xdsl.dialects.builtin import FileLineColLoc

from runner_core.errors import IRError
from runner_core.ir.parse import parse_source, parse_source_ex

CPU_PROGRAM = """\
memref.global "private" constant @gv : memref<2xi32> = dense<[1, 2]>
func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c1i = arith.constant 1 : i32
  %a = memref.alloc(%c4) : memref<?xi32>
  %g = memref.get_global @gv : memref<2xi32>
  %u = memref.cast %a : memref<?xi32> to memref<*xi32>
  %r = memref.rank %u : memref<*xi32>
  %x = memref.atomic_rmw addi %c1i, %a[%c0] : (i32, memref<?xi32>) -> i32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %c1i, %a[%i] : memref<?xi32>
    scf.reduce
  }
  %s = index.add %c0, %c1
  vector.print %x : i32
  vector.print str "done\\n"
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<?xi32>
  return
}
"""


def _names(module):
    return [op.name for op in module.walk()]


def test_modern_cpu_program_parses_and_every_op_has_a_location():
    m = parse_source(CPU_PROGRAM, "prog.mlir")
    names = _names(m)
    for expected in ("memref.global", "memref.cast", "memref.rank", "memref.atomic_rmw",
                     "scf.parallel", "scf.reduce", "index.add", "vector.print", "func.call"):
        assert expected in names
    cast = next(op for op in m.walk() if op.name == "memref.cast")
    assert isinstance(cast.location, FileLineColLoc)
    assert (cast.location.line.data, cast.location.column.data) == (10, 8)


LEGACY = """\
func @main() {
  %c0 = constant 0 : index
  %n = constant 2 : index
  %h = alloc(%n) : memref<?xi32>
  %u = memref_cast %h : memref<?xi32> to memref<*xi32>
  %v = constant 42 : i32
  store %v, %h[%c0] : memref<?xi32>
  %w = load %h[%c0] : memref<?xi32>
  %s = addi %v, %w : i32
  %p = cmpi "slt", %v, %s : i32
  call @print_memref_i32(%u) : (memref<*xi32>) -> ()
  return
}
func private @print_memref_i32(memref<*xi32>)
"""


def test_2021_syntax_is_upgraded_and_logged():
    r = parse_source_ex(LEGACY, "old.mlir")
    names = set(_names(r.module))
    assert {"func.func", "arith.constant", "memref.alloc", "memref.cast", "memref.store",
            "memref.load", "arith.addi", "arith.cmpi", "func.call", "func.return"} <= names
    assert not any(n.startswith("std.") for n in names)
    olds = [(u.old, u.new) for u in r.upgrades]
    assert ("memref_cast", "memref.cast") in olds
    assert r.source.location(r.upgrades[0].offset).line == 1


def test_modern_file_logs_no_upgrade():
    assert parse_source_ex(CPU_PROGRAM, "p.mlir").upgrades == []


@pytest.mark.parametrize("text, line, col, fragment", [
    ("func.func @f() {\n  %0 = foo.bar 1 : i32\n  return\n}\n", 2, 8, "Dialect `foo' not found for custom op 'foo.bar'"),
    ("func.func @f() {\n  %1 = arith.addi %0, %2 : i32\n  return\n}\n", 2, 19, "undeclared SSA value"),
    ("func.func @f() -> i32 {\n  %1 = arith.addi %0, %0 : i32\n  %0 = arith.constant 1 : i32\n"
     "  return %1 : i32\n}\n", 2, 8, "does not dominate"),
    ("func.func @f() {\n  %0 = memref.alloc() : memref<?xi32>\n  return\n}\n", 2, 8,
     "'memref.alloc' op"),
    ("func.func @f(%m: memref<*xi32>) {\n  %0 = memref.cast %m : memref<*xi32> to memref<*xi32>\n"
     "  return\n}\n", 2, 8, "unranked to unranked"),
])
def test_diagnostics_point_at_the_offending_op(text, line, col, fragment):
    with pytest.raises(IRError) as info:
        parse_source(text, "bad.mlir")
    err = info.value
    assert (err.location.line, err.location.column) == (line, col)
    assert fragment in str(err)
    first, src, caret = str(err).splitlines()[:3]
    assert first.startswith(f"bad.mlir:{line}:{col}: error: ")
    assert caret == " " * (col - 1) + "^"
    assert src == text.splitlines()[line - 1]


SEED = Path(__file__).resolve().parents[3] / "shared" / "seed" / "async.mlir"


def _seed_text() -> str:
    path = Path(os.environ.get("GPURUNNER_SEED", SEED))
    if not path.exists():
        pytest.skip(f"seed file not present at {path}")
    return path.read_text()


def test_seed_parses_unchanged():
    r = parse_source_ex(_seed_text(), "async.mlir")
    names = _names(r.module)
    assert names.count("async.execute") == 4
    assert "gpu.launch" in names and "gpu.host_register" in names
    assert {u.old for u in r.upgrades} >= {"func", "constant", "alloc", "memref_cast", "store",
                                          "load", "addi", "call", "return"}


def test_seed_outlines():
    from runner_core.opt import tool_main

    r = tool_main(["gpurunner-opt", "-", "-gpu-kernel-outlining"], _seed_text().encode(),
                  {}, ".")
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode()
    assert "gpu.launch_func  @main_kernel::@main_kernel" in out
    assert "gpu.func @main_kernel(" in out and " kernel attributes {known_block_size" in out
    assert "gpu.launch " not in out
    # The outlined program still parses and verifies.
    parse_source(out, "outlined.mlir")
