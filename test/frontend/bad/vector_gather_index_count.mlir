// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// One index per dimension of the base: a 2-D memref with one offset.
// CHECK: vector_gather_index_count.mlir:7:8: error: 'vector.gather' op requires 2 indices
// CHECK-NOT: Traceback
func.func @f(%m: memref<?x?xf32>, %c0: index, %i: vector<8xi32>, %k: vector<8xi1>,
             %p: vector<8xf32>) -> vector<8xf32> {
  %0 = vector.gather %m[%c0] [%i], %k, %p : memref<?x?xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %0 : vector<8xf32>
}
