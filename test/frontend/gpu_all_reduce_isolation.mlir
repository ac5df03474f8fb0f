// RUN: not mlir-opt %s 2>&1 | FileCheck %s

// The region of gpu.all_reduce is isolated from above: a body that uses a
// value defined outside it is rejected, in mlir-opt's words.
// CHECK: error: 'arith.addi' op using value defined outside the region
gpu.module @kernels {
  gpu.func @k(%x: i32) kernel {
    %one = arith.constant 1 : i32
    %r = gpu.all_reduce %x {
    ^bb0(%lhs: i32, %rhs: i32):
      %s = arith.addi %lhs, %rhs : i32
      %s1 = arith.addi %s, %one : i32
      gpu.yield %s1 : i32
    } : (i32) -> i32
    gpu.return
  }
}
