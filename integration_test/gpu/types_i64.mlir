// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// i64 in kernels: 8 threads each apply addi, muli, divsi, divui, remsi, shrsi, shrui, maxsi, minui
// to x[t], y[t] (64-bit two's complement, wrapping; shifts are by 1) and add x[t]
// to one i64 cell with memref.atomic_rmw.  Inputs, with edge values of the type:
//   x = [-9223372036854775808, -1, 0, 1, 1099511627776, 3000000000, 9223372036854775807, -123456789012]
//   y = [3, -3, 5, -7, 1073741824, 3000000000, 2, 10]
// The host widens the results to i64 for printing.  Expected rows (one per
// operation, in the order above) come from a Python model of 64-bit arithmetic.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ops(%xs: memref<8xi64>, %ys: memref<8xi64>, %out: memref<9x8xi64>,
                  %acc: memref<1xi64>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %xs[%t] : memref<8xi64>
      %y = memref.load %ys[%t] : memref<8xi64>
      %one = arith.constant 1 : i64
      %r0 = arith.addi %x, %y : i64
      %k0 = arith.constant 0 : index
      memref.store %r0, %out[%k0, %t] : memref<9x8xi64>
      %r1 = arith.muli %x, %y : i64
      %k1 = arith.constant 1 : index
      memref.store %r1, %out[%k1, %t] : memref<9x8xi64>
      %r2 = arith.divsi %x, %y : i64
      %k2 = arith.constant 2 : index
      memref.store %r2, %out[%k2, %t] : memref<9x8xi64>
      %r3 = arith.divui %x, %y : i64
      %k3 = arith.constant 3 : index
      memref.store %r3, %out[%k3, %t] : memref<9x8xi64>
      %r4 = arith.remsi %x, %y : i64
      %k4 = arith.constant 4 : index
      memref.store %r4, %out[%k4, %t] : memref<9x8xi64>
      %r5 = arith.shrsi %x, %one : i64
      %k5 = arith.constant 5 : index
      memref.store %r5, %out[%k5, %t] : memref<9x8xi64>
      %r6 = arith.shrui %x, %one : i64
      %k6 = arith.constant 6 : index
      memref.store %r6, %out[%k6, %t] : memref<9x8xi64>
      %r7 = arith.maxsi %x, %y : i64
      %k7 = arith.constant 7 : index
      memref.store %r7, %out[%k7, %t] : memref<9x8xi64>
      %r8 = arith.minui %x, %y : i64
      %k8 = arith.constant 8 : index
      memref.store %r8, %out[%k8, %t] : memref<9x8xi64>
      %c0 = arith.constant 0 : index
      %old = memref.atomic_rmw addi %x, %acc[%c0] : (i64, memref<1xi64>) -> i64
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %cops = arith.constant 9 : index
    %xs = gpu.alloc host_shared () : memref<8xi64>
    %ys = gpu.alloc host_shared () : memref<8xi64>
    %out = gpu.alloc host_shared () : memref<9x8xi64>
    %acc = gpu.alloc host_shared () : memref<1xi64>
    %x0 = arith.constant -9223372036854775808 : i64
    %y0 = arith.constant 3 : i64
    %i0 = arith.constant 0 : index
    memref.store %x0, %xs[%i0] : memref<8xi64>
    memref.store %y0, %ys[%i0] : memref<8xi64>
    %x1 = arith.constant -1 : i64
    %y1 = arith.constant -3 : i64
    %i1 = arith.constant 1 : index
    memref.store %x1, %xs[%i1] : memref<8xi64>
    memref.store %y1, %ys[%i1] : memref<8xi64>
    %x2 = arith.constant 0 : i64
    %y2 = arith.constant 5 : i64
    %i2 = arith.constant 2 : index
    memref.store %x2, %xs[%i2] : memref<8xi64>
    memref.store %y2, %ys[%i2] : memref<8xi64>
    %x3 = arith.constant 1 : i64
    %y3 = arith.constant -7 : i64
    %i3 = arith.constant 3 : index
    memref.store %x3, %xs[%i3] : memref<8xi64>
    memref.store %y3, %ys[%i3] : memref<8xi64>
    %x4 = arith.constant 1099511627776 : i64
    %y4 = arith.constant 1073741824 : i64
    %i4 = arith.constant 4 : index
    memref.store %x4, %xs[%i4] : memref<8xi64>
    memref.store %y4, %ys[%i4] : memref<8xi64>
    %x5 = arith.constant 3000000000 : i64
    %y5 = arith.constant 3000000000 : i64
    %i5 = arith.constant 5 : index
    memref.store %x5, %xs[%i5] : memref<8xi64>
    memref.store %y5, %ys[%i5] : memref<8xi64>
    %x6 = arith.constant 9223372036854775807 : i64
    %y6 = arith.constant 2 : i64
    %i6 = arith.constant 6 : index
    memref.store %x6, %xs[%i6] : memref<8xi64>
    memref.store %y6, %ys[%i6] : memref<8xi64>
    %x7 = arith.constant -123456789012 : i64
    %y7 = arith.constant 10 : i64
    %i7 = arith.constant 7 : index
    memref.store %x7, %xs[%i7] : memref<8xi64>
    memref.store %y7, %ys[%i7] : memref<8xi64>
    %zero = arith.constant 0 : i64
    memref.store %zero, %acc[%c0] : memref<1xi64>
    gpu.launch_func @kernels::@ops blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1)
        args(%xs : memref<8xi64>, %ys : memref<8xi64>, %out : memref<9x8xi64>,
             %acc : memref<1xi64>)
    %wide = memref.alloc() : memref<9x8xi64>
    scf.for %i = %c0 to %cops step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %v = memref.load %out[%i, %j] : memref<9x8xi64>
        memref.store %v, %wide[%i, %j] : memref<9x8xi64>
      }
    }
    %u = memref.cast %wide : memref<9x8xi64> to memref<*xi64>
    // CHECK: rank = 2 offset = 0 sizes = [9, 8] strides = [8, 1] data =
    // CHECK-NEXT: {{\[}}[-9223372036854775805,   -4,   5,   -6,   1100585369600,   6000000000,   -9223372036854775807,   -123456789002],
    // CHECK-NEXT:  [-9223372036854775808,   3,   0,   -7,   0,   9000000000000000000,   -2,   -1234567890120],
    // CHECK-NEXT:  [-3074457345618258602,   0,   0,   0,   1024,   1,   4611686018427387903,   -12345678901],
    // CHECK-NEXT:  [3074457345618258602,   1,   0,   0,   1024,   1,   4611686018427387903,   1844674395025276260],
    // CHECK-NEXT:  [-2,   -1,   0,   1,   0,   0,   1,   -2],
    // CHECK-NEXT:  [-4611686018427387904,   -1,   0,   0,   549755813888,   1500000000,   4611686018427387903,   -61728394506],
    // CHECK-NEXT:  [4611686018427387904,   9223372036854775807,   0,   0,   549755813888,   1500000000,   4611686018427387903,   9223371975126381302],
    // CHECK-NEXT:  [3,   -1,   5,   1,   1099511627776,   3000000000,   9223372036854775807,   10],
    // CHECK-NEXT:  [3,   -3,   0,   1,   1073741824,   3000000000,   2,   10]]
    call @printMemrefI64(%u) : (memref<*xi64>) -> ()
    %a = memref.load %acc[%c0] : memref<1xi64>
    // CHECK-NEXT: 979054838763
    vector.print %a : i64
    return
  }

  func.func private @printMemrefI64(memref<*xi64>)
}
