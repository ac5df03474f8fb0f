// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// insert_strided_slice needs one offset per destination dimension.
// CHECK: strided_slice_insert_rank.mlir:6:8: error: 'vector.insert_strided_slice' op expected offsets of same size as destination vector rank
// CHECK-NOT: Traceback
func.func @f(%b: vector<2x4xf32>, %c: vector<16x4x8xf32>) -> vector<16x4x8xf32> {
  %0 = vector.insert_strided_slice %b, %c {offsets = [0, 2], strides = [1, 1]} : vector<2x4xf32> into vector<16x4x8xf32>
  return %0 : vector<16x4x8xf32>
}
