// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Integer/float conversions between widths and signedness interpretations.
func.func @main() {
  %a = arith.constant -100 : i8
  %e1 = arith.extsi %a : i8 to i32
  %e2 = arith.extui %a : i8 to i32
  vector.print %e1 : i32
  vector.print %e2 : i32
  %big = arith.constant 70000 : i32
  %t = arith.trunci %big : i32 to i16
  vector.print %t : i16
  %f1 = arith.sitofp %a : i8 to f32
  %f2 = arith.uitofp %a : i8 to f32
  vector.print %f1 : f32
  vector.print %f2 : f32
  %g = arith.constant -3.75 : f64
  %i1 = arith.fptosi %g : f64 to i32
  vector.print %i1 : i32
  %h = arith.constant 3.75 : f64
  %i2 = arith.fptoui %h : f64 to i32
  vector.print %i2 : i32
  %pi = arith.constant 3.14159265358979 : f64
  %tf = arith.truncf %pi : f64 to f32
  %ef = arith.extf %tf : f32 to f64
  vector.print %tf : f32
  vector.print %ef : f64
  %n = arith.constant -5 : i32
  %ix = arith.index_cast %n : i32 to index
  %iu = arith.index_castui %n : i32 to index
  vector.print %ix : index
  vector.print %iu : index
  %back = arith.index_cast %ix : index to i64
  vector.print %back : i64
  %one = arith.constant 1.0 : f32
  %bits = arith.bitcast %one : f32 to i32
  vector.print %bits : i32
  %c300 = arith.constant 300 : i32
  %t8 = arith.trunci %c300 : i32 to i8
  vector.print %t8 : i8
  return
}

// CHECK: -100
// CHECK-NEXT: 156
// CHECK-NEXT: 4464
// CHECK-NEXT: -100
// CHECK-NEXT: 156
// CHECK-NEXT: -3
// CHECK-NEXT: 3
// CHECK-NEXT: 3.14159
// CHECK-NEXT: 3.14159
// CHECK-NEXT: 18446744073709551611
// CHECK-NEXT: 4294967291
// CHECK-NEXT: -5
// CHECK-NEXT: 1065353216
// CHECK-NEXT: 44
