// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// arith casts, comparisons and select applied lane by lane to 1-D and 2-D
// vectors, and vectors built with vector.from_elements.
func.func @main() {
  %a = arith.constant dense<[1, -2, 3, 400]> : vector<4xi32>
  %sext = arith.extsi %a : vector<4xi32> to vector<4xi64>
  vector.print %sext : vector<4xi64>
  %zext = arith.extui %a : vector<4xi32> to vector<4xi64>
  vector.print %zext : vector<4xi64>
  %trunc = arith.trunci %a : vector<4xi32> to vector<4xi8>
  vector.print %trunc : vector<4xi8>
  %sf = arith.sitofp %a : vector<4xi32> to vector<4xf32>
  vector.print %sf : vector<4xf32>
  %uf = arith.uitofp %a : vector<4xi32> to vector<4xf64>
  vector.print %uf : vector<4xf64>
  %half = arith.constant dense<[1.5, -2.5, 3.75, -0.25]> : vector<4xf32>
  %fs = arith.fptosi %half : vector<4xf32> to vector<4xi16>
  vector.print %fs : vector<4xi16>
  %fu = arith.fptoui %uf : vector<4xf64> to vector<4xi64>
  vector.print %fu : vector<4xi64>
  %ext = arith.extf %half : vector<4xf32> to vector<4xf64>
  vector.print %ext : vector<4xf64>
  %narrow = arith.truncf %ext : vector<4xf64> to vector<4xf16>
  vector.print %narrow : vector<4xf16>
  %idx = arith.index_cast %a : vector<4xi32> to vector<4xindex>
  vector.print %idx : vector<4xindex>
  %idxu = arith.index_castui %a : vector<4xi32> to vector<4xindex>
  vector.print %idxu : vector<4xindex>
  %back = arith.index_cast %idx : vector<4xindex> to vector<4xi16>
  vector.print %back : vector<4xi16>
  %bits = arith.bitcast %half : vector<4xf32> to vector<4xi32>
  vector.print %bits : vector<4xi32>
  %lt = arith.cmpi slt, %a, %bits : vector<4xi32>
  vector.print %lt : vector<4xi1>
  %ult = arith.cmpi ult, %a, %bits : vector<4xi32>
  vector.print %ult : vector<4xi1>
  %fgt = arith.cmpf ogt, %half, %sf : vector<4xf32>
  vector.print %fgt : vector<4xi1>
  %pick = arith.select %lt, %a, %bits : vector<4xi1>, vector<4xi32>
  vector.print %pick : vector<4xi32>
  %true = arith.constant true
  %whole = arith.select %true, %bits, %a : vector<4xi32>
  vector.print %whole : vector<4xi32>

  // 2-D vectors.
  %m = arith.constant dense<[[1, -2, 7], [3, 4, -9]]> : vector<2x3xi32>
  %mf = arith.sitofp %m : vector<2x3xi32> to vector<2x3xf32>
  vector.print %mf : vector<2x3xf32>
  %mw = arith.extsi %m : vector<2x3xi32> to vector<2x3xi64>
  vector.print %mw : vector<2x3xi64>
  %zero = arith.constant dense<0> : vector<2x3xi32>
  %pos = arith.cmpi sgt, %m, %zero : vector<2x3xi32>
  vector.print %pos : vector<2x3xi1>
  %abs = arith.subi %zero, %m : vector<2x3xi32>
  %mabs = arith.select %pos, %m, %abs : vector<2x3xi1>, vector<2x3xi32>
  vector.print %mabs : vector<2x3xi32>
  %fz = arith.constant dense<0.0> : vector<2x3xf32>
  %fneg = arith.cmpf olt, %mf, %fz : vector<2x3xf32>
  vector.print %fneg : vector<2x3xi1>

  // vector.from_elements: 1-D, 2-D and 0-D results, from computed scalars.
  %x = arith.constant 1.5 : f32
  %y = arith.constant -2.0 : f32
  %z = arith.addf %x, %y : f32
  %v3 = vector.from_elements %x, %y, %z : vector<3xf32>
  vector.print %v3 : vector<3xf32>
  %i = arith.constant 7 : i32
  %j = arith.muli %i, %i : i32
  %v22 = vector.from_elements %i, %j, %j, %i : vector<2x2xi32>
  vector.print %v22 : vector<2x2xi32>
  %v0 = vector.from_elements %z : vector<f32>
  %e0 = vector.extract %v0[] : f32 from vector<f32>
  vector.print %e0 : f32
  %sum = vector.reduction <add>, %v3 : vector<3xf32> into f32
  vector.print %sum : f32
  return
}

// CHECK: ( 1, -2, 3, 400 )
// CHECK-NEXT: ( 1, 4294967294, 3, 400 )
// CHECK-NEXT: ( 1, -2, 3, -112 )
// CHECK-NEXT: ( 1, -2, 3, 400 )
// CHECK-NEXT: ( 1, 4.29497e+09, 3, 400 )
// CHECK-NEXT: ( 1, -2, 3, 0 )
// CHECK-NEXT: ( 1, 4294967294, 3, 400 )
// CHECK-NEXT: ( 1.5, -2.5, 3.75, -0.25 )
// CHECK-NEXT: ( 1.5, -2.5, 3.75, -0.25 )
// CHECK-NEXT: ( 1, 18446744073709551614, 3, 400 )
// CHECK-NEXT: ( 1, 4294967294, 3, 400 )
// CHECK-NEXT: ( 1, -2, 3, 400 )
// CHECK-NEXT: ( 1069547520, -1071644672, 1081081856, -1098907648 )
// CHECK-NEXT: ( 1, 0, 1, 0 )
// CHECK-NEXT: ( 1, 0, 1, 1 )
// CHECK-NEXT: ( 1, 0, 1, 0 )
// CHECK-NEXT: ( 1, -1071644672, 3, -1098907648 )
// CHECK-NEXT: ( 1069547520, -1071644672, 1081081856, -1098907648 )
// CHECK-NEXT: ( ( 1, -2, 7 ), ( 3, 4, -9 ) )
// CHECK-NEXT: ( ( 1, -2, 7 ), ( 3, 4, -9 ) )
// CHECK-NEXT: ( ( 1, 0, 1 ), ( 1, 1, 0 ) )
// CHECK-NEXT: ( ( 1, 2, 7 ), ( 3, 4, 9 ) )
// CHECK-NEXT: ( ( 0, 1, 0 ), ( 0, 0, 1 ) )
// CHECK-NEXT: ( 1.5, -2, -0.5 )
// CHECK-NEXT: ( ( 7, 49 ), ( 49, 7 ) )
// CHECK-NEXT: -0.5
// CHECK-NEXT: -1
