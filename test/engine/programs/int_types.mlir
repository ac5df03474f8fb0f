// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Printing and wrap-around of i1, i8, i16, i32, i64 and index values.
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  vector.print %t : i1
  vector.print %f : i1
  %x = arith.xori %t, %t : i1
  vector.print %x : i1
  %a8 = arith.constant 127 : i8
  %o8 = arith.constant 1 : i8
  %w8 = arith.addi %a8, %o8 : i8
  vector.print %w8 : i8
  %a16 = arith.constant -32768 : i16
  %m16 = arith.constant -1 : i16
  %w16 = arith.muli %a16, %m16 : i16
  vector.print %w16 : i16
  %a32 = arith.constant 123456789 : i32
  %b32 = arith.constant 1000 : i32
  %w32 = arith.muli %a32, %b32 : i32
  vector.print %w32 : i32
  %a64 = arith.constant 9223372036854775807 : i64
  %o64 = arith.constant 1 : i64
  %w64 = arith.addi %a64, %o64 : i64
  vector.print %w64 : i64
  %i = arith.constant 42 : index
  %j = arith.constant -42 : index
  vector.print %i : index
  vector.print %j : index
  %u = arith.constant 200 : i8
  vector.print %u : i8
  return
}

// CHECK: 1
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: -128
// CHECK-NEXT: -32768
// CHECK-NEXT: -1097262584
// CHECK-NEXT: -9223372036854775808
// CHECK-NEXT: 42
// CHECK-NEXT: 18446744073709551574
// CHECK-NEXT: -56
