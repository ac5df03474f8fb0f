"""What mlir-opt 22 prints that a straightforward printer would not, checked byte for byte:
the trailing space some assembly formats leave (`llvm.insertvalue`/`extractvalue`, an
operand-less `scf.reduce`, the first line of `scf.index_switch`), the implicit
`scf.yield` of an `index_switch`'s `default` region (elided when printing, added when an
empty `default {}` is read), attribute dictionaries in name order, and integer memory
spaces (`memref<4xf32, 3>`).  The expected text
is written here; where Debian's mlir-opt 22 is installed it is compared with it too."""

from __future__ import annotations

import os
import subprocess

import pytest

from runner_core.ir.parse import parse_source
from runner_core.ir.printing import print_op

MLIR_OPT = os.environ.get("GPURUNNER_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")

SOURCE = """\
func.func @f(%s: !llvm.struct<(i64, i64)>, %v: i64, %n: index, %m: vector<4xf64>) -> i64 {
  %a = llvm.insertvalue %v, %s[0] : !llvm.struct<(i64, i64)>
  %b = llvm.extractvalue %a[1] : !llvm.struct<(i64, i64)>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  }
  %sw = scf.index_switch %n -> i64
  case 0 {
    scf.yield %b : i64
  }
  default {
    scf.yield %v : i64
  }
  scf.index_switch %n
  case 1 {
    scf.yield
  }
  default {
  }
  %t = llvm.intr.matrix.transpose %m {rows = 2 : i32, columns = 2 : i32} : vector<4xf64> into vector<4xf64>
  return %sw : i64
}
"""

EXPECTED = """\
module {
  func.func @f(%arg0: !llvm.struct<(i64, i64)>, %arg1: i64, %arg2: index, %arg3: vector<4xf64>) -> i64 {
    %0 = llvm.insertvalue %arg1, %arg0[0] : !llvm.struct<(i64, i64)>{sp}
    %1 = llvm.extractvalue %0[1] : !llvm.struct<(i64, i64)>{sp}
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.parallel (%arg4) = (%c0) to (%arg2) step (%c1) {
      scf.reduce{sp}
    }
    %2 = scf.index_switch %arg2 -> i64{sp}
    case 0 {
      scf.yield %1 : i64
    }
    default {
      scf.yield %arg1 : i64
    }
    scf.index_switch %arg2{sp}
    case 1 {
      scf.yield
    }
    default {
    }
    %3 = llvm.intr.matrix.transpose %arg3 {columns = 2 : i32, rows = 2 : i32} : vector<4xf64> into vector<4xf64>
    return %2 : i64
  }
}
""".replace("{sp}", " ")  # `{sp}`: the trailing spaces, visible


MAPS = """\
#a = affine_map<(d0) -> (d0 + 3)>
#b = affine_map<(d0)[s0] -> (d0 * 2 - s0)>
#c = affine_map<(d0, d1) -> (d1, d0)>
#d = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%m: memref<4x4xf32>, %x: index) -> index {
  %0 = affine.apply #b(%x)[%x]
  %1 = affine.apply #a(%0)
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %2 = vector.transfer_read %m[%c0, %c0], %cst {permutation_map = #c} : memref<4x4xf32>, vector<4x4xf32>
  linalg.generic {indexing_maps = [#d, #c], iterator_types = ["parallel", "parallel"]} ins(%m : memref<4x4xf32>) outs(%m : memref<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return %1 : index
}
"""

MAPS_PRINTED = """\
#map = affine_map<(d0)[s0] -> (d0 * 2 - s0)>
#map1 = affine_map<(d0) -> (d0 + 3)>
#map2 = affine_map<(d0, d1) -> (d1, d0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @f(%arg0: memref<4x4xf32>, %arg1: index) -> index {
    %0 = affine.apply #map(%arg1)[%arg1]
    %1 = affine.apply #map1(%0)
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %2 = vector.transfer_read %arg0[%c0, %c0], %cst {permutation_map = #map2} : memref<4x4xf32>, vector<4x4xf32>
    linalg.generic {indexing_maps = [#map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<4x4xf32>) outs(%arg0 : memref<4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    return %1 : index
  }
}
"""


SPACES = """\
func.func @f(%a: memref<4xf32, 3>, %b: memref<?x4xf32, strided<[4, 1], offset: ?>, 5>, %c: memref<4xf32, 3 : i32>, %d: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>, 1>) {
  return
}
"""

# An i64 memory space is printed without its type, any other integer type with it.
SPACES_PRINTED = """\
#map = affine_map<(d0, d1) -> (d1, d0)>
module {
  func.func @f(%arg0: memref<4xf32, 3>, %arg1: memref<?x4xf32, strided<[4, 1], offset: ?>, 5>, %arg2: memref<4xf32, 3 : i32>, %arg3: memref<4x4xf32, #map, 1>) {
    return
  }
}
"""


CASES = {"quirks": (SOURCE, EXPECTED), "map aliases": (MAPS, MAPS_PRINTED),
         "memory spaces": (SPACES, SPACES_PRINTED)}


@pytest.mark.parametrize("case", CASES)
def test_printed_as_mlir_opt_22_prints_it_and_read_back_the_same(case):
    source, expected = CASES[case]
    assert print_op(parse_source(source, "quirks.mlir")) == expected
    assert print_op(parse_source(expected, "again.mlir")) == expected


@pytest.mark.skipif(not os.path.exists(MLIR_OPT), reason="LLVM 22's mlir-opt is not installed")
@pytest.mark.parametrize("case", CASES)
def test_the_expected_text_is_mlir_opt_22s(case):
    source, expected = CASES[case]
    real = subprocess.run([MLIR_OPT], input=source.encode(), capture_output=True,
                          check=True).stdout.decode()
    assert real.rstrip("\n") == expected.rstrip("\n")


GENERIC = """\
func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b overflow<nsw> : i32
  %1 = arith.cmpi slt, %0, %b : i32
  %2 = arith.select %1, %0, %b : i32
  return %2 : i32
}
"""


def test_generic_form_properties_in_name_order(tmp_path):
    """`<{function_type = ..., sym_name = ...}>`: MLIR keeps properties and attributes
    in sorted dictionaries, in the generic form too."""
    text = print_op(parse_source(GENERIC, "g.mlir"), generic=True)
    assert '<{function_type = (i32, i32) -> i32, sym_name = "f"}>' in text
    if os.path.exists(MLIR_OPT):
        real = subprocess.run([MLIR_OPT, "-mlir-print-op-generic"], input=GENERIC.encode(),
                              capture_output=True, check=True).stdout.decode()
        assert real.rstrip("\n") == text.rstrip("\n")
