// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// vector.print of scalars and 1-D/2-D/0-D vectors of several element types, strings, punctuation.
func.func @main() {
  %v1 = arith.constant dense<[1.5, -2.0, 3.25, 0.0]> : vector<4xf32>
  vector.print %v1 : vector<4xf32>
  %v2 = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
  vector.print %v2 : vector<2x3xi32>
  %v3 = arith.constant dense<[true, false, true]> : vector<3xi1>
  vector.print %v3 : vector<3xi1>
  %v4 = arith.constant dense<[-1, 127]> : vector<2xi8>
  vector.print %v4 : vector<2xi8>
  %v5 = arith.constant dense<[1.0e+20, 2.5e-20]> : vector<2xf64>
  vector.print %v5 : vector<2xf64>
  %v6 = arith.constant dense<[0, 18]> : vector<2xindex>
  vector.print %v6 : vector<2xindex>
  %v7 = arith.constant dense<42> : vector<i64>
  vector.print %v7 : vector<i64>
  %v8 = arith.constant dense<[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]> : vector<2x2x2xi16>
  vector.print %v8 : vector<2x2x2xi16>
  vector.print str "text without newline; "
  vector.print str "then one\n"
  %x = arith.constant 9 : i32
  vector.print punctuation <open>
  vector.print %x : i32 punctuation <comma>
  vector.print %x : i32 punctuation <no_punctuation>
  vector.print punctuation <close>
  vector.print punctuation <newline>
  return
}

// CHECK: ( 1.5, -2, 3.25, 0 )
// CHECK-NEXT: ( ( 1, 2, 3 ), ( 4, 5, 6 ) )
// CHECK-NEXT: ( 1, 0, 1 )
// CHECK-NEXT: ( -1, 127 )
// CHECK-NEXT: ( 1e+20, 2.5e-20 )
// CHECK-NEXT: ( 0, 18 )
// CHECK-NEXT: ( 42 )
// CHECK-NEXT: ( ( ( 1, 2 ), ( 3, 4 ) ), ( ( 5, 6 ), ( 7, 8 ) ) )
// CHECK-NEXT: text without newline; then one
// CHECK-NEXT: ( 9, 9 )
