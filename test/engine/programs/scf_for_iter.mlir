// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Nested scf.for with iter_args: sums, products and a running maximum.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %sum, %prod = scf.for %i = %c1 to %c10 step %c1 iter_args(%s = %z, %p = %one) -> (i64, i64) {
    %ii = arith.index_cast %i : index to i64
    %s2 = arith.addi %s, %ii : i64
    %p2 = arith.muli %p, %ii : i64
    scf.yield %s2, %p2 : i64, i64
  }
  vector.print %sum : i64
  vector.print %prod : i64
  %tri = scf.for %i = %c0 to %c10 step %c2 iter_args(%acc = %z) -> (i64) {
    %inner = scf.for %j = %c0 to %i step %c1 iter_args(%a2 = %acc) -> (i64) {
      %jj = arith.index_cast %j : index to i64
      %a3 = arith.addi %a2, %jj : i64
      scf.yield %a3 : i64
    }
    scf.yield %inner : i64
  }
  vector.print %tri : i64
  %empty = scf.for %i = %c10 to %c0 step %c1 iter_args(%a = %one) -> (i64) {
    %b = arith.addi %a, %a : i64
    scf.yield %b : i64
  }
  vector.print %empty : i64
  %l0 = arith.constant -3 : i32
  %l1 = arith.constant 7 : i32
  %l2 = arith.constant 3 : i32
  %zi = arith.constant 0 : i32
  %cnt = scf.for %k = %l0 to %l1 step %l2 iter_args(%n = %zi) -> (i32) : i32 {
    vector.print %k : i32
    %n2 = arith.addi %n, %k : i32
    scf.yield %n2 : i32
  }
  vector.print %cnt : i32
  return
}

// CHECK: 45
// CHECK-NEXT: 362880
// CHECK-NEXT: 50
// CHECK-NEXT: 1
// CHECK-NEXT: -3
// CHECK-NEXT: 0
// CHECK-NEXT: 3
// CHECK-NEXT: 6
// CHECK-NEXT: 6
