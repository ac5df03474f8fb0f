// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Stack allocation: memref.alloca in a loop inside memref.alloca_scope, and in a callee.
func.func @square_sum(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloca(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i32
    %sq = arith.muli %v, %v : i32
    memref.store %sq, %buf[%i] : memref<?xi32>
  }
  %z = arith.constant 0 : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
    %v = memref.load %buf[%i] : memref<?xi32>
    %a = arith.addi %acc, %v : i32
    scf.yield %a : i32
  }
  return %s : i32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %z = arith.constant 0 : i64
  %total = scf.for %i = %c0 to %c1000 step %c1 iter_args(%acc = %z) -> (i64) {
    %r = memref.alloca_scope -> (i64) {
      %tmp = memref.alloca() : memref<256xi64>
      %ii = arith.index_cast %i : index to i64
      memref.store %ii, %tmp[%c0] : memref<256xi64>
      %v = memref.load %tmp[%c0] : memref<256xi64>
      %n = arith.addi %acc, %v : i64
      memref.alloca_scope.return %n : i64
    }
    scf.yield %r : i64
  }
  vector.print %total : i64
  %c10 = arith.constant 10 : index
  %s = call @square_sum(%c10) : (index) -> i32
  vector.print %s : i32
  return
}

// CHECK: 499500
// CHECK-NEXT: 285
