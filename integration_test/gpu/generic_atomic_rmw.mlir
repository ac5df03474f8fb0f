// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_c_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// memref.generic_atomic_rmw: an atomic read-modify-write with an arbitrary
// body (a compare-and-swap loop), contended by 64 threads that multiply one
// cell by (t mod 3) + 1 modulo 1000003; the operation commutes, so the result
// is 2^21 * 3^21 mod 1000003 = 723369 (Python) in any order.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mul(%cell: memref<1xi64>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %r = arith.remui %t, %c3 : index
      %k = arith.index_cast %r : index to i64
      %one = arith.constant 1 : i64
      %f = arith.addi %k, %one : i64
      %old = memref.generic_atomic_rmw %cell[%c0] : memref<1xi64> {
      ^bb0(%cur: i64):
        %p = arith.constant 1000003 : i64
        %n = arith.muli %cur, %f : i64
        %m = arith.remui %n, %p : i64
        memref.atomic_yield %m : i64
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %cell = gpu.alloc host_shared () : memref<1xi64>
    %one = arith.constant 1 : i64
    memref.store %one, %cell[%c0] : memref<1xi64>
    gpu.launch_func @kernels::@mul blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%cell : memref<1xi64>)
    %v = memref.load %cell[%c0] : memref<1xi64>
    // CHECK: 723369
    vector.print %v : i64
    return
  }
}
