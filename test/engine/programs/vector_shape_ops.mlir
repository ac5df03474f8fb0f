// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -convert-vector-to-llvm \
// RUN:   -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Lane moves: shape_cast (to and from 1-D, n-D to n-D, 0-D), transpose (2-D and a 3-D
// permutation), interleave / deinterleave (1-D, n-D, 0-D operands), step; outerproduct
// (float and integer, with and without accumulator, every combining kind it takes, AXPY).
func.func @main() {
  %v = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : vector<2x3xi32>
  %f = vector.shape_cast %v : vector<2x3xi32> to vector<6xi32>
  vector.print %f : vector<6xi32>
  %g = vector.shape_cast %f : vector<6xi32> to vector<3x2xi32>
  vector.print %g : vector<3x2xi32>
  %h = vector.shape_cast %v : vector<2x3xi32> to vector<1x3x2x1xi32>
  vector.print %h : vector<1x3x2x1xi32>
  %s = arith.constant dense<7.0> : vector<f32>
  %s1 = vector.shape_cast %s : vector<f32> to vector<1xf32>
  vector.print %s1 : vector<1xf32>

  %t = vector.transpose %v, [1, 0] : vector<2x3xi32> to vector<3x2xi32>
  vector.print %t : vector<3x2xi32>
  %c = arith.constant dense<[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]],
                             [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]>
      : vector<2x3x4xi32>
  %t3 = vector.transpose %c, [2, 0, 1] : vector<2x3x4xi32> to vector<4x2x3xi32>
  vector.print %t3 : vector<4x2x3xi32>
  %fl = arith.constant dense<[[1.5, -2.5], [3.25, 0.0]]> : vector<2x2xf32>
  %tf = vector.transpose %fl, [1, 0] : vector<2x2xf32> to vector<2x2xf32>
  vector.print %tf : vector<2x2xf32>

  %a = arith.constant dense<[1, 2, 3]> : vector<3xi16>
  %b = arith.constant dense<[-1, -2, -3]> : vector<3xi16>
  %i = vector.interleave %a, %b : vector<3xi16> -> vector<6xi16>
  vector.print %i : vector<6xi16>
  %i2 = vector.interleave %v, %v : vector<2x3xi32> -> vector<2x6xi32>
  vector.print %i2 : vector<2x6xi32>
  %z0 = arith.constant dense<4.0> : vector<f64>
  %z1 = arith.constant dense<5.0> : vector<f64>
  %i0 = vector.interleave %z0, %z1 : vector<f64> -> vector<2xf64>
  vector.print %i0 : vector<2xf64>
  %e, %o = vector.deinterleave %i : vector<6xi16> -> vector<3xi16>
  vector.print %e : vector<3xi16>
  vector.print %o : vector<3xi16>
  %e2, %o2 = vector.deinterleave %c : vector<2x3x4xi32> -> vector<2x3x2xi32>
  vector.print %e2 : vector<2x3x2xi32>
  vector.print %o2 : vector<2x3x2xi32>

  %st = vector.step : vector<5xindex>
  vector.print %st : vector<5xindex>

  %x = arith.constant dense<[1.0, -2.0]> : vector<2xf32>
  %y = arith.constant dense<[3.0, 0.5, -1.0]> : vector<3xf32>
  %acc = arith.constant dense<[[10.0, 20.0, 30.0], [-1.0, -2.0, -3.0]]> : vector<2x3xf32>
  %p0 = vector.outerproduct %x, %y : vector<2xf32>, vector<3xf32>
  vector.print %p0 : vector<2x3xf32>
  %p1 = vector.outerproduct %x, %y, %acc : vector<2xf32>, vector<3xf32>
  vector.print %p1 : vector<2x3xf32>
  %p2 = vector.outerproduct %x, %y, %acc {kind = #vector.kind<mul>} : vector<2xf32>, vector<3xf32>
  vector.print %p2 : vector<2x3xf32>
  %p3 = vector.outerproduct %x, %y, %acc {kind = #vector.kind<maxnumf>} : vector<2xf32>, vector<3xf32>
  vector.print %p3 : vector<2x3xf32>
  %p4 = vector.outerproduct %x, %y, %acc {kind = #vector.kind<minimumf>} : vector<2xf32>, vector<3xf32>
  vector.print %p4 : vector<2x3xf32>
  %k = arith.constant 4.0 : f32
  %ax = vector.outerproduct %x, %k, %x : vector<2xf32>, f32
  vector.print %ax : vector<2xf32>
  %ax0 = vector.outerproduct %x, %k : vector<2xf32>, f32
  vector.print %ax0 : vector<2xf32>

  %xi = arith.constant dense<[2, -3]> : vector<2xi64>
  %yi = arith.constant dense<[5, 7, -1]> : vector<3xi64>
  %ai = arith.constant dense<[[1, 100, -8], [0, 6, 9]]> : vector<2x3xi64>
  %q0 = vector.outerproduct %xi, %yi, %ai : vector<2xi64>, vector<3xi64>
  vector.print %q0 : vector<2x3xi64>
  %q1 = vector.outerproduct %xi, %yi, %ai {kind = #vector.kind<minsi>} : vector<2xi64>, vector<3xi64>
  vector.print %q1 : vector<2x3xi64>
  %q2 = vector.outerproduct %xi, %yi, %ai {kind = #vector.kind<maxui>} : vector<2xi64>, vector<3xi64>
  vector.print %q2 : vector<2x3xi64>
  %q3 = vector.outerproduct %xi, %yi, %ai {kind = #vector.kind<xor>} : vector<2xi64>, vector<3xi64>
  vector.print %q3 : vector<2x3xi64>
  %q4 = vector.outerproduct %xi, %yi, %ai {kind = #vector.kind<and>} : vector<2xi64>, vector<3xi64>
  vector.print %q4 : vector<2x3xi64>
  return
}

// CHECK: ( 0, 1, 2, 3, 4, 5 )
// CHECK-NEXT: ( ( 0, 1 ), ( 2, 3 ), ( 4, 5 ) )
// CHECK-NEXT: ( ( ( ( 0 ), ( 1 ) ), ( ( 2 ), ( 3 ) ), ( ( 4 ), ( 5 ) ) ) )
// CHECK-NEXT: ( 7 )
// CHECK-NEXT: ( ( 0, 3 ), ( 1, 4 ), ( 2, 5 ) )
// CHECK-NEXT: ( ( ( 0, 4, 8 ), ( 12, 16, 20 ) ), ( ( 1, 5, 9 ), ( 13, 17, 21 ) ), ( ( 2, 6, 10 ), ( 14, 18, 22 ) ), ( ( 3, 7, 11 ), ( 15, 19, 23 ) ) )
// CHECK-NEXT: ( ( 1.5, 3.25 ), ( -2.5, 0 ) )
// CHECK-NEXT: ( 1, -1, 2, -2, 3, -3 )
// CHECK-NEXT: ( ( 0, 0, 1, 1, 2, 2 ), ( 3, 3, 4, 4, 5, 5 ) )
// CHECK-NEXT: ( 4, 5 )
// CHECK-NEXT: ( 1, 2, 3 )
// CHECK-NEXT: ( -1, -2, -3 )
// CHECK-NEXT: ( ( ( 0, 2 ), ( 4, 6 ), ( 8, 10 ) ), ( ( 12, 14 ), ( 16, 18 ), ( 20, 22 ) ) )
// CHECK-NEXT: ( ( ( 1, 3 ), ( 5, 7 ), ( 9, 11 ) ), ( ( 13, 15 ), ( 17, 19 ), ( 21, 23 ) ) )
// CHECK-NEXT: ( 0, 1, 2, 3, 4 )
// CHECK-NEXT: ( ( 3, 0.5, -1 ), ( -6, -1, 2 ) )
// CHECK-NEXT: ( ( 13, 20.5, 29 ), ( -7, -3, -1 ) )
// CHECK-NEXT: ( ( 30, 10, -30 ), ( 6, 2, -6 ) )
// CHECK-NEXT: ( ( 10, 20, 30 ), ( -1, -1, 2 ) )
// CHECK-NEXT: ( ( 3, 0.5, -1 ), ( -6, -2, -3 ) )
// CHECK-NEXT: ( 5, -10 )
// CHECK-NEXT: ( 4, -8 )
// CHECK-NEXT: ( ( 11, 114, -10 ), ( -15, -15, 12 ) )
// CHECK-NEXT: ( ( 1, 14, -8 ), ( -15, -21, 3 ) )
// CHECK-NEXT: ( ( 10, 100, -2 ), ( -15, -21, 9 ) )
// CHECK-NEXT: ( ( 11, 106, 6 ), ( -15, -19, 10 ) )
// CHECK-NEXT: ( ( 0, 4, -8 ), ( 0, 2, 1 ) )
