// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// A permutation that names dimension 1 twice.
// CHECK: vector_transpose_duplicate.mlir:6:8: error: 'vector.transpose' op duplicate position index: 1
// CHECK-NOT: Traceback
func.func @f(%a: vector<2x3xf32>) -> vector<3x3xf32> {
  %0 = vector.transpose %a, [1, 1] : vector<2x3xf32> to vector<3x3xf32>
  return %0 : vector<3x3xf32>
}
