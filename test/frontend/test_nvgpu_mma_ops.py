"""The sm80 nvgpu ops' verifier: each bad program gets real mlir-opt 22's message,
at its location (the expected texts below were produced by mlir-opt 22; when it
is installed, the test also asks it again).  Also: valid IR prints as mlir-opt prints it."""

from __future__ import annotations

import os
import subprocess

import pytest

from runner_core.opt import tool_main

MLIR_OPT = os.environ.get("GPURUNNER_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")

CASES = [
    ("func.func @f(%g: memref<16x16xf16>, %s: memref<16x16xf16, 3>, %i: index) { %t = nvgpu.device_async_copy %g[%i, %i], %s[%i, %i], 4 {bypassL1} : memref<16x16xf16> to memref<16x16xf16, 3>  return } ",
     "'nvgpu.device_async_copy' op bypassL1 does not satify alignment for 'memref<16x16xf16, 3>' with destination element 4. Unset bypassL1, or set destination element to 8"),
    ("func.func @f(%g: memref<16x16xf16>, %s: memref<16x16xf16, 3>, %i: index) { %t = nvgpu.device_async_copy %g[%i, %i], %s[%i, %i], 3 : memref<16x16xf16> to memref<16x16xf16, 3>  return } ",
     "Requested copy elements is 3 with width 16. But copy elements could be one of 2, 4, 8."),
    ("func.func @f(%g: memref<16x16xf16>, %s: memref<16x16xf16, 3>, %i: index) { %t = nvgpu.device_async_copy %g[%i], %s[%i, %i], 4 : memref<16x16xf16> to memref<16x16xf16, 3>  return } ",
     "'nvgpu.device_async_copy' op expected 2 source indices, got 1"),
    ("func.func @f(%g: memref<16x16xf16>, %s: memref<16x16xf16>, %i: index) { %t = nvgpu.device_async_copy %g[%i, %i], %s[%i, %i], 8 : memref<16x16xf16> to memref<16x16xf16>  return } ",
     "destination memref must have a memory space attribute of IntegerAttr(3) or gpu::AddressSpaceAttr(Workgroup)"),
    ("func.func @f(%g: memref<16x16xf32>, %s: memref<16x16xf16, 3>, %i: index) { %t = nvgpu.device_async_copy %g[%i, %i], %s[%i, %i], 4 : memref<16x16xf32> to memref<16x16xf16, 3>  return } ",
     "source and destination must have the same element type"),
    ("func.func @f(%sm: memref<16x16xf16, 3>, %i: index) { %m = nvgpu.ldmatrix %sm[%i, %i] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, 3> -> vector<4x4xf16>  return } ",
     "expected vector register shape[1] = 2"),
    ("func.func @f(%sm: memref<16x16xf16>, %i: index) { %m = nvgpu.ldmatrix %sm[%i, %i] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16> -> vector<4x2xf16>  return } ",
     "expected nvgpu.ldmatrix srcMemref must have a memory space attribute of IntegerAttr(3) or gpu::AddressSpaceAttr(Workgroup)"),
    ("func.func @f(%sm: memref<16x16xf16, 3>, %i: index) { %m = nvgpu.ldmatrix %sm[%i, %i] {numTiles = 2 : i32, transpose = false} : memref<16x16xf16, 3> -> vector<4x2xf16>  return } ",
     "expected vector register shape[0] and numTiles to match"),
    ("func.func @f(%sm: memref<16x16xi8, 3>, %i: index) { %m = nvgpu.ldmatrix %sm[%i, %i] {numTiles = 4 : i32, transpose = true} : memref<16x16xi8, 3> -> vector<4x4xi8>  return } ",
     "nvgpu.ldmatrix transpose works only at 16b granularity"),
    ("func.func @f(%a: vector<4x4xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) { %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x4xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>  return } ",
     "'nvgpu.mma.sync' op expected 256 warp-wide matrix A elements"),
    ("func.func @f(%a: vector<2x4xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) { %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<2x4xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>  return } ",
     "'nvgpu.mma.sync' op expected matrix A to be shaped (4 x 2)"),
    ("func.func @f(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) { %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16], tf32Enabled} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>  return } ",
     "'nvgpu.mma.sync' op expected tf32 tensor cores only for F32 operands"),
    ("func.func @f(%a: vector<4x2xi16>, %b: vector<2x2xi16>, %c: vector<2x2xi32>) { %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xi16>, vector<2x2xi16>, vector<2x2xi32>) -> vector<2x2xi32>  return } ",
     "expected input data type (i4,i8,f16,bf16,tf32,f64) supported by nvgpu.mma.sync"),
]


