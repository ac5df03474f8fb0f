// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -convert-vector-to-llvm \
// RUN:   -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void -O0 -enable-matrix \
// RUN:   -matrix-allow-contract -matrix-default-layout=column-major \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// llvm.intr.matrix.transpose / multiply on flat column-major matrices (what -enable-matrix
// compiles): square and non-square shapes, a product whose operands are not symmetric, and
// an integer product.
func.func @main() {
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : vector<6xf64>
  %b = arith.constant dense<[0.5, -1.0, 2.0, 0.0, 3.0, -2.0, 1.0, 4.0]> : vector<8xf64>
  %t23 = llvm.intr.matrix.transpose %a {rows = 2 : i32, columns = 3 : i32}
      : vector<6xf64> into vector<6xf64>
  vector.print %t23 : vector<6xf64>
  %t32 = llvm.intr.matrix.transpose %a {rows = 3 : i32, columns = 2 : i32}
      : vector<6xf64> into vector<6xf64>
  vector.print %t32 : vector<6xf64>
  %t22 = llvm.intr.matrix.transpose %b {rows = 2 : i32, columns = 4 : i32}
      : vector<8xf64> into vector<8xf64>
  vector.print %t22 : vector<8xf64>
  // a as a 3x2 matrix times b as a 2x4 one: a 3x4 product; then b (4x2) times a (2x3).
  %p = llvm.intr.matrix.multiply %a, %b {lhs_rows = 3 : i32, lhs_columns = 2 : i32,
      rhs_columns = 4 : i32} : (vector<6xf64>, vector<8xf64>) -> vector<12xf64>
  vector.print %p : vector<12xf64>
  %q = llvm.intr.matrix.multiply %b, %a {lhs_rows = 4 : i32, lhs_columns = 2 : i32,
      rhs_columns = 3 : i32} : (vector<8xf64>, vector<6xf64>) -> vector<12xf64>
  vector.print %q : vector<12xf64>
  %i = arith.constant dense<[1, -2, 3, 4]> : vector<4xi32>
  %j = arith.constant dense<[5, 6, -7, 8]> : vector<4xi32>
  %ij = llvm.intr.matrix.multiply %i, %j {lhs_rows = 2 : i32, lhs_columns = 2 : i32,
      rhs_columns = 2 : i32} : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  vector.print %ij : vector<4xi32>
  return
}

// CHECK: ( 1, 3, 5, 2, 4, 6 )
// CHECK-NEXT: ( 1, 4, 2, 5, 3, 6 )
// CHECK-NEXT: ( 0.5, 2, 3, 1, -1, 0, -2, 4 )
// CHECK-NEXT: ( -3.5, -4, -4.5, 2, 4, 6, -5, -4, -3, 17, 22, 27 )
// CHECK-NEXT: ( 6.5, -5, 4, 8, 13.5, -11, 10, 16, 20.5, -17, 16, 24 )
// CHECK-NEXT: ( 23, 14, 17, 46 )
