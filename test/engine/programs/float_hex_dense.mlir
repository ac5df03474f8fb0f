// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Hexadecimal literals in dense float attributes are bit patterns (NaN, infinities,
// exact values), as upstream prints them after constant folding.
func.func @main() {
  %f32 = arith.constant dense<[1.0, 0x7FC00000, 0xFF800000, 0x3F800000, 0x00000001]> : vector<5xf32>
  vector.print %f32 : vector<5xf32>
  %f64 = arith.constant dense<[0x41EFFFFFFFC00000, 0x7FF0000000000000, -2.5]> : vector<3xf64>
  vector.print %f64 : vector<3xf64>
  %f16 = arith.constant dense<[0x3C00, 0x7C00, 0xC000]> : vector<3xf16>
  vector.print %f16 : vector<3xf16>
  %splat = arith.constant dense<0x40490FDB> : vector<2xf32>
  vector.print %splat : vector<2xf32>
  %m = memref.alloc() : memref<2x2xf64>
  %t = arith.constant dense<[[0x3FF0000000000000, 0x4000000000000000], [0x4008000000000000, 0xFFF8000000000000]]> : vector<2x2xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row1 = vector.extract %t[1] : vector<2xf64> from vector<2x2xf64>
  vector.store %row1, %m[%c1, %c0] : memref<2x2xf64>, vector<2xf64>
  %x = memref.load %m[%c1, %c1] : memref<2x2xf64>
  %y = memref.load %m[%c1, %c0] : memref<2x2xf64>
  vector.print %x : f64
  vector.print %y : f64
  memref.dealloc %m : memref<2x2xf64>
  return
}

// CHECK: ( 1, nan, -inf, 1, 1.4013e-45 )
// CHECK-NEXT: ( 4.29497e+09, inf, -2.5 )
// CHECK-NEXT: ( 1, inf, -2 )
// CHECK-NEXT: ( 3.14159, 3.14159 )
// CHECK-NEXT: -nan
// CHECK-NEXT: 3
