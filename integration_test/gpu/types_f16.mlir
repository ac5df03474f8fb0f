// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// f16 in kernels: 8 threads compute x + y, x * y, x / y, maximumf(x, y) in f16,
// and truncf(extf(x) * 1.001 : f32) -- each rounded to nearest even in f16 (max
// 65504, overflow to inf, subnormals below 6.1e-5 kept).  The inputs are
// written as f32 by the host and rounded to f16 there:
//   x = 1, 0.1, 65504, -2.5, 0.333, 1000, 3e-5, 2049  (stored 1, 0.0999756, 65504,
//       -2.5, 0.333008, 1000, 2.99811e-05 (subnormal), 2048 (ties to even))
//   y = 3, 0.2, 2, 0.5, -3, 1000, 1, 1
// Printed with the C interface of printMemrefF16 (llvm.emit_c_interface).
// Expected values from numpy.float16 (IEEE binary16, round to nearest even).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ops(%xs: memref<8xf16>, %ys: memref<8xf16>, %out: memref<5x8xf16>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %xs[%t] : memref<8xf16>
      %y = memref.load %ys[%t] : memref<8xf16>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %add = arith.addf %x, %y : f16
      memref.store %add, %out[%c0, %t] : memref<5x8xf16>
      %mul = arith.mulf %x, %y : f16
      memref.store %mul, %out[%c1, %t] : memref<5x8xf16>
      %div = arith.divf %x, %y : f16
      memref.store %div, %out[%c2, %t] : memref<5x8xf16>
      %max = arith.maximumf %x, %y : f16
      memref.store %max, %out[%c3, %t] : memref<5x8xf16>
      %wide = arith.extf %x : f16 to f32
      %k = arith.constant 1.001 : f32
      %p = arith.mulf %wide, %k : f32
      %n = arith.truncf %p : f32 to f16
      memref.store %n, %out[%c4, %t] : memref<5x8xf16>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %xs32 = memref.alloc() : memref<8xf32>
    %ys32 = memref.alloc() : memref<8xf32>
    %inputs = arith.constant dense<[[1.0, 0.1, 65504.0, -2.5, 0.333, 1000.0, 3.0e-05, 2049.0],
                                    [3.0, 0.2, 2.0, 0.5, -3.0, 1000.0, 1.0, 1.0]]> : vector<2x8xf32>
    %xv = vector.extract %inputs[0] : vector<8xf32> from vector<2x8xf32>
    %yv = vector.extract %inputs[1] : vector<8xf32> from vector<2x8xf32>
    %xs = gpu.alloc host_shared () : memref<8xf16>
    %ys = gpu.alloc host_shared () : memref<8xf16>
    %xh = arith.truncf %xv : vector<8xf32> to vector<8xf16>
    %yh = arith.truncf %yv : vector<8xf32> to vector<8xf16>
    vector.store %xh, %xs[%c0] : memref<8xf16>, vector<8xf16>
    vector.store %yh, %ys[%c0] : memref<8xf16>, vector<8xf16>
    %out = gpu.alloc host_shared () : memref<5x8xf16>
    gpu.launch_func @kernels::@ops blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%xs : memref<8xf16>, %ys : memref<8xf16>, %out : memref<5x8xf16>)
    %ux = memref.cast %xs : memref<8xf16> to memref<*xf16>
    // CHECK: [1,  0.0999756,  65504,  -2.5,  0.333008,  1000,  2.99811e-05,  2048]
    call @printMemrefF16(%ux) : (memref<*xf16>) -> ()
    %u = memref.cast %out : memref<5x8xf16> to memref<*xf16>
    // CHECK: rank = 2 offset = 0 sizes = [5, 8] strides = [8, 1] data =
    // CHECK-NEXT: {{\[}}[4,   0.299805,   65504,   -2,   -2.66797,   2000,   1,   2048],
    // CHECK-NEXT:  [3,   0.019989,   inf,   -1.25,   -0.999023,   inf,   2.99811e-05,   2048],
    // CHECK-NEXT:  [0.333252,   0.5,   32752,   -5,   -0.111023,   1,   2.99811e-05,   2048],
    // CHECK-NEXT:  [3,   0.199951,   65504,   0.5,   0.333008,   1000,   1,   2048],
    // CHECK-NEXT:  [1.00098,   0.100098,   inf,   -2.50195,   0.333252,   1001,   3.00407e-05,   2050]]
    call @printMemrefF16(%u) : (memref<*xf16>) -> ()
    return
  }

  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
}