def _ours(text: str, tmp_path) -> tuple[int, str, str]:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    r = tool_main(["mlir-opt", str(path)], b"", dict(os.environ), str(tmp_path))
    return r.returncode, r.stdout.decode(), r.stderr.decode()


@pytest.mark.parametrize("text,message", CASES, ids=[str(i) for i in range(len(CASES))])
def test_verifier_message_is_mlir_opts(text, message, tmp_path):
    rc, _, err = _ours(text, tmp_path)
    assert rc != 0
    line = next(x for x in err.splitlines() if "error:" in x)
    assert line.split("error: ", 1)[1] == message
    assert line.startswith(str(tmp_path / "in.mlir") + ":1:")
    if os.path.exists(MLIR_OPT):
        real = subprocess.run([MLIR_OPT, str(tmp_path / "in.mlir")], capture_output=True,
                              text=True, timeout=60)
        real_line = next(x for x in real.stderr.splitlines() if "error:" in x)
        assert real_line == line


VALID = """func.func @f(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>, %sm: memref<128x128xf16, #gpu.address_space<workgroup>>, %g: memref<128x128xf16>, %i: index) -> vector<2x2xf32> {
  %m = nvgpu.ldmatrix %sm[%i, %i] {numTiles = 4 : i32, transpose = false} : memref<128x128xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
  %d = nvgpu.mma.sync (%m, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  %t = nvgpu.device_async_copy %g[%i, %i], %sm[%i, %i], 8 {bypassL1} : memref<128x128xf16> to memref<128x128xf16, #gpu.address_space<workgroup>>
  %t2 = nvgpu.device_async_copy %g[%i, %i], %sm[%i, %i], 4, %i : memref<128x128xf16> to memref<128x128xf16, #gpu.address_space<workgroup>>
  %gr = nvgpu.device_async_create_group %t, %t2
  nvgpu.device_async_wait %gr {numGroups = 1 : i32}
  nvgpu.device_async_wait %gr
  return %d : vector<2x2xf32>
}
"""

PRINTED = """module {
  func.func @f(%arg0: vector<4x2xf16>, %arg1: vector<2x2xf16>, %arg2: vector<2x2xf32>, %arg3: memref<128x128xf16, #gpu.address_space<workgroup>>, %arg4: memref<128x128xf16>, %arg5: index) -> vector<2x2xf32> {
    %0 = nvgpu.ldmatrix %arg3[%arg5, %arg5] {numTiles = 4 : i32, transpose = false} : memref<128x128xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %1 = nvgpu.mma.sync(%0, %arg1, %arg2) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %2 = nvgpu.device_async_copy %arg4[%arg5, %arg5], %arg3[%arg5, %arg5], 8 {bypassL1} : memref<128x128xf16> to memref<128x128xf16, #gpu.address_space<workgroup>>
    %3 = nvgpu.device_async_copy %arg4[%arg5, %arg5], %arg3[%arg5, %arg5], 4, %arg5 : memref<128x128xf16> to memref<128x128xf16, #gpu.address_space<workgroup>>
    %4 = nvgpu.device_async_create_group %2, %3
    nvgpu.device_async_wait %4 {numGroups = 1 : i32}
    nvgpu.device_async_wait %4
    return %1 : vector<2x2xf32>
  }
}

"""


def test_valid_ops_print_as_mlir_opt(tmp_path):
    rc, out, err = _ours(VALID, tmp_path)
    assert rc == 0, err
    assert out == PRINTED
    if os.path.exists(MLIR_OPT):
        real = subprocess.run([MLIR_OPT, str(tmp_path / "in.mlir")], capture_output=True,
                              text=True, timeout=60)
        assert real.stdout == out
