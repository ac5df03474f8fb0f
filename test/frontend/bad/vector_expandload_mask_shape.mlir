// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// The mask of expandload has the result's shape.
// CHECK: vector_expandload_mask_shape.mlir:6:8: error: 'vector.expandload' op expected result dim to match mask dim
// CHECK-NOT: Traceback
func.func @f(%m: memref<?xf32>, %c0: index, %k: vector<4xi1>, %p: vector<8xf32>) -> vector<8xf32> {
  %0 = vector.expandload %m[%c0], %k, %p : memref<?xf32>, vector<4xi1>, vector<8xf32> into vector<8xf32>
  return %0 : vector<8xf32>
}
