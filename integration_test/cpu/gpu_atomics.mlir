// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// memref.atomic_rmw from 4 blocks of 128 threads, all hammering the same cells
// (blocks run in parallel on the CPU backend's threads, so the atomics are really
// contended).  Thread g = 128b + t (0..511) contributes:
//   ints[0] addi 1            -> 512
//   ints[1] maxs (g - 200)    -> 311          ints[2] mins (g - 200)  -> -200
//   ints[3] maxu (g - 200)    -> -1 (0xffffffff, from g = 199)
//   ints[4] minu (g - 200)    -> 0 (from g = 200)
//   ints[5] andi ~(1 << (g % 32)) on all ones -> 0
//   ints[6] ori  (1 << (g % 16))              -> 65535
//   ints[7] xori g            -> 0 (every bit pattern of 0..511 xored)
//   floats[0] addf 0.5        -> 256            floats[1] maximumf g / 4 -> 127.75
//   floats[2] minimumf -g / 8 -> -63.875
// Only final values are printed: they do not depend on the order of the updates.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %ints = gpu.alloc host_shared () : memref<8xi32>
  %floats = gpu.alloc host_shared () : memref<3xf32>
  %zero = arith.constant 0 : i32
  %ones = arith.constant -1 : i32
  %big = arith.constant 2147483647 : i32
  %small = arith.constant -2147483648 : i32
  %umax = arith.constant -1 : i32
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i3 = arith.constant 3 : index
  %i4 = arith.constant 4 : index
  %i5 = arith.constant 5 : index
  %i6 = arith.constant 6 : index
  %i7 = arith.constant 7 : index
  memref.store %zero, %ints[%c0] : memref<8xi32>
  memref.store %small, %ints[%i1] : memref<8xi32>
  memref.store %big, %ints[%i2] : memref<8xi32>
  memref.store %zero, %ints[%i3] : memref<8xi32>
  memref.store %umax, %ints[%i4] : memref<8xi32>
  memref.store %ones, %ints[%i5] : memref<8xi32>
  memref.store %zero, %ints[%i6] : memref<8xi32>
  memref.store %zero, %ints[%i7] : memref<8xi32>
  %fz = arith.constant 0.0 : f32
  %fmin = arith.constant -1000.0 : f32
  %fmax = arith.constant 1000.0 : f32
  memref.store %fz, %floats[%c0] : memref<3xf32>
  memref.store %fmin, %floats[%i1] : memref<3xf32>
  memref.store %fmax, %floats[%i2] : memref<3xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k3 = arith.constant 3 : index
    %k4 = arith.constant 4 : index
    %k5 = arith.constant 5 : index
    %k6 = arith.constant 6 : index
    %k7 = arith.constant 7 : index
    %k128 = arith.constant 128 : index
    %base = arith.muli %bx, %k128 : index
    %gi = arith.addi %base, %tx : index
    %g = arith.index_cast %gi : index to i32
    %one = arith.constant 1 : i32
    %c200 = arith.constant 200 : i32
    %c31 = arith.constant 31 : i32
    %c15 = arith.constant 15 : i32
    %m1 = arith.constant -1 : i32
    %s = arith.subi %g, %c200 : i32
    %b32 = arith.andi %g, %c31 : i32
    %bit32 = arith.shli %one, %b32 : i32
    %notbit = arith.xori %bit32, %m1 : i32
    %b16 = arith.andi %g, %c15 : i32
    %bit16 = arith.shli %one, %b16 : i32
    %x0 = memref.atomic_rmw addi %one, %ints[%k0] : (i32, memref<8xi32>) -> i32
    %x1 = memref.atomic_rmw maxs %s, %ints[%k1] : (i32, memref<8xi32>) -> i32
    %x2 = memref.atomic_rmw mins %s, %ints[%k2] : (i32, memref<8xi32>) -> i32
    %x3 = memref.atomic_rmw maxu %s, %ints[%k3] : (i32, memref<8xi32>) -> i32
    %x4 = memref.atomic_rmw minu %s, %ints[%k4] : (i32, memref<8xi32>) -> i32
    %x5 = memref.atomic_rmw andi %notbit, %ints[%k5] : (i32, memref<8xi32>) -> i32
    %x6 = memref.atomic_rmw ori %bit16, %ints[%k6] : (i32, memref<8xi32>) -> i32
    %x7 = memref.atomic_rmw xori %g, %ints[%k7] : (i32, memref<8xi32>) -> i32
    %half = arith.constant 0.5 : f32
    %gf = arith.uitofp %g : i32 to f32
    %q = arith.constant 0.25 : f32
    %e = arith.constant -0.125 : f32
    %gq = arith.mulf %gf, %q : f32
    %ge = arith.mulf %gf, %e : f32
    %y0 = memref.atomic_rmw addf %half, %floats[%k0] : (f32, memref<3xf32>) -> f32
    %y1 = memref.atomic_rmw maximumf %gq, %floats[%k1] : (f32, memref<3xf32>) -> f32
    %y2 = memref.atomic_rmw minimumf %ge, %floats[%k2] : (f32, memref<3xf32>) -> f32
    gpu.terminator
  }
  %ui = memref.cast %ints : memref<8xi32> to memref<*xi32>
  %uf = memref.cast %floats : memref<3xf32> to memref<*xf32>
  call @printMemrefI32(%ui) : (memref<*xi32>) -> ()
  call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [512,  311,  -200,  -1,  0,  0,  65535,  0]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [256,  127.75,  -63.875]
