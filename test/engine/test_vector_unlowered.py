"""Vector forms LLVM 22's lowerings leave unlowered fail here too, at the op.

Each program is valid vector IR that Debian's ``mlir-opt`` (test-lower-to-llvm,
or the passes named) cannot take to the LLVM dialect, so the real
``mlir-runner`` refuses it.  The embedded runner must refuse it as well, with
a located "unsupported" error naming the op (never a run that prints
something).  Where the real tools are installed the test also checks that
they do fail on the program, so the list stays a list of real limits.
"""

from __future__ import annotations

import subprocess

import pytest
from update_checks import HAVE_LLVM, LLVM, REAL_LIBS

from runner_core.cli import tool_main

_MAIN = "func.func @main() {{\n{body}\n  return\n}}\n"
CASES = {
    "dynamic_outer_extract": ("vector.extract", """
  %v = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<2xindex>
  %i = memref.load %m[%c0] : memref<2xindex>
  %x = vector.extract %v[%i, 1] : i32 from vector<2x2xi32>
  vector.print %x : i32"""),
    "masked_load_2d": ("vector.maskedload", """
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<4x4xf32>
  %k = vector.constant_mask [1, 2] : vector<2x2xi1>
  %p = arith.constant dense<0.0> : vector<2x2xf32>
  %v = vector.maskedload %m[%c0, %c0], %k, %p : memref<4x4xf32>, vector<2x2xi1>, vector<2x2xf32> into vector<2x2xf32>
  vector.print %v : vector<2x2xf32>"""),
    "load_2d": ("vector.load", """
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<4x4xf32>
  %v = vector.load %m[%c0, %c0] : memref<4x4xf32>, vector<2x2xf32>
  vector.print %v : vector<2x2xf32>"""),
    "contract_max_kind": ("vector.contract", """
  %x = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %s = arith.constant 0.0 : f32
  %d = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<maxnumf>} %x, %x, %s : vector<2xf32>, vector<2xf32> into f32
  vector.print %d : f32"""),
    "contract_mixed_types": ("vector.contract", """
  %x = arith.constant dense<[1, 2]> : vector<2xi8>
  %s = arith.constant 0 : i32
  %d = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} %x, %x, %s : vector<2xi8>, vector<2xi8> into i32
  vector.print %d : i32"""),
    "scatter_2d": ("vector.scatter", """
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<8xf32>
  %i = arith.constant dense<[[0, 1], [2, 3]]> : vector<2x2xi32>
  %k = arith.constant dense<true> : vector<2x2xi1>
  %v = arith.constant dense<1.0> : vector<2x2xf32>
  vector.scatter %m[%c0] [%i], %k, %v : memref<8xf32>, vector<2x2xi32>, vector<2x2xi1>, vector<2x2xf32>"""),
    "transfer_read_passthru": ("vector.mask", """
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<8xf32>
  %k = arith.constant dense<[true, false]> : vector<2xi1>
  %p = arith.constant dense<1.0> : vector<2xf32>
  %f = arith.constant 0.0 : f32
  %g = vector.mask %k, %p { vector.transfer_read %m[%c0], %f : memref<8xf32>, vector<2xf32> } : vector<2xi1> -> vector<2xf32>
  vector.print %g : vector<2xf32>"""),
}
PIPELINE = ["-convert-vector-to-scf", "-convert-scf-to-cf", "-lower-vector-mask",
            "-lower-vector-multi-reduction", "-test-lower-to-llvm"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_embedded_runner_refuses_at_the_op(name, tmp_path):
    op, body = CASES[name]
    src = tmp_path / "p.mlir"
    src.write_text(_MAIN.format(body=body))
    # gpurunner: the strict mlir-runner refuses high-level IR before code generation.
    res = tool_main(["gpurunner", str(src), "-e", "main", "--entry-point-result=void",
                     "--shared-libs=mlir_c_runner_utils"], b"", {}, str(tmp_path))
    err = res.stderr.decode()
    assert res.returncode != 0 and res.stdout == b"", err
    first = err.splitlines()[0]
    assert first.startswith(f"{src}:") and ": error: unsupported: " in first, err
    assert op in first and "Traceback" not in err


@pytest.mark.integration
@pytest.mark.skipif(not HAVE_LLVM, reason="LLVM 22 tools not installed")
@pytest.mark.parametrize("name", sorted(CASES))
def test_real_tools_fail_too(name, tmp_path):
    src = tmp_path / "p.mlir"
    src.write_text(_MAIN.format(body=CASES[name][1]))
    opt = subprocess.run([str(LLVM / "bin/mlir-opt"), str(src), *PIPELINE],
                         capture_output=True, timeout=120)
    if opt.returncode != 0:
        return  # mlir-opt itself refuses it
    run = subprocess.run([str(LLVM / "bin/mlir-runner"), "-e", "main",
                          "--entry-point-result=void",
                          f"--shared-libs={REAL_LIBS['%mlir_c_runner_utils']}"],
                         input=opt.stdout, capture_output=True, timeout=120)
    assert run.returncode != 0, run.stdout.decode()
