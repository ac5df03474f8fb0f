// RUN: mlir-opt %s -gpu-kernel-outlining \
// RUN: | mlir-opt -pass-pipeline='builtin.module(gpu.module(strip-debuginfo,convert-gpu-to-nvvm,gpu-to-cubin))' \
// RUN: | mlir-opt -gpu-to-llvm \
// RUN: | mlir-cpu-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// f64 in a kernel (the older pipeline: outlining, a gpu.module pass pipeline with
// gpu-to-cubin, gpu-to-llvm, mlir-cpu-runner).  Six threads compute, per row:
// x + y, x * y, x / y, sqrt(|x|), fma(x, y, -(x * y)) (the exact rounding error
// of the product, which only an f64 fma computes: 0 where x * y is exact), and
// ((x + 2^-40) - x) * 2^40 (1 while 2^-40 is above half an ulp of x: f64
// precision, 0 in f32).
//   x = 1, 0.1, 1e300, -2.5, 3, 1.5e8
//   y = 3, 0.2, 1e10,  0.5,  7, 1e-9
// Expected values from Python floats (IEEE binary64) and fractions (exact error;
// where x * y overflows, fma(x, y, -inf) is -inf).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ops(%xs: memref<6xf64>, %ys: memref<6xf64>, %out: memref<6x6xf64>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %xs[%t] : memref<6xf64>
      %y = memref.load %ys[%t] : memref<6xf64>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %add = arith.addf %x, %y : f64
      memref.store %add, %out[%c0, %t] : memref<6x6xf64>
      %mul = arith.mulf %x, %y : f64
      memref.store %mul, %out[%c1, %t] : memref<6x6xf64>
      %div = arith.divf %x, %y : f64
      memref.store %div, %out[%c2, %t] : memref<6x6xf64>
      %abs = math.absf %x : f64
      %sqrt = math.sqrt %abs : f64
      memref.store %sqrt, %out[%c3, %t] : memref<6x6xf64>
      %nmul = arith.negf %mul : f64
      %err = math.fma %x, %y, %nmul : f64
      memref.store %err, %out[%c4, %t] : memref<6x6xf64>
      %eps = arith.constant 9.094947017729282e-13 : f64
      %big = arith.constant 1099511627776.0 : f64
      %xe = arith.addf %x, %eps : f64
      %d = arith.subf %xe, %x : f64
      %scaled = arith.mulf %d, %big : f64
      memref.store %scaled, %out[%c5, %t] : memref<6x6xf64>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %xs = gpu.alloc host_shared () : memref<6xf64>
    %ys = gpu.alloc host_shared () : memref<6xf64>
    %xv = arith.constant dense<[1.0, 0.1, 1.0e300, -2.5, 3.0, 150000000.0]> : vector<6xf64>
    %yv = arith.constant dense<[3.0, 0.2, 1.0e10, 0.5, 7.0, 1.0e-9]> : vector<6xf64>
    vector.store %xv, %xs[%c0] : memref<6xf64>, vector<6xf64>
    vector.store %yv, %ys[%c0] : memref<6xf64>, vector<6xf64>
    %out = gpu.alloc host_shared () : memref<6x6xf64>
    gpu.launch_func @kernels::@ops blocks in (%c1, %c1, %c1) threads in (%c6, %c1, %c1)
        args(%xs : memref<6xf64>, %ys : memref<6xf64>, %out : memref<6x6xf64>)
    %u = memref.cast %out : memref<6x6xf64> to memref<*xf64>
    // CHECK: rank = 2 offset = 0 sizes = [6, 6] strides = [6, 1] data =
    // CHECK-NEXT: {{\[}}[4,   0.3,   1e+300,   -2,   10,   1.5e+08],
    // CHECK-NEXT:  [3,   0.02,   inf,   -1.25,   21,   0.15],
    // CHECK-NEXT:  [0.333333,   0.5,   1e+290,   -5,   0.428571,   1.5e+17],
    // CHECK-NEXT:  [1,   0.316228,   1e+150,   1.58114,   1.73205,   12247.4],
    // CHECK-NEXT:  [0,   -1.66533e-18,   -inf,   0,   0,   -1.28622e-17],
    // CHECK-NEXT:  [1,   1,   0,   1,   1,   0]]
    call @printMemrefF64(%u) : (memref<*xf64>) -> ()
    gpu.dealloc %out : memref<6x6xf64>
    return
  }

  func.func private @printMemrefF64(memref<*xf64>)
}
