// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// vector.extract_strided_slice and vector.insert_strided_slice on 1-D and n-D vectors:
// slices of the leading dimensions only, of every dimension, of nothing; sources of lower
// rank than the destination; 0-D-like single lanes.
func.func @main() {
  %v = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
  %s1 = vector.extract_strided_slice %v {offsets = [2], sizes = [3], strides = [1]}
      : vector<8xi32> to vector<3xi32>
  // CHECK: ( 2, 3, 4 )
  vector.print %s1 : vector<3xi32>
  %s2 = vector.extract_strided_slice %v {offsets = [7], sizes = [1], strides = [1]}
      : vector<8xi32> to vector<1xi32>
  // CHECK-NEXT: ( 7 )
  vector.print %s2 : vector<1xi32>

  %m = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [10.0, 11.0, 12.0, 13.0],
                             [20.0, 21.0, 22.0, 23.0]]> : vector<3x4xf32>
  // Leading dimension only: rows 1 and 2, whole.
  %r = vector.extract_strided_slice %m {offsets = [1], sizes = [2], strides = [1]}
      : vector<3x4xf32> to vector<2x4xf32>
  // CHECK-NEXT: ( ( 10, 11, 12, 13 ), ( 20, 21, 22, 23 ) )
  vector.print %r : vector<2x4xf32>
  // Both dimensions.
  %b = vector.extract_strided_slice %m {offsets = [0, 1], sizes = [3, 2], strides = [1, 1]}
      : vector<3x4xf32> to vector<3x2xf32>
  // CHECK-NEXT: ( ( 1, 2 ), ( 11, 12 ), ( 21, 22 ) )
  vector.print %b : vector<3x2xf32>
  // No dimension: the whole vector.
  %w = vector.extract_strided_slice %m {offsets = [], sizes = [], strides = []}
      : vector<3x4xf32> to vector<3x4xf32>
  // CHECK-NEXT: ( ( 0, 1, 2, 3 ), ( 10, 11, 12, 13 ), ( 20, 21, 22, 23 ) )
  vector.print %w : vector<3x4xf32>

  %t = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]], [[8, 9], [10, 11]]]>
      : vector<3x2x2xi64>
  %t2 = vector.extract_strided_slice %t {offsets = [1, 1], sizes = [2, 1], strides = [1, 1]}
      : vector<3x2x2xi64> to vector<2x1x2xi64>
  // CHECK-NEXT: ( ( ( 6, 7 ) ), ( ( 10, 11 ) ) )
  vector.print %t2 : vector<2x1x2xi64>

  // Insert a 1-D vector into a 1-D vector.
  %z = arith.constant dense<-1> : vector<8xi32>
  %i1 = vector.insert_strided_slice %s1, %z {offsets = [4], strides = [1]}
      : vector<3xi32> into vector<8xi32>
  // CHECK-NEXT: ( -1, -1, -1, -1, 2, 3, 4, -1 )
  vector.print %i1 : vector<8xi32>
  %i2 = vector.insert_strided_slice %v, %z {offsets = [0], strides = [1]}
      : vector<8xi32> into vector<8xi32>
  // CHECK-NEXT: ( 0, 1, 2, 3, 4, 5, 6, 7 )
  vector.print %i2 : vector<8xi32>
  // Insert a 2-D block into a 2-D vector.
  %blk = arith.constant dense<[[7.5, 8.5], [9.5, 10.5]]> : vector<2x2xf32>
  %i3 = vector.insert_strided_slice %blk, %m {offsets = [1, 2], strides = [1, 1]}
      : vector<2x2xf32> into vector<3x4xf32>
  // CHECK-NEXT: ( ( 0, 1, 2, 3 ), ( 10, 11, 7.5, 8.5 ), ( 20, 21, 9.5, 10.5 ) )
  vector.print %i3 : vector<3x4xf32>
  // Insert a 1-D vector into a 3-D vector (the source fills the innermost dimension).
  %pair = arith.constant dense<[100, 200]> : vector<2xi64>
  %i4 = vector.insert_strided_slice %pair, %t {offsets = [2, 0, 0], strides = [1]}
      : vector<2xi64> into vector<3x2x2xi64>
  // CHECK-NEXT: ( ( ( 0, 1 ), ( 2, 3 ) ), ( ( 4, 5 ), ( 6, 7 ) ), ( ( 100, 200 ), ( 10, 11 ) ) )
  vector.print %i4 : vector<3x2x2xi64>
  // A single lane into the middle of a 2-D vector.
  %one = arith.constant dense<42.0> : vector<1xf32>
  %i5 = vector.insert_strided_slice %one, %m {offsets = [2, 1], strides = [1]}
      : vector<1xf32> into vector<3x4xf32>
  // CHECK-NEXT: ( ( 0, 1, 2, 3 ), ( 10, 11, 12, 13 ), ( 20, 42, 22, 23 ) )
  vector.print %i5 : vector<3x4xf32>
  // Extract what was inserted: a round trip.
  %back = vector.extract_strided_slice %i3 {offsets = [1, 2], sizes = [2, 2], strides = [1, 1]}
      : vector<3x4xf32> to vector<2x2xf32>
  // CHECK-NEXT: ( ( 7.5, 8.5 ), ( 9.5, 10.5 ) )
  vector.print %back : vector<2x2xf32>
  return
}
