"""The sm_90 part of the nvgpu dialect: syntax, printing and verifier messages of MLIR 22.

Every expected text here is what LLVM 22's ``mlir-opt`` prints for the same
input (captured from it; re-checked against it where it is installed), never
our own output.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from runner_core.opt import tool_main

MLIR_OPT = shutil.which("mlir-opt", path="/usr/lib/llvm-22/bin")

ROUNDTRIP = """\
!tm = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = nan, interleave = none>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @host(%m: memref<*xf16>, %n: index) -> !tm {
  %d = nvgpu.tma.create.descriptor %m box[%n, %n] : memref<*xf16> -> !tm
  return %d : !tm
}
func.func @kernel(%d: !tm, %s: memref<64x64xf16, #gpu.address_space<workgroup>>, %i: index, %p: i1, %mask: i16, %out: memref<64x64xf32>) {
  %b = nvgpu.mbarrier.create -> !bars
  nvgpu.mbarrier.init %b[%i], %i : !bars
  nvgpu.mbarrier.init %b[%i], %i, predicate = %p : !bars
  nvgpu.tma.prefetch.descriptor %d : !tm
  nvgpu.tma.prefetch.descriptor %d, predicate = %p : !tm
  nvgpu.mbarrier.arrive.expect_tx %b[%i], %i, predicate = %p : !bars
  nvgpu.tma.async.load %d[%i, %i], %b[%i] to %s : !tm, !bars -> memref<64x64xf16, #gpu.address_space<workgroup>>
  nvgpu.tma.async.load %d[%i, %i], %b[%i] to %s multicast_mask = %mask, predicate = %p : !tm, !bars -> memref<64x64xf16, #gpu.address_space<workgroup>>
  nvgpu.mbarrier.try_wait.parity %b[%i], %p, %i : !bars
  %wd = nvgpu.warpgroup.generate.descriptor %s, %d : memref<64x64xf16, #gpu.address_space<workgroup>>, !tm -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
  %acc = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
  %r = nvgpu.warpgroup.mma %wd, %wd, %acc {transposeB, waitGroup = 2 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
  %r2 = nvgpu.warpgroup.mma %wd, %wd, %r {waitGroup = 1 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
  nvvm.wgmma.fence.aligned
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 1
  nvgpu.warpgroup.mma.store %r2, %out : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf32>
  return
}
"""

# mlir-opt 22's output for ROUNDTRIP (custom forms: types without `!nvgpu.` in ops).
EXPECTED = """\
module {
  func.func @host(%arg0: memref<*xf16>, %arg1: index) -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = nan, interleave = none> {
    %0 = nvgpu.tma.create.descriptor %arg0 box[%arg1, %arg1] : memref<*xf16> -> <tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = nan, interleave = none>
    return %0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = nan, interleave = none>
  }
  func.func @kernel(%arg0: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = nan, interleave = none>, %arg1: memref<64x64xf16, #gpu.address_space<workgroup>>, %arg2: index, %arg3: i1, %arg4: i16, %arg5: memref<64x64xf32>) {
    %0 = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    nvgpu.mbarrier.init %0[%arg2], %arg2 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    nvgpu.mbarrier.init %0[%arg2], %arg2, predicate = %arg3 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    nvgpu.tma.prefetch.descriptor %arg0 : <tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = nan, interleave = none>
    nvgpu.tma.prefetch.descriptor %arg0, predicate = %arg3 : <tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = nan, interleave = none>
    nvgpu.mbarrier.arrive.expect_tx %0[%arg2], %arg2, predicate = %arg3 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    nvgpu.tma.async.load %arg0[%arg2, %arg2], %0[%arg2] to %arg1 : <tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = nan, interleave = none>, <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4> -> memref<64x64xf16, #gpu.address_space<workgroup>>
    nvgpu.tma.async.load %arg0[%arg2, %arg2], %0[%arg2] to %arg1 multicast_mask = %arg4, predicate = %arg3 : <tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = nan, interleave = none>, <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4> -> memref<64x64xf16, #gpu.address_space<workgroup>>
    nvgpu.mbarrier.try_wait.parity %0[%arg2], %arg3, %arg2 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    %1 = nvgpu.warpgroup.generate.descriptor %arg1, %arg0 : memref<64x64xf16, #gpu.address_space<workgroup>>, <tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = nan, interleave = none> -> <tensor = memref<64x64xf16, 3>>
    %2 = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x64xf32>>
    %3 = nvgpu.warpgroup.mma %1, %1, %2 {transposeB, waitGroup = 2 : i64} : <tensor = memref<64x64xf16, 3>>, <tensor = memref<64x64xf16, 3>>, <fragmented = vector<64x64xf32>> -> <fragmented = vector<64x64xf32>>
    %4 = nvgpu.warpgroup.mma %1, %1, %3 : <tensor = memref<64x64xf16, 3>>, <tensor = memref<64x64xf16, 3>>, <fragmented = vector<64x64xf32>> -> <fragmented = vector<64x64xf32>>
    nvvm.wgmma.fence.aligned
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 1
    nvgpu.warpgroup.mma.store %4, %arg5 : <fragmented = vector<64x64xf32>> to memref<64x64xf32>
    return
  }
}

"""

HEADER = '!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>\n!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>\n'

# (name, function, "line:col", message): mlir-opt 22's first diagnostic for HEADER + function.
INVALID = [
    ('load_rank',
     'func.func @f(%d: !tmA, %b: !bar, %s: memref<128x64xf16, 3>, %i: index) {\n  nvgpu.tma.async.load %d[%i], %b[%i] to %s : !tmA, !bar -> memref<128x64xf16, 3>\n  return\n}',
     '4:3',
     'number of coordinates do not match with the rank of tensor descriptor map.'),
    ('load_shape',
     'func.func @f(%d: !tmA, %b: !bar, %s: memref<64x64xf16, 3>, %i: index) {\n  nvgpu.tma.async.load %d[%i, %i], %b[%i] to %s : !tmA, !bar -> memref<64x64xf16, 3>\n  return\n}',
     '4:3',
     "memref and tensor map shapes mismatch 'memref<128x64xf16, 3>' != 'memref<64x64xf16, 3>'"),
    ('load_elem',
     'func.func @f(%d: !tmA, %b: !bar, %s: memref<128x64xf32, 3>, %i: index) {\n  nvgpu.tma.async.load %d[%i, %i], %b[%i] to %s : !tmA, !bar -> memref<128x64xf32, 3>\n  return\n}',
     '4:3',
     'the element type of tensor map descriptor and memref must be same'),
    ('load_space',
     'func.func @f(%d: !tmA, %b: !bar, %s: memref<128x64xf16>, %i: index) {\n  nvgpu.tma.async.load %d[%i, %i], %b[%i] to %s : !tmA, !bar -> memref<128x64xf16>\n  return\n}',
     '4:3',
     'the destination memref has incorrect address space, it must be shared memory address space.'),
    ('create_lastdim',
     'func.func @f(%m: memref<*xf16>, %i: index) {\n  %d = nvgpu.tma.create.descriptor %m box[%i, %i] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<128x32xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>\n  return\n}',
     '4:8',
     'the tensormap descriptor must have last dimension of 128 bytes but it is 64 bytes'),
    ('create_space',
     'func.func @f(%m: memref<*xf16>, %i: index) {\n  %d = nvgpu.tma.create.descriptor %m box[%i, %i] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>\n  return\n}',
     '4:8',
     'the tensor map descriptor has incorrect address space, it must be shared memory address space.'),
    ('create_interleave',
     'func.func @f(%m: memref<*xf16>, %i: index) {\n  %d = nvgpu.tma.create.descriptor %m box[%i, %i] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = interleave_16b>\n  return\n}',
     '4:8',
     'Interleave options are not supported yet.'),
    ('create_dim',
     'func.func @f(%m: memref<*xf16>, %i: index) {\n  %d = nvgpu.tma.create.descriptor %m box[%i, %i] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<512x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>\n  return\n}',
     '4:8',
     'the tensor map descriptor must have dimensions between 1 and 256 but it is 512'),
    ('gen_swizzle',
     'func.func @f(%s: memref<128x64xf16, 3>, %d: !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>) {\n  %x = nvgpu.warpgroup.generate.descriptor %s, %d : memref<128x64xf16, 3>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>\n  return\n}',
     '4:8',
     'supports only swizzle_128b is supported for the time being'),
    ('mma_k',
     'func.func @f(%a: !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<32x128xf16, 3>>, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {\n  %d = nvgpu.warpgroup.mma %a, %b, %c : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<32x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>\n  return\n}',
     '4:8',
     "'nvgpu.warpgroup.mma' op 2nd dim matrix-A (64)!= 1st dim matrix-B (32 )"),
    ('mma_m',
     'func.func @f(%a: !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>) {\n  %d = nvgpu.warpgroup.mma %a, %b, %c : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>\n  return\n}',
     '4:8',
     "'nvgpu.warpgroup.mma' op 1st dim matrix-A ( 128 )!= 1st dim matrix-C ( 64 )"),
    ('mma_n',
     'func.func @f(%a: !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<64x120xf16, 3>>, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {\n  %d = nvgpu.warpgroup.mma %a, %b, %c : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x120xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>\n  return\n}',
     '4:8',
     "'nvgpu.warpgroup.mma' op 2nd dim matrix-B ( 120 ) != 2nd dim matrix-C ( 128 )"),
    ('mma_types',
     'func.func @f(%a: !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf32, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf32, 3>>, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {\n  %d = nvgpu.warpgroup.mma %a, %b, %c : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf32, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf32, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>\n  return\n}',
     '4:8',
     "'nvgpu.warpgroup.mma' op 'f32' += 'f32' * 'f32', it is not supported."),
    ('mma_transA',
     'func.func @f(%a: !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {\n  %d = nvgpu.warpgroup.mma %a, %b, %c {transposeA} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>\n  return\n}',
     '4:8',
     "'nvgpu.warpgroup.mma' op supports non-transpose A (Row Major) and transpose B (Column Major) for the time being"),
    ('store_size',
     'func.func @f(%c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>, %m: memref<64x128xf32, 3>) {\n  nvgpu.warpgroup.mma.store %c, %m : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> to memref<64x128xf32, 3>\n  return\n}',
     '4:3',
     "'nvgpu.warpgroup.mma.store' op results ['vector<128x128xf32>'][128] values. However, destination memref[64][128]  does not have same size as results"),
    ('store_f16',
     'func.func @f(%c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf16>>, %m: memref<128x128xf16, 3>) {\n  nvgpu.warpgroup.mma.store %c, %m : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf16>> to memref<128x128xf16, 3>\n  return\n}',
     '4:3',
     "'nvgpu.warpgroup.mma.store' op hit a limitation: only f32 results for the time being"),
    ('init_m',
     'func.func @f() {\n  %c = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<96x128xf32>>\n  return\n}',
     '4:8',
     "'nvgpu.warpgroup.mma.init.accumulator' op has type 'vector<96x128xf32>'. It does not fit into warp-group level (wgmma) matrix multiplication instruction (or not supported yet)"),
    ('init_n',
     'func.func @f() {\n  %c = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x100xf32>>\n  return\n}',
     '4:8',
     "'nvgpu.warpgroup.mma.init.accumulator' op has type 'vector<128x100xf32>'. It does not fit into warp-group level (wgmma) matrix multiplication instruction (or not supported yet)"),
]

BAD_ENUM = ("!t = !nvgpu.tensormap.descriptor<tensor = memref<8xf32, 3>, swizzle = bogus, "
            "l2promo = none, oob = zero, interleave = none>\nfunc.func @g(%d: !t) { return }\n")


def _opt(src: str, *args: str):
    return tool_main(["mlir-opt", "-", *args], src.encode(), dict(os.environ), os.getcwd())


def _real(src: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([MLIR_OPT, "-", *args], input=src.encode(), capture_output=True,
                          timeout=60)


def test_roundtrip_prints_as_mlir_opt():
    res = _opt(ROUNDTRIP)
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.decode() == EXPECTED


@pytest.mark.skipif(MLIR_OPT is None, reason="LLVM 22's mlir-opt is not installed")
def test_expectations_are_mlir_opts_own():
    real = _real(ROUNDTRIP)
    assert real.returncode == 0 and real.stdout.decode() == EXPECTED
    for name, body, loc, msg in INVALID:
        first = _real(HEADER + body + "\n").stderr.decode().splitlines()[0]
        assert first.rstrip() == f"<stdin>:{loc}: error: {msg}", name


@pytest.mark.skipif(MLIR_OPT is None, reason="LLVM 22's mlir-opt is not installed")
def test_generic_form_from_mlir_opt_reads_back():
    generic = _real(ROUNDTRIP, "--mlir-print-op-generic")
    assert generic.returncode == 0
    res = _opt(generic.stdout.decode())
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.decode() == EXPECTED


@pytest.mark.parametrize("name,body,loc,msg", INVALID, ids=[c[0] for c in INVALID])
def test_verifier_messages(name, body, loc, msg):
    res = _opt(HEADER + body + "\n")
    assert res.returncode != 0
    first = res.stderr.decode().splitlines()[0]
    assert first.rstrip() == f"<stdin>:{loc}: error: {msg}"


def test_bad_enum_keyword():
    res = _opt(BAD_ENUM)
    first = res.stderr.decode().splitlines()[0]
    assert first == ("<stdin>:1:71: error: expected ::mlir::nvgpu::TensorMapSwizzleKind to be "
                     "one of: none, swizzle_32b, swizzle_64b, swizzle_128b")
