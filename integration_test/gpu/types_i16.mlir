// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// i16 in kernels: 8 threads each apply addi, muli, divsi, divui, remsi, shrsi, shrui, maxsi, minui
// to x[t], y[t] (16-bit two's complement, wrapping; shifts are by 1) and add x[t]
// to one i16 cell with memref.atomic_rmw.  Inputs, with edge values of the type:
//   x = [-32768, -1, 0, 1, 300, 1000, 32767, -12345]
//   y = [3, -3, 5, -7, 200, 33, 32767, 10]
// The host widens the results to i32 for printing.  Expected rows (one per
// operation, in the order above) come from a Python model of 16-bit arithmetic.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ops(%xs: memref<8xi16>, %ys: memref<8xi16>, %out: memref<9x8xi16>,
                  %acc: memref<1xi16>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %xs[%t] : memref<8xi16>
      %y = memref.load %ys[%t] : memref<8xi16>
      %one = arith.constant 1 : i16
      %r0 = arith.addi %x, %y : i16
      %k0 = arith.constant 0 : index
      memref.store %r0, %out[%k0, %t] : memref<9x8xi16>
      %r1 = arith.muli %x, %y : i16
      %k1 = arith.constant 1 : index
      memref.store %r1, %out[%k1, %t] : memref<9x8xi16>
      %r2 = arith.divsi %x, %y : i16
      %k2 = arith.constant 2 : index
      memref.store %r2, %out[%k2, %t] : memref<9x8xi16>
      %r3 = arith.divui %x, %y : i16
      %k3 = arith.constant 3 : index
      memref.store %r3, %out[%k3, %t] : memref<9x8xi16>
      %r4 = arith.remsi %x, %y : i16
      %k4 = arith.constant 4 : index
      memref.store %r4, %out[%k4, %t] : memref<9x8xi16>
      %r5 = arith.shrsi %x, %one : i16
      %k5 = arith.constant 5 : index
      memref.store %r5, %out[%k5, %t] : memref<9x8xi16>
      %r6 = arith.shrui %x, %one : i16
      %k6 = arith.constant 6 : index
      memref.store %r6, %out[%k6, %t] : memref<9x8xi16>
      %r7 = arith.maxsi %x, %y : i16
      %k7 = arith.constant 7 : index
      memref.store %r7, %out[%k7, %t] : memref<9x8xi16>
      %r8 = arith.minui %x, %y : i16
      %k8 = arith.constant 8 : index
      memref.store %r8, %out[%k8, %t] : memref<9x8xi16>
      %c0 = arith.constant 0 : index
      %old = memref.atomic_rmw addi %x, %acc[%c0] : (i16, memref<1xi16>) -> i16
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cn = arith.constant 8 : index
    %cops = arith.constant 9 : index
    %xs = gpu.alloc host_shared () : memref<8xi16>
    %ys = gpu.alloc host_shared () : memref<8xi16>
    %out = gpu.alloc host_shared () : memref<9x8xi16>
    %acc = gpu.alloc host_shared () : memref<1xi16>
    %x0 = arith.constant -32768 : i16
    %y0 = arith.constant 3 : i16
    %i0 = arith.constant 0 : index
    memref.store %x0, %xs[%i0] : memref<8xi16>
    memref.store %y0, %ys[%i0] : memref<8xi16>
    %x1 = arith.constant -1 : i16
    %y1 = arith.constant -3 : i16
    %i1 = arith.constant 1 : index
    memref.store %x1, %xs[%i1] : memref<8xi16>
    memref.store %y1, %ys[%i1] : memref<8xi16>
    %x2 = arith.constant 0 : i16
    %y2 = arith.constant 5 : i16
    %i2 = arith.constant 2 : index
    memref.store %x2, %xs[%i2] : memref<8xi16>
    memref.store %y2, %ys[%i2] : memref<8xi16>
    %x3 = arith.constant 1 : i16
    %y3 = arith.constant -7 : i16
    %i3 = arith.constant 3 : index
    memref.store %x3, %xs[%i3] : memref<8xi16>
    memref.store %y3, %ys[%i3] : memref<8xi16>
    %x4 = arith.constant 300 : i16
    %y4 = arith.constant 200 : i16
    %i4 = arith.constant 4 : index
    memref.store %x4, %xs[%i4] : memref<8xi16>
    memref.store %y4, %ys[%i4] : memref<8xi16>
    %x5 = arith.constant 1000 : i16
    %y5 = arith.constant 33 : i16
    %i5 = arith.constant 5 : index
    memref.store %x5, %xs[%i5] : memref<8xi16>
    memref.store %y5, %ys[%i5] : memref<8xi16>
    %x6 = arith.constant 32767 : i16
    %y6 = arith.constant 32767 : i16
    %i6 = arith.constant 6 : index
    memref.store %x6, %xs[%i6] : memref<8xi16>
    memref.store %y6, %ys[%i6] : memref<8xi16>
    %x7 = arith.constant -12345 : i16
    %y7 = arith.constant 10 : i16
    %i7 = arith.constant 7 : index
    memref.store %x7, %xs[%i7] : memref<8xi16>
    memref.store %y7, %ys[%i7] : memref<8xi16>
    %zero = arith.constant 0 : i16
    memref.store %zero, %acc[%c0] : memref<1xi16>
    gpu.launch_func @kernels::@ops blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1)
        args(%xs : memref<8xi16>, %ys : memref<8xi16>, %out : memref<9x8xi16>,
             %acc : memref<1xi16>)
    %wide = memref.alloc() : memref<9x8xi32>
    scf.for %i = %c0 to %cops step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %v = memref.load %out[%i, %j] : memref<9x8xi16>
        %w = arith.extsi %v : i16 to i32
        memref.store %w, %wide[%i, %j] : memref<9x8xi32>
      }
    }
    %u = memref.cast %wide : memref<9x8xi32> to memref<*xi32>
    // CHECK: rank = 2 offset = 0 sizes = [9, 8] strides = [8, 1] data =
    // CHECK-NEXT: {{\[}}[-32765,   -4,   5,   -6,   500,   1033,   -2,   -12335],
    // CHECK-NEXT:  [-32768,   3,   0,   -7,   -5536,   -32536,   1,   7622],
    // CHECK-NEXT:  [-10922,   0,   0,   0,   1,   30,   1,   -1234],
    // CHECK-NEXT:  [10922,   1,   0,   0,   1,   30,   1,   5319],
    // CHECK-NEXT:  [-2,   -1,   0,   1,   100,   10,   0,   -5],
    // CHECK-NEXT:  [-16384,   -1,   0,   0,   150,   500,   16383,   -6173],
    // CHECK-NEXT:  [16384,   32767,   0,   0,   150,   500,   16383,   26595],
    // CHECK-NEXT:  [3,   -1,   5,   1,   300,   1000,   32767,   10],
    // CHECK-NEXT:  [3,   -3,   0,   1,   200,   33,   32767,   10]]
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %a = memref.load %acc[%c0] : memref<1xi16>
    // CHECK-NEXT: -11046
    vector.print %a : i16
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
