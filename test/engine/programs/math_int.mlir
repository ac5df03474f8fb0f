// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Integer math: absi, ctlz, cttz, ctpop on several widths.
func.func @main() {
  %a = arith.constant -17 : i32
  %abs = math.absi %a : i32
  vector.print %abs : i32
  %b = arith.constant 1024 : i32
  %lz = math.ctlz %b : i32
  %tz = math.cttz %b : i32
  %pc = math.ctpop %a : i32
  vector.print %lz : i32
  vector.print %tz : i32
  vector.print %pc : i32
  %z = arith.constant 0 : i16
  %lz16 = math.ctlz %z : i16
  %tz16 = math.cttz %z : i16
  vector.print %lz16 : i16
  vector.print %tz16 : i16
  %c = arith.constant 0x00F0F0F0F0F0F0F0 : i64
  %pc64 = math.ctpop %c : i64
  %lz64 = math.ctlz %c : i64
  vector.print %pc64 : i64
  vector.print %lz64 : i64
  %m = arith.constant -128 : i8
  %am = math.absi %m : i8
  vector.print %am : i8
  return
}

// CHECK: 17
// CHECK-NEXT: 21
// CHECK-NEXT: 10
// CHECK-NEXT: 31
// CHECK-NEXT: 16
// CHECK-NEXT: 16
// CHECK-NEXT: 28
// CHECK-NEXT: 8
// CHECK-NEXT: -128
