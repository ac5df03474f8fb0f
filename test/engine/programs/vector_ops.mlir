// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// vector construction and shuffling: broadcast, insert/extract, shuffle, fma, reductions.
func.func @main() {
  %f = arith.constant 2.5 : f32
  %b = vector.broadcast %f : f32 to vector<4xf32>
  vector.print %b : vector<4xf32>
  %i = arith.constant 3 : i32
  %b2 = vector.broadcast %i : i32 to vector<3xi32>
  vector.print %b2 : vector<3xi32>
  %v = arith.constant dense<[10, 20, 30, 40]> : vector<4xi32>
  %e = vector.extract %v[2] : i32 from vector<4xi32>
  vector.print %e : i32
  %c1 = arith.constant 1 : index
  %e2 = vector.extract %v[%c1] : i32 from vector<4xi32>
  vector.print %e2 : i32
  %n = arith.constant -7 : i32
  %ins = vector.insert %n, %v [0] : i32 into vector<4xi32>
  vector.print %ins : vector<4xi32>
  %m = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
  %r1 = vector.extract %m[1] : vector<2xi32> from vector<2x2xi32>
  vector.print %r1 : vector<2xi32>
  %m2 = vector.insert %r1, %m [0] : vector<2xi32> into vector<2x2xi32>
  vector.print %m2 : vector<2x2xi32>
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %c = arith.constant dense<[4.0, 5.0, 6.0]> : vector<3xf32>
  %s = vector.shuffle %a, %c [5, 0, 3, 1] : vector<3xf32>, vector<3xf32>
  vector.print %s : vector<4xf32>
  %fm = vector.fma %a, %c, %a : vector<3xf32>
  vector.print %fm : vector<3xf32>
  %sum = vector.reduction <add>, %v : vector<4xi32> into i32
  %mul = vector.reduction <mul>, %v : vector<4xi32> into i32
  %mx = vector.reduction <maxsi>, %ins : vector<4xi32> into i32
  %mn = vector.reduction <minsi>, %ins : vector<4xi32> into i32
  %xr = vector.reduction <xor>, %v : vector<4xi32> into i32
  vector.print %sum : i32
  vector.print %mul : i32
  vector.print %mx : i32
  vector.print %mn : i32
  vector.print %xr : i32
  %fs = vector.reduction <add>, %a : vector<3xf32> into f32
  %acc = arith.constant 100.0 : f32
  %fs2 = vector.reduction <add>, %a, %acc : vector<3xf32> into f32
  %fmx = vector.reduction <maxnumf>, %c : vector<3xf32> into f32
  vector.print %fs : f32
  vector.print %fs2 : f32
  vector.print %fmx : f32
  %added = arith.addf %a, %c : vector<3xf32>
  vector.print %added : vector<3xf32>
  %prod = arith.mulf %a, %c : vector<3xf32>
  vector.print %prod : vector<3xf32>
  return
}

// CHECK: ( 2.5, 2.5, 2.5, 2.5 )
// CHECK-NEXT: ( 3, 3, 3 )
// CHECK-NEXT: 30
// CHECK-NEXT: 20
// CHECK-NEXT: ( -7, 20, 30, 40 )
// CHECK-NEXT: ( 3, 4 )
// CHECK-NEXT: ( ( 3, 4 ), ( 3, 4 ) )
// CHECK-NEXT: ( 6, 1, 4, 2 )
// CHECK-NEXT: ( 5, 12, 21 )
// CHECK-NEXT: 100
// CHECK-NEXT: 240000
// CHECK-NEXT: 40
// CHECK-NEXT: -7
// CHECK-NEXT: 40
// CHECK-NEXT: 6
// CHECK-NEXT: 106
// CHECK-NEXT: 6
// CHECK-NEXT: ( 5, 7, 9 )
// CHECK-NEXT: ( 4, 10, 18 )
